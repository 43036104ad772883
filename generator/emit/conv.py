"""Convolution kernels: the variant table and the shared plan around each variant's compute.

Every kernel module holds two functions:

* `<name>_prepare(wei_buf)`: reorders the weights once into the variant's compute layout
  (G, OC/G, IC/G, [KD,] [KH,] KW) in the weights' type;
* `<name>(src_buf, wei_prepared[, bias])`: source buffer -> logical tensor (relayout steps) ->
  spatial crop (negative padding) and zero pad -> grouped view -> the variant's compute ->
  epilogue (bias, ReLU, conversion to the destination type) -> destination buffer, padding zero.

Variants register in `VARIANTS`; each says whether it applies and plans its compute step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import UnsupportedError
from ..problem.convolution import ConvProblem
from . import relayout
from .relayout import Plan, Value
from .render import render

TEMPLATE = "conv.mlir.j2"


@dataclass(frozen=True)
class Variant:
    """One convolution algorithm: when it applies, how prepare lays the weights out, its compute step."""
    name: str
    applies: Callable[[ConvProblem], str | None]          # None, or the reason it does not apply
    weights: Callable[[Plan, Value, ConvProblem], Value]  # grouped logical weights -> prepared weights
    compute: Callable[[Plan, Value, Value, ConvProblem], Value]   # (padded grouped src, weights) -> acc
    doc: str
    # the variant handles spatial padding itself (its compute gets the unpadded, uncropped source)
    pads_in_compute: bool = False


def _always(p: ConvProblem) -> str | None:
    return None


def _grouped_weights(plan: Plan, w: Value, p: ConvProblem) -> Value:
    return w


def _out_shape(p: ConvProblem) -> tuple[int, ...]:
    d = p.desc
    return (d.mb, d.g, d.oc // d.g) + tuple(s.o for s in d.spatial())


def _direct_compute(plan: Plan, x: Value, w: Value, p: ConvProblem) -> Value:
    """Direct convolution as one linalg.generic over the grouped logical tensors."""
    sp = p.desc.spatial()
    return plan.add("conv_direct", x, _out_shape(p), p.acc.mlir, wei=w, strides=[s.s for s in sp],
                    dilations=[s.d + 1 for s in sp], src_dt=p.src.dtype, acc_dt=p.acc)


def _gemm_weights(plan: Plan, w: Value, p: ConvProblem) -> Value:
    """(G, OC/G, IC/G, K...) -> (G, OC/G, IC/G * Kvol): the GEMM's left operand, rows in (ic, k) order."""
    nsp = p.desc.ndims - 2
    return plan.collapse(w, [[0], [1], list(range(2, 3 + nsp))])


def _im2col_compute(plan: Plan, x: Value, w: Value, p: ConvProblem) -> Value:
    """im2col: gather the (IC/G, Kvol) x Ovol column matrix once, then one batched matmul per (n, g)."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    if all(s.k == 1 for s in sp):
        # 1x1: the GEMM reads the source directly, the stride folded into its access map (no copy)
        acc = plan.add("conv_1x1", x, _out_shape(p), p.acc.mlir, wei=w, strides=[s.s for s in sp],
                       src_dt=p.src.dtype, acc_dt=p.acc)
        return acc
    kdims = tuple(s.k for s in sp)
    odims = tuple(s.o for s in sp)
    cols = plan.add("im2col", x, (d.mb, d.g, d.ic // d.g) + kdims + odims, p.src.dtype.mlir,
                    strides=[s.s for s in sp], dilations=[s.d + 1 for s in sp])
    cols = plan.collapse(cols, [[0], [1], list(range(2, 3 + nsp)), list(range(3 + nsp, 3 + 2 * nsp))])
    acc = plan.add("gemm", cols, (d.mb, d.g, d.oc // d.g, cols.shape[3]), p.acc.mlir, wei=w,
                   src_dt=p.src.dtype, acc_dt=p.acc)
    return plan.expand(acc, [[0], [1], [2], list(range(3, 3 + nsp))], _out_shape(p))


def _indirect_weights(plan: Plan, w: Value, p: ConvProblem) -> Value:
    """(G, OC/G, IC/G, K...) -> (G, OC/G, IC/G, Kvol): taps flattened like the indirection table's columns."""
    nsp = p.desc.ndims - 2
    return plan.collapse(w, [[0], [1], [2], list(range(3, 3 + nsp))])


def _indirect_compute(plan: Plan, x: Value, w: Value, p: ConvProblem) -> Value:
    """QNNPACK's indirect convolution: an int32 table (output pixel, tap) -> input pixel, built from the
    shape alone (`conv_math.indirect_offsets`; padding taps point at one appended zero pixel), read by
    the contraction itself, so no column matrix is materialised. Stride, dilation and padding (negative
    too) all live in the table."""
    import numpy as np

    from ..problem.conv_math import indirect_offsets

    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    table = indirect_offsets(tuple(s.i for s in sp), tuple(s.k for s in sp), tuple(s.s for s in sp),
                             tuple(s.p for s in sp), tuple(s.p_r for s in sp), tuple(s.d for s in sp))
    flat = plan.collapse(x, [[0], [1], [2], list(range(3, 3 + nsp))])
    flat = plan.pad(flat, [0, 0, 0, 1])                       # the zero pixel padding taps read
    tbl = plan.add("constant", None, table.shape, "i32", hex=np.ascontiguousarray(table, "<i4").tobytes().hex().upper())
    acc = plan.add("indirect", flat, (d.mb, d.g, d.oc // d.g, table.shape[0]), p.acc.mlir, wei=w, table=tbl,
                   src_dt=p.src.dtype, acc_dt=p.acc)
    return plan.expand(acc, [[0], [1], [2], list(range(3, 3 + nsp))], _out_shape(p))


VARIANTS = {v.name: v for v in (
    Variant("direct", _always, _grouped_weights, _direct_compute,
            "one linalg.generic over the grouped logical tensors (any layout in and out)"),
    Variant("im2col", _always, _gemm_weights, _im2col_compute,
            "column matrix (IC/G*K, O) gathered once, then a batched GEMM; 1x1 reads the source directly"),
    Variant("indirect", _always, _indirect_weights, _indirect_compute,
            "int32 indirection table (output pixel, tap) -> input pixel read inside the contraction",
            pads_in_compute=True),
)}
PLANNED = ("winograd", "spatial_pack")


def variant(p: ConvProblem) -> Variant:
    if p.alg in VARIANTS:
        v = VARIANTS[p.alg]
        why = v.applies(p)
        if why:
            raise UnsupportedError(f"--alg={p.alg} does not apply: {why}")
        return v
    if p.alg in PLANNED or p.alg == "auto":
        raise UnsupportedError(f"--alg={p.alg} is not implemented yet (implemented: {', '.join(VARIANTS)})")
    raise UnsupportedError(f"unknown algorithm '{p.alg}' (known: {', '.join((*VARIANTS, *PLANNED, 'auto'))})")


def render_conv(p: ConvProblem, *, use_pack: bool = True, header: bool = True) -> str:
    v = variant(p)
    d = p.desc
    nsp = d.ndims - 2
    sp = d.spatial()
    name = p.name

    # prepare: weights buffer -> grouped logical weights
    prep = Plan("w")
    wbuf = Value("wei", (p.wei.buffer_nelems,), p.wei.dtype.mlir)
    wl = relayout.buffer_to_logical(prep, wbuf, p.wei, use_pack)
    if not d.has_groups:
        wl = prep.add("expand", wl, d.wei_dims_grouped, groups=[[0, 1]] + [[i + 1] for i in range(1, nsp + 2)])
    prepared = v.weights(prep, wl, p)

    # conv: src buffer -> logical -> crop/pad -> grouped -> compute -> epilogue -> dst buffer
    plan = Plan("v")
    src = Value("src", (p.src.buffer_nelems,), p.src.dtype.mlir)
    w = Value("w", prepared.shape, p.wei.dtype.mlir)
    args = [src, w]
    bias = None
    if p.bias:
        bias = Value("bias", (d.oc,), "f32")
        args.append(bias)
    x = relayout.buffer_to_logical(plan, src, p.src, use_pack)
    if not v.pads_in_compute:
        crop_l = [max(-s.p, 0) for s in sp]
        crop_r = [max(-s.p_r, 0) for s in sp]
        x = plan.slice(x, [0, 0] + crop_l, list(x.shape[:2]) + [s.i - a - b for s, a, b in zip(sp, crop_l, crop_r)])
        x = plan.pad(x, [0, 0] + [max(s.p_r, 0) for s in sp], low=[0, 0] + [max(s.p, 0) for s in sp])
    x = plan.expand(x, [[0], [1, 2]] + [[i + 1] for i in range(2, nsp + 2)],
                    (d.mb, d.g, d.ic // d.g) + x.shape[2:])
    acc = v.compute(plan, x, w, p)
    grouped_bias = None
    if bias is not None:
        grouped_bias = plan.expand(bias, [[0, 1]], (d.g, d.oc // d.g))
    y = plan.add("conv_epilogue", acc, acc.shape, p.dst.dtype.mlir, bias=grouped_bias, relu=p.relu,
                 acc_dt=p.acc, dst_dt=p.dst.dtype, lo=p.dst.dtype.min, hi=p.dst.dtype.max)
    y = plan.collapse(y, [[0], [1, 2]] + [[i] for i in range(3, nsp + 3)])
    out = relayout.logical_to_buffer(plan, y, p.dst, use_pack, None)
    return render(TEMPLATE, header=header, fn=name, args=args, steps=plan.steps, result=out,
                  prep_args=[wbuf], prep_steps=prep.steps, prep_result=prepared)
