"""The convolution epilogue with oneDNN's attributes (`generator.problem.attr`), planned once for every
variant: what the kernel takes at runtime, how each operand maps onto the accumulator, and the
program the template (conv_common.mlir.j2, conv_attr_epilogue) spells in one linalg.generic.

The accumulator stays what the variant's contraction made of the *raw* data: with zero points the
integer GEMM is still sum(src * wei) over a zero-padded source, and the difference to oneDNN's
sum((src - zp_src) * (wei - zp_wei)) over the taps that read the source is subtracted here
(`zero_point_compensation`):

    comp[n, oc, o] = zp_wei * sum_{ic in g, k} src0[n, ic, o*s + k*d]                  (window sums)
                   + sum_k valid(o, k) * sum_{ic in g} zp_src[ic] * (wei[oc, ic, k] - zp_wei)

where src0 is the zero-padded source and valid(o, k) (1 where tap k of output o reads the source,
0 on padding) is separable, one small constant per spatial axis. Both terms are O(1/OC) and
O(1/IC) of the convolution; the weights enter through a second output of prepare, so the hot loop
never changes: for a common zp_src the per-tap weight sums, precomputed there as oneDNN does (the call
scales them by the runtime zero points), for a per-channel zp_src the grouped logical weights.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..layout.dtypes import get_dtype
from ..problem.attr import Binary, Eltwise, Sum
from ..problem.conv import ConvProblem
from . import relayout
from .relayout import Plan, Value

I32 = get_dtype("s32")
F32 = get_dtype("f32")


@dataclass
class AccLayout:
    """How the variant's accumulator is laid out, for the operands that broadcast onto it.

    `per_oc(plan, v)` maps an (OC,) vector, `full(plan, v)` a logical (N, OC, O..) tensor, and
    `dst_buffer(plan, buf, desc)` a buffer in the destination's layout (the sum's prior values),
    each to (value, accumulator dims it indexes). `channel_valid` is an i8 mask over the padded
    channel lanes of a blocked destination (None when it has none)."""
    per_oc: Callable[[Plan, Value], tuple[Value, list[int]]]
    full: Callable[[Plan, Value], tuple[Value, list[int]]]
    dst_buffer: Callable[[Plan, Value, object], tuple[Value, list[int]]]
    channel_valid: Callable[[Plan], tuple[Value, list[int]] | None]


def _const(plan: Plan, a: np.ndarray, elem: str) -> Value:
    np_type = {"i32": "<i4", "i8": "i1", "f32": "<f4"}[elem]
    a = np.ascontiguousarray(a, np_type)
    return plan.add("constant", None, a.shape, elem, hex=a.tobytes().hex().upper())


def tap_masks(p: ConvProblem) -> list[np.ndarray]:
    """Per spatial axis, valid[o, k] = 1 where tap k of output o reads the source (not padding)."""
    out = []
    for s in p.desc.spatial():
        o = np.arange(s.o)[:, None]
        k = np.arange(s.k)[None, :]
        pos = o * s.s + k * (s.d + 1) - s.p
        out.append(((pos >= 0) & (pos < s.i)).astype(np.int32))
    return out


def zero_point_compensation(plan: Plan, p: ConvProblem, src: Value, wref: Value | None, zp_src: Value | None,
                            zp_wei: Value | None, form: str) -> Value:
    """comp (N, OC, O..) in i32 (see the module docstring)."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    icg, ocg = d.ic // d.g, d.oc // d.g
    odims = tuple(s.o for s in sp)
    terms: list[Value] = []
    kinds: list[str] = []
    if zp_wei is not None:
        x = relayout.buffer_to_logical(plan, src, p.src, form)
        crop_l = [max(-s.p, 0) for s in sp]
        sizes = list(x.shape[:2]) + [s.i - a - max(-s.p_r, 0) for s, a in zip(sp, crop_l)]
        x = plan.slice(x, [0, 0] + crop_l, sizes)
        x = plan.pad(x, [0, 0] + [max(s.p_r, 0) for s in sp], low=[0, 0] + [max(s.p, 0) for s in sp])
        x = plan.expand(x, [[0], [1, 2]] + [[3 + i] for i in range(nsp)], (d.mb, d.g, icg) + x.shape[2:])
        # the taps' extent is in the maps only as o * s + k * d: a unit tensor over the taps names it
        taps = _const(plan, np.ones(tuple(s.k for s in sp), np.int32), "i32")
        wsum = plan.add("zp_window_sum", x, (d.mb, d.g) + odims, "i32", src_dt=p.src.dtype,
                        strides=[s.s for s in sp], dilations=[s.d + 1 for s in sp], taps=taps, zp=zp_wei)
        terms.append(wsum)
        kinds.append("window")
    if zp_src is not None:
        assert wref is not None
        zs = zp_src
        if zs.shape:                                   # per input channel: (IC,) -> (G, ICg)
            zs = plan.expand(zs, [[0, 1]], (d.g, icg))
        kvol = wref.shape[-1]
        if len(wref.shape) == 3:                      # prepare's weight sums (a common zp_src)
            wz = plan.add("zp_weights_common", wref, (d.g, ocg, kvol), "i32", icg=icg, zp_src=zs, zp_wei=zp_wei)
        else:
            wz = plan.add("zp_weights", wref, (d.g, ocg, kvol), "i32", wei_dt=p.wei.dtype, zp_src=zs,
                          zp_wei=zp_wei)
        wz = plan.expand(wz, [[0], [1], list(range(2, 2 + nsp))], (d.g, ocg) + tuple(s.k for s in sp))
        masks = [_const(plan, m, "i32") for m in tap_masks(p)]
        terms.append(plan.add("zp_taps", wz, (d.g, ocg) + odims, "i32", masks=masks))
        kinds.append("taps")
    comp = plan.add("zp_combine", terms[0], (d.mb, d.g, ocg) + odims, "i32", terms=terms, term_kinds=kinds)
    return plan.collapse(comp, [[0], [1, 2]] + [[3 + i] for i in range(nsp)])


def plan_attr_epilogue(plan: Plan, acc: Value, p: ConvProblem, layout: AccLayout, args: list[Value],
                       src: Value, wref: Value | None, form: str, out_elem: str | None = None,
                       bf16_bits: bool = False) -> Value:
    """Adds the runtime arguments (bias, quantization values, post-op inputs) to `args` in the kernel's
    order and returns the epilogue's result: the destination values in the accumulator's layout (as
    `out_elem`, the bf16 bits in i16 where the target needs them). With `bf16_bits`
    (TargetCaps.bf16_operands_as_bits) a bf16 bias or post-op input is read as its bits in i16 and
    widened to f32 in integer ops.
    """
    d = p.desc

    def as_read(v: Value) -> Value:
        return plan.add("bitcast", v, v.shape, "i16") if bf16_bits and v.elem == "bf16" else v

    operands: list[Value] = []
    dims: list[list[int]] = []
    program: list[dict] = []

    def operand(v: Value, ds: list[int]) -> int:
        operands.append(v)
        dims.append(list(ds))
        return len(operands) - 1

    bias = None
    if p.bias:
        bias = Value("bias", (d.oc,), get_dtype(p.bias_dt).mlir)
        args.append(bias)
        bias = as_read(bias)
    quant: dict[str, Value] = {}
    for name, q in p.quant_args():
        quant[name] = Value(name, p.quant_shape(q), p.quant_dtype(name).mlir)
        args.append(quant[name])
    inputs: dict[str, Value] = {}
    for name, i, op in p.post_op_inputs():
        if name == "dst_init":
            inputs[name] = Value(name, (p.dst.buffer_nelems,), p.dst.dtype.mlir)
        else:
            inputs[name] = Value(name, (p.binary_desc(op).buffer_nelems,), p.binary_desc(op).dtype.mlir)
        args.append(inputs[name])
        inputs[name] = as_read(inputs[name])

    def bind(v: Value) -> int:
        """A runtime scale / zero point (scalar or per output channel) as an operand."""
        if not v.shape:
            return operand(v, [])
        return operand(*layout.per_oc(plan, v))

    if p.acc.is_int:
        if "src_zp" in quant or "wei_zp" in quant:
            comp = zero_point_compensation(plan, p, src, wref, quant.get("src_zp"), quant.get("wei_zp"), form)
            program.append(dict(op="sub_i", x=operand(*layout.full(plan, comp))))
        program.append(dict(op="to_f32"))
    for name in ("src_scale", "wei_scale"):
        if name in quant:
            program.append(dict(op="mul", x=bind(quant[name]), dt=F32))
    if bias is not None:
        program.append(dict(op="add", x=operand(*layout.per_oc(plan, bias)), dt=get_dtype(p.bias_dt)))
    for i, op in enumerate(p.post_ops):
        if isinstance(op, Eltwise):
            program.append(dict(op="eltwise", e=op))
        elif isinstance(op, Sum):
            dt = get_dtype(op.dt or p.dst.dtype.name)
            x = operand(*layout.dst_buffer(plan, inputs["dst_init"], p.dst))
            # the prior destination read as the sum's data type (its bits reinterpreted), a bf16 one
            # as i16 bits with `bf16_bits`
            read = inputs["dst_init"].elem
            bits_to = "i16" if bf16_bits and dt.name == "bf16" else dt.mlir
            bits = read if read != bits_to else None
            program.append(dict(op="sum", x=x, dt=dt, bits=bits, bits_to=bits_to, scale=float(np.float32(op.scale)),
                                 zp=op.zero_point))
        else:
            name = f"{'binary' if isinstance(op, Binary) else 'prelu'}_{i}"
            desc = p.binary_desc(op)
            buf = inputs[name]
            mask = p.binary_mask(op)
            if not mask:
                x = operand(plan.collapse(buf, []), [])
            elif mask == (1,):
                x = operand(*layout.per_oc(plan, buf))
            elif len(mask) == d.ndims:
                x = operand(*layout.dst_buffer(plan, buf, desc))
            else:
                # a partial mask: the logical input broadcast over the other dims, then as a full tensor
                t = relayout.buffer_to_logical(plan, buf, desc, form)
                t = plan.collapse(t, _keep_groups(mask, d.ndims))
                t = plan.add("broadcast", t, p.dst.dims, t.elem, dims=list(mask))
                x = operand(*layout.full(plan, t))
            if isinstance(op, Binary):
                program.append(dict(op="binary", x=x, dt=desc.dtype, kind=op.kind))
            else:
                program.append(dict(op="prelu", x=x))
    if "dst_scale" in quant:
        program.append(dict(op="div", x=bind(quant["dst_scale"]), dt=F32))
    if "dst_zp" in quant:
        program.append(dict(op="add", x=bind(quant["dst_zp"]), dt=I32))
    program.append(dict(op="convert"))
    valid = layout.channel_valid(plan)
    if valid is not None:
        program.append(dict(op="mask", x=operand(*valid)))
    return plan.add("conv_attr_epilogue", acc, acc.shape, out_elem or p.dst.dtype.mlir, operands=operands,
                    operand_dims=dims,
                    program=program, acc_dt=p.acc, dst_dt=p.dst.dtype)


def _keep_groups(mask: tuple[int, ...], ndims: int) -> list[list[int]]:
    """collapse_shape groups dropping the unit dims outside `mask` (each joins a kept neighbour)."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i in range(ndims):
        if i in mask:
            groups.append(pending + [i])
            pending = []
        elif groups:
            groups[-1].append(i)
        else:
            pending.append(i)
    return groups


def channel_mask(c_sizes: tuple[int, ...], channels: int, depthwise: bool, groups: int, bo: int) -> np.ndarray | None:
    """Valid lanes of a blocked destination's channel axes (c_out + inner), or None when none is padding:
    regular (G, OCb, bo): ocb * bo + ob < OC/G; depthwise (Gb, b): gb * b + gi < G."""
    if depthwise:
        gb, b = c_sizes
        ch = np.arange(gb)[:, None] * b + np.arange(b)[None, :]
        valid = ch < groups
    else:
        g, ocb = c_sizes[:2]
        ch = np.arange(ocb)[:, None] * bo + np.arange(bo)[None, :]
        valid = np.broadcast_to(ch < channels // groups, (g, ocb, bo))
        if bo == 1:
            valid = valid.reshape(g, ocb)
    if valid.all():
        return None
    return valid.astype(np.int8)


def prepare_zp_weights(prep: Plan, wl: Value, p: ConvProblem) -> Value | None:
    """prepare's second output, for the source zero point's term (None without one). With a common
    zp_src: the weights summed over each group's input channels per tap, (G, OC/G, Kvol) in i32,
    precomputed once as oneDNN precomputes its compensation; the call then only scales them by the
    runtime zero points. With a per-channel zp_src the sum needs zp_src[ic] inside, so prepare
    returns the grouped logical weights (G, OC/G, IC/G, Kvol) and the call sums them."""
    q = p.zero_point("src")
    if q is None:
        return None
    nsp = p.desc.ndims - 2
    w = prep.collapse(wl, [[0], [1], [2], list(range(3, 3 + nsp))])
    if q.policy != "common":
        return w
    return prep.add("zp_weight_sums", w, (w.shape[0], w.shape[1], w.shape[3]), "i32", wei_dt=p.wei.dtype)


__all__ = ["AccLayout", "plan_attr_epilogue", "zero_point_compensation", "tap_masks", "channel_mask",
           "prepare_zp_weights"]
