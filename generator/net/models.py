"""The models `kgen net --model=torchvision:NAME` names: torchvision's own when it imports, else these
definitions of the same architectures (layer for layer torchvision 0.28's ``resnet50``,
``resnext50_32x4d`` and ``mobilenet_v2``, random init as ``weights=None`` gives, no download).

Why a copy: the torchvision wheels this project can install are built against CUDA PyTorch (their
``_C`` extension needs libtorch_cuda), and PyTorch here is the CPU build, so ``import torchvision``
fails. The definitions below follow torchvision/models/resnet.py and mobilenetv2.py.
"""
from __future__ import annotations

from typing import Callable

from ..errors import UnsupportedError


def torchvision_model(name: str, log: Callable[[str], None] | None = None):
    """torchvision's model `name` (``weights=None``), or this module's copy when torchvision does not
    import; `UnsupportedError` for a name neither has."""
    try:
        import torchvision.models as tvm
        fn = getattr(tvm, name, None)
        if fn is None or name not in tvm.list_models():
            raise UnsupportedError(f"torchvision has no model '{name}'")
        return fn(weights=None)
    except (ImportError, RuntimeError, OSError) as e:
        if name not in MODELS:
            raise UnsupportedError(f"torchvision does not import ({str(e).splitlines()[0][:80]}) and kgen has no copy "
                                   f"of '{name}' (it has: {', '.join(MODELS)})") from None
        if log:
            log(f"torchvision does not import ({str(e).splitlines()[0][:80]}): using kgen's copy of {name}")
        return MODELS[name]()


def _nn():
    import torch.nn as nn
    return nn


def resnet50(num_classes: int = 1000):
    return _resnet50(1, 64, num_classes)


def resnext50_32x4d(num_classes: int = 1000):
    """ResNet-50 whose 3x3 convs are 32 groups, 4 channels a group in the first stage (torchvision's
    ``groups=32, width_per_group=4``)."""
    return _resnet50(32, 4, num_classes)


def _resnet50(groups: int, width_per_group: int, num_classes: int):
    nn = _nn()

    class Bottleneck(nn.Module):
        expansion = 4

        def __init__(self, inplanes, planes, stride=1, downsample=None):
            super().__init__()
            width = int(planes * (width_per_group / 64.0)) * groups
            self.conv1 = nn.Conv2d(inplanes, width, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.conv2 = nn.Conv2d(width, width, 3, stride, padding=1, groups=groups, bias=False)
            self.bn2 = nn.BatchNorm2d(width)
            self.conv3 = nn.Conv2d(width, planes * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(planes * 4)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = downsample

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            return self.relu(out)

    class ResNet(nn.Module):
        def __init__(self, layers=(3, 4, 6, 3)):
            super().__init__()
            self.inplanes = 64
            self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            self.layer1 = self._make_layer(64, layers[0])
            self.layer2 = self._make_layer(128, layers[1], 2)
            self.layer3 = self._make_layer(256, layers[2], 2)
            self.layer4 = self._make_layer(512, layers[3], 2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(512 * 4, num_classes)
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)

        def _make_layer(self, planes, blocks, stride=1):
            downsample = None
            if stride != 1 or self.inplanes != planes * 4:
                downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes * 4, 1, stride, bias=False),
                                           nn.BatchNorm2d(planes * 4))
            layers = [Bottleneck(self.inplanes, planes, stride, downsample)]
            self.inplanes = planes * 4
            layers += [Bottleneck(self.inplanes, planes) for _ in range(1, blocks)]
            return nn.Sequential(*layers)

        def forward(self, x):
            import torch
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(torch.flatten(self.avgpool(x), 1))

    return ResNet()


def mobilenet_v2(num_classes: int = 1000):
    nn = _nn()

    def make_divisible(v, divisor=8):
        new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
        return new_v + divisor if new_v < 0.9 * v else new_v

    class ConvBNReLU(nn.Sequential):
        def __init__(self, inp, out, kernel=3, stride=1, groups=1):
            super().__init__(nn.Conv2d(inp, out, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
                             nn.BatchNorm2d(out), nn.ReLU6(inplace=True))

    class InvertedResidual(nn.Module):
        def __init__(self, inp, oup, stride, expand_ratio):
            super().__init__()
            hidden = int(round(inp * expand_ratio))
            self.use_res_connect = stride == 1 and inp == oup
            layers = [ConvBNReLU(inp, hidden, 1)] if expand_ratio != 1 else []
            layers += [ConvBNReLU(hidden, hidden, stride=stride, groups=hidden),
                       nn.Conv2d(hidden, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup)]
            self.conv = nn.Sequential(*layers)

        def forward(self, x):
            return x + self.conv(x) if self.use_res_connect else self.conv(x)

    class MobileNetV2(nn.Module):
        def __init__(self):
            super().__init__()
            settings = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
                        [6, 160, 3, 2], [6, 320, 1, 1]]
            inp, last = 32, 1280
            features = [ConvBNReLU(3, inp, stride=2)]
            for t, c, n, s in settings:
                out = make_divisible(c)
                for i in range(n):
                    features.append(InvertedResidual(inp, out, s if i == 0 else 1, t))
                    inp = out
            features.append(ConvBNReLU(inp, last, 1))
            self.features = nn.Sequential(*features)
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(last, num_classes))
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out")
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.ones_(m.weight)
                    nn.init.zeros_(m.bias)
                elif isinstance(m, nn.Linear):
                    nn.init.normal_(m.weight, 0, 0.01)
                    nn.init.zeros_(m.bias)

        def forward(self, x):
            import torch
            x = nn.functional.adaptive_avg_pool2d(self.features(x), (1, 1))
            return self.classifier(torch.flatten(x, 1))

    return MobileNetV2()


MODELS = {"resnet50": resnet50, "resnext50_32x4d": resnext50_32x4d, "mobilenet_v2": mobilenet_v2}
