"""aclnnRoll (ops-math conversion/roll): shift elements along axes, wrapping around.

L2 as the real op is written: null checks of x, shifts, dims, out (161001); x's and out's dtypes in
the SoC's list and equal; out's shape x's; ``len(shifts) == len(dims)`` unless dims is empty, and
then exactly one shift; at most 8 dims (all 161002). An empty x launches nothing. A 0-d x needs
dims empty and one shift (161002) and is copied to out as it is. Then each dim must be in
[-r, r-1] (161002, checked only now). Compute: Contiguous; bool runs as int8 (Cast there and back);
a 2-D x with a leading 1 that rolls axis 1 is squeezed to 1-D (the shifts of axis 1 summed, axis 0
dropped). With dims empty one Roll rolls the flattened tensor. Otherwise, except on the RegBase
SoCs (one Roll over every dim), each dim runs alone: Transpose that axis to the front (not for axis
0), Roll axis 0, Transpose back. The Roll kernel is AI Core on every shipped SoC; bit-exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins
from emulator.kernels.math.index_common import REGBASE_SOCS, block_coords, flat_offset, soc_dtypes
from emulator.kernels.math.permute import transpose_l0
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.unary import check_dtype_match, check_same_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
ROLL_DTYPES_910 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_INT32, D.DT_UINT32, D.DT_BOOL, D.DT_INT64)
ROLL_DTYPES_A2 = (*ROLL_DTYPES_910, D.DT_BF16, D.DT_INT16)
ROLL_DTYPES_REGBASE = (*ROLL_DTYPES_A2, D.DT_COMPLEX64)
ROLL_KERNEL_DTYPES = tuple(d for d in ROLL_DTYPES_A2 if d != D.DT_BOOL)


@dataclass(frozen=True, slots=True)
class RollAttrs(KernelAttrs):
    """What a Roll binary has baked in: dtype, shape and the shifts / dims attributes."""

    dtype: np.dtype
    shape: tuple[int, ...]
    shifts: tuple[int, ...]
    dims: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> RollAttrs:
        shifts, dims = signature.attrs
        return cls(signature.dtypes[-1], signature.shapes[-1], tuple(shifts), tuple(dims))


def roll_kernel(ctx: BlockContext[RollAttrs], x: np.ndarray, y: np.ndarray) -> None:
    """y at a position is x at the position shifted back along each rolled axis (or the flat index)."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    shape, src = attrs.shape, x.view(attrs.dtype)
    if not attrs.dims:
        total = int(np.prod(shape, dtype=np.int64))
        index = (np.arange(lo, hi, dtype=np.int64) - attrs.shifts[0]) % total
    else:
        coords = list(block_coords(shape, lo, hi))
        for shift, dim in zip(attrs.shifts, attrs.dims, strict=True):
            axis = dim % len(shape)
            coords[axis] = (coords[axis] - shift) % shape[axis]
        index = flat_offset(coords, shape, hi - lo)
    y.view(attrs.dtype)[lo:hi] = src[index]


ROLL = OpImpl(
    "Roll", roll_kernel, movement_tiling, bins=same_dtype_bins(ROLL_KERNEL_DTYPES), attr_names=("shifts", "dims"),
    attrs=(("shifts", "list_int"), ("dims", "list_int")), kernel_attrs=RollAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def roll_l0(x: aclTensor, shifts: list[int], dims: list[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::Roll on AI Core: a workspace tensor like x; L0StepFailed when the launch failed."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    groups = (OP_INPUT(x), OP_OUTPUT(out), OP_ATTR(tuple(shifts), tuple(dims)))
    status = add_to_launcher_list_aicore(executor, ROLL, *groups)
    if status != 0:
        raise L0StepFailed("Roll", f"status {status}")
    return out


def _roll_one_axis(x: aclTensor, axis: int, shift: int, executor: aclOpExecutor) -> aclTensor:
    """roll_transpose: roll ``axis`` by moving it to the front, rolling axis 0 and moving it back."""
    x = contiguous(x, executor)
    if axis == 0:
        return roll_l0(x, [shift], [0], executor)
    perm = list(range(len(x.view_shape)))
    perm[0], perm[axis] = perm[axis], perm[0]
    moved = roll_l0(transpose_l0(x, perm, executor), [shift], [0], executor)
    return transpose_l0(moved, perm, executor)


def _check(api: str, x: aclTensor, shifts: list[int], dims: list[int], out: aclTensor) -> None:
    supported = soc_dtypes(ROLL_DTYPES_A2, ROLL_DTYPES_910, ROLL_DTYPES_REGBASE)
    check_dtype(api, "x", x, supported)
    check_dtype(api, "out", out, supported)
    check_dtype_match(api, "x", x, out.dtype)
    check_same_shape(api, x, out)
    check_param(
        len(shifts) == len(dims) or not dims, api,
        "The size of shifts and dims should be the same when the size of dims is not 0.",
    )  # fmt: skip
    check_param(len(shifts) == 1 or bool(dims), api, "The size of shifts must be 1 if the size of dims is 0.")
    check_rank(api, "x", x)


def _compute(x: aclTensor, shifts: list[int], dims: list[int], executor: aclOpExecutor) -> aclTensor:
    rank = len(x.view_shape)
    y = contiguous(x, executor)
    if x.dtype == D.DT_BOOL:
        y = cast(y, D.DT_INT8, executor)
    wrapped = [d + rank if d < 0 else d for d in dims]
    squeeze = rank == 2 and x.view_shape[0] == 1 and 1 in wrapped
    if squeeze:
        y = reshape_view(executor, y, (int(x.view_shape[1]),))
        dims, shifts = [0], [sum(s for s, d in zip(shifts, wrapped, strict=True) if d == 1)]
        wrapped = [0]
    if executor.ctx.soc.short_soc_version in REGBASE_SOCS or not dims:
        y = roll_l0(y, shifts, dims, executor)
    else:
        for axis, shift in zip(wrapped, shifts, strict=True):
            y = _roll_one_axis(y, axis, shift, executor)
    if squeeze:
        y = reshape_view(executor, y, tuple(int(d) for d in x.view_shape))
    return cast(y, D.DT_BOOL, executor) if x.dtype == D.DT_BOOL else y


@l2_api
def aclnnRollGetWorkspaceSize(
    x: aclTensor | None, shifts: aclIntArray | None, dims: aclIntArray | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRoll"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, x=x, shifts=shifts, dims=dims, out=out)
        assert x is not None and shifts is not None and dims is not None and out is not None
        shift_values, dim_values = int_array_values(shifts), int_array_values(dims)
        _check(api, x, shift_values, dim_values, out)
        if is_empty(x):
            return unique.release(0)
        rank = len(x.view_shape)
        if rank == 0:
            check_param(
                not dim_values and len(shift_values) == 1, api,
                "When tensor x has no dimensions, shifts should be size 1, dims should be size 0.",
            )  # fmt: skip
            view_copy(x, out, executor)
            return unique.release(executor.get_workspace_size())
        low, high = min(-rank, rank - 1), max(-rank, rank - 1)
        for dim in dim_values:
            check_param(low <= dim <= high, api, f"The values of dims should be in range [{low}, {high}].")
        view_copy(_compute(x, shift_values, dim_values, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ROLL,)
