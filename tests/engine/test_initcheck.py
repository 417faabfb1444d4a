"""initcheck: a kernel that computes from device bytes nothing ever wrote is reported.

Written means: an H2D copy, a memset, a kernel output, or a D2D copy of written bytes. Only the
bytes a tensor's view addresses count. Data-moving kernels (Transpose, Cat, the strided gather of
Contiguous) carry the never-written state to their outputs instead of reporting; a later kernel
that computes from those bytes is reported. The status is what the card returns (0): only the
report is added. Nothing is reported in shape-only mode or with OPBASE_EMU_INITCHECK=0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.config import Settings
from emulator.diagnostics import ReportKind, UndefinedBehaviour

F32 = 4


def raw(ptr: int, shape: Sequence[int], strides: Sequence[int] | None = None, offset: int = 0) -> Any:
    """An aclTensor over device memory as it is (never copied into); storage = the view's extent."""
    shape = list(shape)
    if strides is None:
        strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    extent = offset + sum((d - 1) * s for d, s in zip(shape, strides, strict=True)) + 1
    return aclnn.aclCreateTensor(
        shape, len(shape), aclnn.ACL_FLOAT, list(strides), offset, aclnn.ACL_FORMAT_ND, [extent], 1, ptr
    )


def upload(ptr: int, values: np.ndarray) -> None:
    host = np.ascontiguousarray(values, dtype=np.float32)
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0


def uninit_reports() -> list[Any]:
    return [d for d in process.current().diagnostics if "uninitialised read" in d.message]


def add(npu: Any, x: Any, y: Any, out: Any) -> int:
    """out = x + y on the test's stream; returns the phase-2 status (the synchronize must succeed)."""
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    assert ret == 0
    return npu.run(aclnn.aclnnAdd, ws, executor)


def ones(npu: Any, n: int) -> Any:
    return npu.tensor(np.ones(n, np.float32), aclnn.ACL_FLOAT).handle


def test_add_of_never_written_input_is_reported_with_its_sites(npu: Any) -> None:
    """aclnnAdd reading a malloc'd, never-written input: status 0, one report naming the bytes and the malloc."""
    ptr = npu.malloc(8 * F32)
    status = add(npu, ones(npu, 8), raw(ptr, [8]), ones(npu, 8))
    assert status == 0
    (report,) = uninit_reports()
    assert report.api == "kernel Add"
    assert "32 of the 32 bytes that input 1" in report.message
    assert "shape [8], ACL_FLOAT, ND" in report.message
    assert "launched by aclnnAdd" in report.message
    assert report.kind is ReportKind.UNINITIALISED
    assert report.site.top is not None and report.site.top.file.endswith("conftest.py")  # the Npu helper's phase 2
    assert report.created is not None and report.created.top is not None
    assert report.created.top.file.endswith("conftest.py")  # the Npu helper's aclrtMalloc


def _reduce_rows(npu: Any, x: Any) -> int:
    dims = aclnn.aclCreateIntArray([1], 1)
    ws, executor, ret = aclnn.aclnnReduceSumGetWorkspaceSize(x, dims, False, aclnn.ACL_FLOAT, raw(npu.malloc(16), [4]))
    assert ret == 0
    return npu.run(aclnn.aclnnReduceSum, ws, executor)


def _matmul(npu: Any, x: Any) -> int:
    y = npu.tensor(np.ones((4, 4), np.float32), aclnn.ACL_FLOAT).handle
    ws, executor, ret = aclnn.aclnnMatmulGetWorkspaceSize(x, y, raw(npu.malloc(64), [4, 4]), 0)
    assert ret == 0
    return npu.run(aclnn.aclnnMatmul, ws, executor)


@pytest.mark.parametrize(("run", "kernel"), [(_reduce_rows, "kernel ReduceSum"), (_matmul, "kernel MatMulV3")])
def test_reductions_and_matmul_reading_never_written_rows_are_reported(
    npu: Any, run: Callable[[Any, Any], int], kernel: str
) -> None:
    """ReduceSum and Matmul over a 4x4 matrix whose last two rows were never written: status 0, one report."""
    ptr = npu.malloc(16 * F32)
    upload(ptr, np.arange(8))
    assert run(npu, raw(ptr, [4, 4])) == 0
    (report,) = uninit_reports()
    assert report.api == kernel
    assert "32 of the 64 bytes that input 0" in report.message
    assert "the first at +32" in report.message
    upload(ptr + 8 * F32, np.arange(8))
    assert run(npu, raw(ptr, [4, 4])) == 0
    assert len(uninit_reports()) == 1


def test_written_inputs_are_not_reported(npu: Any) -> None:
    """Inputs written by H2D copies and memsets, outputs never written: nothing to report."""
    ptr = npu.malloc(8 * F32)
    assert acl.rt.memset(ptr, 8 * F32, 0, 8 * F32) == 0
    out = raw(npu.malloc(8 * F32), [8])
    assert add(npu, ones(npu, 8), raw(ptr, [8]), out) == 0
    assert uninit_reports() == []


def test_only_the_bytes_a_view_addresses_count(npu: Any) -> None:
    """Half a buffer written: a view of that half is clean, a view straddling it reports its 16 unwritten bytes."""
    ptr = npu.malloc(16 * F32)
    upload(ptr, np.arange(8))
    assert add(npu, ones(npu, 8), raw(ptr, [8]), raw(npu.malloc(32), [8])) == 0
    assert uninit_reports() == []
    assert add(npu, ones(npu, 8), raw(ptr, [8], offset=4), raw(npu.malloc(32), [8])) == 0
    (report,) = uninit_reports()
    assert "16 of the 32 bytes" in report.message
    assert "the first at +16" in report.message


def test_strided_view_counts_only_its_elements(npu: Any) -> None:
    """A stride-2 view whose elements were written but whose gaps were not: the gather moves only written bytes."""
    ptr = npu.malloc(16 * F32)
    for i in range(8):
        upload(ptr + 2 * i * F32, np.array([i]))
    out = npu.tensor(np.zeros(8, np.float32), aclnn.ACL_FLOAT)
    assert add(npu, ones(npu, 8), raw(ptr, [8], strides=[2]), out.handle) == 0
    assert uninit_reports() == []
    np.testing.assert_array_equal(out.storage(), np.arange(8) + 1)


def test_strided_view_over_never_written_gaps_is_reported_after_the_gather(npu: Any) -> None:
    """Stride 2 over the odd (never-written) elements: the gather is silent, the Add that computes reports."""
    ptr = npu.malloc(16 * F32)
    for i in range(8):
        upload(ptr + 2 * i * F32, np.array([i]))
    assert add(npu, ones(npu, 8), raw(ptr + F32, [8], strides=[2]), raw(npu.malloc(32), [8])) == 0
    (report,) = uninit_reports()
    assert report.api == "kernel Add"
    assert "32 of the 32 bytes" in report.message


def test_device_copy_carries_the_never_written_state(npu: Any) -> None:
    """aclrtMemcpy D2D from never-written memory over written memory makes it never-written again."""
    src, dst = npu.malloc(8 * F32), npu.malloc(8 * F32)
    upload(dst, np.arange(8))
    assert acl.rt.memcpy(dst, 32, src, 32, c.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert add(npu, ones(npu, 8), raw(dst, [8]), raw(npu.malloc(32), [8])) == 0
    assert len(uninit_reports()) == 1
    upload(src, np.arange(8))
    assert acl.rt.memcpy(dst, 32, src, 32, c.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert add(npu, ones(npu, 8), raw(dst, [8]), raw(npu.malloc(32), [8])) == 0
    assert len(uninit_reports()) == 1


def test_transpose_moves_never_written_bytes_without_reporting(npu: Any) -> None:
    """aclnnPermute of a half-written matrix is silent; Add over the permuted rows reports only the moved garbage."""
    ptr = npu.malloc(4 * 4 * F32)
    upload(ptr, np.arange(8))  # rows 0 and 1 written, rows 2 and 3 not
    permuted = raw(npu.malloc(16 * F32), [4, 4])
    dims = aclnn.aclCreateIntArray([1, 0], 2)
    ws, executor, ret = aclnn.aclnnPermuteGetWorkspaceSize(raw(ptr, [4, 4]), dims, permuted)
    assert ret == 0
    assert npu.run(aclnn.aclnnPermute, ws, executor) == 0
    assert uninit_reports() == []
    out_ptr = npu.malloc(16 * F32)
    y = npu.tensor(np.ones((4, 4), np.float32), aclnn.ACL_FLOAT).handle
    assert add(npu, raw(permuted_addr(permuted), [4, 4]), y, raw(out_ptr, [4, 4])) == 0
    (report,) = uninit_reports()
    assert "32 of the 64 bytes that input 0" in report.message  # columns 2 and 3 of each permuted row
    assert "the first at +8" in report.message


def permuted_addr(tensor: Any) -> int:
    addr, ret = aclnn.aclGetRawTensorAddr(tensor)
    assert ret == 0
    return int(addr)


def test_inplace_zero_writes_never_written_memory(npu: Any) -> None:
    """aclnnInplaceZero on fresh memory reads nothing (ZerosLike only takes the shape); the zeros count as written."""
    ptr = npu.malloc(8 * F32)
    ws, executor, ret = aclnn.aclnnInplaceZeroGetWorkspaceSize(raw(ptr, [8]))
    assert ret == 0
    assert npu.run(aclnn.aclnnInplaceZero, ws, executor) == 0
    assert add(npu, ones(npu, 8), raw(ptr, [8]), raw(npu.malloc(32), [8])) == 0
    assert uninit_reports() == []


def test_cat_moves_each_part_state(npu: Any) -> None:
    """aclnnCat of a written and a never-written part: Add over the written half is clean, over the rest reports."""
    a, b = npu.malloc(4 * F32), npu.malloc(4 * F32)
    upload(a, np.arange(4))
    out_ptr = npu.malloc(8 * F32)
    parts = aclnn.aclCreateTensorList([raw(a, [4]), raw(b, [4])], 2)
    ws, executor, ret = aclnn.aclnnCatGetWorkspaceSize(parts, 0, raw(out_ptr, [8]))
    assert ret == 0
    assert npu.run(aclnn.aclnnCat, ws, executor) == 0
    assert uninit_reports() == []
    assert add(npu, ones(npu, 4), raw(out_ptr, [4]), raw(npu.malloc(16), [4])) == 0
    assert uninit_reports() == []
    assert add(npu, ones(npu, 4), raw(out_ptr, [4], offset=4), raw(npu.malloc(16), [4])) == 0
    assert len(uninit_reports()) == 1


@pytest.mark.parametrize("settings", [{"shape_only": True}, {"initcheck": False}])
def test_off_in_shape_only_mode_and_by_switch(npu_with: Callable[..., Any], settings: dict[str, Any]) -> None:
    """Shape-only runs launch no kernel, and OPBASE_EMU_INITCHECK=0 turns the check off: no report either way."""
    npu = npu_with(**settings)
    assert add(npu, ones(npu, 8), raw(npu.malloc(32), [8]), raw(npu.malloc(32), [8])) == 0
    assert uninit_reports() == []


def test_initcheck_switch_reads_the_environment() -> None:
    """OPBASE_EMU_INITCHECK=0 is the off switch; unset (or anything else) leaves initcheck on."""
    assert Settings.from_env({}).initcheck is True
    assert Settings.from_env({"OPBASE_EMU_INITCHECK": "0"}).initcheck is False
    assert Settings.from_env({"OPBASE_EMU_INITCHECK": "1"}).initcheck is True


def test_strided_scatter_writes_only_its_elements(npu: Any) -> None:
    """aclnnInplaceZero of a stride-2 view of fresh memory (ViewCopy scatter): the gaps stay never-written."""
    ptr = npu.malloc(16 * F32)
    ws, executor, ret = aclnn.aclnnInplaceZeroGetWorkspaceSize(raw(ptr, [8], strides=[2]))
    assert ret == 0
    workspace = npu.malloc(ws) if ws else 0
    assert aclnn.aclnnInplaceZero(workspace, ws, executor, npu.stream) == 0
    assert npu.sync() == 0
    assert uninit_reports() == []
    assert add(npu, ones(npu, 8), raw(ptr, [8], strides=[2]), raw(npu.malloc(32), [8])) == 0
    assert uninit_reports() == []
    assert add(npu, ones(npu, 16), raw(ptr, [16]), raw(npu.malloc(64), [16])) == 0
    (report,) = uninit_reports()
    assert "32 of the 64 bytes" in report.message  # the 8 odd elements, never written


def test_strict_mode_raises_at_the_synchronize_that_runs_the_kernel(npu_with: Callable[..., Any]) -> None:
    """With strict on, the uninitialised read raises UndefinedBehaviour where the kernel runs; the stream goes on."""
    npu = npu_with(strict=True)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    x = ones(npu, 8)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, raw(npu.malloc(32), [8]), alpha, x)
    assert ret == 0
    assert aclnn.aclnnAdd(0, ws, executor, npu.stream) == 0  # queued, not yet run
    with pytest.raises(UndefinedBehaviour, match="uninitialised read"):
        npu.sync()
    assert npu.sync() == 0
