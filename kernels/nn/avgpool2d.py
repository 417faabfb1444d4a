"""aclnnAvgPool2d: 2-d average pooling of a [C, H, W] (NCL) or [N, C, H, W] (NCHW) self.

Checks as the real L2 orders them (ops-nn pooling/avg_pool3_d): null self / kernelSize / strides /
paddings / out (161001); self and out in the SoC's cube list (A2 / A3 / Ascend 950: float32,
float16, bfloat16; others float32, float16) and of one dtype; NCHW for 4-d, NCL for 3-d, self and
out alike; no negative dims, kernel and strides > 0, paddings >= 0; self and out both 3-d or both
4-d, C and H (and W) non-zero; kernelSize not empty, paddings of 1 or 2, strides of 0..2 (empty:
the kernel); each padding at most half its kernel; the output positive and out of the inferred
shape; cubeMathType valid for the dtype on the SoC (all 161002). An empty self or out launches
nothing.

Semantics (PyTorch's avg_pool2d, which the op implements): floor or ceil mode (a ceil window must
start inside the input or the left padding); the divisor is divisorOverride when it is not 0, else
the window's elements inside input + padding (countIncludePad) or inside the input only.

L0 chain: Contiguous, AvgPoolV2 (NCHW; a 3-d self viewed with N = 1), ViewCopy; the kernel sums in
float32 and rounds once to the dtype.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.nn.convolution import check_cube_math_type, cube_dtypes
from emulator.kernels.nn.pool_common import PoolAttrs, as_nchw, pool_kernel, pool_out_size, pool_tiling
from emulator.meta.dtypes import DataType
from emulator.meta.formats import aclFormat
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
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

D = DataType
NCHW, NCL = aclFormat.ACL_FORMAT_NCHW, aclFormat.ACL_FORMAT_NCL

AVG_POOL_V2 = OpImpl(
    "AvgPoolV2", pool_kernel, pool_tiling, kernel_attrs=PoolAttrs.of, kernel_json={"coreType": "AiCore"},
    attrs=(("ksize", "list_int"), ("strides", "list_int"), ("pads", "list_int"), ("ceil_mode", "bool"),
           ("exclusive", "bool"), ("divisor_override", "int")),
    attr_names=("ksize", "strides", "pads", "ceil_mode", "exclusive", "divisor_override"),
    bins=tuple(BinSpec((d,), (d,)) for d in ("float16", "float", "bfloat16")),
)  # fmt: skip


def _check_format(api: str, self: aclTensor, out: aclTensor) -> None:
    check_param(self.storage_format in (NCHW, NCL), api, "self format should be NCHW or NCL.")
    check_param(out.storage_format in (NCHW, NCL), api, "out format should be NCHW or NCL.")
    rank = len(self.view_shape)
    if rank == 4:
        check_param(self.storage_format == out.storage_format == NCHW, api, "self and out should all be NCHW when 4D.")
    if rank == 3:
        check_param(self.storage_format == out.storage_format == NCL, api, "self and out should all be NCL when 3D.")


def _check_values(api: str, self: aclTensor, out: aclTensor, kernel: list[int], strides: list[int],
                  pads: list[int]) -> None:  # fmt: skip
    check_param(all(d >= 0 for d in self.view_shape), api, "Dim value of self is negative.")
    check_param(all(d >= 0 for d in out.view_shape), api, "Dim value of out is negative.")
    check_param(all(k > 0 for k in kernel), api, "Dim value of kernel is less than or equal to 0.")
    check_param(all(s > 0 for s in strides), api, "Dim value of stride is less than or equal to 0.")
    check_param(all(p >= 0 for p in pads), api, "Dim value of padding is negtive.")


def _geometry(kernel: list[int], strides: list[int], pads: list[int]) -> tuple[tuple[int, int], tuple[int, int],
                                                                              tuple[int, int]]:  # fmt: skip
    kh = kernel[0]
    kw = kh if len(kernel) == 1 else kernel[1]
    sh = strides[0] if strides else kh
    sw = (sh if len(strides) == 1 else strides[1]) if strides else kw
    ph = pads[0]
    pw = ph if len(pads) == 1 else pads[1]
    return (kh, kw), (sh, sw), (ph, pw)


def _check_shape(api: str, self: aclTensor, out: aclTensor, kernel: list[int], strides: list[int], pads: list[int],
                 ceil: bool) -> None:  # fmt: skip
    rank, shape = len(self.view_shape), tuple(self.view_shape)
    check_param(rank == len(out.view_shape) and rank in (3, 4), api, "self and out must maintain same format, "
                "support 3D or 4D.")  # fmt: skip
    check_param(shape[1] != 0 and shape[2] != 0 and (shape[0] != 0 if rank == 3 else shape[3] != 0), api,
                f"Expected tensor with optional 0 dim batch size for input, but got: {list(shape)}.")  # fmt: skip
    check_param(len(kernel) >= 1, api, "Length of kernel is less than 1.")
    check_param(len(pads) in (1, 2), api, f"Expected length of padding is 1 or 2, but got {len(pads)}.")
    check_param(len(strides) <= 2, api, f"Expected length of stride is 0 or 1 or 2, but got: {len(strides)}.")
    (kh, kw), (sh, sw), (ph, pw) = _geometry(kernel, strides, pads)
    check_param(kh >= 2 * ph, api, f"value of paddingH should be at most half of kernelH. Actual: paddingH is [{ph}],"
                f"kernelH is [{kh}].")  # fmt: skip
    check_param(kw >= 2 * pw, api, f"value of paddingW should be at most half of kernelW. Actual: paddingW is [{pw}],"
                f"kernelW is [{kw}].")  # fmt: skip
    n, c, h, w = as_nchw(shape)
    oh, ow = pool_out_size(h, kh, ph, ph, sh, ceil), pool_out_size(w, kw, pw, pw, sw, ceil)
    check_param(oh > 0 and ow > 0, api, f"Given input size {c}x{h}x{w}, calc out size {c}x{oh}x{ow}")
    want = (c, oh, ow) if rank == 3 else (n, c, oh, ow)
    check_param(tuple(out.view_shape) == want, api, f"out shape {list(out.view_shape)} should be {list(want)}.")


def avg_pool_v2_l0(x: aclTensor, kernel: tuple[int, int], strides: tuple[int, int], pads: tuple[int, int],
                   ceil: bool, exclusive: bool, divisor: int, out_shape: tuple[int, ...],
                   executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::AvgPoolV2 (CALCULATED padding, NCHW) on a contiguous x."""
    y = executor.alloc_tensor(out_shape, x.dtype)
    ph, pw = pads
    attrs = OP_ATTR((1, 1, *kernel), (1, 1, *strides), (ph, ph, pw, pw), Bool(ceil), Bool(exclusive), Int64(divisor))
    if add_to_launcher_list_aicore(executor, AVG_POOL_V2, OP_INPUT(x), OP_OUTPUT(y), attrs) != 0:
        raise L0StepFailed("AvgPoolV2", "the launch was not recorded")
    return y


@l2_api
def aclnnAvgPool2dGetWorkspaceSize(
    self: aclTensor | None,
    kernelSize: aclIntArray | None,
    strides: aclIntArray | None,
    paddings: aclIntArray | None,
    ceilMode: bool,
    countIncludePad: bool,
    divisorOverride: int,
    cubeMathType: int,
    out: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* strides, const aclIntArray* paddings, const bool ceilMode, const bool countIncludePad,
    const int64_t divisorOverride, const int8_t cubeMathType, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnAvgPool2d"
    check_not_null(api, self=self, kernelSize=kernelSize, strides=strides, paddings=paddings, out=out)
    assert self is not None and out is not None and kernelSize is not None
    assert strides is not None and paddings is not None
    supported = cube_dtypes()
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_param(self.dtype == out.dtype, api, "self and out must have the same dtype.")
    _check_format(api, self, out)
    k, s, p = (int_array_values(a) for a in (kernelSize, strides, paddings))
    _check_values(api, self, out, k, s, p)
    ceil = bool(ceilMode)
    _check_shape(api, self, out, k, s, p, ceil)
    check_cube_math_type(api, self.dtype, int(cubeMathType))
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) or is_empty(out):
            return unique.release(0)
        kernel, stride, pads = _geometry(k, s, p)
        x = contiguous(self, executor)
        if len(self.view_shape) == 3:
            x = reshape_view(executor, x, as_nchw(self.view_shape))
        y = avg_pool_v2_l0(x, kernel, stride, pads, ceil, not countIncludePad, int(divisorOverride),
                           as_nchw(out.view_shape), executor)  # fmt: skip
        if len(out.view_shape) == 3:
            y = reshape_view(executor, y, tuple(out.view_shape))
        view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (AVG_POOL_V2,)
