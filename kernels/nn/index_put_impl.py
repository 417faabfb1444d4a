"""aclnnIndexPutImpl: selfRef[indices] = values (or += with accumulate), in place (ops-nn index/index_put_v2).

L2 as the real op is written: null checks of selfRef, values, indices and each member of indices
(161001); below A2 a bfloat16 selfRef or values; selfRef's and values' dtypes in the list, every
non-empty index int32 / int64 / bool; values' dtype selfRef's; selfRef with more than 8 dims, more
indices than selfRef has dims; a bool mask whose dims run past selfRef's or differ from the axes it
covers (161002, in that order). An empty selfRef or values launches nothing; indices that are all
empty (every axis taken whole) only make the Contiguous copies. The indices follow the advanced
indexing rule: an empty index takes its axis whole, int indices broadcast together, a bool mask
covers as many axes as it has dims, and values broadcast to the indexed shape.

The chain: Contiguous of selfRef, values and the non-empty indices; with accumulate float16 /
bfloat16 are summed in float32 and bool in int32 (Cast before and after); the put itself; ViewCopy
back into selfRef. The real op chooses among several kernels for the put by size heuristics
(IndexPutWithSort, IndexPutV2 on AI Core, IndexPut on AI CPU; an IndexCheck kernel on A2); the
emulator always records the AI CPU IndexPut task, whose values are the same. With accumulate,
duplicate positions sum (in index order); without it the last value written to a position wins
(docs/ops_notes.md). An out-of-range index fails the task at synchronize, as a kernel error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor, aclTensorList
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Bool,
    OpImpl,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
PUT_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
              D.DT_BOOL, D.DT_BF16)  # fmt: skip
INDEX_DTYPES = (D.DT_INT32, D.DT_INT64, D.DT_BOOL)
# accumulate's work dtype
WIDENED: dict[int, int] = {D.DT_FLOAT16: D.DT_FLOAT, D.DT_BF16: D.DT_FLOAT, D.DT_BOOL: D.DT_INT32}


@dataclass(frozen=True, slots=True)
class IndexPutAttrs(KernelAttrs):
    """What the IndexPut task knows: each tensor's dtype and shape (x, values, masks, indices…, y), accumulate."""

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[tuple[int, ...], ...]
    accumulate: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> IndexPutAttrs:
        return cls(signature.dtypes, signature.shapes, bool(signature.attrs[0]))


def index_put_kernel(ctx: BlockContext[IndexPutAttrs], *views: np.ndarray) -> None:
    """One AI CPU task: y (x's memory) at the advanced index takes (or adds) the broadcast values."""
    attrs = ctx.attrs
    arrays = [v.view(d)[: int(np.prod(s, dtype=np.int64))].reshape(s) for v, d, s in
              zip(views, attrs.dtypes, attrs.shapes, strict=True)]  # fmt: skip
    x, values, masks, *indices, y = arrays
    y[...] = x
    members = iter(indices)
    key: list[Any] = [next(members) if flag else slice(None) for flag in masks.reshape(-1)]
    target = tuple(key)
    if attrs.accumulate:
        np.add.at(y, target, np.broadcast_to(values, y[target].shape))
    else:
        y[target] = values


INDEX_PUT = OpImpl(
    "IndexPut", index_put_kernel, engine=Engine.AICPU, attr_names=("accumulate",),
    input_names=("x", "value", "indexed_sizes", "indices"), kernel_attrs=IndexPutAttrs.of,
)  # fmt: skip


def index_put_l0(x: aclTensor, indices: list[aclTensor], values: aclTensor, masks: list[int], accumulate: bool,
                 executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::IndexPut(selfRef, indices, values, masks, accumulate, out=selfRef) on AI CPU."""
    mask_tensor = convert_to_tensor(masks, D.DT_INT64, executor)
    members = executor.alloc_tensor_list(indices)
    status = add_to_launcher_list_aicpu(executor, INDEX_PUT, ("accumulate",), OP_INPUT(x, values, mask_tensor, members),
                                        OP_OUTPUT(x), OP_ATTR(Bool(accumulate)))  # fmt: skip
    if status != 0:
        raise L0StepFailed("IndexPut", f"status {status}")
    return x


def _check_bool_masks(api: str, self: aclTensor, members: list[aclTensor]) -> None:
    """CheckBoolMaskShape: each non-empty bool mask covers the next axes of selfRef exactly."""
    if not any(m.numel and m.dtype == D.DT_BOOL for m in members):
        return
    rank, used = len(self.view_shape), 0
    for i, member in enumerate(members):
        if member.numel == 0:
            used += 1
            continue
        dims = len(member.view_shape)
        check_param(used + dims <= rank, api, f"The bool mask at indices[{i}] has {dims} dimensions, but only "
                    f"{rank - used} dimensions remain in selfRef (total {rank}, already consumed {used}).")  # fmt: skip
        for j in range(dims):
            size, axis = int(member.view_shape[j]), used + j
            check_param(size == int(self.view_shape[axis]), api, f"The shape of the bool mask at indices[{i}] dim {j} "
                        f"(size {size}) does not match the shape of the indexed tensor at dimension {axis} (size "
                        f"{int(self.view_shape[axis])}).")  # fmt: skip
        used += dims


def _check(api: str, self: aclTensor, members: list[aclTensor], values: aclTensor) -> None:
    soc = current_l2().op.soc.short_soc_version
    if soc not in (*A2_SOCS, *REGBASE_SOCS):
        for name, tensor in (("self", self), ("value", values)):
            check_param(tensor.dtype != D.DT_BF16, api, f"{name} not implemented for DT_BF16, when SocVersion is less "
                        "than ASCEND910B.")  # fmt: skip
    check_dtype(api, "selfRef", self, PUT_DTYPES)
    check_dtype(api, "values", values, PUT_DTYPES)
    for i, member in enumerate(members):
        if member.numel:
            check_dtype(api, f"indices[{i}]", member, INDEX_DTYPES)
    check_dtype_match(api, "selfRef", self, values.dtype)
    check_rank(api, "selfRef", self)
    check_param(len(members) <= len(self.view_shape), api, "indicesSize must <= self DimSize.")
    _check_bool_masks(api, self, members)


@l2_api
def aclnnIndexPutImplGetWorkspaceSize(
    selfRef: aclTensor | None, indices: aclTensorList | None, values: aclTensor | None, accumulate: bool, unsafe: bool
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices,
    const aclTensor* values, const bool accumulate, const bool unsafe, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnIndexPutImpl"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, selfRef=selfRef, values=values, indices=indices)
        assert selfRef is not None and values is not None and indices is not None
        members = [m if isinstance(m, aclTensor) else None for m in indices.values]
        check_not_null(api, **{f"indices[{i}]": m for i, m in enumerate(members)})
        defined = [m for m in members if m is not None]
        _check(api, selfRef, defined, values)
        if is_empty(selfRef, values):
            return unique.release(0)
        x, vals = contiguous(selfRef, executor), contiguous(values, executor)
        used = [contiguous(m, executor) for m in defined if m.numel]
        if not used:
            return unique.release(executor.get_workspace_size())
        work = WIDENED.get(x.dtype, x.dtype) if accumulate else x.dtype
        x_work, vals_work = cast(x, work, executor), cast(vals, work, executor)
        result = index_put_l0(x_work, used, vals_work, [1 if m.numel else 0 for m in defined], bool(accumulate),
                              executor)  # fmt: skip
        view_copy(cast(result, selfRef.dtype, executor), selfRef, executor)
        return unique.release(executor.get_workspace_size())


OPS: tuple[OpImpl, ...] = ()  # AI CPU only: no AI Core binary
