"""Fault injection: each form of the OPBASE_EMU_FAULTS spec, the context manager, the fixture,
the HBM cap, and counting across threads. The lifecycle sweep is in test_faults_sweep.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from emulator import acl, aclnn, faults, process
from emulator.config import FaultSpec, Settings, SettingsError, fault_specs
from emulator.faults import Injector
from emulator.process import EmulatedProcess
from emulator.tracking import ResourceKind

MEMORY_ALLOCATION = 207001
INVALID_PARAM = 100000
PARAM_NULLPTR = 161001
INNER_NULLPTR = 561103


@pytest.fixture
def env_process(request: pytest.FixtureRequest) -> Iterator[EmulatedProcess]:
    """A process started with the environment the test is parametrized with, device 0 set."""
    environ: dict[str, str] = request.param
    with process.fresh(Settings.from_env(environ)) as proc:
        assert acl.rt.set_device(0) == 0
        yield proc
        acl.rt.reset_device(0)


def _malloc_statuses(count: int) -> list[int]:
    statuses = []
    for _ in range(count):
        ptr, ret = acl.rt.malloc(64, 0)
        statuses.append(int(ret))
        if ret == 0:
            assert acl.rt.free(ptr) == 0
    return statuses


# -- the spec ------------------------------------------------------------------------------------
def test_spec_forms_parse() -> None:
    specs = fault_specs("aclrtMalloc, aclrtMalloc@3,aclCreateTensor@*,aclrtCreateStream=207008,aclnnAdd@2=561000")
    assert specs == (
        FaultSpec(name="aclrtMalloc", nth=1, status=None),
        FaultSpec(name="aclrtMalloc", nth=3, status=None),
        FaultSpec(name="aclCreateTensor", nth=None, status=None),
        FaultSpec(name="aclrtCreateStream", nth=1, status=207008),
        FaultSpec(name="aclnnAdd", nth=2, status=561000),
    )
    assert [str(s) for s in specs[1:3]] == ["aclrtMalloc@3", "aclCreateTensor@*"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("aclrtMalloc@x", "cannot read 'aclrtMalloc@x'"),
        ("aclrtMalloc@0", "counted from 1"),
        ("aclrtMalloc=-5", "cannot read"),
        ("aclrtMalloc=0", "status 0 is success"),
        ("aclrtMalloc@2@3", "cannot read"),
    ],
)
def test_bad_syntax_is_one_clear_error(value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        Settings.from_env({"OPBASE_EMU_FAULTS": value})


def test_unknown_name_stops_the_process_start() -> None:
    with pytest.raises(SettingsError, match=r"'aclrtMaloc' is not a C function .*did you mean aclrtMalloc\?"):
        EmulatedProcess(Settings.from_env({"OPBASE_EMU_FAULTS": "aclrtMalloc,aclrtMaloc@2"}))


def test_a_function_without_a_failure_is_refused() -> None:
    with pytest.raises(SettingsError, match="aclrtGetSocName returns const char"):
        EmulatedProcess(Settings.from_env({"OPBASE_EMU_FAULTS": "aclrtGetSocName"}))


@pytest.mark.parametrize("env_process", [{"OPBASE_EMU_FAULTS": "aclrtMalloc"}], indirect=True)
def test_default_is_the_first_call_with_the_natural_status(env_process: EmulatedProcess) -> None:
    assert _malloc_statuses(3) == [INVALID_PARAM, 0, 0]
    message = acl.get_recent_err_msg()  # kept until read: the successes after it add nothing
    assert message is not None
    assert "Invalid_Argument(EH0007): aclrtMalloc failed with ACL_ERROR_INVALID_PARAM (100000)" in message
    assert "OPBASE_EMU_FAULTS (aclrtMalloc@1)" in message


@pytest.mark.parametrize("env_process", [{"OPBASE_EMU_FAULTS": "aclrtMalloc@3=207001"}], indirect=True)
def test_nth_call_with_a_status(env_process: EmulatedProcess) -> None:
    assert _malloc_statuses(2) == [0, 0]
    ptr, ret = acl.rt.malloc(64, 0)
    assert (ptr, ret) == (0, MEMORY_ALLOCATION)
    message = acl.get_recent_err_msg()
    assert message is not None
    assert "(EL0004)" in message  # the message ID the real out-of-memory failure records
    assert "aclrtMalloc failed with ACL_ERROR_RT_MEMORY_ALLOCATION (207001)" in message
    assert "OPBASE_EMU_FAULTS (aclrtMalloc@3=207001)" in message
    assert acl.rt.get_last_error(0) == MEMORY_ALLOCATION  # a runtime failure sets the thread's last error
    assert _malloc_statuses(2) == [0, 0]
    assert env_process.registry.count(ResourceKind.DEVICE_MEMORY) == 0  # nothing half-done


@pytest.mark.parametrize("env_process", [{"OPBASE_EMU_FAULTS": "aclrtCreateStream@*=207008"}], indirect=True)
def test_every_call(env_process: EmulatedProcess) -> None:
    for _ in range(4):
        assert acl.rt.create_stream() == (0, 207008)
    assert env_process.registry.count(ResourceKind.STREAM) == 0


@pytest.mark.parametrize(
    "env_process", [{"OPBASE_EMU_FAULTS": "aclrtMalloc@2,aclrtMalloc@3=207001,aclrtMallocHost"}], indirect=True
)
def test_several_rules(env_process: EmulatedProcess) -> None:
    assert _malloc_statuses(4) == [0, INVALID_PARAM, MEMORY_ALLOCATION, 0]
    assert acl.rt.malloc_host(64) == (0, INVALID_PARAM)


# -- pointer-returning functions -----------------------------------------------------------------
def test_creator_returns_nullptr_with_the_status_in_the_message() -> None:
    with faults.inject("aclCreateTensor", nth=2) as rule:
        first = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0x1000)
        assert first is not None
        assert aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0x1000) is None
    message = acl.get_recent_err_msg()
    assert message is not None
    assert "EZ9999" in message
    assert "aclCreateTensor failed with ACLNN_ERR_INNER_NULLPTR (561103), returning nullptr" in message
    assert (rule.calls, rule.hits) == (2, 1)
    assert aclnn.aclDestroyTensor(first) == 0
    assert process.current().registry.count(ResourceKind.TENSOR) == 0


def test_creator_with_an_explicit_status() -> None:
    with faults.inject("aclCreateScalar", status=PARAM_NULLPTR):
        assert aclnn.aclCreateScalar(np.float32(1.0), aclnn.ACL_FLOAT) is None
    message = acl.get_recent_err_msg()
    assert message is not None and "ACLNN_ERR_PARAM_NULLPTR (161001), returning nullptr" in message


def test_phase1_fails_with_zeroed_out_values() -> None:
    with faults.inject("aclnnAddGetWorkspaceSize"):
        assert aclnn.aclnnAddGetWorkspaceSize(None, None, None, None) == (0, None, PARAM_NULLPTR)
    message = acl.get_recent_err_msg()
    assert message is not None and "EZ1001" in message
    assert process.current().registry.count(ResourceKind.EXECUTOR) == 0


def test_the_block_disarms_its_rule() -> None:
    assert acl.rt.set_device(0) == 0
    with faults.inject("aclrtMalloc", nth=None):
        assert _malloc_statuses(2) == [INVALID_PARAM, INVALID_PARAM]
    assert _malloc_statuses(2) == [0, 0]
    assert not process.current().faults.armed


def test_inject_refuses_bad_arguments() -> None:
    with pytest.raises(SettingsError, match="counted from 1"), faults.inject("aclrtMalloc", nth=0):
        pass
    with pytest.raises(SettingsError, match="not a C function"), faults.inject("aclrtNope"):
        pass


def test_fixture_arms_until_the_test_ends(opbase_faults: Injector) -> None:
    assert acl.rt.set_device(0) == 0
    rule = opbase_faults.inject("aclrtMalloc", nth=2, status=MEMORY_ALLOCATION)
    assert _malloc_statuses(3) == [0, MEMORY_ALLOCATION, 0]
    assert rule.calls == 3
    opbase_faults.clear()
    assert not process.current().faults.armed


# -- counting across threads ---------------------------------------------------------------------
def test_calls_are_counted_across_threads() -> None:
    """Eight threads make 25 calls each; exactly the 100th call of the process fails, on whichever thread."""
    assert acl.rt.set_device(0) == 0
    results: list[list[int]] = [[] for _ in range(8)]
    start = threading.Barrier(8)

    def work(index: int) -> None:
        assert acl.rt.set_device(0) == 0
        start.wait()
        results[index] = _malloc_statuses(25)

    with faults.inject("aclrtMalloc", nth=100, status=MEMORY_ALLOCATION) as rule:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    statuses = [s for per_thread in results for s in per_thread]
    assert len(statuses) == 200
    assert statuses.count(MEMORY_ALLOCATION) == 1
    assert statuses.count(0) == 199
    assert (rule.calls, rule.hits) == (200, 1)
    assert process.current().registry.count(ResourceKind.DEVICE_MEMORY) == 0


# -- OPBASE_EMU_HBM_LIMIT ------------------------------------------------------------------------
@pytest.mark.parametrize("env_process", [{"OPBASE_EMU_HBM_LIMIT": str(4 << 20)}], indirect=True)
def test_hbm_limit_caps_each_device(env_process: EmulatedProcess) -> None:
    free, total, ret = acl.rt.get_mem_info(1)  # ACL_HBM_MEM
    assert (free, total, ret) == (4 << 20, 4 << 20, 0)
    ptr, ret = acl.rt.malloc(3 << 20, 0)
    assert ret == 0
    assert acl.rt.malloc(2 << 20, 0) == (0, MEMORY_ALLOCATION)
    message = acl.get_recent_err_msg()
    assert message is not None and "EL0004" in message and "Failed to allocate memory" in message
    assert acl.rt.free(ptr) == 0
    again, ret = acl.rt.malloc(2 << 20, 0)
    assert ret == 0 and acl.rt.free(again) == 0


def test_hbm_limit_takes_binary_units() -> None:
    assert Settings.from_env({"OPBASE_EMU_HBM_LIMIT": "4M"}).hbm_limit == 4 << 20


@pytest.mark.parametrize("value", ["lots", "0", "-1", "1.5"])
def test_bad_hbm_limit_is_refused(value: str) -> None:
    with pytest.raises(SettingsError, match="OPBASE_EMU_HBM_LIMIT"):
        Settings.from_env({"OPBASE_EMU_HBM_LIMIT": value})


def test_no_limit_by_default() -> None:
    settings = Settings.from_env({})
    assert settings.hbm_limit is None and settings.faults == ()


# -- the trace -----------------------------------------------------------------------------------
def test_a_traced_injected_failure_shows_its_status() -> None:
    from emulator.trace import start_trace, stop_trace

    assert acl.rt.set_device(0) == 0
    tracer = start_trace()
    try:
        with faults.inject("aclrtMalloc", status=MEMORY_ALLOCATION):
            assert acl.rt.malloc(64, 0) == (0, MEMORY_ALLOCATION)
    finally:
        stop_trace()
    calls = [(e.name, e.status) for e in tracer.events if e.kind == "api"]
    assert ("aclrtMalloc", MEMORY_ALLOCATION) in calls
    assert not [e for e in tracer.events if e.kind == "resource"]  # the failed call created nothing
