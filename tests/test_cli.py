"""The kgen command line: benchdnn-style reorder runs, --input/--output, desc."""
import dataclasses
import os
import subprocess
import sys

import numpy as np
import pytest

from generator.catalog import repo_root
from generator.compile import vulkan_device_available
from generator.layout import MemoryDesc

SHARED = repo_root().parent / "shared" / "benchdnn"


def kgen(*args, cwd=None):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "generator.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=900)


def test_desc_worked_example():
    r = kgen("desc", "--tag=nChw8c", "2x17x5x4")
    assert r.returncode == 0, r.stderr
    assert "padded dims:    2x24x5x4" in r.stdout
    assert "strides:        480x160x32x8" in r.stdout
    assert "size:           3840 bytes" in r.stdout


def test_reorder_problems_pass_and_count():
    r = kgen("reorder", "--sdt=f32,s8", "--ddt=s8", "--stag=nchw", "--dtag=nChw16c,CHWN4",
             "--attr-scales=,src:per_dim_1", "2x17x3x5", "--attr-post-ops=sum:0.5", "1x3x2x2")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("kgen reorder: seed ")
    assert sum("PASSED" in l for l in lines) == 8
    assert sum(l.split(":", 1)[1].startswith("SKIPPED (--attr-post-ops=sum:0.5") for l in lines if ":" in l) == 8
    assert lines[-1].startswith("tests:16 passed:8 skipped:8 failed:0")


def test_zero_volume_is_legal():
    r = kgen("reorder", "--stag=nchw", "--dtag=nChw8c", "2x0x3x3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0:PASSED" in r.stdout


def test_input_output_roundtrip(tmp_path):
    src = MemoryDesc((2, 17, 3, 4), "f32", "nhwc")
    dst = MemoryDesc((2, 17, 3, 4), "f32", "nChw8c")
    x = np.arange(src.nelems, dtype=np.float32).reshape(src.dims)
    np.save(tmp_path / "in.npy", src.to_physical(x))
    r = kgen("reorder", "--stag=nhwc", "--dtag=nChw8c", f"--input={tmp_path / 'in.npy'}",
             f"--output={tmp_path / 'out.npy'}", "2x17x3x4")
    assert r.returncode == 0, r.stdout + r.stderr
    y = np.load(tmp_path / "out.npy")
    assert y.shape == (dst.buffer_nelems,) and y.dtype == np.float32
    assert np.array_equal(dst.from_physical(y), x)
    assert not y[dst.padding_mask()].any()


def test_batch_file_with_reset_and_nesting(tmp_path):
    (tmp_path / "inner").write_text("--reset --sdt=u8 --ddt=s8 --stag=abx --dtag=aBx4b 1x6x2x2\n")
    (tmp_path / "outer").write_text("# comment\n--sdt=f32 --ddt=bf16 --stag=axb --dtag=aBx8b 2x9x2x3\n"
                                    "--batch=inner\n")
    r = kgen("reorder", f"--batch={tmp_path / 'outer'}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1].startswith("tests:2 passed:2 skipped:0 failed:0")


@pytest.mark.skipif(not (SHARED / "lists" / "reorder_smoke.txt").is_file(), reason="../shared/benchdnn is absent")
def test_benchdnn_reorder_smoke_list():
    r = kgen("reorder", f"--batch={SHARED / 'lists' / 'reorder_smoke.txt'}")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    last = r.stdout.splitlines()[-1]
    assert "failed:0" in last and "passed:0" not in last


@pytest.mark.vulkan
@pytest.mark.skipif(not vulkan_device_available()[0], reason=f"no Vulkan device: {vulkan_device_available()[1]}")
def test_reorder_on_vulkan():
    r = kgen("reorder", "--backend=vulkan", "--sdt=f32", "--ddt=s8", "--stag=nchw", "--dtag=NCHW4",
             "--attr-zero-points=dst:common:2", "2x17x3x5")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0:PASSED" in r.stdout


def test_conv_compiles_ahead_and_reports_in_order(tmp_path):
    """--jobs=2 compiles the next modules in threads; the report keeps the input order, and a bad
    option further on stops the run (exit 2) only after the problems before it are reported."""
    env_cache = {"KGEN_CACHE_DIR": str(tmp_path / "cache")}
    probs = ["mb1ic4ih5oc4kh3", "--dt=u8:s8:s32", "mb1ic8ih6oc5kh3ph1", "--dt=bf16", "mb2ic3ih4oc6kh2"]
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "conv", "--jobs=2", *probs, "--bogus",
                        "mb1ic4ih5oc4kh3"], capture_output=True, text=True, env=dict(os.environ) | env_cache,
                       timeout=900)
    lines = [l for l in r.stdout.splitlines() if ":PASSED" in l]
    assert [l.split(":")[0] for l in lines] == ["0", "1", "2"], r.stdout + r.stderr
    assert "--dt=u8:s8:s32" in lines[1] and "--dt=bf16" in lines[2]
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "kgen: error: unknown option '--bogus' for the conv driver (at argument 7)"], r.stderr
    r = kgen("conv", "--jobs=0", "mb1ic4ih5oc4kh3")
    assert r.returncode == 2 and "--jobs=0: expected a positive number" in r.stderr


@pytest.mark.parametrize("value", ["x", "0", "-2", ""])
def test_bad_cpu_threads_is_one_line_and_exit_2(value, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_THREADS", value)
    r = kgen("conv", "--dt=f32", "mb1ic4ih4oc4oh4kh1ph0")
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip() == f"kgen: error: KGEN_CPU_THREADS={value!r} is not a positive number of threads"
    assert "Traceback" not in r.stderr


def test_cpu_threads_sets_the_workers(monkeypatch):
    from generator.compile.backends import cpu_threads
    from generator.errors import UnsupportedError
    monkeypatch.setenv("KGEN_CPU_THREADS", "3")
    assert cpu_threads() == 3
    monkeypatch.delenv("KGEN_CPU_THREADS")
    assert cpu_threads() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("KGEN_CPU_THREADS", "two")
    with pytest.raises(UnsupportedError, match="not a positive number"):
        cpu_threads()


def test_auto_steers_past_a_kernels_zero_point_bound():
    """A source zero point on the command line past what `--alg=auto`'s kernel computes exactly
    (brgemm's depthwise kernel subtracts it in f32: |zp| <= 14308 over a u8 3x3 window) runs the direct
    variant instead, saying so; one within the bound keeps brgemm; a named brgemm refuses it in one
    line naming the bound."""
    line = ("--dt=u8:s8:f32", "--stag=nhwc", "--dtag=nhwc", "g16mb1ic16ih5oc16oh5kh3ph1")
    r = kgen("conv", "--alg=auto", "--attr-zero-points=src:common:20000", *line)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ("0:PASSED (auto chose direct: brgemm computes a source zero point exactly only for |zp| <= 14308, "
            "and this one is 20000") in r.stdout
    r = kgen("conv", "--alg=auto", "--attr-zero-points=src:common:-14308", *line)
    assert r.returncode == 0 and "0:PASSED (auto chose brgemm" in r.stdout, r.stdout + r.stderr
    r = kgen("conv", "--alg=brgemm", "--attr-zero-points=src:common:20000", *line)
    assert r.returncode != 0 and "0:FAILED (src_zp holds 20000: kernel" in r.stdout
    assert "exact for |zero point| <= 14308 over its 9 taps (the direct variant" in r.stdout
    # the bound is known before anything is compiled (the command line then builds direct alone)
    from generator.api import conv_src_zp_limit, resolved_conv
    from generator.benchdnn.conv import conv_problem, parse_conv_args

    asked = conv_problem(next(iter(parse_conv_args(["--alg=auto", "--attr-zero-points=src:common:20000", *line]))))
    assert resolved_conv(asked).alg == "brgemm" and conv_src_zp_limit(asked) == 14308
    assert conv_src_zp_limit(dataclasses.replace(asked, alg="direct")) is None
