"""A benchdnn reorder case as the problem it describes (`case_to_problem`), the limits checked on the
way, and the quantization values the case itself gives. Filling and checking are `generator.verify`'s.
"""
from __future__ import annotations

from .errors import UnsupportedError
from .layout import DTYPES, MemoryDesc
from .problem.benchdnn import ReorderCase
from .problem.reorder import Quant, ReorderProblem


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


def given_quant_values(case: ReorderCase) -> dict[str, float]:
    """The common scale / zero-point values the case names (`--attr-scales=src:common:0.5`), by argument
    (`src_scale`, ...): `verify.check_reorder` keeps them instead of generating its own."""
    given = {f"{s.arg}_scale": s for s in case.scales} | {f"{z.arg}_zp": z for z in case.zero_points}
    return {arg: a.effective_value for arg, a in given.items() if a.value is not None}
