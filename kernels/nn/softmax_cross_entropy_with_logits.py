"""aclnnSoftmaxCrossEntropyWithLogits: per row of features [N, C] and labels,
loss = -Σ labels · log_softmax(features) ([N]) and backprop = softmax(features) - labels ([N, C]).

Checks as the real L2 orders them: null features / labels / loss / backprop (161001); each dtype in
float16 / float32 (+ bfloat16 on Ascend910B / Ascend910_93 / RegBase), loss's and backprop's equal to
features' (161002); ranks <= 8 and features and labels 2-D (161002 — the real code logs this one
with the null-pointer code but returns the parameter error). An empty features or labels returns
at once. Chain: Contiguous both -> SoftmaxCrossEntropyWithLogits (AI Core; outputs [N] and [N, C]
of features' dtype) -> ViewCopy to loss and to backprop. labels is read as broadcast to features'
shape (a [1, C] labels row serves every sample); a labels dtype other than features' finds no
binary (561103). Rows are split across the cores; float16 / bfloat16 compute in float32.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import ceil_div
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.kernels.math.reduce_common import acc_dtype
from emulator.kernels.math.row_common import RowTilingData, row_tiling
from emulator.kernels.math.soc_lists import DAV_3510
from emulator.kernels.math.unary import check_dtype_match
from emulator.kernels.nn.backward_common import GradAttrs
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
SCE_910 = (D.DT_FLOAT16, D.DT_FLOAT)
SCE_A2 = (*SCE_910, D.DT_BF16)
A2_SOCS = ("Ascend910B", "Ascend910_93")


def sce_kernel(
    ctx: BlockContext[GradAttrs], features: np.ndarray, labels: np.ndarray, loss: np.ndarray, backprop: np.ndarray
) -> None:
    data = RowTilingData.from_buffer_copy(ctx.tiling)
    (dx, dl, dy, _), (shape, l_shape, *_) = ctx.attrs.dtypes, ctx.attrs.shapes
    rows, cols = shape
    per_block = ceil_div(rows, max(data.blockNum, 1))
    lo, hi = ctx.block_idx * per_block, min((ctx.block_idx + 1) * per_block, rows)
    if lo >= hi:
        return
    work = acc_dtype(dx)
    x = features.view(dx)[: rows * cols].reshape(rows, cols)[lo:hi].astype(work)
    lab_all = labels.view(dl)[: int(np.prod(l_shape))].reshape(l_shape)
    lab = np.broadcast_to(lab_all, shape)[lo:hi].astype(work)
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=1, keepdims=True)
        log_sum = np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
        log_softmax = shifted - log_sum
        loss.view(dy)[lo:hi] = (-np.sum(lab * log_softmax, axis=1)).astype(dy)
        backprop.view(dy)[: rows * cols].reshape(rows, cols)[lo:hi] = (np.exp(log_softmax) - lab).astype(dy)


SOFTMAX_CROSS_ENTROPY_WITH_LOGITS = OpImpl(
    "SoftmaxCrossEntropyWithLogits", sce_kernel, row_tiling, input_names=("features", "labels"),
    output_names=("loss", "backprop"), bins=tuple(BinSpec((NAMES[d],) * 2, (NAMES[d],) * 2) for d in SCE_A2),
    kernel_attrs=GradAttrs.of,
)  # fmt: skip


def sce_l0(features: aclTensor, labels: aclTensor, executor: aclOpExecutor) -> tuple[aclTensor, aclTensor]:
    """l0op::SoftmaxCrossEntropyWithLogits: loss [N] and backprop [N, C] in features' dtype; labels must
    broadcast to features' shape (the InferShape step fails otherwise)."""
    if broadcast_shape(labels.view_shape, features.view_shape) != tuple(features.view_shape):
        raise L0StepFailed("InferShape", f"labels {list(labels.view_shape)} do not broadcast to features")
    loss = executor.alloc_tensor((features.view_shape[0],), features.dtype)
    backprop = executor.alloc_tensor(features.view_shape, features.dtype)
    groups = (OP_INPUT(features, labels), OP_OUTPUT(loss, backprop))
    if add_to_launcher_list_aicore(executor, SOFTMAX_CROSS_ENTROPY_WITH_LOGITS, *groups) != 0:
        raise L0StepFailed("SoftmaxCrossEntropyWithLogits", "the kernel was not recorded")
    return loss, backprop


@l2_api
def aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
    features: aclTensor | None, labels: aclTensor | None, loss: aclTensor | None, backprop: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, aclTensor* labels,
    aclTensor* loss, aclTensor* backprop, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSoftmaxCrossEntropyWithLogits"
    check_not_null(api, features=features, labels=labels, loss=loss, backprop=backprop)
    assert features is not None and labels is not None and loss is not None and backprop is not None
    soc = current_l2().op.soc
    supported = SCE_A2 if soc.short_soc_version in A2_SOCS or soc.npu_arch >= DAV_3510 else SCE_910
    tensors = (("features", features), ("labels", labels), ("loss", loss), ("backprop", backprop))
    for name, t in tensors:
        check_dtype(api, name, t, supported)
    check_dtype_match(api, "loss", loss, features.dtype)
    check_dtype_match(api, "backprop", backprop, features.dtype)
    for name, t in tensors:
        check_rank(api, name, t)
    ranks_ok = len(features.view_shape) == 2 and len(labels.view_shape) == 2
    check_param(ranks_ok, api, f"dimNum is {len(features.view_shape)}, must be 2, but check failed.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(features) or is_empty(labels):
            return unique.release(0)
        x, y = contiguous(features, executor), contiguous(labels, executor)
        loss_out, backprop_out = sce_l0(x, y, executor)
        view_copy(loss_out, loss, executor)
        view_copy(backprop_out, backprop, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SOFTMAX_CROSS_ENTROPY_WITH_LOGITS,)
