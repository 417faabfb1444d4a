"""aclnnNeTensor / aclnnInplaceNeTensor: out = (self != other).

L0 NotEqual (bool output): AI Core when both inputs are float32, int32, int64, float16, int8, uint8, bool
or bfloat16; a complex input runs the TF AI CPU kernel (attributes ``T``, ``incompatible_shape_error``),
anything else the CANN AI CPU kernel (AicpuTaskSpace("NotEqual")).

The real L2 checks the nulls (161001) and returns at once for an empty self or other, before the
dtype checks; then self, other and out dtypes in the list (out's list is the input list on these
SoCs); PromoteType defined; CanCast(bool, out); ranks of self and other <= 8; broadcast; out shape
(161002). bool compares as bool. The inplace variant runs the same with out = selfRef.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.args import Group
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import broadcast_out, compare_op, is_complex, launch
from emulator.kernels.math.compare_tensor import CompareRule, compare_tensor
from emulator.kernels.math.equal import TF_ATTR_NAMES
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import OP_ATTR, Bool, DType, OpImpl, l2_api
from emulator.opdev.checks import check_not_null

D = DataType
NE_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL,
             D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
NOT_EQUAL_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_BF16)

NOT_EQUAL, NOT_EQUAL_AICPU = compare_op(
    "NotEqual", np.not_equal, ("float", "int32", "int64", "float16", "int8", "uint8", "bool", "bfloat16")
)


def not_equal_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::NotEqual: a != b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    aicore = a.dtype in NOT_EQUAL_AICORE and b.dtype in NOT_EQUAL_AICORE
    aicpu: tuple[OpImpl, tuple[str, ...], tuple[Group, ...]] = (NOT_EQUAL_AICPU, (), ())
    if is_complex(a.dtype) or is_complex(b.dtype):
        aicpu = (NOT_EQUAL_AICPU, TF_ATTR_NAMES, (OP_ATTR(DType(a.dtype), Bool(True)),))
    return launch(executor, (NOT_EQUAL, aicore), aicpu, (a, b), out)


def _rule(api: str) -> CompareRule:
    return CompareRule(api, not_equal_l0, NE_DTYPES, None, check_inputs=True, bool_as=D.DT_BOOL,
                       empty_first=True, out_rank=False)  # fmt: skip


@l2_api
def aclnnNeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnNeTensor", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return compare_tensor(_rule("aclnnNeTensor"), self, other, out)


@l2_api
def aclnnInplaceNeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceNeTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceNeTensor", self=selfRef, other=other, out=selfRef)
    assert selfRef is not None and other is not None
    return compare_tensor(_rule("aclnnInplaceNeTensor"), selfRef, other, selfRef)


OPS = (NOT_EQUAL,)
