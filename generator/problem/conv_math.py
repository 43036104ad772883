"""Convolution algorithm math the kernels are built from: Winograd F(m, r) matrices, built exactly
from interpolation points, and its tiling (`winograd_tiles`); the QNNPACK/XNNPACK indirection table
(`indirect_offsets`) from the im2col index maps. Pure NumPy; the emitters turn these into constants
and affine maps, and the tests check them against the direct reference (`problem.reference`).
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Sequence

import numpy as np

from ..errors import ProblemError, UnsupportedError
from .reference import _spatial_params

__all__ = [
    "DEFAULT_WINOGRAD_POINTS", "winograd_points", "winograd_matrices_exact", "winograd_matrices",
    "winograd_tiles", "im2col_indices", "indirect_offsets",
]

IntSeq = Sequence[int]


# ----------------------------------------------------------------------------------------------
# Winograd F(m, r)
# ----------------------------------------------------------------------------------------------

#: Finite interpolation points in the order the literature uses them (Lavin & Gray; wincnn's
#: README): F(m, r) takes the first ``m + r - 2``; the point at infinity is always added last.
#: F(2,3): 0, 1, -1. F(4,3): 0, 1, -1, 2, -2. F(6,3): 0, 1, -1, 2, -2, 1/2, -1/2. Beyond seven
#: points the continuation (3, -3, 1/3, -1/3, ...) is our choice, not tuned for float accuracy.
DEFAULT_WINOGRAD_POINTS: tuple[Fraction, ...] = tuple(Fraction(p) for p in (
    0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 3), Fraction(-1, 3),
    4, -4, Fraction(1, 4), Fraction(-1, 4)))

_CONVENTIONS = ("lavin", "wincnn")


def winograd_points(m: int, r: int, points=None) -> tuple[Fraction, ...]:
    """The ``m + r - 2`` finite points of F(m, r), exact: the defaults, or ``points`` validated.

    Points may be ints, Fractions or strings such as ``"1/2"`` (floats are taken at their exact
    binary value, so pass ``Fraction(1, 3)``, not ``1/3``). They must be distinct.
    """
    if m < 1 or r < 1:
        raise ProblemError(f"Winograd F({m},{r}): m and r must be >= 1")
    need = m + r - 2
    if points is None:
        if need > len(DEFAULT_WINOGRAD_POINTS):
            raise UnsupportedError(f"Winograd F({m},{r}) needs {need} points; defaults exist for at "
                                   f"most {len(DEFAULT_WINOGRAD_POINTS)} -- pass points=")
        return DEFAULT_WINOGRAD_POINTS[:need]
    try:
        pts = tuple(Fraction(p) for p in points)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProblemError(f"Winograd points {list(points)!r}: not rational numbers ({exc})") from None
    if len(pts) != need:
        raise ProblemError(f"Winograd F({m},{r}) needs m+r-2 = {need} finite points (infinity is "
                           f"implied); got {len(pts)}: {[str(p) for p in pts]}")
    if len(set(pts)) != len(pts):
        raise ProblemError(f"Winograd points {[str(p) for p in pts]} are not distinct")
    return pts


def _poly_from_roots(roots) -> list[Fraction]:
    """Ascending coefficients of the monic ``prod (x - a)``."""
    coeffs = [Fraction(1)]
    for a in roots:
        nxt = [Fraction(0)] * (len(coeffs) + 1)
        for j, c in enumerate(coeffs):
            nxt[j + 1] += c          # x * c x^j
            nxt[j] -= a * c          # -a * c x^j
        coeffs = nxt
    return coeffs


@functools.lru_cache(maxsize=None)
def _winograd_exact(m: int, r: int, pts: tuple[Fraction, ...], convention: str):
    k = len(pts)                                     # = m + r - 2 finite points, then infinity
    # F_c = prod_{j != c} (a_c - a_j): the Lagrange denominators. wincnn makes the first positive.
    big_f = [math.prod((a - b for j, b in enumerate(pts) if j != c), start=Fraction(1))
             for c, a in enumerate(pts)]
    f = list(big_f)
    if k and f[0] < 0:
        f[0] = -f[0]
    z, one = Fraction(0), Fraction(1)
    # AT: evaluate the m-term output polynomial at the points; infinity takes its top coefficient.
    at = [[a ** i for a in pts] + [one if i == m - 1 else z] for i in range(m)]
    # G: evaluate the filter polynomial at the points, divided by f_c; infinity: top coefficient.
    g = [[a ** j / f[c] for j in range(r)] for c, a in enumerate(pts)]
    g.append([one if j == r - 1 else z for j in range(r)])
    # BT: row c = coefficients of N_c(x) = prod_{j != c} (x - a_j), times f_c / F_c (= +-1);
    # the infinity row = coefficients of M(x) = prod_j (x - a_j) (monic, degree alpha-1).
    bt = []
    for c in range(k):
        sign = f[c] / big_f[c]
        row = _poly_from_roots(pts[:c] + pts[c + 1:])
        bt.append([sign * v for v in row] + [z])
    bt.append(_poly_from_roots(pts))
    if convention == "lavin":
        first = next(v for v in bt[k] if v != 0)
        if first < 0:                                # negate the infinity row of BT and column of AT
            bt[k] = [-v for v in bt[k]]
            for row in at:
                row[k] = -row[k]
    return (tuple(map(tuple, at)), tuple(map(tuple, g)), tuple(map(tuple, bt)))


def winograd_matrices_exact(m: int, r: int, points=None, *, convention: str = "lavin"):
    """Exact Winograd/Toom-Cook transforms of F(m, r) as object arrays of `fractions.Fraction`.

    Returns ``(AT, G, BT)`` with shapes ``(m, a), (a, r), (a, a)``, ``a = m + r - 1``, such that for
    a signal ``d`` of length ``a`` and a filter ``g`` of length ``r``::

        AT @ ((G @ g) * (BT @ d)) == [sum_k d[i+k] g[k] for i < m]     (valid correlation)

    and in 2D (nesting) ``Y = AT [(G g G^T) * (BT d B)] A``, per axis with its own ``r``.

    Construction (Lavin & Gray 2016 sec. 4, following Andrew Lavin's wincnn ``cookToomFilter`` with
    ``fractionsIn=FractionsInG``). With finite points ``a_0..a_{a-2}`` plus infinity:

    * ``F_c = prod_{j != c} (a_c - a_j)``, ``f_c = F_c`` except ``f_0 = |F_0|`` (wincnn's sign rule);
    * ``AT[i, c] = a_c**i`` and ``AT[i, inf] = [i == m-1]``     (evaluate / take the top coefficient);
    * ``G[c, j] = a_c**j / f_c`` and ``G[inf, j] = [j == r-1]``;
    * ``BT[c, :] = (f_c/F_c) * coeffs(prod_{j != c} (x - a_j))`` and ``BT[inf, :] = coeffs(M)``, with
      ``M(x) = prod_j (x - a_j)`` (ascending coefficients).

    Why it works: ``BT`` and ``G`` evaluate the (transposed) product polynomial at the points
    (``1/F_c`` is the Lagrange weight, split so G carries the fractions and BT stays integral for
    integer points); the infinity point supplies the top coefficient the finite points cannot
    reach (modified Toom-Cook, ``a - 1`` finite points for a degree ``a - 1`` product).

    ``convention``:

    * ``"wincnn"``: exactly wincnn's output (infinity row of BT = coefficients of monic ``M``); this
      reproduces the F(2,3), F(4,3), F(6,3) tables of wincnn's README, and the F(6,3) ``BT`` is IREE's
      ``BT_6x6_3x3`` (LinalgExt/Utils/WinogradConstants.h) and ncnn's.
    * ``"lavin"`` (default): the same, but the infinity row of BT and the matching column of AT are
      negated when that row's first nonzero is negative (the product is unchanged: both factors
      flip). This is the rule that yields *both* tables printed in Lavin & Gray -- the F(2x2,3x3)
      ``BT = [[1,0,-1,0],[0,1,1,0],[0,-1,1,0],[0,1,0,-1]]``, ``AT = [[1,1,1,0],[0,1,-1,-1]]``
      (wincnn gives ``[0,-1,0,1]`` / ``[0,1,-1,1]`` there) and the F(4x4,3x3) tables, identical to
      wincnn's -- which are also MLIR's ``linalg`` Winograd constants for those sizes. For F(6,3) it
      differs from IREE's/ncnn's table by that sign only.
    """
    if convention not in _CONVENTIONS:
        raise ProblemError(f"Winograd convention '{convention}' (known: {', '.join(_CONVENTIONS)})")
    pts = winograd_points(m, r, points)
    at, g, bt = _winograd_exact(int(m), int(r), pts, convention)
    return tuple(np.array(x, dtype=object) for x in (at, g, bt))


def winograd_matrices(m: int, r: int, points=None, *, convention: str = "lavin"):
    """``(AT, G, BT)`` of F(m, r) as float64 arrays: `winograd_matrices_exact` rounded once each."""
    return tuple(np.array(x, dtype=np.float64)
                 for x in winograd_matrices_exact(m, r, points, convention=convention))


def winograd_tiles(out_size: int, m: int, r: int) -> tuple[int, int]:
    """Per axis: ``(tiles, in_extent)`` = ``(ceil(O / m), tiles*m + r - 1)``.

    Output tile ``t`` covers outputs ``t*m .. t*m + m - 1`` and reads padded input
    ``t*m .. t*m + m + r - 2`` (tiles overlap by the ``r - 1`` halo). The last tile may run past
    ``O``: the padded input is zero-extended to ``in_extent`` and the extra outputs are cropped.
    """
    tiles = -(-out_size // m)
    return tiles, tiles * m + r - 1


# ----------------------------------------------------------------------------------------------
# Index maps
# ----------------------------------------------------------------------------------------------

def im2col_indices(in_spatial: IntSeq, kernel: IntSeq, strides=1, pads_l=0, pads_r=0,
                   dilations=0) -> tuple[np.ndarray, ...]:
    """Per spatial axis, the int64 table ``pos[o, k] = o*s + k*(d+1) - pl`` of shape ``(O, K)``.

    This is the im2col access as an affine map -- ``(o, k) -> s*o + (d+1)*k - pl`` in input
    coordinates, or ``s*o + (d+1)*k`` into the padded input -- tabulated. A tap is real iff
    ``0 <= pos < I`` on every axis; otherwise it reads padding (zero). Axes are independent, so the
    n-D table is the outer combination of these (that combination, flattened, is
    `indirect_offsets`).
    """
    in_sp = tuple(int(v) for v in in_spatial)
    k_sp = tuple(int(v) for v in kernel)
    if len(k_sp) != len(in_sp):
        raise ProblemError(f"kernel={list(k_sp)} and in_spatial={list(in_sp)} differ in rank")
    st, pl, _, dl, out = _spatial_params(in_sp, k_sp, strides, pads_l, pads_r, dilations)
    return tuple(np.arange(o)[:, None] * s + np.arange(k)[None, :] * (d + 1) - l
                 for o, k, s, l, d in zip(out, k_sp, st, pl, dl))


def _axis_placed(arr2d: np.ndarray, axis: int, nsp: int) -> np.ndarray:
    """Reshape a per-axis ``(O_a, K_a)`` table to broadcast over ``(*O, *K)``."""
    shape = [1] * (2 * nsp)
    shape[axis], shape[nsp + axis] = arr2d.shape
    return arr2d.reshape(shape)


def indirect_offsets(in_spatial: IntSeq, kernel: IntSeq, strides=1, pads_l=0, pads_r=0,
                     dilations=0) -> np.ndarray:
    """QNNPACK/XNNPACK indirection buffer as indices: int32 ``(Ovol, Kvol)``.

    Row ``o`` (output pixels flattened row-major over ``(OD, OH, OW)``), column ``k`` (taps flattened
    row-major over ``(KD, KH, KW)``) holds the flattened input pixel ``ravel(pos)`` with
    ``pos = o*s + k*(d+1) - pl`` per axis, or ``Ivol`` -- the index of one extra all-zero pixel row
    appended after the input -- when any axis of ``pos`` is outside ``[0, I)``. The kernel then
    gathers ``IC``-long channel vectors ``src_flat[:, :, offsets]`` instead of copying an im2col
    matrix, and padding costs nothing (XNNPACK points padding taps at a zero buffer the same way).
    """
    in_sp = tuple(int(v) for v in in_spatial)
    maps = im2col_indices(in_sp, kernel, strides, pads_l, pads_r, dilations)
    ivol = math.prod(in_sp)
    if ivol > np.iinfo(np.int32).max:
        raise UnsupportedError(f"indirect_offsets: input volume {ivol} does not fit int32 indices")
    nsp = len(in_sp)
    flat = np.zeros((1,) * (2 * nsp), dtype=np.int64)
    valid = np.ones((1,) * (2 * nsp), dtype=bool)
    pitch = 1
    for axis in reversed(range(nsp)):
        pos = _axis_placed(maps[axis], axis, nsp)
        valid = valid & (pos >= 0) & (pos < in_sp[axis])
        flat = flat + pos * pitch
        pitch *= in_sp[axis]
    table = np.where(valid, flat, ivol)
    out_vol = math.prod(m.shape[0] for m in maps)
    return table.reshape(out_vol, -1).astype(np.int32)
