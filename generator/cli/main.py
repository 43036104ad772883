"""`kgen`: the command line. Subcommands: desc, reorder, conv, catalog, bench, tune, calibrate, net.

Every error the product raises on bad input becomes one line, `kgen: error: ...`, and exit status 2;
problems that fail their check exit 1; a bug in kgen itself (`InternalError`, e.g. a template that fails
to render) is reported as `kgen: internal error: ...` with exit status 3. No traceback reaches the user
unless KGEN_DEBUG=1.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..benchdnn.conv import parse_conv_args
from ..benchdnn.reorder import given_quant_values, parse_args as parse_reorder_args, parse_dims, reorder_problem
from ..compile import get_backend
from ..compile.backends import cpu_threads
from ..errors import InternalError, KgenError
from ..layout import MemoryDesc
from ..version import __version__
from . import farm_cmd
from .farm_cmd import add_farm_options, check_jobs
from .npyio import check_output_path

# The commands that render, compile, run or time kernels import that machinery (the emitters and their
# templates, IREE's runtime through `generator.api`, `generator.bench`) inside their functions, so that
# `kgen desc`, `kgen --help` and a bad command line answer at once.

USAGE = """usage: kgen <command> [options]

commands:
  desc      --tag=TAG [--dt=DT] [--strides=S] DIMS    print a memory descriptor (padded dims, strides, blocks, size)
  reorder   [benchdnn reorder options] DIMS...        generate, compile, run and check reorders
            (--sdt --ddt --stag --dtag --strides=SRC:DST --attr-scales --attr-zero-points --batch=FILE
             --backend=llvm-cpu|vulkan|cuda --input=FILE.npy --output=FILE.npy --scales-src|dst=F.npy
             --zero-points-src|dst=F.npy; options apply to the problems after them, as in benchdnn)
  conv      [benchdnn conv options] DESC...             generate, compile, run and check convolutions
            (--dir=FWD_B|FWD_D|FWD_I --dt=f32|bf16|f16 (any mix)|u8:s8:DST|s8:s8:DST --bia-dt=f32|bf16|f16|s32
             --stag --wtag --dtag (default plain abx; any: kgen chooses, tuned or by rule, and the
             repro line names the layouts chosen) --attr-scales=src:common:S+wei:per_oc+dst:common:S
             --attr-zero-points=src:common:Z|per_dim_1+wei:common:Z+dst:common:Z|per_dim_1
             --attr-post-ops=sum[:SCALE[:ZP[:DT]]]+ELTWISE[:ALPHA[:BETA[:SCALE]]]+BINARY:DT[:MASK[:TAG]]+prelu[:MASK]
             --alg=direct|im2col|winograd[_f2|_f4|_f6]|spatial_pack|indirect|brgemm[_fma|_amx]|auto
             --mb=N --backend=B --src/--wei/--bia/--dst=F.npy --mode=C|P --batch=FILE --jobs=N (compiles ahead);
             attribute arrays as .npy: --scales-src|wei|dst=F --zero-points-src|wei|dst=F
             --dst-init=F (sum's prior dst) --binary-I=F --prelu-I=F (post-op I's input))
  catalog   build [--backend=B] [--jobs=N] [--address=HOST:PORT] [--progress=text|json|none] [--no-run]
                                                       regenerate mlir/ and compile the kernel catalog into build/
  bench     reorder [--backend=B] [--dt=DT] [--rounds=N] [--json=FILE] [benchdnn reorder options] [DIMS...]
                                                       reorder GB/s vs NumPy copy and PyTorch
  bench     call [--backend=B] [--rounds=N] [--json=FILE]      us per call of a tiny conv per runtime path
  bench     conv [--alg=A,B] [--layouts=L,M] [--flags=F,G] [--json=FILE] [--png=FILE] [--all]
            [benchdnn conv options] [DESC...]         every variant x layout x flag set vs PyTorch's conv
            (default problems: the ResNet-50 layers at batch 1)
  tune      [--alg=A,B] [--flags=F,G] [--layouts=L,M] [--table=FILE] [--retune] [--exhaustive] [--address=HOST:PORT]
            [--progress=text|json|none] [benchdnn conv options] [DESC...]
            measure the variants x flag sets the cost model puts within 1.3x of the fastest (--exhaustive:
            every one) in the given layouts (with --stag/--dtag=any: in every layout, blocked ones
            included); --alg=auto and format any then use the fastest
  tune      reorder [--backend=B] [--rounds=N] [--table=FILE] [--address=HOST:PORT] [benchdnn reorder options] DIMS...
            measure each reorder in every emission form (pack, transpose); reorders then use the fastest
  calibrate [--show]                                  measure this CPU for the cost model (tune, --alg=auto) and store it
  net       --model=torchvision:resnet50|--graph=FILE [--mb=N] [--layouts=L,M] [--plan-only] [--png=F] [--json=F]
            plan the layouts of a whole network (measured), check it, time it against PyTorch eager
  worker    --address=HOST:PORT [--num-cpus=N] [--block]  join this machine to a Ray farm (kgen[ray])
  cpu-id    [--describe]                              this machine's CPU kind: what tables and farm labels name
  --version, --help
"""


def _desc(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="kgen desc", description="Print a memory descriptor.")
    ap.add_argument("--tag", default=None, help="format tag (nchw, nChw16c, aBcd16b, NCHW4, OIHW16i16o, ...)")
    ap.add_argument("--dt", default="f32", help="data type (f32, f16, bf16, s32, s8, u8)")
    ap.add_argument("--strides", default=None, help="explicit strides in elements, e.g. 340x20x4x1")
    ap.add_argument("dims", help="logical dims, e.g. 2x17x5x4")
    a = _parse(ap, argv)
    dims, _ = parse_dims(a.dims)
    strides = None
    if a.strides:
        try:
            strides = [int(s) for s in a.strides.split("x")]
        except ValueError:
            raise KgenError(f"--strides={a.strides}: expected integers joined by 'x'") from None
    if a.tag is None and strides is None:
        a.tag = "abx"
    if a.tag == "any":
        raise KgenError("--tag=any: format 'any' has no layout of its own; a convolution chooses it "
                        "(kgen conv --stag=any), and its repro line names the layout chosen")
    print(MemoryDesc(dims, a.dt, a.tag, strides=strides).describe())
    return 0


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):          # one line and exit 2, like every other bad input
        raise _ArgError(f"{self.prog}: {message}")


def _parse(ap: argparse.ArgumentParser, argv):
    ap.__class__ = _Parser
    return ap.parse_args(argv)


def _catalog(argv: list[str]) -> int:
    from ..catalog import build_catalog

    ap = argparse.ArgumentParser(prog="kgen catalog", description="Build the kernel catalog.")
    ap.add_argument("action", choices=["build", "render"], help="build: render, compile and check; render: only mlir/")
    ap.add_argument("--backend", default="llvm-cpu", help="llvm-cpu (default), vulkan or cuda")
    add_farm_options(ap, "compiles in parallel: local worker processes (default: one per CPU)")
    ap.add_argument("--no-run", action="store_true", help="compile only, do not check against NumPy")
    a = _parse(ap, argv)
    check_jobs(a.jobs)
    return build_catalog(a.backend, jobs=a.jobs, run=not a.no_run, compile=a.action == "build",
                         address=a.address, progress=a.progress)


def _bench(argv: list[str]) -> int:
    if argv[:1] == ["conv"]:
        return _bench_conv(argv[1:])
    if argv[:1] == ["peak"]:
        return _bench_peak(argv[1:])
    ap = argparse.ArgumentParser(
        prog="kgen bench", description="Benchmarks, measured side by side in one run. `kgen bench reorder` also "
        "takes benchdnn reorder options and dims (default: nchw <-> nChw16c and nchw -> nhwc on three shapes, "
        "in --dt); `kgen bench conv --help` for the convolutions; `kgen bench peak` for the instruction peaks.")
    ap.add_argument("what", choices=["reorder", "conv", "call", "peak"])
    ap.add_argument("--backend", default="llvm-cpu")
    ap.add_argument("--dt", default=None, help="reorder: the data type of the default problems (default f32)")
    ap.add_argument("--rounds", type=int, default=9, help="round-robin rounds; the median is reported")
    ap.add_argument("--json", default=None, help="also write the rows as JSON")
    ap.__class__ = _Parser
    a, rest = ap.parse_known_args(argv)
    if a.rounds < 1:
        raise KgenError("--rounds must be at least 1")
    if rest and a.what != "reorder":
        raise KgenError(f"kgen bench {a.what}: unrecognized arguments: {' '.join(rest)}")
    from ..bench.conv import log_stderr
    from ..bench.reorder import write_json

    if a.what == "call":
        from ..bench.calls import bench_calls, format_table as call_table
        rows = bench_calls(backend=a.backend, rounds=a.rounds, log=log_stderr)
        print(call_table(rows))
    else:
        from ..bench.reorder import DEFAULT_CASES, bench_reorders, format_table
        cases, given = DEFAULT_CASES, {}
        if rest:
            if a.dt is not None:
                raise KgenError("--dt chooses the data type of the default problems; give your own with "
                                "benchdnn's --sdt / --ddt")
            cases = []
            for case in parse_reorder_args(rest, cwd=Path.cwd()):
                given[len(cases)] = given_quant_values(case)
                cases.append(reorder_problem(case))
        rows = bench_reorders(cases, a.backend, a.dt or "f32", a.rounds, log=log_stderr, given=given)
        print(format_table(rows))
    if a.json:
        write_json(rows, a.json)
    return 0


def _bench_peak(argv: list[str]) -> int:
    from ..runtime.peak import LOOPS, format_table, measure, thread_counts
    from ..compile.host import host_cpu_description

    ap = argparse.ArgumentParser(
        prog="kgen bench peak",
        description="The rate of each multiply-accumulate instruction kgen's kernels use, on registers only "
        "(no memory), on one thread and on every thread at once: the ceiling to read a kernel's GOP/s against. "
        f"Loops: {', '.join(l.instruction for l in LOOPS)}; each runs where the CPU has its features.")
    ap.add_argument("--seconds", type=float, default=0.3, help="how long each loop runs per thread count (default 0.3)")
    ap.add_argument("--threads", default=None, help="thread counts, e.g. 1,2 (default: 1 and every CPU)")
    ap.add_argument("--instructions", default=None, help="only these loops, e.g. vpdpbusd,tdpbusd")
    ap.__class__ = _Parser
    a = ap.parse_args(argv)
    try:
        given = [int(t) for t in _list(a.threads)] if a.threads else None
    except ValueError:
        raise KgenError(f"--threads={a.threads}: expected thread counts, e.g. 1,2") from None
    threads = thread_counts(given)
    rows = measure(threads, a.seconds, _list(a.instructions))
    print(f"cpu: {host_cpu_description()}")
    print(format_table(rows, threads))
    return 0


def _list(text: str | None) -> list[str] | None:
    return [t for t in text.split(",") if t] if text else None


def _sweep_parser(prog: str, description: str, rounds: int) -> argparse.ArgumentParser:
    """The options `kgen bench conv` and `kgen tune` share (both sweep variants x flag sets)."""
    ap = _Parser(prog=prog, description=description)
    ap.add_argument("--backend", default="llvm-cpu")
    ap.add_argument("--alg", default=None, help="variants to try, comma-separated (default: all)")
    ap.add_argument("--flags", default=None, help="flag sets to try, e.g. default,dt (default: all of the backend's)")
    ap.add_argument("--drivers", default=None,
                    help="runtime drivers to time each kernel on, e.g. local-task; on llvm-cpu also host-threads "
                         "(the conv cut into one part per CPU, each on local-sync from its own thread) "
                         "(default: all of the backend's)")
    ap.add_argument("--rounds", type=int, default=rounds, help=f"round-robin rounds; the median is kept (default {rounds})")
    ap.add_argument("--jobs", type=int, default=2, help="compiles in parallel (default 2)")
    return ap


def _sweep_args(ap: argparse.ArgumentParser, argv: list[str]):
    """Parsed sweep options, the backend, the variants (None: all) and the conv cases; the arguments
    argparse does not know are benchdnn conv options and descriptors (default: the ResNet-50 layers)."""
    from ..bench.conv import RESNET50_LAYERS
    from ..emit.conv import VARIANTS

    a, rest = ap.parse_known_args(argv)
    backend = get_backend(a.backend)
    variants = _list(a.alg)
    for v in variants or []:
        if v not in VARIANTS:
            raise KgenError(f"--alg: unknown variant '{v}' (known: {', '.join(VARIANTS)})")
    if a.rounds < 1 or a.jobs < 1:
        raise KgenError("--rounds and --jobs must be at least 1")
    has_problem = any(not t.startswith("-") or t.startswith("--batch") for t in rest)
    cases = list(parse_conv_args(rest if has_problem else rest + list(RESNET50_LAYERS)))
    if not cases:
        raise KgenError("no conv problems given")
    return a, backend, variants, cases


def _bench_conv(argv: list[str]) -> int:
    ap = _sweep_parser(
        "kgen bench conv",
        "Every applicable variant x layout x compile-flag set of each problem, checked once and then timed on "
        "each runtime driver "
        "side by side with PyTorch's conv (NCHW and channels_last) and IREE's default named conv; other "
        "arguments are benchdnn conv options and descriptors (default: the ResNet-50 layers at batch 1).", 7)
    ap.add_argument("--layouts", default=None, help="layouts to try, e.g. nchw,nhwc,nChw16c (default: per data type)")
    ap.add_argument("--json", default=None, help="write every candidate's figures as JSON")
    ap.add_argument("--png", default=None, help="draw the speed-up per layer and a roofline into this PNG")
    ap.add_argument("--all", action="store_true", help="list every candidate under its problem")
    ap.add_argument("--no-torch-alone", action="store_true",
                    help="time PyTorch only round-robin in this process (OpenMP passive), not also alone in its own "
                         "process with OpenMP's default wait policy, between the same rounds (the faster figure is compared)")
    a, backend, variants, cases = _sweep_args(ap, argv)
    check_output_path("png", a.png, "matplotlib")
    check_output_path("json", a.json)
    from ..bench.conv import bench_convs, format_table, log_stderr, to_json, write_png

    results, ceiling = bench_convs(cases, backend.name, variants=variants, layouts=_list(a.layouts),
                                   flag_sets=_list(a.flags), drivers=_list(a.drivers), rounds=a.rounds,
                                   jobs=a.jobs, log=log_stderr, torch_alone=not a.no_torch_alone)
    print(format_table(results, a.all))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(to_json(results, ceiling, backend.name), f, indent=1)
    if a.png:
        write_png(results, ceiling, a.png)
    return 0


def _tune_reorder(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="kgen tune reorder",
        description="Measure each reorder in every emission form the backend compiles (pack: linalg.pack/unpack; "
        "transpose: pad + expand_shape + transpose; shuffle, on llvm-cpu where the reorder is one 2-D "
        "transposition of 8-, 16- or 32-bit elements: a register-tile microkernel), on one thread and, where it can be cut into one part per "
        "CPU, on the host-threads driver (FORM@host-threads), check each once, and store the fastest correct "
        "form and driver in the selection table the reorder API reads (`kgen reorder`, which checks kernels in "
        "compiled batches on one thread, reads the form). Other arguments are "
        "benchdnn reorder options and dims (default: the `kgen bench reorder` problems).")
    ap.add_argument("--backend", default="llvm-cpu")
    ap.add_argument("--rounds", type=int, default=7, help="round-robin rounds; the median is compared")
    ap.add_argument("--table", default=None, help="the selection table to update (default: $KGEN_TUNED_TABLE, "
                                                  "else tuned.json in the kernel cache)")
    add_farm_options(ap)            # on a farm, each reorder is measured once per CPU kind there
    ap.__class__ = _Parser
    a, rest = ap.parse_known_args(argv)
    if a.rounds < 1:
        raise KgenError("--rounds must be at least 1")
    from ..bench.conv import log_stderr
    from ..bench.tune import format_reorder_choices, tune_reorders

    backend = get_backend(a.backend)
    problems, given = [], {}
    if rest:
        for case in parse_reorder_args(rest, cwd=Path.cwd()):
            given[len(problems)] = given_quant_values(case)
            problems.append(reorder_problem(case))
    else:
        from ..bench.reorder import default_problems
        problems = default_problems("f32")
    rows, path = tune_reorders(problems, backend.name, given=given, rounds=a.rounds, log=log_stderr,
                               path=Path(a.table) if a.table else None, address=a.address, progress=a.progress)
    print(format_reorder_choices(rows))
    print(f"selection table: {path}")
    return 0 if rows and all(r["chosen"] for r in rows) else 1


def _calibrate(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="kgen calibrate",
        description="Measure this CPU for the cost model (each multiply-accumulate instruction's rate on one "
        "thread and on every thread, on registers only; the copy bandwidth; what a small brgemm convolution reaches "
        "of each instruction's rate: brgemm on the vector ones, brgemm_amx on AMX's tiles), store it in calibration.json in the "
        "kernel cache, keyed by the CPU and thread count, and print it. `kgen tune` and --alg=auto measure it "
        "once on their own where none is stored.")
    ap.add_argument("--show", action="store_true", help="print the stored calibration (measuring only where none is)")
    a = _parse(ap, argv)
    from ..select import calibration

    if a.show:
        cal = calibration.current(lambda m: print(m, file=sys.stderr))
    else:
        cal = calibration.measure(log=lambda m: print(m, file=sys.stderr))
        calibration.store(cal)
    print(cal.line())
    print(f"calibration: {calibration.calibration_path()} (measured in {cal.seconds:.1f} s)")
    return 0


def _tune(argv: list[str]) -> int:
    if argv[:1] == ["reorder"]:
        return _tune_reorder(argv[1:])
    ap = _sweep_parser(
        "kgen tune",
        "Measure the applicable variants x compile-flag sets x runtime drivers of each problem that the cost model "
        "predicts within 1.3x of the fastest (and --alg=auto's untuned choice; --exhaustive: every one), in the "
        "layouts its --stag/--dtag give (format any: in every layout of --layouts), and store the fastest correct one "
        "in the table --alg=auto and format any read ($KGEN_CACHE_DIR/tuned.json). "
        "Other arguments are benchdnn conv options and descriptors (default: the ResNet-50 layers at batch 1).", 5)
    ap.add_argument("--table", default=None, help="the selection table to update (default: $KGEN_TUNED_TABLE, "
                                                  "else tuned.json in the kernel cache)")
    ap.add_argument("--layouts", default=None, help="layouts a format-any tensor is measured in, e.g. nchw,nhwc,nChw16c "
                                                    "(default: per data type)")
    add_farm_options(ap)            # on a farm, each problem is measured once per CPU kind there
    ap.add_argument("--retune", action="store_true", help="measure problems the table holds already again")
    ap.add_argument("--exhaustive", action="store_true",
                    help="compile and measure every candidate, not only those the cost model predicts within "
                         "1.3x of the fastest (and --alg=auto's untuned choice)")
    a, backend, variants, cases = _sweep_args(ap, argv)
    from ..bench.conv import log_stderr
    from ..bench.tune import format_choices, tune

    rows, path = tune(cases, backend.name, variants=variants, flag_sets=_list(a.flags), drivers=_list(a.drivers),
                      layouts=_list(a.layouts), rounds=a.rounds, jobs=a.jobs, log=log_stderr, path=Path(a.table) if a.table else None,
                      address=a.address, retune=a.retune, progress=a.progress, exhaustive=a.exhaustive)
    print(format_choices(rows))
    print(f"selection table: {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    if argv[0] == "--version":
        print(f"kgen {__version__}")
        return 0
    cmd, rest = argv[0], argv[1:]
    try:
        cpu_threads()               # a bad $KGEN_CPU_THREADS stops every command up front, not per problem
        if cmd in ("bench", "tune", "net"):
            # they check kernels against NumPy references, then time them: a BLAS thread that spins
            # after a check must not take the core the timed kernels need (`timing.quiet_blas`)
            from ..runtime.timing import quiet_blas
            quiet_blas()
        if cmd == "desc":
            return _desc(rest)
        if cmd == "reorder":
            from . import reorder_cmd
            if rest and rest[0] in ("-h", "--help"):
                print(reorder_cmd.__doc__)
                return 0
            return reorder_cmd.run(rest)
        if cmd == "conv":
            from . import conv_cmd
            if rest and rest[0] in ("-h", "--help"):
                print(conv_cmd.__doc__)
                return 0
            return conv_cmd.run(rest)
        if cmd == "catalog":
            return _catalog(rest)
        if cmd == "bench":
            return _bench(rest)
        if cmd == "tune":
            return _tune(rest)
        if cmd == "calibrate":
            return _calibrate(rest)
        if cmd in ("worker", "cpu-id"):
            if rest and rest[0] in ("-h", "--help"):
                print(farm_cmd.__doc__)
                return 0
            return (farm_cmd.worker if cmd == "worker" else farm_cmd.cpu_id)(rest, _Parser)
        if cmd == "net":
            from . import net_cmd
            if rest and rest[0] in ("-h", "--help"):
                print(net_cmd.__doc__)
                return 0
            return net_cmd.run(rest, _Parser)
        print(f"kgen: error: unknown command '{cmd}' (commands: desc, reorder, conv, catalog, bench, tune, calibrate, net, worker, cpu-id)", file=sys.stderr)
        return 2
    except (KgenError, _ArgError) as e:
        if os.environ.get("KGEN_DEBUG"):
            raise
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    except InternalError as e:
        if os.environ.get("KGEN_DEBUG"):
            raise
        print(f"kgen: internal error (a bug in kgen; KGEN_DEBUG=1 shows the traceback): {e}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("kgen: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
