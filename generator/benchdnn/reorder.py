"""benchdnn reorder-driver command lines and batch files -> a lazy stream of `ReorderCase`.

The grammar is oneDNN benchdnn's (``tests/benchdnn/doc/driver_reorder.md``, ``knobs_attr.md``,
``knobs_common.md``; code in ``utils/parser.cpp``, ``common.cpp:batch`` and
``reorder/bench_reorder.cpp``), so the batch files in ``tests/benchdnn/inputs/reorder`` parse unchanged::

    --reset --sdt=f32,s8 --ddt=s8 --stag=abx --dtag=aBx16b,axb --attr-scales=,src:per_dim_1 2x64x3x3

Semantics, as in benchdnn:

* Options are state. Each option sets the value used by every problem that follows it, in this
  command line, in this batch file and -- because benchdnn shares one settings object -- after a
  nested ``--batch`` returns. ``--reset`` restores the driver options (everything in the table
  below marked *driver*) to their defaults; global options and the product's extra options
  (``--backend``/``--input``/``--output``) are *not* reset, so ``kgen --backend=cuda
  --batch=test_reorder_all`` keeps its backend through the file's own ``--reset`` lines.
* A comma in a value means alternatives; a problem descriptor expands to the cross product of
  all current alternatives, in benchdnn's loop order: sdt, ddt, stag, dtag, strides, oflag,
  cross-engine, scales, zero-points, precomputed-reductions, post-ops, dropout, rounding-mode,
  runtime-dim-mask (innermost). An empty value (``--sdt=``) restores the default; an empty
  alternative (``--attr-scales=,src:common:2``) means "attribute not set".
* Defaults (``reorder.hpp`` ``settings_t``): sdt=ddt=f32, stag=dtag=abx, no strides, no oflag,
  cross-engine=none, runtime-dim-mask=0, no attributes.
* A problem descriptor is ``NxNx...xN`` with optional ``_nNAME`` (everything after the first ``n``
  is the name; a trailing ``_`` before it is dropped). Dims are non-negative integers written
  without sign or leading zeros; 0 is legal (zero-volume tensor); at most 12 dims.
* Batch files: whitespace-separated words; a word starting with ``#`` drops the rest of its line;
  a word ending in ``\\`` is glued to the next word (that is how benchdnn continues
  ``--attr-scales=src:common:2, \\`` onto the next line). One deliberate deviation: a continuation
  never glues a word that starts with ``--`` onto the previous one (benchdnn would build a garbage
  token such as ``--stag=abx--dtag=axb``); it is kept as its own option, as a shell would.
  No quote processing happens (benchdnn does none: ``_n"conv.weights"`` keeps its quotes in the
  name, and ``option_set_fwks_*`` / ``test_reorder_smoke`` contain a name with an unclosed quote).
* ``--batch=FILE``: a relative FILE is looked up next to the including file first, then in the
  working directory (``cwd``); a missing file raises ``ProblemError("batch file not found: FILE")``;
  a file that includes itself (directly or not) is an error.
* ``--match=REGEX`` keeps only cases whose `ReorderCase.repro` line matches (``re.search``);
  ``--start=N`` skips the first N cases of the run (both as in benchdnn).

Problem names. benchdnn treats the name as an opaque label (it only shows up as ``%name%`` in
perf reports). In ``option_set_fwks_{key,ext}_gpu`` -- and in ``lists/reorder_*.txt``, derived from
them with the quotes stripped -- a name looks like ``"<md5>*3&<md5>*2&<md5>"``: each md5 names a
framework model/layer the shape was harvested from, ``*N`` how many times the layer occurs there
(1 when absent) and ``&`` joins the sources that share the identical problem. It is *not* a
repetition count: benchdnn runs such a problem once, and so does this parser (one case per
problem). The name is kept in `ReorderCase.name` (not compared, not in `repro`), and
`ReorderCase.occurrences` sums the ``*N`` counts (``*3&...*2&...`` -> 6) for callers that want to
weight performance summaries by how often a shape occurs in real models.

What a case carries. Fields the product implements are modelled: data types, tags, dims,
``--strides``, ``--attr-scales`` and ``--attr-zero-points``. Every other benchdnn knob that changes
what is computed or how it is tested is kept verbatim in `ReorderCase.knobs` (so `repro`
reproduces it) and listed in `ReorderCase.unsupported` as the option text, e.g.
``--oflag=zp_comp:3``, ``--attr-post-ops=sum:0.5``, ``--runtime-dim-mask=63``,
``--cross-engine=cpu2gpu``, ``--skip-impl=ref,simple``. Scale / zero-point entries the product does
not implement (non-f32 scale or non-s32 zero-point data type, groups, args other than src/dst,
``host_scalar``/``mx``/``dynamic_fp``/``per_ocic``/``per_oc`` policies) are listed one entry each, e.g.
``--attr-scales=src:per_tensor:bf16``. Knobs that only steer the benchmark harness are accepted
and ignored: ``--allow-enum-tags-only``, ``--engine``, ``--mode``, ``-vN``/``--verbose``,
``--fix-times-per-prb``, ``--perf-template``, ``--ctx-init`` ... (see `_IGNORED`). Unknown options
raise `ProblemError` naming the option.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Iterable, Iterator, Mapping

from ..errors import ProblemError, UnsupportedError
from ..layout import DTYPES, MemoryDesc
from ..problem.reorder import Quant, ReorderProblem, policy_dims
from . import driver
from .driver import (plus_option, _FLOAT_RE, _INT_RE, DATA_TYPES, IMPL_FILTERS, _err, _parse_dt, _parse_tag, _parse_uint, _q,
                     _split_plus)

__all__ = [
    "AttrScale",
    "AttrZeroPoint",
    "ReorderCase",
    "DATA_TYPES",
    "DEFAULT_EXTRA_OPTIONS",
    "parse_args",
    "parse_batch_file",
    "parse_list_file",
    "parse_dims",
    "parse_quant",
]

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

DEFAULT_DT = "f32"
DEFAULT_TAG = "abx"
MAX_NDIMS = 12  # DNNL_MAX_NDIMS

#: Scale / zero-point policies (``attr_t::str2policy``), in benchdnn's lower-case spelling.
POLICIES = ("common", "host_scalar", "mx", "dynamic_fp", "per_oc", "per_ocic", "per_dim_0",
            "per_dim_1", "per_dim_01", "per_dim_2", "per_dim_3", "per_tensor")
#: Policies whose entry carries one value (the scale / zero point); an integer mask 0 does too.
_SINGLE_VALUE_POLICIES = ("common", "host_scalar", "0")
#: Policies the product implements (a plain mask over the tensor dims); integer masks too.
SUPPORTED_POLICIES = frozenset({"common", "per_dim_0", "per_dim_1", "per_dim_01", "per_dim_2",
                                "per_dim_3", "per_tensor"})
SUPPORTED_ATTR_ARGS = ("src", "dst")
_ARG_RANK = {"src": 1, "src1": 2, "dst": 17, "wei": 33,    # DNNL_ARG_* values: benchdnn's map order
             "attr_post_op_dw_dst": 16384 + 17, "attr_post_op_dw_wei": 16384 + 33}  # DNNL_ARG_ATTR_POST_OP_DW | arg
DEFAULT_SCALE_DT = "f32"
DEFAULT_ZP_DT = "s32"
DEFAULT_SCALE = 1.0     # attr_t::arg_scales_t::entry_t::scale
DEFAULT_ZERO_POINT = 0  # attr_t::zero_points_t::entry_t::value

#: Canonical order of the options in a repro line after sdt/ddt/stag/dtag/strides (benchdnn's
#: ``set_repro_line`` order). Every name except attr-scales/attr-zero-points is a *knob*: a
#: benchdnn setting the product does not implement, carried verbatim in `ReorderCase.knobs`.
_REPRO_ORDER = ("oflag", "cross-engine", "runtime-dim-mask", "attr-scales", "attr-zero-points",
                "attr-precomputed-reductions", "attr-post-ops", "attr-dropout",
                "attr-rounding-mode", "impl", "skip-impl", "global-impl", "global-skip-impl",
                "buffer-prefix")
KNOB_NAMES = tuple(n for n in _REPRO_ORDER if n not in ("attr-scales", "attr-zero-points"))
_ORDER_RANK = {n: i for i, n in enumerate(_REPRO_ORDER)}

#: Product options beyond benchdnn, always accepted; the value in effect is attached to each case
#: (`ReorderCase.extras`) when it is not None. Callers add more with ``extra_options``.
DEFAULT_EXTRA_OPTIONS: Mapping[str, str | None] = {
    "backend": None, "input": None, "output": None,
    # with --input: the scales / zero points as .npy files (per-dimension values have no other spelling)
    "scales-src": None, "scales-dst": None, "zero-points-src": None, "zero-points-dst": None}




# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

def _fmt_float(v: float) -> str:
    """Shortest text that parses back to exactly ``v`` (integers without a fraction)."""
    if math.isfinite(v) and v == int(v) and abs(v) < 2**53:
        return str(int(v))
    return repr(float(v))


def parse_dims(token: str, where: str | None = None) -> tuple[tuple[int, ...], str]:
    """Parse a problem descriptor ``2x17x5x4[_nNAME]`` into (dims, name).

    The name is everything after the first ``n`` with surrounding double quotes removed.
    Raises `ProblemError` naming the token for anything else.
    """
    dims_str, sep, name = token.partition("n")
    if sep and not name:
        raise _err(f"bad problem dims {_q(token)}: dangling 'n' with no name after it", where)
    if dims_str.endswith("_"):
        dims_str = dims_str[:-1]
    if not dims_str:
        raise _err(f"bad problem dims {_q(token)}: no dimensions (expected e.g. 2x16x3x4)", where)
    parts = dims_str.split("x")
    for p in parts:
        if not p:
            raise _err(f"bad problem dims {_q(token)}: empty dimension (expected e.g. 2x16x3x4)", where)
        if not _INT_RE.fullmatch(p):
            raise _err(f"bad problem dims {_q(token)}: {_q(p)} is not a non-negative integer "
                       f"(expected e.g. 2x16x3x4)", where)
    if len(parts) > MAX_NDIMS:
        raise _err(f"bad problem dims {_q(token)}: {len(parts)} dims, at most {MAX_NDIMS} allowed", where)
    return tuple(int(p) for p in parts), name.strip('"')


def _parse_int_list(text: str, what: str, where: str | None) -> tuple[int, ...]:
    parts = text.split("x")
    if any(not _INT_RE.fullmatch(p) for p in parts):
        raise _err(f"{what}: bad list {_q(text)} (expected non-negative integers joined by 'x', "
                   f"e.g. 1x2x3)", where)
    return tuple(int(p) for p in parts)


# --------------------------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------------------------

def _policy_mask(policy: str, ndims: int) -> int:
    """benchdnn's integer mask of a policy (bit d = dim d), from `problem.reorder.policy_dims`."""
    return int(policy) if policy.isdigit() else sum(1 << d for d in policy_dims(policy, ndims))


def _entry_str(arg: str, policy: str, value: str | None, dt: str, def_dt: str,
               groups: tuple[int, ...]) -> str:
    parts = [arg, policy]
    if policy in _SINGLE_VALUE_POLICIES and (value is not None or dt != def_dt or groups):
        parts.append(value if value is not None else "")
    if dt != def_dt or groups:
        parts.append(dt)
    if groups:
        parts.append("x".join(str(g) for g in groups))
    return ":".join(parts)


@dataclass(frozen=True)
class _QuantEntry:
    """One argument's scale or zero point; `AttrScale` and `AttrZeroPoint` set the option, the default
    data type and value, and the value's type.

    ``policy`` keeps benchdnn's spelling (``common``, ``per_dim_0``, ``per_dim_1``, ``per_dim_01``,
    ``per_tensor`` ...; an integer mask given as digits stays digits, e.g. ``"2"``). ``value`` is
    the single value of ``common`` (or mask 0) and None when not given -- benchdnn then uses the
    default (see `effective_value`). ``dt`` and ``groups`` are the optional ``:DATA_TYPE[:GROUPS]``
    tail (default data type: the option's, no groups). ``str()`` gives the benchdnn entry text; a
    ``common`` entry with no value but a non-default tail prints the default value (benchdnn's syntax
    has no way to skip it), so only that hand-built form does not round-trip to None.
    """
    OPTION: ClassVar[str]
    DEFAULT_DT: ClassVar[str]
    DEFAULT_VALUE: ClassVar[float]
    VALUE_TYPE: ClassVar[type]

    arg: str
    policy: str
    value: float | None = None
    dt: str | None = None
    groups: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(int(g) for g in self.groups))
        if self.dt is None:
            object.__setattr__(self, "dt", self.DEFAULT_DT)
        if self.value is not None:
            object.__setattr__(self, "value", self.VALUE_TYPE(self.value))

    @property
    def effective_value(self) -> float:
        return self.DEFAULT_VALUE if self.value is None else self.value

    def mask(self, ndims: int) -> int:
        """oneDNN's mask for a tensor of ``ndims`` dims (bit d = one value per index of dim d)."""
        return _policy_mask(self.policy, ndims)

    @property
    def unsupported_reason(self) -> str | None:
        if (self.arg not in SUPPORTED_ATTR_ARGS or self.dt != self.DEFAULT_DT or self.groups
                or not (self.policy in SUPPORTED_POLICIES or self.policy.isdigit())):
            return f"--{self.OPTION}={self}"
        return None

    def __str__(self) -> str:
        value = None
        if self.value is not None or self.dt != self.DEFAULT_DT or self.groups:
            value = _fmt_float(self.effective_value) if self.VALUE_TYPE is float else str(self.effective_value)
        return _entry_str(self.arg, self.policy, value, self.dt, self.DEFAULT_DT, self.groups)


class AttrScale(_QuantEntry):
    """One argument's scale: ``--attr-scales=src:per_dim_1`` or ``src:common:0.25`` (default 1.0, f32)."""
    OPTION, DEFAULT_DT, DEFAULT_VALUE, VALUE_TYPE = "attr-scales", DEFAULT_SCALE_DT, DEFAULT_SCALE, float


class AttrZeroPoint(_QuantEntry):
    """One argument's zero point: ``--attr-zero-points=src:common:-1+dst:common:2`` (default 0, s32)."""
    OPTION, DEFAULT_DT, DEFAULT_VALUE, VALUE_TYPE = "attr-zero-points", DEFAULT_ZP_DT, DEFAULT_ZERO_POINT, int


def _canonical_arg(text: str) -> str | None:
    if text in ("src", "src0"):
        return "src"
    if text in ("src1", "dst", "wei", "attr_post_op_dw_dst", "attr_post_op_dw_wei"):
        return text
    m = re.fullmatch(r"msrc(0|[1-9][0-9]*)", text)
    return f"msrc{m.group(1)}" if m else None


def _arg_rank(arg: str) -> int:
    if arg.startswith("msrc"):
        return 1024 + int(arg[4:])  # DNNL_ARG_MULTIPLE_SRC + i
    return _ARG_RANK[arg]


def parse_quant(text: str, option: str, where: str | None, *, allow_per_oc: bool = False) -> tuple:
    """Parse one alternative of --attr-scales / --attr-zero-points into a tuple of entries
    (``per_oc`` names a dim only for a primitive with weights: `allow_per_oc`)."""
    is_scale = option == "attr-scales"
    if text == "":
        return ()
    entries: dict[str, AttrScale | AttrZeroPoint] = {}
    for piece in _split_plus(text):
        what = f"--{option}={text}"
        arg_text, sep, rest = piece.partition(":")
        arg = _canonical_arg(arg_text)
        if arg is None:
            raise _err(f"{what}: unknown argument {_q(arg_text)} (expected src, dst, src1, wei or msrcN)",
                       where)
        if not sep or not rest:
            raise _err(f"{what}: {_q(piece)} lacks a policy (expected e.g. {arg}:common:2 or "
                       f"{arg}:per_dim_1)", where)
        fields = rest.split(":")
        if any(f == "" for f in fields):
            raise _err(f"{what}: empty field in {_q(piece)}", where)
        pol = fields[0]
        if pol.isdigit():
            policy = str(_parse_uint(pol, what, where))
        else:
            policy = pol.lower()
            if policy not in POLICIES:
                raise _err(f"{what}: unknown policy {_q(pol)} (expected one of {', '.join(POLICIES)} "
                           f"or an integer mask)", where)
        if is_scale and policy == "per_oc" and not allow_per_oc:
            raise _err(f"{what}: policy 'per_oc' is ambiguous for reorder; use per_dim_0 or per_dim_1",
                       where)
        i = 1
        value = None
        if policy in _SINGLE_VALUE_POLICIES and i < len(fields):
            vtext = fields[i]
            if not _FLOAT_RE.fullmatch(vtext):
                raise _err(f"{what}: {'scale' if is_scale else 'zero point'} {_q(vtext)} is not a number",
                           where)
            fv = float(vtext)
            if not math.isfinite(fv):
                raise _err(f"{what}: value {_q(vtext)} is not finite", where)
            if is_scale:
                if fv < 0:
                    raise _err(f"{what}: the scale can't be negative: {_q(vtext)}", where)
                value = fv
            else:
                if fv != int(fv):
                    raise _err(f"{what}: the zero point {_q(vtext)} is not an integer", where)
                value = int(fv)
            i += 1
        dt = DEFAULT_SCALE_DT if is_scale else DEFAULT_ZP_DT
        if i < len(fields):
            if i == 1 and _FLOAT_RE.fullmatch(fields[i]):
                raise _err(f"{what}: policy {policy} takes no value {_q(fields[i])}; only common "
                           f"(mask 0) carries one", where)
            dt = _parse_dt(fields[i], what, where)
            i += 1
        groups: tuple[int, ...] = ()
        if i < len(fields):
            groups = _parse_int_list(fields[i], what + " groups", where)
            if len(groups) != 2:
                raise _err(f"{what}: groups {_q(fields[i])} must have 2 values, e.g. 8x1", where)
            i += 1
        if i < len(fields):
            raise _err(f"{what}: too many ':' fields in {_q(piece)} "
                       f"(expected ARG:POLICY[:VALUE][:DATA_TYPE[:GROUPS]])", where)
        cls = AttrScale if is_scale else AttrZeroPoint
        entries[arg] = cls(arg, policy, value, dt, groups)  # a repeated arg overrides, as in benchdnn
    return tuple(entries[a] for a in sorted(entries, key=_arg_rank))


def _parse_oflag(text: str, where: str | None) -> str:
    if text == "":
        return ""
    out = []
    for piece in text.split("+"):
        flag, sep, mask = piece.partition(":")
        flag = flag.lower()
        if flag not in ("s8s8_comp", "zp_comp"):
            raise _err(f"--oflag={text}: unknown flag {_q(flag)} (expected s8s8_comp or zp_comp)", where)
        if not sep:
            raise _err(f"--oflag={text}: {_q(piece)} lacks ':MASK'", where)
        out.append(f"{flag}:{_parse_uint(mask, f'--oflag={text}', where)}")
    return "+".join(out)


def _parse_strides(text: str, where: str | None) -> tuple:
    what = f"--strides={text}"
    if text == "":
        return (None, None)
    sides = text.split(":")
    if len(sides) != 2:
        raise _err(f"{what}: expected SRC_STRIDES:DST_STRIDES (one ':'; a side may be empty), "
                   f"e.g. 960x1x64x16:", where)
    return tuple(_parse_int_list(s, what, where) if s else None for s in sides)


def _parse_raw_attr(option: str) -> Callable[[str, str | None], str]:
    def parse(text: str, where: str | None) -> str:
        if text and any(e == "" for e in _split_plus(text)):
            raise _err(f"--{option}={text}: empty '+' entry", where)
        return text
    return parse


# --------------------------------------------------------------------------------------------
# The case
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReorderCase(driver.Case):
    """One reorder problem: src (sdt, stag or strides[0]) -> dst (ddt, dtag or strides[1]) over dims.

    ``knobs`` holds the non-default benchdnn settings the product does not model, as
    (option name without dashes, value) pairs in repro order; ``extras`` the product options in
    effect (backend, input, output, ...). ``name`` is the descriptor's ``_nNAME`` label: kept for
    reports, excluded from equality and from `repro`. ``unsupported`` is derived: one reason per
    knob and per scale / zero-point entry the product does not implement, each spelled as the
    option that causes it; empty when the case is fully supported.
    """
    sdt: str
    ddt: str
    stag: str
    dtag: str
    dims: tuple[int, ...]
    strides: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
    scales: tuple[AttrScale, ...] = ()
    zero_points: tuple[AttrZeroPoint, ...] = ()
    knobs: tuple[tuple[str, str], ...] = ()
    extras: tuple[tuple[str, str], ...] = ()
    name: str = field(default="", compare=False)
    unsupported: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "dims", tuple(int(d) for d in self.dims))
        if any(d < 0 for d in self.dims):
            raise ProblemError(f"negative dimension in {self.dims}")
        set_(self, "strides", tuple(None if s is None else tuple(int(x) for x in s)
                                    for s in self.strides))
        if len(self.strides) != 2:
            raise ProblemError(f"strides must be a (src, dst) pair, got {self.strides!r}")
        set_(self, "scales", tuple(self.scales))
        set_(self, "zero_points", tuple(self.zero_points))
        self._normalise_knobs(KNOB_NAMES, _ORDER_RANK)
        reasons: list[str] = []
        for opt in _REPRO_ORDER:
            if opt == "attr-scales":
                reasons += [r for r in (s.unsupported_reason for s in self.scales) if r]
            elif opt == "attr-zero-points":
                reasons += [r for r in (z.unsupported_reason for z in self.zero_points) if r]
            elif opt not in IMPL_FILTERS:
                reasons += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        set_(self, "unsupported", tuple(reasons))

    @property
    def ndims(self) -> int:
        return len(self.dims)

    @property
    def supported(self) -> bool:
        return not self.unsupported

    def repro_args(self) -> list[str]:
        """The `repro` line as an argv list (no shell quoting needed)."""
        args = [f"--sdt={self.sdt}", f"--ddt={self.ddt}", f"--stag={self.stag}", f"--dtag={self.dtag}"]
        if self.strides != (None, None):
            args.append("--strides=" + ":".join("" if s is None else "x".join(map(str, s))
                                                for s in self.strides))
        for opt in _REPRO_ORDER:
            if opt == "attr-scales":
                args += plus_option(opt, self.scales)
            elif opt == "attr-zero-points":
                args += plus_option(opt, self.zero_points)
            else:
                args += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        args += [f"--{k}={v}" for k, v in self.extras]
        args.append("x".join(map(str, self.dims)))
        return args


# --------------------------------------------------------------------------------------------
# Option table
# --------------------------------------------------------------------------------------------

#: Driver vector options: name -> (per-alternative parser, default alternatives). Reset by --reset.
_VECTOR: dict[str, tuple[Callable[[str, str | None], object], tuple]] = {
    "sdt": (lambda t, w: _parse_dt(t, "--sdt", w), (DEFAULT_DT,)),
    "ddt": (lambda t, w: _parse_dt(t, "--ddt", w), (DEFAULT_DT,)),
    "stag": (lambda t, w: _parse_tag(t, "--stag", w), (DEFAULT_TAG,)),
    "dtag": (lambda t, w: _parse_tag(t, "--dtag", w), (DEFAULT_TAG,)),
    "strides": (_parse_strides, ((None, None),)),
    "oflag": (_parse_oflag, ("",)),
    "cross-engine": (None, ("none",)),  # filled below
    "attr-scales": (lambda t, w: parse_quant(t, "attr-scales", w), ((),)),
    "attr-zero-points": (lambda t, w: parse_quant(t, "attr-zero-points", w), ((),)),
    "attr-precomputed-reductions": (_parse_raw_attr("attr-precomputed-reductions"), ("",)),
    "attr-post-ops": (_parse_raw_attr("attr-post-ops"), ("",)),
    "attr-dropout": (_parse_raw_attr("attr-dropout"), ("",)),
    "attr-rounding-mode": (_parse_raw_attr("attr-rounding-mode"), ("",)),
    "runtime-dim-mask": (lambda t, w: _parse_uint(t, "--runtime-dim-mask", w), (0,)),
}


def _parse_cross_engine(text: str, where: str | None) -> str:
    v = text.lower()
    if v not in ("none", "cpu2gpu", "gpu2cpu"):
        raise _err(f"--cross-engine: unknown value {_q(text)} (expected none, cpu2gpu or gpu2cpu)", where)
    return v


_VECTOR["cross-engine"] = (_parse_cross_engine, ("none",))


class ReorderDriver(driver.Driver):
    NAME = "reorder"
    VECTOR = _VECTOR
    ALIASES = {"runtime_dim_mask": ("runtime-dim-mask", None)}  # driver_reorder.md spells it with '_'
    EXTRA_DEFAULTS = DEFAULT_EXTRA_OPTIONS

    def problem(self, text: str, where: str | None) -> Iterator[ReorderCase]:
        dims, name = parse_dims(text, where)
        v = self.vec
        ndims = len(dims)
        for src_st, dst_st in v["strides"]:
            for side, st in (("src", src_st), ("dst", dst_st)):
                if st is not None and len(st) != ndims:
                    raise _err(f"--strides: {side} strides {'x'.join(map(str, st))} have {len(st)} values "
                               f"but problem {_q(text)} has {ndims} dims", where)
        extras = tuple((k, val) for k, val in self.extras.items() if val is not None)
        tail_knobs = self.tail_knobs()
        for (sdt, ddt, stag, dtag, strides, oflag, xeng, scales, zps, prr, pops, drop, rnd,
             rdm) in itertools.product(
                v["sdt"], v["ddt"], v["stag"], v["dtag"], v["strides"], v["oflag"], v["cross-engine"],
                v["attr-scales"], v["attr-zero-points"], v["attr-precomputed-reductions"],
                v["attr-post-ops"], v["attr-dropout"], v["attr-rounding-mode"], v["runtime-dim-mask"]):
            for side, st, tag in (("src", strides[0], stag), ("dst", strides[1], dtag)):
                if st is not None and tag != DEFAULT_TAG:
                    raise _err(f"--strides and --{side[0]}tag={tag} both describe the {side} tensor; "
                               f"drop one of them", where)
            knobs = [(k, val) for k, val, default in (
                ("oflag", oflag, ""), ("cross-engine", xeng, "none"), ("runtime-dim-mask", str(rdm), "0"),
                ("attr-precomputed-reductions", prr, ""), ("attr-post-ops", pops, ""),
                ("attr-dropout", drop, ""), ("attr-rounding-mode", rnd, "")) if val != default]
            case = ReorderCase(sdt, ddt, stag, dtag, dims, strides, scales, zps,
                               tuple(knobs + tail_knobs), extras, name)
            if self.keep(case):
                yield case


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------

def parse_args(argv: Iterable[str], *, cwd: Path | str | None = None,
               extra_options: Mapping[str, str | None] | None = None) -> Iterator[ReorderCase]:
    """Parse a benchdnn reorder command line (without the program name) into cases, lazily.

    ``argv`` is already split into words (the shell did quoting and line continuation); a leading
    ``--reorder`` is accepted. Relative ``--batch`` files are looked up in ``cwd`` (default: the
    process's working directory). ``extra_options`` declares product options beyond benchdnn and
    their defaults, e.g. ``{"device": None}``; ``--backend``/``--input``/``--output``
    (`DEFAULT_EXTRA_OPTIONS`) are always declared. Errors raise `ProblemError` when the
    iteration reaches them.
    """
    return driver.parse_args(ReorderDriver, argv, cwd=cwd, extra_options=extra_options)


def parse_batch_file(path: Path | str, *, cwd: Path | str | None = None,
                     extra_options: Mapping[str, str | None] | None = None) -> Iterator[ReorderCase]:
    """Parse a benchdnn batch file (as ``--batch=PATH`` would), lazily.

    A relative ``path`` is taken from ``cwd`` (default: the working directory). A missing file
    raises ``ProblemError("batch file not found: PATH")`` at once; everything else is raised
    when the iteration reaches it.
    """
    return driver.parse_batch_file(ReorderDriver, path, cwd=cwd, extra_options=extra_options)




def parse_list_file(path: Path | str, *, cwd: Path | str | None = None,
                    extra_options: Mapping[str, str | None] | None = None) -> Iterator[ReorderCase]:
    """A list of independent reorder command lines (``lists/reorder_*.txt``): every line starts from
    the defaults (see `driver.parse_list_file`)."""
    return driver.parse_list_file(ReorderDriver, path, cwd=cwd, extra_options=extra_options)


# --------------------------------------------------------------------------------------------
# Case -> problem
# --------------------------------------------------------------------------------------------

def _quant_from_attr(attr, ndims: int) -> Quant:
    return Quant.parse(attr.policy, ndims)


def reorder_problem(case: ReorderCase) -> ReorderProblem:
    """The ReorderProblem a benchdnn case describes; UnsupportedError for what the product lacks."""
    if case.unsupported:
        raise UnsupportedError(", ".join(case.unsupported) + " is not supported")
    for dt in (case.sdt, case.ddt):
        if dt not in DTYPES:
            raise UnsupportedError(f"data type {dt} is not supported (supported: {', '.join(DTYPES)})")
    if len(case.dims) > 6:
        raise UnsupportedError(f"{len(case.dims)} dims: descriptors have at most 6")
    src = MemoryDesc(case.dims, case.sdt, None if case.strides[0] else case.stag, strides=case.strides[0])
    dst = MemoryDesc(case.dims, case.ddt, None if case.strides[1] else case.dtag, strides=case.strides[1])
    kw = {}
    for s in case.scales:
        kw[f"{s.arg}_scale"] = _quant_from_attr(s, len(case.dims))
    for z in case.zero_points:
        kw[f"{z.arg}_zp"] = _quant_from_attr(z, len(case.dims))
    check_size(src, dst)
    return ReorderProblem(src, dst, **kw)


# bytes the check needs per buffer element: src and dst buffers, the float64 reference, two int64
# offset tables and NumPy temporaries
_CHECK_BYTES_PER_ELEMENT = 48


def _available_memory() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 << 30


def check_size(*descs: MemoryDesc) -> None:
    """Refuse problems the runtime cannot index (2**31 elements) or this machine cannot hold while checking."""
    n = max(d.buffer_nelems for d in descs)
    if n >= 2**31:
        raise UnsupportedError(f"{n} buffer elements: kgen limits a buffer to 2^31-1 elements (larger ones are untested)")
    need, have = n * _CHECK_BYTES_PER_ELEMENT, _available_memory()
    if need > have // 2:
        raise UnsupportedError(f"checking needs about {need / 2**30:.1f} GiB, more than half of the "
                               f"{have / 2**30:.1f} GiB available")


def given_quant_values(case: ReorderCase) -> dict[str, float]:
    """The common scale / zero-point values the case names (`--attr-scales=src:common:0.5`), by argument
    (`src_scale`, ...): `verify.check_reorder` keeps them instead of generating its own."""
    given = {f"{s.arg}_scale": s for s in case.scales} | {f"{z.arg}_zp": z for z in case.zero_points}
    return {arg: a.effective_value for arg, a in given.items() if a.value is not None}
