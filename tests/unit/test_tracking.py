"""The live-resource registry: creation sites in user code, counts, released-resource memory."""

from __future__ import annotations

import json
import sys
from collections import Counter

import pytest

from emulator import acl, process
from emulator.leaks import CACHE_NAMES
from emulator.tracking import CACHE_KINDS, Registry, ResourceKind, Site, capture_site

THIS_FILE = __file__


def test_capture_site_points_at_the_caller() -> None:
    """A site captured from a test is this file and this line."""
    site = capture_site(1)
    assert site.top is not None
    assert site.top.file == THIS_FILE
    assert site.top.func == "test_capture_site_points_at_the_caller"


def test_every_runtime_resource_records_the_user_line(emu: process.EmulatedProcess) -> None:
    """Allocations, host memory, streams, events, contexts and devices name the line that made them."""
    assert acl.rt.set_device(0) == 0
    line_device = _line_of("acl.rt.set_device(0) == 0")
    ptr, _ = acl.rt.malloc(100, 0)
    line_malloc = _line_of("acl.rt.malloc(100, 0)")
    host, _ = acl.rt.malloc_host(64)
    line_host = _line_of("acl.rt.malloc_host(64)")
    stream, _ = acl.rt.create_stream()
    line_stream = _line_of("acl.rt.create_stream()")
    event, _ = acl.rt.create_event()
    line_event = _line_of("acl.rt.create_event()")
    ctx, _ = acl.rt.create_context(1)
    line_ctx = _line_of("acl.rt.create_context(1)")
    reg = emu.registry
    expected = {
        ("device", 0): line_device,
        ("device_memory", ptr): line_malloc,
        ("host_memory", host): line_host,
        ("stream", stream): line_stream,
        ("event", event): line_event,
        ("context", ctx): line_ctx,
    }
    for (kind, key), line in expected.items():
        res = reg.get(kind, key)
        assert res is not None, kind
        assert str(res.site) == f"{THIS_FILE}:{line}", kind
    assert reg.get("device_memory", ptr).size == 100  # type: ignore[union-attr]


def test_release_is_remembered_with_its_site(emu: process.EmulatedProcess) -> None:
    """A freed allocation leaves the live set and is remembered with the line that freed it."""
    acl.rt.set_device(0)
    ptr, _ = acl.rt.malloc(64, 0)
    acl.rt.free(ptr)
    line_free = _line_of("acl.rt.free(ptr)")
    assert emu.registry.get("device_memory", ptr) is None
    gone = emu.registry.released_resource("device_memory", ptr)
    assert gone is not None and str(gone.released_at) == f"{THIS_FILE}:{line_free}"


def test_counts_follow_creates_and_releases() -> None:
    """created - released == live, per kind."""
    reg = Registry()
    for key in range(5):
        reg.add("tensor", key)
    reg.remove("tensor", 1)
    reg.remove("tensor", 3)
    assert reg.remove("tensor", 3) is None
    assert reg.count("tensor") == 3 == reg.created["tensor"] - reg.released["tensor"]


def _line_of(text: str) -> int:
    with open(THIS_FILE) as source:
        lines = source.read().splitlines()
    for number, line in enumerate(lines, start=1):
        if text in line and "_line_of" not in line:
            return number
    raise AssertionError(text)


def test_resource_kinds_read_as_their_text(emu: process.EmulatedProcess) -> None:
    """Kinds are enum members whose text is what reports, JSON and string lookups have always used."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    (res,) = emu.registry.live(ResourceKind.DEVICE_MEMORY)
    assert res.kind is ResourceKind.DEVICE_MEMORY
    assert (f"{res.kind}", json.dumps([res.kind])) == ("device_memory", '["device_memory"]')
    assert emu.registry.count("device_memory") == 1  # a string kind still finds the resource
    assert acl.rt.free(ptr) == 0
    assert emu.registry.released[ResourceKind.DEVICE_MEMORY] == 1


def test_every_cache_kind_has_a_report_name() -> None:
    """The one cache list is the AI CPU tasks and spaces and the tiling-parse contexts; each has its report name."""
    assert {ResourceKind.TILING_PARSE, ResourceKind.AICPU_TASK_SPACE, ResourceKind.AICPU_TASK} == CACHE_KINDS
    assert set(CACHE_NAMES) == CACHE_KINDS


def test_a_captured_site_keeps_no_frame_alive(emu: process.EmulatedProcess) -> None:
    """A local of the allocating function dies when the function returns, though the site stays.

    Sites hold code objects and instruction offsets, never frames: a frame would keep the caller's
    locals (and their ``__del__``) alive for as long as the allocation is live.
    """
    assert acl.rt.set_device(0) == 0
    died: list[str] = []

    class Local:
        def __del__(self) -> None:
            died.append("local")

    def allocate() -> int:
        local = Local()
        ptr, ret = acl.rt.malloc(64, 0)
        assert ret == 0 and local is not None
        return ptr

    ptr = allocate()
    assert died == ["local"]  # collected at once, by reference counting: nothing holds the frame
    res = emu.registry.get(ResourceKind.DEVICE_MEMORY, ptr)
    assert res is not None and res.site.top is not None and res.site.top.func == "allocate"
    assert acl.rt.free(ptr) == 0


def test_site_lines_are_the_frame_lines_of_every_captured_frame() -> None:
    """The lines worked out later from the stored offsets are what ``f_lineno`` said at capture."""

    def inner() -> tuple[Site, list[int]]:
        site, line = capture_site(1), sys._getframe(0).f_lineno  # one line: the same offset's line
        frame, lines = sys._getframe(0), [line]
        while frame.f_back is not None and len(lines) < 4:
            frame = frame.f_back
            lines.append(frame.f_lineno)
        return site, lines

    def middle() -> tuple[Site, list[int]]:
        return inner()

    site, lines = middle()
    assert [f.func for f in site.stack[:3]] == [
        "inner",
        "middle",
        "test_site_lines_are_the_frame_lines_of_every_captured_frame",
    ]
    assert [f.line for f in site.stack[:3]] == lines[:3]
    assert str(site) == f"{THIS_FILE}:{lines[0]}"


def test_the_graveyard_keeps_the_newest_releases_and_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many are released, the newest GRAVEYARD_SIZE are remembered and at most twice as many are kept."""
    from emulator import tracking

    monkeypatch.setattr(tracking, "GRAVEYARD_SIZE", 8)
    reg = Registry()
    for key in range(100):
        reg.add(ResourceKind.TENSOR, key)
        reg.remove(ResourceKind.TENSOR, key)
        assert len(reg._graveyard) <= 16
    assert all(reg.released_resource(ResourceKind.TENSOR, key) is not None for key in range(92, 100))
    assert reg.released_resource(ResourceKind.TENSOR, 0) is None
    assert reg.created[ResourceKind.TENSOR] == reg.released[ResourceKind.TENSOR] == 100


def test_a_re_registered_key_leaves_the_graveyard() -> None:
    """A key released and then registered again is live, not remembered as released."""
    reg = Registry()
    reg.add(ResourceKind.STREAM, 7)
    reg.remove(ResourceKind.STREAM, 7)
    assert reg.released_resource(ResourceKind.STREAM, 7) is not None
    reg.add(ResourceKind.STREAM, 7)
    assert reg.released_resource(ResourceKind.STREAM, 7) is None
    assert reg.entries[(ResourceKind.STREAM, 7)] is reg.get(ResourceKind.STREAM, 7)


def test_counts_are_counters_of_the_kinds_made() -> None:
    """created / released read as Counters: kinds never made are absent, and a read is a copy."""
    reg = Registry()
    assert reg.created == Counter() and not reg.released
    reg.add(ResourceKind.EVENT, 1)
    counts = reg.created
    counts[ResourceKind.EVENT] += 5
    assert reg.created == Counter({ResourceKind.EVENT: 1})
    assert reg.created["event"] == 1 and reg.created[ResourceKind.TENSOR] == 0


def test_the_entries_view_is_read_only() -> None:
    """The handle checks' view cannot change the registry."""
    reg = Registry()
    with pytest.raises(TypeError):
        reg.entries[(ResourceKind.EVENT, 1)] = None  # type: ignore[index]
