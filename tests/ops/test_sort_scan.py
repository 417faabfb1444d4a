"""aclnnArgMax, aclnnCumsum / aclnnCumsumV2, aclnnSort, aclnnArgsort and aclnnTopk end to end.

Per op: the official example's values, every A2 dtype against a float64 / int64 numpy golden
(indices and integer results bit-exact, float results under the precision standard), a middle and a
negative dim, a strided input and output, ties and NaN, the empty and 0-d cases, which kernels run
(AI Core or AI CPU, the Transposes around the sorted axis), and every status the real L2 code
returns with its aclGetRecentErrMsg text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, random_values, run_op, to_device

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
NULLPTR, INVALID = 161001, 161002


def handle(t: Any) -> Any:
    return None if t is None else t.handle


def kernels(executor: Any) -> list[str]:
    return [launcher.name for launcher in executor.launchers]


def assert_rejected(result: tuple[Any, ...], code: int, text: str) -> None:
    """Phase 1 failed with ``code`` and left ``text`` in aclGetRecentErrMsg."""
    assert result[-1] == code, acl.get_recent_err_msg()
    assert text in acl.get_recent_err_msg()


def golden_sort(x: np.ndarray, axis: int, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """Reference by Python's stable sort on float64 / int64 keys: NaN largest, ties in input order."""
    wide = x.astype(np.float64) if x.dtype.kind in "fV" else x.astype(np.int64)
    moved = np.moveaxis(wide, axis, -1)
    order = np.empty(moved.shape, np.int64)
    for pos in np.ndindex(moved.shape[:-1]):
        line = moved[pos].tolist()
        keys = [sort_key(v, descending) for v in line]
        order[pos] = sorted(range(len(line)), key=keys.__getitem__)
    order = np.moveaxis(order, -1, axis)
    return np.take_along_axis(x, order, axis=axis), order


def sort_key(v: float, descending: bool) -> tuple[int, float]:
    """NaN after everything ascending, before everything descending."""
    nan = v != v
    if descending:
        return (0, 0.0) if nan else (1, -v)
    return (1, 0.0) if nan else (0, v)


SORT_SELF = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
             D.DT_BOOL)  # fmt: skip
ARGMAX_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                 D.DT_BF16)  # fmt: skip
CUMSUM_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_DOUBLE, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT64,
                 D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)  # fmt: skip
TOPK_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
               D.DT_BF16)  # fmt: skip


# -- aclnnArgMax -----------------------------------------------------------------------------------
def argmax(stream: int, x: Any, dim: int, keepdim: bool, out: Any) -> Any:
    ws, executor, ret = A.aclnnArgMaxGetWorkspaceSize(x.handle, dim, keepdim, out.handle)
    assert ret == 0, acl.get_recent_err_msg()
    run_op(lambda *a: (ws, executor, 0), A.aclnnArgMax, stream)
    return executor


def test_argmax_documented_example(stream: int) -> None:
    """The official example: a 4x2 float tensor, dim 0, int64 out: [3, 3]."""
    x = to_device(np.arange(8, dtype=np.float32).reshape(4, 2), D.DT_FLOAT)
    out = empty_out((2,), D.DT_INT64)
    argmax(stream, x, 0, False, out)
    check(out, np.array([3, 3]))


@pytest.mark.parametrize("dtype", ARGMAX_DTYPES, ids=ident)
def test_argmax_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype along a middle axis: AI Core for F32 F16 BF16 I32 I64, AI CPU otherwise; first index of ties."""
    host = random_values(dtype, (3, 17, 5), np.random.default_rng(dtype))
    out = empty_out((3, 5), D.DT_INT64)
    executor = argmax(stream, to_device(host, dtype), 1, False, out)
    aicore = dtype in (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32, D.DT_INT64)
    assert ("ArgMaxV2" if aicore else "ArgMaxV2(AI CPU)") in kernels(executor)
    check(out, np.argmax(host.astype(np.float64), axis=1))


@pytest.mark.parametrize(("shape", "dim", "keepdim"), [((6,), 0, True), ((4, 5, 6), -1, True), ((2, 3, 4), -3, False),
                                                       ((300, 200), 0, False)], ids=str)  # fmt: skip
def test_argmax_dims_keepdim_and_strided(stream: int, shape: tuple, dim: int, keepdim: bool) -> None:
    """Negative dims, keepdim, a strided self and a strided out."""
    host = random_values(D.DT_FLOAT, shape, np.random.default_rng(1))
    golden = np.argmax(host, axis=dim)
    if keepdim:
        golden = np.expand_dims(golden, dim)
    out = empty_out(golden.shape, D.DT_INT32, strided=True)
    argmax(stream, to_device(host, D.DT_FLOAT, strided=True), dim, keepdim, out)
    check(out, golden)


def test_argmax_nan_ties_scalar_and_float_out(stream: int) -> None:
    """The first NaN wins, ties give the first index; a 0-d self gives 0; a float out gets the index as a float."""
    host = np.array([[1, 5, 5, 0], [2, np.nan, 7, np.nan]], np.float32)
    out = empty_out((2,), D.DT_FLOAT)
    argmax(stream, to_device(host, D.DT_FLOAT), 1, False, out)
    check(out, np.array([1.0, 1.0]))
    scalar_out = empty_out((), D.DT_INT64)
    argmax(stream, to_device(np.array(3.0, np.float32), D.DT_FLOAT), -1, False, scalar_out)
    check(scalar_out, np.array(0))


def test_argmax_empty_and_statuses(stream: int) -> None:
    """An empty self launches nothing; null, dtype, rank, dim and out-shape failures have the real statuses."""
    ws, executor, ret = A.aclnnArgMaxGetWorkspaceSize(empty_out((0, 3), D.DT_FLOAT).handle, 1, False,
                                                      empty_out((0,), D.DT_INT64).handle)  # fmt: skip
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x, out = empty_out((2, 3), D.DT_FLOAT), empty_out((2,), D.DT_INT64)
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(None, 1, False, out.handle), NULLPTR, "self")
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(x.handle, 1, False, None), NULLPTR, "out")
    bad = empty_out((2, 3), D.DT_BOOL)
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(bad.handle, 1, False, out.handle), INVALID, "dtype support list")
    nine = empty_out((1,) * 9, D.DT_FLOAT)
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(nine.handle, 0, False, out.handle), INVALID, "more than 8")
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(x.handle, 2, False, out.handle), INVALID, "[-2, 1], but it is 2")
    wrong = empty_out((3,), D.DT_INT64)
    assert_rejected(A.aclnnArgMaxGetWorkspaceSize(x.handle, 1, False, wrong.handle), INVALID, "out shape [3]")


# -- aclnnCumsum / aclnnCumsumV2 -------------------------------------------------------------------
def golden_cumsum(x: np.ndarray, axis: int, exclusive: bool = False, reverse: bool = False) -> np.ndarray:
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64 if x.dtype.kind in "fV" else np.int64)
    if reverse:
        wide = np.flip(wide, axis)
    sums = np.cumsum(wide, axis=axis)
    if exclusive:
        sums = sums - wide
    return np.flip(sums, axis) if reverse else sums


def cumsum(stream: int, x: Any, dim: int, out: Any, dtype: int | None = None) -> Any:
    ws, executor, ret = A.aclnnCumsumGetWorkspaceSize(x.handle, dim, out.acl_dtype if dtype is None else dtype,
                                                      out.handle)  # fmt: skip
    assert ret == 0, acl.get_recent_err_msg()
    run_op(lambda *a: (ws, executor, 0), A.aclnnCumsum, stream)
    return executor


def test_cumsum_documented_examples(stream: int) -> None:
    """The official examples: [[1, 2], [3, 4]] along dim 0; V2 exclusive gives [[0, 0], [1, 2]]."""
    host = np.array([[1, 2], [3, 4]], np.float32)
    out = empty_out((2, 2), D.DT_FLOAT)
    cumsum(stream, to_device(host, D.DT_FLOAT), 0, out)
    check(out, np.array([[1, 2], [4, 6]]))
    out2 = empty_out((2, 2), D.DT_FLOAT)
    run_op(A.aclnnCumsumV2GetWorkspaceSize, A.aclnnCumsumV2, stream, to_device(host, D.DT_FLOAT).handle, 0, True,
           False, out2.handle)  # fmt: skip
    check(out2, np.array([[0, 0], [1, 2]]))


@pytest.mark.parametrize("dtype", CUMSUM_DTYPES, ids=ident)
def test_cumsum_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype along the last axis: AI Core for F32 F16 BF16 I32, AI CPU otherwise."""
    host = random_values(dtype, (5, 33), np.random.default_rng(dtype))
    out = empty_out(host.shape, dtype)
    executor = cumsum(stream, to_device(host, dtype), 1, out)
    aicore = dtype in (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32)
    assert ("Cumsum" if aicore else "Cumsum(AI CPU)") in kernels(executor)
    check(out, golden_cumsum(host, 1))


@pytest.mark.parametrize(("exclusive", "reverse"), [(False, True), (True, True), (True, False)], ids=str)
@pytest.mark.parametrize(("shape", "dim"), [((4, 7, 3), 1), ((9,), -1), ((3, 4096), 1)], ids=str)
def test_cumsum_v2_flags_and_axes(stream: int, shape: tuple, dim: int, exclusive: bool, reverse: bool) -> None:
    """exclusive / reverse along a middle, the only and a long axis (several cores), strided in and out."""
    host = random_values(D.DT_FLOAT, shape, np.random.default_rng(2))
    out = empty_out(shape, D.DT_FLOAT, strided=True)
    run_op(A.aclnnCumsumV2GetWorkspaceSize, A.aclnnCumsumV2, stream, to_device(host, D.DT_FLOAT, strided=True).handle,
           dim, exclusive, reverse, out.handle)  # fmt: skip
    check(out, golden_cumsum(host, dim % len(shape), exclusive, reverse))


def test_cumsum_casts_self_to_out_and_wraps_integers(stream: int) -> None:
    """aclnnCumsum Casts self to out's dtype (int32 -> float16 here); int8 sums wrap in int8."""
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    out = empty_out((3, 4), D.DT_FLOAT16)
    executor = cumsum(stream, to_device(host, D.DT_INT32), 0, out)
    assert kernels(executor)[0] == "Cast"
    check(out, golden_cumsum(host, 0))
    wrap = np.full((1, 4), 100, np.int8)
    out8 = empty_out((1, 4), D.DT_INT8)
    cumsum(stream, to_device(wrap, D.DT_INT8), 1, out8)
    check(out8, np.array([[100, -56, 44, -112]]))


def test_cumsum_empty_and_statuses(stream: int) -> None:
    """Empty: nothing launched. Null (161001); out dtype, dtype argument, shape, rank and dim (161002)."""
    e = empty_out((0, 2), D.DT_FLOAT)
    ws, executor, ret = A.aclnnCumsumGetWorkspaceSize(e.handle, 0, A.ACL_FLOAT, e.handle)
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x, out = empty_out((2, 3), D.DT_FLOAT), empty_out((2, 3), D.DT_FLOAT)
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(None, 0, A.ACL_FLOAT, out.handle), NULLPTR, "self")
    assert_rejected(A.aclnnCumsumV2GetWorkspaceSize(x.handle, 0, False, False, None), NULLPTR, "out")
    boolean = empty_out((2, 3), D.DT_BOOL)
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(x.handle, 0, A.ACL_BOOL, boolean.handle), INVALID, "support list")
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(x.handle, 0, A.ACL_INT32, out.handle), INVALID, "must match")
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(x.handle, 2, A.ACL_FLOAT, out.handle), INVALID, "[-2, 1]")
    other = empty_out((3, 2), D.DT_FLOAT)
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(x.handle, 0, A.ACL_FLOAT, other.handle), INVALID, "out shape")
    nine = empty_out((1,) * 9, D.DT_FLOAT)
    assert_rejected(A.aclnnCumsumGetWorkspaceSize(nine.handle, 0, A.ACL_FLOAT, nine.handle), INVALID, "more than 8")
    i32 = empty_out((2, 3), D.DT_INT32)
    assert_rejected(A.aclnnCumsumV2GetWorkspaceSize(i32.handle, 0, False, False, out.handle), INVALID, "same dtype")
    assert_rejected(A.aclnnCumsumV2GetWorkspaceSize(boolean.handle, 0, False, False, boolean.handle), INVALID,
                    "support list")  # fmt: skip


# -- aclnnSort ---------------------------------------------------------------------------------------
def sort(stream: int, x: Any, stable: bool, dim: int, descending: bool, values: Any, indices: Any) -> Any:
    ws, executor, ret = A.aclnnSortGetWorkspaceSize(x.handle, stable, dim, descending, values.handle, indices.handle)
    assert ret == 0, acl.get_recent_err_msg()
    run_op(lambda *a: (ws, executor, 0), A.aclnnSort, stream)
    return executor


def test_sort_documented_example(stream: int) -> None:
    """The official example: an int64 3x4 tensor sorted along dim 0 (AI CPU: int64)."""
    host = np.array([7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6], np.int64).reshape(3, 4)
    values, indices = empty_out((3, 4), D.DT_INT64), empty_out((3, 4), D.DT_INT64)
    sort(stream, to_device(host, D.DT_INT64), False, 0, False, values, indices)
    check(values, [[3, 4, 1, 2], [7, 8, 5, 6], [11, 12, 9, 10]])
    check(indices, [[2, 2, 1, 1], [0, 0, 2, 2], [1, 1, 0, 0]])


@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
@pytest.mark.parametrize("dtype", SORT_SELF, ids=ident)
def test_sort_every_dtype(stream: int, dtype: int, descending: bool) -> None:
    """Each A2 dtype, both orders, stable: ties keep input order; bf16 sorts as float32, bool as uint8."""
    host = random_values(dtype, (4, 21), np.random.default_rng(dtype))
    values, indices = empty_out(host.shape, dtype), empty_out(host.shape, D.DT_INT64)
    executor = sort(stream, to_device(host, dtype), True, 1, descending, values, indices)
    aicore = dtype in (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
    assert ("Sort" if aicore else "Sort(AI CPU)") in kernels(executor)
    golden_values, golden_indices = golden_sort(host, 1, descending)
    check(values, golden_values)
    check(indices, golden_indices)


@pytest.mark.parametrize(("shape", "dim"), [((5, 6, 7), 1), ((6, 5), 0), ((2, 3, 4), -3), ((64, 3000), 1)], ids=str)
def test_sort_axes_strided_and_nan(stream: int, shape: tuple, dim: int) -> None:
    """A non-last dim goes through Transposes; strided self and outputs; NaN sorts above +inf."""
    host = random_values(D.DT_FLOAT, shape, np.random.default_rng(3))
    host.reshape(-1)[::7] = np.nan
    host.reshape(-1)[3::11] = np.inf
    values = empty_out(shape, D.DT_FLOAT, strided=True)
    indices = empty_out(shape, D.DT_INT64, strided=True)
    executor = sort(stream, to_device(host, D.DT_FLOAT, strided=True), False, dim, True, values, indices)
    if dim % len(shape) != len(shape) - 1:
        names = kernels(executor)
        assert names.count("Transpose") + names.count("TransposeV2") == 3
    golden_values, golden_indices = golden_sort(host, dim % len(shape), True)
    check(values, golden_values)
    check(indices, golden_indices)


def test_sort_special_shapes(stream: int) -> None:
    """0-d: the value and index 0; a sorted axis of length 1: a copy and Fill(0); 9 dims: reshaped, sorted."""
    v0, i0 = empty_out((), D.DT_FLOAT), empty_out((), D.DT_INT64)
    sort(stream, to_device(np.array(2.5, np.float32), D.DT_FLOAT), False, 0, False, v0, i0)
    check(v0, np.array(2.5))
    check(i0, np.array(0))
    host = random_values(D.DT_INT32, (3, 1), np.random.default_rng(4))
    v1, i1 = empty_out((3, 1), D.DT_INT32), empty_out((3, 1), D.DT_INT64)
    executor = sort(stream, to_device(host, D.DT_INT32), False, 1, False, v1, i1)
    assert "Sort" not in " ".join(kernels(executor))
    check(v1, host)
    check(i1, np.zeros((3, 1)))
    nine = random_values(D.DT_FLOAT, (2, 1, 2, 1, 2, 1, 2, 3, 2), np.random.default_rng(5))
    v9, i9 = empty_out(nine.shape, D.DT_FLOAT), empty_out(nine.shape, D.DT_INT64)
    sort(stream, to_device(nine, D.DT_FLOAT), True, 7, False, v9, i9)
    golden_values, golden_indices = golden_sort(nine, 7, False)
    check(v9, golden_values)
    check(i9, golden_indices)


def test_sort_values_cast_and_empty(stream: int) -> None:
    """valuesOut may be float64 (the values Cast after the kernel); an empty self launches nothing."""
    host = random_values(D.DT_FLOAT16, (3, 9), np.random.default_rng(6))
    values, indices = empty_out(host.shape, D.DT_DOUBLE), empty_out(host.shape, D.DT_INT64)
    sort(stream, to_device(host, D.DT_FLOAT16), True, -1, False, values, indices)
    check(values, golden_sort(host, 1, False)[0])
    e = empty_out((0, 4), D.DT_FLOAT)
    ws, executor, ret = A.aclnnSortGetWorkspaceSize(e.handle, False, 1, False, e.handle,
                                                    empty_out((0, 4), D.DT_INT64).handle)  # fmt: skip
    assert (ws, ret) == (0, 0) and executor.launchers == []


def test_sort_statuses(stream: int) -> None:
    """Null (161001); self / values / indices dtypes, dim and shapes (161002); the axis-1 copy to another
    dtype fails its ViewCopy, which the real code reports as 161001."""
    x, v, i = empty_out((2, 3), D.DT_FLOAT), empty_out((2, 3), D.DT_FLOAT), empty_out((2, 3), D.DT_INT64)
    assert_rejected(A.aclnnSortGetWorkspaceSize(None, False, 0, False, v.handle, i.handle), NULLPTR, "self")
    assert_rejected(A.aclnnSortGetWorkspaceSize(x.handle, False, 0, False, None, i.handle), NULLPTR, "valuesOut")
    assert_rejected(A.aclnnSortGetWorkspaceSize(x.handle, False, 0, False, v.handle, None), NULLPTR, "indicesOut")
    f64 = empty_out((2, 3), D.DT_DOUBLE)
    assert_rejected(A.aclnnSortGetWorkspaceSize(f64.handle, False, 0, False, v.handle, i.handle), INVALID, "self dtype")
    assert_rejected(A.aclnnSortGetWorkspaceSize(x.handle, False, 0, False, v.handle, v.handle), INVALID, "indicesOut")
    assert_rejected(A.aclnnSortGetWorkspaceSize(x.handle, False, 2, False, v.handle, i.handle), INVALID, "[-2, 1]")
    other = empty_out((3, 2), D.DT_FLOAT)
    assert_rejected(A.aclnnSortGetWorkspaceSize(x.handle, False, 0, False, other.handle, i.handle), INVALID,
                    "valuesOut must have")  # fmt: skip
    col, col_v, col_i = empty_out((2, 1), D.DT_FLOAT), empty_out((2, 1), D.DT_DOUBLE), empty_out((2, 1), D.DT_INT64)
    assert_rejected(A.aclnnSortGetWorkspaceSize(col.handle, False, 1, False, col_v.handle, col_i.handle), NULLPTR,
                    "L0")  # fmt: skip


# -- aclnnArgsort ------------------------------------------------------------------------------------
def test_argsort_documented_example(stream: int) -> None:
    """The official example: the int64 3x4 tensor's argsort along dim 0."""
    host = np.array([7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6], np.int64).reshape(3, 4)
    out = empty_out((3, 4), D.DT_INT64)
    run_op(A.aclnnArgsortGetWorkspaceSize, A.aclnnArgsort, stream, to_device(host, D.DT_INT64).handle, 0, False,
           out.handle)  # fmt: skip
    check(out, [[2, 2, 1, 1], [0, 0, 2, 2], [1, 1, 0, 0]])


@pytest.mark.parametrize("dtype", (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
                                   D.DT_UINT8, D.DT_BF16), ids=ident)  # fmt: skip
def test_argsort_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype along a middle axis, descending; bfloat16 reaches the Sort kernel as it is."""
    host = random_values(dtype, (3, 12, 4), np.random.default_rng(dtype))
    out = empty_out(host.shape, D.DT_INT64, strided=True)
    ws, executor, ret = A.aclnnArgsortGetWorkspaceSize(to_device(host, dtype).handle, 1, True, out.handle)
    assert ret == 0
    assert "Cast" not in kernels(executor)[:2]
    run_op(lambda *a: (ws, executor, 0), A.aclnnArgsort, stream)
    check(out, golden_sort(host, 1, True)[1])


def test_argsort_scalar_and_statuses(stream: int) -> None:
    """0-d: index 0. Null (161001); dim, bf16 on an axis of 1, dtypes, private format, rank and shape (161002)."""
    out0 = empty_out((), D.DT_INT64)
    run_op(A.aclnnArgsortGetWorkspaceSize, A.aclnnArgsort, stream, to_device(np.array(1.0, np.float32),
           D.DT_FLOAT).handle, -1, False, out0.handle)  # fmt: skip
    check(out0, np.array(0))
    x, out = empty_out((2, 3), D.DT_FLOAT), empty_out((2, 3), D.DT_INT64)
    api = A.aclnnArgsortGetWorkspaceSize
    assert_rejected(api(None, 0, False, out.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, 0, False, None), NULLPTR, "out")
    assert_rejected(api(x.handle, -3, False, out.handle), INVALID, "[-2, 1], but it is -3")
    bf = empty_out((2, 1), D.DT_BF16)
    assert_rejected(api(bf.handle, 1, False, empty_out((2, 1), D.DT_INT64).handle), INVALID, "not support 1")
    assert_rejected(api(empty_out((2, 3), D.DT_DOUBLE).handle, 0, False, out.handle), INVALID, "self dtype")
    assert_rejected(api(x.handle, 0, False, empty_out((2, 3), D.DT_INT32).handle), INVALID, "out dtype")
    nz = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT)
    fractal = A.aclCreateTensor([2, 3], 2, A.ACL_FLOAT, [3, 1], 0, A.ACL_FORMAT_FRACTAL_NZ, [2, 3], 2, nz.addr)
    assert_rejected(api(fractal, 0, False, out.handle), INVALID, "private")
    assert A.aclDestroyTensor(fractal) == 0
    assert_rejected(api(x.handle, 0, False, empty_out((3, 2), D.DT_INT64).handle), INVALID, "shape of self")


# -- aclnnTopk -----------------------------------------------------------------------------------------
def topk(stream: int, x: Any, k: int, dim: int, largest: bool, sorted_: bool, shape: Sequence[int],
         strided: bool = False) -> tuple[Any, Any, Any]:  # fmt: skip
    values = empty_out(shape, x.acl_dtype, strided=strided)
    indices = empty_out(shape, D.DT_INT64, strided=strided)
    ws, executor, ret = A.aclnnTopkGetWorkspaceSize(x.handle, k, dim, largest, sorted_, values.handle, indices.handle)
    assert ret == 0, acl.get_recent_err_msg()
    run_op(lambda *a: (ws, executor, 0), A.aclnnTopk, stream)
    return values, indices, executor


def golden_topk(x: np.ndarray, k: int, axis: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    values, indices = golden_sort(x, axis, largest)
    take = [slice(None)] * x.ndim
    take[axis] = slice(0, k)
    return values[tuple(take)], indices[tuple(take)]


@pytest.mark.parametrize("dtype", TOPK_DTYPES, ids=ident)
def test_topk_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype, k = 10 on the last axis: TopKV2 on AI Core for F16 F32 BF16, the AI CPU TopK otherwise."""
    host = random_values(dtype, (4, 40), np.random.default_rng(dtype))
    x = to_device(host, dtype)
    values, indices, executor = topk(stream, x, 10, -1, True, True, (4, 10))
    aicore = dtype in (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
    assert ("TopKV2" if aicore else "TopK(AI CPU)") in kernels(executor)
    golden_values, golden_indices = golden_topk(host, 10, 1, True)
    check(values, golden_values)
    check(indices, golden_indices)


@pytest.mark.parametrize(("shape", "k", "dim", "largest"), [((5, 30), 3, 1, True), ((5, 30), 3, 1, False),
                         ((6, 8, 5), 4, 1, False), ((7, 100), 100, -1, True), ((7, 100), 0, 1, True),
                         ((2, 3), 1, 0, True)], ids=str)  # fmt: skip
def test_topk_paths(stream: int, shape: tuple, k: int, dim: int, largest: bool) -> None:
    """Small k on the last axis: two TopKs and a GatherElements; a middle dim: Transposes; k = n and k = 0."""
    host = random_values(D.DT_FLOAT, shape, np.random.default_rng(k))
    host.reshape(-1)[::9] = np.nan
    axis = dim % len(shape)
    out_shape = list(shape)
    out_shape[axis] = k
    values, indices, executor = topk(stream, to_device(host, D.DT_FLOAT, strided=True), k, dim, largest, True,
                                     out_shape, strided=True)  # fmt: skip
    names = kernels(executor)
    if k == 0:
        assert names == []
        return
    if axis == len(shape) - 1 and 0 < k < 8:
        assert names.count("TopKV2") == 2 and "GatherElements" in names
    if axis != len(shape) - 1:
        assert names.count("Transpose") + names.count("TransposeV2") == 3
    golden_values, golden_indices = golden_topk(host, k, axis, largest)
    check(values, golden_values)
    check(indices, golden_indices)


def test_topk_scalar(stream: int) -> None:
    """A 0-d self with k = 1: the value and index 0."""
    values, indices, _ = topk(stream, to_device(np.array(4.0, np.float32), D.DT_FLOAT), 1, 0, True, True, ())
    check(values, np.array(4.0))
    check(indices, np.array(0))


def test_topk_statuses(stream: int) -> None:
    """Null (161001); dim, k, self / values / indices dtypes and rank (161002), then out shapes (161002)."""
    x, v, i = empty_out((2, 5), D.DT_FLOAT), empty_out((2, 3), D.DT_FLOAT), empty_out((2, 3), D.DT_INT64)
    api = A.aclnnTopkGetWorkspaceSize
    assert_rejected(api(None, 3, 1, True, True, v.handle, i.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, 3, 1, True, True, None, i.handle), NULLPTR, "valuesOut")
    assert_rejected(api(x.handle, 3, 1, True, True, v.handle, None), NULLPTR, "indicesOut")
    assert_rejected(api(x.handle, 3, 2, True, True, v.handle, i.handle), INVALID, "Dimension out of range")
    assert_rejected(api(x.handle, 6, 1, True, True, v.handle, i.handle), INVALID, "k out of range")
    assert_rejected(api(x.handle, -1, 1, True, True, v.handle, i.handle), INVALID, "k out of range")
    b = empty_out((2, 5), D.DT_BOOL)
    assert_rejected(api(b.handle, 3, 1, True, True, empty_out((2, 3), D.DT_BOOL).handle, i.handle), INVALID,
                    "self dtype")  # fmt: skip
    assert_rejected(api(x.handle, 3, 1, True, True, empty_out((2, 3), D.DT_FLOAT16).handle, i.handle), INVALID,
                    "valuesOut dtype")  # fmt: skip
    assert_rejected(api(x.handle, 3, 1, True, True, v.handle, empty_out((2, 3), D.DT_INT32).handle), INVALID,
                    "indicesOut dtype")  # fmt: skip
    assert_rejected(api(x.handle, 3, 1, True, True, empty_out((2, 4), D.DT_FLOAT).handle, i.handle), INVALID,
                    "valuesOut shape [2, 4]")  # fmt: skip
    nine = empty_out((1,) * 9, D.DT_FLOAT)
    assert_rejected(api(nine.handle, 1, 0, True, True, nine.handle, i.handle), INVALID, "more than 8")


# -- aclnnNorm -----------------------------------------------------------------------------------------
def p_scalar(p: float) -> Any:
    scalar = A.aclCreateScalar(np.float32(p).tobytes(), A.ACL_FLOAT)
    assert scalar is not None
    return scalar


def golden_norm(x: np.ndarray, p: float, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
    a = np.abs(x.astype(np.float64))
    if p == 0:
        r = np.sum(a != 0, axis=axes, keepdims=keepdim).astype(np.float64)
    elif np.isinf(p):
        r = (np.max if p > 0 else np.min)(a, axis=axes, keepdims=keepdim)
    else:
        with np.errstate(divide="ignore"):
            r = np.sum(a**p, axis=axes, keepdims=keepdim) ** (1 / p)
    return np.asarray(r)


def norm(stream: int, x: Any, p: float, dims: Sequence[int], keepdim: bool, out: Any) -> Any:
    dim = A.aclCreateIntArray(list(dims), len(dims))
    ws, executor, ret = A.aclnnNormGetWorkspaceSize(x.handle, p_scalar(p), dim, keepdim, out.handle)
    assert ret == 0, acl.get_recent_err_msg()
    run_op(lambda *a: (ws, executor, 0), A.aclnnNorm, stream)
    return executor


def test_norm_documented_example(stream: int) -> None:
    """The official example: p = 0 over dim 0 of a 4x2 float tensor, keepdim: [[4, 4]]."""
    host = np.array([0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1], np.float32).reshape(4, 2)
    out = empty_out((1, 2), D.DT_FLOAT)
    norm(stream, to_device(host, D.DT_FLOAT), 0.0, [0], True, out)
    check(out, np.array([[4.0, 4.0]]))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, np.inf, -np.inf, 3.0, 0.5, -1.5], ids=str)
@pytest.mark.parametrize(("shape", "dims", "keepdim"), [((4, 33, 5), (1,), False), ((6, 7), (), True),
                                                        ((3, 4, 5), (-1, 0), False)], ids=str)  # fmt: skip
def test_norm_every_p(stream: int, p: float, shape: tuple, dims: tuple, keepdim: bool) -> None:
    """Every p branch over a middle axis, every axis (empty dim) and two axes; a strided self."""
    host = random_values(D.DT_FLOAT, shape, np.random.default_rng(7))
    host.reshape(-1)[::5] = 0.0
    axes = tuple(d % len(shape) for d in dims) or tuple(range(len(shape)))
    golden = golden_norm(host, p, axes, keepdim)
    out = empty_out(golden.shape, D.DT_FLOAT)
    executor = norm(stream, to_device(host, D.DT_FLOAT, strided=True), p, dims, keepdim, out)
    assert "LpNormV2" in kernels(executor)
    check(out, golden)


@pytest.mark.parametrize(("dtype", "out_dtype", "direct"), [(D.DT_FLOAT16, D.DT_FLOAT16, True),
                         (D.DT_FLOAT16, D.DT_FLOAT, True), (D.DT_BF16, D.DT_BF16, True), (D.DT_BF16, D.DT_FLOAT, True),
                         (D.DT_FLOAT, D.DT_FLOAT16, False), (D.DT_INT32, D.DT_FLOAT, False),
                         (D.DT_DOUBLE, D.DT_DOUBLE, False)], ids=ident)  # fmt: skip
def test_norm_dtype_pairs(stream: int, dtype: int, out_dtype: int, direct: bool) -> None:
    """The pairs LpNormV2 takes directly, and the others through Cast(float32) before and after."""
    host = random_values(dtype, (5, 16), np.random.default_rng(8))
    out = empty_out((5,), out_dtype)
    executor = norm(stream, to_device(host, dtype), 2.0, [1], False, out)
    assert (kernels(executor) == ["LpNormV2"]) is direct
    check(out, golden_norm(host, 2.0, (1,), False))


def test_norm_empty_fills_zero_and_statuses(stream: int) -> None:
    """An empty self fills out with 0. Null (161001); promotion, dims, repeated dims, rank and out shape (161002)."""
    out = empty_out((3,), D.DT_FLOAT)
    norm(stream, empty_out((3, 0), D.DT_FLOAT), 2.0, [1], False, out)
    check(out, np.zeros(3))
    x, o = empty_out((2, 3), D.DT_FLOAT), empty_out((2,), D.DT_FLOAT)
    dim, p = A.aclCreateIntArray([1], 1), p_scalar(2.0)
    api = A.aclnnNormGetWorkspaceSize
    assert_rejected(api(None, p, dim, False, o.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, None, dim, False, o.handle), NULLPTR, "pScalar")
    assert_rejected(api(x.handle, p, None, False, o.handle), NULLPTR, "dim")
    assert_rejected(api(x.handle, p, dim, False, None), NULLPTR, "out")
    assert_rejected(api(x.handle, p, dim, False, empty_out((2,), D.DT_UINT16).handle), INVALID, "can not promote")
    assert_rejected(api(x.handle, p, A.aclCreateIntArray([2], 1), False, o.handle), INVALID, "provided dim 2")
    assert_rejected(api(x.handle, p, A.aclCreateIntArray([1, -1], 2), False, o.handle), INVALID, "multiple times")
    nine = empty_out((1,) * 9, D.DT_FLOAT)
    assert_rejected(api(nine.handle, p, dim, False, o.handle), INVALID, "more than 8")
    assert_rejected(api(x.handle, p, dim, True, o.handle), INVALID, "out shape [2]")
