#!/usr/bin/env bash
# kgen's CUDA and Vulkan checks on a lent GPU machine (Python 3.12 with PyTorch, numpy, jinja2, ml_dtypes
# and pytest, but no package index): unpack `./build.sh gpu-kit`'s .gpukit/ (IREE's runtime and
# iree-compile, the Vulkan loader), then run the CUDA tests, the Vulkan tests on the GPU's driver and
# `kgen bench conv --backend=cuda` per data type.
#   bash .ci/gpu_check.sh [tests] [vulkan] [bench] [tune] [DT...]    default: tests vulkan bench f32 f16 bf16
# tests: the CUDA cases of the test files (the f16/bf16 sweep of tests/data/conv/cuda_half_sweep among them);
# vulkan: their Vulkan cases and tests/test_cli.py's (the 256-problem sweep among them) on the GPU's
# Vulkan driver (its ICD where the NVIDIA container runtime puts it; the kit's loader where the machine has none);
# bench: `kgen bench conv --backend=cuda --all` per data type; tune: before each data type's bench,
# `kgen tune --backend=cuda` in NHWC, and that bench in NHWC only (its --alg=auto column then reads
# the tuned table, keyed by the GPU).
# Logs and the benches' JSON go to $OUT (the device tool's folder) or ./gpu-out.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
site=/tmp/kgen-gpukit
t0=$(date +%s)
if [ ! -x "$site/iree/compiler/_mlir_libs/iree-compile" ]; then
  [ -f .gpukit/iree_site.tar.xz ] || { echo "gpu_check: no .gpukit/ (run ./build.sh gpu-kit here, carry .gpukit)"; exit 2; }
  mkdir -p "$site" && tar -xJf .gpukit/iree_site.tar.xz -C "$site" \
    && xz -T0 -dc .gpukit/libIREECompiler.so.xz > "$site/iree/compiler/_mlir_libs/libIREECompiler.so" || exit 3
fi
export PYTHONPATH=$site:$PWD KGEN_CACHE_DIR=${KGEN_CACHE_DIR:-/tmp/kgen-cache}
what=("$@"); [ ${#what[@]} -eq 0 ] && what=(tests vulkan bench f32 f16 bf16)
has() { local w; for w in "${what[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
# the test files with device cases; -k keeps a backend's (compiled everywhere, run here)
DEVICE_TESTS=(tests/test_compile_runtime.py tests/test_conv_kernels.py tests/test_reorder_kernels.py tests/test_conv_attrs.py)
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  python3 -c "import iree.runtime as rt, torch; print('IREE drivers', rt.query_available_drivers(), '| PyTorch', torch.__version__)"
  python3 -c "from generator.compile import cuda_device_available as c; print('kgen cuda_device_available', c())"
} 2>&1 | tee "$OUT/env.log"
if has tests; then
  # their CUDA cases
  timeout "${GPU_TESTS_TIMEOUT:-300}" python3 -m pytest -n 8 -p no:cacheprovider -q -rs --full -k cuda \
    "${DEVICE_TESTS[@]}" 2>&1 | grep -v 'PytestBenchmarkWarning\|warner(' | tee "$OUT/tests.log"
  echo "gpu_check: tests done at $(( $(date +%s) - t0 )) s"
fi
if has vulkan; then
  if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1'; then
    if ls .gpukit/debs/libvulkan1_*.deb >/dev/null 2>&1; then
      vk=/tmp/kgen-vulkan-loader; mkdir -p "$vk"
      for deb in .gpukit/debs/*.deb; do dpkg -x "$deb" "$vk"; done
      export LD_LIBRARY_PATH=$vk/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    else
      echo "gpu_check: no Vulkan loader here (libvulkan.so.1) and none in .gpukit/debs: the Vulkan tests will skip"
    fi
  fi
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
             /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && { export VK_DRIVER_FILES=$icd; break; }
  done
  python3 -c "from generator.compile import vulkan_device_available as v; print('kgen vulkan_device_available', v())" \
    2>&1 | tee -a "$OUT/env.log"
  timeout "${GPU_VULKAN_TIMEOUT:-300}" python3 -m pytest -n 8 -p no:cacheprovider -q -rfs --full -k vulkan \
    "${DEVICE_TESTS[@]}" tests/test_cli.py 2>&1 | grep -v 'PytestBenchmarkWarning\|warner(' | tee "$OUT/vulkan.log" | tail -25
  echo "gpu_check: vulkan done at $(( $(date +%s) - t0 )) s"
fi
if has bench; then
  for dt in "${what[@]}"; do
    case "$dt" in tests|vulkan|bench|tune) continue ;; esac
    layouts=()
    if has tune; then
      timeout "${GPU_BENCH_TIMEOUT:-300}" python3 -m generator.cli.main tune --backend=cuda --rounds=5 --jobs=14 \
        --dt="$dt" --stag=nhwc --dtag=nhwc 2>&1 | tee "$OUT/tune_$dt.log" | grep -v '^    '
      echo "gpu_check: tune $dt done at $(( $(date +%s) - t0 )) s"
      layouts=(--layouts=nhwc)
    fi
    timeout "${GPU_BENCH_TIMEOUT:-300}" python3 -m generator.cli.main bench conv --backend=cuda --rounds=5 --jobs=14 \
      --dt="$dt" --all "${layouts[@]}" --json="$OUT/bench_$dt.json" 2>&1 | tee "$OUT/bench_$dt.log" | grep -v '^    '
    echo "gpu_check: bench $dt done at $(( $(date +%s) - t0 )) s"
  done
fi
