"""Streams and events of the simulated NPU: deterministic, deferred execution.

Fidelity notes (streams are asynchronous, deterministically):
- A task queued on a stream runs when something needs it: a synchronisation of its stream,
  event or device, a wait on an event it records, a synchronous copy / set / free that touches
  memory it uses (reported as a race first), or a destroy. With ``eager`` it runs at once.
- Tasks of one stream run in submission order; across streams only ``stream_wait_event``
  orders them. A wait captures the record that was already submitted, so dependencies always
  point at earlier tasks and draining never deadlocks.
- Time is simulated: every task has a duration from a small cost model, each stream has its
  own clock, and a wait starts no earlier than the recorded work ended. Event timestamps and
  elapsed times come from these clocks, and a sync with a timeout fails with 507046 / 507047
  when the pending work would take longer than the timeout (the work stays queued, as on a card).
- A failing task (an AI Core exception, say) is remembered on its stream and returned by the
  next synchronisation of that stream; later tasks still run (ACL_CONTINUE_ON_FAILURE).
- A task leaves its queue only once it has ended. An exception raised while it runs (a
  KeyboardInterrupt during a synchronisation, say) propagates to the caller, and the task is
  recorded as failed, so the next synchronisation of its stream reports it instead of
  returning 0 over half-written outputs; an exception before it starts leaves it queued.
  A strict-mode report raised from inside a task is the exception: the caller has the report and
  a card would have carried on, so the task just ends there.
- A blocking host callback holds its stream (``hold``): tasks queued after it stay queued, even
  through a synchronisation or a racing host copy, until the runtime releases the hold once the
  callback has run on its thread.
- The scheduler has no lock of its own: every call that changes or drains it comes with the
  device lock held; point reads (is a stream done, is an event complete) read one value without it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import (
    DeviceError,
    DmaTaskInterrupted,
    EventNotRecorded,
    EventSyncTimeout,
    EventTimestampInvalid,
    FeatureNotSupported,
    InvalidHandle,
    InvalidValue,
    NoEventResource,
    NoStreamResource,
    ReportRaisedInTask,
    StreamCaptured,
    StreamSyncTimeout,
    TaskFailed,
    TaskInterrupted,
)
from ..interface import Access, BufferArg, EventId, StreamId
from .capture import Capture, CaptureMode, Replay, check_sync_call, finish

EVENT_SYNC = 0x1
EVENT_TIME_LINE = 0x8
EVENT_EXTERNAL = 0x20
EVENT_IPC = 0x40
EVENT_KNOWN_FLAGS = 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x40


@dataclass(slots=True)
class Task:
    seq: int
    stream: StreamId
    name: str
    run: Callable[[], None]
    buffers: tuple[BufferArg, ...] = ()
    duration_us: float = 0.0
    after: tuple[tuple[StreamId, int], ...] = ()  # (stream, seq) that must finish first
    site: object = None  # what the device's site source said when the task was enqueued (the host call)


@dataclass(slots=True)
class Stream:
    sid: StreamId
    priority: int
    flags: int
    pending: deque[Task] = field(default_factory=deque)
    done_seq: int = 0  # every task with seq <= done_seq on this stream has run
    clock_us: float = 0.0
    error: DeviceError | None = None
    destroyed: bool = False
    holds: list[int] = field(default_factory=list)  # blocking host callbacks: no task after min(holds) runs
    capture: Capture | None = None  # aclmdlRICaptureBegin: tasks are recorded here, not queued

    def runnable(self, task: Task) -> bool:
        return not self.holds or task.seq <= min(self.holds)


@dataclass(slots=True)
class Event:
    eid: EventId
    flags: int
    ex: bool
    waitable: bool  # aclrtCreateEvent's internal DDSYNC, or the user's ACL_EVENT_SYNC
    timed: bool  # aclrtCreateEvent's internal TIME_LINE, or the user's ACL_EVENT_TIME_LINE
    recorded: tuple[StreamId, int] | None = None  # the record task that the event captures
    timestamp_us: float | None = None


def _sid(st: Stream) -> int:
    return st.sid


class Scheduler:
    """Owns every stream and event of one device and decides when their tasks run."""

    def __init__(self, *, device_id: int, max_streams: int, max_events: int, eager: bool = False) -> None:
        self.eager = eager
        # called after each task ran: (stream, task name, simulated start us, simulated duration us)
        self.task_listeners: list[Callable[[StreamId, str, float, float], None]] = []
        self.max_streams = max_streams
        self.max_events = max_events
        self._streams: dict[StreamId, Stream] = {}
        # the streams whose queue is not empty (kept by submit, _retire and destroy_stream), so that
        # a host operation's race check visits only them, and none when nothing is queued
        self.busy: dict[StreamId, Stream] = {}
        self._events: dict[EventId, Event] = {}
        self._seq = 0
        base = (device_id + 1) << 32
        self._next_stream = base | 0x5000_0000
        self._next_event = base | 0x6000_0000

    # -- streams ----------------------------------------------------------------------------
    def create_stream(self, priority: int, flags: int) -> StreamId:
        if len(self._streams) >= self.max_streams:
            raise NoStreamResource(
                f"the device already has {len(self._streams)} streams (limit {self.max_streams})",
                limit=self.max_streams,
            )
        self._next_stream += 1
        sid = StreamId(self._next_stream)
        self._streams[sid] = Stream(sid, min(max(priority, 0), 7), flags)
        return sid

    def stream(self, sid: int) -> Stream:
        st = self._streams.get(StreamId(sid))
        if st is None:
            raise InvalidHandle(
                "1. The stream handle has been destroyed. 2. The handle type must be stream",
                stream=sid,
            )
        return st

    def destroy_stream(self, sid: StreamId, *, force: bool) -> None:
        st = self.stream(sid)
        st.capture = None  # a teardown abandons a capture (the ACL calls refuse to destroy a capturing stream)
        if force:
            st.pending.clear()
        else:
            self.drain(st, None)
        st.destroyed = True
        del self._streams[sid]
        self.busy.pop(sid, None)

    def streams(self) -> list[StreamId]:
        return list(self._streams)

    def hold(self, sid: StreamId) -> int:
        """Keep every task queued from now on until ``release``: a blocking host callback's hold."""
        st = self.stream(sid)
        st.holds.append(self._seq)
        return self._seq

    def release(self, sid: StreamId, hold: int) -> None:
        st = self._streams.get(sid)
        if st is not None and hold in st.holds:
            st.holds.remove(hold)

    def pending_tasks(self, sid: StreamId) -> int:
        return len(self.stream(sid).pending)

    # -- tasks ------------------------------------------------------------------------------
    def submit(
        self,
        sid: StreamId,
        name: str,
        run: Callable[[], None],
        *,
        buffers: tuple[BufferArg, ...] = (),
        duration_us: float = 0.0,
        after: tuple[tuple[StreamId, int], ...] = (),
        site: object = None,
    ) -> Task:
        st = self.stream(sid)
        self._seq += 1
        task = Task(self._seq, sid, name, run, buffers, duration_us, after, site)
        if st.capture is not None:  # recorded for the model: each execution enqueues it again

            def replay(target: StreamId) -> None:
                self.submit(target, name, run, buffers=buffers, duration_us=duration_us, site=site)

            st.capture.entries.append(replay)
            return task
        st.pending.append(task)
        self.busy[sid] = st
        if self.eager:
            self.drain(st, task.seq)
        return task

    def drain(self, st: Stream, upto_seq: int | None) -> None:
        """Run the queued tasks of ``st`` up to and including ``upto_seq`` (all when None)."""
        pending = st.pending
        while (
            pending and (upto_seq is None or pending[0].seq <= upto_seq) and (not st.holds or st.runnable(pending[0]))
        ):
            task = pending[0]  # stays queued until it has run: an exception before then loses nothing
            start = st.clock_us
            for dep_sid, dep_seq in task.after:
                dep = self._streams.get(dep_sid)
                if dep is not None:
                    self.drain(dep, dep_seq)
                    start = max(start, dep.clock_us)
            try:
                task.run()
            except TaskFailed as exc:  # the device keeps going; the stream reports it at its next sync
                self._fail(st, exc)
            except ReportRaisedInTask:  # strict mode: the caller gets the report; the card would go on
                raise
            except BaseException as exc:  # KeyboardInterrupt, a bug: the task ended part-way
                self._fail(st, _interrupted(task, exc))
                raise
            finally:
                self._retire(st, task, start)

    @staticmethod
    def _fail(st: Stream, error: DeviceError) -> None:
        if st.error is None:
            st.error = error

    def _retire(self, st: Stream, task: Task, start: float) -> None:
        """The task has ended (run, failed or interrupted): it leaves the queue and the clock moves on."""
        if st.pending and st.pending[0] is task:
            st.pending.popleft()
            if not st.pending:
                self.busy.pop(st.sid, None)
        st.clock_us = start + task.duration_us
        st.done_seq = task.seq
        for listener in self.task_listeners:
            listener(st.sid, task.name, start, task.duration_us)

    def pending_duration_us(self, st: Stream, upto_seq: int | None = None) -> float:
        total = 0.0
        for task in st.pending:
            if upto_seq is not None and task.seq > upto_seq:
                break
            total += task.duration_us
            for dep_sid, dep_seq in task.after:
                dep = self._streams.get(dep_sid)
                if dep is not None:
                    total = max(total, self.pending_duration_us(dep, dep_seq))
        return total

    @staticmethod
    def _check_timeout(timeout_ms: int) -> None:
        """The runtime takes -1 (forever) or a positive number of milliseconds; 0 is invalid."""
        if timeout_ms == 0 or timeout_ms < -1:
            raise InvalidValue(f"timeout {timeout_ms} ms is invalid; expected -1 or > 0", timeout_ms=timeout_ms)

    def synchronize(self, sid: StreamId, timeout_ms: int) -> None:
        if timeout_ms != -1:  # -1 (forever), the common case, is valid
            self._check_timeout(timeout_ms)
        st = self.stream(sid)
        if st.capture is not None:
            self.refuse_captured(st, "Synchronizing a stream")
        if timeout_ms > 0 and self.pending_duration_us(st) > timeout_ms * 1000:
            raise StreamSyncTimeout(
                f"Stream synchronize timeout. stream={sid:#x}, timeout={timeout_ms}ms",
                stream=sid,
                timeout_ms=timeout_ms,
            )
        self.drain(st, None)
        if st.error is not None:
            error, st.error = st.error, None
            raise error

    def synchronize_all(self) -> None:
        for st in list(self._streams.values()):
            self.drain(st, None)

    def conflicts(self, addr: int, nbytes: int, access: Access) -> list[Task]:
        """Queued tasks whose buffers overlap [addr, addr+nbytes) in a way that races ``access``."""
        busy = self.busy
        if not busy:  # the common case of every aclrtFree: nothing is queued anywhere
            return []
        found: list[Task] = []
        end = addr + nbytes
        # in stream creation order (a stream's id grows with it), as the report lists them
        for st in busy.values() if len(busy) == 1 else sorted(busy.values(), key=_sid):
            for task in st.pending:
                if not st.runnable(task):
                    break  # held behind a blocking host callback: it cannot start until the callback returns
                for buf in task.buffers:
                    racing = Access.WRITE in access or Access.WRITE in buf.access
                    if racing and buf.addr < end and addr < buf.addr + buf.nbytes:
                        found.append(task)
                        break
        return found

    def ordered_before(self, sid: StreamId) -> dict[StreamId, int]:
        """For each other stream, the last seq that a task enqueued on ``sid`` now must wait for.

        Only queued waits matter: a wait that already ran finished its recorded work too, so that
        work is no longer queued. Waits are followed transitively (a wait on a stream that itself
        waits on a third).
        """
        frontier: dict[StreamId, int] = {}
        work = [dep for task in self.stream(sid).pending for dep in task.after]
        while work:
            dep_sid, dep_seq = work.pop()
            known = frontier.get(dep_sid, 0)
            if known >= dep_seq:
                continue
            frontier[dep_sid] = dep_seq
            dep = self._streams.get(dep_sid)
            if dep is not None:
                work.extend(d for task in dep.pending if known < task.seq <= dep_seq for d in task.after)
        return frontier

    def cross_stream_conflicts(
        self, sid: StreamId, buffers: tuple[BufferArg, ...]
    ) -> list[tuple[Task, BufferArg, BufferArg]]:
        """Tasks queued on other streams that a task with ``buffers`` enqueued on ``sid`` now would race.

        A pair races when the ranges overlap, one side writes, and neither stream order nor an event
        puts the queued task first. Each racing task once: (task, its buffer, the new task's buffer).
        """
        others = [st for st in self._streams.values() if st.sid != sid and st.pending]
        if not others or not buffers:
            return []
        frontier = self.ordered_before(sid)
        found: list[tuple[Task, BufferArg, BufferArg]] = []
        for st in others:
            bound = frontier.get(st.sid, 0)
            for task in st.pending:
                if task.seq <= bound:
                    continue
                pair = _first_overlap(task.buffers, buffers)
                if pair is not None:
                    found.append((task, *pair))
        return found

    def run_through(self, tasks: list[Task]) -> None:
        for task in tasks:
            st = self._streams.get(task.stream)
            if st is not None:
                self.drain(st, task.seq)

    # -- capture ----------------------------------------------------------------------------
    @staticmethod
    def refuse_captured(st: Stream, operation: str) -> None:
        if st.capture is not None:
            raise StreamCaptured(
                f"{operation}: stream {st.sid:#x} during the capture stage is not supported", stream=st.sid
            )

    def begin_capture(self, sid: StreamId, mode: CaptureMode, thread: int, model: int) -> None:
        st = self.stream(sid)
        if st.capture is not None:
            raise StreamCaptured(
                f"Stream begin capture: stream {sid:#x} is already in capture status "
                f"({st.capture.status.name.lower()})",
                stream=sid,
            )
        st.capture = Capture(mode, thread, model)

    def end_capture(self, sid: StreamId, thread: int) -> list[Replay]:
        """The captured entries; the stream stops capturing even when the capture was invalidated."""
        st = self.stream(sid)
        capture = st.capture
        try:
            return finish(sid, capture, thread)
        finally:
            if capture is not None and capture.thread == thread:
                st.capture = None

    def capture_of(self, sid: StreamId) -> Capture | None:
        return self.stream(sid).capture

    def check_sync_call(self, operation: str, thread: int, thread_mode: int) -> None:
        """A synchronous copy or set: refused while a capture on this device forbids it to the thread."""
        captures = [(st.sid, st.capture) for st in self._streams.values() if st.capture is not None]
        if captures:
            check_sync_call(captures, operation, thread, CaptureMode(thread_mode))

    # -- events -----------------------------------------------------------------------------
    def create_event(self, flags: int | None, *, ex: bool) -> EventId:
        """flags None is aclrtCreateEvent: an internal flag set that is both waitable and timed."""
        if len(self._events) >= self.max_events:
            raise NoEventResource(f"event limit {self.max_events} reached", limit=self.max_events)
        if flags is None:
            return self._add_event(0, ex=False, waitable=True, timed=True)
        if flags == 0 or flags & ~EVENT_KNOWN_FLAGS:
            raise InvalidValue(f"event flag {flags:#x} is invalid", flag=flags)
        if flags & (EVENT_EXTERNAL | EVENT_IPC) and flags not in (EVENT_EXTERNAL, EVENT_IPC):
            raise InvalidValue(f"event flag {flags:#x}: EXTERNAL and IPC must be used alone", flag=flags)
        return self._add_event(flags, ex=ex, waitable=bool(flags & EVENT_SYNC), timed=bool(flags & EVENT_TIME_LINE))

    def _add_event(self, flags: int, *, ex: bool, waitable: bool, timed: bool) -> EventId:
        self._next_event += 1
        eid = EventId(self._next_event)
        self._events[eid] = Event(eid, flags, ex, waitable, timed)
        return eid

    def event(self, eid: int) -> Event:
        ev = self._events.get(EventId(eid))
        if ev is None:
            raise InvalidHandle("1. The event handle has been destroyed. 2. The handle type must be event", event=eid)
        return ev

    def destroy_event(self, eid: EventId) -> None:
        self.event(eid)
        del self._events[eid]

    def record(self, eid: EventId, sid: StreamId) -> None:
        ev = self.event(eid)
        st = self.stream(sid)
        if st.capture is not None:  # the record happens when the model runs
            st.capture.entries.append(lambda target: self.record(eid, target))
            return

        def stamp() -> None:
            if ev.timed:
                ev.timestamp_us = st.clock_us

        ev.timestamp_us = None
        task = self.submit(sid, f"record_event({eid:#x})", stamp)
        ev.recorded = (sid, task.seq)

    def reset(self, eid: EventId, sid: StreamId) -> None:
        ev = self.event(eid)
        if ev.ex:
            raise FeatureNotSupported("aclrtResetEvent is not supported for Ex events", event=eid)
        if not ev.waitable:
            raise FeatureNotSupported("the event was not created with ACL_EVENT_SYNC", event=eid)
        capture = self.stream(sid).capture
        if capture is not None:
            capture.entries.append(lambda target: self.reset(eid, target))
            return

        def unrecord() -> None:
            ev.recorded = None
            ev.timestamp_us = None

        self.submit(sid, f"reset_event({eid:#x})", unrecord)

    def wait(self, sid: StreamId, eid: EventId) -> None:
        ev = self.event(eid)
        self.stream(sid)
        if not ev.waitable:
            raise FeatureNotSupported("the event cannot be waited on (no ACL_EVENT_SYNC flag)", event=eid)
        capture = self.stream(sid).capture
        if capture is not None:  # which record it waits for is decided when the model runs
            capture.entries.append(lambda target: self.wait(target, eid))
            return
        after = (ev.recorded,) if ev.recorded is not None else ()
        self.submit(sid, f"wait_event({eid:#x})", lambda: None, after=after)

    def event_done(self, ev: Event) -> bool:
        if ev.recorded is None:
            return False
        sid, seq = ev.recorded
        st = self._streams.get(sid)
        return st is None or st.done_seq >= seq

    def synchronize_event(self, eid: EventId, timeout_ms: int) -> None:
        self._check_timeout(timeout_ms)
        ev = self.event(eid)
        if ev.recorded is None:
            return
        sid, seq = ev.recorded
        st = self._streams.get(sid)
        if st is None:
            return
        if timeout_ms > 0 and self.pending_duration_us(st, seq) > timeout_ms * 1000:
            raise EventSyncTimeout(f"Event synchronize timeout. event={eid:#x}, timeout={timeout_ms}ms", event=eid)
        self.drain(st, seq)

    def elapsed_ms(self, start: EventId, end: EventId) -> float:
        evs = (self.event(start), self.event(end))
        for ev in evs:
            if ev.flags & (EVENT_EXTERNAL | EVENT_IPC):
                raise FeatureNotSupported("elapsed time of an EXTERNAL or IPC event", event=ev.eid)
        for ev in evs:
            if ev.recorded is None:
                raise EventNotRecorded("recorder null: the event was never recorded", event=ev.eid)
        for ev in evs:
            if ev.timestamp_us is None:
                raise EventTimestampInvalid(
                    f"event {ev.eid:#x} has no timestamp yet: synchronize before asking", event=ev.eid
                )
        assert evs[0].timestamp_us is not None and evs[1].timestamp_us is not None
        return (evs[1].timestamp_us - evs[0].timestamp_us) / 1000.0


def _interrupted(task: Task, exc: BaseException) -> TaskFailed:
    """What the stream reports for a task an exception stopped part-way: a failed task, as a card does.

    Its outputs may be partly written, so it cannot be run again or taken as done; the next
    synchronisation returns the failure a card gives for a task that did not finish: 507015
    (AI Core exception) for a kernel, 507013 (system DMA error) for a copy, a set or an event task.
    """
    error = TaskInterrupted if task.name.startswith("kernel ") else DmaTaskInterrupted
    return error(
        f"task {task.name!r} on stream {task.stream:#x} was stopped part-way by {type(exc).__name__}"
        f"{': ' + str(exc) if str(exc) else ''}; its outputs are undefined",
        stream=task.stream,
        task=task.name,
    )


def _first_overlap(theirs: tuple[BufferArg, ...], mine: tuple[BufferArg, ...]) -> tuple[BufferArg, BufferArg] | None:
    for buf in theirs:
        for own in mine:
            racing = Access.WRITE in own.access or Access.WRITE in buf.access
            if racing and buf.addr < own.addr + own.nbytes and own.addr < buf.addr + buf.nbytes:
                return buf, own
    return None
