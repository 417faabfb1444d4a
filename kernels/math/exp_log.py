"""aclnnExp / aclnnInplaceExp and aclnnLog / aclnnInplaceLog.

Exp: null checks (161001); self dtype in the A2 list; the result dtype (float32 for bool / int64 self,
else self's) must be castable to out; equal shapes and rank <= 8 (161002). The in-place variant first
checks selfRef against its own, float-only list. Chain: Contiguous -> Cast(float32) for bool / int64
-> Exp -> Cast(out) -> ViewCopy. The L0 Exp runs on AI Core for float32 / float16 / bfloat16 with the
attributes base = -1 (meaning e), scale = 1, shift = 0, and on AI CPU (no attributes) for float64 /
complex.

Log: null checks; self in the input list and out in the output list (float / complex only); CanCast
(self, out); equal shapes and rank <= 8. In-place: selfRef in the output list and rank <= 8 first.
Chain: Contiguous -> Log(base = -1, scale = 1, shift = 0) -> Cast(out) -> ViewCopy. The L0 Log's
output is float32 for integer / bool input, else the input dtype; it runs on AI Core for float32 /
float16 / bfloat16 and on AI CPU (AicpuTaskSpace("Log"), attributes base, scale, shift) for
everything else. log(0) = -inf, log(x < 0) = NaN. fp16 / bf16 inputs compute in float32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
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
from emulator.opdev import Float32, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_rank

D = DataType
EXP_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BOOL,
              D.DT_INT64)  # fmt: skip
EXP_INPLACE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
EXP_TO_FLOAT = (D.DT_BOOL, D.DT_INT64)
LOG_IN_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BOOL,
                 D.DT_INT64, D.DT_INT32, D.DT_INT16, D.DT_INT8, D.DT_UINT8)  # fmt: skip
LOG_OUT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
LOG_ATTRS = (("base", "float"), ("scale", "float"), ("shift", "float"))
LOG_BASE, LOG_SCALE, LOG_SHIFT = -1.0, 1.0, 0.0
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
CPU_REST = (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)


def _affine(x: np.ndarray, scale: float, shift: float) -> np.ndarray:
    if scale == 1.0 and shift == 0.0:
        return x
    return x * x.dtype.type(scale) + x.dtype.type(shift)


@dataclass(frozen=True, slots=True)
class LogAttrs(UnaryAttrs):
    """What an Exp / Log binary has baked in: its dtypes and base, scale, shift.

    The AI Core binaries take the three float attributes; the AI CPU kernels take none and compute
    with the defaults (base e, scale 1, shift 0)."""

    base: float
    scale: float
    shift: float

    @classmethod
    def of(cls, signature: KernelSignature) -> LogAttrs:
        dx, dy = signature.dtypes
        base, scale, shift = signature.attrs or (LOG_BASE, LOG_SCALE, LOG_SHIFT)
        return cls(dx, dy, base, scale, shift)


def _exp(x: np.ndarray, ctx: BlockContext[LogAttrs]) -> np.ndarray:
    """base ** (scale * x + shift); base -1 means e."""
    base, scale, shift = ctx.attrs.base, ctx.attrs.scale, ctx.attrs.shift
    t = _affine(x, scale, shift)
    if base > 0:
        t = t * x.dtype.type(np.log(base))
    return np.exp(t)


def _exp_into(x: np.ndarray, ctx: BlockContext[LogAttrs], out: np.ndarray) -> bool:
    """The default Exp (base e, scale 1, shift 0) is ``np.exp(x)``: computed straight into the output."""
    attrs = ctx.attrs
    if (attrs.base, attrs.scale, attrs.shift) != (LOG_BASE, LOG_SCALE, LOG_SHIFT):
        return False
    np.exp(x, out=out)
    return True


def _log(x: np.ndarray, ctx: BlockContext[LogAttrs]) -> np.ndarray:
    """log_base(scale * x + shift); base -1 means e."""
    base, scale, shift = ctx.attrs.base, ctx.attrs.scale, ctx.attrs.shift
    y = np.log(_affine(x, scale, shift))
    if base > 0:
        y = y / y.dtype.type(np.log(base))
    return y


EXP = unary_op("Exp", _exp, FLOATS, CPU_REST, half_in_fp32=True, temps=1, attrs=LOG_ATTRS, kernel_attrs=LogAttrs.of,
               into=_exp_into)  # fmt: skip
LOG = unary_op("Log", _log, FLOATS, (*CPU_REST, *INTEGRAL_OR_BOOL), half_in_fp32=True, temps=1, attrs=LOG_ATTRS,
               aicpu_attr_names=("base", "scale", "shift"), kernel_attrs=LogAttrs.of)  # fmt: skip
_LOG_ATTR_VALUES = (Float32(LOG_BASE), Float32(LOG_SCALE), Float32(LOG_SHIFT))


def exp_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Exp: AI Core with base/scale/shift attributes, AI CPU without."""
    return unary_l0(EXP, x, executor, attrs=_LOG_ATTR_VALUES, aicpu_attrs=())


def log_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Log(x, base=-1, scale=1, shift=0): float32 output for integer / bool input."""
    out_dtype = x.dtype if x.dtype in LOG_OUT_DTYPES else D.DT_FLOAT
    return unary_l0(LOG, x, executor, out_dtype, attrs=_LOG_ATTR_VALUES)


def _exp_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, EXP_DTYPES)
    result = D.DT_FLOAT if self.dtype in EXP_TO_FLOAT else self.dtype
    check_cast(api, result, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    return plan_unary(self, out, exp_l0, D.DT_FLOAT if self.dtype in EXP_TO_FLOAT else None)


@l2_api
def aclnnExpGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _exp_phase1("aclnnExp", self, out)


@l2_api
def aclnnInplaceExpGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceExp"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, EXP_INPLACE_DTYPES)
    return _exp_phase1(api, selfRef, selfRef)


def _log_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, LOG_IN_DTYPES)
    check_dtype(api, "out", out, LOG_OUT_DTYPES)
    check_cast(api, self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    return plan_unary(self, out, log_l0)


@l2_api
def aclnnLogGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _log_phase1("aclnnLog", self, out)


@l2_api
def aclnnInplaceLogGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLogGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceLog"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, LOG_OUT_DTYPES)
    check_rank(api, "selfRef", selfRef)
    return _log_phase1(api, selfRef, selfRef)


OPS = (EXP.aicore, LOG.aicore)
