"""A network op (`problem.netop.NetOp`) as an MLIR function on packed tensors in one format: Python plans
every operand's physical shape and indexing here, `templates/netop.mlir.j2` spells them.

The op works on the physical (packed) tensor directly, so no layout change is needed around it:

* elementwise ops index every input as the output, a per-channel input with its spatial dims pinned
  to 0 (``expand`` is that alone), an upsampled one once per (dim, factor) pair of the output; in
  a blocked format with a channel tail, a function with f(0) != 0 masks the padded lanes
  back to zero (the padding stays zero, as the convolutions keep it);
* pooling pads the spatial dims (max: -inf, avg: 0) and reduces over a window operand;
* concatenation inserts each input at its channel offset, in a blocked format at a whole block
  (every input but the last must fill its blocks);
* the channel norm sums over the channel dims (a blocked format's padded lanes left out), then
  normalizes each element.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import UnsupportedError
from ..layout import MemoryDesc
from ..layout.dtypes import get_dtype
from ..problem.netop import NetOp
from .render import render

TEMPLATE = "netop.mlir.j2"


@dataclass
class Operand:
    flat: int
    shape: tuple[int, ...]
    elem: str


def function_name(op: NetOp, tag: str) -> str:
    return f"netop_{op.ident}_{tag}"


def _channel_block(d: MemoryDesc) -> int:
    """The block of the channel dim (1: none); a format blocked otherwise is refused."""
    if any(dim != 1 for dim, _ in d.blocks) or len(d.blocks) > 1:
        raise UnsupportedError(f"network ops take plain formats and one channel block, not {d.tag}")
    return d.block_of(1)


def why_not(op: NetOp, tag: str) -> str | None:
    """Why `op` cannot run in format `tag` (None: it can)."""
    try:
        descs = [MemoryDesc(x, op.dt, tag) for x in op.inputs]
        block = _channel_block(descs[0])
    except UnsupportedError as e:
        return str(e)
    except Exception as e:       # a tag of another rank
        return f"format {tag} does not apply to {op.inputs[0]}: {e}"
    if op.kind == "cat" and block > 1 and any(x[1] % block for x in op.inputs[:-1]):
        return f"cat in {tag}: every input but the last must fill its {block}-channel blocks"
    return None


def _mask(op: NetOp, block: int, rank: int, ch_outer: int) -> dict | None:
    """Where a blocked format's padded channel lanes must be set back to zero (f(0) != 0), and the
    value that stores as zero there: 0, or for u8 the value whose quantization is the zero byte."""
    if block == 1 or op.out[1] % block == 0 or op.zero_preserving:
        return None
    fill = -op.quant[-1][1] * op.quant[-1][0] if op.quant else 0.0
    return {"dim": rank - 1, "outer": ch_outer, "block": block, "channels": op.out[1], "fill": fill}


def render_netop(op: NetOp, tag: str, *, header: bool = True) -> str:
    """The MLIR of `op` with every tensor in format `tag` (one flat buffer per input, one result)."""
    why = why_not(op, tag)
    if why:
        raise UnsupportedError(why)
    T = get_dtype(op.dt)
    descs = [MemoryDesc(x, op.dt, tag) for x in op.inputs]
    out_d = MemoryDesc(op.out, op.dt, tag)
    ins = [Operand(d.buffer_len, d.physical_shape, T.mlir) for d in descs]
    out = Operand(out_d.buffer_len, out_d.physical_shape, T.mlir)
    r = len(out.shape)
    dims = [f"d{j}" for j in range(r)]
    plan: dict = {"dims": dims}
    d0 = descs[0]
    block = _channel_block(d0)
    ch_outer = d0.order.index(1)
    if op.kind == "upsample":
        # the output as (in, factor) per upsampled dim, the input read at the first of each pair (a
        # floordiv map would do it in one dim, but IREE cannot tile a semi-affine map); row-major, so
        # the expanded output collapses to the same flat buffer
        shape, src = [], []
        for j, (i, o) in enumerate(zip(ins[0].shape, out.shape)):
            src.append(f"d{len(shape)}")
            shape += [i] if i == o else [i, o // i]
        out = Operand(out.flat, tuple(shape), out.elem)
        r = len(shape)
        dims = [f"d{j}" for j in range(r)]
        plan.update(dims=dims, maps=[src, dims], iterators=["parallel"] * r, mask=None)
    elif op.kind in ("binary", "eltwise", "expand"):
        # a dim the input has whole is indexed as the output's; a broadcast one (size 1) pinned to 0
        plan["maps"] = [[f"d{j}" if a.shape[j] == out.shape[j] else "0" for j in range(r)] for a in ins] + [dims]
        plan["iterators"] = ["parallel"] * r
        plan["mask"] = None
        plan["mask"] = _mask(op, block, r, ch_outer)
    elif op.kind == "norm":
        # statistics over the channel dims (the block's outer one and its lanes), indexed by the rest
        red = [ch_outer] + ([r - 1] if block > 1 else [])
        plan["stats"] = [out.shape[j] for j in range(r) if j not in red]
        plan["stats_map"] = [f"d{j}" for j in range(r) if j not in red]
        plan["iterators"] = ["reduction" if j in red else "parallel" for j in range(r)]
        plan["inv_c"] = 1.0 / op.out[1]
        plan["mask"] = {"dim": r - 1, "outer": ch_outer, "block": block, "channels": op.out[1]} \
            if block > 1 and op.out[1] % block else None
    elif op.kind == "pool":
        nsp = len(op.out) - 2
        spatial = {d0.order.index(2 + s): s for s in range(nsp)}      # physical dim -> spatial axis
        win = [f"d{r + s}" for s in range(nsp)]
        plan["dims"] = dims + win
        plan["low"] = [op.pad[spatial[j]] if j in spatial else 0 for j in range(r)]
        plan["padded"] = [n + 2 * p for n, p in zip(ins[0].shape, plan["low"])]
        plan["window"] = list(op.kernel)
        src = [f"d{j} * {op.stride[spatial[j]]} + {win[spatial[j]]}" if j in spatial else f"d{j}" for j in range(r)]
        plan["maps"] = [src, win, dims]
        plan["iterators"] = ["parallel"] * r + ["reduction"] * nsp
        plan["inv_window"] = 1.0 / math.prod(op.kernel)
        # a u8 average: the sum of (q - zero point), integers exact in f32, divided once into the
        # output's units (by the window size at equal scales: a correctly rounded quotient, so that a
        # tie, a sum of n + 1/2 windows, rounds to even exactly)
        plan["units"] = (math.prod(op.kernel) * op.quant[-1][0] / op.quant[0][0]
                         if op.dt == "u8" and op.alg == "avg" else None)
        plan["mask"] = _mask(op, block, r, ch_outer)
        # a u8 max pool keeps its input's scale and zero point: the max of the bytes, no dequantizing
        plan["raw"] = op.dt == "u8" and op.alg == "max"
        if op.quant:
            # the byte that pads a quantized source: 0 for max (no value is lower), the zero point (the
            # value 0) for avg; MLIR spells an i8 constant signed
            zp = op.quant[0][1] if op.alg == "avg" else 0
            plan["pad_raw"] = zp - 256 if zp > 127 else zp
    else:
        offsets, c = [], 0
        for x in op.inputs:
            off = [0] * r
            off[ch_outer] = c // block
            offsets.append(off)
            c += x[1]
        plan["offsets"] = offsets
    text = render(TEMPLATE, header=header, fn=function_name(op, tag), ins=ins, out=out, op=op, T=T, k=plan)
    return text


def bufferMemoryDesc(dims, dt: str, tag: str) -> MemoryDesc:
    """The packed tensor an op reads or writes (its buffer: `buffer_len` elements)."""
    return MemoryDesc(dims, dt, tag)
