"""Sample-style pyACL programs run unchanged, without a sanitizer report and without a leak."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = {
    "acllite_style.py": "acllite_style: ok",
    "async_callback.py": "async_callback: ok",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_sample_style_program(name: str, tmp_path: Path) -> None:
    """The program prints ok, exits 0 in strict mode with the leak check on, and its log lines are plog lines."""
    script = REPO / "examples" / "pyacl" / name
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env |= {
        "OPBASE_EMU_STRICT": "1",
        "OPBASE_EMU_LEAK_CHECK": "1",
        "ASCEND_PROCESS_LOG_PATH": str(tmp_path),
        "ASCEND_SLOG_PRINT_TO_STDOUT": "1",
        "ASCEND_GLOBAL_LOG_LEVEL": "1",
    }
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert PROGRAMS[name] in run.stdout
    assert "no leaks" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    if name == "acllite_style.py":
        app = [line for line in run.stdout.splitlines() if line.startswith("[INFO] APP(")]
        assert [line.rsplit('"', 2)[-2] for line in app] == [
            "Init resource success, soc Ascend910B2",
            "image released",
            "dims [2, 3, 4] round trip ok",
            "Release acl resource success",  # from __del__
        ]
