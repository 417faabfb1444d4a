"""acl_meta.h: creating, reading, changing and destroying the aclnn parameter objects.

Every function keeps its C name and its C parameters in C order (counts included); out-values
come back first and the status last. Behaviour is the real implementation's,
quirks included: no validation of dims, strides,
offsets, dtypes or formats; empty arrays and lists from a null value or a zero size; lists own
their members; aclInitTensor keeps the old address when given null. What C leaves undefined
(reading past the end of a too-short array, using or destroying a destroyed object) is
reported with both sites (emulator.diagnostics) instead of crashing.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator import process
from emulator.boundary import report_undefined
from emulator.cface import (
    Address,
    Bools,
    Dims,
    Floats,
    Scalars,
    Tensors,
    aclnn_api,
    address,
    live,
)
from emulator.diagnostics import ReportKind
from emulator.errors import AclnnError, AclnnParamNullptr, NnopbaseNullPointer
from emulator.lazylog import lazy_logger
from emulator.meta.describe import describe
from emulator.meta.dtypes import SCALAR_BYTES, aclDataType, numpy_dtype, to_acl_dtype, to_op_dtype
from emulator.meta.formats import is_private_format, to_acl_format, to_op_format
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

log = lazy_logger(__name__, logger_name="emulator.aclnn")

OK = AclnnStatus.ACLNN_SUCCESS
MAX_DIM_NUM = 25  # the inline capacity of opbase's shape small-vector
INT64_MIN = -(1 << 63)


# -- helpers ------------------------------------------------------------------------------------
def _read(values: object, count: int, api: str, what: str) -> tuple[int, ...] | None:
    """``count`` int64s from a C array; None (and a report) when the array is shorter than count."""
    seq = list(values) if isinstance(values, np.ndarray) else values
    assert isinstance(seq, list | tuple)
    if count < 0 or len(seq) < count:
        report_undefined(
            api,
            f"{what} has {len(seq)} elements but the count says {count}: a read past its end",
            kind=ReportKind.BAD_ARGUMENT,
        )
        return None
    return tuple(map(operator.index, seq[:count]))


def _small_vector(dims: tuple[int, ...], api: str, what: str) -> tuple[int, ...]:
    """Past 25 dims the real shape keeps the count but reads INT64_MIN beyond index 24 (a quirk kept as is)."""
    if len(dims) <= MAX_DIM_NUM:
        return dims
    log.warning("aclnn.too_many_dims", api=api, what=what, dims=len(dims), limit=MAX_DIM_NUM)
    return dims[:MAX_DIM_NUM] + (INT64_MIN,) * (len(dims) - MAX_DIM_NUM)


def _dims(values: Dims, count: int, api: str, what: str) -> tuple[int, ...] | None:
    if values is None:
        return () if count == 0 else None
    dims = _read(values, count, api, what)
    return None if dims is None else _small_vector(dims, api, what)


def _register(obj: Handle) -> Handle:
    process.current().registry.add(obj.kind, obj.key, ref=obj)
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
    view = _dims(viewDims, viewDimsNum, "aclCreateTensor", "viewDims")
    storage = _dims(storageDims, storageDimsNum, "aclCreateTensor", "storageDims")
    if view is None or storage is None:
        log.error("aclnn.create_tensor_failed", reason="a dims pointer is null but its count is not 0")
        return None
    if stride is None:
        strides = _small_vector(contiguous_strides(view), "aclCreateTensor", "stride")
    else:
        read = _read(stride, viewDimsNum, "aclCreateTensor", "stride")
        if read is None:
            return None
        strides = _small_vector(read, "aclCreateTensor", "stride")
    if is_private_format(format):
        log.warning(
            "aclnn.private_format", api="aclCreateTensor", format=format, hint="should not use this constructor"
        )
    tensor = aclTensor(
        view, strides, operator.index(offset), int(format), storage, to_op_format(format),
        to_op_dtype(dataType), address(tensorData),
    )  # fmt: skip
    _register(tensor)
    return tensor


def _does_not_fit(value: object, dataType: int, why: str) -> AclnnError:
    """The real aclCreateScalar's failure path: nullptr, and 'aclCreateScalar error.' reported as ACLNN_ERR_INNER."""
    try:
        name = aclDataType(dataType).name
    except ValueError:
        name = str(dataType)
    return AclnnError(f"aclCreateScalar error. The value {value!r} does not fit dtype {name}: {why}.")


def _number_bytes(value: bool | int | float | complex, np_dtype: np.dtype, dataType: int) -> bytes:
    """A Python number as the dtype's bytes, refused where a C cast would be undefined.

    An integer dtype takes a number inside its range (a float is truncated toward zero, as a C
    cast does); NaN, an infinity or a value outside the range is refused rather than wrapped (1000
    as INT8 would be -24, NaN as INT32 INT_MIN). A floating dtype takes any real number: overflow
    gives an infinity, the IEEE result, with numpy's warning silenced so it cannot escape as an
    error under ``warnings.simplefilter("error")``.
    """
    if isinstance(value, complex) and np_dtype.kind != "c":
        if value.imag != 0:
            raise _does_not_fit(value, dataType, "the dtype is not complex, so the imaginary part would be lost")
        value = value.real
    if np_dtype.kind in "iu" and not isinstance(value, complex):
        if isinstance(value, float) and not math.isfinite(value):
            raise _does_not_fit(value, dataType, "an integer dtype has no NaN or infinity")
        whole = math.trunc(value)
        info = np.iinfo(np_dtype)
        if not info.min <= whole <= info.max:
            raise _does_not_fit(value, dataType, f"outside [{info.min}, {info.max}]")
        value = whole
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array(value).astype(np_dtype, casting="unsafe").tobytes()
    except (OverflowError, ValueError, TypeError) as exc:
        raise _does_not_fit(value, dataType, str(exc)) from None


def _scalar_bytes(value: object, dataType: int, need: int) -> bytes | None:
    """The bytes aclCreateScalar copies: a Python number converted to the dtype, or raw bytes as given."""
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
    elif isinstance(value, np.generic):
        raw = value.tobytes()
    elif isinstance(value, bool | int | float | complex):
        np_dtype = numpy_dtype(to_op_dtype(dataType))
        if np_dtype is None:
            log.error("aclnn.create_scalar_failed", reason="pass this dtype's raw bits as bytes", dtype=dataType)
            return None
        raw = _number_bytes(value, np_dtype, dataType)
    else:
        raise TypeError(f"aclCreateScalar args parse failed: value must be a number, numpy scalar or bytes, "
                        f"not {type(value).__name__}")  # fmt: skip
    if len(raw) < need:
        report_undefined(
            "aclCreateScalar",
            f"the value has {len(raw)} bytes but dtype {dataType} reads {need}",
            kind=ReportKind.BAD_ARGUMENT,
        )
        return None
    return raw[:need]


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
    data = _scalar_bytes(value, dataType, need)
    if data is None:
        return None
    scalar = aclScalar(to_op_dtype(dataType), data)
    _register(scalar)
    return scalar


def _array_values(value: object, size: int, api: str, convert: Callable[[Any], object]) -> tuple[object, ...] | None:
    if value is None or size == 0:
        return ()
    seq = list(value) if isinstance(value, np.ndarray) else value
    assert isinstance(seq, list | tuple)
    if size < 0 or len(seq) < size:
        report_undefined(
            api, f"value has {len(seq)} elements but size is {size}: a read past its end", kind=ReportKind.BAD_ARGUMENT
        )
        return None
    return tuple(convert(v) for v in seq[:size])


@aclnn_api("aclCreateIntArray")
def aclCreateIntArray(value: Dims, size: int) -> aclIntArray | None:
    """aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size): null or 0 gives an empty array."""
    values = _array_values(value, size, "aclCreateIntArray", operator.index)
    return None if values is None else _register(aclIntArray(values))  # type: ignore[return-value]


def _float32(value: Any) -> float:
    return float(np.float32(value))


@aclnn_api("aclCreateFloatArray")
def aclCreateFloatArray(value: Floats, size: int) -> aclFloatArray | None:
    """aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size): values become float32."""
    values = _array_values(value, size, "aclCreateFloatArray", _float32)
    return None if values is None else _register(aclFloatArray(values))  # type: ignore[return-value]


@aclnn_api("aclCreateBoolArray")
def aclCreateBoolArray(value: Bools, size: int) -> aclBoolArray | None:
    """aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size)"""
    values = _array_values(value, size, "aclCreateBoolArray", bool)
    return None if values is None else _register(aclBoolArray(values))  # type: ignore[return-value]


def _adopt(container: aclTensorList | aclScalarList, api: str) -> None:
    registry = process.current().registry
    for member in container.values:
        if member is None:
            continue
        assert isinstance(member, aclTensor | aclScalar), "the face's checks let only these into a list"
        live(member, api)
        member.owner = container
        res = registry.get(member.kind, member.key)
        if res is not None:
            res.owner = (container.kind, container.key)


@aclnn_api("aclCreateTensorList")
def aclCreateTensorList(value: Tensors, size: int) -> aclTensorList | None:
    """aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size)

    Holds the caller's tensors themselves (no copies) and owns them from now on.
    """
    values = _array_values(value, size, "aclCreateTensorList", lambda t: t)
    if values is None:
        return None
    tensors = aclTensorList(values)
    _register(tensors)
    _adopt(tensors, "aclCreateTensorList")
    return tensors


@aclnn_api("aclCreateScalarList")
def aclCreateScalarList(value: Scalars, size: int) -> aclScalarList | None:
    """aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size)"""
    values = _array_values(value, size, "aclCreateScalarList", lambda s: s)
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
    if not obj.alive:
        gone = registry.released_resource(obj.kind, obj.key)
        report_undefined(
            api,
            f"double destroy of {describe(obj)}",
            created=gone.site if gone else None,
            destroyed=gone.released_at if gone else None,
            kind=ReportKind.DOUBLE_DESTROY,
        )
        return OK
    obj.alive = False
    registry.remove(obj.kind, obj.key)
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
    """Destroys every non-null member first: the list owns them."""
    if container is not None and container.alive:
        for member in container.values:
            _destroy(member, member_api)  # type: ignore[arg-type]
    return _destroy(container, api)


@aclnn_api("aclDestroyTensorList")
def aclDestroyTensorList(array: aclTensorList | None) -> int:
    return _destroy_list(array, "aclDestroyTensorList", "aclDestroyTensor")


@aclnn_api("aclDestroyScalarList")
def aclDestroyScalarList(array: aclScalarList | None) -> int:
    return _destroy_list(array, "aclDestroyScalarList", "aclDestroyScalar")


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
        view = _read(viewDims, viewDimsNum, "aclInitTensor", "viewDims")
        if view is None:
            return OK
        t.view_shape = _small_vector(view, "aclInitTensor", "viewDims")
    t.view_format = int(format)
    if stride is not None:
        strides = _read(stride, viewDimsNum, "aclInitTensor", "stride")
        if strides is None:
            return OK
        t.strides = _small_vector(strides, "aclInitTensor", "stride")
    else:
        t.strides = contiguous_strides(t.view_shape)
    t.offset = operator.index(offset)
    if is_private_format(format):
        log.warning("aclnn.private_format", api="aclInitTensor", format=format, hint="should not use this constructor")
    if tensorDataAddr:
        t.raw_addr = address(tensorDataAddr)
    if storageDims is not None and storageDimsNum > 0:
        storage = _read(storageDims, storageDimsNum, "aclInitTensor", "storageDims")
        if storage is None:
            return OK
        t.storage_shape = t.origin_shape = _small_vector(storage, "aclInitTensor", "storageDims")
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
