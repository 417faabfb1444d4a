"""The pytest plugin (a pytest11 entry point: installing the package turns it on).

- ``npu_process``: a fixture giving the test a brand-new emulated process.
- ``@pytest.mark.no_leaks`` or ``--opbase-leaks`` (every test): the test fails when resources it
  created are still alive when it returns; the failure message is the leak report with the lines
  that created them. Caches that are not leaks (``tracking.CACHE_KINDS``: tiling-parse contexts,
  AI CPU task spaces and their tasks, which aclnnFinalize releases once per process) are not counted;
  the leak report itself puts them apart.
- ``leak_check``: a fixture whose ``checkpoint()`` makes everything alive at that moment part of
  the baseline, for tests that warm up first and then measure growth over repeated calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest

from emulator import process
from emulator.leaks import leak_report, snapshot
from emulator.tracking import ResourceKind

BASELINE = pytest.StashKey[Iterable[tuple[ResourceKind, int]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--opbase-leaks", action="store_true", help="fail every test that leaves emulator resources alive")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "no_leaks: fail the test if it leaves emulator resources (tensors, memory …) alive"
    )


@pytest.fixture
def npu_process() -> Iterator[process.EmulatedProcess]:
    """A brand-new emulated process for this test (devices, handles, caches all fresh)."""
    with process.fresh() as proc:
        yield proc


class LeakCheck:
    def __init__(self, item: pytest.Item) -> None:
        self._item = item

    def checkpoint(self) -> None:
        """Everything alive now is the baseline: only what is created after this point can leak."""
        self._item.stash[BASELINE] = snapshot()


@pytest.fixture
def leak_check(request: pytest.FixtureRequest) -> LeakCheck:
    return LeakCheck(request.node)


def _enabled(item: pytest.Item) -> bool:
    return item.config.getoption("--opbase-leaks") or item.get_closest_marker("no_leaks") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if not _enabled(item):
        return (yield)
    item.stash[BASELINE] = snapshot()
    result = yield
    report = leak_report(since=item.stash[BASELINE])  # caches are counted apart, never as leaks
    if report:
        pytest.fail(f"the test left emulator resources alive:\n{report.render()}", pytrace=False)
    return result
