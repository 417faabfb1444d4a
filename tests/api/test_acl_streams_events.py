"""acl.rt streams and events.

Work queued on a stream runs only when something needs it (a synchronisation, a dependent
wait, a racing synchronous host operation, a destroy), so "queued but not done" is observable.
"""

from __future__ import annotations

import ctypes

import numpy as np

from emulator import acl, process
from emulator.status import AclError

H2H, H2D, D2H, D2D = 0, 1, 2, 3
EVENT_SYNC, EVENT_TIME_LINE = 0x1, 0x8
STREAM_PERSISTENT = 0x4
RECORDED_NOT_READY, RECORDED_COMPLETE = 0, 1  # aclrtEventRecordedStatus (query_event_status)
EVENT_COMPLETE, EVENT_NOT_READY = 0, 1  # aclrtEventStatus (deprecated query_event): inverted
STREAM_COMPLETE, STREAM_NOT_READY = 0, 1


def _device() -> None:
    assert acl.rt.set_device(0) == 0


def _stream() -> int:
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert stream != 0
    return stream


def _malloc(size: int) -> int:
    ptr, ret = acl.rt.malloc(size, 0)
    assert ret == 0
    return ptr


def _pinned(data: np.ndarray) -> int:
    ptr, ret = acl.rt.malloc_host(data.nbytes)
    assert ret == 0
    ctypes.memmove(ptr, data.ctypes.data, data.nbytes)
    return ptr


def _pinned_zeros(nbytes: int) -> int:
    return _pinned(np.zeros(nbytes, dtype=np.uint8))


def _host_bytes(ptr: int, nbytes: int) -> np.ndarray:
    return np.frombuffer(ctypes.string_at(ptr, nbytes), dtype=np.uint8)


def _read_device(ptr: int, nbytes: int) -> np.ndarray:
    out = np.zeros(nbytes, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, nbytes, ptr, nbytes, D2H) == 0
    return out


def _zeroed_device(nbytes: int) -> int:
    ptr = _malloc(nbytes)
    assert acl.rt.memset(ptr, nbytes, 0, nbytes) == 0
    return ptr


# -- create / destroy / synchronize -----------------------------------------------------------
def test_create_stream_needs_context() -> None:
    """aclrtCreateStream without a current context gives 107002."""
    assert acl.rt.create_stream() == (0, 107002)


def test_destroy_null_stream() -> None:
    """aclrtDestroyStream(NULL) gives 100000: the default stream cannot be destroyed this way (row 21)."""
    _device()
    assert acl.rt.destroy_stream(0) == 100000
    assert acl.rt.destroy_stream_force(0) == 100000


def test_destroy_stream_twice() -> None:
    """Destroying a stream twice gives 0 then 107017."""
    _device()
    stream = _stream()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == AclError.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.destroy_stream_force(stream) == 107017


def test_destroy_stream_of_other_context() -> None:
    """A stream created in context A destroyed while context B is current gives 107003."""
    ctx_a, _ = acl.rt.create_context(0)
    stream = _stream()
    ctx_b, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_stream(stream) == AclError.ACL_ERROR_RT_STREAM_CONTEXT
    assert acl.rt.set_context(ctx_a) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_context(ctx_b) == 0
    assert acl.rt.destroy_context(ctx_a) == 0


def test_synchronize_with_timeout_zero_and_below_minus_one() -> None:
    """Sync-with-timeout 0 and -2 give 107000; -1 (forever) and a positive timeout work (rows 24-25)."""
    _device()
    stream = _stream()
    assert acl.rt.synchronize_stream_with_timeout(stream, 0) == 107000
    assert acl.rt.synchronize_stream_with_timeout(stream, -2) == 107000
    assert acl.rt.synchronize_stream_with_timeout(stream, -1) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 1000) == 0


def test_synchronize_with_timeout_expires() -> None:
    """A stream whose queued work outlasts the timeout gives 507046 and keeps its work."""
    _device()
    stream = _stream()
    dev = _malloc(32)
    for _ in range(1500):  # each task costs at least 1 µs of simulated time: > 1 ms in total
        assert acl.rt.memset_async(dev, 32, 7, 32, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 1) == 507046
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "EE1002" in msg
    assert "Stream synchronize timeout." in msg
    assert acl.rt.stream_query(stream) == (STREAM_NOT_READY, 0)
    assert acl.rt.synchronize_stream(stream) == 0
    assert (_read_device(dev, 32) == 7).all()


def test_synchronize_stream_needs_context_for_default_stream() -> None:
    """Stream 0 means the current context's default stream; without a context that is 107002."""
    assert acl.rt.synchronize_stream(0) == 107002
    _device()
    assert acl.rt.synchronize_stream(0) == 0


def test_stream_query_not_ready_then_complete() -> None:
    """aclrtStreamQuery reads NOT_READY (1) while work is queued and COMPLETE (0) after a sync."""
    _device()
    stream = _stream()
    assert acl.rt.stream_query(stream) == (STREAM_COMPLETE, 0)
    dev = _malloc(64)
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0
    assert acl.rt.stream_query(stream) == (STREAM_NOT_READY, 0)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.stream_query(stream) == (STREAM_COMPLETE, 0)


def test_stream_query_stale_handle() -> None:
    """aclrtStreamQuery on a destroyed stream gives 107017."""
    _device()
    stream = _stream()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.stream_query(stream)[1] == 107017


def test_persistent_stream_synchronize_returns_at_once() -> None:
    """Synchronize on a PERSISTENT stream returns 0 without waiting for its tasks."""
    _device()
    stream, ret = acl.rt.create_stream_with_config(0, STREAM_PERSISTENT)
    assert ret == 0
    dev = _malloc(64)
    out = _pinned_zeros(64)
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0
    assert acl.rt.memcpy_async(out, 64, dev, 64, D2H, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert not _host_bytes(out, 64).any()


def test_stream_work_runs_in_submission_order() -> None:
    """Tasks of one stream run in order: a later memset wins over an earlier one."""
    _device()
    stream = _stream()
    dev = _malloc(64)
    for value in (1, 2, 3):
        assert acl.rt.memset_async(dev, 64, value, 64, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert (_read_device(dev, 64) == 3).all()


# -- cross-stream ordering and races ----------------------------------------------------------
def test_cross_stream_dependency_through_event() -> None:
    """Stream B waits for an event recorded on stream A; syncing B alone delivers A's data through B."""
    _device()
    stream_a, stream_b = _stream(), _stream()
    event, ret = acl.rt.create_event()
    assert ret == 0
    data = np.arange(256, dtype=np.uint8)
    src, out = _pinned(data), _pinned_zeros(256)
    dev, dev2 = _malloc(256), _malloc(256)
    assert acl.rt.memcpy_async(dev, 256, src, 256, H2D, stream_a) == 0
    assert acl.rt.record_event(event, stream_a) == 0
    assert acl.rt.stream_wait_event(stream_b, event) == 0
    assert acl.rt.memcpy_async(dev2, 256, dev, 256, D2D, stream_b) == 0
    assert acl.rt.memcpy_async(out, 256, dev2, 256, D2H, stream_b) == 0
    assert not _host_bytes(out, 256).any()
    assert acl.rt.synchronize_stream(stream_b) == 0
    np.testing.assert_array_equal(_host_bytes(out, 256), data)
    assert acl.rt.query_event_status(event) == (RECORDED_COMPLETE, 0)


def test_racing_host_read_is_reported_and_correct(emu: process.EmulatedProcess) -> None:
    """A sync D2H copy right after a queued H2D copy, without a sync, returns the right data and is a race."""
    _device()
    stream = _stream()
    data = np.arange(128, dtype=np.uint8)
    src = _pinned(data)
    dev = _malloc(128)
    assert acl.rt.memcpy_async(dev, 128, src, 128, H2D, stream) == 0
    device = process.current().runtime.current_device()
    assert device.races == []
    out = np.zeros(128, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 128, dev, 128, D2H) == 0
    np.testing.assert_array_equal(out, data)
    assert len(device.races) == 1
    race = device.races[0]
    assert race.stream == stream
    assert race.addr == dev


def test_no_race_after_synchronize() -> None:
    """A host read after synchronize_stream is not a race."""
    _device()
    stream = _stream()
    src = _pinned(np.arange(64, dtype=np.uint8))
    dev = _malloc(64)
    assert acl.rt.memcpy_async(dev, 64, src, 64, H2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    _read_device(dev, 64)
    assert process.current().runtime.current_device().races == []


# -- events -----------------------------------------------------------------------------------
def test_event_record_synchronize_query_status() -> None:
    """query_event_status is NOT_READY before record and while pending, COMPLETE after synchronize_event."""
    _device()
    stream = _stream()
    event, ret = acl.rt.create_event()
    assert ret == 0
    assert acl.rt.query_event_status(event) == (RECORDED_NOT_READY, 0)
    dev = _malloc(64)
    assert acl.rt.memset_async(dev, 64, 9, 64, stream) == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.query_event_status(event) == (RECORDED_NOT_READY, 0)
    assert acl.rt.synchronize_event(event) == 0
    assert acl.rt.query_event_status(event) == (RECORDED_COMPLETE, 0)
    assert acl.rt.stream_query(stream) == (STREAM_COMPLETE, 0)
    assert acl.rt.destroy_event(event) == 0


def test_ex_event_reads_complete_before_record() -> None:
    """An Ex event that was never recorded reads COMPLETE in query_event_status."""
    _device()
    event, ret = acl.rt.create_event_ex_with_flag(EVENT_SYNC)
    assert ret == 0
    assert acl.rt.query_event_status(event) == (RECORDED_COMPLETE, 0)


def test_query_event_deprecated_inverted_enum() -> None:
    """Deprecated query_event uses the inverted enum (COMPLETE 0, NOT_READY 1) and refuses Ex events."""
    _device()
    stream = _stream()
    event, _ = acl.rt.create_event()
    assert acl.rt.query_event(event) == (EVENT_NOT_READY, 0)
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.query_event(event) == (EVENT_COMPLETE, 0)
    ex_event, _ = acl.rt.create_event_ex_with_flag(EVENT_SYNC)
    assert acl.rt.query_event(ex_event)[1] == 207000


def test_elapsed_time_unrecorded_event() -> None:
    """aclrtEventElapsedTime with an unrecorded event gives 507000."""
    _device()
    stream = _stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.event_elapsed_time(start, end) == (0.0, AclError.ACL_ERROR_RT_INTERNAL_ERROR)


def _timed_copy() -> tuple[int, int, int]:
    """A stream with start / end events recorded around a 1 MiB pinned H2D copy, nothing synchronised."""
    stream = _stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    src = _pinned(np.ones(1 << 20, dtype=np.uint8))
    dev = _malloc(1 << 20)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memcpy_async(dev, 1 << 20, src, 1 << 20, H2D, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    return stream, start, end


def test_elapsed_time_recorded_but_not_synchronized() -> None:
    """Both events recorded but not finished (no timestamp yet) gives 107006."""
    _device()
    _, start, end = _timed_copy()
    assert acl.rt.event_elapsed_time(start, end)[1] == 107006


def test_elapsed_time_after_sync_is_positive() -> None:
    """After synchronising the stream the elapsed time is a positive float in ms."""
    _device()
    stream, start, end = _timed_copy()
    assert acl.rt.synchronize_stream(stream) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    assert isinstance(ms, float)
    assert ms > 0


def test_elapsed_time_null_event() -> None:
    """A null event in aclrtEventElapsedTime gives 100000."""
    _device()
    event, _ = acl.rt.create_event()
    assert acl.rt.event_elapsed_time(0, event)[1] == 100000
    assert acl.rt.event_elapsed_time(event, 0)[1] == 100000


def test_reset_event_on_ex_event() -> None:
    """aclrtResetEvent on an Ex event gives 207000."""
    _device()
    stream = _stream()
    event, ret = acl.rt.create_event_ex_with_flag(EVENT_SYNC)
    assert ret == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.reset_event(event, stream) == AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


def test_reset_event_returns_to_unrecorded() -> None:
    """aclrtResetEvent on a SYNC WithFlag event returns it to the unrecorded (NOT_READY) state once it runs."""
    _device()
    stream = _stream()
    event, ret = acl.rt.create_event_with_flag(EVENT_SYNC)
    assert ret == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.query_event_status(event) == (RECORDED_COMPLETE, 0)
    assert acl.rt.reset_event(event, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.query_event_status(event) == (RECORDED_NOT_READY, 0)


def test_event_without_sync_flag_cannot_be_waited_or_reset() -> None:
    """A TIME_LINE-only event used in StreamWaitEvent or ResetEvent gives 207000."""
    _device()
    stream = _stream()
    event, ret = acl.rt.create_event_with_flag(EVENT_TIME_LINE)
    assert ret == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.stream_wait_event(stream, event) == 207000
    assert acl.rt.reset_event(event, stream) == 207000


def test_event_flags_zero_or_unknown() -> None:
    """Event flag 0 or unknown bits give 107000, for WithFlag and ExWithFlag alike."""
    _device()
    assert acl.rt.create_event_with_flag(0) == (0, 107000)
    assert acl.rt.create_event_ex_with_flag(0) == (0, 107000)
    assert acl.rt.create_event_with_flag(0x80)[1] == 107000


def test_destroy_null_event() -> None:
    """destroy_event(NULL) gives 100000."""
    _device()
    assert acl.rt.destroy_event(0) == 100000


def test_destroy_event_twice() -> None:
    """A second destroy of the same event gives 107017."""
    _device()
    event, _ = acl.rt.create_event()
    assert acl.rt.destroy_event(event) == 0
    assert acl.rt.destroy_event(event) == 107017


def test_synchronize_event_with_timeout_checks() -> None:
    """synchronize_event_with_timeout: 0 and -2 give 107000; -1 waits."""
    _device()
    stream = _stream()
    event, _ = acl.rt.create_event()
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.synchronize_event_with_timeout(event, 0) == 107000
    assert acl.rt.synchronize_event_with_timeout(event, -2) == 107000
    assert acl.rt.synchronize_event_with_timeout(event, -1) == 0


# -- synchronize_device / destroy with pending work -------------------------------------------
def test_synchronize_device_waits_for_streams_of_current_context() -> None:
    """synchronize_device drains every stream of the current context, and no stream of another context."""
    _device()
    primary, _ = acl.rt.get_context()
    ctx_b, _ = acl.rt.create_context(0)
    stream_b = _stream()
    dev_b = _malloc(64)
    assert acl.rt.memset_async(dev_b, 64, 2, 64, stream_b) == 0
    assert acl.rt.set_context(primary) == 0
    stream_1, stream_2 = _stream(), _stream()
    dev_1, dev_2, dev_0 = _malloc(64), _malloc(64), _malloc(64)
    assert acl.rt.memset_async(dev_1, 64, 3, 64, stream_1) == 0
    assert acl.rt.memset_async(dev_2, 64, 4, 64, stream_2) == 0
    assert acl.rt.memset_async(dev_0, 64, 5, 64, 0) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.stream_query(stream_1) == (STREAM_COMPLETE, 0)
    assert acl.rt.stream_query(stream_2) == (STREAM_COMPLETE, 0)
    assert acl.rt.stream_query(0) == (STREAM_COMPLETE, 0)
    assert acl.rt.set_context(ctx_b) == 0
    assert acl.rt.stream_query(stream_b) == (STREAM_NOT_READY, 0)
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.stream_query(stream_b) == (STREAM_COMPLETE, 0)
    assert acl.rt.destroy_context(ctx_b) == 0


def test_synchronize_device_with_timeout_below_minus_one() -> None:
    """synchronize_device_with_timeout(-2) gives 107000."""
    _device()
    assert acl.rt.synchronize_device_with_timeout(-2) == 107000
    assert acl.rt.synchronize_device_with_timeout(-1) == 0


def test_destroy_stream_waits_for_pending_work() -> None:
    """destroy_stream runs the queued tasks first: the copied data arrives."""
    _device()
    stream = _stream()
    data = np.arange(64, dtype=np.uint8)
    src = _pinned(data)
    dev = _zeroed_device(64)
    assert acl.rt.memcpy_async(dev, 64, src, 64, H2D, stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    np.testing.assert_array_equal(_read_device(dev, 64), data)
    assert process.current().runtime.current_device().races == []


def test_destroy_stream_force_drops_pending_work() -> None:
    """destroy_stream_force drops the queued tasks: the copy never happens."""
    _device()
    stream = _stream()
    src = _pinned(np.arange(64, dtype=np.uint8) + 1)
    dev = _zeroed_device(64)
    assert acl.rt.memcpy_async(dev, 64, src, 64, H2D, stream) == 0
    assert acl.rt.destroy_stream_force(stream) == 0
    assert not _read_device(dev, 64).any()
