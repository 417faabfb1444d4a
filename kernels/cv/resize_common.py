"""What the upsampling ops share: the source map of each output row / column, the resize kernels
(forward and adjoint), their tiling and the L2 checks the four aclnn APIs have in common.

Source maps follow the torch-compatible contracts the ops document:
- nearest (ResizeNearestNeighborV2 without corners / half pixels, UpsampleNearestExact2dGrad with
  exact off): ``src = min(floor(dst * scale), in - 1)``;
- linear (UpsampleBilinear2d, ResizeBilinearV2 with half pixels, their grads): with
  ``align_corners`` ``src = dst * scale``, otherwise ``src = max((dst + 0.5) * scale - 0.5, 0)``;
  the two taps are ``floor(src)`` and the next row (the last row twice), weighted by the fraction.

``scale`` is ``(in - 1) / (out - 1)`` with corners aligned (0 for one output), else ``1 / s`` for a
given scale ``s > 0``, else ``in / out``; float32 arithmetic, as the kernels (and torch) compute it.

Kernels see dense NCHW or NHWC tensors (the tiling data says which) as planes of one (n, c) image
each; a block takes a range of whole planes. The forward kernel gathers (nearest: one tap; linear:
four taps blended in float32, float64 for double); the grad kernel applies the exact adjoint of the
same map (a per-axis weight matrix, transposed), accumulating in float32 (float64 for double).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, ceil_div
from emulator.kernels.math.permute import transpose_l0
from emulator.meta.formats import aclFormat
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import TilingContext, TilingResult
from emulator.opdev.checks import check_param

NCHW, NHWC = int(aclFormat.ACL_FORMAT_NCHW), int(aclFormat.ACL_FORMAT_NHWC)
TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)
F32 = np.dtype(np.float32)
MIN_PLANE_BYTES = 16 * 1024  # a block below this is not worth a core


class ResizeTilingData(ctypes.Structure):
    _fields_ = [
        ("planes", ctypes.c_int64),  # N * C
        ("channels", ctypes.c_int64),
        ("inH", ctypes.c_int64),
        ("inW", ctypes.c_int64),
        ("outH", ctypes.c_int64),
        ("outW", ctypes.c_int64),
        ("channelsLast", ctypes.c_int64),  # the tensors are NHWC
        ("linear", ctypes.c_int64),  # 0 nearest, 1 bilinear
        ("alignCorners", ctypes.c_int64),
        ("scaleH", ctypes.c_float),  # the source step per output row (see the module doc)
        ("scaleW", ctypes.c_float),
        ("planesPerBlock", ctypes.c_int64),
        ("blockNum", ctypes.c_int64),
    ]


def real_scale(in_len: int, out_len: int, align_corners: bool, given: float) -> float:
    """The source step per output index (area_pixel_compute_scale)."""
    if align_corners:
        return (in_len - 1) / (out_len - 1) if out_len > 1 else 0.0
    return 1.0 / given if given > 0 else in_len / out_len


def axis_taps(in_len: int, out_len: int, scale: float, linear: bool, align: bool) -> tuple[np.ndarray, ...]:
    """(first tap, second tap, weight of the second) for each output index along one axis."""
    dst = np.arange(out_len, dtype=F32)
    step = np.float32(scale)
    if not linear:
        src = np.minimum(np.floor(dst * step).astype(np.int64), in_len - 1)
        return src, src, np.zeros(out_len, F32)
    pos = dst * step if align else np.maximum((dst + np.float32(0.5)) * step - np.float32(0.5), np.float32(0))
    first = np.minimum(pos.astype(np.int64), in_len - 1)
    second = np.minimum(first + 1, in_len - 1)
    return first, second, (pos - first.astype(F32)).astype(F32)


def axis_matrix(in_len: int, out_len: int, scale: float, linear: bool, align: bool, dtype: np.dtype) -> np.ndarray:
    """The (out_len, in_len) interpolation matrix of one axis: output = M @ input along it."""
    first, second, weight = axis_taps(in_len, out_len, scale, linear, align)
    matrix = np.zeros((out_len, in_len), dtype)
    rows = np.arange(out_len)
    np.add.at(matrix, (rows, first), (1 - weight).astype(dtype))
    np.add.at(matrix, (rows, second), weight.astype(dtype))
    return matrix


def resize_tiling(linear: bool, scales_of: Callable[[Sequence[object]], tuple[float, float, bool]], grad: bool,
                  channels_last: bool = False) -> Callable[[TilingContext], TilingResult]:  # fmt: skip
    """The tiling of one resize op: ``scales_of`` reads (scale h, scale w given, align corners) from its attrs;
    the image sizes come from the (forward) input and output. The emulated AI Core kernels read NCHW, the
    AI CPU ones NHWC (``channels_last``), as the TF kernels behind them do."""

    def tiling(ctx: TilingContext) -> TilingResult:
        src, dst = ctx.inputs[0], ctx.outputs[0]
        assert src is not None and dst is not None
        image, resized = (dst, src) if grad else (src, dst)
        last = channels_last
        n, c, ih, iw = _nchw(image.view_shape, last)
        _, _, oh, ow = _nchw(resized.view_shape, last)
        given_h, given_w, align = scales_of(ctx.attrs)
        planes = n * c
        plane_bytes = max(ih * iw, oh * ow) * 4
        blocks = max(1, min(max(ctx.platform.core_num, 1), planes, ceil_div(planes * plane_bytes, MIN_PLANE_BYTES)))
        data = ResizeTilingData(
            planes=planes, channels=c, inH=ih, inW=iw, outH=oh, outW=ow, channelsLast=int(last), linear=int(linear),
            alignCorners=int(align), scaleH=real_scale(ih, oh, align, given_h),
            scaleW=real_scale(iw, ow, align, given_w), planesPerBlock=ceil_div(planes, blocks), blockNum=blocks,
        )  # fmt: skip
        return TilingResult(tiling_key=int(linear), block_dim=blocks, data=data)

    return tiling


def _nchw(shape: Sequence[int], channels_last: bool) -> tuple[int, int, int, int]:
    n, a, b, c = shape
    return (n, c, a, b) if channels_last else (n, a, b, c)


@dataclass(frozen=True, slots=True)
class ResizeAttrs(KernelAttrs):
    """What a resize binary has baked in: the input and output dtypes (everything else is tiling data)."""

    x_dtype: np.dtype
    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> ResizeAttrs:
        return cls(signature.dtypes[0], signature.dtypes[-1])


def _image(flat: np.ndarray, dtype: np.dtype, data: ResizeTilingData, h: int, w: int) -> np.ndarray:
    """A dense buffer as an (n, c, h, w) view (NHWC storage transposed, not copied)."""
    c = max(data.channels, 1)
    n = data.planes // c
    count = data.planes * h * w
    if data.channelsLast:
        return flat.view(dtype)[:count].reshape(n, h, w, c).transpose(0, 3, 1, 2)
    return flat.view(dtype)[:count].reshape(n, c, h, w)


def _block(ctx: BlockContext[ResizeAttrs]) -> tuple[ResizeTilingData, tuple[np.ndarray, np.ndarray] | None]:
    """The tiling data and this block's planes as (n, c) index arrays."""
    data = ResizeTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.planesPerBlock
    hi = min(lo + data.planesPerBlock, data.planes)
    if lo >= hi:
        return data, None
    ids = np.arange(lo, hi)
    c = max(data.channels, 1)
    return data, (ids // c, ids % c)


def _work(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if dtype == np.float64 else F32


def resize_kernel(ctx: BlockContext[ResizeAttrs], x: np.ndarray, *rest: np.ndarray) -> None:
    """Forward: this block's planes of y gathered from x (nearest) or blended from four taps (linear).
    Inputs after x (the size tensor) are not read: y's shape is in the tiling data."""
    data, rows = _block(ctx)
    if rows is None:
        return
    y = rest[-1]
    work = _work(ctx.attrs.x_dtype)
    src = _image(x, ctx.attrs.x_dtype, data, data.inH, data.inW)[rows].astype(work)
    out = _image(y, ctx.attrs.y_dtype, data, data.outH, data.outW)
    linear, align = bool(data.linear), bool(data.alignCorners)
    h0, h1, lh = axis_taps(data.inH, data.outH, data.scaleH, linear, align)
    w0, w1, lw = axis_taps(data.inW, data.outW, data.scaleW, linear, align)
    if not linear:
        out[rows] = src[:, h0][:, :, w0].astype(out.dtype)
        return
    lh, lw = lh.astype(work)[:, None], lw.astype(work)[None, :]
    top, bottom = src[:, h0], src[:, h1]
    upper = top[:, :, w0] * (1 - lw) + top[:, :, w1] * lw
    lower = bottom[:, :, w0] * (1 - lw) + bottom[:, :, w1] * lw
    out[rows] = (upper * (1 - lh) + lower * lh).astype(out.dtype)


def resize_grad_kernel(ctx: BlockContext[ResizeAttrs], grads: np.ndarray, *rest: np.ndarray) -> None:
    """Grad: this block's planes of the input-sized gradient, the adjoint of the forward map
    (Mh^T @ g @ Mw per plane, accumulated in float32, float64 for double)."""
    data, rows = _block(ctx)
    if rows is None:
        return
    y = rest[-1]
    work = _work(ctx.attrs.x_dtype)
    g = _image(grads, ctx.attrs.x_dtype, data, data.outH, data.outW)[rows].astype(work)
    out = _image(y, ctx.attrs.y_dtype, data, data.inH, data.inW)
    linear, align = bool(data.linear), bool(data.alignCorners)
    mh = axis_matrix(data.inH, data.outH, data.scaleH, linear, align, work)
    mw = axis_matrix(data.inW, data.outW, data.scaleW, linear, align, work)
    out[rows] = (mh.T @ g @ mw).astype(out.dtype)


# -- L2 helpers ----------------------------------------------------------------------------------------------
def ints(array: aclIntArray) -> list[int]:
    """An aclIntArray's values as Python ints."""
    return [int(v) for v in array.values]  # type: ignore[call-overload]


def check_nc_dims(api: str, self: aclTensor, out: aclTensor) -> None:
    """CheckNCDimValid: NCHW or NHWC storage (``self``'s), and the same N and C in both."""
    fmt = self.storage_format
    check_param(fmt in (NCHW, NHWC), api, "Input and output format only support [NCHW, NHWC] format .")
    c_axis = 3 if fmt == NHWC else 1
    ns, cs = self.view_shape[0], self.view_shape[c_axis]
    no, co = out.view_shape[0], out.view_shape[c_axis]
    message = f"The selfDimN[{ns}]/outDimN[{no}] or selfDimC[{cs}]/outDimC[{co}] not equal ."
    check_param(ns == no and cs == co, api, message)


def hw_of(tensor: aclTensor) -> tuple[int, int]:
    """(H, W) of a 4-D NCHW or NHWC tensor, by its storage format."""
    shape = tensor.view_shape
    return (shape[1], shape[2]) if tensor.storage_format == NHWC else (shape[2], shape[3])


def check_output_size(api: str, out: aclTensor, output_size: aclIntArray) -> None:
    """Both aclnn forward APIs: out's H and W are outputSize's (by out's storage format)."""
    want = ints(output_size)
    if out.storage_format not in (NCHW, NHWC):
        return
    h, w = hw_of(out)
    message = f"Expected output size (H: {want[0]}, W: {want[1]}), but got output tensor size (H: {h}, W: {w})."
    check_param(want == [h, w], api, message)


def grad_size_check(api: str, grad_out: aclTensor, output_size: aclIntArray, input_size: aclIntArray) -> None:
    """The backward APIs' shared element check: H and W sizes positive, gradOut the forward output's shape."""
    oh, ow = ints(output_size)[:2]
    n, c, ih, iw = ints(input_size)[:4]
    full = [n, c, oh, ow]
    if grad_out.storage_format == NHWC:
        ih, iw, c = ints(input_size)[1:4]
        full = [n, oh, ow, c]
    message = (f"Input and output sizes should greater than 0, but got input (H: {ih}, W: {iw}) output "
               f"(H: {oh}, W: {ow})")  # fmt: skip
    check_param(min(ih, iw, oh, ow) > 0, api, message)
    for i, (got, want) in enumerate(zip(grad_out.view_shape, full, strict=False)):
        message = (f"Expected grad_output to have the same shape as output; output.size({i}) = {want} but got "
                   f"grad_output.size({i}) = {got}")  # fmt: skip
        check_param(got == want, api, message)


def to_nchw(x: aclTensor, channels_last: bool, executor: aclOpExecutor) -> aclTensor:
    """An NHWC tensor as NCHW (Transpose): the stand-in for the real TransData to NC1HWC0, whose kernels
    are layout-free; the emulated AI Core kernels read NCHW."""
    return transpose_l0(x, TO_NCHW, executor) if channels_last else x


def from_nchw(x: aclTensor, channels_last: bool, executor: aclOpExecutor) -> aclTensor:
    """Back to NHWC when the caller's tensors are (the TransData back)."""
    return transpose_l0(x, TO_NHWC, executor) if channels_last else x
