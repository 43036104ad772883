"""Tests of the compile layer (backend table, artifact cache) and the runtime layer (load, call).

One small hand-written module covers the cases that differ per backend: an f32 add, an i8->i32
sign extension (signless i8 ABI, uint8 bits) and an f32->bf16 truncation (bf16 results come back
as ml_dtypes.bfloat16). Each compile costs about a second, so modules are compiled once per test
module into a private cache and most tests reuse them. Vulkan tests skip only when no Vulkan
device exists; CUDA is compiled always and run only where a CUDA device exists.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import shutil

import ml_dtypes
import numpy as np
import pytest

from generator.compile import (
    BACKENDS,
    Artifact,
    compile_mlir,
    compiler_invocations,
    compiler_version,
    cuda_device_available,
    default_cache_dir,
    get_backend,
    vulkan_device_available,
    write_artifact,
)
from generator.compile import cache as cache_mod
from generator.compile.backends import idle_device_busy_here
from generator.errors import ArtifactError, CompileError, InputError, RunError, UnsupportedError
from generator.api import reorder
from generator.layout import MemoryDesc
from generator.runtime import LoadedModule, load_module, run_function, upload
from generator.runtime import module as runtime_module

MLIR = """\
func.func @add(%a: tensor<4x5xf32>, %b: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x5xf32>, tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
func.func @ext(%a: tensor<3x7xi8>) -> tensor<3x7xi32> {
  %e = tensor.empty() : tensor<3x7xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x7xi8>) outs(%e : tensor<3x7xi32>) {
  ^bb0(%x: i8, %o: i32):
    %s = arith.extsi %x : i8 to i32
    linalg.yield %s : i32
  } -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}
func.func @trunc(%a: tensor<6xf32>) -> tensor<6xbf16> {
  %e = tensor.empty() : tensor<6xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]} ins(%a : tensor<6xf32>) outs(%e : tensor<6xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %s = arith.truncf %x : f32 to bf16
    linalg.yield %s : bf16
  } -> tensor<6xbf16>
  return %r : tensor<6xbf16>
}
"""

# Fixed seed: the inputs only need to be arbitrary, and a failure must reproduce.
RNG = np.random.default_rng(1234)
X = RNG.standard_normal((4, 5)).astype(np.float32)
Y = RNG.standard_normal((4, 5)).astype(np.float32)
I8 = np.arange(-10, 11, dtype=np.int8).reshape(3, 7)
I8[0, 0], I8[2, 6] = -128, 127
F = np.array([1.5, -2.25, 3.0e5, 1.0e-3, 0.1, -7.0], np.float32)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("kgen-cache")


@functools.cache
def _compiled(backend: str, cache_dir: str) -> Artifact:
    return compile_mlir(MLIR, backend, cache_dir=cache_dir)


def _check_module(vmfb, backend):
    m = LoadedModule(vmfb, backend)
    assert m.function_names == ["add", "ext", "trunc"]
    (r,) = m.function("add")(X, Y)
    assert r.dtype == np.float32 and np.array_equal(r, X + Y)
    (r,) = m.function("ext")(I8)
    assert r.dtype == np.int32 and np.array_equal(r, I8.astype(np.int32))
    (r,) = m.function("ext")(I8.view(np.uint8))  # same bits, accepted for a signless i8 argument
    assert np.array_equal(r, I8.astype(np.int32))
    (r,) = m.function("trunc")(F)
    assert r.dtype == np.dtype(ml_dtypes.bfloat16)
    assert np.array_equal(r.view(np.uint16), F.astype(ml_dtypes.bfloat16).view(np.uint16))
    # Device-resident inputs: uploaded once, reused (the packed argument list is reused too).
    f = m.function("add")
    dx, dy = f.upload(X), f.upload(Y)
    for _ in range(3):
        (r,) = f(dx, dy)
        assert np.array_equal(r, X + Y)
    (t,) = f.invoke(dx, X)  # mixed device and host arguments; result stays on the device
    assert t.shape == (4, 5) and np.array_equal(t.to_numpy(), X + X)


# ---------------------------------------------------------------------------------------------
# Backend table


def test_backend_table():
    assert list(BACKENDS) == ["llvm-cpu", "vulkan", "cuda"]
    cpu = get_backend("llvm-cpu")
    assert cpu.driver == "local-task" and "--iree-llvmcpu-target-cpu=host" in cpu.flags
    assert get_backend("vulkan").compiles_pack is False
    assert get_backend("vulkan").supports_f64 is False
    assert "--iree-cuda-target=sm_80" in get_backend("cuda").flags
    assert get_backend(cpu) is cpu


def test_unknown_backend():
    with pytest.raises(UnsupportedError, match=r"^unknown backend 'metal' \(known: llvm-cpu, vulkan, cuda\)$"):
        get_backend("metal")
    with pytest.raises(UnsupportedError):
        compile_mlir(MLIR, "metal", cache_dir="/nonexistent")


def test_device_probes_never_raise():
    for probe in (cuda_device_available, vulkan_device_available):
        ok, why = probe()
        assert isinstance(ok, bool) and isinstance(why, str) and why


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("KGEN_CACHE_DIR")
    assert default_cache_dir() == __import__("pathlib").Path.home() / ".cache" / "kgen"


# ---------------------------------------------------------------------------------------------
# Compile + run per backend


def test_llvm_cpu_compile_and_run(cache_dir):
    art = _compiled("llvm-cpu", str(cache_dir))
    assert art.path.is_file() and art.path.name == "module.vmfb"
    entry = art.entry_dir
    assert entry == cache_dir / art.key[:2] / art.key
    assert (entry / "module.mlir").read_text() == MLIR
    meta = json.loads((entry / "meta.json").read_text())
    assert meta["key"] == art.key and meta["backend"] == "llvm-cpu"
    assert meta["size"] == art.path.stat().st_size
    assert meta["compiler_version"] == compiler_version() and "3.13" in compiler_version()
    script = (entry / "compile.sh").read_text()
    assert art.command in script.replace('"${IREE_COMPILE:-iree-compile}"', "iree-compile")
    assert art.command.startswith("iree-compile module.mlir --iree-hal-target-device=local")
    _check_module(art.path, "llvm-cpu")


def test_local_sync_driver(cache_dir, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_DRIVER", "local-sync")
    art = _compiled("llvm-cpu", str(cache_dir))
    assert LoadedModule(art.path, "llvm-cpu").driver == "local-sync"
    (r,) = run_function(art.path, "llvm-cpu", "add", X, Y)
    assert np.array_equal(r, X + Y)


@pytest.mark.parametrize("driver", ["local-task", "local-sync"])
def test_bound_call_matches_the_plain_call(cache_dir, driver):
    art = _compiled("llvm-cpu", str(cache_dir))
    fn = LoadedModule(art.path, "llvm-cpu", driver).function("add")
    call = fn.bind(X, Y)
    with pytest.raises(RunError, match="has not run yet"):
        call.results()
    for _ in range(3):                     # the same packed arguments, called again
        call()
    (r,) = call.numpy()
    assert np.array_equal(r, X + Y) and call.results()[0].driver == driver
    kept = call.results()                  # results a caller holds survive the next call
    call()
    assert np.array_equal(kept[0].to_numpy(), X + Y)
    dx = fn.upload(X)
    bound = fn.bind(dx, Y)                 # device tensors are taken as they are
    bound()
    assert bound.args[0] is dx and np.array_equal(bound.numpy()[0], X + Y)


def test_bind_checks_arguments_once(cache_dir):
    fn = LoadedModule(_compiled("llvm-cpu", str(cache_dir)).path, "llvm-cpu").function("add")
    with pytest.raises(InputError, match="argument 1 is float64"):
        fn.bind(X, Y.astype(np.float64))
    with pytest.raises(InputError, match="takes 2 arguments, got 1"):
        fn.bind(X)
    other = LoadedModule(_compiled("llvm-cpu", str(cache_dir)).path, "llvm-cpu", "local-sync").function("add")
    with pytest.raises(InputError, match="lives on local-sync, this function runs on local-task"):
        fn.bind(other.upload(X), Y)


def test_driver_choice(cache_dir, monkeypatch):
    from generator.runtime import driver_for
    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    assert driver_for("llvm-cpu") == "local-task"
    assert driver_for("llvm-cpu", memory_bound=True) == "local-sync"
    assert driver_for("llvm-cpu", "local-sync") == "local-sync"
    assert driver_for("vulkan", memory_bound=True) == "vulkan"
    with pytest.raises(UnsupportedError, match="driver 'vulkan' cannot run llvm-cpu modules"):
        driver_for("llvm-cpu", "vulkan")
    monkeypatch.setenv("KGEN_CPU_DRIVER", "local-task")
    assert driver_for("llvm-cpu", memory_bound=True) == "local-task"
    monkeypatch.setenv("KGEN_CPU_DRIVER", "bogus")
    with pytest.raises(UnsupportedError, match="KGEN_CPU_DRIVER='bogus' is not a llvm-cpu driver"):
        driver_for("llvm-cpu")


def test_vulkan_compile_and_run(cache_dir):
    art = _compiled("vulkan", str(cache_dir))
    assert art.path.is_file()
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    _check_module(art.path, "vulkan")


def test_only_a_software_device_is_released_when_idle(monkeypatch):
    # lavapipe's idle device holds two cores, so it lives only while in use; a GPU's Vulkan device is
    # kept for the process (NVIDIA's driver refused new instances after about 30)
    import generator.compile.backends as backends

    names = {"vulkan": (True, "vulkan: llvmpipe (LLVM 15.0.6, 256 bits)")}
    monkeypatch.setattr(backends, "_probe_driver", lambda drv: names[drv])
    assert backends.idle_device_busy_here("vulkan", "vulkan")
    names["vulkan"] = (True, "vulkan: NVIDIA H200 (NVIDIA 580.159.04)")
    assert not backends.idle_device_busy_here("vulkan", "vulkan")
    names["vulkan"] = (False, "vulkan: no device found")
    assert backends.idle_device_busy_here("vulkan", "vulkan")
    assert not backends.idle_device_busy_here("llvm-cpu", "local-task")


def test_cuda_compiles_without_gpu(cache_dir):
    art = _compiled("cuda", str(cache_dir))
    assert art.path.stat().st_size > 0 and art.backend == "cuda"


def test_cuda_run(cache_dir):
    ok, why = cuda_device_available()
    if not ok:
        pytest.skip(f"no CUDA device: {why}")
    _check_module(_compiled("cuda", str(cache_dir)).path, "cuda")


def test_wrong_target_vmfb_is_artifact_error(cache_dir):
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(f"no Vulkan device: {why}")
    art = _compiled("llvm-cpu", str(cache_dir))
    with pytest.raises(ArtifactError, match="not compiled for vulkan"):
        LoadedModule(art.path, "vulkan")


# ---------------------------------------------------------------------------------------------
# Cache behaviour


def test_cache_hit_does_not_compile(cache_dir, monkeypatch):
    first = _compiled("llvm-cpu", str(cache_dir))
    compile_mlir(MLIR, "llvm-cpu", cache_dir=cache_dir)  # verified (hashed) at least once by now
    hashed = []
    real_sha = cache_mod._sha256_file
    monkeypatch.setattr(cache_mod, "_sha256_file", lambda p: hashed.append(p) or real_sha(p))
    before = compiler_invocations()
    again = compile_mlir(MLIR, "llvm-cpu", cache_dir=cache_dir)
    assert compiler_invocations() == before
    assert hashed == []  # unchanged files are not re-hashed within a process
    assert again.cached and not again.rebuilt
    assert again == first  # same key, path, flags, command
    # Anything in the key changes the entry.
    other = compile_mlir(MLIR, "llvm-cpu", cache_dir=cache_dir, extra_flags=["--iree-opt-level=O2"])
    assert compiler_invocations() == before + 1 and other.key != first.key and not other.cached
    assert other.flags[-1] == "--iree-opt-level=O2"


@pytest.mark.parametrize("damage", ["garbage", "truncate", "delete_meta"])
def test_corrupt_entry_is_rebuilt(cache_dir, tmp_path, damage):
    # Seed a private cache with a copy of the shared entry: one compile per case, not two.
    shared = _compiled("llvm-cpu", str(cache_dir))
    shutil.copytree(shared.entry_dir, tmp_path / shared.key[:2] / shared.key)
    art = compile_mlir(MLIR, "llvm-cpu", cache_dir=tmp_path)
    assert art.cached
    good = art.path.read_bytes()
    if damage == "garbage":
        art.path.write_bytes(os.urandom(len(good)))  # same size: only the hash can tell
    elif damage == "truncate":
        art.path.write_bytes(good[: len(good) // 3])
    else:
        (art.entry_dir / "meta.json").unlink()
    before = compiler_invocations()
    again = compile_mlir(MLIR, "llvm-cpu", cache_dir=tmp_path)
    assert again.rebuilt and not again.cached and compiler_invocations() == before + 1
    assert again.path == art.path and again.path.read_bytes() == good
    (r,) = run_function(again.path, "llvm-cpu", "add", X, Y)
    assert np.array_equal(r, X + Y)
    assert compile_mlir(MLIR, "llvm-cpu", cache_dir=tmp_path).cached


def test_concurrent_compiles_of_same_text(tmp_path):
    # Two processes build the same entry at once; both must succeed with one installed entry and
    # no temporary directories left. spawn, not fork: the parent may hold a Vulkan device.
    ctx = multiprocessing.get_context("spawn")
    job = functools.partial(compile_mlir, backend="llvm-cpu", cache_dir=str(tmp_path), name="race")
    with ctx.Pool(2) as pool:
        a, b = pool.map(job, [MLIR, MLIR], chunksize=1)
    assert a.path == b.path and a.key == b.key
    entries = [p for p in tmp_path.glob("??/*") if p.is_dir()]
    assert entries == [a.entry_dir]
    assert not any((tmp_path / "tmp").iterdir())
    (r,) = run_function(a.path, "llvm-cpu", "add", X, Y)
    assert np.array_equal(r, X + Y)
    assert compile_mlir(MLIR, "llvm-cpu", cache_dir=tmp_path, name="race").cached


def test_lost_race_keeps_the_winners_entry(cache_dir, tmp_path, monkeypatch):
    # Deterministic version of the race: while "we" compile, "another process" installs the same
    # entry. Our rename then fails and we must return theirs and clean up our temporary directory.
    shared = _compiled("llvm-cpu", str(cache_dir))
    real_run = cache_mod._run_compiler

    def run_and_lose(workdir, name, flags, timeout):
        proc = real_run(workdir, name, flags, timeout)
        shutil.copytree(shared.entry_dir, tmp_path / shared.key[:2] / shared.key)
        return proc

    monkeypatch.setattr(cache_mod, "_run_compiler", run_and_lose)
    art = compile_mlir(MLIR, "llvm-cpu", cache_dir=tmp_path)
    assert art.key == shared.key and art.path.read_bytes() == shared.path.read_bytes()
    assert not any((tmp_path / "tmp").iterdir())


def test_bad_mlir_is_one_line_compile_error(tmp_path):
    bad = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %r = arith.bogus %a : tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n"
    with pytest.raises(CompileError) as ei:
        compile_mlir(bad, "llvm-cpu", cache_dir=tmp_path, name="bad")
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith("llvm-cpu: bad.mlir:2:")
    assert "error:" in msg and "arith.bogus" in msg
    kept = next((tmp_path / "failed").iterdir())
    assert str(kept / "bad.mlir") in msg and (kept / "bad.mlir").read_text() == bad
    assert "arith.bogus" in (kept / "errors.txt").read_text()
    assert (kept / "compile.sh").is_file()
    assert not any(tmp_path.glob("??/*"))  # nothing installed for a failed compile


def test_missing_compiler_names_package(monkeypatch):
    import iree.compiler.tools.binaries as binaries

    def no_tool(name):
        raise ValueError(f"Could not find {name}")

    monkeypatch.setattr(binaries, "find_tool", no_tool)
    with pytest.raises(CompileError, match="iree-base-compiler"):
        cache_mod.find_compiler.__wrapped__()


def test_write_artifact(cache_dir, tmp_path):
    art = _compiled("llvm-cpu", str(cache_dir))
    out = write_artifact(art, tmp_path / "build" / "llvm-cpu", "conv_x")
    assert out == tmp_path / "build" / "llvm-cpu" / "conv_x.vmfb"
    assert out.read_bytes() == art.path.read_bytes()
    script = out.with_name("conv_x.compile.sh")
    assert os.access(script, os.X_OK) and "conv_x.mlir" in script.read_text() and "-o conv_x.vmfb" in script.read_text()
    assert out.with_name("conv_x.mlir").read_text() == MLIR
    mtime = out.stat().st_mtime_ns
    write_artifact(art, tmp_path / "build" / "llvm-cpu", "conv_x")  # unchanged: not rewritten
    assert out.stat().st_mtime_ns == mtime


# ---------------------------------------------------------------------------------------------
# Runtime errors


def test_missing_and_corrupt_vmfb(cache_dir, tmp_path):
    with pytest.raises(ArtifactError, match="vmfb not found"):
        LoadedModule(tmp_path / "nope.vmfb", "llvm-cpu")
    empty = tmp_path / "empty.vmfb"
    empty.write_bytes(b"")
    with pytest.raises(ArtifactError, match="empty"):
        LoadedModule(empty, "llvm-cpu")
    good = _compiled("llvm-cpu", str(cache_dir)).path.read_bytes()
    for name, data in [("trunc.vmfb", good[: len(good) // 2]), ("junk.vmfb", os.urandom(4096))]:
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(ArtifactError) as ei:
            LoadedModule(p, "llvm-cpu")
        assert "\n" not in str(ei.value) and str(p) in str(ei.value)


def test_unknown_function_is_run_error(cache_dir):
    m = load_module(_compiled("llvm-cpu", str(cache_dir)).path, "llvm-cpu")
    with pytest.raises(RunError, match=r"no function 'conv' in module.vmfb \(available: add, ext, trunc\)"):
        m.function("conv")


def test_bad_arguments_are_input_errors(cache_dir):
    f = load_module(_compiled("llvm-cpu", str(cache_dir)).path, "llvm-cpu").function("add")
    with pytest.raises(InputError, match="takes 2 arguments, got 1"):
        f(X)
    with pytest.raises(InputError, match=r"argument 1 is float16\[4, 5\], expected tensor<4x5xf32>"):
        f(X, Y.astype(np.float16))
    with pytest.raises(InputError, match="expected tensor<4x5xf32>"):
        f(X[:3].copy(), Y)
    strided = np.zeros((4, 10), np.float32)[:, ::2]
    with pytest.raises(InputError, match="not C-contiguous"):
        f(strided, Y)



@pytest.mark.vulkan
def test_a_vulkan_device_lives_only_while_a_kernel_or_tensor_is_on_it(kgen_cache_dir):
    # lavapipe: a live IREE Vulkan device keeps two threads polling at 100% (Backend.idle_device_busy):
    # the probe creates none, and the runtime drops the device with the last kernel or tensor on it.
    # A GPU's device (NVIDIA's driver refused new instances after about 30) is kept for the process.
    ok, why = vulkan_device_available()
    if not ok:
        pytest.skip(why)
    assert get_backend("vulkan").idle_device_busy and not get_backend("llvm-cpu").idle_device_busy
    software = idle_device_busy_here("vulkan", "vulkan")
    held = runtime_module._devices_in_use if software else runtime_module._devices
    assert "vulkan" not in runtime_module._devices_in_use
    src, dst = MemoryDesc((1, 17, 3, 3), "f32", "nchw"), MemoryDesc((1, 17, 3, 3), "f32", "nChw16c")
    k = reorder(src, dst, backend="vulkan", cache_dir=kgen_cache_dir)
    x = np.arange(src.nelems, dtype=np.float32)
    y = k(x)
    t = upload(x, "vulkan")
    assert "vulkan" in held
    del k
    assert "vulkan" in held                                     # the tensor keeps the device
    np.testing.assert_array_equal(t.to_numpy(), x)
    del t
    assert ("vulkan" in held) is not software                   # released when idle on a software device only
    assert "vulkan" not in runtime_module._devices_in_use
    assert y[dst.padding_mask()].max() == 0
    np.testing.assert_array_equal(dst.from_physical(y), src.from_physical(x))
