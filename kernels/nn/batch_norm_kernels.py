"""The L0 kernels under aclnnBatchNorm: BNTrainingReduce / BNTrainingUpdate (and their 3-D twins, the same
arithmetic on NCDHW), BNInfer and BatchNormV3.

Every kernel sees x as [outer, C, inner] with the channel on axis 1 (the L2 reshapes a channel-last
input to [outer, C] first) and splits the channels over the cores: a block owns whole channels, so a
per-channel reduction never crosses blocks. The statistics are float32 tensors of C elements;
weight and bias arrive as float32 (BNTrainingUpdate, BNInfer) or in x's dtype (BatchNormV3).

Numerics: sums in float64, rounded once to float32; the batch variance is the biased one
(square_sum / n - mean^2, clamped at 0); the running variance takes the unbiased one
(var * n / (n - 1), NaN for n == 1, as the kernels' batchVarScale is); running = (1 - momentum) *
running + momentum * batch; y = (x - mean) / sqrt(var + eps) * weight + bias, rounded once to x's
dtype.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.tiling import KernelSignature
from emulator.opdev import BinSpec, OpImpl, TilingContext, TilingResult, block_range, elementwise_tiling

F32 = np.dtype(np.float32)
F64 = np.float64
X_DTYPES = ("float", "float16", "bfloat16")


@dataclass(frozen=True, slots=True)
class BnAttrs(KernelAttrs):
    """x's and the parameter vectors' dtypes, x's shape, and the op's float / bool attributes in call order."""

    x_dtype: np.dtype
    p_dtype: np.dtype  # weight / scale
    r_dtype: np.dtype  # the running statistics
    x_shape: tuple[int, ...]
    attrs: tuple[float | bool, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> BnAttrs:
        dtypes = (*signature.dtypes, F32, F32, F32, F32)
        return cls(dtypes[0], dtypes[1], dtypes[3], signature.shapes[0], tuple(signature.attrs))

    @property
    def layout(self) -> tuple[int, int, int]:
        shape = self.x_shape
        return shape[0], shape[1], int(np.prod(shape[2:], dtype=np.int64))


def channel_tiling(ctx: TilingContext) -> TilingResult:
    """Channels over the cores (the elementwise split of C; x, y and the vectors share the UB)."""
    x = ctx.inputs[0]
    assert x is not None
    return elementwise_tiling(ctx, x.view_shape[1], 4)


def read_channels(ctx: BlockContext[BnAttrs], x: np.ndarray) -> tuple[slice, np.ndarray, int]:
    """This block's channel slice, x's [outer, C, inner] view as float64, and the per-channel count n."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    outer, c, inner = ctx.attrs.layout
    xs = x.view(ctx.attrs.x_dtype)[: outer * c * inner].reshape(outer, c, inner)[:, lo:hi, :].astype(F64)
    return slice(lo, hi), xs, outer * inner


def _vec(buf: np.ndarray, dtype: np.dtype, part: slice) -> np.ndarray:
    return buf.view(dtype)[part].astype(F64)[None, :, None]


def _normalise(xs: np.ndarray, mean: np.ndarray, var: np.ndarray, eps: float, scale: np.ndarray,
               shift: np.ndarray) -> np.ndarray:  # fmt: skip
    with np.errstate(divide="ignore", invalid="ignore"):
        return (xs - mean[None, :, None]) / np.sqrt(var[None, :, None] + eps) * scale + shift


def write_y(y: np.ndarray, ctx: BlockContext[BnAttrs], part: slice, values: np.ndarray) -> None:
    outer, c, inner = ctx.attrs.layout
    dtype = ctx.attrs.x_dtype
    y.view(dtype)[: outer * c * inner].reshape(outer, c, inner)[:, part, :] = values.astype(dtype)


def _stats(xs: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Batch mean and biased variance per channel, each rounded to float32 (as the kernels store them)."""
    mean = (xs.sum(axis=(0, 2)) / max(n, 1)).astype(F32).astype(F64)
    var = np.maximum((np.square(xs).sum(axis=(0, 2)) / max(n, 1)) - np.square(mean), 0).astype(F32).astype(F64)
    return mean, var


def _running(old: np.ndarray, batch: np.ndarray, momentum: float, unbias: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return ((1 - momentum) * old + momentum * batch * unbias).astype(F32)


def _unbias(n: int) -> float:
    return n / (n - 1) if n > 1 else float("nan")


def reduce_kernel(ctx: BlockContext[BnAttrs], x: np.ndarray, total: np.ndarray, square: np.ndarray) -> None:
    """BNTrainingReduce: per channel, the sum and the sum of squares (float32)."""
    part, xs, _ = read_channels(ctx, x)
    total.view(F32)[part] = xs.sum(axis=(0, 2)).astype(F32)
    square.view(F32)[part] = np.square(xs).sum(axis=(0, 2)).astype(F32)


def update_kernel(ctx: BlockContext[BnAttrs], x: np.ndarray, total: np.ndarray, square: np.ndarray, scale: np.ndarray,
                  offset: np.ndarray, mean: np.ndarray, var: np.ndarray, y: np.ndarray, mean_out: np.ndarray,
                  var_out: np.ndarray, batch_mean: np.ndarray, batch_var: np.ndarray) -> None:  # fmt: skip
    """BNTrainingUpdate(factor, epsilon): y, the updated running mean / var, the batch mean and (biased) variance."""
    factor, eps = (float(a) for a in ctx.attrs.attrs)
    part, xs, n = read_channels(ctx, x)
    bm = (total.view(F32)[part].astype(F64) / max(n, 1)).astype(F32).astype(F64)
    bv = np.maximum(square.view(F32)[part].astype(F64) / max(n, 1) - np.square(bm), 0).astype(F32).astype(F64)
    write_y(y, ctx, part, _normalise(xs, bm, bv, eps, _vec(scale, F32, part), _vec(offset, F32, part)))
    old_mean, old_var = mean.view(F32)[part].astype(F64), var.view(F32)[part].astype(F64)
    mean_out.view(F32)[part] = _running(old_mean, bm, factor, 1.0)
    var_out.view(F32)[part] = _running(old_var, bv, factor, _unbias(n))
    batch_mean.view(F32)[part], batch_var.view(F32)[part] = bm.astype(F32), bv.astype(F32)


def infer_kernel(ctx: BlockContext[BnAttrs], x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: np.ndarray,
                 var: np.ndarray, y: np.ndarray) -> None:  # fmt: skip
    """BNInfer(epsilon): y from the running statistics."""
    (eps,) = (float(a) for a in ctx.attrs.attrs)
    part, xs, _ = read_channels(ctx, x)
    rm, rv = mean.view(F32)[part].astype(F64), var.view(F32)[part].astype(F64)
    write_y(y, ctx, part, _normalise(xs, rm, rv, eps, _vec(scale, F32, part), _vec(offset, F32, part)))


def v3_kernel(ctx: BlockContext[BnAttrs], x: np.ndarray, weight: np.ndarray, bias: np.ndarray, mean: np.ndarray,
              var: np.ndarray, y: np.ndarray, mean_out: np.ndarray, var_out: np.ndarray, save_mean: np.ndarray,
              save_rstd: np.ndarray) -> None:  # fmt: skip
    """BatchNormV3(epsilon, momentum, is_training): training normalises by the batch statistics, updates the
    running ones and saves mean and rstd = 1 / sqrt(var + eps); inference uses the running ones."""
    eps, momentum, training = float(ctx.attrs.attrs[0]), float(ctx.attrs.attrs[1]), bool(ctx.attrs.attrs[2])
    part, xs, n = read_channels(ctx, x)
    p, r = ctx.attrs.p_dtype, ctx.attrs.r_dtype
    old_mean, old_var = mean.view(r)[part].astype(F64), var.view(r)[part].astype(F64)
    if not training:  # the running statistics stay as they are (the refs are not written)
        write_y(y, ctx, part, _normalise(xs, old_mean, old_var, eps, _vec(weight, p, part), _vec(bias, p, part)))
        return
    bm, bv = _stats(xs, n)
    write_y(y, ctx, part, _normalise(xs, bm, bv, eps, _vec(weight, p, part), _vec(bias, p, part)))
    mean_out.view(r)[part] = _running(old_mean, bm, momentum, 1.0).astype(r)
    var_out.view(r)[part] = _running(old_var, bv, momentum, _unbias(n)).astype(r)
    save_mean.view(F32)[part] = bm.astype(F32)
    save_rstd.view(F32)[part] = (1 / np.sqrt(bv + eps)).astype(F32)


VECTORS = ("mean", "variance")
BN_TRAINING_REDUCE = OpImpl(
    "BNTrainingReduce", reduce_kernel, channel_tiling, output_names=("sum", "square_sum"),
    bins=tuple(BinSpec((d,), ("float", "float")) for d in X_DTYPES), kernel_attrs=BnAttrs.of,
)  # fmt: skip
BN3D_TRAINING_REDUCE = OpImpl(
    "BN3DTrainingReduce", reduce_kernel, channel_tiling, output_names=("sum", "square_sum"),
    bins=tuple(BinSpec((d,), ("float", "float")) for d in X_DTYPES), kernel_attrs=BnAttrs.of,
)  # fmt: skip


def _update_op(op_type: str) -> OpImpl:
    """BNTrainingUpdate or BN3DTrainingUpdate: mean and variance are refs (read, then written back)."""
    return OpImpl(
        op_type, update_kernel, channel_tiling, input_names=("x", "sum", "square_sum", "scale", "offset", *VECTORS),
        output_names=("y", *VECTORS, "batch_mean", "batch_variance"),
        attrs=(("factor", "float"), ("epsilon", "float")), attr_names=("factor", "epsilon"), kernel_attrs=BnAttrs.of,
        bins=tuple(BinSpec((d, *("float",) * 6), (d, *("float",) * 4)) for d in X_DTYPES),
    )  # fmt: skip


BN_TRAINING_UPDATE = _update_op("BNTrainingUpdate")
BN3D_TRAINING_UPDATE = _update_op("BN3DTrainingUpdate")
BN_INFER = OpImpl(
    "BNInfer", infer_kernel, channel_tiling, input_names=("x", "scale", "offset", *VECTORS),
    attrs=(("epsilon", "float"),), attr_names=("epsilon",), kernel_attrs=BnAttrs.of,
    bins=tuple(BinSpec((d, *("float",) * 4), (d,)) for d in X_DTYPES),
)  # fmt: skip
BATCH_NORM_V3 = OpImpl(
    "BatchNormV3", v3_kernel, channel_tiling, input_names=("x", "weight", "bias", "running_mean", "running_var"),
    output_names=("y", "running_mean", "running_var", "save_mean", "save_rstd"),
    attrs=(("epsilon", "float"), ("momentum", "float"), ("is_training", "bool")),
    attr_names=("epsilon", "momentum", "is_training"), kernel_attrs=BnAttrs.of,
    bins=tuple(BinSpec((d, w, w, r, r), (d, r, r, "float", "float")) for d in X_DTYPES
               for w in dict.fromkeys((d, "float")) for r in dict.fromkeys((d, "float"))),
)  # fmt: skip

OPS = (BN_TRAINING_REDUCE, BN3D_TRAINING_REDUCE, BN_TRAINING_UPDATE, BN3D_TRAINING_UPDATE, BN_INFER, BATCH_NORM_V3)
