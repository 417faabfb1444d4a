"""aclnnUpsampleNearest2d over ResizeNearestNeighborV2 (torch's legacy nearest: ``src = floor(dst * in / out)``).

Checks in the real order: null self / outputSize / out (161001); self's dtype (A2 / A3 and Ascend 950:
F16 F32 F64 U8 BF16; other parts without BF16); out's dtype equal to self's; outputSize of 2 values,
self 4-D, H, W and both output sizes non-zero, C non-zero; self's storage format NCHW or NHWC, out's
the same; equal N and C; out's H and W equal to outputSize; every size at most INT32_MAX (not on the
950) — all 161002. An empty self or out launches nothing.

F16 / F32 / BF16 run the AI Core ResizeNearestNeighborV2 (the real chain goes through TransData to
NC1HWC0 and back; here an NHWC tensor is transposed to NCHW and back instead); F64 and U8 run the
AI CPU kernel, which reads NHWC: an NCHW self is transposed to NHWC and the result back. Then ViewCopy.
The output is bit-exact (a gather).
"""

from __future__ import annotations

from emulator.device.interface import Engine
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.cv.resize_common import (
    NCHW,
    NHWC,
    TO_NCHW,
    TO_NHWC,
    ResizeAttrs,
    check_nc_dims,
    check_output_size,
    from_nchw,
    ints,
    resize_kernel,
    resize_tiling,
    to_nchw,
)
from emulator.kernels.math.permute import transpose_l0
from emulator.kernels.math.soc_lists import DAV_3510, list_v2
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
    add_to_launcher_list_aicpu,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
AICORE_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
INT32_MAX = 2**31 - 1
ATTRS = (("align_corners", "bool"), ("half_pixel_centers", "bool"))


def _no_scales(attrs: object) -> tuple[float, float, bool]:
    return 0.0, 0.0, False  # in / out; corners and half pixels are always off for this API


def _resize_nearest(engine: Engine) -> OpImpl:
    aicore = engine == Engine.AICORE
    bins = tuple(BinSpec((d, "int32"), (d,)) for d in ("float16", "float", "bfloat16")) if aicore else ()
    tiling = resize_tiling(False, _no_scales, grad=False, channels_last=not aicore)
    return OpImpl(
        "ResizeNearestNeighborV2", resize_kernel, tiling,
        engine=engine, attrs=ATTRS, attr_names=tuple(n for n, _ in ATTRS), bins=bins, input_names=("x", "size"),
        kernel_attrs=ResizeAttrs.of, moved_inputs=("x",), unread_inputs=("size",),
    )  # fmt: skip


RESIZE_NEAREST_NEIGHBOR_V2 = _resize_nearest(Engine.AICORE)
RESIZE_NEAREST_NEIGHBOR_V2_AICPU = _resize_nearest(Engine.AICPU)


def resize_nearest_l0(x: aclTensor, size: aclTensor, out_shape: tuple[int, ...], executor: aclOpExecutor) -> aclTensor:
    """l0op::ResizeNearestNeighborV2(x, size, align_corners=false, half_pixel_centers=false)."""
    out = executor.alloc_tensor(out_shape, x.dtype)
    groups = (OP_INPUT(x, size), OP_OUTPUT(out), OP_ATTR(Bool(False), Bool(False)))
    if x.dtype in AICORE_DTYPES:
        status = add_to_launcher_list_aicore(executor, RESIZE_NEAREST_NEIGHBOR_V2, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, RESIZE_NEAREST_NEIGHBOR_V2_AICPU, tuple(n for n, _ in ATTRS),
                                            *groups)  # fmt: skip
    if status != 0:
        raise L0StepFailed("ResizeNearestNeighborV2", f"status {status}")
    return out


BASE_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_UINT8)


def _check_shape(api: str, self: aclTensor, output_size: aclIntArray) -> None:
    sizes = ints(output_size)
    check_param(len(sizes) == 2, api, f"It is expected output size equals to 2, but got size {len(sizes)}.")
    shape = tuple(self.view_shape)
    check_param(len(shape) == 4, api, f"It is expected input size equals to 4, but got size {len(shape)}.")
    message = (f"Input and output sizes should be greater than 0, but got input (H: {shape[2]}, W: {shape[3]}) "
               f"output (H: {sizes[0]}, W: {sizes[1]}).")  # fmt: skip
    check_param(0 not in (shape[2], shape[3], sizes[0], sizes[1]), api, message)
    check_param(shape[1] != 0, api, f"Non-empty 4D data tensor expected but got a tensor with size {list(shape)}.")


def _check_format(api: str, self: aclTensor, out: aclTensor) -> None:
    fmt = self.storage_format
    check_param(fmt in (NCHW, NHWC), api, f"Do not support this format [{fmt}] of input.")
    message = f"Format of input and output should be equal, self [{fmt}], out [{out.storage_format}]."
    check_param(fmt == out.storage_format, api, message)


def _check_uplimit(api: str, self: aclTensor, out: aclTensor, regbase: bool) -> None:
    if regbase:
        return
    for name, label, tensor in (("self", "Self", self), ("out", "Out", out)):
        dims = tuple(tensor.view_shape)
        message = f"{label} sizes should not be greater than {INT32_MAX}, but got {name}{dims}"
        check_param(max(dims) <= INT32_MAX, api, message)


@l2_api
def aclnnUpsampleNearest2dGetWorkspaceSize(
    self: aclTensor | None, outputSize: aclIntArray | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnUpsampleNearest2d"
    check_not_null(api, self=self, outputSize=outputSize, out=out)
    assert self is not None and outputSize is not None and out is not None
    with create_executor() as unique:
        executor = unique.get()
        check_dtype(api, "self", self, list_v2((*BASE_DTYPES, D.DT_BF16), BASE_DTYPES))
        check_dtype_match(api, "self", self, out.dtype)
        _check_shape(api, self, outputSize)
        _check_format(api, self, out)
        check_nc_dims(api, self, out)
        check_output_size(api, out, outputSize)
        _check_uplimit(api, self, out, current_l2().op.soc.npu_arch == DAV_3510)
        if is_empty(self, out):
            return unique.release(0)
        channels_last = self.storage_format == NHWC
        x = contiguous(self, executor)
        size = convert_to_tensor(outputSize, D.DT_INT32, executor)
        if self.dtype in AICORE_DTYPES:
            x = to_nchw(x, channels_last, executor)
            n, c = x.view_shape[:2]
            y = resize_nearest_l0(x, size, (n, c, *ints(outputSize)), executor)
            y = from_nchw(y, channels_last, executor)
        elif channels_last:
            n, _, _, c = x.view_shape
            y = resize_nearest_l0(x, size, (n, *ints(outputSize), c), executor)
        else:
            x = transpose_l0(x, TO_NHWC, executor)
            n, _, _, c = x.view_shape
            y = transpose_l0(resize_nearest_l0(x, size, (n, *ints(outputSize), c), executor), TO_NCHW, executor)
        view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (RESIZE_NEAREST_NEIGHBOR_V2,)
