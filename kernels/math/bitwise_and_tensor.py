"""aclnnBitwiseAndTensor / aclnnInplaceBitwiseAndTensor: out = self & other, and the L2 body BitwiseOr shares.

L0 BitwiseAnd: output of the first input's dtype; AI Core for int16, uint16, int32 and (on the 910B
family) int64; the AI CPU kernel otherwise. A bool promotion runs LogicalAnd instead, as the real L2 does.

L2: nulls (161001); self and other dtypes in the list; PromoteType defined and castable to out; no
private storage format; ranks of self and other <= 8; broadcast; out shape (161002). An empty self or
other then returns at once; the chain is Contiguous -> Cast(promote) both -> the kernel -> Cast(out)
-> ViewCopy. The inplace form is the out-of-place call with out = selfRef (its messages name
aclnnBitwiseAndTensor, as the real one's do).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, launch
from emulator.kernels.math.cast import cast
from emulator.kernels.math.compare_tensor import L0Compare, soc_has_bf16
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.kernels.math.logical_and import logical_and_l0
from emulator.kernels.math.unary import check_cast, check_not_private
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import OpImpl, contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
BITWISE_AND_DTYPES = (D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_UINT16)
BITWISE_AICORE = (D.DT_INT16, D.DT_UINT16, D.DT_INT32)  # + int64 on the 910B family
BITWISE_BINS = ("int16", "uint16", "int32", "int64")


def _and(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    return np.bitwise_and(a, b, out=out)


BITWISE_AND, BITWISE_AND_AICPU = binary_op("BitwiseAnd", _and, BITWISE_BINS)


def bitwise_l0(aicore: OpImpl, aicpu: OpImpl) -> L0Compare:
    """The L0 of a bitwise binary kernel: AI Core by self's dtype and the SoC, else AI CPU."""

    def l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
        out = broadcast_out(executor, a, b, a.dtype)
        supported = (*BITWISE_AICORE, D.DT_INT64) if soc_has_bf16() else BITWISE_AICORE
        return launch(executor, (aicore, a.dtype in supported), (aicpu, (), ()), (a, b), out)

    return l0


bitwise_and_l0 = bitwise_l0(BITWISE_AND, BITWISE_AND_AICPU)


@dataclass(frozen=True)
class BitwiseRule:
    """Where the two real L2 bodies differ: the dtype list, the format check, out's rank check."""

    dtypes: tuple[int, ...]
    private_format_check: bool
    out_rank: bool
    kernels: tuple[L0Compare, L0Compare]  # (the bitwise L0, the bool L0)


def bitwise_binary(api: str, rule: BitwiseRule, self: aclTensor | None, other: aclTensor | None,
                   out: aclTensor | None) -> Phase1:  # fmt: skip
    check_not_null(api, self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    check_dtype(api, "self", self, rule.dtypes)
    check_dtype(api, "other", other, rule.dtypes)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, f"self dtype {dtype_name(self.dtype)} and other dtype "
                f"{dtype_name(other.dtype)} can not be promoted.")  # fmt: skip
    check_cast(api, promote, out.dtype)
    if rule.private_format_check:
        for name, tensor in (("self", self), ("other", other), ("out", out)):
            check_not_private(api, name, tensor.storage_format)
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    if rule.out_rank:
        check_rank(api, "out", out)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} should be "
                f"{list(shape or ())}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        s = cast(contiguous(self, executor), promote, executor)
        o = cast(contiguous(other, executor), promote, executor)
        kernel = rule.kernels[1] if promote == D.DT_BOOL else rule.kernels[0]
        view_copy(cast(kernel(s, o, executor), out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


RULE = BitwiseRule(BITWISE_AND_DTYPES, private_format_check=True, out_rank=False,
                   kernels=(bitwise_and_l0, logical_and_l0))  # fmt: skip


@l2_api
def aclnnBitwiseAndTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return bitwise_binary("aclnnBitwiseAndTensor", RULE, self, other, out)


@l2_api
def aclnnInplaceBitwiseAndTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return bitwise_binary("aclnnBitwiseAndTensor", RULE, selfRef, other, selfRef)


OPS = (BITWISE_AND,)
