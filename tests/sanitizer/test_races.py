"""Races: a host access or a task on another stream that nothing orders after a queued task.

Each race is a ``ReportKind.RACE`` report whose site is the host call that made the racing
access (the synchronous copy, or the call that enqueued the task) and which names the line that
enqueued the queued task. Stream order, events (also through a third stream) and host
synchronisation order accesses; two reads never race. Strict mode raises for races too.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.diagnostics import ReportKind, UndefinedBehaviour

H2D = c.ACL_MEMCPY_HOST_TO_DEVICE
D2H = c.ACL_MEMCPY_DEVICE_TO_HOST
D2D = c.ACL_MEMCPY_DEVICE_TO_DEVICE
N = 256


def _line_of(marker: str) -> int:
    with open(__file__, encoding="utf-8") as source:
        return next(i for i, text in enumerate(source, 1) if text.rstrip().endswith(f"# {marker}"))


@pytest.fixture
def streams() -> tuple[int, int, int]:
    assert acl.rt.set_device(0) == 0
    made = [acl.rt.create_stream() for _ in range(3)]
    assert all(ret == 0 for _, ret in made)
    return made[0][0], made[1][0], made[2][0]


class Pinned:
    """Page-locked host memory (an async copy from pageable memory is done at once, so it never queues)."""

    def __init__(self, data: np.ndarray) -> None:
        self.ptr, ret = acl.rt.malloc_host(data.nbytes)
        assert ret == 0
        ctypes.memmove(self.ptr, data.ctypes.data, data.nbytes)

    @property
    def ctypes(self) -> Pinned:  # so that host.ctypes.data reads as it does for a numpy array
        return self

    @property
    def data(self) -> int:
        return int(self.ptr)


def _buffers() -> tuple[int, int, Pinned]:
    a, ret = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    b, ret = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    return a, b, Pinned(np.arange(N, dtype=np.uint8))


def _races(emu: process.EmulatedProcess) -> list[str]:
    return [str(d) for d in emu.diagnostics.of_kind(ReportKind.RACE)]


def test_host_read_before_sync_names_both_host_lines(
    emu: process.EmulatedProcess, streams: tuple[int, int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    s1, _, _ = streams
    a, _, host = _buffers()
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0  # enqueued-here
    back = np.zeros(N, dtype=np.uint8)
    assert acl.rt.memcpy(back.ctypes.data, N, a, N, D2H) == 0  # raced-here
    np.testing.assert_array_equal(back, np.arange(N, dtype=np.uint8))  # the queued work ran first: deterministic
    [race] = emu.diagnostics.of_kind(ReportKind.RACE)
    assert race.site.top is not None and (race.site.top.file, race.site.top.line) == (__file__, _line_of("raced-here"))
    assert [(label, str(site)) for label, site in race.related] == [
        ("the queued task was enqueued at", f"{__file__}:{_line_of('enqueued-here')}")
    ]
    assert f"{N} bytes at {a:#x}" in race.message and f"stream {s1:#x} still writes" in race.message
    [line] = [x for x in capsys.readouterr().err.splitlines() if x.startswith("opbase-emu: race: ")]
    assert line.startswith(f"opbase-emu: race: {__file__}:{_line_of('raced-here')}: aclrtMemcpy D2H: ")
    assert f"the queued task was enqueued at {__file__}:{_line_of('enqueued-here')}" in line


def test_a_task_on_another_stream_races_a_queued_write(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0  # writer-here
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s2) == 0  # reader-here
    [race] = emu.diagnostics.of_kind(ReportKind.RACE)
    assert race.api == "memcpy_async D2D"
    assert race.site.top is not None and race.site.top.line == _line_of("reader-here")
    assert str(race.related[0][1]) == f"{__file__}:{_line_of('writer-here')}"
    assert f"on stream {s2:#x}" in race.message and f"queued on stream {s1:#x} writes" in race.message
    assert "no event orders the two streams" in race.message
    assert race.on_a_card.startswith("on a card two streams run concurrently")
    # the device keeps the report too, with both streams
    [device_race] = emu.runtime.current_device().races
    assert (device_race.stream, device_race.operation_stream, device_race.addr) == (s1, s2, a)


def test_a_write_after_a_queued_read_on_another_stream_races(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    assert acl.rt.memcpy(a, N, host.ctypes.data, N, H2D) == 0
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s1) == 0  # reads a
    assert acl.rt.memset_async(a, N, 0, N, s2) == 0  # writes a
    [race] = emu.diagnostics.of_kind(ReportKind.RACE)
    assert "queued on stream" in race.message and " reads, " in race.message


def test_two_reads_never_race(emu: process.EmulatedProcess, streams: tuple[int, int, int]) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    c2, ret = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and acl.rt.memcpy(a, N, host.ctypes.data, N, H2D) == 0
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s1) == 0
    assert acl.rt.memcpy_async(c2, N, a, N, D2D, s2) == 0
    assert _races(emu) == []


def test_an_event_orders_the_streams(emu: process.EmulatedProcess, streams: tuple[int, int, int]) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    event, ret = acl.rt.create_event()
    assert ret == 0
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0
    assert acl.rt.record_event(event, s1) == 0
    assert acl.rt.stream_wait_event(s2, event) == 0
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s2) == 0
    assert acl.rt.synchronize_stream(s2) == 0
    assert _races(emu) == []


def test_an_event_through_a_third_stream_orders_too(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, s3 = streams
    a, b, host = _buffers()
    first, _ = acl.rt.create_event()
    second, _ = acl.rt.create_event()
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0
    assert acl.rt.record_event(first, s1) == 0
    assert acl.rt.stream_wait_event(s2, first) == 0
    assert acl.rt.record_event(second, s2) == 0
    assert acl.rt.stream_wait_event(s3, second) == 0
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s3) == 0
    assert _races(emu) == []


def test_an_event_recorded_before_the_write_does_not_order_it(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    event, _ = acl.rt.create_event()
    assert acl.rt.record_event(event, s1) == 0
    assert acl.rt.stream_wait_event(s2, event) == 0
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0  # after the record
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s2) == 0
    assert len(_races(emu)) == 1


def test_host_synchronisation_orders_the_streams(emu: process.EmulatedProcess, streams: tuple[int, int, int]) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0
    assert acl.rt.synchronize_stream(s1) == 0
    assert acl.rt.memcpy_async(b, N, a, N, D2D, s2) == 0
    assert _races(emu) == []


def test_kernels_on_two_streams_race_on_a_shared_output(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, _ = streams
    a, b, _ = _buffers()
    values = np.ones(N // 4, dtype=np.float32)
    assert acl.rt.memcpy(a, N, values.ctypes.data, N, H2D) == 0
    shape = [N // 4]
    x = aclnn.aclCreateTensor(shape, 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, shape, 1, a)
    out = aclnn.aclCreateTensor(shape, 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, shape, 1, b)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    for stream in (s1, s2):
        ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
        assert ret == 0 and ws == 0
        assert aclnn.aclnnAdd(0, 0, executor, stream) == 0  # add-here
    [race] = emu.diagnostics.of_kind(ReportKind.RACE)
    assert race.api.startswith("kernel ")
    assert race.site.top is not None and race.site.top.line == _line_of("add-here")
    assert acl.rt.synchronize_device() == 0
    for obj in (x, out):
        aclnn.aclDestroyTensor(obj)
    aclnn.aclDestroyScalar(alpha)


def test_strict_mode_raises_for_races_and_enqueues_nothing(
    emu: process.EmulatedProcess, streams: tuple[int, int, int]
) -> None:
    s1, s2, _ = streams
    a, b, host = _buffers()
    emu.strict = True
    assert acl.rt.memcpy_async(a, N, host.ctypes.data, N, H2D, s1) == 0
    with pytest.raises(UndefinedBehaviour) as caught:
        acl.rt.memcpy_async(b, N, a, N, D2D, s2)
    assert caught.value.kind is ReportKind.RACE
    assert emu.runtime.current_device().stream_done(s2)  # the racing copy was refused, not queued
    with pytest.raises(UndefinedBehaviour):
        acl.rt.memcpy(host.ctypes.data, N, a, N, D2H)
