"""aclnnInplaceFillScalar and the L0 Fill it runs on (ops-math conversion/fill).

L2: null checks (161001); selfRef dtype in the A2 list, ``PromoteType(selfRef, value)`` defined (e.g. a
uint32 tensor with a float scalar → 161002) and rank <= 8 (161002); an empty selfRef launches
nothing. Then the scalar is converted to selfRef's dtype on the host (``ConvertToTensor``: a C-style
cast; a complex scalar written into a real tensor keeps its real part), the shape becomes an int64
host tensor (``[1]`` for a 0-d selfRef), L0 Fill produces a dense tensor and ViewCopy writes it
into selfRef (which may be strided).

L0 Fill (``fill_l0``; also what ops needing a constant tensor use): inputs ``dims`` (int64 host
tensor) and ``value`` (0-d host tensor of the output dtype), output of ``out_shape``; nothing is
launched for an empty output. AI Core on A2 for float32, float16, int32, int64, int8, bool,
bfloat16, uint16, uint32, uint64; the AI CPU Fill (attrs ``index_type``, ``T``) otherwise (float64,
int16, uint8, complex). Every output element is the value's bits: bit-exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import fill_tiling, same_dtype_bins
from emulator.meta.dtypes import COMPLEX_TYPES, DataType, promote_type
from emulator.meta.objects import aclScalar, aclTensor, numel
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
FILL_SCALAR_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8,
                      D.DT_DOUBLE, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16, D.DT_UINT16,
                      D.DT_UINT32, D.DT_UINT64)  # fmt: skip
FILL_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_INT8, D.DT_BOOL, D.DT_BF16, D.DT_UINT16,
               D.DT_UINT32, D.DT_UINT64)  # fmt: skip
AICPU_ATTRS = ("index_type", "T")


@dataclass(frozen=True, slots=True)
class FillAttrs(KernelAttrs):
    """What a Fill binary has baked in: the dtypes of the value and of y (dims is never read)."""

    value_dtype: np.dtype
    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> FillAttrs:
        _, dv, dy = signature.dtypes
        return cls(dv, dy)


def fill_kernel(ctx: BlockContext[FillAttrs], dims: np.ndarray, value: np.ndarray, y: np.ndarray) -> None:
    """Every element of this block's range of y is the value."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    y.view(ctx.attrs.y_dtype)[lo:hi] = value.view(ctx.attrs.value_dtype)[0]


FILL = OpImpl("Fill", fill_kernel, fill_tiling, bins=same_dtype_bins(FILL_AICORE, lead=("int64",)),
              input_names=("dims", "value"), kernel_attrs=FillAttrs.of, unread_inputs=("dims",))  # fmt: skip
FILL_AICPU = OpImpl("Fill", fill_kernel, fill_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
                    input_names=("dims", "value"), kernel_attrs=FillAttrs.of, unread_inputs=("dims",))  # fmt: skip


def fill_l0(dims: aclTensor, value: aclTensor, out_shape: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::Fill(dims, value, outShape): a workspace tensor of ``out_shape`` holding ``value`` everywhere."""
    out = executor.alloc_tensor(tuple(out_shape), value.dtype)
    if numel(tuple(out_shape)) == 0:
        return out
    groups = (OP_INPUT(dims, value), OP_OUTPUT(out))
    if value.dtype in FILL_AICORE:
        status = add_to_launcher_list_aicore(executor, FILL, *groups)
    else:
        attrs = OP_ATTR(DType(dims.dtype), DType(value.dtype))
        status = add_to_launcher_list_aicpu(executor, FILL_AICPU, AICPU_ATTRS, *groups, attrs)
    if status != 0:
        raise L0StepFailed("Fill", f"status {status}")
    return out


def scalar_to_tensor(value: aclScalar, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """ConvertToTensor(scalar, dtype): a 0-d host tensor; a complex value into a real dtype keeps its real part."""
    if value.dtype in COMPLEX_TYPES and dtype not in COMPLEX_TYPES:
        stored = value.value()
        assert stored is not None, "numpy holds both complex dtypes"
        real = executor.alloc_scalar(np.real(stored), D.DT_DOUBLE)
        if real is None:
            raise L0StepFailed("AllocScalar", "no host dtype for double")
        value = real
    return convert_to_tensor(value, dtype, executor)


@l2_api
def aclnnInplaceFillScalarGetWorkspaceSize(
    selfRef: aclTensor | None, value: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnInplaceFillScalar"
    check_not_null(api, selfRef=selfRef, value=value)
    assert selfRef is not None and value is not None
    check_dtype(api, "selfRef", selfRef, FILL_SCALAR_DTYPES)
    check_param(promote_type(selfRef.dtype, value.dtype) != D.DT_UNDEFINED, api,
                "selfRef dtype and value dtype can not promote dtype.")  # fmt: skip
    check_rank(api, "selfRef", selfRef)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(selfRef):
            return unique.release(0)
        value_tensor = scalar_to_tensor(value, selfRef.dtype, executor)
        shape = tuple(selfRef.view_shape) or (1,)
        dims = convert_to_tensor(list(shape), D.DT_INT64, executor)
        view_copy(fill_l0(dims, value_tensor, shape, executor), selfRef, executor)
        return unique.release(executor.get_workspace_size())


OPS = (FILL,)
