"""aclnnCumsum / aclnnCumsumV2: running sums of self along ``dim``.

L2 as the real op is written (ops-math math/cumsum). aclnnCumsum: null self / out (161001); out in
the A2 list and equal to ``dtype`` (self's dtype is not checked: it is Cast to out's); out shaped
like self, rank <= 8; dim in [-r, r-1] (a 0-d self counts as rank 1) (161002). aclnnCumsumV2 (with
``exclusive`` and ``reverse``): self and out both in the list and of one dtype, then the same shape
and dim checks. An empty self launches nothing. Otherwise Contiguous, Cast(out dtype), the dim as
a host tensor (int64 when dim is 0, int32 otherwise, as the code picks) and the Cumsum kernel (AI
Core for float32 / float16 / bfloat16 / int32, AI CPU "Cumsum" with attrs exclusive and reverse
otherwise), ViewCopy.

Numerics: float16 / bfloat16 accumulate in float32 and round each partial sum once; integers wrap in
their dtype. The real aclnnCumsum sends very large last-axis scans on float types (at least 12800
lines of at least 512 elements) to a cube-unit CumsumCube kernel; the emulator computes those with
the same Cumsum kernel (the sums agree within the precision standard).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import acc_dtype
from emulator.kernels.math.row_common import block_lines, lines_view, row_tiling
from emulator.kernels.math.soc_lists import list_by_arch
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
CUMSUM_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_DOUBLE, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT64,
                 D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)  # fmt: skip
CUMSUM_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32)
ATTR_NAMES = ("exclusive", "reverse")


def cumsum_dtypes() -> tuple[int, ...]:
    """GetSupportDtypeList: bfloat16 on A2 / A3 and RegBase, not on 310P / Ascend910."""
    return list_by_arch(CUMSUM_DTYPES, CUMSUM_DTYPES[:-1])


def scan(x: np.ndarray, exclusive: bool, reverse: bool) -> np.ndarray:
    """Running sums along the last axis in the accumulator dtype (an exclusive scan starts from 0)."""
    work = x.astype(acc_dtype(x.dtype), copy=False)
    if reverse:
        work = work[..., ::-1]
    with np.errstate(over="ignore"):
        sums = np.cumsum(work, axis=-1, dtype=work.dtype)
    if exclusive:
        sums = np.concatenate([np.zeros_like(sums[..., :1]), sums[..., :-1]], axis=-1)
    return sums[..., ::-1] if reverse else sums


@dataclass(frozen=True, slots=True)
class CumsumAttrs(KernelAttrs):
    """What a Cumsum binary is given: x's dtype and shape and the two flags (the dim comes as data)."""

    x_dtype: np.dtype
    x_shape: tuple[int, ...]
    exclusive: bool
    reverse: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> CumsumAttrs:
        exclusive, reverse = signature.attrs
        return cls(signature.dtypes[0], signature.shapes[0], bool(exclusive), bool(reverse))


def cumsum_kernel(ctx: BlockContext[CumsumAttrs], x: np.ndarray, dim_buf: np.ndarray, y: np.ndarray) -> None:
    """This block's whole lines, each scanned on its own."""
    attrs = ctx.attrs
    shape = attrs.x_shape or (1,)
    raw = dim_buf.view(np.int64 if dim_buf.nbytes == 8 else np.int32)
    axis = int(raw[0]) % len(shape)
    xv = lines_view(x.view(attrs.x_dtype), shape, axis)
    yv = lines_view(y.view(attrs.x_dtype), shape, axis)
    for index in block_lines(ctx, xv):
        yv[index] = scan(xv[index], attrs.exclusive, attrs.reverse).astype(attrs.x_dtype, copy=False)


CUMSUM = OpImpl(
    "Cumsum", cumsum_kernel, row_tiling, attrs=(("exclusive", "bool"), ("reverse", "bool")), attr_names=ATTR_NAMES,
    input_names=("x", "axis"), kernel_attrs=CumsumAttrs.of,
    bins=tuple(BinSpec((d, a), (d,)) for d in ("float", "float16", "bfloat16", "int32") for a in ("int32", "int64")),
)  # fmt: skip
CUMSUM_AICPU = OpImpl("Cumsum", cumsum_kernel, row_tiling, engine=Engine.AICPU, attr_names=ATTR_NAMES,
                      input_names=("x", "axis"), kernel_attrs=CumsumAttrs.of)  # fmt: skip


def cumsum_l0(x: aclTensor, dim: int, exclusive: bool, reverse: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::Cumsum(x, dim tensor, exclusive, reverse): AI Core for F32 F16 BF16 I32, AI CPU otherwise."""
    dim_dtype = D.DT_INT64 if dim == 0 or dim > 2**31 - 1 else D.DT_INT32
    dim_tensor = convert_to_tensor([dim], dim_dtype, executor)
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    io = (OP_INPUT(x, dim_tensor), OP_OUTPUT(out), OP_ATTR(Bool(exclusive), Bool(reverse)))
    if x.dtype in CUMSUM_AIC:
        status = add_to_launcher_list_aicore(executor, CUMSUM, *io)
    else:
        status = add_to_launcher_list_aicpu(executor, CUMSUM_AICPU, ATTR_NAMES, *io)
    if status != 0:
        raise L0StepFailed("Cumsum", f"status {status}")
    return out


def _check_shape_and_dim(api: str, self: aclTensor, dim: int, out: aclTensor) -> None:
    check_param(out.view_shape == self.view_shape, api, f"out shape {list(out.view_shape)} must equal self's.")
    check_rank(api, "self", self)
    r = max(len(self.view_shape), 1)
    check_param(-r <= dim <= r - 1, api, f"expected dim to be in range of [{-r}, {r - 1}], but got {dim}.")


def _graph(self: aclTensor, dim: int, exclusive: bool, reverse: bool, out: aclTensor) -> tuple[int, aclOpExecutor, int]:
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = cast(contiguous(self, executor), out.dtype, executor)
        view_copy(cumsum_l0(x, dim, exclusive, reverse, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnCumsumGetWorkspaceSize(
    self: aclTensor | None, dim: int, dtype: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnCumsum"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "out", out, cumsum_dtypes())
    check_param(out.dtype == dtype, api, f"out dtype {out.dtype} must match dtype {dtype}.")
    _check_shape_and_dim(api, self, int(dim), out)
    return _graph(self, int(dim), False, False, out)


@l2_api
def aclnnCumsumV2GetWorkspaceSize(
    self: aclTensor | None, dim: int, exclusive: bool, reverse: bool, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive, bool reverse,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnCumsumV2"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, cumsum_dtypes())
    check_dtype(api, "out", out, cumsum_dtypes())
    check_param(self.dtype == out.dtype, api, "self and out must have the same dtype.")
    _check_shape_and_dim(api, self, int(dim), out)
    return _graph(self, int(dim), bool(exclusive), bool(reverse), out)


OPS = (CUMSUM,)
