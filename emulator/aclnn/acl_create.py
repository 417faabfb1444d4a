"""acl_meta.h: creating and destroying the aclnn parameter objects.

Every function keeps its C name and its C parameters in C order (counts included); the creators
return the object or nullptr (None), the destroyers a status. Behaviour is the real
implementation's, quirks included: no validation of dims, strides, offsets, dtypes or formats;
empty arrays and lists from a null value or a zero size; lists own their members. What C leaves
undefined (reading past the end of a too-short array, destroying a destroyed object) is reported
with both sites (emulator.diagnostics) instead of crashing.

Real programs call these per op, so each takes its common case in one step — the arguments
already checked by the face, read as they are, the object built and registered — and falls back to
the general path (the same code as before the fast path existed) for everything else: a null
pointer, a numpy array, a count that does not match, more than 25 dims, a private format, a
value that needs numpy to convert. tests/unit/test_create_fast_path.py holds the two to the same
objects, reports and messages.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from emulator import process
from emulator.aclnn.c_arrays import array_values, dims, plain_dims, plain_ints, plain_members, read, same, small_vector
from emulator.aclnn.scalar_value import plain_bytes, scalar_bytes
from emulator.boundary import report_undefined
from emulator.cface import Address, Bools, Dims, Floats, Scalars, Tensors, aclnn_api, address, live
from emulator.diagnostics import ReportKind
from emulator.errors import AclnnError
from emulator.lazylog import lazy_logger
from emulator.meta.describe import describe
from emulator.meta.dtypes import SCALAR_BYTES, to_op_dtype
from emulator.meta.formats import PRIVATE_FORMATS, is_private_format, to_op_format
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
    contiguous_strides,
)
from emulator.status import AclnnStatus
from emulator.tracking import ResourceKind, capture_site

log = lazy_logger(__name__, logger_name="emulator.aclnn")

OK = AclnnStatus.ACLNN_SUCCESS
TENSOR = ResourceKind.TENSOR
_index = operator.index


def _register(obj: Handle) -> Handle:
    process.current().registry.add_fast(obj.kind, id(obj), obj)
    return obj


# -- creation -----------------------------------------------------------------------------------
@aclnn_api("aclCreateTensor")
def aclCreateTensor(
    viewDims: Dims,
    viewDimsNum: int,
    dataType: int,
    stride: Dims,
    offset: int,
    format: int,
    storageDims: Dims,
    storageDimsNum: int,
    tensorData: Address,
) -> aclTensor | None:
    """aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
    const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
    uint64_t storageDimsNum, void* tensorData)

    nullptr only when a dims pointer is null with a non-zero count; nothing else is validated.
    """
    view = plain_dims(viewDims, viewDimsNum)
    if storageDims is viewDims and storageDimsNum == viewDimsNum:
        storage = view  # one list for both, as most callers pass a contiguous tensor's shape: read once
    else:
        storage = plain_dims(storageDims, storageDimsNum)
    if view is not None and storage is not None and format not in PRIVATE_FORMATS:
        strides = contiguous_strides(view) if stride is None else plain_dims(stride, viewDimsNum)
        if strides is not None:
            tensor = aclTensor(
                view, strides, _index(offset), int(format), storage, to_op_format(format),
                to_op_dtype(dataType), int(tensorData or 0),
            )  # fmt: skip
            process.current().registry.add_fast(TENSOR, id(tensor), tensor)
            return tensor
    # not the common case: the general path decides (and reports) it all
    return _create_tensor(
        viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum, tensorData
    )


def _create_tensor(
    viewDims: Dims,
    viewDimsNum: int,
    dataType: int,
    stride: Dims,
    offset: int,
    format: int,
    storageDims: Dims,
    storageDimsNum: int,
    tensorData: Address,
) -> aclTensor | None:
    """aclCreateTensor's general path: every case, each report and log line where the real call has it."""
    view = dims(viewDims, viewDimsNum, "aclCreateTensor", "viewDims")
    storage = dims(storageDims, storageDimsNum, "aclCreateTensor", "storageDims")
    if view is None or storage is None:
        log.error("aclnn.create_tensor_failed", reason="a dims pointer is null but its count is not 0")
        return None
    if stride is None:
        strides = small_vector(contiguous_strides(view), "aclCreateTensor", "stride")
    else:
        read_strides = read(stride, viewDimsNum, "aclCreateTensor", "stride")
        if read_strides is None:
            return None
        strides = small_vector(read_strides, "aclCreateTensor", "stride")
    if is_private_format(format):
        log.warning(
            "aclnn.private_format", api="aclCreateTensor", format=format, hint="should not use this constructor"
        )
    tensor = aclTensor(
        view, strides, _index(offset), int(format), storage, to_op_format(format),
        to_op_dtype(dataType), address(tensorData),
    )  # fmt: skip
    _register(tensor)
    return tensor


@aclnn_api("aclCreateScalar")
def aclCreateScalar(value: object, dataType: int) -> aclScalar | None:
    """aclScalar* aclCreateScalar(void* value, aclDataType dataType)

    The value is copied at creation. nullptr for a null value or an unsupported dtype.
    """
    if value is None:
        return None
    need = SCALAR_BYTES.get(dataType)
    if need is None:  # the constructor throws; the catch reports "aclCreateScalar error." (EZ9999)
        log.error("aclnn.create_scalar_failed", reason="not supported data type", dtype=dataType)
        raise AclnnError("aclCreateScalar error.")
    data = plain_bytes(value, dataType, need)
    if data is None:
        data = scalar_bytes(value, dataType, need)
        if data is None:
            return None
    scalar = aclScalar(to_op_dtype(dataType), data)
    _register(scalar)
    return scalar


@aclnn_api("aclCreateIntArray")
def aclCreateIntArray(value: Dims, size: int) -> aclIntArray | None:
    """aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size): null or 0 gives an empty array."""
    values: tuple[object, ...] | None = plain_ints(value, size)
    if values is None:
        values = array_values(value, size, "aclCreateIntArray", _index)
        if values is None:
            return None
    return _register(aclIntArray(values))  # type: ignore[return-value]


def _float32(value: Any) -> float:
    return float(np.float32(value))


@aclnn_api("aclCreateFloatArray")
def aclCreateFloatArray(value: Floats, size: int) -> aclFloatArray | None:
    """aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size): values become float32."""
    values = array_values(value, size, "aclCreateFloatArray", _float32)
    return None if values is None else _register(aclFloatArray(values))  # type: ignore[return-value]


@aclnn_api("aclCreateBoolArray")
def aclCreateBoolArray(value: Bools, size: int) -> aclBoolArray | None:
    """aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size)"""
    values = array_values(value, size, "aclCreateBoolArray", bool)
    return None if values is None else _register(aclBoolArray(values))  # type: ignore[return-value]


def _members(value: object, size: int, api: str) -> tuple[object, ...] | None:
    values = plain_members(value, size)
    return array_values(value, size, api, same) if values is None else values


def _adopt(container: aclTensorList | aclScalarList, api: str) -> None:
    """The list owns its members from now on: a member's leak is reported as the list's."""
    registry = process.current().registry
    owner = (container.kind, id(container))
    for member in container.values:
        if member is None:
            continue
        assert isinstance(member, aclTensor | aclScalar), "the face's checks let only these into a list"
        if not member.alive:
            live(member, api)
        member.owner = container
        res = registry.get(member.kind, id(member))
        if res is not None:
            res.owner = owner


@aclnn_api("aclCreateTensorList")
def aclCreateTensorList(value: Tensors, size: int) -> aclTensorList | None:
    """aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size)

    Holds the caller's tensors themselves (no copies) and owns them from now on.
    """
    values = _members(value, size, "aclCreateTensorList")
    if values is None:
        return None
    tensors = aclTensorList(values)
    _register(tensors)
    _adopt(tensors, "aclCreateTensorList")
    return tensors


@aclnn_api("aclCreateScalarList")
def aclCreateScalarList(value: Scalars, size: int) -> aclScalarList | None:
    """aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size)"""
    values = _members(value, size, "aclCreateScalarList")
    if values is None:
        return None
    scalars = aclScalarList(values)
    _register(scalars)
    _adopt(scalars, "aclCreateScalarList")
    return scalars


# -- destruction --------------------------------------------------------------------------------
def _destroy(obj: Handle | None, api: str) -> int:
    """Null is fine; a second destroy is undefined in C (reported); neither ever fails."""
    if obj is None:
        return OK
    registry = process.current().registry
    if obj.alive:  # the common case first
        obj.alive = False
        registry.remove(obj.kind, id(obj))
        return OK
    gone = registry.released_resource(obj.kind, id(obj))
    report_undefined(
        api,
        f"double destroy of {describe(obj)}",
        created=gone.site if gone else None,
        destroyed=gone.released_at if gone else None,
        kind=ReportKind.DOUBLE_DESTROY,
    )
    return OK


@aclnn_api("aclDestroyTensor")
def aclDestroyTensor(tensor: aclTensor | None) -> int:
    """Frees the descriptor, never the device memory it points to."""
    return _destroy(tensor, "aclDestroyTensor")


@aclnn_api("aclDestroyScalar")
def aclDestroyScalar(scalar: aclScalar | None) -> int:
    return _destroy(scalar, "aclDestroyScalar")


@aclnn_api("aclDestroyIntArray")
def aclDestroyIntArray(array: aclIntArray | None) -> int:
    return _destroy(array, "aclDestroyIntArray")


@aclnn_api("aclDestroyFloatArray")
def aclDestroyFloatArray(array: aclFloatArray | None) -> int:
    return _destroy(array, "aclDestroyFloatArray")


@aclnn_api("aclDestroyBoolArray")
def aclDestroyBoolArray(array: aclBoolArray | None) -> int:
    return _destroy(array, "aclDestroyBoolArray")


def _destroy_list(container: aclTensorList | aclScalarList | None, api: str, member_api: str) -> int:
    """Destroys every non-null member first (the list owns them), then the list.

    The list and its members are released by the same user call, so they share one release site:
    captured once here instead of once per object (what a use-after-destroy of any of them names).
    """
    if container is None or not container.alive:
        return _destroy(container, api)
    registry = process.current().registry
    site = capture_site() if registry.enabled else None
    for member in container.values:
        if member is None:
            continue
        assert isinstance(member, Handle)
        if member.alive:
            member.alive = False
            registry.remove(member.kind, id(member), site=site)
        else:
            _destroy(member, member_api)  # a member destroyed already: its double destroy is reported
    container.alive = False
    registry.remove(container.kind, id(container), site=site)
    return OK


@aclnn_api("aclDestroyTensorList")
def aclDestroyTensorList(array: aclTensorList | None) -> int:
    return _destroy_list(array, "aclDestroyTensorList", "aclDestroyTensor")


@aclnn_api("aclDestroyScalarList")
def aclDestroyScalarList(array: aclScalarList | None) -> int:
    return _destroy_list(array, "aclDestroyScalarList", "aclDestroyScalar")
