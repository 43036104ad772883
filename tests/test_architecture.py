"""The house rules that code review alone would let slip: layers import only to their left, and no code
outside the backend table compares backend names. Both scans read the source (AST / text); each has
self-tests on small snippets so that a scan that stopped finding anything would fail here too."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "generator"

# Low to high. A module may import its own folder and any layer of lower rank; verify sits beside
# problem (it checks problems, and nothing below it needs it); bench and catalog share a rank.
LAYERS = {
    "errors": 0, "version": 0,
    "layout": 1,
    "problem": 2,
    "verify": 3,
    "benchdnn": 4,
    "emit": 5, "templates": 5,
    "compile": 6,
    "runtime": 7,
    "select": 8,
    "api": 9,
    "bench": 10, "catalog": 10,
    "net": 11,                      # networks: measures with bench's timing, builds with the API
    "cli": 12,
    "__init__": 13,                 # the package facade re-exports the API
}


def _unit(module: str) -> str:
    """`generator.emit.conv` -> `emit`; `generator` -> `__init__`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of import nodes under `if TYPE_CHECKING:` (annotations only: no runtime dependency)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                for n in ast.walk(sub):
                    skip.add(id(n))
    return skip


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for every import in `source`, function-level ones included."""
    tree = ast.parse(source)
    skip = _type_checking_nodes(tree)
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not node.module and node.level:     # `from . import relayout`: each name is a module
                out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, target))
    return [(ln, m) for ln, m in out if m == "generator" or m.startswith("generator.")]


def upward_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    here = _unit(module)
    bad = []
    for line, target in imports_of(source, module, is_package):
        there = _unit(target)
        if there == here:
            continue
        if there not in LAYERS or here not in LAYERS:
            bad.append(f"{module}:{line} imports {target} (a layer missing from LAYERS)")
        elif LAYERS[there] > LAYERS[here]:
            bad.append(f"{module}:{line} imports {target} ({here} is below {there})")
    return bad


def test_layers_import_only_to_their_left():
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        bad += upward_imports(path.read_text(), _module_name(path), path.name == "__init__.py")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_every_folder_is_a_layer():
    units = {p.name for p in PKG.iterdir() if p.is_dir() and not p.name.startswith("__")}
    units |= {p.stem for p in PKG.glob("*.py")}
    assert units <= set(LAYERS), f"give these a rank in LAYERS: {sorted(units - set(LAYERS))}"


@pytest.mark.parametrize("source, module, package, found", [
    ("from ..cli.conv_cmd import check", "generator.bench.conv", False, ["generator.cli.conv_cmd"]),
    ("def f():\n    from ..compile.cache import host_cpu_id\n", "generator.emit.tuned", False, ["generator.compile.cache"]),
    ("from . import relayout", "generator.emit.conv", False, ["generator.emit.relayout"]),
    ("from .conv import X", "generator.benchdnn", True, ["generator.benchdnn.conv"]),
    ("import generator.api", "generator.layout.desc", False, ["generator.api"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..compile import Backend\n",
     "generator.emit.conv", False, []),
    ("import numpy as np", "generator.emit.conv", False, []),
])
def test_import_scan_finds_imports(source, module, package, found):
    assert [m for _, m in imports_of(source, module, package)] == found


def test_import_scan_flags_upward_and_allows_downward():
    assert upward_imports("def f():\n    from ..cli.conv_cmd import fill\n", "generator.bench.conv")
    assert upward_imports("from ..compile.cache import host_cpu_id", "generator.emit.tuned")
    assert not upward_imports("from ..emit.target import TargetCaps", "generator.compile.backends")
    assert not upward_imports("from .relayout import Plan", "generator.emit.conv")


# ------------------------------------------------------------------------------------------------
# Backend knowledge lives in the backend table: everywhere else asks a capability

_NAMES = r"""["'](?:llvm-cpu|vulkan|cuda)["']"""
BACKEND_COMPARISON = re.compile(rf"""[!=]=\s*{_NAMES}|{_NAMES}\s*[!=]=|\bin\s*[\(\[{{]\s*{_NAMES}""")


def backend_comparisons(source: str) -> list[int]:
    return [i for i, line in enumerate(source.splitlines(), 1)
            if BACKEND_COMPARISON.search(line.split("#", 1)[0])]


def test_no_backend_name_comparisons_outside_the_backend_table():
    bad = [f"{path.relative_to(PKG.parent)}:{ln}"
           for path in sorted(PKG.rglob("*.py")) if path.name != "backends.py"
           for ln in backend_comparisons(path.read_text())]
    assert not bad, "compare a Backend capability field instead:\n" + "\n".join(bad)


@pytest.mark.parametrize("line, flagged", [
    ('if backend == "vulkan":', True),
    ("if b.name != 'llvm-cpu':", True),
    ('torch = x if "cuda" == b.name else None', True),
    ('if backend.name in ("vulkan", "cuda"):', True),
    ('b = get_backend("llvm-cpu")', False),
    ('def f(backend: str = "llvm-cpu"):', False),
    ('x = 1  # not: backend == "vulkan"', False),
])
def test_backend_comparison_scan(line, flagged):
    assert bool(backend_comparisons(line)) is flagged


def _pyflakes(paths) -> list[str]:
    from pyflakes.api import checkPath
    from pyflakes.reporter import Reporter
    import io

    out = io.StringIO()
    reporter = Reporter(out, out)
    for path in paths:
        checkPath(str(path), reporter)
    return [ln for ln in out.getvalue().splitlines() if ln.strip()]


def test_pyflakes_finds_no_unused_import_or_undefined_name():
    # what review let slip before: an import missing in one branch (NameError only when that branch
    # ran) and a helper shadowing another of the same name; pyflakes reads every file
    files = sorted(PKG.rglob("*.py")) + sorted((PKG.parent / "tests").glob("*.py"))
    assert len(files) > 50
    assert _pyflakes(files) == []


def test_pyflakes_scan_reports_what_it_should(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\ndef f():\n    return get_backend()\n")
    found = _pyflakes([bad])
    assert any("'os' imported but unused" in ln for ln in found)
    assert any("undefined name 'get_backend'" in ln for ln in found)
