"""aclnnLinspace: ``steps`` evenly spaced values from start to end (both included) into out.

L0 LinSpace(start, end, steps) (start / end 0-d host tensors of the compute dtype, steps an int32 host
tensor): a [steps] tensor of start's dtype; AI Core for int32, float16, float32, int16, int8, uint8,
bfloat16 (910B family; int16 and bfloat16 not on the older SoCs), the AI CPU kernel (attribute
``Tidx``) for double. Each element is computed in float64 as torch's linspace does — start + i * d
for the first half, end - (steps - 1 - i) * d for the second, d = (end - start) / (steps - 1) — and
rounded (integers truncated) to the output dtype.

L2: a null start, end or out is 561103 (the real op's null check returns ACLNN_ERR_INNER_NULLPTR); a
complex start or end; out's dtype in the SoC's list; steps >= 0; out's element count == steps
(161002). steps == 0 launches nothing; steps == 1 is Fill(start) -> ViewCopy. Otherwise the compute
dtype is out's (int64 computes in float32), a bool start / end is read as a float, and the chain is
LinSpace -> Cast(out) -> ViewCopy (a [steps] result is viewed in out's shape when out has more dims).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext, Engine
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.arange import SequenceAttrs
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.cast import NAMES, cast
from emulator.kernels.math.compare_tensor import soc_has_bf16, soc_list
from emulator.kernels.math.data_movement import fill_tiling
from emulator.kernels.math.fill import fill_l0, scalar_to_tensor
from emulator.meta.dtypes import COMPLEX_TYPES, DataType, dtype_name
from emulator.meta.objects import aclScalar, aclTensor, numel
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    convert_to_tensor,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null_inner, check_param

D = DataType
LINSPACE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_DOUBLE)
LINSPACE_EXTRA = (D.DT_BF16, D.DT_INT16, D.DT_INT64)  # the 910B family's additions
LINSPACE_AICORE = (D.DT_INT32, D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT8, D.DT_UINT8)
LINSPACE_AICORE_EXTRA = (D.DT_INT16, D.DT_BF16)


def linspace_kernel(ctx: BlockContext[SequenceAttrs], start: np.ndarray, end: np.ndarray, steps: np.ndarray,
                    y: np.ndarray) -> None:  # fmt: skip
    """This block's elements of the [steps] output."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dx, dy = ctx.attrs.x_dtype, ctx.attrs.y_dtype
    first, last = float(start.view(dx)[0]), float(end.view(dx)[0])
    count = int(steps.view(np.int32)[0])
    delta = (last - first) / (count - 1)
    index = np.arange(lo, hi, dtype=np.float64)
    values = np.where(index < count // 2, first + index * delta, last - (count - 1 - index) * delta)
    with np.errstate(over="ignore", invalid="ignore"):
        y.view(dy)[lo:hi] = values.astype(dy)


_BINS = tuple(BinSpec((NAMES[d], NAMES[d], "int32"), (NAMES[d],)) for d in (*LINSPACE_AICORE, *LINSPACE_AICORE_EXTRA))
LINSPACE = OpImpl("LinSpace", linspace_kernel, fill_tiling, input_names=("start", "stop", "num"), bins=_BINS,
                  kernel_attrs=SequenceAttrs.of)  # fmt: skip
LINSPACE_AICPU = OpImpl("LinSpace", linspace_kernel, fill_tiling, engine=Engine.AICPU, attr_names=("Tidx",),
                        input_names=("start", "stop", "num"), kernel_attrs=SequenceAttrs.of)  # fmt: skip


def linspace_l0(start: aclTensor, end: aclTensor, steps: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::Linspace: a [steps] tensor of start's dtype."""
    out = executor.alloc_tensor((steps,), start.dtype)
    steps_scalar = executor.alloc_scalar(steps, D.DT_INT64)
    if steps_scalar is None:
        raise L0StepFailed("AllocScalar", "no host dtype for int64")
    count = convert_to_tensor(steps_scalar, D.DT_INT32, executor)
    groups = (OP_INPUT(start, end, count), OP_OUTPUT(out))
    if start.dtype in soc_list(LINSPACE_AICORE, LINSPACE_AICORE_EXTRA):
        status = add_to_launcher_list_aicore(executor, LINSPACE, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, LINSPACE_AICPU, ("Tidx",), *groups, OP_ATTR(DType(start.dtype)))
    if status != 0:
        raise L0StepFailed("LinSpace", f"status {status}")
    return out


def _as_float_if_bool(value: aclScalar, executor: aclOpExecutor) -> aclScalar:
    if value.dtype != D.DT_BOOL:
        return value
    read = executor.alloc_scalar(to_float(value), D.DT_FLOAT)
    if read is None:
        raise L0StepFailed("AllocScalar", "no host dtype for float")
    return read


@l2_api
def aclnnLinspaceGetWorkspaceSize(
    start: aclScalar | None, end: aclScalar | None, steps: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnLinspace"
    check_not_null_inner(api, start=start, end=end, out=out)
    assert start is not None and end is not None and out is not None
    for name, scalar in (("start", start), ("end", end)):
        check_param(scalar.dtype not in COMPLEX_TYPES, api, f"complex {name} ({dtype_name(scalar.dtype)}) is not "
                    "implemented.")  # fmt: skip
    check_dtype(api, "out", out, LINSPACE_DTYPES + (LINSPACE_EXTRA if soc_has_bf16() else ()))
    check_param(steps >= 0, api, "number of steps must be non-negative.")
    check_param(numel(out.view_shape) == steps, api, f"size of out must equal to steps, but got size of out "
                f"{numel(out.view_shape)}, steps: {steps}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        first, last = _as_float_if_bool(start, executor), _as_float_if_bool(end, executor)
        if steps == 0:
            return unique.release(0)
        if steps == 1:
            dims = convert_to_tensor([1], D.DT_INT64, executor)
            filled = fill_l0(dims, scalar_to_tensor(first, out.dtype, executor), (1,), executor)
            view_copy(filled, out, executor)
            return unique.release(executor.get_workspace_size())
        compute = D.DT_FLOAT if out.dtype == D.DT_INT64 else out.dtype
        lo, hi = scalar_to_tensor(first, compute, executor), scalar_to_tensor(last, compute, executor)
        result = cast(linspace_l0(lo, hi, steps, executor), out.dtype, executor)
        if result.view_shape != out.view_shape:
            result = reshape_view(executor, result, out.view_shape)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (LINSPACE,)
