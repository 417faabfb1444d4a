"""Reports of uses the real library leaves undefined (use after destroy, double destroy, over-reads).

On a card these crash, corrupt memory or silently misbehave; the emulator catches them and
names both sites — where the object was created and where it was destroyed. By default a
report is an error log line plus an entry in ``process.current().diagnostics`` and the call
returns what the real call would have returned had it not crashed; in strict mode
(``OPBASE_EMU_STRICT=1`` or ``process.strict = True``) it raises ``UndefinedBehaviour``, which is
not a status error and therefore propagates out of the C-named face (meant for tests).
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from emulator import process
from emulator.tracking import Site, capture_site

log = structlog.get_logger(logger_name="emulator.diagnostics")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    api: str
    message: str
    site: Site
    created: Site | None = None
    destroyed: Site | None = None

    def __str__(self) -> str:
        parts = [f"{self.api}: {self.message} (at {self.site})"]
        if self.created is not None:
            parts.append(f"created at {self.created}")
        if self.destroyed is not None:
            parts.append(f"destroyed at {self.destroyed}")
        return "; ".join(parts)


class UndefinedBehaviour(Exception):
    """Raised in strict mode instead of carrying on as the real library would."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def report_undefined(api: str, message: str, *, created: Site | None = None, destroyed: Site | None = None) -> None:
    proc = process.current()
    diagnostic = Diagnostic(api, message, capture_site(2), created, destroyed)
    proc.diagnostics.append(diagnostic)
    log.error(
        "api.undefined_behaviour",
        api=api,
        reason=message,
        site=str(diagnostic.site),
        created=str(created) if created else None,
        destroyed=str(destroyed) if destroyed else None,
    )
    if proc.strict:
        raise UndefinedBehaviour(diagnostic)
