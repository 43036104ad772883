"""Quantized PyTorch models on kgen: the import of a model that torch.ao's FX graph mode quantized
(`convert_fx` with the x86 backend, `get_default_qconfig_mapping("x86")`), and the static
post-training quantization `optimize(..., dtype="int8", calibration=...)` runs itself (`calibrate`).

The reference representation (`convert_to_reference_fx`: each quantized op as dequantize, float op,
quantize) is lowered first by torch.ao's own lowering. The quantization scheme is PyTorch's x86 default: activations quint8 with one scale and zero point per
tensor (histogram observers), weights qint8 symmetric per output channel (zero point 0), bias f32.
A quantized conv block (``Conv1d/2d/3d`` and the fused ``ConvReLU1d/2d/3d`` of
``torch.ao.nn.(intrinsic.)quantized``, then optionally a ReLU, ReLU6 or Hardtanh on its quint8 result,
which keeps its scale: a post-op, exact since rounding is monotone) becomes a u8:s8:u8 `ConvLayer`
with oneDNN's attributes (`docs/quantization.md`):

    dst = saturate_u8(round((src_scale * wei_scale[oc] * sum((src - src_zp) * wei) + bias) / dst_scale) + dst_zp)

which is PyTorch's quantized convolution (its padding is the source's zero point: the value 0).
PyTorch's quantized ``add`` / ``add_relu`` (a residual join with its own scale and zero point) and
``mul`` (a squeeze-and-excitation's scaling), ``torch.cat`` along the channels of tensors at one
scale (the bytes concatenated), max / average pooling and the activations on quint8
tensors (``Hardswish``, ``Hardsigmoid``, ``Sigmoid``, ``Tanh``, ``ELU``, ``LeakyReLU``; and those
torch.ao has no quantized kernel for, ``SiLU`` and ``GELU``, which it leaves as dequantize ->
float module -> quantize: `quantized_function`) become u8 ops (`problem.netop`), as does a `requantize`
(a PT2E graph's quantize of a dequantized tensor, `torch_pt2e.lower`), so the activations stay u8 on
the device between kgen's nodes. A classifier's quantized ``Linear`` / ``LinearReLU`` on
``torch.flatten(x, 1)`` of an (N, C, 1, ..) tensor (after the global average pool) is the 1x1
convolution of x (its result (N, OC, 1, ..) reshaped to (N, OC) for PyTorch). The quantize at the
input and the dequantize at the output stay in PyTorch; so does any other quantized op (one warning
line per kind; `strict=True` raises).
"""
from __future__ import annotations

import copy
import types
from typing import Callable

import numpy as np

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..errors import InputError, KgenError, UnsupportedError, first_line
from ..problem.attr import Eltwise, Sum
from ..problem.netop import NetOp
from .graph import ConvLayer
from .torch_bridge import Block, Imported, conv_desc, find_ops, network_of, post_op_text, propagate_shapes
from .torch_ops import eltwise_of, op_inputs, pool_of
from .torch_rewrite import drop_identities

#: the data type of a quantized activation between kgen's nodes
QDT = "u8"


def _qconv_types(torch):
    nnq, nniq = torch.ao.nn.quantized, torch.ao.nn.intrinsic.quantized
    return (nnq.Conv1d, nnq.Conv2d, nnq.Conv3d), (nniq.ConvReLU1d, nniq.ConvReLU2d, nniq.ConvReLU3d)


def _qlinear_types(torch):
    return torch.ao.nn.quantized.Linear, torch.ao.nn.intrinsic.quantized.LinearReLU


def _is_quantized_module(m) -> bool:
    mod = type(m).__module__
    return mod.startswith(("torch.ao.nn.quantized", "torch.ao.nn.intrinsic.quantized", "torch.nn.quantized"))


def is_quantized(model) -> bool:
    """Whether `model` holds torch.ao's quantized modules or quantize nodes (a quantized model)."""
    import torch

    if not isinstance(model, torch.nn.Module):
        return False                     # the import says what it takes
    if any(_is_quantized_module(m) for m in model.modules()):
        return True
    graph = getattr(model, "graph", None)
    return graph is not None and any(n.op == "call_function" and n.target is torch.quantize_per_tensor
                                     for n in graph.nodes)


def check_not_prepared(model) -> None:
    """A model with observers (torch.ao's `prepare_fx`, torchao's `prepare_pt2e`) is not quantized yet:
    one InputError that says what to do."""
    def observes(m) -> bool:            # torch.ao's classes or torchao's own copies of them
        return any(c.__name__ in ("ObserverBase", "FakeQuantizeBase") for c in type(m).__mro__)

    obs = [n for n, m in getattr(model, "named_modules", lambda: ())() if observes(m)]
    if obs:
        raise InputError(f"{type(model).__name__} has observers ({obs[0]}{' ...' if len(obs) > 1 else ''}) but "
                         f"is not quantized: run calibration data through it and convert_fx (or convert_pt2e), "
                         f"or pass the float model with dtype='int8', calibration=batches")


def calibrate(model, example_input, calibration, log: Callable[[str], None]):
    """The float `model` quantized by torch.ao's FX graph mode with the x86 backend's default config
    (module doc), its observers fed `calibration`: an iterable of input tensors shaped like the example
    (any batch size)."""
    import torch
    import warnings
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    if isinstance(calibration, torch.Tensor):
        calibration = [calibration]
    try:
        batches = list(calibration)
    except TypeError:
        raise InputError(f"calibration= takes an iterable of input tensors, got {type(calibration).__name__}") from None
    if not batches:
        raise InputError("calibration= holds no batch: static quantization needs data to choose its scales")
    for i, b in enumerate(batches):
        if not isinstance(b, torch.Tensor) or b.dtype != torch.float32 or b.dim() != example_input.dim() or \
                tuple(b.shape[1:]) != tuple(example_input.shape[1:]):
            got = f"{tuple(b.shape)} {b.dtype}" if isinstance(b, torch.Tensor) else type(b).__name__
            raise InputError(f"calibration batch {i} is {got}: each must be float32 shaped like the example "
                             f"input {tuple(example_input.shape)} (any batch size)")
    log(f"calibrating on {len(batches)} batch(es): torch.ao FX, x86 default qconfig (u8 activations per tensor, "
        f"s8 weights per channel)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # torch.ao's FX mode warns of its deprecation
        try:
            prepared = prepare_fx(copy.deepcopy(model).eval(), get_default_qconfig_mapping("x86"), (example_input,))
        except Exception as e:          # noqa: BLE001 -- torch.fx and torch.ao raise many kinds
            raise UnsupportedError(f"torch.ao cannot quantize {type(model).__name__}: {first_line(e)}") from None
        with torch.no_grad():
            for b in batches:
                prepared(b)
        return convert_fx(prepared)


class QuantizedBuild:
    """A picklable recipe for a quantized model, for a process of its own (`bench.torch_alone`, which
    times PyTorch alone): a quantized GraphModule does not unpickle, so the child builds the float
    model (`factory` and its `state`, or `factory` the float model itself) and quantizes it on the same
    `batches` with `calibrate`, whose observers are deterministic: the same scales."""

    def __init__(self, factory, state, example_input, batches):
        self.factory, self.state, self.example, self.batches = factory, state, example_input, batches

    def __call__(self):
        if self.state is not None:
            model = self.factory().eval()
            model.load_state_dict(self.state)
        else:
            model = copy.deepcopy(self.factory).eval()
        return calibrate(model, self.example, self.batches, lambda m: None)


def _lower_reference(gm):
    """A model in torch.ao's reference representation (`convert_to_reference_fx`: dequantize -> float
    module with its weight's quantization -> quantize_per_tensor) lowered to the quantized modules and
    ops `convert_fx` gives, by torch.ao's own lowering (every node under the x86 default qconfig)."""
    import warnings

    from torch.ao.quantization import get_default_qconfig
    from torch.ao.quantization.fx._lower_to_native_backend import _lower_to_native_backend

    qconfig = get_default_qconfig("x86")
    names = [n.name for n in gm.graph.nodes]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _lower_to_native_backend(gm, dict.fromkeys(names, qconfig), {n: ("", type(None)) for n in names})
    except Exception as e:              # noqa: BLE001 -- a private torch.ao pass: whatever it raises
        raise UnsupportedError(f"torch.ao cannot lower the reference model: {first_line(e)}") from None


def u8_qparams(node) -> tuple[float, int] | None:
    """(scale, zero point) of a node's quint8 per-tensor tensor, or None."""
    import torch

    meta = node.meta.get("tensor_meta") if hasattr(node, "meta") else None
    if meta is None or not hasattr(meta, "dtype") or meta.dtype != torch.quint8:
        return None
    q = meta.qparams
    if q.get("qscheme") not in (torch.per_tensor_affine, torch.per_tensor_symmetric):
        return None
    return float(q["scale"]), int(q["zero_point"])


def _weights(torch, conv) -> tuple[np.ndarray, object, str]:
    """(s8 weights, their scale(s), the scale policy) of a quantized conv; weights with a zero point
    are a scheme kgen does not take."""
    w = conv.weight()
    if w.dtype != torch.qint8:
        raise UnsupportedError(f"weights of type {w.dtype} (kgen takes qint8)")
    if w.qscheme() in (torch.per_channel_affine, torch.per_channel_symmetric):
        if w.q_per_channel_axis() != 0 or bool(torch.any(w.q_per_channel_zero_points() != 0)):
            raise UnsupportedError("per-channel weight zero points other than 0, or another axis than the "
                                   "output channels")
        return w.int_repr().numpy(), w.q_per_channel_scales().numpy().astype(np.float32), "per_oc"
    if w.qscheme() in (torch.per_tensor_affine, torch.per_tensor_symmetric):
        if w.q_zero_point() != 0:
            raise UnsupportedError("a weight zero point other than 0")
        return w.int_repr().numpy(), np.float32(w.q_scale()), "common"
    raise UnsupportedError(f"weights quantized {w.qscheme()}")


def _qconv_layer(torch, conv, node, relu: bool, post_ops: list, out) -> ConvLayer:
    """The u8:s8:u8 layer of one quantized conv block (module doc)."""
    src_q, dst_q = u8_qparams(node.args[0]), _u8_result(out)
    if conv.padding_mode != "zeros":
        raise UnsupportedError(f"padding_mode='{conv.padding_mode}' (kgen pads with the zero point)")
    wei, wei_scale, policy = _weights(torch, conv)
    bias = conv.bias()
    desc = conv_desc(conv, tuple(node.args[0].meta["tensor_meta"].shape), tuple(node.meta["tensor_meta"].shape))
    return u8_conv_layer(node.name, desc, node.args[0].name, out.name, src_q, dst_q, wei, wei_scale, policy,
                         bias.detach().float().numpy() if bias is not None else None,
                         ([Eltwise("relu")] if relu else []) + post_ops)


def flattened_u8(torch, node):
    """The (N, C, 1, ..) quint8 tensor that `node` flattens to (N, C) (``torch.flatten(x, 1)``,
    ``x.flatten(1)``) for its one user, or None."""
    flat = (node.op == "call_function" and node.target is torch.flatten
            or node.op == "call_method" and node.target == "flatten")
    if not flat or len(node.users) != 1 or not node.args:
        return None
    start = node.args[1] if len(node.args) > 1 else node.kwargs.get("start_dim", 0)
    end = node.args[2] if len(node.args) > 2 else node.kwargs.get("end_dim", -1)
    src = node.args[0]
    meta = src.meta.get("tensor_meta") if hasattr(src, "meta") else None
    shape = tuple(meta.shape) if meta is not None and hasattr(meta, "shape") else None
    if start != 1 or end != -1 or shape is None or not 3 <= len(shape) <= 5 or any(v != 1 for v in shape[2:]):
        return None
    return src if u8_qparams(src) is not None else None


def _u8_result(out) -> tuple[float, int]:
    q = u8_qparams(out)
    if q is None:
        raise UnsupportedError("its result is not a quint8 tensor with one scale (kgen takes per-tensor u8 "
                               "activations)")
    return q


def linear_desc(x_shape: tuple[int, ...], ic: int, oc: int) -> str:
    """The benchdnn descriptor of a Linear (`ic` -> `oc`) on an N x IC x 1 .. tensor of shape `x_shape`
    flattened: the 1x1 convolution of that tensor."""
    nsp = len(x_shape) - 2
    one = (1,) * nsp
    conv = types.SimpleNamespace(padding=(0,) * nsp, groups=1, in_channels=ic, out_channels=oc,
                                 kernel_size=one, stride=one, dilation=one)
    return conv_desc(conv, x_shape, x_shape[:1] + (oc,) + one)


def _qlinear_layer(torch, lin, node, src, post_ops: list, out) -> ConvLayer:
    """The u8:s8:u8 1x1 convolution of a quantized Linear on `src` flattened (module doc)."""
    x_shape = tuple(src.meta["tensor_meta"].shape)
    desc = linear_desc(x_shape, lin.in_features, lin.out_features)
    wei, wei_scale, policy = _weights(torch, lin)
    bias = lin.bias()
    return u8_conv_layer(node.name, desc, src.name, out.name, u8_qparams(src), _u8_result(out),
                         wei.reshape(wei.shape + (1,) * (len(x_shape) - 2)), wei_scale, policy,
                         bias.detach().float().numpy() if bias is not None else None,
                         ([Eltwise("relu")] if isinstance(lin, _qlinear_types(torch)[1]) else []) + post_ops)


def u8_conv_layer(name: str, desc: str, src: str, dst: str, src_q, dst_q, wei: np.ndarray, wei_scale, policy: str,
                  bias: np.ndarray | None, post_ops: list, residual: str | None = None) -> ConvLayer:
    """The u8:s8:u8 layer of a quantized conv (module doc): `desc` its benchdnn descriptor, `src_q` and
    `dst_q` the (scale, zero point) of its source and result, `wei` its s8 weights with `wei_scale`
    (per output channel or common: `policy`), `post_ops` eltwise ops and a `Sum` of the `residual`.
    `dst_q=None` is a result PyTorch reads in float: u8:s8:f32, oneDNN's formula without the
    destination's scale, zero point and rounding."""
    if src_q is None:
        raise UnsupportedError("its source is not a quint8 tensor with one scale (kgen takes per-tensor u8 "
                               "activations)")
    if dst_q is None and residual is not None:
        raise UnsupportedError("a float result with a u8 residual (the sum post-op reads the residual in the "
                               "result's type)")
    scales = f"--attr-scales=src:common:{src_q[0]!r}+wei:{policy}" + \
        (f"+dst:common:{dst_q[0]!r}" if dst_q is not None else "")
    zps = [f"{a}:common:{q[1]}" for a, q in (("src", src_q), ("dst", dst_q)) if q is not None and q[1]]
    args = ["--stag=any", "--dtag=any", "--alg=auto", "--dir=FWD_B" if bias is not None else "--dir=FWD_D",
            f"--dt={QDT}:s8:{QDT if dst_q is not None else 'f32'}", scales] + \
        (["--attr-zero-points=" + "+".join(zps)] if zps else [])
    # clamps after the last sum commute with each other and with the quantization: each is narrowed
    head = max((i + 1 for i, op in enumerate(post_ops) if isinstance(op, Sum)), default=0)
    if dst_q is not None and all(op.kind == "clip" or op.kind == "relu" and not op.alpha for op in post_ops[head:]):
        post_ops = post_ops[:head] + [_narrowest(op, dst_q) for op in post_ops[head:]]
    ops = [str(op) if isinstance(op, Sum) else post_op_text(op) for op in post_ops if op is not None]
    if ops:
        args.append("--attr-post-ops=" + "+".join(ops))
    (case,) = parse_conv_args(args + [desc])
    p = conv_problem(case)
    values = {"src_scale": src_q[0], "wei_scale": wei_scale, "src_zp": src_q[1]}
    if dst_q is not None:
        values.update(dst_scale=dst_q[0], dst_zp=dst_q[1])
    quant = {k: np.asarray(values[k]) for k, _ in p.quant_args()}
    return ConvLayer(name, p, src, dst, residual, wei, bias, quant=quant)


def _narrowest(op: Eltwise, dst_q: tuple[float, int]) -> Eltwise | None:
    """A clip as the cheapest post-op that quantizes alike: its upper bound drops out where it quantizes
    at or above 255 (saturation clamps there anyway: clip(0, 6) is a ReLU, which brgemm applies in its
    stores), and a ReLU whose zero is the lowest byte drops out too. Exact: rounding is monotone, so a
    clamp and the quantization commute."""
    scale, zp = dst_q
    if op.kind == "clip" and op.beta / np.float32(scale) + zp >= 255.5:
        op = Eltwise("relu") if op.alpha == 0 else op
    if op.kind == "relu" and not op.alpha and zp == 0:
        return None
    return op


def _clamp_post_op(torch, node, modules):
    """A ReLU / ReLU6 / Hardtanh on a quint8 tensor (it keeps its input's scale): the post-op, or None."""
    e = eltwise_of(torch, node, modules)
    if e is None or not (e.kind == "relu" and not e.alpha or e.kind == "clip"):
        return None
    if u8_qparams(node) is None or u8_qparams(node) != u8_qparams(node.args[0]):
        return None
    return e


def requantize(x, scale: float, zero_point: int):
    """The quint8 tensor `x` at another scale and zero point: PyTorch's quantize of its dequantized
    values, where a PT2E graph quantizes a view of a tensor again (`torch_pt2e.lower`). kgen runs it as
    a u8 eltwise op (``linear`` 1, 0)."""
    import torch

    return torch.quantize_per_tensor(x.dequantize(), scale, zero_point, torch.quint8)


def quantized_function(x, fn, scale: float, zero_point: int):
    """The float activation module `fn` on the quint8 tensor `x`, quantized at `scale` and `zero_point`:
    what torch.ao leaves as dequantize -> activation -> quantize_per_tensor where it has no quantized
    kernel (SiLU, GELU: `_fold_float_functions`). kgen runs it as a u8 eltwise op."""
    import torch

    return torch.quantize_per_tensor(fn(x.dequantize()), scale, zero_point, torch.quint8)


def _fold_float_functions(torch, gm) -> int:
    """Each dequantize -> activation module -> quantize_per_tensor of a quint8 tensor (nothing else
    reading the two between) rewritten in place into one `quantized_function` call, named as the
    quantize was; returns how many."""
    modules = dict(gm.named_modules())
    graph, done = gm.graph, 0
    for q in list(graph.nodes):
        if not (q.op == "call_function" and q.target is torch.quantize_per_tensor and len(q.args) == 4):
            continue
        act = q.args[0]
        if not isinstance(act, torch.fx.Node) or act.op != "call_module" or len(act.users) != 1 or \
                len(act.args) != 1 or act.kwargs or eltwise_of(torch, act, modules) is None:
            continue
        dq = act.args[0]
        if not (isinstance(dq, torch.fx.Node) and dq.op == "call_method" and dq.target == "dequantize" and
                len(dq.users) == 1 and isinstance(dq.args[0], torch.fx.Node)):
            continue
        with graph.inserting_before(q):
            fn = graph.get_attr(act.target)
        q.target, q.args = quantized_function, (dq.args[0], fn, q.args[1], q.args[2])
        graph.erase_node(act)
        graph.erase_node(dq)
        done += 1
    if done:
        graph.lint()
        gm.recompile()
    return done


def _u8_function(torch, node, modules) -> Eltwise | None:
    """The function of an activation on a quint8 tensor, or None: torch.ao's quantized ``Hardswish``,
    ``ELU`` and ``LeakyReLU`` (with their own scale and zero point), a `requantize`, a
    `quantized_function`, or a float activation torch.ao applies to the quint8 tensor itself
    (``Sigmoid``, ``Hardsigmoid`` and ``Tanh`` at fixed parameters, a ReLU at its input's)."""
    if node.op == "call_function" and node.target is requantize:
        return Eltwise("linear", 1.0, 0.0)
    if node.op == "call_function" and node.target is quantized_function:
        return eltwise_of(torch, types.SimpleNamespace(op="call_module", target=node.args[1].target), modules)
    if node.op == "call_module":
        m, nnq = modules[node.target], torch.ao.nn.quantized
        if isinstance(m, nnq.Hardswish):
            return Eltwise("hardswish", 1 / 6, 0.5)
        if isinstance(m, nnq.ELU):
            return Eltwise("elu", float(m.alpha))
        if isinstance(m, nnq.LeakyReLU):
            return Eltwise("relu", float(m.negative_slope))
    return eltwise_of(torch, node, modules)


def _qop(torch, node, modules) -> NetOp | None:
    """The u8 op of a quantized add / add_relu / mul, a pooling or an activation on a quint8 tensor
    (`_u8_function`), or None."""
    import torch.fx as fx

    out_q = u8_qparams(node)
    if out_q is None:
        return None
    try:
        x = node.args[0] if node.args else None
        if isinstance(x, fx.Node) and u8_qparams(x) is not None and not node.kwargs and \
                (len(node.args) == 1 or node.target in (requantize, quantized_function)):
            e = _u8_function(torch, node, modules)
            if e is not None:
                return NetOp("eltwise", "", [tuple(x.meta["tensor_meta"].shape)], QDT, e, quant=[u8_qparams(x), out_q])
        binary = {torch.ops.quantized.add: ("add", None), torch.ops.quantized.add_relu: ("add", Eltwise("relu")),
                  torch.ops.quantized.mul: ("mul", None)}
        if node.op == "call_function" and node.target in binary:
            a, b = node.args[:2]
            if not all(isinstance(t, fx.Node) and u8_qparams(t) is not None for t in (a, b)):
                return None
            alg, after = binary[node.target]
            return NetOp("binary", alg, [tuple(a.meta["tensor_meta"].shape), tuple(b.meta["tensor_meta"].shape)],
                         QDT, after, quant=[u8_qparams(a), u8_qparams(b), out_q])
        if node.op == "call_function" and node.target is torch.cat:
            parts = op_inputs(node)
            dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
            if len(parts) < 2 or any(not isinstance(a, fx.Node) or u8_qparams(a) != out_q for a in parts) or \
                    dim % len(node.meta["tensor_meta"].shape) != 1:
                return None
            return NetOp("cat", "", [tuple(a.meta["tensor_meta"].shape) for a in parts], QDT,
                         quant=[out_q] * (len(parts) + 1))
        pool = pool_of(torch, node, modules)
        if pool is not None and u8_qparams(node.args[0]) is not None:
            alg, k, s, p = pool
            return NetOp("pool", alg, [tuple(node.args[0].meta["tensor_meta"].shape)], QDT, kernel=k, stride=s,
                         pad=p, quant=[u8_qparams(node.args[0]), out_q])
    except KgenError:
        return None
    return None


def _unhandled_kind(torch, node, modules) -> str | None:
    """The kind of a quantized node kgen leaves to PyTorch (a quantized op kgen does not run, a
    ``torch.cat`` of quint8 tensors it does not take, or a scheme kgen cannot express), for its warning;
    None for any other node."""
    if node.op == "call_module":
        m = modules[node.target]
        if _is_quantized_module(m):
            dyn = ".dynamic" in type(m).__module__
            return f"{'dynamically ' if dyn else ''}quantized {type(m).__name__}"
        return None
    if node.op == "call_function":
        if node.target in (torch.quantize_per_channel,):
            return "per-channel activation quantization (quantize_per_channel)"
        if node.target is getattr(torch, "quantize_per_tensor_dynamic", None):
            return "dynamic quantization (quantize_per_tensor_dynamic)"
        if node.target is torch.cat and u8_qparams(node) is not None:
            return "quantized cat"
        name = str(node.target)
        if name.startswith("quantized."):
            return f"quantized {name.split('.', 1)[1].split('.')[0]}"
    return None


def import_quantized(model, example_input, *, strict: bool = False,
                     log: Callable[[str], None] = print) -> Imported:
    """The quantized conv blocks and u8 ops of a torch.ao-quantized `model` (module doc). The model is
    copied: `optimize` rewrites the copy."""
    import torch
    import torch.fx as fx

    check_not_prepared(model)
    if not isinstance(example_input, torch.Tensor) or example_input.dtype != torch.float32:
        raise InputError("the example input must be one float32 torch.Tensor (the quantized model quantizes it)")
    if isinstance(model, fx.GraphModule):
        gm = copy.deepcopy(model)
    else:
        try:
            gm = fx.symbolic_trace(copy.deepcopy(model).eval())
        except Exception as e:          # noqa: BLE001 -- torch.fx raises many kinds
            raise UnsupportedError(f"torch.fx cannot trace {type(model).__name__}: {first_line(e)}") from None
    gm.eval()
    if any(type(m).__module__.startswith("torch.ao.nn.quantized.reference") for m in gm.modules()):
        gm = _lower_reference(gm)
    drop_identities(torch, gm)           # eval mode: a (quantized) Dropout returns its input
    _fold_float_functions(torch, gm)
    propagate_shapes(gm, model, example_input)
    modules = dict(gm.named_modules())
    plain, fused = _qconv_types(torch)
    linears = _qlinear_types(torch)
    blocks, skipped, absorbed, refused = [], [], set(), set()
    for node in gm.graph.nodes:
        m = modules.get(node.target) if node.op == "call_module" else None
        # a Linear on a flattened (N, C, 1, ..) tensor: its 1x1 conv (a dynamic Linear is a subclass)
        flat_src = flattened_u8(torch, node.args[0]) if type(m) in linears else None
        if not isinstance(m, plain + fused) and flat_src is None:
            continue
        cur, chain, post_ops = node, [node], []
        users = list(cur.users)
        if len(users) == 1:
            e = _clamp_post_op(torch, users[0], modules)
            if e is not None:
                post_ops.append(e)
                cur = users[0]
                chain.append(cur)
        try:
            layer = _qlinear_layer(torch, m, node, flat_src, post_ops, cur) if flat_src is not None else \
                _qconv_layer(torch, m, node, isinstance(m, fused), post_ops, cur)
        except KgenError as e:
            why = f"{node.target} stays in PyTorch: {e}"
            if strict:
                raise UnsupportedError(why) from None
            log(f"warning: {why}")
            skipped.append(why)
            refused.add(node)
            continue
        layer.name = str(node.target)
        if flat_src is not None:
            chain.insert(0, node.args[0])
        blocks.append(Block(node, cur, chain, flat_src if flat_src is not None else node.args[0], None, layer))
        absorbed.update(chain)
    return finish_import(model, gm, blocks, absorbed, refused, skipped, lambda n: _unhandled_kind(torch, n, modules),
                         strict, log)


def finish_import(model, gm, blocks: list, absorbed: set, refused: set, skipped: list, kind_of: Callable,
                  strict: bool, log: Callable[[str], None]) -> Imported:
    """A quantized import (torch.ao FX's, PT2E's) once its conv blocks are found: the quantized adds and
    poolings (`_qop`) that read a tensor a kgen node writes, as u8 ops; one warning line per kind of
    quantized op left to PyTorch (`kind_of(node)`: its kind, or None; strict mode raises; a `refused`
    conv has its own line); the network, its u8 tensors those with a quint8 scale."""
    import torch
    import torch.fx as fx

    modules = dict(gm.named_modules())
    ops = find_ops(gm, blocks, absorbed, lambda n: _qop(torch, n, modules),
                   lambda n, op: op_inputs(n) if op.kind == "cat" else
                   [a for a in n.args if isinstance(a, fx.Node)][:len(op.inputs)])
    on_kgen = absorbed | {o.node for o in ops} | refused
    kinds: dict[str, int] = {}
    for n in gm.graph.nodes:
        kind = kind_of(n) if n not in on_kgen else None
        if kind is not None:
            kinds[kind] = kinds.get(kind, 0) + 1
    for kind, count in kinds.items():
        why = (f"{kind} x{count} stays in PyTorch: kgen runs quantized convolutions, adds, multiplies, pooling, "
               f"activation functions and channel concatenations at one scale on per-tensor u8 tensors")
        if strict:
            raise UnsupportedError(why)
        log(f"warning: {why}")
        skipped.append(why)
    if not blocks:
        raise UnsupportedError(f"{type(model).__name__} has no quantized convolution kgen can run"
                               + (f" ({skipped[0]})" if skipped else ""))

    def dt_of(n) -> str:
        return QDT if u8_qparams(n) is not None else "f32"

    net = network_of(gm, blocks, absorbed, "f32", ops, dt_of=dt_of)
    return Imported(gm, net, blocks, skipped, ops, dt_of)


def output_scale(qmodel) -> float | None:
    """The scale of the quantized tensor a quantized model's output dequantizes (its unit), or None."""
    import torch

    graph = getattr(qmodel, "graph", None)
    out = next((n for n in graph.nodes if n.op == "output"), None) if graph is not None else None
    node = out.args[0] if out is not None else None
    if getattr(node, "op", None) != "call_method" or node.target != "dequantize":
        return None
    src = node.args[0]
    if src.op == "call_module":
        scale = getattr(qmodel.get_submodule(src.target), "scale", None)
        return float(scale) if scale is not None else None
    if src.op == "call_function" and src.target in (torch.quantize_per_tensor, torch.ops.quantized.add,
                                                     torch.ops.quantized.add_relu):
        s = src.args[1] if src.target is torch.quantize_per_tensor else src.args[2]
        return float(getattr(qmodel, s.target)) if getattr(s, "op", None) == "get_attr" else float(s)
    return None


__all__ = ["QuantizedBuild", "output_scale", "QDT", "calibrate", "check_not_prepared", "import_quantized", "is_quantized",
           "finish_import", "flattened_u8", "linear_desc", "quantized_function", "requantize", "u8_conv_layer",
           "u8_qparams"]
