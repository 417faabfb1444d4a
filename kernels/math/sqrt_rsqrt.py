"""aclnnSqrt / aclnnInplaceSqrt and aclnnRsqrt / aclnnInplaceRsqrt.

Sqrt: null checks (161001); self dtype in the A2 list; the compute dtype (float32 for integer / bool
self, else self's) must be castable to out — out's dtype is not otherwise listed, as in the code;
equal shapes and rank <= 8 (161002). In-place: selfRef in the float / complex list first. Chain:
Contiguous -> Cast (int64 -> float64, because the real op avoids the int64 -> float32 cast; other
integers and bool -> float32) -> Sqrt -> Cast(out) -> ViewCopy. sqrt(x < 0) = NaN.

Rsqrt: null checks; self in the 12-dtype list and out in the float / complex list (no CanCast check,
as in the code); equal shapes and rank <= 8. In-place: selfRef in the float / complex list first.
A self dtype that is not one of the out-capable dtypes is cast to the out dtype before the kernel.
rsqrt(0) = +inf. Both L0 kernels run on AI Core for float32 / float16 / bfloat16 (half inputs
compute in float32) and on AI CPU for float64 / complex.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.unary import (
    INTEGRAL_OR_BOOL,
    UnaryAttrs,
    check_cast,
    check_same_shape,
    plan_unary,
    unary_l0,
    unary_op,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_rank

D = DataType
SQRT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_INT32, D.DT_INT64,
               D.DT_INT16, D.DT_INT8, D.DT_BOOL, D.DT_BF16, D.DT_UINT8)  # fmt: skip
FLOAT_OUT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)
RSQRT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL,
                D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16, D.DT_UINT8)  # fmt: skip
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
CPU_REST = (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)


def _sqrt(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.sqrt(x)


def _rsqrt(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.reciprocal(np.sqrt(x))


SQRT = unary_op("Sqrt", _sqrt, FLOATS, CPU_REST, half_in_fp32=True)
RSQRT = unary_op("Rsqrt", _rsqrt, FLOATS, CPU_REST, half_in_fp32=True, temps=1)


def sqrt_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Sqrt."""
    return unary_l0(SQRT, x, executor)


def rsqrt_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Rsqrt."""
    return unary_l0(RSQRT, x, executor)


def _sqrt_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, SQRT_DTYPES)
    integral = self.dtype in INTEGRAL_OR_BOOL
    check_cast(api, D.DT_FLOAT if integral else self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    pre_cast = (D.DT_DOUBLE if self.dtype == D.DT_INT64 else D.DT_FLOAT) if integral else None
    return plan_unary(self, out, sqrt_l0, pre_cast)


@l2_api
def aclnnSqrtGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _sqrt_phase1("aclnnSqrt", self, out)


@l2_api
def aclnnInplaceSqrtGetWorkspaceSize(self: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(aclTensor* self, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceSqrt"
    check_not_null(api, self=self)
    assert self is not None
    check_dtype(api, "self", self, FLOAT_OUT_DTYPES)
    return _sqrt_phase1(api, self, self)


def _rsqrt_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, RSQRT_DTYPES)
    check_dtype(api, "out", out, FLOAT_OUT_DTYPES)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    pre_cast = self.dtype if self.dtype in FLOAT_OUT_DTYPES else out.dtype
    return plan_unary(self, out, rsqrt_l0, pre_cast)


@l2_api
def aclnnRsqrtGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _rsqrt_phase1("aclnnRsqrt", self, out)


@l2_api
def aclnnInplaceRsqrtGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceRsqrt"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, FLOAT_OUT_DTYPES)
    return _rsqrt_phase1(api, selfRef, selfRef)


OPS = (SQRT.aicore, RSQRT.aicore)
