"""aclnnLogicalOr / aclnnInplaceLogicalOr: out = self || other.

L0 LogicalOr: bool inputs on AI Core, anything else on the CANN AI CPU kernel; bool output. L2: nulls
(161001); a bfloat16 self, other or out on a SoC without bfloat16 (Ascend910, 310P); self, other and
out dtypes in the list (out's list is the input list on these SoCs); ranks of self and other; broadcast;
out shape (161002). Then LogicalAnd's chain (emulator.kernels.math.logical_and.logical_chain).
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, compare_op, launch
from emulator.kernels.math.compare_tensor import soc_has_bf16
from emulator.kernels.math.logical_and import LOGICAL_DTYPES, check_logical_shapes, logical_chain
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param

D = DataType

LOGICAL_OR, LOGICAL_OR_AICPU = compare_op("LogicalOr", np.logical_or, ("bool",))


def logical_or_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::LogicalOr: bool output (Maximum of bool tensors runs it)."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    return launch(executor, (LOGICAL_OR, a.dtype == D.DT_BOOL), (LOGICAL_OR_AICPU, (), ()), (a, b), out)


def _logical_or(api: str, self: aclTensor | None, other: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(api, self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    bf16 = D.DT_BF16 in (self.dtype, other.dtype, out.dtype)
    check_param(soc_has_bf16() or not bf16, api, "bfloat16 is not supported on this SoC.")
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_dtype(api, name, tensor, LOGICAL_DTYPES)
    check_logical_shapes(api, self, other, out)
    return logical_chain(logical_or_l0, self, other, out)


@l2_api
def aclnnLogicalOrGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _logical_or("aclnnLogicalOr", self, other, out)


@l2_api
def aclnnInplaceLogicalOrGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _logical_or("aclnnInplaceLogicalOr", selfRef, other, selfRef)


OPS = (LOGICAL_OR,)
