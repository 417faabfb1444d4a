"""aclnnArange: out[i] = start + i * step over out's elements, and the generator kernel LinSpace shares.

L0 Range(start, end, step) (inputs 0-d host tensors, attribute ``isClosed`` = false): on the 910B family
and the older SoCs the bounds are converted to int64 for an int64 out and to double otherwise; AI Core
for float32, int32, int64, float16 and (910B family) bfloat16 outs, the AI CPU kernel (attribute ``Tidx``)
for double. Each block writes its range of out: ``start + i * step`` computed in the input dtype
(float64 or int64 — exact for integers) and rounded to out's dtype.

L2: nulls (161001); start, end and step dtypes in the input list, out in the output list (161002);
a zero step, or a step whose sign disagrees with end - start, read in out's precision (ToFloat for
float16 / bfloat16 / float32 outs, ToDouble for double, ToInt64 for integer outs) (161002). There is
no empty-tensor shortcut and out's shape is not checked: the kernel fills out's elements, whatever
their count (the caller sizes out as ceil((end - start) / step), as the documentation asks).
Chain: Range -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.binary_common import to_double, to_float
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.compare_tensor import soc_list
from emulator.kernels.math.data_movement import fill_tiling
from emulator.kernels.math.fill import scalar_to_tensor
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param

D = DataType
ARANGE_INPUTS = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_INT8, D.DT_UINT8,
                 D.DT_DOUBLE, D.DT_BOOL)  # fmt: skip
ARANGE_OUTPUTS = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_INT64, D.DT_INT32)
RANGE_AICORE = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16)  # + bfloat16 on the 910B family
FLOAT_OUTS = (D.DT_FLOAT16, D.DT_BF16, D.DT_FLOAT)


@dataclass(frozen=True, slots=True)
class SequenceAttrs(KernelAttrs):
    """What a generator binary has baked in: the dtype of its first input and of its output."""

    x_dtype: np.dtype
    y_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> SequenceAttrs:
        return cls(signature.dtypes[0], signature.dtypes[-1])


def range_kernel(ctx: BlockContext[SequenceAttrs], start: np.ndarray, end: np.ndarray, step: np.ndarray,
                 y: np.ndarray) -> None:  # fmt: skip
    """This block's elements of y: start + i * step."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dx, dy = ctx.attrs.x_dtype, ctx.attrs.y_dtype
    first, delta = start.view(dx)[0], step.view(dx)[0]
    with np.errstate(over="ignore", invalid="ignore"):
        y.view(dy)[lo:hi] = (first + np.arange(lo, hi, dtype=dx) * delta).astype(dy)


def _range_bins() -> tuple[BinSpec, ...]:
    bins = [BinSpec(("double",) * 3, (NAMES[d],)) for d in (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_BF16)]
    return (*bins, BinSpec(("int64",) * 3, ("int64",)))


RANGE = OpImpl("Range", range_kernel, fill_tiling, attr_names=("isClosed",), attrs=(("isClosed", "bool"),),
               input_names=("start", "limit", "delta"), bins=_range_bins(), kernel_attrs=SequenceAttrs.of)  # fmt: skip
RANGE_AICPU = OpImpl("Range", range_kernel, fill_tiling, engine=Engine.AICPU, attr_names=("Tidx",),
                     input_names=("start", "limit", "delta"), kernel_attrs=SequenceAttrs.of)  # fmt: skip


def range_l0(start: aclScalar, end: aclScalar, step: aclScalar, out: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Arange (isClosed false): a workspace tensor of out's shape and dtype."""
    input_dtype = D.DT_INT64 if out.dtype == D.DT_INT64 else D.DT_DOUBLE
    bounds = [scalar_to_tensor(s, input_dtype, executor) for s in (start, end, step)]
    y = executor.alloc_tensor(out.view_shape, out.dtype)
    if out.dtype in soc_list(RANGE_AICORE):
        status = add_to_launcher_list_aicore(executor, RANGE, OP_INPUT(*bounds), OP_OUTPUT(y), OP_ATTR(Bool(False)))
    else:
        attrs = OP_ATTR(DType(input_dtype))
        status = add_to_launcher_list_aicpu(executor, RANGE_AICPU, ("Tidx",), OP_INPUT(*bounds), OP_OUTPUT(y), attrs)
    if status != 0:
        raise L0StepFailed("Range", f"status {status}")
    return y


def _to_int64(scalar: aclScalar) -> int:
    value = scalar.value()
    return int(np.real(value)) if value is not None else 0


def _check_step(api: str, start: aclScalar, end: aclScalar, step: aclScalar, out_dtype: int) -> None:
    """CheckStepCorrect: the three values read in out's precision."""
    read = to_float if out_dtype in FLOAT_OUTS else to_double if out_dtype == D.DT_DOUBLE else _to_int64
    first, last, delta = read(start), read(end), read(step)
    check_param(delta > 0 or delta < 0, api, "step must be nonzero.")
    check_param(not ((delta > 0 and first > last) or (delta < 0 and first < last)), api,
                f"upper bound and lower bound inconsistent with step sign. start:{first}, end:{last}, "
                f"step:{delta}.")  # fmt: skip


@l2_api
def aclnnArangeGetWorkspaceSize(
    start: aclScalar | None, end: aclScalar | None, step: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnArange"
    check_not_null(api, start=start, end=end, step=step, out=out)
    assert start is not None and end is not None and step is not None and out is not None
    inputs = soc_list(ARANGE_INPUTS)
    for name, value in (("start", start), ("end", end), ("step", step)):
        check_dtype(api, name, value, inputs)
    check_dtype(api, "out", out, soc_list(ARANGE_OUTPUTS))
    _check_step(api, start, end, step, out.dtype)
    with create_executor() as unique:
        executor = unique.get()
        result = cast(range_l0(start, end, step, out, executor), out.dtype, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (RANGE,)
