"""The one place where emulator exceptions become statuses.

Every C-named function — the pyACL face, the aclnn face and the L2 ops in kernels/ — is wrapped
by a decorator from here. A ``StatusError`` (the one root of ``EmulatorError`` and the runtime's
``DeviceError``) becomes its status; its message goes to the error manager for aclGetRecentErrMsg, and a
runtime failure also sets the thread's last-error slot (spec/runtime.md section 10.3).
Anything else is an emulator bug and propagates. Python type mistakes — what a C compiler
would have rejected — raise TypeError before the call, as pyACL's argument parser does.
"""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np
import structlog

from emulator import process
from emulator.device.errors import DeviceError, StatusError
from emulator.status import describe

log = structlog.get_logger(logger_name="emulator.acl")

F = TypeVar("F", bound=Callable[..., Any])
Check = Callable[[object], bool]


def is_int(value: object) -> bool:
    if type(value) is int:
        return True
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


def is_int_seq(value: object) -> bool:
    """A C int64 array: a list, tuple or 1-D integer ndarray (elements are converted, and so checked, on use)."""
    if type(value) is list or type(value) is tuple:
        return True
    return isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu"


CHECKS: dict[str, Check] = {
    "int": is_int,
    "str": lambda v: isinstance(v, str),
    "str | None": lambda v: v is None or isinstance(v, str),
    "bool": lambda v: isinstance(v, bool | int | np.bool_),
}


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


def c_api(
    c_name: str,
    *,
    on_error: Callable[[int], Any],
    checks: Mapping[str, Check] = CHECKS,
    parse_failed: str | None = None,
    aclnn: bool = False,
) -> Callable[[F], F]:
    """Wrap a C-named function: positional arguments type-checked from their annotations,
    a StatusError turned into ``on_error(status)``.
    """

    def decorate(fn: F) -> F:
        params = list(inspect.signature(fn).parameters.values())
        required = sum(1 for p in params if p.default is inspect.Parameter.empty)
        arg_checks = [
            (i, p.name, str(p.annotation), check)
            for i, p in enumerate(params)
            if (check := checks.get(str(p.annotation))) is not None
        ]
        message = parse_failed or f"{c_name} args parse failed"
        most = len(params)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            count = len(args)
            if kwargs or count < required or count > most:
                raise TypeError(message)
            for i, name, annotation, check in arg_checks:
                if i < count and not check(args[i]):
                    raise TypeError(f"{message}: {name} must be {annotation}, not {type(args[i]).__name__}")
            tracer = process.current().tracer
            if tracer is not None:
                return _traced(tracer, c_name, fn, args, on_error, aclnn)
            try:
                return fn(*args)
            except StatusError as exc:
                return on_error(record_failure(c_name, exc, aclnn=aclnn))

        wrapper.c_name = c_name  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


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


def acl_api(c_name: str, py_name: str, *, fail: tuple[object, ...] = ()) -> Callable[[F], F]:
    """A pyACL-face function: ``ret`` or ``(*values, ret)``; on failure the values are ``fail``."""

    def on_error(status: int) -> Any:
        return (*fail, status) if fail else status

    return c_api(c_name, on_error=on_error, parse_failed=f"{py_name} args parse failed")
