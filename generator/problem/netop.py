"""A network operation other than a convolution, in the tensors' logical dims: what kgen runs between
the convolutions of a network so that a segment spans them (elementwise chains, pooling, channel
concatenation). The layout is chosen later (the planner), so an op is described without one;
`why_not(layout)` says which layouts it can run in.

Kinds:

* ``binary``: ``add`` or ``mul`` of two tensors of one shape, or of a tensor and a per-channel one
  (N, C, 1, ..): squeeze-excitation's gating product;
* ``eltwise``: one oneDNN eltwise function (`attr.Eltwise`), as a standalone op;
* ``pool``: ``max`` or ``avg`` over a window (kernel, stride, symmetric padding, no dilation; the
  average divides by the whole window, padding included: PyTorch's ``count_include_pad=True``);
  the global average pool is a window as large as the image;
* ``cat``: concatenation along channels;
* ``expand``: a per-channel tensor (N, C, 1, ..) broadcast to the spatial size `size`;
* ``upsample``: nearest-neighbour upsampling by whole factors, to the spatial size `size`;
* ``norm``: normalization over the channels at each position, (x - mean) / sqrt(var + eps), the
  variance biased (LayerNorm over the channel axis without its affine, which the next op takes).

Every op computes in f32 (a bf16 tensor is widened on its way in and rounded to nearest even on its
way out); `reference` is the float64 model.

A ``u8`` op works on quantized tensors (PyTorch's quint8, per-tensor affine): `quant` gives each
input's (scale, zero point) and the output's last. Each input is dequantized, ``(q - zp) * scale``,
the op computes in f32 and the result is quantized, ``round(v / scale) + zp`` to nearest even and
saturated to [0, 255]: PyTorch's quantized ``add`` / ``add_relu`` (a binary add with a ReLU after it)
and ``mul`` (a tensor by another or by a per-channel one: a squeeze-and-excitation's scaling), its
pooling on quint8 tensors, which keeps the input's scale and zero point, ``torch.cat`` of quint8
tensors at one scale and zero point (the bytes concatenated), and its quantized activations
(an eltwise function; ``linear`` 1, 0 requantizes: ``quantize_per_tensor(x.dequantize(), scale,
zero_point)``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ProblemError
from .attr import Eltwise, eltwise_reference

KINDS = ("binary", "eltwise", "pool", "cat", "expand", "upsample", "norm")
BINARY_ALGS = ("add", "mul")
POOL_ALGS = ("max", "avg")
DTYPES = ("f32", "bf16", "u8")
#: the kinds of a u8 op (quantized tensors)
QUANT_KINDS = (("binary", "add"), ("binary", "mul"), ("pool", "max"), ("pool", "avg"), ("eltwise", ""), ("cat", ""))

Dims = tuple[int, ...]


def pool_out(i: int, k: int, s: int, p: int) -> int:
    return (i + 2 * p - k) // s + 1


@dataclass(frozen=True)
class NetOp:
    kind: str
    alg: str                        # binary: add/mul; pool: max/avg; eltwise and cat: ""
    inputs: tuple[Dims, ...]        # each input's logical dims (N, C, spatial..)
    dt: str = "f32"
    eltwise: Eltwise | None = None
    kernel: Dims = ()
    stride: Dims = ()
    pad: Dims = ()
    size: Dims = ()                 # expand, upsample: the output's spatial size
    eps: float = 0.0                # norm
    quant: tuple[tuple[float, int], ...] = ()   # u8: (scale, zero point) of each input, then the output's

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", tuple(tuple(int(x) for x in d) for d in self.inputs))
        object.__setattr__(self, "quant", tuple((float(sc), int(zp)) for sc, zp in self.quant))
        for f in ("kernel", "stride", "pad", "size"):
            object.__setattr__(self, f, tuple(int(x) for x in getattr(self, f)))
        if self.kind not in KINDS:
            raise ProblemError(f"unknown network op kind '{self.kind}' (known: {', '.join(KINDS)})")
        if self.dt not in DTYPES:
            raise ProblemError(f"network op {self.kind}: data type {self.dt} (network ops take {', '.join(DTYPES)})")
        if not self.inputs or any(not 3 <= len(d) <= 5 or min(d) < 1 for d in self.inputs):
            raise ProblemError(f"network op {self.kind}: inputs {self.inputs} must be N x C x 1-3 spatial dims, "
                               f"none empty")
        x = self.inputs[0]
        self._check_quant()
        if self.kind == "binary":
            if self.eltwise is not None and self.alg != "add":
                raise ProblemError(f"binary {self.alg}: only an add takes an eltwise after it")
            if self.alg not in BINARY_ALGS or len(self.inputs) != 2:
                raise ProblemError(f"binary network op: alg {self.alg!r} of {len(self.inputs)} inputs "
                                   f"(takes add or mul of two)")
            if not any(self._broadcasts(a, b) for a, b in (self.inputs, self.inputs[::-1])):
                raise ProblemError(f"binary {self.alg}: {x} and {self.inputs[1]} are neither one shape nor a "
                                   f"tensor and a per-channel (N, C, 1..) one")
        elif self.kind == "eltwise":
            if self.eltwise is None or len(self.inputs) != 1:
                raise ProblemError("eltwise network op: one input and an Eltwise")
        elif self.kind == "pool":
            nsp = len(x) - 2
            if self.alg not in POOL_ALGS or len(self.inputs) != 1 or not (
                    len(self.kernel) == len(self.stride) == len(self.pad) == nsp):
                raise ProblemError(f"pool network op: alg {self.alg!r} (max or avg), one input, and kernel, "
                                   f"stride and pad for each of its {nsp} spatial dims")
            for i, k, s, p in zip(x[2:], self.kernel, self.stride, self.pad):
                if k < 1 or s < 1 or p < 0 or 2 * p > k or pool_out(i, k, s, p) < 1:
                    raise ProblemError(f"pool {self.alg}: kernel {self.kernel}, stride {self.stride}, pad "
                                       f"{self.pad} on {x} (pad at most half the kernel, at least one output)")
        elif self.kind == "norm":
            if len(self.inputs) != 1 or not self.eps > 0:
                raise ProblemError(f"norm: one input and an eps above 0 (got {self.eps})")
        elif self.kind == "cat":
            if len(self.inputs) < 2 or any(d[:1] + d[2:] != x[:1] + x[2:] for d in self.inputs):
                raise ProblemError(f"cat: inputs {self.inputs} must be two or more, alike but in channels")
        else:
            if len(self.inputs) != 1 or len(self.size) != len(x) - 2 or min(self.size) < 1:
                raise ProblemError(f"{self.kind}: one input and the output's size in each of its {len(x) - 2} "
                                   f"spatial dims")
            if self.kind == "expand" and any(d != 1 for d in x[2:]):
                raise ProblemError(f"expand: the input {x} must be per-channel (N, C, 1, ..)")
            if self.kind == "upsample" and any(o % i for i, o in zip(x[2:], self.size)):
                raise ProblemError(f"upsample: {self.size} is not a whole multiple of {x[2:]}")

    def _check_quant(self) -> None:
        if self.dt != "u8":
            if self.quant:
                raise ProblemError(f"network op {self.kind}: quantization parameters on a {self.dt} op")
            return
        if (self.kind, self.alg) not in QUANT_KINDS:
            raise ProblemError(f"network op {self.kind} {self.alg}: not on u8 tensors (u8 ops: "
                               f"{', '.join(f'{k} {a}' for k, a in QUANT_KINDS)})")
        if len(self.quant) != len(self.inputs) + 1:
            raise ProblemError(f"u8 network op {self.kind}: a (scale, zero point) for each of its "
                               f"{len(self.inputs)} inputs and its output, got {len(self.quant)}")
        for sc, zp in self.quant:
            if not (math.isfinite(sc) and sc > 0) or not 0 <= zp <= 255:
                raise ProblemError(f"u8 network op {self.kind}: scale {sc} must be finite and above 0, "
                                   f"zero point {zp} in [0, 255]")
        if self.kind == "pool" and self.quant[0] != self.quant[1]:
            raise ProblemError(f"u8 pool: the output keeps the input's scale and zero point "
                               f"({self.quant[0]}, got {self.quant[1]})")
        if self.kind == "binary" and self.alg == "add" and self.inputs[0] != self.inputs[1]:
            raise ProblemError("u8 binary add: both inputs of one shape")
        if self.kind == "cat" and len(set(self.quant)) != 1:
            raise ProblemError(f"u8 cat: every input and the output at one scale and zero point (a concatenation "
                               f"of the bytes), got {list(self.quant)}")

    @staticmethod
    def _broadcasts(a: Dims, b: Dims) -> bool:
        """b is a, or a's per-channel vector (N, C, 1, ..)."""
        return len(a) == len(b) and (a == b or (b[:2] == a[:2] and all(d == 1 for d in b[2:])))

    @property
    def out(self) -> Dims:
        x = self.inputs[0]
        if self.kind == "binary":
            return max(self.inputs, key=math.prod)
        if self.kind == "pool":
            return x[:2] + tuple(pool_out(*a) for a in zip(x[2:], self.kernel, self.stride, self.pad))
        if self.kind == "cat":
            return (x[0], sum(d[1] for d in self.inputs)) + x[2:]
        if self.kind in ("expand", "upsample"):
            return x[:2] + self.size
        return x

    @property
    def zero_preserving(self) -> bool:
        """f(0) == 0 on every lane: a blocked layout's padded channel lanes stay zero without a mask."""
        if self.dt == "u8":           # a zero byte is not the value 0 unless the zero points are 0
            if self.alg == "max":
                return True
            if any(zp != 0 for _, zp in self.quant):
                return False
        if self.eltwise is None:
            return True
        return float(eltwise_reference(np.zeros(1), self.eltwise)[0]) == 0.0

    @property
    def ident(self) -> str:
        """Every parameter, for a function name."""
        dims = "_".join("x".join(map(str, d)) for d in self.inputs)
        s = f"{self.kind}_{self.alg + '_' if self.alg else ''}{dims}_{self.dt}"
        if self.eltwise is not None:
            s += "_" + self.eltwise.ident.replace(".", "p").replace("-", "m")
        if self.kind == "pool":
            s += "_k" + "x".join(map(str, self.kernel)) + "s" + "x".join(map(str, self.stride)) \
                + "p" + "x".join(map(str, self.pad))
        if self.size:
            s += "_to" + "x".join(map(str, self.size))
        if self.kind == "norm":
            s += f"_eps{self.eps:.3e}".replace(".", "p").replace("-", "m").replace("+", "")
        for sc, zp in self.quant:
            s += f"_s{sc!r}z{zp}".replace(".", "p").replace("-", "m").replace("+", "")
        return s

    def __str__(self) -> str:
        what = {"binary": self.alg + (f" then {self.eltwise}" if self.eltwise is not None else ""), "eltwise": f"eltwise {self.eltwise}", "cat": "cat",
                "expand": f"expand to {self.size}", "upsample": f"upsample to {self.size}",
                "norm": f"channel norm eps {self.eps:g}",
                "pool": f"{self.alg} pool k{self.kernel} s{self.stride} p{self.pad}"}[self.kind]
        return f"{what} {' '.join('x'.join(map(str, d)) for d in self.inputs)} {self.dt}"

    def reference(self, arrays: list[np.ndarray]) -> np.ndarray:
        """The op in float64 on logical arrays (u8: on the quantized values, giving quantized values)."""
        xs = [np.asarray(a, np.float64) for a in arrays]
        if self.dt == "u8":
            xs = [(x - zp) * np.float64(np.float32(sc)) for x, (sc, zp) in zip(xs, self.quant)]
            sc, zp = self.quant[-1]
            v = self._reference(xs) / np.float64(np.float32(sc))
            return np.clip(np.round(v) + zp, 0, 255)           # np.round: to nearest even
        return self._reference(xs)

    def _reference(self, xs: list[np.ndarray]) -> np.ndarray:
        if self.kind == "binary":
            if self.alg == "mul":
                return xs[0] * xs[1]
            y = xs[0] + xs[1]
            return y if self.eltwise is None else eltwise_reference(y, self.eltwise)
        if self.kind == "eltwise":
            return eltwise_reference(xs[0], self.eltwise)
        if self.kind == "cat":
            return np.concatenate(xs, axis=1)
        if self.kind == "expand":
            return np.broadcast_to(xs[0], self.out).copy()
        if self.kind == "norm":
            x = xs[0]
            mean = x.mean(axis=1, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
            return (x - mean) / np.sqrt(var + np.float32(self.eps))
        if self.kind == "upsample":
            x = xs[0]
            for ax, (i, o) in enumerate(zip(x.shape[2:], self.size)):
                x = np.repeat(x, o // i, axis=2 + ax)
            return x
        x = xs[0]
        nsp = x.ndim - 2
        fill = -np.inf if self.alg == "max" else 0.0
        xp = np.pad(x, [(0, 0)] * 2 + [(p, p) for p in self.pad], constant_values=fill)
        out = np.full(self.out, fill if self.alg == "max" else 0.0)
        for tap in np.ndindex(*self.kernel):
            sl = tuple(slice(k, k + (o - 1) * s + 1, s) for k, o, s in zip(tap, self.out[2:], self.stride))
            win = xp[(slice(None), slice(None)) + sl]
            out = np.maximum(out, win) if self.alg == "max" else out + win
        return out if self.alg == "max" else out / math.prod(self.kernel[:nsp])

