"""aclnnGeluV2: GELU with approximate = 0 ("none": x · Φ(x), the erf form) or 1 ("tanh").

Null checks x, y (161001); y's dtype must be x's, a bfloat16 x is refused where the SoC has no
bfloat16, x in float32 / float16 / bfloat16; equal shapes, no rank limit (161002). Any approximate
other than 1 means "none", as the real code maps it. Empty x returns at once. Chain: Contiguous ->
GeluV2(approximate as a string attribute) -> ViewCopy; AI Core only, half inputs computing in
float32. The erf form is computed as x/2 · erfc(−x/√2), which keeps its precision for large
negative x.
"""

from __future__ import annotations

import math

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.soc_lists import soc_supports_bf16
from emulator.kernels.math.unary import check_dtype_match, check_same_shape, plan_unary, unary_l0, unary_op
from emulator.kernels.nn.attr_unary import AttrValues
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import Str, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param

D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
TANH = 1
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_COEFF = 0.044715
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _gelu_v2(x: np.ndarray, ctx: BlockContext[AttrValues]) -> np.ndarray:
    (approximate,) = ctx.attrs.values
    t = x.dtype.type
    if approximate == "tanh":
        inner = t(SQRT_2_OVER_PI) * (x + t(GELU_COEFF) * x * x * x)
        return t(0.5) * x * (t(1) + np.tanh(inner))
    tail = np.asarray(_erfc(x.astype(np.float64) * -math.sqrt(0.5)), dtype=np.float64)
    return (0.5 * x.astype(np.float64) * tail).astype(x.dtype)


GELU_V2 = unary_op(
    "GeluV2", _gelu_v2, FLOATS, half_in_fp32=True, temps=2, attrs=(("approximate", "str"),),
    kernel_attrs=AttrValues.of,
)  # fmt: skip


def gelu_v2_l0(x: aclTensor, approximate: str, executor: aclOpExecutor) -> aclTensor:
    """l0op::GeluV2(x, approximate) (AI Core only)."""
    return unary_l0(GELU_V2, x, executor, attrs=(Str(approximate),))


@l2_api
def aclnnGeluV2GetWorkspaceSize(
    x: aclTensor | None, approximate: int, y: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnGeluV2"
    check_not_null(api, x=x, y=y)
    assert x is not None and y is not None
    check_dtype_match(api, "y", y, x.dtype)
    bf16_ok = x.dtype != D.DT_BF16 or soc_supports_bf16()
    check_param(bf16_ok, api, "Input dtype of gelu_v2 is not support bfloat16 in current socversion.")
    check_dtype(api, "x", x, FLOATS)
    check_same_shape(api, x, y)
    mode = "tanh" if approximate == TANH else "none"
    return plan_unary(x, y, lambda t, executor: gelu_v2_l0(t, mode, executor))


OPS = (GELU_V2.aicore,)
