"""aclnnSub / aclnnSubs (+ Inplace): out = self - alpha * other.

L0 Sub: AI Core for float32, float16, bfloat16, int64, int32, int8, uint8, bool, complex64 on A2;
AI CPU (AicpuTaskSpace("Sub")) for int16, double, complex128. A bool Sub is "a - b != 0", i.e. xor.

aclnnSub checks as aclnnAdd (nulls 161001; self / other / out dtypes, promotion, alpha and out
castability, ranks, broadcast, out shape 161002). A2 chain: if alpha != 1 and the promoted type is
floating the compute dtype is raised to float32 (double stays double); Contiguous -> Cast both ->
Sub (alpha == 1), Axpy(self, other, -alpha), or Mul(other, alpha) then Sub -> Cast(out) -> ViewCopy.
aclnnSubs uses the Adds tensor-scalar promotion and turns the scalar into a 0-d host tensor.

Fidelity note: the real A2 Sub picks Axpy from its own list {float32, float16, bfloat16} (not Add's
{float32, int32, float16}): int32 with alpha != 1 runs Mul + Sub, exactly. The bfloat16 Axpy binary is
not in the package (the A2 Axpy kernel serves only float32 / int32 / float16), so a bfloat16 Subs
with alpha != 1 runs Mul + Sub in bfloat16 instead.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.add import axpy_l0, mul_l0
from emulator.kernels.math.binary_common import (
    ARITH_DTYPES,
    Phase1,
    alpha_is_one,
    broadcast_out,
    check_alpha_and_out,
    is_floating,
    launch,
    tensor_scalar_promote,
    to_float,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.meta.dtypes import DataType, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
SUB_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT64, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_BOOL,
              D.DT_COMPLEX64)  # fmt: skip
# Sub's own Axpy list (float32, float16, bfloat16) met with the Axpy binaries the package has.
SUB_AXPY = (D.DT_FLOAT, D.DT_FLOAT16)


def _subtract(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    if a.dtype == np.bool_:
        return np.logical_xor(a, b, out=out)
    return np.subtract(a, b, out=out)


SUB, SUB_AICPU = binary_op(
    "Sub", _subtract, ("float", "float16", "bfloat16", "int64", "int32", "int8", "uint8", "bool", "complex64")
)


def sub_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Sub: a - b, broadcast, in a's dtype."""
    out = broadcast_out(executor, a, b, a.dtype)
    return launch(executor, (SUB, a.dtype in SUB_AICORE), (SUB_AICPU, (), ()), (a, b), out)


def _scaled_sub(s: aclTensor, o: aclTensor, alpha: aclScalar, promote: int, executor: aclOpExecutor) -> aclTensor:
    if alpha_is_one(alpha):
        return sub_l0(s, o, executor)
    if promote in SUB_AXPY:
        return axpy_l0(s, o, float(np.float32(to_float(alpha)) * np.float32(-1.0)), executor)
    alpha_t = convert_to_tensor(alpha, promote, executor)
    return sub_l0(s, mul_l0(o, alpha_t, executor), executor)


# -- aclnnSub ------------------------------------------------------------------------------------
def _check_sub(api: str, self: aclTensor, other: aclTensor, alpha: aclScalar, out: aclTensor) -> int:
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_dtype(api, name, tensor, ARITH_DTYPES)
    promote = promote_type(self.dtype, other.dtype)
    check_alpha_and_out(api, promote, alpha, out.dtype)
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} must be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    return promote


def _sub_chain(
    self: aclTensor, other: aclTensor, alpha: aclScalar, out: aclTensor, promote: int, executor: aclOpExecutor
) -> aclTensor:
    if not alpha_is_one(alpha) and is_floating(promote):
        promote = D.DT_DOUBLE if promote == D.DT_DOUBLE else D.DT_FLOAT
    s, o = contiguous(self, executor), contiguous(other, executor)
    s, o = cast(s, promote, executor), cast(o, promote, executor)
    return cast(_scaled_sub(s, o, alpha, promote, executor), out.dtype, executor)


def _sub(api: str, self: aclTensor, other: aclTensor, alpha: aclScalar, out: aclTensor) -> Phase1:
    promote = _check_sub(api, self, other, alpha, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        view_copy(_sub_chain(self, other, alpha, out, promote, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnSubGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnSub", self=self, other=other, alpha=alpha, out=out)
    assert self is not None and other is not None and alpha is not None and out is not None
    return _sub("aclnnSub", self, other, alpha, out)


@l2_api
def aclnnInplaceSubGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    const aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnInplaceSub"
    check_not_null(api, selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    shape = broadcast_shape(selfRef.view_shape, other.view_shape)
    check_param(shape is not None, api, "selfRef and other cannot broadcast.")
    check_param(shape == selfRef.view_shape, api, "the broadcast shape must equal selfRef's shape.")
    check_not_null(api, alpha=alpha)
    assert alpha is not None
    return _sub(api, selfRef, other, alpha, selfRef)


# -- aclnnSubs -----------------------------------------------------------------------------------
def _check_subs(api: str, self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor) -> int:
    check_dtype(api, "self", self, ARITH_DTYPES)
    promote = tensor_scalar_promote(self.dtype, other.dtype, out.dtype)
    check_alpha_and_out(api, promote, alpha, out.dtype)
    check_rank(api, "self", self)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    return promote


def _subs_chain(
    self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor, promote: int, executor: aclOpExecutor
) -> aclTensor:
    s = cast(contiguous(self, executor), promote, executor)
    other_t = convert_to_tensor(other, promote, executor)
    return cast(_scaled_sub(s, other_t, alpha, promote, executor), out.dtype, executor)


def _subs(api: str, self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor) -> Phase1:
    promote = _check_subs(api, self, other, alpha, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        view_copy(_subs_chain(self, other, alpha, out, promote, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnSubsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnSubs", self=self, other=other, alpha=alpha, out=out)
    assert self is not None and other is not None and alpha is not None and out is not None
    return _subs("aclnnSubs", self, other, alpha, out)


@l2_api
def aclnnInplaceSubsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
    const aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceSubs", selfRef=selfRef, other=other, alpha=alpha)
    assert selfRef is not None and other is not None and alpha is not None
    return _subs("aclnnInplaceSubs", selfRef, other, alpha, selfRef)


OPS = (SUB,)
