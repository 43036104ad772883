"""Reorder kernels against the NumPy reference, benchdnn-style.

Every run kernel is checked the way benchdnn checks a reorder: the source is filled with
integer-valued data (scales are powers of two, zero points small integers, so every value the
kernel computes is exact in f32 and the only rounding is the final conversion), the kernel's WHOLE
destination buffer is compared exactly with `ReorderProblem.reference` (the float64 model that
reads and writes buffers through `MemoryDesc`'s offset function only), and the padded area of a
blocked destination is checked to be zero on its own. Destinations with gaps or an offset start
from a random old buffer, whose values outside the view must survive.

The cases are data: tables of tags, shapes and data types below, plus RANDOM_CASES drawn once
from the fixed SEED. Each table's kernels are compiled together by `build_reorders` in one
module-scoped fixture per backend (a handful of shared modules, not one compile per kernel).

Sections: random cases (llvm-cpu); the data/weight format matrix (llvm-cpu); both emission forms
on llvm-cpu (the product's pad+expand+transpose there, and linalg.pack/unpack); Vulkan on lavapipe; CUDA (compile only
without a GPU); chains and dst_init; golden lines of the rendered MLIR; saturation and rounding.
"""
from __future__ import annotations

import math
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pytest

from generator import __version__
from generator.api import ReorderKernel, build_reorders, reorder_chain
from generator.compile import compile_mlir, cuda_device_available, get_backend, vulkan_device_available
from generator.emit.reorder import kernel_name, render_reorder, render_reorder_module
from generator.errors import InputError, KgenError, UnsupportedError
from generator.layout import MemoryDesc
from generator.problem.reorder import Quant, ReorderProblem
from generator.select import reorder_form as select_reorder_form
from generator.verify import check_reorder

from tiers import QUICK_RANDOM_REORDERS, covering, first, quick_values, reorder_key

# Deliberately fixed: the random cases (drawn at import, so every xdist worker collects the same
# ones) and every test's data derive from it. It is recorded per test and printed at the end of the
# run ("kgen seeds: ..."); failures name it together with the case's data seed.
SEED = 20240917
N_RANDOM = 224
CHUNK = 24          # kernels per compiled module: large enough to amortise iree-compile's start-up

DTYPES = ("f32", "f16", "bf16", "s8", "u8", "s32")
QUANT_ARGS = ("src_scale", "dst_scale", "src_zp", "dst_zp")
QUANT_POLICIES = ("common", "per_dim_1", "per_dim_01")
# integer fills: wider than s8/u8 for the other types, so conversions to s8/u8 saturate
FILL_RANGE = {"s8": (-128, 127), "u8": (0, 255), "s32": (-300, 300), "f32": (-300, 300), "f16": (-300, 300),
              "bf16": (-300, 300)}


# =============================================================================================
# Descriptors: tags, and strided recipes (named, so tables can use them like tags)
# =============================================================================================

def _strides_nested(dims, order, extras=None, inner=1):
    """Strides for `order` (outermost first), each level padded by extras[k] (innermost first)."""
    st, s = [0] * len(dims), inner
    for k, d in enumerate(reversed(order)):
        st[d] = s
        s *= dims[d] + (extras[k] if extras else 0)
    return st


def _interleaved_strides(dims, order):
    """Two innermost dims (b inner, a outer) with coprime strides ea and y that interleave, the
    rest dense above them: distinct offsets, but no nesting (the kernel must gather)."""
    a, b = order[-2], order[-1]
    ea, eb = dims[a], dims[b]
    if ea < 2 or eb < 2:
        return None
    y = next(v for v in range(2, 64) if math.gcd(v, ea) == 1)
    st = [0] * len(dims)
    st[b], st[a] = ea, y
    s = (ea - 1) * y + (eb - 1) * ea + 1
    for d in reversed(order[:-2]):
        st[d] = s
        s *= dims[d]
    return st


def _plain_tag(order) -> str:
    return "".join("abcdef"[d] for d in order)


def desc_view(dims, dt):
    """A sub-memory view (offset0 > 0, gaps) of a plain tensor 2 larger in every dim."""
    return MemoryDesc([d + 2 for d in dims], dt, "abx").submemory(dims, [1] * len(dims))


def desc_pitch(dims, dt):
    """Channels-last with a row pitch: pixel stride C, rows W+3 pixels apart, images H+1 rows apart."""
    n = len(dims)
    order = (0, *range(2, n), 1)
    return MemoryDesc(dims, dt, strides=_strides_nested(dims, order, (0, 3) + (1,) * (n - 2)))


def desc_gap(dims, dt):
    """Plain nchw order with every other element unused (innermost stride 2)."""
    return MemoryDesc(dims, dt, strides=_strides_nested(dims, tuple(range(len(dims))), inner=2))


def desc_bview8(dims, dt):
    """A view of an aBx8b tensor, one block (8 channels) in; a block to spare after it when C is a
    multiple of 8, else reaching the parent's border (a view may end mid-block only there)."""
    n = len(dims)
    offs = [8 if d == 1 else 1 for d in range(n)]
    after = [(0 if dims[1] % 8 else 8) if d == 1 else 1 for d in range(n)]
    return MemoryDesc([dims[d] + offs[d] + after[d] for d in range(n)], dt, "aBx8b").submemory(dims, offs)


def desc_irregular(dims, dt):
    """Nested strides that are not multiples of each other (each level one element longer)."""
    st, s = [0] * len(dims), 1
    for d in reversed(range(len(dims))):
        st[d] = s
        s = s * dims[d] + 1
    return MemoryDesc(dims, dt, strides=st)


def desc_interleaved(dims, dt):
    """Interleaved source strides (see _interleaved_strides), in nchw order."""
    return MemoryDesc(dims, dt, strides=_interleaved_strides(dims, tuple(range(len(dims)))))


STRIDED = {"view": desc_view, "pitch": desc_pitch, "gap": desc_gap, "bview8": desc_bview8,
           "irregular": desc_irregular, "interleaved": desc_interleaved}


def make_desc(dims, dt, spec) -> MemoryDesc:
    """`spec` is a format tag or the name of a strided recipe in STRIDED."""
    return STRIDED[spec](tuple(dims), dt) if spec in STRIDED else MemoryDesc(dims, dt, spec)


@dataclass(frozen=True)
class Case:
    """One reorder to build and check; `chain` is what build_reorders takes."""
    id: str
    chain: tuple[ReorderProblem, ...]
    data_seed: int = SEED

    @property
    def problem(self) -> ReorderProblem:
        return self.chain[0]


def case(id, dims, src, sdt, dst, ddt, quant=(), data_seed=SEED) -> Case:
    s, d = make_desc(dims, sdt, src), make_desc(dims, ddt, dst)
    q = {arg: Quant.parse(pol, len(dims)) for arg, pol in quant}
    return Case(id, (ReorderProblem(s, d, **q),), data_seed)


# =============================================================================================
# Random cases (requirement: >= 200 per run, from SEED)
# =============================================================================================

# Format families the random draw picks from: (family, tag or strided recipe, ranks it fits, roles).
# Role "sd" = usable as source and destination, "s" = source only (the kernel can only gather them).
ALL_RANKS = (3, 4, 5, 6)
TAG_TABLE = [
    # single-level blocked (oneDNN letters with the meta letter x, MegEngine's 4-D names)
    ("blocked", "aBx4b", ALL_RANKS, "sd"),
    ("blocked", "aBx8b", ALL_RANKS, "sd"),
    ("blocked", "aBx16b", ALL_RANKS, "sd"),
    ("blocked", "aBx32b", ALL_RANKS, "sd"),
    ("blocked", "Ax16a", ALL_RANKS, "sd"),
    ("blocked", "axB8b", ALL_RANKS, "sd"),            # channels-last blocked (nhwC8c)
    ("blocked", "NCHW4", (4,), "sd"),
    ("blocked", "NCHW32", (4,), "sd"),
    ("blocked", "NCHW64", (4,), "sd"),
    ("blocked", "CHWN4", (4,), "sd"),
    ("blocked", "Goihw16g", (5,), "sd"),
    # multi-level (weights)
    ("multi", "ABx16b16a", ALL_RANKS, "sd"),
    ("multi", "ABx4b16a4b", ALL_RANKS, "sd"),
    ("multi", "ABx16b16a2b", ALL_RANKS, "sd"),
    ("multi", "ABx8b16a2b", ALL_RANKS, "sd"),
    ("multi", "BAx16a16b", ALL_RANKS, "sd"),
    ("multi", "gOIhw16i16o", (5,), "sd"),
    ("multi", "gOIhw4i16o4i", (5,), "sd"),
    # explicit strides
    ("strided", "pitch", ALL_RANKS, "sd"),             # nested, row-pitched, random order
    ("strided", "view", ALL_RANKS, "sd"),              # sub-memory of a plain tensor, offset0
    ("strided", "bview", ALL_RANKS, "sd"),             # sub-memory of a blocked tensor
    ("strided", "irregular", ALL_RANKS, "s"),          # nested, not multiples: gathered
    ("strided", "interleaved", ALL_RANKS, "s"),        # interleaved: gathered
]
FAMILIES = ("plain", "blocked", "multi", "strided")
EXTENT_MAX = {3: 7, 4: 5, 5: 4, 6: 3}     # non-channel dims are 1..EXTENT_MAX[rank]

# Blocked -> blocked directly, and other pairs that must be in every run whatever the draw gives.
FORCED = [
    # (dims, src, sdt, dst, ddt, quant)
    ((2, 17, 3, 5), "nChw8c", "f32", "nChw16c", "f32", ()),
    ((2, 17, 3, 5), "nChw16c", "s8", "nChw8c", "s8", ()),
    ((2, 33, 2, 2, 3), "aBx8b", "f16", "aBx16b", "f16", ()),
    ((1, 70, 3, 2), "NCHW4", "u8", "NCHW32", "u8", ()),
    ((3, 70, 2, 2), "CHWN4", "s8", "NCHW64", "s32", (("src_zp", "common"),)),
    ((20, 17, 3, 3), "ABx16b16a", "f32", "ABx4b16a4b", "bf16", ()),
    ((2, 19, 2, 3), "nChw8c", "f32", "nChw16c", "s8", (("src_scale", "per_dim_1"), ("dst_zp", "common"))),
]


def _random_desc(rng, dims, dt, role):
    n = len(dims)
    family = FAMILIES[rng.integers(len(FAMILIES))]
    if family == "plain":
        order = rng.permutation(n)
        return MemoryDesc(dims, dt, _plain_tag(order)), _plain_tag(order)
    rows = [r for r in TAG_TABLE if r[0] == family and n in r[2] and role in r[3]]
    spec = rows[rng.integers(len(rows))][1]
    if family != "strided":
        return MemoryDesc(dims, dt, spec), spec
    order = tuple(int(d) for d in rng.permutation(n))
    if spec == "interleaved":
        st = _interleaved_strides(dims, order)
        if st is not None:
            return MemoryDesc(dims, dt, strides=st), spec
        spec = "irregular"
    if spec == "irregular":
        st, s = [0] * n, int(rng.choice([1, 1, 2]))
        for d in reversed(order):
            st[d] = s
            s = s * dims[d] + int(rng.integers(1, 3))
        return MemoryDesc(dims, dt, strides=st), spec
    if spec == "bview":
        b = int(rng.choice([4, 8, 16]))
        if role == "d" and dims[1] % b:
            spec = "view"           # a blocked view destination must end on a block boundary
        else:
            tag = {4: "aBx4b", 8: "aBx8b", 16: "aBx16b"}[b]
            offs = [int(rng.integers(0, 2)) for _ in range(n)]
            offs[1] = b * int(rng.integers(0, 2))
            big = [dims[d] + offs[d] + int(rng.integers(0, 2)) * (b if d == 1 else 1) for d in range(n)]
            if dims[1] % b:
                big[1] = offs[1] + dims[1]      # a view may end mid-block only at the parent's border
            return MemoryDesc(big, dt, tag).submemory(dims, offs), spec
    if spec == "view":
        big = [dims[d] + int(rng.integers(0, 3)) for d in range(n)]
        offs = [int(rng.integers(0, big[d] - dims[d] + 1)) for d in range(n)]
        return MemoryDesc(big, dt, _plain_tag(order)).submemory(dims, offs), spec
    extras = [int(v) for v in rng.integers(0, 3, n)]
    inner = int(rng.choice([1, 1, 1, 2]))
    return MemoryDesc(dims, dt, strides=_strides_nested(dims, order, extras, inner)), "pitch"


def random_cases(seed: int, count: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    out, names = [], set()
    while len(out) < count:
        rank = int(rng.integers(3, 7))
        dims = [int(rng.integers(1, 4))] + [int(rng.integers(1, 71))] + \
               [int(rng.integers(1, EXTENT_MAX[rank] + 1)) for _ in range(rank - 2)]
        sdt, ddt = (DTYPES[int(i)] for i in rng.integers(len(DTYPES), size=2))
        src, slabel = _random_desc(rng, dims, sdt, "s")
        dst, dlabel = _random_desc(rng, dims, ddt, "d")
        quant = {}
        if rng.random() < 0.3:
            for arg in QUANT_ARGS:
                if rng.random() < 0.5:
                    quant[arg] = Quant.parse(QUANT_POLICIES[int(rng.integers(len(QUANT_POLICIES)))], rank)
        p = ReorderProblem(src, dst, **quant)
        if p.name in names or max(src.buffer_nelems, dst.buffer_nelems) > 300_000:
            continue
        names.add(p.name)
        i = len(out)
        cid = f"r{i:03d}-{rank}d-{sdt}-{slabel}-to-{ddt}-{dlabel}" + ("-q" if quant else "")
        out.append(Case(cid, (p,), seed + 1000 + i))
    for k, (dims, s, sdt, d, ddt, quant) in enumerate(FORCED):
        out.append(case(f"forced{k}-{sdt}-{s}-to-{ddt}-{d}", dims, s, sdt, d, ddt, quant, seed + 900 + k))
    return out


RANDOM_CASES = random_cases(SEED, N_RANDOM)


# =============================================================================================
# The format matrix (requirement 2)
# =============================================================================================

DATA_TAGS = ("nchw", "nhwc", "chwn", "nChw8c", "nChw16c", "NCHW4", "NCHW32", "CHWN4", "view")
MATRIX_C = (1, 3, 17, 64)
MATRIX_S8_C = (17,)
MATRIX_DIMS = (2, None, 3, 5)          # N, C, H, W with C from MATRIX_C


def _matrix(dt, cs):
    return [case(f"{dt}-{s}-to-{d}-C{c}", (MATRIX_DIMS[0], c, *MATRIX_DIMS[2:]), s, dt, d, dt)
            for c in cs for s in DATA_TAGS for d in DATA_TAGS]


MATRIX_CASES = _matrix("f32", MATRIX_C) + _matrix("s8", MATRIX_S8_C)

# Weights: every ordered pair within each group, on shapes with O/I (and G) tails.
WEIGHT_GROUPS = [
    # (tags, shapes, dtype)
    (("oihw", "OIhw16i16o", "OIhw4i16o4i", "OIhw8i8o", "hwio"), ((17, 20, 3, 3), (33, 3, 1, 2)), "f32"),
    (("goihw", "gOIhw16i16o", "Goihw16g"), ((3, 17, 5, 2, 2), (17, 4, 19, 1, 3)), "f32"),
    (("oihw", "OIhw4i16o4i", "OIhw16i16o"), ((24, 17, 2, 2),), "s8"),
]
WEIGHT_CASES = [case(f"{dt}-{s}-to-{d}-{'x'.join(map(str, shape))}", shape, s, dt, d, dt)
                for tags, shapes, dt in WEIGHT_GROUPS for shape in shapes for s in tags for d in tags if s != d]
# Quantized and converting weight reorders (per-output-channel scales as for int8 convolutions).
WEIGHT_CASES += [
    case("w-q-f32-oihw-to-s8-OIhw4i16o4i", (33, 17, 3, 3), "oihw", "f32", "OIhw4i16o4i", "s8",
         (("dst_scale", "per_dim_0"),)),
    case("w-q-f32-goihw-to-s8-gOIhw16i16o", (2, 17, 5, 3, 3), "goihw", "f32", "gOIhw16i16o", "s8",
         (("dst_scale", "per_dim_01"), ("dst_zp", "common"))),
    case("w-bf16-OIhw16i16o-to-f32-hwio", (17, 20, 3, 3), "OIhw16i16o", "bf16", "hwio", "f32"),
    case("w-f32-hwio-to-bf16-OIhw8i8o", (17, 20, 3, 3), "hwio", "f32", "OIhw8i8o", "bf16"),
]


# =============================================================================================
# Saturation and rounding (requirement 8): inputs and the expected outputs, written out by hand
# =============================================================================================

# f32 -> s32 saturates at 2147483520, the largest f32 below 2**31 (benchdnn's
# BENCHDNN_S32_TO_F32_SAT_CONST; DataType.max): 2**31 itself does not fit in s32.
S32_SAT = 2147483520
SATURATION = [
    # (id, src dtype, dst dtype, source values, expected destination values)
    ("f32-s8", "f32", "s8",
     [-1e10, -1000, -129, -128.5, -127.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 126.5, 127.5, 128, 1000, 1e10],
     [-128, -128, -128, -128, -128, -2, -2, 0, 0, 2, 2, 4, 126, 127, 127, 127, 127]),
    ("f32-u8", "f32", "u8",
     [-1e10, -300, -1, -0.5, 0.5, 1.5, 2.5, 3.5, 254.5, 255.5, 256, 1e10],
     [0, 0, 0, 0, 0, 2, 2, 4, 254, 255, 255, 255]),
    ("f16-s8", "f16", "s8", [-300, -128.5, -2.5, 2.5, 3.5, 127.5, 300], [-128, -128, -2, 2, 4, 127, 127]),
    ("bf16-u8", "bf16", "u8", [-2.5, 2.5, 3.5, 254, 256, 300], [0, 2, 4, 254, 255, 255]),
    ("s32-s8", "s32", "s8", [-2**31, -129, -128, -1, 0, 127, 128, 2**31 - 1], [-128, -128, -128, -1, 0, 127, 127, 127]),
    ("s32-u8", "s32", "u8", [-2**31, -1, 0, 255, 256, 2**31 - 1], [0, 0, 0, 255, 255, 255]),
    ("u8-s8", "u8", "s8", [0, 1, 127, 128, 200, 255], [0, 1, 127, 127, 127, 127]),
    ("s8-u8", "s8", "u8", [-128, -1, 0, 1, 127], [0, 0, 0, 1, 127]),
    ("f32-s32", "f32", "s32",
     [-3e9, -2147483648.0, -2.5, 2.5, 3.5, 2147483520.0, 2147483648.0, 3e9, 1e20],
     [-2**31, -2**31, -2, 2, 4, S32_SAT, S32_SAT, S32_SAT, S32_SAT]),
]


def saturation_case(row) -> Case:
    # the values run along the channel dim, nchw -> nChw8c: the conversion and a padded tail at once
    cid, sdt, ddt, values, _ = row
    return case(f"sat-{cid}", (1, len(values), 1, 1), "nchw", sdt, "nChw8c", ddt)


SATURATION_CASES = [saturation_case(r) for r in SATURATION]

# Destinations updated in place (gaps and offsets): (id, dims, src, dst recipe, dtype)
DST_INIT = [
    ("view", (2, 17, 3, 5), "nchw", "view", "f32"),
    ("pitch", (2, 17, 3, 5), "nChw8c", "pitch", "s8"),
    ("gap", (2, 5, 3, 4), "nhwc", "gap", "f16"),
    ("bview8", (2, 16, 3, 5), "nchw", "bview8", "f32"),
    ("view-from-blocked", (2, 17, 3, 5), "nChw16c", "view", "bf16"),
]
DST_INIT_CASES = [case(f"init-{i}", dims, s, dt, d, dt) for i, dims, s, d, dt in DST_INIT]

# The result's dtype is the destination's (u8 included): one tiny copy per type.
DTYPE_CASES = [case(f"dtype-{dt}", (1, 3, 2, 2), "nchw", dt, "nChw8c", dt) for dt in DTYPES]

CPU_CASES = RANDOM_CASES + MATRIX_CASES + WEIGHT_CASES + SATURATION_CASES + DST_INIT_CASES + DTYPE_CASES


def tiered(cases: list[Case]) -> list:
    """The cases as parameter sets, `full` beyond the first of each data type x layout class pair."""
    return covering([pytest.param(c, id=c.id) for c in cases], lambda c: reorder_key(c.problem))


# the random reorders beyond one module's worth run in the full tier (the matrices cover the layout classes)
RANDOM_PARAMS = first([pytest.param(c, id=c.id) for c in RANDOM_CASES], QUICK_RANDOM_REORDERS)
MATRIX_PARAMS, WEIGHT_PARAMS = tiered(MATRIX_CASES), tiered(WEIGHT_CASES)


# =============================================================================================
# The portable form on llvm-cpu (requirement 3): cases where pack/unpack and pad+expand+transpose differ
# =============================================================================================

def _single_level(desc: MemoryDesc) -> bool:
    dims = [d for d, _ in desc.blocks]
    return bool(dims) and len(dims) == len(set(dims))


PACK_CASES = [c for c in [m for m in MATRIX_CASES if m.id.startswith("f32-") and m.id.endswith("-C17")][::2]
                + WEIGHT_CASES[::2] + RANDOM_CASES[::6]
                if _single_level(c.problem.src) or _single_level(c.problem.dst)]
PACK_PARAMS = tiered(PACK_CASES)
# what the quick tier builds: the cases its tests check, the pack-form sample's among them
QUICK_CPU_CASES = list(dict.fromkeys(quick_values(RANDOM_PARAMS + MATRIX_PARAMS + WEIGHT_PARAMS + PACK_PARAMS)
                                     + MATRIX_CASES[:1] + SATURATION_CASES + DST_INIT_CASES + DTYPE_CASES))


# =============================================================================================
# Vulkan sample (requirement 4) and CUDA (requirement 5)
# =============================================================================================

VULKAN = [
    # (dims, src, sdt, dst, ddt, quant)
    ((2, 17, 3, 5), "nchw", "f32", "nChw8c", "f32", ()),
    ((2, 17, 3, 5), "nChw8c", "f32", "nChw16c", "f32", ()),
    ((2, 17, 3, 5), "nChw16c", "f16", "nhwc", "f16", ()),
    ((2, 33, 2, 3), "NCHW4", "s8", "NCHW32", "s8", ()),
    ((3, 10, 2, 2), "CHWN4", "u8", "nchw", "u8", ()),
    ((2, 17, 3, 5), "nchw", "s32", "nChw8c", "s8", ()),
    ((2, 17, 3, 5), "nhwc", "f32", "nChw16c", "s8", (("src_scale", "per_dim_1"), ("dst_zp", "common"))),
    ((2, 17, 3, 5), "nchw", "u8", "nhwc", "f32", (("src_zp", "common"), ("src_scale", "common"))),
    ((2, 17, 3, 5), "nchw", "f32", "nChw8c", "bf16", ()),
    ((2, 17, 3, 5), "nChw8c", "bf16", "nchw", "f32", ()),
    ((2, 17, 3, 5), "nhwc", "bf16", "nChw8c", "s8", ()),
    ((2, 17, 3, 5), "nchw", "s8", "nChw16c", "bf16", ()),
    ((2, 17, 3, 5), "nchw", "s32", "nhwc", "bf16", ()),
    ((2, 17, 3, 5), "nhwc", "u8", "nChw8c", "bf16", (("src_zp", "common"),)),
    ((2, 17, 3, 5), "nchw", "f32", "nhwc", "bf16", (("dst_scale", "per_dim_01"),)),
    ((17, 20, 3, 3), "oihw", "f32", "OIhw4i16o4i", "f32", ()),
    ((17, 20, 3, 3), "OIhw8i8o", "f16", "OIhw16i16o", "f16", ()),
    ((3, 17, 5, 2, 2), "goihw", "f32", "gOIhw16i16o", "s8", (("dst_scale", "per_dim_01"),)),
    ((17, 3, 4, 2, 2), "Goihw16g", "u8", "goihw", "u8", ()),
    ((2, 17, 3, 5), "nchw", "f32", "view", "f32", ()),
    ((2, 17, 3, 5), "interleaved", "f32", "nhwc", "f16", ()),
    ((2, 17, 3, 5), "pitch", "s8", "nChw8c", "s8", ()),
    ((2, 17, 3, 5), "bview8", "f32", "nchw", "s32", ()),
    ((2, 17, 2, 2, 2, 2), "aBx8b", "s32", "ABx16b16a", "f32", ()),
    ((3, 40, 7), "abc", "f16", "acb", "u8", ()),
]
VULKAN_CASES = [case(f"vk{k}-{sdt}-{s}-to-{ddt}-{d}" + ("-q" if q else ""), dims, s, sdt, d, ddt, q, SEED + 500 + k)
                for k, (dims, s, sdt, d, ddt, q) in enumerate(VULKAN)]
VULKAN_SATURATION = [r for r in SATURATION if r[0] in ("f32-s8", "f32-u8", "s32-s8", "u8-s8", "f32-s32", "bf16-u8")]

CUDA = [
    # (id, dims, src, sdt, dst, ddt, quant, MLIR the pack path must contain)
    ("pack-nChw16c", (2, 17, 3, 5), "nchw", "f32", "nChw16c", "f32", (), "linalg.pack"),
    ("unpack-nChw8c", (2, 17, 3, 5), "nChw8c", "f32", "nhwc", "f32", (), "linalg.unpack"),
    ("pack-OIhw8i8o", (20, 17, 3, 3), "oihw", "f32", "OIhw8i8o", "f32", (), "inner_tiles = [8, 8]"),
    ("s8-quant", (2, 17, 3, 5), "nchw", "f32", "nChw8c", "s8", (("src_scale", "per_dim_1"), ("dst_zp", "common")),
     "math.roundeven"),
    ("s8-CHWN4", (3, 10, 5, 7), "NCHW4", "s8", "CHWN4", "s8", (), "outer_dims_perm = [1, 2, 3, 0]"),
]
CUDA_CASES = [pytest.param(case(f"cuda-{cid}", dims, s, sdt, d, ddt, q), needle, id=f"cuda-{cid}")
              for cid, dims, s, sdt, d, ddt, q, needle in CUDA]


# =============================================================================================
# Building: shared modules, and xdist workers that split the compiling
# =============================================================================================

def _xdist() -> tuple[int, int]:
    """(this worker's index, number of workers); (0, 1) outside xdist."""
    w = os.environ.get("PYTEST_XDIST_WORKER", "")
    n = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return (int(w[2:]) if w.startswith("gw") and w[2:].isdigit() else 0), max(n, 1)


def _build_group(group, backend, cache_dir, use_pack):
    if use_pack is None:       # what the product does: build_reorders picks the form from the backend
        return build_reorders([list(ch) for ch in group], backend, chunk=len(group), jobs=1, cache_dir=cache_dir)
    try:
        text = render_reorder_module([list(ch) for ch in group], form="pack" if use_pack else "transpose")
        art = compile_mlir(text, backend, cache_dir=cache_dir, name="reorders")
        return [ReorderKernel(list(ch), backend, artifact=art) for ch in group]
    except KgenError as e:
        if len(group) == 1:
            return [e]
        return [r for ch in group for r in _build_group([ch], backend, cache_dir, use_pack)]


def build_all(chains, backend, cache_dir, session_dir, tag, *, use_pack=None) -> dict:
    """chain -> ReorderKernel (or the KgenError that stopped it), compiled CHUNK kernels per module.

    Under xdist every worker needs every kernel of the module it runs tests from, so the workers
    split the compiling: each walks the list of modules from its own starting point and compiles
    those it claims first (an O_EXCL file in the session directory); then it waits for the others'
    claims to be done and loads those modules from the shared cache (kgen_cache_dir).
    """
    chains = list(dict.fromkeys(chains))
    groups = [chains[k:k + CHUNK] for k in range(0, len(chains), CHUNK)]
    worker, workers = _xdist()
    if workers == 1:
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda g: _build_group(g, backend, cache_dir, use_pack), groups))
        return {ch: k for g, res in zip(groups, results) for ch, k in zip(g, res)}
    claims = session_dir / "claims"
    claims.mkdir(exist_ok=True)
    start = worker * len(groups) // workers
    order = list(range(start, len(groups))) + list(range(start))
    out, theirs = {}, []
    for gi in order:
        try:
            os.close(os.open(claims / f"{tag}-{gi}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            theirs.append(gi)
            continue
        try:
            out.update(zip(groups[gi], _build_group(groups[gi], backend, cache_dir, use_pack)))
        finally:
            (claims / f"{tag}-{gi}.done").touch()
    for gi in theirs:
        deadline = time.monotonic() + 900
        while not (claims / f"{tag}-{gi}.done").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        out.update(zip(groups[gi], _build_group(groups[gi], backend, cache_dir, use_pack)))    # cached by now
    return out


def kernel_for(kernels: dict, c: Case):
    k = kernels[c.chain]
    if isinstance(k, KgenError):
        pytest.fail(f"{c.id}: {kernel_name(c.chain)} did not build: {k}", pytrace=False)
    return k


@pytest.fixture(scope="module")
def cpu_kernels(request, kgen_cache_dir, kgen_session_dir):
    cases = CPU_CASES if request.config.getoption("--full") else QUICK_CPU_CASES
    return build_all([c.chain for c in cases], "llvm-cpu", kgen_cache_dir, kgen_session_dir, "cpu")


@pytest.fixture(scope="module")
def cpu_pack_kernels(request, kgen_cache_dir, kgen_session_dir):
    cases = PACK_CASES if request.config.getoption("--full") else quick_values(PACK_PARAMS)
    return build_all([c.chain for c in cases], "llvm-cpu", kgen_cache_dir, kgen_session_dir, "cpu-pack",
                     use_pack=True)


@pytest.fixture(scope="module")
def vulkan_kernels(kgen_cache_dir, kgen_session_dir):
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    chains = [c.chain for c in VULKAN_CASES] + [saturation_case(r).chain for r in VULKAN_SATURATION]
    return build_all(chains, "vulkan", kgen_cache_dir, kgen_session_dir, "vulkan")


# =============================================================================================
# Checking, benchdnn-style
# =============================================================================================

def fill(desc: MemoryDesc, rng) -> np.ndarray:
    """Integer-valued data in the type's FILL_RANGE; gaps of a strided buffer hold garbage (which
    the kernel must ignore), the padded tail of a blocked one zeros (oneDNN's invariant)."""
    lo, hi = FILL_RANGE[desc.dtype.name]
    logical = rng.integers(lo, hi + 1, desc.dims).astype(desc.dtype.np_dtype)
    garbage = rng.integers(lo, hi + 1, desc.buffer_nelems).astype(desc.dtype.np_dtype)
    return desc.to_physical(logical, base=garbage)


def quant_values(chain, rng) -> dict:
    """Scales are powers of two (exact), zero points small integers; keys as the kernel takes them."""
    out = {}
    for k, p in enumerate(chain):
        for arg, q in p.quant_args:
            shape = q.shape(p.dims)
            key = f"s{k}_{arg}" if len(chain) > 1 else arg
            if arg.endswith("scale"):
                out[key] = (2.0 ** rng.integers(-2, 3, shape)).astype(np.float32)
            else:
                out[key] = rng.integers(-4, 5, shape).astype(np.int32)
    return out


def old_buffer(desc: MemoryDesc, rng) -> np.ndarray:
    """A destination's previous contents: values the kernel must keep outside the view."""
    return rng.integers(1, 100, desc.buffer_nelems).astype(desc.dtype.np_dtype)


def assert_same_buffer(got: np.ndarray, want: np.ndarray, dst: MemoryDesc, where: str) -> None:
    """The whole buffer must equal the reference; the padded area must also be zero on its own."""
    assert got.shape == want.shape and got.dtype == want.dtype, \
        f"{where}: result is {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
    pad = dst.padding_mask()
    nz = np.flatnonzero(pad & (got.astype(np.float64) != 0))
    assert nz.size == 0, (f"{where}: {nz.size} of {int(pad.sum())} padded elements are not zero, first at "
                          f"buffer offset {nz[0]} = {got[nz[0]]}")
    g, w = got.astype(np.float64), want.astype(np.float64)
    bad = np.flatnonzero(~((g == w) | (np.isnan(g) & np.isnan(w))))
    if bad.size:
        i = bad[0]
        pytest.fail(f"{where}: {bad.size} of {got.size} buffer elements differ; first at buffer offset {i}: "
                    f"got {got[i]}, want {want[i]}; max |diff| {np.nanmax(np.abs(g[bad] - w[bad])):g}",
                    pytrace=False)


def run_case(kernel, c: Case, backend="llvm-cpu") -> np.ndarray:
    """Fill, run, compare with the reference; returns the kernel's buffer."""
    rng = np.random.default_rng(c.data_seed)
    chain = c.chain
    src = fill(chain[0].src, rng)
    q = quant_values(chain, rng)
    init = old_buffer(chain[-1].dst, rng) if chain[-1].needs_dst_init else None
    got = kernel(src, dst_init=init, **q)
    want = kernel.reference(src, dst_init=init, **q)
    where = f"seed {SEED}, data seed {c.data_seed}, {backend} {c.id} ({kernel_name(chain)})"
    assert_same_buffer(got, want, chain[-1].dst, where)
    return got


# =============================================================================================
# 1. Random cases on llvm-cpu
# =============================================================================================

def test_random_case_draw_covers_the_families(seed):
    """The draw is what the requirements ask for: counts, ranks, dtypes, families, quantization."""
    probs = [c.problem for c in RANDOM_CASES]
    assert len(probs) >= 200
    assert {p.src.ndims for p in probs} == set(ALL_RANKS)
    assert {p.src.dtype.name for p in probs} == set(DTYPES) == {p.dst.dtype.name for p in probs}
    ids = " ".join(c.id for c in RANDOM_CASES)
    for spec in ("pitch", "view", "bview", "irregular", "interleaved", "ABx16b16a", "gOIhw16i16o", "CHWN4"):
        assert spec in ids, f"seed {seed}: no random case uses {spec}"
    assert sum(bool(p.quant_args) for p in probs) >= 40
    assert any(p.src.pitch() is None for p in probs), "no gathered (interleaved) source"
    assert any(p.needs_dst_init for p in probs)
    assert any(p.src.blocks and p.dst.blocks for p in probs), "no blocked -> blocked case"
    assert any(p.src.dims[1] % 8 and p.dst.blocks for p in probs), "no channel tail"


@pytest.mark.parametrize("c", RANDOM_PARAMS)
def test_random_reorder(c, cpu_kernels, seed):
    run_case(kernel_for(cpu_kernels, c), c)


# =============================================================================================
# 2. The format matrix and weights on llvm-cpu
# =============================================================================================

@pytest.mark.parametrize("c", MATRIX_PARAMS)
def test_data_format_matrix(c, cpu_kernels, seed):
    run_case(kernel_for(cpu_kernels, c), c)


@pytest.mark.parametrize("c", WEIGHT_PARAMS)
def test_weight_formats(c, cpu_kernels, seed):
    run_case(kernel_for(cpu_kernels, c), c)


@pytest.mark.parametrize("c", DTYPE_CASES, ids=lambda c: c.id)
def test_result_dtype(c, cpu_kernels, seed):
    """The kernel returns the destination's NumPy dtype (u8 -> uint8, bf16 -> ml_dtypes.bfloat16)."""
    k = kernel_for(cpu_kernels, c)
    got = k(fill(c.problem.src, np.random.default_rng(c.data_seed)))
    assert got.dtype == c.problem.dst.dtype.np_dtype, \
        f"{c.id}: result dtype {got.dtype}, destination is {c.problem.dst.dtype.name} ({c.problem.dst.dtype.np_dtype})"


# =============================================================================================
# 3. Both emission forms on llvm-cpu
# =============================================================================================

@pytest.mark.parametrize("c", PACK_PARAMS)
def test_decomposed_form_matches_pack_form(c, cpu_kernels, cpu_pack_kernels, seed, kgen_cache_dir):
    """The product's general CPU form (pad + expand_shape + transpose, as on Vulkan; measured faster
    in IREE 3.13) and the linalg.pack/unpack form give the same buffer, bit for bit. Channels-last <->
    nChwXc, where the product takes pack (`select.reorder_form`), is built in the transpose form here."""
    plain, packed = kernel_for(cpu_kernels, c), kernel_for(cpu_pack_kernels, c)
    if plain.form == "pack":
        assert select_reorder_form(list(c.chain), get_backend("llvm-cpu")) == "pack", c.id
        plain = ReorderKernel(list(c.chain), "llvm-cpu", kgen_cache_dir, form="transpose", driver="local-sync")
    assert "linalg.pack" not in plain.mlir and "linalg.unpack" not in plain.mlir
    a = run_case(plain, c, "llvm-cpu")
    b = run_case(packed, c, "llvm-cpu (use_pack=True)")
    assert np.array_equal(a.view(np.uint8), b.view(np.uint8)), f"seed {seed} {c.id}: the two forms differ bitwise"


def test_untuned_form_rule():
    """`select.reorder_form`: llvm-cpu takes pack where only the channel block's outer index moves
    between a plain layout and its single-level blocked form (nhwc <-> nChwXc: 3-9x faster measured), the
    shuffle microkernel for 2-D transpositions, and the transpose form elsewhere; Vulkan has only the
    transpose form."""
    cpu, vk = get_backend("llvm-cpu"), get_backend("vulkan")

    def form(s, d, b=cpu, dims=(2, 17, 5, 3)):
        return select_reorder_form([ReorderProblem(MemoryDesc(dims, "f32", s), MemoryDesc(dims, "f32", d))], b)

    for s, d in (("nhwc", "nChw16c"), ("nChw8c", "nhwc"), ("nhwc", "NCHW32")):
        assert (form(s, d), form(s, d, vk)) == ("pack", "transpose"), (s, d)
    for s, d in (("nChw8c", "nChw16c"), ("nhwc", "CHWN4"), ("adcb", "aBcd4b"),   # adcb: W before H
                 ("nchw", "nChw8c"), ("nChw8c", "nchw")):       # a partial block of 8: no register tile
        assert form(s, d) == "transpose", (s, d)
    # one 2-D transposition per image of 32-bit elements: the shuffle microkernel, on the CPU only
    for s, d in (("nchw", "nhwc"), ("nhwc", "nchw")):
        assert (form(s, d), form(s, d, vk)) == ("shuffle", "transpose"), (s, d)
    for s, d in (("nchw", "nChw16c"), ("nChw16c", "nchw")):     # whole blocks: a transposition per block
        assert (form(s, d, dims=(2, 32, 5, 3)), form(s, d, vk, dims=(2, 32, 5, 3))) == ("shuffle", "transpose")
        # a partial last block (C = 17): per image and block, its padded lanes or channels in static code
        assert (form(s, d), form(s, d, vk)) == ("shuffle", "transpose"), (s, d)
    assert form("acdb", "aBcd4b") == "pack"                       # acdb is nhwc
    x = ReorderProblem(MemoryDesc((2, 17, 5, 3), "f32", "nhwc"), MemoryDesc((2, 17, 5, 3), "f32", "nChw16c"))
    y = ReorderProblem(x.dst, MemoryDesc(x.dims, "f32", "nhwc"))
    assert select_reorder_form([x, y], cpu) == "transpose"          # chains keep the backend's form


def test_pack_form_sample_uses_pack(cpu_pack_kernels):
    """The comparison above is not vacuous: the sample's pack-form kernels do use pack/unpack."""
    built = [c for c in PACK_CASES if c.chain in cpu_pack_kernels]
    uses = [c.id for c in built if re.search(r"linalg\.(un)?pack ", kernel_for(cpu_pack_kernels, c).mlir)]
    assert len(uses) >= len(built) // 2 and built, f"only {len(uses)} of {len(built)} use linalg.pack/unpack"


# =============================================================================================
# 4. Vulkan (lavapipe)
# =============================================================================================

@pytest.mark.vulkan
@pytest.mark.parametrize("c", VULKAN_CASES, ids=lambda c: c.id)
def test_vulkan_reorder(c, vulkan_kernels, seed):
    k = kernel_for(vulkan_kernels, c)
    assert "linalg.pack" not in k.mlir and "linalg.unpack" not in k.mlir
    run_case(k, c, "vulkan")


@pytest.mark.vulkan
@pytest.mark.parametrize("row", VULKAN_SATURATION, ids=lambda r: r[0])
def test_vulkan_saturation(row, vulkan_kernels):
    check_saturation(row, kernel_for(vulkan_kernels, saturation_case(row)), "vulkan")


# =============================================================================================
# 5. CUDA: compile without a GPU, run only with one
# =============================================================================================

@pytest.fixture(scope="module")
def cuda_artifact(kgen_cache_dir):
    chains = [list(p.values[0].chain) for p in CUDA_CASES]
    text = render_reorder_module(chains, form="pack")
    return text, compile_mlir(text, "cuda", cache_dir=kgen_cache_dir, name="reorders")


@pytest.mark.cuda
@pytest.mark.parametrize("c,needle", CUDA_CASES)
def test_cuda_compiles(c, needle, cuda_artifact):
    text, art = cuda_artifact
    body = render_reorder(list(c.chain), form="pack", header=False)
    assert needle in body, f"{c.id}: the CUDA kernel should contain {needle!r}"
    assert f"func.func @{kernel_name(c.chain)}(" in text
    assert art.path.is_file() and art.path.stat().st_size > 0 and art.backend == "cuda"


@pytest.mark.cuda
@pytest.mark.parametrize("c,needle", CUDA_CASES)
def test_cuda_run(c, needle, cuda_artifact, seed):
    ok, why = cuda_device_available()
    if not ok:
        pytest.skip(f"no CUDA device: {why}")
    _, art = cuda_artifact
    run_case(ReorderKernel(list(c.chain), "cuda", artifact=art), c, "cuda")


# =============================================================================================
# 6. Chains and dst_init
# =============================================================================================

CHAIN = (("nchw", "f32"), ("nChw16c", "f16"), ("nhwc", "s8"))
CHAIN_DIMS = (2, 17, 3, 5)
# f32 values whose f16 rounding decides the s8 result: 2.5 + 2**-11 rounds to 2.5 in f16, then to 2
# (a direct f32 -> s8 gives 3); 4.5 + 2**-10 likewise gives 4 (direct: 5)
CHAIN_TIES = (2.50048828125, 4.5009765625, -2.50048828125)


def test_chain_folds_into_one_kernel(kgen_cache_dir, seed):
    descs = [MemoryDesc(CHAIN_DIMS, dt, tag) for tag, dt in CHAIN]
    k = reorder_chain(descs, "llvm-cpu", cache_dir=kgen_cache_dir)
    assert len(k.problems) == 2
    assert k.mlir.count("func.func") == 1, "the chain should be one kernel"
    rng = np.random.default_rng(seed)
    logical = rng.integers(-300, 301, CHAIN_DIMS).astype(np.float32)
    logical.flat[:len(CHAIN_TIES)] = CHAIN_TIES
    src = descs[0].to_physical(logical)
    p0, p1 = k.problems
    composed = p1.reference(p0.reference(src))
    got = k(src)
    assert_same_buffer(got, composed, descs[-1], f"seed {seed}: chain {k.name}")
    assert np.array_equal(k.reference(src), composed)
    direct = ReorderProblem(descs[0], descs[-1]).reference(src)
    assert not np.array_equal(direct, composed), "the f16 step must round: the ties should differ from f32 -> s8"


@pytest.mark.parametrize("c", DST_INIT_CASES, ids=lambda c: c.id)
def test_dst_init_keeps_elements_outside_the_view(c, cpu_kernels, seed):
    k = kernel_for(cpu_kernels, c)
    p = c.problem
    assert p.needs_dst_init
    rng = np.random.default_rng(c.data_seed)
    src = fill(p.src, rng)
    init = old_buffer(p.dst, rng)
    owned = np.zeros(p.dst.buffer_nelems, bool)
    owned[p.dst.offsets(padded=True).ravel()] = True          # the view's elements and padding
    got = k(src, dst_init=init)
    where = f"seed {seed}, data seed {c.data_seed}, {c.id}"
    assert np.array_equal(got[~owned], init[~owned]), f"{where}: elements outside the view changed"
    assert_same_buffer(got, p.reference(src, {}, init), p.dst, where)
    # without dst_init the old buffer is zeros
    zeros = k(src)
    assert not zeros[~owned].any(), f"{where}: dst_init=None should mean an all-zero old buffer"
    assert_same_buffer(zeros, p.reference(src, {}, None), p.dst, where)
    with pytest.raises(InputError):
        k(src, dst_init=init[:-1])


def test_dst_init_is_refused_for_dense_destinations(cpu_kernels):
    c = MATRIX_CASES[0]
    assert not c.problem.needs_dst_init
    k = kernel_for(cpu_kernels, c)
    with pytest.raises(InputError):
        k(fill(c.problem.src, np.random.default_rng(0)), dst_init=np.zeros(c.problem.dst.buffer_nelems, np.float32))


# =============================================================================================
# 7. Golden lines of the rendered MLIR (no compiler)
# =============================================================================================

GOLDEN = [
    # (id, dims, src, sdt, dst, ddt, quant, use_pack, regexes that must match, regexes that must not)
    ("pack-nChw8c", (2, 17, 5, 4), "nchw", "f32", "nChw8c", "f32", (), True,
     [r"linalg\.pack %\w+ padding_value\(%\w+ : f32\) outer_dims_perm = \[0, 1, 2, 3\] inner_dims_pos = \[1\] "
      r"inner_tiles = \[8\] into %\w+ : tensor<2x17x5x4xf32> -> tensor<2x3x5x4x8xf32>"],
     [r"linalg\.transpose", r"tensor\.pad"]),
    # a partial last block, written in pieces (relayout.tail_pieces): per image the full blocks, then the
    # tail laid down lane by lane with zeros past them, joined in buffer order along the buffer's one dim
    ("nopack-nChw8c", (2, 17, 5, 4), "nchw", "f32", "nChw8c", "f32", (), False,
     [r"tensor\.extract_slice %\w+\[1, 0, 0, 0\] \[1, 16, 5, 4\]",
      r"tensor\.expand_shape %\w+ \[\[0\], \[1, 2\], \[3\], \[4\]\] output_shape \[1, 2, 8, 5, 4\]",
      r"linalg\.transpose ins\(%\w+ : tensor<1x2x8x5x4xf32>\).*permutation = \[0, 1, 3, 4, 2\]",
      r"tensor\.extract_slice %\w+\[1, 16, 0, 0\] \[1, 1, 5, 4\]",
      r"affine_map<\(d0, d1, d2, d3, d4\) -> \(d0, 0, d2, d3\)>",
      r"arith\.select %\w+, %\w+, %\w+ : f32",
      r"tensor\.concat dim\(0\) %\w+, %\w+, %\w+, %\w+ : \(tensor<320xf32>, tensor<160xf32>, tensor<320xf32>, "
      r"tensor<160xf32>\) -> tensor<960xf32>"],
     [r"linalg\.pack", r"linalg\.unpack", r"tensor\.pad"]),
    # more than MAX_TAIL_PIECES pieces (40 images): one pad of the whole source
    ("nopack-nChw8c-many-images", (40, 17, 2, 2), "nchw", "f32", "nChw8c", "f32", (), False,
     [r"tensor\.pad %\w+ low\[0, 0, 0, 0\] high\[0, 7, 0, 0\]",
      r"tensor\.expand_shape %\w+ \[\[0\], \[1, 2\], \[3\], \[4\]\] output_shape \[40, 3, 8, 2, 2\]",
      r"linalg\.transpose ins\(%\w+ : tensor<40x3x8x2x2xf32>\).*permutation = \[0, 1, 3, 4, 2\]"],
     [r"tensor\.concat"]),
    ("unpack-nChw8c", (2, 17, 5, 4), "nChw8c", "f32", "nchw", "f32", (), True,
     [r"linalg\.unpack %\w+ outer_dims_perm = \[0, 1, 2, 3\] inner_dims_pos = \[1\] inner_tiles = \[8\]"],
     [r"linalg\.pack "]),
    # a partial last block in the source: per image the full blocks and the tail block's valid lanes
    # unblocked apart, then joined in buffer order
    ("nopack-unpack-nChw8c", (2, 17, 5, 4), "nChw8c", "f32", "nchw", "f32", (), False,
     [r"tensor\.extract_slice %\w+\[1, 0, 0, 0, 0\] \[1, 2, 5, 4, 8\]",
      r"tensor\.extract_slice %\w+\[1, 2, 0, 0, 0\] \[1, 1, 5, 4, 1\]",
      r"linalg\.transpose ins\(%\w+ : tensor<1x1x5x4x1xf32>\)",
      r"tensor\.concat dim\(0\) %\w+, %\w+, %\w+, %\w+ : \(tensor<320xf32>, tensor<20xf32>, tensor<320xf32>, "
      r"tensor<20xf32>\) -> tensor<680xf32>"],
     [r"linalg\.unpack", r"tensor<2x24x5x4xf32>"]),
    # the same into nhwc would be a piece per pixel: the channels unblocked apart, joined by channel
    ("nopack-unpack-nChw8c-to-nhwc", (2, 17, 5, 4), "nChw8c", "f32", "nhwc", "f32", (), False,
     [r"tensor\.extract_slice %\w+\[0, 0, 0, 0, 0\] \[2, 2, 5, 4, 8\]",
      r"tensor\.extract_slice %\w+\[0, 2, 0, 0, 0\] \[2, 1, 5, 4, 1\]",
      r"tensor\.concat dim\(1\) %\w+, %\w+ : \(tensor<2x16x5x4xf32>, tensor<2x1x5x4xf32>\) -> tensor<2x17x5x4xf32>"],
     [r"linalg\.unpack", r"tensor<2x24x5x4xf32>"]),
    # no split without a full block, nor with two partial dims: unblock all, slice the data corner
    ("nopack-unpack-one-partial-block", (2, 5, 3, 4), "nChw8c", "f32", "nchw", "f32", (), False,
     [r"tensor\.extract_slice %\w+\[0, 0, 0, 0\] \[2, 5, 3, 4\]"], [r"tensor\.concat"]),
    ("nopack-unpack-two-tails", (20, 17, 3, 3), "OIhw8i8o", "f32", "oihw", "f32", (), False,
     [r"tensor\.extract_slice %\w+\[0, 0, 0, 0\] \[20, 17, 3, 3\]"], [r"tensor\.concat"]),
    ("pack-CHWN4-s8", (3, 10, 5, 7), "nchw", "s8", "CHWN4", "s8", (), True,
     [r"padding_value\(%\w+ : i8\) outer_dims_perm = \[1, 2, 3, 0\] inner_dims_pos = \[1\] inner_tiles = \[4\]"], []),
    ("pack-OIhw8i8o", (20, 17, 3, 3), "oihw", "f32", "OIhw8i8o", "f32", (), True,
     [r"inner_dims_pos = \[1, 0\] inner_tiles = \[8, 8\] into %\w+ : tensor<20x17x3x3xf32> -> tensor<3x3x3x3x8x8xf32>"],
     []),
    ("multi-level-never-packs", (17, 20, 3, 3), "oihw", "f32", "OIhw4i16o4i", "f32", (), True,
     [r"tensor\.pad", r"tensor\.expand_shape", r"linalg\.transpose"], [r"linalg\.pack"]),
    ("plain-transpose", (2, 3, 4, 5), "nchw", "f32", "nhwc", "f32", (), True,
     [r"linalg\.transpose ins\(%\w+ : tensor<2x3x4x5xf32>\) outs\(%\w+ : tensor<2x4x5x3xf32>\) "
      r"permutation = \[0, 2, 3, 1\]"],
     [r"linalg\.pack", r"tensor\.pad"]),
    ("f32-to-s8-quant", (2, 17, 3, 5), "nchw", "f32", "nhwc", "s8", (("src_scale", "per_dim_1"), ("dst_zp", "common")), True,
     [r"func\.func @\w+\(%src: tensor<510xf32>, %src_scale: tensor<17xf32>, %dst_zp: tensor<i32>\) -> tensor<510xi8>",
      r"math\.roundeven %\w+ : f32", r"arith\.fptosi %\w+ : f32 to i8",
      r"affine_map<\(d0, d1, d2, d3\) -> \(d1\)>"], []),
    ("quant-apply-order", (2, 17, 3, 5), "nchw", "f32", "nchw", "s8",
     (("src_scale", "per_dim_1"), ("dst_scale", "common"), ("src_zp", "per_dim_01"), ("dst_zp", "common")), True,
     [r"%src_scale: tensor<17xf32>, %dst_scale: tensor<f32>, %src_zp: tensor<2x17xi32>, %dst_zp: tensor<i32>",
      r"arith\.subf[\s\S]*arith\.mulf[\s\S]*arith\.divf[\s\S]*arith\.addf"],   # (x - zp) * s / s_dst + zp_dst
     []),
    ("f32-to-u8", (2, 3, 4, 5), "nchw", "f32", "nchw", "u8", (), True,
     [r"arith\.fptoui %\w+ : f32 to i8", r"arith\.constant 2\.550000000e\+02 : f32"], [r"fptosi"]),
    ("u8-to-f32", (2, 3, 4, 5), "nchw", "u8", "nchw", "f32", (), True, [r"arith\.uitofp %\w+ : i8 to f32"], [r"sitofp"]),
    ("u8-to-s8", (2, 3, 4, 5), "nchw", "u8", "nchw", "s8", (), True,
     [r"arith\.extui %\w+ : i8 to i32", r"arith\.minsi", r"arith\.trunci %\w+ : i32 to i8"], []),
    # integers reach bf16 through f32, rounded in integer ops: SPIR-V cannot lower sitofp to bf16, and
    # the canonicalizer would fold sitofp + truncf back into it
    ("s8-to-bf16-via-f32", (2, 3, 4, 5), "nchw", "s8", "nchw", "bf16", (), True,
     [r"arith\.sitofp %\w+ : i8 to f32", r"arith\.bitcast %\w+ : i16 to bf16"],
     [r"arith\.sitofp %\w+ : i8 to bf16", r"arith\.truncf"]),
    ("f32-to-bf16-truncf", (2, 3, 4, 5), "nchw", "f32", "nchw", "bf16", (), True,
     [r"arith\.truncf %\w+ : f32 to bf16"], [r"arith\.bitcast"]),
    ("dst-init-view", (2, 17, 3, 5), "nchw", "f32", "view", "f32", (), True,
     [r"%dst_init: tensor<\d+xf32>", r"tensor\.insert_slice"], []),
    ("gather-interleaved", (2, 17, 3, 5), "interleaved", "f32", "nchw", "f32", (), True,
     [r"linalg\.index 3 : index", r"tensor\.extract %src\["], []),
]


def _golden_text(row, header: bool = False):
    cid, dims, s, sdt, d, ddt, q, use_pack, _, _ = row
    return render_reorder(case(cid, dims, s, sdt, d, ddt, q).chain, form="pack" if use_pack else "transpose",
                          header=header)


@pytest.mark.parametrize("row", GOLDEN, ids=lambda r: r[0])
def test_golden_lines(row):
    text = _golden_text(row)
    for rx in row[8]:
        assert re.search(rx, text, re.M), f"{row[0]}: no line matches {rx!r} in\n{text}"
    for rx in row[9]:
        assert not re.search(rx, text, re.M), f"{row[0]}: a line matches {rx!r} in\n{text}"


def test_header_names_template_and_generator():
    text = _golden_text(GOLDEN[0], header=True)
    assert text.splitlines()[:3] == ["// Auto-generated file. Do not edit!", "//   Template: reorder.mlir.j2",
                                     f"//   Generator: kgen {__version__}"]
    # then the buffers' type aliases, used in the signature
    assert text.splitlines()[3:6] == ["!src_buf = tensor<680xf32>", "!dst_buf = tensor<960xf32>", ""]
    assert "(%src: !src_buf) -> !dst_buf {" in text
    chains = [list(c.chain) for c in MATRIX_CASES[:5]]
    module = render_reorder_module(chains + chains[:2])         # duplicates are rendered once
    assert module.count("Auto-generated file") == 1
    assert module.count("func.func") == 5
    for ch in chains:
        assert f"func.func @{kernel_name(ch)}(" in module


def test_interleaved_destination_is_unsupported():
    dims = (2, 17, 3, 5)
    src = MemoryDesc(dims, "f32", "nchw")
    with pytest.raises(UnsupportedError, match="interleave"):
        render_reorder(ReorderProblem(src, desc_interleaved(dims, "f32")))


def test_distinct_layouts_get_distinct_kernel_names():
    """A blocked sub-memory view and a plain strided desc with the same strides and offset0 differ in
    layout, so their kernels must differ in name (build_reorders keeps one kernel per name)."""
    blocked_view = MemoryDesc((1, 16, 3, 5), "f32", "nChw8c").submemory((1, 8, 3, 5), (0, 8, 0, 0))
    plain = MemoryDesc((1, 8, 3, 5), "f32", strides=blocked_view.strides, offset0=blocked_view.offset0)
    assert blocked_view != plain and not np.array_equal(blocked_view.offsets(), plain.offsets())
    dst = MemoryDesc((1, 8, 3, 5), "f32", "nchw")
    assert ReorderProblem(blocked_view, dst).name != ReorderProblem(plain, dst).name


# =============================================================================================
# 8. Saturation and rounding
# =============================================================================================

def check_saturation(row, kernel, backend):
    cid, sdt, ddt, values, expected = row
    p = kernel.problems[0]
    src = p.src.to_physical(np.array(values, np.float64).reshape(p.dims).astype(p.src.dtype.np_dtype))
    got = kernel(src)
    where = f"{backend} {cid}"
    assert_same_buffer(got, kernel.reference(src), p.dst, where)
    vals = p.dst.from_physical(got.view(p.dst.dtype.np_dtype)).ravel().astype(np.int64)
    assert vals.tolist() == list(expected), f"{where}: {values} -> {vals.tolist()}, expected {list(expected)}"


@pytest.mark.parametrize("row", SATURATION, ids=lambda r: r[0])
def test_saturation_and_rounding(row, cpu_kernels):
    check_saturation(row, kernel_for(cpu_kernels, saturation_case(row)), "llvm-cpu")


# =============================================================================================
# 9. The "shuffle" form: a transposition microkernel (emit.reorder.shuffle_plan)
# =============================================================================================

def test_shuffle_network_transposes_16x16():
    """The 64 shuffles, replayed on NumPy rows, give the transpose (independent of the generator's own
    check, on values rather than indices)."""
    from generator.emit.relayout import TRANSPOSE_16
    rows = {f"r{i}": np.random.default_rng(i).standard_normal(16) for i in range(16)}
    tile = np.stack([rows[f"r{i}"] for i in range(16)])
    for out, a, b, mask in TRANSPOSE_16:
        rows[out] = np.concatenate([rows[a], rows[b]])[mask]
    assert len(TRANSPOSE_16) == 64
    assert np.array_equal(np.stack([rows[f"o{i}"] for i in range(16)]), tile.T)


@pytest.mark.parametrize("lanes", [2, 4])
def test_widened_shuffle_network_transposes_tiles_side_by_side(lanes):
    """The network on rows of 16 * lanes values (8- and 16-bit elements): output o_j's lane L is row j
    of tile L's transpose (replayed on NumPy values, independent of the generator's check)."""
    from generator.emit.relayout import TRANSPOSE_16, widened_network
    w = 16 * lanes
    block = np.random.default_rng(lanes).standard_normal((16, w))
    rows = {f"r{i}": block[i] for i in range(16)}
    for out, a, b, mask in widened_network(TRANSPOSE_16, lanes):
        rows[out] = np.concatenate([rows[a], rows[b]])[mask]
    for lane in range(lanes):
        tile = block[:, 16 * lane:16 * lane + 16]
        assert np.array_equal(np.stack([rows[f"o{j}"][16 * lane:16 * lane + 16] for j in range(16)]), tile.T)


@pytest.mark.parametrize("lanes", [2, 4])
def test_lane_split_gives_each_stacked_tiles_row(lanes):
    """The lane split turns 16 whole-register loads of contiguous 16-element rows into r_m = row m of
    each stacked tile (tile L's in lane L), which the widened network then transposes."""
    from generator.emit.relayout import lane_split_network
    w = 16 * lanes
    rows = np.random.default_rng(20 + lanes).standard_normal((16 * lanes, 16))
    regs = {f"z{k}": rows[lanes * k:lanes * k + lanes].reshape(-1) for k in range(16)}
    for out, a, b, mask in lane_split_network(lanes):
        regs[out] = np.concatenate([regs[a], regs[b]])[mask]
    for m in range(16):
        assert np.array_equal(regs[f"r{m}"], rows[m::16].reshape(-1)), m
    assert len(regs["r0"]) == w


@pytest.mark.parametrize("lanes", [2, 4])
def test_lane_merge_gives_whole_columns_in_order(lanes):
    """After the widened network, the lane merge leaves d_m = columns lanes * m .. + lanes - 1 of the
    block, each column's 16 values in row order: one store where the destination rows are 16 long."""
    from generator.emit.relayout import TRANSPOSE_16, lane_merge_network, widened_network
    w = 16 * lanes
    block = np.random.default_rng(10 + lanes).standard_normal((16, w))
    regs = {f"r{i}": block[i] for i in range(16)}
    for out, a, b, mask in widened_network(TRANSPOSE_16, lanes) + lane_merge_network(lanes):
        regs[out] = np.concatenate([regs[a], regs[b]])[mask]
    for m in range(16):
        assert np.array_equal(regs[f"d{m}"], block[:, lanes * m:lanes * m + lanes].T.reshape(-1))


def _big_view():
    # channels 3..21 and rows 1..7 of a 2x24x9x10 image: a channel and a row pitch, full rows
    return MemoryDesc((2, 24, 9, 10), "f32", "nchw").submemory((2, 19, 7, 10), (0, 3, 1, 0))


SHUFFLE_CASES = [
    # (id, src desc, dst tag): tails in both tile dims, whole tiles, 3D and 1D, s32, views, one batch
    ("nchw-nhwc-tails", MemoryDesc((2, 19, 7, 8), "f32", "nchw"), "nhwc"),
    ("nhwc-nchw-tails", MemoryDesc((2, 19, 7, 8), "f32", "nhwc"), "nchw"),
    ("nhwc-nchw-33", MemoryDesc((2, 33, 4, 9), "f32", "nhwc"), "nchw"),
    ("nchw-nhwc-whole-tiles", MemoryDesc((1, 32, 8, 8), "f32", "nchw"), "nhwc"),
    ("nchw-nhwc-narrow", MemoryDesc((3, 5, 1, 3), "s32", "nchw"), "nhwc"),
    ("ncdhw-ndhwc", MemoryDesc((1, 17, 3, 3, 5), "f32", "ncdhw"), "ndhwc"),
    ("ncw-nwc", MemoryDesc((4, 16, 40), "f32", "ncw"), "nwc"),
    ("nchw-view-nhwc", _big_view(), "nhwc"),
    ("pitched-nchw-nhwc", MemoryDesc((2, 18, 5, 6), "s32", strides=(18 * 40, 40, 6, 1)), "nhwc"),
    # whole channel blocks: a transposition per block of channels (B = N * C/b)
    ("nchw-nChw16c", MemoryDesc((2, 32, 5, 7), "f32", "nchw"), "nChw16c"),
    ("nChw16c-nchw", MemoryDesc((2, 32, 5, 7), "f32", "nChw16c"), "nchw"),
    ("nchw-NCHW4-s32", MemoryDesc((3, 8, 3, 5), "s32", "nchw"), "NCHW4"),
    ("nChw8c-nchw-3d", MemoryDesc((1, 16, 2, 3, 19), "f32", "nCdhw8c"), "ncdhw"),
    # 16- and 8-bit elements (the 16 x 16 network on 256- and 128-bit vectors, or 2 or 4 tiles at a
    # time: WIDE_CASES, TALL_CASES); tails, whole 64-byte rows (32 bf16, 64 u8: streamed), a view, blocks
    ("nchw-nhwc-bf16-tails", MemoryDesc((2, 19, 7, 8), "bf16", "nchw"), "nhwc"),
    ("nhwc-nchw-f16-33", MemoryDesc((2, 33, 4, 9), "f16", "nhwc"), "nchw"),
    ("nchw-nhwc-bf16-whole-rows", MemoryDesc((1, 32, 8, 8), "bf16", "nchw"), "nhwc"),
    ("nchw-nhwc-u8-whole-rows", MemoryDesc((1, 64, 4, 5), "u8", "nchw"), "nhwc"),
    ("nhwc-nchw-s8-tails", MemoryDesc((3, 17, 5, 3), "s8", "nhwc"), "nchw"),
    ("nchw-view-nhwc-bf16", MemoryDesc((2, 24, 9, 10), "bf16", "nchw").submemory((2, 19, 7, 10), (0, 3, 1, 0)),
     "nhwc"),
    ("nChw16c-nchw-u8", MemoryDesc((2, 32, 5, 7), "u8", "nChw16c"), "nchw"),
    # 4 (8-bit) or 2 (16-bit) tiles side by side in one 512-bit register (WIDE_CASES says where)
    ("nchw-nhwc-s8-wide-tails", MemoryDesc((2, 37, 9, 10), "s8", "nchw"), "nhwc"),
    ("nchw-nChw16c-u8-wide", MemoryDesc((1, 48, 11, 13), "u8", "nchw"), "nChw16c"),
    ("nchw-nhwc-u8-wide-chunks", MemoryDesc((1, 16, 40, 41), "u8", "nchw"), "nhwc"),
    ("nchw-nhwc-bf16-wide", MemoryDesc((2, 24, 5, 17), "bf16", "nchw"), "nhwc"),
    ("nchw-view-nhwc-s8-wide", MemoryDesc((2, 40, 9, 70), "s8", "nchw").submemory((2, 33, 7, 70), (0, 3, 1, 0)),
     "nhwc"),
    # ... or stacked, where the rows hold fewer whole blocks (nChw16c -> nchw: one): a stack, 16-row
    # tiles and a row tail below it, a column tail beside it
    ("nChw16c-nchw-s8-tall-tails", MemoryDesc((2, 32, 9, 9), "s8", "nChw16c"), "nchw"),
    ("nChw16c-nchw-u8-tall-whole", MemoryDesc((1, 16, 8, 8), "u8", "nChw16c"), "nchw"),
    ("nChw16c-nchw-bf16-tall", MemoryDesc((1, 32, 5, 7), "bf16", "nChw16c"), "nchw"),
    ("nhwc-nchw-s8-tall-17", MemoryDesc((2, 17, 7, 10), "s8", "nhwc"), "nchw"),
    ("nhwc-view-nchw-u8-tall", MemoryDesc((2, 20, 12, 40), "u8", "nhwc").submemory((2, 20, 10, 40), (0, 0, 1, 0)),
     "nchw"),
    # channel blocks whose last one is partial (relayout.BlockTail): the padded lanes stored as zeros,
    # the padded channels not stored; no full block at all (the stem), a block of 32 with a zero tile,
    # 1D and 3D
    ("nchw-nChw16c-tail-f32", MemoryDesc((2, 17, 5, 7), "f32", "nchw"), "nChw16c"),
    ("nChw16c-nchw-tail-f32", MemoryDesc((2, 17, 5, 7), "f32", "nChw16c"), "nchw"),
    ("nchw-nChw16c-stem-s8", MemoryDesc((1, 3, 9, 15), "s8", "nchw"), "nChw16c"),
    ("nchw-nChw32c-tail-u8", MemoryDesc((2, 40, 4, 20), "u8", "nchw"), "nChw32c"),
    ("nChw16c-nchw-tail-s8-tall", MemoryDesc((2, 24, 9, 9), "s8", "nChw16c"), "nchw"),
    ("nChw32c-nchw-tail-bf16", MemoryDesc((1, 40, 5, 13), "bf16", "nChw32c"), "nchw"),
    ("ncw-nCw16c-tail-f32", MemoryDesc((3, 20, 37), "f32", "ncw"), "nCw16c"),
    ("ncdhw-nCdhw16c-tail-s8", MemoryDesc((1, 18, 3, 4, 7), "s8", "ncdhw"), "nCdhw16c"),
    ("nCdhw16c-ncdhw-tail-u8", MemoryDesc((2, 18, 2, 5, 7), "u8", "nCdhw16c"), "ncdhw"),
    ("nchw-nChw16c-bf16-wide", MemoryDesc((2, 32, 5, 9), "bf16", "nchw"), "nChw16c"),
]


@pytest.mark.parametrize("cid,src,dtag", SHUFFLE_CASES, ids=[c[0] for c in SHUFFLE_CASES])
@pytest.mark.parametrize("stream", [False, True], ids=["cached", "nontemporal"])
def test_shuffle_form_matches_reference(cid, src, dtag, stream, monkeypatch):
    import generator.emit.reorder as er
    if stream:      # the stores past the caches, as for a destination bigger than SHUFFLE_STREAM_BYTES
        monkeypatch.setattr(er, "SHUFFLE_STREAM_BYTES", 0)
    p = ReorderProblem(src, MemoryDesc(src.dims, src.dtype, dtag))
    text = render_reorder(p, form="shuffle")
    r, _ = er.transposed_dims(er.shuffle_plan([p]))
    # only rows of whole 64-byte lines stream, and only by stores of whole lines (a streaming store of
    # part of a line ran 20x slower on an Intel Xeon: test_shuffle_form_streams_whole_lines_only)
    streamed = [int(m) for m in re.findall(r"nontemporal = true : .*, vector<(\d+)x\w+>", text)]
    assert all(n * src.dtype.itemsize == 64 for n in streamed), streamed
    whole_rows = stream and r * src.dtype.itemsize % 64 == 0
    assert not streamed or whole_rows
    if src.dtype.itemsize == 4:          # every full tile's column is a whole line
        assert bool(streamed) == whole_rows
    assert "flow.dispatch @" in text and "linalg.transpose" not in text
    # 8- and 16-bit tiles go 4 or 2 through one 512-bit register, side by side or stacked
    lanes = 4 // src.dtype.itemsize
    assert (f"vector<{16 * lanes}x" in text and lanes > 1) == (cid in WIDE_CASES | TALL_CASES), cid
    assert ("%h_o0 = vector.shuffle" in text) == (cid in TALL_CASES), cid
    # side by side into rows of 16 elements (nChw16c, nhwc with C = 16): whole-register stores
    assert ("%yf = memref.collapse_shape" in text) == (cid in MERGED_CASES), cid
    # stacked from rows of 16 contiguous elements (nChw16c): whole-register loads
    assert ("%xf = memref.collapse_shape" in text) == (cid in SPLIT_CASES), cid
    k = ReorderKernel([p], "llvm-cpu", form="shuffle", driver="local-sync")
    assert check_reorder(k, p) is None, cid


def test_shuffle_form_streams_whole_lines_only():
    # a destination bigger than the caches is stored past them only by stores of whole 64-byte lines:
    # bf16 32x64x56x56 nchw -> nhwc stored its tiles' 32-byte columns streaming and took 28 ms on one
    # thread of an Intel Xeon (Emerald Rapids), against 1.3 ms stored through the caches
    import generator.emit.reorder as er
    for dt, tags, dims, streams in [("f32", ("nchw", "nhwc"), (32, 64, 56, 56), True),
                                    ("bf16", ("nchw", "nhwc"), (32, 64, 56, 56), False),
                                    ("s8", ("nchw", "nhwc"), (64, 64, 56, 56), False),
                                    ("s8", ("nChw8c", "nchw"), (128, 32, 56, 56), False),
                                    ("bf16", ("nChw16c", "nchw"), (32, 64, 56, 56), True),
                                    ("u8", ("nhwc", "nchw"), (128, 32, 56, 56), True)]:
        p = ReorderProblem(MemoryDesc(dims, dt, tags[0]), MemoryDesc(dims, dt, tags[1]))
        assert p.dst.size_bytes > er.SHUFFLE_STREAM_BYTES
        text = render_reorder(p, form="shuffle")
        streamed = [int(m) for m in re.findall(r"nontemporal = true : .*, vector<(\d+)x\w+>", text)]
        assert bool(streamed) == streams, (dt, tags)
        assert all(n * p.dst.dtype.itemsize == 64 for n in streamed), (dt, tags, streamed)


WIDE_CASES = {"nchw-nhwc-bf16-tails", "nhwc-nchw-f16-33", "nchw-nhwc-bf16-whole-rows", "nchw-view-nhwc-bf16", "nchw-nhwc-s8-wide-tails", "nchw-nChw16c-u8-wide",
              "nchw-nhwc-u8-wide-chunks", "nchw-nhwc-bf16-wide", "nchw-view-nhwc-s8-wide", "nchw-nChw16c-stem-s8",
              "nchw-nChw32c-tail-u8", "nChw32c-nchw-tail-bf16", "ncdhw-nCdhw16c-tail-s8", "nchw-nChw16c-bf16-wide"}
SPLIT_CASES = {"nChw16c-nchw-s8-tall-tails", "nChw16c-nchw-u8-tall-whole", "nChw16c-nchw-bf16-tall",
               "nChw16c-nchw-tail-s8-tall", "nCdhw16c-ncdhw-tail-u8"}
MERGED_CASES = {"nchw-nChw16c-u8-wide", "nchw-nhwc-u8-wide-chunks", "nchw-nChw16c-stem-s8", "ncdhw-nCdhw16c-tail-s8",
                "nchw-nChw16c-bf16-wide"}
TALL_CASES = {"nChw16c-nchw-s8-tall-tails", "nChw16c-nchw-u8-tall-whole", "nChw16c-nchw-bf16-tall",
              "nhwc-nchw-s8-tall-17", "nhwc-view-nchw-u8-tall", "nchw-nhwc-u8-whole-rows", "nChw16c-nchw-tail-s8-tall",
              "nCdhw16c-ncdhw-tail-u8"}


def test_shuffle_form_with_host_threads():
    """Cut for two host threads: by image (each part its own dispatch), and one image by rows, each part
    reading its rows through a view of the whole source buffer."""
    for dims, dt in (((4, 17, 9, 8), "f32"), ((1, 40, 12, 10), "f32"), ((1, 40, 12, 10), "bf16"),
                     ((4, 17, 9, 8), "u8")):
        p = ReorderProblem(MemoryDesc(dims, dt, "nchw"), MemoryDesc(dims, dt, "nhwc"))
        k = ReorderKernel([p], "llvm-cpu", form="shuffle", driver="host-threads")
        assert check_reorder(k, p) is None, (dims, dt)


def test_shuffle_host_threads_part_that_is_no_transposition_takes_the_rule():
    """A host-threads slab one row wide is a plain copy: that part falls back to the backend's rule."""
    p = ReorderProblem(MemoryDesc((1, 32, 2, 1), "f32", "nchw"), MemoryDesc((1, 32, 2, 1), "f32", "nhwc"))
    k = ReorderKernel([p], "llvm-cpu", form="shuffle", driver="host-threads")
    assert k.form == "shuffle" and [part.form for part, _ in k._parts] == ["transpose", "transpose"]
    assert check_reorder(k, p) is None


@pytest.mark.parametrize("src,dst,why", [
    (MemoryDesc((2, 19, 7, 8), "f32", "nchw"), MemoryDesc((2, 19, 7, 8), "s8", "nhwc"), "converts"),
    (MemoryDesc((2, 19, 7, 8), "s4", "nchw"), MemoryDesc((2, 19, 7, 8), "s4", "nhwc"), "not 8, 16 or 32-bit"),
    # a partial last block of 8 channels (not a register tile), or read from a view of a bigger tensor
    (MemoryDesc((2, 19, 7, 8), "f32", "nchw"), MemoryDesc((2, 19, 7, 8), "f32", "nChw8c"), "no 2-D transposition"),
    (MemoryDesc((2, 24, 7, 8), "f32", "nchw").submemory((2, 19, 7, 8), (0, 2, 0, 0)),
     MemoryDesc((2, 19, 7, 8), "f32", "nChw16c"), "no 2-D transposition"),
    (MemoryDesc((2, 32, 7, 8), "f32", "nhwc"), MemoryDesc((2, 32, 7, 8), "f32", "nChw16c"), "no 2-D transposition"),
    (MemoryDesc((2, 32, 7, 8), "f32", "nChw8c"), MemoryDesc((2, 32, 7, 8), "f32", "nChw16c"), "no 2-D transposition"),
    (MemoryDesc((2, 19, 7, 8), "f32", "nchw"), MemoryDesc((2, 19, 7, 8), "f32", "nchw"), "no 2-D transposition"),
    (MemoryDesc((8, 6, 3, 3), "f32", "oihw"), MemoryDesc((8, 6, 3, 3), "f32", "hwio"), "no 2-D transposition"),
])
def test_shuffle_form_refuses_what_it_cannot_do(src, dst, why):
    p = ReorderProblem(src, dst)
    with pytest.raises(UnsupportedError, match=f"form 'shuffle' does not apply: .*{why}"):
        render_reorder(p, form="shuffle")
    assert select_reorder_form([p], get_backend("llvm-cpu")) != "shuffle"


def test_shuffle_form_is_the_cpu_default_for_transpositions():
    p = ReorderProblem(MemoryDesc((1, 64, 7, 7), "f32", "nchw"), MemoryDesc((1, 64, 7, 7), "f32", "nhwc"))
    assert select_reorder_form([p], get_backend("llvm-cpu")) == "shuffle"
    # 8- and 16-bit elements where the source rows are the longer side (nchw -> nhwc), or where 4 or 2
    # tiles go through one 512-bit register (`shuffle_tiles`); not where one 8-bit tile goes alone
    # with rows shorter than its 16 (nhwc -> nchw over 49 pixels: a stack of 4 needs 64), nor where
    # the blocks are shorter than a tile (nChw8c)
    for dims, dt, (s_, d_), want in [
            ((1, 16, 7, 7), "bf16", ("nchw", "nhwc"), "shuffle"), ((1, 16, 7, 7), "u8", ("nchw", "nhwc"), "shuffle"),
            ((1, 16, 7, 7), "bf16", ("nhwc", "nchw"), "shuffle"), ((1, 16, 7, 7), "s8", ("nhwc", "nchw"), "transpose"),
            ((1, 16, 8, 8), "s8", ("nhwc", "nchw"), "shuffle"), ((1, 64, 7, 7), "u8", ("nhwc", "nchw"), "shuffle"),
            ((1, 32, 8, 8), "s8", ("nChw16c", "nchw"), "shuffle"), ((1, 32, 8, 8), "s8", ("nchw", "nChw8c"), "transpose"),
            ((1, 32, 8, 8), "bf16", ("nChw8c", "nchw"), "transpose")]:
        q = ReorderProblem(MemoryDesc(dims, dt, s_), MemoryDesc(dims, dt, d_))
        assert select_reorder_form([q], get_backend("llvm-cpu")) == want, (dims, dt, s_, d_)
    assert "shuffle" not in get_backend("vulkan").relayout_forms
    assert select_reorder_form([p], get_backend("vulkan")) == "transpose"
    with pytest.raises(UnsupportedError, match="shuffle microkernel is CPU-only"):
        ReorderKernel([p], "vulkan", form="shuffle")
