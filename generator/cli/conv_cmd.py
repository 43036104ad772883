"""`kgen conv`: benchdnn's convolution driver on generated kernels.

One line per problem (PASSED / SKIPPED (reason) / FAILED (reason), each with a repro line), then
`tests:N passed:P skipped:S failed:F`. Without --src the tensors are filled with small integers (the
seed is printed), so every data type's result is exact: the whole destination buffer is compared
with the float64 NumPy reference rounded to the destination type, and padded areas must be zero.
With --src (and --wei, optional --bia; logical PyTorch-layout .npy arrays) the convolution is
computed and written to --dst as a logical array. --mode=P also prints time and GFLOP/s.
--jobs=N compiles the next modules ahead, N at a time (default: the machine's cores).

The attributes' runtime arrays come as .npy files too: --scales-{src,wei,dst}=F.npy and
--zero-points-{src,wei,dst}=F.npy (a scalar for common, OC or IC numbers per channel),
--dst-init=F.npy (the sum post-op's prior destination, logical) and --binary-I=F.npy /
--prelu-I=F.npy (post-op I's second input, logical, in its own data type), and for a depthwise
post-op --dw-wei=F.npy (OC x 1 x K x K, the weights' type), --dw-bias=F.npy (OC, f32),
--scales-dw-wei / --scales-dw-dst. With --src they are required; without it they replace the
generated values in the check.

bf16 files: np.save writes an ml_dtypes.bfloat16 array as raw 2-byte values, which --src, --wei,
--bia and the post-op inputs read as bf16 where the tensor is bf16; a float32 file is accepted for a
bf16 or f16 tensor and rounded to nearest even (said once per file on stderr). A bf16 --dst reads
back with np.load(F).view(ml_dtypes.bfloat16). The seed is printed only where data are generated.
"""
from __future__ import annotations

import collections
import dataclasses
import os
import re
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import numpy as np

from ..api import ConvKernel, compile_conv, conv_src_zp_limit, resolved_conv
from ..compile import get_backend
from ..errors import ArtifactError, CompileError, InputError, KgenError, RunError, UnsupportedError
from ..benchdnn.conv import (ATTR_FILE_PATTERN, DEFAULT_CONV_EXTRA_OPTIONS, ConvCase, conv_problem,
                             given_conv_quant_values, parse_conv_args)
from ..problem.conv import ConvProblem, torch_wei_dims
from ..select import calibration
from ..layout import get_dtype, is_numeric
from ..verify import SEED, check_conv, conv_call
from .npyio import as_dtype, load_npy, load_quant_file, save_npy

#: the fixed-name options that pass attribute arrays (besides --binary-I / --prelu-I)
ATTR_FILE_OPTIONS = tuple(o for o in DEFAULT_CONV_EXTRA_OPTIONS
                          if o.startswith(("scales-", "zero-points-", "dst-init", "dw-")))


def _load(path: str, shape, dtype, what: str) -> np.ndarray:
    """A logical tensor from --<what>=path in the data type `dtype` (a kgen name): raw 2-byte values
    read as bf16, float32 rounded to a bf16 / f16 tensor (`npyio.as_dtype`)."""
    a = load_npy(path, what)
    if tuple(a.shape) != tuple(shape):
        raise InputError(f"--{what}={path} has shape {'x'.join(map(str, a.shape))}, expected "
                         f"{'x'.join(map(str, shape))}")
    return as_dtype(a, dtype, f"--{what}={path}")


def _load_bias(path: str, p: ConvProblem) -> np.ndarray:
    """--bia=path: OC values in the bias data type (--bia-dt), or float32 for any of them (an integer
    bias must then hold integers: the kernel says so otherwise)."""
    bdt = get_dtype(p.bias_dt)
    a = load_npy(path, "bia")
    if a.shape != (p.desc.oc,):
        raise InputError(f"--bia={path} has shape {'x'.join(map(str, a.shape))}, expected {p.desc.oc}")
    if a.dtype == np.float32 and bdt.is_int:
        return a
    return as_dtype(a, bdt, f"--bia={path}")


def _attr_file_options(p: ConvProblem) -> dict[str, str]:
    """The command-line options that pass this problem's attribute arrays, -> kernel argument:
    ``--scales-wei`` -> wei_scale, ``--zero-points-src`` -> src_zp, ``--dst-init`` -> dst_init,
    ``--binary-2`` -> binary_2 ..."""
    out = {}
    for name, _ in p.quant_args():
        arg, kind = name.rsplit("_", 1)
        out[f"{'scales' if kind == 'scale' else 'zero-points'}-{arg.replace('_', '-')}"] = name
    for name, _, _ in p.post_op_inputs():
        out[name.replace("_", "-")] = name
    return out


def _attr_files(case: ConvCase, p: ConvProblem, given: dict) -> dict[str, np.ndarray]:
    """The attribute arrays given as .npy files, by kernel argument, checked against the problem:
    scales and zero points in their policy's shape (a scalar for common, OC or IC numbers per
    channel); the post-ops' inputs logical, in their own data type."""
    wanted = _attr_file_options(p)
    quant = dict(p.quant_args())
    inputs = {name: (p.input_desc(name)) for name, _, op in p.post_op_inputs()}
    out: dict[str, np.ndarray] = {}
    for opt, path in case.extras:
        if not path or not (opt in ATTR_FILE_OPTIONS or re.fullmatch(ATTR_FILE_PATTERN, opt)):
            continue
        if opt not in wanted:
            takes = ", ".join(f"--{o}" for o in wanted) or "none"
            raise InputError(f"--{opt}={path}: this problem has no such attribute argument (it takes: {takes})")
        name = wanted[opt]
        if name in given:
            raise InputError(f"--{opt}={path}: the value is already given on the command line "
                             f"({'--attr-scales' if name.endswith('scale') else '--attr-zero-points'})")
        if name in quant:
            a = load_quant_file(path, opt, p.quant_shape(quant[name]), quant[name].policy, name.endswith("_zp"))
        else:
            a = load_npy(path, opt)
            desc = inputs[name]
            if a.size != desc.nelems or [n for n in a.shape if n != 1] != [n for n in desc.dims if n != 1]:
                raise InputError(f"--{opt}={path} has shape {'x'.join(map(str, a.shape))}, expected "
                                 f"{'x'.join(map(str, desc.dims))}")
            if a.dtype != desc.dtype.np_dtype:
                exact = is_numeric(a.dtype) and np.array_equal(
                    a.astype(desc.dtype.np_dtype).astype(np.float64), a.astype(np.float64), equal_nan=True)
                if exact:
                    a = a.astype(desc.dtype.np_dtype)
                else:       # raw 2-byte values read as bf16, float32 rounded to a 16-bit float, else the error
                    try:
                        a = as_dtype(a, desc.dtype, f"--{opt}={path}")
                    except InputError:
                        raise InputError(f"--{opt}={path} has dtype {a.dtype}, expected {desc.dtype.name} "
                                         f"(or values that convert to it exactly)") from None
            a = a.reshape(desc.dims)
        out[name] = a
    return out


def _perf(k: ConvKernel, p: ConvProblem, given: dict) -> str:
    data = conv_call(p, given)
    k.prepare(data.wei)
    call = k.bind(data.src, data.bias, **data.attrs)
    call()
    times = []
    for _ in range(7):
        t = time.perf_counter(); call(); times.append(time.perf_counter() - t)
    t = statistics.median(times)
    return f"time {t * 1e3:.3f} ms, {p.desc.flops() / t / 1e9:.2f} GFLOP/s"


def _resolved_case(case: ConvCase, asked: ConvProblem, p: ConvProblem) -> ConvCase:
    """The case with its `any` tags replaced by the layouts the kernel chose: the repro line names
    the kernel that ran."""
    tags = {f"{t}tag": getattr(p, name).tag for t, name in (("s", "src"), ("w", "wei"), ("d", "dst"))
            if getattr(asked, name).is_any and getattr(p, name).tag}
    return dataclasses.replace(case, **tags) if tags else case


def _one(case: ConvCase) -> tuple[str, str | None, ConvCase]:
    """(status, reason, the case as it ran: `any` tags resolved)."""
    backend = get_backend(case.extra("backend") or "llvm-cpu")     # an unknown backend is bad input
    try:
        asked = conv_problem(case)
        k, steered = _within_zero_point_bound(case, asked, backend)
        p = k.problem                                   # --alg=auto and format any resolved
    except UnsupportedError as e:
        return "skipped", str(e), case
    except (CompileError, ArtifactError, RunError) as e:
        return "failed", str(e), case
    ran = _resolved_case(case, asked, p)
    status, reason = _check_or_compute(case, k, asked, p, steered)
    return status, reason, ran


def _within_zero_point_bound(case: ConvCase, asked: ConvProblem, backend) -> tuple[ConvKernel, str | None]:
    """The kernel for `asked`, or where `--alg=auto` chooses one that computes the source zero point the
    command line gives only within a bound (`api.conv_src_zp_limit`: brgemm's depthwise kernel
    subtracts it in f32) and the value is past it, the direct variant (integers), with the note that
    says why; the bound is known before anything is compiled. A kernel the user named is kept, and
    refuses the value with one line naming the bound."""
    zp = given_conv_quant_values(case).get("src_zp")
    if asked.alg == "auto" and zp is not None:
        chosen = resolved_conv(asked, backend)
        limit = conv_src_zp_limit(chosen, backend)
        if limit is not None and abs(zp) > limit:
            direct = ConvKernel(dataclasses.replace(asked, alg="direct"), backend)
            return direct, (f"auto chose direct: {chosen.alg} computes a source zero point exactly only for "
                            f"|zp| <= {limit}, and this one is {zp:g}")
    return ConvKernel(asked, backend), None


def _check_or_compute(case: ConvCase, k: ConvKernel, asked: ConvProblem, p: ConvProblem,
                      steered: str | None = None) -> tuple[str, str | None]:
    src_path = case.extra("src")
    given = given_conv_quant_values(case)
    given |= _attr_files(case, p, given)
    if src_path:
        options = {name: opt for opt, name in _attr_file_options(p).items()}
        missing = [f"--{opt}=F.npy" for name, opt in options.items() if name not in given]
        if missing:
            raise InputError(f"--src: this problem also needs {', '.join(missing)} (common scales and zero "
                             f"points can also be given in --attr-scales / --attr-zero-points)")
        x = _load(src_path, p.desc.src_dims, p.src.dtype, "src")
        wp = case.extra("wei")
        if not wp:
            raise InputError("--src needs --wei")
        w = _load(wp, torch_wei_dims(p.desc), p.wei.dtype, "wei")
        bp = case.extra("bia")
        b = _load_bias(bp, p) if bp else None
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
    notes = [steered] if steered else []
    if k.choice is not None and k.requested_alg == "auto":
        how = (f"measured, flags {k.choice.flags}, driver {k.driver}" if k.choice.source == "tuned"
               else "heuristic" + (f", flags {k.choice.flags}" if k.choice.flags != "default" else "")
               + (f", driver {k.choice.driver}" if k.choice.driver else ""))
        notes = [f"auto chose {p.alg}: {how}"]
    if asked.has_any:
        chosen = ", ".join(f"{name} {getattr(p, name).format_name()}" for name in ("src", "wei", "dst")
                           if getattr(asked, name).is_any)
        notes.append(f"any chose {chosen} ({'measured' if k.choice and k.choice.source == 'tuned' else 'heuristic'})")
    if (case.extra("mode") or "C").upper() == "P":
        notes.append(_perf(k, p, given))
    return "passed", "; ".join(notes) or None


def _compile_ahead(case: ConvCase) -> None:
    """Compile a case's module into the artifact cache; whatever goes wrong is found again, and
    reported in order, when the case itself runs."""
    try:
        compile_conv(conv_problem(case), case.extra("backend") or "llvm-cpu")
    except Exception:                                   # noqa: BLE001 -- reported by _one
        pass


def _ahead(cases: Iterator[ConvCase], jobs: int) -> Iterator[ConvCase]:
    """The cases in order, each one's module compiled beforehand by a pool of `jobs` threads that
    works up to 2 x jobs cases ahead (iree-compile runs on one core; the checks run between). A bad
    option stops the run where it stands, after the cases before it are reported."""
    if jobs <= 1:
        yield from cases
        return
    pending: collections.deque = collections.deque()
    calibrated = False
    with ThreadPoolExecutor(jobs) as pool:
        try:
            while True:
                while len(pending) < 2 * jobs and not (pending and isinstance(pending[-1], KgenError)):
                    try:
                        case = next(cases)
                    except StopIteration:
                        break
                    except KgenError as e:              # bad input further on: raised in its turn
                        pending.append(e)
                        break
                    if not calibrated and _priced_by_the_model(case):
                        _calibrate_alone(pending)
                        calibrated = True
                    pending.append((case, pool.submit(_compile_ahead, case)))
                if not pending:
                    return
                item = pending.popleft()
                if isinstance(item, KgenError):
                    raise item
                item[1].result()
                yield item[0]
        finally:
            for item in pending:
                if not isinstance(item, KgenError):
                    item[1].cancel()


def _priced_by_the_model(case: ConvCase) -> bool:
    """Whether resolving the case may measure this CPU's calibration: --alg=auto on a backend with
    the cost model."""
    try:
        return case.alg == "auto" and get_backend(case.extra("backend") or "llvm-cpu").cost_model
    except KgenError:                                   # reported when the case runs
        return False


def _calibrate_alone(pending) -> None:
    """This CPU's calibration, measured (where none is stored) once the compiles ahead have finished:
    measured beside them, their load would be stored as the CPU's rates."""
    for item in pending:
        if not isinstance(item, KgenError):
            item[1].result()
    try:
        calibration.current()
    except KgenError:                                   # a bad $KGEN_CALIBRATION: reported by the case
        pass


def _jobs(argv: list[str]) -> int:
    """--jobs=N: compiles ahead in parallel (default: the machine's cores). The parser accepts and
    skips the option where it stands, so error positions stay the user's."""
    jobs = os.cpu_count() or 1
    for a in argv:
        if a.startswith("--jobs="):
            v = a[len("--jobs="):]
            if not (v.isdigit() and int(v) > 0):
                raise InputError(f"{a}: expected a positive number of parallel compiles")
            jobs = int(v)
    return jobs


def run(argv: list[str], out=None) -> int:
    out = out or sys.stdout
    counts = dict(passed=0, skipped=0, failed=0, computed=0)
    jobs = _jobs(argv)
    seed_said = False
    t0 = time.time()
    for i, case in enumerate(_ahead(iter(parse_conv_args(argv, cwd=Path.cwd())), jobs)):
        if not seed_said and not case.extra("src"):
            # said where the first generated data is used: a run on the user's files uses none
            print(f"kgen conv: seed {SEED}", file=out, flush=True)
            seed_said = True
        status, reason, case = _one(case)
        counts[status] += 1
        print(f"{i}:{status.upper()}" + (f" ({reason})" if reason else "") + f" __REPRO: {case.repro()}",
              file=out, flush=True)
    total = sum(counts.values())
    computed = f" computed:{counts['computed']}" if counts["computed"] else ""
    print(f"tests:{total} passed:{counts['passed']} skipped:{counts['skipped']} failed:{counts['failed']}"
          f"{computed}  ({time.time() - t0:.1f} s)", file=out, flush=True)
    return 1 if counts["failed"] else 0
