"""`kgen net`'s work: plan a network, check it, and time it end to end next to its baselines (and, for
a PyTorch model, next to PyTorch eager in NCHW and channels_last), all in one run, round-robin."""
from __future__ import annotations

import copy
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..bench.torch_alone import TorchAlone
from ..bench.torch_baseline import eager_call, eager_fns
from ..compile import compile_mlir, get_backend
from ..errors import KgenError
from ..runtime import LoadedModule, chain_driver
from ..runtime.timing import round_samples
from . import breakdown as time_breakdown
from . import layercheck
from .execute import CompiledNetwork
from .graph import Network, random_parameters
from .plan import Plan, baselines, format_plan, measure_costs, plan_json, plan_network
from .optimize import optimize
from .torch_bridge import set_torch_threads


@dataclass
class NetResult:
    net: Network
    plans: list[Plan]                              # the plan, then the baselines
    seconds: dict[str, float] = field(default_factory=dict)   # end to end, per runner: median of rounds
    best: dict[str, float] = field(default_factory=dict)      # and the fastest round
    max_rel_err: float | None = None
    bound: float = 1e-4                           # what max_rel_err must stay under
    check: str = ""                                # what the check compared
    notes: list[str] = field(default_factory=list)
    # PyTorch's figures apart (median seconds per layout): in this process (OpenMP passive) and alone in
    # its own (OpenMP's default policy); `seconds` holds the faster
    torch_in_process: dict[str, float] = field(default_factory=dict)
    torch_alone: dict[str, float] = field(default_factory=dict)
    breakdown: time_breakdown.Breakdown | None = None     # where the plan's time goes (`net.breakdown`)

    def to_json(self) -> dict:
        return {"network": self.net.name, "plans": plan_json(self.plans), "end_to_end_s": self.seconds,
                "end_to_end_best_s": self.best, "torch_in_process_s": self.torch_in_process,
                "torch_alone_s": self.torch_alone,
                "max_rel_err": self.max_rel_err, "check": self.check, "notes": self.notes,
                **({"breakdown": self.breakdown.to_json()} if self.breakdown else {})}


def format_result(r: NetResult) -> str:
    lines = [format_plan(r.net, r.plans)]
    if r.check:
        lines.append(r.check)
    if r.seconds:
        # PyTorch at its best: the faster of its NCHW and channels_last runs
        torch_keys = [k for k in ("PyTorch channels_last", "PyTorch NCHW") if k in r.seconds]
        ref = min((r.seconds[k] for k in torch_keys), default=None)
        best_ref = min((r.best[k] for k in torch_keys if k in r.best), default=None)
        lines.append(f"end to end, one run, round-robin: {'runner':22} {'median':>10} {'best':>10}   "
                     f"vs PyTorch at its best (the faster of NCHW and channels_last)")
        for name, s in r.seconds.items():
            b = r.best.get(name)
            ratio = (f"  median {ref / s:5.2f}x, best {best_ref / b:5.2f}x" if ref and best_ref and b
                     and not name.startswith("PyTorch") else "")
            lines.append(f"  {name:52} {s * 1e3:8.3f} ms {b * 1e3 if b else float('nan'):8.3f} ms{ratio}")
    if r.breakdown:
        lines.append(time_breakdown.format_breakdown(r.breakdown))
    lines += r.notes
    return "\n".join(lines)


#: how far a model's output may be from PyTorch eager in float32, relative to its largest value: f32
#: kernels differ only in summation order; bf16 rounds every activation and weight to 8 bits of
#: mantissa (PyTorch's own bf16 model is that far off too, and the report prints it)
BOUND = {"f32": 1e-4, "bf16": 5e-2, "int8": 1.0}
#: an int8 output within this many units of its scale from zero gives the check nothing to compare
VANISHING_UNITS = 20


def run_model(model, x, *, dtype: str = "f32", backend: str = "llvm-cpu", driver=None, layouts=None,
              plan_only: bool = False, strict: bool = False, rounds: int = 10, jobs: int = 2,
              log: Callable[[str], None] = print, torch_alone: bool = True, factory=None,
              breakdown: bool = False, address: str | None = None, calibration=None) -> NetResult:
    """Optimize a PyTorch model on its example `x`; unless `plan_only`, check the output against PyTorch
    eager (max |diff| / max |reference|) and time eager, eager channels_last, the plan (one module per
    segment of consecutive layers, and one per layer), both baselines, and IREE on the whole model.
    PyTorch is timed in this process (OpenMP passive, so that its threads do not spin through kgen's
    rounds) and, unless not `torch_alone`, alone in a process of its own with OpenMP's default policy,
    one round after each of these (`bench.torch_alone`); each PyTorch figure is the faster of the two.
    `factory` (a picklable callable building the model's architecture): what that process builds and
    loads the weights into, where the model itself does not pickle (kgen's copies of torchvision's).
    `breakdown`: also where the plan's time goes, node by node, next to PyTorch eager's profile
    (`net.breakdown`, `rounds` calls each).

    int8: the float `model` is quantized first (`calibration`: input batches; torch.ao FX, x86 default
    config) and kgen's u8 plan is checked and timed against PyTorch's quantized model of the same scales
    (the check in units of the output's scale), and against kgen's own f32 plan of the float model."""
    import torch

    t0 = time.time()
    float_model = model
    alone_model = None                    # what the process that times PyTorch alone builds
    if dtype == "int8":
        from .torch_quant import QuantizedBuild, calibrate, output_scale
        model = calibrate(float_model, x, calibration, log)
        alone_model = QuantizedBuild(factory, float_model.state_dict(), x, calibration) if factory is not None \
            else QuantizedBuild(float_model, None, x, calibration)
        factory = None
    om = optimize(model, x, dtype=dtype, backend=backend, driver=driver, layouts=layouts, strict=strict, rounds=5,
                  address=address,
                  jobs=jobs, log=log)
    log(f"planned in {time.time() - t0:.1f} s")
    r = NetResult(om.kgen_network, [om.kgen_plan, *om.kgen_baselines], notes=[f"left to PyTorch: {s}" for s in om.kgen_skipped]
                  + [f"left to PyTorch: {k} x{n} ({why})" for k, (n, why) in om.kgen_in_pytorch.items()])
    times = getattr(om, "kgen_torch_thread_times", None)
    if times:
        n = max(times)
        r.notes.append(f"PyTorch's ops in kgen's module (what stays in PyTorch) on "
                       f"{'one thread' if om.kgen_torch_threads == 1 else f'{n} threads'}: end to end "
                       f"{times[1] * 1e3:.2f} ms on one thread, {times[n] * 1e3:.2f} ms on {n} (optimize's measurement)")
    if plan_only:
        return r
    with torch.inference_mode():
        ref = model(x)
        got = om(x)
    r.max_rel_err = float((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30))
    r.bound = BOUND[dtype]
    r.check = (f"check against PyTorch eager in float32: max |diff| / max |ref| = {r.max_rel_err:.2e} "
               f"(bound {r.bound:g} for {dtype})")
    tdt = {"f32": torch.float32, "bf16": torch.bfloat16, "int8": torch.float32}[dtype]
    mdt = copy.deepcopy(model).to(tdt) if dtype == "bf16" else model
    if dtype == "int8":
        scale = output_scale(model)
        units = ((got - ref).abs() / scale).round() if scale else None
        if units is not None:
            r.max_rel_err, r.bound = float(units.max()), 1.0
            r.check = (f"check against PyTorch's quantized model of the same scales: max {r.max_rel_err:g} units of "
                       f"the output's scale, {float((units <= 1).float().mean()) * 100:.2f}% within 1 (bound 1)")
            spread = float(ref.abs().max() / scale)
            if spread < VANISHING_UNITS:
                r.notes.append(f"the output spans {spread:.0f} units of its scale: a random network's activations "
                               f"vanish, so the end-to-end check says little (each layer's against the float64 "
                               f"formula does)")
        r.notes.append("PyTorch runs its quantized model (torch.ao FX, x86 engine); kgen the same scales in u8")
    elif dtype != "f32":
        with torch.inference_mode():
            theirs = mdt(x.to(tdt)).float()
        r.check += (f"; PyTorch's own {dtype} model: {float((theirs - ref).abs().max() / ref.abs().max()):.2e}")
    runners = {"kgen plan": om}
    if dtype == "int8":
        log("building kgen's f32 plan of the float model")
        runners["kgen f32 plan"] = optimize(float_model, x, backend=backend, driver=driver, layouts=layouts,
                                            rounds=5, jobs=jobs, log=lambda m: None)
    log("building the plan with a module per layer (activations chained as device tensors)")
    runners["kgen plan, a module per layer"] = optimize(model, x, dtype=dtype, backend=backend, driver=driver, measure=False,
                                                        assignment=om.kgen_plan.layouts, segments=False,
                                                        log=lambda m: None)
    if dtype == "int8":
        # end to end, a random network's output can vanish or its rounding ties grow: each layer too
        log("checking every kgen layer against the float64 formula on its own inputs")
        r.check += "; " + layercheck.summary(layercheck.layer_differences(runners["kgen plan, a module per layer"],
                                                                          x, backend))
    for base in om.kgen_baselines:
        log(f"building the {base.name} baseline")
        runners[f"kgen {base.name}"] = optimize(model, x, dtype=dtype, backend=backend, driver=driver, layouts=layouts,
                                                measure=False, assignment=base.layouts, log=lambda m: None)
    for name, m in runners.items():     # the unmeasured ones run PyTorch's ops as the plan does
        if name not in ("kgen plan", "kgen f32 plan"):
            set_torch_threads(m, om.kgen_torch_threads)
    xd = x.to(tdt)
    fns = {f"PyTorch {k}": f for k, f in eager_fns(torch, mdt, xd).items()}
    fns.update({name: eager_call(torch, m, x) for name, m in runners.items()})
    if dtype == "f32":
        whole = _iree_whole_model(model, x, backend, driver, ref, log)
        if isinstance(whole, str):
            r.notes.append(f"IREE on the whole model: {whole}")
        else:
            fns["IREE whole model"] = whole
    else:
        r.notes.append("IREE on the whole model: measured in f32 only")
    if dtype == "bf16":
        r.notes.append(f"PyTorch runs the model in {dtype} (model.to({tdt}), input too); kgen's blocks compute in "
                       f"{dtype}, the rest of the model in float32")
    alone = TorchAlone.start(log) if torch_alone else None
    try:
        between = alone.round if alone is not None and alone.model(alone_model or mdt, xd, factory) else None
        log(f"timing {len(fns)} runners end to end, {rounds} rounds")
        samples = round_samples(fns, rounds, after_round=between)
        alone_samples = alone.samples if between is not None else {}
    finally:
        if alone is not None:
            alone.close()
    r.seconds = {k: statistics.median(v) for k, v in samples.items()}
    r.best = {k: min(v) for k, v in samples.items()}
    r.torch_in_process = {k: r.seconds[k] for k in fns if k.startswith("PyTorch ")}
    apart = []
    for layout, v in alone_samples.items():
        name = f"PyTorch {layout}"
        if len(v) < rounds or name not in r.seconds:    # a child that stopped partway: not compared
            continue
        r.torch_alone[name] = statistics.median(v)
        apart.append(f"{layout} {r.seconds[name] * 1e3:.1f} / {r.torch_alone[name] * 1e3:.1f} ms")
        r.seconds[name] = min(r.seconds[name], r.torch_alone[name])
        r.best[name] = min(r.best[name], min(v))
    if r.torch_alone:
        apart = ", ".join(apart)
        r.notes.append(f"PyTorch figures: the faster of round-robin in this process (OpenMP passive) and alone in "
                       f"its own process (OpenMP default policy) between the same rounds (medians, passive / "
                       f"alone: {apart})")
    elif alone_samples:
        r.notes.append(f"PyTorch alone: {min(map(len, alone_samples.values()))} of {rounds} rounds (its process "
                       f"stopped): not compared")
    if breakdown:
        log(f"timing the plan node by node and PyTorch eager under its profiler, {rounds} calls each")
        r.breakdown = time_breakdown.measure(om, x, rounds, eager=(mdt, xd))
    return r


def _iree_whole_model(model, x, backend: str, driver, ref, log):
    """IREE compiling the whole model itself (iree-turbine's export, the backend's default flags): a
    bound call, or why there is none."""
    try:
        import iree.turbine.aot as aot
    except ImportError as e:
        return f"not measured: iree-turbine does not import ({e}); pip install iree-turbine==3.9.0"
    b = get_backend(backend)
    try:
        log("exporting the whole model with iree-turbine and compiling it with IREE")
        text = str(aot.export(model, args=(x,)).mlir_module)
        art = compile_mlir(text, b, name="whole_model", timeout=3600)
        fn = LoadedModule(art.path, b, chain_driver(b, driver)).function("main")
        got = fn(x.numpy())[0]
    except KgenError as e:
        return f"IREE could not compile or run it: {e}"
    except Exception as e:              # noqa: BLE001 -- the exporter's own failures
        return f"iree-turbine could not export it: {str(e).splitlines()[0][:120]}"
    err = float(np.abs(got - ref.numpy()).max() / np.abs(ref.numpy()).max())
    if not err <= 1e-4:
        return f"wrong result (max |diff| / max |ref| = {err:.2e}), not timed"
    return fn.bind(x.numpy())


def run_graph(net: Network, *, backend: str = "llvm-cpu", driver=None, layouts=None, plan_only: bool = False,
              rounds: int = 10, jobs: int = 2, seed: int = 0, log: Callable[[str], None] = print,
              address: str | None = None) -> NetResult:
    """Plan a text-form network; unless `plan_only`, run the plan on integer data (seed printed), check
    every layer against the float64 reference computed from that layer's actual inputs, and time the
    plan and both baselines end to end, from NumPy and on device tensors."""
    random_parameters(net, seed)
    costs = measure_costs(net, backend, driver=driver, layouts=layouts, rounds=5, jobs=jobs, log=log, address=address)
    plan = plan_network(net, costs, layouts)
    r = NetResult(net, [plan, *baselines(net, costs, layouts)])
    if plan_only:
        return r
    compiled = {f"kgen {p.name}": CompiledNetwork(net, p, backend, driver=driver) for p in r.plans}
    compiled["kgen plan, a module per layer"] = CompiledNetwork(net, plan, backend, driver=driver, segments=False)
    rng = np.random.default_rng(seed)
    inputs = {t: rng.integers(-2, 3, net.tensors[t][0]).astype(np.float32) for t in net.inputs}
    r.max_rel_err = max(check_layers(compiled[k], compiled[k](inputs, keep=True))
                        for k in ("kgen plan", "kgen plan, a module per layer"))
    r.check = (f"check, layer by layer against the float64 reference on integer data (seed {seed}): "
               f"max |diff| / max |ref| = {r.max_rel_err:.2e}")
    # two figures per runner: NumPy in and out (the caller's path: conversions to and from the data type
    # and layout on the host, and the uploads), and on device tensors (`CompiledNetwork.bind`: what the
    # planner prices, without the host conversions)
    fns = {name: (lambda c=c: c(inputs)) for name, c in compiled.items()}
    fns.update({f"{name}, device tensors": c.bind(inputs) for name, c in compiled.items()})
    samples = round_samples(fns, rounds)
    r.seconds = {k: statistics.median(v) for k, v in samples.items()}
    r.best = {k: min(v) for k, v in samples.items()}
    return r


def check_layers(compiled, out: dict[str, np.ndarray]) -> float:
    """The largest error of any layer of a run (`CompiledNetwork(..., keep=True)`'s tensors) against the
    float64 reference of that layer on the inputs it actually got, relative to the layer's largest value."""
    worst = 0.0
    for layer in compiled.net.layers:
        p = compiled.runners[layer.name].problem
        inputs = {"dst_init": p.dst.to_physical(out[layer.residual])} if layer.residual else {}
        wei = p.wei.to_physical(np.asarray(layer.weights, p.wei.dtype.np_dtype).reshape(p.wei.dims))
        ref = p.dst.from_physical(p.reference(p.src.to_physical(out[layer.src]), wei, layer.bias, inputs=inputs))
        top = float(np.abs(ref).max()) or 1.0
        worst = max(worst, float(np.abs(ref.astype(np.float64) - out[layer.dst]).max()) / top)
    return worst if math.isfinite(worst) else math.inf
