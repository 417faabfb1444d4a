"""aclnnInplaceZero and the L0 ZerosLike it runs on (ops-math math/zero_op).

L2: null check (161001); selfRef dtype in the A2 list (uint32 and uint64 are not: 161002); an empty
selfRef launches nothing. Then Contiguous(selfRef), ZerosLike, ViewCopy back into selfRef. The real
L2 has no rank check: a 9-D selfRef of an AI Core dtype is zeroed, one of an AI CPU dtype makes the
AI CPU ZerosLike step fail (561103), as in the code.

L0 ZerosLike (``zeros_like_l0``): an output like its input, all zeros; AI Core on A2 for int8, int32,
int64, uint8, float16, float32, bool, bfloat16; the AI CPU ZerosLike (no attrs) otherwise. Bit-exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import fill_tiling, same_dtype_bins
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, is_empty

D = DataType
ZERO_DTYPES = (D.DT_INT8, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_FLOAT16, D.DT_FLOAT, D.DT_BOOL, D.DT_DOUBLE,
               D.DT_INT16, D.DT_UINT16, D.DT_COMPLEX128, D.DT_COMPLEX64, D.DT_BF16)  # fmt: skip
ZEROS_LIKE_AICORE = (D.DT_INT8, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_FLOAT16, D.DT_FLOAT, D.DT_BOOL, D.DT_BF16)


@dataclass(frozen=True, slots=True)
class ZerosLikeAttrs(KernelAttrs):
    """What a ZerosLike binary has baked in: the output dtype (the input is never read)."""

    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> ZerosLikeAttrs:
        _, dy = signature.dtypes
        return cls(dy)


def constant_like_kernel(value: int) -> Callable[[BlockContext[ZerosLikeAttrs], np.ndarray, np.ndarray], None]:
    """The kernel of ZerosLike / OnesLike: this block's range of y is set to ``value`` (x is not read)."""

    def kernel(ctx: BlockContext[ZerosLikeAttrs], x: np.ndarray, y: np.ndarray) -> None:
        lo, hi = block_range(ctx.tiling, ctx.block_idx)
        if lo >= hi:
            return
        dy = ctx.attrs.y_dtype
        y.view(dy)[lo:hi] = np.full(1, value, dtype=dy)[0]

    return kernel


zeros_like_kernel = constant_like_kernel(0)


ZEROS_LIKE = OpImpl(
    "ZerosLike", zeros_like_kernel, fill_tiling, bins=same_dtype_bins(ZEROS_LIKE_AICORE),
    kernel_attrs=ZerosLikeAttrs.of, unread_inputs=("x",),
)  # fmt: skip
ZEROS_LIKE_AICPU = OpImpl(
    "ZerosLike",
    zeros_like_kernel,
    fill_tiling,
    engine=Engine.AICPU,
    kernel_attrs=ZerosLikeAttrs.of,
    unread_inputs=("x",),
)


def zeros_like_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::ZerosLike(x): a workspace tensor of x's shape and dtype, all zeros; L0StepFailed when a step fails."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    if is_empty(out):
        return out
    if x.dtype in ZEROS_LIKE_AICORE:
        status = add_to_launcher_list_aicore(executor, ZEROS_LIKE, OP_INPUT(x), OP_OUTPUT(out))
    elif len(x.view_shape) > MAX_DIM:
        raise L0StepFailed("ZerosLike", f"rank {len(x.view_shape)} > {MAX_DIM}")  # the AI CPU path checks it first
    else:
        status = add_to_launcher_list_aicpu(executor, ZEROS_LIKE_AICPU, (), OP_INPUT(x), OP_OUTPUT(out))
    if status != 0:
        raise L0StepFailed("ZerosLike", f"status {status}")
    return out


@l2_api
def aclnnInplaceZeroGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceZero"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, ZERO_DTYPES)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(selfRef):
            return unique.release(0)
        x = contiguous(selfRef, executor)
        view_copy(zeros_like_l0(x, executor), selfRef, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ZEROS_LIKE,)
