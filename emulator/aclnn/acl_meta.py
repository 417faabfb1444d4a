"""acl_meta.h: reading and changing the aclnn parameter objects (creating and destroying them:
emulator.aclnn.acl_create).

Every function keeps its C name and its C parameters in C order; out-values come back first and
the status last. Behaviour is the real implementation's, quirks included: the getters reject a
null object, aclInitTensor keeps the old address when given null and changes shapes only when
given with a non-zero count. What C leaves undefined (reading past the end of a too-short array,
using a destroyed object) is reported with both sites (emulator.diagnostics) instead of crashing.
"""

from __future__ import annotations

import operator

from emulator.aclnn.c_arrays import read, small_vector
from emulator.cface import Address, Dims, aclnn_api, address, live
from emulator.errors import AclnnParamNullptr, NnopbaseNullPointer
from emulator.lazylog import lazy_logger
from emulator.meta.dtypes import to_acl_dtype, to_op_dtype
from emulator.meta.formats import is_private_format, to_acl_format, to_op_format
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalarList,
    aclTensor,
    aclTensorList,
    contiguous_strides,
)
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.aclnn")

OK = AclnnStatus.ACLNN_SUCCESS


# -- getters ------------------------------------------------------------------------------------
def _need(obj: Handle | None, api: str) -> Handle:
    if obj is None:
        raise AclnnParamNullptr(f"{api}: a pointer parameter is null", msg_id=None)
    return live(obj, api)


@aclnn_api("aclGetViewShape")
def aclGetViewShape(tensor: aclTensor | None) -> tuple[list[int], int]:
    """aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum)

    The count out-parameter is the length of the returned list.
    """
    return list(_need(tensor, "aclGetViewShape").view_shape), OK  # type: ignore[attr-defined]


@aclnn_api("aclGetStorageShape")
def aclGetStorageShape(tensor: aclTensor | None) -> tuple[list[int], int]:
    return list(_need(tensor, "aclGetStorageShape").storage_shape), OK  # type: ignore[attr-defined]


@aclnn_api("aclGetViewStrides")
def aclGetViewStrides(tensor: aclTensor | None) -> tuple[list[int], int]:
    return list(_need(tensor, "aclGetViewStrides").strides), OK  # type: ignore[attr-defined]


@aclnn_api("aclGetViewOffset")
def aclGetViewOffset(tensor: aclTensor | None) -> tuple[int, int]:
    return _need(tensor, "aclGetViewOffset").offset, OK  # type: ignore[attr-defined]


@aclnn_api("aclGetFormat")
def aclGetFormat(tensor: aclTensor | None) -> tuple[int, int]:
    """The view format through ToAclFormat: anything outside the 19 aclFormats reads ACL_FORMAT_UNDEFINED."""
    return to_acl_format(_need(tensor, "aclGetFormat").view_format), OK  # type: ignore[attr-defined]


@aclnn_api("aclGetDataType")
def aclGetDataType(tensor: aclTensor | None) -> tuple[int, int]:
    return to_acl_dtype(_need(tensor, "aclGetDataType").dtype), OK  # type: ignore[attr-defined]


def _size(obj: Handle | None, api: str) -> tuple[int, int]:
    return len(_need(obj, api).values), OK  # type: ignore[attr-defined]


@aclnn_api("aclGetIntArraySize")
def aclGetIntArraySize(array: aclIntArray | None) -> tuple[int, int]:
    return _size(array, "aclGetIntArraySize")


@aclnn_api("aclGetFloatArraySize")
def aclGetFloatArraySize(array: aclFloatArray | None) -> tuple[int, int]:
    return _size(array, "aclGetFloatArraySize")


@aclnn_api("aclGetBoolArraySize")
def aclGetBoolArraySize(array: aclBoolArray | None) -> tuple[int, int]:
    return _size(array, "aclGetBoolArraySize")


@aclnn_api("aclGetTensorListSize")
def aclGetTensorListSize(tensorList: aclTensorList | None) -> tuple[int, int]:
    """Null entries are counted."""
    return _size(tensorList, "aclGetTensorListSize")


@aclnn_api("aclGetScalarListSize")
def aclGetScalarListSize(scalarList: aclScalarList | None) -> tuple[int, int]:
    return _size(scalarList, "aclGetScalarListSize")


# -- changing a tensor --------------------------------------------------------------------------
@aclnn_api("aclInitTensor")
def aclInitTensor(
    tensor: aclTensor | None,
    viewDims: Dims,
    viewDimsNum: int,
    dataType: int,
    stride: Dims,
    offset: int,
    format: int,
    storageDims: Dims,
    storageDimsNum: int,
    tensorDataAddr: Address,
) -> int:
    """aclnnStatus aclInitTensor(aclTensor* tensor, …same as aclCreateTensor…, void* tensorDataAddr)

    Shapes change only when given with a non-zero count; a null address keeps the old one.
    """
    t: aclTensor = _need(tensor, "aclInitTensor")  # type: ignore[assignment]
    if viewDims is not None and viewDimsNum > 0:
        view = read(viewDims, viewDimsNum, "aclInitTensor", "viewDims")
        if view is None:
            return OK
        t.view_shape = small_vector(view, "aclInitTensor", "viewDims")
    t.view_format = int(format)
    if stride is not None:
        strides = read(stride, viewDimsNum, "aclInitTensor", "stride")
        if strides is None:
            return OK
        t.strides = small_vector(strides, "aclInitTensor", "stride")
    else:
        t.strides = contiguous_strides(t.view_shape)
    t.offset = operator.index(offset)
    if is_private_format(format):
        log.warning("aclnn.private_format", api="aclInitTensor", format=format, hint="should not use this constructor")
    if tensorDataAddr:
        t.raw_addr = address(tensorDataAddr)
    if storageDims is not None and storageDimsNum > 0:
        storage = read(storageDims, storageDimsNum, "aclInitTensor", "storageDims")
        if storage is None:
            return OK
        t.storage_shape = t.origin_shape = small_vector(storage, "aclInitTensor", "storageDims")
    t.storage_format = t.origin_format = to_op_format(format)
    t.dtype = to_op_dtype(dataType)
    return OK


@aclnn_api("aclSetRawTensorAddr")
def aclSetRawTensorAddr(tensor: aclTensor | None, addr: Address) -> int:
    """aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr): a null address is allowed."""
    if tensor is None:
        raise NnopbaseNullPointer("aclSetRawTensorAddr", "tensor", AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    live(tensor, "aclSetRawTensorAddr").raw_addr = address(addr)
    return OK


@aclnn_api("aclGetRawTensorAddr")
def aclGetRawTensorAddr(tensor: aclTensor | None) -> tuple[int, int]:
    """The raw address, not offset-adjusted (0 for a tensor created with null data)."""
    if tensor is None:
        raise NnopbaseNullPointer("aclGetRawTensorAddr", "tensor", AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    return live(tensor, "aclGetRawTensorAddr").raw_addr, OK
