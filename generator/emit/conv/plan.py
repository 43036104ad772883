"""A conv kernel's MLIR module (`render_conv`): prepare (the weights buffer -> the variant's layout)
and the conv function around the variant's compute (source buffer -> logical tensor -> padding ->
compute -> epilogue -> destination buffer), or direct's packed form (packed.py)."""
from __future__ import annotations

import dataclasses

from ...errors import InternalError, UnsupportedError
from ...problem.conv import ConvProblem
from .. import relayout
from ..epilogue import AccLayout, plan_attr_epilogue, prepare_zp_weights
from ..relayout import Plan, Value
from ..render import render
from ..target import GENERIC, TargetCaps
from .brgemm.fusion import store_epilogue_args
from .common import _barrier, _zp_tail_wrong, pad_spatial
from .direct import _split_compute, _split_weights, reduction_split
from .operands import _as_dst_type, _compute_problem, _operand_bits, _result_elem, _widen_operand
from .packed import PackedConv, _packed_plan, _packed_weights, named_blocks, packed_conv, plain_blocks
from .variants import variant


TEMPLATE = "conv.mlir.j2"


def _signature_aliases(wbuf: Value, args: list[Value], out: Value, prepared: Value) -> list[tuple[str, Value]]:
    """The module's `!type` aliases: its buffers and the prepared weights, by role (the bias and the
    sum's prior destination too; scales, zero points and post-op inputs keep their plain types)."""
    roles = {"bias": "bias", "dst_init": "dst_buf"}
    return ([("src_buf", args[0]), ("wei_buf", wbuf), ("wei_prepared", prepared)]
            + [(roles[a.name], a) for a in args[2:] if a.name in roles] + [("dst_buf", out)])


def _plan_epilogue(plan: Plan, acc: Value, p: ConvProblem, target: TargetCaps, args: list[Value], src: Value,
                   wr: Value | None, bias: Value | None, form, cl: bool, c_ax: int, split, to_cl) -> Value:
    """The shared epilogue after a variant's compute: the accumulator -> oneDNN's attributes
    (`plan_attr_epilogue`, which appends their runtime arguments to `args`) or bias and ReLU -> the
    destination type, in the accumulator's grouped layout."""
    d = p.desc
    nsp = d.ndims - 2
    if target.acc_apart:
        acc = _barrier(plan, acc)
    if p.has_attributes:
        gsplit = (d.g, d.oc // d.g)

        def per_oc(plan_: Plan, vec: Value) -> tuple[Value, list[int]]:
            return plan_.expand(vec, [[0, 1]], gsplit), [c_ax, c_ax + 1]

        def grouped(plan_: Plan, t: Value) -> tuple[Value, list[int]]:
            # (N, C, sp..) or, channels last, (N, sp.., C) -> the accumulator's grouped layout
            return plan_.expand(t, split, t.shape[:c_ax] + gsplit + t.shape[c_ax + 1:]), list(range(d.ndims + 1))

        def full(plan_: Plan, t: Value) -> tuple[Value, list[int]]:
            return grouped(plan_, plan_.transpose(t, [0] + list(range(2, 2 + nsp)) + [1]) if cl else t)

        def dst_buffer(plan_: Plan, buf: Value, desc) -> tuple[Value, list[int]]:
            desc = desc.permute_axes(to_cl) if cl else desc
            return grouped(plan_, relayout.buffer_to_logical(plan_, buf, desc, form))

        return plan_attr_epilogue(plan, acc, p, AccLayout(per_oc, full, dst_buffer, lambda plan_: None), args, src,
                                  wr, form, _result_elem(p, target), target.bf16_operands_as_bits)
    grouped_bias = None
    if bias is not None:
        grouped_bias = plan.expand(bias, [[0, 1]], (d.g, d.oc // d.g))
    return plan.add("conv_epilogue", acc, acc.shape, _result_elem(p, target), bias=grouped_bias,
                    bias_dims=[c_ax, c_ax + 1], relu=p.relu, acc_dt=p.acc, dst_dt=p.dst.dtype, lo=p.dst.dtype.min,
                    hi=p.dst.dtype.max)


def render_conv(p: ConvProblem, target: TargetCaps = GENERIC, *, header: bool = True) -> str:
    """The MLIR module of `p` (a concrete variant, not auto) for `target`: `<name>_prepare` and `<name>`."""
    packed = [f"{what} {t.dtype.name}" for what, t in (("src", p.src), ("wei", p.wei), ("dst", p.dst))
              if t.dtype.is_packed]
    if packed:      # their buffers hold two elements per byte; only reorders unpack them
        raise UnsupportedError(f"convolutions take no 4-bit data ({', '.join(packed)}); s4 and u4 are "
                               f"supported by reorders only")
    v = variant(p, target)
    form = target.conv_form
    d = p.desc
    nsp = d.ndims - 2
    sp = d.spatial()
    name = p.name

    # prepare: weights buffer -> grouped logical weights
    prep = Plan("w")
    wbuf = Value("wei", (p.wei.buffer_nelems,), p.wei.dtype.mlir)
    wl = relayout.buffer_to_logical(prep, _operand_bits(prep, wbuf, p.wei.dtype, target), p.wei, form)
    if not d.has_groups:
        wl = prep.add("expand", wl, d.wei_dims_grouped, groups=[[0, 1]] + [[i + 1] for i in range(1, nsp + 2)])
    # a source zero point needs its weight sums (or, per channel, the grouped weights) at run time
    # (emit/epilogue.py), unless the variant applies the epilogue itself
    fused = store_epilogue_args(p) if v.fuses_epilogue(p, target) else None
    wref = prepare_zp_weights(prep, wl, p) if fused is None else None
    cp = _compute_problem(p, target)
    rsplit = reduction_split(cp, target) if v.name == "direct" else None
    # the packed form, except where the target computes its zero-point compensation wrongly: the
    # generic form computes those right (TargetCaps.zp_compensation_wrong)
    pc = (packed_conv(p) if v.name == "direct" and rsplit is None and not _zp_tail_wrong(p, target)
          else None)
    blocked = None
    if v.name == "direct" and rsplit is None and not _zp_tail_wrong(p, target):
        blocked = plain_blocks(p, target)
    if blocked is not None:
        pc = PackedConv(blocked[0].block_of(1), blocked[1].block_of(1), p.desc.g > 1)
    if pc is not None:
        pc = dataclasses.replace(pc, named=named_blocks(pc, cp, target, *(blocked or (p.src, p.dst))))
    wc = _widen_operand(prep, wl, p.wei.dtype, cp.wei.dtype, False)
    if pc is not None:
        prepared = _packed_weights(prep, wc, p, pc)
        plan, args, out = _packed_plan(p, pc, prepared, target, wref, blocked)
        return render(TEMPLATE, header=header, fn=name, args=args, steps=plan.steps, result=out,
                      prep_args=[wbuf], prep_steps=prep.steps, prep_results=[prepared] + ([wref] if wref else []),
                      aliases=_signature_aliases(wbuf, args, out, prepared))
    prepared = _split_weights(prep, wc, cp, rsplit) if rsplit else v.weights(prep, wc, cp, target)
    extra = v.extra_prepared(prep, prepared, cp, target)

    # conv: src buffer -> logical -> crop/pad -> grouped -> compute -> epilogue -> dst buffer. A
    # channels-last variant sees the tensors with C last, (N, sp.., C): the source and destination
    # descriptors are permuted so that a channels-last buffer needs no transpose at all.
    cl = v.channels_last(cp, target) and rsplit is None
    c_ax = nsp + 1 if cl else 1
    sp_ax = list(range(1, nsp + 1)) if cl else list(range(2, nsp + 2))
    to_cl = [0, nsp + 1] + list(range(1, nsp + 1))            # NC<sp> axis i -> its channels-last axis
    src_desc, dst_desc = (p.src.permute_axes(to_cl), p.dst.permute_axes(to_cl)) if cl else (p.src, p.dst)
    plan = Plan("v")
    src = Value("src", (p.src.buffer_nelems,), p.src.dtype.mlir)
    w = Value("w", prepared.shape, prepared.elem)
    wx = Value("wx", extra.shape, extra.elem) if extra is not None else None
    wr = Value("wref", wref.shape, wref.elem) if wref is not None else None
    args = [src, w] + [a for a in (wx, wr) if a is not None]
    bias = None
    if fused is not None:
        args += fused.args
    elif p.bias and not p.has_attributes:
        bias = Value("bias", (d.oc,), "f32")
        args.append(bias)
    # brgemm and Winograd's channels-last form read a blocked source and write a blocked destination in
    # their own blocks where they can
    src_block, dst_blocks = v.src_block(cp, target), v.dst_blocks(cp, target)
    if dst_blocks and fused is None:
        raise InternalError(f"{v.name} writes {p.dst.format_name()} in its own blocks only through its stores' "
                            f"epilogue, which {target.name} does not fuse")
    if src_block:
        x = src                         # the kernel reads its blocks (`_brgemm_compute`, Winograd's input transform)
    else:
        x = relayout.buffer_to_logical(plan, _operand_bits(plan, src, p.src.dtype, target), src_desc, form)

    if not v.pads_in_compute:
        x = pad_spatial(plan, x, sp, sp_ax)
    # the channel axis splits into (G, C/G)
    split = [[i] for i in range(c_ax)] + [[c_ax, c_ax + 1]] + [[i + 1] for i in range(c_ax + 1, d.ndims)]
    if not src_block:
        gshape = x.shape[:c_ax] + (d.g, d.ic // d.g) + x.shape[c_ax + 1:]
        x = plan.expand(x, split, gshape)
        x = _widen_operand(plan, x, p.src.dtype, cp.src.dtype, True)
    if rsplit:
        acc = _split_compute(plan, x, w, cp, rsplit, target.max_reduction)
    else:
        acc = v.compute(plan, x, w, cp, target, **({"extra": wx} if wx is not None else {}),
                        **({"epilogue": fused} if fused is not None else {}))
    if dst_blocks:                      # the destination's packed tensor, in the destination type
        out = plan.collapse(acc, [list(range(len(acc.shape)))])
    else:
        if fused is not None:
            y = acc                     # already the destination, in the destination type
        else:
            y = _plan_epilogue(plan, acc, p, target, args, src, wr, bias, form, cl, c_ax, split, to_cl)
        y = plan.collapse(y, split)
        out = _as_dst_type(plan, relayout.logical_to_buffer(plan, y, dst_desc, form, None), p)
    return render(TEMPLATE, header=header, fn=name, args=args, steps=plan.steps, result=out,
                  prep_args=[wbuf], prep_steps=prep.steps,
                  prep_results=[prepared] + [r for r in (extra, wref) if r is not None],
                  aliases=_signature_aliases(wbuf, args, out, prepared))
