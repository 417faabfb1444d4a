"""aclnnReduceSum, aclnnMean and aclnnAmax end to end against float64 numpy goldens.

Every A2 dtype of each op (the AI CPU ones included: ReduceSum int8 / int16 / uint8 / float64 /
complex, ReduceMean on integers / float64 / complex, ReduceMax float64 / int16) over shapes that
exercise the reduce tiling: one element, a row length that is no multiple of anything, reductions
over leading, middle and several axes, a strided input view, and 100 000 kept rows (every vector
core). Empty inputs give 0 (ReduceSum) and NaN (Mean) by Fill, and nothing (Amax). Fidelity notes:
integer sums wrap in their dtype as on the device; the AI CPU integer mean truncates toward zero;
Amax propagates NaN. Then every documented status: 161001 per null argument and the 161002 cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from reduce_helpers import INVALID, NAME, NP, NULLPTR, Npu, as64, check, gaps, int_array, values

from emulator import aclnn, process
from emulator.engine.tiling import PlatformInfo, TensorDesc, TilingContext
from emulator.kernels.math.reduce_common import ReduceOpTilingData, pieces, reduce_tiling
from emulator.meta.dtypes import DataType

A = aclnn
SUM_DTYPES = (A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_INT8, A.ACL_INT16, A.ACL_INT32, A.ACL_INT64, A.ACL_UINT8,
              A.ACL_BOOL, A.ACL_DOUBLE, A.ACL_COMPLEX64, A.ACL_COMPLEX128, A.ACL_BF16)  # fmt: skip
MEAN_DTYPES = (A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16, A.ACL_DOUBLE, A.ACL_INT32, A.ACL_INT64, A.ACL_INT16,
               A.ACL_INT8, A.ACL_UINT8, A.ACL_COMPLEX64, A.ACL_COMPLEX128)  # fmt: skip
AMAX_DTYPES = (A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_DOUBLE, A.ACL_INT8, A.ACL_INT16, A.ACL_INT32, A.ACL_INT64,
               A.ACL_UINT8, A.ACL_BOOL, A.ACL_BF16)  # fmt: skip
# name -> (self shape, dims, keepDims, strided input)
CASES = {
    "one": ((1,), [], False, False),
    "odd_last": ((7, 131), [1], False, False),
    "leading_keep": ((33, 5, 3), [0], True, False),
    "several": ((4, 5, 6, 7), [0, 2], False, False),
    "negative_dims": ((6, 9, 10), [-1, -3], True, False),
    "strided": ((6, 50), [0], False, True),
}
LARGE = ((100_000, 4), [1], False, False)


def _golden_sum(x: np.ndarray, axes: tuple[int, ...] | None, keep: bool, dtype: np.dtype) -> np.ndarray:
    if dtype == np.bool_:
        return np.any(x, axis=axes, keepdims=keep)
    if dtype.kind in "iu":  # exact integer sum, wrapped into the dtype like the device's
        return np.sum(x.astype(np.int64), axis=axes, keepdims=keep).astype(dtype)
    return np.sum(as64(x), axis=axes, keepdims=keep)


def _golden_mean(x: np.ndarray, axes: tuple[int, ...] | None, keep: bool, dtype: np.dtype) -> np.ndarray:
    if dtype.kind in "iu":
        total = np.sum(x.astype(np.int64), axis=axes, keepdims=keep)
        count = x.size // max(total.size, 1)
        return (np.sign(total) * (np.abs(total) // count)).astype(dtype)
    return np.mean(as64(x), axis=axes, keepdims=keep)


def _reduce(npu: Npu, api: str, dtype: int, shape: tuple[int, ...], dims: list[int], keep: bool, strided: bool,
            rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, list[str]]:  # fmt: skip
    """Run one reduction; (actual, golden, launcher names)."""
    np_dtype = NP[dtype]
    x = values(shape, np_dtype, rng)
    axes = tuple(dims) if dims else None
    golden = {"sum": _golden_sum, "mean": _golden_mean}.get(api)
    expected = golden(x, axes, keep, np_dtype) if golden else np.max(x, axis=axes, keepdims=keep)
    expected = np.asarray(expected)
    self_t = npu.tensor(x, dtype, strided=strided)
    out = npu.output(expected.shape, dtype)
    if api == "sum":
        status, names = npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array(dims),
                                keep, dtype, out.handle)  # fmt: skip
    elif api == "mean":
        status, names = npu.run(A.aclnnMeanGetWorkspaceSize, A.aclnnMean, self_t.handle, int_array(dims), keep,
                                dtype, out.handle)  # fmt: skip
    else:
        status, names = npu.run(A.aclnnAmaxGetWorkspaceSize, A.aclnnAmax, self_t.handle, int_array(dims), keep,
                                out.handle)  # fmt: skip
    assert status == 0
    return out.numpy(), expected, names


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("dtype", SUM_DTYPES, ids=[NAME[d] for d in SUM_DTYPES])
def test_reduce_sum(dtype: int, case: str) -> None:
    """ReduceSum of every A2 dtype over the shape cases matches the float64 / exact integer golden."""
    npu = Npu()
    shape, dims, keep, strided = CASES[case]
    actual, golden, names = _reduce(npu, "sum", dtype, shape, dims, keep, strided, np.random.default_rng(1))
    check(actual, golden)
    kernel = "ReduceAny" if dtype == A.ACL_BOOL else "ReduceSum"
    aicpu = dtype in (A.ACL_INT8, A.ACL_INT16, A.ACL_UINT8, A.ACL_DOUBLE, A.ACL_COMPLEX64, A.ACL_COMPLEX128)
    assert (f"{kernel}(AI CPU)" if aicpu else kernel) in names


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("dtype", MEAN_DTYPES, ids=[NAME[d] for d in MEAN_DTYPES])
def test_mean(dtype: int, case: str) -> None:
    """Mean of every A2 dtype (AI Core for F32 / F16 / BF16, AI CPU otherwise) matches the golden."""
    npu = Npu()
    shape, dims, keep, strided = CASES[case]
    actual, golden, names = _reduce(npu, "mean", dtype, shape, dims, keep, strided, np.random.default_rng(2))
    check(actual, golden)
    aicpu = dtype not in (A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16)
    assert ("ReduceMean(AI CPU)" if aicpu else "ReduceMean") in names


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("dtype", AMAX_DTYPES, ids=[NAME[d] for d in AMAX_DTYPES])
def test_amax(dtype: int, case: str) -> None:
    """Amax of every A2 dtype is the exact maximum (BOOL through float32, F64 / I16 on AI CPU)."""
    npu = Npu()
    shape, dims, keep, strided = CASES[case]
    actual, golden, names = _reduce(npu, "amax", dtype, shape, dims, keep, strided, np.random.default_rng(3))
    np.testing.assert_array_equal(actual, golden.astype(actual.dtype))
    assert ("ReduceMax(AI CPU)" if dtype in (A.ACL_DOUBLE, A.ACL_INT16) else "ReduceMax") in names


@pytest.mark.parametrize("api", ["sum", "mean", "amax"])
@pytest.mark.parametrize("dtype", [A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_BF16], ids=["f16", "f32", "bf16"])
def test_large_uses_every_vector_core(api: str, dtype: int) -> None:
    """100 000 kept rows: the reduce tiling spreads them over all 48 vector cores; results match."""
    npu = Npu()
    actual, golden, _ = _reduce(npu, api, dtype, *LARGE, np.random.default_rng(4))
    check(actual, golden)


def test_reduce_tiling_fields() -> None:
    """ReduceOpTilingData: A split over the cores, R walked in UB tiles that fit the unified buffer."""
    soc = process.current().runtime.soc
    platform = PlatformInfo(soc, soc.cube_core_cnt, soc.vector_core_cnt, soc.vector_core_cnt)

    def tile(x_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> tuple[ReduceOpTilingData, int, int]:
        f32 = DataType.DT_FLOAT
        ctx = TilingContext("ReduceSum", (TensorDesc(x_shape, x_shape, f32, 2), TensorDesc((1,), (1,), 9, 2)),
                            (TensorDesc(out_shape, out_shape, f32, 2),), (False,), None, platform)  # fmt: skip
        result = reduce_tiling(ctx)
        return ReduceOpTilingData.from_buffer_copy(result.tiling_bytes), result.block_dim, result.ub_bytes_per_block

    data, blocks, ub = tile((100_000, 4), (100_000,))
    assert blocks == 48 and data.factorATotalCnt == 100_000 and data.factorRTotalCnt == 4 and data.groupR == 1
    assert ub <= soc.ub_size
    data, blocks, ub = tile((3, 1_000_000), (3,))  # rows longer than the UB: R walked in tiles
    assert data.ubFactorR < 1_000_000 and ub <= soc.ub_size and blocks == 3
    assert abs(data.meanVar - 1e-6) < 1e-12


def test_pieces_cover_ranges_in_order() -> None:
    """The hyper-rectangle walk covers any flat range of any shape exactly, in order."""
    shape = (3, 4, 5)
    grid = np.arange(60).reshape(shape)
    for lo, hi in ((0, 60), (7, 53), (13, 14), (20, 40), (59, 60), (1, 19)):
        seen = np.concatenate([grid[index].reshape(-1) for index in pieces(lo, hi, shape)])
        np.testing.assert_array_equal(seen, np.arange(lo, hi))


def test_reduce_sum_dtype_conversions() -> None:
    """dtype BOOL runs ReduceAny on (self != 0); a BOOL self summed into INT64 counts the trues (via FLOAT32)."""
    npu = Npu()
    rng = np.random.default_rng(5)
    x = values((9, 13), NP[A.ACL_FLOAT], rng)
    x[2] = 0
    self_t, out = npu.tensor(x, A.ACL_FLOAT), npu.output((9,), A.ACL_BOOL)
    status, names = npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array([1]),
                            False, A.ACL_BOOL, out.handle)  # fmt: skip
    assert status == 0 and "ReduceAny" in names
    np.testing.assert_array_equal(out.numpy(), np.any(x != 0, axis=1))
    flags = rng.random((40, 30)) < 0.5
    self_t, out = npu.tensor(flags, A.ACL_BOOL), npu.output((30,), A.ACL_INT64)
    status, names = npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array([0]),
                            False, A.ACL_INT64, out.handle)  # fmt: skip
    assert status == 0 and names[:2] == ["Cast", "ReduceSum"]
    np.testing.assert_array_equal(out.numpy(), flags.sum(axis=0))


def test_scalar_self() -> None:
    """A 0-d self with dims [] / [0] / [-1] is cast and copied."""
    npu = Npu()
    for dims in ([], [0], [-1]):
        self_t, out = npu.tensor(np.array(2.5, dtype=np.float32), A.ACL_FLOAT), npu.output((), A.ACL_FLOAT)
        status, _ = npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array(dims),
                            True, A.ACL_FLOAT, out.handle)  # fmt: skip
        assert status == 0 and out.numpy() == np.float32(2.5)
    self_t, out = npu.tensor(np.array(-3, dtype=np.int32), A.ACL_INT32), npu.output((), A.ACL_INT32)
    status, _ = npu.run(A.aclnnAmaxGetWorkspaceSize, A.aclnnAmax, self_t.handle, int_array([0]), False, out.handle)
    assert status == 0 and out.numpy() == -3
    self_t, out = npu.tensor(np.array(1.5, dtype=np.float16), A.ACL_FLOAT16), npu.output((), A.ACL_FLOAT)
    status, _ = npu.run(A.aclnnMeanGetWorkspaceSize, A.aclnnMean, self_t.handle, int_array([]), False,
                        A.ACL_FLOAT, out.handle)  # fmt: skip
    assert status == 0 and out.numpy() == np.float32(1.5)


def test_empty_inputs() -> None:
    """Empty self: ReduceSum fills 0, Mean fills NaN (both by Fill), Amax launches nothing."""
    npu = Npu()
    x = np.zeros((0, 3), dtype=np.float32)
    self_t, out = npu.tensor(x, A.ACL_FLOAT), npu.output((3,), A.ACL_FLOAT)
    status, names = npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array([0]),
                            False, A.ACL_FLOAT, out.handle)  # fmt: skip
    assert status == 0 and names == ["Fill"]
    np.testing.assert_array_equal(out.numpy(), np.zeros(3, np.float32))
    out = npu.output((3,), A.ACL_FLOAT16)
    status, names = npu.run(A.aclnnMeanGetWorkspaceSize, A.aclnnMean, self_t.handle, int_array([0]), False,
                            A.ACL_FLOAT16, out.handle)  # fmt: skip
    assert status == 0 and names == ["Fill"] and np.isnan(out.numpy()).all()
    out = npu.output((0,), A.ACL_FLOAT)
    status, names = npu.run(A.aclnnAmaxGetWorkspaceSize, A.aclnnAmax, self_t.handle, int_array([1]), False,
                            out.handle)  # fmt: skip
    assert status == 0 and names == []


def test_strided_output_and_nan() -> None:
    """A strided out keeps its gaps; Amax and ReduceSum propagate NaN."""
    npu = Npu()
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    x[1, 2] = np.nan
    self_t, out = npu.tensor(x, A.ACL_FLOAT), npu.output((4,), A.ACL_FLOAT, strided=True)
    status, _ = npu.run(A.aclnnAmaxGetWorkspaceSize, A.aclnnAmax, self_t.handle, int_array([1]), False, out.handle)
    assert status == 0
    np.testing.assert_array_equal(out.numpy(), np.max(x, axis=1))
    assert (gaps(out) == 7).all()
    out = npu.output((6,), A.ACL_FLOAT)
    npu.run(A.aclnnReduceSumGetWorkspaceSize, A.aclnnReduceSum, self_t.handle, int_array([0]), False, A.ACL_FLOAT,
            out.handle)  # fmt: skip
    check(out.numpy(), np.sum(x.astype(np.float64), axis=0))


def test_reduce_sum_statuses() -> None:
    """161001 for each null argument; 161002 for the dtype, dims, rank and out-shape problems."""
    npu = Npu()
    x = npu.tensor(np.ones((2, 3), np.float32), A.ACL_FLOAT).handle
    out = npu.output((2,), A.ACL_FLOAT).handle
    dims = int_array([1])
    call = A.aclnnReduceSumGetWorkspaceSize
    assert call(None, dims, False, A.ACL_FLOAT, out)[2] == NULLPTR
    assert call(x, None, False, A.ACL_FLOAT, out)[2] == NULLPTR
    assert call(x, dims, False, A.ACL_FLOAT, None)[2] == NULLPTR
    u16 = npu.tensor(np.ones((2, 3), np.uint16), A.ACL_UINT16).handle
    assert call(u16, dims, False, A.ACL_FLOAT, out)[2] == INVALID  # self dtype
    assert call(x, dims, False, A.ACL_INT32, out)[2] == INVALID  # dtype != out dtype
    assert call(x, dims, False, A.ACL_UINT16, npu.output((2,), A.ACL_UINT16).handle)[2] == INVALID
    assert call(x, int_array([2]), False, A.ACL_FLOAT, out)[2] == INVALID  # dim out of range
    assert call(x, int_array([-3]), False, A.ACL_FLOAT, out)[2] == INVALID
    assert call(x, int_array([1, -1]), False, A.ACL_FLOAT, out)[2] == INVALID  # repeated
    assert call(x, dims, True, A.ACL_FLOAT, out)[2] == INVALID  # out shape: keepDims wants (2, 1)
    nine = npu.tensor(np.ones((1,) * 9, np.float32), A.ACL_FLOAT).handle
    assert call(nine, dims, False, A.ACL_FLOAT, out)[2] == INVALID  # rank 9
    empty = npu.tensor(np.ones((0, 3), np.complex64), A.ACL_COMPLEX64).handle
    c_out = npu.output((3,), A.ACL_COMPLEX64).handle
    assert call(empty, int_array([0]), False, A.ACL_COMPLEX64, c_out)[2] == INVALID  # empty self, complex out


def test_mean_statuses() -> None:
    """161001 for each null argument; 161002 for dtype, castability, dims, rank and out shape."""
    npu = Npu()
    x = npu.tensor(np.ones((2, 3), np.float32), A.ACL_FLOAT).handle
    out = npu.output((2,), A.ACL_FLOAT).handle
    dims = int_array([1])
    call = A.aclnnMeanGetWorkspaceSize
    assert call(None, dims, False, A.ACL_FLOAT, out)[2] == NULLPTR
    assert call(x, None, False, A.ACL_FLOAT, out)[2] == NULLPTR
    assert call(x, dims, False, A.ACL_FLOAT, None)[2] == NULLPTR
    flags = npu.tensor(np.ones((2, 3), np.bool_), A.ACL_BOOL).handle
    assert call(flags, dims, False, A.ACL_FLOAT, out)[2] == INVALID  # BOOL self
    assert call(x, dims, False, A.ACL_INT32, npu.output((2,), A.ACL_INT32).handle)[2] == INVALID  # F32 -> I32
    ints = npu.tensor(np.ones((2, 3), np.int32), A.ACL_INT32).handle
    assert call(ints, dims, False, A.ACL_FLOAT, npu.output((2,), A.ACL_INT32).handle)[2] == INVALID  # F32 -> I32
    assert call(x, int_array([5]), False, A.ACL_FLOAT, out)[2] == INVALID
    assert call(x, int_array([0, 0]), False, A.ACL_FLOAT, out)[2] == INVALID
    assert call(x, int_array([0]), False, A.ACL_FLOAT, out)[2] == INVALID  # out should be (3,)
    nine = npu.tensor(np.ones((1,) * 9, np.float32), A.ACL_FLOAT).handle
    assert call(nine, dims, False, A.ACL_FLOAT, out)[2] == INVALID


def test_amax_statuses() -> None:
    """161001 for each null argument; 161002 for dtype, out dtype, zero-size reduced axis, dims and out shape."""
    npu = Npu()
    x = npu.tensor(np.ones((2, 3), np.float32), A.ACL_FLOAT).handle
    out = npu.output((2,), A.ACL_FLOAT).handle
    dims = int_array([1])
    call = A.aclnnAmaxGetWorkspaceSize
    assert call(None, dims, False, out)[2] == NULLPTR
    assert call(x, None, False, out)[2] == NULLPTR
    assert call(x, dims, False, None)[2] == NULLPTR
    cplx = npu.tensor(np.ones((2, 3), np.complex64), A.ACL_COMPLEX64).handle
    assert call(cplx, dims, False, npu.output((2,), A.ACL_COMPLEX64).handle)[2] == INVALID
    assert call(x, dims, False, npu.output((2,), A.ACL_FLOAT16).handle)[2] == INVALID  # out dtype != self
    empty = npu.tensor(np.ones((2, 0), np.float32), A.ACL_FLOAT).handle
    assert call(empty, dims, False, out)[2] == INVALID  # reducing a zero-size axis
    assert call(empty, int_array([]), False, npu.output((), A.ACL_FLOAT).handle)[2] == INVALID
    assert call(x, int_array([2]), False, out)[2] == INVALID
    assert call(x, int_array([1, 1]), False, out)[2] == INVALID
    assert call(x, dims, True, out)[2] == INVALID  # out shape
    nine = npu.tensor(np.ones((1,) * 9, np.float32), A.ACL_FLOAT).handle
    assert call(nine, dims, False, out)[2] == INVALID
