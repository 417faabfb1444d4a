"""aclnnLeakyRelu / aclnnInplaceLeakyRelu: out = x for x > 0, negativeSlope * x otherwise.

Null checks self, negativeSlope, out (161001); self in float32 / float16 / float64 (and bfloat16 on the
A2 / A3 / RegBase parts), self's dtype castable to out's; self's rank <= 8, equal shapes (161002). The
in-place variant is the same call with selfRef as out. Empty self returns at once. Chain: Contiguous ->
LeakyRelu(negative_slope = negativeSlope.ToFloat()) -> Cast(out) -> ViewCopy. The kernel runs on AI
Core for float32 / float16 / bfloat16 (half inputs compute in float32) and on AI CPU (attribute
"alpha") for float64.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.soc_lists import list_v2
from emulator.kernels.math.unary import check_cast, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.kernels.nn.attr_unary import AttrValues
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import Float32, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_rank

D = DataType
LEAKY_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE)
LEAKY_A2 = (*LEAKY_910, D.DT_BF16)


def _leaky_relu(x: np.ndarray, ctx: BlockContext[AttrValues]) -> np.ndarray:
    (slope,) = ctx.attrs.values
    return np.where(x > 0, x, x * x.dtype.type(slope))


LEAKY_RELU = unary_op(
    "LeakyRelu", _leaky_relu, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16), (D.DT_DOUBLE,), half_in_fp32=True, temps=1,
    attrs=(("negative_slope", "float"),), aicpu_attr_names=("alpha",), kernel_attrs=AttrValues.of,
)  # fmt: skip


def leaky_relu_l0(x: aclTensor, slope: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::LeakyRelu(x, negativeSlope)."""
    return unary_l0(LEAKY_RELU, x, executor, attrs=(Float32(slope),))


def _leaky_relu_phase1(
    api: str, self: aclTensor | None, negativeSlope: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, negativeSlope=negativeSlope, out=out)
    assert self is not None and negativeSlope is not None and out is not None
    check_dtype(api, "self", self, list_v2(LEAKY_A2, LEAKY_910))
    check_cast(api, self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    slope = to_float(negativeSlope)
    return plan_unary(self, out, lambda x, executor: leaky_relu_l0(x, slope, executor))


@l2_api
def aclnnLeakyReluGetWorkspaceSize(
    self: aclTensor | None, negativeSlope: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _leaky_relu_phase1("aclnnLeakyRelu", self, negativeSlope, out)


@l2_api
def aclnnInplaceLeakyReluGetWorkspaceSize(
    selfRef: aclTensor | None, negativeSlope: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* negativeSlope,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _leaky_relu_phase1("aclnnInplaceLeakyRelu", selfRef, negativeSlope, selfRef)


OPS = (LEAKY_RELU.aicore,)
