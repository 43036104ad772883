"""Data types: the one table that maps a oneDNN data-type name to NumPy, MLIR and its value range.

Unsigned types are stored in MLIR as signless integers of the same width; the kernels choose
`extui` / `uitofp` / `fptoui` where the table says `signed=False`.
"""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from ..errors import FormatError


@dataclass(frozen=True)
class DataType:
    name: str            # oneDNN / benchdnn spelling: f32, f16, bf16, s8, u8, s32
    np_dtype: np.dtype   # what NumPy buffers of this type hold
    mlir: str            # element type in MLIR (signless for integers)
    is_int: bool
    signed: bool
    doc: str

    @property
    def itemsize(self) -> int:
        return self.np_dtype.itemsize

    @property
    def min(self) -> float:
        """Lowest value a saturating conversion clamps to."""
        if self.is_int:
            return float(np.iinfo(self.np_dtype).min)
        return float(ml_dtypes.finfo(self.np_dtype).min)

    @property
    def max(self) -> float:
        """Highest value a saturating conversion clamps to, as a float32 that converts back safely.

        For s32 the true maximum 2**31-1 is not representable in f32 (it rounds up to 2**31 and
        would overflow the conversion), so the clamp uses the largest f32 below 2**31, as oneDNN does.
        """
        if self.is_int:
            hi = int(np.iinfo(self.np_dtype).max)
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
    )
}

_ALIASES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "int32": "s32", "int8": "s8",
            "uint8": "u8", "i32": "s32", "i8": "s8"}


def get_dtype(name: "str | DataType") -> DataType:
    """Look a data type up by its oneDNN name (f32, f16, bf16, s8, u8, s32) or a NumPy alias."""
    if isinstance(name, DataType):
        return name
    key = _ALIASES.get(str(name), str(name))
    if key not in DTYPES:
        raise FormatError(f"unknown data type '{name}' (known: {', '.join(DTYPES)})")
    return DTYPES[key]


def dtype_of_array(arr: np.ndarray) -> DataType:
    """The DataType whose NumPy dtype an array has, or FormatError."""
    for d in DTYPES.values():
        if arr.dtype == d.np_dtype:
            return d
    raise FormatError(f"arrays of NumPy dtype {arr.dtype} have no matching data type "
                      f"(known: {', '.join(str(d.np_dtype) for d in DTYPES.values())})")
