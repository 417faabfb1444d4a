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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from emulator.status import AclnnStatus

log = structlog.get_logger(logger_name="emulator.engine.opp")

LOAD_JSON_FAILED = int(AclnnStatus.ACLNN_ERR_INNER_LOAD_JSON_FAILED)


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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid literal {name}")


def read_json_object(path: Path) -> dict[str, Any]:
    """Parse one JSON file whose top level must be an object; raise ``JsonRefused`` otherwise."""
    try:
        value = json.loads(path.read_bytes().decode("utf-8"), parse_constant=_reject_constant)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
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
