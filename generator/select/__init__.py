"""Selection: which variant, flag set and driver a problem gets, decided in one place.

`--alg=auto` is resolved here and nowhere else: the measured table (`select.table`, written by
`kgen tune`) for this backend and CPU when it has the problem, else `heuristic_variant`. The layer
sits above emit and compile (it reads the kernel cache's table and renders nothing) and below the
API, which builds the chosen kernel.
"""
from __future__ import annotations

import dataclasses

from ..emit.conv import VARIANTS
from ..problem.conv import ConvProblem
from . import table
from .table import Choice

__all__ = ["Choice", "choose", "heuristic_variant", "resolve", "table"]


def heuristic_variant(p: ConvProblem) -> str:
    """`--alg=auto`'s rule when the measured table has no entry for the problem: a 1x1 kernel ->
    im2col (its 1x1 path is one GEMM that reads the source in place, no copy); anything else ->
    direct (applies everywhere, exact, no extra memory)."""
    if all(s.k == 1 for s in p.desc.spatial()):
        return "im2col"
    return "direct"


def choose(p: ConvProblem, backend: str) -> Choice:
    """`--alg=auto`: the measured choice for this problem, backend and CPU when `kgen tune` made one,
    else the heuristic with the backend's plain flags."""
    hit = table.lookup(p, backend)
    if hit is not None and hit.variant in VARIANTS:
        return hit
    return Choice(heuristic_variant(p), "default", "heuristic")


def resolve(p: ConvProblem, backend: str) -> ConvProblem:
    """The problem with `--alg=auto` replaced by the chosen variant (artifact names carry the choice)."""
    if p.alg != "auto":
        return p
    return dataclasses.replace(p, alg=choose(p, backend).variant)
