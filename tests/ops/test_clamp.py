"""aclnnClamp / aclnnClampMin / aclnnClampMax / aclnnInplaceClampMax on the emulated Ascend910B.

ClipByValueV2 is exact (max and min select an input element), so every dtype is compared bit-exactly
against numpy's clip written as min(max(x, lo), hi) — which keeps NaN and gives hi everywhere when
lo > hi. Covers the documented examples, every A2 dtype (AI Core and AI CPU) across the shape
classes, bounds converted to out's dtype, a missing bound, and each status case of the real L2.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import (
    UNARY_SHAPES,
    check,
    empty_out,
    ident,
    random_values,
    run_op,
    scalar,
    status,
    to_device,
)

from emulator import acl, aclnn
from emulator.kernels.math.clamp import CLAMP_DTYPES
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
EXAMPLE = np.array([0, 1, 0, 3, 0, 5, 0, 7], np.float32).reshape(4, 2)


def _clip(x: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.minimum(np.maximum(x, x.dtype.type(lo)), x.dtype.type(hi))


def test_documented_examples(stream: int) -> None:
    """Clamp(2, 5) and ClampMin(2) of the float32 example; ClampMax(4) and InplaceClampMax(4) of int32 0..7."""
    x, out = to_device(EXAMPLE, D.DT_FLOAT), empty_out((4, 2), D.DT_FLOAT)
    lo, hi = scalar(2.0, D.DT_FLOAT), scalar(5.0, D.DT_FLOAT)
    run_op(aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, stream, x.handle, lo, hi, out.handle)
    check(out, np.clip(EXAMPLE, 2, 5))
    out = empty_out((4, 2), D.DT_FLOAT)
    run_op(aclnn.aclnnClampMinGetWorkspaceSize, aclnn.aclnnClampMin, stream, x.handle, lo, out.handle)
    check(out, np.maximum(EXAMPLE, 2))
    ints = np.arange(8, dtype=np.int32).reshape(4, 2)
    y, out = to_device(ints, D.DT_INT32), empty_out((4, 2), D.DT_INT32)
    four = scalar(4, D.DT_INT32)
    run_op(aclnn.aclnnClampMaxGetWorkspaceSize, aclnn.aclnnClampMax, stream, y.handle, four, out.handle)
    check(out, np.minimum(ints, 4))
    run_op(aclnn.aclnnInplaceClampMaxGetWorkspaceSize, aclnn.aclnnInplaceClampMax, stream, y.handle, four)
    check(y, np.minimum(ints, 4))


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", (*CLAMP_DTYPES, D.DT_BF16), ids=ident)
def test_clamp_dtypes_and_shapes(stream: int, dtype: int, case: str) -> None:
    rng = np.random.default_rng(81)
    shape = UNARY_SHAPES[case]
    strided = case == "strided"
    a = random_values(dtype, shape, rng)
    lo, hi = (1, 4) if dtype == D.DT_UINT8 else (-2, 3)
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    run_op(aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, stream, x.handle, scalar(lo, D.DT_INT64),
           scalar(hi, D.DT_DOUBLE), out.handle)  # fmt: skip
    check(out, _clip(a, lo, hi))


@pytest.mark.parametrize("dtype", (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT8, D.DT_INT64, D.DT_DOUBLE), ids=ident)
def test_one_sided_bounds(stream: int, dtype: int) -> None:
    """A missing bound is the dtype's extreme: ClampMin leaves the top alone, ClampMax the bottom."""
    rng = np.random.default_rng(82)
    a = random_values(dtype, (5, 37), rng)
    x = to_device(a, dtype)
    out = empty_out(a.shape, dtype)
    run_op(
        aclnn.aclnnClampMinGetWorkspaceSize, aclnn.aclnnClampMin, stream, x.handle, scalar(1, D.DT_INT32), out.handle
    )
    check(out, np.maximum(a, a.dtype.type(1)))
    out = empty_out(a.shape, dtype)
    run_op(
        aclnn.aclnnClampMaxGetWorkspaceSize, aclnn.aclnnClampMax, stream, x.handle, scalar(-1, D.DT_INT32), out.handle
    )
    check(out, np.minimum(a, a.dtype.type(-1)))


def test_clamp_casts_to_out_and_converts_bounds(stream: int) -> None:
    """int32 self into a float32 out computes in float32; a float bound into an int out is truncated."""
    a = np.array([-7, -1, 0, 2, 9], np.int32)
    x, out = to_device(a, D.DT_INT32), empty_out((5,), D.DT_FLOAT)
    run_op(aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, stream, x.handle, scalar(-1.5, D.DT_FLOAT),
           scalar(2.5, D.DT_FLOAT), out.handle)  # fmt: skip
    check(out, np.clip(a.astype(np.float32), -1.5, 2.5))
    out = empty_out((5,), D.DT_INT32)
    run_op(aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, stream, x.handle, scalar(-1.5, D.DT_FLOAT),
           scalar(2.9, D.DT_DOUBLE), out.handle)  # fmt: skip
    check(out, np.clip(a, -1, 2))


def test_clamp_nan_and_crossed_bounds(stream: int) -> None:
    """NaN stays NaN; lo > hi gives hi everywhere (min of the max)."""
    a = np.array([np.nan, -3.0, 0.5, 8.0], np.float32)
    x, out = to_device(a, D.DT_FLOAT), empty_out((4,), D.DT_FLOAT)
    run_op(aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, stream, x.handle, scalar(3.0, D.DT_FLOAT),
           scalar(1.0, D.DT_FLOAT), out.handle)  # fmt: skip
    check(out, np.array([np.nan, 1.0, 1.0, 1.0], np.float32))


def test_clamp_errors(stream: int) -> None:
    f32 = lambda shape: to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle  # noqa: E731
    x, out, one = f32((2, 3)), f32((2, 3)), scalar(1.0, D.DT_FLOAT)
    phase1 = aclnn.aclnnClampGetWorkspaceSize
    assert status(phase1, None, one, one, out) == NULLPTR
    assert status(phase1, x, one, one, None) == NULLPTR
    assert status(phase1, x, None, None, out) == NULLPTR
    assert "clamp: At least one of 'min' or 'max' must not be None." in acl.get_recent_err_msg()
    assert status(phase1, x, None, one, out) == 0
    b8 = to_device(np.zeros((2, 3), bool), D.DT_BOOL).handle
    assert status(phase1, b8, one, one, out) == INVALID
    assert "self dtype DT_BOOL" in acl.get_recent_err_msg()
    assert status(phase1, x, one, one, b8) == INVALID
    assert status(phase1, x, one, one, f32((3, 2))) == INVALID
    assert status(phase1, f32((1,) * 9), one, one, f32((1,) * 9)) == INVALID
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, x, one, one, i32) == INVALID  # float32 can't be cast to int32
    assert "can't be cast" in acl.get_recent_err_msg()
    assert status(phase1, f32((0, 3)), one, one, to_device(np.zeros((0, 3), np.int32), D.DT_INT32).handle) == 0
    # the one-bound forms check their bound first, before self
    assert status(aclnn.aclnnClampMinGetWorkspaceSize, None, None, out) == NULLPTR
    assert "clipValueMin" in acl.get_recent_err_msg()
    assert status(aclnn.aclnnClampMaxGetWorkspaceSize, None, None, out) == NULLPTR
    assert "clipValueMax" in acl.get_recent_err_msg()
    assert status(aclnn.aclnnInplaceClampMaxGetWorkspaceSize, None, None) == NULLPTR
    assert "clipValueMax" in acl.get_recent_err_msg()
    assert status(aclnn.aclnnInplaceClampMaxGetWorkspaceSize, None, one) == NULLPTR
    assert "self" in acl.get_recent_err_msg()


def test_regbase_scalar_clamp_promotes_with_the_bounds() -> None:
    """On the Ascend 950 the compute dtype is self's combined with the bounds' (ClampPromoteType), not out's:
    a float bound on an int32 self into an int32 out is refused (float32 cannot be cast to int32), which A2
    accepts; float16 self into a float32 out clamps in float16, so the bound 0.1 arrives rounded to float16."""
    from emulator import npu, process
    from emulator.config import Settings

    for soc, expected in (("Ascend910B2", 0), ("Ascend950PR_9599", INVALID)):
        with process.fresh(Settings(soc=soc)), npu.Session() as session:
            x = session.tensor(np.zeros(3, np.int32), D.DT_INT32).handle
            lo = session.scalar(0.5, D.DT_FLOAT).handle
            assert status(aclnn.aclnnClampMinGetWorkspaceSize, x, lo, x) == expected, soc
            if expected:
                assert "result dtype DT_FLOAT can't be cast to the desired output type DT_INT32" in (
                    acl.get_recent_err_msg()
                )
            half = session.tensor(np.zeros(2, np.float16), D.DT_FLOAT16)
            out = session.tensor(np.zeros(2, np.float32), D.DT_FLOAT)
            ws, executor, ret = aclnn.aclnnClampMinGetWorkspaceSize(half.handle, session.scalar(0.1, D.DT_FLOAT).handle,
                                                                    out.handle)  # fmt: skip
            assert ret == 0
            buffer = session.malloc(ws) if ws else None
            assert aclnn.aclnnClampMin(buffer.addr if buffer else 0, ws, executor, session.stream) == 0
            want = np.float32(np.float16(0.1)) if expected else np.float32(0.1)
            assert np.array_equal(out.numpy(), np.full(2, want, np.float32)), soc
