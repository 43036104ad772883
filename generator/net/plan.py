"""The layout planner: a layout for every tensor and a kernel for every layer of a `Network`, chosen to
minimize the measured total of every layer's kernel plus every reorder the plan needs, at the
network's edges too.

Costs are measured (`measure_costs`): each layer's `--alg=auto` kernel in each candidate layout (its
source and destination in that layout; the variant, flag set and driver `select.choose` gives it
there: `kgen tune`'s when tuned), and each reorder between two candidate layouts of each tensor
shape, all on one runtime driver (the plan chains device tensors on it). Figures are cached in the
selection table (`select.table`, keys ``time|...``, which hold a fingerprint of the templates and the
emit, compile and runtime code: `version.code_fingerprint`), so planning again is free until that code
changes.

The search (`plan_network`) is exact: a dynamic programme over the nodes in topological order whose
state is the layout of every live tensor (written, still to be read). On a chain that is the classic
DP over layouts; at a residual join the state holds both branches' tensors, so the join is searched
exactly (ResNet has at most three live tensors: 3^3 states). A tensor read in another layout than it
was written in pays a reorder per reading layer; a `Boundary` (PyTorch) reads plain or channels-last
tensors as views and blocked ones after a reorder to plain.
"""
from __future__ import annotations

import dataclasses
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..api import ConvKernel, ReorderKernel, compile_conv, make_problem, reorder_form
from ..compile import get_backend
from ..emit.conv import why_not
from ..errors import InternalError, KgenError, UnsupportedError
from ..layout import MemoryDesc
from ..runtime import chain_driver
from ..runtime.timing import median_times
from ..scale import Progress, Unit, executor_for, run_units
from ..select import choose, table
from ..select.candidates import DEFAULT_LAYOUTS, check_layouts, layout_name, layout_tag
from ..version import __version__, code_fingerprint
from ..verify import conv_call
from ..emit.netop import function_name
from ..emit.netop import why_not as op_why_not
from .graph import KERNEL_NODES, Boundary, ConvLayer, Network, OpNode
from .opkernel import OpKernel, refusal

#: the layout the caller's arrays are in at the network's edges (NumPy / PyTorch contiguous)
USER = "nchw"
#: what the planner's kernel column says of an op (`OpNode`): kgen's op template, no variant or flag set
OP_KERNEL = "netop"
#: the most DP states kept per step: 3 layouts ^ 7 live tensors (ResNet has 3 live at most)
MAX_STATES = 3 ** 7


def torch_view_free(layout: str, ndims: int) -> bool:
    """PyTorch takes a tensor in this layout as a view: NCHW contiguous, or channels_last (2D / 3D)."""
    return layout == "nchw" or (layout == "nhwc" and ndims in (4, 5))


@dataclass
class Costs:
    """Measured seconds: conv[(layer name, layout)] (absent: that kernel cannot run), reorder[(dims, dt,
    from, to)], and what each conv resolved to (variant/flags) for the report."""
    conv: dict[tuple[str, str], float] = field(default_factory=dict)
    reorder: dict[tuple[tuple[int, ...], str, str, str], float] = field(default_factory=dict)
    kernel: dict[tuple[str, str], str] = field(default_factory=dict)

    def reorder_s(self, dims, dt: str, a: str, b: str) -> float:
        return 0.0 if a == b else self.reorder.get((tuple(dims), dt, a, b), math.inf)


@dataclass
class Reorder:
    tensor: str
    src: str
    dst: str
    where: str                  # "before <node>" or "output"
    seconds: float


@dataclass
class Plan:
    """A layout per layer (its source and destination), the reorders it needs, and the totals."""
    name: str
    layouts: dict[str, str]
    conv_s: dict[str, float]
    reorders: list[Reorder]
    kernels: dict[str, str] = field(default_factory=dict)
    exact: bool = True          # False: the search kept a beam of states (`MAX_STATES`), not all

    @property
    def total_s(self) -> float:
        return sum(self.conv_s.values()) + self.reorder_s

    @property
    def reorder_s(self) -> float:
        return sum(r.seconds for r in self.reorders)


# ------------------------------------------------------------------------------------------ search
def candidate_layouts(layer, layouts: list[str] | None = None) -> list[str]:
    """The layouts a layer may take: `layouts` or its data type's `DEFAULT_LAYOUTS`, or the one its
    graph line fixed (--stag / --dtag); an op (`OpNode`): those of them it can run in."""
    if isinstance(layer, OpNode):
        op = layer.op
        return [lay for lay in (layouts or DEFAULT_LAYOUTS[op.dt])
                if not op_why_not(op, layout_tag(lay, len(op.out)))]
    p = layer.problem
    if not p.src.is_any:
        return [layout_name(p.src.tag, p.desc.ndims)]
    return list(layouts or DEFAULT_LAYOUTS.get(p.src.dtype.name, ("nchw", "nhwc")))


def _last_reads(net: Network) -> dict[str, int]:
    """tensor -> index of the last node reading it (len(nodes) for the network's outputs)."""
    last = {}
    for i, n in enumerate(net.nodes):
        for t in n.inputs:
            last[t] = i
    for t in net.outputs:
        last[t] = len(net.nodes)
    return last


def _step(net: Network, n, where: dict[str, str], lay: str | None, costs: Costs
          ) -> tuple[list[Reorder], float, dict[str, str]]:
    """One node, the live tensors in the layouts `where` gives: the reorders it forces, its kernel's
    seconds, and the layouts of the tensors it writes. A conv layer computes in `lay`; a boundary
    (`lay` None) reads plain or channels-last tensors as views, blocked ones after a reorder to plain."""
    reorders = []

    def need(t: str, want: str) -> None:
        if where[t] != want:
            dims, dt = net.tensors[t]
            reorders.append(Reorder(t, where[t], want, f"before {n.name}", costs.reorder_s(dims, dt, where[t], want)))

    if isinstance(n, KERNEL_NODES):
        for t in n.inputs:
            need(t, lay)
        return reorders, costs.conv.get((n.name, lay), math.inf), {n.dst: lay}
    fmt = None
    for t in n.inputs:
        to = where[t] if torch_view_free(where[t], len(net.tensors[t][0])) else USER
        need(t, to)
        fmt = fmt or to
    return reorders, 0.0, {t: _boundary_out(fmt, net.tensors[t][0]) for t in n.outputs}


def _exit(net: Network, where: dict[str, str], costs: Costs) -> list[Reorder]:
    """The reorders that give the network's outputs back plain (kgen's: what PyTorch writes it returns
    as PyTorch gives it, a channels-last tensor too)."""
    by_pytorch = {t for n in net.nodes if isinstance(n, Boundary) for t in n.outputs}
    out = []
    for t in net.outputs:
        if where[t] != USER and t not in by_pytorch:
            dims, dt = net.tensors[t]
            out.append(Reorder(t, where[t], USER, "output", costs.reorder_s(dims, dt, where[t], USER)))
    return out


def evaluate(net: Network, layouts: dict[str, str], costs: Costs, name: str) -> Plan:
    """The cost of one assignment of layouts to layers: its kernels, and every reorder it forces
    (inputs arrive plain, outputs leave plain, boundaries read plain or channels-last views)."""
    where: dict[str, str] = {t: USER for t in net.inputs}
    reorders, conv_s = [], {}
    for n in net.nodes:
        kgen = isinstance(n, KERNEL_NODES)
        r, seconds, wrote = _step(net, n, where, layouts.get(n.name) if kgen else None, costs)
        reorders += r
        if kgen:
            conv_s[n.name] = seconds
        where.update(wrote)
    reorders += _exit(net, where, costs)
    return Plan(name, dict(layouts), conv_s, reorders,
                {n.name: costs.kernel.get((n.name, layouts[n.name]), "") for n in net.kernels})


def plan_network(net: Network, costs: Costs, layouts: list[str] | None = None) -> Plan:
    """The assignment of layouts with the least measured total: exact DP over live-tensor layouts, a
    beam of the `MAX_STATES` cheapest states where more tensors are live at once (`Plan.exact` False)."""
    last = _last_reads(net)
    beamed = False
    # state: ((tensor, layout), ...) of the live tensors -> (cost, layouts chosen so far)
    states: dict[tuple, tuple[float, tuple]] = {tuple(sorted((t, USER) for t in net.inputs)): (0.0, ())}
    for i, n in enumerate(net.nodes):
        nxt: dict[tuple, tuple[float, tuple]] = {}
        choices = candidate_layouts(n, layouts) if isinstance(n, KERNEL_NODES) else [None]
        for state, (cost, path) in states.items():
            where = dict(state)
            for lay in choices:
                if lay is not None and (n.name, lay) not in costs.conv:
                    continue                    # that kernel did not run
                r, seconds, wrote = _step(net, n, where, lay, costs)
                total = cost + seconds + sum(x.seconds for x in r)
                live = tuple(sorted((t, v) for t, v in {**where, **wrote}.items() if last.get(t, -1) > i))
                if live not in nxt or total < nxt[live][0]:
                    nxt[live] = (total, path + (lay,))
        if not nxt:
            raise UnsupportedError(f"no kernel could run layer {n.name} in any candidate layout")
        if len(nxt) > MAX_STATES:       # many live tensors (a DenseNet concat): keep the cheapest states
            beamed = True
            nxt = dict(sorted(nxt.items(), key=lambda kv: kv[1][0])[:MAX_STATES])
        states = nxt
    best, best_path = math.inf, None
    for state, (cost, path) in states.items():
        cost += sum(r.seconds for r in _exit(net, dict(state), costs))
        if cost < best:
            best, best_path = cost, path
    if best_path is None:
        raise UnsupportedError("no plan has a finite measured cost (a reorder or a kernel every plan needs failed)")
    chosen = {n.name: lay for n, lay in zip(net.nodes, best_path) if isinstance(n, KERNEL_NODES)}
    plan = evaluate(net, chosen, costs, "plan")
    plan.exact = not beamed
    return plan


def _boundary_out(fmt: str | None, dims) -> str:
    """The layout of a tensor PyTorch writes: its first input's memory format (PyTorch keeps
    channels_last through pooling and elementwise ops) where the tensor can have it, else plain."""
    return fmt if fmt and torch_view_free(fmt, len(dims)) else USER


def baselines(net: Network, costs: Costs, layouts: list[str] | None = None) -> list[Plan]:
    """The two plans the planner is compared with: every layer in plain NCHW, and every layer in its
    own fastest layout with the reorders that forces."""
    # NCHW, or where a layer has no NCHW kernel, its first layout that ran
    nchw = {n.name: next((lay for lay in ("nchw", *candidate_layouts(n, layouts)) if (n.name, lay) in costs.conv),
                         candidate_layouts(n, layouts)[0]) for n in net.kernels}
    own = {n.name: min(candidate_layouts(n, layouts), key=lambda lay: costs.conv.get((n.name, lay), math.inf))
           for n in net.kernels}
    return [evaluate(net, nchw, costs, "all NCHW"), evaluate(net, own, costs, "per-layer best")]


# ------------------------------------------------------------------------------------------ measuring
def _time_key(backend: str, driver: str, kind: str, name: str) -> str:
    """A measured time's key: the kgen version and the fingerprint of the code that generates and runs
    the kernels too (`version.code_fingerprint`), since other code may generate other kernels: a
    figure measured before the templates or emitters changed is measured again, not served."""
    return f"time|{__version__}+{code_fingerprint()}|{backend}|{table.target_id(backend)}|{driver}|{kind}|{name}"


def tensor_desc(dims, dt: str, layout: str) -> MemoryDesc:
    """A network tensor in a planner layout (nchw, nhwc, nChw16c...), for its rank."""
    return MemoryDesc(dims, dt, layout_tag(layout, len(dims)))


def reorder_problem(dims, dt: str, a: str, b: str):
    """The reorder of a network tensor from layout `a` to layout `b`."""
    return make_problem(tensor_desc(dims, dt, a), tensor_desc(dims, dt, b))


def layer_problem(layer: ConvLayer, layout: str, backend: str):
    """The layer's problem in `layout` with `--alg=auto` (or its fixed variant) resolved, and the flag set."""
    p = layer.problem
    tag = layout_tag(layout, p.desc.ndims)
    p = p.with_layouts(tag, "abx", tag)
    flags = "default"
    if p.alg == "auto":
        c = choose(p, backend)
        p, flags = dataclasses.replace(p, alg=c.variant), c.flags
    return p, flags


def _bind_layer(p, flags: str, b, drv: str):
    """One checked-ready call of a layer kernel on generated data, its weights prepared."""
    compile_conv(p, b, flags=flags, driver=drv)
    k = ConvKernel(p, b, flags=flags, driver=drv)
    call = conv_call(p)
    k.prepare(call.wei)
    return k.bind(call.src, call.bias, **call.attrs)


def _bind_reorder(dims, dt: str, a: str, c: str, b, drv: str):
    src = tensor_desc(dims, dt, a)
    k = ReorderKernel([reorder_problem(dims, dt, a, c)], b, driver=drv)
    return k.bind(np.zeros(src.buffer_len, src.buffer_dtype))


def _bound(todo_conv: dict, todo_re: dict, b, drv: str, jobs: int, log) -> dict:
    """{time key: bound call} of every kernel to time (one that fails to build is said and left out)."""
    n_todo, done = len(todo_conv) + len(todo_re), [0]

    def attempt(key, build, what):
        try:
            return key, build()
        except KgenError as e:
            log(f"  {what}: {e}")
            return key, None
        finally:
            done[0] += 1
            if done[0] % 10 == 0:
                log(f"  built {done[0]}/{n_todo}")

    def conv(item):
        key, users = item
        name, lay, p, flags = users[0]
        if flags == OP_KERNEL:
            return attempt(key, lambda: OpKernel(p, lay, b, drv).bind(), f"{name} in {lay}")
        return attempt(key, lambda: _bind_layer(p, flags, b, drv), f"{name} in {lay}")

    def reorder(item):
        key, (dims, dt, a, c) = item
        return attempt(key, lambda: _bind_reorder(dims, dt, a, c, b, drv), f"reorder {a}->{c} {'x'.join(map(str, dims))}")

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        built = list(pool.map(conv, todo_conv.items())) + list(pool.map(reorder, todo_re.items()))
    return {key: call for key, call in built if call is not None}


def time_unit(todo_conv: dict, todo_re: dict, backend: str, drv: str, rounds: int, jobs: int) -> dict:
    """A unit of planning on a farm's worker: one layer in all its candidate layouts, or one tensor
    shape's reorders, timed side by side. Returns {"seconds": {time key: s}, "log": [lines]}."""
    lines = []
    fns = _bound(todo_conv, todo_re, get_backend(backend), drv, jobs, lines.append)
    return {"seconds": median_times(fns, rounds) if fns else {}, "log": lines}


def measure_costs(net: Network, backend: str = "llvm-cpu", *, driver: str | None = None,
                  layouts: list[str] | None = None, rounds: int = 5, jobs: int = 2,
                  log: Callable[[str], None] = print, remeasure: bool = False,
                  address: str | None = None, progress: str = "text") -> Costs:
    """Measure (or read from the selection table) every layer kernel in every candidate layout and
    every reorder between candidate layouts of every tensor shape, on `driver`. Here, all of them
    side by side in one round-robin; with `address` (or $KGEN_RAY_ADDRESS), as units on the nodes of
    a Ray farm of this CPU kind (`time_unit`), so that several nodes measure at once."""
    layouts = check_layouts(layouts)
    b = get_backend(backend)
    drv = chain_driver(b, driver)
    known = {} if remeasure else table.load()
    costs = Costs()
    todo_conv = {}                  # time key -> (layer name, layout, problem or op, flags or OP_KERNEL)
    for node in net.nodes:
        if not isinstance(node, OpNode) or refusal(node.op, b):
            continue
        for lay in candidate_layouts(node, layouts):
            costs.kernel[(node.name, lay)] = OP_KERNEL
            key = _time_key(b.name, drv, "netop", function_name(node.op, layout_tag(lay, len(node.op.out))))
            if key in known:
                costs.conv[(node.name, lay)] = known[key]["seconds"]
            else:
                todo_conv.setdefault(key, []).append((node.name, lay, node.op, OP_KERNEL))
    for layer in net.layers:
        for lay in candidate_layouts(layer, layouts):
            try:
                p, flags = layer_problem(layer, lay, b.name)
            except KgenError:
                continue
            if why_not(p, b.for_flags(flags)):
                continue
            costs.kernel[(layer.name, lay)] = f"{p.alg}/{flags}"
            key = _time_key(b.name, drv, "conv", f"{p.name}|{flags}")
            if key in known:
                costs.conv[(layer.name, lay)] = known[key]["seconds"]
            else:
                todo_conv.setdefault(key, []).append((layer.name, lay, p, flags))
    shapes = {}                     # the tensors kgen's nodes read or write (a reorder applies to those)
    for layer in net.kernels:
        for t in (*layer.inputs, layer.dst):
            dims, dt = net.tensors[t]
            if 3 <= len(dims) <= 5:
                shapes[(tuple(dims), dt)] = None
    all_lays = sorted({lay for layer in net.kernels for lay in candidate_layouts(layer, layouts)} | {USER})
    todo_re = {}
    for dims, dt in shapes:
        for a in all_lays:
            for c in all_lays:
                if a == c:
                    continue
                # the emission form too: a figure measured in another form (before `select.reorder_form`
                # took pack for nhwc <-> nChwXc, say) is not this kernel's
                form = reorder_form(b, None, [reorder_problem(dims, dt, a, c)])
                key = _time_key(b.name, drv, "reorder", f"{'x'.join(map(str, dims))}|{dt}|{a}|{c}|{form}")
                if key in known:
                    costs.reorder[(dims, dt, a, c)] = known[key]["seconds"]
                else:
                    todo_re[key] = (dims, dt, a, c)
    n_todo = len(todo_conv) + len(todo_re)
    if not n_todo:
        return costs
    log(f"measuring {len(todo_conv)} layer kernels and {len(todo_re)} reorders on {drv} "
        f"({len(costs.conv) + len(costs.reorder)} figures from the table)")

    def record(times: dict) -> None:
        table.store({k: {"seconds": s} for k, s in times.items()})
        for key, s in times.items():
            for name, lay, _, _ in todo_conv.get(key, ()):
                costs.conv[(name, lay)] = s
            if key in todo_re:
                dims, dt, a, c = todo_re[key]
                costs.reorder[(dims, dt, a, c)] = s

    if address or os.environ.get("KGEN_RAY_ADDRESS"):
        _measure_on_farm(todo_conv, todo_re, b, drv, rounds, jobs, log, record, address, progress)
        return costs
    fns = _bound(todo_conv, todo_re, b, drv, jobs, log)
    if fns:
        log(f"timing {len(fns)} kernels, {rounds} rounds")
        record(median_times(fns, rounds))
    return costs


def _measure_on_farm(todo_conv, todo_re, b, drv, rounds, jobs, log, record, address, progress) -> None:
    """The layer kernels grouped by layer and the reorders by tensor shape, each group a unit on a node
    of this CPU kind (the plan is for this machine; the time keys name its CPU)."""
    if b.tuned_per_device:
        raise UnsupportedError(f"planning on a farm measures CPU backends; plan {b.name} on the machine "
                               f"that holds its device")
    here = table.target_id(b.name)
    by_layer, by_shape = {}, {}
    for key, users in todo_conv.items():
        by_layer.setdefault(users[0][0], {})[key] = users
    for key, (dims, dt, a, c) in todo_re.items():
        by_shape.setdefault((dims, dt), {})[key] = (dims, dt, a, c)
    units = [Unit(f"layer {name}", time_unit, (group, {}, b.name, drv, rounds, jobs), "measure", here)
             for name, group in by_layer.items()]
    units += [Unit(f"reorders {'x'.join(map(str, dims))} {dt}", time_unit, ({}, group, b.name, drv, rounds, jobs),
                   "measure", here) for (dims, dt), group in by_shape.items()]

    def keep(res) -> None:
        if not res.ok:
            log(f"  {res.unit.key}: FAILED ({res.error})")
            return
        if res.worker.cpu != here:          # placement sends these to this CPU kind only
            raise InternalError(f"{res.unit.key} was measured on CPU {res.worker.cpu}, not {here}")
        for line in res.value["log"]:
            log(line)
        record(res.value["seconds"])

    executor = executor_for(None, address)
    run_units(units, executor, keep, Progress("plan", len(units), progress, executor=executor.name))


def format_plan(net: Network, plans: list[Plan]) -> str:
    """Per layer: layouts and kernel in each plan and the planned time; then the reorders of the plan
    and a summary line per plan (total, reorders and their share)."""
    plan = plans[0]
    what = {n.name: str(n.problem.desc) if isinstance(n, ConvLayer) else str(n.op) for n in net.kernels}
    wn = max([14] + [len(n) for n in what])
    wp = max([34] + [len(w) for w in what.values()])
    lines = [f"{'layer':{wn}} {'problem':{wp}} " + " ".join(f"{p.name:>16}" for p in plans) + f" {'kernel':18} {'ms':>8}"]
    for layer in net.kernels:
        lines.append(f"{layer.name:{wn}} {what[layer.name]:{wp}} "
                     + " ".join(f"{p.layouts[layer.name]:>16}" for p in plans)
                     + f" {plan.kernels.get(layer.name, ''):18} {plan.conv_s[layer.name] * 1e3:8.3f}")
    if plan.reorders:
        lines.append("reorders in the plan:")
        for r in plan.reorders:
            lines.append(f"  {r.tensor:12} {r.src:>8} -> {r.dst:8} {r.where:24} {r.seconds * 1e3:8.3f} ms")
    for p in plans:
        lines.append(f"{p.name:16} total {p.total_s * 1e3:9.3f} ms: layers {sum(p.conv_s.values()) * 1e3:9.3f} ms, "
                     f"{len(p.reorders)} reorders {p.reorder_s * 1e3:8.3f} ms "
                     f"({100 * p.reorder_s / p.total_s if p.total_s else 0:.1f}% of the time)")
    return "\n".join(lines)


def plan_json(plans: list[Plan]) -> list[dict]:
    return [{"name": p.name, "total_s": p.total_s, "reorder_s": p.reorder_s, "layouts": p.layouts,
             "layers_s": p.conv_s, "kernels": p.kernels,
             "reorders": [dataclasses.asdict(r) for r in p.reorders]} for p in plans]


def write_png(net: Network, plan: Plan, path: str) -> None:
    """The network drawn top to bottom, each layer coloured by its layout, reorders marked in red."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {"nchw": "#9ecae1", "nhwc": "#a1d99b", "nChw16c": "#fdae6b", "nChw8c": "#fdd0a2",
               "NCHW4": "#bcbddc", "NCHW32": "#dadaeb"}
    nodes = net.nodes
    fig, ax = plt.subplots(figsize=(7, max(3, 0.32 * len(nodes) + 1)))
    y = {}
    for i, n in enumerate(nodes):
        y[n.name] = -i
        lay = plan.layouts.get(n.name)
        ax.add_patch(plt.Rectangle((0, -i - 0.4), 4, 0.8, color=colours.get(lay, "#dddddd")))
        label = f"{n.name}  {lay or 'PyTorch'}  {plan.kernels.get(n.name, '')}"
        ax.text(0.1, -i, label, va="center", fontsize=7)
    producer = {t: n.name for n in nodes for t in n.outputs}
    for i, n in enumerate(nodes):
        for t in n.inputs:
            if t in producer and y[producer[t]] != -i + 1:
                ax.annotate("", xy=(4.1, -i), xytext=(4.1, y[producer[t]]),
                            arrowprops=dict(arrowstyle="->", connectionstyle="arc3,rad=-0.3", lw=0.6))
    for r in plan.reorders:
        if r.where.startswith("before "):
            ax.plot([-0.3], [y[r.where[7:]]], "r<", ms=6)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()]
    ax.legend(handles, list(colours), loc="lower right", fontsize=7)
    ax.set_xlim(-0.6, 6)
    ax.set_ylim(-len(nodes), 1)
    ax.axis("off")
    ax.set_title(f"{net.name}: {plan.total_s * 1e3:.2f} ms planned, {len(plan.reorders)} reorders (red)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
