"""Host callbacks on streams: aclrtSubscribeReport, aclrtLaunchCallback, aclrtProcessReport.

The real runtime binds a stream to one host thread (its id is what ``pthread_self`` gives, which
is ``threading.get_ident()`` in Python); a callback task launched on the stream is reported to
that thread when the stream reaches it, and the thread runs the callback inside its
aclrtProcessReport. A blocking callback holds the stream's later tasks until it has returned; a
non-blocking one lets them go on at once.

Streams here are deferred (tasks run when something needs them), so the rule is:

- ``launch`` records an internal event on the stream (the point "every earlier task is done")
  and queues the report for the subscribed thread; nothing runs yet. A blocking callback also
  holds the stream (``Device.hold_stream``): its later tasks stay queued until the callback has
  returned, even when the callback's own synchronous copies touch memory they use.
- ``process`` on the subscribed thread takes the queued reports in launch order, drives each
  stream up to its event (running the earlier tasks, on this thread), then calls the callback.
  An ACLLite-style loop that only calls aclrtProcessReport therefore sees its callbacks.
- a synchronisation of a stream (aclrtSynchronizeStream, aclrtSynchronizeDevice, a destroy)
  first waits until the stream's *blocking* callbacks have run on their thread, so the tasks
  queued after a blocking callback never run before it; non-blocking callbacks are not waited
  for. The subscribed thread itself does not wait for itself: its pending callbacks run inline.

Fidelity notes: the hold also hides the held tasks from the race check of host copies made on
other threads while the callback is pending (on a card those are races); on a backend without
holds (a card through pyACL) the emulator does not hold the stream; callback tasks have no
simulated duration.
"""

from __future__ import annotations

import contextlib
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from emulator.device import Device
from emulator.device.errors import (
    ReportTimeout,
    StatusError,
    StreamSubscribeError,
    StreamSyncTimeout,
    ThreadSubscribeError,
)
from emulator.device.interface import EventId, StreamId
from emulator.lazylog import lazy_logger

log = lazy_logger(__name__, logger_name="emulator.runtime")

StreamKey = tuple[int, int]  # (device id, stream id)


@dataclass(slots=True)
class Report:
    """One launched callback, waiting for its thread."""

    fn: Callable[[Any], object]
    user_data: object
    block: bool
    device: Device
    stream: StreamKey
    reached: EventId  # recorded on the stream when the callback was launched
    hold: int | None = None  # a blocking callback's hold on the stream's later tasks
    done: threading.Event = field(default_factory=threading.Event)


class Reports:
    """Subscriptions (stream -> thread) and each thread's queue of reports."""

    def __init__(self) -> None:
        self._thread_of: dict[StreamKey, int] = {}
        self._device_of_thread: dict[int, int] = {}
        self._queues: dict[int, deque[Report]] = {}
        self._pending: list[Report] = []  # launched and not yet run (queued or running)
        self._cond = threading.Condition()

    # -- subscriptions ----------------------------------------------------------------------
    def subscribe(self, thread_id: int, stream: StreamKey) -> None:
        with self._cond:
            if stream in self._thread_of:
                bound = self._thread_of[stream]
                raise StreamSubscribeError(
                    f"Subscribe report failed: stream {stream[1]} is already bound to thread {bound}.",
                    stream=stream[1],
                )
            device = self._device_of_thread.get(thread_id)
            if device is not None and device != stream[0]:
                raise ThreadSubscribeError(
                    f"Subscribe report failed: thread {thread_id} is bound to streams of device {device}.",
                    thread=thread_id,
                )
            self._thread_of[stream] = thread_id
            self._device_of_thread[thread_id] = stream[0]
            self._queues.setdefault(thread_id, deque())
        log.info("report.subscribed", thread=thread_id, stream=stream[1])

    def unsubscribe(self, thread_id: int, stream: StreamKey) -> None:
        with self._cond:
            owner = self._thread_of.get(stream)
            if owner is None:
                raise StreamSubscribeError(f"Unsubscribe report failed: stream {stream[1]} is not subscribed.")
            if owner != thread_id:
                raise ThreadSubscribeError(
                    f"Unsubscribe report failed: stream {stream[1]} is bound to thread {owner}, not {thread_id}."
                )
            self._drop(stream)
        log.info("report.unsubscribed", thread=thread_id, stream=stream[1])

    def forget_stream(self, stream: StreamKey) -> None:
        """A destroyed stream loses its subscription (and any report still queued for it)."""
        with self._cond:
            if stream in self._thread_of:
                self._drop(stream)

    def _drop(self, stream: StreamKey) -> None:
        thread_id = self._thread_of.pop(stream)
        queue = self._queues.get(thread_id, deque())
        for report in [r for r in queue if r.stream == stream]:
            queue.remove(report)
            log.warning("report.dropped", stream=stream[1], reason="unsubscribed before the callback ran")
            _discard_event(report)
            _release(report)
            self._finished(report)
        if thread_id not in self._thread_of.values():
            self._device_of_thread.pop(thread_id, None)
            if not queue:
                self._queues.pop(thread_id, None)
        self._cond.notify_all()

    def subscribed(self, stream: StreamKey) -> bool:
        return stream in self._thread_of

    # -- callbacks --------------------------------------------------------------------------
    def launch(self, report: Report) -> None:
        with self._cond:
            thread_id = self._thread_of[report.stream]
            self._queues[thread_id].append(report)
            self._pending.append(report)
            self._cond.notify_all()

    def process(self, timeout_ms: int) -> None:
        """Run the reports queued for this thread (raises 107012 without a subscription, 507012 on timeout)."""
        thread_id = threading.get_ident()
        deadline = None if timeout_ms < 0 else time.monotonic() + timeout_ms / 1000
        with self._cond:
            if thread_id not in self._queues:
                raise ThreadSubscribeError(f"Cannot find subscribe info, threadId={thread_id}.", thread=thread_id)
            queue = self._queues[thread_id]
            while not queue:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise ReportTimeout("wait subscribereport timeout", thread=thread_id)
                self._cond.wait(remaining)
                if thread_id not in self._queues:  # unsubscribed meanwhile
                    raise ThreadSubscribeError(f"Cannot find subscribe info, threadId={thread_id}.")
            ready = list(queue)
            queue.clear()
        for report in ready:
            self._run(report)

    def wait_blocking(self, stream: StreamKey, timeout_ms: int = -1) -> None:
        """Wait until the stream's blocking callbacks have run (on this thread when it is the subscriber)."""
        thread_id = threading.get_ident()
        deadline = None if timeout_ms < 0 else time.monotonic() + timeout_ms / 1000
        with self._cond:
            owner = self._thread_of.get(stream)
            if owner is None:
                return
            if owner == thread_id:
                queue = self._queues[owner]
                mine = [r for r in queue if r.stream == stream]
                for report in mine:
                    queue.remove(report)
            else:
                mine = []
        for report in mine:
            self._run(report)
        with self._cond:
            while any(r.block and r.stream == stream for r in self._pending):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise StreamSyncTimeout(
                        f"Stream synchronize timeout: a blocking callback on stream {stream[1]} has not run.",
                        stream=stream[1],
                    )
                self._cond.wait(remaining)

    def _run(self, report: Report) -> None:
        try:
            _run(report)
        finally:
            _release(report)
            with self._cond:
                self._finished(report)

    def _finished(self, report: Report) -> None:
        """Under the condition's lock: the report is done; waiters look again."""
        if report in self._pending:
            self._pending.remove(report)
        report.done.set()
        self._cond.notify_all()


def _run(report: Report) -> None:
    """Drive the stream up to the callback, then call it; a raising callback is printed, not fatal."""
    try:
        report.device.synchronize_event(report.reached)
    except StatusError as exc:  # an earlier task failed: the stream carries on (ACL_CONTINUE_ON_FAILURE)
        log.warning("report.stream_failed", stream=report.stream[1], status=exc.status, reason=exc.message)
    _discard_event(report)
    try:
        report.fn(report.user_data)
    except Exception as exc:  # the user's code: its traceback is the user's to read, the loop goes on
        log.error("report.callback_raised", stream=report.stream[1], error=f"{type(exc).__name__}: {exc}")
        traceback.print_exception(exc)


def _release(report: Report) -> None:
    """The callback has returned: the stream's later tasks may run."""
    if report.hold is not None:
        with contextlib.suppress(StatusError):
            report.device.release_stream(StreamId(report.stream[1]), report.hold)
        report.hold = None


def _discard_event(report: Report) -> None:
    with contextlib.suppress(StatusError):  # the stream (and its events) may have gone with a device reset
        report.device.destroy_event(report.reached)
