"""The AI CPU-only ops: aclnnCummax and extra aclnnSearchSorted cases.

Emulates the ops-math L2 APIs on A2 (Ascend910B). Cummax runs as one AI CPU task
(AicpuTaskSpace("Cummax"), attr ``dim``) between Contiguous / Cast(bool → uint8) and the
Cast + ViewCopy of its two outputs. Values are copies of input elements and indices are integers,
so both are checked bit-exactly (after the precision standard) against a float64 numpy golden with
PyTorch's cummax semantics: ties report the latest index, NaN propagates and each later NaN takes
the index. The checks follow the code: a 0-d self is refused (the doc allows dim in [-1, 0]).

SearchSorted with an empty input zero-fills ``out`` (ZerosLike).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor

from emulator import acl, aclnn, npu
from emulator.meta.dtypes import numpy_dtype
from emulator.testing.precision import assert_precision

H2D, D2H = 1, 2
NULLPTR, INVALID = 161001, 161002
A = aclnn
F32, F16, F64, BF16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_DOUBLE, A.ACL_BF16
I8, I16, I32, I64, U8, BOOL = A.ACL_INT8, A.ACL_INT16, A.ACL_INT32, A.ACL_INT64, A.ACL_UINT8, A.ACL_BOOL
NAMES = {F32: "f32", F16: "f16", F64: "f64", BF16: "bf16", I8: "i8", I16: "i16", I32: "i32", I64: "i64", U8: "u8",
         BOOL: "bool"}  # fmt: skip
CUMMAX_DTYPES = (F32, F16, F64, I8, I16, I32, I64, U8, BOOL, BF16)
SEARCH_DTYPES = (F64, F32, F16, U8, I8, I16, I32, I64)


# -- small helpers (the same device flow as test_data_ops.py) ---------------------------------
def np_dtype(acl_dtype: int) -> np.dtype:
    dtype = numpy_dtype(acl_dtype)
    assert dtype is not None
    return dtype


def random_array(shape: Sequence[int], acl_dtype: int, seed: int = 0, high: int = 100) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np_dtype(acl_dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if dtype.kind == "u":
        return rng.integers(0, high, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-high, high, shape).astype(dtype)
    return rng.uniform(-5, 5, shape).astype(dtype)


def zeros(shape: Sequence[int], acl_dtype: int) -> npu.Tensor:
    return device_tensor(np.zeros(shape, np_dtype(acl_dtype)), acl_dtype)


def run(phase2: Callable[..., int], workspace_size: int, executor: Any, stream: int) -> int:
    workspace = 0
    if workspace_size:
        workspace, ret = acl.rt.malloc(workspace_size, 0)
        assert ret == 0
    status = phase2(workspace, workspace_size, executor, stream)
    assert acl.rt.synchronize_stream(stream) == 0
    return status


def assert_exact(actual: np.ndarray, golden: np.ndarray) -> None:
    """The precision standard, then bit-exactness against the golden rounded to the output dtype."""
    golden = np.asarray(golden)
    assert_precision(actual, golden)
    expected = golden.astype(actual.dtype) if golden.dtype != actual.dtype else golden
    assert actual.tobytes() == np.ascontiguousarray(expected).tobytes()


# -- aclnnCummax -------------------------------------------------------------------------------
def golden_cummax(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """float64 reference, element by element: replace the running max when x >= it or x is NaN."""
    data = np.moveaxis(x.astype(np.float64), axis, -1)
    values = np.empty_like(data)
    indices = np.empty(data.shape, np.int64)
    for pos in np.ndindex(data.shape[:-1]):
        best, where = np.nan, 0
        for i, v in enumerate(data[pos]):
            if i == 0 or np.isnan(v) or (not np.isnan(best) and v >= best):
                best, where = v, i
            values[(*pos, i)], indices[(*pos, i)] = best, where
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def cummax(
    stream: int, x: npu.Tensor, dim: int, values: npu.Tensor | None, indices: npu.Tensor | None
) -> tuple[int, Any]:
    """Both phases of aclnnCummax; (phase-1 status, executor)."""
    ws, executor, ret = A.aclnnCummaxGetWorkspaceSize(x.handle if x is not None else None, dim,
                                                      values.handle if values is not None else None,
                                                      indices.handle if indices is not None else None)  # fmt: skip
    if ret == 0:
        assert run(A.aclnnCummax, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize("indices_dtype", [I64, I32], ids=NAMES.get)
@pytest.mark.parametrize("dtype", CUMMAX_DTYPES, ids=NAMES.get)
def test_cummax_every_dtype(stream: int, dtype: int, indices_dtype: int) -> None:
    """Each A2 dtype, int32 or int64 indices: one AI CPU Cummax (bool through a uint8 Cast), exact results."""
    host = random_array((4, 9), dtype, seed=dtype, high=5)  # small integers: plenty of ties
    values, indices = zeros(host.shape, dtype), zeros(host.shape, indices_dtype)
    ret, executor = cummax(stream, device_tensor(host, dtype), 1, values, indices)
    assert ret == 0
    kernels = [launcher.name for launcher in executor.launchers]
    assert "Cummax(AI CPU)" in kernels
    assert kernels[0] == ("Cast" if dtype == BOOL else "Cummax(AI CPU)")
    golden_values, golden_indices = golden_cummax(host, 1)
    assert_exact(values.storage(), golden_values)
    assert_exact(indices.storage(), golden_indices)


@pytest.mark.parametrize(
    ("shape", "dim"),
    [((1,), 0), ((7, 13), 0), ((7, 13), -1), ((2, 3, 5), 1), ((2, 1, 2, 1, 2, 1, 2, 3), 7), ((100, 1000), 1)],
    ids=["one", "dim0", "negative", "3d-middle", "8d", "large"],
)  # fmt: skip
def test_cummax_shapes(stream: int, shape: tuple, dim: int) -> None:
    """One element, odd sizes, negative dims, a middle axis, 8-D and 100 000 elements."""
    host = random_array(shape, I32, seed=3, high=50)
    values, indices = zeros(shape, I32), zeros(shape, I64)
    assert cummax(stream, device_tensor(host, I32), dim, values, indices)[0] == 0
    axis = dim % len(shape)
    expected = np.maximum.accumulate(host, axis=axis)
    assert_exact(values.storage(), expected)
    got = indices.storage()
    assert_exact(np.take_along_axis(host, got, axis=axis), expected)  # each index points at its value
    if host.size <= 1000:
        assert_exact(got, golden_cummax(host, axis)[1])


def test_cummax_ties_and_nan(stream: int) -> None:
    """Ties take the latest index; NaN propagates and each later NaN moves the index to itself."""
    host = np.array([[1.0, 3.0, 3.0, 2.0, np.nan, 9.0, np.nan, 1.0], [-np.inf, -np.inf, 0.0, 0.0, -0.0, 5, 5, 4]],
                    np.float32)  # fmt: skip
    values, indices = zeros(host.shape, F32), zeros(host.shape, I64)
    assert cummax(stream, device_tensor(host, F32), 1, values, indices)[0] == 0
    golden_values, golden_indices = golden_cummax(host, 1)
    assert_exact(values.storage(), golden_values)
    assert_exact(indices.storage(), golden_indices)
    np.testing.assert_array_equal(indices.storage(), [[0, 1, 2, 2, 4, 4, 6, 6], [0, 1, 2, 3, 4, 5, 6, 6]])


@pytest.mark.parametrize(
    ("dtype", "values_dtype"), [(F32, F16), (F16, F64), (I32, F32), (BOOL, BOOL), (BF16, F32), (U8, I8)],
    ids=lambda v: NAMES[v],
)  # fmt: skip
def test_cummax_values_cast_to_out_dtype(stream: int, dtype: int, values_dtype: int) -> None:
    """valuesOut may have another listed dtype: the values are Cast to it after the kernel."""
    host = random_array((3, 6), dtype, seed=4, high=100)
    values, indices = zeros(host.shape, values_dtype), zeros(host.shape, I32)
    assert cummax(stream, device_tensor(host, dtype), 0, values, indices)[0] == 0
    golden_values, golden_indices = golden_cummax(host, 0)
    out_dtype = np_dtype(values_dtype)
    if out_dtype == np.bool_:
        golden_values = golden_values != 0
    elif out_dtype.kind == "i":
        golden_values = np.trunc(golden_values).astype(out_dtype)
    assert_exact(values.storage(), golden_values)
    assert_exact(indices.storage(), golden_indices)


def test_cummax_strided_self(stream: int) -> None:
    """A non-contiguous self (explicit strides and offset) is gathered by Contiguous first."""
    storage = random_array((5, 12), F64, seed=5)
    x = device_tensor(storage, F64, shape=(4, 5), strides=(12, 2), offset=1)
    values, indices = zeros((4, 5), F64), zeros((4, 5), I64)
    ret, executor = cummax(stream, x, 1, values, indices)
    assert ret == 0
    assert [launcher.name for launcher in executor.launchers][:2] == ["AsStrided", "Cummax(AI CPU)"]
    view = np.lib.stride_tricks.as_strided(storage.reshape(-1)[1:], (4, 5), (96, 16)).copy()
    golden_values, golden_indices = golden_cummax(view, 1)
    assert_exact(values.storage(), golden_values)
    assert_exact(indices.storage(), golden_indices)


def test_cummax_empty(stream: int) -> None:
    """An empty self succeeds with no workspace and launches nothing."""
    x, values, indices = zeros((3, 0), F32), zeros((3, 0), F32), zeros((3, 0), I64)
    ws, executor, ret = A.aclnnCummaxGetWorkspaceSize(x.handle, 1, values.handle, indices.handle)
    assert (ws, ret) == (0, 0)
    assert executor.launchers == []
    assert run(A.aclnnCummax, ws, executor, stream) == 0


def test_cummax_null_arguments(stream: int) -> None:
    """A null self, valuesOut or indicesOut is 161001."""
    x, values, indices = zeros((3,), F32), zeros((3,), F32), zeros((3,), I64)
    assert cummax(stream, None, 0, values, indices)[0] == NULLPTR  # type: ignore[arg-type]
    assert cummax(stream, x, 0, None, indices)[0] == NULLPTR
    assert cummax(stream, x, 0, values, None)[0] == NULLPTR


@pytest.mark.parametrize(
    ("shape", "dtype", "dim", "values_shape", "values_dtype", "indices_shape", "indices_dtype"),
    [((), F32, 0, (), F32, (), I64), ((), F32, -1, (), F32, (), I64), ((2, 3), F32, 2, (2, 3), F32, (2, 3), I64),
     ((2, 3), F32, -3, (2, 3), F32, (2, 3), I64), ((2, 3), A.ACL_UINT16, 0, (2, 3), F32, (2, 3), I64),
     ((2, 3), F32, 0, (2, 3), A.ACL_COMPLEX64, (2, 3), I64), ((2, 3), F32, 0, (2, 3), F32, (2, 3), F32),
     ((2, 3), F32, 0, (3, 2), F32, (2, 3), I64), ((2, 3), F32, 0, (2, 3), F32, (2, 3, 1), I64),
     ((1,) * 9, F32, 0, (1,) * 9, F32, (1,) * 9, I64), ((2, 3), A.ACL_UINT16, 5, (2, 3), F32, (2, 3), I64)],
    ids=["0d", "0d-minus-one", "dim-high", "dim-low", "self-dtype", "values-dtype", "indices-dtype",
         "values-shape", "indices-shape", "9d", "dim-before-dtype"],
)  # fmt: skip
def test_cummax_invalid(stream: int, shape: tuple, dtype: int, dim: int, values_shape: tuple, values_dtype: int,
                        indices_shape: tuple, indices_dtype: int) -> None:  # fmt: skip
    """A 0-d self, dim out of range, unsupported dtypes and mismatched shapes or rank > 8 are 161002."""
    x = device_tensor(np.zeros(shape, np.float64), dtype)
    values = device_tensor(np.zeros(values_shape, np.float64), values_dtype)
    indices = device_tensor(np.zeros(indices_shape, np.float64), indices_dtype)
    assert A.aclnnCummaxGetWorkspaceSize(x.handle, dim, values.handle, indices.handle) == (0, None, INVALID)


# -- aclnnSearchSorted (extra cases for the existing op) ---------------------------------------
def search_sorted(stream: int, seq: npu.Tensor, x: npu.Tensor, out_int32: bool, right: bool,
                  sorter: npu.Tensor | None, out: npu.Tensor) -> int:  # fmt: skip
    ws, executor, ret = A.aclnnSearchSortedGetWorkspaceSize(seq.handle, x.handle, out_int32, right,
                                                            sorter.handle if sorter else None, out.handle)  # fmt: skip
    if ret == 0:
        assert run(A.aclnnSearchSorted, ws, executor, stream) == 0
    return ret


@pytest.mark.parametrize("right", [False, True], ids=["left", "right"])
@pytest.mark.parametrize("dtype", SEARCH_DTYPES, ids=NAMES.get)
def test_search_sorted_every_dtype(stream: int, dtype: int, right: bool) -> None:
    """Each listed dtype, both sides, against numpy.searchsorted; exact int64 indices."""
    seq = np.sort(random_array((33,), dtype, seed=6, high=20))
    values = random_array((5, 7), dtype, seed=7, high=25)
    out = zeros(values.shape, I64)
    assert search_sorted(stream, device_tensor(seq, dtype), device_tensor(values, dtype), False, right, None, out) == 0
    assert_exact(out.storage(), np.searchsorted(seq, values, side="right" if right else "left"))


def test_search_sorted_rows_sorter_and_int32(stream: int) -> None:
    """Row-wise sequences read through a sorter, with mixed dtypes promoted and an int32 out."""
    rng = np.random.default_rng(8)
    seq = rng.uniform(-5, 5, (3, 10)).astype(np.float32)
    sorter = np.argsort(seq, axis=-1).astype(np.int64)
    values = rng.integers(-5, 5, (3, 4)).astype(np.int32)
    out = zeros(values.shape, I32)
    ret = search_sorted(stream, device_tensor(seq, F32), device_tensor(values, I32), True, True,
                        device_tensor(sorter, I64), out)  # fmt: skip
    assert ret == 0
    ordered = np.take_along_axis(seq, sorter, axis=-1)
    golden = np.stack([np.searchsorted(ordered[i], values[i], side="right") for i in range(3)])
    assert_exact(out.storage(), golden)


def test_search_sorted_scalar_self(stream: int) -> None:
    """A 0-d self is searched as a [1] tensor and written back to the 0-d out."""
    seq = np.array([1.0, 2.0, 4.0, 8.0], np.float64)
    out = zeros((), I64)
    assert search_sorted(stream, device_tensor(seq, F64), device_tensor(np.array(3.0), F64), False, False, None,
                         out) == 0  # fmt: skip
    assert_exact(out.storage(), np.array(2))


def test_search_sorted_empty_sequence_zero_fills(stream: int) -> None:
    """An empty sortedSequence fills out with zeros (ZerosLike)."""
    out = device_tensor(np.full((3,), 7, np.int64), I64)
    assert search_sorted(stream, zeros((0,), F32), zeros((3,), F32), False, False, None, out) == 0
    assert_exact(out.storage(), np.zeros(3))


def test_search_sorted_errors(stream: int) -> None:
    """Null sequence / self / out are 161001; a bad dtype, out dtype, sorter dtype or shape are 161002."""
    seq, x, out = zeros((4,), F32), zeros((3,), F32), zeros((3,), I64)
    assert A.aclnnSearchSortedGetWorkspaceSize(None, x.handle, False, False, None, out.handle)[2] == NULLPTR
    assert A.aclnnSearchSortedGetWorkspaceSize(seq.handle, None, False, False, None, out.handle)[2] == NULLPTR
    assert A.aclnnSearchSortedGetWorkspaceSize(seq.handle, x.handle, False, False, None, None)[2] == NULLPTR
    cases = [
        (zeros((4,), BOOL), x, False, None, out),
        (seq, x, True, None, out),
        (seq, x, False, zeros((4,), I32), out),
        (seq, x, False, zeros((5,), I64), out),
        (seq, x, False, None, zeros((4,), I64)),
        (zeros((2, 4), F32), zeros((3, 3), F32), False, None, zeros((3, 3), I64)),
    ]
    for s, v, int32, sorter, o in cases:
        ret = A.aclnnSearchSortedGetWorkspaceSize(s.handle, v.handle, int32, False, sorter.handle if sorter else None,
                                                  o.handle)  # fmt: skip
        assert ret == (0, None, INVALID)
