"""aclnnArgMax: the index of the largest element of self along ``dim``.

L2 as the real op is written (ops-math math/arg_max_v2): null self / out (161001); self in the A2
list; ranks <= 8; dim in [-r, r-1] (a 0-d self: [-1, 0]) (161002). out's dtype is not checked: the
kernel's int32 result is Cast to it (Cast refuses nothing an L2 would, so a float out gets the
index as a float). An empty self or out launches nothing. Otherwise a 0-d self is reshaped to [1],
Contiguous, ArgMaxV2 (the dim a host int64 tensor; AI Core for float32 / float16 / bfloat16 /
int32 / int64, AI CPU "ArgMax" with attrs Tidx and output_type otherwise), then out's shape is
checked against the inferred one (161002, after the launch was recorded, as the code does),
Cast(out dtype) and ViewCopy.

Semantics (PyTorch's argmax, which the op mirrors): the first index of the maximum; NaN is larger
than everything, so the first NaN wins. The reshape of an 8-D non-float self to 7-D the real code
makes before the kernel does not change the result and is not emulated.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import ReduceOpTilingData, pieces, reduce_tiling, reduced_shape
from emulator.kernels.math.row_common import lines_view
from emulator.kernels.math.soc_lists import list_by_arch
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
ARGMAX_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                 D.DT_BF16)  # fmt: skip
ARGMAX_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32, D.DT_INT64)
AICPU_ATTRS = ("Tidx", "output_type")


def argmax_dtypes() -> tuple[int, ...]:
    """GetSupportDtypeList: no bfloat16 on 310P / Ascend910; uint16 joins on the RegBase parts."""
    older = tuple(d for d in ARGMAX_DTYPES if d != D.DT_BF16)
    return list_by_arch(ARGMAX_DTYPES, older, (*ARGMAX_DTYPES[:-1], D.DT_UINT16, D.DT_BF16))


def first_argmax(x: np.ndarray) -> np.ndarray:
    """Along the last axis: the first index of the maximum, the first NaN if there is one."""
    work = x.astype(np.float32) if x.dtype.kind == "V" or x.dtype == np.float16 else x
    found = np.argmax(work, axis=-1)  # numpy's argmax already returns the first NaN
    return np.asarray(found)


@dataclass(frozen=True, slots=True)
class ArgMaxAttrs(KernelAttrs):
    """What an ArgMaxV2 binary has baked in: the dtypes of x and y and x's shape (the dim comes as data)."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> ArgMaxAttrs:
        dx, _, dy = signature.dtypes
        return cls(dx, dy, signature.shapes[0])


def argmax_kernel(ctx: BlockContext[ArgMaxAttrs], x: np.ndarray, dim_buf: np.ndarray, y: np.ndarray) -> None:
    """This block's kept elements (the reduce tiling's A split), each the argmax of its line."""
    data = ReduceOpTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.factorACntPerCore
    hi = min(lo + data.factorACntPerCore, data.factorATotalCnt)
    shape = ctx.attrs.x_shape or (1,)
    axis = int(dim_buf.view(np.int64)[0]) % len(shape)
    xv = lines_view(x.view(ctx.attrs.x_dtype), shape, axis)
    out = y.view(ctx.attrs.y_dtype)[: xv.shape[0] * xv.shape[1]].reshape(xv.shape[:2])
    for index in pieces(lo, hi, xv.shape[:2]):
        out[index] = first_argmax(xv[index]).astype(ctx.attrs.y_dtype)


ARGMAX_V2 = OpImpl(
    "ArgMaxV2", argmax_kernel, reduce_tiling, input_names=("x", "dimension"),
    bins=tuple(BinSpec((d, "int64"), ("int32",)) for d in ("float", "float16", "bfloat16", "int32", "int64")),
    kernel_json={"opParaSize": ctypes.sizeof(ReduceOpTilingData)}, kernel_attrs=ArgMaxAttrs.of,
)  # fmt: skip
ARGMAX_V2_AICPU = OpImpl("ArgMaxV2", argmax_kernel, reduce_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
                         input_names=("x", "dimension"), kernel_attrs=ArgMaxAttrs.of)  # fmt: skip


def argmax_v2_l0(x: aclTensor, dim: int, keepdim: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::ArgMaxV2: the dim as a 0-d int64 host tensor, an int32 result of the inferred shape."""
    scalar = executor.alloc_scalar(dim, D.DT_INT64)
    assert scalar is not None
    dim_tensor = convert_to_tensor(scalar, D.DT_INT64, executor)
    out = executor.alloc_tensor(reduced_shape(x.view_shape, (dim,), keepdim), D.DT_INT32)
    io = (OP_INPUT(x, dim_tensor), OP_OUTPUT(out))
    if x.dtype in ARGMAX_AIC:
        status = add_to_launcher_list_aicore(executor, ARGMAX_V2, *io)
    else:
        attrs = OP_ATTR(DType(D.DT_INT64), DType(D.DT_INT32))
        status = add_to_launcher_list_aicpu(executor, ARGMAX_V2_AICPU, AICPU_ATTRS, *io, attrs)
    if status != 0:
        raise L0StepFailed("ArgMaxV2", f"status {status}")
    return out


@l2_api
def aclnnArgMaxGetWorkspaceSize(
    self: aclTensor | None, dim: int, keepdim: bool, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnArgMax"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, argmax_dtypes())
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    rank = len(self.view_shape)
    low, high = (-rank, rank - 1) if rank else (-1, 0)
    check_param(low <= dim <= high, api, f"dim must be within the range of [{low}, {high}], but it is {dim}.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) or is_empty(out):
            return unique.release(0)
        x = self if rank else reshape_view(executor, contiguous(self, executor), (1,))
        x = contiguous(x, executor)
        result = argmax_v2_l0(x, int(dim) % max(rank, 1), bool(keepdim), executor)
        expected = tuple(result.view_shape)
        same = tuple(out.view_shape) == expected or (not rank and out.numel == 1 and len(out.view_shape) <= 1)
        check_param(same, api, f"out shape {list(out.view_shape)} must be {list(expected)}.")
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ARGMAX_V2,)
