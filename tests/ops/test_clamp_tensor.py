"""aclnnClampTensor / ClampMinTensor / InplaceClampMinTensor / ClampMaxTensor / InplaceClampMaxTensor.

ClipByValueV2 selects an input element, so results are compared bit-exactly against numpy's
min(max(x, lo), hi) in the promoted dtype. Covers the documented examples, broadcasting on the AI Core
path (the kernel broadcasts) and on the AI CPU path (BroadcastTo first, self included), a bool bound,
a missing bound, an empty bound, and each status case of the real L2 in its order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, random_values, run_op, status, to_device

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
F32 = D.DT_FLOAT
SELF8 = np.arange(8, dtype=np.float32).reshape(4, 2)


def _run(stream: int, api: str, *args: Any) -> int:
    return run_op(getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api), stream, *args)


def test_documented_examples(stream: int) -> None:
    """The five examples: int32 ClampTensor, float32 Min / Max forms and their in-place calls."""
    x = to_device(np.array([0, 1, 0, 3, 0, 5, 0, 7], np.int32).reshape(4, 2), D.DT_INT32)
    lo = to_device(np.array([1, 3, 0, 0, 0, 0, 0, 0], np.int32).reshape(4, 2), D.DT_INT32)
    hi = to_device(np.array([5, 5, 3, 3, 4, 5, 6, 6], np.int32).reshape(4, 2), D.DT_INT32)
    out = empty_out((4, 2), D.DT_INT32)
    _run(stream, "aclnnClampTensor", x.handle, lo.handle, hi.handle, out.handle)
    check(out, np.array([1, 3, 0, 3, 0, 5, 0, 6], np.int32).reshape(4, 2))
    low = np.array([2, 1, 1, 2, 2, 6, 6, 9], np.float32).reshape(4, 2)
    high = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    y, lo_t, hi_t = to_device(SELF8, F32), to_device(low, F32), to_device(high, F32)
    out = empty_out((4, 2), F32)
    _run(stream, "aclnnClampMinTensor", y.handle, lo_t.handle, out.handle)
    check(out, np.maximum(SELF8, low))
    out = empty_out((4, 2), F32)
    _run(stream, "aclnnClampMaxTensor", y.handle, hi_t.handle, out.handle)
    check(out, np.minimum(SELF8, high))
    _run(stream, "aclnnInplaceClampMinTensor", y.handle, lo_t.handle)
    check(y, np.maximum(SELF8, low))
    z = to_device(SELF8, F32)
    _run(stream, "aclnnInplaceClampMaxTensor", z.handle, hi_t.handle)
    check(z, np.minimum(SELF8, high))


@pytest.mark.parametrize("dtype", (D.DT_FLOAT16, D.DT_BF16, D.DT_INT16, D.DT_DOUBLE), ids=ident)
def test_broadcast_on_both_paths(stream: int, dtype: int) -> None:
    """self (3, 1) with min (1, 4) and max (4,): out (3, 4); AI Core broadcasts in the kernel, AI CPU
    dtypes (int16, double) go through BroadcastTo for all three inputs; a strided out view."""
    rng = np.random.default_rng(3)
    a, lo, hi = (random_values(dtype, shape, rng) for shape in ((3, 1), (1, 4), (4,)))
    x, lo_t, hi_t = to_device(a, dtype), to_device(lo, dtype, strided=True), to_device(hi, dtype)
    out = empty_out((3, 4), dtype, strided=True)
    _run(stream, "aclnnClampTensor", x.handle, lo_t.handle, hi_t.handle, out.handle)
    golden = np.minimum(np.maximum(a.astype(np.float64), lo.astype(np.float64)), hi.astype(np.float64))
    check(out, golden.astype(a.dtype))


def test_promotion_bool_bound_and_missing_bound(stream: int) -> None:
    """int8 self with a float32 max promotes to float32 (out float32); a bool min counts as 0 / 1 in int32;
    ClampTensor with only max set leaves the bottom alone."""
    a = np.array([-5, -1, 0, 2, 9], np.int8)
    x, out = to_device(a, D.DT_INT8), empty_out((5,), F32)
    hi = to_device(np.array([1.5], np.float32), F32)
    _run(stream, "aclnnClampTensor", x.handle, None, hi.handle, out.handle)
    check(out, np.minimum(a.astype(np.float32), 1.5))
    b = np.array([-3, 0, 4], np.int32)
    y, out = to_device(b, D.DT_INT32), empty_out((3,), D.DT_INT32)
    flags = to_device(np.array([True, True, False]), D.DT_BOOL)
    _run(stream, "aclnnClampMinTensor", y.handle, flags.handle, out.handle)
    check(out, np.array([1, 1, 4], np.int32))


def test_empty_bound_returns_at_once(stream: int) -> None:
    """An empty min makes the call a no-op even though self is not empty: out keeps its contents."""
    x, out = to_device(SELF8, F32), to_device(np.full((4, 2), 7, np.float32), F32)
    empty = to_device(np.zeros((0,), np.float32), F32)
    assert _run(stream, "aclnnClampMinTensor", x.handle, empty.handle, out.handle) == 0
    check(out, np.full((4, 2), 7, np.float32))


def _f(shape: tuple[int, ...], dtype: int = F32) -> Any:
    return to_device(np.zeros(shape, np.float32).astype(np.int64 if dtype == D.DT_INT64 else np.float32), dtype).handle


def _cases() -> list[tuple[str, str, tuple[Any, ...], int, str]]:
    """(name, api, args, status, message fragment) in the order the real L2 checks."""
    x, o, b = (lambda: _f((2, 3))), (lambda: _f((2, 3))), (lambda: _f((3,)))
    deep = lambda: _f((1,) * 9)  # noqa: E731
    return [
        ("null bound first", "aclnnClampMaxTensor", (None, None, None), NULLPTR, "expected max not to be a null"),
        ("null self", "aclnnClampTensor", (None, b(), b(), o()), NULLPTR, "expected self not to be a null pointer"),
        ("null out", "aclnnClampTensor", (x(), b(), b(), None), NULLPTR, "expected out not to be a null pointer"),
        ("no bound", "aclnnClampTensor", (x(), None, None, o()), NULLPTR, "At least one of 'min' or 'max'"),
        ("bool self", "aclnnClampTensor", (_f((2, 3), D.DT_BOOL), b(), b(), o()), INVALID, "self dtype DT_BOOL"),
        ("complex out", "aclnnClampMinTensor", (x(), b(), _f((2, 3), D.DT_COMPLEX64)), INVALID, "out dtype"),
        ("rank 9 bound", "aclnnClampMinTensor", (x(), deep(), o()), INVALID, "clipValueMin has 9 dims"),
        ("promote to out", "aclnnClampMinTensor", (x(), b(), _f((2, 3), D.DT_INT64)), INVALID, "can't be cast"),
        ("min", "aclnnClampTensor", (x(), _f((4,)), b(), o()), INVALID, "3] must match the size of tensor min [4]"),
        ("max shape", "aclnnClampTensor", (x(), b(), _f((2, 2)), o()), INVALID, "tensor self/min [2, 3] must match"),
        ("out shape", "aclnnClampTensor", (_f((3,)), b(), b(), o()), INVALID, "but [2, 3] does not equal [3]"),
    ]  # fmt: skip


def test_status_cases_in_order(session: npu.Session) -> None:
    for name, api, args, expected, fragment in _cases():
        assert status(getattr(aclnn, f"{api}GetWorkspaceSize"), *args) == expected, name
        assert fragment in acl.get_recent_err_msg(), (name, acl.get_recent_err_msg())


def test_bfloat16_refused_on_310p_accepted_on_a2(session: npu.Session) -> None:
    """The non-A2 list (Ascend310P, Ascend910) has no bfloat16; the A2 list does. On 310P an int8 self
    with a bfloat16 bound promotes to bfloat16, which the promoted-dtype check refuses."""
    bf = session.tensor(np.zeros(3, np.float32), D.DT_BF16).handle
    assert status(aclnn.aclnnClampMaxTensorGetWorkspaceSize, bf, bf, bf) == 0
    with process.fresh(Settings(soc="Ascend310P3")), npu.Session() as other:
        bf = other.tensor(np.zeros(3, np.float32), D.DT_BF16).handle
        assert status(aclnn.aclnnClampMaxTensorGetWorkspaceSize, bf, bf, bf) == INVALID
        assert "self dtype DT_BF16 should be in dtype support list" in acl.get_recent_err_msg()
        i8, f32 = other.tensor(np.zeros(3, np.int8), D.DT_INT8).handle, other.tensor(np.zeros(3), F32).handle
        assert status(aclnn.aclnnClampMaxTensorGetWorkspaceSize, i8, bf, f32) == INVALID
        assert "promote dtype not implemented for DT_BF16" in acl.get_recent_err_msg()
