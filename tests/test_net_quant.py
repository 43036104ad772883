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
from quant_ref import (SEED, QSmall, bn_statistics, calibration_batches, last_scale, layer_units,  # noqa: E402
                       pytorch_layer_units, quantize_fx, quantize_pt2e, reference_fx, units_apart)

pytestmark = pytest.mark.usefixtures("kgen_cache_dir")


@pytest.fixture(autouse=True)
def _table(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))


def _model(seed=SEED):
    torch.manual_seed(seed)
    return QSmall().eval()


# ----------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("layout", ["nhwc", "nchw", "NCHW4", "NCHW32"])
def test_a_quantized_model_runs_in_u8_and_matches_the_float64_formula(layout):
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    qm = quantize_fx(_model(), x, calibration_batches((2, 3, 14, 14)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment=layout, log=msgs.append)
    net = om.kgen_network
    assert sum(isinstance(n, ConvLayer) for n in net.nodes) == 6
    ops = [n.op for n in net.nodes if isinstance(n, OpNode)]
    assert sorted((o.kind, o.alg, o.eltwise is not None) for o in ops) == [
        ("binary", "add", False), ("binary", "add", True), ("pool", "avg", False), ("pool", "max", False)]
    assert all(o.dt == "u8" for o in ops) and all(net.tensors[n.dst][1] == "u8" for n in net.kernels)
    assert not [m for m in msgs if m.startswith("warning")]
    # one segment from the input's quantize to the classifier's Linear (its 1x1 conv): only the quantize
    # and the dequantize of the output run in PyTorch
    ran = [n.target if isinstance(n.target, str) else n.target.__name__
           for n in om.graph.nodes if n.op in ("call_module", "call_function", "call_method")]
    assert ran == ["quantize_per_tensor", "kgen_segment_0", "getitem", "to_torch", "reshape", "dequantize"], ran
    scale = qm.fc.scale
    for i in range(3):
        xi = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED + i))
        with torch.no_grad():
            got, theirs = om(xi).numpy(), qm(xi).numpy()
        ref = reference_fx(qm, xi.numpy())
        mine, pytorch = units_apart(got, ref, scale), units_apart(theirs, ref, scale)
        print(f"seed {SEED + i} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
        assert mine.max() <= 1 and pytorch.max() <= 1, f"seed {SEED + i}"
        assert units_apart(got, theirs, scale).max() <= 1


def test_calibration_quantizes_as_torch_ao_does_and_checks_its_batches():
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    batches = calibration_batches((2, 3, 14, 14))
    model = _model()
    msgs = []
    om = generator.optimize(model, x, dtype="int8", calibration=batches, measure=False, assignment="nhwc",
                            log=msgs.append)
    assert any(m.startswith("calibrating on 4 batch(es)") for m in msgs)
    qm = quantize_fx(model, x, batches)
    with torch.no_grad():
        assert units_apart(om(x).numpy(), qm(x).numpy(), qm.fc.scale).max() <= 1
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
            for b in calibration_batches((2, 3, 14, 14)):
                pm(b)
        rm = convert_to_reference_fx(copy.deepcopy(pm))
    qm = quantize_fx(model, x, calibration_batches((2, 3, 14, 14)))
    om = generator.optimize(rm, x, measure=False, assignment="nhwc")
    assert sum(isinstance(n, ConvLayer) for n in om.kgen_network.nodes) == 6
    with torch.no_grad():
        assert units_apart(om(x).numpy(), qm(x).numpy(), qm.fc.scale).max() <= 1


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
    """Two convs, the ReLU of their product (torch.ao's quantized ``mul_relu``, which kgen does not run):
    it stays in PyTorch between kgen's convolutions; then a Linear over the channels of a channels-last
    view (not a flattened classifier's): it stays too."""

    def __init__(self):
        super().__init__()
        self.c1, self.c2, self.c3 = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 1), nn.Conv2d(8, 8, 1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        y = self.c1(x)
        return self.fc(self.c3(torch.relu(y * self.c2(y))).permute(0, 2, 3, 1))


def test_quantized_ops_kgen_does_not_run_stay_in_pytorch_with_one_line_each_or_raise_in_strict_mode():
    x = torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    model = QOther().eval()
    qm = quantize_fx(model, x, calibration_batches((2, 3, 8, 8)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert [m for m in msgs if m.startswith("warning: quantized")] == [
        f"warning: quantized {kind} x1 stays in PyTorch: kgen runs quantized convolutions, adds, multiplies, "
        "pooling, activation functions and channel concatenations at one scale on per-tensor u8 tensors"
        for kind in ("mul_relu", "Linear")]
    with torch.no_grad():
        assert units_apart(om(x).numpy(), qm(x).numpy(), qm.fc.scale).max() <= 1
    with pytest.raises(UnsupportedError, match="quantized mul_relu x1 stays in PyTorch"):
        generator.optimize(qm, x, measure=False, strict=True)


def _optimized(model_class, layout: str, shape=(2, 3, 9, 7)):
    """(torch.ao's quantized `model_class` (built with the seed set), kgen's module of it with every
    node in `layout`, the log's lines, the input)."""
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = quantize_fx(model_class().eval(), x, calibration_batches(shape))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment=layout, log=msgs.append)
    return qm, om, msgs, x


class QCat(nn.Module):
    """An Inception-style block quantized by torch.ao: a 1x1 and a 3x3 branch and a max pool joined by
    ``torch.cat`` along the channels (torch.ao gives its inputs the output's scale: the bytes join),
    then a 1x1 conv over the 8 + 12 + 12 channels, and a join along the height kgen does not take."""

    def __init__(self):
        super().__init__()
        self.c0, self.b1, self.b2 = nn.Conv2d(3, 12, 3, padding=1), nn.Conv2d(12, 8, 1), nn.Conv2d(12, 12, 3, padding=1)
        self.mp, self.out, self.r = nn.MaxPool2d(3, 1, 1), nn.Conv2d(32, 20, 1), nn.ReLU()

    def forward(self, x):
        y = self.r(self.c0(x))
        z = self.out(torch.cat([self.r(self.b1(y)), self.r(self.b2(y)), self.mp(y)], 1))
        return torch.cat([z, z], 2)


@pytest.mark.parametrize("layout", ["nhwc", "nChw8c"])
def test_a_quantized_channel_concatenation_runs_as_a_u8_op_and_matches_the_float64_formula(layout):
    qm, om, msgs, x = _optimized(QCat, layout)
    assert [m for m in msgs if m.startswith("warning")] == [
        "warning: quantized cat x1 stays in PyTorch: kgen runs quantized convolutions, adds, multiplies, pooling, "
        "activation functions and channel concatenations at one scale on per-tensor u8 tensors"]
    cats = [n.op for n in om.kgen_network.kernels if isinstance(n, OpNode) and n.op.kind == "cat"]
    assert len(cats) == 1 and cats[0].inputs == ((2, 8, 9, 7), (2, 12, 9, 7), (2, 12, 9, 7))
    assert [m for m in msgs if m.startswith("segment")] == ["segment 0: 6 layers in one module"]
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = reference_fx(qm, x.numpy())
    scale = float(qm.out.scale)
    mine, pytorch = units_apart(got, ref, scale), units_apart(theirs, ref, scale)
    print(f"seed {SEED} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
    assert len(np.unique(ref)) > 20 and mine.max() <= 1 and pytorch.max() <= 1
    per_node = generator.optimize(qm, x, measure=False, assignment=layout, segments=False, log=lambda m: None)
    assert max(u.max() for u in layer_units(per_node, x).values()) <= 1
    assert max(u.max() for u in pytorch_layer_units(qm, om.kgen_network, x).values()) <= 1
    with pytest.raises(UnsupportedError, match="quantized cat x1 stays in PyTorch"):
        generator.optimize(qm, x, measure=False, strict=True)


class QActivations(nn.Module):
    """A MobileNetV3-like block quantized by torch.ao: a Hardswish (its own scale), a GELU, a squeeze-
    and-excitation (global pool, two 1x1 convs with a SiLU between, Hardsigmoid at fixed parameters, a
    quantized mul by the per-channel scales), then a conv, ELU and LeakyReLU (on negative values too),
    Tanh and Sigmoid, each on quint8 tensors; 20 channels, a tail in 16-channel blocks. torch.ao has no
    quantized GELU and SiLU: it leaves them in float between a dequantize and a quantize."""

    def __init__(self):
        super().__init__()
        self.c1, self.hs = nn.Conv2d(3, 20, 3, padding=1), nn.Hardswish()
        self.gap, self.fc1, self.r, self.fc2 = nn.AdaptiveAvgPool2d(1), nn.Conv2d(20, 8, 1), nn.SiLU(), nn.Conv2d(8, 20, 1)
        self.hsig, self.c2 = nn.Hardsigmoid(), nn.Conv2d(20, 20, 1)
        self.sig, self.elu, self.lrelu, self.tanh = nn.Sigmoid(), nn.ELU(0.7), nn.LeakyReLU(0.1), nn.Tanh()
        self.gelu = nn.GELU()

    def forward(self, x):
        y = self.gelu(self.hs(self.c1(x)))
        y = y * self.hsig(self.fc2(self.r(self.fc1(self.gap(y)))))
        return self.sig(self.tanh(self.lrelu(self.elu(self.c2(y)))))


@pytest.mark.parametrize("layout", ["nhwc", "nChw16c"])
def test_quantized_activations_and_a_per_channel_mul_run_as_u8_ops_and_match_the_float64_formula(layout):
    qm, om, msgs, x = _optimized(QActivations, layout)
    assert not [m for m in msgs if m.startswith("warning")], msgs
    assert [m for m in msgs if m.startswith("segment")] == ["segment 0: 14 layers in one module"]
    ops = sorted((n.op.kind, n.op.eltwise.kind if n.op.eltwise else n.op.alg)
                 for n in om.kgen_network.kernels if isinstance(n, OpNode))
    assert ops == [("binary", "mul"), ("eltwise", "elu"), ("eltwise", "gelu_erf"), ("eltwise", "hardsigmoid"),
                   ("eltwise", "hardswish"),
                   ("eltwise", "logistic"), ("eltwise", "relu"), ("eltwise", "swish"), ("eltwise", "tanh"),
                   ("pool", "avg")]
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = reference_fx(qm, x.numpy())
    scale = 1 / 256                                      # the Sigmoid's fixed output scale
    mine, pytorch = units_apart(got, ref, scale), units_apart(theirs, ref, scale)
    print(f"seed {SEED} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
    assert len(np.unique(ref)) > 20 and mine.max() <= 1 and pytorch.max() <= 1
    # each node on its own inputs: at most one unit (a tie); and each node as kgen imported it (its
    # function, its parameters) against PyTorch's own values of that node
    per_node = generator.optimize(qm, x, measure=False, assignment=layout, segments=False, log=lambda m: None)
    units = layer_units(per_node, x)
    assert len(units) == 14 and max(u.max() for u in units.values()) <= 1, {k: u.max() for k, u in units.items()}
    theirs = pytorch_layer_units(qm, om.kgen_network, x)
    assert max(u.max() for u in theirs.values()) <= 1, {k: u.max() for k, u in theirs.items()}


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
    om = generator.optimize(model, x, dtype="int8", calibration=calibration_batches((2, 3, 96, 96), n=2),
                            measure=False, assignment="nhwc", log=msgs.append)
    qm = quantize_fx(model, x, calibration_batches((2, 3, 96, 96), n=2))
    assert not [m for m in msgs if m.startswith("warning") and "Linear" not in m], msgs
    assert sum(1 for n in om.graph.nodes if n.op == "call_module" and n.target.startswith("kgen_segment")) == 1
    scale = output_scale(qm)
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    units = units_apart(got, theirs, scale)
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
    model = bn_statistics(getattr(models, name)().eval(), (4, 3, 96, 96))
    if flow == "pt2e":
        model.fc = nn.Identity() if hasattr(model, "fc") else None     # PT2E leaves the classifier in float
        model.classifier = nn.Identity() if hasattr(model, "classifier") else None
    x = torch.randn(1, 3, 96, 96, generator=torch.Generator().manual_seed(SEED))
    qm = (quantize_pt2e if flow == "pt2e" else quantize_fx)(model, x, calibration_batches((1, 3, 96, 96), n=2))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", segments=False, log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning") and "Linear" not in m], msgs
    units = layer_units(om, x)
    assert len(units) == len(om.kgen_network.kernels)
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    scale = last_scale(qm) if flow == "pt2e" else output_scale(qm)
    end = units_apart(got, theirs, scale)
    worst = max(units, key=lambda k: units[k].max())
    ties = sum(int((u > 0).sum()) for u in units.values())
    total = sum(u.size for u in units.values())
    line = (f"{name} {flow}: {len(units)} kgen layers and ops, worst {worst} {units[worst].max()} units, {ties} of "
            f"{total} off; end to end against PyTorch's model: max {end.max()} units, {np.mean(end <= 1) * 100:.1f}% "
            f"within 1")
    if flow == "fx":
        theirs = pytorch_layer_units(qm, om.kgen_network, x)
        line += f"; PyTorch's layers: worst {max(u.max() for u in theirs.values())} units, " \
                f"{sum(int((u > 0).sum()) for u in theirs.values())} off"
    print(line)
    assert units[worst].max() <= 1 and ties <= 1e-4 * total


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
        runs[name] = report.run_model(m, x, dtype="int8", calibration=calibration_batches((2, 3, 10, 10)),
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


def test_kgen_net_calibrates_on_the_inputs_of_a_file(tmp_path):
    # --calibration=FILE.npy: K inputs of the example's other dims, fed a batch of the example's size at a time
    import subprocess
    import sys

    (tmp_path / "tiny_models.py").write_text(
        "import torch\n"
        "def two_convs():\n"
        "    return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 8, 1))\n")
    np.save(tmp_path / "calib.npy", np.random.default_rng(SEED).standard_normal((5, 3, 8, 8)).astype(np.float32))
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "net", "--model=tiny_models:two_convs",
                        "--input-shape=2x3x8x8", "--dt=int8", "--calibration=calib.npy", "--layouts=nhwc",
                        "--plan-only"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "calibrating on 3 batch(es)" in r.stderr, r.stderr      # 2 + 2 + 1 inputs
    assert "ic3ih8oc8oh8kh3ph1" in r.stdout, r.stdout
