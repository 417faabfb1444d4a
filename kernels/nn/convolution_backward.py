"""aclnnConvolutionBackward: the gradients of aclnnConvolution that outputMask asks for.

outputMask is [gradInput, gradWeight, gradBias]. Checks as the real checker orders them (ops-nn
conv/convolution_backward): null gradOutput / input / weight / stride / padding / dilation /
outputPadding / outputMask, outputMask of 3 values, and each masked-in gradient (161001); dtypes of
gradOutput, input, weight and the given gradients in the SoC's cube list; formats by rank (3-d ND
or NCL, 4-d NCHW, 5-d NCDHW), gradBias ND on A2 / A3 when not transposed; stride and dilation >= 1,
padding >= 0, outputPadding >= 0 when transposed (and below stride for 3-d) or all 0 otherwise,
groups >= 1; cubeMathType 0..3 and valid for the promoted dtype on the SoC; then (unless input or
weight is empty) ranks alike, gradOutput and weight not empty, gradInput / gradWeight of input's /
weight's shape, gradBias [Cout], the list sizes, Cout of gradOutput == weight[0], channels == weight[1]
* groups, and gradOutput's spatial dims the forward's (all 161002).

Compute: gradOutput, input and weight are made contiguous and cast to their promotion. gradInput is
the transposed convolution of gradOutput (the forward's adjoint: Conv2DTranspose / Conv3DTranspose
with the output padding that gives input's size), or for a transposed forward the plain convolution
of gradOutput; gradWeight is Conv2DBackpropFilter / Conv3DBackpropFilterV2 (im2col of the forward's
input times gradOutput, one matmul per group, output channels split across blocks; for a transposed
forward the roles of input and gradOutput swap); gradBias is ReduceSum of gradOutput over every dim
but C. Each is cast to its tensor's dtype and ViewCopy'd. With an empty input, weight or gradOutput
the masked-in gradients are filled with zeros.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.matmul import USE_HF32
from emulator.kernels.math.reduce_common import fill_l0, int_array_values, reduce_sum_l0
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510
from emulator.kernels.nn.conv_common import band_of, band_tiling_for, conv_weight_grad, tensor_of
from emulator.kernels.nn.convolution import (
    CUBE_MATH_TEXT,
    ConvGeometry,
    check_cube_math_type,
    compute_dtype,
    conv_l0,
    cube_dtypes,
    infer_output,
    operand,
    split_pads,
)
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.formats import aclFormat
from emulator.meta.objects import aclBoolArray, aclIntArray, aclTensor
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
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
F = aclFormat
RANK_FORMATS = {3: (F.ACL_FORMAT_ND, F.ACL_FORMAT_NCL), 4: (F.ACL_FORMAT_NCHW,), 5: (F.ACL_FORMAT_NCDHW,)}


# -- the weight-gradient kernel ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FilterGradAttrs(KernelAttrs):
    """What a BackpropFilter binary has baked in: dtypes, the x / dy / dw shapes and the geometry."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    dy_shape: tuple[int, ...]
    w_shape: tuple[int, ...]
    strides: tuple[int, ...]
    pads: tuple[int, ...]
    dilations: tuple[int, ...]
    groups: int
    hf32: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> FilterGradAttrs:
        strides, pads, dilations, groups, hf32 = signature.attrs
        x, dy, w = signature.shapes
        return cls(signature.dtypes[0], x, dy, w, tuple(strides), tuple(pads), tuple(dilations), int(groups),
                   bool(hf32))  # fmt: skip


def filter_grad_kernel(ctx: BlockContext[FilterGradAttrs], x: np.ndarray, dy: np.ndarray, dw: np.ndarray) -> None:
    """This block's output channels of dw: dy's rows times the im2col columns of x, per group."""
    a = ctx.attrs
    lo, hi = band_of(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    xs, dys = operand(x, a.dtype, a.x_shape, a.hf32), operand(dy, a.dtype, a.dy_shape, a.hf32)
    grad = conv_weight_grad(xs, dys, a.w_shape[2:], a.strides, a.pads[0::2], a.pads[1::2], a.dilations, a.groups,
                            (lo, hi))  # fmt: skip
    tensor_of(dw, a.dtype, a.w_shape)[lo:hi] = grad.astype(a.dtype)


def filter_grad_tiling(ctx: TilingContext) -> TilingResult:
    """Output channels of dw split across the cube cores, each worth at least MIN_BLOCK_MACS."""
    dy, dw = ctx.inputs[1], ctx.outputs[0]
    assert dy is not None and dw is not None
    macs = dy.numel * int(np.prod(dw.view_shape[1:], dtype=np.int64))
    return band_tiling_for(dw.view_shape[0], macs, max(ctx.platform.core_num, 1))


def _filter_op(op_type: str) -> OpImpl:
    attrs = (("strides", "list_int"), ("pads", "list_int"), ("dilations", "list_int"), ("groups", "int"),
             ("enable_hf32", "bool"))  # fmt: skip
    return OpImpl(
        op_type, filter_grad_kernel, filter_grad_tiling, attrs=attrs, attr_names=tuple(n for n, _ in attrs),
        bins=tuple(BinSpec((d, d), (d,)) for d in ("float", "float16", "bfloat16")), input_names=("x", "out_backprop"),
        kernel_attrs=FilterGradAttrs.of, kernel_json={"coreType": "AiCore"},
    )  # fmt: skip


CONV2D_BACKPROP_FILTER = _filter_op("Conv2DBackpropFilter")
CONV3D_BACKPROP_FILTER = _filter_op("Conv3DBackpropFilterV2")


def filter_grad_l0(x: aclTensor, dy: aclTensor, w_shape: tuple[int, ...], g: ConvGeometry, hf32: bool,
                   executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    impl = CONV3D_BACKPROP_FILTER if len(w_shape) == 5 else CONV2D_BACKPROP_FILTER
    dw = executor.alloc_tensor(w_shape, x.dtype)
    attrs = OP_ATTR(tuple(g.strides), g.pads, tuple(g.dilations), Int64(g.groups), Bool(hf32))
    if add_to_launcher_list_aicore(executor, impl, OP_INPUT(x, dy), OP_OUTPUT(dw), attrs) != 0:
        raise L0StepFailed(impl.op_type, "the launch was not recorded")
    return dw


# -- the checks --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grads:
    grad_input: aclTensor | None
    grad_weight: aclTensor | None
    grad_bias: aclTensor | None


def _check_dtypes_formats(api: str, tensors: Sequence[tuple[str, aclTensor | None]], transposed: bool,
                          grad_bias: aclTensor | None) -> None:  # fmt: skip
    supported = cube_dtypes()
    listed = ", ".join(dtype_name(d) for d in supported)
    for name, t in tensors:
        if t is not None:
            check_param(t.dtype in supported, api, f"{name} dtype {dtype_name(t.dtype)} should be in dtype support "
                        f"list [{listed}].")  # fmt: skip
    for name, t in tensors[:-1]:  # gradBias has its own rule
        if t is None:
            continue
        rank = len(t.view_shape)
        check_param(rank in RANK_FORMATS, api, f"{name} has {rank} dims, expected 3 or 4 or 5.")
        allowed = RANK_FORMATS[rank]
        check_param(t.storage_format in allowed, api, f"{name} format must be "
                    f"{' or '.join(f.name.removeprefix('ACL_FORMAT_') for f in allowed)}.")  # fmt: skip
    a2_or_regbase = current_l2().op.soc.npu_arch in (DAV_2201, DAV_3510)
    if not transposed and grad_bias is not None and a2_or_regbase:
        check_param(grad_bias.storage_format == F.ACL_FORMAT_ND, api, "gradBias format must be ND.")


def _check_values(api: str, stride: list[int], padding: list[int], dilation: list[int], output_padding: list[int],
                  transposed: bool, rank: int, groups: int) -> None:  # fmt: skip
    check_param(all(v >= 1 for v in stride), api, f"stride {stride}: the value of stride must be greater than or "
                "equal to 1.")  # fmt: skip
    check_param(all(v >= 0 for v in padding), api, f"padding {padding}: the value of padding must be greater than or "
                "equal to 0.")  # fmt: skip
    check_param(all(v >= 1 for v in dilation), api, f"dilation {dilation}: the value of dilation must be greater "
                "than or equal to 1.")  # fmt: skip
    if transposed:
        check_param(all(v >= 0 for v in output_padding), api, f"outputPadding {output_padding}: when transposed=true, "
                    "the value of outputPadding must be greater than or equal to 0.")  # fmt: skip
        if rank == 5:
            check_param(all(o < s for o, s in zip(output_padding, stride, strict=False)), api, f"outputPadding "
                        f"{output_padding}: when transposed=true, outputPadding must be less than stride.")  # fmt: skip
    else:
        check_param(all(v == 0 for v in output_padding), api, f"outputPadding {output_padding}: when "
                    "transposed=false, the value of outputPadding must be 0.")  # fmt: skip
    check_param(groups >= 1, api, f"groups {groups}: the value of groups must be greater than or equal to 1.")


def _check_shapes(api: str, dy: aclTensor, x: aclTensor, w: aclTensor, grads: Grads, stride: list[int],
                  padding: list[int], dilation: list[int], output_padding: list[int], transposed: bool,
                  groups: int) -> ConvGeometry:  # fmt: skip
    rank = len(x.view_shape)
    check_param(len(dy.view_shape) == rank, api, "gradOutput and input must have the same number of dims.")
    check_param(len(w.view_shape) == rank, api, "input and weight must have the same number of dims.")
    check_param(dy.numel != 0 and w.numel != 0, api, "gradOutput and weight do not support empty tensors.")
    for name, grad, like in (("gradInput", grads.grad_input, x), ("gradWeight", grads.grad_weight, w)):
        if grad is not None:
            check_param(grad.view_shape == like.view_shape, api, f"{name} shape {list(grad.view_shape)} should be "
                        f"{list(like.view_shape)}.")  # fmt: skip
    cout = dy.view_shape[1]
    if grads.grad_bias is not None:
        check_param(len(grads.grad_bias.view_shape) == 1, api, "gradBias must be 1-d.")
        check_param(tuple(grads.grad_bias.view_shape) == (cout,), api, f"gradBias shape should be [{cout}].")
    spatial = rank - 2
    check_param(len(stride) == spatial, api, f"stride has {len(stride)} elements, expected {spatial}.")
    check_param(len(dilation) == spatial, api, f"dilation has {len(dilation)} elements, expected {spatial}.")
    allowed = (spatial, 4) if rank == 4 else (spatial,)
    texts = " or ".join(str(a) for a in allowed)
    check_param(len(padding) in allowed, api, f"padding has {len(padding)} elements, expected {texts}.")
    check_param(len(output_padding) in allowed, api, f"outputPadding has {len(output_padding)} elements, expected "
                f"{texts}.")  # fmt: skip
    fwd_in, fwd_out = (dy, x) if transposed else (x, dy)
    ws = tuple(w.view_shape)
    check_param(fwd_out.view_shape[1] == ws[0], api, f"the channels of {'input' if transposed else 'gradOutput'} "
                f"{fwd_out.view_shape[1]} must equal weight's shape[0] {ws[0]}.")  # fmt: skip
    cin = fwd_in.view_shape[1]
    check_param(ws[1] != 0 and cin % ws[1] == 0, api, f"the channels {cin} must be divisible by weight's shape[1] "
                f"{ws[1]}.")  # fmt: skip
    check_param(cin // ws[1] == groups, api, f"the channels {cin} must equal weight's shape[1] {ws[1]} times groups "
                f"{groups}.")  # fmt: skip
    lo, hi = split_pads(padding, spatial)
    op = tuple(output_padding[:spatial]) if len(output_padding) == spatial else (0,) * spatial
    g = ConvGeometry(tuple(stride), lo, hi, tuple(dilation), op, groups)
    want = infer_output(tuple(fwd_in.view_shape), ws, g, False)
    check_param(tuple(fwd_out.view_shape[2:]) == want[2:], api, f"the spatial dims of "
                f"{'input' if transposed else 'gradOutput'} {list(fwd_out.view_shape[2:])} should be "
                f"{list(want[2:])}.")  # fmt: skip
    return g


# -- the gradients -----------------------------------------------------------------------------------
def _grad_input(dy: aclTensor, w: aclTensor, x_shape: tuple[int, ...], g: ConvGeometry, transposed: bool,
                hf32: bool, executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """The adjoint of the forward with respect to its input, in dy's (compute) dtype."""
    if transposed:  # the forward was a transposed convolution: its adjoint is the plain one
        return conv_l0(dy, w, None, g, False, x_shape, hf32, executor)
    k = w.view_shape[2:]
    extra = tuple(x_shape[2 + i] - ((dy.view_shape[2 + i] - 1) * g.strides[i] - g.lo[i] - g.hi[i]
                                    + g.dilations[i] * (k[i] - 1) + 1) for i in range(len(k)))  # fmt: skip
    back = ConvGeometry(g.strides, g.lo, g.hi, g.dilations, extra, g.groups)
    return conv_l0(dy, w, None, back, True, x_shape, hf32, executor)


def _compute(dy: aclTensor, x: aclTensor, w: aclTensor, grads: Grads, g: ConvGeometry, transposed: bool, mode: int,
             mask: Sequence[bool], executor: aclOpExecutor) -> None:  # fmt: skip
    compute, hf32 = compute_dtype(promote_type(dy.dtype, x.dtype), w.dtype, mode)
    dyc = cast(contiguous(dy, executor), compute, executor)
    xc = cast(contiguous(x, executor), compute, executor)
    wc = cast(contiguous(w, executor), compute, executor)
    if mask[0] and grads.grad_input is not None:
        with l0_label("gradInput"):
            gi = _grad_input(dyc, wc, tuple(x.view_shape), g, transposed, hf32, executor)
            view_copy(cast(gi, grads.grad_input.dtype, executor), grads.grad_input, executor)
    if mask[1] and grads.grad_weight is not None:
        with l0_label("gradWeight"):
            src, grad = (dyc, xc) if transposed else (xc, dyc)
            gw = filter_grad_l0(src, grad, tuple(w.view_shape), g, hf32, executor)
            view_copy(cast(gw, grads.grad_weight.dtype, executor), grads.grad_weight, executor)
    if mask[2] and grads.grad_bias is not None:
        with l0_label("gradBias"):
            axes = [0, *range(2, len(dy.view_shape))]
            gb = reduce_sum_l0(contiguous(dy, executor), axes, False, executor)
            view_copy(cast(gb, grads.grad_bias.dtype, executor), grads.grad_bias, executor)


def _zeros(grads: Grads, mask: Sequence[bool], executor: aclOpExecutor) -> None:
    """CalculateConvolutionBackwardWithEmpty: each masked-in, non-empty gradient is 0."""
    for on, t in zip(mask, (grads.grad_input, grads.grad_weight, grads.grad_bias), strict=True):
        if on and t is not None and not is_empty(t):
            view_copy(fill_l0(tuple(t.view_shape), 0.0, t.dtype, executor), t, executor)


@l2_api
def aclnnConvolutionBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None,
    input: aclTensor | None,
    weight: aclTensor | None,
    biasSizes: aclIntArray | None,
    stride: aclIntArray | None,
    padding: aclIntArray | None,
    dilation: aclIntArray | None,
    transposed: bool,
    outputPadding: aclIntArray | None,
    groups: int,
    outputMask: aclBoolArray | None,
    cubeMathType: int,
    gradInput: aclTensor | None,
    gradWeight: aclTensor | None,
    gradBias: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input,
    const aclTensor* weight, const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int groups,
    const aclBoolArray* outputMask, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnConvolutionBackward"
    check_not_null(api, gradOutput=gradOutput, input=input, weight=weight, stride=stride, padding=padding,
                   dilation=dilation, outputPadding=outputPadding, outputMask=outputMask)  # fmt: skip
    assert gradOutput is not None and input is not None and weight is not None and outputMask is not None
    assert stride is not None and padding is not None and dilation is not None and outputPadding is not None
    mask = [bool(v) for v in outputMask.values]
    check_param(len(mask) == 3, api, f"outputMask has {len(mask)} elements, expected 3.")
    for on, (name, t) in zip(mask, (("gradInput", gradInput), ("gradWeight", gradWeight), ("gradBias", gradBias)),
                             strict=True):  # fmt: skip
        if on:
            check_not_null(api, **{name: t})
    grads = Grads(gradInput, gradWeight, gradBias)
    tensors = (("gradOutput", gradOutput), ("input", input), ("weight", weight), ("gradInput", gradInput),
               ("gradWeight", gradWeight), ("gradBias", gradBias))  # fmt: skip
    is_t = bool(transposed)
    _check_dtypes_formats(api, tensors, is_t, gradBias)
    s, p, d, op = (int_array_values(a) for a in (stride, padding, dilation, outputPadding))
    rank, n_groups, mode = len(input.view_shape), int(groups), int(cubeMathType)
    _check_values(api, s, p, d, op, is_t, rank, n_groups)
    check_param(0 <= mode <= USE_HF32, api, f"{CUBE_MATH_TEXT.replace(', 4: USE_FP32_ADD', '')}{mode}")
    check_cube_math_type(api, promote_type(promote_type(gradOutput.dtype, input.dtype), weight.dtype), mode)
    empty = is_empty(input) or is_empty(weight)
    g = None if empty else _check_shapes(api, gradOutput, input, weight, grads, s, p, d, op, is_t, n_groups)
    with create_executor() as unique:
        executor = unique.get()
        if g is None or is_empty(gradOutput):
            _zeros(grads, mask, executor)
            return unique.release(executor.get_workspace_size())
        _compute(gradOutput, input, weight, grads, g, is_t, mode, mask, executor)
        return unique.release(executor.get_workspace_size())


OPS = (CONV2D_BACKPROP_FILTER, CONV3D_BACKPROP_FILTER)
