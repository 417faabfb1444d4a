"""The pytest plugin's check: after fixture teardown, wider scopes not charged, sanitizer reports fail the test,
``leak_check`` alone turns checking on, and all of it under pytest-xdist."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# Imported up front so that pytester's in-process runs find these modules already loaded and share them.
from emulator import acl, aclnn, process  # noqa: F401

pytest_plugins = ["pytester"]

RUN_ARGS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark", "-q", "-rA")

COMMON = """
import numpy as np
import pytest

from emulator import acl, aclnn, process


def _tensor(ptr=0):
    return aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, ptr)
"""

FIXTURES = (
    COMMON
    + """
KEEP = []


@pytest.fixture
def device_tensor(npu_process):
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    tensor = _tensor(ptr)
    yield tensor
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert acl.rt.free(ptr) == 0
    assert acl.rt.reset_device(0) == 0


@pytest.fixture
def forgetful():
    KEEP.append(_tensor())  # FORGOTTEN
    yield KEEP[-1]


@pytest.fixture(scope="module")
def module_tensor():
    tensor = _tensor()  # MODULE
    yield tensor
    assert aclnn.aclDestroyTensor(tensor) == 0


@pytest.fixture(scope="session")
def session_buffer():
    assert acl.rt.set_device(1) == 0
    ptr, ret = acl.rt.malloc(128, 0)  # SESSION
    assert ret == 0
    yield ptr
    assert acl.rt.free(ptr) == 0


@pytest.mark.no_leaks
def test_uses_a_fixture_that_frees_at_teardown(device_tensor):
    dims, ret = aclnn.aclGetViewShape(device_tensor)
    assert (dims, ret) == ([4], 0)


@pytest.mark.no_leaks
def test_uses_a_fixture_that_forgets(forgetful):
    assert forgetful is not None


@pytest.mark.no_leaks
def test_first_user_of_wider_scopes(module_tensor, session_buffer):
    assert module_tensor is not None and session_buffer


@pytest.mark.no_leaks
def test_second_user_of_wider_scopes(module_tensor, session_buffer):
    assert module_tensor is not None and session_buffer
"""
)

SANITIZER = (
    COMMON
    + """
def _add(stream, keep):
    x_ptr, ret = acl.rt.malloc(16, 0)
    out_ptr, ret = acl.rt.malloc(16, 0)
    x, out = _tensor(x_ptr), _tensor(out_ptr)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    keep.append((x, out, alpha, x_ptr, out_ptr))
    return aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)


def _release(keep):
    for x, out, alpha, x_ptr, out_ptr in keep:
        assert aclnn.aclDestroyTensor(x) == 0 and aclnn.aclDestroyTensor(out) == 0
        assert aclnn.aclDestroyScalar(alpha) == 0
        assert acl.rt.free(x_ptr) == 0 and acl.rt.free(out_ptr) == 0


@pytest.mark.no_leaks
def test_double_destroy(npu_process):
    tensor = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)  # CREATED
    assert aclnn.aclDestroyTensor(tensor) == 0  # DESTROYED
    assert aclnn.aclDestroyTensor(tensor) == 0  # AGAIN


@pytest.mark.no_leaks
def test_reuses_a_released_executor(npu_process):
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    keep = []
    ws, executor, ret = _add(stream, keep)
    assert aclnn.aclnnAdd(0, ws, executor, stream) == 0
    assert aclnn.aclnnAdd(0, ws, executor, stream) != 0  # REUSED
    assert acl.rt.synchronize_stream(stream) == 0
    _release(keep)
    assert acl.rt.destroy_stream(stream) == 0 and acl.rt.reset_device(0) == 0


def test_unchecked_double_destroy(npu_process):
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0


@pytest.mark.no_leaks
def test_fails_on_its_own_after_a_double_destroy(npu_process):
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert 1 == 2, "the test's own failure"


@pytest.fixture(scope="module")
def sloppy_module_fixture():
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0  # the module's report, not a test's
    yield


@pytest.mark.no_leaks
def test_uses_a_sloppy_module_fixture(sloppy_module_fixture):
    pass
"""
)

LEAK_CHECK_ALONE = (
    COMMON
    + """
KEEP = []


def test_requests_leak_check_and_leaks(leak_check):
    KEEP.append(_tensor())  # ALONE


def test_requests_leak_check_and_is_clean(leak_check):
    assert aclnn.aclDestroyTensor(_tensor()) == 0


def test_neither_marked_nor_requesting(npu_process):
    KEEP.append(_tensor())
"""
)

UNTRACKED = (
    COMMON
    + """
KEEP = []


@pytest.fixture
def untracked(monkeypatch):
    monkeypatch.setenv("OPBASE_EMU_TRACKING", "0")
    with process.fresh() as proc:
        yield proc


@pytest.mark.no_leaks
def test_leaks_untracked(untracked):
    KEEP.append(_tensor())
"""
)

STRICT_AND_BROKEN = (
    COMMON
    + """
@pytest.fixture
def strict_process(monkeypatch):
    monkeypatch.setenv("OPBASE_EMU_STRICT", "1")
    with process.fresh() as proc:
        yield proc


@pytest.mark.no_leaks
def test_strict_double_destroy(strict_process):
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0
    aclnn.aclDestroyTensor(tensor)  # RAISES


@pytest.fixture
def broken_teardown(npu_process):
    yield _tensor()
    raise RuntimeError("the teardown broke")


@pytest.mark.no_leaks
def test_teardown_breaks(broken_teardown):
    pass
"""
)

XDIST = (
    COMMON
    + """
KEEP = []


@pytest.mark.no_leaks
def test_marked_leak():
    KEEP.append(_tensor())  # XMARKED


def test_unmarked_leak():
    KEEP.append(_tensor())  # XUNMARKED


@pytest.mark.no_leaks
def test_marked_double_destroy():
    tensor = _tensor()
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0


def test_clean():
    assert aclnn.aclDestroyTensor(_tensor()) == 0
"""
)


def _line(path: Path, marker: str) -> int:
    (number,) = [i for i, text in enumerate(path.read_text().splitlines(), 1) if marker in text]
    return number


def _failures(text: str) -> str:
    """The failure sections of a run's output (newer pytest repeats messages in the short summary)."""
    return text.split("short test summary info")[0]


def test_fixture_teardown_frees_before_the_check(pytester: pytest.Pytester) -> None:
    """A function-scoped fixture that frees at teardown is not a leak; one that forgets is, naming its line."""
    path = pytester.makepyfile(test_fixtures=FIXTURES)
    result = pytester.runpytest(*RUN_ARGS, "-k", "teardown or forgets")
    result.assert_outcomes(passed=1, failed=1, deselected=2)
    text = result.stdout.str()
    assert "PASSED test_fixtures.py::test_uses_a_fixture_that_frees_at_teardown" in text
    assert "FAILED test_fixtures.py::test_uses_a_fixture_that_forgets" in text
    result.stdout.fnmatch_lines(
        [
            "*the test left emulator resources alive:",
            "Direct leak of tensor at 0x* (shape [[]4[]], ACL_FLOAT, ND), created at:",
            f"    #1 *test_fixtures.py:{_line(path, 'FORGOTTEN')} in forgetful",
        ]
    )
    assert "_pytest" not in _failures(text) and "pluggy" not in _failures(text)  # stacks end at the user's frames


def test_wider_scoped_fixtures_are_not_charged_to_a_test(pytester: pytest.Pytester) -> None:
    """What module- and session-scoped fixtures create is theirs: neither test that sets them up or uses them fails."""
    path = pytester.makepyfile(test_fixtures=FIXTURES)
    result = pytester.runpytest(*RUN_ARGS, "-k", "wider")
    result.assert_outcomes(passed=2, deselected=2)
    for marker in ("MODULE", "SESSION"):
        assert f"test_fixtures.py:{_line(path, marker)}" not in result.stdout.str()


def test_sanitizer_reports_fail_a_checked_test(pytester: pytest.Pytester) -> None:
    """A double destroy and a reused executor fail their no_leaks tests, the report with its sites in the failure."""
    path = pytester.makepyfile(test_sanitizer=SANITIZER)
    result = pytester.runpytest(*RUN_ARGS, "-k", "double_destroy and not own or reuses")
    result.assert_outcomes(passed=1, failed=2, deselected=2)
    text = result.stdout.str()
    assert "FAILED test_sanitizer.py::test_double_destroy" in text
    assert "FAILED test_sanitizer.py::test_reuses_a_released_executor" in text
    assert "PASSED test_sanitizer.py::test_unchecked_double_destroy" in text
    site = "test_sanitizer.py:{}".format
    result.stdout.fnmatch_lines(
        [
            "*the emulator made 1 sanitizer report(s) while the test ran:",
            "  aclDestroyTensor: double destroy of aclTensor 0x* (shape [[]4[]], ACL_FLOAT, ND) "
            f"(at *{site(_line(path, 'AGAIN'))}); "
            f"created at *{site(_line(path, 'CREATED'))}; destroyed at *{site(_line(path, 'DESTROYED'))}",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*the emulator made 1 sanitizer report(s) while the test ran:",
            f"  aclnnAdd: phase 2 on an executor that was already freed * (at *{site(_line(path, 'REUSED'))}); *",
        ]
    )
    assert "left emulator resources alive" not in text  # the executor test released everything it made


def test_a_test_failing_on_its_own_keeps_its_failure_and_shows_the_reports(pytester: pytest.Pytester) -> None:
    """The test's own assertion stays the failure; the sanitizer reports are added as a section of it."""
    pytester.makepyfile(test_sanitizer=SANITIZER)
    result = pytester.runpytest(*RUN_ARGS, "-k", "own")
    result.assert_outcomes(failed=1, deselected=4)
    text = _failures(result.stdout.str())
    assert "AssertionError: the test's own failure" in text
    assert "opbase-emu sanitizer reports" in text
    section = text.split("opbase-emu sanitizer reports", 1)[1]  # the report's stderr line is captured above it
    assert section.count("aclDestroyTensor: double destroy of aclTensor") == 1


def test_a_report_made_by_a_module_fixture_is_not_the_tests(pytester: pytest.Pytester) -> None:
    """A sanitizer report made while a module-scoped fixture is set up does not fail the test that set it up."""
    pytester.makepyfile(test_sanitizer=SANITIZER)
    result = pytester.runpytest(*RUN_ARGS, "-k", "sloppy")
    result.assert_outcomes(passed=1, deselected=4)


def test_requesting_leak_check_turns_the_check_on(pytester: pytest.Pytester) -> None:
    """A test that requests leak_check, without the marker or the option, is checked; others are not."""
    path = pytester.makepyfile(test_alone=LEAK_CHECK_ALONE)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=2, failed=1)
    assert "FAILED test_alone.py::test_requests_leak_check_and_leaks" in result.stdout.str()
    result.stdout.fnmatch_lines([f"    #1 *test_alone.py:{_line(path, 'ALONE')} in test_requests_leak_check_and_leaks"])


def test_strict_mode_fails_at_the_line_with_the_report_as_a_section(pytester: pytest.Pytester) -> None:
    """OPBASE_EMU_STRICT=1: the double destroy raises UndefinedBehaviour there; the report is a section of it."""
    path = pytester.makepyfile(test_modes=STRICT_AND_BROKEN)
    result = pytester.runpytest(*RUN_ARGS, "-k", "strict_double")
    result.assert_outcomes(failed=1, deselected=1)
    text = _failures(result.stdout.str())
    assert "UndefinedBehaviour: aclDestroyTensor: double destroy of aclTensor" in text
    assert f"(at {path}:{_line(path, 'RAISES')})" in text
    assert "opbase-emu sanitizer reports" in text


def test_a_broken_teardown_is_an_error_and_its_leftovers_are_not_judged(pytester: pytest.Pytester) -> None:
    """A fixture whose teardown raises is the error; the tensor it left behind is not reported as a leak."""
    pytester.makepyfile(test_modes=STRICT_AND_BROKEN)
    result = pytester.runpytest(*RUN_ARGS, "-k", "teardown_breaks")
    result.assert_outcomes(passed=1, errors=1, deselected=1)
    assert "RuntimeError: the teardown broke" in result.stdout.str()
    assert "left emulator resources alive" not in result.stdout.str()


def test_a_checked_test_without_tracking_warns_that_leaks_go_unchecked(pytester: pytest.Pytester) -> None:
    """With OPBASE_EMU_TRACKING=0 nothing can be counted: the test passes with a warning saying so, not silently."""
    pytester.makepyfile(test_untracked=UNTRACKED)
    result = pytester.runpytest(*RUN_ARGS)
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["*PytestWarning: opbase-emu: resource tracking is off (OPBASE_EMU_TRACKING=0)*"])


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist is not installed")
def test_marker_and_option_work_under_xdist(pytester: pytest.Pytester) -> None:
    """Under -n 2 the marker fails leaking and sanitizer-reporting tests in the workers; --opbase-leaks all."""
    path = pytester.makepyfile(test_xdist=XDIST)
    marked = pytester.runpytest_subprocess(*RUN_ARGS, "-p", "xdist", "-n", "2")
    marked.assert_outcomes(passed=2, failed=2)
    text = marked.stdout.str()
    assert "FAILED test_xdist.py::test_marked_leak" in text
    assert "FAILED test_xdist.py::test_marked_double_destroy" in text
    assert f"test_xdist.py:{_line(path, 'XMARKED')} in test_marked_leak" in text
    assert "aclDestroyTensor: double destroy of aclTensor" in text
    everything = pytester.runpytest_subprocess(*RUN_ARGS, "-p", "xdist", "-n", "2", "--opbase-leaks")
    everything.assert_outcomes(passed=1, failed=3)
    assert f"test_xdist.py:{_line(path, 'XUNMARKED')} in test_unmarked_leak" in everything.stdout.str()
