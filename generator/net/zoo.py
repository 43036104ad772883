"""A zoo of small networks of the architectures people bring, written for kgen's tests and for `kgen net`
(``--model=zoo:NAME``): random weights, batch 1, each with its example input shape. None of them was
tuned for: they hold the ops between the convolutions that ResNet-50 has little of (concatenation,
pooling, gating products, squeeze-excitation, dilations, 1D and 3D convolutions, LayerNorm, Linear,
upsampling).

`ZOO` maps a name to (factory, input shape); `build(name)` gives (model in eval mode, example input).
Importing this module imports torch.
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from ..errors import InputError


def _cbr(ci: int, co: int, k: int = 3, s: int = 1, d: int = 1, g: int = 1, act=nn.ReLU) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(ci, co, k, s, d * (k // 2), dilation=d, groups=g, bias=False),
                         nn.BatchNorm2d(co), act())


class BasicBlock(nn.Module):
    def __init__(self, ci: int, co: int, s: int = 1):
        super().__init__()
        self.c1 = _cbr(ci, co, 3, s)
        self.c2 = nn.Sequential(nn.Conv2d(co, co, 3, 1, 1, bias=False), nn.BatchNorm2d(co))
        self.down = None if s == 1 and ci == co else nn.Sequential(nn.Conv2d(ci, co, 1, s, bias=False), nn.BatchNorm2d(co))

    def forward(self, x):
        idn = x if self.down is None else self.down(x)
        return F.relu(self.c2(self.c1(x)) + idn)


class ResNetBasic(nn.Module):
    """ResNet-18-style: stem, max pool, basic blocks, global pool, Linear."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 32, 7, 2), nn.MaxPool2d(3, 2, 1))
        self.body = nn.Sequential(BasicBlock(32, 32), BasicBlock(32, 64, 2), BasicBlock(64, 64), BasicBlock(64, 128, 2))
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.body(self.stem(x)), 1), 1))


class InceptionBlock(nn.Module):
    def __init__(self, ci: int, c1: int, c3r: int, c3: int, c5r: int, c5: int, cp: int):
        super().__init__()
        self.b1 = _cbr(ci, c1, 1)
        self.b3 = nn.Sequential(_cbr(ci, c3r, 1), _cbr(c3r, c3, 3))
        self.b5 = nn.Sequential(_cbr(ci, c5r, 1), _cbr(c5r, c5, 5))
        self.bp = nn.Sequential(nn.MaxPool2d(3, 1, 1), _cbr(ci, cp, 1))

    def forward(self, x):
        return torch.cat([self.b1(x), self.b3(x), self.b5(x), self.bp(x)], 1)


class Inception(nn.Module):
    """GoogLeNet-style: parallel 1x1/3x3/5x5/pool branches joined by torch.cat."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 32, 3, 2), nn.MaxPool2d(3, 2, 1))
        self.i1 = InceptionBlock(32, 16, 24, 32, 4, 8, 8)
        self.i2 = InceptionBlock(64, 32, 32, 48, 8, 24, 16)
        self.fc = nn.Linear(120, 10)

    def forward(self, x):
        x = self.i2(F.max_pool2d(self.i1(self.stem(x)), 3, 2, 1))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class SqueezeExcite(nn.Module):
    def __init__(self, c: int, r: int = 4, gate=nn.Hardsigmoid, act=nn.ReLU):
        super().__init__()
        self.fc1, self.act, self.fc2, self.gate = nn.Conv2d(c, c // r, 1), act(), nn.Conv2d(c // r, c, 1), gate()

    def forward(self, x):
        return x * self.gate(self.fc2(self.act(self.fc1(F.adaptive_avg_pool2d(x, 1)))))


class InvertedResidual(nn.Module):
    """MobileNetV3's and EfficientNet's block: expand, depthwise, squeeze-excitation, project."""

    def __init__(self, ci: int, e: int, co: int, k: int, s: int, act=nn.Hardswish, gate=nn.Hardsigmoid, se: bool = True):
        super().__init__()
        self.expand = _cbr(ci, e, 1, act=act) if e != ci else nn.Identity()
        self.dw = _cbr(e, e, k, s, g=e, act=act)
        self.se = SqueezeExcite(e, 4, gate, nn.ReLU if act is nn.Hardswish else nn.SiLU) if se else nn.Identity()
        self.project = nn.Sequential(nn.Conv2d(e, co, 1, bias=False), nn.BatchNorm2d(co))
        self.res = s == 1 and ci == co

    def forward(self, x):
        y = self.project(self.se(self.dw(self.expand(x))))
        return y + x if self.res else y


class MobileNetV3Small(nn.Module):
    """MobileNetV3-style: hardswish, squeeze-excitation gating with hardsigmoid."""

    def __init__(self):
        super().__init__()
        self.stem = _cbr(3, 16, 3, 2, act=nn.Hardswish)
        self.blocks = nn.Sequential(
            InvertedResidual(16, 16, 16, 3, 2, nn.ReLU), InvertedResidual(16, 72, 24, 3, 2, nn.ReLU, se=False),
            InvertedResidual(24, 88, 24, 3, 1, nn.ReLU, se=False), InvertedResidual(24, 96, 40, 5, 2),
            InvertedResidual(40, 240, 40, 5, 1), InvertedResidual(40, 120, 48, 5, 1))
        self.last = _cbr(48, 288, 1, act=nn.Hardswish)
        self.fc = nn.Linear(288, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.last(self.blocks(self.stem(x))), 1), 1))


class EfficientNetSmall(nn.Module):
    """EfficientNet-style MBConv: SiLU, squeeze-excitation gating with sigmoid."""

    def __init__(self):
        super().__init__()
        self.stem = _cbr(3, 24, 3, 2, act=nn.SiLU)
        cfg = [(24, 24, 16, 3, 1), (16, 64, 24, 3, 2), (24, 96, 24, 3, 1), (24, 96, 40, 5, 2), (40, 160, 40, 5, 1)]
        self.blocks = nn.Sequential(*(InvertedResidual(ci, e, co, k, s, nn.SiLU, nn.Sigmoid) for ci, e, co, k, s in cfg))
        self.head = _cbr(40, 160, 1, act=nn.SiLU)
        self.fc = nn.Linear(160, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.head(self.blocks(self.stem(x))), 1), 1))


class RegNetBlock(nn.Module):
    def __init__(self, ci: int, co: int, s: int, g: int):
        super().__init__()
        self.a = _cbr(ci, co, 1)
        self.b = _cbr(co, co, 3, s, g=co // g)
        self.se = SqueezeExcite(co, 4, nn.Sigmoid)
        self.c = nn.Sequential(nn.Conv2d(co, co, 1, bias=False), nn.BatchNorm2d(co))
        self.down = None if s == 1 and ci == co else nn.Sequential(nn.Conv2d(ci, co, 1, s, bias=False), nn.BatchNorm2d(co))

    def forward(self, x):
        idn = x if self.down is None else self.down(x)
        return F.relu(self.c(self.se(self.b(self.a(x)))) + idn)


class RegNetSmall(nn.Module):
    """RegNetY-style: grouped 3x3 convolutions and squeeze-excitation in residual blocks."""

    def __init__(self):
        super().__init__()
        self.stem = _cbr(3, 32, 3, 2)
        self.body = nn.Sequential(RegNetBlock(32, 48, 2, 16), RegNetBlock(48, 48, 1, 16), RegNetBlock(48, 96, 2, 16),
                                  RegNetBlock(96, 96, 1, 16))
        self.fc = nn.Linear(96, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.body(self.stem(x)), 1), 1))


class ASPP(nn.Module):
    """DeepLab's ASPP head: dilations 6/12/18 and an image pool, concatenated, projected by a 1x1."""

    def __init__(self, ci: int = 64, c: int = 48):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, ci, 3, 2))
        self.b0 = _cbr(ci, c, 1)
        self.b1, self.b2, self.b3 = (_cbr(ci, c, 3, d=d) for d in (6, 12, 18))
        self.pool = _cbr(ci, c, 1)
        self.project = _cbr(5 * c, c, 1)
        self.cls = nn.Conv2d(c, 8, 1)

    def forward(self, x):
        x = self.stem(x)
        p = self.pool(F.adaptive_avg_pool2d(x, 1)).expand(-1, -1, x.shape[2], x.shape[3])
        y = torch.cat([self.b0(x), self.b1(x), self.b2(x), self.b3(x), p], 1)
        return self.cls(self.project(y))


class WaveNet(nn.Module):
    """WaveNet-style Conv1d stack: dilations 1..64 (non-causal), tanh x sigmoid gating, residual and skip sums."""

    def __init__(self, c: int = 32, layers: int = 7):
        super().__init__()
        self.inp = nn.Conv1d(1, c, 1)
        self.filt = nn.ModuleList(nn.Conv1d(c, c, 3, dilation=2 ** i, padding=2 ** i) for i in range(layers))
        self.gate = nn.ModuleList(nn.Conv1d(c, c, 3, dilation=2 ** i, padding=2 ** i) for i in range(layers))
        self.res = nn.ModuleList(nn.Conv1d(c, c, 1) for _ in range(layers))
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(c, c, 1), nn.ReLU(), nn.Conv1d(c, 16, 1))

    def forward(self, x):
        x = self.inp(x)
        skip = 0
        for f, g, r in zip(self.filt, self.gate, self.res):
            z = torch.tanh(f(x)) * torch.sigmoid(g(x))
            x = r(z) + x
            skip = skip + z
        return self.out(skip)


class Conv3dNet(nn.Module):
    """A small 3D convolutional network: Conv3d + BatchNorm3d + ReLU + MaxPool3d."""

    def __init__(self):
        super().__init__()

        def c3(ci, co):
            return nn.Sequential(nn.Conv3d(ci, co, 3, padding=1, bias=False), nn.BatchNorm3d(co), nn.ReLU())
        self.f = nn.Sequential(c3(3, 16), nn.MaxPool3d(2), c3(16, 32), c3(32, 32), nn.MaxPool3d(2), c3(32, 64))
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool3d(self.f(x), 1), 1))


class ConvNeXtBlock(nn.Module):
    def __init__(self, c: int):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 7, padding=3, groups=c)
        self.norm = nn.LayerNorm(c)
        self.fc1, self.fc2 = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)

    def forward(self, x):
        y = self.dw(x).permute(0, 2, 3, 1)
        y = self.fc2(F.gelu(self.fc1(self.norm(y)))).permute(0, 3, 1, 2)
        return x + y


class ConvNeXtSmall(nn.Module):
    """ConvNeXt-style: patchify stem, 7x7 depthwise, LayerNorm, Linear MLP with GELU."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 48, 4, 4)
        self.s1 = nn.Sequential(ConvNeXtBlock(48), ConvNeXtBlock(48))
        self.down = nn.Conv2d(48, 96, 2, 2)
        self.s2 = nn.Sequential(ConvNeXtBlock(96), ConvNeXtBlock(96))
        self.fc = nn.Linear(96, 10)

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.s2(self.down(self.s1(self.stem(x)))), 1), 1))


class UNetSmall(nn.Module):
    """U-Net-style: max-pooled encoder, decoder upsampled by transposed and nearest steps, skip concats."""

    def __init__(self):
        super().__init__()
        self.e1 = nn.Sequential(_cbr(3, 16), _cbr(16, 16))
        self.e2 = nn.Sequential(_cbr(16, 32), _cbr(32, 32))
        self.mid = nn.Sequential(_cbr(32, 64), _cbr(64, 64))
        self.up2 = nn.ConvTranspose2d(64, 32, 2, 2)
        self.d2 = nn.Sequential(_cbr(64, 32), _cbr(32, 32))
        self.up1 = nn.Upsample(scale_factor=2, mode="nearest")
        self.d1 = nn.Sequential(_cbr(48, 16), _cbr(16, 16))
        self.out = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        a = self.e1(x)
        b = self.e2(F.max_pool2d(a, 2))
        m = self.mid(F.max_pool2d(b, 2))
        y = self.d2(torch.cat([self.up2(m), b], 1))
        return self.out(self.d1(torch.cat([self.up1(y), a], 1)))


class DenseBlockNet(nn.Module):
    """DenseNet-style: every layer reads the concatenation of all before it; average-pooled transitions."""

    def __init__(self, growth: int = 16, layers: int = 4):
        super().__init__()
        self.stem = _cbr(3, 32, 3, 2)
        self.b1 = nn.ModuleList(nn.Sequential(_cbr(32 + i * growth, 32, 1), _cbr(32, growth, 3)) for i in range(layers))
        self.trans = nn.Sequential(_cbr(32 + layers * growth, 48, 1), nn.AvgPool2d(2))
        self.b2 = nn.ModuleList(nn.Sequential(_cbr(48 + i * growth, 32, 1), _cbr(32, growth, 3)) for i in range(layers))
        self.fc = nn.Linear(48 + layers * growth, 10)

    def forward(self, x):
        x = self.stem(x)
        for blk in self.b1:
            x = torch.cat([x, blk(x)], 1)
        x = self.trans(x)
        for blk in self.b2:
            x = torch.cat([x, blk(x)], 1)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


#: name -> (factory, example input shape)
ZOO = {
    "resnet_basic": (ResNetBasic, (1, 3, 112, 112)),
    "inception": (Inception, (1, 3, 112, 112)),
    "mobilenet_v3": (MobileNetV3Small, (1, 3, 128, 128)),
    "efficientnet": (EfficientNetSmall, (1, 3, 128, 128)),
    "regnet": (RegNetSmall, (1, 3, 112, 112)),
    "aspp": (ASPP, (1, 3, 128, 128)),
    "wavenet": (WaveNet, (1, 1, 2048)),
    "conv3d": (Conv3dNet, (1, 3, 16, 32, 32)),
    "convnext": (ConvNeXtSmall, (1, 3, 112, 112)),
    "unet": (UNetSmall, (1, 3, 64, 64)),
    "densenet": (DenseBlockNet, (1, 3, 96, 96)),
}


def input_shape(name: str, mb: int = 1, scale: float = 1.0) -> tuple[int, ...]:
    """The example input's shape of the zoo's model `name` (`scale` < 1 shrinks its spatial size)."""
    if name not in ZOO:
        raise InputError(f"no zoo model named {name!r} (the zoo: {', '.join(ZOO)})")
    shape = ZOO[name][1]
    return (mb, shape[1]) + tuple(max(8, int(d * scale)) for d in shape[2:])


def build(name: str, scale: float = 1.0, seed: int = 0):
    """(the zoo's model `name` in eval mode with seeded random weights and BatchNorm statistics, its
    example input). `scale` < 1 shrinks the input's spatial size (tests)."""
    shape = input_shape(name, 1, scale)
    torch.manual_seed(seed)
    return model(name), torch.randn(shape)


def model(name: str):
    """The zoo's model `name` in eval mode, its BatchNorm statistics random (from torch's RNG)."""
    if name not in ZOO:
        raise InputError(f"no zoo model named {name!r} (the zoo: {', '.join(ZOO)})")
    model = ZOO[name][0]()
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    return model.eval()
