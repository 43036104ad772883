"""Cutting a problem into parts per CPU, for the ``host-threads`` driver: `conv_host_parts` cuts a
convolution, `reorder_host_parts` a reorder (or a folded chain), each into independent problems of the
same kind whose sources and destinations are ranges (or strided slabs) of the whole problem's buffers.
Each part runs on a host thread of its own (`api.ConvKernel`, `api.ReorderKernel`); whether a problem
is worth cutting is `generator.select`'s call.
"""
from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple, Sequence

import numpy as np

from ..errors import ProblemError
from ..layout import MemoryDesc
from .conv import ConvProblem
from .conv_desc import ConvDesc
from .geometry import kernel_extent
from .reorder import ReorderProblem

__all__ = ["CHANNELS_LAST_SLAB", "ConvPart", "ROW_CUT_SLACK", "ReorderPart", "conv_host_parts",
           "reorder_host_parts"]


def _even_counts(total: int, n: int, lead: bool = False) -> list[int]:
    """`total` cut into min(n, total) counts differing by at most one, larger first; with `lead` and at
    least 4 per part, the first (the calling thread's) one more than an even share: the helper
    threads start one wake-up later, and the caller then finishes last instead of blocking and being
    woken too (measured: docs/performance.md, Tuned constants)."""
    k = min(n, total)
    counts = [total // k + (1 if i < total % k else 0) for i in range(k)]
    if lead and k > 1 and total >= 4 * k and counts[0] == counts[-1]:
        counts[0] += 1
        counts[-1] -= 1
    return counts


# ----------------------------------------------------------------------------------------------------
# Convolutions
# ----------------------------------------------------------------------------------------------------

#: The fewest output channels a part of a channels-last channel cut has (`_channels_last_parts`): four
#: vectors of 16, the brgemm kernels' widest register block.
CHANNELS_LAST_SLAB = 64
#: How much longer than an even share the row cut's longest part may be before a channels-last image
#: is cut on its channels instead (`_uneven`): 7 rows in 4 + 3 are 1.14x an even share, 15 in 8 + 7
#: (the stem) 1.07x.
ROW_CUT_SLACK = 1.1

#: a channels-last image's outermost spatial axis, which the host-threads band cut divides, per ndims
_OUTER_AXIS = {3: "column", 4: "row", 5: "plane"}


def _uneven(rows: int, n: int) -> bool:
    """Whether `rows` cut into `n` bands leave the longest over `ROW_CUT_SLACK` times an even share
    (fewer rows than parts: some thread gets none)."""
    return max(_even_counts(rows, n)) * n > ROW_CUT_SLACK * rows


def _like(t: MemoryDesc, dims) -> MemoryDesc:
    """A dense descriptor of `dims` in `t`'s data type and format: a host-threads part's tensor."""
    return MemoryDesc(dims, t.dtype, t.tag)


class ConvPart(NamedTuple):
    """One part of a convolution cut for host threads (`conv_host_parts`): a convolution of its
    own, and the element ranges [start, stop) of the whole problem's physical source and destination
    buffers that are its source and destination; `oc`, for a cut on output channels, the part's
    channels [lo, hi) (its weights, bias and per-channel values are those channels' of the whole), and
    for a grouped convolution `ic`, the input channels of its groups (its source slab)."""
    problem: ConvProblem
    src: tuple[int, int]
    dst: tuple[int, int]
    oc: tuple[int, int] | None = None
    ic: tuple[int, int] | None = None       # a grouped cut's input channels (None: every part reads all)
    # a part whose destination is a strided slab of the whole buffer: columns [lo, hi) of the buffer
    # seen as rows of `width` elements (a channels-last channel cut: its channels of every pixel; rows
    # of a channels-first image: its rows of every channel block), and `dst` spans the whole buffer;
    # None: the part's destination is the contiguous range `dst`
    dst_cols: tuple[int, int, int] | None = None      # (lo, hi, width)

    def dst_view(self, whole):
        """This part's destination within `whole`, the whole destination buffer (1-D, or any array
        of its elements: ``dst_init``): the range `dst`, or the strided slab `dst_cols`."""
        if self.dst_cols is None:
            return whole[self.dst[0]:self.dst[1]]
        lo, hi, width = self.dst_cols
        return whole.reshape(-1, width)[:, lo:hi]


def conv_host_parts(p: ConvProblem, n: int, lead: bool = False) -> tuple[ConvPart, ...] | str:
    """The convolution `p` cut into 2 to `n` independent convolutions whose sources and destinations
    are contiguous ranges of its physical buffers, for `n` host threads (`api.ConvKernel` on the
    ``host-threads`` driver); or why it cannot be cut.

    Images are cut first (N outermost in both layouts). One image in channels-last layouts is cut
    into bands of output rows: each band is a convolution of its own, whose source is the input
    rows the band reads (halo included) and whose padding is `p`'s where the band reaches the
    border, so every tap, zero point and post-op sees what it sees in `p`. One image
    whose destination has channels outermost (nchw, nChw16c) is cut into slabs of output
    channels (whole destination blocks, 16 channels a slab where there are two or more): every
    part reads the whole source, with its channels' weights, bias and per-channel scales and zero
    points (`ConvPart.oc`; the API cuts them). With groups (depthwise too) the slabs are whole
    groups, and each part reads only its groups' input channels, so the source must have its
    channels outermost as well (`ConvPart.ic`). The sum's prior destination is cut like the
    destination; a binary or prelu input that varies along the cut axis (along any axis, for
    the channel cut) is not cut, so such problems are refused. With `lead`, the first part (the
    calling thread's) is one unit longer than an even share where each part has at least 4 units
    (`_even_counts`): the caller decides, from what a unit costs."""
    if n < 1:
        raise ProblemError(f"cannot cut a convolution into {n} parts")
    if n == 1:
        return "one thread: nothing to cut"
    if p.has_any or p.fused_dw:
        return "format any and the depthwise post-op are resolved into other kernels first"
    d = p.desc
    tensors = (p.src, p.dst) + ((p.input_desc("dst_init"),) if any(
        name == "dst_init" for name, _, _ in p.post_op_inputs()) else ())
    if any(t.tag is None or not t.is_dense for t in tensors):
        return "a strided (non-dense) source or destination is not cut"

    def outermost(axis: int) -> bool:
        return all(t.order[0] == axis and t.block_of(axis) == 1 for t in tensors)

    # one image whose destination has its channels innermost and unblocked (nhwc): its channels
    # can be cut too, each part writing a strided slab (`ConvPart.dst_cols`)
    channels_last = d.mb == 1 and d.g == 1 and all(t.order[-1] == 1 and t.block_of(1) == 1 for t in tensors[1:])
    if d.mb >= 2 and outermost(0):
        axis = 0
    elif d.mb == 1 and all(t.order[:2] == (0, 2) for t in tensors):
        # columns (1D: WaveNet's one long sequence), rows (2D), planes (3D): the outermost spatial
        # axis, each band a contiguous range of a channels-last buffer
        axis = 2
        outer = d.spatial()[0]
        if channels_last and _uneven(outer.o, n):
            cut = _channels_last_parts(p, n)
            if not isinstance(cut, str):
                return cut
        if outer.o < 2:
            return f"one output {_OUTER_AXIS[d.ndims]}: nothing to cut"
    elif d.mb == 1 and all(t.order[:2] == (0, 1) for t in (tensors if d.g > 1 else tensors[1:])):
        if _rows_before_channels(p, n):
            rows = _outer_row_parts(p, n, lead)
            if not isinstance(rows, str):
                return rows
        return _channel_parts(p, n, lead)
    else:
        why = ("only N (outermost in the source and destination layouts) or, for one image, the "
               "rows of a channels-last 2D convolution (planes of a 3D one, columns of a 1D one) or the "
               "output channels of one whose "
               "destination (and, with groups, source) has them outermost or, ungrouped, "
               "innermost are cut")
        cut = _channels_last_parts(p, n) if channels_last else None
        return cut if isinstance(cut, tuple) else why + (f" (here {cut})" if cut else "")
    for name, _, op in p.post_op_inputs():
        if name != "dst_init" and axis in p.binary_mask(op):
            return (f"post-op {op}'s input varies along the {'images' if axis == 0 else _OUTER_AXIS[d.ndims] + 's'}, "
                    f"which are cut, and is not cut with them")
    if axis == 0:
        parts, start = [], 0
        for c in _even_counts(d.mb, n, lead):
            desc = dataclasses.replace(d, mb=c, name="")
            parts.append(_part(p, desc, (0, start), (0, start)))
            start += c
        return _with_ranges(p, parts)
    bands = _row_bands(p, n, lead)
    if isinstance(bands, str):
        return bands
    return _with_ranges(p, [_part(p, desc, (2, lo), (2, o0)) for o0, lo, desc in bands])


def _row_bands(p: ConvProblem, n: int, lead: bool) -> list[tuple[int, int, ConvDesc]] | str:
    """One image's output rows (3D: planes, 1D: columns; the outermost spatial axis) in `n` bands
    (`_even_counts`): (first output row, first input row read, the band's descriptor: the input
    rows it reads, halo included, and `p`'s padding where it reaches the border), or why not."""
    d = p.desc
    a = d.spatial()[0]
    bands, o0 = [], 0
    ext = kernel_extent(a.k, a.d)
    for c in _even_counts(a.o, n, lead):
        o1 = o0 + c
        need_lo, need_hi = o0 * a.s - a.p, (o1 - 1) * a.s - a.p + ext - 1
        lo, hi = max(0, need_lo), min(a.i - 1, need_hi)
        if hi < lo:
            return f"output rows {o0}-{o1 - 1} read no input row"
        bands.append((o0, lo, dataclasses.replace(d, **{f"i{a.axis}": hi - lo + 1, f"o{a.axis}": c,
                                                        f"p{a.axis}": lo - need_lo}, name="")))
        o0 = o1
    return bands


def _uncut_post_op_input(p: ConvProblem) -> str | None:
    """Why a cut on output channels cannot be taken: a binary or prelu input that varies along the
    destination at all (the parts get the whole one, not their channels'); None where none does."""
    for name, _, op in p.post_op_inputs():
        if name != "dst_init" and p.binary_mask(op):
            return (f"post-op {op}'s input varies along the destination, whose channels are cut, "
                    f"and is not cut with it")
    return None


def _channel_parts(p: ConvProblem, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
    """`conv_host_parts`' cut of one image on output channels: slabs of whole destination blocks (of 16
    channels, the kernels' vector width, where there are two such slabs or more), each part
    reading the whole source (measured: docs/performance.md, Tuned constants)."""
    d = p.desc
    why = _uncut_post_op_input(p)
    if why:
        return why
    if d.g > 1:
        return _group_parts(p, n, lead)
    block = p.dst.block_of(1)
    unit = math.lcm(block, 16) if d.oc >= 2 * math.lcm(block, 16) else block

    def part(lo: int, hi: int) -> ConvPart:
        desc = dataclasses.replace(d, oc=hi - lo, name="")
        return _channel_part(p, desc, (lo, hi), None)

    return _conv_slabs(p, d.oc, unit, "output channels", n, lead, part)


def _rows_before_channels(p: ConvProblem, n: int) -> bool:
    """Whether one image whose destination has its channels outermost (nchw, nChw16c) is cut into
    bands of rows (`_outer_row_parts`) rather than slabs of output channels: an ungrouped 2D
    convolution with a kernel wider than one tap, whose rows cut evenly and whose source holds at
    least as many elements as its weights. The channel cut's parts each read (and lay out for the
    kernel) the whole source, with half the channels each; the row cut's read all the weights.
    1x1 kernels keep the channel cut: the row cut was not faster on them (measured:
    docs/performance.md, Tuned constants)."""
    d = p.desc
    return (d.g == 1 and d.ndims == 4 and d.kh * d.kw > 1 and d.oh >= n and not _uneven(d.oh, n)
            and p.src.nelems >= p.wei.nelems)


def _outer_row_parts(p: ConvProblem, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
    """`conv_host_parts`' cut of one image whose destination has its channels outermost into bands of
    output rows: each band's destination is a strided slab of the whole buffer, its rows of every
    channel block (`ConvPart.dst_cols` over the buffer as (channel blocks, OH * OW * block)); its
    source the input rows it reads (halo included), a contiguous range of a channels-last source
    or else a view of the whole source buffer (`MemoryDesc.submemory`), with `p`'s padding where
    the band reaches the border."""
    d = p.desc
    dst_ok = all(t.order == (0, 1, 2, 3) and all(dim == 1 for dim, _ in t.blocks)
                 for t in [p.dst] + [p.input_desc(name) for name, _, _ in p.post_op_inputs()
                                        if name == "dst_init"])
    if not dst_ok:
        return "the destination's rows are not a slab of each channel block"
    for name, _, op in p.post_op_inputs():
        if name != "dst_init" and 2 in p.binary_mask(op):
            return f"post-op {op}'s input varies along the rows, which are cut, and is not cut with it"
    blk = p.dst.block_of(1)
    width = d.oh * d.ow * blk
    channels_last_src = p.src.order[:2] == (0, 2)
    bands = _row_bands(p, n, lead)
    if isinstance(bands, str):
        return bands
    out = []
    for o0, lo, desc in bands:
        o1 = o0 + desc.oh
        if channels_last_src:
            src = _like(p.src, desc.src_dims)
            at = p.src.offset([0, 0, lo, 0])
            src_range = (at, at + src.buffer_nelems)
        else:
            src = p.src.submemory(desc.src_dims, (0, 0, lo, 0))
            src_range = (0, src.buffer_nelems)
        part = dataclasses.replace(p, desc=desc, src=src, dst=_like(p.dst, desc.dst_dims))
        out.append(ConvPart(part, src_range, (0, p.dst.buffer_nelems),
                            dst_cols=(o0 * d.ow * blk, o1 * d.ow * blk, width)))
    return tuple(out)


def _channels_last_parts(p: ConvProblem, n: int) -> tuple[ConvPart, ...] | str:
    """`conv_host_parts`' cut of one ungrouped image with a channels-last destination on its output
    channels: n even slabs of whole 16-channel units, each at least `CHANNELS_LAST_SLAB`
    channels, each part reading the whole source and writing its columns of every pixel (a
    strided slab: `ConvPart.dst_cols`, joined by `ConvPart.dst_view`). Taken where the row cut
    is uneven (`_uneven`), and only evenly: a 7-row image cut into rows of 4 + 3 waits for the
    4 (measured: docs/performance.md, Tuned constants)."""
    d = p.desc
    why = _uncut_post_op_input(p)
    if why:
        return why
    units, per_unit = divmod(d.oc, 16)
    if per_unit or units % n or d.oc // n < CHANNELS_LAST_SLAB:
        return (f"{d.oc} output channels do not cut into {n} even slabs of whole 16-channel units, "
                f"{CHANNELS_LAST_SLAB} or more each")
    width = d.oc // n
    # `_channel_part`'s parts, whose destinations are strided slabs here, not ranges
    return tuple(_channel_part(p, dataclasses.replace(d, oc=width, name=""), (lo, lo + width), None)
                 ._replace(dst=(0, p.dst.buffer_nelems), dst_cols=(lo, lo + width, d.oc))
                 for lo in range(0, d.oc, width))


def _group_parts(p: ConvProblem, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
    """`_channel_parts` for a grouped convolution (depthwise included): slabs of whole groups, each
    part reading its groups' input channels (a contiguous slab of a source with channels
    outermost), on whole blocks of the source and the destination, 16 channels a slab or more
    where there are two such slabs."""
    d = p.desc
    icg, ocg = d.ic // d.g, d.oc // d.g
    sb, db = p.src.block_of(1), p.dst.block_of(1)
    unit = math.lcm(sb // math.gcd(sb, icg), db // math.gcd(db, ocg))        # groups a slab
    while unit * ocg < 16 and d.g >= 4 * unit:
        unit *= 2

    def part(lo: int, hi: int) -> ConvPart:
        desc = dataclasses.replace(d, g=hi - lo, ic=(hi - lo) * icg, oc=(hi - lo) * ocg, name="")
        return _channel_part(p, desc, (lo * ocg, hi * ocg), (lo * icg, hi * icg))

    return _conv_slabs(p, d.g, unit, "groups", n, lead, part)


def _conv_slabs(p: ConvProblem, total: int, unit: int, what: str, n: int, lead: bool,
                part) -> tuple[ConvPart, ...] | str:
    """`total` channels or groups cut into even counts of `unit` (the last part may be short),
    `part(lo, hi)` making each part, or why not."""
    units = -(-total // unit)
    if units < 2:
        return f"one slab of {unit} {what}: nothing to cut"
    parts, lo = [], 0
    for c in _even_counts(units, n, lead):
        hi = min(lo + c * unit, total)
        parts.append(part(lo, hi))
        lo = hi
    return _tiled(p, tuple(parts))


def _channel_part(p: ConvProblem, desc: ConvDesc, oc: tuple[int, int], ic: tuple[int, int] | None) -> ConvPart:
    """A part of the channel cut: output channels `oc`, reading input channels `ic` (None: the
    whole source)."""
    part = dataclasses.replace(p, desc=desc, wei=_like(p.wei, desc.wei_dims),
                               dst=_like(p.dst, desc.dst_dims),
                               src=p.src if ic is None else _like(p.src, desc.src_dims))
    first = [0] * p.desc.ndims
    first[1] = oc[0]
    o = p.dst.offset(first)
    src = (0, p.src.buffer_nelems)
    if ic is not None:
        first[1] = ic[0]
        s = p.src.offset(first)
        src = (s, s + part.src.buffer_nelems)
    return ConvPart(part, src, (o, o + part.dst.buffer_nelems), oc, ic)


def _tiled(p: ConvProblem, out: tuple[ConvPart, ...]) -> tuple[ConvPart, ...] | str:
    """The parts `out`, or why not: their destinations must tile `p`'s destination buffer exactly (the
    sources may overlap: halos)."""
    if [r.dst for r in out] != [(a, b) for a, b in zip([0] + [r.dst[1] for r in out[:-1]], [r.dst[1] for r in out])] \
            or out[-1].dst[1] != p.dst.buffer_nelems or any(r.src[1] > p.src.buffer_nelems for r in out):
        return "the parts' buffers are not contiguous ranges of the whole"
    return out


def _part(p: ConvProblem, desc: ConvDesc, src_at: tuple[int, int], dst_at: tuple[int, int]) -> tuple:
    """(part problem, index of its first source element, of its first destination element)."""
    part = dataclasses.replace(p, desc=desc, src=_like(p.src, desc.src_dims),
                               dst=_like(p.dst, desc.dst_dims))
    first = [0] * p.desc.ndims
    src_first, dst_first = list(first), list(first)
    src_first[src_at[0]], dst_first[dst_at[0]] = src_at[1], dst_at[1]
    return part, p.src.offset(src_first), p.dst.offset(dst_first)


def _with_ranges(p: ConvProblem, parts: list) -> tuple[ConvPart, ...] | str:
    """`_part`'s (problem, source start, destination start) triples as parts of `p`, or why not."""
    return _tiled(p, tuple(ConvPart(q, (s, s + q.src.buffer_nelems), (o, o + q.dst.buffer_nelems))
                           for q, s, o in parts))


# ----------------------------------------------------------------------------------------------------
# Reorders
# ----------------------------------------------------------------------------------------------------

class ReorderPart(NamedTuple):
    """One part of a reorder (or a folded chain) cut for host threads (`reorder_host_parts`): the chain over a
    slab [lo, hi) of logical dim `dim`, and the [start, stop) ranges of the whole chain's source and
    destination NumPy buffers (packed bytes for s4 / u4) that are its source and destination."""
    problems: tuple
    dim: int
    lo: int
    hi: int
    src: tuple[int, int]
    dst: tuple[int, int]

    def dst_view(self, whole: np.ndarray) -> np.ndarray:
        """This part's destination within the whole destination buffer `whole`: its range."""
        return whole[self.dst[0]:self.dst[1]]

    def quant(self, arg_problem: ReorderProblem, arg: str, value: np.ndarray) -> np.ndarray:
        """A quantization array of the whole chain's problem, cut to this part's slab where it varies
        along the cut dim (a C-contiguous copy, as the runtime uploads it)."""
        q = getattr(arg_problem, arg)
        if self.dim not in q.mask:
            return value
        return np.take(value, np.arange(self.lo, self.hi), axis=q.mask.index(self.dim))


def _src_view(whole: MemoryDesc, dims, first) -> MemoryDesc | str:
    """A part's source read straight from the `whole` source buffer: the view of its slab, or why the
    kernel could not read it so without padding the whole buffer (`Pitch.read_plan`)."""
    view = whole.submemory(dims, first)
    p = view.pitch()
    if p is None:
        return "the slab's strides interleave in the source"
    if p.read_plan(view.offset0, whole.buffer_nelems) is None:
        return "the slab's view of the source does not nest in its buffer"
    return view


def _reorder_slabs(chain, descs, dim: int, extent: int, unit: int, n: int,
                   src_view: bool = False) -> list[ReorderPart] | str:
    """`reorder_host_parts`' slabs of `unit` indices of `dim` (`_even_counts`), or why not. With
    `src_view` each part reads its slab as a view of the whole source buffer (strided there)."""
    units = -(-extent // unit)
    if units < 2:
        return f"dim {dim} holds one block of {unit}: nothing to cut"
    parts, lo = [], 0
    for c in _even_counts(units, n):
        hi = min(lo + c * unit, extent)
        dims = list(chain[0].dims)
        dims[dim] = hi - lo
        first = [0] * len(dims)
        first[dim] = lo
        problems = tuple(dataclasses.replace(p, src=MemoryDesc(dims, p.src.dtype, p.src.tag),
                                             dst=MemoryDesc(dims, p.dst.dtype, p.dst.tag),
                                             whole_dst_bytes=p.dst.size_bytes) for p in chain)
        ranges = []
        if src_view:
            view = _src_view(descs[0], dims, first)
            if isinstance(view, str):
                return view
            problems = (dataclasses.replace(problems[0], src=view, src_buffer_len=descs[0].buffer_len),)
            ranges.append((0, descs[0].buffer_len))
        for whole, part in ((descs[0], problems[0].src), (descs[-1], problems[-1].dst))[len(ranges):]:
            start = whole.offset(first)
            if whole.dtype.is_packed and start * whole.dtype.bits % 8:
                return f"a part of the {whole.dtype.name} buffer would start inside a byte"
            start = start * whole.dtype.bits // 8 if whole.dtype.is_packed else start
            ranges.append((start, start + part.buffer_len))
        parts.append(ReorderPart(problems, dim, lo, hi, ranges[0], ranges[1]))
        lo = hi
    return parts


def reorder_host_parts(chain: Sequence[ReorderProblem], n: int) -> tuple[ReorderPart, ...] | str:
    """`chain` (one reorder, or a folded chain) cut into at most `n` parts for the host-threads driver,
    or why it cannot be: slabs of the outermost dim that has more than one index in every layout of
    the chain (the images, or the channel blocks of one image), cut on whole blocks of that dim, so
    each part's source and destination are contiguous ranges of the whole buffers and only the last
    part holds a blocked tail. Each part is a reorder of its own, with the same formats. Where that
    dim differs between the layouts of one reorder, the slabs are the destination's and each part
    reads the whole source buffer through a view of its slab (`ReorderProblem.src_buffer_len`)."""
    if n < 1:
        raise ProblemError(f"cannot cut a reorder into {n} parts")
    if n == 1:
        return "one thread: nothing to cut"
    chain = tuple(chain)
    descs = [chain[0].src] + [p.dst for p in chain]
    if descs[0].is_zero_volume:
        return "a zero-volume reorder has nothing to cut"
    if any(t.tag is None or not t.is_dense for t in descs):
        return "a strided (non-dense) source or destination is not cut"

    def outermost(t: MemoryDesc) -> int | None:
        return next((d for d in t.order if t.outer_dims[d] > 1), None)

    cut = {outermost(t) for t in descs}
    src_view = len(cut) != 1 or None in cut
    if src_view:
        # slabs of the destination's outermost dim, each read as a strided view of the whole source
        # (nchw -> nhwc of one image: rows h0..h1 of every channel); the destination ranges stay
        # contiguous, as `PartsCall` joins them
        dim = outermost(descs[-1])
        # plain layouts only: IREE copies a strided view before linalg.pack / unpack, and the blocked
        # ones lost (measured: docs/performance.md, Tuned constants)
        if (len(chain) != 1 or dim is None or any(t.dtype.is_packed for t in descs)
                or any(t.is_blocked for t in descs)):
            return ("the layouts' outermost dims (of more than one index) differ: no slab is contiguous in "
                    "both buffers (a strided view of the source is read only between plain layouts)")
    else:
        dim = cut.pop()
    extent = chain[0].dims[dim]
    unit = math.lcm(*(t.block_of(dim) for t in descs))      # whole blocks in every layout
    while True:
        parts = _reorder_slabs(chain, descs, dim, extent, unit, n, src_view)
        if not isinstance(parts, str):
            break
        if not parts.endswith("inside a byte") or -(-extent // (2 * unit)) < 2:
            return parts
        unit *= 2               # 4-bit: an odd number of elements a unit; two units end on a byte
    for side, whole in (("src", descs[0]), ("dst", descs[-1]))[int(src_view):]:
        r = [getattr(p, side) for p in parts]
        if r[0][0] != 0 or r[-1][1] != whole.buffer_len or any(a[1] != b[0] for a, b in zip(r, r[1:])):
            return "the parts' buffers are not contiguous ranges of the whole"
    return tuple(parts)
