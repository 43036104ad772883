"""PyTorch timed alone, in a process of its own with OpenMP's default wait policy, one round at a time
between the rounds of `kgen bench conv`'s round-robin (a convolution) or `kgen net`'s (a whole model).

Why a second measurement: `kgen bench conv` times PyTorch round-robin next to kgen's kernels, and in
that process PyTorch's OpenMP threads must not spin between calls (`runtime.timing.quiet_openmp`:
spinning, they take the second core from kgen's kernels). But a PyTorch user runs with the default
policy, where the threads spin and PyTorch's own next call starts sooner. So PyTorch is also timed
here, in its own process, with the same data (`verify.conv_call`, fixed seed) and the same calls
(`torch_baseline`), and each comparison takes the faster of the two figures.

Why between the rounds: a figure taken after the whole sweep, minutes after kgen's candidates, comes
from a quieter or busier moment of a noisy machine than kgen's. The child times one round of the
problem (a batch of calls per layout, after one untimed call that wakes its threads) after each
round of the parent's round-robin, so both figures are medians over the same moments.

Why the parent waits for the child's threads to sleep after each answer (`settle`): with the default
policy PyTorch's OpenMP worker spins for a while after the child's last call, and the parent's next
kernel then shares a core with it (a host-threads kernel, whose helper thread needs the second core,
slows down most). The parent polls the child's threads (Linux's /proc/PID/task/*/stat) until none is
running, at most `SETTLE_S`.

`kgen net --model` does the same for the whole model (`TorchAlone.model`): with passive waits in
kgen's process PyTorch eager would look slower than its users see it. (Measured: docs/performance.md,
Tuned constants.)

The child reads length-prefixed pickled messages on stdin, ("problem", p) or ("model", (module or
factory, its state_dict with a factory else None, input)), then ("round",) any number of times, and
answers each with one JSON line on stdout: {"layouts": [the layouts it times]} (empty where PyTorch
has no conv for the problem), then {layout: seconds per call}. Its stderr goes to a file (a pipe
nobody reads would stop it once full), whose last line says why where it fails.
"""
from __future__ import annotations

import json
import os
import pickle
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from typing import Callable

from ..compile.backends import cpu_threads
from ..runtime.timing import MIN_BATCH_S, batch_sizes, time_batch
from ..verify import conv_call
from .torch_baseline import eager_fns, torch_fns

#: the longest the parent waits for the child's threads to stop spinning after an answer
SETTLE_S = 0.2


class TorchAlone:
    """The child process, started once per benchmark run (`start`). `problem(p)` sends the next
    problem (`model(m, x)` a whole model); `round()` then times one round of it and keeps the samples;
    `medians()` gives its {layout: seconds}. A child that fails is logged once (one line) and gives no
    figures from then on."""

    def __init__(self, proc: subprocess.Popen, log: Callable[[str], None], stderr=None):
        self.proc, self.log, self._stderr = proc, log, stderr       # stderr: the file the child writes it to
        self.samples: dict[str, list[float]] = {}
        self._slow_said = False

    @classmethod
    def start(cls, log: Callable[[str], None]) -> "TorchAlone | None":
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
        try:
            err = tempfile.TemporaryFile()
            proc = subprocess.Popen([sys.executable, "-m", "generator.bench.torch_alone"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=err, env=env)
        except OSError as e:
            log(f"PyTorch alone: not measured ({e})")
            return None
        log("PyTorch alone: timed in its own process (OpenMP default wait policy), between the rounds")
        return cls(proc, log, err)

    @property
    def alive(self) -> bool:
        return self.proc is not None

    def _ask(self, msg: tuple) -> dict | None:
        if self.proc is None:
            return None
        try:
            data = pickle.dumps(msg)
        except Exception as e:  # noqa: BLE001 - any object that does not pickle: PicklingError, AttributeError, TypeError
            self._fail(f"cannot send it to its process: {type(e).__name__}: {e}", child_failed=False)
            return None
        try:
            self.proc.stdin.write(struct.pack("<Q", len(data)) + data)
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            self.settle()
            return json.loads(line)
        except (OSError, ValueError) as e:
            self._fail(str(e) or type(e).__name__)
            return None

    def _fail(self, why: str, child_failed: bool = True) -> None:
        proc, self.proc = self.proc, None
        proc.kill()
        proc.wait()
        if child_failed:
            last = (self._stderr_text().strip().splitlines() or [why])[-1]
            self.log(f"PyTorch alone: not measured from here on (exit {proc.returncode}: {last})")
        else:
            self.log(f"PyTorch alone: not measured from here on ({why})")

    def _stderr_text(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0)
            return self._stderr.read().decode(errors="replace")
        except OSError:
            return ""

    def settle(self, timeout_s: float = SETTLE_S) -> bool:
        """Wait until no thread of the child is running (its main thread reads the next message; its
        OpenMP workers have stopped spinning); False where that was not seen within `timeout_s` (said
        once in the log: the figures then overlap the child's threads) or cannot be seen (no child, no
        /proc: nothing is waited for)."""
        if self.proc is None:
            return False
        tasks = f"/proc/{self.proc.pid}/task"
        end = time.perf_counter() + timeout_s
        while True:
            try:
                running = any(_thread_state(f"{tasks}/{t}/stat") == "R" for t in os.listdir(tasks))
            except OSError:
                return False
            if not running:
                return True
            if time.perf_counter() > end:
                if not self._slow_said:
                    self._slow_said = True
                    self.log(f"PyTorch alone: its threads still ran {timeout_s * 1e3:.0f} ms after its "
                             f"answer; kgen's next round may share a core with them")
                return False
            time.sleep(2e-4)

    def model(self, model, x, factory=None) -> bool:
        """Send a whole PyTorch model (an nn.Module, in the type it runs in) and its input, for
        `kgen net`: the child times it eager in NCHW and channels_last (`torch_baseline.eager_fns`). The model is
        pickled; where it does not pickle (kgen's copies of torchvision's models: classes local to a
        function) and `factory` is given (a picklable callable that builds the same architecture),
        the child builds that and loads the model's weights (`model_from`). False where the child gives
        no figures (the model cannot be sent, or its classes do not import there: said once, and the
        child is given up)."""
        self.samples = {}
        payload = (model, None, x)
        if factory is not None:
            try:
                pickle.dumps(type(model))     # the class by reference: cheap, and where it fails
            except Exception:  # noqa: BLE001 - PicklingError, AttributeError, TypeError
                payload = (factory, model.state_dict(), x)
        got = self._ask(("model", payload))
        return bool(got and got.get("layouts"))

    def problem(self, p) -> bool:
        """Send the next problem; False where the child gives no figures for it (it failed, or PyTorch
        has no conv for the problem): the parent then asks for no rounds."""
        self.samples = {}
        got = self._ask(("problem", p))
        return bool(got and got.get("layouts"))

    def round(self) -> None:
        """One round of the current problem, timed now (called between the parent's rounds)."""
        got = self._ask(("round",))
        for k, v in (got or {}).items():
            self.samples.setdefault(k, []).append(v)

    def medians(self) -> dict[str, float]:
        return {k: statistics.median(v) for k, v in self.samples.items()}

    def close(self) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            try:
                proc.stdin.close()
                proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()


def model_from(payload: tuple):
    """The child's model from a ("model", ...) message's payload: the module itself, or the factory's
    architecture in the input's type, in eval mode, with the sent weights loaded."""
    import torch

    model, state, x = payload
    if state is not None:
        model = model().eval().to(x.dtype)
        model.load_state_dict(state)
    elif callable(model) and not isinstance(model, torch.nn.Module):
        model = model()              # a recipe that builds the model here (a quantized one: `QuantizedBuild`)
    return model


def _thread_state(stat_path: str) -> str:
    """A thread's state letter in /proc/PID/task/TID/stat (R running, S sleeping, ...); "" for a thread
    that has ended (its file gone, or unreadable as it goes: ESRCH) or a line not understood. The
    command name before it is in parentheses and may hold spaces."""
    try:
        with open(stat_path) as f:
            fields = f.read().rsplit(")", 1)[-1].split(maxsplit=1)
    except OSError:
        return ""
    return fields[0] if fields else ""


def _read(stream):
    head = stream.read(8)
    if len(head) < 8:
        return None
    (n,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(n))


def _main() -> None:
    import torch

    torch.set_num_threads(cpu_threads())
    fns, batch = {}, {}
    while (msg := _read(sys.stdin.buffer)) is not None:
        if msg[0] == "problem":
            call = conv_call(msg[1])
            fns = torch_fns(torch, msg[1], call.x, call.w, call.bias, call.quant) or {}
        elif msg[0] == "model":
            fns = eager_fns(torch, model_from(msg[1]), msg[1][2])
        if msg[0] != "round":
            batch = batch_sizes(fns, MIN_BATCH_S)
            print(json.dumps({"layouts": list(fns)}), flush=True)
        else:                            # ("round",): one batch per layout, as the parent's rounds
            out = {}
            for name, f in fns.items():
                f()                      # the threads slept while the parent timed kgen
                out[name] = time_batch(f, batch[name])
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    _main()
