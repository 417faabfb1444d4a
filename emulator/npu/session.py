"""The session: a device, a stream and everything created through it, torn down in order."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

import numpy as np

from emulator import acl, aclnn
from emulator.npu.params import (
    apis,
    base_spelling,
    bind_arguments,
    infer_output,
    is_optional,
    is_output,
    is_request,
    plain_value,
    scalar_dtype,
    signature,
    snake,
    written_tensors,
)
from emulator.npu.values import (
    D2H,
    H2D,
    HUGE_FIRST,
    ND,
    Buffer,
    DTypeLike,
    Handle,
    NpuError,
    Out,
    Owned,
    Tensor,
    acl_dtype,
    check,
    contiguous_strides,
    host_dtype,
)
from emulator.status import AclError

if TYPE_CHECKING:
    from emulator.capi.proto import Param


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
        self._owned: list[Owned] = []
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

    def release(self, *objs: Owned) -> None:
        """Destroy objects before the session ends (a destroyed object is skipped)."""
        for obj in objs:
            if obj.alive:
                obj.alive = False
                self._disown(obj)
                obj._destroy()

    def _disown(self, obj: Owned) -> None:
        """Take ``obj`` off the teardown list (searched from the newest end: temporaries are there)."""
        for i in range(len(self._owned) - 1, -1, -1):
            if self._owned[i] is obj:
                del self._owned[i]
                return

    def _own(self, obj: Owned) -> Any:
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
        strides_ = list(contiguous_strides(view) if strides is None else (int(s) for s in strides))
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
            dtype = scalar_dtype(value)
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
        copies: list[Owned] = []
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
        bound = bind_arguments(api, params, args, kwargs)
        temps: list[Owned] = []  # destroyed after the call
        allocated: list[Owned] = []  # outputs made here: destroyed only if the call fails
        written: list[Any] = []
        executor: Any = None  # phase 1's, until phase 2 takes it over
        writes = written_tensors(api, params)
        try:
            c_args = [self._convert(p, bound, params, temps, allocated, written, writes) for p in params]
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
        temps: list[Owned],
        allocated: list[Owned],
        written: list[Any],
        writes: frozenset[str],
    ) -> Any:
        """One Python argument -> what the face takes for ``param`` (``writes``: the tensors the op writes)."""
        kind, base = param.ctype.kind, base_spelling(param)
        missing = param.name not in bound
        value = bound.get(param.name)

        def temp(obj: Handle) -> Any:
            temps.append(obj)
            return obj.handle

        if kind != "handle":
            if missing:
                raise TypeError(f"missing argument {param.name!r} ({param.c_decl})")
            return plain_value(param, value)
        if missing and not (is_output(param) or is_optional(param)):
            raise TypeError(f"missing argument {param.name!r} ({param.c_decl})")
        if value is None and (not missing or is_optional(param)):
            return None
        if base == "aclTensor *":
            if isinstance(value, aclnn.aclTensor):  # made by hand with aclCreateTensor: passed through
                if param.name in writes:
                    written.append(value)
                return value
            tensor = self._tensor_arg(param, value, missing, bound, params)
            if param.name in writes:
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
        if is_output(param) and (missing or isinstance(value, Out) or is_request(value)):
            if missing:
                shape, dtype = infer_output(param, bound, params)
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
