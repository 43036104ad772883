"""PyTorch nodes as kgen operations: an activation as an eltwise post-op (`eltwise_of`), and the ops kgen
runs between convolutions (`netop_of`: `problem.netop.NetOp`), from a traced torch.fx graph whose
nodes carry ShapeProp's shapes.

`netop_of` recognises:

* ``add`` / ``mul`` of two tensors of one shape, or of a tensor and its per-channel (N, C, 1, ..)
  vector (``+``, ``*``, ``torch.add``, ``torch.mul``, ``.add``, ``.mul``; no scalar, no ``alpha``);
* the activations of `eltwise_of`, standalone;
* ``MaxPool1d/2d/3d`` (no dilation, no indices), ``AvgPool1d/2d/3d`` (the window's size as divisor:
  ``count_include_pad=True`` or no padding, no ``divisor_override``), and their functional forms;
  ``AdaptiveAvgPool1d/2d/3d`` to an output size that divides the input, and ``mean`` over every
  spatial dim with ``keepdim=True`` (the global average pool);
* ``torch.cat`` along channels;
* ``.expand`` / ``.expand_as`` of a per-channel tensor (N, C, 1, ..) to a spatial size;
* ``Upsample`` / ``F.interpolate`` in ``nearest`` mode by whole factors;
* ``+``, ``-``, ``*``, ``/`` of a tensor and a number: the eltwise ``linear`` (a * x + b);
* the `torch_rewrite.ChannelNorm` a channels-last LayerNorm became: ``norm``.
(an in-place node is one of these too: `torch_rewrite.functionalize_in_place` has made the readers
after it read its result). Anything else is None (it stays in PyTorch). A pooling whose output shape (ceil_mode) differs from the
floor formula's stays too.
"""
from __future__ import annotations

import functools
import operator

from ..errors import KgenError
from ..problem.attr import Eltwise
from ..problem.netop import NetOp, pool_out


@functools.lru_cache(maxsize=None)
def channel_norm_module(torch):
    class ChannelNorm(torch.nn.Module):
        """LayerNorm over dim 1 of an N x C x spatial tensor, without an affine."""

        def __init__(self, channels: int, eps: float):
            super().__init__()
            self.channels, self.eps = channels, eps

        def extra_repr(self) -> str:
            return f"{self.channels}, eps={self.eps}"

        def forward(self, x):
            return torch.nn.functional.layer_norm(x.movedim(1, -1), (self.channels,), eps=self.eps).movedim(-1, 1)

    return ChannelNorm


def eltwise_of(torch, node, modules) -> Eltwise | None:
    """The eltwise post-op of an activation node, or None."""
    nn, F = torch.nn, torch.nn.functional
    if node.op == "call_module":
        m = modules[node.target]
        table = {nn.ReLU: lambda m: Eltwise("relu"), nn.ReLU6: lambda m: Eltwise("clip", 0.0, 6.0),
                 nn.Hardtanh: lambda m: Eltwise("clip", float(m.min_val), float(m.max_val)),
                 nn.LeakyReLU: lambda m: Eltwise("relu", float(m.negative_slope)),
                 nn.SiLU: lambda m: Eltwise("swish", 1.0), nn.Hardswish: lambda m: Eltwise("hardswish", 1 / 6, 0.5),
                 nn.Hardsigmoid: lambda m: Eltwise("hardsigmoid", 1 / 6, 0.5), nn.Sigmoid: lambda m: Eltwise("logistic"),
                 nn.Tanh: lambda m: Eltwise("tanh"),
                 nn.GELU: lambda m: Eltwise("gelu_tanh" if m.approximate == "tanh" else "gelu_erf")}
        f = table.get(type(m))
        return f(m) if f else None
    if node.op == "call_function" and node.target is F.gelu and len(node.args) == 1 and set(node.kwargs) <= {"approximate"}:
        return Eltwise("gelu_tanh" if node.kwargs.get("approximate") == "tanh" else "gelu_erf")
    if node.op in ("call_function", "call_method") and len(node.args) == 1 and not node.kwargs.get("negative_slope"):
        target = node.target
        fns = {F.relu: "relu", torch.relu: "relu", "relu": "relu", "relu_": "relu", F.silu: "swish", "sigmoid": "logistic",
               torch.sigmoid: "logistic", torch.tanh: "tanh", "tanh": "tanh", F.hardswish: "hardswish", F.relu6: "relu6",
               F.hardsigmoid: "hardsigmoid", F.sigmoid: "logistic", F.tanh: "tanh"}
        kind = fns.get(target)
        if kind == "relu6":
            return Eltwise("clip", 0.0, 6.0)
        if kind == "swish":
            return Eltwise("swish", 1.0)
        if kind in ("hardswish", "hardsigmoid"):
            return Eltwise(kind, 1 / 6, 0.5)
        return Eltwise(kind) if kind else None
    return None


def _meta(node):
    """(shape, is float32) of a node's tensor, or None when it is no tensor."""
    meta = getattr(node, "meta", {}).get("tensor_meta")
    if meta is None or not hasattr(meta, "shape"):
        return None
    return tuple(meta.shape), str(meta.dtype) == "torch.float32"


def _tuple(v, n: int) -> tuple[int, ...]:
    return tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * n


def _arg(node, i: int, name: str, default=None):
    return node.args[i] if len(node.args) > i else node.kwargs.get(name, default)


def _pool(torch, node, modules, x_shape, y_shape):
    """(alg, kernel, stride, pad) of a pooling node, or None."""
    nn, F = torch.nn, torch.nn.functional
    nsp = len(x_shape) - 2
    maxes = (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d)
    avgs = (nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d)
    adaptive = (nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)
    if node.op == "call_module":
        m = modules[node.target]
        if isinstance(m, maxes):
            if m.return_indices or any(d != 1 for d in _tuple(m.dilation, nsp)):
                return None
            k = _tuple(m.kernel_size, nsp)
            return "max", k, _tuple(m.stride if m.stride is not None else k, nsp), _tuple(m.padding, nsp)
        if isinstance(m, avgs):
            pad = _tuple(m.padding, nsp)
            if getattr(m, "divisor_override", None) or (not m.count_include_pad and any(pad)):
                return None
            k = _tuple(m.kernel_size, nsp)
            return "avg", k, _tuple(m.stride if m.stride is not None else k, nsp), pad
        if isinstance(m, adaptive):
            return _adaptive(x_shape, y_shape)
        return None
    fns = {F.max_pool1d: "max", F.max_pool2d: "max", F.max_pool3d: "max",
           F.avg_pool1d: "avg", F.avg_pool2d: "avg", F.avg_pool3d: "avg",
           F.adaptive_avg_pool1d: "adaptive", F.adaptive_avg_pool2d: "adaptive", F.adaptive_avg_pool3d: "adaptive"}
    if node.op == "call_function" and node.target in fns:
        alg = fns[node.target]
        if alg == "adaptive":
            return _adaptive(x_shape, y_shape)
        k = _tuple(_arg(node, 1, "kernel_size"), nsp)
        stride = _arg(node, 2, "stride")
        stride = k if stride is None or stride == [] else _tuple(stride, nsp)
        pad = _tuple(_arg(node, 3, "padding", 0), nsp)
        if alg == "max":
            if _arg(node, 6, "return_indices", False) or any(d != 1 for d in _tuple(_arg(node, 4, "dilation", 1), nsp)):
                return None
        elif _arg(node, 6, "divisor_override") or (not _arg(node, 5, "count_include_pad", True) and any(pad)):
            return None
        return alg, k, stride, pad
    if node.op == "call_method" and node.target == "mean" or node.op == "call_function" and node.target is torch.mean:
        dims = _arg(node, 1, "dim")
        dims = [dims] if isinstance(dims, int) else list(dims or [])
        nd = len(x_shape)
        if _arg(node, 2, "keepdim", False) and sorted(d % nd for d in dims) == list(range(2, nd)) and \
                _arg(node, 3, "dtype") is None:
            return "avg", x_shape[2:], (1,) * nsp, (0,) * nsp
    return None


def pool_of(torch, node, modules):
    """(alg, kernel, stride, pad) of a pooling node over one N x C x 1-3 spatial tensor of any type (a
    quantized one too), or None; the output's shape must be the floor formula's."""
    import torch.fx as fx

    y = getattr(node, "meta", {}).get("tensor_meta")
    x = node.args[0] if node.args and isinstance(node.args[0], fx.Node) else None
    xm = x.meta.get("tensor_meta") if x is not None else None
    if y is None or xm is None or not hasattr(y, "shape") or not hasattr(xm, "shape"):
        return None
    xs, ys = tuple(xm.shape), tuple(y.shape)
    if not 3 <= len(xs) <= 5 or len(xs) != len(ys):
        return None
    pool = _pool(torch, node, modules, xs, ys)
    if pool is None or tuple(ys[2:]) != tuple(pool_out(*a) for a in zip(xs[2:], *pool[1:])):
        return None
    return pool


def _adaptive(x_shape, y_shape):
    """An adaptive average pool as a fixed window, where the output size divides the input."""
    if any(i % o for i, o in zip(x_shape[2:], y_shape[2:])):
        return None
    k = tuple(i // o for i, o in zip(x_shape[2:], y_shape[2:]))
    return "avg", k, k, (0,) * len(k)


def netop_of(torch, node, modules, dtype: str) -> NetOp | None:
    """The kgen op a node computes (module doc), or None."""
    import torch.fx as fx

    out = _meta(node)
    if out is None or not out[1] or not 3 <= len(out[0]) <= 5:
        return None
    y = out[0]
    # the tensors it reads (a size it reads, x.shape[2], is a node too, without a tensor)
    tensors = [a for a in node.args if isinstance(a, fx.Node) and _meta(a) is not None]
    try:
        lin = _scalar_linear(torch, node, tensors)
        if lin is not None:
            x = _meta(tensors[0])
            return NetOp("eltwise", "", [x[0]], dtype, lin) if x is not None and x[1] and x[0] == y else None
        if node.op in ("call_function", "call_method") and not node.kwargs and len(node.args) == 2 and \
                len(tensors) == 2 and (node.target in (operator.add, operator.iadd, operator.mul, operator.imul,
                                                       torch.add, torch.mul) or node.target in ("add", "mul", "add_", "mul_")):
            alg = "add" if node.target in (operator.add, operator.iadd, torch.add, "add", "add_") else "mul"
            metas = [_meta(a) for a in tensors]
            if any(m is None or not m[1] for m in metas):
                return None
            return NetOp("binary", alg, [m[0] for m in metas], dtype)
        if node.op == "call_function" and node.target is torch.cat:
            parts = _arg(node, 0, "tensors")
            dim = _arg(node, 1, "dim", 0)
            if not isinstance(parts, (list, tuple)) or len(parts) < 2 or dim % len(y) != 1 or \
                    any(not isinstance(a, fx.Node) for a in parts):
                return None
            metas = [_meta(a) for a in parts]
            if any(m is None or not m[1] for m in metas):
                return None
            return NetOp("cat", "", [m[0] for m in metas], dtype)
        if len(tensors) != 1 or node.args[0] is not tensors[0]:
            return None
        x = _meta(tensors[0])
        if x is None or not x[1] or len(x[0]) != len(y):
            return None
        e = eltwise_of(torch, node, modules)
        if e is not None:
            return NetOp("eltwise", "", [x[0]], dtype, e)
        if node.op == "call_module" and isinstance(modules[node.target], channel_norm_module(torch)):
            return NetOp("norm", "", [x[0]], dtype, eps=modules[node.target].eps)
        if node.op == "call_method" and node.target in ("expand", "expand_as") and x[0] != y:
            return NetOp("expand", "", [x[0]], dtype, size=y[2:])
        if _nearest(torch, node, modules) and x[0] != y:
            return NetOp("upsample", "", [x[0]], dtype, size=y[2:])
        pool = _pool(torch, node, modules, x[0], y)
        if pool is None:
            return None
        alg, k, s, p = pool
        if tuple(y[2:]) != tuple(pool_out(*a) for a in zip(x[0][2:], k, s, p)):
            return None          # ceil_mode's extra window
        return NetOp("pool", alg, [x[0]], dtype, kernel=k, stride=s, pad=p)
    except KgenError:
        return None              # shapes or parameters kgen's op does not take: PyTorch runs it


def in_place(node, modules) -> bool:
    """The node changes its first input (``x += y``, ``x.add_(y)``, ``torch.relu_(x)``,
    ``nn.ReLU(inplace=True)``, ``F.relu(x, inplace=True)``)."""
    if node.op == "call_function":
        name = getattr(node.target, "__name__", "")
        return node.target in (operator.iadd, operator.isub, operator.imul, operator.itruediv) \
            or (name.endswith("_") and not name.startswith("_")) or bool(node.kwargs.get("inplace"))
    if node.op == "call_method":
        return str(node.target).endswith("_") and not str(node.target).startswith("_")
    if node.op == "call_module":
        return bool(getattr(modules.get(node.target), "inplace", False))
    return False


def _scalar_linear(torch, node, tensors) -> Eltwise | None:
    """A tensor plus, minus, times or over a number as the eltwise linear a * x + b, or None."""
    if node.op not in ("call_function", "call_method") or node.kwargs or len(node.args) != 2 or len(tensors) != 1:
        return None
    ops = {operator.add: "add", operator.iadd: "add", torch.add: "add", "add": "add", "add_": "add",
           operator.sub: "sub", operator.isub: "sub", torch.sub: "sub", "sub": "sub",
           operator.mul: "mul", operator.imul: "mul", torch.mul: "mul", "mul": "mul", "mul_": "mul",
           operator.truediv: "div", torch.div: "div", "div": "div"}
    try:
        kind = ops.get(node.target)
    except TypeError:           # an unhashable target
        return None
    a, b = node.args
    number = b if a is tensors[0] else a
    if kind is None or isinstance(number, bool) or not isinstance(number, (int, float)):
        return None
    v = float(number)
    if kind == "add":
        return Eltwise("linear", 1.0, v)
    if kind == "mul":
        return Eltwise("linear", v, 0.0)
    if kind == "sub":
        return Eltwise("linear", 1.0, -v) if a is tensors[0] else Eltwise("linear", -1.0, v)
    return Eltwise("linear", 1.0 / v, 0.0) if a is tensors[0] and v != 0 else None


def _nearest(torch, node, modules) -> bool:
    """An upsampling node in nearest mode (its whole factors are checked by NetOp)."""
    if node.op == "call_module":
        m = modules[node.target]
        return isinstance(m, torch.nn.Upsample) and m.mode == "nearest"
    if node.op == "call_function" and node.target is torch.nn.functional.interpolate:
        return _arg(node, 3, "mode", "nearest") == "nearest" and not _arg(node, 5, "recompute_scale_factor")
    return False


def op_inputs(node) -> list:
    """The fx nodes an op node reads, in the op's order."""
    import torch.fx as fx
    if node.op == "call_function" and getattr(node.target, "__name__", "") == "cat":
        return list(_arg(node, 0, "tensors"))
    return [a for a in node.args if isinstance(a, fx.Node) and _meta(a) is not None]


def is_shape_query(node) -> bool:
    """A node that reads only a tensor's sizes (``x.shape``, ``x.shape[2]``, ``x.size()``, ``x.dim()``)."""
    if node.op == "call_method" and node.target in ("size", "dim"):
        return True
    if node.op == "call_function" and getattr(node.target, "__name__", "") == "getattr":
        return len(node.args) == 2 and node.args[1] in ("shape", "ndim")
    if node.op == "call_function" and node.target is operator.getitem:
        import torch.fx as fx
        return isinstance(node.args[0], fx.Node) and is_shape_query(node.args[0])
    return False


def node_kind(node, modules) -> str:
    """What a node computes, as the breakdown names it: a module's class, a method as .name(), a
    function's name."""
    if node.op == "call_module":
        return type(modules[node.target]).__name__
    if node.op == "call_method":
        return f".{node.target}()"
    return getattr(node.target, "__name__", str(node.target))


def why_stays(torch, node, modules) -> str:
    """Why a node that reads kgen's tensors stays in PyTorch (`netop_of` gave None), in a few words."""
    nn = torch.nn
    kind = node_kind(node, modules)
    meta = _meta(node)
    if meta is None or not meta[1]:
        return "its result is not one float32 tensor"
    if not 3 <= len(meta[0]) <= 5:
        return f"a {len(meta[0])}-dim result (kgen's ops take N x C x 1-3 spatial dims)"
    pools = (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d, nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d,
             nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)
    if "pool" in kind.lower() or (node.op == "call_module" and isinstance(modules[node.target], pools)):
        return ("parameters kgen's pooling does not take (dilation, ceil_mode's extra window, indices, "
                "count_include_pad=False with padding, a divisor, an adaptive size that does not divide)")
    if kind in ("add", "mul", "sub", "truediv", ".add()", ".mul()", ".sub()", ".div()"):
        return "operands that are neither one shape, a per-channel vector nor a number"
    if kind == "cat":
        return "not along channels"
    if kind in ("Upsample", "interpolate"):
        return "not nearest by whole factors"
    return "no kgen op"
