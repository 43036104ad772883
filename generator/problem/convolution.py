"""Convolution problems: a benchdnn descriptor plus data types, memory formats, bias and post-ops.

`ConvProblem` is what a convolution kernel is generated from. Its tensors are MemoryDescs over
oneDNN's logical dims: src (N, IC, [D,] [H,] W), weights (G, OC/G, IC/G, [KD,] [KH,] KW) when the
descriptor has groups, else (OC, IC, ...), dst (N, OC, ...). `reference()` is the float64 NumPy
model (`conv_math.conv_reference`) followed by the destination type's rounding and saturation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import FormatError, UnsupportedError
from ..layout import MemoryDesc, get_dtype
from ..layout.dtypes import DataType
from .conv import ConvCase, ConvDesc
from .conv_math import conv_reference
from .reorder import convert_values

# (src, wei, dst) -> accumulator: floats accumulate in f32, s8 x s8 in s32
ACCUMULATORS = {("f32", "f32", "f32"): "f32", ("f16", "f16", "f16"): "f32", ("bf16", "bf16", "bf16"): "f32",
                ("s8", "s8", "s32"): "s32"}


WINOGRAD_TOLERANCE = {"winograd": 2e-5, "winograd_f2": 1e-5, "winograd_f4": 2e-5, "winograd_f6": 1e-4}


def _plain_tag(tag: str) -> str:
    """benchdnn's default `any` lets the implementation choose: we take the plain abx layout."""
    return "abx" if tag in ("any", "") else tag


@dataclass(frozen=True)
class ConvProblem:
    desc: ConvDesc
    src: MemoryDesc
    wei: MemoryDesc
    dst: MemoryDesc
    acc: DataType
    bias: bool = True
    relu: bool = False
    alg: str = "direct"

    @staticmethod
    def from_case(case: ConvCase) -> "ConvProblem":
        if case.unsupported:
            raise UnsupportedError(", ".join(case.unsupported) + " is not supported")
        d = case.desc
        dts = tuple(case.dt)
        if dts not in ACCUMULATORS:
            raise UnsupportedError(f"data types {':'.join(dts)} are not supported "
                                   f"(supported: {', '.join(':'.join(k) for k in ACCUMULATORS)})")
        src = MemoryDesc(d.src_dims, dts[0], _plain_tag(case.stag))
        wei = MemoryDesc(d.wei_dims, dts[1], _plain_tag(case.wtag))
        dst = MemoryDesc(d.dst_dims, dts[2], _plain_tag(case.dtag))
        return ConvProblem(d, src, wei, dst, get_dtype(ACCUMULATORS[dts]), case.with_bias,
                           "relu" in case.post_ops, case.alg)

    def __post_init__(self):
        d = self.desc
        for what, desc, dims in (("src", self.src, d.src_dims), ("weights", self.wei, d.wei_dims),
                                 ("dst", self.dst, d.dst_dims)):
            if desc.dims != tuple(dims):
                raise FormatError(f"{what} descriptor dims {'x'.join(map(str, desc.dims))} do not match the "
                                  f"problem's {'x'.join(map(str, dims))}")

    @property
    def name(self) -> str:
        """Procedural name encoding every parameter (also the kernel's function-name prefix)."""
        parts = [f"conv_{self.alg}", str(self.desc),
                 f"{self.src.dtype.name}_{self.src.format_name()}", f"{self.wei.dtype.name}_{self.wei.format_name()}",
                 f"{self.dst.dtype.name}_{self.dst.format_name()}", "bias" if self.bias else "nobias"]
        if self.relu:
            parts.append("relu")
        return re.sub(r"[^A-Za-z0-9_]", "_", "__".join(parts))

    @property
    def tolerance(self) -> float:
        """Allowed |error| relative to the largest |reference| value. Direct, im2col and indirect
        kernels add integer-valued products exactly, so 0; Winograd's transforms have fractional
        coefficients whose f32 rounding grows with the tile size (measured: 2e-7 for F(4,3) and 5e-7
        for F(6,3) relative to the largest output on IC=17; the bounds leave room for deeper layers)."""
        return WINOGRAD_TOLERANCE.get(self.alg, 0.0)

    # ------------------------------------------------------------------ reference
    def reference(self, src: np.ndarray, wei: np.ndarray, bia: np.ndarray | None) -> np.ndarray:
        """Destination buffer from physical src/weights buffers and a logical bias, in float64."""
        d = self.desc
        x = self.src.from_physical(src).astype(np.float64)
        w = self.wei.from_physical(wei).astype(np.float64).reshape(torch_wei_dims(d))
        sp = d.spatial()
        y = conv_reference(x, w, None if bia is None else np.asarray(bia, np.float64), groups=d.g,
                           strides=[s.s for s in sp], pads_l=[s.p for s in sp], pads_r=[s.p_r for s in sp],
                           dilations=[s.d for s in sp], post_relu=self.relu)
        return self.dst.to_physical(convert_values(y, self.dst.dtype))


def torch_wei_dims(d: ConvDesc) -> tuple[int, ...]:
    """PyTorch's weight layout (OC, IC/G, [KD,] [KH,] KW)."""
    return (d.oc, d.ic // d.g) + tuple(s.k for s in d.spatial())
