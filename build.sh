#!/usr/bin/env bash
# kgen codegen script.
#   ./build.sh [--backend=llvm-cpu|vulkan|cuda] [--jobs=N]   set up, generate mlir/, compile build/<backend>/, check, summarise
#   ./build.sh test [--full] [PYTEST ARGS...]                  set up, then run the quick test tier (--full: every sweep)
#   ./build.sh bench [reorder|conv|call] [KGEN BENCH ARGS...]  set up with PyTorch, then run a benchmark (default: reorder)
#   ./build.sh tune [KGEN TUNE ARGS...]                        set up, then measure and store --alg=auto's choices
#   ./build.sh gpu-kit                                         pack IREE for a GPU machine without pip (.gpukit/, .ci/gpu_check.sh)
# Set-up is idempotent: .venv is created once and re-installed only when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
VENV=$ROOT/.venv
PY=$VENV/bin/python
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
export KGEN_CACHE_DIR=${KGEN_CACHE_DIR:-$ROOT/build/cache}

log() { printf '[build.sh] %s\n' "$*" >&2; }

setup_venv() {
  local extras=$1 stamp="$VENV/.kgen-installed-$1"
  if [ ! -x "$PY" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
  fi
  local want
  want=$(sha256sum pyproject.toml | cut -c1-16)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing kgen[$extras] into .venv (first run takes a few minutes)"
    "$PY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    if ! "$PY" -m pip install --disable-pip-version-check -e ".[$extras]" >"$VENV/install.log" 2>&1 \
        || ! "$PY" -c "import generator, iree.compiler, iree.runtime"; then
      tail -n 30 "$VENV/install.log" >&2
      log "installation failed (full log: $VENV/install.log)"
      exit 1
    fi
    echo "$want" > "$stamp"
  fi
}

setup_vulkan() {
  # Mesa's lavapipe: a Vulkan driver that runs on the CPU, so Vulkan kernels run on any machine.
  if ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Mesa lavapipe (mesa-vulkan-drivers, libvulkan1)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers libvulkan1) >/dev/null 2>&1 \
      || log "could not install lavapipe: Vulkan tests will be skipped"
  else
    log "lavapipe is missing and apt-get is unavailable (not root): Vulkan tests will be skipped"
  fi
}

cmd=${1:-build}
case "$cmd" in
  test)
    shift
    # $KGEN_EXTRAS adds extras to the test set-up (CI: ray, for the farm tests); plain ./build.sh test has none
    setup_venv "test${KGEN_EXTRAS:+,$KGEN_EXTRAS}"
    setup_vulkan
    # two workers on two cores; compiled artifacts are shared through the content-addressed cache
    exec "$PY" -m pytest -n "${KGEN_TEST_JOBS:-2}" -q "$@"
    ;;
  bench)
    shift
    setup_venv "test,bench"
    what=reorder
    case "${1:-}" in reorder|conv|call) what=$1; shift ;; esac
    exec "$VENV/bin/kgen" bench "$what" "$@"
    ;;
  tune)
    # the tuned catalog: kgen tune's choices land in $KGEN_CACHE_DIR/tuned.json, their kernels in the cache
    shift
    setup_venv "test,bench"
    exec "$VENV/bin/kgen" tune "$@"
    ;;
  gpu-kit)
    # A lent GPU machine has Python 3.12, PyTorch and CUDA but no package index, and takes at most
    # 64 MiB along: IREE's cp312 runtime (its CUDA driver) and iree-compile (a plain binary: the one
    # installed here, its 330 MB library xz-packed to ~50 MB) go into .gpukit/ for .ci/gpu_check.sh.
    for tool in unzip xz; do
      command -v $tool >/dev/null || { log "gpu-kit needs $tool (apt-get install $tool)"; exit 1; }
    done
    setup_venv test
    kit=$ROOT/.gpukit stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    ver=$("$PY" -c "import importlib.metadata as m; print(m.version('iree-base-runtime'))")
    comp=$("$PY" -c "import iree.compiler, os; print(os.path.dirname(iree.compiler.__file__))")
    log "downloading iree-base-runtime==$ver for CPython 3.12"
    "$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.12 \
      --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
      -d "$stage/whl" "iree-base-runtime==$ver"
    (cd "$stage" && mkdir site && cd site && unzip -q ../whl/*.whl 'iree/runtime/*' 'iree/_runtime/*' \
        'iree/_runtime_libs/__init__.py' 'iree/_runtime_libs/version.py' 'iree/_runtime_libs/_runtime.abi3.so' \
        'iree_base_runtime.libs/*')
    # iree-compile through iree.compiler.tools.binaries.find_tool, without the cp311 Python bindings
    mkdir -p "$stage/site/iree/compiler/tools" "$stage/site/iree/compiler/_mlir_libs"
    : > "$stage/site/iree/compiler/__init__.py"; : > "$stage/site/iree/compiler/tools/__init__.py"
    cp "$comp/tools/binaries.py" "$stage/site/iree/compiler/tools/"
    cp "$comp/_mlir_libs/iree-compile" "$stage/site/iree/compiler/_mlir_libs/"
    rm -rf "$kit"; mkdir -p "$kit"
    tar -cJf "$kit/iree_site.tar.xz" -C "$stage/site" .
    log "xz-packing libIREECompiler.so (about two minutes)"
    xz -9 -T0 -c "$comp/_mlir_libs/libIREECompiler.so" > "$kit/libIREECompiler.so.xz"
    # the Vulkan loader (Debian's libvulkan1, ~150 kB), for the Vulkan tests on the GPU's own driver
    # where the machine has none: gpu_check.sh unpacks it into a folder of its own
    if command -v apt-get >/dev/null; then
      apt=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists="$stage/lists")
      mkdir -p "$stage/lists/partial" "$kit/debs"
      (apt-get "${apt[@]}" update -qq && cd "$kit/debs" && apt-get "${apt[@]}" download -qq libvulkan1) >/dev/null 2>&1 \
        || log "could not download libvulkan1: gpu_check.sh's vulkan step then needs the machine's own loader"
    fi
    log "$(du -sh "$kit" | cut -f1) in $kit: on the GPU machine, carry .gpukit and run bash .ci/gpu_check.sh"
    ;;
  -h|--help|help)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  build|--*)
    [ "$cmd" = build ] && shift || true
    setup_venv test
    setup_vulkan
    exec "$VENV/bin/kgen" catalog build "$@"
    ;;
  *)
    log "unknown command '$cmd' (use: ./build.sh [build] [--backend=...], ./build.sh test, ./build.sh bench [reorder|conv|call], ./build.sh tune, ./build.sh gpu-kit)"
    exit 2
    ;;
esac
