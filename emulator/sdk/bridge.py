"""The Python side of the C layer: C arguments in, the face called, out-values written, a status out.

The generated forwarders pass every argument as a number — pointers as addresses. Driven by the
prototype table, this module reads the C arrays (dims, strides, tensor lists) at their addresses
the way C reads them (a wild pointer to an array crashes, as it would with the real library),
maps handle addresses to the face's objects (``emulator.capi.handles``), calls the same face a
Python program calls, and writes each out-value through its pointer. Nothing raises across the
boundary: any error becomes the function's failure status with an ``aclGetRecentErrMsg`` text. In
strict mode an undefined use aborts the program with its report, as a sanitizer with halt-on-error.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from emulator import acl, aclnn, process
from emulator.capi import META, RUNTIME, Param, Proto
from emulator.capi.handles import HandleTable, UnknownHandle
from emulator.diagnostics import ReportKind, UndefinedBehaviour
from emulator.kernels import REGISTRY
from emulator.meta.dtypes import type_size
from emulator.sdk.sites import NativeSite
from emulator.tracking import NATIVE_CALLER

CTYPES: dict[str, Any] = {
    "int8_t": ctypes.c_int8,
    "uint8_t": ctypes.c_uint8,
    "int16_t": ctypes.c_int16,
    "uint16_t": ctypes.c_uint16,
    "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int": ctypes.c_int,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "bool": ctypes.c_bool,
}
_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]


def _base(param: Param) -> str:
    return param.c_decl.replace("const", " ").replace("*", " ").split()[0]


def _ctype(param: Param) -> Any:
    """The ctypes type one element of ``param`` points at (enums are ints, pointers void *)."""
    base = _base(param)
    if base in CTYPES:
        return CTYPES[base]
    if param.c_decl.count("*") >= 2 or base in ("void", "aclrtStream", "aclrtEvent", "aclrtContext"):
        return ctypes.c_void_p
    return ctypes.c_int  # an enum


def _count(expression: str, named: dict[str, Any]) -> int:
    """An array's length: a parameter name, or a sum of them (aclDumpOpTensors)."""
    return sum(int(named[name]) for name in re.findall(r"[A-Za-z_]\w*", expression))


class Forward:
    """How one C function's arguments become the face's, and its results the C out-values."""

    def __init__(self, proto: Proto, face: Callable[..., Any], *, pyacl: bool) -> None:
        self.proto = proto
        self.face = face
        self.pyacl = pyacl
        self.failure = 0 if proto.ret.kind in ("handle", "str") else int(proto.failure or 0)
        # Worked out once, not per call (Proto's inputs/outputs build new tuples on every read).
        self.names = tuple(p.name for p in proto.params)
        self.inputs = proto.inputs
        self.outputs = tuple((p, _ctype(p)) for p in proto.outputs)
        self.kind = proto.ret.kind

    def __call__(self, args: Sequence[Any]) -> int:
        handles = process.current().c_handles
        named = dict(zip(self.names, args, strict=True))
        inputs = [self._input(p, named, handles) for p in self.inputs]
        result = self.face(*inputs)
        return self._output(result, named, handles)

    # -- arguments --------------------------------------------------------------------------
    def _input(self, param: Param, named: dict[str, Any], handles: HandleTable) -> Any:
        value = named[param.name]
        kind = param.ctype.kind
        if kind == "handle":
            return handles.get(value)
        if kind == "array":
            return self._array(param, value, named, handles)
        if kind == "value":  # aclCreateScalar's value: the dtype's bytes at the address
            return None if not value else ctypes.string_at(value, type_size(int(named["dataType"])))
        if kind == "str" and self.pyacl and value is None:
            return ""  # aclInit(NULL): no configuration file
        if kind == "bool":
            return bool(value)
        return value

    def _array(self, param: Param, address: int, named: dict[str, Any], handles: HandleTable) -> Any:
        if not address:
            return None
        count = _count(param.count, named) if param.count else 0
        if count <= 0 or count > 1 << 24:
            return []
        if param.ctype.element in ("aclTensor", "aclScalar"):
            keys = (ctypes.c_uint64 * count).from_address(address)
            return [handles.get(int(key)) for key in keys]
        element = CTYPES[param.ctype.element or "int64_t"]
        values = (element * count).from_address(address)
        return list(values)

    # -- results ----------------------------------------------------------------------------
    def _output(self, result: Any, named: dict[str, Any], handles: HandleTable) -> int:
        kind = self.kind
        if kind == "handle":
            return handles.address(result)
        if kind == "str":
            return _c_string(handles, result)
        if not self.outputs:
            return int(result)
        *values, status = result
        if int(status) == 0:
            for (param, ctype), value in zip(self.outputs, values, strict=True):
                self._write(param, ctype, value, named, handles)
        return int(status)

    def _write(self, param: Param, ctype: Any, value: Any, named: dict[str, Any], handles: HandleTable) -> None:
        address = named[param.name]
        if param.ctype.kind == "handle":
            ctypes.c_void_p.from_address(address).value = handles.address(value) or None
            return
        if param.ctype.kind == "array":  # int64_t **dims + uint64_t *count: a new array the caller frees
            items = list(value or ())
            buffer = _libc.malloc(max(8 * len(items), 8))
            (ctypes.c_int64 * len(items)).from_address(buffer)[:] = items
            ctypes.c_void_p.from_address(address).value = buffer
            if param.count:
                ctypes.c_uint64.from_address(named[param.count]).value = len(items)
            return
        if ctype is ctypes.c_void_p:
            ctypes.c_void_p.from_address(address).value = int(value) or None
        else:
            ctype.from_address(address).value = value


def _c_string(handles: HandleTable, text: str | None) -> int:
    """A ``const char *`` the caller may read until the thread's next call returns one."""
    if text is None:
        return 0
    buffer = ctypes.create_string_buffer(text.encode())
    handles.strings[threading.get_ident()] = buffer  # kept alive until this thread's next string
    return ctypes.addressof(buffer)


def _pyacl(name: str) -> Callable[..., Any]:
    target: Any = acl
    for part in name.split(".")[1:]:
        target = getattr(target, part)
    return target


@functools.cache
def forwards() -> dict[str, Forward]:
    """Every C function of the table, ready to forward (built once; the table is fixed)."""
    table: dict[str, Forward] = {}
    for proto in RUNTIME:
        assert proto.py_name is not None
        table[proto.c_name] = Forward(proto, _pyacl(proto.py_name), pyacl=True)
    for proto in (*META, *REGISTRY.prototypes()):
        table[proto.c_name] = Forward(proto, getattr(aclnn, proto.c_name), pyacl=False)
    return table


def call(c_name: str, args: tuple[Any, ...], caller: int = 0) -> int:
    """One C call: the status (or address) to return. Never raises.

    ``caller`` is the C caller's return address: while the call runs it is the site of whatever
    the call creates, releases or misuses. A call from Python through ctypes has Python frames
    above this one, and those stay the site.
    """
    forward = forwards().get(c_name)
    if forward is None:
        print(f"opbase-emu: {c_name} has no forwarder in this emulator", file=sys.stderr)
        return 0
    served = process.c_layer()
    if served is not None:  # the libraries stand in for a card's: they act on a process of their own
        with process.acting_as(served):
            return _call(forward, c_name, args, caller)
    return _call(forward, c_name, args, caller)


def _call(forward: Forward, c_name: str, args: tuple[Any, ...], caller: int) -> int:
    native = NATIVE_CALLER
    outer = native.site
    if caller and sys._getframe(1).f_back is None:
        native.site = NativeSite(caller)
    try:
        return forward(args)
    except UndefinedBehaviour as exc:  # strict mode: halt on error, with the report
        _halt(exc)
    except Exception as exc:
        try:
            _report_foreign(forward, args, exc)
        except UndefinedBehaviour as strict:
            _halt(strict)
        process.current().errors.report("EZ9999", f"{c_name}: {type(exc).__name__}: {exc}")
        return forward.failure
    finally:
        native.site = outer


def _halt(exc: UndefinedBehaviour) -> NoReturn:
    """Strict mode from C: abort with the report's line on stderr (printed already unless reports are off)."""
    if not process.current().diagnostics.echo:
        print(exc.diagnostic.line(), file=sys.stderr)
    sys.stderr.flush()
    os.abort()


def _report_foreign(forward: Forward, args: tuple[Any, ...], exc: Exception) -> None:
    """A handle argument the call could not use is a FOREIGN_HANDLE report (only on the failure path).

    A C program can pass any pointer: an address this process never handed out (a wild pointer, or
    another process's object), or a handle of another kind cast to this one. The call still fails
    as it does (a card would crash or misread instead; no status is defined for it).
    """
    diagnostics = process.current().diagnostics
    if isinstance(exc, UnknownHandle):
        diagnostics.report(
            forward.proto.c_name, f"{exc} (a wild pointer, or another process's object)", kind=ReportKind.FOREIGN_HANDLE
        )
        return
    if not isinstance(exc, TypeError):
        return
    handles = process.current().c_handles
    for param, value in zip(forward.proto.params, args, strict=False):
        if param.out or param.ctype.kind != "handle" or not value:
            continue
        try:
            obj = handles.get(int(value))
        except UnknownHandle:
            continue
        if not param.ctype.accepts(obj):
            diagnostics.report(
                forward.proto.c_name,
                f"{param.name} ({param.ctype.spelling}) is {type(obj).__name__} {int(value):#x}, "
                "a handle of another kind",
                kind=ReportKind.FOREIGN_HANDLE,
            )


def at_exit() -> None:
    """The C program is ending: run the emulator's exit work (leak check, trace flush)."""
    import atexit

    atexit._run_exitfuncs()
