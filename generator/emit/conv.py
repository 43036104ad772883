"""Convolution kernels: the variant table and the shared plan around each variant's compute.

Every kernel module holds two functions:

* `<name>_prepare(wei_buf)`: reorders (or, for Winograd, transforms) the weights once into the
  variant's compute layout: grouped (G, OC/G, IC/G, [KD,] [KH,] KW), a named op's (FCHW, HWCF, CHW...),
  a GEMM's (G, OC/G, IC/G*Kvol) or Winograd's U;
* `<name>(src_buf, wei_prepared[, bias])`: source buffer -> logical tensor (relayout steps; channels
  last for a channels-last variant) -> spatial crop (negative padding) and zero pad -> grouped view ->
  the variant's compute -> epilogue (bias, ReLU, conversion to the destination type) -> destination
  buffer, padding zero.

Variants register in `VARIANTS`; each says whether it applies and plans its compute step.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable

import numpy as np

from ..errors import InternalError, UnsupportedError
from ..layout import MemoryDesc, get_dtype
from ..problem.attr import RELU, Sum
from ..problem.conv import ConvDesc, ConvProblem
from ..problem.geometry import kernel_extent
from . import relayout
from .epilogue import AccLayout, channel_mask, plan_attr_epilogue, prepare_zp_weights
from .relayout import Plan, Value
from .steps import BrgemmDepth, BrgemmView, LinearOp, StoreEpilogue
from .target import GENERIC, Mmt4dTile, TargetCaps
from .render import render

TEMPLATE = "conv.mlir.j2"


@dataclass(frozen=True)
class Variant:
    """One convolution algorithm: when it applies, how prepare lays the weights out, its compute step."""
    name: str
    why_not: Callable[[ConvProblem], str | None]          # why it does not apply to a problem, or None
    # (plan, grouped logical weights, problem, target) -> prepared weights
    weights: Callable[[Plan, Value, ConvProblem, TargetCaps], Value]
    # (plan, padded grouped src, prepared weights, problem, target) -> accumulator
    compute: Callable[[Plan, Value, Value, ConvProblem, TargetCaps], Value]
    doc: str
    # the variant handles spatial padding itself (its compute gets the unpadded, uncropped source)
    pads_in_compute: bool = False
    # why the variant is refused on a target (known wrong results or compile failures), or None
    refused: Callable[[ConvProblem, TargetCaps], str | None] = lambda p, target: None
    # computes with channels last: its compute gets (N, sp.., G, IC/G) and returns (N, sp.., G, OC/G)
    channels_last: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False
    # a second prepared tensor derived from the prepared weights once, in prepare (brgemm's s8
    # compensation), or None; compute then gets it as `extra=`
    extra_prepared: Callable[[Plan, Value, ConvProblem, TargetCaps], Value | None] = lambda plan, w, p, target: None
    # its compute applies the problem's epilogue in its own stores (`store_epilogue`) and returns the
    # result in the destination type: one pass over the output fewer
    fuses_epilogue: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False
    # reads a blocked source in its own blocks: the block (its compute then gets the 1-D source
    # buffer), else 0
    src_block: Callable[[ConvProblem, TargetCaps], int] = lambda p, target: 0
    # writes a blocked destination in its own blocks, through its fused epilogue (its compute then
    # returns the destination's packed tensor)
    dst_blocks: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False


def _applies_always(p: ConvProblem) -> str | None:
    return None


def _grouped_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    return w


def _out_shape(p: ConvProblem) -> tuple[int, ...]:
    d = p.desc
    return (d.mb, d.g, d.oc // d.g) + tuple(s.o for s in d.spatial())


@dataclass(frozen=True)
class NamedConv:
    """A linalg named convolution the direct variant maps a plain-layout problem to.

    `form` is "nchw" (channels before the spatial dims) or "nhwc" (channels last); `kind` is "conv"
    (G = 1), "depthwise" (one input and one output channel per group) or "grouped" (2D only: linalg
    has no grouped 1D/3D named conv). The weights are reordered into the op's layout once, in prepare."""
    op: str
    form: str
    kind: str


_SPATIAL = {1: "w", 2: "hw", 3: "dhw"}


def named_conv(p: ConvProblem, target: TargetCaps = GENERIC) -> NamedConv | None:
    """The named op for a plain-layout problem (source and destination without blocks), or None:
    blocked layouts and grouped 1D/3D convolutions stay a linalg.generic. The source's channel
    position picks NCHW or NHWC (a channels-last user keeps channels last through the op). NHWC
    weights are always HWCF (HWIO), whatever the user's weights format (prepare reorders them):
    IREE 3.13 lowers conv_2d_nhwc_fhwc about 20x slower (236 ms against 12 ms for ic64 ih56 oc64 k3)."""
    d = p.desc
    if p.src.is_blocked or p.dst.is_blocked:
        return None
    nsp = d.ndims - 2
    sp = _SPATIAL[nsp]
    form = "nhwc" if p.src.order[-1] == 1 else "nchw"
    if d.g == 1:
        kind = "conv"
    elif d.is_depthwise:
        kind = "depthwise"
    elif nsp == 2:
        kind = "grouped"
    else:
        return None
    if _unsigned(p.src.dtype) and not (kind == "depthwise" and target.depthwise_named_ops):
        # linalg's named convs sign-extend their inputs: a u8 source needs the generic, or widening
        # first (`_named_operand`), which costs less than the generic only where direct is the one
        # variant, depthwise (TargetCaps.depthwise_named_ops)
        return None
    if (form, kind) in target.named_conv_broken:     # IREE computes it wrongly there: a generic
        return None
    n, c = "n", "c"
    if form == "nchw":
        op = {"conv": f"conv_{nsp}d_{n}{c}{sp}_f{c}{sp}", "depthwise": f"depthwise_conv_{nsp}d_{n}{c}{sp}_{c}{sp}",
              "grouped": "conv_2d_ngchw_gfchw"}[kind]
    else:
        op = {"conv": f"conv_{nsp}d_{n}{sp}{c}_{sp}{c}f", "depthwise": f"depthwise_conv_{nsp}d_{n}{sp}{c}_{sp}{c}",
              "grouped": "conv_2d_nhwgc_gfhwc"}[kind]
    return NamedConv(op, form, kind)


def _unsigned(dt) -> bool:
    return dt.is_int and not dt.signed


def _named_operand(plan: Plan, x: Value, dt) -> Value:
    """A source of type `dt` as a linalg named conv reads it: those sign-extend their inputs, so an
    unsigned 8-bit source enters zero-extended to i32 (fused by IREE into the conv's dispatch)."""
    if not _unsigned(dt):
        return x
    return _widen_operand(plan, x, dt, get_dtype("s32"), False)


def _direct_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """Weights in the named op's layout (reordered once, in prepare), or grouped for the generic."""
    nc = named_conv(p, target)
    if nc is None:
        return w
    nsp = p.desc.ndims - 2
    ks = list(range(3, 3 + nsp))
    if nc.kind == "grouped":
        return w if nc.form == "nchw" else plan.transpose(w, [0, 1] + ks + [2])     # G F K.. C
    if nc.kind == "conv":
        w = plan.collapse(w, [[0, 1], [2]] + [[k] for k in ks])                     # F C K..
        if nc.form == "nchw":
            return w
        return plan.transpose(w, [k - 1 for k in ks] + [1, 0])                      # K.. C F
    w = plan.collapse(w, [[0, 1, 2]] + [[k] for k in ks])                            # C K..
    return w if nc.form == "nchw" else plan.transpose(w, list(range(1, 1 + nsp)) + [0])


def _direct_channels_last(p: ConvProblem, target: TargetCaps) -> bool:
    nc = named_conv(p, target)
    return nc is not None and nc.form == "nhwc"


def _direct_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """A linalg named conv for plain layouts (IREE lowers these well); otherwise one linalg.generic
    over the grouped logical tensors. In the NHWC form x is (N, sp.., G, C/G) already (see render_conv)."""
    d = p.desc
    sp = d.spatial()
    nsp = len(sp)
    strides, dilations = [s.s for s in sp], [s.d + 1 for s in sp]
    nc = named_conv(p, target)
    if nc is None:
        return plan.add("conv_direct", x, _out_shape(p), p.acc.mlir, wei=w, strides=strides,
                        dilations=dilations, src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    osp = tuple(s.o for s in sp)
    if nc.form == "nchw" and all(s.k == 1 for s in sp) and any(st != 1 for st in strides):
        # a strided 1x1 in NCHW (x: N, G, C/G, sp..) as a unit-stride named conv; the NHWC form lowers
        # the strided one well (~100 GFLOP/s, copying measured slower) and keeps it
        x = _strided_pixels(plan, x, sp, 3)
        strides = [1] * nsp
    if nc.kind == "grouped":              # conv_2d_ngchw_gfchw / conv_2d_nhwgc_gfhwc take the grouped tensors
        shape = _out_shape(p) if nc.form == "nchw" else (d.mb,) + osp + (d.g, d.oc // d.g)
        return plan.add("named_conv", x, shape, p.acc.mlir, op=nc.op, wei=w, strides=strides, dilations=dilations,
                        acc_dt=p.acc)
    # conv / depthwise: the group folds back into the channels
    if nc.form == "nchw":
        split = [[0], [1, 2]] + [[k] for k in range(3, 3 + nsp)]
        shape = (d.mb, d.oc) + osp
    else:
        split = [[k] for k in range(1 + nsp)] + [[1 + nsp, 2 + nsp]]
        shape = (d.mb,) + osp + (d.oc,)
    y = plan.add("named_conv", _named_operand(plan, plan.collapse(x, split), p.src.dtype), shape, p.acc.mlir,
                 op=nc.op, wei=w, strides=strides, dilations=dilations, acc_dt=p.acc)
    gshape = (d.mb, d.g, d.oc // d.g) + osp if nc.form == "nchw" else (d.mb,) + osp + (d.g, d.oc // d.g)
    return plan.expand(y, split, gshape)


def reduction_length(p: ConvProblem) -> int:
    """The values one output sums: IC/G x the kernel volume."""
    return p.desc.ic // p.desc.g * math.prod(s.k for s in p.desc.spatial())


def reduction_split(p: ConvProblem, target: TargetCaps) -> tuple[int, ...] | None:
    """direct's chunk of each reduction axis (IC/G, K..) on a target that cannot run a whole long
    reduction in one dispatch (`TargetCaps.max_reduction`), or None when it needs no split. Inner axes
    stay whole while the chunk holds at most a quarter of the limit (headroom for several outputs an
    invocation: lavapipe counts every loop of one); the first one that does not fit is cut at its
    largest divisor that does, and the outer ones into single steps. The input channels, if they are
    the axis cut, take the largest chunk that fits when their divisors are poor (IC/G = 4099, prime:
    910, the channels zero-padded to 5 x 910) rather than thousands of one-channel parts. The partial
    sums are then summed in a second step."""
    limit = target.max_reduction
    if limit is None or reduction_length(p) <= limit:
        return None
    sizes = _reduction_sizes(p)
    budget = limit // 4
    chunks = [1] * len(sizes)
    inner = 1
    for i in reversed(range(len(sizes))):
        cap = budget // inner
        fit = [c for c in range(1, min(sizes[i], cap) + 1) if sizes[i] % c == 0]
        chunks[i] = fit[-1]
        if i == 0 and chunks[i] < sizes[i] and 2 * chunks[i] < min(sizes[i], cap):
            chunks[i] = min(sizes[i], cap)              # padded: see above
        inner *= chunks[i]
        if chunks[i] < sizes[i]:
            break
    return tuple(chunks)


def _reduction_sizes(p: ConvProblem) -> tuple[int, ...]:
    return (p.desc.ic // p.desc.g,) + tuple(s.k for s in p.desc.spatial())


def _split_parts(p: ConvProblem, split: tuple[int, ...]) -> list[int]:
    """The parts of each reduction axis (the input channels padded up to whole chunks)."""
    return [-(-n // c) for n, c in zip(_reduction_sizes(p), split)]


def reduction_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    """Why a problem's reduction is too long for `target` in its variant (see TargetCaps.max_reduction)."""
    limit = target.max_reduction
    # Winograd's GEMM sums over the input channels only; every other variant over IC/G x the kernel
    length = p.desc.ic // p.desc.g if p.alg.startswith("winograd") else reduction_length(p)
    if limit is None or length <= limit:
        return None
    why = (f"each output sums {length} values, and this target stops a kernel's loops after "
           f"65535 iterations (Mesa lavapipe), so reductions over {limit} values must be split")
    if p.alg != "direct":
        return why + "; --alg=direct splits them"
    parts = _split_parts(p, reduction_split(p, target))
    if max(parts) > limit // 4:
        return why + f", and direct's split would leave {max(parts)} partial sums along one axis, over {limit // 4}"
    outputs = math.prod(_out_shape(p))
    gib = outputs * math.prod(parts) * p.acc.itemsize / 2 ** 30
    if gib > 2:
        return why + f", and direct's split would hold {gib:.1f} GiB of partial sums (at most 2)"
    return None


def _split_weights(plan: Plan, w: Value, p: ConvProblem, split: tuple[int, ...]) -> Value:
    """The grouped weights (G, OC/G, IC/G, K..) with each split reduction axis as (parts, chunk), the
    input channels zero-padded to whole chunks."""
    ic_pad = _split_parts(p, split)[0] * split[0] - w.shape[2]
    w = plan.pad(w, [0, 0, ic_pad] + [0] * (len(w.shape) - 3))
    groups, shape, ax = [[0], [1]], [w.shape[0], w.shape[1]], 2
    for n, c in zip(_split_parts(p, split), split):
        groups.append([ax, ax + 1] if n > 1 else [ax])
        shape += [n, c] if n > 1 else [c]
        ax += 2 if n > 1 else 1
    return plan.expand(w, groups, tuple(shape))


def _split_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, split: tuple[int, ...], limit: int) -> Value:
    """direct with its reduction split (`reduction_split`): partial sums (N, G, OC/G, O.., parts..), one
    per chunk of the reduction axes, with the parts innermost, then their sum over the parts, innermost
    part axes first, at most `limit` parts a step. Each dispatch then loops over a chunk or over some
    of the parts, never the whole reduction."""
    d = p.desc
    sp = d.spatial()
    parts = _split_parts(p, split)
    x = plan.pad(x, [0, 0, parts[0] * split[0] - x.shape[2]] + [0] * (len(x.shape) - 3))   # zero channels
    red = ["ic"] + [f"k{i}" for i in range(len(sp))]
    sdims = [f"s{i}" for i, n in enumerate(parts) if n > 1]
    wei_idx, idx = ["g", "oc"], []
    for i, (n, c) in enumerate(zip(parts, split)):
        wei_idx += ([f"s{i}"] if n > 1 else []) + [red[i]]
        idx.append(f"s{i} * {c} + {red[i]}" if n > 1 else red[i])
    os_ = [f"o{i}" for i in range(len(sp))]
    src_idx = ["n", "g", idx[0]] + [
        f"{o} * {s.s} + " + (f"s{i + 1} * {split[i + 1] * (s.d + 1)} + {red[i + 1]} * {s.d + 1}" if parts[i + 1] > 1
                             else f"{red[i + 1]} * {s.d + 1}")
        for i, (o, s) in enumerate(zip(os_, sp))]
    par = ["n", "g", "oc"] + os_ + sdims
    partial = plan.add("conv_packed", x, _out_shape(p) + tuple(n for n in parts if n > 1), p.acc.mlir, wei=w,
                       dims=par + red, npar=len(par), src_idx=src_idx, wei_idx=wei_idx, out_idx=par,
                       src_dt=p.src.dtype, wei_dt=p.wei.dtype, acc_dt=p.acc)
    # its own dispatch, apart from the sums (a sum fused into the partials' loops would run long again)
    partial = _barrier(plan, partial)
    shape = list(partial.shape)
    while len(shape) > len(_out_shape(p)):
        n = 1
        while len(shape) > len(_out_shape(p)) and n * shape[-1] <= limit // 4:
            n *= shape.pop()
        if n == 1:
            raise InternalError(f"split reduction: {shape[-1]} parts along one axis")   # reduction_refused
        partial = plan.add("sum_trailing", partial, tuple(shape), p.acc.mlir, acc_dt=p.acc)
    return partial


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


def _channel_block(desc) -> int | None:
    """1 for a plain format, the block size for a format with one block on C, else None."""
    if not desc.is_blocked:
        return 1
    if len(desc.blocks) == 1 and desc.blocks[0][0] == 1 and desc.outer_dims[1] == -(-desc.dims[1] // desc.blocks[0][1]):
        return desc.blocks[0][1]
    return None


def plain_blocks(p: ConvProblem, target: TargetCaps) -> tuple[MemoryDesc, MemoryDesc] | None:
    """The layouts a conv from a dense plain source computes in on a target that runs named ops on
    channel blocks (`named_blocks`): the source packed into 16-channel blocks (N, C/16, sp.., 16)
    inside the kernel; or None, where the plain source is computed as it is.

    - Depthwise, plain channels-first on both sides (ncw, nchw, ncdhw;
      TargetCaps.depthwise_named_ops): the destination is blocked too and unpacked out at the end.
      IREE 3.13 on llvm-cpu lowers the named depthwise_conv_2d_nchw_chw ~9x slower (g144 56x56 3x3
      f32, one thread: 3.98 ms against 0.46 ms for the pack, the blocks and the unpack).
    - Ungrouped 2D (TargetCaps.blocked_conv_named_ops), from a channels-first source into any
      destination, or from a channels-last one into a blocked destination (nhwc -> plain keeps the
      named NHWC conv, which reads it in place); the destination stays as it is. Measured on the
      2-core Zen 4 EPYC (f32, host threads): IREE's named conv_2d_nchw_fchw 108 / 133 / 115 / 44
      GFLOP/s on the ic64 56x56 3x3 / ic256 14x14 3x3 / ic512 7x7 3x3 / ic64 56x56 1x1 layers, the
      blocks 204 / 196 / 161 / 90 from nChw16c (README)."""
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


def pad_spatial(plan: Plan, x: Value, sp, axes) -> Value:
    """`x` with a convolution's spatial padding (`sp`: the descriptor's spatial dims) along `axes`, one
    per spatial dim: a negative padding crops the source, a positive one adds zeros."""
    def per_axis(values):
        out = [0] * len(x.shape)
        for ax, val in zip(axes, values):
            out[ax] = val
        return out

    sizes = list(x.shape)
    for ax, s in zip(axes, sp):
        sizes[ax] = s.i - max(-s.p, 0) - max(-s.p_r, 0)
    x = plan.slice(x, per_axis([max(-s.p, 0) for s in sp]), sizes)
    return plan.pad(x, per_axis([max(s.p_r, 0) for s in sp]), low=per_axis([max(s.p, 0) for s in sp]))


def _window_gather(plan: Plan, x: Value, dims: list[str], src: list[str], shape, elem: str | None = None) -> Value:
    """out[dims] = x[src]: a copy whose source indices are affine in the iteration dims (spatial-pack
    and Winograd tiles, im2col columns), laid out in iteration order; `elem` widens a float source."""
    return plan.add("window_gather", x, shape, elem or x.elem, dims=dims, src=src)


def _barrier(plan: Plan, v: Value) -> Value:
    """util.optimization_barrier: keeps IREE from fusing `v`'s producer into its consumers (see callers)."""
    return plan.add("barrier", v, v.shape, v.elem)


def _strided_pixels(plan: Plan, x: Value, sp, first: int) -> Value:
    """A strided 1x1's source with only the pixels it reads, copied once behind a barrier: `x`'s
    spatial axes start at `first`. Folded into a GEMM's or a named conv's access map instead, IREE 3.13
    cannot data-tile the GEMM (channels last) or lowers it as a generic reduction (plain layouts:
    0.24-0.45 GFLOP/s on f32 ic256 56x56 -> 28x28 stride 2; copied, 16)."""
    sizes, steps = list(x.shape), [1] * len(x.shape)
    for i, s in enumerate(sp):
        sizes[first + i], steps[first + i] = s.o, s.s
    return _barrier(plan, plan.slice(x, [0] * len(x.shape), tuple(sizes), strides=steps))


def _window(o: str, k: str, stride: int, dilation: int) -> str:
    return f"{o} * {stride} + {k} * {dilation}"


def _im2col_channels_last(p: ConvProblem, target: TargetCaps) -> bool:
    """A plain channels-last source (NHWC) keeps channels last: columns gathered as (N, O.., G, K.., IC/G)
    read whole channel runs, and the GEMM is (O, K.. IC) x (K.. IC, OC), the form IREE data-tiles (VNNI for
    s8); measured: the NCHW-order i8 gather took 1.2 of 3 ms on ic64 56x56 3x3 (README)."""
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


def _indirect_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """(G, OC/G, IC/G, K...) -> (G, OC/G, IC/G, Kvol): taps flattened like the indirection table's columns."""
    nsp = p.desc.ndims - 2
    return plan.collapse(w, [[0], [1], [2], list(range(3, 3 + nsp))])


def _indirect_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
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
    tile conv into one dispatch, iree-compile 3.13 segfaults (inferConvolutionDims; IREE_NOTES 2c)."""
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


WINOGRAD_M = {"winograd": 4, "winograd_f2": 2, "winograd_f4": 4, "winograd_f6": 6}


def _winograd_why_not(p: ConvProblem) -> str | None:
    d = p.desc
    sp = d.spatial()
    if d.ndims != 4:
        return "Winograd is generated for 2D convolutions only"
    if any(s.k != 3 for s in sp):
        return "Winograd F(m, 3) needs a 3x3 kernel"
    if any(s.s != 1 for s in sp):
        return "Winograd needs stride 1"
    if p.acc.is_int:
        return "its transforms have fractional coefficients, so integer data would not stay exact"
    return None


def _im2col_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    if target.grouped_gemm_fails and p.desc.g > 1:
        return ("IREE 3.13's inner-tiled data tiling (flag set dt+uk+inner) fails to compile its grouped GEMM "
                "('failed to legalize operation linalg.generic'): use another flag set or variant")
    return None


def _zp_tail_wrong(p: ConvProblem, target: TargetCaps) -> bool:
    """The target computes a source or weight zero point's compensation wrongly in the packed forms
    (direct's and spatial_pack's) when the destination is blocked on channels with a partial last
    block (TargetCaps.zp_compensation_wrong)."""
    return (target.zp_compensation_wrong and any(q.arg in ("src", "wei") for q in p.zero_points)
            and p.dst.block_of(1) > 1 and p.dst.padded_dims[1] != p.desc.oc)


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


def _winograd_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    if any(s.d != 0 for s in p.desc.spatial()) and not winograd_channels_last(p, target):
        return ("a dilated kernel is computed by Winograd only in its channels-last form (llvm-cpu on an avx512f "
                "CPU, f32 / bf16 / f16, ungrouped or groups of >= 16 channels): use another variant (direct, "
                "im2col; brgemm on CPUs)")
    if target.winograd_f2_one_channel_per_group_wrong and p.alg == "winograd_f2" and p.desc.ic == p.desc.g:
        return ("IREE 3.13 computes Winograd F(2,3) with one input channel per group wrongly on lavapipe "
                "(use winograd_f4 or another variant)")
    if (target.winograd_bf16_wrong and "bf16" in (p.src.dtype.name, p.wei.dtype.name)
            and (p.desc.ic // p.desc.g) % 4):
        return (f"with bf16 operands and input channels per group not a multiple of 4 ({p.desc.ic // p.desc.g}), "
                f"{target.name} computes Winograd wrongly (ic5ih6oc7oh6kh3ph1: nearly every output off): use "
                f"another variant, or f32 or f16 data")
    return None


# brgemm: oneDNN's batch-reduce GEMM convolution (brg_conv_fwd) as a generated microkernel, one per
# instruction (templates/conv_brgemm.mlir.j2). Each multiplies a broadcast 32-bit group of `k` input
# channels of one source pixel by 16 output channels x `k` of packed weights into 16 lanes of a zmm
# accumulator.
@dataclass(frozen=True)
class BrgemmIsa:
    name: str                   # the microkernel in templates/conv_brgemm.mlir.j2
    feature: str                # the CPU feature (compile.backends.MATRIX_FEATURES) it needs
    instruction: str
    src: tuple[str, ...]        # source data types (s8 is shifted to u8 with a compensation)
    wei: str
    k: int                      # input channels per 32-bit group: the instruction's depth per lane
    # the operands are widened to this type first (the weights once in prepare, the source in the
    # dispatch that pads it) and the microkernel of that name runs on them; None: used as they are
    widen: str | None = None

    @property
    def kernel(self) -> str:
        """The microkernel the template renders."""
        return self.widen or self.name


BRGEMM_ISAS = (
    BrgemmIsa("vnni", "avx512_vnni", "vpdpbusd", ("u8", "s8"), "s8", 4),
    BrgemmIsa("bf16", "avx512_bf16", "vdpbf16ps", ("bf16",), "bf16", 2),
    BrgemmIsa("f32", "avx512f", "vfmadd231ps", ("f32",), "f32", 1),
    # f16 accumulates in f32, as benchdnn expects: f16 -> f32 is exact (vcvtph2ps), and the f32
    # kernel then runs at the f32 rate. avx512_fp16's vfmadd231ph would accumulate in f16.
    BrgemmIsa("f16", "avx512f", "vfmadd231ps on f16 widened by vcvtph2ps", ("f16",), "f16", 1, widen="f32"),
)
# `brgemm_fma`: bf16 widened to f32 (exact: a bf16 is an f32 whose low 16 bits are zero) and multiplied
# on the f32 FMA kernel, as f16 always is. vdpbf16ps does 32 multiply-adds an instruction against an
# FMA's 16, but where it issues at half the FMAs' rate it gains nothing: on the 2-core Intel Xeon of the
# twenty-first session (Emerald Rapids, family 6 model 207; avx512_bf16, no AMX exposed), one thread,
# NHWC, the vdpbf16ps kernel ran ic256 56x56 1x1 at 57-72 GFLOP/s and ic128 28x28 3x3 at 74-84, the
# widened f16 kernel at 108-113 and 103-162, f32 at 104-113 (PyTorch's oneDNN bf16 was slower than its
# f32 there too). Small groups across the lanes (`brgemm_lane_groups`) run their FMAs on the widened
# source instead of pairing a group's channels on vdpbf16ps (ResNeXt-50's g32 3x3 layers, two threads:
# 0.97-1.45x brgemm). It also runs bf16 on AVX-512 CPUs without avx512_bf16.
FMA_ISAS = (
    BrgemmIsa("bf16", "avx512f", "vfmadd231ps on bf16 widened to f32", ("bf16",), "bf16", 1, widen="f32"),
)
#: the variants whose kernels run on AVX-512 vector registers (`_vector_table`): their depthwise and
#: small-group kernels, and blocked buffers read and written in place, are shared
VECTOR_BRGEMM_VARIANTS = ("brgemm", "brgemm_fma")
# AMX: one tile instruction per (16 pixels x 16 channels) accumulator tile, over K chunks of up to 64
# bytes (16 groups of k). A separate variant (`brgemm_amx`): no machine with AMX has checked it yet, so
# `--alg=auto` reaches it only through `kgen tune`, which checks every kernel before timing it.
AMX_ISAS = (
    BrgemmIsa("amx_int8", "amx_int8", "tdpbusd", ("u8", "s8"), "s8", 4),
    BrgemmIsa("amx_bf16", "amx_bf16", "tdpbf16ps", ("bf16",), "bf16", 2),
)
# Depthwise (g == ic == oc): each output channel reads its own input channel, so a 16-channel vector of
# the source (not a broadcast group) meets a vector of 16 channels' weights in one FMA per tap. Every
# source type is widened to f32 in the kernel, after the load (u8 / s8 by vpmovzx/sx + vcvtdq2ps, bf16
# by a shift, f16 by vcvtph2ps), the weights once in prepare: an 8-bit product is an integer of at most
# 255 x 128, so sums of up to DEPTHWISE_EXACT_TAPS of them are exact in f32 (under 2^24) and convert
# back to the i32 accumulator exactly. VNNI's quads would need 4 taps of one channel side by side,
# which a channels-last source does not hold.
DEPTHWISE_ISAS = (
    BrgemmIsa("dw", "avx512f", "vfmadd231ps on 8-bit integers widened to f32 (exact)", ("u8", "s8"), "s8", 1),
    BrgemmIsa("dw", "avx512f", "vfmadd231ps on bf16 widened to f32", ("bf16",), "bf16", 1),
    BrgemmIsa("dw", "avx512f", "vfmadd231ps", ("f32",), "f32", 1),
    BrgemmIsa("dw", "avx512f", "vfmadd231ps on f16 widened by vcvtph2ps", ("f16",), "f16", 1),
)
DEPTHWISE_EXACT_TAPS = (1 << 24) // (255 * 128)
# Small groups of whole k-tuples of channels across the lanes (`brgemm_lane_dot`): a 32-bit lane of
# the source holds k channels of one group, which one dot-product instruction multiplies with their k
# weights and sums into the group's lane: u8 quads on vpdpbusd, 64 useful multiplies an instruction
# against the widened FMA's 16, exact in i32 (an s8 source flipped to u8 as it is loaded, and a
# common source zero point, in the accumulators' start as the ungrouped kernel does: -(128 + zp) x
# the weights' sums, the taps outside the source, which read nothing, added back); bf16 pairs on
# vdpbf16ps, 32, in f32 as the ungrouped bf16 kernel sums them. More channels a group are more such
# vectors, de-interleaved by 32-bit lanes.
LANE_DOT_ISAS = (
    BrgemmIsa("dw_vnni", "avx512_vnni", "vpdpbusd on 4 8-bit channels of one group a lane", ("u8", "s8"), "s8", 4),
    BrgemmIsa("dw_bf16", "avx512_bf16", "vdpbf16ps on 2 bf16 channels of one group a lane", ("bf16",), "bf16", 2),
)
# A source zero point (common or per channel) is subtracted in the depthwise kernel, x - zp in f32
# after the widening (the taps outside the source then zeroed: they add nothing, as in oneDNN's
# reference): exact while taps x 128 x |x - zp| stays under 2^24, so it is fused where a window of this
# many taps is exact for every zero point within the source type's own range (|x - zp| <= 255 + 255),
# and `depthwise_src_zp_limit` bounds the value a call may pass; a longer window keeps the shared
# epilogue.
DEPTHWISE_ZP_TAPS = (1 << 24) // (2 * 255 * 128)
AMX_PIXELS, AMX_RO = 32, 2      # register block: 2 x 2 accumulator tiles + 2 source + 2 weight tiles = 8
# register block: RW output pixels x RO vectors of 16 output channels, all in zmm registers (32):
# RW * RO accumulators + RO weight vectors + 1 broadcast source group
_ZMM_REGISTERS = 32
# A block that leaves no register for the broadcast (7 x 4: 28 accumulators + 4 weight vectors) still
# compiles without spills: LLVM folds the broadcast into the multiply's memory operand ({1to16}). On
# one thread of the Zen 4 EPYC it ran 0-3% slower than 6 x 4 where that wastes nothing (56- and
# 112-wide rows: u8:s8:u8 ic64 56x56 3x3 526 against 524 us, the f32 stem 2148 against 2086) and
# faster where the others waste a block (ic512 7x7 3x3, 7 x 4 against 7 x 3, which computes 528 of
# 512 channels: u8 507 against 522 us, f32 2030 against 2084; ic256 14x14 against 5 x 4, f32 2019
# against 2079; 256 of its channels, the host-threads half: u8 260 against 290, f32 1028 against
# 1138). Its score is scaled by this, which keeps 6 x 4 where that fits.
# With IREE 3.13's LLVM that fold no longer happens (f32 and u8, target CPUs znver4 and
# sapphirerapids alike): the 7 x 4 inner loop holds the 33 values by rotating them, 52 zmm
# register moves and 4-10 stack accesses per 28 multiplies (the disassembly). On one thread of an
# Intel Xeon (Emerald Rapids) f32 ic256 14x14 3x3 ran 7 x 4 1373 us, 14 x 2 1297, 6 x 4 1425, 7 x 3
# 1474; u8 7 x 4 and 14 x 2 the same. 14 x 2 is no general answer: on the 56-wide 1x1 layers it ran
# 12-16% slower than 6 x 4 (f32 ic256 -> 64 778 against 669 us).
# Where a row takes two or more blocks, a full block is not taken: its spills move with the code
# around it, and cost up to 1.37x. In 3D (the same Xeon, one thread, 14-wide planes 3x3x3, s8 with
# scales, against 14 x 2): ic128 -> 128 1.15x slower, ic256 -> 128 1.12x, I3D's ic160 -> 160 1.37x;
# f32 ic128 1.04x. In 2D (the same Xeon): u8:s8:u8 ic256 14x14 3x3's two
# host-threads halves, identical code but for the padded side, ran 7 x 4 145 and 162 us, 14 x 2 142
# and 143; the whole layer on host threads 7 x 4 177 us, 14 x 2 164, 5 x 4 164 (ic128: 61, 54, 55);
# f32 711, 682, 711 (ic128: 187, 177, 178); bf16 on FMAs 714, 691, 728 (195, 182, 185). Where one
# block covers the row it still wins (7-wide ic256 -> 256, 3D: 7 x 4 693 us, 14 x 2 731, 7 x 3 787).
FULL_BLOCK_SCORE = 0.85
# A block that covers a whole padded row, computing its channels whole, scores this much more: one
# block then reads both padded sides, and the row is not split into edge and inner blocks. Measured on
# the Xeon, host threads, 3x3 with padding, us (u8:s8:u8 / f32): 14-wide ic256 14 x 2 164 / 682, 5 x 4
# 164 / 711; ic128 54 / 177 and 55 / 178 (one thread: 14 x 2 the fastest or within 1% of it on every
# 14-wide layer, 1-5% ahead of 5 x 4 on the 3x3 ones); 10-wide ic256 10 x 2 89 / 370, 5 x 4 94 / 378;
# 12-wide 12 x 2 135 / 501, 6 x 4 133 / 508; 8-wide 8 x 2 70 / 311, 4 x 4 66 / 307 (the bonus is small
# enough to leave 4 x 4 there, and 5 x 4 on 10-wide rows). Not where the block computes channels past
# OC: 7-wide 160 channels 7 x 4 36 / 93 us against 4 x 5 31 / 69, 9-wide 80 channels 9 x 3 45 / 93
# against 5 x 5 44 / 68. Not on unpadded rows (1x1), where no block led (ic1024 14x14 1x1 -> 256:
# 5 x 4 82 / 351, 14 x 2 87 / 336; one thread 145 / 590 and 145 / 600).
ROW_BLOCK_SCORE = 1.2
# the most vectors of output channels a register block takes: 5 (5 x 5, 31 registers) computes I3D's
# 160 and 80 channels whole, where 4 computes 192 and 96 (ic160 16x14x14 3x3x3 s8, one thread of the
# Xeon: 5 x 5 5203 us against the former 7 x 4 6954). Not on the depthwise kernel, whose vectors are
# loads, not broadcasts: 3D f32 g160 14x14 5 x 5 104 us against 14 x 2 90, g80 28x28 254 against 218.
# Only where 5 divides the channel vectors: elsewhere the score took 5 x 5 for ResNet's 1024 channels
# (65 vectors for 64), 1-7% behind 5 x 4 on host threads (the Xeon, ic256 14x14 1x1 -> 1024: u8 96
# against 94 us, f32 334 against 331, bf16 on FMAs 340 against 318).
_MAX_RO = 5


def depthwise_src_zp_limit(p: ConvProblem) -> int | None:
    """The largest |source zero point| the depthwise kernel of `p` computes exactly, where it subtracts
    the source zero point (common or per channel) itself (`DEPTHWISE_ZP_TAPS`); None where it does not.
    The API refuses a call whose values pass it."""
    if not (brgemm_depthwise(p) and not brgemm_lane_dot(p) and p.zero_point("src") is not None
            and _brgemm_fuses_epilogue(p, GENERIC)):
        return None             # (a dot product's sums are i32, exact)
    x_max = 255 if p.src.dtype.name == "u8" else 128
    return ((1 << 24) - 1) // (reduction_length(p) * 128) - x_max


def brgemm_depthwise(p: ConvProblem) -> bool:
    """brgemm runs `p` on its depthwise kernel (`DEPTHWISE_ISAS`), the groups across the vector lanes:
    a depthwise conv (each output channel vector reading the same 16 channels of the source), or one
    whose groups are small (`brgemm_lane_groups`). The kernel sees one group of G channels."""
    return brgemm_lane_groups(p) is not None


#: A group's input and output channels the depthwise kernel takes across its lanes
#: (`brgemm_lane_groups`): a power of two, whose lane shuffles (`steps.lane_unzip`, `lane_zip`) are
#: a binary tree.
LANE_GROUP_CHANNELS = (1, 2, 4, 8)


def brgemm_lane_groups(p: ConvProblem) -> tuple[int, int] | None:
    """(cg, kg), a group's input and output channels, where brgemm runs `p` with the groups across the
    vector lanes on its depthwise kernel: each vector holds one channel of 16 groups, so a tap is cg x
    kg FMAs of whole vectors (or fewer dot products, `brgemm_lane_dot`). Depthwise is (1, 1);
    ResNeXt's and RegNet's groups of 4 or 8 channels and a depthwise conv's channel multiplier (oc = k
    x g) are the others. The source's 16 groups x cg channels are cg vectors in channel order,
    de-interleaved in registers (`steps.lane_unzip`), and the kg accumulators of each pixel are
    interleaved back (`steps.lane_zip`) before the stores, which see whole vectors of 16 output
    channels in order as for any other conv. The ungrouped kernel instead pads each group's kg output
    channels to a vector of 16: on ResNeXt-50's g32 3x3 convs with 4 channels a group, four times the
    work. So the lanes are taken where one instruction over them does at least the useful multiplies
    of one instruction of the ungrouped kernel: 16 x k there (k the channels its instruction reduces:
    4 for 8-bit on vpdpbusd, 2 for bf16, 1 for f32; a group's cg padded to whole k and its kg to 16),
    and 16 x k' over the lanes, G groups filling ceil(G / 16) vectors (k' = 4 for 8-bit quads on
    vpdpbusd, 2 for bf16 pairs on vdpbf16ps, else 1). On one thread of the Zen 5 (README) the lanes
    gained in f32, bf16 and u8 at 4 and 8 channels a group, RegNetY's 13 of 16 lanes filled included;
    u8 widened to f32 (a per-channel source zero point) lost at 8, where the ungrouped vpdpbusd fills
    its quads (156 against 294 GOP/s on two threads). Not for 8-bit sums that the widened f32
    accumulators would not hold exactly (`DEPTHWISE_EXACT_TAPS`), nor a group outside
    `LANE_GROUP_CHANNELS`."""
    d = p.desc
    if p.alg not in VECTOR_BRGEMM_VARIANTS or d.g == 1:
        return None
    cg, kg = d.ic // d.g, d.oc // d.g
    if cg == kg == 1:
        return 1, 1
    if cg not in LANE_GROUP_CHANNELS or kg not in LANE_GROUP_CHANNELS:
        return None
    dot = _lane_dot_isa(p, cg)
    if p.src.dtype.is_int and not dot and d.kd * d.kh * d.kw * cg > DEPTHWISE_EXACT_TAPS:
        return None
    isa = next((i for i in _vector_table(p) if p.src.dtype.name in i.src and p.wei.dtype.name == i.wei), None)
    k = isa.k if isa else 1
    ungrouped = k * kg * cg / (-(-cg // k) * k)
    lanes = 16 * d.g / (-(-d.g // 16) * 16) * (dot.k if dot else 1)
    return (cg, kg) if isa is None or lanes >= ungrouped else None


def _lane_dot_isa(p: ConvProblem, cg: int) -> BrgemmIsa | None:
    """The dot-product instruction (`LANE_DOT_ISAS`) groups of `cg` channels take across the lanes:
    whole k-tuples of a group's channels, in its source and weight types; not with a source zero point
    per channel (its correction would depend on the values: the FMA on the widened source subtracts
    it instead); None: the FMA on the widened source."""
    if p.alg == "brgemm_fma":  # its FMAs on the widened source
        return None
    isa = next((i for i in LANE_DOT_ISAS if p.src.dtype.name in i.src and p.wei.dtype.name == i.wei), None)
    zp = p.zero_point("src")
    if isa is None or cg % isa.k or (zp is not None and zp.per_channel):
        return None
    return isa


def brgemm_lane_dot(p: ConvProblem) -> BrgemmIsa | None:
    """The dot-product instruction `p`'s small groups run on across the lanes (`LANE_DOT_ISAS`), or
    None (depthwise, the FMA on the widened source, or not across the lanes)."""
    lanes = brgemm_lane_groups(p)
    return _lane_dot_isa(p, lanes[0]) if lanes is not None and lanes != (1, 1) else None


def _brgemm_table(p: ConvProblem) -> tuple[BrgemmIsa, ...]:
    """The microkernels of `p`'s variant: brgemm's AVX-512 ones, its depthwise ones, brgemm_fma's
    widened bf16, or brgemm_amx's tiles."""
    if p.alg == "brgemm_amx":
        return AMX_ISAS
    if brgemm_depthwise(p):
        return DEPTHWISE_ISAS
    return _vector_table(p)


def _vector_table(p: ConvProblem) -> tuple[BrgemmIsa, ...]:
    """The ungrouped AVX-512 microkernels of `p`'s variant (`VECTOR_BRGEMM_VARIANTS`): brgemm_fma's
    widened bf16, else brgemm's."""
    return FMA_ISAS if p.alg == "brgemm_fma" else BRGEMM_ISAS


def brgemm_isa(p: ConvProblem) -> BrgemmIsa | None:
    """The microkernel of `p`'s variant for its source and weight data types, or None."""
    dot = brgemm_lane_dot(p)
    if dot is not None:
        return dot
    return next((i for i in _brgemm_table(p) if p.src.dtype.name in i.src and p.wei.dtype.name == i.wei), None)


def _brgemm_why_not(p: ConvProblem) -> str | None:
    d = p.desc
    if brgemm_isa(p) is None:
        have = ", ".join(f"{'/'.join(i.src)} x {i.wei} ({i.instruction})" for i in _brgemm_table(p))
        return f"its microkernels multiply {have}, not {p.src.dtype.name}:{p.wei.dtype.name}"
    if p.alg == "brgemm_amx" and d.g > 1:
        return "its AMX kernel is generated for ungrouped convolutions only (use brgemm for groups)"
    # (small groups sum cg products a tap, and leave the lanes before they pass it: only depthwise's
    # taps reach it)
    if (brgemm_depthwise(p) and p.src.dtype.is_int and not brgemm_lane_dot(p)
            and reduction_length(p) > DEPTHWISE_EXACT_TAPS):
        return (f"its depthwise kernel sums 8-bit products in f32, exact up to {DEPTHWISE_EXACT_TAPS} taps, "
                f"and this window has {reduction_length(p)} (use direct)")
    if d.ndims == 5 and p.alg == "brgemm_amx":
        return "its AMX kernel is generated for 1D and 2D convolutions only (use brgemm for 3D)"
    return None


def _brgemm_fma_why_not(p: ConvProblem) -> str | None:
    if (p.src.dtype.name, p.wei.dtype.name) != ("bf16", "bf16"):
        return (f"it runs bf16 x bf16 only (widened to f32 on FMAs); use brgemm for "
                f"{p.src.dtype.name}:{p.wei.dtype.name} (f16 is widened there already)")
    why = _brgemm_why_not(p)
    if why is None and brgemm_isa(dataclasses.replace(p, alg="brgemm")).feature != "avx512_bf16":
        # (depthwise, a channel multiplier, groups of one channel: no pair to dot)
        return "brgemm multiplies this convolution's bf16 on FMAs already (use brgemm)"
    return why


def _brgemm_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    isa = brgemm_isa(p)
    if isa.feature not in target.cpu_features:
        have = ", ".join(sorted(target.cpu_features)) or "none"
        return (f"its {p.src.dtype.name} microkernel ({isa.instruction}) needs a CPU with {isa.feature} "
                f"(this target's matrix features: {have})")
    return None


def brgemm_blocking(p: ConvProblem, target: TargetCaps = GENERIC) -> tuple[int, int, int]:
    """(rw, ro, rh): the register block (rw output pixels x ro vectors of 16 channels, rw * ro + ro + 1
    zmm registers) and the output rows per workgroup. The block maximises the multiplies (one instruction
    per accumulator) per load (rw * ro per ro weight loads + rw broadcasts: the loads bound the kernel as
    much as the multiplies) times the share of useful work (OW and OC rounded up to whole blocks are computed and cropped):
    ic64 56x56 3x3 takes 6 x 4 (one thread: 245 us; 4 x 4: 280 us), a 7-wide layer 7 x 4, not 1 x 4.
    Where the target bounds the weight panel (`TargetCaps.weight_panel_bytes`), 3 or 4 vectors are taken
    only where their panel fits (YOLOv2's ic1024 3x3 layers on an Intel core: 10 x 2 instead of 5 x 4,
    1.7-1.9x). Up to 5 vectors (`_MAX_RO`: 160 and 80 channels whole; 4 on the depthwise kernel); a block
    of 33 registers (`FULL_BLOCK_SCORE`) not where a row takes two or more of them; a block that covers
    a padded row, its channels whole, preferred (`ROW_BLOCK_SCORE`: 14 x 2 on 14-wide rows).
    rh cuts the rows into about 8 workgroups per channel block and image, for every core."""
    sp = p.desc.spatial()
    # a group's channels; depthwise: all of them, as one group; small groups across the lanes: the
    # groups (a vector is 16 of them)
    lanes = brgemm_lane_groups(p)
    oc = p.desc.oc if lanes == (1, 1) else p.desc.g if lanes else p.desc.oc // p.desc.g
    ow, oh = sp[-1].o, sp[-2].o if len(sp) >= 2 else 1
    if p.alg == "brgemm_amx":
        return AMX_PIXELS, AMX_RO, max(1, -(-oh // 8))
    depthwise = brgemm_depthwise(p)       # 3D depthwise: its own kernel, measured with 4 vectors at most

    padded_row = sp[-1].p > 0 or sp[-1].p_r > 0

    def score(rw: int, ro: int) -> tuple[float, int]:
        useful = ow / (-(-ow // rw) * rw) * oc / (-(-oc // (16 * ro)) * 16 * ro)
        full = rw * ro + ro + 1 > _ZMM_REGISTERS
        if full and rw < ow and not depthwise:
            return 0.0, 0           # (FULL_BLOCK_SCORE)
        row_block = padded_row and rw >= ow and oc % (16 * ro) == 0
        return (rw * ro / (rw + ro) * useful * (FULL_BLOCK_SCORE if full else 1)
                * (ROW_BLOCK_SCORE if row_block else 1)), rw * ro

    # written in the destination's 16-channel blocks, a workgroup's RO vectors must not run past them
    # depthwise: the source's channels too, read a vector at a time (whole vectors need no padded copy)
    whole = brgemm_dst_blocks(p) or depthwise
    if lanes and (len(sp) < 3 or lanes != (1, 1)):
        return (*_depthwise_blocking(p, ow, oc, whole), max(1, -(-oh // 8)))
    vectors = -(-oc // 16)
    ros = [ro for ro in range(1, min(4 if depthwise else _MAX_RO, vectors) + 1)
           if (not whole or vectors % ro == 0) and (ro < _MAX_RO or vectors % ro == 0)]
    if target.weight_panel_bytes is not None:      # 1 or 2 vectors always (1 alone is slower still)
        ros = [ro for ro in ros if ro <= 2 or _weight_panel_bytes(p, ro) <= target.weight_panel_bytes]
    blocks = [(rw, ro) for ro in ros for rw in range(1, min(16, (_ZMM_REGISTERS - ro) // ro) + 1)]
    rw, ro = max(blocks, key=lambda b: score(*b))
    return rw, ro, max(1, -(-oh // 8))


def _weight_panel_bytes(p: ConvProblem, ro: int) -> int:
    """The weights a brgemm workgroup multiplies every register block with: its whole reduction (a
    group's taps x input channels) x ro vectors of 16 output channels, in the type the microkernel reads
    them in (widened f16 / bf16: f32)."""
    isa = brgemm_isa(p)
    elem = get_dtype(isa.widen).itemsize if isa is not None and isa.widen else p.wei.dtype.itemsize
    return reduction_length(p) * 16 * ro * elem


def _depthwise_blocking(p: ConvProblem, ow: int, oc: int, whole: bool) -> tuple[int, int]:
    """(rw, ro) of the depthwise kernel, whose kernel row is unrolled (templates/conv_brgemm.mlir.j2,
    dw_taps): each distinct source column of the row is loaded and widened once per channel vector and
    meets the (pixel, tap) pairs that read it, so the block maximises the FMAs per load (rw x KW FMAs
    against its columns and KW weight vectors) times the useful share, with rw * ro accumulators, KW
    weights and two columns in the registers; then the bigger block (fewer loop trips). Small groups
    across the lanes (`brgemm_lane_groups`, cg x kg): ro counts blocks of 16 groups, each column is cg
    loads and cg x log2(cg) shuffles, a tap cg x kg FMAs whose weights come from memory (too many to
    hold), and rw * ro * kg accumulators and a column's cg vectors, twice over for the shuffles, fill
    the registers."""
    d = p.desc
    kw, sw, dw = d.kw, d.sw, d.dw + 1
    cg, kg = brgemm_lane_groups(p)
    dot = brgemm_lane_dot(p)
    cg //= dot.k if dot else 1      # a column's vectors: a dot's lanes hold k channels
    vectors = -(-oc // 16)
    shuffles = max(cg.bit_length() - 1, 0)

    def score(rw: int, ro: int) -> tuple[float, int]:
        cols = len({r * sw + k * dw for r in range(rw) for k in range(kw)})
        useful = ow / (-(-ow // rw) * rw)
        return rw * kw * cg * kg / (cols * cg * (1 + shuffles) + kw * cg * kg) * useful, rw * ro

    def fits(rw: int, ro: int) -> bool:
        # small groups: a column's cg vectors and their de-interleaving's as many again, and 6 more
        # (weights, masks): with only cg + 2 held, LLVM spilled accumulators (one thread of the Zen 5,
        # 8 channels a group 28x28: f32 109 -> 168 GFLOP/s at 1 x 8 accumulators instead of 2 x 8,
        # u8 493 -> 627 GOP/s at 2 x 8 instead of 3 x 8; 4 a group within 5% either way; bf16 with
        # 13 of 16 lanes filled 15% slower, with 16 12% faster)
        held = kw + 2 if kg == cg == 1 else 2 * cg + 6
        return rw * ro * kg + held <= _ZMM_REGISTERS

    blocks = [(rw, ro) for ro in range(1, min(4, vectors) + 1) if not whole or vectors % ro == 0
              for rw in range(1, 17) if fits(rw, ro)]
    return max(blocks, key=lambda b: score(*b)) if blocks else (1, 1)


def _brgemm_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """(G, OC/G, IC/G, [KH,] KW) -> (G*OCB, KH, KW, ICp/k, RO, 16*k): per group and block of RO*16 output
    channels, tap and group of k input channels (`BrgemmIsa.k`), RO rows of 16 channels x k input
    channels (the instruction's operand order: vpdpbusd's quads, vdpbf16ps's pairs, an FMA's single
    channel); each group's channels padded with zero weights to whole blocks."""
    d = p.desc
    _, ro, _ = brgemm_blocking(p, target)
    isa = brgemm_isa(p)
    k = isa.k
    if isa.widen:
        w = _widen(plan, w, p.wei.dtype, isa.widen)
    lanes = brgemm_lane_groups(p)
    if lanes and lanes != (1, 1):
        return _lane_group_weights(plan, w, p, ro)
    if brgemm_depthwise(p):   # (G, 1, 1, ..) -> one group of G output channels over one input channel, in f32
        if p.wei.dtype.name != "f32":
            w = _widen(plan, w, p.wei.dtype, "f32")
        w = plan.collapse(w, [[0, 1, 2], *[[i] for i in range(3, len(w.shape))]])
        w = plan.expand(w, [[0, 1, 2], *[[i + 2] for i in range(1, len(w.shape))]], (1, d.g, 1, *w.shape[1:]))
    if d.ndims == 3:
        w = plan.expand(w, [[0], [1], [2], [3, 4]], w.shape[:3] + (1,) + w.shape[3:])   # G OC IC 1 KW
    if d.ndims == 5:          # 3D: the taps (kd, kh) are one row dim of KD * KH (Brgemm.depth)
        w = plan.collapse(w, [[0], [1], [2], [3, 4], [5]])                              # G OC IC KD*KH KW
    taps = brgemm_fold_taps(p)
    if taps:                  # a kernel row as one tap of KWf * IC channels, kw outer (the unfolded source's order)
        w = plan.pad(w, [0, 0, 0, 0, taps - w.shape[4]])                               # zero taps after the row
        g, oc, ic, kh, _ = w.shape
        w = plan.transpose(w, [0, 1, 4, 2, 3])                                          # G OC KWf IC KH
        w = plan.collapse(w, [[0], [1], [2, 3], [4]])
        w = plan.expand(w, [[0], [1], [2], [3, 4]], (g, oc, taps * ic, kh, 1))          # G OC KWf*IC KH 1
    g, oc, ic, kh, kw = w.shape
    ocp, icp = -(-oc // (16 * ro)) * 16 * ro, brgemm_channels(p, ic)
    w = plan.pad(w, [0, ocp - oc, icp - ic, 0, 0])
    w = plan.expand(w, [[0], [1, 2, 3], [4, 5], [6], [7]], (g, ocp // (16 * ro), ro, 16, icp // k, k, kh, kw))
    w = plan.transpose(w, [0, 1, 6, 7, 4, 2, 3, 5])                                  # G OCB KH KW ICk RO 16 k
    return plan.collapse(w, [[0, 1], [2], [3], [4], [5], [6, 7]])


def _lane_group_weights(plan: Plan, w: Value, p: ConvProblem, ro: int) -> Value:
    """Small groups across the lanes (`brgemm_lane_groups`): (G, kg, cg, [KD,] [KH,] KW) -> (GB, KH, KW,
    cg, RO * kg, 16) in f32, per block of RO x 16 groups, tap and input channel j of a group, the vector
    of output channel v of 16 groups (lane = group) at RO index o * kg + v; the groups past G zero. On
    a dot product (`brgemm_lane_dot`, k channels a lane), (GB, KH, KW, cg / k, RO * kg, 16 * k) in the
    weights' type: a lane is a group's k-tuple j of input channels."""
    d = p.desc
    cg, kg = brgemm_lane_groups(p)
    dot = brgemm_lane_dot(p)
    quad = dot.k if dot else 1
    if p.wei.dtype.name != "f32" and quad == 1:
        w = _widen(plan, w, p.wei.dtype, "f32")
    if d.ndims == 3:
        w = plan.expand(w, [[0], [1], [2], [3, 4]], w.shape[:3] + (1,) + w.shape[3:])   # G kg cg 1 KW
    if d.ndims == 5:          # 3D: the taps (kd, kh) are one row dim of KD * KH (Brgemm.depth)
        w = plan.collapse(w, [[0], [1], [2], [3, 4], [5]])                              # G kg cg KD*KH KW
    g, _, _, kh, kw = w.shape
    gb = -(-g // (16 * ro))
    w = plan.pad(w, [gb * ro * 16 - g, 0, 0, 0, 0])
    w = plan.expand(w, [[0, 1, 2], [3], [4, 5], [6], [7]], (gb, ro, 16, kg, cg // quad, quad, kh, kw))
    w = plan.transpose(w, [0, 6, 7, 4, 1, 3, 2, 5])                           # GB KH KW cg/q RO kg 16 q
    return plan.collapse(w, [[0], [1], [2], [3], [4, 5], [6, 7]])


def _widen(plan: Plan, v: Value, dt, to: str) -> Value:
    """`v` (floats of type `dt`, or 8-bit integers) converted exactly to the wider float type `to`."""
    wide = get_dtype(to)
    return plan.add("convert", v, v.shape, wide.mlir, route="f32", src=dt, dst=wide, quant=[], apply=[],
                    lo=wide.min, hi=wide.max, ilo=0, ihi=0, bf16_bits=False)


#: How much smaller the padded reduction must get for brgemm to fold a kernel row's taps into the
#: channels (`brgemm_fold_taps`): the stem in int8, 7 taps x 3 channels, pads to 7 x 4 = 28 per row as
#: it is and to 8 x 3 = 24 folded (0.86).
KW_FOLD_GAIN = 0.9


def brgemm_fold_taps(p: ConvProblem) -> int | None:
    """The taps a kernel row is read as when brgemm folds it into the channels, or None: the row's KW
    taps of IC channels (and enough zero-weight taps after them to make whole groups of k) as one tap
    of KWf * IC channels, contiguous in a channels-last source row, which the kernel reads through an
    overlapping view of the padded source, nothing copied (`_brgemm_compute`, `Brgemm.unfold`), the
    weights folded in prepare (`_brgemm_weights`). The microkernel pads each tap's channels to whole groups of k (4 for
    u8, 2 for bf16): 3 channels compute as 4, a third wasted; a 1D audio front end's single channel
    as 4, three quarters wasted. Not for dilated rows, a source zero point (each pixel's start
    counts taps), groups, 3D or AMX."""
    d = p.desc
    if (p.alg != "brgemm" or d.ndims == 5 or d.g != 1 or d.kw == 1 or d.dw != 0
            or p.zero_point("src") is not None or brgemm_src_block(p)):
        return None
    isa = brgemm_isa(p)
    if isa is None or isa.k == 1:
        return None
    taps = next(t for t in range(d.kw, d.kw + isa.k + 1) if t * d.ic % isa.k == 0)
    return taps if taps * d.ic <= KW_FOLD_GAIN * (-(-d.ic // isa.k) * isa.k * d.kw) else None


def _fold_groups(p: ConvProblem, real: int) -> tuple[int, int]:
    """A folded row's groups of k elements the kernel multiplies (the groups past the row's `real`
    elements are left out: their weights are zero), and the i32 AND mask that keeps the real elements
    of the last one and clears its filler, or -1 where nothing needs clearing (`Brgemm.unfold`). The
    filler reads real source elements of the next pixels against zero weights: exact in integers,
    but in a float kernel an Inf or NaN there would make 0 x Inf = NaN in an output whose window
    holds neither."""
    k = brgemm_isa(p).k
    groups, fill = -(-real // k), -real % k
    if fill == 0 or p.src.dtype.is_int:
        return groups, -1
    keep = (1 << (32 // k * (k - fill))) - 1    # the group's first elements are its low bits
    return groups, keep - (1 << 32) if keep >= 1 << 31 else keep


def brgemm_channels(p: ConvProblem, ic: int) -> int:
    """A group's input channels padded for the microkernel: to a multiple of k (one 32-bit group); for
    AMX, beyond one 64-byte K chunk, to whole chunks (a tile row is one chunk)."""
    isa = brgemm_isa(p)
    icp = -(-ic // isa.k) * isa.k
    if p.alg == "brgemm_amx":
        chunk = 64 // p.src.dtype.itemsize
        icp = icp if icp <= chunk else -(-ic // chunk) * chunk
    return icp


def _in_blocks(p: ConvProblem, desc: MemoryDesc, view: bool) -> int:
    """The channel block of `desc` where brgemm can read or write its buffer in place: one block level,
    on the channels only, the spatial dims in order (nCw16c, nChw16c, nChw8c, MegEngine's NCHW4), the
    tag's own dense layout or, with `view`, a view of one (a band of rows of a bigger image: the
    host-threads row cut); 0 otherwise. Ungrouped 1D and 2D brgemm only (3D folds its depth into the
    images, which a channel-block axis outside the depth would not allow)."""
    d = p.desc
    if p.alg not in VECTOR_BRGEMM_VARIANTS or (d.g != 1 and not brgemm_depthwise(p)) or d.ndims == 5 \
            or not desc.is_blocked:
        return 0
    if tuple(desc.order) != tuple(range(d.ndims)):
        return 0
    if not (relayout.is_canonical(desc) or (view and desc.pitch() is not None)):
        return 0
    return _channel_block(desc) or 0


def brgemm_src_block(p: ConvProblem) -> int:
    """The channel block b of a blocked source that brgemm reads in place, or 0: its packed tensor
    (N, ICp/b, [H,] W, b) is padded spatially and the kernel reads a group of k channels at
    [n, ic / b, ih, iw, ic % b] (k divides b, so a group never spans two blocks; the block's channels
    past IC hold zero and meet zero weights). Before, a blocked source was laid out channels last in
    the kernel: on ic256 56x56 1x1 -> 64 in u8 nChw16c that relayout and the result's way back took
    ~190 of ~670 us."""
    b = _in_blocks(p, p.src, view=True)
    isa = brgemm_isa(p)
    if brgemm_depthwise(p):   # a vector of 16 channels is one block's pixel (a dot's 16 k: k blocks)
        return b if b == 16 and isa is not None and _whole_lane_blocks(p) and not brgemm_lane_dot(p) else 0
    return b if b > 1 and isa is not None and b % isa.k == 0 else 0


def _brgemm_src_view(p: ConvProblem) -> BrgemmView | None:
    """How brgemm reads a blocked source that is a view of a bigger buffer (a band of rows: the
    host-threads row cut) where it lies, or None where it is read as a tensor: a strided memref over the
    whole buffer, where nothing is padded, shifted or widened on the way (else those make the copy
    anyway) and the source is not its tag's dense layout (which is a tensor already, with no copy).
    Without it, IREE copies the band into a buffer of its own before the kernel reads it."""
    d = p.desc
    pitch = p.src.pitch()
    if (d.ndims != 4 or relayout.is_canonical(p.src) or pitch is None or pitch.has_gap_dim
            or p.src.dtype.name == "s8" or brgemm_isa(p).widen or any(a.p != 0 or a.p_r > 0 for a in d.spatial())):
        return None
    strides = tuple(math.prod(pitch.shape[k + 1:]) for k in range(len(pitch.shape)))    # row-major
    return BrgemmView(pitch.data_shape, strides, p.src.offset0)


def brgemm_dst_blocks(p: ConvProblem) -> bool:
    """True when brgemm writes a blocked destination's 16-channel blocks itself: nCw16c / nChw16c,
    the epilogue in the stores (`_brgemm_fuses_epilogue`), each 16-channel vector one store at
    [n, oc / 16, oh, ow, 0], the lanes past OC stored as 0 (the epilogue's f(0) may not be: a
    destination zero point, a NaN source against a padded channel's zero weights)."""
    return (_in_blocks(p, p.dst, view=False) == 16 and _brgemm_fuses_epilogue(p, GENERIC)
            and (not brgemm_depthwise(p) or _whole_lane_blocks(p)))


def _whole_lane_blocks(p: ConvProblem) -> bool:
    """The depthwise kernel's vectors are a blocked side's 16-channel blocks: depthwise (G padded to
    whole vectors is the blocks' own padding), or small groups across the lanes (`brgemm_lane_groups`)
    in whole vectors of 16 groups; a tail of groups would read and write cg and kg vectors past the
    last block (20 groups of 4: 8 blocks against the buffer's 5)."""
    return brgemm_lane_groups(p) == (1, 1) or p.desc.g % 16 == 0


def _brgemm_compensation(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value | None:
    """The sum of each output channel's weights over its input channels, per tap, (KH*KW, OCp) i32,
    computed once in prepare as oneDNN's compensations are, for an s8 source (which the kernel shifts to
    u8, x + 128) and a common source zero point applied in the kernel: each output starts from
    -(128 + zp) x the sum over the taps it reads. The padding holds 0 after the shift and its taps are
    skipped, so they do not count (`Brgemm.real_tap_starts`: the sums of the kernel rows and columns
    each pixel reads); where the shift happens after the zero padding instead (a folded row), padded
    taps contribute 128 * w and the sum over all taps cancels them."""
    zp_in_kernel = p.zero_point("src") is not None and _brgemm_fuses_epilogue(p, target)
    if (p.src.dtype.name != "s8" and not zp_in_kernel) or (brgemm_depthwise(p) and not brgemm_lane_dot(p)):
        return None           # depthwise widens s8 as it is, and subtracts a source zero point from x
    return plan.add("brgemm_compensation", w, (w.shape[1] * w.shape[2], w.shape[0] * w.shape[4] * 16), "i32")


def _brgemm_fuses_epilogue(p: ConvProblem, target: TargetCaps) -> bool:
    """brgemm stores the destination itself (`StoreEpilogue`) for the inference epilogue: common
    source / destination scales, common or per-output-channel weight scales, common source and
    destination zero points (the source's as -zp x each channel's weight sum over the taps each pixel
    reads in the accumulators' start, `Brgemm.real_tap_starts`, the padding holding 0: a zero point
    outside the source's type, which oneDNN allows, could not fill it; depthwise subtracts it, common or per channel, from
    what it loads), a per-channel destination zero point, an f32 bias, a ReLU, a sum (then a ReLU) into a dense
    channels-last destination (`_store_post_ops`), and a u8, s8, f32 or
    bf16 or f16 (from a float accumulator) destination. Other zero points, other post-ops and
    other types keep the shared epilogue after it, and so does the AMX kernel (its accumulator tiles are
    stored as they are)."""
    dst = p.dst.dtype.name
    # the source's zero point starts the accumulators, over the taps each pixel reads
    # (`Brgemm.real_tap_starts`, 3D too); depthwise subtracts it from each tap it reads (DEPTHWISE_ZP_TAPS);
    # small groups on a dot product: i32 sums, the zero point in their start, its border taps
    # corrected in the kernel, 3D too
    widened_dw = brgemm_depthwise(p) and not brgemm_lane_dot(p)
    zp_args = ("dst",) if widened_dw and reduction_length(p) > DEPTHWISE_ZP_TAPS else ("src", "dst")
    # per channel: the destination's (loaded per vector in the stores), depthwise's source's too
    per_channel = ("src", "dst") if widened_dw else ("dst",)
    return (p.alg != "brgemm_amx" and all(q.arg in zp_args and (not q.per_channel or q.arg in per_channel)
                                          for q in p.zero_points)
            and _store_post_ops(p) is not None and (not p.bias or p.bias_dt == "f32")
            and all(q.arg == "wei" or not q.per_channel for q in p.scales)
            and (dst in ("u8", "s8", "f32") or (dst in ("bf16", "f16") and not p.acc.is_int))
            and _result_elem(p, target) == p.dst.dtype.mlir)


def _store_post_ops(p: ConvProblem) -> tuple[Sum | None, bool] | None:
    """(sum, relu) when brgemm's stores can apply `p`'s post-ops: none, a ReLU, a sum, or a sum then a
    ReLU (ResNet's residual join). The sum reads the prior destination in the kernel, so it needs a
    dense channels-last destination and the destination's own type; None otherwise."""
    ops = list(p.post_ops)
    relu = bool(ops) and ops[-1] == RELU
    if relu:
        ops.pop()
    if not ops:
        return None, relu
    if len(ops) == 1 and isinstance(ops[0], Sum) and ops[0].dt in (None, p.dst.dtype.name) \
            and p.dst.is_dense and not p.dst.is_blocked and p.dst.order == (0, *range(2, p.desc.ndims), 1):
        return ops[0], relu
    return None


def store_epilogue_args(p: ConvProblem) -> StoreEpilogue:
    """The runtime operands of a fused epilogue, named and typed as the kernel function takes them
    (bias, then the scales and zero points in `ConvProblem.quant_args` order, then the sum's prior
    destination: the API's argument order)."""
    quant = {name: Value(name, p.quant_shape(q), p.quant_dtype(name).mlir) for name, q in p.quant_args()}
    bias = Value("bias", (p.desc.oc,), "f32") if p.bias else None
    total, relu = _store_post_ops(p)
    dst_init = Value("dst_init", (p.dst.buffer_nelems,), p.dst.dtype.mlir) if total else None
    return StoreEpilogue(bias=bias, src_scale=quant.get("src_scale"), wei_scale=quant.get("wei_scale"),
                         dst_scale=quant.get("dst_scale"), src_zp=quant.get("src_zp"), dst_zp=quant.get("dst_zp"),
                         relu=relu, dst_dt=p.dst.dtype,
                         args=([bias] if bias else []) + list(quant.values()) + ([dst_init] if dst_init else []),
                         dst_init=dst_init, sum_scale=float(np.float32(total.scale)) if total else 1.0,
                         sum_zp=total.zero_point if total else 0)


def brgemm_packs_int8_stores(epilogue: StoreEpilogue | None, dst_blocks: bool, oc_real: int, lane_zipped: bool,
                             target: TargetCaps) -> bool:
    """Whether brgemm narrows each 4 (or 2) channel vectors of a pixel together
    (`Brgemm.pack_int8_stores`): a u8 or s8 destination, channels last with whole vectors (they lie side
    by side and none is masked), on AVX-512 BW's packs (every CPU with avx512_vnni has them). Small
    groups across the lanes store theirs interleaved (`lane_zip`), one vector at a time."""
    return (epilogue is not None and epilogue.dst_dt.name in ("u8", "s8") and not dst_blocks and not oc_real
            and not lane_zipped and "avx512_vnni" in target.cpu_features)


def _brgemm_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                    extra: Value | None = None, epilogue: StoreEpilogue | None = None,
                    shared_exe: str = "") -> Value:
    """x is (N, [[D,] H,] W, G, IC/G), neither cropped nor padded (the variant pads itself, and leaves a
    negative right padding uncropped: the kernel never reads past the last input an output needs);
    returns (N, [[OD,] OH,] OW, G, OC/G) in the accumulator type, or with `epilogue` in the destination
    type. The kernel sees the channels as G padded groups of ICp/G (a multiple of k) and writes G groups
    of OCp/G; each group's padding is cropped here. A 3D source's depth is folded into its images
    (N * IDp, `Brgemm.depth`). An s8 source is shifted to u8 here, after every padding; `extra` is the
    per-tap weight sums (`_brgemm_compensation`) the accumulators start from. A source read in its own
    blocks (`brgemm_src_block`) comes as its 1-D buffer, read here as its packed tensor (N, ICp/b, [H,]
    W, b) or, a view with nothing to pad, where it lies (`_brgemm_src_view`); a destination written in
    its own blocks (`brgemm_dst_blocks`) is returned as its packed tensor, (N, OCp/16, [1,] OH, OW, 16).
    `shared_exe`: the executable of an earlier brgemm step on the same problem to run (`Step.shared_exe`).
    Depthwise (`brgemm_depthwise`): the kernel sees one group of the G channels, padded to OCp, in the
    source's own type (widened in the kernel), and returns (.., OCp) cropped here to G groups of one."""
    d = p.desc
    one_d = d.ndims == 3
    depthwise = brgemm_depthwise(p)
    ocb, ro = w.shape[0], w.shape[4]                   # the channel blocks prepare packed the weights in
    src_block, dst_blocks = brgemm_src_block(p), brgemm_dst_blocks(p)
    view = _brgemm_src_view(p) if src_block else None
    if src_block and view is None:
        x = relayout.buffer_to_packed(plan, x, p.src)
    if view is not None:      # the 1-D buffer as it is; the kernel reads its view
        lead, tail = [], []
    elif src_block:           # the packed source (N, ICp/b, [H,] W, b): the spatial axes from 2, the block last
        if one_d:
            x = plan.expand(x, [[0], [1, 2], [3], [4]], x.shape[:1] + (x.shape[1], 1) + x.shape[2:])  # N ICB 1 W b
        lead, tail = list(x.shape[:2]), list(x.shape[-1:])
    else:
        if one_d:
            x = plan.expand(x, [[0, 1], [2], [3], [4]], (x.shape[0], 1) + x.shape[1:])  # N 1 W G IC/G
        lead, tail = list(x.shape[:1]), list(x.shape[-2:])
    flat = SimpleNamespace(s=1, d=0, o=1, p=0, p_r=0, i=1, k=1)                          # 1D: a unit H
    sp = [flat] * one_d + list(d.spatial())                                              # [D,] H, W
    hw = sp[-2:]
    (sh, dh, oh), (sw, dw, ow) = [(a.s, a.d + 1, a.o) for a in hw]
    rw, _, rh = brgemm_blocking(p, target)
    n, g, icg = d.mb, d.g, d.ic // d.g
    isa = brgemm_isa(p)
    ends = [0] * len(lead), [0] * len(tail)
    # a negative left padding crops; a negative right one stays uncropped
    crop = [max(-a.p, 0) for a in sp]
    real = [a.i - c for a, c in zip(sp, crop)]                                         # the cropped source
    if view is None:
        x = plan.slice(x, [*ends[0], *crop, *ends[1]], (*lead, *real, *tail))
    low = [max(a.p, 0) for a in sp]
    high = [max(a.p_r, 0) for a in sp]
    owp = ow
    if p.alg == "brgemm_amx":
        # whole 32-pixel blocks: the source padded on the right so that they read it, the extra outputs
        # cropped below
        owp = -(-ow // AMX_PIXELS) * AMX_PIXELS
        reach = (owp - 1) * sw + (hw[1].k - 1) * dw + 1
        high[-1] = max(high[-1], reach - x.shape[-3] - low[-1])
    zp = epilogue.src_zp if epilogue else None
    taps = brgemm_fold_taps(p)
    # an s8 source read as u8 + 128: flipped here, or on a dot product across the lanes as the kernel
    # loads it (depthwise widens s8 as it is)
    lane_dot = brgemm_lane_dot(p) is not None
    shift = 128 if p.src.dtype.name == "s8" and (not depthwise or lane_dot) else 0
    # The padding holds 0 (`Brgemm.padding` "zero"), so that the kernel skips the taps that reach only
    # padding, unless AMX's own loop runs every tap, or a source read where it lies has none. An s8
    # source is flipped to u8 before its padding, and each pixel's start counts only the taps it reads
    # (`Brgemm.real_tap_starts`), except where the start cannot count them (a folded row, whose weights
    # hold a row's taps as channels): flipped after its padding, which then reads 128, cancelled by the
    # compensation, every tap run.
    # (Depthwise reads the unpadded source: "unpadded".)
    zero_padding = not depthwise and view is None and p.alg != "brgemm_amx" and not (shift and taps)
    flip = shift and not lane_dot          # a flip of its own, before or after the padding
    if flip and zero_padding:
        x = plan.add("flip_sign_bit", x, x.shape, "i8")
    if isa.widen:             # before the padding: IREE fuses the two into one dispatch
        x = _widen(plan, x, p.src.dtype, isa.widen)
    # the channels the source is padded to: a group's to whole groups of k; depthwise, all G channels
    # (the groups axis) to the weights' OCp, each a group of one
    # (small groups across the lanes: all G groups of cg, `brgemm_lane_groups`)
    cg, kg = brgemm_lane_groups(p) or (icg, d.oc // g)
    cpad = [ocb * ro // kg * 16 - g, 0] if depthwise else [0, brgemm_channels(p, icg) - icg]
    unfold = None
    # depthwise: the kernel reads the unpadded source and skips or zeroes what falls outside it
    # (`Brgemm.borders`; 3D: the planes outside it skipped, `BrgemmDepth.p`): the padded copy cost as
    # much as the kernel (a channel tail: its loads masked, `Brgemm.lanes`)
    unpadded = depthwise and view is None
    if taps:
        # the kernel reads output column o's kernel row (and the zero-weight taps after it, in the right
        # padding) as one run of KWf * IC elements of the padded source row, through an overlapping view
        # (N, IHp, OW, KWf * IC) whose columns are SW * IC elements apart (`Brgemm.unfold`): no copy
        high[-1] = max(high[-1], (ow - 1) * sw + taps - low[-1] - x.shape[-3])
        x = plan.pad(x, [0, *high, 0, 0], low=[0, *low, 0, 0])
        unfold, sw = [ow, taps * icg, sw * icg, *_fold_groups(p, hw[1].k * icg)[::-1]], 1
    elif view is not None or unpadded:
        pass                  # nothing to pad (`_brgemm_src_view`), or the kernel's borders
    elif src_block:           # the blocks already hold whole groups of k channels, zero past IC
        x = plan.pad(x, [*ends[0], *high, *ends[1]], low=[*ends[0], *low, *ends[1]])
    else:
        x = plan.pad(x, [0, *high, *cpad], low=[0, *low, 0, 0])
    depth = None
    if src_block:
        pass                  # (N, ICp/b, IHp, IWp, b) as it is
    elif len(sp) == 3:          # N D H W G ICp/G -> (N * IDp) H W G*ICp/G
        dep = sp[0]
        depth = BrgemmDepth(od=dep.o, idp=x.shape[1], kd=dep.k, s=dep.s, d=dep.d + 1, p=low[0] if unpadded else 0)
        x = plan.collapse(x, [[0, 1], [2], [3], [4, 5]])
    else:
        x = plan.collapse(x, [[0], [1], [2], [3, 4]])                                   # N H W G*ICp/G
    if flip and not zero_padding:
        x = plan.add("flip_sign_bit", x, x.shape, "i8")
    # where the real source lies in the padded one (depthwise: in the unpadded one's padded frame)
    padding = "unpadded" if unpadded else "zero" if zero_padding and any(low + high) else "read"
    real_src = None if padding == "read" else [*low[-2:], *real[-2:], *(low[:1] + real[:1] if len(sp) == 3 else [])]
    images = n * (depth.od if depth else 1)
    if epilogue is not None and epilogue.dst_init is not None:
        # the sum's prior destination, dense channels last: (images, OH, OW, OC) as the kernel walks it
        epilogue = dataclasses.replace(epilogue, dst_init=plan.expand(
            epilogue.dst_init, [[0, 1, 2, 3]], (images, oh, ow, d.oc)))
    # one group of channels last (depthwise's G, or OC) that is not whole vectors: the result holds the
    # real channels only and the stores are masked (`Brgemm.oc_real`), so no crop copies it below. AMX
    # stores whole tiles, and G > 1 groups each padded would interleave padding with channels
    oc_real = d.oc if (not dst_blocks and p.alg != "brgemm_amx" and (depthwise or g == 1)
                       and ocb * ro * 16 != d.oc) else 0
    oc_out = oc_real or ocb * ro * 16
    # the result's channels as (groups, channels a group): depthwise, groups of kg in channel order
    groups_p, ocgp, ocg = (oc_out // kg, kg, kg) if depthwise else (g, oc_out // g, d.oc // g)
    out_shape = (images, ocb * ro, oh, owp, 16) if dst_blocks else (images, oh, owp, oc_out)
    acc = plan.add("brgemm", x, out_shape, epilogue.dst_dt.mlir if epilogue else p.acc.mlir,
                   wei=w, comp=extra, shift=shift, src_zp=zp, real_src=real_src, padding=padding, isa=isa.kernel, strides=[sh, sw],
                   dilations=[dh, dw], rw=rw, rh=rh, groups=1 if depthwise else g, ocg=d.oc if depthwise else ocg,
                   emulate_tiles=target.emulate_amx, epilogue=epilogue, depth=depth, unfold=unfold,
                   src_block=src_block, src_view=view, dst_blocks=dst_blocks, shared_exe=shared_exe,
                   src_dt=p.src.dtype.name,
                   lanes=d.ic if unpadded and not src_block and g % 16 else 0, oc_real=oc_real,
                   cg=cg if depthwise else 1, kg=kg if depthwise else 1, lane_k=isa.k if lane_dot else 1,
                   pack_int8_stores=brgemm_packs_int8_stores(epilogue, dst_blocks, oc_real,
                                                            depthwise and (cg, kg) != (1, 1), target))
    if dst_blocks:            # the destination's packed tensor, (N, OCp/16, [1,] OH, OW, 16): the caller's buffer
        return acc
    lead = [n, depth.od] if depth else [n]
    acc = plan.expand(acc, [list(range(len(lead))), [len(lead)], [len(lead) + 1], [len(lead) + 2, len(lead) + 3]],
                      (*lead, oh, owp, groups_p, ocgp))
    acc = plan.slice(acc, [0] * (len(lead) + 4), (*lead, oh, ow, g, ocg))
    if one_d:
        acc = plan.collapse(acc, [[0, 1], [2], [3], [4]])
    return acc


# Each Winograd transform is one factor of C1 . X . C2^T: iteration dims (the last one reduced), and the
# indices of the constant matrix, of the operand and of the result. `_mmt4d` stages use the packed
# mmt4d operand order (tile columns split t1 * M0 + t0, output channels ob * N0 + o0).
WINOGRAD_TRANSFORMS = {kind: tuple(part.split() for part in spec) for kind, spec in {
    "filter_rows": ("a g oc ic j i", "a i", "g oc ic i j", "a g oc ic j"),
    "filter_cols": ("a b g oc ic j", "b j", "a g oc ic j", "a b g oc ic"),
    "input_rows": ("a j n g ic th tw i", "a i", "i j n g ic th tw", "a j n g ic th tw"),
    "input_cols": ("a b n g ic th tw j", "b j", "a j n g ic th tw", "a b n g ic th tw"),
    "output_rows": ("p b n g oc th tw a", "p a", "a b n g oc th tw", "p b n g oc th tw"),
    "output_cols": ("n g oc th p tw q b", "q b", "p b n g oc th tw", "n g oc th p tw q"),
    "input_rows_mmt4d": ("a j g n th t1 ic t0 i", "a i", "i j g n th t1 ic t0", "a j g n th t1 ic t0"),
    "input_cols_mmt4d": ("a b g n th t1 ic t0 j", "b j", "a j g n th t1 ic t0", "a b g n th t1 ic t0"),
    "output_rows_mmt4d": ("p b g n th t1 ob t0 o0 a", "p a", "a b g n th t1 ob t0 o0", "p b g n th t1 ob t0 o0"),
    "output_cols_mmt4d": ("n g ob o0 th p t1 t0 q b", "q b", "p b g n th t1 ob t0 o0", "n g ob o0 th p t1 t0 q"),
}.items()}


def _transform(plan: Plan, stage: str, x: Value, shape, mat: Value) -> Value:
    dims, mat_idx, inp_idx, out_idx = WINOGRAD_TRANSFORMS[stage]
    return plan.add("wino_transform", x, shape, "f32", mat=mat, dims=dims, mat_idx=mat_idx, inp_idx=inp_idx,
                    out_idx=out_idx)


def _f32_constant(plan: Plan, matrix) -> Value:
    import numpy as np
    a = np.ascontiguousarray(matrix, "<f4")
    return plan.add("constant", None, a.shape, "f32", hex=a.tobytes().hex().upper())


def _winograd_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """U = G g G^T for every (group, oc, ic), done once in prepare: (alpha, alpha, G, OC/G, IC/G) in f32."""
    from ..problem.conv_math import winograd_matrices

    m = WINOGRAD_M[p.alg]
    _, g_mat, _ = winograd_matrices(m, 3)
    gm = _f32_constant(plan, g_mat)
    a = m + 2
    rows = _transform(plan, "filter_rows", w, (a,) + w.shape[:3] + (3,), gm)
    u = _transform(plan, "filter_cols", rows, (a, a) + w.shape[:3], gm)    # (a, b, G, OCg, ICg)
    if winograd_channels_last(p, target):
        # packed once as the tile GEMM's grouped 1x1 weights, one group per transform position
        gemm = _winograd_gemm_problem(p)
        icp = gemm.desc.ic // gemm.desc.g
        u = plan.pad(u, [0, 0, 0, 0, icp - u.shape[4]])
        u = plan.collapse(u, [[0, 1, 2], [3], [4]])                             # (a*b, OC, ICp)
        u = plan.expand(u, [[0], [1], [2, 3, 4]], u.shape + (1, 1))
        return _brgemm_weights(plan, u, gemm, target)
    tile = target.mmt4d_tile
    if tile is None:
        return u
    # packed once for the batched mmt4d: (a*b*G, OCg/N0, ICg, N0, 1), OCg zero-padded to whole tiles
    n0 = tile.n0
    g, ocg, icg = w.shape[:3]
    ob = -(-ocg // n0)
    u = plan.pad(u, [0, 0, 0, ob * n0 - ocg, 0])
    u = plan.expand(u, [[0], [1], [2], [3, 4], [5]], (a, a, g, ob, n0, icg))
    u = plan.transpose(u, [0, 1, 2, 3, 5, 4])
    u = plan.collapse(u, [[0, 1, 2], [3], [4], [5]])
    return plan.expand(u, [[0], [1], [2], [3, 4]], (a * a * g, ob, icg, n0, 1))


# relative mmt4d throughput per row tile M0, measured with N0 = 16 on AVX-512 for a 36 x (224x64x64)
# batch: M0 = 16 or 8 0.36 ms, 4 0.48 ms, 2 0.50 ms (a batch_matmul of the same 0.53-0.59 ms, and an
# M0 that is not a power of two, 14, 10 ms); M0 = 1 assumed to halve M0 = 2's
_MMT4D_M0_RATE = {16: 1.0, 8: 1.0, 4: 0.75, 2: 0.7, 1: 0.35}


def mmt4d_m0(cols: int, max_m0: int = 16) -> int:
    """The mmt4d row tile for `cols` tile columns, at most `max_m0` (the target's `Mmt4dTile`): least
    padded work per throughput (larger on ties)."""
    return min((m0 for m0 in _MMT4D_M0_RATE if m0 <= max_m0),
               key=lambda m0: (-(-cols // m0) * m0 / _MMT4D_M0_RATE[m0], -m0))


def _winograd_fuses_epilogue(p: ConvProblem, target: TargetCaps) -> bool:
    """The channels-last form's output transform applies the epilogue in its stores where it is an
    f32 bias and / or a ReLU into an f32, bf16 or f16 destination (the inference case): one pass over
    the output fewer (ic64 56x56 F(4,3), one thread: 13 of 332 us). Scales, zero points and other
    post-ops keep the shared epilogue after it."""
    return (winograd_channels_last(p, target) and not p.scales and not p.zero_points
            and p.post_ops in ((), (RELU,)) and (not p.bias or p.bias_dt == "f32")
            and p.dst.dtype.name in ("f32", "bf16", "f16"))


def _winograd_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                      epilogue: StoreEpilogue | None = None) -> Value:
    """F(m x m, 3 x 3): input tiles V = BT d B, one batched matmul over IC per (xi, nu), Y = AT M A;
    x is the unpadded source, (N, G, IC/G, IH, IW), or (N, IH, IW, G, IC/G) where the problem takes the
    channels-last form (`winograd_channels_last`)."""
    from ..problem.conv_math import winograd_matrices, winograd_tiles

    if winograd_channels_last(p, target):
        return _winograd_compute_channels_last(plan, x, w, p, target, epilogue)
    d = p.desc
    m = WINOGRAD_M[p.alg]
    at, _, bt = winograd_matrices(m, 3)
    (th, eh), (tw, ew) = (winograd_tiles(s.o, m, 3) for s in d.spatial())
    a = m + 2
    x = pad_spatial(plan, x, d.spatial(), [3, 4])                               # (N, G, IC/G, Hp, Wp)
    btc = _f32_constant(plan, bt)
    if target.mmt4d_tile is not None:
        # on the CPU the tile GEMM is a batched mmt4d over operands packed by the transforms themselves
        # (weights in prepare); GPUs keep the generic batched GEMM (IREE's GPU paths do not target mmt4d)
        return _winograd_compute_mmt4d(plan, x, w, p, m, (th, eh), tw, btc, _f32_constant(plan, at),
                                       target.mmt4d_tile)
    x = plan.pad(x, [0, 0, 0, eh - x.shape[3], ew - x.shape[4]])      # zero tail so the last tile is whole
    # the overlapping (m+2)^2 input tiles gathered once, tap indices outermost: the transforms then
    # reduce over a leading dim, which IREE lowers as a small matmul (reducing inside th * m + i it picks
    # a generic reduction 15x slower: iree-profile, README); the barrier keeps IREE from fusing the
    # gather back into the first transform, which would bring that slow reduction back
    tiles = _barrier(plan, _window_gather(plan, x, ["i", "j", "n", "g", "ic", "th", "tw"],
                                          ["n", "g", "ic", f"th * {m} + i", f"tw * {m} + j"],
                                          (a, a) + x.shape[:3] + (th, tw), "f32"))
    rows = _transform(plan, "input_rows", tiles, (a, a) + x.shape[:3] + (th, tw), btc)
    v = _transform(plan, "input_cols", rows, (a, a) + x.shape[:3] + (th, tw), btc)
    mm = plan.add("wino_gemm", v, (a, a, d.mb, d.g, d.oc // d.g, th, tw), "f32", wei=w)
    atc = _f32_constant(plan, at)
    rows = _transform(plan, "output_rows", mm, (m, a, d.mb, d.g, d.oc // d.g, th, tw), atc)
    y = _transform(plan, "output_cols", rows, (d.mb, d.g, d.oc // d.g, th, m, tw, m), atc)
    y = plan.collapse(y, [[0], [1], [2], [3, 4], [5, 6]])
    return plan.slice(y, [0] * 5, _out_shape(p))


def _winograd_compute_mmt4d(plan: Plan, x: Value, w: Value, p: ConvProblem, m: int, th_eh, tw: int,
                            btc: Value, atc: Value, tile: Mmt4dTile) -> Value:
    """The CPU form: tile columns padded to whole M0 tiles (t1 * M0 + t0), the input transforms written
    straight into the mmt4d left operand (a*b*G, N*TH*T1, ICg, M0, 1), one batched mmt4d against the
    weights packed in prepare, and the output transforms reading its (.., OB, M0, N0) result."""
    th, eh = th_eh
    a = m + 2
    m0, n0 = mmt4d_m0(tw, tile.max_m0), tile.n0
    t1 = -(-tw // m0)
    x = plan.pad(x, [0, 0, 0, eh - x.shape[3], t1 * m0 * m + 2 - x.shape[4]])
    n, g, icg = x.shape[:3]
    shape = (a, a, g, n, th, t1, icg, m0)
    # as in _winograd_compute, the columns split as t1 * M0 + t0, dims in the mmt4d operand's order
    tiles = _barrier(plan, _window_gather(plan, x, ["i", "j", "g", "n", "th", "t1", "ic", "t0"],
                                          ["n", "g", "ic", f"th * {m} + i", f"(t1 * {m0} + t0) * {m} + j"],
                                          shape, "f32"))
    rows = _transform(plan, "input_rows_mmt4d", tiles, shape, btc)
    v = _transform(plan, "input_cols_mmt4d", rows, shape, btc)
    v = plan.collapse(v, [[0, 1, 2], [3, 4, 5], [6], [7]])
    v = plan.expand(v, [[0], [1], [2], [3, 4]], (a * a * g, n * th * t1, icg, m0, 1))
    ob = w.shape[1]
    mm = plan.add("batch_mmt4d", v, (a * a * g, n * th * t1, ob, m0, n0), "f32", wei=w)
    mm = plan.expand(mm, [[0, 1, 2], [3, 4, 5], [6], [7], [8]], (a, a, g, n, th, t1, ob, m0, n0))
    rows = _transform(plan, "output_rows_mmt4d", mm, (m, a, g, n, th, t1, ob, m0, n0), atc)
    y = _transform(plan, "output_cols_mmt4d", rows, (n, g, ob, n0, th, m, t1, m0, m), atc)
    y = plan.collapse(y, [[0], [1], [2, 3], [4, 5], [6, 7, 8]])
    return plan.slice(y, [0] * 5, _out_shape(p))


# Winograd on AVX-512 CPUs, channels last: the tile transforms are custom dispatches on 16-channel
# vectors (templates/conv_winograd.mlir.j2, `WinogradTiles`) and the tile GEMM is brgemm's f32
# microkernel, one group per transform position. The earlier CPU form (`_winograd_compute_mmt4d`:
# transforms as linalg contractions over gathered tiles, IREE's mmt4d ukernel) spent most of its time
# outside the GEMM: ic64 56x56 3x3 F(4,3) ran at 470 GFLOP/s-equivalent on the two Zen 5 cores, below
# brgemm's direct conv (485), though it does a quarter of the multiplies.
#: the operand types of the channels-last form: bf16 and f16 are widened to f32 exactly (the source
#: as the input transform loads it, or in the dispatch that pads it; the weights by prepare's filter
#: transform), so the form computes in f32 whatever they are, as the other Winograd forms do
WINOGRAD_CL_TYPES = ("f32", "bf16", "f16")


def winograd_channels_last(p: ConvProblem, target: TargetCaps) -> bool:
    """Whether Winograd takes the channels-last form (`_winograd_compute_channels_last`): f32, bf16 or
    f16 on a CPU target with avx512f (brgemm's f32 microkernel), ungrouped or with groups of at least
    16 input and 16 output channels (each group's channels are padded to whole 16-channel vectors,
    which smaller groups would mostly waste). Other problems and targets keep the mmt4d form (CPUs)
    or the generic one (GPUs)."""
    d = p.desc
    whole_groups = d.g == 1 or (d.ic // d.g >= 16 and d.oc // d.g >= 16)
    return (p.alg in WINOGRAD_M and target.mmt4d_tile is not None and "avx512f" in target.cpu_features
            and whole_groups and p.src.dtype.name in WINOGRAD_CL_TYPES and p.wei.dtype.name in WINOGRAD_CL_TYPES)


def _winograd_blocks16(p: ConvProblem, target: TargetCaps, desc: MemoryDesc) -> bool:
    """Whether the channels-last form reads or writes `desc` in its own 16-channel blocks: nChw16c, the
    tag's dense layout (not a view), ungrouped."""
    return (winograd_channels_last(p, target) and p.desc.g == 1 and desc.is_blocked
            and tuple(desc.order) == tuple(range(4)) and relayout.is_canonical(desc) and _channel_block(desc) == 16)


def winograd_src_block(p: ConvProblem, target: TargetCaps) -> int:
    """16 where the channels-last form's input transform reads an nChw16c source in place, each
    16-channel vector one load at [n, ic / 16, ih, iw, 0], with whole blocks only (IC a multiple of
    16: the masked loads of `src_pad` read no padded channel); else 0 (the source is laid out
    channels last first). The relayout and its way back cost ~10% of F(4,3) in nChw16c (fourteenth
    session)."""
    return 16 if _winograd_blocks16(p, target, p.src) and p.desc.ic % 16 == 0 else 0


def winograd_dst_blocks(p: ConvProblem, target: TargetCaps) -> bool:
    """True where the output transform writes an nChw16c destination's blocks itself, through its
    stores' epilogue (`_winograd_fuses_epilogue`). The lanes past OC hold 0: the GEMM's result is
    cropped to OC and padded with zeros again (so an Inf in the source, times a padded channel's
    zero weights, leaves no NaN there), and a bias padded with zeros and a ReLU keep 0 at 0."""
    return _winograd_blocks16(p, target, p.dst) and _winograd_fuses_epilogue(p, target)


def _winograd_gemm_problem(p: ConvProblem) -> ConvProblem:
    """The tile GEMM of the channels-last form as the brgemm conv computes it, for one band of tile rows
    (`winograd_bands`): a grouped 1x1 conv over the band's (1, 1, rows * TW) tiles, one group per
    transform position (alpha^2) and conv group (G), position major, each ICp = IC/G padded to 16 ->
    OC/G channels. Prepare packs the weights and every band runs the kernel from this one problem."""
    d = p.desc
    a = WINOGRAD_M[p.alg] + 2
    rows, _ = winograd_bands(p)
    tiles = rows * winograd_grid(p)[1]
    g, icp = a * a * d.g, -(-(d.ic // d.g) // 16) * 16
    desc = ConvDesc(g=g, mb=1, ic=g * icp, oc=g * (d.oc // d.g), ndims=4, ih=1, iw=tiles, oh=1, ow=tiles,
                    has_groups=True)
    f32 = get_dtype("f32")
    return ConvProblem(desc=desc, src=MemoryDesc(desc.src_dims, f32, "nhwc"),
                       wei=MemoryDesc(desc.wei_dims, f32, "goihw"), dst=MemoryDesc(desc.dst_dims, f32, "nhwc"),
                       acc=f32, bias=False, alg="brgemm")


#: the bytes of V and M (the transformed tiles and the GEMM's result, f32) one band of tile rows may
#: take. ic64 224x224 F(4,3) on the Zen 5 ran 540 GFLOP/s-equivalent on two threads (290 on one) over
#: whole images, whose V and M (29 MB each) stream through memory; in bands of 2 / 4 / 8 MB 1260-1430 /
#: 1125-1340 / 1133 (670-690 on one thread), ic128 112x112 1560-1575 / 1300-1440 / 1470 (README)
WINOGRAD_BAND_BYTES = 2 << 20


def winograd_grid(p: ConvProblem) -> tuple[int, int, tuple[int, int]]:
    """(TH, TW, (DH, DW)): the channels-last form's tiles per row and column of one phase, and the
    dilations. A kernel dilated by d reads, for the outputs whose row is ph modulo d, only the source
    rows ph - pad modulo d: each of the d x d phases is an undilated 3x3 conv over every d-th source
    row and column (TensorFlow's atrous conv by space-to-batch), with ceil(O / d) outputs per axis.
    The tile transforms address the phases in place; undilated, there is one phase."""
    from ..problem.conv_math import winograd_tiles

    m = WINOGRAD_M[p.alg]
    sp = p.desc.spatial()
    dil = tuple(s.d + 1 for s in sp)
    th, tw = (winograd_tiles(-(-s.o // k), m, 3)[0] for s, k in zip(sp, dil))
    return th, tw, dil


def winograd_bands(p: ConvProblem) -> tuple[int, int]:
    """(tile rows per band, bands) of the channels-last form: its N * DH * DW * TH tile rows (image,
    then phase major, `winograd_grid`) cut into bands whose V and M fit `WINOGRAD_BAND_BYTES`, or the
    transformed weights where those are larger (every band's GEMM reads all of them: ic256 56x56 ran
    1250 against 1440-1550 GFLOP/s in bands of 2 MB). Of the band heights from half that size up, the
    one that leaves the fewest rows past the last in the last band (they are computed and not
    stored), then the tallest. Each band runs its input transform, GEMM and output transform before
    the next band's GEMM, so that its V and M are still in cache when they are read."""
    d = p.desc
    a = WINOGRAD_M[p.alg] + 2
    th, tw, (dh, dw) = winograd_grid(p)
    icp, ocp = (-(-(c // d.g) // 16) * 16 for c in (d.ic, d.oc))
    row_bytes = 4 * tw * a * a * d.g * (icp + ocp)
    weight_bytes = 4 * a * a * d.g * icp * ocp
    total = d.mb * dh * dw * th
    most = min(total, max(1, max(WINOGRAD_BAND_BYTES, weight_bytes) // row_bytes))
    rows = min(range(max(1, most // 2), most + 1), key=lambda r: (-(-total // r) * r - total, -r))
    return rows, -(-total // rows)


def winograd_tile_program(left, right) -> dict:
    """Y = L . X . R^T for one tile X (L.shape[1] x R.shape[1] vectors of 16 channels), unrolled into
    16-lane instructions that skip the zero coefficients and add or subtract the +-1 ones: first
    T = L . X by rows, then Y = T . R^T. Returns `WinogradTiles`' consts, ops, loads and stores."""
    consts: dict[float, str] = {}
    ops: list[LinearOp] = []

    def combine(res: str, terms: list[tuple[float, str]]) -> str:
        cur = None
        for k, (c, x) in enumerate(terms):
            name = res if k == len(terms) - 1 else f"{res}_{k}"
            coef = "" if abs(c) == 1 else consts.setdefault(c, f"k{len(consts)}")
            if cur is None:
                if c == 1:
                    cur = x
                    continue
                ops.append(LinearOp(name, "neg" if c == -1 else "mul", x, coef=coef))
            else:
                ops.append(LinearOp(name, {1: "add", -1: "sub"}.get(c, "fma"), x, acc=cur, coef=coef))
            cur = name
        if cur is None:
            raise InternalError(f"a Winograd transform row of zeros ({res})")
        return cur

    left, right = np.asarray(left, np.float32), np.asarray(right, np.float32)
    rows, cols = left.shape[1], right.shape[1]
    loads = [(f"ld{i}_{j}", i, j) for i in range(rows) for j in range(cols)]
    t = {(i, j): combine(f"tr{i}_{j}", [(float(left[i, k]), f"ld{k}_{j}") for k in range(rows) if left[i, k]])
         for i in range(left.shape[0]) for j in range(cols)}
    stores = [(combine(f"out{i}_{q}", [(float(right[q, j]), t[i, j]) for j in range(cols) if right[q, j]]), i, q)
              for i in range(left.shape[0]) for q in range(right.shape[0])]
    return {"consts": [(name, c) for c, name in consts.items()], "ops": ops, "loads": loads, "stores": stores}


def _winograd_compute_channels_last(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                                    epilogue: StoreEpilogue | None = None) -> Value:
    """x (N, IH, IW, G, IC/G), not yet padded -> (N, OH, OW, G, OC/G): V = BT d B per tile and
    16-channel vector (`wino_input`, into the GEMM's grouped source), M = V . U by brgemm (one group per
    transform position and conv group), Y = AT M A (`wino_output`, storing only the output's pixels).
    Each conv group's channels are padded to whole vectors: IC/G with zeros before the input
    transform, OC/G after the GEMM; the padded outputs are cropped at the end. With `epilogue`
    (`_winograd_fuses_epilogue`: a bias, a ReLU) the output transform applies it and stores the
    destination type."""
    from ..problem.conv_math import winograd_matrices

    d = p.desc
    m = WINOGRAD_M[p.alg]
    a = m + 2
    at, _, bt = winograd_matrices(m, 3)
    oh, ow = (s.o for s in d.spatial())
    th, tw, dil = winograd_grid(p)
    eh, ew = (k * (t * m + 2) for k, t in zip(dil, (th, tw)))   # the padded source the tiles read (all phases)
    gemm = _winograd_gemm_problem(p)
    rows, bands = winograd_bands(p)
    src_block, dst_blocks = winograd_src_block(p, target) != 0, winograd_dst_blocks(p, target)
    if src_block:               # the source's 1-D buffer, read as its packed tensor (N, IC/16, IH, IW, 16)
        x = relayout.buffer_to_packed(plan, x, p.src)
        n, _, ih, iw, _ = x.shape
        g, icg = 1, d.ic
    else:
        n, ih, iw, g, icg = x.shape
    ocg = d.oc // g
    icp, ocp = gemm.desc.ic // gemm.desc.g, -(-ocg // 16) * 16
    if icg == icp:
        # the transform reads the source where it lies (bf16 and f16 widened as they are loaded): a
        # tile's rows and columns outside the rows and columns the conv reads (its padding, the
        # tiles' overhang) load as zeros
        hs, ws = d.spatial()
        src_pad = [hs.p, ws.p, min(ih, oh + 2 * (hs.d + 1) - hs.p), min(iw, ow + 2 * (ws.d + 1) - ws.p)]
    else:
        # else one dispatch widens and pads it: the conv's padding, zero rows and columns to whole
        # tiles, zero channels to whole vectors (the transform's loads are whole vectors)
        src_pad = None
        x = pad_spatial(plan, x, d.spatial(), [1, 2])
        if p.src.dtype.name != "f32":
            x = _widen(plan, x, p.src.dtype, "f32")
        x = plan.pad(x, [0, eh - x.shape[1], ew - x.shape[2], 0, icp - icg])
    if not src_block:
        x = plan.collapse(x, [[0], [1], [2], [3, 4]])                          # (N, H, W, G*ICp)
    bias = epilogue.bias if epilogue else None
    if bias is not None:        # per channel of the transform's (G, OCp) vectors
        bias = plan.collapse(plan.pad(plan.expand(bias, [[0, 1]], (g, ocg)), [0, ocp - ocg]), [[0, 1]])
    input_program, output_program = winograd_tile_program(bt, bt), winograd_tile_program(at, at)
    banded = bands > 1
    y, prev, exes = None, x, {}
    for band in range(bands):
        # band after band: the input transform waits for the previous band's GEMM (`after`), the
        # output transform writes the band's pixels into the output in place (`dst_init`)
        v = plan.add("wino_input", x, (1, rows, tw, a * a * g * icp), "f32", m=m, alpha=a, tiles=(th, tw),
                     dilations=dil, valid=(0, 0), src_pad=src_pad, src_block=src_block, row0=band * rows,
                     rows=rows, banded=banded, after=prev if banded else None, shared_exe=exes.get("in", ""),
                     **input_program)
        v = plan.expand(plan.collapse(v, [[0], [1, 2], [3]]), [[0], [1, 2], [3, 4]], (1, 1, rows * tw, a * a * g, icp))
        mm = _brgemm_compute(plan, v, w, gemm, target, shared_exe=exes.get("mm", ""))  # (1, 1, T, a*a*G, OC/G)
        prev = _last_step(plan, "brgemm").out       # the dispatch's own result, before any crop
        mm = plan.pad(mm, [0, 0, 0, 0, ocp - ocg])
        mm = plan.expand(plan.collapse(mm, [[0], [1, 2], [3, 4]]), [[0], [1, 2], [3]], (1, rows, tw, a * a * g * ocp))
        y_shape = (n, ocp // 16, oh, ow, 16) if dst_blocks else (n, oh, ow, g * ocp)
        y = plan.add("wino_output", mm, y_shape, epilogue.dst_dt.mlir if epilogue else "f32", m=m,
                     alpha=a, tiles=(th, tw), dilations=dil, valid=(oh, ow), src_pad=None, bias=bias,
                     relu=bool(epilogue and epilogue.relu), dst_blocks=dst_blocks, row0=band * rows, rows=rows,
                     banded=banded, dst_init=y, shared_exe=exes.get("out", ""), **output_program)
        if not exes:            # the first band's executables serve the others
            exes = {"in": _last_step(plan, "wino_input").dispatched, "mm": _last_step(plan, "brgemm").dispatched,
                    "out": _last_step(plan, "wino_output").dispatched}
    if dst_blocks:              # the destination's packed tensor (N, OC/16, OH, OW, 16): the caller's buffer
        return y
    y = plan.expand(y, [[0], [1], [2], [3, 4]], (n, oh, ow, g, ocp))
    return plan.slice(y, [0] * 5, (n, oh, ow, g, ocg))


def _last_step(plan: Plan, kind: str):
    return next(st for st in reversed(plan.steps) if st.kind == kind)


VARIANTS = {v.name: v for v in (
    Variant("direct", _applies_always, _direct_weights, _direct_compute,
            "linalg named convs for plain layouts (NCHW or NHWC forms, depthwise, grouped 2D), else one "
            "linalg.generic over the grouped logical tensors", channels_last=_direct_channels_last),
    Variant("im2col", _applies_always, _gemm_weights, _im2col_compute,
            "column matrix (IC/G*K, O) gathered once, then a batched GEMM; 1x1 reads the source directly; "
            "channels last (NHWC) gathers (O, K*IC/G) rows for an (O, K) x (K, OC) GEMM",
            channels_last=_im2col_channels_last, refused=_im2col_refused),
    Variant("indirect", _applies_always, _indirect_weights, _indirect_compute,
            "int32 indirection table (output pixel, tap) -> input pixel read inside the contraction",
            pads_in_compute=True),
    Variant("spatial_pack", _applies_always, _grouped_weights, _spatial_pack_compute,
            "output tiled in H and W (4x8), halo'd input tiles gathered, an unpadded conv per tile, "
            "tiles reassembled by the output map", refused=_spatial_pack_refused),
    Variant("brgemm", _brgemm_why_not, _brgemm_weights, _brgemm_compute,
            "oneDNN's batch-reduce GEMM conv as a generated microkernel (one custom dispatch): channels-last "
            "source x weights packed once in the instruction's order, register blocks of output pixels x "
            "16-channel vectors reduced over taps and channels; u8/s8 x s8 on vpdpbusd (avx512_vnni; s8 "
            "shifted to u8 with a compensation from prepare), bf16 on vdpbf16ps (avx512_bf16), f32 on FMAs "
            "(avx512f); groups as blocks of channels; depthwise as 16-channel source vectors x weight vectors "
            "on FMAs, every type widened to f32; small groups (1-8 channels) across the lanes, 16 groups a "
            "vector, on FMAs or a group's 8-bit quads on vpdpbusd and bf16 pairs on vdpbf16ps",
            refused=_brgemm_refused,
            channels_last=lambda p, target: True,
            extra_prepared=_brgemm_compensation, pads_in_compute=True, fuses_epilogue=_brgemm_fuses_epilogue,
            src_block=lambda p, target: brgemm_src_block(p), dst_blocks=lambda p, target: brgemm_dst_blocks(p)),
    Variant("brgemm_fma", _brgemm_fma_why_not, _brgemm_weights, _brgemm_compute,
            "brgemm with bf16 source and weights widened to f32 (the weights once in prepare, the source with "
            "its padding) on the f32 FMA kernel, as f16 runs on brgemm, small groups on FMAs across the "
            "lanes: for CPUs whose vdpbf16ps is no faster than two FMAs (the Intel Xeon measured here) or "
            "that lack avx512_bf16",
            refused=_brgemm_refused, channels_last=lambda p, target: True,
            extra_prepared=_brgemm_compensation, pads_in_compute=True, fuses_epilogue=_brgemm_fuses_epilogue,
            src_block=lambda p, target: brgemm_src_block(p), dst_blocks=lambda p, target: brgemm_dst_blocks(p)),
    Variant("brgemm_amx", _brgemm_why_not, _brgemm_weights, _brgemm_compute,
            "brgemm on AMX tiles (tdpbusd for u8/s8 x s8, tdpbf16ps for bf16): 2 x 2 accumulator tiles of 16 "
            "pixels x 16 channels per block, source tiles read in place with the stride of a pixel, weight "
            "tiles from the same packed weights; amx_int8 / amx_bf16 CPUs, the tile permission requested "
            "by the runtime; not yet checked on such a CPU, so --alg=auto takes it only when kgen tune "
            "measured it", refused=_brgemm_refused, channels_last=lambda p, target: True,
            extra_prepared=_brgemm_compensation, pads_in_compute=True, fuses_epilogue=_brgemm_fuses_epilogue,
            src_block=lambda p, target: brgemm_src_block(p), dst_blocks=lambda p, target: brgemm_dst_blocks(p)),
    *(Variant(name, _winograd_why_not, _winograd_weights, _winograd_compute,
              f"Winograd F({m}x{m}, 3x3): matrices from interpolation points (conv_math), filter transform in "
              f"prepare, tiles batched into one matmul over IC per transform position (on AVX-512 CPUs, f32 / bf16 / "
              f"f16: channels last, vector transforms around brgemm's f32 microkernel)", refused=_winograd_refused,
              channels_last=winograd_channels_last, pads_in_compute=True, fuses_epilogue=_winograd_fuses_epilogue,
              src_block=winograd_src_block, dst_blocks=winograd_dst_blocks)
      for name, m in WINOGRAD_M.items()),
)}


def refusal(p: ConvProblem, target: TargetCaps = GENERIC) -> tuple[str, str] | None:
    """Why `p`'s variant cannot compute it on `target`: ("does not apply", reason) or ("is refused on
    <target>", reason: the target computes it wrongly or cannot run it); None when it can. `p.alg`
    must name a variant. The one place every check of a variant against a problem is made."""
    v = VARIANTS[p.alg]
    why = v.why_not(p)
    if why:
        return "does not apply", why
    why = v.refused(p, target) or reduction_refused(p, target)
    if why:
        return f"is refused on {target.name}", why
    return None


def why_not(p: ConvProblem, target: TargetCaps = GENERIC) -> str | None:
    """`refusal` as the message the user sees; None when the variant can compute `p` on `target`."""
    r = refusal(p, target)
    return f"--alg={p.alg} {r[0]}: {r[1]}" if r else None


def variant(p: ConvProblem, target: TargetCaps = GENERIC) -> Variant:
    """The variant that computes `p` on `target`. `--alg=auto` is resolved before (`generator.select`)."""
    if p.alg not in VARIANTS:
        raise UnsupportedError(f"unknown algorithm '{p.alg}' (known: {', '.join((*VARIANTS, 'auto'))})")
    why = why_not(p, target)
    if why:
        raise UnsupportedError(why)
    return VARIANTS[p.alg]


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
