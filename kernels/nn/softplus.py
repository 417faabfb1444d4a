"""aclnnSoftplus: out = log(1 + exp(beta · x)) / beta, or x where beta · x > threshold.

Null checks self, beta, threshold, out (161001); self in float32 / float16 (and bfloat16 on the A2 /
A3 / RegBase parts); beta's, then threshold's dtype castable to self's, self's castable to out's;
self's rank <= 8, equal shapes (161002). Empty self returns at once. Chain: Contiguous ->
SoftplusV2(beta, threshold as float32 attributes) -> Cast(out) -> ViewCopy; AI Core only, half inputs
computing in float32. The real header declares no in-place variant.
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
SOFTPLUS_910 = (D.DT_FLOAT, D.DT_FLOAT16)
SOFTPLUS_A2 = (*SOFTPLUS_910, D.DT_BF16)


def _softplus(x: np.ndarray, ctx: BlockContext[AttrValues]) -> np.ndarray:
    beta, threshold = (x.dtype.type(v) for v in ctx.attrs.values)
    scaled = x * beta
    return np.where(scaled > threshold, x, np.logaddexp(x.dtype.type(0), scaled) / beta)


SOFTPLUS = unary_op(
    "SoftplusV2", _softplus, SOFTPLUS_A2, half_in_fp32=True, temps=2,
    attrs=(("beta", "float"), ("threshold", "float")), kernel_attrs=AttrValues.of,
)  # fmt: skip


def softplus_l0(x: aclTensor, beta: float, threshold: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::SoftplusV2(x, beta, threshold) (AI Core only)."""
    return unary_l0(SOFTPLUS, x, executor, attrs=(Float32(beta), Float32(threshold)))


@l2_api
def aclnnSoftplusGetWorkspaceSize(
    self: aclTensor | None, beta: aclScalar | None, threshold: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
    const aclScalar* threshold, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSoftplus"
    check_not_null(api, self=self, beta=beta, threshold=threshold, out=out)
    assert self is not None and beta is not None and threshold is not None and out is not None
    check_dtype(api, "self", self, list_v2(SOFTPLUS_A2, SOFTPLUS_910))
    check_cast(api, beta.dtype, self.dtype)
    check_cast(api, threshold.dtype, self.dtype)
    check_cast(api, self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    b, t = to_float(beta), to_float(threshold)
    return plan_unary(self, out, lambda x, executor: softplus_l0(x, b, t, executor))


OPS = (SOFTPLUS.aicore,)
