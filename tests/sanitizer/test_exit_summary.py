"""A program that made sanitizer reports ends with a summary line on stderr (none when it made none)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
from emulator import aclnn
t = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
aclnn.aclDestroyTensor(t)
{mistake}
print("done")
"""


def _run(tmp_path: Path, mistake: str, **env: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "prog.py"
    script.write_text(SCRIPT.format(mistake=mistake))
    environ = os.environ | {"ASCEND_PROCESS_LOG_PATH": str(tmp_path / "log")} | env
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environ, timeout=120)


def test_the_summary_counts_the_reports_at_exit(tmp_path: Path) -> None:
    run = _run(tmp_path, "aclnn.aclDestroyTensor(t)\naclnn.aclDestroyTensor(t)")
    assert run.returncode == 0 and run.stdout == "done\n"
    lines = run.stderr.splitlines()
    assert [x.split(":")[1] for x in lines[:2]] == [" double destroy", " double destroy"]
    assert lines[-1] == "opbase-emu: SUMMARY: 2 sanitizer reports (2 double destroy)"


def test_no_summary_without_reports(tmp_path: Path) -> None:
    run = _run(tmp_path, "")
    assert run.returncode == 0 and run.stderr == ""


def test_reports_off_prints_nothing(tmp_path: Path) -> None:
    run = _run(tmp_path, "aclnn.aclDestroyTensor(t)", OPBASE_EMU_REPORTS="0")
    assert run.returncode == 0 and run.stderr == ""
