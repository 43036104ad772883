"""benchdnn conv-driver command lines -> `ConvCase`, and a case -> the `ConvProblem` it describes
(`conv_problem`), as oneDNN's benchdnn reads them (commit 3f27bec of uxlfoundation/oneDNN, the one
``/work/shared/benchdnn`` was copied from). The descriptor in each line (``ic16ih14oc32oh14kh3ph1``)
is `conv_desc`'s, the ``--attr-post-ops`` grammar `conv_post_ops`'s.

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
from ..problem.attr import QuantArg
from ..problem.conv import (ACCUMULATORS, BIAS_TYPES, SCALE_POLICIES, ZERO_POINT_POLICIES, ZERO_POINT_TYPES,
                            ConvProblem)
from ..problem.conv_desc import ConvDesc
from . import driver
from .conv_desc import parse_conv_desc
from .conv_post_ops import parse_post_ops, post_op_from_text, post_op_unsupported
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
    "conv_problem",
    "given_conv_quant_values",
    "parse_conv_args",
    "parse_conv_batch_file",
    "parse_conv_list_file",
]

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
              "indirect", "brgemm", "brgemm_fma", "brgemm_amx", "brgemm_bf16x3", "brgemm_amx_bf16x3", "auto")
_ALG_ALIASES = {"convolution_direct": "direct", "wino": "winograd", "convolution_wino": "winograd",
                "convolution_winograd": "winograd", "convolution_auto": "auto"}
DEFAULT_ALG = "direct"
#: A tag option not given means plain (abx: nchw, oihw...), the layout PyTorch's and NumPy's arrays
#: have, so a line without tags keeps meaning one layout. benchdnn's default is ``any``; here
#: ``--stag=any`` (and --wtag, --dtag) is written out to let kgen choose (`generator.select.resolve_layouts`).
DEFAULT_TAG = "abx"

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
                reasons += [f"--attr-post-ops={p}" for p in self.post_ops if post_op_unsupported(p, self.desc.ndims)]
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
    "attr-post-ops": (parse_post_ops, ((),)),
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
