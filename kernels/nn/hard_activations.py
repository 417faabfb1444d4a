"""aclnnHardswish / aclnnInplaceHardswish and aclnnHardsigmoid / aclnnInplaceHardsigmoid.

Hardswish: out = x · min(max(x + 3, 0), 6) / 6. Null checks (161001); self and out in float32 /
float16 (and bfloat16 on the bfloat16 SoCs), self's dtype castable to out's; equal shapes, no rank
limit (161002). Chain: Contiguous -> HardSwish -> Cast(out) -> ViewCopy.

Hardsigmoid: out = min(max(x / 6 + 1/2, 0), 1) (the L0 passes alpha = 1/6, beta = 0.5). Null checks
(161001); self in float32 / float16 / int32 (and bfloat16 on the A2 / A3 / RegBase parts); self's rank
<= 8, equal shapes; equal dtypes, then equal storage formats (161002). Chain: Contiguous ->
HardSigmoid -> ViewCopy. An int32 self computes in float32 and truncates (0 or 1).

Both in-place variants are the out-of-place call with self as out; both kernels are AI Core only
(half inputs compute in float32). Empty self returns at once.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import list_v2, soc_supports_bf16
from emulator.kernels.math.unary import UnaryAttrs, check_cast, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.kernels.nn.attr_unary import AttrValues
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclTensor
from emulator.opdev import Float32, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
HARDSWISH_910 = (D.DT_FLOAT, D.DT_FLOAT16)
HARDSIGMOID_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32)
HARDSIGMOID_A2 = (*HARDSIGMOID_910, D.DT_BF16)
HARDSIGMOID_ALPHA, HARDSIGMOID_BETA = 1.0 / 6.0, 0.5


def _hardswish(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    t = x.dtype.type
    return x * np.clip(x + t(3), t(0), t(6)) / t(6)


def _hardsigmoid(x: np.ndarray, ctx: BlockContext[AttrValues]) -> np.ndarray:
    alpha, beta = ctx.attrs.values
    work = x.astype(np.float32) if x.dtype.kind in "iu" else x
    t = work.dtype.type
    return np.clip(work * t(alpha) + t(beta), t(0), t(1))


HARDSWISH = unary_op("HardSwish", _hardswish, FLOATS, half_in_fp32=True, temps=1)
HARDSIGMOID = unary_op(
    "HardSigmoid", _hardsigmoid, HARDSIGMOID_A2, half_in_fp32=True, temps=1,
    attrs=(("alpha", "float"), ("beta", "float")), kernel_attrs=AttrValues.of,
)  # fmt: skip


def hardswish_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::HardSwish (AI Core only)."""
    return unary_l0(HARDSWISH, x, executor)


def hardsigmoid_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::HardSigmoid(x) with alpha 1/6, beta 0.5 (AI Core only)."""
    return unary_l0(HARDSIGMOID, x, executor, attrs=(Float32(HARDSIGMOID_ALPHA), Float32(HARDSIGMOID_BETA)))


# -- Hardswish ----------------------------------------------------------------------------------------------
def _hardswish_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    supported = FLOATS if soc_supports_bf16() else HARDSWISH_910
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_cast(api, self.dtype, out.dtype)
    check_same_shape(api, self, out)
    return plan_unary(self, out, hardswish_l0)


@l2_api
def aclnnHardswishGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _hardswish_phase1("aclnnHardswish", self, out)


@l2_api
def aclnnInplaceHardswishGetWorkspaceSize(self: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _hardswish_phase1("aclnnInplaceHardswish", self, self)


# -- Hardsigmoid --------------------------------------------------------------------------------------------
def _hardsigmoid_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, list_v2(HARDSIGMOID_A2, HARDSIGMOID_910))
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    dtypes = f"{dtype_name(self.dtype)}, {dtype_name(out.dtype)}"
    check_param(self.dtype == out.dtype, api, f"self, out dtypes [{dtypes}] are invalid: the dtype of self and "
                "out must be the same.")  # fmt: skip
    formats = f"{self.storage_format}, {out.storage_format}"
    check_param(self.storage_format == out.storage_format, api, f"self, out formats [{formats}] are invalid: "
                "the format of self and out must be the same.")  # fmt: skip
    return plan_unary(self, out, hardsigmoid_l0)


@l2_api
def aclnnHardsigmoidGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _hardsigmoid_phase1("aclnnHardsigmoid", self, out)


@l2_api
def aclnnInplaceHardsigmoidGetWorkspaceSize(self: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _hardsigmoid_phase1("aclnnInplaceHardsigmoid", self, self)


OPS = (HARDSWISH.aicore, HARDSIGMOID.aicore)
