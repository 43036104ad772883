"""`kgen bench peak`: the rate of each multiply-accumulate instruction kgen's kernels are built on, on
this CPU, on one thread and on every thread at once: the ceiling a kernel's GOP/s are read against.

Each loop (`peak.c`) issues one instruction on registers only, 12 independent accumulators deep (4
independent tiles, 3 times over, for AMX): no loads, no stores, so its rate is the core's issue rate of
that instruction. Run on every thread at once it shows what the cores can do together; a VM whose
vCPUs share physical cores shows it there. Each call's accumulators are checked against the number
of instructions asked for, so a rate is never of a loop that did less. A loop runs only where
/proc/cpuinfo lists its features; AMX asks the kernel for the tile state first (arch_prctl).
"""
from __future__ import annotations

import ctypes
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..compile.backends import cpu_threads, request_amx_permission
from ..compile.host import host_cpu_flags
from ..compile.native import load_native
from ..errors import InputError, RunError

_SOURCE = Path(__file__).with_name("peak.c")
UNROLL = 12                  # instructions per iteration of every loop (peak.c)
CHUNK = 1 << 16              # iterations a call: its sums stay exact (peak.c), and a call lasts ~1 ms


@dataclass(frozen=True)
class Loop:
    instruction: str
    computes: str
    ops: int                 # operations (a multiply and an add: 2) per instruction
    unit: str
    needs: tuple[str, ...]   # /proc/cpuinfo features
    used_by: str


LOOPS = (
    Loop("vpdpbusd", "u8 x s8 -> s32, 16 lanes x 4", 128, "GOP/s", ("avx512f", "avx512_vnni"),
         "brgemm's int8 microkernels (vnni)"),
    Loop("vdpbf16ps", "bf16 -> f32, 16 lanes x 2", 64, "GFLOP/s", ("avx512f", "avx512_bf16"),
         "brgemm's bf16 microkernels"),
    Loop("vfmadd231ps", "f32, 16 lanes", 32, "GFLOP/s", ("avx512f",), "brgemm's f32 microkernels, depthwise"),
    Loop("tdpbusd", "u8 x s8 -> s32, 16 x 16 x 64 tile", 32768, "GOP/s", ("amx_tile", "amx_int8"),
         "brgemm_amx, int8"),
    Loop("tdpbf16ps", "bf16 -> f32, 16 x 16 x 32 tile", 16384, "GFLOP/s", ("amx_tile", "amx_bf16"),
         "brgemm_amx, bf16"),
)


@dataclass
class PeakRow:
    loop: Loop
    rates: dict[int, float] = field(default_factory=dict)     # threads -> operations per second, all threads
    why_not: str | None = None                                 # why it was not measured


def _library():
    lib, where = load_native(_SOURCE)
    if lib is None:
        raise RunError(f"kgen bench peak needs its C loops: {where}")
    for loop in LOOPS:
        fn = getattr(lib, f"kgen_peak_{loop.instruction}")
        fn.argtypes, fn.restype = [ctypes.c_int64], ctypes.c_double
    return lib


def _run(fn, loop: Loop, threads: int, seconds: float) -> float:
    """Operations per second of `threads` threads running `fn` at once for about `seconds` (ctypes
    releases the GIL during each call)."""
    start = threading.Barrier(threads + 1)
    done, wrong = [0] * threads, []

    def work(i):
        start.wait()
        deadline = time.perf_counter() + seconds
        while True:
            got = fn(CHUNK)
            if got != CHUNK * UNROLL:
                wrong.append(got)
                return
            done[i] += 1
            if time.perf_counter() >= deadline:
                return

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - t0
    if wrong:
        raise RunError(f"the {loop.instruction} loop's accumulators say {wrong[0]:.0f} instructions ran, "
                       f"not {CHUNK * UNROLL}: its rate would be wrong")
    return sum(done) * CHUNK * UNROLL * loop.ops / elapsed


def thread_counts(threads: list[int] | None = None) -> list[int]:
    """The thread counts to measure: those given, else 1 and every CPU this process may use."""
    threads = threads or sorted({1, cpu_threads()})
    if any(n < 1 for n in threads):
        raise InputError("--threads must be at least 1")
    return threads


def measure(threads: list[int] | None = None, seconds: float = 0.3, instructions: list[str] | None = None,
            flags: frozenset[str] | None = None) -> list[PeakRow]:
    """One row per loop (`instructions`: those named, default all): its rate on each of
    `thread_counts(threads)`, or why it was not measured."""
    if seconds <= 0:
        raise InputError(f"--seconds={seconds} must be positive")
    threads = thread_counts(threads)
    known = {loop.instruction: loop for loop in LOOPS}
    unknown = [i for i in instructions or () if i not in known]
    if unknown:
        raise InputError(f"no peak loop for {unknown[0]} (known: {', '.join(known)})")
    flags = host_cpu_flags() if flags is None else flags
    lib = None
    rows = []
    for loop in (known[i] for i in instructions) if instructions else LOOPS:
        row = PeakRow(loop)
        rows.append(row)
        missing = [f for f in loop.needs if f not in flags]
        if missing:
            row.why_not = f"not on this CPU (no {' '.join(missing)})"
            continue
        if loop.needs[0] == "amx_tile" and not request_amx_permission():
            row.why_not = "the kernel did not grant the AMX tile state (arch_prctl)"
            continue
        lib = lib or _library()
        fn = getattr(lib, f"kgen_peak_{loop.instruction}")
        fn(CHUNK)                                    # warm: page faults, the vector unit's wake-up
        for n in threads:
            row.rates[n] = _run(fn, loop, n, seconds)
    return rows


def format_table(rows: list[PeakRow], threads: list[int]) -> str:
    head = f"{'instruction':12} {'computes':34} {'ops':>6}" + "".join(f" {f'{n} thread' + ('s' if n > 1 else ''):>11}"
                                                                      for n in threads)
    lines = [head + "  unit     used by"]
    for r in rows:
        lp = r.loop
        text = f"{lp.instruction:12} {lp.computes:34} {lp.ops:>6}"
        if r.why_not:
            lines.append(f"{text}  {r.why_not}")
            continue
        text += "".join(f" {r.rates[n] / 1e9:>11.0f}" for n in threads)
        lines.append(f"{text}  {lp.unit:8} {lp.used_by}")
    return "\n".join(lines)


__all__ = ["LOOPS", "Loop", "PeakRow", "format_table", "measure", "thread_counts"]
