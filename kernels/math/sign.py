"""aclnnSign.

Null checks (161001). The dtype check is the code's, per NPU arch: a self dtype in the support list
(float64 / float32 / float16 / int32 / int64 / complex64 / complex128 / bool) must equal result's;
a self dtype outside it is refused on the A2 / A3 / RegBase parts unless it is bfloat16 (and then
result's dtype is not compared: a mismatch fails later, in the ViewCopy, with 561103), and passes
on the other parts (their AI CPU kernel takes it). Equal shapes (161002); no rank limit. Empty self
or result returns at once. Chain: Contiguous -> Cast(int32) for bool -> Sign -> Cast(bool) back ->
ViewCopy. Sign runs on AI Core for float32 / float16 / int32 / bfloat16 and on AI CPU for the rest
(the RegBase parts' int64 AI Core binary is not emulated); the sign of a complex z is z / |z| (0 for 0), of NaN NaN.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import is_a2_or_regbase
from emulator.kernels.math.unary import UnaryAttrs, check_same_shape, unary_l0, unary_op
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
SIGN_DTYPES = (D.DT_DOUBLE, D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_COMPLEX64, D.DT_COMPLEX128,
               D.DT_BOOL)  # fmt: skip
AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_BF16)
AICPU = (D.DT_INT64, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_INT8, D.DT_INT16, D.DT_UINT8)


def _sign(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    if x.dtype.kind == "c":
        magnitude = np.abs(x)
        return np.where(magnitude == 0, x.dtype.type(0), x / np.where(magnitude == 0, 1, magnitude))
    return np.sign(x)


SIGN = unary_op("Sign", _sign, AICORE, AICPU)


def sign_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Sign: AI Core for its A2 dtypes, AI CPU otherwise."""
    return unary_l0(SIGN, x, executor)


def _check_dtypes(api: str, self: aclTensor, result: aclTensor) -> None:
    listed = ", ".join(dtype_name(d) for d in SIGN_DTYPES)
    if self.dtype not in SIGN_DTYPES:
        soc = current_l2().op.soc.short_soc_version
        message = (f"On {soc}, self dtype [{dtype_name(self.dtype)}] should be in dtype support list [{listed}] "
                   "or be BF16.")  # fmt: skip
        check_param(not is_a2_or_regbase() or self.dtype == D.DT_BF16, api, message)
        return
    message = (f"Self dtype should be same as result dtype. self [{dtype_name(self.dtype)}], "
               f"result [{dtype_name(result.dtype)}]")  # fmt: skip
    check_param(self.dtype == result.dtype, api, message)


@l2_api
def aclnnSignGetWorkspaceSize(
    self: aclTensor | None, result: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnSign"
    check_not_null(api, self=self, result=result)
    assert self is not None and result is not None
    _check_dtypes(api, self, result)
    check_same_shape(api, self, result)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, result):
            return unique.release(0)
        x = contiguous(self, executor)
        boolean = x.dtype == D.DT_BOOL
        y = sign_l0(cast(x, D.DT_INT32, executor) if boolean else x, executor)
        view_copy(cast(y, D.DT_BOOL, executor) if boolean else y, result, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SIGN.aicore,)
