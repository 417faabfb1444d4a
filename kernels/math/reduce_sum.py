"""aclnnReduceSum: out = sum of self over dims, computed in ``dtype``.

Checks: null self / dims / out (161001); self, out and ``dtype`` in the A2 list, ``dtype`` equal to
out's dtype, self rank <= 8, dims in range and unique (161002). Empty ``dims`` reduces every axis.
An empty self gives an out filled with 0 by Fill (a complex out is rejected); a 0-d self is cast to
out's dtype and copied. Otherwise: Contiguous -> Cast(dtype) -> ReduceSum (ReduceAny when ``dtype``
is BOOL; a BOOL self summed into INT64 runs in FLOAT32 while the reduced count is below 2^24) ->
Cast(out) -> ViewCopy. Out's shape is checked after the graph is built, as the real op does.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import (
    all_axes_if_empty,
    check_dims,
    fill_l0,
    int_array_values,
    reduce_any_l0,
    reduce_sum_l0,
    reduced_shape,
)
from emulator.meta.dtypes import DataType, dtype_name, to_op_dtype
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import contiguous, create_executor, l0_label, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
SUM_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_BOOL,
              D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128, D.DT_BF16)  # fmt: skip
F32_EXACT_COUNT = 1 << 24


@l2_api
def aclnnReduceSumGetWorkspaceSize(
    self: aclTensor | None, dims: aclIntArray | None, keepDims: bool, dtype: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
    aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnReduceSum"
    check_not_null(api, self=self, dims=dims, out=out)
    assert self is not None and dims is not None and out is not None
    check_dtype(api, "self", self, SUM_DTYPES)
    check_dtype(api, "out", out, SUM_DTYPES)
    target = to_op_dtype(int(dtype))
    check_param(target in SUM_DTYPES, api, f"dtype {dtype_name(target)} is not supported.")
    check_param(target == out.dtype, api, f"dtype {dtype_name(target)} must equal out's {dtype_name(out.dtype)}.")
    check_rank(api, "self", self)
    rank = len(self.view_shape)
    axes = all_axes_if_empty(check_dims(api, int_array_values(dims), rank), rank)
    expected = reduced_shape(self.view_shape, axes, bool(keepDims)) if rank else ()
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            complex_out = target in (D.DT_COMPLEX64, D.DT_COMPLEX128)
            check_param(not complex_out, api, "an empty self cannot fill a complex out.")
            check_param(out.view_shape == expected, api, f"out shape {list(out.view_shape)} must be {list(expected)}.")
            if out.numel:
                view_copy(fill_l0(out.view_shape, 0, out.dtype, executor), out, executor)
            return unique.release(executor.get_workspace_size())
        with l0_label("Contiguous"):
            x = contiguous(self, executor)
        keep = bool(keepDims)
        result = cast(x, out.dtype, executor) if rank == 0 else _sum_chain(x, axes, keep, target, executor)
        check_param(result.view_shape == out.view_shape or (rank == 0 and out.numel == 1), api,
                    f"out shape {list(out.view_shape)} must be {list(result.view_shape)}.")  # fmt: skip
        with l0_label("ViewCopy"):
            view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


def _sum_chain(x: aclTensor, axes: list[int], keep: bool, target: int, executor: aclOpExecutor) -> aclTensor:
    if target == D.DT_BOOL:
        return reduce_any_l0(cast(x, D.DT_BOOL, executor), axes, keep, executor)
    compute = target
    if x.dtype == D.DT_BOOL and target == D.DT_INT64:
        count = 1
        for a in axes:
            count *= x.view_shape[a]
        compute = D.DT_FLOAT if count < F32_EXACT_COUNT else D.DT_INT64
    result = reduce_sum_l0(cast(x, compute, executor), axes, keep, executor)
    return cast(result, target, executor)
