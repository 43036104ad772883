"""The float64 side of the quantized-network tests (`test_net_quant.py`, `test_net_pt2e.py`): models
quantized by torch.ao FX and by PT2E on fixed random batches, each quantized graph computed node by
node in float64 from the documented formulas (PyTorch's quantize, oneDNN's convolution with scales,
zero points and post-ops), and each kgen layer against the formula on the inputs it was given."""
from __future__ import annotations

import copy
import math
import warnings

import numpy as np
import torch

from generator.net.graph import ConvLayer

nn = torch.nn
SEED = 23


class QSmall(nn.Module):
    """A stem conv+BN+ReLU, a max pool, a bottleneck with a residual add_relu, a grouped strided conv,
    a depthwise conv with ReLU6 and a plain residual add, then the global average pool and a Linear
    (kgen's 1x1 conv of the pooled tensor): 20-channel tails in blocked layouts, every quantized op kgen
    runs."""

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


def calibration_batches(shape, n=4, seed=SEED):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=g) for _ in range(n)]


def quantize_fx(model, x, batches):
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pm = prepare_fx(copy.deepcopy(model).eval(), get_default_qconfig_mapping("x86"), (x,))
        with torch.no_grad():
            for b in batches:
                pm(b)
        return convert_fx(pm)


# ----------------------------------------------------------------------------- the float64 model
#: the output parameters torch.ao's x86 backend fixes for these activations on quint8 tensors
FIXED_QPARAMS = {"Sigmoid": (1 / 256, 0), "Hardsigmoid": (1 / 256, 0), "Tanh": (2 / 256, 128)}


def function_ref(kind: str, f, alpha: float = 0.0, beta: float = 0.0):
    """An activation in float64 from its formula (oneDNN's eltwise kinds and PyTorch's modules)."""
    if kind == "relu":
        return np.where(f > 0, f, alpha * f)
    if kind == "clip":
        return np.clip(f, alpha, beta)
    if kind == "linear":
        return alpha * f + beta
    if kind == "hardswish":                          # x * relu6(x + 3) / 6
        return f * np.clip(f + 3, 0, 6) / 6
    if kind == "hardsigmoid":                        # relu6(x + 3) / 6
        return np.clip(f + 3, 0, 6) / 6
    if kind == "logistic":
        return 1 / (1 + np.exp(-f))
    if kind == "swish":                              # x * logistic(alpha * x)
        return f / (1 + np.exp(-alpha * f))
    if kind == "gelu_erf":                           # x * Phi(x)
        return 0.5 * f * (1 + np.vectorize(math.erf)(f / math.sqrt(2)))
    if kind == "tanh":
        return np.tanh(f)
    if kind == "elu":
        return np.where(f > 0, f, alpha * np.expm1(np.minimum(f, 0)))
    raise AssertionError(f"no formula for {kind}")


def quantize_ref(v, scale, zp):
    """PyTorch's quantize to quint8: round to nearest even, saturate."""
    return np.clip(np.round(v / np.float64(np.float32(scale))) + zp, 0, 255)


def dequantize_ref(q, scale, zp):
    return (q - zp) * np.float64(np.float32(scale))


def conv_ref(q, w, stride, pad, groups):
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


def reference_fx(qm, x: np.ndarray) -> np.ndarray:
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
            env[n], meta[n] = quantize_ref(arg(n.args[0]), s, z), (s, z)
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
                acc = conv_ref(v, wq, m.stride, m.padding, m.groups) if kind != "Linear" else v @ wq.T
                shape = (1, -1, 1, 1) if kind != "Linear" else (1, -1)
                f = np.float64(np.float32(s_in)) * ws.reshape(shape) * acc + b.reshape(shape)
                if kind == "ConvReLU2d":
                    f = np.maximum(f, 0)
                env[n], meta[n] = quantize_ref(f, m.scale, m.zero_point), (m.scale, m.zero_point)
            elif kind in ("Hardswish", "ELU", "LeakyReLU", *FIXED_QPARAMS):
                f = dequantize_ref(env[src], *meta[src])
                f = function_ref({"Hardswish": "hardswish", "ELU": "elu", "LeakyReLU": "relu", "Sigmoid": "logistic",
                                  "Hardsigmoid": "hardsigmoid", "Tanh": "tanh"}[kind], f,
                                 getattr(m, "alpha", getattr(m, "negative_slope", 0.0)))
                meta[n] = FIXED_QPARAMS.get(kind) or (float(m.scale), int(m.zero_point))
                env[n] = quantize_ref(f, *meta[n])
            elif kind in ("SiLU", "GELU"):              # float, between a dequantize and a quantize
                assert kind == "SiLU" or m.approximate == "none"
                env[n] = function_ref("swish" if kind == "SiLU" else "gelu_erf", env[src], 1.0)
            elif kind in ("ReLU", "ReLU6"):
                s, z = meta[src]
                hi = quantize_ref(6.0, s, z) if kind == "ReLU6" else 255
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
                env[n], meta[n] = quantize_ref(dequantize_ref(env[src], s, z).mean(axis=(2, 3), keepdims=True), s, z), meta[src]
            else:
                raise AssertionError(f"the reference has no {kind}")
        elif n.op == "call_function" and n.target in (torch.ops.quantized.add, torch.ops.quantized.add_relu,
                                                        torch.ops.quantized.mul):
            a, b = n.args[:2]
            s, z = arg(n.args[2]), int(arg(n.args[3]))
            da, db = dequantize_ref(env[a], *meta[a]), dequantize_ref(env[b], *meta[b])
            f = da * db if n.target is torch.ops.quantized.mul else da + db
            if n.target is torch.ops.quantized.add_relu:
                f = np.maximum(f, 0)
            env[n], meta[n] = quantize_ref(f, s, z), (s, z)
        elif n.op == "call_function" and n.target is torch.cat:
            parts = n.args[0]
            assert len({meta[a] for a in parts}) == 1        # one scale: the bytes join
            env[n], meta[n] = np.concatenate([env[a] for a in parts], axis=n.args[1]), meta[parts[0]]
        elif n.op == "call_function" and n.target is torch.flatten:
            env[n], meta[n] = env[n.args[0]].reshape(env[n.args[0]].shape[0], -1), meta[n.args[0]]
        elif n.op == "call_method" and n.target == "dequantize":
            env[n] = dequantize_ref(env[n.args[0]], *meta[n.args[0]])
        elif n.op == "output":
            return env[n.args[0]]
        else:
            raise AssertionError(f"the reference has no {n.op} {n.target}")
    raise AssertionError("no output")


def units_apart(a, b, scale) -> np.ndarray:
    return np.round(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)) / np.float32(scale))


# ------------------------------------------------------------------------------------------- PT2E
def quantize_pt2e(model, x, batches):
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


def max_pool_ref(v, k, st, p):
    vp = np.pad(v, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])), constant_values=-np.inf)
    oh, ow = (v.shape[2] + 2 * p[0] - k[0]) // st[0] + 1, (v.shape[3] + 2 * p[1] - k[1]) // st[1] + 1
    return np.max([vp[:, :, i:i + st[0] * oh:st[0], j:j + st[1] * ow:st[1]] for i in range(k[0]) for j in range(k[1])],
                  axis=0)


def reference_pt2e(qm, x: np.ndarray) -> np.ndarray:
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
            env[n] = conv_ref(v, w, stride, pad, groups) + (b.reshape(1, -1, 1, 1) if b is not None else 0)
        elif t in ("aten.relu.default", "aten.relu_.default"):
            env[n] = np.maximum(arg(0, n), 0)
        elif t in ("aten.hardtanh.default", "aten.hardtanh_.default"):
            env[n] = np.clip(arg(0, n), arg(1, n), arg(2, n))
        elif t in ("aten.add.Tensor", "aten.add_.Tensor"):
            env[n] = arg(0, n) + arg(1, n)
        elif t == "aten.max_pool2d.default":
            k = arg(1, n)
            env[n] = max_pool_ref(arg(0, n), k, arg(2, n) or k, arg(3, n, [0, 0]))
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
        elif t == "aten.dropout.default":
            assert arg(2, n) is False                       # eval: the input
            env[n] = arg(0, n)
        elif t == "aten.linear.default":
            v, w, b = arg(0, n), arg(1, n), arg(2, n)
            env[n] = v @ w.T + (b if b is not None else 0)
        elif n.op == "output":
            return env[n.args[0][0]]
        else:
            raise AssertionError(f"the reference has no {n.op} {t}")
    raise AssertionError("no output")


def last_scale(qm) -> float:
    """The scale of the last dequantize before a PT2E model's output."""
    node = [n for n in qm.graph.nodes if n.op == "output"][0].args[0][0]
    while not str(node.target).startswith("quantized_decomposed.dequantize"):
        node = node.args[0]
    return node.args[1]


# ------------------------------------------------------------------- layer by layer, on kgen's own inputs
def layer_formula(layer, ins: list[np.ndarray]) -> np.ndarray:
    """The u8 result of one kgen layer or op in float64 from the documented formulas (oneDNN's convolution
    with scales, zero points and post-ops; dequantize, compute, quantize for an op), on the u8 inputs
    it was given (logical N x C x H x W); a layer without a destination scale (u8:s8:f32) gives its
    float result."""
    from generator.problem.attr import Sum

    def eltwise(f, op):
        if op.kind in ("hardswish", "hardsigmoid"):
            assert (op.alpha, op.beta) == (1 / 6, 0.5), op           # PyTorch's
        return function_ref(op.kind, f, op.alpha, op.beta)

    f32 = lambda v: np.asarray(v, np.float32).astype(np.float64)        # noqa: E731 -- kgen's scales are f32
    if isinstance(layer, ConvLayer):
        p, q = layer.problem, layer.quant
        d = p.desc
        assert (d.dh, d.dw, d.ndims) == (0, 0, 4)
        acc = conv_ref(ins[0] - float(q.get("src_zp", 0)), layer.weights.astype(np.float64), (d.sh, d.sw), (d.ph, d.pw), d.g)
        f = f32(q["src_scale"]) * f32(q["wei_scale"]).reshape(1, -1, 1, 1) * acc
        if layer.bias is not None:
            f = f + f32(layer.bias).reshape(1, -1, 1, 1)
        for op in p.post_ops:
            f = f + f32(op.scale) * (ins[1] - op.zero_point) if isinstance(op, Sum) else eltwise(f, op)
        return quantize_ref(f, q["dst_scale"], int(q.get("dst_zp", 0))) if "dst_scale" in q else f
    op = layer.op
    deq = [dequantize_ref(v, *qp) for v, qp in zip(ins, op.quant)]
    if op.kind == "binary":
        f = deq[0] * deq[1] if op.alg == "mul" else deq[0] + deq[1]
    elif op.kind == "eltwise":
        f = deq[0]                      # its function is applied below
    elif op.kind == "cat":
        f = np.concatenate(deq, axis=1)
    elif op.alg == "max":
        f = max_pool_ref(deq[0], op.kernel, op.stride, op.pad)
    else:
        assert not any(op.pad) and op.kernel == op.stride, op
        n, c, h, w = deq[0].shape
        kh, kw = op.kernel
        f = deq[0][:, :, :h // kh * kh, :w // kw * kw].reshape(n, c, h // kh, kh, w // kw, kw).mean(axis=(3, 5))
    if op.eltwise is not None:
        f = eltwise(f, op.eltwise)
    return quantize_ref(f, *op.quant[-1])


def layer_units(om, x) -> dict[str, np.ndarray]:
    """{kgen layer or op: how far its u8 result is from `layer_formula` on its own inputs, in units}
    for a module `optimize` built with segments=False (a module per kgen node), run on `x` (the
    layers' inputs and results as `net.layercheck` captures them; the formula is this file's own)."""
    from generator.net.layercheck import layer_io

    return {name: np.abs(out.astype(np.float64) - layer_formula(layer, [a.astype(np.float64) for a in ins]))
            for name, (layer, ins, out) in layer_io(om, x).items()}


def bn_statistics(model, shape, seed=SEED):
    """`model` with its BatchNorms' running statistics measured on random batches (a random network's
    activations then keep their scale from layer to layer, as a trained one's do, instead of growing or
    vanishing: a random MobileNetV2's output is 1e-9)."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None                       # the average over all batches
    model.train()
    with torch.no_grad():
        for b in calibration_batches(shape, n=4, seed=seed):
            model(b)
    return model.eval()


def pytorch_layer_units(qm, net, x) -> dict[str, np.ndarray]:
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

    return {n.name: np.abs(u8(n.dst) - layer_formula(n, [u8(t) for t in n.inputs])) for n in net.kernels}
