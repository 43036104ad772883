"""Who a worker is: its CPU kind, the code it runs and the compiler it holds.

A node of a farm carries these as Ray labels (`node_labels`, set by `kgen worker`); the driver sends
work only to nodes whose code and compiler are its own (`ray_farm`), and a result names the worker
that made it (`worker_identity`), so the selection table files it under that worker's CPU.
"""
from __future__ import annotations

import hashlib
import os
import platform
import re
from dataclasses import dataclass

from ..compile.cache import compiler_version, host_cpu_id
from ..version import __version__, package_fingerprint

LABEL_CPU = "kgen-cpu"
LABEL_CODE = "kgen-code"
LABEL_IREE = "kgen-iree"
LABEL_CPUS = "kgen-cpus"       # the CPUs the node offers: a measurement asks for all of them

def code_id() -> str:
    """The kgen version and the fingerprint of every source of the package and its templates."""
    return f"{__version__}-{package_fingerprint()}"


def iree_id() -> str:
    """The compiler's version number (e.g. 3.13.0) and 8 hex digits of its full version line."""
    line = compiler_version()
    m = re.search(r"(\d+\.\d+\.\d+[\w.]*)", line)
    digest = hashlib.sha256(line.encode()).hexdigest()[:8]
    return f"{m.group(1) if m else 'unknown'}-{digest}"


def node_labels(num_cpus: int | None = None) -> dict[str, str]:
    """The Ray labels `kgen worker` gives its node (offering `num_cpus`, default all of this machine's)."""
    return {LABEL_CPU: host_cpu_id(), LABEL_CODE: code_id(), LABEL_IREE: iree_id(),
            LABEL_CPUS: str(num_cpus or os.cpu_count() or 1)}


@dataclass(frozen=True)
class WorkerIdentity:
    cpu: str            # host_cpu_id() of the process that ran the unit
    host: str
    pid: int
    node: str           # the Ray node id, or the host name outside Ray


def worker_identity(node: str | None = None) -> WorkerIdentity:
    host = platform.node()
    return WorkerIdentity(host_cpu_id(), host, os.getpid(), node or host)
