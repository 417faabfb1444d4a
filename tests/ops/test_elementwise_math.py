"""The elementwise math family of issue 14 on the simulated A2 NPU: aclnnAtan, aclnnCos, aclnnSin,
aclnnFloor, aclnnReciprocal, aclnnSign and their in-place variants.

Each op: the official example's values, every A2 dtype (float outputs against a float64 golden with
the precision standard, integer / bool outputs bit-exact), a strided input and output view, an empty
tensor, and every status the real L2 code checks, in its order, with its aclGetRecentErrMsg text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, np_dtype, random_values, run_op, status, to_device, wide

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
CPU_FLOATS = (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
INTS_BOOL = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_UINT8)


def _complex_sign(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "b":
        return x.copy()
    if x.dtype.kind != "c":
        return np.sign(x)
    magnitude = np.abs(x)
    return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude))


GOLDENS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "aclnnAtan": np.arctan,
    "aclnnCos": np.cos,
    "aclnnSin": np.sin,
    "aclnnFloor": np.floor,
    "aclnnReciprocal": np.reciprocal,
    "aclnnSign": _complex_sign,
}
INPLACE = {"aclnnInplaceAtan": "aclnnAtan", "aclnnInplaceCos": "aclnnCos", "aclnnInplaceSin": "aclnnSin",
           "aclnnInplaceFloor": "aclnnFloor", "aclnnInplaceReciprocal": "aclnnReciprocal"}  # fmt: skip


def _cases(api: str, same: tuple[int, ...], to_float: tuple[int, ...] = ()) -> list[tuple[str, int, int]]:
    return [(api, d, d) for d in same] + [(api, d, D.DT_FLOAT) for d in to_float]


CASES = [
    *_cases("aclnnAtan", (*FLOATS, D.DT_DOUBLE), INTS_BOOL),
    *_cases("aclnnCos", (*FLOATS, *CPU_FLOATS), INTS_BOOL),
    *_cases("aclnnSin", (*FLOATS, *CPU_FLOATS), INTS_BOOL),
    *_cases("aclnnFloor", (*FLOATS, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                           D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)),
    *_cases("aclnnReciprocal", (*FLOATS, *CPU_FLOATS), INTS_BOOL),
    *_cases("aclnnSign", (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT32, D.DT_INT64, D.DT_BOOL,
                          D.DT_COMPLEX64, D.DT_COMPLEX128)),
]  # fmt: skip


def _id(case: tuple[str, int, int]) -> str:
    api, s, o = case
    return f"{api[5:]}-{D(s).name}" + (f"-to-{D(o).name}" if o != s else "")


def phase(api: str) -> tuple[Callable[..., Any], Callable[..., int]]:
    return getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api)


def golden(api: str, x: np.ndarray, out_dtype: int) -> np.ndarray:
    target = np_dtype(out_dtype)
    source = wide(x)
    if target.kind in "iub":
        return np.asarray(GOLDENS[api](source)).astype(target)
    with np.errstate(all="ignore"):
        return np.asarray(GOLDENS[api](source.astype(np.complex128 if x.dtype.kind == "c" else np.float64)))


def inputs(api: str, dtype: int, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    values = random_values(dtype, shape, np.random.default_rng(seed), nonzero=api == "aclnnReciprocal")
    if api == "aclnnSign" and values.size > 2 and dtype not in (D.DT_BOOL,):
        values.reshape(-1)[:2] = 0  # sign(0) = 0 must be seen too
    return values


@pytest.mark.parametrize("layout", ["dense", "strided", "empty"])
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_values(stream: int, case: tuple[str, int, int], layout: str) -> None:
    """Each supported A2 dtype meets the precision standard (bit-exact for integer / bool outputs); a
    strided view in and out leaves the output's gaps alone; an empty tensor launches nothing."""
    api, self_dtype, out_dtype = case
    shape = (0, 3) if layout == "empty" else (7, 33)
    strided = layout == "strided"
    x_host = inputs(api, self_dtype, shape)
    x = to_device(x_host, self_dtype, strided=strided)
    out = empty_out(shape, out_dtype, strided=strided)
    ws = run_op(*phase(api), stream, x.handle, out.handle)
    if layout == "empty":
        assert ws == 0
    check(out, golden(api, x_host, out_dtype))


@pytest.mark.parametrize("api", sorted(INPLACE))
@pytest.mark.parametrize("dtype", [D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE])
def test_inplace(stream: int, api: str, dtype: int) -> None:
    """The in-place variant writes its base op's result over selfRef (a strided view here)."""
    base = INPLACE[api]
    x_host = inputs(base, dtype, (5, 17), seed=4)
    x = to_device(x_host, dtype, strided=True, fill=3)
    run_op(*phase(api), stream, x.handle)
    check(x, golden(base, x_host, dtype))


def _host(tensor: Any) -> np.ndarray:
    return np.asarray(tensor.numpy())


EXAMPLES = {
    "aclnnAtan": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    "aclnnCos": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    "aclnnSin": [0, 1, 2, 3, 4, 5, 6, 7],
    "aclnnFloor": [1.3, 2.5, 6.7, -4, -1.4, -1.6, -8, -16.9],
    "aclnnReciprocal": [0, 1, 2, 3, 4, 5, 6, 7],
    "aclnnSign": [1, 2, 3, 4, 5, 6, 7, 8],
}


@pytest.mark.parametrize("api", sorted(EXAMPLES))
def test_documented_example(stream: int, api: str) -> None:
    """The official example's float32 (4, 2) input gives the documented results (1 / 0 = inf)."""
    x_host = np.array(EXAMPLES[api], np.float32).reshape(4, 2)
    x = to_device(x_host, D.DT_FLOAT)
    out = empty_out((4, 2), D.DT_FLOAT)
    run_op(*phase(api), stream, x.handle, out.handle)
    result = _host(out)
    with np.errstate(divide="ignore"):
        expected = GOLDENS[api](x_host.astype(np.float64))
    np.testing.assert_allclose(result, expected, rtol=1e-6)


def test_floor_of_integers_is_a_copy(stream: int) -> None:
    """Floor of an integer self launches no Floor kernel: the values are copied."""
    x_host = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)
    x = to_device(x_host, D.DT_INT32)
    out = empty_out((3, 4), D.DT_INT32)
    _, executor, ret = aclnn.aclnnFloorGetWorkspaceSize(x.handle, out.handle)
    assert ret == 0
    assert "Floor" not in [launcher.name for launcher in executor.launchers]
    assert aclnn.aclnnFloor(0, 0, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert np.array_equal(_host(out), x_host)


def test_special_values(stream: int) -> None:
    """IEEE edge values: 1/±0 = ±inf, floor keeps ±inf and NaN, sign(NaN) = NaN, sign(-0.0) = 0."""
    x_host = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -2.5], np.float32)
    results = {}
    for api in ("aclnnReciprocal", "aclnnFloor", "aclnnSign"):
        x = to_device(x_host, D.DT_FLOAT)
        out = empty_out((6,), D.DT_FLOAT)
        run_op(*phase(api), stream, x.handle, out.handle)
        results[api] = _host(out)
    np.testing.assert_array_equal(results["aclnnReciprocal"], np.float32([np.inf, -np.inf, 0.0, -0.0, np.nan, -0.4]))
    np.testing.assert_array_equal(results["aclnnFloor"], [0.0, -0.0, np.inf, -np.inf, np.nan, -3.0])
    np.testing.assert_array_equal(results["aclnnSign"], [0.0, 0.0, 1.0, -1.0, np.nan, -1.0])


# -- statuses ------------------------------------------------------------------------------------------------
def _t(dtype: int, shape: tuple[int, ...] = (2, 3)) -> Callable[[], Any]:
    return lambda: empty_out(shape, dtype).handle


RANK9 = (1,) * 9
TWO_ARG = sorted(GOLDENS)


@pytest.mark.parametrize("api", TWO_ARG)
@pytest.mark.parametrize("which", [0, 1])
def test_null_argument(stream: int, api: str, which: int) -> None:
    """A null self or out is 161001, and the text names the parameter."""
    t = empty_out((2, 3), D.DT_FLOAT).handle
    args = [t, t]
    args[which] = None
    assert status(phase(api)[0], *args) == NULLPTR
    assert "not to be a null pointer" in acl.get_recent_err_msg()


@pytest.mark.parametrize("api", sorted(INPLACE))
def test_null_selfref(stream: int, api: str) -> None:
    assert status(phase(api)[0], None) == NULLPTR


INVALID_CASES: list[tuple[str, str, list[Callable[[], Any]], str]] = [
    ("aclnnAtan", "input-complex", [_t(D.DT_COMPLEX64), _t(D.DT_FLOAT)], "input dtype DT_COMPLEX64 should be in"),
    ("aclnnAtan", "out-int32", [_t(D.DT_FLOAT), _t(D.DT_INT32)], "out dtype DT_INT32 should be in"),
    ("aclnnAtan", "out-complex", [_t(D.DT_FLOAT), _t(D.DT_COMPLEX64)], "out dtype DT_COMPLEX64 should be in"),
    ("aclnnAtan", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (3, 2))], "should be the same as self shape"),
    ("aclnnAtan", "rank9", [_t(D.DT_FLOAT, RANK9), _t(D.DT_FLOAT, RANK9)], "more than 8"),
    ("aclnnInplaceAtan", "selfref-int32", [_t(D.DT_INT32)], "selfRef dtype DT_INT32 should be in"),
    ("aclnnCos", "input-uint16", [_t(D.DT_UINT16), _t(D.DT_FLOAT)], "input dtype DT_UINT16 should be in"),
    ("aclnnCos", "out-int64", [_t(D.DT_FLOAT), _t(D.DT_INT64)], "out dtype DT_INT64 should be in"),
    ("aclnnCos", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (6,))], "should be the same as self shape"),
    ("aclnnCos", "rank9", [_t(D.DT_FLOAT, RANK9), _t(D.DT_FLOAT, RANK9)], "more than 8"),
    ("aclnnInplaceCos", "selfref-bool", [_t(D.DT_BOOL)], "selfRef dtype DT_BOOL should be in"),
    ("aclnnSin", "self-uint32", [_t(D.DT_UINT32), _t(D.DT_FLOAT)], "self dtype DT_UINT32 should be in"),
    ("aclnnSin", "out-int8", [_t(D.DT_FLOAT), _t(D.DT_INT8)], "out dtype DT_INT8 should be in"),
    ("aclnnSin", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (2, 4))], "should be the same as self shape"),
    ("aclnnSin", "rank9", [_t(D.DT_FLOAT, RANK9), _t(D.DT_FLOAT, RANK9)], "more than 8"),
    ("aclnnInplaceSin", "selfref-int8", [_t(D.DT_INT8)], "selfRef dtype DT_INT8 should be in"),
    ("aclnnFloor", "out-dtype-differs", [_t(D.DT_FLOAT), _t(D.DT_FLOAT16)], "out dtype DT_FLOAT16 should be DT_FLOAT"),
    ("aclnnFloor", "self-bool", [_t(D.DT_BOOL), _t(D.DT_BOOL)], "self dtype DT_BOOL should be in"),
    ("aclnnFloor", "self-complex", [_t(D.DT_COMPLEX64), _t(D.DT_COMPLEX64)], "self dtype DT_COMPLEX64 should be in"),
    ("aclnnFloor", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (3, 3))], "should be the same as self shape"),
    ("aclnnFloor", "rank9", [_t(D.DT_FLOAT, RANK9), _t(D.DT_FLOAT, RANK9)], "more than 8"),
    ("aclnnInplaceFloor", "selfref-bool", [_t(D.DT_BOOL)], "self dtype DT_BOOL should be in"),
    ("aclnnReciprocal", "self-uint16", [_t(D.DT_UINT16), _t(D.DT_FLOAT)], "self dtype DT_UINT16 should be in"),
    ("aclnnReciprocal", "out-int32", [_t(D.DT_INT32), _t(D.DT_INT32)], "out dtype DT_INT32 should be in"),
    ("aclnnReciprocal", "rank9", [_t(D.DT_FLOAT, RANK9), _t(D.DT_FLOAT, RANK9)], "more than 8"),
    ("aclnnReciprocal", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (3, 2))], "should be the same as self shape"),
    ("aclnnInplaceReciprocal", "selfref-int64", [_t(D.DT_INT64)], "selfRef dtype DT_INT64 should be in"),
    ("aclnnSign", "self-int8", [_t(D.DT_INT8), _t(D.DT_INT8)], "self dtype [DT_INT8] should be in dtype support list"),
    ("aclnnSign", "result-dtype-differs", [_t(D.DT_FLOAT), _t(D.DT_INT32)],
     "Self dtype should be same as result dtype. self [DT_FLOAT], result [DT_INT32]"),
    ("aclnnSign", "shape", [_t(D.DT_FLOAT), _t(D.DT_FLOAT, (3, 2))], "should be the same as self shape"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("api", "label", "makers", "text"), INVALID_CASES, ids=[f"{c[0][5:]}-{c[1]}" for c in INVALID_CASES]
)
def test_invalid_parameter(stream: int, api: str, label: str, makers: list[Callable[[], Any]], text: str) -> None:
    """Each check of the real L2 code gives 161002 and its text."""
    args = [make() for make in makers]
    assert status(phase(api)[0], *args) == INVALID
    assert text in acl.get_recent_err_msg()


def test_reciprocal_formats_must_match(stream: int) -> None:
    """Reciprocal compares the two storage formats (an NCHW self against an ND out is 161002)."""
    from device_helpers import device_tensor

    x = device_tensor(np.ones((1, 2, 2, 2), np.float32), D.DT_FLOAT, fmt=aclnn.ACL_FORMAT_NCHW)
    out = empty_out((1, 2, 2, 2), D.DT_FLOAT)
    assert status(aclnn.aclnnReciprocalGetWorkspaceSize, x.handle, out.handle) == INVALID
    assert "Format of input and output should be equal" in acl.get_recent_err_msg()


def test_sign_has_no_rank_limit(stream: int) -> None:
    """Sign takes a 9-d self (the real op reshapes around its kernel)."""
    shape = (1, 2, 1, 2, 1, 2, 1, 2, 1)
    x_host = np.linspace(-3, 3, 16, dtype=np.float32).reshape(shape)
    x = to_device(x_host, D.DT_FLOAT)
    out = empty_out(shape, D.DT_FLOAT)
    run_op(*phase("aclnnSign"), stream, x.handle, out.handle)
    assert np.array_equal(_host(out), np.sign(x_host))


def test_sign_bf16_into_other_dtype_is_an_inner_error(stream: int) -> None:
    """A bfloat16 self skips the result-dtype check on A2; the ViewCopy then fails: 561103."""
    x = empty_out((2, 3), D.DT_BF16).handle
    out = empty_out((2, 3), D.DT_FLOAT).handle
    assert status(aclnn.aclnnSignGetWorkspaceSize, x, out) == 561103
