"""`kgen bench call`: what one call of a tiny convolution costs through each runtime path, next to
PyTorch's conv2d on the same shape (round-robin medians, `runtime.timing.median_times`).

The kernel does almost no work (a 1x1 conv on 4 channels of 4x4), so the figures are the per-call
overhead of each path: NumPy in and out (upload, invoke, readback), device tensors through
`Function.invoke` (argument checks, result wrapping), and the pre-bound `BoundCall` (one
`VmContext.invoke`), each on the multi-threaded `local-task` driver and the single-threaded
`local-sync` one; and what the host-threads driver's hand-off costs (one helper started and awaited,
no kernel).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..api import conv
from ..compile import get_backend
from ..runtime import host_threads
from ..runtime.timing import import_torch, median_times

TINY_CONV = "mb1ic4ih4oc4oh4kh1ph0"


@dataclass
class CallRow:
    path: str
    seconds: float

    @property
    def us(self) -> float:
        return self.seconds * 1e6


def bench_calls(desc: str = TINY_CONV, backend: str = "llvm-cpu", rounds: int = 7, log=print) -> list[CallRow]:
    b = get_backend(backend)
    fns = {}
    x = w = None
    for drv in b.iree_drivers:         # the tiny conv is not cut for host threads
        k = conv(desc, backend, driver=drv)
        p = k.problem
        if x is None:
            rng = np.random.default_rng(0)
            x = rng.integers(-4, 4, p.desc.src_dims).astype(p.src.dtype.np_dtype)
            w = rng.integers(-4, 4, p.wei.dims).astype(p.wei.dtype.np_dtype)
        k.prepare(p.wei.to_physical(w))
        xb = p.src.to_physical(x)
        fns[f"kernel(x): NumPy in and out, {drv}"] = (lambda k=k, xb=xb: k(xb))
        dev_args = (k._run.upload(xb), *k._wei, *[k._run.upload(a) for a in k._bias(None)])
        fns[f"Function.invoke on device tensors, {drv}"] = (lambda f=k._run, a=dev_args: f.invoke(*a))
        fns[f"kernel.bind(x)(): pre-bound, {drv}"] = k.bind(xb)
    if b.host_threads_driver:
        # what the host-threads driver adds to a call before any work: one helper started and awaited
        # (runtime.host_threads, its hand-off as configured: native spin-wait or Python locks)
        def noop():
            return None
        fns[f"host-threads hand-off ({host_threads.method_in_use()})"] = (
            lambda: host_threads.run([noop, noop]))
    torch = import_torch(log)
    if torch is not None:                 # the tiny problem has g = 1: weights are (OC, IC, KH, KW)
        tx, tw, tb = torch.from_numpy(x), torch.from_numpy(w), torch.zeros(p.desc.oc)

        def torch_conv():
            with torch.inference_mode():
                return torch.nn.functional.conv2d(tx, tw, tb)
        fns["torch conv2d (NCHW)"] = torch_conv
    times = median_times(fns, rounds)
    return [CallRow(name, t) for name, t in times.items()]


def format_table(rows: list[CallRow], desc: str = TINY_CONV) -> str:
    torch = next((r.seconds for r in rows if r.path.startswith("torch")), None)
    out = [f"call overhead, {desc} (f32): median us per call"]
    out.append(f"{'path':48} {'us/call':>8} {'/ torch':>8}")
    for r in rows:
        ratio = f"{r.seconds / torch:8.2f}" if torch else f"{'-':>8}"
        out.append(f"{r.path:48} {r.us:8.2f} {ratio}")
    return "\n".join(out)
