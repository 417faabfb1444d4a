"""``acl.create_data_buffer`` … and ``acl.create_tensor_desc`` …: the acl_base.h objects of pyACL.

Both are host objects that hand out integer handles, as pyACL does (``emulator.meta.acl_objects``).
The rules are the real library's: a data buffer wraps any (address, size) pair, null and 0
included, and never owns the memory; the getters of a null handle return 0 without a message;
a destroy of a null handle is 100000 (EH0008). A handle used after its destroy, or one this
process never handed out, is undefined in the real library (it dereferences freed memory): the
emulator reports it with the sites where the object was created and destroyed, and answers as
the null handle does.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator import process
from emulator.boundary import acl_api, report_undefined
from emulator.diagnostics import ReportKind
from emulator.errors import AclInvalidValue, AclNullPointer
from emulator.meta.acl_objects import (
    UNKNOWN_RANK,
    UNKNOWN_RANK_NUM_DIMS,
    AclDataBuffer,
    AclTensorDesc,
)
from emulator.meta.dtypes import aclDataType
from emulator.status import AclError
from emulator.tracking import ResourceKind

OK = AclError.ACL_SUCCESS
MAX_DIMS = 128  # ACL_MAX_DIM_CNT
_SIZES: dict[int, int] = {
    **dict.fromkeys((aclDataType.ACL_STRING, aclDataType.ACL_DT_UNDEFINED), 0),
    **dict.fromkeys((aclDataType.ACL_UINT1, aclDataType.ACL_INT4), 1),
    **dict.fromkeys(
        (
            aclDataType.ACL_BOOL,
            aclDataType.ACL_INT8,
            aclDataType.ACL_UINT8,
            aclDataType.ACL_HIFLOAT8,
            aclDataType.ACL_FLOAT8_E5M2,
            aclDataType.ACL_FLOAT8_E4M3FN,
            aclDataType.ACL_FLOAT8_E8M0,
        ),
        1,
    ),
    **dict.fromkeys((aclDataType.ACL_FLOAT16, aclDataType.ACL_INT16, aclDataType.ACL_UINT16, aclDataType.ACL_BF16), 2),
    **dict.fromkeys(
        (aclDataType.ACL_FLOAT, aclDataType.ACL_INT32, aclDataType.ACL_UINT32, aclDataType.ACL_COMPLEX32), 4
    ),
    aclDataType.ACL_COMPLEX128: 16,
}
DEFAULT_TYPE_SIZE = 8  # INT64, UINT64, DOUBLE, COMPLEX64 and any value the table does not name


def _lookup(api: str, handle: int, kind: ResourceKind) -> AclDataBuffer | AclTensorDesc | None:
    """The live object behind ``handle``; None (after a report) for a destroyed or foreign one."""
    proc = process.current()
    obj = proc.acl_objects.get(handle)
    if obj is not None and _kind(obj) is kind:
        return obj
    gone = proc.registry.released_resource(kind, handle)
    if gone is not None:
        report_undefined(
            api,
            f"{kind.replace('_', ' ')} {handle:#x} is used after it was destroyed",
            created=gone.site,
            destroyed=gone.released_at,
        )
    else:
        report_undefined(
            api, f"{handle:#x} is not a live {kind.replace('_', ' ')} of this process", kind=ReportKind.FOREIGN_HANDLE
        )
    return None


def _kind(obj: AclDataBuffer | AclTensorDesc) -> ResourceKind:
    return ResourceKind.DATA_BUFFER if isinstance(obj, AclDataBuffer) else ResourceKind.TENSOR_DESC


def _buffer(api: str, handle: int) -> AclDataBuffer | None:
    if not handle:
        return None
    obj = _lookup(api, handle, ResourceKind.DATA_BUFFER)
    return obj if isinstance(obj, AclDataBuffer) else None


def _desc(api: str, handle: int) -> AclTensorDesc | None:
    if not handle:
        return None
    obj = _lookup(api, handle, ResourceKind.TENSOR_DESC)
    return obj if isinstance(obj, AclTensorDesc) else None


def _register(obj: AclDataBuffer | AclTensorDesc, size: int | None = None) -> int:
    proc = process.current()
    proc.acl_objects.add(obj)
    proc.registry.add(_kind(obj), obj.key, size=size, ref=obj)
    return obj.key


def _release(api: str, handle: int, kind: ResourceKind) -> None:
    proc = process.current()
    if _lookup(api, handle, kind) is None:
        return
    proc.acl_objects.pop(handle)
    proc.registry.remove(kind, handle)


# -- data buffers ---------------------------------------------------------------------------------
@acl_api("aclCreateDataBuffer")
def create_data_buffer(data: int, size: int) -> int:
    """A new buffer over (data, size); a null address and a zero size are allowed (an empty output)."""
    proc = process.current()
    return _register(AclDataBuffer(proc.acl_objects.new_handle(), int(data), int(size)), size=int(size))


@acl_api("aclDestroyDataBuffer")
def destroy_data_buffer(data_buffer: int) -> int:
    """Destroys the buffer object only; the memory it wraps stays the caller's to free."""
    if not data_buffer:
        raise AclNullPointer("aclDestroyDataBuffer", "dataBuffer")
    _release("aclDestroyDataBuffer", data_buffer, ResourceKind.DATA_BUFFER)
    return OK


@acl_api("aclUpdateDataBuffer")
def update_data_buffer(data_buffer: int, data: int, size: int) -> int:
    if not data_buffer:
        raise AclNullPointer("aclUpdateDataBuffer", "dataBuffer")
    buffer = _buffer("aclUpdateDataBuffer", data_buffer)
    if buffer is not None:
        buffer.data, buffer.size = int(data), int(size)
    return OK


@acl_api("aclGetDataBufferAddr")
def get_data_buffer_addr(data_buffer: int) -> int:
    buffer = _buffer("aclGetDataBufferAddr", data_buffer)
    return buffer.data if buffer is not None else 0


@acl_api("aclGetDataBufferSize")
def get_data_buffer_size(data_buffer: int) -> int:
    """The size cut to 32 bits, as the deprecated C function returns it (``_v2`` gives all of it)."""
    buffer = _buffer("aclGetDataBufferSize", data_buffer)
    return buffer.size & 0xFFFF_FFFF if buffer is not None else 0


@acl_api("aclGetDataBufferSizeV2")
def get_data_buffer_size_v2(data_buffer: int) -> int:
    buffer = _buffer("aclGetDataBufferSizeV2", data_buffer)
    return buffer.size if buffer is not None else 0


@acl_api("aclDataTypeSize")
def data_type_size(data_type: int) -> int:
    """Bytes per element; 0 for ACL_STRING and ACL_DT_UNDEFINED, 1 for the sub-byte types."""
    return _type_size(data_type)


def _type_size(data_type: int) -> int:
    return _SIZES.get(int(data_type), DEFAULT_TYPE_SIZE)


# -- tensor descriptors ---------------------------------------------------------------------------
@acl_api("aclCreateTensorDesc")
def create_tensor_desc(data_type: int, dims: Sequence[int] | None, format: int) -> int:
    """A new descriptor; 0 (nullptr, with an EH0007 text) for more than 128 dims or a dim below -2.

    An empty list is a scalar. ``[-2]`` is an unknown rank and -1 an unknown dimension (dynamic
    shapes); neither can be sized until it is known, so the size getters give 0 for them.
    """
    shape = tuple(int(d) for d in (dims or ()))
    if len(shape) > MAX_DIMS:
        raise AclInvalidValue("aclCreateTensorDesc", len(shape), "numDims", f"[0, {MAX_DIMS}]")
    bad = [d for d in shape if d < UNKNOWN_RANK]
    if bad:
        raise AclInvalidValue("aclCreateTensorDesc", bad[0], "dims", "a size >= 0, -1 (unknown) or [-2] (unknown rank)")
    proc = process.current()
    desc = AclTensorDesc(proc.acl_objects.new_handle(), int(data_type), shape, int(format))
    return _register(desc)


@acl_api("aclDestroyTensorDesc")
def destroy_tensor_desc(desc: int) -> None:
    """Returns nothing (void in C); a null handle is ignored, as ``delete nullptr`` is."""
    if desc:
        _release("aclDestroyTensorDesc", desc, ResourceKind.TENSOR_DESC)


@acl_api("aclGetTensorDescType")
def get_tensor_desc_type(desc: int) -> int:
    found = _desc("aclGetTensorDescType", desc)
    return found.dtype if found is not None else int(aclDataType.ACL_DT_UNDEFINED)


@acl_api("aclGetTensorDescFormat")
def get_tensor_desc_format(desc: int) -> int:
    found = _desc("aclGetTensorDescFormat", desc)
    return found.format if found is not None else -1  # ACL_FORMAT_UNDEFINED


@acl_api("aclGetTensorDescElementCount")
def get_tensor_desc_element_count(desc: int) -> int:
    found = _desc("aclGetTensorDescElementCount", desc)
    return found.element_count() if found is not None else 0


@acl_api("aclGetTensorDescSize")
def get_tensor_desc_size(desc: int) -> int:
    """Elements times the type size; 0 for a null handle or a shape with an unknown dimension."""
    found = _desc("aclGetTensorDescSize", desc)
    return found.element_count() * _type_size(found.dtype) if found is not None else 0


@acl_api("aclGetTensorDescNumDims")
def get_tensor_desc_num_dims(desc: int) -> int:
    """The rank; ACL_UNKNOWN_RANK (0xFFFFFFFFFFFFFFFE) for dims ``[-2]``; 0 for a null handle."""
    found = _desc("aclGetTensorDescNumDims", desc)
    if found is None:
        return 0
    return UNKNOWN_RANK_NUM_DIMS if found.unknown_rank else len(found.dims)


@acl_api("aclGetTensorDescDimV2")
def get_tensor_desc_dim_v2(desc: int, index: int) -> tuple[int, int]:
    """``dim_size, ret``: 100000 for a null handle (EH0008) or an index past the rank (EH0007)."""
    if not desc:
        raise AclNullPointer("aclGetTensorDescDimV2", "desc")
    found = _desc("aclGetTensorDescDimV2", desc)
    if found is None:
        raise AclNullPointer("aclGetTensorDescDimV2", "desc")
    if not 0 <= index < len(found.dims) or found.unknown_rank:
        raise AclInvalidValue("aclGetTensorDescDimV2", index, "index", f"[0, {len(found.dims)})")
    return found.dims[index], OK
