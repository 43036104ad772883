"""Models quantized by PyTorch 2 export quantization (PT2E: `torch.export`, then torchao's `prepare_pt2e`
/ `convert_pt2e` with `X86InductorQuantizer`) on kgen.

A PT2E model is an aten graph of float ops between quantize and dequantize nodes
(``quantized_decomposed``): a quantized convolution is

    dequantize(u8 source) -> aten.conv2d(., weights dequantized from s8, f32 bias)
        [-> aten.add(., dequantize(u8 residual))] [-> activation] -> quantize(u8)

`lower` rewrites the graph into the quantized-tensor form `torch_quant` imports: each u8 quantize /
dequantize pair as a quint8 tensor (``torch.quantize_per_tensor`` / ``.dequantize()``: the same
rounding), and a pooling or an add between dequantizes and a quantize as PyTorch's quantized op on
quint8 tensors. The convolutions are read off the aten pattern. The residual add is inside the
block, before its one quantization, as the PT2E model computes it: oneDNN's sum post-op at the
residual's scale and zero point,

    dst = saturate_u8(round((src_scale * wei_scale[oc] * sum((src - src_zp) * wei) + bias
                             [+ res_scale * (res - res_zp)]) [activation] / dst_scale) + dst_zp)

A convolution whose result PT2E leaves in float (nothing quantized reads it: the model's output, or a
float op) is u8:s8:f32, the same formula without the destination's scale, zero point and rounding. The
classifier is a Linear on the flattened pooled tensor, which PT2E quantizes again at its own
parameters: `lower` makes that a `requantize` of the pooled tensor (a u8 op on kgen, left out where the
parameters are the same), flattened after, and the Linear is the 1x1 u8:s8:f32 conv of it, as in
`torch_quant`. A conv with weights kgen does not take stays in PyTorch with its reason, as do the
quantized ops kgen does not run (one warning line per kind; `strict=True` raises).
"""
from __future__ import annotations

import copy
import functools
from types import SimpleNamespace
from typing import Callable

import numpy as np

from ..errors import InputError, KgenError, UnsupportedError
from ..problem.attr import Eltwise, Sum
from .torch_bridge import Block, Imported, conv_desc, propagate_shapes
from .torch_quant import finish_import, flattened_u8, linear_desc, requantize, u8_conv_layer, u8_qparams

_Q = "quantized_decomposed.quantize_per_tensor.default"
_DQ = "quantized_decomposed.dequantize_per_tensor.default"
_DQ_CHANNEL = "quantized_decomposed.dequantize_per_channel.default"
_CONVS = {"aten.conv1d.default": 1, "aten.conv2d.default": 2, "aten.conv3d.default": 3}
_LINEAR = "aten.linear.default"
#: activations after a PT2E conv (X86InductorQuantizer's conv-unary patterns) as oneDNN eltwise ops
#: (and their in-place forms: on a conv's or add's own result, which nothing else reads, the same)
_ACTIVATIONS = {"relu": lambda n: Eltwise("relu"),
                "hardtanh": lambda n: Eltwise("clip", float(_arg(n, 1, -1.0)), float(_arg(n, 2, 1.0))),
                "clamp": lambda n: Eltwise("clip", float(_arg(n, 1)), float(_arg(n, 2)))
                if _arg(n, 1) is not None and _arg(n, 2) is not None else None,
                "hardswish": lambda n: Eltwise("hardswish", 1 / 6, 0.5),
                "silu": lambda n: Eltwise("swish", 1.0)}
_ACTIVATIONS = {f"aten.{k}{inplace}.default": f for k, f in _ACTIVATIONS.items() for inplace in ("", "_")}
_ADDS = ("aten.add.Tensor", "aten.add_.Tensor")
#: aten ops that only view or pass a tensor: no warning when PyTorch keeps them
_VIEWS = ("flatten", "view", "reshape", "squeeze", "unsqueeze", "dropout", "clone", "contiguous", "permute")


def _name(node) -> str:
    return str(node.target) if getattr(node, "op", None) == "call_function" else ""


def _arg(node, i: int, default=None):
    return node.args[i] if len(node.args) > i else default


def module_name(node) -> str:
    """The name of the module an exported node came from (``layer1.0.conv1``), else the node's name."""
    stack = node.meta.get("nn_module_stack")
    if stack:
        fqn = list(stack.values())[-1][0]
        if isinstance(fqn, str) and fqn:
            return fqn
    return node.name


def is_pt2e(model) -> bool:
    """Whether `model` is a graph with PT2E's quantize / dequantize nodes (`convert_pt2e`)."""
    graph = getattr(model, "graph", None)
    return graph is not None and hasattr(graph, "nodes") and \
        any(_name(n).startswith("quantized_decomposed.") for n in graph.nodes)


def _u8(node) -> tuple[float, int] | None:
    """(scale, zero point) of a PT2E quantize or dequantize of u8 over 0..255 with constant parameters."""
    import torch

    a = node.args
    if len(a) != 6 or a[5] is not torch.uint8 or (a[3], a[4]) != (0, 255) or \
            not isinstance(a[1], (float, int)) or not isinstance(a[2], int):
        return None
    return float(a[1]), int(a[2])


def _only_user(n):
    return next(iter(n.users)) if len(n.users) == 1 else None


def _is_dequantize(n) -> bool:
    return getattr(n, "op", None) == "call_method" and n.target == "dequantize"


def _same_q(dq, q) -> bool:
    """Whether `dq` dequantizes a quint8 tensor with the parameters `q` (a quantize node) gives."""
    return _is_dequantize(dq) and \
        dq.args[0].op == "call_function" and q.args[1:3] == dq.args[0].args[1:3]


def lower(gm) -> None:
    """`gm` (a PT2E graph) rewritten in place into the quantized-tensor form (module doc)."""
    import torch
    import torch.nn.functional as F

    graph = gm.graph
    quantized = set()
    for n in list(graph.nodes):
        if _name(n) == _Q and _u8(n) is not None:
            s, z = _u8(n)
            with graph.inserting_before(n):
                new = graph.call_function(torch.quantize_per_tensor, (n.args[0], s, z, torch.quint8))
            n.replace_all_uses_with(new)
            graph.erase_node(n)
            quantized.add(new)
        elif _name(n) == _DQ and _u8(n) is not None and n.args[0] in quantized and \
                tuple(n.args[0].args[1:3]) == _u8(n):
            with graph.inserting_before(n):
                new = graph.call_method("dequantize", (n.args[0],))
            n.replace_all_uses_with(new)
            graph.erase_node(n)
    pools = {"aten.max_pool2d.default": F.max_pool2d, "aten.avg_pool2d.default": F.avg_pool2d,
             "aten.adaptive_avg_pool2d.default": F.adaptive_avg_pool2d}
    for q in [n for n in graph.nodes if n in quantized]:
        x = q.args[0]
        if not isinstance(x, torch.fx.Node) or len(x.users) != 1:
            continue
        new = None
        if _name(x) in pools and isinstance(x.args[0], torch.fx.Node) and _same_q(x.args[0], q):
            # aten's and torch.nn.functional's arguments come in the same order
            args = [x.args[0].args[0], *x.args[1:]]
            if len(args) > 2 and _name(x) != "aten.adaptive_avg_pool2d.default" and args[2] == []:
                args[2] = None                  # aten's empty stride: the kernel size
            with graph.inserting_before(q):
                new = graph.call_function(pools[_name(x)], tuple(args))
            dead = [x, x.args[0]]
        else:
            relu = _name(x) in ("aten.relu.default", "aten.relu_.default")
            add = x.args[0] if relu else x
            if relu and len(add.users) != 1:
                continue
            if _name(add) in _ADDS and len(add.args) == 2 and not add.kwargs and \
                    all(isinstance(a, torch.fx.Node) and a.op == "call_method" and a.target == "dequantize"
                        for a in add.args):
                op = torch.ops.quantized.add_relu if relu else torch.ops.quantized.add
                with graph.inserting_before(q):
                    new = graph.call_function(op, (add.args[0].args[0], add.args[1].args[0], q.args[1], q.args[2]))
                dead = [x] + ([add] if relu else []) + list(add.args)
        if new is None:
            continue
        q.replace_all_uses_with(new)
        graph.erase_node(q)
        for d in dict.fromkeys(dead):
            if not d.users:
                graph.erase_node(d)
    # the classifier: PT2E quantizes the flattened pooled tensor again, at its own parameters (flatten
    # and an eval dropout take them from their input in FX, not here). The same values as a requantize
    # of the pooled tensor, flattened after: the Linear then reads a flattened quint8 tensor, as in FX.
    for n in list(graph.nodes):
        if _name(n) in ("aten.dropout.default", "aten.dropout_.default") and _arg(n, 2) is False:
            n.replace_all_uses_with(n.args[0])
            graph.erase_node(n)
    for q in [n for n in graph.nodes if n in quantized]:
        flat = q.args[0]
        if _name(flat) != "aten.flatten.using_ints" or tuple(flat.args[1:]) not in ((1,), (1, -1)) or \
                len(flat.users) != 1 or not _is_dequantize(flat.args[0]):
            continue
        deq = flat.args[0]
        with graph.inserting_before(q):
            again = graph.call_function(requantize, (deq.args[0], q.args[1], q.args[2]))
            new = graph.call_function(torch.flatten, (again, 1))
        q.replace_all_uses_with(new)
        for d in (q, flat, deq):
            if not d.users:
                graph.erase_node(d)
    graph.lint()
    gm.recompile()


def _attr(gm, node):
    """The tensor a get_attr node reads."""
    if getattr(node, "op", None) != "get_attr":
        raise UnsupportedError("its weights are not constants of the model")
    return functools.reduce(getattr, node.target.split("."), gm)


def _weights(gm, wdq) -> tuple[np.ndarray, object, str]:
    """(s8 weights, their scale(s), the scale policy) of a PT2E conv's weight dequantize."""
    import torch

    kind = _name(wdq)
    if kind == _DQ_CHANNEL:
        w, scales, zps = (_attr(gm, a) for a in wdq.args[:3])
        axis, dt = wdq.args[3], wdq.args[6] if len(wdq.args) > 6 else None
        if dt is not torch.int8 or w.dtype != torch.int8:
            raise UnsupportedError(f"weights of type {dt} (kgen takes s8)")
        if axis != 0 or bool(torch.any(zps != 0)):
            raise UnsupportedError("per-channel weight zero points other than 0, or another axis than the "
                                   "output channels")
        return w.numpy(), scales.float().numpy(), "per_oc"
    if kind == _DQ:
        w = _attr(gm, wdq.args[0])
        if wdq.args[5] is not torch.int8 or w.dtype != torch.int8:
            raise UnsupportedError(f"weights of type {wdq.args[5]} (kgen takes s8)")
        if wdq.args[2] != 0:
            raise UnsupportedError("a weight zero point other than 0")
        return w.numpy(), np.float32(wdq.args[1]), "common"
    raise UnsupportedError("its weights are not quantized")


def _geometry(node, nsp: int):
    """The conv's attributes as `conv_desc` reads them off a module."""
    def tup(v, d):
        v = d if v is None else v
        return tuple(v) * (nsp if len(v) == 1 else 1) if isinstance(v, (list, tuple)) else (v,) * nsp

    w = node.args[1].meta["tensor_meta"].shape
    pad = _arg(node, 4, 0)
    if isinstance(pad, str):
        raise UnsupportedError(f"padding='{pad}' (kgen takes explicit padding)")
    groups = _arg(node, 6, 1)
    return SimpleNamespace(kernel_size=tuple(w[2:]), stride=tup(_arg(node, 3, 1), 1), padding=tup(pad, 0),
                           dilation=tup(_arg(node, 5, 1), 1), groups=groups, in_channels=w[1] * groups,
                           out_channels=w[0])


def _block(gm, conv) -> tuple[Block | None, str | None]:
    """(the block of a PT2E conv, or of a Linear on a flattened N x C x 1 .. tensor as its 1x1 conv,
    None), (None, why kgen leaves it to PyTorch), or (None, None) for a float conv or Linear (not
    quantized: PyTorch's). A result nothing quantized reads stays in float: u8:s8:f32."""
    import torch

    x, wdq = conv.args[0], conv.args[1]
    if _name(wdq) not in (_DQ_CHANNEL, _DQ):
        return None, None
    if not (_is_dequantize(x) and u8_qparams(x.args[0]) is not None):
        return None, "its source is not a u8 tensor with one scale"
    src, chain = x.args[0], [n for n in (x, wdq) if len(n.users) == 1] + [conv]
    if _name(conv) == _LINEAR:
        flat = x.args[0]
        src = flattened_u8(torch, flat) if len(x.users) == 1 else None
        if src is None:
            return None, "a Linear kgen runs reads a u8 N x C x 1 .. tensor flattened (a pooled one)"
        chain = [flat] + chain
        if src.op == "call_function" and src.target is requantize and len(src.users) == 1 and \
                u8_qparams(src.args[0]) == u8_qparams(src):      # quantized again alike: the same bytes
            chain = [src] + chain
            src = src.args[0]
    post_ops, residual, cur = [], None, conv

    u = _only_user(cur)
    if u is not None and _name(u) in _ADDS and len(u.args) == 2 and not u.kwargs:
        other = u.args[1] if u.args[0] is cur else u.args[0]
        if _is_dequantize(other) and u8_qparams(other.args[0]) is not None and \
                other.meta["tensor_meta"].shape == conv.meta["tensor_meta"].shape:
            s, z = u8_qparams(other.args[0])
            post_ops.append(Sum(s, z))
            residual, cur = other.args[0], u
            chain += [other, u] if len(other.users) == 1 else [u]
    u = _only_user(cur)
    act = _ACTIVATIONS[_name(u)](u) if _name(u) in _ACTIVATIONS else None
    out = _only_user(u if act is not None else cur)
    quantized = out is not None and out.op == "call_function" and out.target is torch.quantize_per_tensor and \
        u8_qparams(out) is not None
    if residual is not None and not quantized:
        # the add's result stays in float: PyTorch adds the residual (and applies the activation after
        # it) to the conv's float result
        post_ops, residual, cur, act = [], None, conv, None
        chain = chain[:chain.index(conv) + 1]
    if act is not None:
        post_ops.append(act)
        cur = u
        chain.append(u)
    if quantized:
        chain.append(out)
        cur = out
    wei, wei_scale, policy = _weights(gm, wdq)
    bias = conv.args[2] if len(conv.args) > 2 else None
    bias = _attr(gm, bias).detach().float().numpy() if bias is not None else None
    src_shape = tuple(src.meta["tensor_meta"].shape)
    if _name(conv) == _LINEAR:
        desc = linear_desc(src_shape, wei.shape[1], wei.shape[0])
        wei = wei.reshape(wei.shape + (1,) * (len(src_shape) - 2))
    else:
        desc = conv_desc(_geometry(conv, _CONVS[_name(conv)]), src_shape, tuple(conv.meta["tensor_meta"].shape))
    layer = u8_conv_layer(module_name(conv), desc, src.name, cur.name, u8_qparams(src),
                          u8_qparams(cur) if quantized else None, wei, wei_scale, policy, bias, post_ops,
                          residual.name if residual is not None else None)
    return Block(conv, cur, chain, src, residual, layer), None


def _fold_weights(gm, absorbed: set) -> None:
    """Each dequantize of constant weights that PyTorch keeps (a quantized linear's, a conv's kgen left
    to PyTorch) computed once: PT2E's graph dequantizes them on every call (a ResNet-50's classifier:
    2M values per call; docs/performance.md)."""
    import torch

    for n in list(gm.graph.nodes):
        if n in absorbed or _name(n) not in (_DQ_CHANNEL, _DQ):
            continue
        tensors = [a for a in n.args if isinstance(a, torch.fx.Node)]
        if not tensors or any(a.op != "get_attr" for a in tensors):
            continue
        with torch.no_grad():
            value = n.target(*[_attr(gm, a) if isinstance(a, torch.fx.Node) else a for a in n.args])
        name = f"_kgen_folded_{n.name}"
        gm.register_buffer(name, value)
        with gm.graph.inserting_before(n):
            folded = gm.graph.get_attr(name)
        folded.meta = dict(n.meta)
        n.replace_all_uses_with(folded)
        gm.graph.erase_node(n)
    gm.recompile()


def _unhandled_kind(node) -> str | None:
    """The kind of a quantized aten op kgen leaves to PyTorch (it reads a dequantized activation or
    weight and is no view), for its warning."""
    name = _name(node)
    if not name.startswith("aten.") or any(v in name for v in _VIEWS):
        return None
    reads_q = any(getattr(a, "op", None) == "call_method" and a.target == "dequantize" or
                  _name(a) in (_DQ_CHANNEL, _DQ) for a in node.args)
    return f"quantized {name.split('.')[1]}" if reads_q else None


def import_pt2e(model, example_input, *, strict: bool = False, log: Callable[[str], None] = print) -> Imported:
    """The quantized conv blocks and u8 ops of a PT2E-quantized `model` (module doc), on a copy."""
    import torch

    if not isinstance(example_input, torch.Tensor) or example_input.dtype != torch.float32:
        raise InputError("the example input must be one float32 torch.Tensor (the quantized model quantizes it)")
    gm = copy.deepcopy(model)
    lower(gm)
    propagate_shapes(gm, model, example_input)
    blocks, skipped, absorbed, refused = [], [], set(), set()
    for node in list(gm.graph.nodes):
        if _name(node) not in _CONVS and _name(node) != _LINEAR:
            continue
        try:
            blk, why = _block(gm, node)
        except KgenError as e:
            blk, why = None, str(e)
        if why is not None:
            why = f"{module_name(node)} stays in PyTorch: {why}"
            if strict:
                raise UnsupportedError(why)
            log(f"warning: {why}")
            skipped.append(why)
            refused.add(node)
        if blk is None:
            continue
        if any(b.layer.name == blk.layer.name for b in blocks):    # a module called twice: a layer per call
            blk.layer.name = f"{blk.layer.name}@{node.name}"
        blocks.append(blk)
        absorbed.update(blk.nodes)
    _fold_weights(gm, absorbed)
    return finish_import(model, gm, blocks, absorbed, refused, skipped, _unhandled_kind, strict, log)


__all__ = ["import_pt2e", "is_pt2e", "lower"]
