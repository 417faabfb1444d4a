"""Stream capture into a model runtime instance (the aclmdlRI calls), under their C names.

Real pyACL wraps none of these, so they are C-only rows of the prototype table: a C program calls
them through the SDK, a Python program as ``acl.C_ONLY["aclmdlRICaptureBegin"](stream, mode)`` (or
by importing this module), with pyACL's conventions (out-values first, the status last).
Capture rules: docs/runtime.md, "Stream capture".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from emulator import process
from emulator.boundary import acl_c_api
from emulator.errors import AclInvalidValue, AclNullPointer
from emulator.status import AclError

OK = AclError.ACL_SUCCESS
CAPTURE_MODES = {0: "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL", 1: "ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL"}
CAPTURE_MODES |= {2: "ACL_MODEL_RI_CAPTURE_MODE_RELAXED"}


@acl_c_api("aclmdlRICaptureBegin")
def aclmdlRICaptureBegin(stream: int, mode: int) -> int:  # noqa: N802 (the C name)
    """From now on the tasks enqueued on ``stream`` are recorded, not run (the default stream cannot capture)."""
    func = "aclmdlRICaptureBegin"
    if not stream:
        raise AclNullPointer(func, "stream")
    if mode not in CAPTURE_MODES:
        raise AclInvalidValue(func, mode, "mode", " or ".join(f"{n}({v})" for v, n in CAPTURE_MODES.items()))
    process.current().runtime.models.begin(stream, mode)
    return OK


@acl_c_api("aclmdlRICaptureGetInfo")
def aclmdlRICaptureGetInfo(stream: int) -> tuple[int, int, int]:  # noqa: N802
    """(aclmdlRICaptureStatus, the model being captured or 0, status)."""
    if not stream:
        raise AclNullPointer("aclmdlRICaptureGetInfo", "stream")
    status, model = process.current().runtime.models.info(stream)
    return status, model, OK


@acl_c_api("aclmdlRICaptureEnd")
def aclmdlRICaptureEnd(stream: int) -> tuple[int, int]:  # noqa: N802
    """The model holding every task recorded since the capture began."""
    if not stream:
        raise AclNullPointer("aclmdlRICaptureEnd", "stream")
    return process.current().runtime.models.end(stream), OK


@acl_c_api("aclmdlRIExecuteAsync")
def aclmdlRIExecuteAsync(modelRI: int, stream: int) -> int:  # noqa: N802, N803
    """Enqueue the model's tasks on ``stream`` (0: the default stream), in their captured order."""
    if not modelRI:
        raise AclNullPointer("aclmdlRIExecuteAsync", "modelRI")
    process.current().runtime.models.execute(modelRI, stream)
    return OK


@acl_c_api("aclmdlRIDestroy")
def aclmdlRIDestroy(modelRI: int) -> int:  # noqa: N802, N803
    if not modelRI:
        raise AclNullPointer("aclmdlRIDestroy", "modelRI")
    process.current().runtime.models.destroy(modelRI)
    return OK


@acl_c_api("aclmdlRICaptureThreadExchangeMode")
def aclmdlRICaptureThreadExchangeMode(mode: int) -> tuple[int, int]:  # noqa: N802
    """The calling thread's capture mode becomes ``mode``; the previous one comes back (C: through ``*mode``).

    The thread's mode decides which synchronous calls a running capture forbids it (docs/runtime.md).
    """
    if mode not in CAPTURE_MODES:
        func = "aclmdlRICaptureThreadExchangeMode"
        raise AclInvalidValue(func, mode, "mode", " or ".join(f"{n}({v})" for v, n in CAPTURE_MODES.items()))
    thread = process.current().runtime.thread
    previous, thread.capture_mode = thread.capture_mode, mode
    return previous, OK


C_ONLY: dict[str, Callable[..., Any]] = {
    fn.__name__: fn
    for fn in (
        aclmdlRICaptureBegin,
        aclmdlRICaptureGetInfo,
        aclmdlRICaptureEnd,
        aclmdlRIExecuteAsync,
        aclmdlRIDestroy,
        aclmdlRICaptureThreadExchangeMode,
    )
}
