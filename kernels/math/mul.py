"""aclnnMul / aclnnMuls (+ Inplace): out = self * other.

aclnnMul: nulls (161001); self, other and out dtypes in the Mul list, promotion defined and
castable to out, ranks, broadcast, out shape (161002). A2 chain: a mixed pair (float16 / bfloat16
with float32) goes Contiguous -> Mul (the mixed kernel, float32 result); otherwise Contiguous ->
Cast(promote) -> Mul; then Cast(out) -> ViewCopy. The inplace variant checks the broadcast shape
against selfRef and castability to selfRef, and always casts (no mixed path on A2).

aclnnMuls: nulls; self and out dtypes; rank; out shape == self shape. No promotion check on A2
(Ascend 950 only). Compute dtype (A2): complex -> PromoteType; floating self -> self (bfloat16 ->
float32); bool self with a double scalar, or a double scalar with a float32 out -> float32; floating
scalar or bool self -> PromoteType; else self's dtype. A bfloat16 self with a double scalar runs the
L0 Muls kernel (float attribute ``value``) and stays bfloat16. An undefined compute dtype makes the
chain's Cast fail (561103), as on the card.

Fidelity note: the real A2 aclnnMuls / aclnnInplaceMuls / aclnnInplaceMul have no rank check; the
documented "rank <= 8" is kept here (161002 for a 9-D tensor).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.add import MIXED, mul_l0
from emulator.kernels.math.binary_common import (
    ARITH_DTYPES,
    BF16,
    F32,
    Phase1,
    is_complex,
    is_floating,
    to_float,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Float32,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    convert_to_tensor,
    create_executor,
    elementwise_tiling,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType


# -- L0 Muls: y = x * value (float attribute) ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class MulsAttrs(KernelAttrs):
    """What a Muls binary has baked in: the dtypes of x and y and the float attribute value."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    value: float

    @classmethod
    def of(cls, signature: KernelSignature) -> MulsAttrs:
        dx, dy = signature.dtypes
        (value,) = signature.attrs
        return cls(dx, dy, value)


def muls_kernel(ctx: BlockContext[MulsAttrs], x: np.ndarray, y: np.ndarray) -> None:
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dx, dy, value = ctx.attrs.x_dtype, ctx.attrs.y_dtype, ctx.attrs.value
    data = x.view(dx)[lo:hi]
    work = F32 if dx == BF16 else dx
    y.view(dy)[lo:hi] = (data.astype(work) * work.type(value)).astype(dy)


def muls_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 2)


_MULS_BINS = ("bfloat16", "float16", "float", "int32", "int16", "int64", "complex64")
MULS = OpImpl(
    "Muls", muls_kernel, muls_tiling, attr_names=("value",), attrs=(("value", "float"),),
    bins=tuple(BinSpec((d,), (d,)) for d in _MULS_BINS), kernel_attrs=MulsAttrs.of,
)  # fmt: skip


def muls_l0(x: aclTensor, value: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::Muls: x * value in x's dtype (AI Core only)."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    status = add_to_launcher_list_aicore(executor, MULS, OP_INPUT(x), OP_OUTPUT(out), OP_ATTR(Float32(value)))
    if status != 0:
        raise L0StepFailed("Muls", f"status {status}")
    return out


# -- aclnnMul ------------------------------------------------------------------------------------
def _check_shapes(api: str, self: aclTensor, other: aclTensor, expected: aclTensor, name: str) -> None:
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == expected.view_shape, api, f"{name} shape {list(expected.view_shape)} must be the "
                f"broadcast shape {list(shape or ())}.")  # fmt: skip


def _check_mul(api: str, self: aclTensor, other: aclTensor, out: aclTensor, out_name: str) -> int:
    check_dtype(api, "self", self, ARITH_DTYPES)
    check_dtype(api, "other", other, ARITH_DTYPES)
    check_dtype(api, out_name, out, ARITH_DTYPES)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    check_param(can_cast(promote, out.dtype), api, f"the promoted dtype cannot be cast to the {out_name} dtype.")
    _check_shapes(api, self, other, out, out_name)
    return promote


def _mul_chain(
    self: aclTensor, other: aclTensor, out: aclTensor, promote: int, mixed: bool, executor: aclOpExecutor
) -> aclTensor:
    s, o = contiguous(self, executor), contiguous(other, executor)
    if not mixed:
        s, o = cast(s, promote, executor), cast(o, promote, executor)
    return cast(mul_l0(s, o, executor), out.dtype, executor)


def _mul(api: str, self: aclTensor, other: aclTensor, out: aclTensor, inplace: bool) -> Phase1:
    promote = _check_mul(api, self, other, out, "selfRef" if inplace else "out")
    mixed = not inplace and (self.dtype, other.dtype) in MIXED
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        view_copy(_mul_chain(self, other, out, promote, mixed, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnMulGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnMul", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _mul("aclnnMul", self, other, out, inplace=False)


@l2_api
def aclnnInplaceMulGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceMul", selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    return _mul("aclnnInplaceMul", selfRef, other, selfRef, inplace=True)


# -- aclnnMuls -----------------------------------------------------------------------------------
def muls_compute_dtype(self_dtype: int, other_dtype: int, out_dtype: int) -> int:
    """InferTensorScalarDtype, A2 branch."""
    if is_complex(self_dtype) or is_complex(other_dtype):
        return promote_type(self_dtype, other_dtype)
    if is_floating(self_dtype):
        return int(D.DT_FLOAT) if self_dtype == D.DT_BF16 else self_dtype
    double = other_dtype == D.DT_DOUBLE
    if (self_dtype == D.DT_BOOL and double) or (double and out_dtype == D.DT_FLOAT):
        return int(D.DT_FLOAT)
    if is_floating(other_dtype) or self_dtype == D.DT_BOOL:
        return promote_type(self_dtype, other_dtype)
    return self_dtype


def _muls_chain(self: aclTensor, other: aclScalar, out: aclTensor, executor: aclOpExecutor) -> aclTensor:
    s = contiguous(self, executor)
    if self.dtype == D.DT_BF16 and other.dtype == D.DT_DOUBLE:
        result = muls_l0(s, to_float(other), executor)
    else:
        compute = muls_compute_dtype(self.dtype, other.dtype, out.dtype)
        other_t = convert_to_tensor(other, compute, executor)
        result = mul_l0(cast(s, compute, executor), other_t, executor)
    return cast(result, out.dtype, executor)


def _muls(api: str, self: aclTensor, other: aclScalar, out: aclTensor) -> Phase1:
    check_dtype(api, "self", self, ARITH_DTYPES)
    check_dtype(api, "out", out, ARITH_DTYPES)
    check_rank(api, "self", self)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        view_copy(_muls_chain(self, other, out, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnMulsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnMuls", self=self, other=other, out=out)
    assert self is not None and other is not None and out is not None
    return _muls("aclnnMuls", self, other, out)


@l2_api
def aclnnInplaceMulsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceMuls", selfRef=selfRef, other=other)
    assert selfRef is not None and other is not None
    return _muls("aclnnInplaceMuls", selfRef, other, selfRef)


OPS = (MULS,)
