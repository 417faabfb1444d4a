"""Shared fixtures: every test runs in a brand-new emulated process; logs go to a temp dir."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from emulator import plog, process
from emulator.config import Settings

# the log variables a developer's shell may set; the suite runs with the defaults unless a test sets them
LOG_VARIABLES = (
    "ASCEND_GLOBAL_LOG_LEVEL",
    "ASCEND_MODULE_LOG_LEVEL",
    "ASCEND_LOG_PRINT_TO_STDOUT",
    "ASCEND_SLOG_PRINT_TO_STDOUT",
    "ASCEND_WORK_PATH",
)


@pytest.fixture(scope="session", autouse=True)
def _logging(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every emulated process of the session logs to a temp dir (never $HOME) and lets capture_logs see all levels.

    Each process reads its log settings from the environment when it starts, so the plog path is
    set there; the emulator setup installed here carries ``all_levels`` to every process's setup.
    """
    with pytest.MonkeyPatch.context() as env:
        for name in LOG_VARIABLES:
            env.delenv(name, raising=False)
        env.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path_factory.mktemp("plog")))
        replaced = plog.configure_logging(Settings.from_env(), force=True, all_levels=True)
        yield
        plog.restore(replaced)


@pytest.fixture(autouse=True)
def emu() -> Iterator[process.EmulatedProcess]:
    """A fresh emulated process for each test."""
    with process.fresh() as proc:
        yield proc
