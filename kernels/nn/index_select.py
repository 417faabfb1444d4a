"""aclnnIndexSelect (ops-nn index/gather_v2): the rows of ``self`` along ``dim`` that ``index`` names.

L2 as the real op is written: null checks of self, index, out (161001); self's dtype in the list,
bfloat16 only on arch 2201 (A2 / A3) and the RegBase parts ("NpuArch ... does not support BF16."),
out's dtype self's, index int32 or int64; a private format on any of the three; a 0-d self with a
non-0-d out; self with more than 8 dims; dim in [-r, r-1] (r = 1 for a 0-d self); index with more
than 1 dim; when neither self nor index is empty, out's shape self's with dim set to the index
count (all 161002, in that order). An empty self or index launches nothing. Then Contiguous (a 0-d
self and a 0-d index become [1]), GatherV3 on A2 / A3 (its own fallback to GatherV2 for float64 and
complex) or GatherV2 on RegBase, without negative-index support, and ViewCopy. An index outside
[0, size) writes zeros (see the gather module).
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.index_common import REGBASE_SOCS
from emulator.kernels.math.unary import check_dtype_match, check_not_private
from emulator.kernels.nn.gather_v2 import ARCH_BF16, GATHER_DTYPES_A2, INDEX_DTYPES, gather_l0, index_as_1d
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, reshape_view, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
INDEX_SELECT_DTYPES = (*GATHER_DTYPES_A2, D.DT_UINT64, D.DT_UINT32, D.DT_UINT16)


def _check(api: str, self: aclTensor, dim: int, index: aclTensor, out: aclTensor) -> int:
    """CheckParams after the null checks; the non-negative dim."""
    check_dtype(api, "self", self, INDEX_SELECT_DTYPES)
    soc = current_l2().op.soc
    bf16_ok = soc.npu_arch == ARCH_BF16 or soc.short_soc_version in REGBASE_SOCS
    check_param(self.dtype != D.DT_BF16 or bf16_ok, api, f"NpuArch {soc.npu_arch} does not support BF16.")
    check_dtype_match(api, "out", out, self.dtype)
    check_dtype(api, "index", index, INDEX_DTYPES)
    for name, tensor in (("self", self), ("index", index), ("out", out)):
        check_not_private(api, name, tensor.storage_format)
    rank = len(self.view_shape)
    if rank == 0:
        check_param(not out.view_shape, api, "self is scalar, and out should also be scalar")
    rank = max(rank, 1)
    check_rank(api, "self", self)
    message = f"IndexError: Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})"
    check_param(-rank <= dim < rank, api, message)
    axis = dim + rank if dim < 0 else dim
    index_rank = len(index.view_shape)
    check_param(index_rank <= 1, api, f"index dimNum is {index_rank}, should not greater than 1")
    if self.view_shape:
        wanted = list(self.view_shape)
        wanted[axis] = int(index.view_shape[0]) if index.view_shape else 1
        if not is_empty(self, index):
            message = f"Shape of out should be {wanted}, but current is {list(out.view_shape)}."
            check_param(list(out.view_shape) == wanted, api, message)
    return axis


@l2_api
def aclnnIndexSelectGetWorkspaceSize(
    self: aclTensor | None, dim: int, index: aclTensor | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnIndexSelect"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, index=index, out=out)
        assert self is not None and index is not None and out is not None
        axis = _check(api, self, int(dim), index, out)
        if is_empty(self, index):
            return unique.release(0)
        x = contiguous(self, executor)
        if not x.view_shape:
            x = reshape_view(executor, x, (1,))
        regbase = executor.ctx.soc.short_soc_version in REGBASE_SOCS
        result = gather_l0(x, axis, index_as_1d(index, executor), executor, negative=False, v3=not regbase)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = ()
