"""opbase-emu leaks and trace on native programs built against the SDK (the program's process does the work)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HERE, compile_program, environment

from emulator.sdk.build import Sdk, fingerprint

LEAKY = r"""
#include <string.h>
#include "acl/acl.h"
int main(int argc, char **argv) {
    int fail = argc > 1 && strcmp(argv[1], "fail") == 0;
    void *p = 0;
    aclInit(0);
    aclrtSetDevice(0);
    aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST); /* LEAK */
    if (argc > 1 && !fail) aclrtFree(p);              /* any argument but "fail": no leak */
    aclrtResetDevice(0);
    aclFinalize();
    return fail ? 3 : 0;                              /* "fail": the program's own failure, and the leak */
}
"""


@pytest.fixture
def cli_env(sdk: Sdk, tmp_path: Path) -> dict[str, str]:
    """The CLI's environment: its default SDK (XDG_CACHE_HOME/opbase-emu/sdk-<fingerprint>) is the session's tree."""
    cache = tmp_path / "cache"
    (cache / "opbase-emu").mkdir(parents=True)
    (cache / "opbase-emu" / f"sdk-{fingerprint()}").symlink_to(sdk.prefix)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env.update(XDG_CACHE_HOME=str(cache), HOME=str(tmp_path))
    return env


def opbase_emu(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "emulator.cli", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def leaky(sdk: Sdk, tmp_path: Path) -> Path:
    source = tmp_path / "leaky.c"
    source.write_text(LEAKY)
    out = tmp_path / "leaky"
    flags = [f"-I{sdk.include}", f"-L{sdk.lib64}", "-lascendcl"]
    done = subprocess.run(["cc", "-g", str(source), *flags, "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def test_leaks_on_a_native_program_exits_23_naming_the_c_line(leaky: Path, cli_env: dict[str, str]) -> None:
    """opbase-emu leaks ./leaky: the report (the program's stderr) names leaky.c:<line>, exit 23."""
    done = opbase_emu(cli_env, "leaks", str(leaky))
    assert done.returncode == 23, done.stderr
    line = next(i for i, text in enumerate(LEAKY.splitlines(), 1) if "/* LEAK */" in text)
    assert "Direct leak of device memory 4096 byte(s)" in done.stderr
    assert f"leaky.c:{line} in main" in done.stderr
    assert "(program exit code 23" in done.stderr


def test_leaks_on_a_clean_native_program_exits_0(leaky: Path, cli_env: dict[str, str]) -> None:
    """The program's own arguments pass through; a clean run says so and exits 0."""
    done = opbase_emu(cli_env, "leaks", str(leaky), "free")
    assert done.returncode == 0, done.stderr
    assert "SUMMARY: opbase-emu: no leaks" in done.stderr


def test_a_failing_native_programs_own_code_wins_over_the_leak(leaky: Path, cli_env: dict[str, str]) -> None:
    """The one exit-code rule at a C program's exit: it returned 3 and leaked; the leak is reported, the exit is 3."""
    done = opbase_emu(cli_env, "leaks", str(leaky), "fail")
    assert done.returncode == 3, done.stderr
    assert "Direct leak of device memory 4096 byte(s)" in done.stderr
    assert "(program exit code 3" in done.stderr
    done = opbase_emu({**cli_env, "OPBASE_EMU_LEAK_CHECK": "1"}, "run", str(leaky), "fail")
    assert done.returncode == 3, done.stderr


def test_run_passes_arguments_and_the_exit_code(leaky: Path, cli_env: dict[str, str]) -> None:
    """opbase-emu run: the SDK's environment for one run; the program's arguments and exit code pass through."""
    done = opbase_emu({**cli_env, "OPBASE_EMU_LEAK_CHECK": "1"}, "run", str(leaky))
    assert done.returncode == 23, done.stderr  # the leak check asked for by the caller's environment
    done = opbase_emu({**cli_env, "OPBASE_EMU_LEAK_CHECK": "1"}, "run", str(leaky), "free")
    assert done.returncode == 0, done.stderr


def test_trace_on_a_native_program_writes_chrome_json(sdk: Sdk, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """opbase-emu trace ./add -o trace.json: the C program's calls, device tasks, memory counter; the text view."""
    program = compile_program(sdk, HERE / "add_sample.cpp", tmp_path / "add", "opapi_math", "ascendcl", "nnopbase")
    output, text = tmp_path / "trace.json", tmp_path / "trace.txt"
    done = opbase_emu(cli_env, "trace", str(program), "-o", str(output), "--text", str(text))
    assert done.returncode == 0, done.stderr
    assert f"-> {output} (open in Perfetto)" in done.stderr
    events = json.loads(output.read_text())["traceEvents"]
    calls = [e["name"] for e in events if e.get("cat") == "api"]
    for name in ("aclInit", "aclrtSetDevice", "aclrtMalloc", "aclCreateTensor", "aclnnAddGetWorkspaceSize", "aclnnAdd"):
        assert name in calls, name
    assert any(e.get("cat") == "task" for e in events), "no device task on a stream lane"
    assert any(e["ph"] == "C" and e["name"] == "device memory" for e in events)
    sites = [e["args"]["site"] for e in events if e.get("cat") == "resource"]
    assert sites and all(site.startswith(f"{program}(") for site in sites), sites[:3]  # the C callers, by function
    assert any("CreateTensor" in site for site in sites), sites
    assert "aclnnAdd(" in text.read_text()
    stdout_values = [line for line in done.stdout.splitlines() if line.strip()]
    assert len(stdout_values) == 8  # the program's own output is untouched


def test_opbase_emu_trace_switch_traces_a_program_run_directly(sdk: Sdk, tmp_path: Path) -> None:
    """OPBASE_EMU_TRACE=path, without the CLI: the process traces itself from its start and writes at exit."""
    program = compile_program(sdk, HERE / "add_sample.cpp", tmp_path / "add", "opapi_math", "ascendcl", "nnopbase")
    output = tmp_path / "direct.json"
    done = subprocess.run([str(program)], env=environment(sdk, tmp_path, OPBASE_EMU_TRACE=str(output)),
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    names = {e["name"] for e in json.loads(output.read_text())["traceEvents"]}
    assert "aclnnAdd" in names and "aclrtMemcpy" in names


def test_the_guide_cmake_project_builds_and_runs(sdk: Sdk, tmp_path: Path) -> None:
    """docs/c_sdk.md's CMakeLists.txt, as written, builds the Add sample against the SDK's environment."""
    if shutil.which("cmake") is None:
        pytest.skip("no cmake on this machine")
    guide = (HERE.parents[1] / "docs" / "c_sdk.md").read_text()
    (tmp_path / "CMakeLists.txt").write_text(guide.split("```cmake\n", 1)[1].split("```", 1)[0])
    shutil.copyfile(HERE / "add_sample.cpp", tmp_path / "test_aclnn_add.cpp")
    env = environment(sdk, tmp_path)
    for command in (["cmake", "-S", ".", "-B", "build"], ["cmake", "--build", "build"]):
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([str(tmp_path / "build" / "test_aclnn_add")], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "result[0] is: 1.2"
