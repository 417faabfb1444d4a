"""aclnnGeTensor / aclnnInplaceGeTensor: out = (self >= other).

L0 GreaterEqual (bool output): AI Core for float32, int32, float16, int8, uint8, bfloat16, int64 (chosen
by self's dtype); everything else on the CANN AI CPU kernel (AicpuTaskSpace("GreaterEqual")).

Checks: nulls (161001); out dtype in the out list; PromoteType(self, other) with bool computed as
int8, defined and in the input list (self and other themselves are not checked); CanCast(bool, out);
ranks of self, other, out <= 8; broadcast; out shape == broadcast shape (161002). An empty self or
other returns at once. The inplace variant runs the same with out = selfRef.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import broadcast_out, compare_op, launch
from emulator.kernels.math.compare_tensor import CompareRule, compare_tensor
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_not_null

D = DataType
GE_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_DOUBLE, D.DT_INT16, D.DT_INT64, D.DT_UINT64,
             D.DT_UINT32, D.DT_UINT16, D.DT_UINT8)  # fmt: skip
GE_OUT_DTYPES = (*GE_DTYPES, D.DT_COMPLEX128, D.DT_COMPLEX64, D.DT_BOOL)
GREATER_EQUAL_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_BF16, D.DT_INT64)

GREATER_EQUAL, GREATER_EQUAL_AICPU = compare_op(
    "GreaterEqual", np.greater_equal, ("float", "int32", "float16", "int8", "uint8", "bfloat16", "int64")
)


def greater_equal_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::GreaterEqual: a >= b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    return launch(
        executor, (GREATER_EQUAL, a.dtype in GREATER_EQUAL_AICORE), (GREATER_EQUAL_AICPU, (), ()), (a, b), out
    )


def _rule(api: str) -> CompareRule:
    return CompareRule(api, greater_equal_l0, GE_DTYPES, GE_OUT_DTYPES, check_inputs=False, bool_as=D.DT_INT8,
                       empty_first=False, out_rank=True)  # fmt: skip


@l2_api
def aclnnGeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnGeTensor", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return compare_tensor(_rule("aclnnGeTensor"), self, other, out)


@l2_api
def aclnnInplaceGeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceGeTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceGeTensor", self=selfRef, other=other, out=selfRef)
    assert selfRef is not None and other is not None
    return compare_tensor(_rule("aclnnInplaceGeTensor"), selfRef, other, selfRef)


OPS = (GREATER_EQUAL,)
