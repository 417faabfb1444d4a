"""aclnnMaxPool: 2-d max pooling of a [C, H, W] or [N, C, H, W] self (ONNX MaxPool's attributes).

Checks as the real L2 orders them (ops-nn pooling/max_pool_v3): null self / kernelShape / strides /
pads / dilations / out (161001); self's dtype in the SoC's list (A2 / A3: float16, float32; Ascend
950: float16, float32, bfloat16 and the integer types; others float16) and out of self's dtype;
self and out of one storage format, not private, self 3-d or 4-d; kernelShape of 1 or 2 values,
strides 0..2, pads 0, 1, 2 or 4, dilations 0, 1, 2 or 4; autoPad 0 (NOTSET); every dilation 1;
kernel and strides > 0; each dim's two pads at most the kernel; C, H, W non-zero; the output
positive and out of the inferred shape (all 161002). Pads of 4 are [top, left, bottom, right]. An
empty self or out launches nothing.

L0 chain: Contiguous, MaxPoolV3 (1, 1, kH, kW windows; NCHW; a 3-d self viewed as N = 1), ViewCopy.
The real op picks MaxPool3DWithArgmaxV2 for kernels above 1000 on A2: the same values here.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510
from emulator.kernels.math.unary import check_dtype_match
from emulator.kernels.nn.pool_common import PoolAttrs, as_nchw, pool_kernel, pool_out_size, pool_tiling
from emulator.meta.dtypes import DataType
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Int64,
    OpImpl,
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
MAX_POOL_A2 = (D.DT_FLOAT16, D.DT_FLOAT)
MAX_POOL_REGBASE = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_INT16, D.DT_INT8,
                    D.DT_UINT16)  # fmt: skip
MAX_POOL_OTHER = (D.DT_FLOAT16,)
BIN_DTYPES = ("float16", "float", "bfloat16", "int32", "int64", "uint8", "int16", "int8", "uint16")

MAX_POOL_V3 = OpImpl(
    "MaxPoolV3", pool_kernel, pool_tiling, kernel_attrs=PoolAttrs.of, kernel_json={"coreType": "AiCore"},
    attrs=(("ksize", "list_int"), ("strides", "list_int"), ("pads", "list_int"), ("ceil_mode", "bool")),
    attr_names=("ksize", "strides", "pads", "ceil_mode"), bins=tuple(BinSpec((d,), (d,)) for d in BIN_DTYPES),
)  # fmt: skip


def _supported() -> tuple[int, ...]:
    arch = current_l2().op.soc.npu_arch
    return MAX_POOL_A2 if arch == DAV_2201 else MAX_POOL_REGBASE if arch == DAV_3510 else MAX_POOL_OTHER


def _geometry(kernel: list[int], strides: list[int], pads: list[int]) -> tuple[tuple[int, int], tuple[int, int],
                                                                              tuple[int, int, int, int]]:  # fmt: skip
    """(kH, kW), (sH, sW), (top, bottom, left, right) as the real op expands its lists."""
    kh = kernel[0]
    kw = kh if len(kernel) == 1 else kernel[1]
    sh = strides[0] if strides else 1
    sw = (sh if len(strides) == 1 else strides[1]) if strides else 1
    if len(pads) == 1:
        four = (pads[0],) * 4
    elif len(pads) == 2:
        four = (pads[0], pads[0], pads[1], pads[1])
    elif len(pads) == 4:
        four = (pads[0], pads[2], pads[1], pads[3])
    else:
        four = (0, 0, 0, 0)
    return (kh, kw), (sh, sw), four


def _check_lists(api: str, kernel: list[int], strides: list[int], auto_pad: int, pads: list[int],
                 dilations: list[int]) -> None:  # fmt: skip
    check_param(len(kernel) in (1, 2), api, f"The size of kernelShape must be one or two, but got {len(kernel)}.")
    check_param(len(strides) in (0, 1, 2), api, f"The size of strides must be zero, one or two, but got "
                f"{len(strides)}.")  # fmt: skip
    check_param(len(pads) in (0, 1, 2, 4), api, f"The size of pads must be zero, one, two or four, but got "
                f"{len(pads)}.")  # fmt: skip
    check_param(len(dilations) in (0, 1, 2, 4), api, f"The size of dilations must be zero, one, two or four, but got "
                f"{len(dilations)}.")  # fmt: skip
    check_param(auto_pad == 0, api, f"value of autoPad must be zero representing NOTSET, but got autoPad:{auto_pad}")
    check_param(all(d == 1 for d in dilations), api, "dilation value along each spatial axis only support 1, but got "
                f"{', '.join(str(d) for d in dilations)}")  # fmt: skip


def _check_shape(api: str, self: aclTensor, out: aclTensor, kernel: list[int], strides: list[int], pads: list[int],
                 ceil: bool) -> None:  # fmt: skip
    (kh, kw), (sh, sw), (pt, pb, pl, pr) = _geometry(kernel, strides, pads)
    check_param(kh > 0 and kw > 0, api, f"The size of kernel should be greater than 0, but got kh:{kh}, kw:{kw}")
    check_param(sh > 0 and sw > 0, api, f"The size of strides should be greater than 0, but got dh:{sh}, dw:{sw}")
    check_param(pt + pb <= kh and pl + pr <= kw, api, "padding for the sum of beginning and ending along each "
                "spatial axis, should be smaller than, or equal to value of kernel size, but got "
                f"kh:{kh}, kw:{kw}, padHL:{pt}, padHR:{pb}, padWL:{pl}, padWR:{pr}")  # fmt: skip
    n, c, h, w = as_nchw(self.view_shape)
    check_param(c != 0 and h != 0 and w != 0, api, "Expected tensor with optional 0 dim batch size, but got "
                f"nInputPlane:{c}, height:{h}, width:{w}")  # fmt: skip
    oh, ow = pool_out_size(h, kh, pt, pb, sh, ceil), pool_out_size(w, kw, pl, pr, sw, ceil)
    check_param(oh > 0 and ow > 0, api, f"Given input size {c}x{h}x{w}, calc out size {c}x{oh}x{ow}")
    want = (c, oh, ow) if len(self.view_shape) == 3 else (n, c, oh, ow)
    check_param(tuple(out.view_shape) == want, api, f"out shape {list(out.view_shape)} should be {list(want)}.")


def max_pool_v3_l0(x: aclTensor, kernel: tuple[int, int], strides: tuple[int, int], pads: tuple[int, ...],
                   ceil: bool, out_shape: tuple[int, ...], executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::MaxPoolV3 on a contiguous NCHW x."""
    y = executor.alloc_tensor(out_shape, x.dtype)
    attrs = OP_ATTR((1, 1, *kernel), (1, 1, *strides), tuple(pads), Int64(int(ceil)))
    if add_to_launcher_list_aicore(executor, MAX_POOL_V3, OP_INPUT(x), OP_OUTPUT(y), attrs) != 0:
        raise L0StepFailed("MaxPoolV3", "the launch was not recorded")
    return y


@l2_api
def aclnnMaxPoolGetWorkspaceSize(
    self: aclTensor | None,
    kernelShape: aclIntArray | None,
    strides: aclIntArray | None,
    autoPad: int,
    pads: aclIntArray | None,
    dilations: aclIntArray | None,
    ceilMode: int,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
    const aclIntArray* strides, const int64_t autoPad, const aclIntArray* pads, const aclIntArray* dilations,
    const int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnMaxPool"
    check_not_null(api, self=self, kernelShape=kernelShape, strides=strides, pads=pads, dilations=dilations, out=out)
    assert self is not None and out is not None and kernelShape is not None
    assert strides is not None and pads is not None and dilations is not None
    check_dtype(api, "self", self, _supported())
    check_dtype_match(api, "out", out, self.dtype)
    check_param(self.storage_format == out.storage_format, api, "Format of input and output should be same.")
    check_param(not is_private_format(self.storage_format), api, "Format only support NCHW or CHW")
    check_param(len(self.view_shape) in (3, 4), api, "3D or 4D tensor expected for inputs")
    k, s, p, d = (int_array_values(a) for a in (kernelShape, strides, pads, dilations))
    _check_lists(api, k, s, int(autoPad), p, d)
    ceil = bool(ceilMode)
    _check_shape(api, self, out, k, s, p, ceil)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) or is_empty(out):
            return unique.release(0)
        kernel, stride, four = _geometry(k, s, p)
        x = contiguous(self, executor)
        if len(self.view_shape) == 3:
            x = reshape_view(executor, x, as_nchw(self.view_shape))
        y = max_pool_v3_l0(x, kernel, stride, four, ceil, as_nchw(out.view_shape), executor)
        if len(out.view_shape) == 3:
            y = reshape_view(executor, y, tuple(out.view_shape))
        view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (MAX_POOL_V3,)
