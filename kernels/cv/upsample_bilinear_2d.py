"""aclnnUpsampleBilinear2d: bilinear resize of a 4-D image (torch's interpolate(mode="bilinear")).

Checks in the real order: null self / out (561103: the real check returns ACLNN_ERR_INNER_NULLPTR);
self's dtype in F16 F32 F64 BF16 and out's equal to it; self's and out's storage formats equal, NCHW or
NHWC, both 4-D, F64 only as NHWC; equal N and C; scalesH / scalesW not negative; outputSize not null,
of 2 values, equal to out's H and W (all 161002). An empty self or out launches nothing.

The A2 dispatch: F16 / F32 / BF16 run the AI Core UpsampleBilinear2d in float32 (cast there and back)
when the scales pass the real CheckBilinear2dScales (not both 2 unless BF16, neither 0, not both 1 with
other sizes unless BF16 — then they count as absent —, the real scale at most 50) and
``int(inputH * scalesH) == outputH`` (and W); equal sizes then copy self. The step is ``1 / scales``.
Otherwise F16 / F32 / BF16 run the AI Core ResizeBilinearV2 (half-pixel centres unless alignCorners;
the step is ``input / output``, the scales are ignored; BF16 computed in float32), F64 the AI CPU
ResizeBilinearV2 on NHWC. Every other part and the Ascend 950 take the ResizeBilinearV2 path. The real
TransData to NC1HWC0 around ResizeBilinearV2 and the transposes of a one-column input are not kept
(they do not change the values); an NHWC tensor is transposed to NCHW for the AI Core kernels.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.device.interface import Engine
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.cv.resize_common import (
    NCHW,
    NHWC,
    ResizeAttrs,
    check_nc_dims,
    check_output_size,
    from_nchw,
    hw_of,
    ints,
    real_scale,
    resize_kernel,
    resize_tiling,
    to_nchw,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import DAV_2201
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Float32,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null_inner, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_BF16)
AICORE_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
MAX_SCALE = 50.0


def _upsample_scales(attrs: Sequence[object]) -> tuple[float, float, bool]:
    align, scales_h, scales_w = attrs
    return float(scales_h), float(scales_w), bool(align)  # type: ignore[arg-type]


def _v2_scales(attrs: Sequence[object]) -> tuple[float, float, bool]:
    align, _ = attrs
    return 0.0, 0.0, bool(align)


UPSAMPLE_ATTRS = (("align_corners", "bool"), ("scales_h", "float"), ("scales_w", "float"))
UPSAMPLE_BILINEAR_2D = OpImpl(
    "UpsampleBilinear2d", resize_kernel, resize_tiling(True, _upsample_scales, grad=False), attrs=UPSAMPLE_ATTRS,
    attr_names=tuple(n for n, _ in UPSAMPLE_ATTRS), bins=(BinSpec(("float", "int32"), ("float",)),),
    input_names=("x", "size"), kernel_attrs=ResizeAttrs.of, unread_inputs=("size",),
)  # fmt: skip
V2_ATTRS = (("align_corners", "bool"), ("half_pixel_centers", "bool"))


def _resize_bilinear_v2(engine: Engine) -> OpImpl:
    aicore = engine == Engine.AICORE
    bins = tuple(BinSpec((d, "int32"), (d,)) for d in ("float16", "float")) if aicore else ()
    return OpImpl(
        "ResizeBilinearV2", resize_kernel, resize_tiling(True, _v2_scales, grad=False, channels_last=not aicore),
        engine=engine, attrs=V2_ATTRS, attr_names=tuple(n for n, _ in V2_ATTRS), bins=bins, input_names=("x", "size"),
        kernel_attrs=ResizeAttrs.of, unread_inputs=("size",),
    )  # fmt: skip


RESIZE_BILINEAR_V2 = _resize_bilinear_v2(Engine.AICORE)
RESIZE_BILINEAR_V2_AICPU = _resize_bilinear_v2(Engine.AICPU)


def _launch(impl: OpImpl, x: aclTensor, size: aclTensor, attrs: tuple[object, ...], shape: tuple[int, ...],
            executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    out = executor.alloc_tensor(shape, x.dtype)
    groups = (OP_INPUT(x, size), OP_OUTPUT(out), OP_ATTR(*attrs))
    if impl.engine == Engine.AICPU:
        status = add_to_launcher_list_aicpu(executor, impl, impl.attr_names, *groups)
    else:
        status = add_to_launcher_list_aicore(executor, impl, *groups)
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def upsample_path(in_hw: tuple[int, int], out_hw: tuple[int, int], bf16: bool, scales_h: float, scales_w: float,
                  align: bool) -> bool:  # fmt: skip
    """CheckBilinear2dScales and CheckScalesAndShapeValid of the A2 code: may the UpsampleBilinear2d
    kernel (which honours the scales) run?"""
    ih, iw = in_hw
    oh, ow = out_hw
    if abs(scales_h - 2.0) < 1e-9 and abs(scales_w - 2.0) < 1e-9 and not bf16:
        return False
    if abs(scales_h) < 1e-12 or abs(scales_w) < 1e-12:
        return False
    sh, sw = scales_h, scales_w
    if abs(scales_h - 1.0) < 1e-9 and abs(scales_w - 1.0) < 1e-9 and (oh != ih or ow != iw):
        if not bf16:
            return False
        sh = sw = 0.0
    steps = [1.0 if i == o else real_scale(i, o, align, s) for i, o, s in ((ih, oh, sh), (iw, ow, sw))]
    if max(steps) > MAX_SCALE:
        return False
    return int(ih * scales_h) == oh and int(iw * scales_w) == ow


def _check(api: str, self: aclTensor, output_size: aclIntArray | None, scales_h: float, scales_w: float,
           out: aclTensor) -> None:  # fmt: skip
    check_dtype(api, "self", self, DTYPES)
    check_dtype_match(api, "self", self, out.dtype)
    fmt = self.storage_format
    message = f"Format of input and output should be equal, self [{fmt}], out [{out.storage_format}]."
    check_param(fmt == out.storage_format, api, message)
    check_param(fmt in (NCHW, NHWC), api, f"Do not support this format({fmt}) of input and output.")
    for name, tensor in (("self", self), ("out", out)):
        dims = len(tensor.view_shape)
        check_param(dims == 4, api, f"{name} dim {dims} should be 4.")
    check_param(not (fmt == NCHW and self.dtype == D.DT_DOUBLE), api, "When dtype is DT_DOUBLE, only support NHWC "
                "format")  # fmt: skip
    check_nc_dims(api, self, out)
    message = f"w scales and h scales cannot be negative , w_scales [{scales_w:f}], h_scales [{scales_h:f}]."
    check_param(scales_w >= 0 and scales_h >= 0, api, message)
    check_param(output_size is not None, api, "outputSize must not be null.")
    assert output_size is not None
    count = len(ints(output_size))
    check_param(count == 2, api, f"outputSize size must be 2, but got {count}.")
    check_output_size(api, out, output_size)


@l2_api
def aclnnUpsampleBilinear2dGetWorkspaceSize(
    self: aclTensor | None,
    outputSize: aclIntArray | None,
    alignCorners: bool,
    scalesH: float,
    scalesW: float,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
    const bool alignCorners, const double scalesH, const double scalesW, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnUpsampleBilinear2d"
    check_not_null_inner(api, self=self, out=out)
    assert self is not None and out is not None
    scales_h, scales_w, align = float(scalesH), float(scalesW), bool(alignCorners)
    _check(api, self, outputSize, scales_h, scales_w, out)
    assert outputSize is not None
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, out):
            return unique.release(0)
        channels_last = self.storage_format == NHWC
        x = contiguous(self, executor)
        oh, ow = ints(outputSize)
        size = convert_to_tensor([oh, ow], D.DT_INT32, executor)
        a2 = current_l2().op.soc.npu_arch == DAV_2201
        if self.dtype == D.DT_DOUBLE:
            n, _, _, c = x.view_shape
            y = _launch(RESIZE_BILINEAR_V2_AICPU, x, size, (Bool(align), Bool(not align)), (n, oh, ow, c), executor)
        elif a2 and upsample_path(hw_of(self), (oh, ow), self.dtype == D.DT_BF16, scales_h, scales_w, align):
            y = _upsample(x, size, (oh, ow), align, scales_h, scales_w, channels_last, executor)
        else:
            nchw = to_nchw(x, channels_last, executor)
            nchw = cast(nchw, D.DT_FLOAT, executor) if self.dtype == D.DT_BF16 else nchw
            n, c = nchw.view_shape[:2]
            attrs = (Bool(align), Bool(not align))
            y = cast(from_nchw(_launch(RESIZE_BILINEAR_V2, nchw, size, attrs, (n, c, oh, ow), executor),
                               channels_last, executor), self.dtype, executor)  # fmt: skip
        view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


def _upsample(x: aclTensor, size: aclTensor, out_hw: tuple[int, int], align: bool, scales_h: float, scales_w: float,
              channels_last: bool, executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """GoUpsampleBilinear2DAICORE: equal sizes copy self; else float32 UpsampleBilinear2d honouring the scales."""
    nchw = to_nchw(x, channels_last, executor)
    if tuple(nchw.view_shape[2:]) == out_hw:
        return x
    n, c = nchw.view_shape[:2]
    attrs = (Bool(align), Float32(scales_h), Float32(scales_w))
    y = _launch(UPSAMPLE_BILINEAR_2D, cast(nchw, D.DT_FLOAT, executor), size, attrs, (n, c, *out_hw), executor)
    return from_nchw(cast(y, x.dtype, executor), channels_last, executor)


OPS = (UPSAMPLE_BILINEAR_2D, RESIZE_BILINEAR_V2)
