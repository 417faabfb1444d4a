"""C SDK benchmarks: the same work from a C program through the SDK's libraries and from Python.

The SDK is built once per session into a temp folder and benchmarks/c/bench_sdk.c is compiled
against it with the official examples' line (``cc bench_sdk.c -I include -I include/aclnn -L lib64
-lopapi -lascendcl -lnnopbase``). The C program times its own loops with clock_gettime (the process's CPU time)
and prints ns/call per round; the Python side of each figure is timed by pytest-benchmark in the same test,
with time.process_time for the per-call figures (the machine's other jobs do not count on either side).
The C program runs before and after the Python timing (start-up: the runs alternate), so the
machine's load moves both sides alike. Each test records both medians, their ratio and the goal
in ``extra_info``; the summary prints them. Without a C compiler (or a Python that can be
embedded) the tests skip, saying why.

- a forwarded trivial call: aclrtGetDevice, C against ``acl.rt.get_device()`` (goal ≤ 2x);
- the cached two-phase Add on 16 fp32 + synchronize, C against the face calls of
  test_bench_engine.py (goal ≤ 1.1x);
- start-up: a C program that only calls aclInit/aclFinalize against ``python -c "from emulator
  import acl, aclnn"``, whole-process wall time, median of several runs (goal ≤ 1.2x).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_bench_engine import AddCase, _case, _two_phase

from emulator import acl
from emulator.sdk.build import Sdk, SdkBuildFailed, SdkError, build

SOURCE = Path(__file__).resolve().parent / "c" / "bench_sdk.c"
ROUNDS = 7  # C rounds (and start-up runs); the median is recorded


@dataclass(frozen=True)
class Program:
    path: Path
    env: dict[str, str]  # the SDK's environment (set_env.sh's variables)
    plain: dict[str, str]  # the same without them, for the Python processes


@pytest.fixture(scope="session")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    if sys.platform != "linux":
        pytest.skip("the SDK is Linux only")
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) on this machine: the SDK's libraries and the C benchmark are built with it")
    try:
        sdk: Sdk = build(tmp_path_factory.mktemp("sdk"))
    except SdkBuildFailed:
        raise  # the emulator's own sources do not compile: a failure, never a skip
    except SdkError as exc:
        pytest.skip(str(exc))
    out = tmp_path_factory.mktemp("bench_sdk") / "bench_sdk"
    line = ["cc", str(SOURCE), f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}", f"-L{sdk.lib64}",
            "-lopapi", "-lascendcl", "-lnnopbase", "-o", str(out)]  # fmt: skip
    done = subprocess.run(line, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # No inherited emulator switches; the plog folder is the session's, as for the Python side.
    plain = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    plain["ASCEND_PROCESS_LOG_PATH"] = os.environ["ASCEND_PROCESS_LOG_PATH"]
    env = sdk.environment(plain)  # set_env.sh's variables as a user's shell has them, PYTHONHOME included:
    # the embedded interpreter reads no site directory but OPBASE_EMU_PYTHONPATH's (this venv's)
    return Program(out, env, plain)


def _c_rounds(program: Program, mode: str, calls: int) -> list[float]:
    """One run of the C program: its own ns/call for ``mode`` in each of ROUNDS rounds."""
    done = subprocess.run([str(program.path), mode, str(calls), str(ROUNDS)], env=program.env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rounds = [float(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("ns/call ")]
    assert len(rounds) == ROUNDS, done.stdout
    return rounds


def _around(benchmark, program: Program, mode: str, calls: int, *args: object) -> float:  # type: ignore[no-untyped-def]
    """Python timed by pytest-benchmark between two runs of the C program (the machine's load moves
    both alike); the C figure in seconds per call, the median of both runs' rounds."""
    before = _c_rounds(program, mode, calls)
    benchmark(*args)
    return statistics.median(before + _c_rounds(program, mode, calls)) * 1e-9


def _record(benchmark, c_seconds: float, goal: float) -> None:  # type: ignore[no-untyped-def]
    """C's median next to Python's (pytest-benchmark's median), their ratio and the goal."""
    benchmark.extra_info.update(c_us=c_seconds * 1e6, goal=goal)
    if benchmark.stats is None:  # --benchmark-disable: no Python timing to compare with
        return
    python = benchmark.stats.stats.median
    ratio = c_seconds / python
    benchmark.extra_info.update(python_us=python * 1e6, c_over_python=ratio)
    print(f"\n{benchmark.group}: C {c_seconds * 1e6:.2f} us, Python {python * 1e6:.2f} us, {ratio:.2f}x (goal {goal}x)")


@pytest.mark.benchmark(group="C SDK: aclrtGetDevice", timer=time.process_time)
def test_get_device_c_against_python(benchmark, program: Program, emu) -> None:  # type: ignore[no-untyped-def]
    """A forwarded trivial call: 20000 aclrtGetDevice per C round, against acl.rt.get_device()."""
    assert acl.rt.set_device(0) == 0
    c = _around(benchmark, program, "get_device", 20000, acl.rt.get_device)
    assert acl.rt.get_device() == (0, 0)
    _record(benchmark, c, goal=2.0)


@pytest.fixture
def small() -> Iterator[AddCase]:
    yield from _case(16)


@pytest.mark.benchmark(group="C SDK: Add 16 fp32 (cached two-phase)", timer=time.process_time)
def test_add_small_cached_c_against_python(benchmark, program: Program, small: AddCase) -> None:  # type: ignore[no-untyped-def]
    """GetWorkspaceSize + aclnnAdd + synchronize on 16 fp32, op cache warm: 500 per C round."""
    _two_phase(small)
    _record(benchmark, _around(benchmark, program, "add", 500, _two_phase, small), goal=1.1)


def _wall(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=120)
    return time.perf_counter() - start


@pytest.mark.benchmark(group="C SDK: start-up (whole process)")
def test_startup_c_against_python(benchmark, program: Program) -> None:  # type: ignore[no-untyped-def]
    """aclInit + aclFinalize in a C program against importing the faces in a Python process."""
    python = [sys.executable, "-c", "from emulator import acl, aclnn"]
    c: list[float] = []

    def c_run() -> None:  # before each Python round (untimed by pytest-benchmark): the runs alternate
        c.append(_wall([str(program.path), "init"], program.env))

    benchmark.pedantic(_wall, args=(python, program.plain), setup=c_run, rounds=ROUNDS, warmup_rounds=1)
    _record(benchmark, statistics.median(c[1:] or c), goal=1.2)  # c[0] ran before the warm-up round
