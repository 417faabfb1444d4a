"""aclnnCast: out = self converted to ``dtype``, on top of the L0 Cast.

Checks (A2): nulls of self and out (161001); self's dtype and ``dtype`` in the A2 list (float16,
float32, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, bool, complex64,
complex128, bfloat16), rank <= 8, out shape == self shape (161002). Any listed pair is accepted in
phase 1 (no CanCast rule). An empty self returns at once. Chain: Contiguous -> Cast(dtype) (AI Core
for the A2 pair table, AI CPU for the other listed pairs, nothing for the same dtype) -> ViewCopy.
``out``'s dtype is not validated against ``dtype``: a mismatch makes ViewCopy fail (561103), as on
the card.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.meta.dtypes import DataType, dtype_name, to_op_dtype
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
CAST_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_INT32,
               D.DT_INT64, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128,
               D.DT_BF16)  # fmt: skip


@l2_api
def aclnnCastGetWorkspaceSize(
    self: aclTensor | None, dtype: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnCast"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    dst = to_op_dtype(int(dtype))
    check_dtype(api, "self", self, CAST_DTYPES)
    check_param(dst in CAST_DTYPES, api, f"the param dtype {dtype_name(dst)} is not supported.")
    check_rank(api, "self", self)
    check_param(self.view_shape == out.view_shape, api, f"out shape {list(out.view_shape)} must equal self shape "
                f"{list(self.view_shape)}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = contiguous(self, executor)
        view_copy(cast(x, dst, executor), out, executor)
        return unique.release(executor.get_workspace_size())
