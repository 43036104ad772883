"""This CPU's calibration: what the cost model (`select.cost`) turns a candidate's work into seconds
with, measured once per CPU and cached.

* the rate of each multiply-accumulate instruction kgen's kernels are built on, on one thread and on
  every thread at once (`runtime.peak`'s loops on registers only: `vpdpbusd`, `vdpbf16ps`,
  `vfmadd231ps`, and AMX's `tdpbusd`, `tdpbf16ps` where the CPU has them), each the best of a few
  short runs, so that a slow window of a VM does not stand for the CPU;
* one thread's copy bandwidth (a NumPy copy of 16 MB, out of the caches).

It takes about a second, at the first use of the model on a CPU (`kgen tune`, or `--alg=auto` where a
problem has no measured entry), and is kept in ``calibration.json`` in the kernel cache directory,
keyed by the CPU's fingerprint (`compile.cache.host_cpu_id`) and thread count. `kgen calibrate` measures
again. Where no C compiler builds the loops, `NOMINAL_RATES` stand in, and the calibration says so.
"""
from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..compile.backends import cpu_threads
from ..compile.cache import default_cache_dir, host_cpu_id
from ..compile.host import host_cpu_flags, host_cpu_model
from ..errors import ArtifactError, KgenError

CALIBRATION_VERSION = 1
#: seconds a peak loop runs, and how many runs each keeps the best of
LOOP_SECONDS = 0.04
LOOP_RUNS = 3
#: One core's rate of each instruction (OP/s) where the loops cannot be built or run: its operations
#: per cycle at 2.5 GHz, two issue ports for the AVX-512 ones, one tile unit for AMX's.
NOMINAL_RATES = {"vpdpbusd": 2 * 128 * 2.5e9, "vdpbf16ps": 2 * 64 * 2.5e9, "vfmadd231ps": 2 * 32 * 2.5e9,
                 "tdpbusd": 2048 * 2.5e9, "tdpbf16ps": 1024 * 2.5e9}
#: the features each instruction needs (/proc/cpuinfo names)
INSTRUCTION_NEEDS = {"vpdpbusd": ("avx512f", "avx512_vnni"), "vdpbf16ps": ("avx512f", "avx512_bf16"),
                     "vfmadd231ps": ("avx512f",), "tdpbusd": ("amx_tile", "amx_int8"),
                     "tdpbf16ps": ("amx_tile", "amx_bf16")}
COPY_BYTES = 16 << 20

_lock = threading.Lock()
_current: dict[tuple[str, int], "Calibration"] = {}


@dataclass(frozen=True)
class Calibration:
    cpu: str                                # host_cpu_id
    model: str                              # the CPU's model name, for people
    threads: int                            # every thread the rates were measured on
    # instruction -> [one thread, every thread] operations per second; only the CPU's own instructions
    rates: dict[str, list[float]] = field(default_factory=dict)
    copy_bytes_per_s: float = 10e9          # one thread
    source: str = "measured"                # "measured", or "nominal: <why>"
    seconds: float = 0.0                    # what measuring it took

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
        return (f"calibration of {self.model} ({self.threads} threads, {self.source}): {rates} G/s "
                f"(one thread / all), copy {self.copy_bytes_per_s / 1e9:.1f} GB/s")


def calibration_path() -> Path:
    return default_cache_dir() / "calibration.json"


def _available(flags: frozenset[str]) -> list[str]:
    return [i for i, needs in INSTRUCTION_NEEDS.items() if all(f in flags for f in needs)]


def _copy_rate() -> float:
    src = np.ones(COPY_BYTES // 4, np.float32)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - t0)
    return 2 * COPY_BYTES / best                # read and written


def measure(threads: int | None = None) -> Calibration:
    """Measure this CPU now (about a second)."""
    from ..runtime import peak              # the loops are C, built on first use
    threads = threads or cpu_threads()
    flags = host_cpu_flags()
    t0 = time.perf_counter()
    names = _available(flags)
    rates, source = {}, "measured"
    try:
        for name in names:
            best = {}
            for _ in range(LOOP_RUNS):
                (row,) = peak.measure(threads=sorted({1, threads}), seconds=LOOP_SECONDS, instructions=[name],
                                      flags=flags)
                if row.why_not:                 # AMX's tile state refused by the kernel
                    break
                for n, r in row.rates.items():
                    best[n] = max(best.get(n, 0.0), r)
            if best:
                rates[name] = [best[1], best[max(best)]]
    except KgenError as e:                      # no C compiler: the nominal rates
        source = f"nominal: {e}"
        rates = {n: [NOMINAL_RATES[n], NOMINAL_RATES[n] * threads] for n in names}
    return Calibration(host_cpu_id(), host_cpu_model(), threads, rates, _copy_rate(), source,
                       round(time.perf_counter() - t0, 3))


def _key(cpu: str, threads: int) -> str:
    return f"{cpu}/{threads}"


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise ArtifactError(f"cannot read the calibration {path}: {e} (delete it to measure again)") from None
    if not isinstance(data, dict) or data.get("version") != CALIBRATION_VERSION:
        return {}
    return data.get("cpus", {})


def store(cal: Calibration, path: Path | None = None) -> Path:
    path = path or calibration_path()
    with _lock:
        cpus = _load(path)
        cpus[_key(cal.cpu, cal.threads)] = asdict(cal)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"version": CALIBRATION_VERSION, "cpus": cpus}, indent=1, sort_keys=True))
        os.replace(tmp, path)
        _current[(cal.cpu, cal.threads)] = cal
    return path


def current(log=None) -> Calibration:
    """This CPU's calibration at the executor's thread count: from this process, else from
    ``calibration.json``, else measured now and stored (`log` hears of it)."""
    threads = cpu_threads()
    key = (host_cpu_id(), threads)
    cal = _current.get(key)
    if cal is not None:
        return cal
    with _lock:
        cal = _current.get(key)
        if cal is not None:
            return cal
        stored = _load(calibration_path()).get(_key(*key))
        if stored is not None:
            stored["rates"] = {k: list(v) for k, v in stored["rates"].items()}
            cal = Calibration(**stored)
            _current[key] = cal
            return cal
    if log:
        log(f"calibrating this CPU for the cost model (once; {calibration_path()})")
    cal = measure(threads)
    store(cal)
    if log:
        log(f"  {cal.line()}")
    return cal
