"""The kernel catalog: named kernels that `./build.sh` generates, compiles and checks.

`reorders.txt` and `convs.txt` beside this file list one kernel a line: a name, then a benchdnn
reorder or convolution problem (a conv line names its variant with --alg). For a backend the build:

1. renders each kernel's MLIR into `mlir/<backend>/<function>.mlir`, written only when it changed;
2. compiles it through the content-addressed cache into `build/<backend>/<function>.vmfb`, with the
   exact compile command beside it (`<function>.compile.sh`), usable by `iree-run-module`;
3. writes `build/<backend>/manifest.json` (name, function, signature, formats, flags, sha256);
4. runs each kernel once against the NumPy reference (where the backend's device is present).

The function name is the problem's `name`, which encodes every parameter (a conv module also
holds `<function>_prepare`, the weight reorder/transform).
"""
from __future__ import annotations

import hashlib
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..benchdnn.conv import conv_problem, given_conv_quant_values, parse_conv_args
from ..benchdnn.reorder import given_quant_values, parse_args, reorder_problem
from ..compile import compile_mlir, compiler_version, device_available, get_backend, write_artifact
from ..compile.cache import cached_artifact, export_entry, host_cpu_id, install_entry
from ..emit.conv import render_conv
from ..emit.reorder import render_reorder
from ..errors import KgenError, ProblemError
from ..scale import Progress, Unit, executor_for, run_units
from ..select import reorder_form
from ..verify import check_conv, check_reorder
from ..version import __version__

CATALOG_FILES = {"reorder": Path(__file__).with_name("reorders.txt"), "conv": Path(__file__).with_name("convs.txt")}


@dataclass(frozen=True)
class CatalogEntry:
    name: str
    kind: str            # "reorder" or "conv"
    case: object         # ReorderCase / ConvCase
    problem: object      # ReorderProblem / ConvProblem

    @property
    def function(self) -> str:
        return self.problem.name


def repo_root() -> Path:
    """The checkout this package lives in (where mlir/ and build/ are), else the working directory."""
    here = Path(__file__).resolve().parents[2]
    return here if (here / "pyproject.toml").is_file() and (here / "generator").is_dir() else Path.cwd()


def _parse_line(kind: str, args: list[str]):
    if kind == "reorder":
        cases = list(parse_args(args))
        return cases, (reorder_problem(cases[0]) if len(cases) == 1 else None)
    cases = list(parse_conv_args(args))
    return cases, (conv_problem(cases[0]) if len(cases) == 1 else None)


def load_catalog(files: dict[str, Path] | None = None) -> list[CatalogEntry]:
    entries, names = [], set()
    for kind, path in (files or CATALOG_FILES).items():
        for lineno, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            name, *args = shlex.split(line)
            cases, problem = _parse_line(kind, args)
            if problem is None:
                raise ProblemError(f"{path.name}:{lineno}: a catalog line must describe exactly one problem")
            if name in names:
                raise ProblemError(f"{path.name}:{lineno}: kernel name '{name}' is used twice")
            names.add(name)
            entries.append(CatalogEntry(name, kind, cases[0], problem))
    return entries


def render_entry(e: CatalogEntry, backend: str) -> str:
    b = get_backend(backend)
    if e.kind == "reorder":
        return render_reorder(e.problem, form=reorder_form([e.problem], b))
    return render_conv(e.problem, b.portable())      # mlir/ is the same on every CPU


def render_catalog(backend: str) -> dict[str, str]:
    """{relative path under mlir/: MLIR text} for every catalog kernel on `backend` (no compiler run).
    A conv variant the backend refuses is left out (none is today)."""
    b = get_backend(backend)
    return {f"{b.name}/{e.function}.mlir": render_entry(e, b.name) for e in load_catalog()}


def _write_if_changed(path: Path, text: str) -> bool:
    if path.is_file() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return True


def _signature(e: CatalogEntry) -> dict:
    p = e.problem
    if e.kind == "reorder":
        return {"inputs": [{"name": n, "shape": list(s), "dtype": d.name} for n, s, d in p.input_shapes()],
                "output": {"shape": [p.dst.buffer_len], "dtype": p.dst.dtype.name}}
    inputs = [{"name": "src", "shape": [p.src.buffer_nelems], "dtype": p.src.dtype.name},
              {"name": "wei_prepared", "from": f"{e.function}_prepare(wei: [{p.wei.buffer_nelems}] "
                                              f"{p.wei.dtype.name})"}]
    if p.zero_point("src"):
        inputs.append({"name": "wei_grouped", "from": f"{e.function}_prepare, its second result"})
    if p.bias:
        inputs.append({"name": "bias", "shape": [p.desc.oc], "dtype": p.bias_dt})
    for name, q in p.quant_args():
        inputs.append({"name": name, "shape": list(p.quant_shape(q)), "dtype": p.quant_dtype(name).name})
    for name, _, op in p.post_op_inputs():
        desc = p.input_desc(name)
        inputs.append({"name": name, "shape": [desc.buffer_nelems], "dtype": desc.dtype.name,
                       "format": desc.format_name()})
    return {"inputs": inputs, "output": {"shape": [p.dst.buffer_nelems], "dtype": p.dst.dtype.name}}


def _tensors(e: CatalogEntry) -> dict:
    p = e.problem
    if e.kind == "reorder":
        return {"src": {"dims": list(p.dims), "dtype": p.src.dtype.name, "format": p.src.format_name()},
                "dst": {"dims": list(p.dims), "dtype": p.dst.dtype.name, "format": p.dst.format_name()}}
    return {name: {"dims": list(m.dims), "dtype": m.dtype.name, "format": m.format_name()}
            for name, m in (("src", p.src), ("wei", p.wei), ("dst", p.dst))} | {"alg": p.alg}


def _check(e: CatalogEntry, backend, path: Path) -> str | None:
    # the API loads IREE's runtime: rendering and compiling the catalog do not need it
    from ..api import ConvKernel, ReorderKernel

    art = _PrebuiltArtifact(path)
    if e.kind == "reorder":
        # the catalog's form (mlir/ is the same on every machine), whatever this machine's tuning says
        k = ReorderKernel([e.problem], backend, artifact=art, form=reorder_form([e.problem], get_backend(backend)))
        return check_reorder(k, e.problem, given_quant_values(e.case))
    return check_conv(ConvKernel(e.problem, backend, artifact=art), e.problem, given_conv_quant_values(e.case))


def compile_chunk(backend: str, items: list[tuple[str, str, tuple[str, ...]]]) -> list[dict]:
    """A unit of `kgen catalog build` (in a worker): compile each (function, MLIR, extra flags) into this
    node's cache and send the entry back as bytes (`export_entry`); a failed compile sends its error."""
    out = []
    for function, text, extra in items:
        t = time.time()
        try:
            art = compile_mlir(text, backend, name=function, extra_flags=extra)
            out.append({"function": function, "files": export_entry(art), "cached": art.cached,
                        "seconds": time.time() - t})
        except KgenError as err:
            out.append({"function": function, "error": str(err), "seconds": time.time() - t})
    return out


def _extra_flags(e: CatalogEntry, b) -> tuple[str, ...]:
    # reorders are run on the memory-bound driver (a prebuilt module holds the whole reorder, so not
    # host-threads) and compiled for it
    return tuple(b.reorder_flags(b.memory_bound_driver) if e.kind == "reorder" else b.conv_flags(None, e.problem))


def _chunks(items: list, workers: int) -> list[list]:
    """About sixteen units per worker, so that a slow chunk does not leave the others idle at the end."""
    size = max(1, -(-len(items) // max(1, 16 * workers)))
    return [items[i:i + size] for i in range(0, len(items), size)]


def build_catalog(backend: str = "llvm-cpu", *, jobs: int | None = 2, run: bool = True, compile: bool = True,
                  root: Path | None = None, out=sys.stdout, address: str | None = None,
                  progress: str = "text") -> int:
    """Render, compile and check the catalog; print progress and a summary. Returns an exit status.
    Compiles missing from the cache run as units (`generator.scale`): `jobs` local processes, or the
    Ray farm at `address` (on a node of this CPU kind where the flags say target-cpu=host)."""
    b = get_backend(backend)
    root = root or repo_root()
    t0 = time.time()
    entries = load_catalog()
    texts = render_catalog(b.name)
    kinds = {k: sum(e.kind == k for e in entries) for k in CATALOG_FILES}
    written = sum(_write_if_changed(root / "mlir" / rel, text) for rel, text in texts.items())
    # stale files of kernels no longer in the catalog would mislead a reader of mlir/
    keep = {root / "mlir" / rel for rel in texts}
    removed = 0
    for f in (root / "mlir" / b.name).glob("*.mlir"):
        if f not in keep:
            f.unlink()
            removed += 1
    print(f"catalog: {len(entries)} kernels ({', '.join(f'{n} {k}' for k, n in kinds.items())}) for {b.name}; "
          f"mlir/{b.name}: {written} written, "
          f"{len(texts) - written} unchanged, {removed} removed", file=out, flush=True)
    if not compile:
        return 0
    outdir = root / "build" / b.name
    outdir.mkdir(parents=True, exist_ok=True)
    n = len(entries)
    arts, failed = {}, {}
    todo = []
    # convolutions first: they take longest to compile, and the reorders then fill the gaps at the end
    for e in sorted(entries, key=lambda e: e.kind != "conv"):
        text, extra = texts[f"{b.name}/{e.function}.mlir"], _extra_flags(e, b)
        art = cached_artifact(text, b, extra_flags=extra, name=e.function)
        if art is not None:
            arts[e.function] = art          # no rework: a warm build sends nothing out
        else:
            todo.append((e.function, text, extra))
    if todo:
        # a target-cpu=host compile must run on a node of this CPU kind (its artifact is keyed by it)
        target = host_cpu_id() if any(f.endswith("=host") for f in b.flags) else None
        executor = executor_for(jobs, address)
        names = {e.function: e.name for e in entries}
        units = [Unit(names[chunk[0][0]] + (f" +{len(chunk) - 1}" if len(chunk) > 1 else ""), compile_chunk,
                      (b.name, chunk), "compile", target) for chunk in _chunks(todo, executor.workers)]

        def install(r):
            if not r.ok:
                for function, _, _ in r.unit.args[1]:
                    failed[function] = r.error
                return
            for item in r.value:
                if "error" in item:
                    failed[item["function"]] = item["error"]
                else:
                    arts[item["function"]] = install_entry(item["files"])

        print(f"  compiling {len(todo)} of {n} kernels on {executor.name} ({n - len(todo)} cached)", file=out, flush=True)
        run_units(units, executor, install, Progress("compile", len(units), progress, executor=executor.name))
    manifest = []
    for e in entries:
        if e.function in failed:
            print(f"  compile FAILED {e.name}: {failed[e.function]}", file=out, flush=True)
            continue
        art = arts[e.function]
        path = write_artifact(art, outdir, e.function)
        manifest.append({
            "name": e.name, "function": e.function, "file": path.name,
            "kind": e.kind, "problem": e.case.repro(), "signature": _signature(e), **_tensors(e),
            "backend": b.name, "flags": list(art.flags),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "compiler": compiler_version(), "generator": __version__,
        })
    failures = len(failed)
    manifest.sort(key=lambda m: m["name"])
    _write_if_changed(outdir / "manifest.json", json.dumps({"backend": b.name, "kernels": manifest}, indent=1) + "\n")
    passed = checked_fail = 0
    if run:
        ok, why = device_available(b)
        if not ok:
            print(f"  run skipped on {b.name}: {why}", file=out, flush=True)
        else:
            by_name = {e.name: e for e in entries}
            for m in manifest:
                e = by_name[m["name"]]
                try:
                    reason = _check(e, b, outdir / m["file"])
                except KgenError as err:
                    reason = str(err)
                if reason:
                    checked_fail += 1
                    print(f"  check FAILED {e.name}: {reason}", file=out, flush=True)
                else:
                    passed += 1
    print(f"catalog: {len(manifest)}/{n} compiled into {outdir.relative_to(root)}/, "
          f"{passed} checked against NumPy, {failures + checked_fail} failed, {time.time() - t0:.1f} s",
          file=out, flush=True)
    return 1 if failures or checked_fail else 0


@dataclass(frozen=True)
class _PrebuiltArtifact:
    """A vmfb in build/ (rather than in the cache), as ReorderKernel expects an artifact."""
    path: Path
