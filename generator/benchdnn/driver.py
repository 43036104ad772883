"""The benchdnn front end shared by every driver: the tokenizer, batch and list files, and one
table-driven option state machine (`Driver`).

The grammar and semantics are oneDNN benchdnn's (``tests/benchdnn/doc/knobs_common.md``,
``utils/parser.cpp``, ``common.cpp:batch``); `generator.benchdnn.reorder` and
`generator.benchdnn.conv` document their own options. A driver is a `Driver` subclass that sets the
option tables (class attributes) and builds its cases in `Driver.problem`: adding a driver option is
one row of its `VECTOR` table. What every driver shares:

* options are state: each sets the value for every problem after it, in this command line, this batch
  file and, after a nested ``--batch`` returns, in the includer (benchdnn shares one settings object);
* ``--reset`` restores the driver options (`VECTOR`, the implementation filter, ``--match``); global
  options and the product's extra options (``--backend``, ...) survive it;
* a comma means alternatives (the problem expands to their cross product); an empty value restores
  the default;
* ``--batch=FILE`` (next to the including file first, then the working directory; a file that
  includes itself is an error), ``--match=REGEX`` (on the case's repro line), ``--start=N``, the
  implementation filters ``--impl`` / ``--skip-impl`` / ``--global-impl`` / ``--global-skip-impl``
  (kept for repro; one implementation per kernel here, so they never make a case unsupported) and
  the harness options in `HARNESS_OPTIONS` (accepted and ignored).
"""
from __future__ import annotations

import difflib
import re
import shlex
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from ..errors import ProblemError

#: benchdnn's ``str2dt`` spellings (``dnnl_`` prefixes are accepted and dropped).
DATA_TYPES = ("f32", "bf16", "f16", "s32", "s8", "u8", "f64", "boolean", "f8_e5m2", "f8_e4m3",
              "s4", "u4", "e8m0", "f4_e2m1", "s64")


_INT_RE = re.compile(r"0|[1-9][0-9]*")
_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_TAG_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: benchdnn's other drivers: their options name a driver this front end does not run
OTHER_DRIVERS = ("binary", "bnorm", "brgemm", "concat", "conv", "deconv", "eltwise", "gnorm", "graph",
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


def plus_option(option: str, entries) -> list[str]:
    """``--OPTION=A+B`` for a repro line (benchdnn's '+'-joined attribute entries), or nothing when empty."""
    return [f"--{option}=" + "+".join(map(str, entries))] if entries else []


def _err(msg: str, where: str | None = None) -> ProblemError:
    return ProblemError(f"{msg} (at {where})" if where else msg)


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


#: Accepted and ignored by every driver: they steer the benchmark harness, not what is computed.
#: name -> validator of a non-empty value (an empty value means "default" and is always fine).
HARNESS_OPTIONS: dict[str, Callable[[str], bool]] = {
    # global options (parse_bench_settings)
    "allow-enum-tags-only": _check_bool, "attr-same-pd-check": _check_bool, "canonical": _check_bool,
    "check-ref-impl": _check_bool, "cold-cache": _check_any, "cpu-isa-hints": _check_any,
    "engine": lambda t: bool(re.fullmatch(r"(cpu|gpu)(:[0-9]+)?", t.lower())),
    "fast-ref": _check_bool, "fix-times-per-prb": _check_uint, "max-ms-per-prb": _check_float,
    "num-streams": _check_uint, "repeats-per-prb": _check_uint, "mem-check": _check_bool,
    "memory-kind": _check_any, "mode": lambda t: bool(re.fullmatch(r"[LIRCPFSBlircpfsb]", t)),
    "mode-modifier": lambda t: bool(re.fullmatch(r"[PMpm]+", t)), "stream-kind": _check_any,
    "summary": _check_any, "verbose": _check_uint, "execution-mode": _check_any,
    # driver-shared options that do not change the result of a reorder (a driver may model some)
    "ctx-init": _check_any, "ctx-exe": _check_any, "perf-template": _check_any,
    "attr-scratchpad": _check_any, "attr-fpmath": _check_any, "attr-acc-mode": _check_any,
    "attr-deterministic": _check_bools,
}
IMPL_OPTIONS = ("impl", "skip-impl")                   # driver scope, one shared filter
GLOBAL_IMPL_OPTIONS = ("global-impl", "global-skip-impl")
#: oneDNN implementation filters: kept for repro, but they change nothing here (one implementation
#: per kernel), so they make no case unsupported.
IMPL_FILTERS = frozenset({*IMPL_OPTIONS, *GLOBAL_IMPL_OPTIONS})
_STATE_OPTIONS = ("batch", "match", "start", "buffer-prefix")


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
# What every driver's case has
# --------------------------------------------------------------------------------------------

class Case:
    """Behaviour shared by every driver's case (a frozen dataclass with `name`, `knobs`, `extras` and a
    `repro_args()` method)."""

    @property
    def occurrences(self) -> int:
        """How often the problem occurs in the models it was harvested from: the sum of the ``*N``
        counts of the ``&``-joined parts of `name` (``resnet_50:res2a_branch2b*3`` -> 3; 1 per part
        without a count; 1 without a name)."""
        total = 0
        for part in self.name.split("&"):
            if part:
                m = re.fullmatch(r".*?\*([0-9]+)", part)
                total += int(m.group(1)) if m else 1
        return max(total, 1)

    def _normalise_knobs(self, known: Iterable[str], order: Mapping[str, int]) -> None:
        """Check the knobs against the driver's `known` names; keep knobs in `order` (benchdnn's repro
        order) and both knobs and extras as tuples of strings."""
        for k, _ in self.knobs:
            if k not in known:
                raise ProblemError(f"unknown knob '{k}' (expected one of {', '.join(known)})")
        object.__setattr__(self, "knobs", tuple(sorted(((str(k), str(v)) for k, v in self.knobs),
                                                       key=lambda kv: order[kv[0]])))
        object.__setattr__(self, "extras", tuple((str(k), str(v)) for k, v in self.extras))

    def knob(self, name: str) -> str | None:
        return next((v for k, v in self.knobs if k == name), None)

    def extra(self, name: str) -> str | None:
        return next((v for k, v in self.extras if k == name), None)

    def repro(self) -> str:
        """A benchdnn-like line reproducing exactly this case (see the driver's `repro_args`);
        parsing ``shlex.split(case.repro())`` with its driver yields a case equal to this one."""
        return " ".join(shlex.quote(a) for a in self.repro_args())

    def __str__(self) -> str:
        return self.repro()


# --------------------------------------------------------------------------------------------
# The option state machine
# --------------------------------------------------------------------------------------------

Parse = Callable[[str, "str | None"], object]


class Driver:
    """One benchdnn driver's parser. Subclasses set the tables and implement `problem`."""

    #: the driver's name, as its own ``--NAME`` option and in messages
    NAME: str = ""
    #: driver options: name -> (parser of one alternative, default alternatives); reset by --reset
    VECTOR: Mapping[str, tuple[Parse, tuple]] = {}
    #: other spellings: alias -> (option it sets, parser of one alternative or None for the option's)
    ALIASES: Mapping[str, tuple[str, Parse | None]] = {}
    #: accepted and ignored: name -> validator of a non-empty value
    IGNORED: Mapping[str, Callable[[str], bool]] = HARNESS_OPTIONS
    #: product options beyond benchdnn, not reset by --reset: name -> default (None: unset)
    EXTRA_DEFAULTS: Mapping[str, str | None] = {}
    #: extra options whose value is checked and normalised: name -> function (ValueError: bad value)
    EXTRA_CHECKS: Mapping[str, Callable[[str], str]] = {}
    #: a family of product options named by pattern (``binary-0``, ``binary-1``...), unset by default
    EXTRA_PATTERN: str | None = None

    def __init__(self, cwd: Path | None, extra_options: Mapping[str, str | None] | None) -> None:
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.extra_defaults: dict[str, str | None] = dict(self.EXTRA_DEFAULTS)
        for name, default in (extra_options or {}).items():
            name = str(name).lstrip("-")
            if name in self.known_options(()) and name not in self.EXTRA_DEFAULTS:
                raise ValueError(f"extra option '--{name}' clashes with a benchdnn {self.NAME} option")
            self.extra_defaults[name] = None if default is None else str(default)
        self.extras = dict(self.extra_defaults)      # not reset by --reset
        self.global_impl: tuple[str, str] | None = None
        self.buffer_prefix = ""
        self.start = 0
        self.index = 0                               # benchdnn's test-case counter for --start
        self.stack: list[Path] = []                  # batch files being read, for cycle detection
        self.reset()

    @classmethod
    def no_value_options(cls) -> tuple[str, ...]:
        return ("reset", "help", cls.NAME)

    @classmethod
    def known_options(cls, extras: Iterable[str]) -> list[str]:
        return sorted({*cls.VECTOR, *cls.ALIASES, *cls.IGNORED, *IMPL_OPTIONS, *GLOBAL_IMPL_OPTIONS,
                       *cls.no_value_options(), *_STATE_OPTIONS, *extras})

    def reset(self) -> None:
        self.vec: dict[str, tuple] = {k: default for k, (_, default) in self.VECTOR.items()}
        self.impl: tuple[str, str] | None = None
        self.match: re.Pattern[str] | None = None

    def problem(self, text: str, where: str | None) -> Iterator:
        """The cases one problem descriptor expands to under the current options."""
        raise NotImplementedError

    def keep(self, case) -> bool:
        """--start and --match: count the case, and say whether it is reported."""
        index = self.index
        self.index += 1
        if index < self.start:
            return False
        return self.match is None or bool(self.match.search(case.repro()))

    def tail_knobs(self) -> list[tuple[str, str]]:
        """Implementation filters and --buffer-prefix: kept on every case for its repro line."""
        tail = [f for f in (self.impl, self.global_impl) if f]
        if self.buffer_prefix:
            tail.append(("buffer-prefix", self.buffer_prefix))
        return tail

    # -- driving -------------------------------------------------------------------------------

    def run(self, tokens: Iterable[Token], base_dir: Path | None) -> Iterator:
        for text, where in tokens:
            if text.startswith("--"):
                yield from self.option(text, where, base_dir)
            elif text.startswith("-"):
                if re.fullmatch(r"-v[0-9]+", text):
                    continue  # short --verbose
                raise _err(f"options need the '--' prefix: {_q(text)}", where)
            else:
                yield from self.problem(text, where)

    def option(self, text: str, where: str | None, base_dir: Path | None) -> Iterator:
        name, eq, value = text[2:].partition("=")
        name, parse = self.ALIASES.get(name, (name, None))
        if name in self.no_value_options():
            if eq:
                raise _err(f"option '--{name}' takes no value: {_q(text)}", where)
            if name == "reset":
                self.reset()
            return
        if name in OTHER_DRIVERS + ("reorder", "conv"):
            raise _err(f"only the {self.NAME} driver is supported here, not '--{name}'", where)
        if self.EXTRA_PATTERN and name not in self.extra_defaults and re.fullmatch(self.EXTRA_PATTERN, name):
            self.extra_defaults[name] = None
            self.extras.setdefault(name, None)
        known = name in self.VECTOR or name in self.IGNORED or name in IMPL_OPTIONS \
            or name in GLOBAL_IMPL_OPTIONS or name in _STATE_OPTIONS or name in self.extra_defaults
        if not known:
            close = difflib.get_close_matches(name, self.known_options(self.extra_defaults), n=1)
            hint = f" (did you mean '--{close[0]}'?)" if close else ""
            raise _err(f"unknown option '--{name}' for the {self.NAME} driver{hint}", where)
        if not eq:
            raise _err(f"option '--{name}' needs a value: --{name}=VALUE", where)

        if name == "batch":
            if not value:
                raise _err("option '--batch' needs a file name: --batch=FILE", where)
            yield from self.batch(value, where, base_dir)
        elif name in self.VECTOR:
            own_parse, default = self.VECTOR[name]
            parse = parse or own_parse
            self.vec[name] = default if value == "" else tuple(parse(a, where) for a in _alternatives(value))
        elif name in self.extra_defaults:
            if value != "" and name in self.EXTRA_CHECKS:
                try:
                    value = self.EXTRA_CHECKS[name](value)
                except ValueError:
                    raise _err(f"bad value for '--{name}': {_q(value)}", where) from None
            self.extras[name] = value if value != "" else self.extra_defaults[name]
        elif name in self.IGNORED:
            if value and not self.IGNORED[name](value):
                raise _err(f"bad value for '--{name}': {_q(value)}", where)
        elif name in IMPL_OPTIONS:
            self.impl = (name, value) if value else None
        elif name in GLOBAL_IMPL_OPTIONS:
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

    def batch(self, value: str, where: str | None, base_dir: Path | None) -> Iterator:
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


# --------------------------------------------------------------------------------------------
# Entry points, for any driver
# --------------------------------------------------------------------------------------------

def parse_args(driver: type[Driver], argv: Iterable[str], *, cwd: Path | str | None = None,
               extra_options: Mapping[str, str | None] | None = None) -> Iterator:
    """A command line (without the program name, already split into words) -> cases, lazily."""
    parser = driver(Path(cwd) if cwd is not None else None, extra_options)
    tokens = ((str(a), f"argument {i}") for i, a in enumerate(argv, 1))
    yield from parser.run(tokens, None)


def parse_batch_file(driver: type[Driver], path: Path | str, *, cwd: Path | str | None = None,
                     extra_options: Mapping[str, str | None] | None = None) -> Iterator:
    """A batch file, as ``--batch=PATH`` would read it. A missing file raises ``ProblemError("batch
    file not found: PATH")`` at once; everything else when the iteration reaches it."""
    parser = driver(Path(cwd) if cwd is not None else None, extra_options)
    parser.locate(str(path), None, None)  # fail early on a missing file
    return parser.batch(str(path), None, None)


def parse_list_file(driver: type[Driver], path: Path | str, *, cwd: Path | str | None = None,
                    extra_options: Mapping[str, str | None] | None = None) -> Iterator:
    """Parse a list of independent command lines, one per line (``lists/reorder_*.txt``), lazily.

    Unlike a batch file, every line starts from the defaults (global options included), so an
    option on one line never leaks into the next (``reorder_full.txt`` has one line with
    ``--skip-impl=simple``). Blank lines and ``#`` comments are skipped; a line ending in ``\\``
    continues on the next. Relative ``--batch`` files are looked up next to the list, then in
    ``cwd``. A missing list raises ``ProblemError("list file not found: PATH")`` at once.
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
    return _iter_list(text.splitlines(), p, cwd, extra_options, driver)


def _iter_list(lines: list[str], p: Path, cwd: Path | str | None,
               extra_options: Mapping[str, str | None] | None, driver: type[Driver]) -> Iterator:
    i = 0
    while i < len(lines):
        first = i
        chunk = [lines[i]]
        while chunk[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            chunk.append(lines[i])
        i += 1
        parser = driver(Path(cwd) if cwd is not None else None, extra_options)
        yield from parser.run(_tokenize(chunk, str(p), first + 1), p.parent)
