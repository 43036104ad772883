"""The measured selection table behind `--alg=auto`: problem -> (variant, flag set), per backend and CPU.

`kgen tune` measures the applicable variants x flag sets of a problem that the cost model puts close
to the fastest, in the user's own layouts (so any relayout a variant does inside the kernel is part
of its time), and stores the fastest correct one here. `--alg=auto` looks the problem up
(`select.choose`); an untuned problem falls back to `select.heuristic` (the documented rule, and the
cost model's alternatives).

The table is JSON, `tuned.json` in the kernel cache directory (`$KGEN_CACHE_DIR`, build/cache under
build.sh), next to the artifacts it chose; `$KGEN_TUNED_TABLE` points elsewhere. A key names the
backend, this CPU's fingerprint (`compile.cache.host_cpu_id`: a table measured on another CPU does
not apply; on a GPU backend the device's name too, `target_id`) and the problem with its data types, layouts, bias and post-ops, without the variant.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from ..compile import backends
from ..compile.cache import default_cache_dir, host_cpu_id
from ..errors import ArtifactError

try:
    import fcntl
except ImportError:             # pragma: no cover - not POSIX: stores are serialised within a process only
    fcntl = None

TABLE_VERSION = 1
_lock = threading.RLock()
_loaded: dict[Path, tuple[tuple, dict]] = {}


@dataclass(frozen=True)
class Choice:
    variant: str
    flags: str
    source: str                 # "tuned" (measured) or "heuristic"
    seconds: float | None = None
    driver: str | None = None   # the runtime driver it was fastest on (None: the backend's default)
    # the formats (src, wei, dst tags) a problem's `any` tensors take; None: the problem has none
    layouts: tuple[str, str, str] | None = None


def table_path() -> Path:
    env = os.environ.get("KGEN_TUNED_TABLE")
    if env:
        return Path(env).expanduser()
    return default_cache_dir() / "tuned.json"


def target_id(backend: str, cpu: str | None = None) -> str:
    """What a measurement on `backend` holds for: this CPU's fingerprint (`host_cpu_id`), and on a
    backend that runs on a device of its own (`Backend.tuned_per_device`: a GPU) that device's too,
    by name (no device here: "no-device", so nothing measured on one applies). `cpu`: another CPU
    kind's id (a farm's worker), for a backend measured on the CPU alone."""
    b = backends.get_backend(backend)
    if not b.tuned_per_device:
        return cpu or host_cpu_id()
    ok, name = backends.device_available(b)
    return f"{host_cpu_id()}+{hashlib.sha256((name if ok else 'no-device').encode()).hexdigest()[:12]}"


def problem_key(p, backend: str, cpu: str | None = None) -> str:
    """backend | cpu (+ device) | the problem's name without its variant (conv_<alg>__ is the first part)."""
    return f"{backend}|{target_id(backend, cpu)}|{p.name.split('__', 1)[1]}"


def reorder_key(kernel_name: str, backend: str) -> str:
    """reorder | backend | cpu (+ device) | the reorder kernel's name (its problem chain, types and layouts)."""
    return f"reorder|{backend}|{target_id(backend)}|{kernel_name}"


def lookup_reorder(kernel_name: str, backend: str, path: Path | None = None) -> dict | None:
    """What `kgen tune reorder` measured fastest for this reorder here ({"form", "driver", "seconds"};
    "driver" absent in older tables), or None (also when the table is unreadable: a reorder then
    keeps the backend's choices rather than failing; `kgen tune` and `--alg=auto` report the table's
    error)."""
    try:
        e = load(path).get(reorder_key(kernel_name, backend))
    except ArtifactError:
        return None
    return e if isinstance(e, dict) else None


def lookup_reorder_form(kernel_name: str, backend: str, path: Path | None = None) -> str | None:
    """The emission form `kgen tune reorder` measured fastest for this reorder here, or None."""
    e = lookup_reorder(kernel_name, backend, path)
    return e.get("form") if e else None


def _stamp(path: Path) -> tuple | None:
    """What identifies one version of the file: every store replaces it (a new inode)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _read(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise ArtifactError(f"tuned table {path} is unreadable ({e}); delete it or run kgen tune again") from None
    if not isinstance(doc, dict) or doc.get("version") != TABLE_VERSION or not isinstance(doc.get("entries"), dict):
        raise ArtifactError(f"tuned table {path} has an unknown format (want version {TABLE_VERSION}); "
                            f"delete it or run kgen tune again")
    return doc["entries"]


def load(path: Path | None = None) -> dict:
    """The table's entries (empty when there is no table); re-read when the file changes."""
    path = path or table_path()
    stamp = _stamp(path)
    if stamp is None:
        return {}
    with _lock:
        hit = _loaded.get(path)
        if hit and hit[0] == stamp:
            return hit[1]
        entries = _read(path)
        _loaded[path] = (stamp, entries)
        return entries


@contextlib.contextmanager
def _locked(path: Path):
    """The table's read-merge-write held against other processes too: an exclusive lock on a file
    beside it (the table itself is replaced by every store, so it cannot carry the lock)."""
    with _lock:
        if fcntl is None:
            yield
            return
        lock_path = path.with_name(path.name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise ArtifactError(f"cannot lock tuned table {path} ({e.strerror or e})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)            # closing the descriptor releases the lock


def lookup(p, backend: str, path: Path | None = None) -> Choice | None:
    """The measured choice for `p` (its variant ignored), or None. For a problem with `any` tensors
    and a fixed variant, the layouts that variant was fastest in (the entry's ``by_variant``)."""
    e = load(path).get(problem_key(p, backend))
    if not e:
        return None
    if p.has_any and p.alg != "auto":
        e = e.get("by_variant", {}).get(p.alg)
        if not e:
            return None
        return Choice(p.alg, e["flags"], "tuned", e.get("seconds"), e.get("driver"), tuple(e["layouts"]))
    lay = e.get("layouts")
    return Choice(e["variant"], e["flags"], "tuned", e.get("seconds"), e.get("driver"), tuple(lay) if lay else None)


def store(entries: dict[str, dict], path: Path | None = None) -> Path:
    """Merge `entries` (key -> {variant, flags, seconds, ...}) into the table, atomically: the file is
    read, merged and replaced under a lock that other processes take too, so stores running at once
    (two `kgen tune` runs, a tune beside a network plan) each keep their keys."""
    path = path or table_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path):
        current = dict(_read(path))         # the file as it is now, never a cached earlier version
        current.update(entries)
        tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(json.dumps({"version": TABLE_VERSION, "entries": current}, indent=1, sort_keys=True))
        os.replace(tmp, path)
        _loaded.pop(path, None)
    return path
