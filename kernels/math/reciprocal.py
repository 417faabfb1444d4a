"""aclnnReciprocal / aclnnInplaceReciprocal.

Null checks (161001); self in the 12-dtype input list, out in the float / complex output list, then
a bfloat16 self or out refused where the SoC has no bfloat16; equal storage formats; rank <= 8 for
self and out, equal shapes (161002). In-place: selfRef in the output list (without bfloat16 off the
bfloat16 SoCs) first, then the out-of-place checks. Empty self returns at once. Chain: Contiguous ->
Cast(float32) for a self dtype outside the output list -> Reciprocal -> Cast(out) -> ViewCopy. The
kernel runs on AI Core for float32 / float16 / bfloat16 and on AI CPU for float64 / complex;
1 / 0 is +inf (IEEE), as the vector unit gives.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import soc_supports_bf16
from emulator.kernels.math.trig import TRIG_IN, TRIG_OUT, TRIG_OUT_910, check_bf16_soc, float_chain
from emulator.kernels.math.unary import UnaryAttrs, check_same_shape, unary_op
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType


def _reciprocal(x: np.ndarray, ctx: BlockContext[UnaryAttrs]) -> np.ndarray:
    return np.reciprocal(x)


RECIPROCAL = unary_op(
    "Reciprocal", _reciprocal, (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16), (D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128),
    half_in_fp32=True,
)  # fmt: skip


def _reciprocal_phase1(api: str, self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, TRIG_IN)
    check_dtype(api, "out", out, TRIG_OUT)
    check_bf16_soc(api, "Self", self)
    check_bf16_soc(api, "Out", out)
    check_param(self.storage_format == out.storage_format, api, "Format of input and output should be equal, "
                f"self [{self.storage_format}], out [{out.storage_format}].")  # fmt: skip
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_same_shape(api, self, out)
    return float_chain(self, out, RECIPROCAL, TRIG_OUT)


@l2_api
def aclnnReciprocalGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    return _reciprocal_phase1("aclnnReciprocal", self, out)


@l2_api
def aclnnInplaceReciprocalGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceReciprocal"
    check_not_null(api, selfRef=selfRef)
    assert selfRef is not None
    check_dtype(api, "selfRef", selfRef, TRIG_OUT if soc_supports_bf16() else TRIG_OUT_910)
    return _reciprocal_phase1(api, selfRef, selfRef)


OPS = (RECIPROCAL.aicore,)
