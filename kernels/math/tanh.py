"""aclnnTanh / aclnnInplaceTanh.

Null checks (161001); self and out dtypes in the A2 list (float32 / float16 / bool / uint8 / int8 / int16 /
int32 / int64 / bfloat16 — the code checks out against the self list); the compute dtype (float32 for
integer / bool self) must be castable to out, which leaves float32 / float16 / bfloat16 outs; self and out
view formats equal and self's not private; rank <= 8, equal shapes (161002). In-place: selfRef must be
float32 / float16 / bfloat16. Empty self or out returns at once. Chain: Contiguous -> Cast(float32) for
integer / bool self -> Tanh (AI Core only; half inputs compute in float32) -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.unary import (
    INTEGRAL_OR_BOOL,
    UnaryAttrs,
    check_cast,
    check_not_private,
    check_same_shape,
    plan_unary,
    unary_l0,
    unary_op,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
TANH_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BOOL, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
               D.DT_BF16)  # fmt: skip


def _tanh(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.tanh(x)


TANH = unary_op("Tanh", _tanh, FLOATS, half_in_fp32=True, temps=2)


def tanh_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Tanh (AI Core only)."""
    return unary_l0(TANH, x, executor)


def _tanh_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, TANH_DTYPES)
    check_dtype(api, "out", out, TANH_DTYPES)
    integral = self.dtype in INTEGRAL_OR_BOOL
    check_cast(api, D.DT_FLOAT if integral else self.dtype, out.dtype)
    check_param(self.view_format == out.view_format, api, "the formats of self and out should be equal.")
    check_not_private(api, "self", self.view_format)
    check_rank(api, "self", self)
    check_same_shape(api, self, out)
    return plan_unary(self, out, tanh_l0, D.DT_FLOAT if integral else None, empty=is_empty(self, out))


@l2_api
def aclnnTanhGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _tanh_phase1("aclnnTanh", self, out)


@l2_api
def aclnnInplaceTanhGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceTanhGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceTanh"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, FLOATS)
    return _tanh_phase1(api, selfRef, selfRef)


OPS = (TANH.aicore,)
