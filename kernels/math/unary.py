"""The unary elementwise kernel family (Abs, Neg, Exp, Log, Sqrt, Rsqrt, Relu, Sigmoid, Gelu, Swish, Tanh).

One factory, ``unary_op``, builds an op's AI Core ``OpImpl`` (one binary per A2 AI Core dtype) and its
AI CPU ``OpImpl`` around one SPMD kernel: each block reads its ``[lo, hi)`` range of the flattened
input, computes in the op's compute dtype and writes the same range of the output. Tiling is the
elementwise tiling template over the output's elements; the UB holds the input
and output tiles plus the kernel's float32 temporaries when a half-precision input is widened.

Numerics follow the A2 kernels: bfloat16 always computes in float32; float16 computes in float16 for
the exact ops (Abs, Neg, Relu) and in float32 for the transcendental ones (``half_in_fp32``), the
result rounded to the output dtype; integer / bool inputs of an op with a float output compute in
that float type; float64 and complex compute natively. ``unary_l0`` is the L0 wrapper shape every
op of the family shares: allocate the output, then AI Core for the A2 AI Core dtypes, AI CPU for
the op's AI CPU dtypes, null for anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.args import Attr
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelAttrsFunc, KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES, cast
from emulator.meta.dtypes import DataType, can_cast, dtype_name
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    RangeKernel,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    elementwise_tiling,
    view_copy,
)
from emulator.opdev.checks import check_param, is_empty

BF16 = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
D = DataType

INTEGRAL_OR_BOOL = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_UINT16, D.DT_UINT32,
                    D.DT_UINT64, D.DT_BOOL)  # fmt: skip


@dataclass(frozen=True, slots=True)
class UnaryAttrs(KernelAttrs):
    """What a unary elementwise binary has baked in: its input and output dtypes."""

    x_dtype: np.dtype
    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> UnaryAttrs:
        dx, dy = signature.dtypes
        return cls(dx, dy)


A = TypeVar("A", bound=UnaryAttrs)
Compute = Callable[[np.ndarray, BlockContext[A]], np.ndarray]


def work_dtype(src: np.dtype, dst: np.dtype, half_in_fp32: bool) -> np.dtype:
    """The dtype one block computes in, from the kernel's input and output dtypes."""
    if src == BF16 or (src == F16 and half_in_fp32):
        return F32
    if src.kind in "biu" and (dst.kind in "fc" or dst == BF16):
        return F32 if dst in (F16, BF16) else dst  # an integer input of a float-output kernel
    return src


# into(x, ctx, out): write the result straight into ``out`` (the output's slice, already in the compute
# dtype) and say so, or return False to leave it to ``compute``; only a result bit-identical to
# ``compute``'s may be written (the same numpy ufunc on the same values)
Into = Callable[[np.ndarray, BlockContext[A], np.ndarray], bool]
# a merged run of blocks without ``into`` is computed in pieces of this many elements, so that the
# temporaries ``compute`` makes stay as small as one block's were (a whole-array temporary costs a
# page fault per 4 KiB on every launch)
PIECE = 1 << 16


def unary_kernel(compute: Compute[A], half_in_fp32: bool, into: Into[A] | None = None) -> RangeKernel:
    """A range kernel (contiguous blocks run as one range, see ``RangeKernel``): each element's result
    is the same whatever range computes it, so merging blocks is bit-identical."""

    def body(ctx: BlockContext[A], lo: int, hi: int, x: np.ndarray, y: np.ndarray) -> None:
        dx, dy = ctx.attrs.x_dtype, ctx.attrs.y_dtype
        work = work_dtype(dx, dy, half_in_fp32)
        src, dest = x.view(dx)[lo:hi], y.view(dy)[lo:hi]
        with np.errstate(all="ignore"):
            if into is not None and dx == work == dy and into(src, ctx, dest):
                return
            for p_lo in range(0, hi - lo, PIECE):
                piece = slice(p_lo, min(p_lo + PIECE, hi - lo))  # within the range: debug views check slices
                result = compute(src[piece].astype(work, copy=False), ctx)
                dest[piece] = np.asarray(result).astype(dy, copy=False)

    return RangeKernel(body)


def unary_tiling(temps: int, half_in_fp32: bool) -> Callable[[TilingContext], TilingResult]:
    """Elementwise tiling; ``temps`` float32 scratch tiles join the input and output tiles in the UB."""

    def tiling(ctx: TilingContext) -> TilingResult:
        x, out = ctx.inputs[0], ctx.outputs[0]
        assert x is not None and out is not None
        widened = x.dtype == D.DT_BF16 or (x.dtype == D.DT_FLOAT16 and half_in_fp32)
        # a float32 temporary of a widened half input takes the room of two half-width tiles
        extra = temps * 2 if widened else temps
        return elementwise_tiling(ctx, out.numel, 2 + extra)

    return tiling


@dataclass(frozen=True)
class UnaryOp:
    """An L0 unary op: its AI Core OpImpl (with binaries), its AI CPU OpImpl and their dtype lists."""

    aicore: OpImpl
    aicpu: OpImpl
    aicore_dtypes: tuple[int, ...]
    aicpu_dtypes: tuple[int, ...]


def unary_op(
    op_type: str,
    compute: Compute[A],
    aicore: Sequence[int],
    aicpu: Sequence[int] = (),
    *,
    half_in_fp32: bool = False,
    temps: int = 0,
    out_dtypes: dict[int, int] | None = None,
    attrs: tuple[tuple[str, str], ...] = (),
    aicpu_attr_names: tuple[str, ...] = (),
    kernel_attrs: Callable[[KernelSignature], A] | None = None,
    into: Into[A] | None = None,
) -> UnaryOp:
    """The AI Core op (one binary per AI Core dtype, output dtype = input dtype unless ``out_dtypes`` maps it)
    and the AI CPU op of one unary elementwise kernel; ``kernel_attrs`` builds the ``UnaryAttrs``
    (sub)class ``compute`` reads: an op with attributes passes its subclass's factory (the type checker
    then holds the two to the same class), the others get ``UnaryAttrs.of``; ``into`` is the in-place form
    of ``compute`` where it has one (see ``Into``)."""
    factory: KernelAttrsFunc = kernel_attrs or UnaryAttrs.of
    out_map = out_dtypes or {}
    bins = tuple(BinSpec((NAMES[d],), (NAMES[out_map.get(d, d)],)) for d in aicore)
    kernel = unary_kernel(compute, half_in_fp32, into)
    tiling = unary_tiling(temps, half_in_fp32)
    names = tuple(name for name, _ in attrs)
    aicore_impl = OpImpl(op_type, kernel, tiling, bins=bins, attr_names=names, attrs=attrs, kernel_attrs=factory)
    aicpu_impl = OpImpl(op_type, kernel, tiling, engine=Engine.AICPU, attr_names=aicpu_attr_names, kernel_attrs=factory)
    return UnaryOp(aicore_impl, aicpu_impl, tuple(aicore), tuple(aicpu))


def unary_l0(
    op: UnaryOp,
    x: aclTensor,
    executor: aclOpExecutor,
    out_dtype: int | None = None,
    attrs: tuple[Attr, ...] = (),
    aicpu_attrs: tuple[Attr, ...] | None = None,
) -> aclTensor:
    """l0op::<Op>(x): output of x's shape (dtype ``out_dtype`` or x's), AI Core or AI CPU by x's dtype;
    L0StepFailed when neither serves x's dtype or the kernel was not recorded."""
    op_type = op.aicore.op_type
    out = executor.alloc_tensor(x.view_shape, x.dtype if out_dtype is None else out_dtype)
    if x.dtype in op.aicore_dtypes:
        groups = (OP_INPUT(x), OP_OUTPUT(out), *((OP_ATTR(*attrs),) if attrs else ()))
        status = add_to_launcher_list_aicore(executor, op.aicore, *groups)
    elif x.dtype in op.aicpu_dtypes:
        cpu_attrs = attrs if aicpu_attrs is None else aicpu_attrs
        groups = (OP_INPUT(x), OP_OUTPUT(out), *((OP_ATTR(*cpu_attrs),) if cpu_attrs else ()))
        status = add_to_launcher_list_aicpu(executor, op.aicpu, op.aicpu.attr_names, *groups)
    else:
        raise L0StepFailed(op_type, f"no kernel for dtype {x.dtype}")
    if status != 0:
        raise L0StepFailed(op_type, f"status {status}")
    return out


# -- the shared L2 chain ---------------------------------------------------------------------------------------
Kernel = Callable[[aclTensor, aclOpExecutor], aclTensor]


def plan_unary(
    self: aclTensor,
    out: aclTensor,
    kernel: Kernel | None,
    pre_cast: int | None = None,
    *,
    empty: bool | None = None,
) -> tuple[int, aclOpExecutor, int]:
    """Phase 1 after the checks: CREATE_EXECUTOR, the empty-tensor shortcut (``empty`` defaults to "self is
    empty"), then Contiguous -> Cast(``pre_cast``) -> ``kernel`` (None: no kernel) -> Cast(out) -> ViewCopy.
    A failed L0 step raises L0StepFailed, which the phase-1 frame turns into the L2's 561103."""
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) if empty is None else empty:
            return unique.release(0)
        x = contiguous(self, executor)
        if pre_cast is not None:
            x = cast(x, pre_cast, executor)
        if kernel is not None:
            x = kernel(x, executor)
        view_copy(cast(x, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


# -- shared L2 checks (OP_CHECK_DTYPE_NOT_MATCH, OP_CHECK_RESULT_DTYPE_CAST_FAILED, ...) ------------------------
def check_dtype_match(api: str, name: str, tensor: aclTensor, expected: int) -> None:
    """OP_CHECK_DTYPE_NOT_MATCH: ``tensor``'s dtype must be ``expected``."""
    message = f"{name} dtype {dtype_name(tensor.dtype)} should be {dtype_name(expected)}."
    check_param(tensor.dtype == expected, api, message)


def check_cast(api: str, src: int, dst: int) -> None:
    """OP_CHECK_RESULT_DTYPE_CAST_FAILED: the result dtype must be castable to the output dtype."""
    message = f"result dtype {dtype_name(src)} can't be cast to the desired output type {dtype_name(dst)}."
    check_param(can_cast(src, dst), api, message)


def check_same_shape(api: str, self: aclTensor, out: aclTensor) -> None:
    """OP_CHECK_SHAPE_NOT_EQUAL: out's view shape must be self's."""
    message = f"out shape {list(out.view_shape)} should be the same as self shape {list(self.view_shape)}."
    check_param(self.view_shape == out.view_shape, api, message)


def check_not_private(api: str, name: str, fmt: int) -> None:
    """IsPrivateFormat: a private storage format (NC1HWC0, FRACTAL_NZ ...) is rejected."""
    message = f"{name} format {fmt} is private: only ND, NCHW, NHWC, HWCN, NDHWC, NCDHW are supported."
    check_param(not is_private_format(fmt), api, message)
