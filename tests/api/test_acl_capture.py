"""Stream capture into a model runtime instance (aclmdlRI*, C-only): recorded, not run; replayed on execute.

The rules follow the runtime's capture checks (docs/runtime.md, "Stream capture").
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from emulator import acl
from emulator.acl import constants as c
from emulator.acl.model_ri import (
    aclmdlRICaptureBegin,
    aclmdlRICaptureEnd,
    aclmdlRICaptureGetInfo,
    aclmdlRICaptureThreadExchangeMode,
    aclmdlRIDestroy,
    aclmdlRIExecuteAsync,
)
from emulator.leaks import leak_report
from emulator.status import AclError

GLOBAL, THREAD_LOCAL, RELAXED = 0, 1, 2
NONE, ACTIVE, INVALIDATED = 0, 1, 2
H2D, D2H = c.ACL_MEMCPY_HOST_TO_DEVICE, c.ACL_MEMCPY_DEVICE_TO_HOST
STREAM_CAPTURED = AclError.ACL_ERROR_RT_STREAM_CAPTURED


@pytest.fixture
def stream() -> int:
    assert acl.rt.set_device(0) == 0
    sid, ret = acl.rt.create_stream()
    assert ret == 0
    return int(sid)


def _dev(nbytes: int) -> int:
    ptr, ret = acl.rt.malloc(nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    return int(ptr)


def _host_pinned(nbytes: int) -> tuple[int, np.ndarray]:
    ptr, ret = acl.rt.malloc_host(nbytes)
    assert ret == 0
    return ptr, np.ctypeslib.as_array((np.ctypeslib.ctypes.c_uint8 * nbytes).from_address(ptr))


def test_captured_tasks_do_not_run_until_the_model_executes_and_run_again_each_time(stream: int) -> None:
    """A memset + a copy to pinned host memory recorded; nothing happens until execute; each execution
    re-reads the device memory of its time (the host buffer follows a change made between executions)."""
    dev = _dev(64)
    host, view = _host_pinned(64)
    view[:] = 0
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    status, model, ret = aclmdlRICaptureGetInfo(stream)
    assert (status, ret) == (ACTIVE, 0) and model != 0
    assert acl.rt.memset_async(dev, 32, 5, 32, stream) == 0
    assert acl.rt.memcpy_async(host, 64, dev, 64, D2H, stream) == 0
    got, ret = aclmdlRICaptureEnd(stream)
    assert (got, ret) == (model, 0)
    assert aclmdlRICaptureGetInfo(stream) == (NONE, 0, 0)
    assert acl.rt.synchronize_stream(stream) == 0
    assert (view == 0).all()  # recorded, not run

    assert acl.rt.memset(dev + 32, 32, 1, 32) == 0
    assert aclmdlRIExecuteAsync(model, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert (view[:32] == 5).all() and (view[32:] == 1).all()
    assert acl.rt.memset(dev + 32, 32, 2, 32) == 0
    assert aclmdlRIExecuteAsync(model, 0) == 0  # on the default stream too
    assert acl.rt.synchronize_device() == 0
    assert (view[32:] == 2).all()
    assert aclmdlRIDestroy(model) == 0
    assert aclmdlRIDestroy(model) == AclError.ACL_ERROR_RT_PARAM_INVALID
    assert aclmdlRIExecuteAsync(model, stream) == AclError.ACL_ERROR_RT_PARAM_INVALID


def test_a_capturing_stream_cannot_be_synchronised_queried_destroyed_or_begun_again(stream: int) -> None:
    """107027 for each, and for a device synchronise that would wait on it; ending is still fine after."""
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    assert acl.rt.synchronize_stream(stream) == STREAM_CAPTURED
    assert "capture stage" in (acl.get_recent_err_msg() or "")
    assert acl.rt.stream_query(stream) == (0, STREAM_CAPTURED)
    assert acl.rt.destroy_stream(stream) == STREAM_CAPTURED
    assert acl.rt.synchronize_device() == STREAM_CAPTURED
    assert aclmdlRICaptureBegin(stream, GLOBAL) == STREAM_CAPTURED
    model, ret = aclmdlRICaptureEnd(stream)
    assert ret == 0
    assert aclmdlRIDestroy(model) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_begin_and_end_argument_checks(stream: int) -> None:
    """Null (default) stream and unknown mode 100000; end without a capture 107029; a bad model 100000 / 107000."""
    assert aclmdlRICaptureBegin(0, GLOBAL) == AclError.ACL_ERROR_INVALID_PARAM
    assert aclmdlRICaptureBegin(stream, 3) == AclError.ACL_ERROR_INVALID_PARAM
    assert aclmdlRICaptureEnd(stream) == (0, AclError.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert "not in capture status" in (acl.get_recent_err_msg() or "")
    assert aclmdlRIExecuteAsync(0, stream) == AclError.ACL_ERROR_INVALID_PARAM
    assert aclmdlRIDestroy(0x1234) == AclError.ACL_ERROR_RT_PARAM_INVALID
    assert aclmdlRICaptureGetInfo(0) == (0, 0, AclError.ACL_ERROR_INVALID_PARAM)


def test_global_mode_refuses_a_synchronous_copy_and_invalidates_the_capture(stream: int) -> None:
    """aclrtMemcpy while capturing in GLOBAL mode is 107030; the capture is INVALIDATED and ends with 507903."""
    dev = _dev(64)
    data = np.zeros(64, dtype=np.uint8)
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, H2D) == AclError.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert aclmdlRICaptureGetInfo(stream)[0] == INVALIDATED
    assert aclmdlRICaptureEnd(stream) == (0, AclError.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
    assert aclmdlRICaptureGetInfo(stream)[0] == NONE
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, H2D) == 0  # the capture is over


def test_relaxed_and_thread_local_modes_allow_what_they_allow(stream: int) -> None:
    """RELAXED refuses no synchronous copy; THREAD_LOCAL refuses it on the capturing thread only."""
    dev = _dev(64)
    data = np.arange(64, dtype=np.uint8)
    assert aclmdlRICaptureBegin(stream, RELAXED) == 0
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, H2D) == 0
    assert aclmdlRIDestroy(aclmdlRICaptureEnd(stream)[0]) == 0

    assert aclmdlRICaptureBegin(stream, THREAD_LOCAL) == 0
    results: list[int] = []

    def other() -> None:
        assert acl.rt.set_device(0) == 0
        results.append(acl.rt.memset(dev, 64, 1, 64))
        results.append(aclmdlRICaptureEnd(stream)[1])

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert results == [0, AclError.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD]
    assert acl.rt.memset(dev, 64, 1, 64) == AclError.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    assert aclmdlRICaptureEnd(stream)[1] == AclError.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED


def test_events_recorded_and_waited_inside_a_capture_are_replayed(stream: int) -> None:
    """A record on the captured stream happens when the model runs: the event completes only after execute."""
    other, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    dev = _dev(64)
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 3, 64, stream) == 0
    assert acl.rt.record_event(event, stream) == 0
    model, ret = aclmdlRICaptureEnd(stream)
    assert ret == 0
    assert acl.rt.query_event_status(event) == (c.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert aclmdlRIExecuteAsync(model, stream) == 0
    assert acl.rt.stream_wait_event(other, event) == 0
    host = np.zeros(64, dtype=np.uint8)
    assert acl.rt.synchronize_stream(other) == 0
    assert acl.rt.query_event_status(event) == (c.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    assert acl.rt.memcpy(host.ctypes.data, 64, dev, 64, D2H) == 0
    assert (host == 3).all()
    assert aclmdlRIDestroy(model) == 0


def test_a_model_never_destroyed_is_a_leak(stream: int) -> None:
    """The leak report names the model with the line of aclmdlRICaptureEnd's caller."""
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    model, _ = aclmdlRICaptureEnd(stream)
    found = [r for r in leak_report().direct if r.kind == "model_ri"]
    assert [r.key for r in found] == [model]
    assert found[0].site.top is not None and found[0].site.top.func == "test_a_model_never_destroyed_is_a_leak"


def test_a_thread_that_exchanges_its_mode_to_relaxed_may_copy_synchronously_during_a_global_capture(
    stream: int,
) -> None:
    """The runtime guide's pattern: GLOBAL capture, the thread swaps to RELAXED, aclrtMemcpy runs once (not
    captured), the thread swaps back; the capture stays valid and its model replays only the async work."""
    dev = _dev(64)
    data = np.full(64, 4, dtype=np.uint8)
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    assert aclmdlRICaptureThreadExchangeMode(RELAXED) == (GLOBAL, 0)
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, H2D) == 0
    assert aclmdlRICaptureThreadExchangeMode(GLOBAL) == (RELAXED, 0)
    assert acl.rt.memset_async(dev, 32, 1, 32, stream) == 0
    model, ret = aclmdlRICaptureEnd(stream)
    assert ret == 0
    host = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy(host.ctypes.data, 64, dev, 64, D2H) == 0
    assert (host == 4).all()  # the synchronous copy ran at once; the memset waits for the model
    assert aclmdlRIExecuteAsync(model, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(host.ctypes.data, 64, dev, 64, D2H) == 0
    assert (host[:32] == 1).all() and (host[32:] == 4).all()
    assert aclmdlRIDestroy(model) == 0


def test_a_thread_local_thread_is_not_held_by_another_threads_global_capture(stream: int) -> None:
    """A thread in THREAD_LOCAL mode may copy while another thread captures in GLOBAL mode; a GLOBAL thread may not."""
    dev = _dev(64)
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    results: list[int] = []

    def other(mode: int) -> None:
        assert acl.rt.set_device(0) == 0
        assert aclmdlRICaptureThreadExchangeMode(mode)[1] == 0
        results.append(acl.rt.memset(dev, 64, 1, 64))

    for mode in (THREAD_LOCAL, GLOBAL):
        worker = threading.Thread(target=other, args=(mode,))
        worker.start()
        worker.join()
    assert results == [0, AclError.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT]
    assert aclmdlRICaptureEnd(stream)[1] == AclError.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
    assert aclmdlRICaptureThreadExchangeMode(3) == (0, AclError.ACL_ERROR_INVALID_PARAM)


def test_resetting_the_device_abandons_a_capture_and_leaves_the_runtime_usable(stream: int) -> None:
    """A reset while a stream captures tears the stream down (its capture with it); the device works again."""
    assert aclmdlRICaptureBegin(stream, GLOBAL) == 0
    assert acl.rt.destroy_stream_force(stream) == STREAM_CAPTURED
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.set_device(0) == 0
    again, ret = acl.rt.create_stream()
    assert ret == 0
    assert aclmdlRICaptureBegin(again, GLOBAL) == 0
    model, ret = aclmdlRICaptureEnd(again)
    assert ret == 0
    assert aclmdlRIDestroy(model) == 0
