"""aclnnBitwiseOrTensor / aclnnInplaceBitwiseOrTensor: out = self | other.

L0 BitwiseOr: AI Core and AI CPU dtypes as BitwiseAnd's; a bool promotion runs LogicalOr. L2: the body
BitwiseAnd shares (emulator.kernels.math.bitwise_and_tensor.bitwise_binary) with the real op's
differences: a wider list (uint32, uint64 too), no storage-format check, and out's rank is checked.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.bitwise_and_tensor import BITWISE_BINS, BitwiseRule, bitwise_binary, bitwise_l0
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op
from emulator.kernels.math.logical_or import logical_or_l0
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api

D = DataType
BITWISE_OR_DTYPES = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_UINT16, D.DT_UINT32,
                     D.DT_UINT64, D.DT_BOOL)  # fmt: skip


def _or(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    return np.bitwise_or(a, b, out=out)


BITWISE_OR, BITWISE_OR_AICPU = binary_op("BitwiseOr", _or, BITWISE_BINS)
bitwise_or_l0 = bitwise_l0(BITWISE_OR, BITWISE_OR_AICPU)
RULE = BitwiseRule(BITWISE_OR_DTYPES, private_format_check=False, out_rank=True,
                   kernels=(bitwise_or_l0, logical_or_l0))  # fmt: skip


@l2_api
def aclnnBitwiseOrTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnBitwiseOrTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return bitwise_binary("aclnnBitwiseOrTensor", RULE, self, other, out)


@l2_api
def aclnnInplaceBitwiseOrTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceBitwiseOrTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return bitwise_binary("aclnnInplaceBitwiseOrTensor", RULE, selfRef, other, selfRef)


OPS = (BITWISE_OR,)
