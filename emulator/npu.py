"""The Pythonic layer: numpy in, numpy out, a with-block per device session.

Built ONLY on the two faces (``emulator.acl`` and ``emulator.aclnn``) and on the op registry's
prototype table, so every line it runs is a call a user's script could have written by hand, and
every test written with it also exercises the C contract (STYLE.md 3.5). Nothing here reaches into
the engine or the device: a status that comes back non-zero is turned into :class:`NpuError`, which
carries the status and the ``aclGetRecentErrMsg`` text the face recorded.

::

    with npu.Session() as s:
        x = s.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        out = s.call("aclnnAdd", x, x, 2.0)          # out allocated like the inputs
        out.numpy()                                  # x + 2 * x
        s.ops.reduce_sum(x, [1], False, np.float32, npu.Out((2,), np.float32)).numpy()

``Session.call`` covers every op of the registry generically: each C parameter of the op's
``aclnnXxxGetWorkspaceSize`` (a :class:`emulator.capi.proto.Param`) says which conversion its Python
argument gets — numpy arrays become device tensors, numbers become ``aclScalar``\\s, sequences become
``aclIntArray`` / ``aclFloatArray`` / ``aclBoolArray`` / ``aclTensorList`` / ``aclScalarList``, numpy
dtypes become ``aclDataType`` values, ``None`` is nullptr. Temporaries made for one call are
destroyed after it; what the caller asked the session to create lives until the session closes
(or until ``Session.release``), and the session tears everything down in reverse order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np

from emulator import acl, aclnn
from emulator.errors import EmulatorError
from emulator.kernels import REGISTRY  # metadata only: the prototype table of every op's phase 1
from emulator.meta.dtypes import NUMPY_DTYPES, numpy_dtype, to_acl_dtype, to_op_dtype
from emulator.status import AclError, AclnnStatus

if TYPE_CHECKING:
    from emulator.capi.proto import Param, Proto

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


def _contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for dim in reversed(shape):
        strides.append(step)
        step *= max(int(dim), 1)
    return tuple(reversed(strides))


# -- the objects a session owns --------------------------------------------------------------------
class _Owned:
    """Something the session created and must destroy: a handle, a device buffer, or both."""

    alive: bool = True

    def _destroy(self) -> None:
        raise NotImplementedError


class Tensor(_Owned):
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
class Handle(_Owned):
    """An aclScalar, aclIntArray, aclFloatArray, aclBoolArray, aclTensorList or aclScalarList."""

    handle: Any
    destroy_api: str
    after: list[_Owned] = field(default_factory=list)  # what dies with it (a list's device copies)

    def _destroy(self) -> None:
        check(getattr(aclnn, self.destroy_api)(self.handle), self.destroy_api)
        for obj in self.after:
            obj._destroy()


@dataclass(eq=False)
class Buffer(_Owned):
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


# -- what a Param asks for -------------------------------------------------------------------------
_OUT_NAME = re.compile(r"(^out|Out)")
# The handle types (C spelling without const) Session.call builds; converts() refuses any other.
HANDLE_KINDS = frozenset(
    {
        "aclTensor *",
        "aclScalar *",
        "aclIntArray *",
        "aclFloatArray *",
        "aclBoolArray *",
        "aclTensorList *",
        "aclScalarList *",
    }
)
PASS_THROUGH_KINDS = frozenset({"int", "float", "bool", "str", "address", "value"})


def _base(param: Param) -> str:
    return param.ctype.spelling.removeprefix("const ").strip()


def is_tensor(param: Param) -> bool:
    return param.ctype.kind == "handle" and _base(param) == "aclTensor *"


def is_output(param: Param) -> bool:
    """An output tensor the call may allocate: named ``out…`` / ``…Out…`` (const or not — aclnnRelu
    and aclnnRmsNorm declare theirs ``const aclTensor *``)."""
    return is_tensor(param) and bool(_OUT_NAME.search(param.name))


def is_written(param: Param) -> bool:
    """A tensor the op writes: an output, or an in-place one (given by the caller) — a non-const
    ``aclTensor *``, or one named ``…Ref`` (aclnnInplaceAdd declares ``const aclTensor *selfRef``)."""
    if not is_tensor(param):
        return False
    return is_output(param) or param.name.endswith("Ref") or not param.ctype.spelling.startswith("const")


def is_optional(param: Param) -> bool:
    """``…Optional`` parameters default to nullptr when the caller leaves them out."""
    return "Optional" in param.name


def converts(param: Param) -> bool:
    """Whether Session.call knows how to turn a Python argument into this parameter."""
    if param.ctype.kind == "handle":
        return _base(param) in HANDLE_KINDS
    return param.ctype.kind in PASS_THROUGH_KINDS


def snake(name: str) -> str:
    """``ReduceSum`` -> ``reduce_sum``; ``keepDims`` -> ``keep_dims`` (the convenience spellings)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


@functools.cache
def _registry() -> dict[str, Proto]:
    """Each L2 API name -> the Proto of its aclnnXxxGetWorkspaceSize (read once, from the registry)."""
    return {name: entry.phase1 for name, entry in REGISTRY.entries.items()}


def apis() -> tuple[str, ...]:
    """Every L2 API name Session.call accepts."""
    return tuple(_registry())


def signature(api: str) -> Proto:
    try:
        return _registry()[api]
    except KeyError:
        raise ValueError(f"{api!r} is not an op of the registry") from None


# The canonical teardown order (examples/lifecycle_add.py): the stream, the device, aclnn, acl.
_TEARDOWN = ("aclrtDestroyStream", "aclrtResetDevice", "aclnnFinalize", "aclFinalize", "aclFinalizeReference")


# -- the session -----------------------------------------------------------------------------------
class Session:
    """acl.init, set_device, a stream and aclnnInit on entry; on exit everything it created is
    destroyed in reverse order, then the stream, reset_device, aclnnFinalize and acl.finalize —
    also when the block raised (teardown failures are then attached to that exception as notes).

    When the process was already initialised (acl.init answers ACL_ERROR_REPEAT_INITIALIZE) the
    session only borrows the runtime: it drops its reference with aclFinalizeReference and leaves
    aclnn initialised, so an enclosing owner's lifecycle is not cut short.
    """

    def __init__(self, device: int = 0, *, config: str | None = None, acl_config: str = "") -> None:
        self.device = device
        self.config = config
        self.acl_config = acl_config
        self.stream: int | None = None
        self._owned: list[_Owned] = []
        self._done: dict[str, Callable[[], int]] = {}  # start steps taken -> their undo
        self._allocated: list[Tensor] = []  # outputs the current call allocated
        self._open = False
        self._ops: Ops | None = None

    # lifecycle
    def open(self) -> Session:
        """Start the runtime as the canonical flow does: acl.init, set_device, a stream, aclnnInit."""
        if self._open:
            raise RuntimeError("session already open")
        try:
            ret = acl.init(self.acl_config)
            if ret == AclError.ACL_ERROR_REPEAT_INITIALIZE:
                self._done["aclFinalizeReference"] = lambda: acl.finalize_reference()[-1]
            else:
                check(ret, "aclInit")
                self._done["aclFinalize"] = acl.finalize
            check(acl.rt.set_device(self.device), "aclrtSetDevice")
            self._done["aclrtResetDevice"] = lambda: acl.rt.reset_device(self.device)
            stream, ret = acl.rt.create_stream()
            check(ret, "aclrtCreateStream")
            self.stream = stream
            self._done["aclrtDestroyStream"] = lambda: acl.rt.destroy_stream(stream)
            if "aclFinalize" in self._done:
                check(aclnn.aclnnInit(self.config), "aclnnInit")
                self._done["aclnnFinalize"] = aclnn.aclnnFinalize
        except BaseException:
            self.close()
            raise
        self._open = True
        return self

    def close(self) -> None:
        """Destroy what the session created (newest first), then undo the start in reverse.

        Every step runs even when an earlier one fails; the first failure is raised at the end.
        """
        errors: list[Exception] = []
        if self.stream is not None:
            try:
                self.synchronize()
            except Exception as exc:  # teardown goes on; reported below
                errors.append(exc)
        while self._owned:
            obj = self._owned.pop()
            if obj.alive:
                obj.alive = False
                try:
                    obj._destroy()
                except Exception as exc:
                    errors.append(exc)
        for api in _TEARDOWN:
            step = self._done.pop(api, None)
            if step is None:
                continue
            try:
                check(step(), api)
            except Exception as exc:
                errors.append(exc)
        self.stream = None
        self._open = False
        if errors:
            first = errors[0]
            for other in errors[1:]:
                first.add_note(f"also during teardown: {other}")
            raise first

    def __enter__(self) -> Session:
        return self.open()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is None:
            self.close()
            return
        try:
            self.close()
        except Exception as teardown:
            exc.add_note(f"npu.Session teardown also failed: {teardown}")

    def synchronize(self) -> None:
        """Run everything queued on the session's stream (reads of device memory need it)."""
        if self.stream is None:
            raise RuntimeError("the session is not open")
        check(acl.rt.synchronize_stream(self.stream), "aclrtSynchronizeStream")

    def release(self, *objs: _Owned) -> None:
        """Destroy objects before the session ends (a destroyed object is skipped)."""
        for obj in objs:
            if obj.alive:
                obj.alive = False
                self._disown(obj)
                obj._destroy()

    def _disown(self, obj: _Owned) -> None:
        """Take ``obj`` off the teardown list (searched from the newest end: temporaries are there)."""
        for i in range(len(self._owned) - 1, -1, -1):
            if self._owned[i] is obj:
                del self._owned[i]
                return

    def _own(self, obj: _Owned) -> Any:
        self._owned.append(obj)
        return obj

    # memory and tensors
    def read(self, addr: int, shape: Sequence[int] | int, dtype: DTypeLike) -> np.ndarray:
        """``prod(shape)`` elements of ``dtype`` copied back from device address ``addr`` (after a sync)."""
        self.synchronize()
        np_type = host_dtype(acl_dtype(dtype)) if isinstance(dtype, int) else np.dtype(dtype)
        out = np.empty(shape, dtype=np_type)
        if out.nbytes:
            check(acl.rt.memcpy(out.ctypes.data, out.nbytes, addr, out.nbytes, D2H), "aclrtMemcpy")
        return out

    def write(self, addr: int, host: Any) -> None:
        """Copy a host array's bytes to device address ``addr``."""
        data = np.require(host, requirements="C")
        if data.nbytes:
            check(acl.rt.memcpy(addr, data.nbytes, data.ctypes.data, data.nbytes, H2D), "aclrtMemcpy")

    def malloc(self, size: int) -> Buffer:
        """A device buffer of ``size`` bytes (at least 1: aclrtMalloc refuses 0)."""
        addr, ret = acl.rt.malloc(max(int(size), 1), HUGE_FIRST)
        check(ret, "aclrtMalloc")
        return self._own(Buffer(addr, int(size)))

    def _create_tensor(
        self,
        addr: int,
        dtype: int,
        shape: Sequence[int],
        strides: Sequence[int] | None,
        offset: int,
        storage_shape: Sequence[int],
        fmt: int,
        *,
        owns_memory: bool,
    ) -> Tensor:
        view = [int(d) for d in shape]
        strides_ = list(_contiguous_strides(view) if strides is None else (int(s) for s in strides))
        dims = [int(d) for d in storage_shape]
        handle = aclnn.aclCreateTensor(view, len(view), dtype, strides_, offset, fmt, dims, len(dims), addr)
        if handle is None:
            if owns_memory:
                acl.rt.free(addr)
            raise NpuError("aclCreateTensor", None, acl.get_recent_err_msg())
        tensor = Tensor(
            self,
            handle,
            addr,
            acl_dtype=dtype,
            shape=tuple(view),
            strides=tuple(strides_),
            offset=int(offset),
            storage_shape=tuple(dims),
            fmt=fmt,
            owns_memory=owns_memory,
        )
        return self._own(tensor)

    def tensor(
        self,
        host: Any,
        dtype: DTypeLike | None = None,
        *,
        shape: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        offset: int = 0,
        format: int = ND,
    ) -> Tensor:
        """A device copy of ``host`` and an aclTensor over it.

        ``host`` is the whole storage; the view defaults to all of it, contiguous. ``shape`` /
        ``strides`` / ``offset`` (in elements) describe a view into it instead, as aclCreateTensor
        does. ``dtype`` (numpy or aclDataType) defaults to the array's; values are converted to it.
        """
        array = np.asarray(host)
        acl_type = acl_dtype(array.dtype if dtype is None else dtype)
        np_type = host_dtype(acl_type)
        if np_type is not None and array.dtype != np_type:
            array = array.astype(np_type)
        array = np.require(array, requirements="C")  # ascontiguousarray would make a 0-d array 1-d
        buf = self.malloc(array.nbytes)
        if array.nbytes:
            check(acl.rt.memcpy(buf.addr, array.nbytes, array.ctypes.data, array.nbytes, H2D), "aclrtMemcpy")
        return self._adopt(buf, acl_type, array.shape if shape is None else shape, strides, offset, array.shape, format)

    def _adopt(
        self,
        buf: Buffer,
        dtype: int,
        shape: Sequence[int],
        strides: Sequence[int] | None,
        offset: int,
        storage_shape: Sequence[int],
        fmt: int,
    ) -> Tensor:
        """Hand a fresh buffer to a new tensor (the tensor frees it after destroying its handle)."""
        self._disown(buf)
        buf.alive = False
        return self._create_tensor(buf.addr, dtype, shape, strides, offset, storage_shape, fmt, owns_memory=True)

    def empty(
        self,
        shape: Sequence[int],
        dtype: DTypeLike,
        *,
        fill: Any = None,
        strides: Sequence[int] | None = None,
        offset: int = 0,
        storage_shape: Sequence[int] | None = None,
        format: int = ND,
    ) -> Tensor:
        """A tensor over new device memory: poisoned (as aclrtMalloc leaves it) unless ``fill`` is given."""
        acl_type = acl_dtype(dtype)
        storage = tuple(shape if storage_shape is None else storage_shape)
        if fill is not None:
            np_type = host_dtype(acl_type)
            return self.tensor(np.full(storage, fill, dtype=np_type), acl_type, shape=shape, strides=strides,
                               offset=offset, format=format)  # fmt: skip
        np_type = host_dtype(acl_type)
        itemsize = np_type.itemsize if np_type is not None else 1
        buf = self.malloc(int(np.prod(storage, dtype=np.int64)) * itemsize)
        return self._adopt(buf, acl_type, shape, strides, offset, storage, format)

    # scalars and arrays
    def scalar(self, value: Any, dtype: DTypeLike | None = None) -> Handle:
        """An aclScalar; the dtype defaults by value: bool -> BOOL, int -> INT64, float -> FLOAT,
        complex -> COMPLEX64, a numpy scalar -> its own."""
        if dtype is None:
            dtype = _scalar_dtype(value)
        acl_type = acl_dtype(dtype)
        np_type = host_dtype(acl_type)
        host = np_type.type(value) if np_type is not None and not isinstance(value, bytes) else value
        handle = aclnn.aclCreateScalar(host, acl_type)
        if handle is None:
            raise NpuError("aclCreateScalar", None, acl.get_recent_err_msg())
        return self._own(Handle(handle, "aclDestroyScalar"))

    def _array(self, create: str, destroy: str, values: Sequence[Any]) -> Handle:
        handle = getattr(aclnn, create)(list(values), len(values))
        if handle is None:
            raise NpuError(create, None, acl.get_recent_err_msg())
        return self._own(Handle(handle, destroy))

    def int_array(self, values: Iterable[int]) -> Handle:
        return self._array("aclCreateIntArray", "aclDestroyIntArray", [int(v) for v in values])

    def float_array(self, values: Iterable[float]) -> Handle:
        return self._array("aclCreateFloatArray", "aclDestroyFloatArray", [float(v) for v in values])

    def bool_array(self, values: Iterable[bool]) -> Handle:
        return self._array("aclCreateBoolArray", "aclDestroyBoolArray", [bool(v) for v in values])

    def tensor_list(self, tensors: Iterable[Tensor | np.ndarray | None]) -> Handle:
        """An aclTensorList. The list owns (and destroys) its members, so each member is a fresh
        aclTensor over the given tensor's memory — the caller's tensors stay usable. Host arrays
        get device copies that are freed with the list."""
        members: list[Any] = []
        copies: list[_Owned] = []
        try:
            for t in tensors:
                if t is None:
                    members.append(None)
                    continue
                src = t if isinstance(t, Tensor) else self.tensor(t)
                if src is not t:
                    self._disown(src)
                    copies.append(src)
                handle = aclnn.aclCreateTensor(
                    list(src.shape), src.ndim, src.acl_dtype, list(src.strides), src.offset, src.format,
                    list(src.storage_shape), len(src.storage_shape), src.addr,
                )  # fmt: skip
                if handle is None:
                    raise NpuError("aclCreateTensor", None, acl.get_recent_err_msg())
                members.append(handle)
            lst = self._array("aclCreateTensorList", "aclDestroyTensorList", members)
        except BaseException:
            for m in members:
                if m is not None:
                    aclnn.aclDestroyTensor(m)
            for c in copies:
                c._destroy()
            raise
        lst.after = copies
        return lst

    def scalar_list(self, values: Iterable[Any], dtype: DTypeLike | None = None) -> Handle:
        """An aclScalarList of fresh scalars (the list owns and destroys them)."""
        members: list[Handle] = []
        try:
            for v in values:
                member = self.scalar(v, dtype)
                self._disown(member)  # the list destroys it
                members.append(member)
            return self._array("aclCreateScalarList", "aclDestroyScalarList", [m.handle for m in members])
        except BaseException:
            for member in members:
                member._destroy()
            raise

    # the two-phase call
    def call(self, api: str, *args: Any, **kwargs: Any) -> Any:
        """Run the L2 op ``api`` (``"aclnnAdd"``): phase 1, a workspace, phase 2, synchronize.

        Arguments follow the C parameters of ``<api>GetWorkspaceSize`` in order (out-parameters
        dropped), or by name (the C name or its snake_case). Conversions by parameter: see the module
        docstring. An output tensor left out is allocated like the broadcast of the tensor inputs
        (right for elementwise ops; pass ``Out(shape, dtype)`` otherwise); an ``…Optional`` one left
        out is nullptr. Returns the tensors the op wrote (outputs and in-place ``selfRef``): one
        Tensor, or a tuple when there are several. Raises NpuError with the failing status; the
        temporaries and the outputs the call allocated are destroyed then too.
        """
        proto = signature(api)
        params = proto.inputs
        bound = _bind(api, params, args, kwargs)
        temps: list[_Owned] = []  # destroyed after the call
        allocated: list[_Owned] = []  # outputs made here: destroyed only if the call fails
        written: list[Any] = []
        executor: Any = None  # phase 1's, until phase 2 takes it over
        try:
            c_args = [self._convert(p, bound, params, temps, allocated, written) for p in params]
            ws, executor, ret = getattr(aclnn, proto.c_name)(*c_args)
            check(ret, proto.c_name)
            workspace = 0
            if ws:
                buf = self.malloc(ws)
                temps.append(buf)
                workspace = buf.addr
            ready, executor = executor, None  # phase 2 releases a one-shot executor whatever its status
            check(getattr(aclnn, api)(workspace, ws, ready, self.stream), api)
            self.synchronize()
        except BaseException:
            if executor is not None:  # planned but never run (the workspace malloc failed)
                aclnn.aclDestroyAclOpExecutor(executor)
            self.release(*reversed(temps + allocated))
            raise
        self.release(*reversed(temps))
        if not written:
            return None
        return written[0] if len(written) == 1 else tuple(written)

    def _convert(
        self,
        param: Param,
        bound: dict[str, Any],
        params: Sequence[Param],
        temps: list[_Owned],
        allocated: list[_Owned],
        written: list[Any],
    ) -> Any:
        """One Python argument -> what the face takes for ``param``."""
        kind, base = param.ctype.kind, _base(param)
        missing = param.name not in bound
        value = bound.get(param.name)

        def temp(obj: Handle) -> Any:
            temps.append(obj)
            return obj.handle

        if kind != "handle":
            if missing:
                raise TypeError(f"missing argument {param.name!r} ({param.c_decl})")
            return _plain(param, value)
        if missing and not (is_output(param) or is_optional(param)):
            raise TypeError(f"missing argument {param.name!r} ({param.c_decl})")
        if value is None and (not missing or is_optional(param)):
            return None
        if base == "aclTensor *":
            if isinstance(value, aclnn.aclTensor):  # made by hand with aclCreateTensor: passed through
                if is_written(param):
                    written.append(value)
                return value
            tensor = self._tensor_arg(param, value, missing, bound, params)
            if is_written(param):
                written.append(tensor)
                if tensor is not value:
                    allocated.append(tensor)
            elif tensor is not value:
                temps.append(tensor)
            return tensor.handle
        if value is None:  # only a left-out output tensor gets here without a value
            return None
        if isinstance(value, Handle):
            return value.handle
        if isinstance(value, Tensor):
            raise TypeError(f"{param.name}: a Tensor where {param.c_decl} goes")
        if base == "aclScalar *":
            return value if isinstance(value, aclnn.aclScalar) else temp(self.scalar(value))
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if base == "aclIntArray *":
            return value if isinstance(value, aclnn.aclIntArray) else temp(self.int_array(value))
        if base == "aclFloatArray *":
            return value if isinstance(value, aclnn.aclFloatArray) else temp(self.float_array(value))
        if base == "aclBoolArray *":
            return value if isinstance(value, aclnn.aclBoolArray) else temp(self.bool_array(value))
        if base == "aclTensorList *":
            return value if isinstance(value, aclnn.aclTensorList) else temp(self.tensor_list(value))
        if base == "aclScalarList *":
            return value if isinstance(value, aclnn.aclScalarList) else temp(self.scalar_list(value))
        return value  # a handle type Session does not build: the face checks it

    def _tensor_arg(
        self, param: Param, value: Any, missing: bool, bound: dict[str, Any], params: Sequence[Param]
    ) -> Tensor:
        """A Tensor for an aclTensor parameter: the caller's, a requested output, or a host copy."""
        if isinstance(value, Tensor):
            return value
        if is_output(param) and (missing or isinstance(value, Out) or _is_request(value)):
            if missing:
                shape, dtype = _like(param, bound, params)
            elif isinstance(value, Out):
                shape, dtype = value.shape, value.dtype
            else:
                shape, dtype = value
            return self.empty(shape, dtype)
        return self.tensor(np.asarray(value))

    # convenience names
    @property
    def ops(self) -> Ops:
        """``s.ops.add(x, y, 1.0)``: every registry op as a method, snake_case without ``aclnn``."""
        if self._ops is None:
            self._ops = Ops(self)
        return self._ops


def _plain(param: Param, value: Any) -> Any:
    """A number / bool / address parameter: numpy scalars become Python ones, dtypes aclDataType."""
    if value is None:
        return None
    if param.ctype.spelling.endswith("aclDataType"):
        return acl_dtype(value)
    kind = param.ctype.kind
    if kind == "bool" and isinstance(value, np.bool_):
        return bool(value)
    if kind == "int" and isinstance(value, np.integer):
        return int(value)
    if kind == "float" and isinstance(value, np.floating | np.integer):
        return float(value)
    return value


def _is_request(value: Any) -> bool:
    """``((2, 3), np.float32)``: a shape and a dtype, at an output parameter."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], tuple | list)
        and not isinstance(value[1], tuple | list)
    )


def _scalar_dtype(value: Any) -> DTypeLike:
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, bool):
        return np.bool_
    if isinstance(value, int):
        return np.int64
    if isinstance(value, complex):
        return np.complex64
    return np.float32


def _bind(api: str, params: Sequence[Param], args: Sequence[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Positional and keyword arguments -> {C parameter name: value}."""
    if len(args) > len(params):
        raise TypeError(f"{api} takes {len(params)} arguments, {len(args)} given")
    bound = {p.name: a for p, a in zip(params, args, strict=False)}
    by_name = {p.name: p.name for p in params} | {snake(p.name): p.name for p in params}
    for key, value in kwargs.items():
        name = by_name.get(key)
        if name is None:
            raise TypeError(f"{api} has no parameter {key!r}")
        if name in bound:
            raise TypeError(f"{api}: {name!r} given twice")
        bound[name] = value
    return bound


def _like(param: Param, bound: dict[str, Any], params: Sequence[Param]) -> tuple[tuple[int, ...], DTypeLike]:
    """The shape and dtype of an omitted output: the broadcast of the call's tensor inputs."""
    shapes, dtypes = [], []
    for p in params:
        if is_tensor(p) and not is_output(p) and bound.get(p.name) is not None:
            v = bound[p.name]
            if isinstance(v, Tensor):
                shapes.append(v.shape)
                dtypes.append(v.dtype)
            elif not isinstance(v, aclnn.aclTensor):
                arr = np.asarray(v)
                shapes.append(arr.shape)
                dtypes.append(arr.dtype)
    if not shapes:
        raise TypeError(f"cannot infer {param.name!r}: pass npu.Out(shape, dtype)")
    try:
        dtype = np.result_type(*dtypes)
    except TypeError:
        dtype = dtypes[0]
    try:
        shape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:  # the op itself reports the mismatch with its real status
        shape = tuple(shapes[0])
    return shape, dtype


class Ops:
    """Every op of the registry under a Python name: ``aclnnReduceSum`` -> ``reduce_sum``.

    Generated from the registry, not written per op: each method is ``Session.call`` bound to the
    op's API name, with the C declaration as its docstring.
    """

    def __init__(self, session: Session) -> None:
        self._session = session
        self._names = {snake(api.removeprefix("aclnn")): api for api in apis()}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        api = self.__dict__.get("_names", {}).get(name)
        if api is None:
            raise AttributeError(f"no op {name!r} in the registry")
        fn = functools.partial(self._session.call, api)
        fn.__doc__ = signature(api).c_signature()
        return fn

    def __dir__(self) -> list[str]:
        return sorted(self._names)


__all__ = [
    "Buffer",
    "Handle",
    "NpuError",
    "Ops",
    "Out",
    "Session",
    "Tensor",
    "acl_dtype",
    "apis",
    "check",
    "converts",
    "host_dtype",
    "is_optional",
    "is_output",
    "is_tensor",
    "is_written",
    "signature",
    "snake",
]
