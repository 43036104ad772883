"""The convolution half of the API: `ConvKernel` (a compiled convolution: `prepare` the weights once,
then call it on NumPy buffers, or `bind` / `invoke` it on the device), `FusedDwConvKernel` (a
convolution with a depthwise post-op, two modules), and the functions that build one (`conv`) or only
compile or resolve a problem (`compile_conv`, `resolved_conv`, `conv_src_zp_limit`)."""
from __future__ import annotations

import dataclasses
import functools
import shlex

import numpy as np

from ..benchdnn.conv import conv_problem, parse_conv_args
from ..compile import compile_mlir, get_backend
from ..compile.backends import HOST_THREADS, cpu_threads
from ..emit.conv import depthwise_src_zp_limit, render_conv
from ..errors import FormatError, InputError, UnsupportedError
from ..layout import get_dtype, is_numeric
from ..problem.conv import torch_wei_dims
from ..problem.partition import ConvPart, conv_host_parts
from ..runtime import BoundCall, DeviceTensor, LoadedModule, driver_for
from ..select import choose, fixed_variant_driver, host_cut, resolve_layouts
from .parts_call import PartsCall


class ConvKernel:
    """A compiled convolution: `prepare(wei_buf)` once, then `kernel(src_buf, bias=...)` per call.

    Buffers are physical (1-D) in the problem's formats; `run_logical(src, wei, bia)` takes PyTorch's
    logical arrays (src N,IC,[D,]H,W; wei OC,IC/G,[KD,]KH,KW; bia OC) and reorders on the way in and out.
    """

    _parts: tuple = ()          # the host-threads driver's (kernel, ConvPart) pairs, set in __init__

    def __new__(cls, problem=None, *args, **kwargs):
        # a depthwise post-op makes the kernel two convolutions: the same constructor builds them
        if cls is ConvKernel and getattr(problem, "fused_dw", None):
            cls = FusedDwConvKernel
        return super().__new__(cls)

    def __init__(self, problem, backend: str = "llvm-cpu", cache_dir=None, artifact=None, flags: str | None = None,
                 driver: str | None = None, device_slot: int = 0):
        self.backend = get_backend(backend)
        self.requested_alg = problem.alg
        self._device_slot = device_slot     # a host-threads part's own device (runtime.get_device)
        problem, self.flags, driver, self.choice = _resolve_conv(problem, self.backend, flags, driver,
                                                                 pick_driver=artifact is None)
        self.problem = problem
        self.driver = driver_for(self.backend, driver, can_cut=True)   # local-task on the CPU: all cores
        self._wei = None
        self._parts: list[tuple[ConvKernel, ConvPart]] = []
        if self.driver == HOST_THREADS and self.backend.host_threads_driver:
            # from $KGEN_CPU_DRIVER (no driver named, none chosen): a kernel it cannot cut, or a prebuilt
            # module (one module: the catalog's), keeps the backend's driver
            if driver is None and (artifact is not None or isinstance(conv_host_parts(problem, cpu_threads()), str)):
                self.driver = self.backend.driver
            else:
                self._init_parts(cache_dir)
                return
        if artifact is None:       # else a prebuilt module (the catalog's build/<backend>/<function>.vmfb)
            artifact = compile_conv(problem, self.backend, flags=self.flags, cache_dir=cache_dir, driver=self.driver)
        self.artifact = artifact
        module = LoadedModule(self.artifact.path, self.backend, self.driver, self._device_slot)
        self._prepare = module.function(problem.name + "_prepare")
        self._run = module.function(problem.name)

    def _init_parts(self, cache_dir) -> None:
        """The host-threads driver: one kernel per part (`conv_host_parts`, one part per CPU), each on the
        backend's `host_threads_driver` with a module (and so a VM context) of its own: IREE contexts
        must not run two calls at once; and on a device of its own (`device_slot`), whose allocator
        the other parts do not share. Parts of one shape share the compiled artifact (the cache).
        Any prebuilt artifact is not used: it is the whole convolution."""
        p = self.problem
        self._cache_dir, self._whole, self._wei_buf = cache_dir, None, None
        parts = host_cut(p)
        if isinstance(parts, str):
            raise UnsupportedError(f"driver {HOST_THREADS} cannot cut {p.name}: {parts}")
        for i, part in enumerate(parts):
            k = ConvKernel(part.problem, self.backend, cache_dir, flags=self.flags,
                           driver=self.backend.host_threads_driver, device_slot=i)
            self._parts.append((k, part))
        # no one module holds the whole convolution: `artifact` is None, `part_artifacts` each part's
        self.artifact = None
        self._prepare = self._run = None

    @property
    def part_artifacts(self) -> list:
        """The compiled modules of the host-threads driver's parts, in order (empty on other drivers,
        where `artifact` is the whole convolution's module)."""
        return [k.artifact for k, _ in self._parts]

    def prepare(self, wei: np.ndarray) -> None:
        """Reorder the weights (physical buffer in the problem's weights format) once, on the device."""
        self.problem.wei.check_buffer(wei)
        if self._parts:
            for k, part in self._parts:
                k.prepare(self._part_wei(part, wei))
            self._wei, self._wei_buf = self._parts[0][0]._wei, np.array(wei, copy=True)
            if self._whole is not None:
                self._whole.prepare(wei)
            return
        self._wei = self._prepare.invoke(np.ascontiguousarray(wei))

    def _part_wei(self, part: ConvPart, wei: np.ndarray) -> np.ndarray:
        """A part's weights buffer: the whole's, or for a cut on output channels those channels'
        (through the logical tensor: the part's buffer is in the same format, its blocks its own)."""
        if part.oc is None:
            return wei
        p = self.problem
        logical = p.wei.from_physical(np.asarray(wei))
        if p.desc.g > 1:                                    # (G, OC/G, ...): the part's groups
            ocg = p.desc.oc // p.desc.g
            take, axis = np.arange(part.oc[0] // ocg, part.oc[1] // ocg), 0
        else:                                               # (1, OC, ...) with g1 written, else (OC, ...)
            take, axis = np.arange(*part.oc), 1 if p.desc.has_groups else 0
        return part.problem.wei.to_physical(np.take(logical, take, axis=axis))

    @property
    def prepared(self) -> tuple:
        """What prepare() left on the device (the packed weights, and their compensation where the
        variant has one), as the convolution function takes them after the source. On the
        host-threads driver, the whole convolution's (`invoke` runs it; a part's weights may be a slab
        of output channels)."""
        if self._wei is None:
            raise InputError("call prepare(weights) first")
        if self._parts:
            return self._chained()._wei
        return self._wei

    def _bias(self, bias) -> list:
        p = self.problem
        if not p.bias:
            if bias is not None:
                raise InputError("this kernel was built without bias (use --dir=FWD_B / bias=True)")
            return []
        bdt = get_dtype(p.bias_dt)
        b = np.zeros(p.desc.oc, bdt.np_dtype) if bias is None else np.asarray(bias)
        if b.shape != (p.desc.oc,) or not is_numeric(b.dtype):
            raise InputError(f"bias has shape {b.shape} and dtype {b.dtype}, expected ({p.desc.oc},) numbers")
        if bdt.is_int and not np.array_equal(b, np.round(b)):
            raise InputError(f"bias is {p.bias_dt} and must hold integers")
        return [np.array(b, dtype=bdt.np_dtype, order="C")]

    @functools.cached_property
    def src_zp_limit(self) -> int | None:
        """The largest |source zero point| this kernel computes exactly, or None where every value of its
        type is (`depthwise_src_zp_limit`: brgemm's depthwise kernel subtracts it in f32); a call
        passing a larger one is refused. Computed once per kernel rather than per call."""
        return depthwise_src_zp_limit(self.problem)

    def _attr_args(self, given: dict, on_device=None, quant_only: bool = False) -> list[np.ndarray]:
        """The quantization values and post-op inputs (`quant_only`: the quantization values alone),
        checked, in the kernel's argument order. `on_device(name, tensor, desc)` checks a post-op input
        given as a DeviceTensor (`invoke`)."""
        p = self.problem
        given = dict(given)
        out = []
        for name, q in p.quant_args():
            v = given.pop(name, None)
            what = f"{q.arg} {'scale' if name.endswith('scale') else 'zero point'} ({q.policy})"
            if v is None:
                raise InputError(f"kernel {p.name} needs {name}= the {what}")
            a = np.asarray(v)
            want = p.quant_shape(q)
            if not is_numeric(a.dtype) or a.shape != want:
                raise InputError(f"{name} has shape {a.shape} and dtype {a.dtype}; the {what} wants "
                                 f"{'a scalar' if not want else f'{want[0]} numbers'}")
            if name.endswith("zp"):
                zdt = get_dtype(q.dt)
                if not np.array_equal(a, np.round(a)):
                    raise InputError(f"{name} is a zero point and must hold integers")
                if a.size and (a.min() < zdt.min or a.max() > zdt.max):
                    raise InputError(f"{name} holds {a.min() if a.min() < zdt.min else a.max()}, outside the "
                                     f"range of its data type {q.dt} [{int(zdt.min)}, {int(zdt.max)}]")
                limit = self.src_zp_limit if name == "src_zp" else None
                if limit is not None and a.size and np.abs(a).max() > limit:
                    cg = p.desc.ic // p.desc.g
                    raise InputError(f"{name} holds {int(a.max() if a.max() > limit else a.min())}: kernel "
                                     f"{p.name} subtracts it in f32, exact for |zero point| <= {limit} over its "
                                     f"{p.desc.kd * p.desc.kh * p.desc.kw} taps"
                                     + (f" x {cg} channels a group" if cg > 1 else "")
                                     + " (the direct variant computes larger ones in integers)")
            elif not np.all(np.isfinite(a)):
                raise InputError(f"{name} must be finite")
            out.append(np.array(a, dtype=p.quant_dtype(name).np_dtype, order="C"))
        if quant_only:
            if given:
                raise InputError(f"unexpected arguments {', '.join(sorted(given))} (this kernel's quantization "
                                 f"values are {', '.join(n for n, _ in p.quant_args()) or 'none'})")
            return out
        for name, _, op in p.post_op_inputs():
            v = given.pop(name, None)
            desc = p.input_desc(name)
            if on_device is not None and isinstance(v, DeviceTensor):
                out.append(on_device(name, v, desc))
                continue
            if v is None:
                role = ("the prior destination buffer for the sum post-op" if name == "dst_init"
                        else "the post-op's second input")
                raise InputError(f"kernel {p.name} needs {name}= ({role}: {desc.buffer_nelems} {desc.dtype.name} "
                                 f"in {desc.format_name()} {'x'.join(map(str, desc.dims))})")
            a = np.asarray(v)
            if a.dtype != desc.dtype.np_dtype:
                raise InputError(f"{name} has dtype {a.dtype}, expected {desc.dtype.np_dtype}")
            try:
                desc.check_buffer(a)
            except InputError as e:
                raise InputError(f"{name}: {e}") from None
            out.append(np.ascontiguousarray(a))
        if given:
            raise InputError(f"unexpected arguments {', '.join(sorted(given))} (this kernel takes "
                             f"{', '.join([n for n, _ in p.quant_args()] + [n for n, _, _ in p.post_op_inputs()]) or 'none'})")
        return out

    def attr_values(self, quant_only: bool = False, **attrs) -> list[np.ndarray]:
        """The quantization values and post-op inputs (`__call__`'s keywords), checked, in the kernel's
        argument order: what a caller that passes them itself (a network segment) uploads once.
        `quant_only`: the quantization values alone (they come first; the post-op inputs, a layer's
        residual, are passed per call)."""
        return self._attr_args(attrs, quant_only=quant_only)

    def _args(self, src, bias, attrs: dict) -> list:
        if self._wei is None:
            raise InputError("call prepare(weights) before running the convolution")
        self.problem.src.check_buffer(src)
        return [np.ascontiguousarray(src), *self._wei, *self._bias(bias), *self._attr_args(attrs)]

    def __call__(self, src: np.ndarray, bias=None, **attrs) -> np.ndarray:
        """Run on a source buffer. Keyword arguments: the quantization values (`src_scale`,
        `wei_scale`, `dst_scale`, `src_zp`, `wei_zp`, `dst_zp`: scalars, or arrays per channel) and
        the post-ops' inputs (`dst_init`: the destination's prior buffer for `sum`; `binary_<i>` /
        `prelu_<i>`: the second input of post-op i, as a buffer in its layout)."""
        if self._parts:
            return self.bind(src, bias, **attrs).run_once()
        (out,) = self._run(*self._args(src, bias, attrs))
        dt = self.problem.dst.dtype.np_dtype
        return out.view(dt) if out.dtype != dt else out

    def _part_args(self, src, bias, attrs: dict) -> list[tuple[np.ndarray, object, dict]]:
        """Each part's source, bias and keyword arguments: ranges of the whole buffers (the sum's
        prior destination is cut like the destination; the other values are per channel or common,
        and for a cut on output channels the bias and the per-output-channel values are cut too, and
        with groups a per-input-channel source zero point to the part's groups)."""
        if self._wei is None:
            raise InputError("call prepare(weights) before running the convolution")
        p = self.problem
        src = p.src.check_buffer(np.asarray(src))
        init = attrs.get("dst_init")
        if init is not None:
            try:
                init = p.dst.check_buffer(np.asarray(init))
            except InputError as e:
                raise InputError(f"dst_init: {e}") from None
        by_channel = []
        if any(part.oc is not None for _, part in self._parts):
            self._attr_args(attrs)              # checked whole, so a wrong size is named as the user gave it
            whole_bias = self._bias(bias)
            bias = whole_bias[0] if whole_bias else None
            by_channel = [(name, q.arg == "src") for name, q in p.quant_args() if q.per_channel]
        out = []
        for _, part in self._parts:
            a, b = dict(attrs), bias
            if init is not None:
                a["dst_init"] = np.ascontiguousarray(part.dst_view(init)).reshape(-1)
            if part.oc is not None:
                lo, hi = part.oc
                b = None if bias is None else bias[lo:hi]
                for name, on_src in by_channel:
                    if on_src and part.ic is None:      # every part reads every input channel
                        continue
                    i0, i1 = part.ic if on_src else part.oc
                    a[name] = np.ascontiguousarray(np.asarray(attrs[name])[i0:i1])
            out.append((src[part.src[0]:part.src[1]], b, a))
        return out

    def invoke(self, src, bias=None, **attrs):
        """Run on the device and keep the result there: `src` and the post-ops' inputs (``dst_init``...)
        may be `DeviceTensor`s (another kernel's results on the same driver: chained with no host round
        trip, `generator.net`), the bias a DeviceTensor uploaded once (`upload`). Returns the destination
        buffer as a DeviceTensor (``.to_numpy()`` reads it)."""
        self._device_path("invoke()")
        if self._wei is None:
            raise InputError("call prepare(weights) before running the convolution")
        if self._parts:
            return self._chained().invoke(src, bias, **attrs)
        p = self.problem

        def checked(name: str, v, desc):
            if isinstance(v, DeviceTensor):
                # the runtime hands u8 results back as signless i8: the same bytes
                same = v.dtype == desc.buffer_dtype or (v.dtype.kind in "iu" and desc.buffer_dtype.kind in "iu"
                                                        and v.dtype.itemsize == desc.buffer_dtype.itemsize)
                if v.shape != (desc.buffer_len,) or not same:
                    raise InputError(f"{name} is a device tensor {v.dtype}{list(v.shape)}, expected "
                                     f"{desc.buffer_dtype}[{desc.buffer_len}] ({desc.format_name()})")
                return v
            return np.ascontiguousarray(desc.check_buffer(np.asarray(v)))

        args = self._attr_args(attrs, on_device=checked)
        b = [bias] if isinstance(bias, DeviceTensor) else self._bias(bias)
        (out,) = self._run.invoke(checked("src", src, p.src), *self._wei, *b, *args)
        return out

    def upload_bias(self, bias=None):
        """The bias checked and in the kernel's bias data type (zeros when None), on the device: the
        DeviceTensor `invoke` takes; None for a kernel built without bias."""
        if not self.problem.bias:
            self._bias(bias)                        # a bias given to a kernel without one is an error
            return None
        (b,) = self._bias(bias)
        return self.upload(b)

    def upload(self, array: np.ndarray):
        """`array` on this kernel's device (a DeviceTensor for `invoke`: a bias, a constant input)."""
        self._device_path("upload()")
        if self._parts:
            return self._chained().upload(array)
        return self._run.upload(np.array(array, order="C", copy=None))   # a 0-d scale stays 0-d

    def _chained(self) -> "ConvKernel":
        """On the host-threads driver, the whole convolution on the backend's own driver (local-task),
        built on first use: device tensors chain there (`invoke`, `upload`), as they do for any kernel
        built without a driver; the parts' results are host-side pieces."""
        if self._whole is None:
            self._whole = ConvKernel(self.problem, self.backend, self._cache_dir, flags=self.flags,
                                     driver=self.backend.driver)
        if self._wei_buf is not None and self._whole._wei is None:
            self._whole.prepare(self._wei_buf)
        return self._whole

    def _device_path(self, what: str) -> None:
        if self._run is None and not self._parts:
            raise UnsupportedError(f"a convolution with a depthwise post-op is two modules: it has no {what}")

    def bind(self, src: np.ndarray, bias=None, **attrs) -> BoundCall:
        """The fast call path: the prepared weights, `src`, the bias and the attribute arguments on the
        device and packed once; `call()` reruns the convolution, `call.numpy()[0]` reads the result
        (see `runtime.BoundCall`). On the host-threads driver, one bound call per part and a host
        array they write into (`PartsCall`)."""
        if self._parts:
            args = self._part_args(src, bias, attrs)
            calls = [k.bind(s, b, **a) for (k, _), (s, b, a) in zip(self._parts, args)]
            return PartsCall(calls, [part for _, part in self._parts], self.problem.dst)
        return self._run.bind(*self._args(src, bias, attrs))

    def run_logical(self, src: np.ndarray, wei: np.ndarray, bia: np.ndarray | None = None, **attrs) -> np.ndarray:
        """PyTorch-layout arrays in, the logical destination out; `attrs` as for `__call__`, except that
        the post-ops' inputs are logical arrays too (``dst_init`` shaped like the destination, a binary
        input like its broadcast: ``(OC,)`` or ``(1, OC, 1, 1)`` per channel)."""
        p = self.problem
        for what, arr, dims in (("src", src, p.desc.src_dims), ("wei", wei, torch_wei_dims(p.desc))):
            if tuple(np.shape(arr)) != tuple(dims):
                raise InputError(f"{what} has shape {'x'.join(map(str, np.shape(arr)))}, expected "
                                 f"{'x'.join(map(str, dims))}")
        attrs = dict(attrs)
        for name, _, op in p.post_op_inputs():      # the post-ops' inputs come logical here too
            if attrs.get(name) is not None:
                desc = p.input_desc(name)
                a = np.asarray(attrs[name])
                if a.size != desc.nelems or [n for n in a.shape if n != 1] != [n for n in desc.dims if n != 1]:
                    raise InputError(f"{name} has shape {'x'.join(map(str, a.shape))}, expected "
                                     f"{'x'.join(map(str, desc.dims))}")
                attrs[name] = desc.to_physical(a.reshape(desc.dims))
        self.prepare(p.wei.to_physical(np.asarray(wei).reshape(p.wei.dims)))
        y = self(p.src.to_physical(np.asarray(src)), bia, **attrs)
        return p.output.from_physical(y)


class FusedDwConvKernel(ConvKernel):
    """A convolution with a depthwise post-op (``dw:kKsSpP[:DT]``): two compiled convolutions
    (`ConvProblem.split_dw`), the second reading the first's destination, as benchdnn's reference
    computes it. Built by `ConvKernel(problem)`. `prepare(wei, dw_wei=...)` packs both weights once
    (``dw_wei`` may also come with a call); a call takes ``dw_bias=`` besides the other attributes
    (``dw_wei_scale``, ``dw_dst_scale``, the post-ops' inputs by their index in the whole chain)
    and returns the depthwise convolution's destination. The intermediate tensor passes through the
    host between the two modules."""

    def __init__(self, problem, backend: str = "llvm-cpu", cache_dir=None, artifact=None, flags: str | None = None,
                 driver: str | None = None):
        if artifact is not None:
            raise InputError("a convolution with a depthwise post-op is two modules: it takes no prebuilt artifact")
        layout_choice = None
        if problem.has_any:             # both convolutions see the layouts chosen for the whole
            problem, layout_choice = resolve_layouts(problem, get_backend(backend).name)
        first, second = problem.split_dw()
        self.first = ConvKernel(first, backend, cache_dir, flags=flags, driver=driver)
        self.second = ConvKernel(second, backend, cache_dir, driver=driver)
        self.backend, self.requested_alg = self.first.backend, problem.alg
        self.choice, self.flags, self.driver = self.first.choice or layout_choice, self.first.flags, self.first.driver
        self.artifact = self.first.artifact
        self.problem = dataclasses.replace(problem, alg=self.first.problem.alg)
        self._run = None
        self._wei = None
        self._dw_wei = None

    def prepare(self, wei: np.ndarray, dw_wei: np.ndarray | None = None) -> None:
        """Pack the convolution's weights and, when given, the depthwise post-op's (physical, plain)."""
        self.first.prepare(wei)
        self._wei = self.first._wei
        if dw_wei is not None:
            self._prepare_dw(dw_wei)

    def _prepare_dw(self, dw_wei: np.ndarray) -> None:
        try:
            self.second.prepare(dw_wei)
        except InputError as e:
            raise InputError(f"dw_wei: {e}") from None
        self._dw_wei = dw_wei

    def _split(self, attrs: dict):
        p = self.problem
        quant_names = {n for n, _ in p.quant_args()}
        unknown = sorted(set(attrs) - quant_names - {n for n, _, _ in p.post_op_inputs()})
        if unknown:
            raise InputError(f"unexpected arguments {', '.join(unknown)} for kernel {p.name}")
        q1, i1, q2, i2 = p.split_dw_args({n: v for n, v in attrs.items() if n in quant_names},
                                         {n: v for n, v in attrs.items() if n not in quant_names})
        dw_wei = i2.pop("dw_wei", None)
        if dw_wei is not None and dw_wei is not self._dw_wei:
            self._prepare_dw(dw_wei)
        if self._dw_wei is None:
            d = p.input_desc("dw_wei")
            raise InputError(f"kernel {p.name} needs dw_wei= (the depthwise post-op's weights: {d.buffer_nelems} "
                             f"{d.dtype.name} in {d.format_name()} {'x'.join(map(str, d.dims))}), in prepare() or the call")
        dw_bias = i2.pop("dw_bias", None)
        if p.bias and dw_bias is None:
            raise InputError(f"kernel {p.name} needs dw_bias= (the depthwise post-op's bias: {p.desc.oc} f32)")
        return q1, i1, q2, i2, dw_bias

    def __call__(self, src: np.ndarray, bias=None, **attrs) -> np.ndarray:
        q1, i1, q2, i2, dw_bias = self._split(attrs)
        mid = self.first(src, bias, **q1, **i1)
        return self.second(mid, dw_bias, **q2, **i2)

    def bind(self, src: np.ndarray, bias=None, **attrs) -> "_ChainedCall":
        """The first convolution bound once; each `call()` runs it, reads its destination back and
        runs the depthwise one on it (what this two-module form costs); `call.numpy()[0]` reads the
        result."""
        q1, i1, q2, i2, dw_bias = self._split(attrs)
        return _ChainedCall(self.first.bind(src, bias, **q1, **i1), lambda mid: self.second.bind(mid, dw_bias, **q2, **i2))


class _ChainedCall:
    """A bound first call and the binding of the second to the first's result, redone on each run."""

    def __init__(self, first: BoundCall, bind_second):
        self.first, self.bind_second, self.second = first, bind_second, None

    def __call__(self) -> None:
        self.first()
        self.second = self.bind_second(self.first.numpy()[0])
        self.second()

    def numpy(self):
        if self.second is None:
            self()
        return self.second.numpy()


def _resolve_conv(problem, backend, flags: str | None, driver: str | None, *, pick_driver: bool = True):
    """(problem, flag set, driver, choice): `--alg=auto` and format `any` resolved to the measured
    choice (kgen tune) or the heuristic (`generator.select.choose`); the flag set named in the
    backend's table (Backend.flag_sets). A fixed variant keeps the caller's flags and driver; where
    the caller names no driver (and `pick_driver`: not a prebuilt module), a problem big enough to cut
    runs on host threads (`select.fixed_variant_driver`)."""
    choice = None
    fixed = problem.alg != "auto"
    if not fixed or problem.has_any:
        choice = choose(problem, backend.name)
        if choice.layouts is not None:          # format `any`: the chosen layouts, reported in kernel.problem
            problem = problem.with_layouts(*choice.layouts)
        if not fixed:
            problem = dataclasses.replace(problem, alg=choice.variant)
            flags = flags or choice.flags
            driver = driver or choice.driver
    if fixed and driver is None and pick_driver:
        driver = fixed_variant_driver(problem, backend.name)
    return problem, flags or "default", driver, choice


def resolved_conv(problem, backend="llvm-cpu"):
    """The problem `ConvKernel(problem, backend)` computes, without compiling it: `--alg=auto` and
    format `any` resolved (a fixed variant in given layouts: `problem` itself)."""
    return _resolve_conv(problem, get_backend(backend), None, None, pick_driver=False)[0]


def conv_src_zp_limit(problem, backend="llvm-cpu") -> int | None:
    """`ConvKernel(problem, backend).src_zp_limit` without compiling: the largest |source zero point|
    the kernel computes exactly, or None where every value is. `kgen conv` asks it before it builds a
    kernel that would refuse its value."""
    return depthwise_src_zp_limit(resolved_conv(problem, backend))


def compile_conv(problem, backend="llvm-cpu", *, flags: str | None = None, cache_dir=None,
                 driver: str | None = None):
    """Generate and compile `problem`'s module, or fetch it from the artifact cache, without loading
    it: the first half of `ConvKernel`. Thread-safe; `kgen conv` runs it ahead of the checks. On the
    host-threads driver (named, chosen by `--alg=auto` or from the environment) it compiles the
    parts that kernel will load, and returns the first part's artifact."""
    be = get_backend(backend)
    problem, flags, driver, _ = _resolve_conv(problem, be, flags, driver)
    if driver_for(be, driver, can_cut=True) == HOST_THREADS and be.host_threads_driver:
        parts = host_cut(problem)
        if not isinstance(parts, str):          # else ConvKernel reports it, or runs the whole
            arts = [compile_conv(x.problem, be, flags=flags, cache_dir=cache_dir, driver=be.host_threads_driver)
                    for x in parts]
            return arts[0]
    return compile_mlir(render_conv(problem, be.for_flags(flags)), be, extra_flags=be.conv_flags(flags, problem),
                        cache_dir=cache_dir, name="conv")


def conv(problem, backend: str = "llvm-cpu", *, cache_dir=None, driver: str | None = None) -> ConvKernel:
    """Compile the convolution `problem` (a ConvProblem, or a benchdnn line such as
    '--dt=f16 --stag=nhwc ic16ih14oc32oh14kh3ph1') for `backend` (run on `driver`, by default the
    backend's: local-task, all cores, on the CPU; local-sync saves the task hand-off on tiny ones)."""
    if isinstance(problem, str):
        cases = list(parse_conv_args(shlex.split(problem)))
        if len(cases) != 1:
            raise FormatError(f"'{problem}' describes {len(cases)} problems, expected one")
        problem = conv_problem(cases[0])
    return ConvKernel(problem, backend, cache_dir, driver=driver)
