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

import structlog

from emulator import process
from emulator.process import EmulatedProcess
from emulator.tracking import Resource, ResourceKind

log = structlog.get_logger(logger_name="emulator.trace")

HOST_PID = 1
DEVICE_PID_BASE = 100


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
                self._add(Event("note", text, self.now_us(), device=device_id))
                log.warning("trace.device_tasks_unobservable", device=device_id, backend=type(device).__name__)
                continue
            device.add_task_listener(functools.partial(self.task, device_id))

    # -- views ------------------------------------------------------------------------------
    def chrome(self) -> dict[str, Any]:
        """Chrome Trace Event JSON: ph X for calls and tasks, ph C for the memory counter, ph M names."""
        out: list[dict[str, Any]] = [
            {"name": "process_name", "ph": "M", "pid": HOST_PID, "tid": 0, "args": {"name": "host (API calls)"}}
        ]
        named: set[tuple[int, int]] = set()
        for ev in self.events:
            if ev.kind == "api":
                out.append({"name": ev.name, "ph": "X", "ts": ev.ts_us, "dur": max(ev.dur_us, 0.1), "pid": HOST_PID,
                            "tid": ev.thread, "cat": "api", "args": {**ev.args, "status": ev.status}})  # fmt: skip
            elif ev.kind == "task":
                pid = DEVICE_PID_BASE + ev.device
                if (pid, ev.stream) not in named:
                    named.add((pid, ev.stream))
                    out.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
                                "args": {"name": f"device {ev.device}"}})  # fmt: skip
                    out.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": ev.stream,
                                "args": {"name": f"stream {ev.stream:#x}"}})  # fmt: skip
                out.append({"name": ev.name, "ph": "X", "ts": ev.ts_us, "dur": max(ev.dur_us, 0.1), "pid": pid,
                            "tid": ev.stream, "cat": "task", "args": ev.args})  # fmt: skip
            elif ev.kind == "counter":
                out.append({"name": ev.name, "ph": "C", "ts": ev.ts_us, "pid": DEVICE_PID_BASE + ev.device,
                            "args": ev.args})  # fmt: skip
            else:
                args = {k: v if isinstance(v, str | int | float | None) else str(v) for k, v in ev.args.items()}
                out.append({"name": ev.name, "ph": "i", "s": "t", "ts": ev.ts_us, "pid": HOST_PID, "tid": ev.thread,
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

    def svg(self, width: int = 1000) -> str:
        """The host and stream lanes as an SVG picture (calls in blue, device tasks in orange)."""
        spans = [e for e in self.events if e.kind in ("api", "task")]
        if not spans:
            return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
        origin = min(e.ts_us for e in spans)
        end = max(e.ts_us + max(e.dur_us, 1.0) for e in spans) - origin or 1.0
        lanes: list[tuple[str, int, int]] = []
        for e in spans:
            key = ("host", e.thread, 0) if e.kind == "api" else ("device", e.device, e.stream)
            if key not in lanes:
                lanes.append(key)
        height, left = 28, 170
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height * len(lanes) + 30}" '
                 'font-family="monospace" font-size="11">']  # fmt: skip
        scale = (width - left - 10) / end
        for i, (kind, a, b) in enumerate(lanes):
            y = 10 + i * height
            label = f"host thread {a}" if kind == "host" else f"dev {a} stream {b:#x}"
            parts.append(f'<text x="4" y="{y + 16}">{label}</text>')
        for e in spans:
            key = ("host", e.thread, 0) if e.kind == "api" else ("device", e.device, e.stream)
            y = 10 + lanes.index(key) * height
            x = left + (e.ts_us - origin) * scale
            w = max(max(e.dur_us, 1.0) * scale, 1.5)
            color = "#4a7fd4" if e.kind == "api" else "#e8902c"
            parts.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{w:.1f}" height="{height - 8}" fill="{color}">'
                         f"<title>{e.name}</title></rect>")  # fmt: skip
        legend = "blue: API calls on the host thread; orange: tasks as the device ran them"
        caption = f"0 .. {end / 1000:.2f} ms (host clock); {legend}"
        parts.append(f'<text x="{left}" y="{height * len(lanes) + 24}">{caption}</text>')
        parts.append("</svg>")
        return "\n".join(parts)

    def write_chrome(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.chrome(), f)


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
