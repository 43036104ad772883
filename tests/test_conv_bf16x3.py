"""bf16x3 (emit/conv/brgemm/bf16x3.py): f32 convolutions as three bf16 products per product, on brgemm's
bf16 kernel (vdpbf16ps) and on its AMX tiles (emulated where the CPU has none), checked against the
float64 reference on non-integer data (integer fills are exact in bf16 and would leave the low parts
unused) within `BF16X3_TOLERANCE`, with its error measured against plain bf16 inputs'."""
from __future__ import annotations

import dataclasses
import shlex

import numpy as np
import pytest

from generator.api import ConvKernel
from generator.bench.conv import sweep
from generator.benchdnn.conv import conv_problem, parse_conv_args
from generator.compile import get_backend
from generator.compile.host import host_matrix_features
from generator.emit.conv import VARIANTS, render_conv
from generator.errors import UnsupportedError
from generator.problem.conv import BF16X3_TOLERANCE
from generator.select import heuristic
from generator.verify import SEED, check_conv, conv_call

from tiers import first

# tails: IC odd, OC not whole vectors, OW not whole blocks; stride, padding, 1D, 3D; a bias, a post-op
# whose f(0) != 0 into a blocked destination (its padded channels stay zero), a sum, a bf16 destination
CASES = first([
    "--stag=nhwc --dtag=nhwc mb1ic16ih9oc24oh9kh3ph1",
    "--dir=FWD_B --attr-post-ops=eltwise_linear:0.5:0.25 --stag=nchw --dtag=nChw16c mb2ic17ih11iw13oc20kh3kw3ph1pw1",
    "--stag=nhwc --dtag=nhwc --attr-post-ops=sum:0.5+relu mb1ic64ih7oc40oh7kh3ph1",
    "--stag=nhwc --dtag=nhwc mb1ic3ih30oc16oh15kh7sh2ph3",
    "--dt=f32:f32:bf16 --stag=nhwc --dtag=nhwc mb1ic32ih14oc48kh1ph0",
    "--stag=nwc --dtag=nwc mb2ic20iw50oc33kw3pw1",
    "--stag=ndhwc --dtag=ndhwc mb1ic5id6ih7iw6oc20kd3kh3kw3pd1ph1pw1",       # 3D (brgemm's; AMX refuses it)
], 2)


def problem(line: str):
    (case,) = parse_conv_args(shlex.split(line))
    return conv_problem(case)


def backend_for(alg: str):
    """llvm-cpu, with AMX's tiles emulated on AVX-512 for the AMX variant (TargetCaps.emulate_amx)."""
    b = get_backend("llvm-cpu")
    if "amx" in alg:
        b = dataclasses.replace(b, cpu_features=b.cpu_features | {"amx_int8", "amx_bf16"}, emulate_amx=True)
    return b


def float_call(p, seed: int = SEED):
    """`conv_call(p)` with the source and weights uniform in [-1, 1): values whose low bf16 part is not zero."""
    call = conv_call(p, seed=seed)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, call.x.shape).astype(np.float32)
    w = rng.uniform(-1, 1, call.w.shape).astype(np.float32)
    return dataclasses.replace(call, x=x, w=w, src=p.src.to_physical(x), wei=p.wei.to_physical(w.reshape(p.wei.dims)))


needs_bf16 = pytest.mark.skipif("avx512_bf16" not in host_matrix_features(),
                                reason="the host CPU has no avx512_bf16 (grep avx512_bf16 /proc/cpuinfo)")


@needs_bf16
@pytest.mark.parametrize("alg", ["brgemm_bf16x3", "brgemm_amx_bf16x3"])
@pytest.mark.parametrize("line", CASES)
def test_bf16x3_matches_the_float64_reference(alg, line):
    p = problem(f"--alg={alg} " + line)
    kernel = ConvKernel(p, backend_for(alg))
    assert check_conv(kernel, p, call=float_call(p)) is None
    assert check_conv(kernel, p) is None                 # integer fills: exact


@needs_bf16
def test_bf16x3_error_is_that_of_its_16_bits_not_bf16s():
    """Measured against f32's rounding and plain bf16 inputs': the low parts are used (an extf of a
    truncf folded back to x would leave them zero, and the error bf16's)."""
    line = "--stag=nhwc --dtag=nhwc mb1ic256ih14oc64oh14kh3ph1"
    p = problem("--alg=brgemm_bf16x3 " + line)
    call = float_call(p)
    kernel = ConvKernel(p)
    kernel.prepare(call.wei)
    got = p.output.from_physical(kernel(call.src, None)).astype(np.float64)
    f32 = problem("--alg=brgemm " + line)
    want = f32.output.from_physical(f32.reference(call.src, call.wei, None))
    bf16 = lambda a: (a.astype(np.float32).view(np.uint32) + 0x7FFF + ((a.astype(np.float32).view(np.uint32) >> 16) & 1)
                      & 0xFFFF0000).view(np.float32)
    plain = f32.output.from_physical(f32.reference(bf16(call.src), bf16(call.wei), None))
    top = np.abs(want).max()
    err, plain_err = np.abs(got - want).max() / top, np.abs(plain - want).max() / top
    assert err < BF16X3_TOLERANCE["brgemm_bf16x3"] and err < plain_err / 100, (err, plain_err)


def test_bf16x3_runs_only_where_named_and_says_where_it_does_not_apply():
    assert VARIANTS["brgemm_bf16x3"].named_only and VARIANTS["brgemm_amx_bf16x3"].named_only
    assert not {"brgemm_bf16x3", "brgemm_amx_bf16x3"} & set(sweep(get_backend("llvm-cpu")).variants)
    p = problem("--alg=auto --stag=nhwc --dtag=nhwc mb1ic64ih14oc64oh14kh3ph1")
    assert "bf16x3" not in heuristic(p, "llvm-cpu").variant
    for line, why in (("--dt=bf16 mb1ic16ih8oc16kh3ph1", "f32 x f32"),
                      ("--dt=u8:s8:u8 mb1ic16ih8oc16kh3ph1", "f32 x f32"),
                      ("g2mb1ic16ih8oc16kh3ph1", "ungrouped")):
        with pytest.raises(UnsupportedError, match=why):
            render_conv(problem("--alg=brgemm_bf16x3 " + line), get_backend("llvm-cpu"))
    # the AMX one needs the tiles
    b = get_backend("llvm-cpu")
    no_tiles = dataclasses.replace(b, cpu_features=b.cpu_features - {"amx_bf16", "amx_int8"})
    with pytest.raises(UnsupportedError, match="amx_bf16"):
        render_conv(problem("--alg=brgemm_amx_bf16x3 mb1ic16ih8oc16kh3ph1"), no_tiles)
