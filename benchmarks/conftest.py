"""Benchmark plumbing: every group has a baseline (plain numpy, or a test named *baseline*), and the
summary prints ratios to it.

Timings are never asserted; the ratio table at the end of ``pytest benchmarks`` is what the
closing notes of issues quote.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from emulator import plog, process
from emulator.config import Settings


@pytest.fixture(autouse=True, scope="session")
def _quiet_logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every emulated process logs to a temp dir: each reads the plog path from the environment when it starts."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path_factory.mktemp("plog")))
        replaced = plog.configure_logging(Settings.from_env(), force=True)
        yield
        plog.restore(replaced)


@pytest.fixture
def emu() -> Iterator[process.EmulatedProcess]:
    with process.fresh() as proc:
        yield proc


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    groups: dict[str, list[tuple[str, float]]] = {}
    for bench in session.benchmarks:
        if bench.stats is None:
            continue
        groups.setdefault(bench.group or bench.name, []).append((bench.name, bench.stats.median))
    terminalreporter.section("ratios to the numpy baseline of each group (median)")
    for group, rows in sorted(groups.items()):
        baseline = next((t for name, t in rows if "numpy" in name or "baseline" in name), None)
        for name, median in rows:
            ratio = f"{median / baseline:6.2f}x" if baseline else "   n/a"
            terminalreporter.write_line(f"{group:<28} {name:<48} {median * 1e6:12.2f} us  {ratio}")
