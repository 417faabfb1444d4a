"""Streams, events and kernels of the simulated NPU (device/simulated/streams.py, npu.py).

Streams are asynchronous but deterministic: queued work runs only when something needs it, in
order per stream.
"""

from __future__ import annotations

import numpy as np
import pytest

from emulator.device.errors import (
    EventNotRecorded,
    EventSyncTimeout,
    EventTimestampInvalid,
    FeatureNotSupported,
    InvalidHandle,
    InvalidValue,
    NoStreamResource,
    StreamSyncTimeout,
    UnifiedBufferOverflow,
)
from emulator.device.interface import (
    Access,
    BlockContext,
    BufferArg,
    Direction,
    KernelLaunch,
    MemPolicy,
    RaceReport,
)
from emulator.device.simulated import cost
from emulator.device.simulated.host import host_view
from emulator.device.simulated.npu import SimulatedNpu
from emulator.device.soc import load_soc

EVENT_SYNC = 0x1
EVENT_TIME_LINE = 0x8
EVENT_EXTERNAL = 0x20
EVENT_IPC = 0x40


@pytest.fixture
def npu() -> SimulatedNpu:
    return SimulatedNpu(0, load_soc("Ascend910B2"))


def device_bytes(npu: SimulatedNpu, ptr: int, n: int) -> np.ndarray:
    """The device bytes as they are now, read without running (or race-checking) queued work."""
    return npu.heap.view(ptr, n, "test").copy()


def pattern(n: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


def slow_kernel(name: str, ptr: int, duration_us: float, calls: list[str] | None = None) -> KernelLaunch:
    """A one-block kernel that states its own duration and records that it ran."""

    def func(ctx: BlockContext, view: np.ndarray) -> None:
        if calls is not None:
            calls.append(name)

    return KernelLaunch(name, func, 1, (BufferArg(ptr, 32, Access.READ_WRITE),), duration_us=duration_us)


# -- deferred, ordered execution -----------------------------------------------------------------


def test_async_copy_is_deferred_until_synchronize(npu: SimulatedNpu) -> None:
    """An async H2D copy leaves device memory untouched until its stream is synchronized."""
    s = npu.create_stream()
    dev = npu.malloc(256, MemPolicy.HUGE_FIRST)
    src = pattern(256)
    npu.copy(dev, src.ctypes.data, 256, Direction.H2D, s)
    assert np.all(device_bytes(npu, dev, 256) == 0xFF)
    assert not npu.stream_done(s)
    assert npu.scheduler.pending_tasks(s) == 1
    npu.synchronize_stream(s)
    np.testing.assert_array_equal(device_bytes(npu, dev, 256), src)
    assert npu.stream_done(s)
    assert npu.races == []


def test_async_d2h_lands_in_host_memory_only_after_sync(npu: SimulatedNpu) -> None:
    """An async D2H copy writes the host buffer only at synchronisation."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(dev, 0x5A, 64, None)
    out = np.zeros(64, dtype=np.uint8)
    npu.copy(out.ctypes.data, dev, 64, Direction.D2H, s)
    assert np.all(out == 0)
    npu.synchronize_stream(s)
    assert np.all(out == 0x5A)


def test_tasks_of_one_stream_run_in_submission_order(npu: SimulatedNpu) -> None:
    """Tasks on one stream run in the order they were submitted; the last writer wins."""
    s = npu.create_stream()
    dev = npu.malloc(128, MemPolicy.HUGE_FIRST)
    first, second = pattern(128, 1), pattern(128, 2)
    calls: list[str] = []
    npu.copy(dev, first.ctypes.data, 128, Direction.H2D, s)
    npu.launch(slow_kernel("k1", dev, 1.0, calls), s)
    npu.memset(dev, 0x33, 128, s)
    npu.launch(slow_kernel("k2", dev, 1.0, calls), s)
    npu.copy(dev, second.ctypes.data, 128, Direction.H2D, s)
    npu.launch(slow_kernel("k3", dev, 1.0, calls), s)
    assert calls == []
    npu.synchronize_stream(s)
    assert calls == ["k1", "k2", "k3"]
    np.testing.assert_array_equal(device_bytes(npu, dev, 128), second)


def test_streams_are_independent_without_events(npu: SimulatedNpu) -> None:
    """Synchronizing one stream runs none of another stream's work."""
    a, b = npu.create_stream(), npu.create_stream()
    dev_a = npu.malloc(64, MemPolicy.HUGE_FIRST)
    dev_b = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(dev_a, 1, 64, a)
    npu.memset(dev_b, 2, 64, b)
    npu.synchronize_stream(b)
    assert np.all(device_bytes(npu, dev_b, 64) == 2)
    assert np.all(device_bytes(npu, dev_a, 64) == 0xFF)
    assert not npu.stream_done(a)
    npu.synchronize()
    assert np.all(device_bytes(npu, dev_a, 64) == 1)


def test_cross_stream_dependency_through_event(npu: SimulatedNpu) -> None:
    """Stream B waiting on an event recorded on A after a copy makes A's copy run first when B syncs."""
    a, b = npu.create_stream(), npu.create_stream()
    src_dev = npu.malloc(512, MemPolicy.HUGE_FIRST)
    dst_dev = npu.malloc(512, MemPolicy.HUGE_FIRST)
    data = pattern(512, 7)
    ev = npu.create_event(None)
    npu.copy(src_dev, data.ctypes.data, 512, Direction.H2D, a)
    npu.record_event(ev, a)
    npu.stream_wait_event(b, ev)
    npu.copy(dst_dev, src_dev, 512, Direction.D2D, b)
    out = np.zeros(512, dtype=np.uint8)
    npu.copy(out.ctypes.data, dst_dev, 512, Direction.D2H, b)
    assert npu.event_state(ev) == (True, False)
    npu.synchronize_stream(b)
    np.testing.assert_array_equal(out, data)
    np.testing.assert_array_equal(device_bytes(npu, dst_dev, 512), data)
    assert npu.stream_done(a)
    assert npu.event_state(ev) == (True, True)
    assert npu.races == []


def test_wait_captures_only_work_submitted_before_the_record(npu: SimulatedNpu) -> None:
    """A wait depends on the tasks before the record, not on work queued on A afterwards."""
    a, b = npu.create_stream(), npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    late = npu.malloc(64, MemPolicy.HUGE_FIRST)
    ev = npu.create_event(None)
    npu.memset(dev, 0x10, 64, a)
    npu.record_event(ev, a)
    npu.memset(late, 0x20, 64, a)
    npu.stream_wait_event(b, ev)
    npu.synchronize_stream(b)
    assert np.all(device_bytes(npu, dev, 64) == 0x10)
    assert np.all(device_bytes(npu, late, 64) == 0xFF)
    assert npu.scheduler.pending_tasks(a) == 1


# -- races with synchronous host operations ------------------------------------------------------


def test_sync_d2h_racing_pending_async_write_is_reported(npu: SimulatedNpu) -> None:
    """A sync D2H of memory a queued H2D writes is reported as a race and returns post-task data."""
    s = npu.create_stream()
    dev = npu.malloc(256, MemPolicy.HUGE_FIRST)
    data = pattern(256, 3)
    npu.copy(dev, data.ctypes.data, 256, Direction.H2D, s)
    out = np.zeros(256, dtype=np.uint8)
    npu.copy(out.ctypes.data, dev, 256, Direction.D2H, None)
    np.testing.assert_array_equal(out, data)
    assert npu.races == [RaceReport("aclrtMemcpy D2H", dev, 256, "memcpy_async H2D", s)]
    assert npu.stream_done(s)


def test_race_listeners_receive_each_report(npu: SimulatedNpu) -> None:
    """Every race report is also passed to the registered listeners."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    seen: list[RaceReport] = []
    npu.race_listeners.append(seen.append)
    npu.memset(dev, 1, 64, s)
    npu.memset(dev, 2, 64, None)
    assert seen == npu.races
    assert len(seen) == 1
    assert seen[0].task == "memset_async"
    assert np.all(device_bytes(npu, dev, 64) == 2)


def test_sync_read_of_disjoint_memory_is_no_race(npu: SimulatedNpu) -> None:
    """A sync copy of memory no queued task uses reports nothing and leaves the queue alone."""
    s = npu.create_stream()
    busy = npu.malloc(64, MemPolicy.HUGE_FIRST)
    idle = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(busy, 1, 64, s)
    out = np.zeros(64, dtype=np.uint8)
    npu.copy(out.ctypes.data, idle, 64, Direction.D2H, None)
    assert npu.races == []
    assert not npu.stream_done(s)


def test_free_of_memory_a_queued_task_uses_is_a_race(npu: SimulatedNpu) -> None:
    """aclrtFree of memory a queued task writes reports the race and runs that task first."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(dev, 1, 64, s)
    npu.free(dev)
    assert len(npu.races) == 1
    assert npu.races[0].task == "memset_async"
    assert npu.stream_done(s)
    assert npu.heap.used == 0


def test_eager_mode_runs_at_once_and_reports_no_race() -> None:
    """With eager on, an async copy runs at submission, so a following sync read is no race."""
    npu = SimulatedNpu(0, load_soc("Ascend910B2"), eager=True)
    s = npu.create_stream()
    dev = npu.malloc(128, MemPolicy.HUGE_FIRST)
    data = pattern(128, 5)
    npu.copy(dev, data.ctypes.data, 128, Direction.H2D, s)
    np.testing.assert_array_equal(device_bytes(npu, dev, 128), data)
    assert npu.stream_done(s)
    out = np.zeros(128, dtype=np.uint8)
    npu.copy(out.ctypes.data, dev, 128, Direction.D2H, None)
    np.testing.assert_array_equal(out, data)
    assert npu.races == []


def test_free_host_of_pinned_memory_a_queued_copy_reads_is_a_race(npu: SimulatedNpu) -> None:
    """aclrtFreeHost of pinned memory a queued H2D copy still reads is reported and the copy runs first."""
    s = npu.create_stream()
    pinned = npu.malloc_host(64)
    keep_alive = npu.host._buffers[pinned][0]  # so the buggy path cannot read freed memory
    host_view(pinned, 64)[:] = 7
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.copy(dev, pinned, 64, Direction.H2D, s)
    npu.free_host(pinned)
    assert len(npu.races) == 1
    assert npu.races[0].task == "memcpy_async H2D"
    assert npu.stream_done(s)
    assert np.all(device_bytes(npu, dev, 64) == 7)
    del keep_alive


def test_sync_read_of_host_buffer_pending_async_d2h_is_a_race(npu: SimulatedNpu) -> None:
    """A sync H2D from a host buffer that a queued D2H writes is reported and sees the D2H's data."""
    s = npu.create_stream()
    src = npu.malloc(64, MemPolicy.HUGE_FIRST)
    dst = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(src, 9, 64, None)
    staging = np.zeros(64, dtype=np.uint8)
    npu.copy(staging.ctypes.data, src, 64, Direction.D2H, s)
    npu.copy(dst, staging.ctypes.data, 64, Direction.H2D, None)
    assert len(npu.races) == 1
    assert np.all(device_bytes(npu, dst, 64) == 9)


# -- timeouts ------------------------------------------------------------------------------------


def test_stream_sync_timeout_leaves_work_pending(npu: SimulatedNpu) -> None:
    """A sync whose timeout is shorter than the queued work fails with 507046; a plain sync finishes it."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    calls: list[str] = []
    npu.launch(slow_kernel("slow", dev, 5000.0, calls), s)  # 5 ms
    with pytest.raises(StreamSyncTimeout) as exc:
        npu.synchronize_stream(s, timeout_ms=1)
    assert exc.value.status == 507046
    assert calls == []
    assert not npu.stream_done(s)
    npu.synchronize_stream(s, timeout_ms=10)
    assert calls == ["slow"]
    assert npu.stream_done(s)


def test_stream_sync_without_timeout_completes_long_work(npu: SimulatedNpu) -> None:
    """A plain sync (timeout -1) finishes work of any simulated length."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    calls: list[str] = []
    npu.launch(slow_kernel("slow", dev, 1e9, calls), s)
    npu.synchronize_stream(s)
    assert calls == ["slow"]


def test_event_sync_timeout(npu: SimulatedNpu) -> None:
    """An event sync whose timeout is shorter than the captured work fails with 507047 and runs nothing."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    calls: list[str] = []
    ev = npu.create_event(None)
    npu.launch(slow_kernel("slow", dev, 5000.0, calls), s)
    npu.record_event(ev, s)
    with pytest.raises(EventSyncTimeout) as exc:
        npu.synchronize_event(ev, timeout_ms=2)
    assert exc.value.status == 507047
    assert calls == []
    assert npu.event_state(ev) == (True, False)
    npu.synchronize_event(ev)
    assert calls == ["slow"]
    assert npu.event_state(ev) == (True, True)


def test_stream_sync_with_zero_timeout_is_invalid_value(npu: SimulatedNpu) -> None:
    """SynchronizeStreamWithTimeout(0) fails with 107000: the runtime requires -1 or a positive timeout."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    npu.memset(dev, 1, 32, s)
    with pytest.raises(InvalidValue) as exc:
        npu.synchronize_stream(s, timeout_ms=0)
    assert exc.value.status == 107000
    assert not npu.stream_done(s)


def test_event_sync_with_zero_timeout_is_invalid_value(npu: SimulatedNpu) -> None:
    """SynchronizeEventWithTimeout(0) fails with 107000 (the header's '0 = poll' is wrong for this code)."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    ev = npu.create_event(None)
    npu.memset(dev, 1, 32, s)
    npu.record_event(ev, s)
    with pytest.raises(InvalidValue) as exc:
        npu.synchronize_event(ev, timeout_ms=0)
    assert exc.value.status == 107000
    assert npu.event_state(ev) == (True, False)


# -- event timing --------------------------------------------------------------------------------


def test_elapsed_time_of_never_recorded_event_is_internal_error(npu: SimulatedNpu) -> None:
    """ElapsedTime with an event that was never recorded fails with 507000 (recorder null)."""
    s = npu.create_stream()
    start, end = npu.create_event(None), npu.create_event(None)
    with pytest.raises(EventNotRecorded) as exc:
        npu.event_elapsed_ms(start, end)
    assert exc.value.status == 507000
    npu.record_event(start, s)
    npu.synchronize_stream(s)
    with pytest.raises(EventNotRecorded) as exc:
        npu.event_elapsed_ms(start, end)
    assert exc.value.status == 507000


def test_elapsed_time_before_sync_is_timestamp_invalid(npu: SimulatedNpu) -> None:
    """ElapsedTime on recorded but unfinished events fails with 107006."""
    s = npu.create_stream()
    dev = npu.malloc(1024, MemPolicy.HUGE_FIRST)
    start, end = npu.create_event(None), npu.create_event(None)
    npu.record_event(start, s)
    npu.memset(dev, 0, 1024, s)
    npu.record_event(end, s)
    with pytest.raises(EventTimestampInvalid) as exc:
        npu.event_elapsed_ms(start, end)
    assert exc.value.status == 107006


def test_elapsed_time_equals_cost_model_duration(npu: SimulatedNpu) -> None:
    """After sync, ElapsedTime is the cost-model duration (ms) of the tasks between the two records."""
    s = npu.create_stream()
    n = 1 * 1024 * 1024
    dev = npu.malloc(n, MemPolicy.HUGE_FIRST)
    host = pattern(n, 11)
    start, end = npu.create_event(None), npu.create_event(None)
    npu.memset(dev, 0, n, s)  # before the start record: not counted
    npu.record_event(start, s)
    npu.copy(dev, host.ctypes.data, n, Direction.H2D, s)
    npu.memset(dev, 1, 4096, s)
    npu.record_event(end, s)
    npu.synchronize_stream(s)
    elapsed = npu.event_elapsed_ms(start, end)
    expected_us = cost.copy_us(npu.soc, n, Direction.H2D) + cost.memset_us(npu.soc, 4096)
    assert isinstance(elapsed, float)
    assert elapsed > 0
    assert elapsed == pytest.approx(expected_us / 1000.0)


def test_elapsed_time_of_kernel_uses_its_stated_duration(npu: SimulatedNpu) -> None:
    """A kernel launched with duration_us contributes exactly that to ElapsedTime."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    start, end = npu.create_event(EVENT_TIME_LINE), npu.create_event(EVENT_TIME_LINE | EVENT_SYNC)
    npu.record_event(start, s)
    npu.launch(slow_kernel("k", dev, 250.0), s)
    npu.record_event(end, s)
    npu.synchronize_event(end)
    assert npu.event_elapsed_ms(start, end) == pytest.approx(0.25)


@pytest.mark.parametrize("flag", [EVENT_EXTERNAL, EVENT_IPC])
def test_elapsed_time_of_external_or_ipc_event_is_unsupported(npu: SimulatedNpu, flag: int) -> None:
    """ElapsedTime involving an EXTERNAL or IPC event fails with 207000."""
    s = npu.create_stream()
    plain, special = npu.create_event(None), npu.create_event(flag, ex=True)
    npu.record_event(plain, s)
    npu.record_event(special, s)
    npu.synchronize_stream(s)
    with pytest.raises(FeatureNotSupported) as exc:
        npu.event_elapsed_ms(plain, special)
    assert exc.value.status == 207000


# -- stream lifetime -----------------------------------------------------------------------------


def test_destroy_stream_waits_for_pending_tasks(npu: SimulatedNpu) -> None:
    """DestroyStream runs the queued work before the stream goes away, so the data lands."""
    s = npu.create_stream()
    dev = npu.malloc(128, MemPolicy.HUGE_FIRST)
    data = pattern(128, 9)
    npu.copy(dev, data.ctypes.data, 128, Direction.H2D, s)
    npu.destroy_stream(s)
    np.testing.assert_array_equal(device_bytes(npu, dev, 128), data)


def test_destroy_stream_force_drops_pending_tasks(npu: SimulatedNpu) -> None:
    """DestroyStreamForce drops the queued work: the copy never happens."""
    s = npu.create_stream()
    dev = npu.malloc(128, MemPolicy.HUGE_FIRST)
    data = pattern(128, 9)
    npu.copy(dev, data.ctypes.data, 128, Direction.H2D, s)
    npu.destroy_stream(s, force=True)
    assert np.all(device_bytes(npu, dev, 128) == 0xFF)
    out = np.zeros(128, dtype=np.uint8)
    npu.copy(out.ctypes.data, dev, 128, Direction.D2H, None)
    assert np.all(out == 0xFF)
    assert npu.races == []


def test_destroyed_stream_handle_is_invalid(npu: SimulatedNpu) -> None:
    """Every use of a destroyed stream handle fails with 107017."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    ev = npu.create_event(None)
    npu.destroy_stream(s)
    calls = [
        lambda: npu.synchronize_stream(s),
        lambda: npu.destroy_stream(s),
        lambda: npu.destroy_stream(s, force=True),
        lambda: npu.memset(dev, 0, 64, s),
        lambda: npu.copy(dev, dev + 32, 32, Direction.D2D, s),
        lambda: npu.record_event(ev, s),
        lambda: npu.stream_wait_event(s, ev),
        lambda: npu.launch(slow_kernel("k", dev, 1.0), s),
        lambda: npu.stream_done(s),
    ]
    for call in calls:
        with pytest.raises(InvalidHandle) as exc:
            call()
        assert exc.value.status == 107017


def test_destroyed_event_handle_is_invalid(npu: SimulatedNpu) -> None:
    """Every use of a destroyed event handle fails with 107017."""
    s = npu.create_stream()
    ev = npu.create_event(None)
    npu.destroy_event(ev)
    for call in (
        lambda: npu.record_event(ev, s),
        lambda: npu.synchronize_event(ev),
        lambda: npu.destroy_event(ev),
        lambda: npu.event_state(ev),
    ):
        with pytest.raises(InvalidHandle) as exc:
            call()
        assert exc.value.status == 107017


def test_stream_limit_is_no_stream_resource() -> None:
    """Creating more streams than the SoC allows fails with 207008; destroying one frees a slot."""
    soc = load_soc("Ascend910B2").model_copy(update={"max_streams": 2})
    npu = SimulatedNpu(0, soc)
    first = npu.create_stream()
    npu.create_stream()
    with pytest.raises(NoStreamResource) as exc:
        npu.create_stream()
    assert exc.value.status == 207008
    npu.destroy_stream(first)
    third = npu.create_stream()
    assert third != first


def test_stream_handles_are_distinct_per_device() -> None:
    """Streams of two devices never share a handle value."""
    soc = load_soc("Ascend910B2")
    a, b = SimulatedNpu(0, soc), SimulatedNpu(1, soc)
    assert a.create_stream() != b.create_stream()


# -- event flags ---------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", [0, 0x4, 0x80, 0x100, EVENT_EXTERNAL | EVENT_SYNC, EVENT_IPC | EVENT_TIME_LINE])
def test_invalid_event_flags_are_rejected(npu: SimulatedNpu, flags: int) -> None:
    """Flag 0, unknown bits, or EXTERNAL/IPC combined with others fail with 107000."""
    with pytest.raises(InvalidValue) as exc:
        npu.create_event(flags)
    assert exc.value.status == 107000


@pytest.mark.parametrize(
    "flags", [EVENT_SYNC, EVENT_TIME_LINE, EVENT_SYNC | EVENT_TIME_LINE, 0x2, 0x10, EVENT_EXTERNAL, EVENT_IPC]
)
def test_valid_event_flags_are_accepted(npu: SimulatedNpu, flags: int) -> None:
    """Each known flag, alone or SYNC|TIME_LINE, creates an unrecorded event."""
    ev = npu.create_event(flags)
    assert npu.event_state(ev) == (False, False)


def test_wait_on_event_without_sync_flag_is_unsupported(npu: SimulatedNpu) -> None:
    """StreamWaitEvent on an event created without ACL_EVENT_SYNC fails with 207000."""
    s = npu.create_stream()
    ev = npu.create_event(EVENT_TIME_LINE)
    with pytest.raises(FeatureNotSupported) as exc:
        npu.stream_wait_event(s, ev)
    assert exc.value.status == 207000
    assert npu.stream_done(s)


def test_reset_on_ex_event_is_unsupported(npu: SimulatedNpu) -> None:
    """ResetEvent on an Ex-created event fails with 207000."""
    s = npu.create_stream()
    ev = npu.create_event(EVENT_SYNC, ex=True)
    with pytest.raises(FeatureNotSupported) as exc:
        npu.reset_event(ev, s)
    assert exc.value.status == 207000


def test_reset_on_event_without_sync_flag_is_unsupported(npu: SimulatedNpu) -> None:
    """ResetEvent on a WithFlag event lacking ACL_EVENT_SYNC fails with 207000."""
    s = npu.create_stream()
    ev = npu.create_event(EVENT_TIME_LINE)
    with pytest.raises(FeatureNotSupported) as exc:
        npu.reset_event(ev, s)
    assert exc.value.status == 207000


def test_reset_returns_event_to_unrecorded_when_it_runs(npu: SimulatedNpu) -> None:
    """ResetEvent is queued on the stream and unrecords the event once it runs."""
    s = npu.create_stream()
    ev = npu.create_event(EVENT_SYNC)
    npu.record_event(ev, s)
    npu.reset_event(ev, s)
    assert npu.event_state(ev)[0] is True
    npu.synchronize_stream(s)
    assert npu.event_state(ev) == (False, False)


# -- kernels ---------------------------------------------------------------------------------------


def test_kernel_runs_once_per_block_with_its_index(npu: SimulatedNpu) -> None:
    """A kernel's func runs once per block with block_idx 0..block_dim-1, tiling and the SoC UB size."""
    s = npu.create_stream()
    block_dim, chunk = 6, 16
    dev = npu.malloc(block_dim * chunk, MemPolicy.HUGE_FIRST)
    seen: list[BlockContext] = []

    def func(ctx: BlockContext, view: np.ndarray) -> None:
        seen.append(ctx)
        view[ctx.block_idx * chunk : (ctx.block_idx + 1) * chunk] = ctx.block_idx + 1

    launch = KernelLaunch(
        "fill_blocks",
        func,
        block_dim,
        (BufferArg(dev, block_dim * chunk, Access.WRITE),),
        tiling=b"\x01\x02",
        ub_bytes_per_block=npu.soc.ub_size,
    )
    npu.launch(launch, s)
    assert seen == []
    npu.synchronize_stream(s)
    assert [ctx.block_idx for ctx in seen] == list(range(block_dim))
    assert all(ctx.block_dim == block_dim for ctx in seen)
    assert all(ctx.tiling == b"\x01\x02" for ctx in seen)
    assert all(ctx.ub_size == npu.soc.ub_size for ctx in seen)
    expected = np.repeat(np.arange(1, block_dim + 1, dtype=np.uint8), chunk)
    np.testing.assert_array_equal(device_bytes(npu, dev, block_dim * chunk), expected)


def test_kernel_reading_racing_sync_write_is_reported(npu: SimulatedNpu) -> None:
    """A sync memset over memory a queued kernel reads is a race; the kernel sees the old data."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    npu.memset(dev, 4, 32, None)
    seen: list[int] = []

    def func(ctx: BlockContext, view: np.ndarray) -> None:
        seen.append(int(view[0]))

    npu.launch(KernelLaunch("reader", func, 1, (BufferArg(dev, 32, Access.READ),)), s)
    npu.memset(dev, 5, 32, None)
    assert seen == [4]
    assert [r.task for r in npu.races] == ["kernel reader"]


def test_kernel_block_dim_below_one_is_invalid(npu: SimulatedNpu) -> None:
    """A launch with block_dim 0 fails with 107000 at submission."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    launch = KernelLaunch("k", lambda ctx, view: None, 0, (BufferArg(dev, 32, Access.WRITE),))
    with pytest.raises(InvalidValue) as exc:
        npu.launch(launch, s)
    assert exc.value.status == 107000
    assert npu.stream_done(s)


def test_unified_buffer_overflow_surfaces_at_next_sync(npu: SimulatedNpu) -> None:
    """A block over the SoC's UB fails like an AI Core exception (507015) at the next sync; later tasks run."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    other = npu.malloc(64, MemPolicy.HUGE_FIRST)
    calls: list[int] = []

    def func(ctx: BlockContext, view: np.ndarray) -> None:
        calls.append(ctx.block_idx)
        view[:] = 0

    launch = KernelLaunch(
        "greedy", func, 4, (BufferArg(dev, 64, Access.WRITE),), ub_bytes_per_block=npu.soc.ub_size + 1
    )
    npu.launch(launch, s)
    npu.memset(other, 0x42, 64, s)
    with pytest.raises(UnifiedBufferOverflow) as exc:
        npu.synchronize_stream(s)
    assert exc.value.status == 507015
    assert calls == []
    assert np.all(device_bytes(npu, dev, 64) == 0xFF)
    assert np.all(device_bytes(npu, other, 64) == 0x42)
    assert npu.stream_done(s)
    npu.synchronize_stream(s)  # the failure is reported once


# -- memset --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "byte"), [(0x1AB, 0xAB), (0x12345678, 0x78), (-2, 0xFE), (0, 0)])
def test_memset_fills_low_byte_of_value(npu: SimulatedNpu, value: int, byte: int) -> None:
    """Memset truncates value to its low byte and fills exactly count bytes."""
    dev = npu.malloc(100, MemPolicy.HUGE_FIRST)
    npu.memset(dev + 10, value, 50, None)
    got = device_bytes(npu, dev, 160)
    assert np.all(got[10:60] == byte)
    assert np.all(got[:10] == 0xFF)
    assert np.all(got[60:] == 0xFF)


def test_async_memset_fills_low_byte_after_sync(npu: SimulatedNpu) -> None:
    """An async memset writes the low byte of value once its stream is synchronized."""
    s = npu.create_stream()
    dev = npu.malloc(64, MemPolicy.HUGE_FIRST)
    npu.memset(dev, 0x7F01, 64, s)
    assert np.all(device_bytes(npu, dev, 64) == 0xFF)
    npu.synchronize_stream(s)
    assert np.all(device_bytes(npu, dev, 64) == 0x01)


def test_memset_on_host_memory(npu: SimulatedNpu) -> None:
    """A memset at a host address fills host memory with the low byte."""
    host = np.zeros(64, dtype=np.uint8)
    npu.memset(host.ctypes.data, 0x3C3, 32, None)
    assert np.all(host[:32] == 0xC3)
    assert np.all(host[32:] == 0)
