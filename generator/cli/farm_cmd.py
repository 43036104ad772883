"""`kgen worker` and `kgen cpu-id`, and the options every command that fans out shares.

    kgen cpu-id                       print this machine's CPU kind (the id selection tables are keyed by)
    kgen worker --address=HOST:PORT [--num-cpus=N] [--block] [--dry-run]
                                      join this machine to a Ray farm, labelled with its CPU kind, its
                                      kgen code and its IREE version (needs pip install 'kgen[ray]')

A farm is a Ray head (`ray start --head --port=6379 --num-cpus=0` on any machine) and one
`kgen worker` per machine; a driver then gives `--address=HOST:6379` (or $KGEN_RAY_ADDRESS) to
`kgen catalog build` or `kgen tune`. Work goes only to nodes whose kgen code and IREE are the
driver's, and a measurement only to a node of its CPU kind (docs/scale-out.md).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from ..errors import ClusterError, KgenError


def add_farm_options(ap: argparse.ArgumentParser, jobs_help: str | None = None) -> None:
    """--address and --progress; --jobs too where the command has none of its own (`jobs_help`)."""
    if jobs_help is not None:
        ap.add_argument("--jobs", type=int, default=None, help=jobs_help)
    ap.add_argument("--address", default=None,
                    help="HOST:PORT of a Ray head: run the units on its kgen workers ($KGEN_RAY_ADDRESS)")
    ap.add_argument("--progress", default="text", choices=["text", "json", "none"],
                    help="progress on stderr: a line per unit (text), JSON lines (json) or none")


def check_jobs(jobs: int | None) -> None:
    if jobs is not None and jobs < 1:
        raise KgenError("--jobs must be at least 1")


def cpu_id(argv: list[str], parser_cls) -> int:
    from ..compile.cache import host_cpu_id
    from ..compile.host import host_cpu_description

    ap = argparse.ArgumentParser(prog="kgen cpu-id", description="Print this machine's CPU kind.")
    ap.add_argument("--describe", action="store_true", help="also print the CPU model and its ISA features")
    ap.__class__ = parser_cls
    a = ap.parse_args(argv)
    print(host_cpu_id())
    if a.describe:
        print(host_cpu_description())
    return 0


def worker(argv: list[str], parser_cls) -> int:
    ap = argparse.ArgumentParser(prog="kgen worker", description="Join this machine to a Ray farm as a kgen worker.")
    ap.add_argument("--address", default=os.environ.get("KGEN_RAY_ADDRESS"),
                    help="HOST:PORT of the Ray head ($KGEN_RAY_ADDRESS)")
    ap.add_argument("--num-cpus", type=int, default=None, help="CPUs this node offers (default: all)")
    ap.add_argument("--block", action="store_true", help="stay in the foreground until the node stops")
    ap.add_argument("--dry-run", action="store_true", help="print the ray start command, do not run it")
    ap.__class__ = parser_cls
    a = ap.parse_args(argv)
    if not a.address:
        raise KgenError("kgen worker needs --address=HOST:PORT of a Ray head (or $KGEN_RAY_ADDRESS)")
    if a.num_cpus is not None and a.num_cpus < 1:
        raise KgenError("--num-cpus must be at least 1")
    from ..scale.ray_farm import start_worker

    argv_ray = start_worker(a.address, a.num_cpus, a.block)
    ray_bin = Path(sys.executable).with_name("ray")
    argv_ray[0] = str(ray_bin) if ray_bin.is_file() else (shutil.which("ray") or "ray")
    print(" ".join(argv_ray), flush=True)
    if a.dry_run:
        return 0
    try:
        # replaced by ray start, not its parent: with --block, a signal to this process reaches Ray's
        # node (which stops its processes), and nothing is left holding the terminal or a pipe
        os.execv(argv_ray[0], argv_ray)
    except OSError as e:
        raise ClusterError(f"cannot run ray start ({e.strerror or e}): pip install 'kgen[ray]'") from None
