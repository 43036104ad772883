"""What the brgemm kernel does itself instead of separate dispatches: the epilogue in its stores
(`_brgemm_fuses_epilogue`, `store_epilogue_args`), a blocked source read in place
(`brgemm_src_block`, `_brgemm_src_view`) and a blocked destination's blocks written
(`brgemm_dst_blocks`)."""
from __future__ import annotations

import math

import numpy as np

from ....layout import MemoryDesc
from ....problem.attr import RELU, Eltwise, Sum
from ....problem.conv import ConvProblem
from ... import relayout
from ...relayout import Value
from ...brgemm_step import BrgemmView, StoreEpilogue
from ...target import GENERIC, TargetCaps
from ..common import _channel_block, reduction_length
from ..operands import _result_elem
from .isa import VECTOR_BRGEMM_VARIANTS, brgemm_depthwise, brgemm_isa, brgemm_lane_dot, brgemm_lane_groups


# A source zero point (common or per channel) is subtracted in the depthwise kernel, x - zp in f32
# after the widening (the taps outside the source then zeroed: they add nothing, as in oneDNN's
# reference): exact while taps x 128 x |x - zp| stays under 2^24, so it is fused where a window of this
# many taps is exact for every zero point within the source type's own range (|x - zp| <= 255 + 255),
# and `depthwise_src_zp_limit` bounds the value a call may pass; a longer window keeps the shared
# epilogue.
DEPTHWISE_ZP_TAPS = (1 << 24) // (2 * 255 * 128)


#: the eltwise post-ops brgemm's stores apply after the sum, in the ReLU's place (a scale of 1): oneDNN's
#: formulas on 16 lanes, as the shared epilogue computes them (ReLU6 and Hardtanh are clips; SiLU a swish)
STORE_ELTWISE = ("clip", "hardswish", "hardsigmoid", "swish", "logistic", "linear")


def _store_post_ops(p: ConvProblem) -> tuple[Sum | None, bool, Eltwise | None] | None:
    """(sum, relu, eltwise) when brgemm's stores can apply `p`'s post-ops: none, a sum, then optionally
    a ReLU or one of `STORE_ELTWISE` (ResNet's residual join, MobileNet's ReLU6, EfficientNet's SiLU).
    The sum reads the prior destination in the kernel, so it needs a dense channels-last destination
    and the destination's own type; None otherwise."""
    ops = list(p.post_ops)
    relu, eltwise = False, None
    if ops and ops[-1] == RELU:
        relu = True
        ops.pop()
    elif ops and isinstance(ops[-1], Eltwise) and ops[-1].kind in STORE_ELTWISE and ops[-1].scale == 1.0:
        eltwise = ops.pop()
    if not ops:
        return None, relu, eltwise
    if len(ops) == 1 and isinstance(ops[0], Sum) and ops[0].dt in (None, p.dst.dtype.name) \
            and p.dst.is_dense and not p.dst.is_blocked and p.dst.order == (0, *range(2, p.desc.ndims), 1):
        return ops[0], relu, eltwise
    return None


def _brgemm_fuses_epilogue(p: ConvProblem, target: TargetCaps) -> bool:
    """brgemm stores the destination itself (`StoreEpilogue`) for the inference epilogue: common
    source / destination scales, common or per-output-channel weight scales, common source and
    destination zero points (the source's as -zp x each channel's weight sum over the taps each pixel
    reads in the accumulators' start, `Brgemm.real_tap_starts`, the padding holding 0: a zero point
    outside the source's type, which oneDNN allows, could not fill it; depthwise subtracts it, common or per channel, from
    what it loads), a per-channel destination zero point, an f32 bias, a ReLU, a sum (then a ReLU) into a dense
    channels-last destination (`_store_post_ops`), and a u8, s8, f32 or
    bf16 or f16 (from a float accumulator) destination. Other zero points, other post-ops and
    other types keep the shared epilogue after it. The AMX kernel stores each accumulator tile to a
    buffer on the stack and its rows through the same stores; it runs every tap, so a source zero point
    (which counts the taps each pixel reads) stays in the shared epilogue."""
    dst = p.dst.dtype.name
    # the source's zero point starts the accumulators, over the taps each pixel reads
    # (`Brgemm.real_tap_starts`, 3D too); depthwise subtracts it from each tap it reads (DEPTHWISE_ZP_TAPS);
    # small groups on a dot product: i32 sums, the zero point in their start, its border taps
    # corrected in the kernel, 3D too
    widened_dw = brgemm_depthwise(p) and not brgemm_lane_dot(p)
    zp_args = ("dst",) if (widened_dw and reduction_length(p) > DEPTHWISE_ZP_TAPS) or p.alg == "brgemm_amx" \
        else ("src", "dst")
    # per channel: the destination's (loaded per vector in the stores), depthwise's source's too
    per_channel = ("src", "dst") if widened_dw else ("dst",)
    return (all(q.arg in zp_args and (not q.per_channel or q.arg in per_channel) for q in p.zero_points)
            and _store_post_ops(p) is not None and (not p.bias or p.bias_dt == "f32")
            and all(q.arg == "wei" or not q.per_channel for q in p.scales)
            and (dst in ("u8", "s8", "f32") or (dst in ("bf16", "f16") and not p.acc.is_int))
            and _result_elem(p, target) == p.dst.dtype.mlir)


def depthwise_src_zp_limit(p: ConvProblem) -> int | None:
    """The largest |source zero point| the depthwise kernel of `p` computes exactly, where it subtracts
    the source zero point (common or per channel) itself (`DEPTHWISE_ZP_TAPS`); None where it does not.
    The API refuses a call whose values pass it."""
    if not (brgemm_depthwise(p) and not brgemm_lane_dot(p) and p.zero_point("src") is not None
            and _brgemm_fuses_epilogue(p, GENERIC)):
        return None             # (a dot product's sums are i32, exact)
    x_max = 255 if p.src.dtype.name == "u8" else 128
    return ((1 << 24) - 1) // (reduction_length(p) * 128) - x_max


def store_epilogue_args(p: ConvProblem) -> StoreEpilogue:
    """The runtime operands of a fused epilogue, named and typed as the kernel function takes them
    (bias, then the scales and zero points in `ConvProblem.quant_args` order, then the sum's prior
    destination: the API's argument order)."""
    quant = {name: Value(name, p.quant_shape(q), p.quant_dtype(name).mlir) for name, q in p.quant_args()}
    bias = Value("bias", (p.desc.oc,), "f32") if p.bias else None
    total, relu, eltwise = _store_post_ops(p)
    dst_init = Value("dst_init", (p.dst.buffer_nelems,), p.dst.dtype.mlir) if total else None
    return StoreEpilogue(bias=bias, src_scale=quant.get("src_scale"), wei_scale=quant.get("wei_scale"),
                         dst_scale=quant.get("dst_scale"), src_zp=quant.get("src_zp"), dst_zp=quant.get("dst_zp"),
                         relu=relu, eltwise=eltwise, dst_dt=p.dst.dtype,
                         args=([bias] if bias else []) + list(quant.values()) + ([dst_init] if dst_init else []),
                         dst_init=dst_init, sum_scale=float(np.float32(total.scale)) if total else 1.0,
                         sum_zp=total.zero_point if total else 0)


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


def _whole_lane_blocks(p: ConvProblem) -> bool:
    """The depthwise kernel's vectors are a blocked side's 16-channel blocks: depthwise (G padded to
    whole vectors is the blocks' own padding), or small groups across the lanes (`brgemm_lane_groups`)
    in whole vectors of 16 groups; a tail of groups would read and write cg and kg vectors past the
    last block (20 groups of 4: 8 blocks against the buffer's 5)."""
    return brgemm_lane_groups(p) == (1, 1) or p.desc.g % 16 == 0


def brgemm_src_block(p: ConvProblem) -> int:
    """The channel block b of a blocked source that brgemm reads in place, or 0: its packed tensor
    (N, ICp/b, [H,] W, b) is padded spatially and the kernel reads a group of k channels at
    [n, ic / b, ih, iw, ic % b] (k divides b, so a group never spans two blocks; the block's channels
    past IC hold zero and meet zero weights). Otherwise the source is laid out channels last in the
    kernel, a relayout that costs a large share of a 1x1 layer (measured: docs/performance.md, Tuned
    constants)."""
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


def brgemm_lanes_pretransposed(p: ConvProblem) -> bool:
    """Groups of 4 or 8 channels across the lanes on FMAs (`brgemm_lane_groups`, no dot product) read a
    source transposed on the way in, each block of 16 groups as cg vectors of one channel of the 16
    groups, instead of de-interleaving each column's cg vectors in registers (8 and 24 shuffles a
    column). The kernel then runs pixels innermost (templates/brgemm/depthwise.mlir.j2,
    `pretransposed_taps`): each weight vector is loaded once for a block's rw pixels, where column by
    column it met one FMA. The transpose is one pass over the source (`_brgemm_compute`). f32 ResNeXt
    3x3 layers of 4 and 8 channels a group ran 1.3-1.7x faster; the dot products (bf16 pairs, u8
    quads: 2 vectors a column), transposed and read column by column, 1.7-2x slower, the pass costing
    more than their shuffles (measured: docs/performance.md, Tuned constants). For a channels-last
    source of whole blocks of 16 groups (no masked tail, nor a blocked source read in place) without a
    source zero point per channel (its vectors are in the source's channel order)."""
    lanes = brgemm_lane_groups(p)
    if lanes is None or lanes == (1, 1) or p.desc.g % 16 or brgemm_src_block(p):
        return False
    dot = brgemm_lane_dot(p)
    zp = p.zero_point("src")
    return dot is None and lanes[0] >= 4 and not (zp is not None and zp.per_channel)


def brgemm_dst_blocks(p: ConvProblem) -> bool:
    """True when brgemm writes a blocked destination's 16-channel blocks itself: nCw16c / nChw16c,
    the epilogue in the stores (`_brgemm_fuses_epilogue`), each 16-channel vector one store at
    [n, oc / 16, oh, ow, 0], the lanes past OC stored as 0 (the epilogue's f(0) may not be: a
    destination zero point, a NaN source against a padded channel's zero weights)."""
    return (_in_blocks(p, p.dst, view=False) == 16 and _brgemm_fuses_epilogue(p, GENERIC)
            and (not brgemm_depthwise(p) or _whole_lane_blocks(p)))
