"""aclnnLeTensor / aclnnInplaceLeTensor: out = (self <= other).

L0 LessEqual (bool output): AI Core when both inputs are int8, uint8, int32, int64, float16, float32 or
bfloat16; otherwise the TF AI CPU kernel (attributes ``T`` = the input dtype, ``incompatible_shape_error``
= true).

The real L2 checks the nulls (161001), then returns at once for an empty self or other — before any
dtype check, so an empty call of any dtype succeeds — then: self, other and out dtypes in the list;
PromoteType defined; CanCast(bool, out); ranks of self, other, out <= 8; broadcast; out shape
(161002). A bool promotion computes in float32. The inplace variant runs the same with out = selfRef.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import broadcast_out, compare_op, launch
from emulator.kernels.math.compare_tensor import CompareRule, compare_tensor
from emulator.kernels.math.equal import TF_ATTR_NAMES
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import OP_ATTR, Bool, DType, l2_api
from emulator.opdev.checks import check_not_null

D = DataType
LE_DTYPES = (D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_UINT16, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_FLOAT,
             D.DT_DOUBLE, D.DT_BOOL)  # fmt: skip
LESS_EQUAL_AICORE = (D.DT_INT8, D.DT_UINT8, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)

LESS_EQUAL, LESS_EQUAL_AICPU = compare_op(
    "LessEqual", np.less_equal, ("int8", "uint8", "int32", "int64", "float16", "float", "bfloat16")
)


def less_equal_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::LessEqual: a <= b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    aicore = a.dtype in LESS_EQUAL_AICORE and b.dtype in LESS_EQUAL_AICORE
    tf = (LESS_EQUAL_AICPU, TF_ATTR_NAMES, (OP_ATTR(DType(a.dtype), Bool(True)),))
    return launch(executor, (LESS_EQUAL, aicore), tf, (a, b), out)


def _rule(api: str) -> CompareRule:
    return CompareRule(api, less_equal_l0, LE_DTYPES, None, check_inputs=True, bool_as=D.DT_FLOAT,
                       empty_first=True, out_rank=True)  # fmt: skip


@l2_api
def aclnnLeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnLeTensor", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return compare_tensor(_rule("aclnnLeTensor"), self, other, out)


@l2_api
def aclnnInplaceLeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLeTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceLeTensor", self=selfRef, other=other, out=selfRef)
    assert selfRef is not None and other is not None
    return compare_tensor(_rule("aclnnInplaceLeTensor"), selfRef, other, selfRef)


OPS = (LESS_EQUAL,)
