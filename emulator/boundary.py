"""The one place where emulator exceptions become statuses.

Every C-named function (the pyACL face now, the aclnn face and the L2 ops later) is wrapped
by a decorator from here. A ``StatusError`` (``EmulatorError`` or a runtime ``DeviceError``)
becomes its status; its message goes to the error manager for aclGetRecentErrMsg, and a
runtime failure also sets the thread's last-error slot (spec/runtime.md section 10.3).
Anything else is an emulator bug and propagates. Python type mistakes raise TypeError before
the call, as pyACL's argument parser does ("acl.rt.malloc args parse failed").
"""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable
from typing import Any, TypeVar

import structlog

from device.errors import DeviceError
from emulator import process
from emulator.errors import StatusError
from emulator.status import describe

log = structlog.get_logger(logger_name="emulator.acl")

F = TypeVar("F", bound=Callable[..., Any])


def _is_int(value: object) -> bool:
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


CHECKS: dict[str, Callable[[object], bool]] = {
    "int": _is_int,
    "str": lambda v: isinstance(v, str),
}


def record_failure(c_name: str, exc: DeviceError | Exception) -> int:
    """Record a StatusError the way the real call would (message, last error, log line)."""
    proc = process.current()
    status: int = exc.status  # type: ignore[union-attr]
    msg_id: str | None = exc.msg_id  # type: ignore[union-attr]
    text = exc.message.replace("{api}", c_name)  # type: ignore[union-attr]
    if msg_id is not None:
        proc.errors.report(msg_id, text)
    if isinstance(exc, DeviceError):
        proc.runtime.thread.last_error = status
    level = log.error if msg_id is not None else log.debug
    context = exc.context  # type: ignore[union-attr]
    level("api.failed", api=c_name, status=describe(status), code=status, reason=text, context=context)
    return status


def acl_api(c_name: str, py_name: str, *, fail: tuple[object, ...] = ()) -> Callable[[F], F]:
    """Wrap a pyACL-face function: positional ints/strs checked, StatusError -> (*fail, status)."""

    def decorate(fn: F) -> F:
        params = list(inspect.signature(fn).parameters.values())
        required = sum(1 for p in params if p.default is inspect.Parameter.empty)
        checks = [CHECKS.get(str(p.annotation)) for p in params]
        parse_failed = f"{py_name} args parse failed"

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if kwargs or not required <= len(args) <= len(params):
                raise TypeError(parse_failed)
            for value, check in zip(args, checks, strict=False):
                if check is not None and not check(value):
                    raise TypeError(parse_failed)
            try:
                return fn(*args)
            except StatusError as exc:
                status = record_failure(c_name, exc)
                return (*fail, status) if fail else status

        wrapper.c_name = c_name  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
