"""The convolution descriptor, `ConvDesc`: benchdnn's ``conv::desc_t`` (shapes, strides, padding,
dilation, groups), validated as oneDNN's ``conv_desc_init`` does, with the tensor shapes and operation
counts derived from it. `ConvDesc.format` prints benchdnn's form (the kernels' names carry it); the
grammar that parses it is `generator.benchdnn.conv`'s.
"""
from __future__ import annotations

import dataclasses
import math
import operator
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import ProblemError
from .geometry import kernel_extent

__all__ = ["AXES", "ConvDesc", "DEFAULT_MB", "DESC_FIELDS", "SpatialDim"]

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

    @property
    def out_pixels(self) -> int:
        """Output positions of the whole batch: ``mb * prod(o)``."""
        return self.mb * math.prod(sp.o for sp in self.spatial())

    @property
    def taps(self) -> int:
        """Kernel taps: ``prod(k)``."""
        return math.prod(sp.k for sp in self.spatial())

    def macs(self) -> int:
        """Multiply-accumulates of the forward pass counting every tap, padding included:
        ``mb * oc * ic/g * prod(o) * prod(k)``."""
        return self.out_pixels * self.oc * (self.ic // self.g) * self.taps

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
            sp_ops = sp_upper * self.taps
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
