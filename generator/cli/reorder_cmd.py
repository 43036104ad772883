"""`kgen reorder`: benchdnn's reorder driver on generated kernels.

Each problem prints one line, as benchdnn does::

    0:PASSED __REPRO: --sdt=f32 --ddt=s8 --stag=abx --dtag=aBx16b 2x17x5x4
    1:SKIPPED (--attr-post-ops=sum:0.5 is not supported) __REPRO: ...
    2:FAILED (3 of 680 elements differ, max |diff| 1) __REPRO: ...

then `tests:N passed:P skipped:S failed:F`. Without --input the source is filled with
integer-valued data (the seed is fixed and printed), the kernel's whole destination buffer is
compared exactly with the float64 NumPy reference, and padded areas must be zero. With --input the
given physical buffer (a 1-D .npy array in the source's data type) is reordered and written to
--output as the destination's physical buffer. Its scales and zero points are the common values of
--attr-scales / --attr-zero-points (benchdnn's defaults where a common entry names none), or .npy
files for any policy: --scales-src|dst=F.npy, --zero-points-src|dst=F.npy (a scalar for common, one
number per index of the policy's dims otherwise).

bf16 files: np.save writes an ml_dtypes.bfloat16 array as raw 2-byte values, which --input reads as
bf16; a float32 file is accepted for a bf16 or f16 source and rounded to nearest even (said once on
stderr). A bf16 --output reads back with np.load(F).view(ml_dtypes.bfloat16).
"""
from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np

from ..api import build_reorders
from ..benchdnn.reorder import AttrScale, AttrZeroPoint, given_quant_values, reorder_problem
from ..errors import InputError, KgenError, UnsupportedError
from ..benchdnn.reorder import ReorderCase, parse_args
from ..problem.reorder import ReorderProblem
from ..verify import SEED, check_reorder, reorder_call
from .npyio import as_dtype, load_npy, load_quant_file, save_npy

WINDOW = 96          # cases compiled together before their results are printed


#: the options that pass a reorder's runtime scales and zero points as .npy files -> kernel argument
QUANT_FILE_OPTIONS = {"scales-src": "src_scale", "scales-dst": "dst_scale",
                      "zero-points-src": "src_zp", "zero-points-dst": "dst_zp"}


def _load_input(path: str, problem: ReorderProblem) -> np.ndarray:
    arr = load_npy(path, "input")
    if arr.ndim != 1:
        raise InputError(f"{path} holds shape {arr.shape}; --input takes the source's physical buffer as a "
                         f"1-D array of {problem.src.buffer_nelems} elements")
    if not problem.src.dtype.is_packed:           # s4 / u4 come as packed bytes: check_buffer says how
        arr = as_dtype(arr, problem.src.dtype, f"--input={path}")
    return problem.src.check_buffer(arr)


def _what(name: str) -> str:
    arg, kind = name.rsplit("_", 1)
    return f"{arg} {'scale' if kind == 'scale' else 'zero point'}"


def _quant_values(case: ReorderCase, problem: ReorderProblem, *, complete: bool) -> dict[str, np.ndarray]:
    """The scales and zero points the user gave, by kernel argument: .npy files (--scales-src=F.npy ...,
    any policy) and common values on the command line (`given_quant_values`). `complete` (a reorder of
    the user's --input): a common entry with no value takes benchdnn's default, and a value nothing
    gives is an InputError naming the option that would; otherwise (a check) the rest is generated."""
    quant = dict(problem.quant_args)
    files = {QUANT_FILE_OPTIONS[opt]: (opt, path) for opt, path in case.extras if opt in QUANT_FILE_OPTIONS}
    for name, (opt, path) in files.items():
        if name not in quant:
            takes = ", ".join(f"--{o}" for o, n in QUANT_FILE_OPTIONS.items() if n in quant) or "none"
            raise InputError(f"--{opt}={path}: this reorder has no {_what(name)} (it takes: {takes})")
    given = given_quant_values(case)
    out: dict[str, np.ndarray] = {}
    for name, q in quant.items():
        want = q.shape(problem.dims)
        if name in files:
            opt, path = files[name]
            if name in given:
                raise InputError(f"--{opt}={path}: the value is already given on the command line")
            out[name] = load_quant_file(path, opt, want, q.policy, name.endswith("_zp"))
        elif name in given:
            out[name] = np.asarray(given[name])
        elif complete and not want:
            out[name] = np.asarray((AttrScale if name.endswith("_scale") else AttrZeroPoint).DEFAULT_VALUE)
        elif complete:
            opt = next(o for o, n in QUANT_FILE_OPTIONS.items() if n == name)
            raise InputError(f"--input: the {_what(name)} ({q.policy}) has no values: give them in --{opt}=F.npy "
                             f"({'x'.join(map(str, want)) or 'one'} numbers)")
    return out


def run(argv: list[str], out=None, backend_default: str = "llvm-cpu", jobs: int = 2) -> int:
    out = out or sys.stdout
    counts = dict(passed=0, skipped=0, failed=0, computed=0)
    seed_said = False
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
            if not seed_said and not case.extra("input"):
                # said where the first generated data is used: a run of the user's files uses none
                print(f"kgen reorder: seed {SEED}", file=out, flush=True)
                seed_said = True
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
        q = _quant_values(case, problem, complete=True)
        y = kernel(src, **q)
        if out_path:
            save_npy(out_path, y, "output")
        return "computed", f"-> {out_path}" if out_path else None
    given = _quant_values(case, problem, complete=False)
    try:
        reason = check_reorder(kernel, problem, given)
    except UnsupportedError as e:
        return "skipped", str(e)
    except KgenError as e:
        return "failed", str(e)
    if reason is None and out_path:
        src, q, init = reorder_call(problem, given)         # the data just checked
        save_npy(out_path, kernel(src, dst_init=init, **q), "output")
    return ("failed", reason) if reason else ("passed", None)
