"""Executor life rules of the composite two-phase call.

Phase 2 deletes a non-repeatable executor whatever the status, and a second phase 2 on it is a use
after free (reported with both sites); a repeatable executor is kept, replays with the current
tensor addresses and needs aclDestroyAclOpExecutor; a null workspace with a non-zero size is
161001 and deletes even a repeatable executor; a short workspace is reported; phase 2 may run on
another thread; runtime failures surface as 361001. Workspace sizes follow the MaxAllocator
examples (each buffer aligned to (n + 32 + 511) & ~511, the final ViewCopy aliasing onto out).
"""

from __future__ import annotations

import sys
import threading
import warnings
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, npu, process
from emulator.engine.executor import aclOpExecutor

NULLPTR = 161001
INNER = 561000
RUNTIME = 361001
F32, F16, BF16, I16 = aclnn.ACL_FLOAT, aclnn.ACL_FLOAT16, aclnn.ACL_BF16, aclnn.ACL_INT16


def here(delta: int = 0) -> str:
    """The caller's line (plus ``delta``) as a Site prints it: "file:line"."""
    frame = sys._getframe(1)
    return f"{frame.f_code.co_filename}:{frame.f_lineno + delta}"


def executors() -> int:
    return process.current().registry.count("executor")


def add_hosts(shape: tuple[int, ...] = (3, 4), dtypes: tuple[int, int] = (F32, F32)) -> tuple[np.ndarray, np.ndarray]:
    """The host values of add_case's self and other (the same seed, so a test can recompute them)."""
    rng = np.random.default_rng(7)
    np_of = {F32: np.float32, F16: np.float16}
    return rng.uniform(-2, 2, shape).astype(np_of[dtypes[0]]), rng.uniform(-2, 2, shape).astype(np_of[dtypes[1]])


def add_case(npu: Any, shape: tuple[int, ...] = (3, 4), dtypes: tuple[int, int] = (F32, F32), alpha: float = 1.0):
    """self, other, out device tensors (out float32 unless both are float16), alpha, and the float64 golden."""
    np_of = {F32: np.float32, F16: np.float16}
    x_host, y_host = add_hosts(shape, dtypes)
    out_dtype = F16 if dtypes == (F16, F16) else F32
    x = npu.tensor(x_host, dtypes[0])
    y = npu.tensor(y_host, dtypes[1])
    out = npu.tensor(np.zeros(shape, np_of[out_dtype]), out_dtype)
    golden = x_host.astype(np.float64) + alpha * y_host.astype(np.float64)
    return x, y, out, aclnn.aclCreateScalar(alpha, F32), golden


def test_phase2_frees_a_non_repeatable_executor(npu: Any) -> None:
    """Phase 1 creates one executor; phase 2 runs it and deletes it (registry count back to 0)."""
    x, y, out, alpha, golden = add_case(npu)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert (ws, ret) == (0, 0)
    assert isinstance(executor, aclOpExecutor)
    assert executors() == 1
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    assert executors() == 0
    assert not executor.alive
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)


def test_second_phase2_is_a_reported_use_after_free(npu: Any, emu: Any) -> None:
    """A second phase 2 on a deleted executor returns 561000 and names where it was created and deleted."""
    x, y, out, alpha, _ = add_case(npu)
    created = here(1)
    _, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    deleted = here(1)
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == 0
    assert npu.sync() == 0
    assert emu.diagnostics == []
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == INNER
    assert len(emu.diagnostics) == 1
    diagnostic = emu.diagnostics[0]
    assert diagnostic.api == "aclnnAdd"
    assert "already freed" in diagnostic.message
    assert str(diagnostic.created) == created
    assert str(diagnostic.destroyed) == deleted


def test_repeatable_executor_replays_and_stays_alive(npu: Any) -> None:
    """A repeatable in-place executor runs twice (the data changes twice) and lives until it is destroyed."""
    x, y, _, alpha, _ = add_case(npu, alpha=2.0)
    ws, executor, ret = aclnn.aclnnInplaceAddGetWorkspaceSize(x.handle, y.handle, alpha)
    assert ret == 0
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    for _ in range(2):
        assert npu.run(aclnn.aclnnInplaceAdd, ws, executor) == 0
        assert executors() == 1
        assert executor.alive
    x_host, y_host = add_hosts()
    expected = x_host + 2 * y_host  # float32 Axpy, twice
    expected = expected + 2 * y_host
    np.testing.assert_allclose(x.storage(), expected, rtol=1e-6)
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0
    assert executors() == 0
    assert not executor.alive


def test_repeatable_executor_with_workspace_replays(npu: Any) -> None:
    """A repeatable mixed-precision Add (Cast into the workspace, then Axpy) gives the same result each run."""
    x, y, out, alpha, golden = add_case(npu, dtypes=(F16, F32), alpha=1.5)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0 and ws > 0
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    for _ in range(3):
        out.write(np.zeros(out.storage_shape, np.float32))
        assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
        np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0


def test_set_repeatable_on_a_cache_replay_object_is_refused(npu: Any) -> None:
    """An op-cache hit hands out a replay object; making it repeatable returns 561000."""
    x, y, out, alpha, _ = add_case(npu)
    ws, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    ws, replay, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0
    assert not isinstance(replay, aclOpExecutor)
    assert aclnn.aclSetAclOpExecutorRepeatable(replay) == INNER
    assert aclnn.aclDestroyAclOpExecutor(replay) == 0


def test_set_repeatable_with_a_one_shot_aicpu_task_is_refused(npu_with: Any) -> None:
    """Past ACLNN_AICPU_CACHE_LIMIT the AI CPU task is one-shot and its executor cannot be made repeatable."""
    npu = npu_with(aicpu_cache_limit=1)
    seq = npu.tensor(np.array([1, 3, 5, 7], np.float32), F32)
    values = npu.tensor(np.array([2, 6], np.float32), F32)
    outs = [npu.tensor(np.zeros(2, np.int64), aclnn.ACL_INT64) for _ in range(2)]
    _, first, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(seq.handle, values.handle, False, False, None,
                                                            outs[0].handle)  # fmt: skip
    assert ret == 0
    _, second, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(seq.handle, values.handle, False, True, None,
                                                             outs[1].handle)  # fmt: skip
    assert ret == 0
    assert aclnn.aclSetAclOpExecutorRepeatable(first) == 0
    assert aclnn.aclSetAclOpExecutorRepeatable(second) == INNER
    assert npu.run(aclnn.aclnnSearchSorted, 0, second) == 0
    np.testing.assert_array_equal(outs[1].storage(), [1, 3])
    assert aclnn.aclDestroyAclOpExecutor(first) == 0


def test_address_setters_rebind_a_repeatable_executor(npu: Any) -> None:
    """After aclSetInputTensorAddr / aclSetOutputTensorAddr the next run reads and writes the new buffers."""
    x, y, out, alpha, golden = add_case(npu)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)
    sentinel = np.full(out.storage_shape, -99.0, np.float32)
    out.write(sentinel)
    x2_host = np.arange(12, dtype=np.float32).reshape(3, 4) * 10
    x2 = npu.tensor(x2_host, F32)
    out2 = npu.tensor(np.zeros((3, 4), np.float32), F32)
    assert aclnn.aclSetInputTensorAddr(executor, 0, x.handle, x2.addr) == 0
    assert aclnn.aclSetOutputTensorAddr(executor, 0, out.handle, out2.addr) == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out2.storage(), x2_host + add_hosts()[1], rtol=1e-6)
    np.testing.assert_array_equal(out.storage(), sentinel)  # the old output buffer is no longer written
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0


def test_address_setters_rebind_through_a_cast(npu: Any) -> None:
    """A rebound float16 input is read by the Cast kernel at its new address on the next run."""
    x, y, out, alpha, golden = add_case(npu, dtypes=(F16, F32), alpha=2.0)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0 and ws > 0
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)
    x2_host = np.full((3, 4), 8.0, np.float16)
    x2 = npu.tensor(x2_host, F16)
    assert aclnn.aclSetInputTensorAddr(executor, 0, x.handle, x2.addr) == 0
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_allclose(out.storage(), 8.0 + 2.0 * add_hosts(dtypes=(F16, F32))[1].astype(np.float64), rtol=1e-6)
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0


@pytest.mark.parametrize("repeatable", [False, True])
def test_null_workspace_with_a_size_is_161001_and_frees(npu: Any, repeatable: bool) -> None:
    """workspaceSize > 0 with a null workspace is 161001 and deletes the executor, even a repeatable one."""
    x, y, out, alpha, _ = add_case(npu, dtypes=(F16, F32), alpha=2.0)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0 and ws > 0
    if repeatable:
        assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    assert aclnn.aclnnAdd(0, ws, executor, npu.stream) == NULLPTR
    assert executors() == 0
    assert not executor.alive


def test_null_workspace_is_fine_when_size_is_zero(npu: Any) -> None:
    """A zero workspace size may come with a null workspace."""
    x, y, out, alpha, golden = add_case(npu)
    ws, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ws == 0
    assert aclnn.aclnnAdd(None, 0, executor, npu.stream) == 0
    assert npu.sync() == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-6)


def test_null_executor_is_161001(npu: Any) -> None:
    """Phase 2 with a null executor returns 161001."""
    assert aclnn.aclnnAdd(0, 0, None, npu.stream) == NULLPTR


def test_short_workspace_is_reported(npu: Any, emu: Any) -> None:
    """A workspace smaller than phase 1 asked for is not detected by the status but reported as a Diagnostic."""
    x, y, out, alpha, _ = add_case(npu, shape=(3, 1000), dtypes=(F16, F32), alpha=1.5)
    ws, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ws == 12288
    workspace = npu.malloc(ws)
    assert aclnn.aclnnAdd(workspace, 512, executor, npu.stream) == 0
    assert npu.sync() == 0
    assert len(emu.diagnostics) == 1
    assert emu.diagnostics[0].api == "aclnnAdd"
    assert "512" in emu.diagnostics[0].message and "12288" in emu.diagnostics[0].message


def test_phase2_on_another_thread(npu: Any) -> None:
    """Phase 1 on the main thread, phase 2 on another: the result is right and the executor is freed."""
    x, y, out, alpha, golden = add_case(npu, dtypes=(F16, F32), alpha=0.5)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert ret == 0
    workspace = npu.malloc(ws)
    result: list[int] = []

    def phase2() -> None:
        result.append(acl.rt.set_device(0))
        result.append(aclnn.aclnnAdd(workspace, ws, executor, npu.stream))

    worker = threading.Thread(target=phase2)
    worker.start()
    worker.join()
    assert result == [0, 0]  # set_device, phase 2
    assert npu.sync() == 0
    np.testing.assert_allclose(out.storage(), golden, rtol=1e-3)
    assert executors() == 0


def test_freed_tensor_memory_is_a_runtime_error(npu: Any) -> None:
    """A tensor whose device memory was freed before phase 2 makes the launch fail: 361001, executor freed."""
    x, y, out, alpha, _ = add_case(npu)
    ws, executor, _ = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert acl.rt.free(x.addr) == 0
    assert aclnn.aclnnAdd(0, ws, executor, npu.stream) == RUNTIME
    assert executors() == 0


@pytest.mark.parametrize(
    ("shape", "dtypes", "alpha", "expected"),
    [
        ((4, 5), (F16, F32), 2.0, 512),  # Cast f16 -> f32 (80 B -> 512), Axpy aliased onto out
        ((3, 1000), (F16, F32), 1.5, 12288),  # 12000 B + 32 rounded up to 512
        ((4, 5), (F32, F32), 1.0, 0),  # one Add, ViewCopy re-points its result at out
        ((4, 5), (F32, F32), 2.0, 0),  # one Axpy, aliased onto out
        ((4, 5), (F16, F32), 1.0, 0),  # the mixed-precision Add kernel: no Cast
        ((4, 5), (BF16, BF16), 2.0, 512),  # Mul(other, alpha) into the workspace, then Add aliased onto out
        ((4, 5), (I16, I16), 1, 0),  # AI CPU Add with no extra device memory
    ],
)
def test_workspace_sizes(npu: Any, shape: tuple[int, ...], dtypes: tuple[int, int], alpha: float, expected: int):
    """Workspace sizes follow the planner: 512-byte-aligned intermediates, none for an aliased result."""
    tensors = [npu.tensor(np.zeros(shape, np.float32), d).handle for d in dtypes]
    out_dtype = dtypes[0] if dtypes[0] == dtypes[1] else F32
    out = npu.tensor(np.zeros(shape, np.float32), out_dtype).handle
    scalar = aclnn.aclCreateScalar(alpha, F32 if isinstance(alpha, float) else aclnn.ACL_INT64)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(*tensors, scalar, out)
    assert (ws, ret) == (expected, 0)
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0


def test_strided_input_needs_workspace_for_its_gather(npu: Any) -> None:
    """A transposed input is gathered by AsStrided into a 512-byte workspace buffer before the Add."""
    base = np.arange(20, dtype=np.float32).reshape(4, 5)
    x = npu.tensor(base, F32, shape=[5, 4], strides=[1, 5])
    y = npu.tensor(np.ones((5, 4), np.float32), F32)
    out = npu.tensor(np.zeros((5, 4), np.float32), F32)
    alpha = aclnn.aclCreateScalar(1.0, F32)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert (ws, ret) == (512, 0)
    assert [launcher.name for launcher in executor.launchers] == ["AsStrided", "Add"]
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_array_equal(out.storage(), base.T + 1)


def test_empty_tensor_shortcut_launches_nothing(npu: Any) -> None:
    """An empty self gives workspace 0 and an executor without launchers; phase 2 succeeds and writes nothing."""
    x = npu.tensor(np.zeros((0, 4), np.float32), F32)
    y = npu.tensor(np.zeros((0, 4), np.float32), F32)
    sentinel = np.full(16, 7.0, np.float32)
    backing = npu.tensor(sentinel, F32)  # the empty out's address points into a real buffer
    out = aclnn.aclCreateTensor([0, 4], 2, F32, [4, 1], 0, aclnn.ACL_FORMAT_ND, [0, 4], 2, backing.addr)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, aclnn.aclCreateScalar(1.0, F32), out)
    assert (ws, ret) == (0, 0)
    assert executor.launchers == []
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_array_equal(backing.storage(), sentinel)
    assert executors() == 0


def test_a_complex_scalar_given_to_a_real_tensor_keeps_its_real_part_quietly() -> None:
    """ConvertToTensor casts as C does (InplaceThreshold's scalars take self's dtype): real part, no warning."""
    with npu.Session() as s, warnings.catch_warnings():
        warnings.simplefilter("error")
        t = s.tensor(np.array([0.5, 2.0, 1.5], np.float32))
        threshold = aclnn.aclCreateScalar(1.5 + 2j, aclnn.ACL_COMPLEX64)
        value = aclnn.aclCreateScalar(-1 + 5j, aclnn.ACL_COMPLEX64)
        s.call("aclnnInplaceThreshold", t, threshold, value)
        assert s.read(t.addr, 3, np.float32).tolist() == [-1.0, 2.0, -1.0]
        aclnn.aclDestroyScalar(threshold)
        aclnn.aclDestroyScalar(value)
