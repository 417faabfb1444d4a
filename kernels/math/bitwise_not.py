"""aclnnBitwiseNot: out = ~self (logical not for bool).

L0 Invert: AI Core for int16 and uint16, the AI CPU kernel for the other integers; a bool self runs
LogicalNot instead. L2: a null self or out is 561103 here, not 161001 — the real op's null check
returns ACLNN_ERR_INNER_NULLPTR; then self dtype in the list and out's dtype equal to self's; no
private storage format; ranks <= 8; out shape == self shape (161002). An empty self returns at
once; the chain is Contiguous -> the kernel -> ViewCopy (no casts).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.logical_not import logical_not_l0
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
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null_inner, check_rank

D = DataType
BITWISE_NOT_DTYPES = (D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_INT8, D.DT_UINT8, D.DT_BOOL)


def _invert(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.invert(x)


INVERT = unary_op("Invert", _invert, (D.DT_INT16, D.DT_UINT16), (D.DT_INT8, D.DT_INT32, D.DT_INT64, D.DT_UINT8))


def invert_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Invert."""
    return unary_l0(INVERT, x, executor)


@l2_api
def aclnnBitwiseNotGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnBitwiseNot"
    check_not_null_inner(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, BITWISE_NOT_DTYPES)
    check_dtype_match(api, "out", out, self.dtype)
    check_not_private(api, "self", self.storage_format)
    check_not_private(api, "out", out.storage_format)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_same_shape(api, self, out)
    kernel = logical_not_l0 if self.dtype == D.DT_BOOL else invert_l0
    return plan_unary(self, out, kernel)


OPS = (INVERT.aicore,)
