"""NativeOps: the aclnn face's calls made on a real libnnopbase / libopapi through ctypes.

With the ascend backend the memory, streams and events are a card's (``device/ascend.py``, through
pyACL), so the tensors and executors must be a card's library's too: every acl_meta.h, aclnn_base.h
and op entry point of the prototype table is called in the real library, with the arguments the
table describes converted the way a C compiler would pass them. What the emulator adds is what
it adds on the simulated backend, around the call:

- the live-resource registry: what a call creates (a creator's pointer, phase 1's executor) is
  registered with the Python caller's site, what it releases (a destroy, phase 2 of a
  non-repeatable executor, a list's members with their list) is removed, so leak reports and
  ``no_leaks`` tests work unchanged on a card;
- use-after-destroy: a handle the program destroyed is reported with the sites that created and
  destroyed it, and the call is **not** made — the real library would read freed memory. A second
  destroy returns 0, as on the simulated backend; any other call returns its failure (161001, or
  nullptr for a creator);
- the argument checks of the face (a wrong Python type raises TypeError before the call) and the
  lifecycle trace (the boundary wraps this provider as it wraps the engine).

The real library allocates the arrays aclGetViewShape and friends return with ``new[]``; an
``int64_t`` array's ``delete[]`` is libc's ``free`` with the GNU toolchain, which is what is
called here once the values are read.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from emulator.capi.ctypes_types import CTYPES, array_count, base_type, element_ctype
from emulator.capi.proto import Param, Proto
from emulator.capi.types import META_HANDLES
from emulator.diagnostics import ReportKind
from emulator.errors import AclnnError
from emulator.meta.dtypes import numpy_dtype, to_op_dtype, type_size
from emulator.status import AclnnStatus
from emulator.tracking import ResourceKind

if TYPE_CHECKING:
    from emulator.config import Settings
    from emulator.process import EmulatedProcess

OK = 0
KINDS: dict[str, ResourceKind] = {
    "aclTensor": ResourceKind.TENSOR,
    "aclScalar": ResourceKind.SCALAR,
    "aclIntArray": ResourceKind.INT_ARRAY,
    "aclFloatArray": ResourceKind.FLOAT_ARRAY,
    "aclBoolArray": ResourceKind.BOOL_ARRAY,
    "aclTensorList": ResourceKind.TENSOR_LIST,
    "aclScalarList": ResourceKind.SCALAR_LIST,
    "aclOpExecutor": ResourceKind.EXECUTOR,
}
assert set(KINDS) == set(META_HANDLES), "every handle type of the table has a resource kind"
# What a toolkit's lib64 holds, in the order symbols are looked up: the framework, then the op
# libraries (CANN 8 ships libopapi.so; later releases split it into one per op repository).
# libascendcl last: it is where a failed call's aclGetRecentErrMsg text is read.
LIBRARIES = ("libnnopbase.so", "libopapi.so", "libopapi_math.so", "libopapi_nn.so", "libopapi_cv.so",
             "libopapi_transformer.so", "libascendcl.so")  # fmt: skip
PHASE2 = ("workspace", "workspaceSize", "executor", "stream")

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


class ProviderUnavailable(AclnnError):
    """561000: the op libraries of the ascend backend cannot be loaded or lack a function."""


class NativeHandle:
    """A pointer a real library returned (an aclTensor *, an aclOpExecutor * …), as Python holds it."""

    __slots__ = ("address", "alive", "members", "owner", "repeatable", "type_name")

    def __init__(self, type_name: str, address: int, members: tuple[NativeHandle | None, ...] = ()) -> None:
        self.type_name = type_name
        self.address = address
        self.alive = True
        self.members = members  # a list's tensors or scalars: the list owns them
        self.owner: NativeHandle | None = None
        self.repeatable = False  # an executor after aclSetAclOpExecutorRepeatable

    @property
    def kind(self) -> ResourceKind:
        return KINDS[self.type_name]

    @property
    def key(self) -> int:
        return self.address

    def __repr__(self) -> str:
        state = "" if self.alive else ", destroyed"
        return f"<{self.type_name} {self.address:#x} (card){state}>"


def library_paths(settings: Settings) -> list[Path]:
    """The libraries to load: OPBASE_EMU_OPAPI_LIBS, else the toolkit's lib64; custom op packages last."""
    entries = list(settings.opapi_libs)
    if not entries and settings.home_path is not None:
        entries = [settings.home_path / "lib64"]
    found: list[Path] = []
    for entry in entries:
        if entry.is_dir():
            found += [entry / name for name in LIBRARIES if (entry / name).is_file()]
        else:
            found.append(entry)
    for package in settings.custom_opp_paths:
        lib = Path(package) / "op_api" / "lib" / "libcust_opapi.so"
        if lib.is_file():
            found.append(lib)
    return found


class NativeOps:
    """The op provider of the ascend backend: one ``NativeFunction`` per C name, made on first use."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._libraries: list[ctypes.CDLL] | None = None
        self._functions: dict[str, NativeFunction] = {}
        self._lock = threading.Lock()
        self._recent: Any = None  # the library's aclGetRecentErrMsg (False: it has none)

    def libraries(self) -> list[ctypes.CDLL]:
        with self._lock:
            if self._libraries is None:
                paths = library_paths(self._settings)
                if not paths:
                    raise ProviderUnavailable(
                        "the ascend backend calls a real libopapi: set ASCEND_HOME_PATH (source the toolkit's "
                        "set_env.sh) or OPBASE_EMU_OPAPI_LIBS to the libraries",
                        msg_id="EZ9999",
                    )
                loaded = []
                for path in paths:
                    try:
                        loaded.append(ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL))
                    except OSError as exc:
                        raise ProviderUnavailable(f"cannot load {path}: {exc}", msg_id="EZ9999") from None
                self._libraries = loaded
            return self._libraries

    def symbol(self, c_name: str) -> Any:
        for library in self.libraries():
            try:
                return getattr(library, c_name)
            except AttributeError:
                continue
        raise ProviderUnavailable(f"{c_name}: no loaded op library exports it", msg_id="EZ9999")

    def relay_error(self, proc: EmulatedProcess) -> None:
        """Move the real library's aclGetRecentErrMsg text of a failed call to this process's."""
        if self._recent is None:
            try:
                self._recent = self.symbol("aclGetRecentErrMsg")
            except ProviderUnavailable:
                self._recent = False
                return
            self._recent.restype = ctypes.c_char_p
            self._recent.argtypes = []
        if self._recent:
            text = self._recent()
            if text:
                proc.errors.relay(text.decode(errors="replace"))

    def bind(self, proto: Proto, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> NativeFunction:
        """The function for ``proto``, after the argument checks a C compiler would have made."""
        function = self._functions.get(proto.c_name)
        if function is None:
            function = self._functions.setdefault(proto.c_name, NativeFunction(proto, self))
        function.check(args, kwargs)
        return function


def _accepts(param: Param) -> Callable[[object], bool]:
    """The face's check for ``param``, with handles being this provider's (the card's) own."""
    kind = param.ctype.kind
    if kind == "handle":
        name = base_type(param)
        return lambda v: v is None or (isinstance(v, NativeHandle) and v.type_name == name)
    if kind == "array" and param.ctype.element in KINDS:
        name = param.ctype.element

        def accept(value: object) -> bool:
            if value is None:
                return True
            if not isinstance(value, list | tuple):
                return False
            return all(v is None or (isinstance(v, NativeHandle) and v.type_name == name) for v in value)

        return accept
    return param.ctype.accepts


def _host_value(value: object, data_type: int) -> bytes | None:
    """aclCreateScalar's value as the dtype's bytes (a number is converted; bytes pass as given)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, np.generic):
        return value.tobytes()
    if value is None:
        return None
    np_dtype = numpy_dtype(to_op_dtype(data_type))
    if np_dtype is None:
        return None
    with np.errstate(all="ignore"):
        return bytes(np.array(value).astype(np_dtype, casting="unsafe").tobytes())


class NativeFunction:
    """One C function of a real library, called with the table's conversions and tracked."""

    def __init__(self, proto: Proto, ops: NativeOps) -> None:
        self.proto = proto
        self.ops = ops
        self.c_name = proto.c_name
        self.inputs = proto.inputs
        self.checks = [(i, p, _accepts(p)) for i, p in enumerate(self.inputs)]
        self.outputs = proto.outputs
        names = tuple(p.name for p in proto.params)
        self.phase1 = bool(proto.params) and proto.params[-1].name == "executor" and proto.params[-1].out
        self.phase2 = names == PHASE2
        self.failure = int(proto.failure) if proto.failure is not None else int(AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
        self._symbol: Any = None

    # -- before the call --------------------------------------------------------------------
    def check(self, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
        if kwargs or len(args) != len(self.inputs):
            raise TypeError(f"{self.c_name} args parse failed: takes {len(self.inputs)} arguments, got {len(args)}")
        for i, param, accepts in self.checks:
            if not accepts(args[i]):
                raise TypeError(
                    f"{self.c_name} args parse failed: {param.name} ({param.ctype.spelling}) takes "
                    f"{param.ctype.python}, not {type(args[i]).__name__}"
                )

    def _bound_symbol(self) -> Any:
        if self._symbol is None:
            symbol = self.ops.symbol(self.c_name)
            symbol.restype = ctypes.c_void_p if self.proto.ret.kind == "handle" else ctypes.c_int
            symbol.argtypes = [_argtype(p) for p in self.proto.params]
            self._symbol = symbol
        return self._symbol

    # -- the call ---------------------------------------------------------------------------
    def __call__(self, *args: Any) -> Any:
        from emulator import process  # the provider is built by the process: imported when called

        proc = process.current()
        named = dict(zip((p.name for p in self.inputs), args, strict=True))
        dead = self._dead_handle(named)
        if dead is not None:
            return self._refuse(proc, dead)
        symbol = self._bound_symbol()
        keep: list[Any] = []  # the C buffers of this call, alive until it returns
        outs: dict[str, Any] = {}
        c_args = [self._c_arg(p, named, keep, outs) for p in self.proto.params]
        result = symbol(*c_args)
        if self.proto.ret.kind == "handle":
            if not result:
                self.ops.relay_error(proc)
            return self._created(proc, int(result or 0), named)
        status = int(result)
        if status != OK:
            self.ops.relay_error(proc)
        values = [self._value(p, outs) for p in self.outputs]
        self._track(proc, status, named, values)
        if not self.outputs:
            return status
        if status != OK:
            return (*(None if p.ctype.kind in ("array", "handle") else 0 for p in self.outputs), status)
        return (*values, status)

    def _dead_handle(self, named: dict[str, Any]) -> NativeHandle | None:
        for param in self.inputs:
            value = named[param.name]
            items = value if param.ctype.kind == "array" and param.ctype.element in KINDS else (value,)
            for item in items or ():
                if isinstance(item, NativeHandle) and not item.alive:
                    return item
        return None

    def _refuse(self, proc: EmulatedProcess, dead: NativeHandle) -> Any:
        """Report the use of a destroyed handle; the call is not made (see the module docstring)."""
        destroy = self.c_name.startswith("aclDestroy")
        if destroy:
            what, kind = f"double destroy of {dead.type_name} {dead.key:#x}", ReportKind.DOUBLE_DESTROY
        elif self.phase2:
            what = "phase 2 on an executor that was already freed (a non-repeatable executor runs once)"
            kind = ReportKind.EXECUTOR_REUSE
        else:
            what, kind = f"use of a destroyed {dead.type_name} ({dead.key:#x})", ReportKind.USE_AFTER_DESTROY
        proc.diagnostics.report_released(proc.registry, dead.kind, dead.key, self.c_name, what, report_kind=kind)
        if self.proto.ret.kind == "handle":
            return None
        if destroy:
            return OK
        if not self.outputs:
            return self.failure
        return (*(None if p.ctype.kind in ("array", "handle") else 0 for p in self.outputs), self.failure)

    def _c_arg(self, param: Param, named: dict[str, Any], keep: list[Any], outs: dict[str, Any]) -> Any:
        kind = param.ctype.kind
        if param.out:
            cell = ctypes.c_void_p() if kind in ("handle", "array") else element_ctype(param)()
            outs[param.name] = cell
            return ctypes.addressof(cell)
        value = named[param.name]
        if kind == "handle":
            return value.address if value is not None else None
        if kind == "address":
            return int(value or 0) or None
        if kind == "str":
            return None if value is None else value.encode()
        if kind == "value":
            raw = _host_value(value, int(named.get("dataType", 0)))
            if raw is None:
                return None
            buffer = ctypes.create_string_buffer(raw, max(len(raw), type_size(int(named.get("dataType", 0))), 8))
            keep.append(buffer)
            return ctypes.addressof(buffer)
        if kind == "array":
            return self._c_array(param, value, named, keep)
        return value

    def _c_array(self, param: Param, value: Any, named: dict[str, Any], keep: list[Any]) -> Any:
        if value is None:
            return None
        items = list(value)
        count = array_count(param.count, named) if param.count else len(items)
        if count > len(items):
            # the real library reads ``count`` elements: past the end of this sequence
            raise AclnnError(f"{self.c_name}: {param.name} has {len(items)} elements but the count says {count}",
                             msg_id="EZ1001")  # fmt: skip
        if param.ctype.element in KINDS:
            array: Any = (ctypes.c_void_p * max(len(items), 1))(*(h.address if h else None for h in items))
        else:
            array = (CTYPES[param.ctype.element or "int64_t"] * max(len(items), 1))(*items)
        keep.append(array)
        return ctypes.addressof(array)

    # -- after the call ---------------------------------------------------------------------
    def _value(self, param: Param, outs: dict[str, Any]) -> Any:
        cell = outs[param.name]
        kind = param.ctype.kind
        if kind == "handle":
            return NativeHandle(base_type(param), cell.value) if cell.value else None
        if kind == "array":
            if not cell.value:
                return None
            count = int(outs[param.count].value) if param.count else 0
            values = list((ctypes.c_int64 * count).from_address(cell.value)) if count else []
            _libc.free(cell.value)
            return values
        if isinstance(cell, ctypes.c_void_p):
            return int(cell.value or 0)
        return cell.value

    def _created(self, proc: EmulatedProcess, address: int, named: dict[str, Any]) -> NativeHandle | None:
        if not address:
            return None
        members: tuple[NativeHandle | None, ...] = ()
        if self.proto.c_name in ("aclCreateTensorList", "aclCreateScalarList"):
            members = tuple(named["value"] or ())[: int(named["size"])]
        handle = NativeHandle(self.proto.ret.spelling.removesuffix(" *").removeprefix("const "), address, members)
        proc.registry.add(handle.kind, handle.key, ref=handle)
        for member in members:
            if member is None:
                continue
            member.owner = handle
            res = proc.registry.get(member.kind, member.key)
            if res is not None:
                res.owner = (handle.kind, handle.key)
        return handle

    def _track(self, proc: EmulatedProcess, status: int, named: dict[str, Any], values: list[Any]) -> None:
        registry = proc.registry
        if self.phase1:
            executor = values[-1]
            if status == OK and executor is not None:
                registry.add(ResourceKind.EXECUTOR, executor.key, tag=self.c_name.removesuffix("GetWorkspaceSize"),
                             ref=executor)  # fmt: skip
            return
        if self.phase2:
            executor = named["executor"]
            if executor is not None and not executor.repeatable:  # phase 2 deletes it, whatever the status
                _release(proc, executor)
            return
        if status != OK:
            return
        if self.c_name == "aclSetAclOpExecutorRepeatable" and named["executor"] is not None:
            named["executor"].repeatable = True
        elif self.c_name.startswith("aclDestroy"):
            handle = next(iter(named.values()))
            if handle is not None:
                for member in handle.members:
                    if member is not None:
                        _release(proc, member)
                _release(proc, handle)


def _release(proc: EmulatedProcess, handle: NativeHandle) -> None:
    if handle.alive:
        handle.alive = False
        proc.registry.remove(handle.kind, handle.key)


def _argtype(param: Param) -> Any:
    """How ctypes passes ``param``: numbers as their C type, every pointer as ``void *``."""
    kind = param.ctype.kind
    if param.out or kind in ("handle", "address", "str", "value", "array"):
        return ctypes.c_char_p if kind == "str" and not param.out else ctypes.c_void_p
    if kind == "float":
        return CTYPES[base_type(param)]
    if kind == "bool":
        return ctypes.c_bool
    return element_ctype(param)


__all__ = ["NativeFunction", "NativeHandle", "NativeOps", "ProviderUnavailable", "library_paths"]
