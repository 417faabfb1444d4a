"""The activation backwards: aclnnSigmoidBackward, aclnnSiluBackward, aclnnGeluBackward,
aclnnHardswishBackward and aclnnThresholdBackward (gradInput = gradOutput · f'(x)).

SigmoidBackward(gradOutput, output): nulls (161001); each dtype in float32 / float16 / float64 /
complex64 / complex128 / bfloat16, a bfloat16 gradOutput refused off the bfloat16 SoCs, ranks <= 8,
the promoted dtype defined, in the list and castable to gradInput, the broadcast shape equal to
gradInput's (161002). Empty returns at once. Chain: Contiguous both -> BroadcastTo both when their
shapes differ -> Cast(promote) both -> SigmoidGrad(output, gradOutput) (AI Core for the float types,
AI CPU with complex_conj for float64 / complex) -> Cast(gradInput) -> ViewCopy.

SiluBackward(gradOutput, self): nulls; each dtype in float16 / float32 / bfloat16; gradOutput and self of
gradInput's dtype (on RegBase mixed input dtypes are allowed with a float32 gradInput); bfloat16 only on
A2 / A3 / RegBase; ranks <= 8; both shapes equal gradInput's (RegBase: broadcast). Chain: Contiguous ->
SiluGrad(gradOutput, self) -> ViewCopy.

GeluBackward(gradOutput, self): nulls; the promoted dtype defined, bfloat16 only on A2 / A3 / RegBase, in
float32 / float16 / bfloat16; ranks <= 8, the broadcast shape equal to gradInput's. Chain: Contiguous of
the three tensors, gradInput Cast to the promoted dtype (GeluGrad writes into it), BroadcastTo and Cast of
both inputs (A2; RegBase only casts), GeluGrad(gradOutput, self, gradOutput) -> Cast -> ViewCopy.

HardswishBackward(gradOutput, self): nulls; self and gradOutput in float32 / float16 (+ bfloat16 on A2 /
A3 / RegBase), gradOutput's and out's dtype equal to self's; ranks <= 8, gradOutput's and out's shape
equal to self's. Chain: Contiguous -> HardSwishGrad -> ViewCopy.

ThresholdBackward(gradOutput, self, threshold): threshold, out, gradOutput, self null-checked in that
order; dtypes (float32 / int32 / float16 / int8 / uint8, + bfloat16 on A2 / A3, + int64 on RegBase when
the threshold is 0), gradOutput's and out's dtype equal to self's; ranks; broadcast shape equal to out's.
Chain: Contiguous -> ReluGrad (threshold 0) or ThresholdGradV2D(threshold) -> ViewCopy.

All kernels compute half inputs in float32; see docs/ops_notes.md "Backward ops".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import DAV_3510, is_a2_or_regbase, list_v2, soc_supports_bf16
from emulator.kernels.math.unary import check_cast, check_dtype_match
from emulator.kernels.nn.backward_common import (
    check_broadcast_to,
    check_same_dtype,
    check_shape_equal,
    grad_l0,
    grad_op,
    plan_grad,
)
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import Bool, Float32, contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
Phase1 = tuple[int, aclOpExecutor, int]
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
SIGMOID_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)
THRESHOLD_910 = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8)
THRESHOLD_A2 = (*THRESHOLD_910, D.DT_BF16)
THRESHOLD_REGBASE = (*THRESHOLD_A2, D.DT_INT64)
SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))
GELU_COEFF = 0.044715


def _regbase() -> bool:
    return bool(current_l2().op.soc.npu_arch >= DAV_3510)


# -- the kernels' math (inputs arrive in the work dtype) ----------------------------------------------------
def _sigmoid_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    y, dy = v
    if np.iscomplexobj(y):  # complex_conj: the conjugate of the local derivative
        y = np.conj(y)
    return dy * y * (1 - y)


def _silu_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    dy, x = v
    s = 1 / (1 + np.exp(-x))
    return dy * s * (1 + x * (1 - s))


def _gelu_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    """The derivative of the tanh form aclnnGelu computes (its kernel's approximation)."""
    dy, x, _ = v
    t = x.dtype.type
    inner = t(SQRT_2_OVER_PI) * (x + t(GELU_COEFF) * x * x * x)
    th = np.tanh(inner)
    d_inner = t(SQRT_2_OVER_PI) * (1 + t(3 * GELU_COEFF) * x * x)
    return dy * (t(0.5) * (1 + th) + t(0.5) * x * (1 - th * th) * d_inner)


def _hardswish_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    dy, x = v
    t = x.dtype.type
    local = np.where(x < t(-3), t(0), np.where(x <= t(3), x / t(3) + t(0.5), t(1)))
    return dy * local


def _relu_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    dy, x = v
    return np.where(x > 0, dy, np.zeros_like(dy))


def _threshold_grad(v: Sequence[np.ndarray], attrs: tuple[Any, ...]) -> np.ndarray:
    dy, x = v
    (threshold,) = attrs
    return np.where(x.astype(np.float64) > threshold, dy, np.zeros_like(dy))


SIGMOID_GRAD = grad_op("SigmoidGrad", _sigmoid_grad, ("y", "dy"), FLOATS, aicpu_attrs=("complex_conj",))
SILU_GRAD = grad_op("SiluGrad", _silu_grad, ("dy", "x"), FLOATS)
GELU_GRAD = grad_op("GeluGrad", _gelu_grad, ("dy", "x", "y"), FLOATS)
HARD_SWISH_GRAD = grad_op("HardSwishGrad", _hardswish_grad, ("gradOutput", "self"), FLOATS)
RELU_GRAD = grad_op("ReluGrad", _relu_grad, ("gradients", "features"), THRESHOLD_REGBASE)
THRESHOLD_GRAD = grad_op(
    "ThresholdGradV2D", _threshold_grad, ("gradients", "features"), THRESHOLD_REGBASE,
    attrs=(("threshold", "float"),),
)  # fmt: skip


def _broadcast_all(inputs: list[aclTensor], shape: tuple[int, ...], executor: aclOpExecutor) -> list[aclTensor]:
    """The A2 chains' BroadcastTo of each input whose shape is not the result shape."""
    return [t if t.view_shape == shape else broadcast_to_l0(t, shape, executor) for t in inputs]


# -- aclnnSigmoidBackward -----------------------------------------------------------------------------------
@l2_api
def aclnnSigmoidBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, output: aclTensor | None, gradInput: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSigmoidBackward"
    check_not_null(api, gradOutput=gradOutput, output=output, gradInput=gradInput)
    assert gradOutput is not None and output is not None and gradInput is not None
    for name, t in (("gradOutput", gradOutput), ("output", output), ("gradInput", gradInput)):
        check_dtype(api, name, t, SIGMOID_DTYPES)
    soc = current_l2().op.soc.short_soc_version
    check_param(soc_supports_bf16() or gradOutput.dtype != D.DT_BF16, api, f"GradOutput dtype "
                f"{dtype_name(gradOutput.dtype)} is unsupported by the current SOC version [{soc}].")  # fmt: skip
    check_rank(api, "gradOutput", gradOutput)
    check_rank(api, "output", output)
    promote = promote_type(gradOutput.dtype, output.dtype)
    check_param(promote != D.DT_UNDEFINED, api, f"GradOutput dtype {dtype_name(gradOutput.dtype)} and output dtype "
                f"{dtype_name(output.dtype)} can not promote dtype.")  # fmt: skip
    listed = ", ".join(dtype_name(d) for d in SIGMOID_DTYPES)
    check_param(promote in SIGMOID_DTYPES, api, f"promote dtype {dtype_name(promote)} should be in dtype support "
                f"list [{listed}].")  # fmt: skip
    check_cast(api, promote, gradInput.dtype)
    shape = check_broadcast_to(api, gradOutput, output, gradInput, "Exepected tensor for result to have same size "
                               f"as tensor for gradInput, but {list(gradInput.view_shape)} does not equal "
                               "the broadcast shape.")  # fmt: skip

    def middle(inputs: list[aclTensor], executor: aclOpExecutor) -> aclTensor:
        dy, y = inputs
        if dy.view_shape != y.view_shape:  # both go through BroadcastTo, as the real chain does
            dy, y = broadcast_to_l0(dy, shape, executor), broadcast_to_l0(y, shape, executor)
        dy, y = cast(dy, promote, executor), cast(y, promote, executor)
        return grad_l0(SIGMOID_GRAD, (y, dy), executor, (Bool(True),) if y.dtype not in FLOATS else ())

    return plan_grad((gradOutput, output), gradInput, middle)


# -- aclnnSiluBackward --------------------------------------------------------------------------------------
@l2_api
def aclnnSiluBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, self: aclTensor | None, gradInput: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSiluBackward"
    check_not_null(api, gradOutput=gradOutput, self=self, gradInput=gradInput)
    assert gradOutput is not None and self is not None and gradInput is not None
    for name, t in (("gradOutput", gradOutput), ("self", self), ("gradInput", gradInput)):
        check_dtype(api, name, t, FLOATS)
    regbase = _regbase()
    if regbase and gradOutput.dtype != self.dtype:
        check_dtype_match(api, "gradInput", gradInput, D.DT_FLOAT)
    else:
        check_same_dtype(api, ("gradOutput", gradOutput), ("gradInput", gradInput))
        check_same_dtype(api, ("self", self), ("gradInput", gradInput))
    uses_bf16 = D.DT_BF16 in (self.dtype, gradOutput.dtype)
    arch = current_l2().op.soc.npu_arch
    check_param(is_a2_or_regbase() or not uses_bf16, api, f"Self or gradOutput dtype {dtype_name(self.dtype)} is "
                f"unsupported by the current npuArch [{arch}].")  # fmt: skip
    check_rank(api, "gradOutput", gradOutput)
    check_rank(api, "self", self)
    if regbase:
        check_broadcast_to(api, gradOutput, self, gradInput)
    else:
        check_shape_equal(api, ("gradOutput", gradOutput), ("gradInput", gradInput))
        check_shape_equal(api, ("self", self), ("gradInput", gradInput))

    def middle(inputs: list[aclTensor], executor: aclOpExecutor) -> aclTensor:
        dy, x = inputs
        if dy.dtype != x.dtype:  # RegBase mixed precision: the kernel reads both in float32
            dy, x = cast(dy, D.DT_FLOAT, executor), cast(x, D.DT_FLOAT, executor)
        return grad_l0(SILU_GRAD, (dy, x), executor)

    return plan_grad((gradOutput, self), gradInput, middle)


# -- aclnnGeluBackward --------------------------------------------------------------------------------------
@l2_api
def aclnnGeluBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, self: aclTensor | None, gradInput: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnGeluBackward"
    check_not_null(api, gradOutput=gradOutput, self=self, gradInput=gradInput)
    assert gradOutput is not None and self is not None and gradInput is not None
    promote = promote_type(gradOutput.dtype, self.dtype)
    check_param(promote != D.DT_UNDEFINED, api, f"GradOutput dtype {dtype_name(gradOutput.dtype)} and Self dtype "
                f"{dtype_name(self.dtype)} can not be promoted.")  # fmt: skip
    check_param(is_a2_or_regbase() or promote != D.DT_BF16, api, "Input dtype of gelu is not support bfloat16 in "
                "current socversion.")  # fmt: skip
    listed = ", ".join(dtype_name(d) for d in FLOATS)
    check_param(promote in FLOATS, api, f"promoteType dtype {dtype_name(promote)} should be in dtype support list "
                f"[{listed}].")  # fmt: skip
    check_rank(api, "gradOutput", gradOutput)
    check_rank(api, "self", self)
    shape = check_broadcast_to(api, gradOutput, self, gradInput)
    regbase = _regbase()
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(gradOutput, self):
            return unique.release(0)
        inputs = [contiguous(gradOutput, executor), contiguous(self, executor)]
        target = cast(contiguous(gradInput, executor), promote, executor)
        if not regbase:
            inputs = _broadcast_all(inputs, shape, executor)
        dy, x = (cast(t, promote, executor) for t in inputs)
        result = grad_l0(GELU_GRAD, (dy, x, dy), executor, out=target)
        view_copy(cast(result, gradInput.dtype, executor), gradInput, executor)
        return unique.release(executor.get_workspace_size())


# -- aclnnHardswishBackward ---------------------------------------------------------------------------------
@l2_api
def aclnnHardswishBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnHardswishBackward"
    check_not_null(api, gradOutput=gradOutput, self=self, out=out)
    assert gradOutput is not None and self is not None and out is not None
    supported = list_v2(FLOATS, (D.DT_FLOAT, D.DT_FLOAT16))
    check_dtype(api, "self", self, supported)
    check_dtype(api, "gradOutput", gradOutput, supported)
    check_dtype_match(api, "gradOutput", gradOutput, self.dtype)
    check_dtype_match(api, "out", out, self.dtype)
    check_rank(api, "gradOutput", gradOutput)
    check_rank(api, "self", self)
    check_shape_equal(api, ("gradOutput", gradOutput), ("self", self))
    check_shape_equal(api, ("out", out), ("self", self))
    return plan_grad((gradOutput, self), out, lambda inputs, executor: grad_l0(HARD_SWISH_GRAD, inputs, executor))


# -- aclnnThresholdBackward ---------------------------------------------------------------------------------
@l2_api
def aclnnThresholdBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, self: aclTensor | None, threshold: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    const aclScalar* threshold, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnThresholdBackward"
    check_not_null(api, threshold=threshold, out=out, gradOutput=gradOutput, self=self)
    assert gradOutput is not None and self is not None and threshold is not None and out is not None
    value = to_float(threshold)
    relu = abs(value) <= float(np.finfo(np.float32).eps)
    supported: tuple[int, ...] = THRESHOLD_910
    if is_a2_or_regbase():
        supported = THRESHOLD_REGBASE if _regbase() and relu else THRESHOLD_A2
    check_dtype(api, "gradOutput", gradOutput, supported)
    check_dtype(api, "self", self, supported)
    check_dtype_match(api, "gradOutput", gradOutput, self.dtype)
    check_dtype_match(api, "out", out, self.dtype)
    check_rank(api, "gradOutput", gradOutput)
    check_rank(api, "self", self)
    check_broadcast_to(api, self, gradOutput, out)

    def middle(inputs: list[aclTensor], executor: aclOpExecutor) -> aclTensor:
        if relu:
            return grad_l0(RELU_GRAD, inputs, executor)
        return grad_l0(THRESHOLD_GRAD, inputs, executor, (Float32(value),))

    return plan_grad((gradOutput, self), out, middle)


OPS = (SIGMOID_GRAD.aicore, SILU_GRAD.aicore, GELU_GRAD.aicore, HARD_SWISH_GRAD.aicore, RELU_GRAD.aicore,
       THRESHOLD_GRAD.aicore)  # fmt: skip
