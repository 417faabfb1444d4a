"""aclnnUpsampleBilinear2dBackward: the adjoint of bilinear upsampling (ResizeBilinearV2Grad).

Checks in the real order: null gradOut / outputSize / inputSize / out (161001); gradOut 4-D,
outputSize of 2 values, inputSize of 4; H and W positive; gradOut of the forward output's shape and
out of inputSize's (both read by out's storage format: NCHW, anything else as NHWC); when the sizes
differ gradOut's dtype in F16 F32 (A2 and other parts; BF16 as well on the Ascend 950); out's dtype
equal to gradOut's; gradOut the forward output's shape by gradOut's format; NCHW or NHWC with equal N
and C (all 161002). An empty gradOut launches nothing.

Equal sizes copy gradOut. Otherwise float32 ResizeBilinearV2Grad (half-pixel centres unless
alignCorners; the step is ``input / output``: scalesH and scalesW are not used, as in the real A2
chain), cast to out's dtype. The real TransData to NC1HWC0 around it is a Transpose of NHWC tensors
here. The kernel applies the exact transpose of the forward interpolation matrices.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.cv.resize_common import (
    NCHW,
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
from emulator.kernels.math.soc_lists import DAV_3510
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
ATTRS = (("align_corners", "bool"), ("half_pixel_centers", "bool"))


def _scales(attrs: Sequence[object]) -> tuple[float, float, bool]:
    align, _ = attrs
    return 0.0, 0.0, bool(align)


RESIZE_BILINEAR_V2_GRAD = OpImpl(
    "ResizeBilinearV2Grad", resize_grad_kernel, resize_tiling(True, _scales, grad=True), attrs=ATTRS,
    attr_names=tuple(n for n, _ in ATTRS), bins=(BinSpec(("float", None), ("float",)),),
    input_names=("grads", "original_image"), kernel_attrs=ResizeAttrs.of,
)  # fmt: skip


def _check_shape(api: str, grad_out: aclTensor, output_size: aclIntArray, input_size: aclIntArray, out: aclTensor
                 ) -> None:  # fmt: skip
    dims = len(grad_out.view_shape)
    check_param(dims == 4, api, f"gradOut dim {dims} should be 4.")
    count = len(ints(output_size))
    check_param(count == 2, api, f"It is expected output_size equals to 2, but got size {count}")
    count = len(ints(input_size))
    check_param(count == 4, api, f"It is expected input_size equals to 4, but got size {count}")
    oh, ow = ints(output_size)
    if out.storage_format == NCHW:
        n, c, ih, iw = ints(input_size)
        full_out, full_in = [n, c, oh, ow], [n, c, ih, iw]
    else:
        n, ih, iw, c = ints(input_size)
        full_out, full_in = [n, oh, ow, c], [n, ih, iw, c]
    message = (f"Size of H and W must be greater than 0, bug got input (H: {ih}, W: {iw}), output (H: {oh}, "
               f"W: {ow})")  # fmt: skip
    check_param(min(ih, iw, oh, ow) > 0, api, message)
    check_param(len(out.view_shape) == 4, api, f"out dim {len(out.view_shape)} should be 4.")
    for i in range(4):
        got = grad_out.view_shape[i]
        check_param(got == full_out[i], api, f"The dim {i} of gradOut should be {full_out[i]}, but got {got}")
        got = out.view_shape[i]
        check_param(got == full_in[i], api, f"The dim {i} of out should be {full_in[i]}, but got {got}")


@l2_api
def aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(
    gradOut: aclTensor | None,
    outputSize: aclIntArray | None,
    inputSize: aclIntArray | None,
    alignCorners: bool,
    scalesH: float,
    scalesW: float,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(const aclTensor* gradOut,
    const aclIntArray* outputSize, const aclIntArray* inputSize, bool alignCorners, double scalesH,
    double scalesW, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnUpsampleBilinear2dBackward"
    check_not_null(api, gradOut=gradOut, outputSize=outputSize, inputSize=inputSize, out=out)
    assert gradOut is not None and outputSize is not None and inputSize is not None and out is not None
    _check_shape(api, gradOut, outputSize, inputSize, out)
    same = list(gradOut.view_shape) == ints(inputSize)
    if not same:
        regbase = current_l2().op.soc.npu_arch == DAV_3510
        check_dtype(api, "gradOut", gradOut, (D.DT_FLOAT16, D.DT_FLOAT, *((D.DT_BF16,) if regbase else ())))
    check_dtype_match(api, "out", out, gradOut.dtype)
    grad_size_check(api, gradOut, outputSize, inputSize)
    check_nc_dims(api, gradOut, out)
    align = bool(alignCorners)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(gradOut):
            return unique.release(0)
        result = contiguous(gradOut, executor)
        if not same:
            channels_last = out.storage_format == NHWC
            g = cast(to_nchw(result, channels_last, executor), D.DT_FLOAT, executor)
            n, c = g.view_shape[:2]
            ih, iw = (ints(inputSize)[1:3]) if channels_last else (ints(inputSize)[2:4])
            grad = executor.alloc_tensor((n, c, ih, iw), D.DT_FLOAT)
            attrs = OP_ATTR(Bool(align), Bool(not align))
            status = add_to_launcher_list_aicore(executor, RESIZE_BILINEAR_V2_GRAD, OP_INPUT(g, None), OP_OUTPUT(grad),
                                                 attrs)  # fmt: skip
            if status != 0:
                raise L0StepFailed("ResizeBilinearV2Grad", f"status {status}")
            result = from_nchw(cast(grad, out.dtype, executor), channels_last, executor)
        message = (f"The out tensor's shape[{list(out.view_shape)}] is not equal with inferOut shape"
                   f"[{list(result.view_shape)}].")  # fmt: skip
        check_param(tuple(result.view_shape) == tuple(out.view_shape), api, message)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (RESIZE_BILINEAR_V2_GRAD,)
