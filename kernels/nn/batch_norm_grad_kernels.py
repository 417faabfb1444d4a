"""The L0 kernels under aclnnBatchNormBackward: BNTrainingUpdateGrad / BNTrainingReduceGrad (and their 3-D
twins), BNInferGrad and BatchNormGradV3.

They share aclnnBatchNorm's kernel frame (batch_norm_kernels): dy and x seen as [outer, C, inner], the
channels split over the cores so a per-channel sum never crosses blocks, sums in float64. The classic
kernels take the batch statistics as the forward's classic chain saves them, (mean, variance), and
compute invstd = 1 / sqrt(variance + eps) themselves; BatchNormGradV3 takes (mean, rstd) in training,
as BatchNormV3 saves them, and (running mean, running variance) with eps in inference.

With x̂ = (x - mean) · invstd and n the elements per channel:
diff_scale = Σ dy · x̂, diff_offset = Σ dy (float32);
dx = scale · invstd · (dy - diff_offset / n - x̂ · diff_scale / n) in training, dy · scale · invstd in
inference, rounded once to dy's dtype.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.tiling import KernelSignature
from emulator.kernels.nn.batch_norm_kernels import F32, X_DTYPES, BnAttrs, channel_tiling, read_channels, write_y
from emulator.opdev import BinSpec, OpImpl

F64 = np.float64


def grad_attrs(signature: KernelSignature) -> BnAttrs:
    """dy's dtype and shape, the weight's (input 2) and the running statistics' (input 3) dtypes, the attributes."""
    dtypes = (*signature.dtypes, F32, F32, F32, F32)
    return BnAttrs(dtypes[0], dtypes[2], dtypes[3], signature.shapes[0], tuple(signature.attrs))


def _col(buf: np.ndarray, dtype: np.dtype, part: slice) -> np.ndarray:
    """A per-channel vector of this block as float64, shaped to broadcast over [outer, C, inner]."""
    return buf.view(dtype)[part].astype(F64)[None, :, None]


def _invstd(var: np.ndarray, eps: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 / np.sqrt(var + eps)


def _sums(dy: np.ndarray, xhat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Σ dy · x̂, Σ dy) per channel."""
    return (dy * xhat).sum(axis=(0, 2)), dy.sum(axis=(0, 2))


def _train_dx(dy: np.ndarray, xhat: np.ndarray, scale: np.ndarray, invstd: np.ndarray, n: int) -> np.ndarray:
    diff_scale, diff_offset = _sums(dy, xhat)
    count = max(n, 1)
    return scale * invstd * (dy - diff_offset[None, :, None] / count - xhat * diff_scale[None, :, None] / count)


def update_grad_kernel(ctx: BlockContext[BnAttrs], dy: np.ndarray, x: np.ndarray, mean: np.ndarray,
                       var: np.ndarray, diff_scale: np.ndarray, diff_offset: np.ndarray) -> None:  # fmt: skip
    """BNTrainingUpdateGrad(epsilon): Σ dy · x̂ and Σ dy per channel."""
    (eps,) = (float(a) for a in ctx.attrs.attrs)
    part, ds, _ = read_channels(ctx, dy)
    _, xs, _ = read_channels(ctx, x)
    xhat = (xs - _col(mean, F32, part)) * _invstd(_col(var, F32, part), eps)
    scale_sum, offset_sum = _sums(ds, xhat)
    diff_scale.view(F32)[part], diff_offset.view(F32)[part] = scale_sum.astype(F32), offset_sum.astype(F32)


def reduce_grad_kernel(ctx: BlockContext[BnAttrs], dy: np.ndarray, x: np.ndarray, diff_scale: np.ndarray,
                       diff_offset: np.ndarray, scale: np.ndarray, mean: np.ndarray, var: np.ndarray,
                       y: np.ndarray) -> None:  # fmt: skip
    """BNTrainingReduceGrad(epsilon): dx from the two sums UpdateGrad produced (read, not recomputed)."""
    (eps,) = (float(a) for a in ctx.attrs.attrs)
    part, ds, n = read_channels(ctx, dy)
    _, xs, _ = read_channels(ctx, x)
    invstd = _invstd(_col(var, F32, part), eps)
    xhat = (xs - _col(mean, F32, part)) * invstd
    count = max(n, 1)
    sums = _col(diff_scale, F32, part), _col(diff_offset, F32, part)
    dx = _col(scale, F32, part) * invstd * (ds - sums[1] / count - xhat * sums[0] / count)
    write_y(y, ctx, part, dx)


def infer_grad_kernel(ctx: BlockContext[BnAttrs], dy: np.ndarray, scale: np.ndarray, var: np.ndarray,
                      y: np.ndarray) -> None:  # fmt: skip
    """BNInferGrad(epsilon): dx = dy · scale / sqrt(var + eps)."""
    (eps,) = (float(a) for a in ctx.attrs.attrs)
    part, ds, _ = read_channels(ctx, dy)
    write_y(y, ctx, part, ds * _col(scale, F32, part) * _invstd(_col(var, F32, part), eps))


def grad_v3_kernel(ctx: BlockContext[BnAttrs], dy: np.ndarray, x: np.ndarray, weight: np.ndarray, r_mean: np.ndarray,
                   r_var: np.ndarray, save_mean: np.ndarray, save_rstd: np.ndarray, dx: np.ndarray,
                   dweight: np.ndarray, dbias: np.ndarray) -> None:  # fmt: skip
    """BatchNormGradV3(is_training, epsilon): dx, dweight (Σ dy · x̂) and dbias (Σ dy) in one pass; training
    normalises by the saved mean and rstd, inference by the running statistics."""
    training, eps = bool(ctx.attrs.attrs[0]), float(ctx.attrs.attrs[1])
    part, ds, n = read_channels(ctx, dy)
    _, xs, _ = read_channels(ctx, x)
    p, r = ctx.attrs.p_dtype, ctx.attrs.r_dtype
    if training:
        mean, invstd = _col(save_mean, F32, part), _col(save_rstd, F32, part)
    else:
        mean, invstd = _col(r_mean, r, part), _invstd(_col(r_var, r, part), eps)
    w = _col(weight, p, part)
    xhat = (xs - mean) * invstd
    write_y(dx, ctx, part, _train_dx(ds, xhat, w, invstd, n) if training else ds * w * invstd)
    scale_sum, offset_sum = _sums(ds, xhat)
    dweight.view(p)[part], dbias.view(p)[part] = scale_sum.astype(p), offset_sum.astype(p)


def _update_grad(op_type: str) -> OpImpl:
    return OpImpl(
        op_type, update_grad_kernel, channel_tiling, input_names=("grads", "x", "batch_mean", "batch_variance"),
        output_names=("diff_scale", "diff_offset"), attrs=(("epsilon", "float"),), attr_names=("epsilon",),
        kernel_attrs=grad_attrs, bins=tuple(BinSpec((d, d, "float", "float"), ("float", "float")) for d in X_DTYPES),
    )  # fmt: skip


def _reduce_grad(op_type: str) -> OpImpl:
    return OpImpl(
        op_type, reduce_grad_kernel, channel_tiling,
        input_names=("grads", "x", "diff_scale", "diff_offset", "scale", "batch_mean", "batch_variance"),
        output_names=("y",), attrs=(("epsilon", "float"),), attr_names=("epsilon",), kernel_attrs=grad_attrs,
        bins=tuple(BinSpec((d, d, *("float",) * 5), (d,)) for d in X_DTYPES),
    )  # fmt: skip


BN_TRAINING_UPDATE_GRAD = _update_grad("BNTrainingUpdateGrad")
BN3D_TRAINING_UPDATE_GRAD = _update_grad("BN3DTrainingUpdateGrad")
BN_TRAINING_REDUCE_GRAD = _reduce_grad("BNTrainingReduceGrad")
BN3D_TRAINING_REDUCE_GRAD = _reduce_grad("BN3DTrainingReduceGrad")
BN_INFER_GRAD = OpImpl(
    "BNInferGrad", infer_grad_kernel, channel_tiling, input_names=("grads", "scale", "batch_variance"),
    output_names=("x_backprop",), attrs=(("epsilon", "float"),), attr_names=("epsilon",), kernel_attrs=grad_attrs,
    bins=tuple(BinSpec((d, "float", "float"), (d,)) for d in X_DTYPES),
)  # fmt: skip
BATCH_NORM_GRAD_V3 = OpImpl(
    "BatchNormGradV3", grad_v3_kernel, channel_tiling,
    input_names=("dy", "x", "weight", "running_mean", "running_var", "save_mean", "save_rstd"),
    output_names=("dx", "dweight", "dbias"), attrs=(("is_training", "bool"), ("epsilon", "float")),
    attr_names=("is_training", "epsilon"), kernel_attrs=grad_attrs,
    bins=tuple(BinSpec((d, d, w, r, r, "float", "float"), (d, w, w)) for d in X_DTYPES
               for w in dict.fromkeys((d, "float")) for r in dict.fromkeys((w, "float"))),
)  # fmt: skip

OPS = (BN_TRAINING_UPDATE_GRAD, BN3D_TRAINING_UPDATE_GRAD, BN_TRAINING_REDUCE_GRAD, BN3D_TRAINING_REDUCE_GRAD,
       BN_INFER_GRAD, BATCH_NORM_GRAD_V3)  # fmt: skip
