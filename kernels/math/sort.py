"""aclnnSort: the values of self sorted along ``dim`` and the int64 index each came from.

L2 as the real op is written (ops-math math/sort): null self / valuesOut / indicesOut (161001); self
in the A2 list (no float64), valuesOut in the value list (float64 too), indicesOut int64; dim in
[-r, r-1] (a 0-d self: [-1, 0]); valuesOut and indicesOut shaped like self (161002). There is no
rank check: a self of more than 8 dims is reshaped to (left, n[, right]) around the sorted axis.
An empty self launches nothing. A 0-d self copies its value and zero-fills the index (ZerosLike);
a sorted axis of length 1 copies self (a ViewCopy without Cast: valuesOut must then have self's
dtype) and fills the indices with 0 (Fill). Otherwise: Contiguous, bfloat16 Cast to float32 and
bool to uint8, a Transpose bringing the sorted axis last, the Sort kernel along the last axis
(AI Core for float32 / float16 / bfloat16 when the axis is longer than 1, AI CPU otherwise;
indices int32), the Transpose back, Cast(values -> valuesOut dtype), Cast(indices -> int64),
ViewCopy both. In that graph the real code returns ACLNN_ERR_PARAM_NULLPTR (161001) for a failed
L0 step, not 561103; so does this module.

Kernel semantics (PyTorch's sort, which the op mirrors): NaN sorts above +inf; ``stable`` keeps
equal elements in input order, and so does the unstable sort here (any order of equal elements is a
valid unstable result; the emulator picks the stable one, so results are reproducible).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import AclnnParamNullptr, L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.permute import transpose_l0
from emulator.kernels.math.reduce_common import fill_l0
from emulator.kernels.math.row_common import block_lines, lines_view, row_tiling
from emulator.kernels.math.soc_lists import is_regbase
from emulator.kernels.math.zero import zeros_like_l0
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
    create_executor,
    l0_label,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty

D = DataType
SELF_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
               D.DT_BOOL)  # fmt: skip
VALUES_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
                 D.DT_BF16, D.DT_BOOL)  # fmt: skip
SORT_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
SORT_REGBASE = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
                D.DT_UINT16, D.DT_UINT32, D.DT_UINT64, D.DT_BOOL)  # fmt: skip
ATTR_NAMES = ("axis", "descending", "stable")
MAX_DIMS = 8


def sort_lines(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Indices that sort ``x`` along ``axis``: NaN largest, equal elements in input order either way."""
    work = x.astype(np.float32) if x.dtype.kind == "V" or x.dtype == np.float16 else x  # bf16 / f16: exact in f32
    if not descending:
        return np.argsort(work, axis=axis, kind="stable")
    # descending and stable: sort the reversed line ascending, reverse the result (no negation, which
    # would overflow the most negative integer and turn NaN's place around)
    n = work.shape[axis]
    flipped = np.argsort(np.flip(work, axis=axis), axis=axis, kind="stable")
    return n - 1 - np.flip(flipped, axis=axis)


@dataclass(frozen=True, slots=True)
class SortAttrs(KernelAttrs):
    """What a Sort binary is given: the dtypes of x, values and indices, x's shape, the axis and the order."""

    x_dtype: np.dtype
    values_dtype: np.dtype
    indices_dtype: np.dtype
    x_shape: tuple[int, ...]
    axis: int
    descending: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> SortAttrs:
        dx, dv, di = signature.dtypes
        axis, descending, _stable = signature.attrs
        return cls(dx, dv, di, signature.shapes[0], int(axis), bool(descending))


def sort_kernel(ctx: BlockContext[SortAttrs], x: np.ndarray, values: np.ndarray, indices: np.ndarray) -> None:
    """This block's whole lines, each sorted on its own."""
    attrs = ctx.attrs
    shape = attrs.x_shape or (1,)
    axis = attrs.axis % len(shape)
    xv = lines_view(x.view(attrs.x_dtype), shape, axis)
    vv = lines_view(values.view(attrs.values_dtype), shape, axis)
    iv = lines_view(indices.view(attrs.indices_dtype), shape, axis)
    for index in block_lines(ctx, xv):
        line = xv[index]
        order = sort_lines(line, -1, attrs.descending)
        vv[index] = np.take_along_axis(line, order, axis=-1)
        iv[index] = order.astype(attrs.indices_dtype)


def _bins() -> tuple[BinSpec, ...]:
    return tuple(BinSpec((d,), (d, "int32")) for d in ("float", "float16", "bfloat16"))


SORT = OpImpl(
    "Sort", sort_kernel, row_tiling, attrs=(("axis", "int"), ("descending", "bool"), ("stable", "bool")),
    attr_names=ATTR_NAMES, bins=_bins(), output_names=("y1", "y2"), kernel_attrs=SortAttrs.of,
)  # fmt: skip
SORT_AICPU = OpImpl("Sort", sort_kernel, row_tiling, engine=Engine.AICPU, attr_names=ATTR_NAMES,
                    output_names=("y1", "y2"), kernel_attrs=SortAttrs.of)  # fmt: skip


def _zero_dim_sort(x: aclTensor, values_dtype: int, indices_dtype: int, executor: aclOpExecutor,
                   ) -> tuple[aclTensor, aclTensor]:  # fmt: skip
    """HandleDimZeroTensor: the value itself (Cast to the values dtype) and a zero index (ZerosLike, Cast)."""
    x = contiguous(x, executor)
    zeros = zeros_like_l0(x, executor)
    return cast(x, values_dtype, executor), cast(zeros, indices_dtype, executor)


def sort_l0(x: aclTensor, descending: bool, stable: bool, executor: aclOpExecutor) -> tuple[aclTensor, aclTensor]:
    """l0op::Sort(x, dim=-1, descending, stable) on A2: values in x's dtype, int32 indices; a 0-d x is
    answered without a kernel; AI Core for float32 / float16 / bfloat16 with a last axis longer than 1."""
    if not x.view_shape:
        return _zero_dim_sort(x, x.dtype, D.DT_INT32, executor)
    if x.view_shape[-1] == 1 and x.dtype == D.DT_BF16 and not is_regbase():  # the RegBase Sort takes it
        raise L0StepFailed("Sort", "the sort axis value is not support 1 when input type is BF16")
    values = executor.alloc_tensor(x.view_shape, x.dtype)
    indices = executor.alloc_tensor(x.view_shape, D.DT_INT32)
    io = (OP_INPUT(x), OP_OUTPUT(values, indices), OP_ATTR(Int64(-1), Bool(descending), Bool(stable)))
    if x.dtype in SORT_AIC and (x.view_shape[-1] != 1 or is_regbase()):
        status = add_to_launcher_list_aicore(executor, SORT, *io)
    else:
        status = add_to_launcher_list_aicpu(executor, SORT_AICPU, ATTR_NAMES, *io)
    if status != 0:
        raise L0StepFailed("Sort", f"status {status}")
    return values, indices


def swap_last(dim: int, rank: int) -> list[int] | None:
    """The permutation swapping ``dim`` with the last axis, or None when ``dim`` is the last axis."""
    if rank == 0 or dim == rank - 1:
        return None
    perm = list(range(rank))
    perm[dim], perm[-1] = perm[-1], perm[dim]
    return perm


def sort_along(x: aclTensor, dim: int, descending: bool, stable: bool, executor: aclOpExecutor,
               ) -> tuple[aclTensor, aclTensor]:  # fmt: skip
    """Sort a contiguous ``x`` along ``dim``: Transpose it last, Sort, Transpose both results back."""
    perm = swap_last(dim, len(x.view_shape))
    if perm is not None:
        x = transpose_l0(x, perm, executor)
    values, indices = sort_l0(x, descending, stable, executor)
    if perm is not None:
        values, indices = transpose_l0(values, perm, executor), transpose_l0(indices, perm, executor)
    return values, indices


@contextmanager
def l0_failure_is_nullptr(api: str) -> Iterator[None]:
    """The real Sort graph returns ACLNN_ERR_PARAM_NULLPTR (161001) when an L0 step returns null."""
    try:
        yield
    except L0StepFailed as exc:
        raise AclnnParamNullptr(exc.l2_message(api), msg_id="EZ9999") from exc


def _fold_shape(shape: Sequence[int], dim: int) -> tuple[tuple[int, ...], int]:
    """More than 8 dims: (left, n) or (left, n, right) around the sorted axis, and the sorted axis there."""
    left = int(np.prod(shape[:dim], dtype=np.int64))
    right = int(np.prod(shape[dim + 1 :], dtype=np.int64))
    if dim == len(shape) - 1:
        return (left, shape[dim]), 1
    return (left, shape[dim], right), 1


def _check(api: str, self: aclTensor, dim: int, values: aclTensor, indices: aclTensor) -> None:
    regbase = is_regbase()  # the RegBase parts check self and valuesOut against one list of their own
    check_dtype(api, "self", self, SORT_REGBASE if regbase else SELF_DTYPES)
    check_dtype(api, "valuesOut", values, SORT_REGBASE if regbase else VALUES_DTYPES)
    check_dtype(api, "indicesOut", indices, (D.DT_INT64,))
    rank = len(self.view_shape)
    low, high = min(-rank, rank - 1), max(-rank, rank - 1)
    check_param(low <= dim <= high, api, f"dim should be in range [{low}, {high}].")
    check_param(values.view_shape == self.view_shape, api, "valuesOut must have the shape of self.")
    check_param(indices.view_shape == self.view_shape, api, "indicesOut must have the shape of self.")


def _sort_graph(self: aclTensor, dim: int, stable: bool, descending: bool, values_out: aclTensor,
                indices_out: aclTensor, executor: aclOpExecutor) -> None:  # fmt: skip
    """BuildSortGraph."""
    x = contiguous(self, executor)
    if x.dtype == D.DT_BF16:
        x = cast(x, D.DT_FLOAT, executor)
    elif x.dtype == D.DT_BOOL:
        x = cast(x, D.DT_UINT8, executor)
    shape = tuple(x.view_shape)
    if len(shape) > MAX_DIMS:
        folded, dim = _fold_shape(shape, dim)
        x = reshape_view(executor, x, folded)
    values, indices = sort_along(x, dim, descending, stable, executor)
    if len(shape) > MAX_DIMS:
        values, indices = reshape_view(executor, values, shape), reshape_view(executor, indices, shape)
    values = cast(values, values_out.dtype, executor)
    indices = cast(indices, D.DT_INT64, executor)
    view_copy(values, values_out, executor)
    with l0_label("ViewCopy of the indices"):
        view_copy(indices, indices_out, executor)


@l2_api
def aclnnSortGetWorkspaceSize(
    self: aclTensor | None,
    stable: bool,
    dim: int,
    descending: bool,
    valuesOut: aclTensor | None,
    indicesOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending,
    aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSort"
    check_not_null(api, self=self, valuesOut=valuesOut, indicesOut=indicesOut)
    assert self is not None and valuesOut is not None and indicesOut is not None
    _check(api, self, int(dim), valuesOut, indicesOut)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        rank = len(self.view_shape)
        if rank == 0:
            values, indices = _zero_dim_sort(self, valuesOut.dtype, D.DT_INT64, executor)
            view_copy(values, valuesOut, executor)
            view_copy(indices, indicesOut, executor)
            return unique.release(executor.get_workspace_size())
        axis = int(dim) % rank
        if self.view_shape[axis] == 1:
            with l0_failure_is_nullptr(api):
                view_copy(contiguous(self, executor), valuesOut, executor)
            view_copy(fill_l0(indicesOut.view_shape, 0, D.DT_INT64, executor), indicesOut, executor)
            return unique.release(executor.get_workspace_size())
        with l0_failure_is_nullptr(api):
            _sort_graph(self, axis, bool(stable), bool(descending), valuesOut, indicesOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SORT,)
