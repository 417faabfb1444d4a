"""aclnnInit / aclnnFinalize.

Both always return 0. aclnnInit loads the op packages once per process and lets InitSystemConfig
decide the debug-kernel flag from NPU_COLLECT_PATH or the config file — every row of the
decision table returns 0 and the last call wins. aclnnFinalize is safe to repeat and to call
without aclnnInit; a successful aclFinalize runs its steps too. What the documentation forbids
but the code tolerates (repeat calls) is logged as an "aclnn.lifecycle" warning.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.config import Settings

ON = {"op_debug_config": {"enable_debug_kernel": "on"}}
OFF = {"op_debug_config": {"enable_debug_kernel": "off"}}


@pytest.fixture
def logs() -> Iterator[list[dict[str, Any]]]:
    """Every structlog event of the test, whatever the configured level."""
    old = structlog.get_config()["wrapper_class"]
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG))
    try:
        with capture_logs() as entries:
            yield entries
    finally:
        structlog.configure(wrapper_class=old)


def lifecycle_warnings(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The "aclnn.lifecycle" events logged so far."""
    return [e for e in logs if e["event"] == "aclnn.lifecycle"]


def settings(tmp_path: Path, npu_collect_path: str | None = None) -> Settings:
    """Settings with NPU_COLLECT_PATH as given (None = unset) and logs under tmp_path."""
    return Settings(npu_collect_path=npu_collect_path, log_dir=tmp_path / "log")


def write_json(tmp_path: Path, content: object, name: str = "aclnn.json") -> str:
    """Write content as JSON and return the path."""
    path = tmp_path / name
    path.write_text(json.dumps(content), encoding="utf-8")
    return str(path)


def write_text(tmp_path: Path, text: str, name: str = "aclnn.json") -> str:
    """Write raw text and return the path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- the InitSystemConfig decision table ---------------------------------------------------------
# (id, NPU_COLLECT_PATH, makes the config path from tmp_path, expected flag)
Case = tuple[str, str | None, Callable[[Path], str | None], bool]
DECISION_TABLE: list[Case] = [
    ("row1-env-and-off-file", "/tmp/collect", lambda p: write_json(p, OFF), True),
    ("row1-env-and-no-path", "x", lambda p: None, True),
    ("row1-env-and-missing-file", "x", lambda p: str(p / "not_exist.json"), True),
    ("row1-env-and-bad-json", "x", lambda p: write_text(p, "{not json"), True),
    ("row2-null-path", None, lambda p: None, False),
    ("row2-empty-path", None, lambda p: "", False),
    ("row3-missing-file", None, lambda p: str(p / "not_exit.json"), False),
    ("row3-missing-directory", None, lambda p: str(p / "no" / "such" / "dir.json"), False),
    ("row4-not-json", None, lambda p: write_text(p, '{"op_debug_config": {"enable_debug_kernel": "on"'), False),
    ("row4-empty-file", None, lambda p: write_text(p, ""), False),
    ("row4-directory", None, lambda p: str(p), False),
    ("row5-no-op-debug-config", None, lambda p: write_json(p, {"dump": {"dump_path": "/tmp"}}), False),
    ("row5-top-level-list", None, lambda p: write_json(p, [ON]), False),
    ("row5-top-level-string", None, lambda p: write_json(p, "on"), False),
    ("row6-no-enable-debug-kernel", None, lambda p: write_json(p, {"op_debug_config": {"other": "on"}}), False),
    ("row6-op-debug-config-not-object", None, lambda p: write_json(p, {"op_debug_config": "on"}), False),
    ("row6-op-debug-config-list", None, lambda p: write_json(p, {"op_debug_config": ["enable_debug_kernel"]}), False),
    ("row7-true", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": True}}), False),
    ("row7-one", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": 1}}), False),
    ("row7-null", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": None}}), False),
    ("row7-list", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": ["on"]}}), False),
    ("row8-on", None, lambda p: write_json(p, ON), True),
    ("row8-on-other-keys", None, lambda p: write_json(p, {"dump": {}, **ON, "x": 1}), True),
    ("row8-on-empty-env", "", lambda p: write_json(p, ON), True),
    ("row9-off", None, lambda p: write_json(p, OFF), False),
    ("row9-upper-ON", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": "ON"}}), False),
    ("row9-trailing-space", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": "on "}}), False),
    ("row9-empty-string", None, lambda p: write_json(p, {"op_debug_config": {"enable_debug_kernel": ""}}), False),
    ("row9-off-empty-env", "", lambda p: write_json(p, OFF), False),
]


@pytest.mark.parametrize(
    ("npu_collect_path", "make_path", "expected"),
    [case[1:] for case in DECISION_TABLE],
    ids=[case[0] for case in DECISION_TABLE],
)
def test_init_system_config_decision_table(
    tmp_path: Path, npu_collect_path: str | None, make_path: Callable[[Path], str | None], expected: bool
) -> None:
    """Each row of the InitSystemConfig table decides the debug flag, and aclnnInit returns 0 for every row."""
    config_path = make_path(tmp_path)
    with process.fresh(settings(tmp_path, npu_collect_path)) as proc:
        # First set the flag to the opposite of the expected one (impossible in row 1: the env wins).
        opposite = write_json(tmp_path, ON if not expected else OFF, name="opposite.json")
        assert aclnn.aclnnInit(opposite) == 0
        assert proc.aclnn.debug_kernel is (not expected or bool(npu_collect_path))
        ret = aclnn.aclnnInit(config_path)
        assert ret == aclnn.ACLNN_SUCCESS
        assert proc.aclnn.debug_kernel is expected


def test_row1_does_not_read_the_config_file(tmp_path: Path, logs: list[dict[str, Any]]) -> None:
    """With NPU_COLLECT_PATH non-empty the flag is on and the config file is not consulted."""
    with process.fresh(settings(tmp_path, "/collect")) as proc:
        assert aclnn.aclnnInit(write_text(tmp_path, "{broken")) == 0
        assert proc.aclnn.debug_kernel is True
    assert not [e for e in logs if "json parse failed" in str(e)]


@pytest.mark.parametrize("content", ["{not json", ""], ids=["broken", "empty"])
def test_row4_logs_a_json_parse_failed_warning(tmp_path: Path, logs: list[dict[str, Any]], content: str) -> None:
    """A config that is not valid JSON turns the flag off with a warning "json parse failed"."""
    with process.fresh(settings(tmp_path)) as proc:
        assert aclnn.aclnnInit(write_text(tmp_path, content)) == 0
        assert proc.aclnn.debug_kernel is False
    warnings = [e for e in logs if e["log_level"] == "warning"]
    assert any("json parse failed" in str(e) for e in warnings)


def test_spec_example_configs(tmp_path: Path) -> None:
    """The test confs of the real suite: "on" → on, not_exit.json → off, null → off, env "on" + null → on."""
    with process.fresh(settings(tmp_path)) as proc:
        assert aclnn.aclnnInit(write_json(tmp_path, ON)) == 0
        assert proc.aclnn.debug_kernel is True
        assert aclnn.aclnnInit(str(tmp_path / "not_exit.json")) == 0
        assert proc.aclnn.debug_kernel is False
        assert aclnn.aclnnInit(write_json(tmp_path, ON)) == 0
        assert aclnn.aclnnInit(None) == 0
        assert proc.aclnn.debug_kernel is False
    with process.fresh(settings(tmp_path, "on")) as proc:
        assert aclnn.aclnnInit(None) == 0
        assert proc.aclnn.debug_kernel is True


# -- the static initial value -------------------------------------------------------------------
@pytest.mark.parametrize(("npu_collect_path", "expected"), [(None, False), ("", True), ("/collect", True)])
def test_static_initial_value(tmp_path: Path, npu_collect_path: str | None, expected: bool) -> None:
    """Before any aclnnInit the flag is on iff NPU_COLLECT_PATH is set at all, even to an empty string."""
    with process.fresh(settings(tmp_path, npu_collect_path)) as proc:
        assert proc.aclnn.debug_kernel is expected


def test_empty_npu_collect_path_is_on_until_aclnn_init_null(tmp_path: Path) -> None:
    """NPU_COLLECT_PATH="" gives on before aclnnInit, and aclnnInit(NULL) turns it off (row 1 needs non-empty)."""
    with process.fresh(settings(tmp_path, "")) as proc:
        assert proc.aclnn.debug_kernel is True
        assert aclnn.aclnnInit(None) == 0
        assert proc.aclnn.debug_kernel is False


def test_empty_npu_collect_path_from_the_environment(tmp_path: Path) -> None:
    """The environment variable set to "" (read by Settings.from_env) gives the same static value: on."""
    environ = {"NPU_COLLECT_PATH": "", "ASCEND_PROCESS_LOG_PATH": str(tmp_path / "log")}
    with process.fresh(Settings.from_env(environ)) as proc:
        assert proc.settings.npu_collect_path == ""
        assert proc.aclnn.debug_kernel is True
        assert aclnn.aclnnInit(None) == 0
        assert proc.aclnn.debug_kernel is False


# -- repeat calls -------------------------------------------------------------------------------
def test_last_init_wins(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """Each aclnnInit re-evaluates the flag: on, off, on, off again."""
    on, off = write_json(tmp_path, ON, "on.json"), write_json(tmp_path, OFF, "off.json")
    for path, expected in [(on, True), (off, False), (on, True), (None, False), (on, True), ("", False)]:
        assert aclnn.aclnnInit(path) == 0
        assert emu.aclnn.debug_kernel is expected


def test_init_loads_op_packages_once(emu: process.EmulatedProcess) -> None:
    """The op packages are loaded by the first aclnnInit only; later calls (also after finalize) reuse them."""
    assert emu.aclnn.packages is None
    assert aclnn.aclnnInit(None) == 0
    packages = emu.aclnn.packages
    assert packages is not None
    assert aclnn.aclnnInit(None) == 0
    assert emu.aclnn.packages is packages
    assert aclnn.aclnnFinalize() == 0
    assert aclnn.aclnnInit(None) == 0
    assert emu.aclnn.packages is packages


def test_finalize_always_returns_0(emu: process.EmulatedProcess) -> None:
    """aclnnFinalize returns 0 after aclnnInit and on every repeat."""
    assert aclnn.aclnnInit(None) == 0
    for expected_calls in (1, 2, 3):
        assert aclnn.aclnnFinalize() == aclnn.ACLNN_SUCCESS
        assert emu.aclnn.finalize_calls == expected_calls


def test_finalize_without_init_returns_0(emu: process.EmulatedProcess) -> None:
    """aclnnFinalize without any aclnnInit returns 0 and runs its (empty-handed) steps."""
    assert aclnn.aclnnFinalize() == 0
    assert emu.aclnn.finalize_calls == 1
    assert emu.aclnn.init_calls == 0


def test_finalize_runs_every_step_each_time(emu: process.EmulatedProcess) -> None:
    """Every registered finalize step runs on each aclnnFinalize."""
    ran: list[str] = []
    emu.aclnn.finalize_steps.extend([lambda: ran.append("aicpu"), lambda: ran.append("tiling")])
    assert aclnn.aclnnFinalize() == 0
    assert aclnn.aclnnFinalize() == 0
    assert ran == ["aicpu", "tiling", "aicpu", "tiling"]


def test_init_after_finalize_works(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """aclnnInit after aclnnFinalize returns 0 and re-evaluates the flag."""
    assert aclnn.aclnnInit(None) == 0
    assert aclnn.aclnnFinalize() == 0
    assert aclnn.aclnnInit(write_json(tmp_path, ON)) == 0
    assert emu.aclnn.debug_kernel is True
    assert emu.aclnn.init_calls == 2


# -- lifecycle warnings -------------------------------------------------------------------------
def test_first_init_and_finalize_log_no_lifecycle_warning(logs: list[dict[str, Any]]) -> None:
    """One aclnnInit followed by one aclnnFinalize is the documented use: no lifecycle warning."""
    assert aclnn.aclnnInit(None) == 0
    assert aclnn.aclnnFinalize() == 0
    assert lifecycle_warnings(logs) == []


def test_repeat_init_logs_a_lifecycle_warning(logs: list[dict[str, Any]]) -> None:
    """Each aclnnInit after the first logs one "aclnn.lifecycle" warning naming aclnnInit."""
    for _ in range(3):
        assert aclnn.aclnnInit(None) == 0
    warnings = lifecycle_warnings(logs)
    assert len(warnings) == 2
    assert all(w["log_level"] == "warning" and w["api"] == "aclnnInit" for w in warnings)


def test_repeat_finalize_logs_a_lifecycle_warning(logs: list[dict[str, Any]]) -> None:
    """Each aclnnFinalize after the first logs one "aclnn.lifecycle" warning naming aclnnFinalize."""
    assert aclnn.aclnnInit(None) == 0
    for _ in range(3):
        assert aclnn.aclnnFinalize() == 0
    warnings = lifecycle_warnings(logs)
    assert len(warnings) == 2
    assert all(w["log_level"] == "warning" and w["api"] == "aclnnFinalize" for w in warnings)


def test_finalize_without_init_logs_a_lifecycle_warning(logs: list[dict[str, Any]]) -> None:
    """aclnnFinalize without aclnnInit logs one lifecycle warning (and still returns 0)."""
    assert aclnn.aclnnFinalize() == 0
    (warning,) = lifecycle_warnings(logs)
    assert warning["log_level"] == "warning"
    assert warning["api"] == "aclnnFinalize"


# -- aclInit / aclFinalize ----------------------------------------------------------------------
def test_acl_finalize_runs_aclnn_finalize_steps(emu: process.EmulatedProcess) -> None:
    """A successful aclFinalize performs aclnnFinalize's steps without changing its own return code."""
    ran: list[int] = []
    emu.aclnn.finalize_steps.append(lambda: ran.append(1))
    assert acl.init() == 0
    assert emu.aclnn.finalize_calls == 0
    assert acl.finalize() == 0
    assert emu.aclnn.finalize_calls == 1
    assert ran == [1]


def test_failed_acl_finalize_does_not_run_aclnn_finalize_again(emu: process.EmulatedProcess) -> None:
    """A repeated aclFinalize fails with its own status and does not run aclnnFinalize's steps again."""
    assert acl.init() == 0
    assert acl.finalize() == 0
    assert acl.finalize() != 0
    assert emu.aclnn.finalize_calls == 1


def test_mixing_acl_and_aclnn_init_finalize_never_fails(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """aclInit + aclnnInit + aclnnFinalize + aclFinalize: every call returns 0."""
    assert acl.init() == 0
    assert aclnn.aclnnInit(write_json(tmp_path, ON)) == 0
    assert emu.aclnn.debug_kernel is True
    assert aclnn.aclnnFinalize() == 0
    assert acl.finalize() == 0
    assert emu.aclnn.finalize_calls == 2


def test_aclnn_init_ignores_an_acl_json_dump_section(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """aclnnInit reads only op_debug_config: an aclInit-style file with dump and defaultDevice is fine."""
    path = write_json(tmp_path, {"dump": {"dump_path": str(tmp_path)}, "defaultDevice": {"default_device": "0"}, **ON})
    assert acl.init(path) == 0
    assert aclnn.aclnnInit(path) == 0
    assert emu.aclnn.debug_kernel is True
    assert acl.finalize() == 0
