"""Start-up benchmarks: whole fresh processes, each against ``python -c "import numpy"`` in one group.

A program that uses the emulator pays its start-up once per process, so the figure is the wall time
of a new process (interpreter start included), not an in-process import that the module cache would
make free after the first round. The numpy-only process is the floor every row is read against: the
ratio table of conftest.py divides each median by it.

- the faces: ``import emulator; from emulator import acl, aclnn`` (goal ≤ 3x numpy);
- each ``opbase-emu`` command at its cheapest real invocation — ``--help``, ``config check`` of an
  empty acl.json, ``trace`` / ``leaks`` of an empty script, and ``demo`` (the demo is its own work:
  the canonical lifecycle and one Add, so its row includes that work) (goal ≤ 4x);
- a C program built against the SDK that calls only aclInit / aclFinalize (benchmarks/c/bench_sdk.c
  ``init``; the embedded interpreter's start-up and the bridge's imports) (goal ≤ 4x).

The timer is the CPU time of the finished child processes (``getrusage(RUSAGE_CHILDREN)``, user +
system): a process's start-up is CPU work (unpacking and executing modules), and on a machine shared
with other jobs the wall time mostly measures the wait for a core, which moves the numpy row and the
emulator rows differently. Every row runs ROUNDS processes after one warm-up (the first run of a
command also fills the OS's file cache), so the module stays a few seconds long. The processes get
the environment without any ASCEND_/OPBASE_EMU_ switch, logging to the session's plog folder, and
write bytecode (the warm-up round compiles what has no .pyc yet, as installing the package would).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from test_bench_sdk import Program, program  # noqa: F401 - the SDK build is a session fixture shared with it

GROUP = "start-up (whole process)"
ROUNDS = 5


def children_cpu() -> float:
    """Seconds of CPU (user + system) the waited-for child processes have used so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _plain() -> dict[str, str]:
    """The environment of the Python processes: no emulator switch, the session's plog folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env["ASCEND_PROCESS_LOG_PATH"] = os.environ["ASCEND_PROCESS_LOG_PATH"]
    # Bytecode as an installed package has it (pip compiles on install): the warm-up round writes the
    # .pyc of any module that has none, so no row pays for compiling a source the others read as bytecode.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _cli() -> list[str]:
    """The installed ``opbase-emu`` console script (what a user runs), else the module."""
    script = Path(sys.executable).parent / "opbase-emu"
    return [str(script)] if script.exists() else [sys.executable, "-m", "emulator.cli"]


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr}"


def _time_process(benchmark, command: list[str], env: dict[str, str] | None = None) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(_run, args=(command, env or _plain()), rounds=ROUNDS, warmup_rounds=1)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty script for trace / leaks, an empty acl.json for config check."""
    folder = tmp_path_factory.mktemp("startup")
    (folder / "empty.py").write_text("", encoding="utf-8")
    (folder / "acl.json").write_text("{}\n", encoding="utf-8")
    return folder


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The floor: a Python process that imports numpy and nothing else."""
    _time_process(benchmark, [sys.executable, "-c", "import numpy"])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_import_faces(benchmark) -> None:  # type: ignore[no-untyped-def]
    """``import emulator; from emulator import acl, aclnn``: what every program of the emulator runs first."""
    _time_process(benchmark, [sys.executable, "-c", "import emulator; from emulator import acl, aclnn"])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_cli_help(benchmark) -> None:  # type: ignore[no-untyped-def]
    """``opbase-emu --help``: the tool itself, no command chosen."""
    _time_process(benchmark, [*_cli(), "--help"])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_cli_config_check(benchmark, files: Path) -> None:  # type: ignore[no-untyped-def]
    """``opbase-emu config check`` of an empty acl.json: the command's imports and one tiny validation."""
    _time_process(benchmark, [*_cli(), "config", "check", str(files / "acl.json")])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_cli_trace_empty(benchmark, files: Path) -> None:  # type: ignore[no-untyped-def]
    """``opbase-emu trace`` of an empty script: the command's imports, the traced process, an empty trace."""
    _time_process(benchmark, [*_cli(), "trace", str(files / "empty.py"), "-o", str(files / "trace.json")])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_cli_leaks_empty(benchmark, files: Path) -> None:  # type: ignore[no-untyped-def]
    """``opbase-emu leaks`` of an empty script: the command's imports and an empty leak report."""
    _time_process(benchmark, [*_cli(), "leaks", str(files / "empty.py")])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_cli_demo(benchmark) -> None:  # type: ignore[no-untyped-def]
    """``opbase-emu demo``: start-up plus the demo's own lifecycle (it has no cheaper invocation)."""
    _time_process(benchmark, [*_cli(), "demo"])


@pytest.mark.benchmark(group=GROUP, timer=children_cpu)
def test_startup_c_init_finalize(benchmark, program: Program) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """A C program through the SDK calling only aclInit and aclFinalize (the bridge's start-up)."""
    _time_process(benchmark, [str(program.path), "init"], program.env)
