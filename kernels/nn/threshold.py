"""aclnnThreshold / aclnnInplaceThreshold: out = self where self > threshold, else value.

Null checks self, out, threshold, value — in that order (161001); self in float32 / int32 / float16 /
int8 / uint8 / int16 / int64 (and bfloat16 on the bfloat16 SoCs), self's dtype castable to out's
(not checked on the RegBase parts); self's rank <= 8, equal shapes (161002). The in-place variant is
the same call with selfRef as out. Empty self returns at once. Chain: Contiguous -> Cast(int32) for
int16 (off the RegBase parts) -> ThresholdV2(self, threshold, value) — the two scalars become
one-element tensors of self's dtype (ConvertToTensor) -> Cast(out) -> ViewCopy. ThresholdV2 is an AI
Core kernel only; bfloat16 compares in float32 (exact).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.soc_lists import DAV_3510, soc_supports_bf16
from emulator.kernels.math.unary import BF16, F32, check_cast, check_same_shape, plan_unary
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    block_range,
    convert_to_tensor,
    elementwise_tiling,
    l2_api,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_rank
from emulator.opdev.l2 import current_l2

D = DataType
THRESHOLD_910 = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_INT64)
THRESHOLD_A2 = (*THRESHOLD_910, D.DT_BF16)
AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_INT64, D.DT_BF16)


@dataclass(frozen=True, slots=True)
class ThresholdAttrs(KernelAttrs):
    """What a ThresholdV2 binary has baked in: the dtype of x (and of threshold, value and y)."""

    dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> ThresholdAttrs:
        return cls(signature.dtypes[0])


def threshold_kernel(
    ctx: BlockContext[ThresholdAttrs], x: np.ndarray, threshold: np.ndarray, value: np.ndarray, y: np.ndarray
) -> None:
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dtype = ctx.attrs.dtype
    xs, t, v = x.view(dtype)[lo:hi], threshold.view(dtype)[:1], value.view(dtype)[:1]
    if dtype == BF16:
        xs, t = xs.astype(F32), t.astype(F32)
    with np.errstate(invalid="ignore"):
        y.view(dtype)[lo:hi] = np.where(xs > t[0], xs, v[0]).astype(dtype, copy=False)


def threshold_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 2)


THRESHOLD_V2 = OpImpl(
    "ThresholdV2", threshold_kernel, threshold_tiling, input_names=("x", "threshold", "value"),
    bins=tuple(BinSpec((NAMES[d],) * 3, (NAMES[d],)) for d in AICORE), kernel_attrs=ThresholdAttrs.of,
)  # fmt: skip


def threshold_l0(x: aclTensor, threshold: aclScalar, value: aclScalar, executor: aclOpExecutor) -> aclTensor:
    """l0op::Threshold(x, threshold, value): the scalars as one-element tensors of x's dtype, then ThresholdV2."""
    out = executor.alloc_tensor(x.storage_shape, x.dtype)
    t = convert_to_tensor(threshold, x.dtype, executor)
    v = convert_to_tensor(value, x.dtype, executor)
    if add_to_launcher_list_aicore(executor, THRESHOLD_V2, OP_INPUT(x, t, v), OP_OUTPUT(out)) != 0:
        raise L0StepFailed("ThresholdV2", "the kernel was not recorded")
    return out


def _threshold_phase1(
    api: str, self: aclTensor | None, threshold: aclScalar | None, value: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out, threshold=threshold, value=value)
    assert self is not None and out is not None and threshold is not None and value is not None
    check_dtype(api, "self", self, THRESHOLD_A2 if soc_supports_bf16() else THRESHOLD_910)
    regbase = current_l2().op.soc.npu_arch >= DAV_3510
    if not regbase:
        check_cast(api, self.dtype, out.dtype)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    pre_cast = D.DT_INT32 if self.dtype == D.DT_INT16 and not regbase else None
    return plan_unary(self, out, lambda x, executor: threshold_l0(x, threshold, value, executor), pre_cast)


@l2_api
def aclnnThresholdGetWorkspaceSize(
    self: aclTensor | None, threshold: aclScalar | None, value: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
    const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _threshold_phase1("aclnnThreshold", self, threshold, value, out)


@l2_api
def aclnnInplaceThresholdGetWorkspaceSize(
    selfRef: aclTensor | None, threshold: aclScalar | None, value: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
    const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _threshold_phase1("aclnnInplaceThreshold", selfRef, threshold, value, selfRef)


OPS = (THRESHOLD_V2,)
