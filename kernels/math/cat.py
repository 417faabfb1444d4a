"""aclnnCat: concatenate a tensor list along ``dim`` (ops-math conversion/concat_d).

L2 as the real op is written: 1-D tensors of shape [0] are dropped first and an empty remainder is
SUCCESS with nothing launched (before ``out`` is looked at). Then null checks (161001), the dtypes of
every tensor and of ``out`` in the A2 list, the promoted dtype over the list defined (complex128 is
refused) and castable to ``out``, equal storage formats (no private format), rank <= 8 of the first
tensor, ``dim`` in [-r, r-1], equal ranks and equal non-cat dims (all 161002). The compute drops the
remaining empty tensors; one tensor left is Contiguous → Cast(out dtype) → ViewCopy; none left
launches nothing. Otherwise every tensor is made Contiguous and Cast to the promoted dtype, and
ConcatD joins them in groups of at most 32 inputs, repeated until one tensor remains; the result's
shape must equal ``out``'s (161002), then Cast(out dtype) → ViewCopy. A2 variant: on dim 0 with
33-2048 inputs whose last-axis bytes are all multiples of 32, ConcatDV2 takes up to 2048 inputs.
Null list elements are reported as 161001 before anything else (the C code would dereference them).

Fidelity notes (following the code, not the doc): with a single non-empty tensor a wrong ``out``
shape makes the ViewCopy step fail (561103), and with no non-empty tensor left ``out`` is not
checked at all. ConcatD is AI Core only; the result is a bit-exact copy of the promoted inputs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.device.soc import SocProfile
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins, same_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type, type_size
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclTensor, aclTensorList
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
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, is_empty

D = DataType
CAT_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
              D.DT_COMPLEX64, D.DT_BF16, D.DT_BOOL)  # fmt: skip
MAX_INPUTS = 32
MAX_INPUTS_V2 = 2048
V2_SOCS = ("Ascend910B", "Ascend910_93")


@dataclass(frozen=True, slots=True)
class ConcatAttrs(KernelAttrs):
    """What a ConcatD / ConcatDV2 binary has baked in: each input's dtype and shape, the output's, and concat_dim."""

    x_dtypes: tuple[np.dtype, ...]  # one per (non-null) member of the input list, in order
    x_shapes: tuple[tuple[int, ...], ...]
    y_dtype: np.dtype
    y_shape: tuple[int, ...]
    concat_dim: int

    @classmethod
    def of(cls, signature: KernelSignature) -> ConcatAttrs:
        *x_dtypes, y_dtype = signature.dtypes
        *x_shapes, y_shape = signature.shapes
        (dim,) = signature.attrs
        return cls(tuple(x_dtypes), tuple(x_shapes), y_dtype, y_shape, dim)


def concat_kernel(ctx: BlockContext[ConcatAttrs], *views: np.ndarray) -> None:
    """This block's range of the output; each position is read from the input whose cat-axis span holds it."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    *inputs, out = views
    attrs = ctx.attrs
    dim, out_shape = attrs.concat_dim, attrs.y_shape
    inner = int(np.prod(out_shape[dim + 1 :], dtype=np.int64))
    widths = np.array([shape[dim] * inner for shape in attrs.x_shapes], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(widths)[:-1]))
    row_len = int(out_shape[dim]) * inner
    position = np.arange(lo, hi, dtype=np.int64)
    row, col = np.divmod(position, row_len)
    owner = np.searchsorted(starts, col, side="right") - 1  # zero-width inputs never own a position
    dst = out.view(attrs.y_dtype)[lo:hi]
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(len(inputs) + 1))
    for k, (first, last) in enumerate(itertools.pairwise(bounds)):
        if first == last:
            continue
        sel = order[first:last]
        src = row[sel] * widths[k] + (col[sel] - starts[k])
        dst[sel] = inputs[k].view(attrs.x_dtypes[k])[src]


CONCAT_D = OpImpl(
    "ConcatD", concat_kernel, movement_tiling, bins=same_dtype_bins(CAT_DTYPES), attr_names=("concat_dim",),
    attrs=(("concat_dim", "int"),), kernel_attrs=ConcatAttrs.of, moved_inputs=("x",),
)  # fmt: skip
CONCAT_D_V2 = OpImpl(
    "ConcatDV2", concat_kernel, movement_tiling, bins=same_dtype_bins(CAT_DTYPES), attr_names=("concat_dim",),
    attrs=(("concat_dim", "int"),), kernel_attrs=ConcatAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def supports_concat_v2(inputs: Sequence[aclTensor], dim: int, soc: SocProfile) -> bool:
    """IsSupportConcatDV2: A2/A3, dim 0, 33-2048 inputs, every last-axis size x dtype bytes a multiple of 32."""
    if soc.short_soc_version not in V2_SOCS or dim != 0:
        return False
    if not MAX_INPUTS < len(inputs) <= MAX_INPUTS_V2:
        return False
    size = type_size(inputs[0].dtype)
    return all((t.view_shape[-1] * size) % 32 == 0 for t in inputs)


def concat_d_l0(inputs: Sequence[aclTensor], dim: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::ConcatD(inputs, dim): ConcatDV2 where supported; L0StepFailed for an empty or oversized list."""
    v2 = supports_concat_v2(inputs, dim, executor.ctx.soc)
    if not inputs or len(inputs) > (MAX_INPUTS_V2 if v2 else MAX_INPUTS):
        raise L0StepFailed("ConcatD", f"{len(inputs)} inputs")
    shape = list(inputs[0].view_shape)
    shape[dim] = sum(int(t.view_shape[dim]) for t in inputs)
    out = executor.alloc_tensor(shape, inputs[0].dtype)
    tensors = executor.alloc_tensor_list(list(inputs))
    impl = CONCAT_D_V2 if v2 else CONCAT_D
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(tensors), OP_OUTPUT(out), OP_ATTR(Int64(dim)))
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def _check(api: str, tensors: Sequence[aclTensor], dim: int, out: aclTensor) -> tuple[int, int]:
    """CheckParams after the null checks: (promoted dtype, non-negative dim)."""
    for i, tensor in enumerate(tensors):
        check_dtype(api, f"tensors[{i}]", tensor, CAT_DTYPES)
    check_dtype(api, "out", out, CAT_DTYPES)
    promote = tensors[0].dtype
    for i, tensor in enumerate(tensors[1:], start=1):
        promote = promote_type(tensor.dtype, promote)
        check_param(promote != D.DT_UNDEFINED, api, f"tensor {i} dtype can not be promoted with the others.")
        check_param(promote != D.DT_COMPLEX128, api, "tensors promote to complex128, which is not implemented.")
    check_param(can_cast(promote, out.dtype), api, "the promoted dtype cannot be cast to the out dtype.")
    fmt = tensors[0].storage_format
    check_param(not is_private_format(fmt), api, "format only supports ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.")
    check_param(all(t.storage_format == fmt for t in tensors), api, "formats of the tensors should be equal.")
    check_param(out.storage_format == fmt, api, "formats of the tensors and out should be equal.")
    shape0 = tuple(tensors[0].view_shape)
    rank = len(shape0)
    check_param(rank <= MAX_DIM, api, f"tensors[0] has {rank} dims, more than {MAX_DIM}.")
    real_dim = dim + rank if dim < 0 else dim
    check_param(0 <= real_dim < rank, api, f"dim {dim} exceeds the dim range of the tensors ({rank}).")
    for i, tensor in enumerate(tensors[1:], start=1):
        shape = tuple(tensor.view_shape)
        check_param(len(shape) == rank, api, f"tensor {i} has {len(shape)} dims, tensor 0 has {rank}.")
        same = all(a == b for j, (a, b) in enumerate(zip(shape0, shape, strict=True)) if j != real_dim)
        check_param(same, api, f"tensor {i} shape {list(shape)} differs from tensor 0 {list(shape0)} off dim {dim}.")
    return promote, real_dim


def _split_to_concat(
    api: str, tensors: Sequence[aclTensor], promote: int, dim: int, out: aclTensor, executor: aclOpExecutor
) -> None:
    """SplitToConcat. The real one returns false when an L0 step returned null and the L2 then returns
    561103; here the step's L0StepFailed passes through, and the phase-1 frame makes the same 561103."""
    pending = [t for t in tensors if not is_empty(t)]
    if not pending:
        return
    if len(pending) == 1:
        view_copy(cast(contiguous(pending[0], executor), out.dtype, executor), out, executor)
        return
    group = MAX_INPUTS_V2 if supports_concat_v2(pending, dim, executor.ctx.soc) else MAX_INPUTS
    first = True
    while len(pending) > 1:
        merged: list[aclTensor] = []
        for start in range(0, len(pending), group):
            chunk = pending[start : start + group]
            if first:
                chunk = [cast(contiguous(tensor, executor), promote, executor) for tensor in chunk]
            if len(chunk) == 1:
                merged.append(chunk[0])
                continue
            merged.append(concat_d_l0(chunk, dim, executor))
        pending, first = merged, False
    result = pending[0]
    wanted = list(result.view_shape)
    check_param(same_shape(wanted, out.view_shape), api, f"out shape {list(out.view_shape)} should be {wanted}.")
    view_copy(cast(result, out.dtype, executor), out, executor)


@l2_api
def aclnnCatGetWorkspaceSize(
    tensors: aclTensorList | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnCat"
    check_not_null(api, tensors=tensors)
    assert tensors is not None
    members: list[aclTensor] = []
    for i, tensor in enumerate(tensors.values):
        check_not_null(api, **{f"tensors[{i}]": tensor})
        assert isinstance(tensor, aclTensor), "a tensor list holds tensors and nulls"
        members.append(tensor)
    kept = [t for t in members if tuple(t.view_shape) != (0,)]
    with create_executor() as unique:
        executor = unique.get()
        if not kept:
            return unique.release(0)
        check_not_null(api, out=out)
        assert out is not None
        promote, real_dim = _check(api, kept, int(dim), out)
        _split_to_concat(api, kept, promote, real_dim, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (CONCAT_D, CONCAT_D_V2)
