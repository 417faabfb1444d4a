"""The indexing and shape ops of issue 14: Tril / Triu / InplaceTriu, Roll, Repeat, IndexSelect,
GatherV2, SWhere ...

Per op: the official example's values, every dtype of the A2 list, non-trivial shapes (batched,
strided and offset views, empty tensors, 8-D), the SoC-dependent support lists, and each status the
real L2 code returns, with the text aclGetRecentErrMsg gives back. The ops only move elements, so
results are checked bit for bit (and with the precision standard) against a numpy golden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor
from test_data_ops import assert_exact, launched, random_array, run, strided_view, zeros

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
    assert triangle(stream, "aclnnTril", device_tensor(values, I32), 0, out)[0] == 0
    assert_exact(out.storage(), np.array([[1, 0, 0], [4, 5, 0], [7, 8, 9]], np.int32))


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
