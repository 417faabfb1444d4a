"""aclnnIndexPutImpl (issue 14): put and accumulate, duplicates, bool masks, whole axes, casts, statuses.

The official example's values, accumulate and not (duplicate positions sum with accumulate; the
last value wins without), int32 / int64 / bool indices, an empty index taking its axis whole, the
float16 accumulate in float32, strided selfRef, empty tensors, and each status the real L2 code
returns with its text. Integers exact; floats against a float64 golden within the standard.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor
from test_data_ops import assert_exact, launched, random_array, run, strided_view, zeros
from test_indexing import BF16, BOOL, F16, F32, I32, I64, INVALID, NULLPTR, on_soc, rejects

from emulator import aclnn, npu

A = aclnn


def index_put(stream: int, x: npu.Tensor | None, indices: Sequence[npu.Tensor | None] | None,
              values: npu.Tensor | None, accumulate: bool) -> tuple[int, Any]:  # fmt: skip
    members = None if indices is None else A.aclCreateTensorList([None if t is None else t.handle for t in indices],
                                                                 len(indices))  # fmt: skip
    ws, executor, ret = A.aclnnIndexPutImplGetWorkspaceSize(
        None if x is None else x.handle, members, None if values is None else values.handle, accumulate, False
    )
    if ret == 0:
        assert run(A.aclnnIndexPutImpl, ws, executor, stream) == 0
    return ret, executor


def idx(values: Sequence[int], dtype: int = I64) -> npu.Tensor:
    return device_tensor(np.array(values, np.int64 if dtype == I64 else np.int32), dtype)


def test_documented_example(stream: int) -> None:
    """The example's 3x4 float 1..12 with self[0, 2] += 1."""
    host = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    x = device_tensor(host, F32)
    ret, executor = index_put(stream, x, [idx([0]), idx([2])], device_tensor(np.array([1], np.float32), F32), True)
    assert ret == 0 and launched(executor) == ["IndexPut(AI CPU)"]
    golden = host.copy()
    golden[0, 2] = 4
    assert_exact(x.storage(), golden)


@pytest.mark.parametrize("accumulate", [True, False])
def test_duplicates(stream: int, accumulate: bool) -> None:
    """Row 1 named three times: summed with accumulate, the last value otherwise."""
    host = random_array((4, 3), I32, seed=1)
    values = np.array([[1, 2, 3], [10, 20, 30], [100, 200, 300]], np.int32)
    x = device_tensor(host, I32)
    assert index_put(stream, x, [idx([1, 1, 1], I32)], device_tensor(values, I32), accumulate)[0] == 0
    golden = host.copy()
    golden[1] = host[1] + values.sum(axis=0) if accumulate else values[2]
    assert_exact(x.storage(), golden)


def test_bool_mask_whole_axis_and_broadcast(stream: int) -> None:
    """A bool mask on axis 1 after an empty index (axis 0 whole); a scalar value broadcast."""
    host = random_array((2, 3, 2), F32, seed=2)
    mask = np.array([True, False, True])
    x = device_tensor(host, F32)
    members = [zeros((0,), I64), device_tensor(mask, BOOL)]
    assert index_put(stream, x, members, device_tensor(np.array(7.0, np.float32), F32), False)[0] == 0
    golden = host.copy()
    golden[:, mask] = 7.0
    assert_exact(x.storage(), golden)


def test_float16_accumulates_in_float32_and_strided_self(stream: int) -> None:
    storage = random_array((4, 6), F16, seed=3)
    x = device_tensor(storage, F16, shape=(6, 4), strides=(1, 6))
    values = random_array((3,), F16, seed=4)
    ret, executor = index_put(stream, x, [idx([5, 0, 5]), idx([1, 2, 1])], device_tensor(values, F16), True)
    assert ret == 0
    assert "Cast" in launched(executor)
    golden = strided_view(storage, (6, 4), (1, 6)).astype(np.float64)
    np.add.at(golden, (np.array([5, 0, 5]), np.array([1, 2, 1])), values.astype(np.float64))
    result = strided_view(x.storage(), (6, 4), (1, 6)).astype(np.float64)
    np.testing.assert_allclose(result, golden, rtol=1e-3, atol=1e-3)


def test_empty_tensors(stream: int) -> None:
    ret, executor = index_put(stream, zeros((0, 3), F32), [idx([0])], zeros((1,), F32), False)
    assert ret == 0 and launched(executor) == []
    host = random_array((2, 3), F32)
    x = device_tensor(host, F32)
    ret, executor = index_put(stream, x, [zeros((0,), I64)], device_tensor(np.ones(3, np.float32), F32), True)
    assert ret == 0 and "IndexPut(AI CPU)" not in launched(executor)
    assert_exact(x.storage(), host)


@pytest.mark.parametrize(
    ("shape", "dtype", "members", "value_dtype", "fragment"),
    [
        ((2, 3), A.ACL_UINT16, [((1,), I64)], A.ACL_UINT16, "selfRef dtype DT_UINT16"),
        ((2, 3), F32, [((1,), I64)], A.ACL_UINT32, "values dtype DT_UINT32"),
        ((2, 3), F32, [((1,), A.ACL_INT16)], F32, "indices[0] dtype DT_INT16"),
        ((2, 3), F32, [((1,), I64)], F16, "selfRef dtype DT_FLOAT should be DT_FLOAT16"),
        ((2, 3), F32, [((1,), I64)] * 3, F32, "indicesSize must <= self DimSize."),
        ((2, 3), F32, [((2, 3, 1), BOOL)], F32, "has 3 dimensions, but only 2 dimensions remain"),
        ((2, 3), F32, [((2, 2), BOOL)], F32, "dim 1 (size 2) does not match the shape of the indexed tensor"),
        ((1,) * 9, F32, [((1,), I64)], F32, "more than 8"),
    ],
)
def test_invalid(stream: int, shape: tuple, dtype: int, members: list[tuple], value_dtype: int, fragment: str) -> None:
    indices = [zeros(s, d) for s, d in members]
    ret, _ = index_put(stream, zeros(shape, dtype), indices, zeros((1,), value_dtype), False)
    rejects(ret, INVALID, "aclnnIndexPutImpl", fragment)


def test_nulls_and_soc_rule(stream: int) -> None:
    x, members, values = zeros((2, 3), F32), [idx([0])], zeros((1,), F32)
    rejects(index_put(stream, None, members, values, False)[0], NULLPTR, "selfRef")
    rejects(index_put(stream, x, None, values, False)[0], NULLPTR, "indices")
    rejects(index_put(stream, x, members, None, False)[0], NULLPTR, "values")
    rejects(index_put(stream, x, [idx([0]), None], values, False)[0], NULLPTR, "indices[1]")
    with on_soc("Ascend310P3"), npu.Session() as session:
        bf = session.tensor(np.zeros((2, 3), np.float32), BF16)
        one = session.tensor(np.zeros(1, np.float32), BF16)
        member = A.aclCreateTensorList([session.tensor(np.zeros(1, np.int64), I64).handle], 1)
        ret = A.aclnnIndexPutImplGetWorkspaceSize(bf.handle, member, one.handle, False, False)[2]
        rejects(ret, INVALID, "self not implemented for DT_BF16, when SocVersion is less than ASCEND910B.")
