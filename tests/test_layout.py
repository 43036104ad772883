"""The layout algebra (generator/layout): format tags, MemoryDesc offsets, sizes, padding and views.

The NumPy reference for every tag format is the "forward index" of TVM's layout: the buffer reshaped to
the packed shape (outer dims in tag order, then the inner blocks, outermost first), each logical index
placed at (idx // block for each outer dim, then its block digits). It is computed here from the parsed
blocking alone, so it checks the descriptor's strides and offset function independently. Worked
examples pin the offset formulas of oneDNN's guide ("Understanding Memory Formats": nchw, nhwc, chwn,
nChw8c with the C=17 tail) and MegEngine's CHWN4 / NCHW4 pages.

Property tests draw dims of rank 1..6 with every dim in 0..7 (zero-volume tensors and block tails
included) and a format valid for that rank: a plain permutation, a generated single- or multi-level
blocked tag, a meta tag (abx, axb, xba, aBx<n>b), a named / TVM / MegEngine tag, nested strides with
pitch gaps and an offset, or interleaved strides. Hypothesis runs derandomized (a fixed seed per
test), so a failure reproduces exactly; example counts are sized to keep the file under ~15 s.
"""
from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.errors import FormatError, InputError
from generator.layout import MemoryDesc, Pitch, get_dtype, parse_tag

LET = "abcdef"
SETTINGS = dict(derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_PADDED = 40_000          # keeps one example in the millisecond range

# Named tags by rank: (tag, canonical letter tag). Data tags use n,c,[d,]h,w; weights [g,]o,i,[d,]h,w.
NAMED = {
    1: [("x", "a")],
    2: [("nc", "ab"), ("cn", "ba"), ("oi", "ab"), ("io", "ba"), ("NC", "ab"), ("NC8c", "aB8b")],
    3: [("ncw", "abc"), ("nwc", "acb"), ("nCw8c", "aBc8b"), ("nCw16c", "aBc16b"), ("oiw", "abc"),
        ("wio", "cba"), ("OIw16i16o", "ABc16b16a"), ("NCW4c", "aBc4b")],
    4: [("nchw", "abcd"), ("nhwc", "acdb"), ("chwn", "bcda"), ("nChw8c", "aBcd8b"), ("nChw16c", "aBcd16b"),
        ("oihw", "abcd"), ("hwio", "cdba"), ("ohwi", "acdb"), ("ihwo", "bcda"), ("OIhw8i8o", "ABcd8b8a"),
        ("OIhw16i16o", "ABcd16b16a"), ("OIhw4i16o4i", "ABcd4b16a4b"), ("Ohwi8o", "Acdb8a"),
        ("goiw", "abcd"), ("NCHW16c", "aBcd16b"), ("OIHW16i16o", "ABcd16b16a"), ("NCHW", "abcd"),
        ("NHWC", "acdb"), ("HWIO", "cdba"), ("NCHW4", "aBcd4b"), ("NCHW32", "aBcd32b"),
        ("NCHW64", "aBcd64b"), ("CHWN4", "Bcda4b")],
    5: [("ncdhw", "abcde"), ("ndhwc", "acdeb"), ("nCdhw16c", "aBcde16b"), ("nCdhw8c", "aBcde8b"),
        ("oidhw", "abcde"), ("dhwio", "cdeba"), ("goihw", "abcde"), ("gOIhw16i16o", "aBCde16c16b"),
        ("Goihw16g", "Abcde16a"), ("Goihw8g", "Abcde8a"), ("gOIhw4i16o4i", "aBCde4c16b4c"),
        ("NCDHW16c", "aBcde16b")],
    6: [("goidhw", "abcdef"), ("gOIdhw16i16o", "aBCdef16c16b"), ("gdhwio", "adefcb")],
}

BLOCK_SIZES = (1, 2, 3, 4, 8, 16)      # 1 is legal in the grammar, if useless


# ----------------------------------------------------------------------------------------------------
# Independent NumPy references


def index_grid(shape):
    """Broadcastable int64 index arrays, one per dim."""
    return [np.arange(e, dtype=np.int64).reshape([-1 if k == d else 1 for k in range(len(shape))])
            for d, e in enumerate(shape)]


def packed_reference(dims, tag, shape=None):
    """Offsets of every index (of `shape`, default the padded dims) for tag `tag`, via the packed shape.

    Independent of MemoryDesc: only the parsed Blocking (outer order, inner blocks) is used.
    Returns (offsets, packed_shape, padded_dims).
    """
    b = parse_tag(tag, len(dims))
    n = len(dims)
    bsz = [math.prod(s for d, s in b.blocks if d == k) for k in range(n)]
    padded = [-(-dims[k] // bsz[k]) * bsz[k] for k in range(n)]
    packed_shape = [padded[d] // bsz[d] for d in b.outer_order] + [s for _, s in b.blocks]
    idx = index_grid(padded if shape is None else shape)
    coords = [idx[d] // bsz[d] for d in b.outer_order]
    for k, (d, s) in enumerate(b.blocks):
        below = math.prod(s2 for d2, s2 in b.blocks[k + 1:] if d2 == d)   # radix of the inner digits
        coords.append((idx[d] % bsz[d]) // below % s)
    coords = np.broadcast_arrays(*coords)
    flat = np.ravel_multi_index(tuple(coords), packed_shape) if math.prod(packed_shape) else coords[0] * 0
    return flat, tuple(packed_shape), tuple(padded)


def strided_reference(dims, strides, offset0=0):
    idx = index_grid(dims)
    return offset0 + sum(i * s for i, s in zip(idx, strides)) + np.zeros(dims, np.int64)


def block_sizes(desc):
    return [desc.block_of(d) for d in range(desc.ndims)]


def random_logical(desc, seed=0):
    """Non-zero integer-valued data of the descriptor's type (so zero padding is distinguishable)."""
    rng = np.random.default_rng(seed)
    lo, hi = (1, 100)
    x = rng.integers(lo, hi, desc.dims)
    return x.astype(desc.dtype.np_dtype)


# ----------------------------------------------------------------------------------------------------
# Strategies


@st.composite
def dims_st(draw, min_rank=1, max_rank=6, max_dim=7, min_dim=0):
    rank = draw(st.integers(min_rank, max_rank))
    return tuple(draw(st.lists(st.integers(min_dim, max_dim), min_size=rank, max_size=rank)))


def letter_tag(outer_perm, blocks):
    """Build a oneDNN letter tag from an outer order and (dim, size) blocks, outermost first."""
    blocked = {d for d, _ in blocks}
    return ("".join(LET[d].upper() if d in blocked else LET[d] for d in outer_perm)
            + "".join(f"{s}{LET[d]}" for d, s in blocks))


@st.composite
def tag_st(draw, rank):
    """A (tag, canonical letter tag) valid for `rank`, from every family the parser knows."""
    kinds = ["plain", "blocked", "meta"] + (["named"] if rank in NAMED else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "plain":
        perm = draw(st.permutations(range(rank)))
        t = letter_tag(perm, [])
        return t, t
    if kind == "blocked":
        perm = draw(st.permutations(range(rank)))
        blocks, total = [], 1
        for _ in range(draw(st.integers(1, 3))):       # inner block product at most 64
            fits = [s for s in BLOCK_SIZES if total * s <= 64]
            if not fits:
                break
            size = draw(st.sampled_from(fits))
            blocks.append((draw(st.integers(0, rank - 1)), size))
            total *= size
        t = letter_tag(perm, blocks)
        return t, t
    if kind == "meta":
        s = draw(st.sampled_from((4, 8, 16)))
        if rank == 1:           # benchdnn trims a meta tag to the rank: every one of them is "a" in 1-D
            return draw(st.sampled_from([("abx", "a"), ("axb", "a"), ("xba", "a"), (f"aBx{s}b", "a")]))
        rest = LET[2:rank]
        return draw(st.sampled_from([("abx", LET[:rank]), ("axb", "a" + rest + "b"), ("xba", rest + "ba"),
                                     (f"aBx{s}b", "aB" + rest + f"{s}b")]))
    return draw(st.sampled_from(NAMED[rank]))


@st.composite
def tag_desc_st(draw, dtype="f32", min_rank=1):
    dims = draw(dims_st(min_rank=min_rank))
    tag, canon = draw(tag_st(len(dims)))
    d = MemoryDesc(dims, dtype, tag)
    assume(math.prod(d.padded_dims) <= MAX_PADDED)
    return d, tag, canon


@st.composite
def nested_strides_st(draw):
    """Plain strides that nest (a row pitch per level, in a random physical order) plus an offset."""
    dims = draw(dims_st())
    order = draw(st.permutations(range(len(dims))))
    strides = [0] * len(dims)
    s = draw(st.sampled_from((1, 1, 2)))          # a gap below the innermost dim too, sometimes
    for d in reversed(order):
        strides[d] = s
        s *= max(dims[d], 1) + draw(st.integers(0, 2))
    off = draw(st.sampled_from((0, 0, 3)))
    return dims, tuple(strides), off


@st.composite
def any_desc_st(draw, dtype="f32"):
    """(desc, kind): tag formats, nested strides with offset, or interleaved (injective) strides."""
    kind = draw(st.sampled_from(["tag", "tag", "tag", "nested", "interleaved"]))
    if kind == "tag":
        d, _, _ = draw(tag_desc_st(dtype))
        return d, kind
    if kind == "nested":
        dims, strides, off = draw(nested_strides_st())
        return MemoryDesc(dims, dtype, strides=strides, offset0=off), kind
    dims = draw(dims_st(max_rank=3, max_dim=5))
    strides = tuple(draw(st.lists(st.integers(0, 12), min_size=len(dims), max_size=len(dims))))
    offs = strided_reference(dims, strides).ravel()
    assume(np.unique(offs).size == offs.size)
    return MemoryDesc(dims, dtype, strides=strides), kind


DTYPES = st.sampled_from(["f32", "f16", "bf16", "s32", "s8", "u8"])


# ----------------------------------------------------------------------------------------------------
# Properties of the offset function


@settings(max_examples=200, **SETTINGS)
@given(any_desc_st())
def test_offsets_one_to_one_into_buffer(case):
    """The offset function maps the logical index space one-to-one into [offset0, buffer_nelems)."""
    d, kind = case
    offs = d.offsets()
    assert offs.shape == d.dims and offs.dtype == np.int64
    flat = offs.ravel()
    assert np.unique(flat).size == flat.size == d.nelems
    if d.nelems:
        assert flat.min() >= d.offset0 and flat.max() < d.buffer_nelems
        assert flat.min() == d.offset0                # index 0 sits at offset0
        assert d.buffer_nelems == flat.max() + 1 or d.is_blocked
    else:
        assert d.buffer_nelems == 0 and d.size_bytes == 0
    # single-index API agrees with the vectorised one
    if d.nelems:
        last = tuple(e - 1 for e in d.dims)
        assert d.offset(last) == offs[last]
        assert d.offset((0,) * d.ndims) == d.offset0


@settings(max_examples=200, **SETTINGS)
@given(any_desc_st(), DTYPES)
def test_plain_dense_copies_match_the_offset_function(case, dt):
    # to_physical / from_physical take one transposition where the buffer is exactly the (padded)
    # logical array split into blocks and transposed (`_dense_view`); the values must sit where the
    # offset function puts them, the padding zero
    d, _ = case
    d = d.with_dtype(dt)
    x = random_logical(d, seed=2)
    buf = d.to_physical(x)
    assert not np.shares_memory(buf, x)
    if d.dtype.is_packed:
        return
    assert np.array_equal(buf[d.offsets()], x.astype(d.dtype.np_dtype))
    y = d.from_physical(buf)
    assert y.flags.c_contiguous and not np.shares_memory(y, buf)
    if d._dense_view() is not None:
        assert d.is_dense and not d.dtype.is_packed
    assert not buf[d.padding_mask()].any()


def test_which_layouts_copy_in_one_transposition():
    assert MemoryDesc((2, 3, 4, 5), "f32", "acdb")._dense_view() == ((2, 3, 4, 5), (0, 2, 3, 1))
    assert MemoryDesc((1, 3, 1, 5), "bf16", "abcd")._dense_view() is not None
    # nChw16c with a tail: C splits into (outer, 16), the block innermost
    assert MemoryDesc((2, 17, 4, 4), "f32", "aBcd16b")._dense_view() == ((2, 2, 16, 4, 4), (0, 1, 3, 4, 2))
    # two blocks of one dim, outermost first (OIhw8i16o2i: i = (outer, 8, 2))
    assert MemoryDesc((32, 32, 3, 3), "f32", "ABcd8b16a2b")._dense_view() == (
        (2, 16, 2, 8, 2, 3, 3), (0, 2, 5, 6, 3, 1, 4))
    assert MemoryDesc((2, 3, 4), "f32", strides=(24, 8, 1))._dense_view() is None       # a gap
    assert MemoryDesc((2, 3), "s4", "ab")._dense_view() is None                        # packed bytes


@settings(max_examples=150, **SETTINGS)
@given(any_desc_st())
def test_index_of_inverts_offset(case):
    """The backward index: every addressed offset (padding lanes included) maps back to its index,
    and every other offset of the buffer is refused as a gap."""
    d, kind = case
    if d.is_zero_volume:
        with pytest.raises(FormatError, match="outside"):
            d.index_of(0)
        return
    padded = d.offsets(padded=True)
    addressed = set()
    for idx in itertools.product(*(range(e) for e in d.padded_dims)):
        assert d.index_of(int(padded[idx])) == idx
        addressed.add(int(padded[idx]))
    for off in set(range(d.offset0, d.buffer_nelems)) - addressed:
        with pytest.raises(FormatError, match="gap"):
            d.index_of(off)
    for off in (d.offset0 - 1, d.buffer_nelems):
        if off >= 0:
            with pytest.raises(FormatError, match="outside"):
                d.index_of(off)


def test_index_of_worked_example():
    """The docstring's nChw8c 2x17x5x4 example (C pads to 24; blocks of 5*4*8 = 160 elements)."""
    d = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    assert d.index_of(1) == (0, 1, 0, 0)
    assert d.index_of(160) == (0, 8, 0, 0)
    assert d.index_of(481) == (1, 1, 0, 0)
    assert d.index_of(2 * 160 + 7) == (0, 23, 0, 0)       # a padding lane: c >= 17
    interleaved = MemoryDesc((2, 3), "f32", strides=(1, 2))  # a transposed view: strides cross
    assert [interleaved.index_of(o) for o in range(6)] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]


@settings(max_examples=200, **SETTINGS)
@given(tag_desc_st())
def test_tag_offsets_match_packed_reference(case):
    """Strides + inner blocks reproduce the packed-shape reference, padding included."""
    d, tag, canon = case
    ref, packed_shape, padded = packed_reference(d.dims, tag)
    assert d.padded_dims == padded
    if not d.is_zero_volume:
        assert d.physical_shape == packed_shape
    assert math.prod(d.physical_shape) == math.prod(packed_shape)
    if not d.is_zero_volume:
        assert np.array_equal(d.offsets(padded=True), ref)
        # dense tags: the padded index space is a permutation of the whole buffer
        assert d.is_dense
        assert d.buffer_nelems == math.prod(d.physical_shape) == math.prod(d.padded_dims)
        assert np.array_equal(np.sort(ref.ravel()), np.arange(d.buffer_nelems))
    assert d.tag == canon == parse_tag(tag, d.ndims).tag()


@settings(max_examples=150, **SETTINGS)
@given(any_desc_st())
def test_strides_match_offsets(case):
    """Outer strides: moving one whole block along dim d moves stride[d] elements."""
    d, kind = case
    if d.is_zero_volume:
        return
    b = block_sizes(d)
    base = (0,) * d.ndims
    for k in range(d.ndims):
        if d.padded_dims[k] > b[k]:
            step = tuple(b[k] if j == k else 0 for j in range(d.ndims))
            assert d.offset(step) - d.offset(base) == d.strides[k]
    if kind != "tag":
        assert np.array_equal(d.offsets(), strided_reference(d.dims, d.strides, d.offset0))


# ----------------------------------------------------------------------------------------------------
# Round trip, zero padding, sizes


@settings(max_examples=200, **SETTINGS)
@given(any_desc_st(), DTYPES)
def test_round_trip_and_zero_padding(case, dt):
    d, _ = case
    d = d.with_dtype(dt)
    x = random_logical(d)
    buf = d.to_physical(x)
    assert buf.shape == (d.buffer_nelems,) and buf.dtype == d.dtype.np_dtype
    y = d.from_physical(buf)
    assert y.shape == d.dims and y.dtype == d.dtype.np_dtype
    assert np.array_equal(y, x)
    mask = d.padding_mask()
    assert mask.shape == buf.shape and mask.dtype == bool
    assert not buf[mask].any(), "padding must be zero"
    # every element not holding data is zero, and the data positions are exactly the offsets
    data = np.zeros(d.buffer_nelems, bool)
    data[d.offsets().ravel()] = True
    assert not (mask & data).any()
    assert not buf[~data].any()
    if d.is_blocked and not d.is_zero_volume:
        assert mask.sum() == math.prod(d.padded_dims) - d.nelems


@settings(max_examples=150, **SETTINGS)
@given(any_desc_st())
def test_to_physical_with_base_keeps_gaps_and_zeroes_padding(case):
    d, _ = case
    x = random_logical(d, seed=1)
    base = np.full(d.buffer_nelems, -7, d.dtype.np_dtype)
    buf = d.to_physical(x, base=base)
    assert np.array_equal(d.from_physical(buf), x)
    assert not buf[d.padding_mask()].any()
    owned = np.zeros(d.buffer_nelems, bool)
    owned[d.offsets(padded=True).ravel()] = True
    assert (buf[~owned] == -7).all(), "gaps and the area before offset0 keep the old buffer"
    assert (base == -7).all(), "base is not modified in place"


@settings(max_examples=200, **SETTINGS)
@given(any_desc_st(), DTYPES)
def test_sizes(case, dt):
    d, kind = case
    d = d.with_dtype(dt)
    item = d.dtype.itemsize
    assert d.size_bytes == d.buffer_nelems * item
    assert d.size_bytes >= d.nelems * item
    assert d.span <= d.buffer_nelems
    if kind == "tag":
        assert math.prod(d.physical_shape) == d.buffer_nelems
        if not d.is_blocked:
            assert d.size_bytes == d.nelems * item        # dense plain: exactly the product of dims
    else:
        assert d.is_dense == (d.offset0 == 0 and d.buffer_nelems == d.nelems)


# ----------------------------------------------------------------------------------------------------
# The pitch view used by emitted kernels


@settings(max_examples=200, **SETTINGS)
@given(any_desc_st())
def test_pitch_view_consistent_with_offsets(case):
    d, kind = case
    p = d.pitch()
    if kind in ("tag", "nested") and not d.is_zero_volume:
        assert p is not None, f"{d!r}: nested layouts have a pitch view"
    if p is None:
        return
    assert isinstance(p, Pitch)
    n = d.ndims
    assert sorted(p.order) == list(range(n))
    assert len(p.shape) == len(p.data_shape) == n + int(p.has_gap_dim) + len(d.blocks)
    assert all(ds <= s for ds, s in zip(p.data_shape, p.shape))
    if d.is_zero_volume:
        return
    assert p.volume >= d.span
    # place each logical element by the pitch view and compare with the offset function
    b = block_sizes(d)
    idx = index_grid(d.dims)
    coords = [idx[k] // b[k] for k in p.order]
    if p.has_gap_dim:
        coords.append(idx[0] * 0)
    for j, (k, s) in enumerate(d.blocks):
        below = math.prod(s2 for k2, s2 in d.blocks[j + 1:] if k2 == k)
        coords.append((idx[k] % b[k]) // below % s)
    coords = np.broadcast_arrays(*coords)
    for c, ds in zip(coords, p.data_shape):
        assert c.max() < ds, "data lies in the data_shape corner"
    pos = d.offset0 + np.ravel_multi_index(tuple(coords), p.shape)
    assert np.array_equal(pos, d.offsets())
    # and literally: a buffer padded to offset0 + volume, reshaped, holds the logical data
    x = random_logical(d)
    buf = np.concatenate([d.to_physical(x), np.zeros(max(0, d.offset0 + p.volume - d.buffer_nelems),
                                                     d.dtype.np_dtype)])
    view = buf[d.offset0:d.offset0 + p.volume].reshape(p.shape)
    assert np.array_equal(view[tuple(coords)], x)


def test_pitch_none_for_interleaved_strides():
    d = MemoryDesc((2, 3), strides=(3, 2))          # offsets 0 2 4 3 5 7: one-to-one, not nested
    assert d.pitch() is None
    d = MemoryDesc((3, 4), strides=(2, 7))          # nested but 7 is no multiple of 2
    assert d.pitch() is None


def test_pitch_row_pitch_example():
    d = MemoryDesc((3, 5), strides=(8, 1), offset0=2)   # 3 rows of 5 in rows of 8
    p = d.pitch()
    assert p == Pitch(order=(0, 1), shape=(3, 8), data_shape=(3, 5), has_gap_dim=False)
    d = MemoryDesc((3, 4), strides=(8, 2))              # every other element: a gap dim of 2
    p = d.pitch()
    assert p.shape == (3, 4, 2) and p.data_shape == (3, 4, 1) and p.has_gap_dim


# ----------------------------------------------------------------------------------------------------
# Worked examples: oneDNN's guide and MegEngine's formats


def test_nChw8c_C17_worked_example():
    """oneDNN guide: nChw8c with C=17 pads C to div_up(17, 8) * 8 = 24; strides use C_padded."""
    N, C, H, W = 2, 17, 5, 4
    d = MemoryDesc((N, C, H, W), "f32", "nChw8c")
    C_padded = 24
    assert d.dims == (N, C, H, W)
    assert d.padded_dims == (N, C_padded, H, W)
    assert d.strides == (C_padded * H * W, H * W * 8, W * 8, 8)
    assert d.blocks == ((1, 8),) and d.inner_size == 8 and d.block_of(1) == 8
    assert d.order == (0, 1, 2, 3)
    assert d.physical_shape == (N, 3, H, W, 8)
    assert d.buffer_nelems == N * C_padded * H * W == 960
    assert d.size_bytes == 960 * 4 != N * C * H * W * 4
    assert d.padding_mask().sum() == N * (C_padded - C) * H * W
    assert d.format_name() == "aBcd8b"


def _formula(dims, fn):
    n, c, h, w = index_grid(dims)
    return np.broadcast_to(fn(n, c, h, w), dims)


@pytest.mark.parametrize("tag, dims, fn", [
    ("nchw", (2, 3, 4, 5), lambda n, c, h, w, C=3, H=4, W=5: n * C * H * W + c * H * W + h * W + w),
    ("nhwc", (2, 3, 4, 5), lambda n, c, h, w, C=3, H=4, W=5: n * H * W * C + h * W * C + w * C + c),
    ("chwn", (2, 3, 4, 5), lambda n, c, h, w, N=2, H=4, W=5: c * H * W * N + h * W * N + w * N + n),
    ("nChw8c", (2, 17, 5, 4), lambda n, c, h, w, C=24, H=5, W=4:
        n * C * H * W + (c // 8) * H * W * 8 + h * W * 8 + w * 8 + c % 8),
    ("CHWN4", (3, 6, 2, 5), lambda n, c, h, w, N=3, H=2, W=5:
        (c // 4) * H * W * N * 4 + h * W * N * 4 + w * N * 4 + n * 4 + c % 4),
    ("NCHW4", (2, 6, 3, 2), lambda n, c, h, w, C=8, H=3, W=2:
        n * (C // 4) * H * W * 4 + (c // 4) * H * W * 4 + h * W * 4 + w * 4 + c % 4),
    ("OIhw4i16o4i", (20, 19, 2, 3), lambda o, i, h, w, I=32, H=2, W=3:
        (o // 16) * I * H * W * 16 + (i // 16) * H * W * 256 + h * W * 256 + w * 256
        + ((i % 16) // 4) * 64 + (o % 16) * 4 + i % 4),
])
def test_offset_formulas_of_the_docstring(tag, dims, fn):
    d = MemoryDesc(dims, "f32", tag)
    assert np.array_equal(d.offsets(), _formula(dims, fn))
    assert np.array_equal(d.offsets(padded=True), _formula(d.padded_dims, fn))


def test_strided_offset_formula():
    d = MemoryDesc((2, 3, 4, 5), "f32", strides=(200, 60, 12, 2), offset0=7)
    n, c, h, w = index_grid(d.dims)
    assert np.array_equal(d.offsets(), np.broadcast_to(7 + n * 200 + c * 60 + h * 12 + w * 2, d.dims))
    assert d.buffer_nelems == 7 + 200 + 120 + 36 + 8 + 1


@pytest.mark.parametrize("ndims, tags", [
    (4, ["nChw16c", "aBcd16b", "NCHW16c", "aBx16b"]),
    (4, ["NCHW4", "aBcd4b", "nChw4c", "NCHW4c"]),
    (4, ["NCHW32", "aBcd32b", "nChw32c"]),
    (4, ["OIhw16i16o", "ABcd16b16a", "OIHW16i16o"]),
    (4, ["OIhw4i16o4i", "ABcd4b16a4b", "OIHW4i16o4i"]),
    (4, ["hwio", "cdba", "HWIO", "xba"]),
    (4, ["nhwc", "acdb", "NHWC", "axb", "ohwi"]),
    (4, ["nchw", "abcd", "NCHW", "abx", "oihw", "goiw"]),
    (4, ["chwn", "bcda", "ihwo"]),
    (4, ["CHWN4", "Bcda4b"]),
    (5, ["abx", "abcde", "ncdhw", "goihw"]),
    (5, ["nCdhw16c", "aBcde16b", "aBx16b", "NCDHW16c"]),
    (5, ["gOIhw16i16o", "aBCde16c16b"]),
    (5, ["Goihw16g", "Abcde16a"]),
    (3, ["axb", "acb", "nwc"]),
    (2, ["ba", "io", "cn", "xba"]),
    (1, ["x", "a", "abx"]),
])
def test_tag_equivalences(ndims, tags):
    dims = (3, 17, 5, 2, 4, 3)[:ndims]
    descs = [MemoryDesc(dims, "f32", t) for t in tags]
    first = descs[0]
    for t, d in zip(tags, descs):
        assert parse_tag(t, ndims) == parse_tag(tags[0], ndims), t
        assert d == first and hash(d) == hash(first), t
        assert d.format_name() == first.format_name()
    assert len(set(descs)) == 1


@pytest.mark.parametrize("tag, ndims, canon", [
    ("abx", 1, "a"), ("abx", 2, "ab"), ("abx", 6, "abcdef"), ("axb", 1, "a"), ("axb", 2, "ab"),
    ("xba", 1, "a"), ("xba", 2, "ba"), ("xba", 3, "cba"), ("aBx16b", 1, "a"), ("aBx16b", 2, "aB16b"),
    ("aBx8b", 5, "aBcde8b"), ("abcx", 2, "ab"),
])
def test_meta_tags_trim_to_the_rank(tag, ndims, canon):
    """benchdnn's normalize_tag: a meta tag drops the dims it names beyond ndims, with their blocks, so
    the default --stag=abx works for a 1-D problem."""
    assert parse_tag(tag, ndims).tag() == canon


def test_padded_dims_keyword():
    d = MemoryDesc((2, 17), "f32", "aB8b", padded_dims=(2, 32))        # more padding than needed: legal
    assert d.strides == (32, 8) and d.buffer_nelems == 64 and d.format_name() == "aB8b_p2x32"
    assert d.padding_mask().sum() == 2 * 15
    assert np.array_equal(d.from_physical(d.to_physical(np.ones((2, 17), np.float32))), np.ones((2, 17)))
    for bad in ((2, 16), (2, 20), (2,), (1, 24)):
        with pytest.raises(FormatError, match="padded dims"):
            MemoryDesc((2, 17), "f32", "aB8b", padded_dims=bad)
    with pytest.raises(FormatError, match="no padding"):
        MemoryDesc((2, 3), "f32", strides=(3, 1), padded_dims=(2, 5))


def test_megengine_formats_need_four_dims():
    for t in ("NCHW4", "NCHW32", "NCHW64", "CHWN4"):
        with pytest.raises(FormatError, match="4 dims"):
            parse_tag(t, 5)


@pytest.mark.parametrize("tag, ndims, outer, blocks", [
    ("AB16b16a2b", 2, (0, 1), ((1, 16), (0, 16), (1, 2))),
    ("ABcd16b16a", 4, (0, 1, 2, 3), ((1, 16), (0, 16))),
    ("aBcd8b", 4, (0, 1, 2, 3), ((1, 8),)),
    ("acdb", 4, (0, 2, 3, 1), ()),
    ("xba", 5, (2, 3, 4, 1, 0), ()),
    ("aBx16b", 5, (0, 1, 2, 3, 4), ((1, 16),)),
    ("OIhw4i16o4i", 4, (0, 1, 2, 3), ((1, 4), (0, 16), (1, 4))),
    ("gOIhw16i16o", 5, (0, 1, 2, 3, 4), ((2, 16), (1, 16))),
    ("Goihw16g", 5, (0, 1, 2, 3, 4), ((0, 16),)),
    ("CHWN4", 4, (1, 2, 3, 0), ((1, 4),)),
])
def test_parse_tag_structure(tag, ndims, outer, blocks):
    b = parse_tag(tag, ndims)
    assert b.outer_order == outer and b.blocks == blocks
    assert parse_tag(b.tag(), ndims) == b


def test_multi_level_blocking_digit_order():
    """A dim blocked twice: the outer block takes the higher digit (OIhw4i16o4i: i = 4*(i%16//4) + i%4)."""
    d = MemoryDesc((16, 16, 1, 1), "f32", "OIhw4i16o4i")
    assert d.offset((0, 1, 0, 0)) == 1
    assert d.offset((0, 4, 0, 0)) == 64
    assert d.offset((1, 0, 0, 0)) == 4
    d = MemoryDesc((16, 32), "f32", "AB16b16a2b")      # b: 16 blocks of 2, a inside them
    assert d.offset((0, 1)) == 1 and d.offset((1, 0)) == 2 and d.offset((0, 2)) == 32
    assert d.offset((0, 16)) == 256 and d.buffer_nelems == 512


# ----------------------------------------------------------------------------------------------------
# Explicit strides


@settings(max_examples=200, **SETTINGS)
@given(dims_st(max_rank=3, max_dim=5), st.data())
def test_strides_accepted_iff_one_to_one(dims, data):
    """Random strides: the descriptor is built exactly when no two indices share an offset."""
    strides = tuple(data.draw(st.lists(st.integers(0, 9), min_size=len(dims), max_size=len(dims))))
    offs = strided_reference(dims, strides).ravel()
    injective = np.unique(offs).size == offs.size
    if injective:
        d = MemoryDesc(dims, "f32", strides=strides)
        assert np.array_equal(d.offsets().ravel(), offs)
        assert d.tag is None and not d.is_blocked
    else:
        with pytest.raises(FormatError, match="overlap"):
            MemoryDesc(dims, "f32", strides=strides)


def test_strided_equals_plain_tag_with_same_strides():
    for tag in ("abcd", "acdb", "cdba", "bcda"):
        t = MemoryDesc((2, 3, 4, 5), "f32", tag)
        s = MemoryDesc((2, 3, 4, 5), "f32", strides=t.strides)
        assert s == t and hash(s) == hash(t)
        assert s.order == t.order and s.physical_shape == t.physical_shape


def test_strides_errors():
    with pytest.raises(FormatError, match="3 strides given for 2 dims"):
        MemoryDesc((2, 3), strides=(3, 1, 1))
    with pytest.raises(FormatError, match="non-negative"):
        MemoryDesc((2, 3), strides=(-3, 1))
    with pytest.raises(FormatError, match="overlap"):
        MemoryDesc((2, 3), strides=(1, 1))
    with pytest.raises(FormatError, match="blocked"):
        MemoryDesc((2, 16, 3, 3), "f32", "nChw8c", strides=(1, 2, 3, 4))
    with pytest.raises(FormatError, match="offset0"):
        MemoryDesc((2, 3), offset0=-1)
    MemoryDesc((1, 1), strides=(0, 0))                  # unit dims: any stride is fine


# ----------------------------------------------------------------------------------------------------
# Sub-memory views


@st.composite
def submemory_case(draw):
    parent, _, _ = draw(tag_desc_st())
    if draw(st.booleans()) and not parent.is_blocked:
        parent = MemoryDesc(parent.dims, "f32", strides=parent.strides, offset0=draw(st.integers(0, 3)))
    sub_dims, offs = [], []
    for k, e in enumerate(parent.dims):
        b = parent.block_of(k)
        off = draw(st.integers(0, e // b)) * b
        rest = e - off
        # oneDNN's rule: a sub-tensor that does not reach the right border covers whole blocks
        choices = [rest] + [m * b for m in range(0, rest // b + 1)]
        sub_dims.append(draw(st.sampled_from(choices)))
        offs.append(off)
    return parent, tuple(sub_dims), tuple(offs)


@settings(max_examples=200, **SETTINGS)
@given(submemory_case())
def test_submemory_is_a_view_of_the_parent(case):
    parent, dims, offs = case
    sub = parent.submemory(dims, offs)
    assert sub.dims == dims and sub.strides == parent.strides and sub.blocks == parent.blocks
    box = tuple(slice(o, o + e) for o, e in zip(offs, dims))
    x = random_logical(parent, seed=3)
    pbuf = parent.to_physical(x)
    if sub.is_zero_volume:
        assert sub.buffer_nelems == 0
        return
    assert np.array_equal(sub.offsets(), parent.offsets()[box])
    assert sub.offset0 == parent.offset(offs)
    assert sub.buffer_nelems <= parent.buffer_nelems
    # read through the view
    assert np.array_equal(sub.from_physical(pbuf[:sub.buffer_nelems]), x[box])
    # write through the view: only the box changes, the parent's padding stays zero
    y = random_logical(sub, seed=4) + 100
    out = pbuf.copy()
    out[:sub.buffer_nelems] = sub.to_physical(y, base=pbuf[:sub.buffer_nelems])
    want = x.copy()
    want[box] = y
    assert np.array_equal(parent.from_physical(out), want), "writing a view must not touch its neighbours"
    assert not out[parent.padding_mask()].any()


def test_submemory_worked_example():
    p = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    s = p.submemory((1, 9, 5, 4), (1, 8, 0, 0))            # right border: takes the parent's tail padding
    assert s.offset0 == 480 + 160 and s.padded_dims == (1, 16, 5, 4)
    assert s.padding_mask().sum() == 7 * 5 * 4
    s = p.submemory((2, 8, 2, 4), (0, 8, 3, 0))            # whole blocks in the middle: no padding
    assert s.offset0 == 160 + 3 * 32 and not s.padding_mask().any()
    r = MemoryDesc((4, 6), "f32", "ab").submemory((2, 3), (1, 2))   # a plain window: row pitch 6
    assert (r.offset0, r.strides, r.buffer_nelems) == (8, (6, 1), 8 + 6 + 3)
    assert r.pitch().shape == (2, 6) and r.pitch().data_shape == (2, 3)


def test_submemory_errors():
    p = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    with pytest.raises(FormatError, match="does not fit"):
        p.submemory((2, 10, 5, 4), (0, 8, 0, 0))            # 8 + 10 > 17
    with pytest.raises(FormatError, match="does not fit"):
        p.submemory((2, 1, 5, 4), (0, -1, 0, 0))
    with pytest.raises(FormatError, match="multiple of its block"):
        p.submemory((2, 8, 5, 4), (0, 4, 0, 0))             # cannot start mid-block
    with pytest.raises(FormatError):
        p.submemory((2, 8, 5), (0, 0, 0))                   # rank mismatch
    with pytest.raises(FormatError):
        p.submemory((2, 8, 5, -1), (0, 0, 0, 0))


def test_submemory_partial_block_in_the_middle_is_rejected():
    """oneDNN (memory_desc_init_submemory) refuses a view that ends mid-block before the right border:
    its tail would be the neighbours' data, which a write through the view would zero as padding."""
    p = MemoryDesc((1, 24, 1, 1), "f32", "nChw8c")
    with pytest.raises(FormatError, match="block"):
        p.submemory((1, 12, 1, 1), (0, 0, 0, 0))


def test_submemory_zero_volume_at_the_end():
    p = MemoryDesc((2, 3), "f32", "ab")
    s = p.submemory((2, 0), (0, 3))                         # legal: an empty window at the border
    assert s.is_zero_volume and s.buffer_nelems == 0 and s.size_bytes == 0


# ----------------------------------------------------------------------------------------------------
# reshape


@st.composite
def reshape_target(draw, dims):
    """New dims reachable by merging neighbours, splitting a dim, or adding / removing unit dims."""
    new = list(dims)
    for _ in range(draw(st.integers(1, 3))):
        ops = ["add1"] if len(new) < 6 else []
        if len(new) > 1:
            ops += ["merge"]
            if 1 in new:
                ops += ["drop1"]
        splittable = [k for k, e in enumerate(new) if any(e % f == 0 for f in range(2, e))]
        if splittable and len(new) < 6:
            ops += ["split"]
        if not ops:
            break
        op = draw(st.sampled_from(ops))
        if op == "add1":
            new.insert(draw(st.integers(0, len(new))), 1)
        elif op == "drop1":
            new.pop(draw(st.sampled_from([k for k, e in enumerate(new) if e == 1])))
        elif op == "merge":
            k = draw(st.integers(0, len(new) - 2))
            new[k:k + 2] = [new[k] * new[k + 1]]
        else:
            k = draw(st.sampled_from(splittable))
            f = draw(st.sampled_from([f for f in range(2, new[k]) if new[k] % f == 0]))
            new[k:k + 1] = [f, new[k] // f]
    return tuple(new)


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_reshape_plain_contiguous_is_numpy_reshape(data):
    dims = data.draw(dims_st(min_dim=1))
    new = data.draw(reshape_target(dims))
    d = MemoryDesc(dims, "f32", "abx", offset0=data.draw(st.sampled_from((0, 5))))
    r = d.reshape(new)
    assert r.dims == new and r.offset0 == d.offset0 and r.buffer_nelems == d.buffer_nelems
    x = random_logical(d)
    assert np.array_equal(r.from_physical(d.to_physical(x)), x.reshape(new))


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_reshape_any_format_is_correct_or_refused(data):
    """Any format: reshape either describes the same bytes as NumPy's reshape or raises FormatError."""
    d, kind = data.draw(any_desc_st())
    assume(all(e > 0 for e in d.dims))
    new = data.draw(reshape_target(d.dims))
    try:
        r = d.reshape(new)
    except FormatError:
        return
    assert r.dims == new and r.buffer_nelems == d.buffer_nelems and r.dtype == d.dtype
    x = random_logical(d)
    buf = d.to_physical(x)
    assert np.array_equal(r.from_physical(buf), x.reshape(new))
    assert np.array_equal(r.offsets(), d.offsets().reshape(new))
    assert np.array_equal(np.flatnonzero(r.padding_mask()), np.flatnonzero(d.padding_mask()))


@settings(max_examples=150, **SETTINGS)
@given(st.data())
def test_reshape_adding_unit_dims_always_works(data):
    """oneDNN: "Add a dimension of size 1. This is always possible." -- next to blocked dims too."""
    d, _, _ = data.draw(tag_desc_st(min_rank=1))
    assume(all(e > 0 for e in d.dims) and d.ndims < 6)
    k = data.draw(st.integers(0, d.ndims))
    new = d.dims[:k] + (1,) + d.dims[k:]
    r = d.reshape(new)
    x = random_logical(d)
    assert np.array_equal(r.from_physical(d.to_physical(x)), x.reshape(new))
    assert np.array_equal(r.reshape(d.dims).offsets(), d.offsets())


def test_reshape_examples_and_errors():
    d = MemoryDesc((2, 16, 3, 3), "f32", "nChw8c")
    r = d.reshape((2, 16, 9))                                # spatial dims merge; the blocked dim stays
    assert r.blocks == ((1, 8),) and r.strides == (144, 72, 8)
    x = random_logical(d)
    assert np.array_equal(r.from_physical(d.to_physical(x)), x.reshape(2, 16, 9))
    with pytest.raises(FormatError, match="blocked"):
        d.reshape((32, 3, 3))                                # would merge n into the blocked C
    with pytest.raises(FormatError, match="elements"):
        d.reshape((2, 16, 10))
    with pytest.raises(FormatError, match="contiguous|copy"):
        MemoryDesc((2, 3), "f32", "ba").reshape((6,))        # NumPy would copy here
    with pytest.raises(FormatError, match="contiguous|copy"):
        MemoryDesc((2, 3), strides=(4, 1)).reshape((6,))     # a row pitch is no longer one row
    assert MemoryDesc((2, 3), strides=(4, 1)).reshape((2, 3, 1)).strides[:2] == (4, 1)
    z = MemoryDesc((2, 0, 3), "f32", "acb").reshape((0, 6))
    assert z.dims == (0, 6) and z.is_zero_volume and z.buffer_nelems == 0


# ----------------------------------------------------------------------------------------------------
# permute_axes


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_permute_axes_is_a_transpose(data):
    d, _ = data.draw(any_desc_st())
    perm = tuple(data.draw(st.permutations(range(d.ndims))))
    p = d.permute_axes(perm)
    for i, q in enumerate(perm):
        assert p.dims[q] == d.dims[i]
    assert p.buffer_nelems == d.buffer_nelems and p.size_bytes == d.size_bytes
    x = random_logical(d)
    buf = d.to_physical(x)
    assert np.array_equal(p.from_physical(buf), np.transpose(x, np.argsort(perm)))
    assert np.array_equal(p.to_physical(np.transpose(x, np.argsort(perm))), buf)
    assert np.array_equal(p.padding_mask(), d.padding_mask())
    assert p.permute_axes(tuple(np.argsort(perm))) == d


def test_permute_axes_examples():
    # oneDNN's documented example: ab {2, 3} permuted by {1, 0} equals ba {3, 2}
    assert MemoryDesc((2, 3), "f32", "ab").permute_axes((1, 0)) == MemoryDesc((3, 2), "f32", "ba")
    d = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c").permute_axes((0, 3, 1, 2))   # c becomes the last dim
    assert d.dims == (2, 5, 4, 17) and d.blocks == ((3, 8),) and d.tag == "aDbc8d"
    assert d == MemoryDesc((2, 5, 4, 17), "f32", "aDbc8d")
    with pytest.raises(FormatError, match="permutation"):
        MemoryDesc((2, 3), "f32", "ab").permute_axes((0, 0))
    with pytest.raises(FormatError, match="permutation"):
        MemoryDesc((2, 3), "f32", "ab").permute_axes((0, 1, 2))


# ----------------------------------------------------------------------------------------------------
# Zero-volume descriptors


@pytest.mark.parametrize("dims, tag", [
    ((0,), "a"), ((2, 0, 3), "abc"), ((2, 0, 3), "acb"), ((0, 17, 5, 4), "nChw8c"), ((2, 0, 5, 4), "nChw16c"),
    ((0, 3, 4, 5), "ABcd4b16a4b"), ((3, 4, 0, 5), "CHWN4"), ((0, 0, 0, 0, 0, 0), "abx"),
])
def test_zero_volume_descriptors_are_legal(dims, tag):
    d = MemoryDesc(dims, "f32", tag)
    assert d.is_zero_volume and d.nelems == 0
    assert d.buffer_nelems == 0 and d.size_bytes == 0 and d.span == 0
    assert d.is_dense and math.prod(d.physical_shape) == 0
    buf = d.to_physical(np.zeros(dims, np.float32))
    assert buf.shape == (0,)
    assert d.from_physical(buf).shape == dims
    assert d.padding_mask().shape == (0,)
    assert d.offsets().shape == dims
    assert d == MemoryDesc(dims, "f32", tag) and "0" in d.describe()


# ----------------------------------------------------------------------------------------------------
# Identity, names, errors of the descriptor itself


@settings(max_examples=200, **SETTINGS)
@given(tag_desc_st(), DTYPES)
def test_equality_and_hash(case, dt):
    d, tag, canon = case
    d = d.with_dtype(dt)
    same = MemoryDesc(d.dims, dt, canon)
    assert same == d and hash(same) == hash(d)
    assert {d: 1}[same] == 1
    assert d.format_name() == same.format_name()
    other_dt = "s8" if dt != "s8" else "u8"
    assert d.with_dtype(other_dt) != d
    assert d != MemoryDesc(d.dims, dt, canon, offset0=1)
    assert d != "abcd" and d != None  # noqa: E711
    if d.is_blocked and not d.is_zero_volume:
        plain = MemoryDesc(d.dims, dt, "abx")
        assert plain != d


def test_format_names_distinguish_distinct_descriptors():
    """Kernel names are built from format_name; two different layouts must never share one."""
    plain = MemoryDesc((1, 8, 5, 4), "f32", strides=(480, 160, 32, 8))       # a plain strided view
    sub = MemoryDesc((1, 24, 5, 4), "f32", "nChw8c").submemory((1, 8, 5, 4), (0, 0, 0, 0))
    assert sub.strides == plain.strides and sub != plain
    assert sub.format_name() != plain.format_name()
    names = {MemoryDesc((2, 3, 4), "f32", t).format_name() for t in ("abc", "acb", "bac", "bca", "cab", "cba")}
    assert len(names) == 6


def test_describe_and_repr():
    d = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    text = d.describe()
    for line in ("dims:           2x17x5x4", "padded dims:    2x24x5x4", "strides:        480x160x32x8",
                 "inner blocks:   8b", "physical shape: 2x3x5x4x8", "size:           3840 bytes"):
        assert line in text
    assert repr(d) == "MemoryDesc(2x17x5x4, f32, aBcd8b)"
    assert MemoryDesc((3, 5), strides=(8, 1), offset0=2).format_name() == "s8x1_o2"


@pytest.mark.parametrize("dims", [(2, -1), (), (1, 2, 3, 4, 5, 6, 7), (2.5, 3), ("a", 3)])
def test_bad_dims(dims):
    with pytest.raises(FormatError):
        MemoryDesc(dims, "f32")


@pytest.mark.parametrize("tag, ndims, match", [
    ("foo", 2, "unknown format tag"),
    ("nChw8c", 3, "4 dims but 3"),
    ("aBcd", 4, "upper-case 'B'"),
    ("abcd8b", 4, "upper case"),
    ("aBcd0b", 4, "positive"),
    ("aBcd8e", 4, "names no dim"),
    ("abb", 3, "twice"),
    ("abc", 4, "3 dims but 4"),
    ("axbx", 4, "once"),
    ("any", 4, "any"),
    ("undef", 4, "undef"),
    ("", 4, "non-empty"),
    ("nChW8c", 4, None),
    ("nhw", 3, "data"),
    ("ncdw", 4, "spatial"),
    ("NCHW4", 3, "4 dims"),
    ("ab-c", 3, "unknown format tag"),
    ("abcdefghijklm", 13, None),
])
def test_bad_tags(tag, ndims, match):
    with pytest.raises(FormatError, match=match):
        parse_tag(tag, ndims)


def test_bad_dtype_and_buffers():
    with pytest.raises(FormatError, match="unknown data type 'f77'"):
        get_dtype("f77")
    assert get_dtype("float32").name == "f32" and get_dtype("bf16").np_dtype == np.dtype(ml_dtypes.bfloat16)
    d = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    with pytest.raises(InputError, match="1-D array of 960"):
        d.check_buffer(np.zeros(959, np.float32))
    with pytest.raises(InputError, match="dtype"):
        d.check_buffer(np.zeros(960, np.float64))
    with pytest.raises(InputError, match="shape"):
        d.check_buffer(np.zeros((2, 480), np.float32))
    with pytest.raises(InputError, match="NumPy array"):
        d.check_buffer([0.0] * 960)
    with pytest.raises(InputError, match="logical array"):
        d.to_physical(np.zeros((2, 16, 5, 4), np.float32))
    with pytest.raises(FormatError, match="outside"):
        d.offset((0, 24, 0, 0))
    assert d.offset((0, 23, 0, 0)) == 2 * 160 + 7          # padded indices are addressable


def test_all_named_tags_parse_for_their_rank():
    for rank, tags in NAMED.items():
        for tag, canon in tags:
            assert parse_tag(tag, rank).tag() == canon, tag
            for other in {1, 2, 3, 4, 5, 6} - {rank}:
                with pytest.raises(FormatError):
                    parse_tag(tag, other)


def test_every_plain_permutation_of_rank_4():
    dims = (2, 3, 4, 5)
    for perm in itertools.permutations(range(4)):
        tag = "".join(LET[d] for d in perm)
        d = MemoryDesc(dims, "f32", tag)
        assert d.order == perm and d.is_dense
        assert np.array_equal(d.from_physical(np.arange(120, dtype=np.float32)).transpose(perm).ravel(),
                              np.arange(120, dtype=np.float32))


def test_pitch_window_reads_a_view_from_the_buffer_head():
    """`Pitch.window`: a view of rows h0..h1 of every channel, read from element 0 of its parent's
    buffer, is the parent's dense shape with the view's corner at (0, 0, h0, 0); an offset that is not
    a corner of the pitch, or a buffer too short for it, has none."""
    parent = MemoryDesc((1, 4, 6, 5), "f32", "nchw")
    view = parent.submemory((1, 4, 2, 5), (0, 0, 3, 0))
    p = view.pitch()
    assert (p.shape, p.data_shape, view.offset0) == ((1, 4, 6, 5), (1, 4, 2, 5), 15)
    assert p.window(view.offset0, parent.buffer_nelems) == ((1, 4, 6, 5), (0, 0, 3, 0))
    assert p.window(view.offset0, parent.buffer_nelems - 1) is None       # the buffer ends early
    assert p.window(view.offset0 + 25, 10 ** 6) is None                   # a corner at channel 1: 4 overrun
    assert p.window(2 * 120 + 15, 3 * 120) == ((3, 4, 6, 5), (2, 0, 3, 0))  # the outer dim grows
    # the read plan: the view's own pitch where it fits after its offset, else the window, else None
    assert p.read_plan(view.offset0, parent.buffer_nelems) == (0, (1, 4, 6, 5), (0, 0, 3, 0))
    assert p.read_plan(view.offset0, view.offset0 + p.volume) == (15, (1, 4, 6, 5), (0, 0, 0, 0))
    assert p.read_plan(view.offset0 + 25, parent.buffer_nelems) is None
