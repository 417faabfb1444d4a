"""aclnnBitwiseAndTensor / aclnnBitwiseOrTensor (+ Inplace) and aclnnBitwiseNot on the emulated Ascend910B.

Integer results are bit-exact. Covers each documented example (int64 4x2), every listed dtype (AI Core
int16 / uint16 / int32 / int64, AI CPU int8 / uint8 / uint32 / uint64, bool through LogicalAnd / LogicalOr /
LogicalNot) across the shape classes, promotion, and each status case of the real L2 code — including
BitwiseNot's null check, which the real op reports as 561103.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import BINARY_SHAPES, check, empty_out, ident, np_dtype, run_op, status, to_device
from device_helpers import device_tensor

from emulator import acl, aclnn
from emulator.kernels.math.bitwise_and_tensor import BITWISE_AND_DTYPES
from emulator.kernels.math.bitwise_not import BITWISE_NOT_DTYPES
from emulator.kernels.math.bitwise_or_tensor import BITWISE_OR_DTYPES
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103
OPS: dict[str, tuple[Callable[[Any, Any], Any], tuple[int, ...]]] = {
    "aclnnBitwiseAndTensor": (np.bitwise_and, BITWISE_AND_DTYPES),
    "aclnnBitwiseOrTensor": (np.bitwise_or, BITWISE_OR_DTYPES),
}
CASES = [(api, dtype) for api, (_, dtypes) in OPS.items() for dtype in dtypes]


def _values(dtype: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    if dtype == D.DT_BOOL:
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(np_dtype(dtype))
    return rng.integers(max(info.min, -(2**40)), min(info.max, 2**40), shape, dtype=np.int64).astype(np_dtype(dtype))


def _phases(api: str) -> tuple[Callable[..., Any], Callable[..., int]]:
    return getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api)


def _t(shape: tuple[int, ...], dtype: int = D.DT_INT32) -> Any:
    return to_device(np.zeros(shape, np_dtype(dtype)), dtype).handle


@pytest.mark.parametrize(
    ("api", "other", "golden"),
    [
        ("aclnnBitwiseAndTensor", [1, 1, 2, 3, 3, 3, 4, 4], [0, 1, 2, 3, 0, 1, 4, 4]),
        ("aclnnBitwiseOrTensor", [0, 1, 1, 2, 3, 4, 5, 6], [0, 1, 3, 3, 7, 5, 7, 7]),
    ],
)
def test_documented_examples(stream: int, api: str, other: list[int], golden: list[int]) -> None:
    """The official examples: int64 4x2."""
    a = np.arange(8, dtype=np.int64).reshape(4, 2)
    x, y = to_device(a, D.DT_INT64), to_device(np.array(other, np.int64).reshape(4, 2), D.DT_INT64)
    out = empty_out((4, 2), D.DT_INT64)
    run_op(*_phases(api), stream, x.handle, y.handle, out.handle)
    check(out, np.array(golden, np.int64).reshape(4, 2))


def test_bitwise_not_documented_example(stream: int) -> None:
    a = np.array([1, 1, 2, 3, 4, 5, 6, 7], np.int64).reshape(4, 2)
    x, out = to_device(a, D.DT_INT64), empty_out((4, 2), D.DT_INT64)
    run_op(*_phases("aclnnBitwiseNot"), stream, x.handle, out.handle)
    check(out, np.array([-2, -2, -3, -4, -5, -6, -7, -8], np.int64).reshape(4, 2))


@pytest.mark.parametrize("case", BINARY_SHAPES)
@pytest.mark.parametrize(("api", "dtype"), CASES, ids=ident)
def test_bitwise_binary_dtypes_and_shapes(stream: int, api: str, dtype: int, case: str) -> None:
    golden, _ = OPS[api]
    rng = np.random.default_rng(71)
    self_shape, other_shape = BINARY_SHAPES[case]
    strided = case == "strided"
    a, b = _values(dtype, self_shape, rng), _values(dtype, other_shape, rng)
    x, y = to_device(a, dtype, strided=strided), to_device(b, dtype, strided=strided)
    out = empty_out(np.broadcast_shapes(self_shape, other_shape), dtype, strided=strided)
    run_op(*_phases(api), stream, x.handle, y.handle, out.handle)
    check(out, golden(a, b))


@pytest.mark.parametrize("api", OPS)
def test_bitwise_promotion_and_inplace(stream: int, api: str) -> None:
    """int8 with int16 computes in int16 into an int64 out; the inplace form writes selfRef."""
    golden, _ = OPS[api]
    rng = np.random.default_rng(72)
    a, b = _values(D.DT_INT8, (3, 9), rng), _values(D.DT_INT16, (9,), rng)
    x, y, out = to_device(a, D.DT_INT8), to_device(b, D.DT_INT16), empty_out((3, 9), D.DT_INT64)
    run_op(*_phases(api), stream, x.handle, y.handle, out.handle)
    check(out, golden(a.astype(np.int16), b).astype(np.int64))
    c = _values(D.DT_INT32, (3, 9), rng)
    z = to_device(c, D.DT_INT32)
    run_op(*_phases(api.replace("aclnn", "aclnnInplace")), stream, z.handle, y.handle)
    check(z, golden(c, b.astype(np.int32)))


@pytest.mark.parametrize("api", OPS)
def test_bitwise_binary_errors(stream: int, api: str) -> None:
    phase1, _ = _phases(api)
    x, y, out = _t((2, 3)), _t((3,)), _t((2, 3))
    for args in ((None, y, out), (x, None, out), (x, y, None)):
        assert status(phase1, *args) == NULLPTR
    f32 = _t((2, 3), D.DT_FLOAT)
    assert status(phase1, f32, y, out) == INVALID
    assert "self dtype DT_FLOAT should be in dtype support list" in acl.get_recent_err_msg()
    assert status(phase1, x, _t((3,), D.DT_FLOAT), out) == INVALID
    assert "other dtype" in acl.get_recent_err_msg()
    assert status(phase1, x, y, _t((2, 3), D.DT_BOOL)) == INVALID  # int32 cannot be cast to bool
    assert "can't be cast" in acl.get_recent_err_msg()
    assert status(phase1, x, y, _t((2, 3), D.DT_FLOAT)) == 0  # int32 -> float32 is a cast
    assert status(phase1, x, _t((2,)), out) == INVALID
    assert status(phase1, x, y, _t((3, 2))) == INVALID
    assert status(phase1, _t((1,) * 9), _t((1,)), _t((1,) * 9)) == INVALID
    nz = device_tensor(np.zeros(6, np.int32), D.DT_INT32, (2, 3), (3, 1), fmt=aclnn.ACL_FORMAT_NC1HWC0).handle
    # BitwiseAnd refuses a private storage format; BitwiseOr does not look at formats
    assert status(phase1, nz, y, out) == (INVALID if api == "aclnnBitwiseAndTensor" else 0)
    # BitwiseOr checks out's rank; BitwiseAnd does not (it is still the broadcast shape check that refuses)
    assert status(phase1, _t((1,) * 9), _t((1,)), _t((1,) * 9)) == INVALID
    assert status(phase1, _t((0, 3)), y, _t((0, 3))) == 0


@pytest.mark.parametrize("case", ["empty", "one", "odd", "strided", "large"])
@pytest.mark.parametrize("dtype", BITWISE_NOT_DTYPES, ids=ident)
def test_bitwise_not(stream: int, dtype: int, case: str) -> None:
    rng = np.random.default_rng(73)
    shape = BINARY_SHAPES[case][0]
    strided = case == "strided"
    a = _values(dtype, shape, rng)
    x, out = to_device(a, dtype, strided=strided), empty_out(shape, dtype, strided=strided)
    run_op(*_phases("aclnnBitwiseNot"), stream, x.handle, out.handle)
    check(out, np.invert(a))


def test_bitwise_not_errors(stream: int) -> None:
    """A null is 561103 (the real op's own status); dtype, dtype match, format, rank and shape are 161002."""
    phase1, _ = _phases("aclnnBitwiseNot")
    assert status(phase1, None, _t((2,))) == INNER_NULLPTR
    assert "self" in acl.get_recent_err_msg()
    assert status(phase1, _t((2,)), None) == INNER_NULLPTR
    assert status(phase1, _t((2,), D.DT_UINT16), _t((2,), D.DT_UINT16)) == INVALID  # uint16 not listed
    assert status(phase1, _t((2,)), _t((2,), D.DT_INT64)) == INVALID
    assert "should be DT_INT32" in acl.get_recent_err_msg()
    nz = device_tensor(np.zeros(2, np.int32), D.DT_INT32, (2,), (1,), fmt=aclnn.ACL_FORMAT_NC1HWC0).handle
    assert status(phase1, nz, _t((2,))) == INVALID
    assert status(phase1, _t((1,) * 9), _t((1,) * 9)) == INVALID
    assert status(phase1, _t((2,)), _t((3,))) == INVALID
    assert status(phase1, _t((0,)), _t((0,))) == 0
