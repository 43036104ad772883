"""Template environment: loads the Jinja MLIR templates and renders them with the generated-file header.

Templates hold MLIR; Python passes decisions (shapes, permutations, dtype routes) as plain data.
The few helpers here only spell MLIR types and small lists.
"""
from __future__ import annotations

import functools
import traceback
from pathlib import Path
from typing import Sequence

import jinja2

from ..errors import InternalError, TemplateError
from ..layout.dtypes import DTYPES, get_dtype
from ..version import __version__, templates_dir

HEADER = ("// Auto-generated file. Do not edit!\n"
          "//   Template: {template}\n"
          "//   Generator: kgen {version}\n")


def tensor_type(shape, elem: str) -> str:
    """MLIR ranked tensor type: (2, 3), f32 -> tensor<2x3xf32>; () -> tensor<f32>."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def float_literal(v: float) -> str:
    """A float literal MLIR parses (always with a '.' and an exponent, never inf/nan)."""
    return f"{float(v):.9e}"


def int_list(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


# an MLIR element type's zero literal, from the data types themselves (signless i8 is s8's and u8's);
# i16 holds bf16 bits on targets that keep bf16 out of vectors (TargetCaps.bf16_*_as_bits): 0 is +0.0
_ZERO = {d.mlir: d.zero_literal for d in DTYPES.values()} | {"i16": "0"}


def zero_literal(elem: str) -> str:
    """`0` or `0.0` for an MLIR element type of a kgen data type."""
    try:
        return _ZERO[elem]
    except KeyError:
        raise InternalError(f"no zero literal for element type {elem!r} (known: {', '.join(_ZERO)})") from None


def _fail(message: str):
    """Called from a template for a case Python should never have planned."""
    raise InternalError(message)


def _template_loader() -> jinja2.BaseLoader:
    """templates/ where `version.templates_dir` finds it: the package generator.templates, installed or
    editable, or in a checkout put on PYTHONPATH without installing (a machine with no pip access) the
    folder beside generator/."""
    d = templates_dir()
    if d is None:
        beside = Path(__file__).resolve().parents[2] / "templates"
        raise InternalError(f"kgen's templates are neither installed (generator.templates) nor at {beside}: "
                            "install kgen (pip install -e .)")
    return jinja2.FileSystemLoader(str(d))


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_template_loader(),
        undefined=jinja2.StrictUndefined,      # a typo must fail, not render tensor<4x>
        autoescape=False,                      # MLIR is full of < and >
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        extensions=["jinja2.ext.do"],
    )
    env.globals["fail"] = _fail
    env.globals["F32"] = get_dtype("f32")          # Winograd computes in f32 whatever the data type
    env.filters["zero"] = zero_literal
    env.filters["T"] = lambda shape, elem: tensor_type(shape, elem)
    env.filters["ilist"] = int_list
    env.filters["flit"] = float_literal
    env.filters["dnames"] = lambda rank: [f"d{i}" for i in range(rank)]        # elementwise dims d0, d1, ...
    env.filters["dnames_of"] = lambda positions: [f"d{i}" for i in positions]  # a broadcast operand's dims
    return env


def render(template: str, *, header: bool = True, aliases: Sequence[tuple[str, object]] = (), **context) -> str:
    """Render a template, headed (unless `header=False`) by the do-not-edit line naming it and by
    `!name = tensor<...>` aliases for `aliases` ((name, Value) pairs, e.g. the kernel's buffers). Any failure inside a template is a generator bug: a `TemplateError`
    pointing at the template line."""
    try:
        body = environment().get_template(template).render(**context)
    except (jinja2.TemplateError, InternalError, TypeError, AttributeError, KeyError) as e:
        raise TemplateError(_describe(template, e)) from e
    if not header:
        return body
    defs, body = with_type_aliases(body, aliases)
    return with_header(template, body, defs)


def with_type_aliases(body: str, aliases: Sequence[tuple[str, object]]) -> tuple[str, str]:
    """(alias definitions, body using them): each named value's tensor type becomes `!name` wherever
    it is spelled (a type alias is textual in MLIR; the IR is the same, `iree-opt` prints it back)."""
    roles: dict[str, list[str]] = {}
    for name, v in aliases:
        names_of = roles.setdefault(tensor_type(v.shape, v.elem), [])
        if name not in names_of:
            names_of.append(name)
    # one type in several roles gets one alias naming them all (src and dst of a copy: !src_dst_buf)
    names = {ty: "_".join(n.removesuffix("_buf") for n in ns) + "_buf" if all(n.endswith("_buf") for n in ns)
             else "_".join(ns) for ty, ns in roles.items()}
    for ty, name in names.items():
        body = body.replace(ty, f"!{name}")
    defs = "".join(f"!{name} = {ty}\n" for ty, name in names.items())
    return defs + ("\n" if defs else ""), body


def _describe(template: str, e: BaseException, context: int = 2) -> str:
    """`<template>:<line>: <error>` and the template lines around it, numbered (the innermost template
    frame of the traceback: Jinja maps its frames back to template lines)."""
    name, line = template, getattr(e, "lineno", None)
    for frame in traceback.extract_tb(e.__traceback__):
        if frame.filename and frame.filename.endswith(".j2"):
            name, line = frame.filename, frame.lineno
    short = _template_name(name)
    head = f"template {short}" + (f":{line}" if line else "") + f" failed to render: {type(e).__name__}: {e}"
    if not line:
        return head
    try:
        source = environment().loader.get_source(environment(), short)[0].splitlines()
    except jinja2.TemplateNotFound:
        return head
    lo, hi = max(1, line - context), min(len(source), line + context)
    numbered = [f"{'>' if n == line else ' '} {n:4d} | {source[n - 1]}" for n in range(lo, hi + 1)]
    return "\n".join([head] + numbered)


def _template_name(path: str) -> str:
    """A template's name as the loader knows it, from its file's path: relative to templates/
    (brgemm/store.mlir.j2 for a family's file in a subfolder); a name that is no such path as it is."""
    try:
        return Path(path).relative_to(environment().loader.searchpath[0]).as_posix()
    except ValueError:
        return path


def with_header(template: str, body: str, aliases: str = "") -> str:
    """The do-not-edit header, then the type alias definitions, then the body."""
    return HEADER.format(template=template, version=__version__) + aliases + body
