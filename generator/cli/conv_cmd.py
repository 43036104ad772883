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
from ..problem.conv import ConvCase, parse_conv_args
from ..problem.convolution import ConvProblem, torch_wei_dims
from .npyio import load_npy, save_npy

SEED = 1337


def fill(p: ConvProblem, rng: np.random.Generator):
    """Small integers: products and sums stay exact in f32 (and in f16/bf16 inputs)."""
    x = rng.integers(-4, 5, p.desc.src_dims).astype(p.src.dtype.np_dtype)
    w = rng.integers(-2, 3, torch_wei_dims(p.desc)).astype(p.wei.dtype.np_dtype)
    b = rng.integers(-8, 9, p.desc.oc).astype(np.float32) if p.bias else None
    return x, w, b


def check(k: ConvKernel, p: ConvProblem) -> str | None:
    x, w, b = fill(p, np.random.default_rng(SEED))
    src, wei = p.src.to_physical(x), p.wei.to_physical(w.reshape(p.wei.dims))
    k.prepare(wei)
    got = k(src, b)
    want = p.reference(src, wei, b)
    pad = p.dst.padding_mask()
    if pad.any() and np.any(got[pad] != 0):
        return f"{int(np.count_nonzero(got[pad]))} padded elements are not zero"
    g, r = got.astype(np.float64), want.astype(np.float64)
    allowed = 0.0
    if p.tolerance:
        # the variant's error bound, plus one rounding step of a 16-bit destination at each value
        eps = 0.0 if p.dst.dtype.is_int or p.dst.dtype.name == "f32" else float(np.finfo(np.float16).eps
                                                                                 if p.dst.dtype.name == "f16" else 2.0**-7)
        allowed = p.tolerance * max(1.0, float(np.abs(r).max(initial=0.0))) + eps * np.abs(r)
    bad = np.abs(g - r) > allowed
    if bad.any():
        diff = np.abs(g - r)[bad].max()
        tol = f" (tolerance {p.tolerance:g} of max |ref|)" if p.tolerance else ""
        return f"{int(bad.sum())} of {got.size} buffer elements differ, max |diff| {diff:g}{tol}"
    return None


def _load(path: str, shape, dtype, what: str) -> np.ndarray:
    a = load_npy(path, what)
    if tuple(a.shape) != tuple(shape):
        raise InputError(f"--{what}={path} has shape {'x'.join(map(str, a.shape))}, expected "
                         f"{'x'.join(map(str, shape))}")
    if a.dtype != np.dtype(dtype):
        raise InputError(f"--{what}={path} has dtype {a.dtype}, expected {np.dtype(dtype)}")
    return a


def _perf(k: ConvKernel, p: ConvProblem) -> str:
    x, w, b = fill(p, np.random.default_rng(SEED))
    k.prepare(p.wei.to_physical(w.reshape(p.wei.dims)))
    call = k.bind(p.src.to_physical(x), b)
    call()
    times = []
    for _ in range(7):
        t = time.perf_counter(); call(); times.append(time.perf_counter() - t)
    t = statistics.median(times)
    return f"time {t * 1e3:.3f} ms, {p.desc.flops() / t / 1e9:.2f} GFLOP/s"


def _one(case: ConvCase) -> tuple[str, str | None]:
    backend = get_backend(case.extra("backend") or "llvm-cpu")     # an unknown backend is bad input
    try:
        p = ConvProblem.from_case(case)
        k = ConvKernel(p, backend)
        p = k.problem                                   # --alg=auto resolved
    except UnsupportedError as e:
        return "skipped", str(e)
    except (CompileError, ArtifactError, RunError) as e:
        return "failed", str(e)
    src_path = case.extra("src")
    if src_path:
        x = _load(src_path, p.desc.src_dims, p.src.dtype.np_dtype, "src")
        wp = case.extra("wei")
        if not wp:
            raise InputError("--src needs --wei")
        w = _load(wp, torch_wei_dims(p.desc), p.wei.dtype.np_dtype, "wei")
        bp = case.extra("bia")
        b = _load(bp, (p.desc.oc,), np.float32, "bia") if bp else None
        y = k.run_logical(x, w, b)
        dp = case.extra("dst")
        if dp:
            save_npy(dp, y, "dst")
        return "computed", f"-> {dp}" if dp else None
    try:
        reason = check(k, p)
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
        notes.append(_perf(k, p))
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
