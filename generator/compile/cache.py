"""Content-addressed cache of compiled IREE modules (.vmfb).

Why a cache: one ``iree-compile`` run costs about a second, and the same MLIR is compiled again and
again by tests, benchmarks and ``build.sh``. The key is the sha256 of everything that determines the
output bytes: the MLIR text, the full flag list, the compiler's version line, the generator version,
the artifact name and, when a flag says ``=host``, the host CPU identity (a ``target-cpu=host``
vmfb from an AVX-512 machine must not be served to a CPU without AVX-512 sharing the cache).

Layout of one entry, ``<cache_dir>/<key[:2]>/<key>/``::

    <name>.mlir   the exact input, kept so every artifact can be reproduced by hand
    <name>.vmfb   the module
    compile.sh    the iree-compile command line that made it (cd into the entry and run it)
    meta.json     key, sha256 and size of the vmfb, flags, compiler and generator versions, backend
    compile.log   compiler warnings, only when there were any

Concurrency without locks: each build compiles into a private temporary directory inside the cache
and then renames the whole directory into place with ``os.replace``. A directory rename is atomic,
so a reader sees either no entry or a complete one. If another process installed the entry first,
the rename fails (target not empty) and we keep theirs. This is safe for ``pytest -n 2`` and for two
``build.sh`` running at once, on one machine or over a shared filesystem with atomic rename.

Integrity: every lookup checks that ``meta.json`` exists and that the vmfb's sha256 matches it. A
truncated, corrupt or half-deleted entry is removed and rebuilt (``Artifact.rebuilt``). Hashing is
cached per process by (inode, size, mtime, ctime), so repeated lookups cost two ``stat`` calls.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from generator.compile.backends import Backend, get_backend
from generator.compile.host import host_cpuinfo
from generator.errors import ArtifactError, CompileError
from generator.version import __version__

_INSTALL_HINT = "pip install iree-base-compiler==3.13.0"
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_TMP_DIR = "tmp"        # <cache_dir>/tmp/: private build directories (same filesystem as entries)
_FAILED_DIR = "failed"  # <cache_dir>/failed/: kept inputs and logs of failed compiles


@dataclass(frozen=True)
class Artifact:
    """A compiled module in the cache.

    ``path`` is the vmfb; ``command`` is the iree-compile command line (relative to the entry
    directory) that produced it. ``cached`` is True when no compiler ran for this request;
    ``rebuilt`` is True when a corrupt entry was found and replaced.
    """

    path: Path
    key: str
    backend: str
    flags: tuple[str, ...]
    command: str
    cached: bool = field(default=False, compare=False)
    rebuilt: bool = field(default=False, compare=False)

    @property
    def entry_dir(self) -> Path:
        """The cache entry directory holding the vmfb, its MLIR, compile.sh and meta.json."""
        return self.path.parent

    @property
    def mlir_path(self) -> Path:
        """The MLIR the vmfb was compiled from (kept for repro)."""
        return self.path.with_suffix(".mlir")

    @property
    def meta(self) -> dict:
        """The entry's meta.json as a dict."""
        return json.loads((self.entry_dir / "meta.json").read_text())


def default_cache_dir() -> Path:
    """``$KGEN_CACHE_DIR`` if set, else ``~/.cache/kgen``.

    An environment variable rather than a config file so CI, tests and build.sh can each point at
    their own cache without touching the user's.
    """
    env = os.environ.get("KGEN_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "kgen"


# ---------------------------------------------------------------------------------------------
# The compiler binary


@functools.cache
def find_compiler() -> str:
    """Path of the real ``iree-compile`` binary shipped in ``iree-base-compiler``.

    We call the binary found by ``iree.compiler.tools.binaries.find_tool`` rather than the venv's
    ``bin/iree-compile``, which is a Python wrapper that costs an extra interpreter start. Raises
    ``CompileError`` naming the package when the compiler is not installed.
    """
    try:
        from iree.compiler.tools.binaries import find_tool
    except Exception as e:  # noqa: BLE001 - ImportError or a broken install
        raise CompileError(f"iree-compile not available ({e}); {_INSTALL_HINT}") from None
    try:
        exe = find_tool("iree-compile")
    except Exception as e:  # noqa: BLE001 - find_tool raises ValueError when missing
        raise CompileError(f"iree-compile not found ({str(e).splitlines()[0]}); {_INSTALL_HINT}") from None
    if not exe or not os.access(exe, os.X_OK):
        raise CompileError(f"iree-compile not found; {_INSTALL_HINT}")
    return exe


@functools.cache
def compiler_version() -> str:
    """The compiler's version line, e.g. ``IREE compiler version 3.13.0rc20261016 @ 89ece87b...``.

    Part of every cache key, so upgrading IREE never serves stale modules. ``iree-compile --version``
    starts with a banner line (``IREE (https://iree.dev):``) that says nothing about the version,
    so we take the first line mentioning ``version`` and fall back to the first non-empty line.
    """
    exe = find_compiler()
    try:
        proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise CompileError(f"cannot run {exe} --version ({e}); {_INSTALL_HINT}") from None
    lines = [ln.strip() for ln in (proc.stdout + "\n" + proc.stderr).splitlines() if ln.strip()]
    if proc.returncode != 0 or not lines:
        raise CompileError(f"{exe} --version failed (exit {proc.returncode}); {_INSTALL_HINT}")
    for ln in lines:
        if "version" in ln.lower():
            return ln
    return lines[0]


@functools.cache
def host_cpu_id() -> str:
    """This CPU's fingerprint (16 hex digits: arch, model name, family and model numbers, ISA flags):
    keys ``target-cpu=host`` builds and measured selection tables."""
    info = host_cpuinfo()
    keys = ("model name", "cpu family", "model", "flags", "Features", "CPU part")
    parts = [platform.machine()] + [v for k, v in info.items() if k in keys]          # in the file's order
    if not info:
        parts.append(platform.processor())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# Keys, commands and integrity


def cache_key(mlir_text: str, flags: tuple[str, ...], name: str = "module") -> str:
    """The sha256 hex key of an entry; see the module docstring for what goes in."""
    material = {
        "mlir": mlir_text,
        "flags": list(flags),
        "compiler": compiler_version(),
        "generator": __version__,
        "name": name,
        "host": host_cpu_id() if any(f.endswith("=host") for f in flags) else "",
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def compile_command(name: str, flags: tuple[str, ...]) -> str:
    """``iree-compile <name>.mlir <flags> -o <name>.vmfb``, shell-quoted, as written to compile.sh."""
    argv = ["iree-compile", f"{name}.mlir", *flags, "-o", f"{name}.vmfb"]
    return " ".join(shlex.quote(a) for a in argv)


def _compile_script(name: str, flags: tuple[str, ...], backend: str) -> str:
    return (
        "#!/bin/sh\n"
        f"# Auto-generated by kgen {__version__}. Do not edit. Recompiles {name}.mlir for {backend}.\n"
        f"# Needs iree-compile on PATH ({_INSTALL_HINT}); set IREE_COMPILE to use another binary.\n"
        'cd "$(dirname "$0")" || exit 1\n'
        f'exec "${{IREE_COMPILE:-iree-compile}}"{compile_command(name, flags)[len("iree-compile"):]}\n'
    )


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


_verified: dict[str, tuple] = {}  # entry dir -> (vmfb stat, meta stat) that verified OK
_verified_lock = threading.Lock()


def _stat_id(path: Path) -> tuple:
    st = path.stat()
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _verify_entry(entry: Path, name: str, key: str) -> bool:
    """True if ``entry`` is complete and its vmfb hashes to what meta.json says.

    The positive result is remembered per process by the files' stat identity, so a file changed
    in any way (even rewritten in place with the same size) is re-hashed, but an unchanged one is not.
    """
    vmfb, meta = entry / f"{name}.vmfb", entry / "meta.json"
    try:
        ident = (_stat_id(vmfb), _stat_id(meta))
    except OSError:
        return False
    with _verified_lock:
        if _verified.get(str(entry)) == ident:
            return True
    try:
        m = json.loads(meta.read_text())
        ok = (
            m.get("key") == key
            and m.get("size") == ident[0][1]
            and m.get("vmfb_sha256") == _sha256_file(vmfb)
        )
    except (OSError, ValueError):
        return False
    if ok:
        with _verified_lock:
            _verified[str(entry)] = ident
    return ok


def _remove_tree(path: Path) -> None:
    """Remove a directory so that no reader ever sees it half-deleted.

    It is first renamed to a unique sibling (atomic), then deleted. If it is already gone, another
    process got there first, which is fine.
    """
    trash = path.with_name(f".trash-{path.name[:16]}-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.replace(path, trash)
    except FileNotFoundError:
        return
    except OSError:
        trash = path
    shutil.rmtree(trash, ignore_errors=True)
    with _verified_lock:
        _verified.pop(str(path), None)


# ---------------------------------------------------------------------------------------------
# Compiling

_invocations = 0
_invocations_lock = threading.Lock()


def compiler_invocations() -> int:
    """How many times this process has run iree-compile to build a module (tests check cache hits)."""
    return _invocations


def _first_error_line(diag: str) -> str:
    for ln in diag.splitlines():
        if "error:" in ln:
            ln = ln.strip()
            return ln if len(ln) <= 240 else ln[:237] + "..."
    return ""


def _run_compiler(workdir: Path, name: str, flags: tuple[str, ...], timeout: float) -> subprocess.CompletedProcess:
    global _invocations
    exe = find_compiler()
    with _invocations_lock:
        _invocations += 1
    argv = [exe, f"{name}.mlir", *flags, "-o", f"{name}.vmfb"]
    try:
        # cwd=workdir and relative names: diagnostics then read "module.mlir:3:5: error: ...".
        return subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(argv, -9, e.stdout or "", f"error: iree-compile timed out after {timeout:.0f} s\n")
    except OSError as e:
        raise CompileError(f"cannot run iree-compile ({e}); {_INSTALL_HINT}") from None


def _keep_failure(cache_dir: Path, tmp: Path, key: str, name: str) -> Path:
    """Move a failed build directory to ``<cache>/failed/<name>-<key16>/`` and return it.

    Failures are kept (input, compile.sh, errors.txt) so the one-line error can point at a repro.
    A later failure of the same input replaces the earlier one.
    """
    dest = cache_dir / _FAILED_DIR / f"{name}-{key[:16]}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            os.replace(tmp, dest)
            return dest
        except OSError:
            _remove_tree(dest)
    return tmp


def signal_name(code: int) -> str:
    """A negative return code's signal by name (SIGSEGV), or "signal N"."""
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def with_target(mlir_text: str, backend: Backend) -> str:
    """The module wrapped in `hal.device.targets` when the backend names its executable target
    in the module rather than by flags (top-level `func.func`s, type aliases and comments, as emitted)."""
    if backend.target_attr is None or "hal.device.targets" in mlir_text:
        return mlir_text
    # type aliases (`!name = ...` lines) are only legal at the top level: they stay outside the module
    lines = mlir_text.splitlines(keepends=True)
    aliases = "".join(ln for ln in lines if ln.startswith("!"))
    body = "".join(ln for ln in lines if not ln.startswith("!"))
    return (f"#kgen_target = {backend.target_attr}\n"
            f"#kgen_device = #hal.device.target<\"{backend.target_device}\", [#kgen_target]> : !hal.device\n"
            f"{aliases}module attributes {{hal.device.targets = [#kgen_device]}} {{\n{body}\n}}\n")


def _entry_for(mlir_text: str, backend, extra_flags, cache_dir, name: str):
    """(backend, the MLIR as compiled, the full flags, the cache root, the key) of one request."""
    b = get_backend(backend)
    mlir_text = with_target(mlir_text, b)
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise CompileError(f"artifact name {name!r} is not a plain file name (letters, digits, '_', '-', '.')")
    flags = tuple(b.flags) + tuple(extra_flags)
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    return b, mlir_text, flags, root, cache_key(mlir_text, flags, name)


def cached_artifact(mlir_text: str, backend: str | Backend, *, extra_flags=(), cache_dir=None,
                    name: str = "module") -> Artifact | None:
    """The artifact `compile_mlir` would return without running the compiler, or None: what a
    driver looks up before it sends a compile to another process or node."""
    b, _, flags, root, key = _entry_for(mlir_text, backend, extra_flags, cache_dir, name)
    entry = root / key[:2] / key
    if not _verify_entry(entry, name, key):
        return None
    return Artifact(entry / f"{name}.vmfb", key, b.name, flags, compile_command(name, flags), cached=True)


def compile_mlir(
    mlir_text: str,
    backend: str | Backend,
    *,
    extra_flags: tuple[str, ...] | list[str] = (),
    cache_dir: str | os.PathLike | None = None,
    name: str = "module",
    timeout: float | None = None,
) -> Artifact:
    """Compile ``mlir_text`` for ``backend``, or return the cached module if it was built before.

    ``extra_flags`` are appended after the backend's flags and are part of the key. ``name`` names
    the files in the entry (``<name>.mlir``, ``<name>.vmfb``). ``timeout`` (default
    ``$KGEN_COMPILE_TIMEOUT`` or 900 s) bounds one compiler run.

    Raises ``CompileError`` with one line: the first ``error:`` line of the diagnostics (or the
    signal, for the compiler crashes IREE_NOTES.md describes), the backend, and the kept .mlir and
    full log paths.
    """
    b, mlir_text, flags, root, key = _entry_for(mlir_text, backend, extra_flags, cache_dir, name)
    entry = root / key[:2] / key
    command = compile_command(name, flags)

    def artifact(cached: bool, rebuilt: bool) -> Artifact:
        return Artifact(entry / f"{name}.vmfb", key, b.name, flags, command, cached=cached, rebuilt=rebuilt)

    rebuilt = False
    if entry.exists():
        if _verify_entry(entry, name, key):
            return artifact(cached=True, rebuilt=False)
        _remove_tree(entry)  # corrupt, truncated or incomplete: rebuild it
        rebuilt = True

    try:
        (root / _TMP_DIR).mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f"{key[:16]}-", dir=root / _TMP_DIR))
        tmp.chmod(0o755)  # mkdtemp makes 0700; a shared cache must stay readable once installed
    except OSError as e:
        raise ArtifactError(f"cannot write to cache directory {root}: {e.strerror or e}") from None

    try:
        (tmp / f"{name}.mlir").write_text(mlir_text)
        script = tmp / "compile.sh"
        script.write_text(_compile_script(name, flags, b.name))
        script.chmod(0o755)
        if timeout is None:
            timeout = float(os.environ.get("KGEN_COMPILE_TIMEOUT", "900"))
        proc = _run_compiler(tmp, name, flags, timeout)
        diag = (proc.stderr or "") + (proc.stdout or "")
        vmfb = tmp / f"{name}.vmfb"
        if proc.returncode != 0 or not vmfb.is_file():
            (tmp / "errors.txt").write_text(diag)
            kept = _keep_failure(root, tmp, key, name)
            tmp = None  # kept for repro: the cleanup below must not delete it
            what = _first_error_line(diag)
            if not what:
                if proc.returncode < 0:
                    what = f"iree-compile crashed with {signal_name(proc.returncode)} and no diagnostic"
                else:
                    tail = [ln.strip() for ln in diag.splitlines() if ln.strip()]
                    what = f"iree-compile exited {proc.returncode}" + (f": {tail[-1][:200]}" if tail else "")
            raise CompileError(
                f"{b.name}: {what} (input kept at {kept / (name + '.mlir')}; full log {kept / 'errors.txt'})"
            )
        if diag.strip():
            (tmp / "compile.log").write_text(diag)
        meta = {
            "key": key,
            "name": name,
            "backend": b.name,
            "flags": list(flags),
            "command": command,
            "compiler_version": compiler_version(),
            "generator_version": __version__,
            "vmfb_sha256": _sha256_file(vmfb),
            "size": vmfb.stat().st_size,
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        entry.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(tmp, entry)
        except OSError:
            # Another process installed this entry while we compiled: theirs is as good as ours.
            shutil.rmtree(tmp, ignore_errors=True)
            if not _verify_entry(entry, name, key):
                raise ArtifactError(f"cache entry {entry} is unreadable after a concurrent build; delete it") from None
    except BaseException:
        if tmp is not None and tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    return artifact(cached=False, rebuilt=rebuilt)


# ---------------------------------------------------------------------------------------------
# Publishing into a build directory


def _write_if_changed(dest: Path, data: bytes, mode: int | None = None) -> None:
    """Atomically write ``data`` to ``dest`` unless it already holds exactly that.

    Unchanged files keep their mtime (so make-style tools do not rebuild), and a concurrent reader
    never sees a half-written file.
    """
    try:
        if dest.stat().st_size == len(data) and dest.read_bytes() == data:
            return
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_artifact(artifact: Artifact, dest_dir: str | os.PathLike, name: str, *, with_mlir: bool = True) -> Path:
    """Publish a cached artifact as ``<dest_dir>/<name>.vmfb`` plus ``<name>.compile.sh``.

    Used by build.sh to populate ``build/<backend>/``. The ``.compile.sh`` rebuilds the vmfb from
    ``<name>.mlir`` in the same directory with the same flags; with ``with_mlir`` (the default) that
    MLIR is copied too, so the script runs as is. Files are replaced atomically and only when their
    content changed. Returns the path of the published vmfb.
    """
    if not _NAME_RE.match(name):
        raise ArtifactError(f"artifact name {name!r} is not a plain file name (letters, digits, '_', '-', '.')")
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    try:
        data = artifact.path.read_bytes()
    except OSError as e:
        raise ArtifactError(f"cached artifact {artifact.path} is missing ({e.strerror}); compile it again") from None
    _write_if_changed(dest / f"{name}.vmfb", data)
    _write_if_changed(dest / f"{name}.compile.sh", _compile_script(name, artifact.flags, artifact.backend).encode(), 0o755)
    if with_mlir:
        try:
            _write_if_changed(dest / f"{name}.mlir", artifact.mlir_path.read_bytes())
        except OSError as e:
            raise ArtifactError(f"cached input {artifact.mlir_path} is missing ({e.strerror})") from None
    return dest / f"{name}.vmfb"


# ---------------------------------------------------------------------------------------------
# Moving entries between machines


#: the files of an entry that travel: a failed compile's log travels as text in its error instead
_ENTRY_FILES = ("{name}.mlir", "{name}.vmfb", "compile.sh", "meta.json", "compile.log")


def export_entry(artifact: Artifact) -> dict[str, bytes]:
    """The files of `artifact`'s cache entry by name, as bytes: how a compile made on another
    process or node comes back to the driver (`install_entry`)."""
    name = artifact.path.stem
    out = {}
    for pattern in _ENTRY_FILES:
        f = artifact.entry_dir / pattern.format(name=name)
        if f.is_file():
            out[f.name] = f.read_bytes()
    return out


def install_entry(files: dict[str, bytes], cache_dir: str | os.PathLike | None = None) -> Artifact:
    """Install an entry `export_entry` gave into this cache under the key its meta.json names, with the
    same protocol as a compile (a private directory, then one rename): an entry already there is
    kept. The vmfb's sha256 is checked against meta.json first, so a damaged transfer is refused."""
    try:
        meta = json.loads(files["meta.json"])
        key, name = meta["key"], meta["name"]
        vmfb = files[f"{name}.vmfb"]
    except (KeyError, ValueError, TypeError) as e:
        raise ArtifactError(f"a cache entry sent back is incomplete ({e}); compile it again") from None
    if hashlib.sha256(vmfb).hexdigest() != meta.get("vmfb_sha256") or not _NAME_RE.match(name) \
            or not re.fullmatch(r"[0-9a-f]{64}", key):
        raise ArtifactError(f"the cache entry {key[:16]} sent back does not match its meta.json; compile it again")
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    entry = root / key[:2] / key
    flags = tuple(meta["flags"])
    art = Artifact(entry / f"{name}.vmfb", key, meta["backend"], flags, compile_command(name, flags), cached=True)
    if _verify_entry(entry, name, key):
        return art
    if entry.exists():
        _remove_tree(entry)
    try:
        (root / _TMP_DIR).mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f"{key[:16]}-", dir=root / _TMP_DIR))
        tmp.chmod(0o755)
        for fname, data in files.items():
            if fname in {p.format(name=name) for p in _ENTRY_FILES}:
                (tmp / fname).write_bytes(data)
        (tmp / "compile.sh").chmod(0o755)
        entry.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(tmp, entry)
        except OSError:             # installed by another process meanwhile: theirs is as good
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError as e:
        raise ArtifactError(f"cannot write to cache directory {root}: {e.strerror or e}") from None
    if not _verify_entry(entry, name, key):
        raise ArtifactError(f"cache entry {entry} is unreadable after it was installed; delete it")
    return art
