"""Each emulated process logs by its own Settings; the previous setup comes back when fresh() ends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

from emulator import acl, aclnn, plog, process
from emulator.config import Settings

TENSOR_ARGS = ([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
REPORT = "api.undefined_behaviour"


def double_destroy() -> None:
    """An undefined use: the second aclDestroyTensor returns 0 and is reported as an error line."""
    tensor = aclnn.aclCreateTensor(*TENSOR_ARGS)
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0


def plog_text(directory: Path) -> str:
    """Everything written to the plog files under ``directory`` (the real <dir>/debug/plog layout)."""
    return "".join(f.read_text() for f in sorted((directory / "debug" / "plog").glob("plog-*.log")))


@pytest.fixture
def kept_config() -> Iterator[None]:
    """Tests that replace structlog's setup themselves put the suite's setup back afterwards."""
    saved = structlog.get_config()
    try:
        yield
    finally:
        structlog.configure(**saved)


def test_inner_process_prints_to_stdout_after_a_plog_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ASCEND_SLOG_PRINT_TO_STDOUT=1 set before fresh() sends that process's reports to stdout;
    the outer process, configured for a plog file, gets its file back when the block ends."""
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path / "outer"))
    with process.fresh():
        double_destroy()
        assert REPORT in plog_text(tmp_path / "outer")
        monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
        with process.fresh() as inner:
            assert inner.settings.log_to_stdout
            double_destroy()
        out = capsys.readouterr().out
        assert out.startswith("[ERROR] OP(")
        assert f"{REPORT}: api=aclDestroyTensor" in out
        assert plog_text(tmp_path / "outer").count(REPORT) == 1
        double_destroy()
        assert capsys.readouterr().out == ""
        assert plog_text(tmp_path / "outer").count(REPORT) == 2


def test_inner_process_writes_its_own_plog_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ASCEND_PROCESS_LOG_PATH read when fresh() starts: each process's report lands in its own directory."""
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path / "first"))
    with process.fresh():
        monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path / "second"))
        with process.fresh() as inner:
            assert inner.settings.log_dir == tmp_path / "second"
            double_destroy()
        double_destroy()
    assert plog_text(tmp_path / "second").count(REPORT) == 1
    assert plog_text(tmp_path / "first").count(REPORT) == 1


def test_work_path_gives_the_plog_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without ASCEND_PROCESS_LOG_PATH a process started under ASCEND_WORK_PATH logs to <work>/log."""
    monkeypatch.delenv("ASCEND_PROCESS_LOG_PATH")
    monkeypatch.setenv("ASCEND_WORK_PATH", str(tmp_path))
    with process.fresh():
        double_destroy()
    assert REPORT in plog_text(tmp_path / "log")


def test_global_level_off_silences_only_that_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ASCEND_GLOBAL_LOG_LEVEL=4 in the inner process writes nothing; the outer one still reports."""
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path / "outer"))
    with process.fresh():
        monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "4")
        monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path / "inner"))
        with process.fresh() as inner:
            assert inner.settings.log_level == 4
            double_destroy()
        double_destroy()
    assert not (tmp_path / "inner").exists()
    assert plog_text(tmp_path / "outer").count(REPORT) == 1


def test_module_level_is_read_per_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """ASCEND_MODULE_LOG_LEVEL=ASCENDCL=0 lets that process's ASCENDCL debug line (a repeated aclInit) through."""
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
    with process.fresh():
        assert acl.init() == 0
        assert acl.init() == 100002
    assert capsys.readouterr().out == ""
    monkeypatch.setenv("ASCEND_MODULE_LOG_LEVEL", "ASCENDCL=0")
    with process.fresh():
        assert acl.init() == 0
        assert acl.init() == 100002
    out = capsys.readouterr().out
    assert out.startswith("[DEBUG] ASCENDCL(")
    assert "api.failed: api=aclInit" in out


def test_runtime_core_lines_are_filed_under_runtime(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The runtime core (emulator.runtime) logs as the plog module RUNTIME, so RUNTIME's module level governs it."""
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
    monkeypatch.setenv("ASCEND_MODULE_LOG_LEVEL", "RUNTIME=1")
    with process.fresh():
        assert acl.rt.set_device(0) == 0
        _, ret = acl.rt.create_stream()
        assert ret == 0
        assert acl.rt.reset_device(0) == 0  # the last reset destroys the stream, with an info line
    out = capsys.readouterr().out
    assert out.startswith("[INFO] RUNTIME(")
    assert "rt.stream_destroyed_with_context: stream=0x" in out


def test_outer_setup_object_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a fresh() block the very setup in place before it is in place again."""
    before = structlog.get_config()
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "0")
    with process.fresh() as inner:
        renderer = plog.installed()
        assert renderer is not None and renderer.settings is inner.settings
    after = structlog.get_config()
    assert after["processors"] is before["processors"]
    assert after["wrapper_class"] is before["wrapper_class"]
    assert after["logger_factory"] is before["logger_factory"]


def test_unconfigured_structlog_is_left_unconfigured(kept_config: None, tmp_path: Path) -> None:
    """A process started before anyone configured structlog installs its setup and takes it away again."""
    structlog.reset_defaults()
    with process.fresh(Settings(log_dir=tmp_path)):
        assert structlog.is_configured()
        assert plog.installed() is not None
    assert not structlog.is_configured()


def test_application_setup_is_kept(kept_config: None, tmp_path: Path) -> None:
    """An application that configured structlog itself keeps its setup inside and after fresh()."""
    seen: list[str] = []

    def collect(logger: Any, method: str, event: Any) -> Any:
        seen.append(event["event"])
        raise structlog.DropEvent

    structlog.configure(processors=[collect], wrapper_class=structlog.make_filtering_bound_logger(0))
    with process.fresh(Settings(log_dir=tmp_path, log_to_stdout=True)):
        assert plog.installed() is None
        double_destroy()
    assert structlog.get_config()["processors"] == [collect]
    assert seen == [REPORT]
    assert not (tmp_path / "debug").exists()


def test_capture_logs_sees_a_process_started_inside_it(tmp_path: Path) -> None:
    """capture_logs keeps capturing when a process starts inside it (the capture is not the emulator's)."""
    with capture_logs() as logs, process.fresh(Settings(log_dir=tmp_path)):
        double_destroy()
    assert [e["event"] for e in logs] == [REPORT]
    assert plog.installed() is not None


def test_capture_sees_every_level_in_a_quiet_process(tmp_path: Path) -> None:
    """The harness's all_levels carries into a process's setup: its debug lines reach capture_logs."""
    with process.fresh(Settings(log_level=3, log_dir=tmp_path)), capture_logs() as logs:
        assert acl.init() == 0
        assert acl.init() == 100002
    failed = [e for e in logs if e["event"] == "api.failed"]
    assert [(e["log_level"], e["api"], e["code"]) for e in failed] == [("debug", "aclInit", 100002)]
    assert not (tmp_path / "debug").exists()


def test_home_default_follows_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Settings() looks $HOME up when it is made, not once at import."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Settings().log_dir == tmp_path / "ascend" / "log"


def test_a_process_that_fails_to_start_changes_nothing(tmp_path: Path) -> None:
    """A process whose SoC profile does not exist never starts, and the logging setup stays as it was."""
    before = structlog.get_config()
    with pytest.raises(KeyError, match="no SoC profile"), process.fresh(Settings(soc="NoSuchSoc", log_dir=tmp_path)):
        pass
    assert structlog.get_config()["processors"] is before["processors"]
