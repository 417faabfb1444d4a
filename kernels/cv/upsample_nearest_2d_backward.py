"""aclnnUpsampleNearest2dBackward: the adjoint of nearest upsampling (each gradOut element added to
the input element it was copied from).

Checks in the real order: null gradOut / outputSize / inputSize / gradInput (161001); gradOut's dtype
(A2 / A3 and Ascend 950: F32 F16 BF16; other parts F32 F16) and gradInput's equal to it; gradOut 4-D,
outputSize of 2 values, inputSize of 4; gradInput's storage format NCHW or NHWC and equal N and C; the
input and output H and W positive and gradOut of the forward output's shape (all 161002).
An empty gradOut or gradInput launches nothing.

The source index of an output row is ``floor(dst * scale)``, with ``scale = 1 / scalesH`` for a
positive scalesH, else ``inputH / outputH`` (the same for W). The A2 dispatch:
- the AI Core UpsampleNearestExact2dGrad in float32 (F16 / BF16 cast there and back) when both scales
  are positive, ``int(inputH * scalesH) == outputH`` (and W), inputs and outputs at least 8 x 16 and
  C at most 6 * H * W; an NHWC gradOut is transposed to NCHW and back;
- else, with either scale positive, UpsampleNearestExact2dGrad on the dtype as it is (the scales
  become 1 when the sizes are equal);
- else ResizeNearestNeighborV2Grad (``inputH / outputH``; F16 computed in float32); its result must
  have gradInput's shape (161002, the real CheckReduceOutShape).
Ascend 950 runs ResizeNearestNeighborV2Grad with the scales; other parts the last path. The real
TransData to NC1HWC0 and back around the AI Core kernels is a Transpose of NHWC tensors here.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.cv.resize_common import (
    NHWC,
    ResizeAttrs,
    check_nc_dims,
    from_nchw,
    grad_size_check,
    ints,
    resize_grad_kernel,
    resize_tiling,
    to_nchw,
)
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510, list_v2
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
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
HALF = (D.DT_FLOAT16, D.DT_BF16)
MAX_C, MIN_H, MIN_W = 6, 8, 16
GRAD_BINS = tuple(BinSpec((d,), (d,)) for d in ("float", "float16", "bfloat16"))


def _exact_scales(attrs: Sequence[object]) -> tuple[float, float, bool]:
    _, _, scales_h, scales_w = attrs
    return float(scales_h), float(scales_w), False  # type: ignore[arg-type]


def _v2_grad_scales(attrs: Sequence[object]) -> tuple[float, float, bool]:
    _, _, scales = attrs
    assert isinstance(scales, list | tuple)
    return float(scales[0]), float(scales[1]), False


EXACT_ATTRS = (("output_size", "listInt"), ("input_size", "listInt"), ("scales_h", "float"), ("scales_w", "float"))
UPSAMPLE_NEAREST_EXACT_2D_GRAD = OpImpl(
    "UpsampleNearestExact2dGrad", resize_grad_kernel, resize_tiling(False, _exact_scales, grad=True),
    attrs=EXACT_ATTRS, attr_names=tuple(n for n, _ in EXACT_ATTRS), bins=GRAD_BINS, input_names=("grad_output",),
    kernel_attrs=ResizeAttrs.of,
)  # fmt: skip
V2_GRAD_ATTRS = (("align_corners", "bool"), ("half_pixel_centers", "bool"), ("scales", "listFloat"))
RESIZE_NEAREST_NEIGHBOR_V2_GRAD = OpImpl(
    "ResizeNearestNeighborV2Grad", resize_grad_kernel, resize_tiling(False, _v2_grad_scales, grad=True),
    attrs=V2_GRAD_ATTRS, attr_names=tuple(n for n, _ in V2_GRAD_ATTRS),
    bins=tuple(BinSpec((d, "int32"), (d,)) for d in ("float", "float16", "bfloat16")),
    input_names=("grads", "size"), kernel_attrs=ResizeAttrs.of, unread_inputs=("size",),
)  # fmt: skip


def _launch(impl: OpImpl, inputs: tuple[aclTensor, ...], attrs: tuple[object, ...], shape: tuple[int, ...],
            executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    out = executor.alloc_tensor(shape, inputs[0].dtype)
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(*inputs), OP_OUTPUT(out), OP_ATTR(*attrs))
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


def _nchw_sizes(input_size: Sequence[int], channels_last: bool) -> list[int]:
    n, a, b, c = input_size
    return [n, c, a, b] if channels_last else [n, a, b, c]


def _aicore_supported(input_nchw: Sequence[int], grad_hw: tuple[int, int], scales_h: float, scales_w: float) -> bool:
    """isAiCoreSupport of the A2 code."""
    if scales_h <= 0 or scales_w <= 0:
        return False
    _, c, ih, iw = input_nchw
    oh, ow = grad_hw
    if c > MAX_C * ih * iw or c > MAX_C * oh * ow:
        return False
    if min(ih, oh) < MIN_H or min(iw, ow) < MIN_W:
        return False
    return int(ih * scales_h) == oh and int(iw * scales_w) == ow


def _check(api: str, grad_out: aclTensor, output_size: aclIntArray, input_size: aclIntArray, grad_input: aclTensor
           ) -> None:  # fmt: skip
    check_dtype(api, "gradOut", grad_out, list_v2((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16), (D.DT_FLOAT, D.DT_FLOAT16)))
    check_dtype_match(api, "gradOut", grad_input, grad_out.dtype)
    dims = len(grad_out.view_shape)
    check_param(dims == 4, api, f"gradOut dim {dims} should be 4.")
    count = len(ints(output_size))
    check_param(count == 2, api, f"It is expected output_size equals to 2, but got size {count}")
    count = len(ints(input_size))
    check_param(count == 4, api, f"It is expected input_size equals to 4, but got size {count}")
    check_param(len(grad_input.view_shape) == 4, api, f"gradInput dim {len(grad_input.view_shape)} should be 4.")
    check_nc_dims(api, grad_input, grad_out)
    grad_size_check(api, grad_out, output_size, input_size)


@l2_api
def aclnnUpsampleNearest2dBackwardGetWorkspaceSize(
    gradOut: aclTensor | None,
    outputSize: aclIntArray | None,
    inputSize: aclIntArray | None,
    scalesH: float,
    scalesW: float,
    gradInput: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(const aclTensor* gradOut,
    const aclIntArray* outputSize, const aclIntArray* inputSize, double scalesH, double scalesW,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnUpsampleNearest2dBackward"
    check_not_null(api, gradOut=gradOut, outputSize=outputSize, inputSize=inputSize, gradInput=gradInput)
    assert gradOut is not None and outputSize is not None and inputSize is not None and gradInput is not None
    _check(api, gradOut, outputSize, inputSize, gradInput)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(gradOut, gradInput):
            return unique.release(0)
        g = contiguous(gradOut, executor)
        result = _dispatch(api, g, outputSize, inputSize, float(scalesH), float(scalesW), gradInput, executor)
        view_copy(result, gradInput, executor)
        return unique.release(executor.get_workspace_size())


def _dispatch(api: str, g: aclTensor, output_size: aclIntArray, input_size: aclIntArray, scales_h: float,
              scales_w: float, grad_input: aclTensor, executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """The A2 / RegBase / other-part paths of the real L2 (see the module doc)."""
    arch = current_l2().op.soc.npu_arch
    channels_last = grad_input.storage_format == NHWC
    in_sizes = ints(input_size)
    nchw = _nchw_sizes(in_sizes, channels_last)
    out_hw = tuple(ints(output_size)[:2])
    real_h, real_w = (float(s) if s > 0 else 0.0 for s in (scales_h, scales_w))
    exact_attrs = (ints(output_size), nchw, Float32(real_h), Float32(real_w))
    if arch == DAV_3510:
        size = convert_to_tensor(nchw[2:], D.DT_INT32, executor)
        attrs = (Bool(False), Bool(False), [scales_h, scales_w])
        y = _launch(RESIZE_NEAREST_NEIGHBOR_V2_GRAD, (to_nchw(g, channels_last, executor), size), attrs, tuple(nchw),
                    executor)  # fmt: skip
        return from_nchw(y, channels_last, executor)
    if arch == DAV_2201 and _aicore_supported(nchw, out_hw, scales_h, scales_w):  # type: ignore[arg-type]
        x = cast(to_nchw(g, channels_last, executor), D.DT_FLOAT, executor)
        y = _launch(UPSAMPLE_NEAREST_EXACT_2D_GRAD, (x,), exact_attrs, tuple(nchw), executor)
        return from_nchw(cast(y, g.dtype, executor), channels_last, executor)
    if arch == DAV_2201 and (scales_h > 0 or scales_w > 0):
        if list(out_hw) == nchw[2:]:
            exact_attrs = (*exact_attrs[:2], Float32(1.0), Float32(1.0))
        y = _launch(UPSAMPLE_NEAREST_EXACT_2D_GRAD, (to_nchw(g, channels_last, executor),), exact_attrs, tuple(nchw),
                    executor)  # fmt: skip
        return from_nchw(y, channels_last, executor)
    x = cast(g, D.DT_FLOAT, executor) if g.dtype == D.DT_FLOAT16 else g
    size = convert_to_tensor(nchw[2:], D.DT_INT32, executor)
    y = _launch(RESIZE_NEAREST_NEIGHBOR_V2_GRAD, (to_nchw(x, channels_last, executor), size),
                (Bool(False), Bool(False), [0.0, 0.0]), tuple(nchw), executor)  # fmt: skip
    y = cast(from_nchw(y, channels_last, executor), g.dtype, executor)
    message = (f"The out tensor's shape[{list(grad_input.view_shape)}] is not equal with inferOut shape"
               f"[{list(y.view_shape)}].")  # fmt: skip
    check_param(tuple(y.view_shape) == tuple(grad_input.view_shape), api, message)
    return y


OPS = (UPSAMPLE_NEAREST_EXACT_2D_GRAD, RESIZE_NEAREST_NEIGHBOR_V2_GRAD)
