"""One network op (`problem.netop.NetOp`) compiled alone in one layout: what the planner times and what
runs an op outside a segment. Inside a segment the op's function is included in the segment's module
(`net.execute.SegmentRunner`)."""
from __future__ import annotations

import numpy as np

from ..compile import compile_mlir
from ..errors import UnsupportedError
from ..emit.netop import function_name, render_netop
from ..layout import MemoryDesc
from ..runtime import LoadedModule
from ..select.candidates import layout_tag


#: the backends network ops are checked on: on Vulkan (lavapipe) IREE 3.13 computed wrong channel norms
#: (and failed to compile some), and the other ops are not checked on a GPU backend
BACKENDS = ("llvm-cpu",)


def refusal(op, backend) -> str | None:
    """Why `op` does not run on `backend` (None: it does)."""
    if backend.name not in BACKENDS:
        return (f"network ops ({op.kind} here) run on {', '.join(BACKENDS)} only: on Vulkan IREE 3.13 computed wrong "
                f"channel norms, and the ops are not checked on a GPU backend")
    return None


class OpKernel:
    def __init__(self, op, layout: str, backend, driver: str):
        why = refusal(op, backend)
        if why:
            raise UnsupportedError(why)
        self.op, self.layout, self.backend, self.driver = op, layout, backend, driver
        self.tag = layout_tag(layout, len(op.out))
        self.function_name = function_name(op, self.tag)
        self.mlir = render_netop(op, self.tag)     # a segment includes it as is (`emit.segment` drops the header)
        self.artifact = compile_mlir(self.mlir, backend, name="netop")
        self._fn = LoadedModule(self.artifact.path, backend, driver).function(self.function_name)

    def buffer(self, i: int) -> MemoryDesc:
        """The packed tensor of input `i` (len(inputs): the output) in the op's layout."""
        dims = self.op.out if i == len(self.op.inputs) else self.op.inputs[i]
        return MemoryDesc(dims, self.op.dt, self.tag)

    def invoke(self, *inputs):
        """DeviceTensors (or NumPy buffers) in the op's layout -> its output as a DeviceTensor."""
        return self._fn.invoke(*inputs)[0]

    def bind(self):
        """A call on zero-filled inputs, for timing."""
        descs = [self.buffer(i) for i in range(len(self.op.inputs))]
        return self._fn.bind(*(np.zeros(d.buffer_len, d.buffer_dtype) for d in descs))
