"""The padding ops of issue 14: aclnnConstantPadNd and aclnnReflectionPad1d.

Per op: the official example's values, one dtype per kernel path (AI Core, AI CPU, the bool cast),
negative pads (the StridedSlice crop), strided views, empty tensors, and each status the real L2
code returns with its aclGetRecentErrMsg text. The ops only move elements: results are bit-exact
against numpy's pad.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor
from test_data_ops import assert_exact, launched, random_array, run, strided_view, zeros
from test_indexing import BOOL, C64, C128, F16, F32, F64, I8, I32, I64, INNER_NULLPTR, INVALID, NULLPTR, rejects

from emulator import aclnn, npu

A = aclnn


def constant_pad(stream: int, x: npu.Tensor | None, pad: Sequence[int] | None, value: Any,
                 out: npu.Tensor | None) -> tuple[int, Any]:  # fmt: skip
    pads = None if pad is None else A.aclCreateIntArray(list(pad), len(pad))
    scalar = None if value is None else A.aclCreateScalar(value, A.ACL_FLOAT)
    ws, executor, ret = A.aclnnConstantPadNdGetWorkspaceSize(
        None if x is None else x.handle, pads, scalar, None if out is None else out.handle
    )
    if ret == 0:
        assert run(A.aclnnConstantPadNd, ws, executor, stream) == 0
    return ret, executor


def np_pad(host: np.ndarray, pad: Sequence[int], value: float) -> np.ndarray:
    """torch.nn.functional.pad semantics: pairs from the last axis; negative pads crop."""
    rank = host.ndim
    widths = [(0, 0)] * rank
    for i in range(len(pad) // 2):
        widths[rank - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    grown = np.pad(host, [(max(b, 0), max(a, 0)) for b, a in widths], constant_values=value)
    cut = tuple(slice(-min(b, 0), grown.shape[i] + min(a, 0)) for i, (b, a) in enumerate(widths))
    return grown[cut]


def test_constant_pad_documented_example(stream: int) -> None:
    """The example's 3x3 float 0..8 padded by one on every side with 0."""
    host = np.arange(9, dtype=np.float32).reshape(3, 3)
    out = zeros((5, 5), F32)
    ret, executor = constant_pad(stream, device_tensor(host, F32), [1, 1, 1, 1], 0.0, out)
    assert ret == 0 and launched(executor) == ["PadV3"]
    assert_exact(out.storage(), np_pad(host, [1, 1, 1, 1], 0.0))


@pytest.mark.parametrize(
    ("dtype", "pad", "kernels"),
    [
        (F32, [2, 0, 0, 1], ["PadV3"]),  # AI Core
        (F64, [1, 2], ["PadV3(AI CPU)"]),
        (BOOL, [1, 1, 1, 0], ["Cast", "Cast", "PadV3", "Cast"]),  # bool (and its value) run as int8
        (I32, [-1, 2, 1, -2], ["PadV3", "StridedSlice", "StridedSlice"]),  # pad then crop
        (I64, [-1, -1], ["StridedSlice"]),  # crop only (AI Core int64)
        (C64, [0, 0, 1, 1], ["PadV3(AI CPU)"]),
    ],
    ids=["f32", "f64-aicpu", "bool", "mixed-sign", "crop-only", "c64-leading-axis"],
)
def test_constant_pad_paths(stream: int, dtype: int, pad: list[int], kernels: list[str]) -> None:
    host = random_array((3, 4), dtype, seed=1)
    golden = np_pad(host, pad, 2.0 if dtype != BOOL else True)
    out = zeros(golden.shape, dtype)
    ret, executor = constant_pad(stream, device_tensor(host, dtype), pad, 2.0, out)
    assert ret == 0
    assert [k for k in launched(executor) if k != "Cast" or dtype == BOOL] == kernels
    assert_exact(out.storage(), golden)


def test_constant_pad_strided_views_and_4d(stream: int) -> None:
    """A transposed, offset self is gathered first; the result lands in a strided out; pads on 2 of 4 axes."""
    storage = random_array((6, 10), F16, seed=3)
    x = device_tensor(storage, F16, shape=(4, 3), strides=(1, 20), offset=2)
    out_storage = np.full((6, 10), 7, np.float16)
    out = device_tensor(out_storage, F16, shape=(6, 5), strides=(10, 2))
    ret, executor = constant_pad(stream, x, [1, 1, 2, 0], -1.5, out)
    assert ret == 0 and launched(executor)[0] == "AsStrided"
    golden = out_storage.copy()
    golden[:, ::2] = np_pad(strided_view(storage, (4, 3), (1, 20), 2), [1, 1, 2, 0], -1.5)
    assert_exact(out.storage(), golden)
    host = random_array((2, 3, 4, 5), I8, seed=4)
    out = zeros((2, 3, 5, 8), I8)
    assert constant_pad(stream, device_tensor(host, I8), [1, 2, 0, 1], 3, out)[0] == 0
    assert_exact(out.storage(), np_pad(host, [1, 2, 0, 1], 3))


def test_constant_pad_empty_and_zero_pads(stream: int) -> None:
    """An empty self with positive pads is a Fill; all-zero pads copy; an empty out launches nothing."""
    out = zeros((2, 2), F32)
    ret, executor = constant_pad(stream, zeros((2, 0), F32), [1, 1], 4.0, out)
    assert ret == 0 and launched(executor) == ["Fill"]
    assert_exact(out.storage(), np.full((2, 2), 4.0, np.float32))
    host = random_array((2, 3), F32)
    out = zeros((2, 3), F32)
    ret, executor = constant_pad(stream, device_tensor(host, F32), [0, 0], 4.0, out)
    assert ret == 0 and "PadV3" not in launched(executor)
    assert_exact(out.storage(), host)
    ret, executor = constant_pad(stream, device_tensor(host, F32), [-3, 0], 4.0, zeros((2, 0), F32))
    assert ret == 0 and launched(executor) == []


@pytest.mark.parametrize(
    ("shape", "dtype", "pad", "out_shape", "out_dtype", "fragment"),
    [
        ((2, 3), F32, [1, 1], (2, 5), F16, "should be the same"),
        ((2, 3), F32, [1, 1], (2, 3, 1), F32, "Dim of self[2] and out[3]"),
        ((2, 3), F32, [1, 1, 1], (2, 5), F32, "Pad len must be divisible by 2"),
        ((2, 3), F32, [1, 1, 1, 1, 1, 1], (2, 5), F32, "to not be greater than twice of [2]"),
        ((2, 3), F32, [-2, -2], (2, 0), F32, "resulted in a negative output size"),
        ((2, 3), F32, [1, 1], (2, 6), F32, "The output shape you provided is 6 at dim 1"),
        ((2, 0), F32, [1, 0, 1, 1], (4, 1), F32, None),
        ((2, 0), F32, [0, 0, 1, 1], (4, 0), F32, "with zero element is invalid"),
        ((0, 3), F32, [1, 1], (0, 5), F32, None),  # the zero axis is not padded: an empty out
        ((1,) * 9, F32, [1, 1], (1,) * 8 + (3,), F32, "more than 8"),
    ],
)
def test_constant_pad_invalid(stream: int, shape: tuple, dtype: int, pad: list[int], out_shape: tuple,
                              out_dtype: int, fragment: str | None) -> None:  # fmt: skip
    ret, _ = constant_pad(stream, zeros(shape, dtype), pad, 0.0, zeros(out_shape, out_dtype))
    if fragment is None:
        assert ret == 0
    else:
        rejects(ret, INVALID, "aclnnConstantPadNd", fragment)


def test_constant_pad_nulls_and_soc_lists(stream: int) -> None:
    x, out = zeros((2, 2), F32), zeros((2, 4), F32)
    for args, name in (((None, [1, 1], 0.0, out), "self"), ((x, None, 0.0, out), "pad"),
                       ((x, [1, 1], None, out), "value"), ((x, [1, 1], 0.0, None), "out")):  # fmt: skip
        rejects(constant_pad(stream, *args)[0], NULLPTR, "aclnnConstantPadNd", name)
    ret, _ = constant_pad(stream, zeros((2, 2), A.ACL_FLOAT8_E5M2), [1, 1], 0.0, zeros((2, 4), A.ACL_FLOAT8_E5M2))
    rejects(ret, INVALID, "self dtype DT_FLOAT8_E5M2")


# -- aclnnReflectionPad1d --------------------------------------------------------------------------
def reflection_pad(stream: int, x: npu.Tensor | None, padding: Sequence[int] | None,
                   out: npu.Tensor | None) -> tuple[int, Any]:  # fmt: skip
    pads = None if padding is None else A.aclCreateIntArray(list(padding), len(padding))
    ws, executor, ret = A.aclnnReflectionPad1dGetWorkspaceSize(
        None if x is None else x.handle, pads, None if out is None else out.handle
    )
    if ret == 0:
        assert run(A.aclnnReflectionPad1d, ws, executor, stream) == 0
    return ret, executor


def np_reflect(host: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    return np.pad(host, [(0, 0)] * (host.ndim - 1) + [tuple(padding)], mode="reflect")


def test_reflection_pad_documented_example(stream: int) -> None:
    """The example's [[1, 2, 3]] padded by 2 on both sides: [[3, 2, 1, 2, 3, 2, 1]]."""
    out = zeros((1, 7), F32)
    ret, executor = reflection_pad(stream, device_tensor(np.array([[1, 2, 3]], np.float32), F32), [2, 2], out)
    assert ret == 0 and launched(executor) == ["MirrorPad"]
    assert_exact(out.storage(), np.array([[3, 2, 1, 2, 3, 2, 1]], np.float32))


@pytest.mark.parametrize(
    ("dtype", "shape", "padding", "kernel"),
    [(F32, (2, 3, 5), (4, 1), "MirrorPad"), (I8, (3, 4), (0, 3), "MirrorPad(AI CPU)"),
     (BOOL, (2, 2, 3), (2, 2), "MirrorPad(AI CPU)"),
     (C128, (2, 6), (3, 5), "PadV3(AI CPU)"), (C64, (2, 2, 4), (1, 0), "PadV3(AI CPU)")],
    ids=["f32-aicore", "i8-aicpu", "bool-aicpu", "c128-2d", "c64-3d"],
)  # fmt: skip
def test_reflection_pad_paths(stream: int, dtype: int, shape: tuple, padding: tuple, kernel: str) -> None:
    host = random_array(shape, dtype, seed=5)
    golden = np_reflect(host, padding)
    out = zeros(golden.shape, dtype)
    ret, executor = reflection_pad(stream, device_tensor(host, dtype), padding, out)
    assert ret == 0 and launched(executor) == [kernel]
    assert_exact(out.storage(), golden)


def test_reflection_pad_strided_and_empty_batch(stream: int) -> None:
    storage = random_array((5, 4), F32, seed=6)
    x = device_tensor(storage, F32, shape=(4, 5), strides=(1, 4))
    out = zeros((4, 9), F32)
    assert reflection_pad(stream, x, [2, 2], out)[0] == 0
    assert_exact(out.storage(), np_reflect(storage.T, (2, 2)))
    ret, executor = reflection_pad(stream, zeros((0, 2, 3), F32), [1, 1], zeros((0, 2, 5), F32))
    assert ret == 0 and launched(executor) == []


@pytest.mark.parametrize(
    ("shape", "dtype", "padding", "out_shape", "out_dtype", "status", "fragment"),
    [
        ((2, 3), A.ACL_UINT16, [1, 1], (2, 5), A.ACL_UINT16, INVALID, "self dtype DT_UINT16"),
        ((2, 3), F32, [1, 1], (2, 5), F16, INVALID, "out dtype DT_FLOAT16 should be DT_FLOAT"),
        ((3,), F32, [1, 1], (5,), F32, INVALID, "fewer than 2"),
        ((1, 2, 2, 3), F32, [1, 1], (1, 2, 2, 5), F32, INVALID, "more than 3"),
        ((2, 3), F32, [1, 1], (1, 2, 5), F32, INVALID, "self, out dim should be same."),
        ((2, 3), F32, [1, 1, 1], (2, 5), F32, INVALID, "padding length should be 2, but got 3."),
        ((2, 3), F32, [3, 1], (2, 7), F32, INVALID, "padding size should be less than"),
        ((2, 3), F32, [1, 1], (2, 6), F32, INVALID, "wrong out shape."),
        ((0, 3), F32, [1, 1], (0, 5), F32, INVALID, "Expected 2D or 3D tensor with possibly 0 batch size"),
        ((2, 0, 3), F32, [1, 1], (2, 0, 5), F32, INVALID, "possibly 0 batch size"),
        ((2, 3), F32, [-1, 1], (2, 3), F32, INNER_NULLPTR, "an L0 step returned null"),
    ],
)
def test_reflection_pad_invalid(stream: int, shape: tuple, dtype: int, padding: list[int], out_shape: tuple,
                                out_dtype: int, status: int, fragment: str) -> None:  # fmt: skip
    ret, _ = reflection_pad(stream, zeros(shape, dtype), padding, zeros(out_shape, out_dtype))
    rejects(ret, status, fragment)


def test_reflection_pad_nulls(stream: int) -> None:
    x, out = zeros((2, 3), F32), zeros((2, 5), F32)
    for args, name in (((None, [1, 1], out), "self"), ((x, None, out), "padding"), ((x, [1, 1], None), "out")):
        rejects(reflection_pad(stream, *args)[0], NULLPTR, "aclnnReflectionPad1d", name)
