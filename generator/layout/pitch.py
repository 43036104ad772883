"""`Pitch`: a buffer seen as a dense tensor, the view emitted kernels address a nested (non-interleaved)
layout through (`MemoryDesc.pitch` builds it), and how a kernel reads such a view out of a buffer that
starts before it (`read_plan`, `window`)."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Pitch:
    """A buffer seen as a dense tensor: how emitted kernels address nested (non-interleaved) layouts.

    The buffer, from `offset0` on and padded up to `volume` elements, reshapes to `shape`:
    the outer dims in descending-stride order, each with its pitch (stride of the next-outer dim divided
    by its own), then an optional gap dim, then the inner blocks. The data occupies the leading
    `data_shape` corner of it; `order[k]` is the logical dim of physical outer dim k.
    """
    order: tuple[int, ...]
    shape: tuple[int, ...]
    data_shape: tuple[int, ...]
    has_gap_dim: bool

    @property
    def volume(self) -> int:
        return math.prod(self.shape)

    def read_plan(self, offset: int, buffer_nelems: int) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        """How a kernel reads this view at `offset` out of a buffer of `buffer_nelems` elements with no
        pad: (the element its slice starts at, the dense shape that slice expands to, the index of the
        data corner in it), or None when only padding the buffer up to a whole pitch reads it. The
        view's own pitch where it fits in the buffer after `offset`, else `window`'s reading from
        element 0. The emitter (`emit.relayout.buffer_to_packed`) and the reorder's host-threads
        views (`problem.reorder`, which refuses a view that needs the pad) both decide by it."""
        if offset + self.volume <= buffer_nelems:
            return offset, self.shape, (0,) * len(self.shape)
        window = self.window(offset, buffer_nelems)
        return None if window is None else (0,) + window

    def window(self, offset: int, buffer_nelems: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """This view read from element 0 of a buffer of `buffer_nelems` rather than from `offset` (its
        `offset0`): the dense shape to expand the buffer's head into (`shape`, the outermost dim grown to
        reach the data) and the index of the data corner in it, or None when `offset` does not fall
        inside the pitch (a row of a pitched dim past its end) or the buffer is too short. Why: a view
        that ends before its pitched volume (rows h0..h1 of every channel) otherwise pads the whole
        buffer to that volume, a copy of it, where slicing the buffer seen from element 0 copies
        nothing."""
        inner = [math.prod(self.shape[k + 1:]) for k in range(len(self.shape))]
        index, rest = [], offset
        for k, step in enumerate(inner):
            index.append(rest // step)
            rest %= step
        if any(i + d > s for i, d, s in zip(index[1:], self.data_shape[1:], self.shape[1:])):
            return None
        shape = (index[0] + self.shape[0],) + self.shape[1:]
        if math.prod(shape) > buffer_nelems:
            return None
        return shape, tuple(index)
