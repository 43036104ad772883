"""oneDNN's primitive attributes for a convolution: scales, zero points and the post-op chain, with the
float64 model of each (the specification is ../shared/reference/onednn/attributes_quantization.md and
attributes_post_ops.md).

A quantized convolution computes, per destination element (n, oc, o..)::

    acc  = sum over the taps that read the source (padding taps add nothing)
           of (src - zp_src[ic]) * (wei - zp_wei)                                  exact, in s32
    v    = scale_src * scale_wei[oc] * acc + bias[oc]                               f32
    v    = post_op_k(v) for each post-op in order                                   f32
    dst  = convert(v / scale_dst + zp_dst[oc])     round to nearest even and saturate for integers

Post-ops (`PostOp`):

* `Eltwise` ``KIND[:ALPHA[:BETA[:SCALE]]]``: ``v = scale * f(v; alpha, beta)`` (`eltwise_reference`);
* `Sum` ``sum[:SCALE[:ZERO_POINT[:DATA_TYPE]]]``: ``v += scale * (prior_dst - zero_point)``, the prior
  destination read as DATA_TYPE (same size as the destination type);
* `Binary` ``KIND:DT[:POLICY[:TAG]]``: ``v = v OP src1``, src1 of type DT broadcast ``common``,
  ``per_oc`` or full (``per_tensor``, in TAG's layout; ``any`` = the destination's);
* `Prelu` ``prelu[:POLICY]``: ``v = v > 0 ? v : v * weight`` (f32 weights);
* `DwConv` ``dw:kKsSpP[:DST_DT]``: a depthwise convolution of the result so far; the kernel is then
  two convolutions (`ConvProblem.split_dw`), as benchdnn's reference computes it.

Scales and zero points are runtime values (arrays passed with each call); post-op parameters
(alpha, beta, scales, zero points of `Sum`) are part of the kernel, as in oneDNN.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

import numpy as np

from ..errors import ProblemError

__all__ = ["ELTWISE_KINDS", "BINARY_KINDS", "Eltwise", "Sum", "Binary", "Prelu", "DwConv", "PostOp", "RELU",
           "QuantArg", "eltwise_reference", "binary_reference", "f32"]

#: Eltwise kinds with their forward formula (oneDNN's eltwise primitive; the ``_dst`` kinds differ
#: only in the backward pass, so they compute the same forward values).
ELTWISE_KINDS = ("abs", "clip", "clip_v2", "clip_v2_dst", "elu", "elu_dst", "exp", "exp_dst", "gelu_erf",
                 "gelu_tanh", "hardsigmoid", "hardswish", "linear", "log", "logistic", "logistic_dst", "mish",
                 "pow", "relu", "relu_dst", "round", "soft_relu", "sqrt", "sqrt_dst", "square", "swish", "tanh",
                 "tanh_dst")
BINARY_KINDS = ("add", "sub", "mul", "div", "max", "min", "eq", "ne", "ge", "gt", "le", "lt")
#: Broadcast policies of a binary / prelu second input; an integer mask (bit d: the input varies
#: along dst dim d, e.g. "14" = per (c, h, w), shared by every image) is accepted too.
BINARY_POLICIES = ("common", "per_oc", "per_tensor")


def _check_policy(policy: str, what: str) -> None:
    if policy not in BINARY_POLICIES and not policy.isdigit():
        raise ProblemError(f"{what}: policy '{policy}' is not supported (supported: {', '.join(BINARY_POLICIES)} "
                           f"or an integer mask)")


def policy_mask(policy: str, ndims: int) -> tuple[int, ...]:
    """The dst dims a binary / prelu input varies along."""
    if policy == "common":
        return ()
    if policy == "per_oc":
        return (1,)
    if policy == "per_tensor":
        return tuple(range(ndims))
    return tuple(d for d in range(ndims) if int(policy) >> d & 1)


def f32(x: float) -> float:
    """A parameter as the kernel holds it: rounded to float32."""
    return float(np.float32(x))


def base_kind(kind: str) -> str:
    """The forward formula a kind uses: ``tanh_dst`` computes ``tanh``."""
    return kind[:-4] if kind.endswith("_dst") else kind


def _fmt(v: float) -> str:
    if v == int(v):
        return str(int(v))
    s = repr(float(v))
    return s if "e" in s else s.rstrip("0").rstrip(".")        # 2e-10 keeps its exponent's zero


def _ident(v: float) -> str:
    """A parameter inside a kernel name: 0.5 -> 0p5, -2 -> m2."""
    return _fmt(v).replace("-", "m").replace(".", "p").replace("+", "")


@dataclass(frozen=True)
class Eltwise:
    kind: str
    alpha: float = 0.0
    beta: float = 0.0
    scale: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ELTWISE_KINDS:
            raise ProblemError(f"unknown eltwise post-op '{self.kind}' (known: {', '.join(ELTWISE_KINDS)})")
        for what in ("alpha", "beta", "scale"):
            v = float(getattr(self, what))
            if math.isnan(v):
                raise ProblemError(f"eltwise post-op {self.kind}: {what} is NaN")
            object.__setattr__(self, what, v)
        if base_kind(self.kind) in ("soft_relu",) and self.alpha == 0.0:
            object.__setattr__(self, "alpha", 1.0)      # oneDNN: soft_relu with alpha 0 means alpha 1

    def __str__(self) -> str:
        params = [self.alpha, self.beta, self.scale]
        while len(params) > 0 and params[-1] == (1.0 if len(params) == 3 else 0.0):
            params.pop()
        return ":".join([self.kind] + [_fmt(p) for p in params])

    @property
    def ident(self) -> str:
        return "_".join([self.kind] + [_ident(p) for p in (self.alpha, self.beta, self.scale)])


@dataclass(frozen=True)
class Sum:
    scale: float = 1.0
    zero_point: int = 0
    dt: str | None = None       # the prior destination read as this type (None: the destination's)

    def __str__(self) -> str:
        s = "sum"
        if self.scale != 1.0 or self.zero_point or self.dt:
            s += f":{_fmt(self.scale)}"
        if self.zero_point or self.dt:
            s += f":{self.zero_point}"
        if self.dt:
            s += f":{self.dt}"
        return s

    @property
    def ident(self) -> str:
        return f"sum_{_ident(self.scale)}_{_ident(self.zero_point)}" + (f"_{self.dt}" if self.dt else "")


@dataclass(frozen=True)
class Binary:
    kind: str
    dt: str
    policy: str = "per_tensor"
    tag: str = "any"

    def __post_init__(self) -> None:
        if self.kind not in BINARY_KINDS:
            raise ProblemError(f"unknown binary post-op '{self.kind}' (known: {', '.join(BINARY_KINDS)})")
        _check_policy(self.policy, f"binary post-op {self.kind}")

    def __str__(self) -> str:
        s = f"{self.kind}:{self.dt}"
        if self.policy != "per_tensor" or self.tag != "any":
            s += f":{self.policy}"
        if self.tag != "any":
            s += f":{self.tag}"
        return s

    @property
    def ident(self) -> str:
        return f"{self.kind}_{self.dt}_{self.policy}" + (f"_{self.tag}" if self.tag != "any" else "")


@dataclass(frozen=True)
class Prelu:
    policy: str = "common"

    def __post_init__(self) -> None:
        _check_policy(self.policy, "prelu post-op")

    def __str__(self) -> str:
        return "prelu" if self.policy == "common" else f"prelu:{self.policy}"

    @property
    def ident(self) -> str:
        return f"prelu_{self.policy}"


@dataclass(frozen=True)
class DwConv:
    """``dw:kKsSpP[:DST_DT]``: a depthwise convolution fused after the chain so far (oneDNN's depthwise
    post-op). It reads the destination as computed up to here (in the destination's data type and
    layout), convolves each channel with its own K x .. x K filter (stride S, left padding P, output
    ceil(out / S) per spatial dim), and the post-ops after it apply to its result, of type DST_DT
    (default f32). Its weights (the base weights' type) and bias are runtime inputs."""
    kernel: int
    stride: int
    padding: int
    dt: str = "f32"

    def __post_init__(self) -> None:
        if self.kernel < 1 or self.stride < 1 or self.padding < 0:
            raise ProblemError(f"depthwise post-op {self}: kernel and stride must be positive, padding non-negative")

    def __str__(self) -> str:
        return f"dw:k{self.kernel}s{self.stride}p{self.padding}" + (f":{self.dt}" if self.dt != "f32" else "")

    @property
    def ident(self) -> str:
        return f"dw_k{self.kernel}s{self.stride}p{self.padding}_{self.dt}"


PostOp = Union[Eltwise, Sum, Binary, Prelu, DwConv]
RELU = Eltwise("relu")


@dataclass(frozen=True)
class QuantArg:
    """A scale or zero point of one convolution argument: ``arg`` src / wei / dst, ``policy`` common or
    per-channel (``per_oc`` for scales: wei and dst; ``per_dim_1`` for zero points: src and dst), and
    the data type the values are given in (f32 for scales; s32, s8 or u8 for zero points)."""
    arg: str
    policy: str = "common"
    dt: str = "f32"

    @property
    def per_channel(self) -> bool:
        return self.policy != "common"

    @property
    def ident(self) -> str:
        return f"{self.arg}_{self.policy}" + ("" if self.dt in ("f32", "s32") else f"_{self.dt}")


# ---------------------------------------------------------------------------------- float64 models
def eltwise_reference(v: np.ndarray, op: Eltwise) -> np.ndarray:
    """``scale * f(v; alpha, beta)`` in float64, from oneDNN's eltwise formulas (parameters as f32)."""
    a, b = f32(op.alpha), f32(op.beta)
    k = base_kind(op.kind)
    v = np.asarray(v, np.float64)
    with np.errstate(all="ignore"):
        if k == "relu":
            r = np.where(v > 0, v, a * v)
        elif k == "abs":
            r = np.abs(v)
        elif k in ("clip", "clip_v2"):
            t = np.where(v > a, v, a)
            r = np.where(t > b, b, t)
        elif k == "elu":
            r = np.where(v > 0, v, a * np.expm1(v))
        elif k == "exp":
            r = np.exp(v)
        elif k == "gelu_erf":
            r = 0.5 * v * (1.0 + np.vectorize(math.erf, otypes=[np.float64])(v / math.sqrt(2.0)))
        elif k == "gelu_tanh":
            r = 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))
        elif k == "hardsigmoid":
            r = np.clip(a * v + b, 0.0, 1.0)
        elif k == "hardswish":
            r = v * np.clip(a * v + b, 0.0, 1.0)
        elif k == "linear":
            r = a * v + b
        elif k == "log":
            r = np.log(v)
        elif k == "logistic":
            r = 1.0 / (1.0 + np.exp(-v))
        elif k == "mish":
            r = v * np.tanh(np.logaddexp(0.0, v))
        elif k == "pow":
            r = a * np.power(v, b)
        elif k == "round":
            r = np.rint(v)
        elif k == "soft_relu":
            r = np.logaddexp(0.0, a * v) / a
        elif k == "sqrt":
            r = np.sqrt(v)
        elif k == "square":
            r = v * v
        elif k == "swish":
            r = v / (1.0 + np.exp(-a * v))
        elif k == "tanh":
            r = np.tanh(v)
        else:                                    # pragma: no cover - ELTWISE_KINDS is checked above
            raise ProblemError(f"eltwise kind {op.kind} has no reference")
    return r * f32(op.scale) if op.scale != 1.0 else r


def binary_reference(v: np.ndarray, kind: str, s1: np.ndarray) -> np.ndarray:
    """``v OP src1`` in float64 (comparisons give 1.0 or 0.0, as oneDNN's binary primitive)."""
    with np.errstate(all="ignore"):
        return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
                "min": np.minimum, "eq": np.equal, "ne": np.not_equal, "ge": np.greater_equal,
                "gt": np.greater, "le": np.less_equal, "lt": np.less}[kind](v, s1).astype(np.float64)


#: Eltwise kinds whose float32 result is exact for exact inputs (no transcendental function).
EXACT_ELTWISE = frozenset({"relu", "abs", "clip", "clip_v2", "linear", "square", "round", "hardsigmoid",
                           "hardswish"})


def is_exact(op: PostOp) -> bool:
    """Whether the kernel's f32 arithmetic can match the float64 model exactly on integer-valued data."""
    return isinstance(op, (Sum, Binary, Prelu, DwConv)) or base_kind(op.kind) in EXACT_ELTWISE

