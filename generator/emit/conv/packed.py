"""direct's packed form for blocked layouts (`PackedConv`): one generic, or named ops block by block,
over the source's and destination's packed tensors, so no relayout happens in the kernel; and its
whole conv function (`_packed_plan`), epilogue included."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...layout import MemoryDesc, get_dtype
from ...problem.conv import ConvProblem
from .. import relayout
from ..epilogue import AccLayout, channel_mask, plan_attr_epilogue
from ..relayout import Plan, Value
from ..target import TargetCaps
from .common import _SPATIAL, _barrier, _channel_block, _unsigned, pad_spatial
from .direct import _named_operand
from .operands import _as_dst_type, _compute_problem, _operand_bits, _result_elem, _widen_operand


@dataclass(frozen=True)
class PackedConv:
    """direct's compute over the packed tensors themselves, for blocked layouts (oneDNN's nChw16c /
    OIhw16i16o, MegEngine's NCHW4 / NCHW32 / CHWN4): one linalg.generic whose maps read the source
    buffer's packed tensor and write the destination's, so no relayout happens in the kernel (the
    weights are packed once, in prepare, zero-padded to whole blocks). Depthwise on a target with
    TargetCaps.depthwise_named_ops: the named op block by block instead of the generic, and plain
    channels-first layouts packed into blocks and back in the kernel (`plain_blocks`).

    `bi` / `bo` are the source / destination channel blocks (1 for a plain side). Regular: iteration
    (n, g, ocb, o.., [ob] | icb, k.., [ib]) and weights (G, OC/G/bo, IC/G/bi, K.., [bi], [bo]): the
    padded channels carry zero weights, so the padded output channels come out 0 (bias padded with 0
    too; ReLU keeps 0). Depthwise (one channel per group, the same block on both sides): iteration
    (n, gb, o.., gi | k..) and weights (G/b, K.., b).

    `named` (`named_blocks`): computed with linalg's named channels-last ops on the blocks instead
    of the generic. Depthwise: one op per channel block. Regular (2D, ungrouped): one
    conv_2d_nhwc_hwcf per input-channel block, (N, H, W, bi) x (KH, KW, bi, OCp), each adding to the
    last one's (N, OH, OW, OCp) partial sums, then one transpose into the destination's packed tensor;
    weights (IC/bi, KH, KW, bi, OCp), OCp = OC padded to whole destination blocks."""
    bi: int
    bo: int
    depthwise: bool
    named: bool = False


def plain_blocks(p: ConvProblem, target: TargetCaps) -> tuple[MemoryDesc, MemoryDesc] | None:
    """The layouts a conv from a dense plain source computes in on a target that runs named ops on
    channel blocks (`named_blocks`): the source packed into 16-channel blocks (N, C/16, sp.., 16)
    inside the kernel; or None, where the plain source is computed as it is.

    - Depthwise, plain channels-first on both sides (ncw, nchw, ncdhw;
      TargetCaps.depthwise_named_ops): the destination is blocked too and unpacked out at the end.
      IREE 3.13 on llvm-cpu lowers the named depthwise_conv_2d_nchw_chw far slower than the pack,
      the blocks and the unpack together (measured: docs/performance.md, Tuned constants).
    - Ungrouped 2D (TargetCaps.blocked_conv_named_ops), from a channels-first source into any
      destination, or from a channels-last one into a blocked destination (nhwc -> plain keeps the
      named NHWC conv, which reads it in place); the destination stays as it is. The blocks beat
      IREE's named conv_2d_nchw_fchw on ResNet's layers.
    (measured: docs/performance.md, Tuned constants)"""
    d = p.desc
    if p.src.is_blocked or not p.src.is_dense or p.has_any:
        return None
    channels_first = tuple(p.src.order) == tuple(range(d.ndims))
    tag = {3: "aBc16b", 4: "aBcd16b", 5: "aBcde16b"}[d.ndims]
    src = MemoryDesc(p.src.dims, p.src.dtype, tag)
    if d.g > 1 and d.is_depthwise:
        if (target.depthwise_named_ops and channels_first and not p.dst.is_blocked and p.dst.is_dense
                and tuple(p.dst.order) == tuple(range(d.ndims))):
            return src, MemoryDesc(p.dst.dims, p.dst.dtype, tag)
        return None
    if (target.blocked_conv_named_ops and d.g == 1 and d.ndims == 4 and not _unsigned(p.src.dtype)
            and (channels_first or p.dst.is_blocked)):
        return src, p.dst
    return None


def packed_conv(p: ConvProblem) -> PackedConv | None:
    """How direct computes a blocked-layout problem in its packed form, or None (plain layouts use the
    named ops, or `plain_blocks`; multi-level blocks such as OIhw4i16o4i on data, views with offsets or gaps, and groups
    whose channels cut through a block keep the generic over the logical tensor)."""
    if not (p.src.is_blocked or p.dst.is_blocked) or not p.dst.is_dense or p.src.pitch() is None:
        return None
    bi, bo = _channel_block(p.src), _channel_block(p.dst)
    if bi is None or bo is None:
        return None
    d = p.desc
    if d.g > 1 and d.is_depthwise and bi == bo:
        return PackedConv(bi, bo, True)
    if d.g == 1 or ((d.ic // d.g) % bi == 0 and (d.oc // d.g) % bo == 0):
        return PackedConv(bi, bo, False)
    return None


def named_blocks(pc: PackedConv, p: ConvProblem, target: TargetCaps, src_l: MemoryDesc, dst_l: MemoryDesc) -> bool:
    """Whether a packed conv computes with named ops on its blocks (PackedConv.named), given the
    layouts it computes in. Depthwise (TargetCaps.depthwise_named_ops): both layouts keep their dims
    in logical order, so both packed tensors are (N, C/b, spatial.., b) and each block is a
    channels-last slab (not aBdc16b, whose block is (N, W, H, b); not CHWN4). Regular
    (TargetCaps.blocked_conv_named_ops): 2D and ungrouped, the source in such a layout with blocks of
    8 channels or more (each block one conv's channels), and no unsigned source (the named ops
    sign-extend); the destination may be in any layout (a transpose writes it)."""
    def in_order(t: MemoryDesc) -> bool:
        return tuple(t.order) == tuple(range(t.ndims))

    if pc.depthwise:
        return target.depthwise_named_ops and in_order(src_l) and in_order(dst_l)
    return (target.blocked_conv_named_ops and p.desc.g == 1 and p.desc.ndims == 4 and pc.bi >= 8
            and in_order(src_l) and not _unsigned(p.src.dtype))


def _packed_weights(plan: Plan, w: Value, p: ConvProblem, pc: PackedConv) -> Value:
    """Grouped logical weights (G, OC/G, IC/G, K..) -> the packed compute layout, zero-padded to blocks."""
    d = p.desc
    nsp = d.ndims - 2
    ks = list(range(nsp))
    if pc.depthwise:
        b = pc.bi
        w = plan.collapse(w, [[0, 1, 2]] + [[3 + k] for k in ks])                     # G K..
        w = plan.pad(w, [-d.g % b] + [0] * nsp)
        w = plan.expand(w, [[0, 1]] + [[2 + k] for k in ks], (-(-d.g // b), b) + w.shape[1:])
        return plan.transpose(w, [0] + [2 + k for k in ks] + [1])                      # Gb K.. b
    icg, ocg = d.ic // d.g, d.oc // d.g
    w = plan.pad(w, [0, -ocg % pc.bo, -icg % pc.bi] + [0] * nsp)
    ocb, icb = -(-ocg // pc.bo), -(-icg // pc.bi)
    if pc.named:                        # (IC/bi, K.., bi, OCp): each input block's HWCF weights
        w = plan.expand(w, [[0], [1], [2, 3]] + [[4 + k] for k in ks], (1, ocb * pc.bo, icb, pc.bi) + w.shape[3:])
        w = plan.transpose(w, [0, 2] + [4 + k for k in ks] + [3, 1])
        return plan.collapse(w, [[0, 1]] + [[2 + k] for k in range(nsp + 2)])
    w = plan.expand(w, [[0], [1, 2], [3, 4]] + [[5 + k] for k in ks], (d.g, ocb, pc.bo, icb, pc.bi) + w.shape[3:])
    w = plan.transpose(w, [0, 1, 3] + [5 + k for k in ks] + [4, 2])                   # G OCb ICb K.. bi bo
    return _drop_unit_axes(plan, w, [a for a, b in ((3 + nsp, pc.bi), (4 + nsp, pc.bo)) if b == 1])


def _drop_unit_axes(plan: Plan, v: Value, axes) -> Value:
    """Collapse away size-1 axes (none of them axis 0): each joins the group of the axis before it."""
    groups: list[list[int]] = []
    for i in range(len(v.shape)):
        if i in axes:
            groups[-1].append(i)
        else:
            groups.append([i])
    return plan.collapse(v, groups)


def _packed_plan(p: ConvProblem, pc: PackedConv, prepared: Value, target: TargetCaps, wref: Value | None,
                 blocked: tuple[MemoryDesc, MemoryDesc] | None = None) -> tuple[Plan, list[Value], Value]:
    """The conv function of a PackedConv: source buffer -> its packed tensor (a reshape) -> spatial
    crop / zero pad on the packed axes -> one generic writing the destination's packed tensor, with
    the channel axis split into (G, OC/G/bo), or with `PackedConv.named` named ops on the blocks
    (`_depthwise_blocks`, `_conv_blocks`) -> epilogue -> destination buffer (a reshape).

    `blocked`: the source's and destination's layouts the conv computes in where they are not the
    buffers' own (`plain_blocks`): the source is packed into its layout first, and the
    result unpacked into the destination's buffer last."""
    src_l, dst_l = blocked or (p.src, p.dst)
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    plan = Plan("v")
    src = Value("src", (p.src.buffer_nelems,), p.src.dtype.mlir)
    w = Value("w", prepared.shape, prepared.elem)
    args = [src, w] + ([Value("wref", wref.shape, wref.elem)] if wref is not None else [])
    x = _operand_bits(plan, src, p.src.dtype, target)
    if blocked:
        x = relayout.logical_to_packed(plan, relayout.buffer_to_logical(plan, x, p.src, target.conv_form), src_l,
                                       target.conv_form)
    else:
        x = relayout.buffer_to_packed(plan, x, p.src)
    sp_pos = [src_l.order.index(2 + i) for i in range(nsp)]
    x = pad_spatial(plan, x, sp, sp_pos)
    cp = _compute_problem(p, target)
    x = _widen_operand(plan, x, p.src.dtype, cp.src.dtype, True)

    os_ = [f"o{i}" for i in range(nsp)]
    ks = [f"k{i}" for i in range(nsp)]
    taps = [f"o{i} * {s_.s} + k{i} * {s_.d + 1}" for i, s_ in enumerate(sp)]
    if pc.depthwise:
        b = pc.bi
        c_in, c_out, inner_in, inner_out = ["gb"], ["gb"], ["gi"], ["gi"]
        c_sizes_out = [-(-d.g // b)]
        par, red = ["n", "gb"] + os_ + ["gi"], list(ks)
        wei_idx = ["gb"] + ks + ["gi"]
    else:
        icg, ocg = d.ic // d.g, d.oc // d.g
        c_in, c_out = ["g", "icb"], ["g", "ocb"]
        inner_in, inner_out = ["ib"] * (pc.bi > 1), ["ob"] * (pc.bo > 1)
        c_sizes_out = [d.g, -(-ocg // pc.bo)]
        # the source's channel-block axis splits into (G, IC/G/bi)
        c_pos = src_l.order.index(1)
        x = plan.expand(x, [[i] for i in range(c_pos)] + [[c_pos, c_pos + 1]] +
                        [[i + 1] for i in range(c_pos + 1, len(x.shape))],
                        x.shape[:c_pos] + (d.g, -(-icg // pc.bi)) + x.shape[c_pos + 1:])
        par, red = ["n", "g", "ocb"] + os_ + inner_out, ["icb"] + ks + inner_in
        wei_idx = ["g", "ocb", "icb"] + ks + inner_in + inner_out

    def packed_axes(desc, c_names, sp_names, inner):
        names = []
        for dim in desc.order:
            names += ["n"] if dim == 0 else c_names if dim == 1 else [sp_names[dim - 2]]
        return names + inner

    src_idx = packed_axes(src_l, c_in, taps, inner_in)
    out_idx = packed_axes(dst_l, c_out, os_, inner_out)
    final_idx = out_idx
    if target.batch_outer_only and out_idx[0] != "n":
        # compute with the batch outermost and transpose once at the end
        out_idx = ["n"] + [a for a in out_idx if a != "n"]
    size_of = {"n": d.mb, **{f"o{i}": s_.o for i, s_ in enumerate(sp)}, "ob": pc.bo, "gi": pc.bo}
    size_of.update(zip(c_out, c_sizes_out))
    out_shape = tuple(size_of[a] for a in out_idx)
    if pc.named and pc.depthwise:
        acc = _depthwise_blocks(plan, _named_operand(plan, x, cp.src.dtype), w, p, out_shape)
    elif pc.named:
        acc = _conv_blocks(plan, x, w, cp, out_idx, out_shape)
    else:
        acc = plan.add("conv_packed", x, out_shape, p.acc.mlir, wei=w, dims=par + red, npar=len(par),
                       src_idx=src_idx, wei_idx=wei_idx, out_idx=out_idx, src_dt=cp.src.dtype,
                       wei_dt=cp.wei.dtype, acc_dt=p.acc)
    if target.acc_apart:
        acc = _barrier(plan, acc)

    def to_buffer(y: Value) -> Value:
        """The destination's packed tensor (out_idx order) -> the destination buffer."""
        y = plan.transpose(y, [out_idx.index(a) for a in final_idx])
        if dst_l != p.dst:
            return relayout.logical_to_buffer(plan, relayout.packed_to_logical(plan, y, dst_l, target.conv_form),
                                              p.dst, target.conv_form, None)
        return plan.collapse(y, [list(range(len(y.shape)))])

    if p.has_attributes:
        c_names = c_out + inner_out
        c_shape = tuple(size_of[a] for a in c_names)

        def per_oc(plan_: Plan, v: Value) -> tuple[Value, list[int]]:
            v = plan_.expand(plan_.pad(v, [math.prod(c_shape) - v.shape[0]]), [list(range(len(c_shape)))], c_shape)
            return v, [out_idx.index(a) for a in c_names]

        def from_packed(plan_: Plan, v: Value) -> tuple[Value, list[int]]:
            # the destination's packed tensor, its channel-block axis split into c_out
            cpos = dst_l.order.index(1)
            v = plan_.expand(v, [[i] for i in range(cpos)] + [list(range(cpos, cpos + len(c_out)))] +
                             [[i + len(c_out) - 1] for i in range(cpos + 1, len(v.shape))],
                             v.shape[:cpos] + tuple(c_sizes_out) + v.shape[cpos + 1:])
            return v, [out_idx.index(a) for a in final_idx]

        def full(plan_: Plan, v: Value) -> tuple[Value, list[int]]:
            # (the layout of a tensor of v's element type; i16 holds bf16 bits: TargetCaps.bf16_operands_as_bits)
            elem_dt = get_dtype("bf16" if v.elem == "i16" else v.elem)
            return from_packed(plan_, relayout.logical_to_packed(plan_, v, dst_l.with_dtype(elem_dt),
                                                                 target.conv_form))

        def dst_buffer(plan_: Plan, buf: Value, desc) -> tuple[Value, list[int]]:
            if desc.format_name() == dst_l.format_name() and desc.dims == dst_l.dims:
                return from_packed(plan_, relayout.buffer_to_packed(plan_, buf, desc))
            return full(plan_, relayout.buffer_to_logical(plan_, buf, desc, target.conv_form))

        def channel_valid(plan_: Plan):
            m = channel_mask(c_shape, d.oc, pc.depthwise, d.g, pc.bo)
            if m is None:
                return None
            return plan_.add("constant", None, m.shape, "i8", hex=m.tobytes().hex().upper()), \
                [out_idx.index(a) for a in c_names]

        y = plan_attr_epilogue(plan, acc, p, AccLayout(per_oc, full, dst_buffer, channel_valid), args, src,
                               args[2] if wref is not None else None, target.conv_form, _result_elem(p, target),
                               target.bf16_operands_as_bits)
        return plan, args, _as_dst_type(plan, to_buffer(y), p)

    grouped_bias, bias_dims = None, []
    if p.bias:
        bias = Value("bias", (d.oc,), "f32")
        args.append(bias)
        names = c_out + inner_out
        shape = tuple(size_of[a] for a in names)
        grouped_bias = plan.expand(plan.pad(bias, [math.prod(shape) - d.oc]), [list(range(len(shape)))], shape)
        bias_dims = [out_idx.index(a) for a in names]
    y = plan.add("conv_epilogue", acc, acc.shape, _result_elem(p, target), bias=grouped_bias, bias_dims=bias_dims,
                 relu=p.relu, acc_dt=p.acc, dst_dt=p.dst.dtype, lo=p.dst.dtype.min, hi=p.dst.dtype.max)
    return plan, args, _as_dst_type(plan, to_buffer(y), p)


def _take(plan: Plan, v: Value, axis: int, j: int) -> Value:
    """Index `j` of `axis` of `v`, that axis dropped: a rank-reducing slice, or where the axis has one
    index, a reshape (an identity slice is no step, so it could not drop the axis)."""
    if v.shape[axis] == 1:
        merged = [axis - 1, axis] if axis else [0, 1]
        return plan.collapse(v, [[i] for i in range(merged[0])] + [merged] +
                             [[i] for i in range(merged[1] + 1, len(v.shape))])
    offsets, sizes = [0] * len(v.shape), list(v.shape)
    offsets[axis], sizes[axis] = j, 1
    return plan.slice(v, offsets, sizes, result_shape=v.shape[:axis] + v.shape[axis + 1:])


def _conv_blocks(plan: Plan, x: Value, w: Value, p: ConvProblem, out_idx: list[str], out_shape) -> Value:
    """The packed regular conv (PackedConv.named): block j of the padded source x (N, 1, IC/bi, H, W,
    bi) and of the weights w (IC/bi, KH, KW, bi, OCp) into conv_2d_nhwc_hwcf, each adding to the
    last one's (N, OH, OW, OCp), then reshaped and transposed into the `out_idx` order."""
    sp = p.desc.spatial()
    nsp = len(sp)
    n, icb, ocp = x.shape[0], x.shape[2], w.shape[-1]
    shape = (n,) + tuple(s.o for s in sp) + (ocp,)
    acc = None
    x = _take(plan, x, 1, 0)                               # the group axis (one group)
    for j in range(icb):
        acc = plan.add("named_conv", _take(plan, x, 1, j), shape, p.acc.mlir, op=f"conv_{nsp}d_n{_SPATIAL[nsp]}c_{_SPATIAL[nsp]}cf",
                       wei=_take(plan, w, 0, j), strides=[s.s for s in sp], dilations=[s.d + 1 for s in sp], acc_dt=p.acc, acc=acc)
    bo = out_shape[-1] if out_idx[-1] == "ob" else 1
    names = ["n"] + [f"o{i}" for i in range(nsp)] + ["g", "ocb"] + ["ob"] * (bo > 1)
    y = plan.expand(acc, [[i] for i in range(1 + nsp)] + [list(range(1 + nsp, len(names)))],
                    shape[:-1] + (1, ocp // bo) + ((bo,) if bo > 1 else ()))
    return plan.transpose(y, [names.index(a) for a in out_idx])


def _depthwise_blocks(plan: Plan, x: Value, w: Value, p: ConvProblem, out_shape: tuple[int, ...]) -> Value:
    """The packed depthwise conv block by block: block j of the padded source x (N, C/b, sp.., b) and
    of the prepared weights w (C/b, K.., b) into the named channels-last depthwise op, whose
    (N, O.., b) results are joined on the block axis into (N, C/b, O.., b)."""
    sp = p.desc.spatial()
    nsp = len(sp)
    op = f"depthwise_conv_{nsp}d_n{_SPATIAL[nsp]}c_{_SPATIAL[nsp]}c"
    blocks = out_shape[1]
    parts = []
    for j in range(blocks):
        y = plan.add("named_conv", _take(plan, x, 1, j), out_shape[:1] + out_shape[2:], p.acc.mlir, op=op,
                     wei=_take(plan, w, 0, j), strides=[s.s for s in sp], dilations=[s.d + 1 for s in sp], acc_dt=p.acc)
        parts.append(plan.expand(y, [[0, 1]] + [[i + 1] for i in range(1, len(y.shape))], out_shape[:1] + (1,) +
                                 out_shape[2:]))
    return parts[0] if blocks == 1 else plan.concat(parts, 1)
