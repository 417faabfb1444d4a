"""aclnnSWhere and the L0 SelectV2 it runs on (ops-math math/select).

L2 as the real op is written: null checks of self, other, condition, out (161001, in that order);
self's, other's and out's dtypes in the SoC's list (bfloat16 on A2 / A3 / RegBase only), condition
bool or uint8; any of self, other, condition with more than 8 dims; self and other not
broadcastable, condition not broadcastable with them, out's shape not the broadcast (all 161002).
An empty self, condition or other launches nothing. Compute: Contiguous of the three, condition
Cast to bool; a bool self and other run SelectV2 as int8 views of the same bytes (the result is
viewed as bool again); otherwise both are Cast to their promoted dtype, SelectV2, Cast to out's
dtype, then ViewCopy. SelectV2 is AI Core for float32, float16, int32, int8, uint8, bfloat16 and
int64 and AI CPU (no attrs) for the rest. out = condition ? self : other, broadcast; bit-exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import _read, broadcast_shape
from emulator.kernels.math.index_common import soc_dtypes
from emulator.meta.dtypes import DataType, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    contiguous,
    create_executor,
    elementwise_tiling,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
WHERE_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_UINT64, D.DT_INT64, D.DT_UINT32, D.DT_FLOAT16, D.DT_UINT16, D.DT_INT16,
                D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
WHERE_DTYPES_A2 = (*WHERE_DTYPES, D.DT_BF16)
CONDITION_DTYPES = (D.DT_BOOL, D.DT_UINT8)
SELECT_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_BF16, D.DT_INT64)


@dataclass(frozen=True, slots=True)
class SelectAttrs(KernelAttrs):
    """What a SelectV2 binary has baked in: the dtypes and shapes of condition, x1, x2 and y."""

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> SelectAttrs:
        return cls(tuple(signature.dtypes), tuple(signature.shapes))


def select_kernel(ctx: BlockContext[SelectAttrs], condition: np.ndarray, x1: np.ndarray, x2: np.ndarray,
                  y: np.ndarray) -> None:  # fmt: skip
    """This block's range of y: x1 where the (broadcast) condition holds, else x2."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    (dc, d1, d2, dy), (sc, s1, s2, sy) = ctx.attrs.dtypes, ctx.attrs.shapes
    keep = _read(condition, dc, sc, sy, lo, hi).astype(bool)
    y.view(dy)[lo:hi] = np.where(keep, _read(x1, d1, s1, sy, lo, hi), _read(x2, d2, s2, sy, lo, hi))


def select_tiling(ctx: TilingContext) -> TilingResult:
    """The elementwise template over y; four UB tiles (condition, x1, x2, y)."""
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 4)


SELECT_V2 = OpImpl(
    "SelectV2", select_kernel, select_tiling, input_names=("condition", "x1", "x2"), kernel_attrs=SelectAttrs.of,
    bins=tuple(BinSpec(("bool", NAMES[d], NAMES[d]), (NAMES[d],)) for d in SELECT_AICORE), moved_inputs=("x1", "x2"),
)  # fmt: skip
SELECT_V2_AICPU = OpImpl(
    "SelectV2", select_kernel, select_tiling, engine=Engine.AICPU, input_names=("condition", "x1", "x2"),
    kernel_attrs=SelectAttrs.of, moved_inputs=("x1", "x2"),
)  # fmt: skip


def select_v2_l0(condition: aclTensor, x1: aclTensor, x2: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::SelectV2: out of the three-way broadcast shape; L0StepFailed when they do not broadcast."""
    pair = broadcast_shape(x1.view_shape, x2.view_shape)
    shape = broadcast_shape(condition.view_shape, pair) if pair is not None else None
    if shape is None:
        raise L0StepFailed("SelectV2", "condition, x1 and x2 do not broadcast")
    out = executor.alloc_tensor(shape, x1.dtype)
    groups = (OP_INPUT(condition, x1, x2), OP_OUTPUT(out))
    if x1.dtype in SELECT_AICORE:
        status = add_to_launcher_list_aicore(executor, SELECT_V2, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, SELECT_V2_AICPU, (), *groups)
    if status != 0:
        raise L0StepFailed("SelectV2", f"status {status}")
    return out


def as_dtype(x: aclTensor, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """A view of the same bytes with another dtype of the same size (CreateView + SetDataType)."""
    view = executor.create_view(x, x.view_shape, x.offset)
    view.dtype = dtype
    return view


def _check(api: str, condition: aclTensor, self: aclTensor, other: aclTensor, out: aclTensor) -> None:
    supported = soc_dtypes(WHERE_DTYPES_A2, WHERE_DTYPES, WHERE_DTYPES_A2)
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_dtype(api, name, tensor, supported)
    check_dtype(api, "condition", condition, CONDITION_DTYPES)
    for name, tensor in (("self", self), ("other", other), ("condition", condition)):
        check_rank(api, name, tensor)
    pair = broadcast_shape(self.view_shape, other.view_shape)
    check_param(pair is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    assert pair is not None
    shape = broadcast_shape(condition.view_shape, pair)
    check_param(shape is not None, api, "Shape of self other and condition can't broadcast.")
    message = f"Shape of out should be {list(shape or ())}, but current is {list(out.view_shape)}."
    check_param(shape == tuple(out.view_shape), api, message)


@l2_api
def aclnnSWhereGetWorkspaceSize(
    condition: aclTensor | None, self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
    const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSWhere"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, other=other, condition=condition, out=out)
        assert condition is not None and self is not None and other is not None and out is not None
        _check(api, condition, self, other, out)
        if is_empty(self, condition, other):
            return unique.release(0)
        x1, x2 = contiguous(self, executor), contiguous(other, executor)
        mask = cast(contiguous(condition, executor), D.DT_BOOL, executor)
        if self.dtype == D.DT_BOOL and other.dtype == D.DT_BOOL:
            picked = select_v2_l0(mask, as_dtype(x1, D.DT_INT8, executor), as_dtype(x2, D.DT_INT8, executor), executor)
            view_copy(as_dtype(picked, D.DT_BOOL, executor), out, executor)
        else:
            promote = promote_type(self.dtype, other.dtype)
            picked = select_v2_l0(mask, cast(x1, promote, executor), cast(x2, promote, executor), executor)
            view_copy(cast(picked, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SELECT_V2,)
