"""Side-by-side timing shared by the benchmarks: round-robin batches, medians.

All candidates of one problem are measured in the same process, round-robin: each round times one
batch of calls per candidate, in turn, so that machine noise (other processes, frequency changes)
hits them alike; the figure kept is the median over rounds.
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Callable


def quiet_openmp() -> None:
    """PyTorch's OpenMP threads spin between calls unless told not to; on this 2-core machine the
    spinning threads starve IREE's workers (and each other), so both must be measured with it off.
    Must run before torch is imported (OpenMP reads it at start-up)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def round_samples(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = 0.02
                  ) -> dict[str, list[float]]:
    """Seconds per call of each function, one sample per round: per round, each runs a batch sized
    to last about min_batch_s."""
    batch = {}
    for name, f in fns.items():          # warm up and size the batches
        f()
        t = time.perf_counter(); f(); dt = max(time.perf_counter() - t, 1e-7)
        batch[name] = max(1, int(min_batch_s / dt))
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, f in fns.items():
            n = batch[name]
            t = time.perf_counter()
            for _ in range(n):
                f()
            samples[name].append((time.perf_counter() - t) / n)
    return samples


def median_times(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = 0.02) -> dict[str, float]:
    """The median over rounds: the figure compared between candidates."""
    return {name: statistics.median(v) for name, v in round_samples(fns, rounds, min_batch_s).items()}


def best_times(fns: dict[str, Callable[[], object]], rounds: int, min_batch_s: float = 0.02) -> dict[str, float]:
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
    from ..compile.backends import cpu_threads
    torch.set_num_threads(cpu_threads())
    return torch
