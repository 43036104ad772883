"""What the emitters know about the code's target: capabilities, never names.

A backend row (`compile.backends.Backend`) *is* a `TargetCaps`: the compile layer fills these fields
per target, and the emitters read them. Each field is a lowering that works on some targets and not on
others in IREE 3.13, with the evidence next to the row that sets it. `GENERIC` is a target with no
gaps (the default for rendering without a backend, e.g. in golden tests).
"""
from __future__ import annotations

from dataclasses import dataclass

# "pack": linalg.pack / unpack; "transpose": pad + expand_shape + linalg.transpose; "shuffle": a
# generated microkernel for reorders that are one 2-D transposition per batch (`emit.reorder.shuffle_plan`)
RELAYOUT_FORMS = ("pack", "transpose", "shuffle")


@dataclass(frozen=True)
class Mmt4dTile:
    """The f32 `linalg.mmt4d` tile a CPU computes right and fast: N0 columns, at most `max_m0` rows."""
    n0: int
    max_m0: int


@dataclass(frozen=True, kw_only=True)
class TargetCaps:
    name: str = "generic"                       # for messages only ("refused on vulkan: ...")
    # linalg.pack / linalg.unpack compile; else blocked layouts are pad + expand_shape + transpose
    compiles_pack: bool = True
    # (form, kind) of named convs computed wrongly: those stay a linalg.generic (emit.conv.direct.named_conv)
    named_conv_broken: frozenset[tuple[str, str]] = frozenset()
    # a gather through an index table can sit inside a contraction (indirect conv); else it is its own op
    gather_in_contraction: bool = True
    # ... also where the table has one tap (1x1 kernels); else that one gather is its own op
    gather_in_contraction_one_tap: bool = True
    # a packed conv's output must have the batch axis outermost (CHWN4 is computed NCHW, then transposed)
    batch_outer_only: bool = False
    # batched GEMMs as `linalg.batch_mmt4d` over operands packed in this tile (Winograd); None: a generic
    mmt4d_tile: Mmt4dTile | None = None
    # Winograd F(2,3) with one input channel per group gives wrong results (refused there)
    winograd_f2_one_channel_per_group_wrong: bool = False
    # Winograd with bf16 source or weights gives wrong results for some channel counts (refused there)
    winograd_bf16_wrong: bool = False
    # a contraction over 8-bit integers widened to i32 inside it can be computed wrongly: integer
    # convolutions then compute on i32 operands (the weights widened in prepare, the source widened
    # behind a barrier so that IREE cannot fold the widening back into the contraction)
    int8_contraction_wrong: bool = False
    # a bf16 result is computed as its bits in i16 (rounded in integer ops) and the result buffer
    # bitcast to bf16 (some bf16 stores fail to compile: "failed to legalize vector.bitcast")
    bf16_results_as_bits: bool = False
    # a zero point's compensation term (a source or weight zero point) comes out wrong in direct's
    # packed form and spatial_pack with a destination blocked on channels with a partial last block,
    # and in spatial_pack with more than one image or group: direct then takes its generic form,
    # spatial_pack is refused (im2col and indirect are right)
    zp_compensation_wrong: bool = False
    # bf16 operands (source, weights) enter as their bits in i16 and are widened to f32 in integer
    # ops behind a barrier, so no bf16 vector is ever loaded (the same legalization failure on loads)
    bf16_operands_as_bits: bool = False
    # the accumulator goes through a barrier before the epilogue: IREE 3.13's inner-tiled data tiling
    # (u8 x s8 on vpdpbusd) propagates the GEMM's encoding into a fused epilogue and then fails on its
    # broadcast operands ("failed to legalize operation 'linalg.generic' that was explicitly marked
    # illegal"); apart, the GEMM keeps the fast path and the epilogue reads the plain result
    acc_apart: bool = False
    # grouped (batched) GEMMs fail to compile: IREE 3.13's inner-tiled data tiling
    grouped_gemm_fails: bool = False
    # the matrix features of the CPU the code is compiled for (`compile.host.MATRIX_FEATURES`
    # spelling: "avx512_vnni", "amx_int8", ...): generated microkernels call their intrinsics (the brgemm
    # variant), flag sets and heuristics depend on them; empty where the target is no CPU
    cpu_features: frozenset[str] = frozenset()
    # brgemm_amx's tile instructions are emulated with AVX-512 (each tile a stack buffer, tdpbusd /
    # tdpbf16ps as vpdpbusd / vdpbf16ps per tile row): everything around the instructions (addresses,
    # strides, packing, tails, the tile configuration) is then checked on a CPU without AMX. Tests only.
    emulate_amx: bool = False
    # depthwise convs go through the named channels-last depthwise op wherever they can: over blocked
    # layouts (nChw16c: (N, C/b, H, W, b)) block by block, each block's (N, H, W, b) slab in the op and
    # the blocks joined by a tensor.concat; in channels-first plain layouts (nchw) packed into such
    # blocks and back inside the kernel; a u8 source zero-extended to i32 first (the named ops
    # sign-extend). IREE 3.13 on llvm-cpu lowers the named op on its conv pipeline (tile and
    # decompose), the one generic over every block as a generic reduction and the named NCHW op
    # slowly (measured: docs/performance.md, Tuned constants)
    depthwise_named_ops: bool = False
    # an ungrouped 2D conv over a source blocked on channels (nChw16c, nChw8c, NCHW32) is computed as one
    # conv_2d_nhwc_hwcf per input-channel block, (N, H, W, b) x (KH, KW, b, OCp), each adding to the
    # last one's partial sums, then transposed into the destination's layout, instead of the one
    # generic over the packed tensors, which IREE 3.13 on llvm-cpu runs far slower (measured:
    # docs/performance.md, Tuned constants)
    blocked_conv_named_ops: bool = False
    # the longest reduction one output may run inside one dispatch, or None. Mesa's lavapipe (gallivm)
    # ends a shader invocation after 65535 loop iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS, one
    # counter shared by every loop of the invocation) and keeps the partial result, silently: a conv
    # reducing 16383 x 3 x 3 values per output came out wrong, 7283 x 3 x 3 right. Longer reductions
    # are split (`emit.conv.direct.reduction_split`): partial sums over chunks, then their sum
    max_reduction: int | None = None
    # brgemm's register block (`emit.conv.brgemm.blocking.brgemm_blocking`) takes 3 or 4 vectors of
    # output channels only where their weight panel (the whole reduction x 16 x RO channels, which every
    # register block of a workgroup multiplies) fits in this many bytes; else 2, whose wider pixel rows
    # load the panel from L2 half as often per multiply. None: no bound
    # (`compile.host.host_weight_panel_bytes`)
    weight_panel_bytes: int | None = None
    # the "shuffle" reorder form compiles and runs: a custom dispatch of vector loads, 16 x 16 register
    # transposes spelled as vector.shuffle, and stores (templates/reorder_shuffle.mlir.j2); CPUs only
    shuffle_transpose: bool = False

    @property
    def relayout_forms(self) -> tuple[str, ...]:
        """The forms blocked layouts can be emitted in here ("pack" only where it compiles)."""
        return tuple(f for f in RELAYOUT_FORMS if (f != "pack" or self.compiles_pack)
                     and (f != "shuffle" or self.shuffle_transpose))

    @property
    def conv_form(self) -> str:
        """The relayout form of conv kernels: pack where it compiles (one op IREE fuses), else transpose."""
        return self.relayout_forms[0]


GENERIC = TargetCaps()
