"""Scheduler.busy, the index of streams with queued work that a host operation's race check visits.

A free, copy or set asks ``conflicts`` which queued tasks it races; since issue 16 that visits only
the streams in ``busy`` (none at all when nothing is queued). Random sequences of stream
creation, submits, partial drains, blocking-callback holds and destroys must keep ``busy`` exactly
the streams whose queue is not empty, and ``conflicts`` must answer, task for task and in the same
order, what the walk over every stream answered before.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from emulator.device.interface import Access, BufferArg, MemPolicy, StreamId
from emulator.device.simulated.npu import SimulatedNpu
from emulator.device.simulated.streams import Scheduler, Task

ACCESS = st.sampled_from([Access.READ, Access.WRITE, Access.READ_WRITE])
BUFFER = st.builds(BufferArg, st.integers(0, 40).map(lambda a: a * 64), st.integers(1, 512), ACCESS)


def every_stream_conflicts(scheduler: Scheduler, addr: int, nbytes: int, access: Access) -> list[Task]:
    """The race check as it was: every stream of the device, in creation order."""
    found: list[Task] = []
    end = addr + nbytes
    for st_ in scheduler._streams.values():
        for task in st_.pending:
            if not st_.runnable(task):
                break
            for buf in task.buffers:
                if (
                    (Access.WRITE in access or Access.WRITE in buf.access)
                    and buf.addr < end
                    and addr < buf.addr + buf.nbytes
                ):
                    found.append(task)
                    break
    return found


class BusyStreams(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.scheduler = Scheduler(device_id=0, max_streams=64, max_events=64)
        self.holds: list[tuple[StreamId, int]] = []

    @initialize(eager=st.booleans())
    def start(self, eager: bool) -> None:
        self.scheduler.eager = eager
        self.scheduler.create_stream(0, 0)

    @property
    def sids(self) -> list[StreamId]:
        return self.scheduler.streams()

    @rule()
    def create(self) -> None:
        if len(self.sids) < 8:
            self.scheduler.create_stream(0, 0)

    @precondition(lambda self: self.scheduler.streams())
    @rule(data=st.data(), buffers=st.lists(BUFFER, max_size=3))
    def submit(self, data: st.DataObject, buffers: list[BufferArg]) -> None:
        sid = data.draw(st.sampled_from(self.sids))
        self.scheduler.submit(sid, "task", lambda: None, buffers=tuple(buffers))

    @precondition(lambda self: self.scheduler.streams())
    @rule(data=st.data(), upto=st.one_of(st.none(), st.integers(0, 200)))
    def drain(self, data: st.DataObject, upto: int | None) -> None:
        sid = data.draw(st.sampled_from(self.sids))
        self.scheduler.drain(self.scheduler.stream(sid), upto)

    @precondition(lambda self: self.scheduler.streams())
    @rule(data=st.data())
    def hold(self, data: st.DataObject) -> None:
        sid = data.draw(st.sampled_from(self.sids))
        self.holds.append((sid, self.scheduler.hold(sid)))

    @precondition(lambda self: self.holds)
    @rule(data=st.data())
    def release(self, data: st.DataObject) -> None:
        sid, hold = self.holds.pop(data.draw(st.integers(0, len(self.holds) - 1)))
        self.scheduler.release(sid, hold)

    @precondition(lambda self: self.scheduler.streams())
    @rule(data=st.data(), force=st.booleans())
    def destroy(self, data: st.DataObject, force: bool) -> None:
        sid = data.draw(st.sampled_from(self.sids))
        if not force and self.scheduler.stream(sid).holds:
            return  # a held stream cannot drain; a real destroy waits for the callback first
        self.scheduler.destroy_stream(sid, force=force)
        self.holds = [(s, h) for s, h in self.holds if s != sid]

    @rule(addr=st.integers(0, 3000), nbytes=st.integers(1, 600), access=ACCESS)
    def race_check(self, addr: int, nbytes: int, access: Access) -> None:
        got = self.scheduler.conflicts(addr, nbytes, access)
        assert got == every_stream_conflicts(self.scheduler, addr, nbytes, access)

    @invariant()
    def busy_is_exactly_the_streams_with_work(self) -> None:
        scheduler = self.scheduler
        assert scheduler.busy == {sid: s for sid, s in scheduler._streams.items() if s.pending}


BusyStreams.TestCase.settings = settings(
    max_examples=80, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestBusyStreams = BusyStreams.TestCase


def test_free_with_nothing_queued_visits_no_stream() -> None:
    """An aclrtFree on a device with many idle streams asks nothing of them (and reports no race)."""
    npu = SimulatedNpu(0)
    streams = [npu.create_stream() for _ in range(50)]
    ptr = npu.malloc(4096, MemPolicy.HUGE_FIRST)
    npu.memset(ptr, 0, 4096, streams[-1])
    assert list(npu.scheduler.busy) == [streams[-1]]
    npu.synchronize_stream(streams[-1])
    assert npu.scheduler.busy == {}
    npu.free(ptr)
    assert npu.races == []


def test_free_racing_two_streams_reports_them_in_creation_order() -> None:
    """Queued work on two streams, the later-created queued first: the free's race report lists creation order."""
    npu = SimulatedNpu(0)
    first, second = npu.create_stream(), npu.create_stream()
    ptr = npu.malloc(4096, MemPolicy.HUGE_FIRST)
    npu.memset(ptr, 1, 64, second)
    npu.memset(ptr + 64, 2, 64, first)
    npu.free(ptr)
    assert [r.stream for r in npu.races] == [first, second]
    assert npu.scheduler.busy == {}
