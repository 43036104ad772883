"""The step kinds: each kind a plan records (`relayout.Plan.add`) and the typed record it is made as
(emit.steps; the brgemm dispatch's in emit.brgemm_step). The templates print each step with the
macro of its kind (relayout.mlir.j2, conv_steps.mlir.j2)."""
from __future__ import annotations

from ..errors import InternalError
from .brgemm_step import Brgemm
from .steps import (Bf16Parts, Broadcast, Concat, Constant, Contraction, Conv1x1, ConvAttrEpilogue, ConvDirect,
                    ConvEpilogue, ConvPacked, Convert, Gather, Indirect, IndirectGather, Insert, Lanes, NamedConv, PackNibbles, Pad,
                    Reshape, Slice, Step, SumTrailing, Tiling, Transpose, TransposeTiles, UnpackNibbles, Value,
                    WindowGather, WinogradTiles, WinogradTransform, WithWeights, ZpCombine, ZpTaps, ZpWeights,
                    ZpWeightsCommon, ZpWeightSums, ZpWindowSum)

STEP_TYPES: dict[str, type[Step]] = {
    "slice": Slice, "pad": Pad, "expand": Reshape, "collapse": Reshape, "transpose": Transpose,
    "pack": Tiling, "unpack": Tiling, "insert": Insert, "concat": Concat, "lanes": Lanes,
    "transpose_tiles": TransposeTiles, "copy": Step, "bitcast": Step, "gather": Gather,
    "convert": Convert, "unpack_nibbles": UnpackNibbles, "pack_nibbles": PackNibbles,
    "constant": Constant, "barrier": Step, "window_gather": WindowGather,
    "conv_direct": ConvDirect, "conv_packed": ConvPacked, "named_conv": NamedConv, "conv_1x1": Conv1x1,
    "sum_trailing": SumTrailing,
    "gemm": Contraction,            # (N, G, R, O) columns x (G, OC, R) weights
    "gemm_cl": Contraction,         # (N, O, G, R) rows x (G, R, OC) weights
    "indirect_gather": IndirectGather, "indirect": Indirect, "wino_transform": WinogradTransform,
    "wino_input": WinogradTiles, "wino_output": WinogradTiles,
    "wino_gemm": WithWeights,       # per transform position, V x U over IC (GPUs)
    "batch_mmt4d": WithWeights,     # the same on operands packed in mmt4d tiles (CPUs)
    "conv_epilogue": ConvEpilogue, "conv_attr_epilogue": ConvAttrEpilogue,
    "zp_window_sum": ZpWindowSum, "zp_weights": ZpWeights, "zp_taps": ZpTaps,
    "zp_weight_sums": ZpWeightSums, "zp_weights_common": ZpWeightsCommon, "zp_combine": ZpCombine,
    "broadcast": Broadcast, "brgemm": Brgemm,
    "brgemm_compensation": Step,    # the brgemm weights summed per tap and output channel (prepare)
    "flip_sign_bit": Step,          # s8 -> u8 + 128 (x xor 0x80), elementwise
    "bf16_parts": Bf16Parts,        # f32 -> its bf16 high and low parts (bf16x3), elementwise
}


def make_step(kind: str, inp: Value | None, out: Value, params: dict) -> Step:
    """The typed step of `kind`; a planning bug (unknown kind, missing or extra field) is an InternalError."""
    try:
        return STEP_TYPES[kind](kind=kind, inp=inp, out=out, **params)
    except KeyError:
        raise InternalError(f"unknown step kind {kind!r}") from None
    except TypeError as e:
        raise InternalError(f"step {kind!r}: {e}") from None
