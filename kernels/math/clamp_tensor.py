"""aclnnClampTensor / ClampMinTensor / InplaceClampMinTensor / ClampMaxTensor / InplaceClampMaxTensor:
out = min(max(self, min), max) with tensor bounds that broadcast against self.

The same header and L0 as the scalar clamps (kernels/math/clamp.py: ClipByValueV2, AI Core for
float16, float32, int32, int64, bfloat16, AI CPU otherwise). The one-bound forms check their bound
for null first (161001). Then aclnnClampTensorCommon, in its order: nulls of self and out and "at
least one bound" (161001); self and out dtypes in the SoC's list (bfloat16 on A2 / A3 / RegBase
only); ranks of self, out and the given bounds <= 8 (161002). An empty self or an empty bound
returns at once. The compute dtype is PromoteType(self, min, max) (a bound may be bool), which must
be castable to out and lie in the list, and out is checked against the list again; the broadcast of
self and the bounds must exist and equal out's shape (161002). The chain: Contiguous bounds (a
missing one becomes the dtype's extreme as a host tensor) -> Contiguous self -> Cast each to the
promoted dtype -> BroadcastTo for an input whose shape is not the broadcast and whose dtype runs on
AI CPU (the AI Core kernel broadcasts itself) -> ClipByValueV2 -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.errors import AclnnParamNullptr
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.cast import cast
from emulator.kernels.math.clamp import CLIP_AICORE, bound_tensor, clamp_dtypes, clip_by_value_l0, clip_shape
from emulator.kernels.math.unary import check_cast
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
Phase1 = tuple[int, aclOpExecutor | None, int]
SHAPE_MISMATCH = "the size of tensor {} {} must match the size of tensor {} {}."


def _check_params(api: str, self: aclTensor, lo: aclTensor | None, hi: aclTensor | None, out: aclTensor) -> None:
    """CheckParams of the tensor forms after the null checks: dtypes of self and out, then the ranks."""
    supported = clamp_dtypes()
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    for name, bound in (("clipValueMin", lo), ("clipValueMax", hi)):
        if bound is not None:
            check_rank(api, name, bound)


def _promote(api: str, self: aclTensor, lo: aclTensor | None, hi: aclTensor | None, out: aclTensor) -> int:
    """ClampTensorPromoteType: self's dtype promoted with each given bound's."""
    promoted = self.dtype
    for bound in (lo, hi):
        if bound is not None:
            promoted = promote_type(promoted, bound.dtype)
    check_param(promoted != D.DT_UNDEFINED, api, "promote type fail.")
    check_cast(api, promoted, out.dtype)
    supported = clamp_dtypes()
    listed = ", ".join(dtype_name(d) for d in supported)
    message = f"promote dtype not implemented for {dtype_name(promoted)}, should be in dtype support list [{listed}]."
    check_param(promoted in supported, api, message)
    check_dtype(api, "out", out, supported)
    return promoted


def _broadcast(
    api: str, self: aclTensor, lo: aclTensor | None, hi: aclTensor | None, out: aclTensor
) -> tuple[int, ...]:
    """ClampTensorPromoteShape: self with min, that with max; the result must be out's shape."""
    shape = tuple(self.view_shape)
    left = "self"
    for name, bound in (("min", lo), ("max", hi)):
        if bound is None:
            continue
        wider = clip_shape(shape, bound.view_shape)
        message = SHAPE_MISMATCH.format(left, list(shape), name, list(bound.view_shape))
        check_param(wider is not None, api, message)
        assert wider is not None
        shape, left = wider, "self/min"
    message = (f"expected tensor for out to have same size as tensor for broadcast, but {list(out.view_shape)} "
               f"does not equal {list(shape)}.")  # fmt: skip
    check_param(tuple(out.view_shape) == shape, api, message)
    return shape


def _to_shape(x: aclTensor, shape: tuple[int, ...], executor: aclOpExecutor) -> aclTensor:
    """AddBroadcastNode: BroadcastTo only where the AI CPU kernel (which does not broadcast) will run."""
    if tuple(x.view_shape) == shape or x.dtype in CLIP_AICORE:
        return x
    return broadcast_to_l0(x, shape, executor)


def clamp_tensor_common(
    api: str, self: aclTensor | None, lo: aclTensor | None, hi: aclTensor | None, out: aclTensor | None
) -> Phase1:
    """aclnnClampTensorCommon."""
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    if lo is None and hi is None:
        message = f"{api}: clamp: At least one of 'min' or 'max' must not be None."
        raise AclnnParamNullptr(message, param="clipValueMin")
    _check_params(api, self, lo, hi, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, *(b for b in (lo, hi) if b is not None)):
            return unique.release(0)
        dtype = _promote(api, self, lo, hi, out)
        shape = _broadcast(api, self, lo, hi, out)
        low = contiguous(lo, executor) if lo is not None else bound_tensor(None, dtype, False, executor)
        high = contiguous(hi, executor) if hi is not None else bound_tensor(None, dtype, True, executor)
        x = cast(contiguous(self, executor), dtype, executor)
        low, high = cast(low, dtype, executor), cast(high, dtype, executor)
        x, low, high = (_to_shape(t, shape, executor) for t in (x, low, high))
        result = cast(clip_by_value_l0(x, low, high, executor), out.dtype, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnClampTensorGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclTensor | None, clipValueMax: aclTensor | None, out: aclTensor | None
) -> Phase1:
    """aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
    const aclTensor* clipValueMax, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return clamp_tensor_common("aclnnClampTensor", self, clipValueMin, clipValueMax, out)


@l2_api
def aclnnClampMinTensorGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclTensor | None, out: aclTensor | None
) -> Phase1:
    """aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnClampMinTensor", clipValueMin=clipValueMin)
    return clamp_tensor_common("aclnnClampMinTensor", self, clipValueMin, None, out)


@l2_api
def aclnnInplaceClampMinTensorGetWorkspaceSize(selfRef: aclTensor | None, clipValueMin: aclTensor | None) -> Phase1:
    """aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* clipValueMin,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceClampMinTensor", clipValueMin=clipValueMin)
    return clamp_tensor_common("aclnnInplaceClampMinTensor", selfRef, clipValueMin, None, selfRef)


@l2_api
def aclnnClampMaxTensorGetWorkspaceSize(self: aclTensor | None, max: aclTensor | None, out: aclTensor | None) -> Phase1:
    """aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnClampMaxTensor", max=max)
    return clamp_tensor_common("aclnnClampMaxTensor", self, None, max, out)


@l2_api
def aclnnInplaceClampMaxTensorGetWorkspaceSize(selfRef: aclTensor | None, max: aclTensor | None) -> Phase1:
    """aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceClampMaxTensor", max=max)
    return clamp_tensor_common("aclnnInplaceClampMaxTensor", selfRef, None, max, selfRef)


OPS = ()
