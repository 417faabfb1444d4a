"""aclnnRepeatInterleave(Int)(WithDim) and the L0 RepeatInterleave(V2) they run on.

L2 as the real op is written (ops-nn index/repeat_interleave): null checks of self and out (161001);
self's dtype in the SoC's list (bfloat16 on A2 / A3; the unsigned 16/32/64-bit types on RegBase),
out's dtype self's; a negative repeats; (WithDim) a 0-d self or a dim outside [-N, N-1]; self with
more than 8 dims (161002, in that order). An empty self (or, without dim, an empty out; with dim, an
outputSize of 0) launches nothing; repeats 1 copies self into out (flattened without dim).
Otherwise Contiguous (a 0-d self is broadcast to [1]), the repeats as an int64 [1] tensor
(BroadcastTo of a 0-d host tensor; a 1-element host tensor on RegBase), bool as int8 with a Cast
either side, self flattened without dim, then RepeatInterleave along the axis with ``outputSize``
as that axis' size; its shape must be out's (161002, after the graph is built), then ViewCopy. On
A2 / A3 the V2 kernel takes the call when the rows before the axis times outputSize reach 256 and
the dtype is one of its six. Bit-exact.

The tensor-repeats forms (aclnnRepeatInterleave, aclnnRepeatInterleaveWithDim) check the same and
also: repeats int64 / int32 and at most 1-D, its size 1 or self's element count (self's size on dim
with dim), and an empty self only with an empty or one-element repeats; an empty repeats for a
non-empty self is 161002 after the empty-tensor return. Without dim, outputSize equal to self's
element count with a one-element repeats is a copy.

The caller's outputSize is trusted as the card trusts it: positions past the repeated elements are
written as zeros, and repeated elements past outputSize are dropped (docs/ops_notes.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.cast import cast
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, block_coords, flat_offset, soc_dtypes
from emulator.kernels.math.unary import check_dtype_match, check_same_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
RI_DTYPES = (D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_FLOAT16, D.DT_FLOAT)
RI_DTYPES_A2 = (*RI_DTYPES, D.DT_BF16)
RI_DTYPES_REGBASE = (*RI_DTYPES_A2, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)
KERNEL_DTYPES = tuple(d for d in RI_DTYPES_REGBASE if d != D.DT_BOOL)  # bool runs as int8
V2_DTYPES = (D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
V2_MIN_MOVES = 256  # MTE_NUM: rows * outputSize below this stays on the V1 kernel
INT32_MAX = 2**31 - 1


@dataclass(frozen=True, slots=True)
class RepeatInterleaveAttrs(KernelAttrs):
    """What a RepeatInterleave binary has baked in: the dtype, x's and y's shapes and the axis."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    axis: int
    repeat_count: int  # 1 (every element repeated alike) or the axis' size
    repeat_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> RepeatInterleaveAttrs:
        count = int(np.prod(signature.shapes[1], dtype=np.int64))
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1], int(signature.attrs[0]), count,
                   signature.dtypes[1])  # fmt: skip


def repeat_interleave_kernel(ctx: BlockContext[RepeatInterleaveAttrs], x: np.ndarray, repeats: np.ndarray,
                             y: np.ndarray) -> None:  # fmt: skip
    """y's position j on the axis takes x's element whose repeat run covers j (zero past the last run)."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    size = attrs.x_shape[attrs.axis]
    counts = repeats.view(attrs.repeat_dtype)[: attrs.repeat_count].astype(np.int64)
    ends = np.cumsum(np.broadcast_to(counts, (size,)) if attrs.repeat_count == 1 else counts)
    coords = list(block_coords(attrs.y_shape, lo, hi))
    source = np.searchsorted(ends, coords[attrs.axis], side="right")
    inside = source < size
    coords[attrs.axis] = np.minimum(source, size - 1)
    values = x.view(attrs.dtype)[flat_offset(coords, attrs.x_shape, hi - lo)]
    y.view(attrs.dtype)[lo:hi] = np.where(inside, values, np.zeros(1, attrs.dtype))


def _impl(op_type: str, dtypes: tuple[int, ...]) -> OpImpl:
    return OpImpl(
        op_type, repeat_interleave_kernel, movement_tiling,
        bins=(*same_dtype_bins(dtypes, ("int64",)), *same_dtype_bins(dtypes, ("int32",))),
        attrs=(("axis", "int"),), input_names=("x", "repeats"), kernel_attrs=RepeatInterleaveAttrs.of,
        moved_inputs=("x",),
    )  # fmt: skip


REPEAT_INTERLEAVE = _impl("RepeatInterleave", KERNEL_DTYPES)
REPEAT_INTERLEAVE_V2 = _impl("RepeatInterleaveV2", V2_DTYPES)


def _use_v2(x: aclTensor, repeats: aclTensor, axis: int, output_size: int, soc: str) -> bool:
    """IsRepeatInterleaveV2Support (the DAV_2201 parts, A2 / A3, only)."""
    if soc not in A2_SOCS:
        return False
    shape = [int(d) for d in x.view_shape]
    if any(d > INT32_MAX for d in shape):
        return True
    if output_size >= INT32_MAX or not shape:
        return False
    if len(shape) == 1 and tuple(repeats.view_shape) == (shape[0],) and x.dtype != D.DT_INT64:
        return False
    rows = int(np.prod(shape[:axis], dtype=np.int64))
    return rows * output_size >= V2_MIN_MOVES and x.dtype in V2_DTYPES


def repeat_interleave_l0(x: aclTensor, repeats: aclTensor, axis: int, output_size: int, executor: aclOpExecutor
                         ) -> aclTensor:  # fmt: skip
    """l0op::RepeatInterleave(V2)(x, repeats, axis, outputSize): AI Core only."""
    shape = [int(d) for d in x.view_shape]
    shape[axis] = output_size
    out = executor.alloc_tensor(shape, x.dtype)
    impl = REPEAT_INTERLEAVE_V2 if _use_v2(x, repeats, axis, output_size, executor.ctx.soc.short_soc_version) else (
        REPEAT_INTERLEAVE)  # fmt: skip
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(x, repeats), OP_OUTPUT(out), OP_ATTR(Int64(axis)))
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def _initialize(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """InitializeTensor: Contiguous, a 0-d tensor broadcast to [1]."""
    x = contiguous(x, executor)
    return broadcast_to_l0(x, (1,), executor) if not x.view_shape else x


def _repeats_tensor(repeats: int, executor: aclOpExecutor) -> aclTensor:
    """IntToTensor: an int64 [1] tensor of the repeats."""
    if executor.ctx.soc.short_soc_version in REGBASE_SOCS:
        return convert_to_tensor([repeats], D.DT_INT64, executor)
    scalar = executor.alloc_scalar(repeats, D.DT_INT64)
    return broadcast_to_l0(convert_to_tensor(scalar, D.DT_INT64, executor), (1,), executor)


def _check(api: str, self: aclTensor, repeats: int, out: aclTensor, dim: int | None) -> None:
    check_dtype(api, "self", self, soc_dtypes(RI_DTYPES_A2, RI_DTYPES, RI_DTYPES_REGBASE))
    check_dtype_match(api, "out", out, self.dtype)
    check_param(repeats >= 0, api, f"repeats {repeats} can not be negative.")
    if dim is not None:
        rank = len(self.view_shape)
        check_param(rank > 0, api, f"dimension specified as {dim} but tensor has no dimensions.")
        low, high = min(rank - 1, -rank), max(rank - 1, -rank)
        check_param(low <= dim <= high, api, f"Dimension out of range (expected to be in range of [{low}, {high}], "
                    f"but got {dim}).")  # fmt: skip
    check_rank(api, "self", self)


def _flatten(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    return reshape_view(executor, x, (x.numel,))


def _interleave(api: str, self: aclTensor, repeats: int, axis: int | None, output_size: int, out: aclTensor,
                executor: aclOpExecutor) -> None:  # fmt: skip
    """The shared chain: repeats == 1 copies, else the L0 RepeatInterleave (bool as int8), checked against out."""
    if repeats == 1:
        x = contiguous(self, executor)
        view_copy(_flatten(x, executor) if axis is None else x, out, executor)
        return
    x = _initialize(self, executor)
    repeats_tensor = _repeats_tensor(repeats, executor)
    is_bool = x.dtype == D.DT_BOOL
    x = cast(x, D.DT_INT8, executor) if is_bool else x
    if axis is None:
        x = _flatten(x, executor)
    result = repeat_interleave_l0(x, repeats_tensor, 0 if axis is None else axis, output_size, executor)
    check_same_shape(api, result, out)
    view_copy(cast(result, D.DT_BOOL, executor) if is_bool else result, out, executor)


@l2_api
def aclnnRepeatInterleaveIntGetWorkspaceSize(
    self: aclTensor | None, repeats: int, outputSize: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats,
    int64_t outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRepeatInterleaveInt"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, out=out)
        assert self is not None and out is not None
        _check(api, self, int(repeats), out, None)
        if is_empty(self, out):
            return unique.release(0)
        _interleave(api, self, int(repeats), None, int(outputSize), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(
    self: aclTensor | None, repeats: int, dim: int, outputSize: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats,
    int64_t dim, int64_t outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRepeatInterleaveIntWithDim"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, out=out)
        assert self is not None and out is not None
        _check(api, self, int(repeats), out, int(dim))
        if is_empty(self) or outputSize == 0:
            return unique.release(0)
        axis = int(dim) + len(self.view_shape) if dim < 0 else int(dim)
        _interleave(api, self, int(repeats), axis, int(outputSize), out, executor)
        return unique.release(executor.get_workspace_size())


def _check_tensor(api: str, self: aclTensor, repeats: aclTensor, out: aclTensor, dim: int | None) -> None:
    """CheckParams / CheckParamsDim of the tensor-repeats forms, in their order."""
    check_dtype(api, "self", self, soc_dtypes(RI_DTYPES_A2, RI_DTYPES, RI_DTYPES_REGBASE))
    check_dtype(api, "repeats", repeats, (D.DT_INT64, D.DT_INT32))
    check_dtype_match(api, "out", out, self.dtype)
    check_rank(api, "repeats", repeats, 1)
    count = int(repeats.view_shape[0]) if repeats.view_shape else None
    if dim is None:
        check_param(count in (None, 1, self.numel), api, f"Tensor repeats size {count} must be 1 or the number of "
                    f"elements in tensor self {self.numel}.")  # fmt: skip
    else:
        rank = len(self.view_shape)
        check_param(rank > 0, api, f"dimension specified as {dim} but tensor has no dimensions.")
        low, high = min(rank - 1, -rank), max(rank - 1, -rank)
        check_param(low <= dim <= high, api, f"Dimension out of range (expected to be in range of [{low}, {high}], "
                    f"but got {dim}).")  # fmt: skip
        size = int(self.view_shape[dim + rank if dim < 0 else dim])
        check_param(count in (None, 1, size), api, f"Tensor repeats must be size 1 or have the same size {size} as "
                    f"input along dim, but got {count}.")  # fmt: skip
    check_rank(api, "self", self)
    if dim is None and is_empty(self):
        check_param(is_empty(repeats) or repeats.numel == 1, api, "When tensor self is empty, repeats should be empty "
                    "/ 0 dim tensor / 1 dim tensor with only 1 elements, but got shape "
                    f"{list(repeats.view_shape)}.")  # fmt: skip


def _interleave_tensor(api: str, self: aclTensor, repeats: aclTensor, axis: int | None, output_size: int,
                       out: aclTensor, executor: aclOpExecutor) -> None:  # fmt: skip
    check_param(not is_empty(repeats), api, "repeats must have the same size as input along dim.")
    x, counts = _initialize(self, executor), _initialize(repeats, executor)
    if axis is None and output_size == x.numel and counts.numel == 1:
        view_copy(_flatten(x, executor), out, executor)
        return
    is_bool = x.dtype == D.DT_BOOL
    x = cast(x, D.DT_INT8, executor) if is_bool else x
    if axis is None:
        x = _flatten(x, executor)
    result = repeat_interleave_l0(x, counts, 0 if axis is None else axis, output_size, executor)
    check_same_shape(api, result, out)
    view_copy(cast(result, D.DT_BOOL, executor) if is_bool else result, out, executor)


@l2_api
def aclnnRepeatInterleaveGetWorkspaceSize(
    self: aclTensor | None, repeats: aclTensor | None, outputSize: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
    int64_t outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRepeatInterleave"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, repeats=repeats, out=out)
        assert self is not None and repeats is not None and out is not None
        _check_tensor(api, self, repeats, out, None)
        if is_empty(self, out):
            return unique.release(0)
        _interleave_tensor(api, self, repeats, None, int(outputSize), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnRepeatInterleaveWithDimGetWorkspaceSize(
    self: aclTensor | None, repeats: aclTensor | None, dim: int, outputSize: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
    int64_t dim, int64_t outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRepeatInterleaveWithDim"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, repeats=repeats, out=out)
        assert self is not None and repeats is not None and out is not None
        _check_tensor(api, self, repeats, out, int(dim))
        if is_empty(self) or outputSize == 0:
            return unique.release(0)
        axis = int(dim) + len(self.view_shape) if dim < 0 else int(dim)
        _interleave_tensor(api, self, repeats, axis, int(outputSize), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (REPEAT_INTERLEAVE, REPEAT_INTERLEAVE_V2)
