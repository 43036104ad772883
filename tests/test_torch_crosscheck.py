"""An independent cross-check of the quantized and bf16 convolutions against PyTorch.

u8:s8:u8 with common scales and zero points against `torch.ao.nn.quantized.Conv2d` on the `x86`
engine (oneDNN / fbgemm underneath), on 20 layers: every output within one unit of the last place
(the two requantize in f32 in different orders, so a value on a rounding boundary may land one step
apart). bf16 against PyTorch's bf16 conv in channels_last: within one bf16 rounding.

torch is the package's `bench` extra; without it these tests skip and say so.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the bench extra: pip install -e .[bench]); "
                                            "the PyTorch cross-check needs it")

from generator.api import ConvKernel  # noqa: E402
from generator.benchdnn.conv import conv_problem, parse_conv_args  # noqa: E402
from generator.verify import SEED  # noqa: E402

# (mb, ic, oc, ih, iw, kh, kw, stride, pad, dilation, groups, layout): ResNet / MobileNet-like layers,
# small enough for CI; strides, padding, dilation, groups, depthwise, odd channel counts, tails.
LAYERS = [
    (1, 16, 32, 14, 14, 3, 3, 1, 1, 1, 1, "nhwc"),
    (1, 32, 16, 14, 14, 1, 1, 1, 0, 1, 1, "nhwc"),
    (2, 8, 24, 9, 11, 3, 3, 2, 1, 1, 1, "nhwc"),
    (1, 3, 16, 23, 23, 7, 7, 2, 3, 1, 1, "nhwc"),
    (1, 24, 24, 10, 10, 3, 3, 1, 1, 1, 24, "nhwc"),
    (1, 32, 32, 9, 9, 3, 3, 2, 1, 1, 32, "nhwc"),
    (1, 16, 16, 12, 12, 3, 3, 1, 2, 2, 1, "nhwc"),
    (1, 12, 20, 8, 8, 3, 3, 1, 1, 1, 4, "nhwc"),
    (1, 64, 64, 7, 7, 1, 1, 1, 0, 1, 1, "nhwc"),
    (1, 64, 128, 8, 8, 1, 1, 2, 0, 1, 1, "nhwc"),
    (1, 17, 33, 7, 9, 3, 3, 1, 1, 1, 1, "nhwc"),
    (1, 5, 7, 6, 6, 5, 5, 1, 2, 1, 1, "nhwc"),
    (1, 16, 16, 13, 13, 5, 5, 2, 2, 1, 16, "nhwc"),
    (2, 20, 12, 7, 7, 1, 3, 1, 0, 1, 1, "nhwc"),
    (1, 16, 32, 14, 14, 3, 3, 1, 1, 1, 1, "nchw"),
    (1, 17, 17, 6, 6, 3, 3, 1, 1, 1, 1, "nChw16c"),
    (1, 32, 16, 5, 5, 3, 3, 1, 0, 1, 1, "nChw8c"),
    (1, 48, 48, 6, 6, 3, 3, 1, 1, 1, 2, "nhwc"),
    (1, 8, 8, 15, 15, 3, 3, 3, 1, 1, 1, "nhwc"),
    (1, 40, 24, 4, 4, 2, 2, 2, 0, 1, 1, "nhwc"),
]


def _ids(layer):
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    return f"{tag}-g{g}mb{mb}ic{ic}oc{oc}ih{ih}iw{iw}k{kh}x{kw}s{s}p{p}d{d}"


def _desc(layer) -> str:
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    # oneDNN counts dilation from 0 (dense), PyTorch from 1
    return f"g{g}mb{mb}ic{ic}ih{ih}iw{iw}oc{oc}kh{kh}kw{kw}sh{s}sw{s}ph{p}pw{p}dh{d - 1}dw{d - 1}"


def _kernel(line: str) -> ConvKernel:
    (case,) = list(parse_conv_args(line.split()))
    return ConvKernel(conv_problem(case))


def _alg(alg: str, layer, feature: str) -> str:
    """`--alg=...` for the kernel under test; brgemm only where the host runs its microkernel (skipped
    otherwise, with the reason)."""
    from generator.compile.backends import host_matrix_features
    if alg == "brgemm":
        if feature not in host_matrix_features():
            pytest.skip(f"the host CPU has no {feature} for the brgemm microkernel")
    return f"--alg={alg}"


@pytest.fixture(scope="module")
def x86_engine():
    if "x86" not in torch.backends.quantized.supported_engines:
        pytest.skip(f"this torch build has no x86 quantized engine ({torch.backends.quantized.supported_engines})")
    old = torch.backends.quantized.engine
    torch.backends.quantized.engine = "x86"
    yield
    torch.backends.quantized.engine = old


@pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")
@pytest.mark.parametrize("alg", ["direct", "brgemm"])
@pytest.mark.parametrize("layer", LAYERS, ids=[_ids(x) for x in LAYERS])
def test_u8s8u8_matches_torch_quantized_conv2d(layer, alg, x86_engine):
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    rng = np.random.default_rng(SEED + sum(layer[:11]))
    print(f"seed {SEED + sum(layer[:11])}")
    # scales that are not powers of two, so the requantization really rounds
    sx, sw = float(rng.uniform(0.01, 0.05)), float(rng.uniform(0.002, 0.02))
    zx, zy = int(rng.integers(0, 40)), int(rng.integers(100, 150))
    sy = float(sx * sw * np.sqrt(ic // g * kh * kw) * rng.uniform(250, 350))   # outputs spread over u8
    xq = rng.integers(0, 256, (mb, ic, ih, iw)).astype(np.uint8)
    wq = rng.integers(-127, 128, (oc, ic // g, kh, kw)).astype(np.int8)
    bias = rng.uniform(-1, 1, oc).astype(np.float32)

    qx = torch._make_per_tensor_quantized_tensor(torch.from_numpy(xq), sx, zx)
    qw = torch._make_per_tensor_quantized_tensor(torch.from_numpy(wq), sw, 0)
    conv = torch.ao.nn.quantized.Conv2d(ic, oc, (kh, kw), stride=s, padding=p, dilation=d, groups=g)
    conv.set_weight_bias(qw, torch.from_numpy(bias))
    conv.scale, conv.zero_point = sy, zy
    if tag == "nhwc":
        qx = qx.contiguous(memory_format=torch.channels_last)
    want = conv(qx).int_repr().numpy().astype(np.int32)

    k = _kernel(f"{_alg(alg, layer, 'avx512_vnni')} --dt=u8:s8:u8 --stag={tag} --dtag={tag} "
                f"--attr-scales=src:common:{sx!r}+wei:common:{sw!r}+"
                f"dst:common:{sy!r} --attr-zero-points=src:common:{zx}+dst:common:{zy} {_desc(layer)}")
    got = k.run_logical(xq, wq, bias, src_scale=np.float32(sx), wei_scale=np.float32(sw),
                        dst_scale=np.float32(sy), src_zp=zx, dst_zp=zy).astype(np.int32)
    assert got.shape == want.shape
    diff = np.abs(got - want)
    exact = float(np.mean(diff == 0))
    saturated = float(np.mean((want == 0) | (want == 255)))
    print(f"{_ids(layer)}: max |diff| {diff.max()} ulp, {exact:.2%} exact, output range {want.min()}..{want.max()}, "
          f"{saturated:.1%} saturated")
    assert want.max() - want.min() > 100 and saturated < 0.1, "the scales should spread the outputs over u8"
    assert diff.max() <= 1


BF16_LAYERS = [x for x in LAYERS if x[-1] in ("nhwc", "nchw")][:6]


@pytest.mark.parametrize("alg", ["direct", "brgemm"])
@pytest.mark.parametrize("layer", BF16_LAYERS, ids=[_ids(x) for x in BF16_LAYERS])
def test_bf16_matches_torch_bf16_conv(layer, alg):
    import ml_dtypes

    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    rng = np.random.default_rng(SEED + 7)
    x = rng.standard_normal((mb, ic, ih, iw)).astype(ml_dtypes.bfloat16)
    w = rng.standard_normal((oc, ic // g, kh, kw)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal(oc).astype(np.float32)
    tx = torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16).contiguous(memory_format=torch.channels_last)
    tw = torch.from_numpy(w.astype(np.float32)).to(torch.bfloat16).contiguous(memory_format=torch.channels_last)
    tb = torch.from_numpy(b).to(torch.bfloat16)
    want = torch.nn.functional.conv2d(tx, tw, tb, stride=s, padding=p, dilation=d, groups=g).float().numpy()

    # PyTorch's bf16 conv takes a bf16 bias: give kgen the same values
    k = _kernel(f"{_alg(alg, layer, 'avx512_bf16')} --dt=bf16 --stag=nhwc --dtag=nhwc {_desc(layer)}")
    got = k.run_logical(x, w, tb.float().numpy()).astype(np.float32)
    x64 = x.astype(np.float64)
    ref = torch.nn.functional.conv2d(torch.from_numpy(x64), torch.from_numpy(w.astype(np.float64)),
                                     torch.from_numpy(tb.float().numpy().astype(np.float64)),
                                     stride=s, padding=p, dilation=d, groups=g).numpy()
    # one bf16 rounding each (2**-8 relative), plus f32 accumulation in different orders
    tol = 2.0**-7 * np.abs(ref) + 1e-3 * np.abs(ref).max()
    assert np.all(np.abs(got - want) <= tol), np.abs(got - want).max()
