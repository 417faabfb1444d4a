"""Thread safety and interrupt safety of the runtime tables, pinned host memory and the streams.

Each race below is forced, not hoped for: a hook inside the reader lets another thread act at the
exact moment the unlocked code was exposed, so the test fails every time without the fix. The
interrupt tests raise KeyboardInterrupt from inside a running task, once.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from emulator import acl, process
from emulator.device.errors import InvalidHandle, TaskFailed
from emulator.device.interface import (
    Access,
    AddressKind,
    BlockContext,
    BufferArg,
    Direction,
    KernelLaunch,
    MemPolicy,
)
from emulator.device.simulated.host import PinnedHost, host_view
from emulator.device.simulated.npu import SimulatedNpu

KERNEL_FAILED = 507015  # ACL_ERROR_RT_AICORE_EXCEPTION
DMA_FAILED = 507013  # ACL_ERROR_RT_SYS_DMA
HOLD_S = 0.3  # how long a hook lets the other thread try to get in


def on_another_thread(action: Callable[[], None]) -> threading.Thread:
    """Start ``action`` on a new thread and give it HOLD_S to finish (it may be blocked by a lock)."""
    thread = threading.Thread(target=action)
    thread.start()
    thread.join(HOLD_S)
    return thread


class HookedList(list[int]):
    """A list that runs ``hook`` the first time an element is read."""

    def __init__(self, items: list[int], hook: Callable[[], None]) -> None:
        super().__init__(items)
        self._hook: Callable[[], None] | None = hook

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        hook, self._hook = self._hook, None
        if hook is not None:
            hook()
        return super().__getitem__(index)


# -- pinned host memory --------------------------------------------------------------------------


def test_pinned_lookup_while_another_thread_frees_sees_one_state() -> None:
    """contains() reads the starts and the sizes as one state, while another thread frees the buffer."""
    host = PinnedHost()
    addr = host.allocate(64)
    freeing: list[threading.Thread] = []
    host._starts = HookedList(host._starts, lambda: freeing.append(on_another_thread(lambda: host.release(addr))))

    assert host.contains(addr + 8) is True  # the free waited for the lookup; without the lock: IndexError
    freeing[0].join()
    assert host.contains(addr + 8) is False
    assert host.live() == {} and host.used == 0


# -- the heap's tables ---------------------------------------------------------------------------


class HookedDict(dict[int, object]):
    """A dict whose values() runs ``hook`` after yielding the first value (mid-iteration)."""

    def __init__(self, items: dict[int, object], hook: Callable[[], None]) -> None:
        super().__init__(items)
        self._hook: Callable[[], None] | None = hook

    def values(self) -> Iterator[object]:  # type: ignore[override]
        it = iter(dict.values(self))
        for first in it:
            yield first
            break
        hook, self._hook = self._hook, None
        if hook is not None:
            hook()
        yield from it


def test_live_allocations_while_another_thread_allocates() -> None:
    """The leak report's live list is one state even while another thread allocates."""
    npu = SimulatedNpu(0)
    for _ in range(2):
        npu.malloc(32, MemPolicy.HUGE_FIRST)
    allocating: list[threading.Thread] = []
    heap = npu.heap
    heap._live = HookedDict(
        heap._live,  # type: ignore[arg-type]
        lambda: allocating.append(on_another_thread(lambda: npu.malloc(32, MemPolicy.HUGE_FIRST) and None)),
    )
    assert len(npu.live_allocations()) == 2  # without the heap lock: dictionary changed size during iteration
    allocating[0].join()
    assert len(npu.live_allocations()) == 3


# -- the runtime's open-device table -------------------------------------------------------------


def test_classify_while_another_thread_opens_a_device() -> None:
    """Runtime.classify walks the open devices while another thread opens devices 1..3."""
    assert acl.rt.set_device(0) == 0
    runtime = process.current().runtime
    device0 = runtime.opened_devices()[0]
    original = device0.classify

    def open_more() -> None:
        for device_id in (1, 2, 3):
            assert acl.rt.set_device(device_id) == 0

    opener: list[threading.Thread] = []

    def classify_and_let_others_open(ptr: int) -> AddressKind:
        if not opener:
            opener.append(on_another_thread(open_more))
            opener[0].join()
        return original(ptr)

    device0.classify = classify_and_let_others_open  # type: ignore[method-assign]
    host = np.zeros(4, dtype=np.uint8)
    kind, device = runtime.classify(host.ctypes.data)  # without the snapshot: dictionary changed size
    assert (kind, device) == (AddressKind.UNREGISTERED, None)
    assert len(runtime.opened_devices()) == 4
    for device_id in (1, 2, 3):
        assert acl.rt.reset_device(device_id) == 0
    assert acl.rt.reset_device(0) == 0


# -- aclrtSynchronizeDevice against a stream destroy ---------------------------------------------


def test_synchronize_device_while_another_thread_destroys_a_stream() -> None:
    """A stream destroyed between the listing and its wait is skipped: the device sync returns 0."""
    assert acl.rt.set_device(0) == 0
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    first, ret = acl.rt.create_stream()
    assert ret == 0
    doomed, ret = acl.rt.create_stream()
    assert ret == 0
    device = process.current().runtime.opened_devices()[0]
    original = device.synchronize_stream
    destroyer: list[threading.Thread] = []

    def destroy_doomed() -> None:
        assert acl.rt.set_context(ctx) == 0
        assert acl.rt.destroy_stream(doomed) == 0

    def sync_and_let_another_destroy(stream: int, timeout_ms: int = -1) -> None:
        if not destroyer:
            destroyer.append(on_another_thread(destroy_doomed))
            destroyer[0].join()
        original(stream, timeout_ms)  # type: ignore[arg-type]

    device.synchronize_stream = sync_and_let_another_destroy  # type: ignore[assignment]
    assert acl.rt.synchronize_device() == 0  # was 107017: the stream handle has been destroyed
    assert acl.get_recent_err_msg() is None
    device.synchronize_stream = original  # type: ignore[method-assign]
    assert acl.rt.destroy_stream(first) == 0
    assert acl.rt.reset_device(0) == 0
    assert process.current().registry.count() == 0


def test_synchronize_device_still_reports_a_live_stream_that_is_invalid() -> None:
    """The skip is only for streams that left the context: a live stream's error still surfaces."""
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    runtime = process.current().runtime
    device = runtime.opened_devices()[0]

    def broken(stream: int, timeout_ms: int = -1) -> None:
        raise InvalidHandle("1. The stream handle has been destroyed. 2. The handle type must be stream")

    device.synchronize_stream = broken  # type: ignore[assignment]
    assert acl.rt.synchronize_device() == 107017
    del device.synchronize_stream
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0


# -- interrupt-safe streams ----------------------------------------------------------------------


@pytest.fixture
def npu() -> SimulatedNpu:
    return SimulatedNpu(0)


def interrupting_kernel(dev: int, written: list[int]) -> KernelLaunch:
    """A kernel that writes its first half, then is hit by KeyboardInterrupt (once)."""

    def func(ctx: BlockContext, out: np.ndarray) -> None:  # type: ignore[type-arg]
        out[:16] = 7
        written.append(1)
        if len(written) == 1:
            raise KeyboardInterrupt
        out[16:] = 7

    return KernelLaunch("half_writer", func, 1, (BufferArg(dev, 32, Access.WRITE),))


def test_interrupted_kernel_is_reported_by_the_next_synchronize(npu: SimulatedNpu) -> None:
    """The interrupt reaches the caller; the task is not lost: the next sync reports it as failed."""
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    written: list[int] = []
    npu.launch(interrupting_kernel(dev, written), s)
    npu.memset(dev + 0, 1, 0, s)  # a later task on the same stream still runs
    with pytest.raises(KeyboardInterrupt):
        npu.synchronize_stream(s)
    with pytest.raises(TaskFailed) as failed:  # the task's failure, not 0 over a half-written output
        npu.synchronize_stream(s)
    assert failed.value.status == KERNEL_FAILED
    assert "half_writer" in str(failed.value) and "KeyboardInterrupt" in str(failed.value)
    assert written == [1]  # never run twice
    npu.synchronize_stream(s)  # reported once
    assert npu.stream_done(s)


def test_interrupt_before_a_task_starts_leaves_it_queued(npu: SimulatedNpu) -> None:
    """An exception while a task waits for its dependency leaves the task queued; the next sync runs it."""
    s1, s2 = npu.create_stream(), npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    written: list[int] = []
    npu.launch(interrupting_kernel(dev, written), s1)
    ev = npu.create_event(None)
    npu.record_event(ev, s1)
    npu.stream_wait_event(s2, ev)
    host = np.zeros(32, dtype=np.uint8)
    npu.copy(host.ctypes.data, dev, 32, Direction.D2H, s2)
    with pytest.raises(KeyboardInterrupt):  # s2's wait drains s1 first, which is interrupted
        npu.synchronize_stream(s2)
    assert not npu.stream_done(s2)  # s2's wait and copy were not started: still queued
    npu.synchronize_stream(s2)
    assert np.all(host[:16] == 7)  # the copy ran, after the interrupted kernel ended
    with pytest.raises(TaskFailed) as failed:
        npu.synchronize_stream(s1)
    assert failed.value.status == KERNEL_FAILED


def test_real_sigint_during_a_kernel_is_reported_not_lost(npu: SimulatedNpu) -> None:
    """A real SIGINT (Ctrl-C) delivered while a kernel runs: KeyboardInterrupt, then the failure, never 0."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT does not raise KeyboardInterrupt here")
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    sent: list[int] = []

    def func(ctx: BlockContext, out: np.ndarray) -> None:  # type: ignore[type-arg]
        out[:16] = 7
        if not sent:
            sent.append(1)
            signal.raise_signal(signal.SIGINT)  # Python raises KeyboardInterrupt at its next check
        out[16:] = 7

    npu.launch(KernelLaunch("ctrl_c", func, 1, (BufferArg(dev, 32, Access.WRITE),)), s)
    with pytest.raises(KeyboardInterrupt):
        npu.synchronize_stream(s)
    with pytest.raises(TaskFailed) as failed:
        npu.synchronize_stream(s)
    assert failed.value.status == KERNEL_FAILED and "ctrl_c" in str(failed.value)


def test_interrupted_copy_is_a_dma_failure(npu: SimulatedNpu, monkeypatch: pytest.MonkeyPatch) -> None:
    s = npu.create_stream()
    dev = npu.malloc(32, MemPolicy.HUGE_FIRST)
    src = np.ones(32, dtype=np.uint8)
    npu.copy(dev, src.ctypes.data, 32, Direction.H2D, s)
    real_copyto = np.copyto
    calls: list[int] = []

    def interrupted_copyto(*args: object, **kwargs: object) -> None:
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "copyto", interrupted_copyto)
    with pytest.raises(KeyboardInterrupt):
        npu.synchronize_stream(s)
    monkeypatch.setattr(np, "copyto", real_copyto)
    with pytest.raises(TaskFailed) as failed:
        npu.synchronize_stream(s)
    assert failed.value.status == DMA_FAILED
    assert calls == [1]
    assert host_view(src.ctypes.data, 1)[0] == 1


def test_interrupted_acl_synchronize_returns_the_failure_next_time() -> None:
    """Through the C-named face: the interrupt escapes, then aclrtSynchronizeStream returns 507015 with a message."""
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(32, 0)
    assert ret == 0
    device = process.current().runtime.opened_devices()[0]
    assert isinstance(device, SimulatedNpu)
    written: list[int] = []
    device.launch(interrupting_kernel(dev, written), stream)  # type: ignore[arg-type]
    with pytest.raises(KeyboardInterrupt):
        acl.rt.synchronize_stream(stream)
    assert acl.rt.synchronize_stream(stream) == KERNEL_FAILED
    message = acl.get_recent_err_msg()
    assert message is not None and "half_writer" in message and "stopped part-way" in message
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert process.current().registry.count() == 0


def test_reset_device_interrupted_by_a_draining_kernel_can_be_redone() -> None:
    """An interrupt while reset drains a stream leaves the device set, so the reset can be repeated."""
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(32, 0)
    assert ret == 0
    device = process.current().runtime.opened_devices()[0]
    assert isinstance(device, SimulatedNpu)
    device.launch(interrupting_kernel(dev, []), stream)  # type: ignore[arg-type]
    with pytest.raises(KeyboardInterrupt):
        acl.rt.reset_device(0)
    assert acl.rt.free(dev) == 0  # the device is still set: its memory and context work
    assert acl.rt.reset_device(0) == 0  # was 507007: the count had dropped before the teardown ran
    assert acl.rt.reset_device(0) == 507007
    assert process.current().registry.count() == 0


def test_interrupted_parallel_kernel_has_no_block_still_writing() -> None:
    """Blocks on the pool: when the interrupt reaches the caller, every other block has stopped."""
    npu = SimulatedNpu(0, block_workers=2)
    npu.spare_cores = lambda: 1  # the pool is used whatever else the host runs
    s = npu.create_stream()
    size = 4 * 1024 * 1024  # at the threshold where blocks go to the pool
    dev = npu.malloc(size, MemPolicy.HUGE_FIRST)
    started = threading.Event()
    finished: list[int] = []

    def func(ctx: BlockContext, out: np.ndarray) -> None:  # type: ignore[type-arg]
        if ctx.block_idx == 0:
            started.wait(5)  # block 1 is running on the other worker when the interrupt comes
            raise KeyboardInterrupt
        started.set()
        time.sleep(HOLD_S)
        finished.append(ctx.block_idx)

    npu.launch(KernelLaunch("slow_blocks", func, 2, (BufferArg(dev, size, Access.WRITE),)), s)
    with pytest.raises(KeyboardInterrupt):
        npu.synchronize_stream(s)
    assert finished == [1]  # without the wait: [] (block 1 still running after the task was retired)
    with pytest.raises(TaskFailed):
        npu.synchronize_stream(s)
    npu.close()
