"""The trace's lanes as Perfetto imports them, and the SVG picture (axis, lane labels, op names, axis breaks)."""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.trace import Event, Tracer, start_trace, stop_trace
from emulator.trace_svg import BrokenAxis, render_svg

SVG = "{http://www.w3.org/2000/svg}"
UINT32_MAX = 2**32 - 1


def _coerce_uint32(value: Any) -> int | None:
    """Perfetto's JSON importer reads pid and tid as uint32: an int or a decimal string in range, else nothing."""
    if isinstance(value, str):
        try:
            value = int(value, 10)
        except ValueError:
            return None
    if not isinstance(value, int | float):
        return None
    number = int(value)
    return number if 0 <= number <= UINT32_MAX else None


def perfetto_tracks(chrome: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    """Each event's (pid, tid) as Perfetto files it: a missing or out-of-range pid is 0, such a tid the pid."""
    tracks = []
    for event in chrome["traceEvents"]:
        pid = _coerce_uint32(event.get("pid"))
        pid = 0 if pid is None else pid
        tid = _coerce_uint32(event.get("tid"))
        tracks.append((pid, pid if tid is None else tid, event))
    return tracks


def _tensor(host: np.ndarray) -> tuple[object, int]:
    ptr, ret = acl.rt.malloc(host.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1) == 0
    shape = list(host.shape)
    tensor = aclnn.aclCreateTensor(shape, 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, shape, 1, ptr)
    return tensor, ptr


def _add_on(stream: int) -> None:
    """out = x + y on ``stream``, synchronized, everything released."""
    (x, px), (y, py), (out, po) = (_tensor(np.ones(4, np.float32)) for _ in range(3))
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    assert ret == 0 and ws == 0
    assert aclnn.aclnnAdd(0, 0, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    for tensor in (x, y, out):
        assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    for ptr in (px, py, po):
        assert acl.rt.free(ptr) == 0


@pytest.fixture
def two_streams(emu: process.EmulatedProcess) -> tuple[Tracer, list[int], int]:
    """A traced run: an Add on each of two streams, and a second host thread that makes calls too."""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0 and aclnn.aclnnInit(None) == 0
    tracer = start_trace(emu)
    streams = []
    for _ in range(2):
        stream, ret = acl.rt.create_stream()
        assert ret == 0
        streams.append(stream)
    for stream in streams:
        _add_on(stream)
    worker_ids: list[int] = []

    def worker() -> None:
        worker_ids.append(threading.get_native_id())
        assert acl.rt.set_device(0) == 0
        ptr, ret = acl.rt.malloc(64, 0)
        assert ret == 0 and acl.rt.free(ptr) == 0

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    for stream in streams:
        assert acl.rt.destroy_stream(stream) == 0
    stop_trace(emu)
    return tracer, streams, worker_ids[0]


def test_streams_stay_apart_under_perfetto_coercion(two_streams: tuple[Tracer, list[int], int]) -> None:
    """With tids read as uint32, the tasks of two streams land on two tracks, each named after its stream."""
    tracer, streams, _ = two_streams
    assert all(stream > UINT32_MAX for stream in streams)  # a handle as the tid would fall back to the pid
    tracks = perfetto_tracks(tracer.chrome())
    names = {(pid, tid): e["args"]["name"] for pid, tid, e in tracks if e["name"] == "thread_name"}
    task_tracks = {(pid, tid) for pid, tid, e in tracks if e.get("cat") == "task"}
    assert len(task_tracks) == 2
    assert {names[track] for track in task_tracks} == {f"stream {stream:#x}" for stream in streams}
    assert all(pid != tid for pid, tid in task_tracks)  # not the pid fallback


def test_lanes_have_small_stable_tids_names_and_sort_indexes(two_streams: tuple[Tracer, list[int], int]) -> None:
    """Host threads are tids 1, 2 (the main thread first), the streams 1, 2 by handle; each has a name and an index."""
    tracer, streams, worker = two_streams
    events = tracer.chrome()["traceEvents"]
    meta = {(e["name"], e["pid"], e["tid"]): e["args"] for e in events if e["ph"] == "M"}
    main = threading.main_thread().native_id
    assert meta[("thread_name", 1, 1)] == {"name": f"main thread (tid {main})"}
    assert meta[("thread_name", 1, 2)] == {"name": f"host thread (tid {worker})"}
    for tid, stream in enumerate(sorted(streams), 1):
        assert meta[("thread_name", 100, tid)] == {"name": f"stream {stream:#x}"}
        assert meta[("thread_sort_index", 100, tid)] == {"sort_index": tid}
    assert meta[("process_name", 1, 0)] == {"name": "host (API calls)"}
    assert meta[("process_sort_index", 1, 0)]["sort_index"] < meta[("process_sort_index", 100, 0)]["sort_index"]
    worker_calls = {e["name"] for e in events if e.get("cat") == "api" and e["tid"] == 2}
    assert worker_calls == {"aclrtSetDevice", "aclrtMalloc", "aclrtFree"}
    used = {(e["pid"], e["tid"]) for e in events if e["ph"] in ("X", "i")}
    assert used <= {(pid, tid) for (name, pid, tid) in meta if name == "thread_name"}  # every lane is named


# -- the SVG ---------------------------------------------------------------------------------------------
def _setup_then_kernels() -> list[Event]:
    """A long set-up call (40 ms), then a run of short calls and two 3 us kernels on one stream."""
    events = [Event("api", "aclrtSetDevice", 0.0, 40_000.0, thread=7)]
    t = 40_050.0
    for name in ("aclrtMalloc", "aclCreateTensor", "aclnnAddGetWorkspaceSize", "aclnnAdd", "aclrtSynchronizeStream"):
        events.append(Event("api", name, t, 60.0, thread=7))
        t += 80.0
    events.append(Event("task", "kernel Cast", t - 70.0, 3.0, device=0, stream=0x150000002))
    events.append(Event("task", "kernel Axpy", t - 40.0, 3.0, device=0, stream=0x150000002))
    return events


def _svg(events: list[Event]) -> ET.Element:
    from emulator.trace_lanes import Lanes

    return ET.fromstring(render_svg(events, Lanes.of(events, main_thread=7)))


def test_svg_has_lane_labels_op_names_and_a_time_axis() -> None:
    """Lanes are labelled, the spans' op names are written, and the axis has ticks labelled in ms."""
    root = _svg(_setup_then_kernels())
    lanes = [t.text for t in root.findall(f"{SVG}g[@id='lanes']/{SVG}text")]
    assert lanes == ["main thread (tid 7)", "dev 0 stream 0x150000002"]
    names = {t.text for t in root.findall(f"{SVG}g[@id='names']/{SVG}text")}
    assert {"aclrtSetDevice", "aclnnAdd", "kernel Cast", "kernel Axpy"} <= names
    ticks = [t.text or "" for t in root.findall(f"{SVG}g[@id='axis']/{SVG}text")]
    assert len(ticks) >= 3 and all(tick.endswith(" ms") for tick in ticks)
    values = [float(tick.split()[0]) for tick in ticks]
    assert values[0] == 0 and values == sorted(values) and values[-1] > 40  # real times, across the cut


def test_set_up_time_is_broken_out_of_the_axis() -> None:
    """The 40 ms set-up is cut (a break labelled with its length) and no longer fills the picture."""
    root = _svg(_setup_then_kernels())
    rects = {
        r.findtext(f"{SVG}title"): float(r.get("width", 0)) for r in root.findall(f"{SVG}g[@id='spans']/{SVG}rect")
    }
    setup = rects["aclrtSetDevice (40000.0 us)"]
    calls = sum(width for title, width in rects.items() if title and not title.startswith(("aclrtSetDevice", "kernel")))
    assert setup < calls  # on one linear scale it would be 40000 / 300 times wider than these five calls together
    cuts = [t.text for t in root.findall(f"{SVG}g[@id='breaks']/{SVG}text")]
    assert cuts == ["40.0 ms cut"]


def test_broken_axis_keeps_proportions_outside_the_cut() -> None:
    """Short intervals keep their true ratio; the long one is capped; positions only ever increase."""
    axis = BrokenAxis([0.0, 10.0, 20.0, 30.0, 10_030.0, 10_040.0])
    assert axis(20.0) - axis(10.0) == pytest.approx(axis(10.0) - axis(0.0))
    assert [(c.start_us, c.end_us) for c in axis.cuts] == [(30.0, 10_030.0)]
    assert axis(10_030.0) - axis(30.0) == pytest.approx(axis.cap)
    points = [axis(t) for t in (0.0, 5.0, 30.0, 5_000.0, 10_030.0, 10_040.0)]
    assert points == sorted(points)


def test_no_break_when_nothing_dominates() -> None:
    """Evenly spread calls: no cut, a plain linear axis."""
    events = [Event("api", f"call{i}", i * 100.0, 50.0, thread=1) for i in range(10)]
    root = _svg(events)
    assert root.findall(f"{SVG}g[@id='breaks']/{SVG}text") == []
