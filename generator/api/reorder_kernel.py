"""The reorder half of the API: `ReorderKernel` (a compiled reorder, or a folded chain of them, called on
NumPy buffers) and the functions that build one (`reorder`, `reorder_chain`, `make_problem`) or many at
once (`build_reorders`), and the choice of a reorder's emission form (`reorder_form`)."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import numpy as np

from ..compile import compile_mlir, get_backend
from ..compile.backends import HOST_THREADS, cpu_threads
from ..emit.reorder import kernel_name, render_reorder, render_reorder_module
from ..emit.target import RELAYOUT_FORMS
from ..errors import FormatError, InputError, KgenError, UnsupportedError
from ..layout import MemoryDesc, is_numeric
from ..problem.partition import reorder_host_parts
from ..problem.reorder import Quant, ReorderProblem
from ..runtime import BoundCall, LoadedModule, driver_for
from ..select import reorder_driver, reorder_forms
from ..select import reorder_form as reorder_form_rule
from ..select.table import lookup_reorder_form
from .parts_call import PartsCall


def _quant(q, ndims: int) -> Quant | None:
    if q is None or isinstance(q, Quant):
        return q
    return Quant.parse(str(q), ndims)


def make_problem(src: MemoryDesc, dst: MemoryDesc, *, src_scale=None, dst_scale=None, src_zp=None,
                 dst_zp=None) -> ReorderProblem:
    """A ReorderProblem; attributes are policies ('common', 'per_dim_1', ...) or Quant objects."""
    if getattr(src, "is_any", False) or getattr(dst, "is_any", False):
        raise FormatError("format 'any' lets a primitive choose; a reorder needs a concrete format")
    if not isinstance(src, MemoryDesc) or not isinstance(dst, MemoryDesc):
        raise FormatError("reorder needs two MemoryDesc objects")
    n = src.ndims
    return ReorderProblem(src, dst, _quant(src_scale, n), _quant(dst_scale, n), _quant(src_zp, n), _quant(dst_zp, n))


def reorder_form(backend, form: str | None, chain: Sequence[ReorderProblem]) -> str:
    """The emission form of a reorder (or folded chain) on `backend`: `form` if given and possible,
    else the form `kgen tune reorder` measured fastest for it on this CPU, else the backend's rule
    (`select.reorder_form`)."""
    if form is None:
        tuned = lookup_reorder_form(kernel_name(chain), backend.name)
        return tuned if tuned in backend.relayout_forms else reorder_form_rule(chain, backend)
    if form not in RELAYOUT_FORMS:
        raise InputError(f"unknown reorder form '{form}' (known: {', '.join(RELAYOUT_FORMS)})")
    if form not in backend.relayout_forms:
        what = ("linalg.pack/unpack do not compile for this backend" if form == "pack" else
                "the shuffle microkernel is CPU-only (TargetCaps.shuffle_transpose)")
        raise UnsupportedError(f"{backend.name}: {what}; use form={backend.reorder_form!r}")
    return form


def _part_form(backend, form: str, problems) -> str:
    """A host-threads part's form: the whole reorder's where the part can take it, else the backend's
    rule (a slab one row wide is a plain copy, which the shuffle microkernel does not take)."""
    problems = list(problems)
    return form if form in reorder_forms(problems, backend) else reorder_form_rule(problems, backend)


class ReorderKernel:
    """A compiled reorder: call it with the source's physical buffer (1-D), get the destination's.

    Quantization values are passed by keyword (`src_scale=`, `dst_scale=`, `src_zp=`, `dst_zp=`): a
    scalar for common policies, an array over the masked dims otherwise. A destination with gaps or
    an offset (a strided view) is updated in place semantics: pass its current buffer as `dst_init`
    (zeros when omitted).

    `form` is how the kernel is emitted: "pack" (linalg.pack / linalg.unpack) or "transpose" (pad +
    expand_shape + transpose); by default the one `kgen tune reorder` measured fastest for this reorder
    on this CPU, else the backend's measured rule (`select.reorder_form`: pack for channels-last <->
    nChwXc on llvm-cpu, `Backend.reorder_form` otherwise).

    `driver` runs it: by default what `kgen tune reorder` measured, else `select.reorder_driver`'s
    rule (host-threads on llvm-cpu for reorders of 3 MB or more, 8 MB on the locks hand-off, that
    `partition.reorder_host_parts` cuts into one part per CPU, else local-sync). On host-threads each part is a reorder of its own,
    run from its own thread; `bind()` then returns a `PartsCall`, `artifact` is None and
    `part_artifacts` lists the parts' modules.

    Buffers are the descriptors' physical buffers (`MemoryDesc.to_physical` / `from_physical`). For the
    4-bit types s4 and u4 they are packed bytes, as oneDNN stores them: a 1-D `np.uint8` array of
    ceil(n/2) bytes for n buffer elements, element 2k in the low nibble of byte k (`MemoryDesc.buffer_len`;
    `generator.layout.pack_int4` / `unpack_int4` convert ml_dtypes.int4 / uint4 values).
    """

    _parts: tuple = ()          # the host-threads driver's (kernel, ReorderPart) pairs, set in __init__

    def __init__(self, problems: Sequence[ReorderProblem], backend: str, cache_dir=None, artifact=None,
                 driver: str | None = None, form: str | None = None, device_slot: int = 0):
        self.problems = list(problems)
        self._device_slot = device_slot     # a host-threads part's own device (runtime.get_device)
        self.backend = get_backend(backend)
        self.form = reorder_form(self.backend, form, self.problems)
        self.src, self.dst = self.problems[0].src, self.problems[-1].dst
        self.artifact = artifact
        self._fn = self._whole = None
        self._cache_dir = cache_dir
        self._parts = []
        named = driver
        if driver is None and artifact is None and not self.src.is_zero_volume:
            driver = reorder_driver(self.problems, self.backend.name)    # tuned, else by size
        # a reorder only moves memory: the backend's memory-bound driver unless one is named or chosen
        self.driver = driver_for(self.backend, driver, memory_bound=True, can_cut=True)
        if self.driver == HOST_THREADS and self.backend.host_threads_driver:
            parts = "a zero-volume reorder runs nothing" if self.src.is_zero_volume else reorder_host_parts(
                self.problems, cpu_threads())
            if artifact is not None and not isinstance(parts, str):
                parts = "a prebuilt module holds the whole reorder"
            if isinstance(parts, str):
                if named == HOST_THREADS and not self.src.is_zero_volume:
                    raise UnsupportedError(f"driver {HOST_THREADS} cannot cut {self.name}: {parts}")
                # from $KGEN_CPU_DRIVER: the backend's memory-bound driver
                self.driver = self.backend.memory_bound_default
            else:
                # one kernel per part, each with a module (and so a VM context) of its own; parts of
                # one shape share the compiled artifact through the cache
                self._parts = [(ReorderKernel(list(part.problems), self.backend.name, cache_dir,
                                              driver=self.backend.host_threads_driver,
                                              form=_part_form(self.backend, self.form, part.problems),
                                              device_slot=i), part)
                               for i, part in enumerate(parts)]
                # no one module holds the whole reorder: `artifact` is None, `part_artifacts` each part's
                self.artifact = None
                return
        if self.src.is_zero_volume:
            return                         # legal, like oneDNN: nothing to compute, nothing to compile
        if self.artifact is None:
            mlir = render_reorder(self.problems, form=self.form)
            self.artifact = compile_mlir(mlir, self.backend, cache_dir=cache_dir, name="reorder",
                                         extra_flags=self.backend.reorder_flags(self.driver))
        self._fn = LoadedModule(self.artifact.path, self.backend, self.driver, self._device_slot).function(self.name)

    @property
    def name(self) -> str:
        return kernel_name(self.problems)

    @property
    def part_artifacts(self) -> list:
        """The compiled modules of the host-threads driver's parts, in order (empty on other drivers,
        where `artifact` is the whole reorder's module)."""
        return [k.artifact for k, _ in self._parts]

    @property
    def mlir(self) -> str | None:
        """The MLIR source the kernel was compiled from (kept beside the artifact); on the host-threads
        driver each part's module, one after another."""
        if self._parts:
            return "\n".join(k.mlir for k, _ in self._parts)
        return None if self.artifact is None else self.artifact.mlir_path.read_text()

    def _quant_args(self, given: dict) -> list[np.ndarray]:
        out = []
        chain = len(self.problems) > 1
        for k, p in enumerate(self.problems):
            for arg, q in p.quant_args:
                key = f"s{k}_{arg}" if chain else arg
                if key not in given or given[key] is None:
                    raise InputError(f"kernel {p.name} needs {key}= ({q.policy})")
                dt = p.quant_dtype(arg).np_dtype
                v = np.asarray(given.pop(key))
                if not is_numeric(v.dtype):
                    raise InputError(f"{key} must be numeric, got dtype {v.dtype}")
                if dt.kind == "i" and v.dtype.kind == "f" and not np.array_equal(v, np.round(v)):
                    raise InputError(f"{key} is a zero point and must hold integers")
                want = q.shape(p.dims)
                if v.shape != want:
                    raise InputError(f"{key} has shape {v.shape}, policy {q.policy} wants {want}")
                out.append(np.array(v, dtype=dt, order="C"))   # keeps 0-d arrays 0-d
        if given:
            raise InputError(f"unexpected arguments {', '.join(sorted(given))}")
        return out

    def _args(self, src: np.ndarray, dst_init: np.ndarray | None, quant: dict) -> list[np.ndarray]:
        whole = self.problems[0].src_buffer_len
        if whole is None:
            self.src.check_buffer(src)
        elif not isinstance(src, np.ndarray) or src.ndim != 1 or src.size != whole:
            # a host-threads part reading its view out of the whole source buffer (`reorder_host_parts`)
            raise InputError(f"this reorder reads {self.src!r} out of a source buffer of {whole} elements, "
                             f"got {getattr(src, 'shape', type(src).__name__)}")
        else:
            self.src.check_buffer(src[:self.src.buffer_nelems])
        qargs = self._quant_args(dict(quant))
        args = [np.ascontiguousarray(src)] + qargs
        if self.problems[-1].needs_dst_init:
            if dst_init is None:
                dst_init = np.zeros(self.dst.buffer_len, self.dst.buffer_dtype)
            args.append(np.ascontiguousarray(self.dst.check_buffer(dst_init)))
        elif dst_init is not None:
            raise InputError("dst_init applies only to destinations with gaps or an offset")
        return args

    def _part_args(self, args: list[np.ndarray]) -> list[list[np.ndarray]]:
        """The checked whole-reorder arguments (`_args`) cut for each host-threads part: its range of
        the source buffer, and each quantization array cut to its slab where it varies along the cut
        dim (no prior destination: a destination with gaps is never cut)."""
        out = []
        for _, part in self._parts:
            a = [args[0][part.src[0]:part.src[1]]]
            i = 1
            for whole_p in self.problems:
                for arg, _ in whole_p.quant_args:
                    a.append(part.quant(whole_p, arg, args[i]))     # a new array where cut (np.take)
                    i += 1
            out.append(a)
        return out

    def _parts_call(self, args: list[np.ndarray]) -> "PartsCall":
        """The host-threads parts bound to the checked whole-reorder arguments (`_args`)."""
        calls = [k._fn.bind(*a) for (k, _), a in zip(self._parts, self._part_args(args))]
        return PartsCall(calls, [part for _, part in self._parts], self.dst)

    def __call__(self, src: np.ndarray, *, dst_init: np.ndarray | None = None, **quant) -> np.ndarray:
        args = self._args(src, dst_init, quant)
        if self._parts:
            return self._parts_call(args).run_once()
        if self._fn is None:
            return np.zeros(0, dtype=self.dst.buffer_dtype)
        (out,) = self._fn(*args)
        # the runtime knows only signless i8: give u8 results (and s4 / u4 packed bytes) their uint8 view
        return out.view(self.dst.buffer_dtype) if out.dtype != self.dst.buffer_dtype else out

    def _chained(self) -> "ReorderKernel":
        """The whole reorder on the backend's memory-bound driver (built on first use): what `invoke`
        runs on the host-threads driver, whose result is one buffer per part."""
        if self._whole is None:
            self._whole = ReorderKernel(self.problems, self.backend.name, self._cache_dir,
                                        driver=self.backend.memory_bound_default, form=self.form)
        return self._whole

    def invoke(self, src):
        """Run on the device and keep the result there: `src` a DeviceTensor (another kernel's result
        on the same driver) or a NumPy buffer; returns the destination buffer as a DeviceTensor. For a
        reorder without quantization arguments or a prior destination (`generator.net` chains these).
        On the host-threads driver the whole reorder runs on the backend's memory-bound driver."""
        if self.problems[-1].needs_dst_init or any(p.quant_args for p in self.problems):
            raise InputError(f"{self.name} takes quantization arguments or a prior destination: call it instead")
        if self._parts:
            return self._chained().invoke(src)
        if self._fn is None:
            raise InputError("a zero-volume reorder has nothing to run (no kernel was compiled)")
        return self._fn.invoke(src)[0]

    def bind(self, src: np.ndarray, *, dst_init: np.ndarray | None = None, **quant) -> "BoundCall | PartsCall":
        """The fast call path: `src` (and any quantization arguments) uploaded and packed once;
        `call()` reruns the reorder, `call.numpy()[0]` reads the result (see `runtime.BoundCall`; on
        the host-threads driver a `PartsCall`, whose `numpy()` joins the parts' results)."""
        args = self._args(src, dst_init, quant)
        if self._parts:
            return self._parts_call(args)
        if self._fn is None:
            raise InputError("a zero-volume reorder has nothing to bind (no kernel was compiled)")
        return self._fn.bind(*args)

    def reference(self, src: np.ndarray, *, dst_init: np.ndarray | None = None, **quant) -> np.ndarray:
        """The float64 NumPy model of this kernel (for checking)."""
        buf = src
        chain = len(self.problems) > 1
        for k, p in enumerate(self.problems):
            q = {arg: quant[f"s{k}_{arg}" if chain else arg] for arg, _ in p.quant_args}
            last = k == len(self.problems) - 1
            buf = p.reference(buf, q, dst_init if last else None)
        return buf


def reorder(src: MemoryDesc, dst: MemoryDesc, backend: str = "llvm-cpu", *, src_scale=None, dst_scale=None,
            src_zp=None, dst_zp=None, cache_dir: str | os.PathLike | None = None,
            driver: str | None = None, form: str | None = None) -> ReorderKernel:
    """Compile (or fetch from the artifact cache) the reorder from `src` to `dst` for `backend`
    (run on `driver`, by default the one `kgen tune reorder` chose for it on this CPU, else
    host-threads for reorders of 3 MB or more (8 MB on the locks hand-off) that it cuts, else the
    backend's memory-bound driver: local-sync on the CPU, `select.reorder_driver`; emitted in `form`, by default the one `kgen tune
    reorder` chose, else the backend's, see `ReorderKernel`)."""
    p = make_problem(src, dst, src_scale=src_scale, dst_scale=dst_scale, src_zp=src_zp, dst_zp=dst_zp)
    return ReorderKernel([p], backend, cache_dir, driver=driver, form=form)


def reorder_chain(descs: Sequence[MemoryDesc], backend: str = "llvm-cpu", *,
                  cache_dir: str | os.PathLike | None = None) -> ReorderKernel:
    """One kernel for the chain descs[0] -> descs[1] -> ... -> descs[-1] (dtype conversions kept in order)."""
    if len(descs) < 2:
        raise FormatError("a reorder chain needs at least two descriptors")
    probs = [make_problem(a, b) for a, b in zip(descs, descs[1:])]
    return ReorderKernel(probs, backend, cache_dir)


def build_reorders(chains: Sequence[Sequence[ReorderProblem]], backend: str = "llvm-cpu", *, chunk: int = 12,
                   jobs: int = 2, cache_dir=None, progress=None) -> list:
    """Compile many reorder kernels, `chunk` per module and `jobs` compiles at a time.

    Returns, per chain, a ReorderKernel or the KgenError that stopped it. A module that fails to
    compile is retried kernel by kernel, so one bad kernel never hides the others' results.
    `progress(done, total)` is called as chunks finish.
    """
    b = get_backend(backend)
    # compiled for, and run on, the backend's memory-bound driver (one thread), whatever driver a
    # reorder of this size would get by default: a batch of checks, not a timed call
    driver = driver_for(b, None, memory_bound=True)
    results: list = [None] * len(chains)
    todo = []
    for i, ch in enumerate(chains):
        if ch[0].src.is_zero_volume:
            results[i] = ReorderKernel(ch, b)
        else:
            todo.append(i)
    # each chain in its form (`kgen tune reorder`'s choice, else the backend's); one form per module
    forms = {i: reorder_form(b, None, chains[i]) for i in todo}
    groups = []
    for f in dict.fromkeys(forms.values()):
        same = [i for i in todo if forms[i] == f]
        groups += [same[k:k + chunk] for k in range(0, len(same), chunk)]

    def build(group):
        try:
            form = forms[group[0]]
            text = render_reorder_module([chains[i] for i in group], form=form)
            art = compile_mlir(text, b, cache_dir=cache_dir, name="reorders", extra_flags=b.reorder_flags(driver))
            return [(i, ReorderKernel(chains[i], b, artifact=art, driver=driver, form=form)) for i in group]
        except KgenError:
            if len(group) == 1:
                try:
                    return [(group[0], ReorderKernel(chains[group[0]], b, cache_dir=cache_dir, driver=driver))]
                except KgenError as e:
                    return [(group[0], e)]
            return [r for i in group for r in build([i])]

    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for out in pool.map(build, groups):
            for i, k in out:
                results[i] = k
            done += len(out)
            if progress:
                progress(done, len(todo))
    return results

