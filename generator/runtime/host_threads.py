"""Run a few calls at once, one per host thread: the calling thread runs the first, helper threads the
others (the ``host-threads`` driver of `api.ConvKernel` and `api.ReorderKernel`).

Why: on a 2-vCPU VM, IREE's ``local-task`` executor often ran a 0.5 ms int8 convolution slower than
one thread (570-600 us against local-sync's 510 us), while the same convolution cut into two row bands,
each a ``local-sync`` call from its own thread, took 310-340 us every time (AMD EPYC Zen 4, README's
Development notes). ``VmContext.invoke`` releases the GIL, so the calls run in parallel; the calling
thread works instead of waiting, as an OpenMP master thread does, so one wake-up is paid, not two.

The helpers are daemon threads started on first use and kept for the process: a call hands each one a
function through its own pair of locks. Not reentrant: one `run` at a time per process (a lock).
"""

from __future__ import annotations

import os
import threading
from typing import Callable, Sequence

_lock = threading.Lock()
_helpers: list["_Helper"] = []


class _Helper:
    """One helper thread. Two locks, each a binary semaphore (a bare futex, no Condition): the caller
    releases `go` to start the helper's call; the helper releases `done` when it is over."""

    def __init__(self, index: int):
        self.go = threading.Lock()
        self.done = threading.Lock()
        self.go.acquire()
        self.done.acquire()
        self.fn: Callable[[], None] | None = None
        self.error: BaseException | None = None
        threading.Thread(target=self._loop, name=f"kgen-host-{index}", daemon=True).start()

    def _loop(self) -> None:
        while True:
            self.go.acquire()
            try:
                self.fn()
            except BaseException as e:  # noqa: BLE001 - handed back to the caller of run()
                self.error = e
            self.done.release()


def run(calls: Sequence[Callable[[], None]]) -> None:
    """Run `calls` concurrently: the first on this thread, each other on a helper thread; return when
    all are done. The first exception raised by any of them is raised here, after all have finished;
    so is an interruption (Ctrl-C) of this thread, after every helper it started has finished: a
    helper still running would otherwise release its lock into the next call."""
    if len(calls) == 1:
        calls[0]()
        return
    with _lock:
        while len(_helpers) < len(calls) - 1:
            _helpers.append(_Helper(len(_helpers) + 1))
        used = _helpers[:len(calls) - 1]
        started: list[_Helper] = []
        error: BaseException | None = None
        try:
            for h, fn in zip(used, calls[1:]):
                h.fn, h.error = fn, None
                h.go.release()
                started.append(h)
            calls[0]()
        except BaseException as e:  # noqa: BLE001 - raised after the helpers finish
            error = e
        interrupted = error is not None and not isinstance(error, Exception)
        for h in started:
            while True:
                try:
                    h.done.acquire()
                    break
                except BaseException as e:  # noqa: BLE001 - keep waiting: the helper is still running
                    error, interrupted = error or e, True
            h.fn = None
            error = error or h.error
        if interrupted:
            # an interruption between a helper's start and its bookkeeping would leave a `done` to be
            # taken by the next call: these helpers are retired (each ends its call, then idles)
            del _helpers[:len(used)]
        if error is not None:
            raise error


def _after_fork_in_child() -> None:
    # the helper threads do not survive fork(); their objects would wait forever
    global _lock
    _helpers.clear()
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)
