"""Template environment: loads the Jinja MLIR templates and renders them with the generated-file header.

Templates hold MLIR; Python passes decisions (shapes, permutations, dtype routes) as plain data.
The few helpers here only spell MLIR types and small lists.
"""
from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import jinja2

from ..errors import KgenError
from ..version import __version__

HEADER = ("// Auto-generated file. Do not edit!\n"
          "//   Template: {template}\n"
          "//   Generator: kgen {version}\n")


def _template_dir() -> Path:
    """templates/ beside the package in a checkout, or generator/templates inside an installed wheel."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here.parent / "templates", here / "templates"):
        if cand.is_dir():
            return cand
    return Path(str(resources.files("generator") / "templates"))


def tensor_type(shape, elem: str) -> str:
    """MLIR ranked tensor type: (2, 3), f32 -> tensor<2x3xf32>; () -> tensor<f32>."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def float_literal(v: float) -> str:
    """A float literal MLIR parses (always with a '.' and an exponent, never inf/nan)."""
    return f"{float(v):.9e}"


def int_list(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _fail(message: str):
    """Called from a template for a case Python should never have planned."""
    raise KgenError(message)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_template_dir())),
        undefined=jinja2.StrictUndefined,      # a typo must fail, not render tensor<4x>
        autoescape=False,                      # MLIR is full of < and >
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        extensions=["jinja2.ext.do"],
    )
    env.globals["fail"] = _fail
    env.filters["T"] = lambda shape, elem: tensor_type(shape, elem)
    env.filters["ilist"] = int_list
    env.filters["flit"] = float_literal
    return env


def render(template: str, *, header: bool = True, **context) -> str:
    """Render a template, headed (unless `header=False`) by the do-not-edit line naming it."""
    try:
        body = environment().get_template(template).render(**context)
    except jinja2.TemplateError as e:
        raise KgenError(f"template {template} failed to render: {e}") from None
    return with_header(template, body) if header else body


def with_header(template: str, body: str) -> str:
    return HEADER.format(template=template, version=__version__) + body
