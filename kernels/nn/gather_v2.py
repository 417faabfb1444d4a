"""aclnnGatherV2 and the L0 GatherV2 / GatherV3 gathers (ops-nn index/gather_v2, index/gather_v3).

L2 as the real op is written: null checks of self, index, out (161001); out's dtype self's, self's
in the SoC's list (bfloat16 on A2 / A3 and the RegBase parts, uint16 on RegBase only), index int32 or
int64; self or index with more than 8 dims; dim in [-r, r) (r = 1 for a 0-d self); out's shape
self.shape[:dim] + index.shape + self.shape[dim+1:] (a 0-d index counts as [1]; a 0-d self keeps out
0-d) — all 161002, and checked even when a tensor is empty. A FRACTAL_NZ format only warns. An
empty self or index launches nothing. Then Contiguous(self), Contiguous(index) (a 0-d index becomes
[1]), GatherV2 with negative indices allowed, ViewCopy.

L0 GatherV2: the axis is an int64 host tensor input; AI Core for the A2 AI Core dtypes (bfloat16 on
arch 2201), AI CPU (attrs ``batch_dims``, ``negative_index_support``) for float64 and complex. L0
GatherV3 (IndexSelect's, on A2 / A3 only) is AI Core for its list and falls back to GatherV2.
Kernels: a negative index counts from the end when the launch allows it; an index still outside
[0, size) reads nothing and writes zeros (the real kernels leave it undefined; the emulator picks
zeros so a result never depends on stale memory).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.data_movement import movement_tiling
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, soc_dtypes
from emulator.kernels.math.unary import check_dtype_match
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
    block_range,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
INDEX_DTYPES = (D.DT_INT32, D.DT_INT64)
GATHER_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL,
                 D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
GATHER_DTYPES_A2 = (*GATHER_DTYPES, D.DT_BF16)
GATHER_DTYPES_REGBASE = (*GATHER_DTYPES_A2, D.DT_UINT16)
GATHER_V2_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_INT64, D.DT_INT16, D.DT_UINT16,
                    D.DT_UINT32, D.DT_UINT64, D.DT_BOOL)  # fmt: skip
GATHER_V2_AICORE_REGBASE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_BF16, D.DT_INT16, D.DT_UINT16,
                            D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_DOUBLE, D.DT_COMPLEX64)  # fmt: skip
GATHER_V3_AICORE = (D.DT_BF16, D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
                    D.DT_UINT16, D.DT_UINT32, D.DT_UINT64, D.DT_BOOL)  # fmt: skip
ATTR_NAMES = ("batch_dims", "negative_index_support")
ARCH_BF16 = 2201


@dataclass(frozen=True, slots=True)
class GatherAttrs(KernelAttrs):
    """What a GatherV2 / GatherV3 binary has baked in: x's and indices' dtypes and shapes and the
    negative_index_support attribute (the axis arrives as an input)."""

    x_dtype: np.dtype
    index_dtype: np.dtype
    x_shape: tuple[int, ...]
    index_shape: tuple[int, ...]
    negative: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> GatherAttrs:
        dx, di, *_ = signature.dtypes
        sx, si, *_ = signature.shapes
        _, negative = signature.attrs
        return cls(dx, di, sx, si, bool(negative))


def gather_kernel(ctx: BlockContext[GatherAttrs], x: np.ndarray, indices: np.ndarray, axis: np.ndarray,
                  y: np.ndarray) -> None:  # fmt: skip
    """y[outer, j, inner] = x[outer, indices[j], inner] over this block's range; bad indices give 0."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    shape = attrs.x_shape or (1,)
    dim = int(axis.view(np.int64)[0])
    size = int(shape[dim])
    inner = int(np.prod(shape[dim + 1 :], dtype=np.int64))
    count = int(np.prod(attrs.index_shape, dtype=np.int64))
    position = np.arange(lo, hi, dtype=np.int64)
    outer, rest = np.divmod(position, count * inner)
    j, i = np.divmod(rest, inner)
    index = indices.view(attrs.index_dtype)[:count].astype(np.int64)[j]
    if attrs.negative:
        index = np.where(index < 0, index + size, index)
    valid = (index >= 0) & (index < size)
    src = (outer * size + np.where(valid, index, 0)) * inner + i
    values = x.view(attrs.x_dtype)[src]
    y.view(attrs.x_dtype)[lo:hi] = np.where(valid, values, np.zeros(1, attrs.x_dtype))


def _bins(dtypes: tuple[int, ...]) -> tuple[BinSpec, ...]:
    return tuple(BinSpec((NAMES[d], NAMES[i], "int64"), (NAMES[d],)) for d in dtypes for i in INDEX_DTYPES)


def _impl(op_type: str, dtypes: tuple[int, ...], engine: Engine = Engine.AICORE) -> OpImpl:
    return OpImpl(
        op_type, gather_kernel, movement_tiling, engine=engine, bins=_bins(dtypes) if engine == Engine.AICORE else (),
        attr_names=ATTR_NAMES, attrs=(("batch_dims", "int"), ("negative_index_support", "bool")),
        input_names=("x", "indices", "axis"), kernel_attrs=GatherAttrs.of, moved_inputs=("x",),
    )  # fmt: skip


GATHER_V2 = _impl("GatherV2", tuple(dict.fromkeys((*GATHER_V2_AICORE, *GATHER_V2_AICORE_REGBASE, D.DT_BF16))))
GATHER_V2_AICPU = _impl("GatherV2", (), Engine.AICPU)
GATHER_V3 = _impl("GatherV3", GATHER_V3_AICORE)


def gather_shape(self: aclTensor, dim: int, index_shape: tuple[int, ...]) -> tuple[int, ...]:
    """self.shape[:dim] + index_shape + self.shape[dim+1:]; a 0-d self keeps its shape."""
    shape = tuple(int(d) for d in self.view_shape)
    if not shape:
        return shape
    return (*shape[:dim], *index_shape, *shape[dim + 1 :])


def _gather_v2_on_ai_core(x: aclTensor, executor: aclOpExecutor) -> bool:
    soc = executor.ctx.soc
    if soc.short_soc_version in REGBASE_SOCS:
        return x.dtype in GATHER_V2_AICORE_REGBASE
    return x.dtype in GATHER_V2_AICORE or (x.dtype == D.DT_BF16 and soc.npu_arch == ARCH_BF16)


def gather_l0(x: aclTensor, dim: int, index: aclTensor, executor: aclOpExecutor, negative: bool, v3: bool) -> aclTensor:
    """l0op::GatherV2 / l0op::GatherV3(x, dim, index, batchDims 0, negative): L0StepFailed when a launch failed."""
    rank = max(len(x.view_shape), 1)
    axis = dim + rank if dim < 0 else dim
    out = executor.alloc_tensor(gather_shape(x, axis, tuple(int(d) for d in index.view_shape)), x.dtype)
    axis_tensor = convert_to_tensor([axis], D.DT_INT64, executor)
    groups = (OP_INPUT(x, index, axis_tensor), OP_OUTPUT(out), OP_ATTR(Int64(0), Bool(negative)))
    use_v3 = v3 and executor.ctx.soc.short_soc_version in A2_SOCS and x.dtype in GATHER_V3_AICORE
    if use_v3:
        status = add_to_launcher_list_aicore(executor, GATHER_V3, *groups)
    elif _gather_v2_on_ai_core(x, executor):
        status = add_to_launcher_list_aicore(executor, GATHER_V2, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, GATHER_V2_AICPU, ATTR_NAMES, *groups)
    if status != 0:
        raise L0StepFailed("GatherV3" if use_v3 else "GatherV2", f"status {status}")
    return out


def index_as_1d(index: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """Contiguous(index), and a 0-d index unsqueezed to [1]."""
    dense = contiguous(index, executor)
    return reshape_view(executor, dense, (1,)) if not dense.view_shape else dense


@l2_api
def aclnnGatherV2GetWorkspaceSize(
    self: aclTensor | None, dim: int, index: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnGatherV2"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, index=index, out=out)
        assert self is not None and index is not None and out is not None
        check_dtype_match(api, "out", out, self.dtype)
        check_dtype(api, "self", self, soc_dtypes(GATHER_DTYPES_A2, GATHER_DTYPES, GATHER_DTYPES_REGBASE))
        check_dtype(api, "index", index, INDEX_DTYPES)
        check_rank(api, "self", self)
        check_rank(api, "index", index)
        rank = max(len(self.view_shape), 1)
        dim = int(dim)
        check_param(-rank <= dim < rank, api, f"dim {dim} not in valid range: [{-rank}, {rank})")
        axis = dim + rank if dim < 0 else dim
        wanted = gather_shape(self, axis, tuple(int(d) for d in index.view_shape) or (1,))
        message = f"out shape {list(out.view_shape)} should be {list(wanted)}."
        check_param(tuple(out.view_shape) == wanted, api, message)
        if is_empty(self, index):
            return unique.release(0)
        x = contiguous(self, executor)
        result = gather_l0(x, axis, index_as_1d(index, executor), executor, negative=True, v3=False)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (GATHER_V2, GATHER_V3)
