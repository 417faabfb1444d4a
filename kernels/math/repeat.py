"""aclnnRepeat and the L0 Tile it runs on (ops-math math/tile).

L2 as the real op is written: null checks of self, repeats, out (161001); self's dtype in the SoC's
list and out's equal to it; fewer repeats than self has dims; a negative repeat; self with more
than 8 dims or more than 8 repeats (all 161002, in that order). An empty self or out, or a zero
repeat, launches nothing (out is not checked further). No repeats at all copies self into out.
Otherwise Contiguous (a 0-d self is broadcast to [1]), leading 1-axes are added up to the repeats'
count (a view), Tile, the result's shape must be out's (161002, after the graph is built) and
ViewCopy. Tile takes the repeats as an int64 host tensor; it runs on AI Core for the SoC's AI Core
dtypes and on AI CPU (attr ``Tmultiples``) otherwise: float64 and complex128 on A2. Bit-exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, block_coords, flat_offset, soc_dtypes
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.unary import check_dtype_match, check_same_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    DType,
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
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
REPEAT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_UINT8, D.DT_INT8,
                 D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_BF16, D.DT_UINT32, D.DT_UINT64)  # fmt: skip
REPEAT_DTYPES_A2 = (*REPEAT_DTYPES, D.DT_UINT16)  # A2, A3 and 310P
REPEAT_DTYPES_REGBASE = (*REPEAT_DTYPES_A2, D.DT_HIFLOAT8, D.DT_FLOAT8_E5M2, D.DT_FLOAT8_E4M3FN)
TILE_AICORE_310P = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_BF16, D.DT_INT8, D.DT_UINT8,
                    D.DT_INT16, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)  # fmt: skip
TILE_AICORE_A2 = (*TILE_AICORE_310P, D.DT_COMPLEX64)
TILE_AICORE_REGBASE = (*TILE_AICORE_A2, D.DT_HIFLOAT8, D.DT_FLOAT8_E5M2, D.DT_FLOAT8_E4M3FN)
TILE_AICORE_OTHER = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_BOOL, D.DT_BF16)


@dataclass(frozen=True, slots=True)
class TileAttrs(KernelAttrs):
    """What a Tile binary has baked in: the dtype and the shapes of x and y (the multiples are in y's)."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> TileAttrs:
        sx, _, sy = signature.shapes
        return cls(signature.dtypes[-1], sx, sy)


def tile_kernel(ctx: BlockContext[TileAttrs], x: np.ndarray, multiples: np.ndarray, y: np.ndarray) -> None:
    """y at a position is x at the position modulo x's shape, axis by axis."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    coords = [c % size for c, size in zip(block_coords(attrs.y_shape, lo, hi), attrs.x_shape, strict=True)]
    y.view(attrs.dtype)[lo:hi] = x.view(attrs.dtype)[flat_offset(coords, attrs.x_shape, hi - lo)]


TILE = OpImpl(
    "Tile", tile_kernel, movement_tiling, bins=same_dtype_bins(TILE_AICORE_A2, ("int64",)),
    input_names=("x", "multiples"), kernel_attrs=TileAttrs.of, moved_inputs=("x",),
)  # fmt: skip
TILE_AICPU = OpImpl(
    "Tile", tile_kernel, movement_tiling, engine=Engine.AICPU, attr_names=("Tmultiples",),
    input_names=("x", "multiples"), kernel_attrs=TileAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def _tile_on_ai_core(dtype: int, soc: str) -> bool:
    if soc in A2_SOCS:
        return dtype in TILE_AICORE_A2
    if soc == "Ascend310P":
        return dtype in TILE_AICORE_310P
    if soc in REGBASE_SOCS:
        return dtype in TILE_AICORE_REGBASE
    return dtype in TILE_AICORE_OTHER


def tile_l0(x: aclTensor, repeats: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::Tile(x, repeats): x's rank must not exceed the repeats' (the L2 unsqueezed it); L0StepFailed otherwise."""
    expand = len(repeats) - len(x.view_shape)
    if expand < 0:
        raise L0StepFailed("Tile", "repeats size should not be smaller than input tensor dim")
    shape = [*repeats[:expand], *(int(d) * r for d, r in zip(x.view_shape, repeats[expand:], strict=True))]
    out = executor.alloc_tensor(shape, x.dtype)
    multiples = convert_to_tensor(list(repeats), D.DT_INT64, executor)
    groups = (OP_INPUT(x, multiples), OP_OUTPUT(out))
    if _tile_on_ai_core(x.dtype, executor.ctx.soc.short_soc_version):
        status = add_to_launcher_list_aicore(executor, TILE, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, TILE_AICPU, ("Tmultiples",), *groups, OP_ATTR(DType(D.DT_INT64)))
    if status != 0:
        raise L0StepFailed("Tile", f"status {status}")
    return out


def _check(api: str, self: aclTensor, repeats: list[int], out: aclTensor) -> None:
    check_dtype(
        api, "self", self, soc_dtypes(REPEAT_DTYPES_A2, REPEAT_DTYPES, REPEAT_DTYPES_REGBASE, (*A2_SOCS, "Ascend310P"))
    )
    check_dtype_match(api, "out", out, self.dtype)
    rank = len(self.view_shape)
    check_param(
        rank <= len(repeats), api,
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of input tensor, "
        f"self {rank}, repeats {len(repeats)}.",
    )  # fmt: skip
    for i, value in enumerate(repeats):
        check_param(value >= 0, api, f"repeats expected {i + 1}th value > 0, but got {value}")
    check_rank(api, "self", self)
    check_param(len(repeats) <= MAX_DIM, api, f"repeats size should not be larger than 8. self {rank}, repeats "
                f"{len(repeats)}")  # fmt: skip


@l2_api
def aclnnRepeatGetWorkspaceSize(
    self: aclTensor | None, repeats: aclIntArray | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRepeat"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, repeats=repeats, out=out)
        assert self is not None and repeats is not None and out is not None
        values = int_array_values(repeats)
        _check(api, self, values, out)
        if is_empty(self, out) or 0 in values:
            return unique.release(0)
        if not values:
            view_copy(self, out, executor)
            return unique.release(executor.get_workspace_size())
        x = contiguous(self, executor)
        if not x.view_shape:
            x = broadcast_to_l0(x, (1,), executor)
        if len(x.view_shape) < len(values):
            x = reshape_view(executor, x, (1,) * (len(values) - len(x.view_shape)) + tuple(x.view_shape))
        result = tile_l0(x, values, executor)
        check_same_shape(api, result, out)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (TILE,)
