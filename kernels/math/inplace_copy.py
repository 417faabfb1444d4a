"""aclnnInplaceCopy: selfRef = src, converted and broadcast.

L2 as the real op is written (ops-math conversion/view_copy): null checks (161001); selfRef and src
dtypes in the A2 list, ranks <= 8 and ``src`` broadcastable to exactly selfRef's shape (161002);
either tensor empty → SUCCESS with nothing launched. Then Contiguous(src), Cast to selfRef's dtype
when it differs (no CanCast restriction: float → int truncates, complex → real keeps the real part;
AI Core or AI CPU Cast by the pair table), BroadcastTo selfRef's shape when the shapes differ, and
ViewCopy into selfRef (which may be a strided view). The ``workspaceSize`` / ``executor`` null
checks (OP_CHECK_COMM_INPUT) cannot fire from Python, where both are return values.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.broadcast_to import broadcast_to_l0
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
COPY_DTYPES = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64,
               D.DT_FLOAT16, D.DT_FLOAT, D.DT_BOOL, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128,
               D.DT_BF16)  # fmt: skip


@l2_api
def aclnnInplaceCopyGetWorkspaceSize(
    selfRef: aclTensor | None, src: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnInplaceCopy"
    check_not_null(api, selfRef=selfRef, src=src)
    assert selfRef is not None and src is not None
    check_dtype(api, "selfRef", selfRef, COPY_DTYPES)
    check_dtype(api, "src", src, COPY_DTYPES)
    check_rank(api, "selfRef", selfRef)
    check_rank(api, "src", src)
    shape = broadcast_shape(selfRef.view_shape, src.view_shape)
    check_param(shape is not None, api, f"src {list(src.view_shape)} cannot broadcast to selfRef "
                f"{list(selfRef.view_shape)}.")  # fmt: skip
    check_param(shape == selfRef.view_shape, api, f"the broadcast shape {list(shape or ())} should be selfRef's "
                f"shape {list(selfRef.view_shape)}.")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(selfRef, src):
            return unique.release(0)
        result = contiguous(src, executor)
        if result.dtype != selfRef.dtype:
            result = cast(result, selfRef.dtype, executor)
        if result.view_shape != selfRef.view_shape:
            result = broadcast_to_l0(result, selfRef.view_shape, executor)
        view_copy(result, selfRef, executor)
        return unique.release(executor.get_workspace_size())
