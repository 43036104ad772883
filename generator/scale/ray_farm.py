"""The Ray executor: units on the nodes of a farm, placed by the labels `kgen worker` gives them.

Placement, all by Ray's own scheduler (no queue of kgen's):
- every task selects nodes whose ``kgen-code`` and ``kgen-iree`` labels are the driver's, so a node
  started with other code or another compiler never gets work; the driver also refuses to start while
  any such node is in the cluster (`check`), since its tables and artifacts would not be this code's;
- a unit with a target CPU kind selects ``kgen-cpu=<target>`` too;
- a measurement asks for every CPU of its node, so no compile runs beside it: nodes of one kind may
  offer different numbers of CPUs (label ``kgen-cpus``), so the driver sends each measurement to one
  such group in turn (by ``kgen-cpus=<n>``, asking for n CPUs); a compile asks for one.
Ray's own task retries are off (``max_retries=0``): `run_units` retries a lost worker itself, so that
each retry is reported and counted the same on every executor. This module alone imports Ray.
"""
from __future__ import annotations

import contextlib
import os
import socket
import sys
import time

from ..errors import ClusterError, first_line
from .identity import LABEL_CODE, LABEL_CPU, LABEL_CPUS, LABEL_IREE, code_id, iree_id, node_labels
from .work import Lost, execute

ray = None


@contextlib.contextmanager
def _quiet_stderr():
    """Ray's C++ core writes warnings to file descriptor 2 while it loads and connects (on a machine with
    no route outside, two about the local IP for every process): kgen's one-line errors and progress
    must not drown in them. Python's exceptions are unaffected."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


#: seconds to wait for an address to answer before saying it does not
CONNECT_TIMEOUT = 10.0
#: seconds a unit may wait with no live node of its CPU kind in the farm before it is reported as
#: failed (Ray would keep it pending for ever; a node that restarts within this time takes it)
ORPHAN_GRACE = 60.0


def _ray():
    global ray
    if ray is None:
        try:
            with _quiet_stderr():
                import ray as ray_module
        except ImportError:
            raise ClusterError("a farm needs Ray: pip install 'kgen[ray]' (or pip install ray==2.60.0)") from None
        ray = ray_module
    return ray


def split_address(address: str) -> tuple[str, int]:
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ClusterError(f"--address={address}: expected HOST:PORT of a Ray head (ray start --head prints it)")
    return host, int(port)


def check_reachable(address: str) -> str:
    """One TCP connect to the head's port first (Ray itself retries an unreachable address for
    minutes). Returns this machine's address on the route to the head: the driver's node address."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as s:
            return s.getsockname()[0]
    except OSError as e:
        raise ClusterError(f"--address={address}: no Ray head answers there ({e.strerror or e}); start one "
                           f"with ray start --head --port={port}") from None


def _remote_execute(fn, args):
    return execute(fn, args, node=_ray().get_runtime_context().get_node_id())


class RayExecutor:
    def __init__(self, address: str):
        here = check_reachable(address)
        r = _ray()
        self.address = address
        if not r.is_initialized():
            try:
                with _quiet_stderr():
                    r.init(address=address, logging_level="ERROR", log_to_driver=False, namespace="kgen",
                           _node_ip_address=here)
            except (ConnectionError, RuntimeError) as e:
                raise ClusterError(f"--address={address}: cannot join the Ray cluster ({first_line(e)})") from None
        self._remote = r.remote(_remote_execute)
        self._running: dict = {}            # ref -> unit
        self._orphaned: dict = {}           # ref -> when its CPU kind was first seen gone
        self._checked = 0.0
        self.nodes = self._kgen_nodes()
        self.workers = max(1, sum(int(n["Resources"].get("CPU", 0)) for n in self.nodes))
        self.name = f"Ray at {address} ({len(self.nodes)} kgen node{'s' if len(self.nodes) != 1 else ''})"
        self._turn = 0

    @staticmethod
    def _kgen_nodes() -> list[dict]:
        return [n for n in ray.nodes() if n.get("Alive") and LABEL_CPU in (n.get("Labels") or {})]

    def check(self, units) -> None:
        mine = {LABEL_CODE: code_id(), LABEL_IREE: iree_id()}
        for n in self.nodes:
            labels = n["Labels"]
            differ = [f"{k}={labels.get(k)} (this driver: {v})" for k, v in mine.items() if labels.get(k) != v]
            if differ:
                raise ClusterError(f"node {n['NodeID'][:12]} at {n.get('NodeManagerAddress')} runs other code: "
                                   f"{', '.join(differ)}; refused before any work (restart it with this "
                                   f"kgen: kgen worker --address={self.address})")
        if not self.nodes:
            raise ClusterError(f"no kgen worker in the cluster at {self.address}: start one per machine with "
                               f"kgen worker --address={self.address}")
        for target in sorted({u.target for u in units if u.target is not None}):
            if not self._groups(target):
                kinds = sorted({n["Labels"][LABEL_CPU] for n in self.nodes})
                raise ClusterError(f"no node of CPU kind {target} in the cluster at {self.address} (kinds there: "
                                   f"{', '.join(kinds)}): run kgen worker on a machine of that kind")

    def _groups(self, target: str) -> list[str]:
        """The `kgen-cpus` value of every live node of kind `target`, one entry per node: a measurement
        goes to each group in turn, as often as it has nodes."""
        return sorted(n["Labels"].get(LABEL_CPUS, "") for n in self._kgen_nodes()
                      if n["Labels"][LABEL_CPU] == target and n["Labels"].get(LABEL_CPUS, "").isdigit())

    def slots(self) -> int:
        return 1 << 30              # Ray queues and places; every unit is submitted at once

    def fits(self, unit, running) -> bool:
        return True

    def submit(self, unit):
        selector = {LABEL_CODE: code_id(), LABEL_IREE: iree_id()}
        if unit.target is not None:
            selector[LABEL_CPU] = unit.target
        cpus = 1
        if unit.kind == "measure":              # the live nodes now: a retry after a lost node sees the rest
            groups = self._groups(unit.target) or ["1"]
            self._turn += 1
            group = groups[self._turn % len(groups)]
            selector[LABEL_CPUS], cpus = group, int(group)
        ref = self._remote.options(num_cpus=cpus, max_retries=0, label_selector=selector).remote(unit.fn, unit.args)
        self._running[ref] = unit
        return ref

    def wait(self, handles, timeout: float):
        ready, _ = ray.wait(handles, num_returns=len(handles), timeout=timeout, fetch_local=True)
        out = self._orphans([h for h in handles if h not in ready])
        for ref in ready:
            self._running.pop(ref, None)
            self._orphaned.pop(ref, None)
            try:
                out.append((ref, ray.get(ref)))
            except ray.exceptions.RayTaskError as e:        # raised outside the unit (its arguments)
                out.append((ref, {"value": None, "error": first_line(e), "worker": None, "started": 0.0,
                                  "ended": 0.0}))
            except ray.exceptions.RayError as e:            # the worker or its node is gone
                out.append((ref, Lost(f"{type(e).__name__}: {first_line(e)[:160]}")))
        return out

    def _orphans(self, waiting) -> list:
        """Units that have waited ORPHAN_GRACE seconds with no live node of their CPU kind: cancelled
        and reported (one line), so that the run ends and says why."""
        now = time.monotonic()
        if now - self._checked < 2.0 or not waiting:
            return []
        self._checked = now
        live = {n["Labels"][LABEL_CPU] for n in self._kgen_nodes()}
        out = []
        for ref in waiting:
            target = self._running[ref].target
            if target is None or target in live:
                self._orphaned.pop(ref, None)
                continue
            since = self._orphaned.setdefault(ref, now)
            if now - since >= ORPHAN_GRACE:
                ray.cancel(ref, force=True)
                self._running.pop(ref, None)
                self._orphaned.pop(ref, None)
                out.append((ref, {"value": None, "worker": None, "started": 0.0, "ended": 0.0,
                                  "error": f"no node of CPU kind {target} is left in the farm at {self.address} "
                                           f"(waited {ORPHAN_GRACE:.0f} s): run kgen worker on one"}))
        return out

    def close(self, cancel: bool) -> None:
        if cancel:
            for ref in list(self._running):
                try:
                    ray.cancel(ref, force=True)
                except Exception:   # already finished or its worker gone: nothing to stop
                    pass
        self._running.clear()       # this process stays connected: a second round reuses the farm

    def cpu_kinds(self) -> list[str]:
        return sorted({n["Labels"][LABEL_CPU] for n in self.nodes})


def start_worker(address: str, num_cpus: int | None = None, block: bool = False) -> list[str]:
    """The `ray start` command line that joins this machine to the farm at `address` with kgen's labels."""
    here = check_reachable(address)
    labels = ",".join(f"{k}={v}" for k, v in node_labels(num_cpus).items())
    # the node's address is the one on its route to the head (a machine may have several)
    argv = ["ray", "start", f"--address={address}", f"--node-ip-address={here}", f"--labels={labels}"]
    if num_cpus is not None:
        argv.append(f"--num-cpus={num_cpus}")
    if block:
        argv.append("--block")
    return argv
