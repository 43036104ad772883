"""`generator.optimize`: a PyTorch model with its conv blocks and the ops between them on kgen kernels,
laid out by the planner (`net.plan`), everything else on PyTorch (the import and the modules that run:
`net.torch_bridge`).

The planner prices each layer and op alone. Inside a segment IREE fuses across them, and the layer
that was fastest alone need not be fastest there; so where it measured, `optimize` also builds the
plans that are close in price to the plan (every layer in NCHW, every layer in NHWC) and times them
end to end on the example input, keeping the fastest (`end_to_end`).
"""
from __future__ import annotations

from typing import Callable

from ..compile import get_backend
from ..errors import InputError, UnsupportedError
from ..runtime import chain_driver
from ..runtime.timing import median_times
from ..select import heuristic_layouts
from ..select.candidates import check_layouts, layout_name
from .execute import LayerRunner, OpRunner, Reorders
from .graph import Boundary, Network, OpNode
from .opkernel import refusal
from .plan import Costs, Plan, baselines, candidate_layouts, evaluate, measure_costs, plan_network
from .torch_bridge import DTYPES, fuse_segments, import_model, kgen_module, network_of, set_torch_threads, to_torch
from .torch_ops import is_shape_query, node_kind, why_stays
from .torch_pt2e import import_pt2e, is_pt2e
from .torch_quant import calibrate, check_not_prepared, import_quantized, is_quantized

#: the alternatives `optimize` times end to end beside the plan: uniform layouts, priced within this
#: factor of the plan (a plan priced far above it is not worth a segment's compile)
CLOSE_CALL = 1.5

#: PyTorch's ops in an optimized module run on one thread where that measured at least this much faster
#: end to end (`_torch_threads`): a clear win, not noise
ONE_THREAD_GAIN = 1.03


def _left_to_pytorch(gm, net: Network) -> tuple[dict[str, tuple[int, str]], set[str]]:
    """({kind: (how many nodes, why)} of the PyTorch nodes that read a tensor kgen writes, the kinds of
    those between kgen's kernels: whose result flows, through PyTorch's nodes, into a kgen node again
    (a classifier's flatten and Linear after the last kgen node are not)."""
    import torch

    on_kgen = {t for n in net.kernels for t in n.outputs}
    readers: dict[str, list] = {}
    for n in net.nodes:
        for t in n.inputs:
            readers.setdefault(t, []).append(n)

    def back_to_kgen(n, seen) -> bool:
        for t in n.outputs:
            for r in readers.get(t, ()):
                if not isinstance(r, Boundary) or (r.name not in seen and (seen.add(r.name) or back_to_kgen(r, seen))):
                    return True
        return False

    fx_nodes = {n.name: n for n in gm.graph.nodes}
    modules = dict(gm.named_modules())
    out: dict[str, tuple[int, str]] = {}
    between: set[str] = set()
    for n in net.nodes:
        if isinstance(n, Boundary) and any(t in on_kgen for t in n.inputs) and n.name in fx_nodes:
            node = fx_nodes[n.name]
            kind = node_kind(node, modules)
            count, _ = out.get(kind, (0, ""))
            out[kind] = (count + 1, why_stays(torch, node, modules))
            if back_to_kgen(n, set()):
                between.add(kind)
    return out, between


def _op_layouts(net: Network, layouts: dict[str, str], candidates) -> dict[str, str]:
    """`layouts` (the conv layers') with a layout for every op too, where it has none: its first
    input's producer's, when the op can run in it, else its first candidate."""
    out, where = dict(layouts), {}
    for n in net.nodes:
        if isinstance(n, OpNode) and n.name not in out:
            can = candidate_layouts(n, candidates)
            have = where.get(n.inputs[0])
            out[n.name] = have if have in can else can[0]
        if n.name in out:
            for t in n.outputs:
                where[t] = out[n.name]
    return out


def _importer(model, example_input, dtype: str | None, calibration, log):
    """(the data type, a function (strict, log) -> `Imported` of a fresh copy of the model): a float
    model traced as it is, or quantized first (`calibration`); a torch.ao-quantized one imported as it
    is (`torch_quant`)."""
    check_not_prepared(model)
    if calibration is not None:
        if dtype != "int8":
            raise InputError("calibration= quantizes the model: use it with dtype='int8'")
        if is_quantized(model) or is_pt2e(model):
            raise InputError(f"{type(model).__name__} is quantized already: leave calibration= out")
        model = calibrate(model, example_input, calibration, log)
    elif dtype == "int8" and not (is_quantized(model) or is_pt2e(model)):
        raise InputError(f"dtype='int8' needs a quantized model (torch.ao convert_fx, or torchao convert_pt2e) "
                         f"or calibration= batches to quantize {type(model).__name__} with")
    if is_quantized(model) or is_pt2e(model):
        if dtype not in (None, "int8"):
            raise UnsupportedError(f"{type(model).__name__} is quantized: its convolutions run in int8 "
                                   f"(dtype='int8' or leave dtype out), not {dtype}")
        how = import_pt2e if is_pt2e(model) else import_quantized
        return "int8", lambda strict, log: how(model, example_input, strict=strict, log=log)
    dtype = dtype or "f32"
    if dtype not in DTYPES:
        raise UnsupportedError(f"optimize(dtype='{dtype}'): kgen plans {', '.join(DTYPES)} models, and int8 "
                               f"ones quantized by torch.ao or with calibration=")
    return dtype, lambda strict, log: import_model(model, example_input, dtype=dtype, strict=strict, log=log)


def optimize(model, example_input, *, dtype: str | None = None, backend: str = "llvm-cpu", strict: bool = False,
             layouts: list[str] | None = None, driver: str | None = None, measure: bool = True,
             assignment: dict[str, str] | str | None = None, segments: bool = True, rounds: int = 5,
             jobs: int = 2, log: Callable[[str], None] | None = None, address: str | None = None,
             end_to_end: bool = True, calibration=None):
    """`model` with its conv blocks on kgen kernels following the layout plan (module doc). The returned
    module has ``kgen_plan`` (the `Plan`, with its reorders), ``kgen_baselines`` (all-NCHW and
    per-layer-best, costed on the same measurements), ``kgen_network`` and ``kgen_skipped`` (the
    layers left to PyTorch, with why). `measure=False` skips measuring: each layer takes
    `select.heuristic_layouts`'s layout. `assignment` forces layouts ("nchw" for all, or a dict
    per layer name), for comparisons. `segments`: every run of consecutive conv blocks is compiled
    into one module (`net.execute.SegmentRunner`: one invocation for the run); False keeps one
    invocation per block, the activations chained as device tensors between them. `address`: measure
    on the Ray farm there (`net.plan.measure_costs`; also $KGEN_RAY_ADDRESS). `end_to_end` (with
    `measure`, no `assignment`): the uniform plans priced within `CLOSE_CALL` of the plan are built too
    and timed with the plan on the example input, `rounds` rounds; the fastest is returned.

    `dtype`: f32 (the default for a float model), bf16, or int8: a model quantized by torch.ao's FX
    graph mode (`convert_fx`, x86 backend) or by PT2E (`convert_pt2e`, X86InductorQuantizer:
    `torch_pt2e`) runs its quantized convolutions, adds, multiplies, pooling, activation functions and
    channel concatenations in u8 with the model's own scales (the default for such a model); a float model is quantized first
    with `calibration` (an iterable of input batches: static post-training quantization,
    `torch_quant`)."""
    progress = "none" if log is None else "text"
    log = log or (lambda m: None)
    dtype, importer = _importer(model, example_input, dtype, calibration, log)
    b = get_backend(backend)
    drv = chain_driver(b, driver)
    layouts = check_layouts(layouts)
    imp = importer(strict, log)
    net = imp.net
    if measure:
        costs = measure_costs(net, b.name, driver=drv, layouts=layouts, rounds=rounds, jobs=jobs, log=log,
                              address=address, progress=progress)
    else:
        costs = Costs()
    blocks, ops, net = _kept(imp, costs, assignment, measure, strict, dtype, log, b)
    if assignment is not None:
        lay = {l.name: assignment for l in net.layers} if isinstance(assignment, str) else dict(assignment)
        plan = evaluate(net, _op_layouts(net, lay, layouts), costs, "forced")
    elif measure:
        plan = plan_network(net, costs, layouts)
    else:
        lay = {l.name: layout_name(heuristic_layouts(l.problem, b.name)[0], l.problem.desc.ndims) for l in net.layers}
        plan = evaluate(net, _op_layouts(net, lay, layouts), costs, "heuristic")
    in_pytorch, between = _left_to_pytorch(imp.gm, net)
    if between:
        log("warning: left to PyTorch between kgen's kernels (the tensors go back and forth): "
            + "; ".join(f"{k} x{n}: {why}" for k, (n, why) in in_pytorch.items() if k in between))
    gm = _build(imp, blocks, ops, plan, b, drv, segments, log)
    gm.kgen_network, gm.kgen_skipped, gm.kgen_in_pytorch = net, imp.skipped, in_pytorch
    gm.kgen_planned = plan           # the planner's choice from its prices (kgen_plan: what runs)
    gm.kgen_end_to_end = {}          # plan name -> end-to-end median, where close plans were timed
    gm.kgen_baselines = baselines(net, costs, layouts) if measure else []
    gm.kgen_costs = costs
    if measure and assignment is None and end_to_end:
        _torch_threads(gm, example_input, rounds, log)       # first: the close plans are timed so too
        gm = _fastest_end_to_end(gm, importer, example_input, net, costs, layouts, dtype, b, drv, segments, rounds, log)
    return gm


def _torch_threads(gm, x, rounds: int, log) -> None:
    """PyTorch's ops in `gm` on one thread (`set_torch_threads`) where that runs `gm` faster end to end
    in this process, by `ONE_THREAD_GAIN`: under OpenMP's default wait policy PyTorch's spinning threads
    slow kgen's kernels down; with passive waits (`OMP_WAIT_POLICY=passive`) or a PyTorch op that needs
    the cores, its own threads stay."""
    import torch

    threads = torch.get_num_threads()
    if threads == 1:
        return
    def call(n):
        set_torch_threads(gm, n)
        return gm(x)

    with torch.inference_mode():
        times = median_times({"as set": lambda: call(None), "one": lambda: call(1)}, rounds)
    keep = 1 if times["as set"] > ONE_THREAD_GAIN * times["one"] else None
    set_torch_threads(gm, keep)
    gm.kgen_torch_thread_times = {threads: times["as set"], 1: times["one"]}
    log(f"PyTorch's ops in the module on {threads} threads {times['as set'] * 1e3:.3f} ms, on one thread "
        f"{times['one'] * 1e3:.3f} ms end to end: " + ("one thread" if keep else f"{threads} threads"))


def _kept(imp, costs: Costs, assignment, measure: bool, strict: bool, dtype: str, log, backend):
    """(the blocks and ops kgen runs, the network of them): a layer or op the assignment leaves out, or
    that no kernel ran for in any layout, stays in PyTorch (warned; strict mode fails); so do the ops
    where the backend does not run them (one warning)."""
    blocks, ops = list(imp.blocks), list(imp.ops)
    refused = [o for o in ops if refusal(o.layer.op, backend)]
    if refused:
        why = f"{len(refused)} ops stay in PyTorch: {refusal(refused[0].layer.op, backend)}"
        if strict:
            raise UnsupportedError(why)
        log(f"warning: {why}")
        imp.skipped.append(why)
        ops = [o for o in ops if o not in refused]
    if isinstance(assignment, dict):          # a layer or op the assignment leaves out stays in PyTorch
        blocks = [blk for blk in blocks if blk.layer.name in assignment]
        ops = [o for o in ops if o.layer.name in assignment]
    # a layer or op no kernel ran for in any layout stays in PyTorch (warned), or strict mode fails
    for group in (blocks, ops):
        for blk in list(group):
            if measure and not any(k[0] == blk.layer.name for k in costs.conv):
                why = f"{blk.layer.name} stays in PyTorch: no kgen kernel ran it"
                if strict:
                    raise UnsupportedError(why)
                log(f"warning: {why}")
                imp.skipped.append(why)
                group.remove(blk)
    if len(blocks) != len(imp.blocks) or len(ops) != len(imp.ops):
        return blocks, ops, network_of(imp.gm, blocks, {n for blk in blocks for n in blk.nodes}, dtype, ops,
                                         dt_of=imp.dt_of)
    return blocks, ops, imp.net


def _build(imp, blocks, ops, plan: Plan, b, drv: str, segments: bool, log):
    """The traced module of `imp` rewritten to run `blocks` and `ops` on kgen following `plan`."""
    reorders = Reorders(b, drv)
    gm = imp.gm
    graph = gm.graph
    kgen_nodes, replaced = [], {}
    torch_shape = {}                # a kgen node -> the shape PyTorch's nodes read, where its dims differ
    for i, blk in enumerate(blocks):
        runner = LayerRunner(blk.layer, plan.layouts[blk.layer.name], b, drv)
        name = f"kgen_{i}_{blk.layer.name.replace('.', '_')}"
        gm.add_submodule(name, kgen_module(runner, reorders, b, drv))
        with graph.inserting_before(blk.out):
            # an earlier block's output is its new node now (a later block's is rewired by its own
            # replace_all_uses_with)
            args = tuple(replaced.get(a, a) for a in (blk.src, blk.residual) if a is not None)
            new = graph.call_module(name, args)
        shape = blk.out.meta.get("tensor_meta")
        if shape is not None and tuple(shape.shape) != tuple(blk.layer.problem.desc.dst_dims):
            torch_shape[new] = tuple(shape.shape)
        blk.out.replace_all_uses_with(new)
        replaced[blk.out] = new
        for n in reversed(blk.nodes):
            graph.erase_node(n)
        kgen_nodes.append(new)
    for i, o in enumerate(ops):
        runner = OpRunner(o.layer, plan.layouts[o.layer.name], b, drv)
        name = f"kgen_op_{i}_{o.layer.name}"
        gm.add_submodule(name, kgen_module(runner, reorders, b, drv))
        with graph.inserting_before(o.node):
            new = graph.call_module(name, tuple(replaced.get(a, a) for a in o.args))
        o.node.replace_all_uses_with(new)
        replaced[o.node] = new
        graph.erase_node(o.node)
        kgen_nodes.append(new)
    # a size an op read (x.shape[2] for an expand) is not needed now: without it the tensor need not
    # go back to PyTorch (only such pure nodes are dropped: a model's in-place op must stay)
    for n in reversed(list(graph.nodes)):
        if not n.users and (is_shape_query(n) or n.op == "get_attr"):    # a quantized op's scale, say
            graph.erase_node(n)
    order = {n: i for i, n in enumerate(graph.nodes)}
    kgen_nodes.sort(key=order.__getitem__)
    kset = set(kgen_nodes)
    for n in kgen_nodes:
        torch_users = [u for u in n.users if u not in kset]
        if torch_users:
            with graph.inserting_after(n):
                t = graph.call_function(to_torch, (n,))
            if n in torch_shape:    # a classifier's Linear: its 1x1 conv's N x OC x 1 .. as N x OC
                with graph.inserting_after(t):
                    t = graph.call_method("reshape", (t, torch_shape[n]))
            for u in torch_users:
                u.replace_input_with(n, t)
    if segments:
        fuse_segments(gm, kgen_nodes, b, drv, reorders, log)
    graph.lint()
    gm.delete_all_unused_submodules()       # the blocks and ops a segment took in, and their replaced originals
    gm.recompile()
    set_torch_threads(gm, None)
    gm.kgen_plan = plan
    return gm


def close_uniform_plans(net: Network, costs: Costs, plan: Plan, layouts=None) -> list[Plan]:
    """The uniform plans (every layer and op in one layout, or where it cannot run in it, in the plan's)
    other than `plan`, priced within `CLOSE_CALL` of it: what `optimize` times with it end to end."""
    out = []
    for lay in ("nchw", "nhwc", "nChw16c"):
        want = {n.name: lay if lay in candidate_layouts(n, layouts) else plan.layouts[n.name] for n in net.kernels}
        alt = evaluate(net, want, costs, f"all {lay}")
        if alt.layouts != plan.layouts and alt.total_s <= CLOSE_CALL * plan.total_s and \
                all(alt.layouts != o.layouts for o in out):
            out.append(alt)
    return out


def _fastest_end_to_end(gm, importer, x, net: Network, costs: Costs, layouts, dtype: str, b, drv: str,
                        segments: bool, rounds: int, log):
    """`gm` (the plan), or the uniform plan that runs faster end to end (module doc)."""
    import torch

    plan = gm.kgen_plan
    others = close_uniform_plans(net, costs, plan, layouts)
    if not others:
        return gm
    mods = {plan.name: gm}
    for alt in others:
        imp = importer(False, lambda m: None)
        blocks, ops, _ = _kept(imp, costs, None, True, False, dtype, lambda m: None, b)
        mods[alt.name] = _build(imp, blocks, ops, alt, b, drv, segments, lambda m: None)
        set_torch_threads(mods[alt.name], gm.kgen_torch_threads)
    log(f"timing the plan and {len(others)} uniform plan(s) close to it end to end, {rounds} rounds")
    with torch.inference_mode():
        times = median_times({name: (lambda m=m: m(x)) for name, m in mods.items()}, rounds)
    best = min(times, key=times.get)
    log("end to end: " + ", ".join(f"{n} {t * 1e3:.3f} ms" for n, t in times.items())
        + (f": taking {best}" if best != plan.name else ""))
    gm.kgen_end_to_end = times
    if best == plan.name:
        return gm
    out = mods[best]
    for attr in ("kgen_network", "kgen_skipped", "kgen_in_pytorch", "kgen_baselines", "kgen_costs", "kgen_planned",
                 "kgen_torch_thread_times"):
        if hasattr(gm, attr):
            setattr(out, attr, getattr(gm, attr))
    out.kgen_end_to_end = times
    return out
