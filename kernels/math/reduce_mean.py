"""aclnnMean: out = mean of self over dim, computed in ``dtype``.

Checks: null self / out / dim (161001); self, ``dtype`` and out in the A2 list, CanCast(self, dtype)
and CanCast(dtype, out), dims in range and unique, self and out rank <= 8 (161002). Empty ``dim``
reduces every axis. An empty self gives an out filled with NaN (Fill); a 0-d self is returned as is
(cast to out's dtype). Otherwise: Contiguous -> Cast(dtype) -> ReduceMean (AI Core for F32 / F16 /
BF16, which multiplies the float32 sum by 1/N; AI CPU for the other dtypes, dividing, integer
division truncating) -> Cast(out) -> ViewCopy. Out's shape is checked after the graph is built.
"""

from __future__ import annotations

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import (
    all_axes_if_empty,
    check_dims,
    fill_l0,
    int_array_values,
    reduce_mean_l0,
    reduced_shape,
)
from emulator.meta.dtypes import DataType, can_cast, dtype_name, to_op_dtype
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import contiguous, create_executor, l0_label, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
MEAN_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT32, D.DT_INT64, D.DT_INT16, D.DT_INT8,
               D.DT_UINT8, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip


@l2_api
def aclnnMeanGetWorkspaceSize(
    self: aclTensor | None, dim: aclIntArray | None, keepDim: bool, dtype: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
    aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnMean"
    check_not_null(api, self=self, out=out, dim=dim)
    assert self is not None and dim is not None and out is not None
    check_dtype(api, "self", self, MEAN_DTYPES)
    target = to_op_dtype(int(dtype))
    check_param(target in MEAN_DTYPES, api, f"dtype {dtype_name(target)} is not supported.")
    check_dtype(api, "out", out, MEAN_DTYPES)
    check_param(can_cast(self.dtype, target), api, f"self dtype cannot be cast to {dtype_name(target)}.")
    check_param(can_cast(target, out.dtype), api, f"{dtype_name(target)} cannot be cast to out's dtype.")
    rank = len(self.view_shape)
    axes = all_axes_if_empty(check_dims(api, int_array_values(dim), rank), rank)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    expected = reduced_shape(self.view_shape, axes, bool(keepDim)) if rank else ()
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            check_param(out.view_shape == expected, api, f"out shape {list(out.view_shape)} must be {list(expected)}.")
            if out.numel:
                view_copy(fill_l0(out.view_shape, np.nan, out.dtype, executor), out, executor)
            return unique.release(executor.get_workspace_size())
        with l0_label("Contiguous"):
            x = contiguous(self, executor)
        if rank == 0:
            result = cast(x, out.dtype, executor)
        else:
            result = reduce_mean_l0(cast(x, target, executor), axes, bool(keepDim), executor)
            result = cast(result, out.dtype, executor)
        check_param(result.view_shape == out.view_shape or (rank == 0 and out.numel == 1), api,
                    f"out shape {list(out.view_shape)} must be {list(result.view_shape)}.")  # fmt: skip
        with l0_label("ViewCopy"):
            view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())
