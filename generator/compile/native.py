"""Small C helpers that kgen builds on first use (a C compiler is optional): compiled once per source,
machine and compiler into ``$KGEN_CACHE_DIR/native/`` and loaded with ctypes.

Users: the host-threads hand-off (`runtime/host_sync.c`) and the instruction-peak loops of
`kgen bench peak` and the cost model's calibration (`runtime/peak.c`).
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

from .cache import default_cache_dir


def load_native(source: Path) -> tuple[ctypes.CDLL | None, str]:
    """(the library built from `source`, its path), or (None, why not: no compiler (``$CC``, else
    ``cc``), a failed build, a failed load). Built with -O2. The file name holds a hash of the source,
    the machine and the compiler, so an edited source builds anew; concurrent processes each build, and
    one atomic rename wins."""
    text = source.read_bytes()
    cc = os.environ.get("CC", "cc")
    key = hashlib.sha256(text + platform.machine().encode() + cc.encode()).hexdigest()[:16]
    target = default_cache_dir() / "native" / f"{source.stem}-{platform.machine()}-{key}.so"
    if not target.exists():
        if not shutil.which(cc):
            return None, f"no C compiler ({cc}) to build {source.name}"
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
            os.close(fd)
            r = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", tmp, str(source)],
                               capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                return None, f"{cc} failed to build {source.name}: {(r.stderr.strip().splitlines() or ['?'])[-1]}"
            os.chmod(tmp, 0o755)            # mkstemp made it 0600: other users of a shared cache load it too
            os.replace(tmp, target)
        except (OSError, subprocess.SubprocessError) as e:
            return None, f"cannot build {source.name} into {target.parent}: {e}"
        finally:
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)
    try:
        return ctypes.CDLL(str(target)), str(target)
    except OSError as e:
        return None, f"cannot load {target}: {e}"
