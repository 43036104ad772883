"""Reading and writing the command line's .npy files: one clear line for every way they go wrong."""
from __future__ import annotations

import numpy as np

from ..errors import InputError


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


def save_npy(path: str, array: np.ndarray, option: str) -> None:
    try:
        np.save(path, array)
    except OSError as e:
        raise InputError(f"cannot write --{option}={path}: {e.strerror or e}") from None
