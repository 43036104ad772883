"""bf16x3: an f32 convolution on bf16 microkernels, three bf16 products for each f32 one.

Each f32 value x is split into x_hi = bf16(x) and x_lo = bf16(x - x_hi): together they hold 16 of its
24 significand bits. The product x w is x_hi w_hi + x_hi w_lo + x_lo w_hi, leaving out x_lo w_lo (2^-16
of it) and the bits past both parts (2^-17 of each operand), accumulated in f32. That is the bf16
convolution of three times the input channels, the source as [x_hi, x_hi, x_lo] and the weights as
[w_hi, w_lo, w_hi] along them (`bf16x3_problem`): the source split on the way in (one pass, 6 bytes a
value for 4), the weights once in prepare, then brgemm's bf16 kernel (`brgemm_bf16x3`, vdpbf16ps) or
its AMX tile kernel (`brgemm_amx_bf16x3`, tdpbf16ps), whose epilogue takes the f32 accumulators as
the f32 kernel's would. Where the tiles multiply bf16 16x as fast as the FMAs multiply f32 (Intel's
AMX: 1024 bf16 operations a cycle and core against 64 f32), three products still win; on vdpbf16ps,
at twice the FMAs' rate, they cannot (docs/conv-algorithms.md). Named variants only: the error
(`BF16X3_TOLERANCE`) is not f32's.
"""
from __future__ import annotations

import dataclasses

from ....layout import MemoryDesc, get_dtype
from ....problem.conv import ConvProblem
from ...relayout import Plan, Value
from ...brgemm_step import StoreEpilogue
from ...target import TargetCaps
from .isa import _brgemm_refused, _brgemm_why_not
from .kernel import _brgemm_compute
from .weights import _brgemm_weights

#: the variant -> the brgemm variant whose bf16 kernel it runs
BF16X3_KERNELS = {"brgemm_bf16x3": "brgemm", "brgemm_amx_bf16x3": "brgemm_amx"}
#: the parts of the source and of the weights along the tripled input channels (their products pair
#: hi x hi, hi x lo and lo x hi)
SRC_PARTS, WEI_PARTS = ("hi", "hi", "lo"), ("hi", "lo", "hi")


def bf16x3_problem(p: ConvProblem) -> ConvProblem:
    """The bf16 convolution `p` runs as: 3 x IC input channels in bf16, channels last, the f32
    destination and `p`'s attributes (bias, post-ops) on the brgemm variant of `BF16X3_KERNELS`."""
    d = p.desc
    desc = dataclasses.replace(d, ic=3 * d.ic)
    bf16 = get_dtype("bf16")
    return dataclasses.replace(p, desc=desc, src=MemoryDesc(desc.src_dims, bf16, "axb"),
                               wei=MemoryDesc(desc.wei_dims, bf16, "abx"),
                               dst=MemoryDesc(desc.dst_dims, p.dst.dtype, "axb"), alg=BF16X3_KERNELS[p.alg])


def _bf16x3_why_not(p: ConvProblem) -> str | None:
    dts = (p.src.dtype.name, p.wei.dtype.name, p.dst.dtype.name)
    if dts[:2] != ("f32", "f32") or dts[2] not in ("f32", "bf16"):
        return f"it computes f32 x f32 convolutions (to an f32 or bf16 destination), not {':'.join(dts)}"
    if p.desc.g > 1:
        return "it is generated for ungrouped convolutions only"
    return _brgemm_why_not(bf16x3_problem(p))


def _bf16x3_refused(p: ConvProblem, target: TargetCaps) -> str | None:
    return _brgemm_refused(bf16x3_problem(p), target)


def _parts(plan: Plan, x: Value, parts: tuple[str, ...], axis: int) -> Value:
    """f32 `x` as its bf16 `parts` along a new axis before `axis`, folded into it (P x C)."""
    if axis != len(x.shape) - 1:
        perm = [i for i in range(len(x.shape)) if i != axis] + [axis]
        x = plan.transpose(x, perm)
    y = plan.add("bf16_parts", x, (*x.shape[:-1], len(parts), x.shape[-1]), "bf16", parts=parts)
    y = plan.collapse(y, [*[[i] for i in range(len(x.shape) - 1)], [len(x.shape) - 1, len(x.shape)]])
    if axis != len(x.shape) - 1:
        inv = list(range(axis)) + [len(x.shape) - 1] + list(range(axis, len(x.shape) - 1))
        y = plan.transpose(y, inv)
    return y


def _bf16x3_weights(plan: Plan, w: Value, p: ConvProblem, target: TargetCaps) -> Value:
    """(G, OC/G, IC/G, [KH,] KW) f32 -> [w_hi, w_lo, w_hi] along the input channels in bf16, packed
    as brgemm's bf16 kernel reads them."""
    return _brgemm_weights(plan, _parts(plan, w, WEI_PARTS, 2), bf16x3_problem(p), target)


def _bf16x3_compute(plan: Plan, x: Value, w: Value, p: ConvProblem, target: TargetCaps,
                    extra: Value | None = None, epilogue: StoreEpilogue | None = None,
                    shared_exe: str = "") -> Value:
    """(N, sp.., G, IC/G) f32 -> [x_hi, x_hi, x_lo] along the input channels in bf16, then the bf16
    kernel: (N, sp.., G, OC/G) in f32, or the destination type with the epilogue."""
    return _brgemm_compute(plan, _parts(plan, x, SRC_PARTS, len(x.shape) - 1), w, bf16x3_problem(p), target,
                           extra, epilogue, shared_exe)
