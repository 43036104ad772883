"""MemoryDesc: logical dims, a data type and a physical format, in the spirit of oneDNN's memory descriptor.

A descriptor is dims + dtype + oneDNN's blocking structure: one outer stride per logical dim, counted
in elements, plus a list of inner blocks (dim, size), outermost first. Every format family is a
special case of one offset function::

    offset(idx) = offset0
                + sum_d (idx[d] // B[d]) * stride[d]               # outer part, B[d] = product of d's blocks
                + sum_k digit_k(idx) * prod(size_j for j > k)       # inner blocks, outermost first

where digit_k is the index within block k (for a dim blocked twice, as i in OIhw4i16o4i, the outer
block takes the higher digit). Examples, with C_pad = C rounded up to the block:

    nchw     offset(n,c,h,w) = n*C*H*W + c*H*W + h*W + w
    nhwc     offset(n,c,h,w) = n*H*W*C + h*W*C + w*C + c
    chwn     offset(n,c,h,w) = c*H*W*N + h*W*N + w*N + n
    strided  offset(n,c,h,w) = n*stride_n + c*stride_c + h*stride_h + w*stride_w
    nChw8c   offset(n,c,h,w) = n*C_pad*H*W + (c/8)*H*W*8 + h*W*8 + w*8 + c%8
    CHWN4    offset(n,c,h,w) = (c/4)*H*W*N*4 + h*W*N*4 + w*N*4 + n*4 + c%4
    OIhw4i16o4i offset(o,i,h,w) = (o/16)*I_pad*H*W*16 + (i/16)*H*W*256 + h*W*256 + w*256
                                + ((i%16)/4)*64 + (o%16)*4 + i%4

Padded areas of a blocked tensor (c in [C, C_pad)) exist in memory and are zero: the sizes here are
never the plain product of dims when a dim is padded (nChw8c with C=17 pads C to 24).

Offsets count elements. For the 4-bit types (s4, u4) two elements share a byte, low nibble first:
element `o` of the buffer is bits 4*(o%2)..4*(o%2)+3 of byte o//2, so the NumPy physical buffer is
`np.uint8` of ceil(buffer_nelems/2) bytes (`buffer_len`), and `to_physical` / `from_physical` /
`check_buffer` take and give it packed (`buffer_elements` unpacks it, one value per element).
"""
from __future__ import annotations

import math
import operator
from typing import Sequence

import numpy as np

from ..errors import FormatError, InputError
from .dtypes import DataType, get_dtype, pack_int4, unpack_int4
from .pitch import Pitch
from .tags import Blocking, parse_tag

MAX_NDIMS = 6
_LETTERS = "abcdefghijkl"


def _check_dims(dims: Sequence[int]) -> tuple[int, ...]:
    try:
        out = tuple(int(d) for d in dims)
    except (TypeError, ValueError):
        raise FormatError(f"dims must be integers, got {dims!r}") from None
    if not 1 <= len(out) <= MAX_NDIMS:
        raise FormatError(f"a descriptor has 1..{MAX_NDIMS} dims, got {len(out)}")
    if any(d < 0 for d in out) or any(int(d) != d for d in dims):
        raise FormatError(f"dims must be non-negative integers, got {'x'.join(map(str, dims))}")
    return out


class _Shaped:
    """What any descriptor has: logical dims (and so a rank and an element count)."""
    __slots__ = ()

    @property
    def ndims(self) -> int:
        return len(self.dims)

    @property
    def nelems(self) -> int:
        """Number of logical elements (product of dims)."""
        return math.prod(self.dims)

    @property
    def is_zero_volume(self) -> bool:
        return self.nelems == 0


class MemoryDesc(_Shaped):
    """Logical dims in canonical order, a data type and a physical format.

    `format` is a tag (``nchw``, ``nChw16c``, ``aBcd16b``, ``NCHW4``, ``OIHW16i16o``, ...); or pass
    `strides` (elements, one per logical dim) for a plain strided layout such as a row-pitched
    image or a view into a bigger tensor. `offset0` is the element offset of the first element in
    its buffer (non-zero for sub-memory views).
    """

    __slots__ = ("dims", "dtype", "blocking", "padded_dims", "strides", "offset0", "_tag", "_hash")

    #: a concrete layout (`AnyDesc`, format ``any``, has none yet)
    is_any = False

    def __new__(cls, dims=(), dtype="f32", format=None, **kw):
        # oneDNN's memory::desc(dims, dt, format_tag::any): a descriptor whose layout the primitive chooses
        if cls is MemoryDesc and format == "any":
            given = sorted(k for k, v in kw.items() if v is not None and not (k == "offset0" and v == 0))
            if given:
                raise FormatError(f"format 'any' takes no {', '.join(given)}: the kernel chooses the layout")
            return AnyDesc(dims, dtype)
        return super().__new__(cls)

    def __init__(self, dims: Sequence[int], dtype: "str | DataType" = "f32", format: str | None = None,
                 *, strides: Sequence[int] | None = None, offset0: int = 0,
                 padded_dims: Sequence[int] | None = None):
        self.dims = _check_dims(dims)
        self.dtype = get_dtype(dtype)
        n = len(self.dims)
        if strides is not None:
            if format is not None and parse_tag(format, n).blocks:
                raise FormatError(f"explicit strides apply to plain formats, not to blocked '{format}'")
            try:
                st = tuple(int(s) for s in strides)
            except (TypeError, ValueError):
                raise FormatError(f"strides must be integers, got {strides!r}") from None
            if len(st) != n:
                raise FormatError(f"{len(st)} strides given for {n} dims")
            if any(s < 0 for s in st):
                raise FormatError(f"strides must be non-negative, got {'x'.join(map(str, st))}")
            order = tuple(sorted(range(n), key=lambda d: (-st[d], d)))
            self.blocking = Blocking(order, ())
            if padded_dims is not None and tuple(padded_dims) != self.dims:
                raise FormatError(f"explicit strides take no padding: padded dims {tuple(padded_dims)} "
                                  f"differ from dims {self.dims}")
            self.padded_dims = self.dims
            self.strides = st
            self._tag = None
        else:
            self.blocking = parse_tag("abx" if format is None else format, n)
            pad = []
            for d in range(n):
                b = self.block_of(d)
                pad.append(-(-self.dims[d] // b) * b)
            if padded_dims is not None:     # more padding than the blocks need is legal, less is not
                if len(padded_dims) != n or any(int(p) < q or int(p) % self.block_of(d)
                                                for d, (p, q) in enumerate(zip(padded_dims, pad))):
                    raise FormatError(f"padded dims {tuple(padded_dims)} must cover dims {self.dims} and be "
                                      f"multiples of the blocks of '{format}' (at least {tuple(pad)})")
                pad = [int(p) for p in padded_dims]
            self.padded_dims = tuple(pad)
            st = [0] * n
            stride = self.inner_size
            for d in reversed(self.blocking.outer_order):
                st[d] = stride
                stride *= self.padded_dims[d] // self.block_of(d)
            self.strides = tuple(st)
            self._tag = self.blocking.tag()
        if offset0 < 0:
            raise FormatError(f"offset0 must be non-negative, got {offset0}")
        self.offset0 = int(offset0)
        self._hash = None
        if strides is not None:
            self._check_no_overlap()

    # ------------------------------------------------------------------ structure
    @property
    def blocks(self) -> tuple[tuple[int, int], ...]:
        """Inner blocks as (dim, size), outermost first (oneDNN's inner_idxs / inner_blks)."""
        return self.blocking.blocks

    @property
    def inner_size(self) -> int:
        return math.prod(s for _, s in self.blocks)

    def block_of(self, d: int) -> int:
        """Product of the inner block sizes of logical dim d (1 when d is not blocked)."""
        return math.prod(s for dd, s in self.blocks if dd == d)

    @property
    def outer_dims(self) -> tuple[int, ...]:
        """Extent of each logical dim's outer index: padded dim / its block product."""
        return tuple(p // self.block_of(d) for d, p in enumerate(self.padded_dims))

    @property
    def order(self) -> tuple[int, ...]:
        """Logical dims in physical order, outermost first (descending stride; the tag breaks ties)."""
        pos = {d: k for k, d in enumerate(self.blocking.outer_order)}
        return tuple(sorted(range(self.ndims), key=lambda d: (-self.strides[d], pos[d])))

    @property
    def tag(self) -> str | None:
        """Canonical oneDNN letter tag, or None for an explicitly strided format."""
        return self._tag

    @property
    def is_blocked(self) -> bool:
        return bool(self.blocks)

    @property
    def span(self) -> int:
        """Elements from the first to one past the last addressed element, padding included."""
        if self.is_zero_volume:
            return 0
        return sum((e - 1) * s for e, s in zip(self.outer_dims, self.strides)) + self.inner_size

    @property
    def buffer_nelems(self) -> int:
        """Length of the 1-D physical buffer that holds this tensor (offset0 included)."""
        return 0 if self.is_zero_volume else self.offset0 + self.span

    @property
    def buffer_len(self) -> int:
        """Entries of the NumPy physical buffer: `buffer_nelems`, or its bytes for 4-bit types
        (ceil(buffer_nelems / 2), two elements per byte)."""
        return self.dtype.buffer_len(self.buffer_nelems)

    @property
    def buffer_dtype(self) -> np.dtype:
        """NumPy dtype of the physical buffer: the data type's, or uint8 (packed bytes) for s4 / u4."""
        return self.dtype.buffer_dtype

    @property
    def size_bytes(self) -> int:
        """Bytes of the physical buffer: padding included, so not the product of dims when padded."""
        return -(-self.buffer_nelems * self.dtype.bits // 8)

    @property
    def physical_shape(self) -> tuple[int, ...]:
        """Shape of the packed tensor: outer extents in physical order, then the inner block sizes."""
        return tuple(self.outer_dims[d] for d in self.order) + tuple(s for _, s in self.blocks)

    @property
    def is_dense(self) -> bool:
        """True when the buffer holds exactly the packed tensor: no gaps, no offset."""
        return self.offset0 == 0 and self.buffer_nelems == math.prod(self.physical_shape)

    # ------------------------------------------------------------------ offsets
    def offset(self, index: Sequence[int]) -> int:
        """Element offset of one logical index (padded indices up to padded_dims are allowed)."""
        if len(index) != self.ndims:
            raise FormatError(f"index has {len(index)} coordinates, descriptor has {self.ndims} dims")
        for i, p in zip(index, self.padded_dims):
            if not 0 <= i < max(p, 1):
                raise FormatError(f"index {tuple(index)} is outside padded dims {self.padded_dims}")
        return int(self._offsets_of([np.asarray(i) for i in index]))

    def _offsets_of(self, idx: list[np.ndarray]) -> np.ndarray:
        """The offset formula of the module docstring, on broadcastable index arrays."""
        off = np.int64(self.offset0)
        for d in range(self.ndims):
            off = off + (idx[d] // self.block_of(d)) * self.strides[d]
        inner_stride = self.inner_size
        remaining = {d: self.block_of(d) for d in range(self.ndims)}   # radix left for each dim
        for d, size in self.blocks:
            inner_stride //= size
            remaining[d] //= size
            digit = (idx[d] // remaining[d]) % size
            off = off + digit * inner_stride
        return off

    def index_of(self, offset: int) -> tuple[int, ...]:
        """The backward index (TVM's ``BackwardIndex``): the logical index stored at element `offset`.

        The inverse of `offset`: ``d.index_of(d.offset(i)) == i`` for every index up to padded_dims.
        An index with a coordinate at or past `dims` is a padding lane of a blocked dim (its element
        is zero). Worked, nChw8c with dims 2x17x5x4 (C pads to 24): offset 1 of the block is c=1;
        offset 5*4*8 = 160 starts the second channel block (n=0, c=8, h=0, w=0); offset
        3*5*4*8 + 1 = 481 lies in n=1's first block: (1, 1, 0, 0). Raises `FormatError` for an offset
        no index maps to: before offset0, past the buffer, or in a gap between strided rows.
        """
        offset = operator.index(offset)
        rel = offset - self.offset0
        if self.is_zero_volume or not 0 <= rel < self.span:
            raise FormatError(f"offset {offset} is outside the {self.format_name()} buffer "
                              f"[{self.offset0}, {self.offset0 + self.span})")
        # inner blocks: the digits of rel % inner_size, outermost block first (the docstring formula)
        inner, outer = rel % self.inner_size, rel // self.inner_size * self.inner_size
        idx = [0] * self.ndims
        inner_stride = self.inner_size
        remaining = {d: self.block_of(d) for d in range(self.ndims)}
        for d, size in self.blocks:
            inner_stride //= size
            remaining[d] //= size
            idx[d] += (inner // inner_stride) % size * remaining[d]
        # outer part: largest stride first; exact for nested strides, checked below otherwise
        for d in self.order:
            if self.strides[d] and self.outer_dims[d] > 1:
                q = min(outer // self.strides[d], self.outer_dims[d] - 1)
                idx[d] += q * self.block_of(d)
                outer -= q * self.strides[d]
        found = tuple(idx)
        if outer == 0 and int(self._offsets_of([np.asarray(i) for i in found])) == offset:
            return found
        if self.pitch() is None:   # interleaved strides: search the (small, see _check_no_overlap) tensor
            hit = np.argwhere(self.offsets(padded=True) == offset)
            if hit.size:
                return tuple(int(i) for i in hit[0])
        raise FormatError(f"offset {offset} is a gap of the {self.format_name()} buffer: no index maps to it")

    def offsets(self, padded: bool = False) -> np.ndarray:
        """Offsets of every logical element, as an int64 array of shape dims (or padded_dims)."""
        shape = self.padded_dims if padded else self.dims
        idx = [np.arange(e, dtype=np.int64).reshape([-1 if k == d else 1 for k in range(self.ndims)])
               for d, e in enumerate(shape)]
        return np.broadcast_to(self._offsets_of(idx), shape)

    def _check_no_overlap(self) -> None:
        """Strides must give distinct offsets to distinct indices (oneDNN rejects overlapping strides)."""
        live = sorted((self.strides[d], self.dims[d]) for d in range(self.ndims) if self.dims[d] > 1)
        reach = 0
        nested = True
        for s, e in live:
            if s <= reach:
                nested = False
                break
            reach += (e - 1) * s
        if nested:
            return
        if self.nelems > 1 << 22:
            raise FormatError(f"strides {'x'.join(map(str, self.strides))} interleave and the tensor is too "
                              f"large to prove they do not overlap")
        offs = self.offsets().ravel()
        if np.unique(offs).size != offs.size:
            raise FormatError(f"strides {'x'.join(map(str, self.strides))} overlap for dims "
                              f"{'x'.join(map(str, self.dims))}")

    def pitch(self) -> Pitch | None:
        """The dense view of the buffer used by emitted kernels, or None if strides interleave.

        Consecutive outer dims (in physical order, unit dims skipped since their stride is moot) must
        nest: each stride a multiple of the next one's, with room for its extent.
        """
        order = self.order
        ext = [self.outer_dims[d] for d in order]
        st = [self.strides[d] for d in order]
        inner = self.inner_size
        shape = [1] * len(order)
        live = [k for k in range(len(order)) if ext[k] > 1]
        for a, b in zip(live, live[1:]):
            if st[b] == 0 or st[a] % st[b] or st[a] // st[b] < ext[b]:
                return None
            shape[b] = st[a] // st[b]
        gap = 1
        if live:
            shape[live[0]] = ext[live[0]]
            last = st[live[-1]]
            if last < inner or last % inner:
                return None
            gap = last // inner
        blocks = tuple(s for _, s in self.blocks)
        if gap > 1:
            return Pitch(tuple(order), tuple(shape) + (gap,) + blocks, tuple(ext) + (1,) + blocks, True)
        return Pitch(tuple(order), tuple(shape) + blocks, tuple(ext) + blocks, False)

    # ------------------------------------------------------------------ NumPy helpers (test reference)
    def to_physical(self, logical: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
        """Place a logical array into a 1-D physical buffer using the offset function.

        Padding and gaps are zero, or keep the values of `base` (the destination's previous buffer).
        For s4 / u4 the result is packed bytes (`buffer_len` uint8, low nibble first).
        """
        logical = np.asarray(logical)
        if tuple(logical.shape) != self.dims:
            raise InputError(f"logical array has shape {'x'.join(map(str, logical.shape))}, "
                             f"descriptor dims are {'x'.join(map(str, self.dims))}")
        view = self._dense_view()
        if base is None and view is not None:    # the buffer is the (padded) array split and transposed
            split, perm = view
            if self.padded_dims != self.dims:    # a blocked dim's tail: zeros
                padded = np.zeros(self.padded_dims, self.dtype.np_dtype)
                padded[tuple(slice(0, e) for e in self.dims)] = logical
                logical = padded
            buf = np.empty([split[k] for k in perm], self.dtype.np_dtype)
            np.copyto(buf, logical.reshape(split).transpose(perm), casting="unsafe")   # astype's conversion
            return buf.reshape(-1)
        if base is None:
            buf = np.zeros(self.buffer_nelems, dtype=self.dtype.np_dtype)
            if self.is_blocked:   # padded region of a blocked tensor is owned by it: zero
                buf[self.offsets(padded=True).ravel()] = 0
        else:
            buf = self.buffer_elements(base).copy()
            if self.is_blocked:
                buf[self.offsets(padded=True).ravel()] = 0
        buf[self.offsets().ravel()] = logical.astype(self.dtype.np_dtype, copy=False).ravel()
        return self.buffer_from_elements(buf)

    def from_physical(self, buffer: np.ndarray) -> np.ndarray:
        """Read the logical array out of a 1-D physical buffer using the offset function."""
        view = self._dense_view()
        if view is not None:                     # the buffer is the (padded) array split and transposed
            split, perm = view
            buf = self.check_buffer(buffer).reshape([split[k] for k in perm]).transpose(np.argsort(perm))
            buf = buf.reshape(self.padded_dims)[tuple(slice(0, e) for e in self.dims)]
            return np.array(buf, order="C")     # a copy, as a gather is
        return self.buffer_elements(buffer)[self.offsets()]

    def _dense_view(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """(split, perm) where the buffer is exactly the padded logical array with each dim split into
        its outer index and its block digits (`split`: per dim, outer extent then the sizes of its
        blocks, outermost first, as the offset function takes the digits), transposed by `perm` (the
        outer axes in physical order, then the blocks in order): no gaps, offset or interleaving, whole
        bytes. None otherwise. `to_physical` / `from_physical` then copy in one transposition instead of
        scattering through `offsets`, many times faster (measured: docs/performance.md, Tuned constants)."""
        if self.dtype.is_packed or self.is_zero_volume or not self.is_dense:
            return None
        stride = self.inner_size
        for d in reversed(self.order):
            if self.outer_dims[d] > 1 and self.strides[d] != stride:
                return None
            stride *= self.outer_dims[d]
        split, outer_axis, block_axes = [], {}, {d: [] for d in range(self.ndims)}
        for d in range(self.ndims):
            outer_axis[d] = len(split)
            split.append(self.outer_dims[d])
            for dd, size in self.blocks:
                if dd == d:
                    block_axes[d].append(len(split))
                    split.append(size)
        seen = {d: 0 for d in range(self.ndims)}
        inner = []
        for d, _ in self.blocks:
            inner.append(block_axes[d][seen[d]])
            seen[d] += 1
        return tuple(split), tuple(outer_axis[d] for d in self.order) + tuple(inner)

    def buffer_elements(self, buffer: np.ndarray) -> np.ndarray:
        """The physical buffer as one value per element (`buffer_nelems`, NumPy dtype of the data
        type), checked: the buffer itself, or for s4 / u4 its bytes unpacked (int4 / uint4)."""
        buf = self.check_buffer(buffer)
        if self.dtype.is_packed:
            return unpack_int4(buf, self.buffer_nelems, self.dtype.signed)
        return buf

    def buffer_from_elements(self, elements: np.ndarray) -> np.ndarray:
        """The inverse of `buffer_elements`: `buffer_nelems` values -> the physical buffer (packed
        bytes for s4 / u4, the last high nibble zero when the count is odd)."""
        elements = np.asarray(elements)
        if elements.shape != (self.buffer_nelems,):
            raise InputError(f"element array has shape {elements.shape}, the {self.format_name()} buffer "
                             f"holds {self.buffer_nelems} elements")
        if self.dtype.is_packed:
            return pack_int4(elements.astype(self.dtype.np_dtype, copy=False))
        return elements.astype(self.dtype.np_dtype, copy=False)

    def padding_mask(self) -> np.ndarray:
        """Boolean mask over the buffer: True where an element lies in the padded tail of a blocked dim."""
        mask = np.zeros(self.buffer_nelems, dtype=bool)
        if self.is_blocked and not self.is_zero_volume:
            mask[self.offsets(padded=True).ravel()] = True
            mask[self.offsets().ravel()] = False
        return mask

    def check_buffer(self, buffer: np.ndarray) -> np.ndarray:
        """Validate a physical buffer: 1-D, the descriptor's dtype, exactly buffer_nelems long (for
        s4 / u4: uint8 packed bytes, `buffer_len` of them)."""
        if not isinstance(buffer, np.ndarray):
            raise InputError(f"physical buffer must be a NumPy array, got {type(buffer).__name__}")
        if self.dtype.is_packed:
            if buffer.dtype != np.uint8 or buffer.ndim != 1 or buffer.size != self.buffer_len:
                raise InputError(f"physical {self.dtype.name} buffer has dtype {buffer.dtype} and shape "
                                 f"{buffer.shape}; the descriptor wants {self.buffer_len} packed bytes (a 1-D "
                                 f"uint8 array, two elements per byte, low nibble first, for "
                                 f"{self.buffer_nelems} elements): use to_physical or pack_int4")
            return buffer
        if buffer.dtype != self.dtype.np_dtype:
            raise InputError(f"physical buffer has dtype {buffer.dtype}, descriptor wants "
                             f"{self.dtype.name} ({self.dtype.np_dtype})")
        if buffer.ndim != 1 or buffer.size != self.buffer_nelems:
            raise InputError(f"physical buffer has shape {buffer.shape}, descriptor wants a 1-D array of "
                             f"{self.buffer_nelems} elements ({self.size_bytes} bytes)")
        return buffer

    # ------------------------------------------------------------------ derived descriptors
    def _clone(self, dims, strides, blocking, padded_dims, offset0, tag) -> "MemoryDesc":
        new = object.__new__(MemoryDesc)
        new.dims, new.dtype, new.blocking = tuple(dims), self.dtype, blocking
        new.padded_dims, new.strides, new.offset0 = tuple(padded_dims), tuple(strides), offset0
        new._tag, new._hash = tag, None
        return new

    def with_dtype(self, dtype: "str | DataType") -> "MemoryDesc":
        new = self._clone(self.dims, self.strides, self.blocking, self.padded_dims, self.offset0, self._tag)
        new.dtype = get_dtype(dtype)
        return new

    def submemory(self, dims: Sequence[int], offsets: Sequence[int]) -> "MemoryDesc":
        """A view of a sub-tensor (oneDNN's submemory_desc): same strides and blocks, shifted offset0.

        Offsets along a blocked dim must be multiples of its block (a view cannot start mid-block).
        """
        dims = _check_dims(dims)
        if len(dims) != self.ndims or len(offsets) != self.ndims:
            raise FormatError(f"submemory needs {self.ndims} dims and offsets, got {len(dims)} and {len(offsets)}")
        padded, off0 = [], self.offset0
        for d in range(self.ndims):
            if offsets[d] < 0 or offsets[d] + dims[d] > self.dims[d]:
                raise FormatError(f"submemory {'x'.join(map(str, dims))} at offsets {tuple(offsets)} does not "
                                  f"fit in dims {'x'.join(map(str, self.dims))}")
            b = self.block_of(d)
            if offsets[d] % b:
                raise FormatError(f"submemory offset {offsets[d]} on dim {_LETTERS[d]} is not a multiple of "
                                  f"its block {b}")
            # oneDNN: only a view reaching the right border owns a padded tail (the parent's); elsewhere the
            # elements after a partial block are the neighbours' data, which a write would zero as padding.
            right_border = offsets[d] + dims[d] == self.dims[d]
            if not right_border and dims[d] % b:
                raise FormatError(f"submemory size {dims[d]} on dim {_LETTERS[d]} ends mid-block (block {b}) "
                                  f"before the end of the dim; use a multiple of {b} or reach the border")
            padded.append(self.padded_dims[d] - offsets[d] if right_border else dims[d])
            off0 += offsets[d] // b * self.strides[d]
        return self._clone(dims, self.strides, self.blocking, padded, off0, None)

    def permute_axes(self, perm: Sequence[int]) -> "MemoryDesc":
        """oneDNN's permute_axes: logical axis i of this descriptor becomes axis perm[i] of the result."""
        if sorted(perm) != list(range(self.ndims)):
            raise FormatError(f"permutation {tuple(perm)} is not a permutation of 0..{self.ndims - 1}")
        n = self.ndims
        dims, strides, padded = [0] * n, [0] * n, [0] * n
        for i, p in enumerate(perm):
            dims[p], strides[p], padded[p] = self.dims[i], self.strides[i], self.padded_dims[i]
        blocking = Blocking(tuple(perm[d] for d in self.blocking.outer_order),
                            tuple((perm[d], s) for d, s in self.blocks))
        return self._clone(dims, strides, blocking, padded, self.offset0,
                           blocking.tag() if self._tag is not None else None)

    def reshape(self, dims: Sequence[int]) -> "MemoryDesc":
        """oneDNN's reshape: new logical dims over the same buffer, when no data has to move.

        Dims are grouped into runs with equal volume; a run that changes must be plain and
        contiguous in logical order (like NumPy's reshape of a view); blocked dims must stay as they are.
        """
        new = _check_dims(dims)
        if math.prod(new) != self.nelems:
            raise FormatError(f"cannot reshape {'x'.join(map(str, self.dims))} ({self.nelems} elements) into "
                              f"{'x'.join(map(str, new))} ({math.prod(new)} elements)")
        if self.is_zero_volume:
            return MemoryDesc(new, self.dtype, "abx" if len(new) else None)
        old = self.dims
        strides, padded, dim_map = [], [], {}
        has_blocks = {d for d, _ in self.blocks}
        i = j = 0
        while i < len(old) or j < len(new):
            i0, j0 = i, j
            old1, new1 = i < len(old) and old[i] == 1, j < len(new) and new[j] == 1
            if new1 and not old1:           # oneDNN's ADD_1: always possible, its stride is moot
                strides.append(self.strides[i] * self.outer_dims[i] if i < len(old) else self.inner_size)
                padded.append(1)
                j += 1
                continue
            if old1 and not new1 and i not in has_blocks:     # oneDNN's REMOVE_1 of a plain unit dim
                i += 1
                continue
            # take one group of old dims [i0, i) and new dims [j0, j) with equal volume
            vo = old[i] if i < len(old) else 1
            vn = new[j] if j < len(new) else 1
            i, j = i + 1, j + 1
            while vo != vn:
                if vo < vn:
                    vo *= old[i]; i += 1
                else:
                    vn *= new[j]; j += 1
            grp_old, grp_new = list(range(i0, min(i, len(old)))), list(range(j0, min(j, len(new))))
            if len(grp_old) == 1 and len(grp_new) == 1:
                d = grp_old[0]
                strides.append(self.strides[d]); padded.append(self.padded_dims[d]); dim_map[d] = grp_new[0]
                continue
            live = [d for d in grp_old if old[d] != 1]
            if any(d in has_blocks for d in grp_old):
                raise FormatError(f"cannot reshape {'x'.join(map(str, old))} into {'x'.join(map(str, new))}: "
                                  f"a blocked dim would change")
            for a, b in zip(live, live[1:]):
                if self.strides[a] != self.strides[b] * old[b]:
                    raise FormatError(f"cannot reshape {'x'.join(map(str, old))} into {'x'.join(map(str, new))} "
                                      f"without a copy: dims are not contiguous in memory")
            s = self.strides[live[-1]] if live else (self.strides[grp_old[-1]] if grp_old else self.inner_size)
            gs = []
            for k in reversed(grp_new):
                gs.append(s)
                s *= new[k]
            strides.extend(reversed(gs)); padded.extend(new[k] for k in grp_new)
        blocks = tuple((dim_map[d], s) for d, s in self.blocks)
        order = tuple(sorted(range(len(new)), key=lambda d: (-strides[d], d)))
        return self._clone(new, strides, Blocking(order, blocks), padded, self.offset0, None)

    # ------------------------------------------------------------------ identity and printing
    def _key(self):
        return (self.dims, self.dtype.name, self.padded_dims, self.strides, self.blocks, self.offset0)

    def __eq__(self, other) -> bool:
        return isinstance(other, MemoryDesc) and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def format_name(self) -> str:
        """Short name of the format: the canonical tag, or the strides (and offset0) when explicit."""
        name = self._tag if self._tag is not None else "s" + "x".join(map(str, self.strides))
        if self._tag is None and self.blocks:      # a blocked view: the strides alone do not say how
            name += "_b" + "".join(f"{s}{_LETTERS[d]}" for d, s in self.blocks)
        if self._tag is not None and self.padded_dims != MemoryDesc(self.dims, self.dtype, self._tag).padded_dims:
            name += "_p" + "x".join(map(str, self.padded_dims))
        if self.offset0:
            name += f"_o{self.offset0}"
        return name

    def __repr__(self) -> str:
        return f"MemoryDesc({'x'.join(map(str, self.dims))}, {self.dtype.name}, {self.format_name()})"

    def describe(self) -> str:
        """Multi-line description, printed by `kgen desc`."""
        blocks = ", ".join(f"{s}{_LETTERS[d]}" for d, s in self.blocks) or "none"
        lines = [
            f"dims:           {'x'.join(map(str, self.dims))}",
            f"data type:      {self.dtype.name}",
            f"format:         {self.format_name()}",
            f"padded dims:    {'x'.join(map(str, self.padded_dims))}",
            f"strides:        {'x'.join(map(str, self.strides))}  (outer, in elements)",
            f"inner blocks:   {blocks}  (outermost first)",
            f"physical order: {''.join(_LETTERS[d] for d in self.order)}",
            f"physical shape: {'x'.join(map(str, self.physical_shape))}",
            f"offset0:        {self.offset0}",
            f"elements:       {self.nelems} logical, {self.buffer_nelems} in buffer",
            f"size:           {self.size_bytes} bytes",
        ]
        return "\n".join(lines)


class NoLayoutError(FormatError, AttributeError):
    """What an `AnyDesc` raises when asked for anything physical: a `FormatError` (one line from the
    CLI), and an AttributeError, so that ``hasattr`` and ``getattr(d, name, default)`` work on it."""


class AnyDesc(_Shaped):
    """oneDNN's ``format_tag::any``: dims and a data type whose layout a convolution chooses.

    ``MemoryDesc(dims, dt, "any")`` builds one. It has no buffer: the kernel built from a problem
    with ``any`` tensors resolves each to a concrete `MemoryDesc` (by `kgen tune`'s measurement, else
    a documented rule, `generator.select.resolve_layouts`) and reports it as ``kernel.problem.src``
    and so on, as oneDNN's ``pd.src_desc()`` does. Asking an AnyDesc for anything physical (strides,
    a buffer, an offset) raises `FormatError`.
    """

    __slots__ = ("dims", "dtype")
    is_any = True
    tag = "any"
    offset0 = 0

    def __init__(self, dims: Sequence[int], dtype: "str | DataType" = "f32"):
        self.dims = _check_dims(dims)
        self.dtype = get_dtype(dtype)

    def with_dtype(self, dtype: "str | DataType") -> "AnyDesc":
        return AnyDesc(self.dims, dtype)

    def format_name(self) -> str:
        return "any"

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NoLayoutError(f"format 'any' has no layout yet ({name} asked of {self!r}): build the kernel and read "
                            f"the layout it chose from kernel.problem")

    def __eq__(self, other) -> bool:
        return isinstance(other, AnyDesc) and (self.dims, self.dtype.name) == (other.dims, other.dtype.name)

    def __hash__(self) -> int:
        return hash(("any", self.dims, self.dtype.name))

    def __repr__(self) -> str:
        return f"MemoryDesc({'x'.join(map(str, self.dims))}, {self.dtype.name}, any)"
