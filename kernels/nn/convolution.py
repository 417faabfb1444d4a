"""aclnnConvolution: 1-d / 2-d / 3-d convolution and transposed convolution over [N, C, *spatial].

Checks in the real checker order (ops-nn conv/convolution_forward): null input / weight / stride /
padding / dilation / output, and outputPadding when transposed (161001); bias dtype, then input,
weight and output against the SoC's cube list (161002, as every check below); ranks 3..5, weight and
output of input's rank, a 1-d bias of Cout (weight.C * groups when transposed), the list sizes
(stride and dilation rank - 2; padding rank - 2 or, for 1-d / 2-d, the per-side 2 * (rank - 2));
formats (output of input's format, NCL / NCHW / NCDHW by rank, ND allowed for bias); values
(filter spatial dims > 0, stride and dilation > 0, the padded input at least one window, groups > 0,
Cin == weight.C * groups, Cout divisible by groups, outputPadding below stride or dilation and >= 0);
the output shape against the inferred one (an empty input or weight needs an empty output); the
cubeMathType against the SoC (fp32 / bf16 without a fp32 cube is refused unless cubeMathType lets it
go down). An empty input, weight or output launches nothing.

L0 chain: Contiguous, Cast of input and weight to the compute dtype (their promotion; float16 under
USE_FP16), Conv2D (1-d and 2-d) / Conv3DV2 or Conv2DTranspose / Conv3DTranspose with the bias in
float32, Cast to output's dtype, ViewCopy. The kernel is im2col + one float32 matmul per group over a
band of output rows per block; fp32 under ALLOW_FP32_DOWN_PRECISION / USE_HF32 rounds its inputs to
HF32 as MatMul does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.matmul import (
    ALLOW_FP32_DOWN_PRECISION,
    KEEP_DTYPE,
    USE_FP16,
    USE_FP32_ADD,
    USE_HF32,
    to_hf32,
)
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510
from emulator.kernels.nn.conv_common import (
    F32,
    as_f32,
    band_of,
    band_tiling_for,
    conv_forward,
    conv_transposed,
    out_rows,
    tensor_of,
)
from emulator.meta.dtypes import DataType, dtype_name, promote_type
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
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
F = aclFormat
CUBE_DTYPES_FP32 = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)  # parts with a fp32 cube (A2 / A3, Ascend 950)
CUBE_DTYPES_OTHER = (D.DT_FLOAT, D.DT_FLOAT16)
BIAS_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
BIAS_DTYPES_310P = (D.DT_FLOAT, D.DT_FLOAT16)
RANK_FORMAT = {3: F.ACL_FORMAT_NCL, 4: F.ACL_FORMAT_NCHW, 5: F.ACL_FORMAT_NCDHW}
BIAS_FORMATS = (F.ACL_FORMAT_NCL, F.ACL_FORMAT_NCHW, F.ACL_FORMAT_NCDHW, F.ACL_FORMAT_ND)
CUBE_MATH_TEXT = ("The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: USE_FP16, "
                  "3: USE_HF32, 4: USE_FP32_ADD}, but got ")  # fmt: skip


# -- the kernel --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ConvAttrs(KernelAttrs):
    """What a Conv binary has baked in: the dtypes and shapes of x, filter, (bias,) y and the geometry."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    w_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    has_bias: bool
    strides: tuple[int, ...]
    pads: tuple[int, ...]  # lo, hi of each spatial dim
    dilations: tuple[int, ...]
    groups: int
    output_padding: tuple[int, ...]  # transposed ops only (empty otherwise)
    hf32: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> ConvAttrs:
        strides, pads, dilations, groups, *rest = signature.attrs
        output_padding = tuple(rest[0]) if len(rest) == 2 else ()
        return cls(signature.dtypes[0], signature.dtypes[-1], signature.shapes[0], signature.shapes[1],
                   signature.shapes[-1], len(signature.shapes) == 4, tuple(strides), tuple(pads), tuple(dilations),
                   int(groups), output_padding, bool(rest[-1]))  # fmt: skip


def cube_operand(dtype: np.dtype, hf32: bool) -> Callable[[np.ndarray], np.ndarray]:
    """How the cube reads an operand: float32 (float16 / bfloat16 widened), HF32-rounded when the binary runs HF32."""
    if hf32 and dtype == F32:
        return lambda v: to_hf32(v.astype(F32, copy=False))
    return as_f32


def operand(buf: np.ndarray, dtype: np.dtype, shape: Sequence[int], hf32: bool) -> np.ndarray:
    """A whole input as the cube reads it."""
    return cube_operand(dtype, hf32)(tensor_of(buf, dtype, shape))


def conv_kernel(ctx: BlockContext[ConvAttrs], x: np.ndarray, w: np.ndarray, *rest: np.ndarray) -> None:
    """This block's band of output rows: im2col of the band and one float32 matmul per group."""
    a = ctx.attrs
    lo, hi = band_of(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    xs, ws = tensor_of(x, a.x_dtype, a.x_shape), tensor_of(w, a.x_dtype, a.w_shape)
    cube = cube_operand(a.x_dtype, a.hf32)
    pad_lo, pad_hi = a.pads[0::2], a.pads[1::2]
    if a.output_padding:
        band = conv_transposed(xs, ws, a.strides, pad_lo, pad_hi, a.dilations, a.output_padding, a.groups, (lo, hi),
                               cube)  # fmt: skip
    else:
        band = conv_forward(xs, ws, a.strides, pad_lo, pad_hi, a.dilations, a.groups, (lo, hi), cube)
    if a.has_bias:
        bias = rest[0].view(F32)[: a.y_shape[1]]
        band += bias.reshape((1, -1) + (1,) * (len(a.y_shape) - 2))
    y = tensor_of(rest[-1], a.y_dtype, a.y_shape)
    y[:, :, lo:hi] = band.astype(a.y_dtype)


def conv_tiling(ctx: TilingContext) -> TilingResult:
    """Bands of output rows, one per cube core at most, each worth at least MIN_BLOCK_MACS."""
    x, w, y = ctx.inputs[0], ctx.inputs[1], ctx.outputs[0]
    assert x is not None and w is not None and y is not None
    macs = y.numel * int(np.prod(w.view_shape[1:], dtype=np.int64))
    return band_tiling_for(out_rows(ctx), macs, max(ctx.platform.core_num, 1))


def _bins(with_bias: bool) -> tuple[BinSpec, ...]:
    return tuple(BinSpec((d, d, "float" if with_bias else None), (d,)) for d in ("float", "float16", "bfloat16"))


def _conv_op(op_type: str, transposed: bool) -> OpImpl:
    attrs = [("strides", "list_int"), ("pads", "list_int"), ("dilations", "list_int"), ("groups", "int")]
    if transposed:
        attrs.append(("output_padding", "list_int"))
    attrs.append(("enable_hf32", "bool"))
    return OpImpl(
        op_type, conv_kernel, conv_tiling, attrs=tuple(attrs), attr_names=tuple(n for n, _ in attrs),
        bins=_bins(True) + _bins(False), input_names=("x", "filter", "bias"), kernel_attrs=ConvAttrs.of,
        kernel_json={"coreType": "AiCore"},
    )  # fmt: skip


CONV2D = _conv_op("Conv2D", False)
CONV3D = _conv_op("Conv3DV2", False)
CONV2D_TRANSPOSE = _conv_op("Conv2DTranspose", True)
CONV3D_TRANSPOSE = _conv_op("Conv3DTranspose", True)


# -- geometry ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ConvGeometry:
    """The attribute lists of one call, normalised: per spatial dim stride, lo / hi pad, dilation."""

    strides: tuple[int, ...]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    dilations: tuple[int, ...]
    output_padding: tuple[int, ...]
    groups: int

    @property
    def pads(self) -> tuple[int, ...]:
        return tuple(v for pair in zip(self.lo, self.hi, strict=True) for v in pair)


def split_pads(padding: Sequence[int], spatial: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Padding as (lo, hi) per spatial dim: one value per dim is both sides; 2 per dim (1-d / 2-d) is
    [top, bottom, left, right] order, as the real op reads it."""
    if len(padding) == 2 * spatial and spatial in (1, 2):
        return tuple(padding[0::2]), tuple(padding[1::2])
    return tuple(padding), tuple(padding)


def infer_output(x: Sequence[int], w: Sequence[int], g: ConvGeometry, transposed: bool) -> tuple[int, ...]:
    """The output shape the real InferShape gives (no clamping: a negative length stays negative)."""
    dims = [x[0], w[1] * g.groups if transposed else w[0]]
    for i in range(len(x) - 2):
        span = g.dilations[i] * (w[2 + i] - 1)
        if transposed:
            dims.append((x[2 + i] - 1) * g.strides[i] - g.lo[i] - g.hi[i] + span + g.output_padding[i] + 1)
        else:
            dims.append((x[2 + i] + g.lo[i] + g.hi[i] - span - 1) // g.strides[i] + 1)
    return tuple(dims)


# -- the checks --------------------------------------------------------------------------------------
def cube_dtypes() -> tuple[int, ...]:
    arch = current_l2().op.soc.npu_arch
    return CUBE_DTYPES_FP32 if arch in (DAV_2201, DAV_3510) else CUBE_DTYPES_OTHER


def cube_supports_fp32() -> bool:
    return current_l2().op.soc.npu_arch in (DAV_2201, DAV_3510)


def check_cube_dtype(api: str, name: str, dtype: int, supported: Sequence[int]) -> None:
    listed = ", ".join(dtype_name(d) for d in supported)
    check_param(dtype in supported, api, f"{name} dtype {dtype_name(dtype)} should be one of [{listed}].")


def check_cube_math_type(api: str, upper: int, mode: int) -> None:
    """CheckCubeMathType: the value, and fp32 / bf16 compute on a part without a fp32 cube."""
    check_param(mode in (KEEP_DTYPE, ALLOW_FP32_DOWN_PRECISION, USE_FP16, USE_HF32, USE_FP32_ADD), api,
                f"{CUBE_MATH_TEXT}{mode}")  # fmt: skip
    if cube_supports_fp32():
        return
    lowers = mode in (ALLOW_FP32_DOWN_PRECISION, USE_FP16)
    bad = upper == D.DT_BF16 if lowers else upper in (D.DT_FLOAT, D.DT_BF16)
    check_param(not bad, api, "The soc version does not support bf16 / fp32 for calculations, please change the "
                "setting of cubeMathType or the Dtype of input tensor.")  # fmt: skip


def check_spatial_values(api: str, x: Sequence[int], w: Sequence[int], g: ConvGeometry, transposed: bool) -> None:
    """ValueChecker's shape, stride, dilation and padded-size rules."""
    for i in range(2, len(x)):
        check_param(x[i] >= 0, api, f"input shape {list(x)}: shape[{i}] must be greater than or equal to 0.")
        check_param(w[i] > 0, api, f"weight shape {list(w)}: shape[{i}] must be greater than 0.")
    for name, values in (("stride", g.strides), ("dilation", g.dilations)):
        for i, v in enumerate(values):
            check_param(v > 0, api, f"{name} {list(values)}: element {i} must be greater than 0.")
    if transposed or 0 in x:
        return
    for i in range(len(x) - 2):
        room = x[2 + i] + g.lo[i] + g.hi[i] - g.dilations[i] * (w[2 + i] - 1) - 1
        check_param(room >= 0, api, f"input shape {list(x)}: dim {2 + i} plus its padding must hold one dilated "
                    f"kernel window (input + pads - dilation * (kernel - 1) - 1 >= 0, got {room}).")  # fmt: skip


def check_channels(api: str, x: Sequence[int], w: Sequence[int], g: ConvGeometry, transposed: bool) -> int:
    """CheckChannelAndGroups; returns the output channel count."""
    check_param(g.groups > 0, api, f"groups {g.groups} must be greater than 0.")
    if transposed:
        check_param(w[0] == x[1], api, f"when transposed, weight's shape[0] {w[0]} must equal input's channels "
                    f"{x[1]}.")  # fmt: skip
        for i, v in enumerate(g.output_padding):
            check_param(v < g.strides[i] or v < g.dilations[i], api, f"outputPadding[{i}] {v} must be less than "
                        f"stride[{i}] or dilation[{i}].")  # fmt: skip
            check_param(v >= 0, api, f"outputPadding[{i}] {v} must be greater than or equal to 0.")
        cout = w[1] * g.groups
    else:
        check_param(w[1] * g.groups == x[1], api, f"input's channels {x[1]} must equal weight's shape[1] {w[1]} "
                    f"times groups {g.groups}.")  # fmt: skip
        cout = w[0]
    check_param(w[0] % g.groups == 0, api, f"weight's shape[0] {w[0]} must be divisible by groups {g.groups}.")
    return cout


def check_lists(api: str, rank: int, transposed: bool, stride: list[int], padding: list[int], dilation: list[int],
                output_padding: list[int]) -> None:  # fmt: skip
    spatial = rank - 2
    check_param(len(stride) == spatial, api, f"stride has {len(stride)} elements, expected {spatial}.")
    check_param(len(dilation) == spatial, api, f"dilation has {len(dilation)} elements, expected {spatial}.")
    per_side = (rank in (3, 4) and not transposed) or (rank == 4 and transposed)
    allowed = (spatial, 2 * spatial) if per_side else (spatial,)
    check_param(len(padding) in allowed, api, f"padding has {len(padding)} elements, expected "
                f"{' or '.join(str(a) for a in allowed)}.")  # fmt: skip
    if transposed:
        check_param(len(output_padding) == spatial, api, f"outputPadding has {len(output_padding)} elements, "
                    f"expected {spatial}.")  # fmt: skip


def check_ranks(api: str, x: aclTensor, w: aclTensor, out: aclTensor) -> None:
    for name, t in (("input", x), ("weight", w), ("output", out)):
        check_param(len(t.view_shape) in (3, 4, 5), api, f"{name} has {len(t.view_shape)} dims, expected one of "
                    "{3, 4, 5}.")  # fmt: skip
    check_param(len(w.view_shape) == len(x.view_shape), api, "input and weight must have the same number of dims.")
    check_param(len(out.view_shape) == len(x.view_shape), api, "input and output must have the same number of dims.")


def check_bias_shape(api: str, bias: aclTensor | None, w: Sequence[int], groups: int, transposed: bool) -> None:
    if bias is None:
        return
    shape = tuple(bias.view_shape)
    check_param(len(shape) == 1, api, f"bias has {len(shape)} dims, expected 1.")
    want = w[1] * groups if transposed else w[0]
    check_param(shape[0] == want, api, f"bias shape {list(shape)} must be [{want}] "
                f"({'weight.shape[1] * groups' if transposed else 'weight.shape[0]'}).")  # fmt: skip


def check_formats(api: str, x: aclTensor, w: aclTensor, bias: aclTensor | None, out: aclTensor) -> None:
    """FormatChecker: output of input's format, the rank's NCL / NCHW / NCDHW (FRACTAL_Z weights are
    not emulated), bias NCL / NCHW / NCDHW / ND."""
    check_param(x.storage_format == out.storage_format, api, "input and output must have the same format.")
    if bias is not None:
        check_param(bias.storage_format in BIAS_FORMATS, api, "bias format must be one of {NCL, NCHW, NCDHW, ND}.")
    want = RANK_FORMAT[len(x.view_shape)]
    check_param(w.storage_format != F.ACL_FORMAT_FRACTAL_Z, api, "FRACTAL_Z weights are not emulated: pass the "
                "weight in the NCHW format.")  # fmt: skip
    for name, t in (("input", x), ("weight", w), ("output", out)):
        check_param(t.storage_format == want, api, f"{name} format must be {want.name.removeprefix('ACL_FORMAT_')}.")


def check_output_shape(api: str, x: aclTensor, w: aclTensor, out: aclTensor, inferred: tuple[int, ...]) -> None:
    shape = tuple(out.view_shape)
    for i, (got, want) in enumerate(zip(shape, inferred, strict=True)):
        check_param(got == want, api, f"output shape {list(shape)}: shape[{i}] must be its inferred value {want}.")
    if is_empty(x) or is_empty(w):
        check_param(is_empty(out), api, "if input or weight is empty, output must be empty.")


def conv_geometry(api: str, x: aclTensor, stride: aclIntArray, padding: aclIntArray, dilation: aclIntArray,
                  transposed: bool, output_padding: aclIntArray | None, groups: int) -> ConvGeometry:  # fmt: skip
    rank = len(x.view_shape)
    s, p, d = int_array_values(stride), int_array_values(padding), int_array_values(dilation)
    op = int_array_values(output_padding) if transposed and output_padding is not None else []
    check_lists(api, rank, transposed, s, p, d, op)
    lo, hi = split_pads(p, rank - 2)
    return ConvGeometry(tuple(s), lo, hi, tuple(d), tuple(op) or (0,) * (rank - 2), groups)


def check_conv(api: str, x: aclTensor, w: aclTensor, bias: aclTensor | None, stride: aclIntArray,
               padding: aclIntArray, dilation: aclIntArray, transposed: bool, output_padding: aclIntArray | None,
               groups: int, out: aclTensor, mode: int) -> ConvGeometry:  # fmt: skip
    """The checker list of aclnnConvolution after the null checks; returns the normalised geometry."""
    if bias is not None:
        check_cube_dtype(api, "bias", bias.dtype, BIAS_DTYPES)
    supported = cube_dtypes()
    for name, t in (("input", x), ("weight", w), ("output", out)):
        check_cube_dtype(api, name, t.dtype, supported)
    check_ranks(api, x, w, out)
    xs, ws = tuple(x.view_shape), tuple(w.view_shape)
    check_bias_shape(api, bias, ws, groups, transposed)
    g = conv_geometry(api, x, stride, padding, dilation, transposed, output_padding, groups)
    check_formats(api, x, w, bias, out)
    check_spatial_values(api, xs, ws, g, transposed)
    check_channels(api, xs, ws, g, transposed)
    check_output_shape(api, x, w, out, infer_output(xs, ws, g, transposed))
    check_cube_math_type(api, promote_type(x.dtype, w.dtype), mode)
    return g


# -- L0 ----------------------------------------------------------------------------------------------
def compute_dtype(x: int, w: int, mode: int) -> tuple[int, bool]:
    """(the cube's dtype, HF32) for the promoted input dtype under cubeMathType."""
    upper = promote_type(x, w)
    if upper == D.DT_FLOAT and (mode == USE_FP16 or (mode == ALLOW_FP32_DOWN_PRECISION and not cube_supports_fp32())):
        return D.DT_FLOAT16, False
    hf32 = upper == D.DT_FLOAT and mode in (ALLOW_FP32_DOWN_PRECISION, USE_HF32)
    return upper, hf32


def conv_l0(x: aclTensor, w: aclTensor, bias: aclTensor | None, g: ConvGeometry, transposed: bool,
            out_shape: tuple[int, ...], hf32: bool, executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::Conv2d / Conv3d / ConvTranspose2d / ConvTranspose3d on contiguous, same-dtype x and w."""
    three_d = len(x.view_shape) == 5
    impl = (CONV3D_TRANSPOSE if three_d else CONV2D_TRANSPOSE) if transposed else (CONV3D if three_d else CONV2D)
    y = executor.alloc_tensor(out_shape, x.dtype)
    attrs = [tuple(g.strides), g.pads, tuple(g.dilations), Int64(g.groups)]
    if transposed:
        attrs.append(tuple(g.output_padding))
    attrs.append(Bool(hf32))
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(x, w, bias), OP_OUTPUT(y), OP_ATTR(*attrs))
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return y


def conv_chain(x: aclTensor, w: aclTensor, bias: aclTensor | None, g: ConvGeometry, transposed: bool, mode: int,
               out_shape: tuple[int, ...], out_dtype: int, executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """Contiguous -> Cast(compute) -> the conv kernel (bias in float32) -> Cast(out_dtype)."""
    compute, hf32 = compute_dtype(x.dtype, w.dtype, mode)
    xc = cast(contiguous(x, executor), compute, executor)
    wc = cast(contiguous(w, executor), compute, executor)
    bc = cast(contiguous(bias, executor), D.DT_FLOAT, executor) if bias is not None else None
    y = conv_l0(xc, wc, bc, g, transposed, out_shape, hf32, executor)
    return cast(y, out_dtype, executor)


@l2_api
def aclnnConvolutionGetWorkspaceSize(
    input: aclTensor | None,
    weight: aclTensor | None,
    bias: aclTensor | None,
    stride: aclIntArray | None,
    padding: aclIntArray | None,
    dilation: aclIntArray | None,
    transposed: bool,
    outputPadding: aclIntArray | None,
    groups: int,
    output: aclTensor | None,
    cubeMathType: int,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
    const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
    bool transposed, const aclIntArray* outputPadding, const int64_t groups, aclTensor* output, int8_t cubeMathType,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnConvolution"
    check_not_null(api, input=input, weight=weight, stride=stride, padding=padding, dilation=dilation, output=output)
    if transposed:
        check_not_null(api, outputPadding=outputPadding)
    assert input is not None and weight is not None and output is not None
    assert stride is not None and padding is not None and dilation is not None
    mode = int(cubeMathType)
    g = check_conv(api, input, weight, bias, stride, padding, dilation, bool(transposed), outputPadding,
                   int(groups), output, mode)  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(input) or is_empty(weight) or is_empty(output):
            return unique.release(0)
        y = conv_chain(input, weight, bias, g, bool(transposed), mode, tuple(output.view_shape), output.dtype,
                       executor)  # fmt: skip
        view_copy(y, output, executor)
        return unique.release(executor.get_workspace_size())


OPS = (CONV2D, CONV3D, CONV2D_TRANSPOSE, CONV3D_TRANSPOSE)
