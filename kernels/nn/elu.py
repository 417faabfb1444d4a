"""aclnnElu / aclnnInplaceElu: out = scale * x for x > 0, scale * alpha * (exp(inputScale * x) - 1) otherwise.

Null checks self, alpha, scale, inputScale, out (161001); self in float32 / float16 / float64 /
bfloat16; scale, then alpha, then inputScale castable to float32; self's dtype castable to out's;
equal shapes, then self's rank <= 8 (161002). The in-place variant is the same with selfRef as out.
Empty self returns at once. Chain: Contiguous -> Elu(alpha, scale, input_scale as float32
attributes) -> Cast(out) -> ViewCopy; AI Core for float32 / float16 / bfloat16 (half inputs compute
in float32), AI CPU for float64.

An infinite or NaN alpha or inputScale takes the real code's other branch: it records ThresholdV2(x,
0, -alpha) but never hands its result on, so the L2 sees a null result and fails with 561103 — the
emulator gives the same status (the Threshold launch is recorded, then the step fails).
"""

from __future__ import annotations

import math

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.cast import cast
from emulator.kernels.math.unary import check_cast, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.kernels.nn.attr_unary import AttrValues
from emulator.kernels.nn.threshold import threshold_l0
from emulator.meta.dtypes import DataType, can_cast, dtype_name
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import Float32, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType
ELU_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_BF16)
ELU_ATTRS = (("alpha", "float"), ("scale", "float"), ("input_scale", "float"))


def _elu(x: np.ndarray, ctx: BlockContext[AttrValues]) -> np.ndarray:
    alpha, scale, input_scale = (x.dtype.type(v) for v in ctx.attrs.values)
    negative = alpha * np.expm1(input_scale * np.minimum(x, x.dtype.type(0)))
    return scale * np.where(x > 0, x, negative)


ELU = unary_op(
    "Elu", _elu, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16), (D.DT_DOUBLE,), half_in_fp32=True, temps=2,
    attrs=ELU_ATTRS, aicpu_attr_names=("alpha", "scale", "input_scale"), kernel_attrs=AttrValues.of,
)  # fmt: skip


def elu_l0(x: aclTensor, alpha: float, scale: float, input_scale: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::Elu(x, alpha, scale, inputScale)."""
    return unary_l0(ELU, x, executor, attrs=(Float32(alpha), Float32(scale), Float32(input_scale)))


def _check_float_castable(api: str, name: str, scalar: aclScalar) -> None:
    message = f"{name} dtype {dtype_name(scalar.dtype)} can not cast to float32."
    check_param(can_cast(scalar.dtype, D.DT_FLOAT), api, message)


def _inf_nan_branch(x: aclTensor, alpha: float, executor: aclOpExecutor) -> aclTensor:
    """ComputeEluWithInfNan: ThresholdV2(x as float32 for half / double x, 0, -alpha), whose result the real
    code drops: the L2 then finds no Elu result."""
    source = cast(x, D.DT_FLOAT, executor) if x.dtype != D.DT_FLOAT else x
    zero, neg_alpha = executor.alloc_scalar(0.0, D.DT_FLOAT), executor.alloc_scalar(-alpha, D.DT_FLOAT)
    if zero is None or neg_alpha is None:
        raise L0StepFailed("Elu", "no scalar")
    threshold_l0(source, zero, neg_alpha, executor)
    raise L0StepFailed("Elu", "the inf / NaN branch returns no result")


def _elu_phase1(
    api: str,
    self: aclTensor | None,
    alpha: aclScalar | None,
    scale: aclScalar | None,
    inputScale: aclScalar | None,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, alpha=alpha, scale=scale, inputScale=inputScale, out=out)
    assert self is not None and alpha is not None and scale is not None and inputScale is not None
    assert out is not None
    check_dtype(api, "self", self, ELU_DTYPES)
    _check_float_castable(api, "scale", scale)
    _check_float_castable(api, "alpha", alpha)
    _check_float_castable(api, "inputScale", inputScale)
    check_cast(api, self.dtype, out.dtype)
    check_same_shape(api, self, out)
    check_rank(api, "self", self)
    a, s, i = to_float(alpha), to_float(scale), to_float(inputScale)
    if not (math.isfinite(a) and math.isfinite(i)):
        return plan_unary(self, out, lambda x, executor: _inf_nan_branch(x, a, executor))
    return plan_unary(self, out, lambda x, executor: elu_l0(x, a, s, i, executor))


@l2_api
def aclnnEluGetWorkspaceSize(
    self: aclTensor | None,
    alpha: aclScalar | None,
    scale: aclScalar | None,
    inputScale: aclScalar | None,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
    const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _elu_phase1("aclnnElu", self, alpha, scale, inputScale, out)


@l2_api
def aclnnInplaceEluGetWorkspaceSize(
    selfRef: aclTensor | None, alpha: aclScalar | None, scale: aclScalar | None, inputScale: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
    const aclScalar* scale, const aclScalar* inputScale, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _elu_phase1("aclnnInplaceElu", selfRef, alpha, scale, inputScale, selfRef)


OPS = (ELU.aicore,)
