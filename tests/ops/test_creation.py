"""aclnnArange, aclnnLinspace, aclnnInplaceOne and aclnnSearchSorteds on the emulated Ascend910B.

Arange / Linspace float results meet the precision standard against float64 numpy (np.arange /
np.linspace with the same step rule); integer results and InplaceOne are bit-exact, as is SearchSorteds
(an index). Covers each documented example, every A2 output dtype, views, and each status case of the
real L2 code — including Linspace's null check, which the real op reports as 561103.
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
)

from emulator import acl, aclnn
from emulator.kernels.math.arange import ARANGE_OUTPUTS
from emulator.kernels.math.inplace_one import ONE_DTYPES
from emulator.kernels.math.linspace import LINSPACE_DTYPES, LINSPACE_EXTRA
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103


# -- aclnnArange -------------------------------------------------------------------------------------------
def _arange(stream: int, start: float, end: float, step: float, out: object, dtype: int = D.DT_FLOAT) -> None:
    run_op(aclnn.aclnnArangeGetWorkspaceSize, aclnn.aclnnArange, stream, scalar(start, dtype), scalar(end, dtype),
           scalar(step, dtype), out)  # fmt: skip


def test_arange_documented_example(stream: int) -> None:
    """start 1, end 5, step 1 (float32) into a [4] float32 out."""
    out = empty_out((4,), D.DT_FLOAT)
    _arange(stream, 1.0, 5.0, 1.0, out.handle)
    check(out, np.array([1, 2, 3, 4], np.float32))


@pytest.mark.parametrize("dtype", (*ARANGE_OUTPUTS, D.DT_BF16), ids=ident)
@pytest.mark.parametrize(("start", "end", "step"), [(0, 10, 3), (-2.5, 3.5, 0.5), (7, -8, -2), (0, 100_000, 1)])
def test_arange_dtypes(stream: int, dtype: int, start: float, end: float, step: float) -> None:
    """out[i] = start + i * step for each element of out, in out's dtype (ints: the bounds truncated)."""
    if np_dtype(dtype).kind in "iu":
        start, end, step = int(start), int(end), int(step) or 1
    golden = np.arange(start, end, step, dtype=np.float64)
    out = empty_out(golden.shape, dtype)
    _arange(stream, start, end, step, out.handle, D.DT_DOUBLE)
    with np.errstate(over="ignore"):  # 100000 is inf in float16, on the card too
        check(out, golden.astype(np_dtype(dtype)))


def test_arange_strided_out_and_mixed_scalars(stream: int) -> None:
    """An int64 out through a strided view, with int32 start, float step and int64 end."""
    out = empty_out((6,), D.DT_INT64, strided=True)
    run_op(aclnn.aclnnArangeGetWorkspaceSize, aclnn.aclnnArange, stream, scalar(3, D.DT_INT32), scalar(15, D.DT_INT64),
           scalar(2.0, D.DT_FLOAT), out.handle)  # fmt: skip
    check(out, np.arange(3, 15, 2, dtype=np.int64))


def test_arange_errors(stream: int) -> None:
    """Nulls 161001; scalar and out dtypes, a zero step and a step of the wrong sign 161002."""
    phase1 = aclnn.aclnnArangeGetWorkspaceSize
    one, five, out = scalar(1.0, D.DT_FLOAT), scalar(5.0, D.DT_FLOAT), empty_out((4,), D.DT_FLOAT).handle
    for args in ((None, five, one, out), (one, None, one, out), (one, five, None, out), (one, five, one, None)):
        assert status(phase1, *args) == NULLPTR
    c64 = scalar(1.0, D.DT_COMPLEX64)
    assert status(phase1, c64, five, one, out) == INVALID
    assert "start dtype DT_COMPLEX64" in acl.get_recent_err_msg()
    assert status(phase1, one, five, one, empty_out((4,), D.DT_INT8).handle) == INVALID
    assert "out dtype DT_INT8" in acl.get_recent_err_msg()
    assert status(phase1, one, five, scalar(0.0, D.DT_FLOAT), out) == INVALID
    assert "step must be nonzero" in acl.get_recent_err_msg()
    assert status(phase1, five, one, one, out) == INVALID
    assert "inconsistent with step sign" in acl.get_recent_err_msg()
    # read in out's precision: a step of 0.4 is 0 for an int32 out
    assert status(phase1, one, five, scalar(0.4, D.DT_FLOAT), empty_out((4,), D.DT_INT32).handle) == INVALID
    assert status(phase1, one, one, one, empty_out((0,), D.DT_FLOAT).handle) == 0  # start == end: empty


# -- aclnnLinspace -----------------------------------------------------------------------------------------
def _linspace(stream: int, start: float, end: float, steps: int, out: object, dtype: int = D.DT_FLOAT) -> None:
    run_op(aclnn.aclnnLinspaceGetWorkspaceSize, aclnn.aclnnLinspace, stream, scalar(start, dtype),
           scalar(end, dtype), steps, out)  # fmt: skip


def test_linspace_documented_example(stream: int) -> None:
    """start 0, end 1, steps 8 (float32)."""
    out = empty_out((8,), D.DT_FLOAT)
    _linspace(stream, 0.0, 1.0, 8, out.handle)
    check(out, np.linspace(0.0, 1.0, 8))


@pytest.mark.parametrize("dtype", (*LINSPACE_DTYPES, *LINSPACE_EXTRA), ids=ident)
@pytest.mark.parametrize(
    ("start", "end", "steps"), [(-3.0, 9.0, 5), (10.0, 0.0, 11), (0.0, 200.0, 4097), (2.0, 2.0, 3)]
)
def test_linspace_dtypes(stream: int, dtype: int, start: float, end: float, steps: int) -> None:
    """Both ends included; integer outs take the float values truncated, from bounds in out's dtype."""
    target = np_dtype(dtype)
    if target.kind == "u":
        start, end = abs(start), abs(end)
    if target.kind in "iu":  # the bounds are converted to out's dtype first (C casts: 200 is -56 in int8)
        start, end = (float(np.array(v).astype(np.int64).astype(target)) for v in (start, end))
    golden = np.linspace(start, end, steps)
    out = empty_out((steps,), dtype)
    _linspace(stream, start, end, steps, out.handle)
    check(out, golden.astype(target) if target.kind in "iu" else golden)


def test_linspace_one_zero_and_views(stream: int) -> None:
    """steps 1 fills start, steps 0 launches nothing; out may have more dims (viewed) or be strided."""
    out = empty_out((1,), D.DT_FLOAT16)
    _linspace(stream, 4.5, 9.0, 1, out.handle)
    check(out, np.array([4.5], np.float16))
    empty = empty_out((0,), D.DT_FLOAT)
    _linspace(stream, 0.0, 1.0, 0, empty.handle)
    grid = empty_out((2, 3), D.DT_FLOAT)
    _linspace(stream, 0.0, 5.0, 6, grid.handle)
    check(grid, np.linspace(0.0, 5.0, 6).reshape(2, 3))
    strided = empty_out((5,), D.DT_INT32, strided=True)
    run_op(aclnn.aclnnLinspaceGetWorkspaceSize, aclnn.aclnnLinspace, stream, scalar(True, D.DT_BOOL),
           scalar(9, D.DT_INT64), 5, strided.handle)  # fmt: skip
    check(strided, np.linspace(1, 9, 5).astype(np.int32))


def test_linspace_errors(stream: int) -> None:
    """Nulls 561103; complex scalars, out dtype, negative steps, size of out != steps 161002."""
    phase1 = aclnn.aclnnLinspaceGetWorkspaceSize
    zero, one, out = scalar(0.0, D.DT_FLOAT), scalar(1.0, D.DT_FLOAT), empty_out((4,), D.DT_FLOAT).handle
    for args in ((None, one, 4, out), (zero, None, 4, out), (zero, one, 4, None)):
        assert status(phase1, *args) == INNER_NULLPTR
    assert "not to be a null pointer" in acl.get_recent_err_msg()
    assert status(phase1, scalar(1.0, D.DT_COMPLEX64), one, 4, out) == INVALID
    assert "complex" in acl.get_recent_err_msg()
    assert status(phase1, zero, one, 4, empty_out((4,), D.DT_BOOL).handle) == INVALID
    assert status(phase1, zero, one, -1, empty_out((0,), D.DT_FLOAT).handle) == INVALID
    assert "non-negative" in acl.get_recent_err_msg()
    assert status(phase1, zero, one, 5, out) == INVALID
    assert "size of out must equal to steps" in acl.get_recent_err_msg()


# -- aclnnInplaceOne ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize("dtype", (*ONE_DTYPES, D.DT_BF16), ids=ident)
def test_inplace_one(stream: int, dtype: int, case: str) -> None:
    """Every element of the view becomes 1; the gaps of a strided view keep their values."""
    rng = np.random.default_rng(91)
    shape = UNARY_SHAPES[case]
    x = to_device(random_values(dtype, shape, rng), dtype, strided=case == "strided", fill=7)
    run_op(aclnn.aclnnInplaceOneGetWorkspaceSize, aclnn.aclnnInplaceOne, stream, x.handle)
    check(x, np.ones(shape, np_dtype(dtype)))


def test_inplace_one_documented_example_and_errors(stream: int) -> None:
    """The official example (a 4x2 float32 tensor); a null 161001; dtype and rank 161002."""
    x = to_device(np.arange(8, dtype=np.float32).reshape(4, 2), D.DT_FLOAT)
    run_op(aclnn.aclnnInplaceOneGetWorkspaceSize, aclnn.aclnnInplaceOne, stream, x.handle)
    check(x, np.ones((4, 2), np.float32))
    phase1 = aclnn.aclnnInplaceOneGetWorkspaceSize
    assert status(phase1, None) == NULLPTR
    assert status(phase1, to_device(np.zeros(3, np.uint32), D.DT_UINT32).handle) == INVALID
    assert "DT_UINT32" in acl.get_recent_err_msg()
    assert status(phase1, to_device(np.zeros((1,) * 9, np.float32), D.DT_FLOAT).handle) == INVALID


# -- aclnnSearchSorteds ------------------------------------------------------------------------------------
def _sorteds(stream: int, seq: object, value: object, out_int32: bool, right: bool, sorter: object,
             out: object) -> None:  # fmt: skip
    run_op(aclnn.aclnnSearchSortedsGetWorkspaceSize, aclnn.aclnnSearchSorteds, stream, seq, value, out_int32, right,
           sorter, out)  # fmt: skip


def test_search_sorteds_documented_example(stream: int) -> None:
    """sortedSequence [1, 3, 6, 8] with the identity sorter, value 5, left: index 2."""
    seq = to_device(np.array([1, 3, 6, 8], np.float32), D.DT_FLOAT)
    sorter = to_device(np.arange(4, dtype=np.int64), D.DT_INT64)
    out = empty_out((1,), D.DT_INT64)
    _sorteds(stream, seq.handle, scalar(5.0, D.DT_FLOAT), False, False, sorter.handle, out.handle)
    check(out, np.array([2], np.int64))


@pytest.mark.parametrize("dtype", (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_UINT8, D.DT_INT32,
                                   D.DT_INT64, D.DT_INT16), ids=ident)  # fmt: skip
@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("value", [-1.0, 2.0, 2.7, 100.0])
def test_search_sorteds_values(stream: int, dtype: int, right: bool, value: float) -> None:
    """The scalar is read as float32 and converted to the sequence's dtype (ints truncate), then searched."""
    seq_values = np.array([0, 1, 2, 2, 2, 5, 9], np.float64).astype(np_dtype(dtype))
    seq = to_device(seq_values, dtype)
    out = empty_out((1,), D.DT_INT32)
    _sorteds(stream, seq.handle, scalar(value, D.DT_DOUBLE), True, right, None, out.handle)
    converted = np.array([np.float32(value)]).astype(np_dtype(dtype))
    side = "right" if right else "left"
    check(out, np.searchsorted(seq_values, converted, side=side).astype(np.int32))


def test_search_sorteds_rewrites_out_view_and_errors(stream: int) -> None:
    """A [1, 1] out is re-viewed as [1] (the real SetViewShape); nulls 161001; empty out, out dtype, a 2-D
    sequence and an unconvertible sequence dtype 161002."""
    seq = to_device(np.array([1.0, 3.0, 6.0], np.float32), D.DT_FLOAT)
    out = empty_out((1, 1), D.DT_INT64)
    _sorteds(stream, seq.handle, scalar(4, D.DT_INT32), False, False, None, out.handle)
    assert out.handle.view_shape == (1,)
    assert int(out.storage()[0]) == 2
    phase1 = aclnn.aclnnSearchSortedsGetWorkspaceSize
    five, out64 = scalar(5.0, D.DT_FLOAT), empty_out((1,), D.DT_INT64).handle
    assert status(phase1, None, five, False, False, None, out64) == NULLPTR
    assert status(phase1, seq.handle, None, False, False, None, out64) == NULLPTR
    assert status(phase1, seq.handle, five, False, False, None, None) == NULLPTR
    assert status(phase1, seq.handle, five, False, False, None, empty_out((0,), D.DT_INT64).handle) == INVALID
    assert "should be {1}" in acl.get_recent_err_msg()
    assert status(phase1, seq.handle, five, True, False, None, out64) == INVALID  # outInt32 wants int32
    two_d = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT).handle
    assert status(phase1, two_d, five, False, False, None, out64) == INVALID
    assert "only when sortedSequence is 1-D" in acl.get_recent_err_msg()
    c64 = to_device(np.zeros(3, np.complex64), D.DT_COMPLEX64).handle
    assert status(phase1, c64, five, False, False, None, out64) == INVALID
