"""aclnnMul / aclnnMuls (+ Inplace) on the emulated Ascend910B (ops-math math/mul, math/muls).

L0 Mul runs on AI Core except for int16 / double / complex128 (AI CPU); float16 / bfloat16 with
float32 use the mixed kernel (float32 result). aclnnMuls computes in the A2 tensor-scalar dtype;
a bfloat16 tensor times a double scalar runs the L0 Muls kernel and stays bfloat16. Fidelity note:
the documented rank <= 8 check is kept for Muls although the real A2 code has none.
"""

from __future__ import annotations

import numpy as np
import pytest
from binary_helpers import (
    BINARY_SHAPES,
    UNARY_SHAPES,
    check,
    empty_out,
    ident,
    np_dtype,
    random_values,
    run_op,
    scalar,
    status,
    to_device,
    wide,
)

from emulator import aclnn
from emulator.kernels.math.binary_common import ARITH_DTYPES
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103


def _mul_golden(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.logical_and(a, b) if a.dtype == np.bool_ else wide(a) * wide(b)


@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_mul_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnMul matches the golden for every A2 dtype and shape class."""
    rng = np.random.default_rng(21)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = random_values(dtype, self_shape, rng), random_values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), dtype, strided=strided)
    run_op(aclnn.aclnnMulGetWorkspaceSize, aclnn.aclnnMul, stream, x.handle, y.handle, out.handle)
    check(out, _mul_golden(a, b))


@pytest.mark.parametrize(
    ("self_dtype", "other_dtype", "out_dtype"),
    [
        (D.DT_FLOAT16, D.DT_FLOAT, D.DT_FLOAT),  # mixed kernel
        (D.DT_FLOAT, D.DT_BF16, D.DT_BF16),  # mixed kernel, then Cast to bfloat16
        (D.DT_INT8, D.DT_INT32, D.DT_INT32),  # promote int32
        (D.DT_BOOL, D.DT_FLOAT16, D.DT_FLOAT),  # promote float16, cast to float32
        (D.DT_UINT8, D.DT_INT8, D.DT_INT16),  # promote int16 -> AI CPU Mul
    ],
    ids=ident,
)
def test_mul_mixed_dtypes(stream: int, self_dtype: int, other_dtype: int, out_dtype: int) -> None:
    """Mixed input dtypes go through the mixed kernel or Cast to the promoted dtype."""
    rng = np.random.default_rng(22)
    a, b = random_values(self_dtype, (9, 65), rng), random_values(other_dtype, (65,), rng)
    x, y, out = to_device(a, self_dtype), to_device(b, other_dtype), empty_out((9, 65), out_dtype)
    run_op(aclnn.aclnnMulGetWorkspaceSize, aclnn.aclnnMul, stream, x.handle, y.handle, out.handle)
    check(out, wide(a).astype(np.float64) * wide(b).astype(np.float64))


def test_inplace_mul(stream: int) -> None:
    """aclnnInplaceMul casts a float32 product back into a float16 selfRef."""
    rng = np.random.default_rng(23)
    a, b = random_values(D.DT_FLOAT16, (4, 33), rng), random_values(D.DT_FLOAT, (4, 1), rng)
    x, y = to_device(a, D.DT_FLOAT16), to_device(b, D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceMulGetWorkspaceSize, aclnn.aclnnInplaceMul, stream, x.handle, y.handle)
    check(x, wide(a) * wide(b))


def test_mul_errors(stream: int) -> None:
    """Nulls are 161001; dtype, promotion, castability, broadcast, out shape and rank are 161002."""
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    x, y, out = f32((2, 3)), f32((3,)), f32((2, 3))
    phase1 = aclnn.aclnnMulGetWorkspaceSize
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    u32 = to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle
    assert status(phase1, u32, y, out) == INVALID  # self dtype
    assert status(phase1, x, y, u32) == INVALID  # out dtype
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, x, y, i32) == INVALID  # float32 -> int32
    assert status(phase1, x, f32((2,)), out) == INVALID  # broadcast
    assert status(phase1, x, y, f32((3, 2))) == INVALID  # out shape
    nine = f32((1,) * 9)
    assert status(phase1, nine, nine, nine) == INVALID
    inplace = aclnn.aclnnInplaceMulGetWorkspaceSize
    assert status(inplace, None, y) == NULLPTR
    assert status(inplace, x, None) == NULLPTR
    assert status(inplace, i32, x) == INVALID  # float32 result into an int32 selfRef
    assert status(inplace, f32((3,)), x) == INVALID  # broadcast shape != selfRef


# -- aclnnMuls ---------------------------------------------------------------------------------
def _scalar_for(dtype: int) -> tuple[object, int]:
    if dtype == D.DT_BOOL:
        return True, D.DT_BOOL
    if np_dtype(dtype).kind in "iu":
        return 3, D.DT_INT64
    return -0.75, D.DT_FLOAT


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_muls_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnMuls matches the golden for every A2 dtype and shape class."""
    rng = np.random.default_rng(24)
    shape = UNARY_SHAPES[case]
    a = random_values(dtype, shape, rng)
    value, value_dtype = _scalar_for(dtype)
    strided = case == "strided"
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    run_op(aclnn.aclnnMulsGetWorkspaceSize, aclnn.aclnnMuls, stream, x.handle, scalar(value, value_dtype), out.handle)
    check(out, _mul_golden(a, np.full(shape, value, dtype=a.dtype)))


@pytest.mark.parametrize(
    ("dtype", "value", "value_dtype", "out_dtype"),
    [
        (D.DT_BF16, 0.1, D.DT_DOUBLE, D.DT_BF16),  # the L0 Muls kernel
        (D.DT_BF16, 0.1, D.DT_FLOAT, D.DT_BF16),  # computed in float32
        (D.DT_INT32, 0.5, D.DT_FLOAT, D.DT_FLOAT),  # float scalar promotes
        (D.DT_BOOL, 1.5, D.DT_DOUBLE, D.DT_FLOAT),  # bool x double -> float32
        (D.DT_INT8, 2.5, D.DT_DOUBLE, D.DT_FLOAT),  # double scalar + float32 out -> float32
        (D.DT_INT16, 3, D.DT_INT64, D.DT_INT16),  # integral scalar keeps int16 (AI CPU Mul)
        (D.DT_FLOAT, 2.0, D.DT_COMPLEX64, D.DT_COMPLEX64),  # complex scalar promotes
    ],
    ids=ident,
)
def test_muls_compute_dtype(stream: int, dtype: int, value: float, value_dtype: int, out_dtype: int) -> None:
    """The A2 Muls compute dtype (and the bfloat16 x double Muls kernel) gives the right product."""
    rng = np.random.default_rng(25)
    a = random_values(dtype, (301,), rng)
    x, out = to_device(a, dtype), empty_out((301,), out_dtype)
    run_op(aclnn.aclnnMulsGetWorkspaceSize, aclnn.aclnnMuls, stream, x.handle, scalar(value, value_dtype), out.handle)
    check(out, wide(a) * value)


def test_muls_undefined_compute_dtype(stream: int) -> None:
    """A bool tensor times a uint16 scalar has no promoted dtype: the chain's Cast fails (561103)."""
    x = to_device(np.zeros((4,), bool), D.DT_BOOL)
    out = empty_out((4,), D.DT_BOOL)
    assert status(aclnn.aclnnMulsGetWorkspaceSize, x.handle, scalar(2, D.DT_UINT16), out.handle) == INNER_NULLPTR


def test_inplace_muls(stream: int) -> None:
    """aclnnInplaceMuls scales selfRef in place; an empty selfRef launches nothing."""
    a = np.arange(-20, 20, dtype=np.int64)
    x = to_device(a, D.DT_INT64)
    run_op(aclnn.aclnnInplaceMulsGetWorkspaceSize, aclnn.aclnnInplaceMuls, stream, x.handle, scalar(-3, D.DT_INT32))
    check(x, a * -3)
    empty = to_device(np.zeros((3, 0), np.float32), D.DT_FLOAT)
    ws, executor, ret = aclnn.aclnnInplaceMulsGetWorkspaceSize(empty.handle, scalar(2, D.DT_INT32))
    assert (ws, ret) == (0, 0) and not executor.launchers


def test_muls_errors(stream: int) -> None:
    """Nulls are 161001; self / out dtype, out shape and rank are 161002."""
    x = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT).handle
    two = scalar(2, D.DT_INT32)
    phase1 = aclnn.aclnnMulsGetWorkspaceSize
    for args in ((None, two, x), (x, None, x), (x, two, None)):
        assert status(phase1, *args) == NULLPTR
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, u16, two, x) == INVALID
    assert status(phase1, x, two, u16) == INVALID
    assert status(phase1, x, two, to_device(np.zeros((3, 2), np.float32), D.DT_FLOAT).handle) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.float32), D.DT_FLOAT).handle
    assert status(phase1, nine, two, nine) == INVALID
    assert status(aclnn.aclnnInplaceMulsGetWorkspaceSize, None, two) == NULLPTR
    assert status(aclnn.aclnnInplaceMulsGetWorkspaceSize, x, None) == NULLPTR
    assert status(aclnn.aclnnInplaceMulsGetWorkspaceSize, u16, two) == INVALID
