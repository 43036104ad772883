"""The steps a kernel is planned in: one typed record per step kind, printed by the template macro of
the same name (templates/relayout.mlir.j2 for data movement and conversion, templates/conv_*.mlir.j2
for the convolution kernels).

Python plans (`relayout.Plan`): it decides shapes, maps, permutations and data types and records them
here. A template only spells the MLIR. A step built with a missing or unknown field fails when it is
planned, not as a half-rendered kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..errors import InternalError
from ..layout.dtypes import DataType


@dataclass(frozen=True)
class Value:
    """An SSA tensor value: its name (without %), shape and MLIR element type."""
    name: str
    shape: tuple[int, ...]
    elem: str


@dataclass(frozen=True, kw_only=True)
class Step:
    """A step with no parameters of its own (copy, barrier); the base of every other."""
    kind: str                 # the template macro that prints it
    inp: Value | None         # the main operand (None for constants)
    out: Value                # the result; names inside the step's MLIR start with out.name
    # a custom dispatch (brgemm, wino_input / wino_output) that runs the executable an earlier step
    # defined, named here (the bands of a banded Winograd kernel: one definition, compiled once);
    # empty: the step defines its own
    shared_exe: str = ""

    @property
    def dispatched(self) -> str:
        """A custom dispatch's executable symbol: `shared_exe`, else the step's own, named after it."""
        return self.shared_exe or f"{self.out.name}_{self.kind}"


# ------------------------------------------------------------------ data movement (relayout.mlir.j2)
@dataclass(frozen=True, kw_only=True)
class Slice(Step):
    offsets: list[int]
    sizes: list[int]
    strides: list[int] | None


@dataclass(frozen=True, kw_only=True)
class Pad(Step):
    low: list[int]
    high: list[int]


@dataclass(frozen=True, kw_only=True)
class Reshape(Step):
    groups: list[list[int]]         # which result dims each source dim becomes (or the reverse)


@dataclass(frozen=True, kw_only=True)
class Transpose(Step):
    perm: list[int]


@dataclass(frozen=True, kw_only=True)
class Tiling(Step):
    outer_perm: list[int]           # linalg.pack's outer_dims_perm
    inner_pos: list[int]            # the dims that are blocked, innermost last
    tiles: list[int]                # their block sizes


@dataclass(frozen=True, kw_only=True)
class Insert(Step):
    """`source` into `inp` at `offsets`."""
    source: Value
    offsets: list[int]
    sizes: list[int]


@dataclass(frozen=True, kw_only=True)
class Concat(Step):
    parts: list[Value]
    dim: int


@dataclass(frozen=True, kw_only=True)
class Lanes(Step):
    """A padded block laid down from its valid lanes: out[..., lane, ...] = parts[lane][map(...)] for
    lane < len(parts), zero past them (`relayout.logical_piece_to_packed`: a tail without tensor.pad)."""
    parts: list[Value]
    index: list[str]                # each part's index, as expressions of the result's dims d0, d1, ...
    lane: int                       # the result dim that holds the lanes


@dataclass(frozen=True, kw_only=True)
class TransposeTiles(Step):
    """The "shuffle" reorder form's dispatch (`emit.reorder.shuffle_plan`): the source buffer read as
    (B, R, S) with strides (sb, sr, 1) from `offset`, written as the dense (B, S, R) destination, in
    16 x 16 register tiles transposed by `network` ((out, a, b, mask) vector.shuffles of rows r0..r15
    into o0..o15). Workgroups: `chunks` ranges of `chunk` 16-column blocks of S, per batch index.
    With `lanes` > 1 (8- and 16-bit elements), full tiles go `lanes` at a time through
    `wide_network` (`relayout.widened_network`): rows of 16 * lanes elements, one 512-bit register."""
    exe: str                        # the executable's name (unique in a module of several kernels)
    b: int
    r: int
    s: int
    strides: list[int]              # (sb, sr) in elements
    offset: int
    chunk: int
    chunks: int
    # a destination bigger than the caches: its stores of this many elements, whole 64-byte lines, go
    # past them (`emit.reorder.shuffle_streams`); 0: none do
    stream_elems: int
    network: list
    lanes: int = 1                  # 16 x 16 tiles transposed side by side (`chunk` is a multiple of it)
    tall: bool = False              # ... stacked along R instead (16-element loads, whole-register stores)
    # a partial last channel block (`relayout.BlockTail`): `b2` channel blocks per image (workgroup z),
    # the source's stride between them, the destination's (N, Cb, S) strides; `valid` channels in the
    # last block, `side` "rows" (the block is R) or "cols" (the block is S); valid 0: no such block
    b2: int = 1
    x2: int = 0
    ystrides: list | None = None
    valid: int = 0
    side: str = ""
    wide_network: list | None = None
    merge_network: list | None = None     # side by side into 16-element rows: whole-register stores
    split_network: list | None = None     # stacked from contiguous 16-element rows: whole-register loads


@dataclass(frozen=True, kw_only=True)
class Gather(Step):
    """Each logical element read at offset0 + sum(index * stride)."""
    strides: list[int]
    offset0: int


@dataclass(frozen=True, kw_only=True)
class Convert(Step):
    """Data type conversion with oneDNN's quantization (emit/reorder.py)."""
    route: str                      # "int", "itof", "f32" or "bf16bits" (i16 bits of a bf16 -> f32): the arithmetic
    src: DataType
    dst: DataType
    quant: list[Any]                # the quantization arguments (arg name, mask, value)
    apply: list[int]                # which of them apply, in oneDNN's order
    lo: float
    hi: float
    ilo: int
    ihi: int
    bf16_bits: bool                 # f32 -> bf16 by integer rounding (an integer source)


@dataclass(frozen=True, kw_only=True)
class UnpackNibbles(Step):
    """Packed 4-bit storage, bytes (K,) -> elements (K, 2): the low nibble first, sign-extended to the
    element type when `signed` (s4), zero-extended otherwise (u4)."""
    signed: bool


@dataclass(frozen=True, kw_only=True)
class PackNibbles(Step):
    """Elements -> packed 4-bit storage: byte k = the low 4 bits of `inp`[k] | those of `high`[k] << 4."""
    high: Value


# ------------------------------------------------------------------ convolution kernels (conv_*.mlir.j2)
@dataclass(frozen=True, kw_only=True)
class Constant(Step):
    hex: str                        # little-endian bytes of the dense constant


@dataclass(frozen=True, kw_only=True)
class WindowGather(Step):
    """out[dims] = inp[src]: tiles or im2col columns, affine indices."""
    dims: list[str]
    src: list[str]


@dataclass(frozen=True, kw_only=True)
class WithWeights(Step):
    wei: Value                      # the prepared weights


@dataclass(frozen=True, kw_only=True)
class Contraction(WithWeights):
    src_dt: DataType                # the source's type, widened to the accumulator's
    acc_dt: DataType
    wei_dt: DataType | None = None  # the weights' type when it differs (f32 x bf16, u8 x s8)


@dataclass(frozen=True, kw_only=True)
class ConvDirect(Contraction):
    strides: list[int]
    dilations: list[int]


@dataclass(frozen=True, kw_only=True)
class ConvPacked(Contraction):
    """Direct over blocked tensors: maps over their packed axes."""
    dims: list[str]
    npar: int
    src_idx: list[str]
    wei_idx: list[str]
    out_idx: list[str]


@dataclass(frozen=True, kw_only=True)
class NamedConv(WithWeights):
    op: str
    strides: list[int]
    dilations: list[int]
    acc_dt: DataType
    acc: Value | None = None        # the partial sums it adds to (a chain of convs); None: from zero


@dataclass(frozen=True, kw_only=True)
class Conv1x1(Contraction):
    strides: list[int]


@dataclass(frozen=True, kw_only=True)
class IndirectGather(Step):
    """The columns (n, g, ic, k, o) = inp[n, g, ic, table[o, k]]."""
    table: Value


@dataclass(frozen=True, kw_only=True)
class Indirect(Contraction):
    """The table read inside the contraction itself."""
    table: Value


@dataclass(frozen=True, kw_only=True)
class WinogradTransform(Step):
    """One factor of C1 . X . C2^T (emit/conv.py's WINOGRAD_TRANSFORMS)."""
    mat: Value
    dims: list[str]
    mat_idx: list[str]
    inp_idx: list[str]
    out_idx: list[str]


@dataclass(frozen=True)
class LinearOp:
    """One 16-lane f32 instruction of a Winograd tile transform's unrolled linear combinations
    (emit.conv.winograd_tile_program): `res` = coef * x ("mul"), -x ("neg"), acc + x ("add"),
    acc - x ("sub") or coef * x + acc ("fma"); `coef` names a constant vector of `WinogradTiles.consts`."""
    res: str
    kind: str
    x: str
    acc: str = ""
    coef: str = ""


@dataclass(frozen=True, kw_only=True)
class WinogradTiles(Step):
    """A Winograd tile transform as a custom dispatch on 16-channel vectors, channels last
    (templates/conv_winograd.mlir.j2, `wino_tiles_executable`), over `rows` tile rows from `row0`:
      wino_input:  (N, TH*m+2, TW*m+2, C) source, or the unpadded one (`src_pad`) -> V = BT d B,
                   (1, rows, TW, alpha*alpha*C), each tile's transform positions as alpha*alpha groups
                   of C channels (the GEMM's grouped 1x1 source);
      wino_output: (1, rows, TW, alpha*alpha*C) GEMM result -> Y = AT M A, (N, OH, OW, C), the pixels
                   of tiles past (OH, OW) not stored.
    C is a multiple of 16. `ops` computes the tile from `loads` (SSA name, i, j: tile element (i, j)) into
    the values `stores` names (SSA name, i, j)."""
    m: int                          # output tile size
    alpha: int                      # input tile size, m + 2
    tiles: tuple[int, int]          # (TH, TW), of one phase
    # (DH, DW): a dilated kernel's d x d phases (emit.conv.winograd_grid), each TH x TW tiles over
    # every d-th row and column: tile element (i, j) of phase (ph, pw)'s tile (th, tw) is source pixel
    # (d * (th*m + i) + ph - top, ...), its output (k, l) pixel (d * (th*m + k) + ph, ...)
    dilations: tuple[int, int]
    valid: tuple[int, int]          # wino_output: the output rows and columns (OH, OW); wino_input: unused
    consts: list[tuple[str, float]] # the coefficients other than +-1, as named constant vectors
    ops: list[LinearOp]
    loads: list[tuple[str, int, int]]
    stores: list[tuple[str, int, int]]
    # wino_input reading the conv's unpadded source (N, IH, IW, C) in place (f32, or bf16 / f16 widened
    # as it is loaded): [top padding, left padding, the source rows and columns the conv reads]; tile
    # element (i, j) of tile (th, tw) is source pixel (th*m + i - top, tw*m + j - left), zero outside
    # them. None: the source arrives padded to whole tiles, in f32
    src_pad: list[int] | None
    # wino_input: the source is nChw16c's packed tensor (N, C/16, IH, IW, 16), read in place
    # (emit.conv.winograd_src_block; with `src_pad`)
    src_block: bool = False
    # wino_output: the result is the nChw16c destination's packed tensor (N, C/16, OH, OW, 16)
    # (emit.conv.winograd_dst_blocks)
    dst_blocks: bool = False
    # wino_output's epilogue in its stores (emit.conv._winograd_fuses_epilogue): a bias per channel
    # (C,) f32, then a ReLU; the result in `out.elem` (f32, bf16 or f16)
    bias: Value | None = None
    relu: bool = False
    # A band of the tile rows (emit.conv.winograd_bands): the N * DH * DW * TH tile rows (image, phase,
    # tile row) are one axis; this step transforms `rows` of them from `row0` (a runtime operand, so
    # every band runs one executable), and rows past the last are skipped; one band: all of them.
    row0: int = 0
    rows: int = 0
    # with several bands (`banded`): wino_input reads `after` (the previous band's GEMM result; the
    # first band's: its own source), which orders the bands one after another so that each band's V and
    # M are still in cache when the next step reads them (without it IREE runs every band's input
    # transform first); wino_output writes its band's pixels into `dst_init` (the previous band's
    # output, tied: written in place), the first band into a new tensor
    banded: bool = False
    after: Value | None = None
    dst_init: Value | None = None


@dataclass(frozen=True)
class StoreEpilogue:
    """The epilogue a compute step applies in its own stores (brgemm): accumulator -> f32 -> x (src
    scale x wei scale, common or per output channel, multiplied once per workgroup as oneDNN
    precomputes them) -> + bias (per output channel) -> + sum_scale x (prior destination - sum_zp) ->
    ReLU -> x (1 / dst scale) -> + dst zero point -> destination type, rounded to nearest even and
    saturated. Absent operands (None) are skipped. A
    common source zero point is not applied here but in the accumulators' start (Brgemm.src_zp). The
    shared epilogue (conv_attr_epilogue) multiplies the scales one by one and divides by the dst
    scale: the results agree exactly where the scales are dyadic and otherwise within benchdnn's one unit of an integer
    destination (`verify.conv_tolerance`)."""
    bias: Value | None
    src_scale: Value | None
    wei_scale: Value | None
    dst_scale: Value | None
    src_zp: Value | None            # not a store operand: the compute step starts its accumulators with it
    dst_zp: Value | None
    relu: bool
    dst_dt: DataType
    args: list[Value]               # every runtime argument it takes (the src zero point too), in the
                                    # kernel function's order
    # oneDNN's sum post-op (before the ReLU): + sum_scale x (prior destination - sum_zp), the prior
    # destination read per pixel in the kernel's (images, OH, OW, OC) order; None: no sum
    dst_init: Value | None = None
    sum_scale: float = 1.0
    sum_zp: int = 0

    @property
    def folds_dst_scale(self) -> bool:
        """Whether the dst scale folds into the scale and the bias (with the dst zero point), once per
        workgroup: nothing (no sum, no ReLU, whose order with a negative scale matters) lies between
        them, so each vector takes one FMA where it took a multiply, an add and a multiply."""
        return self.dst_scale is not None and self.dst_init is None and not self.relu

    @property
    def operands(self) -> list[Value]:
        """The runtime operands of the stores, in the order the dispatch takes them."""
        return [v for v in (self.bias, self.src_scale, self.wei_scale, self.dst_scale, self.dst_zp, self.dst_init)
                if v is not None]


def lane_unzip(n: int) -> tuple[list[tuple[int, int, int, list[int]]], list[int]]:
    """The vector.shuffle program that de-interleaves n vectors of 16 lanes holding 16 groups' n
    channels in channel order (element e = group * n + channel) into one vector per channel (lane =
    group): (ops, outputs). Registers 0..n-1 are the inputs; op (r, a, b, mask) defines register r as
    the shuffle of a and b (mask indices 0-15 from a, 16-31 from b); `outputs` are the channels'
    registers in order. log2(n) rounds of n shuffles: the even and odd elements of each pair, whose
    own channels are the even and odd ones."""
    ops: list[tuple[int, int, int, list[int]]] = []
    counter = [n]

    def split(regs: list[int]) -> list[int]:
        if len(regs) == 1:
            return regs
        evens, odds = [], []
        for a, b in zip(regs[::2], regs[1::2]):
            for part, first in ((evens, 0), (odds, 1)):
                ops.append((counter[0], a, b, list(range(first, 32, 2))))
                part.append(counter[0])
                counter[0] += 1
        e, o = split(evens), split(odds)
        return [x for pair in zip(e, o) for x in pair]

    return ops, split(list(range(n)))


def lane_zip(n: int) -> tuple[list[tuple[int, int, int, list[int]]], list[int]]:
    """`lane_unzip`'s inverse: n vectors, one per channel (lane = group), interleaved into channel
    order (element e = group * n + channel), as (ops, outputs) in the same form."""
    ops: list[tuple[int, int, int, list[int]]] = []
    counter = [n]

    def merge(regs: list[int]) -> list[int]:
        if len(regs) == 1:
            return regs
        evens, odds = merge(regs[::2]), merge(regs[1::2])
        out = []
        for a, b in zip(evens, odds):
            for half in (0, 8):
                ops.append((counter[0], a, b, [i for k in range(half, half + 8) for i in (k, k + 16)]))
                out.append(counter[0])
                counter[0] += 1
        return out

    return ops, merge(list(range(n)))


@dataclass(frozen=True, kw_only=True)
class Brgemm(Step):
    """The brgemm variant's microkernel (templates/conv_brgemm.mlir.j2), one custom dispatch: the padded
    channels-last source (N, IHp, IWp, ICp) x weights (OCB, KH, KW, ICp/k, RO, 16*k) in the instruction's
    order -> (N, OH, OW, OCp) in the accumulator type, or with `epilogue` in the destination type.
    `src_block` / `dst_blocks`: a side in channel blocks instead, read or written in place. Depthwise
    (isa "dw"): one group of OCp channels, weights (OCB, KH, KW, 1, RO, 16) in f32, the source in its
    own type, unpadded in 1D and 2D (`borders`, `lanes`)."""
    wei: Value
    # (KH*KW, OCp) i32: each output channel's weight sum per tap; each output starts from
    # -(shift + src_zp) x the sum over the taps it reads (all of them, or `real_tap_starts`)
    comp: Value | None
    shift: int                      # what the source was shifted by (128: an s8 source read as u8)
    src_zp: Value | None            # a common source zero point (0-d i32)
    # where the real source lies in the padded one the kernel reads: [top row, left column, rows,
    # columns], and in 3D [first plane, planes] after them; None: nothing padded (`padding` "read")
    real_src: list[int] | None = None
    # how the kernel meets that padding:
    #   "zero": the padded source holds 0 there (an s8 source is shifted to u8 before its padding). The
    #     kernel rows (3D: planes) and the edge blocks' pixels that reach only padding are skipped
    #     (`real_rows`, `real_cols`): a padded tap adds 0 x w. Where the accumulators start from
    #     -(shift + zp) x a weight sum, it is the sum over the taps each pixel reads (`real_tap_starts`).
    #   "read": every tap is run and the padding read as it holds (nothing padded; AMX's own loop; an s8
    #     source shifted after its padding, which reads 128 there, cancelled by the compensation, where
    #     a pixel's start cannot count the padded taps: a folded row)
    #   "unpadded": depthwise reads the unpadded source and checks its taps against `real_src` (`borders`)
    padding: Literal["read", "zero", "unpadded"] = "read"
    isa: str                        # the microkernel (emit.conv.BRGEMM_ISAS, DEPTHWISE_ISAS): "vnni", "bf16", "f32" or "dw"
    strides: list[int]              # (h, w)
    dilations: list[int]            # (h, w), 1 = dense
    rw: int                         # output pixels per register block
    rh: int                         # output rows per workgroup
    groups: int                     # the channels are G groups: ICp/G source, OCp/G result channels each
    ocg: int                        # a group's real output channels (the epilogue operands' stride)
    emulate_tiles: bool             # AMX tile instructions emulated with AVX-512 (TargetCaps.emulate_amx)
    epilogue: StoreEpilogue | None = None   # applied in the stores (out in the destination type), or none
    depth: "BrgemmDepth | None" = None      # 3D: the depth folded into the image index; None: 1D / 2D
    # a kernel row folded into the channels (emit.conv.brgemm_fold_taps): the source (N, IHp, IWp, IC)
    # read as an overlapping view (N, IHp, OW, KWf * IC) whose columns are `pixel` elements apart:
    # [OW, KWf * IC, pixel, the i32 mask of the last group's real elements (-1: no filler cleared),
    # the groups of k multiplied (the row's real elements, rounded up)]; None: read as it is
    unfold: list[int] | None = None
    # a blocked source read in place (emit.conv.brgemm_src_block): its packed tensor (N, ICp/b, IHp, IWp,
    # b), channel block b; 0: the channels-last source above
    src_block: int = 0
    # that source read where it lies, through a strided view of its whole buffer (`inp` is then the 1-D
    # buffer): a band of rows of a bigger image, nothing padded (emit.conv._brgemm_src_view)
    src_view: "BrgemmView | None" = None
    # the result written as the destination's 16-channel blocks (emit.conv.brgemm_dst_blocks):
    # (N, OCp/16, OH, OW, 16), the lanes past OC stored as zero; False: channels last, (N, OH, OW, OCp)
    dst_blocks: bool = False
    # the source's data type (i8 holds u8 and s8): the depthwise kernel widens each vector it loads
    src_dt: str = ""
    # with borders: the source's channels where they are not whole vectors (its last vector's loads
    # masked to them, the lanes past them read as zero); 0: whole vectors
    lanes: int = 0
    # channels last, OC (or a depthwise conv's G) not whole vectors: the result holds only these real
    # channels, (N, OH, OW, OC), and the last vector's stores are masked to them, so that no crop copies
    # it afterwards (on a depthwise conv that copy cost as much as the kernel). 0: (N, OH, OW, OCp)
    oc_real: int = 0
    # depthwise kernel, small groups across the lanes (emit.conv.brgemm_lane_groups): a group's input
    # (cg) and output (kg) channels; each block of 16 groups reads cg source vectors, de-interleaved
    # (`lane_unzip`), and stores kg result vectors, interleaved back (`lane_zip`); the weights are
    # (GB, KH, KW, cg, RO * kg, 16). Depthwise: 1, 1
    cg: int = 1
    kg: int = 1
    # on a dot product across the lanes (emit.conv.LANE_DOT_ISAS): a group's channels in one 32-bit
    # lane, the instruction's depth (4 on vpdpbusd, 2 on vdpbf16ps); 1: the widened FMA
    lane_k: int = 1
    # an 8-bit destination, channels last, whole vectors (emit.conv.brgemm_packs_int8_stores): each 4
    # (or 2) channel vectors of a pixel clamped above only, then narrowed together by vpackssdw and
    # vpackuswb / vpacksswb (whose saturation clamps below) and stored as one 64- (32-) byte vector,
    # where each vector alone took vmaxps, vminps, a NaN select and vpmovdb (2 uops): the epilogue was
    # ~40% of a 1x1 conv with 64 input channels
    pack_int8_stores: bool = False

    @property
    def borders(self) -> list[int] | None:
        """Depthwise on the unpadded source: [top, left, rows, columns] of the real source, which the
        kernel checks its taps against (3D: the planes outside it skipped, `BrgemmDepth.p`)."""
        return self.real_src[:4] if self.padding == "unpadded" else None

    @property
    def real_tap_starts(self) -> bool:
        """Whether each pixel's start, -(shift + zp) x a weight sum, counts only the taps it reads: the
        accumulators start at zero, and each block adds it after its loops, from prepare's per-tap sums
        over the kernel rows (3D: planes) its output row runs, per kernel column, the edge blocks'
        pixels over the columns they read (`edge_cols`, known here). A padded tap is skipped, so it
        must not count. False: no shift and no zero point (no start), or no zero padding (every tap
        runs: the accumulators start from the sum over all of them)."""
        return self.padding == "zero" and self.comp is not None

    def _padded_sides(self, axis: int) -> bool:
        """Whether the padded source has padding before or after the real one along `axis` of
        `real_src` (0: rows, 1: columns, 2: planes)."""
        lo, n = [self.real_src[0:3:2], self.real_src[1:4:2], self.real_src[4:6]][axis]
        full = self.depth.idp if axis == 2 else self.inp.shape[axis + (2 if self.src_block else 1)]
        return lo > 0 or lo + n < full

    @property
    def real_rows(self) -> list[int] | None:
        """With zero padding above or below (rows, or in 3D planes): [first real row, real rows] of the
        padded source, and in 3D [first real plane, real planes] after them; each output row (plane)
        runs only the kernel rows (planes) that reach them. None: every kernel row."""
        if self.padding != "zero" or not (self._padded_sides(0) or (self.depth and self._padded_sides(2))):
            return None
        return [self.real_src[0], self.real_src[2], *self.real_src[4:]]

    @property
    def real_cols(self) -> list[int] | None:
        """With zero padding left or right (not a folded row, whose columns are the channels' view):
        [first real column, real columns]; the register blocks at a row's edges multiply, at each kernel
        column, only the pixels that read real columns (`edge_cols`). None: every pixel at every column."""
        if self.padding != "zero" or self.unfold or not self._padded_sides(1):
            return None
        return [self.real_src[1], self.real_src[3]]

    def edge_cols(self, ow0: int, rw: int) -> list[list[int]] | None:
        """Per kernel column, the pixels of the register block of `rw` output pixels from column `ow0`
        that read a real source column there (`real_cols`); None where every pixel does at every
        kernel column (the block is run as the others are)."""
        if not self.real_cols:
            return None
        lo, real = self.real_cols
        sw, dw = self.strides[1], self.dilations[1]
        cols = [[r for r in range(rw) if lo <= (ow0 + r) * sw + kw * dw < lo + real]
                for kw in range(self.wei.shape[2])]
        return None if all(len(c) == rw for c in cols) else cols

    @property
    def edge_blocks(self) -> tuple[list[list[int]] | None, ...]:
        """`edge_cols` of the row's blocks that may reach padding: its first and last whole blocks (the
        last only where it is not the first) and its tail; None for a block run as the others are, or
        absent. The template peels the first two off the row's loop."""
        ow, rw = self.out_dims[2], self.rw
        whole = ow // rw
        return (self.edge_cols(0, rw) if whole > 0 else None,
                self.edge_cols((whole - 1) * rw, rw) if whole > 1 else None,
                self.edge_cols(ow - ow % rw, ow % rw) if ow % rw else None)

    @property
    def inner_edges(self) -> bool:
        """Whether a block of the row's loop (between the peeled first and last, `edge_blocks`) may read
        padding at some kernel column: padding wider than a block (wide dilations, ASPP's). Such
        blocks read 0 there at no cost, but where each pixel's start counts only the taps it reads
        (`real_tap_starts`) the loop's blocks pick their columns at run time."""
        ow, rw = self.out_dims[2], self.rw
        return any(self.edge_cols(b * rw, rw) is not None for b in range(1, ow // rw - 1))

    @property
    def lane_groups(self) -> bool:
        """Small groups across the lanes (cg or kg above 1): blocks of 16 groups, de-interleaved on
        load and interleaved back before the stores; False: one channel a lane (depthwise)."""
        return self.cg > 1 or self.kg > 1

    @property
    def unzip(self) -> tuple[list[tuple[int, int, int, list[int]]], list[int]]:
        """The shuffles that de-interleave a block's source vectors (cg, or cg / 4 of quads on
        vpdpbusd: the weights' dim 3) into one vector per channel (quad)."""
        return lane_unzip(self.wei.shape[3])

    @property
    def zip(self) -> tuple[list[tuple[int, int, int, list[int]]], list[int]]:
        """The shuffles that interleave a pixel's kg accumulators of a block into channel order."""
        return lane_zip(self.kg)

    @property
    def inp_dims(self) -> tuple[int, int, int, int]:
        """(images, IHp, IWp, ICp) of the padded source, whichever its layout."""
        if self.src_block:
            n, icb, ih, iw, b = self.src_view.shape if self.src_view else self.inp.shape
            return n, ih, iw, icb * b
        return tuple(self.inp.shape)

    @property
    def out_dims(self) -> tuple[int, int, int, int]:
        """(images, OH, OW, OCp) of the result, whichever its layout, OCp the weights' padded channels."""
        if self.dst_blocks:
            n, ocb, oh, ow, lanes = self.out.shape
            return n, oh, ow, ocb * lanes
        n, oh, ow, oc = self.out.shape
        return n, oh, ow, self.wei.shape[0] * self.wei.shape[4] * 16 if self.oc_real else oc


@dataclass(frozen=True)
class BrgemmView:
    """A blocked source as the kernel reads it out of its whole 1-D buffer: (N, ICp/b, IH, IW, b) with
    these element strides from element `offset` (a memref.reinterpret_cast; no copy)."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int


@dataclass(frozen=True)
class BrgemmDepth:
    """A 3D brgemm's depth, folded into the image index: the source is (N * IDp, IHp, IWp, ICp), the
    result (N * OD, OH, OW, OCp), the weights' tap rows KD * KH; output image n * OD + od reads source
    images n * IDp + od * s + kd * d."""
    od: int                         # output depth
    idp: int                        # padded source depth
    kd: int                         # kernel depth
    s: int                          # stride
    d: int                          # dilation (1 = dense)
    # with `Brgemm.borders` (depthwise), the source's depth is not padded: `idp` is the real depth,
    # `p` its front padding, and the planes outside it are skipped
    p: int = 0


@dataclass(frozen=True, kw_only=True)
class ConvEpilogue(Step):
    """Accumulator -> (+ bias) -> (ReLU) -> destination type, saturated."""
    bias: Value | None
    bias_dims: list[int]
    relu: bool
    acc_dt: DataType
    dst_dt: DataType
    lo: float
    hi: float


@dataclass(frozen=True, kw_only=True)
class ConvAttrEpilogue(Step):
    """Accumulator -> oneDNN's attribute program (emit/epilogue.py) -> destination type, saturated."""
    operands: list[Value]
    operand_dims: list[list[int]]   # the accumulator dims each operand indexes
    program: list[dict]
    acc_dt: DataType
    dst_dt: DataType


@dataclass(frozen=True, kw_only=True)
class ZpWindowSum(Step):
    """zp_wei * the zero-padded source's window sums, (N, G, O..)."""
    src_dt: DataType
    strides: list[int]
    dilations: list[int]
    taps: Value                     # ones over (K..): gives the taps' loop bounds a map of their own
    zp: Value


@dataclass(frozen=True, kw_only=True)
class ZpWeights(Step):
    """sum over the group's input channels of zp_src * (wei - zp_wei), (G, OC/G, Kvol)."""
    wei_dt: DataType
    zp_src: Value
    zp_wei: Value | None


@dataclass(frozen=True, kw_only=True)
class ZpWeightSums(Step):
    """prepare's sum over the group's input channels of the weights, (G, OC/G, Kvol) in i32."""
    wei_dt: DataType


@dataclass(frozen=True, kw_only=True)
class ZpWeightsCommon(Step):
    """zp_src * (wsum - IC/G * zp_wei) from prepare's weight sums: a common source zero point's term."""
    icg: int
    zp_src: Value
    zp_wei: Value | None


@dataclass(frozen=True, kw_only=True)
class ZpTaps(Step):
    """The weight term summed over the taps that read the source (one valid-tap mask per axis)."""
    masks: list[Value]


@dataclass(frozen=True, kw_only=True)
class ZpCombine(Step):
    terms: list[Value]
    term_kinds: list[str]           # "window" (N, G, O..) or "taps" (G, OC/G, O..)


@dataclass(frozen=True, kw_only=True)
class Broadcast(Step):
    """out[d0..] = inp[the dims listed]: an input that varies along some dims only, made full."""
    dims: list[int]


@dataclass(frozen=True, kw_only=True)
class SumTrailing(Step):
    """out[d..] = sum over the trailing axes of inp[d.., s..] (split reductions' partial sums)."""
    acc_dt: DataType


STEP_TYPES: dict[str, type[Step]] = {
    "slice": Slice, "pad": Pad, "expand": Reshape, "collapse": Reshape, "transpose": Transpose,
    "pack": Tiling, "unpack": Tiling, "insert": Insert, "concat": Concat, "lanes": Lanes, "transpose_tiles": TransposeTiles, "copy": Step, "bitcast": Step, "gather": Gather,
    "convert": Convert, "unpack_nibbles": UnpackNibbles, "pack_nibbles": PackNibbles,
    "constant": Constant, "barrier": Step, "window_gather": WindowGather,
    "conv_direct": ConvDirect, "conv_packed": ConvPacked, "named_conv": NamedConv, "conv_1x1": Conv1x1,
    "sum_trailing": SumTrailing,
    "gemm": Contraction,            # (N, G, R, O) columns x (G, OC, R) weights
    "gemm_cl": Contraction,         # (N, O, G, R) rows x (G, R, OC) weights
    "indirect_gather": IndirectGather, "indirect": Indirect, "wino_transform": WinogradTransform,
    "wino_input": WinogradTiles, "wino_output": WinogradTiles,
    "wino_gemm": WithWeights,       # per transform position, V x U over IC (GPUs)
    "batch_mmt4d": WithWeights,     # the same on operands packed in mmt4d tiles (CPUs)
    "conv_epilogue": ConvEpilogue, "conv_attr_epilogue": ConvAttrEpilogue,
    "zp_window_sum": ZpWindowSum, "zp_weights": ZpWeights, "zp_taps": ZpTaps,
    "zp_weight_sums": ZpWeightSums, "zp_weights_common": ZpWeightsCommon, "zp_combine": ZpCombine,
    "broadcast": Broadcast, "brgemm": Brgemm,
    "brgemm_compensation": Step,    # the brgemm weights summed per tap and output channel (prepare)
    "flip_sign_bit": Step,          # s8 -> u8 + 128 (x xor 0x80), elementwise
}


def make_step(kind: str, inp: Value | None, out: Value, params: dict) -> Step:
    """The typed step of `kind`; a planning bug (unknown kind, missing or extra field) is an InternalError."""
    try:
        return STEP_TYPES[kind](kind=kind, inp=inp, out=out, **params)
    except KeyError:
        raise InternalError(f"unknown step kind {kind!r}") from None
    except TypeError as e:
        raise InternalError(f"step {kind!r}: {e}") from None
