"""brgemm's weights, packed once in prepare in the microkernel's operand order, and the s8
compensation (per-tap weight sums) derived from them."""
from __future__ import annotations

from ....problem.conv import ConvProblem
from ...relayout import Plan, Value
from ...target import TargetCaps
from ..operands import _widen
from .blocking import amx_fold_taps, brgemm_blocking, brgemm_channels, brgemm_fold_taps
from .fusion import _brgemm_fuses_epilogue
from .isa import brgemm_depthwise, brgemm_isa, brgemm_lane_dot, brgemm_lane_groups


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
    if d.ndims == 5:          # 3D: the taps (kd, kh) are one row dim of KD * KH (BrgemmGeometry.depth)
        w = plan.collapse(w, [[0], [1], [2], [3, 4], [5]])                              # G OC IC KD*KH KW
    if amx_fold_taps(p):      # a kernel row's taps, each its channels padded to groups of k, as one tap, kw outer
        g, oc, ic, kh, kw = w.shape
        icp = -(-ic // k) * k
        w = plan.pad(w, [0, 0, icp - ic, 0, 0])
        w = plan.transpose(w, [0, 1, 4, 2, 3])                                          # G OC KW ICp KH
        w = plan.collapse(w, [[0], [1], [2, 3], [4]])
        w = plan.expand(w, [[0], [1], [2], [3, 4]], (g, oc, kw * icp, kh, 1))           # G OC KW*ICp KH 1
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
    if d.ndims == 5:          # 3D: the taps (kd, kh) are one row dim of KD * KH (BrgemmGeometry.depth)
        w = plan.collapse(w, [[0], [1], [2], [3, 4], [5]])                              # G kg cg KD*KH KW
    g, _, _, kh, kw = w.shape
    gb = -(-g // (16 * ro))
    w = plan.pad(w, [gb * ro * 16 - g, 0, 0, 0, 0])
    w = plan.expand(w, [[0, 1, 2], [3], [4, 5], [6], [7]], (gb, ro, 16, kg, cg // quad, quad, kh, kw))
    w = plan.transpose(w, [0, 6, 7, 4, 1, 3, 2, 5])                           # GB KH KW cg/q RO kg 16 q
    return plan.collapse(w, [[0], [1], [2], [3], [4, 5], [6, 7]])


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
