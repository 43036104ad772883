"""Reorder kernels: choose the relayout steps and the element conversion, render `reorder.mlir.j2`.

One function per kernel, named by the problem (every parameter in the name). Arguments, in order:
the source buffer (1-D), each quantization array present (src_scale, dst_scale: f32; src_zp, dst_zp:
i32; 0-d for common, else the masked dims), and the old destination buffer when the destination has
gaps or an offset. The result is the destination's 1-D buffer, padding included. A 4-bit (s4, u4)
buffer is i8 bytes holding two elements each, low nibble first; the kernel unpacks it into i8
elements, relayouts and converts them as s8 / u8 saturating to the 4-bit range, and packs the result.

A chain of reorders folds into one kernel: the intermediate layouts only move data, so the chain
reads the first source, applies each step's element conversion in turn and writes the last destination.
"""
from __future__ import annotations

from typing import Sequence

from ..errors import FormatError, UnsupportedError
from ..layout.dtypes import DataType
from ..problem.reorder import ReorderProblem
from . import relayout
from .relayout import Plan, Value
from .render import render, with_header

TEMPLATE = "reorder.mlir.j2"


def _route(src: DataType, dst: DataType, quantized: bool) -> str:
    """How an element travels: 'copy'; 'int' (widen, saturate, narrow); 'itof' (one int-to-float
    conversion, so a single rounding); or 'f32' (to f32, apply quantization, round and saturate).

    Integers to bf16 go through f32 ('f32' route, and `bf16_bits`: the f32 -> bf16 rounding is spelled
    in integer ops), as oneDNN does. SPIR-V cannot lower an integer-to-bf16 conversion (Vulkan fails
    with "'spirv.Bitcast' op mismatch in result type bitwidth 16 and operand type bitwidth 32"), and
    the canonicalizer folds sitofp + truncf back into one; llvm-cpu rounds through f32 anyway."""
    if src == dst and not quantized:
        return "copy"
    if quantized:
        return "f32"
    if src.is_int and dst.is_int:
        return "int"
    if src.is_int and dst.name != "bf16":
        return "itof"
    return "f32"


# The order the attributes are applied in: dst = (src - zp_src) * scale_src / scale_dst + zp_dst.
# (The kernel's arguments come in QUANT_ARGS order, which differs.)
APPLY_ORDER = ("src_zp", "src_scale", "dst_scale", "dst_zp")


def convert_step(plan: Plan, v: Value, problem: ReorderProblem, quant_values: dict[str, Value]) -> Value:
    src, dst = problem.src.dtype, problem.dst.dtype
    quant = [dict(arg=arg, value=quant_values[arg], mask=list(q.mask)) for arg, q in problem.quant_args]
    apply = sorted(range(len(quant)), key=lambda i: APPLY_ORDER.index(quant[i]["arg"]))
    route = _route(src, dst, bool(quant))
    if route == "copy":
        return v
    ilo, ihi = dst.int_range if dst.is_int else (0, 0)
    return plan.add("convert", v, v.shape, dst.mlir, route=route, src=src, dst=dst, quant=quant, apply=apply,
                    lo=dst.min, hi=dst.max, ilo=ilo, ihi=ihi, bf16_bits=src.is_int and dst.name == "bf16")


def _in_pieces(plan: Plan, src: Value, chain: Sequence[ReorderProblem], quant_values: list[dict[str, Value]],
               pieces: Sequence[relayout.Piece], form: str) -> Value:
    """The reorder as `relayout.tail_pieces`: each piece read from the packed source, converted (its
    part of each quantization array), packed and laid down in destination buffer order."""
    first, last = chain[0], chain[-1]
    packed = relayout.buffer_to_packed(plan, src, first.src)
    outs = []
    for piece in pieces:
        v = relayout.packed_piece_to_logical(plan, packed, first.src, piece)
        for p, vals in zip(chain, quant_values):
            part = {arg: plan.slice(vals[arg], [piece.lo[m] for m in q.mask], [piece.dims[m] for m in q.mask])
                    for arg, q in p.quant_args}
            v = convert_step(plan, v, p, part)
        v = relayout.logical_piece_to_packed(plan, v, last.dst, piece, form)
        outs.append(plan.collapse(v, [list(range(len(v.shape)))]))
    return plan.concat(outs, 0)


# the "shuffle" form's workgroups: at most this many per batch index, each a range of whole 16-column
# blocks (on local-sync they run one after another; on local-task they spread over the cores)
SHUFFLE_CHUNKS = 16
# destinations bigger than this are stored past the caches (vmovntps), where their rows are whole 64-byte
# lines (R a multiple of 16; else LLVM splits each into scalar streaming stores) (measured:
# docs/performance.md, Tuned constants)
SHUFFLE_STREAM_BYTES = 8 << 20


def shuffle_plan(chain: Sequence[ReorderProblem]) -> "tuple[int, int, int, int, int] | relayout.BlockTail | str":
    """The "shuffle" form's geometry, `relayout.transposition`'s (B, R, S, sb, sr) or a
    `relayout.BlockTail`, or why the form does not apply: one reorder of 8-, 16- or 32-bit elements that
    copies them (no conversion, no quantization) into a dense destination, as one 2-D transposition per
    batch (nchw <-> nhwc; nchw <-> nChw16c with whole blocks; dense nchw <-> nChw16c with a partial last
    block, per image and block). The tile is 16 x 16 elements whatever their width: the network permutes
    element indices. 16- and 8-bit tiles go 2 or 4 side by side through one 512-bit register where a
    row has that many whole 16-column blocks (`relayout.widened_network`); the rest on 256- or 128-bit
    vectors."""
    if len(chain) != 1:
        return "a chain of reorders"
    p = chain[0]
    if p.src.dtype != p.dst.dtype or p.quant_args:
        return "it converts the elements"
    if p.src.dtype.bits not in (8, 16, 32):
        return f"its elements are {p.src.dtype.name}, not 8, 16 or 32-bit"
    if p.needs_dst_init:
        return "the destination has gaps"
    geometry = relayout.transposition(p.src, p.dst) or relayout.block_tail_transposition(p.src, p.dst)
    if geometry is None:
        return ("it is no 2-D transposition (such as nchw <-> nhwc, or dense nchw <-> nChw16c, a partial last "
                "block too)")
    return geometry


def transposed_dims(geometry) -> tuple[int, int]:
    """(R, S) of a "shuffle" geometry: the source rows a batch index transposes, and their length."""
    if isinstance(geometry, relayout.BlockTail):
        return geometry.r, geometry.s
    return geometry[1], geometry[2]


def shuffle_tiles(p: ReorderProblem, geometry) -> tuple[int, bool]:
    """How the "shuffle" form groups its 16 x 16 tiles: (lanes, tall). 8- and 16-bit tiles fill a
    quarter or half of a 512-bit register, so 4 or 2 of them go through the network together: side by
    side (a row's next 16-column blocks: 512-bit loads, 16-element stores) where the rows hold that
    many whole blocks and the tile 16 rows; else stacked (tall: the next tiles down, 16-element loads,
    512-bit stores) where the rows hold at least one block and the columns that many stacks of 16 (the
    source rows of nChw16c -> nchw are one block). Side by side is the faster one where both apply
    (measured: docs/performance.md, Tuned constants). (1, False) for 32-bit elements."""
    r, s = transposed_dims(geometry)
    full, blocks = 4 // p.src.dtype.itemsize, s // 16
    if full > 1 and blocks >= full and r >= 16:
        return full, False
    if full > 1 and 1 <= blocks < full and r >= 16 * full:
        return full, True
    return 1, False


def _shuffle(plan: Plan, src: Value, p: ReorderProblem, fn: str, geometry) -> Value:
    """The "shuffle" form: one custom dispatch (templates/reorder_shuffle.mlir.j2), faster than the
    transpose form (IREE 3.13 peels a partial channel block, such as a 17th channel, into scalar code);
    8- and 16-bit tiles go several side by side (one vpermt2b each shuffle) rather than one on 128-bit
    vectors (measured: docs/performance.md, Tuned constants)."""
    tail = geometry if isinstance(geometry, relayout.BlockTail) else None
    if tail:
        b, (r, s), (sb, x2, sr) = tail.n, transposed_dims(tail), tail.xstrides
    else:
        b, r, s, sb, sr = geometry
    blocks = s // 16
    lanes, tall = shuffle_tiles(p, geometry)
    chunk = max(1, -(-blocks // SHUFFLE_CHUNKS))
    if tail and tail.side == "cols":
        chunk = max(1, blocks)                          # the partial block's columns in one workgroup
    elif not tall:
        chunk = -(-chunk // lanes) * lanes              # whole wide tiles in every workgroup's range
    chunks = max(1, -(-blocks // chunk))
    extra = dict(b2=tail.blocks, x2=x2, ystrides=list(tail.ystrides), valid=tail.valid, side=tail.side) if tail else {}
    return plan.add("transpose_tiles", src, (p.dst.buffer_len,), exe=f"{fn}_shuffle", b=b, r=r, s=s,
                    strides=[sb, sr], offset=p.src.offset0, chunk=chunk, chunks=chunks,
                    stream_elems=shuffle_streams(p, r),
                    network=relayout.TRANSPOSE_16, lanes=lanes, tall=tall,
                    wide_network=relayout.widened_network(relayout.TRANSPOSE_16, lanes) if lanes > 1 else None,
                    merge_network=relayout.lane_merge_network(lanes) if lanes > 1 and not tall and r == 16 else None,
                    split_network=relayout.lane_split_network(lanes) if tall and s == 16 and sr == 16 else None,
                    **extra)


def shuffle_streams(p: ReorderProblem, r: int) -> int:
    """The stores of the "shuffle" form that go past the caches, by their elements (0: none): those
    that are whole 64-byte lines (16 f32, 32 bf16 or 64 s8 elements: a tile column of 16, or of 16 x
    lanes where 8- and 16-bit tiles are stacked or merged), where the destination is bigger than the
    caches (`SHUFFLE_STREAM_BYTES`) and its rows of `r` elements are whole lines.

    A host-threads part counts the whole destination, which its parts store at the same time. A
    streaming store of part of a line is not merged with the rest of it, which another tile stores 16
    rows further on, and is much slower than a plain store (measured: docs/performance.md, Tuned
    constants)."""
    line = 64 // p.dst.dtype.itemsize
    stored = p.dst.size_bytes if p.whole_dst_bytes is None else p.whole_dst_bytes
    return line if stored > SHUFFLE_STREAM_BYTES and r % line == 0 else 0


def kernel_name(chain: Sequence[ReorderProblem]) -> str:
    return chain[0].name if len(chain) == 1 else "chain__" + "__".join(p.name for p in chain)


def render_reorder_module(chains: Sequence[Sequence[ReorderProblem]], *, form: str = "pack") -> str:
    """One MLIR module holding several kernels (compiling them together amortises iree-compile's start)."""
    seen, bodies = set(), []
    for chain in chains:
        if kernel_name(chain) not in seen:
            seen.add(kernel_name(chain))
            bodies.append(render_reorder(chain, form=form, header=False))
    return with_header(TEMPLATE, "\n".join(bodies))


def render_reorder(problems: "ReorderProblem | Sequence[ReorderProblem]", *, form: str = "pack",
                   name: str | None = None, header: bool = True) -> str:
    """MLIR text of one reorder kernel (or a folded chain of reorders)."""
    chain = [problems] if isinstance(problems, ReorderProblem) else list(problems)
    if not chain:
        raise FormatError("a reorder chain needs at least one reorder")
    for a, b in zip(chain, chain[1:]):
        if a.dst.dims != b.src.dims or a.dst.dtype != b.src.dtype:
            raise FormatError(f"reorder chain breaks: {a.dst!r} feeds {b.src!r}")
    first, last = chain[0], chain[-1]
    if first.src.is_zero_volume:
        raise UnsupportedError("zero-volume reorders need no kernel")
    plan = Plan()
    args = [Value("src", (first.src_arg_len,), first.src.dtype.mlir)]
    quant_values: list[dict[str, Value]] = []
    for k, p in enumerate(chain):
        vals = {}
        for arg, q in p.quant_args:
            label = arg if len(chain) == 1 else f"s{k}_{arg}"
            vals[arg] = Value(label, q.shape(p.dims), p.quant_dtype(arg).mlir)
            args.append(vals[arg])
        quant_values.append(vals)
    init = None
    if last.needs_dst_init:
        init = Value("dst_init", (last.dst.buffer_len,), last.dst.dtype.mlir)
        args.append(init)
    src = relayout.unpack_storage(plan, args[0], first.src)          # 4-bit types: bytes -> elements
    if init is not None:
        init = relayout.unpack_storage(plan, init, last.dst)
    fn = name or kernel_name(chain)
    pieces = None
    if form == "transpose" and init is None and not (first.src.dtype.is_packed or last.dst.dtype.is_packed):
        pieces = relayout.tail_pieces(first.src, last.dst)
    if form == "shuffle":
        geometry = shuffle_plan(chain)
        if isinstance(geometry, str):
            raise UnsupportedError(f"reorder form 'shuffle' does not apply: {geometry}")
        out = _shuffle(plan, src, first, fn, geometry)
    elif pieces:
        out = _in_pieces(plan, src, chain, quant_values, pieces, form)
    else:
        v = relayout.buffer_to_logical(plan, src, first.src, form)
        for p, vals in zip(chain, quant_values):
            v = convert_step(plan, v, p, vals)
        out = relayout.pack_storage(plan, relayout.logical_to_buffer(plan, v, last.dst, form, init), last.dst)
    if out.name == "src":         # identical layouts and types: the kernel still returns a fresh buffer
        out = plan.add("copy", out, out.shape)
    # `!type` aliases for the buffers (a module of several kernels, `render_reorder_module`, has none:
    # their names would clash)
    aliases = [(f"{a.name}_buf" if a.name in ("src", "dst_init") else a.name, a) for a in args] + [("dst_buf", out)]
    return render(TEMPLATE, header=header, fn=fn, args=args, steps=plan.steps, result=out,
                  aliases=aliases)
