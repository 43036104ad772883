"""The executors of one machine: serial (in this process) and a pool of worker processes.

Both run on the driver's own CPU, so a unit for another CPU kind is refused (`check`), and a
measurement runs alone: no other unit starts while it runs, and it starts only when none runs.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import platform
from concurrent.futures.process import BrokenProcessPool

from ..compile.cache import host_cpu_id
from ..errors import ClusterError
from .work import Lost, execute


def _check_here(units, what: str) -> None:
    here = host_cpu_id()
    for u in units:
        if u.target is not None and u.target != here:
            raise ClusterError(f"{u.key} needs a node of CPU kind {u.target}, and {what} runs on "
                               f"{platform.node()} ({here}): give --address=HOST:PORT of a farm with such a node")


class _Here:
    def cpu_kinds(self) -> list[str]:
        return [host_cpu_id()]


class SerialExecutor(_Here):
    """Each unit in this process, one after the other."""

    name = "this process"
    workers = 1

    def check(self, units) -> None:
        _check_here(units, "a serial run")

    def slots(self) -> int:
        return 1

    def fits(self, unit, running) -> bool:
        return not running

    def submit(self, unit):
        return _Done(execute(unit.fn, unit.args))

    def wait(self, handles, timeout: float):
        return [(h, h.out) for h in handles]

    def close(self, cancel: bool) -> None:
        pass


class _Done:
    def __init__(self, out):
        self.out = out


class PoolExecutor(_Here):
    """`jobs` worker processes (started fresh, not forked: the driver may hold IREE's runtime threads).
    A worker that dies breaks the pool: the units it held are lost and go again in a new pool."""

    def __init__(self, jobs: int):
        self.jobs = self.workers = jobs
        self.name = f"{jobs} local processes"
        self._pool = None

    def check(self, units) -> None:
        _check_here(units, "the local pool")

    def slots(self) -> int:
        return self.jobs

    def fits(self, unit, running) -> bool:
        # a measurement holds the machine: it waits for an empty pool, and nothing joins it
        if unit.kind == "measure":
            return not running
        return not any(u.kind == "measure" for u in running)

    def submit(self, unit):
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"))
        return self._pool.submit(execute, unit.fn, unit.args)

    def wait(self, handles, timeout: float):
        done, _ = cf.wait(handles, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        out = []
        for f in done:
            try:
                out.append((f, f.result()))
            except BrokenProcessPool:
                self._drop_pool()
                out.append((f, Lost("a worker process died", shared=len(handles) > 1)))
            except Exception as e:          # the unit or its value did not pickle: not worth a retry
                out.append((f, {"value": None, "error": f"{type(e).__name__}: {e}", "worker": None,
                                "started": 0.0, "ended": 0.0}))
        return out

    def _drop_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self, cancel: bool) -> None:
        if self._pool is None:
            return
        if cancel:
            # Ctrl-C: the workers are stopped at once (the executor has no public way to); their futures
            # are not cancelled one by one, since an interrupt inside `wait` may have left one's lock
            # held: the pool fails them itself once it sees its workers gone
            for p in list(getattr(self._pool, "_processes", {}).values()):
                p.terminate()
            self._pool.shutdown(wait=False)
        else:
            self._pool.shutdown(wait=True)
        self._pool = None
