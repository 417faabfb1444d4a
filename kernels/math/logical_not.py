"""aclnnLogicalNot / aclnnInplaceLogicalNot: out = !self.

L0 LogicalNot runs on AI Core only (bool in, bool out). L2: nulls (161001); self and out dtypes in the
list; out shape == self shape; ranks <= 8 — checked only when self or out is non-contiguous (the
real op lets a contiguous tensor of more dims through with a warning) (161002). An empty self then
returns at once; the chain is Contiguous -> Cast(bool) -> LogicalNot -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tensors import is_contiguous
from emulator.kernels.math.unary import UnaryAttrs, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_rank

D = DataType
LOGICAL_NOT_DTYPES = (D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_FLOAT,
                      D.DT_DOUBLE, D.DT_BOOL, D.DT_BF16)  # fmt: skip


def _not(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.logical_not(x)


LOGICAL_NOT = unary_op("LogicalNot", _not, (D.DT_BOOL,))


def logical_not_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::LogicalNot (AI Core only)."""
    return unary_l0(LOGICAL_NOT, x, executor)


def _logical_not(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, LOGICAL_NOT_DTYPES)
    check_dtype(api, "out", out, LOGICAL_NOT_DTYPES)
    check_same_shape(api, self, out)
    if not (is_contiguous(self) and is_contiguous(out)):
        check_rank(api, "self", self)
        check_rank(api, "out", out)
    return plan_unary(self, out, logical_not_l0, D.DT_BOOL)


@l2_api
def aclnnLogicalNotGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _logical_not("aclnnLogicalNot", self, out)


@l2_api
def aclnnInplaceLogicalNotGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _logical_not("aclnnInplaceLogicalNot", selfRef, selfRef)


OPS = (LOGICAL_NOT.aicore,)
