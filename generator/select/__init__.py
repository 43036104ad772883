"""Selection: which variant, flag set and driver a problem gets, decided in one place.

`--alg=auto` is resolved here and nowhere else: the measured table (`select.table`, written by
`kgen tune`) for this backend and CPU when it has the problem, else `heuristic`: the rule
(`rule_choice`), or an alternative the cost model (`select.cost`, on this CPU's calibration,
`select.calibration`) puts ahead of it. The layer
sits above emit and compile (it reads the kernel cache's table and renders nothing) and below the
API, which builds the chosen kernel.
"""
from __future__ import annotations

import dataclasses
import os

from ..compile.backends import cpu_threads, get_backend
from ..emit.conv import VARIANTS, why_not
from ..emit.reorder import kernel_name, shuffle_plan, shuffle_tiles, transposed_dims
from ..errors import KgenError
from ..problem.conv import ConvProblem
from ..problem.partition import conv_host_parts, reorder_host_parts
from . import table
from .table import Choice

__all__ = ["Choice", "choose", "fixed_variant_driver", "heuristic", "heuristic_driver", "heuristic_flags", "heuristic_layouts", "host_cut", "host_lead",
           "heuristic_variant", "model_alternatives", "model_choice", "reorder_driver", "resolve", "resolve_layouts", "rule_choice", "table"]

# The rule's constants rest on measurements (docs/performance.md, Tuned constants); `kgen tune`
# measures each problem instead where its table has an entry.

#: One thread's rate of the brgemm microkernels (OP/s), per source type (f16 runs the f32 kernel). Only
#: the order of magnitude matters: they turn a problem's FLOPs into an estimated one-thread time.
ONE_THREAD_RATE = {"u8": 400e9, "s8": 400e9, "bf16": 200e9, "f16": 110e9, "f32": 110e9}
#: The same for depthwise convs on `direct` (no microkernel), in every data type: lower, so that the
#: small depthwise layers still reach the host-threads driver, which runs them faster than one thread.
DEPTHWISE_ONE_THREAD_RATE = 30e9
#: The same for brgemm's depthwise kernel (emit.conv.brgemm.isa.DEPTHWISE_ISAS): at this rate the smallest
#: depthwise layers stay on the calling thread, where they ran faster.
DEPTHWISE_BRGEMM_ONE_THREAD_RATE = 130e9
#: What handing a call to the task system's workers costs, against what the other cores save: below
#: this much one-thread time saved, local-sync (no hand-off) wins over local-task.
HANDOFF_BUDGET_S = 250e-6
#: The same for the host-threads driver (one helper woken per call, the caller working meanwhile), per
#: hand-off asked for (`runtime.host_threads.requested_method`): the native hand-off costs much less
#: than Python locks.
HOST_THREADS_BUDGET_S = {"native": 10e-6, "locks": 50e-6}
#: The largest unit (a row or an image) worth giving the calling thread one more of (`host_lead`) when
#: the helpers hand off on Python locks: about two wake-ups of a helper thread. The native hand-off
#: (`runtime.host_threads`, the default) starts the helper soon enough that no lead pays.
HOST_LEAD_UNIT_S = 60e-6
#: The bytes (read + written) from which a reorder runs on the host-threads driver without a tuned
#: entry, per hand-off: below it the helpers' wake-ups and their sharing of the cache cost more than
#: the second thread saves.
HOST_THREADS_REORDER_BYTES = {"native": 3e6, "locks": 8e6}


def heuristic_variant(p: ConvProblem, gemm_first: bool = False, direct_1x1: bool = False) -> str:
    """`--alg=auto`'s rule when the measured table has no entry for the problem: a 1x1 kernel ->
    im2col (its 1x1 path is one GEMM that reads the source in place, no copy), unless the backend's
    direct conv is as fast there (`Backend.auto_direct_1x1`); anything else -> direct (applies
    everywhere, exact, no extra memory), or im2col on a backend whose direct convolutions lower poorly
    (`Backend.auto_gemm_first`) unless each group has one input channel (depthwise: a GEMM over K x K
    values only, slower than direct there)."""
    if gemm_first and p.desc.ic > p.desc.g:
        return "im2col"
    if all(s.k == 1 for s in p.desc.spatial()) and not direct_1x1:
        return "im2col"
    return "direct"


def heuristic_flags(p: ConvProblem, variant: str, backend: str) -> str:
    """The flag set of `--alg=auto`'s rule: "dt+uk+inner" for a u8 x s8 im2col in plain channels-last
    layouts (im2col's channels-last GEMM), ungrouped, on a backend with that flag set (llvm-cpu) when
    its CPU has AVX-512 VNNI (IREE's inner tiling puts the GEMM on vpdpbusd, faster than the default
    flags: docs/performance.md); else "default"."""
    b = get_backend(backend)
    has_flags = any(name == "dt+uk+inner" for name, _ in b.flag_sets)
    if (has_flags and variant == "im2col" and (p.src.dtype.name, p.wei.dtype.name) == ("u8", "s8")
            and p.desc.g == 1 and VARIANTS["im2col"].channels_last(p, b) and "avx512_vnni" in b.cpu_features):
        return "dt+uk+inner"
    return "default"


#: `--alg=auto` without a measurement takes one of the cost model's alternatives (`model_alternatives`)
#: over the rule's vector kernel only where the model predicts it this much faster: the model's error
#: on the layers it was fitted to (docs/performance.md, Tuned constants)
MODEL_MARGIN = 1.1
#: the data types of a result Winograd may compute without a measurement, as oneDNN's
#: `convolution_auto` may: floating point, where its error (`WINOGRAD_TOLERANCE`, at most 1e-4 of the
#: largest result, 2e-7 measured for F(4,3)) is of the order of the kernels' own rounding; an exact
#: result needs a named variant (`--alg=brgemm`, `direct`, ...)
WINOGRAD_AUTO_DTYPES = ("f32", "bf16", "f16")


def model_alternatives(p: ConvProblem, b) -> tuple[str, ...]:
    """The variants `--alg=auto` weighs against the rule's choice with the cost model, where they apply
    on backend `b`: AMX's tiles (brgemm_amx, where the CPU has them), and Winograd for a floating-point
    result (`WINOGRAD_AUTO_DTYPES`); none on a backend without the model or for a problem it does not
    price (`cost.covers`)."""
    from . import cost
    if cost.covers(p, b) is not None:
        return ()
    names = ["brgemm_amx"]
    if p.output.dtype.name in WINOGRAD_AUTO_DTYPES and not p.src.dtype.is_int:
        names += ["winograd_f4", "winograd_f6", "winograd_f2"]
    return tuple(v for v in names if why_not(dataclasses.replace(p, alg=v), b) is None)


def model_choice(p: ConvProblem, b, rule: Choice, cal) -> Choice:
    """`rule`, or the alternative (`model_alternatives`) the cost model predicts fastest on backend `b`
    with calibration `cal`, on the driver it would run on, where it beats `rule` by `MODEL_MARGIN`."""
    from . import cost
    base = cost.estimate(dataclasses.replace(p, alg=rule.variant), b, cal, rule.flags, rule.driver)
    if base is None:
        return rule
    best = None
    for v in model_alternatives(p, b):
        q = dataclasses.replace(p, alg=v)
        drv = heuristic_driver(q, b.name, v)
        est = cost.estimate(q, b, cal, "default", drv)
        if est is not None and est.seconds * MODEL_MARGIN < base.seconds and (best is None or est.seconds < best[1]):
            best = (v, est.seconds, drv)
    return rule if best is None else Choice(best[0], "default", "heuristic", driver=best[2])


def heuristic(p: ConvProblem, backend: str, cal=None) -> Choice:
    """`--alg=auto` without a measurement: the rule (`rule_choice`), or where the cost model
    (`select.cost`, on this CPU's calibration) predicts one of its alternatives faster by
    `MODEL_MARGIN`, that one: AMX's tiles where the CPU has them, Winograd for a floating-point result
    (`model_alternatives`). `cal`: the calibration to price with (default: this CPU's, measured on
    first use)."""
    rule = rule_choice(p, backend)
    b = get_backend(backend)
    if not model_alternatives(p, b):
        return rule
    if cal is None:
        from . import calibration           # measured once per CPU, where the model is needed
        cal = calibration.current()
    return model_choice(p, b, rule, cal)


def rule_choice(p: ConvProblem, backend: str) -> Choice:
    """`--alg=auto`'s rule without a measurement: brgemm wherever it applies and the backend's CPU runs its
    microkernel (1D, 2D and 3D, ungrouped or grouped, depthwise on its FMA kernel), in every data
    type: u8/s8 x s8 on AVX-512 VNNI, bf16 on avx512_bf16, or widened to f32 on FMAs (`brgemm_fma`)
    where the CPU's vdpbf16ps is slow (`Backend.bf16_dot_slow`) or missing, f16 and f32 on AVX-512.
    Winograd, not exact, is left to the cost model (`heuristic`) and to `kgen tune`. With groups of fewer than 16 output
    channels brgemm's vectors are partly padding, and it still wins. Otherwise `heuristic_variant`,
    except that a u8 x s8 problem in plain channels-last layouts takes im2col where the CPU's VNNI makes
    its GEMM fast (`heuristic_flags`). The driver: `heuristic_driver`. (Measured: docs/performance.md,
    Tuned constants.)"""
    b = get_backend(backend)
    # bf16 widened to f32 where the CPU's vdpbf16ps is slow or missing (`Backend.bf16_dot_slow`)
    if ((b.bf16_dot_slow or "avx512_bf16" not in b.cpu_features)
            and why_not(dataclasses.replace(p, alg="brgemm_fma"), b) is None):
        return Choice("brgemm_fma", "default", "heuristic", driver=heuristic_driver(p, backend, "brgemm_fma"))
    if why_not(dataclasses.replace(p, alg="brgemm"), b) is None:
        return Choice("brgemm", "default", "heuristic", driver=heuristic_driver(p, backend, "brgemm"))
    driver = heuristic_driver(p, backend)
    if heuristic_flags(p, "im2col", backend) != "default":
        return Choice("im2col", "dt+uk+inner", "heuristic", driver=driver)
    alg = heuristic_variant(p, b.auto_gemm_first, b.auto_direct_1x1)
    if why_not(dataclasses.replace(p, alg=alg), b) is not None:
        alg = "direct"          # applies everywhere (a reduction too long for the target: it splits it)
    return Choice(alg, "default", "heuristic", driver=driver)


def heuristic_driver(p: ConvProblem, backend: str, variant: str | None = None) -> str | None:
    """The runtime driver of `--alg=auto`'s rule: the backend's (None: local-task on the CPU, every
    core) unless the backend also runs kernels inline on the calling thread (local-sync) and the time
    the other cores would save, by the one-thread estimate `ONE_THREAD_RATE`, is under
    `HANDOFF_BUDGET_S`: small problems skip the task system's hand-off. Problems that
    `partition.conv_host_parts` cuts into one part per core run on the host-threads driver once the
    time saved passes `HOST_THREADS_BUDGET_S`, a smaller bar than local-task's: its hand-off is
    cheaper. A driver the user named (`$KGEN_CPU_DRIVER`) is left to decide. `variant`: the one that
    will run, where known (a depthwise conv on brgemm runs at `DEPTHWISE_BRGEMM_ONE_THREAD_RATE`,
    elsewhere at `DEPTHWISE_ONE_THREAD_RATE`)."""
    from ..runtime import host_threads      # the runtime loads IREE: choosing a kernel does not need it
    b = get_backend(backend)
    if ("local-sync" not in b.runtime_drivers or b.driver == "local-sync"
            or (b.driver_env and os.environ.get(b.driver_env))):
        return None
    cores = cpu_threads()
    d = p.desc
    if d.g > 1 and d.is_depthwise:
        rate = DEPTHWISE_BRGEMM_ONE_THREAD_RATE if variant == "brgemm" else DEPTHWISE_ONE_THREAD_RATE
    else:
        rate = ONE_THREAD_RATE.get(p.src.dtype.name, ONE_THREAD_RATE["f32"])
    one_thread_s = d.flops() / rate
    saved_s = one_thread_s * (1 - 1 / cores)
    if cores == 1:
        return "local-sync"
    # cut into parts on host threads where the problem allows it: its hand-off is cheaper than the
    # task system's
    if b.host_threads_driver and saved_s >= HOST_THREADS_BUDGET_S[host_threads.requested_method()]:
        parts = conv_host_parts(p, cores)
        if isinstance(parts, tuple) and len(parts) == cores:        # every core gets a part
            return b.host_threads_driver_name
    return "local-sync" if saved_s < HANDOFF_BUDGET_S else None


def fixed_variant_driver(p: ConvProblem, backend: str) -> str | None:
    """The runtime driver of a fixed variant (`--alg=winograd_f4`, `direct`, ...) when the caller
    names none: the host-threads driver where `heuristic_driver` gives it, else None (the backend's:
    local-task on the CPU, all cores). The heuristic estimates a problem's one-thread time at the
    brgemm microkernels' rate, a lower bound for every variant: a problem big enough to cut at that
    rate is big enough at any. Its local-sync verdict is not taken, as it would keep a slower
    variant's long call on one core. Winograd's channels-last form runs three dispatches per band,
    each paying local-task's hand-off, so host threads serve it much better."""
    b = get_backend(backend)
    driver = heuristic_driver(p, backend, p.alg)
    return driver if b.host_threads_driver and driver == b.host_threads_driver_name else None


def reorder_forms(chain, backend) -> tuple[str, ...]:
    """The emission forms `backend` can give this reorder (or folded chain): every form it compiles,
    "shuffle" only where the chain is one 2-D transposition it takes (`emit.reorder.shuffle_plan`).
    What `kgen tune reorder` and `kgen bench reorder` measure, and what a host-threads part keeps."""
    return tuple(f for f in backend.relayout_forms if f != "shuffle" or not isinstance(shuffle_plan(chain), str))


def reorder_form(chain, backend) -> str:
    """The emission form of a reorder (or a folded chain) on `backend` (a `Backend`) without a
    measurement: `Backend.reorder_form_inner_kept` for one reorder between a plain layout and a
    single-level blocked one whose innermost block is the plain layout's innermost dim (nhwc <->
    nChw16c: whole runs of channels move; faster as linalg.pack / unpack on llvm-cpu), else
    `Backend.reorder_form`. Before both, where the backend compiles it, "shuffle" for a reorder that is
    one 2-D transposition per batch of 32-bit elements (nchw <-> nhwc, nchw <-> nChw16c with whole blocks,
    in f32: `emit.reorder.shuffle_plan`; faster than the transpose form, out of cache most, with its
    streaming stores), and of 8- or 16-bit elements whose source rows are the longer side
    (`_shuffle_by_default`). (Measured: docs/performance.md, Tuned constants.)"""
    if "shuffle" in reorder_forms(chain, backend) and _shuffle_by_default(chain):
        return "shuffle"
    if backend.reorder_form_inner_kept is None or len(chain) != 1:
        return backend.reorder_form
    s, d = chain[0].src, chain[0].dst
    plain, blocked = (s, d) if d.is_blocked else (d, s)
    if (plain.is_blocked or not blocked.is_blocked or plain.tag is None or blocked.tag is None
            or len(blocked.blocks) != 1):
        return backend.reorder_form
    inner = plain.order[-1]
    # the plain layout's innermost dim is the block, and the other dims keep their order: only the
    # block's outer index moves (not CHWN4, nor a permuted plain side: not measured)
    if blocked.blocks[-1][0] != inner or ([d for d in plain.order if d != inner]
                                          != [d for d in blocked.order if d != inner]):
        return backend.reorder_form
    return backend.reorder_form_inner_kept


def _shuffle_by_default(chain) -> bool:
    """Whether the rule takes the "shuffle" form where it applies: always for 32-bit elements; for 8-
    and 16-bit ones where the form puts 4 or 2 tiles through one 512-bit register
    (`emit.reorder.shuffle_tiles`), or where the source's rows are the transposition's longer side
    (S >= R) and fill a tile's 16 rows (R >= 16). Not taken where the tiles go one at a time on 128- or
    256-bit vectors with rows shorter than 16 (nChw4c, nChw8c): the transpose form was faster there.
    (Measured: docs/performance.md, Tuned constants.)"""
    p = chain[0]
    geometry = shuffle_plan(chain)
    r, s = transposed_dims(geometry)
    return p.src.dtype.bits == 32 or shuffle_tiles(p, geometry)[0] > 1 or (s >= r and r >= 16)


def reorder_driver(chain, backend: str) -> str | None:
    """The runtime driver of a reorder (or a folded chain) when none is named: the one `kgen tune
    reorder` measured fastest for it on this CPU; else the host-threads driver where the backend has
    one, the chain is cut into one part per core (`partition.reorder_host_parts`) and it moves at least
    `HOST_THREADS_REORDER_BYTES`; else None (the backend's memory-bound driver: local-sync on the
    CPU). A driver the user named (`$KGEN_CPU_DRIVER`) is left to decide."""
    from ..runtime import host_threads      # the runtime loads IREE: choosing a kernel does not need it
    b = get_backend(backend)
    if b.driver_env and os.environ.get(b.driver_env):
        return None
    tuned = table.lookup_reorder(kernel_name(chain), b.name)
    if tuned and tuned.get("driver") in b.runtime_drivers:
        return tuned["driver"]
    if not b.host_threads_driver:
        return None
    cores = cpu_threads()
    moved = chain[0].src.size_bytes + chain[-1].dst.size_bytes
    if cores < 2 or moved < HOST_THREADS_REORDER_BYTES[host_threads.requested_method()]:
        return None
    parts = reorder_host_parts(chain, cores)
    return b.host_threads_driver_name if isinstance(parts, tuple) and len(parts) == cores else None


def host_lead(p: ConvProblem, cores: int) -> bool:
    """Whether the calling thread's part of `p` on the host-threads driver should lead by one unit
    (`partition.conv_host_parts(lead=True)`): only where Python locks are the hand-off asked for (a
    helper then starts a wake-up late), and one unit (an image, or a row of one image) takes about a
    helper's wake-up or less, by the one-thread estimate `ONE_THREAD_RATE` (`HOST_LEAD_UNIT_S`): a
    longer unit would make the caller's part finish last."""
    from ..runtime import host_threads      # the runtime loads IREE: choosing a kernel does not need it

    if host_threads.requested_method() != "locks":
        return False
    parts = conv_host_parts(p, cores)
    # a cut on output channels never leads (not measured)
    return not isinstance(parts, str) and parts[0].oc is None and _unit_is_cheap(p, parts)


def host_cut(p: ConvProblem, cores: int | None = None):
    """The parts the host-threads driver runs `p` in (`partition.conv_host_parts` on `cores`, by
    default every CPU of the executor, the caller leading where `host_lead` says), or why it cannot be
    cut: the one place the kernel, its compilation and the bench take the cut from."""
    cores = cores or cpu_threads()
    return conv_host_parts(p, cores, lead=host_lead(p, cores))


def _unit_is_cheap(p: ConvProblem, parts) -> bool:
    d = p.desc
    units = d.mb if sum(x.problem.desc.mb for x in parts) == d.mb > 1 else d.spatial()[0].o   # rows (3D: planes)
    one_thread_s = d.flops() / ONE_THREAD_RATE.get(p.src.dtype.name, ONE_THREAD_RATE["f32"])
    return one_thread_s / units <= HOST_LEAD_UNIT_S


def choose(p: ConvProblem, backend: str) -> Choice:
    """`--alg=auto` and format `any`: the measured choice for this problem, backend and CPU when `kgen
    tune` made one, else the heuristic (`heuristic`, `heuristic_layouts`). For a problem with `any`
    tensors the choice carries their formats (`Choice.layouts`); with a fixed variant its variant is
    the problem's."""
    hit = table.lookup(p, backend)
    if hit is not None and hit.variant in VARIANTS and (hit.layouts is not None) == p.has_any:
        return hit
    if not p.has_any:
        return heuristic(p, backend)
    lay = heuristic_layouts(p, backend)
    if p.alg != "auto":
        return Choice(p.alg, "default", "heuristic", layouts=lay)
    return dataclasses.replace(heuristic(p.with_layouts(*lay), backend), layouts=lay)


def heuristic_layouts(p: ConvProblem, backend: str) -> tuple[str, str, str]:
    """The formats of `p`'s `any` tensors without a measurement, as (src, wei, dst) tags:

    * weights: plain (abx). prepare() packs them into the variant's layout once, so the layout the
      user hands them in costs nothing per call;
    * source or destination when the other one is concrete: the other one's tag, so a chain of
      layers keeps one layout and needs no reorder between them (strided: the plain form of its order);
    * both: channels last (axb: nwc, nhwc, ndhwc) when the variant (`--alg=auto`'s choice in that
      layout) computes with channels last, so its compute reads the source in place with no relayout
      (brgemm always; im2col and direct on plain channels-last tensors; Winograd on AVX-512 CPUs); else
      plain (abx), the layout of the variants that compute on logical NCHW (Winograd elsewhere,
      spatial pack, indirect).
    """
    b = get_backend(backend)
    wtag = "abx"

    def concrete(desc) -> str:
        return desc.tag or "".join("abcdefghijkl"[d] for d in desc.order)

    if p.src.is_any != p.dst.is_any:
        tag = concrete(p.dst if p.src.is_any else p.src)
        return (tag if p.src.is_any else "", wtag, tag if p.dst.is_any else "")
    if not p.src.is_any:
        return ("", wtag, "")
    cl = p.with_layouts("axb", wtag, "axb")
    variant = heuristic(cl, backend).variant if p.alg == "auto" else p.alg
    try:
        if VARIANTS[variant].channels_last(dataclasses.replace(cl, alg=variant), b.for_flags("default")):
            return ("axb", wtag, "axb")
    except KgenError:                   # a variant that cannot plan the problem: not channels last
        pass
    return ("abx", wtag, "abx")


def resolve_layouts(p: ConvProblem, backend: str) -> tuple[ConvProblem, Choice | None]:
    """`p` with its `any` tensors in the chosen formats (`choose`), and the choice (None when `p` has
    no `any` tensor). `--alg=auto` stays for `resolve` or the kernel to settle."""
    if not p.has_any:
        return p, None
    c = choose(p, backend)
    return p.with_layouts(*c.layouts), c


def resolve(p: ConvProblem, backend: str) -> ConvProblem:
    """The problem with its `any` formats and `--alg=auto` replaced by the choice (artifact names
    carry it)."""
    if p.alg != "auto" and not p.has_any:
        return p
    c = choose(p, backend)
    if c.layouts is not None:
        p = p.with_layouts(*c.layouts)
    return dataclasses.replace(p, alg=c.variant)
