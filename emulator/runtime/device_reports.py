"""Races and faults the simulated device finds, turned into sanitizer reports with host call sites.

The device knows tasks, streams and byte ranges; the user needs the lines of their program.
So the runtime hands each device a site source (``capture_site``), called when a task is
enqueued, and two listeners. Every ``RaceReport`` becomes a ``ReportKind.RACE`` report: its
site is the host call happening now (the synchronous copy, or the call that enqueued the racing
task), and the queued task's enqueue site is named beside it. Every ``DeviceFault`` (an
out-of-bounds access, an uninitialised read …) becomes a report of its kind whose site is the
host call that enqueued the task, with the host call that made it run (a synchronisation)
named beside it. Strict mode raises from the listener.
"""

from __future__ import annotations

from emulator.device.interface import DeviceFault, FaultListener, RaceListener, RaceReport
from emulator.diagnostics import Diagnostics, ReportKind
from emulator.tracking import Site, capture_site

HOST_CARD = (
    "on a card a synchronous copy, set or free does not wait for queued work: it sees the bytes "
    "before or after the task, depending on timing"
)
STREAMS_CARD = "on a card two streams run concurrently: which access happens first depends on timing"


def race_reporter(diagnostics: Diagnostics) -> RaceListener:
    """A race listener that reports each race to ``diagnostics``."""

    def on_race(race: RaceReport) -> None:
        does = "writes" if race.task_writes else "reads"
        where = f"{race.nbytes} bytes at {race.addr:#x}"
        queued = f"'{race.task}' queued on stream {race.stream:#x}"
        if race.operation_stream is None:
            message = f"touches {where} that {queued} still {does}: the stream was not synchronized first"
            card = HOST_CARD
        else:
            message = (
                f"'{race.operation}' enqueued on stream {race.operation_stream:#x} touches {where} that {queued} "
                f"{does}, and no event orders the two streams"
            )
            card = STREAMS_CARD
        related = (("the queued task was enqueued at", race.task_site),) if isinstance(race.task_site, Site) else ()
        diagnostics.report(
            race.operation, message, kind=ReportKind.RACE, site=capture_site(2), card=card, related=related
        )

    return on_race


def fault_reporter(diagnostics: Diagnostics) -> FaultListener:
    """A fault listener that reports each fault to ``diagnostics``, at the host call that enqueued the task."""

    def on_fault(fault: DeviceFault) -> None:
        try:
            kind = ReportKind(fault.kind)
        except ValueError:
            kind = ReportKind.UNDEFINED_USE
        now = capture_site(2)
        enqueued = fault.task_site if isinstance(fault.task_site, Site) else None
        related: tuple[tuple[str, Site], ...] = ()
        if enqueued is not None and str(enqueued) != str(now):
            related = (("the task ran at", now),)
        stream = f" (on stream {fault.stream:#x})" if fault.stream is not None else ""
        diagnostics.report(fault.task, f"{fault.message}{stream}", kind=kind, site=enqueued or now, related=related)

    return on_fault
