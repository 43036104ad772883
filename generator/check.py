"""benchdnn-style checking of reorder kernels: integer-valued fills, a fixed seed, exact comparison.

Shared by `kgen reorder`, the catalog build and the tests. The source is filled with integers in
the source type's range (for floats, wider than s8/u8 so saturation is exercised), scales are powers
of two and zero points small integers, so f32 kernels and the float64 reference agree exactly.
The whole destination buffer is compared, padding included, and padded areas must be zero.
"""
from __future__ import annotations

import numpy as np

from .errors import UnsupportedError
from .layout import DTYPES, MemoryDesc
from .problem.benchdnn import ReorderCase
from .problem.reorder import Quant, ReorderProblem

SEED = 1337


def _quant_from_attr(attr, ndims: int) -> Quant:
    if attr.policy.isdigit():
        mask = int(attr.policy)
        return Quant(tuple(d for d in range(ndims) if mask >> d & 1))
    return Quant.parse(attr.policy, ndims)


def case_to_problem(case: ReorderCase) -> ReorderProblem:
    """The ReorderProblem a benchdnn case describes; UnsupportedError for what the product lacks."""
    if case.unsupported:
        raise UnsupportedError(", ".join(case.unsupported) + " is not supported")
    for dt in (case.sdt, case.ddt):
        if dt not in DTYPES:
            raise UnsupportedError(f"data type {dt} is not supported (supported: {', '.join(DTYPES)})")
    if len(case.dims) > 6:
        raise UnsupportedError(f"{len(case.dims)} dims: descriptors have at most 6")
    src = MemoryDesc(case.dims, case.sdt, None if case.strides[0] else case.stag, strides=case.strides[0])
    dst = MemoryDesc(case.dims, case.ddt, None if case.strides[1] else case.dtag, strides=case.strides[1])
    kw = {}
    for s in case.scales:
        kw[f"{s.arg}_scale"] = _quant_from_attr(s, len(case.dims))
    for z in case.zero_points:
        kw[f"{z.arg}_zp"] = _quant_from_attr(z, len(case.dims))
    check_size(src, dst)
    return ReorderProblem(src, dst, **kw)


# bytes the check needs per buffer element: src and dst buffers, the float64 reference, two int64
# offset tables and NumPy temporaries
_CHECK_BYTES_PER_ELEMENT = 48


def _available_memory() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 << 30


def check_size(*descs: MemoryDesc) -> None:
    """Refuse problems the runtime cannot index (2**31 elements) or this machine cannot hold while checking."""
    n = max(d.buffer_nelems for d in descs)
    if n >= 2**31:
        raise UnsupportedError(f"{n} buffer elements: kgen limits a buffer to 2^31-1 elements (larger ones are untested)")
    need, have = n * _CHECK_BYTES_PER_ELEMENT, _available_memory()
    if need > have // 2:
        raise UnsupportedError(f"checking needs about {need / 2**30:.1f} GiB, more than half of the "
                               f"{have / 2**30:.1f} GiB available")


def fill_source(desc: MemoryDesc, rng: np.random.Generator) -> np.ndarray:
    """Integer-valued data in the source type's range (wider than s8/u8 for floats: saturation is tested)."""
    dt = desc.dtype
    lo, hi = {"s8": (-128, 127), "u8": (0, 255), "s32": (-300, 300)}.get(dt.name, (-300, 300))
    return desc.to_physical(rng.integers(lo, hi + 1, desc.dims).astype(dt.np_dtype))


def quant_values(problem: ReorderProblem, case: ReorderCase, rng: np.random.Generator) -> dict:
    """Scales are powers of two (exact in f32 and f64); zero points small integers; given common values kept."""
    given = {f"{s.arg}_scale": s for s in case.scales} | {f"{z.arg}_zp": z for z in case.zero_points}
    out = {}
    for arg, q in problem.quant_args:
        shape = q.shape(problem.dims)
        a = given[arg]
        if not q.mask and a.value is not None:
            out[arg] = np.asarray(a.effective_value, np.float32 if "scale" in arg else np.int32)
        elif "scale" in arg:
            out[arg] = (2.0 ** rng.integers(-2, 3, shape)).astype(np.float32)
        else:
            out[arg] = rng.integers(-4, 5, shape).astype(np.int32)
    return out


def check(kernel, problem: ReorderProblem, case: ReorderCase) -> str | None:
    """Run once on generated data; None when exact, else the reason it failed."""
    rng = np.random.default_rng(SEED)
    src = fill_source(problem.src, rng)
    q = quant_values(problem, case, rng)
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
