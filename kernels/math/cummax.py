"""aclnnCummax: running maximum along ``dim`` and the index it came from — AI CPU only.

L2 as the real op is written (ops-math math/cummax): null checks (161001); then, before the dtypes,
``dim`` must be in [-r, r-1] and a 0-d self is refused (161002 — the doc's "[-1, 0] for a 0-d self" is
not what the code does); self and valuesOut dtypes in the A2 list, indicesOut int32 or int64; rank
<= 8; valuesOut and indicesOut shaped like self (161002). An empty self launches nothing. Then
Contiguous(self), a bool self Cast to uint8, the AI CPU Cummax (AicpuTaskSpace("Cummax"), attr
``dim`` passed as given, outputs values in the input dtype and indices in indicesOut's dtype),
Cast(values → valuesOut dtype) and ViewCopy of both results.

Kernel semantics (the PyTorch cummax the op mirrors): an element replaces the running maximum when
it is greater than or equal to it, so ties report the latest index; NaN propagates, and each later
NaN moves the index to itself. Values are copies of input elements, hence exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.cast import cast
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Int64,
    OpImpl,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
CUMMAX_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                 D.DT_BOOL, D.DT_BF16)  # fmt: skip
INDICES_DTYPES = (D.DT_INT32, D.DT_INT64)
ATTR_NAMES = ("dim",)


def cummax_values_indices(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Running max along ``axis`` (NaN propagating) and the index of the element each value came from."""
    work = x.astype(np.float32) if x.dtype.kind == "V" or x.dtype == np.float16 else x  # bf16/fp16: exact in fp32
    values = np.maximum.accumulate(work, axis=axis)
    update = work == values
    if work.dtype.kind in "fc":
        update |= np.isnan(work)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    positions = np.broadcast_to(np.arange(x.shape[axis], dtype=np.int64).reshape(shape), x.shape)
    indices = np.maximum.accumulate(np.where(update, positions, 0), axis=axis)
    return values.astype(x.dtype), indices


@dataclass(frozen=True, slots=True)
class CummaxAttrs(KernelAttrs):
    """What the AI CPU Cummax kernel is given: the dtypes of x, values and indices, x's shape and dim."""

    x_dtype: np.dtype
    values_dtype: np.dtype
    indices_dtype: np.dtype
    x_shape: tuple[int, ...]
    dim: int

    @classmethod
    def of(cls, signature: KernelSignature) -> CummaxAttrs:
        dx, dv, di = signature.dtypes
        (dim,) = signature.attrs
        return cls(dx, dv, di, signature.shapes[0], dim)


def cummax_kernel(ctx: BlockContext[CummaxAttrs], x: np.ndarray, values: np.ndarray, indices: np.ndarray) -> None:
    """One AI CPU task over the whole tensor."""
    attrs = ctx.attrs
    dx, dv, di = attrs.x_dtype, attrs.values_dtype, attrs.indices_dtype
    shape, dim = attrs.x_shape, attrs.dim
    count = int(np.prod(shape, dtype=np.int64))
    data = x.view(dx)[:count].reshape(shape)
    result, where = cummax_values_indices(data, dim % len(shape))
    values.view(dv)[:count] = result.reshape(-1)
    indices.view(di)[:count] = where.reshape(-1).astype(di)


CUMMAX = OpImpl("Cummax", cummax_kernel, engine=Engine.AICPU, attr_names=ATTR_NAMES,
                output_names=("y", "indices"), kernel_attrs=CummaxAttrs.of)  # fmt: skip


def cummax_l0(x: aclTensor, dim: int, indices_dtype: int, executor: aclOpExecutor) -> tuple[aclTensor, aclTensor]:
    """l0op::CummaxOutInt32 / CummaxOutInt64: values in x's dtype, indices in ``indices_dtype``."""
    values = executor.alloc_tensor(x.view_shape, x.dtype)
    indices = executor.alloc_tensor(x.view_shape, indices_dtype)
    add_to_launcher_list_aicpu(
        executor, CUMMAX, ATTR_NAMES, OP_INPUT(x), OP_OUTPUT(values, indices), OP_ATTR(Int64(dim))
    )
    return values, indices


def _check(api: str, self: aclTensor, dim: int, values_out: aclTensor, indices_out: aclTensor) -> None:
    rank = len(self.view_shape)
    check_param(rank != 0, api, f"dimension specified as {dim} but tensor has no dimensions.")
    check_param(-rank <= dim <= rank - 1, api, f"dim must be within the range of [{-rank}, {rank - 1}], got {dim}.")
    check_dtype(api, "self", self, CUMMAX_DTYPES)
    check_dtype(api, "valuesOut", values_out, CUMMAX_DTYPES)
    check_dtype(api, "indicesOut", indices_out, INDICES_DTYPES)
    check_rank(api, "self", self)
    check_param(values_out.view_shape == self.view_shape, api, "valuesOut must have the shape of self.")
    check_param(indices_out.view_shape == self.view_shape, api, "indicesOut must have the shape of self.")


@l2_api
def aclnnCummaxGetWorkspaceSize(
    self: aclTensor | None, dim: int, valuesOut: aclTensor | None, indicesOut: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCummaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut,
    aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnCummax"
    check_not_null(api, self=self, valuesOut=valuesOut, indicesOut=indicesOut)
    assert self is not None and valuesOut is not None and indicesOut is not None
    _check(api, self, int(dim), valuesOut, indicesOut)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = contiguous(self, executor)
        if x.dtype == D.DT_BOOL:
            x = cast(x, D.DT_UINT8, executor)
        values, indices = cummax_l0(x, int(dim), indicesOut.dtype, executor)
        view_copy(cast(values, valuesOut.dtype, executor), valuesOut, executor)
        with l0_label("ViewCopy of the indices"):
            view_copy(indices, indicesOut, executor)
        return unique.release(executor.get_workspace_size())


OPS: tuple[OpImpl, ...] = ()  # AI CPU only: no AI Core binaries in the package
