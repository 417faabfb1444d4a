"""Settings from the environment, acl.json models and the plog-style logging."""

from __future__ import annotations

import io
from pathlib import Path

import structlog

from emulator import plog
from emulator.config import AclConfig, Settings
from emulator.plog import configure_logging, module_of


def test_defaults_without_environment() -> None:
    """An empty environment gives error-level logging to files, the A2 default part and 8 devices."""
    s = Settings.from_env({"HOME": "/home/u"})
    assert s.log_level == 3
    assert not s.log_to_stdout
    assert s.log_dir == Path("/home/u/ascend/log")
    assert s.soc == "Ascend910B2"
    assert s.device_count == 8
    assert s.visible_devices is None


def test_log_level_values_and_invalid_ones() -> None:
    """ASCEND_GLOBAL_LOG_LEVEL 0..4 is taken as given; anything else falls back to 3."""
    for value, expected in [("0", 0), ("4", 4), ("", 3), ("7", 3), ("debug", 3)]:
        assert Settings.from_env({"ASCEND_GLOBAL_LOG_LEVEL": value}).log_level == expected


def test_new_stdout_variable_wins_over_the_deprecated_one() -> None:
    """ASCEND_LOG_PRINT_TO_STDOUT decides when both are set; the old name works alone."""
    both = {"ASCEND_LOG_PRINT_TO_STDOUT": "0", "ASCEND_SLOG_PRINT_TO_STDOUT": "1"}
    assert not Settings.from_env(both).log_to_stdout
    assert Settings.from_env({"ASCEND_SLOG_PRINT_TO_STDOUT": "1"}).log_to_stdout


def test_log_path_priority() -> None:
    """ASCEND_PROCESS_LOG_PATH beats ASCEND_WORK_PATH/log, which beats $HOME/ascend/log."""
    env = {"HOME": "/h", "ASCEND_WORK_PATH": "/w", "ASCEND_PROCESS_LOG_PATH": "/p"}
    assert Settings.from_env(env).log_dir == Path("/p")
    del env["ASCEND_PROCESS_LOG_PATH"]
    assert Settings.from_env(env).log_dir == Path("/w/log")


def test_module_levels_and_syntax_errors() -> None:
    """A well-formed ASCEND_MODULE_LOG_LEVEL is parsed; any syntax error voids the whole value."""
    assert Settings.from_env({"ASCEND_MODULE_LOG_LEVEL": "RUNTIME=0:ASCENDCL=1"}).module_log_levels == {
        "RUNTIME": 0,
        "ASCENDCL": 1,
    }
    assert Settings.from_env({"ASCEND_MODULE_LOG_LEVEL": "RUNTIME=0:ASCENDCL"}).module_log_levels == {}
    assert Settings.from_env({"ASCEND_MODULE_LOG_LEVEL": "RUNTIME=9"}).module_log_levels == {}


def test_visible_devices_stop_at_first_bad_entry() -> None:
    """ASCEND_RT_VISIBLE_DEVICES keeps ascending valid ids up to the first bad one."""
    assert Settings.from_env({"ASCEND_RT_VISIBLE_DEVICES": "2,5,x,7"}).visible_devices == (2, 5)
    assert Settings.from_env({"ASCEND_RT_VISIBLE_DEVICES": "3,1"}).visible_devices == (3,)


def test_acl_config_keeps_unknown_keys() -> None:
    """Unknown acl.json keys are accepted and kept, as the real parser ignores them."""
    cfg = AclConfig.model_validate({"err_msg_mode": "1", "dump": {"dump_path": "/x"}})
    assert cfg.err_msg_mode == "1"
    assert cfg.model_extra == {"dump": {"dump_path": "/x"}}


def _emit(settings: Settings, logger_name: str, level: str) -> str:
    sink = io.StringIO()
    replaced = configure_logging(settings, stream=sink, force=True)
    try:
        getattr(structlog.get_logger(logger_name=logger_name), level)("thing.happened", size=3)
    finally:
        plog.restore(replaced)
    return sink.getvalue()


def test_plog_line_format_and_level_filter() -> None:
    """Lines look like plog lines and are dropped below the configured level."""
    line = _emit(Settings(log_level=1), "emulator.acl", "info")
    assert line.startswith("[INFO] ASCENDCL(")
    assert "thing.happened: size=3" in line
    assert _emit(Settings(log_level=3), "emulator.acl", "warning") == ""
    assert _emit(Settings(log_level=4), "emulator.acl", "error") == ""


def test_module_level_overrides_global_level() -> None:
    """A module level below the global one lets that module's debug lines through, and only its."""
    settings = Settings(log_level=3, module_log_levels={"RUNTIME": 0})
    assert _emit(settings, "device.simulated", "debug").startswith("[DEBUG] RUNTIME(")
    assert _emit(settings, "emulator.acl", "debug") == ""


def test_module_names() -> None:
    """Loggers map to the real module names: device, runtime core -> RUNTIME; acl face -> ASCENDCL; the rest -> OP."""
    assert module_of("device.simulated") == "RUNTIME"
    assert module_of("emulator.runtime") == "RUNTIME"
    assert module_of("emulator.acl") == "ASCENDCL"
    assert module_of("emulator.engine") == "OP"
    assert module_of(None) == "OP"


def test_plog_file_created_lazily(tmp_path: Path) -> None:
    """With stdout off, the first line creates <dir>/debug/plog/plog-<pid>_<time>.log; none before."""
    replaced = configure_logging(Settings(log_level=0, log_dir=tmp_path), force=True)
    try:
        assert not (tmp_path / "debug").exists()
        structlog.get_logger(logger_name="emulator.acl").error("boom", code=1)
    finally:
        plog.restore(replaced)
    files = list((tmp_path / "debug" / "plog").glob("plog-*.log"))
    assert len(files) == 1
    assert "boom: code=1" in files[0].read_text()
