"""The convolution problem model: `ConvDesc` (benchdnn's descriptor: shapes, strides, padding,
dilation, groups; validated as oneDNN's ``conv_desc_init`` does) and `ConvProblem` (a descriptor plus
data types, memory formats, bias, post-ops and the variant), what a kernel is generated from.

No text is parsed here: the descriptor grammar and the conv driver are `generator.benchdnn.conv`'s.
`ConvDesc.format` prints benchdnn's form (the kernels' names carry it).

`ConvProblem`'s tensors are MemoryDescs over oneDNN's logical dims: src (N, IC, [D,] [H,] W), weights
(G, OC/G, IC/G, [KD,] [KH,] KW) when the descriptor has groups, else (OC, IC, ...), dst (N, OC, ...).
`reference()` is the float64 NumPy model (`reference.conv_reference`) followed by the destination
type's rounding and saturation.
"""
from __future__ import annotations

import dataclasses
import math
import operator
import re
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import FormatError, ProblemError
from ..layout import MemoryDesc, get_dtype
from ..layout.dtypes import DataType
from .attr import (RELU, Binary, DwConv, Eltwise, PostOp, Prelu, QuantArg, Sum, binary_reference, eltwise_reference,
                   f32, policy_mask)
from .reference import conv_reference
from .geometry import derive_padding, kernel_extent, output_size, right_padding
from .reorder import convert_values

__all__ = ["ACCUMULATORS", "ConvDesc", "ConvProblem", "SpatialDim", "WINOGRAD_TOLERANCE", "torch_wei_dims",
           "derive_padding", "kernel_extent", "output_size", "right_padding"]

# --------------------------------------------------------------------------------------------
# The descriptor
# --------------------------------------------------------------------------------------------

#: str2desc's entry order (CASE_N sequence): within one scan step the entries are tried in this order.
DESC_FIELDS = ("g", "mb", "ic", "id", "ih", "iw", "oc", "od", "oh", "ow", "kd", "kh", "kw",
               "sd", "sh", "sw", "pd", "ph", "pw", "dd", "dh", "dw")
AXES = ("d", "h", "w")
_KINDS = ("o", "i", "k", "s", "p", "d")      # sanitize_desc's per-dim vector order
_UNUSED = (1, 1, 1, 1, 0, 0)                 # sanitize_desc's def_values for an unused dim
_AXIS_KEYS = {a: tuple(kind + a for kind in _KINDS) for a in AXES}   # {"d": ("od", "id", ...)}
_AXIS_KEYS_R = tuple(zip(_AXIS_KEYS.values(), ("pd_r", "ph_r", "pw_r")))
_INT_FIELDS = DESC_FIELDS + ("ndims",)
DEFAULT_MB = 2


class SpatialDim(NamedTuple):
    """One spatial dimension of a `ConvDesc`: input, output, kernel, stride, left / right padding
    and oneDNN dilation (0 = dense)."""
    axis: str
    i: int
    o: int
    k: int
    s: int
    p: int
    p_r: int
    d: int

    @property
    def extent(self) -> int:
        return kernel_extent(self.k, self.d)


@dataclass(frozen=True, kw_only=True)
class ConvDesc:
    """A resolved benchdnn convolution descriptor (``conv::desc_t``): every field set.

    ``ndims`` is the tensor rank: 3, 4, 5 for 1D, 2D, 3D. Unused spatial dims (d for 1D/2D, h for
    1D) hold o=i=k=s=1, p=p_r=d=0, as in benchdnn. ``has_groups`` is whether ``g`` was written:
    it decides the weights' rank (`wei_dims`) and whether `str` prints ``g``. ``pd_r/ph_r/pw_r``
    are derived (`right_padding`). ``name`` is a label: not compared. Construction validates;
    bad values raise `ProblemError`. Use `parse_conv_desc` to build one from benchdnn text.
    """
    g: int = 1
    mb: int = DEFAULT_MB
    ic: int
    oc: int
    ndims: int
    id: int = 1
    ih: int = 1
    iw: int = 1
    od: int = 1
    oh: int = 1
    ow: int = 1
    kd: int = 1
    kh: int = 1
    kw: int = 1
    sd: int = 1
    sh: int = 1
    sw: int = 1
    pd: int = 0
    ph: int = 0
    pw: int = 0
    dd: int = 0
    dh: int = 0
    dw: int = 0
    has_groups: bool = False
    name: str = field(default="", compare=False)
    pd_r: int = field(init=False)
    ph_r: int = field(init=False)
    pw_r: int = field(init=False)

    def __post_init__(self) -> None:
        v = self.__dict__          # frozen: fields are written through __dict__, as dataclasses does
        for f in _INT_FIELDS:
            x = v[f]
            if type(x) is not int:
                if isinstance(x, bool) or not hasattr(x, "__index__"):
                    raise ProblemError(f"bad conv descriptor: {f}={x!r} is not an integer")
                v[f] = operator.index(x)
        v["has_groups"] = bool(v["has_groups"])
        v["name"] = str(v["name"])
        self._derive_and_check()

    @classmethod
    def _trusted(cls, values: dict) -> ConvDesc:
        """The parser's constructor: every field already an int (or bool / str); skips coercion."""
        self = object.__new__(cls)
        self.__dict__.update(values)
        self._derive_and_check()
        return self

    def _derive_and_check(self) -> None:
        v = self.__dict__
        for (ko, ki, kk, ks, kp, kd), kr in _AXIS_KEYS_R:
            v[kr] = (v[ko] - 1) * v[ks] - v[ki] + (v[kk] - 1) * (v[kd] + 1) + 1 - v[kp]   # right_padding
        reason = self._invalid_reason()
        if reason:
            raise ProblemError(f"bad conv descriptor: {reason}")

    def _invalid_reason(self) -> str | None:
        v = self.__dict__
        nd = v["ndims"]
        if nd not in (3, 4, 5):
            return f"ndims={nd} (expected 3, 4 or 5 for 1D, 2D, 3D)"
        if v["g"] < 1:
            return f"g={v['g']} must be positive"
        if v["mb"] < 0:
            return f"mb={v['mb']} must be non-negative"
        for f in ("ic", "oc"):
            if v[f] < 1:
                return f"{f}={v[f]} must be positive"
        for n, (a, keys) in enumerate(_AXIS_KEYS.items()):
            vals = tuple(v[key] for key in keys)
            if n < 5 - nd:                              # an unused dim
                if vals != _UNUSED:
                    bad = next(f"{key}={x}" for key, x, dx in zip(keys, vals, _UNUSED) if x != dx)
                    return (f"{bad} but dimension {a} is unused in a {nd - 2}D problem "
                            f"(unused dims hold o=i=k=s=1, p=d=0)")
                continue
            for key, x in zip(keys[:4], vals[:4]):     # o, i, k, s
                if x < 1:
                    return f"{key}={x} must be positive"
            if vals[5] < 0:
                return f"d{a}={vals[5]} must be non-negative"
        # oneDNN conv_desc_init (src/common/convolution.cpp), which benchdnn runs on every problem.
        for f in ("ic", "oc"):
            if v[f] % v["g"]:
                return f"{f}={v[f]} is not a multiple of g={v['g']}"
        for sp in self.spatial():
            if sp.p < 0:
                return f"left padding p{sp.axis}={sp.p} must be non-negative"
            if sp.p_r + sp.s <= 0:
                return (f"o{sp.axis}={sp.o} is too small for i{sp.axis}={sp.i}, k{sp.axis}={sp.k}, "
                        f"s{sp.axis}={sp.s}, p{sp.axis}={sp.p}, d{sp.axis}={sp.d}: the right padding "
                        f"{sp.p_r} plus the stride must be positive (expected o{sp.axis} >= "
                        f"{self._min_out(sp)})")
        return None

    @staticmethod
    def _min_out(sp: SpatialDim) -> int:
        # smallest o with (o-1)*s - i + ext - p + s > 0, i.e. o*s > i - ext + p
        return (sp.i - sp.extent + sp.p) // sp.s + 1

    # -- views ---------------------------------------------------------------------------------

    @property
    def spatial_ndims(self) -> int:
        return self.ndims - 2

    def spatial(self) -> tuple[SpatialDim, ...]:
        """The used spatial dims, outermost first: (w,) for 1D, (h, w) for 2D, (d, h, w) for 3D."""
        v = self.__dict__
        return tuple(SpatialDim(a, v[ki], v[ko], v[kk], v[ks], v[kp], v[kp + "_r"], v[kd])
                     for a, (ko, ki, kk, ks, kp, kd) in list(_AXIS_KEYS.items())[5 - v["ndims"]:])

    @property
    def src_dims(self) -> tuple[int, ...]:
        """(N, IC, [ID,] [IH,] IW), oneDNN's logical src order."""
        return (self.mb, self.ic) + tuple(sp.i for sp in self.spatial())

    @property
    def dst_dims(self) -> tuple[int, ...]:
        """(N, OC, [OD,] [OH,] OW)."""
        return (self.mb, self.oc) + tuple(sp.o for sp in self.spatial())

    @property
    def wei_dims(self) -> tuple[int, ...]:
        """oneDNN's logical weights order, as benchdnn builds it (``desc_t::wei_dims``):
        ``(G, OC/G, IC/G, [KD,] [KH,] KW)`` when the descriptor has groups (``g`` written, even
        g1), else ``(OC, IC, [KD,] [KH,] KW)``."""
        ks = tuple(sp.k for sp in self.spatial())
        head = (self.g, self.oc // self.g, self.ic // self.g) if self.has_groups else (self.oc, self.ic)
        return head + ks

    @property
    def wei_dims_grouped(self) -> tuple[int, ...]:
        """Always ``(G, OC/G, IC/G, [KD,] [KH,] KW)`` (G=1 without groups)."""
        return (self.g, self.oc // self.g, self.ic // self.g) + tuple(sp.k for sp in self.spatial())

    @property
    def bia_dims(self) -> tuple[int, ...]:
        return (self.oc,)

    @property
    def is_depthwise(self) -> bool:
        """g == ic == oc (one input and one output channel per group)."""
        return self.g == self.ic == self.oc

    @property
    def kstrides(self) -> tuple[int, ...]:
        return tuple(sp.s for sp in self.spatial())

    @property
    def dilations(self) -> tuple[int, ...]:
        return tuple(sp.d for sp in self.spatial())

    @property
    def padding(self) -> tuple[int, ...]:
        return tuple(sp.p for sp in self.spatial())

    @property
    def padding_r(self) -> tuple[int, ...]:
        return tuple(sp.p_r for sp in self.spatial())

    def nelems(self, which: str) -> int:
        """Element count of ``"src"``, ``"wei"``, ``"dst"`` or ``"bia"``."""
        dims = {"src": self.src_dims, "wei": self.wei_dims, "dst": self.dst_dims, "bia": self.bia_dims}[which]
        return math.prod(dims)

    def macs(self) -> int:
        """Multiply-accumulates of the forward pass counting every tap, padding included:
        ``mb * oc * ic/g * prod(o) * prod(k)``."""
        return (self.mb * self.oc * (self.ic // self.g) * math.prod(sp.o for sp in self.spatial())
                * math.prod(sp.k for sp in self.spatial()))

    def flops(self) -> int:
        """Floating-point operations of the forward pass, every tap counted (padding included):
        ``2 * macs()``. This is the ``flops`` column of ``lists/conv_index.tsv`` (and the 5-GFLOP
        cut of ``lists/full.txt``). benchdnn's own count, which skips taps that fall on padding, is
        `benchdnn_flops`."""
        return 2 * self.macs()

    def benchdnn_flops(self) -> float:
        """benchdnn's operation count (``conv_aux.cpp`` ``prb_t::count_ops``, the basis of its
        Gflops): 2 * mb * oc * ic/g * the number of (output, tap) pairs that read a real input
        element (taps on padding are not counted). Like benchdnn, it switches to the estimate
        ``prod(o) * prod(k)`` when that is within 1e-6 relative (very large outputs)."""
        sp_upper = 1.0
        sp_lower = 1.0
        for sp in self.spatial():
            sp_upper *= sp.o
            sp_lower *= sp.o - (sp.k + (sp.k - 1) * sp.d - 1)
        try:
            max_err = (sp_upper - sp_lower) / sp_lower
        except ZeroDivisionError:
            max_err = math.inf
        if max_err == max_err and max_err < 1e-6:   # NaN compares false, as in C
            sp_ops = sp_upper * math.prod(sp.k for sp in self.spatial())
        else:
            sp_ops = float(self._valid_taps())
        return float(2 * self.mb * self.oc * self.ic // self.g) * sp_ops

    def _valid_taps(self) -> int:
        """Exact count of (output position, kernel tap) pairs that hit the input, all dims."""
        total = 1
        for sp in self.spatial():
            n = 0
            for k in range(sp.k):
                off = k * (sp.d + 1) - sp.p       # input index = o*s + off must lie in [0, i)
                lo = max(0, -(off // sp.s))       # ceil(-off / s)
                hi = min(sp.o - 1, (sp.i - 1 - off) // sp.s)
                n += max(0, hi - lo + 1)
            total *= n
        return total

    def with_mb(self, mb: int) -> ConvDesc:
        return dataclasses.replace(self, mb=mb)

    # -- printing ------------------------------------------------------------------------------

    def format(self, canonical: bool = False) -> str:
        """benchdnn's ``operator<<`` for ``desc_t``; ``canonical=True`` is ``--canonical=true``
        (every entry; it always writes ``g``, so it parses back with ``has_groups=True``)."""
        vals = {a: tuple(getattr(self, f"{kind}{a}") for kind in _KINDS) for a in AXES}
        square = vals["h"] == vals["w"]
        cubic = square and vals["d"] == vals["h"]
        nd = self.ndims
        show = {"d": nd == 5,
                "h": nd == 4 or (nd == 5 and (not cubic or canonical)),
                "w": nd == 3 or (nd == 5 and (not cubic or canonical))
                or (nd == 4 and (not square or canonical))}

        def spatial(kind: str) -> str:
            return "".join(f"{kind}{a}{getattr(self, f'{kind}{a}')}" for a in AXES if show[a])

        out = []
        if canonical or self.has_groups:
            out.append(f"g{self.g}")
        if canonical or self.mb != DEFAULT_MB:
            out.append(f"mb{self.mb}")
        out += [f"ic{self.ic}", spatial("i"), f"oc{self.oc}", spatial("o"), spatial("k")]
        if canonical or (self.sd, self.sh, self.sw) != (1, 1, 1):
            out.append(spatial("s"))
        out.append(spatial("p"))
        if canonical or (self.dd, self.dh, self.dw) != (0, 0, 0):
            out.append(spatial("d"))
        if self.name:
            out.append(f'n"{self.name}"')
        return "".join(out)

    def __str__(self) -> str:
        return self.format()


FLOAT_TYPES = ("f32", "bf16", "f16")
INT8_SRC_TYPES = ("u8", "s8")
INT8_DST_TYPES = ("u8", "s8", "s32", "f32", "bf16", "f16")
#: (src, wei, dst) -> accumulator, oneDNN's convolution data types: floats (any mix of f32, bf16, f16)
#: accumulate in f32, also when the destination is an integer (f16:f16:u8: rounded and saturated);
#: u8 or s8 sources with s8 weights accumulate in s32, whatever the destination.
ACCUMULATORS = {**{(s, w, d): "f32" for s in FLOAT_TYPES for w in FLOAT_TYPES
                   for d in FLOAT_TYPES + ("u8", "s8", "s32")},
                **{(s, "s8", d): "s32" for s in INT8_SRC_TYPES for d in INT8_DST_TYPES}}
BIAS_TYPES = ("f32", "bf16", "f16", "s32")
#: Where each scale and zero point may vary (oneDNN's convolution: src and dst common, weights per
#: output channel; zero points per channel on the activations, common on the weights).
SCALE_POLICIES = {"src": ("common",), "wei": ("common", "per_oc"), "dst": ("common",),
                  # the fused depthwise post-op's weights and destination (benchdnn attr_post_op_dw_wei / _dst)
                  "dw_wei": ("common", "per_oc"), "dw_dst": ("common",)}
ZERO_POINT_POLICIES = {"src": ("common", "per_dim_1"), "wei": ("common",), "dst": ("common", "per_dim_1")}
ZERO_POINT_TYPES = ("s32", "s8", "u8")
#: The kernel's runtime quantization arguments, in argument order.
QUANT_ARGS = ("src_scale", "wei_scale", "dst_scale", "src_zp", "wei_zp", "dst_zp", "dw_wei_scale", "dw_dst_scale")


WINOGRAD_TOLERANCE = {"winograd": 2e-5, "winograd_f2": 1e-5, "winograd_f4": 2e-5, "winograd_f6": 1e-4}


def _like(t: MemoryDesc, dims) -> MemoryDesc:
    """A dense descriptor of `dims` in `t`'s data type and format: a host-threads part's tensor."""
    return MemoryDesc(dims, t.dtype, t.tag)


#: The fewest output channels a part of a channels-last channel cut has (`_channels_last_parts`): four
#: vectors of 16, the brgemm kernels' widest register block.
CHANNELS_LAST_SLAB = 64
#: How much longer than an even share the row cut's longest part may be before a channels-last image
#: is cut on its channels instead (`_uneven`): 7 rows in 4 + 3 are 1.14x an even share, 15 in 8 + 7
#: (the stem) 1.07x.
ROW_CUT_SLACK = 1.1


#: a channels-last image's outermost spatial axis, which the host-threads band cut divides, per ndims
_OUTER_AXIS = {3: "column", 4: "row", 5: "plane"}


def _uneven(rows: int, n: int) -> bool:
    """Whether `rows` cut into `n` bands leave the longest over `ROW_CUT_SLACK` times an even share
    (fewer rows than parts: some thread gets none)."""
    return max(_even_counts(rows, n)) * n > ROW_CUT_SLACK * rows


def _even_counts(total: int, n: int, lead: bool = False) -> list[int]:
    """`total` cut into min(n, total) counts differing by at most one, larger first; with `lead` and at
    least 4 per part, the first (the calling thread's) one more than an even share: the helper
    threads start one wake-up later (tens of microseconds on a VM), and the caller then finishes last
    instead of blocking and being woken too. On 2 cores of a Zen 4 EPYC, u8:s8:u8 3x3: ic128 28x28,
    rows 15 + 13: 284-287 us, against 308-313 us for 14 + 14 and 302-307 us for 16 + 12; ic256 14x14,
    rows 8 + 6: 312-317 us against 334-339 us for 7 + 7."""
    k = min(n, total)
    counts = [total // k + (1 if i < total % k else 0) for i in range(k)]
    if lead and k > 1 and total >= 4 * k and counts[0] == counts[-1]:
        counts[0] += 1
        counts[-1] -= 1
    return counts


class ConvPart(NamedTuple):
    """One part of a convolution cut for host threads (`ConvProblem.host_parts`): a convolution of its
    own, and the element ranges [start, stop) of the whole problem's physical source and destination
    buffers that are its source and destination; `oc`, for a cut on output channels, the part's
    channels [lo, hi) (its weights, bias and per-channel values are those channels' of the whole), and
    for a grouped convolution `ic`, the input channels of its groups (its source slab)."""
    problem: "ConvProblem"
    src: tuple[int, int]
    dst: tuple[int, int]
    oc: tuple[int, int] | None = None
    ic: tuple[int, int] | None = None       # a grouped cut's input channels (None: every part reads all)
    # a part whose destination is a strided slab of the whole buffer: columns [lo, hi) of the buffer
    # seen as rows of `width` elements (a channels-last channel cut: its channels of every pixel; rows
    # of a channels-first image: its rows of every channel block), and `dst` spans the whole buffer;
    # None: the part's destination is the contiguous range `dst`
    dst_cols: tuple[int, int, int] | None = None      # (lo, hi, width)

    def dst_view(self, whole):
        """This part's destination within `whole`, the whole destination buffer (1-D, or any array
        of its elements: ``dst_init``): the range `dst`, or the strided slab `dst_cols`."""
        if self.dst_cols is None:
            return whole[self.dst[0]:self.dst[1]]
        lo, hi, width = self.dst_cols
        return whole.reshape(-1, width)[:, lo:hi]


@dataclass(frozen=True)
class ConvProblem:
    """A convolution to generate: descriptor, tensors, accumulator, bias, post-ops, variant, and oneDNN's
    quantization attributes (`generator.problem.attr`: scales and zero points are runtime arguments of
    the kernel, `QUANT_ARGS` order; post-op parameters are baked in)."""
    desc: ConvDesc
    src: MemoryDesc
    wei: MemoryDesc
    dst: MemoryDesc
    acc: DataType
    bias: bool = True
    post_ops: tuple[PostOp, ...] = ()
    alg: str = "direct"
    bias_dt: str = "f32"
    scales: tuple[QuantArg, ...] = ()
    zero_points: tuple[QuantArg, ...] = ()

    def __post_init__(self):
        d = self.desc
        for what, desc, dims in (("src", self.src, d.src_dims), ("weights", self.wei, d.wei_dims),
                                 ("dst", self.dst, d.dst_dims)):
            if desc.dims != tuple(dims):
                raise FormatError(f"{what} descriptor dims {'x'.join(map(str, desc.dims))} do not match the "
                                  f"problem's {'x'.join(map(str, dims))}")
        object.__setattr__(self, "post_ops", tuple(self.post_ops))
        order = ("src", "wei", "dst", "dw_wei", "dw_dst")
        object.__setattr__(self, "scales", tuple(sorted(self.scales, key=lambda q: order.index(q.arg)
                                                        if q.arg in order else len(order))))
        object.__setattr__(self, "zero_points", tuple(sorted(self.zero_points, key=lambda q: order.index(q.arg)
                                                             if q.arg in order else len(order))))
        self._check_attributes()

    def _check_attributes(self) -> None:
        dts = (self.src.dtype.name, self.wei.dtype.name, self.dst.dtype.name)
        if self.bias and self.bias_dt not in BIAS_TYPES:
            raise ProblemError(f"bias data type {self.bias_dt} is not supported (supported: {', '.join(BIAS_TYPES)})")
        for table, qs, what in ((SCALE_POLICIES, self.scales, "scale"), (ZERO_POINT_POLICIES, self.zero_points,
                                                                          "zero point")):
            seen = set()
            for q in qs:
                if q.arg not in table:
                    raise ProblemError(f"a convolution has no {what} for '{q.arg}' (arguments: src, wei, dst)")
                if q.arg in seen:
                    raise ProblemError(f"{q.arg} {what} given twice")
                seen.add(q.arg)
                if q.policy not in table[q.arg]:
                    raise ProblemError(f"{q.arg} {what} policy '{q.policy}' is not supported for a convolution "
                                       f"(supported: {', '.join(table[q.arg])})")
        for q in self.scales:
            if q.dt != "f32":
                raise ProblemError(f"{q.arg} scales of type {q.dt} are not supported (f32 only)")
        for q in self.zero_points:
            if q.dt not in ZERO_POINT_TYPES:
                raise ProblemError(f"{q.arg} zero points of type {q.dt} are not supported "
                                   f"(supported: {', '.join(ZERO_POINT_TYPES)})")
            tensor_dt = {"src": dts[0], "wei": dts[1], "dst": dts[2]}[q.arg]
            if q.arg != "dst" and tensor_dt not in ("s8", "u8"):
                raise ProblemError(f"{q.arg} zero points need integer {q.arg} data (it is {tensor_dt})")
        for op in self.post_ops:
            if isinstance(op, Sum):
                if op.dt is not None and get_dtype(op.dt).itemsize != self.dst.dtype.itemsize:
                    raise ProblemError(f"sum post-op data type {op.dt} must have the size of the destination "
                                       f"type {self.dst.dtype.name}")
                if op.zero_point and not (get_dtype(op.dt or self.dst.dtype.name).is_int):
                    raise ProblemError("sum post-op zero point needs an integer destination (or sum data type)")
            if isinstance(op, Binary):
                get_dtype(op.dt)
        dws = [op for op in self.post_ops if isinstance(op, DwConv)]
        if any(q.arg.startswith("dw_") for q in self.scales) and not dws:
            raise ProblemError("depthwise post-op scales (attr_post_op_dw_wei / _dst) need a dw post-op")
        if dws:
            # oneDNN's depthwise post-op: one, no sum in the chain, no zero points (attributes_post_ops.md)
            if len(dws) > 1:
                raise ProblemError("a post-op chain holds at most one depthwise (dw) post-op")
            if any(isinstance(op, Sum) for op in self.post_ops):
                raise ProblemError("a sum post-op cannot be part of a chain with a depthwise (dw) post-op")
            if self.zero_points:
                raise ProblemError("zero points are not supported with a depthwise (dw) post-op")
            self.split_dw()                  # the depthwise convolution must be a valid problem too

    # ------------------------------------------------------------------ layouts
    @property
    def has_any(self) -> bool:
        """Some tensor is in format ``any`` (an `AnyDesc`): its layout is the kernel's to choose
        (`generator.select.resolve_layouts`); nothing physical can be built before."""
        return self.src.is_any or self.wei.is_any or self.dst.is_any

    def with_layouts(self, stag: str, wtag: str, dtag: str) -> ConvProblem:
        """This problem with its ``any`` tensors in the given formats (tags for their ranks); the
        tensors already concrete keep theirs."""
        def one(desc, tag):
            return MemoryDesc(desc.dims, desc.dtype, tag) if desc.is_any else desc
        return dataclasses.replace(self, src=one(self.src, stag), wei=one(self.wei, wtag), dst=one(self.dst, dtag))

    # ------------------------------------------------------------------ attributes
    @property
    def relu(self) -> bool:
        """The post-op chain is exactly one plain ReLU (the kernels' classic epilogue)."""
        return self.post_ops == (RELU,)

    @property
    def has_attributes(self) -> bool:
        """Anything beyond bias and a plain ReLU: scales, zero points, other post-ops, a non-f32 bias."""
        return bool(self.scales or self.zero_points or (self.post_ops and not self.relu)
                    or (self.bias and self.bias_dt != "f32"))

    @property
    def fused_dw(self) -> tuple[int, DwConv] | None:
        """(index, op) of the depthwise post-op, or None."""
        return next(((i, op) for i, op in enumerate(self.post_ops) if isinstance(op, DwConv)), None)

    @property
    def output(self) -> MemoryDesc:
        """What the kernel returns: the destination, or with a depthwise post-op its result."""
        return self.split_dw()[1].dst if self.fused_dw else self.dst

    def split_dw_args(self, quant: dict, inputs: dict) -> tuple[dict, dict, dict, dict]:
        """This problem's runtime values (`quant_args`, `post_op_inputs` by name) as the two
        convolutions of `split_dw` take them: (quant, inputs) of the first, then of the second (its
        src scale is the first's dst scale; binary_<i> after the dw at index k becomes binary_<i-k-1>;
        ``dw_wei`` / ``dw_bias`` stay in the second's inputs under those names)."""
        at, _ = self.fused_dw
        first, second = self.split_dw()
        q1 = {n: quant[n] for n, _ in first.quant_args() if n in quant}
        i1 = {n: inputs[n] for n, _, _ in first.post_op_inputs() if n in inputs}
        rename = {"dst_scale": "src_scale", "dw_wei_scale": "wei_scale", "dw_dst_scale": "dst_scale"}
        q2 = {rename[n]: v for n, v in quant.items() if n in rename}
        i2 = {}
        for n, v in inputs.items():
            kind, _, index = n.rpartition("_")
            if n in ("dw_wei", "dw_bias"):
                i2[n] = v
            elif kind in ("binary", "prelu") and index.isdigit() and int(index) > at:
                i2[f"{kind}_{int(index) - at - 1}"] = v
        return q1, i1, q2, i2

    def host_parts(self, n: int, lead: bool = False) -> tuple[ConvPart, ...] | str:
        """This convolution cut into 2 to `n` independent convolutions whose sources and destinations
        are contiguous ranges of this one's physical buffers, for `n` host threads (`api.ConvKernel` on
        the ``host-threads`` driver); or why it cannot be cut.

        Images are cut first (N outermost in both layouts). One image in channels-last layouts is cut
        into bands of output rows: each band is a convolution of its own, whose source is the input
        rows the band reads (halo included) and whose padding is this problem's where the band
        reaches the border, so every tap, zero point and post-op sees what it sees here. One image
        whose destination has channels outermost (nchw, nChw16c) is cut into slabs of output
        channels (whole destination blocks, 16 channels a slab where there are two or more): every
        part reads the whole source, with its channels' weights, bias and per-channel scales and zero
        points (`ConvPart.oc`; the API cuts them). With groups (depthwise too) the slabs are whole
        groups, and each part reads only its groups' input channels, so the source must have its
        channels outermost as well (`ConvPart.ic`). The sum's prior destination is cut like the
        destination; a binary or prelu input that varies along the cut axis (along any axis, for
        the channel cut) is not cut, so such problems are refused. With `lead`, the first part (the
        calling thread's) is one unit longer than an even share where each part has at least 4 units
        (`_even_counts`): the caller decides, from what a unit costs."""
        if n < 1:
            raise ProblemError(f"cannot cut a convolution into {n} parts")
        if n == 1:
            return "one thread: nothing to cut"
        if self.has_any or self.fused_dw:
            return "format any and the depthwise post-op are resolved into other kernels first"
        d = self.desc
        tensors = (self.src, self.dst) + ((self.input_desc("dst_init"),) if any(
            name == "dst_init" for name, _, _ in self.post_op_inputs()) else ())
        if any(t.tag is None or not t.is_dense for t in tensors):
            return "a strided (non-dense) source or destination is not cut"

        def outermost(axis: int) -> bool:
            return all(t.order[0] == axis and t.block_of(axis) == 1 for t in tensors)

        # one image whose destination has its channels innermost and unblocked (nhwc): its channels
        # can be cut too, each part writing a strided slab (`ConvPart.dst_cols`)
        channels_last = d.mb == 1 and d.g == 1 and all(t.order[-1] == 1 and t.block_of(1) == 1 for t in tensors[1:])
        if d.mb >= 2 and outermost(0):
            axis = 0
        elif d.mb == 1 and all(t.order[:2] == (0, 2) for t in tensors):
            # columns (1D: WaveNet's one long sequence), rows (2D), planes (3D): the outermost spatial
            # axis, each band a contiguous range of a channels-last buffer
            axis = 2
            outer = d.spatial()[0]
            if channels_last and _uneven(outer.o, n):
                cut = self._channels_last_parts(n)
                if not isinstance(cut, str):
                    return cut
            if outer.o < 2:
                return f"one output {_OUTER_AXIS[d.ndims]}: nothing to cut"
        elif d.mb == 1 and all(t.order[:2] == (0, 1) for t in (tensors if d.g > 1 else tensors[1:])):
            if self._rows_before_channels(n):
                rows = self._outer_row_parts(n, lead)
                if not isinstance(rows, str):
                    return rows
            return self._channel_parts(n, lead)
        else:
            why = ("only N (outermost in the source and destination layouts) or, for one image, the "
                   "rows of a channels-last 2D convolution (planes of a 3D one, columns of a 1D one) or the "
                   "output channels of one whose "
                   "destination (and, with groups, source) has them outermost or, ungrouped, "
                   "innermost are cut")
            cut = self._channels_last_parts(n) if channels_last else None
            return cut if isinstance(cut, tuple) else why + (f" (here {cut})" if cut else "")
        for name, _, op in self.post_op_inputs():
            if name != "dst_init" and axis in self.binary_mask(op):
                return (f"post-op {op}'s input varies along the {'images' if axis == 0 else _OUTER_AXIS[d.ndims] + 's'}, "
                        f"which are cut, and is not cut with them")
        if axis == 0:
            parts, start = [], 0
            for c in _even_counts(d.mb, n, lead):
                desc = dataclasses.replace(d, mb=c, name="")
                parts.append(self._part(desc, (0, start), (0, start)))
                start += c
            return self._with_ranges(parts)
        bands = self._row_bands(n, lead)
        if isinstance(bands, str):
            return bands
        return self._with_ranges([self._part(desc, (2, lo), (2, o0)) for o0, lo, desc in bands])

    def _row_bands(self, n: int, lead: bool) -> list[tuple[int, int, ConvDesc]] | str:
        """One image's output rows (3D: planes, 1D: columns; the outermost spatial axis) in `n` bands
        (`_even_counts`): (first output row, first input row read, the band's descriptor: the input
        rows it reads, halo included, and this problem's padding where it reaches the border), or why
        not."""
        d = self.desc
        a = d.spatial()[0]
        bands, o0 = [], 0
        ext = kernel_extent(a.k, a.d)
        for c in _even_counts(a.o, n, lead):
            o1 = o0 + c
            need_lo, need_hi = o0 * a.s - a.p, (o1 - 1) * a.s - a.p + ext - 1
            lo, hi = max(0, need_lo), min(a.i - 1, need_hi)
            if hi < lo:
                return f"output rows {o0}-{o1 - 1} read no input row"
            bands.append((o0, lo, dataclasses.replace(d, **{f"i{a.axis}": hi - lo + 1, f"o{a.axis}": c,
                                                            f"p{a.axis}": lo - need_lo}, name="")))
            o0 = o1
        return bands

    def _uncut_post_op_input(self) -> str | None:
        """Why a cut on output channels cannot be taken: a binary or prelu input that varies along the
        destination at all (the parts get the whole one, not their channels'); None where none does."""
        for name, _, op in self.post_op_inputs():
            if name != "dst_init" and self.binary_mask(op):
                return (f"post-op {op}'s input varies along the destination, whose channels are cut, "
                        f"and is not cut with it")
        return None

    def _channel_parts(self, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
        """`host_parts`' cut of one image on output channels: slabs of whole destination blocks (of 16
        channels, the kernels' vector width, where there are two such slabs or more), each part
        reading the whole source. Measured on the 2-vCPU Zen 4 EPYC, f32 brgemm, one image: nchw ic128 28x28 3x3
        two halves 1058 us against 2057 us on local-task (which ran it on one thread); nChw16c ic256
        56x56 1x1 -> 64, 649 against 1267 us."""
        d = self.desc
        why = self._uncut_post_op_input()
        if why:
            return why
        if d.g > 1:
            return self._group_parts(n, lead)
        block = self.dst.block_of(1)
        unit = math.lcm(block, 16) if d.oc >= 2 * math.lcm(block, 16) else block

        def part(lo: int, hi: int) -> ConvPart:
            desc = dataclasses.replace(d, oc=hi - lo, name="")
            return self._channel_part(desc, (lo, hi), None)

        return self._slabs(d.oc, unit, "output channels", n, lead, part)

    def _rows_before_channels(self, n: int) -> bool:
        """Whether one image whose destination has its channels outermost (nchw, nChw16c) is cut into
        bands of rows (`_outer_row_parts`) rather than slabs of output channels: an ungrouped 2D
        convolution with a kernel wider than one tap, whose rows cut evenly and whose source holds at
        least as many elements as its weights. The channel cut's parts each read (and lay out for the
        kernel) the whole source, with half the channels each; the row cut's read all the weights.
        On the 2-vCPU Zen 4 EPYC, brgemm, host-threads, channels against rows, us a call: the f32
        stem 1367-1488 against 1250-1281 in nChw16c, 1221-1278 against 1168-1199 in nchw (u8, nChw16c:
        424 against 409); f32 ic64 56x56 3x3 1081-1105 against 1069-1071. The 1x1 layers were mixed
        (ic256 56x56 1x1 -> 512 stride 2: rows 1-8% slower; ic256 -> 64: 5% slower in nChw16c, 3-6%
        faster in nchw), so they keep the channel cut."""
        d = self.desc
        return (d.g == 1 and d.ndims == 4 and d.kh * d.kw > 1 and d.oh >= n and not _uneven(d.oh, n)
                and self.src.nelems >= self.wei.nelems)

    def _outer_row_parts(self, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
        """`host_parts`' cut of one image whose destination has its channels outermost into bands of
        output rows: each band's destination is a strided slab of the whole buffer, its rows of every
        channel block (`ConvPart.dst_cols` over the buffer as (channel blocks, OH * OW * block)); its
        source the input rows it reads (halo included), a contiguous range of a channels-last source
        or else a view of the whole source buffer (`MemoryDesc.submemory`), with this problem's
        padding where the band reaches the border."""
        d = self.desc
        dst_ok = all(t.order == (0, 1, 2, 3) and all(dim == 1 for dim, _ in t.blocks)
                     for t in [self.dst] + [self.input_desc(name) for name, _, _ in self.post_op_inputs()
                                            if name == "dst_init"])
        if not dst_ok:
            return "the destination's rows are not a slab of each channel block"
        for name, _, op in self.post_op_inputs():
            if name != "dst_init" and 2 in self.binary_mask(op):
                return f"post-op {op}'s input varies along the rows, which are cut, and is not cut with it"
        blk = self.dst.block_of(1)
        width = d.oh * d.ow * blk
        channels_last_src = self.src.order[:2] == (0, 2)
        bands = self._row_bands(n, lead)
        if isinstance(bands, str):
            return bands
        out = []
        for o0, lo, desc in bands:
            o1 = o0 + desc.oh
            if channels_last_src:
                src = _like(self.src, desc.src_dims)
                at = self.src.offset([0, 0, lo, 0])
                src_range = (at, at + src.buffer_nelems)
            else:
                src = self.src.submemory(desc.src_dims, (0, 0, lo, 0))
                src_range = (0, src.buffer_nelems)
            part = dataclasses.replace(self, desc=desc, src=src, dst=_like(self.dst, desc.dst_dims))
            out.append(ConvPart(part, src_range, (0, self.dst.buffer_nelems),
                                dst_cols=(o0 * d.ow * blk, o1 * d.ow * blk, width)))
        return tuple(out)

    def _channels_last_parts(self, n: int) -> tuple[ConvPart, ...] | str:
        """`host_parts`' cut of one ungrouped image with a channels-last destination on its output
        channels: n even slabs of whole 16-channel units, each at least `CHANNELS_LAST_SLAB`
        channels, each part reading the whole source and writing its columns of every pixel (a
        strided slab: `ConvPart.dst_cols`, joined by `ConvPart.dst_view`). Taken where the row cut
        is uneven (`_uneven`), and only evenly: a 7-row image cut into rows of 4 + 3 waits for the
        4. On the 2-vCPU Zen 4 EPYC, ic512 7x7 3x3 -> 512, nhwc, brgemm, each part alone on one
        thread: u8:s8:u8 rows 302 + 228 us, channels 260 + 260; f32 rows 1193 + 899, channels 1028
        + 1028 (the whole on one thread: 507 and 2030)."""
        d = self.desc
        why = self._uncut_post_op_input()
        if why:
            return why
        units, per_unit = divmod(d.oc, 16)
        if per_unit or units % n or d.oc // n < CHANNELS_LAST_SLAB:
            return (f"{d.oc} output channels do not cut into {n} even slabs of whole 16-channel units, "
                    f"{CHANNELS_LAST_SLAB} or more each")
        width = d.oc // n
        # `_channel_part`'s parts, whose destinations are strided slabs here, not ranges
        return tuple(self._channel_part(dataclasses.replace(d, oc=width, name=""), (lo, lo + width), None)
                     ._replace(dst=(0, self.dst.buffer_nelems), dst_cols=(lo, lo + width, d.oc))
                     for lo in range(0, d.oc, width))

    def _group_parts(self, n: int, lead: bool) -> tuple[ConvPart, ...] | str:
        """`_channel_parts` for a grouped convolution (depthwise included): slabs of whole groups, each
        part reading its groups' input channels (a contiguous slab of a source with channels
        outermost), on whole blocks of the source and the destination, 16 channels a slab or more
        where there are two such slabs."""
        d = self.desc
        icg, ocg = d.ic // d.g, d.oc // d.g
        sb, db = self.src.block_of(1), self.dst.block_of(1)
        unit = math.lcm(sb // math.gcd(sb, icg), db // math.gcd(db, ocg))        # groups a slab
        while unit * ocg < 16 and d.g >= 4 * unit:
            unit *= 2

        def part(lo: int, hi: int) -> ConvPart:
            desc = dataclasses.replace(d, g=hi - lo, ic=(hi - lo) * icg, oc=(hi - lo) * ocg, name="")
            return self._channel_part(desc, (lo * ocg, hi * ocg), (lo * icg, hi * icg))

        return self._slabs(d.g, unit, "groups", n, lead, part)

    def _slabs(self, total: int, unit: int, what: str, n: int, lead: bool, part) -> tuple[ConvPart, ...] | str:
        """`total` channels or groups cut into even counts of `unit` (the last part may be short),
        `part(lo, hi)` making each part, or why not."""
        units = -(-total // unit)
        if units < 2:
            return f"one slab of {unit} {what}: nothing to cut"
        parts, lo = [], 0
        for c in _even_counts(units, n, lead):
            hi = min(lo + c * unit, total)
            parts.append(part(lo, hi))
            lo = hi
        return self._tiled(tuple(parts))

    def _channel_part(self, desc: ConvDesc, oc: tuple[int, int], ic: tuple[int, int] | None) -> ConvPart:
        """A part of the channel cut: output channels `oc`, reading input channels `ic` (None: the
        whole source)."""
        part = dataclasses.replace(self, desc=desc, wei=_like(self.wei, desc.wei_dims),
                                   dst=_like(self.dst, desc.dst_dims),
                                   src=self.src if ic is None else _like(self.src, desc.src_dims))
        first = [0] * self.desc.ndims
        first[1] = oc[0]
        o = self.dst.offset(first)
        src = (0, self.src.buffer_nelems)
        if ic is not None:
            first[1] = ic[0]
            s = self.src.offset(first)
            src = (s, s + part.src.buffer_nelems)
        return ConvPart(part, src, (o, o + part.dst.buffer_nelems), oc, ic)

    def _tiled(self, out: tuple[ConvPart, ...]) -> tuple[ConvPart, ...] | str:
        """The channel cut's parts, or why not: their destinations must tile this one's buffer."""
        if [r.dst for r in out] != [(a, b) for a, b in zip([0] + [r.dst[1] for r in out[:-1]], [r.dst[1] for r in out])] \
                or out[-1].dst[1] != self.dst.buffer_nelems or any(r.src[1] > self.src.buffer_nelems for r in out):
            return "the parts' buffers are not contiguous ranges of the whole"
        return out

    def _part(self, desc: ConvDesc, src_at: tuple[int, int], dst_at: tuple[int, int]) -> tuple:
        """(part problem, index of its first source element, of its first destination element)."""
        part = dataclasses.replace(self, desc=desc, src=_like(self.src, desc.src_dims),
                                   dst=_like(self.dst, desc.dst_dims))
        first = [0] * self.desc.ndims
        src_first, dst_first = list(first), list(first)
        src_first[src_at[0]], dst_first[dst_at[0]] = src_at[1], dst_at[1]
        return part, self.src.offset(src_first), self.dst.offset(dst_first)

    def _with_ranges(self, parts: list) -> tuple[ConvPart, ...] | str:
        out = tuple(ConvPart(p, (s, s + p.src.buffer_nelems), (o, o + p.dst.buffer_nelems)) for p, s, o in parts)
        # the destinations tile this destination exactly (the sources may overlap: halos)
        if [r.dst for r in out] != [(a, b) for a, b in zip([0] + [r.dst[1] for r in out[:-1]], [r.dst[1] for r in out])] \
                or out[-1].dst[1] != self.dst.buffer_nelems or any(r.src[1] > self.src.buffer_nelems for r in out):
            return "the parts' buffers are not contiguous ranges of the whole"
        return out

    def split_dw(self) -> tuple[ConvProblem, ConvProblem]:
        """The two convolutions of a problem with a depthwise post-op, as benchdnn's reference builds
        them (conv_dw_fusion.cpp): this convolution with the post-ops before the dw, its scales, its
        destination in `dst`; then the depthwise one (g = ic = oc, kernel K, stride S, left padding P,
        output ceil(out / S)) reading that destination, weights of this convolution's weight type in
        plain layout, its own bias when this one has one, src scale = this dst scale, weight and dst
        scales from dw_wei / dw_dst, the post-ops after the dw, and the data type DST_DT written in
        the destination's format. The depthwise one is `--alg=auto`: its kernel (brgemm's depthwise
        one where the CPU runs it) is chosen as any depthwise conv's is."""
        import dataclasses

        at, op = self.fused_dw
        d = self.desc
        sp = d.spatial()
        n_sp = d.ndims - 2
        axes = AXES[3 - n_sp:]
        vals: dict = dict(g=d.oc, mb=d.mb, ic=d.oc, oc=d.oc, ndims=d.ndims, has_groups=True)
        for a, s_ in zip(axes, sp):
            vals.update({f"i{a}": s_.o, f"o{a}": -(-s_.o // op.stride), f"k{a}": op.kernel, f"s{a}": op.stride,
                         f"p{a}": op.padding})
        try:
            dw_desc = ConvDesc(**vals)
        except ProblemError as e:
            raise ProblemError(f"depthwise post-op {op} on a {'x'.join(str(s_.o) for s_ in sp)} output: {e}") from None
        dts = (self.dst.dtype.name, self.wei.dtype.name, op.dt)
        if dts not in ACCUMULATORS:
            raise ProblemError(f"depthwise post-op {op}: data types {':'.join(dts)} are not implemented "
                               f"(its source is this destination, its weights this weight type)")
        tag = self.dst.tag if self.dst.tag else None
        scale = {q.arg: q for q in self.scales}
        first = dataclasses.replace(self, post_ops=self.post_ops[:at],
                                    scales=tuple(q for q in self.scales if not q.arg.startswith("dw_")))
        dw_scales = [dataclasses.replace(scale["dst"], arg="src")] if "dst" in scale else []
        dw_scales += [dataclasses.replace(scale[a], arg=a[3:]) for a in ("dw_wei", "dw_dst") if a in scale]
        second = ConvProblem(
            dw_desc, MemoryDesc(dw_desc.src_dims, dts[0], tag), MemoryDesc(dw_desc.wei_dims, dts[1], None),
            MemoryDesc(dw_desc.dst_dims, dts[2], tag), get_dtype(ACCUMULATORS[dts]), self.bias,
            self.post_ops[at + 1:], "auto", "f32", tuple(dw_scales), ())
        return first, second

    def input_desc(self, name: str) -> MemoryDesc:
        """The descriptor of a post-op input (`post_op_inputs`): ``dst_init`` the destination;
        ``binary_<i>`` / ``prelu_<i>`` the second input of post-op i; ``dw_wei`` / ``dw_bias`` the
        depthwise post-op's weights (plain) and bias."""
        if name == "dst_init":
            return self.dst
        dw = self.fused_dw
        if name in ("dw_wei", "dw_bias") and dw:
            second = self.split_dw()[1]
            return second.wei if name == "dw_wei" else MemoryDesc((self.desc.oc,), "f32", "a")
        kind, _, index = name.rpartition("_")
        if kind in ("binary", "prelu") and index.isdigit() and int(index) < len(self.post_ops):
            i = int(index)
            if dw and i > dw[0]:
                return self.split_dw()[1].binary_desc(self.post_ops[i])
            return self.binary_desc(self.post_ops[i])
        raise ProblemError(f"kernel {self.name} has no input named {name}")

    def scale(self, arg: str) -> QuantArg | None:
        return next((q for q in self.scales if q.arg == arg), None)

    def zero_point(self, arg: str) -> QuantArg | None:
        return next((q for q in self.zero_points if q.arg == arg), None)

    def quant_args(self) -> tuple[tuple[str, QuantArg], ...]:
        """The runtime quantization arguments present, (name, attribute), in `QUANT_ARGS` order."""
        out = []
        for name in QUANT_ARGS:
            arg, kind = name.rsplit("_", 1)
            q = self.scale(arg) if kind == "scale" else self.zero_point(arg)
            if q is not None:
                out.append((name, q))
        return tuple(out)

    def quant_shape(self, q: QuantArg) -> tuple[int, ...]:
        """Shape of the values array: () common; (OC,) per output channel; (IC,) per source channel."""
        if not q.per_channel:
            return ()
        return (self.desc.ic,) if q.arg == "src" else (self.desc.oc,)      # the dw convolution keeps OC

    def quant_dtype(self, name: str) -> DataType:
        """The runtime array's type: f32 scales, s32 zero points (given in s8 / u8 too, widened)."""
        return get_dtype("f32" if name.endswith("scale") else "s32")

    def post_op_inputs(self) -> tuple[tuple[str, int, PostOp], ...]:
        """The post-ops' runtime inputs, (argument name, chain index, post-op): the sum's prior
        destination (``dst_init``), each binary's second input (``binary_<i>``), each prelu's weights
        (``prelu_<i>``), the depthwise post-op's weights and bias (``dw_wei``, ``dw_bias``), in chain
        order. `input_desc` gives each one's descriptor."""
        out = []
        for i, op in enumerate(self.post_ops):
            if isinstance(op, DwConv):
                out.append(("dw_wei", i, op))
                if self.bias:
                    out.append(("dw_bias", i, op))
            elif isinstance(op, Sum) and not any(n == "dst_init" for n, _, _ in out):
                out.append(("dst_init", i, op))
            elif isinstance(op, Binary):
                out.append((f"binary_{i}", i, op))
            elif isinstance(op, Prelu):
                out.append((f"prelu_{i}", i, op))
        return tuple(out)

    def binary_mask(self, op: Binary | Prelu) -> tuple[int, ...]:
        """The destination dims a binary / prelu input varies along (common: none; per_oc: (1,))."""
        mask = policy_mask(op.policy, self.desc.ndims)
        if mask == (1,) or not mask:
            return mask
        return tuple(range(self.desc.ndims)) if len(mask) == self.desc.ndims else mask

    def binary_desc(self, op: Binary | Prelu) -> MemoryDesc:
        """The second input of a binary / prelu post-op: common (1 value), per_oc (OC values) or a
        destination-shaped tensor (size 1 along the dims outside its mask) in its tag (``any``: the
        destination's layout for a full tensor, plain otherwise)."""
        dt = op.dt if isinstance(op, Binary) else "f32"
        mask = self.binary_mask(op)
        if not mask:
            return MemoryDesc((1,), dt, "a")
        if mask == (1,):
            return MemoryDesc((self.desc.oc,), dt, "a")
        dims = tuple(n if i in mask else 1 for i, n in enumerate(self.dst.dims))
        tag = getattr(op, "tag", "any")
        if tag in ("any", ""):
            return self.dst.with_dtype(dt) if dims == self.dst.dims else MemoryDesc(dims, dt, None)
        return MemoryDesc(dims, dt, tag)

    @property
    def name(self) -> str:
        """Procedural name encoding every parameter (also the kernel's function-name prefix)."""
        parts = [f"conv_{self.alg}", str(self.desc),
                 f"{self.src.dtype.name}_{self.src.format_name()}", f"{self.wei.dtype.name}_{self.wei.format_name()}",
                 f"{self.dst.dtype.name}_{self.dst.format_name()}",
                 ("bias" if self.bias_dt == "f32" else f"bias_{self.bias_dt}") if self.bias else "nobias"]
        if self.relu:
            parts.append("relu")
        else:
            parts += ["scale_" + q.ident for q in self.scales]
            parts += ["zp_" + q.ident for q in self.zero_points]
            parts += [op.ident for op in self.post_ops]
        return re.sub(r"[^A-Za-z0-9_]", "_", "__".join(parts))

    @property
    def tolerance(self) -> float:
        """Allowed |error| relative to the largest |reference| value. Direct, im2col and indirect
        kernels add integer-valued products exactly, so 0; Winograd's transforms have fractional
        coefficients whose f32 rounding grows with the tile size (measured: 2e-7 for F(4,3) and 5e-7
        for F(6,3) relative to the largest output on IC=17; the bounds leave room for deeper layers)."""
        return WINOGRAD_TOLERANCE.get(self.alg, 0.0)

    # ------------------------------------------------------------------ reference
    def reference(self, src: np.ndarray, wei: np.ndarray, bia: np.ndarray | None, *,
                  quant: dict | None = None, inputs: dict | None = None) -> np.ndarray:
        """Destination buffer from physical src/weights buffers and a logical bias, in float64, with
        oneDNN's formulas (`generator.problem.attr`): ``quant`` holds the `quant_args` values,
        ``inputs`` the `post_op_inputs` (physical buffers; the sum's prior destination in the
        destination's layout)."""
        if self.fused_dw:
            first, second = self.split_dw()
            q1, i1, q2, i2 = self.split_dw_args(quant or {}, inputs or {})
            if "dw_wei" not in i2 or (self.bias and "dw_bias" not in i2):
                raise ProblemError("the reference needs dw_wei= (and dw_bias= with a bias)")
            mid = first.reference(src, wei, bia, quant=q1, inputs=i1)
            return second.reference(mid, i2.pop("dw_wei"), i2.pop("dw_bias", None), quant=q2, inputs=i2)
        v = self.reference_f32_domain(src, wei, bia, quant=quant, inputs=inputs)
        if self.dst.dtype.is_int:
            v = np.where(np.isnan(v), 0.0, v)       # NaN (log, sqrt of negatives) converts to 0
        return self.dst.to_physical(convert_values(v, self.dst.dtype))

    def reference_f32_domain(self, src, wei, bia, *, quant=None, inputs=None) -> np.ndarray:
        """The logical destination before the final conversion (float64)."""
        d = self.desc
        quant = quant or {}
        inputs = inputs or {}
        nsp = d.ndims - 2

        def values(name: str) -> np.ndarray:
            return np.asarray(quant[name], np.float64)

        x = self.src.from_physical(src).astype(np.float64)
        w = self.wei.from_physical(wei).astype(np.float64).reshape(torch_wei_dims(d))
        if self.zero_point("src"):
            zs = values("src_zp")
            x = x - (zs.reshape((1, -1) + (1,) * nsp) if zs.ndim else zs)
        if self.zero_point("wei"):
            w = w - values("wei_zp")
        sp = d.spatial()
        y = conv_reference(x, w, None, groups=d.g, strides=[s.s for s in sp], pads_l=[s.p for s in sp],
                           pads_r=[s.p_r for s in sp], dilations=[s.d for s in sp])
        chan = (1, -1) + (1,) * nsp
        for name in ("src_scale", "wei_scale"):
            if self.scale(name[:3]):
                sc = values(name).astype(np.float32).astype(np.float64)
                y = y * (sc.reshape(chan) if sc.ndim else sc)
        if bia is not None:
            b = np.asarray(bia)
            b = convert_values(b.astype(np.float64), get_dtype(self.bias_dt)).astype(np.float64)
            y = y + b.reshape(chan)
        if self.post_ops:
            y = self._post_ops_reference(y, inputs)
        if self.scale("dst"):
            y = y / values("dst_scale").astype(np.float32).astype(np.float64)
        if self.zero_point("dst"):
            zd = values("dst_zp")
            y = y + (zd.reshape(chan) if zd.ndim else zd)
        return y

    def _post_ops_reference(self, y: np.ndarray, inputs: dict) -> np.ndarray:
        chan = (1, -1) + (1,) * (self.desc.ndims - 2)
        for name, i, _ in self.post_op_inputs():
            if name not in inputs:
                raise ProblemError(f"the reference needs {name}=")
        for i, op in enumerate(self.post_ops):
            if isinstance(op, Eltwise):
                y = eltwise_reference(y, op)
            elif isinstance(op, Sum):
                prior_dt = get_dtype(op.dt or self.dst.dtype.name)
                buf = np.ascontiguousarray(inputs["dst_init"]).view(prior_dt.np_dtype)
                prior = self.dst.with_dtype(prior_dt).from_physical(buf).astype(np.float64)
                y = y + f32(op.scale) * (prior - op.zero_point)
            else:
                name = f"{'binary' if isinstance(op, Binary) else 'prelu'}_{i}"
                desc = self.binary_desc(op)
                s1 = desc.from_physical(np.asarray(inputs[name])).astype(np.float64)
                mask = self.binary_mask(op)
                if not mask:
                    s1 = s1.reshape(())
                elif mask == (1,):
                    s1 = s1.reshape(chan)
                if isinstance(op, Binary):
                    y = binary_reference(y, op.kind, s1)
                else:
                    y = np.where(y > 0, y, y * s1)
        return y


def torch_wei_dims(d: ConvDesc) -> tuple[int, ...]:
    """PyTorch's weight layout (OC, IC/G, [KD,] [KH,] KW)."""
    return (d.oc, d.ic // d.g) + tuple(s.k for s in d.spatial())
