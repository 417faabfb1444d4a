"""Ops called out of the documented order: before aclnnInit, after aclnnFinalize.

The aclnn documentation asks for aclnnInit (or aclInit, which initialises aclnn too) before any
aclnn API and forbids calls after aclnnFinalize; the real library runs the op anyway. The
emulator runs it too, with the same statuses and results, and logs one "aclnn.lifecycle"
warning naming the API at the first such call after each change of state (not one per call).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.acl import constants as c


def lifecycle(logs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["api"], e["problem"]) for e in logs if e["event"] == "aclnn.lifecycle"]


def add_once(stream: int) -> np.ndarray:
    """aclnnAdd of two written 4-element float tensors; returns the result (x + 2 y)."""
    host = {"x": np.arange(4, dtype=np.float32), "y": np.ones(4, np.float32), "out": np.zeros(4, np.float32)}
    tensors, ptrs = {}, []
    for name, array in host.items():
        ptr, ret = acl.rt.malloc(array.nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        assert acl.rt.memcpy(ptr, array.nbytes, array.ctypes.data, array.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        tensors[name] = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [4], 1, ptr)
        ptrs.append(ptr)
    alpha = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tensors["x"], tensors["y"], alpha, tensors["out"])
    assert (ws, ret) == (0, 0)
    assert aclnn.aclnnAdd(0, 0, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    result = np.empty(4, np.float32)
    assert acl.rt.memcpy(result.ctypes.data, 16, ptrs[2], 16, c.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    for tensor in tensors.values():
        assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    for ptr in ptrs:
        assert acl.rt.free(ptr) == 0
    return result


def device_stream() -> int:
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    return int(stream)


def test_an_op_before_aclnn_init_works_and_is_warned_once(emu: process.EmulatedProcess) -> None:
    """Without aclInit or aclnnInit the op still returns 0 and the right sum; one warning names aclnnAdd."""
    stream = device_stream()
    with capture_logs() as logs:
        np.testing.assert_array_equal(add_once(stream), [2.0, 3.0, 4.0, 5.0])
        add_once(stream)
    assert lifecycle(logs) == [("aclnnAddGetWorkspaceSize", "called before aclnnInit")]


def test_acl_init_counts_as_initialising_aclnn(emu: process.EmulatedProcess) -> None:
    """aclInit initialises aclnn too, as its documentation says: an op after it alone is not warned about."""
    assert acl.init() == 0
    stream = device_stream()
    with capture_logs() as logs:
        add_once(stream)
    assert lifecycle(logs) == []


def test_an_op_after_aclnn_finalize_works_and_is_warned(emu: process.EmulatedProcess) -> None:
    """After aclnnFinalize the op still works (status 0, right result) and is warned about once."""
    stream = device_stream()
    assert aclnn.aclnnInit(None) == 0
    with capture_logs() as logs:
        add_once(stream)
        assert aclnn.aclnnFinalize() == 0
        np.testing.assert_array_equal(add_once(stream), [2.0, 3.0, 4.0, 5.0])
        add_once(stream)
    assert lifecycle(logs) == [("aclnnAddGetWorkspaceSize", "called after aclnnFinalize")]


def test_aclnn_init_after_finalize_makes_ops_legal_again(emu: process.EmulatedProcess) -> None:
    """aclnnInit after aclnnFinalize ends the out-of-order state; each new finalize warns again."""
    stream = device_stream()
    assert aclnn.aclnnInit(None) == 0
    assert aclnn.aclnnFinalize() == 0
    with capture_logs() as logs:
        assert aclnn.aclnnInit(None) == 0
        add_once(stream)
        assert aclnn.aclnnFinalize() == 0
        add_once(stream)
    problems = [p for _, p in lifecycle(logs)]
    assert problems == ["called again", "called again", "called after aclnnFinalize"]


def test_acl_finalize_counts_as_finalizing_aclnn(emu: process.EmulatedProcess) -> None:
    """aclFinalize runs aclnnFinalize's steps, so an op after it (and a new aclInit) is warned about."""
    assert acl.init() == 0
    stream = device_stream()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0
    stream = device_stream()
    with capture_logs() as logs:
        add_once(stream)
    assert lifecycle(logs) == [("aclnnAddGetWorkspaceSize", "called after aclnnFinalize")]
