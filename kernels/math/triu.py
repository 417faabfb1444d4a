"""aclnnTriu / aclnnInplaceTriu, and the triangle kernel Tril shares (ops-math conversion/triu).

L2 as the real op is written: null checks (161001); self's dtype in the SoC's list and out's equal
to it; a private storage format, or self and out in different formats; more than 8 dims, fewer
than 2 dims for a non-empty self, out's shape not self's (all 161002). An empty self launches
nothing. Otherwise Contiguous → Triu (AI Core only; ``diagonal`` an attribute) → ViewCopy.
InplaceTriu is the same body with selfRef as both. The kernel keeps the elements on and above the
``diagonal``-th diagonal of the last two axes (col - row >= diagonal) and zeroes the rest: pure data
movement, so the result is bit-exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins
from emulator.kernels.math.index_common import block_coords, soc_dtypes
from emulator.kernels.math.unary import check_dtype_match, check_not_private, check_same_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
TRIU_DTYPES_910 = (D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT64, D.DT_INT32, D.DT_INT16, D.DT_UINT8, D.DT_INT8,
                   D.DT_BOOL, D.DT_UINT64, D.DT_UINT32, D.DT_UINT16)  # fmt: skip
TRIU_DTYPES_A2 = (*TRIU_DTYPES_910, D.DT_BF16)
TRIU_DTYPES_REGBASE = (*TRIU_DTYPES_A2, D.DT_COMPLEX64, D.DT_COMPLEX32)


@dataclass(frozen=True, slots=True)
class TriangleAttrs(KernelAttrs):
    """What a Triu / Tril binary has baked in: the dtype, the shape and the diagonal attribute."""

    dtype: np.dtype
    shape: tuple[int, ...]
    diagonal: int

    @classmethod
    def of(cls, signature: KernelSignature) -> TriangleAttrs:
        (diagonal,) = signature.attrs
        return cls(signature.dtypes[-1], signature.shapes[-1], int(diagonal))


def triangle_kernel(keep: Callable[[np.ndarray, int], np.ndarray]) -> Callable[..., None]:
    """A kernel that copies the positions where ``keep(col - row, diagonal)`` holds and zeroes the others."""

    def kernel(ctx: BlockContext[TriangleAttrs], x: np.ndarray, y: np.ndarray) -> None:
        lo, hi = block_range(ctx.tiling, ctx.block_idx)
        if lo >= hi:
            return
        attrs = ctx.attrs
        *_, row, col = block_coords(attrs.shape, lo, hi)
        src, dst = x.view(attrs.dtype)[lo:hi], y.view(attrs.dtype)
        dst[lo:hi] = np.where(keep(col - row, attrs.diagonal), src, np.zeros(1, attrs.dtype))

    return kernel


def triangle_impl(op_type: str, keep: Callable[[np.ndarray, int], np.ndarray], dtypes: tuple[int, ...]) -> OpImpl:
    return OpImpl(
        op_type, triangle_kernel(keep), movement_tiling, bins=same_dtype_bins(dtypes), attr_names=("diagonal",),
        attrs=(("diagonal", "int"),), kernel_attrs=TriangleAttrs.of, moved_inputs=("x",),
    )  # fmt: skip


TRIU = triangle_impl("Triu", lambda offset, diagonal: offset >= diagonal, TRIU_DTYPES_A2)


def triangle_l0(impl: OpImpl, x: aclTensor, diagonal: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::Triu / l0op::Tril: a workspace tensor like x; L0StepFailed when the AI Core launch failed."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(x), OP_ATTR(Int64(diagonal)), OP_OUTPUT(out))
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def run_triangle(impl: OpImpl, self: aclTensor, diagonal: int, out: aclTensor, executor: aclOpExecutor) -> None:
    """The compute both ops share: nothing for an empty self, else Contiguous → the kernel → ViewCopy."""
    if is_empty(self):
        return
    view_copy(triangle_l0(impl, contiguous(self, executor), diagonal, executor), out, executor)


def _check(api: str, self: aclTensor, out: aclTensor) -> None:
    check_dtype(api, "self", self, soc_dtypes(TRIU_DTYPES_A2, TRIU_DTYPES_910, TRIU_DTYPES_REGBASE))
    check_dtype_match(api, "out", out, self.dtype)
    check_not_private(api, "self", self.storage_format)
    check_param(self.storage_format == out.storage_format, api, "self format is different with out format.")
    check_rank(api, "self", self)
    if not is_empty(self):
        rank = len(self.view_shape)
        check_param(rank >= 2, api, f"self has {rank} dims, it should have at least 2.")
    check_same_shape(api, self, out)


def _triu(api: str, self: aclTensor | None, diagonal: int, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, out=out)
        assert self is not None and out is not None
        _check(api, self, out)
        run_triangle(TRIU, self, int(diagonal), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnTriuGetWorkspaceSize(
    self: aclTensor | None, diagonal: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _triu("aclnnTriu", self, diagonal, out)


@l2_api
def aclnnInplaceTriuGetWorkspaceSize(selfRef: aclTensor | None, diagonal: int) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _triu("aclnnInplaceTriu", selfRef, diagonal, selfRef)


OPS = (TRIU,)
