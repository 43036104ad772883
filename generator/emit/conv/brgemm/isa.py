"""brgemm's microkernels (`BrgemmIsa`) and which one runs a problem: the ungrouped AVX-512 and AMX
kernels, the depthwise kernel with the groups across the vector lanes, and the dot products small
groups take there; why a brgemm variant does not apply or is refused."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ....problem.conv import ConvProblem
from ...target import TargetCaps
from ..common import reduction_length


@dataclass(frozen=True)
class BrgemmIsa:
    """One brgemm microkernel, one per instruction (templates/brgemm/): each multiplies a broadcast
    32-bit group of `k` input channels of one source pixel by 16 output channels x `k` of packed
    weights into 16 lanes of a zmm accumulator."""
    name: str                   # the microkernel in templates/brgemm/ (common.mlir.j2's per-isa table)
    feature: str                # the CPU feature (compile.host.MATRIX_FEATURES) it needs
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
# FMA's 16, but where it issues at half the FMAs' rate (Intel's cores) it gains nothing. Small groups
# across the lanes (`brgemm_lane_groups`) run their FMAs on the widened source instead of pairing a
# group's channels on vdpbf16ps. It also runs bf16 on AVX-512 CPUs without avx512_bf16. (measured:
# docs/performance.md, Tuned constants)
FMA_ISAS = (
    BrgemmIsa("bf16", "avx512f", "vfmadd231ps on bf16 widened to f32", ("bf16",), "bf16", 1, widen="f32"),
)


#: the variants whose kernels run on AVX-512 vector registers (`_vector_table`): their depthwise and
#: small-group kernels, and blocked buffers read and written in place, are shared
VECTOR_BRGEMM_VARIANTS = ("brgemm", "brgemm_fma")


# AMX: one tile instruction per (16 pixels x 16 channels) accumulator tile, over K chunks of up to 64
# bytes (16 groups of k). A separate variant (`brgemm_amx`): `--alg=auto` takes it where the cost model
# (`select.cost.AMX_MODEL`, fitted to one AMX CPU) or `kgen tune` puts it ahead of the vector kernel.
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
#: the most 8-bit products (each at most 255 x 128) whose sum stays exact in f32 (under 2^24)
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


#: A group's input and output channels the depthwise kernel takes across its lanes
#: (`brgemm_lane_groups`): a power of two, whose lane shuffles (`brgemm_step.lane_unzip`, `lane_zip`) are
#: a binary tree.
LANE_GROUP_CHANNELS = (1, 2, 4, 8)


def brgemm_depthwise(p: ConvProblem) -> bool:
    """brgemm runs `p` on its depthwise kernel (`DEPTHWISE_ISAS`), the groups across the vector lanes:
    a depthwise conv (each output channel vector reading the same 16 channels of the source), or one
    whose groups are small (`brgemm_lane_groups`). The kernel sees one group of G channels."""
    return brgemm_lane_groups(p) is not None


def brgemm_lane_groups(p: ConvProblem) -> tuple[int, int] | None:
    """(cg, kg), a group's input and output channels, where brgemm runs `p` with the groups across the
    vector lanes on its depthwise kernel: each vector holds one channel of 16 groups, so a tap is cg x
    kg FMAs of whole vectors (or fewer dot products, `brgemm_lane_dot`). Depthwise is (1, 1);
    ResNeXt's and RegNet's groups of 4 or 8 channels and a depthwise conv's channel multiplier (oc = k
    x g) are the others. The source's 16 groups x cg channels are cg vectors in channel order,
    de-interleaved in registers (`brgemm_step.lane_unzip`), and the kg accumulators of each pixel are
    interleaved back (`brgemm_step.lane_zip`) before the stores, which see whole vectors of 16 output
    channels in order as for any other conv. The ungrouped kernel instead pads each group's kg output
    channels to a vector of 16: on ResNeXt-50's g32 3x3 convs with 4 channels a group, four times the
    work. So the lanes are taken where one instruction over them does at least the useful multiplies
    of one instruction of the ungrouped kernel: 16 x k there (k the channels its instruction reduces:
    4 for 8-bit on vpdpbusd, 2 for bf16, 1 for f32; a group's cg padded to whole k and its kg to 16),
    and 16 x k' over the lanes, G groups filling ceil(G / 16) vectors (k' = 4 for 8-bit quads on
    vpdpbusd, 2 for bf16 pairs on vdpbf16ps, else 1): the lanes gain at 4 and 8 channels a group, and
    u8 widened to f32 (a per-channel source zero point) loses at 8, where the ungrouped vpdpbusd fills
    its quads (measured: docs/performance.md, Tuned constants). Not for 8-bit sums that the widened
    f32 accumulators would not hold exactly (`DEPTHWISE_EXACT_TAPS`), nor a group outside
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


def vector_lane_groups(p: ConvProblem) -> tuple[int, int] | None:
    """`brgemm_lane_groups` of `p` on brgemm's vector kernel, whatever `p`'s variant: the groups that
    brgemm puts across its lanes, which AMX's tiles and the cost model leave to it."""
    return brgemm_lane_groups(dataclasses.replace(p, alg="brgemm"))


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
        # a tile computes 16 channels of one group and reduces a group's channels a tap: groups that
        # brgemm puts across its vector lanes (depthwise, 1 to 8 channels a group) would fill 1 to 8
        # of a tile's 16 columns and 4 to 32 of its 64-byte rows
        lanes = vector_lane_groups(p)
        if lanes is not None:
            return (f"a group's {lanes[0]} input and {lanes[1]} output channels would fill {lanes[1]} of a "
                    f"tile's 16 columns; brgemm puts groups this small across its vector lanes (use brgemm)")
    # (small groups sum cg products a tap, and leave the lanes before they pass it: only depthwise's
    # taps reach it)
    if (brgemm_depthwise(p) and p.src.dtype.is_int and not brgemm_lane_dot(p)
            and reduction_length(p) > DEPTHWISE_EXACT_TAPS):
        return (f"its depthwise kernel sums 8-bit products in f32, exact up to {DEPTHWISE_EXACT_TAPS} taps, "
                f"and this window has {reduction_length(p)} (use direct)")
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
