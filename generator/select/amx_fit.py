"""Fit `cost.AMX_MODEL` to an AMX CPU's own figures: `kgen bench conv --json` files that timed
brgemm_amx, read on the CPU that measured them.

    python -m generator.select.amx_fit BENCH.json [BENCH.json ...]

Each problem's fastest brgemm_amx figure (any layout, driver or flag set) becomes the fraction of its
tile instruction's rate the kernel reached: the operations it issues (`work.kernel_ops`) at this
CPU's calibrated rate on the threads it ran on, over its time less the driver's call and the bytes
the model prices apart (`cost.terms`). The model's form is kept,

    efficiency = base[kxk or 1x1] x P / (P + P0) x K / (K + K0)

(P the pixels the kernel computes, K its reduction: `cost.amx_efficiency`); P0 and K0 are searched on
a grid, each class's base is the geometric mean that grid point leaves, and the point with the least
squared log error wins. It prints the constants in `AMX_MODEL`'s form and each problem's measured
and predicted figures, for a person to put into `cost.AMX_MODEL` with the date and CPU. The
calibration's tile probes (`select.probe`) then read about 1 of their references on that CPU.
"""
from __future__ import annotations

import json
import math
import shlex
import sys
from dataclasses import dataclass

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..compile import get_backend
from ..compile.cache import host_cpu_id
from ..errors import InputError, KgenError
from ..problem.conv import ConvProblem
from . import calibration, cost
from .candidates import layout_tag
from .work import amx_pixels, amx_reduction

#: the grid P0 and K0 are searched on (pixels; reduction elements)
P0_GRID = (0, 5, 10, 20, 40, 80, 160, 320)
K0_GRID = (0, 20, 40, 80, 120, 160, 240, 320, 480, 640, 800, 1200)


@dataclass(frozen=True)
class Point:
    """One problem's brgemm_amx figure: its kind (int8, bf16), class (kxk, 1x1), the pixels and
    reduction of the model, and the efficiency it reached."""
    name: str
    kind: str
    cls: str
    pixels: int
    reduction: int
    efficiency: float
    ops_per_s: float


def _problem(entry: dict, layout: str) -> ConvProblem:
    desc, dt = entry["problem"], entry.get("dts") or entry["dt"]
    (plain,) = parse_conv_args(shlex.split(f"--dt={dt} {desc}"))
    tag = layout_tag(layout, conv_problem(plain).desc.ndims)
    (case,) = parse_conv_args(shlex.split(f"--dt={dt} --stag={tag} --dtag={tag} --alg=brgemm_amx {desc}"))
    return conv_problem(case)


def points(bench: dict, cal: calibration.Calibration, backend="llvm-cpu") -> list[Point]:
    """The brgemm_amx figures of one `kgen bench conv --json` result, as efficiencies on `cal`."""
    b = get_backend(backend)
    out = []
    for entry in bench.get("problems", ()):
        ran = [c for c in entry.get("candidates", ()) if c.get("variant") == "brgemm_amx"
               and c.get("status") == "ok" and c.get("seconds")]
        if not ran:
            continue
        best = min(ran, key=lambda c: c["seconds"])
        try:
            p = _problem(entry, best["layout"])
        except KgenError as e:
            raise InputError(f"{entry['problem']} ({entry['dt']}): {e}") from None
        t = cost.terms(p, b, cal, best.get("flags") or "default", best.get("driver"))
        if t is None or not t["instruction"].startswith("tdp"):
            continue
        kernel_s = best["seconds"] - t["call"] - t["R"]
        if kernel_s <= 0:
            continue
        out.append(Point(f"{entry['problem']} {entry['dt']}", cost.dtype_kind(p),
                         "1x1" if p.desc.taps == 1 else "kxk", amx_pixels(p), amx_reduction(p),
                         t["A"] / kernel_s, t["ops"] / best["seconds"]))
    return out


def _shape(pt: Point, p0: float, k0: float) -> float:
    return pt.pixels / (pt.pixels + p0) * pt.reduction / (pt.reduction + k0)


def fit(pts: list[Point]) -> tuple[dict, float]:
    """({"kxk", "1x1", "P0", "K0"}, the squared log error) of the grid point that fits `pts` (one data
    type's) best; a class with no point keeps no base."""
    best = None
    for p0 in P0_GRID:
        for k0 in K0_GRID:
            model = {"P0": p0, "K0": k0}
            for cls in ("kxk", "1x1"):
                logs = [math.log(pt.efficiency / _shape(pt, p0, k0)) for pt in pts if pt.cls == cls]
                if logs:
                    model[cls] = round(math.exp(sum(logs) / len(logs)), 3)
            err = sum(math.log(pt.efficiency / predict(model, pt)) ** 2 for pt in pts)
            if best is None or err < best[1]:
                best = (model, err)
    return best


def predict(model: dict, pt: Point) -> float:
    return model[pt.cls] * _shape(pt, model["P0"], model["K0"])


def main(argv: list[str] | None = None, out=sys.stdout) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__, file=out)
        return 0 if argv else 2
    cal = calibration.current()
    pts = []
    for path in argv:
        try:
            with open(path) as f:
                bench = json.load(f)
        except (OSError, ValueError) as e:
            print(f"amx_fit: {path}: {e}", file=out)
            return 2
        if not isinstance(bench, dict):
            print(f"amx_fit: {path} is not a kgen bench conv --json file", file=out)
            return 2
        if bench.get("cpu") != host_cpu_id():
            print(f"amx_fit: {path} was measured on CPU {bench.get('cpu')}, this is {host_cpu_id()}: "
                  f"fit on the CPU that measured it (its calibration prices the figures)", file=out)
            return 2
        try:
            pts += points(bench, cal)
        except (KgenError, KeyError, TypeError, AttributeError) as e:
            print(f"amx_fit: {path}: not a kgen bench conv --json file ({type(e).__name__}: {e})", file=out)
            return 2
    if not pts:
        print("amx_fit: no brgemm_amx figure in these files (kgen bench conv --alg=brgemm_amx,... --json=F "
              "on a CPU with amx_bf16 / amx_int8)", file=out)
        return 2
    print(cal.line(), file=out)
    for kind in sorted({pt.kind for pt in pts}):
        mine = [pt for pt in pts if pt.kind == kind]
        model, _ = fit(mine)
        print(f'AMX_MODEL["{kind}"] = {json.dumps(model)}', file=out)
        for pt in mine:
            pred = predict(model, pt)
            print(f"  {pt.name:42s} {pt.cls:3s} P {pt.pixels:6d} K {pt.reduction:5d}: reached {pt.efficiency:.3f} "
                  f"of the peak ({pt.ops_per_s / 1e9:.0f} G/s), fitted {pred:.3f} ({pred / pt.efficiency:.2f}x)",
                  file=out)
    return 0


if __name__ == "__main__":          # pragma: no cover - python -m generator.select.amx_fit
    sys.exit(main())
