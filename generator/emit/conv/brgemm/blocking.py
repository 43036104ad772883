"""brgemm's blocking heuristics, testable without rendering (as oneDNN's brg_blocking_t): the register
block of output pixels x 16-channel vectors and the rows per workgroup (`brgemm_blocking`), the
depthwise kernel's block, a kernel row folded into the channels (`brgemm_fold_taps`) and a group's
channels padded for the microkernel (`brgemm_channels`)."""
from __future__ import annotations

from ....layout import get_dtype
from ....problem.conv import ConvProblem
from ...target import GENERIC, TargetCaps
from ..common import reduction_length
from .fusion import brgemm_dst_blocks, brgemm_lanes_pretransposed, brgemm_src_block
from .isa import brgemm_depthwise, brgemm_isa, brgemm_lane_dot, brgemm_lane_groups


AMX_PIXELS, AMX_RO = 32, 2      # register block: 2 x 2 accumulator tiles + 2 source + 2 weight tiles = 8


# register block: RW output pixels x RO vectors of 16 output channels, all in zmm registers (32):
# RW * RO accumulators + RO weight vectors + 1 broadcast source group
_ZMM_REGISTERS = 32


# A block that leaves no register for the broadcast (7 x 4: 28 accumulators + 4 weight vectors, 33
# values for 32 registers): IREE 3.13's LLVM holds them by rotating registers (zmm moves and stack
# accesses in the inner loop). Its score is scaled by this, which keeps 6 x 4 where that fits; where
# a row takes two or more blocks it is not taken at all (its spills move with the code around it),
# where one block covers the row it can still win. (measured: docs/performance.md, Tuned constants)
FULL_BLOCK_SCORE = 0.85


# A block that covers a whole padded row, computing its channels whole, scores this much more: one
# block then reads both padded sides, and the row is not split into edge and inner blocks (14 x 2 on
# 14-wide rows). Small enough to leave 4 x 4 on 8-wide rows and 5 x 4 on 10-wide ones; not where the
# block computes channels past OC, nor on unpadded rows (1x1), where no block led. (measured:
# docs/performance.md, Tuned constants)
ROW_BLOCK_SCORE = 1.2


# the most vectors of output channels a register block takes: 5 (5 x 5, 31 registers) computes I3D's
# 160 and 80 channels whole, where 4 computes 192 and 96. Only where 5 divides the channel vectors
# (ResNet's 1024 channels would compute as 65 vectors for 64), and not on the depthwise kernel, whose
# vectors are loads, not broadcasts. (measured: docs/performance.md, Tuned constants)
_MAX_RO = 5


def brgemm_blocking(p: ConvProblem, target: TargetCaps = GENERIC) -> tuple[int, int, int]:
    """(rw, ro, rh): the register block (rw output pixels x ro vectors of 16 channels, rw * ro + ro + 1
    zmm registers) and the output rows per workgroup. The block maximises the multiplies (one
    instruction per accumulator) per load (rw * ro per ro weight loads + rw broadcasts: the loads bound
    the kernel as much as the multiplies) times the share of useful work (OW and OC rounded up to whole
    blocks are computed and cropped): ic64 56x56 3x3 takes 6 x 4, a 7-wide layer 7 x 4, not 1 x 4.
    Where the target bounds the weight panel (`TargetCaps.weight_panel_bytes`), 3 or 4 vectors are
    taken only where their panel fits (YOLOv2's ic1024 3x3 layers on an Intel core: 10 x 2 instead of
    5 x 4; measured: docs/performance.md, Tuned constants). Up to 5 vectors (`_MAX_RO`: 160 and 80
    channels whole; 4 on the depthwise kernel); a block of 33 registers (`FULL_BLOCK_SCORE`) not where
    a row takes two or more of them; a block that covers a padded row, its channels whole, preferred
    (`ROW_BLOCK_SCORE`: 14 x 2 on 14-wide rows). rh cuts the rows into about 8 workgroups per channel
    block and image, for every core."""
    sp = p.desc.spatial()
    # a group's channels; depthwise: all of them, as one group; small groups across the lanes: the
    # groups (a vector is 16 of them)
    lanes = brgemm_lane_groups(p)
    oc = p.desc.oc if lanes == (1, 1) else p.desc.g if lanes else p.desc.oc // p.desc.g
    ow, oh = sp[-1].o, sp[-2].o if len(sp) >= 2 else 1
    if p.alg == "brgemm_amx":
        return AMX_PIXELS, AMX_RO, max(1, -(-oh // 8))
    depthwise = brgemm_depthwise(p)       # 3D depthwise: its own kernel, 4 vectors at most (_MAX_RO)

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
    """(rw, ro) of the depthwise kernel, whose kernel row is unrolled (templates/brgemm/depthwise.mlir.j2,
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
    # a source transposed on the way in is read as it is (`brgemm_lanes_pretransposed`)
    pretransposed = brgemm_lanes_pretransposed(p)
    shuffles = 0 if pretransposed else max(cg.bit_length() - 1, 0)

    def score(rw: int, ro: int) -> tuple[float, int]:
        # loads: each column's vectors (pretransposed: each pixel's, a tap), and the weights
        cols = rw * kw if pretransposed else len({r * sw + k * dw for r in range(rw) for k in range(kw)})
        useful = ow / (-(-ow // rw) * rw)
        return rw * kw * cg * kg / (cols * cg * (1 + shuffles) + kw * cg * kg) * useful, rw * ro

    def fits(rw: int, ro: int) -> bool:
        # small groups: a column's cg vectors and their de-interleaving's as many again (none where the
        # source comes transposed), and 6 more (weights, masks): with only cg + 2 held, LLVM spilled
        # accumulators (measured: docs/performance.md, Tuned constants)
        if pretransposed:     # rw source vectors and a weight (`pretransposed_taps`), the zero
            return rw * ro * kg + rw + 4 <= _ZMM_REGISTERS
        held = kw + 2 if kg == cg == 1 else 2 * cg + 6
        return rw * ro * kg + held <= _ZMM_REGISTERS

    blocks = [(rw, ro) for ro in range(1, min(4, vectors) + 1) if not whole or vectors % ro == 0
              for rw in range(1, 17) if fits(rw, ro)]
    return max(blocks, key=lambda b: score(*b)) if blocks else (1, 1)


#: How much smaller the padded reduction must get for brgemm to fold a kernel row's taps into the
#: channels (`brgemm_fold_taps`): the stem in int8, 7 taps x 3 channels, pads to 7 x 4 = 28 per row as
#: it is and to 8 x 3 = 24 folded (0.86).
KW_FOLD_GAIN = 0.9


def brgemm_fold_taps(p: ConvProblem) -> int | None:
    """The taps a kernel row is read as when brgemm folds it into the channels, or None: the row's KW
    taps of IC channels (and enough zero-weight taps after them to make whole groups of k) as one tap
    of KWf * IC channels, contiguous in a channels-last source row, which the kernel reads through an
    overlapping view of the padded source, nothing copied (`_brgemm_compute`, `BrgemmGeometry.unfold`), the
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


def amx_fold_taps(p: ConvProblem) -> bool:
    """Whether brgemm_amx reads a kernel row's KW taps as one tile row: each tap's channels padded to
    whole groups of k (zero source channels, zero weights), the row's KW x ICp elements contiguous in
    the channels-last padded source, so one tile load (rows a pixel's stride apart) and one tile
    instruction take the row where each tap took one: 7 instead of 49 a 7x7 stem's block, whose 3
    channels (4 padded) fill 4 or 8 of a tile row's 64 bytes. Where the row fits one tile row (64
    bytes), and, as for brgemm's folded rows, not for dilated rows, groups, 3D, a source zero point or
    an s8 source (whose shift and compensation count taps), or a source read in its own blocks."""
    d = p.desc
    if (p.alg != "brgemm_amx" or d.ndims == 5 or d.g != 1 or d.kw == 1 or d.dw != 0 or p.src.dtype.name == "s8"
            or p.zero_point("src") is not None or brgemm_src_block(p)):
        return False
    isa = brgemm_isa(p)
    if isa is None:
        return False
    return d.kw * -(-d.ic // isa.k) * isa.k * p.src.dtype.itemsize <= 64


def _fold_groups(p: ConvProblem, real: int) -> tuple[int, int]:
    """A folded row's groups of k elements the kernel multiplies (the groups past the row's `real`
    elements are left out: their weights are zero), and the i32 AND mask that keeps the real elements
    of the last one and clears its filler, or -1 where nothing needs clearing (`BrgemmGeometry.unfold`). The
    filler reads real source elements of the next pixels against zero weights: exact in integers,
    but in a float kernel an Inf or NaN there would make 0 x Inf = NaN in an output whose window
    holds neither."""
    k = brgemm_isa(p).k
    groups, fill = -(-real // k), -real % k
    if fill == 0 or p.src.dtype.is_int:
        return groups, -1
    keep = (1 << (32 // k * (k - fill))) - 1    # the group's first elements are its low bits
    return groups, keep - (1 << 32) if keep >= 1 << 31 else keep


def amx_row(p: ConvProblem) -> int:
    """The channels of one 64-byte tile row (a K chunk): 64 u8 or s8, 32 bf16."""
    return 64 // p.src.dtype.itemsize


def brgemm_channels(p: ConvProblem, ic: int) -> int:
    """A group's input channels padded for the microkernel: to a multiple of k (one 32-bit group); for
    AMX, beyond one 64-byte K chunk, to whole chunks (a tile row is one chunk)."""
    isa = brgemm_isa(p)
    icp = -(-ic // isa.k) * isa.k
    if p.alg == "brgemm_amx":
        chunk = amx_row(p)
        icp = icp if icp <= chunk else -(-ic // chunk) * chunk
    return icp
