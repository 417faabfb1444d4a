"""aclnnMaskedSelect and the L0 MaskedSelectV3 / MaskedSelect it runs on (ops-math conversion/masked_select_v3).

L2 as the real op is written: null checks of self, mask, out (161001); self's and out's dtypes in
the SoC's list (bfloat16 on A2 / A3 and RegBase, the unsigned types on RegBase), mask bool or uint8;
self or mask with more than 8 dims, self and mask not broadcastable, out not 1-D or its size not
the broadcast's element count (all 161002). A non-ND format only warns. An empty self, mask or out
launches nothing. The caller allocates out for the worst case (one element per broadcast position).
Compute: Contiguous, mask Cast to bool, self Cast to out's dtype; on A2 / A3 and RegBase (for the
SoC's dtypes) both are broadcast to the common shape (BroadcastTo) and MaskedSelectV3 runs on AI Core
with an OP_OUTSHAPE record of two int64; elsewhere the AI CPU MaskedSelect broadcasts by itself.
The kernel writes the selected elements in row-major order to the front of out and out's view shape
becomes [count] after the launch (read it with aclGetViewShape). As in the real code the L0 launch
is not checked, so a failed kernel lookup still returns SUCCESS from phase 1. Bit-exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, soc_dtypes
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    OP_OUTSHAPE,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    elementwise_tiling,
    l2_api,
)
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
MASKED_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
                 D.DT_BOOL)  # fmt: skip
MASKED_DTYPES_A2 = (*MASKED_DTYPES, D.DT_BF16)
MASKED_DTYPES_REGBASE = (*MASKED_DTYPES_A2, D.DT_UINT32, D.DT_UINT64, D.DT_UINT16)
MASK_DTYPES = (D.DT_UINT8, D.DT_BOOL)


@dataclass(frozen=True, slots=True)
class MaskedSelectAttrs(KernelAttrs):
    """What a MaskedSelect binary has baked in: x's and mask's dtypes and shapes."""

    x_dtype: np.dtype
    mask_dtype: np.dtype
    x_shape: tuple[int, ...]
    mask_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> MaskedSelectAttrs:
        dx, dm, *_ = signature.dtypes
        sx, sm, *_ = signature.shapes
        return cls(dx, dm, sx, sm)


def masked_select_kernel(ctx: BlockContext[MaskedSelectAttrs], x: np.ndarray, mask: np.ndarray, y: np.ndarray,
                         record: np.ndarray) -> None:  # fmt: skip
    """One block: x's elements where the (broadcast) mask holds, in order, then the shape record [1, count]."""
    attrs = ctx.attrs
    shape = broadcast_shape(attrs.x_shape, attrs.mask_shape) or ()
    values = x.view(attrs.x_dtype)[: int(np.prod(attrs.x_shape, dtype=np.int64))].reshape(attrs.x_shape)
    keep = mask.view(attrs.mask_dtype)[: int(np.prod(attrs.mask_shape, dtype=np.int64))].reshape(attrs.mask_shape)
    picked = np.broadcast_to(values, shape)[np.broadcast_to(keep != 0, shape)]
    dst = y.view(attrs.x_dtype)
    fit = min(picked.size, dst.size)
    dst[:fit] = picked[:fit]
    record.view(np.int64)[:2] = (1, picked.size)


def masked_select_tiling(ctx: TilingContext) -> TilingResult:
    """One block: the selected elements are compacted in order in a single pass."""
    return elementwise_tiling(ctx, 1, 3, 8)


MASKED_SELECT_V3 = OpImpl(
    "MaskedSelectV3", masked_select_kernel, masked_select_tiling, input_names=("x", "mask"),
    kernel_attrs=MaskedSelectAttrs.of, moved_inputs=("x",),
    bins=tuple(BinSpec((NAMES[d], "bool"), (NAMES[d],)) for d in MASKED_DTYPES_REGBASE),
)  # fmt: skip
MASKED_SELECT_AICPU = OpImpl(
    "MaskedSelect", masked_select_kernel, masked_select_tiling, engine=Engine.AICPU, input_names=("x", "mask"),
    kernel_attrs=MaskedSelectAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def _on_ai_core(self: aclTensor, soc: str) -> bool:
    if soc in REGBASE_SOCS:
        return self.dtype in MASKED_DTYPES_REGBASE
    return soc in A2_SOCS and self.dtype in MASKED_DTYPES_A2


def _check(api: str, self: aclTensor, mask: aclTensor, out: aclTensor) -> None:
    supported = soc_dtypes(MASKED_DTYPES_A2, MASKED_DTYPES, MASKED_DTYPES_REGBASE)
    check_dtype(api, "self", self, supported)
    check_dtype(api, "mask", mask, MASK_DTYPES)
    check_dtype(api, "out", out, supported)
    check_rank(api, "self", self)
    check_rank(api, "mask", mask)
    shape = broadcast_shape(self.view_shape, mask.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and mask {list(mask.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    rank = len(out.view_shape)
    check_param(rank == 1, api, f"Expected out to have 1 dimension(s), but got {rank}.")
    size, wanted = int(np.prod(out.view_shape)), int(np.prod(shape or ()))
    check_param(size == wanted, api, f"The out shape size is not same with broadcastShapeSize. y.shape: {size}, "
                f"broadcastShape.shape: {wanted}.")  # fmt: skip


@l2_api
def aclnnMaskedSelectGetWorkspaceSize(
    self: aclTensor | None, mask: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnMaskedSelect"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, mask=mask, out=out)
        assert self is not None and mask is not None and out is not None
        _check(api, self, mask, out)
        if is_empty(self, mask, out):
            return unique.release(0)
        keep = cast(contiguous(mask, executor), D.DT_BOOL, executor)
        x = cast(contiguous(self, executor), out.dtype, executor)
        if _on_ai_core(self, executor.ctx.soc.short_soc_version):
            if self.view_shape != mask.view_shape:
                shape = broadcast_shape(self.view_shape, mask.view_shape)
                assert shape is not None
                x, keep = broadcast_to_l0(x, shape, executor), broadcast_to_l0(keep, shape, executor)
            record = executor.alloc_tensor((2,), D.DT_INT64)
            groups = (OP_INPUT(x, keep), OP_OUTPUT(out), OP_OUTSHAPE(record, 0))
            add_to_launcher_list_aicore(executor, MASKED_SELECT_V3, *groups)
        else:
            record = executor.alloc_tensor((MAX_DIM + 1,), D.DT_INT64)  # the emulator's stand-in for the ext info
            groups = (OP_INPUT(x, keep), OP_OUTPUT(out), OP_OUTSHAPE(record, 0))
            add_to_launcher_list_aicpu(executor, MASKED_SELECT_AICPU, (), *groups)
        return unique.release(executor.get_workspace_size())


OPS = (MASKED_SELECT_V3,)
