"""aclnnRepeatInterleaveInt / aclnnRepeatInterleaveIntWithDim (issue 14).

The official example's values, each kernel path (V1, the A2 V2 kernel, the bool cast, the repeats-1
copy), negative dims, strided views, empty tensors, the SoC lists, and each status the real L2 code
returns with its text. Bit-exact against numpy's repeat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor
from test_data_ops import assert_exact, launched, random_array, run, strided_view, zeros
from test_indexing import BF16, BOOL, F32, I8, I64, INVALID, NULLPTR, on_soc, rejects

from emulator import aclnn, npu

A = aclnn


def interleave(stream: int, x: npu.Tensor | None, repeats: int, dim: int | None, size: int,
               out: npu.Tensor | None) -> tuple[int, Any]:  # fmt: skip
    handles = (None if x is None else x.handle, None if out is None else out.handle)
    if dim is None:
        ws, executor, ret = A.aclnnRepeatInterleaveIntGetWorkspaceSize(handles[0], repeats, size, handles[1])
        phase2 = A.aclnnRepeatInterleaveInt
    else:
        ws, executor, ret = A.aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(handles[0], repeats, dim, size,
                                                                               handles[1])  # fmt: skip
        phase2 = A.aclnnRepeatInterleaveIntWithDim
    if ret == 0:
        assert run(phase2, ws, executor, stream) == 0
    return ret, executor


def test_documented_example(stream: int) -> None:
    """The example's 2x3 float rows, repeats 2 on dim 0 with outputSize 4."""
    host = np.array([[3, 4, 5], [-3, -4, -5]], np.float32)
    out = zeros((4, 3), F32)
    ret, executor = interleave(stream, device_tensor(host, F32), 2, 0, 4, out)
    assert ret == 0 and launched(executor) == ["BroadcastTo", "RepeatInterleave"]
    assert_exact(out.storage(), np.repeat(host, 2, axis=0))


@pytest.mark.parametrize(
    ("dtype", "shape", "repeats", "dim", "kernels"),
    [
        (F32, (4, 3, 5), 3, -2, ["BroadcastTo", "RepeatInterleave"]),  # 4 rows x 9 < 256: V1
        (BF16, (64, 2), 3, 1, ["BroadcastTo", "RepeatInterleaveV2"]),
        (I8, (2, 5), 4, 1, ["BroadcastTo", "RepeatInterleave"]),
        (BOOL, (3, 2), 2, 0, ["BroadcastTo", "Cast", "RepeatInterleave", "Cast"]),
        (I64, (2, 3), 1, 1, []),  # repeats 1: a copy
        (F32, (2, 3), 3, None, ["BroadcastTo", "RepeatInterleave"]),  # no dim: flattened
    ],
    ids=["f32-neg-dim", "bf16-v2", "i8-v1", "bool", "repeats-1", "flattened"],
)
def test_paths(stream: int, dtype: int, shape: tuple, repeats: int, dim: int | None, kernels: list[str]) -> None:
    host = random_array(shape, dtype, seed=1)
    golden = np.repeat(host, repeats, axis=dim)
    out = zeros(golden.shape, dtype)
    size = golden.shape[dim] if dim is not None else golden.size
    ret, executor = interleave(stream, device_tensor(host, dtype), repeats, dim, size, out)
    assert ret == 0
    names = launched(executor)
    if kernels:
        assert names[-len(kernels) :] == kernels
    else:
        assert "RepeatInterleave" not in names
    assert_exact(out.storage(), golden)


def test_strided_view_zero_d_and_empty(stream: int) -> None:
    storage = random_array((5, 4), F32, seed=2)
    x = device_tensor(storage, F32, shape=(4, 5), strides=(1, 4))
    out = zeros((8, 5), F32)
    assert interleave(stream, x, 2, 0, 8, out)[0] == 0
    assert_exact(out.storage(), np.repeat(strided_view(storage, (4, 5), (1, 4)), 2, axis=0))
    scalar = device_tensor(np.array(7.5, np.float32), F32)
    out = zeros((3,), F32)
    assert interleave(stream, scalar, 3, None, 3, out)[0] == 0
    assert_exact(out.storage(), np.full(3, 7.5, np.float32))
    ret, executor = interleave(stream, zeros((0, 3), F32), 2, 1, 6, zeros((0, 6), F32))
    assert ret == 0 and launched(executor) == []
    ret, executor = interleave(stream, zeros((2, 3), F32), 0, 1, 0, zeros((2, 0), F32))
    assert ret == 0 and launched(executor) == []


def test_output_size_is_trusted(stream: int) -> None:
    """A larger outputSize leaves zeros past the repeated elements (the choice in docs/ops_notes.md)."""
    host = np.array([1, 2], np.int64)
    out = zeros((6,), I64)
    assert interleave(stream, device_tensor(host, I64), 2, 0, 6, out)[0] == 0
    assert_exact(out.storage(), np.array([1, 1, 2, 2, 0, 0], np.int64))


@pytest.mark.parametrize(
    ("shape", "dtype", "repeats", "dim", "size", "out_shape", "out_dtype", "fragment"),
    [
        ((2, 3), A.ACL_DOUBLE, 2, 0, 4, (4, 3), A.ACL_DOUBLE, "self dtype DT_DOUBLE"),
        ((2, 3), F32, 2, 0, 4, (4, 3), A.ACL_FLOAT16, "out dtype DT_FLOAT16 should be DT_FLOAT"),
        ((2, 3), F32, -1, 0, 4, (4, 3), F32, "repeats -1 can not be negative."),
        ((), F32, 2, 0, 2, (2,), F32, "dimension specified as 0 but tensor has no dimensions."),
        ((2, 3), F32, 2, 2, 4, (4, 3), F32, "expected to be in range of [-2, 1], but got 2"),
        ((1,) * 9, F32, 2, 0, 2, (2,) + (1,) * 8, F32, "more than 8"),
        ((2, 3), F32, 2, 0, 4, (4, 4), F32, "out shape [4, 4] should be the same as self shape [4, 3]"),
        ((2, 3), F32, 2, None, 12, (11,), F32, "out shape [11]"),
    ],
)
def test_invalid(stream: int, shape: tuple, dtype: int, repeats: int, dim: int | None, size: int,
                 out_shape: tuple, out_dtype: int, fragment: str) -> None:  # fmt: skip
    ret, _ = interleave(stream, zeros(shape, dtype), repeats, dim, size, zeros(out_shape, out_dtype))
    rejects(ret, INVALID, fragment)


def test_nulls_and_soc_lists(stream: int) -> None:
    x, out = zeros((2,), F32), zeros((4,), F32)
    for dim in (None, 0):
        rejects(interleave(stream, None, 2, dim, 4, out)[0], NULLPTR, "self")
        rejects(interleave(stream, x, 2, dim, 4, None)[0], NULLPTR, "out")
    with on_soc("Ascend310P3"), npu.Session() as session:
        x = session.tensor(np.zeros(2, np.float32), BF16)
        out = session.tensor(np.zeros(4, np.float32), BF16)
        ret = A.aclnnRepeatInterleaveIntGetWorkspaceSize(x.handle, 2, 4, out.handle)[2]
        rejects(ret, INVALID, "self dtype DT_BF16")


# -- the tensor-repeats forms: aclnnRepeatInterleave / aclnnRepeatInterleaveWithDim -----------------
def interleave_tensor(stream: int, x: npu.Tensor, repeats: npu.Tensor, dim: int | None, size: int,
                      out: npu.Tensor) -> tuple[int, Any]:  # fmt: skip
    if dim is None:
        ws, executor, ret = A.aclnnRepeatInterleaveGetWorkspaceSize(x.handle, repeats.handle, size, out.handle)
        phase2 = A.aclnnRepeatInterleave
    else:
        ws, executor, ret = A.aclnnRepeatInterleaveWithDimGetWorkspaceSize(x.handle, repeats.handle, dim, size,
                                                                            out.handle)  # fmt: skip
        phase2 = A.aclnnRepeatInterleaveWithDim
    if ret == 0:
        assert run(phase2, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize(
    ("dim", "counts", "repeat_dtype"),
    [(None, [1, 0, 2, 3, 1, 2], I64), (1, [2, 0, 1], A.ACL_INT32), (-2, [3], I64)],
    ids=["flat-per-element", "dim1-int32", "one-count"],
)
def test_tensor_repeats(stream: int, dim: int | None, counts: list[int], repeat_dtype: int) -> None:
    """Per-element counts (a zero drops its element), int32 counts, and a single count for every element."""
    host = random_array((2, 3), F32, seed=7)
    golden = np.repeat(host, counts if len(counts) > 1 else counts[0], axis=dim)
    out = zeros(golden.shape, F32)
    size = golden.size if dim is None else golden.shape[dim]
    repeats = device_tensor(np.array(counts, np.int64 if repeat_dtype == I64 else np.int32), repeat_dtype)
    ret, executor = interleave_tensor(stream, device_tensor(host, F32), repeats, dim, size, out)
    assert ret == 0 and "RepeatInterleave" in launched(executor)
    assert_exact(out.storage(), golden)


@pytest.mark.parametrize(
    ("shape", "counts", "dim", "fragment"),
    [
        ((2, 3), [[1, 2]], None, "repeats has 2 dims, more than 1"),
        ((2, 3), [1, 2], None, "Tensor repeats size 2 must be 1 or the number of elements in tensor self 6."),
        ((2, 3), [1, 2], 1, "must be size 1 or have the same size 3 as input along dim, but got 2."),
        # the size check comes before the empty-self and empty-repeats ones, which it leaves unreachable
        ((0, 3), [1, 2], None, "number of elements in tensor self 0."),
        ((2, 3), [], 0, "the same size 2 as input along dim, but got 0."),
    ],
)
def test_tensor_repeats_invalid(stream: int, shape: tuple, counts: list, dim: int | None, fragment: str) -> None:
    repeats = device_tensor(np.array(counts, np.int64).reshape(np.array(counts).shape), I64)
    ret, _ = interleave_tensor(stream, zeros(shape, F32), repeats, dim, 4, zeros((4,), F32))
    rejects(ret, INVALID, fragment)
