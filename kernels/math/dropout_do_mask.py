"""aclnnDropoutDoMask: out = self · bit_i(mask) / (1 - prob), the element kept where its mask bit is 1.

The mask is a bit mask stored in uint8: element i's bit is bit ``i % 8`` (least significant first)
of byte ``i // 8``; it must hold at least ceil(numel / 128) · 16 bytes (the kernel reads it in
128-bit groups). Checks: CREATE_EXECUTOR, then null self / mask / out (161001); an empty self or mask
returns at once; self's dtype castable to out's, self in float32 / float16 (+ bfloat16 on A2 / A3 /
RegBase), mask uint8, prob in [0, 1], self's rank <= 8, out shaped like self, the mask large enough
(161002). Chain: Contiguous both -> prob 0: self itself; prob 1: ZerosLike; else DropOutDoMask(self,
mask, keep_prob) where keep_prob = 1 - prob is a one-element tensor of self's dtype (so it is rounded
to that dtype, and the kernel scales by 1 / keep_prob in float32) -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.soc_lists import list_v2
from emulator.kernels.math.unary import check_cast, plan_unary
from emulator.kernels.math.zero import zeros_like_l0
from emulator.kernels.nn.backward_common import GradAttrs, check_shape_equal
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    convert_to_tensor,
    elementwise_tiling,
    l2_api,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
DROPOUT_A2 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
DROPOUT_910 = (D.DT_FLOAT, D.DT_FLOAT16)
MASK_GROUP_BITS = 128


def mask_bytes_needed(numel: int) -> int:
    """The mask bytes the kernel reads for ``numel`` elements: whole 128-bit groups."""
    return (numel + MASK_GROUP_BITS - 1) // MASK_GROUP_BITS * MASK_GROUP_BITS // 8


def dropout_do_mask_kernel(
    ctx: BlockContext[GradAttrs], x: np.ndarray, mask: np.ndarray, keep_prob: np.ndarray, y: np.ndarray
) -> None:
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dtype = ctx.attrs.dtypes[0]
    first = lo // 8
    bits = np.unpackbits(mask[first : (hi + 7) // 8], bitorder="little")[lo - first * 8 : hi - first * 8]
    scale = np.float32(1.0) / keep_prob.view(dtype)[:1].astype(np.float32)[0]
    with np.errstate(all="ignore"):
        kept = x.view(dtype)[lo:hi].astype(np.float32) * scale
    y.view(dtype)[lo:hi] = np.where(bits.astype(bool), kept, np.float32(0)).astype(dtype)


def dropout_do_mask_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 3)


DROP_OUT_DO_MASK = OpImpl(
    "DropOutDoMask", dropout_do_mask_kernel, dropout_do_mask_tiling, input_names=("x", "mask", "keep_prob"),
    bins=tuple(BinSpec((NAMES[d], "uint8", NAMES[d]), (NAMES[d],)) for d in DROPOUT_A2), kernel_attrs=GradAttrs.of,
)  # fmt: skip


def dropout_do_mask_l0(x: aclTensor, mask: aclTensor, keep_prob: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::DropoutDoMask(x, mask, keep_prob) (AI Core for every dtype the L2 lets through)."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    status = add_to_launcher_list_aicore(executor, DROP_OUT_DO_MASK, OP_INPUT(x, mask, keep_prob), OP_OUTPUT(out))
    if status != 0:
        raise L0StepFailed("DropOutDoMask", f"status {status}")
    return out


def do_mask(x: aclTensor, mask: aclTensor, prob: float, executor: aclOpExecutor) -> aclTensor:
    """The shared DoMask step: prob 0 keeps x, prob 1 is ZerosLike, else DropOutDoMask with keep_prob 1 - prob."""
    eps = float(np.finfo(np.float64).eps)
    if abs(prob) <= eps:
        return x
    if abs(prob - 1.0) <= eps:
        return zeros_like_l0(x, executor)
    keep = convert_to_tensor([float(np.float32(1 - prob))], x.dtype, executor)
    return dropout_do_mask_l0(x, contiguous(mask, executor), keep, executor)


@l2_api
def aclnnDropoutDoMaskGetWorkspaceSize(
    self: aclTensor | None, mask: aclTensor | None, prob: float, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, double prob,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnDropoutDoMask"
    check_not_null(api, self=self, mask=mask, out=out)
    assert self is not None and mask is not None and out is not None
    empty = is_empty(self) or is_empty(mask)
    if not empty:
        check_cast(api, self.dtype, out.dtype)
        check_dtype(api, "self", self, list_v2(DROPOUT_A2, DROPOUT_910))
        check_dtype(api, "mask", mask, (D.DT_UINT8,))
        check_param(0 <= prob <= 1, api, f"The value of prob has to be between 0 and 1, but current is {prob:f}.")
        check_rank(api, "self", self)
        check_shape_equal(api, ("self", self), ("out", out))
        need, have = mask_bytes_needed(int(np.prod(self.view_shape))), int(np.prod(mask.view_shape))
        check_param(have >= need, api, f"Size of mask has to be {need}, but current is {have}.")
    return plan_unary(self, out, lambda x, executor: do_mask(x, mask, float(prob), executor), empty=empty)


OPS = (DROP_OUT_DO_MASK,)
