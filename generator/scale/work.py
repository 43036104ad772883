"""Units, their results, and the loop that runs them on an executor (`run_units`)."""
from __future__ import annotations

import os
import time
import traceback
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Callable

from ..errors import KgenError, first_line
from .identity import WorkerIdentity, worker_identity
from .progress import Progress

#: a unit whose worker is lost this many times in all is reported, and the other units go on
MAX_ATTEMPTS = 3
KINDS = ("measure", "compile")


@dataclass(frozen=True)
class Unit:
    """One piece of work: `fn(*args)` in a worker. `fn` is a module-level function (it travels by
    name), and its arguments and value travel by pickle."""
    key: str                    # what it is, in progress lines and results
    fn: Callable
    args: tuple = ()
    kind: str = "compile"       # "measure": holds every CPU of its node; "compile": one CPU
    target: str | None = None   # the CPU kind (host_cpu_id) it must run on; None: any node

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unit kind {self.kind!r} (known: {', '.join(KINDS)})")
        if self.kind == "measure" and self.target is None:
            raise ValueError(f"unit {self.key}: a measurement needs a target CPU kind")


@dataclass
class UnitResult:
    unit: Unit
    value: object = None
    error: str | None = None            # why the unit failed (it raised, or its worker was lost every time)
    worker: WorkerIdentity | None = None
    attempts: int = 1
    started: float = 0.0                # wall-clock time on the worker (time.time())
    ended: float = 0.0
    lost: list[str] = field(default_factory=list)   # why each earlier attempt's worker was lost

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Lost:
    """An attempt whose worker died or whose node went away: the unit goes again. `shared`: the worker
    ran other units too (a local pool breaks as a whole), so the loss is not charged to this one: it
    goes again alone, and is charged only if it is lost there."""
    why: str
    shared: bool = False


def execute(fn: Callable, args: tuple, node: str | None = None) -> dict:
    """What every executor runs in the worker: the unit, timed, with who ran it. A unit that raises is
    a result with its error (not retried: it would raise again); KeyboardInterrupt is not caught."""
    started = time.time()
    value, error = None, None
    try:
        value = fn(*args)
    except KgenError as e:
        error = first_line(e)
    except Exception as e:          # a bug in a unit: reported with where it happened, the rest go on
        where = traceback.extract_tb(e.__traceback__)[-1]
        error = f"{type(e).__name__}: {first_line(e)} ({os.path.basename(where.filename)}:{where.lineno})"
    return {"value": value, "error": error, "worker": worker_identity(node), "started": started, "ended": time.time()}


def executor_for(jobs: int | None = None, address: str | None = None):
    """The executor a command's options ask for: Ray at `address` (or $KGEN_RAY_ADDRESS), else a local
    process pool of `jobs` workers (default: this machine's CPUs), or serial for `jobs` == 1."""
    address = address or os.environ.get("KGEN_RAY_ADDRESS") or None
    if address:
        from .ray_farm import RayExecutor           # Ray is imported only for a farm
        return RayExecutor(address)
    from .local import PoolExecutor, SerialExecutor
    n = jobs if jobs is not None else (os.cpu_count() or 1)
    if n < 1:
        raise KgenError("--jobs must be at least 1")
    return SerialExecutor() if n == 1 else PoolExecutor(n)


def run_units(units: list[Unit], executor, on_result: Callable[[UnitResult], None] | None = None,
              progress: Progress | None = None) -> list[UnitResult]:
    """Run every unit on `executor`; `on_result` sees each result as its unit finishes (the driver
    installs or stores it there, so what finished is kept whatever happens later). Placement is
    checked before any work (`executor.check`: ClusterError). Ctrl-C cancels what runs and re-raises."""
    if len({u.key for u in units}) != len(units):      # retries and results are kept by key
        raise ValueError("run_units: two units share a key")
    executor.check(units)
    progress = progress or Progress("units", len(units), "none")
    progress.begin()
    pending, running = deque(units), {}
    attempts: dict[str, int] = defaultdict(int)
    lost: dict[str, list[str]] = defaultdict(list)
    results: list[UnitResult] = []
    alone: set[str] = set()         # units lost beside others: they run again with nothing beside them
    cancel = True
    try:
        while pending or running:
            while pending and len(running) < executor.slots() and executor.fits(pending[0], list(running.values())):
                if running and (pending[0].key in alone or any(r.key in alone for r in running.values())):
                    break
                u = pending.popleft()
                attempts[u.key] += 1
                running[executor.submit(u)] = u
            for handle, out in executor.wait(list(running), timeout=1.0):
                u = running.pop(handle)
                if isinstance(out, Lost) and out.shared:
                    attempts[u.key] -= 1
                    alone.add(u.key)
                    lost[u.key].append(f"{out.why} (beside other units: not counted)")
                    progress.retry(u.key, attempts[u.key] + 1, MAX_ATTEMPTS, lost[u.key][-1] + ", runs again alone")
                    pending.appendleft(u)
                    continue
                if isinstance(out, Lost):
                    lost[u.key].append(out.why)
                    if attempts[u.key] < MAX_ATTEMPTS:
                        progress.retry(u.key, attempts[u.key] + 1, MAX_ATTEMPTS, out.why)
                        pending.appendleft(u)
                        continue
                    r = UnitResult(u, error=f"its worker was lost {attempts[u.key]} times (last: {out.why})",
                                   attempts=attempts[u.key], lost=lost[u.key])
                else:
                    r = UnitResult(u, out["value"], out["error"], out["worker"], attempts[u.key],
                                   out["started"], out["ended"], lost[u.key])
                if on_result is not None:
                    on_result(r)
                results.append(r)
                w = r.worker
                progress.unit(u.key, r.ok, (r.ended - r.started) if w else 0.0,
                              f"{w.host}:{w.pid}" if w else "", r.error or "")
        cancel = False
    except KeyboardInterrupt:
        progress.end(interrupted=True)
        raise
    finally:
        executor.close(cancel=cancel)
    progress.end()
    return results
