"""aclnnAddRmsNorm: x = x1 + x2, y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon).

L2 as the real op is written (ops-nn norm/add_rms_norm): the outputs given choose the mode: all
three (AddRmsNorm), xOut without rstdOut (pre-norm: y and x), neither (post-norm: y only). Then null
x1 / x2 / gamma / yOut and the mode's outputs (161001); dtypes: x1, x2, gamma in float32 / float16
/ bfloat16 (float16 / bfloat16 only in the pre / post modes) and all of one dtype, yOut (and xOut)
of it, rstdOut float32; shapes: ranks 1..8, x2, yOut and xOut shaped like x1, gamma at most 2-D in
the pre / post modes (161002). rstdOut's shape is not checked there: the ViewCopy of a differently
shaped rstd fails (561103). An empty x1 or gamma launches nothing. Otherwise Contiguous of the
inputs, one AddRmsNorm kernel (AI Core; attr epsilon; outputs y, rstd of x1's shape with gamma's
dims set to 1, and x) and ViewCopy of the outputs the mode has.

Numerics (float32): x1 + x2 is rounded to the input dtype first (that rounded sum is xOut and
what is normalised), as the kernel keeps x in its own dtype. gamma must be x1's trailing dims: the
kernel's tiling fails otherwise (561103 at the L2). The tiling is RmsNorm's (rows across cores).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.rms_norm import RMSNormTilingData, _apply, rms_norm_tiling
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Float32,
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
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
F32 = np.dtype(np.float32)
NORMAL = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
EXTENDED = (D.DT_FLOAT16, D.DT_BF16)
ADD, PRE, POST = 0, 1, 2


def add_rms_norm_tiling(ctx: TilingContext) -> TilingResult:
    """RmsNorm's tiling over (x1, gamma)."""
    return rms_norm_tiling(dataclasses.replace(ctx, inputs=(ctx.inputs[0], ctx.inputs[2])))


@dataclass(frozen=True, slots=True)
class AddRmsNormAttrs(KernelAttrs):
    """What an AddRmsNorm binary has baked in: the input dtype (gamma's and the outputs' follow)."""

    dtype: np.dtype
    writes_rstd: bool  # the mode's outputs: rstd and x are [0] placeholders when the mode has none
    writes_x: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> AddRmsNormAttrs:
        _, _, _, _, rstd_shape, x_shape = signature.shapes
        return cls(signature.dtypes[0], 0 not in rstd_shape, 0 not in x_shape)


def add_rms_norm_kernel(ctx: BlockContext[AddRmsNormAttrs], x1: np.ndarray, x2: np.ndarray, gamma: np.ndarray,
                        y: np.ndarray, rstd: np.ndarray, x_out: np.ndarray) -> None:  # fmt: skip
    data = RMSNormTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.block_factor
    hi = min(lo + data.block_factor, data.num_row)
    if lo >= hi:
        return
    dt = ctx.attrs.dtype
    rows, cols = int(data.num_row), int(data.num_col)
    a = x1.view(dt)[: rows * cols].reshape(rows, cols)
    b = x2.view(dt)[: rows * cols].reshape(rows, cols)
    g = gamma.view(dt)[:cols].astype(F32)
    eps, avg = np.float32(data.epsilon), np.float32(data.avg_factor)
    for t_lo in range(lo, hi, data.row_factor):
        t_hi = min(t_lo + data.row_factor, hi)
        summed = (a[t_lo:t_hi].astype(F32) + b[t_lo:t_hi].astype(F32)).astype(dt)
        xs = summed.astype(F32)
        r = np.float32(1) / np.sqrt(np.sum(xs * xs, axis=1, dtype=F32) * avg + eps)
        y.view(dt)[t_lo * cols : t_hi * cols] = _apply(xs, r, g).astype(dt).reshape(-1)
        if ctx.attrs.writes_rstd:
            rstd.view(F32)[t_lo:t_hi] = r
        if ctx.attrs.writes_x:
            x_out.view(dt)[t_lo * cols : t_hi * cols] = summed.reshape(-1)


ADD_RMS_NORM = OpImpl(
    "AddRmsNorm", add_rms_norm_kernel, add_rms_norm_tiling, attrs=(("epsilon", "float"),), attr_names=("epsilon",),
    input_names=("x1", "x2", "gamma"), output_names=("y", "rstd", "x"), kernel_attrs=AddRmsNormAttrs.of,
    bins=tuple(BinSpec((d, d, d), (d, "float", d)) for d in ("float", "float16", "bfloat16")),
)  # fmt: skip


def add_rms_norm_l0(x1: aclTensor, x2: aclTensor, gamma: aclTensor, epsilon: float, mode: int,
                    executor: aclOpExecutor) -> tuple[aclTensor, aclTensor, aclTensor]:  # fmt: skip
    """l0op::AddRmsNorm: y and x of x1's shape; rstd (float32) of x1's shape with gamma's dims 1 in mode 0,
    a [0] placeholder otherwise (and x too in the post mode)."""
    xs, gs = tuple(x1.view_shape), tuple(gamma.view_shape)
    if len(gs) > len(xs) or xs[len(xs) - len(gs) :] != gs:
        raise L0StepFailed("AddRmsNorm", f"gamma {list(gs)} is not the trailing dims of x1 {list(xs)}")
    rstd_shape = xs[: len(xs) - len(gs)] + (1,) * len(gs) if mode == ADD else (0,)
    y = executor.alloc_tensor(xs, x1.dtype)
    rstd = executor.alloc_tensor(rstd_shape, D.DT_FLOAT)
    x = executor.alloc_tensor(xs if mode != POST else (0,), x1.dtype)
    status = add_to_launcher_list_aicore(executor, ADD_RMS_NORM, OP_INPUT(x1, x2, gamma), OP_OUTPUT(y, rstd, x),
                                         OP_ATTR(Float32(float(epsilon))))  # fmt: skip
    if status != 0:
        raise L0StepFailed("AddRmsNorm", f"status {status}")
    return y, rstd, x


def _check(api: str, x1: aclTensor, x2: aclTensor, gamma: aclTensor, y: aclTensor, rstd: aclTensor | None,
           x: aclTensor | None, mode: int) -> None:  # fmt: skip
    allowed: tuple[int, ...] = NORMAL if mode == ADD else EXTENDED
    if current_l2().op.soc.short_soc_version == "Ascend310P":  # IsSocVersion310P: no bfloat16
        allowed = (D.DT_FLOAT, D.DT_FLOAT16) if mode == ADD else (D.DT_FLOAT16,)
    for name, t in (("x1", x1), ("x2", x2), ("gamma", gamma)):
        check_dtype(api, name, t, allowed)
    check_param(x2.dtype == x1.dtype and gamma.dtype == x1.dtype, api, "x1, x2 and gamma must have the same dtype.")
    check_dtype(api, "yOut", y, allowed)
    check_param(y.dtype == x1.dtype, api, "yOut must have the dtype of x1.")
    if x is not None:
        check_dtype(api, "xOut", x, allowed)
        check_param(x.dtype == y.dtype, api, "xOut must have the dtype of yOut.")
    if rstd is not None:
        check_dtype(api, "rstdOut", rstd, (D.DT_FLOAT,))
    for name, t in (("x1", x1), ("x2", x2), ("gamma", gamma)):
        check_rank(api, name, t)
        check_param(len(t.view_shape) >= 1, api, f"{name} must have at least 1 dim.")
    check_param(x2.view_shape == x1.view_shape, api, "x2 must have the shape of x1.")
    check_rank(api, "yOut", y)
    check_param(y.view_shape == x1.view_shape, api, "yOut must have the shape of x1.")
    if x is not None:
        check_rank(api, "xOut", x)
        check_param(x.view_shape == x1.view_shape, api, "xOut must have the shape of x1.")
    if mode != ADD:
        check_rank(api, "gamma", gamma, 2)


@l2_api
def aclnnAddRmsNormGetWorkspaceSize(
    x1: aclTensor | None,
    x2: aclTensor | None,
    gamma: aclTensor | None,
    epsilon: float,
    yOut: aclTensor | None,
    rstdOut: aclTensor | None,
    xOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
    double epsilon, aclTensor* yOut, aclTensor* rstdOut, aclTensor* xOut, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnAddRmsNorm"
    mode = PRE if (xOut is not None and rstdOut is None) else POST if (xOut is None and rstdOut is None) else ADD
    outputs = {"rstdOut": rstdOut, "xOut": xOut} if mode == ADD else {"xOut": xOut} if mode == PRE else {}
    check_not_null(api, x1=x1, x2=x2, gamma=gamma, yOut=yOut, **outputs)
    assert x1 is not None and x2 is not None and gamma is not None and yOut is not None
    _check(api, x1, x2, gamma, yOut, rstdOut, xOut, mode)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(x1) or is_empty(gamma):
            return unique.release(0)
        with l0_label("Contiguous"):
            a, b, g = contiguous(x1, executor), contiguous(x2, executor), contiguous(gamma, executor)
        y, rstd, x = add_rms_norm_l0(a, b, g, float(epsilon), mode, executor)
        view_copy(y, yOut, executor)
        if rstdOut is not None and mode == ADD:
            with l0_label("ViewCopy of rstd"):
                view_copy(rstd, rstdOut, executor)
        if xOut is not None and mode != POST:
            with l0_label("ViewCopy of x"):
                view_copy(x, xOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ADD_RMS_NORM,)
