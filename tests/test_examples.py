"""The examples of README.md and docs/*.md run as written, from the repository root of a fresh clone.

Every ```bash block is run as one script (`set -euo pipefail`, `kgen` on PATH), and a page's ```python
blocks in order as one program; each must exit 0, print no traceback and report no FAILED problem.
Blocks marked ```sh are not run: the Quick start's `./build.sh` commands (what CI itself runs) and
benchmark or batch runs that take minutes."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(page: Path, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", page.read_text(), re.S | re.M)


def _run(args: list[str], what: str, tmp_path: Path) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               KGEN_TUNED_TABLE=str(tmp_path / "tuned.json"))
    r = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    out = r.stdout + r.stderr
    assert r.returncode == 0, f"{what}: exit {r.returncode}\n{out[-4000:]}"
    assert "Traceback" not in out and "FAILED" not in r.stdout, f"{what}:\n{out[-4000:]}"


def test_the_readme_has_examples():
    readme = ROOT / "README.md"
    assert _blocks(readme, "bash") and _blocks(readme, "python")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_examples_run(page, kgen_cache_dir, tmp_path):
    # the pages' examples write their files under /tmp with names of their own page: pages may run at once
    bash, python = _blocks(page, "bash"), _blocks(page, "python")
    for i, block in enumerate(bash):
        _run(["bash", "-euo", "pipefail", "-c", block], f"{page.name}, bash block {i + 1}:\n{block}", tmp_path)
    if python:
        _run([sys.executable, "-c", "\n".join(python)], f"{page.name}, its python blocks", tmp_path)
