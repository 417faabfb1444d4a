"""aclnnIndexCopy / aclnnInplaceIndexCopy and the L0 ScatterUpdate they run on (ops-nn index/scatter_update).

L2 as the real op is written: null checks of selfRef, index, source, outRef (161001); selfRef's
dtype in the SoC's list (int64 and bfloat16 join the AI Core ones on A2 / A3), index int32 / int64,
source's and outRef's dtype selfRef's; then selfRef or source with more than 8 dims, an index of
more than 1 dim, outRef's shape not selfRef's, a 0-d source with an index of more than one
element, different ranks of non-scalar self and source, dim outside [-N, N-1] ([-1, 0] for a 0-d
self), self and source differing on an axis other than dim, the index count not source's size on
dim, and different storage formats (161002, in that order). An empty selfRef or index launches
nothing.

The chain: Contiguous of the three, 0-d tensors viewed as [1] (dim 0 then). On dim 0 ScatterUpdate
writes the indexed rows of selfRef in place — aclnnIndexCopy first copies a contiguous selfRef
(TensorMove) so selfRef keeps its values. On another dim selfRef and source are transposed to
bring dim first, ScatterUpdate runs on the copy and the result is transposed back. ViewCopy into
outRef. ScatterUpdate runs on AI Core for float32 / float16 / int32 (plus int64 / bfloat16 on A2 /
A3) and on AI CPU otherwise. Bit-exact.

Duplicate indices: the last source slice naming a row wins (each block owns a range of rows, so
the choice is deterministic). An index outside [0, size) writes nothing (the card's kernel does
not check it; its behaviour there is undefined). Ascend 950 sends dim != 0 to IndexPutV2 on the
card; the emulator keeps the transpose path there (same values). docs/ops_notes.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tensors import is_contiguous
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, soc_dtypes
from emulator.kernels.math.permute import transpose_l0
from emulator.kernels.math.unary import check_same_shape
from emulator.meta.describe import format_label
from emulator.meta.dtypes import DataType, dtype_name, type_size
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    DType,
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
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.framework import TENSOR_MOVE

D = DataType
COPY_DTYPES = (D.DT_INT64, D.DT_DOUBLE, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_COMPLEX64, D.DT_COMPLEX128,
               D.DT_BOOL, D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32)  # fmt: skip
COPY_DTYPES_A2 = (*COPY_DTYPES, D.DT_BF16)
COPY_DTYPES_REGBASE = (D.DT_DOUBLE, D.DT_INT16, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BOOL, D.DT_FLOAT, D.DT_FLOAT16,
                       D.DT_INT32, D.DT_UINT32, D.DT_INT64, D.DT_UINT64, D.DT_BF16, D.DT_INT8, D.DT_UINT8)  # fmt: skip
INDEX_DTYPES = (D.DT_INT64, D.DT_INT32)
SCATTER_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32)
SCATTER_AICORE_A2 = (*SCATTER_AICORE, D.DT_INT64, D.DT_BF16)
SCATTER_AICORE_REGBASE = (*SCATTER_AICORE_A2, D.DT_UINT32, D.DT_INT8, D.DT_UINT8, D.DT_UINT64)
AICPU_ATTRS = ("Tindices", "T", "use_locking")


@dataclass(frozen=True, slots=True)
class ScatterAttrs(KernelAttrs):
    """What a ScatterUpdate binary has baked in: var's dtype and shape, the index dtype and count."""

    dtype: np.dtype
    var_shape: tuple[int, ...]
    index_dtype: np.dtype
    count: int

    @classmethod
    def of(cls, signature: KernelSignature) -> ScatterAttrs:
        count = int(np.prod(signature.shapes[1], dtype=np.int64))
        return cls(signature.dtypes[0], signature.shapes[0], signature.dtypes[1], count)


def scatter_update_kernel(ctx: BlockContext[ScatterAttrs], var: np.ndarray, indices: np.ndarray,
                          updates: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """Rows [lo, hi) of var (out is var's memory): each takes the last update slice that names it."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    index = indices.view(attrs.index_dtype)[: attrs.count].astype(np.int64)
    mine = np.nonzero((index >= lo) & (index < hi))[0]
    last = np.full(hi - lo, -1, np.int64)
    np.maximum.at(last, index[mine] - lo, mine)
    rows = np.nonzero(last >= 0)[0]
    width = int(np.prod(attrs.var_shape[1:], dtype=np.int64))
    target = out.view(attrs.dtype).reshape(-1, width) if width else out.view(attrs.dtype)
    source = updates.view(attrs.dtype)[: attrs.count * width].reshape(-1, width)
    target[rows + lo] = source[last[rows]]


def scatter_tiling(ctx: TilingContext) -> TilingResult:
    """The elementwise template over var's rows (a row is one update slice); var and updates tiles in the UB."""
    var = ctx.inputs[0]
    assert var is not None
    rows = int(var.view_shape[0]) if var.view_shape else 1
    width = var.numel // max(rows, 1)
    return elementwise_tiling(ctx, rows, 2, type_size(var.dtype) * max(width, 1))


def _bins() -> tuple[BinSpec, ...]:
    return tuple(BinSpec((NAMES[d], NAMES[i], NAMES[d]), (NAMES[d],)) for d in SCATTER_AICORE_A2 for i in INDEX_DTYPES)


SCATTER_UPDATE = OpImpl(
    "ScatterUpdate", scatter_update_kernel, scatter_tiling, bins=_bins(), attrs=(("use_locking", "bool"),),
    input_names=("var", "indices", "updates"), output_names=("var",), kernel_attrs=ScatterAttrs.of,
    moved_inputs=("var", "updates"), scatters=True,
)  # fmt: skip
SCATTER_UPDATE_AICPU = OpImpl(
    "ScatterUpdate", scatter_update_kernel, scatter_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
    input_names=("var", "indices", "updates"), output_names=("var",), kernel_attrs=ScatterAttrs.of,
    moved_inputs=("var", "updates"), scatters=True,
)  # fmt: skip


def scatter_update_l0(var: aclTensor, indices: aclTensor, updates: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::ScatterUpdate(var, indices, updates, useLocking=false): var updated in place and returned."""
    soc = executor.ctx.soc.short_soc_version
    aicore = SCATTER_AICORE_REGBASE if soc in REGBASE_SOCS else SCATTER_AICORE_A2 if soc in A2_SOCS else SCATTER_AICORE
    groups = (OP_INPUT(var, indices, updates), OP_OUTPUT(var))
    if var.dtype in aicore:
        status = add_to_launcher_list_aicore(executor, SCATTER_UPDATE, *groups, OP_ATTR(Bool(False)))
    else:
        attrs = OP_ATTR(DType(indices.dtype), DType(updates.dtype), Bool(False))
        status = add_to_launcher_list_aicpu(executor, SCATTER_UPDATE_AICPU, AICPU_ATTRS, *groups, attrs)
    if status != 0:
        raise L0StepFailed("ScatterUpdate", f"status {status}")
    return var


def _check_shape(api: str, self: aclTensor, dim: int, index: aclTensor, source: aclTensor, out: aclTensor) -> None:
    check_rank(api, "selfRef", self)
    check_rank(api, "source", source)
    check_rank(api, "index", index, 1)
    check_same_shape(api, self, out)
    shape, src = tuple(self.view_shape), tuple(source.view_shape)
    check_param(src != () or index.numel == 1, api, f"When source is scalar,index should have one element,but got "
                f"{index.numel}.")  # fmt: skip
    check_param(len(shape) == len(src) or not shape or not src, api, "When source and self are not scalars,their "
                f"dimensionality must match,but got self dimensionality {list(shape)},source dimensionlity "
                f"{list(src)}")  # fmt: skip
    rank = len(shape)
    if rank == 0:
        check_param(dim in (0, -1), api, f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})")
    else:
        check_param(-rank <= dim < rank, api, f"Dimension out of range (expected to be in range of [-{rank}, "
                    f"{rank - 1}],but got {dim})")  # fmt: skip
    axis = dim + rank if dim < 0 else dim
    same = all(i == axis or (src[i] if i < len(src) else 0) == shape[i] for i in range(rank))
    check_param(same, api, "Self and source must have same slice shapes")
    if src:
        size = src[dim + len(src) if dim < 0 else dim]
        check_param(index.numel == size, api, f"The element num of index ({index.numel}) should be equal to source "
                    f"size in dimension {dim}, actual is {size}")  # fmt: skip


def _check(api: str, self: aclTensor, dim: int, index: aclTensor, source: aclTensor, out: aclTensor) -> None:
    check_dtype(api, "selfRef", self, soc_dtypes(COPY_DTYPES_A2, COPY_DTYPES, COPY_DTYPES_REGBASE))
    check_dtype(api, "index", index, INDEX_DTYPES)
    for name, other in (("source", source), ("outRef", out)):
        check_param(other.dtype == self.dtype, api, f"selfRef dtype {dtype_name(self.dtype)} and {name} dtype "
                    f"{dtype_name(other.dtype)} should be the same.")  # fmt: skip
    _check_shape(api, self, dim, index, source, out)
    check_param(self.storage_format == out.storage_format, api, "Format of input and output should be same. self "
                f"[{format_label(self.storage_format)}], out [{format_label(out.storage_format)}].")  # fmt: skip


def _row(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """A 0-d tensor viewed as [1] (Reshape to {-1}); others unchanged."""
    return reshape_view(executor, x, (1,)) if not x.view_shape else x


def _swap_first(x: aclTensor, axis: int, executor: aclOpExecutor) -> aclTensor:
    perm = list(range(len(x.view_shape)))
    perm[0], perm[axis] = perm[axis], perm[0]
    return transpose_l0(x, perm, executor)


def _index_copy(api: str, self: aclTensor | None, dim: int, index: aclTensor | None, source: aclTensor | None,
                out: aclTensor | None, copy_self: bool) -> tuple[int, aclOpExecutor, int]:  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, selfRef=self, index=index, source=source, outRef=out)
        assert self is not None and index is not None and source is not None and out is not None
        _check(api, self, int(dim), index, source, out)
        if is_empty(self, index):
            return unique.release(0)
        var = _row(contiguous(self, executor), executor)
        indices = _row(contiguous(index, executor), executor)
        updates = _row(contiguous(source, executor), executor)
        rank = len(self.view_shape)
        axis = 0 if rank == 0 else (int(dim) + rank if dim < 0 else int(dim))
        if axis == 0:
            if copy_self and is_contiguous(self):
                moved = executor.alloc_tensor(var.view_shape, var.dtype)
                if add_to_launcher_list_aicore(executor, TENSOR_MOVE, OP_INPUT(var), OP_OUTPUT(moved)) != 0:
                    raise L0StepFailed("TensorMove", "not recorded")
                var = moved
            result = scatter_update_l0(var, indices, updates, executor)
        else:
            swapped = scatter_update_l0(_swap_first(var, axis, executor), indices, _swap_first(updates, axis, executor),
                                        executor)  # fmt: skip
            result = _swap_first(swapped, axis, executor)
        view_copy(reshape_view(executor, result, tuple(out.view_shape)) if rank == 0 else result, out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnIndexCopyGetWorkspaceSize(
    selfRef: aclTensor | None, dim: int, index: aclTensor | None, source: aclTensor | None, outRef: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
    const aclTensor* source, aclTensor* outRef, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _index_copy("aclnnIndexCopy", selfRef, dim, index, source, outRef, True)


@l2_api
def aclnnInplaceIndexCopyGetWorkspaceSize(
    selfRef: aclTensor | None, dim: int, index: aclTensor | None, source: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
    const aclTensor* source, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _index_copy("aclnnInplaceIndexCopy", selfRef, dim, index, source, selfRef, False)


OPS = (SCATTER_UPDATE,)
