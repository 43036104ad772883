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
`ReorderCase.weight` sums the ``*N`` counts (``*3&...*2&...`` -> 6) for callers that want to
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

import difflib
import itertools
import math
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from ..errors import ProblemError

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
]

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

#: benchdnn's ``str2dt`` spellings (``dnnl_`` prefixes are accepted and dropped).
DATA_TYPES = ("f32", "bf16", "f16", "s32", "s8", "u8", "f64", "boolean", "f8_e5m2", "f8_e4m3",
              "s4", "u4", "e8m0", "f4_e2m1", "s64")

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
_POLICY_MASKS = {"common": 0, "host_scalar": 0, "per_dim_0": 1, "per_dim_1": 2, "per_oc": 2,
                 "per_dim_01": 3, "per_ocic": 3, "per_dim_2": 4, "per_dim_3": 8}
SUPPORTED_ATTR_ARGS = ("src", "dst")
_ARG_RANK = {"src": 1, "src1": 2, "dst": 17, "wei": 33}  # DNNL_ARG_* values: benchdnn's map order
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
DEFAULT_EXTRA_OPTIONS: Mapping[str, str | None] = {"backend": None, "input": None, "output": None}

_INT_RE = re.compile(r"0|[1-9][0-9]*")
_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_TAG_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_OTHER_DRIVERS = ("binary", "bnorm", "brgemm", "concat", "conv", "deconv", "eltwise", "gnorm", "graph",
                  "ip", "lnorm", "lrn", "matmul", "pool", "prelu", "reduction", "resampling", "rnn",
                  "sdpa", "self", "shuffle", "softmax", "sum", "zeropad")


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

def _q(text: str, limit: int = 80) -> str:
    """Quote a user token for a one-line error message."""
    if len(text) > limit:
        text = text[:limit] + "..."
    return repr(text)


def _err(msg: str, where: str | None = None) -> ProblemError:
    return ProblemError(f"{msg} (at {where})" if where else msg)


def _fmt_float(v: float) -> str:
    """Shortest text that parses back to exactly ``v`` (integers without a fraction)."""
    if math.isfinite(v) and v == int(v) and abs(v) < 2**53:
        return str(int(v))
    return repr(float(v))


def _parse_uint(text: str, what: str, where: str | None) -> int:
    if not _INT_RE.fullmatch(text):
        raise _err(f"{what}: {_q(text)} is not a non-negative integer", where)
    return int(text)


def _parse_dt(text: str, what: str, where: str | None) -> str:
    dt = text[5:] if text.startswith("dnnl_") else text
    if dt not in DATA_TYPES:
        raise _err(f"{what}: unknown data type {_q(text)} (expected one of {', '.join(DATA_TYPES)})",
                   where)
    return dt


def _parse_tag(text: str, what: str, where: str | None) -> str:
    # Only the spelling is checked here; whether the tag names a layout the product can build is
    # the layout layer's business (generator.layout.tags).
    if not _TAG_RE.fullmatch(text):
        raise _err(f"{what}: bad format tag {_q(text)} (expected letters and digits, e.g. abx, aBx16b)",
                   where)
    return text


def _alternatives(value: str) -> list[str]:
    """Split a vector option's value on commas (benchdnn ``parse_vector_str``)."""
    return value.split(",")


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
    if policy.isdigit():
        return int(policy)
    if policy in _POLICY_MASKS:
        return _POLICY_MASKS[policy]
    return (1 << ndims) - 1  # per_tensor, mx, dynamic_fp: every dim


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
class AttrScale:
    """One argument's scale: ``--attr-scales=src:per_dim_1`` or ``src:common:0.25``.

    ``policy`` keeps benchdnn's spelling (``common``, ``per_dim_0``, ``per_dim_1``, ``per_dim_01``,
    ``per_tensor`` ...; an integer mask given as digits stays digits, e.g. ``"2"``). ``value`` is
    the single scale of ``common`` (or mask 0) and None when not given -- benchdnn then uses
    1.0 (`DEFAULT_SCALE`; see `effective_value`). ``dt`` and ``groups`` are the optional
    ``:DATA_TYPE[:GROUPS]`` tail (defaults f32 and none). ``str()`` gives the benchdnn entry text;
    a ``common`` entry with no value but a non-default tail prints the default value 1 (benchdnn's
    syntax has no way to skip it), so only that hand-built form does not round-trip to None.
    """
    arg: str
    policy: str
    value: float | None = None
    dt: str = DEFAULT_SCALE_DT
    groups: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(int(g) for g in self.groups))
        if self.value is not None:
            object.__setattr__(self, "value", float(self.value))

    @property
    def effective_value(self) -> float:
        return DEFAULT_SCALE if self.value is None else self.value

    def mask(self, ndims: int) -> int:
        """oneDNN's scale mask for a tensor of ``ndims`` dims (bit d = one scale per index of dim d)."""
        return _policy_mask(self.policy, ndims)

    @property
    def unsupported_reason(self) -> str | None:
        if (self.arg not in SUPPORTED_ATTR_ARGS or self.dt != DEFAULT_SCALE_DT or self.groups
                or not (self.policy in SUPPORTED_POLICIES or self.policy.isdigit())):
            return f"--attr-scales={self}"
        return None

    def __str__(self) -> str:
        value = None
        if self.value is not None or self.dt != DEFAULT_SCALE_DT or self.groups:
            value = _fmt_float(self.effective_value)
        return _entry_str(self.arg, self.policy, value, self.dt, DEFAULT_SCALE_DT, self.groups)


@dataclass(frozen=True)
class AttrZeroPoint:
    """One argument's zero point: ``--attr-zero-points=src:common:-1+dst:common:2``.

    Same shape as `AttrScale`; ``value`` is an integer, None when not given (benchdnn then uses
    0, `DEFAULT_ZERO_POINT`); the data type defaults to s32.
    """
    arg: str
    policy: str
    value: int | None = None
    dt: str = DEFAULT_ZP_DT
    groups: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(int(g) for g in self.groups))
        if self.value is not None:
            object.__setattr__(self, "value", int(self.value))

    @property
    def effective_value(self) -> int:
        return DEFAULT_ZERO_POINT if self.value is None else self.value

    def mask(self, ndims: int) -> int:
        return _policy_mask(self.policy, ndims)

    @property
    def unsupported_reason(self) -> str | None:
        if (self.arg not in SUPPORTED_ATTR_ARGS or self.dt != DEFAULT_ZP_DT or self.groups
                or not (self.policy in SUPPORTED_POLICIES or self.policy.isdigit())):
            return f"--attr-zero-points={self}"
        return None

    def __str__(self) -> str:
        value = None
        if self.value is not None or self.dt != DEFAULT_ZP_DT or self.groups:
            value = str(self.effective_value)
        return _entry_str(self.arg, self.policy, value, self.dt, DEFAULT_ZP_DT, self.groups)


def _canonical_arg(text: str) -> str | None:
    if text in ("src", "src0"):
        return "src"
    if text in ("src1", "dst", "wei"):
        return text
    m = re.fullmatch(r"msrc(0|[1-9][0-9]*)", text)
    return f"msrc{m.group(1)}" if m else None


def _arg_rank(arg: str) -> int:
    if arg.startswith("msrc"):
        return 1024 + int(arg[4:])  # DNNL_ARG_MULTIPLE_SRC + i
    return _ARG_RANK[arg]


def _split_plus(text: str) -> list[str]:
    """Split on '+', re-gluing a float exponent such as ``1e+10`` (benchdnn does the same)."""
    raw = text.split("+")
    out: list[str] = []
    i = 0
    while i < len(raw):
        piece = raw[i]
        if re.search(r"[0-9.][eE]\Z", piece) and i + 1 < len(raw):
            piece = piece + "+" + raw[i + 1]
            i += 1
        out.append(piece)
        i += 1
    return out


def _parse_quant(text: str, option: str, where: str | None) -> tuple:
    """Parse one alternative of --attr-scales / --attr-zero-points into a tuple of entries."""
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
        if is_scale and policy == "per_oc":
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
class ReorderCase:
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
        for k, _ in self.knobs:
            if k not in KNOB_NAMES:
                raise ProblemError(f"unknown knob '{k}' (expected one of {', '.join(KNOB_NAMES)})")
        set_(self, "knobs", tuple(sorted(((str(k), str(v)) for k, v in self.knobs),
                                         key=lambda kv: _ORDER_RANK[kv[0]])))
        set_(self, "extras", tuple((str(k), str(v)) for k, v in self.extras))
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

    @property
    def weight(self) -> int:
        """How often the shape occurs in the models it was harvested from: the sum of the ``*N``
        counts of the ``&``-joined parts of `name` (1 per part without a count; 1 without a name)."""
        total = 0
        for part in self.name.split("&"):
            if not part:
                continue
            m = re.fullmatch(r".*?\*([0-9]+)", part)
            total += int(m.group(1)) if m else 1
        return max(total, 1)

    def knob(self, name: str) -> str | None:
        return next((v for k, v in self.knobs if k == name), None)

    def extra(self, name: str) -> str | None:
        return next((v for k, v in self.extras if k == name), None)

    def repro_args(self) -> list[str]:
        """The `repro` line as an argv list (no shell quoting needed)."""
        args = [f"--sdt={self.sdt}", f"--ddt={self.ddt}", f"--stag={self.stag}", f"--dtag={self.dtag}"]
        if self.strides != (None, None):
            args.append("--strides=" + ":".join("" if s is None else "x".join(map(str, s))
                                                for s in self.strides))
        for opt in _REPRO_ORDER:
            if opt == "attr-scales":
                if self.scales:
                    args.append("--attr-scales=" + "+".join(map(str, self.scales)))
            elif opt == "attr-zero-points":
                if self.zero_points:
                    args.append("--attr-zero-points=" + "+".join(map(str, self.zero_points)))
            else:
                args += [f"--{k}={v}" for k, v in self.knobs if k == opt]
        args += [f"--{k}={v}" for k, v in self.extras]
        args.append("x".join(map(str, self.dims)))
        return args

    def repro(self) -> str:
        """Canonical benchdnn-like line reproducing exactly this case: sdt/ddt/stag/dtag always
        (as benchdnn's own repro lines do), then only non-default options, then the dims, e.g.
        ``--sdt=f32 --ddt=s8 --stag=abx --dtag=aBx16b --attr-scales=src:per_dim_1 2x64x3x3``.
        ``parse_args(shlex.split(case.repro()))`` yields a case equal to this one."""
        return " ".join(shlex.quote(a) for a in self.repro_args())

    def __str__(self) -> str:
        return self.repro()


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
    "attr-scales": (lambda t, w: _parse_quant(t, "attr-scales", w), ((),)),
    "attr-zero-points": (lambda t, w: _parse_quant(t, "attr-zero-points", w), ((),)),
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
_ALIASES = {"runtime_dim_mask": "runtime-dim-mask"}  # driver_reorder.md spells it with '_'


def _check_bool(text: str) -> bool:
    return text.lower() in ("0", "1", "true", "false")


def _check_bools(text: str) -> bool:
    return all(_check_bool(t) for t in text.split(","))


def _check_uint(text: str) -> bool:
    return bool(_INT_RE.fullmatch(text))


def _check_float(text: str) -> bool:
    return bool(_FLOAT_RE.fullmatch(text))


def _check_any(text: str) -> bool:
    return True


#: Accepted and ignored: they steer the benchmark harness, not what a reorder computes.
#: name -> validator of a non-empty value (an empty value means "default" and is always fine).
_IGNORED: dict[str, Callable[[str], bool]] = {
    # global options (parse_bench_settings)
    "allow-enum-tags-only": _check_bool, "attr-same-pd-check": _check_bool, "canonical": _check_bool,
    "check-ref-impl": _check_bool, "cold-cache": _check_any, "cpu-isa-hints": _check_any,
    "engine": lambda t: bool(re.fullmatch(r"(cpu|gpu)(:[0-9]+)?", t.lower())),
    "fast-ref": _check_bool, "fix-times-per-prb": _check_uint, "max-ms-per-prb": _check_float,
    "num-streams": _check_uint, "repeats-per-prb": _check_uint, "mem-check": _check_bool,
    "memory-kind": _check_any, "mode": lambda t: bool(re.fullmatch(r"[LIRCPFSBlircpfsb]", t)),
    "mode-modifier": lambda t: bool(re.fullmatch(r"[PMpm]+", t)), "stream-kind": _check_any,
    "summary": _check_any, "verbose": _check_uint, "execution-mode": _check_any,
    # driver-shared options that do not change the result of a reorder
    "ctx-init": _check_any, "ctx-exe": _check_any, "perf-template": _check_any,
    "attr-scratchpad": _check_any, "attr-fpmath": _check_any, "attr-acc-mode": _check_any,
    "attr-deterministic": _check_bools,
}
_IMPL_OPTIONS = ("impl", "skip-impl")                  # driver scope, one shared filter
#: oneDNN implementation filters: kept for repro, but they change nothing here (one implementation
#: per kernel), so they make no case unsupported.
IMPL_FILTERS = frozenset({"impl", "skip-impl", "global-impl", "global-skip-impl"})
_GLOBAL_IMPL_OPTIONS = ("global-impl", "global-skip-impl")
_NO_VALUE = ("reset", "help", "reorder")
_OTHER = ("batch", "match", "start", "buffer-prefix")


def _known_options(extras: Iterable[str]) -> list[str]:
    return sorted({*_VECTOR, *_ALIASES, *_IGNORED, *_IMPL_OPTIONS, *_GLOBAL_IMPL_OPTIONS, *_NO_VALUE,
                   *_OTHER, *extras})


# --------------------------------------------------------------------------------------------
# Tokenizer (benchdnn common.cpp: batch)
# --------------------------------------------------------------------------------------------

Token = tuple[str, "str | None"]  # (text, where)


def _tokenize(lines: Iterable[str], label: str, first_line: int = 1) -> Iterator[Token]:
    """Split batch-file text into words the way benchdnn's ``batch()`` does (see module doc)."""
    pending: Token | None = None
    continued = False
    for lineno, line in enumerate(lines, first_line):
        where = f"{label}:{lineno}"
        for word in line.split():
            if word.startswith("#"):
                break  # shell-style comment: the rest of the line is dropped
            if continued:
                if pending is None:
                    raise _err("line continuation '\\' with nothing before it", where)
                if not word.startswith("--"):
                    word = pending[0] + word
                    where_word = pending[1]
                    pending = None
                else:
                    where_word = where
            else:
                where_word = where
            if word.endswith("\\"):
                continued = True
                if word == "\\":
                    continue  # the line break lives separately; `pending` stays to be glued
                word = word[:-1]
            else:
                continued = False
            if pending is not None:
                yield pending
            pending = (word, where_word)
    if pending is not None:
        yield pending


# --------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, cwd: Path | None, extra_options: Mapping[str, str | None] | None) -> None:
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.extra_defaults: dict[str, str | None] = dict(DEFAULT_EXTRA_OPTIONS)
        for name, default in (extra_options or {}).items():
            name = str(name).lstrip("-")
            if name in _known_options(()) and name not in DEFAULT_EXTRA_OPTIONS:
                raise ValueError(f"extra option '--{name}' clashes with a benchdnn option")
            self.extra_defaults[name] = None if default is None else str(default)
        self.extras = dict(self.extra_defaults)      # not reset by --reset
        self.global_impl: tuple[str, str] | None = None
        self.buffer_prefix = ""
        self.start = 0
        self.index = 0                               # benchdnn's test-case counter for --start
        self.stack: list[Path] = []                  # batch files being read, for cycle detection
        self.reset()

    def reset(self) -> None:
        self.vec: dict[str, tuple] = {k: default for k, (_, default) in _VECTOR.items()}
        self.impl: tuple[str, str] | None = None
        self.match: re.Pattern[str] | None = None

    # -- driving -------------------------------------------------------------------------------

    def run(self, tokens: Iterable[Token], base_dir: Path | None) -> Iterator[ReorderCase]:
        for text, where in tokens:
            if text.startswith("--"):
                yield from self.option(text, where, base_dir)
            elif text.startswith("-"):
                if re.fullmatch(r"-v[0-9]+", text):
                    continue  # short --verbose
                raise _err(f"options need the '--' prefix: {_q(text)}", where)
            else:
                yield from self.problem(text, where)

    def option(self, text: str, where: str | None, base_dir: Path | None) -> Iterator[ReorderCase]:
        name, eq, value = text[2:].partition("=")
        name = _ALIASES.get(name, name)
        if name in _NO_VALUE:
            if eq:
                raise _err(f"option '--{name}' takes no value: {_q(text)}", where)
            if name == "reset":
                self.reset()
            return
        if name in _OTHER_DRIVERS:
            raise _err(f"only the reorder driver is supported, not '--{name}'", where)
        known = name in _VECTOR or name in _IGNORED or name in _IMPL_OPTIONS \
            or name in _GLOBAL_IMPL_OPTIONS or name in _OTHER or name in self.extra_defaults
        if not known:
            close = difflib.get_close_matches(name, _known_options(self.extra_defaults), n=1)
            hint = f" (did you mean '--{close[0]}'?)" if close else ""
            raise _err(f"unknown option '--{name}' for the reorder driver{hint}", where)
        if not eq:
            raise _err(f"option '--{name}' needs a value: --{name}=VALUE", where)

        if name == "batch":
            if not value:
                raise _err("option '--batch' needs a file name: --batch=FILE", where)
            yield from self.batch(value, where, base_dir)
        elif name in _VECTOR:
            parse, default = _VECTOR[name]
            self.vec[name] = default if value == "" else tuple(parse(a, where) for a in _alternatives(value))
        elif name in self.extra_defaults:
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
            self.start = _parse_uint(value, "--start", where) if value else 0
        elif name == "match":
            try:
                self.match = re.compile(value) if value else None
            except re.error as e:
                raise _err(f"--match: bad regular expression {_q(value)}: {e}", where) from None

    def locate(self, value: str, where: str | None, base_dir: Path | None) -> Path:
        """A --batch file: next to the including file first, then in the working directory."""
        p = Path(value)
        if p.is_absolute():
            candidates = [p]
        else:
            candidates = ([base_dir / p] if base_dir is not None else []) + [self.cwd / p]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None:
            raise ProblemError(f"batch file not found: {value}" + (f" (at {where})" if where else ""))
        return path

    def batch(self, value: str, where: str | None, base_dir: Path | None) -> Iterator[ReorderCase]:
        path = self.locate(value, where, base_dir)
        key = path.resolve()
        if key in self.stack:
            raise _err(f"batch file includes itself: {value}", where)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise _err(f"cannot read batch file {value}: {e}", where) from None
        self.stack.append(key)
        try:
            yield from self.run(_tokenize(text.splitlines(), str(path)), path.parent)
        finally:
            self.stack.pop()

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
        tail_knobs: list[tuple[str, str]] = []
        if self.impl:
            tail_knobs.append(self.impl)
        if self.global_impl:
            tail_knobs.append(self.global_impl)
        if self.buffer_prefix:
            tail_knobs.append(("buffer-prefix", self.buffer_prefix))
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
    parser = _Parser(Path(cwd) if cwd is not None else None, extra_options)
    tokens = ((str(a), f"argument {i}") for i, a in enumerate(argv, 1))
    yield from parser.run(tokens, None)


def parse_batch_file(path: Path | str, *, cwd: Path | str | None = None,
                     extra_options: Mapping[str, str | None] | None = None) -> Iterator[ReorderCase]:
    """Parse a benchdnn batch file (as ``--batch=PATH`` would), lazily.

    A relative ``path`` is taken from ``cwd`` (default: the working directory). A missing file
    raises ``ProblemError("batch file not found: PATH")`` at once; everything else is raised
    when the iteration reaches it.
    """
    parser = _Parser(Path(cwd) if cwd is not None else None, extra_options)
    parser.locate(str(path), None, None)  # fail early on a missing file
    return parser.batch(str(path), None, None)


def parse_list_file(path: Path | str, *, cwd: Path | str | None = None,
                    extra_options: Mapping[str, str | None] | None = None, parser_class=None) -> Iterator[ReorderCase]:
    """Parse a list of independent command lines, one per line (``lists/reorder_*.txt``), lazily.

    Unlike a batch file, every line starts from the defaults (global options included), so an
    option on one line never leaks into the next (``reorder_full.txt`` has one line with
    ``--skip-impl=simple``). Blank lines and ``#`` comments are skipped; a line ending in ``\\``
    continues on the next. Relative ``--batch`` files are looked up next to the list, then in
    ``cwd``. A missing list raises ``ProblemError("list file not found: PATH")`` at once.
    ``parser_class`` lets another driver (the conv parser) reuse this reading with its own options.
    """
    p = Path(path)
    if not p.is_absolute() and cwd is not None:
        p = Path(cwd) / p
    if not p.is_file():
        raise ProblemError(f"list file not found: {path}")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ProblemError(f"cannot read list file {path}: {e}") from None
    return _iter_list(text.splitlines(), p, cwd, extra_options, parser_class or _Parser)


def _iter_list(lines: list[str], p: Path, cwd: Path | str | None,
               extra_options: Mapping[str, str | None] | None, parser_class) -> Iterator[ReorderCase]:
    i = 0
    while i < len(lines):
        first = i
        chunk = [lines[i]]
        while chunk[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            chunk.append(lines[i])
        i += 1
        parser = parser_class(Path(cwd) if cwd is not None else None, extra_options)
        yield from parser.run(_tokenize(chunk, str(p), first + 1), p.parent)
