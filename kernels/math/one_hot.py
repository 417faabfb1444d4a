"""aclnnOneHot and the L0 OneHot it runs on (ops-math math/one_hot).

L2 as the real op is written (the checks come before the executor is created): null checks of self,
onValue, offValue, out (161001); self int32 / int64 (uint8 too on RegBase), out, onValue and
offValue in the value list (float16, float32, int32, int64; int8 and uint8 on RegBase) and
onValue's and offValue's dtypes out's; more than 8 dims on any tensor (7 for self on RegBase);
numClasses negative (or not positive for an empty self); axis below -1 or above self.dim(); out
not self.dim() + 1 dims or not self's shape with numClasses inserted at axis (all 161002). An empty
self or numClasses 0 launches nothing. Then Contiguous, the depth as a host tensor of self's dtype
(int32 for uint8), OneHot on AI Core (a self dtype without an AI Core kernel fails the step: 561103)
and ViewCopy. onValue and offValue are read from their first element; a class outside
[0, numClasses) gives offValue everywhere. Exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.data_movement import movement_tiling
from emulator.kernels.math.index_common import REGBASE_SOCS, block_coords, flat_offset
from emulator.kernels.math.unary import check_dtype_match
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
    block_range,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
INDEX_DTYPES = (D.DT_INT32, D.DT_INT64)
INDEX_DTYPES_REGBASE = (*INDEX_DTYPES, D.DT_UINT8)
VALUE_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_INT64)
VALUE_DTYPES_REGBASE = (*VALUE_DTYPES, D.DT_INT8, D.DT_UINT8)
REGBASE_SELF_MAX_DIM = 7


@dataclass(frozen=True, slots=True)
class OneHotAttrs(KernelAttrs):
    """What a OneHot binary has baked in: the dtypes of x and y, the shapes of x and y and the axis."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    axis: int

    @classmethod
    def of(cls, signature: KernelSignature) -> OneHotAttrs:
        (axis,) = signature.attrs
        return cls(signature.dtypes[0], signature.dtypes[-1], signature.shapes[0], signature.shapes[-1], int(axis))


def one_hot_kernel(ctx: BlockContext[OneHotAttrs], x: np.ndarray, depth: np.ndarray, on: np.ndarray,
                   off: np.ndarray, y: np.ndarray) -> None:  # fmt: skip
    """y at a position is onValue where x (at the position without the class axis) equals the class."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    axis = attrs.axis % len(attrs.y_shape)
    coords = list(block_coords(attrs.y_shape, lo, hi))
    klass = coords.pop(axis)
    labels = x.view(attrs.x_dtype)[flat_offset(coords, attrs.x_shape, hi - lo)].astype(np.int64)
    dy = attrs.y_dtype
    y.view(dy)[lo:hi] = np.where(labels == klass, on.view(dy)[0], off.view(dy)[0])


ONE_HOT = OpImpl(
    "OneHot", one_hot_kernel, movement_tiling, attr_names=("axis",), attrs=(("axis", "int"),),
    input_names=("x", "depth", "on_value", "off_value"), kernel_attrs=OneHotAttrs.of,
    bins=tuple(BinSpec((NAMES[x], NAMES[x], NAMES[v], NAMES[v]), (NAMES[v],)) for x in INDEX_DTYPES_REGBASE
               for v in VALUE_DTYPES_REGBASE),
)  # fmt: skip


def one_hot_l0(
    x: aclTensor, depth: int, on: aclTensor, off: aclTensor, axis: int, executor: aclOpExecutor
) -> aclTensor:
    """l0op::OneHot: the class axis inserted at ``axis``; L0StepFailed off the SoC's AI Core dtypes."""
    regbase = executor.ctx.soc.short_soc_version in REGBASE_SOCS
    depth_tensor = convert_to_tensor([depth], D.DT_INT32 if x.dtype == D.DT_UINT8 else x.dtype, executor)
    shape = list(x.view_shape)
    shape.insert(axis if axis >= 0 else len(shape), depth)
    out = executor.alloc_tensor(shape, on.dtype)
    if x.dtype not in (INDEX_DTYPES_REGBASE if regbase else INDEX_DTYPES):
        raise L0StepFailed("OneHot", "self dtype has no AI Core kernel")
    status = add_to_launcher_list_aicore(executor, ONE_HOT, OP_INPUT(x, depth_tensor, on, off),
                                         OP_ATTR(Int64(axis)), OP_OUTPUT(out))  # fmt: skip
    if status != 0:
        raise L0StepFailed("OneHot", f"status {status}")
    return out


def _check(api: str, self: aclTensor, classes: int, on: aclTensor, off: aclTensor, axis: int, out: aclTensor) -> None:
    regbase = current_l2().op.soc.short_soc_version in REGBASE_SOCS
    values = VALUE_DTYPES_REGBASE if regbase else VALUE_DTYPES
    check_dtype(api, "self", self, INDEX_DTYPES_REGBASE if regbase else INDEX_DTYPES)
    for name, tensor in (("out", out), ("onValue", on), ("offValue", off)):
        check_dtype(api, name, tensor, values)
    check_dtype_match(api, "onValue", on, out.dtype)
    check_dtype_match(api, "offValue", off, out.dtype)
    check_rank(api, "self", self, REGBASE_SELF_MAX_DIM if regbase else 8)
    for name, tensor in (("onValue", on), ("offValue", off), ("out", out)):
        check_rank(api, name, tensor)
    if is_empty(self):
        check_param(classes > 0, api, f"NumClasses should be greater than 0, but got {classes}.")
    else:
        check_param(classes >= 0, api, f"NumClasses should be greater and equal than 0, but got {classes}.")
    rank = len(self.view_shape)
    check_param(axis >= -1, api, f"The axis should be greater and equal than -1, but got {axis}.")
    check_param(axis <= rank, api, f"The axis should be lower and equal than {rank}, but got {axis}.")
    out_rank = len(out.view_shape)
    check_param(out_rank == rank + 1, api, f"Expected out to have {rank + 1} dimension(s), but got {out_rank}.")
    wanted = list(self.view_shape)
    wanted.insert(axis if axis >= 0 else rank, classes)
    check_param(list(out.view_shape) == wanted, api, f"out shape {list(out.view_shape)} should be {wanted}.")


@l2_api
def aclnnOneHotGetWorkspaceSize(
    self: aclTensor | None, numClasses: int, onValue: aclTensor | None, offValue: aclTensor | None, axis: int,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:  # fmt: skip
    """aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue,
    const aclTensor* offValue, int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnOneHot"
    check_not_null(api, self=self, onValue=onValue, offValue=offValue, out=out)
    assert self is not None and onValue is not None and offValue is not None and out is not None
    classes, real_axis = int(numClasses), int(axis)
    _check(api, self, classes, onValue, offValue, real_axis, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) or classes == 0:
            return unique.release(0)
        result = one_hot_l0(contiguous(self, executor), classes, onValue, offValue, real_axis, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ONE_HOT,)
