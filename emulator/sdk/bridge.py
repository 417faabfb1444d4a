"""The Python side of the C layer: C arguments in, the face called, out-values and a status out.

Each generated forwarder passes every argument as a number — pointers as addresses — in one
vectorcall to the entry this module built for its function from the prototype table. The entry
reads the C arrays (dims, strides, tensor lists) at their addresses the way C reads them (a wild
pointer to an array crashes, as it would with the real library), maps handle addresses to the
face's objects (``emulator.capi.handles``), calls the same face a Python program calls, and hands
back the out-values, which the forwarder writes in C. Nothing raises across the boundary: any
error becomes the function's failure status with an ``aclGetRecentErrMsg`` text. In strict mode an
undefined use aborts the program with its report, as a sanitizer with halt-on-error.

The work per call is kept to what the call needs — a function without handles or arrays goes
straight to its face — because a forwarded trivial call is held to twice the cost of the same call
from Python (benchmarks/test_bench_sdk.py).
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

from emulator import acl, aclnn, kernels, process, tracking
from emulator.capi import META, RUNTIME, Param, Proto
from emulator.capi.ctypes_types import array_count_in, base_type, element_ctype, read_c_array, read_struct
from emulator.capi.handles import HandleTable, UnknownHandle
from emulator.capi.types import OUT_STRUCTS, snake
from emulator.config import Settings
from emulator.diagnostics import ReportKind, UndefinedBehaviour
from emulator.faults import FaultPlan
from emulator.kernels import MODULES
from emulator.meta.dtypes import type_size
from emulator.sdk.forwarders import written_in_c
from emulator.sdk.sites import NativeSite

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]

Convert = Callable[[Any, tuple[Any, ...], HandleTable], Any]
_C_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)  # aclrtCallback; ctypes releases the GIL around the call


def _HANDLE(value: Any, args: tuple[Any, ...], handles: HandleTable) -> Any:  # noqa: N802 (a marker)
    """A handle argument: the object at its address (the entry inlines this lookup)."""
    return handles.get(value)


class Forward:
    """How one C function's arguments become the face's, and its results the C out-values."""

    def __init__(self, proto: Proto, face: Callable[..., Any], *, pyacl: bool) -> None:
        self.proto = proto
        self.face = face
        self.pyacl = pyacl
        self.failure = 0 if proto.ret.kind in ("handle", "str") else int(proto.failure or 0)
        # Worked out once, not per call (Proto's inputs/outputs build new tuples on every read).
        self.names = tuple(p.name for p in proto.params)
        index = {name: i for i, name in enumerate(self.names)}
        # pyACL drops array counts and @caller fields; a face with a ``c_face`` takes every C input
        self.c_face = hasattr(face, "c_face")
        inputs = proto.py_inputs if pyacl and not self.c_face else proto.inputs
        self.face = getattr(face, "c_face", face)
        self.plan = tuple((index[p.name], self._converter(p)) for p in inputs)
        self.in_c = written_in_c(proto)
        self.outputs = tuple((index[p.name], p, element_ctype(p)) for p in proto.outputs)
        self.handle_outs = tuple(i for i, p in enumerate(proto.outputs) if p.ctype.kind == "handle")
        self.entry = self._entry()

    # -- arguments --------------------------------------------------------------------------
    def _converter(self, param: Param) -> Convert | None:
        """How a C argument becomes the face's; None where the number itself is the argument."""
        kind = param.ctype.kind
        if param.inout:  # the value the pointer holds goes in; the forwarder writes the new one back
            ctype = element_ctype(param)
            return lambda value, args, handles: ctype.from_address(value).value
        if kind == "handle":
            return _HANDLE
        if kind == "array":
            return functools.partial(self._array, param)
        if kind == "value":  # aclCreateScalar's value: the dtype's bytes at the address
            at = self.names.index("dataType")
            return lambda value, args, handles: ctypes.string_at(value, type_size(int(args[at]))) if value else None
        if kind == "struct":  # aclrtPhysicalMemProp *: pyACL's dict of the fields
            name = base_type(param)
            return lambda value, args, handles: read_struct(name, value) if value else None
        if kind == "str" and self.pyacl and not self.c_face:
            return lambda value, args, handles: "" if value is None else value  # aclInit(NULL): no file
        if kind == "callback":  # a C function pointer: void (*)(void *userData), called through ctypes
            return lambda value, args, handles: _C_CALLBACK(value) if value else None
        return None

    def _array(self, param: Param, address: int, args: tuple[Any, ...], handles: HandleTable) -> Any:
        if not address:
            return None
        count = array_count_in(param.count, self.names, args) if param.count else 0
        if count <= 0 or count > 1 << 24:
            return []
        if param.ctype.element in ("aclTensor", "aclScalar"):
            return [handles.get(key) for key in read_c_array("uint64_t", address, count)]
        return read_c_array(param.ctype.element or "int64_t", address, count)

    # -- the entry the forwarder calls ------------------------------------------------------
    def _entry(self) -> Callable[..., Any]:
        """The function one C call runs: ``entry(*c_args)``, never raising.

        A function whose face takes its leading C arguments as they are and whose result the
        forwarder reads as it is (aclrtGetDevice, aclrtSynchronizeStream …) goes straight to its
        face: this path is most of what a trivial call from C costs. One whose arguments are
        numbers and handles (every op's two phases) maps its handles in one pass over the table
        and gives back the new handles' addresses itself; the rest take ``run``.
        """
        face, plan, failure, c_name = self.face, self.plan, self.failure, self.proto.c_name
        direct = all(convert is None for _, convert in plan)
        picks = tuple(i for i, _ in plan)
        count = len(picks)
        shape = None if self._as_is() else self._result
        fast = direct and picks == tuple(range(count)) and shape is None
        whole = count == len(self.names)  # the face takes every C argument: no slice to make
        # numbers and handles only, and the result numbers or (out-values, status) with handles among them
        handles_only = all(convert is None or convert is _HANDLE for _, convert in plan)
        lookups = tuple((i, convert is _HANDLE) for i, convert in plan)
        outs_in_c = self.in_c and bool(self.outputs) and self.proto.ret.kind == "status"
        mapped = handles_only and (shape is None or outs_in_c)
        handle_outs = self.handle_outs
        acting_as = process.acting_as

        def run(args: tuple[Any, ...]) -> Any:
            if direct:
                value = face(*[args[i] for i in picks])
            else:
                handles = process.current().c_handles
                get = handles.get
                value = face(*[
                    args[i] if convert is None else get(args[i]) if convert is _HANDLE
                    else convert(args[i], args, handles)
                    for i, convert in plan
                ])  # fmt: skip
            return value if shape is None else shape(value, args)

        def mapped_call(args: tuple[Any, ...]) -> Any:
            handles = (process.fast or process.current()).c_handles
            value = face(*handles.objects(args, lookups))
            if shape is None or not handle_outs or value[-1] != 0:
                return value
            items = list(value)
            for i in handle_outs:
                items[i] = handles.address(items[i])
            return tuple(items)

        def entry(*args: Any) -> Any:
            try:
                served = process.serving
                if served is None:
                    if fast:
                        return face(*args) if whole else face(*args[:count])
                    return mapped_call(args) if mapped else run(args)
                with acting_as(served):  # the libraries stand in for a card's (emulator.testing.card)
                    return run(args)
            except UndefinedBehaviour as exc:  # strict mode: halt on error, with the report
                _halt(exc)
            except Exception as exc:
                try:
                    _report_foreign(self, args, exc)
                except UndefinedBehaviour as strict:
                    _halt(strict)
                process.current().errors.report("EZ9999", f"{c_name}: {type(exc).__name__}: {exc}")
                return failure

        entry.__qualname__ = entry.__name__ = c_name
        return entry

    # -- results ----------------------------------------------------------------------------
    def _as_is(self) -> bool:
        """Whether the forwarder reads the face's result unchanged (numbers only, written in C)."""
        kind = self.proto.ret.kind
        if kind in ("handle", "str", "void", "address"):
            return False
        return not self.outputs or (self.in_c and not self.handle_outs)

    def _result(self, value: Any, args: tuple[Any, ...]) -> Any:
        """The face's result as the forwarder reads it: a number, or (out-values..., status)."""
        kind = self.proto.ret.kind
        if kind == "handle":
            return process.current().c_handles.address(value)
        if kind == "str":
            return _c_string(process.current().c_handles, value)
        if kind == "void":
            return 0
        if kind == "address":
            return int(value or 0)
        if not self.outputs:
            return value
        if self.in_c:
            if not self.handle_outs or int(value[-1]) != 0:
                return value
            handles = process.current().c_handles
            items = list(value)
            for i in self.handle_outs:
                items[i] = handles.address(items[i])
            return tuple(items)
        status = int(value[-1])
        if status == 0:
            named = dict(zip(self.names, args, strict=True))
            for (at, param, ctype), item in zip(self.outputs, value[:-1], strict=True):
                self._write(param, ctype, args[at], item, named)
        return status

    @staticmethod
    def _write(param: Param, ctype: Any, address: int, value: Any, named: dict[str, Any]) -> None:
        if param.ctype.kind == "array":  # int64_t **dims + uint64_t *count: a new array the caller frees
            items = list(value or ())
            buffer = _libc.malloc(max(8 * len(items), 8))
            (ctypes.c_int64 * len(items)).from_address(buffer)[:] = items
            ctypes.c_void_p.from_address(address).value = buffer
            if param.count:
                ctypes.c_uint64.from_address(named[param.count]).value = len(items)
            return
        if param.ctype.kind == "struct":  # a dict of int32 fields, written in the struct's field order
            fields = OUT_STRUCTS[param.ctype.element or ""]
            (ctypes.c_int32 * len(fields)).from_address(address)[:] = [int(value[snake(f)]) for f in fields]
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
def _table_rows() -> dict[str, tuple[Proto, Callable[..., Any], bool]]:
    """The runtime and acl_meta rows: each C name -> (prototype, face, pyACL conventions)."""
    rows: dict[str, tuple[Proto, Callable[..., Any], bool]] = {}
    for proto in RUNTIME:  # a row without a pyACL name is a C-only call (acl.C_ONLY)
        face = _pyacl(proto.py_name) if proto.py_name is not None else acl.C_ONLY[proto.c_name]
        rows[proto.c_name] = (proto, face, True)
    for proto in META:
        rows[proto.c_name] = (proto, getattr(aclnn, proto.c_name), False)
    return rows


@functools.cache
def forward(c_name: str) -> Forward | None:
    """One C function's forward, built on its first call: an op's reads only that op's module."""
    row = _table_rows().get(c_name)
    if row is not None:
        proto, face, pyacl = row
        return Forward(proto, face, pyacl=pyacl)
    from emulator.opdev.registry import SUFFIX  # the op toolkit comes with the first op, not with aclInit

    api = c_name.removesuffix(SUFFIX)
    if api not in MODULES:
        return None
    op = kernels.entry(api)
    proto = op.phase1 if c_name.endswith(SUFFIX) else op.phase2
    return Forward(proto, getattr(aclnn, c_name), pyacl=False)


def forwards() -> dict[str, Forward]:
    """Every C function of the table, ready to forward (reads every op module: a listing's cost)."""
    names = [*_table_rows(), *(proto.c_name for proto in kernels.REGISTRY.prototypes())]
    return {name: found for name in names if (found := forward(name)) is not None}


def entry(c_name: str) -> Callable[..., Any]:
    """The function a forwarder calls for ``c_name`` (looked up once, on its first call)."""
    found = forward(c_name)
    if found is not None:
        return found.entry
    failure = 0

    def missing(*args: Any) -> int:
        print(f"opbase-emu: {c_name} has no forwarder in this emulator", file=sys.stderr)
        return failure

    return missing


def install(current_caller: int) -> None:
    """The C core is up: sites captured during a call from C are that call's C caller.

    ``current_caller`` is the address of the core's ``uintptr_t (void)`` that returns the running
    call's caller (0 outside a call). It is read only when a site is captured with no Python frame
    above the library's — a call that came from C; a call from Python through ctypes has Python
    frames above, and those stay the site.

    A fault rule that names no function (OPBASE_EMU_FAULTS) is refused here, once: the core then says
    the emulator cannot start and every call returns its failure, instead of one traceback per call.
    """
    FaultPlan.from_specs(Settings.from_env().faults)
    read = ctypes.CFUNCTYPE(ctypes.c_size_t)(current_caller)

    def native_site() -> tracking.Site | None:
        caller = read()
        return NativeSite(caller) if caller else None

    tracking.NATIVE_SITE = native_site


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


def at_exit(status: int = 0) -> None:
    """The C program is ending with ``status`` (what it passed to exit or returned from main).

    The status is noted first, so that the leak check keeps a program's own failure code (the one
    exit-code rule); then the emulator's exit work runs (leak check, trace flush).
    """
    import atexit

    process.current().exit_status = status
    atexit._run_exitfuncs()
