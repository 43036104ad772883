"""Data types: the one table that maps a oneDNN data-type name to NumPy, MLIR and its value range.

Unsigned types are stored in MLIR as signless integers of the same width; the kernels choose
`extui` / `uitofp` / `fptoui` where the table says `signed=False`.

The 4-bit integers s4 and u4 are stored as oneDNN stores them: packed two per byte, low nibble first
(element 2k in bits 0-3 of byte k, element 2k+1 in bits 4-7), in the order of the physical buffer,
the last byte's high nibble zero when the element count is odd. Their physical buffers are therefore
`np.uint8` arrays of ceil(n/2) bytes (`pack_int4` / `unpack_int4`); a logical value is one
`ml_dtypes.int4` / `ml_dtypes.uint4` per NumPy element, and kernels compute on them as i8.
"""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from ..errors import FormatError, InputError


@dataclass(frozen=True)
class DataType:
    name: str            # oneDNN / benchdnn spelling: f32, f16, bf16, s8, u8, s32, s4, u4
    np_dtype: np.dtype   # what NumPy holds one logical value in (s4: ml_dtypes.int4, one byte each)
    mlir: str            # element type kernels compute in (signless for integers; i8 for s4 / u4)
    is_int: bool
    signed: bool
    doc: str
    bits: int = 0        # bits per element in memory; 0: the NumPy item size (8 * itemsize)

    def __post_init__(self):
        if not self.bits:
            object.__setattr__(self, "bits", 8 * self.np_dtype.itemsize)

    @property
    def itemsize(self) -> int:
        """Bytes of one NumPy element (1 for s4 / u4, whose memory holds two per byte: see `bits`)."""
        return self.np_dtype.itemsize

    @property
    def is_packed(self) -> bool:
        """True for sub-byte types: several elements share a byte of the physical buffer."""
        return self.bits < 8

    @property
    def buffer_dtype(self) -> np.dtype:
        """NumPy dtype of a physical buffer of this type: packed bytes (uint8) for sub-byte types."""
        return np.dtype(np.uint8) if self.is_packed else self.np_dtype

    def buffer_len(self, nelems: int) -> int:
        """Entries of the physical NumPy buffer that holds `nelems` elements (bytes for sub-byte types)."""
        return -(-nelems * self.bits // 8) if self.is_packed else nelems

    @property
    def int_range(self) -> tuple[int, int]:
        """(lowest, highest) value of an integer type, exactly (s4: -8..7, u4: 0..15)."""
        info = ml_dtypes.iinfo(self.np_dtype)
        return int(info.min), int(info.max)

    @property
    def min(self) -> float:
        """Lowest value a saturating conversion clamps to."""
        if self.is_int:
            return float(self.int_range[0])
        return float(ml_dtypes.finfo(self.np_dtype).min)

    @property
    def max(self) -> float:
        """Highest value a saturating conversion clamps to, as a float32 that converts back safely.

        For s32 the true maximum 2**31-1 is not representable in f32 (it rounds up to 2**31 and
        would overflow the conversion), so the clamp uses the largest f32 below 2**31, as oneDNN does.
        """
        if self.is_int:
            hi = self.int_range[1]
            return float(np.nextafter(np.float32(hi), np.float32(0))) if hi > 2**24 else float(hi)
        return float(ml_dtypes.finfo(self.np_dtype).max)

    @property
    def zero_literal(self) -> str:
        return "0" if self.is_int else "0.0"


DTYPES: dict[str, DataType] = {
    d.name: d
    for d in (
        DataType("f32", np.dtype(np.float32), "f32", False, True, "IEEE binary32"),
        DataType("f16", np.dtype(np.float16), "f16", False, True, "IEEE binary16"),
        DataType("bf16", np.dtype(ml_dtypes.bfloat16), "bf16", False, True,
                 "bfloat16; NumPy arrays use ml_dtypes.bfloat16"),
        DataType("s32", np.dtype(np.int32), "i32", True, True, "signed 32-bit integer"),
        DataType("s8", np.dtype(np.int8), "i8", True, True, "signed 8-bit integer"),
        DataType("u8", np.dtype(np.uint8), "i8", True, False, "unsigned 8-bit integer (signless i8 in MLIR)"),
        DataType("s4", np.dtype(ml_dtypes.int4), "i8", True, True,
                 "signed 4-bit integer, -8..7; two per byte, low nibble first; kernels compute in i8", bits=4),
        DataType("u4", np.dtype(ml_dtypes.uint4), "i8", True, False,
                 "unsigned 4-bit integer, 0..15; two per byte, low nibble first; kernels compute in i8", bits=4),
    )
}

_ALIASES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "int32": "s32", "int8": "s8",
            "uint8": "u8", "i32": "s32", "i8": "s8", "int4": "s4", "uint4": "u4"}


def get_dtype(name: "str | DataType") -> DataType:
    """Look a data type up by its oneDNN name (f32, f16, bf16, s8, u8, s32, s4, u4) or a
    NumPy alias."""
    if isinstance(name, DataType):
        return name
    key = _ALIASES.get(str(name), str(name))
    if key not in DTYPES:
        raise FormatError(f"unknown data type '{name}' (known: {', '.join(DTYPES)})")
    return DTYPES[key]


def is_numeric(dt) -> bool:
    """NumPy's numbers (bool excluded) and ml_dtypes' (bfloat16, int4, uint4), whose kind NumPy reports
    as 'V' (void): what an array of values may hold."""
    dt = np.dtype(dt)
    return dt.kind in "iuf" or any(dt == d.np_dtype for d in DTYPES.values())


def dtype_of_array(arr: np.ndarray) -> DataType:
    """The DataType whose NumPy dtype an array has, or FormatError."""
    for d in DTYPES.values():
        if arr.dtype == d.np_dtype:
            return d
    raise FormatError(f"arrays of NumPy dtype {arr.dtype} have no matching data type "
                      f"(known: {', '.join(str(d.np_dtype) for d in DTYPES.values())})")


# ------------------------------------------------------------------------------------------ 4-bit storage
def _nibbles(values: np.ndarray) -> np.ndarray:
    """The low 4 bits of each value, as uint8: int4 / uint4 arrays, or integers in -8..15."""
    v = np.asarray(values)
    if v.dtype in (np.dtype(ml_dtypes.int4), np.dtype(ml_dtypes.uint4)):
        return v.view(np.uint8) & 0xF
    if v.dtype.kind not in "iu":
        raise InputError(f"4-bit values must be ml_dtypes.int4 / uint4 or integers, got dtype {v.dtype}")
    if v.size and (v.min() < -8 or v.max() > 15):
        bad = v.min() if v.min() < -8 else v.max()
        raise InputError(f"value {bad} does not fit in 4 bits (s4: -8..7, u4: 0..15)")
    return (v.astype(np.int16) & 0xF).astype(np.uint8)


def pack_int4(values: np.ndarray) -> np.ndarray:
    """1-D 4-bit values -> their packed bytes (np.uint8, ceil(n/2)), oneDNN's s4 / u4 storage:
    element 2k in bits 0-3 of byte k, element 2k+1 in bits 4-7; an odd count leaves the last high
    nibble zero. `values` are ml_dtypes.int4 / uint4, or integers in -8..15 (stored as their low 4 bits).

    >>> pack_int4(np.array([1, -2, 3], np.int8)).tolist()    # 0xE1, 0x03
    [225, 3]
    """
    v = np.asarray(values)
    if v.ndim != 1:
        raise InputError(f"pack_int4 takes a 1-D array (a physical buffer's elements), got shape {v.shape}")
    nib = _nibbles(v)
    if nib.size % 2:
        nib = np.concatenate([nib, np.zeros(1, np.uint8)])
    return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)


def unpack_int4(packed: np.ndarray, n: int, signed: bool = True) -> np.ndarray:
    """Packed bytes -> `n` 4-bit values (ml_dtypes.int4 when `signed`, else uint4), low nibble first:
    the inverse of `pack_int4`. `packed` is 1-D uint8 (int8 is taken as the same bits) of ceil(n/2)."""
    b = np.asarray(packed)
    if b.dtype not in (np.dtype(np.uint8), np.dtype(np.int8)) or b.ndim != 1:
        raise InputError(f"packed 4-bit data must be a 1-D uint8 array, got {b.dtype} of shape {b.shape}")
    if b.size != -(-n // 2):
        raise InputError(f"{n} 4-bit elements take {-(-n // 2)} bytes, got {b.size}")
    b = b.view(np.uint8)
    nib = np.empty(2 * b.size, np.uint8)
    nib[0::2], nib[1::2] = b & 0xF, b >> 4
    nib = nib[:n]
    if signed:
        return ((nib.astype(np.int8) ^ 8) - 8).astype(np.int8).astype(ml_dtypes.int4)
    return nib.astype(ml_dtypes.uint4)
