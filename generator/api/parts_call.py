"""`PartsCall`: the bound call of a kernel on the host-threads driver, which runs one call per part
(a `ConvPart` or `ReorderPart`) from host threads and joins the parts' results into the whole
destination buffer. Both `ConvKernel` and `ReorderKernel` return one from `bind()` on that driver."""
from __future__ import annotations

import numpy as np

from ..compile.backends import HOST_THREADS
from ..errors import UnsupportedError
from ..runtime import BoundCall, host_threads


class PartsCall:
    """The host-threads driver's bound call: the parts' bound calls, run at once from host threads
    (`runtime.host_threads`). Each part's result stays in its own device buffer, as a BoundCall's does;
    `call.numpy()[0]` joins them into one host array, the whole destination buffer (each part copied
    into its place, `dst_view`: a range, or a channels-last channel slab; out of the mapping). A call
    does not join: the copies cost a noticeable share of a small convolution's run (measured:
    docs/performance.md, Tuned constants), and a reader pays them as it pays `to_numpy` after a
    BoundCall."""

    def __init__(self, calls: list[BoundCall], parts: list, dst):
        # parts: each call's ConvPart or ReorderPart, whose dst_view() is where its result goes
        self.calls, self.parts, self.dst = calls, parts, dst
        self._ran = False

    def __call__(self) -> None:
        host_threads.run(self.calls)
        self._ran = True

    def numpy(self) -> tuple[np.ndarray, ...]:
        """The last call's destination buffer, joined from the parts (a new array)."""
        if not self._ran:
            self()
        out = np.zeros(self.dst.buffer_len, self.dst.buffer_dtype)
        for c, part in zip(self.calls, self.parts):
            c.results()[0].copy_into(part.dst_view(out))
        return (out,)

    def run_once(self) -> np.ndarray:
        self()
        return self.numpy()[0]

    def results(self):
        raise UnsupportedError(f"driver {HOST_THREADS} leaves its result in one device buffer per part: "
                               f"numpy() joins them")

