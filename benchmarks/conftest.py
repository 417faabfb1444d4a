"""Benchmark plumbing: every group has a baseline (plain numpy, or a test named *baseline*), and the
summary prints ratios to it.

Timings are never asserted; the ratio table at the end of ``pytest benchmarks`` is what the
closing notes of issues quote. benchmarks/test_bench_sdk.py times its C side inside the C program
and records C against Python in ``extra_info``; a second section prints those ratios.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from emulator import plog, process
from emulator.config import Settings


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Benchmarks time one process: the test suite's default workers (``-n auto``) are turned off here.

    pytest-benchmark disables itself under xdist (parallel workers would time each other's load),
    so ``pytest benchmarks`` runs in one process whatever the project's ``addopts`` say. This hook
    runs before xdist's, which reads the option to start its workers.
    """
    if getattr(config.option, "numprocesses", None) is not None:
        config.option.numprocesses = 0
        config.option.dist = "no"


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
    sdk = [(bench.group, bench.extra_info) for bench in session.benchmarks if "c_over_python" in bench.extra_info]
    if sdk:  # benchmarks/test_bench_sdk.py: the C program's own timing against the Python side's
        terminalreporter.section("C SDK: the C program against the same work from Python (median)")
        for group, info in sdk:
            c, python = _time(info["c_us"]), _time(info["python_us"])
            ratio, goal = info["c_over_python"], info["goal"]
            terminalreporter.write_line(f"{group:<40} C {c}  Python {python}  {ratio:6.2f}x  goal <= {goal}x")


def _time(us: float) -> str:
    return f"{us / 1000:10.2f} ms" if us >= 10_000 else f"{us:10.2f} us"
