"""Each kgen layer and op of an optimized module against its float64 reference on the inputs it was
given: the check that still says something where the end-to-end one does not. A random network's
int8 output can vanish below its scale, and in a critical one (activations at a trained network's
scale) the few rounding ties two right implementations decide apart grow from layer to layer into
whole units at the output; a layer checked on its own inputs is off by at most one unit, at a tie.

The module must have one kgen module per layer (`optimize(..., segments=False)`): a forward hook on
each captures its inputs and result, which go back to PyTorch's logical layout (`to_torch`). A conv
layer's reference is its problem's (`ConvProblem.reference`: oneDNN's formulas, in NCHW); an op's
is `NetOp.reference`.
"""
from __future__ import annotations

import numpy as np

from .graph import ConvLayer
from .plan import layer_problem
from .torch_bridge import to_torch


def _logical(v) -> np.ndarray:
    t = to_torch(v)
    return (t.int_repr() if t.is_quantized else t).detach().numpy()


def _conv_reference(layer: ConvLayer, ins: list[np.ndarray], backend: str) -> np.ndarray:
    p, _ = layer_problem(layer, "nchw", backend)
    src = p.src.to_physical(ins[0].astype(p.src.dtype.np_dtype))
    wei = p.wei.to_physical(np.asarray(layer.weights, p.wei.dtype.np_dtype).reshape(p.wei.dims))
    inputs = {"dst_init": p.dst.to_physical(ins[1].astype(p.dst.dtype.np_dtype))} if layer.residual else {}
    out = p.reference(src, wei, layer.bias, quant=layer.quant or {}, inputs=inputs)
    return p.dst.from_physical(out)


def layer_io(om, x) -> dict[str, tuple]:
    """{kgen layer or op: (its `ConvLayer` / `OpNode`, its inputs, its result)} for one call of `om`
    (built with segments=False) on `x`, as logical NumPy arrays (a quantized tensor's integers)."""
    import torch

    seen = {}

    def record(mod, args, out):
        seen[mod.runner.layer.name] = (mod.runner.layer, [_logical(a) for a in args], _logical(out))

    hooks = [m.register_forward_hook(record) for _, m in om.named_modules() if hasattr(m, "runner")]
    try:
        with torch.inference_mode():
            om(x)
    finally:
        for h in hooks:
            h.remove()
    return seen


def layer_differences(om, x, backend: str = "llvm-cpu") -> dict[str, np.ndarray]:
    """{kgen layer or op: |its result - its float64 reference on its own inputs|} for one call of `om`
    (built with segments=False) on `x`."""
    out = {}
    for name, (layer, ins, got) in layer_io(om, x).items():
        ref = _conv_reference(layer, ins, backend) if isinstance(layer, ConvLayer) else layer.op.reference(ins)
        out[name] = np.abs(got.astype(np.float64) - np.asarray(ref, np.float64))
    return out


def summary(diffs: dict[str, np.ndarray]) -> str:
    """One line: the worst layer, how many values are off and of how many."""
    if not diffs:
        return "no kgen layer ran"
    worst = max(diffs, key=lambda k: diffs[k].max())
    off = sum(int((d > 0).sum()) for d in diffs.values())
    total = sum(d.size for d in diffs.values())
    return (f"every one of {len(diffs)} kgen layers and ops against the float64 formula on its own inputs: max "
            f"{diffs[worst].max():g} units ({worst}), {off} of {total} values off")


__all__ = ["layer_differences", "layer_io", "summary"]
