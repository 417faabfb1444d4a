"""aclnnNonzero and the L0 NonZero it runs on (ops-nn index/non_zero): a data-dependent output shape.

L2 as the real op is written: null checks of self and out (161001); self's dtype in the SoC's list
(bfloat16 on arch 2201 and RegBase, the unsigned types on RegBase), out int64; self or out with
more than 8 dims; a dim of self above INT32_MAX (all 161002). An empty self or out launches
nothing. The caller allocates out for the worst case, [self.numel, self.dim()] (row-major index
rows); phase 1 copies out's view shape into its storage and origin shapes and launches NonZero on
Contiguous(self) straight into out (no ViewCopy). The kernel writes the count rows of indices in
row-major order and a shape record; after the launch the runtime reads the record back and sets
out's view shape to [count, self.dim()] (OP_OUTSHAPE), which the caller reads with
aclGetViewShape once the stream is synchronized. On A2 the AI Core kernel (bool, float16,
bfloat16, float32, int8, uint8; not for a 0-d self) gets an int32 record of out.dim() + 1 elements;
the other dtypes run on AI CPU (attrs ``transpose``, ``dtype``), which reports its shape the same way
in the emulator. The executor is not cacheable or repeatable. An out smaller than the count keeps
the rows that fit (the real kernel would write past it) and still gets the full shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.index_common import REGBASE_SOCS
from emulator.kernels.math.unary import check_dtype_match
from emulator.kernels.nn.gather_v2 import ARCH_BF16
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    OP_OUTSHAPE,
    BinSpec,
    Bool,
    DType,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    elementwise_tiling,
    l2_api,
)
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
INT32_MAX = 2**31 - 1
NONZERO_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE,
                  D.DT_BOOL)  # fmt: skip
NONZERO_DTYPES_A2 = (*NONZERO_DTYPES, D.DT_BF16)
NONZERO_DTYPES_REGBASE = (*NONZERO_DTYPES_A2, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)
NONZERO_AICORE_A2 = (D.DT_BOOL, D.DT_FLOAT16, D.DT_BF16, D.DT_FLOAT, D.DT_INT8, D.DT_UINT8)
NONZERO_AICORE_REGBASE = (*NONZERO_AICORE_A2, D.DT_INT16, D.DT_UINT16, D.DT_INT32, D.DT_UINT32, D.DT_INT64)
AICPU_ATTRS = ("transpose", "dtype")
RECORD_INT64_BYTES = (MAX_DIM + 1) * 8


@dataclass(frozen=True, slots=True)
class NonZeroAttrs(KernelAttrs):
    """What a NonZero binary has baked in: x's dtype and shape and the transpose attribute."""

    x_dtype: np.dtype
    x_shape: tuple[int, ...]
    transpose: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> NonZeroAttrs:
        transpose, _ = signature.attrs
        return cls(signature.dtypes[0], signature.shapes[0], bool(transpose))


def nonzero_kernel(ctx: BlockContext[NonZeroAttrs], x: np.ndarray, y: np.ndarray, record: np.ndarray) -> None:
    """One block: the indices of the non-zero elements in row-major order, then the shape record."""
    attrs = ctx.attrs
    count_of = int(np.prod(attrs.x_shape, dtype=np.int64))
    values = x.view(attrs.x_dtype)[:count_of]
    flat = np.flatnonzero(values != 0)
    rank = len(attrs.x_shape)
    rows = np.stack(np.unravel_index(flat, attrs.x_shape), axis=1) if rank else np.zeros((flat.size, 0), np.int64)
    shape = (rank, flat.size) if attrs.transpose else (flat.size, rank)
    data = (rows.T if attrs.transpose else rows).astype(np.int64).reshape(-1)
    dst = y.view(np.int64)
    fit = min(data.size, dst.size)
    dst[:fit] = data[:fit]
    # the record is 9 int64 (RegBase, AI CPU) or out.dim() + 1 int32 (A2): at most 36 bytes
    record_dtype = np.dtype(np.int64) if record.nbytes >= RECORD_INT64_BYTES else np.dtype(np.int32)
    record.view(record_dtype)[:3] = np.array([2, *shape], dtype=record_dtype)


def nonzero_tiling(ctx: TilingContext) -> TilingResult:
    """One block: compacting the indices in order is a single pass over x (the template over one element)."""
    return elementwise_tiling(ctx, 1, 2, 8)


NONZERO = OpImpl(
    "NonZero", nonzero_kernel, nonzero_tiling, attr_names=AICPU_ATTRS,
    attrs=(("transpose", "bool"), ("dtype", "int")), kernel_attrs=NonZeroAttrs.of,
    bins=tuple(BinSpec((NAMES[d],), ("int64",)) for d in NONZERO_AICORE_REGBASE),
)  # fmt: skip
NONZERO_AICPU = OpImpl(
    "NonZero", nonzero_kernel, nonzero_tiling, engine=Engine.AICPU, attr_names=AICPU_ATTRS,
    kernel_attrs=NonZeroAttrs.of,
)  # fmt: skip


def _on_ai_core(x: aclTensor, executor: aclOpExecutor) -> bool:
    soc = executor.ctx.soc
    if soc.short_soc_version in REGBASE_SOCS:
        return x.dtype in NONZERO_AICORE_REGBASE
    return soc.npu_arch == ARCH_BF16 and bool(x.view_shape) and x.dtype in NONZERO_AICORE_A2


def nonzero_l0(x: aclTensor, out: aclTensor, executor: aclOpExecutor, transpose: bool = False) -> aclTensor:
    """l0op::Nonzero(x, out): launched straight into ``out``; its shape record follows the kernel."""
    attrs = OP_ATTR(Bool(transpose), DType(out.dtype))
    if _on_ai_core(x, executor):
        regbase = executor.ctx.soc.short_soc_version in REGBASE_SOCS
        size, dtype = (MAX_DIM + 1, D.DT_INT64) if regbase else (len(out.view_shape) + 1, D.DT_INT32)
        record = executor.alloc_tensor((size,), dtype)
        groups = (OP_INPUT(x), OP_OUTPUT(out), attrs, OP_OUTSHAPE(record, 0))
        status = add_to_launcher_list_aicore(executor, NONZERO, *groups)
    else:
        record = executor.alloc_tensor((MAX_DIM + 1,), D.DT_INT64)
        groups = (OP_INPUT(x), OP_OUTPUT(out), attrs, OP_OUTSHAPE(record, 0))
        status = add_to_launcher_list_aicpu(executor, NONZERO_AICPU, AICPU_ATTRS, *groups)
    if status != 0:
        raise L0StepFailed("NonZero", f"status {status}")
    return out


def _check(api: str, self: aclTensor, out: aclTensor) -> None:
    soc = current_l2().op.soc
    supported: tuple[int, ...]
    if soc.short_soc_version in REGBASE_SOCS:
        supported = NONZERO_DTYPES_REGBASE
    else:
        supported = NONZERO_DTYPES_A2 if soc.npu_arch == ARCH_BF16 else NONZERO_DTYPES
    check_dtype(api, "self", self, supported)
    check_dtype_match(api, "out", out, D.DT_INT64)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    big = any(int(d) > INT32_MAX for d in self.view_shape)
    check_param(not big, api, f"The tensor's shape cannot be larger than {INT32_MAX}.")


@l2_api
def aclnnNonzeroGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnNonzero"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, out=out)
        assert self is not None and out is not None
        _check(api, self, out)
        if is_empty(self, out):
            return unique.release(0)
        x = contiguous(self, executor)
        out.storage_shape = out.origin_shape = tuple(out.view_shape)
        nonzero_l0(x, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (NONZERO,)
