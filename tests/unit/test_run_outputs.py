"""Run outputs (traces, timelines, plogs, dumps) are never committed, and a fresh run does not dirty the tree.

Generated sources a fresh clone needs stay committed, each with its own test that it is current:
docs/ops.md (tests/conformance/test_api_parity.py) and the shipped op package kernels/opp
(tests/engine/test_kernel_mgr.py).
"""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# where the tools and the tutorial's commands write when run from the repository root
RUN_OUTPUTS = (
    "trace.json",
    "timeline.txt",
    "timeline.svg",
    "examples/trace.json",
    "quickstart.trace.json",
    "log/debug/plog/plog-1234_20250101000000000.log",
    "plog-1234_20250101000000000.log",
    "dump/Add.0.bin",
)
OUTPUT_PATTERNS = ("trace.json", "*.trace.json", "timeline.txt", "plog-*.log", "*/plog/*", "dump/*")


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def checkout() -> None:
    if shutil.which("git") is None or _git("rev-parse", "--is-inside-work-tree").stdout.strip() != "true":
        pytest.skip("not a git checkout")


@pytest.mark.usefixtures("checkout")
def test_no_run_output_is_tracked() -> None:
    """No tracked file looks like a trace, a timeline, a plog or a dump."""
    tracked = _git("ls-files").stdout.splitlines()
    outputs = [path for path in tracked if any(fnmatch.fnmatch(path, p) for p in OUTPUT_PATTERNS)]
    assert outputs == []
    assert "timeline.svg" not in tracked  # the tutorial's picture lives in docs/img, not at the root


@pytest.mark.usefixtures("checkout")
@pytest.mark.parametrize("path", RUN_OUTPUTS)
def test_run_outputs_are_ignored(path: str) -> None:
    """.gitignore covers what a run leaves behind, so `git status` stays clean after the tutorial."""
    assert _git("check-ignore", "-q", "--no-index", path).returncode == 0, path


@pytest.mark.usefixtures("checkout")
@pytest.mark.parametrize("path", ["docs/img/timeline.svg", "docs/ops.md", "kernels/opp/vendors/config.ini"])
def test_committed_generated_sources_are_not_ignored(path: str) -> None:
    """The generated files a clone needs are not caught by the run-output patterns."""
    assert _git("check-ignore", "-q", "--no-index", path).returncode == 1, path
