"""The one place where emulator exceptions become statuses.

Every C-named function — the pyACL face, the aclnn face and the L2 ops in kernels/ — is wrapped
by a decorator from here. A ``StatusError`` (the one root of ``EmulatorError`` and the runtime's
``DeviceError``) becomes its status; its message goes to the error manager for aclGetRecentErrMsg, and a
runtime failure also sets the thread's last-error slot (aclrtPeekAtLastError / aclrtGetLastError).
Anything else is an emulator bug and propagates. Python type mistakes — what a C compiler
would have rejected — raise TypeError before the call, as pyACL's argument parser does.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from emulator import process
from emulator.capi import Param, Proto, lookup
from emulator.capi.types import is_integer
from emulator.device.errors import DeviceError, StatusError
from emulator.diagnostics import ReportKind
from emulator.lazylog import lazy_logger
from emulator.status import describe
from emulator.tracking import Site, capture_site

log = lazy_logger(__name__, logger_name="emulator.acl")

F = TypeVar("F", bound=Callable[..., Any])
Args = tuple[Any, ...]
Quick = tuple[set[type], Callable[[object], bool]]  # (types known to pass, the check otherwise)


def record_failure(c_name: str, exc: StatusError, *, aclnn: bool = False) -> int:
    """Record a StatusError the way the real call would (message, last error, log line)."""
    proc = process.current()
    status = exc.status
    msg_id = exc.msg_id
    text = exc.message.replace("{api}", c_name)
    if msg_id is not None:
        proc.errors.report(msg_id, text)
    if isinstance(exc, DeviceError):
        proc.runtime.thread.last_error = status
    level = log.error if msg_id is not None else log.debug
    level(
        "api.failed",
        api=c_name,
        status=describe(status, aclnn=aclnn),
        code=status,
        reason=text,
        context=exc.context,
    )
    return status


def failed_values(proto: Proto) -> Callable[[int], Any]:
    """What a failed call returns: zero / None for every out-value, then the status (nullptr for a creator)."""
    if proto.ret.kind in ("handle", "void"):
        return lambda status: None
    if proto.ret.kind in ("address", "int"):
        return lambda status: 0  # nullptr / a zero size: the C function has no status to return
    if proto.ret.kind != "status":
        return lambda status: status
    fail = tuple(_zero(param) for param in proto.outputs)
    if not fail:
        return lambda status: status
    return lambda status: (*fail, status)


def _zero(param: Param) -> object:
    if param.ctype.kind in ("array", "handle", "struct"):
        return None
    return 0.0 if param.ctype.kind == "float" else 0


def pyacl_accepts(param: Param) -> Callable[[object], bool]:
    """pyACL's argument parser: pointers and integers are Python ints of any size (it masks them to
    the C width, so the callee sees what C would and fails the way the real call does), strings
    are str (None is refused); everything else as the C type takes it.
    """
    if param.ctype.kind in ("int", "address"):
        return is_integer
    if param.ctype.kind == "str":
        return lambda value: isinstance(value, str)
    return param.ctype.accepts


def argument_checks(
    proto: Proto, fn: Callable[..., Any], *, names_match: bool
) -> list[tuple[int, Param, Callable[[object], bool]]]:
    """One check per input of the C function, in C order; the Python function must take exactly those.

    ``names_match``: the aclnn face keeps the C parameter names and C's types; the pyACL face has
    names of its own and pyACL's parser rules.
    """
    params = list(inspect.signature(fn).parameters.values())
    inputs = proto.inputs if names_match else proto.py_inputs
    if len(params) != len(inputs):
        raise TypeError(f"{proto.c_name}: the Python function takes {len(params)} arguments, the C one {len(inputs)}")
    if names_match and [p.name for p in params] != [p.name for p in inputs]:
        raise TypeError(f"{proto.c_name}: parameters {[p.name for p in params]} are not {[p.name for p in inputs]}")
    return [(i, p, p.ctype.accepts if names_match else pyacl_accepts(p)) for i, p in enumerate(inputs)]


def c_api(proto: Proto, *, parse_failed: str | None = None, names_match: bool = True) -> Callable[[F], F]:
    """Wrap a C-named function: every positional argument checked against its C type from the
    prototype table, a StatusError turned into the failed return of that prototype.

    Every small call passes here (three times per two-phase op call), so the wrapper has two
    paths. The fast one is taken when the call has exactly the C arguments and the current
    process needs nothing else of the boundary (``process.fast``: no op provider, no armed fault
    rule, no tracer, no thread acting for another process): it checks the arguments and calls the
    function. Anything else takes the full path, which does all of that (and is what the fast one
    was cut from), so both give the same results, errors and messages.
    """
    aclnn = proto.ret.spelling != "aclError"
    on_error = failed_values(proto)
    # pyACL's parameterless wrappers ignore extra positional arguments (real pyACL does the same).
    tolerant = proto.py_name is not None and not proto.py_inputs
    # acl_meta.h, aclnn_base.h and the ops are the op provider's; the runtime (pyACL-named or C-only) the Device's
    provided = not proto.runtime

    def decorate(fn: F) -> F:
        checks = argument_checks(proto, fn, names_match=names_match)
        required = sum(1 for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty)
        most = len(checks)
        message = parse_failed or f"{proto.c_name} args parse failed"
        c_name = proto.c_name
        accept_each = tuple(accepts for _, _, accepts in checks)  # in C order, zipped with the arguments

        def full(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            proc = process.current()
            target: Callable[..., Any] = fn
            if provided and proc.op_provider is not None:
                # the op-provider seam: a real library's function, with its own handles' checks
                target = proc.op_provider.bind(proto, args, kwargs)
            else:
                count = len(args)
                if tolerant:
                    args = ()
                elif kwargs or count < required or count > most:
                    raise TypeError(f"{message}: takes {most} arguments ({required} required), got {count}")
                for accepts, arg in zip(accept_each, args, strict=False):  # defaulted ones may be left out
                    if not accepts(arg):
                        raise _argument_error(message, checks, args)
            if proc.faults.armed:
                # an injected failure: the call does nothing and fails the way a real failure does
                fault = proc.faults.check(c_name)
                if fault is not None:
                    target = _failing(fault)
            tracer = proc.tracer
            if tracer is not None:
                return _traced(tracer, c_name, target, args, on_error, aclnn)
            try:
                return target(*args)
            except StatusError as exc:
                return on_error(record_failure(c_name, exc, aclnn=aclnn))

        def refuse(args: tuple[Any, ...]) -> NoReturn:
            raise _argument_error(message, checks, args)

        check = _fast_checks(tuple(_quick_check(param, accepts) for _, param, accepts in checks), refuse)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if kwargs or len(args) != most or process.fast is None:
                return full(args, kwargs)
            check(args)
            try:
                return fn(*args)
            except StatusError as exc:
                return on_error(record_failure(c_name, exc, aclnn=aclnn))

        wrapper.c_name = c_name  # type: ignore[attr-defined]
        wrapper.proto = proto  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def _quick_check(param: Param, accepts: Callable[[object], bool]) -> Quick:
    """(types known to pass, the check to make otherwise) for one parameter.

    Most C types accept a value by its type alone (a handle class, an integer for an address, a
    str): for those a type that passed once is remembered, and the next call's check is one set
    lookup. Integer types check the value's range, and arrays their items, so they are always
    asked (their set stays empty).
    """
    known: set[type] = set()
    if not _by_type(param, accepts):
        return known, accepts

    def learn(value: object) -> bool:
        if accepts(value):
            known.add(type(value))
            return True
        return False

    return known, learn


def _fast_checks(quick: tuple[Quick, ...], refuse: Callable[[Args], NoReturn]) -> Callable[[Args], None]:
    """The argument checks of the fast path, unrolled for up to four arguments.

    A loop over ``zip`` costs more than the checks themselves at this size (and ``zip(strict=True)``
    several times more): the fast path's arguments are exactly the C ones, so each is named.
    """
    if len(quick) == 0:
        return _no_check
    if len(quick) == 1:
        ((k0, c0),) = quick

        def check1(args: tuple[Any, ...]) -> None:
            (a0,) = args
            if type(a0) not in k0 and not c0(a0):
                refuse(args)

        return check1
    if len(quick) == 2:
        (k0, c0), (k1, c1) = quick

        def check2(args: tuple[Any, ...]) -> None:
            a0, a1 = args
            if (type(a0) not in k0 and not c0(a0)) or (type(a1) not in k1 and not c1(a1)):
                refuse(args)

        return check2
    if len(quick) == 3:
        (k0, c0), (k1, c1), (k2, c2) = quick

        def check3(args: tuple[Any, ...]) -> None:
            a0, a1, a2 = args
            if (
                (type(a0) not in k0 and not c0(a0))
                or (type(a1) not in k1 and not c1(a1))
                or (type(a2) not in k2 and not c2(a2))
            ):
                refuse(args)

        return check3
    if len(quick) == 4:
        (k0, c0), (k1, c1), (k2, c2), (k3, c3) = quick

        def check4(args: tuple[Any, ...]) -> None:
            a0, a1, a2, a3 = args
            if (
                (type(a0) not in k0 and not c0(a0))
                or (type(a1) not in k1 and not c1(a1))
                or (type(a2) not in k2 and not c2(a2))
                or (type(a3) not in k3 and not c3(a3))
            ):
                refuse(args)

        return check4

    def check(args: tuple[Any, ...]) -> None:
        for (known, accepts), arg in zip(quick, args):  # noqa: B905 (the same length: the fast path's condition)
            if type(arg) not in known and not accepts(arg):
                refuse(args)

    return check


def _no_check(args: tuple[Any, ...]) -> None:
    """A function without arguments has nothing to check."""


def _by_type(param: Param, accepts: Callable[[object], bool]) -> bool:
    """Whether ``accepts`` answers from the value's type alone (the same answer for every value of a type)."""
    kind = param.ctype.kind
    if kind == "int":
        return accepts is is_integer  # pyACL's integers (any size); the C face's check their range
    return kind != "array"  # isinstance checks, None, callable(), is_address, is_real, is_host_value …


def _argument_error(
    message: str, checks: list[tuple[int, Param, Callable[[object], bool]]], args: tuple[Any, ...]
) -> TypeError:
    """The first argument its C type refuses, named with that type (worked out only on failure)."""
    for i, param, accepts in checks:
        if i < len(args) and not accepts(args[i]):
            return TypeError(
                f"{message}: {param.name} ({param.ctype.spelling}) takes {param.ctype.python}, "
                f"not {type(args[i]).__name__}"
            )
    raise AssertionError("an argument was refused")  # pragma: no cover - only called after a refusal


def _failing(fault: StatusError) -> Callable[..., Any]:
    """The body of an injected failure, so it takes the same path (trace, record) as a real one."""

    def fail(*args: Any) -> Any:
        raise fault

    return fail


def _traced(tracer: Any, c_name: str, fn: Callable[..., Any], args: tuple[Any, ...], on_error: Any, aclnn: bool) -> Any:
    """The same call, recorded in the lifecycle trace (with its status) and attached devices' tasks."""
    start = tracer.now_us()
    try:
        result = fn(*args)
    except StatusError as exc:
        result = on_error(record_failure(c_name, exc, aclnn=aclnn))
    status = result[-1] if isinstance(result, tuple) and result and isinstance(result[-1], int) else result
    tracer.api(c_name, args, status if isinstance(status, int) else None, start)
    tracer.attach_devices()
    return result


def acl_api(c_name: str) -> Callable[[F], F]:
    """A pyACL-face function (``ret`` or ``(*values, ret)``), checked against its prototype-table entry."""
    proto = lookup(c_name)
    assert proto.py_name is not None, f"{c_name} has no pyACL name in the table"
    return c_api(proto, parse_failed=f"{proto.py_name} args parse failed", names_match=False)


def acl_c_api(c_name: str) -> Callable[[F], F]:
    """A C-only runtime call (no pyACL wrapper exists): C name, pyACL's argument rules and returns."""
    proto = lookup(c_name)
    assert proto.runtime and proto.py_name is None, f"{c_name} is not a C-only runtime call in the table"
    return c_api(proto, names_match=False)


def report_undefined(
    api: str,
    message: str,
    *,
    created: Site | None = None,
    destroyed: Site | None = None,
    kind: ReportKind = ReportKind.UNDEFINED_USE,
) -> None:
    """Report a use the real library leaves undefined, in the current process (faces only)."""
    process.current().diagnostics.report(
        api, message, created=created, destroyed=destroyed, kind=kind, site=capture_site(2)
    )
