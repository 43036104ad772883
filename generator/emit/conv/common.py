"""Plan pieces the convolution variants share: the output's grouped shape, the reduction's length,
a format's channel block, spatial padding, window gathers and IREE's optimization barrier."""
from __future__ import annotations

import math

from ...problem.conv import ConvProblem
from ..relayout import Plan, Value
from ..target import TargetCaps


#: a named conv's spatial letters by spatial rank (conv_2d_nhwc_hwcf, depthwise_conv_1d_nwc_wc)
_SPATIAL = {1: "w", 2: "hw", 3: "dhw"}


def _unsigned(dt) -> bool:
    """An unsigned integer type (u8): linalg's named convs would sign-extend it."""
    return dt.is_int and not dt.signed


def _out_shape(p: ConvProblem) -> tuple[int, ...]:
    """The accumulator's grouped logical shape, (N, G, OC/G, O..)."""
    d = p.desc
    return (d.mb, d.g, d.oc // d.g) + tuple(s.o for s in d.spatial())


def reduction_length(p: ConvProblem) -> int:
    """The values one output sums: IC/G x the kernel volume."""
    return p.desc.ic // p.desc.g * math.prod(s.k for s in p.desc.spatial())


def _channel_block(desc) -> int | None:
    """1 for a plain format, the block size for a format with one block on C, else None."""
    if not desc.is_blocked:
        return 1
    if len(desc.blocks) == 1 and desc.blocks[0][0] == 1 and desc.outer_dims[1] == -(-desc.dims[1] // desc.blocks[0][1]):
        return desc.blocks[0][1]
    return None


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
    cannot data-tile the GEMM (channels last) or lowers it as a generic reduction (plain layouts), far
    slower than the copy (measured: docs/performance.md, Tuned constants)."""
    sizes, steps = list(x.shape), [1] * len(x.shape)
    for i, s in enumerate(sp):
        sizes[first + i], steps[first + i] = s.o, s.s
    return _barrier(plan, plan.slice(x, [0] * len(x.shape), tuple(sizes), strides=steps))


def _zp_tail_wrong(p: ConvProblem, target: TargetCaps) -> bool:
    """The target computes a source or weight zero point's compensation wrongly in the packed forms
    (direct's and spatial_pack's) when the destination is blocked on channels with a partial last
    block (TargetCaps.zp_compensation_wrong)."""
    return (target.zp_compensation_wrong and any(q.arg in ("src", "wei") for q in p.zero_points)
            and p.dst.block_of(1) > 1 and p.dst.padded_dims[1] != p.desc.oc)
