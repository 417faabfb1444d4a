"""Host callbacks: subscribe_report / launch_callback / process_report / unsubscribe_report, and util threads.

The rule under test (docs/runtime.md): a callback runs on the subscribed thread after the stream's
earlier tasks; process_report on that thread drives the deferred stream up to it; a
synchronisation waits for blocking callbacks, never for non-blocking ones.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from structlog.testing import capture_logs

from emulator import acl, process

H2D, D2H = 1, 2
NO_BLOCK, BLOCK = 0, 1


@dataclass
class ReportThread:
    """An ACLLite-style report thread: acl.util.start_thread running a process_report loop."""

    context: int
    running: bool = True
    results: list[int] = field(default_factory=list)
    tid: int = 0

    def loop(self, args: list[Any]) -> None:
        acl.rt.set_context(args[0])
        while self.running:
            self.results.append(acl.rt.process_report(20))

    def start(self) -> int:
        self.tid, ret = acl.util.start_thread(self.loop, [self.context])
        assert ret == 0
        return self.tid

    def stop(self) -> None:
        self.running = False
        assert acl.util.stop_thread(self.tid) == 0


@pytest.fixture
def stream() -> Iterator[int]:
    assert acl.rt.set_device(0) == 0
    s, ret = acl.rt.create_stream()
    assert ret == 0
    yield s
    acl.rt.destroy_stream_force(s)
    acl.rt.reset_device(0)


@pytest.fixture
def reporter(stream: int) -> Iterator[ReportThread]:
    ctx, _ = acl.rt.get_context()
    thread = ReportThread(ctx)
    assert acl.rt.subscribe_report(thread.start(), stream) == 0
    yield thread
    acl.rt.unsubscribe_report(thread.tid, stream)
    thread.stop()


def _device_with(values: np.ndarray, stream: int) -> int:
    ptr, _ = acl.rt.malloc(values.nbytes, 0)
    assert acl.rt.memcpy_async(ptr, values.nbytes, values.ctypes.data, values.nbytes, H2D, stream) == 0
    return ptr


def _read(ptr: int, count: int) -> list[float]:
    out = np.zeros(count, dtype=np.float32)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H) == 0
    return out.tolist()


def test_process_report_alone_drives_the_stream(stream: int, reporter: ReportThread) -> None:
    """Without any synchronisation, the report loop runs the earlier copy, then the callback on its thread."""
    ptr = _device_with(np.arange(4, dtype=np.float32), stream)
    seen: list[tuple[int, list[float], object]] = []
    called = threading.Event()

    def callback(user_data: list[int]) -> None:
        seen.append((threading.get_ident(), _read(ptr, 4), user_data))
        called.set()

    assert acl.rt.launch_callback(callback, [7, 8], BLOCK, stream) == 0
    assert called.wait(10)
    assert seen == [(reporter.tid, [0.0, 1.0, 2.0, 3.0], [7, 8])]
    assert acl.rt.synchronize_stream(stream) == 0
    acl.rt.free(ptr)


def test_callbacks_run_in_launch_order_and_sync_waits_for_blocking(stream: int, reporter: ReportThread) -> None:
    """Three callbacks arrive in order; synchronize_stream returns only after the blocking ones ran."""
    order: list[int] = []
    for i in range(3):
        assert acl.rt.launch_callback(order.append, i, BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert order == [0, 1, 2]


def test_synchronize_device_waits_for_blocking_callbacks(stream: int, reporter: ReportThread) -> None:
    """aclrtSynchronizeDevice waits for the context's streams' blocking callbacks too."""
    done: list[str] = []
    assert acl.rt.launch_callback(done.append, "x", BLOCK, stream) == 0
    assert acl.rt.synchronize_device() == 0
    assert done == ["x"]


def test_a_blocking_callback_holds_the_stream(stream: int) -> None:
    """With no thread processing reports, a sync waits for a blocking callback (507046 on timeout) but not a
    non-blocking one."""
    assert acl.rt.subscribe_report(4242, stream) == 0  # a thread id nobody processes for
    assert acl.rt.launch_callback(print, None, NO_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.launch_callback(print, None, BLOCK, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 50) == 507046
    assert acl.rt.unsubscribe_report(4242, stream) == 0  # drops the reports that never ran
    assert acl.rt.synchronize_stream(stream) == 0


def test_the_subscribed_thread_runs_its_own_callbacks_inline(stream: int) -> None:
    """A sync on the subscribed thread itself runs its pending callbacks rather than waiting for itself."""
    me = threading.get_ident()
    ran: list[int] = []
    assert acl.rt.subscribe_report(me, stream) == 0
    assert acl.rt.launch_callback(lambda data: ran.append(threading.get_ident()), None, BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert ran == [me]
    assert acl.rt.unsubscribe_report(me, stream) == 0


def test_process_report_on_the_main_thread(stream: int) -> None:
    """The loop can be the program's own thread: a callback runs inside its process_report."""
    me = threading.get_ident()
    got: list[object] = []
    assert acl.rt.subscribe_report(me, stream) == 0
    assert acl.rt.launch_callback(got.append, ["data"], NO_BLOCK, stream) == 0
    assert acl.rt.process_report(100) == 0
    assert got == [["data"]]
    assert acl.rt.process_report(10) == 507012  # nothing left: the wait times out
    assert acl.get_recent_err_msg() is None  # the real call only logs it
    assert acl.rt.unsubscribe_report(me, stream) == 0


def test_subscription_errors(stream: int) -> None:
    """A stream binds to one thread (107011); unsubscribing another thread's stream is 107012."""
    assert acl.rt.subscribe_report(11, stream) == 0
    assert acl.rt.subscribe_report(12, stream) == 107011
    assert acl.rt.unsubscribe_report(12, stream) == 107012
    assert acl.rt.unsubscribe_report(11, stream) == 0
    assert acl.rt.unsubscribe_report(11, stream) == 107011


def test_a_thread_serves_one_device() -> None:
    """A thread bound to a stream of device 0 cannot take one of device 1 (107012)."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.subscribe_report(77, 0) == 0
    assert acl.rt.set_device(1) == 0
    assert acl.rt.subscribe_report(77, 0) == 107012


def test_launch_errors(stream: int) -> None:
    """No subscription: 107015 with EE1018; a bad block type 100000 (EH0007); no function 107000."""
    assert acl.rt.launch_callback(print, None, BLOCK, stream) == 107015
    msg = acl.get_recent_err_msg()
    assert msg is not None and "EE1018" in msg and "aclrtSubscribeReport" in msg
    assert acl.rt.subscribe_report(5, stream) == 0
    assert acl.rt.launch_callback(print, None, 2, stream) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None and "EH0007" in msg and "blockType" in msg
    assert acl.rt.launch_callback(None, None, BLOCK, stream) == 107000
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.launch_callback("print", None, BLOCK, stream)  # type: ignore[arg-type]
    assert acl.rt.unsubscribe_report(5, stream) == 0


def test_process_report_errors() -> None:
    """timeout 0 or below -1 is 100000 (EH0009); a thread with no subscription gets a silent 107012."""
    assert acl.rt.process_report(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None and "EH0009" in msg and "Value 0 for parameter timeout is invalid" in msg
    assert acl.rt.process_report(-2) == 100000
    assert acl.get_recent_err_msg() is not None
    assert acl.rt.process_report(10) == 107012
    assert acl.get_recent_err_msg() is None


def test_a_raising_callback_does_not_stop_the_loop(stream: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The callback's exception is logged and printed; process_report returns 0 and later callbacks run."""
    me = threading.get_ident()
    later: list[int] = []

    def broken(data: object) -> None:
        raise RuntimeError("user bug")

    assert acl.rt.subscribe_report(me, stream) == 0
    acl.rt.launch_callback(broken, None, BLOCK, stream)
    acl.rt.launch_callback(later.append, 1, BLOCK, stream)
    with capture_logs() as logs:
        assert acl.rt.process_report(100) == 0
    assert later == [1]
    assert any(e["event"] == "report.callback_raised" for e in logs)
    assert "RuntimeError: user bug" in capsys.readouterr().err
    acl.rt.unsubscribe_report(me, stream)


def test_destroying_a_stream_drops_its_subscription(stream: int) -> None:
    """After the stream is gone the thread has nothing subscribed: process_report is 107012."""
    me = threading.get_ident()
    extra, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(me, extra) == 0
    assert acl.rt.destroy_stream(extra) == 0
    assert acl.rt.process_report(10) == 107012


def test_util_threads() -> None:
    """start_thread runs func(args) on a real thread whose id it returns; stop_thread joins it once."""
    seen: list[tuple[int, list[int]]] = []
    tid, ret = acl.util.start_thread(lambda args: seen.append((threading.get_ident(), args)), [1, 2])
    assert ret == 0
    assert acl.util.stop_thread(tid) == 0
    assert seen == [(tid, [1, 2])]
    assert acl.util.stop_thread(tid) == 100000
    with pytest.raises(TypeError, match="start_thread args parse failed"):
        acl.util.start_thread(print, (1,))  # type: ignore[arg-type]


def test_callbacks_from_several_processes_do_not_mix() -> None:
    """Each emulated process has its own subscriptions."""
    with process.fresh():
        acl.rt.set_device(0)
        assert acl.rt.subscribe_report(99, 0) == 0
    with process.fresh():
        acl.rt.set_device(0)
        assert acl.rt.subscribe_report(99, 0) == 0


def test_a_blocking_callback_reads_its_batch_before_the_next_overwrites_it(stream: int, reporter: ReportThread) -> None:
    """The ACLLite async pattern: batch 2's queued copy into the same buffer waits until batch 1's callback
    (on the report thread) has read it, and the callback's own copy is no race."""
    ptr, _ = acl.rt.malloc(16, 0)
    pinned, _ = acl.rt.malloc_host(32)  # pinned host memory: the async copies are queued, not done at once
    for i in (0, 1):
        acl.util.ptr_to_numpy(pinned + 16 * i, (4,), 11)[:] = i + 1.0
    seen: list[list[float]] = []
    for i in (0, 1):
        acl.rt.memcpy_async(ptr, 16, pinned + 16 * i, 16, H2D, stream)
        acl.rt.launch_callback(lambda _: seen.append(_read(ptr, 4)), None, BLOCK, stream)
    assert acl.rt.synchronize_stream(stream) == 0
    assert seen == [[1.0] * 4, [2.0] * 4]
    acl.rt.free(ptr)
    acl.rt.free_host(pinned)


def test_a_device_reset_drops_the_subscriptions_of_its_streams() -> None:
    """The last reset destroys the context's streams, and their subscriptions go with them."""
    me = threading.get_ident()
    assert acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(me, stream) == 0
    assert acl.rt.subscribe_report(me, 0) == 0  # the default stream too
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.process_report(10) == 107012
