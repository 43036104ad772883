"""`kgen net`: plan the layouts of a whole network of convolutions, check it and time it.

    kgen net --model=torchvision:resnet50 [--mb=1] [--dt=f32|bf16|int8] [--calibration=N|FILE.npy] [--plan-only]
             [--json=F]
             [--breakdown] [--breakdown-png=F]
    kgen net --graph=FILE [--plan-only] ...
    kgen net ... --address=HOST:PORT     measure on a Ray farm's workers of this CPU kind (docs/scale-out.md)

--model takes torchvision:NAME (torchvision's model with weights=None; kgen's copy of resnet50,
resnext50_32x4d and mobilenet_v2 when torchvision does not import), zoo:NAME (one of kgen's small
networks of other architectures: generator/net/zoo.py) or MODULE:CALLABLE (a Python function returning
an nn.Module); --input-shape=NxCxHxW overrides its example input (default: --mb x 3 x 224 x 224, a zoo
model's own).
--graph takes the text form, one layer per line: NAME SRC -> DST [+RESIDUAL] [benchdnn conv options]
DESC (tensors by name; +RESIDUAL is the tensor the layer's sum post-op adds).

The planner measures each layer's kernel in each candidate layout (--layouts, default per data
type) and the reorders between them, cached in the selection table ($KGEN_CACHE_DIR/tuned.json),
and picks the layouts with the least total time. It prints, per layer, the layouts of the plan and
of two baselines (every layer in NCHW; every layer in its own fastest layout, with the reorders
that forces), the plan's reorders, and the totals. Unless --plan-only it then checks the result
(against PyTorch eager, or layer by layer against the float64 reference) and times the plan, both
baselines and PyTorch eager (NCHW and channels_last) end to end in one run; a --graph network also
on device tensors (inputs uploaded once, outputs left on the device: what the planner prices).
PyTorch is timed in kgen's process (OpenMP passive) and alone in a process of its own with OpenMP's
default policy between the same rounds, and the faster figure is compared (--no-torch-alone: the first).
--breakdown (a --model) then says where the plan's time goes: every node of the optimized module timed
apart, kgen's calls split into kernels, reorders, transfers and glue, the ops left to PyTorch by op,
next to PyTorch eager's own profile (torch.profiler, self CPU time per op); --breakdown-png draws it.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import sys

from ..compile import get_backend
from ..compile.host import host_cpu_description
from ..errors import InputError, UnsupportedError, first_line
from ..net import load_network
from ..net.models import torchvision_model
from ..select.candidates import check_layouts
from .npyio import as_dtype, check_output_path, load_npy

# `kgen net` runs kernels: IREE's runtime (`generator.net.report`, `generator.bench`) and PyTorch are
# imported in `run` once the command line is checked, so that a bad one fails at once.


def _model(spec: str, log):
    """(the model, a picklable callable that builds the same architecture again: what the process
    that times PyTorch alone builds, to load the model's weights into)."""
    kind, _, name = spec.partition(":")
    if not name:
        raise InputError(f"--model={spec}: expected torchvision:NAME, zoo:NAME or MODULE:CALLABLE")
    if kind == "torchvision":
        return torchvision_model(name, log), functools.partial(torchvision_model, name)
    if kind == "zoo":
        from ..net import zoo
        return zoo.model(name), functools.partial(zoo.model, name)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())     # MODULE is looked for where kgen runs, as `python -m` would
    try:
        fn = getattr(importlib.import_module(kind), name)
    except (ImportError, AttributeError) as e:
        raise InputError(f"--model={spec}: {e}") from None
    except Exception as e:              # noqa: BLE001 -- the user's module failed as it imported
        raise InputError(f"--model={spec}: importing {kind} raised {type(e).__name__}: {first_line(e)}") from None
    if not callable(fn):
        raise InputError(f"--model={spec}: {spec} is a {type(fn).__name__}, not a callable that returns a "
                         f"torch.nn.Module")
    try:
        model = fn()
    except Exception as e:              # noqa: BLE001 -- the user's code: its error, in one line
        raise InputError(f"--model={spec}: calling {spec}() raised {type(e).__name__}: {first_line(e)}") from None
    import torch
    if not isinstance(model, torch.nn.Module):
        raise InputError(f"{spec} returned {type(model).__name__}, not a torch.nn.Module")
    return model, fn


class _Deferred:
    """A log whose held notes (which model was built) come out before the next message, or at the end:
    a run that stops on bad input prints its one error line and nothing before it."""

    def __init__(self, log):
        self.log, self.held = log, []

    def hold(self, msg: str) -> None:
        self.held.append(msg)

    def flush(self) -> None:
        for m in self.held:
            self.log(m)
        self.held = []

    def __call__(self, msg: str) -> None:
        self.flush()
        self.log(msg)


def run(argv: list[str], parser_cls) -> int:
    ap = parser_cls(prog="kgen net", description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="torchvision:NAME, zoo:NAME or MODULE:CALLABLE")
    src.add_argument("--graph", help="a text network (see kgen net --help)")
    ap.add_argument("--mb", type=int, default=1, help="batch of the example input (default 1)")
    ap.add_argument("--input-shape", default=None, help="the example input's shape, e.g. 1x3x224x224")
    ap.add_argument("--dt", default="f32", help="what the conv blocks compute in: f32 (default), bf16, or int8 (the "
                                                "model quantized first: --calibration)")
    ap.add_argument("--calibration", default=None, metavar="N|FILE.npy",
                    help="--dt=int8: quantize the model first (torch.ao FX, x86 default config) on N random batches "
                         "of the example's shape (default 4), or on the float32 inputs in FILE.npy (K x the "
                         "example's other dims, taken a batch of the example's size at a time)")
    ap.add_argument("--backend", default="llvm-cpu")
    ap.add_argument("--driver", default=None, help="runtime driver of every kernel (default: the backend's)")
    ap.add_argument("--layouts", default=None, help="candidate layouts, e.g. nchw,nhwc,nChw16c (default: per data type)")
    ap.add_argument("--plan-only", action="store_true", help="plan and print; no check, no end-to-end timing")
    ap.add_argument("--strict", action="store_true", help="fail when a conv cannot run on kgen (default: it stays in PyTorch)")
    ap.add_argument("--rounds", type=int, default=10, help="end-to-end timing rounds (default 10)")
    ap.add_argument("--jobs", type=int, default=2, help="compiles in parallel (default 2)")
    ap.add_argument("--address", default=None, help="HOST:PORT of a Ray head: measure the layers and reorders on "
                                                    "its kgen workers of this CPU kind ($KGEN_RAY_ADDRESS)")
    ap.add_argument("--no-torch-alone", action="store_true",
                    help="time PyTorch only round-robin in this process (OpenMP passive), not also alone in its "
                         "own process (OpenMP default policy) between the same rounds (the faster is compared)")
    ap.add_argument("--png", default=None, help="draw the plan (layers coloured by layout) into this PNG")
    ap.add_argument("--breakdown", action="store_true",
                    help="--model: also where the plan's time goes (kgen kernels, reorders, transfers, the ops "
                         "left to PyTorch), next to PyTorch eager's torch.profiler profile")
    ap.add_argument("--breakdown-png", default=None, help="draw the breakdown into this PNG (implies --breakdown)")
    ap.add_argument("--json", default=None, help="write the plans, checks and times as JSON")
    ap.__class__ = parser_cls
    a = ap.parse_args(argv)
    if a.mb < 1 or a.rounds < 1 or a.jobs < 1:
        raise InputError("--mb, --rounds and --jobs must be at least 1")
    check_output_path("png", a.png, "matplotlib")
    check_output_path("breakdown-png", a.breakdown_png, "matplotlib")
    a.breakdown = a.breakdown or bool(a.breakdown_png)
    if a.breakdown and (a.graph or a.plan_only):
        raise InputError("--breakdown times a --model's plan node by node: not with "
                         + ("--graph (a text network has no PyTorch ops; its report times each runner)"
                            if a.graph else "--plan-only"))
    check_output_path("json", a.json)
    from ..bench.conv import log_stderr
    from ..net import report
    from ..net.torch_bridge import DTYPES

    # what needs no model is checked before one is built
    layouts = check_layouts([t for t in a.layouts.split(",") if t] if a.layouts else None)
    get_backend(a.backend)
    if a.model and a.dt not in DTYPES + ("int8",):
        raise UnsupportedError(f"--dt={a.dt}: kgen net plans {', '.join(DTYPES)} and int8 models")
    calibration = n_calibration = None          # the inputs of --calibration=FILE.npy, or N
    if a.calibration is not None:
        try:
            n_calibration = int(a.calibration)
        except ValueError:
            pass
        if a.dt != "int8" or n_calibration is not None and n_calibration < 1:
            raise InputError("--calibration=N (N >= 1) or --calibration=FILE.npy quantizes the model for --dt=int8")
        if n_calibration is None:
            calibration = as_dtype(load_npy(a.calibration, "calibration"), "f32", f"--calibration={a.calibration}")
    if a.graph:
        if a.dt != "f32":
            raise InputError("--dt applies to --model; a --graph line carries its own --dt")
        result = report.run_graph(load_network(a.graph), backend=a.backend, driver=a.driver, layouts=layouts,
                                  plan_only=a.plan_only, rounds=a.rounds, jobs=a.jobs, log=log_stderr,
                                  address=a.address)
    else:
        from ..runtime.timing import import_torch
        torch = import_torch(log_stderr)
        if torch is None:
            raise UnsupportedError("--model needs PyTorch (pip install -e .[bench])")
        shape = (a.mb, 3, 224, 224)
        if a.model.startswith("zoo:"):
            from ..net import zoo
            shape = zoo.input_shape(a.model[4:], a.mb)
        if a.input_shape:
            try:
                shape = tuple(int(v) for v in a.input_shape.split("x"))
            except ValueError:
                raise InputError(f"--input-shape={a.input_shape}: expected NxCxHxW") from None
            if any(v < 1 for v in shape):
                raise InputError(f"--input-shape={a.input_shape}: every size must be at least 1")
        if calibration is not None and (calibration.ndim != len(shape) or calibration.shape[1:] != shape[1:]
                                        or not len(calibration)):
            raise InputError(f"--calibration={a.calibration} is {'x'.join(map(str, calibration.shape))}: calibration "
                             f"inputs are K x {'x'.join(map(str, shape[1:]))} (the example input's dims after its "
                             f"batch), K >= 1")
        torch.manual_seed(0)
        log = _Deferred(log_stderr)
        model, factory = _model(a.model, log.hold)
        model = model.eval()
        x = torch.randn(shape)
        if calibration is not None:
            batches = [torch.from_numpy(calibration[i:i + shape[0]].copy()) for i in range(0, len(calibration), shape[0])]
        else:
            batches = [torch.randn(shape) for _ in range(n_calibration or 4)] if a.dt == "int8" else None
        result = report.run_model(model, x, dtype=a.dt, calibration=batches, backend=a.backend, driver=a.driver, layouts=layouts,
                                  plan_only=a.plan_only, strict=a.strict, rounds=a.rounds, jobs=a.jobs, log=log,
                                  torch_alone=not a.no_torch_alone, factory=factory, breakdown=a.breakdown,
                                  address=a.address)
        log.flush()
    print(f"cpu: {host_cpu_description()}")
    print(report.format_result(result))
    if a.png:
        from ..net.plan import write_png
        write_png(result.net, result.plans[0], a.png)
    if a.breakdown_png:
        from ..net.breakdown import write_breakdown_png
        write_breakdown_png(result.breakdown, a.breakdown_png)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result.to_json(), f, indent=1)
    if result.max_rel_err is not None and not result.max_rel_err <= result.bound:
        print(f"kgen net: FAILED: the result differs by {result.max_rel_err:.2e} (bound {result.bound:g})", file=sys.stderr)
        return 1
    return 0
