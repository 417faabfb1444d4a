"""The pytest plugin: the no_leaks marker, --opbase-leaks, the npu_process and leak_check fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

# Imported up front so that pytester's in-process runs find these modules already loaded and share them.
from emulator import acl, aclnn, process  # noqa: F401

pytest_plugins = ["pytester"]

# hypothesis imports itself at the end of every inner run (pytester unloads it in between): seconds each; benchmark
# warns under xdist.
RUN_ARGS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark", "-q", "-rA")

LEAKS = """
import pytest

from emulator import aclnn


KEEP = []  # leaked handles stay referenced, as leaked C objects keep their addresses


def _tensor():
    KEEP.append(aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0))
    return KEEP[-1]


@pytest.mark.no_leaks
def test_marked_leaks_a_tensor():
    KEEP.append(aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0))  # LEAK-MARKED
    assert KEEP[-1] is not None


@pytest.mark.no_leaks
def test_marked_clean():
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0


def test_unmarked_leaks_a_tensor():
    assert _tensor() is not None  # LEAK-UNMARKED


@pytest.mark.no_leaks
def test_marked_failure_is_not_masked():
    _tensor()
    assert 1 == 2, "the test's own failure"
"""

CHECKPOINT = """
import pytest

from emulator import aclnn


KEEP = []  # leaked handles stay referenced, as leaked C objects keep their addresses


def _tensor():
    KEEP.append(aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0))
    return KEEP[-1]


@pytest.mark.no_leaks
def test_warm_up_then_checkpoint(leak_check):
    warm = _tensor()  # WARM-CLEAN
    leak_check.checkpoint()
    for _ in range(3):
        assert aclnn.aclDestroyTensor(_tensor()) == 0
    assert warm is not None


@pytest.mark.no_leaks
def test_growth_after_checkpoint(leak_check):
    warm = _tensor()  # WARM-GROWTH
    leak_check.checkpoint()
    grown = _tensor()  # GROWN
    assert warm is not None and grown is not None


@pytest.mark.no_leaks
def test_warm_up_without_checkpoint(leak_check):
    assert _tensor() is not None  # WARM-UNCHECKED
"""

DROPPED = """
import pytest

from emulator import aclnn


def _dropped_tensor():
    aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)


@pytest.mark.no_leaks
def test_leak_after_checkpoint(leak_check):
    _dropped_tensor()  # a warm-up leak whose Python wrapper is dropped
    leak_check.checkpoint()
    _dropped_tensor()  # a new leak after the checkpoint
"""

FIXTURE = """
from emulator import acl, process

SEEN = []


def test_first(npu_process):
    assert npu_process is process.current()
    assert npu_process.registry.live() == []
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    SEEN.append(npu_process)


def test_second(npu_process):
    assert npu_process is process.current()
    assert npu_process is not SEEN[0]
    assert npu_process.registry.live() == []
    assert sum(npu_process.registry.created.values()) == 0
    assert npu_process.acl.ref_count == 0
    assert SEEN[0].registry.count("device_memory") == 1
    SEEN.append(npu_process)


def test_after(npu_process):
    assert process.current() is npu_process
    assert all(proc is not npu_process for proc in SEEN)
"""

CACHES = """
import numpy as np
import pytest

from emulator import acl, aclnn


def _device_tensor(host, dtype, keep):
    ptr, ret = acl.rt.malloc(host.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1) == 0
    shape = list(host.shape)
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    keep.append((tensor, ptr))
    return tensor


@pytest.mark.no_leaks
def test_ops_without_aclnn_finalize(npu_process):
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and aclnn.aclnnInit(None) == 0
    keep = []
    x = _device_tensor(np.ones(4, np.float32), aclnn.ACL_FLOAT, keep)
    out = _device_tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT, keep)
    index = _device_tensor(np.zeros(4, np.int64), aclnn.ACL_INT64, keep)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert ret == 0 and aclnn.aclnnAdd(0, ws, executor, stream) == 0
    ws, executor, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(x, out, False, False, None, index)
    assert ret == 0 and aclnn.aclnnSearchSorted(0, ws, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    for tensor, ptr in keep:
        assert aclnn.aclDestroyTensor(tensor) == 0 and acl.rt.free(ptr) == 0
    assert acl.rt.destroy_stream(stream) == 0 and acl.rt.reset_device(0) == 0
    kinds = sorted(r.kind for r in npu_process.registry.live())
    assert kinds == ["aicpu_task", "aicpu_task_space", "tiling_parse"]
"""


def _line(path: Path, marker: str) -> int:
    """The 1-based line of the written test file ``path`` that holds ``marker``."""
    lines = path.read_text().splitlines()
    (number,) = [i for i, text in enumerate(lines, start=1) if marker in text]
    return number


def test_marked_test_that_leaks_fails_with_the_report(pytester: pytest.Pytester) -> None:
    """A no_leaks test that leaks a tensor fails; the failure shows the report and the leaking line."""
    path = pytester.makepyfile(test_inner=LEAKS)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=2, failed=2)
    text = result.stdout.str()
    for outcome, name in (
        ("FAILED", "test_marked_leaks_a_tensor"),
        ("PASSED", "test_marked_clean"),
        ("PASSED", "test_unmarked_leaks_a_tensor"),
        ("FAILED", "test_marked_failure_is_not_masked"),
    ):
        assert f"{outcome} test_inner.py::{name}" in text
    line = _line(path, "LEAK-MARKED")
    result.stdout.fnmatch_lines(
        [
            "*the test left emulator resources alive:",
            "==opbase-emu== ERROR: LeakSanitizer-style report: resources still alive",
            "-- aclnn objects: 1",
            "Direct leak of tensor at 0x*, created at:",
            f"    #0 *test_inner.py:{line} in test_marked_leaks_a_tensor",
            "*SUMMARY: opbase-emu: 1 resource(s) leaked (1 direct, 0 indirect); 0 byte(s) of device memory",
        ]
    )
    assert "AssertionError: the test's own failure" in text
    failures = text.split("short test summary info")[0]  # newer pytest repeats the message in the summary
    assert failures.count("the test left emulator resources alive") == 1  # the failing test's own error wins
    assert f"test_inner.py:{_line(path, 'LEAK-UNMARKED')}" not in text


def test_opbase_leaks_switch_applies_to_unmarked_tests(pytester: pytest.Pytester) -> None:
    """--opbase-leaks checks every test, so the unmarked leaking test fails too, naming its line."""
    path = pytester.makepyfile(test_inner=LEAKS)
    result = pytester.runpytest(*RUN_ARGS, "--opbase-leaks", "-k", "unmarked or clean")
    result.assert_outcomes(passed=1, failed=1, deselected=2)
    line = _line(path, "LEAK-UNMARKED")
    result.stdout.fnmatch_lines(
        [
            "*the test left emulator resources alive:",
            "Direct leak of tensor at 0x*, created at:",
            "    #0 *test_inner.py:* in _tensor",
            f"    #1 *test_inner.py:{line} in test_unmarked_leaks_a_tensor",
        ]
    )
    assert "FAILED test_inner.py::test_unmarked_leaks_a_tensor" in result.stdout.str()


def test_opbase_leaks_option_is_registered(pytester: pytest.Pytester) -> None:
    """The plugin adds --opbase-leaks to pytest's help and the no_leaks marker to --markers."""
    result = pytester.runpytest(*RUN_ARGS, "--help")
    result.stdout.fnmatch_lines(["*--opbase-leaks*fail every test that leaves emulator resources alive*"])
    markers = pytester.runpytest(*RUN_ARGS, "--markers")
    markers.stdout.fnmatch_lines(["@pytest.mark.no_leaks: fail the test if it leaves emulator resources*"])


def test_npu_process_gives_each_test_a_fresh_process(pytester: pytest.Pytester) -> None:
    """npu_process is the current process during the test, brand-new for every test."""
    pytester.makepyfile(test_fixture=FIXTURE)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=3)


def test_checkpoint_excludes_what_existed_at_the_checkpoint(pytester: pytest.Pytester) -> None:
    """leak_check.checkpoint() after a warm-up makes the warm-up part of the baseline; later growth still fails."""
    path = pytester.makepyfile(test_checkpoint=CHECKPOINT)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=1, failed=2)
    text = result.stdout.str()
    assert "FAILED test_checkpoint.py::test_growth_after_checkpoint" in text
    assert "FAILED test_checkpoint.py::test_warm_up_without_checkpoint" in text
    assert f"test_checkpoint.py:{_line(path, 'GROWN')} in test_growth_after_checkpoint" in text
    assert f"test_checkpoint.py:{_line(path, 'WARM-UNCHECKED')} in test_warm_up_without_checkpoint" in text
    assert f"test_checkpoint.py:{_line(path, 'WARM-GROWTH')} " not in text  # the warm-up is not reported
    assert f"test_checkpoint.py:{_line(path, 'WARM-CLEAN')} " not in text
    failures = text.split("short test summary info")[0]  # newer pytest repeats the message in the summary
    assert failures.count("SUMMARY: opbase-emu: 1 resource(s) leaked (1 direct, 0 indirect)") == 2


def test_leak_after_checkpoint_fails_even_when_wrappers_are_dropped(pytester: pytest.Pytester) -> None:
    """A tensor leaked after the checkpoint fails the test even when the warm-up and new wrappers were dropped."""
    pytester.makepyfile(test_dropped=DROPPED)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(failed=1)


def test_aicpu_task_spaces_and_tiling_parse_contexts_do_not_fail_a_test(pytester: pytest.Pytester) -> None:
    """A no_leaks test that runs AI Core and AI CPU ops and skips aclnnFinalize passes: those are caches."""
    pytester.makepyfile(test_caches=CACHES)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=1)
    result_strict = pytester.runpytest(*RUN_ARGS, "--opbase-leaks")
    result_strict.assert_outcomes(passed=1)
