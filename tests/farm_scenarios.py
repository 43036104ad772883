"""Multi-node Ray scenarios for tests/test_farm.py, run as a script inside `unshare -n` (loopback only).

Every Ray server here is started and stopped by this script (ray.cluster_utils.Cluster). It prints one
JSON object of findings on its last line; the test asserts on them. argv[1]: a scratch directory.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import zlib
from pathlib import Path

TMP = Path(sys.argv[1]) if __name__ == "__main__" else None
CASES = ("mb1ic4ih6oc5oh6kh3ph1", "mb1ic4ih7oc5oh7kh3ph1")
GRAPH = "c1 x -> a mb1ic4ih6oc8oh6kh3ph1\nc2 a -> b mb1ic8ih6oc8oh6kh1ph0"
PLAN_LAYOUTS = ["nchw", "nhwc"]
REORDER = ["--stag=abcd", "--dtag=acdb", "1x8x5x5"]


def reorder_problems() -> list:
    from generator.benchdnn.reorder import parse_args, reorder_problem
    return [reorder_problem(c) for c in parse_args(REORDER)]


def plan_costs(address=None) -> dict:
    """What the planner measured for GRAPH: the figures it holds (keys only: real timing) and its kernels."""
    from generator.net import parse_network
    from generator.net.plan import measure_costs
    costs = measure_costs(parse_network(GRAPH), "llvm-cpu", layouts=PLAN_LAYOUTS, rounds=1, remeasure=True,
                          log=lambda m: None, address=address, progress="none")
    return {"conv": sorted(map(list, costs.conv)), "reorder": sorted(repr(k) for k in costs.reorder),
            "kernel": sorted(f"{k}={v}" for k, v in costs.kernel.items())}


# --------------------------------------------------------------------- run in the workers (setup hook)
def fixed_median_times(fns, rounds, min_batch_s=0.02, after_round=None):
    """A timer patched to a fixed value per candidate label: the tables of two runs compare byte for byte."""
    return {k: (zlib.crc32(k.encode()) % 997 + 1) * 1e-6 for k in fns}


def patch_timer() -> None:
    from generator.bench import conv as bench_conv, tune as bench_tune
    bench_conv.median_times = fixed_median_times
    bench_tune.median_times = fixed_median_times
    measure = bench_tune.measure_problem

    def measure_once_killed(*args, **kwargs):
        # the first measurement of the run SIGKILLs its own worker, mid-unit
        marker = Path(os.environ["KGEN_FARM_KILL_MARKER"])
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return measure(*args, **kwargs)
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)

    bench_tune.measure_problem = measure_once_killed


def timed_unit(kind: str, seconds: float, kill_marker: str | None = None, node_file: str | None = None):
    import ray
    node = ray.get_runtime_context().get_node_id()
    if node_file:                               # says where it runs, for the node-removal scenario
        Path(node_file).write_text(node)
    if kill_marker:
        try:
            fd = os.open(kill_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
        except FileExistsError:
            pass
    t = time.time()
    time.sleep(seconds)
    return {"kind": kind, "node": node, "start": t, "end": time.time()}


def node_labels_here(num_cpus: int) -> dict:
    from generator.scale import node_labels
    return node_labels(num_cpus)


# --------------------------------------------------------------------------------------- the driver
def main() -> dict:
    os.environ["KGEN_CACHE_DIR"] = str(TMP / "worker-cache")       # the nodes' cache: not the driver's
    os.environ["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent)] + sys.path)
    import ray
    from ray.cluster_utils import Cluster

    from generator.errors import ClusterError
    from generator.scale import Progress, Unit, node_labels, run_units
    from generator.scale.identity import LABEL_CODE, LABEL_CPU
    from generator.scale import ray_farm
    from generator.scale.ray_farm import RayExecutor

    found = {}
    real = node_labels(1)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "node_ip_address": "127.0.0.1"})
    a = cluster.add_node(num_cpus=2, labels={**node_labels(2), "farm-test": "a"}, node_ip_address="127.0.0.1")
    b = cluster.add_node(num_cpus=1, labels={**real, "farm-test": "b"}, node_ip_address="127.0.0.1")
    other = cluster.add_node(num_cpus=1, labels={**real, LABEL_CPU: "0therkind0000000", "farm-test": "other"},
                             node_ip_address="127.0.0.1")
    cluster.wait_for_nodes()
    os.environ["KGEN_CACHE_DIR"] = str(TMP / "driver-cache")
    os.environ["KGEN_TUNED_TABLE"] = str(TMP / "farm.json")
    os.environ["KGEN_FARM_KILL_MARKER"] = str(TMP / "killed-tune")
    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False, namespace="kgen",
             runtime_env={"worker_process_setup_hook": "farm_scenarios.patch_timer",
                          "env_vars": {"PYTHONPATH": os.environ["PYTHONPATH"],
                                       "KGEN_FARM_KILL_MARKER": os.environ["KGEN_FARM_KILL_MARKER"]}})
    node_kind = {n["NodeID"]: n["Labels"]["farm-test"] for n in ray.nodes() if "farm-test" in n["Labels"]}
    by_name = {"a": a, "b": b, "other": other}
    try:
        # 1. the same table as a local run, through a worker killed mid-unit; the retry is logged
        from generator.bench import tune as bench_tune
        from generator.benchdnn.conv import parse_conv_args
        cases = [c for line in CASES for c in parse_conv_args(["--stag=nhwc", "--dtag=nhwc", line])]
        log = []
        t = time.time()
        rows, path = bench_tune.tune(cases, "llvm-cpu", variants=["direct"], flag_sets=["default"], rounds=1,
                                     address=cluster.address, log=log.append, progress="text")
        bench_tune.tune_reorders(reorder_problems(), "llvm-cpu", rounds=1, address=cluster.address,
                                 log=log.append, progress="none")
        found["tune_seconds"] = time.time() - t
        found["farm_table"] = Path(path).read_text()
        found["tune_log"] = log
        found["killed"] = (TMP / "killed-tune").exists()
        found["tune_rows"] = [(p.desc.__str__(), r.best.label if r.best else None) for p, r in rows]
        # a warm second run (no --retune): nothing is sent out
        log2 = []
        bench_tune.tune(cases, "llvm-cpu", variants=["direct"], flag_sets=["default"], rounds=1,
                        address=cluster.address, log=log2.append, progress="none", retune=False)
        found["warm_log"] = log2

        # 1b. the layout planner's measurements as units: the same figures as a local plan's
        found["plan"] = plan_costs(cluster.address)

        # 2. placement: measurements only on nodes of their kind, never beside a compile
        ex = RayExecutor(cluster.address)
        target = real[LABEL_CPU]
        units = [Unit(f"m{i}", timed_unit, ("measure", 0.4), "measure", target) for i in range(4)]
        units += [Unit(f"c{i}", timed_unit, ("compile", 0.3), "compile", None) for i in range(8)]
        results = run_units(units, ex)
        found["placement"] = [dict(r.value, node=node_kind.get(r.value["node"], "?")) for r in results]

        # 3. a worker SIGKILLed mid-unit and a node removed mid-run: every unit completes, retries reported
        events = []

        class Capture(Progress):
            def _emit(self, event, text):
                events.append(event)

        removed = {}

        def remove_when_running(f: Path, names: tuple):
            deadline = time.time() + 180          # a loaded CI machine starts workers slowly
            while time.time() < deadline:
                if f.exists() and f.read_text():
                    name = node_kind.get(f.read_text())
                    if name in names:
                        removed.setdefault("kind", []).append(name)
                        cluster.remove_node(by_name[name])
                    return
                time.sleep(0.05)

        units = [Unit("killed", timed_unit, ("measure", 0.2, str(TMP / "killed-unit")), "measure", target),
                 Unit("on a removed node", timed_unit, ("measure", 5.0, None, str(TMP / "long-unit-node")),
                      "measure", target),
                 # its node goes, and no other of its kind is left: reported after the grace, not pending for ever
                 Unit("its kind gone", timed_unit, ("measure", 30.0, None, str(TMP / "other-unit-node")),
                      "measure", "0therkind0000000")]
        ray_farm.ORPHAN_GRACE = 2.0
        watchers = [threading.Thread(target=remove_when_running, args=(TMP / "long-unit-node", ("a", "b"))),
                    threading.Thread(target=remove_when_running, args=(TMP / "other-unit-node", ("other",)))]
        for w in watchers:
            w.start()
        results = run_units(units, RayExecutor(cluster.address), progress=Capture("faults", 3, "json"))
        for w in watchers:
            w.join()
        found["faults"] = {r.unit.key: {"ok": r.ok, "attempts": r.attempts, "lost": r.lost, "error": r.error}
                           for r in results}
        found["fault_events"] = [e for e in events if e["event"] == "retry"]
        found["removed"] = removed.get("kind")

        # 4. kgen worker: a real `ray start` joins with kgen's labels, is accepted, and leaves on SIGTERM
        import subprocess
        worker = subprocess.Popen([sys.executable, "-m", "generator.cli.main", "worker", f"--address={cluster.address}",
                                   "--num-cpus=1", "--block"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        known = set(node_kind)
        joined = []
        deadline = time.time() + 120
        while not joined and time.time() < deadline:
            joined = [n for n in ray.nodes() if n["Alive"] and n["NodeID"] not in known and LABEL_CPU in n["Labels"]]
            time.sleep(0.2)
        found["worker_labels"] = {k: v for k, v in joined[0]["Labels"].items() if k.startswith("kgen-")} if joined else None
        found["worker_accepted"] = bool(joined) and RayExecutor(cluster.address).check([]) is None
        worker.send_signal(signal.SIGTERM)
        found["worker_rc"] = worker.wait(timeout=60)
        time.sleep(1)
        found["worker_left"] = not any(n["Alive"] and n["NodeID"] == joined[0]["NodeID"] for n in ray.nodes()) \
            if joined else False

        # 5. no node of a kind, and a node of other code: refused before any work
        try:
            RayExecutor(cluster.address).check([Unit("x", timed_unit, ("measure", 0.1), "measure", "n0suchkind000000")])
        except ClusterError as e:
            found["no_kind"] = str(e)
        bad = cluster.add_node(num_cpus=1, labels={**real, LABEL_CODE: "0.0.0-000000000000"}, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes()
        try:
            RayExecutor(cluster.address).check([])
        except ClusterError as e:
            found["mismatch"] = str(e)
        r = subprocess.run([sys.executable, "-m", "generator.cli.main", "catalog", "build", "--no-run",
                            f"--address={cluster.address}"], capture_output=True, text=True, timeout=120)
        found["mismatch_cli"] = {"rc": r.returncode, "stderr": r.stderr}
        cluster.remove_node(bad)
    finally:
        ray.shutdown()
        cluster.shutdown()
    return found


if __name__ == "__main__":
    print(json.dumps(main()))
