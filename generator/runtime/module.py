"""Loading compiled modules and calling their functions from NumPy, on every backend.

Why not ``iree.runtime.SystemContext`` and ``DeviceArray.to_host()``: on Vulkan (Mesa lavapipe at
least) the result buffers are host-visible but lack ``MAPPING_SCOPED`` usage, so ``to_host()``
tries to import an unaligned NumPy allocation and fails ("minImportedHostPointerAlignment 4096").
We read results back with IREE_NOTES.md recipe A instead: a queue copy into a mappable staging
buffer, kept and reused while the size matches. Buffers that are mappable (every CPU result) are
mapped directly, which skips the copy.

Invocation goes through ``VmContext.invoke`` with ``VmVariantList`` arguments (IREE_NOTES.md
section 5): a few times cheaper per call than ``SystemContext`` attribute calls (``kgen bench call``
measures it). Inputs uploaded once with ``Function.upload`` can be passed again and again, so benchmarks
time the kernel rather than the host-to-device copy (``Function.invoke`` also skips the readback).

Errors are one line: ``ArtifactError`` for a missing, corrupt or wrong-target vmfb, ``RunError``
for a missing device or function and for failures inside a call, ``InputError`` when the arguments
do not match the function's signature.
"""

from __future__ import annotations

import atexit
import gc
import os
import re
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from generator.compile.backends import (
    Backend,
    configure_runtime,
    get_backend,
    idle_device_busy_here,
    iree_message,
    prepare_runtime_env,
)
from generator.errors import ArtifactError, InputError, RunError, UnsupportedError

prepare_runtime_env()

import iree.runtime as rt  # noqa: E402 - after XDG_RUNTIME_DIR is set, so the loader stays quiet

try:
    import ml_dtypes  # installed with iree-base-runtime; provides numpy's bfloat16

    _BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - iree.runtime itself imports ml_dtypes
    _BF16 = None

# numpy dtype -> HAL element type used to tag uploaded buffers. uint8 and int8 both go as the
# signless INT_8: that is what an MLIR ``i8`` argument declares, and the kernel decides signedness
# with extsi/extui. (IREE 3.13 also accepts SINT_8 and UINT_8 for an i8 argument.)
_ELEMENT_TYPES: dict[np.dtype, int] = {
    np.dtype(np.float32): rt.HalElementType.FLOAT_32,
    np.dtype(np.float16): rt.HalElementType.FLOAT_16,
    np.dtype(np.float64): rt.HalElementType.FLOAT_64,
    np.dtype(np.int8): rt.HalElementType.INT_8,
    np.dtype(np.uint8): rt.HalElementType.INT_8,
    np.dtype(np.int16): rt.HalElementType.INT_16,
    np.dtype(np.int32): rt.HalElementType.INT_32,
    np.dtype(np.int64): rt.HalElementType.INT_64,
    np.dtype(np.bool_): rt.HalElementType.BOOL_8,
}
if _BF16 is not None:
    _ELEMENT_TYPES[_BF16] = rt.HalElementType.BFLOAT_16

_ACCEPTED = ", ".join(sorted(str(d) for d in _ELEMENT_TYPES))


# ---------------------------------------------------------------------------------------------
# Instance and devices


_lock = threading.RLock()
_instance: rt.VmInstance | None = None
# a device per driver (and host-threads slot), held for the process; on backends whose idle device keeps
# host threads busy (`Backend.idle_device_busy`) held only while a module or tensor of ours is on it
_devices: dict[str, _Device] = {}
_devices_in_use: weakref.WeakValueDictionary = weakref.WeakValueDictionary()

# Every live object of ours that holds an IREE handle. Why: during interpreter shutdown Python frees
# module globals in no particular order, and IREE 3.13 on Vulkan (lavapipe) segfaults when a
# semaphore, buffer or context is released after the driver that loaded the Vulkan ICD has gone
# (observed: exit code 139 "Garbage-collecting" after all tests passed). An atexit hook runs before
# that teardown and releases our handles while the driver is still alive.
_live: weakref.WeakSet = weakref.WeakSet()


def _release_all() -> None:
    """Drop every IREE handle this module created, children before parents, then collect."""
    with _lock:
        order = {"BoundCall": 0, "DeviceTensor": 0, "Function": 1, "LoadedModule": 2, "_Readback": 3}
        for obj in sorted(list(_live), key=lambda o: order.get(type(o).__name__, 9)):
            try:
                obj._release()
            except Exception:  # noqa: BLE001 - best effort at exit
                pass
        _modules.clear()
        _modules_in_use.clear()
        _devices.clear()
        _devices_in_use.clear()
    gc.collect()


atexit.register(_release_all)


def _vm_instance() -> rt.VmInstance:
    global _instance
    with _lock:
        if _instance is None:
            _instance = rt.VmInstance()
        return _instance


def driver_for(backend: str | Backend, driver: str | None = None, *, memory_bound: bool = False,
               can_cut: bool = False) -> str:
    """The HAL driver that runs ``backend``'s modules.

    ``driver`` names one explicitly (it must be one of the backend's). Otherwise the backend's
    ``driver_env`` variable decides if set (``KGEN_CPU_DRIVER`` on ``llvm-cpu``); then memory-bound
    kernels (reorders) get the backend's
    ``memory_bound_driver`` (``local-sync``: one thread and no task hand-off) and everything else
    the backend's ``driver`` (``local-task``, all cores).

    The host-threads pseudo-driver (`Backend.host_threads_driver`) is for kernels that cut themselves
    into parts (`can_cut=True`: `api.ConvKernel`, `api.ReorderKernel`): named for anything else it
    is an error; from the environment, everything else keeps its default driver.
    """
    b = get_backend(backend)
    pseudo = b.host_threads_driver_name
    if driver is None and b.driver_env:
        driver = os.environ.get(b.driver_env) or None
        if driver is not None and driver not in b.runtime_drivers:
            raise UnsupportedError(f"{b.driver_env}={driver!r} is not a {b.name} driver "
                                   f"(known: {', '.join(b.runtime_drivers)})")
        if driver is not None and driver == pseudo and not can_cut:
            driver = None
    if driver is None:
        return (b.memory_bound_driver if memory_bound else None) or b.driver
    if driver not in b.runtime_drivers:
        raise UnsupportedError(f"driver {driver!r} cannot run {b.name} modules (known: {', '.join(b.runtime_drivers)})")
    if driver == pseudo and not can_cut:
        raise UnsupportedError(f"driver {driver} runs convolutions and reorders only "
                               f"(here: {', '.join(b.iree_drivers)})")
    return driver


_NICE = {"vulkan": "Vulkan", "cuda": "CUDA", "local-task": "CPU", "local-sync": "CPU", "hip": "HIP"}


def chain_driver(backend: str | Backend, driver: str | None = None) -> str:
    """`driver_for`, for work that chains device tensors from kernel to kernel (`generator.net`): an
    IREE driver, never the host-threads pseudo-driver (its results are pieces in host threads'
    buffers): named, it is an error; from the environment, the backend's driver is used."""
    b = get_backend(backend) if isinstance(backend, str) else backend
    drv = driver if driver is not None and driver == b.host_threads_driver_name else driver_for(b, driver)
    if drv not in b.iree_drivers:
        raise UnsupportedError(f"a network chains device tensors on one IREE driver "
                               f"({', '.join(b.iree_drivers)}), not on {drv}")
    return drv


class _Device:
    """A runtime device and its readback, shared by the modules and tensors on it (they hold this)."""

    __slots__ = ("device", "driver", "reader", "__weakref__")

    def __init__(self, device: rt.HalDevice, driver: str):
        self.device = device
        self.driver = driver
        self.reader = _Readback(device)


def _device(backend: str | Backend, driver: str | None = None, slot: int = 0) -> _Device:
    b = get_backend(backend)
    drv = driver_for(b, driver)
    key = drv if slot == 0 else f"{drv}#{slot}"
    with _lock:
        held = _devices_in_use if idle_device_busy_here(b, drv) else _devices
        dev = held.get(key)
        if dev is None:
            configure_runtime()
            try:
                hal = rt.get_driver(drv).create_device_by_uri(drv, allocators=list(b.allocators))
            except Exception as e:  # noqa: BLE001 - IREE raises RuntimeError/ValueError
                raise RunError(f"no {_NICE.get(drv, drv)} device: {iree_message(e)}") from None
            dev = held[key] = _Device(hal, drv)
        return dev


def get_device(backend: str | Backend, driver: str | None = None, slot: int = 0) -> rt.HalDevice:
    """The runtime device for ``backend`` (on ``driver``, see ``driver_for``), with the backend's
    allocators (``Backend.allocators``: the CPU's caching allocator). Created once per driver and
    process; on a backend whose idle device keeps host threads busy (``Backend.idle_device_busy``:
    Vulkan on lavapipe), kept only while a loaded module or a device tensor is on it, and created
    again after. ``slot`` > 0: another device of the same driver, one per slot (the host-threads
    driver's parts, each on its own: parts sharing one local-sync device and its allocator ran slower
    at once).

    Raises ``RunError`` with one line, e.g. ``no CUDA device: CUDA driver library 'libcuda.so' ...
    not available``.
    """
    return _device(backend, driver, slot).device


# ---------------------------------------------------------------------------------------------
# Readback


class _Readback:
    """Copies device results into host NumPy arrays (IREE_NOTES.md section 4, recipe A).

    One per device. It keeps one timeline semaphore (each copy waits on value ``v`` and signals
    ``v + 1``) and a few staging buffers keyed by byte size, so repeated calls of the same kernel
    allocate nothing.
    """

    _MAX_STAGING = 16

    def __init__(self, device: rt.HalDevice):
        self.device = device
        self.sem = None  # created on the first staged copy: CPU results never need one
        self.value = 0
        self.staging: dict[int, rt.HalBuffer] = {}
        self.lock = threading.Lock()
        _live.add(self)

    def _release(self) -> None:
        self.staging.clear()
        self.sem = None

    def to_numpy(self, bv: rt.HalBufferView) -> np.ndarray:
        dtype = _result_dtype(bv)
        shape = list(bv.shape)
        src = bv.get_buffer()
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes == 0:
            return np.zeros(shape, dtype)
        if int(src.allowed_usage()) & int(rt.BufferUsage.MAPPING_SCOPED):
            # CPU results are mappable: read them in place (one copy, out of the mapping).
            return np.array(src.map().asarray(shape, dtype), copy=True)
        with self.lock:
            size = int(src.byte_length())
            st = self.staging.get(size)
            if st is None:
                if len(self.staging) >= self._MAX_STAGING:
                    self.staging.pop(next(iter(self.staging)))
                st = self.device.allocator.allocate_buffer(
                    memory_type=rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE,
                    allowed_usage=rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED,
                    allocation_size=size,
                )
                self.staging[size] = st
            if self.sem is None:
                self.sem = self.device.create_semaphore(0)
                self.value = 0
            v = self.value
            self.device.queue_copy(
                src,
                st,
                wait_semaphores=rt.HalFence.create_at(self.sem, v),
                signal_semaphores=rt.HalFence.create_at(self.sem, v + 1),
            )
            rt.HalFence.create_at(self.sem, v + 1).wait()
            self.value = v + 1
            # Copy out while we hold the lock: the next readback of this size reuses the buffer.
            return np.array(st.map().asarray(shape, dtype), copy=True)


def _result_dtype(bv: rt.HalBufferView) -> np.dtype:
    et = bv.element_type
    try:
        return np.dtype(rt.HalElementType.map_to_dtype(et))
    except Exception:  # noqa: BLE001
        raise RunError(f"result element type 0x{int(et):08x} has no numpy equivalent") from None


# ---------------------------------------------------------------------------------------------
# Device-resident tensors


@dataclass(frozen=True)
class DeviceTensor:
    """A tensor living in device memory: an uploaded input or a result kept on the device.

    Pass it to a ``Function`` instead of a NumPy array to skip the upload (benchmarks), and call
    ``to_numpy()`` to read it back.
    """

    view: rt.HalBufferView
    shape: tuple[int, ...]
    dtype: np.dtype
    driver: str
    owner: _Device | None = field(repr=False, compare=False)   # keeps its device alive (None once released)

    def __post_init__(self) -> None:
        _live.add(self)

    def _release(self) -> None:
        object.__setattr__(self, "view", None)
        object.__setattr__(self, "owner", None)

    def copy_into(self, out: np.ndarray) -> None:
        """Copy the tensor into the host array `out` (its size, any dtype of the same item size, any
        shape and strides: its elements in C order): read in
        place from the mapping where the buffer is mappable (CPU results), else through `to_numpy`."""
        if self.view is None:
            raise RunError("device tensor was released at interpreter shutdown")
        buf = self.view.get_buffer()
        if int(buf.allowed_usage()) & int(rt.BufferUsage.MAPPING_SCOPED):
            src = buf.map().asarray(list(self.view.shape), _result_dtype(self.view))
        else:
            src = self.to_numpy()
        np.copyto(out, src.reshape(-1).view(out.dtype).reshape(out.shape))    # out may be a strided slab

    def to_numpy(self) -> np.ndarray:
        """Copy the tensor to a new host array (staging copy on devices whose buffers are not mappable)."""
        if self.view is None or self.owner is None:
            raise RunError("device tensor was released at interpreter shutdown")
        return self.owner.reader.to_numpy(self.view)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


def upload(array: np.ndarray, backend: str | Backend, driver: str | None = None) -> DeviceTensor:
    """Copy a C-contiguous NumPy array to ``backend``'s device (see ``Function.upload``)."""
    drv = driver_for(backend, driver)
    return _upload(np.asanyarray(array), _device(backend, drv), "array")


def _upload(a: np.ndarray, owner: _Device, what: str) -> DeviceTensor:
    if not isinstance(a, np.ndarray):
        raise InputError(f"{what} is a {type(a).__name__}, expected a numpy array or DeviceTensor")
    et = _ELEMENT_TYPES.get(a.dtype)
    if et is None:
        raise InputError(f"{what} has unsupported dtype {a.dtype} (accepted: {_ACCEPTED})")
    if not a.flags.c_contiguous:
        # Deliberately no silent copy: in a layout-aware generator a strided view usually means the
        # caller thinks the bytes are in some other order. Make them say np.ascontiguousarray.
        raise InputError(f"{what} with shape {a.shape} and strides {a.strides} is not C-contiguous; pass np.ascontiguousarray(x)")
    device, drv = owner.device, owner.driver
    try:
        view = device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT,
            device=device,
            buffer=a,
            element_type=et,
        )
    except Exception as e:  # noqa: BLE001
        raise RunError(f"cannot upload {what} ({a.dtype}, shape {a.shape}) to {drv}: {iree_message(e)}") from None
    return DeviceTensor(view, tuple(a.shape), a.dtype, drv, owner)


# ---------------------------------------------------------------------------------------------
# Modules and functions

_DECL_ARG = re.compile(r"%input\d+:\s*(tensor<([^>]*)>|[^,)]+)")
_MLIR_TO_NP = {
    "f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "f64": np.dtype(np.float64),
    "i8": np.dtype(np.int8), "i16": np.dtype(np.int16), "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64), "i1": np.dtype(np.bool_),
}
if _BF16 is not None:
    _MLIR_TO_NP["bf16"] = _BF16


def _parse_signature(decl: str) -> list[tuple[tuple[int | None, ...], str]] | None:
    """Input ``(shape, element type)`` pairs from an ``iree.abi.declaration``, or None if unparsable.

    The declaration reads ``sync func @add(%input0: tensor<4x5xf32>, ...) -> (...)``. Checking
    arguments against it gives errors that name the argument and the expected type before invoking.
    """
    m = re.match(r"\s*(?:sync\s+)?func\s+@[^(]*\((.*?)\)\s*(?:->|$)", decl)
    if not m:
        return None
    params = m.group(1).strip()
    if not params:
        return []
    out = []
    for am in _DECL_ARG.finditer(params):
        if am.group(2) is None:
            return None  # a non-tensor argument (scalar, !hal.buffer_view): do not guess
        *dims, et = am.group(2).split("x")
        try:
            shape = tuple(None if d == "?" else int(d) for d in dims)
        except ValueError:
            return None
        out.append((shape, et))
    return out if len(out) == params.count("%input") else None


def _fmt_type(shape: tuple, et: str) -> str:
    return "tensor<" + "".join(f"{'?' if d is None else d}x" for d in shape) + et + ">"


class Function:
    """One exported function of a loaded module, looked up once and called many times.

    ``f(*arrays)`` uploads NumPy inputs, invokes, and returns the results as NumPy arrays (bf16 as
    ``ml_dtypes.bfloat16``). Arguments may also be ``DeviceTensor``s from ``f.upload(x)``.
    ``f.invoke(*args)`` is the same without the readback: it returns ``DeviceTensor``s. Calls are
    serialised by a lock; the object is safe to share between threads but not faster for it.
    """

    def __init__(self, module: LoadedModule, name: str, vm_function: rt.VmFunction):
        self.module = module
        self.name = name
        self._fn = vm_function
        self._owner = module.owner
        self._driver = module.driver
        self._reader = module.owner.reader
        self._lock = threading.Lock()
        self._last_args: tuple | None = None  # (packed VmVariantList, the DeviceTensors in it)
        try:
            decl = vm_function.reflection.get("iree.abi.declaration", "")
        except Exception:  # noqa: BLE001 - reflection is optional metadata
            decl = ""
        self.declaration: str = decl
        self.signature = _parse_signature(decl) if decl else None
        _live.add(self)

    def _release(self) -> None:
        self._last_args = None
        self._fn = None
        self._reader = None
        self._owner = None

    def __repr__(self) -> str:
        return f"<Function {self.name} of {self.module.path.name} on {self._driver}>"

    def upload(self, array: np.ndarray) -> DeviceTensor:
        """Copy ``array`` to this function's device once, for repeated calls without upload cost."""
        return _upload(np.asanyarray(array), self._owner, "array")

    def _check(self, i: int, shape: tuple, dtype: np.dtype) -> None:
        if self.signature is None:
            return
        exp_shape, et = self.signature[i]
        exp_dtype = _MLIR_TO_NP.get(et)
        ok_dtype = exp_dtype is None or dtype == exp_dtype or (et == "i8" and dtype == np.uint8)
        ok_shape = len(shape) == len(exp_shape) and all(e is None or e == s for e, s in zip(exp_shape, shape))
        if not (ok_dtype and ok_shape):
            raise InputError(
                f"{self.name}: argument {i} is {dtype}{list(shape)}, expected {_fmt_type(exp_shape, et)}"
            )

    def _arg_list(self, args: tuple) -> tuple[rt.VmVariantList, tuple[DeviceTensor, ...]]:
        """The packed argument list and the tensors in it (NumPy arrays checked against the signature,
        then uploaded; DeviceTensors checked and taken as they are)."""
        if self.signature is not None and len(args) != len(self.signature):
            raise InputError(f"{self.name}: takes {len(self.signature)} arguments, got {len(args)}")
        lst = rt.VmVariantList(len(args))
        tensors = []
        for i, a in enumerate(args):
            if isinstance(a, DeviceTensor):
                if a.driver != self._driver:
                    raise InputError(f"{self.name}: argument {i} lives on {a.driver}, this function runs on {self._driver}")
                t = a
            else:
                a = np.asanyarray(a)
                self._check(i, a.shape, a.dtype)  # before uploading: cheaper and a better message
                t = _upload(a, self._owner, f"{self.name}: argument {i}")
            self._check(i, t.shape, t.dtype)
            lst.push_ref(t.view)
            tensors.append(t)
        return lst, tuple(tensors)

    def _pack(self, args: tuple) -> rt.VmVariantList:
        last = self._last_args
        if last is not None and len(last[1]) == len(args) and all(x is y for x, y in zip(last[1], args)):
            return last[0]  # benchmark loop: the same device tensors again, reuse the packed list
        lst, _ = self._arg_list(args)
        all_dev = bool(args) and all(isinstance(a, DeviceTensor) for a in args)
        # Holding the tensors themselves (not their ids) keeps them alive, so identity is reliable.
        self._last_args = (lst, tuple(args)) if all_dev else None
        return lst

    def _error(self, e: Exception) -> Exception:
        msg = iree_message(e)
        if "mismatch" in msg or ("expected" in msg and "argument" in msg):
            return InputError(f"{self.name}: {msg}")
        return RunError(f"{self.name} failed on {self._driver}: {msg}")

    def _results(self, out: rt.VmVariantList) -> tuple[DeviceTensor, ...]:
        results = []
        for i in range(len(out)):
            try:
                bv = out.get_as_object(i, rt.HalBufferView)
            except Exception as e:  # noqa: BLE001
                raise RunError(f"{self.name}: result {i} is not a tensor ({iree_message(e)})") from None
            results.append(DeviceTensor(bv, tuple(bv.shape), _result_dtype(bv), self._driver, self._owner))
        return tuple(results)

    def invoke(self, *args: np.ndarray | DeviceTensor) -> tuple[DeviceTensor, ...]:
        """Run the function and return its results still on the device.

        The default (sync) ABI returns once the results are ready, so timing this call measures the
        kernel plus dispatch overhead, not a host copy.
        """
        with self._lock:
            if self._fn is None:
                raise RunError(f"{self.name}: the runtime was shut down")
            arg_list = self._pack(args)
            out = rt.VmVariantList(1)
            try:
                self.module.context.invoke(self._fn, arg_list, out)
            except Exception as e:  # noqa: BLE001 - IREE raises ValueError/RuntimeError
                raise self._error(e) from None
            return self._results(out)

    def __call__(self, *args: np.ndarray | DeviceTensor) -> tuple[np.ndarray, ...]:
        """Run the function on NumPy arrays (or DeviceTensors) and return NumPy results, always a tuple."""
        return tuple(self._reader.to_numpy(t.view) for t in self.invoke(*args))

    def bind(self, *args: np.ndarray | DeviceTensor) -> BoundCall:
        """The fast call path: arguments uploaded (NumPy) or taken as they are (DeviceTensors), checked
        and packed once; ``call()`` then only invokes. See ``BoundCall``."""
        with self._lock:
            if self._fn is None:
                raise RunError(f"{self.name}: the runtime was shut down")
            lst, tensors = self._arg_list(args)
        return BoundCall(self, tensors, lst)


class BoundCall:
    """One function with its arguments fixed: looked up once, arguments resident on the device and
    packed once, so a call is one ``VmContext.invoke`` and nothing else (``kgen bench call`` measures
    it next to PyTorch).

    ``call()`` runs it and returns nothing; ``call.results()`` gives the last call's results as
    ``DeviceTensor``s and ``call.numpy()`` as NumPy arrays. The argument tensors stay referenced
    (and so alive) while the BoundCall lives. Not for concurrent use from several threads: bind one
    per thread.
    """

    __slots__ = ("function", "args", "_invoke", "_vm_fn", "_list", "_out", "__weakref__")

    def __init__(self, function: Function, args: tuple[DeviceTensor, ...], arg_list: rt.VmVariantList):
        self.function = function
        self.args = args
        self._invoke = function.module.context.invoke
        self._vm_fn = function._fn
        self._list = arg_list
        self._out: rt.VmVariantList | None = None
        _live.add(self)

    def _release(self) -> None:
        self._invoke = self._vm_fn = self._list = self._out = None
        self.args = ()

    def __repr__(self) -> str:
        return f"<BoundCall {self.function.name} ({len(self.args)} arguments) on {self.function._driver}>"

    def __call__(self) -> None:
        # drop the last call's results first: held across the call, their buffers cannot go back to
        # the caching allocator, and every call pays a fresh allocation and its page faults
        self._out = None
        out = rt.VmVariantList(1)
        try:
            self._invoke(self._vm_fn, self._list, out)
        except TypeError:
            if self._invoke is None:
                raise RunError(f"{self.function.name}: the runtime was shut down") from None
            raise
        except Exception as e:  # noqa: BLE001 - IREE raises ValueError/RuntimeError
            raise self.function._error(e) from None
        self._out = out

    def results(self) -> tuple[DeviceTensor, ...]:
        """The results of the last call, still on the device."""
        if self._out is None:
            raise RunError(f"{self.function.name}: the bound call has not run yet")
        return self.function._results(self._out)

    def numpy(self) -> tuple[np.ndarray, ...]:
        """The results of the last call as NumPy arrays."""
        return tuple(t.to_numpy() for t in self.results())


class LoadedModule:
    """A vmfb mapped into memory and bound to ``backend``'s device, ready to call.

    ``VmModule.mmap`` avoids reading (and copying) the file;
    on POSIX the mapping stays valid even if the cache later replaces the file. A missing, empty,
    truncated or garbage file, or one compiled for another target, raises ``ArtifactError``.
    """

    def __init__(self, vmfb_path: str | os.PathLike, backend: str | Backend, driver: str | None = None,
                 device_slot: int = 0):
        self.path = Path(vmfb_path)
        self.backend = get_backend(backend)
        self.driver = driver_for(self.backend, driver)
        p = self.path
        if not p.is_file():
            raise ArtifactError(f"vmfb not found: {p}")
        if p.stat().st_size == 0:
            raise ArtifactError(f"vmfb is empty: {p}")
        inst = _vm_instance()
        try:
            self.vm_module = rt.VmModule.mmap(inst, str(p))
        except Exception as e:  # noqa: BLE001 - IREE raises ValueError for bad flatbuffers
            raise ArtifactError(f"cannot load {p}: {iree_message(e)}") from None
        self.owner = _device(self.backend, self.driver, device_slot)  # after the file checks: a bad file is reported as such
        self.device = self.owner.device
        try:
            self.context = rt.VmContext(inst, modules=[rt.create_hal_module(inst, self.device), self.vm_module])
        except Exception as e:  # noqa: BLE001
            msg = iree_message(e)
            if "not found or unavailable" in msg or "INCOMPATIBLE" in str(e):
                raise ArtifactError(
                    f"{p} was not compiled for {self.backend.name} (no executable the {self.driver} device can run)"
                ) from None
            raise ArtifactError(f"cannot initialise {p} on {self.driver}: {msg}") from None
        # weak: a Function holds its module, and a module that held its functions back would be a
        # cycle, freed (with its device) only by the cyclic collector
        self._functions: weakref.WeakValueDictionary[str, Function] = weakref.WeakValueDictionary()
        _live.add(self)

    def _release(self) -> None:
        self._functions.clear()
        self.context = None
        self.vm_module = None
        self.device = None
        self.owner = None

    def __repr__(self) -> str:
        return f"<LoadedModule {self.path} on {self.driver}>"

    @property
    def function_names(self) -> list[str]:
        """Exported function names, without IREE's internal ``__init`` and friends."""
        return [n for n in self.vm_module.function_names if not n.startswith("__")]

    def function(self, name: str) -> Function:
        """The ``Function`` called ``name``; raises ``RunError`` listing the available ones."""
        f = self._functions.get(name)
        if f is None:
            vm_fn = None
            if not name.startswith("__"):
                try:
                    vm_fn = self.vm_module.lookup_function(name)
                except Exception:  # noqa: BLE001
                    vm_fn = None
            if vm_fn is None:
                avail = ", ".join(self.function_names) or "none"
                raise RunError(f"no function {name!r} in {self.path.name} (available: {avail})")
            f = Function(self, name, vm_fn)
            self._functions[name] = f
        return f

    def __getitem__(self, name: str) -> Function:
        return self.function(name)


_modules: dict[tuple, LoadedModule] = {}
_MAX_MODULES = 64
# modules on a backend whose idle device keeps host threads busy: cached while in use only
_modules_in_use: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def load_module(vmfb_path: str | os.PathLike, backend: str | Backend, driver: str | None = None) -> LoadedModule:
    """A per-process cached ``LoadedModule``, reloaded when the file is replaced (inode, size, mtime)."""
    p = Path(vmfb_path).resolve()
    drv = driver_for(backend, driver)
    try:
        st = p.stat()
    except OSError:
        raise ArtifactError(f"vmfb not found: {vmfb_path}") from None
    key = (str(p), get_backend(backend).name, drv, st.st_ino, st.st_size, st.st_mtime_ns)
    with _lock:
        if idle_device_busy_here(backend, drv):
            m = _modules_in_use.get(key)
            if m is None:
                m = _modules_in_use[key] = LoadedModule(p, backend, drv)
            return m
        m = _modules.get(key)
        if m is None:
            m = LoadedModule(p, backend, drv)
            if len(_modules) >= _MAX_MODULES:
                _modules.pop(next(iter(_modules)))
            _modules[key] = m
        return m


def run_function(vmfb_path: str | os.PathLike, backend: str | Backend, fn_name: str, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Load (cached) ``vmfb_path`` on ``backend``, call ``fn_name`` on ``arrays``, return NumPy results."""
    return load_module(vmfb_path, backend).function(fn_name)(*arrays)
