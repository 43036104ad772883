"""The benchmark and tuning commands run end to end (timings are reported, never asserted)."""
import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from generator.api import ConvKernel
from generator.bench import conv as bench_conv, torch_baseline
from generator.bench.conv import RESNET50_LAYERS, bench_convs, summary, to_json
from generator.select.candidates import layout_tag, plan_candidates
from generator.bench.reorder import bench_reorders, format_table
from generator.bench.tune import format_choices, tune
from generator.compile import get_backend
from generator.compile.host import MATRIX_FEATURES, host_matrix_features
from generator.select import Choice, choose, table as tuned
from generator.errors import ArtifactError
from generator.benchdnn.conv import conv_problem, parse_conv_args, parse_conv_desc
from generator.problem.conv import ConvProblem
from generator.runtime import timing


def test_bench_reorder_runs_and_reports_every_candidate():
    rows = bench_reorders([((1, 17, 4, 4), "nchw", "nChw16c"), ((1, 16, 4, 4), "nChw16c", "nchw")], rounds=1,
                          log=lambda m: None)
    cands = {r.candidate for r in rows}
    assert {"kgen", "numpy copy"} <= cands
    assert all(r.seconds > 0 and r.gbps > 0 for r in rows)
    table = format_table(rows)
    assert "1x17x4x4 nchw->nChw16c" in table and "kgen/copy" in table


def test_bench_reorder_takes_bf16_and_s8_with_a_torch_column():
    """--dt: bf16 reaches PyTorch as 16-bit integers (torch.from_numpy has no ml_dtypes bfloat16)."""
    pytest.importorskip("torch")
    for dt in ("bf16", "s8"):
        rows = bench_reorders([((1, 17, 4, 4), "nchw", "nChw16c"), ((1, 16, 3, 5), "nchw", "nhwc")], dtype=dt,
                              rounds=1, log=lambda m: None)
        assert {(r.problem.split()[0], r.candidate) for r in rows} >= {
            ("1x17x4x4", "torch"), ("1x16x3x5", "torch"), ("1x17x4x4", "kgen")}, dt
        assert not any(r.wrong for r in rows)


def test_bench_reorder_reports_a_wrong_kernel_and_does_not_time_it(monkeypatch):
    from generator.bench import reorder as bench_reorder

    class OneByteOff:
        """The real kernel, but its result has one byte changed."""
        def __init__(self, k):
            self._k = k

        def __getattr__(self, name):
            return getattr(self._k, name)

        def __call__(self, buf, **kw):
            out = np.array(self._k(buf, **kw))
            out.reshape(-1).view(np.uint8)[5] ^= 1
            return out

    real = bench_reorder.ReorderKernel
    monkeypatch.setattr(bench_reorder, "ReorderKernel", lambda *a, **kw: OneByteOff(real(*a, **kw)))
    logged = []
    rows = bench_reorders([((1, 17, 4, 4), "nchw", "nChw16c")], rounds=1, log=logged.append)
    bad = [r for r in rows if r.candidate.startswith("kgen")]
    assert bad and all(r.wrong for r in bad) and all(np.isnan(r.seconds) for r in bad)
    assert any("kgen: WRONG" in m for m in logged)
    assert {r.candidate for r in rows} - {r.candidate for r in bad} == {"numpy copy", "torch"}
    line = format_table(rows).splitlines()[1]
    assert "wrong" in line and line.split()[-3:-1] == ["-", "-"]


def test_bench_reorder_takes_benchdnn_problems(capsys):
    """`kgen bench reorder [benchdnn reorder options] DIMS`: the user's problems, a conversion with a
    scale among them; --dt belongs to the default problems only."""
    from generator.cli.main import main

    rc = main(["bench", "reorder", "--rounds=1", "--sdt=f32", "--ddt=s8", "--attr-scales=dst:common:0.5",
               "--stag=nchw", "--dtag=nhwc", "1x19x5x7", "--sdt=u8", "--ddt=u8", "--stag=nhwc", "--dtag=nchw",
               "2x33x4x9"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "1x19x5x7 f32:abcd->s8:acdb" in out and "2x33x4x9 acdb->abcd" in out
    assert main(["bench", "reorder", "--dt=bf16", "2x16x3x3"]) == 2          # a usage error, as argparse gives
    assert "--dt chooses the data type of the default problems" in capsys.readouterr().err


# ------------------------------------------------------------------------------------ kgen bench conv


def _problem(line: str) -> ConvProblem:
    (case,) = parse_conv_args(line.split())
    return conv_problem(case)


def test_bench_conv_default_problems_are_the_issue_layers():
    assert len(RESNET50_LAYERS) == 8
    assert {str(parse_conv_desc(t)) for t in RESNET50_LAYERS} >= {"mb1ic3ih224oc64oh112kh7sh2ph3"}


def test_bench_conv_candidates_cover_variants_layouts_flags():
    p = _problem("mb1ic8ih6oc8oh6kh1ph0")
    b = get_backend("llvm-cpu")
    cands = plan_candidates(p, b, ["direct", "winograd_f4"], ["nchw", "nChw16c"], ["default", "dt"])
    assert len(cands) == 8
    assert all(c.status.startswith("n/a: Winograd") for c in cands if c.variant == "winograd_f4")
    ok = [c for c in cands if c.status == "ok"]
    assert {(c.layout, c.flags) for c in ok} == {(l, f) for l in ("nchw", "nChw16c") for f in ("default", "dt")}
    assert all(c.problem.src.tag == c.problem.dst.tag for c in ok)
    assert {c.problem.src.is_blocked for c in ok if c.layout == "nChw16c"} == {True}
    assert layout_tag("nChw16c", 5) == "nCdhw16c" and layout_tag("NCHW4", 3) == "aBc4b"


def test_bench_conv_runs_checks_and_reports(kgen_cache_dir):
    # two variants x two layouts of a small problem: every candidate is checked, then timed
    (case,) = parse_conv_args(["mb1ic4ih6oc5oh6kh3ph1"])
    # brgemm where the CPU has AVX-512 (what --alg=auto takes there), else im2col
    other = "brgemm" if "avx512f" in host_matrix_features() else "im2col"
    results, ceiling = bench_convs([case], "llvm-cpu", variants=["direct", other], layouts=["nchw", "nChw16c"],
                                   flag_sets=["default"], rounds=1, log=lambda m: None)
    (r,) = results
    assert ceiling.matmul_gflops > 0 and ceiling.copy_gbps > 0
    # 2 variants x 2 layouts x 3 drivers; host-threads cuts one nchw image on its 5 output channels,
    # not nChw16c's one block of them
    assert len(r.candidates) == 12
    assert [c.status for c in r.candidates if c.driver != "host-threads" or c.layout == "nchw"] == ["ok"] * 10
    assert all(c.status.startswith("n/a: one slab of 16") for c in r.candidates
               if c.driver == "host-threads" and c.layout == "nChw16c")
    assert {c.driver for c in r.candidates} == {None, "local-sync", "host-threads"}  # None: local-task
    assert all(c.seconds > 0 for c in r.candidates if c.status == "ok")
    # direct / nchw is kgen's blocked path for an ungrouped 2D conv on llvm-cpu (plain_blocks), not
    # IREE's named conv: no "IREE default" figure then
    assert r.iree_default is None and not r.iree_own_nchw and r.best is not None
    table = bench_conv.format_table(results, all_candidates=True)
    assert "mb1ic4ih6oc5oh6kh3ph1" in table and f"{other}/nChw16c/default" in table
    assert f"{other}/nChw16c/default@local-sync" in table
    doc = json.loads(json.dumps(to_json(results, ceiling, "llvm-cpu")))
    assert doc["problems"][0]["best"] == r.best.label
    assert doc["cpu_model"] and set(doc["cpu_features"]) <= set(MATRIX_FEATURES)
    assert "device" not in doc                 # the host CPU ran them; a GPU backend names its device
    from generator.compile.backends import device_available
    assert bench_conv.to_json([], ceiling, "vulkan")["device"] == device_available("vulkan")[1]
    assert set(summary(results)) == {"kgen_vs_torch_geomean", "kgen_vs_torch_worst",
                                     "auto_vs_torch_geomean", "auto_vs_torch_worst", "auto_layers",
                                     "iree_default_vs_torch_geomean", "iree_default_vs_torch_worst"}
    # what --alg=auto runs: the heuristic's brgemm (AVX-512; else direct: not 1x1), on one thread for so
    # small a problem
    want = "brgemm" if other == "brgemm" else "direct"
    assert (r.auto.variant, r.auto.flags, r.auto.driver, r.auto_source) == (want, "default", "local-sync",
                                                                          "heuristic")
    assert r.auto.seconds > 0 and doc["problems"][0]["auto"] == r.auto.label and " auto " in table.splitlines()[0]


def test_cpu_description_names_the_matrix_features(monkeypatch):
    from generator.compile import host
    monkeypatch.setattr(host, "host_cpu_flags", lambda: frozenset("fpu avx2 avx512f amx_int8 avx512_vnni".split()))
    assert host.host_matrix_features() == ("avx2", "avx512f", "avx512_vnni", "amx_int8")
    assert host.host_cpu_description().endswith("avx2 avx512f avx512_vnni amx_int8")


def test_cpu_model_names_the_family_and_model():
    """A VM names a Zen 4 and a Zen 5 alike ("AMD EPYC"): the family and model numbers tell them apart."""
    from generator.compile import host
    text = "processor : 0\nvendor_id : AuthenticAMD\ncpu family : 26\nmodel : 2\nmodel name : AMD EPYC\n"

    def model(text):
        return host.cpu_model_name(host.parse_cpuinfo(text.splitlines()))
    assert model(text) == "AMD EPYC (family 26, model 2)"
    assert model("model name : Neoverse\n") == "Neoverse"
    # the host's own, read once for the flags, the model and the fingerprint
    if os.path.exists("/proc/cpuinfo"):
        assert host.host_cpu_model() == model(open("/proc/cpuinfo").read())


QUANT_LINE = ("--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
              "--attr-zero-points=src:common:3+dst:common:5 --attr-post-ops=relu mb1ic8ih6oc16oh6kh3ph1")


def test_bench_conv_times_quantized_kernels_with_their_attributes(kgen_cache_dir):
    # the scales, zero points and post-op inputs are bound like the source: every candidate runs
    (case,) = parse_conv_args(QUANT_LINE.split())
    results, _ = bench_convs([case], "llvm-cpu", variants=["direct", "im2col"], layouts=["nhwc"],
                             flag_sets=["default"], drivers=["local-sync"], rounds=1, log=lambda m: None)
    (r,) = results
    assert r.dt == "u8" and [c.status for c in r.candidates] == ["ok", "ok"]
    assert all(c.seconds > 0 for c in r.candidates)


# benchdnn's right padding is what the output size leaves: a stem-like ph3 with right 2 and a stride-2
# 1x1 with right -1 are PyTorch's symmetric padding 3 and 0; a right padding that changes the output count is not
@pytest.mark.parametrize("line, want", [
    ("mb1ic3ih224oc64oh112kh7sh2ph3", [3, 3]), ("mb1ic256ih56oc512oh28kh1sh2ph0", [0, 0]),
    ("mb1ic4ih6oc4oh8kh3ph2", [2, 2]), ("mb1ic4ih6oc4oh7kh3ph2", None)])
def test_torch_padding_is_symmetric_where_it_computes_the_same_outputs(line, want):
    assert torch_baseline.torch_padding(_problem(line)) == want


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("line", [QUANT_LINE, QUANT_LINE.replace("mb1ic8ih6oc16oh6kh3ph1", "mb1ic3ih16oc16oh8kh7sh2ph3")])
def test_bench_torch_int8_column_computes_the_same_convolution(line, kgen_cache_dir):
    # the PyTorch int8 column is torch.ao's quantized conv on the same problem: same values out (also
    # where benchdnn's right padding is smaller than the left: torch's symmetric padding reads no more)
    torch = pytest.importorskip("torch")
    from generator.verify import conv_call
    import numpy as np
    p = _problem(line)
    call = conv_call(p)
    fns = torch_baseline.torch_fns(torch, p, call.x, call.w, call.bias, call.quant)
    assert set(fns) == {"nchw", "channels_last"}
    want = fns["channels_last"]().int_repr().numpy().astype(np.int32)
    k = ConvKernel(p)
    k.prepare(call.wei)
    got = p.dst.from_physical(k(call.src, call.bias, **call.attrs)).astype(np.int32)
    assert np.abs(got - want).max() <= 1
    # no PyTorch counterpart: a weight zero point, an s8 destination
    for line in ("--dt=u8:s8:u8 --attr-zero-points=wei:common:1:s8 mb1ic8ih6oc16oh6kh3ph1",
                 "--dt=u8:s8:s8 mb1ic8ih6oc16oh6kh3ph1"):
        q = _problem(line)
        qc = conv_call(q)
        assert torch_baseline.torch_fns(torch, q, qc.x, qc.w, qc.bias, qc.quant) == {}


@pytest.mark.parametrize("args, message", [
    (["--flags=fast"], "unknown flag set 'fast'"),
    (["--alg=direct,bogus"], "unknown variant 'bogus'"),
    (["--rounds=0"], "--rounds and --jobs must be at least 1"),
    (["--drivers=vulkan"], "driver 'vulkan' cannot run llvm-cpu modules"),
    (["mb1ic4ih6oc5xx3"], "bad conv descriptor"),
])
def test_bench_conv_bad_arguments(args, message, kgen_cache_dir):
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "bench", "conv", *args, "ic4ih6oc5kh3ph1"]
                       if args[0].startswith("--") else [sys.executable, "-m", "generator.cli.main", "bench", "conv",
                                                          *args], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


# ------------------------------------------------------------------------------------ kgen tune / --alg=auto


def test_tune_stores_the_fastest_and_auto_uses_it(tmp_path, monkeypatch, kgen_cache_dir):
    table = tmp_path / "tuned.json"
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(table))
    (case,) = parse_conv_args(["--stag=nhwc", "--dtag=nhwc", "mb1ic4ih6oc5oh6kh3ph1"])
    rows, path = tune([case], "llvm-cpu", variants=["direct", "im2col"], flag_sets=["default"], rounds=1,
                      log=lambda m: None)
    assert path == table
    (p, r), = rows
    best = r.best
    assert best.layout == "as given" and {c.variant for c in r.timed} == {"direct", "im2col"}
    entry = tuned.load()[tuned.problem_key(p, "llvm-cpu")]
    assert (entry["variant"], entry["flags"], entry["driver"]) == (best.variant, "default", best.driver)
    # each kernel timed on every driver: nhwc rows are cut for host threads
    assert {c.driver for c in r.timed} == {None, "local-sync", "host-threads"}
    assert "direct/default" in format_choices(rows) or "im2col/default" in format_choices(rows)
    # --alg=auto now follows the table, for this backend only
    auto = dataclasses.replace(p, alg="auto")
    assert choose(auto, "llvm-cpu") == tuned.Choice(best.variant, "default", "tuned", entry["seconds"], best.driver)
    assert choose(auto, "vulkan").source == "heuristic"
    # a planted entry (im2col with data tiling on local-sync) is what a kernel for the problem compiles
    key = tuned.problem_key(p, "llvm-cpu")
    tuned.store({key: {"variant": "im2col", "flags": "dt", "driver": "local-sync", "seconds": 1.0}})
    k = ConvKernel(auto, "llvm-cpu")
    assert (k.problem.alg, k.flags, k.choice.source, k.driver) == ("im2col", "dt", "tuned", "local-sync")
    assert "--iree-opt-data-tiling" in k.artifact.flags
    tuned.store({key: {"variant": "direct", "flags": "default", "seconds": 1.0}})    # a table from before drivers
    assert ConvKernel(auto, "llvm-cpu").driver == "local-task"


def test_tune_keeps_each_candidates_better_pass(tmp_path, monkeypatch, kgen_cache_dir):
    # kgen tune times the round-robin twice and each candidate keeps its better median: a window where
    # one candidate ran slow (here host-threads, 9 s in the first pass) does not decide the stored choice
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    passes = []

    def fake_median_times(fns, rounds, min_batch_s=0.02, after_round=None):
        first = not passes
        passes.append(sorted(fns))
        return {k: (9.0 if first and k.endswith("@host-threads") else 2.0 if first else
                    1.0 if k.endswith("@host-threads") else 3.0) for k in fns}

    monkeypatch.setattr(bench_conv, "median_times", fake_median_times)
    (case,) = parse_conv_args(["--stag=nhwc", "--dtag=nhwc", "mb1ic4ih6oc5oh6kh3ph1"])
    rows, _ = tune([case], "llvm-cpu", variants=["direct"], flag_sets=["default"], rounds=1, log=lambda m: None)
    assert len(passes) == 2 and passes[0] == passes[1]
    (p, r), = rows
    assert r.best.driver == "host-threads" and r.best.seconds == 1.0
    assert {c.seconds for c in r.timed if c.driver != "host-threads"} == {2.0}
    assert tuned.load()[tuned.problem_key(p, "llvm-cpu")]["driver"] == "host-threads"


def test_tune_times_close_calls_again_after_every_problem(tmp_path, monkeypatch, kgen_cache_dir):
    # a slow window can last through both passes of one problem (GoogLeNet's 5x5 layer once stored
    # local-sync at 0.56x PyTorch so): candidates within CLOSE_CALL of the fastest are timed again once
    # every problem has been measured, each keeping its better median; a clear winner is not re-timed
    from generator.bench import tune as bench_tune
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    calls = []

    def fake_median_times(fns, rounds, min_batch_s=0.02, after_round=None):
        calls.append(sorted(fns))
        if len(calls) <= 4:           # two problems x two passes: host threads as slow as one thread
            return {k: 2.0 if k.endswith(("@host-threads", "@local-sync")) else 3.0 for k in fns}
        return {k: 1.0 if k.endswith("@host-threads") else 2.5 for k in fns}

    monkeypatch.setattr(bench_conv, "median_times", fake_median_times)
    monkeypatch.setattr(bench_tune, "median_times", fake_median_times)
    cases = [case for line in ("mb1ic4ih6oc5oh6kh3ph1", "mb1ic4ih7oc5oh7kh3ph1")
             for case in parse_conv_args(["--stag=nhwc", "--dtag=nhwc", line])]
    log = []
    rows, _ = tune(cases, "llvm-cpu", variants=["direct"], flag_sets=["default"], rounds=1, log=log.append)
    assert len(calls) == 6
    # the re-timing comes after both problems' passes, and holds only their close calls
    assert all(len(c) == 3 for c in calls[:4])
    assert [[k.rsplit("@", 1)[1] for k in c] for c in calls[4:]] == [["host-threads", "local-sync"]] * 2
    assert any(m.startswith("re-timing 2 close calls") for m in log)
    for p, r in rows:
        assert (r.best.driver, r.best.seconds) == ("host-threads", 1.0)
        seconds = {c.driver: c.seconds for c in r.timed}
        assert seconds == {"host-threads": 1.0, "local-sync": 2.0, None: 3.0}     # each its better median
        assert tuned.load()[tuned.problem_key(p, "llvm-cpu")]["driver"] == "host-threads"


def test_tuned_table_errors_are_one_line(tmp_path, monkeypatch):
    table = tmp_path / "tuned.json"
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(table))
    p = _problem("--alg=auto mb1ic4ih6oc5oh6kh3ph1")
    assert choose(p, "llvm-cpu").source == "heuristic"          # no table: the heuristic
    table.write_text("{not json")
    with pytest.raises(ArtifactError, match="unreadable"):
        choose(p, "llvm-cpu")
    table.write_text('{"version": 99, "entries": {}}')
    with pytest.raises(ArtifactError, match="unknown format"):
        choose(p, "llvm-cpu")


@pytest.mark.parametrize("line, feature, want", [
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "avx512_vnni", ("brgemm", "default")),
    ("--dt=u8:s8:u8 mb1ic16ih6oc24oh6kh3ph1", "avx512_vnni", ("brgemm", "default")),                   # NCHW
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", None, ("direct", "default")),
    # groups of fewer than 16 output channels (12, 4, 1; README: 1.3-50x direct and im2col); depthwise on
    # its own FMA kernel (every type widened to f32: AVX-512 is enough)
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb g2mb1ic16ih6oc24oh6kh3ph1", "avx512_vnni", ("brgemm", "default")),
    ("--dt=f32 --stag=axb --dtag=axb g8mb1ic32ih6oc32oh6kh3ph1", None, ("brgemm", "default")),
    ("--dt=f32 g8mb1ic32ih6oc8oh6kh3ph1", None, ("brgemm", "default")),
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb g2mb1ic16ih6oc32oh6kh3ph1", "avx512_vnni", ("brgemm", "default")),
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", "avx512_vnni", ("brgemm", "default")),
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", None, ("brgemm", "default")),
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", "-avx512f", ("direct", "default")),
    ("--dt=u8:s8:u8 --stag=axb --dtag=axb mb1ic16id4oc24kd3pd1", "avx512_vnni", ("brgemm", "default")),   # 3D
    ("--dt=s8:s8:u8 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh1ph0", "avx512_vnni", ("brgemm", "default")),
    ("--dt=s8:s8:u8 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh1ph0", None, ("im2col", "default")),
    # bf16 on avx512_bf16 (VNNI alone does not run it); f32 and f16 on AVX-512, else the layout heuristic
    ("--dt=bf16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "avx512_bf16", ("brgemm", "default")),
    ("--dt=bf16:bf16:f32 mb1ic16iw6oc24ow6kw3pw1", "avx512_bf16", ("brgemm", "default")),
    # ... on an AVX-512 CPU without it, widened to f32 on FMAs (brgemm_fma); also where its vdpbf16ps is
    # slow (an Intel core: Backend.bf16_dot_slow), except depthwise and small groups (brgemm's own kernels)
    ("--dt=bf16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "avx512_vnni", ("brgemm_fma", "default")),
    ("--dt=bf16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "-avx512f", (None, "default")),
    ("--dt=bf16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "slow avx512_bf16", ("brgemm_fma", "default")),
    ("--dt=bf16:bf16:f32 --stag=nChw16c --dtag=nChw16c mb1ic16ih6oc24oh6kh1ph0", "slow avx512_bf16",
     ("brgemm_fma", "default")),
    ("--dt=bf16 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", "slow avx512_bf16", ("brgemm", "default")),
    ("--dt=f16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh1ph0", "slow avx512_bf16", ("brgemm", "default")),
    ("--dt=f32 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh3ph1", "avx512_bf16", ("brgemm", "default")),
    ("--dt=f32 mb1ic16ih6oc24oh6kh1ph0", "-avx512f", (None, "default")),                 # AVX2 only
    ("--dt=f32 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", None, ("brgemm", "default")),  # depthwise
    ("--dt=f32 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", "-avx512f", (None, "default")),
    # f16 runs the f32 microkernel on widened operands: AVX-512 is enough
    ("--dt=f16 --stag=axb --dtag=axb mb1ic16ih6oc24oh6kh1ph0", None, ("brgemm", "default")),
    ("--dt=f16:f16:f32 mb1ic16iw6oc24ow6kw3pw1", None, ("brgemm", "default")),
    ("--dt=f16 --stag=axb --dtag=axb g16mb1ic16ih6oc16oh6kh3ph1", None, ("brgemm", "default")),
])
def test_heuristic_takes_microkernels_only_where_the_cpu_has_them(line, feature, want, tmp_path, monkeypatch):
    import dataclasses

    from generator.compile import backends
    from generator.select import heuristic_variant, rule_choice
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "none.json"))
    slow = bool(feature) and feature.startswith("slow ")
    feature = feature.removeprefix("slow ") if feature else feature
    flags = ({"avx2"} if feature == "-avx512f" else {"avx2", "avx512f"} | ({feature} if feature else set()))
    monkeypatch.setitem(backends.BACKENDS, "llvm-cpu", dataclasses.replace(
        backends.BACKENDS["llvm-cpu"], cpu_features=frozenset(flags), bf16_dot_slow=slow))
    p = _problem("--alg=auto " + line)
    c = rule_choice(p, "llvm-cpu")          # the rule: the cost model may then take Winograd for floats
    variant = want[0] or heuristic_variant(p)            # None: whatever the layout heuristic picks
    assert (c.variant, c.flags, c.source) == (variant, want[1], "heuristic")
    assert choose(p, "llvm-cpu").source == "heuristic"
    assert choose(_problem("--alg=auto " + line), "vulkan").flags == "default"


@pytest.mark.parametrize("vendor, slow", [("GenuineIntel", True), ("AuthenticAMD", False), (None, False)])
def test_bf16_dot_product_counts_as_slow_on_intel_cores(vendor, slow, monkeypatch):
    from generator.compile import host
    monkeypatch.setattr(host, "host_cpuinfo", lambda: {"vendor_id": vendor} if vendor else {})
    assert host.host_bf16_dot_slow() is slow


@pytest.mark.skipif("avx512_vnni" not in host_matrix_features(), reason="this CPU has no AVX-512 VNNI: the heuristic keeps the default flags")
def test_auto_runs_the_vnni_choice(tmp_path, monkeypatch, kgen_cache_dir):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "none.json"))
    p = _problem("--alg=auto --dt=u8:s8:u8 --stag=axb --dtag=axb --attr-scales=src:common:0.5+dst:common:2 "
                 "--attr-zero-points=src:common:2 mb1ic24ih7oc40oh7kh3ph1")
    k = ConvKernel(p)
    assert (k.problem.alg, k.flags) == ("brgemm", "default")
    from generator.verify import check_conv
    assert check_conv(k, k.problem) is None


# ------------------------------------------------------------------------------------ fast calls


@pytest.mark.parametrize("driver", ["local-task", "local-sync"])
def test_bound_conv_and_reorder_match_the_plain_calls(driver, kgen_cache_dir):
    import numpy as np

    from generator.api import conv, reorder
    from generator.layout import MemoryDesc

    k = conv("--stag=nhwc --dtag=nhwc mb1ic5ih6oc7oh6kh3ph1", driver=driver)
    assert k.driver == driver
    p = k.problem
    rng = np.random.default_rng(7)
    x = p.src.to_physical(rng.integers(-3, 4, p.desc.src_dims).astype(np.float32))
    k.prepare(p.wei.to_physical(rng.integers(-3, 4, p.wei.dims).astype(np.float32)))
    bias = rng.integers(-3, 4, p.desc.oc).astype(np.float32)
    call = k.bind(x, bias)
    call()
    call()
    assert np.array_equal(call.numpy()[0], k(x, bias))

    s, d = MemoryDesc((1, 17, 3, 5), "f32", "nchw"), MemoryDesc((1, 17, 3, 5), "f32", "nChw16c")
    r = reorder(s, d, driver=driver)
    buf = np.arange(s.buffer_nelems, dtype=np.float32)
    rc = r.bind(buf)
    rc()
    assert np.array_equal(rc.numpy()[0], r.reference(buf)) and np.array_equal(r(buf), r.reference(buf))


def test_reorders_default_to_the_memory_bound_driver(monkeypatch, kgen_cache_dir):
    from generator.api import conv, reorder
    from generator.layout import MemoryDesc

    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    s, d = MemoryDesc((1, 16, 2, 2), "f32", "nchw"), MemoryDesc((1, 16, 2, 2), "f32", "nhwc")
    assert reorder(s, d).driver == "local-sync"        # Backend.memory_bound_driver
    assert conv("mb1ic4ih4oc4oh4kh1ph0").driver == "local-task"


def test_reorder_forms(monkeypatch, kgen_cache_dir):
    import numpy as np

    from generator.api import reorder
    from generator.errors import InputError, UnsupportedError
    from generator.layout import MemoryDesc

    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    s, d = MemoryDesc((2, 17, 3, 5), "f32", "nChw16c"), MemoryDesc((2, 17, 3, 5), "f32", "nchw")
    buf = s.to_physical(np.arange(2 * 17 * 15, dtype=np.float32).reshape(2, 17, 3, 5))
    plain = reorder(s, d)                               # llvm-cpu's measured form and driver
    assert plain.form == "shuffle" and "linalg.unpack" not in plain.mlir       # a partial last block
    assert "--iree-llvmcpu-disable-distribution" in plain.artifact.flags
    packed = reorder(s, d, form="pack", driver="local-task")
    assert packed.form == "pack" and "linalg.unpack" in packed.mlir
    assert "--iree-llvmcpu-disable-distribution" not in packed.artifact.flags   # two threads share it
    assert np.array_equal(plain(buf), packed(buf)) and np.array_equal(plain(buf), plain.reference(buf))
    with pytest.raises(InputError, match="unknown reorder form 'blocked'"):
        reorder(s, d, form="blocked")
    with pytest.raises(UnsupportedError, match="vulkan: linalg.pack/unpack do not compile"):
        reorder(s, d, "vulkan", form="pack")


def test_bench_reorder_shows_both_forms(kgen_cache_dir):
    from generator.bench.reorder import bench_reorders, format_table

    rows = bench_reorders([((1, 17, 4, 4), "nchw", "nChw16c")], rounds=1, log=lambda m: None)
    assert {r.candidate for r in rows} >= {"kgen", "kgen pack", "kgen transpose", "numpy copy"}
    assert "kgen pack GB/s" in format_table(rows).splitlines()[0]


def test_tune_reorder_stores_a_checked_form_and_reorders_use_it(tmp_path, monkeypatch, kgen_cache_dir):
    import numpy as np

    from generator.api import reorder
    from generator.bench.tune import format_reorder_choices, tune_reorders
    from generator.layout import MemoryDesc
    from generator.problem.reorder import ReorderProblem

    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    s, d = MemoryDesc((2, 17, 5, 4), "f32", "nchw"), MemoryDesc((2, 17, 5, 4), "s8", "nChw16c")
    rows, path = tune_reorders([ReorderProblem(s, d)], rounds=1, log=lambda m: None)
    (row,) = rows
    # each form on one thread and, the images being cut into one part per core, on host threads
    assert row["status"] == {"pack": "ok", "transpose": "ok", "pack@host-threads": "ok",
                             "transpose@host-threads": "ok"}
    assert "GB/s / copy" in format_reorder_choices(rows)
    chosen_form, _, chosen_driver = row["chosen"].partition("@")
    k = reorder(s, d)
    assert (k.form, k.driver) == (chosen_form, chosen_driver or "local-sync")
    # the table decides the default form and driver; a form or driver given explicitly still wins;
    # results are the same
    other = {"pack": "transpose", "transpose": "pack"}[chosen_form]
    entries = tuned.load(path)
    (key,) = entries
    assert entries[key]["driver"] == (chosen_driver or "local-sync")
    tuned.store({key: {"form": other, "seconds": 1.0}}, path)         # an older entry: no driver
    k = reorder(s, d)
    assert k.form == other and k.driver == "local-sync" and reorder(s, d, form=chosen_form).form == chosen_form
    tuned.store({key: {"form": other, "driver": "host-threads", "seconds": 1.0}}, path)
    assert reorder(s, d).driver == "host-threads" and reorder(s, d, driver="local-sync").driver == "local-sync"
    from generator.api import build_reorders                  # `kgen reorder`'s batch compile too
    (kb,) = build_reorders([[ReorderProblem(s, d)]])
    assert kb.form == other and f"linalg.{other} " in kb.mlir
    x = np.arange(s.buffer_nelems, dtype=np.float32) % 50 - 25
    assert np.array_equal(k(x), reorder(s, d, form=chosen_form)(x))
    assert np.array_equal(k(x), reorder(s, d)(x))


def test_kgen_tune_reorder_cli(tmp_path, kgen_cache_dir):
    import os
    env = dict(os.environ, KGEN_TUNED_TABLE=str(tmp_path / "t.json"))
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "tune", "reorder", "--rounds=1", "--sdt=s8",
                        "--ddt=f32", "--attr-scales=src:common:0.5", "--stag=nchw", "--dtag=nhwc", "2x3x4x5"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "reorder_2x3x4x5__s8_abcd__to_f32_acdb__srcscale_common" in r.stdout
    # plain -> plain: both forms emit one transpose, measured once (the other form's column says so)
    assert "= pack" in r.stdout and "transpose us" in r.stdout
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "tune", "reorder", "--stag=bogus", "2x3"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_bind_before_prepare_is_an_input_error(kgen_cache_dir):
    import numpy as np

    from generator.api import conv
    from generator.errors import InputError

    k = conv("mb1ic4ih4oc4oh4kh1ph0")
    with pytest.raises(InputError, match="prepare"):
        k.bind(np.zeros(k.problem.src.buffer_nelems, np.float32))


def test_bench_call_reports_every_path(kgen_cache_dir):
    from generator.bench.calls import bench_calls, format_table as call_table

    rows = bench_calls(rounds=1, log=lambda m: None)
    paths = [r.path for r in rows]
    for drv in ("local-task", "local-sync"):
        assert f"kernel.bind(x)(): pre-bound, {drv}" in paths
        assert f"kernel(x): NumPy in and out, {drv}" in paths
    assert any(p.startswith("host-threads hand-off (") for p in paths)
    assert all(r.seconds > 0 for r in rows)
    assert "us/call" in call_table(rows)


@pytest.mark.parametrize("line, threads, want", [
    ("--dt=u8:s8:u8 mb1ic16ih6oc24oh6kh3ph1", "2", "local-sync"),                  # ~0.4 MOP: the hand-off dominates
    # one image read in nchw, written in nhwc: host-threads cuts its output channels where they make
    # even slabs of 64 or more (512: two of 256), else local-task takes every core, or one thread
    ("--dt=u8:s8:u8 --stag=nchw --dtag=nhwc mb1ic256ih56oc512oh56kh3ph1", "2", "host-threads"),  # ~0.5 s
    ("--dt=f32 --stag=nchw --dtag=nhwc mb1ic64ih56oc64oh56kh3ph1", "2", None),         # 231 MFLOP f32, ~2 ms
    ("--dt=f32 --stag=nchw --dtag=nhwc mb1ic64ih56oc64oh56kh1ph0", "2", "local-sync"),  # 26 MFLOP f32, ~0.23 ms
    ("--dt=f32 mb1ic64ih56oc64oh56kh3ph1", "1", "local-sync"),                    # one thread: never hand off
    # ungrouped nchw, one image: cut on output channels
    ("--dt=f32 mb1ic64ih56oc64oh56kh3ph1", "2", "host-threads"),
    ("--dt=f32 mb1ic64ih56oc64oh56kh1ph0", "2", "host-threads"),                  # 26 MFLOP f32, ~0.23 ms
    # depthwise at its kernel's rate (DEPTHWISE_BRGEMM_ONE_THREAD_RATE; test_the_depthwise_driver_...):
    # 2 MOP is ~15 us on brgemm, 8 MOP ~60 us
    ("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc g576mb1ic576ih14oc576oh14kh3ph1", "2", "local-sync"),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c g144mb1ic144ih56oc144oh28kh3sh2ph1", "2", "local-sync"),
    ("--dt=f32 --stag=nChw16c --dtag=nChw16c g144mb1ic144ih56oc144oh56kh3ph1", "2", "host-threads"),
    ("--dt=f32 --stag=nhwc --dtag=nhwc g32mb1ic32ih4oc32oh4kh3ph1", "2", "local-sync"),    # 9 KFLOP
])
def test_heuristic_driver_skips_the_hand_off_on_small_problems(line, threads, want, tmp_path, monkeypatch):
    from generator.select import heuristic_driver
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "none.json"))
    monkeypatch.setenv("KGEN_CPU_THREADS", threads)
    p = _problem("--alg=auto " + line)
    c = choose(p, "llvm-cpu")
    assert heuristic_driver(p, "llvm-cpu", c.variant) == want and c.driver == want
    assert heuristic_driver(p, "vulkan") is None                                  # one driver there
    monkeypatch.setenv("KGEN_CPU_DRIVER", "local-task")                          # the user's choice wins
    assert heuristic_driver(p, "llvm-cpu") is None and ConvKernel(p).driver == "local-task"


def test_the_depthwise_driver_follows_the_kernel_that_runs(tmp_path, monkeypatch):
    """A depthwise conv is estimated at its kernel's one-thread rate: MobileNetV2's last 7x7 layer (0.85
    MOP) is ~28 us on direct, worth a second core, and ~7 us on brgemm's FMA kernel, which runs it on
    the calling thread (Zen 5, u8: 98 against 27 GOP/s on host threads)."""
    from generator.compile import backends
    from generator.select import heuristic_driver
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "none.json"))
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    p = _problem("--alg=auto --dt=u8:s8:u8 --stag=nhwc --dtag=nhwc g960mb1ic960ih7oc960oh7kh3ph1")
    assert heuristic_driver(p, "llvm-cpu", "direct") == "host-threads"
    assert heuristic_driver(p, "llvm-cpu", "brgemm") == "local-sync"
    assert choose(p, "llvm-cpu") == Choice("brgemm", "default", "heuristic", driver="local-sync")
    avx2 = dataclasses.replace(backends.BACKENDS["llvm-cpu"], cpu_features=frozenset({"avx2"}))
    monkeypatch.setitem(backends.BACKENDS, "llvm-cpu", avx2)
    assert choose(p, "llvm-cpu").driver == "host-threads" and choose(p, "llvm-cpu").variant != "brgemm"


def test_torch_alone_times_pytorch_in_its_own_process_between_the_rounds():
    # PyTorch is also timed in a child process with OpenMP's default wait policy (bench.torch_alone),
    # one round after each round of the round-robin; each layout's figure in the comparison is the
    # faster of that and the in-process one
    pytest.importorskip("torch")
    from generator.bench import torch_alone

    p = _problem("--stag=nhwc --dtag=nhwc mb1ic4ih6oc5oh6kh3ph1")
    logged = []
    alone = torch_alone.TorchAlone.start(logged.append)
    try:
        order = []

        def fake_alone_round():
            order.append("alone")
            alone.round()

        assert alone.problem(p)
        samples = timing.round_samples({"k": lambda: order.append("kgen")}, 3, min_batch_s=0,
                                       after_round=fake_alone_round)
        # sizing the batch: a warm-up and a timed call; each round: an untimed call, its batch of one
        assert len(samples["k"]) == 3 and order == ["kgen"] * 2 + ["kgen", "kgen", "alone"] * 3
        t = alone.medians()
        assert set(t) == {"nchw", "channels_last"} and all(len(v) == 3 for v in alone.samples.values())
        assert all(v > 0 for v in t.values())
        # the next problem starts its own samples
        assert alone.problem(p) and alone.medians() == {}
        # one PyTorch has no conv for (s8 into s32): no rounds asked for, and the child stays up
        assert not alone.problem(_problem("--dt=s8:s8:s32 mb1ic4ih6oc5oh6kh3ph1")) and alone.alive
        assert alone.problem(p)
        # a child that fails leaves the in-process figures, with one line saying why, and stays quiet
        assert not alone.problem("not a problem") and not alone.alive
        assert "not measured" in logged[-1] and "\n" not in logged[-1]
        alone.round()
        assert alone.medians() == {} and len(logged) == 2
    finally:
        alone.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="no /proc to see the child's threads in")
def test_torch_alone_waits_for_the_childs_spinning_threads():
    # after each answer the parent waits until no thread of the child runs (PyTorch's OpenMP workers
    # spin after the child's calls and took the second core from the parent's next host-threads kernel)
    import subprocess
    import sys
    from generator.bench import torch_alone

    child = subprocess.Popen([sys.executable, "-c", """
import sys, threading, time
done = []
def spin():
    end = time.perf_counter() + 0.3
    while time.perf_counter() < end:
        pass
    done.append(1)
threading.Thread(target=spin).start()
print("answered", flush=True)
sys.stdin.readline()
print("spinner done" if done else "spinner still running", flush=True)
"""], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    alone = torch_alone.TorchAlone(child, lambda line: None)
    try:
        assert child.stdout.readline() == "answered\n"
        assert alone.settle(timeout_s=30)
        child.stdin.write("\n")
        child.stdin.flush()
        assert child.stdout.readline() == "spinner done\n"
        assert alone.settle(timeout_s=30)            # all asleep: returns at once
    finally:
        child.kill()
        child.wait()
    assert not alone.settle(timeout_s=30)            # an ended child: nothing to wait for
    # a child whose thread never stops: the wait ends at the timeout, said once in the log
    said = []
    # the child says when it spins: while Python starts it can sleep on a file read (state D or S)
    busy = subprocess.Popen([sys.executable, "-c", "print('spinning', flush=True)\nwhile True: pass"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert busy.stdout.readline() == "spinning\n"
        spinning = torch_alone.TorchAlone(busy, said.append)
        assert not spinning.settle(timeout_s=0.05) and not spinning.settle(timeout_s=0.05)
        assert len(said) == 1 and "still ran 50 ms" in said[0]
    finally:
        busy.kill()
        busy.wait()
    assert torch_alone._thread_state("/proc/thread-self/stat") == "R"
    assert torch_alone._thread_state("/proc/self/task/0/stat") == ""   # no such thread


def test_bench_takes_the_faster_pytorch_figure_per_layout(monkeypatch, kgen_cache_dir):
    # measure_problem compares kgen with the faster of PyTorch in-process and PyTorch alone (timed
    # between the same rounds), and the table says how often alone was faster
    pytest.importorskip("torch")

    class FakeAlone:
        rounds = 0

        def problem(self, p):
            return True

        def round(self):
            FakeAlone.rounds += 1

        def medians(self):
            return {"nchw": 0.5, "channels_last": 9.0}

    def fake_median_times(fns, rounds, min_batch_s=0.02, after_round=None):
        for _ in range(rounds):
            after_round()
        return {k: 1.0 if k.startswith("torch/") else 2.0 for k in fns}

    monkeypatch.setattr(bench_conv, "median_times", fake_median_times)
    import torch
    b = get_backend("llvm-cpu")
    p = _problem("--stag=nhwc --dtag=nhwc mb1ic4ih6oc5oh6kh3ph1")
    r = bench_conv.measure_problem(p, b, bench_conv.sweep(b, ["direct"], ["default"], None), ["nhwc"], torch, 3, 1,
                                   lambda m: None, alone=FakeAlone())
    assert FakeAlone.rounds == 3
    assert r.torch_in_process == {"nchw": 1.0, "channels_last": 1.0}
    assert r.torch == {"nchw": 0.5, "channels_last": 1.0}
    assert "alone in its own process (OpenMP default policy) between the same rounds; alone was faster in 1 of 2" \
        in bench_conv.format_table([r])


def test_summary_gives_each_data_type_its_own_ratios():
    # the speed targets are per data type: with f32 and u8 in one run, each gets its own geomean line
    from generator.select.candidates import Candidate

    def row(line, dt, kgen_s, auto_s, torch_s):
        best = Candidate("brgemm", "nhwc", "default", seconds=kgen_s)
        r = bench_conv.ProblemResult(line, dt, 1, 1, candidates=[best], torch={"channels_last": torch_s})
        r.auto, r.auto_source = Candidate("direct", "nhwc", "default", seconds=auto_s), "tuned"
        return r

    rows = [row("a", "f32", 1.0, 2.0, 2.0), row("b", "f32", 1.0, 1.0, 0.5),
            row("a", "u8", 1.0, 1.0, 4.0), row("b", "u8", 1.0, 1.0, 1.0)]
    s = summary(rows)
    assert s["by_dt"]["f32"]["kgen_vs_torch_geomean"] == pytest.approx(1.0)       # 2x and 0.5x
    assert s["by_dt"]["f32"]["auto_vs_torch_worst"] == pytest.approx(0.5)
    assert s["by_dt"]["u8"]["kgen_vs_torch_geomean"] == pytest.approx(2.0)        # 4x and 1x
    assert s["kgen_vs_torch_geomean"] == pytest.approx(2 ** 0.5)
    table = bench_conv.format_table(rows)
    assert "  f32: kgen best / best PyTorch 1.00x (worst 0.50x), --alg=auto 0.71x (worst 0.50x)" in table
    assert "  u8: kgen best / best PyTorch 2.00x (worst 1.00x), --alg=auto 2.00x (worst 1.00x)" in table
    assert "by_dt" not in summary(rows[:2])                                        # one type: no split
    # IREE's default (direct/nchw/default on the backend's driver) is outside this sweep: said, not "nanx"
    assert "nan" not in table and "IREE default / best PyTorch: not in this sweep" in table
    rows[0].candidates.append(Candidate("direct", "nchw", "default", seconds=4.0))
    assert "IREE default / best PyTorch: geomean 0.50x" in bench_conv.format_table(rows)


def test_quiet_blas_leaves_numpy_one_blas_thread():
    """The timed commands run NumPy's BLAS on one thread: OpenBLAS's helper spins ~0.1 s after a
    threaded call and would hold the core a host-threads kernel's helper needs. Run in a fresh
    process with two BLAS threads asked for, and read back through OpenBLAS's own getter."""
    code = """
import ctypes, sys
import numpy as np
from generator.runtime.timing import quiet_blas
paths = sorted({l.split()[-1] for l in open('/proc/self/maps') if 'openblas' in l.rsplit('/', 1)[-1].lower()})
if not paths:
    print('SKIP no OpenBLAS in NumPy'); sys.exit(0)
lib = ctypes.CDLL(paths[0])
get = next(getattr(lib, n) for n in ('scipy_openblas_get_num_threads64_', 'scipy_openblas_get_num_threads',
                                     'openblas_get_num_threads64_', 'openblas_get_num_threads') if hasattr(lib, n))
before = get()
a = np.ones((256, 256)); a @ a
said = quiet_blas()
print(before, get(), said)
"""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    if out.startswith("SKIP"):
        pytest.skip(out.strip())
    before, after, said = out.split(" ", 2)
    assert (before, after) == ("2", "1") and said.startswith("one thread ("), out


def test_tuned_table_keys_a_gpu_backend_by_its_device(tmp_path, monkeypatch):
    """What `kgen tune` measures on a GPU backend holds for that GPU: the key names the device
    (`Backend.tuned_per_device`), so an entry tuned on one card is not served on another, nor where
    there is no device; the CPU backend's key is the host CPU's alone."""
    import generator.compile.backends as backends
    from generator.benchdnn.conv import conv_problem
    from generator.compile.cache import host_cpu_id
    from generator.select import table as tuned

    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    p = dataclasses.replace(conv_problem(next(iter(parse_conv_args(["mb1ic4ih6oc5oh6kh3ph1"])))), alg="auto")
    keys = {}
    for name in ("cuda: NVIDIA H200", "cuda: NVIDIA A100", None):
        monkeypatch.setattr(backends, "device_available",
                            lambda b, name=name: (True, name) if name else (False, "no CUDA device"))
        keys[name] = tuned.problem_key(p, "cuda")
        assert tuned.problem_key(p, "llvm-cpu").split("|")[1] == host_cpu_id()
    assert len(set(keys.values())) == 3 and all(k.split("|")[1].startswith(host_cpu_id() + "+") for k in keys.values())
    # an entry stored under the H200's key is chosen there and nowhere else
    tuned.store({keys["cuda: NVIDIA H200"]: {"variant": "im2col", "flags": "default", "driver": None, "seconds": 1e-4}})
    for name, source in (("cuda: NVIDIA H200", "tuned"), ("cuda: NVIDIA A100", "heuristic"), (None, "heuristic")):
        monkeypatch.setattr(backends, "device_available",
                            lambda b, name=name: (True, name) if name else (False, "no CUDA device"))
        assert choose(p, "cuda").source == source


_STORE_KEYS = """
import sys
from pathlib import Path
from generator.select import table
path, who = Path(sys.argv[1]), sys.argv[2]
for i in range(50):
    table.store({f"{who}|{i}": {"variant": "direct", "flags": "default", "seconds": float(i)}}, path)
"""


def test_stores_from_processes_at_once_keep_every_key(tmp_path):
    # two `kgen tune` runs (or a tune beside a network plan) store into one table at once: each store
    # reads, merges and replaces the file under a lock the other processes take too
    path = tmp_path / "tuned.json"
    procs = [subprocess.Popen([sys.executable, "-c", _STORE_KEYS, str(path), f"p{k}"], stderr=subprocess.PIPE,
                              text=True) for k in range(4)]
    for p in procs:
        assert p.wait(timeout=300) == 0, p.stderr.read()
    entries = tuned.load(path)
    assert sorted(entries) == sorted(f"p{k}|{i}" for k in range(4) for i in range(50))
    assert entries["p3|49"]["seconds"] == 49.0


def test_the_table_is_reread_when_another_process_replaced_it(tmp_path):
    path = tmp_path / "tuned.json"
    tuned.store({"a": {"seconds": 1.0}}, path)
    assert set(tuned.load(path)) == {"a"}
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from generator.select import table; "
                    "table.store({'b': {'seconds': 2.0}}, Path(sys.argv[1]))", str(path)], check=True)
    assert set(tuned.load(path)) == {"a", "b"}


# ------------------------------------------------------------------------- kgen bench peak
def test_peak_loops_run_the_instructions_they_count_on_every_thread():
    # each loop's accumulators count the instructions that ran: the rates are of loops that did the work
    from generator.runtime import peak
    from generator.compile.host import host_cpu_flags

    rows = peak.measure(threads=[1, 2], seconds=0.02)
    assert [r.loop.instruction for r in rows] == [lp.instruction for lp in peak.LOOPS]
    flags = host_cpu_flags()
    for r in rows:
        missing = [f for f in r.loop.needs if f not in flags]
        if missing:
            assert r.why_not == f"not on this CPU (no {' '.join(missing)})" and not r.rates
        else:
            assert r.why_not is None and set(r.rates) == {1, 2} and all(v > 0 for v in r.rates.values())
            fn = getattr(peak._library(), f"kgen_peak_{r.loop.instruction}")
            assert [fn(n) for n in (1, 7, peak.CHUNK)] == [n * peak.UNROLL for n in (1, 7, peak.CHUNK)]
    # a CPU without a loop's feature: said, not run
    (row,) = peak.measure(threads=[1], seconds=0.01, instructions=["vpdpbusd"], flags=frozenset({"avx512f"}))
    assert row.why_not == "not on this CPU (no avx512_vnni)"
    text = peak.format_table(rows, [1, 2])
    assert text.splitlines()[0].split()[:3] == ["instruction", "computes", "ops"]
    assert sum(1 for line in text.splitlines()[1:] if "GOP/s" in line or "GFLOP/s" in line or "not on this CPU" in line) \
        == len(peak.LOOPS)


def test_a_peak_loop_that_ran_fewer_instructions_is_refused():
    from generator.runtime import peak
    from generator.errors import RunError

    with pytest.raises(RunError, match="the vpdpbusd loop's accumulators say 12 instructions ran, not "):
        peak._run(lambda n: 12.0, peak.LOOPS[0], 2, 0.01)


def test_kgen_bench_peak_prints_a_row_per_loop():
    from generator.cli.main import main

    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "bench", "peak", "--seconds=0.02", "--threads=1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("cpu: ") and lines[1].split()[:4] == ["instruction", "computes", "ops", "1"]
    assert [line.split()[0] for line in lines[2:]] == ["vpdpbusd", "vdpbf16ps", "vfmadd231ps", "tdpbusd", "tdpbf16ps"]
    assert main(["bench", "peak", "--seconds=0"]) == 2
