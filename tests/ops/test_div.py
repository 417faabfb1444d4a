"""aclnnDiv / aclnnDivs (+ Inplace) on the emulated Ascend910B (ops-math math/div).

L0 RealDiv runs on AI Core for float32 / float16 / bfloat16 / bool / int32 (bool and int32 divide
in float32) and the mixed float pairs, on AI CPU for double and complex. Integer inputs other than
int32 / int32 are divided in float32 (true division). Fidelity note: division by zero follows IEEE
(inf / nan), which is what the float kernels produce.
"""

from __future__ import annotations

import numpy as np
import pytest
from binary_helpers import (
    BINARY_SHAPES,
    COMPLEX,
    FLOATS,
    UNARY_SHAPES,
    check,
    empty_out,
    ident,
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
ACL_FORMAT_FRACTAL_NZ = 29


def _div_golden(a: np.ndarray, b: np.ndarray | float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(wide(a).astype(np.complex128 if a.dtype.kind == "c" else np.float64), b)


def _true_div_out(dtype: int) -> int:
    """The natural out dtype of a true division: float32 for integers and bool."""
    return dtype if dtype in FLOATS or dtype in COMPLEX else int(D.DT_FLOAT)


@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_div_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnDiv matches the float64 golden for every A2 dtype and shape class (bool / 0 gives inf / nan)."""
    rng = np.random.default_rng(31)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = random_values(dtype, self_shape, rng), random_values(dtype, other_shape, rng, nonzero=True)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), _true_div_out(dtype), strided=strided)
    run_op(aclnn.aclnnDivGetWorkspaceSize, aclnn.aclnnDiv, stream, x.handle, y.handle, out.handle)
    check(out, _div_golden(a, wide(b)))


@pytest.mark.parametrize(
    ("self_dtype", "other_dtype", "out_dtype"),
    [
        (D.DT_FLOAT16, D.DT_FLOAT, D.DT_FLOAT),  # mixed RealDiv, float32 result
        (D.DT_BF16, D.DT_FLOAT16, D.DT_BF16),  # mixed RealDiv, then Cast
        (D.DT_INT32, D.DT_FLOAT16, D.DT_FLOAT16),  # promote float16
        (D.DT_INT32, D.DT_INT32, D.DT_INT32),  # int32 RealDiv (float32) cast back: truncation
        (D.DT_INT64, D.DT_INT8, D.DT_DOUBLE),  # computed in float32, out double
        (D.DT_COMPLEX64, D.DT_FLOAT, D.DT_COMPLEX64),  # AI CPU
        (D.DT_DOUBLE, D.DT_INT16, D.DT_DOUBLE),  # AI CPU
    ],
    ids=ident,
)
def test_div_mixed_dtypes(stream: int, self_dtype: int, other_dtype: int, out_dtype: int) -> None:
    """Mixed dtypes follow the A2 compute-dtype rule."""
    rng = np.random.default_rng(32)
    a, b = random_values(self_dtype, (6, 70), rng), random_values(other_dtype, (70,), rng, nonzero=True)
    x, y, out = to_device(a, self_dtype), to_device(b, other_dtype), empty_out((6, 70), out_dtype)
    run_op(aclnn.aclnnDivGetWorkspaceSize, aclnn.aclnnDiv, stream, x.handle, y.handle, out.handle)
    golden = _div_golden(a, wide(b))
    check(out, np.trunc(golden) if out_dtype == D.DT_INT32 else golden)


@pytest.mark.parametrize(
    ("self_dtype", "other_dtype"),
    [(D.DT_FLOAT16, D.DT_FLOAT), (D.DT_FLOAT, D.DT_BF16), (D.DT_INT32, D.DT_INT32), (D.DT_INT8, D.DT_INT16)],
    ids=ident,
)
def test_inplace_div(stream: int, self_dtype: int, other_dtype: int) -> None:
    """aclnnInplaceDiv writes selfRef's dtype (mixed floats keep it; int32 truncates the float32 quotient)."""
    rng = np.random.default_rng(33)
    a, b = random_values(self_dtype, (5, 40), rng), random_values(other_dtype, (40,), rng, nonzero=True)
    x, y = to_device(a, self_dtype), to_device(b, other_dtype)
    run_op(aclnn.aclnnInplaceDivGetWorkspaceSize, aclnn.aclnnInplaceDiv, stream, x.handle, y.handle)
    golden = _div_golden(a, wide(b))
    check(x, golden if self_dtype in FLOATS else np.trunc(golden))


def test_div_errors(stream: int) -> None:
    """Nulls are 161001; rank, broadcast, out shape, dtype, castability and private formats are 161002."""
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    x, y, out = f32((2, 3)), f32((3,)), f32((2, 3))
    phase1 = aclnn.aclnnDivGetWorkspaceSize
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    nine = f32((1,) * 9)
    assert status(phase1, nine, nine, nine) == INVALID
    assert status(phase1, x, f32((2,)), out) == INVALID
    assert status(phase1, x, y, f32((2, 1))) == INVALID
    u32 = to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle
    assert status(phase1, u32, y, out) == INVALID
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, x, y, i32) == INVALID  # float32 -> int32
    storage = to_device(np.zeros(6, np.float32), D.DT_FLOAT)
    nz = aclnn.aclCreateTensor([2, 3], 2, D.DT_FLOAT, [3, 1], 0, ACL_FORMAT_FRACTAL_NZ, [6], 1, storage.addr)
    assert status(phase1, nz, y, out) == INVALID  # private storage format
    inplace = aclnn.aclnnInplaceDivGetWorkspaceSize
    assert status(inplace, None, y) == NULLPTR
    assert status(inplace, x, None) == NULLPTR
    assert status(inplace, y, x) == INVALID  # broadcast shape != selfRef


# -- aclnnDivs ---------------------------------------------------------------------------------
def _scalar_for(dtype: int) -> tuple[object, int]:
    if dtype == D.DT_BOOL:
        return True, D.DT_BOOL
    if dtype in (D.DT_INT32,):
        return 3, D.DT_INT32
    if dtype in FLOATS or dtype in COMPLEX:
        return 1.75, D.DT_FLOAT
    return 3, D.DT_INT64


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=ident)
def test_divs_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    """aclnnDivs matches the golden for every A2 dtype and shape class."""
    rng = np.random.default_rng(34)
    shape = UNARY_SHAPES[case]
    a = random_values(dtype, shape, rng)
    value, value_dtype = _scalar_for(dtype)
    strided = case == "strided"
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, _true_div_out(dtype), strided=strided)
    run_op(aclnn.aclnnDivsGetWorkspaceSize, aclnn.aclnnDivs, stream, x.handle, scalar(value, value_dtype), out.handle)
    check(out, _div_golden(a, float(value)))


@pytest.mark.parametrize(
    ("dtype", "value", "value_dtype", "out_dtype"),
    [
        (D.DT_FLOAT16, 0.3, D.DT_DOUBLE, D.DT_FLOAT16),  # not mixed: the scalar becomes float16
        (D.DT_BF16, 0.3, D.DT_DOUBLE, D.DT_BF16),  # mixed: the scalar as float32, bfloat16 result
        (D.DT_FLOAT16, 3.0, D.DT_BF16, D.DT_FLOAT),  # mixed: float16 result, cast to float32
        (D.DT_INT32, 4, D.DT_INT32, D.DT_INT32),  # int32 / int32 in float32, truncated into int32
        (D.DT_INT8, -2, D.DT_INT64, D.DT_INT8),  # float32 division, truncated into int8
        (D.DT_UINT8, 2.5, D.DT_FLOAT, D.DT_FLOAT),
        (D.DT_FLOAT, 2.0, D.DT_COMPLEX64, D.DT_COMPLEX64),  # complex scalar promotes
    ],
    ids=ident,
)
def test_divs_compute_dtype(stream: int, dtype: int, value: float, value_dtype: int, out_dtype: int) -> None:
    """The A2 Divs compute dtype and mixed pairs give the right quotient."""
    rng = np.random.default_rng(35)
    a = random_values(dtype, (257,), rng)
    x, out = to_device(a, dtype), empty_out((257,), out_dtype)
    run_op(aclnn.aclnnDivsGetWorkspaceSize, aclnn.aclnnDivs, stream, x.handle, scalar(value, value_dtype), out.handle)
    golden = _div_golden(a, value)
    check(out, np.trunc(golden) if out_dtype in (D.DT_INT32, D.DT_INT8) else golden)


def test_inplace_divs(stream: int) -> None:
    """aclnnInplaceDivs divides selfRef in place; an empty selfRef launches nothing."""
    a = np.linspace(-8, 8, 99, dtype=np.float32)
    x = to_device(a, D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceDivsGetWorkspaceSize, aclnn.aclnnInplaceDivs, stream, x.handle, scalar(4, D.DT_INT32))
    check(x, wide(a) / 4)
    empty = to_device(np.zeros((0, 2), np.float32), D.DT_FLOAT)
    ws, executor, ret = aclnn.aclnnInplaceDivsGetWorkspaceSize(empty.handle, scalar(2, D.DT_INT32))
    assert (ws, ret) == (0, 0) and not executor.launchers


def test_divs_errors(stream: int) -> None:
    """Nulls are 161001; formats, scalar / self dtypes, rank, shape and self -> out castability are 161002."""
    x = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT).handle
    two = scalar(2, D.DT_INT32)
    phase1 = aclnn.aclnnDivsGetWorkspaceSize
    for args in ((None, two, x), (x, None, x), (x, two, None)):
        assert status(phase1, *args) == NULLPTR
    assert status(phase1, x, scalar(2, D.DT_UINT32), x) == INVALID  # the scalar's dtype is checked too
    u16 = to_device(np.zeros((2, 3), np.uint16), D.DT_UINT16).handle
    assert status(phase1, u16, two, x) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.float32), D.DT_FLOAT).handle
    assert status(phase1, nine, two, nine) == INVALID
    assert status(phase1, x, two, to_device(np.zeros((3,), np.float32), D.DT_FLOAT).handle) == INVALID
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, x, two, i32) == INVALID  # float32 self -> int32 out
    storage = to_device(np.zeros(6, np.float32), D.DT_FLOAT)
    nz = aclnn.aclCreateTensor([2, 3], 2, D.DT_FLOAT, [3, 1], 0, ACL_FORMAT_FRACTAL_NZ, [6], 1, storage.addr)
    assert status(phase1, x, two, nz) == INVALID
    assert status(aclnn.aclnnInplaceDivsGetWorkspaceSize, None, two) == NULLPTR
    assert status(aclnn.aclnnInplaceDivsGetWorkspaceSize, x, None) == NULLPTR
