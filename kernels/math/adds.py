"""aclnnAdds / aclnnInplaceAdds: out = self + alpha * other with a scalar other.

A2 behaviour as the real L2 writes it: null checks (161001); self dtype in the Add list, the A2
tensor-scalar promotion (the tensor's dtype wins unless the scalar is complex, or floating against
an integral / bool tensor), alpha and out castability, rank and out shape == self shape (161002);
an empty self returns at once. Chain: the scalar becomes a 0-d host tensor of the promoted dtype,
self goes Contiguous -> Cast, then Add (alpha == 1), Axpy (float32 / int32 / float16) or Mul(other,
alpha) + Add, Cast to out and ViewCopy. The bool quirk of the real op is kept: with self, other and
alpha all bool and true and a non-bool out, the result is cast to bool and back, so True + True is 1.
The inplace variant has no checks of its own (out = selfRef).
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.add import AXPY_DTYPES, add_l0, axpy_l0, mul_l0
from emulator.kernels.math.binary_common import (
    ARITH_DTYPES,
    Phase1,
    alpha_is_one,
    check_alpha_and_out,
    tensor_scalar_promote,
    to_bool,
    to_float,
)
from emulator.kernels.math.cast import cast
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType


def _check(api: str, self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor) -> int:
    check_dtype(api, "self", self, ARITH_DTYPES)
    promote = tensor_scalar_promote(self.dtype, other.dtype, out.dtype)
    check_alpha_and_out(api, promote, alpha, out.dtype)
    check_rank(api, "self", self)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    return promote


def _adds(api: str, self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor) -> Phase1:
    promote = _check(api, self, other, alpha, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        view_copy(_chain(self, other, alpha, out, promote, executor), out, executor)
        return unique.release(executor.get_workspace_size())


def _chain(
    self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor, promote: int, executor: aclOpExecutor
) -> aclTensor:
    other_t = convert_to_tensor(other, promote, executor)
    s = cast(contiguous(self, executor), promote, executor)
    if alpha_is_one(alpha):
        result = add_l0(s, other_t, executor)
    elif promote in AXPY_DTYPES:
        result = axpy_l0(s, other_t, to_float(alpha), executor)
    else:
        alpha_t = convert_to_tensor(alpha, promote, executor)
        result = add_l0(s, mul_l0(other_t, alpha_t, executor), executor)
    result = cast(result, out.dtype, executor)
    bools = self.dtype == other.dtype == alpha.dtype == D.DT_BOOL
    if bools and out.dtype != D.DT_BOOL and to_bool(other) and to_bool(alpha):
        result = cast(cast(result, D.DT_BOOL, executor), out.dtype, executor)
    return result


@l2_api
def aclnnAddsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnAdds", self=self, other=other, alpha=alpha, out=out)
    assert self is not None and other is not None and alpha is not None and out is not None
    return _adds("aclnnAdds", self, other, alpha, out)


@l2_api
def aclnnInplaceAddsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
    const aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceAdds", selfRef=selfRef, other=other, alpha=alpha)
    assert selfRef is not None and other is not None and alpha is not None
    return _adds("aclnnInplaceAdds", selfRef, other, alpha, selfRef)
