"""An independent cross-check of the quantized and bf16 convolutions, with PyTorch beside them.

The oracle is the float64 formula written here from oneDNN's documented semantics, never a peer
library:

    u8:s8:u8 (common scales, zero points):  dst = clip(rint((sx*sw*sum((x - zx)*w) + bias) / sy) + zy, 0, 255)
    bf16:                                   dst = sum(x*w) + bias, in float64, from the bf16 inputs

kgen must equal the u8 formula exactly, except one unit where the float64 value lies within f32's
rounding error of a .5 boundary (kgen requantizes in f32, in its own order): a kernel that rounds any
other way (floor, ceil, truncation) fails. bf16 results must lie within one bf16 rounding.

PyTorch (torch.ao's quantized Conv2d on the x86 engine; its bf16 conv in channels_last) is compared
with the same formula separately, and only reported: where it is off by more than a unit (its grouped
int8 conv on AMX CPUs is, by up to 9), the test says so in a `PeerDeviation` warning and in its
``pytorch_max_diff`` property, and passes. A peer library is a witness here, not the oracle.

torch is the package's `test` extra; without it these tests skip and say so.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the test extra: pip install -e .[test]); "
                                            "the PyTorch cross-check needs it")

from generator.api import ConvKernel  # noqa: E402
from generator.benchdnn.conv import conv_problem, parse_conv_args  # noqa: E402
from generator.compile.host import host_cpu_description  # noqa: E402
from generator.verify import SEED  # noqa: E402

from tiers import covering  # noqa: E402

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


def _layer_class(layer) -> tuple:
    """What the quick tier keeps one layer of: layout, dense / grouped / depthwise, 1x1 or not, strided or not."""
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    groups = "depthwise" if g == ic == oc else "grouped" if g > 1 else "dense"
    return tag, groups, kh * kw == 1, s > 1


LAYER_PARAMS = covering([pytest.param(x, id=_ids(x)) for x in LAYERS], _layer_class)


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
    from generator.compile.host import host_matrix_features
    if alg == "brgemm":
        if feature not in host_matrix_features():
            pytest.skip(f"the host CPU has no {feature} for the brgemm microkernel")
    return f"--alg={alg}"


# ------------------------------------------------------------------------------------------ the oracle
def conv_f64(x, w, bias, *, stride: int, pad: int, dilation: int, groups: int) -> np.ndarray:
    """Float64 2D cross-correlation written from its definition (PyTorch's dilation: 1 is dense):
    y[n, o, i, j] = bias[o] + sum_{c, p, q} w[o, c, p, q] * x[n, g*ICg + c, i*s + p*d - pad, j*s + q*d - pad],
    out-of-range positions reading 0."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    mb, ic, ih, iw = x.shape
    oc, icg, kh, kw = w.shape
    ocg = oc // groups
    oh = (ih + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (iw + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    xp = np.zeros((mb, ic, ih + 2 * pad, iw + 2 * pad))
    xp[:, :, pad:pad + ih, pad:pad + iw] = x
    y = np.zeros((mb, oc, oh, ow))
    for g in range(groups):
        xg, wg = xp[:, g * icg:(g + 1) * icg], w[g * ocg:(g + 1) * ocg]
        for p in range(kh):
            for q in range(kw):
                win = xg[:, :, p * dilation:p * dilation + stride * (oh - 1) + 1:stride,
                         q * dilation:q * dilation + stride * (ow - 1) + 1:stride]
                y[:, g * ocg:(g + 1) * ocg] += np.einsum("nchw,oc->nohw", win, wg[:, :, p, q])
    if bias is not None:
        y += np.asarray(bias, np.float64).reshape(1, oc, 1, 1)
    return y


def requantized_f64(acc, bias, sx: float, sw: float, sy: float, zy: int) -> tuple[np.ndarray, np.ndarray]:
    """(the u8 destination's value before rounding, in float64; the f32 rounding error it may carry):
    (sx*sw*acc + bias) / sy + zy, with the scales as the kernel holds them (f32). The error bound is 8
    f32 ulps of the largest term: room for any order of the f32 multiply-adds (a folded dst scale
    included), and far below half a unit."""
    sx, sw, sy = (float(np.float32(v)) for v in (sx, sw, sy))
    b = np.asarray(bias, np.float64).reshape(1, -1, 1, 1)
    pre = (sx * sw * acc + b) / sy + zy
    err = 2.0 ** -21 * (np.abs(sx * sw * acc / sy) + np.abs(b / sy) + abs(zy) + 1.0)
    return pre, err


def requant_misses(got, pre, err, lo: int = 0, hi: int = 255) -> np.ndarray:
    """Where `got` is not the formula's result: not clip(rint(pre)), unless one unit off where `pre`
    lies within `err` of a rounding boundary (x.5) and f32 may have rounded it across."""
    want = np.clip(np.rint(pre), lo, hi)
    diff = np.abs(np.asarray(got, np.float64) - want)
    near_half = np.abs(pre - np.floor(pre) - 0.5) <= err
    return (diff > 1) | ((diff == 1) & ~near_half)


class PeerDeviation(UserWarning):
    """A peer library is off the documented formula: reported, not a kgen failure."""


def report_peer(record_property, who: str, case: str, diff: np.ndarray, allowed) -> str | None:
    """Record how far a peer library's result lies from the formula (`diff`, in units or absolute), and
    warn where it is past `allowed` (a number, or one per output); returns the warning's text, or None
    where it is within."""
    record_property("pytorch_max_diff", float(diff.max()))
    off = diff > allowed
    if not off.any():
        return None
    text = (f"{who} is off the float64 formula on {case}: {int(off.sum())} of {off.size} outputs, by up to "
            f"{float(diff.max()):g}, on {host_cpu_description()}; kgen is checked against the formula, "
            f"so this is not a kgen failure")
    print(text)
    warnings.warn(text, PeerDeviation, stacklevel=2)
    return text


@pytest.fixture(scope="module")
def x86_engine():
    if "x86" not in torch.backends.quantized.supported_engines:
        pytest.skip(f"this torch build has no x86 quantized engine ({torch.backends.quantized.supported_engines})")
    old = torch.backends.quantized.engine
    torch.backends.quantized.engine = "x86"
    yield
    torch.backends.quantized.engine = old


def _u8_case(layer):
    """The seeded data of one u8:s8:u8 layer: (seed, xq, wq, bias, sx, sw, sy, zx, zy)."""
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    seed = SEED + sum(layer[:11])
    rng = np.random.default_rng(seed)
    # scales that are not powers of two, so the requantization really rounds
    sx, sw = float(rng.uniform(0.01, 0.05)), float(rng.uniform(0.002, 0.02))
    zx, zy = int(rng.integers(0, 40)), int(rng.integers(100, 150))
    sy = float(sx * sw * np.sqrt(ic // g * kh * kw) * rng.uniform(250, 350))   # outputs spread over u8
    xq = rng.integers(0, 256, (mb, ic, ih, iw)).astype(np.uint8)
    wq = rng.integers(-127, 128, (oc, ic // g, kh, kw)).astype(np.int8)
    bias = rng.uniform(-1, 1, oc).astype(np.float32)
    return seed, xq, wq, bias, sx, sw, sy, zx, zy


def _u8_formula(layer, xq, wq, bias, sx, sw, sy, zx, zy):
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    acc = conv_f64(xq.astype(np.float64) - zx, wq, None, stride=s, pad=p, dilation=d, groups=g)
    return requantized_f64(acc, bias, sx, sw, sy, zy)


def _torch_u8(layer, xq, wq, bias, sx, sw, sy, zx, zy) -> np.ndarray:
    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    qx = torch._make_per_tensor_quantized_tensor(torch.from_numpy(xq), sx, zx)
    qw = torch._make_per_tensor_quantized_tensor(torch.from_numpy(wq), sw, 0)
    conv = torch.ao.nn.quantized.Conv2d(ic, oc, (kh, kw), stride=s, padding=p, dilation=d, groups=g)
    conv.set_weight_bias(qw, torch.from_numpy(bias))
    conv.scale, conv.zero_point = sy, zy
    if tag == "nhwc":
        qx = qx.contiguous(memory_format=torch.channels_last)
    return conv(qx).int_repr().numpy().astype(np.int32)


@pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")
@pytest.mark.parametrize("alg", ["direct", "brgemm"])
@pytest.mark.parametrize("layer", LAYER_PARAMS)
def test_u8s8u8_matches_the_formula_pytorch_reported(layer, alg, x86_engine, record_property):
    seed, xq, wq, bias, sx, sw, sy, zx, zy = data = _u8_case(layer)
    record_property("seed", seed)
    print(f"seed {seed}")
    pre, err = _u8_formula(layer, *data[1:])
    want = np.clip(np.rint(pre), 0, 255)
    saturated = float(np.mean((want == 0) | (want == 255)))
    assert want.max() - want.min() > 100 and saturated < 0.1, "the scales should spread the outputs over u8"

    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    k = _kernel(f"{_alg(alg, layer, 'avx512_vnni')} --dt=u8:s8:u8 --stag={tag} --dtag={tag} "
                f"--attr-scales=src:common:{sx!r}+wei:common:{sw!r}+"
                f"dst:common:{sy!r} --attr-zero-points=src:common:{zx}+dst:common:{zy} {_desc(layer)}")
    got = k.run_logical(xq, wq, bias, src_scale=np.float32(sx), wei_scale=np.float32(sw),
                        dst_scale=np.float32(sy), src_zp=zx, dst_zp=zy).astype(np.int32)
    assert got.shape == want.shape
    diff = np.abs(got - want)
    print(f"{_ids(layer)} (seed {seed}): kgen max |diff| {diff.max()} unit(s), {np.mean(diff == 0):.2%} exact, "
          f"output range {want.min():g}..{want.max():g}, {saturated:.1%} saturated")
    misses = requant_misses(got, pre, err)
    assert not misses.any(), (f"seed {seed}: {int(misses.sum())} of {misses.size} kgen outputs are not the "
                              f"formula's (max |diff| {diff.max()})")

    theirs = _torch_u8(layer, *data[1:])
    report_peer(record_property, "PyTorch's x86 quantized Conv2d", _ids(layer), np.abs(theirs - want), 1)


def test_the_u8_oracle_fails_other_roundings():
    """The check above can fail: a kernel that rounded down, up or toward zero, or rounded before adding
    the bias, would differ from the formula far from any .5 boundary."""
    layer = LAYERS[0]
    seed, xq, wq, bias, sx, sw, sy, zx, zy = data = _u8_case(layer)
    pre, err = _u8_formula(layer, *data[1:])
    assert not requant_misses(np.clip(np.rint(pre), 0, 255), pre, err).any()
    b = np.asarray(bias, np.float64).reshape(1, -1, 1, 1) / float(np.float32(sy))
    for how, wrong in (("floor", np.floor(pre)), ("ceil", np.ceil(pre)), ("toward zero", np.trunc(pre - zy) + zy),
                       ("bias added after rounding", np.rint(pre - b) + np.rint(b))):
        misses = requant_misses(np.clip(wrong, 0, 255), pre, err)
        assert misses.mean() > 0.05, f"rounding {how} passed the check ({misses.mean():.1%} caught)"
    # one unit off where the value is nowhere near a boundary is a miss, as is two units anywhere
    got = np.clip(np.rint(pre), 0, 255)
    far = np.argmax((np.abs(pre - np.floor(pre) - 0.5) > 0.25) & (got > 0) & (got < 255))
    bumped = got.copy().ravel()
    bumped[far] += 1
    assert requant_misses(bumped.reshape(got.shape), pre, err).sum() == 1


def test_a_peer_off_the_formula_is_reported_not_failed(record_property):
    """PyTorch off by 9 units (its grouped int8 conv on AMX CPUs): a warning, and the test passes."""
    want = np.full((1, 4, 2, 2), 120.0)
    theirs = want.copy()
    theirs[0, 1, 0, 0] += 9
    with pytest.warns(PeerDeviation, match="off the float64 formula .* up to 9"):
        text = report_peer(record_property, "PyTorch", "a test case", np.abs(theirs - want), 1)
    assert "not a kgen failure" in text
    assert report_peer(record_property, "PyTorch", "a test case", np.zeros_like(want), 1) is None


BF16_LAYERS = [x for x in LAYERS if x[-1] in ("nhwc", "nchw")][:6]


@pytest.mark.parametrize("alg", ["direct", "brgemm"])
@pytest.mark.parametrize("layer", BF16_LAYERS, ids=[_ids(x) for x in BF16_LAYERS])
def test_bf16_matches_the_formula_pytorch_reported(layer, alg, record_property):
    import ml_dtypes

    mb, ic, oc, ih, iw, kh, kw, s, p, d, g, tag = layer
    seed = SEED + 7
    record_property("seed", seed)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((mb, ic, ih, iw)).astype(ml_dtypes.bfloat16)
    w = rng.standard_normal((oc, ic // g, kh, kw)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal(oc).astype(ml_dtypes.bfloat16).astype(np.float32)     # a bf16 bias, as PyTorch's
    ref = conv_f64(x, w, b, stride=s, pad=p, dilation=d, groups=g)
    # one bf16 rounding of the result (2**-8 relative), plus f32 accumulation in different orders
    tol = 2.0**-7 * np.abs(ref) + 1e-3 * np.abs(ref).max()

    k = _kernel(f"{_alg(alg, layer, 'avx512_bf16')} --dt=bf16 --stag=nhwc --dtag=nhwc {_desc(layer)}")
    got = k.run_logical(x, w, b).astype(np.float64)
    bad = np.abs(got - ref) > tol
    assert not bad.any(), f"seed {seed}: {int(bad.sum())} outputs off, max |diff| {np.abs(got - ref).max():g}"

    tx = torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16).contiguous(memory_format=torch.channels_last)
    tw = torch.from_numpy(w.astype(np.float32)).to(torch.bfloat16).contiguous(memory_format=torch.channels_last)
    theirs = torch.nn.functional.conv2d(tx, tw, torch.from_numpy(b).to(torch.bfloat16), stride=s, padding=p,
                                        dilation=d, groups=g).double().numpy()
    report_peer(record_property, "PyTorch's bf16 conv2d", _ids(layer), np.abs(theirs - ref), tol)
