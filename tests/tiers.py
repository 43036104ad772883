"""The quick tier's covering choice: which parameter sets of a sweep the quick tier keeps.

A sweep's parameter sets are grouped by what the quick tier must cover (for a convolution: its variant,
data types, the layout class of its source and destination, and the backend); the first parameter set
of each group stays in the quick tier, the others get the `full` mark (`./build.sh test --full` runs
them, `tests/conftest.py`). So every variant x data type x layout class x backend a sweep exercises keeps
at least one exact numeric check in the quick tier, and the sweep's other shapes, tails and attributes
run in the full one.
"""
from __future__ import annotations

import shlex
from typing import Callable, Hashable, Iterable

import pytest

from generator.benchdnn.conv import conv_problem, parse_conv_args


def layout_class(desc) -> str:
    """"plain" (channels first, unblocked), "channels-last", "blocked" (one channel block, outer dims in
    order: nChw16c, NCHW4) or "other-blocked" (more block levels, or outer dims reordered: CHWN4)."""
    blocks, in_order = desc.blocks, tuple(desc.order) == tuple(range(desc.ndims))
    if not blocks:
        return "plain" if in_order else "channels-last"
    return "blocked" if len(blocks) == 1 and blocks[0][0] == 1 and in_order else "other-blocked"


def conv_key(line: str, backend: str = "llvm-cpu") -> tuple:
    """What a conv line must cover in the quick tier: (variant, data types, source and destination layout
    classes, backend)."""
    args = shlex.split(line)
    alg = next((a.split("=", 1)[1] for a in args if a.startswith("--alg=")), "direct")
    p = conv_problem(next(iter(parse_conv_args(args))))
    dts = (p.src.dtype.name, p.wei.dtype.name, p.dst.dtype.name)
    return alg, dts, layout_class(p.src), layout_class(p.dst), backend


def _values(param) -> tuple:
    """A parameter set's values: a pytest.param's, a tuple (several argnames), or one value."""
    if hasattr(param, "values"):
        return tuple(param.values)
    return param if isinstance(param, tuple) else (param,)


def covering(params: Iterable, key: Callable[..., Hashable]) -> list:
    """`params` (plain values or pytest.param) with the `full` mark on every one whose `key(*values)` an
    earlier one already had."""
    seen, out = set(), []
    for param in params:
        values = _values(param)
        k = key(*values)
        if k in seen:
            marks = tuple(getattr(param, "marks", ())) + (pytest.mark.full,)
            out.append(pytest.param(*values, marks=marks, id=getattr(param, "id", None)))
        else:
            seen.add(k)
            out.append(param)
    return out


def conv_covering(params: Iterable, backend: str = "llvm-cpu", line_index: int = 0) -> list:
    """`covering` for parameter sets whose `line_index`-th value is a benchdnn conv line."""
    return covering(params, lambda *values: conv_key(values[line_index], backend))
