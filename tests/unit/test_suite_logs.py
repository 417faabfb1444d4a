"""The project's own test run never writes plog files into the user's ~/ascend/log."""

from __future__ import annotations

import os
import pwd
import tempfile
from pathlib import Path

from emulator import aclnn, process
from emulator.config import Settings

# where a process started while this module is imported (at collection, before any fixture) would log
COLLECTION_LOG_DIR = Settings.from_env().log_dir
# the user's own home from the password database: the suite points $HOME into the temp dir
HOME_LOGS = Path(pwd.getpwuid(os.getuid()).pw_dir) / "ascend" / "log"


def _in_temp(path: Path) -> bool:
    return path.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())


def _home_plogs() -> set[Path]:
    return set(HOME_LOGS.rglob("plog-*.log")) if HOME_LOGS.is_dir() else set()


def test_a_process_started_at_collection_logs_to_a_temp_dir() -> None:
    """Even before the session's fixtures run, ASCEND_PROCESS_LOG_PATH points into the temp dir."""
    assert _in_temp(COLLECTION_LOG_DIR), COLLECTION_LOG_DIR
    assert not COLLECTION_LOG_DIR.resolve().is_relative_to(HOME_LOGS.resolve())


def test_a_report_made_by_a_test_lands_in_the_temp_dir_not_in_home() -> None:
    """A double destroy's error line is written to a plog under the temp dir; ~/ascend/log gains no file."""
    before = _home_plogs()
    with process.fresh() as proc:
        log_dir = proc.settings.log_dir
        tensor = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
        assert aclnn.aclDestroyTensor(tensor) == 0
        assert aclnn.aclDestroyTensor(tensor) == 0  # undefined on a card: reported
        assert len(proc.diagnostics) == 1
    assert _in_temp(log_dir)
    plogs = list((log_dir / "debug" / "plog").glob(f"plog-{os.getpid()}_*.log"))
    assert any("double destroy of aclTensor" in path.read_text() for path in plogs)
    assert _home_plogs() == before


def _double_destroy() -> None:
    tensor = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0


def test_a_process_started_from_an_environment_of_its_own_logs_to_a_temp_dir() -> None:
    """Settings.from_env({...}) without log variables (as the fault tests use it) and Settings() log to $HOME,
    which the suite points into the temp dir: the report's plog is there, ~/ascend/log gains no file."""
    before = _home_plogs()
    for settings in (Settings.from_env({"OPBASE_EMU_REPORTS": "0"}), Settings(reports=False)):
        assert _in_temp(settings.log_dir), settings.log_dir
        with process.fresh(settings) as proc:
            _double_destroy()
            assert len(proc.diagnostics) == 1
        plogs = (settings.log_dir / "debug" / "plog").glob(f"plog-{os.getpid()}_*.log")
        assert any("double destroy of aclTensor" in path.read_text() for path in plogs)
    assert _home_plogs() == before
