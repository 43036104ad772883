"""`kgen tune`: measure the variants x flag sets of each problem that the cost model puts close to the
fastest (`prune_candidates`; `exhaustive`: every one) in the user's own layouts, and store the fastest
correct one in the selection table `--alg=auto` reads (`select.table`).

Candidates are measured with the problem's --stag/--dtag as given, so a variant that computes in
another layout (direct's packed or channels-last frame, im2col's logical NCHW) pays for its relayout
inside the measured kernel: the reorder's cost is part of the choice. A tensor in format `any`
(`--stag=any`) is measured in every candidate layout, blocked ones included, and the table keeps
the layouts chosen (`table_entries`).
"""
from __future__ import annotations

import dataclasses
import os
import time
from typing import Callable

import numpy as np

from ..api import ReorderKernel
from ..benchdnn.conv import conv_problem
from ..compile import get_backend
from ..compile.backends import cpu_threads
from ..emit.reorder import kernel_name, render_reorder
from ..errors import InternalError, KgenError, UnsupportedError
from ..scale import Progress, SerialExecutor, Unit, executor_for, run_units
from ..problem.partition import reorder_host_parts
from ..runtime.timing import median_times
from ..select import calibration, cost, heuristic, reorder_forms, table as tuned
from ..select.candidates import DEFAULT_LAYOUTS, USER_LAYOUT, check_layouts
from ..verify import check_reorder, reorder_call
from .conv import ProblemResult, bind_candidate, compile_candidates, measure_problem, sweep

def prune_candidates(cands, drivers, b, cal, factor: float = cost.PRUNE_FACTOR) -> str:
    """The cost model's cut (`select.cost`), before anything is compiled: each applicable candidate
    priced on each driver of the sweep, and kept where one of them is predicted within `factor` of the
    fastest prediction in its layout (a format-`any` problem's per-layout table entries are what
    tuning that layout alone would store). Also kept: the candidates the model does not price
    (`cost.estimate` is None: measured as before), and `--alg=auto`'s untuned choice in each layout,
    so a tune never stores a slower choice than the default. A variant whose compute kgen emits
    itself (`cost.FLAG_FREE`) is measured with the default flags only, where those apply. The others
    get the status "pruned: ..."; returns a note for the log."""
    ok = [c for c in cands if c.status == "ok"]
    if not ok:
        return ""
    default_of = {(c.variant, c.layout) for c in ok if c.flags == "default"}
    for c in ok:
        if c.variant in cost.FLAG_FREE and c.flags != "default" and (c.variant, c.layout) in default_of:
            c.status = "pruned: flags change nothing in this variant's own kernel (measured with the default flags)"
    ok = [c for c in ok if c.status == "ok"]
    for c in ok:
        ests = [e for drv in drivers if (e := cost.estimate(c.problem, b, cal, c.flags, drv)) is not None]
        c.predicted = min((e.seconds for e in ests), default=None)
    if all(c.predicted is None for c in ok):
        return f"; the cost model prices none ({cost.covers(ok[0].problem, b) or 'not measured'}): all measured"
    best, untuned = {}, {}
    for c in ok:
        if c.predicted is not None:
            best[c.layout] = min(best.get(c.layout, c.predicted), c.predicted)
        if c.layout not in untuned:
            ch = heuristic(dataclasses.replace(c.problem, alg="auto"), b.name, cal)
            untuned[c.layout] = (ch.variant, ch.flags)
    for c in ok:
        if (c.predicted is not None and c.predicted > best[c.layout] * factor
                and untuned[c.layout] != (c.variant, c.flags)):
            c.status = (f"pruned: predicted {c.predicted * 1e6:.0f} us, over {factor}x the fastest "
                        f"prediction in its layout ({best[c.layout] * 1e6:.0f} us)")
    kept = sum(c.status == "ok" for c in ok)
    return f"; the cost model keeps {kept} (--exhaustive measures all)"


#: a candidate within this factor of a problem's fastest is a close call: timed again after every
#: problem has been measured (`recheck_close_calls`)
CLOSE_CALL = 1.15
#: at most this many candidates of one problem are re-timed (the fastest first)
CLOSE_CALL_MAX = 4


def tune(cases, backend: str = "llvm-cpu", *, variants=None, flag_sets=None, drivers=None, layouts=None,
         rounds: int = 5, jobs: int = 2, log: Callable[[str], None] = print, path=None,
         address: str | None = None, retune: bool = True, progress: str = "text", exhaustive: bool = False
         ) -> tuple[list[tuple[object, ProblemResult]], object]:
    """Returns [(problem, result)] and the table path written. A problem with format `any` tensors
    is measured in every layout of `layouts` (default: `DEFAULT_LAYOUTS` for its data type).
    Only the candidates the cost model puts close to the fastest are compiled and measured
    (`prune_candidates`) where the backend has a cost model; `exhaustive` measures every one.
    With `address` (or $KGEN_RAY_ADDRESS) each problem is a unit on a Ray farm, once per CPU kind
    there (`tune_on_farm`). Without `retune`, a problem the table holds already is not measured."""
    b = get_backend(backend)
    layouts = check_layouts(layouts)
    sw = sweep(b, variants, flag_sets, drivers)
    if address or os.environ.get("KGEN_RAY_ADDRESS"):
        return tune_on_farm(cases, b, sw, layouts, rounds, jobs, log, path, address, retune, progress, exhaustive)
    prune = model_cut(b, exhaustive, log)
    start = time.perf_counter()
    out, entries = [], {}
    for i, case in enumerate(cases):
        p = conv_problem(case)
        if layouts and not p.has_any:
            log(f"note: --layouts applies to format any tensors (--stag=any / --dtag=any); {p.desc} is measured "
                f"in its own --stag / --dtag")
        if not retune and tuned.problem_key(p, b.name) in tuned.load(path):
            log(f"[{i + 1}/{len(cases)}] {p.desc}: stored already (--retune measures it again)")
            continue
        lays = _layouts_of(p, layouts)
        # two passes, each candidate keeping its better median: a choice is stored for good, and one
        # window of noise must not make it (measure_problem)
        r = measure_problem(p, b, sw, lays, None, rounds, jobs, log, f"[{i + 1}/{len(cases)}]", passes=2,
                            prune=prune)
        out.append((p, r))
        if r.best is not None:      # stored as measured, so a tune stopped later keeps it
            tuned.store(table_entries(p, r, b.name), path)
    # the close calls re-timed side by side may change a choice: stored again below
    recheck_close_calls(out, b, rounds, log)
    for p, r in out:
        if r.best is None:
            log(f"  no candidate ran: {r.line} stays on the heuristic")
            continue
        entries.update(table_entries(p, r, b.name))
    written = tuned.store(entries, path) if entries else (path or tuned.table_path())
    if out:
        kernels = sum(len({(c.variant, c.layout, c.flags) for c in r.candidates if c.status == "ok" or c.seconds})
                      for _, r in out)
        pruned = sum(c.status.startswith("pruned") for _, r in out for c in r.candidates)
        log(f"tuned {len(out)} problem{'s' if len(out) > 1 else ''} in {time.perf_counter() - start:.0f} s: "
            f"{kernels} kernels measured" + (f", {pruned} candidates left out by the cost model" if pruned else ""))
    return out, written


def _layouts_of(p, layouts) -> list[str]:
    # format `any`: the layouts are part of the choice, blocked ones included
    return list(layouts or DEFAULT_LAYOUTS.get(p.src.dtype.name, ("nchw", "nhwc"))) if p.has_any else [USER_LAYOUT]


def model_cut(b, exhaustive: bool, log):
    """`measure_problem`'s `prune` for a tune on backend `b` on this machine: the cost model's cut with
    this CPU's calibration (measured now if it has none), or None (`exhaustive`, or no model)."""
    if exhaustive or not b.cost_model:
        return None
    cal = calibration.current(log)
    return lambda cands, drivers: prune_candidates(cands, drivers, b, cal)


# ------------------------------------------------------------------------------------------ on a farm
def measure_unit(case, backend: str, sw, layouts, rounds: int, jobs: int, exhaustive: bool = False) -> dict:
    """One problem with the candidates the worker's cost model keeps, on a worker: the table entries
    are keyed there, by the CPU that measured them."""
    b = get_backend(backend)
    p, lines = conv_problem(case), []
    r = measure_problem(p, b, sw, _layouts_of(p, layouts), None, rounds, jobs, lines.append, "", passes=2,
                        prune=model_cut(b, exhaustive, lines.append))
    return {"problem": p, "result": r, "log": lines,
            "entries": table_entries(p, r, b.name) if r.best is not None else {}}


def recheck_unit(p, r: ProblemResult, backend: str, rounds: int, jobs: int, threads: bool) -> dict:
    """`recheck_close_calls` for one problem, on a worker of the CPU kind that measured it (its kernels
    come from that node's cache, or are compiled again on another node of the kind)."""
    b, lines = get_backend(backend), []
    missing = [c for c in close_calls(r) if c.artifact is None or not c.artifact.path.is_file()]
    compile_candidates(missing, b, jobs, lines.append, host_threads=threads)
    recheck_close_calls([(p, r)], b, rounds, lines.append)
    return {"problem": p, "result": r, "log": lines, "entries": table_entries(p, r, b.name)}


def tune_on_farm(cases, b, sw, layouts, rounds, jobs, log, path, address, retune, progress, exhaustive=False):
    """Each problem a measuring unit on every CPU kind of the farm, then its close calls again on the
    same kind; the driver stores each unit's entries as it finishes, under the measuring CPU's key."""
    if b.tuned_per_device:
        raise UnsupportedError(f"kgen tune on a farm measures CPU backends; tune {b.name} on the machine "
                               f"that holds its device")
    executor = executor_for(None, address)
    kinds = executor.cpu_kinds()
    problems = [(case, conv_problem(case)) for case in cases]
    stored = tuned.load(path)
    units = [Unit(f"[{i + 1}/{len(problems)}] {p.desc} on {cpu}", measure_unit,
                  (case, b.name, sw, layouts, rounds, jobs, exhaustive), "measure", cpu)
             for cpu in kinds for i, (case, p) in enumerate(problems)
             if retune or tuned.problem_key(p, b.name, cpu=cpu) not in stored]
    if len(units) < len(kinds) * len(problems):
        log(f"{len(kinds) * len(problems) - len(units)} problem(s) stored already (--retune measures them again)")
    rows = {}                   # a measuring unit's key -> (problem, result): a re-timing replaces its row
    again_suffix = " (close calls)"

    def keep(res):
        if not res.ok:
            log(f"  {res.unit.key}: FAILED ({res.error})")
            return
        for line in res.value["log"]:
            log(f"  {line.strip()}")
        entries = res.value["entries"]
        bad = [k for k in entries if k.split("|")[1] != res.worker.cpu]
        if bad:                 # a unit placed on the wrong kind: its figures hold for another CPU
            raise InternalError(f"{res.unit.key} was measured on CPU {res.worker.cpu}: {bad[0]}")
        if entries:
            tuned.store(entries, path)
        rows[res.unit.key.removesuffix(again_suffix)] = (res.value["problem"], res.value["result"])

    run_units(units, executor, keep, Progress("tune", len(units), progress, executor=executor.name))
    threads = b.host_threads_driver is not None and b.host_threads_driver_name in sw.drivers
    by_key = {u.key: u.target for u in units}
    again = [Unit(key + again_suffix, recheck_unit, (p, r, b.name, rounds, jobs, threads), "measure", by_key[key])
             for key, (p, r) in rows.items() if close_calls(r)]
    if again:
        log(f"re-timing {len(again)} close call{'s' if len(again) > 1 else ''} (candidates within "
            f"{CLOSE_CALL:.2f}x of the fastest)")
        run_units(again, executor, keep, Progress("re-time", len(again), progress, executor=executor.name))
    return list(rows.values()), (path or tuned.table_path())


def close_calls(r: ProblemResult) -> list:
    """The candidates of `r` within CLOSE_CALL of its fastest (the fastest first, at most
    CLOSE_CALL_MAX), where there are two or more; else none."""
    timed = sorted(r.timed, key=lambda c: c.seconds)
    close = [c for c in timed if c.seconds <= timed[0].seconds * CLOSE_CALL][:CLOSE_CALL_MAX] if timed else []
    return close if len(close) > 1 else []


def recheck_close_calls(rows, b, rounds: int, log: Callable[[str], None]) -> None:
    """Time each problem's close calls again, side by side, once every problem has been measured, and
    keep each candidate's better median. On a VM a slow window can last longer than one problem's
    two passes, and store the wrong choice for good (measured: docs/performance.md, Tuned constants).
    Timed minutes apart, the two passes are unlikely to meet the same window.
    The kernels come back from the compile cache and are checked again before they are timed."""
    todo = [(p, r, close_calls(r)) for p, r in rows]
    todo = [t for t in todo if t[2]]
    if not todo:
        return
    log(f"re-timing {len(todo)} close call{'s' if len(todo) > 1 else ''} (candidates within "
        f"{CLOSE_CALL:.2f}x of the fastest)")
    for p, r, close in todo:
        before = close[0]
        fns = {c.label: fn for c in close if (fn := bind_candidate(c, b, log)) is not None}
        for c in close:
            if c.label not in fns:          # wrong or failed this time: it is not stored
                c.seconds = None
        if len(fns) < 2:
            continue
        again = median_times(fns, rounds)
        for c in close:
            if c.label in again:
                c.seconds = min(c.seconds, again[c.label])
        after = r.best
        log(f"  {r.line}: {_short(after)} {r.gflops(after.seconds):.1f} GFLOP/s"
            + ("" if after is before else f" (was {_short(before)})"))


def _entry(r, c) -> dict:
    return {"variant": c.variant, "flags": c.flags, "driver": c.driver, "seconds": c.seconds,
            "gflops": r.gflops(c.seconds), "problem": r.line}


def _tags(c) -> list[str]:
    return [c.problem.src.tag, c.problem.wei.tag, c.problem.dst.tag]


def table_entries(p, r, backend: str) -> dict[str, dict]:
    """The selection table's entries a measurement gives: for a concrete problem, its fastest
    candidate. For a problem with `any` tensors: under its own key, the fastest candidate with its
    layouts and, per variant, the layouts and flags that variant was fastest in (`--alg=V
    --stag=any`); and under each measured layout's concrete problem, the fastest candidate in that
    layout (what tuning that problem alone would have stored)."""
    best = r.best
    if not p.has_any:
        return {tuned.problem_key(p, backend): {**_entry(r, best),
                                                "candidates": {c.label: c.seconds for c in r.candidates if c.seconds}}}
    timed = sorted(r.timed, key=lambda c: c.seconds)
    by_variant, by_layout = {}, {}
    for c in timed:                           # fastest first: the first seen of each is its best
        by_variant.setdefault(c.variant, c)
        by_layout.setdefault(c.layout, c)
    out = {tuned.problem_key(p, backend): {
        **_entry(r, best), "layouts": _tags(best),
        "by_variant": {v: {**_entry(r, c), "layouts": _tags(c)} for v, c in by_variant.items()},
        "candidates": {c.label: c.seconds for c in timed}}}
    for lay, c in by_layout.items():
        out[tuned.problem_key(c.problem, backend)] = {
            **_entry(r, c), "candidates": {x.label: x.seconds for x in timed if x.layout == lay}}
    return out


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
        if p.has_any:                   # the layouts chosen
            lay = f"any: {best.problem.src.format_name()}->{best.problem.dst.format_name()}"
        second = timed[1] if len(timed) > 1 else None
        lines.append(f"{r.line:34} {lay:22} {_short(best):26} {r.gflops(best.seconds):8.1f} "
                     + (f"{_short(second):>26} {second.seconds / best.seconds:6.2f}" if second else ""))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ reorders
def tune_reorders(problems, backend: str = "llvm-cpu", *, given=None, rounds: int = 7,
                  log: Callable[[str], None] = print, path=None, address: str | None = None,
                  progress: str = "text") -> tuple[list[dict], object]:
    """`kgen tune reorder`: each reorder problem in every emission form the backend compiles ("pack",
    "transpose"), on the backend's memory-bound driver and, where the reorder is cut into one part per
    core (`partition.reorder_host_parts`), on the host-threads driver too ("transpose@host-threads"),
    each checked exactly once against the reference (a wrong candidate is never chosen), timed
    round-robin next to a NumPy copy of its source; the fastest correct form and driver are stored in
    the selection table, which `ReorderKernel` (form=None, driver=None) then reads. `given[i]`:
    problem i's named quantization values. Returns one row per problem and the table path written.
    With `address` (or $KGEN_RAY_ADDRESS) each problem is a unit on a Ray farm, once per CPU kind."""
    b = get_backend(backend)
    farm = address or os.environ.get("KGEN_RAY_ADDRESS")
    if farm and b.tuned_per_device:
        raise UnsupportedError(f"kgen tune on a farm measures CPU backends; tune {b.name} on the machine "
                               f"that holds its device")
    executor = executor_for(None, address) if farm else SerialExecutor()
    units = [Unit(f"[{i + 1}/{len(problems)}] {kernel_name([p])}" + (f" on {cpu}" if farm else ""), reorder_unit,
                  (p, (given or {}).get(i), b.name, rounds), "measure", cpu)
             for cpu in executor.cpu_kinds() for i, p in enumerate(problems)]
    rows = []

    def keep(res) -> None:
        if not res.ok:
            log(f"  {res.unit.key}: FAILED ({res.error})")
            return
        row, entries = res.value
        bad = [k for k in entries if k.split("|")[2] != res.worker.cpu]
        if bad:                 # a unit placed on the wrong kind: its figures hold for another CPU
            raise InternalError(f"{res.unit.key} was measured on CPU {res.worker.cpu}: {bad[0]}")
        rows.append(row)
        forms, best = row["seconds"], row["chosen"]
        log(f"{res.unit.key}: " + ", ".join(f"{f} {t * 1e6:.1f} us" for f, t in forms.items())
            + f", copy {row['copy'] * 1e6:.1f} us" + (f" -> {best}" if best else " -> no form ran"))
        if entries:             # stored as measured, so a tune stopped later keeps it
            tuned.store(entries, path)

    run_units(units, executor, keep, Progress("tune reorder", len(units), progress if farm else "none",
                                              executor=executor.name))
    return rows, (path or tuned.table_path())


def reorder_unit(p, q_given, backend: str, rounds: int) -> tuple[dict, dict]:
    """One reorder problem in every form and driver, timed side by side next to a NumPy copy (in the
    worker): its row, and the table entry keyed by this CPU (none when no form ran)."""
    b = get_backend(backend)
    one = b.memory_bound_default
    fns, status = {}, {}
    src, q, init = reorder_call(p, q_given)
    name = kernel_name([p])
    drivers = [one]
    if b.host_threads_driver and isinstance(reorder_host_parts([p], cpu_threads()), tuple):
        drivers.append(b.host_threads_driver_name)
    texts = {}
    for form in reorder_forms([p], b):
        # a form that emits the same kernel as one measured already (plain -> plain: both are one
        # transpose) is not measured again: identical kernels timed apart differ by noise alone, a
        # choice that would mean nothing
        try:
            text = render_reorder([p], form=form)
        except KgenError:
            text = None
        same = next((f for f, t in texts.items() if t == text), None) if text is not None else None
        if same is not None:
            for drv in drivers:
                status[form if drv == one else f"{form}@{drv}"] = f"= {same}"
            continue
        texts[form] = text
        for drv in drivers:
            cand = form if drv == one else f"{form}@{drv}"
            try:
                k = ReorderKernel([p], b.name, form=form, driver=drv)
                why = check_reorder(k, p, q_given)
                if why:
                    status[cand] = f"wrong: {why}"
                    continue
                fns[cand] = k.bind(src, dst_init=init, **q)
                status[cand] = "ok"
            except KgenError as e:
                status[cand] = f"failed: {e}"
    copy_src = np.ascontiguousarray(src)
    copy_dst = np.empty_like(copy_src)
    fns["numpy copy"] = lambda: np.copyto(copy_dst, copy_src)
    times = median_times(fns, rounds)
    forms = {f: t for f, t in times.items() if f != "numpy copy"}
    best = min(forms, key=forms.get, default=None)
    # bandwidth ratio as `kgen bench reorder` reports it: bytes read + written, against the copy's
    ratio = ((p.src.size_bytes + p.dst.size_bytes) / forms[best]) / (2 * p.src.size_bytes / times["numpy copy"]) \
        if best else None
    row = {"problem": name, "seconds": forms, "copy": times["numpy copy"], "chosen": best,
           "status": status, "vs_copy": ratio}
    entries = {}
    if best:
        form, _, drv = best.partition("@")
        entries[tuned.reorder_key(name, b.name)] = {"form": form, "driver": drv or one, "seconds": forms[best]}
    return row, entries


def format_reorder_choices(rows: list[dict]) -> str:
    forms = sorted({f for r in rows for f in r["status"]})
    w = {f: max(14, len(f) + 3) for f in forms}
    cw = max([10] + [len(r["chosen"]) for r in rows if r["chosen"]])
    out = [f"{'reorder':60} " + " ".join(f"{f + ' us':>{w[f]}}" for f in forms) + f" {'copy us':>10} {'chosen':>{cw}} "
           f"{'GB/s / copy':>11}"]
    for r in rows:
        cells = " ".join(f"{r['seconds'][f] * 1e6:{w[f]}.1f}" if f in r["seconds"]
                         else f"{r['status'].get(f, '-')[:w[f]]:>{w[f]}}" for f in forms)
        ratio = f"{r['vs_copy']:11.2f}" if r["chosen"] else f"{'-':>11}"
        out.append(f"{r['problem'][:60]:60} {cells} {r['copy'] * 1e6:10.1f} {r['chosen'] or '-':>{cw}} {ratio}")
    return "\n".join(out)
