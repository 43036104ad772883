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
@pytest.mark.parametrize("name", ["resnet50", "resnext50_32x4d"])
def test_torchvision_architectures_quantized_by_torch_ao_match_pytorch_within_one_unit(name):
    # kgen's copies of torchvision's models, quantized by torch.ao FX (x86) on random calibration data:
    # every output within 1 unit of the output's scale of PyTorch's quantized model, at least 99.9% equal
    # or 1 apart, and the network one segment of u8 convs and ops. Random ResNets as they are; a random
    # MobileNetV2's output vanishes (1e-9), and with its BatchNorm statistics measured a network is
    # critical: one rounding tie decided apart grows through it, for PyTorch as for kgen, and the
    # layer-by-layer test below is the check
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
        got, theirs = om(x).numpy(), qm(x).numpy()
    units = _units(got, theirs, scale)
    print(f"{name}: max {units.max()} units, {np.mean(units == 0) * 100:.2f}% equal")
    assert np.abs(theirs).max() > 20 * scale                # not a vanishing output
    assert units.max() <= 1 and np.mean(units <= 1) >= 0.999


@pytest.mark.full
@pytest.mark.parametrize("flow", ["fx", "pt2e"])
@pytest.mark.parametrize("name", ["resnet50", "mobilenet_v2", "resnext50_32x4d"])
def test_every_layer_of_a_quantized_network_matches_the_float64_formula_on_its_own_inputs(name, flow):
    # The torchvision architectures with their BatchNorm statistics measured (activations at a trained
    # network's scale), quantized by torch.ao FX or PT2E: each kgen layer and op against the formula on
    # the u8 inputs it was given, within 1 unit (a rounding tie: f32 against float64) on every output.
    # End to end, one tie decided apart grows through such a network, for PyTorch as for kgen: printed.
    from generator.net import models
    from generator.net.torch_quant import output_scale

    torch.manual_seed(SEED)
    model = _bn_statistics(getattr(models, name)().eval(), (4, 3, 96, 96))
    if flow == "pt2e":
        model.fc = nn.Identity() if hasattr(model, "fc") else None     # PT2E leaves the classifier in float
        model.classifier = nn.Identity() if hasattr(model, "classifier") else None
    x = torch.randn(1, 3, 96, 96, generator=torch.Generator().manual_seed(SEED))
    qm = (_pt2e if flow == "pt2e" else _quantize)(model, x, _calibration((1, 3, 96, 96), n=2))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", segments=False, log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning") and "Linear" not in m], msgs
    units = _layer_units(om, x)
    assert len(units) == len(om.kgen_network.kernels)
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    scale = _last_scale(qm) if flow == "pt2e" else output_scale(qm)
    end = _units(got, theirs, scale)
    worst = max(units, key=lambda k: units[k].max())
    ties = sum(int((u > 0).sum()) for u in units.values())
    total = sum(u.size for u in units.values())
    line = (f"{name} {flow}: {len(units)} kgen layers and ops, worst {worst} {units[worst].max()} units, {ties} of "
            f"{total} off; end to end against PyTorch's model: max {end.max()} units, {np.mean(end <= 1) * 100:.1f}% "
            f"within 1")
    if flow == "fx":
        theirs = _pytorch_layer_units(qm, om.kgen_network, x)
        line += f"; PyTorch's layers: worst {max(u.max() for u in theirs.values())} units, " \
                f"{sum(int((u > 0).sum()) for u in theirs.values())} off"
    print(line)
    assert units[worst].max() <= 1 and ties <= 1e-4 * total


# ------------------------------------------------------------------------------------------- PT2E
def _pt2e(model, x, batches):
    """`model` exported and quantized by PT2E (torchao's prepare_pt2e / convert_pt2e, X86InductorQuantizer's
    default config) on `batches` (each shaped like `x`: the export is specialized to it)."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    ep = torch.export.export(copy.deepcopy(model).eval(), (x,)).module()
    # X86InductorQuantizer groups the calls of one module (torchvision's shared ReLU) into one partition
    # and refuses it ("more than one output node"): each later call is a partition of its own here
    seen = set()
    for n in ep.graph.nodes:
        stack = n.meta.get("nn_module_stack")
        if n.op == "call_function" and stack:
            key = list(stack)[-1]
            fqn, cls = stack[key]
            if fqn in seen:
                stack[key] = (f"{fqn}@{n.name}", cls)
            seen.add(fqn)
    quantizer = xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_pt2e(ep, quantizer)
        with torch.no_grad():
            for b in batches:
                pm(b)
        return convert_pt2e(pm)


def _pool_max(v, k, st, p):
    vp = np.pad(v, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])), constant_values=-np.inf)
    oh, ow = (v.shape[2] + 2 * p[0] - k[0]) // st[0] + 1, (v.shape[3] + 2 * p[1] - k[1]) // st[1] + 1
    return np.max([vp[:, :, i:i + st[0] * oh:st[0], j:j + st[1] * ow:st[1]] for i in range(k[0]) for j in range(k[1])],
                  axis=0)


def _reference_pt2e(qm, x: np.ndarray) -> np.ndarray:
    """A PT2E model in float64 from the formulas, node by node over its aten graph: quantize (round half
    to even, saturate) and dequantize as documented, every float op in float64."""
    env = {}

    def arg(i, n, default=None):
        a = n.args[i] if len(n.args) > i else default
        return env[a] if isinstance(a, torch.fx.Node) else a

    for n in qm.graph.nodes:
        t = str(n.target)
        if n.op == "placeholder":
            env[n] = x.astype(np.float64)
        elif n.op == "get_attr":
            v = qm
            for part in n.target.split("."):
                v = getattr(v, part)
            env[n] = v.detach().numpy().astype(np.float64)
        elif n.op == "call_module":
            env[n] = None                                  # torch.export's guards
        elif t == "quantized_decomposed.quantize_per_tensor.default":
            v, s, z, lo, hi = (arg(i, n) for i in range(5))
            env[n] = np.clip(np.round(v / np.float64(np.float32(s))) + z, lo, hi)
        elif t == "quantized_decomposed.dequantize_per_tensor.default":
            env[n] = (arg(0, n) - arg(2, n)) * np.float64(np.float32(arg(1, n)))
        elif t == "quantized_decomposed.dequantize_per_channel.default":
            w, s, z, axis = (arg(i, n) for i in range(4))
            shape = [1] * w.ndim
            shape[axis] = -1
            env[n] = (w - z.reshape(shape)) * s.astype(np.float32).astype(np.float64).reshape(shape)
        elif t == "aten.conv2d.default":
            v, w, b = arg(0, n), arg(1, n), arg(2, n)
            stride, pad, dil, groups = (arg(3, n, [1, 1]), arg(4, n, [0, 0]), arg(5, n, [1, 1]), arg(6, n, 1))
            assert list(dil) == [1, 1]
            env[n] = _conv(v, w, stride, pad, groups) + (b.reshape(1, -1, 1, 1) if b is not None else 0)
        elif t in ("aten.relu.default", "aten.relu_.default"):
            env[n] = np.maximum(arg(0, n), 0)
        elif t in ("aten.hardtanh.default", "aten.hardtanh_.default"):
            env[n] = np.clip(arg(0, n), arg(1, n), arg(2, n))
        elif t in ("aten.add.Tensor", "aten.add_.Tensor"):
            env[n] = arg(0, n) + arg(1, n)
        elif t == "aten.max_pool2d.default":
            k = arg(1, n)
            env[n] = _pool_max(arg(0, n), k, arg(2, n) or k, arg(3, n, [0, 0]))
        elif t == "aten.avg_pool2d.default":
            v, k = arg(0, n), arg(1, n)
            st, p = arg(2, n) or k, arg(3, n, [0, 0])
            assert arg(4, n, False) is False and arg(5, n, True) is True   # floor, padding counted
            vp = np.pad(v, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
            oh, ow = (v.shape[2] + 2 * p[0] - k[0]) // st[0] + 1, (v.shape[3] + 2 * p[1] - k[1]) // st[1] + 1
            env[n] = np.mean([vp[:, :, i:i + st[0] * oh:st[0], j:j + st[1] * ow:st[1]]
                              for i in range(k[0]) for j in range(k[1])], axis=0)
        elif t == "aten.adaptive_avg_pool2d.default":
            assert list(arg(1, n)) == [1, 1]
            env[n] = arg(0, n).mean(axis=(2, 3), keepdims=True)
        elif t == "aten.flatten.using_ints":
            env[n] = arg(0, n).reshape(arg(0, n).shape[0], -1)
        elif n.op == "output":
            return env[n.args[0][0]]
        else:
            raise AssertionError(f"the reference has no {n.op} {t}")
    raise AssertionError("no output")


def _last_scale(qm) -> float:
    """The scale of the last dequantize before a PT2E model's output."""
    node = [n for n in qm.graph.nodes if n.op == "output"][0].args[0][0]
    while not str(node.target).startswith("quantized_decomposed.dequantize"):
        node = node.args[0]
    return node.args[1]


# ------------------------------------------------------------------- layer by layer, on kgen's own inputs
def _layer_formula(layer, ins: list[np.ndarray]) -> np.ndarray:
    """The u8 result of one kgen layer or op in float64 from the documented formulas (oneDNN's convolution
    with scales, zero points and post-ops; dequantize, compute, quantize for an op), on the u8 inputs
    it was given (logical N x C x H x W)."""
    from generator.problem.attr import Sum

    def eltwise(f, op):
        assert op.kind in ("relu", "clip") and not (op.kind == "relu" and op.alpha), op
        return np.maximum(f, 0) if op.kind == "relu" else np.clip(f, op.alpha, op.beta)

    f32 = lambda v: np.asarray(v, np.float32).astype(np.float64)        # noqa: E731 -- kgen's scales are f32
    if isinstance(layer, ConvLayer):
        p, q = layer.problem, layer.quant
        d = p.desc
        assert (d.dh, d.dw, d.ndims) == (0, 0, 4)
        acc = _conv(ins[0] - float(q.get("src_zp", 0)), layer.weights.astype(np.float64), (d.sh, d.sw), (d.ph, d.pw), d.g)
        f = f32(q["src_scale"]) * f32(q["wei_scale"]).reshape(1, -1, 1, 1) * acc
        if layer.bias is not None:
            f = f + f32(layer.bias).reshape(1, -1, 1, 1)
        for op in p.post_ops:
            f = f + f32(op.scale) * (ins[1] - op.zero_point) if isinstance(op, Sum) else eltwise(f, op)
        return _q(f, q["dst_scale"], int(q.get("dst_zp", 0)))
    op = layer.op
    deq = [_deq(v, *qp) for v, qp in zip(ins, op.quant)]
    if op.kind == "binary":
        f = deq[0] + deq[1]
    elif op.alg == "max":
        f = _pool_max(deq[0], op.kernel, op.stride, op.pad)
    else:
        assert not any(op.pad) and op.kernel == op.stride, op
        n, c, h, w = deq[0].shape
        kh, kw = op.kernel
        f = deq[0][:, :, :h // kh * kh, :w // kw * kw].reshape(n, c, h // kh, kh, w // kw, kw).mean(axis=(3, 5))
    if op.eltwise is not None:
        f = eltwise(f, op.eltwise)
    return _q(f, *op.quant[-1])


def _layer_units(om, x) -> dict[str, np.ndarray]:
    """{kgen layer or op: how far its u8 result is from `_layer_formula` on its own inputs, in units}
    for a module `optimize` built with segments=False (a module per kgen node), run on `x`."""
    from generator.net.torch_bridge import to_torch

    def u8(v):
        return to_torch(v).int_repr().numpy().astype(np.float64)

    seen = {}
    hooks = [m.register_forward_hook(lambda mod, args, out: seen.__setitem__(
        mod.runner.layer.name, (mod.runner.layer, [u8(a) for a in args], u8(out))))
        for _, m in om.named_modules() if hasattr(m, "runner")]
    try:
        with torch.no_grad():
            om(x)
    finally:
        for h in hooks:
            h.remove()
    return {name: np.abs(out - _layer_formula(layer, ins)) for name, (layer, ins, out) in seen.items()}


def _bn_statistics(model, shape, seed=SEED):
    """`model` with its BatchNorms' running statistics measured on random batches (a random network's
    activations then keep their scale from layer to layer, as a trained one's do, instead of growing or
    vanishing: a random MobileNetV2's output is 1e-9)."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None                       # the average over all batches
    model.train()
    with torch.no_grad():
        for b in _calibration(shape, n=4, seed=seed):
            model(b)
    return model.eval()


def _pytorch_layer_units(qm, net, x) -> dict[str, np.ndarray]:
    """The same for PyTorch's quantized model `qm` (torch.ao FX: its nodes carry the names of `net`'s
    tensors): each of its nodes that kgen runs, against the formula on PyTorch's own inputs."""
    values = {}

    class Record(torch.fx.Interpreter):
        def run_node(self, n):
            values[n.name] = out = super().run_node(n)
            return out

    with torch.no_grad():
        Record(qm).run(x)

    def u8(t):
        return values[t].int_repr().numpy().astype(np.float64)

    return {n.name: np.abs(u8(n.dst) - _layer_formula(n, [u8(t) for t in n.inputs])) for n in net.kernels}


class QPT2E(nn.Module):
    """What X86InductorQuantizer quantizes end to end: a stem conv+BN+ReLU, a max pool, a bottleneck
    whose residual add and ReLU fuse into its last conv (a sum post-op), a grouped strided conv, a
    depthwise conv with ReLU6, a 1x1 conv with a plain residual add, the global average pool."""

    def __init__(self):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(3, 20, 3, padding=1), nn.BatchNorm2d(20)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.c1, self.c2 = nn.Conv2d(20, 24, 1), nn.Conv2d(24, 20, 3, padding=1)
        self.g = nn.Conv2d(20, 32, 3, stride=2, padding=1, groups=4)
        self.dw, self.pw = nn.Conv2d(32, 32, 3, padding=1, groups=32), nn.Conv2d(32, 32, 1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.r0, self.r1, self.r2, self.r3, self.r6 = nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.ReLU6()
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.3, 0.3)
            self.bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        x = self.pool(self.r0(self.bn(self.stem(x))))
        x = self.r2(self.c2(self.r1(self.c1(x))) + x)
        y = self.r3(self.g(x))
        return self.gap(self.pw(self.r6(self.dw(y))) + y)


@pytest.mark.parametrize("layout", ["nhwc", "NCHW4", "nChw16c"])
def test_a_pt2e_model_runs_in_u8_with_its_residuals_fused_and_matches_the_float64_formula(layout):
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = _pt2e(QPT2E().eval(), x, _calibration((1, 3, 14, 14)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment=layout, log=msgs.append)
    net = om.kgen_network
    assert not [m for m in msgs if m.startswith("warning")], msgs
    layers = net.layers
    assert len(layers) == 6 and all(net.tensors[n.dst][1] == "u8" for n in net.kernels)
    # the residual adds are the convs' sum post-ops, at the residual's scale and zero point
    assert sorted(str(op) for l in layers for op in l.problem.post_ops if str(op).startswith("sum")) == sorted(
        str(op) for op in [next(o for o in l.problem.post_ops if str(o).startswith("sum"))
                           for l in layers if l.residual])
    assert sum(1 for l in layers if l.residual) == 2
    assert sorted((o.op.kind, o.op.alg) for o in net.nodes if isinstance(o, OpNode)) == [("pool", "avg"), ("pool", "max")]
    scale = _last_scale(qm)
    for i in range(3):
        xi = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED + i))
        with torch.no_grad():
            got, theirs = om(xi).numpy(), qm(xi).numpy()
        ref = _reference_pt2e(qm, xi.numpy())
        mine, pytorch = _units(got, ref, scale), _units(theirs, ref, scale)
        print(f"seed {SEED + i} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
        assert np.abs(ref).max() > 20 * scale           # not a vanishing output
        assert mine.max() <= 1 and pytorch.max() <= 1, f"seed {SEED + i}"


def test_a_pt2e_conv_whose_result_stays_float_stays_in_pytorch_or_raises_in_strict_mode():
    # a ReLU read by a quantized conv and by a float add: PT2E leaves the conv's result in float
    class Split(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1), nn.Conv2d(8, 8, 1)
            self.r1, self.r2 = nn.ReLU(), nn.ReLU()

        def forward(self, x):
            y = self.r2(self.c2(self.r1(self.c1(x))))
            return y + self.c3(y)

    x = torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    model = Split().eval()
    qm = _pt2e(model, x, _calibration((1, 3, 8, 8)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    warned = [m for m in msgs if m.startswith("warning: c") and "stays in PyTorch: its result" in m]
    assert warned and all(m.endswith("stays in PyTorch: its result stays in float: PT2E quantizes a result only "
                                     "where quantized ops alone read it, and kgen takes u8 results") for m in warned)
    # the add that reads the refused conv's float result and a dequantized tensor
    assert [m for m in msgs if m.startswith("warning") and m not in warned] == [
        "warning: quantized add x1 stays in PyTorch: kgen runs quantized convolutions, adds and pooling on "
        "per-tensor u8 activations"]
    assert len(om.kgen_network.layers) == 3 - len(warned) >= 1
    # the weights of the convs PyTorch keeps are dequantized once, not on every call
    assert not [n for n in om.graph.nodes if n.op == "call_function" and "dequantize_per_channel" in str(n.target)]
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    assert np.abs(got - theirs).max() <= 1e-3 * np.abs(theirs).max() + 0.1
    with pytest.raises(UnsupportedError, match="stays in PyTorch: its result stays in float"):
        generator.optimize(qm, x, measure=False, strict=True)


def test_a_pt2e_model_with_observers_is_one_line():
    from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    x = torch.randn(1, 3, 14, 14)
    ep = torch.export.export(QPT2E().eval(), (x,)).module()
    pm = prepare_pt2e(ep, xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config()))
    for dtype in (None, "int8"):
        with pytest.raises(InputError, match=r"has observers .* but is not quantized: run calibration data through it "
                                             r"and convert_fx \(or convert_pt2e\)"):
            generator.optimize(pm, x, dtype=dtype, measure=False)


def test_kgen_net_in_int8_checks_in_units_and_says_when_the_output_vanishes():
    # run_model (kgen net --dt=int8): the model quantized on the batches, kgen's u8 plan checked against
    # PyTorch's quantized model in units of the output's scale, timed with kgen's f32 plan of the float
    # model; an output a few units wide (a random network's) is named as a check that says little
    from generator.net import report

    x = torch.randn(1, 3, 10, 10, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 1)).eval()
    runs = {}
    for name, w in (("plain", 1.0), ("vanishing", 1e-9)):      # below the observers' least scale, 1.2e-7
        m = copy.deepcopy(model)
        with torch.no_grad():
            m[2].weight.mul_(w)
            m[2].bias.mul_(w)
        runs[name] = report.run_model(m, x, dtype="int8", calibration=_calibration((2, 3, 10, 10)),
                                      layouts=["nhwc"], rounds=2, log=lambda line: None, torch_alone=False)
    for r in runs.values():
        assert r.check.startswith("check against PyTorch's quantized model of the same scales: max ")
        # and each layer on its own inputs, against the float64 formula (ConvProblem.reference)
        assert "; every one of 2 kgen layers and ops against the float64 formula on its own inputs: max " in r.check
        assert int(r.check.split("on its own inputs: max ")[1].split(" ")[0]) <= 1
        assert r.max_rel_err <= r.bound == 1.0
        assert {"kgen plan", "kgen f32 plan", "PyTorch NCHW"} <= set(r.seconds)
    vanish = [n for n in runs["vanishing"].notes if "units of its scale: a random network's activations" in n]
    assert len(vanish) == 1 and not [n for n in runs["plain"].notes if "activations vanish" in n]


def test_the_layer_check_compares_each_layer_with_its_own_reference_and_finds_a_wrong_one():
    from generator.net.layercheck import layer_differences, summary

    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = _pt2e(QPT2E().eval(), x, _calibration((1, 3, 14, 14)))
    om = generator.optimize(qm, x, measure=False, assignment="NCHW4", segments=False, log=lambda m: None)
    diffs = layer_differences(om, x)
    assert set(diffs) == {n.name for n in om.kgen_network.kernels}
    assert max(d.max() for d in diffs.values()) <= 1, summary(diffs)
    # a layer whose kernel computes another bias than its description: found, by name
    layer = next(l for l in om.kgen_network.layers if l.name == "c2")
    layer.bias = layer.bias + 20 * float(layer.quant["dst_scale"])
    diffs = layer_differences(om, x)
    assert diffs["c2"].max() >= 15 and summary(diffs).split("units (")[1].startswith("c2)")


def test_pt2e_pooling_and_a_plain_add_run_as_u8_ops_and_a_conv_whose_result_is_the_output_stays_in_pytorch():
    class Join(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2 = nn.Conv2d(3, 12, 3, padding=1), nn.Conv2d(12, 12, 1)
            self.r1, self.r2 = nn.ReLU(), nn.ReLU()
            self.mp, self.ap = nn.MaxPool2d(3, 1, 1), nn.AvgPool2d(3, 1, 1)

        def forward(self, x):
            y = self.r1(self.c1(x))
            return self.c2(self.r2(self.mp(y) + self.ap(y)))

    x = torch.randn(1, 3, 10, 10, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = _pt2e(Join().eval(), x, _calibration((1, 3, 10, 10)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nChw8c", log=msgs.append)
    assert [m for m in msgs if m.startswith("warning")] == [
        "warning: c2 stays in PyTorch: its result stays in float: PT2E quantizes a result only where quantized "
        "ops alone read it, and kgen takes u8 results"]
    assert sorted((type(n).__name__, getattr(getattr(n, "op", None), "alg", None)) for n in om.kgen_network.kernels) == [
        ("ConvLayer", None), ("OpNode", "add"), ("OpNode", "avg"), ("OpNode", "max")]
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = _reference_pt2e(qm, x.numpy())
    top = np.abs(ref).max()
    print(f"kgen off the formula by {np.abs(got - ref).max() / top:.2e}, PyTorch by {np.abs(theirs - ref).max() / top:.2e}")
    assert np.abs(got - ref).max() <= 1e-5 * top and np.abs(theirs - ref).max() <= 1e-5 * top


def test_pt2e_weights_quantized_per_tensor_run_with_one_scale():
    # (X86InductorQuantizer takes symmetric weights only: a weight zero point cannot come from it)
    import dataclasses

    from torchao.quantization.pt2e.observer import MinMaxObserver
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer import QuantizationSpec
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    wspec = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_symmetric,
                             is_dynamic=False, observer_or_fake_quant_ctr=MinMaxObserver.with_args(eps=2 ** -12))
    config = dataclasses.replace(xiq.get_default_x86_inductor_quantization_config(), weight=wspec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_pt2e(torch.export.export(QPT2E().eval(), (x,)).module(), xiq.X86InductorQuantizer().set_global(config))
        for b in _calibration((1, 3, 14, 14)):
            pm(b)
        qm = convert_pt2e(pm)
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning")]
    assert len(om.kgen_network.layers) == 6
    assert all(q.policy == "common" for l in om.kgen_network.layers for q in l.problem.scales if q.arg == "wei")
    with torch.no_grad():
        got = om(x).numpy()
    assert _units(got, _reference_pt2e(qm, x.numpy()), _last_scale(qm)).max() <= 1


def test_a_pt2e_conv_with_weight_zero_points_stays_in_pytorch_with_its_reason():
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = _pt2e(QPT2E().eval(), x, _calibration((1, 3, 14, 14)))
    # the stem's weights given zero points of 1 (X86InductorQuantizer itself makes symmetric ones)
    conv = next(n for n in qm.graph.nodes if str(n.target) == "aten.conv2d.default")
    zp = conv.args[1].args[2]
    setattr(qm, zp.target, torch.ones_like(getattr(qm, zp.target)))
    with pytest.raises(UnsupportedError, match="stem stays in PyTorch: per-channel weight zero points other than 0"):
        generator.optimize(qm, x, measure=False, strict=True)
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert [m for m in msgs if m.startswith("warning")][0].startswith(
        "warning: stem stays in PyTorch: per-channel weight zero points other than 0")
    assert "stem" not in {l.name for l in om.kgen_network.layers} and len(om.kgen_network.layers) == 5
    with torch.no_grad():
        assert _units(om(x).numpy(), qm(x).numpy(), _last_scale(qm)).max() <= 1
