"""aclnnLogSoftmax: out = x - max - log(sum(exp(x - max))) along dim.

L2 as the real op is written (ops-nn activation/log_softmax_v2): null self / out (161001); then dim
in [-r, r-1] (a 0-d self counts as rank 1); bfloat16 refused off the A2 / A3 SoCs; self and out in
float32 / float16 / float64 / bfloat16 (they may differ); out's dtype castable both ways; ranks <= 8
and out shaped like self (161002). An empty self launches nothing. Otherwise Contiguous, Cast(out
dtype), LogSoftmaxV2 (attr axes = [dim]; AI Core for float32 / float16 / bfloat16, AI CPU for
float64), Cast and ViewCopy.

The kernel is SoftmaxV2's (kernels/math/softmax.py): the same tiling and R-split template, with
the last pass writing x - max - log(sum) instead of exp(x - max) / sum. float16 / bfloat16 compute
in float32 and round once.
"""

from __future__ import annotations

import ctypes

import numpy as np

from emulator.device.interface import Engine
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.softmax import (
    SOFTMAX_AIC,
    SOFTMAX_DTYPES,
    SoftmaxAttrs,
    SoftmaxV2TilingData,
    row_softmax_kernel,
    softmax_tiling,
    split_stats,
)
from emulator.meta.dtypes import DataType, can_cast
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType


def _log_softmax_rows(v: np.ndarray, work: np.dtype) -> np.ndarray:
    x = v.astype(work, copy=False)
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _log_softmax_split(x: np.ndarray, y: np.ndarray, work: np.dtype, step: int) -> None:
    """The R-split template: max and sum of exp over the row's tiles, then x - max - log(sum) per tile."""
    stats = split_stats(x, work, step)
    if stats is None:
        return
    tiles, peak, total = stats
    log_total = np.log(total)
    for lo, hi in tiles:
        y[..., lo:hi] = x[..., lo:hi].astype(work) - peak[..., None] - log_total[..., None]


log_softmax_kernel = row_softmax_kernel(_log_softmax_rows, _log_softmax_split)

LOG_SOFTMAX_V2 = OpImpl(
    "LogSoftmaxV2", log_softmax_kernel, softmax_tiling, attrs=(("axes", "list_int"),), attr_names=("axes",),
    bins=tuple(BinSpec((d,), (d,)) for d in ("float", "float16", "bfloat16")),
    kernel_json={"opParaSize": ctypes.sizeof(SoftmaxV2TilingData)}, kernel_attrs=SoftmaxAttrs.of,
)  # fmt: skip
LOG_SOFTMAX_V2_AICPU = OpImpl("LogSoftmaxV2", log_softmax_kernel, softmax_tiling, engine=Engine.AICPU,
                              attr_names=("axes",), kernel_attrs=SoftmaxAttrs.of)  # fmt: skip


def log_softmax_v2_l0(x: aclTensor, dim: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::LogSoftmaxV2(x, axes=[dim]): AI Core for F32 F16 BF16, AI CPU for F64."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    io = (OP_INPUT(x), OP_OUTPUT(out), OP_ATTR([dim]))
    if x.dtype in SOFTMAX_AIC:
        status = add_to_launcher_list_aicore(executor, LOG_SOFTMAX_V2, *io)
    else:
        status = add_to_launcher_list_aicpu(executor, LOG_SOFTMAX_V2_AICPU, ("axes",), *io)
    if status != 0:
        raise L0StepFailed("LogSoftmaxV2", f"status {status}")
    return out


def _check(api: str, self: aclTensor, dim: int, out: aclTensor, bf16_soc: bool) -> None:
    r = max(len(self.view_shape), 1)
    check_param(-r <= dim <= r - 1, api, f"provided dim {dim} not in the range of input size {r}.")
    uses_bf16 = D.DT_BF16 in (self.dtype, out.dtype)
    check_param(bf16_soc or not uses_bf16, api, "aclnnLogSoftmax is not support bfloat16 in current socversion.")
    check_dtype(api, "self", self, SOFTMAX_DTYPES)
    check_dtype(api, "out", out, SOFTMAX_DTYPES)
    check_param(can_cast(out.dtype, self.dtype), api, f"out dtype {out.dtype} can not cast to self dtype {self.dtype}.")
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_param(out.view_shape == self.view_shape, api, f"out shape {list(out.view_shape)} must equal self's.")


@l2_api
def aclnnLogSoftmaxGetWorkspaceSize(
    self: aclTensor | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnLogSoftmax"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    _check(api, self, int(dim), out, current_l2().op.soc.short_soc_version in BF16_SOCS)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = cast(contiguous(self, executor), out.dtype, executor)
        result = log_softmax_v2_l0(x, int(dim), executor)
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


BF16_SOCS = ("Ascend910B", "Ascend910_93")
OPS = (LOG_SOFTMAX_V2,)
