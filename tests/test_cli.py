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

BENCHDNN = repo_root() / "tests" / "data" / "benchdnn"      # benchdnn inputs the docs' examples use


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


def test_benchdnn_reorder_smoke_list():
    r = kgen("reorder", f"--batch={BENCHDNN / 'lists' / 'reorder_smoke.txt'}")
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


# ------------------------------------------------------------------------------------------ 16-bit floats in .npy files
# np.save writes ml_dtypes.bfloat16 as raw 2-byte values ('|V2'); a float32 file is rounded to a bf16 / f16
# tensor, said once per file on stderr. Data are small integers (f32 files: scaled by 1 + 2**-12 or
# 2**-14, which rounds back to them), so every result is exact and compared bit for bit.
BF16_SEED = 23


def _ints_scaled(rng, shape, lo, hi, grain):
    """(exact integers, float32 values that round to them in a 16-bit float, how many differ)."""
    ints = rng.integers(lo, hi + 1, shape).astype(np.float32)
    return ints, (ints * np.float32(1 + grain)).astype(np.float32), int(np.count_nonzero(ints))


@pytest.mark.parametrize("dt, files", [("bf16", "native"), ("bf16", "float32"), ("f16", "float32")])
def test_conv_runs_on_16_bit_npy_files(dt, files, tmp_path):
    import ml_dtypes

    from generator.problem.reference import conv_reference

    want_dt = np.dtype(ml_dtypes.bfloat16) if dt == "bf16" else np.dtype(np.float16)
    rng = np.random.default_rng(BF16_SEED)
    grain = 2.0**-12 if dt == "bf16" else 2.0**-14
    x, x32, nx = _ints_scaled(rng, (2, 8, 6, 5), -4, 4, grain)
    w, w32, nw = _ints_scaled(rng, (12, 4, 3, 3), -2, 2, grain)
    b = rng.integers(-8, 9, 12).astype(np.float32)
    if files == "native":
        np.save(tmp_path / "x.npy", x.astype(want_dt))
        np.save(tmp_path / "w.npy", w.astype(want_dt))
        assert np.load(tmp_path / "x.npy").dtype.str == "|V2"          # what NumPy + ml_dtypes write
    else:
        np.save(tmp_path / "x.npy", x32)
        np.save(tmp_path / "w.npy", w32)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "y.npy"
    r = kgen("conv", f"--dt={dt}", f"--src={tmp_path / 'x.npy'}", f"--wei={tmp_path / 'w.npy'}",
             f"--bia={tmp_path / 'b.npy'}", f"--dst={out}", "g2mb2ic8ih6iw5oc12kh3kw3ph1pw1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "computed:1" in r.stdout.splitlines()[-1]
    assert "seed" not in r.stdout, "no data were generated: no seed to print"
    notes = r.stderr.strip().splitlines()
    if files == "native":
        assert notes == [], r.stderr
    else:
        assert notes == [
            f"kgen: note: --src={tmp_path / 'x.npy'} holds float32, rounded to {dt} (to nearest even): {nx} of {x.size} values changed",
            f"kgen: note: --wei={tmp_path / 'w.npy'} holds float32, rounded to {dt} (to nearest even): {nw} of {w.size} values changed",
        ], r.stderr
    y = np.load(out)
    assert y.dtype.itemsize == 2 and y.shape == (2, 12, 6, 5)
    got = y.view(want_dt) if y.dtype.kind == "V" else y
    assert got.dtype == want_dt, f"--dst is {y.dtype}, not {want_dt}"
    ref = conv_reference(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64), groups=2,
                         pads_l=1, pads_r=1)
    want = ref.astype(np.float32).astype(want_dt)                      # one rounding, to nearest even
    assert np.array_equal(got.astype(np.float64), want.astype(np.float64)), f"seed {BF16_SEED}"


@pytest.mark.parametrize("files", ["native", "float32"])
def test_reorder_runs_on_bf16_npy_files(files, tmp_path):
    import ml_dtypes

    rng = np.random.default_rng(BF16_SEED)
    src, dst = MemoryDesc((2, 17, 3, 3), "bf16", "nchw"), MemoryDesc((2, 17, 3, 3), "bf16", "nChw16c")
    x, x32, _ = _ints_scaled(rng, src.dims, -256, 256, 2.0**-12)       # integers bf16 holds exactly
    x = x.astype(ml_dtypes.bfloat16)
    f32_buf = MemoryDesc(src.dims, "f32", "nchw").to_physical(x32)      # values bf16 does not hold
    np.save(tmp_path / "in.npy", src.to_physical(x) if files == "native" else f32_buf)
    r = kgen("reorder", "--sdt=bf16", "--ddt=bf16", "--stag=nchw", "--dtag=nChw16c", f"--input={tmp_path / 'in.npy'}",
             f"--output={tmp_path / 'out.npy'}", "2x17x3x3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "seed" not in r.stdout
    assert ("rounded to bf16 (to nearest even): " in r.stderr) == (files == "float32"), r.stderr
    assert " 0 of " not in r.stderr
    y = np.load(tmp_path / "out.npy")
    assert y.dtype.str == "|V2" and y.shape == (dst.buffer_nelems,)
    y = y.view(ml_dtypes.bfloat16)
    assert np.array_equal(dst.from_physical(y).astype(np.float64), x.astype(np.float64)), f"seed {BF16_SEED}"
    assert not y.astype(np.float32)[dst.padding_mask()].any()


def test_reorder_input_takes_per_dimension_scales_from_files(tmp_path):
    """--input computes with the user's values only: per-channel scales from --scales-src=F.npy; without
    them, one line naming the option (never generated values)."""
    src = MemoryDesc((2, 5, 3, 2), "f32", "nchw")
    x = np.arange(src.nelems, dtype=np.float32).reshape(src.dims) - 30
    np.save(tmp_path / "in.npy", src.to_physical(x))
    scales = np.array([0.5, 1, 2, 4, 0.25], np.float32)
    np.save(tmp_path / "s.npy", scales)
    args = ["reorder", "--sdt=f32", "--ddt=s8", "--attr-scales=src:per_dim_1", "--attr-zero-points=dst:common:3",
            f"--input={tmp_path / 'in.npy'}", f"--output={tmp_path / 'out.npy'}"]
    r = kgen(*args, "2x5x3x2")
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "kgen: error: --input: the src scale (per_dim_1) has no values: give them in --scales-src=F.npy (5 numbers)"], r.stderr
    r = kgen(*args, f"--scales-src={tmp_path / 's.npy'}", "2x5x3x2")
    assert r.returncode == 0, r.stdout + r.stderr
    want = np.clip(np.rint(x * scales.reshape(1, 5, 1, 1) + 3), -128, 127)
    assert np.array_equal(np.load(tmp_path / "out.npy").reshape(src.dims), want)
    r = kgen("reorder", f"--scales-src={tmp_path / 's.npy'}", "2x5x3x2")
    assert r.returncode == 2 and "this reorder has no src scale (it takes: none)" in r.stderr
