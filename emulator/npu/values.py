"""What a session hands out and raises: tensors, handles, buffers, output requests, NpuError."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np

from emulator import acl, aclnn
from emulator.errors import EmulatorError
from emulator.meta.dtypes import NUMPY_DTYPES, numpy_dtype, to_acl_dtype, to_op_dtype
from emulator.status import AclError, AclnnStatus

if TYPE_CHECKING:
    from emulator.npu.session import Session

H2D = acl.constants.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.constants.ACL_MEMCPY_DEVICE_TO_HOST
HUGE_FIRST = acl.constants.ACL_MEM_MALLOC_HUGE_FIRST
ND = int(aclnn.ACL_FORMAT_ND)

DTypeLike: TypeAlias = "int | np.dtype[Any] | type | str"

# numpy dtype -> aclDataType: the inverse of meta.dtypes.NUMPY_DTYPES (ge and acl share these values).
_ACL_OF_NUMPY: dict[np.dtype[Any], int] = {dt: to_acl_dtype(int(ge)) for ge, dt in NUMPY_DTYPES.items()}


# -- errors --------------------------------------------------------------------------------------
def _status_enum(status: int) -> int:
    """The named status (AclnnStatus or AclError) when the value has one, else the plain int."""
    for enum in (AclnnStatus, AclError):
        try:
            return enum(status)
        except ValueError:
            continue
    return int(status)


class NpuError(EmulatorError):
    """A face call failed: it returned a non-zero status, or nullptr where it returns a pointer.

    ``status`` is the call's own status (the real value, e.g. 161002; None for a nullptr return,
    which carries no status), ``api`` the C function that failed and ``recent_message`` the
    ``aclGetRecentErrMsg`` text recorded with it (None when the real call records none). The face
    already recorded and logged the failure; this only carries it back up as an exception, so
    Python code need not check every return value.
    """

    msg_id = None

    def __init__(self, api: str, status: int | None, message: str | None) -> None:
        text = f"{api} returned nullptr" if status is None else f"{api} failed with status {int(status)}"
        if message:
            text += f": {message}"
        super().__init__(text)
        self.api = api
        # per instance (EmulatorError's is per class): the status that came back
        self.status = None if status is None else _status_enum(status)  # type: ignore[assignment]
        self.recent_message = message


def check(status: int, api: str) -> None:
    """Raise :class:`NpuError` when a face call's status is not success (0)."""
    if int(status) != 0:
        raise NpuError(api, status, acl.get_recent_err_msg())


# -- dtypes --------------------------------------------------------------------------------------
def acl_dtype(dtype: DTypeLike) -> int:
    """The aclDataType of a numpy dtype (or an aclDataType value, returned as is)."""
    if isinstance(dtype, int | np.integer) and not isinstance(dtype, bool):
        return int(dtype)
    np_dtype = np.dtype(cast(Any, dtype))
    if np_dtype not in _ACL_OF_NUMPY:
        raise TypeError(f"numpy dtype {np_dtype} has no aclDataType")
    return _ACL_OF_NUMPY[np_dtype]


def host_dtype(dtype: int) -> np.dtype[Any] | None:
    """The numpy dtype that holds one element of an aclDataType (None for sub-byte / exotic types)."""
    return numpy_dtype(to_op_dtype(int(dtype)))


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for dim in reversed(shape):
        strides.append(step)
        step *= max(int(dim), 1)
    return tuple(reversed(strides))


# -- the objects a session owns --------------------------------------------------------------------
class Owned:
    """Something the session created and must destroy: a handle, a device buffer, or both."""

    alive: bool = True

    def _destroy(self) -> None:
        raise NotImplementedError


class Tensor(Owned):
    """A device tensor: an aclTensor over a device buffer, and how its view sits in the storage.

    ``handle`` is the face's aclTensor (pass it to any aclnn function); ``addr`` the device address
    of the storage. A view made with :meth:`view` shares the buffer of the tensor it came from.
    """

    def __init__(
        self,
        session: Session,
        handle: Any,
        addr: int,
        *,
        acl_dtype: int,
        shape: tuple[int, ...],
        strides: tuple[int, ...],
        offset: int,
        storage_shape: tuple[int, ...],
        fmt: int,
        owns_memory: bool,
    ) -> None:
        self.session = session
        self.handle = handle
        self.addr = addr
        self.acl_dtype = acl_dtype
        self.shape = shape
        self.strides = strides
        self.offset = offset
        self.storage_shape = storage_shape
        self.format = fmt
        self.owns_memory = owns_memory

    @property
    def dtype(self) -> np.dtype[Any]:
        """The numpy dtype of one element (TypeError for types numpy cannot hold)."""
        dt = host_dtype(self.acl_dtype)
        if dt is None:
            raise TypeError(f"aclDataType {self.acl_dtype} has no numpy dtype")
        return dt

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def storage_nbytes(self) -> int:
        return int(np.prod(self.storage_shape, dtype=np.int64)) * self.dtype.itemsize

    def storage(self) -> np.ndarray:
        """The whole storage copied back (after synchronising the session's stream)."""
        self.session.synchronize()
        out = np.empty(self.storage_shape, dtype=self.dtype)
        if out.nbytes:
            check(acl.rt.memcpy(out.ctypes.data, out.nbytes, self.addr, out.nbytes, D2H), "aclrtMemcpy")
        return out

    def numpy(self) -> np.ndarray:
        """The view's values (shape, strides and offset applied) as a new host array."""
        flat = self.storage().reshape(-1)
        if 0 in self.shape:
            return np.empty(self.shape, flat.dtype)
        strides = tuple(s * flat.itemsize for s in self.strides)
        return np.lib.stride_tricks.as_strided(flat[self.offset :], self.shape, strides).copy()

    def write(self, host: np.ndarray | Any) -> None:
        """Copy ``host`` (the whole storage, any shape with as many elements) into the device buffer."""
        data = np.require(np.asarray(host).astype(self.dtype, copy=False), requirements="C")
        if data.size != int(np.prod(self.storage_shape, dtype=np.int64)):
            raise ValueError(f"{data.size} elements for a storage of shape {self.storage_shape}")
        if data.nbytes:
            check(acl.rt.memcpy(self.addr, data.nbytes, data.ctypes.data, data.nbytes, H2D), "aclrtMemcpy")

    def view(self, shape: Sequence[int], strides: Sequence[int] | None = None, offset: int = 0) -> Tensor:
        """Another aclTensor over the same storage (the session destroys it before the buffer)."""
        return self.session._create_tensor(
            self.addr, self.acl_dtype, shape, strides, offset, self.storage_shape, self.format, owns_memory=False
        )

    def _destroy(self) -> None:
        check(aclnn.aclDestroyTensor(self.handle), "aclDestroyTensor")
        if self.owns_memory:
            check(acl.rt.free(self.addr), "aclrtFree")

    def __repr__(self) -> str:
        state = "" if self.alive else " destroyed"
        return f"<npu.Tensor {list(self.shape)} aclDataType={self.acl_dtype} addr={self.addr:#x}{state}>"


@dataclass(eq=False)
class Handle(Owned):
    """An aclScalar, aclIntArray, aclFloatArray, aclBoolArray, aclTensorList or aclScalarList."""

    handle: Any
    destroy_api: str
    after: list[Owned] = field(default_factory=list)  # what dies with it (a list's device copies)

    def _destroy(self) -> None:
        check(getattr(aclnn, self.destroy_api)(self.handle), self.destroy_api)
        for obj in self.after:
            obj._destroy()


@dataclass(eq=False)
class Buffer(Owned):
    """A raw device allocation (workspaces, user buffers)."""

    addr: int
    size: int

    def _destroy(self) -> None:
        check(acl.rt.free(self.addr), "aclrtFree")


@dataclass(frozen=True)
class Out:
    """An output the call allocates: ``Out((2, 3), np.float32)`` at an ``aclTensor *`` parameter."""

    shape: tuple[int, ...]
    dtype: DTypeLike

    def __init__(self, shape: Sequence[int], dtype: DTypeLike) -> None:
        object.__setattr__(self, "shape", tuple(int(d) for d in shape))
        object.__setattr__(self, "dtype", dtype)
