"""Shared pieces of the binary-op family (Adds, Sub, Mul, Div, Eq, Gt, Cast): scalar reads, the A2
tensor-scalar promotion rule, the alpha checks, L0 dispatch between AI Core and AI CPU, and the
comparison kernel (bool output) that the plain binary kernel cannot serve.

Scalar reads mirror aclScalar's ToFloat / ToDouble / ToFp16 / ToBf16 / ToBool: the stored value,
real part for complex scalars, converted as a C cast would (ToFloat rounds to float32).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, Engine
from emulator.engine.args import Group
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.elementwise import BinaryAttrs, _read, binary_tiling, broadcast_shape, infer_broadcast
from emulator.meta.dtypes import COMPLEX_TYPES, FLOATING_TYPES, INTEGRAL_TYPES, DataType, can_cast, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
)
from emulator.opdev.checks import check_param

D = DataType
BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.dtype(np.float32)
# The aclnn dtype support list shared by Add / Sub / Mul / Div on A2 (12 dtypes).
ARITH_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT32, D.DT_INT64, D.DT_INT16, D.DT_INT8, D.DT_UINT8,
                D.DT_BOOL, D.DT_COMPLEX128, D.DT_COMPLEX64, D.DT_BF16)  # fmt: skip
Phase1 = tuple[int, aclOpExecutor, int]  # what a phase-1 body returns: (workspaceSize, executor, status)


def is_floating(dtype: int) -> bool:
    return dtype in FLOATING_TYPES


def is_complex(dtype: int) -> bool:
    return dtype in COMPLEX_TYPES


def _real(scalar: aclScalar) -> float:
    value = scalar.value()
    if value is None:
        return 0.0
    if np.iscomplexobj(value):
        return float(np.real(value))
    return float(value)


def to_double(scalar: aclScalar) -> float:
    """aclScalar::ToDouble."""
    return _real(scalar)


def to_float(scalar: aclScalar) -> float:
    """aclScalar::ToFloat: the value rounded to float32."""
    with np.errstate(over="ignore"):
        return float(np.float32(_real(scalar)))


def to_fp16(scalar: aclScalar) -> float:
    with np.errstate(over="ignore"):
        return float(np.float16(_real(scalar)))


def to_bf16(scalar: aclScalar) -> float:
    return float(ml_dtypes.bfloat16(_real(scalar)))


def to_bool(scalar: aclScalar) -> bool:
    value = scalar.value()
    return bool(value) if value is not None else False


def alpha_is_one(alpha: aclScalar) -> bool:
    """The A2 "alpha == 1" test: ToFloat() is neither > 1 nor < 1."""
    value = to_float(alpha)
    return not (value > 1 or value < 1)


def tensor_scalar_promote(self_dtype: int, other_dtype: int, out_dtype: int) -> int:
    """The A2 promotion of Adds / Subs: the tensor's dtype wins unless the scalar is
    complex, or floating against an integral / bool tensor."""
    if is_complex(self_dtype) or is_complex(other_dtype):
        return promote_type(self_dtype, other_dtype)
    if is_floating(self_dtype):
        return self_dtype
    if other_dtype == D.DT_DOUBLE and out_dtype == D.DT_FLOAT:
        return int(D.DT_FLOAT)
    if is_floating(other_dtype) or self_dtype == D.DT_BOOL:
        return promote_type(self_dtype, other_dtype)
    return self_dtype


def check_alpha_and_out(api: str, promote: int, alpha: aclScalar, out_dtype: int) -> None:
    """Add / Sub CheckPromoteType: promote defined, alpha castable to it, it castable to out."""
    check_param(promote != D.DT_UNDEFINED, api, "self and other dtypes cannot be promoted.")
    if promote == D.DT_BOOL:
        integral = alpha.dtype in (*INTEGRAL_TYPES, D.DT_BOOL)
        check_param(integral, api, "alpha must be integral or bool for a bool result.")
    else:
        check_param(can_cast(alpha.dtype, promote), api, "alpha dtype cannot be cast to the promoted dtype.")
    check_param(can_cast(promote, out_dtype), api, "the promoted dtype cannot be cast to the out dtype.")


def launch(
    executor: aclOpExecutor,
    aicore: tuple[OpImpl, bool],
    aicpu: tuple[OpImpl, tuple[str, ...], tuple[Group, ...]],
    inputs: Sequence[aclTensor],
    out: aclTensor,
    attrs: tuple[Group, ...] = (),
) -> aclTensor:
    """Record one L0 kernel on AI Core (``aicore = (impl, supported)``) or else on AI CPU; ``out``, or
    L0StepFailed when the kernel was not recorded."""
    impl, supported = aicore
    if supported:
        status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(*inputs), OP_OUTPUT(out), *attrs)
    else:
        cpu_impl, names, cpu_attrs = aicpu
        status = add_to_launcher_list_aicpu(executor, cpu_impl, names, OP_INPUT(*inputs), OP_OUTPUT(out), *cpu_attrs)
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def broadcast_out(executor: aclOpExecutor, a: aclTensor, b: aclTensor, dtype: int) -> aclTensor:
    """The L0 output of a broadcasting binary kernel (its InferShape fails when the shapes do not broadcast)."""
    shape = broadcast_shape(a.view_shape, b.view_shape)
    if shape is None:
        raise L0StepFailed("InferShape", f"{list(a.view_shape)} and {list(b.view_shape)} do not broadcast")
    return executor.alloc_tensor(shape, dtype)


# -- comparison kernels (Equal, Greater): bool output, inputs compared in their own dtype ----------
Compare = Callable[[np.ndarray, np.ndarray], np.ndarray]


def compare_kernel(compute: Compare) -> Callable[[BlockContext[BinaryAttrs], np.ndarray, np.ndarray, np.ndarray], None]:
    def kernel(ctx: BlockContext[BinaryAttrs], x1: np.ndarray, x2: np.ndarray, y: np.ndarray) -> None:
        lo, hi = block_range(ctx.tiling, ctx.block_idx)
        if lo >= hi:
            return
        attrs = ctx.attrs
        a = _read(x1, attrs.x1_dtype, attrs.x1_shape, attrs.y_shape, lo, hi)
        b = _read(x2, attrs.x2_dtype, attrs.x2_shape, attrs.y_shape, lo, hi)
        if BF16 in (a.dtype, b.dtype):  # bfloat16 widens exactly to float32
            a, b = a.astype(F32), b.astype(F32)
        y.view(attrs.y_dtype)[lo:hi] = compute(a, b)

    return kernel


def compare_op(op_type: str, compute: Compare, aicore: Sequence[str]) -> tuple[OpImpl, OpImpl]:
    """The AI Core op (bins: same-dtype inputs, bool output) and the AI CPU op of a comparison."""
    kernel = compare_kernel(compute)
    bins = tuple(BinSpec((d, d), ("bool",)) for d in aicore)
    aicore_impl = OpImpl(
        op_type, kernel, binary_tiling, infer_shape=infer_broadcast, bins=bins, input_names=("x1", "x2"),
        kernel_attrs=BinaryAttrs.of,
    )  # fmt: skip
    aicpu_impl = OpImpl(
        op_type, kernel, binary_tiling, infer_shape=infer_broadcast, engine=Engine.AICPU, input_names=("x1", "x2"),
        kernel_attrs=BinaryAttrs.of,
    )  # fmt: skip
    return aicore_impl, aicpu_impl
