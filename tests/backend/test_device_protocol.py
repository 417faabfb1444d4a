"""One suite, every backend: the Device protocol behaves the same on SimulatedNpu and AscendNpu.

AscendNpu is driven here through the emulator's own pyACL face (it takes any module with
pyACL's layout), which exercises the real-hardware backend's code on a machine without a card.
On a card, set OPBASE_EMU_BACKEND=ascend and the same behaviours hold against real pyACL.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from emulator import acl, process, trace
from emulator.device import errors
from emulator.device.ascend import AscendNpu
from emulator.device.interface import (
    Access,
    BufferArg,
    Device,
    Direction,
    GiB,
    KernelLaunch,
    MemPolicy,
    MiB,
    PageKind,
    StreamId,
)
from emulator.device.simulated import SimulatedNpu

EVENT_SYNC = 0x1


@pytest.fixture(params=["simulated", "ascend"])
def device(request: pytest.FixtureRequest, emu: process.EmulatedProcess) -> Iterator[Device]:
    if request.param == "simulated":
        yield SimulatedNpu(0)
    else:
        dev = AscendNpu(0, acl_module=acl)
        yield dev
        dev.close()


def test_sync_round_trip(device: Device) -> None:
    """Bytes copied host -> device -> host come back unchanged."""
    data = np.arange(1000, dtype=np.int32)
    out = np.zeros_like(data)
    ptr = device.malloc(data.nbytes, 0)
    device.copy(ptr, data.ctypes.data, data.nbytes, Direction.H2D, None)
    device.copy(out.ctypes.data, ptr, data.nbytes, Direction.D2H, None)
    assert np.array_equal(out, data)
    device.free(ptr)


def test_async_copy_lands_after_stream_sync(device: Device) -> None:
    """An async copy from pinned memory on a stream is complete after synchronising that stream."""
    stream = device.create_stream()
    pinned = device.malloc_host(64)
    np.ctypeslib.as_array((np.ctypeslib.ctypes.c_uint8 * 64).from_address(pinned))[:] = 7
    ptr = device.malloc(64, 0)
    device.copy(ptr, pinned, 64, Direction.H2D, stream)
    device.synchronize_stream(stream)
    out = np.zeros(64, dtype=np.uint8)
    device.copy(out.ctypes.data, ptr, 64, Direction.D2H, None)
    assert (out == 7).all()
    device.free(ptr)
    device.free_host(pinned)
    device.destroy_stream(stream)


def test_memset_fills_low_byte(device: Device) -> None:
    """memset writes the low byte of the value into every byte."""
    ptr = device.malloc(32, 0)
    device.memset(ptr, 0x1AB, 32, None)
    out = np.zeros(32, dtype=np.uint8)
    device.copy(out.ctypes.data, ptr, 32, Direction.D2H, None)
    assert (out == 0xAB).all()
    device.free(ptr)


def test_allocation_accounting(device: Device) -> None:
    """mem_info's free drops by the page-rounded charge of an allocation and comes back on free."""
    before = device.mem_info().free
    ptr = device.malloc(100, 0)
    info = device.allocation(ptr)
    assert info is not None and info.alloc_size == 160 and info.charged == 4096
    assert before - device.mem_info().free == 4096
    device.free(ptr)
    assert device.mem_info().free == before


@pytest.mark.parametrize(
    ("size", "policy", "padded", "alloc_size", "charged", "page_kind"),
    [
        (100, MemPolicy.HUGE_FIRST, True, 160, 4096, PageKind.NORMAL),
        (100, MemPolicy.HUGE_FIRST, False, 128, 4096, PageKind.NORMAL),  # aclrtMallocAlign32: no pad
        (MiB, MemPolicy.HUGE_FIRST, True, MiB + 32, 2 * MiB, PageKind.HUGE),  # the pad tips it over 1 MiB
        (64, MemPolicy.HUGE_ONLY, True, 96, 2 * MiB, PageKind.HUGE),
        (3 * MiB, MemPolicy.NORMAL_ONLY, True, 3 * MiB + 32, 3 * MiB + 4096, PageKind.NORMAL),
        (100, MemPolicy.HUGE1G_ONLY, True, 128, GiB, PageKind.GIANT),  # 1 GiB pages: never padded
    ],
)
def test_every_backend_reports_the_runtime_sizing(
    device: Device, size: int, policy: int, padded: bool, alloc_size: int, charged: int, page_kind: PageKind
) -> None:
    """What an allocation occupies is the real runtime's rule on every backend (910B2: pad 32, 1 GiB pages)."""
    ptr = device.malloc(size, policy, padded=padded, tag="probe")
    info = device.allocation(ptr)
    assert info is not None
    assert (info.addr, info.size, info.policy, info.tag) == (ptr, size, policy, "probe")
    assert (info.alloc_size, info.charged, info.page_kind) == (alloc_size, charged, page_kind)
    assert info in device.live_allocations()
    assert device.free(ptr) == info
    assert device.allocation(ptr) is None


@pytest.mark.parametrize(
    ("size", "policy", "padded"), [(100, 0, True), (MiB, 0, True), (64, MemPolicy.NORMAL_ONLY, False)]
)
def test_allocate_answers_with_the_record_allocation_keeps(
    device: Device, size: int, policy: int, padded: bool
) -> None:
    """The runtime's one call per aclrtMalloc: allocate gives the AllocationInfo that allocation() then reports."""
    info = device.allocate(size, policy, padded=padded, tag="probe")
    assert device.allocation(info.addr) == info
    assert (info.size, info.policy, info.tag) == (size, policy, "probe")
    other = device.malloc(size, policy, padded=padded, tag="probe")  # malloc: the same call, the address only
    assert device.allocation(other) == info._replace(addr=other)
    assert device.free(info.addr) == info
    device.free(other)


def test_free_host_returns_the_reserved_size(device: Device) -> None:
    """Pinned memory is reserved in 32-byte steps; free_host says how much came back."""
    ptr = device.malloc_host(100)
    assert ptr % 64 == 0
    assert device.free_host(ptr) == 128


def test_double_free_is_a_driver_error(device: Device) -> None:
    """Freeing twice fails with the driver's 507899 the second time."""
    ptr = device.malloc(16, 0)
    device.free(ptr)
    with pytest.raises(errors.DeviceError) as caught:
        device.free(ptr)
    assert caught.value.status == 507899


def test_out_of_memory_status(device: Device) -> None:
    """Asking for more than the device holds fails with 207001."""
    with pytest.raises(errors.DeviceError) as caught:
        device.malloc(device.soc.memory_size, 0)
    assert caught.value.status == 207001


def test_event_timing(device: Device) -> None:
    """Two events around a copy give a non-negative elapsed time once synchronised."""
    stream = device.create_stream()
    start, end = device.create_event(None), device.create_event(None)
    ptr = device.malloc(4096, 0)
    device.record_event(start, stream)
    device.memset(ptr, 0, 4096, stream)
    device.record_event(end, stream)
    device.synchronize_stream(stream)
    assert device.event_state(end) == (True, True)
    assert device.event_elapsed_ms(start, end) >= 0.0
    for event in (start, end):
        device.destroy_event(event)
    device.free(ptr)
    device.destroy_stream(stream)


def test_python_kernels_run_only_on_the_simulator(device: Device) -> None:
    """A Python SPMD kernel runs per block on the simulator; a card refuses it with 207000."""
    stream = device.create_stream()
    ptr = device.malloc(16, 0)
    seen: list[int] = []
    arg = BufferArg(ptr, 16, Access.WRITE)
    launch = KernelLaunch("probe", lambda ctx, view: seen.append(ctx.block_idx), 4, (arg,))
    assert device.caps.runs_python_kernels is isinstance(device, SimulatedNpu)
    if device.caps.runs_python_kernels:
        device.launch(launch, stream)
        device.synchronize_stream(stream)
        assert seen == [0, 1, 2, 3]
    else:
        with pytest.raises(errors.FeatureNotSupported):
            device.launch(launch, stream)
        assert seen == []
    device.free(ptr)
    device.destroy_stream(stream)


def test_ex_events_are_told_apart(device: Device) -> None:
    """An event from aclrtCreateEventExWithFlag is marked Ex; the other creations are not."""
    ex, plain, default = (
        device.create_event(EVENT_SYNC, ex=True),
        device.create_event(EVENT_SYNC),
        device.create_event(None),
    )
    assert [device.event_is_ex(e) for e in (ex, plain, default)] == [True, False, False]
    for event in (ex, plain, default):
        device.destroy_event(event)


def test_device_synchronize_runs_every_stream(device: Device) -> None:
    """synchronize() completes queued work on all the device's streams."""
    streams = [device.create_stream(), device.create_stream()]
    ptr = device.malloc(128, 0)
    for i, stream in enumerate(streams):  # each stream its own bytes: two memsets of the same bytes would race
        device.memset(ptr + 64 * i, 3, 64, stream)
    device.synchronize()
    assert all(device.stream_done(stream) for stream in streams)
    device.free(ptr)
    for stream in streams:
        device.destroy_stream(stream)


def test_task_listeners_see_every_task_or_are_refused(device: Device) -> None:
    """With the capability a listener hears each task with its stream; without it, 207000, never silence."""
    stream = device.create_stream()
    ptr = device.malloc(64, 0)
    heard: list[tuple[StreamId, str]] = []

    def listener(sid: StreamId, name: str, start_us: float, duration_us: float) -> None:
        assert start_us >= 0.0 and duration_us >= 0.0
        heard.append((sid, name))

    if device.caps.supports_task_listeners:
        device.add_task_listener(listener)
        device.memset(ptr, 0, 64, stream)
        device.synchronize_stream(stream)
        assert heard == [(stream, "memset_async")]
    else:
        with pytest.raises(errors.FeatureNotSupported) as caught:
            device.add_task_listener(listener)
        assert caught.value.status == 207000
    device.free(ptr)
    device.destroy_stream(stream)


def test_races_are_reported_or_refused(device: Device) -> None:
    """A synchronous read of memory a queued task writes is a race report; a backend that cannot see it says so."""
    stream = device.create_stream()
    ptr = device.malloc(64, 0)
    out = np.zeros(64, dtype=np.uint8)
    if device.caps.detects_races:
        device.memset(ptr, 9, 64, stream)
        device.copy(out.ctypes.data, ptr, 64, Direction.D2H, None)
        assert [(r.operation, r.addr, r.task, r.stream) for r in device.races] == [
            ("aclrtMemcpy D2H", ptr, "memset_async", stream)
        ]
        assert (out == 9).all()
    else:
        with pytest.raises(errors.FeatureNotSupported) as caught:
            _ = device.races
        assert caught.value.status == 207000
    device.synchronize_stream(stream)
    device.free(ptr)
    device.destroy_stream(stream)


def test_a_card_refuses_eager_mode(emu: process.EmulatedProcess) -> None:
    """Eager (run at enqueue) is a simulator debugging switch; the real-card backend refuses it outright."""
    with pytest.raises(errors.FeatureNotSupported):
        AscendNpu(0, acl_module=acl, eager=True)
    assert SimulatedNpu(0, eager=True).eager


@pytest.mark.parametrize("backend", ["simulated", "ascend"])
def test_trace_follows_the_task_listener_capability(
    backend: str, emu: process.EmulatedProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trace listens where it can and writes a note where it cannot, instead of an unexplained empty lane."""
    device: Device = SimulatedNpu(0) if backend == "simulated" else AscendNpu(0, acl_module=acl)
    monkeypatch.setattr(emu.runtime, "opened_devices", lambda: [device])
    tracer = trace.start_trace(emu)
    try:
        stream = device.create_stream()
        ptr = device.malloc(64, 0)
        device.memset(ptr, 0, 64, stream)
        device.synchronize_stream(stream)
        device.free(ptr)
        device.destroy_stream(stream)
    finally:
        trace.stop_trace(emu)
        device.close()
    kinds = [ev.kind for ev in tracer.events]
    if backend == "simulated":
        assert "task" in kinds and "note" not in kinds
    else:
        assert "task" not in kinds and kinds.count("note") == 1
        assert "AscendNpu does not report device tasks" in tracer.text()
        assert any(e.get("cat") == "note" for e in tracer.chrome()["traceEvents"])
