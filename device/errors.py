"""What a device backend raises when the runtime underneath aclrt* would fail, and the one error root.

``StatusError`` is the root of every error the emulator raises on purpose, whichever floor
raises it: it carries the C status the error becomes, the ID of the aclGetRecentErrMsg
message the real call records, the message and structured context. It lives here, on the
lowest floor, because ``device`` imports nothing from ``emulator`` while ``emulator.errors``
may import from ``device``: so both ``DeviceError`` and ``emulator.errors.EmulatorError`` can
subclass it and ``emulator.boundary`` catches one class.

The device layer is the runtime (libruntime + driver), so its errors carry the runtime's own
codes (107xxx / 207xxx / 507xxx, from ``rt_error_codes.h``) and the ID of the
message the real runtime records for aclGetRecentErrMsg (EExxxx runtime, ELxxxx driver).
Codes are plain ints here because ``device`` imports nothing from ``emulator``; a
conformance test checks each one against ``emulator.status.AclError``.
"""

from __future__ import annotations

from enum import Enum


class _ClassDefault(Enum):
    """The type of "no msg_id given": ``None`` is a real value (the call records no message)."""

    TOKEN = 0


CLASS_DEFAULT = _ClassDefault.TOKEN


class StatusError(Exception):
    """An error with a status. ``msg_id`` None: the real call records no aclGetRecentErrMsg text.

    ``msg_id`` is the class's unless the raiser passes one: the same status is silent in one
    API and reported in another (an aclnn getter's 161001 records nothing, an L2 op's does).
    Only subclasses are raised; the root's defaults are ACL_ERROR_INTERNAL_ERROR's. ``status`` is the
    class's too, but an instance may carry its own: the pyACL backend keeps a card's code that no
    class maps (a DeviceError with that status).
    """

    status: int = 500000  # ACL_ERROR_INTERNAL_ERROR
    msg_id: str | None = "EH9999"

    def __init__(
        self, message: str, /, *, msg_id: str | _ClassDefault | None = CLASS_DEFAULT, **context: object
    ) -> None:
        super().__init__(message)
        self.message = message
        self.context = context
        if not isinstance(msg_id, _ClassDefault):
            self.msg_id = msg_id


class DeviceError(StatusError):
    """A runtime failure. ``msg_id`` None means the real call fails silently (no message recorded)."""

    status: int = 507000  # ACL_ERROR_RT_INTERNAL_ERROR: unmapped internal errors
    msg_id: str | None = "EE9999"


class InvalidValue(DeviceError):
    """An argument the runtime checks and rejects (count > destMax, timeout 0, bad flags)."""

    status = 107000  # ACL_ERROR_RT_PARAM_INVALID
    msg_id = "EE1003"


class InvalidDeviceId(DeviceError):
    status = 107001  # ACL_ERROR_RT_INVALID_DEVICEID
    msg_id = "EE1003"


class ContextNull(DeviceError):
    """No current context on the calling thread (the runtime returns it without a message)."""

    status = 107002  # ACL_ERROR_RT_CONTEXT_NULL
    msg_id = None


class WrongContext(DeviceError):
    status = 107003  # ACL_ERROR_RT_STREAM_CONTEXT
    msg_id = "EE1010"


class EventTimestampInvalid(DeviceError):
    status = 107006  # ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
    msg_id = "EE1001"


class InvalidMemoryType(DeviceError):
    status = 107016  # ACL_ERROR_RT_INVALID_MEMORY_TYPE
    msg_id = "EE1003"


class InvalidHandle(DeviceError):
    """A stream / event / context handle that was destroyed or is of another kind."""

    status = 107017  # ACL_ERROR_RT_INVALID_HANDLE
    msg_id = "EE1017"


class FeatureNotSupported(DeviceError):
    status = 207000  # ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    msg_id = "EE1005"


class StreamCaptured(DeviceError):
    """An operation a stream in capture cannot take (synchronise, query, destroy, begin again)."""

    status = 107027  # ACL_ERROR_RT_STREAM_CAPTURED
    msg_id = "EE1016"


class StreamNotCaptured(DeviceError):
    """aclmdlRICaptureEnd on a stream that is not capturing."""

    status = 107029  # ACL_ERROR_RT_STREAM_NOT_CAPTURED
    msg_id = "EE1018"


class CaptureModeNotSupported(DeviceError):
    """A call the capture mode forbids while a stream captures (a synchronous copy in GLOBAL mode)."""

    status = 107030  # ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
    msg_id = "EE1016"


class CaptureWrongThread(DeviceError):
    """aclmdlRICaptureEnd from another thread than the one that began the capture."""

    status = 107038  # ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD
    msg_id = "EE1016"


class CaptureInvalidated(DeviceError):
    """The capture was invalidated by a forbidden call; ending it gives no model."""

    status = 507903  # ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
    msg_id = "EE1016"


class OutOfMemory(DeviceError):
    status = 207001  # ACL_ERROR_RT_MEMORY_ALLOCATION
    msg_id = "EL0004"


class NoStreamResource(DeviceError):
    status = 207008  # ACL_ERROR_RT_NO_STREAM_RESOURCE
    msg_id = "EE1016"


class NoEventResource(DeviceError):
    status = 207007  # ACL_ERROR_RT_NO_EVENT_RESOURCE
    msg_id = "EE1016"


class ContextReleaseError(DeviceError):
    status = 507007  # ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    msg_id = "EE1018"


class StreamSyncTimeout(DeviceError):
    status = 507046  # ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    msg_id = "EE1002"


class EventSyncTimeout(DeviceError):
    status = 507047  # ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
    msg_id = "EE1002"


class EventNotRecorded(DeviceError):
    """ElapsedTime on an event that was never recorded: the runtime's internal 'recorder null'."""

    status = 507000  # ACL_ERROR_RT_INTERNAL_ERROR
    msg_id = "EE9999"


class InvalidAddress(DeviceError):
    """The driver rejected an address: not a live allocation (double free, interior pointer, stray)."""

    status = 507899  # ACL_ERROR_RT_DRV_INTERNAL_ERROR
    msg_id = "EL9999"


class TaskFailed(DeviceError):
    """A queued task failed on the device; surfaces at the next synchronisation."""

    status = 507015  # ACL_ERROR_RT_AICORE_EXCEPTION
    msg_id = "EZ9999"


class ReportRaisedInTask(Exception):
    """Base of the reports the emulator raises on purpose from inside a running task (strict mode).

    The caller receives the report itself, and the real device would have carried on, so the task
    ends there without a device failure: the stream's next synchronisation returns 0, as before.
    """


class TaskInterrupted(TaskFailed):
    """A kernel task that a host exception (KeyboardInterrupt …) stopped part-way: it did not finish."""

    status = 507015  # ACL_ERROR_RT_AICORE_EXCEPTION


class DmaTaskInterrupted(TaskFailed):
    """A copy or set task that a host exception stopped part-way: its transfer did not finish."""

    status = 507013  # ACL_ERROR_RT_SYS_DMA


class AicpuException(TaskFailed):
    status = 507018  # ACL_ERROR_RT_AICPU_EXCEPTION


class UnifiedBufferOverflow(TaskFailed):
    """A block declared more unified-buffer use than the SoC's UB holds."""

    status = 507015  # ACL_ERROR_RT_AICORE_EXCEPTION


class ContextNotDestroyable(DeviceError):
    """aclrtDestroyContext on the primary context or on one already destroyed."""

    status = 107002  # ACL_ERROR_RT_CONTEXT_NULL
    msg_id = "EE1017"


class KernelOutOfBounds(TaskFailed):
    """A bounds-checked kernel (debug-kernel mode) touched memory outside one of its buffers."""

    status = 507015  # ACL_ERROR_RT_AICORE_EXCEPTION


class HostBudgetExceeded(OutOfMemory, TaskFailed):
    """The host RAM behind simulated memory would pass the emulator's budget (OPBASE_EMU_HOST_BUDGET).

    A card has its HBM physically; the emulator backs it with host RAM as it is touched, so running
    out shows where a card would run out of memory: 207001 ACL_ERROR_RT_MEMORY_ALLOCATION, from the
    call itself (aclrtMallocHost, a synchronous copy or set) or, for work queued on a stream, as the
    failed task the next synchronisation of that stream reports (hence also a TaskFailed).
    """

    status = 207001  # ACL_ERROR_RT_MEMORY_ALLOCATION
    msg_id = "EL0004"


class StreamSubscribeError(DeviceError):
    """A stream already bound to a thread, or not bound when unsubscribed (the runtime logs, records nothing)."""

    status = 107011  # ACL_ERROR_RT_STREAM_SUBSCRIBE
    msg_id = None


class ThreadSubscribeError(DeviceError):
    """A thread with no subscription processing reports, or bound on another device (logged only)."""

    status = 107012  # ACL_ERROR_RT_THREAD_SUBSCRIBE
    msg_id = None


class StreamNoCallback(DeviceError):
    status = 107015  # ACL_ERROR_RT_STREAM_NO_CB_REG
    msg_id = "EE1018"


class ReportTimeout(DeviceError):
    """aclrtProcessReport's wait ended with no callback to run (an info log line, no message)."""

    status = 507012  # ACL_ERROR_RT_REPORT_TIMEOUT
    msg_id = None
