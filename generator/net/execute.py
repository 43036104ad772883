"""Running a planned network: every layer's kernel built once in its planned layout with its weights
prepared once, and the activations kept on the device between consecutive kgen layers, two ways:

* a module per layer (`LayerRunner`, `Reorders`): one invocation per layer and per reorder, the
  results chained as `DeviceTensor`s on one runtime driver (no host round trip);
* one module per segment of consecutive layers (`SegmentRunner`, `emit.segment`): the layers' and
  reorders' own kernels called in order by one function, so the whole run is one invocation (and
  IREE may fuse across layer boundaries): faster than a module per layer (measured:
  docs/performance.md, Networks).

`CompiledNetwork(net, plan)` runs the conv-only networks of the text form; the PyTorch bridge builds
the same runners around its boundaries.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..api import ConvKernel, ReorderKernel, reorder_form
from ..compile import compile_mlir, get_backend
from ..emit.conv import render_conv
from ..emit.reorder import kernel_name, render_reorder
from ..emit.segment import SegmentBuilder
from ..errors import InputError
from ..layout import get_dtype
from ..runtime import LoadedModule, chain_driver, upload
from .graph import ConvLayer, Network, OpNode, qparams_of_layer
from .opkernel import OpKernel
from .plan import USER, Plan, layer_problem, reorder_problem, tensor_desc


class LayerRunner:
    """One layer in its planned layout: the kernel, its prepared weights and its bias on the device."""

    def __init__(self, layer: ConvLayer, layout: str, backend, driver: str):
        p, flags = layer_problem(layer, layout, backend.name)
        self.layer, self.layout = layer, layout
        # (scale, zero point) of each quantized input (None for a float one), and of the output
        self.arg_q, self.out_q = qparams_of_layer(layer)
        self.kernel = ConvKernel(p, backend, flags=flags, driver=driver)
        p = self.kernel.problem
        if layer.weights is None:
            raise InputError(f"layer {layer.name} has no weights")
        self.kernel.prepare(p.wei.to_physical(np.asarray(layer.weights, p.wei.dtype.np_dtype).reshape(p.wei.dims)))
        self.bias = self.kernel.upload_bias(layer.bias) if p.bias else None
        # the quantization values, checked and on the device once (in the kernel's argument order)
        self.quant = [self.kernel.upload(a) for a in self.kernel.attr_values(quant_only=True, **(layer.quant or {}))] \
            if p.quant_args() else []

    @property
    def problem(self):
        return self.kernel.problem

    @property
    def arg_dims(self) -> list[tuple[int, ...]]:
        """The logical dims of what the layer reads: its source, and its residual if it has one."""
        d = self.problem.desc
        return [tuple(d.src_dims)] + ([tuple(d.dst_dims)] if self.layer.residual else [])

    @property
    def out_dims(self) -> tuple[int, ...]:
        return tuple(self.problem.desc.dst_dims)

    @property
    def dt(self) -> str:
        return self.problem.src.dtype.name

    @property
    def arg_dts(self) -> list[str]:
        """The data type of each input: the source's, and the residual's (the destination's: the sum
        post-op reads the prior destination)."""
        return [self.dt] + ([self.out_dt] if self.layer.residual else [])

    @property
    def out_dt(self) -> str:
        """The result's data type: the source's, or f32 for a quantized layer whose result PyTorch reads
        in float (u8:s8:f32)."""
        return self.problem.dst.dtype.name

    def __call__(self, src, residual=None):
        extra = {"dst_init": residual} if self.layer.residual else {}
        return self.kernel.invoke(src, self.bias, **extra, **(self.layer.quant or {}))


class OpRunner:
    """One op (`OpNode`) in its planned layout."""

    def __init__(self, node: OpNode, layout: str, backend, driver: str):
        self.layer, self.layout = node, layout
        self.arg_q, self.out_q = qparams_of_layer(node)
        self.kernel = OpKernel(node.op, layout, backend, driver)

    @property
    def arg_dims(self) -> list[tuple[int, ...]]:
        return list(self.layer.op.inputs)

    @property
    def out_dims(self) -> tuple[int, ...]:
        return self.layer.op.out

    @property
    def dt(self) -> str:
        return self.layer.op.dt

    @property
    def arg_dts(self) -> list[str]:
        return [self.dt] * len(self.layer.inputs)

    @property
    def out_dt(self) -> str:
        return self.dt

    def __call__(self, *inputs):
        return self.kernel.invoke(*inputs)


class Reorders:
    """The reorder kernels between layouts of each tensor shape, built on first use, on one driver."""

    def __init__(self, backend, driver: str):
        self.backend, self.driver = backend, driver
        self._kernels: dict = {}

    def __call__(self, x, dims, dt: str, a: str, b: str):
        """`x` (a DeviceTensor or a NumPy buffer in layout `a`) as a DeviceTensor in layout `b`."""
        if a == b:
            return x
        key = (tuple(dims), dt, a, b)
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = ReorderKernel([reorder_problem(dims, dt, a, b)], self.backend, driver=self.driver)
        return k.invoke(x)


class CompiledNetwork:
    """A conv-only `Network` compiled to its `Plan`: call it with the inputs as logical NumPy arrays
    (N, C, [D,] [H,] W), get the outputs the same way. ``keep=True`` also returns every tensor
    (logical), to check layer by layer."""

    def __init__(self, net: Network, plan: Plan, backend: str = "llvm-cpu", *, driver: str | None = None,
                 segments: bool = True, log: Callable[[str], None] | None = None):
        if any(not isinstance(n, ConvLayer) for n in net.nodes):
            raise InputError("a network with PyTorch boundaries runs through generator.optimize")
        self.net, self.plan = net, plan
        self.backend = get_backend(backend)
        self.driver = chain_driver(self.backend, driver)
        self.reorders = Reorders(self.backend, self.driver)
        self.runners = {}
        for i, layer in enumerate(net.layers):
            if log:
                log(f"  [{i + 1}/{len(net.layers)}] {layer.name}: {plan.layouts[layer.name]}")
            self.runners[layer.name] = LayerRunner(layer, plan.layouts[layer.name], self.backend, self.driver)
        # one module for the whole network (`segments`): every tensor is one of its results, so that
        # keep=True can show them all (the compiler drops nothing it must compute anyway)
        self.segment = None
        if segments:
            self.segment = SegmentRunner([self.runners[l.name] for l in net.layers], net.tensors,
                                         [(t, USER) for t in net.inputs], [l.dst for l in net.layers],
                                         self.backend, self.driver)

    def __call__(self, inputs: dict[str, np.ndarray], keep: bool = False) -> dict[str, np.ndarray]:
        have = self._run(self._upload(inputs))
        wanted = list(self.net.tensors) if keep else self.net.outputs
        out = {}
        for t in wanted:
            if t not in have:
                continue
            dims, dt = self.net.tensors[t]
            x, lay = have[t]
            desc = tensor_desc(dims, dt, lay)
            out[t] = desc.from_physical(x.to_numpy().view(desc.buffer_dtype))   # IREE gives u8 back as i8
        return out

    def bind(self, inputs: dict[str, np.ndarray]) -> Callable[[], dict[str, object]]:
        """The inputs converted and uploaded once; the returned call runs the network on them and gives
        its outputs as DeviceTensors in the caller's layout (NCHW; an output in another one reordered on
        the device, as the planner prices it), nothing converted on the host: what the planner prices
        (`ConvKernel.bind` for a network)."""
        uploaded = self._upload(inputs)

        def call() -> dict[str, object]:
            have = self._run(dict(uploaded))
            out = {}
            for t in self.net.outputs:
                dims, dt = self.net.tensors[t]
                x, lay = have[t]
                out[t] = self.reorders(x, dims, dt, lay, USER)
            return out
        return call

    def _upload(self, inputs: dict[str, np.ndarray]) -> dict[str, tuple[object, str]]:
        """The logical NumPy inputs as device tensors in the caller's layout."""
        have: dict[str, tuple[object, str]] = {}
        for t in self.net.inputs:
            if t not in inputs:
                raise InputError(f"the network needs input {t}")
            dims, dt = self.net.tensors[t]
            x = np.asarray(inputs[t])
            if x.shape != tuple(dims):
                raise InputError(f"input {t} has shape {x.shape}, expected {tuple(dims)}")
            buf = tensor_desc(dims, dt, USER).to_physical(x.astype(get_dtype(dt).np_dtype))
            have[t] = (upload(buf, self.backend, self.driver), USER)
        return have

    def _run(self, have: dict[str, tuple[object, str]]) -> dict[str, tuple[object, str]]:
        """Every layer (one segment module, or a module per layer with the reorders between), on device
        tensors: `have` gains each layer's output and its layout."""
        net = self.net
        if self.segment is not None:
            outs = self.segment(*(have[t][0] for t in net.inputs))
            for layer, o in zip(net.layers, outs):
                have[layer.dst] = (o, self.segment.layouts[layer.dst])
            return have
        for layer in net.layers:
            run = self.runners[layer.name]
            args = []
            for t in layer.inputs:
                dims, dt = net.tensors[t]
                x, lay = have[t]
                args.append(self.reorders(x, dims, dt, lay, run.layout))
            have[layer.dst] = (run(*args), run.layout)
        return have


class SegmentRunner:
    """Consecutive layers and ops compiled into one module (`emit.segment`): one invocation runs them all,
    with the plan's reorders between them, instead of one invocation per layer (and per reorder).

    `inputs` are the tensors the segment reads from outside, each in the layout it arrives in;
    `outputs` the tensors read after it. Weights stay prepared by each layer's own module (the
    runners') and are passed in; the call returns the outputs as DeviceTensors, in the layouts their
    producing layers computed them in (`layouts`)."""

    def __init__(self, runners: list, tensors: dict, inputs: list[tuple[str, str]], outputs: list[str],
                 backend, driver: str):
        self.runners, self.inputs, self.outputs = runners, inputs, outputs
        self.backend, self.driver = backend, driver
        sb = SegmentBuilder("segment")
        have: dict[tuple[str, str], str] = {}          # (tensor, layout) -> value
        self._feed: list = []                           # what each argument is: ("input", i) | DeviceTensor

        for i, (t, lay) in enumerate(inputs):
            d = tensor_desc(*tensors[t], lay)
            have[(t, lay)] = sb.arg(f"in{i}", f"tensor<{d.buffer_len}x{d.dtype.mlir}>")
            self._feed.append(("input", i))

        def value(t: str, lay: str) -> str:
            if (t, lay) in have:
                return have[(t, lay)]
            src = next((l for (tt, l) in have if tt == t), None)
            if src is None:
                raise InputError(f"segment: tensor {t} is not available")
            chain = [reorder_problem(*tensors[t], src, lay)]
            fn = kernel_name(chain)
            sb.add_kernel(render_reorder(chain, form=reorder_form(backend, None, chain), header=False), fn)
            have[(t, lay)] = sb.call(fn, [have[(t, src)]])
            return have[(t, lay)]

        self.layouts: dict[str, str] = {}
        for r in runners:
            if isinstance(r, OpRunner):
                fn = r.kernel.function_name
                sb.add_kernel(r.kernel.mlir, fn)
                have[(r.layer.dst, r.layout)] = sb.call(fn, [value(t, r.layout) for t in r.layer.inputs])
                self.layouts[r.layer.dst] = r.layout
                continue
            p, k = r.problem, r.kernel
            fn = p.name
            sb.add_kernel(render_conv(p, backend.for_flags(k.flags), header=False), fn)
            types, _ = sb.signature(fn)
            args = [value(r.layer.src, r.layout)]
            for w in k.prepared:
                args.append(sb.arg(f"w{len(self._feed)}", types[len(args)]))
                self._feed.append(w)
            if r.bias is not None:
                args.append(sb.arg(f"b{len(self._feed)}", types[len(args)]))
                self._feed.append(r.bias)
            for q in r.quant:
                args.append(sb.arg(f"q{len(self._feed)}", types[len(args)]))
                self._feed.append(q)
            if r.layer.residual:
                args.append(value(r.layer.residual, r.layout))
            have[(r.layer.dst, r.layout)] = sb.call(fn, args)
            self.layouts[r.layer.dst] = r.layout
        for t in outputs:
            sb.result(have[(t, self.layouts[t])])
        self.mlir = sb.render()
        # the layers' flag set when they share one (what they were measured with), else the backend's
        convs = [r for r in runners if isinstance(r, LayerRunner)]
        flag_sets = {r.kernel.flags for r in convs}
        flags = backend.flag_set(flag_sets.pop()) if len(flag_sets) == 1 else ()
        # and the flags the backend adds for some layers' data types (`Backend.conv_flags`), once
        for extra in dict.fromkeys(backend.conv_flags(None, r.kernel.problem, alone=False) for r in convs):
            flags += extra
        self.artifact = compile_mlir(self.mlir, backend, extra_flags=flags, name="segment", timeout=3600)
        self._fn = LoadedModule(self.artifact.path, backend, driver).function("segment")

    def __call__(self, *inputs) -> tuple:
        """The inputs (DeviceTensors in the layouts given at construction) -> the outputs."""
        args = [inputs[f[1]] if isinstance(f, tuple) else f for f in self._feed]
        return self._fn.invoke(*args)
