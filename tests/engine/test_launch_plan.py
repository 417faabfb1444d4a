"""The compiled launch plan of an op-cache entry: a replay gives what a full (uncached) call gives.

Each scenario runs twice, in a process with the op cache and in one without it (DISABLE_L2_CACHE),
from the same lines of this file, after one warm-up call (which, with the cache, makes the entry
and its plan). What the two must agree on: every status, the output bytes, the sanitizer reports
(api, message, kind and site), the recent error message and the api / task events of a trace. The
scenarios are the plan's invariants: the device's proof of the last launch must not outlive a
freed buffer, a buffer re-allocated at the same or another address, another stream, an armed
fault, a trace or a sanitizer switched on or off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, process, trace
from emulator.acl import constants as c
from emulator.config import Settings
from emulator.engine.plan import LaunchPlan
from emulator.engine.replay import PlanLaunch
from emulator.faults import Injector

N = 16


@dataclass
class World:
    """One emulated process with x, y, out (N float32 each) on the device and an alpha of 1."""

    stream: int
    ptrs: dict[str, int]
    tensors: dict[str, Any]
    alpha: Any
    seen: list[object] = field(default_factory=list)

    def tensor(self, name: str, data: np.ndarray | None) -> None:
        """A new device buffer and tensor for ``name`` (its bytes left unwritten when ``data`` is None)."""
        ptr, ret = acl.rt.malloc(N * 4, 0)
        assert ret == 0
        if data is not None:
            self.write(ptr, data)
        self.ptrs[name] = ptr
        self.tensors[name] = aclnn.aclCreateTensor([N], 1, aclnn.ACL_FLOAT, None, 0, 2, [N], 1, ptr)

    @staticmethod
    def write(ptr: int, data: np.ndarray) -> None:
        assert acl.rt.memcpy(ptr, data.nbytes, data.ctypes.data, data.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0

    def add(self, stream: int | None = None) -> None:
        """One two-phase Add and a synchronize; what every call returned is recorded."""
        t = self.tensors
        ws, executor, ret1 = aclnn.aclnnAddGetWorkspaceSize(t["x"], t["y"], self.alpha, t["out"])
        ret2 = aclnn.aclnnAdd(0, ws, executor, self.stream if stream is None else stream)
        ret3 = acl.rt.synchronize_stream(self.stream if stream is None else stream)
        self.seen.append((ret1, ret2, ret3, recent_message()))

    def out(self) -> bytes:
        host = np.zeros(N, np.float32)
        acl.rt.memcpy(host.ctypes.data, host.nbytes, self.ptrs["out"], host.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
        return host.tobytes()

    def observed(self) -> tuple[object, ...]:
        reports = [(d.api, handle_ids(d.message), d.kind, str(d.site)) for d in process.current().diagnostics]
        return tuple(self.seen), self.out(), tuple(reports)


def recent_message() -> str | None:
    """aclGetRecentErrMsg without its "[PID: n] time" prefix, which differs between the two processes."""
    text = acl.get_recent_err_msg()
    return re.sub(r"^\[PID: \d+\] \S+ ", "", text) if text else text


def handle_ids(message: str) -> str:
    """A report's text without the handles' Python ids (object addresses differ between the two processes)."""
    return re.sub(r"(aclTensor|aclScalar|aclIntArray) 0x[0-9a-f]+", r"\1 <id>", message)


X = np.arange(N, dtype=np.float32)
Y = np.full(N, 0.5, np.float32)


@contextmanager
def world(cached: bool, **overrides: object) -> Iterator[World]:
    update = {"disable_l2_cache": not cached, **overrides}
    with process.fresh(Settings.from_env().model_copy(update=update)):
        acl.rt.set_device(0)
        stream, _ = acl.rt.create_stream()
        aclnn.aclnnInit(None)
        w = World(stream, {}, {}, aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT))
        w.tensor("x", X)
        w.tensor("y", Y)
        w.tensor("out", np.zeros(N, np.float32))
        w.add()  # the warm-up: with the cache, the entry and its plan
        yield w


def hits() -> int:
    return process.current().aclnn.op_cache.thread().hits


def both(scenario: Callable[[World], None], **overrides: object) -> tuple[object, ...]:
    """The scenario's observations in the cached process; asserted equal to the uncached one's."""
    with world(True, **overrides) as w:
        scenario(w)
        cached = w.observed()
        assert hits() > 0, "the scenario never replayed"
    with world(False, **overrides) as w:
        scenario(w)
        uncached = w.observed()
    assert cached == uncached
    return cached


def test_replay_reads_the_new_inputs() -> None:
    def scenario(w: World) -> None:
        w.write(w.ptrs["x"], X * 3)
        w.add()
        w.add()

    _, out, reports = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X * 3 + Y)
    assert not reports


def test_a_replay_launches_the_plan() -> None:
    """The hit really goes through the entry's compiled replay of the plan (not the full launch),
    with the plan's memo, the same KernelLaunch while the addresses stay, and the bound kernel body."""
    with world(True) as w:
        launched: list[tuple[object, object]] = []
        original = PlanLaunch.launch

        def spy(self: PlanLaunch, *args: Any) -> None:
            original(self, *args)
            launched.append((self.plan, self.kernel))

        PlanLaunch.launch = spy  # type: ignore[method-assign]
        try:
            w.add()
            w.add()
            w.add()
        finally:
            PlanLaunch.launch = original  # type: ignore[method-assign]
        assert len(launched) == 3 and launched[0][0] is launched[1][0] is launched[2][0]
        assert launched[1][1] is launched[2][1]  # same addresses: the launch is not built again
        plan = launched[0][0]
        assert isinstance(plan, LaunchPlan) and plan.memo.bounds is not None and plan.memo.views is not None
        assert len(plan.memo.views) == 5 and plan.memo.views[4][0] is launched[2][1]  # the body bound to it


def test_a_freed_input_is_caught_as_without_the_plan() -> None:
    def scenario(w: World) -> None:
        w.add()  # the plan's memo now holds the proof for these buffers
        assert acl.rt.free(w.ptrs["x"]) == 0
        w.add()

    seen, _, _ = both(scenario)
    assert seen[-1][:3] != (0, 0, 0)  # type: ignore[index]


def test_an_input_freed_between_launch_and_synchronize() -> None:
    """The task runs at the synchronize: the memo's proof is checked again there, not only at launch."""

    def scenario(w: World) -> None:
        t = w.tensors
        ws, executor, ret1 = aclnn.aclnnAddGetWorkspaceSize(t["x"], t["y"], w.alpha, t["out"])
        ret2 = aclnn.aclnnAdd(0, ws, executor, w.stream)
        ret_free = acl.rt.free(w.ptrs["y"])
        ret3 = acl.rt.synchronize_stream(w.stream)
        w.seen.append((ret1, ret2, ret_free, ret3, recent_message()))

    both(scenario)


def test_reallocated_at_the_same_size_is_a_new_unwritten_buffer() -> None:
    """Free and malloc again (often the same address): a new allocation, never written: initcheck reports it."""

    def scenario(w: World) -> None:
        w.add()
        old = w.ptrs["x"]
        assert acl.rt.free(old) == 0
        w.tensor("x", None)
        w.seen.append(w.ptrs["x"] == old)
        w.add()

    _, _, reports = both(scenario)
    assert any("uninitialised read" in str(r[1]) for r in reports)  # type: ignore[union-attr]


def test_an_input_moved_to_another_address() -> None:
    def scenario(w: World) -> None:
        w.add()
        keep = w.ptrs["x"]
        w.tensor("x", X * 2)  # the old buffer stays allocated: a new address for the same signature
        w.seen.append(w.ptrs["x"] != keep)
        w.add()

    _, out, reports = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X * 2 + Y)
    assert not reports


def test_another_stream() -> None:
    def scenario(w: World) -> None:
        other, ret = acl.rt.create_stream()
        assert ret == 0
        w.write(w.ptrs["x"], X + 1)
        w.add(other)
        w.add()

    _, out, _ = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X + 1 + Y)


def test_an_armed_fault_fires_at_the_same_call() -> None:
    def scenario(w: World) -> None:
        injector = Injector()
        injector.inject("aclnnAdd", nth=1)
        try:
            w.add()
        finally:
            injector.clear()
        w.add()

    seen, _, _ = both(scenario)
    assert seen[1][1] != 0 and seen[2][:3] == (0, 0, 0)  # type: ignore[index]


def test_a_trace_records_the_same_api_and_task_events() -> None:
    def events_of(cached: bool) -> list[tuple[str, str, int | None]]:
        with world(cached) as w:
            tracer = trace.start_trace()
            w.add()
            w.add()
            trace.stop_trace()
            return [(e.kind, e.name, e.status) for e in tracer.events if e.kind in ("api", "task")]

    cached = events_of(True)
    assert cached == events_of(False)
    assert [name for kind, name, _ in cached if kind == "api"].count("aclnnAdd") == 2


def test_uninitialised_input_with_initcheck_on_and_off() -> None:
    def scenario(w: World) -> None:
        w.tensor("y", None)  # never written
        w.add()
        w.add()

    _, _, on = both(scenario)
    assert sum("uninitialised read" in str(r[1]) for r in on) == 2  # type: ignore[union-attr]
    _, _, off = both(scenario, initcheck=False)
    assert not off


def test_tracking_off() -> None:
    def scenario(w: World) -> None:
        w.write(w.ptrs["y"], Y * 4)
        w.add()
        assert acl.rt.free(w.ptrs["x"]) == 0
        w.add()

    both(scenario, tracking=False)


def signature(case: tuple[tuple[int, ...], int, float, bool]) -> tuple[object, ...]:
    """What the call's key sees: a 1-D view has one stride whichever way it is "transposed"."""
    shape, dtype, alpha, transposed = case
    return shape, dtype, alpha, transposed and len(shape) == 2


SHAPES = st.sampled_from([(16,), (4, 4), (2, 8), (8, 2)])
DTYPES = st.sampled_from([aclnn.ACL_FLOAT, aclnn.ACL_FLOAT16])


@settings(max_examples=12, deadline=None)
@given(first=st.tuples(SHAPES, DTYPES, st.sampled_from([1.0, 2.0]), st.booleans()),
       second=st.tuples(SHAPES, DTYPES, st.sampled_from([1.0, 2.0]), st.booleans()))  # fmt: skip
def test_signatures_that_differ_never_share_a_plan(
    first: tuple[tuple[int, ...], int, float, bool], second: tuple[tuple[int, ...], int, float, bool]
) -> None:
    """Two calls share an entry (and so a plan) only when shape, dtype, alpha and strides all agree;
    either way the second call's result is its own signature's."""

    def call(shape: tuple[int, ...], dtype: int, alpha: float, transposed: bool) -> np.ndarray:
        np_dtype = np.float32 if dtype == aclnn.ACL_FLOAT else np.float16
        rows, cols = (shape[0], shape[-1]) if len(shape) == 2 else (1, shape[0])
        strides = [1, rows] if transposed and len(shape) == 2 else ([cols, 1] if len(shape) == 2 else [1])
        handles = []
        data = [np.arange(N, dtype=np_dtype), np.full(N, 3, np_dtype), np.zeros(N, np_dtype)]
        for arr in data:
            ptr, _ = acl.rt.malloc(arr.nbytes, 0)
            World.write(ptr, arr)
            handles.append((aclnn.aclCreateTensor(list(shape), len(shape), dtype, strides, 0, 2, [N], 1, ptr), ptr))
        scalar = aclnn.aclCreateScalar(alpha, aclnn.ACL_FLOAT)
        ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(handles[0][0], handles[1][0], scalar, handles[2][0])
        assert ret == 0
        workspace = acl.rt.malloc(ws, 0)[0] if ws else 0
        assert aclnn.aclnnAdd(workspace, ws, executor, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        host = np.zeros(N, np_dtype)
        acl.rt.memcpy(host.ctypes.data, host.nbytes, handles[2][1], host.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
        return host

    with process.fresh():
        acl.rt.set_device(0)
        stream, _ = acl.rt.create_stream()
        aclnn.aclnnInit(None)
        call(*first)
        call(*first)  # the first signature's entry is usable now
        before = hits()
        got = call(*second)
        assert (hits() > before) == (signature(first) == signature(second))
        np_dtype = np.float32 if second[1] == aclnn.ACL_FLOAT else np.float16
        x = np.arange(N, dtype=np_dtype)
        alpha = second[2]  # any view: the same storage elements pair up, in storage order
        expected = (x + np_dtype(3) * np_dtype(alpha)).astype(np_dtype)
        np.testing.assert_array_equal(got, expected)


# -- the shortcuts of a cached call: the guard of phase 1, the reused launch of phase 2 ---------------


def test_a_tensor_reshaped_through_its_setter_between_calls() -> None:
    """aclInitTensor changes a tensor in place: the guard (the same object as last time) must not hold."""

    def scenario(w: World) -> None:
        w.add()
        x = w.tensors["x"]
        w.seen.append(aclnn.aclInitTensor(x, [2, 8], 2, aclnn.ACL_FLOAT, None, 0, 2, [N], 1, 0))
        w.add()  # [2, 8] + [16] does not broadcast: the op's own check, not a replay
        w.seen.append(aclnn.aclInitTensor(x, [N], 1, aclnn.ACL_FLOAT, None, 0, 2, [N], 1, 0))
        w.add()
        w.add()

    seen, out, _ = both(scenario)
    assert seen[3][0] != 0 and seen[-1][:3] == (0, 0, 0)  # type: ignore[index]
    assert np.array_equal(np.frombuffer(out, np.float32), X + Y)


def test_an_address_set_between_calls() -> None:
    """aclSetRawTensorAddr moves the same tensor object: the replay reads the new address."""

    def scenario(w: World) -> None:
        w.add()
        ptr, ret = acl.rt.malloc(N * 4, 0)
        assert ret == 0
        w.write(ptr, X * 5)
        w.seen.append(aclnn.aclSetRawTensorAddr(w.tensors["x"], ptr))
        w.add()
        w.write(w.ptrs["x"], X * 7)  # the old buffer: no longer read
        w.add()

    _, out, reports = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X * 5 + Y)
    assert not reports


def test_a_tensor_destroyed_and_created_again_at_the_same_address() -> None:
    def scenario(w: World) -> None:
        w.add()
        old = w.tensors["x"]
        w.seen.append(aclnn.aclDestroyTensor(old))
        w.add()  # the destroyed object itself: the sanitizer's use-after-destroy report, as without the cache
        w.tensors["x"] = aclnn.aclCreateTensor([N], 1, aclnn.ACL_FLOAT, None, 0, 2, [N], 1, w.ptrs["x"])
        w.write(w.ptrs["x"], X * 2)
        w.add()
        w.add()

    _, out, reports = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X * 2 + Y)
    assert any("already destroyed" in str(r[1]) for r in reports)  # type: ignore[union-attr]


def test_alpha_replaced_between_calls() -> None:
    def scenario(w: World) -> None:
        w.add()
        w.alpha = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)
        w.add()
        w.add()

    _, out, _ = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X + 2 * Y)


def test_tracing_switched_on_between_replays() -> None:
    def events_of(cached: bool) -> list[tuple[str, str, int | None]]:
        with world(cached) as w:
            w.add()
            w.add()
            tracer = trace.start_trace()
            w.add()
            w.add()
            trace.stop_trace()
            w.add()
            return [(e.kind, e.name, e.status) for e in tracer.events if e.kind in ("api", "task")]

    cached = events_of(True)
    assert cached == events_of(False)
    assert [name for kind, name, _ in cached if kind == "task"]  # the replayed kernels are on the trace


def test_a_fault_armed_between_replays() -> None:
    def scenario(w: World) -> None:
        w.add()
        w.add()
        injector = Injector()
        injector.inject("aclnnAddGetWorkspaceSize", nth=1)
        injector.inject("aclrtSynchronizeStream", nth=2)
        try:
            w.add()
            w.add()
        finally:
            injector.clear()
        w.add()

    seen, _, _ = both(scenario)
    assert seen[3][0] != 0 and seen[4][2] != 0 and seen[5][:3] == (0, 0, 0)  # type: ignore[index]


def test_an_output_written_elsewhere_between_replays_is_written_again() -> None:
    """The bound kernel body computes from the bytes at each run, into the same output."""

    def scenario(w: World) -> None:
        w.add()
        w.write(w.ptrs["out"], np.full(N, 9, np.float32))
        w.write(w.ptrs["y"], Y * 8)
        w.add()

    _, out, _ = both(scenario)
    assert np.array_equal(np.frombuffer(out, np.float32), X + Y * 8)


def test_two_replays_queued_before_one_synchronize_report_their_own_sites() -> None:
    """One KernelLaunch serves both; each call's initcheck report names that call's line."""

    def scenario(w: World) -> None:
        w.tensor("y", None)  # never written
        t = w.tensors
        for _ in range(2):
            ws, executor, ret1 = aclnn.aclnnAddGetWorkspaceSize(t["x"], t["y"], w.alpha, t["out"])
            w.seen.append((ret1, aclnn.aclnnAdd(0, ws, executor, w.stream)))
        ws, executor, ret1 = aclnn.aclnnAddGetWorkspaceSize(t["x"], t["y"], w.alpha, t["out"])
        w.seen.append((ret1, aclnn.aclnnAdd(0, ws, executor, w.stream)))  # another line of this file
        w.seen.append(acl.rt.synchronize_stream(w.stream))

    _, _, reports = both(scenario)
    sites = [r[3] for r in reports if "uninitialised read" in str(r[1])]
    assert len(sites) == 3 and sites[0] == sites[1] != sites[2]


def test_bound_initcheck_counts_a_half_written_input_and_marks_the_output() -> None:
    """The replays run initcheck's bound checks: a half-written input is reported with the same count and
    first offset, and the output they wrote counts as written for the next op that reads it."""

    def scenario(w: World) -> None:
        w.tensor("x", None)
        w.tensor("out", None)
        half = np.arange(N // 2, dtype=np.float32)
        assert acl.rt.memcpy(w.ptrs["x"], half.nbytes, half.ctypes.data, half.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        for _ in range(3):
            w.add()
        blank, ret = acl.rt.malloc(N * 4, 0)  # never written: copied over the output, it unwrites it
        assert ret == 0
        w.seen.append(acl.rt.memcpy(w.ptrs["out"], N * 4, blank, N * 4, c.ACL_MEMCPY_DEVICE_TO_DEVICE))
        w.add()  # the bound replay writes the output again
        t = w.tensors
        w.tensor("z", np.zeros(N, np.float32))
        ws, executor, ret1 = aclnn.aclnnAddGetWorkspaceSize(t["out"], t["y"], w.alpha, w.tensors["z"])
        w.seen.append((ret1, aclnn.aclnnAdd(0, ws, executor, w.stream), acl.rt.synchronize_stream(w.stream)))

    _, _, reports = both(scenario)
    uninit = [str(r[1]) for r in reports if "uninitialised read" in str(r[1])]
    assert len(uninit) == 4 and all("32 of the 64 bytes" in text and "+32" in text for text in uninit)


def test_a_list_argument_replays_with_its_members_addresses() -> None:
    """aclnnCat's inputs come in a tensor list: a list takes the full key (no guard), and the
    compiled replay reads each member's address; a new list over a moved member reads the new one."""

    def cat(w: World, members: list[str]) -> None:
        t = w.tensors
        tensors = aclnn.aclCreateTensorList([t[name] for name in members], len(members))
        ws, executor, ret1 = aclnn.aclnnCatGetWorkspaceSize(tensors, 0, t["wide"])
        ret2 = aclnn.aclnnCat(0, ws, executor, w.stream)
        ret3 = acl.rt.synchronize_stream(w.stream)
        w.seen.append((ret1, ret2, ret3, recent_message()))

    def scenario(w: World) -> None:
        ptr, ret = acl.rt.malloc(2 * N * 4, 0)
        assert ret == 0
        w.ptrs["wide"] = ptr
        w.tensors["wide"] = aclnn.aclCreateTensor([2 * N], 1, aclnn.ACL_FLOAT, None, 0, 2, [2 * N], 1, ptr)
        for _ in range(3):
            cat(w, ["x", "y"])
        w.tensor("y", X * 4)  # a new buffer and tensor for the second member
        cat(w, ["x", "y"])
        cat(w, ["x", "y"])
        host = np.zeros(2 * N, np.float32)
        acl.rt.memcpy(host.ctypes.data, host.nbytes, ptr, host.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
        w.seen.append(host.tobytes())

    seen, _, reports = both(scenario)
    assert np.array_equal(np.frombuffer(seen[-1], np.float32), np.concatenate([X, X * 4]))  # type: ignore[arg-type]
    assert not reports


# -- launches with host data in the argument block: ReduceSum's axes, Adds' scalar, ConstantPadNd's pads ----

ROWS, COLS = 4, N // 4


def matrix(w: World, name: str, shape: list[int], data: np.ndarray | None = None) -> None:
    """A tensor of ``shape`` over a new buffer (float32, contiguous; left unwritten when ``data`` is None)."""
    count = int(np.prod(shape))
    ptr, ret = acl.rt.malloc(count * 4, 0)
    assert ret == 0
    if data is not None:
        w.write(ptr, data.astype(np.float32))
    w.ptrs[name] = ptr
    w.tensors[name] = aclnn.aclCreateTensor(shape, len(shape), aclnn.ACL_FLOAT, None, 0, 2, shape, len(shape), ptr)


def read(w: World, name: str, count: int) -> bytes:
    host = np.zeros(count, np.float32)
    acl.rt.memcpy(host.ctypes.data, host.nbytes, w.ptrs[name], host.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
    return host.tobytes()


def two_phase(w: World, name: str, *args: Any) -> None:
    """One two-phase call of aclnn``name`` with a workspace of the size phase 1 asks for, and a synchronize."""
    ws, executor, ret1 = getattr(aclnn, f"aclnn{name}GetWorkspaceSize")(*args)
    workspace = acl.rt.malloc(ws, 0)[0] if ws and ret1 == 0 else 0
    ret2 = getattr(aclnn, f"aclnn{name}")(workspace, ws, executor, w.stream)
    ret3 = acl.rt.synchronize_stream(w.stream)
    if workspace:
        acl.rt.free(workspace)
    w.seen.append((name, ret1, ret2, ret3, recent_message()))


def reduce_sum(w: World, dims: Any, keep: bool = False, out: str = "rsum") -> None:
    """ReduceSum of the ROWS x COLS ``m`` into ``out``; the output's bytes join what the call returned."""
    two_phase(w, "ReduceSum", w.tensors["m"], dims, keep, aclnn.ACL_FLOAT, w.tensors[out])
    w.seen.append(read(w, out, ROWS if "sum" in out or "keep" in out else COLS))


M = np.arange(N, dtype=np.float32).reshape(ROWS, COLS)


def reduce_world(w: World) -> None:
    matrix(w, "m", [ROWS, COLS], M)
    matrix(w, "rsum", [ROWS])
    matrix(w, "rkeep", [ROWS, 1])
    matrix(w, "csum", [COLS])


def sums(seen: list[object]) -> list[np.ndarray]:
    return [np.frombuffer(s, np.float32) for s in seen if isinstance(s, bytes)]


def statuses(seen: list[object]) -> list[tuple[object, ...]]:
    """What each two-phase call returned (name, phase 1, phase 2, synchronize, message), in order."""
    return [s for s in seen if isinstance(s, tuple) and len(s) == 5]


def test_reduce_sum_replays_the_plan_with_its_axes() -> None:
    """ReduceSum's axes reach the kernel as host data: the replay goes through the compiled plan,
    which carries the axes' bytes, and the host array behind them is read-only from then on."""
    with world(True) as w:
        reduce_world(w)
        dims = aclnn.aclCreateIntArray([1], 1)
        launched: list[PlanLaunch] = []
        original = PlanLaunch.launch

        def spy(self: PlanLaunch, *args: Any) -> None:
            original(self, *args)
            launched.append(self)

        PlanLaunch.launch = spy  # type: ignore[method-assign]
        try:
            for _ in range(3):
                reduce_sum(w, dims)
        finally:
            PlanLaunch.launch = original  # type: ignore[method-assign]
        assert [launch.launcher.name for launch in launched] == ["ReduceSum", "ReduceSum"]
        plan = launched[0].plan
        assert plan.inline == ((1, np.array([1], np.int64).tobytes()),)
        assert launched[0].kernel is launched[1].kernel and launched[1].kernel is not None
        assert launched[1].kernel.inline_args == plan.inline
        host = [t for t in launched[0].launcher.pack.inputs if getattr(t, "on_host", False)]
        assert len(host) == 1 and not host[0].storage.host.flags.writeable  # type: ignore[attr-defined]
        assert all(np.array_equal(s, M.sum(axis=1)) for s in sums(w.seen))


def test_reduce_sum_with_new_axes_arrays_of_equal_values() -> None:
    """A new aclIntArray of the same values is the same key: the replay reduces the same axes;
    other values (even ones that wrap to the same axis) are another entry with its own plan."""

    def scenario(w: World) -> None:
        reduce_world(w)
        for _ in range(3):
            reduce_sum(w, aclnn.aclCreateIntArray([1], 1))
        reduce_sum(w, aclnn.aclCreateIntArray([-1], 1))
        reduce_sum(w, aclnn.aclCreateIntArray([0], 1), out="csum")
        reduce_sum(w, aclnn.aclCreateIntArray([0], 1), out="csum")
        w.write(w.ptrs["m"], M * 2)
        reduce_sum(w, aclnn.aclCreateIntArray([1], 1))
        reduce_sum(w, aclnn.aclCreateIntArray([-1], 1))

    seen, _, reports = both(scenario)
    got = sums(list(seen))  # type: ignore[arg-type]
    rows, cols = M.sum(axis=1), M.sum(axis=0)
    assert [g.tobytes() for g in got] == [a.tobytes() for a in (rows, rows, rows, rows, cols, cols, rows * 2, rows * 2)]
    assert not reports


def test_reduce_sum_axes_array_destroyed_and_made_again() -> None:
    def scenario(w: World) -> None:
        reduce_world(w)
        dims = aclnn.aclCreateIntArray([1], 1)
        reduce_sum(w, dims)
        reduce_sum(w, dims)
        w.seen.append(aclnn.aclDestroyIntArray(dims))
        reduce_sum(w, dims)  # the destroyed array itself: the sanitizer's report (then it reads on), as uncached
        dims = aclnn.aclCreateIntArray([1], 1)
        reduce_sum(w, dims)
        reduce_sum(w, dims)

    seen, _, reports = both(scenario)
    calls = statuses(list(seen))  # type: ignore[arg-type]
    assert calls[-1][:4] == ("ReduceSum", 0, 0, 0)
    assert any("already destroyed" in str(r[1]) for r in reports)  # type: ignore[union-attr]
    assert np.array_equal(sums(list(seen))[-1], M.sum(axis=1))  # type: ignore[arg-type]


def test_reduce_sum_output_freed_between_calls() -> None:
    def scenario(w: World) -> None:
        reduce_world(w)
        dims = aclnn.aclCreateIntArray([1], 1)
        reduce_sum(w, dims)
        reduce_sum(w, dims)
        assert acl.rt.free(w.ptrs["rsum"]) == 0
        two_phase(w, "ReduceSum", w.tensors["m"], dims, False, aclnn.ACL_FLOAT, w.tensors["rsum"])
        matrix(w, "rsum", [ROWS])  # a new buffer and tensor: the same signature again
        reduce_sum(w, dims)
        reduce_sum(w, dims)

    seen, _, _ = both(scenario)
    calls = statuses(list(seen))  # type: ignore[arg-type]
    assert calls[2][1:4] != (0, 0, 0) and calls[-1][1:4] == (0, 0, 0)
    assert np.array_equal(sums(list(seen))[-1], M.sum(axis=1))  # type: ignore[arg-type]


def test_reduce_sum_keepdim_changed() -> None:
    """keepDims is in the key: switched, the call is another entry (or fails its shape check)."""

    def scenario(w: World) -> None:
        reduce_world(w)
        dims = aclnn.aclCreateIntArray([1], 1)
        reduce_sum(w, dims)
        reduce_sum(w, dims)
        two_phase(w, "ReduceSum", w.tensors["m"], dims, True, aclnn.ACL_FLOAT, w.tensors["rsum"])  # [4] != [4, 1]
        reduce_sum(w, dims, keep=True, out="rkeep")
        reduce_sum(w, dims, keep=True, out="rkeep")
        reduce_sum(w, dims)

    seen, _, _ = both(scenario)
    calls = statuses(list(seen))  # type: ignore[arg-type]
    assert calls[2][1] != 0 and all(call[1:4] == (0, 0, 0) for call in calls[3:])
    assert all(np.array_equal(s, M.sum(axis=1)) for s in sums(list(seen)))  # type: ignore[arg-type]


def test_adds_with_scalars_of_equal_and_other_values() -> None:
    """Adds' scalar becomes a 0-d host tensor of the launch: an equal scalar (a new object) replays
    the plan's bytes, another value is another entry, a destroyed scalar is reported as without the cache."""

    def adds(w: World, other: Any) -> None:
        two_phase(w, "Adds", w.tensors["x"], other, w.alpha, w.tensors["out"])
        w.seen.append(w.out())

    def scenario(w: World) -> None:
        for _ in range(3):
            adds(w, aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT))
        adds(w, aclnn.aclCreateScalar(3.0, aclnn.ACL_FLOAT))
        three = aclnn.aclCreateScalar(3.0, aclnn.ACL_FLOAT)
        adds(w, three)
        w.seen.append(aclnn.aclDestroyScalar(three))
        adds(w, three)
        adds(w, aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT))

    seen, _, reports = both(scenario)
    outs = [np.frombuffer(s, np.float32) for s in seen if isinstance(s, bytes)]
    assert [o.tobytes() for o in outs[:5]] == [(X + v).tobytes() for v in (2, 2, 2, 3, 3)]
    assert np.array_equal(outs[-1], X + 2)
    assert any("already destroyed" in str(r[1]) for r in reports)  # type: ignore[union-attr]


def test_constant_pad_with_new_pad_arrays() -> None:
    """ConstantPadNd's paddings and value reach PadV3 as host data; equal arrays replay, others do not."""

    def pad(w: World, pads: list[int], out: str, count: int) -> None:
        array = aclnn.aclCreateIntArray(pads, len(pads))
        value = aclnn.aclCreateScalar(-1.0, aclnn.ACL_FLOAT)
        two_phase(w, "ConstantPadNd", w.tensors["m"], array, value, w.tensors[out])
        w.seen.append(read(w, out, count))

    def scenario(w: World) -> None:
        matrix(w, "m", [ROWS, COLS], M)
        matrix(w, "wide", [ROWS, COLS + 2])
        for _ in range(3):
            pad(w, [1, 1], "wide", ROWS * (COLS + 2))
        pad(w, [2, 0], "wide", ROWS * (COLS + 2))
        pad(w, [2, 0], "wide", ROWS * (COLS + 2))
        pad(w, [1, 1], "wide", ROWS * (COLS + 2))

    seen, _, reports = both(scenario)
    outs = [np.frombuffer(s, np.float32).reshape(ROWS, COLS + 2) for s in seen if isinstance(s, bytes)]
    centred, left = np.pad(M, ((0, 0), (1, 1)), constant_values=-1), np.pad(M, ((0, 0), (2, 0)), constant_values=-1)
    assert [o.tobytes() for o in outs] == [a.tobytes() for a in (centred,) * 3 + (left, left, centred)]
    assert not reports


def test_reduce_sum_trace_and_uninitialised_input() -> None:
    """The replayed ReduceSum is on the trace as without the cache, and initcheck reports its
    never-written input at each call."""

    def events_of(cached: bool) -> list[tuple[str, str, int | None]]:
        with world(cached) as w:
            reduce_world(w)
            dims = aclnn.aclCreateIntArray([1], 1)
            reduce_sum(w, dims)
            tracer = trace.start_trace()
            reduce_sum(w, dims)
            reduce_sum(w, dims)
            trace.stop_trace()
            return [(e.kind, e.name, e.status) for e in tracer.events if e.kind in ("api", "task")]

    cached = events_of(True)
    assert cached == events_of(False)
    assert [name for kind, name, _ in cached if kind == "api"].count("aclnnReduceSum") == 2

    def scenario(w: World) -> None:
        reduce_world(w)
        matrix(w, "m", [ROWS, COLS])  # never written
        dims = aclnn.aclCreateIntArray([1], 1)
        for _ in range(3):
            reduce_sum(w, dims)

    _, _, reports = both(scenario)
    assert sum("uninitialised read" in str(r[1]) for r in reports) == 3  # type: ignore[union-attr]


AXES = st.sampled_from([[0], [1], [-1], [-2], [0, 1], [1, 0], []])


@settings(max_examples=12, deadline=None)
@given(first=st.tuples(AXES, st.booleans()), second=st.tuples(AXES, st.booleans()))
def test_reduce_sum_axes_that_differ_never_share_a_plan(
    first: tuple[list[int], bool], second: tuple[list[int], bool]
) -> None:
    """Two ReduceSum calls share an entry (and so its recorded axes) only when the axes' values and
    keepDims agree; either way the second call sums over its own axes."""

    def call(w: World, dims: list[int], keep: bool) -> np.ndarray:
        wrapped = sorted({d % 2 for d in dims}) if dims else [0, 1]
        shape = [1 if i in wrapped else n for i, n in enumerate((ROWS, COLS))] if keep else [
            n for i, n in enumerate((ROWS, COLS)) if i not in wrapped
        ]  # fmt: skip
        matrix(w, "r", shape or [1])
        if not shape:
            w.tensors["r"] = aclnn.aclCreateTensor([], 0, aclnn.ACL_FLOAT, None, 0, 2, [], 0, w.ptrs["r"])
        two_phase(w, "ReduceSum", w.tensors["m"], aclnn.aclCreateIntArray(dims, len(dims)), keep, aclnn.ACL_FLOAT,
                  w.tensors["r"])  # fmt: skip
        assert w.seen[-1][1:4] == (0, 0, 0), w.seen[-1]  # type: ignore[index]
        count = int(np.prod(shape)) if shape else 1
        return np.frombuffer(read(w, "r", count), np.float32)

    with world(True) as w:
        matrix(w, "m", [ROWS, COLS], M)
        call(w, *first)
        call(w, *first)  # the first one's entry is usable now
        before = hits()
        got = call(w, *second)
        assert (hits() > before) == (first == second)
        dims, keep = second
        axis = tuple(sorted({d % 2 for d in dims})) if dims else (0, 1)
        np.testing.assert_array_equal(got, M.sum(axis=axis, keepdims=keep).reshape(-1))
