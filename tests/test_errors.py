"""Bad input gives one clean error: the CLI prints one line ``kgen: error: ...`` and exits 2, the API
raises a typed `KgenError` subclass. Never a traceback.

CLI cases run ``python -m generator.cli.main`` as a subprocess (about half a second each), with
``$KGEN_CACHE_DIR`` pointing at a cache private to this module, so nothing leaks in or out. Only
cases that must reach a kernel (``--input`` checks happen after the kernel is built) compile, and
they share one 2x3 kernel. API cases compile two small kernels into that cache; the corrupt-cache
cases get a cache of their own per test.
"""
from __future__ import annotations

import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import generator as kg
from generator.cli.main import main
from generator.compile import compile_mlir
from generator.errors import (
    ArtifactError,
    FormatError,
    InputError,
    KgenError,
    ProblemError,
    UnsupportedError,
)
from generator.layout import MemoryDesc, get_dtype, parse_tag
from generator.runtime import LoadedModule, load_module

from tiers import first


# ----------------------------------------------------------------------------------------------------
# Helpers


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("kgen-cache")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Input files for --input / --batch cases; the source is 2x3 f32 abx (6 elements)."""
    d = tmp_path_factory.mktemp("inputs")
    np.save(d / "ok.npy", np.arange(6, dtype=np.float32))
    np.save(d / "long.npy", np.arange(7, dtype=np.float32))
    np.save(d / "f64.npy", np.arange(6, dtype=np.float64))
    np.save(d / "two_d.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
    np.save(d / "objects.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
    (d / "text.npy").write_text("this is not a .npy file\n")
    (d / "bad_batch").write_text("--reset --stag=nChw8c 2x3x4\n")
    (d / "binary_batch").write_bytes(b"\xff\xfe\x00--stag")
    (d / "a_dir").mkdir()
    return d


def run_cli(args, cache, cwd):
    env = {k: v for k, v in os.environ.items() if k != "KGEN_DEBUG"}
    env["KGEN_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-m", "generator.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def assert_one_line_error(proc, match=None):
    err = proc.stderr
    assert "Traceback" not in err and "Traceback" not in proc.stdout, err
    assert proc.returncode == 2, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {err}"
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{err}"
    assert lines[0].startswith("kgen: error: ") and len(lines[0]) > len("kgen: error: "), lines[0]
    if match is not None:
        assert match in lines[0], lines[0]
    return lines[0]


# ----------------------------------------------------------------------------------------------------
# CLI: each bad input -> exit 2, one line, no traceback. (args, text the message must contain)

CLI_CASES = {
    # format tags
    "unknown-tag": (["desc", "--tag=foo", "2x3"], "unknown format tag 'foo'"),
    "unknown-stag": (["reorder", "--stag=foo", "2x3"], "unknown format tag 'foo'"),
    "tag-rank-mismatch": (["desc", "--tag=nChw8c", "2x3x4"], "4 dims but 3"),
    "stag-rank-mismatch": (["reorder", "--stag=nChw8c", "2x3x4"], "4 dims but 3"),
    "upper-case-without-block": (["reorder", "--stag=aBcd", "2x3x4x5"], "upper-case 'B'"),
    "block-size-zero": (["desc", "--tag=aBcd0b", "2x3x4x5"], "positive"),
    "abstract-tag-any": (["reorder", "--dtag=any", "2x3"], "any"),
    "strides-with-blocked-tag": (["desc", "--tag=nChw8c", "--strides=1x2x3x4", "2x3x4x5"], "blocked"),
    # dims
    "negative-dim-desc": (["desc", "--tag=abc", "--", "-2x3x4"], "'-2' is not a non-negative integer"),
    "negative-dim-reorder": (["reorder", "2x-3x4"], "'-3' is not a non-negative integer"),
    "malformed-dims-2xx3": (["reorder", "2xx3"], "empty dimension"),
    "malformed-dims-abc": (["reorder", "abc"], "'abc'"),
    "empty-dims": (["desc", "--tag=ab", ""], "no dimensions"),
    "too-many-dims-desc": (["desc", "1x2x3x4x5x6x7"], "1..6 dims"),
    # data types
    "unknown-sdt": (["reorder", "--sdt=f77", "2x3"], "unknown data type 'f77'"),
    "unknown-dt-desc": (["desc", "--dt=f77", "--tag=ab", "2x3"], "unknown data type 'f77'"),
    # strides
    "overlapping-strides-desc": (["desc", "--strides=1x1", "2x3"], "overlap"),
    "overlapping-src-strides": (["reorder", "--strides=1x1:", "2x3"], "overlap"),
    "overlapping-dst-strides": (["reorder", "--strides=:2x1", "2x3"], "overlap"),
    "strides-count-desc": (["desc", "--strides=3x1x1", "2x3"], "3 strides given for 2 dims"),
    "strides-count-reorder": (["reorder", "--strides=1x1x1:", "2x3"], "3 values"),
    "strides-not-integers": (["desc", "--strides=axb", "2x3"], "--strides=axb"),
    "strides-no-colon": (["reorder", "--strides=6x1", "2x3"], "SRC_STRIDES:DST_STRIDES"),
    # --input
    "input-wrong-length": (["reorder", "--input={d}/long.npy", "2x3"], "6 elements"),
    "input-wrong-dtype": (["reorder", "--input={d}/f64.npy", "2x3"], "float64"),
    "input-2d": (["reorder", "--input={d}/two_d.npy", "2x3"], "shape (2, 3)"),
    "input-missing": (["reorder", "--input={d}/missing.npy", "2x3"], "not found"),
    "input-not-npy": (["reorder", "--input={d}/text.npy", "2x3"], "cannot read"),
    "input-object-array": (["reorder", "--input={d}/objects.npy", "2x3"], "cannot read"),
    "input-directory": (["reorder", "--input={d}/a_dir", "2x3"], "is a directory"),
    # options, backends, batch files
    "unknown-backend": (["reorder", "--backend=foo", "2x3"], "unknown backend 'foo'"),
    "unknown-option": (["reorder", "--bogus=1", "2x3"], "unknown option '--bogus'"),
    "unknown-option-desc": (["desc", "--bogus", "2x3"], "unrecognized arguments"),
    "unknown-command": (["frobnicate"], "unknown command 'frobnicate'"),
    "missing-batch-file": (["reorder", "--batch={d}/no_such_batch"], "batch file not found"),
    "bad-tag-in-batch-file": (["reorder", "--batch={d}/bad_batch"], "4 dims but 3"),
    "binary-batch-file": (["reorder", "--batch={d}/binary_batch"], "cannot read batch file"),
    # attributes
    "malformed-attr-scales-value": (["reorder", "--attr-scales=src:common:x", "2x3"], "not a number"),
    "malformed-attr-scales-no-policy": (["reorder", "--attr-scales=src", "2x3"], "lacks a policy"),
    "unknown-policy": (["reorder", "--attr-scales=src:bogus", "2x3"], "unknown policy 'bogus'"),
    "policy-dim-out-of-range": (["reorder", "--attr-scales=src:per_dim_3", "2x3"], "per_dim_3"),
    "fractional-zero-point": (["reorder", "--attr-zero-points=src:common:1.5", "2x3"], "not an integer"),
    # --input computes with the user's values only
    "input-per-dim-scales-without-values": (["reorder", "--attr-scales=src:per_dim_1", "--input={d}/ok.npy", "2x3"],
                                            "give them in --scales-src=F.npy (3 numbers)"),
    "scales-file-for-a-reorder-without-scales": (["reorder", "--scales-src={d}/ok.npy", "2x3"],
                                                 "this reorder has no src scale"),
    "scales-file-wrong-shape": (["reorder", "--attr-scales=src:per_dim_1", "--scales-src={d}/ok.npy",
                                 "--input={d}/ok.npy", "2x3"], "expected 3 numbers (per_dim_1)"),
    "input-f64-for-bf16": (["reorder", "--sdt=bf16", "--input={d}/f64.npy", "2x3"],
                           "has dtype float64, expected bf16 (bfloat16) (or float32, rounded to it)"),
    # kgen tune / bench conv: layouts
    "tune-unknown-layout": (["tune", "--stag=any", "--layouts=frob", "mb1ic16ih7oc16oh7kh3ph1"],
                            "unknown layout 'frob' (known: nchw, nhwc, nChw16c"),
    "bench-conv-unknown-layout": (["bench", "conv", "--layouts=nhwc,frob", "mb1ic16ih7oc16oh7kh3ph1"],
                                  "unknown layout 'frob'"),
    # kgen net: every misuse before a kernel is built
    "net-model-not-a-module": (["net", "--model=os:getcwd", "--plan-only"],
                               "os:getcwd returned str, not a torch.nn.Module"),
    "net-input-shape-does-not-fit": (["net", "--model=torchvision:resnet50", "--input-shape=1x3x224", "--plan-only"],
                                     "the example input 1x3x224 does not run through ResNet at conv1 (Conv2d): "
                                     "Given groups=1, weight of size [64, 3, 7, 7]"),
    "net-model-not-callable": (["net", "--model=os:sep", "--plan-only"], "os:sep is a str, not a callable"),
    "net-model-raises": (["net", "--model=json:dumps", "--plan-only"],
                         "calling json:dumps() raised TypeError: dumps() missing 1 required positional argument"),
    "net-model-no-module": (["net", "--model=kgen_no_such_module:build", "--plan-only"],
                            "No module named 'kgen_no_such_module'"),
    "net-model-no-colon": (["net", "--model=resnet50", "--plan-only"], "expected torchvision:NAME, zoo:NAME or MODULE:CALLABLE"),
    "net-zoo-unknown": (["net", "--model=zoo:vgg", "--plan-only"], "no zoo model named 'vgg'"),
    "net-model-unknown-torchvision": (["net", "--model=torchvision:frobnet", "--plan-only"], "frobnet"),
    "net-model-without-conv": (["net", "--model=torch.nn:ReLU", "--plan-only"],
                               "ReLU has no Conv1d, Conv2d or Conv3d layer"),
    "net-dt-f16": (["net", "--model=torchvision:resnet50", "--dt=f16", "--plan-only"],
                   "kgen net plans f32, bf16 and int8 models"),
    "net-calibration-not-int8": (["net", "--model=zoo:resnet_basic", "--calibration=2", "--plan-only"],
                                 "--calibration=N (N >= 1) or --calibration=FILE.npy quantizes the model for --dt=int8"),
    "net-calibration-negative": (["net", "--model=zoo:resnet_basic", "--dt=int8", "--calibration=-2", "--plan-only"],
                                 "--calibration=N (N >= 1)"),
    "net-calibration-file-missing": (["net", "--model=zoo:resnet_basic", "--dt=int8", "--calibration={d}/missing.npy",
                                      "--plan-only"], "--calibration file not found"),
    "net-calibration-file-wrong-shape": (["net", "--model=zoo:resnet_basic", "--dt=int8", "--calibration={d}/two_d.npy",
                                          "--plan-only"], "is 2x3: calibration inputs are K x 3x112x112 (the example "
                                                          "input's dims after its batch)"),
    "net-calibration-file-f64": (["net", "--model=zoo:resnet_basic", "--dt=int8", "--calibration={d}/f64.npy",
                                  "--plan-only"], "has dtype float64, expected f32"),
    "net-calibration-zero": (["net", "--model=zoo:resnet_basic", "--dt=int8", "--calibration=0", "--plan-only"],
                             "--calibration=N (N >= 1)"),
    "net-unknown-layout": (["net", "--model=torchvision:resnet50", "--layouts=frob", "--plan-only"],
                           "unknown layout 'frob'"),
    "net-unknown-backend": (["net", "--model=torchvision:resnet50", "--backend=metal", "--plan-only"],
                            "unknown backend 'metal'"),
    "net-input-shape-zero": (["net", "--model=torchvision:resnet50", "--input-shape=1x3x0x8", "--plan-only"],
                             "every size must be at least 1"),
    "net-input-shape-malformed": (["net", "--model=torchvision:resnet50", "--input-shape=1x3xbig", "--plan-only"],
                                  "expected NxCxHxW"),
    "net-json-into-no-directory": (["net", "--model=torch.nn:ReLU", "--json={d}/no/such/dir/plan.json"],
                                   "no such directory"),
    "net-graph-missing": (["net", "--graph={d}/no_such_graph", "--plan-only"], "cannot read graph file"),
    "net-model-and-graph": (["net", "--model=torchvision:resnet50", "--graph={d}/bad_batch"], "not allowed with"),
    "net-breakdown-with-graph": (["net", "--graph={d}/bad_batch", "--breakdown"],
                                 "--breakdown times a --model's plan node by node: not with --graph"),
    "net-breakdown-with-plan-only": (["net", "--model=torchvision:resnet50", "--breakdown", "--plan-only"],
                                     "not with --plan-only"),
    "bench-peak-seconds-zero": (["bench", "peak", "--seconds=0"], "--seconds=0.0 must be positive"),
    "bench-peak-threads-zero": (["bench", "peak", "--threads=0"], "--threads must be at least 1"),
    "bench-peak-threads-malformed": (["bench", "peak", "--threads=two"], "--threads=two: expected thread counts"),
    "bench-peak-unknown-instruction": (["bench", "peak", "--instructions=vpmaddwd"],
                                       "no peak loop for vpmaddwd (known: vpdpbusd, vdpbf16ps"),
    "desc-format-any": (["desc", "--tag=any", "2x3"], "format 'any' has no layout of its own"),
    "bench-conv-png-into-no-directory": (["bench", "conv", "--png={d}/no/such/dir/b.png", "mb1ic4ih4oc4kh1"],
                                         "no such directory"),
}


# The inputs the brief of these tests names go through a real process; every case also runs in-process
# through main() (milliseconds), where an exception escaping the one-line handler fails the test.
SUBPROCESS_CASES = (
    "unknown-tag", "tag-rank-mismatch", "negative-dim-desc", "negative-dim-reorder", "malformed-dims-2xx3",
    "malformed-dims-abc", "empty-dims", "unknown-sdt", "overlapping-src-strides", "strides-count-reorder",
    "input-wrong-length", "input-wrong-dtype", "input-2d", "input-missing", "input-not-npy", "unknown-backend",
    "unknown-option", "missing-batch-file", "malformed-attr-scales-value", "unknown-policy",
    "upper-case-without-block",
    # the three a new user met (each once printed a traceback, a torch.fx dump, or nothing at all)
    "net-model-not-a-module", "net-input-shape-does-not-fit", "tune-unknown-layout", "net-model-without-conv",
)


# each case a process of its own: the quick tier runs five (every case runs in process below)
@pytest.mark.parametrize("name", first(SUBPROCESS_CASES, 5))
def test_cli_bad_input(name, cache, files, tmp_path):
    args, match = CLI_CASES[name]
    args = [a.replace("{d}", str(files)) for a in args]
    proc = run_cli(args, cache, tmp_path)
    assert_one_line_error(proc, match)


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_cli_bad_input_in_process(name, cache, files, capsys, monkeypatch):
    args, match = CLI_CASES[name]
    args = [a.replace("{d}", str(files)) for a in args]
    monkeypatch.setenv("KGEN_CACHE_DIR", str(cache))
    monkeypatch.delenv("KGEN_DEBUG", raising=False)
    # reorder_cmd.run(argv, out=sys.stdout) binds the stdout of the moment it was first imported, which
    # under pytest may be an earlier test's (closed) capture: point it at this test's stdout
    from generator.cli import reorder_cmd
    monkeypatch.setattr(reorder_cmd.run, "__defaults__", (sys.stdout,) + reorder_cmd.run.__defaults__[1:])
    rc = main(args)
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kgen: error: ") and match in lines[0], err


@pytest.mark.parametrize("args", [["net", "--graph={d}/bad_batch", "--plan-only", "--png={d}/plan.png"],
                                  ["bench", "conv", "--png={d}/bench.png", "mb1ic4ih4oc4kh1"]])
def test_cli_png_without_matplotlib_is_one_line_before_any_work(args, cache, files, capsys, monkeypatch):
    import importlib.util
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else find_spec(name, *a))
    monkeypatch.setenv("KGEN_CACHE_DIR", str(cache))
    rc = main([a.replace("{d}", str(files)) for a in args])
    err = capsys.readouterr().err.splitlines()
    assert rc == 2 and err == ["kgen: error: --png needs matplotlib, which is not installed (pip install -e .[bench], "
                               "or ./build.sh bench)"], err


def test_cli_unwritable_output(cache, files, tmp_path):
    proc = run_cli(["reorder", f"--input={files}/ok.npy", f"--output={tmp_path}/no/such/dir/out.npy", "2x3"],
                   cache, tmp_path)
    assert_one_line_error(proc, "out.npy")


@pytest.mark.parametrize("args", [
    ["reorder", "2x0x3"],
    ["reorder", "--stag=aBcd8b", "--dtag=abcd", "2x0x3x3"],
])
def test_cli_zero_volume_reorder_is_legal(args, cache, tmp_path):
    proc = run_cli(args, cache, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "0:PASSED" in proc.stdout and "passed:1" in proc.stdout


def test_cli_input_output_round_trip(cache, files, tmp_path):
    """The good twin of the --input cases: the right buffer goes through and lands in --output."""
    out = tmp_path / "out.npy"
    proc = run_cli(["reorder", "--dtag=ba", f"--input={files}/ok.npy", f"--output={out}", "2x3"], cache, tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert np.array_equal(np.load(out), np.arange(6, dtype=np.float32).reshape(2, 3).T.ravel())


def test_cli_one_dim_default_tag(cache, tmp_path):
    """benchdnn's default tag abx is trimmed to the problem's rank: a 1-D problem is legal."""
    proc = run_cli(["desc", "16"], cache, tmp_path)
    assert proc.returncode == 0 and "format:         a" in proc.stdout, proc.stderr


# ----------------------------------------------------------------------------------------------------
# API


@pytest.fixture(scope="module")
def blocked_kernel(cache):
    src = MemoryDesc((2, 17, 3, 2), "f32", "nchw")
    dst = MemoryDesc((2, 17, 3, 2), "f32", "nChw8c")
    return src, dst, kg.reorder(src, dst, cache_dir=cache)


@pytest.fixture(scope="module")
def scaled_kernel(cache):
    src = MemoryDesc((2, 3), "f32", "ab")
    dst = MemoryDesc((2, 3), "s8", "ba")
    return src, dst, kg.reorder(src, dst, src_scale="common", dst_zp="per_dim_1", cache_dir=cache)


def test_api_kernel_works_on_good_input(blocked_kernel):
    src, dst, k = blocked_kernel
    x = np.arange(src.nelems, dtype=np.float32).reshape(src.dims)
    y = k(src.to_physical(x))
    assert np.array_equal(dst.from_physical(y), x) and not y[dst.padding_mask()].any()


@pytest.mark.parametrize("make, match", [
    (lambda n: np.zeros(n - 1, np.float32), "1-D array of"),
    (lambda n: np.zeros(n + 1, np.float32), "1-D array of"),
    (lambda n: np.zeros(n, np.float64), "dtype float64"),
    (lambda n: np.zeros(n, np.int32), "dtype int32"),
    (lambda n: np.zeros((2, n // 2), np.float32), "shape"),
    (lambda n: [0.0] * n, "NumPy array"),
])
def test_api_wrong_buffer(blocked_kernel, make, match):
    src, _, k = blocked_kernel
    with pytest.raises(InputError, match=match):
        k(make(src.buffer_nelems))


def test_api_wrong_keyword_arguments(blocked_kernel):
    src, dst, k = blocked_kernel
    buf = src.to_physical(np.ones(src.dims, np.float32))
    with pytest.raises(InputError, match="unexpected arguments src_scale"):
        k(buf, src_scale=2.0)
    with pytest.raises(InputError, match="dst_init"):
        k(buf, dst_init=np.zeros(dst.buffer_nelems, np.float32))


def test_api_missing_or_bad_scale(scaled_kernel):
    src, _, k = scaled_kernel
    buf = src.to_physical(np.ones(src.dims, np.float32))
    zp = np.zeros(3, np.int32)
    with pytest.raises(InputError, match="needs src_scale="):
        k(buf, dst_zp=zp)
    with pytest.raises(InputError, match="needs dst_zp="):
        k(buf, src_scale=np.float32(2))
    with pytest.raises(InputError, match="policy common wants"):
        k(buf, src_scale=np.ones(3, np.float32), dst_zp=zp)
    with pytest.raises(InputError, match="policy per_dim_1 wants"):
        k(buf, src_scale=np.float32(2), dst_zp=np.zeros(2, np.int32))
    with pytest.raises(InputError, match="integers"):
        k(buf, src_scale=np.float32(2), dst_zp=np.full(3, 0.5))
    with pytest.raises(InputError, match="numeric"):
        k(buf, src_scale="two", dst_zp=zp)


def test_api_common_scale_as_scalar(scaled_kernel):
    src, dst, k = scaled_kernel
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = k(src.to_physical(x), src_scale=2.0, dst_zp=np.array([1, 2, 3], np.int32))
    assert np.array_equal(dst.from_physical(y), (2 * x + [1, 2, 3]).astype(np.int8))


def test_api_problem_errors(cache):
    a = MemoryDesc((2, 17, 3, 2), "f32", "nchw")
    with pytest.raises(FormatError, match="differ"):
        kg.reorder(a, MemoryDesc((2, 16, 3, 2), "f32", "nChw8c"), cache_dir=cache)
    with pytest.raises(FormatError, match="MemoryDesc"):
        kg.reorder(a, "nChw8c", cache_dir=cache)
    with pytest.raises(FormatError, match="at least two"):
        kg.reorder_chain([a], cache_dir=cache)
    with pytest.raises(UnsupportedError, match="unknown backend 'foo'"):
        kg.reorder(a, a, backend="foo", cache_dir=cache)
    with pytest.raises(ProblemError, match="unknown quantization policy 'bogus'"):
        kg.reorder(a, a, src_scale="bogus", cache_dir=cache)
    with pytest.raises(ProblemError, match="per_dim_9"):
        kg.reorder(a, a, src_scale="per_dim_9", cache_dir=cache)


def test_api_zero_volume_reorder_is_legal(cache):
    src = MemoryDesc((2, 0, 3, 2), "f32", "nchw")
    dst = MemoryDesc((2, 0, 3, 2), "s8", "nChw16c")
    k = kg.reorder(src, dst, cache_dir=cache)
    y = k(np.zeros(0, np.float32))
    assert y.shape == (0,) and y.dtype == np.int8
    with pytest.raises(InputError):
        k(np.zeros(1, np.float32))
    chain = kg.reorder_chain([src, MemoryDesc((2, 0, 3, 2), "f32", "nhwc"), dst], cache_dir=cache)
    assert chain(np.zeros(0, np.float32)).shape == (0,)


def test_api_layout_errors():
    with pytest.raises(FormatError, match="non-negative"):
        MemoryDesc((2, -3), "f32")
    with pytest.raises(FormatError, match="4 dims but 3"):
        MemoryDesc((2, 3, 4), "f32", "nChw8c")
    with pytest.raises(FormatError, match="unknown data type 'f77'"):
        MemoryDesc((2, 3), "f77")
    with pytest.raises(FormatError, match="upper-case 'B'"):
        parse_tag("aBcd", 4)
    with pytest.raises(FormatError, match="overlap"):
        MemoryDesc((2, 3), strides=(1, 1))
    with pytest.raises(FormatError, match="strides given"):
        MemoryDesc((2, 3), strides=(1,))
    with pytest.raises(FormatError):
        get_dtype("float128")


def test_api_submemory_out_of_bounds():
    p = MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    with pytest.raises(FormatError, match="does not fit"):
        p.submemory((2, 10, 5, 4), (0, 8, 0, 0))
    with pytest.raises(FormatError, match="does not fit"):
        p.submemory((3, 17, 5, 4), (0, 0, 0, 0))
    with pytest.raises(FormatError, match="does not fit"):
        p.submemory((1, 8, 5, 4), (-1, 0, 0, 0))
    with pytest.raises(FormatError, match="multiple of its block"):
        p.submemory((2, 8, 5, 4), (0, 3, 0, 0))
    with pytest.raises(FormatError, match="mid-block"):
        MemoryDesc((1, 24, 5, 4), "f32", "nChw8c").submemory((1, 12, 5, 4), (0, 0, 0, 0))


def test_api_reshape_impossible():
    with pytest.raises(FormatError, match="elements"):
        MemoryDesc((2, 3), "f32", "ab").reshape((7,))
    with pytest.raises(FormatError, match="without a copy"):
        MemoryDesc((2, 3), "f32", "ba").reshape((6,))
    with pytest.raises(FormatError, match="blocked dim"):
        MemoryDesc((2, 16, 3, 3), "f32", "nChw8c").reshape((32, 3, 3))
    with pytest.raises(FormatError, match="permutation"):
        MemoryDesc((2, 3), "f32", "ab").permute_axes((1, 1))


# ----------------------------------------------------------------------------------------------------
# Compiled artifacts: corrupt cache entries rebuild, bad vmfb files are ArtifactError


def _check_and_drop(kernel, src, dst, x):
    """Run a kernel, then release its module: the vmfb is mmapped, and overwriting a mapped file in
    place (as these tests do on purpose) would pull the pages from under a live module."""
    assert np.array_equal(dst.from_physical(kernel(src.to_physical(x))), x)
    art = kernel.artifact
    del kernel
    gc.collect()
    return art


def test_corrupt_cached_vmfb_is_rebuilt(tmp_path):
    src = MemoryDesc((3, 5), "f32", "ab")
    dst = MemoryDesc((3, 5), "f32", "ba")
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    art = _check_and_drop(kg.reorder(src, dst, cache_dir=tmp_path), src, dst, x)
    assert not art.cached
    vmfb, size = art.path, art.path.stat().st_size
    vmfb.write_bytes(b"garbage" * 16)                     # truncated garbage
    art = _check_and_drop(kg.reorder(src, dst, cache_dir=tmp_path), src, dst, x)
    assert art.rebuilt and not art.cached and art.path == vmfb and vmfb.stat().st_size == size
    # same size, same mtime: still caught (the hash check keys on inode, size, mtime and ctime)
    st = vmfb.stat()
    vmfb.write_bytes(bytes(st.st_size))
    os.utime(vmfb, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert _check_and_drop(kg.reorder(src, dst, cache_dir=tmp_path), src, dst, x).rebuilt
    assert _check_and_drop(kg.reorder(src, dst, cache_dir=tmp_path), src, dst, x).cached


def test_compile_mlir_rebuilds_damaged_entry(tmp_path):
    mlir = ("func.func @neg(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %r = arith.negf %a : tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n")
    art = compile_mlir(mlir, "llvm-cpu", cache_dir=tmp_path, name="neg")    # compiled, not loaded
    (art.entry_dir / "meta.json").write_text("{not json")                  # a damaged meta.json
    again = compile_mlir(mlir, "llvm-cpu", cache_dir=tmp_path, name="neg")
    assert again.rebuilt and again.path == art.path and again.meta["key"] == again.key
    art.path.unlink()                                                      # a half-deleted entry
    again = compile_mlir(mlir, "llvm-cpu", cache_dir=tmp_path, name="neg")
    assert again.rebuilt and again.path.is_file()
    (out,) = LoadedModule(again.path, "llvm-cpu").function("neg")(np.ones(4, np.float32))
    assert np.array_equal(out, -np.ones(4, np.float32))


@pytest.mark.parametrize("content, match", [
    (None, "not found"),
    (b"", "empty"),
    (b"garbage" * 100, "cannot load"),
    (b"\x00" * 64, "cannot load"),
])
def test_bad_vmfb_is_artifact_error(tmp_path, content, match):
    path = tmp_path / "m.vmfb"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ArtifactError, match=match):
        LoadedModule(path, "llvm-cpu")
    with pytest.raises(ArtifactError):
        load_module(path, "llvm-cpu")


def test_errors_are_kgen_errors():
    """Every typed error is a KgenError (the CLI's one-line handler catches exactly these)."""
    for e in (ArtifactError, FormatError, InputError, ProblemError, UnsupportedError):
        assert issubclass(e, KgenError)
    assert issubclass(FormatError, ValueError) and issubclass(InputError, ValueError)


# ---------------------------------------------------------------------------------------------
# A generator bug is not bad input: a typed TemplateError naming the template line, CLI exit 3

def test_template_failure_is_an_internal_error_with_numbered_lines():
    from generator.emit.relayout import Value
    from generator.emit.render import render
    from generator.errors import InternalError, TemplateError

    bogus = dict(kind="no_such_step", inp=Value("src", (2,), "f32"), out=Value("v1", (2,), "f32"))
    with pytest.raises(TemplateError) as info:
        render("reorder.mlir.j2", fn="f", args=[bogus["inp"]], steps=[bogus], result=bogus["out"])
    lines = str(info.value).splitlines()
    assert lines[0].startswith("template relayout.mlir.j2:") and "unknown relayout step kind no_such_step" in lines[0]
    assert any(ln.startswith(">") and "fail(" in ln for ln in lines[1:]), lines    # the failing line, marked
    assert isinstance(info.value, InternalError) and not isinstance(info.value, KgenError)


def test_cli_internal_error_exits_3(monkeypatch, capsys):
    from generator.errors import TemplateError

    def broken(*args, **kwargs):
        raise TemplateError("template conv_steps.mlir.j2:12 failed to render: boom")

    monkeypatch.setattr("generator.api.conv_kernel.render_conv", broken)
    monkeypatch.setattr("generator.api.ConvKernel.__init__", lambda self, *a, **k: broken())
    assert main(["conv", "--dt=f32", "ic2ih3oc2kh1"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["kgen: internal error (a bug in kgen; KGEN_DEBUG=1 shows the traceback): "
                   "template conv_steps.mlir.j2:12 failed to render: boom"]
