"""The steps a kernel is planned in: one typed record per step kind, printed by the template macro of
the same name (templates/relayout.mlir.j2 for data movement and conversion, templates/conv_*.mlir.j2
for the convolution kernels). The brgemm dispatch's record, with its parts, is in emit.brgemm_step;
emit.step_kinds maps each kind to its record.

Python plans (`relayout.Plan`): it decides shapes, maps, permutations and data types and records them
here. A template only spells the MLIR. A step built with a missing or unknown field fails when it is
planned, not as a half-rendered kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
class Bf16Parts(Step):
    """An f32 tensor (.., C) as bf16 parts (.., P, C), part i `parts[i]`: "hi" its value rounded to
    bf16, "lo" the rest (x - hi) rounded to bf16 (emit.conv.brgemm.bf16x3)."""
    parts: tuple[str, ...]


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
    """One factor of C1 . X . C2^T (emit.conv.winograd.WINOGRAD_TRANSFORMS)."""
    mat: Value
    dims: list[str]
    mat_idx: list[str]
    inp_idx: list[str]
    out_idx: list[str]


@dataclass(frozen=True)
class LinearOp:
    """One 16-lane f32 instruction of a Winograd tile transform's unrolled linear combinations
    (emit.conv.winograd.winograd_tile_program): `res` = coef * x ("mul"), -x ("neg"), acc + x ("add"),
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
    # (DH, DW): a dilated kernel's d x d phases (emit.conv.winograd.winograd_grid), each TH x TW tiles over
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
    # (emit.conv.winograd.winograd_src_block; with `src_pad`)
    src_block: bool = False
    # wino_output: the result is the nChw16c destination's packed tensor (N, C/16, OH, OW, 16)
    # (emit.conv.winograd.winograd_dst_blocks)
    dst_blocks: bool = False
    # wino_output's epilogue in its stores (emit.conv.winograd._winograd_fuses_epilogue): a bias per channel
    # (C,) f32, then a ReLU; the result in `out.elem` (f32, bf16 or f16)
    bias: Value | None = None
    relu: bool = False
    # A band of the tile rows (emit.conv.winograd.winograd_bands): the N * DH * DW * TH tile rows (image, phase,
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
