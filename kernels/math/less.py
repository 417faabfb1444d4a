"""aclnnLtTensor / aclnnInplaceLtTensor: out = (self < other).

L0 Less (bool output): AI Core when both inputs are float32, int32, int64, float16, int8, uint8, bool or
bfloat16; otherwise the CANN AI CPU kernel (AicpuTaskSpace("Less")).

Checks: nulls (161001); self, other and out dtypes in the list (on these SoCs out's list is the
input list); PromoteType defined; CanCast(bool, out); ranks of self and other <= 8 (out's is not
checked); broadcast; out shape (161002). An empty self or other returns at once. A bool promotion
computes in uint8. The inplace variant is the out-of-place call with out = selfRef, so its
messages name aclnnLtTensor, as the real one's do.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, compare_op, launch
from emulator.kernels.math.compare_tensor import CompareRule, compare_tensor
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_not_null

D = DataType
LT_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
             D.DT_UINT32, D.DT_UINT64, D.DT_BOOL, D.DT_UINT16)  # fmt: skip
LESS_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_BF16)

LESS, LESS_AICPU = compare_op(
    "Less", np.less, ("float", "int32", "int64", "float16", "int8", "uint8", "bool", "bfloat16")
)


def less_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Less: a < b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    aicore = a.dtype in LESS_AICORE and b.dtype in LESS_AICORE
    return launch(executor, (LESS, aicore), (LESS_AICPU, (), ()), (a, b), out)


RULE = CompareRule("aclnnLtTensor", less_l0, LT_DTYPES, None, check_inputs=True, bool_as=D.DT_UINT8,
                   empty_first=False, out_rank=False)  # fmt: skip


def _lt(self: aclTensor | None, other: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(RULE.op, self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return compare_tensor(RULE, self, other, out)


@l2_api
def aclnnLtTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLtTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _lt(self, other, out)


@l2_api
def aclnnInplaceLtTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLtTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _lt(selfRef, other, selfRef)


OPS = (LESS,)
