"""Reports of uses the real stack leaves undefined: the emulator's sanitizer.

On a card these crash, corrupt memory or silently misbehave; the emulator catches them and
names the sites that matter — where the misuse happened and where the object was created and
destroyed. Each report has a ``ReportKind`` (use after destroy, double destroy, a foreign
handle, a race, an out-of-bounds access, an uninitialised read …), so a summary can count
them and a test can ask for one kind.

By default a report is three things at once: an error line in the plog, one line on stderr
(silenced with ``OPBASE_EMU_REPORTS=0``), and an entry in the process's ``Diagnostics``; the
call then returns what the real call would have returned had it not crashed, so statuses are
never invented. In strict mode (``OPBASE_EMU_STRICT=1`` or ``proc.strict = True``) the report
raises ``UndefinedBehaviour`` instead, which is not a status error and therefore propagates out
of the C-named face (meant for tests and for halting at the first misuse).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from emulator.device.errors import ReportRaisedInTask
from emulator.lazylog import lazy_logger
from emulator.tracking import Registry, ResourceKind, Site, capture_site

log = lazy_logger(__name__, logger_name="emulator.diagnostics")


class ReportKind(StrEnum):
    """What went wrong. String-valued: the stderr line, the summary and the plog show the value."""

    USE_AFTER_DESTROY = "use after destroy"
    DOUBLE_DESTROY = "double destroy"
    FOREIGN_HANDLE = "foreign handle"  # not an object of this process, or not of the kind the API takes
    EXECUTOR_REUSE = "executor reuse"  # phase 2 again on an executor that ran once and was freed
    RACE = "race"  # two accesses to the same bytes, one a write, ordered by nothing
    OUT_OF_BOUNDS = "out of bounds"
    UNINITIALISED = "uninitialised read"  # a computation read device bytes that no one wrote
    BAD_ARGUMENT = "bad argument"  # a count, size or length that makes the real call read past an end
    UNDEFINED_USE = "undefined use"  # anything else the real stack leaves undefined


# What the real card does, said once per kind: the stderr line ends with it, so a reader knows
# why the report matters although the emulated call went on.
ON_A_CARD: dict[ReportKind, str] = {
    ReportKind.USE_AFTER_DESTROY: "on a card this reads freed host memory: garbage results or a crash",
    ReportKind.DOUBLE_DESTROY: "on a card this is a double free: heap corruption or a crash",
    ReportKind.FOREIGN_HANDLE: "on a card the pointer is read as the wrong object: garbage results or a crash",
    ReportKind.EXECUTOR_REUSE: "on a card phase 2 runs a freed executor: garbage results or a crash",
    ReportKind.RACE: "on a card the result depends on timing: it may be right in testing and wrong in production",
    ReportKind.OUT_OF_BOUNDS: "on a card this touches a neighbour's memory or raises an AI Core exception",
    ReportKind.UNINITIALISED: "on a card the kernel computes on whatever the memory held before",
    ReportKind.BAD_ARGUMENT: "on a card the call reads past the end of the array: garbage values or a crash",
    ReportKind.UNDEFINED_USE: "on a card the behaviour is undefined",
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One report: what happened (``kind``, ``message``) in which call (``api``) and where."""

    api: str
    message: str
    site: Site
    created: Site | None = None
    destroyed: Site | None = None
    kind: ReportKind = ReportKind.UNDEFINED_USE
    card: str | None = None  # what the card would do, when it differs from the kind's usual text
    related: tuple[tuple[str, Site], ...] = ()  # other sites worth naming: ("the task was enqueued at", site)

    @property
    def on_a_card(self) -> str:
        return self.card if self.card is not None else ON_A_CARD[self.kind]

    def _other_sites(self) -> list[str]:
        """Where the object was created and destroyed, and any related sites (a racing task's enqueue)."""
        parts = [f"created at {self.created}"] if self.created is not None else []
        if self.destroyed is not None:
            parts.append(f"destroyed at {self.destroyed}")
        parts.extend(f"{label} {site}" for label, site in self.related)
        return parts

    def __str__(self) -> str:
        return "; ".join([f"{self.api}: {self.message} (at {self.site})", *self._other_sites()])

    def line(self) -> str:
        """The one stderr line: kind, the use's site, the call, what happened, the other sites, the card."""
        head = f"opbase-emu: {self.kind}: {self.site}: {self.api}: {self.message}"
        return "; ".join([head, *self._other_sites(), self.on_a_card])


class UndefinedBehaviour(ReportRaisedInTask):
    """Raised in strict mode instead of carrying on as the real library would."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic

    @property
    def kind(self) -> ReportKind:
        return self.diagnostic.kind


class Diagnostics(list[Diagnostic]):
    """One emulated process's reports, in order; ``strict`` turns the next report into a raise.

    A list so that tests read it as one; it is handed down to the engine and the devices as a
    collaborator, so nothing below the faces has to ask for the current process to report.
    ``echo`` prints each report's line on stderr (OPBASE_EMU_REPORTS=0 turns it off).
    """

    def __init__(self, strict: bool = False, *, echo: bool = False) -> None:
        super().__init__()
        self.strict = strict
        self.echo = echo
        self._lock = threading.Lock()

    def report(
        self,
        api: str,
        message: str,
        *,
        created: Site | None = None,
        destroyed: Site | None = None,
        kind: ReportKind = ReportKind.UNDEFINED_USE,
        site: Site | None = None,
        card: str | None = None,
        related: tuple[tuple[str, Site], ...] = (),
    ) -> Diagnostic:
        """Record one report; ``site`` defaults to the caller's user frame (give it when the use
        happened earlier, e.g. the host call that enqueued a task that races).
        """
        where = site if site is not None else capture_site(2)
        diagnostic = Diagnostic(api, message, where, created, destroyed, kind, card, related)
        with self._lock:
            self.append(diagnostic)
        log.error(
            "api.undefined_behaviour",
            api=api,
            reason=message,
            kind=str(kind),
            site=str(diagnostic.site),
            created=str(created) if created else None,
            destroyed=str(destroyed) if destroyed else None,
            **{label.replace(" ", "_"): str(site) for label, site in related},
        )
        if self.echo:
            # a closed stderr must not turn a report into a crash
            with contextlib.suppress(OSError, ValueError):
                print(diagnostic.line(), file=sys.stderr, flush=True)
        if self.strict:
            raise UndefinedBehaviour(diagnostic)
        return diagnostic

    def report_released(
        self,
        registry: Registry,
        kind: ResourceKind,
        key: int,
        api: str,
        message: str,
        *,
        report_kind: ReportKind = ReportKind.USE_AFTER_DESTROY,
    ) -> Diagnostic:
        """A use of a released resource, with the sites the registry remembers for it."""
        gone = registry.released_resource(kind, key)
        return self.report(
            api,
            message,
            created=gone.site if gone else None,
            destroyed=gone.released_at if gone else None,
            kind=report_kind,
            site=capture_site(2),
        )

    def of_kind(self, kind: ReportKind) -> list[Diagnostic]:
        return [d for d in self if d.kind is kind]

    def summary(self) -> Counter[ReportKind]:
        """How many reports of each kind this process made."""
        return Counter(d.kind for d in self)

    def render_summary(self) -> str:
        """The closing summary, like a sanitizer's: '' when there was nothing to report."""
        counts = self.summary()
        if not counts:
            return ""
        total = sum(counts.values())
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"opbase-emu: SUMMARY: {total} sanitizer report{'s' if total != 1 else ''} ({kinds})"


def exit_summary(diagnostics: Diagnostics) -> None:
    """At the end of a program: the summary line on stderr when there was anything to report."""
    text = diagnostics.render_summary()
    if text:
        with contextlib.suppress(OSError, ValueError):
            print(text, file=sys.stderr, flush=True)
