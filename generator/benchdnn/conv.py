"""benchdnn convolution descriptors and conv-driver command lines -> `ConvDesc` / `ConvCase`, and a
case -> the `ConvProblem` it describes (`conv_problem`).

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
``doc/knobs_attr.md``): the same state machine as the reorder driver (`generator.benchdnn.driver`:
option scoping, ``--reset``, comma alternatives, nested ``--batch``, comments and ``\\``
continuation), with the conv options::

    kgen conv [--dir=FWD_B|FWD_D|FWD_I] [--dt=f32|f16|bf16|s8:s8:s32 ...] [--bia-dt=DT]
              [--stag=TAG] [--wtag=TAG] [--dtag=TAG] [--alg=direct|im2col|winograd|spatial_pack|
              indirect|brgemm|auto] [--attr-post-ops=relu] [--mb=N] [--backend=...] [--src=F.npy]
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

What a case carries. Modelled: direction, data types, bias data type, tags, algorithm, scales,
zero points, the post-ops, minibatch override, the descriptor. Knobs the product does not implement
are carried verbatim in `ConvCase.knobs` (so `ConvCase.repro` reproduces them) and each is listed in
`ConvCase.unsupported` spelled as the option that causes it: ``--strides=...``,
``--attr-precomputed-reductions=...``, ``--attr-fpmath=...``, ``--attr-acc-mode=...``,
``--attr-rounding-mode=...``, ``--attr-dropout=...``; likewise a direction, data-type combination,
bias type, scale / zero-point entry or post-op the product does not implement (``--dir=BWD_D``,
``--dt=f32:s8:f32``, ``--attr-post-ops=select``). ``--impl`` / ``--skip-impl`` are kept for the
repro line and change nothing (one implementation per kernel). Harness-only knobs are accepted and ignored
(``--engine``, ``-vN``, ``--ctx-init``, ``--attr-scratchpad``, ...; unlike benchdnn, their comma
alternatives do not multiply the cases). Unknown options raise `ProblemError` naming the option.
"""

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from ..errors import ProblemError, UnsupportedError
from ..layout import DTYPES, MemoryDesc, get_dtype
from ..problem.attr import BINARY_KINDS as _PRODUCT_BINARY_KINDS
from ..problem.attr import ELTWISE_KINDS as _PRODUCT_ELTWISE_KINDS
from ..problem.attr import Binary, DwConv, Eltwise, PostOp, Prelu, QuantArg, Sum
from ..problem.conv import (_AXIS_KEYS, _UNUSED, ACCUMULATORS, AXES, BIAS_TYPES, DEFAULT_MB, DESC_FIELDS,
                            SCALE_POLICIES, ZERO_POINT_POLICIES, ZERO_POINT_TYPES, ConvDesc, ConvProblem,
                            derive_padding, kernel_extent, output_size)
from . import driver
from .driver import DATA_TYPES, HARNESS_OPTIONS, IMPL_FILTERS, plus_option, _err, _parse_dt, _parse_tag, _q, _split_plus
from .reorder import AttrScale, AttrZeroPoint, parse_quant

__all__ = [
    "ALGORITHMS",
    "ConvCase",
    "ConvDriver",
    "DEFAULT_CONV_EXTRA_OPTIONS",
    "DIRECTIONS",
    "SUPPORTED_DIRECTIONS",
    "SUPPORTED_DTS",
    "SUPPORTED_POST_OPS",
    "conv_problem",
    "given_conv_quant_values",
    "post_op_from_text",
    "parse_conv_args",
    "parse_conv_batch_file",
    "parse_conv_desc",
    "parse_conv_list_file",
]

# --------------------------------------------------------------------------------------------
# The descriptor grammar (str2desc)
# --------------------------------------------------------------------------------------------

_FIELD_ALT = r"g|mb|i[cdhw]|o[cdhw]|k[dhw]|s[dhw]|p[dhw]|d[dhw]"
_FAST_RE = re.compile(rf"((?:(?:{_FIELD_ALT})[0-9]+_?)*)(?:n(.*))?", re.DOTALL)
_PAIR_RE = re.compile(rf"({_FIELD_ALT})([0-9]+)")
_INT64_MAX = 2**63 - 1
#: One entry: a name, the integer strtoll(s, &end, 10) would read (optional blanks and sign), and
#: the one '_' benchdnn skips after it.
_ENTRY_RE = re.compile(rf"({_FIELD_ALT})([ \t\n\v\f\r]*[+-]?[0-9]+)?_?")


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

#: Data-type triples (src, wei, dst) the product implements: the problem model's accumulator table.
SUPPORTED_DTS = frozenset(ACCUMULATORS)
IMPLEMENTED_DTS_TEXT = ("implemented: f32, bf16, f16 in any mix, with an f32, bf16, f16, u8, s8 or s32 destination; "
                        "u8:s8:DST and s8:s8:DST with DST one of u8, s8, s32, f32, bf16, f16")
SUPPORTED_BIA_DTS = BIAS_TYPES
DEFAULT_DT = ("f32", "f32", "f32")

#: ``--alg`` spellings -> the product's algorithm name (benchdnn's str2alg names are aliases).
ALGORITHMS = ("direct", "im2col", "winograd", "winograd_f2", "winograd_f4", "winograd_f6", "spatial_pack",
              "indirect", "brgemm", "brgemm_fma", "brgemm_amx", "auto")
_ALG_ALIASES = {"convolution_direct": "direct", "wino": "winograd", "convolution_wino": "winograd",
                "convolution_winograd": "winograd", "convolution_auto": "auto"}
DEFAULT_ALG = "direct"
#: A tag option not given means plain (abx: nchw, oihw...), the layout PyTorch's and NumPy's arrays
#: have, so a line without tags keeps meaning one layout. benchdnn's default is ``any``; here
#: ``--stag=any`` (and --wtag, --dtag) is written out to let kgen choose (`generator.select.resolve_layouts`).
DEFAULT_TAG = "abx"

#: Post-op kinds the product implements besides ``dw`` (parsed on its own: dw:kKsSpP[:DST_DT]); ``select`` is not.
SUPPORTED_POST_OPS = (*_PRODUCT_ELTWISE_KINDS, *_PRODUCT_BINARY_KINDS, "sum", "prelu")
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

#: Product options beyond benchdnn; global (``--reset`` keeps them), attached to each case. Besides
#: the tensors (.npy files), the attributes' runtime arrays: per-channel scales and zero points, the
#: sum's prior destination, and ``--binary-I`` / ``--prelu-I`` for post-op I (`ATTR_FILE_PATTERN`).
DEFAULT_CONV_EXTRA_OPTIONS: Mapping[str, str | None] = {
    "backend": None, "src": None, "wei": None, "bia": None, "dst": None, "mode": None,
    "scales-src": None, "scales-wei": None, "scales-dst": None,
    "zero-points-src": None, "zero-points-wei": None, "zero-points-dst": None, "dst-init": None,
    "dw-wei": None, "dw-bias": None, "scales-dw-wei": None, "scales-dw-dst": None}
ATTR_FILE_PATTERN = r"(binary|prelu)-[0-9]+"

#: Order of the options in a repro line (``conv_aux.cpp`` ``set_repro_line``, then ``attr_t``'s
#: ``operator<<``). Names that are not modelled fields are *knobs*.
_REPRO_ORDER = ("dir", "dt", "bia-dt", "stag", "wtag", "dtag", "strides", "alg", "attr-scales",
                "attr-zero-points", "attr-precomputed-reductions", "attr-post-ops", "attr-fpmath",
                "attr-acc-mode", "attr-rounding-mode", "attr-dropout", "impl", "skip-impl",
                "global-impl", "global-skip-impl", "buffer-prefix")
_MODELLED = ("dir", "dt", "bia-dt", "stag", "wtag", "dtag", "alg", "attr-scales", "attr-zero-points",
             "attr-post-ops")
KNOB_NAMES = tuple(n for n in _REPRO_ORDER if n not in _MODELLED)
_ORDER_RANK = {n: i for i, n in enumerate(_REPRO_ORDER)}


def _dt_text(dt: tuple[str, str, str]) -> str:
    return dt[0] if dt[0] == dt[1] == dt[2] else ":".join(dt)


# --------------------------------------------------------------------------------------------
# The case
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConvCase(driver.Case):
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
    scales: tuple[AttrScale, ...] = ()
    zero_points: tuple[AttrZeroPoint, ...] = ()
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
        if dt not in SUPPORTED_DTS and all(t in DTYPES for t in dt):
            # types kgen has, combined in a way no convolution implements (u8:u8:u8, f32:s8:f32): bad
            # input. A type kgen lacks (f64, f8) stays a valid oneDNN problem, SKIPPED when run.
            raise ProblemError(f"data types {':'.join(dt)} are not implemented for a convolution ("
                               f"{IMPLEMENTED_DTS_TEXT})")
        set_(self, "dt", dt)
        if self.dir in _DIRS_WITH_BIAS:
            set_(self, "bia_dt", "f64" if dt[1] == "f64" else "f32")
        elif self.bia_dt is not None and self.bia_dt not in DATA_TYPES:
            raise ProblemError(f"bad bias data type {self.bia_dt!r}")
        if self.alg not in ALGORITHMS:
            raise ProblemError(f"unknown algorithm {_q(self.alg)} (expected one of {', '.join(ALGORITHMS)})")
        set_(self, "post_ops", tuple(self.post_ops))
        self._normalise_knobs(KNOB_NAMES, _ORDER_RANK)
        reasons: list[str] = []
        if self.dir not in SUPPORTED_DIRECTIONS:
            reasons.append(f"--dir={self.dir}")
        if self.dt not in SUPPORTED_DTS:
            reasons.append(f"--dt={_dt_text(self.dt)}")
        if self.bia_dt is not None and self.bia_dt not in SUPPORTED_BIA_DTS:
            reasons.append(f"--bia-dt={self.bia_dt}")
        set_(self, "scales", tuple(self.scales))
        set_(self, "zero_points", tuple(self.zero_points))
        for q in self.zero_points:
            zdt = DTYPES.get(q.dt or "s32")
            if q.value is not None and zdt is not None and zdt.is_int and not zdt.min <= q.value <= zdt.max:
                raise ProblemError(f"--attr-zero-points={q}: zero point {q.value:g} is outside the range of "
                                   f"its data type {zdt.name} [{int(zdt.min)}, {int(zdt.max)}]")
        for opt in _REPRO_ORDER:
            if opt == "attr-scales":
                reasons += [f"--attr-scales={q}" for q in self.scales if _quant_unsupported(q, SCALE_POLICIES, ("f32",))]
            elif opt == "attr-zero-points":
                reasons += [f"--attr-zero-points={q}" for q in self.zero_points
                            if _quant_unsupported(q, ZERO_POINT_POLICIES, ZERO_POINT_TYPES)]
            elif opt == "attr-post-ops":
                reasons += [f"--attr-post-ops={p}" for p in self.post_ops if _post_op_unsupported(p, self.desc.ndims)]
            elif opt in KNOB_NAMES and opt not in IMPL_FILTERS:
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
                args += plus_option(opt, self.post_ops)
            elif opt == "attr-scales":
                args += plus_option(opt, self.scales)
            elif opt == "attr-zero-points":
                args += plus_option(opt, self.zero_points)
            else:
                args += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        args += [f"--{k}={v}" for k, v in self.extras]
        args.append(str(self.desc))
        return args


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


_POST_OP_VALUE_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|nan)",
                       re.IGNORECASE)


def _parse_post_ops(text: str, where: str | None) -> tuple[str, ...]:
    """``--attr-post-ops``: '+'-joined entries (``parser.cpp`` ``str2attr_post_ops``, knobs_attr.md)::

        sum[:SCALE[:ZERO_POINT[:DATA_TYPE]]]   ELTWISE[:ALPHA[:BETA[:SCALE]]]   dw:KkSsPp[:DST_DT]
        BINARY:DT[:MASK_INPUT[:TAG[:STRIDES]]]   prelu[:MASK_INPUT]

    Each entry is checked and kept as text (kind lower-cased, benchdnn's long names shortened);
    ``relu`` with alpha = beta = 0 (and scale 1) is normalized to ``relu``. `post_op_from_text` turns
    an entry into the problem model's post-op."""
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
        if re.fullmatch(r"dw_k[0-9]+s[0-9]+p[0-9]+", kind):     # the older spelling dw_k3s1p1[:DT]
            kind, rest = "dw", kind[3:] + (":" + rest if rest else "")
        if kind not in _ELTWISE_KINDS + _BINARY_KINDS + _OTHER_PO_KINDS:
            raise _err(f"{what}: unknown post-op kind {_q(kind_text)} (expected e.g. relu, sum, add:f32, "
                       f"dw:k3s1p1; see benchdnn knobs_attr.md)", where)
        if kind == "dw" and not rest:
            raise _err(f"{what}: the dw post-op needs its parameters, e.g. dw:k3s1p1", where)
        params = rest.split(":") if rest else []
        if any(p == "" for p in params):
            raise _err(f"{what}: empty ':' field in {_q(entry)}", where)
        if kind in _ELTWISE_KINDS:
            if len(params) > 3 or any(not _POST_OP_VALUE_RE.fullmatch(p) for p in params):
                raise _err(f"{what}: eltwise entry {_q(entry)} takes [:ALPHA[:BETA[:SCALE]]] numbers", where)
            if kind == "relu" and all(float(p) == (1.0 if i == 2 else 0.0) for i, p in enumerate(params)):
                out.append("relu")
                continue
        elif kind == "sum":
            if len(params) > 3:
                raise _err(f"{what}: {_q(entry)} has too many fields (sum[:SCALE[:ZERO_POINT[:DATA_TYPE]]])", where)
            if params and not _POST_OP_VALUE_RE.fullmatch(params[0]):
                raise _err(f"{what}: sum scale {_q(params[0])} is not a number", where)
            if len(params) > 1 and not re.fullmatch(r"[+-]?[0-9]+", params[1]):
                raise _err(f"{what}: sum zero point {_q(params[1])} is not an integer", where)
            if len(params) > 2:
                if params[2].lower() == "undef":
                    raise _err(f"{what}: sum data type 'undef' is invalid", where)
                params[2] = _parse_dt(params[2], what, where)
        elif kind in _BINARY_KINDS:
            if not params:
                raise _err(f"{what}: binary entry {_q(entry)} needs the data type of its second input, "
                           f"e.g. {kind}:f32 or {kind}:f32:per_oc", where)
            params[0] = _parse_dt(params[0].split(".")[0], what, where) + (
                "." + params[0].split(".", 1)[1] if "." in params[0] else "")
            if len(params) > 1:
                params[1] = _parse_binary_policy(params[1], what, where)
            if len(params) > 2:
                params[2] = _parse_tag(params[2], what, where)
            if len(params) > 4:
                raise _err(f"{what}: {_q(entry)} has too many fields (BINARY:DT[:MASK[:TAG[:STRIDES]]])", where)
        elif kind == "dw":
            if not re.fullmatch(r"k[1-9][0-9]*s[1-9][0-9]*p[0-9]+", params[0].lower()) or len(params) > 2:
                raise _err(f"{what}: depthwise entry {_q(entry)} is dw:kKsSpP[:DST_DT], e.g. dw:k3s1p1:u8", where)
            params[0] = params[0].lower()
            if len(params) > 1:
                params[1] = _parse_dt(params[1], what, where)
        elif kind == "prelu":
            if len(params) > 1:
                raise _err(f"{what}: {_q(entry)} has too many fields (prelu[:MASK_INPUT])", where)
            if params:
                params[0] = _parse_binary_policy(params[0], what, where)
        out.append(":".join([kind] + params))
    return tuple(out)


_BINARY_POLICY_NAMES = ("common", "per_oc", "per_tensor", "per_dim_0", "per_dim_1", "per_dim_01", "per_dim_2",
                        "per_dim_3", "per_ocic")


def _parse_binary_policy(text: str, what: str, where: str | None) -> str:
    if re.fullmatch(r"0|[1-9][0-9]*", text):
        return text
    if text.lower() not in _BINARY_POLICY_NAMES:
        raise _err(f"{what}: unknown mask {_q(text)} (expected common, per_oc, per_tensor or an integer mask)",
                   where)
    return text.lower()


def _binary_policy(policy: str, ndims: int) -> str | None:
    """A binary / prelu mask as the product's policy (common, per_oc, per_tensor), None if it is another."""
    if policy.isdigit():
        mask = int(policy)
        return {0: "common", 2: "per_oc", (1 << ndims) - 1: "per_tensor"}.get(mask, policy if mask < 1 << ndims
                                                                               else None)
    return {"common": "common", "per_oc": "per_oc", "per_dim_1": "per_oc", "per_tensor": "per_tensor"}.get(policy)


def post_op_from_text(entry: str, ndims: int) -> PostOp:
    """One normalized ``--attr-post-ops`` entry -> the problem model's post-op (`UnsupportedError` for
    select and masks other than common / per_oc / per_tensor)."""
    kind, *params = entry.split(":")
    if kind in _PRODUCT_ELTWISE_KINDS:
        vals = [float(p) for p in params] + [0.0, 0.0, 1.0][len(params):]
        return Eltwise(kind, *vals)
    if kind == "sum":
        scale = float(params[0]) if params else 1.0
        zp = int(params[1]) if len(params) > 1 else 0
        return Sum(scale, zp, params[2] if len(params) > 2 else None)
    if kind in _PRODUCT_BINARY_KINDS or kind == "prelu":
        policy_text = params[1 if kind != "prelu" else 0] if len(params) > (1 if kind != "prelu" else 0) else (
            "per_tensor" if kind != "prelu" else "common")
        policy = _binary_policy(policy_text, ndims)
        if policy is None:
            raise UnsupportedError(f"--attr-post-ops={entry}: mask {policy_text} is not supported "
                                   f"(common, per_oc, per_tensor)")
        if kind == "prelu":
            return Prelu(policy)
        if "." in params[0] or len(params) > 3:
            raise UnsupportedError(f"--attr-post-ops={entry}: binary strides are not supported")
        tag = params[2] if len(params) > 2 else "any"
        return Binary(kind, params[0], policy, tag)
    if kind == "dw":
        k, st, pad = (int(x) for x in re.fullmatch(r"k([0-9]+)s([0-9]+)p([0-9]+)", params[0]).groups())
        return DwConv(k, st, pad, params[1] if len(params) > 1 else "f32")
    raise UnsupportedError(f"--attr-post-ops={entry}: post-op {kind} is not supported")


def _post_op_unsupported(entry: str, ndims: int) -> bool:
    try:
        post_op_from_text(entry, ndims)
    except (UnsupportedError, ProblemError):
        return True
    return False


def _quant_unsupported(q, policies: Mapping[str, tuple[str, ...]], dts: tuple[str, ...]) -> bool:
    """A scale / zero-point entry the convolution does not implement (argument, policy, type, groups)."""
    arg = _conv_arg(q.arg)
    return arg not in policies or _conv_policy(q) not in policies[arg] or q.dt not in dts or bool(q.groups)


def _conv_arg(arg: str) -> str:
    """benchdnn's argument name as the problem model's (attr_post_op_dw_wei -> dw_wei)."""
    return arg[len("attr_post_op_"):] if arg.startswith("attr_post_op_dw_") else arg


def _conv_policy(q) -> str | None:
    """benchdnn's policy of a conv scale / zero point as the problem model's: common, per_oc, per_dim_1."""
    p = q.policy
    if p in ("common", "host_scalar", "0"):
        return "common"
    if isinstance(q, AttrScale):
        # per_oc: dim 0 of the weights (dims 0 and 1 with groups: G x OC/G, still one value per OC)
        return "per_oc" if (_conv_arg(q.arg) in ("wei", "dw_wei") and p in ("per_oc", "1", "3")) else None
    return "per_dim_1" if p in ("per_dim_1", "2") else None


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
    "attr-scales": (lambda t, w: parse_quant(t, "attr-scales", w, allow_per_oc=True), ((),)),
    "attr-zero-points": (lambda t, w: parse_quant(t, "attr-zero-points", w, allow_per_oc=True), ((),)),
    "attr-precomputed-reductions": (_parse_raw("attr-precomputed-reductions"), ("",)),
    "attr-post-ops": (_parse_post_ops, ((),)),
    "attr-fpmath": (_parse_default_aware("attr-fpmath", ("strict", "strict:false", "strict:0")), ("",)),
    "attr-acc-mode": (_parse_default_aware("attr-acc-mode", ("strict",)), ("",)),
    "attr-dropout": (_parse_raw("attr-dropout"), ("",)),
    "attr-rounding-mode": (_parse_raw("attr-rounding-mode"), ("",)),
    "mb": (_parse_mb, (0,)),
}

#: Accepted and ignored: harness-only settings (the reorder driver's list, minus the ones that
#: change a convolution's numerics, which are knobs here, and --mode, a product option here).
_IGNORED: dict[str, Callable[[str], bool]] = {
    k: v for k, v in HARNESS_OPTIONS.items() if k not in ("attr-fpmath", "attr-acc-mode", "mode")}
# `kgen conv --jobs=N`: how many modules compile ahead; the command reads it, the cases do not carry it
_IGNORED["jobs"] = lambda v: v.isdigit() and int(v) > 0
_EXTRA_CHECKS: dict[str, Callable[[str], str]] = {}


def _check_mode(text: str) -> str:
    if not re.fullmatch(r"[LIRCPFSBlircpfsb]", text):
        raise ValueError(text)
    return text.upper()


_EXTRA_CHECKS["mode"] = _check_mode


# --------------------------------------------------------------------------------------------
# The parser: the reorder driver's state machine (run / batch / locate) with conv options
# --------------------------------------------------------------------------------------------

class ConvDriver(driver.Driver):
    NAME = "conv"
    VECTOR = _VECTOR
    ALIASES = {"cfg": ("dt", _parse_cfg)}   # legacy spelling: data-type names concatenated
    IGNORED = _IGNORED
    EXTRA_DEFAULTS = DEFAULT_CONV_EXTRA_OPTIONS
    EXTRA_CHECKS = _EXTRA_CHECKS
    EXTRA_PATTERN = ATTR_FILE_PATTERN

    def problem(self, text: str, where: str | None) -> Iterator[ConvCase]:
        try:
            desc = parse_conv_desc(text)
        except ProblemError as e:
            raise _err(str(e), where) from None
        v = self.vec
        extras = tuple((k, val) for k, val in self.extras.items() if val is not None)
        tail = self.tail_knobs()
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
                ("strides", strides), ("attr-precomputed-reductions", prr), ("attr-fpmath", fpmath), ("attr-acc-mode", acc),
                ("attr-dropout", drop), ("attr-rounding-mode", rnd)) if val]
            case = ConvCase(desc.with_mb(mb) if mb else desc, dir_, dt, bia_dt, stag, wtag, dtag, alg,
                            pops, tuple(knobs + tail), extras, mb, scales, zps)
            if self.keep(case):
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
    return driver.parse_args(ConvDriver, argv, cwd=cwd, extra_options=extra_options)


def parse_conv_batch_file(path: Path | str, *, cwd: Path | str | None = None,
                          extra_options: Mapping[str, str | None] | None = None) -> Iterator[ConvCase]:
    """Parse a benchdnn conv batch file (``inputs/conv/shapes_*``...), as ``--batch=PATH`` would.

    A missing file raises ``ProblemError("batch file not found: PATH")`` at once; everything else
    when the iteration reaches it.
    """
    return driver.parse_batch_file(ConvDriver, path, cwd=cwd, extra_options=extra_options)


def parse_conv_list_file(path: Path | str, *, cwd: Path | str | None = None,
                         extra_options: Mapping[str, str | None] | None = None) -> Iterator[ConvCase]:
    """Parse a list of independent conv command lines, one per line (``lists/smoke.txt``,
    ``lists/full.txt``): every line starts from the defaults. Blank lines and ``#`` comments are
    skipped; a line ending in ``\\`` continues on the next. A missing list raises
    ``ProblemError("list file not found: PATH")`` at once."""
    return driver.parse_list_file(ConvDriver, path, cwd=cwd, extra_options=extra_options)

# --------------------------------------------------------------------------------------------
# Case -> problem
# --------------------------------------------------------------------------------------------

def conv_problem(case: ConvCase) -> ConvProblem:
    """The `ConvProblem` a case describes; `UnsupportedError` for what the product lacks."""
    if case.unsupported:
        raise UnsupportedError(", ".join(case.unsupported) + " is not supported")
    d = case.desc
    dts = tuple(case.dt)
    if dts not in ACCUMULATORS:
        raise UnsupportedError(f"data types {':'.join(dts)} are not supported ({IMPLEMENTED_DTS_TEXT})")
    # a tag of `any` gives an AnyDesc: the kernel chooses its layout (`generator.select.resolve_layouts`)
    src = MemoryDesc(d.src_dims, dts[0], case.stag)
    wei = MemoryDesc(d.wei_dims, dts[1], case.wtag)
    dst = MemoryDesc(d.dst_dims, dts[2], case.dtag)
    scales = tuple(QuantArg(_conv_arg(q.arg), _conv_policy(q), q.dt) for q in case.scales)
    zps = tuple(QuantArg(q.arg, _conv_policy(q), q.dt) for q in case.zero_points)
    post_ops = tuple(post_op_from_text(e, d.ndims) for e in case.post_ops)
    return ConvProblem(d, src, wei, dst, get_dtype(ACCUMULATORS[dts]), case.with_bias, post_ops, case.alg,
                       bias_dt=case.bia_dt or "f32", scales=scales, zero_points=zps)


def given_conv_quant_values(case: ConvCase) -> dict[str, float]:
    """The common scale / zero-point values the case names (``--attr-scales=src:common:0.25``), by
    kernel argument (``src_scale``, ``wei_zp``...): `verify.check_conv` uses them instead of its own."""
    given = {f"{_conv_arg(q.arg)}_scale": q for q in case.scales} | {f"{q.arg}_zp": q for q in case.zero_points}
    return {arg: q.effective_value for arg, q in given.items() if q.value is not None}
