"""How operands enter a conv kernel and its result leaves it on a target: 8-bit integers widened to
i32 and bf16 carried as i16 bits where the target needs it (`_compute_problem`), exact float
widening, and the destination's element type."""
from __future__ import annotations

import dataclasses

from ...layout import get_dtype
from ...problem.conv import ConvProblem
from ..relayout import Plan, Value
from ..target import TargetCaps
from .common import _barrier


def _widens_int8(p: ConvProblem, target: TargetCaps) -> bool:
    """True when `p`'s integer operands must enter the contraction as i32 on `target`
    (TargetCaps.int8_contraction_wrong)."""
    return target.int8_contraction_wrong and p.src.dtype.is_int and p.src.dtype.mlir != "i32"


def _bf16_as_bits(dt, target: TargetCaps) -> bool:
    """True when an operand of type `dt` enters as its bits in i16 and is widened to f32
    (TargetCaps.bf16_operands_as_bits)."""
    return target.bf16_operands_as_bits and dt.name == "bf16"


def _compute_problem(p: ConvProblem, target: TargetCaps) -> ConvProblem:
    """The problem the variant's compute sees: `p` itself, or where the target widens operands, `p`
    with them widened (8-bit integers to s32, bf16 to f32) and without attributes (the compute never
    reads them; the epilogue gets the real `p`)."""
    if _widens_int8(p, target):
        return dataclasses.replace(p, src=p.src.with_dtype("s32"), wei=p.wei.with_dtype("s32"), scales=(),
                                   zero_points=(), post_ops=())
    if _bf16_as_bits(p.src.dtype, target) or _bf16_as_bits(p.wei.dtype, target):
        def wide(t):
            return t.with_dtype("f32") if _bf16_as_bits(t.dtype, target) else t
        return dataclasses.replace(p, src=wide(p.src), wei=wide(p.wei), scales=(), zero_points=(), post_ops=())
    return p


def _operand_bits(plan: Plan, buf: Value, dt, target: TargetCaps) -> Value:
    """An operand's buffer argument as the kernel relayouts it: itself, or a bf16 buffer's bits in
    i16 (TargetCaps.bf16_operands_as_bits; `_widen_operand` makes them f32 after the relayout)."""
    return plan.add("bitcast", buf, buf.shape, "i16") if _bf16_as_bits(dt, target) else buf


def _widen(plan: Plan, v: Value, dt, to: str) -> Value:
    """`v` (floats of type `dt`, or 8-bit integers) converted exactly to the wider float type `to`."""
    wide = get_dtype(to)
    return plan.add("convert", v, v.shape, wide.mlir, route="f32", src=dt, dst=wide, quant=[], apply=[],
                    lo=wide.min, hi=wide.max, ilo=0, ihi=0, bf16_bits=False)


def _widen_operand(plan: Plan, v: Value, dt, wide, barrier: bool) -> Value:
    """`v` (of type `dt`, or a bf16 operand's i16 bits) as the compute problem's type `wide`: 8-bit
    integers widened to i32 by their signedness, bf16 bits shifted into an f32; behind a barrier in
    the conv function so that IREE keeps the widening out of the contraction."""
    if wide == dt:
        return v
    if dt.is_int:
        w = plan.add("convert", v, v.shape, "i32", route="int", src=dt, dst=get_dtype("s32"), quant=[], apply=[],
                     lo=-2.0**31, hi=2.0**31, ilo=-2**31, ihi=2**31 - 1, bf16_bits=False)
    else:
        w = plan.add("convert", v, v.shape, "f32", route="bf16bits", src=dt, dst=wide, quant=[], apply=[],
                     lo=0.0, hi=0.0, ilo=0, ihi=0, bf16_bits=False)
    return _barrier(plan, w) if barrier else w


def _result_elem(p: ConvProblem, target: TargetCaps) -> str:
    """The epilogue's element type: the destination's, or the bf16 bits in i16 where the target
    stores bf16 results that way (TargetCaps.bf16_results_as_bits)."""
    if target.bf16_results_as_bits and p.dst.dtype.name == "bf16":
        return "i16"
    return p.dst.dtype.mlir


def _as_dst_type(plan: Plan, out: Value, p: ConvProblem) -> Value:
    """The result buffer in the destination's type: one bitcast when it was computed as bits."""
    if out.elem == p.dst.dtype.mlir:
        return out
    return plan.add("bitcast", out, out.shape, p.dst.dtype.mlir)
