"""The project's own examples make no sanitizer report: strict mode lets every one run to the end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLEAN = ["quickstart_add.py", "runtime_roundtrip.py", "custom_op/run_square.py"]


@pytest.mark.parametrize("example", CLEAN)
def test_example_runs_without_a_report(example: str, tmp_path: Path) -> None:
    script = REPO / "examples" / example
    env = os.environ | {"OPBASE_EMU_STRICT": "1", "ASCEND_PROCESS_LOG_PATH": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, str(script)], cwd=script.parent, capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert "opbase-emu:" not in run.stderr
