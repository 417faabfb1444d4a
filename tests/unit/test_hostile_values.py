"""Hostile values: scalars that do not fit, IEEE overflow under warnings-as-errors, views outside storage.

Each test reproduces a defect that was there before: a scalar holding INT_MIN or -24, a numpy
RuntimeWarning escaping as an error from a kernel or from aclCreateScalar, and a view with a
negative stride that read x[3] for x[-1] (or, as an output, overwrote the buffer) with status 0.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator

import numpy as np
import pytest

from emulator import acl, aclnn, npu, process
from emulator.status import AclnnStatus

H2D, D2H = 1, 2


@pytest.fixture
def strict_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# -- aclCreateScalar ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "dtype", "why"),
    [
        (math.nan, aclnn.ACL_INT32, "no NaN or infinity"),
        (math.inf, aclnn.ACL_INT64, "no NaN or infinity"),
        (-math.inf, aclnn.ACL_UINT8, "no NaN or infinity"),
        (1e10, aclnn.ACL_INT32, "outside [-2147483648, 2147483647]"),
        (1000, aclnn.ACL_INT8, "outside [-128, 127]"),
        (-1, aclnn.ACL_UINT16, "outside [0, 65535]"),
        (2**63, aclnn.ACL_INT64, "outside"),
        (2**64, aclnn.ACL_UINT64, "outside"),
        (1 + 2j, aclnn.ACL_FLOAT, "imaginary part"),
    ],
)
def test_a_number_the_dtype_cannot_hold_gives_nullptr(
    strict_warnings: None, value: object, dtype: int, why: str
) -> None:
    """nullptr and the real failure path's 'aclCreateScalar error.' text, never a wrapped value."""
    assert aclnn.aclCreateScalar(value, dtype) is None
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "aclCreateScalar error." in msg and why in msg, msg
    assert aclnn.aclDataType(dtype).name in msg


@pytest.mark.parametrize(
    ("value", "dtype", "expected"),
    [
        (1e300, aclnn.ACL_FLOAT16, np.float16(np.inf)),
        (-1e39, aclnn.ACL_FLOAT, np.float32(-np.inf)),
        (2.9, aclnn.ACL_INT32, np.int32(2)),  # truncated toward zero, as a C cast
        (-2.9, aclnn.ACL_INT8, np.int8(-2)),
        (127, aclnn.ACL_INT8, np.int8(127)),
        (2**64 - 1, aclnn.ACL_UINT64, np.uint64(2**64 - 1)),
        (3 + 0j, aclnn.ACL_INT32, np.int32(3)),
    ],
)
def test_a_number_that_fits_or_overflows_a_float_is_kept(
    strict_warnings: None, value: object, dtype: int, expected: np.generic
) -> None:
    """Float overflow is the IEEE infinity, made without a warning; edge values of integer dtypes are kept."""
    scalar = aclnn.aclCreateScalar(value, dtype)
    assert scalar is not None
    assert scalar.data == expected.tobytes()
    assert aclnn.aclDestroyScalar(scalar) == 0


# -- elementwise overflow -------------------------------------------------------------------------
def test_float32_mul_overflow_is_inf_without_a_warning(strict_warnings: None) -> None:
    with npu.Session() as s:
        x = np.array([3e38, -3e38, 2.0], dtype=np.float32)
        out = s.call("aclnnMul", s.tensor(x), s.tensor(x)).numpy()
    assert out.tolist() == [np.inf, np.inf, 4.0]


def test_float16_add_overflow_is_inf_without_a_warning(strict_warnings: None) -> None:
    with npu.Session() as s:
        h = np.array([60000, -60000, 1], dtype=np.float16)
        same = s.call("aclnnAdd", s.tensor(h), s.tensor(h), s.scalar(1.0, np.float32)).numpy()
        mixed = s.call("aclnnAdd", s.tensor(h), s.tensor(h.astype(np.float32)), s.scalar(1.0, np.float32)).numpy()
    assert same.dtype == np.float16 and same.tolist() == [np.inf, -np.inf, 2.0]
    assert mixed.tolist() == [120000.0, -120000.0, 2.0]


def test_inf_minus_inf_is_nan_without_a_warning(strict_warnings: None) -> None:
    with npu.Session() as s:
        inf = np.array([np.inf], dtype=np.float32)
        out = s.call("aclnnSub", s.tensor(inf), s.tensor(inf), s.scalar(1.0, np.float32)).numpy()
    assert np.isnan(out).all()


# -- views outside their storage ------------------------------------------------------------------
class Abs:
    """aclnnAbs over a [4] float storage, its input and output views as given."""

    def __init__(self) -> None:
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        self.stream, _ = acl.rt.create_stream()
        self.x, _ = acl.rt.malloc(16, 0)
        self.y, _ = acl.rt.malloc(16, 0)
        data = np.array([-1, -2, -3, -4], dtype=np.float32)
        assert acl.rt.memcpy(self.x, 16, data.ctypes.data, 16, H2D) == 0
        assert acl.rt.memcpy(self.y, 16, np.zeros(4, np.float32).ctypes.data, 16, H2D) == 0

    def run(self, x_view: tuple[list[int], int], y_view: tuple[list[int], int]) -> tuple[int, int, list[float]]:
        """(phase-1 status, synchronize status, the output storage)."""
        tx = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, x_view[0], x_view[1], aclnn.ACL_FORMAT_ND, [4], 1, self.x)
        ty = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, y_view[0], y_view[1], aclnn.ACL_FORMAT_ND, [4], 1, self.y)
        ws, executor, ret = aclnn.aclnnAbsGetWorkspaceSize(tx, ty)
        synced = -1
        if ret == 0:
            workspace = acl.rt.malloc(ws, 0)[0] if ws else 0
            assert aclnn.aclnnAbs(workspace, ws, executor, self.stream) == 0
            synced = acl.rt.synchronize_stream(self.stream)
            assert not workspace or acl.rt.free(workspace) == 0
        out = np.zeros(4, np.float32)
        assert acl.rt.memcpy(out.ctypes.data, 16, self.y, 16, D2H) == 0
        assert aclnn.aclDestroyTensor(tx) == 0 and aclnn.aclDestroyTensor(ty) == 0
        return ret, synced, out.tolist()

    def close(self) -> None:
        assert acl.rt.free(self.x) == 0 and acl.rt.free(self.y) == 0
        assert acl.rt.destroy_stream(self.stream) == 0
        assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0


@pytest.fixture
def abs_op(emu: process.EmulatedProcess) -> Iterator[Abs]:
    op = Abs()
    yield op
    op.close()


@pytest.mark.parametrize(("strides", "offset"), [([-1], 0), ([2], 0), ([-2], 6), ([-1], 4)])
def test_an_input_view_outside_its_storage_fails_phase_1(abs_op: Abs, strides: list[int], offset: int) -> None:
    """l0op::Contiguous validates the view as op::Validate does: 561103, and nothing written."""
    ret, synced, out = abs_op.run((strides, offset), ([1], 0))
    assert ret == AclnnStatus.ACLNN_ERR_INNER_NULLPTR
    assert synced == -1
    assert out == [0.0, 0.0, 0.0, 0.0]


def test_a_negative_stride_inside_the_storage_reads_backwards(abs_op: Abs) -> None:
    """Strides [-1] from offset 3 stay inside: x[3], x[2], x[1], x[0]."""
    assert abs_op.run(([-1], 3), ([1], 0)) == (0, 0, [4.0, 3.0, 2.0, 1.0])
    assert abs_op.run(([1], 0), ([-1], 3)) == (0, 0, [4.0, 3.0, 2.0, 1.0])


@pytest.mark.parametrize(("strides", "offset", "reach"), [([-1], 0, "[-3, 0]"), ([2], 0, "[0, 6]")])
def test_an_output_view_outside_its_storage_fails_the_task(
    abs_op: Abs, strides: list[int], offset: int, reach: str
) -> None:
    """The real ViewCopy does not validate its output: on a card the write leaves the tensor, an AI Core
    exception. Here the ViewCopy kernel fails the same way (507015 at the synchronize), writing nothing."""
    ret, synced, out = abs_op.run(([1], 0), (strides, offset))
    assert ret == 0
    assert synced == 507015
    msg = acl.get_recent_err_msg()
    assert msg is not None and f"reaches elements {reach} of a storage of 4" in msg, msg
    assert out == [0.0, 0.0, 0.0, 0.0]
