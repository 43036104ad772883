"""Quantized networks through `generator.optimize` (`net.torch_quant`): a model quantized by torch.ao's
FX graph mode (x86 backend) or calibrated by optimize itself runs its quantized convolutions, adds and
pooling in u8 on kgen, checked against a float64 model of the quantized network written from the
documented formulas (PyTorch's quantize, oneDNN's convolution with scales and zero points) and against
PyTorch's own quantized model; what kgen cannot run stays in PyTorch with one warning line per kind
(`strict=True` raises); bad input is one line."""
from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install -e .[test])")
nn = torch.nn

import generator  # noqa: E402
from generator.errors import InputError, UnsupportedError  # noqa: E402
from generator.net.graph import ConvLayer, OpNode  # noqa: E402

SEED = 23
pytestmark = pytest.mark.usefixtures("kgen_cache_dir")


@pytest.fixture(autouse=True)
def _table(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))


class QSmall(nn.Module):
    """A stem conv+BN+ReLU, a max pool, a bottleneck with a residual add_relu, a grouped strided conv,
    a depthwise conv with ReLU6 and a plain residual add, then the global average pool and a Linear:
    20-channel tails in blocked layouts, every quantized op kgen runs and one it leaves to PyTorch."""

    def __init__(self):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(3, 20, 3, padding=1), nn.BatchNorm2d(20)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.c1 = nn.Conv2d(20, 24, 1)
        self.c2 = nn.Conv2d(24, 20, 3, padding=1)
        self.g = nn.Conv2d(20, 32, 3, stride=2, padding=1, groups=4)
        self.dw = nn.Conv2d(32, 32, 3, padding=1, groups=32)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)
        # ReLU modules, as torchvision's models have: torch.ao fuses them into the convs (a torch.relu
        # after a quantized conv it leaves in float, between a dequantize and a quantize)
        self.r0, self.r1, self.r2, self.r3, self.r6 = nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.ReLU6()
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.3, 0.3)
            self.bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        x = self.pool(self.r0(self.bn(self.stem(x))))
        x = self.r2(self.c2(self.r1(self.c1(x))) + x)
        y = self.r3(self.g(x))
        y = y + self.r6(self.dw(y))
        return self.fc(torch.flatten(self.gap(y), 1))


def _calibration(shape, n=4, seed=SEED):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=g) for _ in range(n)]


def _quantize(model, x, batches):
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_fx(copy.deepcopy(model).eval(), get_default_qconfig_mapping("x86"), (x,))
        with torch.no_grad():
            for b in batches:
                pm(b)
        return convert_fx(pm)


def _model(seed=SEED):
    torch.manual_seed(seed)
    return QSmall().eval()


# ----------------------------------------------------------------------------- the float64 model
def _q(v, scale, zp):
    """PyTorch's quantize to quint8: round to nearest even, saturate."""
    return np.clip(np.round(v / np.float64(np.float32(scale))) + zp, 0, 255)


def _deq(q, scale, zp):
    return (q - zp) * np.float64(np.float32(scale))


def _conv(q, w, stride, pad, groups):
    """sum over the window of q * w in float64 (q already minus its zero point; padding adds nothing)."""
    n, c, h, wd = q.shape
    oc, cg, kh, kw = w.shape
    qp = np.pad(q, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    oh, ow = (h + 2 * pad[0] - kh) // stride[0] + 1, (wd + 2 * pad[1] - kw) // stride[1] + 1
    out = np.zeros((n, oc, oh, ow))
    og = oc // groups
    for gi in range(groups):
        for i in range(kh):
            for j in range(kw):
                win = qp[:, gi * cg:(gi + 1) * cg, i:i + stride[0] * oh:stride[0], j:j + stride[1] * ow:stride[1]]
                out[:, gi * og:(gi + 1) * og] += np.einsum("nchw,oc->nohw", win, w[gi * og:(gi + 1) * og, :, i, j])
    return out


def _reference(qm, x: np.ndarray) -> np.ndarray:
    """The quantized model in float64 from the formulas, node by node over its FX graph: the quantized
    value of every tensor, the dequantized output."""
    mods = dict(qm.named_modules())
    env, meta = {}, {}                   # node -> value; node -> (scale, zp) of a quantized one

    def arg(a):
        return env[a] if isinstance(a, torch.fx.Node) else a

    for n in qm.graph.nodes:
        if n.op == "placeholder":
            env[n] = x.astype(np.float64)
        elif n.op == "get_attr":
            env[n] = float(getattr(qm, n.target))
        elif n.op == "call_function" and n.target is torch.quantize_per_tensor:
            s, z = arg(n.args[1]), int(arg(n.args[2]))
            env[n], meta[n] = _q(arg(n.args[0]), s, z), (s, z)
        elif n.op == "call_module":
            m = mods[n.target]
            src = n.args[0]
            kind = type(m).__name__
            if kind in ("Conv2d", "ConvReLU2d", "Linear"):
                s_in, z_in = meta[src]
                w = m.weight()
                wq = w.int_repr().numpy().astype(np.float64)
                ws = w.q_per_channel_scales().numpy().astype(np.float32).astype(np.float64)
                b = m.bias().detach().numpy().astype(np.float64)
                v = env[src] - z_in
                acc = _conv(v, wq, m.stride, m.padding, m.groups) if kind != "Linear" else v @ wq.T
                shape = (1, -1, 1, 1) if kind != "Linear" else (1, -1)
                f = np.float64(np.float32(s_in)) * ws.reshape(shape) * acc + b.reshape(shape)
                if kind == "ConvReLU2d":
                    f = np.maximum(f, 0)
                env[n], meta[n] = _q(f, m.scale, m.zero_point), (m.scale, m.zero_point)
            elif kind in ("ReLU", "ReLU6"):
                s, z = meta[src]
                hi = _q(6.0, s, z) if kind == "ReLU6" else 255
                env[n], meta[n] = np.clip(env[src], z, hi), meta[src]
            elif kind == "MaxPool2d":
                v = env[src]
                k, st, p = m.kernel_size, m.stride, m.padding
                vp = np.pad(v, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-1)
                oh, ow = (v.shape[2] + 2 * p - k) // st + 1, (v.shape[3] + 2 * p - k) // st + 1
                env[n] = np.max([vp[:, :, i:i + st * oh:st, j:j + st * ow:st] for i in range(k) for j in range(k)], axis=0)
                meta[n] = meta[src]
            elif kind == "AdaptiveAvgPool2d":
                s, z = meta[src]
                env[n], meta[n] = _q(_deq(env[src], s, z).mean(axis=(2, 3), keepdims=True), s, z), meta[src]
            else:
                raise AssertionError(f"the reference has no {kind}")
        elif n.op == "call_function" and n.target in (torch.ops.quantized.add, torch.ops.quantized.add_relu):
            a, b = n.args[:2]
            s, z = arg(n.args[2]), int(arg(n.args[3]))
            f = _deq(env[a], *meta[a]) + _deq(env[b], *meta[b])
            if n.target is torch.ops.quantized.add_relu:
                f = np.maximum(f, 0)
            env[n], meta[n] = _q(f, s, z), (s, z)
        elif n.op == "call_function" and n.target is torch.flatten:
            env[n], meta[n] = env[n.args[0]].reshape(env[n.args[0]].shape[0], -1), meta[n.args[0]]
        elif n.op == "call_method" and n.target == "dequantize":
            env[n] = _deq(env[n.args[0]], *meta[n.args[0]])
        elif n.op == "output":
            return env[n.args[0]]
        else:
            raise AssertionError(f"the reference has no {n.op} {n.target}")
    raise AssertionError("no output")


def _units(a, b, scale) -> np.ndarray:
    return np.round(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)) / np.float32(scale))


# ----------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("layout", ["nhwc", "nchw", "NCHW4", "NCHW32"])
def test_a_quantized_model_runs_in_u8_and_matches_the_float64_formula(layout):
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    qm = _quantize(_model(), x, _calibration((2, 3, 14, 14)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment=layout, log=msgs.append)
    net = om.kgen_network
    assert sum(isinstance(n, ConvLayer) for n in net.nodes) == 5
    ops = [n.op for n in net.nodes if isinstance(n, OpNode)]
    assert sorted((o.kind, o.alg, o.eltwise is not None) for o in ops) == [
        ("binary", "add", False), ("binary", "add", True), ("pool", "avg", False), ("pool", "max", False)]
    assert all(o.dt == "u8" for o in ops) and all(net.tensors[n.dst][1] == "u8" for n in net.kernels)
    assert [m for m in msgs if m.startswith("warning")] == [
        "warning: quantized Linear x1 stays in PyTorch: kgen runs quantized convolutions, adds and pooling on "
        "per-tensor u8 activations"]
    assert sum(1 for n in om.graph.nodes if n.op == "call_module" and n.target.startswith("kgen_segment")) == 1
    scale = qm.fc.scale
    for i in range(3):
        xi = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED + i))
        with torch.no_grad():
            got, theirs = om(xi).numpy(), qm(xi).numpy()
        ref = _reference(qm, xi.numpy())
        mine, pytorch = _units(got, ref, scale), _units(theirs, ref, scale)
        print(f"seed {SEED + i} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
        assert mine.max() <= 1 and pytorch.max() <= 1, f"seed {SEED + i}"
        assert _units(got, theirs, scale).max() <= 1


def test_calibration_quantizes_as_torch_ao_does_and_checks_its_batches():
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    batches = _calibration((2, 3, 14, 14))
    model = _model()
    msgs = []
    om = generator.optimize(model, x, dtype="int8", calibration=batches, measure=False, assignment="nhwc",
                            log=msgs.append)
    assert any(m.startswith("calibrating on 4 batch(es)") for m in msgs)
    qm = _quantize(model, x, batches)
    with torch.no_grad():
        assert _units(om(x).numpy(), qm(x).numpy(), qm.fc.scale).max() <= 1
        # and the float model's answer, within quantization's error
        assert np.abs(om(x).numpy() - model(x).numpy()).max() < 0.1 * np.abs(model(x).numpy()).max() + 0.05
    with pytest.raises(InputError, match=r"calibration batch 1 is \(2, 3, 15, 14\) torch.float32: each must be "
                                         r"float32 shaped like the example input \(1, 3, 14, 14\)"):
        generator.optimize(model, x, dtype="int8", calibration=[batches[0], torch.randn(2, 3, 15, 14)])
    with pytest.raises(InputError, match="holds no batch"):
        generator.optimize(model, x, dtype="int8", calibration=[])
    with pytest.raises(InputError, match="use it with dtype='int8'"):
        generator.optimize(model, x, calibration=batches)
    with pytest.raises(InputError, match="needs a quantized model .* or calibration= batches"):
        generator.optimize(model, x, dtype="int8")
    with pytest.raises(InputError, match="is quantized already"):
        generator.optimize(qm, x, dtype="int8", calibration=batches)
    with pytest.raises(UnsupportedError, match="is quantized: its convolutions run in int8"):
        generator.optimize(qm, x, dtype="bf16")


def test_the_reference_representation_runs_as_the_converted_model():
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_to_reference_fx, prepare_fx

    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    model = _model()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_fx(copy.deepcopy(model), get_default_qconfig_mapping("x86"), (x,))
        with torch.no_grad():
            for b in _calibration((2, 3, 14, 14)):
                pm(b)
        rm = convert_to_reference_fx(copy.deepcopy(pm))
    qm = _quantize(model, x, _calibration((2, 3, 14, 14)))
    om = generator.optimize(rm, x, measure=False, assignment="nhwc")
    assert sum(isinstance(n, ConvLayer) for n in om.kgen_network.nodes) == 5
    with torch.no_grad():
        assert _units(om(x).numpy(), qm(x).numpy(), qm.fc.scale).max() <= 1


def test_a_model_with_observers_is_one_line():
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import prepare_fx

    x = torch.randn(1, 3, 14, 14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_fx(_model(), get_default_qconfig_mapping("x86"), (x,))
    for dtype in (None, "int8"):
        with pytest.raises(InputError, match="has observers .* but is not quantized: run calibration data"):
            generator.optimize(pm, x, dtype=dtype, measure=False)


class QOther(nn.Module):
    """A conv, then a Hardswish (PyTorch quantizes it with its own scale) and a conv: the Hardswish
    stays in PyTorch between kgen's convolutions."""

    def __init__(self):
        super().__init__()
        self.c1, self.act, self.c2 = nn.Conv2d(3, 8, 3, padding=1), nn.Hardswish(), nn.Conv2d(8, 8, 1)

    def forward(self, x):
        return self.c2(self.act(self.c1(x)))


def test_quantized_ops_kgen_does_not_run_stay_in_pytorch_with_one_line_each_or_raise_in_strict_mode():
    x = torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    model = QOther().eval()
    qm = _quantize(model, x, _calibration((2, 3, 8, 8)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert [m for m in msgs if m.startswith("warning: quantized")] == [
        "warning: quantized Hardswish x1 stays in PyTorch: kgen runs quantized convolutions, adds and pooling "
        "on per-tensor u8 activations"]
    with torch.no_grad():
        assert _units(om(x).numpy(), qm(x).numpy(), qm.c2.scale).max() <= 1
    with pytest.raises(UnsupportedError, match="quantized Hardswish x1 stays in PyTorch"):
        generator.optimize(qm, x, measure=False, strict=True)


def test_a_scheme_kgen_cannot_express_stays_in_pytorch():
    # per-channel affine weights, with zero points: kgen's weights take none
    from torch.ao.quantization import QConfig, QConfigMapping
    from torch.ao.quantization.observer import HistogramObserver, PerChannelMinMaxObserver
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    x = torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qc = QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                 weight=PerChannelMinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_affine))
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 1)).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_fx(model, QConfigMapping().set_global(qc), (x,))
        pm(x)
        qm = convert_fx(pm)
    assert qm.get_submodule("0").weight().qscheme() == torch.per_channel_affine
    with pytest.raises(UnsupportedError, match="0 stays in PyTorch: per-channel weight zero points other than 0"):
        generator.optimize(qm, x, measure=False, strict=True)
    msgs = []
    with pytest.raises(UnsupportedError, match="has no quantized convolution kgen can run .0 stays in PyTorch"):
        generator.optimize(qm, x, measure=False, log=msgs.append)
    assert [m[:60] for m in msgs if m.startswith("warning")] == [
        "warning: 0 stays in PyTorch: per-channel weight zero points other than 0, or another axis"[:60],
        "warning: 2 stays in PyTorch: per-channel weight zero points other than 0, or another axis"[:60]]


@pytest.mark.full
@pytest.mark.parametrize("name", ["resnet50", "mobilenet_v2", "resnext50_32x4d"])
def test_torchvision_architectures_quantized_by_torch_ao_match_pytorch_within_one_unit(name):
    # kgen's copies of torchvision's models, quantized by torch.ao FX (x86) on random calibration data:
    # every output within 1 unit of the output's scale of PyTorch's quantized model, at least 99.9% equal
    # or 1 apart, and the network one segment of u8 convs and ops
    from generator.net import models
    from generator.net.torch_quant import output_scale

    torch.manual_seed(SEED)
    model = getattr(models, name)().eval()
    x = torch.randn(1, 3, 96, 96, generator=torch.Generator().manual_seed(SEED))
    msgs = []
    om = generator.optimize(model, x, dtype="int8", calibration=_calibration((2, 3, 96, 96), n=2),
                            measure=False, assignment="nhwc", log=msgs.append)
    qm = _quantize(model, x, _calibration((2, 3, 96, 96), n=2))
    assert not [m for m in msgs if m.startswith("warning") and "Linear" not in m], msgs
    assert sum(1 for n in om.graph.nodes if n.op == "call_module" and n.target.startswith("kgen_segment")) == 1
    scale = output_scale(qm)
    with torch.no_grad():
        units = _units(om(x).numpy(), qm(x).numpy(), scale)
    print(f"{name}: max {units.max()} units, {np.mean(units == 0) * 100:.2f}% equal")
    assert units.max() <= 1 and np.mean(units <= 1) >= 0.999
