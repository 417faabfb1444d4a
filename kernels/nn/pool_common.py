"""What MaxPool and AvgPool2d share: the 2-d pooling geometry, its kernel and its tiling.

Both see their input as [N, C, H, W] (a 3-d [C, H, W] self is viewed with N = 1, as the real ops
unsqueeze it) and pool over windows of the padded input (``conv_common.windows``). Ceil mode may
give a last window that runs past the padded input: it is padded further on the high side, with
-inf (max) or 0 (average, whose divisor counts only what the rules below allow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.tiling import KernelSignature
from emulator.kernels.nn.conv_common import F32, band_of, band_tiling_for, out_rows, pad_or_crop, tensor_of, windows
from emulator.opdev import TilingContext, TilingResult

MIN_BLOCK_WINDOW_READS = 1 << 16  # a block reads at least this many window elements


def pool_out_size(size: int, k: int, lo: int, hi: int, stride: int, ceil: bool) -> int:
    """PoolingOutShape of the real ops: floor or ceil, and a ceil window must start inside input + lo."""
    room = size + lo + hi - (k - 1) - 1 + (stride - 1 if ceil else 0)
    out = room // stride + 1  # floor division, as the real divRtn rounds toward -inf
    if ceil and (out - 1) * stride >= size + lo:
        out -= 1
    return out


@dataclass(frozen=True, slots=True)
class PoolAttrs(KernelAttrs):
    """What a MaxPoolV3 / AvgPoolV2 binary has baked in: dtype, shapes, window geometry, divisor rules."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    ksize: tuple[int, int]
    strides: tuple[int, int]
    pads: tuple[int, int, int, int]  # top, bottom, left, right
    average: bool
    exclusive: bool  # an average over the real (unpadded) elements only
    divisor: int  # an average's divisor override (0: none)

    @classmethod
    def of(cls, signature: KernelSignature) -> PoolAttrs:
        ksize, strides, pads, *rest = signature.attrs
        average = len(rest) == 3  # AvgPoolV2: ceil, exclusive, divisor; MaxPoolV3: ceil
        exclusive, divisor = (bool(rest[1]), int(rest[2])) if average else (False, 0)
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1], tuple(ksize[2:]),
                   tuple(strides[2:]), tuple(pads), average, exclusive, divisor)  # fmt: skip


def _counts(size: int, k: int, lo: int, stride: int, out: int, clip_hi: int, clip_lo: int) -> np.ndarray:
    """Per output position along one dim: how many window elements lie in [clip_lo, clip_hi)."""
    start = np.arange(out, dtype=np.int64) * stride - lo
    return np.minimum(start + k, clip_hi) - np.maximum(start, clip_lo)


def pool_kernel(ctx: BlockContext[PoolAttrs], x: np.ndarray, y: np.ndarray) -> None:
    """This block's band of output rows: the max or the average over each window."""
    a = ctx.attrs
    r0, r1 = band_of(ctx.tiling, ctx.block_idx)
    if r0 >= r1:
        return
    h, w = a.x_shape[2], a.x_shape[3]
    oh, ow = a.y_shape[2], a.y_shape[3]
    (kh, kw), (sh, sw), (pt, pb, pl, pr) = a.ksize, a.strides, a.pads
    xs = tensor_of(x, a.dtype, a.x_shape)
    wide = xs.astype(F32) if a.average or a.dtype.kind == "f" else xs
    fill = 0.0 if a.average else (-np.inf if wide.dtype.kind == "f" else float(np.iinfo(wide.dtype.str).min))
    extra_h = max(0, (oh - 1) * sh + kh - (h + pt + pb))
    extra_w = max(0, (ow - 1) * sw + kw - (w + pl + pr))
    xp = pad_or_crop(wide, (pt, pl), (pb + extra_h, pr + extra_w), fill)
    xp = xp[:, :, r0 * sh : (r1 - 1) * sh + kh]
    view = windows(xp, (kh, kw), (sh, sw), (1, 1), (r1 - r0, ow))
    yv = tensor_of(y, a.dtype, a.y_shape)
    if not a.average:
        yv[:, :, r0:r1] = view.max(axis=(-2, -1)).astype(a.dtype)
        return
    sums = view.sum(axis=(-2, -1), dtype=F32)
    if a.divisor:
        divisor = np.full((r1 - r0, ow), a.divisor, F32)
    elif a.exclusive:
        divisor = np.outer(_counts(h, kh, pt, sh, oh, h, 0)[r0:r1], _counts(w, kw, pl, sw, ow, w, 0)).astype(F32)
    else:
        rows = _counts(h, kh, pt, sh, oh, h + pb, -pt)[r0:r1]
        divisor = np.outer(rows, _counts(w, kw, pl, sw, ow, w + pr, -pl)).astype(F32)
    yv[:, :, r0:r1] = (sums / divisor).astype(a.dtype)


def pool_tiling(ctx: TilingContext) -> TilingResult:
    """Bands of output rows, each block reading at least MIN_BLOCK_WINDOW_READS window elements."""
    y = ctx.outputs[0]
    assert y is not None
    ksize = ctx.attrs[0]
    reads = y.numel * int(np.prod(ksize, dtype=np.int64))
    return band_tiling_for(out_rows(ctx), reads, max(ctx.platform.core_num, 1), MIN_BLOCK_WINDOW_READS)


def as_nchw(shape: Sequence[int]) -> tuple[int, int, int, int]:
    """A 3-d [C, H, W] or 4-d [N, C, H, W] pooling shape as 4-d."""
    dims = tuple(shape)
    return (1, *dims) if len(dims) == 3 else dims  # type: ignore[return-value]
