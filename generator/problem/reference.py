"""The float64 convolution reference: `conv_reference`, written from oneDNN's formula.

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

"""
from __future__ import annotations

import math
from typing import NamedTuple, Sequence

import numpy as np

from ..errors import ProblemError
from .geometry import kernel_extent, output_size

__all__ = ["conv_reference", "pad_spatial"]

IntSeq = Sequence[int]


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
    # no output unless the padded input holds the whole kernel (then C and floor division agree)
    out = tuple(output_size(i, k, s, l, r, d) if i + l + r >= kernel_extent(k, d) else 0
                for i, k, s, l, r, d in zip(in_sp, k_sp, st, pl, pr, dl))
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

_COLS_BYTES = 256 << 20          # the reference's im2col slab (float64 columns of part of one image)


def conv_reference(src, wei, bia=None, *, groups: int = 1, strides=1, pads_l=0, pads_r=0,
                   dilations=0, post_relu: bool = False) -> np.ndarray:
    """Float64 forward convolution (cross-correlation, as in every DL framework), 1D/2D/3D::

        dst[n, g*OCg+p, o...] = bia[g*OCg+p]
            + sum_{c < ICg, k...} wei[g*OCg+p, c, k...] * src[n, g*ICg+c, o*s + k*(d+1) - pl ...]

    with out-of-range input positions reading 0, then ``max(0, .)`` if ``post_relu``.

    How: the input is padded once (`pad_spatial`); an ``as_strided`` view exposes the im2col
    windows ``P[n, g, c, o..., k...] = padded[n, g*ICg+c, o*s + k*(d+1) ...]`` without copying, and
    one batched matmul per image contracts ``(G, OCg, ICg*Kvol) @ (G, ICg*Kvol, Ovol)``. Only a slab
    of one image's columns (at most 256 MB) is materialized at a time, so ResNet-50 layers take
    milliseconds and 3D U-Net layers fit in memory.
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
    # the columns of one image are materialized in slabs of the first output axis, at most
    # _COLS_BYTES each: a 3D U-Net layer's would take 13 GB at once (ic32 k3x3x3, 112x128x128 outputs)
    o0 = geom.out_sp[0] if nsp else 1
    row = ovol // max(o0, 1)
    rows = max(1, min(o0, _COLS_BYTES // max(1, 8 * geom.g * geom.icg * math.prod(geom.k_sp) * row)))
    for n in range(geom.n):
        for r0 in range(0, o0, rows):
            r1 = min(o0, r0 + rows)
            cols = view[n][:, :, r0:r1].transpose(perm).reshape(geom.g, -1, (r1 - r0) * row)
            np.matmul(w, cols, out=out[n][:, :, r0 * row:r1 * row])
    return _finish(out.reshape((geom.n, geom.oc) + geom.out_sp), bia, post_relu)
