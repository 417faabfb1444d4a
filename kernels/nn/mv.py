"""aclnnMv: a matrix times a vector, over the MatMulV3 chain of aclnnMm.

Checks in the real order: null self / vec / out (161001); out's dtype equal to vec's, then self's
equal to vec's unless self is empty; the Cube dtype rule (self, vec and out in BF16 F16 F32) and
cubeMathType (161002; 4, "FP32 add", is routed to KEEP_DTYPE first, as the A2 code does); self 2-D,
vec 1-D of self's column count, out 1-D of self's row count (161002).

An empty out launches nothing; an empty self with a non-empty out (m == 0) gives zeros (ZerosLike).
Otherwise: Contiguous(self), Contiguous(vec), Unsqueeze(vec, -1) to (m, 1), the matmul chain (Cast to
the compute dtype by cubeMathType, MatMulV3), Cast(out), Reshape to (n,), ViewCopy.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.matmul import CUBE_MATH_TYPES, KEEP_DTYPE, MM_DTYPES, USE_FP32_ADD, matmul_chain
from emulator.kernels.math.unary import check_dtype_match
from emulator.kernels.math.zero import zeros_like_l0
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l0_label, l2_api, reshape_view, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty


def _check_shape(api: str, self: aclTensor, vec: aclTensor, out: aclTensor) -> None:
    """OP_CHECK_WRONG_DIMENSION, then the expected vec / out sizes."""
    for name, tensor, rank in (("self", self, 2), ("vec", vec, 1), ("out", out, 1)):
        dims = len(tensor.view_shape)
        check_param(dims == rank, api, f"{name} dim {dims} should be {rank}.")
    n, m = self.view_shape
    for name, tensor, size in (("vec", vec, m), ("out", out, n)):
        message = f"{name} shape {list(tensor.view_shape)} should be [{size}]."
        check_param(tuple(tensor.view_shape) == (size,), api, message)


@l2_api
def aclnnMvGetWorkspaceSize(
    self: aclTensor | None, vec: aclTensor | None, out: aclTensor | None, cubeMathType: int
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnMv"
    mode = KEEP_DTYPE if int(cubeMathType) == USE_FP32_ADD else int(cubeMathType)
    check_not_null(api, self=self, vec=vec, out=out)
    assert self is not None and vec is not None and out is not None
    check_dtype_match(api, "out", out, vec.dtype)
    if not is_empty(self):
        check_dtype_match(api, "self", self, vec.dtype)
    for name, tensor in (("self", self), ("vec", vec), ("out", out)):
        check_dtype(api, name, tensor, MM_DTYPES)
    check_param(mode in CUBE_MATH_TYPES, api, f"cubeMathType {mode} is not supported.")
    _check_shape(api, self, vec, out)
    n, m = self.view_shape
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(out):
            return unique.release(0)
        if is_empty(self):
            with l0_label("ZerosLike"):
                zeros = zeros_like_l0(contiguous(out, executor), executor)  # shape and dtype only
                view_copy(zeros, out, executor)
            return unique.release(executor.get_workspace_size())
        result = matmul_chain(self, vec, out, mode, (n, m), (m, 1), (n, 1), executor)
        result = reshape_view(executor, result, tuple(out.view_shape))
        with l0_label("ViewCopy"):
            view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())
