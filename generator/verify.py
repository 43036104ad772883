"""benchdnn-style fill and check of every op, in one place: `kgen reorder`, `kgen conv`, `kgen bench`,
the catalog build and the tests all use these.

The method, as benchdnn's: data are integer-valued where the data type allows an exact comparison,
filled from one fixed seed (`SEED`, printed by the CLI); the reference is float64 NumPy written from
the documented formula (`problem.*.reference`); the whole destination buffer is compared, and padded
areas must be zero.

* Reorders: the source holds integers in the source type's range (wider than s8/u8 for floats, so
  saturation is exercised); scales are powers of two and zero points small integers, so every
  result is exact and compared bit for bit.
* Convolutions: small integers (src -4..4, weights -2..2, bias -8..8), so products and sums stay exact
  in f32 and in f16/bf16 inputs; the reference is rounded to the destination type. A variant with
  fractional arithmetic (Winograd) may differ by its `ConvProblem.tolerance` relative to the largest
  result, plus one rounding step of a 16-bit destination.
"""
from __future__ import annotations

import numpy as np

from .layout import MemoryDesc
from .problem.conv import ConvProblem, torch_wei_dims
from .problem.reorder import ReorderProblem

SEED = 1337


# ------------------------------------------------------------------------------------------ reorders
def fill_reorder_source(desc: MemoryDesc, rng: np.random.Generator) -> np.ndarray:
    """Integer-valued data in the source type's range (wider than s8/u8 for floats: saturation is tested)."""
    dt = desc.dtype
    lo, hi = {"s8": (-128, 127), "u8": (0, 255), "s32": (-300, 300)}.get(dt.name, (-300, 300))
    return desc.to_physical(rng.integers(lo, hi + 1, desc.dims).astype(dt.np_dtype))


def reorder_quant_values(problem: ReorderProblem, rng: np.random.Generator,
                         given: dict[str, float] | None = None) -> dict[str, np.ndarray]:
    """Scales are powers of two (exact in f32 and f64), zero points small integers; a common value the
    user gave (`given`: argument -> value, e.g. from `--attr-scales=src:common:0.5`) is kept."""
    given = given or {}
    out = {}
    for arg, q in problem.quant_args:
        shape = q.shape(problem.dims)
        if not q.mask and given.get(arg) is not None:
            out[arg] = np.asarray(given[arg], np.float32 if "scale" in arg else np.int32)
        elif "scale" in arg:
            out[arg] = (2.0 ** rng.integers(-2, 3, shape)).astype(np.float32)
        else:
            out[arg] = rng.integers(-4, 5, shape).astype(np.int32)
    return out


def check_reorder(kernel, problem: ReorderProblem, given: dict[str, float] | None = None) -> str | None:
    """Run `kernel` once on generated data; None when exact, else the reason it failed."""
    rng = np.random.default_rng(SEED)
    src = fill_reorder_source(problem.src, rng)
    q = reorder_quant_values(problem, rng, given)
    init = None
    if problem.needs_dst_init:
        init = rng.integers(-3, 4, problem.dst.buffer_nelems).astype(problem.dst.dtype.np_dtype)
    got = kernel(src, dst_init=init, **q)
    want = problem.reference(src, q, init)
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"result is {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
    pad = problem.dst.padding_mask()
    if pad.any() and np.any(got[pad] != 0):
        return f"{int(np.count_nonzero(got[pad]))} padded elements are not zero"
    bad = got.astype(np.float64) != want.astype(np.float64)
    if bad.any():
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))[bad].max()
        return f"{int(bad.sum())} of {got.size} buffer elements differ, max |diff| {diff:g}"
    return None


# ------------------------------------------------------------------------------------------ convolutions
def fill_conv(p: ConvProblem, rng: np.random.Generator):
    """Logical src (N, IC, sp..), PyTorch-layout weights (OC, IC/G, k..) and bias (OC, or None):
    small integers, so products and sums stay exact in f32 (and in f16/bf16 inputs)."""
    x = rng.integers(-4, 5, p.desc.src_dims).astype(p.src.dtype.np_dtype)
    w = rng.integers(-2, 3, torch_wei_dims(p.desc)).astype(p.wei.dtype.np_dtype)
    b = rng.integers(-8, 9, p.desc.oc).astype(np.float32) if p.bias else None
    return x, w, b


def check_conv(kernel, p: ConvProblem) -> str | None:
    """Prepare `kernel`'s weights and run it once on generated data; None when right, else the reason."""
    x, w, b = fill_conv(p, np.random.default_rng(SEED))
    src, wei = p.src.to_physical(x), p.wei.to_physical(w.reshape(p.wei.dims))
    kernel.prepare(wei)
    got = kernel(src, b)
    want = p.reference(src, wei, b)
    pad = p.dst.padding_mask()
    if pad.any() and np.any(got[pad] != 0):
        return f"{int(np.count_nonzero(got[pad]))} padded elements are not zero"
    g, r = got.astype(np.float64), want.astype(np.float64)
    allowed = 0.0
    if p.tolerance:
        # the variant's error bound, plus one rounding step of a 16-bit destination at each value
        eps = 0.0 if p.dst.dtype.is_int or p.dst.dtype.name == "f32" else float(np.finfo(np.float16).eps
                                                                                 if p.dst.dtype.name == "f16" else 2.0**-7)
        allowed = p.tolerance * max(1.0, float(np.abs(r).max(initial=0.0))) + eps * np.abs(r)
    bad = np.abs(g - r) > allowed
    if bad.any():
        diff = np.abs(g - r)[bad].max()
        tol = f" (tolerance {p.tolerance:g} of max |ref|)" if p.tolerance else ""
        return f"{int(bad.sum())} of {got.size} buffer elements differ, max |diff| {diff:g}{tol}"
    return None
