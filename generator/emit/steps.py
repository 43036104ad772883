"""The steps a kernel is planned in: one typed record per step kind, printed by the template macro of
the same name (templates/relayout.mlir.j2 for data movement and conversion, templates/conv_*.mlir.j2
for the convolution kernels).

Python plans (`relayout.Plan`): it decides shapes, maps, permutations and data types and records them
here. A template only spells the MLIR. A step built with a missing or unknown field fails when it is
planned, not as a half-rendered kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import InternalError
from ..layout.dtypes import DataType


@dataclass(frozen=True)
class Value:
    """An SSA tensor value: its name (without %), shape and MLIR element type."""
    name: str
    shape: tuple[int, ...]
    elem: str


@dataclass(frozen=True, kw_only=True)
class Step:
    kind: ClassVar[str]
    inp: Value | None         # the main operand (None for constants)
    out: Value                # the result; names inside the step's MLIR start with out.name


# ------------------------------------------------------------------ data movement (relayout.mlir.j2)
@dataclass(frozen=True, kw_only=True)
class Slice(Step):
    kind = "slice"
    offsets: list[int]
    sizes: list[int]
    strides: list[int] | None


@dataclass(frozen=True, kw_only=True)
class Pad(Step):
    kind = "pad"
    low: list[int]
    high: list[int]


@dataclass(frozen=True, kw_only=True)
class Expand(Step):
    kind = "expand"
    groups: list[list[int]]


@dataclass(frozen=True, kw_only=True)
class Collapse(Step):
    kind = "collapse"
    groups: list[list[int]]


@dataclass(frozen=True, kw_only=True)
class Transpose(Step):
    kind = "transpose"
    perm: list[int]


@dataclass(frozen=True, kw_only=True)
class Pack(Step):
    kind = "pack"
    outer_perm: list[int]
    inner_pos: list[int]
    tiles: list[int]


@dataclass(frozen=True, kw_only=True)
class Unpack(Step):
    kind = "unpack"
    outer_perm: list[int]
    inner_pos: list[int]
    tiles: list[int]


@dataclass(frozen=True, kw_only=True)
class Insert(Step):
    kind = "insert"                 # `source` into `inp` at `offsets`
    source: Value
    offsets: list[int]
    sizes: list[int]


@dataclass(frozen=True, kw_only=True)
class Concat(Step):
    kind = "concat"
    parts: list[Value]
    dim: int


@dataclass(frozen=True, kw_only=True)
class Copy(Step):
    kind = "copy"


@dataclass(frozen=True, kw_only=True)
class Gather(Step):
    kind = "gather"                 # each logical element read at offset0 + sum(index * stride)
    strides: list[int]
    offset0: int


@dataclass(frozen=True, kw_only=True)
class Convert(Step):
    kind = "convert"                # data type conversion with oneDNN's quantization (emit/reorder.py)
    route: str                      # "int", "itof" or "f32": which arithmetic the conversion goes through
    src: DataType
    dst: DataType
    quant: list[Any]                # the quantization arguments (arg name, mask, value)
    apply: list[int]                # which of them apply, in oneDNN's order
    lo: float
    hi: float
    ilo: int
    ihi: int
    bf16_bits: bool                 # f32 -> bf16 by integer rounding (an integer source)


# ------------------------------------------------------------------ convolution kernels (conv_*.mlir.j2)
@dataclass(frozen=True, kw_only=True)
class Constant(Step):
    kind = "constant"
    hex: str                        # little-endian bytes of the dense constant


@dataclass(frozen=True, kw_only=True)
class Barrier(Step):
    kind = "barrier"                # util.optimization_barrier: keeps IREE from fusing across it


@dataclass(frozen=True, kw_only=True)
class WindowGather(Step):
    kind = "window_gather"          # out[dims] = inp[src]: tiles or im2col columns, affine indices
    dims: list[str]
    src: list[str]


@dataclass(frozen=True, kw_only=True)
class Contraction(Step):
    wei: Value
    src_dt: DataType
    acc_dt: DataType


@dataclass(frozen=True, kw_only=True)
class ConvDirect(Contraction):
    kind = "conv_direct"
    strides: list[int]
    dilations: list[int]


@dataclass(frozen=True, kw_only=True)
class ConvPacked(Contraction):
    kind = "conv_packed"            # direct over blocked tensors: maps over their packed axes
    dims: list[str]
    npar: int
    src_idx: list[str]
    wei_idx: list[str]
    out_idx: list[str]


@dataclass(frozen=True, kw_only=True)
class NamedConv(Step):
    kind = "named_conv"
    op: str
    wei: Value
    strides: list[int]
    dilations: list[int]
    acc_dt: DataType


@dataclass(frozen=True, kw_only=True)
class Conv1x1(Contraction):
    kind = "conv_1x1"
    strides: list[int]


@dataclass(frozen=True, kw_only=True)
class Gemm(Contraction):
    kind = "gemm"                   # (N, G, R, O) columns x (G, OC, R) weights


@dataclass(frozen=True, kw_only=True)
class GemmChannelsLast(Contraction):
    kind = "gemm_cl"                # (N, O, G, R) rows x (G, R, OC) weights


@dataclass(frozen=True, kw_only=True)
class IndirectGather(Step):
    kind = "indirect_gather"
    table: Value


@dataclass(frozen=True, kw_only=True)
class Indirect(Contraction):
    kind = "indirect"
    table: Value


@dataclass(frozen=True, kw_only=True)
class WinogradTransform(Step):
    kind = "wino_transform"         # one factor of C1 . X . C2^T (emit/conv.py's WINOGRAD_TRANSFORMS)
    mat: Value
    dims: list[str]
    mat_idx: list[str]
    inp_idx: list[str]
    out_idx: list[str]


@dataclass(frozen=True, kw_only=True)
class WinogradGemm(Step):
    kind = "wino_gemm"
    wei: Value


@dataclass(frozen=True, kw_only=True)
class BatchMmt4d(Step):
    kind = "batch_mmt4d"
    wei: Value


@dataclass(frozen=True, kw_only=True)
class ConvEpilogue(Step):
    kind = "conv_epilogue"          # accumulator -> (+ bias) -> (ReLU) -> destination type, saturated
    bias: Value | None
    bias_dims: list[int]
    relu: bool
    acc_dt: DataType
    dst_dt: DataType
    lo: float
    hi: float


STEP_TYPES: dict[str, type[Step]] = {t.kind: t for t in (
    Slice, Pad, Expand, Collapse, Transpose, Pack, Unpack, Insert, Concat, Copy, Gather, Convert,
    Constant, Barrier, WindowGather, ConvDirect, ConvPacked, NamedConv, Conv1x1, Gemm, GemmChannelsLast,
    IndirectGather, Indirect, WinogradTransform, WinogradGemm, BatchMmt4d, ConvEpilogue)}


def make_step(kind: str, inp: Value | None, out: Value, params: dict) -> Step:
    """The typed step of `kind`; a planning bug (unknown kind, missing or extra field) is an InternalError."""
    try:
        return STEP_TYPES[kind](inp=inp, out=out, **params)
    except KeyError:
        raise InternalError(f"unknown step kind {kind!r}") from None
    except TypeError as e:
        raise InternalError(f"step {kind!r}: {e}") from None
