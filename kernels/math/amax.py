"""aclnnAmax: out = maximum of self over dim.

Checks: null self / dim / out (161001); self in the A2 list and out of self's dtype, dims in range and
unique, no reduced axis of size 0 (for a non-scalar self), ranks <= 8, out's shape equal to the
reduced shape — all up front (161002). Empty ``dim`` reduces every axis. An empty self (its zero
dim not reduced) launches nothing; a 0-d self is copied. Otherwise: Contiguous -> Cast (BOOL runs
as FLOAT32) -> ReduceMax (AI Core for F16 F32 U8 I32 I64 BF16 I8, AI CPU for F64 I16; NaN
propagates) -> Cast(out) -> ViewCopy.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import (
    all_axes_if_empty,
    check_dims,
    int_array_values,
    reduce_max_l0,
    reduced_shape,
)
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import contiguous, create_executor, l0_label, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
AMAX_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
               D.DT_BOOL, D.DT_BF16)  # fmt: skip


@l2_api
def aclnnAmaxGetWorkspaceSize(
    self: aclTensor | None, dim: aclIntArray | None, keepDim: bool, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnAmax"
    check_not_null(api, self=self, dim=dim, out=out)
    assert self is not None and dim is not None and out is not None
    check_dtype(api, "self", self, AMAX_DTYPES)
    check_dtype(api, "out", out, (self.dtype,))
    rank = len(self.view_shape)
    axes = all_axes_if_empty(check_dims(api, int_array_values(dim), rank), rank)
    if rank:
        for a in axes:
            check_param(self.view_shape[a] != 0, api, f"dim {a} of self has size 0 and cannot be reduced.")
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    expected = reduced_shape(self.view_shape, axes, bool(keepDim)) if rank else ()
    check_param(out.view_shape == expected, api, f"out shape {list(out.view_shape)} must be {list(expected)}.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        with l0_label("Contiguous"):
            x = contiguous(self, executor)
        if rank == 0:
            result = x
        else:
            compute = D.DT_FLOAT if self.dtype == D.DT_BOOL else self.dtype
            result = reduce_max_l0(cast(x, compute, executor), axes, bool(keepDim), executor)
            result = cast(result, out.dtype, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())
