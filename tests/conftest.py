"""Shared test fixtures: one kernel cache per test session, and seeds that are printed and recorded.

* ``kgen_session_dir`` (session): a directory shared by the xdist workers of this session and
  fresh for each session (the workers' own base temps are siblings; their parent is the session's).
* ``kgen_cache_dir`` (session): where compiled modules go. ``$KGEN_CACHE_DIR`` when set (build.sh
  points it at build/cache, so a second run compiles nothing); otherwise ``kgen_session_dir/cache``,
  so the workers share what they compile. The fixture exports the path as ``$KGEN_CACHE_DIR`` for
  the session, so code that uses the default cache lands there too.
* ``_fresh_selection`` (session, automatic): the selection table (`$KGEN_TUNED_TABLE`) is a fresh
  file of the session and ``$KGEN_CPU_DRIVER`` is unset, so a developer's `kgen tune` results or
  driver do not change which variant, form or driver a test's kernels get; tests that need either
  set them with ``monkeypatch``.
* ``_pinned_calibration`` (session, automatic): the cost model's calibration (`$KGEN_CALIBRATION`) is
  a fixed one (a 2-core AVX-512 CPU with VNNI and bf16 dot products, no AMX), so what `--alg=auto`
  weighs with the model (Winograd for floating-point results) is the same on every CPU and in every
  run, not what a busy worker happened to measure; the calibration's own tests unset it.
* Two tiers. ``./build.sh test`` runs the quick tier: every variant x data type x layout class x
  backend keeps at least one exact numeric check, and the sweeps behind them (tests or parameter
  sets marked ``full``) are deselected. ``./build.sh test --full`` (what CI runs) runs everything.
* ``seed`` (function): a test module's fixed ``SEED``, recorded as the test's ``seed`` property
  (it reaches junit XML, and the xdist controller). Every seed recorded in a run is printed once
  at the end ("kgen seeds: ..."), and tests put it in their assertion messages, so ``pytest -ra``
  shows it beside each failure.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tiers import beyond_quick


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="kgen: run the full tier, every sweep (default: the quick tier, which deselects "
                          "tests and parameter sets marked 'full')")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full"):
        return
    full = beyond_quick(items)
    if full:
        drop = {id(item) for item in full}
        config.hook.pytest_deselected(items=full)
        items[:] = [item for item in items if id(item) not in drop]


def pytest_report_header(config):
    env = os.environ.get("KGEN_CACHE_DIR")
    where = env if env else "a per-session temp dir (set KGEN_CACHE_DIR to keep it)"
    tier = "full (every sweep)" if config.getoption("--full") else "quick (--full runs every sweep)"
    return [f"kgen: kernel cache {where}", f"kgen: test tier {tier}"]


@pytest.fixture(scope="session")
def kgen_session_dir(tmp_path_factory) -> Path:
    """A directory shared by all xdist workers of this session (and fresh for every session)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent               # .../pytest-N/popen-gw0 -> .../pytest-N, common to all workers
    path = base / "kgen-session"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def kgen_cache_dir(kgen_session_dir) -> Path:
    env = os.environ.get("KGEN_CACHE_DIR")
    path = Path(env).expanduser() if env else kgen_session_dir / "cache"
    path.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGEN_CACHE_DIR", str(path))
        yield path


#: the calibration every test prices with (`select.calibration`): the Zen 4's figures
PINNED_CALIBRATION = {"cpu": "tests", "model": "the tests' pinned CPU", "threads": 2, "source": "pinned by tests/conftest.py",
                      "rates": {"vpdpbusd": [420e9, 845e9], "vdpbf16ps": [231e9, 451e9], "vfmadd231ps": [114e9, 231e9]},
                      "copy_bytes_per_s": 42e9, "seconds": 0.0}


@pytest.fixture(scope="session", autouse=True)
def _pinned_calibration(kgen_session_dir):
    import json
    path = kgen_session_dir / "calibration-pinned.json"
    path.write_text(json.dumps(PINNED_CALIBRATION))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGEN_CALIBRATION", str(path))
        yield


@pytest.fixture(scope="session", autouse=True)
def _fresh_selection(kgen_session_dir):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGEN_TUNED_TABLE", str(kgen_session_dir / "tuned.json"))
        mp.delenv("KGEN_CPU_DRIVER", raising=False)
        yield


@pytest.fixture
def seed(request, record_property) -> int:
    """The requesting module's fixed SEED, recorded as a test property."""
    value = getattr(request.module, "SEED", None)
    if value is None:
        raise pytest.UsageError(f"{request.module.__name__} uses the 'seed' fixture but defines no SEED")
    record_property("seed", value)
    return value


def pytest_terminal_summary(terminalreporter):
    seen: dict[str, set] = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for name, value in getattr(rep, "user_properties", ()) or ():
                if name == "seed":
                    seen.setdefault(rep.nodeid.split("::")[0], set()).add(value)
    if seen:
        text = ", ".join(f"{mod}={'/'.join(map(str, sorted(v)))}" for mod, v in sorted(seen.items()))
        terminalreporter.write_line(f"kgen seeds: {text}")
