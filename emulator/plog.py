"""The plog-style logging of an emulated process: the ASCEND log variables as a structlog setup.

The real libraries read ASCEND_GLOBAL_LOG_LEVEL, ASCEND_MODULE_LOG_LEVEL,
ASCEND_(S)LOG_PRINT_TO_STDOUT and the plog path when a process starts, and every line they
write looks like a plog line. Here each emulated process does
the same from its own ``Settings``: ``install`` puts its setup in place when the process starts
and returns what was there before, and ``restore`` puts that back when a ``fresh()`` block ends.
So no logging decision of one emulated process survives it, and this module keeps no state of
its own: the structlog configuration is the only place a setup lives.

An application (or a test) that configured structlog itself keeps its setup: the emulator only
replaces, or restores over, a setup it installed (one whose processors end in a
``PlogRenderer``). ``structlog.testing.capture_logs`` swaps the processors for its own, so a
process started inside a capture leaves the capture alone.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

import structlog

from emulator.config import Settings
from emulator.dfx import add_dfx
from emulator.error_manager import timestamp

LOG_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR, 4: logging.CRITICAL + 10}
LEVEL_NAMES = {"debug": "DEBUG", "info": "INFO", "warning": "WARNING", "error": "ERROR", "critical": "ERROR"}
# logger-name prefix -> the plog module its lines are filed under (ASCEND_MODULE_LOG_LEVEL's names)
MODULES = (
    ("device", "RUNTIME"),
    ("emulator.acl", "ASCENDCL"),
    ("emulator.runtime", "RUNTIME"),
    ("emulator.app", "APP"),  # aclAppLog: the application's own lines
)


def module_of(logger_name: str | None) -> str:
    """The plog module of a logger: device and the runtime core -> RUNTIME, the acl face -> ASCENDCL, else OP."""
    for prefix, module in MODULES:
        if logger_name and logger_name.startswith(prefix):
            return module
    return "OP"


class _LazyFile:
    """The plog file, created on the first line written (a quiet process leaves no file behind)."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._file: TextIO | None = None
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            if self._file is None:
                plog = self._directory / "debug" / "plog"
                plog.mkdir(parents=True, exist_ok=True)
                stamp = datetime.now().strftime("%Y%m%d%H%M%S%f")[:-3]
                self._file = (plog / f"plog-{os.getpid()}_{stamp}.log").open("a", encoding="utf-8")
            return self._file.write(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def __del__(self) -> None:  # the sink lives as long as the logging setup that holds it
        if self._file is not None:
            self._file.close()


class PlogRenderer:
    """Render and filter one event as a plog line: [LEVEL] MODULE(pid,name):time [file:line]tid event: k=v.

    Being the last processor of a setup also marks the setup as the emulator's own. It carries
    ``all_levels``, which belongs to the test harness rather than to one emulated process: a
    setup installed over an emulator setup keeps it, so ``capture_logs`` sees every event in
    each process a test starts.
    """

    def __init__(self, settings: Settings, *, all_levels: bool = False) -> None:
        self.settings = settings
        self.all_levels = all_levels
        self._process_name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"

    def __call__(self, logger: Any, method: str, event: MutableMapping[str, Any]) -> str:
        module = module_of(event.pop("logger_name", None))
        level = LEVEL_NAMES.get(method, method.upper())
        threshold = self.settings.module_log_levels.get(module, self.settings.log_level)
        if LOG_LEVELS[threshold] > getattr(logging, level, logging.ERROR):
            raise structlog.DropEvent
        where = event.pop("where", "")
        text = event.pop("event", "")
        fields = " ".join(f"{k}={v}" for k, v in event.items())
        return (
            f"[{level}] {module}({os.getpid()},{self._process_name}):{timestamp()} [{where}]"
            f"{threading.get_native_id()} {text}: {fields}".rstrip()
        )


@dataclass(frozen=True, slots=True)
class SavedLogging:
    """The structlog setup an install replaced; ``config`` None: structlog was not configured at all."""

    config: dict[str, Any] | None


def installed() -> PlogRenderer | None:
    """The renderer of the emulator setup in place, or None when the setup is someone else's (or none)."""
    if not structlog.is_configured():
        return None
    processors = structlog.get_config()["processors"]
    last = processors[-1] if isinstance(processors, Sequence) and processors else None
    return last if isinstance(last, PlogRenderer) else None


def _configure(settings: Settings, stream: TextIO | None, all_levels: bool) -> None:
    lowest = 0 if all_levels else min([settings.log_level, *settings.module_log_levels.values()])
    sink: Any = stream or (sys.stdout if settings.log_to_stdout else _LazyFile(settings.log_dir))
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            add_dfx,
            PlogRenderer(settings, all_levels=all_levels),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(min(LOG_LEVELS[lowest], logging.CRITICAL)),
        logger_factory=structlog.WriteLoggerFactory(file=sink),
        cache_logger_on_first_use=False,
    )


def install(settings: Settings) -> SavedLogging | None:
    """Put an emulated process's setup in place, unless the application configured structlog itself.

    Returns what to hand to ``restore`` when the process's scope ends, or None when nothing was
    installed (a setup of the application's, or an active ``capture_logs``, stays as it is).
    """
    if not structlog.is_configured():
        saved = SavedLogging(None)
        all_levels = False
    else:
        previous = installed()
        if previous is None:
            return None
        saved = SavedLogging(structlog.get_config())
        all_levels = previous.all_levels
    _configure(settings, None, all_levels)
    return saved


def restore(saved: SavedLogging | None) -> None:
    """Put back the setup ``install`` replaced, if an emulator setup is still the one in place.

    A setup the application installed meanwhile is the application's to keep.
    """
    if saved is None or installed() is None:
        return
    if saved.config is None:
        structlog.reset_defaults()
    else:
        structlog.configure(**saved.config)


def configure_logging(
    settings: Settings, *, stream: TextIO | None = None, force: bool = False, all_levels: bool = False
) -> SavedLogging | None:
    """An entry point's (CLI, test harness) emulator setup; returns what it replaced, for ``restore``.

    Without ``force`` a setup the application made itself is kept (None is returned).
    ``stream`` sends the lines there instead of stdout / the plog file. ``all_levels`` lets
    every event reach the processors (so ``structlog.testing.capture_logs`` sees warnings and
    debug events) while the plog output still honours the levels; the emulated processes
    started under this setup keep it.
    """
    if structlog.is_configured() and installed() is None and not force:
        return None
    saved = SavedLogging(structlog.get_config() if structlog.is_configured() else None)
    _configure(settings, stream, all_levels)
    return saved
