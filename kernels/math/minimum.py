"""aclnnMinimum: out = min(self, other), elementwise with broadcast.

L0 Minimum: AI Core and AI CPU dtypes as Maximum's; bool tensors compute as LogicalAnd. The L2 checks
and chain are Maximum's (emulator.kernels.math.maximum.max_min).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op
from emulator.kernels.math.logical_and import logical_and_l0
from emulator.kernels.math.maximum import MAX_MIN_BINS, max_min, max_min_l0
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api


def _minimum(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    return np.minimum(a, b, out=out)


MINIMUM, MINIMUM_AICPU = binary_op("Minimum", _minimum, MAX_MIN_BINS)
minimum_l0 = max_min_l0(MINIMUM, MINIMUM_AICPU)


@l2_api
def aclnnMinimumGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return max_min("aclnnMinimum", (minimum_l0, logical_and_l0), self, other, out)


OPS = (MINIMUM,)
