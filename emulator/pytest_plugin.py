"""The pytest plugin (a pytest11 entry point: installing the package turns it on).

- ``npu_process``: a fixture giving the test a brand-new emulated process.
- ``opbase_faults``: a fixture arming fault-injection rules (``emulator.faults``) for the test.
- ``@pytest.mark.no_leaks``, ``--opbase-leaks`` (every test) or requesting the ``leak_check``
  fixture: the test fails when resources it created are still alive once its fixtures have been
  torn down, or when the emulator made a sanitizer report (a use after destroy, a double destroy,
  a race …) while it ran. The failure message is the leak report, with the lines that created
  each resource, and the reports, with their sites.
- ``leak_check``: a fixture whose ``checkpoint()`` makes everything alive at that moment part of
  the baseline, for tests that warm up first and then measure growth over repeated calls.

Why the check runs after teardown: the normal pytest pattern creates a test's tensors and buffers
in a fixture and frees them when the fixture is torn down, so a check when the test function
returns would call them leaks. The plugin therefore runs a checked test's three phases itself,
holds back their reports, looks at the emulated processes the test used once its teardown is
over, and turns the call phase into a failure when something leaked or was reported. What a
session-, package-, module- or class-scoped fixture creates while it is set up belongs to that
wider scope and is never charged to the test that happened to set it up.

The test's processes are the ones that were current at some step of it (its start, each
fixture's set-up, the call); a process that the test body opens and closes itself with
``process.fresh()`` is not seen. Caches that are not leaks (``tracking.CACHE_KINDS``: tiling-parse
contexts, AI CPU task spaces and their tasks, which aclnnFinalize releases once per process) are
not counted; the leak report itself puts them apart.
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field

import pytest
from _pytest.runner import runtestprotocol  # the phases run without logging their reports (see above)

from emulator import process
from emulator.diagnostics import Diagnostic
from emulator.faults import Injector
from emulator.leaks import leak_report, snapshot
from emulator.process import EmulatedProcess
from emulator.tracking import ResourceKind

Keys = set[tuple[ResourceKind, int]]


@dataclass
class _Seen:
    """One emulated process a checked test used, and what in it was not the test's doing."""

    proc: EmulatedProcess
    baseline: Keys  # alive before the test (or at its last checkpoint)
    reports_before: int  # len(proc.diagnostics) when the test first saw it


@dataclass
class _Outer:
    """What wider-scoped fixtures made, per process, for the whole session: never charged to a test."""

    resources: weakref.WeakKeyDictionary[EmulatedProcess, Keys] = field(default_factory=weakref.WeakKeyDictionary)
    reports: weakref.WeakKeyDictionary[EmulatedProcess, list[Diagnostic]] = field(
        default_factory=weakref.WeakKeyDictionary
    )


class _Watch:
    """The emulated processes one checked test has used, seen at each step of its protocol."""

    def __init__(self, outer: _Outer) -> None:
        self.outer = outer
        self.seen: dict[int, _Seen] = {}

    def see(self, proc: EmulatedProcess, *, before_test: bool) -> _Seen:
        """Remember ``proc``; what it holds already is the baseline if it existed before the test's own steps.

        A process first met after a function-scoped fixture or in the call was made for the test
        (by ``npu_process`` or a fixture of the user's), so all of it is the test's.
        """
        seen = self.seen.get(id(proc))
        if seen is None:
            keys = snapshot(proc) if before_test else set()
            seen = _Seen(proc, keys, len(proc.diagnostics) if before_test else 0)
            self.seen[id(proc)] = seen
        return seen

    def checkpoint(self) -> None:
        self.see(process.current(), before_test=False)
        for seen in self.seen.values():
            seen.baseline = snapshot(seen.proc)

    def verdict(self) -> tuple[list[str], list[Diagnostic]]:
        """The rendered leak report of each process that leaked, and the sanitizer reports the test caused."""
        leaks: list[str] = []
        reports: list[Diagnostic] = []
        for seen in self.seen.values():
            since = seen.baseline | self.outer.resources.get(seen.proc, set())
            report = leak_report(seen.proc, since=since)  # caches are counted apart, never as leaks
            if report:
                leaks.append(report.render())
            wider = self.outer.reports.get(seen.proc, [])
            reports.extend(d for d in seen.proc.diagnostics[seen.reports_before :] if not any(d is w for w in wider))
        return leaks, reports


UNTRACKED = (
    "opbase-emu: resource tracking is off (OPBASE_EMU_TRACKING=0) in a process this test used, "
    "so its leaks cannot be checked; sanitizer reports still are"
)
OUTER = pytest.StashKey[_Outer]()
WATCH = pytest.StashKey[_Watch]()  # on the config while a checked test runs


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--opbase-leaks",
        action="store_true",
        help="fail every test that leaves emulator resources alive or makes a sanitizer report",
    )


# every marker the plugin registers, with the line ``pytest --markers`` shows for it
MARKERS = {
    "no_leaks": (
        "fail the test if it leaves emulator resources (tensors, memory …) alive after its "
        "fixtures are torn down, or if the emulator makes a sanitizer report while it runs"
    ),
}


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.stash[OUTER] = _Outer()


@pytest.fixture
def npu_process() -> Iterator[process.EmulatedProcess]:
    """A brand-new emulated process for this test: devices, handles, caches and reports all fresh.

    It is the current process from this fixture's set-up to its teardown, so the C-named faces act
    on it; the process that was current before comes back afterwards. Fixtures that create the
    test's tensors should request it, so that they are set up inside it.
    """
    with process.fresh() as proc:
        yield proc


@pytest.fixture
def opbase_faults() -> Iterator[Injector]:
    """Fault injection for this test: ``opbase_faults.inject("aclrtMalloc", nth=2, status=207001)`` fails
    the second aclrtMalloc from then on (see ``emulator.faults``); every rule is disarmed at teardown.
    """
    injector = Injector()
    try:
        yield injector
    finally:
        injector.clear()


class LeakCheck:
    """The handle the ``leak_check`` fixture gives a test: checking is on, and the baseline can move."""

    def __init__(self, item: pytest.Item) -> None:
        self._item = item

    def checkpoint(self) -> None:
        """Everything alive now is the baseline: only what is created after this point can leak.

        Sanitizer reports are not affected: an undefined use during a warm-up is still a bug.

        Raises:
            RuntimeError: the plugin is not running this test's protocol (another plugin took it
                over), so there is no check whose baseline could move.
        """
        watch = self._item.config.stash.get(WATCH, None)
        if watch is None:
            raise RuntimeError(f"opbase-emu: no leak check is running for {self._item.nodeid}")
        watch.checkpoint()


@pytest.fixture
def leak_check(request: pytest.FixtureRequest) -> LeakCheck:
    """Turns the leak and sanitizer check on for this test (as ``no_leaks`` does) and moves its baseline.

    ``leak_check.checkpoint()`` after a warm-up makes what is alive then part of the baseline, so
    a test that caches or pools resources on purpose can still prove that repeated calls do not
    grow. A test that only wants the check needs no checkpoint: requesting the fixture is enough.
    """
    return LeakCheck(request.node)


def _enabled(item: pytest.Item) -> bool:
    return (
        bool(item.config.getoption("--opbase-leaks"))
        or item.get_closest_marker("no_leaks") is not None
        or "leak_check" in getattr(item, "fixturenames", ())
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A checked test's phases run here, so that its call report can fail once teardown is over."""
    if not _enabled(item):
        return None
    ihook = item.ihook
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    watch = _Watch(item.config.stash[OUTER])
    watch.see(process.current(), before_test=True)
    item.config.stash[WATCH] = watch
    try:
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
    finally:
        del item.config.stash[WATCH]
    _judge(item, watch, reports)
    for report in reports:
        ihook.pytest_runtest_logreport(report=report)
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> Generator[None, object, object]:
    """Note the processes each fixture of a checked test leaves current; a wider scope's creations are its own."""
    watch = request.config.stash.get(WATCH, None)
    if watch is None:
        return (yield)
    if fixturedef.scope == "function":
        result = yield
        watch.see(process.current(), before_test=False)
        return result
    first = process.current()
    had, had_reports = snapshot(first), len(first.diagnostics)
    try:
        return (yield)
    finally:
        now = process.current()
        for proc in {id(first): first, id(now): now}.values():
            made = snapshot(proc) - had if proc is first else snapshot(proc)
            watch.outer.resources.setdefault(proc, set()).update(made)
            new_reports = proc.diagnostics[had_reports:] if proc is first else list(proc.diagnostics)
            watch.outer.reports.setdefault(proc, []).extend(new_reports)
            watch.see(proc, before_test=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    watch = item.config.stash.get(WATCH, None)
    if watch is not None:
        watch.see(process.current(), before_test=False)
    return (yield)


def _judge(item: pytest.Item, watch: _Watch, reports: list[pytest.TestReport]) -> None:
    """Fail the passed call report of a test that leaked or caused a sanitizer report.

    A test that failed on its own keeps its own failure (what it leaked is a consequence); its
    sanitizer reports, which may well explain the failure, are added as a section. A teardown
    that failed left the fixtures' resources alive, so leaks are not judged then.
    """
    call = next((r for r in reports if r.when == "call"), None)
    if call is None:
        return
    if any(not seen.proc.registry.enabled for seen in watch.seen.values()):
        item.warn(pytest.PytestWarning(UNTRACKED))
    teardown_passed = all(r.passed for r in reports if r.when == "teardown")
    leaks, diagnostics = watch.verdict()
    if not teardown_passed:
        leaks = []
    parts: list[str] = []
    if leaks:
        parts.append("the test left emulator resources alive:\n" + "\n".join(leaks))
    if diagnostics:
        parts.append(_render_reports(diagnostics))
    if not parts:
        return
    if not call.passed:
        if diagnostics:
            call.sections.append(("opbase-emu sanitizer reports", _render_reports(diagnostics)))
        return
    info = pytest.CallInfo.from_call(lambda: pytest.fail("\n".join(parts), pytrace=False), when="call")
    assert info.excinfo is not None  # pytest.fail always raises
    call.outcome = "failed"
    call.longrepr = item.repr_failure(info.excinfo)


def _render_reports(diagnostics: list[Diagnostic]) -> str:
    lines = [f"the emulator made {len(diagnostics)} sanitizer report(s) while the test ran:"]
    lines.extend(f"  {diagnostic}" for diagnostic in diagnostics)
    return "\n".join(lines)
