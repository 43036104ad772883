"""Models quantized by PyTorch 2 export quantization (`net.torch_pt2e`: torchao's prepare_pt2e /
convert_pt2e with X86InductorQuantizer) through `generator.optimize`: convolutions with their residual
adds fused as sum post-ops, pooling and adds as u8 ops, checked against a float64 model of the PT2E
graph written from the documented formulas and against PyTorch's model; what kgen cannot run stays in
PyTorch with its reason (`strict=True` raises); a model with observers is one line. And the layer
check (`net.layercheck`) that `kgen net --dt=int8` runs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install -e .[test])")
nn = torch.nn

import generator  # noqa: E402
from generator.errors import InputError, UnsupportedError  # noqa: E402
from generator.net.graph import OpNode  # noqa: E402
from quant_ref import SEED, QSmall, calibration_batches, last_scale, quantize_pt2e, reference_pt2e, units_apart  # noqa: E402

pytestmark = pytest.mark.usefixtures("kgen_cache_dir")


@pytest.fixture(autouse=True)
def _table(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))


class QPT2E(QSmall):
    """QSmall as X86InductorQuantizer quantizes it end to end: the bottleneck's residual add and ReLU
    fuse into its last conv (a sum post-op), and after the depthwise conv with ReLU6 a 1x1 conv with a
    plain residual add (its sum); the global average pool is the output (no Linear)."""

    def __init__(self):
        super().__init__()
        self.pw = nn.Conv2d(32, 32, 1)

    def forward(self, x):
        x = self.pool(self.r0(self.bn(self.stem(x))))
        x = self.r2(self.c2(self.r1(self.c1(x))) + x)
        y = self.r3(self.g(x))
        return self.gap(self.pw(self.r6(self.dw(y))) + y)


@pytest.mark.parametrize("layout", ["nhwc", "NCHW4", "nChw16c"])
def test_a_pt2e_model_runs_in_u8_with_its_residuals_fused_and_matches_the_float64_formula(layout):
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = quantize_pt2e(QPT2E().eval(), x, calibration_batches((1, 3, 14, 14)))
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
    scale = last_scale(qm)
    for i in range(3):
        xi = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED + i))
        with torch.no_grad():
            got, theirs = om(xi).numpy(), qm(xi).numpy()
        ref = reference_pt2e(qm, xi.numpy())
        mine, pytorch = units_apart(got, ref, scale), units_apart(theirs, ref, scale)
        print(f"seed {SEED + i} {layout}: kgen off the formula by {mine.max()} units, PyTorch by {pytorch.max()}")
        assert np.abs(ref).max() > 20 * scale           # not a vanishing output
        assert mine.max() <= 1 and pytorch.max() <= 1, f"seed {SEED + i}"


def test_a_pt2e_conv_whose_result_stays_float_runs_as_u8_s8_f32_and_its_float_add_stays_in_pytorch():
    # y read by a quantized conv and by a float add: PT2E quantizes y, but leaves c3's result in float
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
    qm = quantize_pt2e(model, x, calibration_batches((1, 3, 8, 8)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nChw8c", log=msgs.append)
    net = om.kgen_network
    assert [(l.name, l.problem.dst.dtype.name, net.tensors[l.dst][1]) for l in net.layers] == [
        ("c1", "u8", "u8"), ("c2", "u8", "u8"), ("c3", "f32", "f32")]
    c3 = net.layers[-1]
    assert "dst_scale" not in c3.quant and not [q for q in c3.problem.scales if q.arg == "dst"]
    # the add of a dequantized tensor and a float one: PyTorch's, with its line
    assert [m for m in msgs if m.startswith("warning")] == [
        "warning: quantized add x1 stays in PyTorch: kgen runs quantized convolutions, adds, multiplies, pooling, "
        "activation functions and channel concatenations at one scale on per-tensor u8 tensors"]
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = reference_pt2e(qm, x.numpy())
    top = np.abs(ref).max()
    print(f"kgen off the formula by {np.abs(got - ref).max() / top:.2e}, PyTorch by {np.abs(theirs - ref).max() / top:.2e}")
    assert np.abs(got - ref).max() <= 1e-5 * top and np.abs(theirs - ref).max() <= 1e-5 * top
    with pytest.raises(UnsupportedError, match="quantized add x1 stays in PyTorch"):
        generator.optimize(qm, x, measure=False, strict=True)


class Classifier(nn.Module):
    """A conv, the global average pool and a Linear after an eval Dropout: the end of a MobileNetV2.
    PT2E quantizes the flattened pool again at its own observer's parameters, and leaves the logits in
    float."""

    def __init__(self):
        super().__init__()
        self.conv, self.relu = nn.Conv2d(3, 24, 3, padding=1), nn.ReLU6()
        self.gap, self.drop, self.fc = nn.AdaptiveAvgPool2d(1), nn.Dropout(0.2), nn.Linear(24, 10)

    def forward(self, x):
        return self.fc(self.drop(torch.flatten(self.gap(self.relu(self.conv(x))), 1)))


def _requantized(qm) -> tuple:
    """(the pool's quantize node, the quantize of the flattened pool) of a PT2E `Classifier`."""
    def source(q):                  # what a quantize node quantizes, past eval dropouts
        v = q.args[0]
        while str(v.target) == "aten.dropout.default":
            v = v.args[0]
        return str(v.target)

    qs = [n for n in qm.graph.nodes if str(n.target) == "quantized_decomposed.quantize_per_tensor.default"]
    return (next(n for n in qs if source(n) == "aten.adaptive_avg_pool2d.default"),
            next(n for n in qs if source(n) == "aten.flatten.using_ints"))


@pytest.mark.parametrize("again", ["requantized", "alike"])
def test_a_pt2e_classifier_runs_on_kgen_as_a_1x1_conv_with_float_logits(again):
    x = torch.randn(2, 3, 9, 7, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = quantize_pt2e(Classifier().eval(), x, calibration_batches((2, 3, 9, 7)))
    pool_q, flat_q = _requantized(qm)
    if again == "alike":            # the flattened pool quantized at the pool's own parameters: the same bytes
        for q in [flat_q] + list(flat_q.users):
            q.args = q.args[:1] + pool_q.args[1:3] + q.args[3:]
        qm.recompile()
    else:
        assert flat_q.args[1:3] != pool_q.args[1:3]      # the case this test is for
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning")], msgs
    assert [m for m in msgs if m.startswith("segment")] == ["segment 0: %d layers in one module"
                                                            % (4 if again == "requantized" else 3)]
    net = om.kgen_network
    fc = next(l for l in net.layers if l.name == "fc")
    assert fc.problem.desc.dst_dims == (2, 10, 1, 1) and fc.problem.dst.dtype.name == "f32"
    requant = [n.op for n in net.kernels if getattr(getattr(n, "op", None), "kind", None) == "eltwise"]
    assert len(requant) == (again == "requantized")
    if requant:
        assert requant[0].quant == ((pool_q.args[1], pool_q.args[2]), (flat_q.args[1], flat_q.args[2]))
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = reference_pt2e(qm, x.numpy())
    top = np.abs(ref).max()
    print(f"{again}: kgen off the formula by {np.abs(got - ref).max() / top:.2e}, PyTorch by "
          f"{np.abs(theirs - ref).max() / top:.2e}")
    assert got.shape == (2, 10) and np.abs(got - ref).max() <= 1e-5 * top and np.abs(theirs - ref).max() <= 1e-5 * top
    if again == "requantized":      # the layer check: the u8 nodes in units, the logits relative to their largest
        from generator.net.layercheck import layer_differences, summary

        per_layer = generator.optimize(qm, x, measure=False, assignment="nhwc", segments=False, log=lambda m: None)
        diffs = layer_differences(per_layer, x)
        assert diffs.floats == {"fc"} and len(diffs) == 4 and diffs["fc"].max() <= 1e-6, summary(diffs)
        assert max(d.max() for k, d in diffs.items() if k != "fc") <= 1, summary(diffs)
        assert summary(diffs).endswith("of their largest value (fc)")


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


def test_the_layer_check_compares_each_layer_with_its_own_reference_and_finds_a_wrong_one():
    from generator.net.layercheck import layer_differences, summary

    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = quantize_pt2e(QPT2E().eval(), x, calibration_batches((1, 3, 14, 14)))
    om = generator.optimize(qm, x, measure=False, assignment="NCHW4", segments=False, log=lambda m: None)
    diffs = layer_differences(om, x)
    assert set(diffs) == {n.name for n in om.kgen_network.kernels}
    assert max(d.max() for d in diffs.values()) <= 1, summary(diffs)
    # a layer whose kernel computes another bias than its description: found, by name
    layer = next(l for l in om.kgen_network.layers if l.name == "c2")
    layer.bias = layer.bias + 20 * float(layer.quant["dst_scale"])
    diffs = layer_differences(om, x)
    assert diffs["c2"].max() >= 15 and summary(diffs).split("units (")[1].startswith("c2)")


def test_pt2e_pooling_and_a_plain_add_run_as_u8_ops_and_a_conv_whose_result_is_the_output_gives_it_in_float():
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
    qm = quantize_pt2e(Join().eval(), x, calibration_batches((1, 3, 10, 10)))
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nChw8c", log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning")], msgs
    assert sorted((type(n).__name__, getattr(getattr(n, "op", None), "alg", None)) for n in om.kgen_network.kernels) == [
        ("ConvLayer", None), ("ConvLayer", None), ("OpNode", "add"), ("OpNode", "avg"), ("OpNode", "max")]
    assert [m for m in msgs if m.startswith("segment")] == ["segment 0: 5 layers in one module"]
    assert om.kgen_network.tensors[om.kgen_network.outputs[0]][1] == "f32"
    with torch.no_grad():
        got, theirs = om(x).numpy(), qm(x).numpy()
    ref = reference_pt2e(qm, x.numpy())
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
        for b in calibration_batches((1, 3, 14, 14)):
            pm(b)
        qm = convert_pt2e(pm)
    msgs = []
    om = generator.optimize(qm, x, measure=False, assignment="nhwc", log=msgs.append)
    assert not [m for m in msgs if m.startswith("warning")]
    assert len(om.kgen_network.layers) == 6
    assert all(q.policy == "common" for l in om.kgen_network.layers for q in l.problem.scales if q.arg == "wei")
    with torch.no_grad():
        got = om(x).numpy()
    assert units_apart(got, reference_pt2e(qm, x.numpy()), last_scale(qm)).max() <= 1


def test_a_pt2e_conv_with_weight_zero_points_stays_in_pytorch_with_its_reason():
    x = torch.randn(1, 3, 14, 14, generator=torch.Generator().manual_seed(SEED))
    torch.manual_seed(SEED)
    qm = quantize_pt2e(QPT2E().eval(), x, calibration_batches((1, 3, 14, 14)))
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
        assert units_apart(om(x).numpy(), qm(x).numpy(), last_scale(qm)).max() <= 1
