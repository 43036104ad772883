"""The operations a convolution variant's kernel issues, padding included: what the cost model
(`select.cost`) divides by a rate, and what the calibration's kernel probes (`select.probe`) are
measured against."""
from __future__ import annotations

from ..emit.conv.brgemm.blocking import brgemm_fold_taps
from ..emit.conv.brgemm.isa import brgemm_isa
from ..emit.conv.winograd import WINOGRAD_M
from ..problem.conv import ConvProblem

#: Winograd's transforms: operations a transformed value (source and destination, each (m + 2)^2 a
#: tile and channel) costs
WINOGRAD_TRANSFORM_OPS = 24.0


def ceil_to(x: int, m: int) -> int:
    return -(-x // m) * m


def amx_row(p: ConvProblem) -> int:
    """The channels of one 64-byte tile row: 64 u8 or s8, 32 bf16."""
    return 64 if p.src.dtype.is_int else 32


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
    instruction's depth (a stem's taps folded into its channels); brgemm_amx pays a whole tile row
    for each tap's channels; Winograd F(m, 3) multiplies (m + 2)^2 values a tile of m x m outputs
    and pays its transforms."""
    d = p.desc
    sp = d.spatial()
    pixels, taps, ic, oc = d.out_pixels, d.taps, d.ic, d.oc
    if p.alg in ("brgemm", "brgemm_fma"):
        isa = brgemm_isa(p)
        k = isa.k if isa else 1
        folded = brgemm_fold_taps(p)
        row = ceil_to(folded * ic, k) if folded else sp[-1].k * ceil_to(ic, k)
        return 2.0 * pixels * ceil_to(oc, 16) * row * (taps // sp[-1].k)
    if p.alg == "brgemm_amx":
        # a tile instruction takes as long whatever its depth: each tap's channels count as whole tile
        # rows (64 bytes: 64 u8 or 32 bf16)
        return 2.0 * ceil_to(pixels, 16) * ceil_to(oc, 16) * ceil_to(ic, amx_row(p)) * taps
    if p.alg in WINOGRAD_M:
        m = WINOGRAD_M[p.alg]
        tiles = d.mb * -(-sp[0].o // m) * -(-sp[1].o // m)
        a2 = (m + 2) ** 2
        return 2.0 * tiles * a2 * ic * oc + WINOGRAD_TRANSFORM_OPS * tiles * a2 * (ic + oc)
    return 2.0 * pixels * oc * ic * taps
