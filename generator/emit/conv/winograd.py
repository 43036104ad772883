"""Winograd F(m x m, 3 x 3): the filter transform once in prepare, then input transforms, one GEMM per
transform position and output transforms. Three forms: a generic batched GEMM (GPUs), IREE's batched
mmt4d (CPUs), and on AVX-512 CPUs channels last, vector transforms around brgemm's f32 microkernel."""
from __future__ import annotations

import numpy as np

from ...errors import InternalError
from ...layout import MemoryDesc, get_dtype
from ...problem.attr import RELU
from ...problem.conv import ConvProblem
from ...problem.conv_desc import ConvDesc
from ...problem.conv_math import winograd_matrices, winograd_tiles
from .. import relayout
from ..brgemm_step import StoreEpilogue
from ..relayout import Plan, Value
from ..steps import LinearOp
from ..target import Mmt4dTile, TargetCaps
from .brgemm.kernel import _brgemm_compute
from .brgemm.weights import _brgemm_weights
from .common import _barrier, _channel_block, _out_shape, _window_gather, pad_spatial
from .operands import _widen


WINOGRAD_M = {"winograd": 4, "winograd_f2": 2, "winograd_f4": 4, "winograd_f6": 6}


def _winograd_why_not(p: ConvProblem) -> str | None:
    d = p.desc
    sp = d.spatial()
    if d.ndims != 4:
        return "Winograd is generated for 2D convolutions only"
    if any(s.k != 3 for s in sp):
        return "Winograd F(m, 3) needs a 3x3 kernel"
    if any(s.s != 1 for s in sp):
        return "Winograd needs stride 1"
    if p.acc.is_int:
        return "its transforms have fractional coefficients, so integer data would not stay exact"
    return None


def _winograd_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    if any(s.d != 0 for s in p.desc.spatial()) and not winograd_channels_last(p, target):
        return ("a dilated kernel is computed by Winograd only in its channels-last form (llvm-cpu on an avx512f "
                "CPU, f32 / bf16 / f16, ungrouped or groups of >= 16 channels): use another variant (direct, "
                "im2col; brgemm on CPUs)")
    if target.winograd_f2_one_channel_per_group_wrong and p.alg == "winograd_f2" and p.desc.ic == p.desc.g:
        return ("IREE 3.13 computes Winograd F(2,3) with one input channel per group wrongly on lavapipe "
                "(use winograd_f4 or another variant)")
    if (target.winograd_bf16_wrong and "bf16" in (p.src.dtype.name, p.wei.dtype.name)
            and (p.desc.ic // p.desc.g) % 4):
        return (f"with bf16 operands and input channels per group not a multiple of 4 ({p.desc.ic // p.desc.g}), "
                f"{target.name} computes Winograd wrongly (ic5ih6oc7oh6kh3ph1: nearly every output off): use "
                f"another variant, or f32 or f16 data")
    return None


# Each Winograd transform is one factor of C1 . X . C2^T: iteration dims (the last one reduced), and the
# indices of the constant matrix, of the operand and of the result. `_mmt4d` stages use the packed
# mmt4d operand order (tile columns split t1 * M0 + t0, output channels ob * N0 + o0).
WINOGRAD_TRANSFORMS = {kind: tuple(part.split() for part in spec) for kind, spec in {
    "filter_rows": ("a g oc ic j i", "a i", "g oc ic i j", "a g oc ic j"),
    "filter_cols": ("a b g oc ic j", "b j", "a g oc ic j", "a b g oc ic"),
    "input_rows": ("a j n g ic th tw i", "a i", "i j n g ic th tw", "a j n g ic th tw"),
    "input_cols": ("a b n g ic th tw j", "b j", "a j n g ic th tw", "a b n g ic th tw"),
    "output_rows": ("p b n g oc th tw a", "p a", "a b n g oc th tw", "p b n g oc th tw"),
    "output_cols": ("n g oc th p tw q b", "q b", "p b n g oc th tw", "n g oc th p tw q"),
    "input_rows_mmt4d": ("a j g n th t1 ic t0 i", "a i", "i j g n th t1 ic t0", "a j g n th t1 ic t0"),
    "input_cols_mmt4d": ("a b g n th t1 ic t0 j", "b j", "a j g n th t1 ic t0", "a b g n th t1 ic t0"),
    "output_rows_mmt4d": ("p b g n th t1 ob t0 o0 a", "p a", "a b g n th t1 ob t0 o0", "p b g n th t1 ob t0 o0"),
    "output_cols_mmt4d": ("n g ob o0 th p t1 t0 q b", "q b", "p b g n th t1 ob t0 o0", "n g ob o0 th p t1 t0 q"),
}.items()}


def _transform(plan: Plan, stage: str, x: Value, shape, mat: Value) -> Value:
    dims, mat_idx, inp_idx, out_idx = WINOGRAD_TRANSFORMS[stage]
    return plan.add("wino_transform", x, shape, "f32", mat=mat, dims=dims, mat_idx=mat_idx, inp_idx=inp_idx,
                    out_idx=out_idx)


def _f32_constant(plan: Plan, matrix) -> Value:
    a = np.ascontiguousarray(matrix, "<f4")
    return plan.add("constant", None, a.shape, "f32", hex=a.tobytes().hex().upper())


def _winograd_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """U = G g G^T for every (group, oc, ic), done once in prepare: (alpha, alpha, G, OC/G, IC/G) in f32."""
    m = WINOGRAD_M[p.alg]
    _, g_mat, _ = winograd_matrices(m, 3)
    gm = _f32_constant(plan, g_mat)
    a = m + 2
    rows = _transform(plan, "filter_rows", w, (a,) + w.shape[:3] + (3,), gm)
    u = _transform(plan, "filter_cols", rows, (a, a) + w.shape[:3], gm)    # (a, b, G, OCg, ICg)
    if winograd_channels_last(p, target):
        # packed once as the tile GEMM's grouped 1x1 weights, one group per transform position
        gemm = _winograd_gemm_problem(p)
        icp = gemm.desc.ic // gemm.desc.g
        u = plan.pad(u, [0, 0, 0, 0, icp - u.shape[4]])
        u = plan.collapse(u, [[0, 1, 2], [3], [4]])                             # (a*b, OC, ICp)
        u = plan.expand(u, [[0], [1], [2, 3, 4]], u.shape + (1, 1))
        return _brgemm_weights(plan, u, gemm, target)
    tile = target.mmt4d_tile
    if tile is None:
        return u
    # packed once for the batched mmt4d: (a*b*G, OCg/N0, ICg, N0, 1), OCg zero-padded to whole tiles
    n0 = tile.n0
    g, ocg, icg = w.shape[:3]
    ob = -(-ocg // n0)
    u = plan.pad(u, [0, 0, 0, ob * n0 - ocg, 0])
    u = plan.expand(u, [[0], [1], [2], [3, 4], [5]], (a, a, g, ob, n0, icg))
    u = plan.transpose(u, [0, 1, 2, 3, 5, 4])
    u = plan.collapse(u, [[0, 1, 2], [3], [4], [5]])
    return plan.expand(u, [[0], [1], [2], [3, 4]], (a * a * g, ob, icg, n0, 1))


# relative mmt4d throughput per row tile M0 (N0 = 16, AVX-512; an M0 that is not a power of two runs
# far slower, so none is listed); M0 = 1 assumed to halve M0 = 2's (measured: docs/performance.md,
# Tuned constants)
_MMT4D_M0_RATE = {16: 1.0, 8: 1.0, 4: 0.75, 2: 0.7, 1: 0.35}


def mmt4d_m0(cols: int, max_m0: int = 16) -> int:
    """The mmt4d row tile for `cols` tile columns, at most `max_m0` (the target's `Mmt4dTile`): least
    padded work per throughput (larger on ties)."""
    return min((m0 for m0 in _MMT4D_M0_RATE if m0 <= max_m0),
               key=lambda m0: (-(-cols // m0) * m0 / _MMT4D_M0_RATE[m0], -m0))


def _winograd_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                      epilogue: StoreEpilogue | None = None) -> Value:
    """F(m x m, 3 x 3): input tiles V = BT d B, one batched matmul over IC per (xi, nu), Y = AT M A;
    x is the unpadded source, (N, G, IC/G, IH, IW), or (N, IH, IW, G, IC/G) where the problem takes the
    channels-last form (`winograd_channels_last`)."""
    if winograd_channels_last(p, target):
        return _winograd_compute_channels_last(plan, x, w, p, target, epilogue)
    d = p.desc
    m = WINOGRAD_M[p.alg]
    at, _, bt = winograd_matrices(m, 3)
    (th, eh), (tw, ew) = (winograd_tiles(s.o, m, 3) for s in d.spatial())
    a = m + 2
    x = pad_spatial(plan, x, d.spatial(), [3, 4])                               # (N, G, IC/G, Hp, Wp)
    btc = _f32_constant(plan, bt)
    if target.mmt4d_tile is not None:
        # on the CPU the tile GEMM is a batched mmt4d over operands packed by the transforms themselves
        # (weights in prepare); GPUs keep the generic batched GEMM (IREE's GPU paths do not target mmt4d)
        return _winograd_compute_mmt4d(plan, x, w, p, m, (th, eh), tw, btc, _f32_constant(plan, at),
                                       target.mmt4d_tile)
    x = plan.pad(x, [0, 0, 0, eh - x.shape[3], ew - x.shape[4]])      # zero tail so the last tile is whole
    # the overlapping (m+2)^2 input tiles gathered once, tap indices outermost: the transforms then
    # reduce over a leading dim, which IREE lowers as a small matmul (reducing inside th * m + i it picks
    # a far slower generic reduction); the barrier keeps IREE from fusing the gather back into the
    # first transform, which would bring that slow reduction back
    tiles = _barrier(plan, _window_gather(plan, x, ["i", "j", "n", "g", "ic", "th", "tw"],
                                          ["n", "g", "ic", f"th * {m} + i", f"tw * {m} + j"],
                                          (a, a) + x.shape[:3] + (th, tw), "f32"))
    rows = _transform(plan, "input_rows", tiles, (a, a) + x.shape[:3] + (th, tw), btc)
    v = _transform(plan, "input_cols", rows, (a, a) + x.shape[:3] + (th, tw), btc)
    mm = plan.add("wino_gemm", v, (a, a, d.mb, d.g, d.oc // d.g, th, tw), "f32", wei=w)
    atc = _f32_constant(plan, at)
    rows = _transform(plan, "output_rows", mm, (m, a, d.mb, d.g, d.oc // d.g, th, tw), atc)
    y = _transform(plan, "output_cols", rows, (d.mb, d.g, d.oc // d.g, th, m, tw, m), atc)
    y = plan.collapse(y, [[0], [1], [2], [3, 4], [5, 6]])
    return plan.slice(y, [0] * 5, _out_shape(p))


def _winograd_compute_mmt4d(plan: Plan, x: Value, w: Value, p: ConvProblem, m: int, th_eh, tw: int,
                            btc: Value, atc: Value, tile: Mmt4dTile) -> Value:
    """The CPU form: tile columns padded to whole M0 tiles (t1 * M0 + t0), the input transforms written
    straight into the mmt4d left operand (a*b*G, N*TH*T1, ICg, M0, 1), one batched mmt4d against the
    weights packed in prepare, and the output transforms reading its (.., OB, M0, N0) result."""
    th, eh = th_eh
    a = m + 2
    m0, n0 = mmt4d_m0(tw, tile.max_m0), tile.n0
    t1 = -(-tw // m0)
    x = plan.pad(x, [0, 0, 0, eh - x.shape[3], t1 * m0 * m + 2 - x.shape[4]])
    n, g, icg = x.shape[:3]
    shape = (a, a, g, n, th, t1, icg, m0)
    # as in _winograd_compute, the columns split as t1 * M0 + t0, dims in the mmt4d operand's order
    tiles = _barrier(plan, _window_gather(plan, x, ["i", "j", "g", "n", "th", "t1", "ic", "t0"],
                                          ["n", "g", "ic", f"th * {m} + i", f"(t1 * {m0} + t0) * {m} + j"],
                                          shape, "f32"))
    rows = _transform(plan, "input_rows_mmt4d", tiles, shape, btc)
    v = _transform(plan, "input_cols_mmt4d", rows, shape, btc)
    v = plan.collapse(v, [[0, 1, 2], [3, 4, 5], [6], [7]])
    v = plan.expand(v, [[0], [1], [2], [3, 4]], (a * a * g, n * th * t1, icg, m0, 1))
    ob = w.shape[1]
    mm = plan.add("batch_mmt4d", v, (a * a * g, n * th * t1, ob, m0, n0), "f32", wei=w)
    mm = plan.expand(mm, [[0, 1, 2], [3, 4, 5], [6], [7], [8]], (a, a, g, n, th, t1, ob, m0, n0))
    rows = _transform(plan, "output_rows_mmt4d", mm, (m, a, g, n, th, t1, ob, m0, n0), atc)
    y = _transform(plan, "output_cols_mmt4d", rows, (n, g, ob, n0, th, m, t1, m0, m), atc)
    y = plan.collapse(y, [[0], [1], [2, 3], [4, 5], [6, 7, 8]])
    return plan.slice(y, [0] * 5, _out_shape(p))


# Winograd on AVX-512 CPUs, channels last: the tile transforms are custom dispatches on 16-channel
# vectors (templates/conv_winograd.mlir.j2, `WinogradTiles`) and the tile GEMM is brgemm's f32
# microkernel, one group per transform position. The mmt4d form (`_winograd_compute_mmt4d`: transforms
# as linalg contractions over gathered tiles, IREE's mmt4d ukernel) spends most of its time outside the
# GEMM (measured: docs/performance.md, Tuned constants).
#: the operand types of the channels-last form: bf16 and f16 are widened to f32 exactly (the source
#: as the input transform loads it, or in the dispatch that pads it; the weights by prepare's filter
#: transform), so the form computes in f32 whatever they are, as the other Winograd forms do
WINOGRAD_CL_TYPES = ("f32", "bf16", "f16")


def winograd_channels_last(p: ConvProblem, target: TargetCaps) -> bool:
    """Whether Winograd takes the channels-last form (`_winograd_compute_channels_last`): f32, bf16 or
    f16 on a CPU target with avx512f (brgemm's f32 microkernel), ungrouped or with groups of at least
    16 input and 16 output channels (each group's channels are padded to whole 16-channel vectors,
    which smaller groups would mostly waste). Other problems and targets keep the mmt4d form (CPUs)
    or the generic one (GPUs)."""
    d = p.desc
    whole_groups = d.g == 1 or (d.ic // d.g >= 16 and d.oc // d.g >= 16)
    return (p.alg in WINOGRAD_M and target.mmt4d_tile is not None and "avx512f" in target.cpu_features
            and whole_groups and p.src.dtype.name in WINOGRAD_CL_TYPES and p.wei.dtype.name in WINOGRAD_CL_TYPES)


def _winograd_blocks16(p: ConvProblem, target: TargetCaps, desc: MemoryDesc) -> bool:
    """Whether the channels-last form reads or writes `desc` in its own 16-channel blocks: nChw16c, the
    tag's dense layout (not a view), ungrouped."""
    return (winograd_channels_last(p, target) and p.desc.g == 1 and desc.is_blocked
            and tuple(desc.order) == tuple(range(4)) and relayout.is_canonical(desc) and _channel_block(desc) == 16)


def winograd_src_block(p: ConvProblem, target: TargetCaps) -> int:
    """16 where the channels-last form's input transform reads an nChw16c source in place, each
    16-channel vector one load at [n, ic / 16, ih, iw, 0], with whole blocks only (IC a multiple of
    16: the masked loads of `src_pad` read no padded channel); else 0 (the source is laid out
    channels last first, and the result laid out back)."""
    return 16 if _winograd_blocks16(p, target, p.src) and p.desc.ic % 16 == 0 else 0


def winograd_dst_blocks(p: ConvProblem, target: TargetCaps) -> bool:
    """True where the output transform writes an nChw16c destination's blocks itself, through its
    stores' epilogue (`_winograd_fuses_epilogue`). The lanes past OC hold 0: the GEMM's result is
    cropped to OC and padded with zeros again (so an Inf in the source, times a padded channel's
    zero weights, leaves no NaN there), and a bias padded with zeros and a ReLU keep 0 at 0."""
    return _winograd_blocks16(p, target, p.dst) and _winograd_fuses_epilogue(p, target)


def _winograd_fuses_epilogue(p: ConvProblem, target: TargetCaps) -> bool:
    """The channels-last form's output transform applies the epilogue in its stores where it is an
    f32 bias and / or a ReLU into an f32, bf16 or f16 destination (the inference case): one pass over
    the output fewer. Scales, zero points and other post-ops keep the shared epilogue after it."""
    return (winograd_channels_last(p, target) and not p.scales and not p.zero_points
            and p.post_ops in ((), (RELU,)) and (not p.bias or p.bias_dt == "f32")
            and p.dst.dtype.name in ("f32", "bf16", "f16"))


def _winograd_gemm_problem(p: ConvProblem) -> ConvProblem:
    """The tile GEMM of the channels-last form as the brgemm conv computes it, for one band of tile rows
    (`winograd_bands`): a grouped 1x1 conv over the band's (1, 1, rows * TW) tiles, one group per
    transform position (alpha^2) and conv group (G), position major, each ICp = IC/G padded to 16 ->
    OC/G channels. Prepare packs the weights and every band runs the kernel from this one problem."""
    d = p.desc
    a = WINOGRAD_M[p.alg] + 2
    rows, _ = winograd_bands(p)
    tiles = rows * winograd_grid(p)[1]
    g, icp = a * a * d.g, -(-(d.ic // d.g) // 16) * 16
    desc = ConvDesc(g=g, mb=1, ic=g * icp, oc=g * (d.oc // d.g), ndims=4, ih=1, iw=tiles, oh=1, ow=tiles,
                    has_groups=True)
    f32 = get_dtype("f32")
    return ConvProblem(desc=desc, src=MemoryDesc(desc.src_dims, f32, "nhwc"),
                       wei=MemoryDesc(desc.wei_dims, f32, "goihw"), dst=MemoryDesc(desc.dst_dims, f32, "nhwc"),
                       acc=f32, bias=False, alg="brgemm")


#: the bytes of V and M (the transformed tiles and the GEMM's result, f32) one band of tile rows may
#: take: small enough to stay in cache between the band's transforms and its GEMM, where whole images'
#: stream through memory (measured: docs/performance.md, Tuned constants)
WINOGRAD_BAND_BYTES = 2 << 20


def winograd_grid(p: ConvProblem) -> tuple[int, int, tuple[int, int]]:
    """(TH, TW, (DH, DW)): the channels-last form's tiles per row and column of one phase, and the
    dilations. A kernel dilated by d reads, for the outputs whose row is ph modulo d, only the source
    rows ph - pad modulo d: each of the d x d phases is an undilated 3x3 conv over every d-th source
    row and column (TensorFlow's atrous conv by space-to-batch), with ceil(O / d) outputs per axis.
    The tile transforms address the phases in place; undilated, there is one phase."""
    m = WINOGRAD_M[p.alg]
    sp = p.desc.spatial()
    dil = tuple(s.d + 1 for s in sp)
    th, tw = (winograd_tiles(-(-s.o // k), m, 3)[0] for s, k in zip(sp, dil))
    return th, tw, dil


def winograd_bands(p: ConvProblem) -> tuple[int, int]:
    """(tile rows per band, bands) of the channels-last form: its N * DH * DW * TH tile rows (image,
    then phase major, `winograd_grid`) cut into bands whose V and M fit `WINOGRAD_BAND_BYTES`, or the
    transformed weights where those are larger (every band's GEMM reads all of them; measured:
    docs/performance.md, Tuned constants). Of the band heights from half that size up, the
    one that leaves the fewest rows past the last in the last band (they are computed and not
    stored), then the tallest. Each band runs its input transform, GEMM and output transform before
    the next band's GEMM, so that its V and M are still in cache when they are read."""
    d = p.desc
    a = WINOGRAD_M[p.alg] + 2
    th, tw, (dh, dw) = winograd_grid(p)
    icp, ocp = (-(-(c // d.g) // 16) * 16 for c in (d.ic, d.oc))
    row_bytes = 4 * tw * a * a * d.g * (icp + ocp)
    weight_bytes = 4 * a * a * d.g * icp * ocp
    total = d.mb * dh * dw * th
    most = min(total, max(1, max(WINOGRAD_BAND_BYTES, weight_bytes) // row_bytes))
    rows = min(range(max(1, most // 2), most + 1), key=lambda r: (-(-total // r) * r - total, -r))
    return rows, -(-total // rows)


def winograd_tile_program(left, right) -> dict:
    """Y = L . X . R^T for one tile X (L.shape[1] x R.shape[1] vectors of 16 channels), unrolled into
    16-lane instructions that skip the zero coefficients and add or subtract the +-1 ones: first
    T = L . X by rows, then Y = T . R^T. Returns `WinogradTiles`' consts, ops, loads and stores."""
    consts: dict[float, str] = {}
    ops: list[LinearOp] = []

    def combine(res: str, terms: list[tuple[float, str]]) -> str:
        cur = None
        for k, (c, x) in enumerate(terms):
            name = res if k == len(terms) - 1 else f"{res}_{k}"
            coef = "" if abs(c) == 1 else consts.setdefault(c, f"k{len(consts)}")
            if cur is None:
                if c == 1:
                    cur = x
                    continue
                ops.append(LinearOp(name, "neg" if c == -1 else "mul", x, coef=coef))
            else:
                ops.append(LinearOp(name, {1: "add", -1: "sub"}.get(c, "fma"), x, acc=cur, coef=coef))
            cur = name
        if cur is None:
            raise InternalError(f"a Winograd transform row of zeros ({res})")
        return cur

    left, right = np.asarray(left, np.float32), np.asarray(right, np.float32)
    rows, cols = left.shape[1], right.shape[1]
    loads = [(f"ld{i}_{j}", i, j) for i in range(rows) for j in range(cols)]
    t = {(i, j): combine(f"tr{i}_{j}", [(float(left[i, k]), f"ld{k}_{j}") for k in range(rows) if left[i, k]])
         for i in range(left.shape[0]) for j in range(cols)}
    stores = [(combine(f"out{i}_{q}", [(float(right[q, j]), t[i, j]) for j in range(cols) if right[q, j]]), i, q)
              for i in range(left.shape[0]) for q in range(right.shape[0])]
    return {"consts": [(name, c) for c, name in consts.items()], "ops": ops, "loads": loads, "stores": stores}


def _winograd_compute_channels_last(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                                    epilogue: StoreEpilogue | None = None) -> Value:
    """x (N, IH, IW, G, IC/G), not yet padded -> (N, OH, OW, G, OC/G): V = BT d B per tile and
    16-channel vector (`wino_input`, into the GEMM's grouped source), M = V . U by brgemm (one group per
    transform position and conv group), Y = AT M A (`wino_output`, storing only the output's pixels).
    Each conv group's channels are padded to whole vectors: IC/G with zeros before the input
    transform, OC/G after the GEMM; the padded outputs are cropped at the end. With `epilogue`
    (`_winograd_fuses_epilogue`: a bias, a ReLU) the output transform applies it and stores the
    destination type."""
    d = p.desc
    m = WINOGRAD_M[p.alg]
    a = m + 2
    at, _, bt = winograd_matrices(m, 3)
    oh, ow = (s.o for s in d.spatial())
    th, tw, dil = winograd_grid(p)
    eh, ew = (k * (t * m + 2) for k, t in zip(dil, (th, tw)))   # the padded source the tiles read (all phases)
    gemm = _winograd_gemm_problem(p)
    rows, bands = winograd_bands(p)
    src_block, dst_blocks = winograd_src_block(p, target) != 0, winograd_dst_blocks(p, target)
    if src_block:               # the source's 1-D buffer, read as its packed tensor (N, IC/16, IH, IW, 16)
        x = relayout.buffer_to_packed(plan, x, p.src)
        n, _, ih, iw, _ = x.shape
        g, icg = 1, d.ic
    else:
        n, ih, iw, g, icg = x.shape
    ocg = d.oc // g
    icp, ocp = gemm.desc.ic // gemm.desc.g, -(-ocg // 16) * 16
    if icg == icp:
        # the transform reads the source where it lies (bf16 and f16 widened as they are loaded): a
        # tile's rows and columns outside the rows and columns the conv reads (its padding, the
        # tiles' overhang) load as zeros
        hs, ws = d.spatial()
        src_pad = [hs.p, ws.p, min(ih, oh + 2 * (hs.d + 1) - hs.p), min(iw, ow + 2 * (ws.d + 1) - ws.p)]
    else:
        # else one dispatch widens and pads it: the conv's padding, zero rows and columns to whole
        # tiles, zero channels to whole vectors (the transform's loads are whole vectors)
        src_pad = None
        x = pad_spatial(plan, x, d.spatial(), [1, 2])
        if p.src.dtype.name != "f32":
            x = _widen(plan, x, p.src.dtype, "f32")
        x = plan.pad(x, [0, eh - x.shape[1], ew - x.shape[2], 0, icp - icg])
    if not src_block:
        x = plan.collapse(x, [[0], [1], [2], [3, 4]])                          # (N, H, W, G*ICp)
    bias = epilogue.bias if epilogue else None
    if bias is not None:        # per channel of the transform's (G, OCp) vectors
        bias = plan.collapse(plan.pad(plan.expand(bias, [[0, 1]], (g, ocg)), [0, ocp - ocg]), [[0, 1]])
    input_program, output_program = winograd_tile_program(bt, bt), winograd_tile_program(at, at)
    banded = bands > 1
    y, prev, exes = None, x, {}
    for band in range(bands):
        # band after band: the input transform waits for the previous band's GEMM (`after`), the
        # output transform writes the band's pixels into the output in place (`dst_init`)
        v = plan.add("wino_input", x, (1, rows, tw, a * a * g * icp), "f32", m=m, alpha=a, tiles=(th, tw),
                     dilations=dil, valid=(0, 0), src_pad=src_pad, src_block=src_block, row0=band * rows,
                     rows=rows, banded=banded, after=prev if banded else None, shared_exe=exes.get("in", ""),
                     **input_program)
        v = plan.expand(plan.collapse(v, [[0], [1, 2], [3]]), [[0], [1, 2], [3, 4]], (1, 1, rows * tw, a * a * g, icp))
        mm = _brgemm_compute(plan, v, w, gemm, target, shared_exe=exes.get("mm", ""))  # (1, 1, T, a*a*G, OC/G)
        prev = _last_step(plan, "brgemm").out       # the dispatch's own result, before any crop
        mm = plan.pad(mm, [0, 0, 0, 0, ocp - ocg])
        mm = plan.expand(plan.collapse(mm, [[0], [1, 2], [3, 4]]), [[0], [1, 2], [3]], (1, rows, tw, a * a * g * ocp))
        y_shape = (n, ocp // 16, oh, ow, 16) if dst_blocks else (n, oh, ow, g * ocp)
        y = plan.add("wino_output", mm, y_shape, epilogue.dst_dt.mlir if epilogue else "f32", m=m,
                     alpha=a, tiles=(th, tw), dilations=dil, valid=(oh, ow), src_pad=None, bias=bias,
                     relu=bool(epilogue and epilogue.relu), dst_blocks=dst_blocks, row0=band * rows, rows=rows,
                     banded=banded, dst_init=y, shared_exe=exes.get("out", ""), **output_program)
        if not exes:            # the first band's executables serve the others
            exes = {"in": _last_step(plan, "wino_input").dispatched, "mm": _last_step(plan, "brgemm").dispatched,
                    "out": _last_step(plan, "wino_output").dispatched}
    if dst_blocks:              # the destination's packed tensor (N, OC/16, OH, OW, 16): the caller's buffer
        return y
    y = plan.expand(y, [[0], [1], [2], [3, 4]], (n, oh, ow, g, ocp))
    return plan.slice(y, [0] * 5, (n, oh, ow, g, ocg))


def _last_step(plan: Plan, kind: str):
    return next(st for st in reversed(plan.steps) if st.kind == kind)
