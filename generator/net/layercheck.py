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


class Differences(dict):
    """{kgen layer or op: |its result - its reference|}: in units for a quantized result; for a float one
    (a u8:s8:f32 layer: a classifier's logits), relative to the reference's largest magnitude, and its
    name in `floats`."""

    def __init__(self):
        super().__init__()
        self.floats: set[str] = set()


def layer_differences(om, x, backend: str = "llvm-cpu") -> Differences:
    """Each kgen layer's and op's difference from its float64 reference on its own inputs
    (`Differences`) for one call of `om` (built with segments=False) on `x`."""
    out = Differences()
    for name, (layer, ins, got) in layer_io(om, x).items():
        ref = np.asarray(_conv_reference(layer, ins, backend) if isinstance(layer, ConvLayer)
                         else layer.op.reference(ins), np.float64)
        d = np.abs(got.astype(np.float64) - ref)
        if np.issubdtype(got.dtype, np.floating):
            out.floats.add(name)
            d = d / max(float(np.abs(ref).max()), np.finfo(np.float64).tiny)
        out[name] = d
    return out


def summary(diffs: dict[str, np.ndarray]) -> str:
    """One line: the worst quantized layer, how many of its values are off and of how many; the worst
    float result relative to its largest value."""
    if not diffs:
        return "no kgen layer ran"
    floats = getattr(diffs, "floats", set())
    units = {k: v for k, v in diffs.items() if k not in floats}
    parts = []
    if units:
        worst = max(units, key=lambda k: units[k].max())
        off = sum(int((d > 0).sum()) for d in units.values())
        total = sum(d.size for d in units.values())
        parts.append(f"max {units[worst].max():g} units ({worst}), {off} of {total} values off")
    if floats:
        worst = max(floats, key=lambda k: diffs[k].max())
        parts.append(f"float results within {diffs[worst].max():.1e} of their largest value ({worst})")
    return (f"every one of {len(diffs)} kgen layers and ops against the float64 formula on its own inputs: "
            + "; ".join(parts))


__all__ = ["Differences", "layer_differences", "layer_io", "summary"]
