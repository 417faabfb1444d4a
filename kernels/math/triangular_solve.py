"""aclnnTriangularSolve: solve A X = self (or A^T X = self) for triangular A, batched with broadcasting.

Checks in the real order: null self / A / xOut (561103: the real null check returns
ACLNN_ERR_INNER_NULLPTR; mOut may be null); self, A, xOut (and mOut) dtypes in F32 F64 C64 C128 and
equal to self's; self, A, xOut 2-D to 8-D; A square in its last two dims; self's rows equal to A's;
the batch dims broadcast; xOut of the broadcast batch x (m, n); mOut 2-D to 8-D of the broadcast
batch x (m, m) (all 161002). An empty A or self launches nothing.

Chain: Contiguous(self), Contiguous(A); BroadcastTo self to xOut's shape when they differ; with mOut,
BroadcastTo A to mOut's shape and ViewCopy it to mOut (mOut is the broadcast A, as documented);
``unitriangular`` (float32 only, else 161002) replaces A's diagonal by ones as A * (1 - I) + I (the
real chain builds I with Eye and 1 - I with OnesLike and Sub; here both are host tensors copied to
the device); then the AI CPU MatrixTriangularSolve (attributes lower = !upper, adjoint = transpose;
without mOut A keeps its own batch dims and broadcasts in the kernel) and ViewCopy to xOut.
``transpose`` is the adjoint: for complex A the conjugate transpose, as TF's kernel behind it solves.
A singular triangular A gives inf / NaN, as a substitution does. Computed in float64 (complex128).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.add import add_l0, mul_l0
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Bool,
    OpImpl,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    copy_to_npu,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null_inner, check_param, is_empty

D = DataType
DTYPES = (D.DT_FLOAT, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)
ATTR_NAMES = ("lower", "adjoint")


@dataclass(frozen=True, slots=True)
class TriangularSolveAttrs(KernelAttrs):
    """What the AI CPU MatrixTriangularSolve kernel is given: dtypes and shapes of A, rhs and X, and the attrs."""

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[tuple[int, ...], ...]
    lower: bool
    adjoint: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> TriangularSolveAttrs:
        lower, adjoint = signature.attrs
        return cls(signature.dtypes, signature.shapes, bool(lower), bool(adjoint))


def _solve(a: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """Substitution over the rows of a batch of triangular systems a x = b (a is (..., m, m), b (..., m, n))."""
    m = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:], np.result_type(a, b))
    order = range(m) if lower else range(m - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            done = slice(0, i) if lower else slice(i + 1, m)
            acc = b[..., i, :] - np.einsum("...k,...kn->...n", a[..., i, done], x[..., done, :])
            x[..., i, :] = acc / a[..., i, i][..., None]
    return x


def triangular_solve_kernel(ctx: BlockContext[TriangularSolveAttrs], a: np.ndarray, rhs: np.ndarray,
                            out: np.ndarray) -> None:  # fmt: skip
    """One AI CPU task: every matrix of the batch, in float64 / complex128, rounded once."""
    (da, db, dx), (sa, sb, sx) = ctx.attrs.dtypes, ctx.attrs.shapes
    wide = np.complex128 if da.kind == "c" else np.float64
    mat = a.view(da)[: int(np.prod(sa))].reshape(sa).astype(wide)
    b = rhs.view(db)[: int(np.prod(sb))].reshape(sb).astype(wide)
    lower = ctx.attrs.lower
    if ctx.attrs.adjoint:
        mat, lower = np.conj(np.swapaxes(mat, -1, -2)), not lower
    out.view(dx)[: int(np.prod(sx))].reshape(sx)[...] = _solve(mat, b, lower).astype(dx)


MATRIX_TRIANGULAR_SOLVE = OpImpl(
    "MatrixTriangularSolve", triangular_solve_kernel, engine=Engine.AICPU, attr_names=ATTR_NAMES,
    input_names=("matrix", "rhs"), output_names=("output",), kernel_attrs=TriangularSolveAttrs.of,
)  # fmt: skip


def triangular_solve_l0(rhs: aclTensor, a: aclTensor, upper: bool, transpose: bool, shape: tuple[int, ...],
                        executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::TriangularSolve: the AI CPU MatrixTriangularSolve (OP_INPUT(A, self), lower = !upper)."""
    out = executor.alloc_tensor(shape, rhs.dtype)
    groups = (OP_INPUT(a, rhs), OP_OUTPUT(out), OP_ATTR(Bool(not upper), Bool(transpose)))
    status = add_to_launcher_list_aicpu(executor, MATRIX_TRIANGULAR_SOLVE, ATTR_NAMES, *groups)
    if status != 0:
        raise L0StepFailed("TriangularSolve", f"status {status}")
    return out


def _unit_diagonal(a: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """A * (1 - I) + I with I the (m, m) identity (CalcuUnitriangular)."""
    m = a.view_shape[-1]
    eye = np.eye(m, dtype=np.float32)
    identity = reshape_view(executor, copy_to_npu(convert_to_tensor(eye.reshape(-1), D.DT_FLOAT, executor), executor),
                            (m, m))  # fmt: skip
    mask = reshape_view(executor, copy_to_npu(convert_to_tensor((1 - eye).reshape(-1), D.DT_FLOAT, executor),
                                              executor), (m, m))  # fmt: skip
    return add_l0(mul_l0(a, mask, executor), identity, executor)


def _check_ranks(api: str, **tensors: aclTensor) -> None:
    for name, tensor in tensors.items():
        dims = len(tensor.view_shape)
        check_param(dims >= 2, api, f"{name} dim {dims} should be at least 2.")
    for name, tensor in tensors.items():
        dims = len(tensor.view_shape)
        check_param(dims <= 8, api, f"{name} dim {dims} should be at most 8.")


def _check(api: str, self: aclTensor, a: aclTensor, x_out: aclTensor, m_out: aclTensor | None) -> tuple[int, ...]:
    """The dtype and shape checks; returns the broadcast shape of A (batch x (m, m))."""
    for name, tensor in (("self", self), ("A", a), ("xOut", x_out)):
        check_dtype(api, name, tensor, DTYPES)
    check_dtype_match(api, "A", a, self.dtype)
    check_dtype_match(api, "xOut", x_out, self.dtype)
    if m_out is not None:
        check_dtype(api, "mOut", m_out, DTYPES)
        check_dtype_match(api, "mOut", m_out, self.dtype)
    _check_ranks(api, self=self, A=a, xOut=x_out)
    rows, cols = a.view_shape[-2:]
    check_param(rows == cols, api, f"A must be batchs of square matrices, but they are {rows} by {cols} matrices.")
    b_rows, b_cols = self.view_shape[-2:]
    message = (f"Incompatible matrix sizes for triangular_solve: each A matrix is {rows} by {cols} but each b "
               f"matrix is {b_rows} by {b_cols}.")  # fmt: skip
    check_param(b_rows == rows, api, message)
    broadcast = broadcast_shape(a.view_shape, (*self.view_shape[:-1], b_rows))
    message = "Broadcast fail, the size of tensor a must match the size of tensor b at non-singleton diemnsion."
    check_param(broadcast is not None, api, message)
    assert broadcast is not None
    x_shape = (*broadcast[:-1], b_cols)
    message = f"xOut shape {list(x_out.view_shape)} should be {list(x_shape)}."
    check_param(tuple(x_out.view_shape) == x_shape, api, message)
    if m_out is not None:
        _check_ranks(api, mOut=m_out)
        message = f"mOut shape {list(m_out.view_shape)} should be {list(broadcast)}."
        check_param(tuple(m_out.view_shape) == tuple(broadcast), api, message)
    return tuple(broadcast)


@l2_api
def aclnnTriangularSolveGetWorkspaceSize(
    self: aclTensor | None,
    A: aclTensor | None,
    upper: bool,
    transpose: bool,
    unitriangular: bool,
    xOut: aclTensor | None,
    mOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor* self, const aclTensor* A, bool upper,
    bool transpose, bool unitriangular, aclTensor* xOut, aclTensor* mOut, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnTriangularSolve"
    check_not_null_inner(api, self=self, A=A, xOut=xOut)
    assert self is not None and A is not None and xOut is not None
    _check(api, self, A, xOut, mOut)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(A, self):
            return unique.release(0)
        rhs, a = contiguous(self, executor), contiguous(A, executor)
        if rhs.view_shape != xOut.view_shape:
            rhs = broadcast_to_l0(rhs, xOut.view_shape, executor)
        if mOut is not None:
            if a.view_shape != mOut.view_shape:
                a = broadcast_to_l0(a, mOut.view_shape, executor)
            view_copy(a, mOut, executor)
        if unitriangular:
            check_param(a.dtype == D.DT_FLOAT, api, "unitriangular mode only support float.")
            a = _unit_diagonal(a, executor)
        x = triangular_solve_l0(rhs, a, bool(upper), bool(transpose), tuple(xOut.view_shape), executor)
        view_copy(x, xOut, executor)
        return unique.release(executor.get_workspace_size())
