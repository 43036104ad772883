"""Convolution math: the float64 reference (generator/problem/reference.py), Winograd matrices and
index tables (generator/problem/conv_math.py).

Every reference is checked against independent implementations written here: a naive loop that
evaluates the definition one output element at a time, and a "tap" loop nest that slides one
kernel tap at a time over a generously zero-margined copy of the input (no shared code with the
module). With PyTorch installed, ``torch.nn.functional.conv{1,2,3}d`` is a third opinion. Data are
small integers, so every non-Winograd path is compared for exact equality (float64 sums of integers
far below 2**53 do not round); Winograd is exact in Fraction arithmetic and within a tolerance in
float64.

The problem matrix is data (CASES): benchdnn-like descriptors covering 1D/2D/3D, groups (depthwise
and depthwise with multiplier), strides, oneDNN dilation (0 = dense), asymmetric and negative
padding, 1x1 kernels, kernel == input and a crop that swallows a whole axis. The seed is fixed
(SEED) so failures reproduce; every assertion message prints it with the case.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from generator.errors import ProblemError, UnsupportedError
from generator.problem.conv_math import (
    im2col_indices, indirect_offsets, winograd_matrices, winograd_matrices_exact, winograd_points,
    winograd_tiles)
from generator.problem.reference import conv_reference, pad_spatial

SEED = 20240611

# mb N, g groups, ic/oc channels, i input spatial, k kernel, s strides, d oneDNN dilation,
# pl/pr left/right pads (negative = crop); spatial values are 'x'-separated, one per axis.
CASES = """
# 1D
mb2 ic3 oc4 i9 k3
g3 ic6 oc9 i11 k3 s2 d1 pl2 pr1
g4 ic4 oc4 i8 k5 pl2 pr2                       # depthwise
ic2 oc3 i10 k4 s3 pl-2 pr1                     # negative left pad
ic2 oc3 i11 k3 s2 pr-3                         # negative right pad: tail tiles overrun it
ic2 oc2 i5 k1 s2                               # 1x1, strided
# 2D
mb2 ic4 oc6 i7x6 k3x3 pl1x1 pr1x1
g2 ic4 oc6 i7x6 k3x2 s2x1 d1x0 pl1x0 pr-1x2
g8 ic8 oc8 i6x7 k3x3 s2x2 pl1x1 pr1x1          # depthwise, strided
g4 ic4 oc8 i9x8 k3x3 d2x1 pl2x0 pr0x3          # depthwise, multiplier 2, dilated
ic3 oc5 i8x9 k2x4 s3x2 pl-1x2 pr-2x-1          # negative pads on both sides
mb2 ic5 oc3 i6x7 k1x1 s2x2                     # 1x1, strided
g3 ic6 oc3 i5x5 k3x3 pl1x2 pr2x1               # asymmetric pads
mb3 ic2 oc2 i5x4 k5x4                          # kernel == input: 1x1 output
ic2 oc3 i3x4 k3x3 pl-5x1 pr10x1                # crop past the input: H reads padding only
ic2 oc2 i4x13 k2x3 s1x4 d0x2 pl0x3 pr1x0
# 3D
ic2 oc3 i5x4x6 k3x2x3 s1x2x1 d0x1x0 pl1x0x1 pr0x1x-1
g2 ic4 oc4 i4x5x4 k2x3x2 s2x1x2 pl0x1x1 pr1x1x0
g3 ic3 oc6 i5x5x5 k3x3x3 d1x0x0 pl2x1x1 pr2x1x1  # depthwise x2, dilated
"""


def parse_case(line: str) -> dict:
    """'g2 ic4 oc6 i7x6 k3x2 s2x1 ...' -> dict of ints / per-axis tuples, with defaults."""
    import re
    out = {"mb": 1, "g": 1}
    spatial = {}
    for tok in line.split():
        m = re.fullmatch(r"(mb|g|ic|oc|i|k|s|d|pl|pr)(-?\d+(?:x-?\d+)*)", tok)
        assert m, f"bad token {tok!r} in case {line!r}"
        key, val = m.groups()
        if key in ("mb", "g", "ic", "oc"):
            out[key] = int(val)
        else:
            spatial[key] = tuple(int(v) for v in val.split("x"))
    nsp = len(spatial["i"])
    for key, default in (("s", 1), ("d", 0), ("pl", 0), ("pr", 0)):
        spatial.setdefault(key, (default,) * nsp)
    out.update(spatial)
    out["desc"] = line
    return out


def _case_lines(text):
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            yield line


CASE_LIST = [parse_case(line) for line in _case_lines(CASES)]
CASE_IDS = [c["desc"].replace(" ", "_") for c in CASE_LIST]


def conv_kwargs(c: dict) -> dict:
    return dict(groups=c["g"], strides=c["s"], pads_l=c["pl"], pads_r=c["pr"], dilations=c["d"])


def make_data(c: dict, rng, *, lo=-3, hi=4, bias=True):
    """Integer-valued float64 src, wei and (optionally) bia for case ``c``."""
    src = rng.integers(lo, hi, size=(c["mb"], c["ic"]) + c["i"]).astype(np.float64)
    wei = rng.integers(lo, hi, size=(c["oc"], c["ic"] // c["g"]) + c["k"]).astype(np.float64)
    bia = rng.integers(lo, hi, size=(c["oc"],)).astype(np.float64) if bias else None
    return src, wei, bia


def case_rng(seed: int, idx: int):
    return np.random.default_rng([seed, idx])


# ---------------------------------------------------------------------------------------------
# Independent implementations
# ---------------------------------------------------------------------------------------------

def out_dims(c: dict) -> tuple[int, ...]:
    return tuple((i - ((k - 1) * (d + 1) + 1) + l + r) // s + 1
                 for i, k, s, d, l, r in zip(c["i"], c["k"], c["s"], c["d"], c["pl"], c["pr"]))


def naive_conv(src, wei, bia, c, post_relu=False):
    """The definition, one output element and one tap at a time (dot over the group's channels)."""
    n_, ic = src.shape[:2]
    oc, icg = wei.shape[:2]
    ocg = oc // c["g"]
    odims = out_dims(c)
    out = np.zeros((n_, oc) + odims)
    for n, o_c in itertools.product(range(n_), range(oc)):
        g = o_c // ocg
        for o in itertools.product(*map(range, odims)):
            acc = 0.0
            for k in itertools.product(*map(range, c["k"])):
                pos = tuple(oo * s + kk * (d + 1) - l
                            for oo, kk, s, d, l in zip(o, k, c["s"], c["d"], c["pl"]))
                if all(0 <= p < i for p, i in zip(pos, c["i"])):
                    acc += float(np.dot(wei[(o_c, slice(None)) + k],
                                        src[(n, slice(g * icg, (g + 1) * icg)) + pos]))
            if bia is not None:
                acc += bia[o_c]
            out[(n, o_c) + o] = max(acc, 0.0) if post_relu else acc
    return out


def margin_pad(src, c):
    """Zero-pad/crop by embedding the input in a buffer with a margin wider than any pad or kernel."""
    nsp = src.ndim - 2
    margin = max(max(abs(v) for v in c["pl"] + c["pr"]), 0) + max(c["i"]) + 8
    buf = np.zeros(src.shape[:2] + tuple(i + 2 * margin for i in src.shape[2:]))
    buf[(slice(None), slice(None)) + tuple(slice(margin, margin + i) for i in src.shape[2:])] = src
    # padded coordinate p maps to input p - pl, i.e. buffer p - pl + margin
    return buf[(slice(None), slice(None)) + tuple(
        slice(margin - l, margin + i + r) for i, l, r in zip(src.shape[2:], c["pl"], c["pr"]))], nsp


def tap_conv(src, wei, bia, c):
    """Direct loop nest over taps: out += W[:, :, k] x (strided slice of the padded input at k)."""
    padded, nsp = margin_pad(src, c)
    odims = out_dims(c)
    n_ = src.shape[0]
    oc, icg = wei.shape[:2]
    ocg = oc // c["g"]
    out = np.zeros((n_, oc) + odims)
    for k in itertools.product(*map(range, c["k"])):
        sl = tuple(slice(kk * (d + 1), kk * (d + 1) + (o - 1) * s + 1, s)
                   for kk, d, o, s in zip(k, c["d"], odims, c["s"]))
        window = padded[(slice(None), slice(None)) + sl]                 # (N, IC, *O)
        for g in range(c["g"]):
            w = wei[(slice(g * ocg, (g + 1) * ocg), slice(None)) + k]    # (OCg, ICg)
            x = window[:, g * icg:(g + 1) * icg]
            out[:, g * ocg:(g + 1) * ocg] += np.tensordot(w, x, axes=([1], [1])).swapaxes(0, 1)
    if bia is not None:
        out += bia.reshape((1, -1) + (1,) * nsp)
    return out


def valid_corr_1d(d, g):
    m = len(d) - len(g) + 1
    return [sum(d[i + k] * g[k] for k in range(len(g))) for i in range(m)]


def valid_corr_2d(d, g):
    r0, r1 = len(g), len(g[0])
    m0, m1 = len(d) - r0 + 1, len(d[0]) - r1 + 1
    return [[sum(d[i + a][j + b] * g[a][b] for a in range(r0) for b in range(r1))
             for j in range(m1)] for i in range(m0)]


def fr(rows):
    """Nested lists of ints/strings -> object array of Fractions."""
    return np.array([[Fraction(v) for v in row] for row in rows], dtype=object)


# ---------------------------------------------------------------------------------------------
# Padding
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pl,pr", [((0, 0), (0, 0)), ((2, 1), (0, 3)), ((-1, 2), (1, -2)),
                                   ((-5, 0), (10, 0)), ((3, -4), (-3, 4)), ((-2, -2), (-2, -1))])
def test_pad_spatial(seed, pl, pr):
    rng = np.random.default_rng(seed)
    x = rng.integers(-9, 10, size=(2, 3, 4, 5)).astype(np.float64)
    c = {"pl": pl, "pr": pr, "i": (4, 5)}
    expected, _ = margin_pad(x, c)
    got = pad_spatial(x, pl, pr)
    assert got.shape == (2, 3, 4 + pl[0] + pr[0], 5 + pl[1] + pr[1]), f"seed={seed}"
    assert np.array_equal(got, expected), f"seed={seed} pl={pl} pr={pr}"


# ---------------------------------------------------------------------------------------------
# Direct reference
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("idx", range(len(CASE_LIST)), ids=CASE_IDS)
def test_conv_reference_vs_naive_and_taps(seed, idx):
    c = CASE_LIST[idx]
    src, wei, bia = make_data(c, case_rng(seed, idx))
    msg = f"seed={seed} case='{c['desc']}'"
    got = conv_reference(src, wei, bia, **conv_kwargs(c))
    assert got.dtype == np.float64 and got.shape == (c["mb"], c["oc"]) + out_dims(c), msg
    assert np.array_equal(got, naive_conv(src, wei, bia, c)), msg
    assert np.array_equal(got, tap_conv(src, wei, bia, c)), msg
    relu = conv_reference(src, wei, bia, post_relu=True, **conv_kwargs(c))
    assert np.array_equal(relu, naive_conv(src, wei, bia, c, post_relu=True)), msg
    nobias = conv_reference(src, wei, **conv_kwargs(c))
    assert np.array_equal(nobias, tap_conv(src, wei, None, c)), msg


@pytest.mark.parametrize("cols_bytes", [1, 3000])
def test_conv_reference_in_slabs(seed, cols_bytes, monkeypatch):
    # the im2col columns come in slabs of output rows (one row, or a few, instead of the whole image):
    # the same numbers as the naive loop on every case
    import generator.problem.reference as reference

    monkeypatch.setattr(reference, "_COLS_BYTES", cols_bytes)
    for idx, c in enumerate(CASE_LIST):
        src, wei, bia = make_data(c, case_rng(seed, idx))
        got = conv_reference(src, wei, bia, **conv_kwargs(c))
        assert np.array_equal(got, naive_conv(src, wei, bia, c)), f"seed={seed} case='{c['desc']}'"


def test_conv_reference_vs_torch(seed):
    torch = pytest.importorskip("torch")
    fn = {1: torch.nn.functional.conv1d, 2: torch.nn.functional.conv2d,
          3: torch.nn.functional.conv3d}
    for idx, c in enumerate(CASE_LIST):
        src, wei, bia = make_data(c, case_rng(seed, idx))
        padded, nsp = margin_pad(src, c)
        expected = fn[nsp](torch.from_numpy(np.ascontiguousarray(padded)), torch.from_numpy(wei),
                           torch.from_numpy(bia), stride=c["s"], padding=0,
                           dilation=tuple(d + 1 for d in c["d"]), groups=c["g"]).numpy()
        got = conv_reference(src, wei, bia, **conv_kwargs(c))
        assert np.array_equal(got, expected), f"seed={seed} case='{c['desc']}'"


# ResNet-50 layers at batch 1 (conv1, the 3x3s of each stage, a stride-2 projection, a 1x1 expand):
# checks that the reference is fast at real sizes and agrees with the tap loop there too.
RESNET50 = """
ic3 oc64 i224x224 k7x7 s2x2 pl3x3 pr3x3
ic64 oc64 i56x56 k3x3 pl1x1 pr1x1
ic128 oc128 i28x28 k3x3 pl1x1 pr1x1
ic256 oc512 i56x56 k1x1 s2x2
ic256 oc256 i14x14 k3x3 pl1x1 pr1x1
ic512 oc2048 i7x7 k1x1
ic512 oc512 i7x7 k3x3 pl1x1 pr1x1
"""


@pytest.mark.parametrize("line", list(_case_lines(RESNET50)))
def test_conv_reference_resnet50_layers(seed, line):
    c = parse_case(line)
    rng = np.random.default_rng(seed)
    src, wei, bia = make_data(c, rng, lo=-2, hi=3)
    got = conv_reference(src, wei, bia, **conv_kwargs(c))
    assert np.array_equal(got, tap_conv(src, wei, bia, c)), f"seed={seed} case='{line}'"


@pytest.mark.parametrize("kwargs,src_shape,wei_shape,match", [
    (dict(groups=3), (1, 4, 5, 5), (6, 1, 3, 3), "groups=3"),
    (dict(groups=2), (1, 4, 5, 5), (6, 3, 3, 3), "dim 1 is 3"),
    (dict(), (1, 4, 5, 5), (6, 4, 3), "rank"),
    (dict(), (1, 4), (6, 4), "src shape"),
    (dict(), (1, 2, 2, 2), (3, 2, 3, 3), "output size"),
    (dict(strides=(1, 0)), (1, 2, 5, 5), (3, 2, 3, 3), "strides"),
    (dict(dilations=-1), (1, 2, 5, 5), (3, 2, 3, 3), "dilation"),
    (dict(pads_l=(1, 1, 1)), (1, 2, 5, 5), (3, 2, 3, 3), "pads_l"),
])
def test_conv_reference_rejects_bad_problems(kwargs, src_shape, wei_shape, match):
    with pytest.raises(ProblemError, match=match):
        conv_reference(np.zeros(src_shape), np.zeros(wei_shape), **kwargs)


def test_conv_reference_rejects_bad_bias():
    with pytest.raises(ProblemError, match="bia shape"):
        conv_reference(np.zeros((1, 2, 5, 5)), np.zeros((3, 2, 3, 3)), np.zeros(2))


# ---------------------------------------------------------------------------------------------
# Winograd matrices
# ---------------------------------------------------------------------------------------------

# Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks" (2016), F(2x2,3x3) and F(4x4,3x3)
PAPER = {
    (2, 3): dict(
        BT=[[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]],
        G=[[1, 0, 0], ["1/2", "1/2", "1/2"], ["1/2", "-1/2", "1/2"], [0, 0, 1]],
        AT=[[1, 1, 1, 0], [0, 1, -1, -1]]),
    (4, 3): dict(
        BT=[[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0], [0, -2, -1, 2, 1, 0],
            [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]],
        G=[["1/4", 0, 0], ["-1/6", "-1/6", "-1/6"], ["-1/6", "1/6", "-1/6"],
           ["1/24", "1/12", "1/6"], ["1/24", "-1/12", "1/6"], [0, 0, 1]],
        AT=[[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1]]),
}

# wincnn README (andravin/wincnn, showCookToomFilter with points (0,1,-1), (0,1,-1,2,-2) and
# (0,1,-1,2,-2,1/2,-1/2)); the F(6,3) BT is also IREE's LinalgExt BT_6x6_3x3.
WINCNN = {
    (2, 3): dict(
        BT=[[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, -1, 0, 1]],
        G=PAPER[(2, 3)]["G"],
        AT=[[1, 1, 1, 0], [0, 1, -1, 1]]),
    (4, 3): PAPER[(4, 3)],
    (6, 3): dict(
        BT=[[1, 0, "-21/4", 0, "21/4", 0, -1, 0],
            [0, 1, 1, "-17/4", "-17/4", 1, 1, 0],
            [0, -1, 1, "17/4", "-17/4", -1, 1, 0],
            [0, "1/2", "1/4", "-5/2", "-5/4", 2, 1, 0],
            [0, "-1/2", "1/4", "5/2", "-5/4", -2, 1, 0],
            [0, 2, 4, "-5/2", -5, "1/2", 1, 0],
            [0, -2, 4, "5/2", -5, "-1/2", 1, 0],
            [0, -1, 0, "21/4", 0, "-21/4", 0, 1]],
        G=[[1, 0, 0], ["-2/9", "-2/9", "-2/9"], ["-2/9", "2/9", "-2/9"], ["1/90", "1/45", "2/45"],
           ["1/90", "-1/45", "2/45"], ["32/45", "16/45", "8/45"], ["32/45", "-16/45", "8/45"],
           [0, 0, 1]],
        AT=[[1, 1, 1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, "1/2", "-1/2", 0],
            [0, 1, 1, 4, 4, "1/4", "1/4", 0], [0, 1, -1, 8, -8, "1/8", "-1/8", 0],
            [0, 1, 1, 16, 16, "1/16", "1/16", 0], [0, 1, -1, 32, -32, "1/32", "-1/32", 1]]),
}


def assert_tables(got, want, what):
    at, g, bt = got
    for name, arr in (("AT", at), ("G", g), ("BT", bt)):
        exp = fr(want[name])
        assert arr.shape == exp.shape and (arr == exp).all(), f"{what} {name}:\n{arr}\nexpected\n{exp}"


@pytest.mark.parametrize("mr", sorted(PAPER))
def test_winograd_default_is_lavin_gray(mr):
    assert_tables(winograd_matrices_exact(*mr), PAPER[mr], f"F{mr} default")
    at, g, bt = winograd_matrices(*mr)
    assert at.dtype == g.dtype == bt.dtype == np.float64
    for arr, name in ((at, "AT"), (g, "G"), (bt, "BT")):
        assert np.array_equal(arr, fr(PAPER[mr][name]).astype(np.float64)), f"F{mr} float {name}"


@pytest.mark.parametrize("mr", sorted(WINCNN))
def test_winograd_wincnn_convention(mr):
    assert_tables(winograd_matrices_exact(*mr, convention="wincnn"), WINCNN[mr], f"F{mr} wincnn")


def test_winograd_f63_lavin_flips_only_the_infinity_sign():
    at_l, g_l, bt_l = winograd_matrices_exact(6, 3)
    at_w, g_w, bt_w = winograd_matrices_exact(6, 3, convention="wincnn")
    assert (g_l == g_w).all() and (bt_l[:-1] == bt_w[:-1]).all() and (at_l[:, :-1] == at_w[:, :-1]).all()
    assert (bt_l[-1] == -bt_w[-1]).all() and (at_l[:, -1] == -at_w[:, -1]).all()


WINOGRAD_SIZES = [(2, 3), (4, 3), (6, 3), (2, 5), (4, 5), (3, 2), (1, 3), (3, 1), (2, 7), (8, 3)]


@pytest.mark.parametrize("mr", WINOGRAD_SIZES, ids=lambda mr: f"F{mr[0]}_{mr[1]}")
@pytest.mark.parametrize("convention", ["lavin", "wincnn"])
def test_winograd_1d_exact(seed, mr, convention):
    m, r = mr
    at, g, bt = winograd_matrices_exact(m, r, convention=convention)
    assert at.shape == (m, m + r - 1) and g.shape == (m + r - 1, r) and bt.shape == (m + r - 1,) * 2
    rng = np.random.default_rng([seed, m, r])
    for trial in range(5):
        d = [Fraction(int(v)) for v in rng.integers(-9, 10, m + r - 1)]
        w = [Fraction(int(v)) for v in rng.integers(-9, 10, r)]
        y = at.dot(g.dot(np.array(w, dtype=object)) * bt.dot(np.array(d, dtype=object)))
        assert list(y) == valid_corr_1d(d, w), f"seed={seed} F({m},{r}) {convention} trial={trial}"


@pytest.mark.parametrize("mr", WINOGRAD_SIZES, ids=lambda mr: f"F{mr[0]}_{mr[1]}")
def test_winograd_1d_float(seed, mr):
    m, r = mr
    at, g, bt = winograd_matrices(m, r)
    exact = winograd_matrices_exact(m, r)
    for arr, ex in zip((at, g, bt), exact):
        assert np.array_equal(arr, ex.astype(np.float64))
    rng = np.random.default_rng([seed, m, r])
    d = rng.standard_normal((m + r - 1, 64))
    w = rng.standard_normal((r, 64))
    y = at @ ((g @ w) * (bt @ d))
    ref = np.stack([np.einsum("ik,ik->k", d[i:i + r], w) for i in range(m)])
    np.testing.assert_allclose(y, ref, rtol=1e-9, atol=1e-9, err_msg=f"seed={seed} F({m},{r})")


@pytest.mark.parametrize("mr", [(2, 3), (4, 3), (6, 3), (2, 5)], ids=lambda mr: f"F{mr[0]}_{mr[1]}")
def test_winograd_2d_nesting_exact(seed, mr):
    """Y = AT [(G g G^T) * (BT d B)] A equals the 2D valid correlation, exactly."""
    m, r = mr
    at, g, bt = winograd_matrices_exact(m, r)
    a = m + r - 1
    rng = np.random.default_rng([seed, m, r, 2])
    d = np.array([[Fraction(int(v)) for v in row] for row in rng.integers(-5, 6, (a, a))], dtype=object)
    w = np.array([[Fraction(int(v)) for v in row] for row in rng.integers(-5, 6, (r, r))], dtype=object)
    u = g.dot(w).dot(g.T)
    v = bt.dot(d).dot(bt.T)
    y = at.dot(u * v).dot(at.T)
    assert y.tolist() == valid_corr_2d(d.tolist(), w.tolist()), f"seed={seed} F({m}x{m},{r}x{r})"


def test_winograd_2d_nesting_rectangular(seed):
    """F(2,3) along rows nested with F(2,5) along columns: a 2x2 output of a 3x5 kernel."""
    at0, g0, bt0 = winograd_matrices_exact(2, 3)
    at1, g1, bt1 = winograd_matrices_exact(2, 5)
    rng = np.random.default_rng([seed, 35])
    d = np.array([[Fraction(int(v)) for v in row] for row in rng.integers(-5, 6, (4, 6))], dtype=object)
    w = np.array([[Fraction(int(v)) for v in row] for row in rng.integers(-5, 6, (3, 5))], dtype=object)
    y = at0.dot(g0.dot(w).dot(g1.T) * bt0.dot(d).dot(bt1.T)).dot(at1.T)
    assert y.tolist() == valid_corr_2d(d.tolist(), w.tolist()), f"seed={seed}"


@pytest.mark.parametrize("points", [(0, -1, 1), (1, -1, "1/2"), (0, 1, -1, 3, -3), ("1/3", 2, -2, 0, 1)])
def test_winograd_custom_points(seed, points):
    m = len(points) - 1
    at, g, bt = winograd_matrices_exact(m, 3, points)
    rng = np.random.default_rng([seed, len(points)])
    d = [Fraction(int(v)) for v in rng.integers(-9, 10, m + 2)]
    w = [Fraction(int(v)) for v in rng.integers(-9, 10, 3)]
    y = at.dot(g.dot(np.array(w, dtype=object)) * bt.dot(np.array(d, dtype=object)))
    assert list(y) == valid_corr_1d(d, w), f"seed={seed} points={points}"
    assert (at[:, : m + 1][1] == np.array([Fraction(p) for p in points], dtype=object)).all()


def test_winograd_bad_arguments():
    with pytest.raises(ProblemError, match="needs m\\+r-2 = 3"):
        winograd_matrices(2, 3, points=(0, 1))
    with pytest.raises(ProblemError, match="not distinct"):
        winograd_matrices(2, 3, points=(0, 1, 1))
    with pytest.raises(ProblemError, match="convention"):
        winograd_matrices(2, 3, convention="nnpack")
    with pytest.raises(ProblemError, match="not rational"):
        winograd_matrices(2, 3, points=(0, 1, "x"))
    with pytest.raises(ProblemError, match="not rational"):
        winograd_matrices(2, 3, points=(0, 1, float("inf")))
    with pytest.raises(UnsupportedError, match="pass points"):
        winograd_matrices(16, 3)
    assert winograd_points(6, 3) == tuple(Fraction(p) for p in (0, 1, -1, 2, -2, "1/2", "-1/2"))


def test_winograd_tiles():
    assert winograd_tiles(56, 2, 3) == (28, 58)
    assert winograd_tiles(56, 6, 3) == (10, 62)
    assert winograd_tiles(7, 4, 3) == (2, 10)
    assert winograd_tiles(1, 6, 3) == (1, 8)


# ---------------------------------------------------------------------------------------------
# Indirection buffer and im2col
# ---------------------------------------------------------------------------------------------

def test_indirect_offsets_worked_example():
    """3x3 input, 3x3 kernel, pad 1: the centre pixel sees the whole input, a corner sees 4 pixels."""
    t = indirect_offsets((3, 3), (3, 3), 1, 1, 1, 0)
    assert t.dtype == np.int32 and t.shape == (9, 9)
    assert t[4].tolist() == list(range(9))
    assert t[0].tolist() == [9, 9, 9, 9, 0, 1, 9, 3, 4]
    assert t[8].tolist() == [4, 5, 9, 7, 8, 9, 9, 9, 9]
    # stride 2, no pad, 1D: output o reads 2*o + k
    assert indirect_offsets((7,), (3,), 2, 0, 0, 0).tolist() == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
    # negative left pad and dilation: o reads o + 2k + 1
    assert indirect_offsets((6,), (2,), 1, -1, 0, 1).tolist() == [[1, 3], [2, 4], [3, 5]]


@pytest.mark.parametrize("idx", range(len(CASE_LIST)), ids=CASE_IDS)
def test_indirect_offsets_brute_force(idx):
    c = CASE_LIST[idx]
    t = indirect_offsets(c["i"], c["k"], c["s"], c["pl"], c["pr"], c["d"])
    odims, ivol = out_dims(c), math.prod(c["i"])
    assert t.dtype == np.int32 and t.shape == (math.prod(odims), math.prod(c["k"])), c["desc"]
    for row, o in enumerate(itertools.product(*map(range, odims))):
        for col, k in enumerate(itertools.product(*map(range, c["k"]))):
            pos = [oo * s + kk * (d + 1) - l for oo, kk, s, d, l in zip(o, k, c["s"], c["d"], c["pl"])]
            inside = all(0 <= p < i for p, i in zip(pos, c["i"]))
            want = int(np.ravel_multi_index(pos, c["i"])) if inside else ivol
            assert t[row, col] == want, f"case='{c['desc']}' o={o} k={k}"


def test_im2col_indices_formula():
    (pos,) = im2col_indices((5,), (3,), 2, 1, 1, 0)
    assert pos.tolist() == [[-1, 0, 1], [1, 2, 3], [3, 4, 5]]
    ph, pw = im2col_indices((6, 7), (2, 3), (1, 2), (0, -1), (0, 0), (2, 0))
    assert ph.shape == (3, 2) and pw.shape == (2, 3)
    assert ph.tolist() == [[0, 3], [1, 4], [2, 5]]
    assert pw.tolist() == [[1, 2, 3], [3, 4, 5]]


def test_float_conversion_beyond_the_range_is_infinity_without_a_warning():
    # a bf16 exp post-op overflows: the reference gives inf, as the kernel does, and prints nothing
    import warnings

    from generator.layout import get_dtype
    from generator.problem.reorder import convert_values

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for dt in ("bf16", "f16"):
            got = convert_values(np.array([1e300, -1e300, 2.0]), get_dtype(dt))
            assert np.isposinf(got[0]) and np.isneginf(got[1]) and got[2] == 2
