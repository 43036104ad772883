"""benchdnn conv descriptors and conv-driver lines -> ConvDesc / ConvCase (generator/problem/conv.py)."""
from __future__ import annotations

import csv
import itertools
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import ProblemError
from generator.problem.conv_desc import ConvDesc
from generator.problem.geometry import derive_padding, output_size, right_padding
from generator.problem.attr import Binary, DwConv, Eltwise, Sum
from generator.benchdnn.conv import conv_problem
from generator.benchdnn.conv import ConvCase, parse_conv_args, parse_conv_batch_file, parse_conv_desc, parse_conv_list_file

BENCHDNN = Path("/work/shared/benchdnn")
CONV_DIR = BENCHDNN / "conv"
LISTS = BENCHDNN / "lists"
DATA = Path(__file__).parent / "data" / "conv"

needs_inputs = pytest.mark.skipif(not CONV_DIR.is_dir(), reason="benchdnn inputs not present")

# How many cases each oneDNN shapes file expands to with the default options: one per descriptor
# (cross-checked below against an independent word count). shapes_fastrcnn_p3 is all comments;
# the 49 of shapes_mem_strided carry --strides, the only ones with an `unsupported` reason.
EXPECTED = {
    "shapes_1d": 31, "shapes_1d_wavenet": 13, "shapes_1x1": 27, "shapes_3d": 21,
    "shapes_3d_1st_strided_padding": 912, "shapes_3d_1x1_strided_no-padding": 48,
    "shapes_3d_1x1_strided_padding": 48, "shapes_3d_1x1_unit-stride_no-padding": 16,
    "shapes_3d_1x1_unit-stride_padding": 16, "shapes_3d_2d_strided_padding": 264,
    "shapes_3d_gpu": 8, "shapes_3d_i3d": 50, "shapes_3d_resnext101": 36,
    "shapes_3d_strided_no-padding": 192, "shapes_3d_strided_padding": 480, "shapes_3d_unet": 8,
    "shapes_3d_unit-stride_no-padding": 64, "shapes_3d_unit-stride_padding": 160,
    "shapes_4bit": 12, "shapes_a3c": 2, "shapes_alexnet": 5, "shapes_auto": 2, "shapes_basic": 54,
    "shapes_ci_gpu": 19, "shapes_cosmictagger": 23, "shapes_deepbench_inference_device": 16,
    "shapes_deepbench_inference_server": 107, "shapes_deepbench_training": 94,
    "shapes_densnet": 36, "shapes_dilated": 42, "shapes_dilated_1d_1st_strided_padding": 800,
    "shapes_dilated_1d_strided_no-padding": 2640, "shapes_dilated_1d_strided_padding": 324,
    "shapes_dilated_1d_unit-stride_no-padding": 660, "shapes_dilated_1d_unit-stride_padding": 2640,
    "shapes_dilated_2d_1st_strided_padding": 3360, "shapes_dilated_2d_strided_no-padding": 192,
    "shapes_dilated_2d_strided_padding": 672, "shapes_dilated_2d_unit-stride_no-padding": 275,
    "shapes_dilated_2d_unit-stride_padding": 576, "shapes_dilated_3d_strided_no-padding": 2640,
    "shapes_dilated_3d_strided_padding": 360, "shapes_dilated_3d_unit-stride_no-padding": 660,
    "shapes_dilated_3d_unit-stride_padding": 2640, "shapes_dilated_rfcn": 1,
    "shapes_dw_1d_stride_no-padding": 340, "shapes_dw_1d_unit-stride_no-padding": 85,
    "shapes_dw_1d_unit-stride_padding": 374, "shapes_dw_2d_1d_strided_padding": 676,
    "shapes_dw_2d_strided_no-padding": 630, "shapes_dw_2d_strided_padding": 1944,
    "shapes_dw_2d_unit-stride_no-padding": 1045, "shapes_dw_2d_unit-stride_padding": 672,
    "shapes_dw_3d_strided_no-padding": 630, "shapes_dw_3d_strided_padding": 1944,
    "shapes_dw_3d_unit-stride_no-padding": 1045, "shapes_dw_3d_unit-stride_padding": 672,
    "shapes_dw_minibatch_2d-spatial": 1440, "shapes_dw_minibatch_channel_2d-spatial": 1320,
    "shapes_efficientdet": 68, "shapes_fastrcnn_p1": 22, "shapes_fastrcnn_p2": 5,
    "shapes_fastrcnn_p3": 0, "shapes_ffn": 3, "shapes_fused_large_src": 1,
    "shapes_fused_mobilenet_stride_1": 11, "shapes_fused_mobilenet_stride_2": 8, "shapes_gemm": 22,
    "shapes_googlenet_v1": 51, "shapes_googlenet_v2": 40, "shapes_googlenet_v3": 43,
    "shapes_large_conv": 6, "shapes_large_padding": 6, "shapes_maskrcnn_p1": 41,
    "shapes_maskrcnn_p2": 5, "shapes_mem_strided": 49, "shapes_mobilenet": 11,
    "shapes_mobilenet_dw": 9, "shapes_movinet_dw": 10, "shapes_perf_basic": 15,
    "shapes_pointnet": 8, "shapes_regression_1x1": 21, "shapes_regression_dw": 45,
    "shapes_regression_gemm": 2, "shapes_regression_padding": 21,
    "shapes_regression_small_spatial": 58, "shapes_resnet_50": 20, "shapes_resnet_50_sparse": 26,
    "shapes_resnet_50_v1_5": 23, "shapes_resnext_101": 24, "shapes_segnet": 4,
    "shapes_src-transpose_padding": 224, "shapes_ssd_300_voc0712": 31, "shapes_ssd_mobilenet": 38,
    "shapes_ssd_resnet34_inference": 30, "shapes_ssd_resnet34_training": 30,
    "shapes_stable_diffusion": 45, "shapes_tails": 70, "shapes_tails_gpu": 18, "shapes_unet": 13,
    "shapes_vgg_11": 10, "shapes_vgg_19": 9, "shapes_vit": 1, "shapes_x3d_dw": 13,
    "shapes_xception": 21, "shapes_yolov2": 14,
}
TOTAL_SHAPES = 35308
EXPECTED_LISTS = {"smoke.txt": 46, "full.txt": 2998}


def cases(*argv: str, **kw) -> list[ConvCase]:
    return list(parse_conv_args(list(argv), **kw))


def one(*argv: str, **kw) -> ConvCase:
    (c,) = cases(*argv, **kw)
    return c


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def read_table(name: str) -> list[list[str]]:
    rows = []
    for line in (DATA / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        rows.append(line.split("\t"))
    return rows


def one_line_error(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg and msg, msg
    return msg


# ---------------------------------------------------------------------------------------------
# The real oneDNN inputs: every shapes file and both lists parse to the end
# ---------------------------------------------------------------------------------------------

def shape_key(d: ConvDesc) -> tuple:
    return (d.g, d.mb, d.ic, d.oc, d.ndims, d.spatial())


@pytest.fixture(scope="module")
def file_cases() -> dict[str, list[ConvCase]]:
    return {p.name: list(parse_conv_batch_file(p)) for p in sorted(CONV_DIR.glob("shapes_*"))}


@pytest.fixture(scope="module")
def index_rows() -> list[tuple[dict[str, str], ConvDesc]]:
    with open(LISTS / "conv_index.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r, parse_conv_desc(r["descriptor"])) for r in rows]


@needs_inputs
def test_every_shapes_file_parses_to_the_end(file_cases):
    assert len(file_cases) == 106
    counts = {name: len(cs) for name, cs in file_cases.items()}
    assert counts == EXPECTED
    assert sum(counts.values()) == TOTAL_SHAPES
    unsupported = {name: sum(1 for c in cs if c.unsupported) for name, cs in file_cases.items()}
    assert {k: v for k, v in unsupported.items() if v} == {"shapes_mem_strided": 49}
    assert all(r.startswith("--strides=") for c in file_cases["shapes_mem_strided"] for r in c.unsupported)


@needs_inputs
def test_counts_match_an_independent_word_count(file_cases):
    # One case per descriptor word: words that are neither comments nor options.
    for name, cs in file_cases.items():
        words = [w for line in (CONV_DIR / name).read_text().splitlines()
                 for w in line.split("#", 1)[0].split() if not w.startswith("--")]
        assert len(words) == len(cs), name


@needs_inputs
@pytest.mark.parametrize("name", sorted(EXPECTED_LISTS))
def test_lists_parse_to_the_end(name):
    cs = list(parse_conv_list_file(LISTS / name))
    assert len(cs) == EXPECTED_LISTS[name]
    assert not [c for c in cs if c.unsupported]
    if name == "smoke.txt":       # a cross-section: 1D, 2D and 3D, plain, grouped and depthwise
        assert {c.desc.ndims for c in cs} == {3, 4, 5}
        assert {c.desc.g == 1 for c in cs} == {True, False} and any(c.desc.is_depthwise for c in cs)


@needs_inputs
def test_round_trip_of_every_problem(file_cases):
    descs = {c.desc for cs in file_cases.values() for c in cs}
    assert len(descs) == 34142          # the index's 34141 + resnet_50:conv1 written with and without g1
    for n, d in enumerate(descs):
        text = str(d)
        back = parse_conv_desc(text)
        assert back == d, text
        assert back.name == d.name
        assert str(back) == text
        if n % 8 == 0:      # --canonical=true always writes g: only has_groups may come back different
            assert shape_key(parse_conv_desc(d.format(canonical=True))) == shape_key(d), text


@needs_inputs
def test_index_agrees_with_the_derived_values(index_rows, file_cases):
    """lists/conv_index.tsv: every unique problem (name not compared) with derived features."""
    # The index keeps one row per shape; it does not tell `g1` from no `g` (has_groups).
    from_files = {shape_key(c.desc) for cs in file_cases.values() for c in cs}
    assert {shape_key(d) for _, d in index_rows} == from_files
    assert len(index_rows) == len(from_files) == 34141
    for r, d in index_rows:
        sp = d.spatial()
        pads = [(s.p, s.p_r) for s in sp]
        if any(pr < 0 for _, pr in pads):
            pad = "neg"
        elif all(p == pr == 0 for p, pr in pads):
            pad = "none"
        else:
            pad = "sym" if all(p == pr for p, pr in pads) else "asym"
        group = ("g1" if d.g == 1 else "dw" if d.is_depthwise else "dw-mult" if d.g == d.ic
                 else "grouped")
        got = {"ndims": d.ndims, "mb": d.mb, "g": d.g, "ic": d.ic, "oc": d.oc, "flops": d.flops(),
               "max_elems": max(d.nelems(t) for t in ("src", "wei", "dst")), "group": group,
               "pad": pad, "strided": int(any(s.s > 1 for s in sp)),
               "dilated": int(any(s.d > 0 for s in sp))}
        want = {k: (r[k] if k in ("group", "pad") else int(r[k])) for k in got}
        assert got == want, r["descriptor"]


@needs_inputs
def test_derived_negative_right_padding_in_the_inputs(file_cases):
    # Names such as "..._pd-back(-1)" / "..._pw-right(-1)" state the right padding benchdnn derives.
    import re
    seen = 0
    for cs in file_cases.values():
        for c in cs:
            m = re.search(r"_p([dhw])-(?:back|bottom|right)\((-?[0-9]+)\)", c.name)
            if m:
                seen += 1
                assert getattr(c.desc, f"p{m.group(1)}_r") == int(m.group(2)), c.name
    assert seen > 100


# ---------------------------------------------------------------------------------------------
# Printing: benchdnn's operator<<, checked by hand and against benchdnn's own output
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("row", read_table("printed.tsv"), ids=lambda r: r[0][:40])
def test_printed_form(row):
    text, short, canonical, _why = row
    d = parse_conv_desc(text)
    assert str(d) == short
    if canonical != "-":
        assert d.format(canonical=True) == canonical
    assert parse_conv_desc(short) == d


@pytest.mark.parametrize("row", read_table("benchdnn_output.tsv"), ids=lambda r: r[3])
def test_matches_what_benchdnn_printed(row):
    argv, repro, gops, _source = row
    c = one(*argv.split(" "))
    assert c.repro_args() == repro.split(" ")
    if gops != "-":
        assert f"{c.desc.benchdnn_flops() / 1e9:.6g}" == gops


def test_print_rules_in_short():
    d = parse_conv_desc("mb2_ic3ih5oc4kh3")
    assert "mb" not in str(d) and "g" not in str(d) and "sh" not in str(d) and "dh" not in str(d)
    assert str(parse_conv_desc("g1ic3ih5oc4kh3")).startswith("g1ic3")
    assert str(parse_conv_desc("ic3ih5oc4kh3")).endswith("ph0")          # padding always
    assert parse_conv_desc('ic3iw5oc4kw3n"a b"').name == "a b"


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------

def test_output_size_worked_examples():
    assert output_size(5, 3) == 3
    assert output_size(5, 3, 2, 1) == 3                      # (5-3+2)/2+1
    assert output_size(224, 7, 2, 3) == 112                  # resnet conv1
    assert output_size(10, 3, 1, 0, 0, 1) == 6               # dilation 1: extent 5
    assert output_size(43, 7, 2, 5, -1, 3) == 12             # extent 6*4+1 = 25, right padding -1
    assert output_size(56, 3, 2, 0, 1) == 28                 # asymmetric padding
    assert output_size(2, 5, 4, 0, 0) == 1                   # C division: (2-5)/4 = 0, not -1
    assert output_size(2, 5, 2, 0, 0) == 0


def test_padding_worked_examples():
    assert derive_padding(56, 56, 3) == 1
    assert derive_padding(28, 56, 3, 2) == 0                 # (54-56+3)/2 = 0
    assert right_padding(56, 28, 3, 2, 0) == 1
    assert derive_padding(5, 10, 3) == -1                    # -3/2 truncates to -1 (floor: -2)
    assert right_padding(43, 12, 7, 2, 5, 3) == -1
    assert derive_padding(10, 10, 3, 1, 1) == 2              # dilated "same" padding
    assert right_padding(10, 10, 3, 1, 2, 1) == 2


def test_derived_values_of_a_descriptor():
    d = parse_conv_desc("mb1_ic16oc16_iw43ow12kw7sw2pw5dw3")
    (w,) = d.spatial()
    assert (w.axis, w.i, w.o, w.k, w.s, w.p, w.p_r, w.d, w.extent) == ("w", 43, 12, 7, 2, 5, -1, 3, 25)
    d = parse_conv_desc("ic3ih56oc4oh28kh3sh2")              # padding derived from the output
    assert (d.ph, d.ph_r, d.pw, d.pw_r) == (0, 1, 0, 1)
    d = parse_conv_desc("ic3ih10oc4oh10kh3dh1")              # dilated, output given
    assert (d.oh, d.ph, d.ph_r) == (10, 2, 2)
    d = parse_conv_desc("ic1iw2oc1kw5sw4")
    assert (d.ow, d.pw, d.pw_r) == (1, 0, 3)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3), st.lists(st.tuples(st.integers(1, 20), st.integers(1, 5), st.integers(1, 4),
                                              st.integers(0, 3), st.integers(0, 2), st.booleans()),
                                    min_size=3, max_size=3))
def test_round_trip_and_consistency_of_random_descriptors(nsp, dims):
    """Any descriptor benchdnn accepts prints to a form that parses back to it, and its output size
    is what the arithmetic gives with both paddings."""
    parts = ["mb3ic4oc6g2"]
    for (i, k, s, p, dil, give_out), a in zip(dims[:nsp], "dhw"[3 - nsp:]):
        parts.append(f"i{a}{i}k{a}{k}s{a}{s}p{a}{p}d{a}{dil}")
        if give_out:
            parts.append(f"o{a}{max(1, output_size(i, k, s, p, p, dil))}")
    text = "_".join(parts)
    try:
        d = parse_conv_desc(text)
    except ProblemError as e:
        assert "\n" not in str(e)
        return
    assert d.ndims == nsp + 2
    assert parse_conv_desc(str(d)) == d
    for sp in d.spatial():
        assert output_size(sp.i, sp.k, sp.s, sp.p, sp.p_r, sp.d) == sp.o
        assert sp.p >= 0 and sp.p_r + sp.s > 0


def _brute_taps(d: ConvDesc) -> int:
    n = 0
    sp = d.spatial()
    for o in itertools.product(*(range(s.o) for s in sp)):
        for k in itertools.product(*(range(s.k) for s in sp)):
            n += all(0 <= oo * s.s - s.p + kk * (s.d + 1) < s.i for oo, kk, s in zip(o, k, sp))
    return n


@pytest.mark.parametrize("text", ["ic2ih5oc2kh3ph1", "ic2iw9oc2kw3pw2dw1sw2", "ic2id4oc2kd3pd1sd2",
                                  "ic2ih7iw5oc2kh3kw2ph2pw0sh3", "ic4iw300oc2kw3pw1dw1"])
def test_benchdnn_flops_skips_padding_taps(text):
    d = parse_conv_desc(text)
    assert d.benchdnn_flops() == 2 * d.mb * d.oc * d.ic // d.g * _brute_taps(d)
    assert d.flops() == 2 * d.macs() >= d.benchdnn_flops()


def test_benchdnn_flops_quirk_when_the_kernel_exceeds_the_output():
    # count_ops: sp_lower = ow - (extent - 1) = 1 - 4 < 0 makes its error estimate negative, so
    # benchdnn takes the dense estimate (5 taps) although only 2 taps read the input.
    d = parse_conv_desc("ic1iw2oc1kw5sw4")
    assert _brute_taps(d) == 2
    assert d.benchdnn_flops() == d.flops() == 2 * 2 * 5


# ---------------------------------------------------------------------------------------------
# Rejected descriptors
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("row", read_table("malformed.tsv"), ids=lambda r: r[2])
def test_malformed_descriptor(row):
    text, fragment, _why = row
    with pytest.raises(ProblemError) as e:
        parse_conv_desc(text)
    msg = one_line_error(e)
    assert fragment in msg
    assert msg.startswith(f"bad conv descriptor {text!r}")


def test_at_least_a_dozen_malformed_cases():
    assert len(read_table("malformed.tsv")) >= 12


def test_a_bad_descriptor_on_the_command_line_names_its_place():
    with pytest.raises(ProblemError, match=r"'oc' was not specified.*\(at argument 2\)"):
        cases("--dt=f32", "ic3ih5kh3")


def test_a_bad_descriptor_in_a_batch_file_names_its_line(tmp_path):
    f = write(tmp_path / "b.txt", "# shapes\nic3ih5oc4kh3\n\nic3ih5oc4kh3ic9\n")
    with pytest.raises(ProblemError, match=r"given twice.*b\.txt:4"):
        list(parse_conv_batch_file(f))


# ---------------------------------------------------------------------------------------------
# ConvDesc as an object
# ---------------------------------------------------------------------------------------------

def test_logical_dims_1d_2d_3d_and_groups():
    d = parse_conv_desc("mb2ic4oc6iw9kw3")
    assert (d.src_dims, d.wei_dims, d.dst_dims, d.bia_dims) == ((2, 4, 9), (6, 4, 3), (2, 6, 7), (6,))
    d = parse_conv_desc("g2mb1ic4oc6ih9iw8kh3kw2")
    assert d.src_dims == (1, 4, 9, 8) and d.dst_dims == (1, 6, 7, 7)
    assert d.wei_dims == (2, 3, 2, 3, 2) == d.wei_dims_grouped
    d = parse_conv_desc("g1ic4oc6ih9kh3")                     # g written: grouped weights, G = 1
    assert d.wei_dims == (1, 6, 4, 3, 3)
    assert parse_conv_desc("ic4oc6ih9kh3").wei_dims == (6, 4, 3, 3)
    assert parse_conv_desc("ic4oc6ih9kh3").wei_dims_grouped == (1, 6, 4, 3, 3)
    d = parse_conv_desc("ic4oc6id5ih6iw7kd1kh2kw3")
    assert d.src_dims == (2, 4, 5, 6, 7) and d.dst_dims == (2, 6, 5, 5, 5)
    assert d.wei_dims == (6, 4, 1, 2, 3)
    assert [s.axis for s in d.spatial()] == ["d", "h", "w"]
    assert d.kstrides == (1, 1, 1) and d.dilations == (0, 0, 0) and d.padding_r == (0, 0, 0)
    assert parse_conv_desc("g32ic32oc32ih8kh3").is_depthwise


def test_unused_dims_hold_the_defaults():
    d = parse_conv_desc("ic3iw5oc4kw3")
    assert (d.id, d.ih, d.od, d.oh, d.kd, d.kh, d.sd, d.sh, d.pd, d.ph, d.dd, d.dh) == \
        (1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0)
    assert (d.pd_r, d.ph_r) == (0, 0)


def test_direct_construction_and_validation():
    d = ConvDesc(ic=3, oc=4, ndims=4, ih=5, iw=5, oh=3, ow=3, kh=3, kw=3, name="x")
    assert d == parse_conv_desc("ic3ih5oc4kh3") and str(d) == 'ic3ih5oc4oh3kh3ph0n"x"'
    assert d.ph_r == 0
    assert hash(d) == hash(parse_conv_desc('ic3ih5oc4kh3n"other"'))   # the name is a label
    assert d.with_mb(8).mb == 8 and d.with_mb(8).src_dims == (8, 3, 5, 5)
    for bad, fragment in [
        (dict(ndims=4, id=5), "id=5 but dimension d is unused"),
        (dict(ndims=6), "ndims=6"),
        (dict(ndims=4, ic=3.0), "is not an integer"),
        (dict(ndims=4, g=2, ic=4, oc=4, ih=5, iw=5, oh=3, ow=3, kh=3, kw=3, ph=-1), "left padding ph=-1"),
        (dict(ndims=4, ih=5, iw=5, oh=3, ow=0, kh=3, kw=3), "ow=0 must be positive"),
    ]:
        kw = dict(ic=3, oc=4, ih=5, iw=5, oh=3, ow=3, kh=3, kw=3) | bad
        with pytest.raises(ProblemError) as e:
            ConvDesc(**kw)
        assert fragment in one_line_error(e)


def test_frozen():
    d = parse_conv_desc("ic3ih5oc4kh3")
    with pytest.raises(AttributeError):
        d.ic = 5  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# The driver: options, scoping, batch files
# ---------------------------------------------------------------------------------------------

def test_defaults():
    c = one("ic3ih5oc4kh3")
    assert (c.dir, c.dt, c.bia_dt, c.stag, c.wtag, c.dtag, c.alg, c.post_ops, c.mb) == \
        ("FWD_B", ("f32",) * 3, "f32", "abx", "abx", "abx", "direct", (), 0)    # plain unless `any` is written
    assert c.supported and c.knobs == () and c.extras == ()
    assert c.repro() == "ic3ih5oc4oh3kh3ph0"


def test_options_apply_to_the_problems_after_them_and_reset():
    cs = cases("ic3ih5oc4kh3", "--dt=f16", "--stag=axb", "ic3ih5oc4kh3", "ic3ih5oc4kh3", "--reset",
               "ic3ih5oc4kh3")
    assert [(c.dt[0], c.stag) for c in cs] == [("f32", "abx"), ("f16", "axb"), ("f16", "axb"),
                                               ("f32", "abx")]


def test_comma_alternatives_cross_product_in_benchdnn_order():
    cs = cases("--mb=0,1", "--dt=f32,bf16", "--dir=FWD_B,FWD_D", "ic3ih5oc4kh3")
    got = [(c.dir, c.dt[0], c.desc.mb) for c in cs]
    assert got == [(d, t, m) for d in ("FWD_B", "FWD_D") for t in ("f32", "bf16") for m in (2, 1)]


def test_empty_value_restores_the_default():
    assert one("--dt=f16", "--dt=", "ic3ih5oc4kh3").dt == ("f32",) * 3


def test_dt_forms_and_legacy_cfg():
    assert one("--dt=u8:s8:s32", "ic3ih5oc4kh3").dt == ("u8", "s8", "s32")
    assert one("--dt=bf16", "ic3ih5oc4kh3").dt == ("bf16",) * 3
    assert one("--cfg=u8s8s32", "ic3ih5oc4kh3").dt == ("u8", "s8", "s32")
    assert one("--cfg=bf16bf16f32", "ic3ih5oc4kh3").dt == ("bf16", "bf16", "f32")
    assert one("--cfg=f32_wino", "ic3ih5oc4kh3").dt == ("f32",) * 3
    assert one("--dt=s8:s8:s32", "ic3ih5oc4kh3").supported
    assert one("--dt=u8:s8:s32", "ic3ih5oc4kh3").supported
    assert one("--dt=f32:bf16:f32", "ic3ih5oc4kh3").supported
    assert one("--dt=f64", "ic3ih5oc4kh3").unsupported == ("--dt=f64", "--bia-dt=f64")   # a type kgen lacks
    for bad, fragment in [("--dt=f32:f32", "has 2 data types"), ("--dt=f33", "unknown data type"),
                          ("--dt=f32:s8:f32", "f32:s8:f32 are not implemented"),
                          ("--cfg=u8s8", "unknown configuration")]:
        with pytest.raises(ProblemError) as e:
            cases(bad, "ic3ih5oc4kh3")
        assert fragment in one_line_error(e)


def test_alg_spellings():
    algs = [one(f"--alg={a}", "ic3ih5oc4kh3").alg for a in
            ("DIRECT", "WINO", "AUTO", "convolution_wino", "winograd", "Im2Col", "spatial_pack",
             "indirect")]
    assert algs == ["direct", "winograd", "auto", "winograd", "winograd", "im2col", "spatial_pack",
                    "indirect"]
    with pytest.raises(ProblemError, match="unknown algorithm 'fft'"):
        cases("--alg=fft", "ic3ih5oc4kh3")


def test_mb_override():
    c = one("--mb=7", 'mb1ic3ih5oc4kh3n"x"')
    assert c.desc.mb == 7 and c.mb == 7 and c.desc.src_dims[0] == 7
    assert c.repro() == "'mb7ic3ih5oc4oh3kh3ph0n\"x\"'"            # benchdnn prints no --mb
    assert one(*shlex.split(c.repro())) == c
    assert one("--mb=0", "mb1ic3ih5oc4kh3").desc.mb == 1


def test_directions_and_bias():
    assert one("--dir=fwd_i", "ic3ih5oc4kh3").dir == "FWD_I"
    assert one("--dir=FWD_D", "ic3ih5oc4kh3").bia_dt is None
    c = one("--dir=FWD_D", "--bia-dt=f32", "ic3ih5oc4kh3")
    assert c.with_bias and c.repro().startswith("--dir=FWD_D --bia-dt=f32 ")
    assert one("--bia-dt=bf16", "ic3ih5oc4kh3").bia_dt == "f32"        # FWD_B: always f32 (benchdnn)
    for d in ("BWD_D", "BWD_W", "BWD_WB", "BWD_DW"):
        assert one(f"--dir={d}", "ic3ih5oc4kh3").unsupported == (f"--dir={d}",)
    with pytest.raises(ProblemError, match="unknown direction 'SIDEWAYS'"):
        cases("--dir=SIDEWAYS", "ic3ih5oc4kh3")


def test_post_ops():
    assert one("--attr-post-ops=relu", "ic3ih5oc4kh3").post_ops == ("relu",)
    assert one("--attr-post-ops=eltwise_relu:0:0", "ic3ih5oc4kh3").post_ops == ("relu",)
    c = one("--attr-post-ops=relu:0.5+sum:0.25+add:f32+tanh:0:0:2.5", "ic3ih5oc4kh3")
    assert c.post_ops == ("relu:0.5", "sum:0.25", "add:f32", "tanh:0:0:2.5")
    assert c.supported
    assert conv_problem(c).post_ops == (Eltwise("relu", 0.5), Sum(0.25), Binary("add", "f32", "per_tensor"),
                                        Eltwise("tanh", 0, 0, 2.5))
    # a post-op's text keeps every digit of its numbers, exponents too (a network's sum scale)
    for op in (Sum(0.010976394638419151, 3), Sum(2e-10), Eltwise("relu", 2e-10), Eltwise("clip", 0.0, 6.0)):
        assert conv_problem(one("--dt=u8:s8:u8", f"--attr-post-ops={op}", "ic3ih5oc4kh3")).post_ops == (op,)
    c = one("--attr-post-ops=dw_k3s2p1:u8+add:f32:5", "ic3ih5oc4kh3")     # mask 5: n and h, not c
    assert c.supported and c.post_ops == ("dw:k3s2p1:u8", "add:f32:5")
    assert conv_problem(c).post_ops == (DwConv(3, 2, 1, "u8"), Binary("add", "f32", "5"))
    assert conv_problem(c).output.dims == (2, 4, 2, 2)                  # ceil(3 / 2) per spatial dim
    assert [x.post_ops for x in cases("--attr-post-ops=,relu", "ic3ih5oc4kh3")] == [(), ("relu",)]
    for bad, fragment in [("--attr-post-ops=frobnicate", "unknown post-op kind 'frobnicate'"),
                          ("--attr-post-ops=relu+", "empty '+' entry"),
                          ("--attr-post-ops=relu:x", "takes [:ALPHA[:BETA[:SCALE]]] numbers"),
                          ("--attr-post-ops=relu:1:2:3:4", "takes [:ALPHA[:BETA[:SCALE]]] numbers"),
                          ("--attr-post-ops=add", "needs the data type of its second input"),
                          ("--attr-post-ops=add:f32:per_nothing", "unknown mask 'per_nothing'"),
                          ("--attr-post-ops=sum:x", "sum scale 'x' is not a number"),
                          ("--attr-post-ops=sum:1:0.5", "sum zero point '0.5' is not an integer"),
                          ("--attr-post-ops=sum:1:0:undef", "sum data type 'undef' is invalid"),
                          ("--attr-post-ops=prelu:per_oc:x", "too many fields")]:
        with pytest.raises(ProblemError) as e:
            cases(bad, "ic3ih5oc4kh3")
        assert fragment in one_line_error(e)


def test_unimplemented_knobs_are_carried_and_listed():
    c = one("--attr-scales=src:common:2", "--attr-zero-points=src:common:1", "--attr-fpmath=bf16",
            "--impl=ref", "--attr-acc-mode=strict", "ic3ih5oc4kh3")
    assert c.knobs == (("attr-fpmath", "bf16"), ("impl", "ref"))
    assert [str(q) for q in c.scales] == ["src:common:2"] and [str(q) for q in c.zero_points] == ["src:common:1"]
    # --impl changes nothing (one implementation per kernel); the scale and zero point are modelled
    assert c.unsupported == ("--attr-fpmath=bf16",)
    assert c.knob("attr-fpmath") == "bf16"
    assert one(*shlex.split(c.repro())) == c
    c = one("--attr-scales=src:per_oc+wei:per_oc:bf16", "--attr-zero-points=wei:per_dim_1", "ic3ih5oc4kh3")
    assert c.unsupported == ("--attr-scales=src:per_oc", "--attr-scales=wei:per_oc:bf16",
                             "--attr-zero-points=wei:per_dim_1")


def test_harness_knobs_are_ignored():
    c = one("--engine=cpu", "-v5", "--ctx-init=2", "--attr-scratchpad=user", "--canonical=true",
            "--allow-enum-tags-only=false", "--fix-times-per-prb=10", "ic3ih5oc4kh3")
    assert c == one("ic3ih5oc4kh3")


def test_strides():
    c = one("--strides=60x1x12x3::", "ic3ih5iw4oc4kh3kw3")
    assert c.knob("strides") == "60x1x12x3::" and c.unsupported == ("--strides=60x1x12x3::",)
    with pytest.raises(ProblemError, match="expected SRC:WEI:DST"):
        cases("--strides=1x2:3x4", "ic3ih5oc4kh3")
    with pytest.raises(ProblemError, match="both describe the src tensor"):
        cases("--stag=axb", "--strides=60x1x12x3::", "ic3ih5iw4oc4kh3kw3")
    with pytest.raises(ProblemError, match="have 3 values"):
        cases("--strides=60x1x12::", "ic3ih5iw4oc4kh3kw3")


def test_extras_are_global_and_validated():
    cs = cases("--backend=vulkan", "--src=a.npy", "--mode=p", "ic3ih5oc4kh3", "--reset", "--dst=b.npy",
               "ic3ih5oc4kh3")
    assert cs[0].extras == (("backend", "vulkan"), ("src", "a.npy"), ("mode", "P"))
    assert cs[1].extra("backend") == "vulkan" and cs[1].extra("dst") == "b.npy"
    assert cs[1].repro() == "--backend=vulkan --src=a.npy --dst=b.npy --mode=P ic3ih5oc4oh3kh3ph0"
    with pytest.raises(ProblemError, match="bad value for '--mode'"):
        cases("--mode=Q", "ic3ih5oc4kh3")


def test_unknown_options_are_named():
    with pytest.raises(ProblemError) as e:
        cases("--attr-postops=relu", "ic3ih5oc4kh3")
    msg = one_line_error(e)
    assert "'--attr-postops'" in msg and "did you mean '--attr-post-ops'" in msg
    with pytest.raises(ProblemError, match="only the conv driver"):
        cases("--reorder", "2x3")
    with pytest.raises(ProblemError, match="needs a value"):
        cases("--dt", "ic3ih5oc4kh3")
    with pytest.raises(ProblemError, match="takes no value"):
        cases("--reset=1")
    with pytest.raises(ProblemError, match="bad format tag"):
        cases("--wtag=a-b", "ic3ih5oc4kh3")
    assert one("--conv", "ic3ih5oc4kh3") == one("ic3ih5oc4kh3")


def test_match_and_start():
    argv = ["ic3ih5oc4kh3", "ic3ih7oc4kh3", "ic3ih9oc4kh3"]
    assert [c.desc.ih for c in cases("--match=ih[79]", *argv)] == [7, 9]
    assert [c.desc.ih for c in cases("--start=1", *argv)] == [7, 9]


def test_repro_round_trip():
    for c in cases("--dir=FWD_D,FWD_I", "--dt=f16,s8:s8:s32", "--stag=axb", "--wtag=any,ABcd16a16b",
                   "--alg=im2col", "--attr-post-ops=,relu", "--mb=0,3", "--backend=cpu",
                   "--bia-dt=undef,f32", 'g2mb1ic4ih5oc6kh3sh2n"name with spaces"', "ic3id4oc4kd3"):
        back = one(*shlex.split(c.repro()))
        assert back == c and back.desc.name == c.desc.name


def test_weight_from_the_name():
    assert one('ic3ih5oc4kh3n"resnet_50:res2a_branch2b*3"').occurrences == 3
    assert one("ic3ih5oc4kh3").occurrences == 1


def test_nested_batch_comments_and_continuation(tmp_path):
    write(tmp_path / "sub" / "inner", "# inner file\n--dt=bf16 ic3ih5oc4kh3  # trailing comment\n"
                                      "--attr-post-ops=relu,\\\n  sum\n ic3ih7oc4kh3\n")
    outer = write(tmp_path / "outer", "--reset --stag=axb\n--batch=sub/inner\nic3ih9oc4kh3\n")
    cs = list(parse_conv_batch_file(outer))
    assert [(c.desc.ih, c.dt[0], c.stag, c.post_ops) for c in cs] == [
        (5, "bf16", "axb", ()), (7, "bf16", "axb", ("relu",)), (7, "bf16", "axb", ("sum",)),
        (9, "bf16", "axb", ("relu",)), (9, "bf16", "axb", ("sum",))]   # inner settings persist


def test_batch_file_lookup_and_errors(tmp_path):
    write(tmp_path / "shapes", "ic3ih5oc4kh3\n")
    assert len(cases("--batch=shapes", cwd=tmp_path)) == 1
    with pytest.raises(ProblemError, match="batch file not found: nope"):
        cases("--batch=nope", cwd=tmp_path)
    with pytest.raises(ProblemError, match="batch file not found"):
        parse_conv_batch_file(tmp_path / "missing")
    loop = write(tmp_path / "loop", "--batch=loop\n")
    with pytest.raises(ProblemError, match="includes itself"):
        list(parse_conv_batch_file(loop))


def test_list_file_lines_are_independent(tmp_path):
    lst = write(tmp_path / "list.txt", "--dt=f16 --backend=x ic3ih5oc4kh3\n\n# c\nic3ih5oc4kh3\n")
    cs = list(parse_conv_list_file(lst))
    assert [(c.dt[0], c.extras) for c in cs] == [("f16", (("backend", "x"),)), ("f32", ())]
    with pytest.raises(ProblemError, match="list file not found"):
        parse_conv_list_file(tmp_path / "nope.txt")
