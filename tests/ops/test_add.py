"""aclnnAdd / aclnnInplaceAdd end to end against a float64 numpy golden.

out = self + alpha * other for every A2 dtype (int16 and float64 run on AI CPU), with broadcasting,
alpha 1 / fractional / integral, the mixed float16 / bfloat16 + float32 pairs, strided inputs and
outputs, an output with a view offset, empty tensors (nothing launched, nothing written) and the
documented statuses: 161001 for a null argument, 161002 for every other parameter problem.
Tolerances: rtol 1e-3 for float16, 1e-2 for bfloat16 (with the matching atol of the precision
standard), near-exact for float32 / float64, exact for integers and bool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.npu import Session

NULLPTR = 161001
INVALID = 161002
BF16 = np.dtype(ml_dtypes.bfloat16)
A = aclnn
NP = {
    A.ACL_FLOAT: np.dtype(np.float32), A.ACL_FLOAT16: np.dtype(np.float16), A.ACL_BF16: BF16,
    A.ACL_INT32: np.dtype(np.int32), A.ACL_INT64: np.dtype(np.int64), A.ACL_INT8: np.dtype(np.int8),
    A.ACL_UINT8: np.dtype(np.uint8), A.ACL_BOOL: np.dtype(np.bool_), A.ACL_DOUBLE: np.dtype(np.float64),
    A.ACL_INT16: np.dtype(np.int16), A.ACL_UINT16: np.dtype(np.uint16),
}  # fmt: skip
TOLERANCE = {np.dtype(np.float16): (1e-3, 2e-3), BF16: (1e-2, 2e-2), np.dtype(np.float32): (1e-6, 1e-6)}
AICPU = (A.ACL_DOUBLE, A.ACL_INT16)


def add(npu: Session, self_t: Any, other: Any, alpha: Any, out: Any) -> tuple[int, Any, int | None]:
    """Both phases of aclnnAdd; returns (phase-1 status, the launcher names, phase-2 status or None)."""
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(self_t, other, alpha, out)
    if ret != 0:
        return ret, executor, None
    launchers = [launcher.name for launcher in executor.launchers]
    workspace = npu.malloc(ws).addr if ws else 0
    status = aclnn.aclnnAdd(workspace, ws, executor, npu.stream)
    assert acl.rt.synchronize_stream(npu.stream) == 0
    return ret, launchers, status


@pytest.fixture
def npu(session: Session) -> Session:
    """The test's emulator.npu session (tests/ops/conftest.py): a device, a stream and aclnn initialised."""
    return session


def sample(dtype: int, shape: Sequence[int], seed: int) -> np.ndarray:
    """Random values that keep every dtype's sums and products (alpha <= 3) in range."""
    rng = np.random.default_rng(seed)
    np_dtype = NP[dtype]
    if np_dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np_dtype == np.uint8:
        return rng.integers(0, 60, shape).astype(np.uint8)
    if np_dtype.kind in "iu":
        return rng.integers(-30, 30, shape).astype(np_dtype)
    return rng.uniform(-2, 2, shape).astype(np_dtype)


def scalar(value: Any) -> Any:
    if isinstance(value, bool):
        return aclnn.aclCreateScalar(value, A.ACL_BOOL)
    if isinstance(value, int):
        return aclnn.aclCreateScalar(value, A.ACL_INT64)
    return aclnn.aclCreateScalar(value, A.ACL_FLOAT)


def golden(x: np.ndarray, y: np.ndarray, alpha: Any, out_dtype: np.dtype) -> np.ndarray:
    """self + alpha * other in float64 (logical or for bool), rounded to the output dtype."""
    if out_dtype == np.bool_:
        return np.logical_or(x, y) if alpha else x.copy()
    exact = x.astype(np.float64) + float(alpha) * y.astype(np.float64)
    return exact.astype(out_dtype)


def ident(value: Any) -> str:
    """A readable test id: dtype names without the ACL_ prefix."""
    if isinstance(value, tuple | list):
        return "-".join(ident(v) for v in value)
    return str(getattr(value, "name", value)).removeprefix("ACL_")


def assert_close(got: np.ndarray, expected: np.ndarray, computed_in: np.dtype | None = None) -> None:
    """Exact for integers and bool; floats within the tolerance of the dtype the kernel computed in."""
    assert got.dtype == expected.dtype
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected)
        return
    rtol, atol = TOLERANCE.get(computed_in or got.dtype, (1e-12, 1e-12))
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol)


def run_add(npu: Session, x: np.ndarray, y: np.ndarray, dtypes: tuple[int, int, int], alpha: Any,
            out_shape: Sequence[int] | None = None) -> tuple[np.ndarray, list[str]]:  # fmt: skip
    """aclnnAdd on contiguous device copies of x and y; returns the output and the launcher names."""
    tx = npu.tensor(x, dtypes[0]).handle
    ty = npu.tensor(y, dtypes[1]).handle
    shape = np.broadcast_shapes(x.shape, y.shape) if out_shape is None else tuple(out_shape)
    po = npu.tensor(np.zeros(shape, NP[dtypes[2]]), dtypes[2])
    to = po.handle
    ret, launchers, status = add(npu, tx, ty, scalar(alpha), to)
    assert (ret, status) == (0, 0)
    return po.storage(), launchers


ALL = [A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16, A.ACL_INT32, A.ACL_INT64, A.ACL_INT8, A.ACL_UINT8, A.ACL_BOOL,
       A.ACL_DOUBLE, A.ACL_INT16]  # fmt: skip


@pytest.mark.parametrize("dtype", ALL, ids=ident)
def test_add_every_dtype(npu: Session, dtype: int) -> None:
    """Same-dtype Add with alpha 1 matches numpy; int16 and float64 run on AI CPU, the rest on AI Core."""
    x, y = sample(dtype, (4, 33), 1), sample(dtype, (4, 33), 2)
    alpha = 1 if NP[dtype].kind in "biu" else 1.0
    got, launchers = run_add(npu, x, y, (dtype, dtype, dtype), alpha)
    assert_close(got, golden(x, y, alpha, NP[dtype]))
    assert launchers == (["Add(AI CPU)"] if dtype in AICPU else ["Add"])


@pytest.mark.parametrize(
    ("dtype", "alpha", "kernels"),
    [
        (A.ACL_FLOAT, 2.5, ["Axpy"]),
        (A.ACL_FLOAT16, 2.5, ["Axpy"]),
        (A.ACL_BF16, 2.5, ["Mul", "Add"]),
        (A.ACL_DOUBLE, 2.5, ["Mul(AI CPU)", "Add(AI CPU)"]),
        (A.ACL_FLOAT, -0.5, ["Axpy"]),
        (A.ACL_INT32, 3, ["Axpy"]),
        (A.ACL_INT64, -2, ["Mul", "Add"]),
        (A.ACL_INT8, 2, ["Mul", "Add"]),
        (A.ACL_UINT8, 3, ["Mul", "Add"]),
        (A.ACL_INT16, 2, ["Mul(AI CPU)", "Add(AI CPU)"]),
        (A.ACL_FLOAT, 2, ["Axpy"]),  # an integral alpha on a float tensor
        (A.ACL_BOOL, True, ["Add"]),  # a bool alpha of 1: plain Add (logical or)
    ],
    ids=ident,
)
def test_add_with_alpha(npu: Session, dtype: int, alpha: Any, kernels: list[str]) -> None:
    """alpha != 1 goes through Axpy (float32 / float16 / int32) or Mul then Add, and matches numpy."""
    x, y = sample(dtype, (3, 50), 3), sample(dtype, (3, 50), 4)
    got, launchers = run_add(npu, x, y, (dtype, dtype, dtype), alpha)
    assert_close(got, golden(x, y, alpha, NP[dtype]))
    assert launchers == kernels


@pytest.mark.parametrize(
    ("x_shape", "y_shape"),
    [((3, 1, 4), (2, 1)), ((5, 4), (4,)), ((2, 3), ()), ((), (2, 3)), ((1,), (7, 1)), ((2, 1, 3, 1), (1, 4, 1, 5))],
)
def test_add_broadcasts(npu: Session, x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    """Inputs broadcast NumPy-style into the out shape."""
    x, y = sample(A.ACL_FLOAT, x_shape, 5), sample(A.ACL_FLOAT, y_shape, 6)
    got, _ = run_add(npu, x, y, (A.ACL_FLOAT,) * 3, 1.5)
    assert_close(got, golden(x, y, 1.5, np.dtype(np.float32)))


@pytest.mark.parametrize(
    ("dtypes", "alpha", "kernels"),
    [
        ((A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_FLOAT), 1.0, ["Add"]),  # the mixed-precision kernel
        ((A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_FLOAT), 1.0, ["Add"]),
        ((A.ACL_BF16, A.ACL_FLOAT, A.ACL_FLOAT), 1.0, ["Add"]),
        ((A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_FLOAT), 2.0, ["Cast", "Axpy"]),
        ((A.ACL_FLOAT, A.ACL_BF16, A.ACL_FLOAT), 0.5, ["Cast", "Axpy"]),
        ((A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_FLOAT16), 1.0, ["Add", "Cast"]),  # float32 result cast to out
        ((A.ACL_INT32, A.ACL_FLOAT16, A.ACL_FLOAT), 1.0, ["Cast", "Add", "Cast"]),  # int32 + f16 computes in f16
    ],
    ids=ident,
)
def test_add_mixed_dtypes(npu: Session, dtypes: tuple[int, int, int], alpha: float, kernels: list[str]) -> None:
    """Mixed float16 / bfloat16 + float32 (and int + float) pairs promote, compute and cast into out."""
    x, y = sample(dtypes[0], (4, 20), 7), sample(dtypes[1], (4, 20), 8)
    got, launchers = run_add(npu, x, y, dtypes, alpha)
    computed_in = np.dtype(np.float16) if A.ACL_INT32 in dtypes else None
    assert_close(got, golden(x, y, alpha, NP[dtypes[2]]), computed_in)
    assert launchers == kernels


def test_add_strided_input(npu: Session) -> None:
    """A transposed (non-contiguous) self is gathered first and added correctly."""
    base = sample(A.ACL_FLOAT, (4, 6), 9)
    tx = npu.tensor(base, A.ACL_FLOAT, shape=[6, 4], strides=[1, 6]).handle
    y = sample(A.ACL_FLOAT, (6, 4), 10)
    ty = npu.tensor(y, A.ACL_FLOAT).handle
    po = npu.tensor(np.zeros((6, 4), np.float32), A.ACL_FLOAT)
    to = po.handle
    ret, launchers, status = add(npu, tx, ty, scalar(2.0), to)
    assert (ret, status) == (0, 0)
    assert launchers == ["AsStrided", "Axpy"]
    assert_close(po.storage(), golden(base.T, y, 2.0, np.dtype(np.float32)))


def test_add_strided_out(npu: Session) -> None:
    """A transposed out view is written through ViewCopy into the right storage positions."""
    x, y = sample(A.ACL_FLOAT, (6, 4), 11), sample(A.ACL_FLOAT, (6, 4), 12)
    tx = npu.tensor(x, A.ACL_FLOAT).handle
    ty = npu.tensor(y, A.ACL_FLOAT).handle
    po = npu.tensor(np.zeros((4, 6), np.float32), A.ACL_FLOAT, shape=[6, 4], strides=[1, 6])
    to = po.handle
    ret, launchers, status = add(npu, tx, ty, scalar(1.0), to)
    assert (ret, status) == (0, 0)
    assert launchers == ["Add", "ViewCopy"]
    storage = po.storage()
    assert_close(storage.T, golden(x, y, 1.0, np.dtype(np.float32)))


def test_add_out_with_view_offset(npu: Session) -> None:
    """An out view at offset 4 of a 20-element storage gets the result; the rest of the storage is untouched."""
    x, y = sample(A.ACL_FLOAT, (2, 4), 13), sample(A.ACL_FLOAT, (2, 4), 14)
    tx = npu.tensor(x, A.ACL_FLOAT).handle
    ty = npu.tensor(y, A.ACL_FLOAT).handle
    backing = np.full(20, -7.0, np.float32)
    po = npu.tensor(backing, A.ACL_FLOAT, shape=[2, 4], strides=[4, 1], offset=4)
    to = po.handle
    ret, _, status = add(npu, tx, ty, scalar(1.0), to)
    assert (ret, status) == (0, 0)
    storage = po.storage()
    assert_close(storage[4:12].reshape(2, 4), golden(x, y, 1.0, np.dtype(np.float32)))
    np.testing.assert_array_equal(storage[:4], backing[:4])
    np.testing.assert_array_equal(storage[12:], backing[12:])


@pytest.mark.parametrize(("x_shape", "y_shape"), [((0, 3), (0, 3)), ((0, 3), (3,)), ((2, 0), (1,))])
def test_add_empty_tensors_write_nothing(npu: Session, x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    """An empty self or other: workspace 0, no launcher, phase 2 succeeds, out memory untouched."""
    tx = npu.tensor(np.zeros(x_shape, np.float32), A.ACL_FLOAT).handle
    ty = npu.tensor(np.zeros(y_shape, np.float32), A.ACL_FLOAT).handle
    out_shape = list(np.broadcast_shapes(x_shape, y_shape))
    sentinel = np.full(8, 3.0, np.float32)
    po = npu.tensor(sentinel, A.ACL_FLOAT)
    to = aclnn.aclCreateTensor(out_shape, len(out_shape), A.ACL_FLOAT, [1] * len(out_shape), 0, A.ACL_FORMAT_ND,
                               out_shape, len(out_shape), po.addr)  # fmt: skip
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tx, ty, scalar(1.0), to)
    assert (ws, ret) == (0, 0)
    assert executor.launchers == []
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    np.testing.assert_array_equal(po.storage(), sentinel)


@pytest.mark.parametrize("null", ["self", "other", "alpha", "out"])
def test_add_null_argument_is_161001(npu: Session, null: str) -> None:
    """A null self, other, alpha or out returns 161001 and no executor."""
    args = {
        "self": npu.tensor(np.ones(4, np.float32), A.ACL_FLOAT).handle,
        "other": npu.tensor(np.ones(4, np.float32), A.ACL_FLOAT).handle,
        "alpha": scalar(1.0),
        "out": npu.tensor(np.ones(4, np.float32), A.ACL_FLOAT).handle,
    }
    args[null] = None
    assert aclnn.aclnnAddGetWorkspaceSize(*args.values()) == (0, None, NULLPTR)


@pytest.mark.parametrize(
    ("x", "y", "out", "alpha"),
    [
        pytest.param((A.ACL_UINT16, (4,)), (A.ACL_UINT16, (4,)), (A.ACL_UINT16, (4,)), 1, id="uint16"),
        pytest.param((A.ACL_UINT16, (4,)), (A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (4,)), 1.0, id="promotion_undefined"),
        pytest.param((A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (5,)), 1.0, id="out_shape"),
        pytest.param((A.ACL_FLOAT, (2, 4)), (A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (4,)), 1.0, id="out_not_broadcast"),
        pytest.param((A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (3,)), (A.ACL_FLOAT, (4,)), 1.0, id="no_broadcast"),
        pytest.param((A.ACL_FLOAT, (4,)), (A.ACL_FLOAT, (4,)), (A.ACL_INT32, (4,)), 1.0, id="float_into_int32"),
        pytest.param((A.ACL_INT32, (4,)), (A.ACL_INT32, (4,)), (A.ACL_INT32, (4,)), 1.5, id="float_alpha_int"),
        pytest.param((A.ACL_INT32, (4,)), (A.ACL_INT32, (4,)), (A.ACL_BOOL, (4,)), 1, id="int_into_bool"),
        pytest.param((A.ACL_FLOAT, (1,) * 9), (A.ACL_FLOAT, (1,) * 9), (A.ACL_FLOAT, (1,) * 9), 1.0, id="rank9"),
    ],
)
def test_add_invalid_parameters_are_161002(npu: Session, x: tuple, y: tuple, out: tuple, alpha: Any) -> None:
    """Unsupported dtype, undefined promotion, wrong out shape or dtype, bad alpha and rank 9 return 161002."""
    tensors = [npu.tensor(np.zeros(shape, np.float32), dtype).handle for dtype, shape in (x, y, out)]
    assert aclnn.aclnnAddGetWorkspaceSize(tensors[0], tensors[1], scalar(alpha), tensors[2]) == (0, None, INVALID)
    assert process.current().registry.count("executor") == 0


def test_add_rank_8_is_accepted(npu: Session) -> None:
    """Rank 8 is the largest accepted rank."""
    x, y = sample(A.ACL_FLOAT, (1, 2, 1, 2, 1, 2, 1, 2), 15), sample(A.ACL_FLOAT, (2, 1, 2, 1, 2, 1, 2, 1), 16)
    got, _ = run_add(npu, x, y, (A.ACL_FLOAT,) * 3, 1.0)
    assert_close(got, golden(x, y, 1.0, np.dtype(np.float32)))


@pytest.mark.parametrize(("dtype", "alpha"), [(A.ACL_FLOAT, 2.0), (A.ACL_FLOAT16, 1.0), (A.ACL_INT32, 3),
                                              (A.ACL_DOUBLE, 0.5)], ids=ident)  # fmt: skip
def test_inplace_add(npu: Session, dtype: int, alpha: Any) -> None:
    """aclnnInplaceAdd writes selfRef + alpha * other (other broadcast) back into selfRef."""
    x, y = sample(dtype, (3, 16), 17), sample(dtype, (16,), 18)
    px = npu.tensor(x, dtype)
    tx = px.handle
    ty = npu.tensor(y, dtype).handle
    ws, executor, ret = aclnn.aclnnInplaceAddGetWorkspaceSize(tx, ty, scalar(alpha))
    assert ret == 0
    workspace = 0
    if ws:
        workspace, status = acl.rt.malloc(ws, 0)
        assert status == 0
    assert aclnn.aclnnInplaceAdd(workspace, ws, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    assert_close(px.storage(), golden(x, y, alpha, NP[dtype]))


def test_inplace_add_errors(npu: Session) -> None:
    """Inplace: a null argument is 161001; a broadcast shape other than selfRef's is 161002."""
    small = npu.tensor(np.zeros(4, np.float32), A.ACL_FLOAT).handle
    big = npu.tensor(np.zeros((3, 4), np.float32), A.ACL_FLOAT).handle
    assert aclnn.aclnnInplaceAddGetWorkspaceSize(None, big, scalar(1.0)) == (0, None, NULLPTR)
    assert aclnn.aclnnInplaceAddGetWorkspaceSize(big, None, scalar(1.0)) == (0, None, NULLPTR)
    assert aclnn.aclnnInplaceAddGetWorkspaceSize(big, small, None) == (0, None, NULLPTR)
    assert aclnn.aclnnInplaceAddGetWorkspaceSize(small, big, scalar(1.0)) == (0, None, INVALID)
