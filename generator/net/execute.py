"""Running a planned network: every layer's kernel built once in its planned layout with its weights
prepared once, every reorder the plan needs compiled once, and the activations kept on the device
between consecutive kgen layers (chained `DeviceTensor`s on one runtime driver: no host round trip).

`CompiledNetwork(net, plan)` runs the conv-only networks of the text form; `run_node` is what the
PyTorch bridge calls per layer, with its boundaries handled there.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import InputError
from ..layout import MemoryDesc
from ..select.candidates import layout_tag
from .graph import ConvLayer, Network
from .plan import USER, Plan


class LayerRunner:
    """One layer in its planned layout: the kernel, its prepared weights and its bias on the device."""

    def __init__(self, layer: ConvLayer, layout: str, backend, driver: str):
        from ..api import ConvKernel
        from .plan import layer_problem

        p, flags = layer_problem(layer, layout, backend.name)
        self.layer, self.layout = layer, layout
        self.kernel = ConvKernel(p, backend, flags=flags, driver=driver)
        p = self.kernel.problem
        if layer.weights is None:
            raise InputError(f"layer {layer.name} has no weights")
        self.kernel.prepare(p.wei.to_physical(np.asarray(layer.weights, p.wei.dtype.np_dtype).reshape(p.wei.dims)))
        self.bias = None
        if p.bias:
            b = layer.bias if layer.bias is not None else np.zeros(p.desc.oc, np.float32)
            self.bias = self.kernel.upload(np.asarray(b, np.float32).astype(self.kernel._bias(b)[0].dtype))

    @property
    def problem(self):
        return self.kernel.problem

    def __call__(self, src, residual=None):
        extra = {"dst_init": residual} if self.layer.residual else {}
        return self.kernel.invoke(src, self.bias, **extra)


class Reorders:
    """The reorder kernels between layouts of each tensor shape, built on first use, on one driver."""

    def __init__(self, backend, driver: str):
        self.backend, self.driver = backend, driver
        self._kernels: dict = {}

    def desc(self, dims, dt: str, layout: str) -> MemoryDesc:
        return MemoryDesc(dims, dt, layout_tag(layout, len(dims)) if len(dims) >= 3 else "abx")

    def __call__(self, x, dims, dt: str, a: str, b: str):
        """`x` (a DeviceTensor or a NumPy buffer in layout `a`) as a DeviceTensor in layout `b`."""
        if a == b:
            return x
        from ..api import ReorderKernel, make_problem
        key = (tuple(dims), dt, a, b)
        k = self._kernels.get(key)
        if k is None:
            k = ReorderKernel([make_problem(self.desc(dims, dt, a), self.desc(dims, dt, b))], self.backend,
                              driver=self.driver)
            self._kernels[key] = k
        return k._fn.invoke(x)[0]


class CompiledNetwork:
    """A conv-only `Network` compiled to its `Plan`: call it with the inputs as logical NumPy arrays
    (N, C, [D,] [H,] W), get the outputs the same way. ``keep=True`` also returns every tensor
    (logical), to check layer by layer."""

    def __init__(self, net: Network, plan: Plan, backend: str = "llvm-cpu", *, driver: str | None = None,
                 log: Callable[[str], None] | None = None):
        from ..compile import get_backend
        from ..runtime import driver_for

        if any(not isinstance(n, ConvLayer) for n in net.nodes):
            raise InputError("a network with PyTorch boundaries runs through generator.optimize")
        self.net, self.plan = net, plan
        self.backend = get_backend(backend)
        self.driver = driver_for(self.backend, driver)
        self.reorders = Reorders(self.backend, self.driver)
        self.runners = {}
        for i, layer in enumerate(net.layers):
            if log:
                log(f"  [{i + 1}/{len(net.layers)}] {layer.name}: {plan.layouts[layer.name]}")
            self.runners[layer.name] = LayerRunner(layer, plan.layouts[layer.name], self.backend, self.driver)

    def __call__(self, inputs: dict[str, np.ndarray], keep: bool = False) -> dict[str, np.ndarray]:
        from ..runtime import upload
        net = self.net
        have: dict[str, tuple[object, str]] = {}
        for t in net.inputs:
            if t not in inputs:
                raise InputError(f"the network needs input {t}")
            dims, dt = net.tensors[t]
            x = np.asarray(inputs[t])
            if x.shape != tuple(dims):
                raise InputError(f"input {t} has shape {x.shape}, expected {tuple(dims)}")
            buf = self.reorders.desc(dims, dt, USER).to_physical(x.astype(MemoryDesc(dims, dt, "abx").dtype.np_dtype))
            have[t] = (upload(buf, self.backend, self.driver), USER)
        for layer in net.layers:
            run = self.runners[layer.name]
            args = []
            for t in layer.inputs:
                dims, dt = net.tensors[t]
                x, lay = have[t]
                args.append(self.reorders(x, dims, dt, lay, run.layout))
            have[layer.dst] = (run(*args), run.layout)
        wanted = list(net.tensors) if keep else net.outputs
        out = {}
        for t in wanted:
            if t not in have:
                continue
            dims, dt = net.tensors[t]
            x, lay = have[t]
            desc = self.reorders.desc(dims, dt, lay)
            out[t] = desc.from_physical(x.to_numpy())
        return out
