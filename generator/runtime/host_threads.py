"""Run a few calls at once, one per host thread: the calling thread runs the first, helper threads the
others (the ``host-threads`` driver of `api.ConvKernel` and `api.ReorderKernel`).

Why: on a machine with few cores, IREE's ``local-task`` executor often ran a small convolution slower
than one thread, while the same convolution cut into two row bands, each a ``local-sync`` call from its
own thread, ran faster than either every time (measured: docs/performance.md, Tuned constants).
``VmContext.invoke`` releases the GIL, so the calls run in parallel; the calling thread
works instead of waiting, as an OpenMP master thread does.

The hand-off: on a VM a thread that sleeps is slow to wake (the idle vCPU halts at once), and a thread
that finds the GIL held sleeps. With Python locks the helper started late (woken, then waiting for the
GIL the caller held until its own kernel started) and the caller was woken late after the helper
finished: for short parts the hand-off cost as much as the work. So, as OpenMP's threads do, the
waits spin before they sleep, in native code with the GIL released (``host_sync.c``, built on first
use into the kernel cache and loaded with ctypes): the helper spins for its next call
(``$KGEN_HOST_SPIN_US``, default 1000; 0 sleeps at once, like ``OMP_WAIT_POLICY=passive``), takes
the call, spins `GRACE_NS` more so that the caller has entered its kernel and released the GIL, and
hands its result back in the same native call that waits for the next one.
A helper's `busy` word is set by the native call that starts it and cleared by the one that ends
it, so after a Ctrl-C the caller waits for exactly the helpers still running (`settle`), then
ends them (`retire`): new helpers serve the next call.

A helper that slept still wakes late: on a VM whose idle vCPU halts, a call made a few milliseconds
after the last one took 2.1 ms on two threads where one thread ran it in 80 us. So each part is
claimed by whichever thread begins it first (`_Part`): the caller, done with its own, runs the parts
whose helper has not yet taken its start (it slept). A helper that then wakes finds its part taken
and hands back at once; the caller takes that hand-back at a later call (`pending`), and until it
has, runs that helper's part itself rather than wait.

Where no C compiler is found (``$CC``, else ``cc``), or with ``$KGEN_HOST_SYNC=locks``, the helpers
use Python locks (`sync_method` says which, and why).

The helpers are daemon threads started on first use and kept for the process. Not reentrant: one
`run` at a time per process (a lock).
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from ..compile.native import load_native
from ..errors import InputError

_lock = threading.Lock()
_helpers: list = []

#: After taking a post, a waiter spins this long before returning to Python (`host_sync.c`,
#: kgen_wait): the caller posts just before it enters its own kernel, a few microseconds of Python
#: later, and a helper that asks for the GIL before that sleeps. Longer graces only delayed the
#: helper (measured: docs/performance.md, Tuned constants).
GRACE_NS = 3000
_SOURCE = Path(__file__).with_name("host_sync.c")


def _env_spin_us() -> int:
    text = os.environ.get("KGEN_HOST_SPIN_US", "1000")
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise InputError(f"KGEN_HOST_SPIN_US={text!r} is not a whole number of microseconds >= 0")
    return value


# (method, spin in us, why): read from the environment on first use, as OpenMP reads OMP_WAIT_POLICY
# at start-up (a call costs a few microseconds less than re-reading it each time); `configure` changes it
_settings: tuple[str, int, str] | None = None
_asked: str | None = None               # the method asked for (`requested_method`)


def configure(method: str | None = None, spin_us: int | None = None) -> None:
    """Choose how the helpers hand off: `method` ``native`` or ``locks`` (default ``$KGEN_HOST_SYNC``,
    else native where it builds), `spin_us` how long a waiting thread spins before it sleeps (default
    ``$KGEN_HOST_SPIN_US``, else 1000). Helpers of another method are replaced at the next call."""
    global _settings, _asked
    want = _checked_method(method or os.environ.get("KGEN_HOST_SYNC", "native"))
    spin = _env_spin_us() if spin_us is None else spin_us
    if spin < 0:
        raise InputError(f"spin_us={spin} must be >= 0")
    _asked = want
    why = "asked for" if want == "locks" else ""
    if want == "native":
        lib, how = _native()
        if lib is None:
            want, why = "locks", how
    with _lock:
        _take_pending(_helpers)         # every helper idle, waiting for its next start
        if _helpers and _helpers[0].method != want:
            for h in _helpers:          # idle (no run holds _lock): each thread ends
                h.retire()
            _helpers.clear()
        for h in _helpers:
            h.spin_ns = spin * 1000     # read by the helper at each wait
        _settings = (want, spin, why)


def requested_method() -> str:
    """The hand-off asked for (`configure`'s, else ``$KGEN_HOST_SYNC``, else native), without building
    anything: what kernel choices are made for (`select`), so that a process whose native build
    failed still cuts and chooses as the one that compiled the kernels did, and a process that only
    compiles never runs the C compiler."""
    if _asked is not None:
        return _asked
    return _checked_method(os.environ.get("KGEN_HOST_SYNC", "native"))


def _checked_method(want: str) -> str:
    if want not in ("native", "locks"):
        raise InputError(f"host-threads hand-off {want!r}: expected 'native' or 'locks' (KGEN_HOST_SYNC)")
    return want


def method_in_use() -> str:
    """The hand-off the helpers use: ``native`` or ``locks`` (locks where native was asked for and
    did not build)."""
    if _settings is None:
        configure()
    return _settings[0]


def sync_method() -> str:
    """How the helpers hand off, for people: ``native spin-wait (N us)`` or ``locks (why)``."""
    method_in_use()
    method, spin, why = _settings
    return f"native spin-wait ({spin} us)" if method == "native" else f"locks ({why})"


@functools.cache
def _native() -> tuple[ctypes.CDLL | None, str]:
    """(the hand-off library, how it was found), or (None, why not)."""
    lib, where = load_native(_SOURCE)
    if lib is None:
        return None, where
    word, ns = ctypes.c_void_p, ctypes.c_int64
    for fn, args in ((lib.kgen_post, [word]), (lib.kgen_wait, [word, ns, ns]), (lib.kgen_start, [word, word]),
                     (lib.kgen_finish_wait, [word, word, word, ns, ns])):
        fn.argtypes, fn.restype = args, None
    lib.kgen_try_take.argtypes, lib.kgen_try_take.restype = [word], ctypes.c_int
    return lib, where


class _LockHelper:
    """One helper thread on Python locks. Two locks, each a binary semaphore: the caller releases `go`
    to start the helper's call; the helper releases `done` when it is over."""
    method = "locks"

    def __init__(self, index: int):
        self.go = threading.Lock()
        self.done = threading.Lock()
        self.go.acquire()
        self.done.acquire()
        self.fn: Callable[[], None] | None = None
        self.error: BaseException | None = None
        self.spin_ns = 0                            # no spin: set alike on every helper by `configure`
        self.pending = False                        # started on a part the caller took: `done` not yet taken
        self._stop = False
        self._started = self._finished = 0          # calls started by the caller, ended by the helper
        threading.Thread(target=self._loop, name=f"kgen-host-{index}", daemon=True).start()

    def _loop(self) -> None:
        while True:
            self.go.acquire()
            if self._stop:
                return
            try:
                self.fn()
            except BaseException as e:  # noqa: BLE001 - handed back to the caller of run()
                self.error = e
            self._finished += 1
            self.done.release()

    def start(self, fn: Callable[[], None]) -> None:
        self.fn, self.error = fn, None
        self.go.release()
        self._started += 1

    def wait(self) -> None:
        self.done.acquire()

    def try_wait(self) -> bool:
        """`wait` if the helper has handed back, without waiting: whether it had."""
        return self.done.acquire(blocking=False)

    def began(self) -> bool:
        """Whether the helper has taken its last start (it is awake, about to claim its part)."""
        return self.go.locked()

    def settle(self) -> None:
        """After an interruption: return once the helper's call, if one was started, is over: `done`
        taken, or every started call finished (a Ctrl-C handled just after `done` was taken). One
        window stays that the native hand-off does not have: a Ctrl-C right after `go` is released
        returns here while the helper still runs its part."""
        while True:
            try:
                if self._finished >= self._started or self.done.acquire(timeout=0.01):
                    return
            except BaseException:  # noqa: BLE001 - keep waiting: the helper is still running
                continue

    def retire(self) -> None:
        """End the thread (it must be idle, waiting for `go`)."""
        self._stop = True
        try:
            self.go.release()
        except RuntimeError:        # `go` still released (the window `settle` names): it ends later
            pass


class _NativeHelper:
    """One helper thread on `host_sync.c`'s spin-then-sleep words `go`, `done` and `busy`, a cache line
    apart. The caller's waits are native calls too: they return only when the helper has posted."""
    method = "native"

    def __init__(self, index: int, spin_us: int):
        self.lib = _native()[0]
        self.spin_ns = spin_us * 1000
        self._words = (ctypes.c_int * 48)()
        self.go = ctypes.addressof(self._words)
        self.done = self.go + 64
        self.busy = self.go + 128
        self.fn: Callable[[], None] | None = None
        self.error: BaseException | None = None
        self.pending = False                        # started on a part the caller took: `done` not yet taken
        self._stop = False
        threading.Thread(target=self._loop, name=f"kgen-host-{index}", daemon=True).start()

    def _loop(self) -> None:
        self.lib.kgen_wait(self.go, self.spin_ns, GRACE_NS)
        while not self._stop:
            try:
                self.fn()
            except BaseException as e:  # noqa: BLE001 - handed back to the caller of run()
                self.error = e
            self.lib.kgen_finish_wait(self.busy, self.done, self.go, self.spin_ns, GRACE_NS)

    def start(self, fn: Callable[[], None]) -> None:
        self.fn, self.error = fn, None
        self.lib.kgen_start(self.busy, self.go)

    def wait(self) -> None:
        self.lib.kgen_wait(self.done, self.spin_ns, 0)

    def try_wait(self) -> bool:
        """`wait` if the helper has handed back, without waiting: whether it had."""
        return bool(self.lib.kgen_try_take(self.done))

    def began(self) -> bool:
        """Whether the helper has taken its last start (it is awake, about to claim its part): its `go`
        word no longer holds the post."""
        return self._words[0] != 1

    def settle(self) -> None:
        """After an interruption: return once the helper's call, if any, is over (its `busy` word is
        set by the same native call that starts it, cleared by the one that ends it). A Ctrl-C raised
        as a native wait returns has taken `done` already, so waiting on it again would never end."""
        while self._words[32]:
            try:
                time.sleep(1e-4)
            except BaseException:  # noqa: BLE001 - keep waiting: the helper is still running
                continue

    def retire(self) -> None:
        """End the thread (it must be idle, waiting for `go`)."""
        self._stop = True
        self.lib.kgen_post(self.go)


class _Part:
    """One part of a `run`, claimed by whichever thread begins it first: its helper, or the caller
    once done with its own part (a lock taken without waiting: one claim succeeds)."""
    __slots__ = ("fn", "_claim")

    def __init__(self, fn: Callable[[], None]):
        self.fn, self._claim = fn, threading.Lock()

    def claim(self) -> bool:
        return self._claim.acquire(blocking=False)

    def on_helper(self) -> None:
        if self.claim():
            self.fn()


def _take_pending(helpers, block: bool = True) -> None:
    """Take the hand-back each helper still owes for a part the caller ran (`pending`), waiting for it
    (`block`), or only where it has come: it has by now, unless the helper was woken within the last
    few milliseconds (a helper still owing stays pending)."""
    for h in helpers:
        if not h.pending:
            continue
        if block:
            h.wait()
        elif not h.try_wait():
            continue
        h.pending, h.fn = False, None


def run(calls: Sequence[Callable[[], None]]) -> None:
    """Run `calls` concurrently: the first on this thread, each other on a helper thread, or on this
    thread where its helper is not awake to begin it when this thread's own is done, or still owes
    the hand-back of an earlier call (`_Part`); return when all are done. The first exception raised
    by any of them is raised here, after all that began have finished; so is an interruption (Ctrl-C)
    of this thread, after every helper has finished its call: a helper still running would otherwise
    post its result into the next call. The parts no thread has begun by then are not run. Helpers
    that an interruption left in an unknown state are ended, and new ones serve the next call."""
    if len(calls) == 1:
        calls[0]()
        return
    if _settings is None:
        configure()
    with _lock:
        method, spin, _ = _settings
        while len(_helpers) < len(calls) - 1:
            i = len(_helpers) + 1
            _helpers.append(_NativeHelper(i, spin) if method == "native" else _LockHelper(i))
        used = _helpers[:len(calls) - 1]
        _take_pending(used, block=False)
        parts = [_Part(fn) for fn in calls[1:]]
        # claimed by this thread: run here, or not at all; a helper still pending is not started
        taken = [h.pending and part.claim() for h, part in zip(used, parts)]
        started = [False] * len(parts)
        error: BaseException | None = None
        try:
            for i, (h, part) in enumerate(zip(used, parts)):
                if not taken[i]:
                    h.start(part.on_helper)
                    started[i] = True
            calls[0]()
            for i, (h, part) in enumerate(zip(used, parts)):
                # a helper that has not taken its start slept: its wake-up would hold the call
                if taken[i] or (not h.began() and part.claim()):
                    taken[i] = True
                    part.fn()
        except BaseException as e:  # noqa: BLE001 - raised after the helpers finish
            error = e
            for i, part in enumerate(parts):        # the parts no thread has begun are not run
                taken[i] = taken[i] or part.claim()
        for part, mine in zip(parts, taken):
            if mine:
                # a helper that hands back later keeps its `_Part`, not the call: a module's objects
                # still held by a thread at exit are reported as leaks
                part.fn = None
        clean = error is None or isinstance(error, Exception)   # every helper was started
        if clean:
            try:
                for h, mine, began in zip(used, taken, started):
                    if mine:
                        h.pending = h.pending or began      # its hand-back is taken at a later call
                    else:
                        h.wait()
            except BaseException as e:  # noqa: BLE001 - an interruption while waiting
                error, clean = error or e, False
        if not clean:
            for h in used:
                h.settle()
        for h in used:
            if not h.pending:
                h.fn = None
                error = error or h.error
        if not clean:
            # where each helper's words stand after an interruption is not known: end these helpers
            for h in used:
                h.pending = False
                h.retire()
            del _helpers[:len(used)]
        if error is not None:
            raise error


def _after_fork_in_child() -> None:
    # the helper threads do not survive fork(); their objects would wait forever
    global _lock
    _helpers.clear()
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)
