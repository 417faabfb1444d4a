"""aclnnTril / aclnnInplaceTril (ops-math conversion/tril): the lower triangle of the last two axes.

L2 as the real op is written (it differs from Triu's in its checks): null checks (161001); self's
and out's dtypes both in the SoC's list and equal; self and out in different storage formats (a
private format alone is not refused); self with fewer than 2 dims (empty or not), self or out with
more than 8, out's shape not self's (all 161002). Then, as Triu: an empty self launches nothing,
else Contiguous → Tril (AI Core only) → ViewCopy; the kernel keeps col - row <= diagonal.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.index_common import soc_dtypes
from emulator.kernels.math.triu import (
    TRIU_DTYPES_910,
    TRIU_DTYPES_A2,
    TRIU_DTYPES_REGBASE,
    run_triangle,
    triangle_impl,
)
from emulator.kernels.math.unary import check_dtype_match, check_same_shape
from emulator.meta.objects import aclTensor
from emulator.opdev import create_executor, l2_api
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

TRIL = triangle_impl("Tril", lambda offset, diagonal: offset <= diagonal, TRIU_DTYPES_A2)


def _tril(self: aclTensor | None, diagonal: int, out: aclTensor | None) -> tuple[int, aclOpExecutor, int]:
    api = "aclnnTril"  # the in-place entry calls the out-of-place one, so its texts name aclnnTril too
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    supported = soc_dtypes(TRIU_DTYPES_A2, TRIU_DTYPES_910, TRIU_DTYPES_REGBASE)
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_dtype_match(api, "out", out, self.dtype)
    check_param(self.storage_format == out.storage_format, api, "self format is different with out format.")
    check_param(len(self.view_shape) > 1, api, "Dim of self should be last 2 dims.")
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    check_same_shape(api, self, out)
    with create_executor() as unique:
        executor = unique.get()
        run_triangle(TRIL, self, int(diagonal), out, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnTrilGetWorkspaceSize(
    self: aclTensor | None, diagonal: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tril(self, diagonal, out)


@l2_api
def aclnnInplaceTrilGetWorkspaceSize(selfRef: aclTensor | None, diagonal: int) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _tril(selfRef, diagonal, selfRef)


OPS = (TRIL,)
