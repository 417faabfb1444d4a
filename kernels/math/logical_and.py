"""aclnnLogicalAnd / aclnnInplaceLogicalAnd: out = self && other, and the L2 body LogicalOr shares.

L0 LogicalAnd: bool inputs on AI Core, anything else on the CANN AI CPU kernel; its output has the
first input's dtype (Minimum of bool tensors runs it). L2: nulls (161001); self and other dtypes in
the list (out's dtype is not checked: the bool result is cast to it); ranks of self and other <= 8;
broadcast; out shape (161002). Then an empty self or other returns at once, and the chain is
Contiguous -> Cast(bool) unless bool -> LogicalAnd -> Cast(out) unless bool -> ViewCopy.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, compare_op, launch
from emulator.kernels.math.cast import cast
from emulator.kernels.math.compare_tensor import L0Compare
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
LOGICAL_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_DOUBLE, D.DT_BF16, D.DT_INT8, D.DT_UINT8,
                  D.DT_INT16, D.DT_INT64, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip

LOGICAL_AND, LOGICAL_AND_AICPU = compare_op("LogicalAnd", np.logical_and, ("bool",))


def logical_and_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::LogicalAnd: output of a's dtype (bool in every caller)."""
    out = broadcast_out(executor, a, b, a.dtype)
    return launch(executor, (LOGICAL_AND, a.dtype == D.DT_BOOL), (LOGICAL_AND_AICPU, (), ()), (a, b), out)


def check_logical_shapes(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> None:
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"shape of out should be {list(shape or ())}, but current is "
                f"{list(out.view_shape)}.")  # fmt: skip


def logical_chain(l0: L0Compare, self: aclTensor, other: aclTensor, out: aclTensor) -> Phase1:
    """After the checks: the empty shortcut, then both inputs as bool -> ``l0`` -> out's dtype."""
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        a, b = contiguous(self, executor), contiguous(other, executor)
        a = a if a.dtype == D.DT_BOOL else cast(a, D.DT_BOOL, executor)
        b = b if b.dtype == D.DT_BOOL else cast(b, D.DT_BOOL, executor)
        result = l0(a, b, executor)
        result = result if out.dtype == D.DT_BOOL else cast(result, out.dtype, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


def _logical_and(api: str, self: aclTensor | None, other: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(api, self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    check_dtype(api, "self", self, LOGICAL_DTYPES)
    check_dtype(api, "other", other, LOGICAL_DTYPES)
    check_logical_shapes(api, self, other, out)
    return logical_chain(logical_and_l0, self, other, out)


@l2_api
def aclnnLogicalAndGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _logical_and("aclnnLogicalAnd", self, other, out)


@l2_api
def aclnnInplaceLogicalAndGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _logical_and("aclnnInplaceLogicalAnd", selfRef, other, selfRef)


OPS = (LOGICAL_AND,)
