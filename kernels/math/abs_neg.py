"""aclnnAbs and aclnnNeg / aclnnInplaceNeg.

Abs: null checks (161001); self dtype in the A2 list, out dtype equal to self's (complex64 self:
float32 out); self and out storage formats equal and self's not private; rank <= 8 and equal shapes
(161002); an empty self returns at once. Then Contiguous and, for uint8 / bool, only a ViewCopy
(|x| is x); complex64 goes to the ComplexAbs kernel (float32 out); everything else to Abs, on AI Core
for float32 / float16 / bfloat16 / int32 / int64 and on AI CPU for int8 / int16 / float64.

Neg: null checks; self dtype in the A2 list (int16 and bool are not); CanCast(self, out); rank <= 8 and
equal shapes; empty self returns at once; Contiguous -> Neg (AI CPU for float64 / complex) -> Cast(out)
-> ViewCopy. The in-place variant is the out-of-place call with out = selfRef, as in the real code.
Integer negation wraps (-INT_MIN == INT_MIN), as the kernels do.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.unary import (
    UnaryAttrs,
    check_cast,
    check_dtype_match,
    check_not_private,
    check_same_shape,
    plan_unary,
    unary_l0,
    unary_op,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType
ABS_DTYPES = (D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT64, D.DT_INT32, D.DT_INT16, D.DT_INT8, D.DT_UINT8,
              D.DT_BOOL, D.DT_BF16, D.DT_COMPLEX64)  # fmt: skip
ABS_PASSTHROUGH = (D.DT_UINT8, D.DT_BOOL)
COMPLEX_ABS_OUT: dict[int, int] = {D.DT_COMPLEX64: D.DT_FLOAT}
NEG_DTYPES = (D.DT_INT8, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_COMPLEX64,
              D.DT_COMPLEX128, D.DT_BF16)  # fmt: skip


def _abs(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.abs(x)


def _neg(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.negative(x)


ABS = unary_op("Abs", _abs, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32, D.DT_INT64),
               (D.DT_INT8, D.DT_INT16, D.DT_DOUBLE))  # fmt: skip
COMPLEX_ABS = unary_op("ComplexAbs", _abs, (D.DT_COMPLEX64,), out_dtypes=COMPLEX_ABS_OUT)
NEG = unary_op("Neg", _neg, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_BF16, D.DT_INT64),
               (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128))  # fmt: skip


def abs_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Abs."""
    return unary_l0(ABS, x, executor)


def complex_abs_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::ComplexAbs: |x| of a complex64 tensor as float32."""
    return unary_l0(COMPLEX_ABS, x, executor, COMPLEX_ABS_OUT.get(x.dtype))


def neg_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Neg."""
    return unary_l0(NEG, x, executor)


@l2_api
def aclnnAbsGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnAbs"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, ABS_DTYPES)
    check_dtype_match(api, "out", out, COMPLEX_ABS_OUT.get(self.dtype, self.dtype))
    check_param(self.storage_format == out.storage_format, api, "the formats of self and out should be equal.")
    check_not_private(api, "self", self.storage_format)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    if self.dtype in ABS_PASSTHROUGH:
        return plan_unary(self, out, None)
    return plan_unary(self, out, complex_abs_l0 if self.dtype in COMPLEX_ABS_OUT else abs_l0)


def _neg_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, NEG_DTYPES)
    check_cast(api, self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    return plan_unary(self, out, neg_l0)


@l2_api
def aclnnNegGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _neg_phase1("aclnnNeg", self, out)


@l2_api
def aclnnInplaceNegGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceNegGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _neg_phase1("aclnnInplaceNeg", selfRef, selfRef)


OPS = (ABS.aicore, COMPLEX_ABS.aicore, NEG.aicore)
