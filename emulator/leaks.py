"""Leak reports over the live-resource registry, in the style of LeakSanitizer and compute-sanitizer.

Every resource still alive is reported with its kind, size, address, what it holds (a tensor's
shape, data type and format, a scalar's value, an array's values) and the file:line (plus a
short stack, cut where a runner such as pytest called the user's code) in the user's code that
created it, grouped by layer. Members of a leaked list are
*indirect* leaks (destroying the list would have freed them); everything else is *direct*. Caches
that are not leaks (``tracking.CACHE_KINDS``: tiling-parse contexts and AI CPU task spaces and
tasks, which aclnnFinalize frees) are counted apart while the program runs; in the report at
program end they are leaks, since aclnnFinalize never ran. Suppressions
come from a file of patterns (``leak:<glob>`` matched against each stack frame ``file:line in
function``, or ``kind:<kind>``), and are counted in the summary.

The report at program end also counts the sanitizer reports (undefined uses, races, out-of-bounds
and uninitialised reads) the process made, and ``exit_code`` is the one rule every leak check
(``opbase-emu leaks``, ``OPBASE_EMU_LEAK_CHECK=1``, a C program's exit) ends a program with.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from emulator import process
from emulator.diagnostics import Diagnostic
from emulator.lazylog import lazy_logger
from emulator.meta.describe import contents
from emulator.process import EmulatedProcess
from emulator.tracking import CACHE_KINDS, Resource, ResourceKind

LAYERS: dict[str, tuple[ResourceKind, ...]] = {
    "runtime (acl.rt)": (
        ResourceKind.DEVICE,
        ResourceKind.CONTEXT,
        ResourceKind.STREAM,
        ResourceKind.EVENT,
        ResourceKind.DEVICE_MEMORY,
        ResourceKind.HOST_MEMORY,
        ResourceKind.VIRTUAL_RANGE,
        ResourceKind.PHYSICAL_MEMORY,
        ResourceKind.MODEL_RI,
    ),
    "acl objects (acl)": (ResourceKind.DATA_BUFFER, ResourceKind.TENSOR_DESC),
    "aclnn objects": (
        ResourceKind.TENSOR,
        ResourceKind.SCALAR,
        ResourceKind.INT_ARRAY,
        ResourceKind.FLOAT_ARRAY,
        ResourceKind.BOOL_ARRAY,
        ResourceKind.TENSOR_LIST,
        ResourceKind.SCALAR_LIST,
    ),
    "op engine": (ResourceKind.EXECUTOR, ResourceKind.AICPU_TASK_SPACE, ResourceKind.AICPU_TASK),
}
# how the caches line of a report names each of tracking.CACHE_KINDS, in this order
CACHE_NAMES: dict[ResourceKind, str] = {
    ResourceKind.TILING_PARSE: "tiling-parse context(s)",
    ResourceKind.AICPU_TASK_SPACE: "AI CPU task space(s)",
    ResourceKind.AICPU_TASK: "AI CPU task(s)",
}
LEAK_EXIT_CODE = 23

log = lazy_logger(__name__, logger_name="emulator.leaks")


@dataclass(frozen=True)
class Suppressions:
    patterns: tuple[str, ...] = ()
    kinds: frozenset[str] = frozenset()

    @classmethod
    def from_file(cls, path: Path | None) -> Suppressions:
        if path is None or not path.is_file():
            return cls()
        patterns, kinds = [], set()
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            prefix, _, value = line.partition(":")
            if prefix == "kind":
                kinds.add(value.strip())
            elif prefix == "leak":
                patterns.append(value.strip())
        return cls(tuple(patterns), frozenset(kinds))

    def matches(self, res: Resource) -> bool:
        if res.kind in self.kinds:
            return True
        frames = [str(f) for f in res.site.stack]
        return any(fnmatch.fnmatch(frame, f"*{pattern}*") for pattern in self.patterns for frame in frames)


@dataclass
class LeakReport:
    direct: list[Resource] = field(default_factory=list)
    indirect: list[Resource] = field(default_factory=list)
    suppressed: list[Resource] = field(default_factory=list)
    caches: list[Resource] = field(default_factory=list)
    created: int = 0
    # the sanitizer reports the process made (filled for the report at program end)
    reports: list[Diagnostic] = field(default_factory=list)
    tracking: bool = True  # False under OPBASE_EMU_TRACKING=0: nothing was registered, so nothing can be said

    @property
    def leaked(self) -> list[Resource]:
        return self.direct + self.indirect

    def __bool__(self) -> bool:
        return bool(self.leaked)

    @property
    def failed(self) -> bool:
        """Something leaked or a sanitizer report was made: what fails a run."""
        return bool(self.leaked or self.reports)

    @property
    def device_bytes(self) -> int:
        """Device memory leaked: aclrtMalloc allocations and aclrtMallocPhysical handles (as charged)."""
        kinds = (ResourceKind.DEVICE_MEMORY, ResourceKind.PHYSICAL_MEMORY)
        return sum(r.size or 0 for r in self.leaked if r.kind in kinds)

    def summary(self) -> str:
        if not self.tracking:
            text = "SUMMARY: opbase-emu: tracking is off (OPBASE_EMU_TRACKING=0): nothing was recorded, leaks unknown"
        elif not self.leaked:
            noun = "no leaks" if not self.reports else "0 leaks"
            text = f"SUMMARY: opbase-emu: {noun} ({self.created} resources created, all released)"
        else:
            text = (
                f"SUMMARY: opbase-emu: {len(self.leaked)} resource(s) leaked "
                f"({len(self.direct)} direct, {len(self.indirect)} indirect); "
                f"{self.device_bytes} byte(s) of device memory"
            )
        if self.suppressed:
            text += f"; {len(self.suppressed)} suppressed"
        if self.reports:
            text += f"; {len(self.reports)} sanitizer report(s)"
        return text

    def render(self) -> str:
        lines: list[str] = []
        if self.reports:
            lines.append(f"==opbase-emu== ERROR: {len(self.reports)} sanitizer report(s), undefined on a card:")
            lines.extend(f"  {report}" for report in self.reports)
        if self.leaked:
            lines.append("==opbase-emu== ERROR: LeakSanitizer-style report: resources still alive")
        for layer, kinds in LAYERS.items():
            group = [r for r in self.leaked if r.kind in kinds]
            if not group:
                continue
            lines.append(f"-- {layer}: {len(group)}")
            for res in sorted(group, key=lambda r: kinds.index(r.kind)):
                lines.extend(_describe(res, indirect=res in self.indirect))
        others = [r for r in self.leaked if not any(r.kind in k for k in LAYERS.values())]
        for res in others:
            lines.extend(_describe(res, indirect=res in self.indirect))
        if self.caches:
            counts = [(sum(1 for r in self.caches if r.kind is kind), name) for kind, name in CACHE_NAMES.items()]
            lines.append("-- caches (not leaks): " + ", ".join(f"{n} {name}" for n, name in counts if n))
        lines.append(self.summary())
        return "\n".join(lines)


def _describe(res: Resource, *, indirect: bool) -> list[str]:
    what = res.kind.replace("_", " ")
    size = f" {res.size} byte(s)" if res.size is not None else ""
    tag = f" [{res.tag}]" if res.tag else ""
    how = "Indirect leak" if indirect else "Direct leak"
    owner = f" (member of {res.owner[0].replace('_', ' ')} {res.owner[1]:#x})" if res.owner else ""
    shown = contents(res.ref)
    held = f" ({shown})" if shown else ""
    out = [f"{how} of {what}{size} at {res.key:#x}{held}{tag}{owner}, created at:"]
    out.extend(f"    #{i} {frame}" for i, frame in enumerate(res.site.stack))
    return out


def leak_report(
    proc: EmulatedProcess | None = None,
    *,
    since: Iterable[tuple[ResourceKind, int]] = (),
    suppressions: Suppressions | None = None,
    at_exit: bool = False,
) -> LeakReport:
    """What is alive now (ignoring what was alive in ``since``), sorted into direct, indirect, suppressed.

    ``at_exit``: the report at program end, when caches still alive mean aclnnFinalize never ran,
    so they are leaks too (before it they are counted in ``caches``), and every sanitizer report
    the process made is part of it.
    """
    proc = proc or process.current()
    baseline = set(since)
    rules = suppressions if suppressions is not None else Suppressions.from_file(proc.settings.suppressions)
    report = LeakReport(created=sum(proc.registry.created.values()), tracking=proc.registry.enabled)
    if at_exit:
        report.reports = list(proc.diagnostics)
    live = [r for r in proc.registry.live() if (r.kind, r.key) not in baseline]
    live_keys = {(r.kind, r.key) for r in live}
    suppressed = {(r.kind, r.key) for r in live if rules.matches(r)}
    for res in live:
        if res.kind in CACHE_KINDS and not at_exit:
            report.caches.append(res)
        elif (res.kind, res.key) in suppressed or (res.owner is not None and res.owner in suppressed):
            report.suppressed.append(res)  # a suppressed list's members go with it
        elif res.owner is not None and res.owner in live_keys:
            report.indirect.append(res)
        else:
            report.direct.append(res)
    return report


def snapshot(proc: EmulatedProcess | None = None) -> set[tuple[ResourceKind, int]]:
    proc = proc or process.current()
    return {(r.kind, r.key) for r in proc.registry.live()}


# -- when reports run ----------------------------------------------------------------------------
STAGE_KINDS = {
    # what the real stack would leak once this call has run (objects it never frees for you)
    "aclnnFinalize": (*LAYERS["aclnn objects"], ResourceKind.EXECUTOR),
    "aclFinalize": (*LAYERS["runtime (acl.rt)"], *LAYERS["acl objects (acl)"]),
}


def warn_at(stage: str, proc: EmulatedProcess | None = None) -> int:
    """Log a warning naming what is still alive at ``stage`` and would leak on a card; returns the count."""
    proc = proc or process.current()
    kinds = STAGE_KINDS[stage]
    alive = [r for r in proc.registry.live() if r.kind in kinds]
    if alive:
        first = alive[0]
        log.warning(
            "leaks.alive_at_finalize",
            stage=stage,
            count=len(alive),
            kinds=sorted({r.kind for r in alive}),
            first=f"{first.kind} created at {first.site}",
        )
    return len(alive)


def exit_code(program: int, report: LeakReport) -> int:
    """The one exit-code rule of every leak check: ``opbase-emu leaks``, OPBASE_EMU_LEAK_CHECK=1, a C program's exit.

    The program's own failure says more than ours, so its non-zero code wins; otherwise a leak or
    a sanitizer report ends the run with 23 (a code of its own, as LeakSanitizer's exitcode, so
    CI tells it apart); otherwise 0.
    """
    if program != 0:
        return program
    return LEAK_EXIT_CODE if report.failed else 0


def exit_status_code(status: object) -> int:
    """The exit code Python gives a ``sys.exit(status)`` (None is 0, an int itself, anything else 1)."""
    if status is None:
        return 0
    return status if isinstance(status, int) else 1


def program_exit_code(proc: EmulatedProcess) -> int:
    """What the ending program exits with on its own: the C exit status, sys.exit's, 1 after an uncaught exception."""
    import sys

    if proc.exit_status is not None:
        return proc.exit_status
    return 1 if getattr(sys, "last_value", None) is not None else 0


def install_exit_check(proc: EmulatedProcess) -> None:
    """Arrange the OPBASE_EMU_LEAK_CHECK=1 report at exit, and note the code the program exits with.

    Python does not tell an atexit function the code the program is exiting with, so ``sys.exit``
    is wrapped to note it (a C program's exit status comes from the SDK's exit hook; an uncaught
    exception leaves ``sys.last_value``).
    """
    import atexit
    import sys

    original = sys.exit

    def noting_exit(status: str | int | None = None, /) -> NoReturn:
        proc.exit_status = exit_status_code(status)
        original(status)

    sys.exit = noting_exit
    atexit.register(exit_check, proc)


def exit_check(proc: EmulatedProcess) -> None:
    """The OPBASE_EMU_LEAK_CHECK=1 hook: print the report at exit; end the process by ``exit_code``'s rule.

    The process is ended with ``os._exit`` only when the rule changes its code (a clean exit of a
    program that leaked or was reported becomes 23); otherwise it exits as it would have.
    """
    import os
    import sys

    report = leak_report(proc, at_exit=True)
    print(report.render(), file=sys.stderr)
    program = program_exit_code(proc)
    code = exit_code(program, report)
    if code != program:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
