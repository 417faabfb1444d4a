"""aclnnSlice and the L0 StridedSliceV3 it runs on (ops-math conversion/slice, strided_slice_v3).

L2 as the real op is written: null checks of self and out (161001); out's dtype self's, bfloat16
only on A2 / A3, self's dtype in the list; self with more than 8 or no dims; dim in [-r, r-1];
step <= 0; out's shape self's with dim's size set to the slice count (all 161002). Start and end
count from the end when negative and are clamped into [0, size] (end to at least start), as in
Python slicing. An empty self or out launches nothing. Then Contiguous → StridedSliceV3 (begin, end,
axis and stride as int64 host tensors; AI Core only) → ViewCopy. Bit-exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins
from emulator.kernels.math.index_common import A2_SOCS, block_coords, flat_offset
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
SLICE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT64, D.DT_INT8, D.DT_INT32, D.DT_UINT8, D.DT_BOOL, D.DT_BF16)


@dataclass(frozen=True, slots=True)
class StridedSliceAttrs(KernelAttrs):
    """What a StridedSliceV3 binary has baked in: the dtype and the shapes of x and y (the begin, axis
    and stride values arrive as inputs)."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> StridedSliceAttrs:
        return cls(signature.dtypes[-1], signature.shapes[0], signature.shapes[-1])


def strided_slice_kernel(ctx: BlockContext[StridedSliceAttrs], x: np.ndarray, begin: np.ndarray, end: np.ndarray,
                         axes: np.ndarray, strides: np.ndarray, y: np.ndarray) -> None:  # fmt: skip
    """y at a position is x with the sliced axis' coordinate mapped to begin + coordinate * stride."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    axis = int(axes.view(np.int64)[0])
    coords = list(block_coords(attrs.y_shape, lo, hi))
    coords[axis] = int(begin.view(np.int64)[0]) + coords[axis] * int(strides.view(np.int64)[0])
    y.view(attrs.dtype)[lo:hi] = x.view(attrs.dtype)[flat_offset(coords, attrs.x_shape, hi - lo)]


STRIDED_SLICE_V3 = OpImpl(
    "StridedSliceV3", strided_slice_kernel, movement_tiling,
    bins=same_dtype_bins(SLICE_DTYPES, ("int64", "int64", "int64", "int64")),
    input_names=("x", "begin", "end", "axes", "strides"), kernel_attrs=StridedSliceAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def slice_bounds(size: int, start: int, end: int) -> tuple[int, int]:
    """CalculateValuesSliceUpper / Lower: negative bounds count from the end; both clamped into [0, size]."""
    start = start + size if start < 0 else start
    end = end + size if end < 0 else end
    start = min(max(start, 0), size)
    end = min(max(end, start), size)
    return start, end


def strided_slice_l0(x: aclTensor, begin: int, end: int, axis: int, step: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::StridedSliceV3 for one axis with clamped bounds; L0StepFailed when the launch failed."""
    shape = list(x.view_shape)
    shape[axis] = (end - begin + step - 1) // step
    out = executor.alloc_tensor(shape, x.dtype)
    values = [convert_to_tensor([v], D.DT_INT64, executor) for v in (begin, end, axis, step)]
    status = add_to_launcher_list_aicore(executor, STRIDED_SLICE_V3, OP_INPUT(x, *values), OP_OUTPUT(out))
    if status != 0:
        raise L0StepFailed("StridedSliceV3", f"status {status}")
    return out


def _check(api: str, self: aclTensor, dim: int, start: int, end: int, step: int, out: aclTensor) -> tuple[int, ...]:
    """CheckParams after the null checks: (axis, start, end) with the bounds clamped."""
    check_dtype_match(api, "out", out, self.dtype)
    bf16 = current_l2().op.soc.short_soc_version in A2_SOCS
    message = "Input dtype of aclnnSlice is not support bfloat16 in current socversion."
    check_param(bf16 or self.dtype != D.DT_BF16, api, message)
    check_dtype(api, "self", self, SLICE_DTYPES)
    rank = len(self.view_shape)
    check_param(rank <= MAX_DIM, api, f"Expected aclnnSlice self len {rank} to not be greater than {MAX_DIM} but "
                "check failed.")  # fmt: skip
    check_param(rank > 0, api, f"Expected aclnnSlice self len {rank} to not be less than one but check failed.")
    check_param(-rank <= dim < rank, api, f"Expected aclnnSlice dim value {dim} to be in range [{-rank}, {rank - 1}] "
                "but check failed.")  # fmt: skip
    check_param(step > 0, api, "aclnnSlice step must be positive.")
    axis = dim + rank if dim < 0 else dim
    start, end = slice_bounds(int(self.view_shape[axis]), start, end)
    wanted = list(self.view_shape)
    wanted[axis] = (end - start + step - 1) // step
    message = f"Shape of out should be {wanted}, but current is {list(out.view_shape)}."
    check_param(wanted == list(out.view_shape), api, message)
    return axis, start, end


@l2_api
def aclnnSliceGetWorkspaceSize(
    self: aclTensor | None, dim: int, start: int, end: int, step: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start, int64_t end,
    int64_t step, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSlice"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, out=out)
        assert self is not None and out is not None
        axis, begin, stop = _check(api, self, int(dim), int(start), int(end), int(step), out)
        if is_empty(self, out):
            return unique.release(0)
        result = strided_slice_l0(contiguous(self, executor), begin, stop, axis, int(step), executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (STRIDED_SLICE_V3,)
