"""benchdnn convolution descriptors and conv-driver command lines -> `ConvDesc` / `ConvCase`.

Two layers, both oneDNN benchdnn's (commit 3f27bec of uxlfoundation/oneDNN, the one
``/work/shared/benchdnn`` was copied from):

**The descriptor** (``tests/benchdnn/conv/conv_aux.cpp`` ``str2desc`` and ``operator<<``,
``conv/conv.hpp`` ``desc_t``, ``common.cpp`` ``sanitize_desc`` / ``print_dhw``,
``doc/knobs_desc.md``)::

    gXmbX_icXidXihXiwX_ocXodXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwXnNAME

`parse_conv_desc` resolves it the way ``str2desc`` does:

* Entries may come in any order; ``_`` may follow an entry's value (benchdnn skips one ``_`` after
  a recognised entry only, so a leading ``_`` or ``__`` is an error there and here). ``n`` starts
  the name: everything after it, surrounding double quotes dropped (benchdnn keeps them; we keep
  the bare label and print it back quoted, see below).
* Defaults: g=1 (and no group dimension in the weights unless ``g`` is written, even ``g1``),
  mb=2, s=1, d=0. oneDNN dilation ``d`` means taps ``d+1`` apart (d=0 is a dense kernel), so the
  kernel extent is ``(k-1)*(d+1)+1``. ``ic``, ``oc`` and, per used spatial dim, ``i`` and ``k`` are
  mandatory; every value is a non-negative integer (``strtoll``: an optional sign is read, a
  negative value is rejected); ``g``, ``ic``, ``oc``, strides, inputs and kernels must be > 0.
* A spatial dim is *used* when any of its i/k/o/d entries is non-zero, its stride is not 1 or
  its padding is >= 1 (benchdnn's ``no_d/no_h/no_w``). For a used dim with no output the output
  is computed with padding 0 if none was given: ``o = (i - ext + 2p) / s + 1``; with an output
  but no padding, the padding is derived: ``p = ((o-1)*s - i + ext) / 2``. Both divisions are
  C's (truncate toward zero) -- `output_size`, `derive_padding`.
* ndims comes from which outputs are set (``sanitize_desc``): depth -> 3D (ndims 5; unset h and
  w copy every d value, or both h and w must be given), else height -> 2D (ndims 4; an unset w
  copies every h value), else width -> 1D (ndims 3), else an error (no spatial dim). Unused dims
  hold o=i=k=s=1, p=d=0.
* The right padding is derived (``desc_t::init_pad_r``): ``p_r = (o-1)*s - i + ext - p``
  (`right_padding`). It is negative when the last input rows are never read (e.g. the
  ``..._pw-right(-1)`` shapes); that is legal.

On top of ``str2desc``, a descriptor must pass the checks oneDNN's ``conv_desc_init``
(``src/common/convolution.cpp``) makes when benchdnn creates the primitive -- benchdnn reports a
failure ("invalid arguments") for those, so they are rejected here as well: ``ic`` and ``oc``
divisible by ``g``, left padding >= 0 (only a *derived* padding can be negative: a given output
smaller than input, kernel and stride produce), ``p_r + s > 0`` (likewise, with the padding given).
One deliberate deviation: a repeated entry (``ic3ic4``) is an error; benchdnn silently keeps the
last one.

Printing (`ConvDesc.__str__`) is benchdnn's ``operator<<(std::ostream &, const desc_t &)`` with
``--canonical=false``: ``g`` only when written, ``mb`` only when != 2, ``ic``, inputs, ``oc``,
outputs, kernels, strides only when one is != 1, paddings always, dilations only when one is != 0,
then ``n"NAME"``. Spatial entries follow ``print_dhw``: 1D prints only w; 2D prints h, and w too
unless the shape is square (every h value equals its w value); 3D prints d, and h and w too
unless the shape is cubic. Paddings and outputs are printed even when they were derived, so
``str(d)`` pins the problem: ``ic3ih5oc4kh3`` prints as ``ic3ih5oc4oh3kh3ph0``.
``ConvDesc.format(canonical=True)`` is benchdnn's ``--canonical=true`` form (every entry).
The name is always printed in double quotes: that is what benchdnn prints for every name its
batch files carry; for a name given unquoted on a shell command line benchdnn prints none
(``nwip``), the one place our printing differs.

**The driver** (``conv/bench_conv.cpp``, ``utils/parser.cpp``, ``doc/driver_conv.md``,
``doc/knobs_attr.md``): the same state machine as the reorder driver (`generator.problem.benchdnn`:
option scoping, ``--reset``, comma alternatives, nested ``--batch``, comments and ``\\``
continuation), with the conv options::

    kgen conv [--dir=FWD_B|FWD_D|FWD_I] [--dt=f32|f16|bf16|s8:s8:s32 ...] [--bia-dt=DT]
              [--stag=TAG] [--wtag=TAG] [--dtag=TAG] [--alg=direct|im2col|winograd|spatial_pack|
              indirect|auto] [--attr-post-ops=relu] [--mb=N] [--backend=...] [--src=F.npy]
              [--wei=F.npy] [--bia=F.npy] [--dst=F.npy] [--mode=C|P] [--batch=FILE] DESC...

* ``--dt`` takes one data type (used for src, weights and dst) or three joined by ``:`` in the
  order SRC:WEI:DST; ``--cfg`` is the legacy spelling (``f32``, ``u8s8s32``, ``bf16bf16f32``,
  ``f32_wino``...: the data-type names concatenated).
* ``--alg``: benchdnn's ``DIRECT``/``WINO``/``AUTO`` (and ``convolution_direct`` ...), case-
  insensitive, plus the product's algorithm names; ``WINO`` is ``winograd`` here. Default
  ``direct`` (benchdnn's default).
* ``--mb=N`` overrides the descriptor's minibatch (0 = keep it); the override is applied to
  `ConvCase.desc` (benchdnn's ``prb_t`` does the same, and prints the overridden descriptor).
* ``--dir``: FWD_B (default, with an f32 bias), FWD_D, FWD_I (no bias unless ``--bia-dt`` names
  one), BWD_D, BWD_W, BWD_WB, BWD_DW (accepted, listed as unsupported).
* Loop order of the alternatives (``bench_conv.cpp`` ``check_correctness`` and the attribute order
  of ``settings_t::finalize``): dir, dt, bia-dt, stag, wtag, dtag, strides, alg, scales,
  zero-points, precomputed-reductions, post-ops, fpmath, acc-mode, dropout, rounding-mode, mb
  (innermost).

What a case carries. Modelled: direction, data types, bias data type, tags, algorithm, the
post-ops, minibatch override, the descriptor. Knobs the product does not implement are carried
verbatim in `ConvCase.knobs` (so `ConvCase.repro` reproduces them) and each is listed in
`ConvCase.unsupported` spelled as the option that causes it: ``--strides=...``,
``--attr-scales=...``, ``--attr-zero-points=...``, ``--attr-precomputed-reductions=...``,
``--attr-fpmath=...``, ``--attr-acc-mode=...``, ``--attr-rounding-mode=...``,
``--attr-dropout=...``, ``--impl=...``/``--skip-impl=...``; likewise a direction, data-type
combination, bias type or post-op the product does not implement (``--dir=BWD_D``,
``--dt=u8:s8:s32``, ``--attr-post-ops=sum:0.5``). Harness-only knobs are accepted and ignored
(``--engine``, ``-vN``, ``--ctx-init``, ``--attr-scratchpad``, ...; unlike benchdnn, their comma
alternatives do not multiply the cases). Unknown options raise `ProblemError` naming the option.
"""
from __future__ import annotations

import dataclasses
import difflib
import itertools
import math
import operator
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple

from ..errors import ProblemError
from .benchdnn import (
    DATA_TYPES,
    _IGNORED as _REORDER_IGNORED,
    _OTHER_DRIVERS,
    _Parser,
    parse_list_file,
    _err,
    _parse_dt,
    _parse_tag,
    _q,
    _split_plus,
    Token,
)

__all__ = [
    "ALGORITHMS",
    "ConvCase",
    "ConvDesc",
    "DEFAULT_CONV_EXTRA_OPTIONS",
    "DIRECTIONS",
    "SUPPORTED_DIRECTIONS",
    "SUPPORTED_DTS",
    "SUPPORTED_POST_OPS",
    "SpatialDim",
    "derive_padding",
    "kernel_extent",
    "output_size",
    "parse_conv_args",
    "parse_conv_batch_file",
    "parse_conv_desc",
    "parse_conv_list_file",
    "right_padding",
]

# --------------------------------------------------------------------------------------------
# Arithmetic (pure, shared by the parser, the kernels and the tests)
# --------------------------------------------------------------------------------------------


def _cdiv(a: int, b: int) -> int:
    """C's integer division (truncates toward zero), which benchdnn and oneDNN use."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def kernel_extent(k: int, d: int = 0) -> int:
    """Input span of a kernel of ``k`` taps with oneDNN dilation ``d`` (taps ``d+1`` apart)."""
    return (k - 1) * (d + 1) + 1


def output_size(i: int, k: int, s: int = 1, p: int = 0, p_r: int | None = None, d: int = 0) -> int:
    """Output length of a convolution: ``(i - ext + p + p_r) / s + 1`` with ``ext = (k-1)*(d+1)+1``.

    ``p_r`` defaults to ``p`` (symmetric padding, benchdnn's ``compute_out``). The division is C's
    (toward zero), exactly as oneDNN's ``conv_desc_init`` checks ``dst``; it differs from floor
    division only when ``i + p + p_r < ext``. Worked: i=5, k=3, s=2, p=1 -> (5-3+2)/2+1 = 3;
    i=10, k=3, d=1 (ext 5), s=1, p=0 -> 6.
    """
    if p_r is None:
        p_r = p
    return _cdiv(i - kernel_extent(k, d) + p + p_r, s) + 1


def derive_padding(o: int, i: int, k: int, s: int = 1, d: int = 0) -> int:
    """benchdnn's left padding for a given output (``compute_pad``): ``((o-1)*s - i + ext) / 2``, C
    division. Worked: o=i=56, k=3 -> 1; o=28, i=56, k=3, s=2 -> (54-56+3)/2 = 0 (right pad 1)."""
    return _cdiv((o - 1) * s - i + kernel_extent(k, d), 2)


def right_padding(i: int, o: int, k: int, s: int = 1, p: int = 0, d: int = 0) -> int:
    """The right (end) padding that makes ``o`` outputs exact (``desc_t::opp_pad``):
    ``(o-1)*s - i + ext - p``. Negative when the last input elements are never read."""
    return (o - 1) * s - i + kernel_extent(k, d) - p


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
_FIELD_ALT = r"g|mb|i[cdhw]|o[cdhw]|k[dhw]|s[dhw]|p[dhw]|d[dhw]"
_FAST_RE = re.compile(rf"((?:(?:{_FIELD_ALT})[0-9]+_?)*)(?:n(.*))?", re.DOTALL)
_PAIR_RE = re.compile(rf"({_FIELD_ALT})([0-9]+)")
DEFAULT_MB = 2
_INT64_MAX = 2**63 - 1
#: One entry: a name, the integer strtoll(s, &end, 10) would read (optional blanks and sign), and
#: the one '_' benchdnn skips after it.
_ENTRY_RE = re.compile(rf"({_FIELD_ALT})([ \t\n\v\f\r]*[+-]?[0-9]+)?_?")


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


def _bad(text: str, msg: str) -> ProblemError:
    return ProblemError(f"bad conv descriptor {_q(text)}: {msg}")


def parse_conv_desc(text: str) -> ConvDesc:
    """Parse a benchdnn convolution descriptor (``conv_aux.cpp`` ``str2desc``) into a `ConvDesc`.

    Raises `ProblemError` with one line naming the offending entry, e.g.
    ``bad conv descriptor 'ic3ih5kh3': 'oc' was not specified or set to 0``.
    """
    text = str(text)
    m = _FAST_RE.fullmatch(text)
    if m is not None:                    # the common spelling: plain digits, no duplicate
        pairs = _PAIR_RE.findall(m.group(1))
        vals = {f: int(x) for f, x in pairs}
        if len(vals) == len(pairs) and max(vals.values(), default=0) <= _INT64_MAX:
            name = (m.group(2) or "").strip('"')
            return _resolve(text, vals, name)
    vals, name = _scan(text)
    return _resolve(text, vals, name)


def _scan(text: str) -> tuple[dict[str, int], str]:
    """str2desc's scanning loop, with an error message for every way it can fail."""
    vals: dict[str, int] = {}
    name = ""
    pos = 0
    n = len(text)
    # benchdnn scans with a loop that tries every entry name in turn and skips one '_' after a
    # step that recognised something; the regex below accepts exactly the same strings.
    while pos < n:
        m = _ENTRY_RE.match(text, pos)
        if m is None:
            if text[pos] == "n":
                name = text[pos + 1:].strip('"')
                break
            raise _bad(text, f"unrecognized entry at {_q(text[pos:], 20)} (expected one of "
                             f"{', '.join(DESC_FIELDS)}, '_' after a value, or n for the name)")
        f, value = m.group(1), m.group(2)
        if value is None:
            raise _bad(text, f"no value for {f!r} (at {_q(text[pos:], 20)}); every entry is a name "
                             f"followed by an integer, e.g. ic16")
        v = int(value)
        if v < 0:
            raise _bad(text, f"{f}={v} must be non-negative")
        if v > _INT64_MAX:
            raise _bad(text, f"{f}={value.strip()} is too large")
        if f in vals:
            raise _bad(text, f"{f!r} given twice ({f}{vals[f]} and {f}{v})")
        vals[f] = v
        pos = m.end()
    return vals, name


def _resolve(text: str, vals: dict[str, int], name: str) -> ConvDesc:
    """str2desc after scanning: defaults, derived outputs and paddings, sanitize_desc."""
    has_groups = "g" in vals
    g = vals.get("g", 1)
    mb = vals.get("mb", DEFAULT_MB)
    ic = vals.get("ic", 0)
    oc = vals.get("oc", 0)
    # Per axis, benchdnn's vector order [o, i, k, s, p, d]; p = -1 means "not given".
    ax = {a: [vals.get(key, dv) for key, dv in zip(keys, (0, 0, 0, 1, -1, 0))]
          for a, keys in _AXIS_KEYS.items()}

    def unset(f: str) -> ProblemError:
        return _bad(text, f"{f!r} was not specified or set to 0")

    if has_groups and g <= 0:
        raise unset("g")
    if ic <= 0:
        raise unset("ic")
    if oc <= 0:
        raise unset("oc")
    for a in AXES:
        if ax[a][3] <= 0:
            raise unset(f"s{a}")

    for a in AXES:
        o, i, k, s, p, dil = ax[a]
        if (i | k | o | dil) == 0 and s == 1 and p < 1:
            continue                                   # benchdnn's no_d / no_h / no_w
        if i <= 0:
            raise unset(f"i{a}")
        if k <= 0:
            raise unset(f"k{a}")
        if not o:
            if p < 0:
                p = 0
            o = output_size(i, k, s, p, p, dil)
            if o <= 0:
                raise _bad(text, f"'o{a}' was not specified and i{a}={i}, k{a}={k}, s{a}={s}, "
                                 f"p{a}={p}, d{a}={dil} give o{a}={o} (the kernel extent "
                                 f"{kernel_extent(k, dil)} exceeds the padded input)")
        elif p < 0:
            p = derive_padding(o, i, k, s, dil)
            if p < 0:
                raise _bad(text, f"o{a}={o} is too small for i{a}={i}, k{a}={k}, s{a}={s}, d{a}={dil}: "
                                 f"the derived left padding p{a}={p} is negative")
        ax[a] = [o, i, k, s, p, dil]

    # sanitize_desc: ndims from the outputs, promotion of unset dims, defaults for unused ones.
    no_d, no_h, no_w = (ax[a][0] == 0 for a in AXES)
    ndims = 5 - no_d - (no_d and no_h) - (no_d and no_h and no_w)
    if ndims <= 2:
        raise _bad(text, "no spatial dimension (give at least iw and kw, ih and kh, or id and kd)")
    if ndims == 5:
        if no_h and no_w:
            ax["h"] = list(ax["d"])
            ax["w"] = list(ax["d"])
        elif no_h or no_w:
            given, missing = ("w", "h") if no_h else ("h", "w")
            raise _bad(text, f"3D problem with '{given}' entries but no '{missing}' ones: give both "
                             f"h and w, or neither (then they copy d)")
    elif ndims == 4 and no_w:
        ax["w"] = list(ax["h"])
    for a in AXES[:5 - ndims]:
        ax[a] = list(_UNUSED)
    d = {"g": g, "mb": mb, "ic": ic, "oc": oc, "ndims": ndims, "has_groups": has_groups, "name": name}
    for a, keys in _AXIS_KEYS.items():
        d.update(zip(keys, ax[a]))

    try:
        return ConvDesc._trusted(d)
    except ProblemError as e:
        msg = str(e)
        prefix = "bad conv descriptor: "
        raise _bad(text, msg[len(prefix):] if msg.startswith(prefix) else msg) from None


# --------------------------------------------------------------------------------------------
# Driver tables
# --------------------------------------------------------------------------------------------

#: benchdnn's ``--dir`` values (``str2dir``, case-insensitive), in benchdnn's spelling.
DIRECTIONS = ("FWD_B", "FWD_D", "FWD_I", "BWD_D", "BWD_W", "BWD_WB", "BWD_DW")
SUPPORTED_DIRECTIONS = ("FWD_B", "FWD_D", "FWD_I")
_DIRS_WITH_BIAS = ("FWD_B", "BWD_WB")      # FLAG_BIA in utils/res.hpp
DEFAULT_DIR = "FWD_B"

#: Data-type triples (src, wei, dst) the product implements. One place to extend.
SUPPORTED_DTS = frozenset({("f32", "f32", "f32"), ("f16", "f16", "f16"), ("bf16", "bf16", "bf16"),
                           ("s8", "s8", "s32")})
SUPPORTED_BIA_DTS = ("f32",)
DEFAULT_DT = ("f32", "f32", "f32")

#: ``--alg`` spellings -> the product's algorithm name (benchdnn's str2alg names are aliases).
ALGORITHMS = ("direct", "im2col", "winograd", "winograd_f2", "winograd_f4", "winograd_f6", "spatial_pack",
              "indirect", "auto")
_ALG_ALIASES = {"convolution_direct": "direct", "wino": "winograd", "convolution_wino": "winograd",
                "convolution_winograd": "winograd", "convolution_auto": "auto"}
DEFAULT_ALG = "direct"
DEFAULT_TAG = "any"

#: Post-ops the product implements, in their normalized spelling.
SUPPORTED_POST_OPS = ("relu",)
#: benchdnn's post-op kinds (``dnn_types.cpp`` ``kind_table``), lower case.
_ELTWISE_KINDS = ("abs", "clip", "clip_v2", "clip_v2_dst", "elu", "elu_dst", "exp", "exp_dst",
                  "gelu_erf", "gelu_tanh", "hardsigmoid", "hardswish", "linear", "log", "logistic",
                  "logistic_dst", "mish", "pow", "relu", "relu_dst", "round", "sqrt", "sqrt_dst",
                  "square", "soft_relu", "srelu", "swish", "tanh", "tanh_dst")
_ELTWISE_LONG = {"eltwise_clip_v2_use_dst_for_bwd": "clip_v2_dst", "eltwise_elu_use_dst_for_bwd": "elu_dst",
                 "eltwise_exp_use_dst_for_bwd": "exp_dst", "eltwise_logistic_use_dst_for_bwd": "logistic_dst",
                 "eltwise_relu_use_dst_for_bwd": "relu_dst", "eltwise_sqrt_use_dst_for_bwd": "sqrt_dst",
                 "eltwise_tanh_use_dst_for_bwd": "tanh_dst"}
_BINARY_KINDS = ("add", "div", "eq", "ge", "gt", "le", "lt", "max", "min", "mul", "ne", "select", "sub")
_OTHER_PO_KINDS = ("sum", "dw", "prelu")

#: Product options beyond benchdnn; global (``--reset`` keeps them), attached to each case.
DEFAULT_CONV_EXTRA_OPTIONS: Mapping[str, str | None] = {
    "backend": None, "src": None, "wei": None, "bia": None, "dst": None, "mode": None}

#: Order of the options in a repro line (``conv_aux.cpp`` ``set_repro_line``, then ``attr_t``'s
#: ``operator<<``). Names that are not modelled fields are *knobs*.
_REPRO_ORDER = ("dir", "dt", "bia-dt", "stag", "wtag", "dtag", "strides", "alg", "attr-scales",
                "attr-zero-points", "attr-precomputed-reductions", "attr-post-ops", "attr-fpmath",
                "attr-acc-mode", "attr-rounding-mode", "attr-dropout", "impl", "skip-impl",
                "global-impl", "global-skip-impl", "buffer-prefix")
_MODELLED = ("dir", "dt", "bia-dt", "stag", "wtag", "dtag", "alg", "attr-post-ops")
KNOB_NAMES = tuple(n for n in _REPRO_ORDER if n not in _MODELLED)
_ORDER_RANK = {n: i for i, n in enumerate(_REPRO_ORDER)}


def _dt_text(dt: tuple[str, str, str]) -> str:
    return dt[0] if dt[0] == dt[1] == dt[2] else ":".join(dt)


# --------------------------------------------------------------------------------------------
# The case
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConvCase:
    """One convolution problem with the driver settings in effect.

    ``dt`` is (src, wei, dst) (a single ``--dt`` is broadcast, as benchdnn's ``prb_t`` does);
    ``bia_dt`` is the bias type or None (no bias): f32 for FWD_B whatever ``--bia-dt`` says, else
    ``--bia-dt``. ``desc`` has the ``--mb`` override applied; ``mb`` keeps the override itself (0
    = none) and is not compared (benchdnn's repro prints only the resulting descriptor).
    ``post_ops`` are the ``--attr-post-ops`` entries (``"relu"`` normalized). ``knobs``: the
    non-default benchdnn settings the product does not model, (option, value) in repro order.
    ``extras``: the product options in effect. ``unsupported`` is derived: one reason per thing
    the product does not implement, spelled as the option that causes it; empty when supported.
    """
    desc: ConvDesc
    dir: str = DEFAULT_DIR
    dt: tuple[str, str, str] = DEFAULT_DT
    bia_dt: str | None = None
    stag: str = DEFAULT_TAG
    wtag: str = DEFAULT_TAG
    dtag: str = DEFAULT_TAG
    alg: str = DEFAULT_ALG
    post_ops: tuple[str, ...] = ()
    knobs: tuple[tuple[str, str], ...] = ()
    extras: tuple[tuple[str, str], ...] = ()
    mb: int = field(default=0, compare=False)
    unsupported: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.desc, ConvDesc):
            raise ProblemError(f"ConvCase.desc must be a ConvDesc, got {type(self.desc).__name__}")
        if self.dir not in DIRECTIONS:
            raise ProblemError(f"unknown direction {_q(self.dir)} (expected one of {', '.join(DIRECTIONS)})")
        dt = (self.dt,) * 3 if isinstance(self.dt, str) else tuple(self.dt)
        if len(dt) == 1:
            dt = dt * 3
        if len(dt) != 3 or any(t not in DATA_TYPES for t in dt):
            raise ProblemError(f"bad data types {self.dt!r} (expected one or three of "
                               f"{', '.join(DATA_TYPES)})")
        set_(self, "dt", dt)
        if self.dir in _DIRS_WITH_BIAS:
            set_(self, "bia_dt", "f64" if dt[1] == "f64" else "f32")
        elif self.bia_dt is not None and self.bia_dt not in DATA_TYPES:
            raise ProblemError(f"bad bias data type {self.bia_dt!r}")
        if self.alg not in ALGORITHMS:
            raise ProblemError(f"unknown algorithm {_q(self.alg)} (expected one of {', '.join(ALGORITHMS)})")
        set_(self, "post_ops", tuple(self.post_ops))
        for k, _ in self.knobs:
            if k not in KNOB_NAMES:
                raise ProblemError(f"unknown knob '{k}' (expected one of {', '.join(KNOB_NAMES)})")
        set_(self, "knobs", tuple(sorted(((str(k), str(v)) for k, v in self.knobs),
                                         key=lambda kv: _ORDER_RANK[kv[0]])))
        set_(self, "extras", tuple((str(k), str(v)) for k, v in self.extras))
        reasons: list[str] = []
        if self.dir not in SUPPORTED_DIRECTIONS:
            reasons.append(f"--dir={self.dir}")
        if self.dt not in SUPPORTED_DTS:
            reasons.append(f"--dt={_dt_text(self.dt)}")
        if self.bia_dt is not None and self.bia_dt not in SUPPORTED_BIA_DTS:
            reasons.append(f"--bia-dt={self.bia_dt}")
        for opt in _REPRO_ORDER:
            if opt == "attr-post-ops":
                reasons += [f"--attr-post-ops={p}" for p in self.post_ops if p not in SUPPORTED_POST_OPS]
            elif opt in KNOB_NAMES:
                reasons += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        set_(self, "unsupported", tuple(reasons))

    @property
    def supported(self) -> bool:
        return not self.unsupported

    @property
    def name(self) -> str:
        return self.desc.name

    @property
    def with_bias(self) -> bool:
        return self.bia_dt is not None

    @property
    def src_dt(self) -> str:
        return self.dt[0]

    @property
    def wei_dt(self) -> str:
        return self.dt[1]

    @property
    def dst_dt(self) -> str:
        return self.dt[2]

    @property
    def weight(self) -> int:
        """How often the layer occurs in the model(s) it comes from: the sum of the ``*N`` counts of
        the ``&``-joined parts of the name (``resnet_50:res2a_branch2b*3`` -> 3; 1 without)."""
        total = 0
        for part in self.name.split("&"):
            if part:
                m = re.fullmatch(r".*?\*([0-9]+)", part)
                total += int(m.group(1)) if m else 1
        return max(total, 1)

    def knob(self, name: str) -> str | None:
        return next((v for k, v in self.knobs if k == name), None)

    def extra(self, name: str) -> str | None:
        return next((v for k, v in self.extras if k == name), None)

    def repro_args(self) -> list[str]:
        """The `repro` line as an argv list."""
        args: list[str] = []
        for opt in _REPRO_ORDER:
            if opt == "dir":
                if self.dir != DEFAULT_DIR:
                    args.append(f"--dir={self.dir}")
            elif opt == "dt":
                if self.dt != DEFAULT_DT:
                    args.append(f"--dt={_dt_text(self.dt)}")
            elif opt == "bia-dt":
                if self.dir not in _DIRS_WITH_BIAS and self.bia_dt is not None:
                    args.append(f"--bia-dt={self.bia_dt}")
            elif opt in ("stag", "wtag", "dtag"):
                if getattr(self, opt) != DEFAULT_TAG:
                    args.append(f"--{opt}={getattr(self, opt)}")
            elif opt == "alg":
                if self.alg != DEFAULT_ALG:
                    args.append(f"--alg={self.alg}")
            elif opt == "attr-post-ops":
                if self.post_ops:
                    args.append("--attr-post-ops=" + "+".join(self.post_ops))
            else:
                args += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        args += [f"--{k}={v}" for k, v in self.extras]
        args.append(str(self.desc))
        return args

    def repro(self) -> str:
        """A benchdnn-like line reproducing exactly this case: only non-default options (as
        benchdnn's conv repro lines), then the descriptor in its short form, e.g.
        ``--dt=s8:s8:s32 --attr-post-ops=relu mb1ic3ih224oc64oh112kh7sh2ph3``.
        ``parse_conv_args(shlex.split(case.repro()))`` yields a case equal to this one."""
        return " ".join(shlex.quote(a) for a in self.repro_args())

    def __str__(self) -> str:
        return self.repro()


# --------------------------------------------------------------------------------------------
# Option parsers (one alternative each)
# --------------------------------------------------------------------------------------------

def _parse_dir(text: str, where: str | None) -> str:
    v = text.upper()
    if v not in DIRECTIONS:
        raise _err(f"--dir: unknown direction {_q(text)} (expected one of {', '.join(DIRECTIONS)})", where)
    return v


def _parse_dt_triple(text: str, where: str | None) -> tuple[str, str, str]:
    parts = text.split(":")
    if len(parts) not in (1, 3):
        raise _err(f"--dt: {_q(text)} has {len(parts)} data types; give one (for all tensors) or three "
                   f"as SRC:WEI:DST, e.g. u8:s8:s32", where)
    dts = tuple(_parse_dt(p, "--dt", where) for p in parts)
    return dts * 3 if len(dts) == 1 else dts  # type: ignore[return-value]


_DT_BY_LENGTH = sorted(DATA_TYPES, key=len, reverse=True)


def _parse_cfg(text: str, where: str | None) -> tuple[str, str, str]:
    """Legacy ``--cfg``: data-type names run together (``u8s8s32``), optional ``_wino`` suffix."""
    body = text.lower()
    if body.endswith("_wino"):
        body = body[:-5]
    dts: list[str] = []
    while body:
        dt = next((t for t in _DT_BY_LENGTH if body.startswith(t)), None)
        if dt is None:
            break
        dts.append(dt)
        body = body[len(dt):]
    if body or len(dts) not in (1, 3):
        raise _err(f"--cfg: unknown configuration {_q(text)} (expected e.g. f32, u8s8s32, bf16bf16f32; "
                   f"prefer --dt=SRC:WEI:DST)", where)
    return tuple(dts) * 3 if len(dts) == 1 else tuple(dts)  # type: ignore[return-value]


def _parse_bia_dt(text: str, where: str | None) -> str | None:
    if text.lower() in ("undef", "dnnl_data_type_undef"):
        return None
    return _parse_dt(text, "--bia-dt", where)


def _parse_alg(text: str, where: str | None) -> str:
    v = text.lower()
    v = _ALG_ALIASES.get(v, v)
    if v not in ALGORITHMS:
        raise _err(f"--alg: unknown algorithm {_q(text)} (expected one of {', '.join(ALGORITHMS)}; "
                   f"benchdnn's DIRECT, WINO, AUTO also work)", where)
    return v


def _parse_conv_tag(what: str) -> Callable[[str, str | None], str]:
    def parse(text: str, where: str | None) -> str:
        return _parse_tag(text, what, where)
    return parse


def _parse_strides(text: str, where: str | None) -> str:
    if text == "":
        return ""
    sides = text.split(":")
    if len(sides) != 3:
        raise _err(f"--strides={text}: expected SRC:WEI:DST (two ':'; a side may be empty), "
                   f"e.g. 903168x1x4032x9::6422528x1x28672x128", where)
    for s in sides:
        if s and not re.fullmatch(r"(0|[1-9][0-9]*)(x(0|[1-9][0-9]*))*", s):
            raise _err(f"--strides={text}: bad strides {_q(s)} (expected integers joined by 'x')", where)
    return text


def _parse_raw(option: str) -> Callable[[str, str | None], str]:
    def parse(text: str, where: str | None) -> str:
        if text and any(e == "" for e in _split_plus(text)):
            raise _err(f"--{option}={text}: empty '+' entry", where)
        return text
    return parse


def _parse_default_aware(option: str, defaults: tuple[str, ...]) -> Callable[[str, str | None], str]:
    """A raw attribute whose spelled-out default (``strict``) means "not set"."""
    raw = _parse_raw(option)

    def parse(text: str, where: str | None) -> str:
        return "" if text.lower() in defaults else raw(text, where)
    return parse


_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|nan)",
                       re.IGNORECASE)


def _parse_post_ops(text: str, where: str | None) -> tuple[str, ...]:
    """``--attr-post-ops``: '+'-joined entries ``KIND[:...]`` (``parser.cpp`` ``str2attr_post_ops``).
    Eltwise entries take ``[:ALPHA[:BETA]]``; ``relu`` with alpha = beta = 0 is normalized to
    ``relu``. Other kinds are kept verbatim (their kind lower-cased)."""
    if text == "":
        return ()
    out = []
    for entry in _split_plus(text):
        what = f"--attr-post-ops={text}"
        if entry == "":
            raise _err(f"{what}: empty '+' entry", where)
        kind_text, _, rest = entry.partition(":")
        kind = kind_text.lower()
        kind = _ELTWISE_LONG.get(kind, kind)
        if kind.startswith("eltwise_") and kind[8:] in _ELTWISE_KINDS:
            kind = kind[8:]
        if kind.startswith("binary_") and kind[7:] in _BINARY_KINDS:
            kind = kind[7:]
        if kind not in _ELTWISE_KINDS + _BINARY_KINDS + _OTHER_PO_KINDS:
            raise _err(f"{what}: unknown post-op kind {_q(kind_text)} (expected e.g. relu, sum, add:f32, "
                       f"dw:k3s1p1; see benchdnn knobs_attr.md)", where)
        if kind == "dw" and not rest:
            raise _err(f"{what}: the dw post-op needs its parameters, e.g. dw:k3s1p1", where)
        params = rest.split(":") if rest else []
        if kind in _ELTWISE_KINDS:
            if len(params) > 2 or any(not _FLOAT_RE.fullmatch(p) for p in params):
                raise _err(f"{what}: eltwise entry {_q(entry)} takes [:ALPHA[:BETA]] numbers", where)
            if kind == "relu" and all(float(p) == 0.0 for p in params):
                out.append("relu")
                continue
        out.append(":".join([kind] + params))
    return tuple(out)


def _parse_mb(text: str, where: str | None) -> int:
    if not re.fullmatch(r"0|[1-9][0-9]*", text):
        raise _err(f"--mb: {_q(text)} is not a non-negative integer (0 keeps the descriptor's mb)", where)
    return int(text)


#: Driver vector options: name -> (per-alternative parser, default alternatives). Reset by --reset.
_VECTOR: dict[str, tuple[Callable[[str, str | None], object], tuple]] = {
    "dir": (_parse_dir, (DEFAULT_DIR,)),
    "dt": (_parse_dt_triple, (DEFAULT_DT,)),
    "bia-dt": (_parse_bia_dt, (None,)),
    "stag": (_parse_conv_tag("--stag"), (DEFAULT_TAG,)),
    "wtag": (_parse_conv_tag("--wtag"), (DEFAULT_TAG,)),
    "dtag": (_parse_conv_tag("--dtag"), (DEFAULT_TAG,)),
    "strides": (_parse_strides, ("",)),
    "alg": (_parse_alg, (DEFAULT_ALG,)),
    "attr-scales": (_parse_raw("attr-scales"), ("",)),
    "attr-zero-points": (_parse_raw("attr-zero-points"), ("",)),
    "attr-precomputed-reductions": (_parse_raw("attr-precomputed-reductions"), ("",)),
    "attr-post-ops": (_parse_post_ops, ((),)),
    "attr-fpmath": (_parse_default_aware("attr-fpmath", ("strict", "strict:false", "strict:0")), ("",)),
    "attr-acc-mode": (_parse_default_aware("attr-acc-mode", ("strict",)), ("",)),
    "attr-dropout": (_parse_raw("attr-dropout"), ("",)),
    "attr-rounding-mode": (_parse_raw("attr-rounding-mode"), ("",)),
    "mb": (_parse_mb, (0,)),
}
_ALIASES = {"cfg": "dt"}   # legacy spelling; its values are parsed by _parse_cfg

#: Accepted and ignored: harness-only settings (the reorder driver's list, minus the ones that
#: change a convolution's numerics, which are knobs here, and --mode, a product option here).
_IGNORED: dict[str, Callable[[str], bool]] = {
    k: v for k, v in _REORDER_IGNORED.items() if k not in ("attr-fpmath", "attr-acc-mode", "mode")}
_IMPL_OPTIONS = ("impl", "skip-impl")
_GLOBAL_IMPL_OPTIONS = ("global-impl", "global-skip-impl")
_NO_VALUE = ("reset", "help", "conv")
_OTHER = ("batch", "match", "start", "buffer-prefix")
_EXTRA_CHECKS: dict[str, Callable[[str], str]] = {}


def _check_mode(text: str) -> str:
    if not re.fullmatch(r"[LIRCPFSBlircpfsb]", text):
        raise ValueError(text)
    return text.upper()


_EXTRA_CHECKS["mode"] = _check_mode


def _known_options(extras: Iterable[str]) -> list[str]:
    return sorted({*_VECTOR, *_ALIASES, *_IGNORED, *_IMPL_OPTIONS, *_GLOBAL_IMPL_OPTIONS, *_NO_VALUE,
                   *_OTHER, *extras})


# --------------------------------------------------------------------------------------------
# The parser: the reorder driver's state machine (run / batch / locate) with conv options
# --------------------------------------------------------------------------------------------

class _ConvParser(_Parser):
    def __init__(self, cwd: Path | None, extra_options: Mapping[str, str | None] | None) -> None:
        # Not calling _Parser.__init__: its extra-option defaults are the reorder driver's.
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.extra_defaults: dict[str, str | None] = dict(DEFAULT_CONV_EXTRA_OPTIONS)
        for name, default in (extra_options or {}).items():
            name = str(name).lstrip("-")
            if name in _known_options(()) and name not in DEFAULT_CONV_EXTRA_OPTIONS:
                raise ValueError(f"extra option '--{name}' clashes with a benchdnn conv option")
            self.extra_defaults[name] = None if default is None else str(default)
        self.extras = dict(self.extra_defaults)
        self.global_impl: tuple[str, str] | None = None
        self.buffer_prefix = ""
        self.start = 0
        self.index = 0
        self.stack: list[Path] = []
        self.reset()

    def reset(self) -> None:
        self.vec: dict[str, tuple] = {k: default for k, (_, default) in _VECTOR.items()}
        self.impl: tuple[str, str] | None = None
        self.match: re.Pattern[str] | None = None

    def option(self, text: str, where: str | None, base_dir: Path | None) -> Iterator[ConvCase]:
        name, eq, value = text[2:].partition("=")
        if name in _NO_VALUE:
            if eq:
                raise _err(f"option '--{name}' takes no value: {_q(text)}", where)
            if name == "reset":
                self.reset()
            return
        if name in _OTHER_DRIVERS or name == "reorder":
            raise _err(f"only the conv driver is supported here, not '--{name}'", where)
        known = name in _VECTOR or name in _ALIASES or name in _IGNORED or name in _IMPL_OPTIONS \
            or name in _GLOBAL_IMPL_OPTIONS or name in _OTHER or name in self.extra_defaults
        if not known:
            close = difflib.get_close_matches(name, _known_options(self.extra_defaults), n=1)
            hint = f" (did you mean '--{close[0]}'?)" if close else ""
            raise _err(f"unknown option '--{name}' for the conv driver{hint}", where)
        if not eq:
            raise _err(f"option '--{name}' needs a value: --{name}=VALUE", where)

        if name == "batch":
            if not value:
                raise _err("option '--batch' needs a file name: --batch=FILE", where)
            yield from self.batch(value, where, base_dir)
        elif name == "cfg":
            self.vec["dt"] = _VECTOR["dt"][1] if value == "" else \
                tuple(_parse_cfg(a, where) for a in value.split(","))
        elif name in _VECTOR:
            parse, default = _VECTOR[name]
            self.vec[name] = default if value == "" else tuple(parse(a, where) for a in value.split(","))
        elif name in self.extra_defaults:
            if value != "" and name in _EXTRA_CHECKS:
                try:
                    value = _EXTRA_CHECKS[name](value)
                except ValueError:
                    raise _err(f"bad value for '--{name}': {_q(value)}", where) from None
            self.extras[name] = value if value != "" else self.extra_defaults[name]
        elif name in _IGNORED:
            if value and not _IGNORED[name](value):
                raise _err(f"bad value for '--{name}': {_q(value)}", where)
        elif name in _IMPL_OPTIONS:
            self.impl = (name, value) if value else None
        elif name in _GLOBAL_IMPL_OPTIONS:
            self.global_impl = (name, value) if value else None
        elif name == "buffer-prefix":
            self.buffer_prefix = value
        elif name == "start":
            if not re.fullmatch(r"0|[1-9][0-9]*", value or "0"):
                raise _err(f"--start: {_q(value)} is not a non-negative integer", where)
            self.start = int(value) if value else 0
        elif name == "match":
            try:
                self.match = re.compile(value) if value else None
            except re.error as e:
                raise _err(f"--match: bad regular expression {_q(value)}: {e}", where) from None

    def problem(self, text: str, where: str | None) -> Iterator[ConvCase]:
        try:
            desc = parse_conv_desc(text)
        except ProblemError as e:
            raise _err(str(e), where) from None
        v = self.vec
        extras = tuple((k, val) for k, val in self.extras.items() if val is not None)
        tail: list[tuple[str, str]] = []
        if self.impl:
            tail.append(self.impl)
        if self.global_impl:
            tail.append(self.global_impl)
        if self.buffer_prefix:
            tail.append(("buffer-prefix", self.buffer_prefix))
        for (dir_, dt, bia_dt, stag, wtag, dtag, strides, alg, scales, zps, prr, pops, fpmath, acc,
             drop, rnd, mb) in itertools.product(
                v["dir"], v["dt"], v["bia-dt"], v["stag"], v["wtag"], v["dtag"], v["strides"],
                v["alg"], v["attr-scales"], v["attr-zero-points"], v["attr-precomputed-reductions"],
                v["attr-post-ops"], v["attr-fpmath"], v["attr-acc-mode"], v["attr-dropout"],
                v["attr-rounding-mode"], v["mb"]):
            if strides:
                for side, st, tag in zip(("src", "wei", "dst"), strides.split(":"), (stag, wtag, dtag)):
                    if st and tag != DEFAULT_TAG:
                        raise _err(f"--strides and --{side[0]}tag={tag} both describe the {side} tensor; "
                                   f"drop one of them", where)
                    if st and len(st.split("x")) != desc.ndims:
                        raise _err(f"--strides={strides}: {side} strides {st} have {len(st.split('x'))} "
                                   f"values but problem {_q(text)} has {desc.ndims} dims", where)
            knobs = [(k, val) for k, val in (
                ("strides", strides), ("attr-scales", scales), ("attr-zero-points", zps),
                ("attr-precomputed-reductions", prr), ("attr-fpmath", fpmath), ("attr-acc-mode", acc),
                ("attr-dropout", drop), ("attr-rounding-mode", rnd)) if val]
            case = ConvCase(desc.with_mb(mb) if mb else desc, dir_, dt, bia_dt, stag, wtag, dtag, alg,
                            pops, tuple(knobs + tail), extras, mb)
            index = self.index
            self.index += 1
            if index < self.start:
                continue
            if self.match is not None and not self.match.search(case.repro()):
                continue
            yield case


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------

def parse_conv_args(argv: Iterable[str], *, cwd: Path | str | None = None,
                    extra_options: Mapping[str, str | None] | None = None) -> Iterator[ConvCase]:
    """Parse a benchdnn conv command line (without the program name) into cases, lazily.

    ``argv`` is already split into words; a leading ``--conv`` is accepted. Relative ``--batch``
    files are looked up next to the including file, then in ``cwd`` (default: the working
    directory). ``extra_options`` declares product options beyond `DEFAULT_CONV_EXTRA_OPTIONS`.
    Errors raise `ProblemError` when the iteration reaches them.
    """
    parser = _ConvParser(Path(cwd) if cwd is not None else None, extra_options)
    tokens: Iterator[Token] = ((str(a), f"argument {i}") for i, a in enumerate(argv, 1))
    yield from parser.run(tokens, None)


def parse_conv_batch_file(path: Path | str, *, cwd: Path | str | None = None,
                          extra_options: Mapping[str, str | None] | None = None) -> Iterator[ConvCase]:
    """Parse a benchdnn conv batch file (``inputs/conv/shapes_*``...), as ``--batch=PATH`` would.

    A missing file raises ``ProblemError("batch file not found: PATH")`` at once; everything else
    when the iteration reaches it.
    """
    parser = _ConvParser(Path(cwd) if cwd is not None else None, extra_options)
    parser.locate(str(path), None, None)
    return parser.batch(str(path), None, None)


def parse_conv_list_file(path: Path | str, *, cwd: Path | str | None = None,
                         extra_options: Mapping[str, str | None] | None = None) -> Iterator[ConvCase]:
    """Parse a list of independent conv command lines, one per line (``lists/smoke.txt``,
    ``lists/full.txt``): every line starts from the defaults. Blank lines and ``#`` comments are
    skipped; a line ending in ``\\`` continues on the next. A missing list raises
    ``ProblemError("list file not found: PATH")`` at once."""
    return parse_list_file(path, cwd=cwd, extra_options=extra_options, parser_class=_ConvParser)
