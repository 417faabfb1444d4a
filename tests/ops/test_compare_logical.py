"""Part 2 comparisons and logical ops on the emulated Ascend910B: aclnnGeTensor / LtTensor / LeTensor /
NeTensor (+ Inplace), aclnnMaximum / aclnnMinimum, aclnnLogicalAnd / Or / Not (+ Inplace).

Bool results (and integer max/min) are compared bit-exactly, float max/min with the precision standard.
Each op's documented example (a 4x2 float32 pair) runs first; then every A2 dtype across the shape
classes of binary_helpers (empty, one, odd, broadcast, strided, large), the promotions, and each status
case the real L2 code checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import BINARY_SHAPES, COMPLEX, check, empty_out, ident, np_dtype, run_op, status, to_device

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.kernels.math.greater_equal import GE_DTYPES
from emulator.kernels.math.less import LT_DTYPES
from emulator.kernels.math.less_equal import LE_DTYPES
from emulator.kernels.math.logical_and import LOGICAL_DTYPES
from emulator.kernels.math.logical_not import LOGICAL_NOT_DTYPES
from emulator.kernels.math.maximum import MAX_MIN_DTYPES
from emulator.kernels.math.not_equal import NE_DTYPES
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
BF16 = (D.DT_BF16,)
EXAMPLE_SELF = np.arange(8, dtype=np.float32).reshape(4, 2)
EXAMPLE_OTHER = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
# C name -> (numpy golden, the A2 dtype list)
COMPARES: dict[str, tuple[Callable[[Any, Any], Any], tuple[int, ...]]] = {
    "aclnnGeTensor": (np.greater_equal, (*GE_DTYPES, *BF16)),
    "aclnnLtTensor": (np.less, (*LT_DTYPES, *BF16)),
    "aclnnLeTensor": (np.less_equal, (*LE_DTYPES, *BF16)),
    "aclnnNeTensor": (np.not_equal, (*NE_DTYPES, *BF16)),
}
CASES = [(api, dtype) for api, (_, dtypes) in COMPARES.items() for dtype in dtypes]


def _values(dtype: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Few distinct values, so that every comparison outcome happens often."""
    if dtype == D.DT_BOOL:
        return rng.integers(0, 2, shape).astype(bool)
    target = np_dtype(dtype)
    values = rng.integers(0 if target.kind == "u" else -2, 3, shape)
    if dtype in COMPLEX:
        return (values + 1j * rng.integers(0, 2, shape)).astype(target)
    return values.astype(target)


def _phases(api: str) -> tuple[Callable[..., Any], Callable[..., int]]:
    return getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api)


def _run(api: str, stream: int, *tensors: Any) -> None:
    run_op(*_phases(api), stream, *(t.handle for t in tensors))


def _f32(shape: tuple[int, ...]) -> Any:
    return to_device(np.zeros(shape, np.float32), D.DT_FLOAT).handle


def _b8(shape: tuple[int, ...]) -> Any:
    return to_device(np.zeros(shape, bool), D.DT_BOOL).handle


# -- documented examples -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("api", "other", "out_dtype", "golden"),
    [
        ("aclnnGeTensor", EXAMPLE_SELF, D.DT_BOOL, np.ones((4, 2), bool)),
        ("aclnnLtTensor", np.full((4, 2), 5, np.float32), D.DT_FLOAT, (EXAMPLE_SELF < 5).astype(np.float32)),
        ("aclnnLeTensor", EXAMPLE_OTHER, D.DT_FLOAT, (EXAMPLE_SELF <= EXAMPLE_OTHER).astype(np.float32)),
        ("aclnnNeTensor", EXAMPLE_OTHER, D.DT_FLOAT, (EXAMPLE_SELF != EXAMPLE_OTHER).astype(np.float32)),
        ("aclnnMaximum", EXAMPLE_OTHER, D.DT_FLOAT, np.maximum(EXAMPLE_SELF, EXAMPLE_OTHER)),
        ("aclnnMinimum", EXAMPLE_OTHER, D.DT_FLOAT, np.minimum(EXAMPLE_SELF, EXAMPLE_OTHER)),
    ],
)
def test_documented_examples(stream: int, api: str, other: np.ndarray, out_dtype: int, golden: np.ndarray) -> None:
    """The values of each op's official example (4x2 float32 inputs)."""
    x, y, out = to_device(EXAMPLE_SELF, D.DT_FLOAT), to_device(other, D.DT_FLOAT), empty_out((4, 2), out_dtype)
    _run(api, stream, x, y, out)
    check(out, golden)


def test_logical_documented_examples(stream: int) -> None:
    """LogicalAnd / LogicalOr on float32 into float32, LogicalNot on int32 into int32 (the official values)."""
    a = np.array([0, 1, 2, 3, 4, 5, 0, 0], np.float32).reshape(4, 2)
    b = np.array([1, 1, 1, 0, 2, 2, 3, 0], np.float32).reshape(4, 2)
    x, y, out = to_device(a, D.DT_FLOAT), to_device(b, D.DT_FLOAT), empty_out((4, 2), D.DT_FLOAT)
    _run("aclnnLogicalAnd", stream, x, y, out)
    check(out, np.array([0, 1, 1, 0, 1, 1, 0, 0], np.float32).reshape(4, 2))
    a = np.array([0, 1, 2, 3, 0, 5, 0, 0], np.float32).reshape(4, 2)
    b = np.array([1, 1, 1, 0, 0, 2, 3, 0], np.float32).reshape(4, 2)
    x, y, out = to_device(a, D.DT_FLOAT), to_device(b, D.DT_FLOAT), empty_out((4, 2), D.DT_FLOAT)
    _run("aclnnLogicalOr", stream, x, y, out)
    check(out, np.array([1, 1, 1, 1, 0, 1, 1, 0], np.float32).reshape(4, 2))
    n = np.array([0, 1, 0, 2, 0, 3, 4, 0, 0], np.int32).reshape(3, 3)
    x, out = to_device(n, D.DT_INT32), empty_out((3, 3), D.DT_INT32)
    _run("aclnnLogicalNot", stream, x, out)
    check(out, (n == 0).astype(np.int32))


# -- comparisons: dtypes, shapes, inplace -------------------------------------------------------
@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize(("api", "dtype"), CASES, ids=ident)
def test_compare_dtypes_and_shapes(stream: int, api: str, dtype: int, case: str) -> None:
    """Each comparison is bit-exact against numpy for every A2 dtype and shape class."""
    golden, _ = COMPARES[api]
    rng = np.random.default_rng(61)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), D.DT_BOOL, strided=strided)
    _run(api, stream, x, y, out)
    check(out, golden(a, b))


@pytest.mark.parametrize("api", COMPARES)
def test_compare_mixed_dtypes_and_inplace(stream: int, api: str) -> None:
    """int8 against float32 compares in float32 into an int32 out; the inplace form writes selfRef's dtype."""
    golden, _ = COMPARES[api]
    rng = np.random.default_rng(62)
    a, b = _values(D.DT_INT8, (4, 17), rng), rng.uniform(-2, 2, (17,)).astype(np.float32)
    x, y, out = to_device(a, D.DT_INT8), to_device(b, D.DT_FLOAT), empty_out((4, 17), D.DT_INT32)
    _run(api, stream, x, y, out)
    check(out, golden(a, b).astype(np.int32))
    c = np.round(rng.uniform(-2, 2, (4, 17))).astype(np.float16)
    z = to_device(c, D.DT_FLOAT16)
    inplace = api.replace("aclnn", "aclnnInplace")
    _run(inplace, stream, z, to_device(np.round(b), D.DT_FLOAT))
    check(z, golden(c.astype(np.float32), np.round(b)).astype(np.float16))


@pytest.mark.parametrize("api", COMPARES)
def test_compare_bool_inputs(stream: int, api: str) -> None:
    """bool against bool (promoted to int8 / uint8 / float32, or compared as bool by NeTensor)."""
    golden, _ = COMPARES[api]
    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    x, y, out = to_device(a, D.DT_BOOL), to_device(b, D.DT_BOOL), empty_out((4,), D.DT_BOOL)
    _run(api, stream, x, y, out)
    check(out, golden(a.astype(np.int8), b.astype(np.int8)))


def _errors_common(api: str) -> None:
    phase1, _ = _phases(api)
    x, y, out = _f32((2, 3)), _f32((3,)), _b8((2, 3))
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
        assert "null" in acl.get_recent_err_msg()
    assert status(phase1, x, _f32((2,)), out) == INVALID  # no broadcast
    assert "cannot broadcast" in acl.get_recent_err_msg()
    assert status(phase1, x, y, _b8((3, 2))) == INVALID  # out shape
    assert "broadcast shape" in acl.get_recent_err_msg()
    nine = _f32((1,) * 9)
    assert status(phase1, nine, nine, _b8((1,) * 9)) == INVALID
    assert "more than 8" in acl.get_recent_err_msg()


def test_ge_tensor_errors(stream: int) -> None:
    """GeTensor: out dtype first, then the promoted dtype (self / other themselves are not listed)."""
    _errors_common("aclnnGeTensor")
    phase1 = aclnn.aclnnGeTensorGetWorkspaceSize
    x, out = _f32((2, 3)), _b8((2, 3))
    c64 = to_device(np.zeros((2, 3), np.complex64), D.DT_COMPLEX64).handle
    assert status(phase1, c64, c64, out) == INVALID  # promoted complex64 is not in the list
    assert "promoted dtype" in acl.get_recent_err_msg()
    assert status(phase1, x, x, to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle) == 0  # a listed out
    u16, i16 = (to_device(np.zeros((2, 3), d), t).handle for d, t in ((np.uint16, D.DT_UINT16), (np.int16, D.DT_INT16)))
    assert status(phase1, u16, i16, out) == INVALID  # uint16 with int16: no promotion
    assert "can not be promoted" in acl.get_recent_err_msg()
    assert status(phase1, _f32((0, 3)), _f32((3,)), _b8((0, 3))) == 0


@pytest.mark.parametrize("api", ["aclnnLtTensor", "aclnnLeTensor", "aclnnNeTensor"])
def test_listed_compare_errors(stream: int, api: str) -> None:
    """Lt / Le / Ne check self, other and out against the list; Le and Ne accept an empty call before that."""
    _errors_common(api)
    phase1, _ = _phases(api)
    out = _b8((2, 3))
    odd = D.DT_UINT32 if api != "aclnnLtTensor" else D.DT_COMPLEX64
    bad = to_device(np.zeros((2, 3), np_dtype(odd)), odd).handle
    assert status(phase1, bad, _f32((2, 3)), out) == INVALID
    assert "self dtype" in acl.get_recent_err_msg()
    assert status(phase1, _f32((2, 3)), bad, out) == INVALID
    assert "other dtype" in acl.get_recent_err_msg()
    empty_bad = to_device(np.zeros((0, 3), np_dtype(odd)), odd).handle
    expected = 0 if api in ("aclnnLeTensor", "aclnnNeTensor") else INVALID
    assert status(phase1, empty_bad, _f32((3,)), _b8((0, 3))) == expected


def test_inplace_lt_names_the_out_of_place_api(stream: int) -> None:
    """The real aclnnInplaceLtTensor calls aclnnLtTensorGetWorkspaceSize: its messages name aclnnLtTensor."""
    assert status(aclnn.aclnnInplaceLtTensorGetWorkspaceSize, _f32((2, 3)), _f32((4,))) == INVALID
    assert acl.get_recent_err_msg().count("aclnnLtTensor")


# -- Maximum / Minimum ----------------------------------------------------------------------------
MAXMIN = {"aclnnMaximum": np.maximum, "aclnnMinimum": np.minimum}


@pytest.mark.parametrize("case", ["one", "odd", "broadcast", "strided", "empty"])
@pytest.mark.parametrize("dtype", (*MAX_MIN_DTYPES, D.DT_BF16), ids=ident)
@pytest.mark.parametrize("api", MAXMIN)
def test_max_min_dtypes_and_shapes(stream: int, api: str, dtype: int, case: str) -> None:
    """Every A2 dtype (AI Core, AI CPU, bool through LogicalOr / LogicalAnd) and shape class."""
    rng = np.random.default_rng(63)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(dtype, other_shape, rng)
    if np_dtype(dtype).kind == "f" or dtype == D.DT_BF16:
        a = (a + rng.uniform(-0.5, 0.5, self_shape)).astype(np_dtype(dtype))
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), dtype, strided=strided)
    _run(api, stream, x, y, out)
    check(out, MAXMIN[api](a, b))


@pytest.mark.parametrize("api", MAXMIN)
def test_max_min_promotion_and_nan(stream: int, api: str) -> None:
    """int32 with float16 computes in float16 into float32; a NaN operand gives NaN."""
    a = np.array([1, -3, 7, 0], np.int32)
    b = np.array([0.5, np.nan, 9.0, -1.0], np.float16)
    x, y, out = to_device(a, D.DT_INT32), to_device(b, D.DT_FLOAT16), empty_out((4,), D.DT_FLOAT)
    _run(api, stream, x, y, out)
    check(out, MAXMIN[api](a.astype(np.float16), b).astype(np.float32))


@pytest.mark.parametrize("api", MAXMIN)
def test_max_min_errors(stream: int, api: str) -> None:
    """Nulls 161001; self / other / out dtype, promotion, cast to out, rank, broadcast, out shape 161002."""
    phase1, _ = _phases(api)
    x, y, out = _f32((2, 3)), _f32((3,)), _f32((2, 3))
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    u32 = to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle
    for args, text in (((u32, y, out), "self dtype"), ((x, u32, out), "other dtype"), ((x, y, u32), "out dtype")):
        assert status(phase1, *args) == INVALID
        assert text in acl.get_recent_err_msg()
    i32 = to_device(np.zeros((2, 3), np.int32), D.DT_INT32).handle
    assert status(phase1, x, y, i32) == INVALID  # float32 can't be cast to int32
    assert "can't be cast" in acl.get_recent_err_msg()
    assert status(phase1, x, _f32((2,)), out) == INVALID
    assert status(phase1, x, y, _f32((3, 2))) == INVALID
    assert status(phase1, _f32((1,) * 9), _f32((1,)), _f32((1,) * 9)) == INVALID
    assert status(phase1, _f32((0, 3)), y, _f32((0, 3))) == 0


# -- LogicalAnd / LogicalOr / LogicalNot --------------------------------------------------------
LOGICAL = {"aclnnLogicalAnd": np.logical_and, "aclnnLogicalOr": np.logical_or}


@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize("dtype", LOGICAL_DTYPES, ids=ident)
@pytest.mark.parametrize("api", LOGICAL)
def test_logical_binary_dtypes_and_shapes(stream: int, api: str, dtype: int, case: str) -> None:
    """Any listed dtype is read as bool (nonzero); bool out; strided / broadcast / empty views."""
    rng = np.random.default_rng(64)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(D.DT_FLOAT, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, D.DT_FLOAT, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), D.DT_BOOL, strided=strided)
    _run(api, stream, x, y, out)
    check(out, LOGICAL[api](a, b))


@pytest.mark.parametrize("api", LOGICAL)
def test_logical_binary_inplace_and_errors(stream: int, api: str) -> None:
    """The inplace form writes selfRef's dtype; nulls 161001; dtype, rank, broadcast, out shape 161002."""
    a = np.array([[0, 2, 0], [1, 0, 3]], np.int32)
    b = np.array([1, 0, 0], np.int8)
    x, y = to_device(a, D.DT_INT32), to_device(b, D.DT_INT8)
    _run(api.replace("aclnn", "aclnnInplace"), stream, x, y)
    check(x, LOGICAL[api](a, b).astype(np.int32))
    phase1, _ = _phases(api)
    f, g, out = _f32((2, 3)), _f32((3,)), _b8((2, 3))
    for args in ((None, g, out), (f, None, out), (f, g, None)):
        assert status(phase1, *args) == NULLPTR
    u32 = to_device(np.zeros((2, 3), np.uint32), D.DT_UINT32).handle
    assert status(phase1, u32, g, out) == INVALID
    assert status(phase1, f, u32, out) == INVALID
    # LogicalAnd casts to any out dtype; LogicalOr checks out against its list
    assert status(phase1, f, g, u32) == (INVALID if api == "aclnnLogicalOr" else 0)
    assert status(phase1, f, _f32((2,)), out) == INVALID
    assert status(phase1, f, g, _b8((3, 2))) == INVALID
    assert "shape of out should be" in acl.get_recent_err_msg()
    assert status(phase1, _f32((1,) * 9), _f32((1,)), _b8((1,) * 9)) == INVALID


@pytest.mark.parametrize("case", ["empty", "one", "odd", "strided", "large"])
@pytest.mark.parametrize("dtype", LOGICAL_NOT_DTYPES, ids=ident)
def test_logical_not(stream: int, dtype: int, case: str) -> None:
    """LogicalNot: nonzero -> false, into the same dtype as self."""
    rng = np.random.default_rng(65)
    shape = BINARY_SHAPES[case][0]
    strided = case == "strided"
    a = _values(dtype, shape, rng)
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    _run("aclnnLogicalNot", stream, x, out)
    check(out, np.logical_not(a).astype(np_dtype(dtype)))


def test_logical_not_inplace_and_errors(stream: int) -> None:
    """Inplace LogicalNot; nulls; dtype, shape; a contiguous 9-d tensor passes, a strided one does not."""
    a = np.array([0.0, 2.5, -1.0, 0.0], np.float16)
    x = to_device(a, D.DT_FLOAT16)
    _run("aclnnInplaceLogicalNot", stream, x)
    check(x, np.logical_not(a).astype(np.float16))
    phase1 = aclnn.aclnnLogicalNotGetWorkspaceSize
    assert status(phase1, None, _b8((2,))) == NULLPTR
    assert status(phase1, _b8((2,)), None) == NULLPTR
    assert status(aclnn.aclnnInplaceLogicalNotGetWorkspaceSize, None) == NULLPTR
    c64 = to_device(np.zeros(2, np.complex64), D.DT_COMPLEX64).handle
    assert status(phase1, c64, _b8((2,))) == INVALID
    assert status(phase1, _b8((2,)), c64) == INVALID
    assert status(phase1, _b8((2,)), _b8((3,))) == INVALID
    assert status(phase1, _b8((1,) * 9), _b8((1,) * 9)) == 0
    strided = to_device(np.zeros((1,) * 8 + (2,), bool), D.DT_BOOL, strided=True).handle
    assert status(phase1, strided, _b8((1,) * 8 + (2,))) == INVALID


def test_older_soc_lists_have_no_bfloat16() -> None:
    """On Ascend310P (the non-910B lists) bfloat16 is refused where the A2 lists add it; float32 still runs."""
    settings = Settings.from_env().model_copy(update={"soc": "Ascend310P3"})
    with process.fresh(settings), npu.Session() as session:
        bf = session.tensor(np.zeros(3, np.float32), D.DT_BF16).handle
        f32 = session.tensor(np.zeros(3, np.float32), D.DT_FLOAT).handle
        b8 = session.tensor(np.zeros(3, bool), D.DT_BOOL).handle
        for api in ("aclnnGeTensor", "aclnnLtTensor", "aclnnNeTensor", "aclnnMaximum"):
            out = b8 if api != "aclnnMaximum" else bf
            assert status(getattr(aclnn, f"{api}GetWorkspaceSize"), bf, bf, out) == INVALID, api
        assert status(aclnn.aclnnLogicalOrGetWorkspaceSize, bf, f32, b8) == INVALID
        assert "bfloat16" in acl.get_recent_err_msg()
        # LogicalAnd's one list has bfloat16, so its checks pass; 310P has no bfloat16 Cast binary: 561103
        assert status(aclnn.aclnnLogicalAndGetWorkspaceSize, bf, f32, b8) == 561103
        assert status(aclnn.aclnnGeTensorGetWorkspaceSize, f32, f32, b8) == 0
