"""aclnnSearchSorted / aclnnSearchSorteds: an AI CPU-only op.

For each value of ``self``, the index in its row of ``sortedSequence`` where it would be inserted
(``right`` picks the first element greater than the value instead of not less); with ``sorter`` the
sequence is read in the order ``seq[sorter[j]]``. Output int32 when ``outInt32`` else int64. Runs on
AI CPU through the op's task space (AicpuTaskSpace("SearchSorted"), attributes ``dtype``, ``right``).

aclnnSearchSorteds (a scalar self) is the tensor form over a one-element host tensor, as the real code
builds it: nulls (161001); the scalar read as float32 (ToFloat) and converted to sortedSequence's
dtype — a dtype the conversion cannot hold is 161002; an empty out is 161002 ("should be {1}"); the
caller's out is then re-viewed as [1] (the real SetViewShape; it stays so after the call), and the
tensor form's checks and chain run, their messages naming aclnnSearchSorted. A [1] self needs a 1-D
sortedSequence, so a multi-dimensional sequence is 161002. The real code also leaks its first
executor on this path; the emulator does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.cast import cast
from emulator.kernels.math.zero import zeros_like_l0
from emulator.meta.dtypes import COMPLEX_TYPES, DataType, dtype_name, numpy_dtype, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Bool,
    DType,
    OpImpl,
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
from emulator.opdev.l2 import UniqueExecutor

D = DataType
SEQ_DTYPES = (D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64)
ATTR_NAMES = ("dtype", "right")


@dataclass(frozen=True, slots=True)
class SearchSortedAttrs(KernelAttrs):
    """What the AI CPU SearchSorted kernel is given: dtype and shape of each tensor (sortedSequence,
    values, the sorter when present, out; in that order) and the right attribute."""

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[tuple[int, ...], ...]
    right: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> SearchSortedAttrs:
        _, right = signature.attrs
        return cls(signature.dtypes, signature.shapes, right)


def search_sorted_kernel(ctx: BlockContext[SearchSortedAttrs], *views: np.ndarray) -> None:
    """One AI CPU task over the whole tensors: row by row np.searchsorted."""
    dtypes, shapes, right = ctx.attrs.dtypes, ctx.attrs.shapes, ctx.attrs.right
    with_sorter = len(views) == 4
    seq = views[0].view(dtypes[0]).reshape(shapes[0])
    values = views[1].view(dtypes[1]).reshape(shapes[1])
    out_dtype, out_shape = dtypes[-1], shapes[-1]
    out = views[-1].view(out_dtype).reshape(out_shape)
    side: Literal["left", "right"] = "right" if right else "left"
    if with_sorter:
        sorter = views[2].view(dtypes[2]).reshape(shapes[2])
        seq = np.take_along_axis(seq, sorter, axis=-1) if seq.ndim > 1 else seq[sorter]
    if seq.ndim <= 1:
        out[...] = np.searchsorted(seq, values, side=side)
        return
    rows_seq = seq.reshape(-1, seq.shape[-1])
    rows_val = values.reshape(-1, values.shape[-1])
    rows_out = out.reshape(-1, out.shape[-1])
    for i in range(rows_seq.shape[0]):
        rows_out[i] = np.searchsorted(rows_seq[i], rows_val[i], side=side)


SEARCH_SORTED = OpImpl(
    "SearchSorted", search_sorted_kernel, engine=Engine.AICPU, attr_names=ATTR_NAMES, kernel_attrs=SearchSortedAttrs.of
)


def _check(api: str, seq: aclTensor, self: aclTensor, out_int32: bool, sorter: aclTensor | None, out: aclTensor) -> int:
    check_dtype(api, "sortedSequence", seq, SEQ_DTYPES)
    check_dtype(api, "self", self, SEQ_DTYPES)
    check_dtype(api, "out", out, (D.DT_INT32,) if out_int32 else (D.DT_INT64,))
    if sorter is not None:
        check_dtype(api, "sorter", sorter, (D.DT_INT64,))
        check_param(sorter.view_shape == seq.view_shape, api, "sorter must have the shape of sortedSequence.")
    for name, tensor in (("sortedSequence", seq), ("self", self), ("out", out)):
        check_rank(api, name, tensor)
    check_param(out.view_shape == self.view_shape, api, "out must have the shape of self.")
    one_d = len(seq.view_shape) == 1
    if self.view_shape == (1,):
        check_param(one_d, api, f"self can be a single value only when sortedSequence is 1-D, but sortedSequence is "
                    f"{list(seq.view_shape)}.")  # fmt: skip
    leading = len(seq.view_shape) == len(self.view_shape) and seq.view_shape[:-1] == self.view_shape[:-1]
    check_param(one_d or leading, api, "sortedSequence must be 1-D or share all leading dims with self.")
    promote = promote_type(seq.dtype, self.dtype)
    check_param(promote in SEQ_DTYPES, api, "sortedSequence and self dtypes cannot be promoted.")
    return promote


@l2_api
def aclnnSearchSortedGetWorkspaceSize(
    sortedSequence: aclTensor | None,
    self: aclTensor | None,
    outInt32: bool,
    right: bool,
    sorter: aclTensor | None,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence, const aclTensor* self,
    bool outInt32, bool right, const aclTensor* sorter, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnSearchSorted"
    check_not_null(api, sortedSequence=sortedSequence, self=self, out=out)
    assert sortedSequence is not None and self is not None and out is not None
    with create_executor() as unique:
        return _search_sorted(api, unique, sortedSequence, self, bool(outInt32), bool(right), sorter, out)


def _search_sorted(api: str, unique: UniqueExecutor, seq: aclTensor, self: aclTensor, out_int32: bool, right: bool,
                   sorter: aclTensor | None, out: aclTensor) -> tuple[int, aclOpExecutor, int]:  # fmt: skip
    """The body after the null checks: the checks, the empty shortcut and the chain."""
    promote = _check(api, seq, self, out_int32, sorter, out)
    executor = unique.get()
    if is_empty(seq, self, out):
        # an empty sequence or input: out is zero-filled (ZerosLike), as the real L2 does
        if not is_empty(out):
            with l0_label("ZerosLike"):
                view_copy(zeros_like_l0(out, executor), out, executor)
        return unique.release(executor.get_workspace_size())
    values = reshape_view(executor, self, (1,)) if not self.view_shape else self
    seq_cast = cast(contiguous(seq, executor), promote, executor)
    val = cast(contiguous(values, executor), promote, executor)
    tmp = executor.alloc_tensor(values.view_shape, out.dtype)
    inputs = (seq_cast, val) if sorter is None else (seq_cast, val, contiguous(sorter, executor))
    attrs = OP_ATTR(DType(out.dtype), Bool(right))
    add_to_launcher_list_aicpu(executor, SEARCH_SORTED, ATTR_NAMES, OP_INPUT(*inputs), OP_OUTPUT(tmp), attrs)
    result = reshape_view(executor, tmp, out.view_shape) if tmp.view_shape != out.view_shape else tmp
    with l0_label("ViewCopy"):
        view_copy(result, out, executor)
    return unique.release(executor.get_workspace_size())


@l2_api
def aclnnSearchSortedsGetWorkspaceSize(
    sortedSequence: aclTensor | None,
    self: aclScalar | None,
    outInt32: bool,
    right: bool,
    sorter: aclTensor | None,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor* sortedSequence, const aclScalar* self,
    const bool outInt32, const bool right, const aclTensor* sorter, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnSearchSorteds"
    check_not_null(api, sortedSequence=sortedSequence, self=self, out=out)
    assert sortedSequence is not None and self is not None and out is not None
    seq_dtype = numpy_dtype(sortedSequence.dtype)
    check_param(seq_dtype is not None and sortedSequence.dtype not in COMPLEX_TYPES, api,
                f"convert to tensor failed: sortedSequence dtype {dtype_name(sortedSequence.dtype)} is not "
                "supported.")  # fmt: skip
    check_param(not is_empty(out), api, "the shape of out tensor should be {1}.")
    # the real op rewrites the caller's out to a [1] view before it runs the tensor form
    out.view_shape = (1,)
    if len(out.strides) != 1:
        out.strides = (1,)
    with create_executor() as unique:
        value = np.array([to_float(self)], np.float32)
        value_tensor = convert_to_tensor(value, sortedSequence.dtype, unique.get())
        return _search_sorted("aclnnSearchSorted", unique, sortedSequence, value_tensor, bool(outInt32), bool(right),
                              sorter, out)  # fmt: skip


OPS: tuple[OpImpl, ...] = ()  # AI CPU only: no AI Core binaries in the package
