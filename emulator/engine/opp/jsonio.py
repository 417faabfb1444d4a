"""JSON reading and RFC 7386 merge patch for op-package files, with refusals instead of failures.

Emulates the nlohmann-json reads opbase does on ops-info, binary-config and kernel JSON files
(through nlohmann-json).

Fidelity notes:
- The real ops-info loader stops at the first unreadable file with ``ACLNN_ERR_INNER_LOAD_JSON_FAILED``
  (561108) and loads nothing. This project requires the opposite: the bad file is *refused* (a
  ``Refusal`` record plus an ``opp.file_refused`` warning carrying ``code=561108``) and every other
  file still loads. See docs/opp.md.
- ``NaN``/``Infinity`` literals are rejected, as nlohmann-json rejects them (Python's ``json`` would not).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emulator.config_files import ConfigFileRefused, read_config_text
from emulator.engine.opp import shipped
from emulator.lazylog import lazy_logger
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.engine.opp")

LOAD_JSON_FAILED = int(AclnnStatus.ACLNN_ERR_INNER_LOAD_JSON_FAILED)
MAX_PACKAGE_JSON_BYTES = 64 << 20  # the largest binary config of a real package is a few MiB


@dataclass(frozen=True, slots=True)
class Refusal:
    """One package file or directory the loader skipped, and why."""

    path: Path
    reason: str
    code: int | None = LOAD_JSON_FAILED


class JsonRefused(ValueError):
    """A package JSON file that cannot be used; carries the reason for the refusal record."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def reject_constant(name: str) -> Any:
    raise ValueError(f"invalid literal {name}")


def read_package_text(path: Path, *, root: Path | None = None) -> str:
    """The text of one package file, read as a config is (``emulator.config_files``), or ``JsonRefused``.

    A regular file of bounded size only: a FIFO named ``*.json`` is never opened, ``/dev/zero``
    behind a package file's name never read. With ``root`` the file must resolve inside it, so a
    symlink in a package cannot make it load a file from elsewhere on the machine.
    """
    if root is not None:
        try:  # a shipped path resolves from its remembered identity (one stat; see shipped)
            resolved = shipped.resolved_path(path) or str(path.resolve())
            inside = shipped.is_within(resolved, shipped.resolved_path(root) or str(root.resolve()))
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise JsonRefused(path, f"resolves outside its package ({root})")
    text = _plain_file_text(path)
    if text is not None:
        return text
    try:
        return read_config_text(path, limit=MAX_PACKAGE_JSON_BYTES)
    except ConfigFileRefused as exc:
        raise JsonRefused(path, exc.reason) from None


def _plain_file_text(path: Path) -> str | None:
    """The text of a regular UTF-8 file within the size limit, or None: ``read_config_text`` then reads
    (or refuses, with its reason) whatever this does not.

    ``read_config_text`` resolves the path first (an ``lstat`` per component, in Python) for its
    symlink-loop message; a file whose ``stat`` succeeds has no loop to report, so here it costs one
    ``stat``, an ``open`` only of what that ``stat`` called a regular file (non-blocking, and checked
    again on the open descriptor, so a file swapped for a FIFO meanwhile is never read), one read.
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PACKAGE_JSON_BYTES:
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino, opened.st_size) != (info.st_dev, info.st_ino, info.st_size):
                return None
            data = os.read(fd, info.st_size + 1)
        finally:
            os.close(fd)
        return data.decode("utf-8") if len(data) == info.st_size else None
    except (OSError, UnicodeDecodeError):
        return None


def read_json_object(path: Path, *, root: Path | None = None) -> dict[str, Any]:
    """Parse one package JSON file whose top level must be an object; raise ``JsonRefused`` otherwise."""
    text = read_package_text(path, root=root)
    try:
        value = json.loads(text, parse_constant=reject_constant)
    except (ValueError, RecursionError) as exc:
        raise JsonRefused(path, f"{type(exc).__name__}: {exc}") from None
    if not isinstance(value, dict):
        raise JsonRefused(path, f"top level is a JSON {type(value).__name__}, not an object")
    return value


def refuse(
    refusals: list[Refusal],
    path: Path,
    reason: str,
    *,
    code: int | None = LOAD_JSON_FAILED,
    event: str = "opp.file_refused",
) -> None:
    """Record a refusal and log its warning line (``opp.file_refused`` unless told otherwise)."""
    refusals.append(Refusal(path, reason, code))
    log.warning(event, path=str(path), reason=reason, code=code)


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: objects merge recursively, ``null`` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result
