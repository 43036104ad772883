"""Format `any`: a convolution chooses the layouts of the tensors it is given as `any`, by
`kgen tune`'s measurement when the table has the problem, else by `select.heuristic_layouts`'s rule;
the chosen descriptors are reported (kernel.problem, the CLI's repro line) and reused.

Every chosen kernel is checked like the rest: integer fills, the float64 reference, padding zero."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from generator import FormatError, MemoryDesc
from generator.api import ConvKernel, conv, make_problem
from generator.bench.tune import tune
from generator.benchdnn.conv import conv_problem, parse_conv_args
from generator.cli.main import main
from generator.compile.host import host_matrix_features
from generator.layout import AnyDesc
from generator.problem.conv import ConvProblem
from generator.select import choose, heuristic_layouts, table
from generator.verify import SEED, check_conv

pytestmark = pytest.mark.usefixtures("kgen_cache_dir")


@pytest.fixture(autouse=True)
def _no_table(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))


def _problem(line: str) -> ConvProblem:
    (case,) = parse_conv_args(line.split())
    return conv_problem(case)


# ------------------------------------------------------------------------------------- the descriptor
def test_any_descriptor_has_dims_and_type_but_no_layout():
    d = MemoryDesc((2, 17, 5, 4), "bf16", "any")
    assert isinstance(d, AnyDesc) and d.is_any and d.dims == (2, 17, 5, 4) and d.dtype.name == "bf16"
    assert d.format_name() == "any" and d == MemoryDesc((2, 17, 5, 4), "bf16", "any")
    assert not MemoryDesc((2, 17, 5, 4), "bf16", "nchw").is_any
    for physical in ("strides", "buffer_nelems", "padded_dims"):
        with pytest.raises(FormatError, match="format 'any' has no layout yet"):
            getattr(d, physical)
    with pytest.raises(FormatError, match="any"):
        d.to_physical(np.zeros(d.dims))
    assert not hasattr(d, "strides") and getattr(d, "blocks", None) is None   # hasattr works on it
    with pytest.raises(FormatError, match="takes no strides"):
        MemoryDesc((2, 3), "f32", "any", strides=(3, 1))


def test_a_reorder_refuses_any():
    with pytest.raises(FormatError, match="a reorder needs a concrete format"):
        make_problem(MemoryDesc((2, 3), "f32", "any"), MemoryDesc((2, 3), "f32", "ab"))


def test_unset_tags_stay_plain_and_written_any_is_kept():
    p = _problem("ic3ih5oc4kh3")
    assert (p.src.tag, p.wei.tag, p.dst.tag) == ("abcd", "abcd", "abcd") and not p.has_any
    p = _problem("--stag=any --wtag=any ic3ih5oc4kh3")
    assert p.src.is_any and p.wei.is_any and not p.dst.is_any and p.has_any
    assert "f32_any" in p.name


# ------------------------------------------------------------------------------------- the rule
@pytest.mark.parametrize("line, want", [
    # brgemm, im2col and direct read a plain channels-last source in place: nhwc
    ("--alg=brgemm --stag=any --dtag=any ic16ih6oc32oh6kh3ph1", ("acdb", "abcd", "acdb")),
    ("--alg=im2col --stag=any --dtag=any ic16ih6oc32oh6kh1ph0", ("acdb", "abcd", "acdb")),
    ("--stag=any --dtag=any --wtag=any ic16ih6oc32oh6kh3ph1", ("acdb", "abcd", "acdb")),
    ("--stag=any --dtag=any ic16iw6oc32ow6kw3pw1", ("acb", "abc", "acb")),              # 1D: nwc
    # Winograd computes channels last on AVX-512 CPUs (vector tile transforms around brgemm), elsewhere
    # on logical NCHW tiles: plain
    ("--alg=winograd --stag=any --dtag=any ic16ih6oc32oh6kh3ph1",
     ("acdb", "abcd", "acdb") if "avx512f" in host_matrix_features() else ("abcd", "abcd", "abcd")),
    # one side given: the other follows it (a chain keeps one layout)
    ("--stag=nChw16c --dtag=any ic16ih6oc32oh6kh3ph1", ("aBcd16b", "abcd", "aBcd16b")),
    ("--stag=any --dtag=NCHW4 --dt=u8:s8:s32 ic16ih6oc32oh6kh3ph1", ("aBcd4b", "abcd", "aBcd4b")),
    # the groups' weights are plain goihw
    ("--stag=any --dtag=any --wtag=any g2ic16ih6oc32oh6kh3ph1", ("acdb", "abcde", "acdb")),
])
def test_heuristic_layouts_are_reported_and_the_kernel_is_right(line, want):
    k = conv(line)
    p = k.problem
    assert not p.has_any and (p.src.tag, p.wei.tag, p.dst.tag) == want
    assert k.choice.source == "heuristic" and k.choice.layouts is not None
    assert check_conv(k, p) is None, f"seed {SEED}"


def test_auto_and_any_choose_together():
    k = conv("--alg=auto --dt=u8:s8:u8 --stag=any --dtag=any mb1ic32ih7oc48oh7kh3ph1")
    assert k.problem.alg == "brgemm" and k.problem.src.tag == "acdb" and k.problem.dst.tag == "acdb"
    assert check_conv(k, k.problem) is None, f"seed {SEED}"


@pytest.mark.parametrize("line", [
    "--stag=any --dtag=any mb2ic5ih7oc17oh7kh3ph1",                                     # tails
    "--alg=brgemm --dt=bf16:bf16:bf16 --stag=any --dtag=any g2ic32id4ih5iw5oc32od4oh5ow5kd3kh3kw3pd1ph1pw1",
    "--alg=brgemm --dt=u8:s8:s8 --stag=any --dtag=any --attr-post-ops=sum:0.5+relu mb1ic24ih6oc40oh6kh1ph0",
    "--alg=im2col --stag=any --dtag=any g4ic8ih9oc8oh5kh3sh2ph1",
])
def test_any_on_varied_shapes(line):
    k = conv(line)
    assert not k.problem.has_any
    assert check_conv(k, k.problem) is None, f"{line}: seed {SEED}"


def test_api_problem_with_any_descriptors():
    base = _problem("ic8ih6oc16oh6kh3ph1")
    p = dataclasses.replace(base, src=MemoryDesc(base.desc.src_dims, "f32", "any"),
                            dst=MemoryDesc(base.desc.dst_dims, "f32", "any"), alg="brgemm")
    k = ConvKernel(p)
    assert k.problem.src.tag == "acdb" and k.problem.wei == base.wei
    x = np.arange(np.prod(base.desc.src_dims), dtype=np.float32).reshape(base.desc.src_dims) % 5 - 2
    w = np.ones((16, 8, 3, 3), np.float32)
    got = k.run_logical(x, w)
    ref = _problem("--alg=direct ic8ih6oc16oh6kh3ph1")
    kr = ConvKernel(ref)
    assert np.array_equal(got, kr.run_logical(x, w))


def test_depthwise_post_op_sees_one_choice():
    k = conv("--stag=any --dtag=any --attr-post-ops=dw:k3s1p1 mb1ic16ih6oc16oh6kh1ph0")
    assert k.first.problem.dst.tag == k.second.problem.src.tag == k.problem.dst.tag == "acdb"
    assert check_conv(k, k.problem) is None, f"seed {SEED}"


# ------------------------------------------------------------------------------------- measured
def test_tune_measures_layouts_and_the_choice_is_reused(tmp_path, monkeypatch):
    path = tmp_path / "tuned.json"
    (case,) = parse_conv_args(["--stag=any", "--dtag=any", "mb1ic8ih6oc16oh6kh3ph1"])
    rows, written = tune([case], "llvm-cpu", variants=["direct", "im2col"], flag_sets=["default"],
                         layouts=["nchw", "nChw8c"], drivers=["local-sync"], rounds=1, log=lambda m: None)
    assert written == path
    (p, r), = rows
    assert {c.layout for c in r.timed} == {"nchw", "nChw8c"}
    entries = json.loads(path.read_text())["entries"]
    key = table.problem_key(p, "llvm-cpu")
    best = r.best
    assert entries[key]["layouts"] == [best.problem.src.tag, "abcd", best.problem.dst.tag]
    assert set(entries[key]["by_variant"]) <= {"direct", "im2col"}
    # each measured layout's concrete problem got its own entry too
    for c in r.timed:
        assert table.problem_key(c.problem, "llvm-cpu") in entries
    # reused: format any and --alg=auto now take the measured layouts and variant
    k = conv("--alg=auto --stag=any --dtag=any mb1ic8ih6oc16oh6kh3ph1")
    assert k.choice.source == "tuned" and (k.problem.src, k.problem.dst, k.problem.alg) == \
        (best.problem.src, best.problem.dst, best.variant)
    # a fixed variant takes the layouts that variant was fastest in
    for v, e in entries[key]["by_variant"].items():
        kv = conv(f"--alg={v} --stag=any --dtag=any mb1ic8ih6oc16oh6kh3ph1")
        assert [kv.problem.src.tag, kv.problem.wei.tag, kv.problem.dst.tag] == e["layouts"]
    assert check_conv(k, k.problem) is None, f"seed {SEED}"


def test_a_table_choice_in_a_blocked_layout_is_taken(tmp_path):
    p = _problem("--alg=auto --stag=any --dtag=any mb1ic8ih6oc16oh6kh3ph1")
    table.store({table.problem_key(p, "llvm-cpu"): {"variant": "direct", "flags": "default", "driver": None,
                                                    "seconds": 1e-5, "layouts": ["aBcd8b", "abcd", "aBcd8b"]}})
    c = choose(p, "llvm-cpu")
    assert (c.source, c.variant, c.layouts) == ("tuned", "direct", ("aBcd8b", "abcd", "aBcd8b"))
    k = conv("--alg=auto --stag=any --dtag=any mb1ic8ih6oc16oh6kh3ph1")
    assert k.problem.src.tag == "aBcd8b" and check_conv(k, k.problem) is None
    # the heuristic is what an untuned problem gets
    assert heuristic_layouts(_problem("--stag=any --dtag=any mb1ic8ih6oc16oh6kh1ph0"), "llvm-cpu")[0] == "axb"


# ------------------------------------------------------------------------------------- CLI
def test_cli_repro_names_the_layouts_chosen(capsys):
    assert main(["conv", "--stag=any", "--dtag=any", "ic16ih6oc32oh6kh3ph1",
                 "--stag=nchw", "--dtag=any", "ic16ih6oc32oh6kh3ph1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "0:PASSED (any chose src acdb, dst acdb (heuristic)) __REPRO: --stag=acdb --dtag=acdb ic16ih6oc32oh6kh3ph1" in out
    assert "1:PASSED (any chose dst abcd (heuristic)) __REPRO: --stag=nchw --dtag=abcd ic16ih6oc32oh6kh3ph1" in out
