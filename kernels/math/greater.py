"""aclnnGtTensor / aclnnGtScalar (+ Inplace): out = (self > other).

L0 Greater (bool output): AI Core for float32, int32, int64, float16, int8, uint8, bfloat16 on A2;
everything else (int16, double, the unsigned types) on AI CPU (AicpuTaskSpace("Greater")).

Promotion (A2): PromoteType(self, other), bool computed as int8. GtScalar keeps self's floating
dtype when the scalar is a double whose value, rounded to self's dtype, is within float epsilon of
the double (the real op's IsDoubleEqual, an absolute test).

GtTensor checks: nulls (161001); out dtype; promotion defined and in the self list; CanCast(bool,
out); ranks of self, other, out; broadcast; out shape (161002). GtScalar: nulls; self and scalar
dtypes in the self list, out in the out list; promotion; ranks of self and out; out shape == self
shape. Chain: Contiguous -> Cast(promote) -> Greater (the scalar as a 0-d host tensor of the
promoted dtype) -> Cast(out) -> ViewCopy. The inplace variants run the same with out = selfRef.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import (
    Phase1,
    broadcast_out,
    compare_op,
    is_floating,
    launch,
    to_bf16,
    to_double,
    to_float,
    to_fp16,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
GT_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
             D.DT_UINT32, D.DT_UINT64, D.DT_UINT16, D.DT_BF16, D.DT_BOOL)  # fmt: skip
GT_OUT_DTYPES = (*GT_DTYPES, D.DT_COMPLEX64, D.DT_COMPLEX128)
GREATER_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_BF16)
FLT_EPSILON = float(np.finfo(np.float32).eps)

GREATER, GREATER_AICPU = compare_op(
    "Greater", np.greater, ("float", "int32", "int64", "float16", "int8", "uint8", "bfloat16")
)


def greater_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Greater: a > b, broadcast, bool output."""
    out = broadcast_out(executor, a, b, D.DT_BOOL)
    aicore = a.dtype in GREATER_AICORE and b.dtype in GREATER_AICORE
    return launch(executor, (GREATER, aicore), (GREATER_AICPU, (), ()), (a, b), out)


def _bool_as_int8(dtype: int) -> int:
    return int(D.DT_INT8) if dtype == D.DT_BOOL else dtype


def _prepared(x: aclTensor, promote: int, executor: aclOpExecutor) -> aclTensor:
    """Contiguous -> Cast(promote)."""
    return cast(contiguous(x, executor), promote, executor)


def _greater_to(s: aclTensor, o: aclTensor, out: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """Greater -> Cast(out)."""
    return cast(greater_l0(s, o, executor), out.dtype, executor)


# -- aclnnGtTensor -------------------------------------------------------------------------------
def _check_tensor(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    check_dtype(api, "out", out, GT_OUT_DTYPES)
    promote = _bool_as_int8(promote_type(self.dtype, other.dtype))
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    check_param(promote in GT_DTYPES, api, f"the promoted dtype {DataType(promote).name} is not supported.")
    check_param(can_cast(D.DT_BOOL, out.dtype), api, "bool cannot be cast to the out dtype.")
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_rank(api, name, tensor)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} must be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    return promote


def _gt_tensor(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> Phase1:
    promote = _check_tensor(api, self, other, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        s = _prepared(self, promote, executor)
        o = _prepared(other, promote, executor)
        view_copy(_greater_to(s, o, out, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnGtTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGtTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnGtTensor", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _gt_tensor("aclnnGtTensor", self, other, out)


@l2_api
def aclnnInplaceGtTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceGtTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceGtTensor", selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    return _gt_tensor("aclnnInplaceGtTensor", selfRef, other, selfRef)


# -- aclnnGtScalar -------------------------------------------------------------------------------
# How a double scalar reads in each floating tensor dtype (ToFloat / ToFp16 / ToBf16; ToDouble otherwise).
SCALAR_ROUNDING: dict[int, Callable[[aclScalar], float]] = {D.DT_FLOAT: to_float, D.DT_FLOAT16: to_fp16,
                                                            D.DT_BF16: to_bf16}  # fmt: skip


def gt_scalar_promote(self_dtype: int, other: aclScalar) -> int:
    """The A2 GtScalar compute dtype."""
    promote = _bool_as_int8(promote_type(self_dtype, other.dtype))
    if other.dtype == D.DT_DOUBLE and is_floating(self_dtype):
        rounded = SCALAR_ROUNDING.get(self_dtype, to_double)
        if abs(rounded(other) - to_double(other)) <= FLT_EPSILON:
            promote = self_dtype
    return promote


def _gt_scalar(api: str, self: aclTensor, other: aclScalar, out: aclTensor) -> Phase1:
    check_dtype(api, "self", self, GT_DTYPES)
    check_dtype(api, "other", other, GT_DTYPES)
    check_dtype(api, "out", out, GT_OUT_DTYPES)
    promote = gt_scalar_promote(self.dtype, other)
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    check_param(can_cast(D.DT_BOOL, out.dtype), api, "bool cannot be cast to the out dtype.")
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        s = _prepared(self, promote, executor)
        other_t = convert_to_tensor(other, promote, executor)
        view_copy(_greater_to(s, other_t, out, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnGtScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGtScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnGtScalar", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _gt_scalar("aclnnGtScalar", self, other, out)


@l2_api
def aclnnInplaceGtScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceGtScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceGtScalar", selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    return _gt_scalar("aclnnInplaceGtScalar", selfRef, other, selfRef)


OPS = (GREATER,)
