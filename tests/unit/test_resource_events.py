"""The cheap resource event: the written-out site walk, add_fast and the slotted Resource observe as before."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator import aclnn, process
from emulator.tracking import (
    LIBRARY_DIRS,
    RUNNER_PREFIXES,
    Registry,
    Resource,
    ResourceKind,
    Site,
    capture_site,
    walk_site,
)

THIS_FILE = __file__
# Where a chain of fake frames is "compiled": the library's folder, a runner's, and user code (this file).
PLACES = {"lib": f"{LIBRARY_DIRS[0]}/_fake_library_frame.py", "user": THIS_FILE}
if RUNNER_PREFIXES:
    PLACES["runner"] = f"{RUNNER_PREFIXES[0].rstrip('/')}/_fake_runner_frame.py"


def _frame_code(place: str) -> CodeType:
    """The code of ``def frame(): return inner()`` as if it were in that file (compiled once per file)."""
    code = _FRAME_CODES.get(place)
    if code is None:
        namespace: dict[str, Any] = {}
        exec(compile("def frame():\n    return inner()\n", PLACES[place], "exec"), namespace)
        code = _FRAME_CODES[place] = namespace["frame"].__code__
    return code


_FRAME_CODES: dict[str, CodeType] = {}


def _chain(places: list[str], leaf: Callable[[], Any]) -> Callable[[], Any]:
    """A call chain whose frames (outermost first) have code objects from those files, ending in ``leaf``."""
    call = leaf
    for place in reversed(places):
        call = FunctionType(_frame_code(place), {"inner": call})
    return call


def _both(skip: int) -> tuple[Site, Site]:
    """One capture each way from this frame (``skip`` >= 2 starts both above it)."""
    return capture_site(skip), walk_site(skip)


def _codes(site: Site) -> list[CodeType]:
    return [code for code, _ in site._raw]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(sorted(PLACES)), max_size=9), st.integers(1, 3))
def test_the_written_out_walk_equals_the_loop(places: list[str], skip: int) -> None:
    """Over any mix of library, runner and user frames, and any skip, both walks keep the same frames."""
    got: list[tuple[Site, Site]] = []
    _chain(places, lambda: got.append(_both(skip + 1)))()
    fast, walked = got[0]
    # both start at or above the leaf, which is suspended in its call of _both: the same frames at the same offsets
    assert _codes(fast) == _codes(walked) and fast._raw == walked._raw
    assert 1 <= len(fast._raw) <= 4
    assert [str(f) for f in fast.stack] == [str(f) for f in walked.stack]


def test_library_frames_below_the_user_frame_are_skipped() -> None:
    """A capture from inside library frames names this function's line first, then its callers."""
    got: list[Site] = []
    line = sys._getframe(0).f_lineno + 1
    _chain(["lib", "lib", "lib"], lambda: got.append(capture_site(3)))()
    site = got[0]
    assert site.top is not None and site.top.file == THIS_FILE
    assert site.top.func == "test_library_frames_below_the_user_frame_are_skipped" and site.top.line == line


def test_add_fast_makes_the_resource_add_makes() -> None:
    """The same fields, counts and listener events as add (the detail as given, a thread id, the ref)."""
    events: list[tuple[str, ResourceKind, int]] = []
    slow, fast = Registry(), Registry()
    for reg in (slow, fast):
        reg.listeners.append(lambda event, res: events.append((event, res.kind, res.key)))
    ref = object()
    a = slow.add(ResourceKind.DEVICE_MEMORY, 64, size=8, device=1, tag="user", ref=ref, charged=512)
    b = fast.add_fast(ResourceKind.DEVICE_MEMORY, 64, ref, 8, 1, "user", {"charged": 512})
    assert a is not None and b is not None
    a.site = b.site = Site(())  # the two calls are on different lines
    assert a == b and repr(a) == repr(b)
    assert b.thread == threading.get_ident() and b.ref is ref and b.owner is None
    assert slow.created == fast.created
    assert events == [("created", ResourceKind.DEVICE_MEMORY, 64)] * 2
    assert fast.remove(ResourceKind.DEVICE_MEMORY, 64) is b and b.ref is None and b.released_at is not None
    assert events[-1] == ("released", ResourceKind.DEVICE_MEMORY, 64)
    off = Registry(enabled=False)
    assert off.add_fast(ResourceKind.TENSOR, 1, ref) is None and not off.created


def test_a_resource_reads_and_compares_as_the_dataclass_did() -> None:
    """detail is a dict made on first read; equality is field by field; a resource is not hashable."""
    res = Resource(ResourceKind.TENSOR, 1, Site(()), 7)
    assert res.detail == {} and res.detail is res.detail
    res.detail["x"] = 1
    assert res == Resource(ResourceKind.TENSOR, 1, res.site, 7, detail={"x": 1})
    assert res != Resource(ResourceKind.TENSOR, 2, res.site, 7, detail={"x": 1})
    assert repr(res).startswith("Resource(kind=<ResourceKind.TENSOR: 'tensor'>, key=1, site=Site(<unknown>)")
    assert "detail={'x': 1}" in repr(res)
    with pytest.raises(TypeError):
        hash(res)


def _create() -> Any:
    return aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, 0x1000)


def test_a_callback_into_user_code_during_a_call_gets_its_own_sites(emu: process.EmulatedProcess) -> None:
    """A listener (user code) that makes and destroys a tensor during another create names its own lines."""
    lines: dict[str, int] = {}
    inner: list[Any] = []

    def listener(event: str, res: Resource) -> None:
        if event == "created" and not inner:
            inner.append(None)
            lines["inner create"] = sys._getframe(0).f_lineno + 1
            inner[0] = _create_here()
            lines["inner destroy"] = sys._getframe(0).f_lineno + 1
            aclnn.aclDestroyTensor(inner[0])

    def _create_here() -> Any:
        return aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, 0x1000)

    emu.registry.listeners.append(listener)
    try:
        outer_line = sys._getframe(0).f_lineno + 1
        outer = aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, 0x1000)
    finally:
        emu.registry.listeners.remove(listener)
    res = emu.registry.get(ResourceKind.TENSOR, id(outer))
    assert res is not None and str(res.site) == f"{THIS_FILE}:{outer_line}"
    gone = emu.registry.released_resource(ResourceKind.TENSOR, id(inner[0]))
    assert gone is not None and gone.site.top is not None and gone.released_at is not None
    assert gone.site.top.func == "_create_here"
    assert [f.func for f in gone.site.stack] == ["_create_here", "listener"]  # the library's add_fast is above it
    assert str(gone.released_at) == f"{THIS_FILE}:{lines['inner destroy']}"
    assert aclnn.aclDestroyTensor(outer) == 0


def test_a_del_that_destroys_a_tensor_during_another_call(emu: process.EmulatedProcess) -> None:
    """A __del__ run inside another create releases its tensor at the __del__'s line; the create keeps its own."""
    victim = _create()
    lines: dict[str, int] = {}

    class Owner:
        def __del__(self) -> None:
            lines["del"] = sys._getframe(0).f_lineno + 1
            aclnn.aclDestroyTensor(victim)

    holder: list[Owner] = [Owner()]

    def drop(event: str, res: Resource) -> None:
        if event == "created" and holder:
            holder.clear()  # the last reference: __del__ runs now, inside the create below

    emu.registry.listeners.append(drop)
    try:
        line = sys._getframe(0).f_lineno + 1
        made = _create()
    finally:
        emu.registry.listeners.remove(drop)
    gone = emu.registry.released_resource(ResourceKind.TENSOR, id(victim))
    assert gone is not None and str(gone.released_at) == f"{THIS_FILE}:{lines['del']}"
    res = emu.registry.get(ResourceKind.TENSOR, id(made))
    assert res is not None and res.site.top is not None and res.site.top.func == "_create"
    assert res.site.stack[1].line == line
    assert aclnn.aclDestroyTensor(made) == 0


def test_a_second_thread_records_its_own_id_and_site(emu: process.EmulatedProcess) -> None:
    """A tensor made in another thread while this one is between calls names that thread and its function."""
    made: list[Any] = []
    lines: list[int] = []

    def work() -> None:
        lines.append(sys._getframe(0).f_lineno + 1)
        made.append(_create())

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    tensor = made[0]
    res = emu.registry.get(ResourceKind.TENSOR, id(tensor))
    assert res is not None and res.thread == thread.ident != threading.get_ident()
    assert res.site.top is not None and res.site.top.func == "_create"
    assert [(f.func, f.line) for f in res.site.stack[1:]] == [("work", lines[0])]  # the bootstrap is cut
    assert aclnn.aclDestroyTensor(tensor) == 0
