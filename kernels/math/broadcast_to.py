"""BroadcastTo (L0): repeat a tensor's size-1 axes up to a target shape (ops-math conversion/broadcast_to).

The target shape is an int64 host tensor input of the kernel (``ConvertToTensor``), as in the real
L0. On A2 (Ascend910B / 910_93) the AI Core kernel serves float32, float16, int32, int64, uint32,
bfloat16, uint8, int8 and bool; every other dtype runs the AI CPU BroadcastTo (attrs ``T``,
``Tidx``). Pure data movement: the result is bit-exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import dense_strides, gather_index, movement_tiling, same_dtype_bins
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    convert_to_tensor,
)

D = DataType
BROADCAST_TO_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_UINT32, D.DT_BF16, D.DT_UINT8,
                       D.DT_INT8, D.DT_BOOL)  # fmt: skip
AICPU_ATTRS = ("T", "Tidx")


def broadcast_strides(shape: Sequence[int], out_shape: Sequence[int]) -> list[int]:
    """Per output axis, the source stride (0 where a size-1 or missing source axis is repeated)."""
    padded = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    dense = dense_strides(padded)
    return [0 if d == 1 and o != 1 else s for d, o, s in zip(padded, out_shape, dense, strict=True)]


@dataclass(frozen=True, slots=True)
class BroadcastToAttrs(KernelAttrs):
    """What a BroadcastTo binary has baked in: dtypes and shapes of x and y (the shape input is not read)."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> BroadcastToAttrs:
        dx, _, dy = signature.dtypes
        sx, _, sy = signature.shapes
        return cls(dx, dy, sx, sy)


def broadcast_to_kernel(ctx: BlockContext[BroadcastToAttrs], x: np.ndarray, shape: np.ndarray, y: np.ndarray) -> None:
    """This block's range of y, each element read from x through the broadcast index map."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    sx, sy = attrs.x_shape, attrs.y_shape
    y.view(attrs.y_dtype)[lo:hi] = x.view(attrs.x_dtype)[gather_index(sy, broadcast_strides(sx, sy), lo, hi)]


BROADCAST_TO = OpImpl(
    "BroadcastTo", broadcast_to_kernel, movement_tiling, bins=same_dtype_bins(BROADCAST_TO_AICORE, ("int64",)),
    input_names=("x", "shape"), kernel_attrs=BroadcastToAttrs.of, moved_inputs=("x",),
)  # fmt: skip
BROADCAST_TO_AICPU = OpImpl(
    "BroadcastTo", broadcast_to_kernel, movement_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
    input_names=("x", "shape"), kernel_attrs=BroadcastToAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def broadcast_to_l0(x: aclTensor, shape: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::BroadcastTo(x, shape): a new workspace tensor of ``shape``; L0StepFailed when the launch failed."""
    shape_tensor = convert_to_tensor([int(d) for d in shape], D.DT_INT64, executor)
    out = executor.alloc_tensor(tuple(shape), x.dtype)
    groups = (OP_INPUT(x, shape_tensor), OP_OUTPUT(out))
    if x.dtype in BROADCAST_TO_AICORE:
        status = add_to_launcher_list_aicore(executor, BROADCAST_TO, *groups)
    else:
        attrs = OP_ATTR(DType(x.dtype), DType(D.DT_INT64))
        status = add_to_launcher_list_aicpu(executor, BROADCAST_TO_AICPU, AICPU_ATTRS, *groups, attrs)
    if status != 0:
        raise L0StepFailed("BroadcastTo", f"status {status}")
    return out


OPS = (BROADCAST_TO,)
