"""The files the command line reads and writes (.npy arrays, and where reports go): one clear line for
every way they go wrong, before any long work where it can be known then.

16-bit floats: NumPy has no bfloat16 of its own, so `np.save` writes an `ml_dtypes.bfloat16` array as
raw 2-byte values (descr ``|V2``), and `np.load` gives them back as such. Such a file is read as bf16
wherever the tensor is bf16; a bf16 result is written the same way (read it back with
``np.load(f).view(ml_dtypes.bfloat16)``). A float32 file is accepted for a bf16 or f16 tensor and
rounded to nearest even, which is said once on stderr.
"""
from __future__ import annotations

import importlib.util
import os
import sys

import ml_dtypes
import numpy as np

from ..errors import InputError, UnsupportedError
from ..layout import get_dtype, is_numeric

#: the float32 -> 16-bit roundings already reported in this process (each is said once)
_ROUNDINGS_SAID: set[tuple[str, str]] = set()


def load_npy(path: str, option: str) -> np.ndarray:
    """The array in `path` (given as `--<option>=path`); missing, unreadable or non-.npy files raise InputError."""
    try:
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"--{option} file not found: {path}") from None
    except IsADirectoryError:
        raise InputError(f"--{option}={path} is a directory, not a .npy file") from None
    except (OSError, ValueError) as e:
        # np.load reads a non-.npy file as a pickle and then refuses it: say what the file is not
        why = "not a .npy file" if "pickle" in str(e) else str(e)
        raise InputError(f"cannot read --{option}={path} as a .npy array: {why}") from None


def _describe(dt: np.dtype) -> str:
    if dt.kind == "V" and dt.names is None and dt.itemsize != 2:
        return f"{dt.str} (raw {dt.itemsize}-byte values)"
    return str(dt)


def as_dtype(a: np.ndarray, dtype, what: str) -> np.ndarray:
    """`a`, read from `what` (``--src=x.npy``), as the data type `dtype` (a kgen DataType or name):
    unchanged where it already is; raw 2-byte values (how np.save writes bfloat16) read as bf16;
    a 16-bit float widened to f32 (exact); float32 rounded to nearest even for a bf16 or f16 tensor
    (said once on stderr); anything else an InputError naming both types."""
    t = get_dtype(dtype)
    want = t.np_dtype
    if a.dtype == want:
        return a
    if a.dtype.kind == "V" and a.dtype.names is None and a.dtype.itemsize == 2:
        a = a.view(ml_dtypes.bfloat16)
        if want == a.dtype:
            return a
    sixteen = t.name in ("bf16", "f16")
    if t.name == "f32" and a.dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)):
        return a.astype(np.float32)
    if sixteen and a.dtype == np.float32:
        out = a.astype(want)
        back = out.astype(np.float32)
        changed = int(np.count_nonzero((back != a) & ~(np.isnan(back) & np.isnan(a))))
        key = (what, t.name)
        if key not in _ROUNDINGS_SAID:
            _ROUNDINGS_SAID.add(key)
            msg = (f"kgen: note: {what} holds float32, rounded to {t.name} (to nearest even): "
                   f"{changed} of {a.size} values changed")
            print(msg, file=sys.stderr, flush=True)
        return out
    also = " (or float32, rounded to it)" if sixteen else ""
    raise InputError(f"{what} has dtype {_describe(a.dtype)}, expected {t.name} ({want}){also}")


def load_quant_file(path: str, option: str, shape: tuple[int, ...], policy: str, zero_point: bool) -> np.ndarray:
    """Scales or zero points from --<option>=path: `shape` numbers (a scalar, or a 1-element array, for
    common), finite, and integers for zero points."""
    a = load_npy(path, option)
    if a.shape == (1,) and shape == ():
        a = a.reshape(())
    if a.shape != shape or not is_numeric(a.dtype):
        raise InputError(f"--{option}={path} holds {a.dtype} of shape {'x'.join(map(str, a.shape)) or 'scalar'}, "
                         f"expected {'one number' if not shape else 'x'.join(map(str, shape)) + ' numbers'} ({policy})")
    v = np.asarray(a, np.float64)
    if not np.all(np.isfinite(v)):
        raise InputError(f"--{option}={path}: {'zero points' if zero_point else 'scales'} must be finite")
    if zero_point and not np.array_equal(v, np.round(v)):
        raise InputError(f"--{option}={path}: zero points must be integers")
    return a


def check_output_path(option: str, path: str | None, module: str | None = None) -> None:
    """Before a long run: the directory of --<option>=path exists, and the Python package that writes it
    (`module`, e.g. matplotlib for a PNG) imports; an InputError / UnsupportedError in one line if not."""
    if not path:
        return
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise InputError(f"--{option}={path}: no such directory")
    if module and importlib.util.find_spec(module) is None:
        raise UnsupportedError(f"--{option} needs {module}, which is not installed (pip install -e .[bench], "
                               f"or ./build.sh bench)")


def save_npy(path: str, array: np.ndarray, option: str) -> None:
    try:
        np.save(path, array)
    except OSError as e:
        raise InputError(f"cannot write --{option}={path}: {e.strerror or e}") from None
