"""The work layer (generator.scale): local executors here, a real two-node Ray farm in
`farm_scenarios.py` (inside `unshare -n`, every server started and stopped by the test)."""
from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.compile.cache import host_cpu_id
from generator.errors import ClusterError
from generator.scale import MAX_ATTEMPTS, PoolExecutor, Progress, SerialExecutor, Unit, executor_for, run_units

HERE = Path(__file__).parent


# units: module-level, so that they travel by name to the pool's processes
def sleep_unit(kind: str, seconds: float) -> dict:
    t = time.time()
    time.sleep(seconds)
    return {"kind": kind, "pid": os.getpid(), "start": t, "end": time.time()}


def killed_once_unit(marker: str) -> str:
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return "second attempt"
    os.kill(os.getpid(), signal.SIGKILL)


def always_killed_unit() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def raising_unit() -> None:
    raise ValueError("a bug in a unit")


def test_ray_is_never_imported_without_an_address():
    code = ("import sys\n"
            "import generator, generator.scale, generator.catalog, generator.bench.tune, generator.cli.main\n"
            "from generator.scale import executor_for\n"
            "executor_for(2); executor_for(1)\n"
            "from generator.cli.main import main\n"
            "assert main(['cpu-id']) == 0\n"
            "assert 'ray' not in sys.modules, 'ray was imported'\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "KGEN_RAY_ADDRESS": ""})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == host_cpu_id()


def test_a_measurement_runs_alone_in_the_local_pool():
    cpu = host_cpu_id()
    units = [Unit(f"c{i}", sleep_unit, ("compile", 0.3)) for i in range(4)]
    units[2:2] = [Unit("m0", sleep_unit, ("measure", 0.3), "measure", cpu)]
    out = io.StringIO()
    results = run_units(units, PoolExecutor(2), progress=Progress("t", len(units), "json", out))
    assert [r.ok for r in results] == [True] * 5
    m = next(r.value for r in results if r.value["kind"] == "measure")
    for r in results:
        if r.value["kind"] == "compile":
            assert r.value["end"] <= m["start"] or r.value["start"] >= m["end"], "a compile ran beside a measurement"
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [e["event"] for e in events] == ["start"] + ["unit"] * 5 + ["end"]
    assert events[-2]["done"] == events[-2]["total"] == 5 and events[-1]["failed"] == 0


def test_a_killed_worker_is_retried_and_a_failing_unit_does_not_stop_the_rest(tmp_path):
    units = [Unit("killed once", killed_once_unit, (str(tmp_path / "marker"),)),
             Unit("always killed", always_killed_unit), Unit("raises", raising_unit),
             Unit("fine", sleep_unit, ("compile", 0.0))]
    out = io.StringIO()
    seen = []
    results = {r.unit.key: r for r in run_units(units, PoolExecutor(2), seen.append,
                                                 Progress("t", len(units), "text", out))}
    assert len(seen) == 4
    # lost beside the always-killed unit (not counted against it) or alone (counted): either way, said
    assert results["killed once"].value == "second attempt" and results["killed once"].lost
    assert not results["always killed"].ok and results["always killed"].attempts == MAX_ATTEMPTS
    assert "lost 3 times" in results["always killed"].error
    assert not results["raises"].ok and results["raises"].attempts == 1
    assert "ValueError: a bug in a unit (test_farm.py:" in results["raises"].error
    assert results["fine"].ok
    assert "retry killed once: attempt" in out.getvalue()


def test_a_unit_for_another_cpu_kind_is_refused_here():
    for ex in (SerialExecutor(), PoolExecutor(2)):
        with pytest.raises(ClusterError, match="needs a node of CPU kind 0ther.*give --address"):
            run_units([Unit("m", sleep_unit, ("measure", 0.0), "measure", "0ther")], ex)


def test_bad_farm_input_is_one_line_and_exit_2():
    cases = [(["catalog", "build", "--no-run", "--address=127.0.0.1:1"], "no Ray head answers there"),
             (["catalog", "build", "--address=nohostport"], "expected HOST:PORT"),
             (["catalog", "build", "--jobs=0"], "--jobs must be at least 1"),
             (["worker"], "kgen worker needs --address")]
    for argv, message in cases:
        r = subprocess.run([sys.executable, "-m", "generator.cli.main", *argv], capture_output=True, text=True,
                           env={**os.environ, "KGEN_RAY_ADDRESS": ""})
        assert r.returncode == 2, (argv, r.stderr)
        assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr


def test_executor_for_chooses_by_the_options(monkeypatch):
    monkeypatch.delenv("KGEN_RAY_ADDRESS", raising=False)
    assert isinstance(executor_for(1), SerialExecutor)
    assert isinstance(executor_for(3), PoolExecutor) and executor_for(3).workers == 3


def _ray_or_skip():
    if importlib.util.find_spec("ray") is None:
        if os.environ.get("KGEN_REQUIRE_RAY"):
            pytest.fail("KGEN_REQUIRE_RAY is set and ray is not installed (pip install -e .[ray])")
        pytest.skip("ray is not installed: pip install -e .[ray] (CI installs it)")
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-n", "true"]).returncode != 0:
        if os.environ.get("KGEN_REQUIRE_RAY"):
            pytest.fail("unshare -n is not available here: the farm tests need a private network namespace")
        pytest.skip("unshare -n is not available (needs root or user namespaces)")


def test_a_two_node_farm(tmp_path, monkeypatch, kgen_cache_dir):
    _ray_or_skip()
    # the local run first, with the same fixed timer: the farm's table must equal it byte for byte
    sys.path.insert(0, str(HERE))
    try:
        import farm_scenarios
    finally:
        sys.path.remove(str(HERE))
    from generator.bench import conv as bench_conv, tune as bench_tune
    from generator.benchdnn.conv import parse_conv_args
    monkeypatch.setattr(bench_conv, "median_times", farm_scenarios.fixed_median_times)
    monkeypatch.setattr(bench_tune, "median_times", farm_scenarios.fixed_median_times)
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "local.json"))
    monkeypatch.delenv("KGEN_RAY_ADDRESS", raising=False)
    cases = [c for line in farm_scenarios.CASES for c in parse_conv_args(["--stag=nhwc", "--dtag=nhwc", line])]
    bench_tune.tune(cases, "llvm-cpu", variants=["direct"], flag_sets=["default"], rounds=1, log=lambda m: None)
    bench_tune.tune_reorders(farm_scenarios.reorder_problems(), "llvm-cpu", rounds=1, log=lambda m: None)
    local_table = (tmp_path / "local.json").read_text()
    local_plan = farm_scenarios.plan_costs()

    scratch = tmp_path / "farm"
    scratch.mkdir()
    t = time.time()
    r = subprocess.run(["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$1" "$2"', sys.executable,
                        str(HERE / "farm_scenarios.py"), str(scratch)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    found = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"farm scenarios: {time.time() - t:.1f} s (tune on the farm {found['tune_seconds']:.1f} s)")

    # the same table (conv and reorder choices), through a worker SIGKILLed mid-measurement; the retry was logged
    assert found["farm_table"] == local_table and '"reorder|llvm-cpu|' in local_table
    assert found["killed"]
    assert "attempt 2 of 3 (WorkerCrashedError" in r.stderr, r.stderr[-3000:]      # the progress lines
    assert all(best for _, best in found["tune_rows"])
    assert any("stored already" in line for line in found["warm_log"]), found["warm_log"]
    assert not any("retry" in line or "[" in line for line in found["warm_log"] if "stored" not in line)

    # the planner's layers and reorders measured as units: the same figures (real timing: their keys)
    assert found["plan"] == local_plan and local_plan["conv"] and local_plan["reorder"]

    # measurements only on nodes of their CPU kind, never beside a compile on that node
    placed = found["placement"]
    assert {u["node"] for u in placed if u["kind"] == "measure"} <= {"a", "b"}
    for m in (u for u in placed if u["kind"] == "measure"):
        for c in (u for u in placed if u["kind"] == "compile" and u["node"] == m["node"]):
            assert c["end"] <= m["start"] + 1e-3 or c["start"] >= m["end"] - 1e-3, (m, c)

    # faults survived, and said so
    faults = found["faults"]
    gone = faults.pop("its kind gone")
    assert all(f["ok"] for f in faults.values()), faults
    assert faults["killed"]["attempts"] == 2 and faults["on a removed node"]["attempts"] == 2, faults
    assert len(set(found["removed"]) & {"a", "b"}) == 1 and "other" in found["removed"]
    assert {e["unit"] for e in found["fault_events"]} == {"killed", "on a removed node", "its kind gone"}
    # the last node of a CPU kind went: the unit is reported once the grace is over, not left pending
    assert not gone["ok"] and "no node of CPU kind 0therkind0000000 is left" in gone["error"], gone

    # kgen worker joined with this machine's labels, was accepted, and left on SIGTERM
    labels = farm_scenarios.node_labels_here(1)
    assert found["worker_labels"] == labels and found["worker_accepted"] and found["worker_left"], found

    # refused before any work: no node of a kind, and a node of other code (one line, exit 2 from the CLI)
    assert "no node of CPU kind n0suchkind000000" in found["no_kind"]
    assert "runs other code: kgen-code=0.0.0-000000000000" in found["mismatch"]
    cli = found["mismatch_cli"]
    assert cli["rc"] == 2 and cli["stderr"].count("\n") == 1 and "refused before any work" in cli["stderr"], cli


def test_an_entry_sent_back_is_installed_and_served_without_a_compile(tmp_path):
    # how an artifact made on another node reaches the driver: bytes, checked, installed by rename;
    # afterwards a lookup finds it and no compiler runs (a warm build sends nothing out)
    from generator.catalog import compile_chunk
    from generator.compile.cache import cached_artifact, compiler_invocations, install_entry
    from generator.errors import ArtifactError
    text = ("func.func @twice(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %r = arith.addf %a, %a : tensor<8xf32>\n  return %r : tensor<8xf32>\n}\n")
    worker_cache, driver_cache = tmp_path / "worker", tmp_path / "driver"
    os.environ["KGEN_CACHE_DIR"], saved = str(worker_cache), os.environ.get("KGEN_CACHE_DIR")
    try:
        (item, bad), = [compile_chunk("llvm-cpu", [("twice", text, ()), ("broken", "func.func @x(", ())])]
    finally:
        if saved is None:
            del os.environ["KGEN_CACHE_DIR"]
        else:
            os.environ["KGEN_CACHE_DIR"] = saved
    assert "error" in bad and "llvm-cpu:" in bad["error"]           # a failed compile comes back as text
    assert cached_artifact(text, "llvm-cpu", name="twice", cache_dir=driver_cache) is None
    art = install_entry(item["files"], driver_cache)
    before = compiler_invocations()
    again = cached_artifact(text, "llvm-cpu", name="twice", cache_dir=driver_cache)
    assert again is not None and again.path == art.path and art.path.read_bytes() == item["files"]["twice.vmfb"]
    assert install_entry(item["files"], driver_cache).path == art.path      # installed twice: kept once
    assert compiler_invocations() == before
    vmfb = item["files"]["twice.vmfb"]
    damaged = dict(item["files"], **{"twice.vmfb": vmfb[:-1] + bytes([vmfb[-1] ^ 1])})
    with pytest.raises(ArtifactError, match="does not match its meta.json"):
        install_entry(damaged, tmp_path / "other")


def test_ctrl_c_stops_the_run_and_keeps_what_finished(tmp_path):
    # the driver stores each result as its unit finishes; Ctrl-C cancels the rest, stops the pool's
    # processes and leaves what was stored
    script = (
        "import sys, os, json\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "from test_farm import sleep_unit\n"
        "from generator.scale import PoolExecutor, Progress, Unit, run_units\n"
        "if __name__ == '__main__':\n"
        "    units = [Unit('fast', sleep_unit, ('compile', 0.0))] + [Unit(f's{i}', sleep_unit, ('compile', 60.0)) for i in range(4)]\n"
        f"    kept = open({str(tmp_path / 'kept')!r}, 'a')\n"
        "    def store(r):\n"
        "        kept.write(r.unit.key + '\\n'); kept.flush()\n"
        "        print('stored', flush=True)\n"
        "    try:\n"
        "        run_units(units, PoolExecutor(2), store, Progress('t', len(units), 'text'))\n"
        "    except KeyboardInterrupt:\n"
        "        print('interrupted', flush=True)\n"
        "        sys.exit(130)\n")
    # a pytest-xdist worker ignores SIGINT, and a child would inherit that: Ctrl-C's default comes back first
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "stored"
    time.sleep(0.5)                             # the long units are running now
    t = time.time()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in out, err
    assert time.time() - t < 30                 # the 60-second units were stopped, not waited for
    assert "(interrupted: what finished is kept)" in err
    assert (tmp_path / "kept").read_text() == "fast\n"
