"""The GEMM-shaped variants: im2col (a column matrix, then a batched GEMM), indirect (QNNPACK's
indirection table read by the contraction) and spatial_pack (TVM's output tiles with their halos)."""
from __future__ import annotations

import math

import numpy as np

from ...problem.conv import ConvProblem
from ...problem.conv_math import indirect_offsets
from ...problem.geometry import kernel_extent
from ..relayout import Plan, Value
from ..target import TargetCaps
from .common import _barrier, _out_shape, _strided_pixels, _window_gather, _zp_tail_wrong


def _window(o: str, k: str, stride: int, dilation: int) -> str:
    return f"{o} * {stride} + {k} * {dilation}"


def _im2col_channels_last(p: ConvProblem, target: TargetCaps) -> bool:
    """A plain channels-last source (NHWC) keeps channels last: columns gathered as (N, O.., G, K.., IC/G)
    read whole channel runs, and the GEMM is (O, K.. IC) x (K.. IC, OC), the form IREE data-tiles (VNNI for
    s8); an NCHW-order gather costs a large share of the kernel (measured: docs/performance.md, Tuned
    constants)."""
    return not p.src.is_blocked and not p.dst.is_blocked and p.src.order[-1] == 1


def _gemm_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """(G, OC/G, IC/G, K...) -> (G, OC/G, IC/G * Kvol): the GEMM's left operand, rows in (ic, k) order;
    channels last: (G, Kvol * IC/G, OC/G), rows in (k, ic) order, the GEMM's right operand."""
    nsp = p.desc.ndims - 2
    if _im2col_channels_last(p, target):
        w = plan.transpose(w, [0] + list(range(3, 3 + nsp)) + [2, 1])
        return plan.collapse(w, [[0], list(range(1, 2 + nsp)), [2 + nsp]])
    return plan.collapse(w, [[0], [1], list(range(2, 3 + nsp))])


def _im2col_compute_cl(plan: Plan, x: Value, w: Value, p: ConvProblem) -> Value:
    """Channels last: x is (N, sp.., G, IC/G); returns (N, O.., G, OC/G)."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    odims = tuple(s.o for s in sp)
    if all(s.k == 1 for s in sp):
        if any(s.s != 1 for s in sp):
            x = _strided_pixels(plan, x, sp, 1)                                           # x: N, sp.., G, C/G
        cols = plan.collapse(x, [[0], list(range(1, 1 + nsp)), [1 + nsp], [2 + nsp]])       # (N, O, G, IC/G)
    else:
        kdims = tuple(s.k for s in sp)
        os_, ks = [f"o{i}" for i in range(nsp)], [f"k{i}" for i in range(nsp)]
        cols = _barrier(plan, _window_gather(
            plan, x, ["n"] + os_ + ["g"] + ks + ["ic"],
            ["n"] + [_window(o, k, s.s, s.d + 1) for o, k, s in zip(os_, ks, sp)] + ["g", "ic"],
            (d.mb,) + odims + (d.g,) + kdims + (d.ic // d.g,)))
        cols = plan.collapse(cols, [[0], list(range(1, 1 + nsp)), [1 + nsp], list(range(2 + nsp, 3 + 2 * nsp))])
    acc = plan.add("gemm_cl", cols, (d.mb, cols.shape[1], d.g, d.oc // d.g), p.acc.mlir, wei=w,
                   src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    return plan.expand(acc, [[0], list(range(1, 1 + nsp)), [1 + nsp], [2 + nsp]], (d.mb,) + odims + (d.g, d.oc // d.g))


def _im2col_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """im2col: gather the (IC/G, Kvol) x Ovol column matrix once, then one batched matmul per (n, g)."""
    if _im2col_channels_last(p, target):
        return _im2col_compute_cl(plan, x, w, p)
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    if all(s.k == 1 for s in sp):
        # 1x1: the GEMM reads the source directly, a stride's pixels copied first
        if any(s.s != 1 for s in sp):
            x = _strided_pixels(plan, x, sp, 3)                                           # x: N, G, C/G, sp..
        acc = plan.add("conv_1x1", x, _out_shape(p), p.acc.mlir, wei=w, strides=[1] * len(sp),
                       src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
        return acc
    kdims = tuple(s.k for s in sp)
    odims = tuple(s.o for s in sp)
    os_, ks = [f"o{i}" for i in range(nsp)], [f"k{i}" for i in range(nsp)]
    cols = _window_gather(plan, x, ["n", "g", "ic"] + ks + os_,
                          ["n", "g", "ic"] + [_window(o, k, s.s, s.d + 1) for o, k, s in zip(os_, ks, sp)],
                          (d.mb, d.g, d.ic // d.g) + kdims + odims)
    cols = plan.collapse(cols, [[0], [1], list(range(2, 3 + nsp)), list(range(3 + nsp, 3 + 2 * nsp))])
    acc = plan.add("gemm", cols, (d.mb, d.g, d.oc // d.g, cols.shape[3]), p.acc.mlir, wei=w,
                   src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    return plan.expand(acc, [[0], [1], [2], list(range(3, 3 + nsp))], _out_shape(p))


def _im2col_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    if target.grouped_gemm_fails and p.desc.g > 1:
        return ("IREE 3.13's inner-tiled data tiling (flag set dt+uk+inner) fails to compile its grouped GEMM "
                "('failed to legalize operation linalg.generic'): use another flag set or variant")
    return None


def _indirect_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """(G, OC/G, IC/G, K...) -> (G, OC/G, IC/G, Kvol): taps flattened like the indirection table's columns."""
    nsp = p.desc.ndims - 2
    return plan.collapse(w, [[0], [1], [2], list(range(3, 3 + nsp))])


def _indirect_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """QNNPACK's indirect convolution: an int32 table (output pixel, tap) -> input pixel, built from the
    shape alone (`conv_math.indirect_offsets`; padding taps point at one appended zero pixel), read by
    the contraction itself, so no column matrix is materialised. Stride, dilation and padding (negative
    too) all live in the table."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    table = indirect_offsets(tuple(s.i for s in sp), tuple(s.k for s in sp), tuple(s.s for s in sp),
                             tuple(s.p for s in sp), tuple(s.p_r for s in sp), tuple(s.d for s in sp))
    flat = plan.collapse(x, [[0], [1], [2], list(range(3, 3 + nsp))])
    flat = plan.pad(flat, [0, 0, 0, 1])                       # the zero pixel padding taps read
    tbl = plan.add("constant", None, table.shape, "i32", hex=np.ascontiguousarray(table, "<i4").tobytes().hex().upper())
    if not target.gather_in_contraction or (table.shape[1] == 1 and not target.gather_in_contraction_one_tap):
        # the table drives a separate gather into (IC/G, Kvol, O) columns and a GEMM reads them
        cols = plan.add("indirect_gather", flat, (d.mb, d.g, d.ic // d.g, table.shape[1], table.shape[0]),
                        flat.elem, table=tbl)
        cols = plan.collapse(cols, [[0], [1], [2, 3], [4]])
        acc = plan.add("gemm", cols, (d.mb, d.g, d.oc // d.g, table.shape[0]), p.acc.mlir,
                       wei=plan.collapse(w, [[0], [1], [2, 3]]), src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    else:
        acc = plan.add("indirect", flat, (d.mb, d.g, d.oc // d.g, table.shape[0]), p.acc.mlir, wei=w, table=tbl,
                       src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    return plan.expand(acc, [[0], [1], [2], list(range(3, 3 + nsp))], _out_shape(p))


def spatial_pack_tile(p: ConvProblem) -> tuple[int, ...]:
    """Output tile per spatial axis: H and W are tiled (4 x 8: a tile row is a vector-friendly 8 wide,
    and 4 rows reuse each input row (K-1)/4 times less often than one), D is left whole; clamped to O."""
    sp = p.desc.spatial()
    want = {1: (8,), 2: (4, 8), 3: (None, 4, 8)}[len(sp)]
    return tuple(s.o if t is None else min(t, s.o) for s, t in zip(sp, want))


def _spatial_pack_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """TVM-style spatial pack: the output is cut into tiles; each tile's input window (with its halo)
    is gathered into a contiguous block, and the tiles join the batch dim, so one small unpadded conv
    runs over (N * tiles) images; the tile outputs are then transposed back into place and cropped.

    The gathered tiles pass through util.optimization_barrier: when IREE fuses the gather and the
    tile conv into one dispatch, iree-compile 3.13 segfaults (inferConvolutionDims; docs/iree-notes.md, Defects)."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    tile = spatial_pack_tile(p)
    ntiles = tuple(-(-s.o // t) for s, t in zip(sp, tile))
    extent = tuple((t - 1) * s.s + kernel_extent(s.k, s.d) for s, t in zip(sp, tile))   # halo'd tile
    need = [(n - 1) * t * s.s + e for s, n, t, e in zip(sp, ntiles, tile, extent)]
    # zero tail so the last tile's window is whole (its extra outputs are cropped below)
    x = plan.pad(x, [0, 0, 0] + [max(n - have, 0) for n, have in zip(need, x.shape[3:])])
    icg, ocg = d.ic // d.g, d.oc // d.g
    # (n, T.., g, c, j..) <- x[n, g, c, T * tile * stride + j ..]: the tiles join the batch
    ts, js = [f"t{i}" for i in range(nsp)], [f"j{i}" for i in range(nsp)]
    tiles = _barrier(plan, _window_gather(
        plan, x, ["n"] + ts + ["g", "c"] + js,
        ["n", "g", "c"] + [f"{t_} * {t * s.s} + {j}" for t_, j, s, t in zip(ts, js, sp, tile)],
        (d.mb,) + ntiles + (d.g, icg) + extent))
    batch = d.mb * math.prod(ntiles)
    tiles = plan.collapse(tiles, [list(range(1 + nsp))] + [[k] for k in range(1 + nsp, 3 + 2 * nsp)])
    acc = plan.add("conv_direct", tiles, (batch, d.g, ocg) + tile, p.acc.mlir, wei=w, strides=[s.s for s in sp],
                   dilations=[s.d + 1 for s in sp], src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    acc = plan.expand(acc, [list(range(1 + nsp))] + [[k] for k in range(1 + nsp, 3 + 2 * nsp)],
                      (d.mb,) + ntiles + (d.g, ocg) + tile)
    # (N, T.., G, OCg, t..) -> (N, G, OCg, T0, t0, T1, t1, ..) -> (N, G, OCg, T0*t0, ..) -> crop
    perm = [0, 1 + nsp, 2 + nsp] + [v for a in range(nsp) for v in (1 + a, 3 + nsp + a)]
    y = plan.transpose(acc, perm)
    y = plan.collapse(y, [[0], [1], [2]] + [[3 + 2 * a, 4 + 2 * a] for a in range(nsp)])
    return plan.slice(y, [0] * (3 + nsp), _out_shape(p))


def _spatial_pack_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    """spatial_pack with a source or weight zero point where the target computes its compensation
    wrongly (TargetCaps.zp_compensation_wrong): with more than one image or group, or a destination
    blocked on channels with a partial last block. direct computes those in its generic form instead
    of its packed one (`render_conv`, `_zp_tail_wrong`), which is right there."""
    if not (target.zp_compensation_wrong and any(q.arg in ("src", "wei") for q in p.zero_points)):
        return None
    d = p.desc
    if d.mb >= 2 or d.g >= 2:
        return (f"with a source or weight zero point and more than one image or group, {target.name} computes "
                f"it wrongly: use --alg=direct, --alg=im2col or --alg=indirect")
    if _zp_tail_wrong(p, target):
        return (f"with a source or weight zero point and a destination blocked on channels with a partial last "
                f"block ({d.oc} of {p.dst.padded_dims[1]}), {target.name} computes it wrongly: use --alg=direct, "
                f"--alg=im2col or --alg=indirect")
    return None
