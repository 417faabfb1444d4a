"""aclnnArgsort: the int64 indices that sort self along ``dim``.

L2 as the real op is written (ops-math math/sort): null self / out (161001); then, in this order,
dim in [-r, r-1] (a 0-d self: [-1, 0]) and, on A2, a bfloat16 self whose sorted axis has length 1
refused; self in the A2 list and out int64; no private view format; ranks <= 8 and out shaped like
self (161002). An empty self launches nothing. Otherwise Contiguous, a Transpose bringing the
sorted axis last, the Sort L0 of aclnnSort (``stable`` false; bfloat16 goes to the kernel as it
is), the Transpose of the indices back, Cast(int32 -> int64) and ViewCopy. A 0-d self gets index 0
from the Sort L0's own zero-dim branch.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import is_regbase, soc_supports_bf16
from emulator.kernels.math.sort import sort_along
from emulator.kernels.math.unary import check_not_private
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
ARGSORT_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_BF16)
ARGSORT_REGBASE = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_UINT8, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64,
                   D.DT_UINT16, D.DT_UINT32, D.DT_UINT64)  # fmt: skip


def argsort_dtypes() -> tuple[int, ...]:
    """GetDtypeSupportList: by SocVersion (Ascend910B / 910_93 add bfloat16), the RegBase parts their own list."""
    if soc_supports_bf16():
        return ARGSORT_DTYPES
    return ARGSORT_REGBASE if is_regbase() else ARGSORT_DTYPES[:-1]


def _check(api: str, self: aclTensor, dim: int, out: aclTensor) -> None:
    rank = len(self.view_shape)
    low, high = (-rank, rank - 1) if rank else (-1, 0)
    check_param(low <= dim <= high, api, f"dim must be within the range of [{low}, {high}], but it is {dim}.")
    if rank:
        length = self.view_shape[dim % rank]
        check_param(length <= 2**31 - 1, api, "the dim being sorted can not have more than INT_MAX elements")
        check_param(is_regbase() or not (length == 1 and self.dtype == D.DT_BF16), api,
                    "The sort axis value is not support 1 when input type is BF16.")  # fmt: skip
    check_dtype(api, "self", self, argsort_dtypes())
    check_dtype(api, "out", out, (D.DT_INT64,))
    check_not_private(api, "self", self.view_format)
    check_not_private(api, "out", out.view_format)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_param(out.view_shape == self.view_shape, api, "out must have the shape of self.")


@l2_api
def aclnnArgsortGetWorkspaceSize(
    self: aclTensor | None, dim: int, descending: bool, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnArgsort"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    _check(api, self, int(dim), out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        x = contiguous(self, executor)
        rank = max(len(self.view_shape), 1)
        _, indices = sort_along(x, int(dim) % rank, bool(descending), False, executor)
        view_copy(cast(indices, D.DT_INT64, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = ()
