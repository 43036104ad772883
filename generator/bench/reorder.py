"""`kgen bench reorder`: reorder bandwidth next to a NumPy copy (the ceiling) and PyTorch's permute.

All candidates of one problem are measured side by side (`runtime.timing.median_times`). Bandwidth counts
the bytes read plus the bytes written (padding included). Each kgen kernel is first checked once
against the reference (`verify.check_reorder`, benchdnn's fills): a wrong kernel is reported, never
timed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..api import ReorderKernel
from ..compile import get_backend
from ..select import reorder_forms
from ..layout import MemoryDesc
from ..problem.reorder import ReorderProblem
from ..runtime.timing import import_torch, median_times
from ..verify import check_reorder, reorder_call

# (dims, src tag, dst tag): nchw <-> nChw16c and nchw -> nhwc on two ResNet shapes and a channel tail
DEFAULT_CASES = [
    (dims, s, d)
    for dims in ((1, 256, 56, 56), (32, 64, 56, 56), (8, 17, 56, 56))
    for s, d in (("nchw", "nChw16c"), ("nChw16c", "nchw"), ("nchw", "nhwc"))
]


@dataclass
class Row:
    problem: str
    candidate: str
    seconds: float
    gbps: float
    path: str = ""          # the "kgen" row's form and driver, e.g. "transpose@host-threads"
    wrong: str = ""         # why the candidate's result is not the reference's (then it is not timed)


def _torch_reorder(torch, x, sdesc: MemoryDesc, ddesc: MemoryDesc):
    """The same relayout with PyTorch tensor ops on the logical view (contiguous() does the copy); None
    for what it does not model (a type conversion, other ranks and layouts)."""
    if sdesc.dtype != ddesc.dtype or sdesc.ndims != 4 or sdesc.dtype.is_packed:
        return None
    n, c, h, w = sdesc.dims
    if x.dtype.kind == "V" or x.dtype.name == "bfloat16":
        # torch.from_numpy knows no ml_dtypes bfloat16: a relayout moves bytes, so move them as
        # integers of the same width
        x = x.view(f"i{x.dtype.itemsize}")
    if sdesc.tag == "abcd" and ddesc.tag == "acdb":
        t = torch.from_numpy(x.reshape(n, c, h, w))
        return lambda: t.permute(0, 2, 3, 1).contiguous()
    if sdesc.tag == "abcd" and ddesc.is_blocked and ddesc.tag == f"aBcd{ddesc.block_of(1)}b":
        b = ddesc.block_of(1)
        t = torch.from_numpy(x.reshape(n, c, h, w))
        pad = ddesc.padded_dims[1] - c
        F = torch.nn.functional
        return lambda: F.pad(t, (0, 0, 0, 0, 0, pad)).view(n, -1, b, h, w).permute(0, 1, 3, 4, 2).contiguous()
    if sdesc.is_blocked and sdesc.tag == f"aBcd{sdesc.block_of(1)}b" and ddesc.tag == "abcd":
        b = sdesc.block_of(1)
        cp = sdesc.padded_dims[1]
        t = torch.from_numpy(x.reshape(n, cp // b, h, w, b))
        return lambda: t.permute(0, 1, 4, 2, 3).reshape(n, cp, h, w)[:, :c].contiguous()
    return None


def default_problems(dtype: str = "f32") -> list[ReorderProblem]:
    """`DEFAULT_CASES` in `dtype`: what `kgen bench reorder` and `kgen tune reorder` measure by default."""
    return [_problem(case, dtype)[0] for case in DEFAULT_CASES]


def _problem(case, dtype: str) -> tuple[ReorderProblem, str]:
    """A case of `bench_reorders`, (dims, src tag, dst tag) in `dtype` or a ReorderProblem, and its name."""
    if isinstance(case, ReorderProblem):
        s, d = case.src, case.dst
        side = (lambda m: f"{m.dtype.name}:{m.tag}") if s.dtype != d.dtype else (lambda m: m.tag)
        return case, f"{'x'.join(map(str, s.dims))} {side(s)}->{side(d)}"
    dims, stag, dtag = case
    return (ReorderProblem(MemoryDesc(dims, dtype, stag), MemoryDesc(dims, dtype, dtag)),
            f"{'x'.join(map(str, dims))} {stag}->{dtag}")


def bench_reorders(cases=DEFAULT_CASES, backend: str = "llvm-cpu", dtype: str = "f32", rounds: int = 7,
                   log=print, given=None) -> list[Row]:
    """`cases`: (dims, src tag, dst tag) in `dtype`, or ReorderProblems (a conversion, quantization);
    `given[i]`: case i's named quantization values (benchdnn's --attr-scales / --attr-zero-points)."""
    torch = import_torch(log)
    one = get_backend(backend).memory_bound_default      # the evidence columns: each form on one thread
    rows: list[Row] = []
    for i, case in enumerate(cases):
        p, name = _problem(case, dtype)
        s, d = p.src, p.dst
        q_given = (given or {}).get(i)
        buf, q, init = reorder_call(p, q_given)
        nbytes = s.size_bytes + d.size_bytes
        copy_src = np.ascontiguousarray(buf)
        copy_dst = np.empty_like(copy_src)
        # the product's kernel (the form and driver `kgen tune reorder` chose for it here, else the
        # backend's form on the driver `select.reorder_driver` gives) and, as evidence for that choice,
        # each form the backend compiles on one thread (the backend's memory-bound driver)
        product = ReorderKernel([p], backend)
        kernels = {"kgen": product}
        for form in reorder_forms(product.problems, get_backend(backend)):
            kernels[f"kgen {form}"] = ReorderKernel([p], backend, form=form, driver=one)
        wrong = {cand: why for cand, k in kernels.items() if (why := check_reorder(k, p, q_given))}
        fns = {cand: k.bind(buf, dst_init=init, **q) for cand, k in kernels.items() if cand not in wrong}
        fns["numpy copy"] = lambda: np.copyto(copy_dst, copy_src)
        if torch is not None and not p.quant_args:
            tf = _torch_reorder(torch, buf, s, d)
            if tf is not None:
                fns["torch"] = tf
        times = median_times(fns, rounds)
        for cand, t in times.items():
            # the copy moves the source buffer once in and once out
            moved = 2 * s.size_bytes if cand == "numpy copy" else nbytes
            rows.append(Row(name, cand, t, moved / t / 1e9,
                            f"{product.form}@{product.driver}" if cand == "kgen" else ""))
        for cand, why in wrong.items():
            log(f"  {name} {cand}: WRONG ({why}), not timed")
            rows.append(Row(name, cand, float("nan"), float("nan"),
                            f"{product.form}@{product.driver}" if cand == "kgen" else "", why))
    return rows


def format_table(rows: list[Row]) -> str:
    """GB/s per candidate; "kgen" is the product's kernel (the tuned form and driver, else the backend's
    form on `select.reorder_driver`'s driver, named in the last column), "kgen <form>" each form on one
    thread."""
    by = {}
    for r in rows:
        by.setdefault(r.problem, {})[r.candidate] = r
    cands = ["kgen"] + sorted({r.candidate for r in rows if r.candidate.startswith("kgen ")}) + ["numpy copy", "torch"]
    out = [f"{'problem':34} " + " ".join(f"{c + ' GB/s':>16}" for c in cands)
           + f" {'kgen/copy':>10} {'kgen/torch':>10}  kgen form@driver"]
    for prob, cs in by.items():
        cells = " ".join(f"{'wrong':>16}" if c in cs and cs[c].wrong else f"{cs[c].gbps:16.2f}" if c in cs
                         else f"{'-':>16}" for c in cands)
        ok = not cs["kgen"].wrong
        r1 = f"{cs['kgen'].gbps / cs['numpy copy'].gbps:10.2f}" if ok else f"{'-':>10}"
        r2 = f"{cs['kgen'].gbps / cs['torch'].gbps:10.2f}" if ok and "torch" in cs else f"{'-':>10}"
        out.append(f"{prob:34} {cells} {r1} {r2}  {cs['kgen'].path}")
    return "\n".join(out)


def write_json(rows: list[Row], path: str) -> None:
    with open(path, "w") as f:
        json.dump([r.__dict__ for r in rows], f, indent=1)
