"""aclnnSoftmaxBackward and aclnnLogSoftmaxBackward: the gradient of a softmax (log-softmax) along dim.

SoftmaxBackward(gradOutput, output, dim): out = output · (gradOutput - Σ gradOutput · output).
LogSoftmaxBackward(gradOutput, output, dim): out = gradOutput - exp(output) · Σ gradOutput.

Both L2s: null checks (161001; LogSoftmax checks output before gradOutput); an empty gradOutput or
output returns SUCCESS before any other check (off the RegBase parts); then bfloat16 refused off the
bfloat16 SoCs, gradOutput and output in float32 / float16 / bfloat16 and of one dtype; rank <= 8 and
gradOutput's shape equal to output's and to out's; dim in [-r, r-1] (a 0-d tensor counts as rank 1;
Softmax checks dim before the shapes, LogSoftmax after) (161002). Chain: Contiguous both ->
SoftmaxGrad / LogSoftmaxGrad(axes=[dim]) (AI Core) -> Cast(out) -> ViewCopy. The kernels split the
rows across the cores with SoftmaxV2's tiling and compute half inputs in float32.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import DAV_3510, soc_supports_bf16
from emulator.kernels.math.unary import check_dtype_match
from emulator.kernels.nn.backward_common import (
    check_same_dtype,
    check_shape_equal,
    plan_grad,
    row_grad_l0,
    row_grad_op,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import create_executor, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
Phase1 = tuple[int, aclOpExecutor, int]


def _softmax_grad(dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    return y * (dy - np.sum(dy * y, axis=-1, keepdims=True))


def _log_softmax_grad(dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    return dy - np.exp(y) * np.sum(dy, axis=-1, keepdims=True)


SOFTMAX_GRAD = row_grad_op("SoftmaxGrad", _softmax_grad, ("grad_y", "softmax"), FLOATS)
LOG_SOFTMAX_GRAD = row_grad_op("LogSoftmaxGrad", _log_softmax_grad, ("grad", "x"), FLOATS)


def _check_dim(api: str, tensor: aclTensor, dim: int) -> None:
    r = max(len(tensor.view_shape), 1)
    check_param(-r <= dim < r, api, f"provided dim {dim} not in the range of input size {r}.")


def _check_shapes(api: str, gradOutput: aclTensor, output: aclTensor, out: aclTensor) -> None:
    check_rank(api, "gradOutput", gradOutput)
    check_shape_equal(api, ("gradOutput", gradOutput), ("output", output))
    check_shape_equal(api, ("gradOutput", gradOutput), ("out", out))


def _phase1(
    api: str, gradOutput: aclTensor, output: aclTensor, dim: int, out: aclTensor, checks: Callable[[], None]
) -> Phase1:
    regbase = current_l2().op.soc.npu_arch >= DAV_3510
    if regbase or not is_empty(gradOutput, output):
        checks()
    op = SOFTMAX_GRAD if api == "aclnnSoftmaxBackward" else LOG_SOFTMAX_GRAD
    if is_empty(gradOutput, output):
        with create_executor() as unique:
            return unique.release(0)
    r = max(len(gradOutput.view_shape), 1)
    return plan_grad((gradOutput, output), out, lambda t, executor: row_grad_l0(op, t[0], t[1], dim % r, executor))


@l2_api
def aclnnSoftmaxBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, output: aclTensor | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
    int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSoftmaxBackward"
    check_not_null(api, gradOutput=gradOutput, output=output, out=out)
    assert gradOutput is not None and output is not None and out is not None

    def checks() -> None:
        bf16_ok = soc_supports_bf16() or gradOutput.dtype != D.DT_BF16
        check_param(bf16_ok, api, "Input dtype of aclnnSoftmaxBackward is not support bfloat16 in current socversion.")
        check_dtype(api, "gradOutput", gradOutput, FLOATS)
        check_dtype(api, "output", output, FLOATS)
        check_dtype_match(api, "output", output, gradOutput.dtype)
        _check_dim(api, gradOutput, dim)
        _check_shapes(api, gradOutput, output, out)

    return _phase1(api, gradOutput, output, dim, out, checks)


@l2_api
def aclnnLogSoftmaxBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None, output: aclTensor | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
    int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnLogSoftmaxBackward"
    check_not_null(api, output=output, gradOutput=gradOutput, out=out)
    assert gradOutput is not None and output is not None and out is not None

    def checks() -> None:
        uses_bf16 = D.DT_BF16 in (gradOutput.dtype, output.dtype)
        check_param(soc_supports_bf16() or not uses_bf16, api, "aclnnLogSoftmaxBackward is not support bfloat16 in "
                    "current socversion.")  # fmt: skip
        check_dtype(api, "output", output, FLOATS)
        check_dtype(api, "gradOutput", gradOutput, FLOATS)
        check_same_dtype(api, ("gradOutput", gradOutput), ("output", output))
        ranks_ok = len(gradOutput.view_shape) <= 8 and len(output.view_shape) <= 8
        check_param(ranks_ok, api, "Dim of input tensor can't be greater than 8.")
        _check_shapes(api, gradOutput, output, out)
        _check_dim(api, gradOutput, dim)

    return _phase1(api, gradOutput, output, dim, out, checks)


OPS = (SOFTMAX_GRAD, LOG_SOFTMAX_GRAD)
