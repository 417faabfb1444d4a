"""aclnnPermute: out = self with its axes reordered by ``dims``.

L2 as the real op is written (ops-math conversion/transpose): null checks (161001); self and out
dtypes in the A2 list and equal; out rank, ``len(dims)``, duplicate values and rank <= 8; each dim in
[-r, r-1] (161002). An empty self needs an empty out (else the graph step fails: 561103) and
launches nothing. Otherwise Contiguous, the L0 Transpose with the non-negative perm, the check
that the result's shape equals out's (161002, after the graph is built) and ViewCopy into ``out``.

L0 Transpose turns the perm into an int64 host tensor (an input of the kernel, as the real
``ConvertToTensor``) and picks, as on A2: TransposeV2 (AI Core) for the small float16 / float32 /
bfloat16 3-D and 4-D shapes it is specialised for, Transpose on AI Core for the A2 AI Core dtypes,
and the AI CPU Transpose (attrs ``T``, ``Tperm``) for float64 and complex. All are pure data
movement, so the result is bit-exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.device.soc import SocProfile
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tensors import is_contiguous
from emulator.engine.tiling import KernelSignature
from emulator.errors import AclnnInnerNullptr, L0StepFailed
from emulator.kernels.math.data_movement import (
    movement_tiling,
    same_dtype_bins,
    same_shape,
)
from emulator.kernels.math.reduce_common import int_array_values, pieces
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    DType,
    OpImpl,
    RangeKernel,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
PERMUTE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_UINT64, D.DT_INT64, D.DT_UINT32, D.DT_INT32,
                  D.DT_UINT16, D.DT_INT16, D.DT_UINT8, D.DT_INT8, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128,
                  D.DT_BF16)  # fmt: skip
TRANSPOSE_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                    D.DT_UINT16, D.DT_UINT32, D.DT_UINT64, D.DT_BOOL, D.DT_BF16)  # fmt: skip
TRANSPOSE_V2_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
V2_SOCS = ("Ascend910B", "Ascend910_93")
AICPU_ATTRS = ("T", "Tperm")


@dataclass(frozen=True, slots=True)
class TransposeAttrs(KernelAttrs):
    """What a Transpose binary has baked in: the dtypes of x, perm and y and the shapes of x and y."""

    x_dtype: np.dtype
    perm_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> TransposeAttrs:
        dx, dp, dy = signature.dtypes
        sx, _, sy = signature.shapes
        return cls(dx, dp, dy, sx, sy)


TILE = 256  # a transposed copy goes in TILE x TILE squares of its last two axes, so both sides stay in cache


def _transpose_range(
    ctx: BlockContext[TransposeAttrs], lo: int, hi: int, x: np.ndarray, perm: np.ndarray, y: np.ndarray
) -> None:
    """y[i0, .., in] = x[.., i_k at axis perm[k], ..] over y's flat range [lo, hi): a strided view of x in
    y's axis order copied into y piece by piece (hyper-rectangles contiguous in y), each piece in tiles.
    The same elements land in the same places as a gather over the range: pure data movement."""
    attrs = ctx.attrs
    dx, dp, dy = attrs.x_dtype, attrs.perm_dtype, attrs.y_dtype
    sx, sy = attrs.x_shape, attrs.y_shape
    order = [int(p) for p in perm.view(dp)[: len(sx)]]
    if not sy:
        y.view(dy)[lo:hi] = x.view(dx)[lo:hi]
        return
    count = int(np.prod(sx, dtype=np.int64))
    source = x.view(dx)[:count].reshape(sx).transpose(order)
    dest = y.view(dy)[:count].reshape(sy)
    for index in pieces(lo, hi, sy):
        src, dst = source[index], dest[index]
        if dst.ndim < 2:
            np.copyto(dst, src)
            continue
        rows, cols = dst.shape[-2], dst.shape[-1]
        for r in range(0, rows, TILE):
            for c in range(0, cols, TILE):
                tile = (..., slice(r, min(r + TILE, rows)), slice(c, min(c + TILE, cols)))
                np.copyto(dst[tile], src[tile])


transpose_kernel = RangeKernel(_transpose_range)


TRANSPOSE = OpImpl(
    "Transpose", transpose_kernel, movement_tiling, bins=same_dtype_bins(TRANSPOSE_AICORE, ("int64",)),
    input_names=("x", "perm"), kernel_attrs=TransposeAttrs.of, moved_inputs=("x",),
)  # fmt: skip
TRANSPOSE_V2 = OpImpl(
    "TransposeV2", transpose_kernel, movement_tiling, bins=same_dtype_bins(TRANSPOSE_V2_DTYPES, ("int64",)),
    input_names=("x", "perm"), kernel_attrs=TransposeAttrs.of, moved_inputs=("x",),
)  # fmt: skip
TRANSPOSE_AICPU = OpImpl(
    "Transpose", transpose_kernel, movement_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
    input_names=("x", "perm"), kernel_attrs=TransposeAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def _v2_supported(x: aclTensor, perm: Sequence[int], soc: SocProfile) -> bool:
    """IsTransposeV2AiCoreSupport on A2: the 3-D (0,2,1) / (1,0,2) and 4-D (0,2,1,3) shapes it specialises."""
    shape, perm = tuple(x.view_shape), tuple(perm)
    supported = False
    if len(perm) == 3 and len(shape) >= 3 and 1 not in shape[:3]:
        if perm == (0, 2, 1):
            supported = shape[1] <= 128 and shape[2] <= 128
        elif perm == (1, 0, 2):
            limit = 32 if x.dtype == D.DT_FLOAT else 64
            supported = shape[2] < limit or (limit <= shape[2] <= 256 and (shape[0] <= 64 or shape[1] <= 64))
    elif len(perm) == 4 and len(shape) >= 4 and 1 not in shape[:4] and perm == (0, 2, 1, 3):
        block = 8 if x.dtype == D.DT_FLOAT else 16
        supported = (shape[3] <= 64 and shape[3] % block == 0 and 1024 <= shape[0] <= 2048
                     and (shape[1] <= 64 or shape[2] <= 64))  # fmt: skip
    return supported and soc.short_soc_version in V2_SOCS and x.dtype in TRANSPOSE_V2_DTYPES


def transpose_l0(x: aclTensor, perm: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::Transpose(x, perm): x must be contiguous; perm non-negative; L0StepFailed when a step fails."""
    if not is_contiguous(x):
        raise L0StepFailed("Transpose", "the input is not contiguous")
    perm_tensor = convert_to_tensor(list(perm), D.DT_INT64, executor)
    out = executor.alloc_tensor(tuple(x.view_shape[p] for p in perm), x.dtype)
    groups = (OP_INPUT(x, perm_tensor), OP_OUTPUT(out))
    if _v2_supported(x, perm, executor.ctx.soc):
        status = add_to_launcher_list_aicore(executor, TRANSPOSE_V2, *groups)
    elif x.dtype in TRANSPOSE_AICORE:
        status = add_to_launcher_list_aicore(executor, TRANSPOSE, *groups)
    else:
        attrs = OP_ATTR(DType(x.dtype), DType(D.DT_INT64))
        status = add_to_launcher_list_aicpu(executor, TRANSPOSE_AICPU, AICPU_ATTRS, *groups, attrs)
    if status != 0:
        raise L0StepFailed("Transpose", f"status {status}")
    return out


def _check(api: str, self: aclTensor, dims: aclIntArray, out: aclTensor) -> list[int]:
    check_dtype(api, "self", self, PERMUTE_DTYPES)
    check_dtype(api, "out", out, PERMUTE_DTYPES)
    check_param(self.dtype == out.dtype, api, "self and out must have the same dtype.")
    rank = len(self.view_shape)
    values = int_array_values(dims)
    check_param(len(out.view_shape) == rank, api, f"out has {len(out.view_shape)} dims, self {rank}.")
    check_param(len(values) == rank, api, f"dims has {len(values)} values, self has {rank} dims.")
    check_param(len(set(values)) == len(values), api, f"dims {values} contains duplicate elements.")
    check_rank(api, "self", self)
    low, high = min(-rank, rank - 1), max(-rank, rank - 1)
    perm = []
    for value in values:
        check_param(low <= value <= high, api, f"the values of dims should be in range [{low}, {high}].")
        perm.append(value + rank if value < 0 else value)
    check_param(len(set(perm)) == len(perm), api, "each dimension in perm should not be repeated.")
    return perm


@l2_api
def aclnnPermuteGetWorkspaceSize(
    self: aclTensor | None, dims: aclIntArray | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnPermute"
    check_not_null(api, self=self, dims=dims, out=out)
    assert self is not None and dims is not None and out is not None
    perm = _check(api, self, dims, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            if not is_empty(out):
                raise AclnnInnerNullptr(f"{api}: out should be empty when self is empty.", msg_id="EZ9999")
            return unique.release(0)
        result = transpose_l0(contiguous(self, executor), perm, executor)
        wanted = list(result.view_shape)
        check_param(same_shape(wanted, out.view_shape), api, f"out shape {list(out.view_shape)} should be {wanted}.")
        with l0_label("ViewCopy"):
            view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (TRANSPOSE, TRANSPOSE_V2)
