"""aclnnPowTensorScalar / aclnnInplacePowTensorScalar, aclnnPowScalarTensor and aclnnPowTensorTensor /
aclnnInplacePowTensorTensor.

The shared dtype checks: a bfloat16 base or exponent is refused where the SoC has no bfloat16; both in
the 12-dtype support list; their PromoteType defined and castable to out (161002).

PowTensorScalar / PowScalarTensor then infer the compute dtype with the A2 tensor-scalar rule (a
float64 scalar against a float32 out gives float32; a complex scalar promotes; a floating tensor
keeps its dtype; otherwise a floating scalar or a bool tensor promotes, else the tensor's dtype wins),
refuse bool ** bool, check that dtype castable to out, the tensor's rank <= 8 and out's shape equal to
the tensor's. TensorScalar's chain: Contiguous -> Cast(compute) -> Pows for exponents 0.5, 2, 3,
-0.5, -1, -2 on float16 / float32 / bfloat16 (Ascend310P / 910B / 910_93), else Square for exponent 2
(int8 / uint8 / bool / int16 cast to int32 first), the input itself for exponent 1, else Pow with the
exponent as a one-element tensor -> Cast(out) -> ViewCopy. ScalarTensor: Contiguous(exponent) ->
Cast(compute) -> Pow(the base as a one-element tensor, exponent) -> Cast(out) -> ViewCopy.

PowTensorTensor: null checks, bool ** bool refused, then both dtypes listed, promotion and out
castability, both ranks <= 8, broadcastable, out's shape the broadcast shape; Contiguous and Cast
of both to the promoted dtype -> Pow -> Cast(out) -> ViewCopy. The in-place variants pass self as out.

Pow runs on AI Core for float32 / float16 / int32 / int8 / uint8 / bfloat16, on AI CPU for the rest.
An integer base with a negative exponent has no exact result: the emulator gives 1 for base 1,
±1 for base -1 and 0 otherwise (the value truncated toward zero).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import broadcast_out, launch, to_float
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import BinaryAttrs, binary_op, broadcast_shape
from emulator.kernels.math.soc_lists import soc_supports_bf16
from emulator.kernels.math.unary import UnaryAttrs, check_cast, check_same_shape, unary_l0, unary_op
from emulator.meta.dtypes import COMPLEX_TYPES, DataType, dtype_name, promote_type
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
POW_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE, D.DT_BOOL,
              D.DT_INT16, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)  # fmt: skip
REAL_FLOATS = (D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
POW_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_BF16)
POWS_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
POWS_EXPONENTS = (0.5, 2.0, 3.0, -0.5, -1.0, -2.0)
POWS_SOCS = ("Ascend310P", "Ascend910B", "Ascend910_93")
SQUARE_TO_INT32 = (D.DT_INT8, D.DT_UINT8, D.DT_BOOL, D.DT_INT16)
Phase1 = tuple[int, aclOpExecutor, int]


def _power(a: np.ndarray, b: np.ndarray, ctx: BlockContext[BinaryAttrs], out: np.ndarray | None) -> np.ndarray:
    if a.dtype.kind not in "iu":
        with np.errstate(divide="ignore"):  # 0 ** -x is inf, as IEEE and the vector unit give
            return np.power(a, b, out=out)
    negative = b < 0
    if not negative.any():
        return np.power(a, b, out=out)
    a_b = np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape))
    ones = np.ones((), a.dtype)
    odd = (b % 2) != 0
    minus_one = np.where(odd, -ones, ones) if a.dtype.kind == "i" else ones
    inverse = np.where(a_b == 1, ones, np.where(a_b == -1, minus_one, np.zeros((), a.dtype)))
    result = np.where(negative, inverse, np.power(a_b, np.where(negative, 0, b)))
    if out is None:
        return result.astype(a.dtype)
    out[...] = result
    return out


def _square(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return x * x


_AIC = tuple(NAMES[d] for d in POW_AICORE)
POW, POW_AICPU = binary_op("Pow", _power, _AIC)
POWS, _ = binary_op("Pows", _power, tuple(NAMES[d] for d in POWS_DTYPES))
SQUARE = unary_op("Square", _square, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_BF16),
                  (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_INT64))  # fmt: skip


def pow_l0(base: aclTensor, exponent: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Pow: the broadcast shape in base's dtype, AI Core for its dtypes, AI CPU otherwise."""
    out = broadcast_out(executor, base, exponent, base.dtype)
    return launch(executor, (POW, base.dtype in POW_AICORE), (POW_AICPU, (), ()), (base, exponent), out)


def pows_l0(base: aclTensor, exponent: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Pows (AI Core only, float16 / float32 / bfloat16)."""
    out = broadcast_out(executor, base, exponent, base.dtype)
    return launch(executor, (POWS, True), (POWS, (), ()), (base, exponent), out)


def square_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Square."""
    return unary_l0(SQUARE, x, executor)


# -- the checks ---------------------------------------------------------------------------------------------
def _listed() -> str:
    return "[" + ", ".join(dtype_name(d) for d in POW_DTYPES) + "]"


def _check_bf16(api: str, base: int, exponent: int) -> None:
    ok = soc_supports_bf16() or D.DT_BF16 not in (base, exponent)
    check_param(ok, api, "Input dtype of pow is not support bfloat16 in current socversion.")


def _check_promotable(api: str, base: int, exponent: int, out: int, first: str = "self") -> None:
    promote = promote_type(base, exponent)
    message = f"{first} dtype {dtype_name(base)} and exponent dtype {dtype_name(exponent)} can not promote dtype."
    check_param(promote != D.DT_UNDEFINED, api, message)
    check_cast(api, promote, out)


def _check_not_both_bool(api: str, base: int, exponent: int) -> None:
    both = base == D.DT_BOOL and exponent == D.DT_BOOL
    check_param(not both, api, "Self and exponent dtype are bool is not supported.")


def _check_scalar_form(api: str, base: int, exponent: int, out: aclTensor, tensor: aclTensor, compute: int) -> None:
    """CheckDtypeValid, CheckPromoteType (of the inferred compute dtype) and CheckShape of the two
    tensor-scalar forms; ``base`` / ``exponent`` are the dtypes in the C parameter order."""
    _check_bf16(api, base, exponent)
    check_param(base in POW_DTYPES, api, f"Self dtype {dtype_name(base)} should be in dtype support list {_listed()}.")
    message = f"exp dtype {dtype_name(exponent)} should be in dtype support list {_listed()}."
    check_param(exponent in POW_DTYPES, api, message)
    _check_promotable(api, base, exponent, out.dtype)
    message = f"Self dtype {dtype_name(base)} and exponent dtype {dtype_name(exponent)} can not promote dtype."
    check_param(compute != D.DT_UNDEFINED, api, message)
    _check_not_both_bool(api, base, exponent)
    check_cast(api, compute, out.dtype)
    check_rank(api, "self", tensor)
    check_same_shape(api, tensor, out)


def infer_scalar_dtype(tensor: int, scalar: int, out: int, doubled: int) -> int:
    """The A2 InferTensorScalarDtype / InferScalarTensorDtype: float32 when ``doubled`` (the exponent's
    dtype, scalar or tensor) is float64 and out float32; a complex scalar promotes; a real floating tensor
    keeps its dtype; a real floating scalar or a bool tensor promotes; otherwise the tensor's dtype."""
    if doubled == D.DT_DOUBLE and out == D.DT_FLOAT:
        return int(D.DT_FLOAT)
    if scalar in COMPLEX_TYPES:
        return promote_type(tensor, scalar)
    if tensor in REAL_FLOATS:
        return tensor
    if scalar in REAL_FLOATS or tensor == D.DT_BOOL:
        return promote_type(tensor, scalar)
    return tensor


# -- PowTensorScalar ----------------------------------------------------------------------------------------
def _uses_pows(x: aclTensor, exponent: float) -> bool:
    soc = current_l2().op.soc.short_soc_version
    return exponent in POWS_EXPONENTS and x.dtype in POWS_DTYPES and soc in POWS_SOCS


def _tensor_scalar_phase1(
    api: str, self: aclTensor | None, exponent: aclScalar | None, out: aclTensor | None
) -> Phase1:
    check_not_null(api, self=self, exponent=exponent, out=out)
    assert self is not None and exponent is not None and out is not None
    compute = infer_scalar_dtype(self.dtype, exponent.dtype, out.dtype, exponent.dtype)
    _check_scalar_form(api, self.dtype, exponent.dtype, out, self, compute)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = cast(contiguous(self, executor), compute, executor)
        value = to_float(exponent)
        if _uses_pows(x, value):
            result = pows_l0(x, convert_to_tensor(exponent, compute, executor), executor)
        elif value == 2.0:
            result = square_l0(cast(x, D.DT_INT32, executor) if x.dtype in SQUARE_TO_INT32 else x, executor)
        elif value == 1.0:
            result = x
        else:
            result = pow_l0(x, convert_to_tensor(exponent, compute, executor), executor)
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnPowTensorScalarGetWorkspaceSize(
    self: aclTensor | None, exponent: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tensor_scalar_phase1("aclnnPowTensorScalar", self, exponent, out)


@l2_api
def aclnnInplacePowTensorScalarGetWorkspaceSize(
    self: aclTensor | None, exponent: aclScalar | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tensor_scalar_phase1("aclnnInplacePowTensorScalar", self, exponent, self)


# -- PowScalarTensor ----------------------------------------------------------------------------------------
@l2_api
def aclnnPowScalarTensorGetWorkspaceSize(
    self: aclScalar | None, exponent: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent,
    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnPowScalarTensor"
    check_not_null(api, self=self, exponent=exponent, out=out)
    assert self is not None and exponent is not None and out is not None
    compute = infer_scalar_dtype(exponent.dtype, self.dtype, out.dtype, exponent.dtype)
    _check_scalar_form(api, self.dtype, exponent.dtype, out, exponent, compute)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(exponent):
            return unique.release(0)
        e = cast(contiguous(exponent, executor), compute, executor)
        result = pow_l0(convert_to_tensor(self, compute, executor), e, executor)
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


# -- PowTensorTensor ----------------------------------------------------------------------------------------
def _tensor_tensor_phase1(
    api: str, self: aclTensor | None, exponent: aclTensor | None, out: aclTensor | None
) -> Phase1:
    check_not_null(api, self=self, exponent=exponent, out=out)
    assert self is not None and exponent is not None and out is not None
    _check_bf16(api, self.dtype, exponent.dtype)
    _check_not_both_bool(api, self.dtype, exponent.dtype)
    check_dtype(api, "self", self, POW_DTYPES)
    check_dtype(api, "exponent", exponent, POW_DTYPES)
    _check_promotable(api, self.dtype, exponent.dtype, out.dtype)
    check_rank(api, "self", self)
    check_rank(api, "exponent", exponent)
    shape = broadcast_shape(self.view_shape, exponent.view_shape)
    message = f"Broadcast {list(self.view_shape)} and {list(exponent.view_shape)} failed."
    check_param(shape is not None, api, message)
    message = f"Shape of out should be {list(shape or ())}, but current is {list(out.view_shape)}."
    check_param(shape == out.view_shape, api, message)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, exponent):
            return unique.release(0)
        promote = promote_type(self.dtype, exponent.dtype)
        base = cast(contiguous(self, executor), promote, executor)
        power = cast(contiguous(exponent, executor), promote, executor)
        view_copy(cast(pow_l0(base, power, executor), out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnPowTensorTensorGetWorkspaceSize(
    self: aclTensor | None, exponent: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tensor_tensor_phase1("aclnnPowTensorTensor", self, exponent, out)


@l2_api
def aclnnInplacePowTensorTensorGetWorkspaceSize(
    self: aclTensor | None, exponent: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tensor_tensor_phase1("aclnnInplacePowTensorTensor", self, exponent, self)


OPS = (POW, POWS, SQUARE.aicore)
