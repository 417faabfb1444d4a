"""aclnnAtan / aclnnInplaceAtan, aclnnCos / aclnnInplaceCos and aclnnSin / aclnnInplaceSin.

The three share one L2 shape: null checks (161001); self in the op's input list and out in its
float / complex output list (161002); equal shapes, then self's rank <= 8 (161002). In-place:
selfRef in the output list first. Empty self returns at once. Chain: Contiguous -> Cast(float32)
for a self dtype outside the output list (the integers and bool) -> the kernel -> Cast(out) ->
ViewCopy. The kernels run on AI Core for float32 / float16 / bfloat16 (half inputs compute in
float32) and on AI CPU for float64 / complex.

Per SoC: Atan and Cos take the Ascend910 lists (no bfloat16) off the A2 / A3 / RegBase parts;
Sin checks its one list, then refuses a bfloat16 self where the SoC has no bfloat16 (310P, 950).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import list_v2, soc_supports_bf16
from emulator.kernels.math.unary import UnaryAttrs, UnaryOp, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank
from emulator.opdev.l2 import current_l2

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
CPU_REST = (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
INTS_BOOL = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_UINT8)
ATAN_IN_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, *INTS_BOOL)
ATAN_IN = (*ATAN_IN_910, D.DT_BF16)
ATAN_OUT = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_BF16)
ATAN_INPLACE_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE)
TRIG_OUT_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
TRIG_OUT = (*TRIG_OUT_910, D.DT_BF16)
TRIG_IN_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, *INTS_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128)
TRIG_IN = (*TRIG_IN_910, D.DT_BF16)

Phase1 = tuple[int, aclOpExecutor, int]


def _kernel(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray, BlockContext[UnaryAttrs]], np.ndarray]:
    def compute(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
        return fn(x)

    return compute


ATAN = unary_op("Atan", _kernel(np.arctan), FLOATS, (D.DT_DOUBLE,), half_in_fp32=True, temps=2)
COS = unary_op("Cos", _kernel(np.cos), FLOATS, CPU_REST, half_in_fp32=True, temps=2)
SIN = unary_op("Sin", _kernel(np.sin), FLOATS, CPU_REST, half_in_fp32=True, temps=2)


def float_chain(self: aclTensor, out: aclTensor, op: UnaryOp, out_list: tuple[int, ...]) -> Phase1:
    """Contiguous -> Cast(float32) unless self's dtype is in ``out_list`` -> ``op`` -> Cast(out) -> ViewCopy."""

    def kernel(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
        return unary_l0(op, x, executor)

    return plan_unary(self, out, kernel, None if self.dtype in out_list else D.DT_FLOAT)


def _shape_then_rank(api: str, self: aclTensor, out: aclTensor) -> None:
    """CheckSameShape1In1Out: equal shapes, then self's rank <= 8."""
    check_same_shape(api, self, out)
    check_rank(api, "self", self)


def check_bf16_soc(api: str, name: str, tensor: aclTensor) -> None:
    """The bfloat16 test of ops that keep one list: a bfloat16 tensor only where the SoC has bfloat16."""
    soc = current_l2().op.soc.short_soc_version
    message = f"{name} dtype {dtype_name(tensor.dtype)} is unsupported by the current SOC version [{soc}]."
    check_param(tensor.dtype != D.DT_BF16 or soc_supports_bf16(), api, message)


# -- Atan ---------------------------------------------------------------------------------------------------
def _atan_phase1(api: str, input: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(api, input=input, out=out)
    assert input is not None and out is not None
    check_dtype(api, "input", input, list_v2(ATAN_IN, ATAN_IN_910))
    check_dtype(api, "out", out, ATAN_OUT)
    _shape_then_rank(api, input, out)
    return float_chain(input, out, ATAN, ATAN_OUT)


@l2_api
def aclnnAtanGetWorkspaceSize(input: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAtanGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _atan_phase1("aclnnAtan", input, out)


@l2_api
def aclnnInplaceAtanGetWorkspaceSize(inputRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceAtanGetWorkspaceSize(aclTensor* inputRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceAtan"
    check_not_null(api, selfRef=inputRef)
    assert inputRef is not None
    check_dtype(api, "selfRef", inputRef, list_v2(ATAN_OUT, ATAN_INPLACE_910))
    return _atan_phase1(api, inputRef, inputRef)


# -- Cos ----------------------------------------------------------------------------------------------------
def _cos_phase1(api: str, input: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(api, input=input, out=out)
    assert input is not None and out is not None
    check_dtype(api, "input", input, list_v2(TRIG_IN, TRIG_IN_910))
    check_dtype(api, "out", out, list_v2(TRIG_OUT, TRIG_OUT_910))
    _shape_then_rank(api, input, out)
    return float_chain(input, out, COS, TRIG_OUT)


@l2_api
def aclnnCosGetWorkspaceSize(input: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCosGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _cos_phase1("aclnnCos", input, out)


@l2_api
def aclnnInplaceCosGetWorkspaceSize(inputRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceCosGetWorkspaceSize(aclTensor* inputRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceCos"
    check_not_null(api, selfRef=inputRef)
    assert inputRef is not None
    check_dtype(api, "selfRef", inputRef, list_v2(TRIG_OUT, TRIG_OUT_910))
    return _cos_phase1(api, inputRef, inputRef)


# -- Sin ----------------------------------------------------------------------------------------------------
def _sin_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> Phase1:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, TRIG_IN)
    check_dtype(api, "out", out, TRIG_OUT)
    check_bf16_soc(api, "Self", self)
    _shape_then_rank(api, self, out)
    return float_chain(self, out, SIN, TRIG_OUT)


@l2_api
def aclnnSinGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _sin_phase1("aclnnSin", self, out)


@l2_api
def aclnnInplaceSinGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceSinGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceSin"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, list_v2(TRIG_OUT, TRIG_OUT_910))
    return _sin_phase1(api, selfRef, selfRef)


OPS = (ATAN.aicore, COS.aicore, SIN.aicore)
