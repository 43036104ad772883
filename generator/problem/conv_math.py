"""Shape-only convolution math: float64 references and the index tables conv kernels are built from.

Everything here is pure NumPy (no MLIR, no IREE): the emitters turn these tables into constants and
affine maps, and the tests check each of them against an independent direct convolution.

Conventions (oneDNN's, in PyTorch's logical layouts)
----------------------------------------------------
* ``src`` is ``(N, IC, [D,] H, W)``, ``wei`` is ``(OC, IC/G, [KD,] KH, KW)``, ``bia`` is ``(OC,)`` and
  ``dst`` is ``(N, OC, [OD,] OH, OW)``; 1D, 2D and 3D are the same code with 1, 2 or 3 spatial axes.
  Output channel ``oc`` belongs to group ``g = oc // (OC/G)`` and reads input channels
  ``g*ICg .. (g+1)*ICg - 1``; depthwise is ``G = IC = OC`` (``ICg = OCg = 1``).
* Dilation ``d`` counts the *gaps* between taps (``d = 0`` is a dense kernel, taps are ``d+1`` apart);
  PyTorch's ``dilation`` is ``d + 1``.
* Per spatial axis, output ``o`` and tap ``k`` read input position::

      i = o*s + k*(d+1) - pl                                  (0 <= i < I, else the tap reads 0)

  and the output size is ``O = (I - ((K-1)*(d+1)+1) + pl + pr) // s + 1``. Padding may be negative:
  a negative ``pl`` skips the first ``-pl`` input elements, a negative ``pr`` never reads the last
  ``-pr`` (the same formula covers both; nothing else changes). ``pr`` only enters through ``O``.
* "Padded coordinates" are ``p = i + pl``: the input padded (or cropped) by `pad_spatial` to length
  ``I + pl + pr``, in which output ``o`` reads ``p = o*s + k*(d+1)`` -- the form a linalg conv or an
  im2col affine map uses once the padding is materialized.

Contents: the direct reference (`conv_reference`, im2col by stride tricks + grouped matmul), output
size helpers, Winograd F(m, r) matrices built exactly from interpolation points plus a tiled
Winograd convolution (`winograd_conv_reference`), the QNNPACK/XNNPACK indirection table
(`indirect_offsets`), im2col index maps and columns, the 1x1-as-GEMM case and spatial packing with
halos. Each ``*_reference`` returns float64 and follows the blueprint its kernel is meant to follow,
so the shape-only pieces are exercised end to end.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import NamedTuple, Sequence

import numpy as np

from ..errors import ProblemError, UnsupportedError

__all__ = [
    "output_size", "effective_kernel", "input_extent", "right_pad", "pad_spatial",
    "conv_reference", "conv1x1_reference",
    "DEFAULT_WINOGRAD_POINTS", "winograd_points", "winograd_matrices_exact", "winograd_matrices",
    "winograd_tiles", "winograd_conv_reference",
    "indirect_offsets", "indirect_conv_reference",
    "im2col_indices", "im2col", "im2col_conv_reference",
    "spatial_pack_tiles", "spatial_pack_input", "spatial_pack_conv_reference",
]

IntSeq = Sequence[int]


# ----------------------------------------------------------------------------------------------
# Output size and its inverses
# ----------------------------------------------------------------------------------------------

def effective_kernel(k: int, d: int) -> int:
    """Span of a dilated kernel: ``(k-1)*(d+1) + 1`` input elements from first to last tap."""
    return (k - 1) * (d + 1) + 1


def output_size(i: int, k: int, s: int, pl: int, pr: int, d: int) -> int:
    """``O = (I - ((K-1)*(d+1)+1) + pl + pr) // s + 1`` (oneDNN dilation: ``d = 0`` is dense).

    The last output must start a full kernel span inside the padded input of length ``I + pl + pr``;
    outputs start every ``s`` elements, hence the floor division. The raw value is returned: ``<= 0``
    means no output fits (the references reject such problems). This is floor division; oneDNN's
    check uses C division (toward zero), which differs only when the numerator is negative, i.e.
    only for problems where the kernel span does not fit the padded input at all.
    """
    if s < 1 or d < 0 or k < 1:
        raise ProblemError(f"output_size: need stride >= 1, dilation >= 0, kernel >= 1; "
                           f"got s={s} d={d} k={k}")
    return (i - effective_kernel(k, d) + pl + pr) // s + 1


def input_extent(o: int, k: int, s: int, d: int) -> int:
    """Padded-input span read by ``o`` consecutive outputs: ``(o-1)*s + (k-1)*(d+1) + 1`` (0 if o=0).

    This is the halo'd tile size of spatial packing and of im2col windows; for ``o`` outputs of a
    Winograd tile it is ``m + r - 1``.
    """
    return 0 if o <= 0 else (o - 1) * s + effective_kernel(k, d)


def right_pad(i: int, o: int, k: int, s: int, pl: int, d: int) -> int:
    """The smallest ``pr`` that gives exactly ``o`` outputs: ``(o-1)*s + (k-1)*(d+1) + 1 - i - pl``.

    This is how benchdnn completes a problem given by its output size; any ``pr`` in
    ``[right_pad, right_pad + s - 1]`` gives the same ``o``.
    """
    return input_extent(o, k, s, d) - i - pl


# ----------------------------------------------------------------------------------------------
# Problem geometry and shared plumbing
# ----------------------------------------------------------------------------------------------

class _Geom(NamedTuple):
    n: int
    g: int
    ic: int
    oc: int
    icg: int
    ocg: int
    in_sp: tuple[int, ...]
    k_sp: tuple[int, ...]
    out_sp: tuple[int, ...]
    strides: tuple[int, ...]
    pads_l: tuple[int, ...]
    pads_r: tuple[int, ...]
    dil: tuple[int, ...]


def _per_axis(name: str, value, nsp: int) -> tuple[int, ...]:
    """An int broadcast to every spatial axis, or a sequence of exactly ``nsp`` ints."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * nsp
    vals = tuple(int(v) for v in value)
    if len(vals) != nsp:
        raise ProblemError(f"{name}={list(vals)} has {len(vals)} entries; the problem has {nsp} "
                           f"spatial dims")
    return vals


def _spatial_params(in_sp: IntSeq, k_sp: IntSeq, strides, pads_l, pads_r, dilations):
    nsp = len(in_sp)
    st = _per_axis("strides", strides, nsp)
    pl = _per_axis("pads_l", pads_l, nsp)
    pr = _per_axis("pads_r", pads_r, nsp)
    dl = _per_axis("dilations", dilations, nsp)
    if any(s < 1 for s in st):
        raise ProblemError(f"strides={list(st)}: every stride must be >= 1")
    if any(d < 0 for d in dl):
        raise ProblemError(f"dilations={list(dl)}: oneDNN dilation must be >= 0 (0 = dense)")
    if any(k < 1 for k in k_sp):
        raise ProblemError(f"kernel={list(k_sp)}: every kernel dim must be >= 1")
    out = tuple(output_size(*a) for a in zip(in_sp, k_sp, st, pl, pr, dl))
    if any(o < 1 for o in out):
        raise ProblemError(f"output size {list(out)} is not positive for input {list(in_sp)}, kernel "
                           f"{list(k_sp)}, strides {list(st)}, pads {list(pl)}/{list(pr)}, "
                           f"dilations {list(dl)}")
    return st, pl, pr, dl, out


def _geometry(src_shape, wei_shape, bia, groups, strides, pads_l, pads_r, dilations) -> _Geom:
    if not 3 <= len(src_shape) <= 5:
        raise ProblemError(f"src shape {tuple(src_shape)}: expected (N, IC, [D,] [H,] W), 1 to 3 "
                           f"spatial dims")
    if len(wei_shape) != len(src_shape):
        raise ProblemError(f"wei shape {tuple(wei_shape)} has rank {len(wei_shape)}; src "
                           f"{tuple(src_shape)} needs rank {len(src_shape)} (OC, IC/G, [KD,] [KH,] KW)")
    g = int(groups)
    n, ic, *in_sp = (int(v) for v in src_shape)
    oc, icg, *k_sp = (int(v) for v in wei_shape)
    if g < 1 or ic % g or oc % g:
        raise ProblemError(f"groups={g} must be >= 1 and divide IC={ic} and OC={oc}")
    if icg != ic // g:
        raise ProblemError(f"wei shape {tuple(wei_shape)}: dim 1 is {icg}, expected IC/G = {ic // g}")
    if bia is not None and tuple(np.shape(bia)) != (oc,):
        raise ProblemError(f"bia shape {tuple(np.shape(bia))}: expected ({oc},)")
    st, pl, pr, dl, out = _spatial_params(in_sp, k_sp, strides, pads_l, pads_r, dilations)
    return _Geom(n, g, ic, oc, icg, oc // g, tuple(in_sp), tuple(k_sp), out, st, pl, pr, dl)


def _finish(out: np.ndarray, bia, post_relu: bool) -> np.ndarray:
    """dst = relu?(conv + bia): bias broadcast along OC, then the optional ReLU post-op."""
    if bia is not None:
        out += np.asarray(bia, dtype=np.float64).reshape((1, -1) + (1,) * (out.ndim - 2))
    if post_relu:
        np.maximum(out, 0.0, out=out)
    return out


def _grouped_weights(wei: np.ndarray, geom: _Geom) -> np.ndarray:
    """``(OC, ICg, *K) -> (G, OCg, ICg*Kvol)``: rows ordered (ic, taps...) like im2col columns."""
    return np.asarray(wei, dtype=np.float64).reshape(geom.g, geom.ocg, -1)


def pad_spatial(x: np.ndarray, pads_l: IntSeq, pads_r: IntSeq) -> np.ndarray:
    """Pad (or crop, for negative pads) the spatial axes of ``(N, C, *S)`` with zeros.

    ``out[..., p] = x[..., p - pl]`` when ``0 <= p - pl < I``, else 0, for ``0 <= p < I + pl + pr``.
    Written as one formula (not "crop, then pad") because a crop can exceed the input: with
    ``I = 3, pl = -5, pr = 10`` every element of the length-8 result is padding.
    """
    x = np.asarray(x)
    nsp = x.ndim - 2
    pl = _per_axis("pads_l", pads_l, nsp)
    pr = _per_axis("pads_r", pads_r, nsp)
    in_sp = x.shape[2:]
    out_sp = tuple(i + l + r for i, l, r in zip(in_sp, pl, pr))
    if any(e < 0 for e in out_sp):
        raise ProblemError(f"pads {list(pl)}/{list(pr)} crop input {list(in_sp)} to a negative size")
    out = np.zeros(x.shape[:2] + out_sp, dtype=x.dtype)
    dst, src = [slice(None)] * 2, [slice(None)] * 2
    for i, l, e in zip(in_sp, pl, out_sp):
        p0, p1 = max(0, l), min(e, i + l)
        if p1 <= p0:
            return out
        dst.append(slice(p0, p1))
        src.append(slice(p0 - l, p1 - l))
    out[tuple(dst)] = x[tuple(src)]
    return out


# ----------------------------------------------------------------------------------------------
# Direct reference
# ----------------------------------------------------------------------------------------------

def conv_reference(src, wei, bia=None, *, groups: int = 1, strides=1, pads_l=0, pads_r=0,
                   dilations=0, post_relu: bool = False) -> np.ndarray:
    """Float64 forward convolution (cross-correlation, as in every DL framework), 1D/2D/3D::

        dst[n, g*OCg+p, o...] = bia[g*OCg+p]
            + sum_{c < ICg, k...} wei[g*OCg+p, c, k...] * src[n, g*ICg+c, o*s + k*(d+1) - pl ...]

    with out-of-range input positions reading 0, then ``max(0, .)`` if ``post_relu``.

    How: the input is padded once (`pad_spatial`); an ``as_strided`` view exposes the im2col
    windows ``P[n, g, c, o..., k...] = padded[n, g*ICg+c, o*s + k*(d+1) ...]`` without copying, and
    one batched matmul per image contracts ``(G, OCg, ICg*Kvol) @ (G, ICg*Kvol, Ovol)``. Only one
    image's columns are materialized at a time, so ResNet-50 layers take milliseconds.
    Arguments ``strides``, ``pads_*`` and ``dilations`` are per spatial axis (an int means all).
    """
    src = np.asarray(src, dtype=np.float64)
    geom = _geometry(src.shape, np.shape(wei), bia, groups, strides, pads_l, pads_r, dilations)
    nsp = len(geom.in_sp)
    padded = pad_spatial(src, geom.pads_l, geom.pads_r)        # C-contiguous, fresh
    sn, sc, *ssp = padded.strides
    view = np.lib.stride_tricks.as_strided(
        padded,
        shape=(geom.n, geom.g, geom.icg) + geom.out_sp + geom.k_sp,
        strides=(sn, sc * geom.icg, sc) + tuple(x * s for x, s in zip(ssp, geom.strides))
        + tuple(x * (d + 1) for x, d in zip(ssp, geom.dil)),
        writeable=False)
    w = _grouped_weights(wei, geom)
    ovol = math.prod(geom.out_sp)
    # (G, ICg, O..., K...) -> (G, ICg, K..., O...) so the rows match w's (ic, taps) order
    perm = (0, 1) + tuple(range(2 + nsp, 2 + 2 * nsp)) + tuple(range(2, 2 + nsp))
    out = np.empty((geom.n, geom.g, geom.ocg, ovol))
    for n in range(geom.n):
        cols = view[n].transpose(perm).reshape(geom.g, -1, ovol)
        np.matmul(w, cols, out=out[n])
    return _finish(out.reshape((geom.n, geom.oc) + geom.out_sp), bia, post_relu)


def conv1x1_reference(src, wei, bia=None, *, groups: int = 1, strides=1,
                      post_relu: bool = False) -> np.ndarray:
    """A 1x1 (pointwise) convolution with zero padding is a plain GEMM; stride folds into the read.

    With ``K = 1`` and no padding, output ``o`` reads input ``o*s`` only (dilation is irrelevant),
    so ``src[:, :, ::s, ::s]`` *is* the im2col matrix and::

        dst[n, g, :, :] = wei[g] (OCg x ICg) @ src[n, g, :, ::s...] (ICg x Ovol)

    ``O = (I - 1) // s + 1`` = ``len(range(0, I, s))``. Padded 1x1 convs go through the general
    references.
    """
    src = np.asarray(src, dtype=np.float64)
    geom = _geometry(src.shape, np.shape(wei), bia, groups, strides, 0, 0, 0)
    if any(k != 1 for k in geom.k_sp):
        raise UnsupportedError(f"conv1x1_reference: kernel {list(geom.k_sp)} is not all ones")
    x = src[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in geom.strides)]
    x = x.reshape(geom.n, geom.g, geom.icg, -1)
    out = np.matmul(_grouped_weights(wei, geom), x)        # (G,OCg,ICg) @ (N,G,ICg,Ovol)
    return _finish(out.reshape((geom.n, geom.oc) + geom.out_sp), bia, post_relu)


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


def winograd_conv_reference(src, wei, bia=None, *, m: int, groups: int = 1, strides=1, pads_l=0,
                            pads_r=0, dilations=0, post_relu: bool = False, points=None,
                            convention: str = "lavin") -> np.ndarray:
    """2D stride-1 undilated convolution by Winograd F(m x m, KH x KW), float64; the MLIR blueprint.

    Steps (``aH = m + KH - 1``, ``aW = m + KW - 1``; the transforms of each axis are built for its
    own kernel size, so 3x5 kernels work; AT_h/G_h/BT_h from F(m, KH), AT_w/G_w/BT_w from F(m, KW)):

    1. ``OH, OW`` by `output_size`; ``TH, TW = winograd_tiles``.
    2. Pad the input with ``pads_l/pads_r`` (`pad_spatial`, negative = crop), then zero-extend
       the bottom/right to ``TH*m + KH - 1`` x ``TW*m + KW - 1``.
    3. Input tiles, overlapping by the halo: ``d[n, c, th, tw, a, b] = P[n, c, th*m + a, tw*m + b]``.
    4. Filter transform (weights only, precomputable): ``U[xi, nu, oc, c] = (G_h g G_w^T)[xi, nu]``.
    5. Input transform: ``V[xi, nu, n, c, th, tw] = (BT_h d BT_w^T)[xi, nu]``.
    6. For each ``(xi, nu)`` and group: ``M = U[xi, nu, g] (OCg x ICg) @ V[xi, nu, g] (ICg x N*TH*TW)``
       -- ``aH*aW*G`` independent GEMMs (the point of the method: the channel reduction is a matmul).
    7. Inverse: ``Y[n, oc, th, tw] = AT_h M[.., n, oc, th, tw] AT_w^T`` (m x m), written to
       ``dst[n, oc, th*m + i, tw*m + j]``; crop to ``OH x OW``; bias; ReLU.

    ``strides`` and ``dilations`` are accepted only so the signature matches the other references:
    anything but stride 1 / dilation 0 raises `UnsupportedError`.
    """
    src = np.asarray(src, dtype=np.float64)
    wei = np.asarray(wei, dtype=np.float64)
    geom = _geometry(src.shape, wei.shape, bia, groups, strides, pads_l, pads_r, dilations)
    if len(geom.in_sp) != 2:
        raise UnsupportedError(f"winograd_conv_reference is 2D only; got {len(geom.in_sp)} spatial dims")
    if any(s != 1 for s in geom.strides) or any(d != 0 for d in geom.dil):
        raise UnsupportedError(f"Winograd needs stride 1 and dilation 0; got strides "
                               f"{list(geom.strides)}, dilations {list(geom.dil)}")
    (kh, kw), (oh, ow) = geom.k_sp, geom.out_sp
    if points is not None and kh != kw:
        raise UnsupportedError(f"winograd_conv_reference: custom points need a square kernel; got "
                               f"{kh}x{kw}")
    at_h, g_h, bt_h = winograd_matrices(m, kh, points, convention=convention)
    at_w, g_w, bt_w = winograd_matrices(m, kw, points, convention=convention)
    th, ext_h = winograd_tiles(oh, m, kh)
    tw, ext_w = winograd_tiles(ow, m, kw)
    ah, aw = m + kh - 1, m + kw - 1
    # 2. pad to the conv's padded extent, then zero-extend the tail to the tile grid
    padded = pad_spatial(src, geom.pads_l, geom.pads_r)
    padded = np.pad(padded, ((0, 0), (0, 0), (0, ext_h - padded.shape[2]), (0, ext_w - padded.shape[3])))
    # 3. overlapping input tiles (N, C, TH, TW, aH, aW)
    sn, sc, sh, sw = padded.strides
    d = np.lib.stride_tricks.as_strided(padded, shape=(geom.n, geom.ic, th, tw, ah, aw),
                                        strides=(sn, sc, sh * m, sw * m, sh, sw), writeable=False)
    # 4. filter transform (aH, aW, OC, ICg) -> (aH*aW, G, OCg, ICg)
    u = np.tensordot(np.tensordot(g_h, wei, axes=([1], [2])), g_w, axes=([3], [1]))  # (x,OC,ICg,y)
    u = u.transpose(0, 3, 1, 2).reshape(ah * aw, geom.g, geom.ocg, geom.icg)
    # 5. input transform (aH, aW, N, C, TH, TW) -> (aH*aW, G, ICg, N*TH*TW)
    v = np.tensordot(np.tensordot(bt_h, d, axes=([1], [4])), bt_w, axes=([5], [1]))  # (x,N,C,TH,TW,y)
    v = v.transpose(0, 5, 1, 2, 3, 4)
    v = v.reshape(ah * aw, geom.n, geom.g, geom.icg, th * tw).transpose(0, 2, 3, 1, 4)
    v = v.reshape(ah * aw, geom.g, geom.icg, geom.n * th * tw)
    # 6. one GEMM per (xi, nu) and group
    mm = np.matmul(u, v)                                              # (aH*aW, G, OCg, N*TH*TW)
    mm = mm.reshape(ah, aw, geom.oc, geom.n, th, tw)
    # 7. inverse transform, assemble tiles, crop
    y = np.tensordot(np.tensordot(at_h, mm, axes=([1], [0])), at_w, axes=([1], [1]))  # (i,OC,N,TH,TW,j)
    y = y.transpose(2, 1, 3, 0, 4, 5)                                              # (N,OC,TH,i,TW,j)
    y = y.reshape(geom.n, geom.oc, th * m, tw * m)[:, :, :oh, :ow]
    return _finish(np.ascontiguousarray(y), bia, post_relu)


# ----------------------------------------------------------------------------------------------
# im2col index maps and the indirection buffer
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


def indirect_conv_reference(src, wei, bia=None, *, groups: int = 1, strides=1, pads_l=0, pads_r=0,
                            dilations=0, post_relu: bool = False) -> np.ndarray:
    """Convolution through the indirection table: gather pixels, then a grouped GEMM.

    ``X = concat(src.reshape(N, IC, Ivol), zeros(N, IC, 1))``; ``A = X[:, :, offsets]`` is
    ``(N, IC, Ovol, Kvol)``; ``dst[n, g*OCg+p, o] = sum_{c,k} wei[g*OCg+p, c, k] A[n, g*ICg+c, o, k]``.
    """
    src = np.asarray(src, dtype=np.float64)
    geom = _geometry(src.shape, np.shape(wei), bia, groups, strides, pads_l, pads_r, dilations)
    offs = indirect_offsets(geom.in_sp, geom.k_sp, geom.strides, geom.pads_l, geom.pads_r, geom.dil)
    x = src.reshape(geom.n, geom.ic, -1)
    x = np.concatenate([x, np.zeros((geom.n, geom.ic, 1))], axis=2)
    a = x[:, :, offs].reshape(geom.n, geom.g, geom.icg, offs.shape[0], offs.shape[1])
    w = np.asarray(wei, dtype=np.float64).reshape(geom.g, geom.ocg, geom.icg, -1)
    out = np.einsum("gpck,ngcok->ngpo", w, a, optimize=True)
    return _finish(out.reshape((geom.n, geom.oc) + geom.out_sp), bia, post_relu)


def im2col(src, kernel: IntSeq, strides=1, pads_l=0, pads_r=0, dilations=0) -> np.ndarray:
    """The im2col matrix ``(N, IC*Kvol, Ovol)``, rows ordered ``(ic, kd, kh, kw)``, float64.

    ``cols[n, (c, k...), (o...)] = src[n, c, pos(o, k)...]`` (0 where a position is outside the
    input), gathered axis by axis with the `im2col_indices` tables -- no padded copy of the input is
    made, the out-of-range taps are masked instead. Row order matches ``wei.reshape(OC, -1)``, so
    per group ``dst = wei_g @ cols_g``.
    """
    src = np.asarray(src, dtype=np.float64)
    nsp = src.ndim - 2
    in_sp = src.shape[2:]
    maps = im2col_indices(in_sp, kernel, strides, pads_l, pads_r, dilations)
    cols = src
    for axis, pos in enumerate(maps):            # axis `axis` sits at 2 + 2*axis after earlier takes
        where = 2 + 2 * axis
        valid = (pos >= 0) & (pos < in_sp[axis])
        cols = np.take(cols, np.clip(pos, 0, in_sp[axis] - 1), axis=where)
        mask_shape = [1] * cols.ndim
        mask_shape[where], mask_shape[where + 1] = pos.shape
        cols = cols * valid.reshape(mask_shape)
    # (N, C, O0, K0, O1, K1, ...) -> (N, C, K0, K1, ..., O0, O1, ...)
    perm = (0, 1) + tuple(3 + 2 * a for a in range(nsp)) + tuple(2 + 2 * a for a in range(nsp))
    cols = cols.transpose(perm)
    n, c = src.shape[:2]
    kvol = math.prod(m.shape[1] for m in maps)
    return cols.reshape(n, c * kvol, -1)


def im2col_conv_reference(src, wei, bia=None, *, groups: int = 1, strides=1, pads_l=0, pads_r=0,
                          dilations=0, post_relu: bool = False) -> np.ndarray:
    """Convolution as `im2col` + one GEMM per group (Caffe's method).

    ``cols = im2col(src)`` is ``(N, G, ICg*Kvol, Ovol)`` after splitting the rows by group, and
    ``dst[n, g] = wei.reshape(G, OCg, ICg*Kvol)[g] @ cols[n, g]``.
    """
    src = np.asarray(src, dtype=np.float64)
    geom = _geometry(src.shape, np.shape(wei), bia, groups, strides, pads_l, pads_r, dilations)
    cols = im2col(src, geom.k_sp, geom.strides, geom.pads_l, geom.pads_r, geom.dil)
    cols = cols.reshape(geom.n, geom.g, -1, cols.shape[-1])
    out = np.matmul(_grouped_weights(wei, geom), cols)
    return _finish(out.reshape((geom.n, geom.oc) + geom.out_sp), bia, post_relu)


# ----------------------------------------------------------------------------------------------
# Spatial pack
# ----------------------------------------------------------------------------------------------

def _tiles(tile, out_sp):
    tl = _per_axis("tile", tile, len(out_sp))
    if any(t < 1 for t in tl):
        raise ProblemError(f"tile={list(tl)}: every tile size must be >= 1")
    return tuple(min(t, o) for t, o in zip(tl, out_sp))


def spatial_pack_tiles(out_spatial: IntSeq, tile, *, kernel: IntSeq, strides=1, pads_l=0,
                       dilations=0) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per axis, the tiles ``(out_start, out_size, in_start, in_size)`` of a spatial-pack split.

    Outputs are cut into tiles of ``tile`` (clamped to ``O``; the last one is the tail,
    ``out_size = O - out_start``). Tile outputs ``[o0, o0 + t)`` read input positions
    ``[o0*s - pl, o0*s - pl + in_size)`` with ``in_size = input_extent(t) = (t-1)*s + (K-1)*(d+1) + 1``:
    the tile's own ``t*s`` elements plus a halo shared with its neighbour (``in_size - t*s``, which
    is ``K - 1`` at stride 1). ``in_start`` is in input coordinates, so it is negative in the
    left padding, and ``in_start + in_size`` may pass ``I`` in the right padding: those positions
    are zero-filled when packing. The n-D tiles are the cartesian product of the axes.
    """
    out_sp = tuple(int(v) for v in out_spatial)
    nsp = len(out_sp)
    k_sp = _per_axis("kernel", kernel, nsp)
    st = _per_axis("strides", strides, nsp)
    pl = _per_axis("pads_l", pads_l, nsp)
    dl = _per_axis("dilations", dilations, nsp)
    tl = _tiles(tile, out_sp)
    axes = []
    for o, t, k, s, l, d in zip(out_sp, tl, k_sp, st, pl, dl):
        axes.append(tuple((o0, min(t, o - o0), o0 * s - l, input_extent(min(t, o - o0), k, s, d))
                          for o0 in range(0, o, t)))
    return tuple(axes)


def spatial_pack_input(src, tile, *, kernel: IntSeq, strides=1, pads_l=0, pads_r=0,
                       dilations=0) -> np.ndarray:
    """Packed input tiles with halos, uniform size: ``(N, IC, *T, *in_tile)``, float64.

    ``T = ceil(O / tile)`` per axis and ``in_tile = input_extent(tile)``. Entry
    ``[n, c, t..., j...] = src[n, c, t*tile*s - pl + j ...]`` when that position is inside the
    conv's padded window (``0 <= pos < min(I, I + pr)``) and 0 otherwise: left/right padding and the
    tail tile's overrun both become zeros in the buffer (the kernel then runs an unpadded conv per
    tile and crops the tail). With ``tile = 1`` and ``d = 0`` this is exactly im2col.
    """
    src = np.asarray(src, dtype=np.float64)
    nsp = src.ndim - 2
    in_sp = src.shape[2:]
    k_sp = _per_axis("kernel", kernel, nsp)
    st, pl, pr, dl, out = _spatial_params(in_sp, k_sp, strides, pads_l, pads_r, dilations)
    tl = _tiles(tile, out)
    packed = src
    for axis in range(nsp):
        ntiles = -(-out[axis] // tl[axis])
        ext = input_extent(tl[axis], k_sp[axis], st[axis], dl[axis])
        pos = (np.arange(ntiles)[:, None] * (tl[axis] * st[axis]) - pl[axis]
               + np.arange(ext)[None, :])
        valid = (pos >= 0) & (pos < min(in_sp[axis], in_sp[axis] + pr[axis]))
        where = 2 + 2 * axis
        packed = np.take(packed, np.clip(pos, 0, in_sp[axis] - 1), axis=where)
        mask_shape = [1] * packed.ndim
        mask_shape[where], mask_shape[where + 1] = pos.shape
        packed = packed * valid.reshape(mask_shape)
    perm = (0, 1) + tuple(2 + 2 * a for a in range(nsp)) + tuple(3 + 2 * a for a in range(nsp))
    return np.ascontiguousarray(packed.transpose(perm))


def spatial_pack_conv_reference(src, wei, bia=None, *, tile, groups: int = 1, strides=1, pads_l=0,
                                pads_r=0, dilations=0, post_relu: bool = False) -> np.ndarray:
    """Convolution by spatial packing: pack halo'd tiles, convolve each unpadded, unpack, crop.

    1. ``packed = spatial_pack_input(src)``: ``(N, IC, *T, *in_tile)``;
    2. tiles go to the batch dim: ``(N*Tvol, IC, *in_tile)``; a valid (unpadded) conv with the same
       stride and dilation gives ``(N*Tvol, OC, *tile)`` -- every tile is the same small problem;
    3. ``dst[n, oc, t*tile + i ...] = tile_out[n, t..., oc, i...]``, cropped to ``O`` (the tail tile's
       extra outputs read only packing zeros and are dropped); bias; ReLU.
    """
    src = np.asarray(src, dtype=np.float64)
    geom = _geometry(src.shape, np.shape(wei), bia, groups, strides, pads_l, pads_r, dilations)
    nsp = len(geom.in_sp)
    tl = _tiles(tile, geom.out_sp)
    packed = spatial_pack_input(src, tl, kernel=geom.k_sp, strides=geom.strides, pads_l=geom.pads_l,
                                pads_r=geom.pads_r, dilations=geom.dil)
    ntiles = packed.shape[2:2 + nsp]
    in_tile = packed.shape[2 + nsp:]
    batch = packed.reshape((geom.n, geom.ic, -1) + in_tile).swapaxes(1, 2)
    batch = batch.reshape((-1, geom.ic) + in_tile)
    tile_out = conv_reference(batch, wei, groups=geom.g, strides=geom.strides, pads_l=0, pads_r=0,
                              dilations=geom.dil)                  # (N*Tvol, OC, *tile)
    y = tile_out.reshape((geom.n,) + ntiles + (geom.oc,) + tl)
    # (N, T0.., OC, t0..) -> (N, OC, T0, t0, T1, t1, ...)
    perm = (0, 1 + nsp) + tuple(x for a in range(nsp) for x in (1 + a, 2 + nsp + a))
    y = y.transpose(perm).reshape((geom.n, geom.oc) + tuple(t * s for t, s in zip(ntiles, tl)))
    y = y[(slice(None), slice(None)) + tuple(slice(0, o) for o in geom.out_sp)]
    return _finish(np.ascontiguousarray(y), bia, post_relu)
