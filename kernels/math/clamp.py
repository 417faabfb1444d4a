"""aclnnClamp / aclnnClampMin / aclnnClampMax / aclnnInplaceClampMax: out = min(max(self, min), max).

L0 ClipByValueV2(x, clipValueMin, clipValueMax): y = min(max(x, lo), hi), elementwise (lo above hi gives
hi everywhere, a NaN x stays NaN); AI Core for float16, float32, int32, int64, bfloat16, the AI CPU
kernel otherwise (int8, int16, uint8, double). The bounds arrive as 0-d host tensors of x's dtype.

L2 (the scalar forms; the Ascend 950 (RegBase) differs only in the compute dtype, see below):
ClampMin / ClampMax / InplaceClampMax first check their one bound for null; then nulls of self and
out, and "at least one bound" for Clamp (161001); self and out dtypes in the list; out shape == self
shape; ranks <= 8 (161002). An empty self returns at once. Then the compute dtype is out's:
CanCast(self, out) (161002), a missing bound becomes the dtype's extreme (±inf for floats, the
integer limits otherwise), the bounds are converted to out's dtype on the host (a C-style cast), and
the chain is Contiguous -> Cast(out) -> ClipByValueV2 -> ViewCopy. On the Ascend 950 the compute dtype
is instead self's dtype combined with the bounds' (a float bound lifts an integer self to float32; the
result must be castable to out and in the list, 161002), and the result is Cast to out before the
ViewCopy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, TensorDesc
from emulator.errors import AclnnParamNullptr, L0StepFailed
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import _read, broadcast_shape
from emulator.kernels.math.fill import scalar_to_tensor
from emulator.kernels.math.reduce_common import pieces
from emulator.kernels.math.soc_lists import is_regbase, list_v2
from emulator.kernels.math.unary import check_cast, check_same_shape
from emulator.meta.dtypes import COMPLEX_TYPES, FLOATING_TYPES, DataType, dtype_name, numpy_dtype, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    RangeKernel,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    elementwise_tiling,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
BF16 = np.dtype(ml_dtypes.bfloat16)
CLAMP_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_INT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE)
CLIP_AICORE = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_BF16)


def clamp_dtypes() -> tuple[int, ...]:
    """GetDtypeSupportList: bfloat16 joins on the A2 / A3 and RegBase parts."""
    return list_v2((*CLAMP_DTYPES, D.DT_BF16), CLAMP_DTYPES)


@dataclass(frozen=True, slots=True)
class ClipAttrs(KernelAttrs):
    """What a ClipByValueV2 binary has baked in: x's dtype (the bounds and y share it) and the four shapes
    (the AI Core kernel broadcasts x and the bounds to y; the scalar forms pass 0-d bounds)."""

    dtype: np.dtype
    shapes: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> ClipAttrs:
        return cls(signature.dtypes[0], tuple(signature.shapes))


def _clip_range(ctx: BlockContext[ClipAttrs], start: int, stop: int, x: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                y: np.ndarray) -> None:  # fmt: skip
    """y[start:stop] = min(max(x, lo), hi); max and min are exact in any dtype, so which numpy call (and
    which block) computes an element does not change it.

    The range is cut into hyper-rectangles contiguous in y (``pieces``) and each is computed from
    broadcast views of x and the bounds in y's shape: row-broadcast bounds are read where they lie
    instead of being copied out to the range's length first."""
    dtype, (sx, slo, shi, sy) = ctx.attrs.dtype, ctx.attrs.shapes
    if dtype == BF16:  # widened exactly to float32, selected there, narrowed back exactly
        xs, low, high = (_read(buf, dtype, shape, sy, start, stop) for buf, shape in ((x, sx), (lo, slo), (hi, shi)))
        wide = np.float32
        y.view(dtype)[start:stop] = np.minimum(np.maximum(xs.astype(wide), low.astype(wide)), high.astype(wide)).astype(
            dtype
        )
        return
    shape = sy or (1,)  # a 0-d y: one element, indexed as a 1-d range (a 0-d index would give a scalar)
    xs, low, high = (_broadcast_view(buf, dtype, each, shape) for buf, each in ((x, sx), (lo, slo), (hi, shi)))
    dest = y.view(dtype)[: int(np.prod(shape, dtype=np.int64))].reshape(shape)
    for index in pieces(start, stop, shape):
        out = dest[index]
        np.maximum(xs[index], low[index], out=out)  # two passes, in place, as numpy's own clip makes them
        np.minimum(out, high[index], out=out)


def _broadcast_view(buf: np.ndarray, dtype: np.dtype, shape: tuple[int, ...], out_shape: tuple[int, ...]) -> np.ndarray:
    """A read-only view of a dense tensor broadcast to ``out_shape`` (leading 1s as numpy pads them)."""
    count = int(np.prod(shape, dtype=np.int64))
    padded = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    return np.broadcast_to(buf.view(dtype)[:count].reshape(padded), out_shape)


clip_kernel = RangeKernel(_clip_range)


def clip_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 4)


def clip_shape(*shapes: Sequence[int]) -> tuple[int, ...] | None:
    """The broadcast of x's and the bounds' shapes; None when they do not broadcast."""
    shape: tuple[int, ...] | None = ()
    for each in shapes:
        shape = None if shape is None else broadcast_shape(shape, each)
    return shape


def infer_clip(inputs: Sequence[TensorDesc | None], attrs: Sequence[object]) -> list[tuple[int, ...]]:
    """InferShape of ClipByValueV2 (AI Core): the broadcast of x and the two bounds."""
    shape = clip_shape(*(desc.view_shape for desc in inputs if desc is not None))
    if shape is None:
        raise ValueError("shapes do not broadcast")
    return [shape]


CLIP_BY_VALUE = OpImpl(
    "ClipByValueV2", clip_kernel, clip_tiling, input_names=("x", "clip_value_min", "clip_value_max"),
    infer_shape=infer_clip, bins=tuple(BinSpec((NAMES[d],) * 3, (NAMES[d],)) for d in CLIP_AICORE),
    kernel_attrs=ClipAttrs.of,
)  # fmt: skip
CLIP_BY_VALUE_AICPU = OpImpl(
    "ClipByValueV2", clip_kernel, clip_tiling, engine=Engine.AICPU,
    input_names=("x", "clip_value_min", "clip_value_max"), kernel_attrs=ClipAttrs.of,
)  # fmt: skip


def clip_by_value_l0(x: aclTensor, lo: aclTensor, hi: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::ClipByValueV2: output of x's dtype; AI Core broadcasts x and the bounds, AI CPU keeps x's
    shape (the L2 broadcast its inputs beforehand)."""
    aicore = x.dtype in CLIP_AICORE
    shape = clip_shape(x.view_shape, lo.view_shape, hi.view_shape) if aicore else x.view_shape
    if shape is None:
        raise L0StepFailed("ClipByValueV2", "infershape failed.")
    out = executor.alloc_tensor(shape, x.dtype)
    groups = (OP_INPUT(x, lo, hi), OP_OUTPUT(out))
    if aicore:
        status = add_to_launcher_list_aicore(executor, CLIP_BY_VALUE, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, CLIP_BY_VALUE_AICPU, (), *groups)
    if status != 0:
        raise L0StepFailed("ClipByValueV2", f"status {status}")
    return out


def bound_tensor(value: aclScalar | None, dtype: int, upper: bool, executor: aclOpExecutor) -> aclTensor:
    """NormalizeMax/MinScalar then ConvertToTensor: the given bound, or the dtype's extreme."""
    if value is None:
        target = numpy_dtype(dtype)
        assert target is not None, "every clamp dtype has a numpy dtype"
        if target.kind in "iu":
            info = np.iinfo(target)
            extreme = executor.alloc_scalar(info.max if upper else info.min, D.DT_INT64)
        else:
            extreme = executor.alloc_scalar(np.inf if upper else -np.inf, D.DT_DOUBLE)
        if extreme is None:
            raise L0StepFailed("AllocScalar", "no host dtype")
        value = extreme
    return scalar_to_tensor(value, dtype, executor)


def _scalar_default(dtype: int) -> int:
    """GetScalarDefaultDtype: complex64 for a complex scalar, float32 for a floating one, else its own."""
    if dtype in COMPLEX_TYPES:
        return int(D.DT_COMPLEX64)
    return int(D.DT_FLOAT) if dtype in FLOATING_TYPES else dtype


def _combine(higher: int, lower: int) -> int:
    """CombineCategoriesWithComplex(tensor dtype, scalar dtype): the tensor's category wins unless the scalar's
    is higher (complex over real, floating over integral / bool)."""
    if higher in COMPLEX_TYPES:
        return higher
    if lower in COMPLEX_TYPES:
        complex_of: dict[int, int] = {D.DT_BF16: D.DT_COMPLEX64, D.DT_FLOAT16: D.DT_COMPLEX32,
                                      D.DT_FLOAT: D.DT_COMPLEX64, D.DT_DOUBLE: D.DT_COMPLEX128}  # fmt: skip
        return int(complex_of.get(higher, D.DT_UNDEFINED)) if higher in FLOATING_TYPES else lower
    if higher in FLOATING_TYPES:
        return higher
    if higher == D.DT_BOOL or lower in FLOATING_TYPES:
        return promote_type(higher, lower)
    return higher if higher != D.DT_UNDEFINED else lower


def regbase_promote(api: str, self_dtype: int, lo: aclScalar | None, hi: aclScalar | None, out_dtype: int) -> int:
    """ClampPromoteType (the RegBase parts): self's dtype combined with the bounds' default dtypes; it must be
    castable to out and lie in the support list."""
    bounds = [_scalar_default(b.dtype) for b in (lo, hi) if b is not None]
    scalar = bounds[0] if len(bounds) == 1 else promote_type(bounds[0], bounds[1])
    promoted = _combine(self_dtype, scalar)
    check_param(promoted != D.DT_UNDEFINED, api, "promote type fail.")
    check_cast(api, promoted, out_dtype)
    supported = clamp_dtypes()
    listed = ", ".join(dtype_name(d) for d in supported)
    message = f"promote dtype not implemented for {dtype_name(promoted)}, should be in dtype support list [{listed}]."
    check_param(promoted in supported, api, message)
    return promoted


def clamp_common(
    api: str, self: aclTensor | None, lo: aclScalar | None, hi: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor, int]:
    """aclnnClampCommon (the A2 branch)."""
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    if lo is None and hi is None:
        message = f"{api}: clamp: At least one of 'min' or 'max' must not be None."
        raise AclnnParamNullptr(message, param="clipValueMin")
    supported = clamp_dtypes()
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_same_shape(api, self, out)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        regbase = is_regbase()
        if regbase:
            dtype = regbase_promote(api, self.dtype, lo, hi, out.dtype)
        else:
            check_cast(api, self.dtype, out.dtype)
            dtype = out.dtype
        low, high = bound_tensor(lo, dtype, False, executor), bound_tensor(hi, dtype, True, executor)
        x = cast(contiguous(self, executor), dtype, executor)
        result = clip_by_value_l0(x, low, high, executor)
        view_copy(cast(result, out.dtype, executor) if regbase else result, out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnClampGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclScalar | None, clipValueMax: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
    const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return clamp_common("aclnnClamp", self, clipValueMin, clipValueMax, out)


@l2_api
def aclnnClampMinGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnClampMin", clipValueMin=clipValueMin)
    return clamp_common("aclnnClampMin", self, clipValueMin, None, out)


@l2_api
def aclnnClampMaxGetWorkspaceSize(
    self: aclTensor | None, clipValueMax: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnClampMax", clipValueMax=clipValueMax)
    return clamp_common("aclnnClampMax", self, None, clipValueMax, out)


@l2_api
def aclnnInplaceClampMaxGetWorkspaceSize(
    selfRef: aclTensor | None, clipValueMax: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* clipValueMax,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceClampMax", clipValueMax=clipValueMax)
    return clamp_common("aclnnInplaceClampMax", selfRef, None, clipValueMax, selfRef)


OPS = (CLIP_BY_VALUE,)
