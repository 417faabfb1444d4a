"""Cast (L0): change a tensor's dtype on AI Core for the A2 pair table, on AI CPU for the rest.

Dispatch on A2: the AI Core kernel serves the (src, dst) pairs of its table; pairs whose both
ends are in the AI CPU set go to the AI CPU kernel; anything else makes the L0 return null (the L2
then returns 561103). Conversions are C casts: float to integer truncates, to bool is "non-zero",
float narrowing rounds to nearest even.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    DType,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    elementwise_tiling,
)

D = DataType
NAMES: dict[int, str] = {
    D.DT_FLOAT16: "float16", D.DT_FLOAT: "float", D.DT_INT32: "int32", D.DT_UINT8: "uint8", D.DT_INT8: "int8",
    D.DT_BOOL: "bool", D.DT_BF16: "bfloat16", D.DT_INT16: "int16", D.DT_INT64: "int64", D.DT_UINT32: "uint32",
    D.DT_UINT16: "uint16", D.DT_UINT64: "uint64", D.DT_DOUBLE: "double", D.DT_COMPLEX64: "complex64",
    D.DT_COMPLEX128: "complex128",
}  # fmt: skip
AICORE_PAIRS: dict[int, tuple[int, ...]] = {
    D.DT_FLOAT16: (D.DT_FLOAT, D.DT_INT32, D.DT_UINT8, D.DT_INT8, D.DT_BOOL, D.DT_BF16, D.DT_INT16, D.DT_INT64),
    D.DT_FLOAT: (D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_BF16, D.DT_BOOL, D.DT_UINT8, D.DT_INT16, D.DT_INT8),
    D.DT_INT32: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_INT64, D.DT_BF16, D.DT_UINT32,
                 D.DT_INT16, D.DT_UINT16),
    D.DT_INT8: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_BF16, D.DT_BOOL, D.DT_INT64, D.DT_UINT32, D.DT_INT16,
                D.DT_UINT16, D.DT_UINT8),
    D.DT_UINT8: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_BF16, D.DT_UINT32, D.DT_INT16, D.DT_UINT16,
                 D.DT_INT8),
    D.DT_BOOL: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_UINT8, D.DT_INT64, D.DT_BF16, D.DT_INT8),
    D.DT_INT64: (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_UINT8, D.DT_BOOL, D.DT_BF16, D.DT_UINT32, D.DT_INT16,
                 D.DT_UINT16, D.DT_INT8),
    D.DT_BF16: (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_BOOL, D.DT_INT8, D.DT_UINT8, D.DT_INT64),
    D.DT_INT16: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT64, D.DT_INT32, D.DT_UINT32, D.DT_UINT16, D.DT_INT8, D.DT_UINT8),
    D.DT_UINT16: (D.DT_INT64, D.DT_INT32, D.DT_UINT32, D.DT_INT16, D.DT_INT8, D.DT_UINT8),
    D.DT_UINT32: (D.DT_INT64, D.DT_INT32, D.DT_INT16, D.DT_UINT16, D.DT_INT8, D.DT_UINT8),
}  # fmt: skip
AICPU_SET = frozenset(NAMES)


def cast_values(src: np.ndarray, dst: np.dtype) -> np.ndarray:
    """A C-style cast: bool is "non-zero", float -> int truncates toward zero with NaN -> 0
    (aclnnCast's documented rule), complex -> real keeps the real part."""
    if dst == np.bool_:
        return src != 0
    if src.dtype.kind == "c" and dst.kind != "c":
        src = src.real
    if src.dtype.kind in "fV" and dst.kind in "iu":
        wide = np.trunc(src.astype(np.float64))
        wide[np.isnan(wide)] = 0
        with np.errstate(invalid="ignore"):
            return wide.astype(dst)
    return src.astype(dst)


@dataclass(frozen=True, slots=True)
class CastAttrs(KernelAttrs):
    """What a Cast binary has baked in: the source and destination dtypes (its dst_type attribute is the latter)."""

    src_dtype: np.dtype
    dst_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> CastAttrs:
        src, dst = signature.dtypes
        return cls(src, dst)


def cast_kernel(ctx: BlockContext[CastAttrs], x: np.ndarray, y: np.ndarray) -> None:
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    src_dtype, dst_dtype = ctx.attrs.src_dtype, ctx.attrs.dst_dtype
    y.view(dst_dtype)[lo:hi] = cast_values(x.view(src_dtype)[lo:hi], dst_dtype)


def cast_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 2)


CAST = OpImpl(
    "Cast", cast_kernel, cast_tiling, attr_names=("dst_type",), attrs=(("dst_type", "int"),),
    bins=tuple(BinSpec((NAMES[s],), (NAMES[d],)) for s, dsts in AICORE_PAIRS.items() for d in dsts),
    kernel_attrs=CastAttrs.of,
)  # fmt: skip
CAST_AICPU = OpImpl(
    "Cast", cast_kernel, cast_tiling, engine=Engine.AICPU, attr_names=("SrcT", "DstT", "Truncate"),
    kernel_attrs=CastAttrs.of,
)  # fmt: skip


def cast(x: aclTensor, dst_dtype: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::Cast: ``x`` itself when the dtype already matches; L0StepFailed when no kernel serves the pair."""
    if x.dtype == dst_dtype:
        return x
    out = executor.alloc_tensor(x.view_shape, dst_dtype)
    if dst_dtype in AICORE_PAIRS.get(x.dtype, ()):
        if add_to_launcher_list_aicore(executor, CAST, OP_INPUT(x), OP_OUTPUT(out), OP_ATTR(DType(dst_dtype))) != 0:
            raise L0StepFailed("Cast", "the AI Core Cast was not recorded")
        return out
    if x.dtype in AICPU_SET and dst_dtype in AICPU_SET:
        attrs = OP_ATTR(DType(x.dtype), DType(dst_dtype), False)
        if add_to_launcher_list_aicpu(
            executor, CAST_AICPU, ("SrcT", "DstT", "Truncate"), OP_INPUT(x), OP_OUTPUT(out), attrs
        ):
            raise L0StepFailed("Cast", "the AI CPU Cast was not recorded")
        return out
    raise L0StepFailed("Cast", f"no kernel casts {x.dtype} to {dst_dtype}")


OPS = (CAST,)
