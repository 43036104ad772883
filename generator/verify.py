"""benchdnn-style fill and check of every op, in one place: `kgen reorder`, `kgen conv`, `kgen bench`,
the catalog build and the tests all use these.

The method, as benchdnn's: data are integer-valued where the data type allows an exact comparison,
filled from one fixed seed (`SEED`, printed by the CLI); the reference is float64 NumPy written from
the documented formula (`problem.*.reference`); the whole destination buffer is compared, and padded
areas must be zero.

* Reorders: the source holds integers in the source type's range (wider than s8/u8 for floats, so
  saturation is exercised); scales are powers of two and zero points small integers, so every
  result is exact and compared bit for bit. s4 / u4 buffers (two elements per byte) are compared
  element by element after unpacking, and then byte for byte (the unused nibble of an odd count is 0).
* Convolutions: small integers (src -4..4, weights -2..2, bias -8..8), so products and sums stay exact
  in f32 and in f16/bf16 inputs; the reference is rounded to the destination type. A variant with
  fractional arithmetic (Winograd) may differ by its `ConvProblem.tolerance` relative to the largest
  result, plus one rounding step of a 16-bit destination.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .layout import MemoryDesc, get_dtype
from .problem.attr import Eltwise, Sum, is_exact
from .problem.conv import ConvProblem, torch_wei_dims
from .problem.reorder import ReorderProblem

SEED = 1337


# ------------------------------------------------------------------------------------------ reorders
def fill_reorder_source(desc: MemoryDesc, rng: np.random.Generator, dst: MemoryDesc | None = None) -> np.ndarray:
    """Integer-valued data in the source type's range (wider than s8/u8 for floats: saturation is tested).

    A float source bound for a 4-bit destination (`dst` s4 / u4) holds multiples of 0.5 from half the
    destination's range below it to half above (s4: -16..15.5), so in-range values, ties (rounded to
    even) and saturation all occur; -300..300 would saturate nearly everything."""
    dt = desc.dtype
    if dst is not None and dst.dtype.is_packed and not dt.is_int:
        lo, hi = dst.dtype.int_range
        half = (hi - lo + 1) // 2
        halves = rng.integers(2 * (lo - half), 2 * (hi + half) + 2, desc.dims)
        return desc.to_physical((halves / 2).astype(dt.np_dtype))
    lo, hi = {"s8": (-128, 127), "u8": (0, 255), "s32": (-300, 300), "s4": (-8, 7), "u4": (0, 15)
              }.get(dt.name, (-300, 300))
    return desc.to_physical(rng.integers(lo, hi + 1, desc.dims).astype(dt.np_dtype))


def reorder_quant_values(problem: ReorderProblem, rng: np.random.Generator,
                         given: dict[str, float] | None = None) -> dict[str, np.ndarray]:
    """Scales are powers of two (exact in f32 and f64), zero points small integers; values the user gave
    (`given`: argument -> value, e.g. from `--attr-scales=src:common:0.5`, or an array from a file) are
    kept."""
    given = given or {}
    out = {}
    for arg, q in problem.quant_args:
        shape = q.shape(problem.dims)
        if given.get(arg) is not None:
            out[arg] = np.asarray(given[arg], np.float32 if "scale" in arg else np.int32)
        elif "scale" in arg:
            out[arg] = (2.0 ** rng.integers(-2, 3, shape)).astype(np.float32)
        else:
            out[arg] = rng.integers(-4, 5, shape).astype(np.int32)
    return out


def reorder_call(problem: ReorderProblem, given: dict[str, float] | None = None
                 ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    """The seeded arguments of one call of a reorder kernel: (source buffer, quantization values, the
    prior destination where the destination has gaps, else None). `check_reorder` runs with them; the
    benchmarks time with them."""
    rng = np.random.default_rng(SEED)
    src = fill_reorder_source(problem.src, rng, problem.dst)
    q = reorder_quant_values(problem, rng, given)
    init = None
    dst = problem.dst
    if problem.needs_dst_init:
        init = rng.integers(-3, 4, dst.buffer_nelems).astype(dst.dtype.np_dtype)
        if dst.dtype.is_packed:
            init = dst.buffer_from_elements(init)
    return src, q, init


def check_reorder(kernel, problem: ReorderProblem, given: dict[str, float] | None = None) -> str | None:
    """Run `kernel` once on generated data (`reorder_call`); None when exact, else the reason it failed."""
    src, q, init = reorder_call(problem, given)
    dst = problem.dst
    got_buf = kernel(src, dst_init=init, **q)
    want_buf = problem.reference(src, q, init)
    if got_buf.shape != want_buf.shape or got_buf.dtype != want_buf.dtype:
        return f"result is {got_buf.dtype}{list(got_buf.shape)}, expected {want_buf.dtype}{list(want_buf.shape)}"
    got, want = dst.buffer_elements(got_buf), dst.buffer_elements(want_buf)     # one value per element
    pad = dst.padding_mask()
    if pad.any() and np.any(got[pad] != 0):
        return f"{int(np.count_nonzero(got[pad]))} padded elements are not zero"
    bad = got.astype(np.float64) != want.astype(np.float64)
    if bad.any():
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))[bad].max()
        return f"{int(bad.sum())} of {got.size} buffer elements differ, max |diff| {diff:g}"
    if not np.array_equal(got_buf, want_buf):       # 4-bit: only the unused last nibble is left
        return f"the unused high nibble of the last byte is {int(got_buf[-1]) >> 4}, not 0"
    return None


# ------------------------------------------------------------------------------------------ convolutions
def _ints(rng: np.random.Generator, dt, shape, lo: int = -4, hi: int = 4) -> np.ndarray:
    """Small integers that the data type holds exactly (u8: from 0)."""
    t = get_dtype(dt)
    if t.is_int and not t.signed:
        lo, hi = 0, hi - lo
    return rng.integers(lo, hi + 1, shape).astype(t.np_dtype)


def fill_conv(p: ConvProblem, rng: np.random.Generator):
    """Logical src (N, IC, sp..), PyTorch-layout weights (OC, IC/G, k..) and bias (OC, or None):
    small integers, so products and sums stay exact in f32 (and in f16/bf16 inputs)."""
    x = _ints(rng, p.src.dtype.name, p.desc.src_dims)
    w = rng.integers(-2, 3, torch_wei_dims(p.desc)).astype(p.wei.dtype.np_dtype)
    b = rng.integers(-8, 9, p.desc.oc).astype(get_dtype(p.bias_dt).np_dtype) if p.bias else None
    return x, w, b


#: Generated scales are powers of two (exact in every step); zero points small.
_SCALES = {"src": (0.25, 0.5, 1.0, 2.0), "wei": (0.125, 0.25, 0.5, 1.0, 2.0), "dst": (0.5, 1.0, 2.0, 4.0),
           "dw_wei": (0.25, 0.5, 1.0), "dw_dst": (1.0, 2.0, 4.0)}


def conv_attr_values(p: ConvProblem, rng: np.random.Generator, given: dict | None = None):
    """(quant, inputs): the runtime scales / zero points and the post-ops' inputs, logical (the sum's
    prior destination; binary and prelu second inputs). Values in `given` (by argument name) win."""
    given = given or {}
    quant: dict[str, np.ndarray] = {}
    for name, q in p.quant_args():
        shape = p.quant_shape(q)
        if name in given:
            quant[name] = np.asarray(given[name])
        elif name.endswith("scale"):
            quant[name] = np.asarray(rng.choice(_SCALES[q.arg], shape), np.float32)
        else:
            lo, hi = (0, 4) if q.dt == "u8" else (-3, 3)
            quant[name] = np.asarray(rng.integers(lo, hi + 1, shape), np.int32)
    inputs: dict[str, np.ndarray] = {}
    for name, _, op in p.post_op_inputs():
        if name in given:
            inputs[name] = np.asarray(given[name])
        elif name == "dst_init":
            inputs[name] = _ints(rng, p.dst.dtype.name, p.dst.dims)
        elif name == "dw_wei":
            desc = p.input_desc(name)
            inputs[name] = _ints(rng, desc.dtype.name, desc.dims, -2, 2)
        elif name == "dw_bias":
            inputs[name] = _ints(rng, "f32", (p.desc.oc,), -8, 8)
        elif name.startswith("prelu"):
            desc = p.input_desc(name)
            inputs[name] = rng.choice(np.array([-0.5, 0.25, 0.5, 2.0], np.float32), desc.dims)
        else:
            desc = p.input_desc(name)
            v = _ints(rng, desc.dtype.name, desc.dims, -3, 3)
            if op.kind == "div":
                v = np.where(v == 0, 1, v).astype(v.dtype)
            inputs[name] = v
    return quant, inputs


def conv_tolerance(p: ConvProblem, quant: dict) -> tuple[float, float, int]:
    """(relative, absolute-of-max, integer slack) a result may differ from the float64 reference by.
    Exact for integer-valued data through exact steps (no transcendental post-op, dyadic parameters);
    else one f32 rounding per step (1e-5 relative) and, for integer destinations, one unit."""

    def dyadic(v) -> bool:
        a = np.asarray(v, np.float64) * 1024
        return bool(np.all(a == np.round(a)))
    params = [x for op in p.post_ops for x in ((op.alpha, op.beta, op.scale) if isinstance(op, Eltwise)
                                                else (op.scale,) if isinstance(op, Sum) else ())]
    exact = (all(is_exact(op) for op in p.post_ops) and all(dyadic(x) for x in params)
             and all(dyadic(v) for k, v in quant.items() if k.endswith("scale") and not k.startswith("dst"))
             and all(dyadic(1.0 / np.asarray(v, np.float64)) for k, v in quant.items() if k == "dst_scale"))
    rel = {"f32": 0.0, "bf16": 2.0 ** -8, "f16": 2.0 ** -11}.get(p.output.dtype.name, 0.0)
    if exact:
        return rel, 0.0, 0
    return rel + 1e-5, 1e-6, 1


@dataclass
class ConvCall:
    """One call's generated data: what check_conv runs and checks, and what `kgen bench` and
    `--mode=P` time. Physical (in the problem's formats) except `x` and `w`."""
    x: np.ndarray                       # the source, logical (N, IC, sp..)
    w: np.ndarray                       # the weights, PyTorch's layout (OC, IC/G, k..)
    src: np.ndarray
    wei: np.ndarray
    bias: np.ndarray | None
    quant: dict[str, np.ndarray]        # runtime scales and zero points, by kernel argument name
    inputs: dict[str, np.ndarray]       # post-op inputs (sum's prior dst, binary, prelu, dw), physical

    @property
    def attrs(self) -> dict[str, np.ndarray]:
        return {**self.quant, **self.inputs}


def conv_call(p: ConvProblem, given: dict | None = None, seed: int = SEED) -> ConvCall:
    """The generated source, weights, bias, attribute values and post-op inputs of `p` (fixed seed)."""
    rng = np.random.default_rng(seed)
    x, w, b = fill_conv(p, rng)
    quant, logical = conv_attr_values(p, rng, given)
    inputs = {k: p.input_desc(k).to_physical(logical[k]) for k, _, _ in p.post_op_inputs()}
    return ConvCall(x, w, p.src.to_physical(x), p.wei.to_physical(w.reshape(p.wei.dims)), b, quant, inputs)


def check_conv(kernel, p: ConvProblem, given: dict | None = None, call: ConvCall | None = None) -> str | None:
    """Prepare `kernel`'s weights and run it once on generated data (`call`, else `conv_call(p, given)`);
    None when right, else the reason."""
    call = call or conv_call(p, given)
    src, wei, b, quant, inputs = call.src, call.wei, call.bias, call.quant, call.inputs
    kernel.prepare(wei)
    got = kernel(src, b, **quant, **inputs)
    want = p.reference(src, wei, b, quant=quant, inputs=inputs)
    pad = p.output.padding_mask()
    if pad.any() and np.any(got[pad] != 0):
        return f"{int(np.count_nonzero(got[pad]))} padded elements are not zero"
    g, r = got.astype(np.float64), want.astype(np.float64)
    rel, absmax, slack = conv_tolerance(p, quant)
    finite = np.isfinite(r)
    top = float(np.abs(r[finite]).max(initial=0.0))
    allowed = rel * np.abs(np.where(finite, r, 0.0)) + absmax * max(1.0, top) + slack
    # the variant that ran: `--alg=auto` resolved by the kernel (Winograd for a floating-point result)
    tolerance = p.tolerance or getattr(getattr(kernel, "problem", None), "tolerance", 0.0)
    if tolerance:
        # the variant's error bound, plus one rounding step of a 16-bit destination at each value
        out = p.output.dtype.name
        eps = 0.0 if p.output.dtype.is_int or out == "f32" else float(np.finfo(np.float16).eps
                                                                      if out == "f16" else 2.0**-7)
        allowed = allowed + tolerance * max(1.0, top) + eps * np.abs(np.where(finite, r, 0.0))
    with np.errstate(invalid="ignore"):
        bad = ~((g == r) | (np.isnan(g) & np.isnan(r)) | (np.abs(g - r) <= allowed))
    if bad.any():
        diff = np.abs(g - r)[bad].max()
        tol = f" (tolerance {tolerance:g} of max |ref|)" if tolerance else ""
        return f"{int(bad.sum())} of {got.size} buffer elements differ, max |diff| {diff:g}{tol}"
    return None
