"""brgemm's compute step: the source padded, shifted or widened as the microkernel needs, then one
`brgemm` step (templates/brgemm/dispatch.mlir.j2) whose result is cropped back to the real channels."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from ....problem.conv import ConvProblem
from ... import relayout
from ...brgemm_step import BrgemmDepth, BrgemmGeometry, BrgemmKernel, BrgemmStore, StoreEpilogue
from ...relayout import Plan, Value
from ...target import TargetCaps
from ..operands import _widen
from .blocking import AMX_PIXELS, _fold_groups, brgemm_blocking, brgemm_channels, brgemm_fold_taps
from .fusion import _brgemm_src_view, brgemm_dst_blocks, brgemm_lanes_pretransposed, brgemm_src_block
from .isa import brgemm_depthwise, brgemm_isa, brgemm_lane_dot, brgemm_lane_groups


def brgemm_packs_int8_stores(epilogue: StoreEpilogue | None, dst_blocks: bool, oc_real: int, lane_zipped: bool,
                             target: TargetCaps) -> bool:
    """Whether brgemm narrows each 4 (or 2) channel vectors of a pixel together
    (`BrgemmStore.pack_int8_stores`): a u8 or s8 destination, channels last with whole vectors (they lie
    side by side and none is masked), on AVX-512 BW's packs (every CPU with avx512_vnni has them). Small
    groups across the lanes store theirs interleaved (`lane_zip`), one vector at a time."""
    return (epilogue is not None and epilogue.dst_dt.name in ("u8", "s8") and not dst_blocks and not oc_real
            and not lane_zipped and "avx512_vnni" in target.cpu_features)


def amx_unit_stride(p: ConvProblem) -> bool:
    """Whether brgemm_amx computes a strided 1x1 convolution on its source subsampled first (oneDNN's
    rtus, "reduce to unit stride"): the (OH, OW) pixels it reads, one strided copy of a quarter of the
    source at stride 2, then a 1x1 convolution of stride 1 as one run of pixels (`amx_flat_pixels`).
    Row by row, where OW is not whole 32-pixel blocks, each row's last block would read the source
    padded on the right: a copy of all of it. 2D and 3D (the depth's stride is the images' own), no
    spatial padding, not a source read in its own blocks."""
    d = p.desc
    if p.alg != "brgemm_amx" or d.ndims < 4 or brgemm_src_block(p):
        return False
    h, w = d.spatial()[-2:]
    return (h.k == w.k == 1 and (h.s > 1 or w.s > 1) and h.p == w.p == 0 and h.p_r <= 0 and w.p_r <= 0
            and w.o % AMX_PIXELS != 0)


def amx_flat_pixels(p: ConvProblem) -> bool:
    """Whether brgemm_amx computes the output as one run of pixels over the padded source's rows
    instead of row by row (`BrgemmGeometry.flat`): a 2D or 3D convolution with stride 1 along its
    rows and columns whose rows are not whole 32-pixel blocks (3D: a run per plane, the depth folded
    into the images). In channels last a pixel's neighbour in the next row is IWp pixels further
    (IWp: the padded source's width), so output pixel j of the run (row j // IWp, column j % IWp) reads
    tap (kh, kw) at flat pixel j + kh x IWp + kw, one stride for every tile row: the run is cut into
    blocks of 32 whatever the rows, and the IWp - OW columns a row past the real ones are computed and
    not stored (each tile row goes to its own pixel of the destination, or nowhere). Row by row, each
    row is computed to whole blocks: ResNet-50's 7x7 3x3 layer 32 pixels for 7 a row (224 for 49),
    flat 63 in 2 blocks (64); 14x14 448 for 196, flat 224; a 1x1 layer of 56 x 56 98 blocks, none
    padded, where row by row each would take 64 and the source be padded to them (a copy). A strided 1x1
    convolution runs so on its subsampled source (`amx_unit_stride`). Not for a source read in its own
    blocks."""
    d = p.desc
    if p.alg != "brgemm_amx" or d.ndims < 4 or d.ow % AMX_PIXELS == 0 or brgemm_src_block(p):
        return False
    return (d.sh == 1 and d.sw == 1) or amx_unit_stride(p)


def amx_run_width(p: ConvProblem) -> int:
    """IWp of brgemm_amx's run of pixels (`amx_flat_pixels`): the padded source's width, a row of the run
    (a strided 1x1 conv's subsampled source: OW, `amx_unit_stride`)."""
    w = p.desc.spatial()[-1]
    return w.o if amx_unit_stride(p) else max(w.p, 0) + w.i - max(-w.p, 0) + max(w.p_r, 0)


def amx_run_unpadded(p: ConvProblem) -> bool:
    """Whether brgemm_amx's run of pixels (`amx_flat_pixels`) reads a source with nothing padded: a 1x1
    convolution without spatial padding (a strided one on its subsampled source) whose run is at least
    one 32-pixel block. Its last block then ends at the run's end, over pixels the block before
    computed already (`BrgemmGeometry.run_end`), instead of past the source, which would be padded
    below for it: a copy of all of it (ResNet-50's 1x1 layers at 28x28, 14x14 and 7x7)."""
    d = p.desc
    sp = d.spatial()
    return (amx_flat_pixels(p) and all(a.k == 1 and a.p == 0 and a.p_r <= 0 for a in sp)
            and d.oh * d.ow >= AMX_PIXELS)


def _brgemm_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                    extra: Value | None = None, epilogue: StoreEpilogue | None = None,
                    shared_exe: str = "") -> Value:
    """x is (N, [[D,] H,] W, G, IC/G), neither cropped nor padded (the variant pads itself, and leaves a
    negative right padding uncropped: the kernel never reads past the last input an output needs);
    returns (N, [[OD,] OH,] OW, G, OC/G) in the accumulator type, or with `epilogue` in the destination
    type. The kernel sees the channels as G padded groups of ICp/G (a multiple of k) and writes G groups
    of OCp/G; each group's padding is cropped here. A 3D source's depth is folded into its images
    (N * IDp, `BrgemmGeometry.depth`). An s8 source is shifted to u8 here, after every padding; `extra` is the
    per-tap weight sums (`_brgemm_compensation`) the accumulators start from. A source read in its own
    blocks (`brgemm_src_block`) comes as its 1-D buffer, read here as its packed tensor (N, ICp/b, [H,]
    W, b) or, a view with nothing to pad, where it lies (`_brgemm_src_view`); a destination written in
    its own blocks (`brgemm_dst_blocks`) is returned as its packed tensor, (N, OCp/16, [1,] OH, OW, 16).
    `shared_exe`: the executable of an earlier brgemm step on the same problem to run (`Step.shared_exe`).
    Depthwise (`brgemm_depthwise`): the kernel sees one group of the G channels, padded to OCp, in the
    source's own type (widened in the kernel), and returns (.., OCp) cropped here to G groups of one.
    brgemm_amx computes the output as one run of pixels where its rows are not whole blocks
    (`amx_flat_pixels`)."""
    d = p.desc
    one_d = d.ndims == 3
    depthwise = brgemm_depthwise(p)
    ocb, ro = w.shape[0], w.shape[4]                   # the channel blocks prepare packed the weights in
    src_block, dst_blocks = brgemm_src_block(p), brgemm_dst_blocks(p)
    view = _brgemm_src_view(p) if src_block else None
    if src_block and view is None:
        x = relayout.buffer_to_packed(plan, x, p.src)
    if view is not None:      # the 1-D buffer as it is; the kernel reads its view
        lead, tail = [], []
    elif src_block:           # the packed source (N, ICp/b, [H,] W, b): the spatial axes from 2, the block last
        if one_d:
            x = plan.expand(x, [[0], [1, 2], [3], [4]], x.shape[:1] + (x.shape[1], 1) + x.shape[2:])  # N ICB 1 W b
        lead, tail = list(x.shape[:2]), list(x.shape[-1:])
    else:
        if one_d:
            x = plan.expand(x, [[0, 1], [2], [3], [4]], (x.shape[0], 1) + x.shape[1:])  # N 1 W G IC/G
        lead, tail = list(x.shape[:1]), list(x.shape[-2:])
    flat = SimpleNamespace(s=1, d=0, o=1, p=0, p_r=0, i=1, k=1)                          # 1D: a unit H
    sp = [flat] * one_d + list(d.spatial())                                              # [D,] H, W
    hw = sp[-2:]
    (sh, dh, oh), (sw, dw, ow) = [(a.s, a.d + 1, a.o) for a in hw]
    rw, _, rh = brgemm_blocking(p, target)
    n, g, icg = d.mb, d.g, d.ic // d.g
    isa = brgemm_isa(p)
    ends = [0] * len(lead), [0] * len(tail)
    # a negative left padding crops; a negative right one stays uncropped
    crop = [max(-a.p, 0) for a in sp]
    real = [a.i - c for a, c in zip(sp, crop)]                                         # the cropped source
    if view is None:
        x = plan.slice(x, [*ends[0], *crop, *ends[1]], (*lead, *real, *tail))
    low = [max(a.p, 0) for a in sp]
    high = [max(a.p_r, 0) for a in sp]
    if amx_unit_stride(p):
        # the pixels a strided 1x1 convolution reads, subsampled into (.., OH, OW, ..): then of stride 1
        keep = len(lead) + len(sp) - 2
        x = plan.slice(x, [0] * len(x.shape), (*x.shape[:keep], oh, ow, *tail),
                       strides=[1] * keep + [sh, sw] + [1] * len(tail))
        real[-2:], sh, sw = [oh, ow], 1, 1
    run = amx_flat_pixels(p)
    run_end = 0
    if run:
        # one run of OH x IWp pixels in blocks of 32 (`amx_flat_pixels`): the source padded below so that
        # the last block's taps read it, or with nothing padded the last block ending at the run's end;
        # the kernel stores the run's pixels that are the destination's
        iwp = amx_run_width(p)               # low[-1] + real[-1] + high[-1]
        blocks = -(-oh * iwp // AMX_PIXELS)
        if amx_run_unpadded(p):
            # the last block ends where the source does: nothing to pad, nothing copied
            run_end = oh * iwp
        else:
            reach = blocks * AMX_PIXELS + (hw[0].k - 1) * dh * iwp + (hw[1].k - 1) * dw
            high[-2] = max(high[-2], -(-reach // iwp) - low[-2] - real[-2])
    elif p.alg == "brgemm_amx":
        # whole 32-pixel blocks a row: the source padded on the right so that they read it; the kernel
        # stores a row's real pixels only
        owb = -(-ow // AMX_PIXELS) * AMX_PIXELS
        reach = (owb - 1) * sw + (hw[1].k - 1) * dw + 1
        high[-1] = max(high[-1], reach - x.shape[-3] - low[-1])
    zp = epilogue.src_zp if epilogue else None
    taps = brgemm_fold_taps(p)
    # an s8 source read as u8 + 128: flipped here, or on a dot product across the lanes as the kernel
    # loads it (depthwise widens s8 as it is)
    lane_dot = brgemm_lane_dot(p) is not None
    shift = 128 if p.src.dtype.name == "s8" and (not depthwise or lane_dot) else 0
    # The padding holds 0 (`BrgemmGeometry.padding` "zero"), so that the kernel skips the taps that reach only
    # padding, unless AMX's own loop runs every tap, or a source read where it lies has none. An s8
    # source is flipped to u8 before its padding, and each pixel's start counts only the taps it reads
    # (`Brgemm.real_tap_starts`), except where the start cannot count them (a folded row, whose weights
    # hold a row's taps as channels): flipped after its padding, which then reads 128, cancelled by the
    # compensation, every tap run.
    # (Depthwise reads the unpadded source: "unpadded".)
    zero_padding = not depthwise and view is None and p.alg != "brgemm_amx" and not (shift and taps)
    flip = shift and not lane_dot          # a flip of its own, before or after the padding
    if flip and zero_padding:
        x = plan.add("flip_sign_bit", x, x.shape, "i8")
    pretransposed = brgemm_lanes_pretransposed(p)
    if pretransposed:
        # each block of 16 groups' channels as one vector per channel, lane = group: (.., G, cg) as
        # (.., G/16, 16, cg) -> (.., G/16, cg, 16), in the same shape (`brgemm_lanes_pretransposed`)
        r = len(x.shape) - 2
        lead_g = [[i] for i in range(r)]
        y = plan.expand(x, [*lead_g, [r, r + 1], [r + 2]], (*x.shape[:r], g // 16, 16, icg))
        y = plan.transpose(y, [*range(r), r, r + 2, r + 1])
        y = plan.collapse(y, [*lead_g, [r, r + 1, r + 2]])
        x = plan.expand(y, [*lead_g, [r, r + 1]], x.shape)
    if isa.widen:             # before the padding: IREE fuses the two into one dispatch
        x = _widen(plan, x, p.src.dtype, isa.widen)
    # the channels the source is padded to: a group's to whole groups of k; depthwise, all G channels
    # (the groups axis) to the weights' OCp, each a group of one
    # (small groups across the lanes: all G groups of cg, `brgemm_lane_groups`)
    cg, kg = brgemm_lane_groups(p) or (icg, d.oc // g)
    cpad = [ocb * ro // kg * 16 - g, 0] if depthwise else [0, brgemm_channels(p, icg) - icg]
    unfold = None
    # depthwise: the kernel reads the unpadded source and skips or zeroes what falls outside it
    # (`BrgemmGeometry.borders`; 3D: the planes outside it skipped, `BrgemmDepth.p`; a channel tail: its
    # loads masked, `BrgemmGeometry.lanes`), which saves a padded copy (measured: docs/performance.md,
    # Tuned constants)
    unpadded = depthwise and view is None
    if taps:
        # the kernel reads output column o's kernel row (and the zero-weight taps after it, in the right
        # padding) as one run of KWf * IC elements of the padded source row, through an overlapping view
        # (N, IHp, OW, KWf * IC) whose columns are SW * IC elements apart (`BrgemmGeometry.unfold`): no copy
        high[-1] = max(high[-1], (ow - 1) * sw + taps - low[-1] - x.shape[-3])
        x = plan.pad(x, [0, *high, 0, 0], low=[0, *low, 0, 0])
        unfold, sw = [ow, taps * icg, sw * icg, *_fold_groups(p, hw[1].k * icg)[::-1]], 1
    elif view is not None or unpadded:
        pass                  # nothing to pad (`_brgemm_src_view`), or the kernel's borders
    elif src_block:           # the blocks already hold whole groups of k channels, zero past IC
        x = plan.pad(x, [*ends[0], *high, *ends[1]], low=[*ends[0], *low, *ends[1]])
    else:
        x = plan.pad(x, [0, *high, *cpad], low=[0, *low, 0, 0])
    depth = None
    if src_block:
        pass                  # (N, ICp/b, IHp, IWp, b) as it is
    elif len(sp) == 3:          # N D H W G ICp/G -> (N * IDp) H W G*ICp/G
        dep = sp[0]
        depth = BrgemmDepth(od=dep.o, idp=x.shape[1], kd=dep.k, s=dep.s, d=dep.d + 1, p=low[0] if unpadded else 0)
        x = plan.collapse(x, [[0, 1], [2], [3], [4, 5]])
    else:
        x = plan.collapse(x, [[0], [1], [2], [3, 4]])                                   # N H W G*ICp/G
    if flip and not zero_padding:
        x = plan.add("flip_sign_bit", x, x.shape, "i8")
    # where the real source lies in the padded one (depthwise: in the unpadded one's padded frame)
    padding = "unpadded" if unpadded else "zero" if zero_padding and any(low + high) else "read"
    real_src = None if padding == "read" else [*low[-2:], *real[-2:], *(low[:1] + real[:1] if len(sp) == 3 else [])]
    images = n * (depth.od if depth else 1)
    if epilogue is not None and epilogue.dst_init is not None:
        # the sum's prior destination, dense channels last: (images, OH, OW, OC) as the kernel walks it
        epilogue = dataclasses.replace(epilogue, dst_init=plan.expand(
            epilogue.dst_init, [[0, 1, 2, 3]], (images, oh, ow, d.oc)))
    # one group of channels last (depthwise's G, or OC) that is not whole vectors: the result holds the
    # real channels only and the stores are masked (`BrgemmGeometry.oc_real`), so no crop copies it
    # below. AMX stores whole tiles, and G > 1 groups each padded would interleave padding with channels
    oc_real = d.oc if (not dst_blocks and p.alg != "brgemm_amx" and (depthwise or g == 1)
                       and ocb * ro * 16 != d.oc) else 0
    oc_out = oc_real or ocb * ro * 16
    # the result's channels as (groups, channels a group): depthwise, groups of kg in channel order
    groups_p, ocgp, ocg = (oc_out // kg, kg, kg) if depthwise else (g, oc_out // g, d.oc // g)
    out_shape = (images, ocb * ro, oh, ow, 16) if dst_blocks else (images, oh, ow, oc_out)
    if run:
        rh = max(1, -(-blocks // 8))            # about 8 workgroups a channel block and image, as row by row
    kernel = BrgemmKernel(isa=isa.kernel, rw=rw, rh=rh, groups=1 if depthwise else g,
                          ocg=d.oc if depthwise else ocg, emulate_tiles=target.emulate_amx, src_dt=p.src.dtype.name,
                          cg=cg if depthwise else 1, kg=kg if depthwise else 1, lane_k=isa.k if lane_dot else 1,
                          lanes_pretransposed=pretransposed)
    geometry = BrgemmGeometry(strides=[sh, sw], dilations=[dh, dw], real_src=real_src, padding=padding, depth=depth,
                              unfold=unfold, src_block=src_block, src_view=view,
                              lanes=d.ic if unpadded and not src_block and g % 16 else 0,
                              dst_blocks=dst_blocks, oc_real=oc_real, flat=blocks if run else 0,
                              run_end=run_end)
    store = BrgemmStore(epilogue=epilogue, pack_int8_stores=brgemm_packs_int8_stores(
        epilogue, dst_blocks, oc_real, depthwise and (cg, kg) != (1, 1), target))
    acc = plan.add("brgemm", x, out_shape, epilogue.dst_dt.mlir if epilogue else p.acc.mlir, wei=w, comp=extra,
                   shift=shift, src_zp=zp, kernel=kernel, geometry=geometry, store=store, shared_exe=shared_exe)
    if dst_blocks:            # the destination's packed tensor, (N, OCp/16, [1,] OH, OW, 16): the caller's buffer
        return acc
    lead = [n, depth.od] if depth else [n]
    acc = plan.expand(acc, [list(range(len(lead))), [len(lead)], [len(lead) + 1], [len(lead) + 2, len(lead) + 3]],
                      (*lead, oh, ow, groups_p, ocgp))
    acc = plan.slice(acc, [0] * (len(lead) + 4), (*lead, oh, ow, g, ocg))
    if one_d:
        acc = plan.collapse(acc, [[0, 1], [2], [3], [4]])
    return acc
