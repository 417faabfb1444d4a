"""aclnnAdds / aclnnInplaceAdds on the emulated Ascend910B (ops-math math/add).

The scalar becomes a 0-d host tensor of the A2 tensor-scalar promoted dtype; alpha == 1 runs Add,
alpha != 1 Axpy (float32 / int32 / float16) or Mul + Add. Fidelity note: the bool quirk of the real
op (bool self, other, alpha all true with a non-bool out: cast to bool and back) is reproduced.
"""

from __future__ import annotations

import numpy as np
import pytest
from binary_helpers import (
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
NULLPTR, INVALID = 161001, 161002


def _scalar_for(dtype: int) -> tuple[object, int]:
    if dtype == D.DT_BOOL:
        return False, D.DT_BOOL
    if np_dtype(dtype).kind in "iu":
        return 3, D.DT_INT32
    return -1.75, D.DT_FLOAT


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_adds_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnAdds (alpha = 1) matches the golden for every A2 dtype and shape class."""
    rng = np.random.default_rng(11)
    shape = UNARY_SHAPES[case]
    a = random_values(dtype, shape, rng)
    value, value_dtype = _scalar_for(dtype)
    strided = case == "strided"
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    run_op(aclnn.aclnnAddsGetWorkspaceSize, aclnn.aclnnAdds, stream, x.handle, scalar(value, value_dtype),
           scalar(1, D.DT_INT64), out.handle)  # fmt: skip
    golden = np.logical_or(a, value) if dtype == D.DT_BOOL else wide(a) + np.asarray(value).astype(a.dtype)
    check(out, golden)


@pytest.mark.parametrize(
    ("dtype", "value", "value_dtype", "alpha", "alpha_dtype"),
    [
        (D.DT_FLOAT, 0.5, D.DT_FLOAT, 3.0, D.DT_FLOAT),  # Axpy float32
        (D.DT_FLOAT16, 0.5, D.DT_FLOAT, -2.0, D.DT_FLOAT),  # Axpy float16
        (D.DT_INT32, 4, D.DT_INT32, 3, D.DT_INT64),  # Axpy int32
        (D.DT_BF16, 0.5, D.DT_FLOAT, 2.0, D.DT_FLOAT),  # Mul + Add in bfloat16
        (D.DT_INT64, 4, D.DT_INT64, -3, D.DT_INT64),  # Mul + Add in int64
        (D.DT_DOUBLE, 0.1, D.DT_DOUBLE, 0.5, D.DT_DOUBLE),  # AI CPU
    ],
    ids=ident,
)
def test_adds_alpha(stream: int, dtype: int, value: float, value_dtype: int, alpha: float, alpha_dtype: int) -> None:
    """alpha != 1 (Axpy or Mul + Add) gives self + alpha * other."""
    rng = np.random.default_rng(12)
    a = random_values(dtype, (2, 300), rng)
    x, out = to_device(a, dtype), empty_out((2, 300), dtype)
    run_op(aclnn.aclnnAddsGetWorkspaceSize, aclnn.aclnnAdds, stream, x.handle, scalar(value, value_dtype),
           scalar(alpha, alpha_dtype), out.handle)  # fmt: skip
    check(out, wide(a) + alpha * value)


@pytest.mark.parametrize(
    ("dtype", "value", "value_dtype", "out_dtype"),
    [
        (D.DT_INT32, 0.5, D.DT_FLOAT, D.DT_FLOAT),  # float scalar promotes an int tensor
        (D.DT_INT8, 0.25, D.DT_DOUBLE, D.DT_FLOAT),  # double scalar with a float32 out -> float32
        (D.DT_FLOAT16, 1e-3, D.DT_DOUBLE, D.DT_FLOAT16),  # floating tensor keeps its dtype
        (D.DT_UINT8, 2, D.DT_INT64, D.DT_UINT8),  # integral scalar keeps the tensor's dtype
        (D.DT_BOOL, 2, D.DT_INT32, D.DT_INT32),  # bool tensor promotes with the scalar
    ],
    ids=ident,
)
def test_adds_promotion(stream: int, dtype: int, value: float, value_dtype: int, out_dtype: int) -> None:
    """The A2 tensor-scalar promotion rule decides the compute dtype."""
    rng = np.random.default_rng(13)
    a = random_values(dtype, (129,), rng)
    x, out = to_device(a, dtype), empty_out((129,), out_dtype)
    run_op(aclnn.aclnnAddsGetWorkspaceSize, aclnn.aclnnAdds, stream, x.handle, scalar(value, value_dtype),
           scalar(1, D.DT_INT64), out.handle)  # fmt: skip
    check(out, wide(a) + value)


def test_adds_bool_quirk(stream: int) -> None:
    """bool + True (alpha True) into an int32 out gives 1 everywhere, never 2."""
    a = np.array([True, False, True, True])
    x, out = to_device(a, D.DT_BOOL), empty_out((4,), D.DT_INT32)
    true = scalar(True, D.DT_BOOL)
    run_op(aclnn.aclnnAddsGetWorkspaceSize, aclnn.aclnnAdds, stream, x.handle, true, true, out.handle)
    check(out, np.ones(4, np.int32))


def test_inplace_adds(stream: int) -> None:
    """aclnnInplaceAdds updates selfRef; an empty selfRef launches nothing."""
    a = np.linspace(-3, 3, 77, dtype=np.float32)
    x = to_device(a, D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceAddsGetWorkspaceSize, aclnn.aclnnInplaceAdds, stream, x.handle, scalar(1.5, D.DT_FLOAT),
           scalar(2.0, D.DT_FLOAT))  # fmt: skip
    check(x, wide(a) + 3.0)
    empty = to_device(np.zeros((0,), np.float32), D.DT_FLOAT)
    ws, executor, ret = aclnn.aclnnInplaceAddsGetWorkspaceSize(empty.handle, scalar(1, D.DT_INT64),
                                                               scalar(1, D.DT_INT64))  # fmt: skip
    assert (ws, ret) == (0, 0) and not executor.launchers


def test_adds_errors(stream: int) -> None:
    """Nulls are 161001; unsupported self, castability, alpha, shape and rank problems are 161002."""
    x = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    other, alpha = scalar(1, D.DT_INT32), scalar(1, D.DT_INT64)
    phase1 = aclnn.aclnnAddsGetWorkspaceSize
    for args in ((None, other, alpha, x), (x, None, alpha, x), (x, other, None, x), (x, other, alpha, None)):
        assert status(phase1, *args) == NULLPTR
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, u16, other, alpha, u16) == INVALID  # self dtype
    assert status(phase1, x, scalar(0.5, D.DT_FLOAT), alpha, x) == INVALID  # float32 result into int32 out
    assert status(phase1, x, other, scalar(0.5, D.DT_FLOAT), x) == INVALID  # float alpha, int32 promote
    b = to_device(np.zeros((2, 3), bool), D.DT_BOOL).handle
    assert status(phase1, b, scalar(True, D.DT_BOOL), scalar(1.0, D.DT_FLOAT), b) == INVALID  # bool promote
    assert status(phase1, b, scalar(2, D.DT_UINT16), alpha, b) == INVALID  # bool with uint16: no promoted dtype
    assert status(phase1, x, other, alpha, to_device(np.zeros((6,), np.int32), D.DT_INT32).handle) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.int32), D.DT_INT32).handle
    assert status(phase1, nine, other, alpha, nine) == INVALID
    inplace = aclnn.aclnnInplaceAddsGetWorkspaceSize
    for args in ((None, other, alpha), (x, None, alpha), (x, other, None)):
        assert status(inplace, *args) == NULLPTR
