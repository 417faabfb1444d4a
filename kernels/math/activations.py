"""aclnnRelu / aclnnInplaceRelu, aclnnSigmoid / aclnnInplaceSigmoid, aclnnGelu
and aclnnSilu — the ops-nn activations.

Relu: null checks (161001); self in float32 / float16 / int8 / uint8 / int32 / int64 / bfloat16 and out of
the same dtype; rank <= 8 for self and out; equal shapes (161002). Empty self, or an in-place call on
uint8 (relu is the identity there), returns at once. Chain: Contiguous -> Relu (not for uint8, which
is only copied: the code accepts uint8 out-of-place although the doc does not list it) -> ViewCopy.

Sigmoid follows the code, not the narrower doc list (float32 / float16 / bfloat16): self in the 12-dtype list,
out in float32 / float16 / float64 / complex64 / complex128 / bfloat16, equal shapes, rank <= 8; the
in-place variant checks selfRef against the out list first. A self dtype outside the out list is
cast to the out dtype first; Sigmoid runs on AI CPU for float64 / complex; then Cast(out), ViewCopy.

Gelu: self float32 / float16 / bfloat16, out of the same dtype; neither storage format private;
rank <= 8, equal shapes. The A2 kernel is the tanh approximation
0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), computed in float32 for half inputs.

Silu: self float32 / float16 / bfloat16, out of the same dtype and shape, no rank limit: a self of more
than 8 dims is reshaped to 1-D around the kernel. Empty self or out returns at once. The kernel is
Swish(scale = 1.0): x / (1 + e^(−scale·x)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.unary import (
    UnaryAttrs,
    check_dtype_match,
    check_not_private,
    check_same_shape,
    plan_unary,
    unary_l0,
    unary_op,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import Float32, l2_api, reshape_view
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
CPU_REST = (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
RELU_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_INT32, D.DT_INT64, D.DT_BF16)
SIGMOID_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
                  D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16, D.DT_UINT8)  # fmt: skip
SIGMOID_OUT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)
SILU_SCALE = 1.0
SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))
GELU_COEFF = 0.044715


def _relu(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.maximum(x, x.dtype.type(0))


def _sigmoid(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


def _gelu(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    t = x.dtype.type
    inner = t(SQRT_2_OVER_PI) * (x + t(GELU_COEFF) * x * x * x)
    return t(0.5) * x * (t(1) + np.tanh(inner))


@dataclass(frozen=True, slots=True)
class SwishAttrs(UnaryAttrs):
    """What a Swish binary has baked in: its dtypes and the float attribute scale."""

    scale: float

    @classmethod
    def of(cls, signature: KernelSignature) -> SwishAttrs:
        dx, dy = signature.dtypes
        (scale,) = signature.attrs
        return cls(dx, dy, scale)


def _swish(x: np.ndarray, ctx: BlockContext[SwishAttrs]) -> np.ndarray:
    scale = ctx.attrs.scale
    t = x.dtype.type
    return x / (t(1) + np.exp(t(-scale) * x))


RELU = unary_op("Relu", _relu, (*FLOATS, D.DT_INT8, D.DT_INT32, D.DT_INT64))
SIGMOID = unary_op("Sigmoid", _sigmoid, FLOATS, CPU_REST, half_in_fp32=True, temps=1)
GELU = unary_op("Gelu", _gelu, FLOATS, half_in_fp32=True, temps=2)
SWISH = unary_op(
    "Swish", _swish, FLOATS, half_in_fp32=True, temps=1, attrs=(("scale", "float"),), kernel_attrs=SwishAttrs.of
)


def relu_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Relu (AI Core only)."""
    return unary_l0(RELU, x, executor)


def sigmoid_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Sigmoid."""
    return unary_l0(SIGMOID, x, executor)


def gelu_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Gelu (AI Core only)."""
    return unary_l0(GELU, x, executor)


def swish_l0(x: aclTensor, scale: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::Swish(x, scale) (AI Core only)."""
    return unary_l0(SWISH, x, executor, attrs=(Float32(scale),))


# -- Relu ---------------------------------------------------------------------------------------------------
def _relu_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, RELU_DTYPES)
    check_dtype_match(api, "out", out, self.dtype)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_same_shape(api, self, out)
    identity = self.dtype == D.DT_UINT8
    empty = is_empty(self) or (self is out and identity)
    return plan_unary(self, out, None if identity else relu_l0, empty=empty)


@l2_api
def aclnnReluGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _relu_phase1("aclnnRelu", self, out)


@l2_api
def aclnnInplaceReluGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _relu_phase1("aclnnInplaceRelu", selfRef, selfRef)


# -- Sigmoid ------------------------------------------------------------------------------------------------
def _sigmoid_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, SIGMOID_DTYPES)
    check_dtype(api, "out", out, SIGMOID_OUT_DTYPES)
    check_same_shape(api, self, out)
    check_rank(api, "self", self)
    pre_cast = self.dtype if self.dtype in SIGMOID_OUT_DTYPES else out.dtype
    return plan_unary(self, out, sigmoid_l0, pre_cast)


@l2_api
def aclnnSigmoidGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _sigmoid_phase1("aclnnSigmoid", self, out)


@l2_api
def aclnnInplaceSigmoidGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceSigmoid"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, SIGMOID_OUT_DTYPES)
    return _sigmoid_phase1(api, selfRef, selfRef)


# -- Gelu ---------------------------------------------------------------------------------------------------
@l2_api
def aclnnGeluGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnGelu"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, FLOATS)
    check_dtype_match(api, "out", out, self.dtype)
    check_not_private(api, "self", self.storage_format)
    check_not_private(api, "out", out.storage_format)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    return plan_unary(self, out, gelu_l0)


# -- Silu ---------------------------------------------------------------------------------------------------
def _silu_kernel(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """Swish(scale = 1) on the contiguous input, through a 1-D view when it has more than 8 dims."""
    shape = x.view_shape
    if len(shape) <= MAX_DIM:
        return swish_l0(x, SILU_SCALE, executor)
    flat = swish_l0(reshape_view(executor, x, (x.numel,)), SILU_SCALE, executor)
    return reshape_view(executor, flat, shape)


@l2_api
def aclnnSiluGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnSilu"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, FLOATS)
    check_dtype(api, "out", out, FLOATS)
    check_dtype_match(api, "out", out, self.dtype)
    check_param(self.view_shape == out.view_shape, api, "self and out should have the same shape.")
    return plan_unary(self, out, _silu_kernel, empty=is_empty(self, out))


OPS = (RELU.aicore, SIGMOID.aicore, GELU.aicore, SWISH.aicore)
