"""benchdnn reorder command lines and batch files -> ReorderCase (generator/problem/benchdnn.py)."""
from __future__ import annotations

import collections
import itertools
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import ProblemError
from generator.benchdnn.reorder import AttrScale, AttrZeroPoint, ReorderCase, parse_args, parse_batch_file, parse_dims, parse_list_file

BENCHDNN = Path("/work/shared/benchdnn")
REORDER_DIR = BENCHDNN / "reorder"
LISTS = (BENCHDNN / "lists" / "reorder_smoke.txt", BENCHDNN / "lists" / "reorder_full.txt")

# Regression pins: how many cases each oneDNN input file expands to, and how many of them carry an
# `unsupported` reason. Hand-checked ones: test_reorder_smoke = 6 sdt x 6 ddt x 2 scales x 2 zps x
# 2 post-ops x 2 runtime masks x 2 shapes = 1152; harness_reorder_saturation = 4x4x5x5x2 + 2x5x5x1 =
# 850; harness_reorder_scales = 12 scales x 4 ddt x 2 stag x 26 shapes + 2 sdt x 12 scales x 21
# shapes = 2496 + 504 (the 504 have --oflag=zp_comp:3); reorder_full.txt = one case per line.
EXPECTED = {
    "harness_conv_reorders_gpu": (63, 0),
    "harness_reorder_amx": (873, 0),
    "harness_reorder_compensation": (4596, 3465),
    "harness_reorder_cross_engine_gpu": (9232, 9232),
    "harness_reorder_decompression": (2196, 1764),
    "harness_reorder_large": (2, 0),
    "harness_reorder_regression": (6, 4),
    "harness_reorder_runtime": (2740, 2224),
    "harness_reorder_saturation": (850, 0),
    "harness_reorder_scales": (3000, 504),
    "option_set_fwks_ext_gpu": (790, 0),
    "option_set_fwks_key_gpu": (1297, 0),
    "test_reorder_all": (16761, 9012),
    "test_reorder_bfloat16": (220, 0),
    "test_reorder_ci": (9834, 7030),
    "test_reorder_float16": (526, 0),
    "test_reorder_float8": (86, 0),
    "test_reorder_fp4": (72, 0),
    "test_reorder_gpu": (25967, 18170),
    "test_reorder_int4": (294, 0),
    "test_reorder_smoke": (1152, 864),
    "reorder_smoke.txt": (24, 0),
    "reorder_full.txt": (6030, 0),
}

needs_inputs = pytest.mark.skipif(not REORDER_DIR.is_dir(), reason="benchdnn inputs not present")


def cases(*argv: str, **kw) -> list[ReorderCase]:
    return list(parse_args(list(argv), **kw))


def one(*argv: str, **kw) -> ReorderCase:
    (c,) = cases(*argv, **kw)
    return c


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---------------------------------------------------------------------------------------------
# The real oneDNN inputs
# ---------------------------------------------------------------------------------------------

@needs_inputs
def test_every_reorder_input_parses_to_the_end():
    files = sorted(REORDER_DIR.iterdir()) + list(LISTS)
    assert len(files) == 23
    totals = {}
    reasons = collections.Counter()
    for f in files:
        stream = parse_list_file(f) if f.parent.name == "lists" else parse_batch_file(f)
        n = n_unsup = 0
        for c in stream:
            assert isinstance(c, ReorderCase)
            n += 1
            if c.unsupported:
                n_unsup += 1
                reasons.update(r.split("=", 1)[0] for r in c.unsupported)
        totals[f.name] = (n, n_unsup)
        print(f"{f.parent.name}/{f.name}: {n} cases, {n_unsup} with unsupported knobs")
    print("unsupported knobs over all files:", dict(reasons))
    assert totals == EXPECTED


@needs_inputs
def test_real_files_round_trip_through_repro():
    n = 0
    for name in ("test_reorder_all", "test_reorder_gpu"):
        for c in parse_batch_file(REORDER_DIR / name):
            assert cases(*shlex.split(c.repro())) == [c], c.repro()
            n += 1
    for c in parse_list_file(LISTS[1]):
        assert cases(*shlex.split(c.repro())) == [c], c.repro()
        n += 1
    assert n > 40000


@needs_inputs
def test_real_file_details():
    comp = list(parse_batch_file(REORDER_DIR / "harness_reorder_compensation"))
    # `--attr-scales=, \` continued over five lines: six alternatives in the first block
    n_first = 6 * 4 * 3 * 6 * 4  # scales x oflag x stag x dtag x shapes
    assert comp[n_first - 1].sdt == "f32" and comp[n_first].sdt == "bf16"
    first_block = {tuple(map(str, c.scales)) for c in comp[:n_first]}
    assert first_block == {(), ("src:common:2", "dst:common:2"), ("src:per_dim_0",), ("src:per_dim_1",),
                           ("src:per_dim_01",), ("src:per_tensor",)}
    assert {c.knob("oflag") for c in comp} == {None, "s8s8_comp:1", "zp_comp:1", "s8s8_comp:1+zp_comp:1",
                                               "s8s8_comp:3", "zp_comp:3", "s8s8_comp:3+zp_comp:3",
                                               "s8s8_comp:2", "zp_comp:2", "s8s8_comp:2+zp_comp:2",
                                               "s8s8_comp:5", "zp_comp:5", "s8s8_comp:5+zp_comp:5"}
    reg = list(parse_batch_file(REORDER_DIR / "harness_reorder_regression"))
    assert reg[3].zero_points == (AttrZeroPoint("src", "common", 1),)  # written `src0:common:1`
    assert reg[3].unsupported == () and reg[3].knob("skip-impl") == "ref,simple"  # impl filters change nothing
    # the name with an unclosed quote in test_reorder_smoke-like files, and `&`/`*N` names
    key = list(parse_batch_file(REORDER_DIR / "option_set_fwks_key_gpu"))
    assert all(c.name for c in key)
    conv = next(iter(parse_batch_file(REORDER_DIR / "harness_conv_reorders_gpu")))
    assert (conv.sdt, conv.ddt, conv.stag, conv.dtag, conv.dims) == ("s8", "f32", "ABcd8b8a4b", "abcd",
                                                                    (1024, 1024, 1, 1))
    assert conv.name == "conv.weights" and conv.occurrences == 1
    large = list(parse_batch_file(REORDER_DIR / "harness_reorder_large"))
    assert large[1].dims == (1, 4294967296, 1)


@needs_inputs
def test_list_lines_are_independent():
    full = list(parse_list_file(LISTS[1]))
    assert len(full) == len([line for line in LISTS[1].read_text().splitlines() if line.strip()])
    assert sum(1 for c in full if c.knob("skip-impl")) == 1  # does not leak into later lines
    smoke = list(parse_list_file(LISTS[0]))
    c = next(c for c in smoke if c.name)
    assert c.name == "97716227c044b50e24f7273fdc500674" and c.dims == (168, 256, 1, 1)


@needs_inputs
def test_laziness_on_the_big_file():
    stream = parse_batch_file(REORDER_DIR / "test_reorder_gpu")
    assert iter(stream) is stream
    first = list(itertools.islice(stream, 3))
    assert [c.dims for c in first] == [(11,), (11,), (11,)]


# ---------------------------------------------------------------------------------------------
# Command-line semantics
# ---------------------------------------------------------------------------------------------

def test_defaults():
    c = one("2x17x5x4")
    assert (c.sdt, c.ddt, c.stag, c.dtag, c.dims) == ("f32", "f32", "abx", "abx", (2, 17, 5, 4))
    assert c.strides == (None, None) and c.scales == () and c.zero_points == ()
    assert c.knobs == () and c.extras == () and c.unsupported == () and c.supported
    assert c.repro() == "--sdt=f32 --ddt=f32 --stag=abx --dtag=abx 2x17x5x4"


def test_zero_volume_and_names():
    assert one("0x3").dims == (0, 3)
    assert one("7").dims == (7,)
    c = one('2x3_n"abc*3&def*2&ghi"')
    assert c.dims == (2, 3) and c.name == "abc*3&def*2&ghi" and c.occurrences == 6
    assert c == one("2x3") and c.repro() == one("2x3").repro()  # the name is a label only
    assert parse_dims("2x3_nfoo") == ((2, 3), "foo")
    assert parse_dims("2x3n74f3d*3") == ((2, 3), "74f3d*3")
    assert parse_dims("4x5_") == ((4, 5), "")  # benchdnn drops a trailing '_'


def test_cross_product_order_and_count():
    cs = cases("--sdt=f32,s8", "--ddt=u8,s8,bf16", "--stag=abx,axb", "--dtag=aBx16b", "2x16", "3x16")
    assert len(cs) == 2 * 3 * 2 * 2
    # benchdnn loop order: sdt outermost, then ddt, stag, dtag; problems in the order given
    assert [(c.sdt, c.ddt, c.stag) for c in cs[:6]] == [
        ("f32", "u8", "abx"), ("f32", "u8", "axb"), ("f32", "s8", "abx"), ("f32", "s8", "axb"),
        ("f32", "bf16", "abx"), ("f32", "bf16", "axb")]
    assert [c.dims for c in cs[:12]] == [(2, 16)] * 12


def test_options_apply_to_following_problems_and_reset():
    cs = cases("--sdt=s8", "1x2", "--ddt=u8", "3x4", "--reset", "5x6", "--sdt=", "7")
    assert [(c.sdt, c.ddt) for c in cs] == [("s8", "f32"), ("s8", "u8"), ("f32", "f32"), ("f32", "f32")]


def test_empty_alternative_means_not_set():
    cs = cases("--attr-scales=,src:common:2", "--attr-post-ops=,sum:0.5", "2x2")
    assert [(tuple(map(str, c.scales)), c.unsupported) for c in cs] == [
        ((), ()), ((), ("--attr-post-ops=sum:0.5",)),
        (("src:common:2",), ()), (("src:common:2",), ("--attr-post-ops=sum:0.5",))]


def test_ignored_harness_knobs():
    c = one("--reorder", "--engine=cpu", "--mode=P", "-v5", "--verbose=2", "--allow-enum-tags-only=0",
            "--fix-times-per-prb=10", "--perf-template=csv", "--ctx-init=4", "--attr-scratchpad=user",
            "--max-ms-per-prb=100", "--canonical=true", "--help", "--attr-fpmath=bf16", "2x2")
    assert c == one("2x2") and c.supported


def test_unsupported_knobs_are_listed_in_repro_order():
    c = one("--oflag=zp_comp:3", "--runtime-dim-mask=63", "--cross-engine=cpu2gpu", "--skip-impl=ref,simple",
            "--attr-post-ops=sum:0.5", "--attr-scales=src:per_tensor:bf16+dst:common:2", "2x16x3x4")
    assert c.unsupported == ("--oflag=zp_comp:3", "--cross-engine=cpu2gpu", "--runtime-dim-mask=63",
                             "--attr-scales=src:per_tensor:bf16", "--attr-post-ops=sum:0.5")
    assert c.repro() == ("--sdt=f32 --ddt=f32 --stag=abx --dtag=abx --oflag=zp_comp:3 --cross-engine=cpu2gpu "
                         "--runtime-dim-mask=63 --attr-scales=src:per_tensor:bf16+dst:common:2 "
                         "--attr-post-ops=sum:0.5 --skip-impl=ref,simple 2x16x3x4")
    # defaults written explicitly are not knobs
    assert one("--runtime-dim-mask=0", "--cross-engine=none", "--oflag=", "2").supported


def test_strides():
    c = one("--strides=960x1x64x16:", "2x16x3x4")
    assert c.strides == ((960, 1, 64, 16), None) and c.supported
    assert c.repro() == "--sdt=f32 --ddt=f32 --stag=abx --dtag=abx --strides=960x1x64x16: 2x16x3x4"
    assert one("--strides=:1x2", "2x1").strides == (None, (1, 2))
    assert [c.strides for c in cases("--strides=1x2:,:2x1", "2x1")] == [((1, 2), None), (None, (2, 1))]
    assert one("--strides=1x2:", "--dtag=ba", "2x1").dtag == "ba"  # tag on the other side is fine


def test_match_and_start():
    cs = cases("--ddt=f32,s8,u8", "--match=ddt=s8", "2x2", "--match=", "3x3")
    assert [(c.ddt, c.dims) for c in cs] == [("s8", (2, 2)), ("f32", (3, 3)), ("s8", (3, 3)), ("u8", (3, 3))]
    cs = cases("--start=2", "--ddt=f32,s8,u8", "2x2")
    assert [c.ddt for c in cs] == ["u8"]


# ---------------------------------------------------------------------------------------------
# Batch files
# ---------------------------------------------------------------------------------------------

def test_inline_batch_cross_products_comments_and_continuation(tmp_path):
    f = write(tmp_path / "b", """\
# leading comment
--reset
--sdt=f32,s8 --ddt=s8   # trailing comment --sdt=u8 is ignored
--attr-scales=, \\
    src:common:0.5, \\
    src:per_dim_1+dst:per_dim_1
--stag=abx,axb
    --dtag=aBx16b 2x16x3x3 1x8x2x2
    --dtag=abx    4x4
#--dtag=never
2x2 # a problem after the last option
""")
    cs = list(parse_batch_file(f))
    assert len(cs) == 2 * 3 * 2 * 2 + 2 * 3 * 2 * 1 + 2 * 3 * 2 * 1
    assert {tuple(map(str, c.scales)) for c in cs} == {(), ("src:common:0.5",),
                                                        ("src:per_dim_1", "dst:per_dim_1")}
    assert {c.sdt for c in cs} == {"f32", "s8"}
    assert [c.dtag for c in cs[-12:]] == ["abx"] * 12


def test_continuation_keeps_options_apart(tmp_path):
    # benchdnn would glue `--stag=axb` onto `--sdt=s8`; we keep it a separate option
    f = write(tmp_path / "b", "--sdt=s8 \\\n--stag=axb 2x2\n--ddt=u8\\\n,s8 3x3\n")
    cs = list(parse_batch_file(f))
    assert [(c.sdt, c.stag, c.ddt, c.dims) for c in cs] == [
        ("s8", "axb", "f32", (2, 2)), ("s8", "axb", "u8", (3, 3)), ("s8", "axb", "s8", (3, 3))]


def test_nested_batch_paths_and_shared_state(tmp_path):
    write(tmp_path / "inc" / "inner", "--ddt=u8\n4x4\n")
    write(tmp_path / "inner2", "--stag=axb 5x5\n")  # only found via cwd
    outer = write(tmp_path / "inc" / "outer",
                  "--sdt=s8 1x1\n--batch=inner\n2x2\n--batch=inner2\n--reset 3x3\n")
    cs = list(parse_batch_file(outer, cwd=tmp_path))
    # options set inside a nested batch stay in effect after it returns, as in benchdnn
    assert [(c.sdt, c.ddt, c.stag, c.dims) for c in cs] == [
        ("s8", "f32", "abx", (1, 1)), ("s8", "u8", "abx", (4, 4)), ("s8", "u8", "abx", (2, 2)),
        ("s8", "u8", "axb", (5, 5)), ("f32", "f32", "abx", (3, 3))]
    # from the command line, relative to cwd
    assert len(cases("--batch=inc/outer", cwd=tmp_path)) == 5


def test_batch_cycle_and_missing(tmp_path):
    write(tmp_path / "a", "1x1\n--batch=b\n")
    write(tmp_path / "b", "--batch=a\n")
    with pytest.raises(ProblemError, match="includes itself"):
        list(parse_batch_file(tmp_path / "a"))
    with pytest.raises(ProblemError) as e:
        parse_batch_file(tmp_path / "nope")
    assert str(e.value) == f"batch file not found: {tmp_path / 'nope'}"
    with pytest.raises(ProblemError) as e:
        cases("--batch=nope", cwd=tmp_path)
    assert str(e.value).startswith("batch file not found: nope")
    write(tmp_path / "c", "1x1\n--batch=missing_one\n")
    it = parse_batch_file(tmp_path / "c")
    assert next(it).dims == (1, 1)  # lazy: the error comes when the iteration reaches it
    with pytest.raises(ProblemError, match="batch file not found: missing_one"):
        next(it)


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------

def test_scales_parse():
    c = one("--attr-scales=dst:per_dim_1+src0:common:0.25", "2x64x3x3")
    assert c.scales == (AttrScale("src", "common", 0.25), AttrScale("dst", "per_dim_1", None))
    assert str(c.scales[0]) == "src:common:0.25" and str(c.scales[1]) == "dst:per_dim_1"
    assert one("--attr-scales=src:common", "2").scales[0].value is None
    assert one("--attr-scales=src:common", "2").scales[0].effective_value == 1.0  # benchdnn default
    big = one("--attr-scales=src:common:4294967295", "2").scales[0]
    assert big.value == 4294967295.0 and str(big) == "src:common:4294967295"
    assert one("--attr-scales=src:common:1e+10+dst:common:2", "2").scales == (
        AttrScale("src", "common", 1e10), AttrScale("dst", "common", 2.0))
    g = one("--attr-scales=src:per_tensor:f16:1x16", "8x32").scales[0]
    assert (g.policy, g.dt, g.groups) == ("per_tensor", "f16", (1, 16))
    assert one("--attr-scales=src:PER_DIM_01", "2x2").scales[0].policy == "per_dim_01"
    masked = one("--attr-scales=src:2", "2x2").scales[0]
    assert masked.policy == "2" and masked.mask(4) == 2 and masked.unsupported_reason is None
    assert [AttrScale("src", p).mask(4) for p in ("common", "per_dim_0", "per_dim_1", "per_dim_01",
                                                 "per_tensor")] == [0, 1, 2, 3, 15]
    # a repeated argument overrides the earlier one, as in benchdnn
    assert one("--attr-scales=src:common:2+src:per_dim_0", "2").scales == (AttrScale("src", "per_dim_0"),)


def test_zero_points_parse():
    c = one("--attr-zero-points=src:common:-1+dst:common:2", "2x2")
    assert c.zero_points == (AttrZeroPoint("src", "common", -1), AttrZeroPoint("dst", "common", 2))
    assert c.supported and str(c.zero_points[0]) == "src:common:-1"
    assert one("--attr-zero-points=dst:common", "2").zero_points[0].effective_value == 0
    assert one("--attr-zero-points=src:common:2.0", "2").zero_points[0].value == 2
    d = one("--attr-zero-points=src:per_tensor:s4:1x16", "2x16")
    assert d.unsupported == ("--attr-zero-points=src:per_tensor:s4:1x16",)


def test_attr_support_classification():
    assert one("--attr-scales=src:per_dim_01+dst:common:3", "2x2").supported
    for bad in ("src:per_tensor:bf16", "src:host_scalar:2", "wei:common:2", "dst:mx", "src:per_ocic",
                "src:common:2:f16"):
        c = one(f"--attr-scales={bad}", "2x2")
        assert c.unsupported == (f"--attr-scales={bad}",), bad


# ---------------------------------------------------------------------------------------------
# Extra (product) options
# ---------------------------------------------------------------------------------------------

def test_extras_pass_through_and_survive_reset(tmp_path):
    f = write(tmp_path / "b", "--reset --sdt=s8 2x2\n")
    cs = cases("--backend=cuda", "--input=x.npy", "--batch=b", "--reset", "3x3", "--input=", "4",
               cwd=tmp_path)
    assert [c.extras for c in cs] == ([(("backend", "cuda"), ("input", "x.npy"))] * 2
                                      + [(("backend", "cuda"),)])
    assert cs[0].extra("backend") == "cuda" and cs[0].supported
    assert cs[0].repro() == "--sdt=s8 --ddt=f32 --stag=abx --dtag=abx --backend=cuda --input=x.npy 2x2"
    assert cases(*shlex.split(cs[0].repro())) == [cs[0]]
    assert f.exists()


def test_custom_extra_options():
    ext = {"device": "0", "tile": None}
    c = one("--tile=8x8", "2x2", extra_options=ext)
    assert c.extras == (("device", "0"), ("tile", "8x8"))
    assert cases(*shlex.split(c.repro()), extra_options=ext) == [c]
    with pytest.raises(ProblemError, match="--tile"):
        cases("--tile=8x8", "2x2")
    with pytest.raises(ValueError):
        cases("2x2", extra_options={"sdt": None})
    spaced = one("--output=my dir/out.bin", "2")
    assert shlex.split(spaced.repro())[-2] == "--output=my dir/out.bin"
    assert cases(*shlex.split(spaced.repro())) == [spaced]


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

BAD_INPUTS = [
    (["2x-3"], "'-3'"),
    (["2xx3"], "'2xx3'"),
    (["abc"], "'abc'"),
    ([""], "no dimensions"),
    (["2x3n"], "'2x3n'"),
    (["02x3"], "'02'"),
    (["--bogus=1", "2"], "--bogus"),
    (["--sdtt=f32", "2"], "--sdtt"),
    (["--sdt", "2"], "--sdt"),
    (["--reset=1", "2"], "--reset"),
    (["-x", "2"], "'-x'"),
    (["--conv", "2"], "--conv"),
    (["--sdt=f33", "2"], "'f33'"),
    (["--sdt=f32,", "2"], "''"),
    (["--stag=a-b", "2"], "'a-b'"),
    (["--attr-scales=src:per_dim_1:0.5", "2"], "'0.5'"),
    (["--attr-scales=foo:common:1", "2"], "'foo'"),
    (["--attr-scales=src:common:-1", "2"], "'-1'"),
    (["--attr-scales=src:per_oc", "2"], "per_oc"),
    (["--attr-scales=src:sometimes", "2"], "'sometimes'"),
    (["--attr-scales=src:common:2:", "2"], "empty field"),
    (["--attr-scales=src", "2"], "lacks a policy"),
    (["--attr-zero-points=src:common:1.5", "2"], "'1.5'"),
    (["--oflag=foo:1", "2"], "'foo'"),
    (["--oflag=zp_comp", "2"], "'zp_comp'"),
    (["--runtime-dim-mask=-1", "2"], "'-1'"),
    (["--cross-engine=gpu2gpu", "2"], "'gpu2gpu'"),
    (["--strides=1x2", "2x2"], "--strides=1x2"),
    (["--strides=1x2x3:", "2x2"], "1x2x3"),
    (["--strides=1xx2:", "2x2"], "'1xx2'"),
    (["--strides=1x2:", "--stag=ba", "2x2"], "--stag=ba"),
    (["--match=(", "2"], "'('"),
    (["--allow-enum-tags-only=maybe", "2"], "'maybe'"),
    (["--batch=", "2"], "--batch"),
    (["1x2x3x4x5x6x7x8x9x10x11x12x13"], "at most 12"),
]


@pytest.mark.parametrize("argv,needle", BAD_INPUTS, ids=[" ".join(a) or "empty" for a, _ in BAD_INPUTS])
def test_malformed_inputs_raise_one_line_problem_errors(argv, needle):
    with pytest.raises(ProblemError) as e:
        cases(*argv)
    msg = str(e.value)
    assert "\n" not in msg and needle in msg, msg


def test_error_location_in_batch_files(tmp_path):
    f = write(tmp_path / "b", "2x2\n\n--sdt=f32\n  2xx3\n")
    with pytest.raises(ProblemError) as e:
        list(parse_batch_file(f))
    assert str(e.value).endswith(f"(at {f}:4)") and "'2xx3'" in str(e.value)
    g = write(tmp_path / "g", "\\\n2x2\n")
    with pytest.raises(ProblemError, match="continuation"):
        list(parse_batch_file(g))


def test_unknown_option_suggests():
    with pytest.raises(ProblemError, match=r"did you mean '--attr-scales'"):
        cases("--attr-scale=src:common:2", "2")


# ---------------------------------------------------------------------------------------------
# Repro round trip (property)
# ---------------------------------------------------------------------------------------------

DTS = ["f32", "bf16", "f16", "s32", "s8", "u8", "f8_e4m3", "s4"]
TAGS = ["abx", "axb", "aBx16b", "ABcd16b16a", "xba", "ba", "abcd", "OIhw16i16o"]
_scale_values = st.one_of(st.none(), st.sampled_from([0.25, 2.0, 0.5, 4294967295.0, 1e-3]),
                          st.floats(min_value=0, max_value=1e30, allow_nan=False, allow_infinity=False))


@st.composite
def _scales(draw, cls):
    out = []
    for arg in draw(st.sets(st.sampled_from(["src", "dst"]))):
        policy = draw(st.sampled_from(["common", "per_dim_0", "per_dim_1", "per_dim_01", "per_tensor", "3"]))
        if cls is AttrScale:
            value = draw(_scale_values) if policy == "common" else None
        else:
            value = draw(st.one_of(st.none(), st.integers(-128, 255))) if policy == "common" else None
        dt_choices = ["f32", "f16", "bf16"] if cls is AttrScale else ["s32", "s8", "u8"]
        dt = draw(st.sampled_from(dt_choices))
        if policy == "common" and value is None and dt != dt_choices[0]:
            value = 1.0 if cls is AttrScale else 0
        groups = draw(st.sampled_from([(), (8, 1)])) if policy == "per_tensor" else ()
        out.append(cls(arg, policy, value, dt, groups))
    order = {"src": 0, "dst": 1}
    return tuple(sorted(out, key=lambda e: order[e.arg]))


@st.composite
def _cases(draw):
    dims = tuple(draw(st.lists(st.integers(0, 300), min_size=1, max_size=6)))
    n = len(dims)
    use_strides = draw(st.booleans())
    stag = "abx" if use_strides else draw(st.sampled_from(TAGS))
    dtag = draw(st.sampled_from(TAGS))
    strides = (tuple(draw(st.lists(st.integers(0, 10**6), min_size=n, max_size=n))), None) \
        if use_strides else (None, None)
    knobs = []
    if draw(st.booleans()):
        knobs.append(("oflag", draw(st.sampled_from(["zp_comp:1", "s8s8_comp:3+zp_comp:3"]))))
    if draw(st.booleans()):
        knobs.append(("runtime-dim-mask", str(draw(st.integers(1, 63)))))
    if draw(st.booleans()):
        knobs.append(("attr-post-ops", draw(st.sampled_from(["sum:0.5", "relu", "sum+linear:2:1"]))))
    if draw(st.booleans()):
        knobs.append(("skip-impl", "ref,simple"))
    extras = (("backend", draw(st.sampled_from(["llvm-cpu", "cuda"]))),) if draw(st.booleans()) else ()
    return ReorderCase(draw(st.sampled_from(DTS)), draw(st.sampled_from(DTS)), stag, dtag, dims, strides,
                       draw(_scales(AttrScale)), draw(_scales(AttrZeroPoint)), tuple(knobs), extras)


@settings(max_examples=300, deadline=None)
@given(_cases())
def test_repro_round_trip_property(case):
    assert cases(*shlex.split(case.repro())) == [case]


def test_policy_dims_are_knobs_attr_md():
    # one mapping for the driver's masks and the API's policies: per_oc is dim 1 for src/dst
    # (knobs_attr.md: "same as per_dim_1 for arguments other than WEI"), integer masks are bits
    from generator.problem.reorder import Quant, policy_dims

    assert [policy_dims(p, 4) for p in ("common", "per_dim_0", "per_dim_1", "per_oc", "per_dim_01", "per_tensor",
                                        "6", "0")] == [(), (0,), (1,), (1,), (0, 1), (0, 1, 2, 3), (1, 2), ()]
    assert Quant.parse("per_oc", 4).mask == (1,)
    assert AttrScale("src", "per_oc").mask(4) == 2 == 1 << policy_dims("per_oc", 4)[0]
    with pytest.raises(ProblemError, match="unknown quantization policy 'per_x'"):
        policy_dims("per_x", 4)
