"""aclnnEqTensor / aclnnInplaceEqTensor: out = (self == other).

L0 Equal (bool output): AI Core for float32, int32, int64, float16, int8, uint8, bool, bfloat16 on
A2; int16 and double run on the CANN AI CPU kernel (AicpuTaskSpace("Equal")), complex64 / complex128
on the TF AI CPU kernel (attributes ``T`` and ``incompatible_shape_error``).

Checks (A2): nulls (161001); out dtype in the list; PromoteType(self, other) defined and in the
list; CanCast(bool, out) (always true); ranks of self, other and out <= 8; broadcast; out shape ==
broadcast shape (161002). Empty self or other returns at once. Chain: Contiguous -> Cast(promote)
both -> Equal -> Cast(out) -> ViewCopy. The inplace variant first checks that the broadcast shape
is selfRef's, then runs the same with out = selfRef.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.args import Group
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, compare_op, is_complex, launch
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import OP_ATTR, Bool, DType, OpImpl, contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
EQ_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_BF16,
             D.DT_BOOL, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
EQUAL_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_BF16)
TF_ATTR_NAMES = ("T", "incompatible_shape_error")

EQUAL, EQUAL_AICPU = compare_op(
    "Equal", np.equal, ("float", "int32", "int64", "float16", "int8", "uint8", "bool", "bfloat16")
)


def equal_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Equal: a == b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    aicore = a.dtype in EQUAL_AICORE and b.dtype in EQUAL_AICORE
    aicpu: tuple[OpImpl, tuple[str, ...], tuple[Group, ...]]
    if is_complex(a.dtype) or is_complex(b.dtype):  # the TF AI CPU kernel
        aicpu = (EQUAL_AICPU, TF_ATTR_NAMES, (OP_ATTR(DType(a.dtype), Bool(True)),))
    else:
        aicpu = (EQUAL_AICPU, (), ())
    return launch(executor, (EQUAL, aicore), aicpu, (a, b), out)


def _check(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    check_dtype(api, "out", out, EQ_DTYPES)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    check_param(promote in EQ_DTYPES, api, f"the promoted dtype {DataType(promote).name} is not supported.")
    check_param(can_cast(D.DT_BOOL, out.dtype), api, "bool cannot be cast to the out dtype.")
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_rank(api, name, tensor)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} must be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    return promote


def _chain(self: aclTensor, other: aclTensor, out: aclTensor, promote: int, executor: aclOpExecutor) -> aclTensor:
    s, o = contiguous(self, executor), contiguous(other, executor)
    s, o = cast(s, promote, executor), cast(o, promote, executor)
    return cast(equal_l0(s, o, executor), out.dtype, executor)


def _eq(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> Phase1:
    promote = _check(api, self, other, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        view_copy(_chain(self, other, out, promote, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnEqTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnEqTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnEqTensor", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _eq("aclnnEqTensor", self, other, out)


@l2_api
def aclnnInplaceEqTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceEqTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnInplaceEqTensor"
    check_not_null(api, selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    shape = broadcast_shape(selfRef.view_shape, other.view_shape)
    check_param(shape is not None, api, "selfRef and other cannot broadcast.")
    check_param(shape == selfRef.view_shape, api, "the broadcast shape must equal selfRef's shape.")
    return _eq(api, selfRef, other, selfRef)


OPS = (EQUAL,)
