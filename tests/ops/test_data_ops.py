"""The data-movement ops: aclnnPermute, aclnnInplaceCopy, aclnnInplaceFillScalar, aclnnInplaceZero, aclnnCat.

Emulates these five ops-math L2 APIs on A2 (Ascend910B): every supported dtype, the shapes of the
case-generation rules (empty, one element, a size that is not a multiple of the 32-byte block,
broadcast, non-contiguous views with explicit strides, 100 000 elements so every block works), the
AI Core / AI CPU dispatch of their L0 kernels, and every documented status. Outputs are pure data
movement (or C-style casts for InplaceCopy), so they are checked with the precision standard *and*
bit for bit against a float64 numpy golden cast to the output dtype. A non-contiguous (strided)
output or selfRef is written by the framework ViewCopy kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from device_helpers import device_tensor

from emulator import acl, aclnn, npu
from emulator.meta.dtypes import numpy_dtype
from emulator.testing.precision import assert_precision

H2D, D2H = 1, 2
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103

A = aclnn
F32, F16, F64, BF16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_DOUBLE, A.ACL_BF16
I8, I16, I32, I64 = A.ACL_INT8, A.ACL_INT16, A.ACL_INT32, A.ACL_INT64
U8, U16, U32, U64 = A.ACL_UINT8, A.ACL_UINT16, A.ACL_UINT32, A.ACL_UINT64
BOOL, C64, C128 = A.ACL_BOOL, A.ACL_COMPLEX64, A.ACL_COMPLEX128
NAMES = {F32: "f32", F16: "f16", F64: "f64", BF16: "bf16", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
         U8: "u8", U16: "u16", U32: "u32", U64: "u64", BOOL: "bool", C64: "c64", C128: "c128"}  # fmt: skip
ALL_DTYPES = (F32, F16, F64, U64, I64, U32, I32, U16, I16, U8, I8, BOOL, C64, C128, BF16)
ZERO_DTYPES = (I8, I32, I64, U8, F16, F32, BOOL, F64, I16, U16, C128, C64, BF16)
CAT_DTYPES = (F32, I32, I64, F16, I16, I8, U8, F64, C64, BF16, BOOL)


# -- shared helpers of the family's tests ------------------------------------------------------
def np_dtype(acl_dtype: int) -> np.dtype:
    dtype = numpy_dtype(acl_dtype)
    assert dtype is not None
    return dtype


def random_array(shape: Sequence[int], acl_dtype: int, seed: int = 0) -> np.ndarray:
    """Values of the precision standard's generator range ([-5, 5] floats, small integers, random bools)."""
    rng = np.random.default_rng(seed)
    dtype = np_dtype(acl_dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if dtype.kind == "c":
        return (rng.uniform(-5, 5, shape) + 1j * rng.uniform(-5, 5, shape)).astype(dtype)
    if dtype.kind == "u":
        return rng.integers(0, 200, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.uniform(-5, 5, shape).astype(dtype)


def strided_view(storage: np.ndarray, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> np.ndarray:
    """The numpy view a (shape, element strides, offset) aclTensor describes over ``storage``."""
    flat = storage.reshape(-1)[offset:]
    size = flat.itemsize
    return np.lib.stride_tricks.as_strided(flat, tuple(shape), tuple(s * size for s in strides)).copy()


def run(phase2: Callable[..., int], workspace_size: int, executor: Any, stream: int) -> int:
    """Phase 2 with a workspace of the asked size, then synchronize the stream; phase 2's status."""
    workspace = 0
    if workspace_size:
        workspace, ret = acl.rt.malloc(workspace_size, 0)
        assert ret == 0
    status = phase2(workspace, workspace_size, executor, stream)
    assert acl.rt.synchronize_stream(stream) == 0
    return status


def launched(executor: Any) -> list[str]:
    """The kernels the executor recorded, in order ("Op" on AI Core, "Op(AI CPU)" on AI CPU)."""
    return [launcher.name for launcher in executor.launchers]


def assert_exact(actual: np.ndarray, golden: np.ndarray) -> None:
    """The precision standard, then bit-exactness against the golden rounded to the output dtype."""
    golden = np.asarray(golden)
    assert_precision(actual, golden)
    expected = golden.astype(actual.dtype) if golden.dtype != actual.dtype else golden
    assert actual.shape == expected.shape
    assert actual.tobytes() == np.ascontiguousarray(expected).tobytes()


def c_cast(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A C-style conversion through float64: bool is "non-zero", float to integer truncates."""
    if dtype == np.bool_:
        return values != 0
    if values.dtype.kind in "fV" and dtype.kind in "iu":
        return np.trunc(values.astype(np.float64)).astype(dtype)
    if values.dtype.kind == "V":
        return values.astype(np.float64).astype(dtype)
    return values.astype(dtype)


def zeros(shape: Sequence[int], acl_dtype: int) -> npu.Tensor:
    return device_tensor(np.zeros(shape, np_dtype(acl_dtype)), acl_dtype)


# -- aclnnPermute ------------------------------------------------------------------------------
def permute(stream: int, x: npu.Tensor, dims: Sequence[int], out: npu.Tensor) -> tuple[int, Any]:
    """Both phases of aclnnPermute; (phase-1 status, executor)."""
    ws, executor, ret = A.aclnnPermuteGetWorkspaceSize(x.handle, A.aclCreateIntArray(list(dims), len(dims)),
                                                       out.handle)  # fmt: skip
    if ret == 0:
        assert run(A.aclnnPermute, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=NAMES.get)
def test_permute_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype is permuted bit-exactly; float64 and complex run the AI CPU Transpose."""
    host = random_array((2, 3, 5), dtype)
    out = zeros((5, 2, 3), dtype)
    ret, executor = permute(stream, device_tensor(host, dtype), (2, 0, 1), out)
    assert ret == 0
    assert_exact(out.storage(), host.transpose(2, 0, 1))
    engine = "Transpose(AI CPU)" if dtype in (F64, C64, C128) else "Transpose"
    assert launched(executor) == [engine]


@pytest.mark.parametrize(
    ("shape", "dims"),
    [((1,), (0,)), ((1, 1, 1), (2, 1, 0)), ((), ()), ((7, 13, 5), (1, 2, 0)), ((3, 4), (-1, -2)),
     ((2, 3, 2, 3, 2, 1, 2, 2), (7, 6, 5, 4, 3, 2, 1, 0)), ((100, 1000), (1, 0))],
    ids=["one", "ones3d", "0d", "odd", "negative", "8d", "large"],
)  # fmt: skip
def test_permute_shapes(stream: int, shape: tuple[int, ...], dims: tuple[int, ...]) -> None:
    """Scalars, one element, sizes off the block size, negative dims, 8-D and 100 000 elements."""
    host = random_array(shape, F32, seed=1)
    golden = np.transpose(host, dims) if shape else host
    out = zeros(golden.shape, F32)
    ret, _ = permute(stream, device_tensor(host, F32), dims, out)
    assert ret == 0
    assert_exact(out.storage(), golden)


def test_permute_strided_input(stream: int) -> None:
    """A non-contiguous self (explicit strides and offset) is gathered by Contiguous, then transposed."""
    storage = random_array((6, 10), I32, seed=2)
    x = device_tensor(storage, I32, shape=(3, 4), strides=(20, 2), offset=1)
    out = zeros((4, 3), I32)
    ret, executor = permute(stream, x, (1, 0), out)
    assert ret == 0
    assert launched(executor) == ["AsStrided", "Transpose"]
    assert_exact(out.storage(), strided_view(storage, (3, 4), (20, 2), 1).T)


def test_permute_strided_output(stream: int) -> None:
    """The permuted result is scattered into a strided out view; the rest of out's storage is untouched."""
    host = random_array((2, 3), F32, seed=3)
    storage = np.full((3, 4), -1.0, np.float32)
    out = device_tensor(storage, F32, shape=(3, 2), strides=(4, 2))
    ret, _ = permute(stream, device_tensor(host, F32), (1, 0), out)
    assert ret == 0
    golden = storage.copy()
    golden[:, ::2][:, :2] = host.T
    assert_exact(out.storage(), golden)


@pytest.mark.parametrize(
    ("dtype", "shape", "dims", "kernel"),
    [(F16, (4, 8, 16), (0, 2, 1), "TransposeV2"), (F32, (4, 8, 16), (1, 0, 2), "TransposeV2"),
     (BF16, (4, 200, 16), (0, 2, 1), "Transpose"), (I32, (4, 8, 16), (0, 2, 1), "Transpose")],
)  # fmt: skip
def test_permute_transpose_v2_path(stream: int, dtype: int, shape: tuple, dims: tuple, kernel: str) -> None:
    """A2's TransposeV2 serves small float 3-D (0,2,1) / (1,0,2) cases; other shapes and dtypes use Transpose."""
    host = random_array(shape, dtype, seed=4)
    out = zeros(np.transpose(host, dims).shape, dtype)
    ret, executor = permute(stream, device_tensor(host, dtype), dims, out)
    assert ret == 0
    assert launched(executor) == [kernel]
    assert_exact(out.storage(), np.transpose(host, dims))


def test_permute_empty(stream: int) -> None:
    """An empty self with an empty out succeeds with no workspace and launches nothing."""
    x = zeros((0, 3), F32)
    out = device_tensor(np.full((3, 0), 7.0, np.float32), F32)
    ws, executor, ret = A.aclnnPermuteGetWorkspaceSize(x.handle, A.aclCreateIntArray([1, 0], 2), out.handle)
    assert (ws, ret) == (0, 0)
    assert launched(executor) == []
    assert run(A.aclnnPermute, ws, executor, stream) == 0


def test_permute_empty_self_needs_empty_out(stream: int) -> None:
    """An empty self with a non-empty out fails in the graph step: 561103."""
    x = zeros((0, 3), F32)
    out = zeros((3, 2), F32)
    assert permute(stream, x, (1, 0), out)[0] == INNER_NULLPTR


def test_permute_null_arguments(stream: int) -> None:
    """A null self, dims or out is 161001."""
    x, out = zeros((2, 3), F32), zeros((3, 2), F32)
    dims = A.aclCreateIntArray([1, 0], 2)
    assert A.aclnnPermuteGetWorkspaceSize(None, dims, out.handle)[2] == NULLPTR
    assert A.aclnnPermuteGetWorkspaceSize(x.handle, None, out.handle)[2] == NULLPTR
    assert A.aclnnPermuteGetWorkspaceSize(x.handle, dims, None)[2] == NULLPTR


@pytest.mark.parametrize(
    ("self_shape", "self_dtype", "out_shape", "out_dtype", "dims"),
    [((2, 3), A.ACL_COMPLEX32, (3, 2), A.ACL_COMPLEX32, (1, 0)), ((2, 3), F32, (3, 2), F16, (1, 0)),
     ((2, 3), F32, (3, 2, 1), F32, (1, 0)), ((2, 3), F32, (3, 2), F32, (1, 0, 2)), ((2, 3), F32, (3, 2), F32, (1, 1)),
     ((2, 3), F32, (3, 2), F32, (0, -2)), ((2, 3), F32, (3, 2), F32, (2, 0)), ((2, 3), F32, (3, 2), F32, (1, -3)),
     ((1,) * 9, F32, (1,) * 9, F32, tuple(range(9))), ((2, 3), F32, (2, 3), F32, (1, 0))],
    ids=["dtype", "out-dtype", "out-rank", "dims-len", "duplicate", "duplicate-negative", "too-big", "too-small",
         "9d", "out-shape"],
)  # fmt: skip
def test_permute_invalid(stream: int, self_shape: tuple, self_dtype: int, out_shape: tuple, out_dtype: int,
                         dims: tuple) -> None:  # fmt: skip
    """Unsupported or differing dtypes, wrong ranks, bad dims and a wrong out shape are 161002."""
    x = device_tensor(np.zeros(self_shape, np.float32), self_dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    ws, executor, ret = A.aclnnPermuteGetWorkspaceSize(x.handle, A.aclCreateIntArray(list(dims), len(dims)),
                                                       out.handle)  # fmt: skip
    assert (ws, executor, ret) == (0, None, INVALID)


# -- aclnnInplaceCopy --------------------------------------------------------------------------
def inplace_copy(stream: int, dst: npu.Tensor, src: npu.Tensor) -> tuple[int, Any]:
    ws, executor, ret = A.aclnnInplaceCopyGetWorkspaceSize(dst.handle, src.handle)
    if ret == 0:
        assert run(A.aclnnInplaceCopy, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=NAMES.get)
def test_copy_every_dtype(stream: int, dtype: int) -> None:
    """Same-dtype, same-shape copies of each A2 dtype are one TensorMove and bit-exact."""
    src = random_array((3, 7), dtype, seed=5)
    dst = zeros((3, 7), dtype)
    ret, executor = inplace_copy(stream, dst, device_tensor(src, dtype))
    assert ret == 0
    assert launched(executor) == ["TensorMove"]
    assert_exact(dst.storage(), src)


@pytest.mark.parametrize(
    ("dst_dtype", "src_dtype", "engine"),
    [(F32, I64, "Cast"), (F16, F32, "Cast"), (BF16, F32, "Cast"), (I32, F32, "Cast"), (BOOL, F32, "Cast"),
     (F64, F16, "Cast(AI CPU)"), (U8, I32, "Cast"), (I16, BF16, "Cast(AI CPU)"), (C64, F32, "Cast(AI CPU)"),
     (U64, I8, "Cast(AI CPU)")],
    ids=lambda v: NAMES.get(v, v),
)  # fmt: skip
def test_copy_casts(stream: int, dst_dtype: int, src_dtype: int, engine: str) -> None:
    """A dtype change is a C-style Cast (truncating float to integer), on AI Core or AI CPU by the pair table."""
    src = random_array((5, 9), src_dtype, seed=6)
    if np_dtype(dst_dtype).kind == "u":
        src = np.abs(src.astype(np.float64)).astype(src.dtype)
    dst = zeros((5, 9), dst_dtype)
    ret, executor = inplace_copy(stream, dst, device_tensor(src, src_dtype))
    assert ret == 0
    assert launched(executor)[0] == engine
    assert_exact(dst.storage(), c_cast(src, np_dtype(dst_dtype)))


@pytest.mark.parametrize(
    ("dst_shape", "src_shape", "dtype", "engine"),
    [((3, 5), (5,), F32, "BroadcastTo"), ((3, 5), (3, 1), I64, "BroadcastTo"), ((4, 3, 2), (), BF16, "BroadcastTo"),
     ((2, 7), (1, 7), F64, "BroadcastTo(AI CPU)"), ((2, 7), (7,), I16, "BroadcastTo(AI CPU)"),
     ((2, 3, 33), (3, 1), U8, "BroadcastTo")],
)  # fmt: skip
def test_copy_broadcast(stream: int, dst_shape: tuple, src_shape: tuple, dtype: int, engine: str) -> None:
    """A src that broadcasts to selfRef's shape is expanded by BroadcastTo (AI CPU for float64 / int16)."""
    src = random_array(src_shape, dtype, seed=7)
    dst = zeros(dst_shape, dtype)
    ret, executor = inplace_copy(stream, dst, device_tensor(src, dtype))
    assert ret == 0
    assert launched(executor) == [engine]
    assert_exact(dst.storage(), np.broadcast_to(src, dst_shape))


@pytest.mark.parametrize(
    ("shape", "dtype"), [((1,), F16), ((), I8), ((7, 13), F32), ((100_000,), F16), ((1000, 100), BOOL)],
    ids=["one", "0d", "odd", "large", "large-bool"],
)  # fmt: skip
def test_copy_shapes(stream: int, shape: tuple, dtype: int) -> None:
    """One element, a 0-d tensor, sizes off the block size and 100 000 elements copy exactly."""
    src = random_array(shape, dtype, seed=8)
    dst = zeros(shape, dtype)
    assert inplace_copy(stream, dst, device_tensor(src, dtype))[0] == 0
    assert_exact(dst.storage(), src)


def test_copy_strided_src_with_cast_and_broadcast(stream: int) -> None:
    """A strided src is gathered, cast and broadcast before it lands in selfRef."""
    storage = random_array((4, 9), I32, seed=9)
    src = device_tensor(storage, I32, shape=(1, 4), strides=(9, 2), offset=1)
    dst = zeros((3, 4), F32)
    ret, executor = inplace_copy(stream, dst, src)
    assert ret == 0
    assert launched(executor) == ["AsStrided", "Cast", "BroadcastTo"]
    golden = np.broadcast_to(strided_view(storage, (1, 4), (9, 2), 1), (3, 4)).astype(np.float32)
    assert_exact(dst.storage(), golden)


def test_copy_into_strided_self(stream: int) -> None:
    """selfRef may be a strided view: only its elements change."""
    storage = np.full((4, 6), -3, np.int32)
    dst = device_tensor(storage, I32, shape=(4, 3), strides=(6, 2))
    src = random_array((4, 3), I32, seed=10)
    assert inplace_copy(stream, dst, device_tensor(src, I32))[0] == 0
    golden = storage.copy()
    golden[:, ::2] = src
    assert_exact(dst.storage(), golden)


@pytest.mark.parametrize(("dst_shape", "src_shape"), [((0, 5), (5,)), ((2, 0), (2, 0)), ((3, 0), (1,))])
def test_copy_empty(stream: int, dst_shape: tuple, src_shape: tuple) -> None:
    """An empty selfRef or src succeeds with no workspace and launches nothing."""
    ws, executor, ret = A.aclnnInplaceCopyGetWorkspaceSize(zeros(dst_shape, F32).handle, zeros(src_shape, F32).handle)
    assert (ws, ret) == (0, 0)
    assert launched(executor) == []
    assert run(A.aclnnInplaceCopy, ws, executor, stream) == 0


def test_copy_null_arguments(stream: int) -> None:
    """A null selfRef or src is 161001."""
    t = zeros((2,), F32)
    assert A.aclnnInplaceCopyGetWorkspaceSize(None, t.handle)[2] == NULLPTR
    assert A.aclnnInplaceCopyGetWorkspaceSize(t.handle, None)[2] == NULLPTR


@pytest.mark.parametrize(
    ("dst_shape", "dst_dtype", "src_shape", "src_dtype"),
    [((2, 3), A.ACL_COMPLEX32, (2, 3), F32), ((2, 3), F32, (2, 3), A.ACL_STRING), ((1,) * 9, F32, (1,), F32),
     ((3,), F32, (1,) * 9, F32), ((3, 5), F32, (4,), F32), ((1, 5), F32, (3, 5), F32)],
    ids=["self-dtype", "src-dtype", "self-9d", "src-9d", "not-broadcastable", "broadcast-grows-self"],
)  # fmt: skip
def test_copy_invalid(stream: int, dst_shape: tuple, dst_dtype: int, src_shape: tuple, src_dtype: int) -> None:
    """Unsupported dtypes, rank > 8 and a src that does not broadcast to exactly selfRef's shape are 161002."""
    dst = device_tensor(np.zeros(dst_shape, np.float32), dst_dtype)
    src = device_tensor(np.zeros(src_shape, np.float32), src_dtype)
    assert A.aclnnInplaceCopyGetWorkspaceSize(dst.handle, src.handle) == (0, None, INVALID)


# -- aclnnInplaceFillScalar --------------------------------------------------------------------
FILL_CASES = [(F32, 2.5, F32), (I32, 7, I64), (I64, -9, I64), (F16, 1.25, F32), (I16, 300, I32), (I8, -5, I8),
              (U8, 200, U8), (F64, 0.1, F64), (BOOL, True, BOOL), (C64, 1 - 2j, C64), (C128, 3 + 1j, C128),
              (BF16, -2.75, F32), (U16, 60000, U16), (U32, 4_000_000_000, U32), (U64, 2**63 + 5, U64),
              (I32, 2.7, F32), (BOOL, 0.5, F32), (F32, 3 + 4j, C64), (C64, -1.5, F64)]  # fmt: skip
FILL_AICPU = (F64, I16, U8, C64, C128)


def fill(stream: int, dst: npu.Tensor, value: Any, value_dtype: int) -> tuple[int, Any]:
    scalar = A.aclCreateScalar(value, value_dtype)
    ws, executor, ret = A.aclnnInplaceFillScalarGetWorkspaceSize(dst.handle, scalar)
    if ret == 0:
        assert run(A.aclnnInplaceFillScalar, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize(("dtype", "value", "value_dtype"), FILL_CASES,
                         ids=[f"{NAMES[d]}-{v}-{NAMES[s]}" for d, v, s in FILL_CASES])  # fmt: skip
def test_fill_every_dtype(stream: int, dtype: int, value: Any, value_dtype: int) -> None:
    """The scalar is converted C-style to selfRef's dtype and written everywhere (AI CPU Fill: f64/i16/u8/complex)."""
    dst = zeros((3, 11), dtype)
    ret, executor = fill(stream, dst, value, value_dtype)
    assert ret == 0
    assert launched(executor) == ["Fill(AI CPU)" if dtype in FILL_AICPU else "Fill"]
    scalar = np.array(value).astype(np_dtype(value_dtype))
    if scalar.dtype.kind == "c" and np_dtype(dtype).kind != "c":
        scalar = scalar.real
    assert_exact(dst.storage(), np.full((3, 11), c_cast(scalar, np_dtype(dtype))))


@pytest.mark.parametrize("shape", [(), (1,), (13, 7), (100_000,)], ids=["0d", "one", "odd", "large"])
def test_fill_shapes(stream: int, shape: tuple) -> None:
    """A 0-d selfRef (filled through a [1] tensor), one element, odd sizes and 100 000 elements."""
    dst = device_tensor(random_array(shape, BF16), BF16)
    assert fill(stream, dst, -0.5, F32)[0] == 0
    assert_exact(dst.storage(), np.full(shape, -0.5, ml_dtypes.bfloat16))


def test_fill_empty(stream: int) -> None:
    """An empty selfRef succeeds with no workspace and launches nothing."""
    ws, executor, ret = A.aclnnInplaceFillScalarGetWorkspaceSize(zeros((4, 0), F32).handle,
                                                                 A.aclCreateScalar(1.0, F32))  # fmt: skip
    assert (ws, ret) == (0, 0)
    assert launched(executor) == []


def test_fill_strided_self(stream: int) -> None:
    """Only the elements of a strided selfRef view are filled."""
    storage = np.zeros((5, 4), np.int64)
    dst = device_tensor(storage, I64, shape=(3, 2), strides=(8, 1), offset=2)
    assert fill(stream, dst, 42, I64)[0] == 0
    golden = storage.reshape(-1).copy()
    golden[[2, 3, 10, 11, 18, 19]] = 42
    assert_exact(dst.storage(), golden.reshape(5, 4))


def test_fill_null_arguments(stream: int) -> None:
    """A null selfRef or value is 161001."""
    assert A.aclnnInplaceFillScalarGetWorkspaceSize(None, A.aclCreateScalar(1.0, F32))[2] == NULLPTR
    assert A.aclnnInplaceFillScalarGetWorkspaceSize(zeros((2,), F32).handle, None)[2] == NULLPTR


@pytest.mark.parametrize(
    ("shape", "dtype", "value", "value_dtype"),
    [((2,), A.ACL_COMPLEX32, 1.0, F32), ((2,), U32, 1.5, F32), ((2,), U32, 1, I64), ((2,), U16, 1, I32),
     ((1,) * 9, F32, 1.0, F32)],
    ids=["dtype", "u32-float", "u32-int64", "u16-int32", "9d"],
)  # fmt: skip
def test_fill_invalid(stream: int, shape: tuple, dtype: int, value: Any, value_dtype: int) -> None:
    """An unsupported dtype, a dtype pair PromoteType leaves undefined and rank > 8 are 161002."""
    dst = device_tensor(np.zeros(shape, np.float32), dtype)
    scalar = A.aclCreateScalar(value, value_dtype)
    assert A.aclnnInplaceFillScalarGetWorkspaceSize(dst.handle, scalar) == (0, None, INVALID)


# -- aclnnInplaceZero --------------------------------------------------------------------------
def zero(stream: int, dst: npu.Tensor) -> tuple[int, Any]:
    ws, executor, ret = A.aclnnInplaceZeroGetWorkspaceSize(dst.handle)
    if ret == 0:
        assert run(A.aclnnInplaceZero, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize("dtype", ZERO_DTYPES, ids=NAMES.get)
def test_zero_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype is zeroed; float64, int16, uint16 and complex run the AI CPU ZerosLike."""
    dst = device_tensor(random_array((5, 7), dtype, seed=11), dtype)
    ret, executor = zero(stream, dst)
    assert ret == 0
    aicpu = dtype in (F64, I16, U16, C64, C128)
    assert launched(executor) == ["ZerosLike(AI CPU)" if aicpu else "ZerosLike"]
    assert_exact(dst.storage(), np.zeros((5, 7)))


@pytest.mark.parametrize("shape", [(), (1,), (3, 17), (100_000,), (1,) * 9], ids=["0d", "one", "odd", "large", "9d"])
def test_zero_shapes(stream: int, shape: tuple) -> None:
    """0-d, one element, odd sizes, 100 000 elements and (no rank check on AI Core) a 9-D selfRef."""
    dst = device_tensor(random_array(shape, F32, seed=12), F32)
    assert zero(stream, dst)[0] == 0
    assert_exact(dst.storage(), np.zeros(shape))


def test_zero_9d_on_ai_cpu_fails_in_the_l0(stream: int) -> None:
    """The AI CPU ZerosLike checks rank <= 8, so a 9-D float64 selfRef is 561103."""
    assert zero(stream, zeros((1,) * 9, F64))[0] == INNER_NULLPTR


def test_zero_empty(stream: int) -> None:
    """An empty selfRef succeeds with no workspace and launches nothing."""
    ws, executor, ret = A.aclnnInplaceZeroGetWorkspaceSize(zeros((0,), F16).handle)
    assert (ws, ret) == (0, 0)
    assert launched(executor) == []


def test_zero_strided_self(stream: int) -> None:
    """A strided selfRef: Contiguous, ZerosLike and ViewCopy back; the other storage elements keep their values."""
    storage = np.arange(20, dtype=np.int32).reshape(4, 5)
    dst = device_tensor(storage, I32, shape=(4, 2), strides=(5, 2))
    assert zero(stream, dst)[0] == 0
    golden = storage.copy()
    golden[:, 0:4:2] = 0
    assert_exact(dst.storage(), golden)


@pytest.mark.parametrize("dtype", [U32, U64, A.ACL_COMPLEX32])
def test_zero_invalid_dtype(stream: int, dtype: int) -> None:
    """uint32, uint64 and other unlisted dtypes are 161002; a null selfRef is 161001."""
    dst = device_tensor(np.zeros((2,), np.uint64), dtype)
    assert A.aclnnInplaceZeroGetWorkspaceSize(dst.handle) == (0, None, INVALID)
    assert A.aclnnInplaceZeroGetWorkspaceSize(None)[2] == NULLPTR


# -- aclnnCat ----------------------------------------------------------------------------------
def cat(stream: int, parts: Sequence[npu.Tensor | None], dim: int, out: npu.Tensor | None) -> tuple[int, Any]:
    tensors = A.aclCreateTensorList([p.handle if p is not None else None for p in parts], len(parts))
    ws, executor, ret = A.aclnnCatGetWorkspaceSize(tensors, dim, out.handle if out is not None else None)
    if ret == 0:
        assert run(A.aclnnCat, ws, executor, stream) == 0
    return ret, executor


@pytest.mark.parametrize("dtype", CAT_DTYPES, ids=NAMES.get)
def test_cat_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype concatenates bit-exactly with one ConcatD on AI Core."""
    parts = [random_array((3, n), dtype, seed=n) for n in (2, 5, 1)]
    out = zeros((3, 8), dtype)
    ret, executor = cat(stream, [device_tensor(p, dtype) for p in parts], 1, out)
    assert ret == 0
    assert launched(executor) == ["ConcatD"]
    assert_exact(out.storage(), np.concatenate(parts, axis=1))


@pytest.mark.parametrize(
    ("dtypes", "out_dtype", "kernels"),
    [((F16, F32), F32, ["Cast", "ConcatD"]), ((I8, U8), I16, ["Cast", "Cast", "ConcatD"]),
     ((BOOL, I32), I64, ["Cast", "ConcatD", "Cast"]), ((F32, I64), F64, ["Cast", "ConcatD", "Cast(AI CPU)"]),
     ((BF16, F16, I8), F32, ["Cast", "Cast", "Cast", "ConcatD"])],
)  # fmt: skip
def test_cat_promotes(stream: int, dtypes: tuple, out_dtype: int, kernels: list[str]) -> None:
    """Inputs are cast to their promoted dtype before ConcatD, the result to out's dtype after it."""
    parts = [random_array((2, 3), d, seed=i) for i, d in enumerate(dtypes)]
    out = zeros((2 * len(parts), 3), out_dtype)
    ret, executor = cat(stream, [device_tensor(p, d) for p, d in zip(parts, dtypes, strict=True)], 0, out)
    assert ret == 0
    assert launched(executor) == kernels
    golden = np.concatenate([p.astype(np.float64) for p in parts], axis=0)
    assert_exact(out.storage(), golden)


@pytest.mark.parametrize(
    ("shapes", "dim"),
    [([(1,), (1,)], 0), ([(4, 1, 3), (4, 5, 3), (4, 2, 3)], -2), ([(7, 13), (9, 13)], 0), ([(2, 3, 4)] * 3, 2),
     ([(25_000,)] * 4, 0), ([(10, 2500), (10, 7500)], 1)],
    ids=["one", "negative-dim", "odd", "last-dim", "large-1d", "large-2d"],
)  # fmt: skip
def test_cat_shapes(stream: int, shapes: list[tuple], dim: int) -> None:
    """One element each, negative dims, odd sizes, the last axis and 100 000 elements."""
    parts = [random_array(s, I16, seed=i) for i, s in enumerate(shapes)]
    golden = np.concatenate(parts, axis=dim)
    out = zeros(golden.shape, I16)
    assert cat(stream, [device_tensor(p, I16) for p in parts], dim, out)[0] == 0
    assert_exact(out.storage(), golden)


def test_cat_strided_input(stream: int) -> None:
    """A non-contiguous input (explicit strides) is made contiguous before ConcatD."""
    storage = random_array((6, 8), F32, seed=13)
    a = device_tensor(storage, F32, shape=(3, 4), strides=(16, 2), offset=1)
    b_host = random_array((3, 2), F32, seed=14)
    b = device_tensor(b_host, F32)
    out = zeros((3, 6), F32)
    ret, executor = cat(stream, [a, b], 1, out)
    assert ret == 0
    assert launched(executor) == ["AsStrided", "ConcatD"]
    assert_exact(out.storage(), np.concatenate([strided_view(storage, (3, 4), (16, 2), 1), b_host], axis=1))


def test_cat_groups_of_32(stream: int) -> None:
    """70 inputs on dim 1 are joined by ConcatD in groups of 32 (32 + 32 + 6), then once more."""
    parts = [random_array((2, 1 + i % 3), I32, seed=i) for i in range(70)]
    golden = np.concatenate(parts, axis=1)
    out = zeros(golden.shape, I32)
    ret, executor = cat(stream, [device_tensor(p, I32) for p in parts], 1, out)
    assert ret == 0
    assert launched(executor) == ["ConcatD"] * 4
    assert_exact(out.storage(), golden)


def test_cat_concat_v2(stream: int) -> None:
    """On dim 0 with 33-2048 inputs whose last-axis bytes are multiples of 32, one ConcatDV2 joins them all."""
    parts = [random_array((1 + i % 2, 8), F32, seed=i) for i in range(40)]
    golden = np.concatenate(parts, axis=0)
    out = zeros(golden.shape, F32)
    ret, executor = cat(stream, [device_tensor(p, F32) for p in parts], 0, out)
    assert ret == 0
    assert launched(executor) == ["ConcatDV2"]
    assert_exact(out.storage(), golden)


def test_cat_drops_empty_tensors(stream: int) -> None:
    """1-D [0] tensors are dropped before the checks and other empty tensors before the compute."""
    b = random_array((2, 3), F16)
    out = zeros((2, 3), F16)
    ret, executor = cat(stream, [zeros((0,), F16), zeros((2, 0), F16), device_tensor(b, F16)], 1, out)
    assert ret == 0
    assert launched(executor) == ["TensorMove"]
    assert_exact(out.storage(), b)


def test_cat_all_empty(stream: int) -> None:
    """A list of only [0] tensors (or no tensors) is SUCCESS with nothing launched, before out is looked at."""
    for parts in ([zeros((0,), F32), zeros((0,), I8)], []):
        ret, executor = cat(stream, parts, 0, None)
        assert ret == 0
        assert launched(executor) == []
    ret, executor = cat(stream, [zeros((2, 0), F32), zeros((3, 0), F32)], 0, zeros((9, 9), F32))
    assert ret == 0
    assert launched(executor) == []


def test_cat_null_arguments(stream: int) -> None:
    """A null list, a null element or a null out is 161001."""
    a = zeros((2,), F32)
    assert A.aclnnCatGetWorkspaceSize(None, 0, zeros((2,), F32).handle)[2] == NULLPTR
    assert cat(stream, [a, None], 0, zeros((4,), F32))[0] == NULLPTR
    assert cat(stream, [a], 0, None)[0] == NULLPTR


@pytest.mark.parametrize(
    ("shapes", "dtypes", "dim", "out_shape", "out_dtype"),
    [([(2,), (2,)], (U32, U32), 0, (4,), U32), ([(2,), (2,)], (F32, F32), 0, (4,), U16),
     ([(2,), (2,)], (C64, F64), 0, (4,), C64), ([(2,), (2,)], (F32, F32), 0, (4,), I32),
     ([(2, 3), (2, 3)], (F32, F32), 2, (2, 6), F32), ([(2, 3), (2, 3)], (F32, F32), -3, (4, 3), F32),
     ([(2, 3), (2, 3, 1)], (F32, F32), 0, (4, 3), F32), ([(2, 3), (2, 4)], (F32, F32), 0, (4, 3), F32),
     ([(2, 3), (2, 3)], (F32, F32), 0, (4, 4), F32), ([(1,) * 9, (1,) * 9], (F32, F32), 0, (2,) + (1,) * 8, F32),
     ([(), ()], (F32, F32), 0, (2,), F32)],
    ids=["dtype", "out-dtype", "promote-complex128", "not-castable", "dim-high", "dim-low", "rank-mismatch",
         "dim-mismatch", "out-shape", "9d", "0d"],
)  # fmt: skip
def test_cat_invalid(stream: int, shapes: list, dtypes: tuple, dim: int, out_shape: tuple, out_dtype: int) -> None:
    """Unsupported dtypes, complex128 promotion, an uncastable out, bad dims / ranks / shapes are 161002."""
    parts = [device_tensor(np.zeros(s, np.float32), d) for s, d in zip(shapes, dtypes, strict=True)]
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    assert cat(stream, parts, dim, out)[0] == INVALID


def test_cat_formats_must_match(stream: int) -> None:
    """Differing storage formats, or a private one, are 161002."""
    nd = zeros((2, 3), F32)
    nchw = device_tensor(np.zeros((2, 3), np.float32), F32, fmt=A.ACL_FORMAT_NCHW)
    assert cat(stream, [nd, nchw], 0, zeros((4, 3), F32))[0] == INVALID
    nz = device_tensor(np.zeros((2, 3), np.float32), F32, fmt=A.ACL_FORMAT_FRACTAL_NZ)
    nz_out = device_tensor(np.zeros((4, 3), np.float32), F32, fmt=A.ACL_FORMAT_FRACTAL_NZ)
    assert cat(stream, [nz, nz], 0, nz_out)[0] == INVALID


def test_cat_single_tensor_wrong_out_shape(stream: int) -> None:
    """With one non-empty tensor the code checks no out shape: the ViewCopy step fails, 561103."""
    assert cat(stream, [zeros((2, 3), F32), zeros((0, 3), F32)], 0, zeros((3, 3), F32))[0] == INNER_NULLPTR
