"""This CPU's calibration: what the cost model (`select.cost`) turns a candidate's work into seconds
with, measured once per CPU and cached.

* the rate of each multiply-accumulate instruction kgen's kernels are built on, on one thread and on
  every thread at once (`runtime.peak`'s loops on registers only: `vpdpbusd`, `vdpbf16ps`,
  `vfmadd231ps`, and AMX's `tdpbusd`, `tdpbf16ps` where the CPU has them), each the best of a few
  short runs, so that a slow window of a VM does not stand for the CPU. The runs go in rounds, each
  round every instruction once, and an instruction whose threads scale less than the others' is run
  again in a few more rounds (`_lagging`): in a VM's window the two threads ran at one thread's rate
  for 1.2 s and longer, longer than one instruction's runs back to back, and a calibration measured
  so priced that instruction's kernels at half their rate against the others' for good (measured:
  docs/performance.md, Tuned constants);
* one thread's copy bandwidth (a NumPy copy of 16 MB, out of the caches), the best over the rounds;
* what a brgemm kernel reaches of each vector instruction's one-thread rate (`select.probe`): the
  cost model's efficiencies were fitted on one CPU, and scale by this against that CPU's figure.
  The tiles' probes run in a process of their own; where they do not run (a kernel that faults, a
  compile that fails), the tile rates are dropped and the model never takes AMX on this CPU.

It takes two to five seconds (and the probes' compiles, a few seconds more, the first time), at the
first use of the model on a CPU (`kgen tune`, or `--alg=auto` where a problem has no measured entry),
and is kept in ``calibration.json`` in the kernel cache directory,
keyed by the CPU's fingerprint (`compile.cache.host_cpu_id`) and thread count, measured and stored
under a lock (one process measures; the others wait and read it). `kgen calibrate` measures again.
Where no C compiler builds the loops, `NOMINAL_RATES` stand in for this process (not stored), and
the calibration says so. A file that cannot be read is measured over; one that cannot be written
leaves the calibration in this process only. ``$KGEN_CALIBRATION`` names a file holding one
calibration to use on any CPU (the tests pin theirs so).
"""
from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..compile.backends import cpu_threads, request_amx_permission
from ..compile.cache import default_cache_dir, host_cpu_id
from ..compile.host import host_cores, host_cpu_flags, host_cpu_model
from ..errors import ArtifactError, KgenError
from ..runtime import peak                 # its C loops are built on their first run
from . import probe

try:
    import fcntl
except ImportError:             # pragma: no cover - not POSIX: measured under the process's lock only
    fcntl = None

#: the stored calibrations' format and how they were measured: a calibration stored by another version
#: is measured over (the rounds and `_lagging` below: one measured with each loop's runs back to back
#: may hold a window of the VM)
CALIBRATION_VERSION = 4
#: seconds a peak loop runs, and how many rounds (each runs every loop once) each keeps the best of
LOOP_SECONDS = 0.04
LOOP_RUNS = 3
#: more rounds, up to `LOOP_RUNS_MAX` in all and `LAGGARD_PAUSE_S` apart, for the instructions whose
#: rate on every thread scales from one thread's by less than `SCALING_AGREEMENT` x the best scaling
#: measured, or x the thread count where the threads sit on as many cores (`_lagging`): the loops
#: run on registers only, so each instruction's threads scale alike (by ~2 on two cores, by ~1 on a
#: core's two hyperthreads); one that lags was measured in a window of the VM, which lasted 1.2 s
#: and longer (measured: docs/performance.md, Tuned constants)
LOOP_RUNS_MAX = 8
LAGGARD_PAUSE_S = 0.25
SCALING_AGREEMENT = 0.9
#: One core's rate of each instruction (OP/s) where the loops cannot be built or run: its operations
#: per cycle at 2.5 GHz, two issue ports for the AVX-512 ones, one tile unit for AMX's.
NOMINAL_RATES = {"vpdpbusd": 2 * 128 * 2.5e9, "vdpbf16ps": 2 * 64 * 2.5e9, "vfmadd231ps": 2 * 32 * 2.5e9,
                 "tdpbusd": 2048 * 2.5e9, "tdpbf16ps": 1024 * 2.5e9}
COPY_BYTES = 16 << 20
#: names a file holding one calibration (its JSON object) to use whatever the CPU
CALIBRATION_ENV = "KGEN_CALIBRATION"

_lock = threading.RLock()
_current: dict[tuple[str, int], "Calibration"] = {}


@dataclass(frozen=True)
class Calibration:
    cpu: str                                # host_cpu_id
    model: str                              # the CPU's model name, for people
    threads: int                            # every thread the rates were measured on
    # instruction -> [one thread, every thread] operations per second; only the CPU's own instructions
    rates: dict[str, list[float]] = field(default_factory=dict)
    copy_bytes_per_s: float = 10e9          # one thread
    # instruction -> the fraction of its one-thread rate a brgemm kernel on it reached (`select.probe`)
    kernels: dict[str, float] = field(default_factory=dict)
    source: str = "measured"                # "measured", or "nominal: <why>"
    seconds: float = 0.0                    # what measuring it took
    # a tile instruction the CPU has whose brgemm_amx probe did not run here -> why: it has no rate,
    # so the model takes no AMX kernel, and `kgen tune` and `kgen bench` do not run one
    left_out: dict[str, str] = field(default_factory=dict)

    def rate(self, instruction: str, threads: int = 1) -> float | None:
        """OP/s of `instruction` on one thread (threads=1) or on every thread (more), or None where
        this CPU does not have it."""
        r = self.rates.get(instruction)
        if r is None:
            return None
        return r[0] if threads <= 1 else r[1]

    def line(self) -> str:
        """One line for people: each instruction's rate, the copy bandwidth, where they come from."""
        rates = ", ".join(f"{k} {v[0] / 1e9:.0f}/{v[1] / 1e9:.0f}" for k, v in self.rates.items())
        kernels = ", ".join(f"{k} {v:.2f}" for k, v in self.kernels.items()) or "none"
        left = "".join(f"; {k} left out: {why}" for k, why in self.left_out.items())
        return (f"calibration of {self.model} ({self.threads} threads, {self.source}): {rates} G/s "
                f"(one thread / all), copy {self.copy_bytes_per_s / 1e9:.1f} GB/s; brgemm probes (of one "
                f"thread's rate): {kernels}{left}")


def calibration_path() -> Path:
    return default_cache_dir() / "calibration.json"


def available(flags: frozenset[str]) -> list[str]:
    """The peak loops' instructions a CPU with these /proc/cpuinfo flags has."""
    return [lp.instruction for lp in peak.LOOPS if all(f in flags for f in lp.needs)]


def _copy_rate(src: np.ndarray, dst: np.ndarray) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - t0)
    return 2 * src.nbytes / best                # read and written


def _lagging(best: dict[str, dict[int, float]], threads: int, cores: int | None) -> list[str]:
    """The instructions whose best rate on `threads` threads scales from their best on one by less
    than `SCALING_AGREEMENT` x the best scaling measured, or x `threads` where they run on `cores`
    distinct cores, at least as many; and those that scale past `threads` by more than that (their
    one-thread runs all fell in a window: the loops cannot scale past their thread count). None on
    one thread."""
    scale = {n: b[threads] / b[1] for n, b in best.items() if threads > 1 and b.get(1) and b.get(threads)}
    over = {n for n, s in scale.items() if s * SCALING_AGREEMENT > threads}
    top = max([s for n, s in scale.items() if n not in over] + [threads if cores and cores >= threads else 0])
    return [n for n, s in scale.items() if n in over or s < SCALING_AGREEMENT * top]


def measure(threads: int | None = None, log=None) -> Calibration:
    """Measure this CPU now: two to five seconds, and the kernel probes' compiles the first time
    (`log` hears of a probe left out)."""
    threads = threads or cpu_threads()
    flags = host_cpu_flags()
    t0 = time.perf_counter()
    names = available(flags)
    rates, source = {}, "measured"
    src = np.ones(COPY_BYTES // 4, np.float32)
    dst = np.empty_like(src)
    copy = 0.0
    cores = host_cores(sorted(os.sched_getaffinity(0))[:threads]) if hasattr(os, "sched_getaffinity") else None
    try:
        best: dict[str, dict[int, float]] = {}
        refused = set()
        for rnd in range(LOOP_RUNS_MAX):
            todo = names
            if rnd >= LOOP_RUNS:
                todo = _lagging(best, threads, cores)
                if not todo:
                    break
                time.sleep(LAGGARD_PAUSE_S)
            for name in todo:
                if name in refused:
                    continue
                (row,) = peak.measure(threads=sorted({1, threads}), seconds=LOOP_SECONDS, instructions=[name],
                                      flags=flags)
                if row.why_not:                 # AMX's tile state refused by the kernel
                    refused.add(name)
                    continue
                mine = best.setdefault(name, {})
                for n, r in row.rates.items():
                    mine[n] = max(mine.get(n, 0.0), r)
            copy = max(copy, _copy_rate(src, dst))
        rates = {name: [b[1], b[max(b)]] for name, b in best.items() if name not in refused}
    except KgenError as e:                      # no C compiler: the nominal rates
        source = f"nominal: {e}"
        tiles = not any(n.startswith("tdp") for n in names) or request_amx_permission()
        rates = {n: [NOMINAL_RATES[n], NOMINAL_RATES[n] * threads] for n in names
                 if tiles or not n.startswith("tdp")}
    kernels, left_out = {}, {}
    if source == "measured":
        kernels = probe.measure_probes([n for n in rates if not n.startswith("tdp")], threads, log=log)
        tiles = [n for n in rates if n.startswith("tdp")]
        if tiles:
            # the first tile kernel this CPU runs, in a process of its own: where it does not run there,
            # the tiles leave the model (no rate: `cost.estimate` prices no AMX candidate)
            why: dict[str, str] = {}
            got = probe.measure_probes_apart(tiles, threads, log=log, left_out=why) or {}
            kernels.update(got)
            for name in tiles:
                if name not in got:
                    del rates[name]
                    left_out[name] = why.get(name, "its probe did not run")
                    if log:
                        log(f"  {name}: its brgemm_amx probe did not run here, so --alg=auto, kgen tune and kgen "
                            f"bench leave the tiles out (kgen calibrate measures again)")
    return Calibration(host_cpu_id(), host_cpu_model(), threads, rates, copy or _copy_rate(src, dst), kernels, source,
                       round(time.perf_counter() - t0, 3), left_out)


def _key(cpu: str, threads: int) -> str:
    return f"{cpu}/{threads}"


def _from_json(entry) -> Calibration | None:
    """A stored entry as a `Calibration`, or None where it is not one (measured over)."""
    try:
        cal = Calibration(**entry)
        rates = {str(k): [float(v[0]), float(v[1])] for k, v in cal.rates.items()}
        kernels = {str(k): float(v) for k, v in cal.kernels.items()}
        left_out = {str(k): str(v) for k, v in cal.left_out.items()}
        return Calibration(cal.cpu, cal.model, int(cal.threads), rates, float(cal.copy_bytes_per_s), kernels,
                           cal.source, float(cal.seconds), left_out)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        return None


def _load(path: Path) -> dict:
    """The stored entries by key; an unreadable file or another version's: none (measured over)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CALIBRATION_VERSION or not isinstance(data.get("cpus"), dict):
        return {}
    return data["cpus"]


@contextlib.contextmanager
def _locked(path: Path):
    """Held against this process's threads and, on a file beside the calibration, other processes:
    one measures while the others wait, and then read what it stored."""
    with _lock:
        if fcntl is None:
            yield
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:                 # a read-only cache: this process's lock only
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _write(cal: Calibration, path: Path) -> None:
    """`cal` into the calibration file, merged with the CPUs there (the caller holds `_locked`); a file
    that cannot be written keeps it in this process only."""
    _current[(cal.cpu, cal.threads)] = cal
    cpus = _load(path)
    cpus[_key(cal.cpu, cal.threads)] = asdict(cal)
    tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
    try:
        tmp.write_text(json.dumps({"version": CALIBRATION_VERSION, "cpus": cpus}, indent=1, sort_keys=True))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def store(cal: Calibration, path: Path | None = None) -> Path:
    """Keep `cal` for this process and in the calibration file (where it can be written: else in this
    process only)."""
    path = path or calibration_path()
    with _locked(path):
        _write(cal, path)
    return path


def _pinned() -> Calibration | None:
    env = os.environ.get(CALIBRATION_ENV)
    if not env:
        return None
    try:
        cal = _from_json(json.loads(Path(env).expanduser().read_text()))
    except (OSError, ValueError) as e:
        raise ArtifactError(f"${CALIBRATION_ENV}={env}: cannot read it ({e})") from None
    if cal is None:
        raise ArtifactError(f"${CALIBRATION_ENV}={env}: not a calibration (write one with kgen calibrate "
                            f"and copy its entry from calibration.json)")
    return cal


def current(log=None) -> Calibration:
    """This CPU's calibration at the executor's thread count: ``$KGEN_CALIBRATION``'s; else this
    process's; else the one in ``calibration.json``; else measured now and stored (`log` hears of it)."""
    pinned = _pinned()
    if pinned is not None:
        return pinned
    key = (host_cpu_id(), cpu_threads())
    cal = _current.get(key)
    if cal is not None:
        return cal
    path = calibration_path()
    with _locked(path):
        cal = _current.get(key) or _from_json(_load(path).get(_key(*key)))
        if cal is None:
            if log:
                log(f"calibrating this CPU for the cost model (once; {path})")
            cal = measure(key[1], log)
            if cal.source == "measured":
                _write(cal, path)           # under the lock already: flock would wait on itself
            if log:
                log(f"  {cal.line()}")
        _current[key] = cal
    return cal
