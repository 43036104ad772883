#!/usr/bin/env bash
# kgen's checks on a CPU with AMX (amx_bf16, amx_int8): the AMX kernels run natively against the
# float64 reference, the calibration and the tiles' peaks, untuned --alg=auto against every candidate
# and PyTorch at its best, `kgen tune`'s time, ResNet-50 and MobileNetV2 end to end in bf16, and the
# AMX model fitted to this CPU's figures (python -m generator.select.amx_fit).
#   bash .ci/amx_check.sh [tests] [calibrate] [bench] [tune] [net] [groups3d] [fit]     default: all, in that order
# bench: the 8 ResNet-50 b1 layers in NHWC with an empty selection table (untuned) in bf16, u8:s8:u8
# (common scales, per_oc weights) and f32 (bf16x3 on the tiles and on the vector unit beside f32's kernels:
# named only, never auto's); tune: `kgen tune` of the 8 layers in nchw and nhwc per data type from an empty kernel cache,
# timed, then the bench again reading that table (tuned --alg=auto); fit: AMX_MODEL refitted on the
# untuned benches' brgemm_amx figures (needs bench); groups3d: brgemm_amx against brgemm on ResNeXt-50's
# grouped 3x3 layers of 16 and 32 channels a group and two 3x3x3 layers (the model prices neither: a
# tune decides). Last, summary.log: untuned and tuned auto against
# PyTorch (geomean, worst), untuned against tuned per layer, brgemm_amx's 3x3 layers against the tiles' peak.
# Logs and JSON go to $OUT or ./amx-out. About 40 minutes on 2 cores; run it on a quiet machine.
# AMX_CHECK_WITHOUT_AMX=1 runs every step on a CPU without the tiles (brgemm_amx n/a, no fit): a check of
# the commands themselves, about 15 minutes with a warm kernel cache.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/amx-out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
what=("$@"); [ ${#what[@]} -eq 0 ] && what=(tests calibrate bench tune net groups3d fit)
has() { local w; for w in "${what[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
t0=$(date +%s)
stamp() { echo "amx_check: $1 done at $(( $(date +%s) - t0 )) s"; }
flags=$(grep -o 'avx512_vnni\|avx512_bf16\|amx_bf16\|amx_int8\|amx_tile' /proc/cpuinfo | sort -u | tr '\n' ' ')
model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)
echo "cpu:$model; $(nproc) CPUs; $flags" | tee "$OUT/cpu.log"
case "$flags" in
  *amx_bf16*amx_int8*|*amx_int8*amx_bf16*) ;;
  *) if [ "${AMX_CHECK_WITHOUT_AMX:-0}" = 1 ]; then
       echo "amx_check: no amx_bf16 and amx_int8 here: every step runs, brgemm_amx n/a (AMX_CHECK_WITHOUT_AMX=1)"
     else
       echo "amx_check: this CPU has no amx_bf16 and amx_int8 (grep amx /proc/cpuinfo): nothing to check" \
            "(AMX_CHECK_WITHOUT_AMX=1 runs the steps anyway)"; exit 2
     fi ;;
esac
./build.sh bench call --help >/dev/null || exit 3        # set up .venv, PyTorch for the bench among it
export KGEN_CACHE_DIR=${KGEN_CACHE_DIR:-$PWD/build/cache}
KGEN=(.venv/bin/kgen)
L=(mb1ic64ih56oc64oh56kh1ph0 mb1ic64ih56oc64oh56kh3ph1 mb1ic256ih56oc64oh56kh1ph0 mb1ic128ih28oc128oh28kh3ph1
   mb1ic256ih14oc256oh14kh3ph1 mb1ic512ih7oc512oh7kh3ph1 mb1ic3ih224oc64oh112kh7sh2ph3 mb1ic256ih56oc512oh28kh1sh2ph0)
U8=(--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2)
declare -A ALGS=([bf16]=brgemm,brgemm_fma,brgemm_amx,winograd_f2,winograd_f4,winograd_f6
                 [u8]=brgemm,brgemm_amx [f32]=brgemm,winograd_f2,winograd_f4,winograd_f6,brgemm_bf16x3,brgemm_amx_bf16x3)
dt_args() { case "$1" in u8) echo "${U8[@]}" ;; *) echo "--dt=$1" ;; esac; }
if has tests; then
  # every AMX case natively (they skip without the tiles), the bf16x3 tests and the cost model's
  timeout 1800 ./build.sh test --full -k "amx or bf16x3 or cost_model or calibrat or probe" \
    tests/test_conv_brgemm.py tests/test_conv_bf16x3.py tests/test_cost_model.py 2>&1 | tee "$OUT/tests.log" | tail -5
  stamp tests
fi
if has calibrate; then
  { "${KGEN[@]}" calibrate; "${KGEN[@]}" bench peak --instructions=tdpbusd,tdpbf16ps,vpdpbusd,vdpbf16ps,vfmadd231ps; } \
    2>&1 | tee "$OUT/calibrate.log"
  stamp calibrate
fi
bench() {   # bench TAG TABLE DT
  KGEN_TUNED_TABLE=$2 timeout 1800 "${KGEN[@]}" bench conv --layouts=nhwc --flags=default --alg="${ALGS[$3]}" \
    $(dt_args "$3") "${L[@]}" --json="$OUT/bench_$1_$3.json" 2>&1 | tee "$OUT/bench_$1_$3.log" | grep -v '^  '
}
if has bench; then
  for dt in bf16 u8 f32; do bench untuned "$OUT/empty/tuned.json" $dt; stamp "bench untuned $dt"; done
fi
if has tune; then
  for dt in bf16 u8 f32; do
    rm -rf "$OUT/cold_$dt"
    t1=$(date +%s)        # from an empty kernel cache, the calibration included: what a new user waits
    KGEN_CACHE_DIR="$OUT/cold_$dt" KGEN_TUNED_TABLE="$OUT/tuned_$dt.json" timeout 1800 \
      "${KGEN[@]}" tune $(dt_args $dt) --stag=any --dtag=any --layouts=nchw,nhwc "${L[@]}" 2>&1 \
      | tee "$OUT/tune_$dt.log" | grep -v '^    '
    echo "kgen tune $dt: $(( $(date +%s) - t1 )) s wall" | tee -a "$OUT/tune_$dt.log"
    rm -rf "$OUT/cold_$dt"
    bench tuned "$OUT/tuned_$dt.json" $dt; stamp "tune $dt"
  done
fi
if has net; then
  for m in resnet50 mobilenet_v2; do
    KGEN_TUNED_TABLE="$OUT/empty/tuned.json" timeout 1800 "${KGEN[@]}" net --model=torchvision:$m --dt=bf16 --rounds=10 \
      2>&1 | tee "$OUT/net_$m.log" | tail -12
    stamp "net $m"
  done
fi
G3=(g32mb1ic512ih14oc512oh14kh3ph1 g32mb1ic1024ih7oc1024oh7kh3ph1
    mb1ic64id8ih28iw28oc64kd3kh3kw3pd1ph1pw1 mb1ic128id4ih14iw14oc128kd3kh3kw3pd1ph1pw1)
if has groups3d; then
  for dt in bf16 u8; do
    KGEN_TUNED_TABLE="$OUT/empty/tuned.json" timeout 1800 "${KGEN[@]}" bench conv --layouts=nhwc --flags=default \
      --alg=brgemm,brgemm_amx $(dt_args $dt) "${G3[@]}" --json="$OUT/bench_groups3d_$dt.json" 2>&1 \
      | tee "$OUT/bench_groups3d_$dt.log" | grep -v '^  '
    stamp "groups3d $dt"
  done
fi
# the figures against issue-style bars: untuned and tuned auto / PyTorch (geomean, worst), untuned /
# tuned per layer, brgemm_amx's 3x3 layers against the tiles' calibrated peak on every thread
OUT="$OUT" .venv/bin/python - <<'PY' 2>&1 | tee "$OUT/summary.log"
import json, math, os
from generator.select import calibration
out = os.environ["OUT"]
def load(name):
    try:
        with open(f"{out}/{name}.json") as f:
            return {p["problem"]: p for p in json.load(f)["problems"]}
    except OSError:
        return None
def secs(p, label):
    return next((c["seconds"] for c in p["candidates"] if label and c["status"] == "ok"
                 and f'{c["variant"]}/{c["layout"]}/{c["flags"]}' + (f'@{c["driver"]}' if c["driver"] else "") == label), None)
def best(p, variant):
    return min((c["seconds"] for c in p["candidates"] if c["variant"] == variant and c["status"] == "ok"
                and c["seconds"]), default=None)
def torch(p):
    return min(p["torch_seconds"].values()) if p["torch_seconds"] else None
cal = calibration.current()
print(cal.line())
for dt, instr in (("bf16", "tdpbf16ps"), ("u8", "tdpbusd"), ("f32", None)):
    for tag in ("untuned", "tuned"):
        b = load(f"bench_{tag}_{dt}")
        if not b:
            continue
        r = {k: torch(p) / s for k, p in b.items() if (s := secs(p, p["auto"])) and torch(p)}
        if r:
            print(f"{dt} {tag} auto / PyTorch: geomean {math.exp(sum(map(math.log, r.values())) / len(r)):.2f}x, "
                  f"worst {min(r.values()):.2f}x ({min(r, key=r.get)})")
    u, t = load(f"bench_untuned_{dt}"), load(f"bench_tuned_{dt}")
    if u and t:
        r = {k: secs(t[k], t[k]["auto"]) / s for k, p in u.items() if k in t and (s := secs(p, p["auto"]))
             and secs(t[k], t[k]["auto"])}
        if r:
            print(f"{dt} untuned / tuned: worst {min(r.values()):.2f} ({min(r, key=r.get)})")
    if u and instr and cal.rate(instr, cal.threads):
        peak = cal.rate(instr, cal.threads)
        for k, p in u.items():
            amx = best(p, "brgemm_amx")
            if amx and "kh3" in k and not k.startswith("g") and "kd3" not in k:
                print(f"{dt} brgemm_amx {k}: {p['flops'] / amx / 1e9:.0f} G/s, {p['flops'] / amx / peak:.0%} "
                      f"of {instr}'s {peak / 1e9:.0f} on {cal.threads} threads")
    g3 = load(f"bench_groups3d_{dt}")
    for k, p in (g3 or {}).items():
        amx, vec = best(p, "brgemm_amx"), best(p, "brgemm")
        if amx and vec:
            print(f"{dt} grouped/3D {k}: brgemm_amx {p['flops'] / amx / 1e9:.0f} G/s, {vec / amx:.2f}x brgemm")
PY
if has fit; then
  .venv/bin/python -m generator.select.amx_fit "$OUT"/bench_untuned_bf16.json "$OUT"/bench_untuned_u8.json 2>&1 \
    | tee "$OUT/fit.log"
fi
