"""`kgen bench conv`: every way kgen can compute a convolution, next to PyTorch and IREE's default.

For each problem the candidates are every applicable variant x layout (the source and destination
in that format; weights are reordered in prepare, outside the timing) x the backend's flag sets
(`Backend.flag_sets`). Each candidate is compiled (cached, in parallel), checked once against the
float64 reference (a wrong kernel is reported, never timed), and then all candidates and PyTorch's
conv (NCHW and channels_last, `torch_baseline`) are timed side by side in one process
(`runtime.timing.median_times`).

"IREE default" is what IREE gives for the problem on its own: the linalg named conv in NCHW, no extra
flags; that is kgen's direct / nchw / default candidate, except where a backend computes direct in
channel blocks from an nchw source (`TargetCaps.depthwise_named_ops`, `blocked_conv_named_ops`:
depthwise and ungrouped 2D convs on llvm-cpu): that candidate is kgen's own there, and the column is
empty. The ceiling is measured in the same run: a
large f32 matmul (PyTorch's, else NumPy's) for compute and a NumPy copy for memory bandwidth.
"""
from __future__ import annotations

import dataclasses
import math
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..api import ConvKernel, compile_conv
from ..benchdnn.conv import conv_problem
from ..compile import get_backend
from ..compile.backends import cpu_threads, device_available
from ..compile.cache import host_cpu_id
from ..compile.host import host_cpu_description, host_cpu_model, host_matrix_features
from ..emit.conv import VARIANTS, plain_blocks
from ..errors import KgenError
from ..layout import MemoryDesc
from ..problem.partition import conv_host_parts
from ..runtime import driver_for
from ..runtime.timing import best_times, import_torch, median_times
from ..select import choose
from ..select.candidates import DEFAULT_LAYOUTS, Candidate, check_layouts, plan_candidates
from ..verify import check_conv, conv_call
from .torch_alone import TorchAlone
from .torch_baseline import TORCH_PATHS, torch_fns

# ResNet-50's convolution layers at batch 1 (benchdnn descriptors): 1x1, 3x3, the 7x7 stem, 1x1 stride 2
RESNET50_LAYERS = (
    "mb1ic64ih56oc64oh56kh1ph0",
    "mb1ic64ih56oc64oh56kh3ph1",
    "mb1ic256ih56oc64oh56kh1ph0",
    "mb1ic128ih28oc128oh28kh3ph1",
    "mb1ic256ih14oc256oh14kh3ph1",
    "mb1ic512ih7oc512oh7kh3ph1",
    "mb1ic3ih224oc64oh112kh7sh2ph3",
    "mb1ic256ih56oc512oh28kh1sh2ph0",
)

@dataclass
class ProblemResult:
    line: str                                   # the benchdnn descriptor
    dt: str
    flops: int
    min_bytes: int                              # src + weights + dst, each read or written once
    candidates: list[Candidate] = field(default_factory=list)
    # PyTorch per layout ("nchw" / "channels_last" -> seconds): the faster of `torch_in_process` (timed
    # round-robin with kgen, OpenMP passive) and `torch_alone` (its own process, OpenMP's default
    # policy, one round between each two of the round-robin's: `bench.torch_alone`)
    torch: dict[str, float] = field(default_factory=dict)
    torch_in_process: dict[str, float] = field(default_factory=dict)
    torch_alone: dict[str, float] = field(default_factory=dict)
    torch_problem: object = None                # the problem PyTorch computes (format any: plain)
    dts: str = ""                               # source:weights:destination data types (dt: the source's)
    # what `--alg=auto` runs (kgen tune's measured choice, else the heuristic), in the layout where it
    # ran fastest: the path a user gets; None when the sweep did not include its candidate
    auto: Candidate | None = None
    auto_source: str = ""                       # "tuned" or "heuristic"
    # direct / nchw / default is IREE's own named conv (not for depthwise and ungrouped 2D convs on
    # llvm-cpu: see the module doc)
    iree_own_nchw: bool = True

    def gflops(self, seconds: float | None) -> float | None:
        return None if not seconds else self.flops / seconds / 1e9

    @property
    def timed(self) -> list[Candidate]:
        return [c for c in self.candidates if c.seconds]

    @property
    def best(self) -> Candidate | None:
        return min(self.timed, key=lambda c: c.seconds, default=None)

    @property
    def iree_default(self) -> Candidate | None:
        if not self.iree_own_nchw:
            return None
        return next((c for c in self.timed if (c.variant, c.layout, c.flags, c.driver)
                     == ("direct", "nchw", "default", None)), None)

    @property
    def best_torch(self) -> float | None:
        return min(self.torch.values(), default=None)


# ------------------------------------------------------------------------------------------ candidates
def compile_candidates(cands: list[Candidate], backend, jobs: int, log: Callable[[str], None],
                       host_threads: bool = False) -> None:
    """Render and compile every applicable candidate (the cache makes a second run free); with
    `host_threads`, also the parts that driver cuts it into (`api.compile_conv` on it)."""
    todo = [c for c in cands if c.status == "ok"]

    def build(c: Candidate) -> None:
        try:
            # the whole kernel on the backend's own driver (the one module every driver but host
            # threads loads), with the flags `ConvKernel` compiles it with
            c.artifact = compile_conv(c.problem, backend, flags=c.flags, driver=backend.driver)
        except KgenError as e:
            c.status = f"compile failed: {e}"
            return
        if host_threads:
            try:               # cached: ConvKernel finds them when it builds the host-threads kernel
                compile_conv(c.problem, backend, flags=c.flags, driver=backend.host_threads_driver_name)
            except KgenError:
                pass           # reported when that kernel is built

    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for _ in pool.map(build, todo):
            done += 1
            if done % 10 == 0 or done == len(todo):
                log(f"  compiled {done}/{len(todo)}")


# ------------------------------------------------------------------------------------------ ceiling
@dataclass
class Ceiling:
    matmul_gflops: float
    matmul_by: str
    copy_gbps: float


def measure_ceiling(torch, rounds: int, device: str = "cpu") -> Ceiling:
    """The machine's practical f32 compute peak (a 2048^3 matmul) and memory bandwidth (a 64 MB copy):
    the best of at least five rounds, since a ceiling is what the machine reaches at best. On a GPU
    `device` both run there, through PyTorch (TF32 off: an f32 peak)."""
    n = 2048
    a = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    if torch is not None and device != "cpu":
        torch.backends.cuda.matmul.allow_tf32 = False
        ta, tsrc = torch.from_numpy(a).to(device), torch.ones(16 << 20, device=device)
        tdst = torch.empty_like(tsrc)

        def mm():
            torch.mm(ta, ta)
            torch.cuda.synchronize()

        def copy():
            tdst.copy_(tsrc)
            torch.cuda.synchronize()
        t = best_times({"mm": mm, "copy": copy}, max(rounds, 5))
        return Ceiling(2 * n ** 3 / t["mm"] / 1e9, f"torch.mm on {device}", 2 * tsrc.nbytes / t["copy"] / 1e9)
    if torch is not None:
        ta = torch.from_numpy(a)
        fn, by = (lambda: torch.mm(ta, ta)), "torch.mm"
    else:
        fn, by = (lambda: a @ a), "numpy matmul"
    src = np.ones(16 << 20, np.float32)
    dst = np.empty_like(src)
    t = best_times({"mm": fn, "copy": lambda: np.copyto(dst, src)}, max(rounds, 5))
    return Ceiling(2 * n ** 3 / t["mm"] / 1e9, by, 2 * src.nbytes / t["copy"] / 1e9)


# ------------------------------------------------------------------------------------------ the run
@dataclass
class Sweep:
    """What `kgen bench conv` and `kgen tune` sweep: variants x flag sets x runtime drivers."""
    variants: list[str]
    flag_sets: list[str]
    drivers: list[str | None]          # None stands for the backend's default driver


def sweep(b, variants=None, flag_sets=None, drivers=None) -> Sweep:
    """Defaults (every variant but the `winograd` alias of winograd_f4 and those that run only where
    named, every flag set and driver of the backend) and validation: an unknown name fails here, before
    any work or message."""
    flag_sets = list(flag_sets or [n for n, _ in b.flag_sets])
    for fs in flag_sets:
        b.flag_set(fs)
    names = list(drivers or b.runtime_drivers)
    return Sweep(list(variants or [v for v in VARIANTS if v != "winograd" and not VARIANTS[v].named_only]), flag_sets,
                 [None if driver_for(b, d, can_cut=True) == b.driver else d for d in names])


def bench_convs(cases, backend: str = "llvm-cpu", *, variants=None, layouts=None, flag_sets=None,
                drivers=None, rounds: int = 7, jobs: int = 2, log: Callable[[str], None] = print,
                torch_alone: bool = True) -> tuple[list[ProblemResult], Ceiling]:
    b = get_backend(backend)
    layouts = check_layouts(layouts)
    sw = sweep(b, variants, flag_sets, drivers)
    torch = import_torch(log) if b.torch_device else None
    if b.torch_device == "cpu":
        log(f"cpu: {host_cpu_description()}")
    elif torch is not None:
        if torch.cuda.is_available():
            # f32 against f32: cuDNN's convolutions default to TF32 tensor cores (10-bit mantissas)
            torch.backends.cudnn.allow_tf32 = False
            log(f"gpu: {torch.cuda.get_device_name()} (PyTorch {torch.__version__}, cuDNN "
                f"{torch.backends.cudnn.version()}, TF32 off)")
        else:
            log(f"PyTorch {torch.__version__} sees no {b.torch_device} device: its columns are left out")
            torch = None
    ceiling = measure_ceiling(torch, rounds, b.torch_device if torch is not None else "cpu")
    log(f"ceiling: {ceiling.matmul_gflops:.1f} GFLOP/s ({ceiling.matmul_by} 2048^3 f32), "
        f"{ceiling.copy_gbps:.1f} GB/s ({'PyTorch' if ' on ' in ceiling.matmul_by else 'NumPy'} copy)")
    alone = None
    if torch is not None and torch_alone and b.torch_device == "cpu":
        alone = TorchAlone.start(log)
    results = []
    try:
        for i, case in enumerate(cases):
            p = conv_problem(case)
            lays = list(layouts or DEFAULT_LAYOUTS.get(p.src.dtype.name, ("nchw", "nhwc")))
            results.append(measure_problem(p, b, sw, lays, torch, rounds, jobs, log, f"[{i + 1}/{len(cases)}]",
                                           alone=alone))
    finally:
        if alone is not None:
            alone.close()
    return results, ceiling


def measure_problem(p, b, sw: Sweep, layouts, torch, rounds: int, jobs: int, log, tag: str = "",
                    passes: int = 1, alone=None, prune=None) -> ProblemResult:
    """Plan, compile, check and time every candidate of one problem (and PyTorch's conv, if given).
    With `passes` > 1 the round-robin runs that many times and each candidate keeps its best median:
    on a VM a window of a second or two where the other vCPU is taken makes the two-thread
    candidates look slower than one thread. One such window was of our own making and is gone:
    NumPy's BLAS thread spinning after the checks' references (`runtime.timing.quiet_blas`).

    `alone` (a `torch_alone.TorchAlone`): PyTorch is also timed in its own process, one round after
    each of the round-robin's, and each layout's figure is the faster of the two."""
    d = p.desc
    dt = p.src.dtype.name
    plain = p.with_layouts("abx", "abx", "abx") if p.has_any else p       # format any: sizes, PyTorch's data
    r = ProblemResult(str(d), dt, d.flops(), plain.src.size_bytes + plain.wei.size_bytes + plain.dst.size_bytes)
    nchw = dataclasses.replace(plain, src=MemoryDesc(d.src_dims, plain.src.dtype, "abx"),
                               dst=MemoryDesc(d.dst_dims, plain.dst.dtype, "abx"))
    r.dts = f"{p.src.dtype.name}:{p.wei.dtype.name}:{p.dst.dtype.name}"
    r.iree_own_nchw = plain_blocks(nchw, b) is None
    r.candidates = plan_candidates(p, b, sw.variants, layouts, sw.flag_sets)
    n_ok = sum(c.status == "ok" for c in r.candidates)
    why = prune(r.candidates, sw.drivers) if prune is not None else ""
    log(f"{tag} {r.line} ({dt}): {n_ok} candidates ({d.flops() / 1e9:.3f} GFLOP){why}")
    threads = b.host_threads_driver is not None and b.host_threads_driver_name in sw.drivers
    compile_candidates(r.candidates, b, jobs, log, host_threads=threads)
    # one compiled kernel, timed on each runtime driver (local-task's hand-off costs more than a
    # second core gains on small kernels)
    r.candidates = [dataclasses.replace(c, driver=drv) if c.status == "ok" else c
                    for c in r.candidates for drv in (sw.drivers if c.status == "ok" else (None,))]
    fns: dict[str, Callable[[], object]] = {}
    for c in r.candidates:
        fn = bind_candidate(c, b, log)
        if fn is not None:
            fns[c.label] = fn
    if torch is not None:
        call = conv_call(plain)
        for name, fn in torch_fns(torch, p, call.x, call.w, call.bias, call.quant, b.torch_device).items():
            fns[f"torch/{name}"] = fn
    between = alone.round if torch is not None and alone is not None and alone.problem(plain) else None
    times = median_times(fns, rounds, after_round=between) if fns else {}
    for _ in range(passes - 1):
        again = median_times(fns, rounds, after_round=between) if fns else {}
        times = {k: min(v, again.get(k, v)) for k, v in times.items()}
    for c in r.candidates:
        c.seconds = times.get(c.label)
    r.torch = {k.split("/", 1)[1]: v for k, v in times.items() if k.startswith("torch/")}
    r.torch_in_process, r.torch_problem = dict(r.torch), plain
    if between is not None:
        r.torch_alone = alone.medians()
        r.torch = {k: min(v, r.torch_alone.get(k, v)) for k, v in r.torch.items()}
    r.auto, r.auto_source = auto_candidate(b, r.candidates, p)
    best = r.best
    if best:
        log(f"  best {best.label}: {r.gflops(best.seconds):.1f} GFLOP/s" +
            (f", torch {r.gflops(r.best_torch):.1f}" if r.torch else ""))
    return r


def bind_candidate(c: Candidate, b, log) -> Callable[[], object] | None:
    """One checked call of candidate `c`, bound to generated data and ready to time; None (with
    `c.status` saying why) where it does not apply, is wrong or fails to run."""
    if c.status != "ok":
        return None
    if c.driver is not None and c.driver == b.host_threads_driver_name:
        cut = conv_host_parts(c.problem, cpu_threads())
        if isinstance(cut, str):
            c.status = f"n/a: {cut}"
            return None
    try:
        # the backend's driver by name: $KGEN_CPU_DRIVER must not move the default's candidates
        k = ConvKernel(c.problem, b, artifact=c.artifact, flags=c.flags, driver=c.driver or b.driver)
        call = conv_call(c.problem)
        why = check_conv(k, c.problem, call=call)            # also prepares the weights
        if why:
            c.status = f"wrong: {why}"
            log(f"  {c.label}: WRONG ({why})")
            return None
        return k.bind(call.src, call.bias, **call.attrs)
    except KgenError as e:
        c.status = f"run failed: {e}"
        return None


def auto_candidate(b, candidates: list[Candidate], p=None) -> tuple[Candidate | None, str]:
    """The timed candidate `--alg=auto` resolves to (variant, flag set and driver of `select.choose`),
    per layout, the fastest of them; with the choice's source ("tuned" or "heuristic"). For a problem
    `p` with format `any` tensors, the one candidate in the layouts `--alg=auto` chooses for it."""
    if p is not None and p.has_any:
        choice = choose(dataclasses.replace(p, alg="auto"), b.name)
        want = p.with_layouts(*choice.layouts)
        drv = None if driver_for(b, choice.driver, can_cut=True) == b.driver else choice.driver
        hit = next((c for c in candidates if c.seconds and (c.variant, c.flags, c.driver) == (choice.variant, choice.flags, drv)
                    and (c.problem.src, c.problem.dst) == (want.src, want.dst)), None)
        return hit, choice.source if hit else ""
    found, source = [], ""
    for lay in dict.fromkeys(c.layout for c in candidates if c.seconds):
        c0 = next(c for c in candidates if c.layout == lay and c.problem is not None)
        choice = choose(dataclasses.replace(c0.problem, alg="auto"), b.name)
        drv = None if driver_for(b, choice.driver, can_cut=True) == b.driver else choice.driver
        for c in candidates:
            if (c.layout, c.variant, c.flags, c.driver) == (lay, choice.variant, choice.flags, drv) and c.seconds:
                found.append(c)
                source = choice.source
    best = min(found, key=lambda c: c.seconds, default=None)
    return best, source if best else ""


# ------------------------------------------------------------------------------------------ reports
def _fmt(v: float | None, w: int = 8, prec: int = 1) -> str:
    return f"{v:{w}.{prec}f}" if v is not None else f"{'-':>{w}}"


def geomean(values) -> float | None:
    vals = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def summary(results: list[ProblemResult]) -> dict:
    """Ratios to the best PyTorch layout: best kgen candidate and IREE's default, geometric mean and worst."""
    best = [r.best_torch / r.best.seconds for r in results if r.best and r.best_torch]
    auto = [r.best_torch / r.auto.seconds for r in results if r.auto and r.best_torch]
    dflt = [r.best_torch / r.iree_default.seconds for r in results if r.iree_default and r.best_torch]
    out = {"kgen_vs_torch_geomean": geomean(best), "kgen_vs_torch_worst": min(best, default=None),
           "auto_vs_torch_geomean": geomean(auto), "auto_vs_torch_worst": min(auto, default=None),
           "auto_layers": len(auto),
           "iree_default_vs_torch_geomean": geomean(dflt), "iree_default_vs_torch_worst": min(dflt, default=None)}
    int8 = [v for _, v in int8_over_f32(results)]
    if int8:
        out.update(int8_vs_f32_geomean=geomean(int8), int8_vs_f32_worst=min(int8))
    dts = list(dict.fromkeys(r.dt for r in results))
    if len(dts) > 1:            # each data type has its own target: the ratios per type too
        out["by_dt"] = {dt: {k: v for k, v in summary([r for r in results if r.dt == dt]).items()
                             if k.startswith(("kgen", "auto"))} for dt in dts}
    return out


def int8_over_f32(results: list[ProblemResult]) -> list[tuple[str, float]]:
    """(layer, best int8 speed / best f32 speed) for every layer measured in both in this run: an
    int8 kernel should beat our own f32 by the matrix unit's factor, as PyTorch's int8 beats its f32."""
    f32 = {r.line: r.best.seconds for r in results if r.dt == "f32" and r.best}
    return [(r.line, f32[r.line] / r.best.seconds) for r in results
            if r.dt in ("s8", "u8") and r.best and r.line in f32]


def format_table(results: list[ProblemResult], all_candidates: bool = False) -> str:
    head = (f"{'problem':34} {'dt':4} {'kgen best (variant/layout/flags)':34} {'GFLOP/s':>8} {'auto':>8} "
            f"{'IREE dflt':>9} {'torch':>8} {'torch CL':>8} {'best/torch':>10} {'auto/torch':>10} {'dflt/torch':>10}")
    lines = [head]
    for r in results:
        b, dflt, a = r.best, r.iree_default, r.auto
        bt = r.best_torch
        lines.append(
            f"{r.line:34} {r.dt:4} {b.label if b else 'none':34} {_fmt(r.gflops(b.seconds) if b else None)} "
            f"{_fmt(r.gflops(a.seconds) if a else None)} "
            f"{_fmt(r.gflops(dflt.seconds) if dflt else None, 9)} {_fmt(r.gflops(r.torch.get('nchw')))} "
            f"{_fmt(r.gflops(r.torch.get('channels_last')))} "
            f"{_fmt(bt / b.seconds if b and bt else None, 10, 2)} {_fmt(bt / a.seconds if a and bt else None, 10, 2)} "
            f"{_fmt(bt / dflt.seconds if dflt and bt else None, 10, 2)}")
        if all_candidates:
            for c in sorted(r.candidates, key=lambda c: (c.seconds is None, c.seconds or 0)):
                g = r.gflops(c.seconds)
                lines.append(f"    {c.label:38} " + (f"{g:8.1f} GFLOP/s" if g else c.status))
    s = summary(results)
    if s["kgen_vs_torch_geomean"]:
        dflt = s["iree_default_vs_torch_geomean"]
        lines.append(f"kgen best / best PyTorch: geomean {s['kgen_vs_torch_geomean']:.2f}x, worst "
                     f"{s['kgen_vs_torch_worst']:.2f}x; IREE default / best PyTorch: "
                     + (f"geomean {dflt:.2f}x" if dflt else "not in this sweep (it is direct/nchw/default on the backend's driver)"))
    if s["auto_vs_torch_geomean"]:
        srcs = sorted({r.auto_source for r in results if r.auto})
        lines.append(f"--alg=auto ({' and '.join(srcs)}, {s['auto_layers']} of {len(results)} layers in the sweep) / "
                     f"best PyTorch: geomean {s['auto_vs_torch_geomean']:.2f}x, worst {s['auto_vs_torch_worst']:.2f}x")
    for dt, d in s.get("by_dt", {}).items():
        if d["kgen_vs_torch_geomean"]:
            auto = (f", --alg=auto {d['auto_vs_torch_geomean']:.2f}x (worst {d['auto_vs_torch_worst']:.2f}x)"
                    if d["auto_vs_torch_geomean"] else "")
            lines.append(f"  {dt}: kgen best / best PyTorch {d['kgen_vs_torch_geomean']:.2f}x (worst "
                         f"{d['kgen_vs_torch_worst']:.2f}x){auto}")
    pairs = int8_over_f32(results)
    if pairs:
        lines.append("int8 best / f32 best: " + ", ".join(f"{line} {v:.2f}x" for line, v in pairs))
        lines.append(f"int8 best / f32 best: geomean {s['int8_vs_f32_geomean']:.2f}x, worst "
                     f"{s['int8_vs_f32_worst']:.2f}x")
    shown = [dt for dt in TORCH_PATHS if any(r.dt == dt and r.torch for r in results)]
    if shown:
        lines.append("PyTorch columns: " + "; ".join(f"{dt}: {TORCH_PATHS[dt]}" for dt in shown))
        alone = [(k, r) for r in results for k in r.torch_alone if k in r.torch_in_process]
        if alone:
            won = sum(r.torch_alone[k] < r.torch_in_process[k] for k, r in alone)
            lines.append(f"PyTorch figures: the faster of round-robin in this process (OpenMP passive) and alone in "
                         f"its own process (OpenMP default policy) between the same rounds; alone was faster in {won} of {len(alone)}")
    return "\n".join(lines)


def to_json(results: list[ProblemResult], ceiling: Ceiling, backend: str) -> dict:
    b = get_backend(backend)
    return {
        "backend": backend,
        # the device the kernels ran on where it is not the host CPU (a GPU), by name
        **({"device": device_available(b)[1]} if b.tuned_per_device else {}),
        "cpu": host_cpu_id(),
        "cpu_model": host_cpu_model(),
        "cpu_features": list(host_matrix_features()),
        "ceiling": dataclasses.asdict(ceiling),
        "summary": summary(results),
        "problems": [{
            "problem": r.line, "dt": r.dt, "dts": r.dts, "flops": r.flops, "min_bytes": r.min_bytes,
            "torch_seconds": r.torch, "torch_in_process_seconds": r.torch_in_process,
            "torch_alone_seconds": r.torch_alone,
            "best": r.best.label if r.best else None,
            "auto": r.auto.label if r.auto else None, "auto_source": r.auto_source,
            "candidates": [{"variant": c.variant, "layout": c.layout, "flags": c.flags, "driver": c.driver, "status": c.status,
                            "seconds": c.seconds, "gflops": r.gflops(c.seconds)} for c in r.candidates],
        } for r in results],
    }


def write_png(results: list[ProblemResult], ceiling: Ceiling, path: str) -> None:
    """Left: speed-up over the best PyTorch layout per layer (kgen best, IREE default). Right: roofline,
    GFLOP/s against arithmetic intensity (FLOPs per byte of src + weights + dst) under the measured
    compute and bandwidth ceilings."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 5.5))
    names = [r.line.replace("mb1", "") for r in results]
    xs = np.arange(len(results))
    kb = [r.best_torch / r.best.seconds if r.best and r.best_torch else 0 for r in results]
    kd = [r.best_torch / r.iree_default.seconds if r.iree_default and r.best_torch else 0 for r in results]
    ax1.bar(xs - 0.2, kb, 0.4, label="kgen best")
    ax1.bar(xs + 0.2, kd, 0.4, label="IREE default (named conv, NCHW)")
    ax1.axhline(1.0, color="k", lw=0.8)
    ax1.set_xticks(xs, names, rotation=60, ha="right", fontsize=7)
    ax1.set_ylabel("speed-up over best PyTorch layout")
    ax1.legend()
    ai = np.array([r.flops / r.min_bytes for r in results])
    lo, hi = max(ai.min() / 4, 0.1), ai.max() * 4
    grid = np.logspace(np.log10(lo), np.log10(hi), 100)
    ax2.loglog(grid, np.minimum(ceiling.matmul_gflops, grid * ceiling.copy_gbps), "k-", lw=1,
               label=f"ceiling ({ceiling.matmul_gflops:.0f} GFLOP/s, {ceiling.copy_gbps:.0f} GB/s)")
    for label, vals in (("kgen best", [r.gflops(r.best.seconds) if r.best else None for r in results]),
                        ("best PyTorch", [r.gflops(r.best_torch) for r in results]),
                        ("IREE default", [r.gflops(r.iree_default.seconds) if r.iree_default else None for r in results])):
        pts = [(a, v) for a, v in zip(ai, vals) if v]
        if pts:
            ax2.scatter(*zip(*pts), label=label, s=25)
    ax2.set_xlabel("FLOPs per byte (src + weights + dst)")
    ax2.set_ylabel("GFLOP/s")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def log_stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
