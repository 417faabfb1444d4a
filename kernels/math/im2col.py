"""aclnnIm2col: the sliding windows of a [C, H, W] or [N, C, H, W] self as columns (torch's unfold).

out[n, c * kH * kW + i * kW + j, oh * oW + ow] is self[n, c, oh * sH - pH + i * dH, ow * sW - pW + j * dW],
0 where that lies in the padding. Checks as the real L2 orders them (ops-math conversion/im2col):
null self / kernelSize / dilation / padding / stride / out (161001); self's dtype (A2 / A3: float32,
float16, bfloat16; Ascend 950: the integer, float, bool and complex types); self 3-d or 4-d with every
dim but a 4-d N greater than 0; kernelSize, dilation, padding and stride of 2 values, kernel, stride
and dilation > 0, padding >= 0; at least one window per dim and out of the inferred shape (161002).
out's dtype is not checked: the result is cast to it (a cast no kernel serves is 561103). An empty
self launches nothing.

L0 chain: Contiguous, Im2col (a 3-d self viewed with N = 1; output rows of windows across blocks),
Cast to out's dtype, ViewCopy. The kernel only moves data (plus the padding's zeros).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.soc_lists import DAV_3510
from emulator.kernels.nn.conv_common import band_of, band_tiling_for, out_size, pad_or_crop, tensor_of, windows
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
IM2COL_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
IM2COL_DTYPES_REGBASE = (D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_UINT16, D.DT_INT32, D.DT_UINT32, D.DT_INT64,
                         D.DT_UINT64, D.DT_BF16, D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_BOOL, D.DT_COMPLEX32,
                         D.DT_COMPLEX64)  # fmt: skip
BIN_DTYPES = ("float", "float16", "bfloat16", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
              "uint64", "double", "bool", "complex64")  # fmt: skip
MIN_BLOCK_ELEMENTS = 1 << 16  # a block writes at least this many output elements


@dataclass(frozen=True, slots=True)
class Im2colAttrs(KernelAttrs):
    """What an Im2col binary has baked in: dtype, shapes and the window geometry."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    ksizes: tuple[int, int]
    dilations: tuple[int, int]
    pads: tuple[int, int, int, int]  # top, bottom, left, right
    strides: tuple[int, int]

    @classmethod
    def of(cls, signature: KernelSignature) -> Im2colAttrs:
        k, d, p, s = signature.attrs
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1], (k[0], k[1]), (d[0], d[1]),
                   (p[0], p[1], p[2], p[3]), (s[0], s[1]))  # fmt: skip


def _out_hw(a: Im2colAttrs) -> tuple[int, int]:
    h, w = a.x_shape[2], a.x_shape[3]
    (kh, kw), (dh, dw), (pt, pb, pl, pr), (sh, sw) = a.ksizes, a.dilations, a.pads, a.strides
    return out_size(h, pt, pb, kh, sh, dh), out_size(w, pl, pr, kw, sw, dw)


def im2col_kernel(ctx: BlockContext[Im2colAttrs], x: np.ndarray, y: np.ndarray) -> None:
    """This block's rows of windows: the columns at positions [lo * oW, hi * oW)."""
    a = ctx.attrs
    lo, hi = band_of(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    ow = _out_hw(a)[1]
    (kh, kw), (dh, dw), (pt, pb, pl, pr), (sh, sw) = a.ksizes, a.dilations, a.pads, a.strides
    xp = pad_or_crop(tensor_of(x, a.dtype, a.x_shape), (pt, pl), (pb, pr))
    xp = xp[:, :, lo * sh : (hi - 1) * sh + dh * (kh - 1) + 1]
    view = windows(xp, (kh, kw), (sh, sw), (dh, dw), (hi - lo, ow))  # N, C, rows, oW, kH, kW
    n, c = a.x_shape[0], a.x_shape[1]
    cols = view.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, (hi - lo) * ow)
    tensor_of(y, a.dtype, a.y_shape)[:, :, lo * ow : hi * ow] = cols


def im2col_tiling(ctx: TilingContext) -> TilingResult:
    """Rows of windows (output H positions) split across the vector cores."""
    x, y = ctx.inputs[0], ctx.outputs[0]
    assert x is not None and y is not None
    k, d, p, s = ctx.attrs
    rows = out_size(x.view_shape[2], p[0], p[1], k[0], s[0], d[0])
    return band_tiling_for(rows, y.numel, max(ctx.platform.core_num, 1), MIN_BLOCK_ELEMENTS)


IM2COL = OpImpl(
    "Im2col", im2col_kernel, im2col_tiling, kernel_attrs=Im2colAttrs.of, moved_inputs=("x",),
    attrs=(("ksizes", "list_int"), ("dilations", "list_int"), ("pads", "list_int"), ("strides", "list_int")),
    attr_names=("ksizes", "dilations", "pads", "strides"), bins=tuple(BinSpec((t,), (t,)) for t in BIN_DTYPES),
    kernel_json={"coreType": "AiCore"},
)  # fmt: skip


def im2col_l0(x: aclTensor, k: list[int], d: list[int], pads: tuple[int, int, int, int], s: list[int],
              out_shape: tuple[int, ...], executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::Im2col on a contiguous NCHW x."""
    y = executor.alloc_tensor(out_shape, x.dtype)
    attrs = OP_ATTR(tuple(k), tuple(d), pads, tuple(s))
    if add_to_launcher_list_aicore(executor, IM2COL, OP_INPUT(x), OP_OUTPUT(y), attrs) != 0:
        raise L0StepFailed("Im2col", "the launch was not recorded")
    return y


def _check_arrays(api: str, k: list[int], d: list[int], p: list[int], s: list[int]) -> None:
    for name, values in (("kernelSize", k), ("dilation", d), ("padding", p), ("stride", s)):
        check_param(len(values) == 2, api, f"It is expected {name} equals to 2, but got size {len(values)}.")
    for name, values, low in (("kernelSize", k, 1), ("stride", s, 1), ("dilation", d, 1)):
        for i, v in enumerate(values):
            check_param(v >= low, api, f"It is expected {name} be greater than zero, but {name} No.[{i + 1}] dim is "
                        f"[{v}].")  # fmt: skip
    for i, v in enumerate(p):
        check_param(v >= 0, api, f"It is expected padding be greater than or equal to zero, but padding No.[{i + 1}] "
                    f"dim is [{v}].")  # fmt: skip


def _expected_out(self: aclTensor, k: list[int], d: list[int], p: list[int], s: list[int]) -> tuple[int, ...]:
    shape = tuple(self.view_shape)
    h, w = shape[-2], shape[-1]
    oh = (h + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
    ow = (w + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
    return (oh, ow)


@l2_api
def aclnnIm2colGetWorkspaceSize(
    self: aclTensor | None,
    kernelSize: aclIntArray | None,
    dilation: aclIntArray | None,
    padding: aclIntArray | None,
    stride: aclIntArray | None,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* dilation, const aclIntArray* padding, const aclIntArray* stride, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnIm2col"
    check_not_null(api, self=self, kernelSize=kernelSize, dilation=dilation, padding=padding, stride=stride, out=out)
    assert self is not None and out is not None and kernelSize is not None
    assert dilation is not None and padding is not None and stride is not None
    regbase = current_l2().op.soc.npu_arch == DAV_3510
    check_dtype(api, "self", self, IM2COL_DTYPES_REGBASE if regbase else IM2COL_DTYPES)
    shape = tuple(self.view_shape)
    check_param(len(shape) in (3, 4), api, f"Expected self dim [{len(shape)}] to be 3 or 4 but check failed.")
    for i in range(1 if len(shape) == 4 else 0, len(shape)):
        check_param(shape[i] > 0, api, f"self'dims is invalid, self No.[{i + 1}] dim is [{shape[i]}].")
    k, d, p, s = (int_array_values(a) for a in (kernelSize, dilation, padding, stride))
    _check_arrays(api, k, d, p, s)
    oh, ow = _expected_out(self, k, d, p, s)
    check_param(oh >= 1 and ow >= 1, api, f"The shape ({oh}, {ow}) of the array calculated by other parameters must "
                "be at least one.")  # fmt: skip
    cols = shape[-3] * k[0] * k[1]
    want = (cols, oh * ow) if len(shape) == 3 else (shape[0], cols, oh * ow)
    check_param(tuple(out.view_shape) == want, api, f"Expect out shape {list(want)}, but got: {list(out.view_shape)}.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = contiguous(self, executor)
        if len(shape) == 3:
            x = reshape_view(executor, x, (1, *shape))
        y = im2col_l0(x, k, d, (p[0], p[0], p[1], p[1]), s, (x.view_shape[0], cols, oh * ow), executor)
        if len(shape) == 3:
            y = reshape_view(executor, y, want)
        view_copy(cast(y, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (IM2COL,)
