"""The Python API: build a reorder kernel for two memory descriptors and call it on NumPy buffers.

    >>> import numpy as np, generator as kg
    >>> src = kg.MemoryDesc((2, 17, 5, 4), "f32", "nchw")
    >>> dst = kg.MemoryDesc((2, 17, 5, 4), "f32", "nChw8c")
    >>> k = kg.reorder(src, dst)                       # llvm-cpu by default; "vulkan", "cuda"
    >>> y = k(src.to_physical(np.ones(src.dims, np.float32)))
    >>> y.shape, float(y[dst.padding_mask()].max())    # padding included, and zero
    ((960,), 0.0)

This package wires the layers together (layout -> problem -> emit -> compile -> run); it decides
nothing about MLIR itself. `reorder_kernel` holds the reorders (`ReorderKernel`, `reorder`,
`build_reorders`), `conv_kernel` the convolutions (`ConvKernel`, `conv`, `compile_conv`), and
`parts_call` the bound call both return on the host-threads driver (`PartsCall`).
"""
from .conv_kernel import (ConvKernel, FusedDwConvKernel, compile_conv, conv, conv_src_zp_limit,
                          resolved_conv)
from .parts_call import PartsCall
from .reorder_kernel import (ReorderKernel, build_reorders, make_problem, reorder, reorder_chain,
                             reorder_form)

__all__ = ["ConvKernel", "FusedDwConvKernel", "PartsCall", "ReorderKernel", "build_reorders", "compile_conv",
           "conv", "conv_src_zp_limit", "make_problem", "reorder", "reorder_chain", "reorder_form",
           "resolved_conv"]
