"""kgen: a layout-aware reorder and convolution kernel generator on MLIR and IREE.

Layers, data flowing one way: layout -> problem -> emit (templates) -> compile -> runtime.
The names below are the public API.
"""
from .errors import (ArtifactError, CompileError, FormatError, InputError, KgenError, ProblemError, RunError,
                     UnsupportedError)
from .layout import MemoryDesc, get_dtype, parse_tag
from .version import __version__


def __getattr__(name):
    # The compile/run layers import IREE; load them only when the API that needs them is used,
    # so `kgen desc` and the layout algebra stay light.
    if name in ("reorder", "reorder_chain", "ReorderKernel", "make_problem", "conv", "ConvKernel"):
        from . import api
        return getattr(api, name)
    if name == "optimize":            # the PyTorch bridge: imports torch, so only when asked for
        from .net.optimize import optimize
        return optimize
    raise AttributeError(f"module 'generator' has no attribute {name!r}")


__all__ = ["MemoryDesc", "get_dtype", "parse_tag", "reorder", "reorder_chain", "ReorderKernel", "make_problem",
           "conv", "ConvKernel", "optimize",
           "KgenError", "FormatError", "ProblemError", "UnsupportedError", "CompileError", "ArtifactError",
           "InputError", "RunError", "__version__"]
