"""aclnnEqTensor and aclnnGtTensor / aclnnGtScalar (+ Inplace) on the emulated Ascend910B
(ops-math math/equal, math/greater).

L0 Equal / Greater produce bool and are compared bit-exactly. Equal runs int16 / double on the CANN
AI CPU kernel and complex on the TF AI CPU kernel; Greater runs everything outside float32, int32,
int64, float16, int8, uint8, bfloat16 on AI CPU, and compares bool as int8. Fidelity note: GtScalar
keeps a floating self's dtype when a double scalar is within float epsilon of its rounded value
(the real op's absolute IsDoubleEqual test), so tiny scalars can round to 0 in float16.
"""

from __future__ import annotations

import numpy as np
import pytest
from binary_helpers import (
    BINARY_SHAPES,
    COMPLEX,
    UNARY_SHAPES,
    check,
    empty_out,
    ident,
    np_dtype,
    run_op,
    scalar,
    status,
    to_device,
)

from emulator import aclnn
from emulator.kernels.math.equal import EQ_DTYPES
from emulator.kernels.math.greater import GT_DTYPES
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
ACL_INT4 = 29


def _values(dtype: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Few distinct values, so that equal and greater both happen often."""
    if dtype == D.DT_BOOL:
        return rng.integers(0, 2, shape).astype(bool)
    target = np_dtype(dtype)
    values = rng.integers(0 if target.kind == "u" else -2, 3, shape)
    if dtype in COMPLEX:
        return (values + 1j * rng.integers(0, 2, shape)).astype(target)
    return values.astype(target)


# -- aclnnEqTensor -----------------------------------------------------------------------------
@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", EQ_DTYPES, ids=ident)
def test_eq_tensor_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnEqTensor is bit-exact against numpy for every A2 dtype and shape class."""
    rng = np.random.default_rng(41)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), D.DT_BOOL, strided=strided)
    run_op(aclnn.aclnnEqTensorGetWorkspaceSize, aclnn.aclnnEqTensor, stream, x.handle, y.handle, out.handle)
    check(out, np.equal(a, b))


@pytest.mark.parametrize(
    ("self_dtype", "other_dtype", "out_dtype"),
    [
        (D.DT_INT32, D.DT_FLOAT16, D.DT_FLOAT),  # compared in float16, written as 0.0 / 1.0
        (D.DT_UINT8, D.DT_INT8, D.DT_INT64),  # compared in int16 on AI CPU
        (D.DT_BF16, D.DT_FLOAT, D.DT_BF16),
        (D.DT_BOOL, D.DT_COMPLEX64, D.DT_BOOL),  # TF AI CPU kernel
    ],
    ids=ident,
)
def test_eq_tensor_promotion_and_out(stream: int, self_dtype: int, other_dtype: int, out_dtype: int) -> None:
    """Mixed inputs compare in the promoted dtype; the bool result is cast to out's dtype."""
    rng = np.random.default_rng(42)
    a, b = _values(self_dtype, (3, 50), rng), _values(other_dtype, (50,), rng)
    x, y, out = to_device(a, self_dtype), to_device(b, other_dtype), empty_out((3, 50), out_dtype)
    run_op(aclnn.aclnnEqTensorGetWorkspaceSize, aclnn.aclnnEqTensor, stream, x.handle, y.handle, out.handle)
    check(out, np.equal(a, b).astype(np_dtype(out_dtype)))


def test_inplace_eq_tensor(stream: int) -> None:
    """aclnnInplaceEqTensor writes 1.0 / 0.0 into a float32 selfRef."""
    a = np.array([[1.0, 2.0, 3.0], [4.0, 2.0, np.nan]], np.float32)
    b = np.array([4.0, 2.0, np.nan], np.float32)
    x, y = to_device(a, D.DT_FLOAT), to_device(b, D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceEqTensorGetWorkspaceSize, aclnn.aclnnInplaceEqTensor, stream, x.handle, y.handle)
    check(x, np.equal(a, b).astype(np.float32))


def test_eq_tensor_errors(stream: int) -> None:
    """Nulls are 161001; out dtype, promotion, rank, broadcast and out shape are 161002."""
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    x, y, out = f32((2, 3)), f32((3,)), to_device(np.zeros((2, 3), bool), D.DT_BOOL).handle
    phase1 = aclnn.aclnnEqTensorGetWorkspaceSize
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, x, y, u16) == INVALID  # out dtype
    assert status(phase1, u16, u16, out) == INVALID  # promoted uint16 is not in the list
    assert status(phase1, x, f32((2,)), out) == INVALID
    assert status(phase1, x, y, to_device(np.zeros((3, 2), bool), D.DT_BOOL).handle) == INVALID
    nine = f32((1,) * 9)
    assert status(phase1, nine, nine, to_device(np.zeros((1,) * 9, bool), D.DT_BOOL).handle) == INVALID
    inplace = aclnn.aclnnInplaceEqTensorGetWorkspaceSize
    assert status(inplace, None, y) == NULLPTR
    assert status(inplace, x, None) == NULLPTR
    assert status(inplace, f32((0,)), f32((3,))) == INVALID  # exactly one of them empty
    assert status(inplace, f32((1,)), f32((0,))) == INVALID


# -- aclnnGtTensor -----------------------------------------------------------------------------
@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", GT_DTYPES, ids=ident)
def test_gt_tensor_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnGtTensor is bit-exact against numpy for every A2 dtype and shape class."""
    rng = np.random.default_rng(43)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), D.DT_BOOL, strided=strided)
    run_op(aclnn.aclnnGtTensorGetWorkspaceSize, aclnn.aclnnGtTensor, stream, x.handle, y.handle, out.handle)
    check(out, np.greater(a, b))


def test_gt_tensor_mixed_and_inplace(stream: int) -> None:
    """int8 > float32 compares in float32 into an int32 out; InplaceGtTensor writes selfRef's dtype."""
    rng = np.random.default_rng(44)
    a, b = _values(D.DT_INT8, (4, 17), rng), rng.uniform(-2, 2, (17,)).astype(np.float32)
    x, y, out = to_device(a, D.DT_INT8), to_device(b, D.DT_FLOAT), empty_out((4, 17), D.DT_INT32)
    run_op(aclnn.aclnnGtTensorGetWorkspaceSize, aclnn.aclnnGtTensor, stream, x.handle, y.handle, out.handle)
    check(out, (a > b).astype(np.int32))
    c = rng.uniform(-2, 2, (4, 17)).astype(np.float16)
    z = to_device(c, D.DT_FLOAT16)
    run_op(aclnn.aclnnInplaceGtTensorGetWorkspaceSize, aclnn.aclnnInplaceGtTensor, stream, z.handle, y.handle)
    check(z, (c.astype(np.float32) > b).astype(np.float16))


def test_gt_tensor_errors(stream: int) -> None:
    """Nulls are 161001; out dtype, promotion (undefined or complex), rank, broadcast and shape are 161002."""
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    b8 = lambda shape: to_device(np.zeros(shape, bool), D.DT_BOOL).handle  # noqa: E731
    x, y, out = f32((2, 3)), f32((3,)), b8((2, 3))
    phase1 = aclnn.aclnnGtTensorGetWorkspaceSize
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    storage = to_device(np.zeros(6, np.uint8), D.DT_UINT8)
    int4 = aclnn.aclCreateTensor([2, 3], 2, ACL_INT4, [3, 1], 0, aclnn.ACL_FORMAT_ND, [6], 1, storage.addr)
    assert status(phase1, x, y, int4) == INVALID  # out dtype
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    i32 = to_device(np.zeros((3,), np.int32), D.DT_INT32).handle
    assert status(phase1, u16, i32, out) == INVALID  # uint16 with int32: no promoted dtype
    c64 = to_device(np.zeros((2, 3), np.complex64), D.DT_COMPLEX64).handle
    assert status(phase1, c64, y, out) == INVALID  # complex64 is not in the list
    assert status(phase1, x, f32((2,)), out) == INVALID
    assert status(phase1, x, y, b8((3, 2))) == INVALID
    assert status(phase1, f32((1,) * 9), y, b8((1,) * 9)) == INVALID
    inplace = aclnn.aclnnInplaceGtTensorGetWorkspaceSize
    assert status(inplace, None, y) == NULLPTR
    assert status(inplace, x, None) == NULLPTR
    assert status(inplace, y, x) == INVALID  # broadcast shape != selfRef


# -- aclnnGtScalar -----------------------------------------------------------------------------
def _scalar_for(dtype: int) -> tuple[object, int]:
    if dtype == D.DT_BOOL:
        return False, D.DT_BOOL
    if np_dtype(dtype).kind == "u":
        return 1, dtype
    if np_dtype(dtype).kind == "i":
        return 0, D.DT_INT64
    return 0.5, D.DT_DOUBLE


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", GT_DTYPES, ids=ident)
def test_gt_scalar_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnGtScalar is bit-exact against numpy for every A2 self dtype and shape class."""
    rng = np.random.default_rng(45)
    shape = UNARY_SHAPES[case]
    a = _values(dtype, shape, rng)
    if np_dtype(dtype).kind == "f" or dtype == D.DT_BF16:
        a = (a * 0.5).astype(a.dtype)  # values on both sides of 0.5 and equal to it
    value, value_dtype = _scalar_for(dtype)
    strided = case == "strided"
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, D.DT_BOOL, strided=strided)
    run_op(aclnn.aclnnGtScalarGetWorkspaceSize, aclnn.aclnnGtScalar, stream, x.handle, scalar(value, value_dtype),
           out.handle)  # fmt: skip
    check(out, a.astype(np.float64) > value if dtype != D.DT_BOOL else a > value)


@pytest.mark.parametrize(
    ("dtype", "value", "golden_value"),
    [
        (D.DT_FLOAT16, 0.1, 0.1),  # 0.1 is not a float16: compared in double on AI CPU
        (D.DT_FLOAT, 1e-9, float(np.float32(1e-9))),  # representable within epsilon: float32
        (D.DT_FLOAT16, 1e-9, 0.0),  # within epsilon of float16(1e-9) == 0: compared against 0
        (D.DT_BF16, 0.25, 0.25),
    ],
    ids=ident,
)
def test_gt_scalar_double_keeps_self_dtype(stream: int, dtype: int, value: float, golden_value: float) -> None:
    """A double scalar keeps a floating self's dtype only when it is (nearly) exact in it."""
    values = np.array([-1.0, 0.0, 1e-10, 0.0999, 0.1, 0.10009765625, 0.2, 0.25, 0.3], np.float64)
    a = values.astype(np_dtype(dtype))
    x, out = to_device(a, dtype), empty_out(a.shape, D.DT_BOOL)
    run_op(aclnn.aclnnGtScalarGetWorkspaceSize, aclnn.aclnnGtScalar, stream, x.handle, scalar(value, D.DT_DOUBLE),
           out.handle)  # fmt: skip
    check(out, a.astype(np.float64) > golden_value)


def test_inplace_gt_scalar(stream: int) -> None:
    """aclnnInplaceGtScalar writes 1 / 0 into an int64 selfRef."""
    a = np.arange(-5, 6, dtype=np.int64)
    x = to_device(a, D.DT_INT64)
    run_op(aclnn.aclnnInplaceGtScalarGetWorkspaceSize, aclnn.aclnnInplaceGtScalar, stream, x.handle,
           scalar(1, D.DT_INT8))  # fmt: skip
    check(x, (a > 1).astype(np.int64))


def test_gt_scalar_errors(stream: int) -> None:
    """Nulls are 161001; self / scalar / out dtypes, promotion, rank and shape are 161002."""
    x, out = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT).handle, empty_out((2, 3), D.DT_BOOL).handle
    one = scalar(1, D.DT_INT32)
    phase1 = aclnn.aclnnGtScalarGetWorkspaceSize
    for args in ((None, one, out), (x, None, out), (x, one, None)):
        assert status(phase1, *args) == NULLPTR
    c64 = to_device(np.zeros((2, 3), np.complex64), D.DT_COMPLEX64).handle
    assert status(phase1, c64, one, out) == INVALID  # self dtype
    assert status(phase1, x, scalar(1, D.DT_COMPLEX64), out) == INVALID  # scalar dtype
    storage = to_device(np.zeros(6, np.uint8), D.DT_UINT8)
    int4 = aclnn.aclCreateTensor([2, 3], 2, ACL_INT4, [3, 1], 0, aclnn.ACL_FORMAT_ND, [6], 1, storage.addr)
    assert status(phase1, x, one, int4) == INVALID  # out dtype
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, u16, one, out) == INVALID  # uint16 with int32: no promoted dtype
    assert status(phase1, x, one, empty_out((3, 2), D.DT_BOOL).handle) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.float32), D.DT_FLOAT).handle
    assert status(phase1, nine, one, empty_out((1,) * 9, D.DT_BOOL).handle) == INVALID
    assert status(aclnn.aclnnInplaceGtScalarGetWorkspaceSize, None, one) == NULLPTR
    assert status(aclnn.aclnnInplaceGtScalarGetWorkspaceSize, x, None) == NULLPTR
