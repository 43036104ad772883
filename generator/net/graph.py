"""A network of convolutions: the layers kgen runs, the tensors between them, and where they leave.

A `Network` is a DAG of `ConvLayer`s in a topological order. Each layer reads one tensor (its source),
optionally a second one that its `sum` post-op adds (the residual join of ResNet, read as the
destination's prior contents, oneDNN's semantics), and writes one tensor. Fused epilogues are the
layer's post-ops: a folded BatchNorm is in its weights and bias, an activation is an eltwise post-op.
A layer's source and destination are in format ``any`` (the planner chooses); weights stay plain
(prepare packs them once).

Built two ways: from a text file of benchdnn conv lines with tensor names (`parse_network`, the CLI's
``kgen net --graph=FILE``), and from a PyTorch module (`generator.net.torch_bridge`), where the
layers kgen cannot run are `Boundary` nodes: the tensor goes back to PyTorch there.
"""
from __future__ import annotations

import dataclasses
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..errors import KgenError, ProblemError, UnsupportedError
from ..problem.attr import Eltwise, Sum
from ..problem.conv import ConvProblem, torch_wei_dims


@dataclass
class ConvLayer:
    """One convolution of the network: `problem` (source and destination in format ``any`` unless the
    graph fixed them), the tensors it reads (`src`, and `residual` for its sum post-op) and writes
    (`dst`), and its logical weights (OC, IC/G, K..) and bias (OC) when the network has them."""
    name: str
    problem: ConvProblem
    src: str
    dst: str
    residual: str | None = None
    weights: np.ndarray | None = None
    bias: np.ndarray | None = None
    # the quantization values its kernel is called with (`ConvKernel` keywords: src_scale, wei_scale,
    # dst_scale, src_zp, dst_zp), where its problem has scales or zero points
    quant: dict[str, np.ndarray] | None = None

    @property
    def inputs(self) -> tuple[str, ...]:
        return (self.src,) + ((self.residual,) if self.residual else ())

    @property
    def outputs(self) -> tuple[str, ...]:
        return (self.dst,)


@dataclass
class OpNode:
    """An op between the convolutions that kgen runs too (`problem.netop.NetOp`: an elementwise
    function or product, pooling, a channel concatenation), in the layout the planner gives it, so a
    segment spans it: it reads `inputs` (in the op's order) and writes `dst`."""
    name: str
    op: object                  # problem.netop.NetOp
    inputs: tuple[str, ...]
    dst: str

    @property
    def outputs(self) -> tuple[str, ...]:
        return (self.dst,)


def qparams_of_layer(layer) -> tuple[list, object]:
    """([(scale, zero point) of each input, or None], that of the output, or None) of a conv layer or
    op: what a quantized tensor crossing to PyTorch or back carries."""
    if isinstance(layer, OpNode):
        q = layer.op.quant
        return (list(q[:-1]), q[-1]) if q else ([None] * len(layer.inputs), None)
    q = layer.quant
    if not q:
        return [None] * len(layer.inputs), None
    src = (float(q.get("src_scale", 1.0)), int(q.get("src_zp", 0)))
    # a float destination (u8:s8:f32: a result PyTorch reads in float) has no quantization
    dst = (float(q.get("dst_scale", 1.0)), int(q.get("dst_zp", 0))) if layer.problem.dst.dtype.is_int else None
    # a residual is read in the destination's type at its sum post-op's scale and zero point
    res = [(float(op.scale), int(op.zero_point)) for op in layer.problem.post_ops if isinstance(op, Sum)]
    return [src] + res[:1] if layer.residual else [src], dst


#: the nodes kgen runs, each in one planned layout
KERNEL_NODES = (ConvLayer, OpNode)


@dataclass
class Boundary:
    """Work that stays in PyTorch (pooling, linear, a join kgen does not fuse...): the tensors it reads
    go back to PyTorch (plain or channels-last: a view; blocked: a reorder first); the tensor it
    writes comes from PyTorch in the memory format of its first input."""
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass
class Network:
    """Nodes in a topological order, the tensors' logical dims and types, and the network's inputs
    and outputs (tensors the caller gives and reads, in plain layout)."""
    nodes: list
    tensors: dict[str, tuple[tuple[int, ...], str]]
    inputs: list[str]
    outputs: list[str]
    name: str = "network"
    notes: list[str] = field(default_factory=list)     # what the import left to PyTorch, and why

    @property
    def layers(self) -> list[ConvLayer]:
        return [n for n in self.nodes if isinstance(n, ConvLayer)]

    @property
    def kernels(self) -> list:
        """The nodes kgen runs, each in one planned layout: conv layers and ops."""
        return [n for n in self.nodes if isinstance(n, KERNEL_NODES)]

    def consumers(self) -> dict[str, list[tuple[int, str]]]:
        """tensor -> [(node index, role: "src" / "residual" / "op" / "boundary")], in order."""
        out: dict[str, list[tuple[int, str]]] = {t: [] for t in self.tensors}
        for i, n in enumerate(self.nodes):
            if isinstance(n, ConvLayer):
                out[n.src].append((i, "src"))
                if n.residual:
                    out[n.residual].append((i, "residual"))
            elif isinstance(n, OpNode):
                for t in n.inputs:
                    out[t].append((i, "op"))
            else:
                for t in n.inputs:
                    out[t].append((i, "boundary"))
        return out

    def check(self) -> "Network":
        """Every tensor written once before it is read, dims and types matching; `ProblemError` else."""
        names = [n.name for n in self.nodes]
        dup = next((x for x in names if names.count(x) > 1), None)
        if dup is not None:
            raise ProblemError(f"{self.name}: two nodes are named {dup}")
        written = set(self.inputs)
        for t in self.inputs:
            if t not in self.tensors:
                raise ProblemError(f"{self.name}: input {t} has no dims")
        for n in self.nodes:
            for t in n.inputs:
                if t not in written:
                    raise ProblemError(f"{self.name}: {n.name} reads {t} before any node writes it")
            for t in n.outputs:
                if t in written:
                    raise ProblemError(f"{self.name}: {n.name} writes {t}, which is already written")
                written.add(t)
            if isinstance(n, ConvLayer):
                p = n.problem
                for t, want, dt in ((n.src, p.desc.src_dims, p.src.dtype.name), (n.dst, p.desc.dst_dims, p.dst.dtype.name),
                                    *(((n.residual, p.desc.dst_dims, p.dst.dtype.name),) if n.residual else ())):
                    dims, tdt = self.tensors[t]
                    if tuple(dims) != tuple(want) or tdt != dt:
                        raise ProblemError(f"{self.name}: {n.name} wants {t} as {'x'.join(map(str, want))} {dt}, "
                                           f"it is {'x'.join(map(str, dims))} {tdt}")
                has_sum = any(isinstance(op, Sum) for op in p.post_ops)
                if has_sum != bool(n.residual):
                    raise ProblemError(f"{self.name}: {n.name} " + ("has a sum post-op but no residual tensor (+NAME)"
                                                                   if has_sum else "adds a residual tensor but has no sum post-op"))
                if n.weights is not None and n.weights.shape != torch_wei_dims(p.desc):
                    raise ProblemError(f"{self.name}: {n.name} weights are {n.weights.shape}, expected "
                                       f"{torch_wei_dims(p.desc)}")
            if isinstance(n, OpNode):
                for t, want in zip((*n.inputs, n.dst), (*n.op.inputs, n.op.out)):
                    dims, tdt = self.tensors[t]
                    if tuple(dims) != tuple(want) or tdt != n.op.dt:
                        raise ProblemError(f"{self.name}: {n.name} ({n.op}) wants {t} as {'x'.join(map(str, want))} "
                                           f"{n.op.dt}, it is {'x'.join(map(str, dims))} {tdt}")
        for t in self.outputs:
            if t not in written:
                raise ProblemError(f"{self.name}: output {t} is never written")
        return self


# ------------------------------------------------------------------------------------------ text form
_LINE = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)\s+(?P<src>[A-Za-z_][\w.]*)\s*->\s*(?P<dst>[A-Za-z_][\w.]*)"
                   r"(?:\s+\+(?P<res>[A-Za-z_][\w.]*))?\s+(?P<rest>.+)$")
GRAPH_FORMAT = ("one layer per line: NAME SRC -> DST [+RESIDUAL] [benchdnn conv options] DESC; "
                "e.g. 'c3 b -> c +a --attr-post-ops=sum+relu mb1ic16ih8oc16oh8kh3ph1'")


def parse_network(text: str, name: str = "network") -> Network:
    """A network from its text form (`GRAPH_FORMAT`; ``#`` comments, blank lines skipped). Each line's
    options start from benchdnn's defaults; ``--stag``/``--dtag`` are ``any`` unless written (then
    the planner keeps them). Inputs: tensors read but never written; outputs: written, never read."""
    nodes, tensors = [], {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _LINE.match(line)
        where = f"{name}:{lineno}"
        if not m:
            raise ProblemError(f"{where}: cannot read '{line}' ({GRAPH_FORMAT})")
        try:
            args = shlex.split(m["rest"])
        except ValueError as e:
            raise ProblemError(f"{where}: {e} in '{m['rest']}'") from None
        tags = {k: a.split("=", 1)[1] for a in args for k in ("--stag", "--dtag") if a.startswith(k + "=")}
        if len(tags) == 1 or (len(tags) == 2 and tags["--stag"] != tags["--dtag"]):
            # the planner gives a layer one layout, its source's and its destination's
            raise ProblemError(f"{where}: a layer has one layout: write --stag and --dtag alike, or neither "
                               f"(the planner chooses)")
        if not tags:
            args[:0] = ["--stag=any", "--dtag=any"]
        try:
            cases = list(parse_conv_args(args))
            if len(cases) != 1:
                raise ProblemError(f"the line describes {len(cases)} problems, expected one")
            p = conv_problem(cases[0])
        except KgenError as e:
            raise type(e)(f"{where}: {e}") from None
        if p.scales or p.zero_points or any(not isinstance(op, (Sum, Eltwise)) for op in p.post_ops):
            raise UnsupportedError(f"{where}: a network layer takes eltwise and sum post-ops (no scales, zero "
                                   f"points, binary, prelu or dw post-ops yet)")
        if p.alg == "direct" and not any(a.startswith("--alg=") for a in args):
            p = dataclasses.replace(p, alg="auto")     # the planner's choice unless the line names one
        layer = ConvLayer(m["name"], p, m["src"], m["dst"], m["res"])
        for t, dims, dt in ((layer.src, p.desc.src_dims, p.src.dtype.name), (layer.dst, p.desc.dst_dims, p.dst.dtype.name),
                            *(((layer.residual, p.desc.dst_dims, p.dst.dtype.name),) if layer.residual else ())):
            tensors.setdefault(t, (tuple(dims), dt))
        nodes.append(layer)
    if not nodes:
        raise ProblemError(f"{name}: no layers ({GRAPH_FORMAT})")
    written = {n.dst for n in nodes}
    read = {t for n in nodes for t in n.inputs}
    inputs = list(dict.fromkeys(t for n in nodes for t in n.inputs if t not in written))
    outputs = [n.dst for n in nodes if n.dst not in read]
    return Network(nodes, tensors, inputs, outputs, name).check()


def load_network(path: str | Path) -> Network:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise ProblemError(f"cannot read graph file {path}: {e.strerror or e}") from None
    return parse_network(text, path.name)


def random_parameters(net: Network, seed: int = 0) -> Network:
    """Small-integer weights and biases for every layer that has none (exact in f32: integer fills,
    as benchdnn's), so a run can be compared with the float64 reference exactly."""
    rng = np.random.default_rng(seed)
    for layer in net.layers:
        p = layer.problem
        if layer.weights is None:
            layer.weights = rng.integers(-1, 2, torch_wei_dims(p.desc)).astype(p.wei.dtype.np_dtype)
        if layer.bias is None and p.bias:
            layer.bias = rng.integers(-4, 5, p.desc.oc).astype(np.float32)
    return net

