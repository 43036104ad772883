"""Progress of a long run: done/total, failures and an ETA, as terminal lines or as JSON lines.

The terminal form is one line per finished unit on stderr; the JSON form (``--progress=json``) is one
object per event on stderr, for scripts: ``start``, ``unit`` (a unit finished or failed), ``retry``
(a worker was lost and the unit goes again) and ``end``.
"""
from __future__ import annotations

import json
import sys
import time

MODES = ("text", "json", "none")


class Progress:
    def __init__(self, what: str, total: int, mode: str = "text", stream=None, executor: str = ""):
        if mode not in MODES:
            raise ValueError(f"progress mode {mode!r} (known: {', '.join(MODES)})")
        self.what, self.total, self.mode = what, total, mode
        self.stream = stream if stream is not None else sys.stderr
        self.done = self.failed = self.retried = 0
        self.executor = executor
        self.t0 = time.monotonic()

    def begin(self) -> None:
        """Said once the units are known to be placeable (`run_units` checks that first)."""
        self.t0 = time.monotonic()
        self._emit({"event": "start", "what": self.what, "total": self.total, "executor": self.executor},
                   f"{self.what}: {self.total} unit{'s' if self.total != 1 else ''}"
                   + (f" on {self.executor}" if self.executor else ""))

    def eta(self) -> float | None:
        if not self.done or self.done >= self.total:
            return None
        return (time.monotonic() - self.t0) / self.done * (self.total - self.done)

    def unit(self, key: str, ok: bool, seconds: float, worker: str = "", note: str = "") -> None:
        self.done += 1
        self.failed += not ok
        eta = self.eta()
        text = (f"  [{self.done}/{self.total}] {key} " + ("" if ok else "FAILED ") + f"({seconds:.1f} s"
                + (f" on {worker}" if worker else "") + ")"
                + (f" · {self.failed} failed" if self.failed else "")
                + (f" · ETA {_clock(eta)}" if eta is not None else "")
                + (f" · {note}" if note else ""))
        self._emit({"event": "unit", "unit": key, "ok": ok, "seconds": round(seconds, 3), "worker": worker,
                    "done": self.done, "total": self.total, "failed": self.failed,
                    "eta_s": None if eta is None else round(eta, 1), "note": note}, text)

    def retry(self, key: str, attempt: int, of: int, why: str) -> None:
        self.retried += 1
        self._emit({"event": "retry", "unit": key, "attempt": attempt, "of": of, "why": why},
                   f"  retry {key}: attempt {attempt} of {of} ({why})")

    def end(self, interrupted: bool = False) -> None:
        dt = time.monotonic() - self.t0
        self._emit({"event": "end", "what": self.what, "done": self.done, "total": self.total,
                    "failed": self.failed, "retried": self.retried, "seconds": round(dt, 3),
                    "interrupted": interrupted},
                   f"{self.what}: {self.done}/{self.total} done, {self.failed} failed, {self.retried} retried, "
                   f"{_clock(dt)}" + (" (interrupted: what finished is kept)" if interrupted else ""))

    def _emit(self, event: dict, text: str) -> None:
        if self.mode == "none":
            return
        line = json.dumps(event) if self.mode == "json" else text
        print(line, file=self.stream, flush=True)


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
