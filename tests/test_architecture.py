"""The house rules that code review alone would let slip: layers import only to their left, the
module-level imports form no cycle, a function imports a module only where the file does not already
import it at the top, no file outgrows a reader, and no code outside the backend table compares backend
names. The scans read the source (AST / text); each has self-tests on small snippets so that a scan
that stopped finding anything would fail here too."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

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
    "scale": 7,                     # the work layer: executors and units (what they run is passed in)
    "select": 8,
    "api": 9,
    "bench": 10, "catalog": 10,
    "net": 11,                      # networks: builds with the API, times with runtime.timing, and
                                    # reports against bench's PyTorch baseline
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


def package_sources() -> dict[str, tuple[str, bool]]:
    """{module: (source, is a package)} for every module of the package."""
    return {_module_name(p): (p.read_text(), p.name == "__init__.py") for p in sorted(PKG.rglob("*.py"))}


MODULES = frozenset(package_sources())


def _nodes_under(tree: ast.AST, outer) -> set[int]:
    """ids of the nodes inside the nodes for which `outer(node)` holds."""
    inside = set()
    for node in ast.walk(tree):
        if outer(node):
            for sub in ast.iter_child_nodes(node):
                inside |= {id(n) for n in ast.walk(sub)}
    return inside


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of import nodes under `if TYPE_CHECKING:` (annotations only: no runtime dependency)."""
    return _nodes_under(tree, lambda n: isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))


class Import(NamedTuple):
    line: int
    modules: tuple[str, ...]    # every module the statement imports (runs, if not yet imported)
    named: tuple[str, ...]      # the modules it names: ``from X import a`` names X.a where that is a module
    top: bool                   # at module level (run on import), not in a function


def scan_imports(source: str, module: str, is_package: bool = False,
                 modules: frozenset[str] = MODULES) -> list[Import]:
    """Every import statement of `source`, those under `if TYPE_CHECKING:` left out. A relative import
    resolves against `module`'s package. ``from X import a`` imports X and, where ``X.a`` is one of
    `modules`, the module ``X.a`` (then it names ``X.a``, else X); X is left out where it is a package
    enclosing `module` and every name is a module (``from . import table``): that package is already
    being imported."""
    tree = ast.parse(source)
    skip = _type_checking_nodes(tree)
    in_function = _nodes_under(tree, lambda n: isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found = named = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            named = ([] if len(subs) == len(node.names) else [target]) + subs
            enclosing = module == target or module.startswith(target + ".")
            found = named if enclosing or target in named else [target] + named
        else:
            continue
        out.append(Import(node.lineno, tuple(found), tuple(named), id(node) not in in_function))
    return out


def imports_of(source: str, module: str, is_package: bool = False,
               modules: frozenset[str] = MODULES) -> list[tuple[int, str]]:
    """(line, imported module of this package) for every import in `source`, function-level ones included."""
    return [(imp.line, m) for imp in scan_imports(source, module, is_package, modules) for m in imp.modules
            if m == "generator" or m.startswith("generator.")]


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
    for module, (source, is_package) in package_sources().items():
        bad += upward_imports(source, module, is_package)
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_every_folder_is_a_layer():
    units = {p.name for p in PKG.iterdir() if p.is_dir() and not p.name.startswith("__")}
    units |= {p.stem for p in PKG.glob("*.py")}
    assert units <= set(LAYERS), f"give these a rank in LAYERS: {sorted(units - set(LAYERS))}"


_SCAN_MODULES = frozenset({"generator.emit.conv", "generator.emit.relayout", "generator.benchdnn",
                           "generator.benchdnn.conv", "generator.select", "generator.select.table"})


@pytest.mark.parametrize("source, module, package, found", [
    ("from ..cli.conv_cmd import check", "generator.bench.conv", False, ["generator.cli.conv_cmd"]),
    ("def f():\n    from ..compile.cache import host_cpu_id\n", "generator.emit.tuned", False, ["generator.compile.cache"]),
    ("from . import relayout", "generator.emit.conv", False, ["generator.emit.relayout"]),
    ("from .conv import X", "generator.benchdnn", True, ["generator.benchdnn.conv"]),
    ("from . import choose", "generator.select.table", False, ["generator.select"]),
    ("from ..select import table", "generator.bench.tune", False, ["generator.select", "generator.select.table"]),
    ("import generator.api", "generator.layout.desc", False, ["generator.api"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..compile import Backend\n",
     "generator.emit.conv", False, []),
    ("import numpy as np", "generator.emit.conv", False, []),
])
def test_import_scan_finds_imports(source, module, package, found):
    assert [m for _, m in imports_of(source, module, package, _SCAN_MODULES)] == found


def test_import_scan_flags_upward_and_allows_downward():
    assert upward_imports("def f():\n    from ..cli.conv_cmd import fill\n", "generator.bench.conv")
    assert upward_imports("from ..compile.cache import host_cpu_id", "generator.emit.tuned")
    assert not upward_imports("from ..emit.target import TargetCaps", "generator.compile.backends")
    assert not upward_imports("from .relayout import Plan", "generator.emit.conv")


# ------------------------------------------------------------------------------------------------
# Module-level imports form no cycle: a module half-imported when another needs a name from it fails,
# or works only by the order the modules happen to be imported in

def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, list[str]]:
    """{module: the modules of `sources` it imports at module level} ({module: (source, is a package)})."""
    modules = frozenset(sources)
    return {m: sorted({t for imp in scan_imports(src, m, pkg, modules) if imp.top for t in imp.modules
                       if t in modules and t != m}) for m, (src, pkg) in sources.items()}


def import_cycle(sources: dict[str, tuple[str, bool]]) -> list[str] | None:
    """A cycle of module-level imports among `sources`, as the modules along it (the first repeated at
    the end), or None."""
    graph = import_graph(sources)
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_cycle():
    sources = package_sources()
    assert sum(map(len, import_graph(sources).values())) > 100     # the scan sees the package's imports
    cycle = import_cycle(sources)
    assert cycle is None, "module-level import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("sources, cycle", [
    ({"generator.a": ("from .b import f", False), "generator.b": ("from .a import g", False)},
     ["generator.a", "generator.b", "generator.a"]),
    ({"generator.a": ("from . import b", False), "generator.b": ("from . import c", False),
      "generator.c": ("import generator.a", False)},
     ["generator.a", "generator.b", "generator.c", "generator.a"]),
    # a package whose submodule needs a name of the package's __init__, which imports that submodule
    ({"generator.p": ("from .q import f", True), "generator.p.q": ("from . import helper", False)},
     ["generator.p", "generator.p.q", "generator.p"]),
    ({"generator.a": ("from .b import f", False),
      "generator.b": ("def f():\n    from .a import g\n", False)}, None),
    ({"generator.a": ("from .b import f", False),
      "generator.b": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import g\n", False)}, None),
    # a package __init__ importing its submodules, which import each other through the package
    ({"generator.p": ("from .q import f\nfrom . import r", True), "generator.p.q": ("from . import r", False),
      "generator.p.r": ("x = 1", False)}, None),
])
def test_import_cycle_scan(sources, cycle):
    assert import_cycle(sources) == cycle


# ------------------------------------------------------------------------------------------------
# A function-level import stays only where it breaks a cycle or defers a heavy import: never of a
# module the file already imports at the top

def repeated_imports(source: str, module: str, is_package: bool = False,
                     modules: frozenset[str] = MODULES) -> list[str]:
    """"line: module" for each function-level import of a module `source` imports at module level
    (``from ..net import report`` in a function names ``net.report``, not the package ``net``)."""
    found = scan_imports(source, module, is_package, modules)
    top = {m for imp in found if imp.top for m in imp.modules}
    return [f"{imp.line}: {m}" for imp in found if not imp.top for m in imp.named if m in top]


def test_no_function_level_import_of_a_top_level_module():
    bad = [f"{module}:{hit}" for module, (source, is_package) in package_sources().items()
           for hit in repeated_imports(source, module, is_package)]
    assert not bad, "imported at the top already:\n" + "\n".join(bad)


@pytest.mark.parametrize("source, found", [
    ("import dataclasses\n\ndef f():\n    import dataclasses\n", ["4: dataclasses"]),
    ("from ..layout import MemoryDesc\n\nclass A:\n    def f(self):\n        from ..layout import parse_tag\n",
     ["5: generator.layout"]),
    ("from ..select import table\n\ndef f():\n    from ..select import choose\n", ["4: generator.select"]),
    ("import numpy as np\n\ndef f():\n    import torch\n", []),
    ("from ..select import choose\n\ndef f():\n    from ..select.table import lookup\n", []),
    ("from ..select import choose\n\ndef f():\n    from ..select import table\n", []),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..api import ConvKernel\n\n"
     "def f():\n    from ..api import ConvKernel\n", []),
])
def test_repeated_import_scan(source, found):
    assert repeated_imports(source, "generator.bench.conv", False, _SCAN_MODULES) == found


# ------------------------------------------------------------------------------------------------
# Sizes a reader can hold: a Python file, a template

MAX_PY_LINES = 700
MAX_TEMPLATE_LINES = 450


def oversized(paths, limit: int) -> list[str]:
    """"path: lines" for each file of `paths` over `limit` lines."""
    out = []
    for path in paths:
        n = len(path.read_text().splitlines())
        if n > limit:
            shown = path.relative_to(PKG.parent) if path.is_relative_to(PKG.parent) else path
            out.append(f"{shown}: {n} lines")
    return out


def test_file_sizes():
    py = sorted(PKG.rglob("*.py"))
    templates = sorted((PKG.parent / "templates").rglob("*.j2"))
    assert len(py) > 40 and templates
    bad = oversized(py, MAX_PY_LINES) + oversized(templates, MAX_TEMPLATE_LINES)
    assert not bad, (f"split these (Python over {MAX_PY_LINES} lines, templates over {MAX_TEMPLATE_LINES}):\n"
                     + "\n".join(bad))


def test_size_scan(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n" * 3)
    (tmp_path / "b.py").write_text("x = 1\n" * 4)
    found = oversized(sorted(tmp_path.glob("*.py")), 3)
    assert len(found) == 1 and found[0].endswith("b.py: 4 lines")


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
