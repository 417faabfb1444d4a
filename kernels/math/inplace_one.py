"""aclnnInplaceOne: every element of selfRef becomes 1 (declared in aclnnop/aclnn_ones.h).

L2: null selfRef (161001); selfRef dtype in the SoC's list; rank <= 8 (161002); an empty selfRef
launches nothing. Then Contiguous(selfRef) -> OnesLike -> ViewCopy back into selfRef.

L0 OnesLike: an output like its input, all ones (the input is never read); AI Core for float32,
float16, int8, int32, uint8 and (910B family) bfloat16 and bool; otherwise the AI CPU kernel — the TF
one (attribute ``T``) for complex and bfloat16, the CANN one for the rest. Bit-exact.
"""

from __future__ import annotations

from emulator.device.interface import Engine
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.compare_tensor import soc_list
from emulator.kernels.math.data_movement import fill_tiling, same_dtype_bins
from emulator.kernels.math.zero import ZerosLikeAttrs, constant_like_kernel
from emulator.meta.dtypes import COMPLEX_TYPES, DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    DType,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_rank, is_empty

D = DataType
ONE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_BOOL,
              D.DT_DOUBLE)  # fmt: skip
ONES_LIKE_AICORE = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT8, D.DT_INT32, D.DT_UINT8)
ONES_LIKE_AICORE_EXTRA = (D.DT_BF16, D.DT_BOOL)  # the 910B family

_kernel = constant_like_kernel(1)
ONES_LIKE = OpImpl("OnesLike", _kernel, fill_tiling, bins=same_dtype_bins((*ONES_LIKE_AICORE, *ONES_LIKE_AICORE_EXTRA)),
                   kernel_attrs=ZerosLikeAttrs.of, unread_inputs=("x",))  # fmt: skip
ONES_LIKE_AICPU = OpImpl("OnesLike", _kernel, fill_tiling, engine=Engine.AICPU, kernel_attrs=ZerosLikeAttrs.of,
                         unread_inputs=("x",))  # fmt: skip


def ones_like_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::OnesLike(x): a workspace tensor of x's shape and dtype, all ones."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    if is_empty(out):
        return out
    groups = (OP_INPUT(x), OP_OUTPUT(out))
    if x.dtype in soc_list(ONES_LIKE_AICORE, ONES_LIKE_AICORE_EXTRA):
        status = add_to_launcher_list_aicore(executor, ONES_LIKE, *groups)
    elif x.dtype in COMPLEX_TYPES or x.dtype == D.DT_BF16:  # the TF kernel
        status = add_to_launcher_list_aicpu(executor, ONES_LIKE_AICPU, ("T",), *groups, OP_ATTR(DType(x.dtype)))
    else:
        status = add_to_launcher_list_aicpu(executor, ONES_LIKE_AICPU, (), *groups)
    if status != 0:
        raise L0StepFailed("OnesLike", f"status {status}")
    return out


@l2_api
def aclnnInplaceOneGetWorkspaceSize(selfRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnInplaceOne"
    check_not_null(api, self=selfRef)
    assert selfRef is not None
    check_dtype(api, "self", selfRef, soc_list(ONE_DTYPES))
    check_rank(api, "self", selfRef)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(selfRef):
            return unique.release(0)
        view_copy(ones_like_l0(contiguous(selfRef, executor), executor), selfRef, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ONES_LIKE,)
