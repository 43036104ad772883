"""Reorder problems: source and destination descriptors plus oneDNN-style quantization attributes.

A reorder computes, elementwise over the logical index space::

    dst = saturate(round(scale_src * (src - zp_src) / scale_dst + zp_dst))

rounding to nearest even when the destination is an integer type; each attribute is optional and is
either common (one value) or varies along a set of logical dims (oneDNN's mask: per_dim_1 is the
channel dim, per_dim_01 the first two). `reference()` is the float64 NumPy model the tests and the
CLI check kernels against; it reads and writes buffers through the layout's offset function only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..errors import FormatError, ProblemError
from ..layout import MemoryDesc, get_dtype
from ..layout.dtypes import DataType

QUANT_ARGS = ("src_scale", "dst_scale", "src_zp", "dst_zp")


# benchdnn's policy names for the dims a scale / zero point varies along (knobs_attr.md); `per_oc` is
# dim 1 for every argument but grouped weights, and reorders quantize src and dst only
_POLICY_DIMS = {"common": (), "host_scalar": (), "per_oc": (1,), "per_ocic": (0, 1)}


def policy_dims(policy: str, ndims: int) -> tuple[int, ...]:
    """The dims a policy of a src/dst argument names: a name (common, per_oc, per_tensor, per_dim_0,
    per_dim_01, ...) or benchdnn's integer mask (bit d = dim d). The one policy-to-mask mapping."""
    if policy.isdigit():
        return tuple(d for d in range(ndims) if int(policy) >> d & 1)
    if policy in _POLICY_DIMS:
        return _POLICY_DIMS[policy]
    if policy in ("per_tensor", "mx", "dynamic_fp"):
        return tuple(range(ndims))
    m = re.fullmatch(r"per_dim_(\d+)", policy)
    if not m:
        raise ProblemError(f"unknown quantization policy '{policy}' "
                           f"(known: common, per_tensor, per_oc, per_dim_<dims> such as per_dim_01, or a mask)")
    return tuple(int(ch) for ch in m.group(1))


@dataclass(frozen=True)
class Quant:
    """One scale or zero-point attribute: the logical dims it varies along (empty = common)."""
    mask: tuple[int, ...] = ()

    @staticmethod
    def parse(policy: str, ndims: int) -> "Quant":
        """A policy (`policy_dims`) over a tensor of `ndims` dims."""
        mask = policy_dims(policy, ndims)
        if sorted(set(mask)) != list(mask) or any(d >= ndims for d in mask):
            raise ProblemError(f"policy '{policy}' names dims outside 0..{ndims - 1} or out of order")
        return Quant(mask)

    def shape(self, dims: Sequence[int]) -> tuple[int, ...]:
        """Shape of the runtime array holding the values: () for common."""
        return tuple(dims[d] for d in self.mask)

    @property
    def policy(self) -> str:
        return "common" if not self.mask else "per_dim_" + "".join(map(str, self.mask))


@dataclass(frozen=True)
class ReorderProblem:
    """One reorder: src and dst descriptors with equal dims, and optional quantization attributes."""
    src: MemoryDesc
    dst: MemoryDesc
    src_scale: Quant | None = None
    dst_scale: Quant | None = None
    src_zp: Quant | None = None
    dst_zp: Quant | None = None
    # the source buffer's entries when it holds more than the view `src` addresses: a host-threads
    # part (`partition.reorder_host_parts`) whose slab is strided in the source reads it straight from
    # the whole buffer
    src_buffer_len: int | None = None
    # a host-threads part: the bytes the whole reorder's destination takes (every part together), which
    # the caches see rather than this part's (`emit.reorder.shuffle_streams`); None: this problem is whole
    whole_dst_bytes: int | None = None

    def __post_init__(self):
        if self.src.dims != self.dst.dims:
            raise FormatError(f"reorder source dims {'x'.join(map(str, self.src.dims))} differ from "
                              f"destination dims {'x'.join(map(str, self.dst.dims))}")
        if self.src_buffer_len is not None and (self.src.dtype.is_packed
                                                or self.src_buffer_len < self.src.buffer_len):
            raise ProblemError(f"a source buffer of {self.src_buffer_len} entries cannot hold "
                               f"{self.src!r} ({self.src.buffer_len} entries; 4-bit types take none longer)")

    @property
    def src_arg_len(self) -> int:
        """Entries of the kernel's source buffer argument."""
        return self.src.buffer_len if self.src_buffer_len is None else self.src_buffer_len

    @property
    def dims(self) -> tuple[int, ...]:
        return self.src.dims

    @property
    def quant_args(self) -> tuple[tuple[str, Quant], ...]:
        """The attributes present, in the kernel's argument order."""
        return tuple((k, getattr(self, k)) for k in QUANT_ARGS if getattr(self, k) is not None)

    def quant_dtype(self, arg: str) -> DataType:
        return get_dtype("f32" if arg.endswith("scale") else "s32")

    @property
    def needs_dst_init(self) -> bool:
        """A destination with gaps or an offset is updated in place: the kernel takes its old buffer."""
        return not self.dst.is_dense and not self.dst.is_zero_volume

    @property
    def name(self) -> str:
        """Procedural name that encodes every parameter; also the kernel's function name."""
        dims = "x".join(map(str, self.dims))
        parts = [f"reorder_{dims}", f"{self.src.dtype.name}_{self.src.format_name()}",
                 f"to_{self.dst.dtype.name}_{self.dst.format_name()}"]
        for arg, q in self.quant_args:
            parts.append(f"{arg.replace('_', '')}_{q.policy}")
        if self.src_buffer_len is not None:
            parts.append(f"srcbuf{self.src_buffer_len}")
        if self.whole_dst_bytes is not None:
            parts.append(f"ofdst{self.whole_dst_bytes}")
        return re.sub(r"[^A-Za-z0-9_]", "_", "__".join(parts))

    # ------------------------------------------------------------------ reference
    def input_shapes(self) -> list[tuple[str, tuple[int, ...], DataType]]:
        """(name, shape, dtype) of each kernel argument, in order (an s4 / u4 buffer's shape counts its
        packed bytes, `MemoryDesc.buffer_len`)."""
        out = [("src", (self.src_arg_len,), self.src.dtype)]
        for arg, q in self.quant_args:
            out.append((arg, q.shape(self.dims), self.quant_dtype(arg)))
        if self.needs_dst_init:
            out.append(("dst_init", (self.dst.buffer_len,), self.dst.dtype))
        return out

    def reference(self, src: np.ndarray, quant: dict[str, np.ndarray] | None = None,
                  dst_init: np.ndarray | None = None) -> np.ndarray:
        """The destination buffer, computed in float64 through the offset functions."""
        quant = quant or {}
        x = self.src.from_physical(np.asarray(src)[:self.src.buffer_len]).astype(np.float64)
        n = len(self.dims)

        def bcast(arg):
            q = getattr(self, arg)
            v = np.asarray(quant[arg], dtype=np.float64)
            shape = [self.dims[d] if d in q.mask else 1 for d in range(n)]
            return v.reshape(shape)

        if self.src_zp is not None:
            x = x - bcast("src_zp")
        if self.src_scale is not None:
            x = x * bcast("src_scale")
        if self.dst_scale is not None:
            x = x / bcast("dst_scale")
        if self.dst_zp is not None:
            x = x + bcast("dst_zp")
        y = convert_values(x, self.dst.dtype)
        return self.dst.to_physical(y, base=dst_init)


def convert_values(x: np.ndarray, dt: DataType) -> np.ndarray:
    """float64 values to `dt` the oneDNN way: integers round to nearest even and saturate (s4 to -8..7,
    u4 to 0..15)."""
    if dt.is_int:
        return np.clip(np.rint(x), dt.min, dt.max).astype(dt.np_dtype)
    with np.errstate(over="ignore"):        # beyond the type's range is +-inf, as the kernels round it
        return x.astype(dt.np_dtype)
