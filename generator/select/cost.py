"""The cost model: a convolution candidate's time predicted from the work it does and this CPU's
calibration (`select.calibration`), without compiling or running it.

    seconds = call + operations / (rate x efficiency) + bytes / bandwidth

* **operations** are those the kernel issues, not the problem's (`work.kernel_ops`): brgemm pads output
  channels to whole vectors of 16 and input channels to whole groups of its instruction's depth (a
  stem's taps folded into its 3 channels); brgemm_amx computes whole 32 x 32 blocks of pixels and
  channels and pays a whole 64-byte tile row for each tap's channels (or each kernel row's, where it
  folds them); Winograd F(m, 3) multiplies (m + 2)^2 values a tile of m x m outputs instead of 9 m^2, and
  pays its transforms.
* **rate** is the calibrated rate of the instruction the variant's kernel is built on (AMX's tiles,
  `vpdpbusd`, `vdpbf16ps`, or `vfmadd231ps`: f32 and f16, widened bf16, and every variant whose GEMM
  IREE lowers), on one thread (local-sync) or on every thread (local-task, host-threads).
* **efficiency** is what the variant reached of that rate (`efficiency.EFFICIENCY`), fitted to `kgen tune
  --exhaustive` on the ResNet-50 layers, by data type, flag set, layout class and driver, and scaled
  by this CPU's brgemm probe of the instruction against the fitting CPU's (`kernel_scale`); AMX's by
  a formula of pixels and reduction depth (`AMX_MODEL`), fitted to the one AMX CPU measured, and
  scaled by this CPU's brgemm_amx probe against what the formula predicts for it.
* **bytes** are those moved besides the kernel's own streaming: a relayout to the layout the variant
  computes in (`relayout_bytes`) and the prepared weights (`weight_bytes`: Winograd's transformed ones
  are 4x a 3x3 kernel's, in f32).
* **call** is the driver's fixed cost (`CALL_S`).

What it is for: `kgen tune` measures only the candidates within `PRUNE_FACTOR` of the predicted
fastest, plus `--alg=auto`'s untuned choice (`bench.tune.prune_candidates`), and `--alg=auto` without
a measurement weighs AMX and Winograd against the rule's kernel (`select.model_choice`). It covers
the CPU backend's ungrouped convolutions and the grouped ones brgemm runs group by group with its
ungrouped kernel, each group priced as an ungrouped conv of its channels (`covers`); depthwise
convolutions and the small groups brgemm puts across its vector lanes are left to the rule and
measured in full.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..emit.conv import VARIANTS
from ..emit.conv.brgemm.isa import vector_lane_groups
from ..emit.conv.winograd import WINOGRAD_M
from ..errors import KgenError
from ..problem.conv import ConvProblem
from ..problem.partition import conv_host_parts
from .calibration import Calibration
from .efficiency import EFFICIENCY
from .probe import PROBE_REFERENCE, PROBES, probe_name, probe_problem
from .work import amx_pixels, amx_reduction, instruction, kernel_ops

#: `kgen tune` measures the candidates predicted within this factor of the fastest prediction
PRUNE_FACTOR = 1.3

#: Each runtime driver's fixed cost per call (s): `kgen bench call` on a 2-vCPU VM (docs/performance.md,
#: Call overhead): a pre-bound call on local-sync ~3 us; local-task's hand-off to its workers ~70 us;
#: the host-threads hand-off ~6 us over local-sync's.
CALL_S = {"local-sync": 4e-6, "local-task": 70e-6, "host-threads": 12e-6}

#: the variants whose compute kgen emits itself: a flag set changes only IREE's lowering of the rest
#: (pads, relayouts), so `kgen tune` measures them with the default flags only (measured: 54
#: candidates of a bf16 3x3 layer, each of these variants within 2% across the six flag sets)
FLAG_FREE = ("brgemm", "brgemm_fma", "brgemm_amx", "winograd_f2", "winograd_f4", "winograd_f6")


@dataclass(frozen=True)
class Estimate:
    seconds: float
    instruction: str
    ops: float                  # the operations the kernel issues
    threads: int
    call: float
    compute: float
    memory: float               # relayout and weights



def dtype_kind(p: ConvProblem) -> str:
    name = p.src.dtype.name
    return "int8" if name in ("u8", "s8") else "bf16" if name == "bf16" else "f32"


def covers(p: ConvProblem, backend) -> str | None:
    """Why the model does not price `p` on `backend` (a `Backend`), or None."""
    if not backend.cost_model:
        return f"{backend.name} has no cost model"
    if p.desc.g > 1 and vector_lane_groups(p) is not None:
        return "depthwise convolutions and small groups are not in the model"
    return None


#: brgemm_amx (`amx_efficiency`), fitted to the one AMX CPU measured (an Intel Xeon with amx_bf16 and
#: amx_int8, 2 cores, docs/performance.md, 2026-11-28: 7 of the 8 ResNet-50 layers, the stem left out:
#: it ran unfolded then) against the tiles' nominal peak (1024 bf16 / 2048 int8 operations a cycle and
#: core at 2.6 GHz), on the pixels the kernel computed then (each row to whole 32-pixel blocks): in
#: bf16 the 3x3 layers reached 0.43-0.45 of the peak from 56x56 to 7x7, so the pixels it computed,
#: not the image's size, were what fell on small images (docs/performance.md, Tuned constants)
AMX_MODEL = {"bf16": {"kxk": 0.48, "1x1": 0.16, "P0": 20, "K0": 80},
             "int8": {"kxk": 0.38, "1x1": 0.23, "P0": 0, "K0": 800}}
#: the range a probe may scale the fitted efficiencies by (`kernel_scale`): a probe far outside it
#: measured something else (a VM's neighbour on the core) more likely than another CPU
KERNEL_SCALE_LIMITS = (0.33, 3.0)
#: the threads whose copies the bytes a kernel moves are priced at: two saturated the memory of the
#: 2-vCPU machines measured (a copy on two threads ran at most ~2x one thread's)
MEMORY_THREADS = 2


def amx_efficiency(p: ConvProblem) -> float:
    """brgemm_amx's fraction of its tile instruction's peak (`AMX_MODEL`): base x P / (P + P0) x
    K / (K + K0), P the pixels it computes (`work.amx_pixels`), K the reduction (`work.amx_reduction`:
    channels padded to tile rows, times taps)."""
    m = AMX_MODEL[dtype_kind(p)]
    k, pixels = amx_reduction(p), amx_pixels(p)
    return m["1x1" if p.desc.taps == 1 else "kxk"] * pixels / (pixels + m["P0"]) * k / (k + m["K0"])


def weight_bytes(p: ConvProblem) -> int:
    """The prepared weights a call reads: Winograd's transformed ones are (m + 2)^2 f32 values an input
    and output channel pair ((m + 2)^2 / 9 times the 3x3 kernel's, in f32: 37.7 MB for ResNet-50's
    512-channel layer under F(4, 3), past the caches)."""
    d = p.desc
    if p.alg in WINOGRAD_M:
        return (WINOGRAD_M[p.alg] + 2) ** 2 * (d.ic // d.g) * d.oc * 4
    return p.wei.size_bytes


def _channels_last(desc) -> bool:
    return desc.order[-1] == 1


def relayout_bytes(p: ConvProblem, target) -> int:
    """The bytes the variant moves to compute in its own layout: each of source and destination read
    and written once more where its layout is not the one the variant computes in (a blocked one
    it does not read or write in place, a plain one of the other channel order)."""
    v = VARIANTS[p.alg]
    try:
        cl = v.channels_last(p, target)
        in_place = (v.src_block(p, target), v.dst_blocks(p, target))
    except KgenError:
        return 0
    moved = 0
    for desc, blocked_ok in ((p.src, in_place[0]), (p.dst, in_place[1])):
        if desc.is_blocked:
            moved += 0 if blocked_ok else 2 * desc.size_bytes
        elif _channels_last(desc) != cl and desc.nelems > desc.dims[0] * desc.dims[1]:
            moved += 2 * desc.size_bytes
    return moved


def driver_kind(backend, driver: str | None) -> str:
    """local-sync, local-task or host-threads: what `driver` costs as (None: the backend's own, or the
    one `$KGEN_CPU_DRIVER` names)."""
    name = driver or (backend.driver_env and os.environ.get(backend.driver_env)) or backend.driver
    if backend.host_threads_driver and name == backend.host_threads_driver_name:
        return "host-threads"
    return "local-sync" if name == "local-sync" else "local-task"


def layout_class(p: ConvProblem) -> str:
    """How the source is laid out, as the efficiencies are keyed: "cl" (plain channels last), "plain"
    (channels first) or "blocked"."""
    if p.src.is_blocked:
        return "blocked"
    return "cl" if _channels_last(p.src) else "plain"


def terms(p: ConvProblem, backend, cal: Calibration, flags: str = "default", driver: str | None = None) -> dict | None:
    """The model's terms for `p` on `driver`: "A" the seconds of its operations at the instruction's
    rate on the threads that run it, "R" the seconds of its relayout and weights at the copy
    bandwidth, "call" the driver's cost; and what they rest on. None where the model does not price
    it."""
    if covers(p, backend) is not None:
        return None
    instr = instruction(p)
    dk = driver_kind(backend, driver)
    threads = 1 if dk == "local-sync" else cal.threads
    if dk == "host-threads":
        cut = conv_host_parts(p, cal.threads)
        if isinstance(cut, str):
            return None
        threads = len(cut)
    rate = cal.rate(instr, threads)
    if rate is None:
        return None
    if threads not in (1, cal.threads):         # a cut into fewer parts than threads
        rate = cal.rate(instr, 1) * threads
    ops = kernel_ops(p)
    moved = relayout_bytes(p, backend.for_flags(flags))
    bandwidth = cal.copy_bytes_per_s * min(threads, MEMORY_THREADS)
    return {"A": ops / rate, "R": (moved + weight_bytes(p)) / bandwidth, "call": CALL_S[dk],
            "ops": ops, "instruction": instr, "threads": threads, "driver": dk}


def efficiency(p: ConvProblem, flags: str, driver_kind: str) -> float | None:
    """The fraction of its instruction's peak `p`'s variant reaches (`EFFICIENCY`) with this flag set
    and layout on a driver of this kind: a blocked layout not measured as its channels-last one; a
    flag set not measured as the default flags; None where the variant and data type were not
    measured at all."""
    if p.alg == "brgemm_amx":
        return amx_efficiency(p)
    kind, lay = dtype_kind(p), layout_class(p)
    for fl in dict.fromkeys((flags, "default")):
        for lc in dict.fromkeys((lay, "cl" if lay == "blocked" else lay)):
            e = EFFICIENCY.get((p.alg, kind, fl, lc, driver_kind))
            if e is not None:
                return e
    return None


def probe_reference(name: str) -> float | None:
    """What kernel probe `name` (`select.probe`) reached of its instruction's one-thread rate where
    the model was fitted: the vector instructions' measured figure (`probe.PROBE_REFERENCE`); the
    tiles' what `AMX_MODEL` predicts for the probe, so that a tile kernel faster or slower than the
    model on this CPU moves every prediction of its class (kxk or 1x1); None where there is no probe."""
    if name in PROBE_REFERENCE:
        return PROBE_REFERENCE[name]
    if name in PROBES and PROBES[name][1] == "brgemm_amx":
        return amx_efficiency(probe_problem(name))
    return None


def kernel_scale(cal: Calibration, instr: str, p: ConvProblem | None = None) -> float:
    """How much nearer (above 1) or farther (below) this CPU's kernels come to `instr`'s peak than the
    model says, for a kernel like `p`'s: the fraction its probe (`probe.probe_name`: the tiles' 1x1
    one for a 1x1 convolution) reached against `probe_reference`, within `KERNEL_SCALE_LIMITS`; 1
    where the calibration has no such probe (nominal rates, a probe that failed)."""
    name = probe_name(instr, p) if p is not None else instr
    reached = cal.kernels.get(name)
    ref = probe_reference(name) if reached else None
    if not reached or not ref:
        return 1.0
    lo, hi = KERNEL_SCALE_LIMITS
    return min(max(reached / ref, lo), hi)


def estimate(p: ConvProblem, backend, cal: Calibration, flags: str = "default",
             driver: str | None = None) -> Estimate | None:
    """The predicted time of `p` (its variant in `p.alg`) compiled with flag set `flags` and run on
    `driver` (None: the backend's), or None where the model does not price it (`covers`, an
    instruction this CPU lacks, a driver that cannot cut it, a variant not measured)."""
    t = terms(p, backend, cal, flags, driver)
    if t is None:
        return None
    eff = efficiency(p, flags, t["driver"])
    if eff is None:
        return None
    compute = t["A"] / (eff * kernel_scale(cal, t["instruction"], p))
    return Estimate(t["call"] + compute + t["R"], t["instruction"], t["ops"], t["threads"], t["call"], compute, t["R"])
