"""Side-by-side timing shared by the benchmarks (`generator.bench`) and the network planner
(`generator.net`): round-robin batches, medians.

All candidates of one problem are measured in the same process, round-robin: each round times one
batch of calls per candidate, in turn, so that machine noise (other processes, frequency changes)
hits them alike; the figure kept is the median over rounds.
"""
from __future__ import annotations

import ctypes
import functools
import importlib
import os
import statistics
import time
from typing import Callable

from ..compile.backends import cpu_threads


def quiet_openmp() -> None:
    """PyTorch's OpenMP threads spin between calls unless told not to; on a machine with few cores the
    spinning threads starve IREE's workers (and each other), so both must be measured with it off.
    Must run before torch is imported (OpenMP reads it at start-up)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


#: the entry points that set OpenBLAS's thread count: NumPy's wheels bundle scipy-openblas (64-bit
#: integers, suffixed names); a distribution's NumPy links the plain library
_OPENBLAS_SET_THREADS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                         "openblas_set_num_threads64_", "openblas_set_num_threads")


@functools.cache
def quiet_blas() -> str:
    """Run NumPy's BLAS on the calling thread from now on, in this process; says what was done.

    Why: after each threaded BLAS call (the float64 references of the checks multiply matrices)
    OpenBLAS's helper thread spins for ~2^28 cycles, about 0.1 s, before it sleeps. On a 2-core
    machine it then holds the core a host-threads kernel's helper needs, and the two share one core:
    the first round-robin round after a check ran many times slower, and the benchmark kept the slow
    rounds of whichever candidate came first (measured: docs/performance.md, Tuned constants). With
    one BLAS thread the checks' references take longer, and nothing spins. OpenBLAS is found among
    the libraries the process has loaded (/proc/self/maps); another BLAS (MKL, Accelerate) is left as
    it is."""
    importlib.import_module("numpy")      # loads NumPy's BLAS, so that it is found below
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "openblas" in line.rsplit("/", 1)[-1].lower()}
    except OSError as e:
        return f"left as it is (cannot read /proc/self/maps: {e.strerror})"
    done = []
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)           # already loaded: the same handle, nothing new is run
        except OSError:
            continue
        fn = next((getattr(lib, name) for name in _OPENBLAS_SET_THREADS if hasattr(lib, name)), None)
        if fn is not None:
            fn.argtypes, fn.restype = [ctypes.c_int], None
            fn(1)
            done.append(os.path.basename(path))
    return f"one thread ({', '.join(done)})" if done else "left as it is (no OpenBLAS loaded)"


#: each round times a batch of calls per function lasting about this long
MIN_BATCH_S = 0.02


def time_batch(f: Callable[[], object], n: int) -> float:
    """Seconds per call of n back-to-back calls of f (one round's sample)."""
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n


def batch_sizes(fns: dict[str, Callable[[], object]], min_batch_s: float = MIN_BATCH_S) -> dict[str, int]:
    """Calls per batch of each function, for batches of about min_batch_s (each is called a warm-up
    and one or two timed calls: the faster counts, so that one call stalled by another process on the
    core does not make every batch of that function a few calls long)."""
    batch = {}
    for name, f in fns.items():
        f()
        dt = time_batch(f, 1)
        if dt < min_batch_s:
            dt = min(dt, time_batch(f, 1))
        batch[name] = max(1, int(min_batch_s / max(dt, 1e-7)))
    return batch


def round_samples(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = MIN_BATCH_S,
                  after_round: Callable[[], None] | None = None) -> dict[str, list[float]]:
    """Seconds per call of each function, one sample per round: per round, each runs one untimed call
    and then a batch sized to last about min_batch_s; `after_round` is called after each round
    (`bench.torch_alone` times PyTorch in its own process there, the same way). NumPy's BLAS is made
    single-threaded first (`quiet_blas`; the commands that check and then time do it before their
    first check).

    Why the untimed call: the function before it in the round evicted this one's data from the
    caches, and the worker threads slept meanwhile. A batch of a few calls (a network of a few ms)
    counted that cold call in each sample, while PyTorch alone, timed after an untimed call of its
    own, was not charged it."""
    quiet_blas()
    batch = batch_sizes(fns, min_batch_s)
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, f in fns.items():
            f()
            samples[name].append(time_batch(f, batch[name]))
        if after_round is not None:
            after_round()
    return samples


def median_times(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = MIN_BATCH_S,
                 after_round: Callable[[], None] | None = None) -> dict[str, float]:
    """The median over rounds: the figure compared between candidates."""
    return {name: statistics.median(v) for name, v in round_samples(fns, rounds, min_batch_s, after_round).items()}


def best_times(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = MIN_BATCH_S) -> dict[str, float]:
    """The fastest round: for ceilings, which are what the machine can do at best."""
    return {name: min(v) for name, v in round_samples(fns, rounds, min_batch_s).items()}


def import_torch(log: Callable[[str], None]):
    """PyTorch, set up for side-by-side timing (passive OpenMP waits, as many threads as kgen's CPU
    executor: every core, or $KGEN_CPU_THREADS), or None with one notice when it is not installed (the
    benchmarks then leave its columns out)."""
    quiet_openmp()
    try:
        import torch
    except ImportError:
        log("PyTorch is not installed (./build.sh bench installs it): its columns are left out")
        return None
    torch.set_num_threads(cpu_threads())
    return torch
