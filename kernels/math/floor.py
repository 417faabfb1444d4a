"""aclnnFloor / aclnnInplaceFloor.

Null checks (161001); out's dtype must be self's, then self in the support list (the integers,
unsigned integers, float64 / float32 / float16, and bfloat16 on the A2 / A3 / RegBase parts);
equal shapes, rank <= 8; neither storage format private (161002). The in-place variant runs the
same checks with selfRef as both. Empty self returns at once. Chain: Contiguous -> Floor (skipped
for an integer self: floor is the identity there) -> ViewCopy. Floor runs on AI Core for float32 /
float16 / bfloat16 and on AI CPU for float64.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import list_v2
from emulator.kernels.math.unary import UnaryAttrs, check_dtype_match, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.meta.dtypes import INTEGRAL_TYPES, DataType
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType
FLOOR_910 = (D.DT_INT64, D.DT_INT32, D.DT_INT16, D.DT_INT8, D.DT_UINT64, D.DT_UINT32, D.DT_UINT16, D.DT_UINT8,
             D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16)  # fmt: skip
FLOOR_A2 = (*FLOOR_910, D.DT_BF16)


def _floor(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.floor(x)


FLOOR = unary_op("Floor", _floor, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16), (D.DT_DOUBLE,))


def floor_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Floor."""
    return unary_l0(FLOOR, x, executor)


def _floor_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype_match(api, "out", out, self.dtype)
    check_dtype(api, "self", self, list_v2(FLOOR_A2, FLOOR_910))
    check_same_shape(api, self, out)
    check_rank(api, "self", self)
    private = is_private_format(self.storage_format) or is_private_format(out.storage_format)
    check_param(not private, api, f"Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, self "
                f"[{self.storage_format}], out [{out.storage_format}]")  # fmt: skip
    return plan_unary(self, out, None if self.dtype in INTEGRAL_TYPES else floor_l0)


@l2_api
def aclnnFloorGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnFloorGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _floor_phase1("aclnnFloor", self, out)


@l2_api
def aclnnInplaceFloorGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceFloorGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _floor_phase1("aclnnInplaceFloor", selfRef, selfRef)


OPS = (FLOOR.aicore,)
