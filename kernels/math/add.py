"""aclnnAdd / aclnnInplaceAdd: out = self + alpha * other.

L2 as the real op is written: null checks (161001), dtype support, promotion, alpha and output
castability, broadcast and rank checks (161002), the empty-tensor shortcut, then the A2 L0 chain —
Contiguous, Cast to the promoted type, Add (or the mixed-precision Add, or Axpy for alpha != 1 on
float32 / int32 / float16, or Mul by alpha then Add), Cast to the output dtype and ViewCopy into
``out``. The L0 Add runs on AI Core for its A2 dtypes and on AI CPU for int16, float64, complex128.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.args import Group
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Float32,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
ADD_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT32, D.DT_INT64, D.DT_INT16, D.DT_INT8, D.DT_UINT8,
              D.DT_BOOL, D.DT_COMPLEX128, D.DT_COMPLEX64, D.DT_BF16)  # fmt: skip
AICPU_ADD = (D.DT_INT16, D.DT_DOUBLE, D.DT_COMPLEX128)
MIXED = {(D.DT_FLOAT16, D.DT_FLOAT), (D.DT_FLOAT, D.DT_FLOAT16), (D.DT_BF16, D.DT_FLOAT), (D.DT_FLOAT, D.DT_BF16)}
AXPY_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16)
INTEGRAL = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)


@dataclass(frozen=True, slots=True)
class AxpyAttrs(BinaryAttrs):
    """What an Axpy binary has baked in: the binary dtypes and shapes, and the float attribute alpha."""

    alpha: float

    @classmethod
    def of(cls, signature: KernelSignature) -> AxpyAttrs:
        d1, d2, dy = signature.dtypes
        s1, s2, sy = signature.shapes
        (alpha,) = signature.attrs
        return cls(d1, d2, dy, s1, s2, sy, alpha)


def _add(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    if a.dtype == np.bool_:
        return np.logical_or(a, b, out=out)
    return np.add(a, b, out=out)


def _mul(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    if a.dtype == np.bool_:
        return np.logical_and(a, b, out=out)
    return np.multiply(a, b, out=out)


def _axpy(a: np.ndarray, b: np.ndarray, ctx: BlockContext[AxpyAttrs], out: np.ndarray | None) -> np.ndarray:
    alpha = ctx.attrs.alpha
    if a.dtype.kind in "iu":
        return np.add(a, (b.astype(np.float32) * np.float32(alpha)).astype(a.dtype), out=out)
    return np.add(a, b * a.dtype.type(alpha), out=out)


_AIC = ("float", "float16", "int32", "int8", "uint8", "int64", "bfloat16", "bool", "complex64")
_MIXED_BINS = (("float16", "float", "float"), ("float", "float16", "float"), ("bfloat16", "float", "float"),
               ("float", "bfloat16", "float"))  # fmt: skip
ADD, ADD_AICPU = binary_op("Add", _add, _AIC, _MIXED_BINS)
MUL, MUL_AICPU = binary_op("Mul", _mul, _AIC, _MIXED_BINS)
AXPY, _ = binary_op(
    "Axpy", _axpy, ("float", "int32", "float16"), attrs=(("alpha", "float"),), kernel_attrs=AxpyAttrs.of
)


def _launch_binary(
    impl_aic: OpImpl,
    impl_cpu: OpImpl,
    a: aclTensor,
    b: aclTensor,
    executor: aclOpExecutor,
    attrs: tuple[Group, ...] = (),
) -> aclTensor:
    shape = broadcast_shape(a.view_shape, b.view_shape)
    if shape is None:
        raise L0StepFailed(impl_aic.op_type, f"{list(a.view_shape)} and {list(b.view_shape)} do not broadcast")
    out_dtype = D.DT_FLOAT if (a.dtype, b.dtype) in MIXED else a.dtype
    out = executor.alloc_tensor(shape, out_dtype)
    groups = (OP_INPUT(a, b), OP_OUTPUT(out), *attrs)
    if a.dtype in AICPU_ADD:
        status = add_to_launcher_list_aicpu(executor, impl_cpu, (), *groups)
    else:
        status = add_to_launcher_list_aicore(executor, impl_aic, *groups)
    if status != 0:
        raise L0StepFailed(impl_aic.op_type, f"status {status}")
    return out


def add_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Add."""
    return _launch_binary(ADD, ADD_AICPU, a, b, executor)


def mul_l0(a: aclTensor, b: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Mul."""
    return _launch_binary(MUL, MUL_AICPU, a, b, executor)


def axpy_l0(a: aclTensor, b: aclTensor, alpha: float, executor: aclOpExecutor) -> aclTensor:
    """l0op::Axpy: a + alpha * b with alpha a float attribute."""
    return _launch_binary(AXPY, AXPY, a, b, executor, (OP_ATTR(Float32(alpha)),))


def _alpha_value(alpha: aclScalar) -> float:
    value = alpha.value()
    return float(np.real(value)) if value is not None else 1.0


def check_add_params(api: str, self: aclTensor, other: aclTensor, alpha: aclScalar, out: aclTensor) -> int:
    for name, tensor in (("self", self), ("other", other), ("out", out)):
        check_dtype(api, name, tensor, ADD_DTYPES)
    promote = promote_type(self.dtype, other.dtype)
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    if promote == D.DT_BOOL:
        check_param(alpha.dtype in (*INTEGRAL, D.DT_BOOL), api, "alpha must be integral or bool for a bool result.")
    else:
        check_param(can_cast(alpha.dtype, promote), api, "alpha dtype cannot be cast to the promoted dtype.")
    check_param(can_cast(promote, out.dtype), api, "the promoted dtype cannot be cast to the out dtype.")
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} must be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    return promote


@l2_api
def aclnnAddGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnAdd", self=self, other=other, alpha=alpha, out=out)
    assert self is not None and other is not None and alpha is not None and out is not None
    promote = check_add_params("aclnnAdd", self, other, alpha, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        _add_chain(self, other, alpha, out, promote, executor)
        return unique.release(executor.get_workspace_size())


def _add_chain(
    self: aclTensor, other: aclTensor, alpha: aclScalar, out: aclTensor, promote: int, executor: aclOpExecutor
) -> aclTensor:
    s = contiguous(self, executor)
    o = contiguous(other, executor)
    alpha_value = _alpha_value(alpha)
    alpha_is_one = not (alpha_value > 1 or alpha_value < 1)
    if (self.dtype, other.dtype) in MIXED and alpha_is_one:
        result = add_l0(s, o, executor)
    else:
        s, o = cast(s, promote, executor), cast(o, promote, executor)
        if alpha_is_one:
            result = add_l0(s, o, executor)
        elif promote in AXPY_DTYPES:
            result = axpy_l0(s, o, alpha_value, executor)
        else:
            alpha_tensor = convert_to_tensor(alpha, promote, executor)
            result = add_l0(s, mul_l0(o, alpha_tensor, executor), executor)
    return view_copy(cast(result, out.dtype, executor), out, executor)


@l2_api
def aclnnInplaceAddGetWorkspaceSize(
    selfRef: aclTensor | None,
    other: aclTensor | None,
    alpha: aclScalar | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
    const aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null("aclnnInplaceAdd", selfRef=selfRef, other=other, alpha=alpha)
    assert selfRef is not None and other is not None and alpha is not None
    shape = broadcast_shape(selfRef.view_shape, other.view_shape)
    check_param(shape == selfRef.view_shape, "aclnnInplaceAdd", "the broadcast shape must equal selfRef's shape.")
    promote = check_add_params("aclnnInplaceAdd", selfRef, other, alpha, selfRef)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(selfRef, other):
            return unique.release(0)
        _add_chain(selfRef, other, alpha, selfRef, promote, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ADD, MUL, AXPY)
