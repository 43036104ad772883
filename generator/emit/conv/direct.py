"""The direct variant on the logical tensors: a linalg named convolution for plain layouts, else one
linalg.generic over the grouped tensors; and its reduction split for targets that cannot run a long
reduction in one dispatch (`reduction_split`). Its packed form for blocked layouts is in packed.py."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...errors import InternalError
from ...layout import get_dtype
from ...problem.conv import ConvProblem
from ..relayout import Plan, Value
from ..target import GENERIC, TargetCaps
from .common import _SPATIAL, _barrier, _out_shape, _strided_pixels, _unsigned, reduction_length
from .operands import _widen_operand


@dataclass(frozen=True)
class NamedConv:
    """A linalg named convolution the direct variant maps a plain-layout problem to.

    `form` is "nchw" (channels before the spatial dims) or "nhwc" (channels last); `kind` is "conv"
    (G = 1), "depthwise" (one input and one output channel per group) or "grouped" (2D only: linalg
    has no grouped 1D/3D named conv). The weights are reordered into the op's layout once, in prepare."""
    op: str
    form: str
    kind: str


def named_conv(p: ConvProblem, target: TargetCaps = GENERIC) -> NamedConv | None:
    """The named op for a plain-layout problem (source and destination without blocks), or None:
    blocked layouts and grouped 1D/3D convolutions stay a linalg.generic. The source's channel
    position picks NCHW or NHWC (a channels-last user keeps channels last through the op). NHWC
    weights are always HWCF (HWIO), whatever the user's weights format (prepare reorders them):
    IREE 3.13 lowers conv_2d_nhwc_fhwc far slower (measured: docs/performance.md, Tuned constants)."""
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
        # the strided one well, better than after the copy, and keeps it (measured: docs/performance.md,
        # Tuned constants)
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
