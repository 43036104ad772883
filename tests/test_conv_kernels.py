"""Convolution kernels against the NumPy reference, benchdnn-style.

Every run kernel is checked the way benchdnn checks a convolution: src, weights and bias are filled
with small integers (`generator.cli.conv_cmd.fill`: |x| <= 4, |w| <= 2, |b| <= 8), so every product
and sum is exact in f32, f16 and bf16 inputs with an f32 accumulator and in s32; the kernel's WHOLE
destination buffer is compared exactly with `ConvProblem.reference` (float64 NumPy, rounded to the
destination type, read and written through `MemoryDesc`'s offset function only), and the padded
area of a blocked destination (channel tails, also under ReLU and bias) must be zero on its own.

The cases are data: LAYOUTS (a data type with src/weights/dst tags per rank) crossed, row by row,
with the SHAPES table (benchdnn descriptors with options, in commented sections). Each row names
the layouts it runs with, so every layout meets tails, groups, strides, dilation and negative
padding without a full cross product (be conservative in adding rows: each is one compile).

Sections: the direct variant on llvm-cpu; a Vulkan sample (lavapipe); CUDA (compile only without
a GPU); golden lines of the rendered MLIR (no compiler); the Python API (run_logical, errors); the
`kgen conv` command line.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
import shlex
import subprocess
import sys
import zlib

import numpy as np
import pytest

from generator.api import ConvKernel, conv
from generator.verify import check_conv, fill_conv
from generator.compile import compile_mlir, cuda_device_available, get_backend, vulkan_device_available
from generator.emit.conv import render_conv
from generator.emit.conv.direct import reduction_split
from generator.emit.target import GENERIC, Mmt4dTile, TargetCaps
from generator.errors import InputError, UnsupportedError
from generator.benchdnn.conv import conv_problem, parse_conv_args, parse_conv_desc
from generator.problem.reference import conv_reference
from generator.problem.conv import ConvProblem, torch_wei_dims

from tiers import conv_covering

# Deliberately fixed: each case's data come from default_rng([SEED, crc32(case line)]), so a case
# sees the same data whatever else runs. SEED is recorded per test and printed at the end of the run
# ("kgen seeds: ..."); every check prints its line and data seed, and failures repeat them.
SEED = 20250311

# =============================================================================================
# The matrix: layouts x shapes
# =============================================================================================

RANKS = (3, 4, 5)                      # 1D, 2D, 3D problems
_SP = {3: "w", 4: "hw", 5: "dhw"}

# name: (--dt, src tags for ranks 3/4/5, dst tags, weights blocking). Weights blocking: "plain" is
# benchdnn's default (any -> abx); "16i16o" is OI<sp>16i16o (gOI<sp>16i16o grouped, Go<i><sp>16g
# depthwise); "4i16o4i" is OI<sp>4i16o4i (gOI<sp>4i16o4i grouped), oneDNN's int8 blocking.
LAYOUTS = {
    "nchw":        ("f32", "ncw nchw ncdhw", "ncw nchw ncdhw", "plain"),
    "nhwc":        ("f32", "nwc nhwc ndhwc", "nwc nhwc ndhwc", "plain"),
    "nhwc_bf16":   ("bf16", "nwc nhwc ndhwc", "nwc nhwc ndhwc", "plain"),
    "16c":         ("f32", "nCw16c nChw16c nCdhw16c", "nCw16c nChw16c nCdhw16c", "16i16o"),
    "16c_f16":     ("f16", "nCw16c nChw16c nCdhw16c", "nCw16c nChw16c nCdhw16c", "plain"),
    "nhwc>16c_f16": ("f16", "nwc nhwc ndhwc", "nCw16c nChw16c nCdhw16c", "16i16o"),
    "x4":          ("s8:s8:s32", "aBc4b NCHW4 aBcde4b", "aBc4b NCHW4 aBcde4b", "4i16o4i"),
    "x32":         ("s8:s8:s32", "aBc32b NCHW32 aBcde32b", "aBc32b NCHW32 aBcde32b", "plain"),
    "x4>x32":      ("s8:s8:s32", "aBc4b NCHW4 aBcde4b", "aBc32b NCHW32 aBcde32b", "plain"),
    "chwn4":       ("s8:s8:s32", "Bca4b CHWN4 Bcdea4b", "Bca4b CHWN4 Bcdea4b", "plain"),
    "8c>16c":      ("f32", "nCw8c nChw8c nCdhw8c", "nCw16c nChw16c nCdhw16c", "plain"),
}

# (layouts, options, descriptor). Options are benchdnn's (default --dir=FWD_B: with an f32 bias).
SHAPES = [
    # --- weird workloads: every dim in 1..7
    ("nchw x4", "", "mb1ic1ih1oc1kh1"),
    ("nhwc 16c", "--dir=FWD_D", "mb3ic2ih3iw5oc3kh2kw3ph1pw0"),
    ("nchw 16c_f16 x32", "--attr-post-ops=relu", "ic7ih7iw2oc5kh3kw2sh3"),
    ("nhwc_bf16 x4", "", "mb1ic4ih6iw7oc6kh5kw1ph2"),
    ("16c nchw", "--dir=FWD_D --attr-post-ops=relu", "mb1ic5ih2iw3oc7kh2kw3pw1"),
    ("x4>x32 nhwc>16c_f16", "", "mb3ic6ih4iw4oc2kh4kw4ph1pw2"),
    # --- channel tails: 17 and 3 (16-blocks and 4-blocks with a tail)
    ("16c 16c_f16 x4 x32", "--attr-post-ops=relu", "ic17ih5oc17kh3ph1"),
    ("16c x4>x32 chwn4 8c>16c", "", "ic3ih6oc17kh3sh2ph1"),
    ("16c_f16 nhwc>16c_f16", "--dir=FWD_D", "ic17ih4oc3kh1"),
    ("x32 16c", "--attr-post-ops=relu", "mb1ic33ih3oc40kh3ph1"),
    # --- stride 2 (also anisotropic)
    ("nchw 16c x4", "", "ic4ih8oc6kh3sh2ph1"),
    ("nhwc 16c_f16", "--attr-post-ops=relu", "ic3ih7iw9oc5kh3kw2sh2sw3ph1pw0"),
    # --- dilation (dh1: taps 2 apart)
    ("nchw 16c_f16 x4", "", "ic4ih9oc5kh3dh1ph2"),
    ("nhwc 16c", "--dir=FWD_D", "ic3ih10iw7oc4kh3kw2sh2dh2dw1ph1pw0"),
    # --- groups
    ("nchw 16c x4 chwn4", "", "g2ic8ih5oc6kh3ph1"),
    ("nhwc_bf16 16c_f16", "--attr-post-ops=relu", "g4ic20ih4oc36kh3ph1"),
    ("16c x32 8c>16c", "--dir=FWD_D", "g2mb3ic34ih5oc34kh2"),
    ("16c x4 chwn4 x32", "--attr-post-ops=relu", "g2ic32ih5oc32kh3sh2ph1"),     # groups on whole blocks
    # --- depthwise (g = ic = oc; 16c uses Goihw16g weights)
    ("16c x4 nhwc", "", "g16ic16ih6oc16kh3ph1"),
    ("nchw 16c_f16 x4>x32", "--dir=FWD_D", "g3ic3ih5oc3kh3sh2ph1"),
    ("16c x32", "--attr-post-ops=relu", "g17mb1ic17ih4oc17kh3ph1"),
    # --- asymmetric padding: derived pads, right pads negative (last rows never read) and positive
    ("nchw 16c chwn4", "", "ic3ih6oc4oh2kh3sh2ph0"),
    ("x4 nhwc_bf16", "--attr-post-ops=relu", "ic5ih5oc4oh2kh3sh2ph0"),
    ("16c_f16 nhwc", "", "ic4ih7oc3oh3kh3sh2ph1"),
    ("nchw x32", "--dir=FWD_D", "ic4ih10iw12oc5oh3ow3kh3kw3sh3sw4"),
    ("16c", "", "ic3ih8oc4oh4kh3sh2"),
    # --- 1D (iw only)
    ("nchw 16c nhwc", "", "ic5iw9oc3kw3pw1"),
    ("16c_f16 x4 chwn4", "--attr-post-ops=relu", "mb3ic17iw7oc4kw2sw2"),
    ("nhwc x32", "--dir=FWD_D", "g2ic6iw12oc4ow3kw3sw4"),
    # --- 3D (id)
    ("nchw 16c nhwc>16c_f16 8c>16c chwn4", "", "ic3id4ih5iw3oc5kd2kh3kw1ph1"),
    ("16c_f16 x32", "--attr-post-ops=relu", "g2ic6id5oc4kd3sd2pd1"),
    ("x4 nhwc_bf16", "", "mb1ic4id7ih3iw3oc3od2oh3ow3kd3kh1kw1sd3"),
]

# Descriptors whose derived right padding the table relies on: axis -> (p, p_r). The brief's
# ih5oh2kh3sh2ph0 reads every input row: p_r = (2-1)*2 - 5 + 3 - 0 = 0, not negative.
PADDING = {
    "ic3ih6oc4oh2kh3sh2ph0": {"h": (0, -1), "w": (0, -1)},
    "ic5ih5oc4oh2kh3sh2ph0": {"h": (0, 0), "w": (0, 0)},
    "ic4ih7oc3oh3kh3sh2ph1": {"h": (1, -1), "w": (1, -1)},
    "ic4ih10iw12oc5oh3ow3kh3kw3sh3sw4": {"h": (0, -1), "w": (0, -1)},
    "ic3ih8oc4oh4kh3sh2": {"h": (0, 1), "w": (0, 1)},
    "g2ic6iw12oc4ow3kw3sw4": {"w": (0, -1)},
    "mb1ic4id7ih3iw3oc3od2oh3ow3kd3kh1kw1sd3": {"d": (0, -1), "h": (0, 0), "w": (0, 0)},
}


def _wtag(kind: str, desc) -> str | None:
    sp = _SP[desc.ndims]
    if kind == "plain":
        return None
    if not desc.has_groups:
        return f"OI{sp}{kind}"
    if kind == "16i16o" and desc.g == desc.ic == desc.oc:
        return f"Goi{sp}16g"
    return f"gOI{sp}{kind}"


def case_line(layout: str, options: str, desc_text: str) -> str:
    """The benchdnn line for one layout and one SHAPES row."""
    dt, stags, dtags, wkind = LAYOUTS[layout]
    d = parse_conv_desc(desc_text)
    r = RANKS.index(d.ndims)
    parts = [f"--dt={dt}", f"--stag={stags.split()[r]}", f"--dtag={dtags.split()[r]}"]
    wtag = _wtag(wkind, d)
    if wtag:
        parts.append(f"--wtag={wtag}")
    if options:
        parts.append(options)
    return " ".join(parts + [desc_text])


def matrix(rows=SHAPES):
    out = []
    for layouts, options, desc_text in rows:
        for layout in layouts.split():
            opts = options.replace("--dir=", "").replace("--attr-post-ops=", "").replace(" ", ",")
            out.append(pytest.param(case_line(layout, options, desc_text),
                                    id=f"{layout}-{desc_text}" + (f"-{opts}" if opts else "")))
    return out


LLVM_CASES = matrix()

# A Vulkan sample: f32/f16/bf16/s8, blocked layouts with tails, groups, depthwise, negative padding,
# relu, no bias, 1D and 3D.
VULKAN_CASES = [
    "--dt=f32 ic3ih5oc4kh3ph1",
    "--dt=f16 --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o --attr-post-ops=relu ic17ih5oc17kh3ph1",
    "--dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW32 ic5ih5oc7kh3ph1",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc --attr-post-ops=relu g2ic4ih5oc6kh3sh2ph1",
    "--dt=bf16 --stag=nhwc --dtag=nchw ic3ih6oc4oh2kh3sh2ph0",
    "--dt=f32 --stag=nhwc --dtag=nChw16c --dir=FWD_D --attr-post-ops=relu g4ic8ih7oc8kh3dh1ph2",
    "--dt=f32 --stag=nCw16c --dtag=nCw16c --wtag=Goiw16g g17ic17iw9oc17kw3sw2pw1",
    "--dt=f16 --stag=ndhwc --dtag=nCdhw16c ic3id4ih5iw3oc5kd2kh3kw1ph1",
    # NCHW depthwise, strided and dilated: its named op is wrong on Vulkan, so it must stay a generic there
    "--dt=f32 --dtag=nchw --attr-post-ops=relu g4ic4ih10oc4kh3sh2dh1ph1",
    # direct over packed tensors: CHWN4 with groups on whole 4-blocks
    "--dt=s8:s8:s32 --stag=CHWN4 --dtag=CHWN4 --attr-post-ops=relu g2mb3ic8ih5oc8kh3ph1",
    # 1x1 int8 convs that IREE turns into matmuls: 60 of 64 outputs wrong with i8 operands on lavapipe
    # (TargetCaps.int8_contraction_wrong), right on widened i32 operands
    "--dt=s8:s8:s32 mb1ic8ih2oc16oh2kh1ph0",
    "--dt=u8:s8:s32 mb2ic64ih6oc32oh6kh1ph0",
]

CUDA_CASES = [
    "--dt=f32 --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o --attr-post-ops=relu ic17ih5oc17kh3ph1",
    "--dt=f16 --stag=nhwc --dtag=nhwc g4ic8ih7oc8kh3dh1ph2",
    "--dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW32 ic5ih6oc7oh2kh3sh2ph0",
]


# =============================================================================================
# The check
# =============================================================================================

def problem_of(line: str) -> ConvProblem:
    cases = list(parse_conv_args(shlex.split(line)))
    assert len(cases) == 1, line
    return conv_problem(cases[0])


def check_line(line: str, backend: str, seed: int, cache_dir) -> None:
    """Compile, run and compare the whole dst buffer exactly; padded dst areas must be zero."""
    p = problem_of(line)
    data_seed = zlib.crc32(line.encode())
    where = f"[{backend}] {line} (SEED {seed}, data seed {data_seed})"
    print(where)
    x, w, b = fill_conv(p, np.random.default_rng([seed, data_seed]))
    src, wei = p.src.to_physical(x), p.wei.to_physical(w.reshape(p.wei.dims))
    k = ConvKernel(p, backend, cache_dir=cache_dir)
    k.prepare(wei)
    got = k(src, b)
    want = p.reference(src, wei, b)
    assert got.shape == want.shape == (p.dst.buffer_nelems,), where
    assert got.dtype == want.dtype == p.dst.dtype.np_dtype, where
    pad = p.dst.padding_mask()
    nz = int(np.count_nonzero(got[pad]))
    assert nz == 0, f"{where}: {nz} padded dst elements are not zero"
    bad = got.astype(np.float64) != want.astype(np.float64)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        pytest.fail(f"{where}: {int(bad.sum())} of {got.size} dst elements differ; first at buffer offset "
                    f"{i}: got {got[i]}, want {want[i]}")
    if p.relu:                        # the data exercise ReLU: it clipped something
        logical = p.dst.from_physical(want)
        assert (logical == 0).any(), f"{where}: no output was clipped by ReLU; pick other data"


# =============================================================================================
# 1. The direct variant on llvm-cpu
# =============================================================================================

def test_matrix_covers_every_layout_and_rank():
    lines = [p.values[0] for p in LLVM_CASES]
    assert 60 <= len(lines) <= 90
    for layout in LAYOUTS:
        assert sum(layout in rows.split() for rows, _, _ in SHAPES) >= 3, layout
    ranks = {problem_of(line).desc.ndims for line in lines}
    assert ranks == set(RANKS)
    blocked_w = {line.split("--wtag=")[1].split()[0] for line in lines if "--wtag=" in line}
    assert {"OIhw16i16o", "gOIhw16i16o", "Goihw16g", "OIhw4i16o4i", "gOIhw4i16o4i"} <= blocked_w
    assert any(" --dir=FWD_D" in l for l in lines) and any("FWD_D" not in l for l in lines)


@pytest.mark.parametrize("desc_text", sorted(PADDING))
def test_derived_padding(desc_text):
    d = parse_conv_desc(desc_text)
    got = {s.axis: (s.p, s.p_r) for s in d.spatial()}
    assert got == PADDING[desc_text]
    assert desc_text in {row[2] for row in SHAPES}


@pytest.mark.parametrize("line", conv_covering(LLVM_CASES))
def test_direct_llvm_cpu(line, seed, kgen_cache_dir):
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)


# The im2col variant (1x1 problems become a GEMM that reads the source directly) on every other
# row of the same matrix, so each layout and rank is covered without doubling the compile time.
IM2COL_CASES = [pytest.param(c.values[0].replace("--dt=", "--alg=im2col --dt=", 1), id="im2col-" + c.id)
                for c in LLVM_CASES[::2]]


@pytest.mark.parametrize("line", conv_covering(IM2COL_CASES))
def test_im2col_llvm_cpu(line, seed, kgen_cache_dir):
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)


# The indirect variant (QNNPACK indirection table read inside the contraction) on every third row.
INDIRECT_CASES = [pytest.param(c.values[0].replace("--dt=", "--alg=indirect --dt=", 1), id="indirect-" + c.id)
                  for c in LLVM_CASES[1::3]]


@pytest.mark.parametrize("line", conv_covering(INDIRECT_CASES))
def test_indirect_llvm_cpu(line, seed, kgen_cache_dir):
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)


# The spatial-pack variant (halo'd tiles gathered, a conv per tile) on every third row, offset 2.
SPATIAL_PACK_CASES = [pytest.param(c.values[0].replace("--dt=", "--alg=spatial_pack --dt=", 1),
                                   id="spatial_pack-" + c.id) for c in LLVM_CASES[2::3]]


@pytest.mark.parametrize("line", conv_covering(SPATIAL_PACK_CASES))
def test_spatial_pack_llvm_cpu(line, seed, kgen_cache_dir):
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)




# A Vulkan sample of the other variants (the direct variant runs every VULKAN_CASES line).
VARIANT_VULKAN_CASES = [pytest.param(c.replace("--dt=", f"--alg={alg} --dt=", 1), id=f"{alg}-{c}")
                        for alg, cases in (("im2col", VULKAN_CASES[:4]), ("indirect", VULKAN_CASES[:4]),
                                           ("spatial_pack", VULKAN_CASES[::2])) for c in cases]


@pytest.mark.parametrize("line", VARIANT_VULKAN_CASES)
def test_variants_vulkan(line, seed, kgen_cache_dir):
    check_on_vulkan(line, seed, kgen_cache_dir)


def test_golden_spatial_pack_tiles():
    # 2D, stride 2, dilation 1: output 9x13 in 4x8 tiles -> 3x2 tiles; each reads a (4-1)*2 + 2*2 + 1 = 11
    # by (8-1)*2 + 5 = 19 window starting every 8 rows and 16 columns; the tiles join the batch (2*3*2 = 12)
    # for one unpadded conv, and a transpose puts (tile, offset) pairs back in place
    p = problem_of("--alg=spatial_pack --dt=f32 ic3ih19iw27oc4oh9ow13kh3kw3sh2sw2dh1dw1ph2pw2")
    text = render_conv(p, header=False)
    assert "tensor<2x3x2x1x3x11x19xf32>" in text
    assert "affine_map<(n, t0, t1, g, c, j0, j1) -> (n, g, c, t0 * 8 + j0, t1 * 16 + j1)>" in text
    assert "util.optimization_barrier" in text
    assert "-> (n, g, ic, o0 * 2 + k0 * 2, o1 * 2 + k1 * 2)>" in text
    assert "outs(%" in text and "tensor<12x1x4x4x8xf32>" in text
    assert "permutation = [0, 3, 4, 1, 5, 2, 6]" in text
    assert "tensor<2x1x4x12x16xf32>" in text


def test_golden_winograd_mmt4d_on_cpu():
    # F(4,3) on 11x11 outputs, mb2: 3x3 tiles (M1 = 2 * 3 rows of tiles), 3 tile columns -> M0 = 4 (one padded column beats M0 = 2's
    # slower tiles and 8's waste), OC 5 -> one N0 tile (16 on AVX-512, 8 on AVX2); weights packed in
    # prepare to (a*a*G, OC/N0, IC, N0, 1); the gather sits behind a barrier so the transforms
    # reduce over a leading dim; GPUs keep the generic batched GEMM
    from generator.emit.conv.winograd import mmt4d_m0

    assert [mmt4d_m0(c) for c in (14, 7, 4, 3, 2, 1, 28)] == [16, 8, 4, 4, 2, 2, 16]
    assert [mmt4d_m0(c, max_m0=8) for c in (14, 7, 4, 3, 2, 1, 28)] == [8, 8, 4, 4, 2, 2, 8]
    p = problem_of("--alg=winograd_f4 --dt=f32 ic3ih11oc5oh11kh3ph1")
    cpu = render_conv(p, TargetCaps(mmt4d_tile=Mmt4dTile(16, 16)), header=False)
    assert "linalg.batch_mmt4d ins(" in cpu and "tensor<36x6x3x4x1xf32>, tensor<36x1x3x16x1xf32>" in cpu
    assert "(n, g, ic, th * 4 + i, (t1 * 4 + t0) * 4 + j)" in cpu and "util.optimization_barrier" in cpu
    avx2 = render_conv(p, TargetCaps(mmt4d_tile=Mmt4dTile(8, 8)), header=False)
    assert "tensor<36x6x3x4x1xf32>, tensor<36x1x3x8x1xf32>" in avx2
    gpu = render_conv(p, get_backend("vulkan"), header=False)
    assert "batch_mmt4d" not in gpu and "(n, g, ic, th * 4 + i, tw * 4 + j)" in gpu


def test_int8_operands_widened_where_the_target_computes_i8_contractions_wrongly():
    # Vulkan: the weights become i32 in prepare, the source is widened behind a barrier (else IREE folds
    # the widening back into the contraction); other targets keep 8-bit operands
    p = problem_of("--dt=u8:s8:s32 mb1ic8ih2oc16oh2kh1ph0")
    gpu = render_conv(p, get_backend("vulkan"), header=False)
    assert "_prepare(%wei: tensor<128xi8>) -> tensor<16x8x1x1xi32>" in gpu and "arith.extui" in gpu and "arith.extsi" in gpu
    assert "util.optimization_barrier" in gpu and "linalg.conv_2d_nchw_fchw" in gpu
    cpu = render_conv(p, get_backend("llvm-cpu"), header=False)
    assert "_prepare(%wei: tensor<128xi8>) -> tensor<1x16x8x1x1xi8>" in cpu and "optimization_barrier" not in cpu
    f32 = render_conv(problem_of("--dt=f32 mb1ic8ih2oc16oh2kh1ph0"), get_backend("vulkan"), header=False)
    assert "optimization_barrier" not in f32


def test_mmt4d_tile_fits_half_the_vector_registers():
    # IREE 3.13 computes mmt4d wrongly once the M0 x N0 accumulators fill the register file (AVX2:
    # 8x16 wrong, 8x8 right; SSE: 8x8 wrong, 8x4 right): every tile kgen picks uses at most half of it
    from generator.compile.backends import MMT4D_TILE_BY_VECTOR_BITS, PORTABLE_MMT4D_TILE, host_mmt4d_tile

    registers = {512: 32, 256: 16, 128: 16}
    for bits, tile in MMT4D_TILE_BY_VECTOR_BITS.items():
        assert tile.max_m0 * tile.n0 <= registers[bits] * bits // 32 // 2, (bits, tile)
        assert tile.n0 == min(bits // 32, 16) or bits == 128
    assert host_mmt4d_tile() in MMT4D_TILE_BY_VECTOR_BITS.values()
    assert get_backend("llvm-cpu").portable().mmt4d_tile == PORTABLE_MMT4D_TILE
    assert get_backend("vulkan").mmt4d_tile is None and get_backend("cuda").mmt4d_tile is None


def test_portable_backend_keeps_no_host_choice():
    # the catalog (mlir/) is rendered for `Backend.portable()`, the same on every CPU: neither the
    # host's tile and features nor the Intel bf16 rule (`Backend.bf16_dot_slow`) reach it
    from generator.compile.backends import PORTABLE_CPU_FEATURES, PORTABLE_MMT4D_TILE

    intel = dataclasses.replace(get_backend("llvm-cpu"), bf16_dot_slow=True, cpu_features=frozenset({"avx2"}))
    row = intel.portable()
    assert (row.mmt4d_tile, row.cpu_features, row.bf16_dot_slow) == (PORTABLE_MMT4D_TILE, PORTABLE_CPU_FEATURES, False)


def test_host_l2_size_is_read_from_sysfs(tmp_path):
    # brgemm's weight panel bound (host_weight_panel_bytes) is a share of this; unreadable: None
    from generator.compile.host import host_l2_bytes

    def cache(name, level, kind, size):
        d = tmp_path / name
        d.mkdir()
        for f, v in (("level", level), ("type", kind), ("size", size)):
            (d / f).write_text(v + "\n")

    cache("index0", "1", "Data", "48K")
    cache("index1", "1", "Instruction", "32K")
    assert host_l2_bytes(str(tmp_path)) is None
    cache("index2", "2", "Unified", "2048K")
    cache("index3", "3", "Unified", "266240K")
    assert host_l2_bytes(str(tmp_path)) == 2 << 20
    (tmp_path / "index2" / "size").write_text("1M\n")
    assert host_l2_bytes(str(tmp_path)) == 1 << 20
    (tmp_path / "index2" / "size").write_text("large\n")
    assert host_l2_bytes(str(tmp_path)) is None
    assert host_l2_bytes(str(tmp_path / "missing")) is None


def test_golden_im2col_channels_last():
    # NHWC keeps channels last: columns (n, o0, o1, g, k0, k1, ic) with ic innermost, weights
    # (G, K*IC, OC) from prepare, and an (O, R) x (R, OC) GEMM; 1x1 stride 2 copies the strided pixels
    # once behind a barrier; NCHW keeps the (IC*K, O) form
    text = _render("--alg=im2col --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc g2ic6ih5oc4oh3kh3sh2ph1")
    assert "(n, o0, o1, g, k0, k1, ic) -> (n, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1, g, ic)" in text
    assert "affine_map<(n, o, g, oc, r) -> (g, r, oc)>" in text and "tensor<2x27x2xi8>" in text
    one = _render("--alg=im2col --dt=f32 --stag=nhwc --dtag=nhwc ic8ih6oc4oh3kh1sh2ph0")
    assert "[1, 2, 2, 1, 1] : tensor<2x5x5x1x8xf32> to tensor<2x3x3x1x8xf32>" in one and "k0" not in one
    assert "(n, g, r, o)" in _render("--alg=im2col --dt=f32 ic8ih6oc4oh6kh3ph1")


def test_golden_indirect_table():
    from generator.problem.conv_math import indirect_offsets

    text = _render("--alg=indirect --dt=f32 ic3ih6oc5oh2kh3sh2ph0")
    table = indirect_offsets((6, 6), (3, 3), (2, 2), (0, 0), (-1, -1), (0, 0))
    assert f'arith.constant dense<"0x{table.astype("<i4").tobytes().hex().upper()}"> : tensor<4x9xi32>' in text
    assert "tensor.extract" in text and "tensor.pad" in text          # one zero pixel appended


# a strided 1x1 in plain NCHW layouts: the strided pixels are copied once and the conv runs at unit
# stride (IREE lowered the strided form at 0.24-0.45 GFLOP/s), 1D / 2D / 3D, groups, int8
STRIDED_1X1_CASES = [
    "--alg=direct --dt=f32 mb2ic20ih13iw11oc24kh1kw1sh2sw3ph0",
    "--alg=direct --dt=s8:s8:s32 g2mb2ic20ih13oc24kh1sh2ph0",
    "--alg=direct --dt=f32 --dir=FWD_B mb2ic8id5ih13iw13oc8kd1kh1kw1sd2sh2sw2pd0ph0pw0",
    "--alg=direct --dt=f16 mb2ic8iw13oc8kw1sw3pw0",
    "--alg=im2col --dt=f32 mb2ic20ih13iw11oc24kh1kw1sh2sw3ph0",
    "--alg=im2col --dt=u8:s8:s32 g2mb2ic20ih13oc24kh1sh2ph0",
]


@pytest.mark.parametrize("line", STRIDED_1X1_CASES)
def test_strided_1x1_in_plain_layouts_matches_the_reference(line, seed, kgen_cache_dir):
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)
    text = _render(line)
    # the strided slice of the (N, G, C/G, sp..) source, then the barrier
    assert re.search(r"tensor.extract_slice .*\] \[1, 1, 1, [23][,\]]", text) and "util.optimization_barrier" in text


# Depthwise convs in named ops: blocked layouts (N, C/b, sp.., b) block by block on llvm-cpu
# (TargetCaps.depthwise_named_ops: the one generic over every block ran 10-30x slower), tails, strides,
# dilation, 1D/3D, every data type; a u8 source widened first (the named ops sign-extend), blocked or
# plain. (line, named depthwise ops in the conv function)
DEPTHWISE_NAMED_CASES = [
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --wtag=Goihw16g g40mb2ic40ih7oc40kh3sh2dh1ph1", 3),
    ("--dt=bf16 --stag=nChw16c --dtag=nChw16c --attr-post-ops=relu g33ic33ih6oc33kh3ph1", 3),
    ("--dt=f16 --stag=nCw16c --dtag=nCw16c g20ic20iw9oc20kw3sw2pw1", 2),
    ("--dt=f32 --stag=nCdhw8c --dtag=nCdhw8c --dir=FWD_D g20ic20id4ih5iw4oc20kd3kh3kw2pd1ph1pw0", 3),
    ("--dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW4 g12ic12ih6oc12kh3ph1", 3),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-zero-points=src:common:2+dst:common:3 g40ic40ih9oc40kh3ph1", 3),
    ("--dt=u8:s8:s32 --stag=nChw8c --dtag=nChw8c --attr-zero-points=src:per_dim_1 g8mb2ic8ih5oc8kh3ph1", 1),
    ("--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:per_dim_1 g40mb2ic40ih9oc40kh3ph1", 1),
    ("--dt=u8:s8:f32 --stag=nwc --dtag=nwc g12ic12iw9oc12kw3pw1", 1),
    # plain layouts with channels outermost: packed into 16-channel blocks and back inside the kernel
    # (emit.conv.plain_blocks); padded channels with f(0) != 0 (tanh) are cut off again
    ("--dt=f32 --attr-post-ops=add:f32:2+tanh g40mb2ic40ih9oc40kh3sh2ph1", 3),
    ("--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-zero-points=src:per_dim_1 "
     "--attr-post-ops=sum:0.5 g40ic40ih9oc40kh3ph1", 3),
    ("--dt=bf16 --stag=ncw --dtag=ncw g20ic20iw11oc20kw3sw2pw1", 2),
    ("--dt=f16 --stag=ncdhw --dtag=ncdhw --dir=FWD_D g20ic20id4ih5iw4oc20kd3kh3kw2pd1ph1pw0", 2),
]


@pytest.mark.parametrize("line, named", DEPTHWISE_NAMED_CASES)
def test_depthwise_in_named_ops_matches_the_reference(line, named, seed, kgen_cache_dir):
    if "--attr" in line:                # attributes: their values generated too (verify.conv_call, seed printed)
        p = problem_of(line)
        from generator.verify import SEED as VERIFY_SEED
        print(f"[llvm-cpu] {line} (data seed {VERIFY_SEED})")
        assert check_conv(ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir), p) is None
    else:
        check_line(line, "llvm-cpu", seed, kgen_cache_dir)
    conv = _conv_function(render_conv(problem_of(line), get_backend("llvm-cpu"), header=False))
    assert conv.count("linalg.depthwise_conv_") == named
    assert ("tensor.concat" in conv) == (named > 1)
    assert ("arith.extui" in conv) == ("u8:" in line)       # u8 zero-extended before the named op
    p = problem_of(line)
    packs = not p.src.is_blocked and p.src.order[1] == 1 and not p.dst.is_blocked
    assert ("linalg.pack" in conv and "linalg.unpack" in conv) == packs
    # elsewhere (GENERIC, Vulkan) blocked depthwise keeps the one generic over the packed tensors
    if "Goihw16g" in line:
        assert "linalg.depthwise_conv_" not in _conv_function(_render(line))


# Blocked depthwise layouts whose blocks are no channels-last slab keep the one generic: CHWN4 (the
# batch inside), a source with its spatial axes permuted (aBdc16b: a block is (N, W, H, 16); fed to the
# named op it came out wrong, or failed to compile on a non-square image)
@pytest.mark.parametrize("line", [
    "--dt=s8:s8:s32 --stag=CHWN4 --dtag=CHWN4 g12mb2ic12ih6oc12kh3ph1",
    "--dt=f32 --stag=aBdc16b --dtag=aBcd16b g16ic16ih6oc16kh3ph1",
    "--dt=f32 --stag=aBdc16b --dtag=aBcd16b g32ic32ih6iw9oc32kh3kw1ph1pw0",
    "--dt=f32 --stag=aBdec8b --dtag=aBcde8b g8ic8id4ih5iw6oc8kd3kh3kw3pd1ph1pw1",
])
def test_depthwise_blocks_that_are_no_channels_last_slab_keep_the_generic(line, seed, kgen_cache_dir):
    conv = _conv_function(render_conv(problem_of(line), get_backend("llvm-cpu"), header=False))
    assert "linalg.depthwise_conv_" not in conv
    check_line(line, "llvm-cpu", seed, kgen_cache_dir)


# Ungrouped 2D convs over a source blocked on 8 channels or more: one conv_2d_nhwc_hwcf per input block
# adding to the last one's sums, then one transpose into any destination layout (TargetCaps.
# blocked_conv_named_ops: the one generic ran 10-20x slower). Tails on both sides, stride, dilation, mb2,
# one block, every data type, int8 attributes and post-ops. (line, named convs in the conv function)
BLOCKED_CONV_NAMED_CASES = [
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o mb2ic40ih9oc19kh3sh2dh1ph1", 3),
    ("--dt=bf16 --stag=nChw16c --dtag=nchw ic32ih6oc20kh3ph1", 2),
    ("--dt=f16 --stag=nChw8c --dtag=nhwc ic20ih7iw9oc33kh3kw2ph1pw0", 3),
    ("--dt=s8:s8:s32 --stag=NCHW32 --dtag=NCHW32 ic40ih6oc33kh3ph1", 2),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c ic16ih9oc16kh1ph0", 1),
    # a plain source packed into 16-channel blocks inside the kernel (emit.conv.plain_blocks):
    # channels-first into any destination, channels-last into a blocked one
    ("--dt=f32 --stag=nchw --dtag=nchw mb2ic40ih9oc19kh3sh2dh1ph1", 3),
    ("--dt=bf16 --stag=nhwc --dtag=nChw16c ic20ih7oc33kh3ph1", 2),
    ("--dt=s8:s8:s32 --stag=nchw --dtag=nhwc ic12ih6oc12kh3ph1", 1),
    ("--dt=s8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-zero-points=src:common:2+dst:common:3 --attr-post-ops=sum+relu mb2ic32ih6oc20kh3ph1", 2),
    # not for it: blocks of 4 channels, a u8 source (the named ops sign-extend), groups, 1D, 3D
    ("--dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW4 ic12ih6oc12kh3ph1", 0),
    ("--dt=u8:s8:s32 --stag=nChw16c --dtag=nChw16c ic32ih6oc20kh3ph1", 0),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c g2ic32ih6oc32kh3ph1", 0),
    ("--dt=f32 --stag=nCw16c --dtag=nCw16c ic20iw9oc20kw3pw1", 0),
    ("--dt=f32 --stag=nCdhw16c --dtag=nCdhw16c ic20id4ih5iw4oc20kd3kh3kw2pd1ph1pw0", 0),
]


@pytest.mark.parametrize("line, named", BLOCKED_CONV_NAMED_CASES)
def test_blocked_convs_in_named_ops_match_the_reference(line, named, seed, kgen_cache_dir):
    p = problem_of("--alg=direct " + line)
    conv = _conv_function(render_conv(p, get_backend("llvm-cpu"), header=False))
    assert conv.count("linalg.conv_") == named
    assert (not _generic_maps(conv) or "zero-points" in line) == bool(named)   # no reduction generic
    if "--attr" in line:
        from generator.verify import SEED as VERIFY_SEED
        print(f"[llvm-cpu] {line} (data seed {VERIFY_SEED})")
        assert check_conv(ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir), p) is None
    else:
        check_line(line, "llvm-cpu", seed, kgen_cache_dir)


# Under the im2col flag set IREE's rewrite of the named depthwise op fails to compile with two images or
# more, and of a chain of named convs whose inputs widen, so there blocked and depthwise convs keep the
# generic (Backend.flag_set_caps): they compile and are right
@pytest.mark.parametrize("line", [
    "--dt=f32 g16mb2ic16ih9oc16kh3ph1",
    "--dt=f32 --stag=nChw16c --dtag=nChw16c g40mb2ic40ih9oc40kh3ph1",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc g16mb2ic16ih9oc16kh3ph1",
    "--dt=bf16 --stag=nChw16c --dtag=nchw mb2ic32ih6oc20kh3ph1",
])
def test_depthwise_and_blocked_under_the_im2col_flag_set_keep_the_generic(line, kgen_cache_dir):
    p = problem_of("--alg=direct " + line)
    conv = _conv_function(render_conv(p, get_backend("llvm-cpu").for_flags("im2col"), header=False))
    assert "linalg.depthwise_conv_2d_nhwc_hwc" not in conv and "tensor.concat" not in conv
    assert "linalg.conv_2d_nhwc_hwcf" not in conv
    from generator.verify import SEED as VERIFY_SEED
    print(f"[llvm-cpu, flags im2col] {line} (data seed {VERIFY_SEED})")
    assert check_conv(ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir, flags="im2col"), p) is None


def test_golden_im2col_and_1x1():
    text = _render("--alg=im2col --dt=f32 g2ic6ih5oc4oh3kh3sh2ph1")
    assert "(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1)" in text   # the gather
    assert "affine_map<(n, g, oc, o, r) -> (n, g, r, o)>" in text                                   # the GEMM
    one = _render("--alg=im2col --dt=f32 ic8ih6oc4oh3kh1sh2ph0")
    # 1x1: no column gather; a stride copies the strided pixels once (folded into the GEMM's map, IREE
    # lowered it as a generic reduction at 0.45 GFLOP/s), then the GEMM reads them densely
    assert "k0" not in one and "(n, g, oc, o0, o1, ic) -> (n, g, ic, o0 * 1, o1 * 1)" in one
    assert "[2, 1, 8, 3, 3] [1, 1, 1, 2, 2]" in one and "util.optimization_barrier" in one
    assert "tensor.extract_slice" not in _render("--alg=im2col --dt=f32 ic8ih6oc4oh6kh1ph0")  # stride 1: none


# =============================================================================================
# 2. Vulkan (lavapipe here; the emitter uses pad+expand+transpose instead of linalg.pack)
def test_bf16_operands_enter_as_bits_where_the_target_cannot_load_bf16_vectors():
    # Vulkan (lavapipe): a conv loading bf16 operands failed to compile ("failed to legalize operation
    # 'vector.bitcast' (vector<2xf32>) -> vector<4xbf16>"); the buffers are bitcast to i16, relayouted
    # as bits and widened to f32 in integer ops, the result rounded to bf16 bits likewise
    p = problem_of("--dt=bf16 --stag=axb --dtag=axb mb1ic32ih4oc16oh4kh1ph0")
    gpu = render_conv(p, get_backend("vulkan"), header=False)
    assert "tensor.bitcast %src : tensor<512xbf16> to tensor<512xi16>" in gpu
    assert "tensor.bitcast %wei : tensor<512xbf16> to tensor<512xi16>" in gpu
    assert "arith.shli" in gpu and "util.optimization_barrier" in gpu and "arith.truncf" not in gpu
    assert "tensor<256xi16> to tensor<256xbf16>" in gpu           # the result: bits, bitcast once
    cpu = render_conv(p, get_backend("llvm-cpu"), header=False)
    assert "xi16>" not in cpu and "tensor.bitcast" not in cpu
    mixed = render_conv(problem_of("--dt=f32:bf16:f32 mb1ic8ih2oc16oh2kh1ph0"), get_backend("vulkan"), header=False)
    assert "tensor.bitcast %wei" in mixed and "tensor.bitcast %src" not in mixed


# before, each of these failed to compile on Vulkan
BF16_AS_BITS_VULKAN_CASES = [
    "--dt=bf16:bf16:f32 --stag=axb --dtag=axb mb1ic64ih8oc64oh8kh1ph0",
    "--dt=bf16 --stag=axb --dtag=axb mb1ic64iw20oc64ow20kw1pw0",
    "--dt=f32:bf16:f32 --stag=axb --dtag=axb mb2ic32iw9oc48ow5kw1sw2pw0",
    "--dt=bf16 --stag=nChw16c --dtag=nChw16c --attr-post-ops=linear:2:1+relu mb2ic20ih5oc20oh5kh3ph1",
    "--dt=bf16 --alg=im2col --stag=axb --dtag=axb g2mb2ic32ih6oc32oh6kh3ph1",
]


@pytest.mark.parametrize("line", BF16_AS_BITS_VULKAN_CASES)
def test_bf16_as_bits_on_vulkan(line, seed, kgen_cache_dir):
    check_on_vulkan(line, seed, kgen_cache_dir)


@pytest.mark.full
def test_vulkan_sweep_of_small_problems(kgen_cache_dir):
    # tests/data/conv/vulkan_sweep: 256 small problems, every variant x layout x data type with random
    # attributes, through `kgen conv --batch` (each checked against the float64 reference); what the
    # target computes wrongly is refused with its reason, nothing fails
    import subprocess
    import sys
    from pathlib import Path

    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    batch = Path(__file__).parent / "data" / "conv" / "vulkan_sweep"
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "conv", "--backend=vulkan", "--jobs=2",
                        f"--batch={batch}"], capture_output=True, text=True, timeout=1800)
    summary = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0 and " failed:0 " in summary + " ", r.stdout[-3000:] + r.stderr[-2000:]
    m = re.search(r"tests:(\d+) passed:(\d+) skipped:(\d+)", summary)
    assert m and int(m.group(1)) == 256 and int(m.group(2)) >= 235, summary
    skipped = [ln for ln in r.stdout.splitlines() if "SKIPPED" in ln]
    assert all("is refused on vulkan" in ln for ln in skipped), skipped


# =============================================================================================

def check_on_vulkan(line: str, seed: int, cache_dir) -> None:
    """check_line on the Vulkan device, skipped with the reason when there is none."""
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    check_line(line, "vulkan", seed, cache_dir)


@pytest.mark.parametrize("line", VULKAN_CASES)
def test_direct_vulkan(line, seed, kgen_cache_dir):
    check_on_vulkan(line, seed, kgen_cache_dir)


# Reductions longer than lavapipe's loop limit lets one shader invocation run (TargetCaps.max_reduction):
# direct splits them into partial sums. Every case came out wrong before the split, in every variant.
LONG_REDUCTION_VULKAN_CASES = [
    "--dt=u8:s8:s32 mb1ic16383ih3oc5oh1kh3ph0",                   # 147447 values an output
    "--dt=f32 --stag=acdb --dtag=acdb mb2ic16383ih5oc3oh3kh3ph0",  # channels last, f32
    "--dt=u8:s8:s32 mb1ic16id36oc4od4kd33pd0",                     # 3D: 575k values, 16 x 11 partial sums
    "--dt=u8:s8:u8 --attr-scales=src:common:0.5+dst:common:2 --attr-zero-points=src:common:3+dst:common:4 "
    "mb1ic4099ih5oc4oh5kh3ph1",                                     # IC 4099 (prime) zero-padded to 5 x 910
    "--dt=s8:s8:u8 --stag=nChw8c --dtag=nChw8c --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:-2+dst:common:1 --attr-post-ops=sum:1.5:2+linear:2:3 "
    "g2mb2ic72000ih4oc14oh2kh3ph0",                                  # blocked, grouped, attributes
]


@pytest.mark.parametrize("line", LONG_REDUCTION_VULKAN_CASES)
def test_long_reductions_split_on_vulkan(line, kgen_cache_dir):
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    p = problem_of(line)
    assert reduction_split(p, get_backend("vulkan")) is not None
    reason = check_conv(ConvKernel(p, "vulkan", cache_dir=kgen_cache_dir), p)
    assert reason is None, f"{line}: {reason}"


def test_reduction_split_chunks():
    vk = get_backend("vulkan")
    # kernel-axis chunks divide their axes, hold at most a quarter of the limit, and are cut innermost-first
    p = problem_of("--dt=u8:s8:s32 mb2ic32id192oc1od1kd192pd0")            # benchdnn's 3d_conv_large_shape:2
    split = reduction_split(p, vk)
    assert split == (1, 1, 32, 192) and math.prod(split) <= vk.max_reduction // 4
    assert reduction_split(problem_of("mb1ic16ih33oc16oh1kh33ph0"), vk) is None        # 17424 values: whole
    assert reduction_split(problem_of("mb1ic16383ih3oc5oh1kh3ph0"), GENERIC) is None    # no limit elsewhere
    # a split whose partial sums would not fit in memory is refused with the reason
    with pytest.raises(UnsupportedError, match="GiB of partial sums"):
        render_conv(problem_of("mb64ic32ih600oc64oh600kh201ph100"), vk)
    # 16383 = 43 x 381 input channels, a poor divisor of the 910 that fit: padded to 19 x 910 channels,
    # partial sums (N, G, OC/G, OH, OW, 19) in one generic, then their sum
    p = problem_of("--dt=f32 mb1ic16383ih3oc5oh1kh3ph0")
    assert reduction_split(p, vk) == (910, 3, 3)
    text = render_conv(p, vk, header=False)
    assert "-> (n, g, s0 * 910 + ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>" in text
    assert "tensor<1x1x5x1x1x19xf32>" in text and "tensor<1x1x17290x3x3xf32>" in text
    assert "affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>" in text


@pytest.mark.parametrize("line", [
    # its zero-point sums over 64 channels ran as two 8-wide subgroups of a 16-thread workgroup, and came
    # out wrong on NVIDIA's driver (subgroups of 32); Winograd's batched GEMM and spatial pack's tile
    # convs were lowered to subgroup reductions too
    "--dt=s8:s8:s32 --attr-zero-points=src:common:1+wei:common:2:s8 mb3ic64ih6oc48oh6kh1ph0",
    "--alg=winograd_f4 --dt=f32 mb1ic32ih8oc32oh8kh3ph1",
    "--alg=spatial_pack --dt=f32 mb1ic64ih8oc32oh8kh3ph1",
])
def test_vulkan_kernels_use_no_subgroup_operations(line, tmp_path):
    # the target names no subgroup operations (`subgroup = none`), so a kernel's reductions do not
    # depend on the device's subgroup width: lavapipe's 8, NVIDIA's 32, AMD's 64
    from iree.compiler.tools.binaries import find_tool
    from generator.compile.cache import with_target
    p = conv_problem(next(iter(parse_conv_args(shlex.split(line)))))
    b = get_backend("vulkan")
    src = tmp_path / "conv.mlir"
    src.write_text(with_target(render_conv(p, b), b))
    out = subprocess.run([find_tool("iree-compile"), str(src), "--compile-to=executable-targets", "-o", "-"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "spirv.func" in out.stdout
    assert "GroupNonUniform" not in out.stdout


def test_long_reductions_refused_by_other_variants_on_vulkan():
    vk = get_backend("vulkan")
    p = problem_of("--alg=im2col mb1ic40000ih3oc5oh3kh1ph0")
    with pytest.raises(UnsupportedError, match=r"refused on vulkan: each output sums 40000 values.*--alg=direct"):
        render_conv(p, vk)
    render_conv(p, get_backend("llvm-cpu"))
    # auto's rule (im2col for a 1x1) falls back to direct, which splits the reduction
    from generator.select import heuristic
    assert heuristic(dataclasses.replace(p, alg="auto"), "vulkan").variant == "direct"


@pytest.mark.parametrize("line, rule, vulkan, cuda", [
    ("mb1ic64ih28oc64oh28kh3ph1", "direct", "im2col", "direct"),
    ("mb1ic32id6oc32od6kd3pd1", "direct", "im2col", "direct"),
    ("g32mb1ic32ih14oc32oh14kh3ph1", "direct", "direct", "direct"),       # depthwise: direct everywhere
    ("mb1ic64ih28oc64oh28kh1ph0", "im2col", "im2col", "direct"),
    ("mb1ic256ih56oc512oh28kh1sh2ph0", "im2col", "im2col", "direct"),
])
def test_auto_rule_per_backend(line, rule, vulkan, cuda, tmp_path, monkeypatch):
    """Untuned auto: im2col first on Vulkan (direct lowers to scalar loops there), direct on CUDA for
    1x1 kernels too (the H200's measurements, `Backend.auto_direct_1x1`)."""
    from generator.select import heuristic, heuristic_variant
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "none.json"))
    p = problem_of("--alg=auto " + line)
    assert heuristic_variant(p) == rule                 # the rule elsewhere (CPUs without brgemm)
    assert heuristic(p, "vulkan").variant == vulkan
    assert heuristic(p, "cuda").variant == cuda


# =============================================================================================
# 3. CUDA: compile always, run only with a device
# =============================================================================================

@pytest.mark.parametrize("line", CUDA_CASES)
def test_direct_cuda_compiles(line, kgen_cache_dir):
    p = problem_of(line)
    art = compile_mlir(render_conv(p, get_backend("cuda")), "cuda", cache_dir=kgen_cache_dir, name="conv")
    assert art.path.is_file() and art.path.stat().st_size > 0


# every other variant compiles for CUDA too (a plain and a blocked/int8 problem between them)
CUDA_VARIANT_CASES = [
    "--alg=direct --dt=f32 --stag=nhwc --dtag=nhwc g2ic8ih7oc8kh3ph1",          # named conv (grouped NHWC)
    "--alg=im2col --dt=f16 --stag=nChw16c --dtag=nChw16c ic17ih6oc5kh3sh2ph1",
    "--alg=im2col --dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW4 ic8ih6oc8kh1",        # 1x1 as a GEMM
    "--alg=winograd --dt=f32 --stag=nchw --dtag=nChw16c ic5ih9oc7kh3ph1",
    "--alg=spatial_pack --dt=s8:s8:s32 --stag=NCHW32 --dtag=NCHW32 ic5ih9oc7kh3sh2ph1",
    "--alg=indirect --dt=f32 --stag=nhwc --dtag=nchw ic5ih9oc7kh3dh1ph2",
    # a 1x1 indirect conv: its one-tap gather is its own op on CUDA (inside the contraction IREE 3.13
    # fails to distribute it)
    "--alg=indirect --dt=f32 --stag=nChw16c --dtag=nChw16c ic20ih9oc24kh1sh2",
    # f16 / bf16 contractions that sm_80's tensor-core MMA computed wrongly on an H200 (half the
    # outputs off by tens to hundreds): compiled without MMA (`Backend.half_multiply_flags`)
    "--alg=direct --dt=f16 ic64ih12oc40kh1",
    "--alg=im2col --dt=bf16 ic40ih10oc36kh3ph1",
    "--alg=spatial_pack --dt=f16 --stag=nhwc --dtag=nhwc ic48ih14oc64kh1sh2",
    # forms sm_80's MMA computed right there, which keep it (`compile.backends.HALF_MMA_RIGHT_SM80`)
    "--alg=direct --dt=f16 --stag=nhwc --dtag=nhwc ic33ih7oc65kh3ph1",
    "--alg=direct --dt=bf16 --stag=nChw16c --dtag=nChw16c ic24ih10oc40kh1sh2",
    "--alg=im2col --dt=bf16 --stag=nhwc --dtag=nhwc mb2ic20ih8oc36kh5ph2",
    "--alg=winograd_f6 --dt=f16 --stag=nChw16c --dtag=nChw16c ic17ih9oc5kh3ph1",
]


def test_cuda_compiles_half_multiplies_without_tensor_core_mma(kgen_cache_dir):
    """f16 and bf16 convs in a form sm_80's MMA computed wrongly are compiled for sm_60 on CUDA (no
    mma.sync), the forms measured right and f32 and int8 ones for sm_80 (IREE 3.13 uses no MMA for
    f32 and int8 anyway); the last --iree-cuda-target wins."""
    from generator.api import compile_conv

    def target(line):
        art = compile_conv(problem_of(line), "cuda", cache_dir=kgen_cache_dir)
        return [f for f in art.flags if f.startswith("--iree-cuda-target=")][-1].split("=")[1]

    assert {line: target(line) for line in (
        "--alg=im2col --dt=f16 ic16ih6oc16kh3ph1", "--alg=im2col --dt=bf16 ic16ih6oc16kh3ph1",
        "--alg=im2col --dt=f32 ic16ih6oc16kh3ph1", "--alg=im2col --dt=u8:s8:s32 ic16ih6oc16kh3ph1",
        "--alg=im2col --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh3ph1",
    )} == {"--alg=im2col --dt=f16 ic16ih6oc16kh3ph1": "sm_60", "--alg=im2col --dt=bf16 ic16ih6oc16kh3ph1": "sm_60",
           "--alg=im2col --dt=f32 ic16ih6oc16kh3ph1": "sm_80", "--alg=im2col --dt=u8:s8:s32 ic16ih6oc16kh3ph1": "sm_80",
           "--alg=im2col --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh3ph1": "sm_80"}
    assert get_backend("llvm-cpu").conv_flags("default", problem_of("--dt=f16 ic16ih6oc16kh3ph1")) == ()


@pytest.mark.parametrize("line, mma", [
    ("--alg=direct --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh3ph1", True),
    ("--alg=direct --dt=f16 --stag=nChw16c --dtag=nChw16c ic16ih6oc16kh1", True),
    ("--alg=direct --dt=bf16 ic16ih6oc16kh3ph1", True),
    ("--alg=direct --dt=bf16 ic16ih6oc16kh1", False),                        # 1x1 in NCHW: wrong on MMA
    ("--alg=im2col --dt=f16 --stag=nChw16c --dtag=nChw16c ic16ih6oc16kh3ph1", False),
    ("--alg=indirect --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh1", True),
    ("--alg=indirect --dt=f16 --stag=nChw16c --dtag=nChw16c ic16ih6oc16kh1", False),
    ("--alg=spatial_pack --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh1", False),
    ("--alg=winograd --dt=f16 ic16ih6oc16kh3ph1", True),
    # what was never measured stays off MMA: other layouts, mixed ones, groups, dilation, 3D
    ("--alg=direct --dt=f16 --stag=nChw8c --dtag=nChw8c ic16ih6oc16kh3ph1", False),
    ("--alg=direct --dt=f16 --stag=nhwc --dtag=nchw ic16ih6oc16kh3ph1", False),
    ("--alg=direct --dt=f16 --stag=nhwc --dtag=nhwc g2ic16ih6oc16kh3ph1", False),
    ("--alg=direct --dt=f16 --stag=nhwc --dtag=nhwc ic16ih6oc16kh3ph2dh1", False),
    ("--alg=direct --dt=f16 ic16id4oc16kd3pd1", False),
    ("--alg=direct --dt=f16 --stag=nhwc --dtag=nhwc --attr-post-ops=relu ic16ih6oc16kh3ph1", False),
])
def test_cuda_keeps_tensor_core_mma_only_for_forms_measured_right(line, mma):
    cuda, p = get_backend("cuda"), problem_of(line)
    assert ("--iree-cuda-target=sm_60" not in cuda.conv_flags(None, p)) == mma
    # in a module with other ops (a network segment) no form keeps MMA: it was measured alone
    assert "--iree-cuda-target=sm_60" in cuda.conv_flags(None, p, alone=False)


def test_cuda_indirect_1x1_gathers_outside_the_contraction():
    one_tap = render_conv(problem_of("--alg=indirect --dt=f32 ic20ih9oc24kh1sh2"), get_backend("cuda"), header=False)
    three = render_conv(problem_of("--alg=indirect --dt=f32 ic20ih9oc24kh3ph1"), get_backend("cuda"), header=False)
    cpu = render_conv(problem_of("--alg=indirect --dt=f32 ic20ih9oc24kh1sh2"), get_backend("llvm-cpu"), header=False)
    gather, inside = "affine_map<(n, g, ic, k, o) ->", "affine_map<(n, g, oc, o, ic, k) ->"
    assert [(gather in t, inside in t) for t in (one_tap, three, cpu)] == [(True, False), (False, True), (False, True)]


@pytest.mark.parametrize("line", CUDA_VARIANT_CASES)
def test_variants_cuda_compile(line, kgen_cache_dir):
    p = problem_of(line)
    art = compile_mlir(render_conv(p, get_backend("cuda")), "cuda", cache_dir=kgen_cache_dir, name="conv")
    assert art.path.is_file() and art.path.stat().st_size > 0


@pytest.mark.parametrize("line", CUDA_VARIANT_CASES)
def test_variants_cuda_run(line, seed, kgen_cache_dir):
    ok, why = cuda_device_available()
    if not ok:
        pytest.skip(f"no CUDA device: {why}")

    p = problem_of(line)
    assert check_conv(ConvKernel(p, "cuda", cache_dir=kgen_cache_dir), p) is None, line


def test_cuda_half_sweep():
    # tests/data/conv/cuda_half_sweep: f16 / bf16 odd shapes over every variant x layout (294 lines),
    # through `kgen conv --batch` on the GPU: the map of the forms sm_80's MMA computes right
    # (compile.backends.HALF_MMA_RIGHT_SM80) is re-checked whole, nothing fails
    from pathlib import Path

    ok, why = cuda_device_available()
    if not ok:
        pytest.skip(f"no CUDA device: {why}")
    batch = Path(__file__).parent / "data" / "conv" / "cuda_half_sweep"
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "conv", "--backend=cuda", f"--batch={batch}"],
                       capture_output=True, text=True, timeout=900)
    summary = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0 and re.search(r"tests:294 passed:222 skipped:72 failed:0\b", summary), \
        r.stdout[-3000:] + r.stderr[-2000:]


@pytest.mark.parametrize("line", CUDA_CASES[:1])
def test_direct_cuda_runs(line, seed, kgen_cache_dir):
    ok, why = cuda_device_available()
    if not ok:
        pytest.skip(f"no CUDA device: {why}")
    check_line(line, "cuda", seed, kgen_cache_dir)


# =============================================================================================
# 4. Golden lines of the rendered MLIR (no compiler)
# =============================================================================================

def _render(line: str, use_pack: bool = True) -> str:
    return render_conv(problem_of(line), GENERIC if use_pack else dataclasses.replace(GENERIC, compiles_pack=False),
                       header=False)


def _generic_maps(text: str) -> list[str]:
    return [l for l in text.splitlines() if "linalg.generic" in l and '"reduction"' in l]


def test_golden_direct_indexing_map():
    # h: stride 2, dilation 1 (taps 2 apart); w: stride 3, dense. Groups whose channels cut through a
    # block (IC/G = 3 in nChw16c) keep the generic over the logical tensor.
    text = _render("--dt=f32 --stag=nChw16c g2ic6ih9iw10oc4oh3ow3kh3kw2sh2sw3dh1ph0pw0")
    (line,) = _generic_maps(text)
    assert ("affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 2 + k0 * 2, o1 * 3 + k1 * 1)>"
            in line)
    assert "affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>" in line
    assert "affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>" in line
    assert ('iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", '
            '"reduction", "reduction", "reduction"]') in line


def _conv_function(text: str) -> str:
    """The conv function alone (not the prepare function)."""
    return text[text.rindex("func.func @"):]


def test_golden_packed_maps():
    # nChw16c -> nChw16c: the generic reads and writes the packed tensors; no relayout in the kernel
    text = _render("--dt=f32 --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o ic17ih9oc19kh3sh2ph1")
    (line,) = _generic_maps(text)
    dims = "(n, g, ocb, o0, o1, ob, icb, k0, k1, ib)"
    assert f"affine_map<{dims} -> (n, g, icb, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1, ib)>" in line
    assert f"affine_map<{dims} -> (g, ocb, icb, k0, k1, ib, ob)>" in line
    assert f"affine_map<{dims} -> (n, g, ocb, o0, o1, ob)>" in line
    conv = _conv_function(text)
    for op in ("linalg.unpack", "linalg.pack", "linalg.transpose"):
        assert op not in conv
    assert "tensor<1x2x2x3x3x16x16xf32>" in conv          # weights (G, OCb, ICb, KH, KW, 16i, 16o), zero-padded
    # CHWN4 (s8): the batch sits inside, next to the channel block
    (line,) = _generic_maps(_render("--dt=s8:s8:s32 --stag=CHWN4 --dtag=CHWN4 mb3ic6ih5oc10kh3ph1"))
    assert f"affine_map<{dims} -> (g, icb, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1, n, ib)>" in line
    assert f"affine_map<{dims} -> (g, ocb, o0, o1, n, ob)>" in line
    # depthwise: the group is the blocked channel
    (line,) = _generic_maps(_render("--dt=f32 --stag=nChw8c --dtag=nChw8c g12ic12ih5oc12kh3ph1"))
    assert "affine_map<(n, gb, o0, o1, gi, k0, k1) -> (gb, k0, k1, gi)>" in line
    # a plain side has no block digit: nchw -> nChw8c reads (n, g, icb, h, w)
    (line,) = _generic_maps(_render("--dt=f32 --dtag=nChw8c ic3ih9oc17kh3sh2ph1"))
    assert "-> (n, g, icb, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1)>" in line


def test_golden_3d_and_1d_maps():
    (l3,) = _generic_maps(_render("--dt=f32 --stag=nCdhw16c ic2id5oc2kd2sd2dd2"))
    assert "(n, g, icb, o0 * 2 + k0 * 3, o1 * 2 + k1 * 3, o2 * 2 + k2 * 3, ib)" in l3
    (l1,) = _generic_maps(_render("--dt=f32 --dtag=nCw16c ic2iw9oc2kw3sw2dw1"))
    assert "affine_map<(n, g, ocb, o0, ob, icb, k0) -> (n, g, icb, o0 * 2 + k0 * 2)>" in l1


def test_golden_type_aliases():
    # a module opens with `!type` aliases for its buffers and prepared weights; one type in two roles
    # gets one alias; the Vulkan wrapper keeps them at the top level, outside `module attributes`
    from generator.compile.cache import with_target

    p = problem_of("--dt=f32 --dtag=nChw16c ic17ih5oc5kh3ph1")
    text = render_conv(p, get_backend("llvm-cpu"))
    head = text.split("func.func")[0]
    assert "!src_buf = tensor<850xf32>\n!wei_buf = tensor<765xf32>\n" in head
    assert "!bias = tensor<5xf32>\n!dst_buf = tensor<800xf32>\n" in head
    assert f"func.func @{p.name}(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {{" in text
    same = render_conv(problem_of("--dt=f32 ic16ih5oc16kh1ph0"))
    assert "!src_dst_buf = tensor<800xf32>\n" in same and "-> !src_dst_buf {" in same
    wrapped = with_target(text, get_backend("vulkan"))
    assert wrapped.index("!dst_buf = ") < wrapped.index("module attributes {hal.device.targets")
    assert "\n!src_buf" not in wrapped.split("module attributes", 1)[1]


def test_golden_prepare_function():
    p = problem_of("--dt=f32 --wtag=gOIhw16i16o g2ic34ih5oc6kh3ph1")
    text = render_conv(p, header=False)
    assert f"func.func @{p.name}_prepare(%wei: tensor<{p.wei.buffer_nelems}xf32>) -> tensor<2x3x17x3x3xf32>" in text
    assert f"func.func @{p.name}(%src: tensor<{p.src.buffer_nelems}xf32>, %w: tensor<2x3x17x3x3xf32>, " \
           f"%bias: tensor<6xf32>) -> tensor<{p.dst.buffer_nelems}xf32>" in text
    # ungrouped: the prepared weights gain a group dim of 1
    p = problem_of("--dt=f16 --dir=FWD_D ic5ih5oc7kh3")
    text = render_conv(p, header=False)
    assert f"@{p.name}_prepare(%wei: tensor<315xf16>) -> tensor<7x5x3x3xf16>" in text
    assert f"@{p.name}(%src: tensor<250xf16>, %w: tensor<7x5x3x3xf16>) -> tensor<126xf16>" in text


@pytest.mark.parametrize("line, op, w_type", [
    ("--dt=f32 ic3ih5oc4kh3sh2dh1ph1", "conv_2d_nchw_fchw", "4x3x3x3xf32"),
    ("--dt=f32 --stag=nhwc --dtag=nhwc --wtag=ohwi ic3ih5oc4kh3ph1", "conv_2d_nhwc_hwcf", "3x3x3x4xf32"),   # HWCF always
    ("--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc g8ic8ih5oc8kh3ph1", "depthwise_conv_2d_nhwc_hwc", "3x3x8xi8"),
    ("--dt=f32 g8ic8ih5oc8kh3ph1", "depthwise_conv_2d_nchw_chw", "8x3x3xf32"),
    ("--dt=f32 g2ic4ih5oc6kh3ph1", "conv_2d_ngchw_gfchw", "2x3x2x3x3xf32"),
    ("--dt=f16 --stag=nhwc --dtag=nhwc g2ic4ih5oc6kh3ph1", "conv_2d_nhwgc_gfhwc", "2x3x3x3x2xf16"),
    ("--dt=f32 --stag=nwc --dtag=nwc ic3iw9oc4kw3sw2", "conv_1d_nwc_wcf", "3x3x4xf32"),
    ("--dt=f32 ic3id4ih5iw5oc4kd3kh3kw3ph1", "conv_3d_ncdhw_fcdhw", "4x3x3x3x3xf32"),
    ("--dt=bf16 --stag=ndhwc --dtag=ndhwc g3ic3id4ih5iw5oc3kd3kh3kw3ph1", "depthwise_conv_3d_ndhwc_dhwc", "3x3x3x3xbf16"),
])
def test_golden_named_convs(line, op, w_type):
    p = problem_of(line)
    text = render_conv(p, header=False)
    assert f"-> tensor<{w_type}> {{" in text.split(f"@{p.name}(")[0]          # prepare's result
    conv_fn = text.split(f"@{p.name}(")[1]
    assert re.search(rf"linalg\.{op} {{dilations = dense<\[[0-9, ]+\]> : tensor<\dxi64>, strides = ", conv_fn)
    assert '"reduction"' not in conv_fn
    if p.src.order[-1] == 1 and p.dst.order[-1] == 1:
        # channels last end to end: the source and destination buffers are only reshaped
        assert "linalg.transpose" not in conv_fn, conv_fn


def test_golden_relu_and_bias():
    text = _render("--dt=f32 --attr-post-ops=relu ic3ih5oc4kh3ph1")
    assert re.search(r"%\w+_ab = arith.addf %\w+_a, %\w+_b : f32", text)
    assert re.search(r"%\w+_r = arith.maximumf %\w+_ab, %\w+_zero : f32", text)
    text = _render("--dt=f32 --dir=FWD_D ic3ih5oc4kh3ph1")
    assert "arith.maximumf" not in text and "%bias" not in text
    # s8 -> s32 without bias stays in integers: relu is maxsi
    text = _render("--dt=s8:s8:s32 --dir=FWD_D --attr-post-ops=relu ic3ih5oc4kh3ph1")
    assert re.search(r"arith.maxsi %\w+_a, %\w+_zero : i32", text) and "arith.maximumf" not in text


def test_golden_s8_path():
    text = _render("--dt=s8:s8:s32 --stag=NCHW4 --dtag=NCHW32 ic5ih5oc7kh3ph1")
    body = text.split('"reduction"]}')[1].split("linalg.yield")[0]     # the conv generic's region
    assert re.search(r"\^bb0\(%\w+_x: i8, %\w+_w: i8, %\w+_a: i32\)", body)
    assert re.search(r"%\w+_xe = arith.extsi %\w+_x : i8 to i32", body)
    assert re.search(r"%\w+_we = arith.extsi %\w+_w : i8 to i32", body)
    assert re.search(r"%\w+_m = arith.muli %\w+_xe, %\w+_we : i32", body)
    assert re.search(r"%\w+_s = arith.addi %\w+_a, %\w+_m : i32", body)
    assert "f32" not in body
    assert re.search(r"linalg.fill ins\(%\w+_z : i32\) outs\(%\w+_e : tensor<2x1x1x5x5x32xi32>\)", text)
    f16 = _render("--dt=f16 --stag=nChw16c ic5ih5oc7kh3ph1")
    assert "arith.extf" in f16 and "arith.truncf" in f16 and "arith.extsi" not in f16
    # the named op widens f16 to its f32 accumulator itself
    f16 = _render("--dt=f16 ic5ih5oc7kh3ph1")
    assert re.search(r"linalg.conv_2d_nchw_fchw .*\n.*tensor<2x5x7x7xf16>, tensor<7x5x3x3xf16>\) outs\(%\w+ : "
                     r"tensor<2x7x5x5xf32>\)", f16)


def test_golden_pack_only_with_use_pack():
    # (direct computes on the packed tensors themselves; im2col relayouts in the kernel)
    line = "--dt=f32 --alg=im2col --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o ic17ih5oc17kh3ph1"
    packed = _render(line, use_pack=True)
    conv_fn = packed.split("_prepare")[1]
    assert "linalg.pack" in conv_fn and "linalg.unpack" in conv_fn
    portable = _render(line, use_pack=False)
    assert "linalg.pack" not in portable and "linalg.unpack" not in portable
    assert "tensor.pad" in portable


# =============================================================================================
# 5. The Python API: run_logical and its errors
# =============================================================================================

API_LINE = "--dt=f32 --stag=nChw16c --dtag=nhwc --wtag=gOIhw16i16o --attr-post-ops=relu g2ic6ih6oc34oh2kh3sh2ph0"


@pytest.fixture(scope="module")
def api_kernel(kgen_cache_dir):
    return conv(API_LINE, cache_dir=kgen_cache_dir)


def test_run_logical_matches_conv_reference(api_kernel, seed):
    p = api_kernel.problem
    x, w, b = fill_conv(p, np.random.default_rng(seed))
    y = api_kernel.run_logical(x, w, b)
    sp = p.desc.spatial()
    want = conv_reference(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64), groups=p.desc.g,
                          strides=[s.s for s in sp], pads_l=[s.p for s in sp], pads_r=[s.p_r for s in sp],
                          dilations=[s.d for s in sp], post_relu=True)
    assert y.shape == tuple(p.desc.dst_dims) == want.shape
    assert np.array_equal(y.astype(np.float64), want), f"SEED {seed}"


def test_run_logical_wrong_shape(api_kernel):
    p = api_kernel.problem
    x = np.zeros(p.desc.src_dims, np.float32)
    w = np.zeros(torch_wei_dims(p.desc), np.float32)
    with pytest.raises(InputError, match="src has shape"):
        api_kernel.run_logical(x[:, :3], w)
    with pytest.raises(InputError, match="wei has shape"):
        api_kernel.run_logical(x, w.reshape(p.wei.dims))       # oneDNN's grouped dims, not PyTorch's


def test_call_before_prepare(kgen_cache_dir):
    k = conv("--dt=f32 --dir=FWD_D ic2ih3oc2kh1", cache_dir=kgen_cache_dir)
    with pytest.raises(InputError, match="prepare"):
        k(np.zeros(k.problem.src.buffer_nelems, np.float32))


def test_bias_to_no_bias_kernel(kgen_cache_dir):
    k = conv("--dt=f32 --dir=FWD_D ic2ih3oc2kh1", cache_dir=kgen_cache_dir)
    k.prepare(np.zeros(k.problem.wei.buffer_nelems, np.float32))
    with pytest.raises(InputError, match="without bias"):
        k(np.zeros(k.problem.src.buffer_nelems, np.float32), np.zeros(2, np.float32))


def test_upload_bias_checks_and_converts(kgen_cache_dir):
    k = conv("--dt=f32 --dir=FWD_D ic2ih3oc2kh1", cache_dir=kgen_cache_dir)
    with pytest.raises(InputError, match="without bias"):
        k.upload_bias(np.zeros(2, np.float32))
    assert k.upload_bias() is None
    k = conv("--dir=FWD_I --dt=u8:s8:s32 --bia-dt=s32 ic2ih3oc2kh1", cache_dir=kgen_cache_dir)
    with pytest.raises(InputError, match="expected \\(2,\\)"):
        k.upload_bias(np.zeros(3))
    with pytest.raises(InputError, match="must hold integers"):
        k.upload_bias(np.array([0.5, 1.0]))
    w = np.ones(k.problem.wei.buffer_nelems, np.int8)
    k.prepare(w)
    x = np.full(k.problem.src.buffer_nelems, 2, np.uint8)
    b = np.array([3, -4])
    assert np.array_equal(k.invoke(k.upload(x), k.upload_bias(b)).to_numpy(), k(x, b))


@pytest.mark.parametrize("alg, msg", [("bogus", "unknown algorithm")])
def test_unsupported_alg(alg, msg):
    p = problem_of("--dt=f32 ic2ih3oc2kh1")
    with pytest.raises(UnsupportedError, match=msg):
        render_conv(dataclasses.replace(p, alg=alg))
    if alg != "bogus":
        with pytest.raises(UnsupportedError):
            conv(f"--alg={alg} --dt=f32 ic2ih3oc2kh1")


# =============================================================================================
# 6. The command line
# =============================================================================================

def kgen(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "generator.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=900)


def test_cli_problems_pass(kgen_cache_dir):
    r = kgen("conv", "--dt=f32", "--stag=nChw16c", "--dtag=nChw16c", "--attr-post-ops=relu", "ic17ih5oc17kh3ph1",
             "--reset", "--dt=s8:s8:s32", "--stag=NCHW4", "--dtag=NCHW32", "g2ic8ih5oc6kh3sh2ph1",
             "--reset", "--dt=f16", "--dir=FWD_D", "ic3iw9oc4kw3pw1")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("kgen conv: seed ")
    assert [l.split(" ")[0] for l in lines[1:-1]] == ["0:PASSED", "1:PASSED", "2:PASSED"], r.stdout
    assert all("__REPRO: " in l for l in lines[1:-1])
    assert lines[-1].startswith("tests:3 passed:3 skipped:0 failed:0")


def test_cli_npy_round_trip(tmp_path, seed, kgen_cache_dir):
    line = "--dt=f32 --attr-post-ops=relu g2ic4ih6iw5oc6kh3kw2sh2ph1"
    p = problem_of(line)
    x, w, b = fill_conv(p, np.random.default_rng(seed))
    for name, a in (("x", x), ("w", w), ("b", b)):
        np.save(tmp_path / f"{name}.npy", a)
    out = tmp_path / "y.npy"
    r = kgen("conv", *shlex.split(line)[:-1], f"--src={tmp_path / 'x.npy'}", f"--wei={tmp_path / 'w.npy'}",
             f"--bia={tmp_path / 'b.npy'}", f"--dst={out}", shlex.split(line)[-1])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "computed:1" in r.stdout.splitlines()[-1]
    y = np.load(out)
    sp = p.desc.spatial()
    want = conv_reference(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64), groups=2,
                          strides=[s.s for s in sp], pads_l=[s.p for s in sp], pads_r=[s.p_r for s in sp],
                          dilations=[s.d for s in sp], post_relu=True)
    assert y.shape == want.shape and y.dtype == np.float32
    assert np.array_equal(y.astype(np.float64), want), f"SEED {seed}"


def test_cli_malformed_descriptor():
    r = kgen("conv", "--dt=f32", "ic3ih5oc4kh3qq7")
    assert r.returncode == 2, r.stdout + r.stderr
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kgen: error: "), r.stderr
    assert "Traceback" not in r.stderr


@pytest.fixture(scope="module")
def npy_inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("npy")
    for name, a in (("x", np.ones((2, 3, 5, 5), np.float32)), ("x_shape", np.ones((2, 3, 5, 4), np.float32)),
                    ("x_int", np.ones((2, 3, 5, 5), np.int32)), ("w", np.ones((4, 3, 3, 3), np.float32)),
                    ("w_grouped", np.ones((1, 4, 3, 3, 3), np.float32)), ("b5", np.ones(5, np.float32))):
        np.save(d / f"{name}.npy", a)
    (d / "junk.npy").write_text("not an array")
    return d


# Each bad input gives exit 2 and one line on stderr, before anything is compiled.
BAD_CONV_ARGS = [
    (["ic3ih5oc4kh3qq7"], "bad conv descriptor"),                                  # malformed
    (["ic3ih5oc4oh3kh3ph1"], "oh=3 is too small"),                                 # inconsistent output
    (["ic3ih5oc4kh0"], "'kh' was not specified or set to 0"),                      # zero kernel
    (["ic3ih5oc4kh7"], "exceeds the padded input"),                                # kernel over input
    (["g2ic3ih5oc4kh3"], "not a multiple of g=2"),
    (["ic3ih5oc4kh3sh0"], "'sh'"),
    (["--stag=nChw99q", "ic3ih5oc4kh3"], "format tag 'nChw99q'"),
    (["--stag=ncdhw", "ic3ih5oc4kh3"], "describes 5 dims but 4"),
    (["--backend=metal", "ic3ih5oc4kh3"], "unknown backend 'metal'"),
    (["--alg=fast", "ic3ih5oc4kh3"], "unknown algorithm 'fast'"),
    (["--mode=X", "ic3ih5oc4kh3"], "'--mode'"),
    (["--batch=/nonexistent/list", "ic3ih5oc4kh3"], "not found"),
    (["--src={d}/x_shape.npy", "--wei={d}/w.npy", "ic3ih5oc4kh3"], "has shape 2x3x5x4, expected 2x3x5x5"),
    (["--src={d}/x_int.npy", "--wei={d}/w.npy", "ic3ih5oc4kh3"], "has dtype int32, expected f32 (float32)"),
    (["--src={d}/x.npy", "--wei={d}/w_grouped.npy", "ic3ih5oc4kh3"], "expected 4x3x3x3"),
    (["--src={d}/x.npy", "--wei={d}/w.npy", "--bia={d}/b5.npy", "ic3ih5oc4kh3"], "has shape 5, expected 4"),
    (["--src={d}/junk.npy", "--wei={d}/w.npy", "ic3ih5oc4kh3"], "not a .npy file"),
    (["--src={d}/missing.npy", "--wei={d}/w.npy", "ic3ih5oc4kh3"], "file not found"),
    (["--src={d}/x.npy", "ic3ih5oc4kh3"], "--src needs --wei"),
    (["--src={d}/x.npy", "--wei={d}/w.npy", "--dst=/nonexistent/dir/y.npy", "ic3ih5oc4kh3"], "cannot write --dst"),
]


@pytest.mark.parametrize("args, msg", BAD_CONV_ARGS, ids=[" ".join(a).replace("{d}/", "") for a, _ in BAD_CONV_ARGS])
def test_cli_bad_input(args, msg, npy_inputs, kgen_cache_dir):
    r = kgen("conv", *[a.format(d=npy_inputs) for a in args])
    assert r.returncode == 2, r.stdout + r.stderr
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kgen: error: "), r.stderr
    assert msg in err[0], err[0]


def test_cli_zero_volume_is_no_work(kgen_cache_dir):
    r = kgen("conv", "mb0ic3ih5oc4kh3")                  # legal in oneDNN: nothing to compute
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1].startswith("tests:1 passed:1 skipped:0 failed:0")


def test_cli_not_applicable_variant_skipped():
    r = kgen("conv", "--alg=winograd", "--dt=f32", "ic3ih5oc4oh3kh3sh2ph1")
    assert r.returncode == 0, r.stdout + r.stderr
    (line,) = [l for l in r.stdout.splitlines() if l.startswith("0:")]
    assert line.startswith("0:SKIPPED (--alg=winograd does not apply: Winograd needs stride 1"), line
    assert "__REPRO: " in line and "--alg=winograd" in line
    assert r.stdout.splitlines()[-1].startswith("tests:1 passed:0 skipped:1 failed:0")


# =============================================================================================
# Winograd F(2,3), F(4,3), F(6,3): tolerance-checked (fractional transforms), applicability reasons
# =============================================================================================

WINOGRAD_LINES = [
    # (dt, stag, dtag, desc): 2D, 3x3, stride 1, undilated; tails, groups, depthwise, padding 0/1/2
    ("f32", "nchw", "nchw", "mb1ic3ih5oc4oh5kh3ph1"),
    ("f32", "nhwc", "nChw16c", "g2ic6ih7oc4oh7kh3ph1"),
    ("f32", "nChw16c", "nChw16c", "mb2ic17ih9iw6oc33oh7ow4kh3kw3ph0"),
    ("f16", "nhwc", "nhwc", "g4ic4ih6oc4oh8kh3ph2"),
    ("bf16", "nchw", "nChw16c", "ic16ih11oc5oh11kh3ph1"),
]
WINOGRAD_CASES = [pytest.param(f"--alg={alg} --dt={dt} --stag={s} --dtag={d} --attr-post-ops=relu {desc}",
                               id=f"{alg}-{dt}-{s}-{d}-{desc}")
                  for alg in ("winograd_f2", "winograd_f4", "winograd_f6")
                  for dt, s, d, desc in WINOGRAD_LINES]


# 8 tile columns for F(2,3): an mmt4d row tile of 8 over 16 channels (IREE 3.13 computed an 8x16 tile
# wrongly on AVX2; kgen's tile now depends on the CPU's vector registers)
WINOGRAD_CPU_CASES = WINOGRAD_CASES + [
    pytest.param(f"--alg={alg} --dt=f32 mb1ic16ih16oc20oh16kh3ph1", id=f"{alg}-f32-mb1ic16ih16oc20oh16kh3ph1")
    for alg in ("winograd_f2", "winograd_f4")]


@pytest.mark.parametrize("line", conv_covering(WINOGRAD_CPU_CASES))
def test_winograd_llvm_cpu(line, kgen_cache_dir):
    p = problem_of(line)
    assert p.tolerance > 0
    reason = check_conv(ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir), p)
    assert reason is None, f"{line}: {reason}"


# The channels-last CPU form (AVX-512, f32, ungrouped): vector tile transforms around brgemm's f32
# microkernel. Tails everywhere: output rows and columns that are not whole tiles (the last tiles'
# overhanging pixels are not stored), channels not multiples of 16 (zero input channels, output
# channels cropped), a blocked destination whose padded channels must stay zero under f(0) = 1, a sum,
# asymmetric padding, one input channel, several images, groups, bf16 and f16 (widened to f32).
def assert_checks(p: ConvProblem, line: str, cache_dir, driver: str | None = None) -> ConvKernel:
    """`p` built on llvm-cpu (on `driver`) and checked against the float64 reference (`check_conv`:
    benchdnn's tolerances, padded areas zero)."""
    kernel = ConvKernel(p, "llvm-cpu", driver=driver, cache_dir=cache_dir)
    reason = check_conv(kernel, p)
    assert reason is None, f"{line}: {reason}"
    return kernel


WINOGRAD_CL_LINES = [
    "--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nChw16c --attr-post-ops=linear:1:1 mb2ic20ih10iw13oc20oh10ow13kh3kw3ph1pw1",
    "--alg=winograd_f6 --dt=f32 --stag=nhwc --dtag=nhwc mb1ic32ih17iw9oc48oh15ow9kh3kw3ph0pw1",
    "--alg=winograd_f2 --dt=f32 --dir=FWD_B mb3ic1ih4oc3oh4kh3ph1",
    "--alg=winograd_f4 --dt=f32 --stag=nchw --dtag=nchw --attr-post-ops=sum:0.5+relu mb1ic64ih28oc64oh28kh3ph1",
    "--alg=winograd_f6 --dt=f32 --stag=nChw16c --dtag=nhwc mb2ic16ih7oc17oh7kh3ph1",
    "--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc g2mb1ic40ih10iw13oc34oh10ow13kh3kw3ph1pw1",
    "--alg=winograd_f4 --dt=bf16 --stag=nhwc --dtag=nChw16c --attr-post-ops=linear:1:1 g4mb2ic64ih7oc80oh7kh3ph1",
    "--alg=winograd_f6 --dt=bf16:bf16:f32 --stag=nhwc --dtag=nhwc mb1ic24ih9oc16oh9kh3ph1",
    "--alg=winograd_f2 --dt=f16 --stag=nchw --dtag=nchw mb1ic16ih6iw11oc5oh6ow11kh3kw3ph1pw1",
    "--alg=winograd_f6 --dt=f32 --stag=nhwc --dtag=nhwc mb2ic16ih12iw10oc16oh12ow8kh3kw3ph2pw0",
]


@pytest.mark.parametrize("line", WINOGRAD_CL_LINES)
def test_winograd_channels_last_llvm_cpu(line, kgen_cache_dir):
    from generator.compile.host import host_matrix_features
    from generator.emit.conv.winograd import winograd_channels_last

    p = problem_of(line)
    on_avx512 = "avx512f" in host_matrix_features()
    assert winograd_channels_last(p, get_backend("llvm-cpu")) == on_avx512
    assert ("wino_input" in render_conv(p, get_backend("llvm-cpu"))) == on_avx512
    assert_checks(p, line, kgen_cache_dir)


@pytest.mark.parametrize("line", [
    # the host-threads cuts: rows of one image (a bias and a ReLU in the stores), images, output
    # channels of a blocked destination, and of a 7-row image (channels-last slabs)
    "--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc --dir=FWD_B --attr-post-ops=relu mb1ic32ih14iw9oc48oh14ow9kh3kw3ph1pw1",
    "--alg=winograd_f6 --dt=bf16 --stag=nhwc --dtag=nhwc mb3ic16ih9oc32oh9kh3ph1",
    "--alg=winograd_f2 --dt=f32 --stag=nchw --dtag=nChw16c mb1ic16ih7oc64oh7kh3ph1",
    "--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc mb1ic64ih7oc64oh7kh3ph1",
])
def test_winograd_channels_last_host_threads(line, kgen_cache_dir):
    kernel = assert_checks(problem_of(line), line, kgen_cache_dir, "host-threads")
    assert len(kernel._parts) >= 2 or os.cpu_count() == 1


@pytest.mark.parametrize("line, driver", [
    # dilation 2 over the unpadded source read in place (masked), a bias and a ReLU in the stores, the
    # phases' 10 rows in tiles of 4
    ("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc --dir=FWD_B --attr-post-ops=relu mb1ic32ih20oc32oh20kh3dh1ph2",
     None),
    # dilations 3 x 2 with uneven phases (OW 11: 6 and 5 columns), the padded bf16 source, two images
    ("--alg=winograd_f2 --dt=bf16 --stag=nhwc --dtag=nhwc mb2ic20ih15iw13oc24oh15ow11kh3kw3dh2dw1ph3pw1", None),
    # F(6,3) unpadded (phases of 7 and 6 rows), blocked sides with a partial block, the sum after it
    ("--alg=winograd_f6 --dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=sum mb1ic16ih17oc17oh13kh3dh1ph0", None),
    # host threads: the rows of one image cut, each part dilated as the whole
    ("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc mb1ic16ih30oc16oh30kh3dh1ph2", "host-threads"),
])
def test_winograd_dilated_channels_last(line, driver, kgen_cache_dir):
    # A dilated kernel as DH x DW undilated phases (emit.conv.winograd_grid), addressed in place by the
    # tile transforms; only the channels-last form computes it, other targets refuse it
    from generator.compile.host import host_matrix_features

    p = problem_of(line)
    with pytest.raises(UnsupportedError, match="only in its channels-last form"):
        ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir) if "avx512f" not in host_matrix_features() else \
            render_conv(p, TargetCaps(mmt4d_tile=Mmt4dTile(8, 8)))
    if "avx512f" not in host_matrix_features():
        pytest.skip("the channels-last Winograd form needs an avx512f CPU (grep avx512f /proc/cpuinfo)")
    assert_checks(p, line, kgen_cache_dir, driver)


@pytest.mark.parametrize("line, band_bytes, bands, driver", [
    # the masked in-place source, 7 tile rows in bands of 4: the last band's extra row is skipped
    ("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc mb1ic32ih28oc24oh28kh3ph1", 4 * 64512, (4, 2), None),
    # bands that cross images (3 images of 5 tile rows, bands of 3), the padded bf16 source, bias + ReLU
    # in the output transform's stores
    ("--alg=winograd_f2 --dt=bf16 --dir=FWD_B --attr-post-ops=relu --stag=nhwc --dtag=nhwc mb3ic20ih9oc16oh9kh3ph1",
     4 * 15360, (3, 5), None),
    # the smallest bands the weights allow (their bytes, as V and M, here 3 rows: one image), a blocked
    # destination with f(0) != 0 and the sum after the output transform
    ("--alg=winograd_f6 --dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=sum:0.5+linear:2:1 "
     "mb2ic16ih13oc17oh13kh3ph1", 1, (3, 2), None),
    # dilation 2: 2 images x 4 phases x 3 tile rows, bands of 2 crossing phases and images
    ("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc mb2ic16ih18oc16oh18kh3dh1ph2", 1, (2, 12), None),
    # nChw16c read and written in its own blocks, band by band (the first band orders after its source)
    ("--alg=winograd_f4 --dt=f32 --stag=nChw16c --dtag=nChw16c --dir=FWD_B --attr-post-ops=relu mb2ic16ih14oc20oh14kh3ph1",
     1, (2, 4), None),
    # host threads: each row part (5 tile rows) banded on its own, in 3 bands of 2
    ("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc --dir=FWD_B mb1ic16ih40iw9oc16oh40ow9kh3kw3ph1pw1", 1, (2, 5),
     "host-threads"),
])
def test_winograd_channels_last_in_bands(line, band_bytes, bands, driver, kgen_cache_dir, monkeypatch):
    # The tile rows cut into bands (emit.conv.winograd_bands), each band's input transform, GEMM and
    # output transform before the next band's: checked against the reference with small bands
    import generator.emit.conv.winograd as conv_winograd
    from generator.compile.host import host_matrix_features

    monkeypatch.setattr(conv_winograd, "WINOGRAD_BAND_BYTES", band_bytes)
    p = problem_of(line)
    assert conv_winograd.winograd_bands(p) == bands
    if "avx512f" in host_matrix_features() and driver is None:
        text = render_conv(p, get_backend("llvm-cpu"))
        assert text.count("_wino_input(%") == bands[1] + 1           # one definition, a dispatch per band
        assert text.count("stream.executable private") == 3
    assert_checks(p, line, kgen_cache_dir, driver)


@pytest.mark.parametrize("line, driver", [
    # both sides in their own blocks: whole source blocks read in place, a partial destination block
    # (OC 20) written with its lanes past OC zero, a bias and a ReLU in the stores
    ("--alg=winograd_f4 --dt=f32 --stag=nChw16c --dtag=nChw16c --dir=FWD_B --attr-post-ops=relu mb1ic32ih13oc20oh13kh3ph1",
     None),
    # bf16 blocks widened as they are loaded, bf16 blocks stored, two images
    ("--alg=winograd_f6 --dt=bf16 --stag=nChw16c --dtag=nChw16c mb2ic16ih14oc32oh14kh3ph1", None),
    # a dilated kernel's phases over the blocks
    ("--alg=winograd_f4 --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic16ih20oc17oh20kh3dh1ph2", None),
    # a partial source block (IC 20): laid out channels last first; the destination's blocks in place
    ("--alg=winograd_f2 --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic20ih9oc16oh9kh3ph1", None),
    # host threads: slabs of output channel blocks, each part writing its blocks
    ("--alg=winograd_f4 --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic32ih14oc48oh14kh3ph1", "host-threads"),
])
def test_winograd_blocked_sides_in_place(line, driver, kgen_cache_dir):
    # nChw16c read and written in its own 16-channel blocks by the tile transforms
    # (emit.conv.winograd_src_block / winograd_dst_blocks), with no relayout in the kernel
    from generator.compile.host import host_matrix_features
    from generator.emit.conv.winograd import winograd_dst_blocks, winograd_src_block

    p = problem_of(line)
    b = get_backend("llvm-cpu")
    on_avx512 = "avx512f" in host_matrix_features()
    assert bool(winograd_src_block(p, b)) == (on_avx512 and p.desc.ic % 16 == 0)
    assert winograd_dst_blocks(p, b) == on_avx512
    if on_avx512 and driver is None:
        conv = render_conv(p, b).split("\nfunc.func @", 2)[2]
        relayout = any(op in conv for op in ("linalg.unpack", "linalg.pack", "linalg.transpose"))
        assert relayout == (p.desc.ic % 16 != 0)
    assert_checks(p, line, kgen_cache_dir, driver)


def test_winograd_padded_destination_lanes_stay_zero_when_the_source_holds_an_inf(kgen_cache_dir):
    # a padded output channel's M is the source times zero weights: an Inf in the source makes it NaN,
    # and the output transform stores those lanes as 0
    from generator.compile.host import host_matrix_features
    from generator.emit.conv.winograd import winograd_dst_blocks

    p = problem_of("--alg=winograd_f4 --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic16ih9oc20oh9kh3ph1")
    assert winograd_dst_blocks(p, get_backend("llvm-cpu")) == ("avx512f" in host_matrix_features())
    k = ConvKernel(p, "llvm-cpu", cache_dir=kgen_cache_dir)
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, p.desc.src_dims).astype(np.float32)
    x[0, 3, 4, 4] = np.inf
    w = rng.integers(-2, 3, p.wei.dims).astype(np.float32)
    k.prepare(p.wei.to_physical(w))
    got = k(p.src.to_physical(x))
    pad = p.dst.padding_mask()
    assert pad.any() and not np.any(got[pad] != 0)
    assert not np.all(np.isfinite(got))


def test_golden_winograd_bands(monkeypatch):
    # 7 tile rows in bands of 4: one executable per step, a dispatch per band with its first row as an
    # operand; the second band's input transform takes the first band's GEMM result (the order), its
    # output transform writes into the first band's output (tied), and the rows past the 7th are skipped
    import generator.emit.conv.winograd as conv_winograd

    avx512 = TargetCaps(mmt4d_tile=Mmt4dTile(16, 16), cpu_features=frozenset({"avx512f"}))
    p = problem_of("--alg=winograd_f4 --dt=f32 --stag=nhwc --dtag=nhwc mb1ic32ih28oc24oh28kh3ph1")
    whole = render_conv(p, avx512, header=False)
    assert "%row_in" not in whole and "tensor.empty() : tensor<1x28x28x32xf32>" not in whole
    monkeypatch.setattr(conv_winograd, "WINOGRAD_BAND_BYTES", 4 * 64512)
    text = render_conv(p, avx512, header=False)
    assert text.count("stream.executable private") == 3 and text.count("_brgemm(%") == 3     # 1 definition
    inputs = re.findall(r"flow.dispatch @(\w+)::@\w+\(%(\w+), %(\w+), %(\w+)\) : \(tensor<1x28x28x32xf32>", text)
    assert len(inputs) == 2 and inputs[0][0] == inputs[1][0] and inputs[0][1] == inputs[0][2]
    mm0 = re.search(r"%(\w+) = flow.dispatch @\w+_brgemm::", text).group(1)
    assert inputs[1][2] == mm0 and re.search(rf"%{inputs[0][3]} = arith.constant 0 : index", text)
    assert re.search(rf"%{inputs[1][3]} = arith.constant 4 : index", text)
    outputs = re.findall(r"(%\w+) = flow.dispatch @\w+_wino_output::@\w+\(.*\) -> (%\w+)\n", text)
    assert len(outputs) == 2 and outputs[0][1].endswith("_e") and outputs[1][1] == outputs[0][0]
    assert "%row_in = arith.cmpi ult, %flat_row, %total_rows" in text and "%total_rows = arith.constant 7" in text
    assert "-> tensor<1x4x7x1152xf32>" in text


def test_golden_winograd_channels_last_form():
    # F(4,3), mb2, IC 20 -> 32 zero-padded channels, 11x11 outputs in 3x3 tiles of 4: the input transform
    # writes (N, TH, TW, 36 * 32), brgemm multiplies it as a 1x1 conv with 36 groups, the output
    # transform writes (N, 11, 11, 16) and guards the overhanging last row and column; groups of fewer
    # than 16 channels and CPUs without avx512f keep the mmt4d form
    avx512 = TargetCaps(mmt4d_tile=Mmt4dTile(16, 16), cpu_features=frozenset({"avx512f"}))
    text = render_conv(problem_of("--alg=winograd_f4 --dt=f32 ic20ih11oc5oh11kh3ph1"), avx512, header=False)
    assert "flow.dispatch @v" in text and "_wino_input(%" in text and "_wino_output(%" in text
    assert "-> tensor<1x6x3x1152xf32>" in text and "-> tensor<2x11x11x16xf32>" in text
    assert "batch_mmt4d" not in text and "_brgemm(%" in text
    assert "%rok3 = arith.cmpi ult" in text and "%cok3 = arith.cmpi ult" in text and "%rok2" not in text
    # IC 20 is padded to 32 channels by a pad dispatch before the transform; with whole 16-channel
    # vectors (IC 32) the transform reads the unpadded source itself, zeros by masked loads
    assert "vector.maskedload" not in text and "low[0, 1, 1, 0, 0]" in text
    # the output transform stores the destination with a bias and a ReLU (one pass fewer); other
    # post-ops keep the shared epilogue after it
    relu = render_conv(problem_of("--alg=winograd_f4 --dt=bf16 --dir=FWD_B --attr-post-ops=relu ic16ih11oc5oh11kh3ph1"),
                       avx512, header=False)
    assert "_wino_output(%src_binding: !stream.binding, %bias_binding" in relu
    assert "arith.maximumf" in relu and "to vector<16xbf16>" in relu and "-> tensor<2x11x11x16xbf16>" in relu
    summed = render_conv(problem_of("--alg=winograd_f4 --dt=f32 --dir=FWD_B --attr-post-ops=sum ic16ih11oc5oh11kh3ph1"),
                         avx512, header=False)
    assert "_wino_output(%src_binding: !stream.binding, %dst_binding" in summed
    whole = render_conv(problem_of("--alg=winograd_f4 --dt=f32 ic32ih11oc5oh11kh3ph1"), avx512, header=False)
    assert "vector.maskedload" in whole and "low[0, 1, 1, 0, 0]" not in whole and "-> tensor<1x6x3x1152xf32>" in whole
    # bf16 is widened to f32 before the input transform; groups of 20 and 17 channels pad to 32 each:
    # 36 positions x 2 groups of 32 channels in the GEMM's source
    bf16 = render_conv(problem_of("--alg=winograd_f4 --dt=bf16 ic16ih11oc5oh11kh3ph1"), avx512, header=False)
    assert "_wino_input(%" in bf16 and "arith.extf" in bf16
    grouped = render_conv(problem_of("--alg=winograd_f4 --dt=f32 g2ic40ih11oc34oh11kh3ph1"), avx512, header=False)
    assert "-> tensor<1x6x3x2304xf32>" in grouped and "-> tensor<2x11x11x64xf32>" in grouped
    assert "batch_mmt4d" in render_conv(problem_of("--alg=winograd_f4 --dt=f32 g2ic8ih11oc8oh11kh3ph1"), avx512,
                                        header=False)
    assert "batch_mmt4d" in render_conv(problem_of("--alg=winograd_f4 --dt=f32 ic20ih11oc5oh11kh3ph1"),
                                        TargetCaps(mmt4d_tile=Mmt4dTile(8, 8)), header=False)


@pytest.mark.parametrize("m", [2, 4, 6])
def test_winograd_tile_program_replays_the_transform(m):
    # the unrolled instructions, replayed on values, give L . X . R^T for both transforms, and they
    # never multiply by 0 or +-1
    from generator.emit.conv.winograd import winograd_tile_program
    from generator.problem.conv_math import winograd_matrices

    at, _, bt = winograd_matrices(m, 3)
    rng = np.random.default_rng(m)
    for mat in (bt, at):
        prog = winograd_tile_program(mat, mat)
        consts = dict(prog["consts"])
        assert all(abs(c) not in (0.0, 1.0) for c in consts.values())
        x = rng.integers(-8, 9, size=(mat.shape[1], mat.shape[1], 16)).astype(np.float64)
        env = {name: x[i, j] for name, i, j in prog["loads"]}
        for op in prog["ops"]:
            k = consts.get(op.coef, 0.0)
            env[op.res] = {"mul": lambda: k * env[op.x], "neg": lambda: -env[op.x],
                           "add": lambda: env[op.acc] + env[op.x], "sub": lambda: env[op.acc] - env[op.x],
                           "fma": lambda: k * env[op.x] + env[op.acc]}[op.kind]()
        want = np.einsum("ik,kjc,qj->iqc", mat.astype(np.float32).astype(np.float64), x,
                         mat.astype(np.float32).astype(np.float64))
        assert len(prog["stores"]) == mat.shape[0] ** 2
        for name, i, q in prog["stores"]:
            np.testing.assert_allclose(env[name], want[i, q], rtol=1e-12, atol=1e-9)
        dense = 2 * mat.shape[0] * mat.shape[1] * mat.shape[1]
        assert len(prog["ops"]) < dense


@pytest.mark.parametrize("line", WINOGRAD_CASES[1::3])
def test_winograd_vulkan(line, kgen_cache_dir):
    # The transforms are two one-factor contractions each: IREE 3.13 on Vulkan got the three-factor
    # output transform wrong (errors of tens on small integers), which this test would catch again
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    p = problem_of(line)
    reason = check_conv(ConvKernel(p, "vulkan", cache_dir=kgen_cache_dir), p)
    assert reason is None, f"{line}: {reason}"


def test_winograd_f2_one_channel_per_group_refused_on_vulkan(kgen_cache_dir):
    p = problem_of("--alg=winograd_f2 --dt=f32 g3mb1ic3ih5oc48oh3kh3ph0")
    with pytest.raises(UnsupportedError, match="refused on vulkan: IREE 3.13 computes Winograd F"):
        ConvKernel(p, "vulkan", cache_dir=kgen_cache_dir)
    render_conv(p, get_backend("llvm-cpu"))                     # llvm-cpu computes it (and is tested)


@pytest.mark.parametrize("line, why", [
    ("--alg=winograd --dt=f32 ic3ih5oc2oh3kh3sh2ph1", "stride 1"),
    ("--alg=winograd --dt=f32 ic3ih5oc2oh5kh5ph2", "3x3"),
    ("--alg=winograd --dt=f32 ic3ih7oc2oh5kh3ph1dh1", "dilated kernel is computed by Winograd only in its channels-last form"),
    ("--alg=winograd --dt=f32 ic3iw7oc2ow7kw3pw1", "2D"),
    ("--alg=winograd --dt=s8:s8:s32 ic3ih5oc2oh5kh3ph1", "integer"),
])
def test_winograd_does_not_apply(line, why):
    with pytest.raises(UnsupportedError, match=why):
        render_conv(problem_of(line))


def test_golden_winograd_constants_are_exact():
    import numpy as np
    from generator.problem.conv_math import winograd_matrices

    text = _render("--alg=winograd_f2 --dt=f32 ic3ih5oc2oh5kh3ph1")
    _, g, bt = winograd_matrices(2, 3)
    for mat in (g, bt):
        hexed = np.ascontiguousarray(mat, "<f4").tobytes().hex().upper()
        assert f'dense<"0x{hexed}">' in text
    assert "_prepare(" in text and "tensor<4x4x1x2x3xf32>" in text     # U = G g G^T done in prepare


def test_templates_found_in_a_checkout_on_pythonpath(tmp_path):
    """A checkout put on PYTHONPATH without `pip install` (the GPU machine, which has no package index)
    renders from the templates/ folder beside generator/ (`emit.render._template_loader`). Run with
    `python -S`, so the editable install's finder is not there and only PYTHONPATH is searched."""
    from pathlib import Path

    import jinja2

    repo = Path(__file__).resolve().parents[1]
    deps = {Path(m.__file__).resolve().parents[1] for m in (jinja2, np)}
    code = ("import generator.emit.render as r\n"
            "from generator.emit.conv import render_conv\n"
            "from generator.benchdnn.conv import conv_problem, parse_conv_args\n"
            "import importlib.util as u\n"
            "print(u.find_spec('generator.templates') is None, type(r.environment().loader).__name__,\n"
            "      'linalg.generic' in render_conv(conv_problem(next(iter(parse_conv_args(['ic4ih5oc4kh3']))))))\n")
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [repo, *deps]))})
    assert out.stdout.split() == ["True", "FileSystemLoader", "True"], out.stderr[-2000:]
