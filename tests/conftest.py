"""Shared fixtures: every test runs in a brand-new emulated process; logs go to a temp dir."""

from __future__ import annotations

import os
import shutil
import tempfile
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


# the plog directory and HOME of everything the run does before the session fixture below takes
# over (collection imports, pytest_configure hooks, xdist workers' start-up), and what they replaced
COLLECTION_LOGS = pytest.StashKey[list[tuple[str, str, str | None]]]()


def pytest_configure(config: pytest.Config) -> None:
    """From the first moment of the run, a plog goes to a temp dir, never to the user's ~/ascend/log.

    An emulated process reads ASCEND_PROCESS_LOG_PATH when it starts, and one may start while test
    modules are imported, before any fixture runs; setting the variable here covers that time, and
    the subprocesses (CLI runs, C programs, xdist workers) inherit it. HOME points into a temp dir
    too: a test that starts a process from an environment of its own (``Settings.from_env({...})``,
    ``Settings()``) has no log variable, so its plog goes to ``$HOME/ascend/log``, which must not be
    the user's.
    """
    saved = []
    for name, prefix in (("ASCEND_PROCESS_LOG_PATH", "opbase-emu-test-plog-"), ("HOME", "opbase-emu-test-home-")):
        directory = tempfile.mkdtemp(prefix=prefix)
        saved.append((name, directory, os.environ.get(name)))
        os.environ[name] = directory
    config.stash[COLLECTION_LOGS] = saved


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, directory, previous in config.stash[COLLECTION_LOGS]:
        if previous is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = previous
        shutil.rmtree(directory, ignore_errors=True)


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
