"""The brgemm step (`Brgemm`, templates/brgemm/): one custom dispatch running oneDNN's batch-reduce GEMM
convolution as a generated microkernel. Like oneDNN, which keeps the brgemm descriptor
(brgemm_desc_t), the convolution's geometry and the post-op epilogue apart, the step holds three parts:

* `BrgemmKernel`: the microkernel, its instruction and register blocking, the channel groups;
* `BrgemmGeometry`: what it reads and writes: strides, dilations, padding, layouts of both sides;
* `BrgemmStore`: what its stores apply (`StoreEpilogue`) and how 8-bit results are narrowed.

The step itself holds the operands and the accumulators' start (an s8 source's shift, a source zero
point, the weight sums that scale them), and what it derives from more than one part. Python decides
all of it (emit.conv.brgemm.kernel builds the step); the templates only spell the MLIR.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..layout.dtypes import DataType
from ..problem.attr import Eltwise
from .steps import Step, Value

#: A lane shuffle program: ops (register, a, b, mask), each defining `register` as the vector.shuffle
#: of registers a and b (mask indices 0-15 from a, 16-31 from b), and the registers that hold the result
ShuffleProgram = tuple[list[tuple[int, int, int, list[int]]], list[int]]


def lane_unzip(n: int) -> ShuffleProgram:
    """The vector.shuffle program that de-interleaves n vectors of 16 lanes holding 16 groups' n
    channels in channel order (element e = group * n + channel) into one vector per channel (lane =
    group): (ops, outputs). Registers 0..n-1 are the inputs; `outputs` are the channels' registers in
    order. log2(n) rounds of n shuffles: the even and odd elements of each pair, whose own channels are
    the even and odd ones."""
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


def lane_zip(n: int) -> ShuffleProgram:
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


@dataclass(frozen=True)
class BrgemmKernel:
    """The microkernel (oneDNN's brgemm_desc_t): its instruction, its register block of `rw` pixels x
    the weights' RO vectors of 16 output channels, the output rows a workgroup runs, and how the
    channels fall into groups and lanes."""
    # the microkernel (emit.conv.brgemm.isa's BRGEMM_ISAS, AMX_ISAS, DEPTHWISE_ISAS, LANE_DOT_ISAS):
    # "vnni", "bf16", "f32", "amx_int8", "amx_bf16", "dw", "dw_vnni" or "dw_bf16"
    isa: str
    rw: int                         # output pixels per register block
    rh: int                         # output rows per workgroup
    groups: int                     # the channels are G groups: ICp/G source, OCp/G result channels each
    ocg: int                        # a group's real output channels (the epilogue operands' stride)
    emulate_tiles: bool             # AMX tile instructions emulated with AVX-512 (TargetCaps.emulate_amx)
    # the source's data type (i8 holds u8 and s8): the depthwise kernel widens each vector it loads
    src_dt: str = ""
    # depthwise kernel, small groups across the lanes (emit.conv.brgemm.isa.brgemm_lane_groups): a
    # group's input (cg) and output (kg) channels; each block of 16 groups reads cg source vectors,
    # de-interleaved (`lane_unzip`), and stores kg result vectors, interleaved back (`lane_zip`); the
    # weights are (GB, KH, KW, cg, RO * kg, 16). Depthwise: 1, 1
    cg: int = 1
    kg: int = 1
    # on a dot product across the lanes (emit.conv.brgemm.isa.LANE_DOT_ISAS): a group's channels in one
    # 32-bit lane, the instruction's depth (4 on vpdpbusd, 2 on vdpbf16ps); 1: the widened FMA
    lane_k: int = 1
    # small groups: the source comes with each block of 16 groups' channels already one vector per
    # channel, lane = group (emit.conv.brgemm.fusion.brgemm_lanes_pretransposed): read as it is,
    # nothing de-interleaved in registers
    lanes_pretransposed: bool = False

    @property
    def lane_groups(self) -> bool:
        """Small groups across the lanes (cg or kg above 1): blocks of 16 groups, de-interleaved on
        load and interleaved back before the stores; False: one channel a lane (depthwise)."""
        return self.cg > 1 or self.kg > 1

    @property
    def zip(self) -> ShuffleProgram:
        """The shuffles that interleave a pixel's kg accumulators of a block into channel order."""
        return lane_zip(self.kg)


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
    # with `BrgemmGeometry.borders` (depthwise), the source's depth is not padded: `idp` is the real
    # depth, `p` its front padding, and the planes outside it are skipped
    p: int = 0


@dataclass(frozen=True)
class BrgemmGeometry:
    """What the kernel reads and writes: the convolution's window, where the real source lies in the
    one it reads and how it meets the padding, and the layouts of the source and the result."""
    strides: list[int]              # (h, w)
    dilations: list[int]            # (h, w), 1 = dense
    # where the real source lies in the padded one the kernel reads: [top row, left column, rows,
    # columns], and in 3D [first plane, planes] after them; None: nothing padded (`padding` "read")
    real_src: list[int] | None = None
    # how the kernel meets that padding:
    #   "zero": the padded source holds 0 there (an s8 source is shifted to u8 before its padding). The
    #     kernel rows (3D: planes) and the edge blocks' pixels that reach only padding are skipped
    #     (`Brgemm.real_rows`, `real_cols`): a padded tap adds 0 x w. Where the accumulators start from
    #     -(shift + zp) x a weight sum, it is the sum over the taps each pixel reads
    #     (`Brgemm.real_tap_starts`).
    #   "read": every tap is run and the padding read as it holds (nothing padded; AMX's own loop; an s8
    #     source shifted after its padding, which reads 128 there, cancelled by the compensation, where
    #     a pixel's start cannot count the padded taps: a folded row)
    #   "unpadded": depthwise reads the unpadded source and checks its taps against `real_src` (`borders`)
    padding: Literal["read", "zero", "unpadded"] = "read"
    depth: BrgemmDepth | None = None    # 3D: the depth folded into the image index; None: 1D / 2D
    # a kernel row folded into the channels (emit.conv.brgemm.blocking.brgemm_fold_taps): the source
    # (N, IHp, IWp, IC) read as an overlapping view (N, IHp, OW, KWf * IC) whose columns are `pixel`
    # elements apart: [OW, KWf * IC, pixel, the i32 mask of the last group's real elements (-1: no
    # filler cleared), the groups of k multiplied (the row's real elements, rounded up)]; None: read as
    # it is
    unfold: list[int] | None = None
    # a blocked source read in place (emit.conv.brgemm.fusion.brgemm_src_block): its packed tensor
    # (N, ICp/b, IHp, IWp, b), channel block b; 0: the channels-last source
    src_block: int = 0
    # that source read where it lies, through a strided view of its whole buffer (`Brgemm.inp` is then
    # the 1-D buffer): a band of rows of a bigger image, nothing padded (emit.conv.brgemm.fusion)
    src_view: BrgemmView | None = None
    # with `borders`: the source's channels where they are not whole vectors (its last vector's loads
    # masked to them, the lanes past them read as zero); 0: whole vectors
    lanes: int = 0
    # the result written as the destination's 16-channel blocks (`brgemm_dst_blocks` in
    # emit.conv.brgemm.fusion): (N, OCp/16, OH, OW, 16), the lanes past OC stored as zero; False:
    # channels last, (N, OH, OW, OCp)
    dst_blocks: bool = False
    # AMX: the output computed as one run of pixels over the padded source's rows (emit.conv.brgemm.kernel
    # .amx_flat_pixels), this many blocks of 32 pixels: block r reads the source from its flat pixel 32 r
    # on, a tap (kh, kw) kh x IWp + kw pixels further, and stores run pixel j at the destination's own
    # pixel (j // IWp, j % IWp) where that is one (the result is (N, OH, OW, OCp): no crop); 0: row by row
    flat: int = 0
    # a run over a source with nothing padded: its last block starts at run_end - 32, the run's end less
    # a block, not past the source, and stores only the pixels past the block before; 0: blocks at 32 r
    run_end: int = 0
    # channels last, OC (or a depthwise conv's G) not whole vectors: the result holds only these real
    # channels, (N, OH, OW, OC), and the last vector's stores are masked to them, so that no crop copies
    # it afterwards (measured: docs/performance.md, Tuned constants). 0: (N, OH, OW, OCp)
    oc_real: int = 0

    @property
    def borders(self) -> list[int] | None:
        """Depthwise on the unpadded source: [top, left, rows, columns] of the real source, which the
        kernel checks its taps against (3D: the planes outside it skipped, `BrgemmDepth.p`)."""
        return self.real_src[:4] if self.padding == "unpadded" else None


@dataclass(frozen=True)
class StoreEpilogue:
    """The epilogue a compute step applies in its own stores (brgemm's; Winograd's output transform
    takes its bias and ReLU): accumulator -> f32 -> x (src scale x wei scale, common or per output
    channel, multiplied once per workgroup as oneDNN precomputes them) -> + bias (per output channel)
    -> + sum_scale x (prior destination - sum_zp) -> ReLU or an eltwise op -> x (1 / dst scale) -> + dst zero point ->
    destination type, rounded to nearest even and saturated. Absent operands (None) are skipped. A
    common source zero point is not applied here but in the accumulators' start (`Brgemm.src_zp`). The
    shared epilogue (conv_attr_epilogue) multiplies the scales one by one and divides by the dst
    scale: the results agree exactly where the scales are dyadic and otherwise within benchdnn's one
    unit of an integer destination (`verify.conv_tolerance`)."""
    bias: Value | None
    src_scale: Value | None
    wei_scale: Value | None
    dst_scale: Value | None
    src_zp: Value | None            # not a store operand: the compute step starts its accumulators with it
    dst_zp: Value | None
    relu: bool
    eltwise: Eltwise | None         # an eltwise op after the sum, in the ReLU's place (fusion.STORE_ELTWISE)
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
        them, so each vector takes one FMA instead of a multiply, an add and a multiply."""
        return self.dst_scale is not None and self.dst_init is None and not self.relu and self.eltwise is None

    @property
    def operands(self) -> list[Value]:
        """The runtime operands of the stores, in the order the dispatch takes them."""
        return [v for v in (self.bias, self.src_scale, self.wei_scale, self.dst_scale, self.dst_zp, self.dst_init)
                if v is not None]


@dataclass(frozen=True)
class BrgemmStore:
    """What the kernel's stores do with its accumulators: store them as they are (in the accumulator
    type), or through the epilogue in the destination type."""
    epilogue: StoreEpilogue | None = None   # applied in the stores (out in the destination type), or none
    # an 8-bit destination, channels last, whole vectors (`brgemm_packs_int8_stores` in
    # emit.conv.brgemm.kernel): each 4 (or 2) channel vectors of a pixel clamped above only, then
    # narrowed together by vpackssdw and vpackuswb / vpacksswb (whose saturation clamps below) and stored
    # as one 64- (32-) byte vector, where each vector alone takes vmaxps, vminps, a NaN select and
    # vpmovdb (2 uops) (measured: docs/performance.md, Tuned constants)
    pack_int8_stores: bool = False

    def packed_vectors(self, ro: int) -> int:
        """How many of a pixel's `ro` channel vectors are narrowed and stored together: 4 or 2
        (`pack_int8_stores`); 0: each vector is stored alone."""
        if not self.pack_int8_stores:
            return 0
        return 4 if ro % 4 == 0 else 2 if ro % 2 == 0 else 0


@dataclass(frozen=True, kw_only=True)
class Brgemm(Step):
    """The brgemm variant's microkernel (templates/brgemm/dispatch.mlir.j2), one custom dispatch: the
    padded channels-last source (N, IHp, IWp, ICp) x weights (OCB, KH, KW, ICp/k, RO, 16*k) in the
    instruction's order -> (N, OH, OW, OCp) in the accumulator type, or with an epilogue
    (`BrgemmStore`) in the destination type. `BrgemmGeometry.src_block` / `dst_blocks`: a side in
    channel blocks instead, read or written in place. Depthwise (isa "dw"): one group of OCp channels,
    weights (OCB, KH, KW, 1, RO, 16) in f32, the source in its own type, unpadded in 1D and 2D
    (`BrgemmGeometry.borders`, `lanes`)."""
    wei: Value
    # (KH*KW, OCp) i32: each output channel's weight sum per tap; each output starts from
    # -(shift + src_zp) x the sum over the taps it reads (all of them, or `real_tap_starts`)
    comp: Value | None
    shift: int                      # what the source was shifted by (128: an s8 source read as u8)
    # a source zero point: a common one (0-d i32), or depthwise's one per source channel (1-d i32)
    src_zp: Value | None
    kernel: BrgemmKernel
    geometry: BrgemmGeometry
    store: BrgemmStore

    @property
    def real_tap_starts(self) -> bool:
        """Whether each pixel's start, -(shift + zp) x a weight sum, counts only the taps it reads: the
        accumulators start at zero, and each block adds it after its loops, from prepare's per-tap sums
        over the kernel rows (3D: planes) its output row runs, per kernel column, the edge blocks'
        pixels over the columns they read (`edge_cols`, known here). A padded tap is skipped, so it
        must not count. False: no shift and no zero point (no start), or no zero padding (every tap
        runs: the accumulators start from the sum over all of them)."""
        return self.geometry.padding == "zero" and self.comp is not None

    def _padded_sides(self, axis: int) -> bool:
        """Whether the padded source has padding before or after the real one along `axis` of
        `real_src` (0: rows, 1: columns, 2: planes)."""
        geo = self.geometry
        lo, n = [geo.real_src[0:3:2], geo.real_src[1:4:2], geo.real_src[4:6]][axis]
        full = geo.depth.idp if axis == 2 else self.inp.shape[axis + (2 if geo.src_block else 1)]
        return lo > 0 or lo + n < full

    @property
    def real_rows(self) -> list[int] | None:
        """With zero padding above or below (rows, or in 3D planes): [first real row, real rows] of the
        padded source, and in 3D [first real plane, real planes] after them; each output row (plane)
        runs only the kernel rows (planes) that reach them. None: every kernel row."""
        geo = self.geometry
        if geo.padding != "zero" or not (self._padded_sides(0) or (geo.depth and self._padded_sides(2))):
            return None
        return [geo.real_src[0], geo.real_src[2], *geo.real_src[4:]]

    @property
    def real_cols(self) -> list[int] | None:
        """With zero padding left or right (not a folded row, whose columns are the channels' view):
        [first real column, real columns]; the register blocks at a row's edges multiply, at each kernel
        column, only the pixels that read real columns (`edge_cols`). None: every pixel at every column."""
        geo = self.geometry
        if geo.padding != "zero" or geo.unfold or not self._padded_sides(1):
            return None
        return [geo.real_src[1], geo.real_src[3]]

    def edge_cols(self, ow0: int, rw: int) -> list[list[int]] | None:
        """Per kernel column, the pixels of the register block of `rw` output pixels from column `ow0`
        that read a real source column there (`real_cols`); None where every pixel does at every
        kernel column (the block is run as the others are)."""
        if not self.real_cols:
            return None
        lo, real = self.real_cols
        sw, dw = self.geometry.strides[1], self.geometry.dilations[1]
        cols = [[r for r in range(rw) if lo <= (ow0 + r) * sw + kw * dw < lo + real]
                for kw in range(self.wei.shape[2])]
        return None if all(len(c) == rw for c in cols) else cols

    @property
    def edge_blocks(self) -> tuple[list[list[int]] | None, ...]:
        """`edge_cols` of the row's blocks that may reach padding: its first and last whole blocks (the
        last only where it is not the first) and its tail; None for a block run as the others are, or
        absent. The template peels the first two off the row's loop."""
        ow, rw = self.out_dims[2], self.kernel.rw
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
        ow, rw = self.out_dims[2], self.kernel.rw
        return any(self.edge_cols(b * rw, rw) is not None for b in range(1, ow // rw - 1))

    @property
    def unzip(self) -> ShuffleProgram:
        """The shuffles that de-interleave a block's source vectors (cg, or cg / 4 of quads on
        vpdpbusd: the weights' dim 3) into one vector per channel (quad); none where the source
        comes so (`BrgemmKernel.lanes_pretransposed`)."""
        if self.kernel.lanes_pretransposed:
            return [], list(range(self.wei.shape[3]))
        return lane_unzip(self.wei.shape[3])

    @property
    def inp_dims(self) -> tuple[int, int, int, int]:
        """(images, IHp, IWp, ICp) of the padded source, whichever its layout."""
        geo = self.geometry
        if geo.src_block:
            n, icb, ih, iw, b = geo.src_view.shape if geo.src_view else self.inp.shape
            return n, ih, iw, icb * b
        return tuple(self.inp.shape)

    @property
    def out_dims(self) -> tuple[int, int, int, int]:
        """(images, OH, OW, OCp) of the result, whichever its layout, OCp the weights' padded channels."""
        if self.geometry.dst_blocks:
            n, ocb, oh, ow, lanes = self.out.shape
            return n, oh, ow, ocb * lanes
        n, oh, ow, oc = self.out.shape
        return n, oh, ow, self.wei.shape[0] * self.wei.shape[4] * 16 if self.geometry.oc_real else oc
