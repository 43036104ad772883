"""`kgen tune`: measure every variant x flag set of each problem in the user's own layouts and store the
fastest correct one in the selection table `--alg=auto` reads (`select.table`).

Candidates are measured with the problem's --stag/--dtag as given, so a variant that computes in
another layout (direct's packed or channels-last frame, im2col's logical NCHW) pays for its relayout
inside the measured kernel: the reorder's cost is part of the choice.
"""
from __future__ import annotations

from typing import Callable

from ..select.candidates import USER_LAYOUT
from .conv import ProblemResult, base_problem, measure_problem, sweep


def tune(cases, backend: str = "llvm-cpu", *, variants=None, flag_sets=None, drivers=None, rounds: int = 5,
         jobs: int = 2, log: Callable[[str], None] = print, path=None
         ) -> tuple[list[tuple[object, ProblemResult]], object]:
    """Returns [(problem, result)] and the table path written."""
    from ..compile import get_backend
    from ..select import table as tuned
    b = get_backend(backend)
    sw = sweep(b, variants, flag_sets, drivers)
    out, entries = [], {}
    for i, case in enumerate(cases):
        p = base_problem(case)
        r = measure_problem(p, b, sw, [USER_LAYOUT], None, rounds, jobs, log, f"[{i + 1}/{len(cases)}]")
        out.append((p, r))
        best = r.best
        if best is None:
            log(f"  no candidate ran: {r.line} stays on the heuristic")
            continue
        entries[tuned.problem_key(p, b.name)] = {
            "variant": best.variant, "flags": best.flags, "driver": best.driver, "seconds": best.seconds,
            "gflops": r.gflops(best.seconds), "problem": r.line,
            "candidates": {c.label: c.seconds for c in r.candidates if c.seconds},
        }
    written = tuned.store(entries, path) if entries else (path or tuned.table_path())
    return out, written


def _short(c) -> str:
    return f"{c.variant}/{c.flags}{c.at_driver}"


def format_choices(rows) -> str:
    lines = [f"{'problem':34} {'layouts':22} {'chosen (variant/flags)':26} {'GFLOP/s':>8} {'runner-up':>26} {'x':>6}"]
    for p, r in rows:
        timed = sorted(r.timed, key=lambda c: c.seconds)
        lay = f"{p.src.format_name()}->{p.dst.format_name()}"
        if not timed:
            lines.append(f"{r.line:34} {lay:22} {'(none ran)':26}")
            continue
        best = timed[0]
        second = timed[1] if len(timed) > 1 else None
        lines.append(f"{r.line:34} {lay:22} {_short(best):26} {r.gflops(best.seconds):8.1f} "
                     + (f"{_short(second):>26} {second.seconds / best.seconds:6.2f}" if second else ""))
    return "\n".join(lines)
