"""What the convolution and pooling kernels share: sliding windows over a padded NC... tensor.

A kernel of this family sees its input as [N, C, *spatial] (1 to 3 spatial dims) and builds the
windows of one output band with ``windows``: a strided view [N, C, *out, *kernel] of the padded
input, which the convolution multiplies with its weights (im2col + one matmul per group), the
pooling ops reduce over its last axes, and Im2col writes out as columns. Transposed convolution
and the gradient of the input are the same windows over the stride-dilated input with the
flipped kernel, so every conv kernel is ``conv_forward`` with other arguments.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence

import numpy as np

from emulator.engine.tiling import ceil_div
from emulator.opdev import TilingContext, TilingResult

F32 = np.dtype(np.float32)
MIN_BLOCK_MACS = 1 << 26  # a band is at least this many multiply-adds: host BLAS already uses every core


def tensor_of(buf: np.ndarray, dtype: np.dtype, shape: Sequence[int]) -> np.ndarray:
    """A dense kernel buffer (bytes) as the array of ``shape``."""
    return buf.view(dtype)[: int(np.prod(shape, dtype=np.int64))].reshape(shape)


def as_f32(x: np.ndarray) -> np.ndarray:
    """The cube's float32 operand (float16 / bfloat16 widened exactly)."""
    return x.astype(F32, copy=False)


def out_size(size: int, lo: int, hi: int, k: int, stride: int, dilation: int, ceil: bool = False) -> int:
    """The output length of one spatial dim: floor (or ceil) of (size + pads - span) / stride, plus 1."""
    span = dilation * (k - 1) + 1
    room = size + lo + hi - span
    if room < 0:
        return 0
    return (ceil_div(room, stride) if ceil else room // stride) + 1


def pad_or_crop(x: np.ndarray, lo: Sequence[int], hi: Sequence[int], value: float = 0.0) -> np.ndarray:
    """``x`` [N, C, *s] padded with ``value`` by lo / hi per spatial dim; a negative pad crops."""
    crop = tuple(slice(max(-a, 0), s - max(-b, 0)) for a, b, s in zip(lo, hi, x.shape[2:], strict=True))
    x = x[(slice(None), slice(None), *crop)]
    widths = ((0, 0), (0, 0), *((max(a, 0), max(b, 0)) for a, b in zip(lo, hi, strict=True)))
    if not any(a or b for a, b in widths):
        return x
    return np.pad(x, widths, constant_values=value)


def windows(xp: np.ndarray, kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int],
            out: Sequence[int]) -> np.ndarray:  # fmt: skip
    """The strided view [N, C, *out, *kernel] of the padded input ``xp`` [N, C, *spatial]."""
    s = xp.strides
    view_strides = (s[0], s[1], *(s[2 + i] * stride[i] for i in range(len(out))),
                    *(s[2 + i] * dilation[i] for i in range(len(out))))  # fmt: skip
    return np.lib.stride_tricks.as_strided(xp, (*xp.shape[:2], *out, *kernel), view_strides, writeable=False)


def conv_forward(x: np.ndarray, w: np.ndarray, stride: Sequence[int], lo: Sequence[int], hi: Sequence[int],
                 dilation: Sequence[int], groups: int, band: tuple[int, int] | None = None,
                 to_cube: Callable[[np.ndarray], np.ndarray] = as_f32) -> np.ndarray:  # fmt: skip
    """Cross-correlation of x [N, Cin, *s] with w [Cout, Cin/groups, *k] in float32: [N, Cout, *out].

    ``band`` limits the output to rows [lo, hi) of the first spatial dim (an SPMD block's share): only
    the input rows those windows read are converted (``to_cube``: to float32, or HF32) and padded.
    Each group is one matmul of the band's im2col columns with the group's weights.
    """
    rank = x.ndim - 2
    kernel = w.shape[2:]
    out = [out_size(x.shape[2 + i], lo[i], hi[i], kernel[i], stride[i], dilation[i]) for i in range(rank)]
    r0, r1 = band if band is not None else (0, out[0])
    if r1 <= r0 or 0 in out:
        return np.zeros((x.shape[0], w.shape[0], max(r1 - r0, 0), *out[1:]), F32)
    first = r0 * stride[0] - lo[0]  # the band's first and one-past-last input row (padding coordinates)
    last = (r1 - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1 - lo[0]
    rows = x[:, :, max(first, 0) : max(min(last, x.shape[2]), 0)]
    band_lo, band_hi = [max(-first, 0), *lo[1:]], [max(last - x.shape[2], 0), *hi[1:]]
    xp = pad_or_crop(to_cube(rows), band_lo, band_hi)
    view = windows(xp, kernel, stride, dilation, (r1 - r0, *out[1:]))
    n, cin = x.shape[0], x.shape[1]
    cg, og = cin // groups, w.shape[0] // groups
    positions = (r1 - r0) * int(np.prod(out[1:], dtype=np.int64))
    axes = (0, *range(2, 2 + rank), 1, *range(2 + rank, 2 + 2 * rank))  # N, *out, C, *k
    result = np.empty((n, groups, og, positions), F32)
    wf = to_cube(w).reshape(groups, og, -1)
    for g in range(groups):
        cols = view[:, g * cg : (g + 1) * cg].transpose(axes).reshape(n, positions, -1)
        result[:, g] = np.matmul(cols, wf[g].T).transpose(0, 2, 1)
    return result.reshape(n, w.shape[0], r1 - r0, *out[1:])


def dilate(x: np.ndarray, stride: Sequence[int]) -> np.ndarray:
    """``x`` [N, C, *s] with stride - 1 zeros between neighbours of each spatial dim."""
    if all(s == 1 for s in stride):
        return x
    shape = (*x.shape[:2], *((d - 1) * s + 1 if d else 0 for d, s in zip(x.shape[2:], stride, strict=True)))
    out = np.zeros(shape, x.dtype)
    out[(slice(None), slice(None), *(slice(None, None, s) for s in stride))] = x
    return out


def transposed_weight(w: np.ndarray, groups: int) -> np.ndarray:
    """A transposed convolution's w [Cin, Cout/g, *k] as the forward weight [Cout, Cin/g, *k], flipped."""
    cin, og = w.shape[0], w.shape[1]
    k = w.shape[2:]
    wg = w.reshape(groups, cin // groups, og, *k).swapaxes(1, 2).reshape(groups * og, cin // groups, *k)
    return np.flip(wg, axis=tuple(range(2, w.ndim)))


def conv_transposed(x: np.ndarray, w: np.ndarray, stride: Sequence[int], lo: Sequence[int], hi: Sequence[int],
                    dilation: Sequence[int], output_padding: Sequence[int], groups: int,
                    band: tuple[int, int] | None = None,
                    to_cube: Callable[[np.ndarray], np.ndarray] = as_f32) -> np.ndarray:  # fmt: skip
    """The transposed convolution (the input gradient of ``conv_forward``): x [N, Cin, *s], w [Cin, Cout/g, *k]."""
    k = w.shape[2:]
    span = [dilation[i] * (k[i] - 1) for i in range(len(k))]
    new_lo = [span[i] - lo[i] for i in range(len(k))]
    new_hi = [span[i] - hi[i] + output_padding[i] for i in range(len(k))]
    ones = [1] * len(k)
    return conv_forward(
        dilate(x, stride), transposed_weight(w, groups), ones, new_lo, new_hi, dilation, groups, band, to_cube
    )


def conv_weight_grad(x: np.ndarray, dy: np.ndarray, kernel: Sequence[int], stride: Sequence[int], lo: Sequence[int],
                     hi: Sequence[int], dilation: Sequence[int], groups: int,
                     band: tuple[int, int] | None = None) -> np.ndarray:  # fmt: skip
    """d(conv_forward)/dw: x [N, Cin, *s], dy [N, Cout, *out] -> [Cout, Cin/g, *kernel] in float32.

    ``band`` limits the result to output channels [lo, hi) (an SPMD block's share): each group the
    band touches is one matmul of its dy rows with the im2col columns of its input channels."""
    rank = x.ndim - 2
    xp = pad_or_crop(x.astype(F32, copy=False), lo, hi)
    out = dy.shape[2:]
    view = windows(xp, kernel, stride, dilation, out)
    n, cin, cout = x.shape[0], x.shape[1], dy.shape[1]
    cg, og = cin // groups, cout // groups
    c0, c1 = band if band is not None else (0, cout)
    positions = int(np.prod(out, dtype=np.int64))
    axes = (0, *range(2, 2 + rank), 1, *range(2 + rank, 2 + 2 * rank))
    dyf = dy.astype(F32, copy=False).reshape(n, cout, positions)
    grad = np.empty((c1 - c0, cg * int(np.prod(kernel, dtype=np.int64))), F32)
    for g in range(c0 // og, (c1 - 1) // og + 1):
        lo_c, hi_c = max(c0, g * og), min(c1, (g + 1) * og)
        cols = view[:, g * cg : (g + 1) * cg].transpose(axes).reshape(n * positions, -1)
        grad[lo_c - c0 : hi_c - c0] = dyf[:, lo_c:hi_c].transpose(1, 0, 2).reshape(hi_c - lo_c, -1) @ cols
    return grad.reshape(c1 - c0, cg, *kernel)


class BandTilingData(ctypes.Structure):
    """The SPMD split of this family: whole rows of the output's first spatial dim per block."""

    _fields_ = [
        ("rows", ctypes.c_int64),  # rows of the first output spatial dim
        ("rowsPerBlock", ctypes.c_int64),
        ("blockNum", ctypes.c_int64),
    ]


def band_tiling_for(rows: int, work: int, cores: int, min_work: int = MIN_BLOCK_MACS) -> TilingResult:
    """At most one block per core, each with at least ``min_work`` of the whole ``work``, whole rows each."""
    want = max(1, min(cores, rows, work // max(min_work, 1)))
    per = ceil_div(max(rows, 1), want)
    blocks = ceil_div(max(rows, 1), per)
    return TilingResult(tiling_key=0, block_dim=blocks, data=BandTilingData(rows=rows, rowsPerBlock=per,
                                                                             blockNum=blocks))  # fmt: skip


def band_of(tiling: bytes, block_idx: int) -> tuple[int, int]:
    """This block's rows [lo, hi) of the output's first spatial dim."""
    data = BandTilingData.from_buffer_copy(tiling)
    lo = block_idx * data.rowsPerBlock
    return lo, min(lo + data.rowsPerBlock, data.rows)


def out_rows(ctx: TilingContext) -> int:
    """The first spatial dim of the launch's first output."""
    y = ctx.outputs[0]
    assert y is not None
    return y.view_shape[2] if len(y.view_shape) > 2 else 1
