"""``opbase-emu``: the trace views (Chrome JSON, text, SVG), leaks on the common-mistake examples, demo, config check.

Every command runs once, as a subprocess ``python -m emulator.cli ...`` from the repository root; the runs
are started together by a module-scoped fixture and shared by the tests.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from cli_runs import REPO, Runs, clean_environment, run_together

SVG_NS = "{http://www.w3.org/2000/svg}"

# The canonical aclnn lifecycle (an equivalent of examples/lifecycle_add.py): it prints the stream handle so the
# tests can find its lane, and with --slow it idles long enough for the --progress counter to tick.
LIFECYCLE = """\
import sys
import time

import numpy as np

from emulator import acl, aclnn


def device_tensor(host, dtype):
    ptr, ret = acl.rt.malloc(host.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1) == 0
    shape = list(host.shape)
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    return tensor, ptr


assert acl.init() == 0
assert acl.rt.set_device(0) == 0
stream, ret = acl.rt.create_stream()
assert ret == 0 and aclnn.aclnnInit(None) == 0
x_host = np.arange(8, dtype=np.float32).reshape(2, 4)
out_host = np.zeros((2, 4), dtype=np.float32)
x, x_ptr = device_tensor(x_host, aclnn.ACL_FLOAT)
y, y_ptr = device_tensor(np.full((2, 4), 0.5, dtype=np.float32), aclnn.ACL_FLOAT)
out, out_ptr = device_tensor(out_host, aclnn.ACL_FLOAT)
alpha = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)
workspace_size, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
assert ret == 0 and workspace_size == 0
assert aclnn.aclnnAdd(0, 0, executor, stream) == 0
assert acl.rt.synchronize_stream(stream) == 0
assert acl.rt.memcpy(out_host.ctypes.data, out_host.nbytes, out_ptr, out_host.nbytes, 2) == 0
assert np.allclose(out_host, x_host + 1.0)
if sys.argv[1:] == ["--slow"]:
    time.sleep(1.5)
for tensor in (x, y, out):
    assert aclnn.aclDestroyTensor(tensor) == 0
assert aclnn.aclDestroyScalar(alpha) == 0
for ptr in (x_ptr, y_ptr, out_ptr):
    assert acl.rt.free(ptr) == 0
assert acl.rt.destroy_stream(stream) == 0
assert acl.rt.reset_device(0) == 0
assert aclnn.aclnnFinalize() == 0
assert acl.finalize() == 0
print(f"stream={stream}")
"""

EXPECTED_CALLS = [
    "aclInit",
    "aclrtSetDevice",
    "aclrtCreateStream",
    "aclnnInit",
    *["aclrtMalloc", "aclrtMemcpy", "aclCreateTensor"] * 3,
    "aclCreateScalar",
    "aclnnAddGetWorkspaceSize",
    "aclnnAdd",
    "aclrtSynchronizeStream",
    "aclrtMemcpy",
    *["aclDestroyTensor"] * 3,
    "aclDestroyScalar",
    *["aclrtFree"] * 3,
    "aclrtDestroyStream",
    "aclrtResetDevice",
    "aclnnFinalize",
    "aclFinalize",
]

MISTAKES = ("destroy_list_member", "forget_aclnn_finalize", "leak_workspace", "read_before_sync", "reuse_executor")


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """Every CLI command these tests look at, started together and waited for once."""
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "lifecycle.py").write_text(LIFECYCLE)
    (tmp / "broken.json").write_text('{"err_msg_mode": "0",\n')
    commands: dict[str, list[str]] = {
        "trace": [
            "trace",
            str(tmp / "lifecycle.py"),
            "-o",
            str(tmp / "trace.json"),
            "--text",
            str(tmp / "trace.txt"),
            "--svg",
            str(tmp / "trace.svg"),
            "--progress",
            "--slow",
        ],
        "demo": ["demo"],
        "config": ["config", "check", "configs/acl.json"],
        "config-debug": ["config", "check", "configs/acl-debug.json"],
        "config-broken": ["config", "check", str(tmp / "broken.json")],
        **{name: ["leaks", f"examples/mistakes/{name}.py"] for name in MISTAKES},
    }
    cli = [sys.executable, "-m", "emulator.cli"]
    results = run_together({name: ([*cli, *args], {}) for name, args in commands.items()}, REPO, clean_environment(tmp))
    yield Runs(tmp, results)


@pytest.fixture(scope="module")
def stream(cli: Runs) -> int:
    """The stream handle the traced script created (it prints it last)."""
    run = cli["trace"]
    assert run.returncode == 0, run.stderr
    match = re.search(r"^stream=(\d+)$", run.stdout, re.MULTILINE)
    assert match is not None, run.stdout
    return int(match.group(1))


@pytest.fixture(scope="module")
def chrome(cli: Runs, stream: int) -> dict[str, Any]:
    """The Chrome trace the traced run wrote (asking for ``stream`` first checks that the run succeeded)."""
    return json.loads((cli.tmp / "trace.json").read_text())


# -- trace: the Chrome trace --------------------------------------------------------------------------
def test_trace_command_reports_calls_and_tasks(cli: Runs, stream: int) -> None:
    """opbase-emu trace exits with the script's 0 and says how many calls and device tasks it wrote where."""
    run = cli["trace"]
    expected = f"opbase-emu trace: {len(EXPECTED_CALLS)} calls, 1 device tasks -> {cli.tmp / 'trace.json'} (open in"
    assert expected in run.stderr
    assert re.search(r"\.\.\. \d+ calls traced", run.stderr), run.stderr  # --progress ticked while the script slept


def test_chrome_trace_is_trace_event_json(chrome: dict[str, Any]) -> None:
    """The file is JSON with traceEvents; every complete (X) event has name, ph, ts, dur, pid and tid."""
    events = chrome["traceEvents"]
    assert isinstance(events, list) and events
    assert chrome["displayTimeUnit"] == "ms"
    complete = [e for e in events if e["ph"] == "X"]
    assert len(complete) == len(EXPECTED_CALLS) + 1  # every call, and the one kernel
    for event in complete:
        assert {"name", "ph", "ts", "dur", "pid", "tid"} <= set(event), event
        assert isinstance(event["ts"], float | int) and event["dur"] > 0
    assert {e["ph"] for e in events} <= {"X", "M", "C", "i"}


def test_chrome_trace_names_processes_and_threads(chrome: dict[str, Any], stream: int) -> None:
    """Metadata events name the host process and its main thread, the device process and the stream lane (tid 1)."""
    meta = [(e["name"], e["pid"], e["tid"], e["args"].get("name")) for e in chrome["traceEvents"] if e["ph"] == "M"]
    assert ("process_name", 1, 0, "host (API calls)") in meta
    assert ("process_name", 100, 0, "device 0") in meta
    assert ("thread_name", 100, 1, f"stream {stream:#x}") in meta
    assert any(m[:3] == ("thread_name", 1, 1) and str(m[3]).startswith("main thread (tid ") for m in meta), meta


def test_chrome_trace_has_the_two_phase_calls_with_status(chrome: dict[str, Any], stream: int) -> None:
    """aclnnAddGetWorkspaceSize and aclnnAdd are host API events with status 0, in that order."""
    api = [e for e in chrome["traceEvents"] if e["ph"] == "X" and e.get("cat") == "api"]
    assert [e["name"] for e in api] == EXPECTED_CALLS
    (phase1,) = [e for e in api if e["name"] == "aclnnAddGetWorkspaceSize"]
    (phase2,) = [e for e in api if e["name"] == "aclnnAdd"]
    assert (phase1["pid"], phase1["args"]["status"]) == (1, 0)
    assert (phase2["pid"], phase2["args"]["status"]) == (1, 0)
    assert phase1["ts"] + phase1["dur"] <= phase2["ts"]
    assert phase2["args"]["args"] == f"0, 0, <aclOpExecutor>, {stream:#x}"
    assert phase1["tid"] == phase2["tid"]


def test_chrome_trace_puts_device_tasks_on_the_stream_lane(chrome: dict[str, Any], stream: int) -> None:
    """The kernel that aclnnAdd queued is a task event on the device process, in the stream's lane."""
    tasks = [e for e in chrome["traceEvents"] if e.get("cat") == "task"]
    assert len(tasks) == 1
    (task,) = tasks
    assert (task["ph"], task["pid"], task["tid"]) == ("X", 100, 1)  # the lane named f"stream {stream:#x}"
    assert task["name"].startswith("kernel ")
    assert task["args"]["simulated_start_us"] >= 0


def test_chrome_trace_has_a_device_memory_counter(chrome: dict[str, Any]) -> None:
    """A 'device memory' counter (ph C) rises with each malloc and returns to 0 after the frees."""
    counters = [e for e in chrome["traceEvents"] if e["ph"] == "C"]
    assert counters and {e["name"] for e in counters} == {"device memory"}
    assert {e["pid"] for e in counters} == {100}
    used = [e["args"]["used"] for e in counters]
    assert len(used) == 6  # three mallocs, three frees
    assert used[0] < used[1] < used[2]
    assert used[2] > used[3] > used[4] > used[5] == 0


# -- trace: the text timeline and the SVG -----------------------------------------------------------------
def test_text_timeline_lists_calls_in_order_with_resources(cli: Runs, stream: int) -> None:
    """The text timeline lists every call in order, with + / - device_memory lines under malloc and free."""
    lines = (cli.tmp / "trace.txt").read_text().splitlines()
    calls = [m.group(1) for line in lines if (m := re.search(r"\] (\w+)\(", line))]
    assert calls == EXPECTED_CALLS
    phase1 = next(line for line in lines if "aclnnAddGetWorkspaceSize(" in line)
    assert phase1.endswith("aclnnAddGetWorkspaceSize(<aclTensor>, <aclTensor>, <aclScalar>, <aclTensor>) -> 0")
    added = [i for i, line in enumerate(lines) if re.search(r"^\s+[\d.]+ ms\s+\+ device_memory 32 B 0x", line)]
    removed = [i for i, line in enumerate(lines) if re.search(r"^\s+[\d.]+ ms\s+- device_memory 32 B 0x", line)]
    assert len(added) == len(removed) == 3
    assert all("aclrtMalloc(32, 0) -> 0" in lines[i - 1] for i in added)
    assert all("aclrtFree(0x" in lines[i - 1] for i in removed)
    assert any(f"device 0 stream {stream:#x}: ran kernel " in line for line in lines)
    assert any(line.endswith("aclFinalize() -> 0") for line in lines[-2:])


def test_svg_is_well_formed_with_lanes(cli: Runs, chrome: dict[str, Any], stream: int) -> None:
    """The SVG parses as XML and draws one rectangle per call or task, in the main thread's lane and the stream's."""
    root = ET.fromstring((cli.tmp / "trace.svg").read_text())
    assert root.tag == f"{SVG_NS}svg"
    rects = root.findall(f"{SVG_NS}g[@id='spans']/{SVG_NS}rect")
    assert len(rects) == sum(1 for e in chrome["traceEvents"] if e["ph"] == "X")
    titles = [r.findtext(f"{SVG_NS}title") or "" for r in rects]
    assert any(t.startswith("aclnnAdd (") for t in titles) and any(t.startswith("kernel ") for t in titles)
    labels = [t.text or "" for t in root.findall(f"{SVG_NS}g[@id='lanes']/{SVG_NS}text")]
    assert labels[0].startswith("main thread (tid ")
    assert f"dev 0 stream {stream:#x}" in labels


# -- leaks on the common-mistake examples -------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("destroy_list_member", 23),
        ("forget_aclnn_finalize", 23),
        ("leak_workspace", 23),
        ("reuse_executor", 23),
    ],
)
def test_leaks_exit_code_on_mistakes(cli: Runs, name: str, code: int) -> None:
    """opbase-emu leaks exits 23 for the two leaking examples and for the two whose undefined use was reported."""
    run = cli[name]
    assert run.returncode == code, run.stdout + run.stderr
    assert "(script exit code 0, " in run.stderr


def test_leaks_counts_sanitizer_reports_instead_of_saying_no_leaks(cli: Runs) -> None:
    """A double destroy leaks nothing, yet the summary does not say "no leaks": it counts the report listed above."""
    out = cli["destroy_list_member"].stdout
    assert "no leaks" not in out
    summary = "SUMMARY: opbase-emu: 0 leaks (3 resources created, all released); 1 sanitizer report(s)"
    assert out.rstrip().endswith(summary), out
    header = "==opbase-emu== ERROR: 1 sanitizer report(s), undefined on a card:"
    assert f"{header}\n  aclDestroyTensor: double destroy" in out


def test_leaks_exit_code_follows_the_summary_for_read_before_sync(cli: Runs) -> None:
    """read_before_sync leaks nothing: it exits 23 exactly when its race was counted as a sanitizer report."""
    run = cli["read_before_sync"]
    (summary,) = [line for line in run.stdout.splitlines() if line.startswith("SUMMARY: ")]
    assert re.match(r"SUMMARY: opbase-emu: (no|0) leaks \(\d+ resources created, all released\)", summary), summary
    assert run.returncode == (23 if "sanitizer report" in summary else 0), run.stdout + run.stderr


def test_leaks_report_for_leak_workspace(cli: Runs) -> None:
    """The leaked workspace is reported with its size and the example's line 20."""
    out = cli["leak_workspace"].stdout
    assert "-- runtime (acl.rt): 1" in out
    assert re.search(r"Direct leak of device memory 512 byte\(s\) at 0x[0-9a-f]+ \[user\], created at:", out)
    assert "    #0 examples/mistakes/leak_workspace.py:20 in <module>" in out
    expected = "SUMMARY: opbase-emu: 1 resource(s) leaked (1 direct, 0 indirect); 512 byte(s) of device memory"
    assert out.rstrip().endswith(expected)


def test_leaks_report_for_forget_aclnn_finalize(cli: Runs) -> None:
    """Without aclnnFinalize the SearchSorted task space and task leak from the phase-1 line."""
    out = cli["forget_aclnn_finalize"].stdout
    assert "-- op engine: 2" in out
    assert re.search(r"Direct leak of aicpu task space at 0x[0-9a-f]+ \[SearchSorted\], created at:", out)
    assert re.search(r"Direct leak of aicpu task 256 byte\(s\) at 0x[0-9a-f]+ \[SearchSorted\], created at:", out)
    assert out.count("    #0 examples/mistakes/forget_aclnn_finalize.py:19 in <module>") == 2
    assert "SUMMARY: opbase-emu: 2 resource(s) leaked (2 direct, 0 indirect); 0 byte(s) of device memory" in out


def test_double_destroy_names_creation_and_destruction(cli: Runs) -> None:
    """destroy_list_member reports the double destroy with its line, where it was created and where destroyed."""
    out = cli["destroy_list_member"].stdout
    assert "aclDestroyTensor returned 0 (as on a card); the emulator reports:" in out
    assert re.search(
        r"aclDestroyTensor: double destroy of aclTensor 0x[0-9a-f]+ \(shape \[4\], ACL_FLOAT, ND\)"
        r" \(at examples/mistakes/destroy_list_member\.py:15\)"
        r"; created at examples/mistakes/destroy_list_member\.py:11"
        r"; destroyed at examples/mistakes/destroy_list_member\.py:14",
        out,
    ), out


def test_reused_executor_is_refused(cli: Runs) -> None:
    """reuse_executor's second phase 2 returns 561000 and names where the executor was created and freed."""
    out = cli["reuse_executor"].stdout
    assert "first phase 2: 0\n" in out
    assert "second phase 2: 561000 <- the mistake" in out
    assert (
        "created at examples/mistakes/reuse_executor.py:17; destroyed at examples/mistakes/reuse_executor.py:18" in out
    )


def test_read_before_sync_reports_the_race(cli: Runs) -> None:
    """read_before_sync reports the D2H copy racing the queued kernel, and still reads the right data."""
    out = cli["read_before_sync"].stdout
    assert "result: [0.0, 2.0, 4.0, 6.0]" in out
    assert re.search(
        r"race at examples/mistakes/read_before_sync\.py:25: aclrtMemcpy D2H touches 16 bytes at 0x[0-9a-f]+ "
        r"that 'kernel Add' queued on stream 0x[0-9a-f]+ still writes",
        out,
    ), out
    # the same report, visible by default on stderr, names the line that enqueued the kernel
    assert re.search(
        r"opbase-emu: race: examples/mistakes/read_before_sync\.py:25: aclrtMemcpy D2H: .*"
        r"; the queued task was enqueued at examples/mistakes/read_before_sync\.py:22; on a card",
        cli["read_before_sync"].stderr,
    ), cli["read_before_sync"].stderr


# -- demo and config check ----------------------------------------------------------------------------
def test_demo_runs_clean(cli: Runs) -> None:
    """opbase-emu demo exits 0 and ends with a clean leak check."""
    run = cli["demo"]
    assert run.returncode == 0, run.stderr
    last = run.stdout.rstrip().splitlines()[-1]
    assert last.startswith("Leak check: clean")
    assert re.fullmatch(r"Leak check: clean: (\d+) resources created, all \1 released\.", last), last
    assert "aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)  ->  ACLNN_SUCCESS" in run.stdout


def test_config_check_default(cli: Runs) -> None:
    """configs/acl.json: per-thread error messages, debug kernels off, exit 0."""
    run = cli["config"]
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines() == [
        "aclInit: err_msg_mode '0' (per-thread error messages)",
        'aclnnInit: debug kernels off (enable_debug_kernel is "off"); aclnnInit returns 0',
    ]


def test_config_check_debug(cli: Runs) -> None:
    """configs/acl-debug.json: dump enabled and debug kernels on, exit 0."""
    run = cli["config-debug"]
    assert run.returncode == 0, run.stdout
    assert "aclInit: dump enabled, path './dump' (aclDumpOpTensors writes there)" in run.stdout
    assert 'aclnnInit: debug kernels on (enable_debug_kernel is "on"); aclnnInit returns 0' in run.stdout


def test_config_check_broken_json(cli: Runs) -> None:
    """A file that is not JSON: aclInit would return 100006, aclnnInit falls back to debug off; exit 1."""
    run = cli["config-broken"]
    assert run.returncode == 1
    first, second = run.stdout.splitlines()
    assert first.startswith(f"{cli.tmp / 'broken.json'}: aclInit would return 100006 (ACL_ERROR_PARSE_FILE): ")
    assert second == "aclnnInit: debug kernels off (json parse failed); aclnnInit still returns 0"
