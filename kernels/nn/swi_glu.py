"""aclnnSwiGlu: out = silu(A) * B, A and B the two halves of x along ``dim``.

The real API is generated (the nnopbase path) over the single SwiGlu kernel (ops-nn
activation/swi_glu): 161001 for a null x or out; 161002 for an (x, out) dtype pair outside the
kernel's table (float16 / float32 / bfloat16, out of x's dtype; 310P has no bfloat16 binary);
shape problems come from its shape inference (561001): dim outside [-r, r-1], an odd size along
dim, out not of x's shape with that dim halved. x is made contiguous automatically; an empty x
launches nothing. Math in float32, rounded once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.rms_norm import AclnnInferShapeError, AclnnTilingError
from emulator.kernels.nn.glu_common import block_rows, glu_tiling, half_view, split_view
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param

D = DataType
SWIGLU_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
F32 = np.dtype(np.float32)


def swi_glu(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """silu(a) * b in float32."""
    a32, b32 = a.astype(F32), b.astype(F32)
    return a32 / (F32.type(1) + np.exp(-a32)) * b32


@dataclass(frozen=True, slots=True)
class GluAttrs(KernelAttrs):
    """What a GLU binary has baked in: the dtypes of x and y."""

    x_dtype: np.dtype
    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> GluAttrs:
        return cls(signature.dtypes[0], signature.dtypes[1])


def swi_glu_kernel(ctx: BlockContext[GluAttrs], x: np.ndarray, y: np.ndarray) -> None:
    lo, hi, cols = block_rows(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    rows = hi  # the views need only reach this block's last row
    xv = split_view(x, ctx.attrs.x_dtype, rows, cols)
    yv = half_view(y, ctx.attrs.y_dtype, rows, cols)
    yv[lo:hi] = swi_glu(xv[lo:hi, 0], xv[lo:hi, 1]).astype(ctx.attrs.y_dtype)


SWI_GLU = OpImpl(
    "SwiGlu", swi_glu_kernel, glu_tiling, attrs=(("dim", "int"),), attr_names=("dim",), kernel_attrs=GluAttrs.of,
    bins=tuple(BinSpec((d,), (d,)) for d in ("float16", "float", "bfloat16")),
)  # fmt: skip


def infer_halved(api: str, x: aclTensor, dim: int) -> tuple[int, ...]:
    """The GLU shape inference: x's shape with ``dim`` halved (561001 when dim or its size is wrong)."""
    shape = tuple(x.view_shape)
    rank = len(shape)
    axis = dim + rank if dim < 0 else dim
    if not 0 <= axis < rank:
        raise AclnnInferShapeError(f"{api}: the value of attr [dim] must be in the range [-{rank}, {rank - 1}], "
                                   f"but got [{dim}].", msg_id="EZ9999")  # fmt: skip
    if shape[axis] % 2:
        raise AclnnInferShapeError(f"{api}: the shape {list(shape)} is not divisible by 2.", msg_id="EZ9999")
    return (*shape[:axis], shape[axis] // 2, *shape[axis + 1 :])


@l2_api
def aclnnSwiGluGetWorkspaceSize(
    x: aclTensor | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSwiGlu"
    check_not_null(api, x=x, out=out)
    assert x is not None and out is not None
    check_param(x.dtype in SWIGLU_DTYPES and out.dtype == x.dtype, api,
                "the dtypes of x and out are not a supported combination.")  # fmt: skip
    expected = infer_halved(api, x, int(dim))
    if tuple(out.view_shape) != expected:
        raise AclnnInferShapeError(f"{api}: out must be {list(expected)}.", msg_id="EZ9999")
    with create_executor() as unique:
        executor = unique.get()
        if x.numel == 0:
            return unique.release(0)
        with l0_label("Contiguous"):
            xc = contiguous(x, executor)
        y = executor.alloc_tensor(expected, out.dtype)
        status = add_to_launcher_list_aicore(executor, SWI_GLU, OP_INPUT(xc), OP_OUTPUT(y), OP_ATTR(Int64(int(dim))))
        if status != 0:
            raise AclnnTilingError(f"{api}: the SwiGlu kernel could not be prepared.", msg_id="EZ9999")
        with l0_label("ViewCopy"):
            view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SWI_GLU,)
