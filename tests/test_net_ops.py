"""The ops kgen runs between a network's convolutions (`problem.netop`, `emit.netop`, `net.torch_ops`):
each kind generated, compiled and run in every layout and data type, channel tails included, against
the float64 reference on integer data, the padded lanes checked zero; what PyTorch node becomes
which op, and what stays in PyTorch; the zoo of small networks through `generator.optimize`."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from generator.compile import get_backend
from generator.emit.netop import render_netop, why_not
from generator.errors import ProblemError, UnsupportedError
from generator.layout import get_dtype
from generator.net.opkernel import OpKernel
from generator.net.plan import candidate_layouts
from generator.net.graph import OpNode
from generator.problem.attr import Eltwise
from generator.problem.netop import NetOp
from generator.runtime import chain_driver

SEED = 5
pytestmark = pytest.mark.usefixtures("kgen_cache_dir")

# (op kind, its parameters) over one input shape; the per-channel product and the concat add their own
OPS = {
    "add": lambda d, dt: NetOp("binary", "add", [d, d], dt),
    "mul_per_channel": lambda d, dt: NetOp("binary", "mul", [d, d[:2] + (1,) * (len(d) - 2)], dt),
    "per_channel_mul_first": lambda d, dt: NetOp("binary", "mul", [d[:2] + (1,) * (len(d) - 2), d], dt),
    "logistic": lambda d, dt: NetOp("eltwise", "", [d], dt, Eltwise("logistic")),   # f(0) != 0: masked lanes
    "hardswish": lambda d, dt: NetOp("eltwise", "", [d], dt, Eltwise("hardswish", 1 / 6, 0.5)),
    "max_pool": lambda d, dt: NetOp("pool", "max", [d], dt, kernel=(3,) * (len(d) - 2), stride=(2,) * (len(d) - 2),
                                    pad=(1,) * (len(d) - 2)),
    "avg_pool": lambda d, dt: NetOp("pool", "avg", [d], dt, kernel=(3,) * (len(d) - 2), stride=(1,) * (len(d) - 2),
                                    pad=(1,) * (len(d) - 2)),
    "global_avg": lambda d, dt: NetOp("pool", "avg", [d], dt, kernel=d[2:], stride=(1,) * (len(d) - 2),
                                      pad=(0,) * (len(d) - 2)),
    "linear": lambda d, dt: NetOp("eltwise", "", [d], dt, Eltwise("linear", 0.5, -3.0)),      # x / 2 - 3
    "expand": lambda d, dt: NetOp("expand", "", [d[:2] + (1,) * (len(d) - 2)], dt, size=d[2:]),
    "upsample": lambda d, dt: NetOp("upsample", "", [d], dt, size=tuple(2 * v for v in d[2:])),
    "norm": lambda d, dt: NetOp("norm", "", [d], dt, eps=1e-5),         # (x - mean) / std: masked lanes
    # in a blocked layout every input but the last fills its blocks; the last has a tail
    "cat": lambda d, dt: NetOp("cat", "", [(d[0], 16) + d[2:], (d[0], 32) + d[2:], d], dt),
}
SHAPES = {"2d": (1, 20, 7, 6), "1d": (1, 20, 9), "3d": (1, 20, 3, 5, 4)}


def _cases():
    out = []
    for kind in OPS:
        for layout in ("nchw", "nhwc", "nChw16c"):
            out.append(pytest.param(kind, layout, "2d", "f32", id=f"{kind}-{layout}-2d-f32"))
        out.append(pytest.param(kind, "nChw16c", "2d", "bf16", id=f"{kind}-nChw16c-2d-bf16"))
        for shape in ("1d", "3d"):
            out.append(pytest.param(kind, "nhwc" if shape == "1d" else "nChw16c", shape, "f32",
                                    marks=pytest.mark.full, id=f"{kind}-{shape}-f32"))
    return out


def _run(op: NetOp, layout: str, seed: int, backend: str = "llvm-cpu"):
    b = get_backend(backend)
    k = OpKernel(op, layout, b, chain_driver(b, None))
    rng = np.random.default_rng(seed)
    xs = [rng.integers(-4, 5, d).astype(np.float32) for d in op.inputs]       # exact in f32 and bf16
    npdt = get_dtype(op.dt).np_dtype
    bufs = [k.buffer(i).to_physical(x.astype(npdt)) for i, x in enumerate(xs)]
    out = k.invoke(*bufs).to_numpy().view(k.buffer(len(xs)).buffer_dtype)
    return xs, out, k.buffer(len(xs))


@pytest.mark.parametrize("kind, layout, shape, dt", _cases())
def test_op_matches_the_float64_reference_with_its_padding_zero(kind, layout, shape, dt):
    op = OPS[kind](SHAPES[shape], dt)
    seed = SEED + zlib.crc32(f"{kind} {layout} {shape} {dt}".encode()) % 1000
    xs, out, desc = _run(op, layout, seed)
    got = desc.from_physical(out).astype(np.float64)
    ref = op.reference(xs)
    # f32: exact for integer data up to the transcendental functions and the average's 1/k; bf16: the
    # result rounded to 8 bits of mantissa
    tol = 2e-6 if dt == "f32" else 2 ** -8
    err = np.abs(got - ref) / np.maximum(1.0, np.abs(ref))
    assert err.max() <= tol, f"seed {seed}: {op} in {layout}: max rel err {err.max():.2e}"
    pad = desc.padding_mask()
    assert not np.any(out.astype(np.float32)[pad]), f"seed {seed}: padded lanes not zero"


# u8 ops on quantized tensors: PyTorch's quantized add / add_relu, pooling on quint8, eltwise functions
U8_OPS = {
    "qadd": lambda d: NetOp("binary", "add", [d, d], "u8", quant=[(0.05, 3), (0.11, 200), (0.09, 128)]),
    "qadd_relu": lambda d: NetOp("binary", "add", [d, d], "u8", Eltwise("relu"),
                                 quant=[(0.05, 3), (0.11, 200), (0.13, 17)]),
    "max_pool": lambda d: NetOp("pool", "max", [d], "u8", kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                quant=[(0.02, 7)] * 2),
    "global_avg": lambda d: NetOp("pool", "avg", [d], "u8", kernel=d[2:], stride=(1, 1), pad=(0, 0),
                                  quant=[(0.02, 131)] * 2),
    "avg_pool_padded": lambda d: NetOp("pool", "avg", [d], "u8", kernel=(3, 3), stride=(1, 1), pad=(1, 1),
                                       quant=[(0.02, 131)] * 2),
    # a requantize (PT2E's quantize of a dequantized tensor at other parameters), and a function
    "requantize": lambda d: NetOp("eltwise", "", [d], "u8", Eltwise("linear", 1.0, 0.0),
                                  quant=[(0.05, 3), (0.021, 140)]),
    "qhardswish": lambda d: NetOp("eltwise", "", [d], "u8", Eltwise("hardswish", 1 / 6, 0.5),
                                  quant=[(0.05, 128), (0.03, 90)]),
    # an Inception join: the bytes concatenated along the channels, at one scale (the first input fills
    # its 16-channel blocks, the last has a tail)
    "qcat": lambda d: NetOp("cat", "", [d[:1] + (16,) + d[2:], d], "u8", quant=[(0.05, 3)] * 3),
    # a squeeze-and-excitation's scaling: a tensor by a per-channel one
    "qmul_per_channel": lambda d: NetOp("binary", "mul", [d, d[:2] + (1,) * (len(d) - 2)], "u8",
                                        quant=[(0.05, 3), (1 / 256, 0), (0.02, 128)]),
}


@pytest.mark.parametrize("kind", list(U8_OPS))
@pytest.mark.parametrize("layout", ["nchw", "nhwc", "nChw16c"])
def test_u8_op_matches_the_float64_reference_within_one_unit(kind, layout):
    op = U8_OPS[kind](SHAPES["2d"])
    seed = SEED + zlib.crc32(f"{kind} {layout} u8".encode()) % 1000
    b = get_backend("llvm-cpu")
    k = OpKernel(op, layout, b, chain_driver(b, None))
    rng = np.random.default_rng(seed)
    xs = [rng.integers(0, 256, d).astype(np.uint8) for d in op.inputs]
    bufs = [k.buffer(i).to_physical(x) for i, x in enumerate(xs)]
    desc = k.buffer(len(xs))
    out = k.invoke(*bufs).to_numpy().view(np.uint8)
    got = desc.from_physical(out).astype(np.float64)
    ref = op.reference(xs)
    # f32 arithmetic against float64: only a value within 1e-3 of a rounding tie may round the other way
    deq = [(x.astype(np.float64) - zp) * np.float64(np.float32(sc)) for x, (sc, zp) in zip(xs, op.quant)]
    exact = op._reference(deq) / np.float64(np.float32(op.quant[-1][0])) + op.quant[-1][1]
    near_tie = np.abs(np.abs(exact - np.floor(exact)) - 0.5) < 1e-3
    diff = np.abs(got - ref)
    assert diff.max() <= 1 and not np.any((diff > 0) & ~near_tie), f"seed {seed}: {op} in {layout}: {diff.max()} units"
    if op.alg == "avg":
        # an average at one scale sums integers and multiplies once: its ties (a 3x3 window's ninths are
        # none, a padded edge's halves and quarters are) round to even exactly, with the odd zero point
        # added after, as PyTorch's quantize does
        assert not diff.any(), f"seed {seed}: {op} in {layout}: {int((diff > 0).sum())} values off"
    assert len(np.unique(ref)) > 10, "the data cover the range"
    assert not np.any(out[desc.padding_mask()]), f"seed {seed}: padded lanes not zero"


def test_ops_run_on_llvm_cpu_only_and_say_so():
    # on Vulkan (lavapipe) IREE 3.13 computed wrong channel norms and failed to compile some: refused
    b = get_backend("vulkan")
    with pytest.raises(UnsupportedError, match="network ops .norm here. run on llvm-cpu only"):
        OpKernel(OPS["norm"](SHAPES["2d"], "f32"), "nhwc", b, "vulkan")


def test_the_function_name_holds_every_parameter():
    d = (1, 20, 7, 6)
    names = {render_netop(op, "nchw", header=False).split("@", 1)[1].split("(", 1)[0]
             for op in (OPS["max_pool"](d, "f32"), OPS["avg_pool"](d, "f32"), OPS["max_pool"](d, "bf16"),
                        NetOp("pool", "max", [d], "f32", kernel=(3, 3), stride=(1, 1), pad=(1, 1)),
                        OPS["logistic"](d, "f32"), NetOp("eltwise", "", [d], "f32", Eltwise("relu", 0.5)))}
    assert len(names) == 6


@pytest.mark.parametrize("make, match", [
    (lambda: NetOp("binary", "add", [(1, 8, 4, 4), (1, 8, 2, 4)]), "neither one shape nor"),
    (lambda: NetOp("binary", "sub", [(1, 8, 4, 4)] * 2), "add or mul"),
    (lambda: NetOp("pool", "max", [(1, 8, 4, 4)], kernel=(3, 3), stride=(1, 1), pad=(2, 2)), "half the kernel"),
    (lambda: NetOp("pool", "avg", [(1, 8, 4, 4)], kernel=(3,), stride=(1,), pad=(0,)), "each of its 2"),
    (lambda: NetOp("cat", "", [(1, 8, 4, 4), (1, 8, 4, 5)]), "alike but in channels"),
    (lambda: NetOp("expand", "", [(1, 8, 1, 1)], "u8", size=(4, 4)), "not on u8 tensors"),
    (lambda: NetOp("cat", "", [(1, 8, 4, 4)] * 2, "u8", quant=[(0.1, 3), (0.2, 3), (0.1, 3)]), "at one scale"),
    (lambda: NetOp("eltwise", "", [(1, 8, 4, 4)], "u8", Eltwise("relu")), "for each of its 1 inputs"),
    (lambda: NetOp("eltwise", "", [(1, 8, 4, 4)], "s8", Eltwise("relu")), "data type s8"),
    (lambda: NetOp("binary", "add", [(1, 8, 4, 4)] * 2, "u8", quant=[(0.1, 0)] * 2), "for each of its 2"),
    (lambda: NetOp("binary", "add", [(1, 8, 4, 4)] * 2, "u8", quant=[(0.1, 0), (0.0, 0), (1, 0)]),
     "scale 0.0 must be finite"),
    (lambda: NetOp("pool", "max", [(1, 8, 4, 4)], "u8", kernel=(2, 2), stride=(2, 2), pad=(0, 0),
                   quant=[(0.1, 3), (0.2, 3)]), "keeps the input's scale"),
    (lambda: NetOp("binary", "add", [(1, 8, 4, 4)] * 2, quant=[(0.1, 0)] * 3), "on a f32 op"),
    (lambda: NetOp("gather", "", [(1, 8, 4, 4)]), "unknown network op kind"),
    (lambda: NetOp("expand", "", [(1, 8, 2, 1)], size=(4, 4)), "must be per-channel"),
    (lambda: NetOp("upsample", "", [(1, 8, 2, 3)], size=(4, 4)), "not a whole multiple"),
    (lambda: NetOp("upsample", "", [(1, 8, 2, 2)], size=(4,)), "each of its 2 spatial dims"),
    (lambda: NetOp("norm", "", [(1, 8, 2, 2)]), "eps above 0"),
])
def test_bad_ops_are_problem_errors(make, match):
    with pytest.raises(ProblemError, match=match):
        make()


def test_a_concat_in_blocks_needs_whole_blocks_and_the_planner_leaves_it_out():
    op = NetOp("cat", "", [(1, 20, 4, 4), (1, 16, 4, 4)])
    assert "fill its 16-channel blocks" in why_not(op, "nChw16c")
    assert why_not(op, "nhwc") is None
    with pytest.raises(UnsupportedError, match="16-channel blocks"):
        render_netop(op, "nChw16c")
    assert candidate_layouts(OpNode("c", op, ("a", "b"), "y")) == ["nchw", "nhwc"]
    assert candidate_layouts(OpNode("c", NetOp("cat", "", [(1, 16, 4, 4), (1, 20, 4, 4)]), ("a", "b"), "y")) == \
        ["nchw", "nhwc", "nChw16c"]


# ------------------------------------------------------------------------------------------ PyTorch
torch = pytest.importorskip("torch", reason="torch is not installed (pip install -e .[test])")
nn, F = torch.nn, torch.nn.functional

import generator  # noqa: E402
from generator.net import zoo  # noqa: E402
from generator.net.torch_bridge import import_model  # noqa: E402


class Between(nn.Module):
    """Every op kind kgen takes between convs, and forms that stay in PyTorch."""

    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(3, 16, 3, padding=1), nn.Conv2d(16, 8, 1)
        self.se, self.c3 = nn.Conv2d(24, 24, 1), nn.Conv2d(24, 24, 1)
        self.keep_ceil = nn.MaxPool2d(3, 2, ceil_mode=True)       # an extra window: PyTorch
        self.keep_dil = nn.MaxPool2d(3, 1, 1, dilation=2)         # dilated: PyTorch
        self.up = nn.Upsample(scale_factor=2)                     # nearest

    def forward(self, x):
        a = self.c1(x)
        b = self.c2(a)
        y = torch.cat([a, b], 1)                                  # cat
        g = torch.sigmoid(self.se(F.adaptive_avg_pool2d(y, 1)))  # global pool; the sigmoid fuses into se
        y = y * g                                                 # per-channel product
        y = F.max_pool2d(y, 2) + F.avg_pool2d(y, 2)               # pools, add
        z = 1 - torch.tanh(y) * 0.5                               # tanh, products and sums with numbers
        z = z + g.expand(-1, -1, 6, 6) + F.interpolate(F.avg_pool2d(z, 2), scale_factor=2.0)  # expand, upsample
        p = self.keep_ceil(z)
        q = self.c3(z.clamp(-1, 1))           # a conv after a PyTorch op: the clamp is between kgen's kernels
        return p + p.mean((2, 3), keepdim=True) + self.keep_dil(q)[:, :, :3, :3]


def test_import_takes_the_ops_between_convs_and_leaves_the_rest():
    torch.manual_seed(SEED)
    imp = import_model(Between().eval(), torch.randn(1, 3, 12, 12))
    ops = {o.layer.name: o.layer.op for o in imp.ops}
    kinds = sorted((op.kind, op.alg) for op in ops.values())
    assert kinds == [("binary", "add")] * 3 + [("binary", "mul"), ("cat", ""), ("eltwise", ""), ("eltwise", ""),
                     ("eltwise", ""), ("expand", ""), ("pool", "avg"), ("pool", "avg"), ("pool", "avg"),
                     ("pool", "max"), ("upsample", "")], kinds
    assert ops["adaptive_avg_pool2d"].kernel == (12, 12)
    assert ops["tanh"].eltwise == Eltwise("tanh")
    assert ops["mul_1"].eltwise == Eltwise("linear", 0.5, 0.0) and ops["sub"].eltwise == Eltwise("linear", -1.0, 1.0)
    assert ops["interpolate"].size == (6, 6) and ops["expand"].size == (6, 6)
    boundaries = {n.name for n in imp.net.nodes if type(n).__name__ == "Boundary"}
    assert {"clamp", "keep_ceil", "keep_dil"} <= boundaries
    # an op reading only PyTorch's tensors stays there: the mean over what PyTorch wrote
    assert "mean" in boundaries


def test_ops_run_in_one_segment_with_the_convs_and_match_eager():
    torch.manual_seed(SEED)
    m, x = Between().eval(), torch.randn(1, 3, 12, 12)
    notes = []
    om = generator.optimize(m, x, measure=False, log=notes.append)
    assert any("segment 0:" in n and "layers in one module" in n for n in notes), notes
    # what stays in PyTorch between kgen's kernels is said once, with why
    warn = [n for n in notes if n.startswith("warning:")]
    assert len(warn) == 1 and ".clamp() x1: no kgen op" in warn[0] and "MaxPool2d" not in warn[0], warn
    assert om.kgen_in_pytorch == {".clamp()": (1, "no kgen op"), "MaxPool2d": (2, om.kgen_in_pytorch["MaxPool2d"][1])}
    assert "parameters kgen's pooling does not take" in om.kgen_in_pytorch["MaxPool2d"][1]
    with torch.inference_mode():
        ref, got = m(x), om(x)
    assert float((got - ref).abs().max() / ref.abs().max()) <= 1e-5
    # a forced layout per op too: the blocked one, with its channel tails (24 channels in 16-blocks)
    om = generator.optimize(m, x, assignment="nChw16c", measure=False)
    assert set(om.kgen_plan.layouts.values()) == {"nChw16c"}
    with torch.inference_mode():
        assert float((om(x) - ref).abs().max() / ref.abs().max()) <= 1e-5


ZOO_QUICK = ("inception", "wavenet", "mobilenet_v3")


@pytest.mark.parametrize("name", [n if n in ZOO_QUICK else pytest.param(n, marks=pytest.mark.full) for n in zoo.ZOO])
def test_zoo_network_through_optimize_matches_eager(name):
    m, x = zoo.build(name, scale=0.25)
    om = generator.optimize(m, x, measure=False)
    with torch.inference_mode():
        ref, got = m(x), om(x)
    err = float((got - ref).abs().max() / ref.abs().max())
    assert err <= 1e-4, f"{name}: {err:.2e}"
    assert any(isinstance(n, OpNode) for n in om.kgen_network.nodes), "no op ran on kgen"


@pytest.mark.full
@pytest.mark.parametrize("name", ["inception", "efficientnet"])
def test_zoo_network_in_bf16_stays_within_bf16_rounding(name):
    m, x = zoo.build(name, scale=0.25)
    om = generator.optimize(m, x, dtype="bf16", measure=False)
    with torch.inference_mode():
        ref, got = m(x), om(x)
    assert float((got - ref).abs().max() / ref.abs().max()) <= 5e-2


def test_zoo_names_are_checked():
    with pytest.raises(generator.errors.InputError, match="no zoo model named 'vgg'"):
        zoo.build("vgg")


class ChannelsLast(nn.Module):
    """ConvNeXt's block: a 7x7 depthwise conv, then LayerNorm and a Linear MLP over a channels-last view
    (rewritten onto the tensor as it is), and a region that is not rewritten (a LayerNorm with no
    Linear after it)."""

    def __init__(self, c: int = 20):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 7, padding=3, groups=c)
        self.norm, self.fc1, self.fc2 = nn.LayerNorm(c, eps=1e-6), nn.Linear(c, 4 * c), nn.Linear(4 * c, c)
        self.norm2 = nn.LayerNorm(c)
        for ln in (self.norm, self.norm2):
            ln.weight.data.uniform_(0.5, 1.5)
            ln.bias.data.uniform_(-0.5, 0.5)

    def forward(self, x):
        y = self.dw(x).permute(0, 2, 3, 1)
        y = self.fc2(F.gelu(self.fc1(self.norm(y)))).permute(0, 3, 1, 2)
        x = x + y
        return self.norm2(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


def test_a_channels_last_region_runs_on_the_tensor_as_it_is():
    torch.manual_seed(SEED)
    m, x = ChannelsLast().eval(), torch.randn(1, 20, 9, 9)
    imp = import_model(m, x)
    layers = {l.name: l for l in imp.net.layers}
    fc = [l for n, l in layers.items() if "linear_as_conv" in n]
    assert len(fc) == 2 and [str(l.problem.desc) for l in fc] == ["mb1ic20ih9oc80oh9kh1ph0", "mb1ic80ih9oc20oh9kh1ph0"]
    assert [op.kind for op in fc[0].problem.post_ops] == ["gelu_erf"]
    ops = [o.layer.op for o in imp.ops]
    assert [(op.kind, op.eps) for op in ops if op.kind == "norm"] == [("norm", 1e-6)]
    boundaries = {n.name for n in imp.net.nodes if type(n).__name__ == "Boundary"}
    assert {"permute_2", "norm2", "permute_3"} <= boundaries           # a LayerNorm alone stays as written
    for layout in ("nhwc", "nChw16c"):              # 20 channels: a tail in 16-blocks
        om = generator.optimize(m, x, measure=False, assignment=layout)
        with torch.inference_mode():
            ref, got = m(x), om(x)
        assert float((got - ref).abs().max() / ref.abs().max()) <= 1e-5, layout


def test_identity_and_dropout_do_not_cut_a_segment():
    torch.manual_seed(SEED)
    m = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Identity(), nn.Dropout(0.3), nn.Conv2d(8, 8, 1)).eval()
    x = torch.randn(1, 3, 8, 8)
    imp = import_model(m, x)
    assert [type(n).__name__ for n in imp.net.nodes] == ["ConvLayer", "ConvLayer"]
    notes = []
    om = generator.optimize(m, x, measure=False, log=notes.append)
    assert notes == ["segment 0: 2 layers in one module"]
    with torch.inference_mode():
        assert float((om(x) - m(x)).abs().max() / m(x).abs().max()) <= 1e-5


class InPlace(nn.Module):
    """In-place ops on tensors read again after them: eager mode reads the changed tensor there."""

    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.a(x)
        z = self.b(y)
        y.mul_(0.5)                      # y is read again below: the halved y
        w = self.act(z)                  # fused into b (its only reader)
        s = self.b(y)
        t = torch.sigmoid_(s)            # s is read again below, as sigmoid(s)
        return w + t + s + y


def test_an_in_place_op_is_seen_by_every_reader_after_it():
    torch.manual_seed(SEED)
    m, x = InPlace().eval(), torch.randn(1, 3, 8, 8)
    imp = import_model(m, x)
    assert {"mul_", "sigmoid_"} <= {n.name for n in imp.net.nodes}
    om = generator.optimize(m, x, measure=False)
    with torch.inference_mode():
        ref, got = m(x), om(x)
    assert float((got - ref).abs().max() / ref.abs().max()) <= 1e-5


class InPlaceView(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 1)

    def forward(self, x):
        y = self.a(x)
        y[:, :4].relu_()                 # changes y through a view of it
        return self.b(y)


def test_an_in_place_change_through_a_view_is_refused_in_one_line():
    m, x = InPlaceView().eval(), torch.randn(1, 3, 8, 8)
    with pytest.raises(UnsupportedError, match=r"relu_ changes getitem in place, a view of a, which is read after it"):
        generator.optimize(m, x, measure=False)


class PoolIndices(nn.Module):
    """An in-place change of one item of a tuple that is no view (max pool with its indices)."""

    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 1)

    def forward(self, x):
        out, idx = F.max_pool2d(self.a(x), 2, return_indices=True)
        out.relu_()
        return self.b(out) + idx.float()


def test_an_item_of_a_tuple_is_no_view():
    torch.manual_seed(SEED)
    m, x = PoolIndices().eval(), torch.randn(1, 3, 8, 8)
    om = generator.optimize(m, x, measure=False)
    with torch.inference_mode():
        ref, got = m(x), om(x)
    assert float((got - ref).abs().max() / ref.abs().max()) <= 1e-5
