"""PyTorch's convolutions timed alone, in a process of their own with OpenMP's default wait policy.

Why a second measurement: `kgen bench conv` times PyTorch round-robin next to kgen's kernels, and in
that process PyTorch's OpenMP threads must not spin between calls (`timing.quiet_openmp`: spinning,
they took the second core from kgen's kernels: an int8 kernel ran at 550-600 us instead of 315 us).
But a PyTorch user runs with the default policy, where the threads spin and PyTorch's own next call
starts sooner: ic128 28x28 3x3 u8:s8:u8 on 2 cores of a Zen 4 EPYC, 272 us default against 348 us
passive. So PyTorch is also timed here, in its own process, with the same data (`verify.conv_call`,
fixed seed), the same calls and the same round-robin medians, and each comparison takes the faster
of the two figures.

Run by `measure(problems, rounds)`; the child process reads pickled problems on stdin and writes one
JSON object per problem ({layout: seconds}) on stdout.
"""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from typing import Callable


def measure(problems: list, rounds: int, log: Callable[[str], None]) -> list[dict[str, float]] | None:
    """{layout: seconds per call} per problem, PyTorch alone; None (with one line logged) when the
    child process fails."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    log(f"PyTorch alone (own process, OpenMP default wait policy): {len(problems)} problems")
    try:
        out = subprocess.run([sys.executable, "-m", "generator.bench.torch_alone", str(rounds)],
                             input=pickle.dumps(problems), capture_output=True, env=env, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as e:
        log(f"PyTorch alone: not measured ({e})")
        return None
    if out.returncode != 0:
        last = (out.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        log(f"PyTorch alone: not measured (exit {out.returncode}: {last})")
        return None
    return [json.loads(line) for line in out.stdout.decode().splitlines() if line.startswith("{")]


def _main(rounds: int) -> None:
    import torch

    from ..compile.backends import cpu_threads
    from ..verify import conv_call
    from .conv import _torch_fns
    from .timing import median_times

    torch.set_num_threads(cpu_threads())
    for p in pickle.load(sys.stdin.buffer):
        call = conv_call(p)
        fns = _torch_fns(torch, p, call.x, call.w, call.bias, call.quant)
        print(json.dumps(median_times(fns, rounds) if fns else {}), flush=True)


if __name__ == "__main__":
    _main(int(sys.argv[1]))
