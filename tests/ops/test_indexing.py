"""The indexing and shape ops of issue 14: Tril / Triu / InplaceTriu, Roll, Repeat, IndexSelect,
GatherV2, SWhere ...

Per op: the official example's values, every dtype of the A2 list, non-trivial shapes (batched,
strided and offset views, empty tensors, 8-D), the SoC-dependent support lists, and each status the
real L2 code returns, with the text aclGetRecentErrMsg gives back. The ops only move elements, so
results are checked bit for bit (and with the precision standard) against a numpy golden.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor, session
from test_data_ops import assert_exact, launched, np_dtype, random_array, run, strided_view, zeros

from emulator import acl, aclnn, npu, process
from emulator.config import Settings

A = aclnn
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103
F32, F16, F64, BF16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_DOUBLE, A.ACL_BF16
I8, I16, I32, I64 = A.ACL_INT8, A.ACL_INT16, A.ACL_INT32, A.ACL_INT64
U8, U16, U32, U64 = A.ACL_UINT8, A.ACL_UINT16, A.ACL_UINT32, A.ACL_UINT64
BOOL, C64, C128 = A.ACL_BOOL, A.ACL_COMPLEX64, A.ACL_COMPLEX128
NAMES = {F32: "f32", F16: "f16", F64: "f64", BF16: "bf16", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
         U8: "u8", U16: "u16", U32: "u32", U64: "u64", BOOL: "bool", C64: "c64", C128: "c128"}  # fmt: skip
TRIU_DTYPES = (F64, F32, F16, BF16, I64, I32, I16, U8, I8, BOOL, U64, U32, U16)


def two_phase(stream: int, phase1: Callable[..., Any], phase2: Callable[..., int], *args: Any) -> tuple[int, Any]:
    """Both phases (phase 2 only when phase 1 succeeded); (phase-1 status, executor)."""
    ws, executor, ret = phase1(*args)
    if ret == 0:
        assert run(phase2, ws, executor, stream) == 0
    return ret, executor


def rejects(status: int, expected: int, *fragments: str) -> None:
    """``status`` is ``expected`` and the recent error text names each fragment."""
    message = acl.get_recent_err_msg()
    assert status == expected, message
    assert message is not None
    for fragment in fragments:
        assert fragment in message, message


def on_soc(soc: str) -> Any:
    """A fresh process on another SoC profile with an open session (for the SoC-dependent lists)."""
    return process.fresh(Settings(soc=soc))


# -- aclnnTriu / aclnnInplaceTriu / aclnnTril ---------------------------------------------------
def triangle(stream: int, api: str, x: npu.Tensor, diagonal: int, out: npu.Tensor) -> tuple[int, Any]:
    return two_phase(stream, getattr(A, f"{api}GetWorkspaceSize"), getattr(A, api), x.handle, diagonal, out.handle)


def test_triu_documented_example(stream: int) -> None:
    """The example's 4x4 float matrix with diagonal 1, then the in-place call on self."""
    values = np.array([0, 1.123, -2.001, 303.45, 40009, -50.1234, 60.666, -7.6543, 8000, -9.009, 1024, -11.23345,
                       12, 1356, -14.99, -15.34023], np.float32).reshape(4, 4)  # fmt: skip
    x, out = device_tensor(values, F32), zeros((4, 4), F32)
    assert triangle(stream, "aclnnTriu", x, 1, out)[0] == 0
    assert_exact(out.storage(), np.triu(values, 1))
    ws, executor, ret = A.aclnnInplaceTriuGetWorkspaceSize(x.handle, 1)
    assert ret == 0 and run(A.aclnnInplaceTriu, ws, executor, stream) == 0
    assert_exact(x.storage(), np.triu(values, 1))


def test_tril_documented_example(stream: int) -> None:
    """The example's 3x3 int32 matrix 1..9 with diagonal 0."""
    values = np.arange(1, 10, dtype=np.int32).reshape(3, 3)
    out = device_tensor(values.copy(), I32)
    x = device_tensor(values, I32)
    assert triangle(stream, "aclnnTril", x, 0, out)[0] == 0
    golden = np.array([[1, 0, 0], [4, 5, 0], [7, 8, 9]], np.int32)
    assert_exact(out.storage(), golden)
    ws, executor, ret = A.aclnnInplaceTrilGetWorkspaceSize(x.handle, 0)
    assert ret == 0 and run(A.aclnnInplaceTril, ws, executor, stream) == 0
    assert_exact(x.storage(), golden)
    rejects(A.aclnnInplaceTrilGetWorkspaceSize(None, 0)[2], NULLPTR, "aclnnTril", "self")


@pytest.mark.parametrize("dtype", TRIU_DTYPES, ids=NAMES.get)
@pytest.mark.parametrize("api", ["aclnnTriu", "aclnnTril"])
def test_triangle_every_dtype(stream: int, api: str, dtype: int) -> None:
    host = random_array((3, 5, 4), dtype)
    out = zeros((3, 5, 4), dtype)
    ret, executor = triangle(stream, api, device_tensor(host, dtype), -1, out)
    assert ret == 0
    assert launched(executor) == [api.removeprefix("aclnn")]
    golden = np.triu(host, -1) if api == "aclnnTriu" else np.tril(host, -1)
    assert_exact(out.storage(), golden)


@pytest.mark.parametrize("diagonal", [-7, -2, 0, 3, 9])
@pytest.mark.parametrize("shape", [(1, 1), (2, 3, 7, 5), (1, 2, 1, 2, 1, 2, 3, 3), (300, 400)], ids=str)
def test_triangle_shapes_and_diagonals(stream: int, shape: tuple[int, ...], diagonal: int) -> None:
    """Batched and 8-D inputs, diagonals off the matrix on both sides, 120 000 elements over every block."""
    host = random_array(shape, F32, seed=2)
    for api, golden in (("aclnnTriu", np.triu(host, diagonal)), ("aclnnTril", np.tril(host, diagonal))):
        out = zeros(shape, F32)
        assert triangle(stream, api, device_tensor(host, F32), diagonal, out)[0] == 0
        assert_exact(out.storage(), golden)


def test_triangle_strided_views(stream: int) -> None:
    """A transposed, offset self is gathered first; the result is scattered into a strided out."""
    storage = random_array((6, 10), F16, seed=3)
    x = device_tensor(storage, F16, shape=(4, 3), strides=(1, 20), offset=2)
    out_storage = np.full((4, 6), 9, np.float16)
    out = device_tensor(out_storage, F16, shape=(4, 3), strides=(6, 2))
    ret, executor = triangle(stream, "aclnnTriu", x, 0, out)
    assert ret == 0
    assert launched(executor)[0] == "AsStrided"
    golden = out_storage.copy()
    golden[:, ::2] = np.triu(strided_view(storage, (4, 3), (1, 20), 2))
    assert_exact(out.storage(), golden)


def test_inplace_triu_strided_self(stream: int) -> None:
    storage = random_array((4, 8), I64, seed=4)
    x = device_tensor(storage, I64, shape=(4, 4), strides=(8, 2))
    ws, executor, ret = A.aclnnInplaceTriuGetWorkspaceSize(x.handle, 0)
    assert ret == 0 and run(A.aclnnInplaceTriu, ws, executor, stream) == 0
    golden = storage.copy()
    golden[:, ::2] = np.triu(storage[:, ::2])
    assert_exact(x.storage(), golden)


@pytest.mark.parametrize("api", ["aclnnTriu", "aclnnTril"])
def test_triangle_empty(stream: int, api: str) -> None:
    """An empty self launches nothing and leaves out untouched; Triu even takes a 1-D empty self."""
    out = device_tensor(np.full((0, 3), 5, np.float32), F32)
    ws, executor, ret = getattr(A, f"{api}GetWorkspaceSize")(zeros((0, 3), F32).handle, 0, out.handle)
    assert (ws, ret) == (0, 0) and launched(executor) == []
    assert A.aclnnTriuGetWorkspaceSize(zeros((0,), F32).handle, 0, zeros((0,), F32).handle)[2] == 0


def test_triangle_null_arguments(stream: int) -> None:
    x = zeros((2, 2), F32)
    for api in ("aclnnTriu", "aclnnTril"):
        phase1 = getattr(A, f"{api}GetWorkspaceSize")
        rejects(phase1(None, 0, x.handle)[2], NULLPTR, "self")
        rejects(phase1(x.handle, 0, None)[2], NULLPTR, "out")
    rejects(A.aclnnInplaceTriuGetWorkspaceSize(None, 0)[2], NULLPTR, "self")


@pytest.mark.parametrize(
    ("api", "self_shape", "self_dtype", "out_shape", "out_dtype", "fragment"),
    [("aclnnTriu", (2, 2), C64, (2, 2), C64, "dtype support list"),
     ("aclnnTriu", (2, 2), F32, (2, 2), F16, "out dtype DT_FLOAT16 should be DT_FLOAT"),
     ("aclnnTriu", (3,), F32, (3,), F32, "at least 2"),
     ("aclnnTriu", (1,) * 9, F32, (1,) * 9, F32, "more than 8"),
     ("aclnnTriu", (2, 3), F32, (3, 2), F32, "should be the same as self shape"),
     ("aclnnTril", (2, 2), C64, (2, 2), C64, "dtype support list"),
     ("aclnnTril", (2, 2), F32, (2, 2), C64, "out dtype"),
     ("aclnnTril", (2, 2), F32, (2, 2), I32, "out dtype DT_INT32 should be DT_FLOAT"),
     ("aclnnTril", (0,), F32, (0,), F32, "last 2 dims"),
     ("aclnnTril", (1,) * 9, F32, (1,) * 9, F32, "more than 8"),
     ("aclnnTril", (2, 3), F32, (2, 2), F32, "should be the same as self shape")],
)  # fmt: skip
def test_triangle_invalid(stream: int, api: str, self_shape: tuple, self_dtype: int, out_shape: tuple,
                          out_dtype: int, fragment: str) -> None:  # fmt: skip
    x = device_tensor(np.zeros(self_shape, np.float32), self_dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    ws, executor, ret = getattr(A, f"{api}GetWorkspaceSize")(x.handle, 0, out.handle)
    assert (ws, executor) == (0, None)
    rejects(ret, INVALID, api, fragment)


def test_triangle_formats(stream: int) -> None:
    """Triu refuses a private format and differing formats; Tril only differing formats."""
    nz = device_tensor(np.zeros((2, 2), np.float32), F32, fmt=A.ACL_FORMAT_FRACTAL_NZ)
    nd = zeros((2, 2), F32)
    rejects(A.aclnnTriuGetWorkspaceSize(nz.handle, 0, nz.handle)[2], INVALID, "private")
    rejects(A.aclnnTriuGetWorkspaceSize(nd.handle, 0, nz.handle)[2], INVALID, "format is different")
    rejects(A.aclnnTrilGetWorkspaceSize(nd.handle, 0, nz.handle)[2], INVALID, "format is different")


@pytest.mark.parametrize(
    ("soc", "bf16", "c64"), [("Ascend310P3", INVALID, INVALID), ("Ascend950PR_9599", 0, INNER_NULLPTR)]
)
def test_triangle_soc_lists(soc: str, bf16: int, c64: int) -> None:
    """310P's list has no bfloat16. The Ascend 950 (RegBase) list adds complex64, which passes the L2
    checks, but the shipped package has no complex Triu binary, so the launch step fails (561103)."""
    with on_soc(soc), npu.Session() as session:
        for dtype, expected in ((BF16, bf16), (C64, c64)):
            x = session.tensor(np.zeros((2, 2), np.float32), dtype)
            assert A.aclnnTriuGetWorkspaceSize(x.handle, 0, x.handle)[2] == expected


# -- aclnnRoll ------------------------------------------------------------------------------------
ROLL_DTYPES = (F32, F16, I8, U8, I32, U32, BOOL, I64, BF16, I16)


def roll(stream: int, x: npu.Tensor, shifts: Sequence[int], dims: Sequence[int], out: npu.Tensor) -> tuple[int, Any]:
    shift_array = A.aclCreateIntArray(list(shifts), len(shifts))
    dim_array = A.aclCreateIntArray(list(dims), len(dims))
    return two_phase(stream, A.aclnnRollGetWorkspaceSize, A.aclnnRoll, x.handle, shift_array, dim_array, out.handle)


def test_roll_documented_example(stream: int) -> None:
    """x [1, 2, 3] = 0..5 rolled by 1 and 2 along dim 0 twice: an axis of size 1 rolls to itself."""
    host = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    out = zeros((1, 2, 3), F32)
    ret, executor = roll(stream, device_tensor(host, F32), (1, 2), (0, 0), out)
    assert ret == 0
    assert launched(executor) == ["Roll", "Roll"]
    assert_exact(out.storage(), host)


@pytest.mark.parametrize("dtype", ROLL_DTYPES, ids=NAMES.get)
def test_roll_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype; bool runs as int8 with a Cast on each side; axis 1 is transposed to the front and back."""
    host = random_array((3, 4, 5), dtype, seed=5)
    out = zeros((3, 4, 5), dtype)
    ret, executor = roll(stream, device_tensor(host, dtype), (2, -3), (1, 2), out)
    assert ret == 0
    assert_exact(out.storage(), np.roll(host, (2, -3), (1, 2)))
    kernels = ["Transpose", "Roll", "Transpose"] * 2
    names = [name.removesuffix("V2") for name in launched(executor)]  # small float shapes take TransposeV2
    assert names == (["Cast", *kernels, "Cast"] if dtype == BOOL else kernels)


@pytest.mark.parametrize(
    ("shape", "shifts", "dims"),
    [((7,), (3,), ()), ((4, 5), (-13,), ()), ((1, 6), (4, 1), (1, -1)), ((2, 3, 4, 5), (7, 1, 9), (0, -1, 3)),
     ((2, 1, 2, 1, 2, 1, 2, 3), (5,), (7,)), ((200, 600), (123, -77), (0, 1))],
    ids=["1d-flat", "2d-flat", "squeezed", "4d", "8d", "large"],
)  # fmt: skip
def test_roll_shapes(stream: int, shape: tuple, shifts: tuple, dims: tuple) -> None:
    """Flattened rolls (dims empty), the squeezed [1, n] case, repeated and negative dims, 8-D, 120 000 elements."""
    host = random_array(shape, I32, seed=6)
    out = zeros(shape, I32)
    assert roll(stream, device_tensor(host, I32), shifts, dims, out)[0] == 0
    golden = np.roll(host, shifts[0]) if not dims else np.roll(host, shifts, dims)
    assert_exact(out.storage(), golden)


def test_roll_strided_views_and_0d(stream: int) -> None:
    storage = random_array((4, 6), F32, seed=7)
    x = device_tensor(storage, F32, shape=(3, 4), strides=(1, 6), offset=1)
    out_storage = np.full((3, 8), -1, np.float32)
    out = device_tensor(out_storage, F32, shape=(3, 4), strides=(8, 2))
    assert roll(stream, x, (1,), (0,), out)[0] == 0
    golden = out_storage.copy()
    golden[:, ::2] = np.roll(strided_view(storage, (3, 4), (1, 6), 1), 1, 0)
    assert_exact(out.storage(), golden)
    scalar = device_tensor(np.array(2.5, np.float32), F32)
    out0 = zeros((), F32)
    assert roll(stream, scalar, (3,), (), out0)[0] == 0
    assert out0.storage().tolist() == 2.5
    rejects(roll(stream, scalar, (3,), (0,), out0)[0], INVALID, "no dimensions")


def test_roll_empty(stream: int) -> None:
    """An empty x launches nothing (its dims are not checked)."""
    x = zeros((0, 3), F32)
    ret, executor = roll(stream, x, (1,), (5,), zeros((0, 3), F32))
    assert ret == 0 and launched(executor) == []


def test_roll_on_regbase_rolls_every_dim_at_once() -> None:
    with on_soc("Ascend950PR_9599"), npu.Session() as session:
        host = random_array((3, 4), F16, seed=8)
        x, out = session.tensor(host, F16), session.tensor(np.zeros((3, 4), np.float16), F16)
        assert session.stream is not None
        ret, executor = roll(int(session.stream), x, (1, 2), (0, 1), out)
        assert ret == 0 and launched(executor) == ["Roll"]
        assert_exact(out.storage(), np.roll(host, (1, 2), (0, 1)))


def test_roll_null_arguments(stream: int) -> None:
    x = zeros((2, 2), F32)
    one = A.aclCreateIntArray([1], 1)
    for args, name in (((None, one, one, x.handle), "x"), ((x.handle, None, one, x.handle), "shifts"),
                       ((x.handle, one, None, x.handle), "dims"), ((x.handle, one, one, None), "out")):  # fmt: skip
        rejects(A.aclnnRollGetWorkspaceSize(*args)[2], NULLPTR, name)


@pytest.mark.parametrize(
    ("dtype", "out_dtype", "out_shape", "shifts", "dims", "fragment"),
    [(F64, F64, (2, 3), (1,), (0,), "dtype support list"), (F32, C64, (2, 3), (1,), (0,), "out dtype"),
     (F32, F16, (2, 3), (1,), (0,), "x dtype DT_FLOAT should be DT_FLOAT16"),
     (F32, F32, (3, 2), (1,), (0,), "should be the same as self shape"),
     (F32, F32, (2, 3), (1, 2), (0,), "shifts and dims should be the same"),
     (F32, F32, (2, 3), (1, 2), (), "must be 1 if the size of dims is 0"),
     (F32, F32, (2, 3), (1,), (2,), "range [-2, 1]"), (F32, F32, (2, 3), (1,), (-3,), "range [-2, 1]")],
)  # fmt: skip
def test_roll_invalid(stream: int, dtype: int, out_dtype: int, out_shape: tuple, shifts: tuple, dims: tuple,
                      fragment: str) -> None:  # fmt: skip
    x = device_tensor(np.zeros((2, 3), np.float32), dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    rejects(roll(stream, x, shifts, dims, out)[0], INVALID, "aclnnRoll", fragment)
    nine = device_tensor(np.zeros((1,) * 9, np.float32), F32)
    rejects(roll(stream, nine, (1,), (0,), nine)[0], INVALID, "more than 8")


# -- aclnnRepeat ----------------------------------------------------------------------------------
REPEAT_DTYPES = (F32, F16, F64, C64, C128, U8, I8, I16, I32, I64, BOOL, BF16, U32, U64, U16)


def repeat(stream: int, x: npu.Tensor, repeats: Sequence[int], out: npu.Tensor) -> tuple[int, Any]:
    array = A.aclCreateIntArray(list(repeats), len(repeats))
    return two_phase(stream, A.aclnnRepeatGetWorkspaceSize, A.aclnnRepeat, x.handle, array, out.handle)


def test_repeat_documented_example(stream: int) -> None:
    """self [3, 2] of ones, repeats (2, 4, 2): out [2, 12, 4] of ones."""
    out = zeros((2, 12, 4), F32)
    ret, executor = repeat(stream, device_tensor(np.ones((3, 2), np.float32), F32), (2, 4, 2), out)
    assert ret == 0 and launched(executor) == ["Tile"]
    assert_exact(out.storage(), np.ones((2, 12, 4), np.float32))


@pytest.mark.parametrize("dtype", REPEAT_DTYPES, ids=NAMES.get)
def test_repeat_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype; float64 and complex128 run the AI CPU Tile."""
    host = random_array((2, 3), dtype, seed=9)
    out = zeros((2, 4, 3), dtype)
    ret, executor = repeat(stream, device_tensor(host, dtype), (2, 2, 1), out)
    assert ret == 0
    assert_exact(out.storage(), np.tile(host, (2, 2, 1)))
    assert launched(executor) == ["Tile(AI CPU)" if dtype in (F64, C128) else "Tile"]


@pytest.mark.parametrize(
    ("shape", "repeats"),
    [((), (3,)), ((), ()), ((4,), (1,)), ((2, 1, 3), (1, 5, 2)), ((1, 2), (2, 1, 1, 1, 1, 1, 1, 3)),
     ((300, 2), (2, 100))],
    ids=["0d", "0d-no-repeats", "once", "3d", "8d", "large"],
)  # fmt: skip
def test_repeat_shapes(stream: int, shape: tuple, repeats: tuple) -> None:
    host = random_array(shape, I32, seed=10)
    golden = np.tile(host, repeats) if repeats else host
    out = zeros(golden.shape, I32)
    assert repeat(stream, device_tensor(host, I32), repeats, out)[0] == 0
    assert_exact(out.storage(), golden)


def test_repeat_strided_self_and_out(stream: int) -> None:
    storage = random_array((3, 8), F16, seed=11)
    x = device_tensor(storage, F16, shape=(3, 2), strides=(8, 3), offset=1)
    out_storage = np.full((6, 4), 7, np.float16)
    out = device_tensor(out_storage, F16, shape=(6, 2), strides=(4, 2))
    ret, executor = repeat(stream, x, (2, 1), out)
    assert ret == 0 and launched(executor)[0] == "AsStrided"
    golden = out_storage.copy()
    golden[:, ::2] = np.tile(strided_view(storage, (3, 2), (8, 3), 1), (2, 1))
    assert_exact(out.storage(), golden)


@pytest.mark.parametrize(("shape", "repeats", "out_shape"), [((0, 2), (2, 2), (0, 4)), ((2, 2), (0, 3), (5, 5))])
def test_repeat_empty_or_zero_repeat(stream: int, shape: tuple, repeats: tuple, out_shape: tuple) -> None:
    """An empty self or a zero repeat launches nothing; out's shape is not checked then."""
    ws, executor, ret = A.aclnnRepeatGetWorkspaceSize(
        zeros(shape, F32).handle, A.aclCreateIntArray(list(repeats), len(repeats)), zeros(out_shape, F32).handle
    )
    assert (ws, ret) == (0, 0) and launched(executor) == []


def test_repeat_null_arguments(stream: int) -> None:
    x, one = zeros((2,), F32), A.aclCreateIntArray([1], 1)
    rejects(A.aclnnRepeatGetWorkspaceSize(None, one, x.handle)[2], NULLPTR, "self")
    rejects(A.aclnnRepeatGetWorkspaceSize(x.handle, None, x.handle)[2], NULLPTR, "repeats")
    rejects(A.aclnnRepeatGetWorkspaceSize(x.handle, one, None)[2], NULLPTR, "out")


@pytest.mark.parametrize(
    ("shape", "dtype", "out_dtype", "repeats", "out_shape", "fragment"),
    [((2, 3), A.ACL_COMPLEX32, A.ACL_COMPLEX32, (1, 1), (2, 3), "dtype support list"),
     ((2, 3), F32, I32, (1, 1), (2, 3), "out dtype DT_INT32 should be DT_FLOAT"),
     ((2, 3), F32, F32, (2,), (2, 6), "can not be smaller than number of dimensions"),
     ((2, 3), F32, F32, (1, -1), (2, 3), "2th value > 0, but got -1"),
     ((1,) * 9, F32, F32, (1,) * 9, (1,) * 9, "more than 8"),
     ((2,), F32, F32, (1,) * 9, (1,) * 8 + (2,), "repeats size should not be larger than 8"),
     ((2, 3), F32, F32, (2, 2), (4, 7), "should be the same")],
)  # fmt: skip
def test_repeat_invalid(stream: int, shape: tuple, dtype: int, out_dtype: int, repeats: tuple, out_shape: tuple,
                        fragment: str) -> None:  # fmt: skip
    x = device_tensor(np.zeros(shape, np.float32), dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    rejects(repeat(stream, x, repeats, out)[0], INVALID, "aclnnRepeat", fragment)


def test_repeat_uint16_on_310p() -> None:
    """310P shares A2's list (with uint16) and runs uint16 on AI Core."""
    with on_soc("Ascend310P3"), npu.Session() as session:
        host = np.arange(6, dtype=np.uint16).reshape(2, 3)
        x, out = session.tensor(host, U16), session.tensor(np.zeros((4, 3), np.uint16), U16)
        assert session.stream is not None
        ret, executor = repeat(int(session.stream), x, (2, 1), out)
        assert ret == 0 and launched(executor) == ["Tile"]
        assert_exact(out.storage(), np.tile(host, (2, 1)))


# -- aclnnGatherV2 / aclnnIndexSelect -------------------------------------------------------------
GATHER_DTYPES = (F32, I32, I64, F16, I16, I8, U8, BOOL, F64, C64, C128, BF16)
INDEX_SELECT_DTYPES = (*GATHER_DTYPES, U64, U32, U16)


def gather(stream: int, api: str, x: npu.Tensor, dim: int, index: npu.Tensor, out: npu.Tensor) -> tuple[int, Any]:
    phase1, phase2 = getattr(A, f"{api}GetWorkspaceSize"), getattr(A, api)
    return two_phase(stream, phase1, phase2, x.handle, dim, index.handle, out.handle)


def test_gather_v2_documented_example(stream: int) -> None:
    """self [[0, 1], [2, 3]], a [2, 2] int64 index with negative entries, dim 0: out [2, 2, 2]."""
    host = np.arange(4, dtype=np.float32).reshape(2, 2)
    index = device_tensor(np.array([[-2, -1], [0, 1]], np.int64), I64)
    out = zeros((2, 2, 2), F32)
    ret, executor = gather(stream, "aclnnGatherV2", device_tensor(host, F32), 0, index, out)
    assert ret == 0 and launched(executor) == ["GatherV2"]
    assert_exact(out.storage(), host[np.array([[0, 1], [0, 1]])])


def test_index_select_documented_example(stream: int) -> None:
    """self [4, 2] = 0..7, int32 index [1, 0], dim 0: rows 1 and 0, through GatherV3 on A2."""
    host = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = zeros((2, 2), F32)
    index = device_tensor(np.array([1, 0], np.int32), I32)
    ret, executor = gather(stream, "aclnnIndexSelect", device_tensor(host, F32), 0, index, out)
    assert ret == 0 and launched(executor) == ["GatherV3"]
    assert_exact(out.storage(), np.array([[2, 3], [0, 1]], np.float32))


@pytest.mark.parametrize("dtype", INDEX_SELECT_DTYPES, ids=NAMES.get)
def test_index_select_every_dtype(stream: int, dtype: int) -> None:
    """Each dtype of the list; float64 and complex fall back to the AI CPU GatherV2."""
    host = random_array((3, 4, 2), dtype, seed=12)
    picks = np.array([3, 0, 0, 2, 1], np.int64)
    out = zeros((3, 5, 2), dtype)
    ret, executor = gather(stream, "aclnnIndexSelect", device_tensor(host, dtype), -2, device_tensor(picks, I64), out)
    assert ret == 0
    assert_exact(out.storage(), np.take(host, picks, axis=1))
    assert launched(executor) == ["GatherV2(AI CPU)" if dtype in (F64, C64, C128) else "GatherV3"]


@pytest.mark.parametrize("dtype", GATHER_DTYPES, ids=NAMES.get)
def test_gather_v2_every_dtype(stream: int, dtype: int) -> None:
    host = random_array((4, 3), dtype, seed=13)
    picks = np.array([[1, -1], [2, 0], [-3, 1]], np.int32)
    out = zeros((4, 3, 2), dtype)
    ret, executor = gather(stream, "aclnnGatherV2", device_tensor(host, dtype), 1, device_tensor(picks, I32), out)
    assert ret == 0
    assert_exact(out.storage(), np.take(host, picks % 3, axis=1))
    assert launched(executor) == ["GatherV2(AI CPU)" if dtype in (F64, C64, C128) else "GatherV2"]


def test_gather_scalars_strides_and_large(stream: int) -> None:
    """A 0-d index (counted as [1]), a 0-d self, a strided self and a 200 000-element result."""
    host = random_array((5, 3), F32, seed=14)
    zero_d = device_tensor(np.array(4, np.int64), I64)
    out = zeros((1, 3), F32)
    assert gather(stream, "aclnnIndexSelect", device_tensor(host, F32), 0, zero_d, out)[0] == 0
    assert_exact(out.storage(), host[[4]])
    out = zeros((1, 3), F32)
    assert gather(stream, "aclnnGatherV2", device_tensor(host, F32), 0, zero_d, out)[0] == 0
    assert_exact(out.storage(), host[[4]])
    scalar, out0 = device_tensor(np.array(3.5, np.float32), F32), zeros((), F32)
    one = device_tensor(np.array([0], np.int64), I64)
    assert gather(stream, "aclnnIndexSelect", scalar, 0, one, out0)[0] == 0
    assert out0.storage().tolist() == 3.5
    storage = random_array((6, 8), I16, seed=15)
    strided = device_tensor(storage, I16, shape=(4, 3), strides=(1, 16), offset=1)
    out = zeros((4, 2), I16)
    picks = np.array([2, 0], np.int64)
    assert gather(stream, "aclnnIndexSelect", strided, 1, device_tensor(picks, I64), out)[0] == 0
    assert_exact(out.storage(), strided_view(storage, (4, 3), (1, 16), 1)[:, picks])
    big = random_array((1000, 50), F32, seed=16)
    rows = np.random.default_rng(0).integers(0, 1000, 4000).astype(np.int64)
    out = zeros((4000, 50), F32)
    assert gather(stream, "aclnnIndexSelect", device_tensor(big, F32), 0, device_tensor(rows, I64), out)[0] == 0
    assert_exact(out.storage(), big[rows])


def test_gather_out_of_range_indices_write_zeros(stream: int) -> None:
    """IndexSelect has no negative-index support: -1 and 3 are outside [0, 3) and give zeros (documented)."""
    host = np.arange(1, 7, dtype=np.float32).reshape(3, 2)
    out = device_tensor(np.full((3, 2), 9, np.float32), F32)
    picks = device_tensor(np.array([-1, 3, 1], np.int64), I64)
    assert gather(stream, "aclnnIndexSelect", device_tensor(host, F32), 0, picks, out)[0] == 0
    assert_exact(out.storage(), np.array([[0, 0], [0, 0], [3, 4]], np.float32))


@pytest.mark.parametrize("api", ["aclnnIndexSelect", "aclnnGatherV2"])
def test_gather_empty(stream: int, api: str) -> None:
    x, index = zeros((0, 3), F32), device_tensor(np.array([0], np.int64), I64)
    ws, executor, ret = getattr(A, f"{api}GetWorkspaceSize")(x.handle, 1, index.handle, zeros((0, 1), F32).handle)
    assert (ws, ret) == (0, 0) and launched(executor) == []


@pytest.mark.parametrize("api", ["aclnnIndexSelect", "aclnnGatherV2"])
def test_gather_null_arguments(stream: int, api: str) -> None:
    x, index = zeros((2,), F32), device_tensor(np.array([0], np.int64), I64)
    phase1 = getattr(A, f"{api}GetWorkspaceSize")
    rejects(phase1(None, 0, index.handle, x.handle)[2], NULLPTR, "self")
    rejects(phase1(x.handle, 0, None, x.handle)[2], NULLPTR, "index")
    rejects(phase1(x.handle, 0, index.handle, None)[2], NULLPTR, "out")


@pytest.mark.parametrize(
    ("api", "shape", "dtype", "index_shape", "index_dtype", "dim", "out_shape", "out_dtype", "fragment"),
    [("aclnnIndexSelect", (2, 3), A.ACL_COMPLEX32, (1,), I64, 0, (1, 3), A.ACL_COMPLEX32, "dtype support list"),
     ("aclnnIndexSelect", (2, 3), F32, (1,), I64, 0, (1, 3), F16, "out dtype DT_FLOAT16 should be DT_FLOAT"),
     ("aclnnIndexSelect", (2, 3), F32, (1,), I16, 0, (1, 3), F32, "index dtype"),
     ("aclnnIndexSelect", (), F32, (1,), I64, 0, (1,), F32, "out should also be scalar"),
     ("aclnnIndexSelect", (1,) * 9, F32, (1,), I64, 0, (1,) * 9, F32, "more than 8"),
     ("aclnnIndexSelect", (2, 3), F32, (1,), I64, 2, (2, 1), F32, "expected to be in range of [-2, 1], but got 2"),
     ("aclnnIndexSelect", (2, 3), F32, (1, 1), I64, 0, (1, 3), F32, "index dimNum is 2"),
     ("aclnnIndexSelect", (2, 3), F32, (2,), I64, 1, (2, 3), F32, "Shape of out should be [2, 2]"),
     ("aclnnGatherV2", (2, 3), F32, (1,), I64, 0, (1, 3), I32, "out dtype DT_INT32 should be DT_FLOAT"),
     ("aclnnGatherV2", (2, 3), U32, (1,), I64, 0, (1, 3), U32, "dtype support list"),
     ("aclnnGatherV2", (2, 3), F32, (1,), U8, 0, (1, 3), F32, "index dtype"),
     ("aclnnGatherV2", (2, 3), F32, (1,) * 9, I64, 0, (1,) * 9 + (3,), F32, "index has 9 dims"),
     ("aclnnGatherV2", (2, 3), F32, (1,), I64, -3, (1, 3), F32, "not in valid range: [-2, 2)"),
     ("aclnnGatherV2", (2, 3), F32, (2, 2), I64, 1, (2, 4), F32, "should be [2, 2, 2]"),
     ("aclnnGatherV2", (0, 3), F32, (2,), I64, 1, (0, 3), F32, "should be [0, 2]")],
)  # fmt: skip
def test_gather_invalid(stream: int, api: str, shape: tuple, dtype: int, index_shape: tuple, index_dtype: int,
                        dim: int, out_shape: tuple, out_dtype: int, fragment: str) -> None:  # fmt: skip
    x = device_tensor(np.zeros(shape, np.float32), dtype)
    index = device_tensor(np.zeros(index_shape, np.int64), index_dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    rejects(gather(stream, api, x, dim, index, out)[0], INVALID, api, fragment)


def test_index_select_bf16_and_paths_by_soc() -> None:
    """310P refuses bfloat16 for IndexSelect (arch 2002) and has no GatherV3: GatherV2 on AI Core serves it."""
    with on_soc("Ascend310P3"), npu.Session() as session:
        assert session.stream is not None
        x = session.tensor(np.zeros((2, 2), np.float32), BF16)
        index = session.tensor(np.array([1], np.int64), I64)
        out = session.tensor(np.zeros((1, 2), np.float32), BF16)
        rejects(gather(int(session.stream), "aclnnIndexSelect", x, 0, index, out)[0], INVALID, "NpuArch 2002")
        host = np.arange(4, dtype=np.int32).reshape(2, 2)
        out = session.tensor(np.zeros((1, 2), np.int32), I32)
        ret, executor = gather(int(session.stream), "aclnnIndexSelect", session.tensor(host, I32), 0, index, out)
        assert ret == 0 and launched(executor) == ["GatherV2"]
        assert_exact(out.storage(), host[[1]])


# -- aclnnSWhere ----------------------------------------------------------------------------------
WHERE_DTYPES = (F32, I32, U64, I64, U32, F16, U16, I16, I8, U8, F64, BOOL, C64, C128, BF16)
SELECT_AICORE = (F32, F16, I32, I8, U8, BF16, I64)


def s_where(stream: int, cond: npu.Tensor, x: npu.Tensor, y: npu.Tensor, out: npu.Tensor) -> tuple[int, Any]:
    return two_phase(stream, A.aclnnSWhereGetWorkspaceSize, A.aclnnSWhere, cond.handle, x.handle, y.handle, out.handle)


def test_s_where_documented_example(stream: int) -> None:
    """condition [4, 2] bool (first half false): out is other there, self elsewhere."""
    x = device_tensor(np.array([0, 0, 0, 0, 0, 0, 0, 7], np.float32).reshape(4, 2), F32)
    y = device_tensor(np.arange(8, dtype=np.float32).reshape(4, 2), F32)
    cond = device_tensor(np.repeat([False, True], 4).reshape(4, 2), BOOL)
    out = device_tensor(np.full((4, 2), 10, np.float32), F32)
    ret, executor = s_where(stream, cond, x, y, out)
    assert ret == 0 and launched(executor) == ["SelectV2"]
    assert_exact(out.storage(), np.array([0, 1, 2, 3, 0, 0, 0, 7], np.float32).reshape(4, 2))


@pytest.mark.parametrize("dtype", WHERE_DTYPES, ids=NAMES.get)
def test_s_where_every_dtype(stream: int, dtype: int) -> None:
    """Each dtype with a broadcast uint8 condition; bool runs as int8 and the rest of the AI CPU list on AI CPU."""
    a, b = random_array((3, 4), dtype, seed=17), random_array((3, 4), dtype, seed=18)
    mask = np.array([1, 0, 3, 0], np.uint8)
    out = zeros((3, 4), dtype)
    ret, executor = s_where(stream, device_tensor(mask, U8), device_tensor(a, dtype), device_tensor(b, dtype), out)
    assert ret == 0
    assert_exact(out.storage(), np.where(mask != 0, a, b))
    engine = "SelectV2" if dtype in (*SELECT_AICORE, BOOL) else "SelectV2(AI CPU)"
    assert launched(executor) == ["Cast(AI CPU)", engine]  # uint8 -> bool is an AI CPU Cast on A2


def test_s_where_promotes_and_broadcasts(stream: int) -> None:
    """int32 self and float16 other promote to float16; the three shapes broadcast to [2, 3, 4]; out float64."""
    a = random_array((3, 1), I32, seed=19)
    b = random_array((2, 1, 4), F16, seed=20)
    cond = np.random.default_rng(1).random((4,)) > 0.5
    out = zeros((2, 3, 4), F64)
    ret, executor = s_where(stream, device_tensor(cond, BOOL), device_tensor(a, I32), device_tensor(b, F16), out)
    assert ret == 0
    assert launched(executor) == ["Cast", "SelectV2", "Cast(AI CPU)"]  # float16 -> float64 runs on AI CPU
    golden = np.where(cond, a.astype(np.float16), b).astype(np.float64)
    assert_exact(out.storage(), golden)


def test_s_where_strided_large_and_empty(stream: int) -> None:
    storage = random_array((400, 600), F32, seed=21)
    x = device_tensor(storage, F32, shape=(600, 200), strides=(1, 1200))
    y = device_tensor(np.zeros((1,), np.float32), F32)
    cond = random_array((600, 200), BOOL, seed=22)
    out = zeros((600, 200), F32)
    assert s_where(stream, device_tensor(cond, BOOL), x, y, out)[0] == 0
    assert_exact(out.storage(), np.where(cond, strided_view(storage, (600, 200), (1, 1200)), 0).astype(np.float32))
    empty = zeros((0, 2), F32)
    ret, executor = s_where(stream, device_tensor(np.zeros((0, 2), bool), BOOL), empty, zeros((1, 2), F32), empty)
    assert ret == 0 and launched(executor) == []


def test_s_where_null_arguments(stream: int) -> None:
    x, cond = zeros((2,), F32), device_tensor(np.zeros((2,), bool), BOOL)
    phase1 = A.aclnnSWhereGetWorkspaceSize
    rejects(phase1(cond.handle, None, x.handle, x.handle)[2], NULLPTR, "self")
    rejects(phase1(cond.handle, x.handle, None, x.handle)[2], NULLPTR, "other")
    rejects(phase1(None, x.handle, x.handle, x.handle)[2], NULLPTR, "condition")
    rejects(phase1(cond.handle, x.handle, x.handle, None)[2], NULLPTR, "out")


@pytest.mark.parametrize(
    ("cond", "a", "b", "out", "fragment"),
    [(((2,), BOOL), ((2,), A.ACL_COMPLEX32), ((2,), F32), ((2,), F32), "self dtype"),
     (((2,), BOOL), ((2,), F32), ((2,), A.ACL_COMPLEX32), ((2,), F32), "other dtype"),
     (((2,), BOOL), ((2,), F32), ((2,), F32), ((2,), A.ACL_COMPLEX32), "out dtype"),
     (((2,), I8), ((2,), F32), ((2,), F32), ((2,), F32), "condition dtype"),
     (((2,), BOOL), ((1,) * 9, F32), ((2,), F32), ((1,) * 8 + (2,), F32), "self has 9 dims"),
     (((2,), BOOL), ((2,), F32), ((3,), F32), ((3,), F32), "cannot broadcast"),
     (((3,), BOOL), ((2,), F32), ((2,), F32), ((2,), F32), "condition can't broadcast"),
     (((2,), BOOL), ((2,), F32), ((2, 1), F32), ((2,), F32), "Shape of out should be [2, 2]")],
)  # fmt: skip
def test_s_where_invalid(stream: int, cond: tuple, a: tuple, b: tuple, out: tuple, fragment: str) -> None:
    tensors = [device_tensor(np.zeros(shape, np.float32), dtype) for shape, dtype in (cond, a, b, out)]
    rejects(s_where(stream, *tensors)[0], INVALID, "aclnnSWhere", fragment)


def test_s_where_310p_refuses_bfloat16() -> None:
    with on_soc("Ascend310P3"), npu.Session() as session:
        x = session.tensor(np.zeros((2,), np.float32), BF16)
        cond = session.tensor(np.zeros((2,), bool), BOOL)
        rejects(A.aclnnSWhereGetWorkspaceSize(cond.handle, x.handle, x.handle, x.handle)[2], INVALID, "self dtype")


# -- aclnnStack -----------------------------------------------------------------------------------
STACK_DTYPES = (I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, BOOL, F64, C64, C128, BF16)


def stack(stream: int, parts: Sequence[npu.Tensor | None], dim: int, out: npu.Tensor | None) -> tuple[int, Any]:
    tensors = A.aclCreateTensorList([p.handle if p is not None else None for p in parts], len(parts))
    return two_phase(stream, A.aclnnStackGetWorkspaceSize, A.aclnnStack, tensors, dim,
                     out.handle if out is not None else None)  # fmt: skip


def test_stack_documented_example(stream: int) -> None:
    """Two float [2, 3] tensors 1..6 and 7..12 stacked on dim 0: out [2, 2, 3]."""
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    b = np.arange(7, 13, dtype=np.float32).reshape(2, 3)
    out = zeros((2, 2, 3), F32)
    ret, executor = stack(stream, [device_tensor(a, F32), device_tensor(b, F32)], 0, out)
    assert ret == 0 and launched(executor) == ["Pack"]
    assert_exact(out.storage(), np.stack([a, b]))


@pytest.mark.parametrize("dtype", STACK_DTYPES, ids=NAMES.get)
def test_stack_every_dtype(stream: int, dtype: int) -> None:
    """Each dtype on the last axis; complex128 packs on AI CPU."""
    parts = [random_array((3, 2), dtype, seed=s) for s in range(3)]
    out = zeros((3, 2, 3), dtype)
    ret, executor = stack(stream, [device_tensor(p, dtype) for p in parts], -1, out)
    assert ret == 0
    assert_exact(out.storage(), np.stack(parts, axis=-1))
    assert launched(executor) == ["Pack(AI CPU)" if dtype == C128 else "Pack"]


def test_stack_promotes_and_casts_to_out(stream: int) -> None:
    """int8 and float16 promote to float16 and pack; the result is Cast to out's float32."""
    a, b = random_array((2, 2), I8, seed=23), random_array((2, 2), F16, seed=24)
    out = zeros((2, 2, 2), F32)
    ret, executor = stack(stream, [device_tensor(a, I8), device_tensor(b, F16)], 1, out)
    assert ret == 0 and launched(executor) == ["Cast", "Pack", "Cast"]
    assert_exact(out.storage(), np.stack([a.astype(np.float16), b], axis=1).astype(np.float32))


def test_stack_many_tensors_join_packs_with_concat(stream: int) -> None:
    """70 tensors: three Packs of 32, 32 and 6, then one ConcatD along the stacking dim."""
    parts = [random_array((2, 3), I32, seed=s) for s in range(70)]
    out = zeros((2, 70, 3), I32)
    ret, executor = stack(stream, [device_tensor(p, I32) for p in parts], 1, out)
    assert ret == 0 and launched(executor) == ["Pack", "Pack", "Pack", "ConcatD"]
    assert_exact(out.storage(), np.stack(parts, axis=1))


def test_stack_scalars_strided_and_empty(stream: int) -> None:
    scalars = [device_tensor(np.array(v, np.float32), F32) for v in (1.5, -2.0)]
    out = zeros((2,), F32)
    assert stack(stream, scalars, 0, out)[0] == 0
    assert out.storage().tolist() == [1.5, -2.0]
    storage = random_array((4, 6), F32, seed=25)
    x = device_tensor(storage, F32, shape=(3, 2), strides=(1, 12), offset=2)
    out = zeros((1, 3, 2), F32)
    ret, executor = stack(stream, [x], 0, out)
    assert ret == 0 and launched(executor) == ["AsStrided", "Pack"]
    assert_exact(out.storage(), strided_view(storage, (3, 2), (1, 12), 2)[None])
    empties = [zeros((0, 2), F32), zeros((0, 2), F32)]
    for parts in (empties[:1], empties):
        ret, executor = stack(stream, parts, 0, zeros((5,), F32))
        assert ret == 0 and launched(executor) == []


def test_stack_null_arguments(stream: int) -> None:
    """A null list or a null out is 561103 (the real null check returns that status); a null member 161001."""
    x = zeros((2,), F32)
    rejects(A.aclnnStackGetWorkspaceSize(None, 0, x.handle)[2], INNER_NULLPTR, "should not be null")
    rejects(stack(stream, [x], 0, None)[0], INNER_NULLPTR, "out")
    rejects(stack(stream, [x, None], 0, zeros((2, 2), F32))[0], NULLPTR, "tensors[1]")
    rejects(stack(stream, [], 0, x)[0], INVALID, "empty list")


@pytest.mark.parametrize(
    ("parts", "dim", "out", "fragment"),
    [([((2,), A.ACL_COMPLEX32)], 0, ((1, 2), F32), "tensor 0 not implemented for DT_COMPLEX32"),
     ([((2,), F32)], 0, ((1, 2), A.ACL_COMPLEX32), "out dtype"),
     ([((2,), F32), ((2,), C64)], 0, ((2, 2), F32), "can't be cast to the desired output type"),
     ([((1,) * 9, F32)], 0, ((1,) * 10, F32), "can't be greater than 8"),
     ([((2,), F32)], 2, ((2, 1), F32), "exceed the dim range of the [-2, 1]"),
     ([((2,), F32)], -3, ((2, 1), F32), "exceed the dim range"),
     ([((2,), F32), ((2, 1), F32)], 0, ((2, 2), F32), "dimnum of tensor 1 is [2]"),
     ([((2,), F32), ((3,), F32)], 0, ((2, 2), F32), "dim 0 of tensor 1 is [3]"),
     ([((2,), F32), ((2,), F32)], 0, ((2, 3), F32), "out shape [2, 3] should be [2, 2]")],
)  # fmt: skip
def test_stack_invalid(stream: int, parts: list, dim: int, out: tuple, fragment: str) -> None:
    tensors = [device_tensor(np.zeros(shape, np.float32), dtype) for shape, dtype in parts]
    out_tensor = device_tensor(np.zeros(out[0], np.float32), out[1])
    rejects(stack(stream, tensors, dim, out_tensor)[0], INVALID, "aclnnStack", fragment)


# -- aclnnSlice -----------------------------------------------------------------------------------
SLICE_DTYPES = (F32, F16, I64, I8, I32, U8, BOOL, BF16)


def slice_op(stream: int, x: npu.Tensor, dim: int, start: int, end: int, step: int, out: npu.Tensor) -> tuple[int, Any]:
    return two_phase(stream, A.aclnnSliceGetWorkspaceSize, A.aclnnSlice, x.handle, dim, start, end, step, out.handle)


def test_slice_documented_example(stream: int) -> None:
    """self [4, 2] = 0..7, dim 0, start 1, end 3, step 1: rows 1 and 2."""
    host = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = zeros((2, 2), F32)
    ret, executor = slice_op(stream, device_tensor(host, F32), 0, 1, 3, 1, out)
    assert ret == 0 and launched(executor) == ["StridedSliceV3"]
    assert_exact(out.storage(), host[1:3])


@pytest.mark.parametrize("dtype", SLICE_DTYPES, ids=NAMES.get)
def test_slice_every_dtype(stream: int, dtype: int) -> None:
    host = random_array((3, 10), dtype, seed=26)
    out = zeros((3, 3), dtype)
    assert slice_op(stream, device_tensor(host, dtype), -1, 1, -2, 3, out)[0] == 0
    assert_exact(out.storage(), host[:, 1:-2:3])


@pytest.mark.parametrize(
    ("shape", "dim", "start", "end", "step"),
    [((5,), 0, -100, 100, 2), ((4, 6, 5), 1, -4, 5, 1), ((2, 3, 2, 3, 2, 3, 2, 3), 7, 1, 3, 4),
     ((600, 300), 0, 7, 500, 3)],
    ids=["clamped", "negative-start", "8d", "large"],
)  # fmt: skip
def test_slice_shapes(stream: int, shape: tuple, dim: int, start: int, end: int, step: int) -> None:
    host = random_array(shape, I32, seed=27)
    index: list[Any] = [np.s_[:]] * len(shape)
    index[dim] = np.s_[start:end:step]
    golden = host[tuple(index)]
    out = zeros(golden.shape, I32)
    assert slice_op(stream, device_tensor(host, I32), dim, start, end, step, out)[0] == 0
    assert_exact(out.storage(), golden)


def test_slice_strided_and_empty(stream: int) -> None:
    storage = random_array((6, 8), F16, seed=28)
    x = device_tensor(storage, F16, shape=(4, 6), strides=(1, 8), offset=1)
    out = zeros((4, 2), F16)
    ret, executor = slice_op(stream, x, 1, 2, 6, 2, out)
    assert ret == 0 and launched(executor) == ["AsStrided", "StridedSliceV3"]
    assert_exact(out.storage(), strided_view(storage, (4, 6), (1, 8), 1)[:, 2:6:2])
    ret, executor = slice_op(stream, zeros((3, 4), F16), 1, 3, 1, 1, zeros((3, 0), F16))
    assert ret == 0 and launched(executor) == []


def test_slice_null_arguments(stream: int) -> None:
    x = zeros((2,), F32)
    rejects(A.aclnnSliceGetWorkspaceSize(None, 0, 0, 1, 1, x.handle)[2], NULLPTR, "self")
    rejects(A.aclnnSliceGetWorkspaceSize(x.handle, 0, 0, 1, 1, None)[2], NULLPTR, "out")


@pytest.mark.parametrize(
    ("shape", "dtype", "out_shape", "out_dtype", "dim", "step", "fragment"),
    [((4,), F32, (2,), F16, 0, 1, "out dtype DT_FLOAT16 should be DT_FLOAT"),
     ((4,), F64, (2,), F64, 0, 1, "dtype support list"),
     ((1,) * 9, F32, (1,) * 9, F32, 0, 1, "not be greater than 8"),
     ((), F32, (), F32, 0, 1, "not be less than one"),
     ((4,), F32, (2,), F32, 1, 1, "dim value 1 to be in range [-1, 0]"),
     ((4,), F32, (2,), F32, 0, 0, "step must be positive"),
     ((4,), F32, (3,), F32, 0, 1, "Shape of out should be [2]")],
)  # fmt: skip
def test_slice_invalid(stream: int, shape: tuple, dtype: int, out_shape: tuple, out_dtype: int, dim: int, step: int,
                       fragment: str) -> None:  # fmt: skip
    x = device_tensor(np.zeros(shape, np.float32), dtype)
    out = device_tensor(np.zeros(out_shape, np.float32), out_dtype)
    rejects(slice_op(stream, x, dim, 0, 2, step, out)[0], INVALID, "aclnnSlice", fragment)


def test_slice_bfloat16_only_on_a2() -> None:
    with on_soc("Ascend310P3"), npu.Session() as session:
        x = session.tensor(np.zeros((4,), np.float32), BF16)
        out = session.tensor(np.zeros((2,), np.float32), BF16)
        rejects(A.aclnnSliceGetWorkspaceSize(x.handle, 0, 0, 2, 1, out.handle)[2], INVALID, "not support bfloat16")


# -- aclnnNonzero ---------------------------------------------------------------------------------
NONZERO_DTYPES = (F32, I32, I64, F16, I16, I8, U8, F64, BOOL, BF16)
NONZERO_AICORE = (BOOL, F16, BF16, F32, I8, U8)


def nonzero(stream: int, x: npu.Tensor, out: npu.Tensor) -> tuple[int, Any]:
    return two_phase(stream, A.aclnnNonzeroGetWorkspaceSize, A.aclnnNonzero, x.handle, out.handle)


def nonzero_result(out: npu.Tensor) -> np.ndarray:
    """The rows the op reports: out's view shape after the run, read from the start of its storage."""
    shape, ret = A.aclGetViewShape(out.handle)
    assert ret == 0
    count = int(np.prod(shape))
    return out.storage().reshape(-1)[:count].reshape(shape)


def test_nonzero_documented_example(stream: int) -> None:
    """self [4, 2] = 0..7 with out allocated [8, 2]: seven index rows, out's view shape becomes [7, 2]."""
    host = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = zeros((8, 2), I64)
    ret, executor = nonzero(stream, device_tensor(host, F32), out)
    assert ret == 0 and launched(executor) == ["NonZero"]
    assert A.aclGetViewShape(out.handle)[0] == [7, 2]
    assert_exact(nonzero_result(out), np.argwhere(host).astype(np.int64))


@pytest.mark.parametrize("dtype", NONZERO_DTYPES, ids=NAMES.get)
def test_nonzero_every_dtype(stream: int, dtype: int) -> None:
    host = random_array((3, 5, 2), dtype, seed=29)
    if np_dtype(dtype).kind in "iu":
        host = host % 3  # some zeros
    out = zeros((30, 3), I64)
    ret, executor = nonzero(stream, device_tensor(host, dtype), out)
    assert ret == 0
    assert launched(executor) == ["NonZero" if dtype in NONZERO_AICORE else "NonZero(AI CPU)"]
    assert_exact(nonzero_result(out), np.argwhere(host != 0).astype(np.int64))


def test_nonzero_shapes_strides_and_scalars(stream: int) -> None:
    """A strided self, an 8-D self, a 0-d self (its worst-case out [1, 0] is empty: nothing runs, as in the
    real code) and 100 000 elements."""
    storage = random_array((4, 6), BOOL, seed=30)
    x = device_tensor(storage, BOOL, shape=(3, 4), strides=(1, 6))
    out = zeros((12, 2), I64)
    assert nonzero(stream, x, out)[0] == 0
    assert_exact(nonzero_result(out), np.argwhere(strided_view(storage, (3, 4), (1, 6))).astype(np.int64))
    eight = random_array((2, 1, 3, 1, 2, 1, 2, 2), BOOL, seed=31)
    out = zeros((48, 8), I64)
    assert nonzero(stream, device_tensor(eight, BOOL), out)[0] == 0
    assert_exact(nonzero_result(out), np.argwhere(eight).astype(np.int64))
    ret, executor = nonzero(stream, device_tensor(np.array(2.0, np.float32), F32), out := zeros((1, 0), I64))
    assert ret == 0 and launched(executor) == []
    big = random_array((200, 500), F16, seed=32)
    big[big > 2] = 0
    out = zeros((100_000, 2), I64)
    assert nonzero(stream, device_tensor(big, F16), out)[0] == 0
    assert_exact(nonzero_result(out), np.argwhere(big).astype(np.int64))


def test_nonzero_all_zero_and_empty(stream: int) -> None:
    out = zeros((6, 2), I64)
    assert nonzero(stream, zeros((2, 3), F32), out)[0] == 0
    assert A.aclGetViewShape(out.handle)[0] == [0, 2]
    ret, executor = nonzero(stream, zeros((0, 3), F32), zeros((0, 2), I64))
    assert ret == 0 and launched(executor) == []


def test_nonzero_executor_is_not_repeatable(stream: int) -> None:
    """OP_OUTSHAPE makes the executor unrepeatable: aclSetAclOpExecutorRepeatable fails."""
    ws, executor, ret = A.aclnnNonzeroGetWorkspaceSize(zeros((2, 2), F32).handle, zeros((4, 2), I64).handle)
    assert ret == 0
    assert A.aclSetAclOpExecutorRepeatable(executor) != 0
    assert run(A.aclnnNonzero, ws, executor, stream) == 0


def test_nonzero_null_and_invalid(stream: int) -> None:
    x, out = zeros((2, 2), F32), zeros((4, 2), I64)
    rejects(A.aclnnNonzeroGetWorkspaceSize(None, out.handle)[2], NULLPTR, "self")
    rejects(A.aclnnNonzeroGetWorkspaceSize(x.handle, None)[2], NULLPTR, "out")
    c64 = device_tensor(np.zeros((2,), np.complex64), C64)
    rejects(A.aclnnNonzeroGetWorkspaceSize(c64.handle, out.handle)[2], INVALID, "self dtype")
    rejects(A.aclnnNonzeroGetWorkspaceSize(x.handle, zeros((4, 2), I32).handle)[2], INVALID, "should be DT_INT64")
    nine = zeros((1,) * 9, F32)
    rejects(A.aclnnNonzeroGetWorkspaceSize(nine.handle, out.handle)[2], INVALID, "self has 9 dims")
    rejects(A.aclnnNonzeroGetWorkspaceSize(x.handle, zeros((1,) * 9, I64).handle)[2], INVALID, "out has 9 dims")


def test_nonzero_on_310p_runs_on_ai_cpu_without_bfloat16() -> None:
    with on_soc("Ascend310P3"), npu.Session() as session:
        assert session.stream is not None
        bf = session.tensor(np.zeros((2,), np.float32), BF16)
        out = session.tensor(np.zeros((2, 1), np.int64), I64)
        rejects(A.aclnnNonzeroGetWorkspaceSize(bf.handle, out.handle)[2], INVALID, "self dtype")
        host = np.array([0, 3, 0, 4], np.float32)
        ret, executor = nonzero(
            int(session.stream), session.tensor(host, F32), out := session.tensor(np.zeros((4, 1), np.int64), I64)
        )
        assert ret == 0 and launched(executor) == ["NonZero(AI CPU)"]
        assert_exact(nonzero_result(out), np.array([[1], [3]], np.int64))


# -- aclnnMaskedSelect ----------------------------------------------------------------------------
MASKED_DTYPES = (F32, I32, I64, F16, I16, I8, U8, F64, BOOL, BF16)


def masked_select(stream: int, x: npu.Tensor, mask: npu.Tensor, out: npu.Tensor) -> tuple[int, Any]:
    return two_phase(stream, A.aclnnMaskedSelectGetWorkspaceSize, A.aclnnMaskedSelect, x.handle, mask.handle,
                     out.handle)  # fmt: skip


def test_masked_select_documented_example(stream: int) -> None:
    """self [4, 2] = 0..7, mask true on the second half, out allocated [8]: out's view becomes [4] = 4..7."""
    host = np.arange(8, dtype=np.float32).reshape(4, 2)
    mask = device_tensor(np.repeat([False, True], 4).reshape(4, 2), BOOL)
    out = zeros((8,), F32)
    ret, executor = masked_select(stream, device_tensor(host, F32), mask, out)
    assert ret == 0 and launched(executor) == ["MaskedSelectV3"]
    assert A.aclGetViewShape(out.handle)[0] == [4]
    assert_exact(nonzero_result(out), np.array([4, 5, 6, 7], np.float32))


@pytest.mark.parametrize("dtype", MASKED_DTYPES, ids=NAMES.get)
def test_masked_select_every_dtype_with_broadcast(stream: int, dtype: int) -> None:
    """self [3, 1, 4] and a uint8 mask [5, 1] broadcast to [3, 5, 4]; both are broadcast before the kernel."""
    host = random_array((3, 1, 4), dtype, seed=33)
    keep = (np.arange(5) % 2).astype(np.uint8).reshape(5, 1)
    out = zeros((60,), dtype)
    ret, executor = masked_select(stream, device_tensor(host, dtype), device_tensor(keep, U8), out)
    assert ret == 0
    names = [name.removesuffix("(AI CPU)") for name in launched(executor)]  # BroadcastTo's own dtype split
    assert names[-3:] == ["BroadcastTo", "BroadcastTo", "MaskedSelectV3"]
    shape = (3, 5, 4)
    golden = np.broadcast_to(host, shape)[np.broadcast_to(keep != 0, shape)]
    assert_exact(nonzero_result(out), golden)


def test_masked_select_casts_strides_large_and_empty(stream: int) -> None:
    """self int32 into a float32 out (Cast first), a strided self, 100 000 elements, an empty mask."""
    storage = random_array((300, 700), I32, seed=34)
    x = device_tensor(storage, I32, shape=(500, 200), strides=(1, 1000), offset=3)
    keep = random_array((500, 200), BOOL, seed=35)
    out = zeros((100_000,), F32)
    assert masked_select(stream, x, device_tensor(keep, BOOL), out)[0] == 0
    assert_exact(nonzero_result(out), strided_view(storage, (500, 200), (1, 1000), 3)[keep].astype(np.float32))
    ret, executor = masked_select(stream, zeros((0, 2), F32), device_tensor(np.zeros((2,), bool), BOOL),
                                  zeros((0,), F32))  # fmt: skip
    assert ret == 0 and launched(executor) == []


def test_masked_select_on_310p_runs_the_ai_cpu_kernel() -> None:
    """Off A2 / RegBase the AI CPU MaskedSelect broadcasts by itself (no BroadcastTo)."""
    with on_soc("Ascend310P3"), npu.Session() as session:
        assert session.stream is not None
        host = np.array([[1, 2, 3]], np.float32)
        keep = session.tensor(np.array([[True], [False]]), BOOL)
        out = session.tensor(np.zeros((6,), np.float32), F32)
        ret, executor = masked_select(int(session.stream), session.tensor(host, F32), keep, out)
        assert ret == 0 and launched(executor) == ["MaskedSelect(AI CPU)"]
        assert_exact(nonzero_result(out), np.array([1, 2, 3], np.float32))


def test_masked_select_null_and_invalid(stream: int) -> None:
    x, keep, out = zeros((2, 2), F32), device_tensor(np.ones((2, 2), bool), BOOL), zeros((4,), F32)
    phase1 = A.aclnnMaskedSelectGetWorkspaceSize
    rejects(phase1(None, keep.handle, out.handle)[2], NULLPTR, "self")
    rejects(phase1(x.handle, None, out.handle)[2], NULLPTR, "mask")
    rejects(phase1(x.handle, keep.handle, None)[2], NULLPTR, "out")
    c64 = device_tensor(np.zeros((2, 2), np.complex64), C64)
    rejects(phase1(c64.handle, keep.handle, out.handle)[2], INVALID, "self dtype")
    rejects(phase1(x.handle, zeros((2, 2), F32).handle, out.handle)[2], INVALID, "mask dtype")
    rejects(phase1(x.handle, keep.handle, zeros((4,), C64).handle)[2], INVALID, "out dtype")
    rejects(phase1(zeros((1,) * 9, F32).handle, keep.handle, out.handle)[2], INVALID, "self has 9 dims")
    bad_mask = device_tensor(np.ones((3,), bool), BOOL)
    rejects(phase1(x.handle, bad_mask.handle, out.handle)[2], INVALID, "cannot broadcast")
    rejects(phase1(x.handle, keep.handle, zeros((2, 2), F32).handle)[2], INVALID, "1 dimension(s), but got 2")
    rejects(phase1(x.handle, keep.handle, zeros((5,), F32).handle)[2], INVALID, "y.shape: 5, broadcastShape.shape: 4")


# -- aclnnOneHot ----------------------------------------------------------------------------------
def one_hot(stream: int, x: npu.Tensor, classes: int, on: npu.Tensor, off: npu.Tensor, axis: int,
            out: npu.Tensor) -> tuple[int, Any]:  # fmt: skip
    return two_phase(stream, A.aclnnOneHotGetWorkspaceSize, A.aclnnOneHot, x.handle, classes, on.handle, off.handle,
                     axis, out.handle)  # fmt: skip


def golden_one_hot(labels: np.ndarray, classes: int, axis: int, on: Any, off: Any, dtype: np.dtype) -> np.ndarray:
    hot = labels[..., None] == np.arange(classes)
    result = np.where(hot, on, off).astype(dtype)
    return np.moveaxis(result, -1, axis if axis >= 0 else -1)


def test_one_hot_documented_example(stream: int) -> None:
    """int32 self [4, 2] = 0 1 2 3 3 2 1 0, numClasses 4, on 1, off 0, axis -1: out [4, 2, 4]."""
    labels = np.array([0, 1, 2, 3, 3, 2, 1, 0], np.int32).reshape(4, 2)
    on, off = device_tensor(np.array([1], np.int32), I32), device_tensor(np.array([0], np.int32), I32)
    out = zeros((4, 2, 4), I32)
    ret, executor = one_hot(stream, device_tensor(labels, I32), 4, on, off, -1, out)
    assert ret == 0 and launched(executor) == ["OneHot"]
    assert_exact(out.storage(), golden_one_hot(labels, 4, -1, 1, 0, np.dtype(np.int32)))


@pytest.mark.parametrize("value_dtype", [F16, F32, I32, I64], ids=NAMES.get)
@pytest.mark.parametrize("index_dtype", [I32, I64], ids=NAMES.get)
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_one_hot_dtypes_and_axes(stream: int, index_dtype: int, value_dtype: int, axis: int) -> None:
    """Labels outside [0, numClasses) give offValue everywhere."""
    labels = np.array([[0, 4, -1], [2, 1, 3]], np_dtype(index_dtype))
    dtype = np_dtype(value_dtype)
    on = device_tensor(np.array([5], dtype), value_dtype)
    off = device_tensor(np.array([-2], dtype), value_dtype)
    golden = golden_one_hot(labels, 4, axis, 5, -2, dtype)
    out = zeros(golden.shape, value_dtype)
    assert one_hot(stream, device_tensor(labels, index_dtype), 4, on, off, axis, out)[0] == 0
    assert_exact(out.storage(), golden)


def test_one_hot_large_strided_and_empty(stream: int) -> None:
    storage = np.random.default_rng(2).integers(0, 100, (500, 400)).astype(np.int64)
    x = device_tensor(storage, I64, shape=(400, 250), strides=(1, 800))
    on, off = device_tensor(np.array([1], np.float32), F32), device_tensor(np.array([0], np.float32), F32)
    out = zeros((400, 250, 2), F32)
    assert one_hot(stream, x, 2, on, off, -1, out)[0] == 0
    assert_exact(out.storage(), golden_one_hot(strided_view(storage, (400, 250), (1, 800)), 2, -1, 1, 0,
                                               np.dtype(np.float32)))  # fmt: skip
    ret, executor = one_hot(stream, zeros((0, 2), I64), 3, on, off, -1, zeros((0, 2, 3), F32))
    assert ret == 0 and launched(executor) == []
    ret, executor = one_hot(stream, zeros((2,), I64), 0, on, off, -1, zeros((2, 0), F32))
    assert ret == 0 and launched(executor) == []


def test_one_hot_null_and_invalid(stream: int) -> None:
    x, on, off = (
        zeros((2,), I32),
        device_tensor(np.array([1], np.int32), I32),
        device_tensor(np.array([0], np.int32), I32),
    )
    out = zeros((2, 3), I32)
    phase1 = A.aclnnOneHotGetWorkspaceSize
    for args, name in (((None, 3, on.handle, off.handle, -1, out.handle), "self"),
                       ((x.handle, 3, None, off.handle, -1, out.handle), "onValue"),
                       ((x.handle, 3, on.handle, None, -1, out.handle), "offValue"),
                       ((x.handle, 3, on.handle, off.handle, -1, None), "out")):  # fmt: skip
        rejects(phase1(*args)[2], NULLPTR, name)
    f32 = zeros((2,), F32)
    rejects(phase1(f32.handle, 3, on.handle, off.handle, -1, out.handle)[2], INVALID, "self dtype")
    rejects(phase1(x.handle, 3, on.handle, off.handle, -1, zeros((2, 3), BOOL).handle)[2], INVALID, "out dtype")
    on64 = device_tensor(np.array([1], np.int64), I64)
    rejects(phase1(x.handle, 3, on64.handle, off.handle, -1, out.handle)[2], INVALID, "onValue dtype")
    rejects(phase1(zeros((1,) * 9, I32).handle, 3, on.handle, off.handle, -1, out.handle)[2], INVALID, "9 dims")
    rejects(phase1(x.handle, -1, on.handle, off.handle, -1, out.handle)[2], INVALID, "greater and equal than 0")
    rejects(phase1(zeros((0,), I32).handle, 0, on.handle, off.handle, -1, zeros((0, 0), I32).handle)[2], INVALID,
            "greater than 0, but got 0")  # fmt: skip
    rejects(phase1(x.handle, 3, on.handle, off.handle, -2, out.handle)[2], INVALID, "greater and equal than -1")
    rejects(phase1(x.handle, 3, on.handle, off.handle, 2, out.handle)[2], INVALID, "lower and equal than 1")
    rejects(phase1(x.handle, 3, on.handle, off.handle, -1, zeros((6,), I32).handle)[2], INVALID, "2 dimension(s)")
    rejects(phase1(x.handle, 3, on.handle, off.handle, 0, out.handle)[2], INVALID, "should be [3, 2]")


# -- aclnnIndexFillTensor / aclnnInplaceIndexFillTensor --------------------------------------------
FILL_DTYPES = (I32, F16, F32, I64, BOOL, BF16)


def session_scalar(value: Any, dtype: int) -> Any:
    """An aclScalar of ``dtype`` owned by the test's session."""
    return session().scalar(value, dtype).handle


def golden_fill(host: np.ndarray, dim: int, index: Sequence[int], value: Any) -> np.ndarray:
    result = host.copy()
    if host.ndim == 0:
        return np.array(value, host.dtype)
    moved = np.moveaxis(result, dim, 0)
    moved[list(index)] = np.float32(value)
    return result


def test_index_fill_tensor_documented_example(stream: int) -> None:
    """self [3, 3] = 0..8, dim 1, index [0], value 10.0: column 0 becomes 10 (in place and out of place)."""
    host = np.arange(9, dtype=np.float32).reshape(3, 3)
    x, out = device_tensor(host, F32), zeros((3, 3), F32)
    value, index = session_scalar(10.0, F32), A.aclCreateIntArray([0], 1)
    ret, executor = two_phase(stream, A.aclnnIndexFillTensorGetWorkspaceSize, A.aclnnIndexFillTensor, x.handle, 1,
                              index, value, out.handle)  # fmt: skip
    assert ret == 0
    assert launched(executor) == ["CopyToNpu", "CopyToNpu", "IndexFillD"]
    assert_exact(out.storage(), golden_fill(host, 1, [0], 10))
    ret, _ = two_phase(stream, A.aclnnInplaceIndexFillTensorGetWorkspaceSize, A.aclnnInplaceIndexFillTensor,
                       x.handle, 1, index, value)  # fmt: skip
    assert ret == 0
    assert_exact(x.storage(), golden_fill(host, 1, [0], 10))


@pytest.mark.parametrize("dtype", FILL_DTYPES, ids=NAMES.get)
def test_index_fill_tensor_every_dtype(stream: int, dtype: int) -> None:
    """Each A2 dtype; negative indices count from the end; the value goes through float32."""
    host = random_array((3, 4, 2), dtype, seed=36)
    x = device_tensor(host, dtype)
    fill = 1 if dtype == BOOL else 3
    index = A.aclCreateIntArray([-1, 0], 2)
    ret, _ = two_phase(stream, A.aclnnInplaceIndexFillTensorGetWorkspaceSize, A.aclnnInplaceIndexFillTensor,
                       x.handle, -2, index, session_scalar(fill, I64))  # fmt: skip
    assert ret == 0
    golden = host.copy()
    golden[:, [3, 0]] = fill
    assert_exact(x.storage(), golden)


def test_index_fill_tensor_float32_rounding_strides_and_empty(stream: int) -> None:
    """An int64 fill of 2^24 + 1 is rounded through float32 (as ToFloat does); a strided out; empty cases."""
    host = np.zeros((2, 3), np.int64)
    out = zeros((2, 3), I64)
    ret, _ = two_phase(stream, A.aclnnIndexFillTensorGetWorkspaceSize, A.aclnnIndexFillTensor,
                       device_tensor(host, I64).handle, 0, A.aclCreateIntArray([1], 1),
                       session_scalar(2**24 + 1, I64), out.handle)  # fmt: skip
    assert ret == 0
    assert out.storage().tolist() == [[0, 0, 0], [2**24] * 3]
    storage = np.full((4, 6), -1, np.float32)
    strided = device_tensor(storage, F32, shape=(4, 3), strides=(6, 2))
    src = random_array((4, 3), F32, seed=37)
    ret, _ = two_phase(stream, A.aclnnIndexFillTensorGetWorkspaceSize, A.aclnnIndexFillTensor,
                       device_tensor(src, F32).handle, 0, A.aclCreateIntArray([2], 1), session_scalar(0.5, F32),
                       strided.handle)  # fmt: skip
    assert ret == 0
    golden = storage.copy()
    golden[:, ::2] = golden_fill(src, 0, [2], 0.5)
    assert_exact(strided.storage(), golden)
    empty_index = A.aclCreateIntArray([], 0)
    out = zeros((4, 3), F32)
    ret, executor = two_phase(
        stream,
        A.aclnnIndexFillTensorGetWorkspaceSize,
        A.aclnnIndexFillTensor,
        device_tensor(src, F32).handle,
        0,
        empty_index,
        session_scalar(1.0, F32),
        out.handle,
    )
    assert ret == 0 and "IndexFillD" not in launched(executor)
    assert_exact(out.storage(), src)
    ws, executor, ret = A.aclnnInplaceIndexFillTensorGetWorkspaceSize(zeros((0, 2), F32).handle, 0,
                                                                      A.aclCreateIntArray([5], 1),
                                                                      session_scalar(1.0, F32))  # fmt: skip
    assert (ws, ret) == (0, 0) and launched(executor) == []


def test_index_fill_tensor_null_and_invalid(stream: int) -> None:
    x, one, value = zeros((2, 3), F32), A.aclCreateIntArray([1], 1), session_scalar(1.0, F32)
    phase1 = A.aclnnIndexFillTensorGetWorkspaceSize
    cases = (
        ((None, 0, one, value, x.handle), "self"),
        ((x.handle, 0, None, value, x.handle), "index"),
        ((x.handle, 0, one, None, x.handle), "value"),
        ((x.handle, 0, one, value, None), "out"),
    )
    for args, name in cases:
        rejects(phase1(*args)[2], NULLPTR, name)
    rejects(phase1(zeros((2,), U8).handle, 0, one, value, zeros((2,), U8).handle)[2], INVALID, "self dtype")
    rejects(phase1(x.handle, 0, one, value, zeros((2, 3), F16).handle)[2], INVALID, "out dtype")
    rejects(phase1(x.handle, 0, one, value, zeros((3, 2), F32).handle)[2], INVALID, "should be the same")
    rejects(phase1(zeros((1,) * 9, F32).handle, 0, A.aclCreateIntArray([0], 1), value,
                   zeros((1,) * 9, F32).handle)[2], INVALID, "more than 8")  # fmt: skip
    rejects(phase1(x.handle, 2, one, value, x.handle)[2], INVALID, "greater than self dim[2]")
    rejects(phase1(x.handle, -3, one, value, x.handle)[2], INVALID, "abs(input dim[-3])")
    rejects(phase1(x.handle, 0, A.aclCreateIntArray([2], 1), value, x.handle)[2], INVALID, "Index value[2]")
    rejects(phase1(x.handle, 0, A.aclCreateIntArray([-3], 1), value, x.handle)[2], INVALID, "Index value[-3]")
    rejects(phase1(x.handle, 0, one, session_scalar(1j, C64), x.handle)[2], INVALID, "complex")
