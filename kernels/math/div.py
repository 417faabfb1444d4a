"""aclnnDiv / aclnnDivs (+ Inplace): true division out = self / other.

L0 RealDiv: AI Core for float32, float16, bfloat16, bool and int32 inputs on A2 (bool and int32
produce float32), plus the mixed float16 / bfloat16 / float32 pairs; AI CPU
(AicpuTaskSpace("RealDiv")) for the rest (double, complex). Its output dtype depends on the caller,
as the real overloads do: the plain chain gives float32 for bool / int32 and the input dtype
otherwise; the mixed tensor path gives the input dtype only for equal dtypes (else float32); the
scalar path (and the inplace mixed path) keeps self's dtype.

aclnnDiv checks shape before dtype: nulls (161001); ranks, broadcast, out shape; self and other
dtypes; promotion defined and castable to out; no private storage format (161002). A2 chain: both
inputs in {float16, float32, bfloat16} -> Contiguous -> RealDiv; else the compute dtype is the
promoted one when floating, complex or bool, or int32 for int32 / int32, otherwise float32 ->
Contiguous -> Cast -> RealDiv; then Cast(out) -> ViewCopy.

aclnnDivs checks: nulls; private formats; the scalar's and self's dtypes; rank; out shape == self
shape; CanCast(self, out). A2 compute dtype: self's when self is floating / complex or both are
int32, else float32; bool / bool stays bool; a complex scalar promotes. Mixed float pairs (see
``DIVS_MIXED``) divide by the scalar in its own dtype (double as float32) and keep self's dtype.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import (
    ARITH_DTYPES,
    F32,
    Phase1,
    broadcast_out,
    is_complex,
    is_floating,
    launch,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
DIV_DTYPES = ARITH_DTYPES  # A2: the same 12 dtypes as Add (no unsigned beyond uint8)
REALDIV_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_BOOL, D.DT_INT32)
HALF_FLOATS = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
DIVS_MIXED = {(D.DT_FLOAT16, D.DT_FLOAT), (D.DT_FLOAT, D.DT_FLOAT16), (D.DT_BF16, D.DT_FLOAT), (D.DT_FLOAT, D.DT_BF16),
              (D.DT_BF16, D.DT_DOUBLE), (D.DT_FLOAT16, D.DT_BF16), (D.DT_BF16, D.DT_FLOAT16)}  # fmt: skip


def _true_divide(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    if a.dtype.kind in "biu":  # bool and int32 divide in float32
        a, b = a.astype(F32), b.astype(F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.true_divide(a, b, out=out)


_F = ("float16", "float", "bfloat16")
_MIXED_BINS = (
    ("bool", "bool", "float"),
    ("int32", "int32", "float"),
    *((a, b, "float") for a in _F for b in _F if a != b),  # tensor / tensor mixed: float32 out
    ("float16", "float", "float16"), ("bfloat16", "float", "bfloat16"),  # tensor / scalar mixed: self's dtype
    ("float16", "bfloat16", "float16"), ("bfloat16", "float16", "bfloat16"),
)  # fmt: skip
REAL_DIV, REAL_DIV_AICPU = binary_op("RealDiv", _true_divide, _F, _MIXED_BINS)


def real_div_l0(a: aclTensor, b: aclTensor, out_dtype: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::RealDiv into a new ``out_dtype`` tensor (the caller picks the overload's output dtype)."""
    out = broadcast_out(executor, a, b, out_dtype)
    return launch(executor, (REAL_DIV, a.dtype in REALDIV_AICORE), (REAL_DIV_AICPU, (), ()), (a, b), out)


def _float_if_int(dtype: int) -> int:
    """RealDiv(self, other, MODE_REAL_DIV): bool and int32 give float32."""
    return int(D.DT_FLOAT) if dtype in (D.DT_BOOL, D.DT_INT32) else dtype


def _check_formats(api: str, *tensors: aclTensor) -> None:
    for tensor in tensors:
        check_param(not is_private_format(tensor.storage_format), api,
                    "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.")  # fmt: skip


# -- aclnnDiv ------------------------------------------------------------------------------------
def _check_div(api: str, self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} must be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    check_dtype(api, "other", other, DIV_DTYPES)
    check_dtype(api, "self", self, DIV_DTYPES)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    check_param(can_cast(promote, out.dtype), api, "the promoted dtype cannot be cast to the out dtype.")
    _check_formats(api, self, other, out)
    return promote


def div_compute_dtype(self_dtype: int, other_dtype: int) -> int:
    """CompatibleInferDivDtype (A2): keep floating / complex / bool promotions and int32 / int32."""
    promote = promote_type(self_dtype, other_dtype)
    keep = is_floating(promote) or is_complex(promote) or promote == D.DT_BOOL
    return promote if keep or self_dtype == other_dtype == D.DT_INT32 else int(D.DT_FLOAT)


def _div_chain(self: aclTensor, other: aclTensor, out: aclTensor, inplace: bool, executor: aclOpExecutor) -> aclTensor:
    s, o = contiguous(self, executor), contiguous(other, executor)
    if self.dtype in HALF_FLOATS and other.dtype in HALF_FLOATS:
        # RealDiv(self, other, isScalar=inplace): self's dtype, or float32 for unequal dtypes out of place
        same = inplace or self.dtype == other.dtype
        out_dtype = self.dtype if same else int(D.DT_FLOAT)
        result = real_div_l0(s, o, out_dtype, executor)
    else:
        compute = div_compute_dtype(self.dtype, other.dtype)
        s, o = cast(s, compute, executor), cast(o, compute, executor)
        result = real_div_l0(s, o, _float_if_int(compute), executor)
    return cast(result, out.dtype, executor)


def _div(api: str, self: aclTensor, other: aclTensor, out: aclTensor, inplace: bool) -> Phase1:
    _check_div(api, self, other, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        view_copy(_div_chain(self, other, out, inplace, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnDivGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnDiv", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _div("aclnnDiv", self, other, out, inplace=False)


@l2_api
def aclnnInplaceDivGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnInplaceDiv"
    check_not_null(api, selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    shape = broadcast_shape(selfRef.view_shape, other.view_shape)
    check_param(shape is not None, api, "selfRef and other cannot broadcast.")
    check_param(shape == selfRef.view_shape, api, "the broadcast shape must equal selfRef's shape.")
    return _div(api, selfRef, other, selfRef, inplace=True)


# -- aclnnDivs -----------------------------------------------------------------------------------
def divs_compute_dtype(self_dtype: int, other_dtype: int) -> int:
    """The A2 Divs compute dtype (non-mixed path)."""
    keep = is_floating(self_dtype) or is_complex(self_dtype) or self_dtype == other_dtype == D.DT_INT32
    compute = self_dtype if keep else int(D.DT_FLOAT)
    if self_dtype == other_dtype == D.DT_BOOL:
        compute = self_dtype
    return promote_type(compute, other_dtype) if is_complex(other_dtype) else compute


def _divs_chain(self: aclTensor, other: aclScalar, out: aclTensor, executor: aclOpExecutor) -> aclTensor:
    s = contiguous(self, executor)
    if (self.dtype, other.dtype) in DIVS_MIXED:
        other_t = convert_to_tensor(other, D.DT_FLOAT if other.dtype == D.DT_DOUBLE else other.dtype, executor)
        result = real_div_l0(s, other_t, self.dtype, executor)
    else:
        compute = divs_compute_dtype(self.dtype, other.dtype)
        s = cast(s, compute, executor)
        other_t = convert_to_tensor(other, compute, executor)
        result = real_div_l0(s, other_t, _float_if_int(compute), executor)
    return cast(result, out.dtype, executor)


def _divs(api: str, self: aclTensor, other: aclScalar, out: aclTensor) -> Phase1:
    _check_formats(api, out, self)
    check_dtype(api, "other", other, DIV_DTYPES)
    check_dtype(api, "self", self, DIV_DTYPES)
    check_rank(api, "self", self)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    check_param(can_cast(self.dtype, out.dtype), api, "the self dtype cannot be cast to the out dtype.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        view_copy(_divs_chain(self, other, out, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnDivsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnDivs", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _divs("aclnnDivs", self, other, out)


@l2_api
def aclnnInplaceDivsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceDivs", selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    return _divs("aclnnInplaceDivs", selfRef, other, selfRef)


OPS = (REAL_DIV,)
