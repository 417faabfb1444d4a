"""Reports of uses the real library leaves undefined (use after destroy, double destroy, over-reads).

On a card these crash, corrupt memory or silently misbehave; the emulator catches them and
names both sites — where the object was created and where it was destroyed. By default a
report is an error log line plus an entry in the process's ``Diagnostics`` and the call
returns what the real call would have returned had it not crashed; in strict mode
(``OPBASE_EMU_STRICT=1`` or ``proc.strict = True``) it raises ``UndefinedBehaviour``, which is
not a status error and therefore propagates out of the C-named face (meant for tests).
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from emulator.tracking import Registry, ResourceKind, Site, capture_site

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


class Diagnostics(list[Diagnostic]):
    """One emulated process's reports, in order; ``strict`` turns the next report into a raise.

    A list so that tests read it as one; it is handed down to the engine as a collaborator, so
    nothing below the faces has to ask for the current process to report.
    """

    def __init__(self, strict: bool = False) -> None:
        super().__init__()
        self.strict = strict

    def report(self, api: str, message: str, *, created: Site | None = None, destroyed: Site | None = None) -> None:
        diagnostic = Diagnostic(api, message, capture_site(2), created, destroyed)
        self.append(diagnostic)
        log.error(
            "api.undefined_behaviour",
            api=api,
            reason=message,
            site=str(diagnostic.site),
            created=str(created) if created else None,
            destroyed=str(destroyed) if destroyed else None,
        )
        if self.strict:
            raise UndefinedBehaviour(diagnostic)

    def report_released(self, registry: Registry, kind: ResourceKind, key: int, api: str, message: str) -> None:
        """A use of a released resource, with the sites the registry remembers for it."""
        gone = registry.released_resource(kind, key)
        self.report(api, message, created=gone.site if gone else None, destroyed=gone.released_at if gone else None)
