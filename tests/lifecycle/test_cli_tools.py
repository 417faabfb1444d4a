"""``opbase-emu leaks`` / ``trace`` when they are needed most, and the one exit-code rule of every leak check.

The rule (``emulator.leaks.exit_code``): the program's own non-zero exit code wins; otherwise 23 when
anything leaked or a sanitizer report was made; otherwise 0. It holds for ``opbase-emu leaks`` and for
``OPBASE_EMU_LEAK_CHECK=1`` at the exit of a Python program (the C SDK's exit is in tests/cabi).
Every command runs once as a subprocess; a module-scoped fixture starts them together.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import REPO, Runs, clean_environment, run_together

from emulator import cli
from emulator.diagnostics import Diagnostic
from emulator.leaks import LEAK_EXIT_CODE, LeakReport, exit_code, exit_status_code
from emulator.tracking import Resource, ResourceKind, Site

PROLOGUE = """\
import sys
from emulator import acl, aclnn

assert acl.init() == 0 and acl.rt.set_device(0) == 0
"""
EPILOGUE = """\
assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
"""
SCRIPTS = {
    # raises after a malloc: the leak report and the trace are still written
    "crash.py": PROLOGUE + "ptr, ret = acl.rt.malloc(64, 0)\nraise ValueError('the script failed here')\n",
    "exit3.py": PROLOGUE + EPILOGUE + "sys.exit(3)\n",
    "leak_exit3.py": PROLOGUE + "ptr, ret = acl.rt.malloc(64, 0)\nsys.exit(3)\n",
    "leak.py": PROLOGUE + "ptr, ret = acl.rt.malloc(64, 0)\n",
    "clean.py": PROLOGUE + "ptr, ret = acl.rt.malloc(64, 0)\nassert acl.rt.free(ptr) == 0\n" + EPILOGUE,
    "double_destroy.py": PROLOGUE
    + "t = aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, 0)\n"
    + "assert aclnn.aclDestroyTensor(t) == 0\nassert aclnn.aclDestroyTensor(t) == 0  # the card returns 0 too\n"
    + EPILOGUE,
    "message_exit.py": "import sys\nsys.exit('stopped: no input')\n",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """Every command these tests look at, started together and waited for once."""
    tmp = tmp_path_factory.mktemp("cli_tools")
    for name, text in SCRIPTS.items():
        (tmp / name).write_text(text)
    cli = [sys.executable, "-m", "emulator.cli"]
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "leaks-crash": ([*cli, "leaks", "crash.py"], {}),
        "trace-crash": ([*cli, "trace", "crash.py", "-o", "crash.json", "--svg", "crash.svg"], {}),
        "leaks-exit3": ([*cli, "leaks", "exit3.py"], {}),
        "leaks-leak-exit3": ([*cli, "leaks", "leak_exit3.py"], {}),
        "leaks-double-destroy": ([*cli, "leaks", "double_destroy.py"], {}),
        "leaks-message-exit": ([*cli, "leaks", "message_exit.py"], {}),
        "leaks-missing": ([*cli, "leaks", "nonexist.py"], {}),
        "trace-missing": ([*cli, "trace", "nonexist.py"], {}),
        "leaks-untracked": ([*cli, "leaks", "leak.py"], {"OPBASE_EMU_TRACKING": "0"}),
        "leaks-with-exit-check": ([*cli, "leaks", "leak.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "trace-exit3": ([*cli, "trace", "exit3.py", "-o", "exit3.json"], {}),
        "version": ([*cli, "--version"], {}),
        # OPBASE_EMU_LEAK_CHECK=1 at the exit of a plain Python program: the same rule
        "check-leak": ([sys.executable, "leak.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "check-clean": ([sys.executable, "clean.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "check-leak-exit3": ([sys.executable, "leak_exit3.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "check-crash": ([sys.executable, "crash.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "check-double-destroy": ([sys.executable, "double_destroy.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "check-exit3": ([sys.executable, "exit3.py"], {"OPBASE_EMU_LEAK_CHECK": "1"}),
    }
    results = run_together(commands, tmp, clean_environment(tmp))
    yield Runs(tmp, results)


# -- the rule itself -------------------------------------------------------------------------------------
def _leak() -> Resource:
    return Resource(ResourceKind.DEVICE_MEMORY, 0x1000, Site(()), 0, size=64)


@pytest.mark.parametrize(
    ("program", "leaked", "reported", "expected"),
    [
        (0, False, False, 0),
        (0, True, False, LEAK_EXIT_CODE),
        (0, False, True, LEAK_EXIT_CODE),
        (3, False, False, 3),
        (3, True, True, 3),  # the program's own failure wins
        (1, True, False, 1),
    ],
)
def test_exit_code_rule(program: int, leaked: bool, reported: bool, expected: int) -> None:
    """The program's non-zero code wins; otherwise 23 for a leak or a sanitizer report; otherwise 0."""
    report = LeakReport(
        direct=[_leak()] if leaked else [],
        reports=[Diagnostic("aclDestroyTensor", "double destroy", Site(()))] if reported else [],
    )
    assert exit_code(program, report) == expected


@pytest.mark.parametrize(("status", "code"), [(None, 0), (0, 0), (3, 3), ("a message", 1)])
def test_exit_status_code_is_pythons(status: object, code: int) -> None:
    """sys.exit(None) is 0, sys.exit(n) is n, sys.exit('text') is 1, as the interpreter exits."""
    assert exit_status_code(status) == code


# -- opbase-emu leaks / trace on a script that raises ------------------------------------------------------
def test_leaks_on_a_script_that_raises_still_reports(runs: Runs) -> None:
    """The malloc before the raise is reported; the script's traceback is shown once, without the tool's frames."""
    run = runs["leaks-crash"]
    assert run.returncode == 1, run.stderr
    assert "Direct leak of device memory 64 byte(s)" in run.stdout
    assert "    #0 crash.py:5 in <module>" in run.stdout
    assert run.stderr.count("Traceback (most recent call last):") == 1
    assert run.stderr.count("ValueError: the script failed here") == 1
    assert 'File "crash.py", line 6, in <module>' in run.stderr
    assert "cli.py" not in run.stderr and "runpy" not in run.stderr
    assert "(script exit code 1, " in run.stderr


def test_trace_on_a_script_that_raises_still_writes_the_trace(runs: Runs) -> None:
    """The trace (and the SVG) of a failing script is written, with the calls made before the raise; exit 1."""
    run = runs["trace-crash"]
    assert run.returncode == 1, run.stderr
    assert run.stderr.count("Traceback (most recent call last):") == 1
    assert "cli.py" not in run.stderr and "runpy" not in run.stderr
    events = json.loads((runs.tmp / "crash.json").read_text())["traceEvents"]
    calls = [e["name"] for e in events if e.get("cat") == "api"]
    assert calls == ["aclInit", "aclrtSetDevice", "aclrtMalloc"]
    assert (runs.tmp / "crash.svg").read_text().startswith("<svg")
    assert "opbase-emu trace: 3 calls, 0 device tasks -> crash.json" in run.stderr


def test_trace_keeps_the_scripts_exit_code(runs: Runs) -> None:
    """sys.exit(3) under opbase-emu trace exits 3, after the trace is written."""
    run = runs["trace-exit3"]
    assert run.returncode == 3, run.stderr
    assert (runs.tmp / "exit3.json").is_file()


# -- opbase-emu leaks: exit codes --------------------------------------------------------------------------
def test_leaks_keeps_the_scripts_own_exit_code(runs: Runs) -> None:
    """A clean script that ends with sys.exit(3) exits 3 under opbase-emu leaks (CI sees the failure)."""
    run = runs["leaks-exit3"]
    assert run.returncode == 3, run.stdout + run.stderr
    assert "SUMMARY: opbase-emu: no leaks" in run.stdout


def test_leaks_keeps_a_failing_scripts_code_even_when_it_leaked(runs: Runs) -> None:
    """sys.exit(3) after a leak: the leak is reported, the program's own code 3 wins."""
    run = runs["leaks-leak-exit3"]
    assert run.returncode == 3, run.stdout + run.stderr
    assert "SUMMARY: opbase-emu: 2 resource(s) leaked" in run.stdout


def test_leaks_reports_once_when_the_exit_check_is_also_on(runs: Runs) -> None:
    """OPBASE_EMU_LEAK_CHECK=1 left in the environment does not make the script's process report again at exit."""
    run = runs["leaks-with-exit-check"]
    assert run.returncode == 23, run.stdout + run.stderr
    assert (run.stdout + run.stderr).count("resource(s) leaked") == 1


def test_leaks_fails_on_a_sanitizer_report(runs: Runs) -> None:
    """A double destroy leaks nothing but is counted: exit 23, and the summary says so."""
    run = runs["leaks-double-destroy"]
    assert run.returncode == 23, run.stdout + run.stderr
    assert run.stdout.rstrip().endswith("; 1 sanitizer report(s)")
    assert "double destroy of aclTensor" in run.stdout


def test_leaks_prints_a_sys_exit_message_as_python_does(runs: Runs) -> None:
    """sys.exit('text'): the text on stderr and exit 1."""
    run = runs["leaks-message-exit"]
    assert run.returncode == 1
    assert "stopped: no input\n" in run.stderr


@pytest.mark.parametrize("tool", ["leaks", "trace"])
def test_missing_script_is_one_clear_line(runs: Runs, tool: str) -> None:
    """A script that does not exist: one line naming it, exit 2, no traceback."""
    run = runs[f"{tool}-missing"]
    assert run.returncode == 2
    assert run.stderr == f"opbase-emu {tool}: cannot open 'nonexist.py': no such file or directory\n"


@pytest.mark.parametrize("tool", ["leaks", "trace"])
def test_a_directory_without_main_is_one_clear_line(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory runs through its __main__.py; without one: one line, exit 2, no runpy traceback."""
    assert cli.main([tool, str(tmp_path)]) == 2
    assert (
        capsys.readouterr().err
        == f"opbase-emu {tool}: cannot open {str(tmp_path)!r}: a directory without a __main__.py\n"
    )


def test_leaks_says_plainly_that_tracking_is_off(runs: Runs) -> None:
    """Under OPBASE_EMU_TRACKING=0 nothing is recorded: the report says so instead of "no leaks"."""
    run = runs["leaks-untracked"]
    assert "no leaks" not in run.stdout
    assert "tracking is off (OPBASE_EMU_TRACKING=0)" in run.stdout
    assert run.returncode == 0


def test_version(runs: Runs) -> None:
    """opbase-emu --version names the installed distribution's version."""
    from importlib import metadata

    run = runs["version"]
    assert run.returncode == 0
    assert run.stdout == f"opbase-emu {metadata.version('opbase-emulator')}\n"


def test_a_closed_pipe_ends_the_demo_quietly(tmp_path: Path) -> None:
    """opbase-emu demo | head -1: the first line arrives, no BrokenPipeError traceback, the SIGPIPE-style 141."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPBASE_EMU_", "ASCEND_"))}
    env |= {"PYTHONPATH": str(REPO), "ASCEND_PROCESS_LOG_PATH": str(tmp_path / "log")}
    demo = subprocess.Popen([sys.executable, "-m", "emulator.cli", "demo"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    assert demo.stdout is not None and demo.stderr is not None
    first = demo.stdout.readline()
    demo.stdout.close()  # what head does after its line
    err = demo.stderr.read()
    code = demo.wait(timeout=120)
    assert first.startswith(b"opbase-emu demo: the aclnn lifecycle")
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err
    assert code == 141


# -- OPBASE_EMU_LEAK_CHECK=1 at a Python program's exit ----------------------------------------------------
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("check-clean", 0),
        ("check-leak", 23),
        ("check-leak-exit3", 3),
        ("check-crash", 1),
        ("check-double-destroy", 23),
        ("check-exit3", 3),
    ],
)
def test_exit_check_follows_the_rule(runs: Runs, name: str, code: int) -> None:
    """At exit: a clean run keeps 0, a leak or a report makes it 23, the program's own failure code wins."""
    run = runs[name]
    assert run.returncode == code, run.stderr
    assert "SUMMARY: opbase-emu: " in run.stderr
