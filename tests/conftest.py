"""Shared fixtures: every test runs in a brand-new emulated process; logs go to a temp dir."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from emulator import process
from emulator.config import Settings, configure_logging


@pytest.fixture(scope="session", autouse=True)
def _logging(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Configure structlog once so library log lines never land in $HOME."""
    configure_logging(Settings(log_dir=tmp_path_factory.mktemp("plog")), force=True, all_levels=True)


@pytest.fixture(autouse=True)
def emu() -> Iterator[process.EmulatedProcess]:
    """A fresh emulated process for each test."""
    with process.fresh() as proc:
        yield proc
