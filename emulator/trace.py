"""The lifecycle trace: every C-named call, every device task, every resource created and released.

One event stream drives three views: a readable text timeline, Chrome Trace Event JSON (open in
Perfetto or chrome://tracing) with lanes like msprof's — API calls per host thread, tasks per
stream, a device-memory counter — and a small SVG picture of the same lanes. Tracing is off unless
``start_trace`` is called (``opbase-emu trace SCRIPT`` does, and a process started with
``OPBASE_EMU_TRACE=path`` does from its start and writes the JSON at exit); when off it costs one attribute read
per C-named call.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from emulator import process
from emulator.lazylog import lazy_logger
from emulator.process import EmulatedProcess
from emulator.trace_lanes import DEVICE_PID_BASE, HOST_PID, Lanes, device_name
from emulator.trace_svg import render_svg
from emulator.tracking import Resource, ResourceKind

log = lazy_logger(__name__, logger_name="emulator.trace")


@dataclass(frozen=True, slots=True)
class Event:
    kind: str  # "api" | "task" | "resource" | "counter" | "note"
    name: str
    ts_us: float
    dur_us: float = 0.0
    thread: int = 0
    device: int = 0
    stream: int = 0
    status: int | None = None
    args: dict[str, Any] = field(default_factory=dict)


class Tracer:
    def __init__(self, proc: EmulatedProcess) -> None:
        self.proc = proc
        self.events: list[Event] = []
        self.t0 = time.perf_counter()
        self.lock = threading.Lock()
        self._attached: set[int] = set()
        self.main_thread = threading.main_thread().native_id or 0

    def now_us(self) -> float:
        return (time.perf_counter() - self.t0) * 1e6

    def _add(self, event: Event) -> None:
        with self.lock:
            self.events.append(event)

    # -- hooks ------------------------------------------------------------------------------
    def api(self, name: str, args: tuple[Any, ...], status: int | None, start_us: float) -> None:
        self._add(
            Event("api", name, start_us, self.now_us() - start_us, threading.get_native_id(), status=status,
                  args={"args": ", ".join(_short(a) for a in args)})
        )  # fmt: skip

    def resource(self, what: str, res: Resource) -> None:
        size = f" {res.size} B" if res.size is not None else ""
        # the site object itself: a C site is named (addr2line) when a view is written, not per event
        sign = "+" if what == "created" else "-"
        self._add(Event("resource", f"{sign} {res.kind}{size}", self.now_us(), thread=threading.get_native_id(),
                        args={"key": hex(res.key), "site": res.site}))  # fmt: skip
        if res.kind is ResourceKind.DEVICE_MEMORY:
            self._memory_counter()

    def task(self, device: int, stream: int, name: str, sim_start_us: float, sim_dur_us: float) -> None:
        self._add(Event("task", name, self.now_us(), sim_dur_us, device=device, stream=stream,
                        args={"simulated_start_us": round(sim_start_us, 3)}))  # fmt: skip

    def _memory_counter(self) -> None:
        for device in self.proc.runtime.opened_devices():
            info = device.mem_info()
            self._add(Event("counter", "device memory", self.now_us(), device=device.device_id,
                            args={"used": info.total - info.free}))  # fmt: skip

    def attach_devices(self) -> None:
        """Listen to the tasks of every opened device; a backend that cannot report them gets a note instead.

        The note keeps the trace honest: on a card (no task listeners) the stream lanes are empty
        because nothing was observable, not because nothing ran.
        """
        for device in self.proc.runtime.opened_devices():
            if device.device_id in self._attached:
                continue
            self._attached.add(device.device_id)
            device_id = device.device_id
            if not device.caps.supports_task_listeners:
                text = f"device {device_id}: {type(device).__name__} does not report device tasks; no stream lanes"
                self._add(Event("note", text, self.now_us(), thread=threading.get_native_id(), device=device_id))
                log.warning("trace.device_tasks_unobservable", device=device_id, backend=type(device).__name__)
                continue
            device.add_task_listener(functools.partial(self.task, device_id))

    # -- views ------------------------------------------------------------------------------
    def lanes(self) -> Lanes:
        return Lanes.of(self.events, self.main_thread)

    def chrome(self) -> dict[str, Any]:
        """Chrome Trace Event JSON: ph X for calls and tasks, ph C for the memory counter, ph M names and order.

        Every lane's tid is small (``emulator.trace_lanes``), so Perfetto keeps the streams apart.
        """
        lanes = self.lanes()
        out = _metadata(lanes)
        for ev in self.events:
            if ev.kind == "counter":
                out.append({"name": ev.name, "ph": "C", "ts": ev.ts_us, "pid": DEVICE_PID_BASE + ev.device,
                            "args": ev.args})  # fmt: skip
                continue
            lane = lanes.of_event(ev)
            if ev.kind == "api":
                out.append({"name": ev.name, "ph": "X", "ts": ev.ts_us, "dur": max(ev.dur_us, 0.1), "pid": lane.pid,
                            "tid": lane.tid, "cat": "api", "args": {**ev.args, "status": ev.status}})  # fmt: skip
            elif ev.kind == "task":
                out.append({"name": ev.name, "ph": "X", "ts": ev.ts_us, "dur": max(ev.dur_us, 0.1), "pid": lane.pid,
                            "tid": lane.tid, "cat": "task", "args": ev.args})  # fmt: skip
            else:
                args = {k: v if isinstance(v, str | int | float | None) else str(v) for k, v in ev.args.items()}
                out.append({"name": ev.name, "ph": "i", "s": "t", "ts": ev.ts_us, "pid": lane.pid, "tid": lane.tid,
                            "cat": ev.kind, "args": args})  # fmt: skip
        return {"traceEvents": out, "displayTimeUnit": "ms", "otherData": {"tool": "opbase-emu"}}

    def text(self) -> str:
        """One line per call, with the resources it created or released indented under it."""
        lines = []
        for ev in sorted(self.events, key=lambda e: e.ts_us):
            stamp = f"{ev.ts_us / 1000:9.3f} ms"
            if ev.kind == "api":
                status = "" if ev.status is None else f" -> {ev.status}"
                lines.append(f"{stamp}  [{ev.thread}] {ev.name}({ev.args.get('args', '')}){status}")
            elif ev.kind == "resource":
                lines.append(f"{stamp}      {ev.name} {ev.args['key']}")
            elif ev.kind == "task":
                lines.append(f"{stamp}      device {ev.device} stream {ev.stream:#x}: ran {ev.name} "
                             f"({ev.dur_us:.2f} us simulated)")  # fmt: skip
            elif ev.kind == "note":
                lines.append(f"{stamp}  note: {ev.name}")
        return "\n".join(lines)

    def svg(self) -> str:
        """The same lanes as an SVG picture (``emulator.trace_svg``)."""
        return render_svg(self.events, self.lanes())

    def write_chrome(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.chrome(), f)


def _metadata(lanes: Lanes) -> list[dict[str, Any]]:
    """Names and sort indexes: the host process first, then each device; in each, lanes by their number."""

    def meta(event: str, pid: int, tid: int, /, **args: object) -> dict[str, Any]:
        return {"name": event, "ph": "M", "pid": pid, "tid": tid, "args": args}

    out = [meta("process_name", HOST_PID, 0, name="host (API calls)"), meta("process_sort_index", HOST_PID, 0,
                                                                           sort_index=0)]  # fmt: skip
    for device in lanes.devices:
        pid = DEVICE_PID_BASE + device
        out += [meta("process_name", pid, 0, name=device_name(device)), meta("process_sort_index", pid, 0,
                                                                            sort_index=1 + device)]  # fmt: skip
    for lane in lanes.ordered():
        out += [meta("thread_name", lane.pid, lane.tid, name=lane.name),
                meta("thread_sort_index", lane.pid, lane.tid, sort_index=lane.tid)]  # fmt: skip
    return out


def _short(value: Any) -> str:
    if isinstance(value, IntEnum):
        return value.name
    if isinstance(value, int) and not isinstance(value, bool) and value > 0xFFFF:
        return hex(value)
    text = repr(value) if not hasattr(value, "kind") else f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def start_trace(proc: EmulatedProcess | None = None) -> Tracer:
    """Begin tracing the process: calls, device tasks, resources, memory."""
    proc = proc or process.current()
    tracer = Tracer(proc)
    proc.tracer = tracer
    proc.registry.listeners.append(tracer.resource)
    tracer.attach_devices()
    return tracer


def stop_trace(proc: EmulatedProcess | None = None) -> Tracer | None:
    proc = proc or process.current()
    tracer = proc.tracer
    if tracer is not None:
        proc.tracer = None
        if tracer.resource in proc.registry.listeners:
            proc.registry.listeners.remove(tracer.resource)
    return tracer


def summary(tracer: Tracer, output: object) -> str:
    calls = sum(1 for e in tracer.events if e.kind == "api")
    tasks = sum(1 for e in tracer.events if e.kind == "task")
    return f"opbase-emu trace: {calls} calls, {tasks} device tasks -> {output} (open in Perfetto)"


def exit_write(proc: EmulatedProcess) -> None:
    """The OPBASE_EMU_TRACE=path hook: at exit, write the process's trace (and the text and SVG views asked for)."""
    import sys

    tracer = stop_trace(proc)
    settings = proc.settings
    if tracer is None or settings.trace_path is None:
        return
    tracer.write_chrome(str(settings.trace_path))
    if settings.trace_text is not None:
        settings.trace_text.write_text(tracer.text() + "\n")
    if settings.trace_svg is not None:
        settings.trace_svg.write_text(tracer.svg())
    print(summary(tracer, settings.trace_path), file=sys.stderr)
