"""The opbase_faults fixture, run by pytest itself: rules armed in one test do not reach the next."""

from __future__ import annotations

import pytest

# Imported up front so that pytester's in-process runs find these modules already loaded and share them.
from emulator import acl, process  # noqa: F401

pytest_plugins = ["pytester"]

RUN_ARGS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark", "-q", "-rA")

TESTS = """
import pytest

from emulator import acl, process

PLANS = []


def test_arms_and_does_not_clear(opbase_faults):
    assert acl.rt.set_device(0) == 0
    opbase_faults.inject("aclrtMalloc", nth=None, status=207001)
    assert acl.rt.malloc(64, 0) == (0, 207001)
    PLANS.append(process.current().faults)


def test_next_test_is_not_failed():
    assert not PLANS[0].armed  # the first test's rule was disarmed at its teardown


@pytest.mark.no_leaks
def test_with_the_leak_check(npu_process, opbase_faults):
    opbase_faults.inject("aclrtCreateStream", status=207008)
    assert acl.rt.set_device(0) == 0
    assert acl.rt.create_stream() == (0, 207008)
    assert acl.rt.reset_device(0) == 0
"""


def test_fixture_disarms_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=TESTS)
    result = pytester.runpytest_inprocess(*RUN_ARGS, "-p", "no:randomly")
    result.assert_outcomes(passed=3)
