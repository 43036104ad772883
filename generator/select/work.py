"""The operations a convolution variant's kernel issues, padding included: what the cost model
(`select.cost`) divides by a rate, and what the calibration's kernel probes (`select.probe`) are
measured against."""
from __future__ import annotations

from ..emit.conv.brgemm.blocking import AMX_PIXELS, amx_fold_taps, amx_row, brgemm_fold_taps
from ..emit.conv.brgemm.kernel import amx_flat_pixels, amx_run_width
from ..emit.conv.brgemm.isa import brgemm_isa
from ..emit.conv.winograd import WINOGRAD_M
from ..problem.conv import ConvProblem

#: Winograd's transforms: operations a transformed value (source and destination, each (m + 2)^2 a
#: tile and channel) costs
WINOGRAD_TRANSFORM_OPS = 24.0


def ceil_to(x: int, m: int) -> int:
    return -(-x // m) * m


def amx_reduction(p: ConvProblem) -> int:
    """The reduction brgemm_amx's tile instructions run for one output pixel and channel, in elements:
    each tap's channels padded to whole 64-byte tile rows (a shorter row costs a whole row's
    instruction), or a kernel row's taps folded into one (`amx_fold_taps`: the stem's 7 taps of 4
    padded channels in one row). Grouped: one group's channels."""
    d = p.desc
    if amx_fold_taps(p):
        isa = brgemm_isa(p)
        return ceil_to(d.kw * ceil_to(d.ic, isa.k), amx_row(p)) * (d.taps // d.kw)
    return ceil_to(d.ic // d.g, amx_row(p)) * d.taps


def amx_pixels(p: ConvProblem) -> int:
    """The output pixels brgemm_amx computes, in its blocks of 32: a run over the padded source's
    rows (`amx_flat_pixels`: OH x IWp pixels, `amx_run_width`, the columns past OW among them), or
    each row to whole blocks (ResNet-50's 7x7 rows: 32 for 7)."""
    d = p.desc
    if amx_flat_pixels(p):
        iwp = amx_run_width(p)
        planes = d.od if d.ndims == 5 else 1
        return d.mb * planes * ceil_to(d.oh * iwp, AMX_PIXELS)
    ow = d.spatial()[-1].o
    return d.out_pixels // ow * ceil_to(ow, AMX_PIXELS)


def instruction(p: ConvProblem) -> str:
    """The multiply-accumulate instruction `p`'s variant is priced against: brgemm's own (AMX's tiles,
    `vpdpbusd`, `vdpbf16ps`), else `vfmadd231ps` (f32 and f16, widened bf16, and every variant whose
    GEMM IREE lowers)."""
    if p.alg in ("brgemm", "brgemm_fma", "brgemm_amx"):
        isa = brgemm_isa(p)
        if isa is not None:
            return "vfmadd231ps" if isa.widen == "f32" else isa.instruction.split()[0]
    return "vfmadd231ps"


def kernel_ops(p: ConvProblem) -> float:
    """The operations (2 per multiply-add) the variant's kernel issues for `p`, padding included:
    brgemm pads output channels to whole vectors of 16 and input channels to whole groups of its
    instruction's depth (a stem's taps folded into its channels); brgemm_amx computes whole 32 x 32
    blocks of pixels and channels (`amx_pixels`) and pays a whole tile row for each tap's channels, or
    each kernel row's where it folds them; Winograd F(m, 3) multiplies (m + 2)^2 values a tile of m x m outputs
    and pays its transforms. Grouped: each group's channels padded as an ungrouped conv's (the groups
    brgemm runs with its ungrouped kernel, group by group: `cost.covers`)."""
    d = p.desc
    sp = d.spatial()
    g = d.g
    pixels, taps, icg, ocg = d.out_pixels, d.taps, d.ic // g, d.oc // g
    if p.alg in ("brgemm", "brgemm_fma"):
        isa = brgemm_isa(p)
        k = isa.k if isa else 1
        folded = brgemm_fold_taps(p)
        row = ceil_to(folded * icg, k) if folded else sp[-1].k * ceil_to(icg, k)
        return 2.0 * pixels * g * ceil_to(ocg, 16) * row * (taps // sp[-1].k)
    if p.alg == "brgemm_amx":
        # the pixels and channels of its 32 x 32 blocks; a tile instruction takes as long whatever its
        # depth: each tap's channels (or a folded row's taps) count as whole tile rows (64 bytes: 64 u8
        # or 32 bf16)
        return 2.0 * amx_pixels(p) * g * ceil_to(ocg, 2 * 16) * amx_reduction(p)
    if p.alg in WINOGRAD_M:
        m = WINOGRAD_M[p.alg]
        tiles = d.mb * -(-sp[0].o // m) * -(-sp[1].o // m)
        a2 = (m + 2) ** 2
        return 2.0 * tiles * a2 * icg * d.oc + WINOGRAD_TRANSFORM_OPS * tiles * a2 * (d.ic + d.oc)
    return 2.0 * pixels * d.oc * icg * taps
