"""aclnnIndexFillTensor / aclnnInplaceIndexFillTensor and the L0 IndexFillD (ops-nn index/index_fill_d).

L2 as the real op is written (checks before the executor): null checks of self, index, value, out
(161001); self's dtype in the SoC's list (bfloat16 on A2 / A3) and out's self's; for a non-empty
self: out's shape self's, at most 8 dims, dim in range and every index in [-size, size) (161002);
a complex value (161002). An empty index copies self into out; an empty self launches nothing.
Off RegBase the fill runs as the real code builds it: two host "assist" float32 matrices of self's
shape — 1 / 0 everywhere and 0 / value on the indexed slices along dim — are copied to the device
(CopyToNpu), Cast to self's dtype, and IndexFillD computes self * assist1 + assist2 on AI Core (a
dtype without an AI Core kernel fails the step: 561103). The value goes through float32
(``ToFloat``), so an int64 fill above 2^24 is rounded as on the card.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.binary_common import is_complex, to_float
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import binary_tiling
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.unary import check_dtype_match, check_same_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    copy_to_npu,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
FILL_DTYPES = (D.DT_INT32, D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT64, D.DT_BOOL)
FILL_DTYPES_A2 = (*FILL_DTYPES, D.DT_BF16)
FILL_DTYPES_REGBASE = (*FILL_DTYPES_A2, D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_DOUBLE)


@dataclass(frozen=True, slots=True)
class IndexFillAttrs(KernelAttrs):
    """What an IndexFillD binary has baked in: the dtype (x, both assists and y share it)."""

    dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> IndexFillAttrs:
        return cls(signature.dtypes[-1])


def index_fill_kernel(ctx: BlockContext[IndexFillAttrs], x: np.ndarray, assist1: np.ndarray, assist2: np.ndarray,
                      y: np.ndarray) -> None:  # fmt: skip
    """y = x * assist1 + assist2 over this block's range (bool: x and assist1, or assist2)."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dtype = ctx.attrs.dtype
    a, k, b = (buf.view(dtype)[lo:hi] for buf in (x, assist1, assist2))
    if dtype == np.bool_:
        y.view(dtype)[lo:hi] = (a & k) | b
    elif dtype == ml_dtypes.bfloat16:
        y.view(dtype)[lo:hi] = (a.astype(np.float32) * k.astype(np.float32) + b.astype(np.float32)).astype(dtype)
    else:
        y.view(dtype)[lo:hi] = a * k + b


INDEX_FILL_D = OpImpl(
    "IndexFillD", index_fill_kernel, binary_tiling, attr_names=("dim",), attrs=(("dim", "int"),),
    input_names=("x", "assist1", "assist2"), kernel_attrs=IndexFillAttrs.of,
    bins=tuple(BinSpec((NAMES[d],) * 3, (NAMES[d],)) for d in FILL_DTYPES_A2),
)  # fmt: skip


def assist_matrix(self: aclTensor, index: list[int], dim: int, base: float, fill: float, executor: aclOpExecutor
                  ) -> aclTensor:  # fmt: skip
    """GenerateAssistMatrix: a float32 host tensor of self's shape, ``base`` with ``fill`` on the indexed
    slices along ``dim``, copied to the device, Cast to self's dtype and viewed in self's shape."""
    shape = tuple(int(d) for d in self.view_shape)
    host = executor.alloc_host_tensor((max(int(np.prod(shape)), 1),), D.DT_FLOAT)
    assert host.storage.host is not None
    values = host.storage.host.view(np.float32)
    values[:] = base
    grid = values.reshape(shape) if shape else values
    for position in index:
        if shape:
            grid[(slice(None),) * dim + (position,)] = fill
        else:
            grid[...] = fill
    device = cast(copy_to_npu(host, executor), self.dtype, executor)
    return reshape_view(executor, device, shape)


def index_fill_d_l0(x: aclTensor, assist1: aclTensor, assist2: aclTensor, dim: int, executor: aclOpExecutor
                    ) -> aclTensor:  # fmt: skip
    soc = executor.ctx.soc.short_soc_version
    aicore = FILL_DTYPES_A2 if soc in (*A2_SOCS, *REGBASE_SOCS) else FILL_DTYPES
    if x.dtype not in aicore:
        raise L0StepFailed("IndexFillD", "no AI Core kernel for the dtype")
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    status = add_to_launcher_list_aicore(executor, INDEX_FILL_D, OP_INPUT(x, assist1, assist2), OP_OUTPUT(out),
                                         OP_ATTR(Int64(dim)))  # fmt: skip
    if status != 0:
        raise L0StepFailed("IndexFillD", f"status {status}")
    return out


def _check(api: str, self: aclTensor, dim: int, index: list[int], value: aclScalar, out: aclTensor) -> None:
    soc = current_l2().op.soc.short_soc_version
    supported = FILL_DTYPES_REGBASE if soc in REGBASE_SOCS else FILL_DTYPES_A2 if soc in A2_SOCS else FILL_DTYPES
    check_dtype(api, "self", self, supported)
    check_dtype_match(api, "out", out, self.dtype)
    if not is_empty(self):
        check_same_shape(api, self, out)
        check_rank(api, "self", self)
        rank = len(self.view_shape)
        message = f"Dim value error, input dim[{dim}] is greater than self dim[{rank}]."
        check_param(not ((dim != 0 and dim >= rank) or (dim == 0 and dim > rank)), api, message)
        message = f"Dim value error, abs(input dim[{dim}]) is greater than self dim[{rank}]."
        check_param(not ((dim < 0 and -dim > rank and rank > 0) or (dim < 0 and -dim > 1 and rank == 0)), api, message)
        axis = dim if dim >= 0 else (dim + rank if rank > 0 else 0)
        size = int(self.view_shape[axis]) if rank else 1
        for position in index:
            message = f"Index value[{position}] is out of range, it should be smaller than [{size}]."
            check_param(-size <= position < size, api, message)
    check_param(not is_complex(value.dtype), api, "Type of value do not support complex type")


def _index_fill(api: str, self: aclTensor | None, dim: int, index: aclIntArray | None, value: aclScalar | None,
                out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:  # fmt: skip
    check_not_null(api, self=self, index=index, value=value, out=out)
    assert self is not None and index is not None and value is not None and out is not None
    positions = int_array_values(index)
    _check(api, self, int(dim), positions, value, out)
    with create_executor() as unique:
        executor = unique.get()
        if not positions:
            view_copy(self, out, executor)
            return unique.release(executor.get_workspace_size())
        if is_empty(self):
            return unique.release(0)
        rank = len(self.view_shape)
        axis = int(dim) if dim >= 0 else (int(dim) + rank if rank else 0)
        size = int(self.view_shape[axis]) if rank else 1
        wrapped = [p + size if p < 0 else p for p in positions]
        fill = to_float(value)
        assist1 = assist_matrix(self, wrapped, axis, 1.0, 0.0, executor)
        assist2 = assist_matrix(self, wrapped, axis, 0.0, fill, executor)
        result = index_fill_d_l0(contiguous(self, executor), assist1, assist2, axis, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnIndexFillTensorGetWorkspaceSize(
    self: aclTensor | None, dim: int, index: aclIntArray | None, value: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclIntArray* index,
    const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _index_fill("aclnnIndexFillTensor", self, dim, index, value, out)


@l2_api
def aclnnInplaceIndexFillTensorGetWorkspaceSize(
    selfRef: aclTensor | None, dim: int, index: aclIntArray | None, value: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
    const aclIntArray* index, const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _index_fill("aclnnIndexFillTensor", selfRef, dim, index, value, selfRef)


OPS = (INDEX_FILL_D,)
