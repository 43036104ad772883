"""A network segment as one module: several kernels' MLIR (convolutions and reorders, each rendered as
usual) side by side, and one function that calls them in order (`templates/segment.mlir.j2`), so a
run of layers costs one invocation instead of one per layer.

Each kernel's text is kept as rendered (without its header, so its types are spelled out); only its
module-level names are made unique: its private symbols (custom dispatches' executables), and its
`!type` aliases if it has any, get a per-kernel prefix; its public functions keep their names (they
encode every parameter, so two kernels with one name are the same kernel and are included once).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import InternalError
from .render import render

TEMPLATE = "segment.mlir.j2"
_ALIAS_DEF = re.compile(r"^!([A-Za-z_][\w.]*) = ", re.M)
_SYMBOL_DEF = re.compile(r"(?:stream|hal)\.executable(?:\s+private|\s+public)?\s+@([A-Za-z_][\w.$]*)")
# a function's parameters hold no parentheses: a custom dispatch's inner function (no result) must not
# match through to the next function's signature
_FUNC = re.compile(r"func\.func @([A-Za-z_][\w.$]*)\(([^()]*)\)\s*->\s*\(?(.*?)\)?\s*\{", re.S)
_HEADER_LINE = re.compile(r"^//.*\n", re.M)


@dataclass
class Arg:
    name: str
    type: str


@dataclass
class Call:
    result: str
    fn: str
    args: list[str]
    arg_types: list[str] = field(default_factory=list)
    result_type: str = ""


@dataclass
class Kernel:
    """One kernel's text, made unique in the segment, and its functions' signatures."""
    text: str
    signatures: dict[str, tuple[list[str], str]]     # function -> (argument types, result type)


def prepare_kernel(text: str, prefix: str) -> Kernel:
    """`text` (a rendered kernel module) with its aliases and private symbols prefixed."""
    text = _HEADER_LINE.sub("", text)
    for name in set(_ALIAS_DEF.findall(text)):
        text = re.sub(rf"!{re.escape(name)}\b", f"!{prefix}{name}", text)
    for name in set(_SYMBOL_DEF.findall(text)):
        text = re.sub(rf"@{re.escape(name)}\b", f"@{prefix}{name}", text)
    sigs = {}
    for m in _FUNC.finditer(text):
        fn, params, result = m.group(1), m.group(2), m.group(3)
        if "stream.binding" in params:          # a dispatch's inner function, not a kernel entry
            continue
        types = [p.split(":", 1)[1].strip() for p in re.split(r",\s*(?=%)", params.strip()) if p.strip()]
        sigs[fn] = (types, result.strip())
    return Kernel(text, sigs)


class SegmentBuilder:
    """Collects kernels and calls; `render()` gives the module's text."""

    def __init__(self, fn: str):
        self.fn = fn
        self.kernels: dict[str, Kernel] = {}      # by public function name
        self._texts: list[str] = []
        self.args: list[Arg] = []
        self.calls: list[Call] = []
        self.results: list[Arg] = []
        self._types: dict[str, str] = {}         # value -> its type
        self._n = 0

    def add_kernel(self, text: str, function: str) -> None:
        """The kernel whose text holds `function` (rendered once per distinct function)."""
        if function in self.kernels:
            return
        k = prepare_kernel(text, f"k{len(self._texts)}_")
        if function not in k.signatures:
            raise InternalError(f"segment: {function} is not a function of its kernel text")
        for f in k.signatures:
            self.kernels[f] = k
        self._texts.append(k.text)

    def signature(self, function: str) -> tuple[list[str], str]:
        return self.kernels[function].signatures[function]

    def arg(self, name: str, type_: str) -> str:
        self.args.append(Arg(name, type_))
        self._types[name] = type_
        return name

    def call(self, function: str, args: list[str]) -> str:
        types, result = self.signature(function)
        if len(types) != len(args):
            raise InternalError(f"segment: {function} takes {len(types)} arguments, given {len(args)}")
        self._n += 1
        name = f"s{self._n}"
        self.calls.append(Call(name, function, list(args), types, result))
        self._types[name] = result
        return name

    def type_of(self, value: str) -> str:
        return self._types[value]

    def result(self, value: str) -> None:
        self.results.append(Arg(value, self._types[value]))

    def render(self) -> str:
        # type aliases go first: MLIR wants them at the top level before their uses
        aliases, bodies = [], []
        for text in self._texts:
            lines = text.splitlines(keepends=True)
            aliases += [ln for ln in lines if ln.startswith("!")]
            bodies.append("".join(ln for ln in lines if not ln.startswith("!")))
        out = render(TEMPLATE, kernels=bodies, fn=self.fn, args=self.args, calls=self.calls, results=self.results)
        lines = out.splitlines(keepends=True)
        n = 0
        while n < len(lines) and lines[n].startswith("//"):
            n += 1
        return "".join(lines[:n]) + "".join(aliases) + "".join(lines[n:])
