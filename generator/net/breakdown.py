"""Where an optimized model's time goes (`kgen net --breakdown`), next to PyTorch's own profile.

The module `generator.optimize` returns is run `rounds` times through a torch.fx interpreter that times
every node. A kgen node's time is split by what it did (`torch_bridge.phase_seconds`):

* kgen kernels: the conv blocks' and segments' invocations (a segment's reorders between its own
  layers run inside its one invocation and count here);
* reorders: layout changes on the device at a segment's or block's edge;
* transfers: PyTorch tensors to device buffers and back (the copies, and the permute to or from
  channels-last on the host);
* kgen glue: the rest of a kgen call (argument checks, wrapping results);
* PyTorch ops: every node left to PyTorch, by op;
* interpreter: what no node's time holds (the interpreter itself, the graph's inputs and output).

PyTorch's own figures come from `torch.profiler` over the same number of eager calls: self CPU time
per aten op (the profiler's own overhead included).
"""
from __future__ import annotations

import math
import operator
import time
from dataclasses import dataclass, field

from ..errors import InputError
from . import torch_bridge
from .torch_ops import node_kind

KGEN_PHASES = ("kgen kernels", "reorders", "transfers")
CATEGORIES = (*KGEN_PHASES, "kgen glue", "PyTorch ops", "interpreter")


@dataclass
class KgenCall:
    """One kgen node of the module: its layers, the seconds its kernels took per call in the network, and
    what the planner priced those layers at, each timed alone (None: the plan was not measured)."""
    layers: tuple[str, ...]
    seconds: float
    priced: float | None


@dataclass
class Breakdown:
    """Seconds per call. `parts`: category -> seconds; `torch_ops`: the ops left to PyTorch in the
    optimized module, op -> seconds; `kgen_calls`: node -> KgenCall; `eager_ops`: PyTorch eager's
    profile, op -> self CPU seconds."""
    rounds: int
    total: float                                   # the optimized module, nodes timed one by one
    parts: dict[str, float] = field(default_factory=dict)
    torch_ops: dict[str, float] = field(default_factory=dict)
    kgen_calls: dict[str, KgenCall] = field(default_factory=dict)
    eager_total: float = 0.0                       # PyTorch eager under the profiler
    eager_ops: dict[str, float] = field(default_factory=dict)
    torch_why: dict[str, str] = field(default_factory=dict)     # op -> why it stays in PyTorch

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "kgen_total_s": self.total, "kgen_parts_s": self.parts,
                "pytorch_ops_in_kgen_s": self.torch_ops, "pytorch_ops_why": self.torch_why,
                "kgen_calls": {k: {"layers": list(c.layers), "kernels_s": c.seconds, "priced_alone_s": c.priced}
                               for k, c in self.kgen_calls.items()},
                "eager_total_s": self.eager_total, "eager_ops_s": self.eager_ops}


def measure(om, x, rounds: int = 10, *, eager=None) -> Breakdown:
    """Run the optimized module `om` (from `generator.optimize`) `rounds` times on `x`, timing every node,
    and `eager` (the model and its input, as PyTorch runs it; None: no PyTorch profile) as many times
    under torch.profiler."""
    import torch
    from torch.fx import Interpreter

    if rounds < 1:
        raise InputError("a breakdown needs at least one round")
    if not hasattr(om, "kgen_plan"):
        raise InputError("a breakdown measures the module generator.optimize returns")
    modules = dict(om.named_modules())
    parts = dict.fromkeys(CATEGORIES, 0.0)
    torch_ops: dict[str, float] = {}
    kernels: dict[str, float] = {}              # kgen node -> its kernels' seconds

    class Timed(Interpreter):
        def run_node(self, n):
            t = time.perf_counter()
            k0 = phases.get("kgen kernels", 0.0)
            try:
                return super().run_node(n)
            finally:
                dt = time.perf_counter() - t
                if n.op == "call_module" and n.target in kgen_modules:
                    kernels[n.target] = kernels.get(n.target, 0.0) + phases.get("kgen kernels", 0.0) - k0
                if n.op in ("placeholder", "output", "get_attr"):
                    pass
                elif is_kgen(n) or (n.op == "call_function" and n.target is operator.getitem and is_kgen(n.args[0])):
                    parts["kgen glue"] += dt            # less its phases, below
                else:
                    name = node_kind(n, modules)
                    torch_ops[name] = torch_ops.get(name, 0.0) + dt
                    parts["PyTorch ops"] += dt

    kgen_modules = {name for name, m in modules.items() if hasattr(m, "kgen_layers")}

    def is_kgen(n) -> bool:
        """A kgen block or segment call, or the hand-back of a kgen activation to PyTorch."""
        op = getattr(n, "op", None)
        return (op == "call_module" and n.target in kgen_modules) or \
            (op == "call_function" and n.target is torch_bridge.to_torch)

    phases: dict[str, float] = {}
    with torch.inference_mode():
        om(x)                                      # warm: the first call allocates
        torch_bridge.phase_seconds = phases
        try:
            t0 = time.perf_counter()
            for _ in range(rounds):
                Timed(om).run(x)
            total = time.perf_counter() - t0
        finally:
            torch_bridge.phase_seconds = None
    for phase in KGEN_PHASES:
        parts[phase] = phases.get(phase, 0.0)
        parts["kgen glue"] -= parts[phase]         # the phases ran inside the kgen nodes' time
    parts["kgen glue"] = max(parts["kgen glue"], 0.0)
    parts["interpreter"] = max(total - sum(parts.values()), 0.0)
    conv_s = om.kgen_plan.conv_s
    calls = {}
    for name, sec in sorted(kernels.items(), key=lambda kv: -kv[1]):
        layers = modules[name].kgen_layers
        priced = sum(conv_s[l] for l in layers) if all(conv_s.get(l, math.inf) < math.inf for l in layers) else None
        calls[name] = KgenCall(layers, sec / rounds, priced)
    b = Breakdown(rounds, total / rounds, {k: v / rounds for k, v in parts.items()},
                  {k: v / rounds for k, v in sorted(torch_ops.items(), key=lambda kv: -kv[1])}, calls)
    b.torch_why = {k: why for k, (_, why) in getattr(om, "kgen_in_pytorch", {}).items() if k in b.torch_ops}
    if eager is not None:
        b.eager_total, b.eager_ops = _eager_profile(torch, *eager, rounds)
    return b


def _eager_profile(torch, model, x, rounds: int) -> tuple[float, dict[str, float]]:
    from torch.profiler import ProfilerActivity, profile

    with torch.inference_mode():
        model(x)
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            t0 = time.perf_counter()
            for _ in range(rounds):
                model(x)
            total = time.perf_counter() - t0
    ops = {e.key: e.self_cpu_time_total * 1e-6 / rounds for e in prof.key_averages()}
    return total / rounds, dict(sorted(ops.items(), key=lambda kv: -kv[1]))


def format_breakdown(b: Breakdown, top: int = 8) -> str:
    def ms(s: float) -> str:
        return f"{s * 1e3:9.3f} ms"

    lines = [f"time breakdown, per call (mean of {b.rounds} calls, every node timed apart):",
             f"  kgen plan {'':31}{ms(b.total)}"]
    for cat in CATEGORIES:
        share = b.parts[cat] / b.total * 100 if b.total else 0.0
        lines.append(f"    {cat:38}{ms(b.parts[cat])}  {share:5.1f}%")
        if cat == "kgen kernels":
            for name, c in list(b.kgen_calls.items())[:top]:
                what = f"{name} ({len(c.layers)} layers)" if len(c.layers) > 1 else c.layers[0]
                priced = f"  priced {c.priced * 1e3:.3f} ms alone ({c.seconds / c.priced:.2f}x)" if c.priced else ""
                lines.append(f"      {what[:36]:36}{ms(c.seconds)}{priced}")
        if cat == "PyTorch ops":
            lines += [f"      {op:36}{ms(s)}" + (f"  ({b.torch_why[op]})" if op in b.torch_why else "")
                      for op, s in list(b.torch_ops.items())[:top]]
    if b.eager_ops:
        lines.append(f"  PyTorch eager (torch.profiler, self CPU time) {ms(b.eager_total)}")
        lines += [f"      {op:36}{ms(s)}" for op, s in list(b.eager_ops.items())[:top]]
    return "\n".join(lines)


def write_breakdown_png(b: Breakdown, path: str, top: int = 8) -> None:
    """Two stacked bars, the kgen plan by category and PyTorch eager by op (its `top` ops, the rest as one)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 2.8))
    colours = plt.get_cmap("tab10").colors
    left = 0.0
    for i, cat in enumerate(CATEGORIES):
        w = b.parts[cat] * 1e3
        ax.barh("kgen plan", w, left=left, color=colours[i], label=cat)
        left += w
    if b.eager_ops:
        ops = list(b.eager_ops.items())
        shown = ops[:top] + ([("other ops", sum(s for _, s in ops[top:]))] if len(ops) > top else [])
        left = 0.0
        greys = plt.get_cmap("Greys")
        for j, (op, s) in enumerate(shown):
            ax.barh("PyTorch eager", s * 1e3, left=left, color=greys(0.25 + 0.7 * j / max(len(shown), 1)),
                    edgecolor="white")
            if s > 0.1 * max(b.eager_total, b.total):      # a label where the op's part is wide enough
                ax.text(left + s * 1e3 / 2, 1, op.replace("aten::", "")[:18], ha="center", va="center", fontsize=7)
            left += s * 1e3
    ax.set_xlabel("ms per call")
    ax.set_title(f"where the time goes (mean of {b.rounds} calls; PyTorch eager: self CPU time per op)", fontsize=9)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=len(CATEGORIES), fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
