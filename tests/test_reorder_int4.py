"""s4 / u4 reorders: oneDNN's packed 4-bit storage, the NumPy model and the kernels.

oneDNN stores 4-bit integers two per byte, LOW NIBBLE FIRST, in the order of the physical buffer:
buffer element `o` (the offset function's value, padding and gaps included) is bits 4*(o%2)..+3 of
byte o//2, and an odd element count leaves the last byte's high nibble zero. The physical NumPy
buffer of an s4 / u4 descriptor is those bytes (uint8, ceil(n/2)).

The oracle here is written independently of `MemoryDesc.to_physical` / `pack_int4`: it reads the
nibble of each logical index straight out of the kernel's bytes with the formula above (through the
offset function `MemoryDesc.offsets`, which test_layout checks), and rounds with NumPy's rint
(ties to even) and clips to -8..7 / 0..15 on its own. Sections: pack/unpack helpers; descriptors;
the float64 reference; kernels on llvm-cpu (tails, odd counts, views with an odd offset0, chains,
quantization, saturation and ties); bad input; Vulkan (lavapipe); convolutions refuse 4-bit data.
"""
from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np
import pytest

from generator.api import build_reorders, make_problem, reorder, reorder_chain
from generator.compile import vulkan_device_available
from generator.emit.reorder import render_reorder
from generator.errors import InputError, UnsupportedError
from generator.layout import MemoryDesc, get_dtype, pack_int4, unpack_int4
from generator.verify import check_reorder

# Deliberately fixed: every fill below derives from it, and a failure names it.
SEED = 4004

RANGE = {"s4": (-8, 7), "u4": (0, 15)}


# =============================================================================================
# The independent oracle
# =============================================================================================

def nibble_at(buf: np.ndarray, offsets: np.ndarray, signed: bool) -> np.ndarray:
    """The 4-bit values at element offsets of a packed buffer: (byte[o // 2] >> 4 * (o % 2)) & 15."""
    b = buf.astype(np.int64)[offsets // 2]
    v = (b >> (4 * (offsets % 2))) & 15
    return np.where(v >= 8, v - 16, v) if signed else v


def to_4bit(x: np.ndarray, dt: str) -> np.ndarray:
    lo, hi = RANGE[dt]
    return np.clip(np.rint(np.asarray(x, np.float64)), lo, hi).astype(np.int64)


def assert_packed(got: np.ndarray, dst: MemoryDesc, want_logical: np.ndarray, where: str) -> None:
    """`got` holds `want_logical` at the destination's offsets, zero nibbles in the padded tail and
    in the unused last nibble of an odd count."""
    assert got.dtype == np.uint8 and got.shape == (-(-dst.buffer_nelems // 2),), \
        f"{where}: result is {got.dtype}{list(got.shape)}, expected uint8[{-(-dst.buffer_nelems // 2)}]"
    signed = dst.dtype.name == "s4"
    vals = nibble_at(got, dst.offsets(), signed)
    bad = np.argwhere(vals != want_logical)
    assert bad.size == 0, (f"{where}: {len(bad)} of {want_logical.size} elements differ, first at "
                           f"{tuple(bad[0])}: {vals[tuple(bad[0])]} != {want_logical[tuple(bad[0])]} "
                           f"(seed {SEED})")
    pad = np.flatnonzero(dst.padding_mask())
    assert not np.any(nibble_at(got, pad, signed)), f"{where}: padded nibbles are not zero"
    if dst.buffer_nelems % 2:
        assert got[-1] >> 4 == 0, f"{where}: the unused high nibble of the last byte is {got[-1] >> 4}"


def packed_source(desc: MemoryDesc, logical: np.ndarray, rng) -> np.ndarray:
    """A 4-bit source buffer written with the formula (not `to_physical`): `logical` at its offsets,
    random nibbles in gaps (the kernel must ignore them), zeros in the padded tail."""
    lo, hi = RANGE[desc.dtype.name]
    n = desc.buffer_nelems
    elems = rng.integers(lo, hi + 1, n + (n % 2))
    if desc.is_blocked:
        elems[desc.offsets(padded=True).ravel()] = 0
    elems[desc.offsets().ravel()] = np.asarray(logical, np.int64).ravel()
    if n % 2:
        elems[-1] = 0
    nib = elems & 15
    return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)


# =============================================================================================
# pack_int4 / unpack_int4
# =============================================================================================

def test_pack_is_low_nibble_first():
    assert pack_int4(np.array([1, 15], np.int8)).tolist() == [0xF1]
    assert pack_int4(np.array([1, -2, 3], np.int8)).tolist() == [0xE1, 0x03]      # odd: high nibble 0
    assert pack_int4(np.array([-8, 7, 0, -1], np.int8).astype(ml_dtypes.int4)).tolist() == [0x78, 0xF0]
    assert pack_int4(np.array([15, 0, 9], np.uint8).astype(ml_dtypes.uint4)).tolist() == [0x0F, 0x09]
    assert pack_int4(np.zeros(0, np.int8)).shape == (0,)


def test_unpack_sign_extends_s4_and_not_u4():
    b = np.array([0x8F, 0x71], np.uint8)
    assert unpack_int4(b, 4, signed=True).astype(int).tolist() == [-1, -8, 1, 7]
    assert unpack_int4(b, 4, signed=False).astype(int).tolist() == [15, 8, 1, 7]
    assert unpack_int4(b, 3, signed=True).dtype == np.dtype(ml_dtypes.int4)
    assert unpack_int4(b, 3, signed=False).dtype == np.dtype(ml_dtypes.uint4)


@pytest.mark.parametrize("n", [1, 2, 7, 64, 255])
@pytest.mark.parametrize("dt", ["s4", "u4"])
def test_pack_unpack_round_trip(n, dt):
    rng = np.random.default_rng(SEED + n)
    lo, hi = RANGE[dt]
    v = rng.integers(lo, hi + 1, n)
    packed = pack_int4(v.astype(get_dtype(dt).np_dtype))
    assert packed.shape == ((n + 1) // 2,)
    assert np.array_equal(nibble_at(packed, np.arange(n), dt == "s4"), v)
    assert np.array_equal(unpack_int4(packed, n, dt == "s4").astype(np.int64), v)


def test_pack_unpack_refuse_bad_input():
    with pytest.raises(InputError, match="3 bytes, got 2"):
        unpack_int4(np.zeros(2, np.uint8), 5)
    with pytest.raises(InputError, match="uint8"):
        unpack_int4(np.zeros(3, np.float32), 5)
    with pytest.raises(InputError, match="16 does not fit in 4 bits"):
        pack_int4(np.array([1, 16]))
    with pytest.raises(InputError, match="1-D"):
        pack_int4(np.zeros((2, 2), np.int8))


# =============================================================================================
# Descriptors
# =============================================================================================

def test_data_type_table():
    s4, u4 = get_dtype("s4"), get_dtype("u4")
    assert (s4.bits, s4.min, s4.max, s4.signed, s4.mlir) == (4, -8.0, 7.0, True, "i8")
    assert (u4.bits, u4.min, u4.max, u4.signed, u4.mlir) == (4, 0.0, 15.0, False, "i8")
    assert get_dtype("int4") is s4 and get_dtype("uint4") is u4
    assert get_dtype("s8").bits == 8 and not get_dtype("s8").is_packed


@pytest.mark.parametrize("dims,tag,nelems", [((3, 7, 5), "aBc3b", 135), ((2, 17, 3, 3), "aBcd16b", 576),
                                             ((15, 17), "ba", 255), ((2, 20, 18, 2, 2), "gOIhw8i16o2i", 8192)])
def test_buffer_sizes_count_bytes(dims, tag, nelems):
    d = MemoryDesc(dims, "s4", tag)
    assert d.buffer_nelems == nelems
    assert d.buffer_len == d.size_bytes == (nelems + 1) // 2
    assert d.buffer_dtype == np.uint8


@pytest.mark.parametrize("dt", ["s4", "u4"])
@pytest.mark.parametrize("dims,tag", [((3, 7, 5), "aBc3b"), ((2, 17, 3, 3), "aBcd16b"), ((15, 17), "ba"),
                                      ((2, 20, 18, 2, 2), "gOIhw8i16o2i"), ((3, 5), "ab")])
def test_to_physical_packs_by_the_offset_function(dt, dims, tag):
    d = MemoryDesc(dims, dt, tag)
    rng = np.random.default_rng(SEED)
    lo, hi = RANGE[dt]
    x = rng.integers(lo, hi + 1, dims)
    buf = d.to_physical(x.astype(d.dtype.np_dtype))
    assert_packed(buf, d, x, f"{dt} {tag}")
    assert np.array_equal(buf, packed_source(d, x, rng))
    assert np.array_equal(d.from_physical(buf).astype(np.int64), x)


def test_to_physical_keeps_the_base_outside_an_odd_offset_view():
    """A strided u4 view starting at element 3 (the high nibble of byte 1): the other nibbles keep
    the old buffer's values."""
    d = MemoryDesc((3, 5), "u4", strides=(7, 1), offset0=3)
    old = np.arange(d.buffer_nelems) % 16
    base = pack_int4(old)
    x = np.arange(15).reshape(3, 5) % 7 + 8
    got = d.to_physical(x.astype(ml_dtypes.uint4), base=base)
    want = old.copy()
    want[d.offsets().ravel()] = x.ravel()
    assert np.array_equal(nibble_at(got, np.arange(d.buffer_nelems), False), want)


def test_check_buffer_wants_packed_bytes():
    d = MemoryDesc((3, 5), "s4", "ab")
    d.check_buffer(np.zeros(8, np.uint8))
    for bad in (np.zeros(15, np.uint8), np.zeros(15, ml_dtypes.int4), np.zeros(8, np.int8),
                np.zeros((2, 4), np.uint8)):
        with pytest.raises(InputError, match="8 packed bytes"):
            d.check_buffer(bad)


# =============================================================================================
# The float64 reference: round to nearest even, saturate to the 4-bit range
# =============================================================================================

TIES = np.array([-100, -9.5, -8.5, -7.5, -2.5, -0.5, 0.5, 1.5, 2.5, 6.5, 7.5, 8.5, 14.5, 15.5, 16, 1e9],
                np.float32)
WANT_S4 = [-8, -8, -8, -8, -2, 0, 0, 2, 2, 6, 7, 7, 7, 7, 7, 7]
WANT_U4 = [0, 0, 0, 0, 0, 0, 0, 2, 2, 6, 8, 8, 14, 15, 15, 15]


@pytest.mark.parametrize("dt,want", [("s4", WANT_S4), ("u4", WANT_U4)])
def test_reference_rounds_ties_to_even_and_saturates(dt, want):
    assert to_4bit(TIES, dt).tolist() == want                # the oracle agrees with the table
    src, dst = MemoryDesc((1, 16), "f32", "ab"), MemoryDesc((1, 16), dt, "ab")
    y = make_problem(src, dst).reference(src.to_physical(TIES.reshape(1, 16)))
    assert nibble_at(y, np.arange(16), dt == "s4").tolist() == want


# =============================================================================================
# Kernels on llvm-cpu
# =============================================================================================

@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    dims: tuple
    sdt: str
    stag: "str | tuple"           # a tag, or ("strides", strides, offset0)
    ddt: str
    dtag: "str | tuple"
    quant: tuple = ()             # (arg, policy) pairs

    def desc(self, side: str) -> MemoryDesc:
        dt, tag = (self.sdt, self.stag) if side == "src" else (self.ddt, self.dtag)
        if isinstance(tag, tuple):
            return MemoryDesc(self.dims, dt, strides=tag[1], offset0=tag[2])
        return MemoryDesc(self.dims, dt, tag)

    @property
    def problem(self):
        return make_problem(self.desc("src"), self.desc("dst"), **dict(self.quant))


CASES = [
    Case("f32-s4-blocked-tail", (2, 17, 3, 3), "f32", "abcd", "s4", "aBcd16b"),
    Case("f32-u4-blocked-tail", (2, 17, 3, 3), "f32", "acdb", "u4", "aBcd16b"),
    Case("f32-s4-odd-count", (3, 7, 5), "f32", "abc", "s4", "aBc3b"),      # 135 buffer elements
    Case("f32-u4-weights-tail", (2, 20, 18, 2, 2), "f32", "abcde", "u4", "gOIhw8i16o2i"),
    Case("s4-f32-odd-count", (3, 7, 5), "s4", "aBc3b", "f32", "acb"),
    Case("u4-f32-blocked", (2, 17, 3, 3), "u4", "aBcd16b", "f32", "abcd"),
    Case("u4-u4-transpose-odd", (15, 17), "u4", "ab", "u4", "ba"),
    Case("u4-u4-copy-odd", (15, 17), "u4", "ab", "u4", "ab"),
    Case("s4-s4-blocked", (3, 7, 5), "s4", "aBc3b", "s4", "cab"),
    Case("s4-u4-saturate", (4, 9), "s4", "ab", "u4", "ba"),
    Case("u4-s4-saturate", (4, 9), "u4", "ba", "s4", "ab"),
    Case("s8-s4", (5, 7), "s8", "ab", "s4", "ba"),
    Case("u4-s8", (5, 7), "u4", "ab", "s8", "ba"),
    Case("s4-s32", (5, 7), "s4", "ba", "s32", "ab"),
    Case("s4-bf16", (3, 17), "s4", "ab", "bf16", "aB16b"),
    Case("u4-f16", (3, 17), "u4", "aB16b", "f16", "ab"),
    Case("f16-s4", (3, 17), "f16", "ab", "s4", "ba"),
    Case("bf16-u4", (3, 17), "bf16", "ba", "u4", "ab"),
    Case("f32-s4-quant", (2, 17, 3), "f32", "abc", "s4", "aBc8b",
         (("src_scale", "per_dim_1"), ("dst_zp", "common"))),
    Case("s4-f32-quant", (2, 17, 3), "s4", "aBc8b", "f32", "abc", (("src_zp", "common"), ("dst_scale", "common"))),
    Case("s4-strided-odd-offset-src", (3, 5), "s4", ("strides", (7, 1), 3), "f32", "ab"),
    Case("f32-u4-strided-odd-offset-dst", (3, 5), "f32", "ab", "u4", ("strides", (7, 1), 3)),
    Case("u4-s4-strided-dst", (4, 3), "u4", "ba", "s4", ("strides", (1, 9), 1)),
]


def fill_logical(desc: MemoryDesc, dst_dt: str, rng) -> np.ndarray:
    """Logical source values: 4-bit sources over their range; float sources half-integers reaching
    past the destination's range (ties and saturation); other integers over a wide range."""
    dt = desc.dtype
    if dt.is_packed:
        return rng.integers(*RANGE[dt.name], endpoint=True, size=desc.dims)
    if dt.is_int:
        return rng.integers(-128 if dt.signed else 0, 128 if dt.signed else 256, desc.dims)
    if dst_dt in RANGE:
        return rng.integers(-40, 50, desc.dims) / 2
    return rng.integers(-20, 21, desc.dims)


def run_case(c: Case, k):
    """Run `k` on generated data; (got, dst, want_logical) with the oracle's expectation."""
    rng = np.random.default_rng(SEED)
    src, dst = c.desc("src"), c.desc("dst")
    x = fill_logical(src, c.ddt, rng)
    if src.dtype.is_packed:
        buf = packed_source(src, x, rng)
    else:
        garbage = rng.integers(-5, 6, src.buffer_nelems).astype(src.dtype.np_dtype)
        buf = src.to_physical(x.astype(src.dtype.np_dtype), base=garbage)
    # oneDNN's order: dst = (src - src_zp) * src_scale / dst_scale + dst_zp
    q, val = {}, x.astype(np.float64)
    policies = dict(c.quant)
    for arg in ("src_zp", "src_scale", "dst_scale", "dst_zp"):
        if arg not in policies:
            continue
        per_c = policies[arg] == "per_dim_1"
        shape = (dst.dims[1],) if per_c else ()
        if arg.endswith("scale"):
            q[arg] = (2.0 ** rng.integers(-1, 2, shape)).astype(np.float32)
        else:
            q[arg] = rng.integers(-3, 4, shape).astype(np.int32)
        v = q[arg].astype(np.float64).reshape((1, dst.dims[1]) + (1,) * (len(dst.dims) - 2) if per_c else ())
        if arg == "src_zp":
            val = val - v
        elif arg == "src_scale":
            val = val * v
        elif arg == "dst_scale":
            val = val / v
        else:
            val = val + v
    init = None
    if c.problem.needs_dst_init:
        lo, hi = RANGE.get(c.ddt, (-5, 5))
        old = rng.integers(lo, hi + 1, dst.buffer_nelems + (dst.buffer_nelems % 2))
        if dst.dtype.is_packed:
            old[-1] = 0 if dst.buffer_nelems % 2 else old[-1]
            init = ((old[0::2] & 15) | ((old[1::2] & 15) << 4)).astype(np.uint8)
        else:
            init = old[:dst.buffer_nelems].astype(dst.dtype.np_dtype)
    got = k(buf, dst_init=init, **q)
    return got, buf, q, init, val


@pytest.fixture(scope="module")
def cpu_kernels(kgen_cache_dir):
    built = build_reorders([[c.problem] for c in CASES], "llvm-cpu", chunk=12, cache_dir=kgen_cache_dir)
    return dict(zip([c.id for c in CASES], built))


@pytest.mark.parametrize("c", CASES, ids=lambda c: c.id)
def test_kernel_matches_oracle_and_reference(c, cpu_kernels):
    k = cpu_kernels[c.id]
    assert not isinstance(k, Exception), f"{c.id} did not build: {k}"
    got, buf, q, init, val = run_case(c, k)
    dst = c.desc("dst")
    if dst.dtype.is_packed:
        assert_packed(got, dst, to_4bit(val, c.ddt), c.id)
        if init is not None:            # nibbles outside the view keep their old values
            outside = np.setdiff1d(np.arange(dst.buffer_nelems), dst.offsets().ravel())
            assert np.array_equal(nibble_at(got, outside, c.ddt == "s4"),
                                  nibble_at(init, outside, c.ddt == "s4")), f"{c.id}: the view's neighbours changed"
    else:
        want = val if not dst.dtype.is_int else np.clip(np.rint(val), dst.dtype.min, dst.dtype.max)
        assert np.array_equal(dst.from_physical(got).astype(np.float64), want), f"{c.id} (seed {SEED})"
    ref = k.reference(buf, dst_init=init, **q)
    assert got.dtype == ref.dtype and np.array_equal(got, ref), f"{c.id}: kernel and float64 reference differ"
    assert check_reorder(k, c.problem) is None                       # the benchdnn-style check agrees


def test_chain_through_s4_saturates_in_the_middle(kgen_cache_dir):
    dims = (3, 17)
    descs = [MemoryDesc(dims, "f32", "ab"), MemoryDesc(dims, "s4", "aB16b"), MemoryDesc(dims, "f32", "ba")]
    k = reorder_chain(descs, cache_dir=kgen_cache_dir)
    x = (np.arange(51).reshape(dims) - 25) / 2
    y = descs[-1].from_physical(k(descs[0].to_physical(x.astype(np.float32))))
    assert np.array_equal(y, to_4bit(x, "s4").astype(np.float32))


def test_render_is_unpack_relayout_pack():
    p = make_problem(MemoryDesc((3, 5), "s4", "ab"), MemoryDesc((3, 5), "u4", "ba"))
    text = render_reorder(p)
    assert "!src_dst_buf = tensor<8xi8>" in text                     # 15 elements in 8 bytes, both sides
    for line in ("arith.shrsi %v1_l4, %v1_c4 : i8", "tensor.extract_slice %v2[0] [15] [1]",
                 "arith.shli %v", "arith.ori %v", "arith.constant 15 : i32"):
        assert line in text, line
    assert "arith.shrui" not in text                                 # a signed source sign-extends


# =============================================================================================
# Bad input
# =============================================================================================

def test_kernel_refuses_unpacked_or_short_buffers(cpu_kernels):
    c = next(c for c in CASES if c.id == "u4-u4-transpose-odd")
    k = cpu_kernels[c.id]
    for bad in (np.zeros(127, np.uint8), np.zeros(255, ml_dtypes.uint4), np.zeros(255, np.uint8),
                np.zeros(128, np.int8)):
        with pytest.raises(InputError, match="128 packed bytes"):
            k(bad)
    c = next(c for c in CASES if c.id == "f32-u4-strided-odd-offset-dst")
    with pytest.raises(InputError, match="11 packed bytes"):
        cpu_kernels[c.id](c.desc("src").to_physical(np.zeros(c.dims, np.float32)), dst_init=np.zeros(22, np.uint8))


# =============================================================================================
# Vulkan (lavapipe)
# =============================================================================================

VULKAN_CASES = [c for c in CASES if c.id in ("u4-u4-transpose-odd", "f32-u4-weights-tail", "s4-f32-odd-count",
                                             "f32-s4-blocked-tail", "u4-s4-strided-dst")]


@pytest.mark.vulkan
def test_vulkan_kernels(kgen_cache_dir):
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    built = build_reorders([[c.problem] for c in VULKAN_CASES], "vulkan", cache_dir=kgen_cache_dir)
    for c, k in zip(VULKAN_CASES, built):
        assert not isinstance(k, Exception), f"{c.id} did not build on vulkan: {k}"
        got, buf, q, init, val = run_case(c, k)
        dst = c.desc("dst")
        if dst.dtype.is_packed:
            assert_packed(got, dst, to_4bit(val, c.ddt), f"vulkan {c.id}")
        assert np.array_equal(got, k.reference(buf, dst_init=init, **q)), f"vulkan {c.id}"


# =============================================================================================
# Convolutions take no 4-bit data
# =============================================================================================

@pytest.mark.parametrize("which", ["src", "wei", "dst"])
def test_conv_refuses_4bit_tensors(which):
    from generator.benchdnn.conv import conv_problem, parse_conv_args
    from generator.emit.conv import render_conv

    p = conv_problem(next(iter(parse_conv_args(["--dt=s8:s8:f32", "ic4ih5oc4oh5kh3ph1"]))))
    q = dataclasses.replace(p, **{which: getattr(p, which).with_dtype("s4")})
    with pytest.raises(UnsupportedError, match=f"{which} s4"):
        render_conv(q)


def test_zero_volume_4bit_reorder_returns_no_bytes(kgen_cache_dir):
    k = reorder(MemoryDesc((0, 3), "s4", "ab"), MemoryDesc((0, 3), "s4", "ba"), cache_dir=kgen_cache_dir)
    out = k(np.zeros(0, np.uint8))
    assert out.dtype == np.uint8 and out.shape == (0,)
