"""The plumbing the backward ops share: their two L0 kernel shapes, their L2 chain and checks.

A backward op takes the upstream gradient and what the forward saw or produced, and returns the
gradient of the forward's input. Two kernel shapes cover the activation and softmax backwards:

- **elementwise** (SigmoidGrad, SiluGrad, GeluGrad, HardSwishGrad, ReluGrad, ThresholdGradV2D): each
  output element from the same element of each input; inputs of the output's shape are read by
  range, a broadcast input through the broadcast index map (the RegBase parts launch broadcasting
  kernels; the A2 chains broadcast with BroadcastTo first). Half inputs compute in float32 and round
  once, as the A2 vector kernels widen.
- **row** (SoftmaxGrad, LogSoftmaxGrad): one softmax row (the ``dim`` axis of one [outer, inner]
  position) from the same row of both inputs; SoftmaxV2's tiling splits the rows across the cores.

``plan_grad`` is the L2 chain after the checks: empty shortcut, Contiguous of each input, the op's
middle steps, Cast(out) and ViewCopy.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.args import Attr
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, TensorDesc
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.elementwise import _read, broadcast_shape
from emulator.kernels.math.reduce_common import acc_dtype, ar_view, pieces
from emulator.kernels.math.softmax import SoftmaxV2TilingData, softmax_tiling
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    contiguous,
    create_executor,
    elementwise_tiling,
    view_copy,
)
from emulator.opdev.checks import check_param, is_empty

D = DataType
F32 = np.dtype(np.float32)
Shape = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GradAttrs(KernelAttrs):
    """What a backward binary has baked in: every tensor's dtype and shape (inputs, then the output) and
    its attribute values."""

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[Shape, ...]
    values: tuple[Any, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> GradAttrs:
        return cls(tuple(signature.dtypes), tuple(signature.shapes), tuple(signature.attrs))


# -- elementwise backward kernels ---------------------------------------------------------------------------
GradCompute = Callable[[Sequence[np.ndarray], tuple[Any, ...]], np.ndarray]


def _elementwise_kernel(compute: GradCompute) -> Callable[..., None]:
    def kernel(ctx: BlockContext[GradAttrs], *buffers: np.ndarray) -> None:
        lo, hi = block_range(ctx.tiling, ctx.block_idx)
        if lo >= hi:
            return
        attrs = ctx.attrs
        *ins, y = buffers
        out_dtype, out_shape = attrs.dtypes[-1], attrs.shapes[-1]
        work = acc_dtype(out_dtype)
        args = [
            _read(b, dt, shape, out_shape, lo, hi).astype(work, copy=False)
            for b, dt, shape in zip(ins, attrs.dtypes, attrs.shapes, strict=False)
        ]
        with np.errstate(all="ignore"):
            result = compute(args, attrs.values)
        y.view(out_dtype)[lo:hi] = np.broadcast_to(result, (hi - lo,)).astype(out_dtype, copy=False)

    return kernel


def _elementwise_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, len(ctx.inputs) + 1)


def _infer_elementwise(inputs: Sequence[TensorDesc | None], attrs: Sequence[object]) -> list[Shape]:
    shape: Shape | None = ()
    for desc in inputs:
        assert desc is not None and shape is not None
        shape = broadcast_shape(shape, desc.view_shape)
    if shape is None:
        raise ValueError("shapes do not broadcast")
    return [shape]


@dataclass(frozen=True)
class GradOp:
    """An elementwise backward L0 op: its AI Core OpImpl (one binary per dtype) and, where the real op has
    one, its AI CPU OpImpl with the attributes that launch passes."""

    aicore: OpImpl
    aicore_dtypes: tuple[int, ...]
    aicpu: OpImpl | None = None
    aicpu_attrs: tuple[str, ...] = ()


def grad_op(
    op_type: str,
    compute: GradCompute,
    input_names: tuple[str, ...],
    dtypes: Sequence[int],
    attrs: tuple[tuple[str, str], ...] = (),
    aicpu_attrs: tuple[str, ...] | None = None,
) -> GradOp:
    """The L0 op of an elementwise backward kernel: AI Core binaries per dtype (every input and the output of
    that dtype), an AI CPU kernel when ``aicpu_attrs`` is given; ``compute(inputs, attr_values)`` gets the
    block's inputs in the work dtype."""
    kernel = _elementwise_kernel(compute)
    bins = tuple(BinSpec((NAMES[d],) * len(input_names), (NAMES[d],)) for d in dtypes)
    names = tuple(n for n, _ in attrs)
    aicore = OpImpl(
        op_type, kernel, _elementwise_tiling, infer_shape=_infer_elementwise, bins=bins, input_names=input_names,
        attr_names=names, attrs=attrs, kernel_attrs=GradAttrs.of,
    )  # fmt: skip
    aicpu = None
    if aicpu_attrs is not None:
        aicpu = OpImpl(
            op_type, kernel, _elementwise_tiling, infer_shape=_infer_elementwise, engine=Engine.AICPU,
            input_names=input_names, attr_names=aicpu_attrs, kernel_attrs=GradAttrs.of,
        )  # fmt: skip
    return GradOp(aicore, tuple(dtypes), aicpu, aicpu_attrs or ())


def grad_l0(
    op: GradOp,
    inputs: Sequence[aclTensor],
    executor: aclOpExecutor,
    attrs: tuple[Attr, ...] = (),
    out: aclTensor | None = None,
) -> aclTensor:
    """l0op::<Op>Grad(inputs…): AI Core for its dtypes, else AI CPU (null without one); into ``out`` when the L0
    takes its output (GeluGrad), else into a new tensor of the inputs' broadcast shape and first dtype."""
    op_type = op.aicore.op_type
    if out is None:
        shape: Shape | None = ()
        for t in inputs:
            shape = None if shape is None else broadcast_shape(shape, t.view_shape)
        if shape is None:
            raise L0StepFailed(op_type, "the input shapes do not broadcast")
        out = executor.alloc_tensor(shape, inputs[0].dtype)
    groups = (OP_INPUT(*inputs), OP_OUTPUT(out), *((OP_ATTR(*attrs),) if attrs else ()))
    if inputs[0].dtype in op.aicore_dtypes:
        status = add_to_launcher_list_aicore(executor, op.aicore, *groups)
    elif op.aicpu is not None:
        status = add_to_launcher_list_aicpu(executor, op.aicpu, op.aicpu_attrs, *groups)
    else:
        raise L0StepFailed(op_type, f"no kernel for dtype {dtype_name(inputs[0].dtype)}")
    if status != 0:
        raise L0StepFailed(op_type, "the kernel was not recorded")
    return out


# -- row backward kernels (SoftmaxGrad, LogSoftmaxGrad) -----------------------------------------------------
RowCompute = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _row_kernel(compute: RowCompute) -> Callable[..., None]:
    def kernel(ctx: BlockContext[GradAttrs], a: np.ndarray, b: np.ndarray, y: np.ndarray) -> None:
        data = SoftmaxV2TilingData.from_buffer_copy(ctx.tiling)
        lo = ctx.block_idx * data.blockFormer
        hi = min(lo + data.blockFormer, data.rowNum)
        if lo >= hi:
            return
        (da, db, dy), shape = ctx.attrs.dtypes, ctx.attrs.shapes[0] or (1,)
        axis = ctx.attrs.values[0][0] % len(shape)
        count = data.rowNum * data.colNum
        views = [ar_view(buf.view(dt)[:count], shape, {axis}) for buf, dt in ((a, da), (b, db), (y, dy))]
        (av, n_a), (bv, _), (yv, _) = views
        if av.ndim == n_a:  # the softmax axis has length 1
            av, bv, yv = av[..., None], bv[..., None], yv[..., None]
        work = acc_dtype(da)
        for t_lo in range(lo, hi, data.ubFormer):
            for index in pieces(t_lo, min(t_lo + data.ubFormer, hi), av.shape[:n_a]):
                result = compute(av[index].astype(work), bv[index].astype(work))
                yv[index] = result.astype(dy, copy=False)

    return kernel


def row_grad_op(op_type: str, compute: RowCompute, input_names: tuple[str, str], dtypes: Sequence[int]) -> OpImpl:
    """The AI Core op of a row backward kernel with the ``axes`` list attribute (SoftmaxV2's tiling)."""
    return OpImpl(
        op_type, _row_kernel(compute), softmax_tiling, input_names=input_names, attrs=(("axes", "list_int"),),
        attr_names=("axes",), bins=tuple(BinSpec((NAMES[d],) * 2, (NAMES[d],)) for d in dtypes),
        kernel_json={"opParaSize": ctypes.sizeof(SoftmaxV2TilingData)}, kernel_attrs=GradAttrs.of,
    )  # fmt: skip


def row_grad_l0(impl: OpImpl, a: aclTensor, b: aclTensor, dim: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::<Op>Grad(a, b, dim): the gradient along ``dim`` (axes = [dim]), in a's dtype and shape."""
    out = executor.alloc_tensor(a.view_shape, a.dtype)
    if add_to_launcher_list_aicore(executor, impl, OP_INPUT(a, b), OP_OUTPUT(out), OP_ATTR([dim])) != 0:
        raise L0StepFailed(impl.op_type, "the kernel was not recorded")
    return out


# -- the L2 chain and the shared checks ---------------------------------------------------------------------
Middle = Callable[[list[aclTensor], aclOpExecutor], aclTensor]


def plan_grad(inputs: Sequence[aclTensor], out: aclTensor, middle: Middle) -> tuple[int, aclOpExecutor, int]:
    """Phase 1 after the checks: CREATE_EXECUTOR; an empty input returns at once; else Contiguous of each
    input, ``middle`` (broadcasts, casts, the kernel), Cast(out) and ViewCopy."""
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(*inputs):
            return unique.release(0)
        dense = [contiguous(t, executor) for t in inputs]
        view_copy(cast(middle(dense, executor), out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


def check_broadcast_to(api: str, a: aclTensor, b: aclTensor, out: aclTensor, message: str | None = None) -> Shape:
    """OP_CHECK_BROADCAST_AND_INFER_SHAPE, then out's shape against the broadcast shape; the shape."""
    shape = broadcast_shape(a.view_shape, b.view_shape)
    check_param(shape is not None, api, f"the size of tensor self {list(a.view_shape)} must match the size of "
                f"tensor other {list(b.view_shape)}.")  # fmt: skip
    assert shape is not None
    text = message or f"Shape of out should be {list(shape)}, but current is {list(out.view_shape)}."
    check_param(tuple(out.view_shape) == shape, api, text)
    return shape


def check_same_dtype(api: str, a: tuple[str, aclTensor], b: tuple[str, aclTensor]) -> None:
    """OP_CHECK_DTYPE_NOT_SAME: the two tensors' dtypes are equal."""
    (na, ta), (nb, tb) = a, b
    check_param(ta.dtype == tb.dtype, api, f"{na} dtype {dtype_name(ta.dtype)} and {nb} dtype "
                f"{dtype_name(tb.dtype)} should be the same.")  # fmt: skip


def check_shape_equal(api: str, a: tuple[str, aclTensor], b: tuple[str, aclTensor]) -> None:
    """OP_CHECK_SHAPE_NOT_EQUAL: the two tensors' view shapes are equal."""
    (na, ta), (nb, tb) = a, b
    check_param(ta.view_shape == tb.view_shape, api, f"{na} shape {list(ta.view_shape)} and {nb} shape "
                f"{list(tb.view_shape)} should be the same.")  # fmt: skip
