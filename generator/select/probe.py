"""The calibration's kernel probes: one small brgemm convolution for each instruction kgen's kernels
are built on (the vector ones, and AMX's tiles where the CPU grants them), compiled and timed on one
thread, to say how near this CPU's kernels come to that instruction's peak.

Why: the instruction loops (`runtime.peak`) give a CPU's peak, but not what a kernel reaches of it:
load ports, caches and the front end differ between CPUs. The cost model's efficiencies
(`select.efficiency`) were fitted on one CPU; a probe that reaches a smaller fraction of the peak here
than it did there (`PROBE_REFERENCE`) scales the efficiencies of every variant priced on that
instruction by the ratio (`cost.kernel_scale`). brgemm is the probe because it is the kernel the
rule takes, and the one AMX is weighed against. The tiles' probes are brgemm_amx itself, on a 3x3
and on a 1x1 layer (the model's two classes: the 1x1 one is bound by the tile stores and the
epilogue rather than the tiles' rate), and their reference is what the AMX model (`cost.AMX_MODEL`,
fitted on one AMX CPU) predicts for each: so the model follows the tiles' kernel as it runs on this
CPU, whichever CPU that is.

A probe is named after its instruction, and a tile instruction's 1x1 probe after it with `/1x1`
(`probe_name`). The tiles' probes run in a process of their own (`measure_probes_apart`): the
calibration is the first thing to run a tile kernel on a CPU, unasked, and a kernel that faults
there costs the tiles their place in the model (`calibration.measure`), not the user's process.
"""
from __future__ import annotations

import json
import shlex
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..compile import compile_mlir, get_backend
from ..compile.cache import signal_name
from ..emit.conv import render_conv
from ..errors import KgenError
from ..problem.conv import ConvProblem
from ..runtime import LoadedModule, peak
from ..runtime.timing import batch_sizes, time_batch
from .work import instruction, kernel_ops

#: each probe, as (data type, variant, shape): a ResNet-like layer in NHWC whose weights stay in the
#: caches. The vector ones: 58 MOP (0.1 to 0.5 ms on one thread of the CPUs measured: the call's ~4
#: us is noise). The tiles' run ~10x faster, so theirs have 2-4x the work (103-231 MOP, 16-295 kB of
#: weights); their 1x1 layer is ResNet-50's ic256 56x56 -> 64, where the tiles lost on the AMX Xeon
VECTOR_SHAPE = "mb1ic64ih28oc64oh28kh3ph1"
TILE_SHAPE = "mb1ic128ih28oc128oh28kh3ph1"
TILE_1X1_SHAPE = "mb1ic256ih56oc64oh56kh1ph0"
ONE_BY_ONE = "/1x1"
PROBES = {
    "vpdpbusd": ("u8:s8:u8", "brgemm", VECTOR_SHAPE),
    "vdpbf16ps": ("bf16", "brgemm", VECTOR_SHAPE),
    "vfmadd231ps": ("f32", "brgemm", VECTOR_SHAPE),
    "tdpbusd": ("u8:s8:u8", "brgemm_amx", TILE_SHAPE),
    "tdpbf16ps": ("bf16", "brgemm_amx", TILE_SHAPE),
    "tdpbusd" + ONE_BY_ONE: ("u8:s8:u8", "brgemm_amx", TILE_1X1_SHAPE),
    "tdpbf16ps" + ONE_BY_ONE: ("bf16", "brgemm_amx", TILE_1X1_SHAPE),
}
PROBE_DRIVER = "local-sync"
#: seconds the tiles' probe process may take (compiles included), past which its probes are left out
APART_TIMEOUT_S = 300
#: rounds of each probe's timing (the median ratio is kept), each a loop and a batch of probe calls of
#: about `PROBE_BATCH_S`
PROBE_ROUNDS = 7
PROBE_BATCH_S = 0.01
#: the fraction of each vector instruction's one-thread rate its probe reached on the CPU
#: `select.efficiency` was fitted on (AMD EPYC, Zen 4, 2 vCPUs: the median of six measurements,
#: 2026-11-30); the tiles' reference is the AMX model's (`cost.probe_reference`)
PROBE_REFERENCE = {"vpdpbusd": 0.97, "vdpbf16ps": 0.99, "vfmadd231ps": 1.01}


def probe_name(instr: str, p: ConvProblem) -> str:
    """The probe that stands for `p`'s kernel on instruction `instr`: the tiles' 1x1 one for a 1x1
    convolution, else the instruction's own."""
    one = instr + ONE_BY_ONE
    return one if one in PROBES and p.desc.taps == 1 else instr


def probe_instruction(name: str) -> str:
    """The instruction probe `name` is timed against."""
    return name.split("/")[0]


def probe_problem(name: str) -> ConvProblem:
    """The convolution of probe `name`."""
    dt, alg, shape = PROBES[name]
    (case,) = parse_conv_args(shlex.split(f"--dt={dt} --dir=FWD_D --stag=nhwc --wtag=oihw "
                                          f"--dtag=nhwc --alg={alg} {shape}"))
    return conv_problem(case)


def _compiled(p: ConvProblem, backend):
    return compile_mlir(render_conv(p, backend.for_flags("default")), backend,
                        extra_flags=backend.conv_flags("default", p), name="conv")


def _fraction(name: str, p: ConvProblem, artifact, backend) -> float:
    """The fraction of its instruction's one-thread rate probe `name` reaches: each of `PROBE_ROUNDS`
    rounds times the instruction's loop and then a batch of probe calls, and their ratio is taken,
    so that a slow window of a VM slows both; the median ratio counts."""
    rng = np.random.default_rng(0)
    module = LoadedModule(artifact.path, backend, PROBE_DRIVER)
    src = rng.integers(0, 4, p.src.buffer_nelems).astype(p.src.buffer_dtype)
    wei = rng.integers(-2, 3, p.wei.buffer_nelems).astype(p.wei.buffer_dtype)
    prepared = module.function(p.name + "_prepare").invoke(wei)
    call = module.function(p.name).bind(src, *prepared)
    (n,) = batch_sizes({name: call}, PROBE_BATCH_S).values()
    ops = kernel_ops(p)
    ratios = []
    for _ in range(PROBE_ROUNDS):
        (row,) = peak.measure(threads=[1], seconds=PROBE_BATCH_S, instructions=[probe_instruction(name)])
        ratios.append(ops / time_batch(call, n) / row.rates[1])
    return statistics.median(ratios)


def measure_probes(names, threads: int = 1, backend: str = "llvm-cpu", log=None,
                   left_out: dict[str, str] | None = None) -> dict[str, float]:
    """{probe: the fraction of its instruction's one-thread rate its kernel reaches} for the probes of
    the instructions in `names` (those this CPU has), compiled on up to `threads` threads and timed
    one after another. A probe that cannot be compiled or run is left out (`log` hears why, and
    `left_out` gets it by probe): the model then takes the fitted efficiencies as they are. The
    tiles' are probed only where `names` holds them: the calibration's loops ran them, so the CPU
    has them and the kernel granted their state."""
    be = get_backend(backend)
    todo = {}
    for name in PROBES:
        instr = probe_instruction(name)
        if instr not in names:
            continue
        p = probe_problem(name)
        if instruction(p) == instr:             # bf16 without vdpbf16ps widens to vfmadd231ps: no probe
            todo[name] = p
    if not todo:
        return {}
    with ThreadPoolExecutor(max(1, min(threads, len(todo)))) as pool:
        futures = {name: pool.submit(_compiled, p, be) for name, p in todo.items()}
    out = {}
    for name, p in todo.items():
        try:
            out[name] = _fraction(name, p, futures[name].result(), be)
        except KgenError as e:
            if log:
                log(f"  kernel probe {name} left out: {e}")
            if left_out is not None:
                left_out[name] = str(e)
            continue
    return out


def _apart_command(names, threads: int) -> list[str]:
    return [sys.executable, "-m", "generator.select.probe", "--threads", str(threads), *names]


def measure_probes_apart(names, threads: int = 1, log=None,
                         left_out: dict[str, str] | None = None) -> dict[str, float] | None:
    """`measure_probes` of the instructions in `names` in a child process: its probes, or None where
    the process failed (a probe kernel that faulted, a timeout), with why for `log` and, for each
    instruction, in `left_out`. A probe that could not be compiled or run without faulting is left
    out as in `measure_probes`."""
    try:
        done = subprocess.run(_apart_command(names, threads), capture_output=True, text=True,
                              timeout=APART_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        why = f"took over {APART_TIMEOUT_S} s"
    except OSError as e:
        why = f"could not start ({e})"
    else:
        if done.returncode == 0:
            try:
                out = json.loads(done.stdout.strip().splitlines()[-1])
                kernels = {str(k): float(v) for k, v in out["kernels"].items()}
            except (ValueError, IndexError, KeyError, TypeError, AttributeError):
                why = "printed no result"
            else:
                for line in out.get("log", ()):
                    if log:
                        log(line)
                if left_out is not None:
                    left_out.update(out.get("left_out", {}))
                return kernels
        else:
            code = done.returncode
            sig = signal_name(code) if code < 0 else f"exit {code}"
            last = (done.stderr.strip().splitlines() or [""])[-1][:200]
            why = f"died ({sig}){': ' + last if last else ''}"
    if log:
        log(f"  kernel probes {', '.join(names)}: the probe process {why}")
    if left_out is not None:
        left_out.update({name: f"the probe process {why}" for name in names})
    return None


def _main(argv: list[str]) -> int:
    """The child of `measure_probes_apart`: its probes and log lines as one JSON line on stdout."""
    threads, names = 1, list(argv)
    if names[:1] == ["--threads"]:
        threads, names = int(names[1]), names[2:]
    lines: list[str] = []
    left_out: dict[str, str] = {}
    kernels = measure_probes(names, threads, log=lines.append, left_out=left_out)
    print(json.dumps({"kernels": kernels, "log": lines, "left_out": left_out}))
    return 0


if __name__ == "__main__":          # pragma: no cover - run by measure_probes_apart
    sys.exit(_main(sys.argv[1:]))
