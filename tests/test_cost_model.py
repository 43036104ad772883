"""The cost model (`select.cost`) and this CPU's calibration (`select.calibration`): what `kgen tune`
measures only the close calls by, and what `--alg=auto` weighs AMX's tiles and Winograd with."""
from __future__ import annotations

import dataclasses
import io
import json
import os
import shlex
import subprocess
import sys

import numpy as np
import pytest

from generator.benchdnn.conv import conv_problem, parse_conv_args
from generator.bench.tune import prune_candidates, tune
from generator.compile import get_backend
from generator.compile.host import host_cpu_flags
from generator.errors import ArtifactError, RunError
from generator.select import Choice, calibration, choose, cost, model_choice, probe, rule_choice, work
from generator.select import model_alternatives as select_alternatives
from generator.select.calibration import Calibration
from generator.select.candidates import USER_LAYOUT, plan_candidates

# a 2-core AVX-512 CPU with VNNI and bf16 dot products (the Zen 4's figures), and an AMX Xeon's
CAL = Calibration("test-cpu", "a test CPU", 2, {"vpdpbusd": [420e9, 845e9], "vdpbf16ps": [231e9, 451e9],
                                                "vfmadd231ps": [114e9, 231e9]}, 42e9)
GHZ = 2.6e9
AMX_CAL = Calibration("test-amx", "an AMX test CPU", 2, {
    "vpdpbusd": [778e9, 1500e9], "vdpbf16ps": [90e9, 180e9], "vfmadd231ps": [184e9, 364e9],
    "tdpbusd": [2048 * GHZ, 2 * 2048 * GHZ], "tdpbf16ps": [1024 * GHZ, 2 * 1024 * GHZ]}, 40e9)
U8 = ["--dt=u8:s8:u8", "--attr-scales=src:common:0.5+wei:per_oc+dst:common:2"]


def problem(*args):
    (case,) = parse_conv_args(list(args))
    return conv_problem(case)


def with_alg(p, alg):
    return dataclasses.replace(p, alg=alg)


@pytest.fixture
def fixed_calibration(monkeypatch):
    """`--alg=auto` and `kgen tune` price with `CAL`, not with what this machine measures."""
    monkeypatch.setattr(calibration, "current", lambda log=None: CAL)
    return CAL


def amx_backend():
    b = get_backend("llvm-cpu")
    return dataclasses.replace(b, cpu_features=b.cpu_features | {"amx_bf16", "amx_int8", "avx512_bf16", "avx512_vnni"},
                               bf16_dot_slow=True)


# ------------------------------------------------------------------------------------------ calibration
@pytest.fixture
def own_calibration(tmp_path, monkeypatch):
    """This machine's calibration, in a cache of the test's own (not the session's pinned one)."""
    monkeypatch.delenv("KGEN_CALIBRATION", raising=False)
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(calibration, "_current", {})
    return tmp_path


def test_calibration_measures_this_cpus_instructions_once_and_keeps_them(own_calibration, monkeypatch):
    tmp_path = own_calibration
    cal = calibration.current()
    have = set(calibration.available(host_cpu_flags()))
    # every instruction the CPU lists; AMX's only where the kernel grants the tile state
    assert {i for i in have if not i.startswith("tdp")} <= set(cal.rates) <= have
    for one, every in cal.rates.values():
        assert one > 1e9 and every >= one * 0.5
    assert cal.copy_bytes_per_s > 1e8 and cal.threads >= 1
    # each vector instruction's brgemm probe, compiled and run: a fraction of the loop's rate, as far as
    # a VM's neighbour lets it be one: not 5x slower, and at most 3x faster (`KERNEL_SCALE_LIMITS`):
    # a test worker on the other vCPU slowed the register-only loop more than the probe, which then
    # read 1.74 of it (vdpbf16ps, under CI)
    probed = {n for n in probe.PROBES if (i := probe.probe_instruction(n)) in cal.rates
              and work.instruction(probe.probe_problem(n)) == i}
    assert set(cal.kernels) == probed and probed
    for name, reached in cal.kernels.items():
        assert (0.2 if name in probe.PROBE_REFERENCE else 0.01) < reached < cost.KERNEL_SCALE_LIMITS[1], (name, reached)
        assert 0.33 <= cost.kernel_scale(cal, probe.probe_instruction(name), probe.probe_problem(name)) <= 3
    assert (tmp_path / "calibration.json").is_file()
    # a new process reads it back: nothing is measured again
    monkeypatch.setattr(calibration, "_current", {})
    monkeypatch.setattr(calibration, "measure", lambda threads=None, log=None: pytest.fail("measured again"))
    assert calibration.current() == cal
    assert cal.model in cal.line() and "GB/s" in cal.line()


def test_calibration_runs_again_an_instruction_measured_in_a_window_of_the_vm(monkeypatch):
    # each loop's two threads run at twice one thread's rate, except in a window of the VM (both at one
    # thread's rate): the rounds run every instruction once each, and one whose threads scale less than
    # the others' (or than two threads on two cores) is run again until it does
    from types import SimpleNamespace
    names = ["vpdpbusd", "vdpbf16ps", "vfmadd231ps"]
    monkeypatch.setattr(calibration, "available", lambda flags: list(names))
    monkeypatch.setattr(probe, "measure_probes", lambda instrs, threads, log=None: {})
    monkeypatch.setattr(calibration, "LAGGARD_PAUSE_S", 0)
    calls = []

    def run(window, cores, one_thread_slow=False):
        calls.clear()
        monkeypatch.setattr(calibration, "host_cores", lambda cpus: cores)

        def fake_measure(threads, seconds, instructions, flags):
            slow = len(calls) in window
            calls.append(instructions[0])
            one = 0.5e11 if slow and one_thread_slow else 1e11
            return [SimpleNamespace(why_not=None, rates={1: one, 2: (2 if one_thread_slow or not slow else 1) * 1e11})]
        monkeypatch.setattr(calibration.peak, "measure", fake_measure)
        return calibration.measure(2)

    rounds = calibration.LOOP_RUNS
    # in rounds: every instruction once a round, each instruction's runs spread over the rounds
    cal = run(window=(), cores=2)
    assert calls == names * rounds and all(r == [1e11, 2e11] for r in cal.rates.values())
    # a window as long as one instruction's runs back to back leaves every instruction a run outside it
    cal = run(window=range(rounds), cores=2)
    assert len(calls) == len(names) * rounds and all(r == [1e11, 2e11] for r in cal.rates.values())
    # a window over every run of the first instruction and the first two rounds of the others: the
    # first is run again, alone, until its threads scale as the others' do
    cal = run(window=range(len(names) * (rounds - 1) + 1), cores=2)
    assert calls[len(names) * rounds:] == [names[0]] and all(r == [1e11, 2e11] for r in cal.rates.values())
    # a window over all of them: two threads on two cores should scale by two, so all run again
    cal = run(window=range(len(names) * rounds), cores=2)
    assert calls[len(names) * rounds:] == names and all(r == [1e11, 2e11] for r in cal.rates.values())
    # ... which nothing can tell where the topology is unknown, or the threads share a core
    for cores in (None, 1):
        cal = run(window=range(len(names) * rounds), cores=cores)
        assert len(calls) == len(names) * rounds and all(r == [1e11, 1e11] for r in cal.rates.values())
    # every one-thread run of the first instruction in a window (its threads "scale" by 4): it runs again
    cal = run(window=range(0, len(names) * rounds, len(names)), cores=None, one_thread_slow=True)
    assert calls[len(names) * rounds:] == [names[0]] and all(r == [1e11, 2e11] for r in cal.rates.values())
    # a window that does not end: `LOOP_RUNS_MAX` rounds, then the best measured
    cal = run(window=range(10 ** 6), cores=2)
    assert len(calls) == len(names) * calibration.LOOP_RUNS_MAX and cal.rates["vpdpbusd"] == [1e11, 1e11]


def test_host_cores_counts_a_cores_hyperthreads_once(tmp_path):
    # what `_lagging` expects two threads to scale by: the cores under the CPUs, from sysfs
    from generator.compile.host import host_cores

    for cpu, (package, core) in enumerate([(0, 0), (0, 0), (0, 1), (1, 0)]):
        topo = tmp_path / f"cpu{cpu}" / "topology"
        topo.mkdir(parents=True)
        (topo / "physical_package_id").write_text(f"{package}\n")
        (topo / "core_id").write_text(f"{core}\n")
    assert host_cores([0, 1], str(tmp_path)) == 1          # two hyperthreads of one core
    assert host_cores([0, 2], str(tmp_path)) == 2
    assert host_cores([0, 1, 2, 3], str(tmp_path)) == 3    # core 0 of another package is another core
    assert host_cores([0, 7], str(tmp_path)) is None       # not readable: unknown


def test_the_tiles_probe_is_brgemm_amx_run_with_the_tiles_emulated(monkeypatch):
    # the AMX probe compiled and run end to end on any AVX-512 CPU with bf16: its tile instructions
    # emulated (TargetCaps.emulate_amx) and the loop's rate pinned, so the fraction is the kernel's
    # operations over its time at that rate
    from generator.compile.host import host_matrix_features
    from generator.runtime import peak
    if "avx512_bf16" not in host_matrix_features():
        pytest.skip("the host CPU has no avx512_bf16 to emulate the tiles with")
    b = get_backend("llvm-cpu")
    emulated = dataclasses.replace(b, cpu_features=b.cpu_features | {"amx_int8", "amx_bf16"}, emulate_amx=True)
    monkeypatch.setattr(probe, "get_backend", lambda name: emulated)
    rate = 1e12
    monkeypatch.setattr(peak, "measure", lambda **kw: [peak.PeakRow(peak.LOOPS[0], {1: rate})])
    for name in ("tdpbf16ps", "tdpbf16ps/1x1"):
        p = probe.probe_problem(name)
        assert p.alg == "brgemm_amx" and work.instruction(p) == "tdpbf16ps"
        assert probe.probe_name("tdpbf16ps", p) == name
    got = probe.measure_probes(["tdpbf16ps", "vdpbf16ps"])
    assert set(got) == {"tdpbf16ps", "tdpbf16ps/1x1", "vdpbf16ps"}
    for name in ("tdpbf16ps", "tdpbf16ps/1x1"):
        assert 1e-4 < got[name] < 1.0           # emulated on the vector unit: far below a tile's rate


def test_the_tiles_probe_scales_the_amx_model_against_its_own_prediction():
    # the tiles' reference is what AMX_MODEL predicts for the probe, so a tile kernel that reaches
    # more or less than that here moves every brgemm_amx prediction of its class (kxk or 1x1) by the
    # same factor
    b = amx_backend()
    for name in ("tdpbf16ps", "tdpbusd", "tdpbf16ps/1x1", "tdpbusd/1x1"):
        ref = cost.probe_reference(name)
        assert ref == pytest.approx(cost.amx_efficiency(probe.probe_problem(name)))
        assert 0.03 < ref < 0.6
    p = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "--alg=brgemm_amx", "mb1ic64ih56oc64oh56kh3ph1")
    ref = cost.probe_reference("tdpbf16ps")
    est = [cost.estimate(p, b, dataclasses.replace(AMX_CAL, kernels={"tdpbf16ps": f * ref}), driver="host-threads")
           for f in (1.0, 0.5, 2.0, 10.0)]
    assert cost.estimate(p, b, AMX_CAL, driver="host-threads").compute == pytest.approx(est[0].compute)
    assert est[1].compute == pytest.approx(2 * est[0].compute) and est[2].compute == pytest.approx(est[0].compute / 2)
    assert est[3].compute == pytest.approx(est[0].compute / cost.KERNEL_SCALE_LIMITS[1])
    # the 3x3 probe does not move a 1x1 layer, the 1x1 probe does
    one = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "--alg=brgemm_amx", "mb1ic64ih56oc64oh56kh1ph0")
    ref1 = cost.probe_reference("tdpbf16ps/1x1")
    base, k3, k1 = (cost.estimate(one, b, dataclasses.replace(AMX_CAL, kernels=k), driver="host-threads").compute
                    for k in ({}, {"tdpbf16ps": 2 * ref}, {"tdpbf16ps/1x1": 2 * ref1}))
    assert k3 == pytest.approx(base) and k1 == pytest.approx(base / 2)
    # and moves auto's choice: bf16's 64-channel 1x1 layer goes to the tiles where they run 1.5x the
    # model; u8's 56x56 3x3 layer leaves them where they run 0.7x
    picks = {}
    for dt, vector, instr, line in ((["--dt=bf16"], "brgemm_fma", "tdpbf16ps", "mb1ic64ih56oc64oh56kh1ph0"),
                                    (U8, "brgemm", "tdpbusd", "mb1ic64ih56oc64oh56kh3ph1")):
        p = with_alg(problem(*dt, "--stag=nhwc", "--dtag=nhwc", line), "auto")
        rule = Choice(vector, "default", "heuristic", driver="host-threads")
        name = probe.probe_name(instr, p)
        for f in (0.7, 1.0, 1.5):
            cal = dataclasses.replace(AMX_CAL, kernels={name: f * cost.probe_reference(name)})
            picks[instr, f] = model_choice(p, b, rule, cal).variant
    assert [picks["tdpbf16ps", f] for f in (0.7, 1.0, 1.5)] == ["brgemm_fma", "brgemm_fma", "brgemm_amx"]
    assert [picks["tdpbusd", f] for f in (0.7, 1.0, 1.5)] == ["brgemm", "brgemm_amx", "brgemm_amx"]


def test_a_tile_probe_this_cpu_cannot_run_is_left_out_with_its_reason():
    from generator.compile.host import host_matrix_features
    if {"amx_bf16", "amx_int8"} & set(host_matrix_features()):
        pytest.skip("this CPU has the tiles: its calibration probes them")
    heard = []
    assert probe.measure_probes(["tdpbusd", "tdpbf16ps"], log=heard.append) == {}
    assert len(heard) == 4 and all("left out" in h and "amx" in h for h in heard), heard
    # the same in the process of their own the calibration runs them in: its log lines come back
    heard.clear()
    why = {}
    assert probe.measure_probes_apart(["tdpbusd"], 2, log=heard.append, left_out=why) == {}
    assert len(heard) == 2 and all("left out" in h and "amx_int8" in h for h in heard), heard
    assert set(why) == {"tdpbusd", "tdpbusd/1x1"} and "needs a CPU with amx_int8" in why["tdpbusd"]


@pytest.mark.parametrize("child, kept", [
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", False),     # a tile kernel that faults
    ("import sys; sys.exit('no tiles here')", False),
    ("import json; print(json.dumps({'kernels': {'tdpbf16ps': 0.5, 'tdpbf16ps/1x1': 0.1}, 'log': ['  heard']}))", True),
])
def test_tiles_whose_probe_does_not_run_leave_the_model_not_the_process(child, kept, monkeypatch):
    from generator.runtime import peak
    monkeypatch.setattr(calibration, "available", lambda flags: ["vfmadd231ps", "tdpbf16ps"])
    monkeypatch.setattr(peak, "measure", lambda **kw: [peak.PeakRow(peak.LOOPS[0], {1: 1e11, 2: 2e11})])
    monkeypatch.setattr(probe, "measure_probes", lambda names, threads=1, backend="llvm-cpu", log=None:
                        {n: 1.0 for n in names})
    monkeypatch.setattr(probe, "_apart_command", lambda names, threads: [sys.executable, "-c", child])
    heard = []
    cal = calibration.measure(2, log=heard.append)
    assert "vfmadd231ps" in cal.rates and cal.kernels["vfmadd231ps"] == 1.0
    if kept:
        assert "tdpbf16ps" in cal.rates and cal.kernels["tdpbf16ps"] == 0.5 and heard == ["  heard"]
    else:
        assert "tdpbf16ps" not in cal.rates and not any(k.startswith("tdp") for k in cal.kernels)
        assert "the probe process died" in heard[0] and "leave the tiles out" in heard[1], heard
        assert "the probe process died" in cal.left_out["tdpbf16ps"] and "tdpbf16ps left out" in cal.line()
        assert calibration._from_json(dataclasses.asdict(cal)) == cal          # stored and read back
        # and so the model prices no AMX candidate on this CPU, and a sweep runs none
        p = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "--alg=brgemm_amx", "mb1ic64ih56oc64oh56kh3ph1")
        assert cost.estimate(p, amx_backend(), cal) is None
        monkeypatch.setattr(calibration, "current", lambda log=None: cal)
        cands = plan_candidates(p, amx_backend(), ["brgemm_amx", "brgemm"], ["nhwc"], ["default"])
        assert [c.status for c in cands][1] == "ok"
        assert cands[0].status.startswith("n/a: the tiles' probe did not run on this CPU (the probe process died")
        monkeypatch.setattr(calibration, "current", lambda log=None: AMX_CAL)
        assert all(c.status == "ok" for c in plan_candidates(p, amx_backend(), ["brgemm_amx"], ["nhwc"], ["default"]))


def test_calibration_without_its_loops_falls_back_to_nominal_rates(own_calibration, monkeypatch):
    from generator.runtime import peak

    def no_compiler(**kw):
        raise RunError("kgen bench peak needs its C loops: no C compiler")
    monkeypatch.setattr(peak, "measure", no_compiler)
    cal = calibration.measure(2)
    assert cal.source.startswith("nominal: ") and "no C compiler" in cal.source
    for name, (one, every) in cal.rates.items():
        assert one == calibration.NOMINAL_RATES[name] and every == 2 * one
    assert cal.kernels == {}            # no probe against a nominal rate: the fitted efficiencies stand
    # nominal rates are this process's only: a compiler installed later measures
    monkeypatch.setattr(calibration, "measure", lambda threads=None, log=None: dataclasses.replace(cal, threads=threads))
    calibration.current()
    assert not (own_calibration / "calibration.json").exists()


def test_a_calibration_that_cannot_be_read_is_measured_over(own_calibration, monkeypatch):
    tmp_path = own_calibration
    measured = []

    def fake_measure(threads=None, log=None):
        measured.append(threads)
        return dataclasses.replace(CAL, cpu=calibration.host_cpu_id(), threads=threads)
    monkeypatch.setattr(calibration, "measure", fake_measure)
    key = calibration._key(calibration.host_cpu_id(), calibration.cpu_threads())
    for text in ("{not json", json.dumps({"version": 0, "cpus": {}}),
                 json.dumps({"version": calibration.CALIBRATION_VERSION, "cpus": {key: {"rates": 3}}})):
        (tmp_path / "calibration.json").write_text(text)
        monkeypatch.setattr(calibration, "_current", {})
        assert calibration.current().model == CAL.model
    assert len(measured) == 3
    assert json.loads((tmp_path / "calibration.json").read_text())["cpus"][key]["model"] == CAL.model
    # a pinned calibration that is not one is a one-line error naming the variable
    bad = tmp_path / "pinned.json"
    bad.write_text("[]")
    monkeypatch.setenv("KGEN_CALIBRATION", str(bad))
    with pytest.raises(ArtifactError, match=r"\$KGEN_CALIBRATION=.*not a calibration"):
        calibration.current()


def test_kgen_calibrate_prints_the_stored_calibration(tmp_path):
    env = {**os.environ, "KGEN_CACHE_DIR": str(tmp_path)}
    env.pop("KGEN_CALIBRATION", None)
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "calibrate", "--show"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("calibration of ") and "calibration.json" in r.stdout
    assert "calibrating this CPU" in r.stderr          # none was stored: measured once
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "calibrate", "--bogus"], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "unrecognized arguments" in r.stderr


# ------------------------------------------------------------------------------------------ the model
def test_the_model_prices_work_relayout_and_the_call():
    b = get_backend("llvm-cpu")
    nhwc = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic64ih56oc64oh56kh3ph1")
    nchw = problem("--dt=bf16", "mb1ic64ih56oc64oh56kh3ph1")
    e_cl = cost.estimate(with_alg(nhwc, "brgemm"), b, CAL, driver="host-threads")
    e_pl = cost.estimate(with_alg(nchw, "brgemm"), b, CAL, driver="host-threads")
    # brgemm computes channels last: an nchw source and destination are moved once more each
    assert e_pl.memory - e_cl.memory == pytest.approx(2 * (nchw.src.size_bytes + nchw.dst.size_bytes) / (2 * CAL.copy_bytes_per_s))
    assert e_cl.instruction == "vdpbf16ps" and e_cl.threads == 2
    # two threads beat one on a large layer; one thread's call is cheaper on a tiny one
    e_one = cost.estimate(with_alg(nhwc, "brgemm"), b, CAL, driver="local-sync")
    assert e_cl.seconds < e_one.seconds and e_one.threads == 1
    tiny = with_alg(problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic16ih4oc16oh4kh1ph0"), "brgemm")
    assert cost.estimate(tiny, b, CAL, driver="local-sync").seconds < cost.estimate(tiny, b, CAL).seconds
    # Winograd F(4, 3) multiplies 36 values a 4 x 4 tile instead of 144, and pays its transforms
    wino = work.kernel_ops(with_alg(nhwc, "winograd_f4"))
    gemm = 2 * 14 * 14 * 36 * 64 * 64
    assert wino == gemm + work.WINOGRAD_TRANSFORM_OPS * 14 * 14 * 36 * 128
    assert wino < work.kernel_ops(with_alg(nhwc, "brgemm")) / 2.5
    # AMX's tile rows hold 32 bf16 channels: the stem's 3 a tap would cost a whole row (an s8 source's
    # do); its 7 taps of 4 padded channels folded into one row cost 32 for 21, and its rows of 112 pixels
    # (stride 2: not one run) are computed as 4 blocks of 32
    stem = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic3ih224oc64oh112kh7sh2ph3")
    assert work.kernel_ops(with_alg(stem, "brgemm_amx")) == pytest.approx(32 / 21 * 128 / 112 * stem.desc.flops())
    # a 7x7 3x3 layer: one run of 7 rows x 9 padded columns, 2 blocks (row by row it would be 7 x 32)
    small = with_alg(problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic512ih7oc512oh7kh3ph1"), "brgemm_amx")
    assert work.amx_pixels(small) == 64 and work.kernel_ops(small) == pytest.approx(64 / 49 * small.desc.flops())
    s8_stem = problem("--dt=s8:s8:s32", "--stag=nhwc", "--dtag=nhwc", "mb1ic3ih224oc64oh112kh7sh2ph3")
    assert work.kernel_ops(with_alg(s8_stem, "brgemm_amx")) >= 10 * s8_stem.desc.flops()
    assert work.kernel_ops(with_alg(stem, "brgemm")) < 1.2 * stem.desc.flops()      # taps folded into channels


def test_the_model_says_what_it_does_not_price():
    b = get_backend("llvm-cpu")
    grouped = with_alg(problem("--dt=f32", "g32mb1ic128ih28oc128oh28kh3ph1"), "brgemm")
    assert cost.covers(grouped, b) and cost.estimate(grouped, b, CAL) is None
    plain = with_alg(problem("--dt=f32", "mb1ic16ih8oc16oh8kh3ph1"), "brgemm")
    assert "no cost model" in cost.covers(plain, get_backend("vulkan"))
    # an instruction the CPU lacks: AMX on CAL's CPU
    assert cost.estimate(with_alg(problem("--dt=bf16", "mb1ic16ih8oc16oh8kh3ph1"), "brgemm_amx"), b, CAL) is None


def test_kgen_conv_measures_the_calibration_with_no_compile_running(own_calibration, monkeypatch):
    """`kgen conv --jobs=2` compiles ahead: the first --alg=auto case waits for the compiles before it,
    and the calibration is measured before its own and the later ones start."""
    import threading
    import time

    from generator.cli import conv_cmd

    events, running, lock = [], set(), threading.Lock()

    def compile_ahead(case):
        with lock:
            running.add(case.desc)
            events.append(("start", case.alg))
        time.sleep(0.05)
        with lock:
            running.discard(case.desc)

    def measure(threads=None, log=None):
        events.append(("calibrate", tuple(running)))
        return dataclasses.replace(CAL, cpu=calibration.host_cpu_id(), threads=threads)
    monkeypatch.setattr(conv_cmd, "_compile_ahead", compile_ahead)
    monkeypatch.setattr(conv_cmd, "_one", lambda case: ("passed", None, case))
    monkeypatch.setattr(calibration, "measure", measure)
    out = io.StringIO()
    shapes = ["mb1ic16ih8oc16oh8kh3ph1", "mb1ic16ih9oc16oh9kh3ph1", "mb1ic16ih10oc16oh10kh3ph1"]
    assert conv_cmd.run(["--jobs=2", "--alg=direct", *shapes, "--alg=auto", *shapes], out) == 0
    assert "tests:6 passed:6" in out.getvalue()
    at = events.index(("calibrate", ()))            # nothing compiling while it measured
    assert [e for e in events[:at]] == [("start", "direct")] * 3
    assert [e for e in events[at + 1:]] == [("start", "auto")] * 3
    # a run without --alg=auto does not calibrate
    events.clear()
    assert conv_cmd.run(["--jobs=2", "--alg=direct", *shapes], io.StringIO()) == 0
    assert ("calibrate", ()) not in events


# ------------------------------------------------------------------------------------------ --alg=auto
def test_auto_takes_amx_where_the_model_puts_the_tiles_ahead():
    b = amx_backend()
    picked = {}
    for dt in (["--dt=bf16"], U8):
        vector = "brgemm_fma" if dt == ["--dt=bf16"] else "brgemm"
        for line in ("mb1ic64ih56oc64oh56kh3ph1", "mb1ic128ih28oc128oh28kh3ph1", "mb1ic3ih224oc64oh112kh7sh2ph3",
                     "mb1ic64ih56oc64oh56kh1ph0", "mb1ic512ih7oc512oh7kh3ph1"):
            p = with_alg(problem(*dt, "--stag=nhwc", "--dtag=nhwc", line), "auto")
            rule = Choice(vector, "default", "heuristic", driver="host-threads")
            picked[dt[0], line] = model_choice(p, b, rule, AMX_CAL).variant
    # bf16 3x3: the tiles, 5x the FMAs; a 64-channel 1x1 stays on the vector kernel (measured on an AMX
    # Xeon: docs/performance.md); the stem's rows folded into one tile row each (7 instructions a block
    # for 49) put the tiles ahead in bf16 (predicted, not measured), not in u8; the 7x7 3x3 layer, one
    # run of 64 pixels where rows took 224, on the tiles in both
    assert picked["--dt=bf16", "mb1ic64ih56oc64oh56kh3ph1"] == "brgemm_amx"
    assert picked["--dt=bf16", "mb1ic128ih28oc128oh28kh3ph1"] == "brgemm_amx"
    assert picked["--dt=bf16", "mb1ic3ih224oc64oh112kh7sh2ph3"] == "brgemm_amx"
    assert picked["--dt=u8:s8:u8", "mb1ic3ih224oc64oh112kh7sh2ph3"] == "brgemm"
    assert picked["--dt=u8:s8:u8", "mb1ic64ih56oc64oh56kh1ph0"] == "brgemm"
    assert picked["--dt=bf16", "mb1ic512ih7oc512oh7kh3ph1"] == picked["--dt=u8:s8:u8", "mb1ic512ih7oc512oh7kh3ph1"] == "brgemm_amx"
    # the kernel probe scales the vector kernels' fitted efficiencies (brgemm's on vpdpbusd here): a CPU
    # whose brgemm reaches 0.75x of what the fitting CPU's did (the Xeon's 990-1076 GOP/s on the 3x3
    # layers against ~1350 predicted from its loop's rate) prices it 1/0.75 slower, and one whose
    # brgemm reaches 1.3x its rate faster: the u8 56x56 3x3 layer goes to the tiles or stays
    ref = probe.PROBE_REFERENCE["vpdpbusd"]
    slow, fast = (dataclasses.replace(AMX_CAL, kernels={"vpdpbusd": f * ref}) for f in (0.75, 1.3))
    p = with_alg(problem(*U8, "--stag=nhwc", "--dtag=nhwc", "mb1ic64ih56oc64oh56kh3ph1"), "auto")
    vec = [cost.estimate(with_alg(p, "brgemm"), b, c, driver="host-threads") for c in (AMX_CAL, slow, fast)]
    assert vec[1].compute == pytest.approx(vec[0].compute / 0.75) and vec[2].compute == pytest.approx(vec[0].compute / 1.3)
    rule = Choice("brgemm", "default", "heuristic", driver="host-threads")
    assert model_choice(p, b, rule, slow).variant == "brgemm_amx"
    assert model_choice(p, b, rule, fast).variant == "brgemm"
    # without the tiles, nothing changes
    p = with_alg(problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic64ih56oc64oh56kh3ph1"), "auto")
    b = get_backend("llvm-cpu")
    no_tiles = dataclasses.replace(b, cpu_features=b.cpu_features - {"amx_bf16", "amx_int8", "amx_tile"})
    assert "brgemm_amx" not in select_alternatives(p, no_tiles)


#: untuned --alg=auto on an AMX CPU across the problem classes: the variant it picks, and the problem
#: (small enough to run with the tiles emulated)
AUTO_ON_AMX = [
    ("brgemm_amx", "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=relu mb1ic64ih28oc64oh28kh3ph1"),
    ("brgemm_amx", "--dt=bf16 --stag=nhwc --dtag=nhwc --attr-post-ops=sum mb1ic128ih14oc64oh14kh1ph0"),
    ("brgemm_amx", "--dt=bf16 --stag=nhwc --dtag=nhwc mb1ic3ih64oc32oh32kh7sh2ph3"),            # a folded stem
    ("brgemm_amx", "--dt=bf16:bf16:f32 --stag=nhwc --dtag=nhwc --attr-post-ops=eltwise_swish:1 mb1ic64ih7oc128oh7kh3ph1"),
    ("brgemm_amx", "--dt=bf16 --stag=nchw --dtag=nchw mb1ic64ih28oc64oh28kh3ph1"),
    ("brgemm_amx", "--dt=bf16 --stag=nwc --dtag=nwc mb1ic256iw100oc256ow100kw3pw1"),
    ("brgemm_amx", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
                   "--attr-zero-points=dst:common:3 --attr-post-ops=relu mb1ic128ih28oc128oh28kh3ph1"),
    ("brgemm_amx", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
                   "mb1ic512ih7oc512oh7kh3ph1"),
    ("brgemm_amx", "--dt=u8:s8:s32 --stag=nhwc --dtag=nhwc --attr-zero-points=src:common:3 mb1ic256ih14oc256oh14kh3ph1"),
    ("brgemm_amx", "--dt=s8:s8:s32 --stag=nhwc --dtag=nhwc mb1ic256ih14oc256oh14kh3ph1"),
    ("brgemm_amx", "--dt=u8:s8:u8 --stag=nChw16c --dtag=nChw16c --attr-scales=src:common:0.5+dst:common:2 "
                   "mb1ic256ih14oc256oh14kh3ph1"),
    # 3D: a bf16 3x3x3 layer on the tiles, each plane a run of pixel blocks
    ("brgemm_amx", "--dt=bf16 --stag=ndhwc --dtag=ndhwc mb1ic64id4ih14iw14oc64kd3kh3kw3pd1ph1pw1"),
    # groups of 64 and of 16 channels (ResNeXt-50's third stage), each group's own channels on the tiles
    ("brgemm_amx", "--dt=bf16 --stag=nhwc --dtag=nhwc g2mb1ic128ih14oc128oh14kh3ph1"),
    ("brgemm_amx", "--dt=bf16 --stag=nhwc --dtag=nhwc g32mb1ic512ih7oc512oh7kh3ph1"),
    # a strided u8 1x1 layer stays on vpdpbusd; so do u8 groups of 16, where each tile row holds 16 of
    # its 64 bytes; a small u8 3D layer, its 6x6 planes 36 of the 64 pixels the tiles compute, within
    # the model's margin
    ("brgemm", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
               "mb1ic256ih28oc128oh14kh1sh2ph0"),
    ("brgemm", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+dst:common:2 "
               "g32mb1ic512ih7oc512oh7kh3ph1"),
    ("brgemm", "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=src:common:0.5+dst:common:2 "
               "mb1ic64id6ih6iw6oc64od6oh6ow6kd3kh3kw3pd1ph1pw1"),
]


@pytest.mark.parametrize("variant, line", [pytest.param(v, line, marks=() if i in (0, 6) else pytest.mark.full)
                                           for i, (v, line) in enumerate(AUTO_ON_AMX)])
def test_untuned_auto_on_an_amx_cpu_is_correct_whatever_it_picks(variant, line):
    # the path a user of an AMX CPU gets without tuning: the rule and the model on that CPU's
    # calibration (AMX_CAL), then the kernel it picks on its driver, checked against the float64
    # reference with the tiles emulated on this CPU
    from generator.compile.host import host_matrix_features
    from generator.select import heuristic
    from generator.verify import check_conv
    from generator.api import ConvKernel
    if not {"avx512_bf16", "avx512_vnni"} <= set(host_matrix_features()):
        pytest.skip("the host CPU has no avx512_bf16 and avx512_vnni to emulate the tiles with")
    b = get_backend("llvm-cpu")
    emulated = dataclasses.replace(b, cpu_features=b.cpu_features | {"amx_int8", "amx_bf16"}, emulate_amx=True)
    p = problem(*shlex.split(line), "--alg=auto")
    c = heuristic(p, emulated, AMX_CAL)
    assert c.variant == variant
    q = with_alg(p, c.variant)
    assert check_conv(ConvKernel(q, emulated, flags=c.flags, driver=c.driver), q) is None


def test_auto_keeps_exact_variants_for_integers_and_weighs_winograd_for_floats(fixed_calibration):
    p = problem(*U8, "--stag=nhwc", "--dtag=nhwc", "--alg=auto", "mb1ic64ih56oc64oh56kh3ph1")
    assert choose(p, "llvm-cpu") == rule_choice(p, "llvm-cpu")
    assert not [v for v in select_alternatives(p, get_backend("llvm-cpu")) if v.startswith("winograd")]
    for dt in ("f32", "bf16", "f16"):
        p = problem(f"--dt={dt}", "--stag=nhwc", "--dtag=nhwc", "--alg=auto", "mb1ic64ih56oc64oh56kh3ph1")
        assert "winograd_f4" in select_alternatives(p, get_backend("llvm-cpu"))
    # a 1x1 or strided layer has no Winograd form: the rule's kernel
    p = problem("--dt=f32", "--stag=nhwc", "--dtag=nhwc", "--alg=auto", "mb1ic64ih56oc64oh56kh1ph0")
    assert choose(p, "llvm-cpu") == rule_choice(p, "llvm-cpu")


def test_auto_runs_winograd_where_the_model_puts_it_ahead_and_checks_within_its_bound(fixed_calibration):
    from generator.api import ConvKernel
    from generator.verify import check_conv
    for dt, line in (("bf16", "mb1ic64ih28oc64oh28kh3ph1"), ("f32", "mb1ic16ih28oc16oh28kh3ph1")):
        p = problem(f"--dt={dt}", "--stag=nhwc", "--dtag=nhwc", "--alg=auto", line)
        c = choose(p, "llvm-cpu")
        assert c.variant == "winograd_f4" and c.source == "heuristic", (dt, c)
        k = ConvKernel(p, "llvm-cpu")
        assert k.problem.alg == "winograd_f4" and k.problem.tolerance > 0
        # the check holds the kernel to Winograd's bound, not to the exact kernels' zero
        assert check_conv(k, p) is None


# ------------------------------------------------------------------------------------------ kgen tune
def test_tune_measures_only_the_close_calls_and_the_untuned_choice(fixed_calibration):
    b = get_backend("llvm-cpu")
    p = problem("--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic64ih56oc64oh56kh3ph1")
    drivers = [None, "local-sync", "host-threads"]
    cands = plan_candidates(p, b, ["direct", "im2col", "indirect", "spatial_pack", "brgemm", "brgemm_fma",
                                   "winograd_f2", "winograd_f4", "winograd_f6"],
                            [USER_LAYOUT], [n for n, _ in b.flag_sets])
    applicable = sum(c.status == "ok" for c in cands)
    note = prune_candidates(cands, drivers, b, CAL)
    kept = [c for c in cands if c.status == "ok"]
    assert f"keeps {len(kept)}" in note and len(kept) <= 6 < applicable
    # flags change nothing in kernels kgen emits itself: measured once, with the default flags
    assert all(c.flags == "default" for c in kept if c.variant in cost.FLAG_FREE)
    assert any(c.status.startswith("pruned: flags change nothing") for c in cands)
    # the fastest prediction and --alg=auto's untuned choice are kept; the rest is over 1.3x the fastest
    best = min(c.predicted for c in kept)
    untuned = choose(with_alg(p, "auto"), "llvm-cpu")
    assert any((c.variant, c.flags) == (untuned.variant, untuned.flags) for c in kept)
    for c in cands:
        if c.status.startswith("pruned: predicted"):
            assert c.predicted > cost.PRUNE_FACTOR * best
    # a problem the model does not price (groups of 4 channels, across brgemm's lanes) is measured in full
    grouped = problem("--dt=f32", "--stag=nhwc", "--dtag=nhwc", "g8mb1ic32ih8oc32oh8kh3ph1")
    cands = plan_candidates(grouped, b, ["direct", "im2col", "brgemm"], [USER_LAYOUT], ["default"])
    ok = sum(c.status == "ok" for c in cands)
    assert "all measured" in prune_candidates(cands, drivers, b, CAL) and sum(c.status == "ok" for c in cands) == ok


def test_kgen_tune_stores_the_fastest_of_the_close_calls(tmp_path, monkeypatch, fixed_calibration, kgen_cache_dir):
    from generator.select import table as tuned
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    (case,) = parse_conv_args(["--dt=bf16", "--stag=nhwc", "--dtag=nhwc", "mb1ic16ih14oc32oh14kh3ph1"])
    log = []
    rows, _ = tune([case], "llvm-cpu", rounds=1, log=log.append)
    (p, r), = rows
    assert any("the cost model keeps" in m for m in log), log
    timed = {(c.variant, c.flags) for c in r.timed}
    applicable = {(c.variant, c.flags) for c in r.candidates if not c.status.startswith("n/a")}
    assert 1 <= len(timed) <= 4 < len(applicable)
    entry = tuned.load()[tuned.problem_key(p, "llvm-cpu")]
    assert entry["variant"] == r.best.variant and np.isfinite(entry["seconds"])
    assert all(c.predicted > 0 for c in r.timed)


def test_amx_fit_recovers_the_model_that_timed_its_figures(monkeypatch, tmp_path):
    # figures made by the model itself with known constants: the fit finds them again, and each
    # problem's prediction is its figure
    from generator.select import amx_fit
    layers = ["mb1ic64ih56oc64oh56kh1ph0", "mb1ic64ih56oc64oh56kh3ph1", "mb1ic256ih56oc64oh56kh1ph0",
              "mb1ic128ih28oc128oh28kh3ph1", "mb1ic256ih14oc256oh14kh3ph1", "mb1ic512ih7oc512oh7kh3ph1",
              "mb1ic3ih224oc64oh112kh7sh2ph3", "mb1ic256ih56oc512oh28kh1sh2ph0"]
    truth = {"bf16": {"kxk": 0.6, "1x1": 0.3, "P0": 40, "K0": 160},
             "int8": {"kxk": 0.45, "1x1": 0.35, "P0": 10, "K0": 640}}
    monkeypatch.setattr(cost, "AMX_MODEL", truth)
    b = amx_backend()
    bench = {"cpu": "test-amx", "problems": []}
    for dt in ("bf16", "u8:s8:u8"):
        for desc in layers:
            p = problem(f"--dt={dt}", "--stag=nhwc", "--dtag=nhwc", "--alg=brgemm_amx", desc)
            e = cost.estimate(p, b, AMX_CAL, driver="host-threads")
            other = {"variant": "brgemm", "layout": "nhwc", "flags": "default", "driver": None, "status": "ok",
                     "seconds": e.seconds / 3}          # not brgemm_amx: not fitted
            bench["problems"].append({"problem": desc, "dt": dt.split(":")[0], "dts": dt, "candidates": [other,
                {"variant": "brgemm_amx", "layout": "nhwc", "flags": "default", "driver": "host-threads",
                 "status": "ok", "seconds": e.seconds},
                {"variant": "brgemm_amx", "layout": "nhwc", "flags": "default", "driver": "local-sync",
                 "status": "ok", "seconds": e.seconds * 2}]})      # the fastest figure counts
    monkeypatch.setattr(cost, "AMX_MODEL", {"bf16": {"kxk": 1, "1x1": 1, "P0": 0, "K0": 0}, "int8": {"kxk": 1, "1x1": 1, "P0": 0, "K0": 0}})
    pts = amx_fit.points(bench, AMX_CAL, b)
    assert len(pts) == 16 and {pt.kind for pt in pts} == {"bf16", "int8"}
    for kind in ("bf16", "int8"):
        model, err = amx_fit.fit([pt for pt in pts if pt.kind == kind])
        assert model == truth[kind] and err < 1e-4, (kind, model)
    # the command: figures of another CPU are refused, a file without brgemm_amx says so
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(bench))
    out = io.StringIO()
    assert amx_fit.main([str(path)], out) == 2 and "measured on CPU test-amx" in out.getvalue()
    monkeypatch.setattr(amx_fit, "host_cpu_id", lambda: "test-amx")
    monkeypatch.setattr(calibration, "current", lambda log=None: AMX_CAL)
    monkeypatch.setattr(amx_fit, "get_backend", lambda name: b)
    out = io.StringIO()
    assert amx_fit.main([str(path)], out) == 0
    assert 'AMX_MODEL["bf16"] = {"P0": 40, "K0": 160, "kxk": 0.6, "1x1": 0.3}' in out.getvalue()
    assert out.getvalue().count("(1.00x)") == 16
    path.write_text(json.dumps({"cpu": "test-amx", "problems": bench["problems"][:1] and [
        {**bench["problems"][0], "candidates": bench["problems"][0]["candidates"][:1]}]}))
    out = io.StringIO()
    assert amx_fit.main([str(path)], out) == 2 and "no brgemm_amx figure" in out.getvalue()
    # a file that is not a bench's: one line, not a traceback
    for text in ("[1, 2]", json.dumps({"cpu": "test-amx", "problems": [{"candidates": [{"variant": "brgemm_amx",
                                                                                     "status": "ok", "seconds": 1}]}]})):
        path.write_text(text)
        out = io.StringIO()
        assert amx_fit.main([str(path)], out) == 2 and "not a kgen bench conv --json file" in out.getvalue()
