"""The convolution variants (`VARIANTS`): one entry each, saying when it applies, how prepare lays the
weights out and how it computes; `refusal` is the one place a variant is checked against a problem
and a target."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...errors import UnsupportedError
from ...problem.conv import ConvProblem
from ..relayout import Plan, Value
from ..target import GENERIC, TargetCaps
from .brgemm.bf16x3 import _bf16x3_compute, _bf16x3_refused, _bf16x3_weights, _bf16x3_why_not
from .brgemm.fusion import _brgemm_fuses_epilogue, brgemm_dst_blocks, brgemm_src_block
from .brgemm.isa import _brgemm_fma_why_not, _brgemm_refused, _brgemm_why_not
from .brgemm.kernel import _brgemm_compute
from .brgemm.weights import _brgemm_compensation, _brgemm_weights
from .direct import _direct_channels_last, _direct_compute, _direct_weights, reduction_refused
from .gemm import (_gemm_weights, _im2col_channels_last, _im2col_compute, _im2col_refused, _indirect_compute,
                   _indirect_weights, _spatial_pack_compute, _spatial_pack_refused)
from .winograd import (WINOGRAD_M, _winograd_compute, _winograd_fuses_epilogue, _winograd_refused,
                       _winograd_weights, _winograd_why_not, winograd_channels_last, winograd_dst_blocks,
                       winograd_src_block)


@dataclass(frozen=True)
class Variant:
    """One convolution algorithm: when it applies, how prepare lays the weights out, its compute step."""
    name: str
    why_not: Callable[[ConvProblem], str | None]          # why it does not apply to a problem, or None
    # (plan, grouped logical weights, problem, target) -> prepared weights
    weights: Callable[[Plan, Value, ConvProblem, TargetCaps], Value]
    # (plan, padded grouped src, prepared weights, problem, target) -> accumulator
    compute: Callable[[Plan, Value, Value, ConvProblem, TargetCaps], Value]
    doc: str
    # the variant handles spatial padding itself (its compute gets the unpadded, uncropped source)
    pads_in_compute: bool = False
    # why the variant is refused on a target (known wrong results or compile failures), or None
    refused: Callable[[ConvProblem, TargetCaps], str | None] = lambda p, target: None
    # computes with channels last: its compute gets (N, sp.., G, IC/G) and returns (N, sp.., G, OC/G)
    channels_last: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False
    # a second prepared tensor derived from the prepared weights once, in prepare (brgemm's s8
    # compensation), or None; compute then gets it as `extra=`
    extra_prepared: Callable[[Plan, Value, ConvProblem, TargetCaps], Value | None] = lambda plan, w, p, target: None
    # its compute applies the problem's epilogue in its own stores (`store_epilogue`) and returns the
    # result in the destination type: one pass over the output fewer
    fuses_epilogue: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False
    # reads a blocked source in its own blocks: the block (its compute then gets the 1-D source
    # buffer), else 0
    src_block: Callable[[ConvProblem, TargetCaps], int] = lambda p, target: 0
    # writes a blocked destination in its own blocks, through its fused epilogue (its compute then
    # returns the destination's packed tensor)
    dst_blocks: Callable[[ConvProblem, TargetCaps], bool] = lambda p, target: False
    # runs only where named (--alg): it computes with less precision than the problem's data type
    # (bf16x3), so neither --alg=auto nor a sweep that names no variants takes it
    named_only: bool = False


def _applies_always(p: ConvProblem) -> str | None:
    return None


def _grouped_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    return w


def _brgemm_variant(name: str, why_not: Callable[[ConvProblem], str | None], doc: str) -> Variant:
    """A brgemm kernel family (brgemm/): channels last, its own padding, the s8 compensation from
    prepare, the epilogue in its stores, blocked layouts read and written in place where it can."""
    return Variant(name, why_not, _brgemm_weights, _brgemm_compute, doc, refused=_brgemm_refused,
                   channels_last=lambda p, target: True, extra_prepared=_brgemm_compensation,
                   pads_in_compute=True, fuses_epilogue=_brgemm_fuses_epilogue,
                   src_block=lambda p, target: brgemm_src_block(p),
                   dst_blocks=lambda p, target: brgemm_dst_blocks(p))


VARIANTS = {v.name: v for v in (
    Variant("direct", _applies_always, _direct_weights, _direct_compute,
            "linalg named convs for plain layouts (NCHW or NHWC forms, depthwise, grouped 2D), else one "
            "linalg.generic over the grouped logical tensors", channels_last=_direct_channels_last),
    Variant("im2col", _applies_always, _gemm_weights, _im2col_compute,
            "column matrix (IC/G*K, O) gathered once, then a batched GEMM; 1x1 reads the source directly; "
            "channels last (NHWC) gathers (O, K*IC/G) rows for an (O, K) x (K, OC) GEMM",
            channels_last=_im2col_channels_last, refused=_im2col_refused),
    Variant("indirect", _applies_always, _indirect_weights, _indirect_compute,
            "int32 indirection table (output pixel, tap) -> input pixel read inside the contraction",
            pads_in_compute=True),
    Variant("spatial_pack", _applies_always, _grouped_weights, _spatial_pack_compute,
            "output tiled in H and W (4x8), halo'd input tiles gathered, an unpadded conv per tile, "
            "tiles reassembled by the output map", refused=_spatial_pack_refused),
    _brgemm_variant(
        "brgemm", _brgemm_why_not,
        "oneDNN's batch-reduce GEMM conv as a generated microkernel (one custom dispatch): channels-last "
        "source x weights packed once in the instruction's order, register blocks of output pixels x "
        "16-channel vectors reduced over taps and channels; u8/s8 x s8 on vpdpbusd (avx512_vnni; s8 "
        "shifted to u8 with a compensation from prepare), bf16 on vdpbf16ps (avx512_bf16), f32 on FMAs "
        "(avx512f); groups as blocks of channels; depthwise as 16-channel source vectors x weight vectors "
        "on FMAs, every type widened to f32; small groups (1-8 channels) across the lanes, 16 groups a "
        "vector, on FMAs or a group's 8-bit quads on vpdpbusd and bf16 pairs on vdpbf16ps"),
    _brgemm_variant(
        "brgemm_fma", _brgemm_fma_why_not,
        "brgemm with bf16 source and weights widened to f32 (the weights once in prepare, the source with "
        "its padding) on the f32 FMA kernel, as f16 runs on brgemm, small groups on FMAs across the "
        "lanes: for CPUs whose vdpbf16ps is no faster than two FMAs (Intel's cores: "
        "compile.host.host_bf16_dot_slow) or that lack avx512_bf16"),
    _brgemm_variant(
        "brgemm_amx", _brgemm_why_not,
        "brgemm on AMX tiles (tdpbusd for u8/s8 x s8, tdpbf16ps for bf16): 2 x 2 accumulator tiles of 16 "
        "pixels x 16 channels per block, source tiles read in place with the stride of a pixel (a kernel "
        "row's taps as one tile row where they fit it: the stem; a 1x1 conv's pixels as one run), weight tiles "
        "from the same packed weights, "
        "the epilogue in the stores of each tile's rows; amx_int8 / amx_bf16 CPUs, the tile permission requested "
        "by the runtime; --alg=auto takes it where the cost model (select.cost) or kgen tune puts it "
        "ahead of the vector kernel"),
    *(Variant(name, _bf16x3_why_not, _bf16x3_weights, _bf16x3_compute,
              f"f32 as three bf16 products per product (x_hi w_hi + x_hi w_lo + x_lo w_hi, accumulated in f32) on "
              f"{kernel}'s bf16 kernel ({isa}): the source split on the way in, the weights in prepare; error "
              f"3e-6 to 4e-6 of the largest result measured (bf16 inputs: 2e-3); only where named", refused=_bf16x3_refused,
              channels_last=lambda p, target: True, pads_in_compute=True, fuses_epilogue=_brgemm_fuses_epilogue,
              named_only=True)
      for name, kernel, isa in (("brgemm_bf16x3", "brgemm", "vdpbf16ps"),
                                ("brgemm_amx_bf16x3", "brgemm_amx", "tdpbf16ps"))),
    *(Variant(name, _winograd_why_not, _winograd_weights, _winograd_compute,
              f"Winograd F({m}x{m}, 3x3): matrices from interpolation points (conv_math), filter transform in "
              f"prepare, tiles batched into one matmul over IC per transform position (on AVX-512 CPUs, f32 / bf16 / "
              f"f16: channels last, vector transforms around brgemm's f32 microkernel)", refused=_winograd_refused,
              channels_last=winograd_channels_last, pads_in_compute=True, fuses_epilogue=_winograd_fuses_epilogue,
              src_block=winograd_src_block, dst_blocks=winograd_dst_blocks)
      for name, m in WINOGRAD_M.items()),
)}


def refusal(p: ConvProblem, target: TargetCaps = GENERIC) -> tuple[str, str] | None:
    """Why `p`'s variant cannot compute it on `target`: ("does not apply", reason) or ("is refused on
    <target>", reason: the target computes it wrongly or cannot run it); None when it can. `p.alg`
    must name a variant. The one place every check of a variant against a problem is made."""
    v = VARIANTS[p.alg]
    why = v.why_not(p)
    if why:
        return "does not apply", why
    why = v.refused(p, target) or reduction_refused(p, target)
    if why:
        return f"is refused on {target.name}", why
    return None


def why_not(p: ConvProblem, target: TargetCaps = GENERIC) -> str | None:
    """`refusal` as the message the user sees; None when the variant can compute `p` on `target`."""
    r = refusal(p, target)
    return f"--alg={p.alg} {r[0]}: {r[1]}" if r else None


def variant(p: ConvProblem, target: TargetCaps = GENERIC) -> Variant:
    """The variant that computes `p` on `target`. `--alg=auto` is resolved before (`generator.select`)."""
    if p.alg not in VARIANTS:
        raise UnsupportedError(f"unknown algorithm '{p.alg}' (known: {', '.join((*VARIANTS, 'auto'))})")
    why = why_not(p, target)
    if why:
        raise UnsupportedError(why)
    return VARIANTS[p.alg]
