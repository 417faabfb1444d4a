"""AI CPU task spaces and the per-thread op cache.

An AI CPU op takes its task from the op's task space, keyed by thread, input dtypes / formats and
attributes; a released task is reused, aclnnFinalize clears every space, and past
ACLNN_AICPU_CACHE_LIMIT a new task is a one-shot task that makes its executor unrepeatable. A
composite L2 call whose run succeeded is cached per thread: the next identical phase 1 on that
thread returns a replay object (not an executor) that launches the recorded kernels with the new
call's addresses; any other shape, dtype, scalar or aliasing pattern misses, AI CPU calls are never
cached, and ACLNN_CACHE_LIMIT evicts the least recently used entries.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.engine.executor import aclOpExecutor

NULLPTR = 161001
INNER = 561000
RUNTIME = 361001
F32, F16, I64 = aclnn.ACL_FLOAT, aclnn.ACL_FLOAT16, aclnn.ACL_INT64


def count(kind: str) -> int:
    return process.current().registry.count(kind)


def hits() -> int:
    return process.current().aclnn.op_cache.thread().hits


# -- AI CPU task spaces ---------------------------------------------------------------------------
def search_sorted(npu: Any, seq: np.ndarray, values: np.ndarray, *, right: bool = False, sorter: bool = False,
                  out_int32: bool = False) -> tuple[int, Any, Any]:  # fmt: skip
    """Phase 1 of aclnnSearchSorted on new device tensors: (workspace size, executor, out tensor)."""
    order = npu.tensor(np.argsort(seq, axis=-1, kind="stable").astype(np.int64), I64) if sorter else None
    out_dtype, np_out = (aclnn.ACL_INT32, np.int32) if out_int32 else (I64, np.int64)
    s = npu.tensor(seq, F32)
    v = npu.tensor(values, F32)
    out = npu.tensor(np.zeros(values.shape, np_out), out_dtype)
    ws, executor, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(
        s.handle, v.handle, out_int32, right, order.handle if order is not None else None, out.handle
    )
    assert ret == 0
    return ws, executor, out


SEQ = np.array([1, 3, 3, 5, 7, 9], np.float32)
VALUES = np.array([[0, 3, 4, 9], [10, 1, 5, 6]], np.float32)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("sorter", [False, True])
def test_search_sorted_matches_numpy(npu: Any, right: bool, sorter: bool) -> None:
    """aclnnSearchSorted on AI CPU equals numpy.searchsorted (left / right, with and without sorter)."""
    seq = np.array([9, 3, 1, 7, 3, 5], np.float32) if sorter else SEQ
    ws, executor, out = search_sorted(npu, seq, VALUES, right=right, sorter=sorter)
    assert [launcher.name for launcher in executor.launchers] == ["SearchSorted(AI CPU)"]
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    side = "right" if right else "left"
    expected = np.searchsorted(np.sort(seq), VALUES, side=side)
    np.testing.assert_array_equal(out.storage(), expected)


def test_search_sorted_rows_and_int32_output(npu: Any) -> None:
    """A 2-D sorted sequence is searched row by row; outInt32 gives an int32 result."""
    seq = np.array([[1, 2, 3, 4], [10, 20, 30, 40]], np.float32)
    values = np.array([[2.5, 0], [35, 40]], np.float32)
    ws, executor, out = search_sorted(npu, seq, values, right=True, out_int32=True)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    got = out.storage()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [np.searchsorted(seq[i], values[i], side="right") for i in range(2)])


def test_a_run_leaves_one_task_in_one_space(npu: Any) -> None:
    """After a run the SearchSorted space holds one task; an identical second call reuses it."""
    assert (count("aicpu_task"), count("aicpu_task_space")) == (0, 0)
    ws, executor, _ = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert (count("aicpu_task"), count("aicpu_task_space")) == (1, 1)
    ws, executor, out = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert (count("aicpu_task"), count("aicpu_task_space")) == (1, 1)
    np.testing.assert_array_equal(out.storage(), np.searchsorted(SEQ, VALUES))


def test_different_attributes_make_another_task(npu: Any) -> None:
    """A call with another attribute value (right=True) gets its own task in the same space."""
    for right in (False, True, False, True):
        ws, executor, _ = search_sorted(npu, SEQ, VALUES, right=right)
        assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert (count("aicpu_task"), count("aicpu_task_space")) == (2, 1)
    assert len(process.current().aclnn.aicpu.space("SearchSorted")) == 2


def test_finalize_clears_the_task_spaces(npu: Any) -> None:
    """aclnnFinalize destroys every cached task and empties the set of spaces; AI CPU ops work again after."""
    ws, executor, _ = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert aclnn.aclnnFinalize() == 0
    assert (count("aicpu_task"), count("aicpu_task_space")) == (0, 0)
    assert process.current().aclnn.aicpu.saved == set()
    ws, executor, out = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    np.testing.assert_array_equal(out.storage(), np.searchsorted(SEQ, VALUES))
    assert (count("aicpu_task"), count("aicpu_task_space")) == (1, 1)


def test_without_finalize_the_tasks_stay_allocated(npu: Any) -> None:
    """Without aclnnFinalize the task and its space stay live after the executor is gone (a leak report)."""
    ws, executor, _ = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert count("executor") == 0
    live = process.current().registry.live("aicpu_task")
    assert [r.tag for r in live] == ["SearchSorted"]
    assert live[0].size == 256  # the task's host argument block


def test_a_repeatable_executor_holds_its_task_until_destroyed(npu: Any) -> None:
    """A repeatable AI CPU executor keeps its task in use; destroying it lets the next call reuse the task."""
    ws, repeatable, out = search_sorted(npu, SEQ, VALUES)
    assert aclnn.aclSetAclOpExecutorRepeatable(repeatable) == 0
    for _ in range(2):
        assert npu.run(aclnn.aclnnSearchSorted, ws, repeatable) == 0
    np.testing.assert_array_equal(out.storage(), np.searchsorted(SEQ, VALUES))
    _, pending, _ = search_sorted(npu, SEQ, VALUES)  # the first task is in use: a second one
    assert count("aicpu_task") == 2
    assert aclnn.aclDestroyAclOpExecutor(repeatable) == 0
    _, third, _ = search_sorted(npu, SEQ, VALUES)  # reuses the released first task
    assert count("aicpu_task") == 2
    for executor in (pending, third):
        assert npu.run(aclnn.aclnnSearchSorted, 0, executor) == 0


def test_aicpu_cache_limit_makes_one_shot_unrepeatable_tasks(npu_with: Any) -> None:
    """With ACLNN_AICPU_CACHE_LIMIT=1 a second distinct task is one-shot: its executor cannot be repeatable."""
    npu = npu_with(aicpu_cache_limit=1)
    ws, first, _ = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, first) == 0
    ws, second, out = search_sorted(npu, SEQ, VALUES, right=True)
    assert aclnn.aclSetAclOpExecutorRepeatable(second) == INNER
    assert npu.run(aclnn.aclnnSearchSorted, ws, second) == 0
    np.testing.assert_array_equal(out.storage(), np.searchsorted(SEQ, VALUES, side="right"))
    assert len(process.current().aclnn.aicpu.space("SearchSorted")) == 1  # the one-shot task is not cached
    ws, third, _ = search_sorted(npu, SEQ, VALUES)  # the cached task is free again: reused, repeatable
    assert aclnn.aclSetAclOpExecutorRepeatable(third) == 0
    assert aclnn.aclDestroyAclOpExecutor(third) == 0


def test_one_shot_task_dies_with_its_executor(npu_with: Any) -> None:
    """The one-shot overflow task is owned by its launcher: it is gone once its executor is deleted."""
    npu = npu_with(aicpu_cache_limit=1)
    ws, first, _ = search_sorted(npu, SEQ, VALUES)
    assert npu.run(aclnn.aclnnSearchSorted, ws, first) == 0
    ws, second, _ = search_sorted(npu, SEQ, VALUES, right=True)
    assert count("aicpu_task") == 2
    assert npu.run(aclnn.aclnnSearchSorted, ws, second) == 0
    assert count("executor") == 0
    assert count("aicpu_task") == 1
    assert aclnn.aclnnFinalize() == 0
    assert count("aicpu_task") == 0


# -- op cache -----------------------------------------------------------------------------------
def add_call(npu: Any, seed: int, shape: tuple[int, ...] = (3, 8), dtypes: tuple[int, int] = (F32, F32),
             alpha: float = 1.0, same_self_other: bool = False) -> tuple[int, Any, Any, np.ndarray]:  # fmt: skip
    """Phase 1 of aclnnAdd on new device tensors: (workspace size, executor, out tensor, float64 golden)."""
    rng = np.random.default_rng(seed)
    np_of = {F32: np.float32, F16: np.float16}
    x_host = rng.uniform(-4, 4, shape).astype(np_of[dtypes[0]])
    y_host = x_host if same_self_other else rng.uniform(-4, 4, shape).astype(np_of[dtypes[1]])
    x = npu.tensor(x_host, dtypes[0])
    y = x if same_self_other else npu.tensor(y_host, dtypes[1])
    out = npu.tensor(np.zeros(shape, np.float32), F32)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, aclnn.aclCreateScalar(alpha, F32),
                                                        out.handle)  # fmt: skip
    assert ret == 0
    return ws, executor, out, x_host.astype(np.float64) + alpha * y_host.astype(np.float64)


@pytest.mark.parametrize(("dtypes", "alpha"), [((F32, F32), 1.0), ((F16, F32), 1.5), ((F32, F32), 3.0)])
def test_identical_call_is_a_cache_hit(npu: Any, dtypes: tuple[int, int], alpha: float) -> None:
    """A second identical aclnnAdd on the thread is served from the cache and computes the new tensors' sum."""
    ws, executor, out, golden = add_call(npu, 1, dtypes=dtypes, alpha=alpha)
    assert isinstance(executor, aclOpExecutor)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)
    assert hits() == 0
    for seed in (2, 3):
        ws2, replay, out2, golden2 = add_call(npu, seed, dtypes=dtypes, alpha=alpha)
        assert not isinstance(replay, aclOpExecutor)
        assert ws2 == ws
        assert npu.run(aclnn.aclnnAdd, ws2, replay) == 0
        np.testing.assert_allclose(out2.storage(), golden2, rtol=1e-6)
    assert hits() == 2
    assert count("executor") == 0  # the replay objects are deleted by phase 2
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)  # the first call's output is untouched


@pytest.mark.parametrize(
    "change",
    [
        {"shape": (3, 9)},
        {"dtypes": (F16, F32)},
        {"alpha": 2.0},
        {"same_self_other": True},  # same descriptors, another aliasing pattern
    ],
)
def test_any_difference_misses(npu: Any, change: dict[str, Any]) -> None:
    """Another shape, dtype, alpha or aliasing pattern is a cache miss: phase 1 builds a new executor."""
    ws, executor, _, _ = add_call(npu, 1)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, executor, out, golden = add_call(npu, 2, **change)
    assert isinstance(executor, aclOpExecutor)
    assert hits() == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-3)


def test_entry_is_usable_only_after_a_run(npu: Any) -> None:
    """Until the first executor has run, an identical phase 1 misses."""
    ws, first, _, _ = add_call(npu, 1)
    ws, second, _, _ = add_call(npu, 2)
    assert isinstance(second, aclOpExecutor)
    for executor in (first, second):
        assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, third, _, _ = add_call(npu, 3)
    assert not isinstance(third, aclOpExecutor)
    assert aclnn.aclDestroyAclOpExecutor(third) == 0


def test_a_failed_run_is_not_cached(npu: Any) -> None:
    """A run that failed (361001) leaves no usable entry: the identical call misses."""
    x = npu.tensor(np.ones((3, 8), np.float32), F32)
    y = npu.tensor(np.ones((3, 8), np.float32), F32)
    out = npu.tensor(np.zeros((3, 8), np.float32), F32)
    alpha = aclnn.aclCreateScalar(1.0, F32)
    _, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert acl.rt.free(x.addr) == 0
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == RUNTIME
    _, executor, _, _ = add_call(npu, 1)
    assert isinstance(executor, aclOpExecutor)
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0


def test_a_repeatable_executor_leaves_the_shared_cache(npu: Any) -> None:
    """aclSetAclOpExecutorRepeatable makes the entry private: identical calls keep missing."""
    ws, executor, _, _ = add_call(npu, 1)
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    _, second, _, _ = add_call(npu, 2)
    assert isinstance(second, aclOpExecutor)
    for obj in (executor, second):
        assert aclnn.aclDestroyAclOpExecutor(obj) == 0


def test_caches_are_per_thread(npu: Any) -> None:
    """The same call on another thread misses (its own cache) and then hits there."""
    ws, executor, _, _ = add_call(npu, 1)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    seen: list[tuple[bool, int, int]] = []
    results: list[tuple[np.ndarray, np.ndarray]] = []

    def worker() -> None:
        acl.rt.set_device(0)
        for seed in (2, 3):
            ws, obj, out, golden = add_call(npu, seed)
            seen.append((isinstance(obj, aclOpExecutor), hits(), aclnn.aclnnAdd(0, ws, obj, npu.stream)))
            npu.sync()
            results.append((out.storage(), golden))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [(True, 0, 0), (False, 1, 0)]
    for got, golden in results:
        np.testing.assert_allclose(got, golden, rtol=1e-6)
    assert hits() == 0
    _, replay, _, _ = add_call(npu, 4)
    assert not isinstance(replay, aclOpExecutor)
    assert hits() == 1
    assert aclnn.aclDestroyAclOpExecutor(replay) == 0


def test_cache_limit_evicts_least_recently_used(npu_with: Any) -> None:
    """With ACLNN_CACHE_LIMIT=2 a third entry evicts the older ones (up to 30 at a time)."""
    npu = npu_with(cache_limit=2)
    for cols in (1, 2, 3):
        ws, executor, _, _ = add_call(npu, cols, shape=(2, cols))
        assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, replay, out, golden = add_call(npu, 9, shape=(2, 3))
    assert not isinstance(replay, aclOpExecutor)
    assert npu.run(aclnn.aclnnAdd, ws, replay) == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)
    assert hits() == 1
    for cols in (1, 2):
        ws, executor, _, _ = add_call(npu, 9, shape=(2, cols))
        assert isinstance(executor, aclOpExecutor)
        assert aclnn.aclDestroyAclOpExecutor(executor) == 0
    assert hits() == 1
    assert len(process.current().aclnn.op_cache.thread().entries) <= 2


def test_aicpu_calls_are_never_cached(npu: Any) -> None:
    """An AI CPU op abandons the cache: identical calls always get a new executor."""
    for _ in range(3):
        ws, executor, _ = search_sorted(npu, SEQ, VALUES)
        assert isinstance(executor, aclOpExecutor)
        assert npu.run(aclnn.aclnnSearchSorted, ws, executor) == 0
    assert hits() == 0
    assert process.current().aclnn.op_cache.thread().entries == {}


def test_destroying_a_replay_object(npu: Any, emu: Any) -> None:
    """aclDestroyAclOpExecutor on a replay object returns 0; running it afterwards is a reported use after free."""
    ws, executor, _, _ = add_call(npu, 1)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, replay, _, _ = add_call(npu, 2)
    assert count("executor") == 1
    assert aclnn.aclDestroyAclOpExecutor(replay) == 0
    assert count("executor") == 0
    assert aclnn.aclnnAdd(0, ws, replay, npu.stream) == INNER
    assert len(emu.diagnostics) == 1
    assert "already freed" in emu.diagnostics[0].message


def test_replay_with_a_null_workspace_is_161001_and_frees(npu: Any) -> None:
    """A replay object given a null workspace with a non-zero size returns 161001 and is deleted."""
    ws, executor, _, _ = add_call(npu, 1, dtypes=(F16, F32), alpha=2.0)
    assert ws > 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, replay, _, _ = add_call(npu, 2, dtypes=(F16, F32), alpha=2.0)
    assert not isinstance(replay, aclOpExecutor)
    assert aclnn.aclnnAdd(0, ws, replay, npu.stream) == NULLPTR
    assert count("executor") == 0
