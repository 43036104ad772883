"""`kgen conv`: benchdnn's convolution driver on generated kernels.

One line per problem (PASSED / SKIPPED (reason) / FAILED (reason), each with a repro line), then
`tests:N passed:P skipped:S failed:F`. Without --src the tensors are filled with small integers (the
seed is printed), so every data type's result is exact: the whole destination buffer is compared
with the float64 NumPy reference rounded to the destination type, and padded areas must be zero.
With --src (and --wei, optional --bia; logical PyTorch-layout .npy arrays) the convolution is
computed and written to --dst as a logical array. --mode=P also prints time and GFLOP/s.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from ..api import ConvKernel
from ..compile import get_backend
from ..errors import ArtifactError, CompileError, InputError, KgenError, RunError, UnsupportedError
from ..benchdnn.conv import ConvCase, conv_problem, given_conv_quant_values, parse_conv_args
from ..problem.conv import ConvProblem, torch_wei_dims
from ..verify import SEED, check_conv, conv_attr_values, fill_conv
from .npyio import load_npy, save_npy

def _load(path: str, shape, dtype, what: str) -> np.ndarray:
    a = load_npy(path, what)
    if tuple(a.shape) != tuple(shape):
        raise InputError(f"--{what}={path} has shape {'x'.join(map(str, a.shape))}, expected "
                         f"{'x'.join(map(str, shape))}")
    if a.dtype != np.dtype(dtype):
        raise InputError(f"--{what}={path} has dtype {a.dtype}, expected {np.dtype(dtype)}")
    return a


def _perf(k: ConvKernel, p: ConvProblem, given: dict) -> str:
    rng = np.random.default_rng(SEED)
    x, w, b = fill_conv(p, rng)
    quant, logical = conv_attr_values(p, rng, given)
    inputs = {n: (p.dst if n == "dst_init" else p.binary_desc(op)).to_physical(logical[n])
              for n, _, op in p.post_op_inputs()}
    k.prepare(p.wei.to_physical(w.reshape(p.wei.dims)))
    call = k.bind(p.src.to_physical(x), b, **quant, **inputs)
    call()
    times = []
    for _ in range(7):
        t = time.perf_counter(); call(); times.append(time.perf_counter() - t)
    t = statistics.median(times)
    return f"time {t * 1e3:.3f} ms, {p.desc.flops() / t / 1e9:.2f} GFLOP/s"


def _one(case: ConvCase) -> tuple[str, str | None]:
    backend = get_backend(case.extra("backend") or "llvm-cpu")     # an unknown backend is bad input
    try:
        p = conv_problem(case)
        k = ConvKernel(p, backend)
        p = k.problem                                   # --alg=auto resolved
    except UnsupportedError as e:
        return "skipped", str(e)
    except (CompileError, ArtifactError, RunError) as e:
        return "failed", str(e)
    src_path = case.extra("src")
    given = given_conv_quant_values(case)
    if src_path:
        missing = [n for n, q in p.quant_args() if n not in given] + [n for n, _, _ in p.post_op_inputs()]
        if missing:
            raise InputError(f"--src: this problem also needs {', '.join(missing)}, which the command line "
                             f"cannot pass yet (give common values in --attr-scales / --attr-zero-points, or "
                             f"use the Python API)")
        x = _load(src_path, p.desc.src_dims, p.src.dtype.np_dtype, "src")
        wp = case.extra("wei")
        if not wp:
            raise InputError("--src needs --wei")
        w = _load(wp, torch_wei_dims(p.desc), p.wei.dtype.np_dtype, "wei")
        bp = case.extra("bia")
        b = _load(bp, (p.desc.oc,), np.float32, "bia") if bp else None
        y = k.run_logical(x, w, b, **given)
        dp = case.extra("dst")
        if dp:
            save_npy(dp, y, "dst")
        return "computed", f"-> {dp}" if dp else None
    try:
        reason = check_conv(k, p, given)
    except KgenError as e:
        return "failed", str(e)
    if reason:
        return "failed", reason
    notes = []
    if k.choice is not None:
        how = (f"measured, flags {k.choice.flags}, driver {k.driver}" if k.choice.source == "tuned"
               else "heuristic")
        notes = [f"auto chose {p.alg}: {how}"]
    if (case.extra("mode") or "C").upper() == "P":
        notes.append(_perf(k, p, given))
    return "passed", "; ".join(notes) or None


def run(argv: list[str], out=None) -> int:
    out = out or sys.stdout
    counts = dict(passed=0, skipped=0, failed=0, computed=0)
    print(f"kgen conv: seed {SEED}", file=out, flush=True)
    t0 = time.time()
    for i, case in enumerate(parse_conv_args(argv, cwd=Path.cwd())):
        status, reason = _one(case)
        counts[status] += 1
        print(f"{i}:{status.upper()}" + (f" ({reason})" if reason else "") + f" __REPRO: {case.repro()}",
              file=out, flush=True)
    total = sum(counts.values())
    computed = f" computed:{counts['computed']}" if counts["computed"] else ""
    print(f"tests:{total} passed:{counts['passed']} skipped:{counts['skipped']} failed:{counts['failed']}"
          f"{computed}  ({time.time() - t0:.1f} s)", file=out, flush=True)
    return 1 if counts["failed"] else 0
