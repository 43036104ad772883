"""`kgen reorder`: benchdnn's reorder driver on generated kernels.

Each problem prints one line, as benchdnn does::

    0:PASSED __REPRO: --sdt=f32 --ddt=s8 --stag=abx --dtag=aBx16b 2x17x5x4
    1:SKIPPED (--attr-post-ops=sum:0.5 is not supported) __REPRO: ...
    2:FAILED (3 of 680 elements differ, max |diff| 1) __REPRO: ...

then `tests:N passed:P skipped:S failed:F`. Without --input the source is filled with
integer-valued data (the seed is fixed and printed), the kernel's whole destination buffer is
compared exactly with the float64 NumPy reference, and padded areas must be zero. With --input the
given physical buffer is reordered and written to --output.
"""
from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np

from ..api import build_reorders
from ..benchdnn.reorder import reorder_problem, given_quant_values
from ..errors import InputError, KgenError, UnsupportedError
from ..benchdnn.reorder import ReorderCase, parse_args
from ..problem.reorder import ReorderProblem
from ..verify import SEED, check_reorder, fill_reorder_source, reorder_quant_values
from .npyio import load_npy, save_npy

WINDOW = 96          # cases compiled together before their results are printed


def _load_input(path: str, problem: ReorderProblem) -> np.ndarray:
    arr = load_npy(path, "input")
    if arr.ndim != 1:
        raise InputError(f"{path} holds shape {arr.shape}; --input takes the source's physical buffer as a "
                         f"1-D array of {problem.src.buffer_nelems} elements")
    return problem.src.check_buffer(arr)


def run(argv: list[str], out=None, backend_default: str = "llvm-cpu", jobs: int = 2) -> int:
    out = out or sys.stdout
    counts = dict(passed=0, skipped=0, failed=0, computed=0)
    print(f"kgen reorder: seed {SEED}", file=out, flush=True)
    t0 = time.time()
    cases = parse_args(argv, cwd=Path.cwd())
    index = 0
    while True:
        window = list(itertools.islice(cases, WINDOW))
        if not window:
            break
        # resolve problems; unsupported cases report SKIPPED, malformed input stops the run (exit 2)
        by_backend: dict[str, list[int]] = {}
        problems: list = [None] * len(window)
        for i, case in enumerate(window):
            try:
                problems[i] = reorder_problem(case)
                by_backend.setdefault(case.extra("backend") or backend_default, []).append(i)
            except UnsupportedError as e:
                problems[i] = e
        kernels: list = [None] * len(window)
        for be, idx in by_backend.items():
            for i, k in zip(idx, build_reorders([[problems[i]] for i in idx], be, jobs=jobs)):
                kernels[i] = k
        for i, case in enumerate(window):
            status, reason = _one(case, problems[i], kernels[i], out)
            counts[status] += 1
            line = f"{index}:{status.upper()}" + (f" ({reason})" if reason else "") + f" __REPRO: {case.repro()}"
            print(line, file=out, flush=True)
            index += 1
    total = sum(counts.values())
    computed = f" computed:{counts['computed']}" if counts["computed"] else ""
    print(f"tests:{total} passed:{counts['passed']} skipped:{counts['skipped']} failed:{counts['failed']}"
          f"{computed}  ({time.time() - t0:.1f} s)", file=out, flush=True)
    return 1 if counts["failed"] else 0


def _one(case: ReorderCase, problem, kernel, out) -> tuple[str, str | None]:
    if isinstance(problem, UnsupportedError):
        return "skipped", str(problem)
    if isinstance(kernel, UnsupportedError):
        return "skipped", str(kernel)
    if isinstance(kernel, KgenError):
        return "failed", str(kernel)
    in_path, out_path = case.extra("input"), case.extra("output")
    if in_path:
        src = _load_input(in_path, problem)
        if problem.quant_args:
            q = reorder_quant_values(problem, np.random.default_rng(SEED), given_quant_values(case))
        else:
            q = {}
        y = kernel(src, **q)
        if out_path:
            save_npy(out_path, y, "output")
        return "computed", f"-> {out_path}" if out_path else None
    try:
        reason = check_reorder(kernel, problem, given_quant_values(case))
    except UnsupportedError as e:
        return "skipped", str(e)
    except KgenError as e:
        return "failed", str(e)
    if reason is None and out_path:
        rng = np.random.default_rng(SEED)
        src = fill_reorder_source(problem.src, rng)
        save_npy(out_path, kernel(src, **reorder_quant_values(problem, rng, given_quant_values(case))), "output")
    return ("failed", reason) if reason else ("passed", None)
