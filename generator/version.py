"""Generator version: recorded in every generated file's header and in artifact cache keys."""
import hashlib
from importlib.resources import files
from pathlib import Path

__version__ = "0.1.0"


def code_fingerprint() -> str:
    """12 hex digits over the sources that decide what a kernel is and how it runs: the templates and
    the emit, compile and runtime layers. Measured times are keyed by it (`net.plan`), because
    `__version__` does not change while the generator does, and a figure measured on other kernels
    must not price these. Computed once per process."""
    global _fingerprint
    if _fingerprint is None:
        here = Path(__file__).parent
        _fingerprint = sources_fingerprint([(templates_dir(), "**/*.j2"), (here / "emit", "**/*.py"),
                                            (here / "compile", "**/*.py"), (here / "runtime", "**/*.py"),
                                            (here / "runtime", "*.c")])
    return _fingerprint


def package_fingerprint() -> str:
    """12 hex digits over every source of the package (Python, C, catalog lists) and its templates: two
    machines with the same one render, compile, select and measure alike (a farm's nodes must)."""
    global _package_fingerprint
    if _package_fingerprint is None:
        here = Path(__file__).parent
        globs = [(here, "**/*.py"), (here / "runtime", "*.c"), (here / "catalog", "*.txt")]
        if templates_dir() is not None:
            globs.append((templates_dir(), "**/*.j2"))
        _package_fingerprint = sources_fingerprint(globs)
    return _package_fingerprint


def templates_dir():
    """The folder of kgen's Jinja templates (a Path): the package generator.templates (pyproject's
    package-dir), installed or editable; in a checkout put on PYTHONPATH without installing, the
    folder beside generator/. None when neither holds them. `emit.render` loads them from here."""
    try:
        installed = Path(str(files("generator.templates")))
    except (ImportError, TypeError):
        installed = None
    for d in (installed, Path(__file__).resolve().parent.parent / "templates"):
        if d is not None and (d / "conv.mlir.j2").is_file():
            return d
    return None


def sources_fingerprint(globs) -> str:
    """12 hex digits of SHA-256 over the paths (relative to their folder) and bytes of the files matching
    each (folder, pattern); a pattern may reach into subfolders (`**/*.py`)."""
    h = hashlib.sha256()
    for d, pattern in globs:
        for f in sorted(d.glob(pattern)):
            h.update(f.relative_to(d).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]


_fingerprint: str | None = None
_package_fingerprint: str | None = None
