"""The fault sweep: every allocation point of a full lifecycle fails in turn, and a correct caller
that cleans up on failure leaves nothing alive.

The lifecycle is the canonical one (init, device, stream, aclnn, buffers, tensors, scalar, an
Add, a repeatable Mul, an fp16 ReduceSum with a workspace and an aclIntArray, event, pinned host
memory, then teardown in reverse). The points are
not listed by hand: a first clean run counts how many times each allocating C function is
called, and the sweep then fails call k of function f for every (f, k), each in a brand-new
emulated process. The caller checks every status (a None handle is a failure too) and, on the
first failure, undoes exactly what it had done, in reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

import numpy as np
import pytest

from emulator import acl, aclnn, faults, process
from emulator.config import Settings
from emulator.tracking import ResourceKind

# every C function of the lifecycle that creates something (or starts a layer)
ALLOCATING = (
    "aclInit",
    "aclrtSetDevice",
    "aclrtCreateStream",
    "aclrtCreateEvent",
    "aclnnInit",
    "aclrtMalloc",
    "aclrtMallocHost",
    "aclCreateTensor",
    "aclCreateScalar",
    "aclnnAddGetWorkspaceSize",
    "aclnnMulGetWorkspaceSize",
    "aclSetAclOpExecutorRepeatable",
    "aclCreateIntArray",
    "aclnnReduceSumGetWorkspaceSize",
)
SHAPE = [2, 4]


class Failed(Exception):
    """The caller saw a failure: its cleanups run as the ExitStack unwinds."""

    def __init__(self, what: str, status: int | None) -> None:
        super().__init__(what)
        self.what = what
        self.status = status


def check(ret: int, what: str) -> None:
    if ret != 0:
        raise Failed(what, int(ret))


def made(handle: object, what: str) -> None:
    if handle is None:
        raise Failed(what, None)


def lifecycle(stack: ExitStack) -> np.ndarray:
    """The whole flow; each acquired thing pushes its release on ``stack`` as soon as it exists."""
    check(acl.init(""), "aclInit")
    stack.callback(acl.finalize)
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stack.callback(acl.rt.reset_device, 0)
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    stack.callback(acl.rt.destroy_stream, stream)
    check(aclnn.aclnnInit(None), "aclnnInit")
    stack.callback(aclnn.aclnnFinalize)

    host = np.arange(8, dtype=np.float32)
    tensors = []
    for _ in range(3):
        ptr, ret = acl.rt.malloc(host.nbytes, 0)
        check(ret, "aclrtMalloc")
        stack.callback(acl.rt.free, ptr)
        check(acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1), "aclrtMemcpy")
        tensor = aclnn.aclCreateTensor(SHAPE, 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, SHAPE, 2, ptr)
        made(tensor, "aclCreateTensor")
        stack.callback(aclnn.aclDestroyTensor, tensor)
        tensors.append((tensor, ptr))
    (x, _), (y, _), (out, out_ptr) = tensors
    alpha = aclnn.aclCreateScalar(np.float32(2.0), aclnn.ACL_FLOAT)
    made(alpha, "aclCreateScalar")
    stack.callback(aclnn.aclDestroyScalar, alpha)

    ws_size, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    check(ret, "aclnnAddGetWorkspaceSize")
    # phase 2 frees a non-repeatable executor; abandoning the call before it is a destroy
    _run(stack, ws_size, lambda ws: aclnn.aclnnAdd(ws, ws_size, executor, stream), "aclnnAdd", executor)
    stack.callback(acl.rt.synchronize_stream, stream)  # queued work ends before its buffers are freed

    # the caller destroys this one: repeatable after phase 2, or abandoned before it when Set fails
    ws_size, mul, ret = aclnn.aclnnMulGetWorkspaceSize(out, y, out)
    check(ret, "aclnnMulGetWorkspaceSize")
    stack.callback(aclnn.aclDestroyAclOpExecutor, mul)
    check(aclnn.aclSetAclOpExecutorRepeatable(mul), "aclSetAclOpExecutorRepeatable")
    _run(stack, ws_size, lambda ws: aclnn.aclnnMul(ws, ws_size, mul, stream), "aclnnMul", None)
    stack.callback(acl.rt.synchronize_stream, stream)

    # a reduction of fp16 into fp32: a cast through a workspace, and an aclIntArray of dims
    half = np.arange(8, dtype=np.float16)
    x16, _ = _tensor(stack, half, aclnn.ACL_FLOAT16, SHAPE)
    sums = np.zeros(2, dtype=np.float32)
    sums_t, sums_ptr = _tensor(stack, sums, aclnn.ACL_FLOAT, [2])
    dims = aclnn.aclCreateIntArray([1], 1)
    made(dims, "aclCreateIntArray")
    stack.callback(aclnn.aclDestroyIntArray, dims)
    ws_size, reduce, ret = aclnn.aclnnReduceSumGetWorkspaceSize(x16, dims, False, aclnn.ACL_FLOAT, sums_t)
    check(ret, "aclnnReduceSumGetWorkspaceSize")
    _run(stack, ws_size, lambda ws: aclnn.aclnnReduceSum(ws, ws_size, reduce, stream), "aclnnReduceSum", reduce)
    stack.callback(acl.rt.synchronize_stream, stream)

    event, ret = acl.rt.create_event()
    check(ret, "aclrtCreateEvent")
    stack.callback(acl.rt.destroy_event, event)
    check(acl.rt.record_event(event, stream), "aclrtRecordEvent")
    check(acl.rt.synchronize_event(event), "aclrtSynchronizeEvent")

    pinned, ret = acl.rt.malloc_host(host.nbytes + sums.nbytes)
    check(ret, "aclrtMallocHost")
    stack.callback(acl.rt.free_host, pinned)
    check(acl.rt.memcpy(pinned, host.nbytes, out_ptr, host.nbytes, 2), "aclrtMemcpy")
    check(acl.rt.memcpy(pinned + host.nbytes, sums.nbytes, sums_ptr, sums.nbytes, 2), "aclrtMemcpy")
    return np.ctypeslib.as_array((np.ctypeslib.ctypes.c_float * 10).from_address(pinned)).copy()


def _tensor(stack: ExitStack, host: np.ndarray, dtype: int, shape: list[int]) -> tuple[object, int]:
    ptr, ret = acl.rt.malloc(host.nbytes, 0)
    check(ret, "aclrtMalloc")
    stack.callback(acl.rt.free, ptr)
    check(acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1), "aclrtMemcpy")
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    made(tensor, "aclCreateTensor")
    stack.callback(aclnn.aclDestroyTensor, tensor)
    return tensor, ptr


def _run(stack: ExitStack, ws_size: int, launch: Callable[[int], int], what: str, one_shot: object) -> None:
    """Phase 2 with its workspace; ``one_shot`` is a non-repeatable executor to abandon if the workspace fails."""
    workspace = 0
    if ws_size:
        workspace, ret = acl.rt.malloc(ws_size, 0)
        if ret != 0 and one_shot is not None:
            aclnn.aclDestroyAclOpExecutor(one_shot)
        check(ret, "aclrtMalloc")
        stack.callback(acl.rt.free, workspace)
    check(launch(workspace), what)


def run_once() -> tuple[np.ndarray | None, Failed | None]:
    try:
        with ExitStack() as stack:
            return lifecycle(stack), None
    except Failed as failure:
        return None, failure


@contextmanager
def a_process() -> Iterator[process.EmulatedProcess]:
    with process.fresh(Settings.from_env({})) as proc:
        yield proc


def count_points() -> dict[str, int]:
    """How many times each allocating function is called by a clean run (a rule that never fires counts)."""
    with a_process(), ExitStack() as rules:
        armed = {name: rules.enter_context(faults.inject(name, nth=1 << 62)) for name in ALLOCATING}
        result, failure = run_once()
        assert failure is None and result is not None
    return {name: rule.calls for name, rule in armed.items()}


# (x + 2y) * y with x = y = 0..7, then the row sums of 0..7 as [2, 4]
EXPECTED = np.concatenate([(np.arange(8, dtype=np.float32) * 3) * np.arange(8, dtype=np.float32), [6.0, 22.0]])


def test_clean_run_is_right_and_leaves_nothing() -> None:
    with a_process() as proc:
        result, failure = run_once()
        assert failure is None and result is not None
        np.testing.assert_allclose(result, EXPECTED)
        assert proc.registry.live() == []


def test_sweep_every_allocation_point() -> None:
    counted = count_points()
    # five buffers and five tensors, and the reduction's workspace (Add and Mul of fp32 need none)
    many = {"aclrtMalloc": 6, "aclCreateTensor": 5}
    assert counted == {name: many.get(name, 1) for name in ALLOCATING}
    points = [(name, k) for name, calls in counted.items() for k in range(1, calls + 1)]
    failed_where: list[str] = []
    for name, k in points:
        with a_process() as proc:
            with faults.inject(name, nth=k) as rule:
                result, failure = run_once()
            assert rule.hits == 1, (name, k)
            assert failure is not None and result is None, f"{name}@{k}: the failure was not seen"
            assert failure.what == name, f"{name}@{k}: the caller saw {failure.what} fail instead"
            left = proc.registry.live()
            assert left == [], f"{name}@{k}: alive after cleanup: {[str(r.kind) for r in left]}"
            assert proc.registry.count(ResourceKind.DEVICE_MEMORY) == 0
            assert failure.status == (None if rule.proto.ret.kind == "handle" else rule.status)
            assert len(proc.diagnostics) == 0, f"{name}@{k}: the cleanup was reported: {list(proc.diagnostics)}"
            failed_where.append(f"{name}@{k}")
    assert len(failed_where) == len(points)
    print(f"fault sweep: {len(points)} points, 0 left alive")  # the closing note's figure (pytest -s)


@pytest.mark.parametrize("status", [207001, 507899])
def test_an_explicit_status_reaches_the_caller(status: int) -> None:
    with a_process(), faults.inject("aclrtMalloc", nth=2, status=status):
        result, failure = run_once()
    assert result is None and failure is not None and (failure.what, failure.status) == ("aclrtMalloc", status)
