"""The lanes of a trace: one per host thread and one per device stream, numbered 1, 2, 3 … per process.

Perfetto's JSON importer reads ``pid`` and ``tid`` as 32-bit unsigned numbers and puts an event whose
tid does not fit on its process's own track: with a stream handle (0x150000002 > 2**32 - 1) as the
tid, every stream of a device merged into one lane. So a lane's tid is its small number in a fixed
order (host threads: the main thread first, then as they first called; streams: by handle, which
is creation order), and the real thread id or stream handle is in the lane's name, where a reader
holding the text timeline finds it again. The Chrome JSON and the SVG use the same lanes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emulator.trace import Event

HOST_PID = 1
DEVICE_PID_BASE = 100


@dataclass(frozen=True, slots=True)
class Lane:
    pid: int
    tid: int  # 1, 2, 3 … within its pid: its sort index too
    name: str

    @property
    def host(self) -> bool:
        return self.pid == HOST_PID


@dataclass(frozen=True, slots=True)
class Lanes:
    """Every lane the events use, keyed by host thread id or by (device, stream handle)."""

    threads: dict[int, Lane]
    streams: dict[tuple[int, int], Lane]
    devices: tuple[int, ...]  # every device the events mention (tasks or the memory counter), in order

    @classmethod
    def of(cls, events: Iterable[Event], main_thread: int) -> Lanes:
        events = list(events)
        threads: list[int] = []
        for ev in events:
            if ev.kind in ("api", "resource", "note") and ev.thread not in threads:
                threads.append(ev.thread)
        threads.sort(key=lambda t: t != main_thread)  # stable: the main thread first, the others as they came
        thread_lanes = {t: Lane(HOST_PID, i, _thread_name(t, main_thread)) for i, t in enumerate(threads, 1)}
        pairs = sorted({(ev.device, ev.stream) for ev in events if ev.kind == "task"})
        devices = sorted({ev.device for ev in events if ev.kind in ("task", "counter")})
        stream_lanes: dict[tuple[int, int], Lane] = {}
        for device in devices:
            handles = [s for d, s in pairs if d == device]
            for i, handle in enumerate(handles, 1):
                stream_lanes[(device, handle)] = Lane(DEVICE_PID_BASE + device, i, f"stream {handle:#x}")
        return cls(thread_lanes, stream_lanes, tuple(devices))

    def of_event(self, ev: Event) -> Lane:
        """The lane an api, resource, note or task event is drawn in."""
        if ev.kind == "task":
            return self.streams[(ev.device, ev.stream)]
        return self.threads[ev.thread]

    def ordered(self) -> list[Lane]:
        """Host threads first, then each device's streams: the order the lanes are shown in."""
        return [*self.threads.values(), *sorted(self.streams.values(), key=lambda lane: (lane.pid, lane.tid))]


def _thread_name(thread: int, main_thread: int) -> str:
    return f"main thread (tid {thread})" if thread == main_thread else f"host thread (tid {thread})"


def device_name(device: int) -> str:
    return f"device {device}"
