"""The brgemm variant: generated microkernels in a custom dispatch, int8 on vpdpbusd (avx512_vnni), bf16
on vdpbf16ps (avx512_bf16), f32 on FMAs (avx512f). Generated and compiled for a CPU with the feature on
any machine; run and checked against the float64 reference where the host has it (elsewhere those
tests skip with that reason); refused with a clear error on targets without it."""
from __future__ import annotations

import dataclasses
import re
import shlex

import numpy as np
import pytest

from generator.api import ConvKernel
from generator.benchdnn.conv import conv_problem, given_conv_quant_values, parse_conv_args
from generator.compile import get_backend
from generator.compile.host import host_matrix_features
from generator.compile.cache import compile_mlir
from generator.emit.conv import render_conv
from generator.emit.conv.brgemm.blocking import brgemm_blocking
from generator.emit.conv.brgemm.fusion import brgemm_dst_blocks, brgemm_lanes_pretransposed, brgemm_src_block
from generator.errors import UnsupportedError
from generator.problem.conv import ConvProblem
from generator.problem.partition import conv_host_parts
from generator.verify import check_conv, conv_call

from tiers import conv_covering


def needs(feature: str):
    return pytest.mark.skipif(feature not in host_matrix_features(), reason=f"the host CPU has no {feature} "
                              f"(grep {feature} /proc/cpuinfo); generation and compilation are still tested")


needs_vnni = needs("avx512_vnni")


def problem(line: str) -> ConvProblem:
    (case,) = list(parse_conv_args(shlex.split(line)))
    return conv_problem(case)


def cpu_target(cpu: str = "cascadelake", features=("avx512f", "avx512_vnni")):
    """llvm-cpu compiling for a named CPU instead of the host, with its microkernels enabled."""
    b = get_backend("llvm-cpu")
    flags = tuple(f if not f.startswith("--iree-llvmcpu-target-cpu=") else f"--iree-llvmcpu-target-cpu={cpu}"
                  for f in b.flags)
    return dataclasses.replace(b, flags=flags, cpu_features=frozenset(features))


def vnni_cpu():
    return cpu_target()


# tails everywhere: IC not a multiple of 4, OC not of 16, OW not of the register block; strides,
# dilations, negative and asymmetric padding, 1x1, 1D; every layout goes through channels last
CASES = [
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic64ih14oc64oh14kh3ph1",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic3ih30oc70kh7sh2ph3",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic40ih9oc100oh9kh1ph0",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic8ih12iw10oc16oh5ow4kh3kw3sh2sw2ph0pw0",
    "--dt=u8:s8:s32 --stag=nwc --dtag=nwc mb2ic5iw20oc70kw3pw2sw3",
    "--dt=u8:s8:s32 mb1ic6ih9oc20kh2ph0",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:-2 --attr-post-ops=sum:1:3+relu mb2ic20ih9oc40oh9kh3ph1",
    "--dt=u8:s8:f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=linear:0.5:3 mb1ic20ih9oc40oh9kh3ph1",
    "--dt=u8:s8:s8 --stag=nhwc --dtag=nhwc --attr-zero-points=src:per_dim_1 --attr-scales=wei:per_oc "
    "mb1ic12ih6oc24kh3ph1",
    # s8 sources: shifted to u8 after the zero padding, compensated from prepare
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--dt=s8:s8:s32 --stag=nwc --dtag=nwc mb1ic5iw20oc70kw3pw2sw3",
    "--dt=s8:s8:u8 --attr-zero-points=src:common:-3+dst:common:4 --attr-scales=wei:per_oc "
    "--attr-post-ops=sum:0.5+relu mb2ic20ih9oc40oh9kh3ph1",
    "--dt=s8:s8:f32 --stag=nhwc --dtag=nhwc mb1ic64ih7oc64oh7kh1ph0",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic16ih12iw14oc32oh6ow5kh1kw3sh2sw3ph0pw0",   # uncropped right
    # the epilogue in the microkernel's stores (StoreEpilogue): channel tails, saturation, odd scales
    "--dt=u8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-post-ops=relu mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--dt=s8:s8:s8 --dir=FWD_B --attr-scales=wei:common:0.3+dst:common:0.7 mb1ic40ih9oc100oh9kh1ph0",
    "--dt=u8:s8:s8 --stag=nhwc --dtag=nhwc --attr-scales=dst:common:0.0625 mb1ic64ih7oc64oh7kh3ph1",
    "--dt=u8:s8:f32 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=relu mb1ic20ih9oc40oh9kh3ph1",
    "--dt=s8:s8:u8 --dir=FWD_B --stag=nwc --dtag=nwc --attr-scales=src:common:3+wei:per_oc mb1ic5iw20oc70kw3pw2sw3",
    # groups: G blocks of channels, each padded to whole blocks and cropped; per-channel operands shifted
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "g2mb1ic40ih9oc66oh9kh3ph1",
    "--dt=s8:s8:s32 g3mb2ic15ih7iw9oc51oh4ow4kh3kw2sh2sw2ph1pw0",
    "--dt=u8:s8:f32 --attr-zero-points=src:common:2 --attr-post-ops=sum g2mb1ic32ih7oc64oh7kh3ph1",
    # common zero points in the kernel where nothing is padded (the source's from the weight sums)
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:-2 mb2ic20ih9oc40oh9kh1ph0",
    "--dt=s8:s8:u8 --attr-zero-points=src:common:-3+dst:common:4 --attr-scales=wei:per_oc --attr-post-ops=relu "
    "g2mb2ic40ih9oc64oh4kh3sh2ph0",
    "--dt=s8:s8:s8 --stag=nwc --dtag=nwc --attr-zero-points=src:common:5 mb1ic20iw30oc33ow10kw3sw3pw0",
    # ... and with padding: each pixel's start counts only the taps it reads (tails, strides,
    # dilation, asymmetric and one-sided padding, s8 shifts, groups, 1D)
    "--dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:2 mb1ic32ih7oc64oh7kh3ph1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:100 mb1ic3ih30oc70kh7sh2ph3",
    "--dt=s8:s8:s8 --attr-zero-points=src:common:-5 mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:7 mb1ic16ih9iw14oc32oh9ow13kh3kw4ph1pw1",
    "--dt=s8:s8:u8 --attr-zero-points=src:common:4 --attr-post-ops=relu g2mb1ic32ih7oc64oh7kh3ph0",
    "--dt=u8:s8:s8 --stag=nwc --dtag=nwc --attr-zero-points=src:common:9 mb2ic5iw20oc70kw3pw2sw3",
    # the sum in the stores (dense channels-last destinations): scale, zero point, then ReLU, with scales,
    # zero points, groups, channel tails and 1D; in NCHW it stays in the shared epilogue
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-post-ops=sum+relu mb1ic64ih14oc40oh14kh1ph0",
    "--dt=s8:s8:s8 --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5:3 mb2ic20ih7oc33oh7kh3ph1",
    "--dt=u8:s8:u8 --stag=nwc --dtag=nwc --attr-zero-points=src:common:3+dst:common:4 "
    "--attr-post-ops=sum:1:2+relu mb2ic5iw20oc70kw3pw2sw3",
    "--dt=u8:s8:f32 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.25+relu g2mb1ic32ih7oc48oh7kh3ph1",
    "--dt=u8:s8:u8 --attr-post-ops=sum+relu mb1ic16ih7oc32oh7kh1ph0",
    # a kernel row folded into the channels (brgemm_fold_taps: 7 x 3 channels read as 8 x 3, 5 x 1 as
    # 8 x 1, 3 x 5 as 4 x 5): strides, asymmetric and negative right padding, s8 shifts, the sum,
    # nchw and blocked layouts through channels last
    "--dt=s8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-post-ops=sum:0.5+relu mb2ic3ih17iw15oc40kh5kw7sh2sw2ph3pw2",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic1ih9iw20oc20oh9ow6kh3kw5sw3ph1pw1",
    "--dt=u8:s8:f32 --stag=nchw --dtag=nChw16c --attr-post-ops=linear:0.5:3 mb1ic5ih9iw13oc20kh3kw3ph1pw1sw2",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic3ih11iw17oc24oh5ow4kh3kw7sh2sw3ph0pw0",          # right pad -1
    # 1D: an audio front end's single channel, 10 taps read as 12 x 1
    "--dt=u8:s8:u8 --stag=nwc --dtag=nwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "mb2ic1iw400oc64ow79kw10sw5pw0",
    # 3D: the depth folded into the image index (Brgemm.depth), strides, dilation, padding in every dim,
    # tails; zero points in the kernel (the source's border planes, rows and columns not counted)
    "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "mb1ic16id5ih6iw7oc24kd3kh3kw3pd1ph1pw1",
    "--dt=s8:s8:s32 mb2ic20id8ih5iw9oc40kd2kh3kw2sd2sh1sw2dd2pd1ph0pw1",
    "--dt=u8:s8:u8 --attr-zero-points=src:common:3+dst:common:4 mb1ic16id5oc24kd3pd1",
    "--dt=u8:s8:u8 --stag=nCdhw16c --dtag=nCdhw16c --attr-scales=wei:per_oc --attr-post-ops=relu "
    "g2mb1ic40id4oc64kd3pd1",
]


# the same geometry in bf16 (channel pairs: odd IC pads one zero channel) and f32
FLOAT_CASES = [
    "--stag=nhwc --dtag=nhwc mb1ic64ih14oc64oh14kh3ph1",
    "--stag=nhwc --dtag=nhwc mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--stag=nhwc --dtag=nhwc mb1ic3ih30oc70kh7sh2ph3",
    "--stag=nhwc --dtag=nhwc mb1ic40ih9oc100oh9kh1ph0",
    "--stag=nhwc --dtag=nhwc mb1ic16ih12oc32oh6kh1sh2ph0",                   # right padding -1: uncropped
    "--stag=nwc --dtag=nwc mb2ic5iw20oc70kw3pw2sw3",
    "mb1ic6ih9oc20kh2ph0",
    "--stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5+relu mb2ic3ih17iw15oc40kh5kw7sh2sw2ph3pw2",    # bf16: folded
    "--stag=nhwc --dtag=nhwc mb1ic3ih11iw17oc24oh5ow4kh3kw7sh2sw3ph0pw0",          # folded, right pad -1
    "--stag=nwc --dtag=nwc mb1ic1iw100oc40kw9sw3pw4",                      # bf16: 9 x 1 folded as 10 x 1
    "--stag=nChw16c --dtag=nChw16c --attr-post-ops=sum:0.5+linear:0.5:3 mb1ic20ih9oc40oh9kh3ph1",
    # bias and ReLU, and scales, in the microkernel's stores; f(0) != 0 on the blocked destination's padding
    "--dir=FWD_B --stag=nhwc --dtag=nhwc --attr-post-ops=relu mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
    "--dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.5+wei:per_oc mb1ic20ih9oc40oh9kh3ph1",
    "--dir=FWD_B --stag=nhwc --dtag=nhwc --attr-post-ops=relu g3mb2ic9ih7oc51oh7kh3ph1",
    "--stag=nwc --dtag=nwc g4mb1ic20iw9oc40ow9kw3pw1",
    "--stag=ndhwc --dtag=ndhwc mb2ic17id9ih4iw9oc33kd2kh3kw2sd3pd0ph1pw1dd1",           # 3D
    "--dir=FWD_B --attr-post-ops=relu g2mb1ic32id4oc64kd3pd1",
    "--stag=nhwc --dtag=nhwc --attr-post-ops=sum:2+relu g2mb1ic32ih7oc48oh7kh3ph1",            # sum in the stores
    "--stag=ndhwc --dtag=ndhwc --attr-post-ops=sum:0.25 mb1ic16id4ih5iw5oc24kd3kh3kw3pd1ph1pw1",
]


@needs_vnni
@pytest.mark.parametrize("line", conv_covering(CASES))
def test_brgemm_matches_the_reference(line):
    p = problem("--alg=brgemm " + line)
    assert check_conv(ConvKernel(p), p) is None


@needs("avx512_bf16")
@pytest.mark.parametrize("dt", ["bf16", "bf16:bf16:f32"])
@pytest.mark.parametrize("line", conv_covering(FLOAT_CASES))
def test_bf16_brgemm_matches_the_reference(line, dt):
    p = problem(f"--alg=brgemm --dt={dt} " + line)
    assert check_conv(ConvKernel(p), p) is None


@needs("avx512f")
@pytest.mark.parametrize("line", conv_covering(FLOAT_CASES))
def test_f32_brgemm_matches_the_reference(line):
    p = problem("--alg=brgemm --dt=f32 " + line)
    assert check_conv(ConvKernel(p), p) is None


@needs("avx512f")
@pytest.mark.parametrize("dt", ["f16", "f16:f16:f32"])
@pytest.mark.parametrize("line", conv_covering(FLOAT_CASES))
def test_f16_brgemm_matches_the_reference(line, dt):
    """f16 runs the f32 microkernel on operands widened exactly (weights in prepare, the source with
    its padding), and accumulates in f32 as benchdnn expects."""
    p = problem(f"--alg=brgemm --dt={dt} " + line)
    assert check_conv(ConvKernel(p), p) is None


@needs("avx512f")
@pytest.mark.parametrize("dt", ["bf16", "bf16:bf16:f32"])
@pytest.mark.parametrize("line", conv_covering(FLOAT_CASES))
def test_bf16_brgemm_fma_matches_the_reference(line, dt):
    """brgemm_fma: bf16 widened exactly to f32 (weights in prepare, the source with its padding) on the
    f32 FMA kernel; AVX-512 is enough. Every float case applies (none is depthwise or small-grouped)."""
    p = problem(f"--alg=brgemm_fma --dt={dt} " + line)
    assert check_conv(ConvKernel(p), p) is None


def test_brgemm_fma_widens_bf16_for_a_cpu_without_avx512_bf16(tmp_path):
    # (no padding along W: no edge blocks, whose kernel columns are unrolled, to count)
    p = problem("--alg=brgemm_fma --dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=relu "
                "mb1ic23ih9iw9oc40oh9ow7kh3kw3ph1pw0")
    target = cpu_target("skylake-avx512", ("avx512f",))
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    rw, ro, _ = brgemm_blocking(p)
    assert exe.count("vector.fma") == rw * ro + (p.desc.spatial()[-1].o % rw) * ro and "dpbf16ps" not in text
    kernel = exe.split("\nfunc.func", 1)[0]
    assert "arith.extf" in text and "arith.extf" not in kernel            # widened before the microkernel
    assert "arith.truncf" in exe and "vector<16xbf16>" in exe             # ... and stored as bf16 by it
    compile_mlir(text, target, cache_dir=tmp_path, name="brgemm_fma_bf16")
    # brgemm itself needs avx512_bf16 there; brgemm_fma takes bf16 only, and leaves depthwise to brgemm
    with pytest.raises(UnsupportedError, match="avx512_bf16"):
        render_conv(dataclasses.replace(p, alg="brgemm"), target)
    for line, why in (("--dt=f16 mb1ic6ih9oc20kh2ph0", "bf16 x bf16 only"),
                      ("--dt=bf16 --stag=nhwc --dtag=nhwc g16mb1ic16ih6oc16oh6kh3ph1", "on FMAs already")):
        with pytest.raises(UnsupportedError, match=why):
            render_conv(problem("--alg=brgemm_fma " + line), target)


# small groups across the lanes: brgemm pairs a group's bf16 channels on vdpbf16ps, brgemm_fma widens
# them and runs the lanes on FMAs (channel tails, a blocked layout, 3D, groups of 2 / 4 / 8)
FMA_LANE_CASES = [
    ("--stag=nhwc --dtag=nhwc --attr-post-ops=relu g32mb1ic128ih9iw13oc128oh9ow13kh3kw3ph1pw1", (4, 4)),
    ("--stag=nhwc --dtag=nhwc g18mb1ic36ih9oc72oh9kh3ph1", (2, 4)),
    ("--dir=FWD_B --stag=nChw16c --dtag=nChw16c g8mb2ic64ih7oc32oh7kh3ph1", (8, 4)),
    ("--stag=ndhwc --dtag=ndhwc g8mb1ic32id4ih5iw5oc32kd3kh3kw3pd1ph1pw1", (4, 4)),
    ("--stag=nhwc --dtag=nhwc g16mb1ic128ih7oc128oh7kh3ph1", (8, 8)),               # transposed on the way in
]


@pytest.mark.parametrize("line, lanes", FMA_LANE_CASES)
def test_brgemm_fma_runs_small_bf16_groups_on_fmas_across_the_lanes(line, lanes):
    from generator.emit.conv.brgemm.isa import brgemm_lane_dot, brgemm_lane_groups
    p = problem("--alg=brgemm_fma --dt=bf16 " + line)
    assert brgemm_lane_groups(p) == lanes and brgemm_lane_dot(p) is None
    assert brgemm_lane_dot(dataclasses.replace(p, alg="brgemm")) is not None     # brgemm: vdpbf16ps
    text = render_conv(p, cpu_target("skylake-avx512", ("avx512f",)))
    assert "dpbf16ps" not in text and "vector.fma" in text
    if "avx512f" in host_matrix_features():
        assert check_conv(ConvKernel(p), p) is None


@pytest.mark.parametrize("dt, cpu, feature, op", [
    ("f32", "skylake-avx512", "avx512f", "vector.fma"),
    ("bf16", "cooperlake", "avx512_bf16", '"llvm.x86.avx512bf16.dpbf16ps.512"'),
    ("f16", "skylake-avx512", "avx512f", "vector.fma"),
])
def test_float_brgemm_is_generated_and_compiles(dt, cpu, feature, op, tmp_path):
    p = problem(f"--alg=brgemm --dt={dt} --stag=nhwc --dtag=nhwc --attr-post-ops=relu "
                "mb1ic23ih9iw9oc40oh9ow7kh3kw3ph1pw0")                 # no edge blocks (pw0) to count
    target = cpu_target(cpu, ("avx512f", feature))
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    rw, ro, _ = brgemm_blocking(p)
    assert exe.count(op) == rw * ro + (p.desc.spatial()[-1].o % rw) * ro         # the block and the row's tail
    assert f"x{'bf16' if dt == 'bf16' else 'f32'}>" in exe and "vector<16xf32>" in exe
    if dt == "f16":           # widened before the microkernel, and the destination stored as f16 by it
        kernel = exe.split("\nfunc.func", 1)[0]
        assert "arith.extf" in text and "arith.extf" not in kernel
        assert "arith.truncf" in exe and "vector<16xf16>" in exe
    art = compile_mlir(text, target, cache_dir=tmp_path, name=f"brgemm_{dt}")
    assert art.path.stat().st_size > 0


def test_brgemm_is_generated_and_compiles_for_a_vnni_cpu(tmp_path):
    p = problem("--alg=brgemm --dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc "
                "--attr-post-ops=relu mb1ic24ih9iw9oc40oh9ow7kh3kw3ph1pw0")      # no edge blocks (pw0)
    target = vnni_cpu()
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    rw, ro, _ = brgemm_blocking(p)
    assert exe.count('"llvm.x86.avx512.vpdpbusd.512"') == rw * ro + (7 % rw) * ro
    assert "flow.dispatch @" in text.split("func.func @", 2)[2]          # the conv function dispatches it
    art = compile_mlir(text, target, cache_dir=tmp_path, name="brgemm")
    assert art.path.stat().st_size > 0


@pytest.mark.parametrize("line, fused", [
    ("--dt=u8:s8:u8 --dir=FWD_B --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=relu", True),
    ("--dt=s8:s8:f32 --dir=FWD_D --attr-scales=wei:common:0.5", True),
    ("--dt=f32 --dir=FWD_B --attr-post-ops=relu", True),
    ("--dt=bf16 --dir=FWD_B", True),
    # the shared epilogue: zero points, other post-ops, an s32 destination, bf16 from an s32 accumulator
    ("--dt=u8:s8:u8 --attr-zero-points=src:common:2+dst:common:-3", True),     # padded: border blocks
    ("--dt=u8:s8:u8 --attr-zero-points=dst:common:2", True),
    ("--dt=u8:s8:u8 --attr-zero-points=dst:per_dim_1", True),                 # loaded per channel vector
    ("--dt=u8:s8:u8 --attr-zero-points=src:per_dim_1", False),
    # the sum (ResNet's residual join) reads the prior destination in the kernel when it is dense
    # channels last in the destination's type; not as another type, nor after another post-op
    ("--dt=f32 --attr-post-ops=sum", True),
    ("--dt=u8:s8:u8 --attr-scales=wei:per_oc+dst:common:2 --attr-post-ops=sum:0.5:3+relu", True),
    ("--dt=u8:s8:u8 --attr-post-ops=sum:1:0:s8", False),
    ("--dt=f32 --attr-post-ops=relu+sum", False),
    ("--dt=f32 --attr-post-ops=sum+linear:2", True),
    # one eltwise op of STORE_ELTWISE (ReLU6, Hardtanh, SiLU, ...) in the ReLU's place, after a sum too;
    # not with a scale, nor after another, nor one of the others (gelu, tanh, ...)
    ("--dt=f32 --dir=FWD_B --attr-post-ops=clip:0:6", True),
    ("--dt=u8:s8:u8 --attr-scales=wei:per_oc+dst:common:2 --attr-post-ops=sum:0.5:3+clip:1:5", True),
    ("--dt=f32 --attr-post-ops=swish:1", True),
    ("--dt=f32 --attr-post-ops=clip:0:6:2", False),
    ("--dt=f32 --attr-post-ops=relu+clip:0:6", False),
    ("--dt=f32 --attr-post-ops=gelu_tanh", False),
    ("--dt=u8:s8:s32", False),
    ("--dt=u8:s8:bf16", False),
])
def test_the_inference_epilogue_is_fused_into_the_stores(line, fused):
    if "zero-points=src:common" in line:       # unpadded, the same source zero point runs in the kernel too
        p1 = problem(f"--alg=brgemm --stag=nhwc --dtag=nhwc {line} mb1ic24ih9oc40oh9kh1ph0")
        text1 = render_conv(p1, cpu_target(features=("avx512f", "avx512_vnni")))
        assert "linalg.generic" not in text1.split("\nfunc.func @", 2)[2].split("flow.dispatch", 1)[1]
        assert "memref.load %src_zp[]" in text1
    p = problem(f"--alg=brgemm --stag=nhwc --dtag=nhwc {line} mb1ic24ih9oc40oh9kh3ph1")
    text = render_conv(p, cpu_target(features=("avx512f", "avx512_vnni", "avx512_bf16")))
    conv = text.split("\nfunc.func @", 2)[2]
    assert ("linalg.generic" not in conv.split("flow.dispatch", 1)[1]) == fused       # nothing after it
    exe = text.split("stream.executable private @", 1)[1].split("\nfunc.func", 1)[0]
    assert ("arith.addf" in exe) == (fused and "FWD_D" not in line)                   # the bias, in the kernel
    if fused:
        # the destination type, and only OC's 40 channels: the stores masked, no crop after the kernel
        assert f"tensor<1x9x9x40x{p.dst.dtype.mlir}>" in conv and "1x9x9x48x" not in conv
        assert "vector.maskedstore" in exe and "tensor.extract_slice" not in conv


# an eltwise op in the stores (fusion.STORE_ELTWISE): a clip's lower bound above 0, so that a blocked
# destination's padded lanes must be zeroed after it; after a sum with zero points; u8, bf16 and f32
# destinations; depthwise, small groups; SiLU (swish), sigmoid, Hardswish, Hardsigmoid, linear
STORE_ELTWISE_CASES = [
    ("avx512f", "--dt=f32 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=clip:0.5:6 mb1ic20ih9oc40oh9kh3ph1"),
    ("avx512_vnni", "--dt=u8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+"
     "dst:common:0.5 --attr-zero-points=dst:common:3 --attr-post-ops=sum:0.5:2+clip:-1:6 mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1"),
    ("avx512_bf16", "--dt=bf16 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-post-ops=clip:0:6 mb1ic24ih9oc40oh9kh1ph0"),
    ("avx512f", "--dt=f32 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=clip:0.5:6 g24mb1ic24ih10oc24oh10kh3ph1"),
    ("avx512_vnni", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 "
     "--attr-post-ops=clip:0:3 g32mb1ic32ih9oc32oh9kh3ph1"),
    ("avx512_vnni", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 "
     "--attr-post-ops=clip:0:3 g8mb1ic32ih9oc32oh9kh3ph1"),
    ("avx512f", "--dt=f32 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=swish:1 mb1ic20ih9oc40oh9kh3ph1"),
    ("avx512_vnni", "--dt=u8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+"
     "dst:common:0.125 --attr-zero-points=dst:common:100 --attr-post-ops=swish:1 mb1ic24ih9oc40oh9kh1ph0"),
    ("avx512f", "--dt=f32 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5+logistic g24mb1ic24ih10oc24oh10kh3ph1"),
    ("avx512_bf16", "--dt=bf16 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=hardswish:0.166667:0.5 "
     "mb1ic20ih9oc40oh9kh3ph1"),
    ("avx512f", "--dt=f32 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=hardsigmoid:0.166667:0.5 "
     "mb1ic20ih9oc36oh9kh1ph0"),
    ("avx512_vnni", "--dt=s8:s8:s8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=wei:common:0.3+dst:common:0.7 "
     "--attr-post-ops=linear:0.5:-3 mb1ic40ih9oc100oh9kh1ph0"),
]


def test_an_eltwise_op_in_the_stores_matches_the_reference():
    from generator.emit.conv.brgemm.fusion import _brgemm_fuses_epilogue
    from generator.emit.target import GENERIC

    ran = 0
    for feature, line in STORE_ELTWISE_CASES:
        p = problem("--alg=brgemm " + line)
        assert _brgemm_fuses_epilogue(p, GENERIC), line
        if feature in host_matrix_features():
            assert check_conv(ConvKernel(p), p) is None, line
            ran += 1
    if not ran:
        pytest.skip("the host CPU has no avx512f")


# AMX: generated and compiled for sapphirerapids everywhere; run where the CPU has the tiles. Tails: OW
# and OC past whole 32-pixel / 32-channel blocks, IC below one 64-byte chunk and past whole chunks
AMX_CASES = [
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic64ih14oc64oh14kh3ph1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "mb2ic70ih13iw37oc40kh3kw2sh2ph1dh1",
    "--dt=s8:s8:s32 mb1ic3ih30oc70kh7sh2ph3",
    "--dt=u8:s8:f32 --stag=nwc --dtag=nwc mb1ic20iw50oc33kw3pw1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc mb1ic40ih9iw40oc48kh3kw3ph1pw1",
    "--dt=bf16:bf16:f32 mb1ic3ih20oc16kh3sh2ph1",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic130ih5iw70oc64kh1kw1ph0pw0",          # three K chunks
    # a kernel row folded into one tile row (amx_fold_taps): stems in u8 and bf16, with a post-op where
    # f(0) != 0 and the destination's padded tail; a 1D row of 3 taps x 20 channels
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:4 "
    "mb1ic3ih29oc40oh15kh7sh2ph3",
    "--dt=bf16 --attr-post-ops=eltwise_linear:1:0.5 mb2ic3ih23iw19oc24kh7kw7sh2sw2ph3pw3",
    "--dt=bf16:bf16:f32 --stag=nhwc --dtag=nhwc mb1ic8ih11oc16kh3ph1",
    # the epilogue in the tile stores: the sum reads the prior destination at the real pixels only (a run
    # of 9 x 39 padded columns for 9 x 37; strided, 19 of a row's 32-pixel block), a destination zero
    # point, a ReLU; bf16 with a sum and SiLU
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:4 "
    "--attr-zero-points=dst:common:3 --attr-post-ops=sum:0.5+relu mb1ic64ih9iw37oc48kh3kw3ph1pw1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+dst:common:2 --attr-post-ops=sum:0.5 "
    "mb1ic32ih12iw37oc32kh3kw3sh2sw2ph1pw1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=sum+eltwise_swish:1 mb2ic40ih7iw20oc40kh1kw1ph0pw0",
    # 1x1 pixels as one run of blocks (amx_flat_pixels): 8 x 12 = 3 blocks, with the sum; 7 x 7 as 2
    # blocks, the last padded; a 1D row of 50 and one of s8
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 --attr-post-ops=sum:2 "
    "mb2ic64ih8iw12oc48kh1kw1ph0pw0",
    "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=relu mb1ic64ih7oc80oh7kh1ph0",
    "--dt=u8:s8:f32 --stag=nwc --dtag=nwc mb2ic20iw50oc33kw1pw0",
    "--dt=s8:s8:s8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+dst:common:4 mb1ic70ih5iw9oc20kh1kw1ph0pw0",
    # strided 1x1 on the subsampled source as one run (amx_unit_stride): two K chunks with a ReLU, 3D with
    # a strided depth, s8 with strides 1 x 3, bf16 with a sum
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=relu "
    "mb2ic70ih13iw19oc40kh1kw1sh2sw2ph0pw0",
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc mb1ic24id5ih9iw9oc20kd1kh1kw1sd2sh2sw2pd0ph0pw0",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic32ih10iw15oc16kh1kw1sh1sw3ph0pw0",
    "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5 mb1ic40ih12iw12oc24kh1kw1sh2sw2ph0pw0",
    # kxk with stride 1 as one run over the padded rows: a 7x7 3x3 layer; dilated 5x5 on 2 images; s8
    # (the shift after the padding, compensated); a sum (read at the run's real pixels only)
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:4 mb1ic64ih7oc48oh7kh3ph1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc mb2ic16ih11iw13oc24kh5kw3ph3pw1dh1",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic32ih6iw10oc16kh3kw3ph1pw1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5 mb1ic32ih6iw10oc16kh3kw3ph1pw1",
    # 3D, the depth folded into the images: planes as runs of pixel blocks (u8 with scales and a ReLU,
    # bf16 dilated in depth on 2 images), row by row (strided: s8 compensated; a sum), a 1x1x1 layer,
    # a source zero point over the padded planes
    "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:4 "
    "--attr-post-ops=relu mb1ic40id5ih6iw7oc40kd3kh3kw3pd1ph1pw1",
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc mb2ic24id7ih5iw5oc20kd3kh3kw3pd2ph1pw1dd1",
    "--dt=s8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic20id6ih9iw9oc36kd3kh3kw3sd2sh2sw2pd1ph1pw1",
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc --attr-post-ops=sum:0.5 mb1ic32id4ih6iw10oc16kd3kh3kw3pd1ph1pw1",
    "--dt=u8:s8:f32 --stag=ndhwc --dtag=ndhwc mb1ic70id3ih4iw8oc48kd1kh1kw1pd0ph0pw0",
    # a 1x1x1 plane of 42 pixels: its last block ends at the plane's end (amx_run_unpadded), 2 images
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc --attr-post-ops=sum:0.5 mb2ic40id3ih6iw7oc24kd1kh1kw1pd0ph0pw0",
    "--dt=u8:s8:s32 --stag=ndhwc --dtag=ndhwc --attr-zero-points=src:common:3 mb1ic16id4ih5iw5oc16kd3kh3kw3pd1ph1pw1",
    # groups, each group's channels from its own offset in the source's pixel and its output channels
    # padded to whole 32-channel blocks: u8 with per-channel scales and a ReLU (24 a group, 10 out),
    # bf16 past one tile row (80 a group) with a sum, s8 strided, a 1x1 run of blocks with the sum, 3D,
    # a source zero point, blocked
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:4 "
    "--attr-post-ops=relu g4mb2ic96ih7iw11oc40kh3kw3ph1pw1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5 g2mb1ic160ih6iw10oc20kh3kw3ph1pw1",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc g3mb1ic60ih6iw6oc84kh3kw3sh2sw2ph1pw1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 --attr-post-ops=sum:2 "
    "g2mb2ic64ih8iw12oc48kh1kw1ph0pw0",
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc g2mb1ic32id4ih5iw5oc48kd3kh3kw3pd1ph1pw1",
    "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:3 g2mb1ic32ih5iw5oc32kh3kw3ph1pw1",
    "--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.5+dst:common:2 g2mb1ic64ih7oc64kh3ph1",
    # epilogues the tile stores do not fuse, in the shared epilogue after them (tanh and a per-channel
    # add with both zero points; GELU then a sum in 3D; the stem with a logistic and a product), and
    # blocked destinations whose padded channels stay 0 under f(0) != 0 (grouped 2D, 3D)
    "--dt=u8:s8:s8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc "
    "--attr-zero-points=src:common:2+dst:common:-3 --attr-post-ops=tanh+add:f32:per_oc g2mb1ic64ih6iw9oc64kh3kw3ph1pw1",
    "--dt=bf16 --stag=ndhwc --dtag=ndhwc --attr-post-ops=gelu_erf+sum:2 mb1ic40id3ih5iw6oc20kd3kh3kw3pd1ph1pw1",
    "--dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc "
    "--attr-post-ops=logistic+mul:f32:per_tensor mb1ic3ih20oc40oh10kh7sh2ph3",
    "--dt=bf16 --stag=nhwc --dtag=nChw16c --attr-post-ops=linear:1:0.5 g2mb1ic64ih5oc40kh3ph1",
    "--dt=u8:s8:u8 --stag=ndhwc --dtag=nCdhw16c --attr-scales=src:common:0.5+dst:common:2 --attr-post-ops=linear:1:3 "
    "mb1ic24id3ih4iw5oc20kd3kh3kw3pd1ph1pw1",
]


@pytest.mark.parametrize("dt, op", [("u8:s8:s32", '"llvm.x86.tdpbusd"'), ("bf16", '"llvm.x86.tdpbf16ps"')])
def test_amx_brgemm_is_generated_and_compiles(dt, op, tmp_path):
    p = problem(f"--alg=brgemm_amx --dt={dt} --stag=nhwc --dtag=nhwc mb1ic70ih9iw40oc40oh9ow40kh3kw3ph1pw1")
    target = cpu_target("sapphirerapids", ("avx512f", "avx512_vnni", "avx512_bf16", "amx_int8", "amx_bf16"))
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    assert exe.count(op) == 4 and exe.count('"llvm.x86.ldtilecfg"') == 1          # 2 x 2 accumulator tiles
    # 9 rows of 42 padded columns as one run: 12 blocks of 32 pixels, stored at the destination's own 9 x
    # 40 pixels; 40 channels -> 64
    assert "%oh_n = arith.constant 12 : index" in exe and "-> tensor<1x9x40x64x" in text
    art = compile_mlir(text, target, cache_dir=tmp_path, name=f"amx_{dt.replace(':', '_')}")
    assert art.path.stat().st_size > 0


def test_amx_computes_stride_1_outputs_as_one_run_of_pixel_blocks():
    from generator.emit.conv.brgemm.kernel import amx_flat_pixels
    target = cpu_target("sapphirerapids", ("avx512f", "avx512_vnni", "avx512_bf16", "amx_int8", "amx_bf16"))
    # (padded source, blocks of 32 pixels the workgroups share, result): the run's pixels are stored at
    # the destination's own, so nothing crops the result after the kernel
    for line, run, shapes in (
            # 3136 pixels: 98 blocks, the source read as it is (no padded copy)
            ("mb1ic64ih56oc64oh56kh1ph0", True, ("1x56x56x64", 98, "1x56x56x64")),
            # 7 x 9 padded columns: 2 blocks for 49 pixels (row by row: 7 x 32), 3 rows more below for the
            # last block's taps
            ("mb1ic64ih7oc64oh7kh3ph1", True, ("1x10x9x64", 2, "1x7x7x64")),
            ("mb1ic64ih64oc64oh64kh3ph1", False, ("1x66x66x64", 64, "1x64x64x64")),   # whole blocks a row already
            # strided 1x1 on its subsampled source (amx_unit_stride): 784 pixels in 25 blocks, the last
            # ending at the run's end (nothing padded below); where the rows are whole blocks, row by row
            # (strided tile loads, nothing copied)
            ("mb1ic64ih56oc64oh28kh1sh2ph0", True, ("1x28x28x64", 25, "1x28x28x64")),
            ("mb1ic64ih64oc64oh32kh1sh2ph0", False, ("1x64x64x64", 32, "1x32x32x64")),
            # 3D: a run per plane (4 planes of 6 x 8 padded columns: 2 blocks each, from 9 padded source
            # planes, 3 rows more below), the depth's stride free
            ("mb1ic32id8ih6iw6oc32od4oh6ow6kd3kh3kw3sd2pd1ph1pw1", True, ("9x11x8x32", 2, "4x6x6x32")),
            ("mb1ic32id8ih6iw6oc32od4oh3ow3kd3kh3kw3sd2sh2sw2pd1ph1pw1", False, None),
            ("mb1ic64ih56oc64oh28kh3sh2ph1", False, None)):
        tag = "ndhwc" if "id" in line else "nhwc"
        p = problem(f"--alg=brgemm_amx --dt=bf16 --stag={tag} --dtag={tag} {line}")
        assert amx_flat_pixels(p) == run, line
        if shapes:
            text = render_conv(p, target)
            dispatch = text.split("flow.dispatch @", 1)[1].split("\n", 1)[0]
            assert f"(tensor<{shapes[0]}xbf16>, !wei_prepared" in dispatch and f"-> tensor<{shapes[2]}xbf16>" in dispatch, \
                (line, dispatch)
            assert f"%oh_n = arith.constant {shapes[1]} : index" in text, line
            assert "tensor.extract_slice" not in text.split("flow.dispatch @", 1)[1], line     # no crop
    # a 1x1 run over a source with nothing padded: the last block starts at the run's end less 32
    # (amx_run_unpadded), and nothing pads or copies the source; 25 pixels: padded below
    for line, start in (("mb1ic512ih28oc128oh28kh1ph0", 752), ("mb1ic64ih7oc64oh7kh1ph0", 17),
                        ("mb1ic64ih5oc64oh5kh1ph0", None)):
        text = render_conv(problem(f"--alg=brgemm_amx --dt=u8:s8:u8 --stag=nhwc --dtag=nhwc {line}"), target)
        assert (f"%run_last = arith.constant {start} : index" in text) == (start is not None), line
        assert ("tensor.pad %v" in text) == (start is None), line                  # the source's pad


@pytest.mark.parametrize("dt, row_bytes", [("u8:s8:u8", 28), ("bf16", 56)])
def test_amx_folds_the_stems_kernel_rows_into_one_tile_row_and_compiles(dt, row_bytes, tmp_path):
    p = problem(f"--alg=brgemm_amx --dt={dt} --stag=nhwc --dtag=nhwc mb1ic3ih224oc64oh112kh7sh2ph3")
    target = cpu_target("sapphirerapids", ("avx512f", "avx512_vnni", "avx512_bf16", "amx_int8", "amx_bf16"))
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    cfg = [int(v) for v in exe.split("%cfg_v = arith.constant dense<[", 1)[1].split("]", 1)[0].split(", ")]
    assert cfg[16 + 2 * 4] == cfg[16 + 2 * 5] == row_bytes           # source tiles: a row's 7 taps x 4 channels
    assert cfg[48 + 6] == cfg[48 + 7] == row_bytes // 4               # weight tiles: its groups of 4 bytes
    lane = "64xi8" if dt.startswith("u8") else "32xbf16"             # (OCB, KH, KW = 1, groups, RO, 64 bytes)
    assert f"memref<2x7x1x{row_bytes // 4}x2x{lane}>" in exe
    art = compile_mlir(text, target, cache_dir=tmp_path, name=f"amx_stem_{dt.replace(':', '_')}")
    assert art.path.stat().st_size > 0


@pytest.mark.parametrize("line", AMX_CASES)
def test_amx_brgemm_matches_the_reference(line):
    p = problem("--alg=brgemm_amx " + line)
    text = render_conv(p, cpu_target("sapphirerapids", ("avx512f", "amx_int8", "amx_bf16")))   # generated anywhere
    assert text.count('"llvm.x86.tilestored64"') == 4
    feature = "amx_bf16" if p.src.dtype.name == "bf16" else "amx_int8"
    if feature not in host_matrix_features():
        pytest.skip(f"the host CPU has no {feature} (grep {feature} /proc/cpuinfo): the AMX kernel runs "
                    f"emulated here (test_amx_brgemm_emulated_matches_the_reference)")
    assert check_conv(ConvKernel(p), p) is None


def amx_emulated(line: str):
    """The brgemm_amx problem of `line` and llvm-cpu with the tile instructions emulated on AVX-512
    (TargetCaps.emulate_amx); skipped where the CPU lacks the vector instruction they emulate on."""
    p = problem("--alg=brgemm_amx " + line)
    feature = "avx512_bf16" if p.src.dtype.name == "bf16" else "avx512_vnni"
    if feature not in host_matrix_features():
        pytest.skip(f"the host CPU has no {feature} to emulate the AMX instructions with")
    b = get_backend("llvm-cpu")
    return p, dataclasses.replace(b, cpu_features=b.cpu_features | {"amx_int8", "amx_bf16"}, emulate_amx=True)


@pytest.mark.parametrize("line", AMX_CASES)
def test_amx_brgemm_emulated_matches_the_reference(line):
    """The same kernel with its tile instructions emulated on AVX-512 (TargetCaps.emulate_amx): its
    tiling, tile configuration, addresses, strides, packing and tails, checked on any AVX-512 CPU."""
    p, emulated = amx_emulated(line)
    text = render_conv(p, emulated)
    assert '"llvm.x86.tdp' not in text and '"llvm.x86.tileloadd64"' not in text
    assert check_conv(ConvKernel(p, emulated), p) is None


@pytest.mark.parametrize("line", [
    # a run with the sum, the strided 1x1 on its subsampled source, a strided 3x3 row by row, the stem
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-post-ops=sum:0.5 mb1ic64ih22oc40oh22kh3ph1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 mb1ic80ih30oc64oh15kh1sh2ph0",
    "--dt=bf16 --stag=nhwc --dtag=nhwc mb1ic64ih24oc64oh12kh3sh2ph1",
    "--dt=bf16 --stag=nhwc --dtag=nhwc mb1ic3ih46oc32oh23kh7sh2ph3",
])
def test_amx_brgemm_emulated_in_host_threads_parts(line):
    """The host-threads driver (the default on every core for the larger layers) cuts the output rows
    into parts, each its own kernel on a band of the source: AMX's runs and rows per part."""
    p, emulated = amx_emulated(line)
    k = ConvKernel(p, emulated, driver="host-threads")
    assert k.driver == "host-threads" and len(k._parts) == 2
    assert check_conv(k, p) is None


def test_amx_is_refused_without_tiles_and_not_priced_without_their_rates():
    p = problem("--alg=brgemm_amx --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic8ih6oc16kh3ph1")
    with pytest.raises(UnsupportedError, match=r"its u8 microkernel \(tdpbusd\) needs a CPU with amx_int8"):
        render_conv(p, vnni_cpu())
    # groups that brgemm puts across its vector lanes are left to it
    for line, cg in (("g32mb1ic128ih7oc128kh3ph1", 4), ("g16mb1ic16ih7oc16kh3ph1", 1)):
        with pytest.raises(UnsupportedError, match=f"a group's {cg} input and {cg} output channels .*use brgemm"):
            render_conv(problem(f"--alg=brgemm_amx --dt=u8:s8:s32 {line}"), vnni_cpu())
    # the session's pinned calibration has no tile rates: the cost model never puts AMX ahead
    from generator.select import heuristic
    assert heuristic(problem("--alg=auto --dt=u8:s8:u8 --stag=nhwc --dtag=nhwc mb1ic64ih6oc64kh3ph1"),
                     "llvm-cpu").variant != "brgemm_amx"


def test_s8_sources_are_compensated_in_prepare():
    p = problem("--alg=brgemm --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic24ih9oc40oh9kh3ph1")
    prep, conv = render_conv(p, vnni_cpu()).split("\nfunc.func @", 2)[1:]      # after the executable
    assert "-> (!wei_prepared, tensor<9x48xi32>)" in prep and "arith.extsi" in prep   # sums per tap, channel
    assert "arith.xori" in conv and "tensor<9x48xi32>" in conv.split("{")[0]          # shifted; an argument
    assert "tensor<9x48xi32>" not in render_conv(problem(
        "--alg=brgemm --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic24ih9oc40oh9kh3ph1"), vnni_cpu())


def test_a_kernel_row_is_folded_into_the_channels_where_they_waste_the_groups():
    from generator.emit.conv.brgemm.blocking import amx_fold_taps, brgemm_fold_taps
    stem = "--stag=nhwc --dtag=nhwc mb1ic3ih224oc64oh112kh7sh2ph3"
    # u8: 7 taps x 4 (3 channels and a zero) = 28 per row, folded 8 x 3 = 24; bf16: 28 against 24 too
    for dt, taps in (("u8:s8:u8", 8), ("s8:s8:s32", 8), ("bf16", 8), ("f32", None), ("f16", None)):
        assert brgemm_fold_taps(problem(f"--alg=brgemm --dt={dt} " + stem)) == taps, dt
    for line in ("mb1ic3ih30oc16kh3ph1",                    # 3 x 4 = 12 against 4 x 3 = 12: nothing saved
                 "mb1ic16ih30oc16kh7ph3",                   # no padded channels
                 "mb1ic3ih30iw30oc16kh7kw7ph3pw6dw1",        # dilated
                 "--attr-zero-points=src:common:3 mb1ic3ih30oc16kh7ph3",     # counts padded taps
                 "g3mb1ic3ih30oc48kh7ph3", "mb1ic3id8ih8iw8oc16kd3kh3kw7pd1ph1pw3"):
        assert brgemm_fold_taps(problem("--alg=brgemm --dt=u8:s8:u8 " + line)) is None, line
    assert brgemm_fold_taps(problem("--alg=brgemm_amx --dt=u8:s8:u8 " + stem)) is None
    # AMX folds a row of whole padded taps where it fits one 64-byte tile row: 7 x 4 u8 or bf16 channels
    for dt, line, folds in (("u8:s8:u8", stem, True), ("bf16", stem, True), ("s8:s8:s32", stem, False),
                            ("bf16", "mb1ic8ih30oc16kh3ph1", True), ("bf16", "mb1ic16ih30oc16kh3ph1", False),
                            ("u8:s8:u8", "mb1ic16ih30oc16kh3ph1", True), ("u8:s8:u8", "mb1ic3ih30oc16kh1ph0", False),
                            ("bf16", "mb1ic3ih30iw30oc16kh3kw3ph1pw2dw1", False)):
        assert amx_fold_taps(problem(f"--alg=brgemm_amx --dt={dt} --stag=nhwc --dtag=nhwc " + line)) == folds, (dt, line)
    # 1D: wav2vec2's front end, 1 channel x 10 taps: 40 products computed for 10, folded 12
    assert brgemm_fold_taps(problem("--alg=brgemm --dt=u8:s8:u8 mb1ic1iw16000oc512ow3199kw10sw5pw0")) == 12
    mlir = render_conv(problem("--alg=brgemm --dt=u8:s8:u8 " + stem), vnni_cpu())
    # the padded source 229 x 230 x 3 (a column more on the right for the zero-weight tap), columns 2 x 3 apart
    assert "memref.reinterpret_cast" in mlir and "strided<[158010, 690, 6, 1]>" in mlir


@pytest.mark.parametrize("dt, line", [
    ("u8:s8:u8", "mb1ic3ih11iw17oc24oh5ow4kh3kw7sh2sw3ph0pw0"),          # the right padding -1, cropped
    ("u8:s8:u8", "mb2ic3ih23oc16oh12kh7sh2ph3"),                          # the stem's geometry
    ("u8:s8:u8", "mb1ic1iw100oc16kw10sw5pw0"),                            # 1D, 10 x 1 read as 12
    ("u8:s8:u8", "mb1ic2iw31oc16kw3sw7pw1"),                              # stride past the taps
    ("bf16:bf16:f32", "mb1ic3ih9iw13oc16kh5kw5sh1sw2ph2pw1"),
    ("bf16:bf16:f32", "mb1ic1iw50oc16kw9sw3pw4"),                         # 9 x 1 read as 10
])
def test_a_folded_rows_reads_stay_inside_its_padded_source_row(dt, line):
    """The overlapping view's last column reads its groups within the padded row (the right padding
    grew by the zero-weight taps' columns): one column short, the bottom row of the last image would
    read past the buffer, which no filler value in a test shows (integer fillers meet zero weights)."""
    import re
    from generator.emit.conv.brgemm.blocking import brgemm_fold_taps
    from generator.emit.conv.brgemm.isa import brgemm_isa

    p = problem(f"--alg=brgemm --dt={dt} {line}")
    assert brgemm_fold_taps(p), line
    mlir = render_conv(p, cpu_target("cooperlake", ("avx512f", "avx512_vnni", "avx512_bf16")))   # generated anywhere
    view = re.search(r"memref\.reinterpret_cast %x_raw to offset: \[0\], sizes: \[(\d+), (\d+), (\d+), (\d+)\], "
                     r"strides: \[(\d+), (\d+), (\d+), 1\] : memref<([\dx]+)x\w+>", mlir)
    n, ihp, ow, kc, s_img, s_row, s_col = map(int, view.groups()[:7])
    buffer = [int(e) for e in view.group(8).split("x")]
    groups = int(re.search(r"%ick_n = arith\.constant (\d+) : index", mlir).group(1))
    k = brgemm_isa(p).k
    assert groups * k <= kc and s_row == buffer[-2] * buffer[-1] and s_img == ihp * s_row
    assert (ow - 1) * s_col + groups * k <= s_row, (line, ow, s_col, groups * k, s_row)
    assert ow == p.desc.spatial()[-1].o and groups * k >= p.desc.kw * p.desc.ic


@needs("avx512_bf16")
@pytest.mark.parametrize("line, inf_at", [
    ("--stag=nwc --dtag=nwc mb1ic1iw12oc16ow10kw3pw0", (0, 0, 3)),             # 3 taps read as 4
    ("--stag=nhwc --dtag=nhwc mb1ic3ih20oc16oh10kh7sh2ph3", (0, 0, 5, 4)),     # 7 x 3 read as 11 pairs
])
def test_a_folded_rows_filler_never_multiplies_an_inf(line, inf_at):
    """The filler past a folded row reads the next pixels against zero weights: in bf16 an Inf there
    would give 0 x Inf = NaN in outputs whose window holds no Inf. The kernel leaves the groups past
    the row out and clears the filler in the last one."""
    import numpy as np
    from generator.emit.conv.brgemm.blocking import brgemm_fold_taps

    p = problem("--alg=brgemm --dt=bf16:bf16:f32 " + line)
    assert brgemm_fold_taps(p)
    k = ConvKernel(p)
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, p.desc.src_dims).astype(np.float32)
    x[inf_at] = np.inf
    w = rng.integers(-2, 3, p.wei.dims).astype(np.float32)
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    got = p.dst.from_physical(k(src))
    want = p.dst.from_physical(p.reference(src, wei, None))
    assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(want).sum() < want.size // 2
    np.testing.assert_array_equal(got[np.isfinite(want)], want[np.isfinite(want)])


# Blocked sides read and written in place (brgemm_src_block, brgemm_dst_blocks): the source's own channel
# blocks (16, 8, MegEngine's 4) padded spatially, the destination's 16-channel blocks stored by the
# epilogue, the lanes past OC zero whatever it makes of them (a destination zero point: s8 keeps a
# negative one). Tails of IC and OC, strides, dilation, 1x1, the stem's 3 channels (not folded),
# s8 shifts and zero points (the padded border), 1D, bf16, f16, and one side in place only.
BLOCKED_CASES = [
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
     "--attr-zero-points=src:common:3+dst:common:-2 mb2ic20ih9oc40oh9kh3ph1", 16, True),
    ("--dt=u8:s8:s8 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
     "--attr-zero-points=dst:common:7 --attr-post-ops=relu mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1", 16, True),
    ("--dt=s8:s8:s8 --stag=nChw16c --dtag=nChw16c --attr-zero-points=src:common:-5+dst:common:4 "
     "mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1", 16, True),
    ("--dt=s8:s8:s32 --stag=nChw16c --dtag=nChw16c mb1ic40ih9oc100oh9kh1ph0", 16, False),  # s32: shared epilogue
    ("--dt=u8:s8:u8 --stag=nChw8c --dtag=nChw16c --attr-scales=wei:per_oc mb1ic12ih6oc24kh3ph1", 8, True),
    ("--dt=u8:s8:f32 --stag=NCHW4 --dtag=nChw16c mb1ic12ih6oc24kh3ph1", 4, True),
    ("--dt=u8:s8:u8 --stag=nCw16c --dtag=nCw16c --attr-zero-points=src:common:9+dst:common:1 "
     "mb2ic5iw20oc70kw3pw2sw3", 16, True),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nhwc --attr-post-ops=sum+relu mb1ic64ih14oc40oh14kh1ph0", 16, False),
    ("--dt=u8:s8:s8 --stag=nhwc --dtag=nChw16c --attr-scales=dst:common:0.0625 --attr-zero-points=dst:common:-9 "
     "mb1ic64ih7oc40oh7kh3ph1", 0, True),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c mb1ic3ih30oc70kh7sh2ph3", 16, True),       # the stem, unfolded
    ("--dt=bf16 --dir=FWD_B --stag=nChw16c --dtag=nChw16c --attr-post-ops=relu mb2ic17ih13iw11oc33kh3kw2sh2ph1dh1",
     16, True),
    ("--dt=bf16 --stag=nChw8c --dtag=nChw8c mb1ic20ih9oc40oh9kh3ph1", 8, False),          # 8-channel blocks out
    ("--dt=f16 --stag=nChw16c --dtag=nChw16c mb1ic20ih9oc40oh9kh3ph1", 16, True),
    ("--dt=f32 --dir=FWD_B --stag=nChw8c --dtag=nChw16c --attr-scales=src:common:0.5+wei:per_oc "
     "mb1ic20ih9oc40oh9kh3ph1", 8, True),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=linear:0.5:3 mb1ic20ih9oc40oh9kh3ph1", 16, True),
    # a post-op the stores do not apply: the shared epilogue after the kernel, which writes channels last
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=tanh mb1ic20ih9oc40oh9kh3ph1", 16, False),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic16ih12oc32oh6kh1sh2ph0", 16, True),       # right padding -1
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic3ih30oc70kh7sh2ph3", 16, True),
    # not in place: groups, 3D
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c g2mb1ic32ih7oc64oh7kh3ph1", 0, False),
    ("--dt=u8:s8:u8 --stag=nCdhw16c --dtag=nCdhw16c mb1ic16id4ih5iw5oc24kd3kh3kw3pd1ph1pw1", 0, False),
]


@needs_vnni
@pytest.mark.parametrize("line, src_block, dst_blocks", BLOCKED_CASES)
def test_blocked_sides_are_read_and_written_in_place(line, src_block, dst_blocks):
    from generator.emit.conv.brgemm.fusion import brgemm_dst_blocks
    p = problem("--alg=brgemm " + line)
    assert (brgemm_src_block(p), brgemm_dst_blocks(p)) == (src_block, dst_blocks)
    text = render_conv(p, get_backend("llvm-cpu"))
    conv = text.split("\nfunc.func @", 2)[2]
    if src_block and dst_blocks:        # the padding, elementwise maps (s8's shift, f16's widening), the kernel
        import re
        assert conv.count("flow.dispatch") == 1 and "linalg.transpose" not in conv
        for lhs, rhs in re.findall(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>", conv):
            assert lhs == rhs
    # a channel tail: the blocks' padded lanes stored as zero, or channels last, the stores masked to OC
    assert ("vector.create_mask" in text) == (p.desc.oc % 16 != 0)
    assert ("vector.maskedstore" in text) == (not dst_blocks and p.desc.oc % 16 != 0)
    assert check_conv(ConvKernel(p), p) is None


@needs_vnni
@pytest.mark.parametrize("line, view", [
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic20ih26iw20oc24oh24ow18kh3kw3ph0", True),
    ("--dt=u8:s8:u8 --stag=nChw8c --dtag=nChw16c --attr-scales=wei:per_oc mb1ic20ih26iw20oc24oh24ow18kh3kw3ph0",
     True),
    ("--dt=s8:s8:s8 --stag=nChw16c --dtag=nChw16c mb1ic20ih26iw20oc24oh24ow18kh3kw3ph0", False),   # shifted
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic20ih24iw20oc24oh24kh3kw3ph1", False),               # padded
])
def test_a_band_of_a_blocked_source_is_read_where_it_lies(line, view):
    """The host-threads row cut gives each part a view of the whole source: with nothing to pad, shift
    or widen, the kernel reads it through a strided memref over the whole buffer, no copy before."""
    from generator.emit.conv.brgemm.fusion import _brgemm_src_view
    from generator.emit.relayout import is_canonical
    for part in conv_host_parts(problem("--alg=brgemm " + line), 2):
        q = part.problem
        assert part.dst_cols is not None and not is_canonical(q.src)          # a band of rows, a view
        assert (_brgemm_src_view(q) is not None) == view
        conv = render_conv(q, get_backend("llvm-cpu")).split("\nfunc.func @", 2)[2]
        assert ("tensor.extract_slice" not in conv and "tensor.pad" not in conv) == view
        assert check_conv(ConvKernel(q), q) is None


@needs("avx512f")
def test_padded_destination_lanes_stay_zero_when_the_source_holds_an_inf():
    """A padded output channel multiplies the source by zero weights: an Inf in the source would make
    it NaN there. The kernel stores the lanes past OC as zero."""
    import numpy as np
    from generator.emit.conv.brgemm.fusion import brgemm_dst_blocks
    p = problem("--alg=brgemm --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic20ih6oc20oh6kh3ph1")
    assert brgemm_dst_blocks(p)
    k = ConvKernel(p)
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, p.desc.src_dims).astype(np.float32)
    x[0, 3, 2, 2] = np.inf
    w = rng.integers(-2, 3, p.wei.dims).astype(np.float32)
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    got = k(src)
    pad = p.dst.padding_mask()
    assert pad.any() and not np.any(got[pad] != 0)
    want = p.reference(src, wei, None)
    assert np.isnan(want).any() or np.isinf(want).any()
    assert np.array_equal(np.isfinite(got), np.isfinite(want))
    np.testing.assert_array_equal(got[np.isfinite(want)], want[np.isfinite(want)])


# Depthwise (emit.conv.DEPTHWISE_ISAS): one FMA per tap on 16 channels, every source type widened to f32
# in the kernel (8-bit products exact). In 1D and 2D the kernel reads the unpadded source and checks its
# taps against it (`Brgemm.borders`), a channel tail's loads masked (`Brgemm.lanes`); 3D is padded first.
# Channel tails, strides, dilation, asymmetric and uncropped padding, 1D and 3D, blocked sides, u8 / s8
# / bf16 / f16, the fused epilogue (scales, sum, ReLU, a destination zero point) and the shared one
# (a source zero point, linear). (line, borders)
DEPTHWISE_CASES = [
    ("--dt=f32 --stag=nhwc --dtag=nhwc g32mb2ic32ih9iw11oc32oh9ow11kh3kw3ph1pw1", True),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g20mb2ic20ih9iw11oc20oh9ow11kh3kw3ph1pw1", True),   # a channel tail
    ("--dt=f32 --stag=nhwc --dtag=nhwc g48mb1ic48ih15oc48oh8kh3sh2ph1", True),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g16mb1ic16ih13iw17oc16oh8ow8kh3kw5sh2sw2dh1dw1ph2pw3", True),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g16mb1ic16ih12iw14oc16oh6ow5kh1kw3sh2sw3ph0pw0", True),   # uncropped right
    ("--dt=f32 --stag=nchw --dtag=nchw --attr-post-ops=linear:0.5:3 g20mb1ic20ih9oc20oh9kh3ph1", True),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=relu g20mb1ic20ih9oc20oh9kh3ph1", True),
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-post-ops=sum:0.5+relu g32mb1ic32ih9oc32oh9kh3ph1", True),
    ("--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc g36mb1ic36ih9oc36oh9kh3ph1", True),
    ("--dt=s8:s8:s8 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:-3+dst:common:4 "
     "--attr-scales=dst:common:0.25 g32mb2ic32ih9oc32oh5kh3sh2ph1", True),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-zero-points=dst:common:-2 g20mb2ic20ih9oc20oh9kh3ph1", True),
    # a source zero point, subtracted in the kernel: borders, a channel tail, strides; and 3D
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-zero-points=src:common:3+dst:common:2 g40mb2ic40ih9iw11oc40oh5ow6kh3kw3sh2sw2ph1pw1", True),
    ("--dt=s8:s8:f32 --stag=ndhwc --dtag=ndhwc --attr-zero-points=src:common:-7 "
     "g24mb1ic24id5ih6iw7oc24od5oh6ow7kd3kh3kw3pd1ph1pw1", True),
    # a zero point per channel, the source's subtracted in the kernel: blocked with a tail; 3D
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-zero-points=src:per_dim_1+dst:per_dim_1 "
     "g20mb1ic20ih9iw11oc20oh9ow11kh3kw3ph1pw1", True),
    ("--dt=s8:s8:f32 --stag=ndhwc --dtag=ndhwc --attr-zero-points=src:per_dim_1 "
     "g24mb1ic24id5ih6iw7oc24od5oh6ow7kd3kh3kw3pd1ph1pw1", True),
    ("--dt=u8:s8:s8 --stag=nChw8c --dtag=nhwc g32mb1ic32ih9oc32oh9kh3ph1", True),         # 8-channel blocks: relaid
    ("--dt=u8:s8:f32 --stag=nwc --dtag=nwc g32mb1ic32iw19oc32ow19kw5pw2", True),
    ("--dt=bf16 --stag=nhwc --dtag=nhwc g32mb1ic32ih9oc32oh9kh3ph1", True),
    ("--dt=f16:f16:f32 --stag=nhwc --dtag=nhwc g36mb1ic36ih9oc36oh9kh3ph1", True),
    ("--dt=f32 --stag=ndhwc --dtag=ndhwc g32mb1ic32id5ih6iw7oc32od5oh6ow7kd3kh3kw3pd1ph1pw1", True),   # 3D
    # 3D: a channel tail, planes skipped at both ends, strides, dilation; u8 with the fused epilogue
    ("--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-post-ops=relu g40mb2ic40id6ih9iw9oc40od3oh5ow5kd3kh3kw3sd2sh2sw2pd1ph1pw1", True),
    ("--dt=bf16 --stag=ndhwc --dtag=ndhwc g20mb1ic20id7ih9iw9oc20od7oh9ow9kd5kh3kw3dd1pd3ph1pw1", True),
]


@needs("avx512f")
@pytest.mark.parametrize("line, borders", DEPTHWISE_CASES)
def test_depthwise_brgemm_matches_the_reference(line, borders):
    p = problem("--alg=brgemm " + line)
    text = render_conv(p, get_backend("llvm-cpu"))
    conv = text.split("\nfunc.func @", 2)[2]
    assert ("%inner" in text) == borders
    tail = p.desc.g % 16 != 0 and not brgemm_src_block(p)     # whole 16-channel blocks: nothing to mask
    assert ("vector.maskedload" in text) == (borders and tail)
    # channels last, a channel tail: the result holds the G real channels, its stores masked (no crop)
    out_tail = p.desc.g % 16 != 0 and not brgemm_dst_blocks(p)
    assert ("vector.maskedstore" in text) == out_tail
    if p.zero_point("src"):           # subtracted in the kernel, common or per channel: nothing after it
        assert "%zp_fv" in text and "linalg.generic" not in conv.split("flow.dispatch", 1)[1]
    assert "vpdpbusd" not in text and "dpbf16ps" not in text              # widened to f32, one FMA a tap
    in_place = p.src.tag in ("nhwc", "nwc", "ndhwc") or brgemm_src_block(p)  # no relayout of the source
    if borders and in_place and p.src.tag == p.dst.tag and not p.zero_points:
        assert conv.count("flow.dispatch") == 1 and "tensor.pad" not in conv  # no padded copy, no relayout
        assert "tensor.extract_slice" not in conv                               # nor a crop after it
    assert check_conv(ConvKernel(p), p) is None


@needs("avx512f")
@pytest.mark.parametrize("col", [0, 10])
def test_depthwise_borders_never_multiply_what_lies_outside_the_window(col):
    """A border block loads a tap outside the source at a clamped column (0) and zeroes it: an Inf
    there must not reach outputs whose windows do not hold it (the right border reads column 0 so)."""
    import numpy as np
    p = problem("--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc g16mb1ic16ih6iw11oc16oh6ow11kh3kw3ph1pw1")
    k = ConvKernel(p)
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, p.desc.src_dims).astype(np.float32)
    x[0, 5, 2, col] = np.inf
    w = rng.integers(1, 3, p.wei.dims).astype(np.float32)
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    got = p.dst.from_physical(k(src))
    want = p.dst.from_physical(p.reference(src, wei, None))
    assert np.isinf(want).sum() == 6                        # the 3 x 2 outputs whose windows hold it
    assert np.array_equal(np.isfinite(got), np.isfinite(want))
    np.testing.assert_array_equal(got[np.isfinite(want)], want[np.isfinite(want)])


@needs("avx512f")
def test_depthwise_8bit_sums_stay_exact_in_f32():
    """The 8-bit products are summed in f32: exact while the window has at most 514 taps (255 x 128 x
    514 < 2^24); past that the kernel is refused, naming the limit. Extreme values on every tap."""
    import numpy as np
    p = problem("--alg=brgemm --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc g16mb1ic16ih22iw23oc16oh1ow1kh22kw23ph0pw0")
    assert p.desc.kh * p.desc.kw == 506
    k = ConvKernel(p)
    x = np.full(p.desc.src_dims, 255, np.uint8)
    w = np.full(p.wei.dims, -128, np.int8)
    w[1::2] = 127
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    got = p.dst.from_physical(k(src))
    np.testing.assert_array_equal(got, p.dst.from_physical(p.reference(src, wei, None)))
    assert got.min() == 255 * -128 * 506
    with pytest.raises(UnsupportedError, match="exact up to 514 taps, and this window has 529"):
        render_conv(problem("--alg=brgemm --dt=u8:s8:s32 g4mb1ic4ih40oc4oh18kh23ph0"), vnni_cpu())


@needs("avx512f")
def test_depthwise_subtracts_a_source_zero_point_exactly_and_bounds_it():
    """A common source zero point is subtracted in the depthwise kernel (x - zp after the widening, the
    border taps then zeroed): one dispatch, nothing after it. f32 keeps it exact while 128 x |x - zp|
    x taps < 2^24: at the bound (9 taps: |zp| <= 14308 for u8) the result is exact on extreme values,
    past it the call is refused naming the bound; a window over 257 taps keeps the shared epilogue."""
    import numpy as np
    from generator.emit.conv.brgemm.fusion import DEPTHWISE_ZP_TAPS, depthwise_src_zp_limit
    from generator.errors import InputError
    p = problem("--alg=brgemm --dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:1 "
                "g16mb1ic16ih5iw6oc16oh5ow6kh3kw3ph1pw1")
    text = render_conv(p, get_backend("llvm-cpu"))
    conv = text.split("\nfunc.func @", 2)[2]
    assert "%zp_fv" in text and conv.count("flow.dispatch") == 1
    assert "linalg.generic" not in conv.split("flow.dispatch", 1)[1]
    limit = depthwise_src_zp_limit(p)
    assert limit == ((1 << 24) - 1) // (9 * 128) - 255 == 14308
    k = ConvKernel(p)
    x = np.full(p.desc.src_dims, 255, np.uint8)
    w = np.full(p.wei.dims, -128, np.int8)
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    for zp in (-limit, 7):
        got = p.dst.from_physical(k(src, src_zp=np.int32(zp)))
        want = p.dst.from_physical(p.reference(src, wei, None, quant={"src_zp": np.int32(zp)}))
        np.testing.assert_array_equal(got, want)
    assert got.min() == 9 * -128 * (255 - 7)                      # the middle pixels: all 9 taps
    with pytest.raises(InputError, match=f"holds {-limit - 1}: .* exact for .zero point. <= {limit} over its 9 taps"):
        k(src, src_zp=np.int32(-limit - 1))
    # per channel: each value is bounded alike, and every value within the bound is exact
    pc = problem("--alg=brgemm --dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:per_dim_1 "
                 "g16mb1ic16ih5iw6oc16oh5ow6kh3kw3ph1pw1")
    assert depthwise_src_zp_limit(pc) == limit
    kp = ConvKernel(pc)
    kp.prepare(wei)
    zps = np.linspace(-limit, limit, 16).astype(np.int32)
    got = pc.dst.from_physical(kp(src, src_zp=zps))
    np.testing.assert_array_equal(got, pc.dst.from_physical(pc.reference(src, wei, None, quant={"src_zp": zps})))
    zps[5] = limit + 1
    with pytest.raises(InputError, match=f"holds {limit + 1}: .* <= {limit} over its 9 taps"):
        kp(src, src_zp=zps)
    long = problem("--alg=brgemm --dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:1 "
                   "g16mb1ic16ih17iw17oc16oh1ow1kh17kw17ph0pw0")
    assert 17 * 17 > DEPTHWISE_ZP_TAPS and depthwise_src_zp_limit(long) is None
    assert "%zp_fv" not in render_conv(long, get_backend("llvm-cpu"))


# small groups across the vector lanes (emit.conv.brgemm_lane_groups): (cg, kg) a group's channels.
# Group tails (G not whole vectors of 16: masked loads and stores), strides, dilation, borders, blocked
# sides read and written in place, 1D and 3D, a channel multiplier (cg = 1), every source type, zero
# points common and per channel, the fused epilogue with a sum
LANE_GROUP_CASES = [
    ("--dt=f32 --stag=nhwc --dtag=nhwc g32mb1ic128ih9iw11oc128oh9ow11kh3kw3ph1pw1", (4, 4)),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g20mb2ic160ih9iw13oc160oh5ow7kh3kw3sh2sw2ph1pw1", (8, 8)),   # a tail
    ("--dt=f32 --stag=nhwc --dtag=nhwc g24mb1ic48ih9iw13oc192oh9ow13kh3kw3ph1pw1", (2, 8)),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g32mb1ic32ih9iw11oc64oh9ow11kh3kw3ph1pw1", (1, 2)),         # multiplier
    ("--dt=f32 --stag=nchw --dtag=nchw g32mb2ic128ih12iw10oc128oh6ow5kh3kw3sh2sw2dh1dw1ph2pw2", (4, 4)),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=linear:0.5:3 g20mb1ic80ih9oc80oh9kh3ph1", (4, 4)),
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-zero-points=src:common:3+dst:common:2 --attr-post-ops=sum:0.5+relu g32mb1ic128ih9oc128oh9kh3ph1", (4, 4)),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-zero-points=src:per_dim_1+dst:per_dim_1 "
     "g20mb1ic20ih9iw11oc160oh9ow11kh3kw3ph1pw1", (1, 8)),
    ("--dt=s8:s8:f32 --stag=ndhwc --dtag=ndhwc --attr-zero-points=src:common:-7 "
     "g32mb1ic128id5ih6iw7oc128od5oh6ow7kd3kh3kw3pd1ph1pw1", (4, 4)),                           # 3D
    ("--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc g32mb1ic32ih9oc256oh9kh3ph1", (1, 8)),
    ("--dt=bf16 --stag=nhwc --dtag=nhwc g18mb1ic36ih9oc72oh9kh3ph1", (2, 4)),
    ("--dt=u8:s8:f32 --stag=nwc --dtag=nwc g32mb1ic64iw19oc64ow19kw5pw2", (2, 2)),                   # 1D
    ("--dt=f16:f16:f32 --stag=nhwc --dtag=nhwc g32mb1ic256ih9oc128oh9kh3ph1", (8, 4)),
    # 8-bit quads x s8 (no per-channel source zero point): vpdpbusd across the lanes (LANE_DOT_ISAS)
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
     "--attr-post-ops=sum:0.5+relu g32mb1ic256ih9iw13oc256oh9ow13kh3kw3ph1pw1", (8, 8)),
    ("--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc g32mb2ic128ih12iw10oc128oh6ow5kh3kw3sh2sw2dh1dw1ph2pw2", (4, 4)),
    ("--dt=u8:s8:f32 --stag=nhwc --dtag=nhwc g20mb2ic160ih9iw13oc80oh5ow7kh3kw3sh2sw2ph1pw1", (8, 4)),   # a tail
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nChw16c --attr-zero-points=dst:per_dim_1 "
     "g32mb1ic128ih9iw11oc256oh9ow11kh3kw3ph1pw1", (4, 8)),
    ("--dt=u8:s8:u8 --stag=nChw16c --dtag=nhwc g32mb1ic128ih9oc128oh9kh3ph1", (4, 4)),        # relaid, not read in blocks
    ("--dt=u8:s8:s32 --stag=ndhwc --dtag=ndhwc g32mb1ic128id5ih6iw7oc64od3oh6ow7kd3kh3kw3pd0ph1pw1", (4, 2)),
    ("--dt=u8:s8:s32 --stag=nwc --dtag=nwc g16mb1ic128iw19oc16ow19kw7pw3", (8, 1)),
    # an s8 source flipped as it is loaded, a common source zero point: both in the accumulators' start,
    # the taps outside the source (border columns, rows, 3D planes) given back
    ("--dt=s8:s8:f32 --stag=nhwc --dtag=nhwc g32mb1ic128ih9iw11oc128oh9ow11kh3kw3ph1pw1", (4, 4)),
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:3+dst:common:2 "
     "--attr-scales=dst:common:4 g32mb1ic256ih9iw13oc256oh9ow13kh3kw3ph1pw1", (8, 8)),
    ("--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:-7 "
     "g20mb2ic160ih9iw13oc80oh5ow7kh3kw3sh2sw2ph2pw2dh1dw1", (8, 4)),
    # bf16 in whole pairs: vdpbf16ps across the lanes
    ("--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=relu g32mb1ic256ih9iw13oc256oh9ow13kh3kw3ph1pw1", (8, 8)),
    ("--dt=bf16:bf16:f32 --stag=nhwc --dtag=nhwc g20mb2ic40ih9iw13oc80oh5ow7kh3kw3sh2sw2ph1pw1", (2, 4)),  # a tail
    ("--dt=bf16 --stag=ndhwc --dtag=nCdhw16c g32mb1ic128id4ih5iw6oc128od4oh5ow6kd3kh3kw3pd1ph1pw1", (4, 4)),
    ("--dt=bf16 --stag=nhwc --dtag=nhwc g32mb1ic32ih9oc256oh9kh3ph1", (1, 8)),                # odd: widened
    # 8 channels a group on FMAs, the source transposed on the way in (brgemm_lanes_pretransposed):
    # strides and borders on 2 images, 3D, a 1D f16 row
    ("--dt=f32 --stag=nhwc --dtag=nhwc --attr-post-ops=relu g32mb2ic256ih9iw13oc256oh5ow7kh3kw3sh2sw2ph1pw1", (8, 8)),
    ("--dt=f32 --stag=ndhwc --dtag=ndhwc g16mb1ic128id4ih5iw6oc64od4oh5ow6kd3kh3kw3pd1ph1pw1", (8, 4)),
    ("--dt=f16 --stag=nwc --dtag=nwc g16mb1ic128iw21oc128ow21kw3pw1", (8, 8)),
]


@needs("avx512f")
@pytest.mark.parametrize("line, lanes", LANE_GROUP_CASES)
def test_small_groups_across_the_lanes_match_the_reference(line, lanes):
    from generator.emit.conv.brgemm.isa import brgemm_lane_dot, brgemm_lane_groups
    p = problem("--alg=brgemm " + line)
    assert brgemm_lane_groups(p) == lanes
    text = render_conv(p, get_backend("llvm-cpu"))
    conv = text.split("\nfunc.func @", 2)[2]
    cg, kg = lanes
    # a lane is one channel of a group widened to f32, or a dot product's u8 quad (vpdpbusd) or bf16
    # pair (vdpbf16ps) of channels
    zp = p.zero_point("src")
    quads = p.src.dtype.is_int and cg % 4 == 0 and not (zp and zp.per_channel)
    pairs = p.src.dtype.name == "bf16" and cg % 2 == 0
    dot = brgemm_lane_dot(p)
    assert (dot.k if dot else 1) == (4 if quads else 2 if pairs else 1)
    assert ("vpdpbusd" in text) == quads and ("dpbf16ps" in text) == pairs
    cq = cg // (4 if quads else 2 if pairs else 1)
    # de-interleaved and interleaved in registers: cq log2(cq) shuffles a column (none where the source
    # comes transposed: 4 or 8 channels a group on FMAs, not dot products, whole blocks of 16 groups),
    # kg log2(kg) a pixel
    pre = brgemm_lanes_pretransposed(p)
    assert pre == (not dot and cq >= 4 and p.desc.g % 16 == 0 and not brgemm_src_block(p))
    assert ("%xu" in text) == (cq > 1 and not pre) and ("%zz" in text) == (kg > 1)
    weights = re.search(r"memref<(\d+)x(\d+)x(\d+)x(\d+)x(\d+)x(16xf32|64xi8|32xbf16)>", text)
    assert int(weights[4]) == cq and int(weights[5]) % kg == 0            # (GB, KH, KW, cq, RO * kg, 16 q)
    assert ("vector.maskedload" in text) == (p.desc.g % 16 != 0 and not brgemm_src_block(p))
    assert ("vector.maskedstore" in text) == (p.desc.g % 16 != 0 and not brgemm_dst_blocks(p))
    if p.src.tag in ("nhwc", "nwc", "ndhwc") and p.src.tag == p.dst.tag and not p.zero_points:
        assert conv.count("flow.dispatch") == 1 and "tensor.pad" not in conv
    if dot and dot.feature not in host_matrix_features():
        pytest.skip(f"the host CPU has no {dot.feature} (grep {dot.feature} /proc/cpuinfo); generated and "
                    f"checked above, compiled by test_lane_dot_kernels_compile_for_a_cpu_that_has_them")
    assert check_conv(ConvKernel(p), p) is None


@pytest.mark.parametrize("line, op", [
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc g32mb1ic256ih9oc256oh9kh3ph1", "vpdpbusd"),
    ("--dt=bf16 --stag=nhwc --dtag=nhwc g32mb1ic128ih9oc128oh9kh3ph1", "dpbf16ps")])
def test_lane_dot_kernels_compile_for_a_cpu_that_has_them(tmp_path, line, op):
    """The dot-product lane kernels compile for a named CPU with their features, on any host."""
    target = cpu_target("sapphirerapids", ("avx512f", "avx512_vnni", "avx512_bf16"))
    text = render_conv(problem("--alg=brgemm " + line), target)
    assert op in text and "vector.shuffle" in text
    art = compile_mlir(text, target, cache_dir=tmp_path, name="lane_dot")
    assert art.path.stat().st_size > 0


@needs("avx512f")
def test_small_groups_bound_a_per_channel_zero_point_by_their_products():
    """Widened to f32 (a per-channel source zero point keeps the dot products out), each output of 4
    channels a group x 9 taps sums 36 products: exact while 36 x 128 x |x - zp| < 2^24, so |zp| <= 3385
    for u8. At the bound, extreme values are exact; past it the call is refused naming the taps and
    the group's channels."""
    import numpy as np
    from generator.errors import InputError
    p = problem("--alg=brgemm --dt=u8:s8:f32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:per_dim_1 "
                "g16mb1ic64ih5iw6oc64oh5ow6kh3kw3ph1pw1")
    k = ConvKernel(p)
    assert k.src_zp_limit == ((1 << 24) - 1) // (36 * 128) - 255 == 3385
    x = np.full(p.desc.src_dims, 255, np.uint8)
    w = np.full(p.wei.dims, -128, np.int8)
    src, wei = p.src.to_physical(x), p.wei.to_physical(w)
    k.prepare(wei)
    zps = np.linspace(-3385, 3385, 64).astype(np.int32)
    got = p.dst.from_physical(k(src, src_zp=zps))
    np.testing.assert_array_equal(got, p.dst.from_physical(p.reference(src, wei, None, quant={"src_zp": zps})))
    zps[7] = -3386
    with pytest.raises(InputError, match="holds -3386: .* <= 3385 over its 9 taps x 4 channels a group"):
        k(src, src_zp=zps)


def test_lane_shuffles_deinterleave_and_interleave_the_groups():
    """`lane_unzip` turns 16 groups x n channels in channel order into one vector a channel (lane =
    group), `lane_zip` back, each op a two-vector vector.shuffle; both in n log2(n) shuffles."""
    import numpy as np
    from generator.emit.brgemm_step import lane_unzip, lane_zip

    def run(prog, regs):
        ops, outputs = prog
        r = dict(enumerate(regs))
        for d, a, b, mask in ops:
            assert d not in r and len(mask) == 16 and all(0 <= i < 32 for i in mask)
            r[d] = np.concatenate([r[a], r[b]])[mask]
        return np.array([r[o] for o in outputs])

    for n in (1, 2, 4, 8):
        in_order = np.arange(16 * n).reshape(n, 16)                 # element e = group * n + channel
        per_channel = run(lane_unzip(n), list(in_order))
        np.testing.assert_array_equal(per_channel, np.arange(16 * n).reshape(16, n).T)
        np.testing.assert_array_equal(run(lane_zip(n), list(per_channel)), in_order)
        assert len(lane_unzip(n)[0]) == len(lane_zip(n)[0]) == n * (n.bit_length() - 1)


def test_small_groups_take_the_lanes_where_they_waste_less():
    """The lanes where an instruction over 16 groups does at least an ungrouped instruction's useful
    multiplies: ResNeXt's g32 with 4 and 8 channels a group in f32 and bf16, and in u8 on vpdpbusd's
    quads; widened to f32 (a source zero point per channel) 4 but not 8 (the ungrouped vpdpbusd
    fills its quads there); not 6 groups of 8 (6 of 16 lanes), 16 channels a group, nor an 8-bit
    window whose sums would pass f32's exact integers."""
    from generator.emit.conv.brgemm.isa import DEPTHWISE_EXACT_TAPS, brgemm_lane_groups
    for line, lanes in [("--dt=f32 g32mb1ic128ih56oc128oh56kh3ph1", (4, 4)),
                        ("--dt=f32 g32mb1ic256ih28oc256oh28kh3ph1", (8, 8)),
                        ("--dt=bf16 g32mb1ic256ih28oc256oh28kh3ph1", (8, 8)),
                        ("--dt=u8:s8:u8 g32mb1ic128ih28oc128oh28kh3ph1", (4, 4)),
                        ("--dt=u8:s8:u8 g32mb1ic256ih28oc256oh28kh3ph1", (8, 8)),         # vpdpbusd's quads
                        ("--dt=u8:s8:u8 --attr-zero-points=src:common:2 g32mb1ic256ih28oc256oh28kh3ph1", (8, 8)),
                        ("--dt=s8:s8:u8 g32mb1ic256ih28oc256oh28kh3ph1", (8, 8)),
                        ("--dt=u8:s8:u8 --attr-zero-points=src:per_dim_1 g32mb1ic256ih28oc256oh28kh3ph1", None),
                        ("--dt=u8:s8:u8 g32mb1ic32ih28oc256oh28kh3ph1", (1, 8)),
                        ("--dt=f32 g6mb1ic48ih28oc48oh28kh3ph1", None),
                        ("--dt=f32 g13mb1ic104ih28oc104oh28kh3ph1", (8, 8)),               # 13 lanes of 16
                        ("--dt=f32 g13mb1ic52ih28oc52oh28kh3ph1", (4, 4)),
                        ("--dt=bf16 g13mb1ic104ih28oc104oh28kh3ph1", (8, 8)),              # on vdpbf16ps
                        ("--dt=f32 g32mb1ic512ih14oc512oh14kh3ph1", None),
                        ("--dt=f32 g32mb1ic96ih14oc96oh14kh3ph1", None),                   # 3 a group
                        ("--dt=u8:s8:f32 g32mb1ic64ih33oc64oh1kh33ph0", None),
                        ("--dt=f32 g32mb1ic64ih33oc64oh1kh33ph0", (2, 2)),
                        ("--dt=f32 g32mb1ic32ih14oc32oh14kh3ph1", (1, 1))]:               # depthwise
        assert brgemm_lane_groups(problem("--alg=brgemm " + line)) == lanes, line
    assert 33 * 33 * 2 > DEPTHWISE_EXACT_TAPS
    assert brgemm_lane_groups(problem("--alg=direct --dt=f32 g32mb1ic128ih56oc128oh56kh3ph1")) is None


def test_brgemm_register_blocks_fit_the_registers():
    # 7 x 4 leaves no register for the broadcast (FULL_BLOCK_SCORE): taken only where it covers the row
    # (7-wide rows, 512 or 256 channels), not where 6 x 4 fits (56-wide rows) nor where a row takes two
    # (21-wide); a block covering a padded row, its channels whole, is preferred (ROW_BLOCK_SCORE: 14 x 2
    # on 14-wide rows, 2D and 3D; not 1x1, not 9 x 3 for 80 channels nor 7 x 4 for 160, not 8 x 2 over
    # 4 x 4); 5 vectors where they compute 80 or 160 channels whole (_MAX_RO; not 1024), not on the
    # depthwise kernel
    for line, (rw, ro) in [("mb1ic64ih56oc64oh56kh3ph1", (6, 4)), ("mb1ic8ih7oc16oh7kh3ph1", (7, 1)),
                           ("mb1ic8ih20oc32oh20kh3ph1", (10, 2)), ("mb1ic512ih7oc512oh7kh3ph1", (7, 4)),
                           ("mb1ic256ih14oc256oh14kh3ph1", (14, 2)), ("mb1ic128ih28oc128oh28kh3ph1", (6, 4)),
                           ("mb1ic256ih21oc256oh21kh3ph1", (6, 4)), ("mb1ic1024ih14oc256oh14kh1ph0", (5, 4)),
                           ("mb1ic256ih14oc1024oh14kh1ph0", (5, 4)), ("mb1ic256ih8oc256oh8kh3ph1", (4, 4)),
                           ("mb1ic160ih9oc80oh9kh3ph1", (5, 5)), ("mb1ic128ih7oc160oh7kh3ph1", (4, 5)),
                           ("mb1ic160id4ih13iw13oc160od4oh13ow13kd3kh3kw3pd1ph1pw1", (5, 5)),
                           ("mb1ic160ih14oc160oh14kh3ph1", (5, 5)), ("mb1ic80ih28oc80oh28kh3ph1", (5, 5)),
                           ("mb1ic128id8ih14iw14oc128od8oh14ow14kd3kh3kw3pd1ph1pw1", (14, 2)),
                           ("mb1ic256id4ih7iw7oc256od4oh7ow7kd3kh3kw3pd1ph1pw1", (7, 4)),
                           ("g160mb1ic160id4ih6iw14oc160od4oh6ow14kd3kh3kw3pd1ph1pw1", (14, 2))]:
        got = brgemm_blocking(problem("--alg=brgemm --dt=u8:s8:s32 " + line))
        assert got[:2] == (rw, ro), line
        assert got[0] * got[1] + got[1] <= 32


@needs("avx512_bf16")
@pytest.mark.parametrize("line", [
    "--dt=f32 --stag=nhwc --dtag=nhwc mb1ic24ih9iw13oc80oh9ow13kh3kw3ph1pw1",           # a pixel tail
    "--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-zero-points=src:common:3+dst:common:1 "
    "--attr-post-ops=sum:0.5+relu --stag=nhwc --dtag=nhwc mb1ic40ih7iw14oc160oh7ow14kh3kw3ph1pw1",
    "--dt=s8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic20id4ih5iw11oc80od4oh5ow11kd3kh3kw3pd1ph1pw1",
    "--dt=bf16 --stag=nChw16c --dtag=nChw16c mb1ic32ih8iw10oc80oh8ow10kh3kw3ph1pw1",
    "--dt=s8:s8:s8 --attr-scales=wei:per_oc --attr-zero-points=src:common:2 --stag=nhwc --dtag=nhwc "
    "g2mb1ic64ih9iw11oc160oh9ow11kh3kw3ph1pw1"])                                         # 80 channels a group
def test_brgemm_five_vector_blocks_match_the_reference(line):
    # 5 vectors of output channels (_MAX_RO) where they compute 80 or 160 channels whole: the kernel,
    # its weight packing, the per-tap sums of an s8 source and the stores agree on it
    p = problem("--alg=brgemm " + line)
    assert brgemm_blocking(p)[1] == 5, line
    assert check_conv(ConvKernel(p, get_backend("llvm-cpu"), driver="local-sync"), p) is None


def test_brgemm_narrows_the_register_block_to_keep_the_weight_panel_in_l2():
    # TargetCaps.weight_panel_bytes (an Intel core: 3/8 of its L2): 3 or 4 vectors of output channels
    # only where the panel (reduction x 16 x RO x the weights' width) fits, else 2 (never 1 for it);
    # none set: the blocks as before
    from generator.compile.host import host_weight_panel_bytes
    from generator.emit.conv.brgemm.blocking import _weight_panel_bytes

    intel = dataclasses.replace(get_backend("llvm-cpu"), weight_panel_bytes=786432)
    for line, before, after in [("--dt=f32 mb1ic1024ih21oc1024oh19kh3ph0", (5, 4), (10, 2)),     # YOLOv2 2.4 MB
                                ("--dt=f32 mb1ic512ih7oc512oh7kh3ph1", (7, 4), (7, 2)),           # 1.2 MB
                                ("--dt=f32 mb1ic128ih28oc128oh28kh3ph1", (6, 4), (6, 4)),         # 0.3 MB fits
                                ("--dt=u8:s8:s32 mb1ic512ih7oc512oh7kh3ph1", (7, 4), (7, 4)),     # 1 byte a weight
                                ("--dt=bf16 mb1ic1024ih21oc1024oh19kh3ph0", (5, 4), (10, 2))]:   # 2 bytes
        p = problem("--alg=brgemm " + line)
        assert brgemm_blocking(p)[:2] == before and brgemm_blocking(p, intel)[:2] == after, line
        assert after[1] <= 2 or _weight_panel_bytes(p, after[1]) <= 786432
    fma = problem("--alg=brgemm_fma --dt=bf16 mb1ic512ih7oc512oh7kh3ph1")          # widened: 4 bytes
    assert _weight_panel_bytes(fma, 4) == 3 * 3 * 512 * 64 * 4 and brgemm_blocking(fma, intel)[:2] == (7, 2)
    assert get_backend("llvm-cpu").portable().weight_panel_bytes is None
    if get_backend("llvm-cpu").cpu_features and "GenuineIntel" in open("/proc/cpuinfo").read():
        assert get_backend("llvm-cpu").weight_panel_bytes == host_weight_panel_bytes() is not None


@needs("avx512_vnni")
@pytest.mark.parametrize("line", [
    "--dt=f32 --stag=nhwc --dtag=nhwc mb1ic40ih9oc80oh9kh3ph1",                     # 5 vectors: 2 + 2 + 1
    "--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-zero-points=src:common:3 "
    "--stag=nhwc --dtag=nhwc mb1ic24ih8oc72oh8kh3ph1",                                  # a channel tail
    "--dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=sum:0.5+elu mb1ic17ih7oc64oh7kh3ph1",
    "--dt=f32 --stag=nhwc --dtag=nhwc g2mb1ic32ih6oc128oh6kh3ph1",
    "--alg=brgemm_fma --dt=bf16 --stag=nhwc --dtag=nhwc mb1ic32ih6oc64oh6kh3ph1",
])
def test_brgemm_narrowed_blocks_match_the_reference(line):
    # a panel bound small enough to narrow these blocks to 2 vectors: the kernel, its weight packing in
    # prepare and the stores agree on it
    p = problem(line if line.startswith("--alg") else "--alg=brgemm " + line)
    tight = dataclasses.replace(get_backend("llvm-cpu"), weight_panel_bytes=1024)
    assert brgemm_blocking(p)[1] > 2 and brgemm_blocking(p, tight)[1] == 2, line
    assert check_conv(ConvKernel(p, tight), p) is None


@pytest.mark.parametrize("line", [
    # the bottom half of a 14x14 layer as host threads cut it: its padded row below the source
    "--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-zero-points=src:common:3 "
    "--stag=nhwc --dtag=nhwc mb1ic32ih8iw14oc64oh7ow14kh3kw3ph0pw1",
    "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic36ih14oc96oh14kh3ph1",                # s8 shifted, an IC tail
    "--dt=f32 --stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5+elu mb1ic20ih14oc64oh14kh3ph1",
    "--dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic17ih14oc64oh14kh3ph1",
    "--alg=brgemm_fma --dt=bf16 --stag=nhwc --dtag=nhwc mb1ic32ih14oc64oh14kh3ph2dh1",     # dilated rows
    "--dt=bf16 --stag=nhwc --dtag=nhwc mb1ic32ih14iw14oc64oh14ow14kh1kw3ph0pw1",             # 1 x 3
    "--dt=u8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic16id3ih5iw14oc64od3oh5ow14kd3kh3kw3pd1ph1pw1",
    "--dt=f32 --stag=nwc --dtag=nwc mb1ic16iw14oc64ow14kw3pw1",
])
def test_brgemm_row_blocks_match_the_reference(line):
    # 14-wide rows in one 14 x 2 block (ROW_BLOCK_SCORE), its first and last pixels both at the padding,
    # where 7 x 4 (two blocks a row) was taken before in 2D and 1D, and 5 x 4 in 3D: the kernel,
    # prepare's packing and the stores agree on it
    p = problem(line if line.startswith("--alg") else "--alg=brgemm " + line)
    feature = {"bf16": "avx512_bf16", "u8": "avx512_vnni", "s8": "avx512_vnni"}.get(p.src.dtype.name)
    if feature and feature not in host_matrix_features():
        pytest.skip(f"the host CPU has no {feature} (grep {feature} /proc/cpuinfo); generation and "
                    f"compilation are still tested")
    assert brgemm_blocking(p)[:2] == (14, 2), line
    assert check_conv(ConvKernel(p, "llvm-cpu", driver="local-sync"), p) is None


def test_brgemm_refusals_are_clear():
    p = problem("--alg=brgemm --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic8ih6oc16kh3ph1")
    no_vnni = dataclasses.replace(get_backend("llvm-cpu"), cpu_features=frozenset({"avx2", "avx512f"}))
    with pytest.raises(UnsupportedError, match=r"refused on llvm-cpu: its u8 microkernel \(vpdpbusd\) needs a CPU "
                                               r"with avx512_vnni \(this target's matrix features: avx2, avx512f\)"):
        render_conv(p, no_vnni)
    with pytest.raises(UnsupportedError, match=r"its bf16 microkernel \(vdpbf16ps\) needs a CPU with avx512_bf16"):
        render_conv(problem("--alg=brgemm --dt=bf16 mb1ic8ih6oc16kh3ph1"), no_vnni)
    with pytest.raises(UnsupportedError, match=r"its f32 microkernel \(vfmadd231ps\) needs a CPU with avx512f"):
        render_conv(problem("--alg=brgemm --dt=f32 mb1ic8ih6oc16kh3ph1"),
                    dataclasses.replace(no_vnni, cpu_features=frozenset({"avx2"})))
    with pytest.raises(UnsupportedError, match="refused on vulkan"):
        ConvKernel(p, "vulkan")
    with pytest.raises(UnsupportedError, match=r"its f16 microkernel \(vfmadd231ps on f16 widened by vcvtph2ps\) "
                                               r"needs a CPU with avx512f"):
        render_conv(problem("--alg=brgemm --dt=f16 mb1ic8ih6oc16kh3ph1"),
                    dataclasses.replace(no_vnni, cpu_features=frozenset({"avx2"})))
    for line, why in [("--dt=f16:bf16:f16 mb1ic8ih6oc16kh3ph1", r"multiply u8/s8 x s8 \(vpdpbusd\), bf16 x bf16 "
                       r"\(vdpbf16ps\), f32 x f32 \(vfmadd231ps\), f16 x f16 \(vfmadd231ps on f16 widened by "
                       r"vcvtph2ps\), not f16:bf16"),
                      ("--dt=u8:s8:s32 g8mb1ic8ih30oc8kh23ph11", "exact up to 514 taps"),
                      ]:
        with pytest.raises(UnsupportedError, match=f"--alg=brgemm does not apply: .*{why}"):
            render_conv(problem("--alg=brgemm " + line), vnni_cpu())


# the kernel rows (3D: planes) that reach only zero padding are skipped row by row (Brgemm.real_rows):
# whole output rows in the padding, dilations, strides, 3D planes, a source zero point (each pixel's
# start over the taps it reads), blocked sides, the folded stem, bf16 both ways; an s8 source (shifted to u8 before its
# padding, each pixel's start counting only the taps it reads: Brgemm.real_tap_starts), with and
# without a zero point
ROW_SKIP_CASES = [
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic20ih5oc33oh9kh3ph3",                  # rows all padding
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb2ic17ih13iw11oc33kh3kw2sh2ph2dh1",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:1 --stag=nhwc --dtag=nhwc mb1ic24ih7oc40oh7kh3ph1",
    "--alg=brgemm --dt=bf16 --stag=nhwc --dtag=nhwc mb1ic32ih7oc32oh7kh5ph2",
    "--alg=brgemm_fma --dt=bf16 --stag=nhwc --dtag=nhwc mb1ic32ih7oc32oh5kh5ph1",
    "--alg=brgemm --dt=f32 --stag=ndhwc --dtag=ndhwc mb1ic20id6ih6iw6oc40kd3kh3kw3pd1ph1pw1",
    "--alg=brgemm --dt=f32 --stag=ndhwc --dtag=ndhwc mb2ic8id7ih5iw6oc16kd3kh2kw3sd2pd2ph1pw1dd1",
    "--alg=brgemm --dt=u8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic8id5ih5iw5oc16kd3kh3kw3pd3ph1pw1",  # planes all padding
    "--alg=brgemm --dt=f32 --stag=nChw16c --dtag=nChw16c --attr-post-ops=sum:0.5+elu mb1ic20ih9oc40oh9kh3ph1",
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic3ih30oc64kh7sh2ph3",                  # the stem, folded
    # ... and the edge blocks' pixels that read only padding at a kernel column (Brgemm.edge_cols):
    # strides and dilations along W, tails, pixels in the padding at every column, an uncropped right
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic20ih9iw23oc40oh9ow12kh3kw5ph1pw3sw2dw1",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=wei:per_oc --attr-zero-points=src:common:2 "
    "--stag=nhwc --dtag=nhwc mb1ic8ih4iw4oc16oh4ow10kh1kw3ph0pw4",
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic16ih12iw14oc32oh6ow5kh1kw3sh2sw3ph0pw1",
    "--alg=brgemm --dt=bf16 --stag=nChw16c --dtag=nChw16c mb1ic32ih14oc48oh14kh3ph1",
    "--alg=brgemm --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic17ih9oc33kh3ph1",
    "--alg=brgemm --dt=s8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:-3+dst:common:1 --stag=nhwc --dtag=nhwc mb2ic24ih7iw9oc40oh7ow11kh3kw5ph1pw3",
    "--alg=brgemm --dt=s8:s8:s8 --attr-post-ops=sum:0.5:3 --stag=nhwc --dtag=nhwc mb1ic20ih12iw23oc40oh6ow12kh3kw5sh2ph1pw3sw2dw1",
    "--alg=brgemm --dt=s8:s8:f32 --stag=nChw16c --dtag=nChw16c mb1ic32ih9oc48oh9kh3ph1",
    "--alg=brgemm --dt=s8:s8:s32 --stag=nwc --dtag=nwc mb1ic12iw30oc32ow30kw5pw2",
    # 3D: the starts leave out the padded planes too
    "--alg=brgemm --dt=s8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic8id5ih5iw5oc16kd3kh3kw3pd1ph1pw1",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=wei:per_oc --attr-zero-points=src:common:5+dst:common:2 "
    "--stag=ndhwc --dtag=ndhwc mb2ic12id6ih5iw7oc20od3oh5ow7kd3kh3kw3sd2pd2ph1pw1dd1",
    "--alg=brgemm --dt=s8:s8:f32 --attr-zero-points=src:common:-4 --stag=ndhwc --dtag=ndhwc "
    "mb1ic20id4ih6iw6oc24kd2kh3kw3pd0ph2pw0",
    # padding wider than a block (dilations, ASPP's): blocks of the row's loop read it too, and check
    # their columns for their starts (Brgemm.inner_edges); 2D, 3D, blocked, 1D
    "--alg=brgemm --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic40ih33oc160kh3ph6dh5",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=wei:per_oc --attr-zero-points=src:common:3 --stag=nhwc --dtag=nhwc "
    "mb1ic16ih65oc64kh3ph18dh17",
    "--alg=brgemm --dt=s8:s8:s32 --stag=ndhwc --dtag=ndhwc mb1ic8id4ih5iw60oc80od4oh5ow60kd3kh3kw3pd1ph1pw24dw23",
    "--alg=brgemm --dt=s8:s8:s8 --attr-scales=wei:per_oc --stag=nChw16c --dtag=nChw16c "
    "mb1ic32ih9iw60oc64oh9ow60kh3kw3ph1pw24dw23",
    "--alg=brgemm --dt=s8:s8:s32 --attr-zero-points=src:common:-2 --stag=nwc --dtag=nwc mb1ic12iw60oc64ow60kw3pw24dw23",
]


@needs("avx512_bf16")
@pytest.mark.parametrize("line", ROW_SKIP_CASES)
def test_brgemm_skips_the_taps_that_reach_only_padding(line):
    p = problem(line)
    d = p.desc
    text = render_conv(p, get_backend("llvm-cpu"))
    assert ("%kh_lo to %kh_hi" in text) == bool(d.ph or d.ph_r > 0 or d.pd or d.pd_r > 0), line
    assert ("%kd_lo to %kd_hi" in text) == (d.ndims == 5), line
    # the edge blocks, their kernel columns unrolled (not the folded stem's)
    from generator.emit.conv.brgemm.blocking import brgemm_fold_taps
    assert ("%kwc0" in text) == bool((d.pw or d.pw_r > 0) and not brgemm_fold_taps(p)), line
    if "ph18" in line or "dw23" in line or "dh5" in line:       # the loop's blocks check their columns
        assert "%col_lo" in text, line
    # the zero points the line names (a drawn one could be 0, which corrects nothing)
    (case,) = list(parse_conv_args(shlex.split(line)))
    given = given_conv_quant_values(case)
    assert check_conv(ConvKernel(p, get_backend("llvm-cpu"), driver="local-sync"), p, given) is None


def test_brgemm_edge_blocks_multiply_only_the_pixels_that_read_the_source(monkeypatch):
    # stride 2, dilation 2 (benchdnn's dw1), left padding 3, 8 real columns ([3, 11) of the padded
    # row): pixel ow0 + r reads padded column 2 (ow0 + r) + 2 kw at kernel column kw
    import generator.emit.conv.plan as conv_plan
    from generator.emit.brgemm_step import Brgemm

    p = problem("--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic16ih3iw8oc16oh3ow6kh1kw3ph0pw3sw2dw1")
    seen = {}
    monkeypatch.setattr(conv_plan, "render", lambda template, **kw: seen.update(kw) or "")
    render_conv(p, get_backend("llvm-cpu"))
    step = next(s for s in seen["steps"] if isinstance(s, Brgemm))
    assert step.real_cols == [3, 8]
    assert step.edge_cols(0, 3) == [[2], [1, 2], [0, 1, 2]]
    assert step.edge_cols(3, 3) == [[0, 1, 2], [0, 1], [0]]
    assert step.edge_cols(2, 1) is None                 # column 4 + 2 kw: 4, 6, 8, all real


@pytest.mark.parametrize("line", [
    # an s8 source where a pixel's start cannot count the padded taps (a folded row) is shifted
    # to u8 after its zero padding, which then reads 128 (cancelled by the compensation)
    "--alg=brgemm --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic3ih20oc16oh10kh7sh2ph3",
    # no padding above or below: nothing to skip
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic16ih9iw9oc32oh7ow9kh3kw3ph0pw1"])
def test_brgemm_runs_every_tap_where_the_padding_is_not_zero(line):
    b = get_backend("llvm-cpu")
    p = problem(line)
    text = render_conv(p, b)
    assert "%kh_lo" not in text and ("%c0 to %kh_n" in text or "%c0 to %kh_per_kd" in text), line
    assert check_conv(ConvKernel(p, b, driver="local-sync"), p) is None


# 8-bit destinations, channels last, whole vectors: each 4 (or 2) channel vectors of a pixel narrowed
# together (vpackssdw, vpackuswb / vpacksswb, vpermd) and stored as one 64- (32-) byte vector
# (Brgemm.pack_int8_stores), and the dst scale folded into the scale and the bias where nothing lies
# between them (StoreEpilogue.folds_dst_scale). A dst scale of 1/64 sends results past both ends of the
# type; bias, zero points, ReLU, the sum, groups of 64, partial blocks, 1D and 3D, depthwise, with and
# without src / wei scales
PACKED_INT8_CASES = [
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "mb1ic64ih14oc128oh14kh3ph1",
    "--dt=u8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 "
    "--attr-zero-points=dst:common:-20 mb2ic24ih7iw13oc64kh1kw1ph0",
    "--dt=s8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=dst:common:2 "
    "--attr-zero-points=src:common:-3+dst:common:100 mb1ic20ih11oc64kh3ph1",
    "--dt=u8:s8:u8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.25+wei:per_oc+dst:common:2 "
    "--attr-post-ops=relu mb1ic17ih13iw11oc64kh3kw2sh2ph1dh1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-post-ops=sum:0.5:3+relu mb1ic64ih14oc64oh14kh1ph0",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 g2mb1ic40ih9oc128oh9kh3ph1",
    "--dt=u8:s8:u8 --stag=nwc --dtag=nwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "mb2ic1iw400oc64ow79kw10sw5pw0",
    "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=dst:common:2 mb1ic16id5ih6iw7oc64kd3kh3kw3pd1ph1pw1",
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --dir=FWD_B --attr-scales=dst:common:2 mb1ic3ih30oc64kh7sh2ph3",
    # s8
    "--dt=u8:s8:s8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "mb1ic64ih14oc128oh14kh3ph1",
    "--dt=s8:s8:s8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:-3+dst:common:-20 mb2ic24ih7iw13oc64kh1kw1ph0",
    "--dt=u8:s8:s8 --stag=nhwc --dtag=nhwc --attr-scales=dst:common:2 --attr-post-ops=sum:0.5:3 "
    "mb1ic20ih11oc64kh3ph1",
    "--dt=s8:s8:s8 --stag=nwc --dtag=nwc --attr-scales=dst:common:2 mb2ic5iw20oc64kw3pw2sw3",
    # depthwise (one channel a lane), 2D and 3D
    "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "g64mb1ic64ih7oc64oh7kh3ph1",
    "--dt=s8:s8:s8 --dir=FWD_B --stag=nhwc --dtag=nhwc --attr-scales=dst:common:2 --attr-zero-points=src:common:-3 "
    "g32mb2ic32ih11oc32oh6kh3sh2ph1",
    "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=dst:common:2 g64mb1ic64id4ih6iw7oc64kd3kh3kw3pd1ph1pw1",
]


@needs_vnni
@pytest.mark.parametrize("line", PACKED_INT8_CASES)
def test_int8_stores_are_packed_vectors_at_a_time(line):
    p = problem("--alg=brgemm " + line)
    exe = render_conv(p, get_backend("llvm-cpu")).split("stream.executable private @", 1)[1].split("\nfunc.func", 1)[0]
    pack = "packsswb" if p.dst.dtype.signed else "packuswb"
    assert f'"llvm.x86.avx512.{pack}.512"' in exe and not re.search(r"vector\.(masked)?store [^\n]*vector<16xi8>", exe)
    call = conv_call(p, {"dst_scale": 2.0 ** -6})
    assert check_conv(ConvKernel(p), p, call=call) is None
    # results at both ends of the type, so both saturations were checked
    want = p.reference(call.src, call.wei, call.bias, quant=call.quant, inputs=call.inputs)
    lo, hi = (-128, 127) if p.dst.dtype.signed else (0, 255)
    assert (want == lo).any() and (want == hi).any()


@needs_vnni
@pytest.mark.parametrize("dt", ["u8", "s8"])
@pytest.mark.parametrize("oc", [64, 32, 40])
def test_int8_stores_make_a_nan_bias_zero(oc, dt):
    """A NaN in the bias makes its channel's results NaN, and +-Inf saturates: NaN -> 0, +-Inf -> the
    type's ends, in 4 vectors packed (OC 64), 2 (OC 32), or one at a time (OC 40, the last one masked)."""
    p = problem(f"--alg=brgemm --dt=u8:s8:{dt} --dir=FWD_B --stag=nhwc --dtag=nhwc "
                f"--attr-scales=src:common:0.5+dst:common:2 mb1ic4ih6oc{oc}oh6kh1ph0")
    call = conv_call(p)
    call.bias[[1, 17, 30]] = [np.nan, np.inf, -np.inf]
    assert check_conv(ConvKernel(p), p, call=call) is None
    want = p.reference(call.src, call.wei, call.bias, quant=call.quant, inputs=call.inputs)
    lo, hi = (-128, 127) if dt == "s8" else (0, 255)
    assert (want[..., 1] == 0).all() and (want[..., 17] == hi).all() and (want[..., 30] == lo).all()
