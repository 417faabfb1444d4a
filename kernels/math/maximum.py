"""aclnnMaximum: out = max(self, other), elementwise with broadcast; the L2 body aclnnMinimum shares.

L0 Maximum / Minimum: output of the first input's dtype; AI Core for float32, float16, int32, int8,
int64, bfloat16; the AI CPU kernel otherwise (int16, uint8, double). Bool tensors compute as
LogicalOr (max) / LogicalAnd (min), as the real L2 does.

L2 (both ops): nulls (161001); self, other and out dtypes in the list; PromoteType defined and castable
to out; ranks of self and other <= 8; broadcast; out shape (161002). An empty self or other then
returns at once; the chain is Contiguous -> Cast(promote) both -> the kernel -> Cast(out) -> ViewCopy.
A NaN operand gives NaN (fmax/fmin's NaN-skipping is not what the vector max/min does).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1, broadcast_out, launch
from emulator.kernels.math.cast import cast
from emulator.kernels.math.compare_tensor import L0Compare, soc_list
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.kernels.math.logical_or import logical_or_l0
from emulator.kernels.math.unary import check_cast
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import OpImpl, contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
MAX_MIN_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_INT64, D.DT_INT16, D.DT_UINT8,
                  D.DT_DOUBLE, D.DT_BOOL)  # fmt: skip
MAX_MIN_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_INT64, D.DT_BF16)
MAX_MIN_BINS = ("float", "float16", "int32", "int8", "int64", "bfloat16")


def _maximum(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    return np.maximum(a, b, out=out)


MAXIMUM, MAXIMUM_AICPU = binary_op("Maximum", _maximum, MAX_MIN_BINS)


def max_min_l0(aicore: OpImpl, aicpu: OpImpl) -> L0Compare:
    def l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
        out = broadcast_out(executor, a, b, a.dtype)
        return launch(executor, (aicore, a.dtype in MAX_MIN_AICORE), (aicpu, (), ()), (a, b), out)

    return l0


maximum_l0 = max_min_l0(MAXIMUM, MAXIMUM_AICPU)


def max_min(api: str, kernels: tuple[L0Compare, L0Compare], self: aclTensor | None, other: aclTensor | None,
             out: aclTensor | None) -> Phase1:  # fmt: skip
    """The shared L2 body; ``kernels`` = (the numeric L0, the bool L0)."""
    check_not_null(api, self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    supported = soc_list(MAX_MIN_DTYPES)
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_dtype(api, name, tensor, supported)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, f"self dtype {dtype_name(self.dtype)} and other dtype "
                f"{dtype_name(other.dtype)} can not be promoted.")  # fmt: skip
    check_cast(api, promote, out.dtype)
    check_rank(api, "self", self)
    check_rank(api, "other", other)
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
        kernel = kernels[1] if promote == D.DT_BOOL else kernels[0]
        view_copy(cast(kernel(s, o, executor), out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnMaximumGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return max_min("aclnnMaximum", (maximum_l0, logical_or_l0), self, other, out)


OPS = (MAXIMUM,)
