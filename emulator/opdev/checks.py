"""Parameter checks of L2 ops (OP_CHECK_NULL, OP_CHECK_DTYPE_NOT_SUPPORT …): one place for their texts.

A failed check raises the status error; the boundary records it for aclGetRecentErrMsg with the
EZ1001 parameter-error ID, as the real OP_LOGE / OP_CHECK macros report through the error manager.
"""

from __future__ import annotations

from collections.abc import Iterable

from emulator.errors import AclnnInnerNullptr, AclnnParamInvalid, AclnnParamNullptr
from emulator.meta.dtypes import dtype_name
from emulator.meta.objects import aclScalar, aclTensor

MAX_DIM = 8


def check_not_null(api: str, **params: object) -> None:
    for name, value in params.items():
        if value is None:
            raise AclnnParamNullptr(f"{api}: expected {name} not to be a null pointer.", param=name)


def check_not_null_inner(api: str, **params: object) -> None:
    """OP_CHECK_NULL in the ops whose null check returns ACLNN_ERR_INNER_NULLPTR (BitwiseNot, Linspace):
    the same text and EZ1001 parameter-error report, status 561103."""
    for name, value in params.items():
        if value is None:
            raise AclnnInnerNullptr(f"{api}: expected {name} not to be a null pointer.", msg_id="EZ1001", param=name)


def check_param(ok: bool, api: str, message: str) -> None:
    if not ok:
        raise AclnnParamInvalid(f"{api}: {message}")


def check_dtype(api: str, name: str, tensor: aclTensor | aclScalar, supported: Iterable[int]) -> None:
    """OP_CHECK_DTYPE_NOT_SUPPORT: a tensor's or a scalar's dtype in the support list."""
    allowed = tuple(supported)
    if tensor.dtype not in allowed:
        listed = ", ".join(dtype_name(d) for d in allowed)
        raise AclnnParamInvalid(
            f"{api}: {name} dtype {dtype_name(tensor.dtype)} should be in dtype support list [{listed}].", param=name
        )


def check_rank(api: str, name: str, tensor: aclTensor, limit: int = MAX_DIM) -> None:
    if len(tensor.view_shape) > limit:
        raise AclnnParamInvalid(f"{api}: {name} has {len(tensor.view_shape)} dims, more than {limit}.", param=name)


def is_empty(*tensors: aclTensor) -> bool:
    return any(0 in t.view_shape for t in tensors)
