"""The PyTorch bridge: what `generator.optimize` (`net.optimize`) builds on. The import of a model, and
the modules that run kgen's part of it.

Import (`import_model`): torch.fx traces the model (channels-last regions rewritten onto the tensor
as it is: `torch_rewrite`) and `ShapeProp` runs the example through it. A block is a Conv1d/2d/3d,
then optionally its BatchNorm (folded into weights and bias, eval semantics), an activation (ReLU,
ReLU6 / Hardtanh, LeakyReLU, SiLU, Hardswish, Hardsigmoid, Sigmoid, Tanh, GELU: oneDNN eltwise
post-ops), and a residual ``add`` of a tensor of the same shape (the `sum` post-op) with its own
activation after it: each intermediate must have that one user. A node between the blocks that kgen
runs too (`torch_ops.netop_of`: elementwise, pooling, concat...) and that reads a tensor a kgen block
or op writes is an op (`OpNode`). Every other node is a `Boundary`: its tensors go back to PyTorch.
A conv kgen cannot run (a padding mode, a type, a shape no kernel applies to) stays in PyTorch with
one warning line, or raises `UnsupportedError` in strict mode.

Execution: each block becomes a `KgenConvBlock` module and each op a `KgenOp`; consecutive ones become
one `KgenSegment`. Between two kgen nodes the activation stays on the device as a `DeviceTensor` in
the planned layout (`OnDevice`), reordered on the device where the plan says so; where PyTorch reads
it, `to_torch` gives a plain tensor or a channels-last view, free, or reorders a blocked one first.
The module is specialized to the example's shapes: another shape is an `InputError`.
"""
from __future__ import annotations

import contextlib
import functools
import io
import operator
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..errors import InputError, UnsupportedError, first_line
from ..layout import get_dtype
from ..problem.attr import Sum
from ..runtime import upload
from .execute import OpRunner, SegmentRunner
from .graph import Boundary, ConvLayer, Network, OpNode
from .torch_rewrite import drop_identities, functionalize_in_place, rewrite_channels_last
from .torch_ops import eltwise_of, is_shape_query, netop_of, op_inputs
from .plan import USER

#: optimize()'s data types: the kgen data type of the conv blocks' activations and weights. The model
#: stays float32 around them: activations convert on their way in and out (rounded to nearest even),
#: weights once; the blocks accumulate in f32 (benchdnn's bf16:bf16:bf16, f32 bias)
DTYPES = ("f32", "bf16")


@dataclass
class Block:
    """One fused conv block found in the fx graph."""
    conv: object                     # fx nodes
    out: object
    nodes: list
    src: object
    residual: object | None
    layer: ConvLayer


@dataclass
class OpBlock:
    """One op node of the fx graph that kgen runs (`torch_ops.netop_of`)."""
    node: object
    args: list                       # the fx nodes it reads, in the op's order
    layer: OpNode


@dataclass
class Imported:
    gm: object                       # the traced GraphModule (rewritten in place by `optimize`)
    net: Network
    blocks: list[Block]
    skipped: list[str] = field(default_factory=list)
    ops: list[OpBlock] = field(default_factory=list)
    dt_of: Callable | None = None    # each node's tensor type where they differ (`network_of`)


def _is_add(node) -> bool:
    import torch
    return (node.op == "call_function" and node.target in (operator.add, operator.iadd, torch.add)
            and len(node.args) == 2 and not node.kwargs) or \
        (node.op == "call_method" and node.target in ("add", "add_") and len(node.args) == 2 and not node.kwargs)


def _shape(node):
    meta = node.meta.get("tensor_meta")
    return tuple(meta.shape) if meta is not None and hasattr(meta, "shape") else None


def post_op_text(op) -> str:
    if isinstance(op, Sum):
        return "sum"
    params = [op.alpha, op.beta] if (op.alpha or op.beta) else []
    return ":".join([op.kind] + [repr(float(v)) for v in params])


def conv_desc(conv, x_shape, y_shape) -> str:
    """The benchdnn problem descriptor of a Conv1d/2d/3d module (a quantized one too) on `x_shape`."""
    nsp = len(x_shape) - 2
    if isinstance(conv.padding, str) and conv.padding != "valid":
        pads = [(conv.dilation[i] * (conv.kernel_size[i] - 1)) // 2 for i in range(nsp)]
    else:
        pads = [0] * nsp if isinstance(conv.padding, str) else list(conv.padding)
    axes = "dhw"[3 - nsp:]
    desc = f"g{conv.groups}mb{x_shape[0]}ic{conv.in_channels}" if conv.groups > 1 else f"mb{x_shape[0]}ic{conv.in_channels}"
    desc += "".join(f"i{a}{x_shape[2 + i]}" for i, a in enumerate(axes)) + f"oc{conv.out_channels}"
    return desc + "".join(f"o{a}{y_shape[2 + i]}k{a}{conv.kernel_size[i]}s{a}{conv.stride[i]}p{a}{pads[i]}"
                          f"d{a}{conv.dilation[i] - 1}" for i, a in enumerate(axes))


def _conv_layer(torch, conv, node, post_ops, residual, bn, dt: str = "f32") -> ConvLayer:
    """The layer of one block: its problem (benchdnn text through the one conv driver), folded weights."""
    if conv.padding_mode != "zeros":
        raise UnsupportedError(f"padding_mode='{conv.padding_mode}' (kgen pads with zeros)")
    desc = conv_desc(conv, _shape(node.args[0]), _shape(node))
    w = conv.weight.detach().double()
    b = conv.bias.detach().double() if conv.bias is not None else None
    if bn is not None:
        if bn.running_mean is None:
            raise UnsupportedError("a BatchNorm without running statistics")
        inv = (bn.weight.detach().double() if bn.weight is not None else 1.0) / torch.sqrt(bn.running_var.double() + bn.eps)
        w = w * inv.reshape((-1,) + (1,) * (w.dim() - 1))
        shift = bn.bias.detach().double() if bn.bias is not None else 0.0
        b = (b if b is not None else 0.0) - bn.running_mean.double()
        b = b * inv + shift
    args = ["--stag=any", "--dtag=any", "--alg=auto", "--dir=FWD_B" if b is not None else "--dir=FWD_D",
            f"--dt={dt}:{dt}:{dt}"]
    if post_ops:
        args.append("--attr-post-ops=" + "+".join(post_op_text(op) for op in post_ops))
    (case,) = parse_conv_args(args + [desc])
    p = conv_problem(case)
    return ConvLayer(node.name, p, node.args[0].name, "", residual.name if residual is not None else None,
                     w.float().numpy(), b.float().numpy() if b is not None else None)


def propagate_shapes(gm, model, example_input) -> None:
    """torch.fx's ShapeProp over `gm` (each node's output shape in its meta). Where a layer refuses the
    example, one InputError names the layer, the input's shape and PyTorch's own reason (ShapeProp
    itself prints a traceback to stderr and wraps the reason in a dump of the node's meta)."""
    import torch
    from torch.fx.passes.shape_prop import ShapeProp

    class Quiet(ShapeProp):
        node = None

        def run_node(self, n):
            self.node = n
            return super().run_node(n)

    prop = Quiet(gm)
    try:
        with torch.inference_mode(), contextlib.redirect_stderr(io.StringIO()):
            prop.propagate(example_input)
    except Exception as e:              # noqa: BLE001 -- a layer's own error, whatever its type
        cause = e.__cause__ or e
        n = prop.node
        where = ""
        if n is not None:
            mod = dict(gm.named_modules()).get(n.target) if n.op == "call_module" else None
            what = type(mod).__name__ if mod is not None else getattr(n.target, "__name__", str(n.target))
            where = f" at {n.target if n.op == 'call_module' else n.name} ({what})"
        reason = first_line(cause)
        shape = "x".join(map(str, example_input.shape))
        raise InputError(f"the example input {shape} does not run through {type(model).__name__}{where}: "
                         f"{reason}") from None


def import_model(model, example_input, *, dtype: str = "f32", strict: bool = False,
                 log: Callable[[str], None] = print) -> Imported:
    """Trace `model`, propagate the example's shapes and find the conv blocks (see the module doc)."""
    import torch
    import torch.fx as fx

    if not isinstance(model, torch.nn.Module):
        raise InputError(f"optimize() takes an nn.Module, got {type(model).__name__}")
    if not isinstance(example_input, torch.Tensor):
        raise InputError("the example input must be one torch.Tensor")
    if example_input.dtype != torch.float32:
        raise UnsupportedError(f"example input of type {example_input.dtype}: optimize() takes float32 models and "
                               f"inputs (dtype= chooses what the conv blocks compute in)")
    # kgen moves data to its own backend itself: it takes the model and the example where PyTorch's CPU has them
    if example_input.device.type != "cpu":
        raise InputError(f"the example input is on {example_input.device}: optimize() takes CPU tensors "
                         f"(backend= chooses where kgen's kernels run)")
    elsewhere = sorted({str(t.device) for t in (*model.parameters(), *model.buffers()) if t.device.type != "cpu"})
    if elsewhere:
        raise InputError(f"{type(model).__name__} has parameters on {', '.join(elsewhere)}: optimize() takes a "
                         f"model on the CPU (backend= chooses where kgen's kernels run)")
    convs = (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)
    if not any(isinstance(m, convs) for m in model.modules()):
        raise InputError(f"{type(model).__name__} has no Conv1d, Conv2d or Conv3d layer: kgen has nothing to run "
                         f"(it runs a model's convolutions and leaves the rest to PyTorch)")
    model = model.eval()
    try:
        gm = fx.symbolic_trace(model)
    except Exception as e:              # noqa: BLE001 -- torch.fx raises many kinds
        raise UnsupportedError(f"torch.fx cannot trace {type(model).__name__}: {first_line(e)}") from None
    functionalize_in_place(gm)           # readers after an in-place node read its result
    drop_identities(torch, gm)           # eval mode: Identity and Dropout return their input
    rewrite_channels_last(torch, gm)     # LayerNorm and Linear over channels-last views, on the tensor as it is
    propagate_shapes(gm, model, example_input)
    modules = dict(gm.named_modules())
    bns = (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)
    blocks, skipped = [], []
    absorbed = set()
    for node in gm.graph.nodes:
        if node.op != "call_module" or not isinstance(modules.get(node.target), convs) or node in absorbed:
            continue
        conv = modules[node.target]
        cur, chain, bn, post_ops, residual = node, [node], None, [], None

        def only_user(n):
            users = list(n.users)     # a node another block took (its residual add) is not this block's
            return users[0] if len(users) == 1 and users[0] not in absorbed else None

        def take_activation(cur):
            """The block's output after the activation that is `cur`'s only user, if there is one."""
            u = only_user(cur)
            op = eltwise_of(torch, u, modules) if u is not None else None
            if op is None:
                return cur
            post_ops.append(op)
            chain.append(u)
            return u

        u = only_user(cur)
        if u is not None and u.op == "call_module" and isinstance(modules.get(u.target), bns):
            bn, cur = modules[u.target], u
            chain.append(u)
        cur = take_activation(cur)
        u = only_user(cur)
        if u is not None and not post_ops and _is_add(u):
            other = u.args[1] if u.args[0] is cur else u.args[0]
            if isinstance(other, fx.Node) and other is not cur and _shape(other) == _shape(cur):
                post_ops.append(Sum())
                residual, cur = other, u
                chain.append(u)
                cur = take_activation(cur)
        meta = node.meta.get("tensor_meta")
        try:
            if meta is None or meta.dtype != torch.float32:
                raise UnsupportedError("its output is not a float32 tensor")
            layer = _conv_layer(torch, conv, node, post_ops, residual, bn, dtype)
        except Exception as e:          # noqa: BLE001 -- the reason is reported, the layer stays in PyTorch
            why = f"{node.target} stays in PyTorch: {e}"
            if strict:
                raise UnsupportedError(why) from None
            log(f"warning: {why}")
            skipped.append(why)
            continue
        layer.dst = cur.name
        # the module's name; a module called twice gets one layer per call
        taken = {b.layer.name for b in blocks}
        layer.name = str(node.target) if str(node.target) not in taken else f"{node.target}@{node.name}"
        blocks.append(Block(node, cur, chain, node.args[0], residual, layer))
        absorbed.update(chain)
    ops = find_ops(gm, blocks, absorbed, lambda n: netop_of(torch, n, modules, dtype), lambda n, op: op_inputs(n))
    net = network_of(gm, blocks, absorbed, dtype, ops)
    return Imported(gm, net, blocks, skipped, ops)


def find_ops(gm, blocks: list[Block], absorbed: set, op_of: Callable, inputs_of: Callable) -> list[OpBlock]:
    """The nodes between the blocks that kgen runs too (`op_of(node)`: its `NetOp` or None;
    `inputs_of(node, op)`: the fx nodes it reads, in the op's order): those reading a tensor a kgen
    block or op writes, so that the activation stays on the device (an op among PyTorch's own nodes
    stays in PyTorch: moving its tensors would cost more than it saves)."""
    on_kgen = {b.out for b in blocks}
    ops = []
    for n in gm.graph.nodes:
        if n in absorbed or n in on_kgen:
            continue
        op = op_of(n)
        args = inputs_of(n, op) if op is not None else []
        if op is None or not any(a in on_kgen for a in args):
            continue
        ops.append(OpBlock(n, args, OpNode(n.name, op, tuple(a.name for a in args), n.name)))
        on_kgen.add(n)
    return ops


def network_of(gm, blocks: list[Block], absorbed: set, dtype: str = "f32", ops: list[OpBlock] = (),
               dt_of: Callable | None = None) -> Network:
    """The planner's view of the traced graph: the blocks as layers, the ops as ops, every other node a
    boundary; the activations in the blocks' data type (converted at the boundaries), or each node's
    `dt_of(node)` (a quantized model's u8 tensors)."""
    tensors, nodes, inputs, outputs = {}, [], [], []
    by_out = {b.out: b for b in blocks}
    by_op = {o.node: o for o in ops}
    for n in gm.graph.nodes:
        shape = _shape(n)
        if n in by_out:             # a block's result in its layer's dims (a Linear's 1x1 conv: N x OC x 1 ..)
            shape = tuple(by_out[n].layer.problem.desc.dst_dims)
        if shape is not None:
            tensors[n.name] = (shape, dt_of(n) if dt_of is not None else dtype)
        if n.op == "placeholder":
            if shape is not None:
                inputs.append(n.name)
        elif n.op == "output":
            outputs = [a.name for a in _flat_nodes(n.args) if a.name in tensors]
        elif n in by_out:
            nodes.append(by_out[n].layer)
        elif n in by_op:
            nodes.append(by_op[n].layer)
        elif is_shape_query(n):
            continue                # sizes only: the tensor need not go back to PyTorch for them
        elif n not in absorbed and n.op in ("call_module", "call_function", "call_method", "get_attr"):
            ins = tuple(dict.fromkeys(a.name for a in _flat_nodes((n.args, n.kwargs)) if a.name in tensors))
            if ins or shape is not None:
                nodes.append(Boundary(n.name, ins, (n.name,) if shape is not None else ()))
    return Network(nodes, tensors, inputs, outputs, type(gm).__name__).check()


def _flat_nodes(args) -> list:
    import torch.fx as fx
    out = []
    fx.node.map_arg(args, lambda a: out.append(a))
    return out


# ------------------------------------------------------------------------------------------ running
#: seconds per phase of the kgen calls ("kgen kernels", "reorders", "transfers") while `net.breakdown`
#: measures a module; None otherwise (then `_timed` is one check)
phase_seconds: dict[str, float] | None = None


def _timed(phase: str, fn, *args):
    if phase_seconds is None:
        return fn(*args)
    t = time.perf_counter()
    try:
        return fn(*args)
    finally:
        phase_seconds[phase] = phase_seconds.get(phase, 0.0) + time.perf_counter() - t


class OnDevice:
    """A kgen activation kept on the device between layers: the buffer, its layout, logical dims and
    data type, and for a quantized (u8) one its (scale, zero point)."""
    __slots__ = ("tensor", "layout", "dims", "reorders", "dt", "q")

    def __init__(self, tensor, layout: str, dims, reorders, dt: str = "f32", q=None):
        self.tensor, self.layout, self.dims, self.reorders, self.dt = tensor, layout, tuple(dims), reorders, dt
        self.q = q


def to_torch(v):
    """A kgen activation as a PyTorch tensor: NCHW, or channels-last as a view; blocked: reordered
    to NCHW on the device first. Anything else passes through."""
    if not isinstance(v, OnDevice):
        return v
    import torch
    dims, nd = v.dims, len(v.dims)
    if v.layout == "nhwc" and nd in (4, 5):
        perm_dims = (dims[0],) + tuple(dims[2:]) + (dims[1],)
        return _timed("transfers", lambda: _from_numpy(torch, v.tensor.to_numpy(), v.q, perm_dims,
                                                       (0, nd - 1, *range(1, nd - 1))))
    t = v.tensor if v.layout == USER else _timed("reorders", v.reorders, v.tensor, dims, v.dt, v.layout, USER)
    return _timed("transfers", lambda: _from_numpy(torch, t.to_numpy(), v.q, dims))


def _from_numpy(torch, a: np.ndarray, q, dims, perm=None):
    """A torch tensor of a kgen buffer: float32 (bf16 widened exactly), or with `q` = (scale, zero
    point) a quint8 one; viewed as `dims`, then permuted by `perm`."""
    if q is not None:
        t = torch.from_numpy(a.view(np.uint8)).view(dims)      # IREE gives u8 back as i8: the same bytes
        t = t.permute(*perm) if perm is not None else t
        return torch._make_per_tensor_quantized_tensor(t, q[0], q[1])
    t = torch.from_numpy(a if a.dtype == np.float32 else a.astype(np.float32)).view(dims)
    return t.permute(*perm) if perm is not None else t


@functools.lru_cache(maxsize=None)
def _kgen_modules(torch):
    """The module classes of a kgen conv block and a kgen op (one class per kind, made once)."""

    class KgenNode(torch.nn.Module):
        """A node on kgen: its inputs (`runner.arg_dims`) -> an `OnDevice` activation in the planned layout."""

        def __init__(self, runner, reorders, backend, driver: str):
            super().__init__()
            self.runner, self.reorders, self.backend, self.driver = runner, reorders, backend, driver
            self.layout = runner.layout
            self.kgen_layers = (runner.layer.name,)     # what `net.breakdown` reports it under

        def forward(self, *args):
            r = self.runner
            devs = [to_device(a, dims, self.layout, self.reorders, self.backend, self.driver, r.layer.name, dt, q)
                    for a, dims, dt, q in zip(args, r.arg_dims, r.arg_dts, r.arg_q)]
            out = _timed("kgen kernels", r, *devs)
            return OnDevice(out, self.layout, r.out_dims, self.reorders, r.out_dt, r.out_q)

    class KgenConvBlock(KgenNode):
        """A conv block on kgen: (source[, residual])."""

        def extra_repr(self) -> str:
            p = self.runner.problem
            return f"{self.runner.layer.name}: {p.alg} in {self.layout} ({p.desc})"

    class KgenOp(KgenNode):
        """An op on kgen (`OpNode`)."""

        def extra_repr(self) -> str:
            return f"{self.runner.layer.name}: {self.runner.layer.op} in {self.layout}"

    return KgenConvBlock, KgenOp


def kgen_module(runner, reorders, backend, driver):
    """The module that runs `runner` (a `LayerRunner` or an `OpRunner`) in a traced graph."""
    import torch
    conv, op = _kgen_modules(torch)
    return (op if isinstance(runner, OpRunner) else conv)(runner, reorders, backend, driver)


def to_device(v, dims, layout: str, reorders, backend, driver: str, who: str, dt: str = "f32", q=None):
    """An activation as a DeviceTensor in `layout`: a kgen one reordered on the device if it is in
    another layout; a PyTorch one uploaded from a view (NCHW, or channels_last for nhwc) and reordered
    on the device for a blocked layout (a quint8 one, `q` = (scale, zero point), as its u8 values).
    Another shape or type than the example's is an `InputError`."""
    import torch

    if isinstance(v, OnDevice):
        if v.dims != tuple(dims):
            raise InputError(f"{who}: input is {v.dims}, the plan has {tuple(dims)}")
        return _timed("reorders", reorders, v.tensor, dims, dt, v.layout, layout)
    want = torch.quint8 if q is not None else torch.float32
    if not isinstance(v, torch.Tensor) or tuple(v.shape) != tuple(dims) or v.dtype != want:
        got = f"{tuple(v.shape)} {v.dtype}" if isinstance(v, torch.Tensor) else type(v).__name__
        raise InputError(f"{who}: input {got} does not match the example's {tuple(dims)} {want} "
                         f"(the optimized module is specialized to its example)")
    if q is not None:
        if v.qscheme() != torch.per_tensor_affine or (abs(v.q_scale() - q[0]) > 1e-6 * q[0]) or v.q_zero_point() != q[1]:
            raise InputError(f"{who}: input quantized with scale {v.q_scale()} and zero point {v.q_zero_point()}, "
                             f"the kernel was built for {q[0]} and {q[1]}")
        v = v.int_repr()
    npdt = get_dtype(dt).np_dtype           # bf16: ml_dtypes' bfloat16, rounded to nearest even

    nd = v.dim()
    if layout == "nhwc" and nd in (4, 5):
        return _timed("transfers", lambda: upload(
            v.detach().permute(0, *range(2, nd), 1).contiguous().numpy().reshape(-1).astype(npdt, copy=False),
            backend, driver))
    buf = _timed("transfers", lambda: upload(v.detach().contiguous().numpy().reshape(-1).astype(npdt, copy=False),
                                             backend, driver))
    return _timed("reorders", reorders, buf, dims, dt, USER, layout)


def _make_segment(runners, tensors, inputs, outputs, reorders, backend, driver):
    import torch

    seg = SegmentRunner(runners, tensors, inputs, outputs, backend, driver)
    qs = {}                          # tensor -> (scale, zero point) of a quantized one
    for r in runners:
        qs.update(zip(r.layer.inputs, r.arg_q))
        qs[r.layer.dst] = r.out_q

    class KgenSegment(torch.nn.Module):
        """Consecutive conv blocks as one kgen module: one invocation for all of them."""

        def __init__(self):
            super().__init__()
            self.segment = seg
            self.kgen_layers = tuple(r.layer.name for r in runners)

        def extra_repr(self) -> str:
            return f"{len(runners)} layers: {runners[0].layer.name} .. {runners[-1].layer.name}"

        def forward(self, *args):
            devs = [to_device(a, tensors[t][0], lay, reorders, backend, driver, f"segment input {t}", tensors[t][1],
                              qs.get(t)) for a, (t, lay) in zip(args, inputs)]
            outs = _timed("kgen kernels", seg, *devs)     # the segment's own reorders run inside it
            return tuple(OnDevice(o, seg.layouts[t], tensors[t][0], reorders, tensors[t][1], qs.get(t))
                         for o, t in zip(outs, outputs))

    return KgenSegment()


def fuse_segments(gm, kgen_nodes: list, backend, driver, reorders, log) -> int:
    """Every run of two or more consecutive kgen blocks and ops in the graph (to_torch nodes, and their
    reshapes, may sit between them) replaced by one `KgenSegment` call; returns how many segments."""
    kset = set(kgen_nodes)
    runs, cur = [], []
    for n in gm.graph.nodes:
        if n in kset:
            cur.append(n)
        elif n.op == "call_function" and n.target is to_torch or \
                n.op == "call_method" and n.target == "reshape" and getattr(n.args[0], "target", None) is to_torch:
            continue                # a kgen result handed to PyTorch (a Linear's, reshaped to N x OC)
        else:
            if len(cur) > 1:
                runs.append(cur)
            cur = []
    if len(cur) > 1:
        runs.append(cur)
    mods = dict(gm.named_modules())
    produced: dict = {}             # a previous segment's output node -> (tensor, layout)

    def origin(a):
        """(the layer tensor an fx node carries, its layout when kgen produced it, else None)."""
        if a in produced:
            return produced[a]
        m = mods.get(a.target) if a.op == "call_module" else None
        if m is not None and hasattr(m, "runner"):
            return m.runner.layer.dst, m.layout
        return a.name, None

    for si, run in enumerate(runs):
        rset = set(run)
        runners = [mods[n.target].runner for n in run]
        tensors, inputs, ext = {}, [], []
        for n, r in zip(run, runners):
            tensors[r.layer.dst] = (tuple(r.out_dims), r.out_dt)
            for a, dims, dt in zip(n.args, r.arg_dims, r.arg_dts):
                t, lay = origin(a)
                tensors.setdefault(t, (tuple(dims), dt))
                if a not in rset and a not in ext:
                    ext.append(a)
                    # a kgen activation arrives in its producer's layout; a PyTorch one in its first reader's
                    inputs.append((t, lay or r.layout))
        outs = [n for n in run if any(u not in rset for u in n.users)]
        out_names = [origin(n)[0] for n in outs]
        seg_mod = _make_segment(runners, tensors, inputs, out_names, reorders, backend, driver)
        name = f"kgen_segment_{si}"
        gm.add_submodule(name, seg_mod)
        with gm.graph.inserting_before(run[0]):
            call = gm.graph.call_module(name, tuple(ext))
            items = [gm.graph.call_function(operator.getitem, (call, k)) for k in range(len(outs))]
        for n, item, t in zip(outs, items, out_names):
            produced[item] = (t, seg_mod.segment.layouts[t])
            for u in [u for u in n.users if u not in rset]:
                u.replace_input_with(n, item)
        for n in reversed(run):
            gm.graph.erase_node(n)
        log(f"segment {si}: {len(run)} layers in one module")
    return len(runs)


def set_torch_threads(gm, threads: int | None) -> None:
    """Each call of the optimized module `gm` runs PyTorch's ops on `threads` intra-op threads, set
    with `torch.set_num_threads` as the call starts and restored as it ends; None: on as many as
    PyTorch has (`gm.kgen_torch_threads` says which).

    Why: after each parallel op, PyTorch's OpenMP threads spin for a while before they sleep (OpenMP's
    default wait policy), and kgen's kernels that follow share the cores with them: on two cores the
    quantize at an int8 ResNet-50's input made it 1.4x slower (docs/performance.md, "PyTorch's threads
    in an optimized module"). `optimize` measures both and keeps the faster. A GraphModule's class is its own (torch.fx makes one per instance), so the wrapped
    `forward` is this module's only; `recompile` drops it."""
    cls = type(gm)
    inner = cls.__dict__.get("_kgen_forward") or cls.forward
    cls._kgen_forward = inner
    gm.kgen_torch_threads = threads
    if threads is None:
        cls.forward = inner
        return

    def forward(self, *args, **kwargs):
        import torch

        was = torch.get_num_threads()
        if was == threads:
            return inner(self, *args, **kwargs)
        torch.set_num_threads(threads)
        try:
            return inner(self, *args, **kwargs)
        finally:
            torch.set_num_threads(was)

    cls.forward = forward
