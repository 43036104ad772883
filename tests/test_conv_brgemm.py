"""The brgemm variant: a generated int8 microkernel (vpdpbusd on avx512_vnni) in a custom dispatch.
Generated and compiled for a VNNI CPU on any machine; run and checked against the float64 reference
where the host has avx512_vnni (elsewhere those tests skip with that reason); refused with a clear
error on targets without the feature."""
from __future__ import annotations

import dataclasses
import shlex

import pytest

from generator.api import ConvKernel
from generator.benchdnn.conv import conv_problem, parse_conv_args
from generator.compile import get_backend
from generator.compile.backends import host_matrix_features
from generator.compile.cache import compile_mlir
from generator.emit.conv import brgemm_blocking, render_conv
from generator.errors import UnsupportedError
from generator.problem.conv import ConvProblem
from generator.verify import check_conv

HOST_VNNI = "avx512_vnni" in host_matrix_features()
needs_vnni = pytest.mark.skipif(not HOST_VNNI, reason="the host CPU has no avx512_vnni "
                                "(grep avx512_vnni /proc/cpuinfo); generation and compilation are still tested")


def problem(line: str) -> ConvProblem:
    (case,) = list(parse_conv_args(shlex.split(line)))
    return conv_problem(case)


def vnni_cpu(cpu: str = "cascadelake"):
    """llvm-cpu compiling for a named VNNI CPU instead of the host, with the microkernel enabled."""
    b = get_backend("llvm-cpu")
    flags = tuple(f if not f.startswith("--iree-llvmcpu-target-cpu=") else f"--iree-llvmcpu-target-cpu={cpu}"
                  for f in b.flags)
    return dataclasses.replace(b, flags=flags, cpu_features=frozenset({"avx512_vnni"}))


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
]


@needs_vnni
@pytest.mark.parametrize("line", CASES)
def test_brgemm_matches_the_reference(line):
    p = problem("--alg=brgemm " + line)
    assert check_conv(ConvKernel(p), p) is None


def test_brgemm_is_generated_and_compiles_for_a_vnni_cpu(tmp_path):
    p = problem("--alg=brgemm --dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=wei:per_oc "
                "--attr-post-ops=relu mb1ic24ih9oc40oh9kh3ph1")
    target = vnni_cpu()
    text = render_conv(p, target)
    exe = text.split("stream.executable private @", 1)[1]
    assert exe.count('"llvm.x86.avx512.vpdpbusd.512"') == brgemm_blocking(p)[0] * brgemm_blocking(p)[1]
    assert "flow.dispatch @" in text.split("func.func @", 2)[2]          # the conv function dispatches it
    art = compile_mlir(text, target, cache_dir=tmp_path, name="brgemm")
    assert art.path.stat().st_size > 0


def test_s8_sources_are_compensated_in_prepare():
    p = problem("--alg=brgemm --dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic24ih9oc40oh9kh3ph1")
    prep, conv = render_conv(p, vnni_cpu()).split("\nfunc.func @", 2)[1:]      # after the executable
    assert "-> (!wei_prepared, tensor<48xi32>)" in prep and "arith.muli" in prep   # -128 * sum per channel
    assert "arith.xori" in conv and "tensor<48xi32>" in conv.split("{")[0]          # shifted; an argument
    assert "tensor<48xi32>" not in render_conv(problem(
        "--alg=brgemm --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic24ih9oc40oh9kh3ph1"), vnni_cpu())


def test_brgemm_register_blocks_fit_the_registers():
    for line, (rw, ro) in [("mb1ic64ih56oc64oh56kh3ph1", (6, 4)), ("mb1ic8ih7oc16oh7kh3ph1", (7, 1)),
                           ("mb1ic8ih20oc32oh20kh3ph1", (10, 2))]:
        got = brgemm_blocking(problem("--alg=brgemm --dt=u8:s8:s32 " + line))
        assert got[:2] == (rw, ro), line
        assert got[0] * got[1] + got[1] + 1 <= 32


def test_brgemm_refusals_are_clear():
    p = problem("--alg=brgemm --dt=u8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic8ih6oc16kh3ph1")
    no_vnni = dataclasses.replace(get_backend("llvm-cpu"), cpu_features=frozenset({"avx2", "avx512f"}))
    with pytest.raises(UnsupportedError, match="refused on llvm-cpu: its microkernel needs a CPU with avx512_vnni "
                                               r"\(this target's matrix features: avx2, avx512f\)"):
        render_conv(p, no_vnni)
    with pytest.raises(UnsupportedError, match="refused on vulkan"):
        ConvKernel(p, "vulkan")
    for line, why in [("--dt=f32 mb1ic8ih6oc16kh3ph1", r"u8 \(or shifted s8\) sources by s8 weights"),
                      ("--dt=u8:s8:s32 g2mb1ic8ih6oc16kh3ph1", "ungrouped"),
                      ("--dt=u8:s8:s32 mb1ic8id4oc16kd3pd1", "1D and 2D")]:
        with pytest.raises(UnsupportedError, match=f"--alg=brgemm does not apply: .*{why}"):
            render_conv(problem("--alg=brgemm " + line), vnni_cpu())
