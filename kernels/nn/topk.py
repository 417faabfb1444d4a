"""aclnnTopk: the k largest (or smallest) elements of self along ``dim`` and their int64 indices.

L2 as the real op is written (ops-nn index/gather_elements, aclnn_topk): null self / valuesOut /
indicesOut (161001); then dim in [-r, r-1] (a 0-d self: [-1, 0]) and k in [0, self.size(dim)] (a
0-d self counts as size 1); self in the A2 list, valuesOut of self's dtype and indicesOut int64;
rank <= 8 (161002). An empty self / valuesOut / indicesOut launches nothing. Otherwise Contiguous,
a 0-d self reshaped to [1], and on A2:

- dim not last: Transpose dim last, TopK along it, Transpose both results back;
- dim last and 0 < k < 8: TopK of min(32, n) first, TopK of k over those values, and
  GatherElements of the first indices by the second (the real two-step small-k path);
- otherwise one TopK.

TopK is TopKV2 on AI Core (float16 / float32 / bfloat16; the k a host int32 tensor, attrs sorted,
dim, largest) and the AI CPU "TopK" (attrs sorted, largest, dim) for the rest; indices int32. Then
valuesOut and indicesOut are checked against the result's shape (161002, after the graph was
built, as the code does), the values ViewCopied and the indices Cast to int64 and ViewCopied.

Semantics: NaN is larger than everything; equal elements keep input order (the emulator picks the
stable order; the real kernels leave ties unspecified). ``sorted`` false returns them sorted too (a
valid unsorted answer). The radix path the real code takes for float16 / bfloat16 lines of 12
million elements and more with k > 1000 computes the same values and is not emulated separately.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.permute import transpose_l0
from emulator.kernels.math.row_common import block_lines, lines_view, row_tiling
from emulator.kernels.math.soc_lists import list_by_arch
from emulator.kernels.math.sort import sort_lines, swap_last
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l0_label,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
TOPK_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
               D.DT_BF16)  # fmt: skip
TOPK_AIC = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)


def topk_dtypes() -> tuple[int, ...]:
    """GetDtypeSupportList: bfloat16 on A2 / A3, bfloat16 and the unsigned types on RegBase, neither elsewhere."""
    return list_by_arch(TOPK_DTYPES, TOPK_DTYPES[:-1], (*TOPK_DTYPES, D.DT_UINT64, D.DT_UINT16, D.DT_UINT32))


SMALL_K = 8  # 0 < k < SMALL_K on the last axis: the two-step path
PARALLEL_K = 32
AICPU_ATTRS = ("sorted", "largest", "dim")


def top_k(line: np.ndarray, k: int, largest: bool) -> np.ndarray:
    """Indices of the k largest (smallest) elements along the last axis, in sorted order."""
    return sort_lines(line, -1, largest)[..., :k]


@dataclass(frozen=True, slots=True)
class TopKAttrs(KernelAttrs):
    """What a TopK binary is given: the dtypes of x, values and indices, both shapes, dim and largest."""

    x_dtype: np.dtype
    values_dtype: np.dtype
    indices_dtype: np.dtype
    x_shape: tuple[int, ...]
    out_shape: tuple[int, ...]
    dim: int
    largest: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> TopKAttrs:
        """The AI Core binary's attributes: (sorted, dim, largest)."""
        _sorted, dim, largest = signature.attrs
        return cls.make(signature, int(dim), bool(largest))

    @classmethod
    def of_aicpu(cls, signature: KernelSignature) -> TopKAttrs:
        """The AI CPU kernel's attributes: (sorted, largest, dim)."""
        _sorted, largest, dim = signature.attrs
        return cls.make(signature, int(dim), bool(largest))

    @classmethod
    def make(cls, signature: KernelSignature, dim: int, largest: bool) -> TopKAttrs:
        dx, _, dv, di = signature.dtypes
        return cls(dx, dv, di, signature.shapes[0], signature.shapes[2], dim, largest)


def topk_kernel(ctx: BlockContext[TopKAttrs], x: np.ndarray, k_buf: np.ndarray, values: np.ndarray,
                indices: np.ndarray) -> None:  # fmt: skip
    """This block's whole lines: the first k of each line's sort order."""
    attrs = ctx.attrs
    shape = attrs.x_shape or (1,)
    axis = attrs.dim % len(shape)
    k = attrs.out_shape[axis] if attrs.out_shape else 1
    xv = lines_view(x.view(attrs.x_dtype), shape, axis)
    vv = lines_view(values.view(attrs.values_dtype), attrs.out_shape or (1,), axis)
    iv = lines_view(indices.view(attrs.indices_dtype), attrs.out_shape or (1,), axis)
    for index in block_lines(ctx, xv):
        line = xv[index]
        order = top_k(line, k, attrs.largest)
        vv[index] = np.take_along_axis(line, order, axis=-1)
        iv[index] = order.astype(attrs.indices_dtype)


TOPK_V2 = OpImpl(
    "TopKV2", topk_kernel, row_tiling, input_names=("x", "k"), output_names=("values", "indices"),
    attrs=(("sorted", "bool"), ("dim", "int"), ("largest", "bool")), attr_names=("sorted", "dim", "largest"),
    bins=tuple(BinSpec((d, "int32"), (d, "int32")) for d in ("float16", "float", "bfloat16")),
    kernel_attrs=TopKAttrs.of,
)  # fmt: skip
TOPK_AICPU = OpImpl(
    "TopK", topk_kernel, row_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS, input_names=("x", "k"),
    output_names=("values", "indices"), kernel_attrs=TopKAttrs.of_aicpu,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class GatherElementsAttrs(KernelAttrs):
    """What a GatherElements binary is given: the dtypes and shapes of x and index, and dim."""

    x_dtype: np.dtype
    index_dtype: np.dtype
    x_shape: tuple[int, ...]
    index_shape: tuple[int, ...]
    dim: int

    @classmethod
    def of(cls, signature: KernelSignature) -> GatherElementsAttrs:
        dx, di, _ = signature.dtypes
        (dim,) = signature.attrs
        return cls(dx, di, signature.shapes[0], signature.shapes[1], int(dim))


def gather_elements_kernel(ctx: BlockContext[GatherElementsAttrs], x: np.ndarray, index: np.ndarray,
                           y: np.ndarray) -> None:  # fmt: skip
    """y[..., j, ...] = x[..., index[..., j, ...], ...] along dim, this block's lines of index."""
    attrs = ctx.attrs
    axis = attrs.dim % len(attrs.x_shape)
    xv = lines_view(x.view(attrs.x_dtype), attrs.x_shape, axis)
    iv = lines_view(index.view(attrs.index_dtype), attrs.index_shape, axis)
    yv = lines_view(y.view(attrs.x_dtype), attrs.index_shape, axis)
    for piece in block_lines(ctx, iv):
        yv[piece] = np.take_along_axis(xv[piece], iv[piece].astype(np.int64), axis=-1)


GATHER_ELEMENTS = OpImpl(
    "GatherElements", gather_elements_kernel, row_tiling, input_names=("x", "index"), attrs=(("dim", "int"),),
    attr_names=("dim",), bins=(BinSpec(("int32", "int32"), ("int32",)),), kernel_attrs=GatherElementsAttrs.of,
)  # fmt: skip


def topk_l0(x: aclTensor, k: int, dim: int, largest: bool, sorted_: bool, executor: aclOpExecutor,
            ) -> tuple[aclTensor, aclTensor]:  # fmt: skip
    """l0op::Topk on A2: values in x's dtype and int32 indices, k values along ``dim``."""
    scalar = executor.alloc_scalar(k, D.DT_INT32)
    assert scalar is not None
    k_tensor = convert_to_tensor(scalar, D.DT_INT32, executor)
    shape = list(x.view_shape)
    shape[dim] = k
    values = executor.alloc_tensor(shape, x.dtype)
    indices = executor.alloc_tensor(shape, D.DT_INT32)
    io = (OP_INPUT(x, k_tensor), OP_OUTPUT(values, indices))
    if x.dtype in TOPK_AIC:
        status = add_to_launcher_list_aicore(executor, TOPK_V2, *io, OP_ATTR(Bool(sorted_), Int64(dim), Bool(largest)))
    else:
        attrs = OP_ATTR(Bool(sorted_), Bool(largest), Int64(dim))
        status = add_to_launcher_list_aicpu(executor, TOPK_AICPU, AICPU_ATTRS, *io, attrs)
    if status != 0:
        raise L0StepFailed("TopK", f"status {status}")
    return values, indices


def gather_elements_l0(x: aclTensor, dim: int, index: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::GatherElements(x, dim, index): the int32 index case the small-k Topk path needs."""
    out = executor.alloc_tensor(index.view_shape, x.dtype)
    status = add_to_launcher_list_aicore(executor, GATHER_ELEMENTS, OP_INPUT(x, index), OP_OUTPUT(out),
                                         OP_ATTR(Int64(dim)))  # fmt: skip
    if status != 0:
        raise L0StepFailed("GatherElements", f"status {status}")
    return out


def _topk_graph(x: aclTensor, k: int, dim: int, largest: bool, sorted_: bool, executor: aclOpExecutor,
                ) -> tuple[aclTensor, aclTensor]:  # fmt: skip
    rank = len(x.view_shape)
    perm = swap_last(dim, rank)
    if perm is not None:
        moved = transpose_l0(x, perm, executor)
        values, indices = topk_l0(moved, k, rank - 1, largest, sorted_, executor)
        return transpose_l0(values, perm, executor), transpose_l0(indices, perm, executor)
    if 0 < k < SMALL_K:
        first = min(PARALLEL_K, x.view_shape[dim])
        values, first_indices = topk_l0(x, first, dim, largest, sorted_, executor)
        values, second = topk_l0(values, k, dim, largest, sorted_, executor)
        return values, gather_elements_l0(first_indices, dim, second, executor)
    return topk_l0(x, k, dim, largest, sorted_, executor)


def _check(api: str, self: aclTensor, k: int, dim: int, values: aclTensor, indices: aclTensor) -> None:
    rank = len(self.view_shape)
    if rank == 0:
        check_param(dim in (0, -1), api, f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})")
    else:
        message = f"Dimension out of range (expected to be in range of [-{rank}, {rank - 1}], but got {dim})"
        check_param(-rank <= dim < rank, api, message)
    size = self.view_shape[dim % rank] if rank else 1
    check_param(0 <= k <= size, api, f"Selected index k out of range (max num of self.size({rank}) is {size}, "
                f"but k is {k})")  # fmt: skip
    check_dtype(api, "self", self, topk_dtypes())
    check_dtype(api, "valuesOut", values, (self.dtype,))
    check_dtype(api, "indicesOut", indices, (D.DT_INT64,))
    check_rank(api, "self", self)


@l2_api
def aclnnTopkGetWorkspaceSize(
    self: aclTensor | None,
    k: int,
    dim: int,
    largest: bool,
    sorted: bool,
    valuesOut: aclTensor | None,
    indicesOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest, bool sorted,
    aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnTopk"
    check_not_null(api, self=self, valuesOut=valuesOut, indicesOut=indicesOut)
    assert self is not None and valuesOut is not None and indicesOut is not None
    _check(api, self, int(k), int(dim), valuesOut, indicesOut)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, valuesOut, indicesOut):
            return unique.release(0)
        x = contiguous(self, executor)
        rank = len(self.view_shape)
        if rank == 0:
            x = reshape_view(executor, x, (1,))
        values, indices = _topk_graph(x, int(k), int(dim) % max(rank, 1), bool(largest), bool(sorted), executor)
        for name, out, got in (("valuesOut", valuesOut, values), ("indicesOut", indicesOut, indices)):
            same = out.view_shape == got.view_shape or (rank == 0 and out.numel == got.numel == 1)
            check_param(same, api, f"{name} shape {list(out.view_shape)} must be {list(got.view_shape)}.")
        view_copy(values, valuesOut, executor)
        with l0_label("ViewCopy of the indices"):
            view_copy(cast(indices, D.DT_INT64, executor), indicesOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (TOPK_V2, GATHER_ELEMENTS)
