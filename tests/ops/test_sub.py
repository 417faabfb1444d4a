"""aclnnSub / aclnnSubs (+ Inplace) and aclnnAdds' sibling paths on the emulated Ascend910B.

Emulates ops-math math/sub: L0 Sub on AI Core for float32 / float16 /
bfloat16 / int64 / int32 / int8 / uint8 / bool / complex64, on AI CPU for int16 / double /
complex128. Fidelity notes: a bool Sub is xor ("a - b != 0"); alpha != 1 raises a floating compute
dtype to float32 and then uses Axpy(-alpha); int32 with alpha != 1 runs Mul + Sub as the real A2
code does.
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


def _sub_golden(a: np.ndarray, b: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    if a.dtype == np.bool_:
        return np.logical_xor(a, b)
    if a.dtype.kind in "iu":
        return wide(a) - int(alpha) * wide(b)
    return wide(a) - alpha * wide(b)


@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_sub_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnSub matches the float64 golden for every A2 dtype and shape class (alpha = 1)."""
    rng = np.random.default_rng(1)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = random_values(dtype, self_shape, rng), random_values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), dtype, strided=strided)
    alpha = scalar(1, D.DT_INT64)
    run_op(aclnn.aclnnSubGetWorkspaceSize, aclnn.aclnnSub, stream, x.handle, y.handle, alpha, out.handle)
    check(out, _sub_golden(a, b))


@pytest.mark.parametrize(
    ("dtype", "alpha", "alpha_dtype"),
    [
        (D.DT_FLOAT, 2.5, D.DT_FLOAT),  # Axpy(-alpha)
        (D.DT_FLOAT16, -1.5, D.DT_FLOAT),  # raised to float32, Axpy
        (D.DT_BF16, 0.5, D.DT_DOUBLE),  # raised to float32, Axpy
        (D.DT_INT32, 3, D.DT_INT64),  # Mul + Sub
        (D.DT_INT64, -2, D.DT_INT32),  # Mul + Sub
        (D.DT_DOUBLE, 0.25, D.DT_DOUBLE),  # AI CPU Mul + Sub
        (D.DT_COMPLEX64, 2.0, D.DT_FLOAT),
        (D.DT_INT16, 2, D.DT_INT8),  # AI CPU Mul + Sub
    ],
    ids=ident,
)
def test_sub_alpha(stream: int, dtype: int, alpha: float, alpha_dtype: int) -> None:
    """alpha != 1 goes through Axpy or Mul + Sub and still matches self - alpha * other."""
    rng = np.random.default_rng(2)
    a, b = random_values(dtype, (3, 257), rng), random_values(dtype, (257,), rng)
    x, y, out = to_device(a, dtype), to_device(b, dtype), empty_out((3, 257), dtype)
    run_op(aclnn.aclnnSubGetWorkspaceSize, aclnn.aclnnSub, stream, x.handle, y.handle, scalar(alpha, alpha_dtype),
           out.handle)  # fmt: skip
    check(out, _sub_golden(a, b, alpha))


def test_sub_mixed_dtypes_promote(stream: int) -> None:
    """float16 - float32 promotes to float32; an int32 out of a float result is refused."""
    rng = np.random.default_rng(3)
    a, b = random_values(D.DT_FLOAT16, (40,), rng), random_values(D.DT_FLOAT, (40,), rng)
    x, y, out = to_device(a, D.DT_FLOAT16), to_device(b, D.DT_FLOAT), empty_out((40,), D.DT_FLOAT)
    one = scalar(1, D.DT_FLOAT)
    run_op(aclnn.aclnnSubGetWorkspaceSize, aclnn.aclnnSub, stream, x.handle, y.handle, one, out.handle)
    check(out, wide(a) - wide(b))
    bad = empty_out((40,), D.DT_INT32)
    assert status(aclnn.aclnnSubGetWorkspaceSize, x.handle, y.handle, one, bad.handle) == INVALID


def test_inplace_sub(stream: int) -> None:
    """aclnnInplaceSub writes selfRef (a strided view) with a broadcast other."""
    rng = np.random.default_rng(4)
    a, b = random_values(D.DT_FLOAT, (4, 30), rng), random_values(D.DT_FLOAT, (30,), rng)
    x, y = to_device(a, D.DT_FLOAT, strided=True), to_device(b, D.DT_FLOAT)
    alpha = scalar(2.0, D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceSubGetWorkspaceSize, aclnn.aclnnInplaceSub, stream, x.handle, y.handle, alpha)
    check(x, wide(a) - 2.0 * wide(b))


def test_sub_into_strided_out(stream: int) -> None:
    """A non-contiguous out gets the result through ViewCopy and its gaps stay untouched."""
    rng = np.random.default_rng(4)
    a, b = random_values(D.DT_FLOAT, (4, 30), rng), random_values(D.DT_FLOAT, (4, 30), rng)
    x, y, out = to_device(a, D.DT_FLOAT), to_device(b, D.DT_FLOAT), empty_out((4, 30), D.DT_FLOAT, strided=True)
    run_op(aclnn.aclnnSubGetWorkspaceSize, aclnn.aclnnSub, stream, x.handle, y.handle, scalar(1, D.DT_INT64),
           out.handle)  # fmt: skip
    check(out, wide(a) - wide(b))


def test_sub_errors(stream: int) -> None:
    """Every null argument is 161001; dtype, promotion, alpha, shape and rank problems are 161002."""
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    x, y, out, one = f32((2, 3)), f32((3,)), f32((2, 3)), scalar(1, D.DT_FLOAT)
    phase1 = aclnn.aclnnSubGetWorkspaceSize
    for args in ((None, y, one, out), (x, None, one, out), (x, y, None, out), (x, y, one, None)):
        assert status(phase1, *args) == NULLPTR
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, u16, y, one, out) == INVALID  # dtype not supported
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, i32, i32, scalar(1.5, D.DT_FLOAT), i32) == INVALID  # float alpha -> int promote
    b = to_device(np.zeros((2, 3), bool), D.DT_BOOL).handle
    assert status(phase1, b, b, scalar(1.0, D.DT_FLOAT), b) == INVALID  # bool promote needs integral alpha
    assert status(phase1, x, y, one, i32) == INVALID  # float32 -> int32 out
    assert status(phase1, x, f32((4,)), one, out) == INVALID  # not broadcastable
    assert status(phase1, x, y, one, f32((3, 2))) == INVALID  # out shape
    nine = f32((1,) * 9)
    assert status(phase1, nine, nine, one, nine) == INVALID  # rank 9
    inplace = aclnn.aclnnInplaceSubGetWorkspaceSize
    assert status(inplace, None, y, one) == NULLPTR
    assert status(inplace, x, None, one) == NULLPTR
    assert status(inplace, x, y, None) == NULLPTR
    assert status(inplace, f32((3,)), x, one) == INVALID  # broadcast shape != selfRef


def test_sub_empty_launches_nothing(stream: int) -> None:
    """An empty other returns workspace 0 and leaves out untouched."""
    x = to_device(np.ones((0, 4), np.float32), D.DT_FLOAT)
    out = empty_out((0, 4), D.DT_FLOAT)
    ws, executor, ret = aclnn.aclnnSubGetWorkspaceSize(x.handle, x.handle, scalar(1, D.DT_INT64), out.handle)
    assert (ws, ret) == (0, 0)
    assert executor is not None and not executor.launchers


# -- aclnnSubs ---------------------------------------------------------------------------------
def _scalar_for(dtype: int) -> tuple[float, int]:
    if dtype == D.DT_BOOL:
        return True, D.DT_BOOL
    if np_dtype(dtype).kind in "iu":
        return 3, D.DT_INT64
    return 1.25, D.DT_FLOAT


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_subs_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnSubs (tensor - scalar) keeps self's dtype for every A2 dtype and shape class."""
    rng = np.random.default_rng(5)
    shape = UNARY_SHAPES[case]
    strided = case == "strided"
    a = random_values(dtype, shape, rng)
    value, value_dtype = _scalar_for(dtype)
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    run_op(aclnn.aclnnSubsGetWorkspaceSize, aclnn.aclnnSubs, stream, x.handle, scalar(value, value_dtype),
           scalar(1, D.DT_INT64), out.handle)  # fmt: skip
    check(out, _sub_golden(a, np.full(shape, value, dtype=a.dtype)))


@pytest.mark.parametrize(
    ("dtype", "value", "value_dtype", "alpha", "out_dtype"),
    [
        (D.DT_FLOAT16, 0.5, D.DT_DOUBLE, 2.0, D.DT_FLOAT16),  # Axpy in float16
        (D.DT_BF16, 0.5, D.DT_FLOAT, 2.0, D.DT_BF16),  # Mul + Sub in bfloat16
        (D.DT_INT32, 2, D.DT_INT32, 3, D.DT_INT32),  # Mul + Sub in int32
        (D.DT_INT32, 0.5, D.DT_FLOAT, 1, D.DT_FLOAT),  # float scalar promotes an int tensor
        (D.DT_INT8, 1.5, D.DT_DOUBLE, 1, D.DT_FLOAT),  # double scalar + float32 out -> float32
    ],
    ids=ident,
)
def test_subs_promotion_and_alpha(stream: int, dtype: int, value: float, value_dtype: int, alpha: float,
                                  out_dtype: int) -> None:  # fmt: skip
    """The A2 tensor-scalar promotion and the alpha paths of aclnnSubs."""
    rng = np.random.default_rng(6)
    a = random_values(dtype, (513,), rng)
    x, out = to_device(a, dtype), empty_out((513,), out_dtype)
    run_op(aclnn.aclnnSubsGetWorkspaceSize, aclnn.aclnnSubs, stream, x.handle, scalar(value, value_dtype),
           scalar(alpha, D.DT_FLOAT if isinstance(alpha, float) else D.DT_INT64), out.handle)  # fmt: skip
    check(out, wide(a) - alpha * value)


def test_inplace_subs(stream: int) -> None:
    """aclnnInplaceSubs updates a strided selfRef in place."""
    a = np.arange(60, dtype=np.int32).reshape(3, 20)
    x = to_device(a, D.DT_INT32, strided=True)
    run_op(aclnn.aclnnInplaceSubsGetWorkspaceSize, aclnn.aclnnInplaceSubs, stream, x.handle, scalar(7, D.DT_INT32),
           scalar(2, D.DT_INT32))  # fmt: skip
    assert np.array_equal(x.numpy(), a - 14)


def test_subs_errors(stream: int) -> None:
    """Nulls are 161001; unsupported self, float -> int out, bad alpha, shape and rank are 161002."""
    x = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    other, alpha = scalar(1, D.DT_INT32), scalar(1, D.DT_INT64)
    phase1 = aclnn.aclnnSubsGetWorkspaceSize
    for args in ((None, other, alpha, x), (x, None, alpha, x), (x, other, None, x), (x, other, alpha, None)):
        assert status(phase1, *args) == NULLPTR
    # the real unit test's case: int32 self, float scalar, int64 alpha, int32 out -> promote float32 cannot go to int32
    assert status(phase1, x, scalar(1.5, D.DT_FLOAT), alpha, x) == INVALID
    u32 = to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle
    assert status(phase1, u32, other, alpha, u32) == INVALID
    assert status(phase1, x, other, scalar(1.5, D.DT_FLOAT), x) == INVALID
    b = to_device(np.zeros((2, 3), bool), D.DT_BOOL).handle
    assert status(phase1, b, scalar(2, D.DT_UINT16), alpha, b) == INVALID  # bool with uint16: no promoted dtype
    other_shape = to_device(np.zeros((3, 2), np.int32), D.DT_INT32).handle
    assert status(phase1, x, other, alpha, other_shape) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.int32), D.DT_INT32).handle
    assert status(phase1, nine, other, alpha, nine) == INVALID
    assert status(aclnn.aclnnInplaceSubsGetWorkspaceSize, None, other, alpha) == NULLPTR
    assert status(aclnn.aclnnInplaceSubsGetWorkspaceSize, x, other, None) == NULLPTR
