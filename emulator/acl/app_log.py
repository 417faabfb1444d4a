"""``acl.app_log``: aclAppLog, an application's own lines in the plog log.

The real call formats ``"<tid> <func>:<file>:<line>: \"<text>\""``, cuts it at 1024 bytes with a
``...[truncated]`` mark, and writes it at the given level (ACL_DEBUG 0 … ACL_ERROR 3) unless that
level is filtered out; an unknown level or a null string writes nothing. Here the line goes
through the process's plog logging (``emulator.plog``) under the APP module, so
ASCEND_GLOBAL_LOG_LEVEL, ASCEND_MODULE_LOG_LEVEL (``APP=…``) and ASCEND_SLOG_PRINT_TO_STDOUT
apply. pyACL takes only the level and the text and fills in the caller's function, file and line;
C passes them (the ACL_APP_LOG macro) and its variadic arguments are formatted in C first.

It never raises: ACLLite logs from ``__del__`` methods, which run during interpreter shutdown too.
"""

from __future__ import annotations

import os
import sys
import threading
from types import FrameType

from emulator.boundary import acl_api
from emulator.lazylog import lazy_logger

log = lazy_logger(__name__, logger_name="emulator.app")

MAX_LOG_STRING = 1024
TRUNCATED = "...[truncated]"
METHODS = {0: "debug", 1: "info", 2: "warning", 3: "error"}
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(log_level: int, func: str | None, file: str | None, line: int, text: str | None) -> None:
    """One application log line, as aclAppLog writes it (the C layer's entry)."""
    method = METHODS.get(int(log_level))
    if method is None or func is None or file is None or text is None:
        return
    entry = f'{threading.get_native_id()} {func}:{file}:{line}: "{text}"'
    raw = entry.encode(errors="replace")
    if len(raw) >= MAX_LOG_STRING - 1:
        keep = MAX_LOG_STRING - 1 - len(TRUNCATED)
        entry = raw[:keep].decode(errors="ignore") + TRUNCATED
    try:
        getattr(log, method)(entry, where=f"{os.path.basename(file)}:{line}")
    except Exception:
        return


def _caller() -> FrameType | None:
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    return frame


@acl_api("aclAppLog")
def app_log(log_level: int, message: str) -> None:
    """Write ``message`` at ``log_level`` with the calling function, file and line."""
    frame = _caller()
    if frame is None:
        write(log_level, "<module>", "<unknown>", 0, message)
    else:
        write(log_level, frame.f_code.co_name, frame.f_code.co_filename, frame.f_lineno, message)


app_log.c_face = write  # type: ignore[attr-defined]  # C passes func, file and line itself
