"""Generator version: recorded in every generated file's header and in artifact cache keys."""

__version__ = "0.1.0"


def code_fingerprint() -> str:
    """12 hex digits over the sources that decide what a kernel is and how it runs: the templates and
    the emit, compile and runtime layers. Measured times are keyed by it (`net.plan`), because
    `__version__` does not change while the generator does, and a figure measured on other kernels
    must not price these. Computed once per process."""
    global _fingerprint
    if _fingerprint is None:
        from pathlib import Path

        here = Path(__file__).parent
        try:
            from importlib.resources import files
            templates = Path(str(files("generator.templates")))
        except (ImportError, TypeError):
            templates = here.parent / "templates"   # a checkout on PYTHONPATH (emit.render does the same)
        _fingerprint = sources_fingerprint([(templates, "*.j2"), (here / "emit", "*.py"), (here / "compile", "*.py"),
                                            (here / "runtime", "*.py"), (here / "runtime", "*.c")])
    return _fingerprint


def sources_fingerprint(globs) -> str:
    """12 hex digits of SHA-256 over the names and bytes of the files matching each (folder, pattern)."""
    import hashlib
    h = hashlib.sha256()
    for d, pattern in globs:
        for f in sorted(d.glob(pattern)):
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]


_fingerprint: str | None = None
