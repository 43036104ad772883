"""Reorder problems: source and destination descriptors plus oneDNN-style quantization attributes.

A reorder computes, elementwise over the logical index space::

    dst = saturate(round(scale_src * (src - zp_src) / scale_dst + zp_dst))

rounding to nearest even when the destination is an integer type; each attribute is optional and is
either common (one value) or varies along a set of logical dims (oneDNN's mask: per_dim_1 is the
channel dim, per_dim_01 the first two). `reference()` is the float64 NumPy model the tests and the
CLI check kernels against; it reads and writes buffers through the layout's offset function only.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import NamedTuple, Sequence

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
    # part (`host_parts`) whose slab is strided in the source reads it straight from the whole buffer
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


class ReorderPart(NamedTuple):
    """One part of a reorder (or a folded chain) cut for host threads (`host_parts`): the chain over a
    slab [lo, hi) of logical dim `dim`, and the [start, stop) ranges of the whole chain's source and
    destination NumPy buffers (packed bytes for s4 / u4) that are its source and destination."""
    problems: tuple
    dim: int
    lo: int
    hi: int
    src: tuple[int, int]
    dst: tuple[int, int]

    def dst_view(self, whole: np.ndarray) -> np.ndarray:
        """This part's destination within the whole destination buffer `whole`: its range."""
        return whole[self.dst[0]:self.dst[1]]

    def quant(self, arg_problem: "ReorderProblem", arg: str, value: np.ndarray) -> np.ndarray:
        """A quantization array of the whole chain's problem, cut to this part's slab where it varies
        along the cut dim (a C-contiguous copy, as the runtime uploads it)."""
        q = getattr(arg_problem, arg)
        if self.dim not in q.mask:
            return value
        return np.take(value, np.arange(self.lo, self.hi), axis=q.mask.index(self.dim))


def _src_view(whole: MemoryDesc, dims, first) -> MemoryDesc | str:
    """A part's source read straight from the `whole` source buffer: the view of its slab, or why the
    kernel could not read it so without padding the whole buffer (`Pitch.read_plan`)."""
    view = whole.submemory(dims, first)
    p = view.pitch()
    if p is None:
        return "the slab's strides interleave in the source"
    if p.read_plan(view.offset0, whole.buffer_nelems) is None:
        return "the slab's view of the source does not nest in its buffer"
    return view


def _slabs(chain, descs, dim: int, extent: int, unit: int, n: int,
           src_view: bool = False) -> list[ReorderPart] | str:
    """`host_parts`' slabs of `unit` indices of `dim` (even counts, larger first), or why not. With
    `src_view` each part reads its slab as a view of the whole source buffer (strided there)."""
    units = -(-extent // unit)
    k = min(n, units)
    if k < 2:
        return f"dim {dim} holds one block of {unit}: nothing to cut"
    counts = [units // k + (1 if i < units % k else 0) for i in range(k)]
    parts, lo = [], 0
    for c in counts:
        hi = min(lo + c * unit, extent)
        dims = list(chain[0].dims)
        dims[dim] = hi - lo
        first = [0] * len(dims)
        first[dim] = lo
        problems = tuple(dataclasses.replace(p, src=MemoryDesc(dims, p.src.dtype, p.src.tag),
                                             dst=MemoryDesc(dims, p.dst.dtype, p.dst.tag),
                                             whole_dst_bytes=p.dst.size_bytes) for p in chain)
        ranges = []
        if src_view:
            view = _src_view(descs[0], dims, first)
            if isinstance(view, str):
                return view
            problems = (dataclasses.replace(problems[0], src=view, src_buffer_len=descs[0].buffer_len),)
            ranges.append((0, descs[0].buffer_len))
        for whole, part in ((descs[0], problems[0].src), (descs[-1], problems[-1].dst))[len(ranges):]:
            start = whole.offset(first)
            if whole.dtype.is_packed and start * whole.dtype.bits % 8:
                return f"a part of the {whole.dtype.name} buffer would start inside a byte"
            start = start * whole.dtype.bits // 8 if whole.dtype.is_packed else start
            ranges.append((start, start + part.buffer_len))
        parts.append(ReorderPart(problems, dim, lo, hi, ranges[0], ranges[1]))
        lo = hi
    return parts


def host_parts(chain: Sequence[ReorderProblem], n: int) -> tuple[ReorderPart, ...] | str:
    """`chain` (one reorder, or a folded chain) cut into at most `n` parts for the host-threads driver,
    or why it cannot be: slabs of the outermost dim that has more than one index in every layout of
    the chain (the images, or the channel blocks of one image), cut on whole blocks of that dim, so
    each part's source and destination are contiguous ranges of the whole buffers and only the last
    part holds a blocked tail. Each part is a reorder of its own, with the same formats. Where that
    dim differs between the layouts of one reorder, the slabs are the destination's and each part
    reads the whole source buffer through a view of its slab (`ReorderProblem.src_buffer_len`)."""
    if n < 1:
        raise ProblemError(f"cannot cut a reorder into {n} parts")
    if n == 1:
        return "one thread: nothing to cut"
    chain = tuple(chain)
    descs = [chain[0].src] + [p.dst for p in chain]
    if descs[0].is_zero_volume:
        return "a zero-volume reorder has nothing to cut"
    if any(t.tag is None or not t.is_dense for t in descs):
        return "a strided (non-dense) source or destination is not cut"

    def outermost(t: MemoryDesc) -> int | None:
        return next((d for d in t.order if t.outer_dims[d] > 1), None)

    cut = {outermost(t) for t in descs}
    src_view = len(cut) != 1 or None in cut
    if src_view:
        # slabs of the destination's outermost dim, each read as a strided view of the whole source
        # (nchw -> nhwc of one image: rows h0..h1 of every channel); the destination ranges stay
        # contiguous, as `PartsCall` joins them
        dim = outermost(descs[-1])
        # plain layouts only: measured (`kgen tune reorder`, 1x256x56x56 f32, one thread / two parts, us)
        # nchw -> nhwc 133 / 89-93 and nhwc -> nchw 95 / 82, but nhwc -> nChw16c 90 / 192 and
        # nChw16c -> nhwc 86 / 100 (IREE copies a strided view before linalg.pack / unpack)
        if (len(chain) != 1 or dim is None or any(t.dtype.is_packed for t in descs)
                or any(t.is_blocked for t in descs)):
            return ("the layouts' outermost dims (of more than one index) differ: no slab is contiguous in "
                    "both buffers (a strided view of the source is read only between plain layouts)")
    else:
        dim = cut.pop()
    extent = chain[0].dims[dim]
    unit = math.lcm(*(t.block_of(dim) for t in descs))      # whole blocks in every layout
    while True:
        parts = _slabs(chain, descs, dim, extent, unit, n, src_view)
        if not isinstance(parts, str):
            break
        if not parts.endswith("inside a byte") or -(-extent // (2 * unit)) < 2:
            return parts
        unit *= 2               # 4-bit: an odd number of elements a unit; two units end on a byte
    for side, whole in (("src", descs[0]), ("dst", descs[-1]))[int(src_view):]:
        r = [getattr(p, side) for p in parts]
        if r[0][0] != 0 or r[-1][1] != whole.buffer_len or any(a[1] != b[0] for a, b in zip(r, r[1:])):
            return "the parts' buffers are not contiguous ranges of the whole"
    return tuple(parts)
