"""aclnnInplaceIndexCopy / aclnnIndexCopy (issue 14).

The official example's values, both kernel engines, dims other than 0 (the transpose path), 0-d
tensors, duplicate indices (the last slice wins), strided views, empty tensors, and each status the
real L2 code returns with its text. Bit-exact against a numpy golden.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor
from test_data_ops import assert_exact, launched, random_array, run, strided_view, zeros
from test_indexing import BF16, C64, F32, F64, I32, I64, INVALID, NULLPTR, U8, rejects

from emulator import aclnn, npu

A = aclnn


def index_copy(stream: int, x: npu.Tensor | None, dim: int, index: npu.Tensor | None, source: npu.Tensor | None,
               out: npu.Tensor | None = None, inplace: bool = True) -> tuple[int, Any]:  # fmt: skip
    handles = [None if t is None else t.handle for t in (x, index, source, out)]
    if inplace:
        ws, executor, ret = A.aclnnInplaceIndexCopyGetWorkspaceSize(handles[0], dim, handles[1], handles[2])
        phase2 = A.aclnnInplaceIndexCopy
    else:
        ws, executor, ret = A.aclnnIndexCopyGetWorkspaceSize(handles[0], dim, handles[1], handles[2], handles[3])
        phase2 = A.aclnnIndexCopy
    if ret == 0:
        assert run(phase2, ws, executor, stream) == 0
    return ret, executor


def golden_copy(host: np.ndarray, dim: int, index: np.ndarray, source: np.ndarray) -> np.ndarray:
    """index_copy_: the last source slice naming a position wins."""
    result = np.moveaxis(host.copy(), dim, 0)
    moved = np.moveaxis(source, dim, 0)
    for j, i in enumerate(index.reshape(-1)):
        result[i] = moved[j]
    return np.moveaxis(result, 0, dim)


def test_documented_example(stream: int) -> None:
    """The example's 4x2 zeros, index [3, 2, 1, 0], source 1..8 on dim 0."""
    x = device_tensor(np.zeros((4, 2), np.float32), F32)
    source = np.arange(1, 9, dtype=np.float32).reshape(4, 2)
    ret, executor = index_copy(stream, x, 0, device_tensor(np.array([3, 2, 1, 0], np.int64), I64),
                               device_tensor(source, F32))  # fmt: skip
    assert ret == 0 and launched(executor) == ["ScatterUpdate"]
    assert_exact(x.storage(), source[::-1])


@pytest.mark.parametrize(
    ("dtype", "index_dtype", "dim", "kernels"),
    [
        (F32, I64, 0, ["ScatterUpdate"]),
        (BF16, I32, -1, ["Transpose", "Transpose", "ScatterUpdate", "Transpose"]),
        (F64, I64, 0, ["ScatterUpdate(AI CPU)"]),
        (U8, I32, 1, ["Transpose", "Transpose", "ScatterUpdate(AI CPU)", "Transpose"]),
        (C64, I64, 2, None),
    ],
    ids=["f32", "bf16-last-dim", "f64-aicpu", "u8-dim1", "c64-dim2"],
)
def test_paths(stream: int, dtype: int, index_dtype: int, dim: int, kernels: list[str] | None) -> None:
    host = random_array((5, 3, 4), dtype, seed=1)
    size = host.shape[dim]
    index = np.array([size - 1, 0, size - 1], np.int64 if index_dtype == I64 else np.int32)  # a duplicate
    src_shape = list(host.shape)
    src_shape[dim] = 3
    source = random_array(tuple(src_shape), dtype, seed=2)
    x = device_tensor(host, dtype)
    ret, executor = index_copy(stream, x, dim, device_tensor(index, index_dtype), device_tensor(source, dtype))
    assert ret == 0
    if kernels is not None:
        assert [k for k in launched(executor) if not k.startswith("Transpose") or "Transpose" in kernels] == kernels
    assert_exact(x.storage(), golden_copy(host, dim, index, source))


def test_out_of_place_keeps_self(stream: int) -> None:
    """aclnnIndexCopy moves a contiguous selfRef first: selfRef keeps its values, outRef gets the copy."""
    host = random_array((4, 3), I32, seed=3)
    x, out = device_tensor(host, I32), zeros((4, 3), I32)
    index, source = np.array([2], np.int64), random_array((1, 3), I32, seed=4)
    ret, executor = index_copy(stream, x, 0, device_tensor(index, I64), device_tensor(source, I32), out, False)
    assert ret == 0 and launched(executor) == ["TensorMove", "ScatterUpdate"]
    assert_exact(x.storage(), host)
    assert_exact(out.storage(), golden_copy(host, 0, index, source))


def test_strided_self_zero_d_and_empty(stream: int) -> None:
    storage = random_array((3, 4), F32, seed=5)
    x = device_tensor(storage, F32, shape=(4, 3), strides=(1, 4))
    source = random_array((2, 3), F32, seed=6)
    index = np.array([3, 1], np.int64)
    ret, _ = index_copy(stream, x, 0, device_tensor(index, I64), device_tensor(source, F32))
    assert ret == 0
    assert_exact(strided_view(x.storage(), (4, 3), (1, 4)), golden_copy(storage.T, 0, index, source))
    scalar = device_tensor(np.array(1.5, np.float32), F32)
    ret, _ = index_copy(stream, scalar, -1, device_tensor(np.array(0, np.int64), I64),
                        device_tensor(np.array(4.0, np.float32), F32))  # fmt: skip
    assert ret == 0
    assert_exact(scalar.storage(), np.array(4.0, np.float32))
    empty_index = zeros((0,), I64)
    ret, executor = index_copy(stream, zeros((2, 3), F32), 0, empty_index, zeros((0, 3), F32))
    assert ret == 0 and launched(executor) == []


@pytest.mark.parametrize(
    ("shape", "dtype", "dim", "index_shape", "index_dtype", "src_shape", "src_dtype", "fragment"),
    [
        ((4, 3), A.ACL_UINT16, 0, (1,), I64, (1, 3), A.ACL_UINT16, "selfRef dtype DT_UINT16"),
        ((4, 3), F32, 0, (1,), A.ACL_INT16, (1, 3), F32, "index dtype DT_INT16"),
        ((4, 3), F32, 0, (1,), I64, (1, 3), A.ACL_FLOAT16, "source dtype DT_FLOAT16 should be the same"),
        ((4, 3), F32, 0, (1, 1), I64, (1, 3), F32, "index has 2 dims, more than 1"),
        ((4, 3), F32, 0, (2,), I64, (), F32, "When source is scalar,index should have one element,but got 2"),
        ((4, 3), F32, 0, (1,), I64, (1, 3, 1), F32, "dimensionality must match"),
        ((4, 3), F32, 2, (1,), I64, (1, 3), F32, "expected to be in range of [-2, 1],but got 2"),
        ((), F32, 1, (1,), I64, (), F32, "expected to be in range of [-1, 0], but got 1"),
        ((4, 3), F32, 0, (1,), I64, (1, 2), F32, "Self and source must have same slice shapes"),
        ((4, 3), F32, 0, (2,), I64, (1, 3), F32, "The element num of index (2) should be equal to source size"),
    ],
)
def test_invalid(stream: int, shape: tuple, dtype: int, dim: int, index_shape: tuple, index_dtype: int,
                 src_shape: tuple, src_dtype: int, fragment: str) -> None:  # fmt: skip
    ret, _ = index_copy(stream, zeros(shape, dtype), dim, zeros(index_shape, index_dtype), zeros(src_shape, src_dtype))
    rejects(ret, INVALID, fragment)


def test_nulls_and_out_checks(stream: int) -> None:
    x, index, source = zeros((4, 3), F32), zeros((1,), I64), zeros((1, 3), F32)
    for args, name in (((None, 0, index, source), "selfRef"), ((x, 0, None, source), "index"),
                       ((x, 0, index, None), "source")):  # fmt: skip
        rejects(index_copy(stream, *args)[0], NULLPTR, "aclnnInplaceIndexCopy", name)
    rejects(index_copy(stream, x, 0, index, source, None, False)[0], NULLPTR, "outRef")
    rejects(index_copy(stream, x, 0, index, source, zeros((4, 3), I32), False)[0], INVALID, "outRef dtype DT_INT32")
    rejects(index_copy(stream, x, 0, index, source, zeros((4, 4), F32), False)[0], INVALID, "out shape [4, 4]")
    out = device_tensor(np.zeros((4, 3), np.float32), F32, fmt=A.ACL_FORMAT_NCHW)
    rejects(index_copy(stream, x, 0, index, source, out, False)[0], INVALID, "Format of input and output")
