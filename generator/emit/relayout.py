"""Relayout plans: the steps that turn a physical buffer into its logical tensor and back.

A plan is a list of typed steps (`emit.steps`: kind, SSA values, parameters) that the templates
spell as MLIR, one macro per kind. The decisions live here:

* buffer -> packed tensor: slice off `offset0`, pad to the pitched volume, expand_shape into the
  pitched dense shape, slice the data corner (`MemoryDesc.pitch`); interleaved strides use a gather.
  Where the buffer holds the pitched volume past the view's start, or holds it from element 0 with
  the view's offset inside it (`Pitch.window`), nothing is padded: the corner is sliced out of it.
* packed -> logical: a transpose for plain formats; `linalg.unpack` for single-level blocks where
  the backend compiles it; otherwise transpose + collapse_shape + extract_slice (the portable form
  Vulkan needs, and the only form for multi-level blocks such as OIhw4i16o4i). A partial last block
  in one dim is unblocked apart from the full blocks and joined with tensor.concat (the faster form;
  measured: docs/performance.md, Tuned constants).
* logical -> packed -> buffer: the mirror image, padding blocked tails with zeros
  (`linalg.pack padding_value` or `tensor.pad`), and inserting into the old destination buffer when
  the destination has gaps or an offset.
* 4-bit storage (s4, u4): the kernel's buffer arguments hold two elements per byte, low nibble first.
  `unpack_storage` widens a buffer to one i8 element per buffer element before any of the above, and
  `pack_storage` narrows the result after; everything between works on i8 element buffers.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ..errors import UnsupportedError
from ..layout import MemoryDesc
from .step_kinds import make_step
from .steps import Step, Value

__all__ = ["Plan", "Value"]


class Plan:
    """An ordered list of steps with fresh SSA names."""

    def __init__(self, prefix: str = "v"):
        self.steps: list[Step] = []
        self._n = 0
        self._prefix = prefix

    def fresh(self) -> str:
        self._n += 1
        return f"{self._prefix}{self._n}"

    def add(self, kind: str, inp: Value | None, shape, elem: str | None = None, **params) -> Value:
        out = Value(self.fresh(), tuple(shape), elem or inp.elem)
        self.steps.append(make_step(kind, inp, out, params))
        return out

    # ---- primitive steps; each skips itself when it would change nothing
    def slice(self, v: Value, offsets, sizes, result_shape=None, strides=None) -> Value:
        strides = list(strides) if strides is not None and any(st != 1 for st in strides) else None
        if tuple(sizes) == v.shape and not any(offsets) and strides is None:
            return v
        return self.add("slice", v, result_shape if result_shape is not None else sizes,
                        offsets=list(offsets), sizes=list(sizes), strides=strides)

    def pad(self, v: Value, high, low=None) -> Value:
        low = list(low) if low is not None else [0] * len(high)
        if not any(high) and not any(low):
            return v
        return self.add("pad", v, [s + h + l for s, h, l in zip(v.shape, high, low)], low=low, high=list(high))

    def expand(self, v: Value, groups, shape) -> Value:
        if tuple(shape) == v.shape:
            return v
        return self.add("expand", v, shape, groups=groups)

    def collapse(self, v: Value, groups) -> Value:
        shape = [math.prod(v.shape[i] for i in g) for g in groups]
        if tuple(shape) == v.shape:
            return v
        return self.add("collapse", v, shape, groups=groups)

    def transpose(self, v: Value, perm) -> Value:
        if list(perm) == sorted(perm):
            return v
        return self.add("transpose", v, [v.shape[p] for p in perm], perm=list(perm))

    def insert(self, src: Value, dest: Value, offsets) -> Value:
        return self.add("insert", dest, dest.shape, source=src, offsets=list(offsets), sizes=list(src.shape))

    def concat(self, parts, dim: int) -> Value:
        shape = list(parts[0].shape)
        shape[dim] = sum(p.shape[dim] for p in parts)
        return self.add("concat", parts[0], shape, parts=list(parts), dim=dim)


def _groups_1d(rank: int):
    return [list(range(rank))]


def _block_layout(desc: MemoryDesc):
    """For each logical dim d: the positions, in the packed tensor, of its outer index and block digits."""
    n = desc.ndims
    order = desc.order
    per_dim = {d: [order.index(d)] for d in range(n)}
    for k, (d, _) in enumerate(desc.blocks):
        per_dim[d].append(n + k)
    return per_dim


def _single_level(desc: MemoryDesc) -> bool:
    dims = [d for d, _ in desc.blocks]
    return len(dims) == len(set(dims)) and all(
        desc.outer_dims[d] == -(-desc.dims[d] // desc.block_of(d)) for d in dims)


def buffer_to_packed(plan: Plan, buf: Value, desc: MemoryDesc) -> Value | None:
    """1-D buffer -> packed tensor (physical_shape), or None when strides interleave."""
    p = desc.pitch()
    if p is None:
        return None
    v, shape, corner = buf, p.shape, (0,) * len(p.shape)
    read = p.read_plan(desc.offset0, buf.shape[0])
    if read is not None:
        # a slice of the buffer, no pad (a pad is a dispatch that copies the whole buffer; measured:
        # docs/performance.md, Tuned constants)
        start, shape, corner = read
        v = plan.slice(v, [start], [math.prod(shape)])
    else:
        if desc.offset0 or desc.span != buf.shape[0]:
            v = plan.slice(v, [desc.offset0], [desc.span])
        v = plan.pad(v, [p.volume - desc.span])
    v = plan.expand(v, _groups_1d(len(shape)), shape)
    if shape != p.data_shape:
        v = plan.slice(v, list(corner), p.data_shape, result_shape=desc.physical_shape)
    return v


def is_canonical(desc: MemoryDesc) -> bool:
    """`desc` is its tag's dense layout (no strides of its own, offset, gaps or extra padding): a
    piece of it, or the whole, can be rebuilt from its dims and tag."""
    return desc.tag is not None and desc == MemoryDesc(desc.dims, desc.dtype, desc.tag)


def _tail_split_dim(desc: MemoryDesc) -> int | None:
    """The one blocked dim whose last block is partial, when it also has full blocks (single-level
    blocks, every other blocked dim exact); None otherwise."""
    if not _single_level(desc):
        return None
    tails = [d for d, b in desc.blocks if desc.dims[d] % b]
    if len(tails) != 1 or desc.dims[tails[0]] < desc.block_of(tails[0]):
        return None
    return tails[0]


# A reorder whose blocked tail is cut into pieces (`tail_pieces`) emits two dispatches per index of the
# destination's dims outside the tail dim; more than this many pieces keep the one-pad form.
MAX_TAIL_PIECES = 64


@dataclass(frozen=True)
class Piece:
    """A box of the logical tensor: its first index and its extent per logical dim."""
    lo: tuple[int, ...]
    dims: tuple[int, ...]

    def cut(self, d: int, lo: int, hi: int) -> "Piece":
        return Piece(self.lo[:d] + (lo,) + self.lo[d + 1:], self.dims[:d] + (hi - lo,) + self.dims[d + 1:])


def tail_pieces(src: MemoryDesc, dst: MemoryDesc) -> list[Piece] | None:
    """A reorder with a partial last block (C=17 in nChw16c, on either side) as pieces that each fill
    one contiguous range of the destination buffer, in buffer order: per index of the destination's
    dims outside the tail dim, the full blocks, then the tail. Joined by a concat along the buffer's
    only dim, IREE 3.13 writes each piece's dispatch straight into the result (an outer-dim concat is
    in place); a concat along the channels of a batch (N > 1), or one tensor.pad of the whole source,
    costs a copy of the result (measured: docs/performance.md, Tuned constants).

    None where it does not apply: no single-level partial block on either side (or partial blocks in
    different dims, or ending at different channels), a destination that is strided, has gaps or no
    tag, the source blocked in the dims outside the tail dim, or more than MAX_TAIL_PIECES pieces."""
    if not is_canonical(dst) or src.pitch() is None:
        return None
    cuts = {}
    for desc in (src, dst):
        d = _tail_split_dim(desc)
        if d is not None:
            cuts[d] = desc.dims[d] // desc.block_of(d) * desc.block_of(d)
    if len(cuts) != 1 or len(set(cuts.values())) != 1:
        return None
    (d, full), = cuts.items()
    for desc in (src, dst):      # a side blocked in d holds [full, dims[d]) in one block
        b = desc.block_of(d)
        if b > 1 and (not _single_level(desc) or full % b or desc.dims[d] - full > b):
            return None
    outside = list(dst.order[:dst.order.index(d)])
    if any(src.block_of(x) > 1 or dst.block_of(x) > 1 for x in outside):
        return None
    if 2 * math.prod(dst.dims[x] for x in outside) > MAX_TAIL_PIECES:
        return None
    pieces = []
    for index in itertools.product(*(range(dst.dims[x]) for x in outside)):
        box = Piece((0,) * dst.ndims, dst.dims)
        for x, i in zip(outside, index):
            box = box.cut(x, i, i + 1)
        pieces += [box.cut(d, 0, full), box.cut(d, full, dst.dims[d])]
    return pieces


# A tail of at most this many lanes is laid down lane by lane (steps.Lanes), a longer one through
# tensor.pad (measured: docs/performance.md, Tuned constants)
MAX_TAIL_LANES = 16


def logical_piece_to_packed(plan: Plan, v: Value, dst: MemoryDesc, piece: Piece, form: str) -> Value:
    """A logical piece (`tail_pieces`) -> its range of the destination, packed. A partial block is
    laid down from its valid lanes, with zeros past them, in one elementwise op (`steps.Lanes`): a
    tensor.pad becomes a dispatch of its own that fills and copies."""
    desc = MemoryDesc(piece.dims, dst.dtype, dst.tag)
    partial = [x for x, b in desc.blocks if desc.dims[x] % b]
    if (form != "transpose" or not _single_level(desc) or len(partial) != 1
            or desc.dims[partial[0]] > min(desc.block_of(partial[0]), MAX_TAIL_LANES)):
        return logical_to_packed(plan, v, desc, form)
    d = partial[0]
    per_dim = _block_layout(desc)
    index = []
    for x in range(desc.ndims):
        if x == d:
            index.append("0")
        elif len(per_dim[x]) == 1:
            index.append(f"d{per_dim[x][0]}")
        else:
            outer, digit = per_dim[x]
            index.append(f"d{outer} * {desc.block_of(x)} + d{digit}")
    parts = [plan.slice(v, [k if x == d else 0 for x in range(desc.ndims)],
                        [1 if x == d else s for x, s in enumerate(v.shape)]) for k in range(desc.dims[d])]
    return plan.add("lanes", v, desc.physical_shape, parts=parts, index=index, lane=per_dim[d][1])


def _unblock(plan: Plan, v: Value, desc: MemoryDesc) -> Value:
    """Packed tensor (or an outer-dim slice of one) -> logical order: transpose + collapse_shape."""
    per_dim = _block_layout(desc)
    n = desc.ndims
    v = plan.transpose(v, [pos for d in range(n) for pos in per_dim[d]])
    groups, k = [], 0
    for d in range(n):
        groups.append(list(range(k, k + len(per_dim[d]))))
        k += len(per_dim[d])
    return plan.collapse(v, groups)


def packed_piece_to_logical(plan: Plan, v: Value, desc: MemoryDesc, piece: "Piece") -> Value:
    """The logical block `piece` of a packed tensor: the packed slice that holds it, unblocked
    (transpose + collapse_shape), then cropped. A dim blocked in `desc` is sliced only where the piece
    is whole blocks or one block's leading lanes (`tail_pieces` and `_tail_split_dim` cut it so)."""
    per_dim = _block_layout(desc)
    offsets, sizes = [0] * len(v.shape), list(v.shape)
    for x in range(desc.ndims):
        lo, size = piece.lo[x], piece.dims[x]
        b = desc.block_of(x)
        if b == 1:
            offsets[per_dim[x][0]], sizes[per_dim[x][0]] = lo, size
        elif (lo, size) != (0, desc.dims[x]):
            outer, digit = per_dim[x]
            offsets[outer], sizes[outer] = lo // b, -(-size // b)
            sizes[digit] = min(b, size)
    part = plan.slice(v, offsets, sizes)
    return plan.slice(_unblock(plan, part, desc), [0] * desc.ndims, list(piece.dims))


def packed_to_logical(plan: Plan, v: Value, desc: MemoryDesc, form: str) -> Value:
    n = desc.ndims
    if not desc.is_blocked:
        return plan.transpose(v, [desc.order.index(d) for d in range(n)])
    if form == "pack" and _single_level(desc):
        return plan.add("unpack", v, desc.dims, outer_perm=list(desc.order),
                        inner_pos=[d for d, _ in desc.blocks], tiles=[s for _, s in desc.blocks])
    d = _tail_split_dim(desc)
    if d is None:
        return plan.slice(_unblock(plan, v, desc), [0] * n, desc.dims)
    # A partial last block: unblock the full blocks and only the valid lanes of the last one, then
    # concatenate, which is faster on llvm-cpu than transposing the padded lanes and slicing them off
    # after (IREE 3.13; measured: docs/performance.md, Tuned constants).
    full = desc.dims[d] // desc.block_of(d) * desc.block_of(d)
    whole = Piece((0,) * n, desc.dims)
    parts = [packed_piece_to_logical(plan, v, desc, whole.cut(d, lo, hi)) for lo, hi in ((0, full), (full, desc.dims[d]))]
    return plan.concat(parts, d)


def _atoms(desc: MemoryDesc, split: dict[int, int]) -> list[tuple[tuple[int, str], int, int]] | None:
    """The layout as (atom, extent, stride) in physical order, outermost first, atoms of one index left
    out: a plain dim is one atom (d, "w"); a dim blocked by b here, or split by b for the other layout
    (`split`), is its outer index (d, "o") and its lane (d, "i"). None for multi-level or padded blocks."""
    if desc.is_blocked and not _single_level(desc):
        return None
    atoms = []
    for d in range(desc.ndims):
        b = desc.block_of(d)
        if b > 1:
            if desc.padded_dims[d] != desc.dims[d]:
                return None
            inner = math.prod(s for dd, s in desc.blocks[[dd for dd, _ in desc.blocks].index(d) + 1:])
            atoms += [((d, "o"), desc.dims[d] // b, desc.strides[d]), ((d, "i"), b, inner)]
        elif split.get(d, 1) > 1:
            b = split[d]
            atoms += [((d, "o"), desc.dims[d] // b, desc.strides[d] * b), ((d, "i"), b, desc.strides[d])]
        else:
            atoms.append(((d, "w"), desc.dims[d], desc.strides[d]))
    return sorted((a for a in atoms if a[1] > 1), key=lambda a: -a[2])


def transposition(src: MemoryDesc, dst: MemoryDesc) -> tuple[int, int, int, int, int] | None:
    """The reorder as one 2-D transposition per batch, (B, R, S) -> (B, S, R): (B, R, S, sb, sr), the
    source's element strides of B and R (S has stride 1); None where it is something else. In physical
    order the source is B, R, S and the destination B, S, R (nchw -> nhwc: B = N, R = C, S = H * W;
    nhwc -> nchw: R = H * W, S = C; nchw -> nChw16c: B = N * C/16, R = the 16 lanes, S = H * W), each
    group collapsible in the source (a row pitch or a view of a bigger tensor is fine). Layouts are
    compared atom by atom (`_atoms`): a dim one side blocks by b, exactly (no padding, one level), is
    split by b on the other; blocking both sides must agree. The destination is dense."""
    if not is_canonical(dst):
        return None
    split = {}
    for d in range(src.ndims):
        bs, bd = src.block_of(d), dst.block_of(d)
        if bs > 1 and bd > 1 and bs != bd:
            return None
        if max(bs, bd) > 1:
            if src.dims[d] % max(bs, bd):
                return None
            split[d] = max(bs, bd)
    sa, da = _atoms(src, split), _atoms(dst, split)
    if sa is None or da is None:
        return None
    so, do = [a for a, _, _ in sa], [a for a, _, _ in da]
    if sorted(so) != sorted(do):
        return None
    k = 0
    while k < len(so) and so[k] == do[k]:
        k += 1
    rest = so[k:]
    for j in range(1, len(rest)):
        if do[k:] == rest[j:] + rest[:j]:
            break
    else:
        return None
    extent, stride = {a: e for a, e, _ in sa}, {a: st for a, _, st in sa}
    groups = (so[:k], rest[:j], rest[j:])
    for g in groups:        # each group one dim of the source: its strides nest
        if any(stride[a] != stride[b] * extent[b] for a, b in zip(g, g[1:])):
            return None
    if stride[groups[2][-1]] != 1:
        return None
    b, r, s_ = (math.prod(extent[a] for a in g) for g in groups)
    sb = stride[groups[0][-1]] if groups[0] else r * s_      # one batch index: any stride
    return b, r, s_, sb, stride[groups[1][-1]]


@dataclass(frozen=True)
class BlockTail:
    """A transposition between a plain channels-first layout and its channel-blocked one whose last
    block is partial (nchw <-> nChw16c with C = 17 or 3): per image n and channel block cb, the
    (b, S) rows of the plain side against the (S, b) rows of the blocked side, as the "shuffle" form
    runs it (`steps.TransposeTiles`): the source (N, Cb, R, S) with element strides `xstrides` (the
    last 1), the destination (N, Cb, S, R) with `ystrides`. The last block has `valid` channels:
    `side` "rows" (plain -> blocked: R = b, its source rows past `valid` are read as zeros and its
    padded lanes stored as zeros) or "cols" (blocked -> plain: S = b, its output rows past `valid`,
    the padded channels, are not stored)."""
    n: int
    blocks: int
    r: int
    s: int
    xstrides: tuple[int, int, int]
    ystrides: tuple[int, int, int]
    valid: int
    side: str


def block_tail_transposition(src: MemoryDesc, dst: MemoryDesc) -> BlockTail | None:
    """The reorder as a `BlockTail`, or None: one side dense plain channels-first (abx), the other its
    dense channel-blocked layout in blocks of b (a multiple of 16: whole register tiles) that do not
    divide C, nothing else blocked."""
    if src.ndims < 3 or not (is_canonical(src) and is_canonical(dst)):
        return None
    plain = tuple(range(src.ndims))
    for a, blocked, side in ((src, dst, "rows"), (dst, src, "cols")):
        if a.is_blocked or a.order != plain or [d for d, _ in blocked.blocks] != [1]:
            continue
        b, c = blocked.block_of(1), blocked.dims[1]
        if blocked.order != plain or b % 16 or c % b == 0:
            continue
        n, cb, s = blocked.dims[0], -(-c // b), math.prod(blocked.dims[2:])
        plain_rows, blocked_rows = (c * s, b * s, s), (cb * s * b, s * b, b)
        if side == "rows":      # source plain (N, C, S) as (N, Cb, b, S); destination (N, Cb, S, b)
            return BlockTail(n, cb, b, s, plain_rows, blocked_rows, c - (cb - 1) * b, side)
        # source blocked (N, Cb, S, b); destination plain (N, C, S) as (N, Cb, b, S)
        return BlockTail(n, cb, s, b, blocked_rows, plain_rows, c - (cb - 1) * b, side)
    return None


def _replay(regs: dict[str, list], net: list[tuple[str, str, str, list[int]]]) -> dict[str, list]:
    """`net`'s two-input shuffles applied to `regs` (register name -> its elements, any labels): how
    each network below checks itself on indices before it is used."""
    for out, a, b, mask in net:
        both = regs[a] + regs[b]
        regs[out] = [both[m] for m in mask]
    return regs


def _transpose_16_network() -> list[tuple[str, str, str, list[int]]]:
    """A 16 x 16 transpose of rows r0..r15 into o0..o15 as 64 two-input shuffles, AVX-512's own
    network (the masks of unpcklps / unpckhps, unpcklpd / unpckhpd, then shuf_f32x4 0x88 / 0xdd twice,
    each one instruction; IREE 3.13 emits the same for its 16 x 16 transposes). Checked on indices."""
    def per_lane(f):
        return [x for lane in range(4) for x in f(lane)]

    def lanes_of(imm):          # shuf_f32x4: 128-bit lanes imm[1:0], imm[3:2] of a, imm[5:4], imm[7:6] of b
        sel = [(imm >> (2 * k)) & 3 for k in range(4)]
        return [(0 if k < 2 else 16) + 4 * sel[k] + j for k in range(4) for j in range(4)]

    lo_ps = per_lane(lambda l: [4 * l, 16 + 4 * l, 4 * l + 1, 17 + 4 * l])
    hi_ps = per_lane(lambda l: [4 * l + 2, 18 + 4 * l, 4 * l + 3, 19 + 4 * l])
    lo_pd = per_lane(lambda l: [4 * l, 4 * l + 1, 16 + 4 * l, 17 + 4 * l])
    hi_pd = per_lane(lambda l: [4 * l + 2, 4 * l + 3, 18 + 4 * l, 19 + 4 * l])
    even, odd = lanes_of(0x88), lanes_of(0xdd)
    net = []
    for i in range(0, 16, 2):
        net += [(f"a{i}", f"r{i}", f"r{i + 1}", lo_ps), (f"a{i + 1}", f"r{i}", f"r{i + 1}", hi_ps)]
    for q in range(0, 16, 4):
        net += [(f"b{q}", f"a{q}", f"a{q + 2}", lo_pd), (f"b{q + 1}", f"a{q}", f"a{q + 2}", hi_pd),
                (f"b{q + 2}", f"a{q + 1}", f"a{q + 3}", lo_pd), (f"b{q + 3}", f"a{q + 1}", f"a{q + 3}", hi_pd)]
    for h in (0, 8):
        for k in range(4):
            net += [(f"c{h + k}", f"b{h + k}", f"b{h + k + 4}", even), (f"c{h + k + 4}", f"b{h + k}", f"b{h + k + 4}", odd)]
    for k in range(8):
        net += [(f"o{k}", f"c{k}", f"c{k + 8}", even), (f"o{k + 8}", f"c{k}", f"c{k + 8}", odd)]
    rows = _replay({f"r{i}": [16 * i + j for j in range(16)] for i in range(16)}, net)
    if [rows[f"o{i}"] for i in range(16)] != [[16 * j + i for j in range(16)] for i in range(16)]:
        raise AssertionError("the 16 x 16 shuffle network does not transpose")
    return net


TRANSPOSE_16 = _transpose_16_network()


def widened_network(net: list[tuple[str, str, str, list[int]]], lanes: int) -> list[tuple[str, str, str, list[int]]]:
    """`net` on vectors of `lanes` x 16 elements: each 16-element lane shuffled as `net` shuffles a
    whole vector, independently of the others, so that one pass transposes `lanes` 16 x 16 tiles side
    by side (rows of 16 * lanes contiguous elements; output o_j's lane L is tile L's row j). For 8-
    and 16-bit elements, whose 16 x 16 tiles fill a quarter or half of a 512-bit register: with
    AVX-512 VBMI / BW each shuffle is still one instruction (vpermt2b / vpermt2w). Checked on indices."""
    w = 16 * lanes

    def wide(mask):
        return [lane * 16 + m if m < 16 else w + lane * 16 + m - 16 for lane in range(lanes) for m in mask]

    out = [(o, a, b, wide(mask)) for o, a, b, mask in net]
    rows = _replay({f"r{i}": [w * i + j for j in range(w)] for i in range(16)}, out)
    if any(rows[f"o{j}"][16 * lane:16 * lane + 16] != [w * i + 16 * lane + j for i in range(16)]
           for j in range(16) for lane in range(lanes)):
        raise AssertionError(f"the widened shuffle network ({lanes} lanes) does not transpose")
    return out


def _lane_transpose(xs: list[str], outs: list[str], w: int, tag: str) -> list[tuple[str, str, str, list[int]]]:
    """Shuffles making outs[i]'s lane j = xs[j]'s lane i (lanes of 16 elements, `w` elements a
    register, len(xs) == w // 16 lanes): 2 registers in one step, 4 in two (pairs interleaved, then
    halves joined)."""
    def pick(src_lanes):                      # a mask taking (source 0 or 1, lane) per output lane
        return [k * w + lane * 16 + e for k, lane in src_lanes for e in range(16)]

    if len(xs) == 2:
        return [(outs[i], xs[0], xs[1], pick([(0, i), (1, i)])) for i in range(2)]
    lo, hi = pick([(0, 0), (1, 0), (0, 1), (1, 1)]), pick([(0, 2), (1, 2), (0, 3), (1, 3)])
    first, second = pick([(0, 0), (0, 1), (1, 0), (1, 1)]), pick([(0, 2), (0, 3), (1, 2), (1, 3)])
    m = [f"{tag}_{k}" for k in range(4)]
    return [(m[0], xs[0], xs[1], lo), (m[1], xs[0], xs[1], hi), (m[2], xs[2], xs[3], lo), (m[3], xs[2], xs[3], hi),
            (outs[0], m[0], m[2], first), (outs[1], m[0], m[2], second),
            (outs[2], m[1], m[3], first), (outs[3], m[1], m[3], second)]


def lane_merge_network(lanes: int) -> list[tuple[str, str, str, list[int]]]:
    """After `widened_network(net, lanes)`, whose o_j holds column 16 * L + j of the 16 * lanes
    transposed columns in lane L: shuffles into d0..d15, d_m holding columns lanes * m .. lanes * m +
    lanes - 1 whole, so that where the destination's rows are 16 elements (nChw16c) each d_m is one
    512-bit store of consecutive rows instead of `lanes` 16-element ones. A lanes x lanes transpose of
    16-element lanes within each group of registers: 2 shuffles a register for 4 lanes (8-bit), 1 for
    2 (16-bit). Checked on indices."""
    w, n = 16 * lanes, 16 // lanes            # elements a register; groups
    net = []
    for q in range(n):
        net += _lane_transpose([f"o{lanes * q + t}" for t in range(lanes)], [f"d{n * L + q}" for L in range(lanes)],
                               w, f"m{q}")
    # o_j lane L holds column 16 L + j: element e of it is (column, e)
    regs = _replay({f"o{j}": [(16 * (i // 16) + j, i % 16) for i in range(w)] for j in range(16)}, net)
    if any(regs[f"d{m}"] != [(lanes * m + i // 16, i % 16) for i in range(w)] for m in range(16)):
        raise AssertionError(f"the lane merge ({lanes} lanes) does not give whole columns in order")
    return net


def lane_split_network(lanes: int) -> list[tuple[str, str, str, list[int]]]:
    """The stacked tiles' loads where the source rows are 16 elements and contiguous (nChw16c -> nchw):
    z0..z15, z_k the 16 * lanes rows' k-th register-full (rows lanes * k .. lanes * k + lanes - 1),
    shuffled into r0..r15, r_m holding row m of each stacked tile (tile L in lane L: row 16 L + m), as
    `widened_network` reads them; 16 whole-register loads instead of 16 * lanes 16-element ones. The
    inverse regrouping of `lane_merge_network`. Checked on indices."""
    w, n = 16 * lanes, 16 // lanes
    net = []
    for g in range(n):
        net += _lane_transpose([f"z{n * L + g}" for L in range(lanes)], [f"r{lanes * g + t}" for t in range(lanes)],
                               w, f"l{g}")
    # z_k holds rows lanes * k .. lanes * k + lanes - 1 of 16 elements: element e is (row, e)
    regs = _replay({f"z{k}": [(lanes * k + i // 16, i % 16) for i in range(w)] for k in range(16)}, net)
    if any(regs[f"r{m}"] != [(16 * (i // 16) + m, i % 16) for i in range(w)] for m in range(16)):
        raise AssertionError(f"the lane split ({lanes} lanes) does not give each tile's row m")
    return net


def gather_logical(plan: Plan, buf: Value, desc: MemoryDesc) -> Value:
    """Interleaved strides: read each logical element at its offset (plain formats only)."""
    return plan.add("gather", buf, desc.dims, strides=list(desc.strides), offset0=desc.offset0)


def buffer_to_logical(plan: Plan, buf: Value, desc: MemoryDesc, form: str) -> Value:
    packed = buffer_to_packed(plan, buf, desc)
    if packed is None:
        return gather_logical(plan, buf, desc)
    return packed_to_logical(plan, packed, desc, form)


def logical_to_packed(plan: Plan, v: Value, desc: MemoryDesc, form: str) -> Value:
    n = desc.ndims
    if not desc.is_blocked:
        return plan.transpose(v, list(desc.order))
    if form == "pack" and _single_level(desc):
        return plan.add("pack", v, desc.physical_shape, outer_perm=list(desc.order),
                        inner_pos=[d for d, _ in desc.blocks], tiles=[s for _, s in desc.blocks])
    v = plan.pad(v, [p - d for p, d in zip(desc.padded_dims, desc.dims)])
    per_dim = _block_layout(desc)
    # expand each dim into [outer, digit, digit, ...] in logical order
    shape, groups, k = [], [], 0
    for d in range(n):
        sizes = [desc.outer_dims[d]] + [s for dd, s in desc.blocks if dd == d]
        shape += sizes
        groups.append(list(range(k, k + len(sizes))))
        k += len(sizes)
    v = plan.expand(v, groups, shape)
    grouped = [pos for d in range(n) for pos in per_dim[d]]     # grouped position -> packed position
    perm = [grouped.index(pos) for pos in range(len(grouped))]
    return plan.transpose(v, perm)


def logical_to_buffer(plan: Plan, v: Value, desc: MemoryDesc, form: str, init: Value | None) -> Value:
    """Logical tensor -> 1-D destination buffer; `init` is the old buffer when the desc is not dense."""
    p = desc.pitch()
    if p is None:
        raise UnsupportedError(f"destination strides {'x'.join(map(str, desc.strides))} interleave; only "
                               f"nested strides (row pitch, sub-tensor views) can be written")
    # A blocked view's padded tail is its own (MemoryDesc.submemory refuses views that end mid-block
    # anywhere but at the parent's border), so writing zeros there clobbers no neighbour.
    packed = logical_to_packed(plan, v, desc, form)
    if desc.is_dense:
        return plan.collapse(packed, [list(range(len(packed.shape)))])
    assert init is not None, "non-dense destination needs its old buffer"
    data = plan.expand(packed, [[i] for i in range(desc.ndims - 1)] +
                       ([[desc.ndims - 1, desc.ndims]] if p.has_gap_dim else [[desc.ndims - 1]]) +
                       [[i + (1 if p.has_gap_dim else 0)] for i in range(desc.ndims, len(packed.shape))],
                       p.data_shape) if p.has_gap_dim else packed
    region = plan.slice(init, [desc.offset0], [desc.span])
    region = plan.pad(region, [p.volume - desc.span])
    region = plan.expand(region, _groups_1d(len(p.shape)), p.shape)
    region = plan.insert(data, region, [0] * len(p.shape))
    region = plan.collapse(region, [list(range(len(p.shape)))])
    region = plan.slice(region, [0], [desc.span])
    return plan.insert(region, init, [desc.offset0])


def unpack_storage(plan: Plan, buf: Value, desc: MemoryDesc) -> Value:
    """A buffer argument as `desc.buffer_nelems` elements: itself, or for 4-bit types (two elements per
    byte, element 2k in the low nibble of byte k) its bytes split into nibbles: (K,) -> (K, 2) ->
    collapse to 2K -> slice off the unused last nibble when the count is odd."""
    if not desc.dtype.is_packed:
        return buf
    pairs = plan.add("unpack_nibbles", buf, (buf.shape[0], 2), signed=desc.dtype.signed)
    return plan.slice(plan.collapse(pairs, [[0, 1]]), [0], [desc.buffer_nelems])


def pack_storage(plan: Plan, v: Value, desc: MemoryDesc) -> Value:
    """The inverse of `unpack_storage` for a result: `desc.buffer_nelems` elements -> ceil(n/2) bytes,
    a zero element padding an odd count (the last byte's high nibble is zero)."""
    if not desc.dtype.is_packed:
        return v
    k = desc.dtype.buffer_len(desc.buffer_nelems)
    v = plan.expand(plan.pad(v, [2 * k - v.shape[0]]), [[0, 1]], (k, 2))
    low = plan.slice(v, [0, 0], [k, 1], result_shape=[k])
    high = plan.slice(v, [0, 1], [k, 1], result_shape=[k])
    return plan.add("pack_nibbles", low, (k,), high=high)
