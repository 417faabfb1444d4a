"""acl.rt event calls."""

from __future__ import annotations

from emulator import process
from emulator.acl.constants import (
    ACL_EVENT_RECORDED_STATUS_COMPLETE,
    ACL_EVENT_RECORDED_STATUS_NOT_READY,
    ACL_EVENT_STATUS_COMPLETE,
    ACL_EVENT_STATUS_NOT_READY,
)
from emulator.boundary import acl_api
from emulator.device.errors import FeatureNotSupported, InvalidValue
from emulator.device.interface import Device, EventId, StreamId
from emulator.errors import AclNullPointer, AclTimeoutInvalid
from emulator.status import AclError

OK = AclError.ACL_SUCCESS


@acl_api("aclrtCreateEvent")
def create_event() -> tuple[int, int]:
    """A waitable, timed event (the runtime's internal DDSYNC | TIME_LINE | STREAM_MARK set)."""
    return int(process.current().runtime.create_event(None, ex=False)), OK


@acl_api("aclrtCreateEventWithFlag")
def create_event_with_flag(flag: int) -> tuple[int, int]:
    return int(process.current().runtime.create_event(flag, ex=False)), OK


@acl_api("aclrtCreateEventExWithFlag")
def create_event_ex_with_flag(flag: int) -> tuple[int, int]:
    return int(process.current().runtime.create_event(flag, ex=True)), OK


@acl_api("aclrtDestroyEvent")
def destroy_event(event: int) -> int:
    if not event:
        raise AclNullPointer("aclrtDestroyEvent", "event")
    process.current().runtime.destroy_event(event)
    return OK


def _event_on_stream(event: int, stream: int, func: str) -> tuple[Device, StreamId]:
    if not event:
        raise AclNullPointer(func, "event")
    runtime = process.current().runtime
    event_device = runtime.event_device(event)
    device, sid = runtime.resolve_stream(stream, submit=True)
    if device is not event_device:
        raise InvalidValue(f"{func}: the event and the stream are on different devices", event=event, stream=stream)
    return device, sid


@acl_api("aclrtRecordEvent")
def record_event(event: int, stream: int) -> int:
    device, sid = _event_on_stream(event, stream, "aclrtRecordEvent")
    device.record_event(EventId(event), sid)
    return OK


@acl_api("aclrtResetEvent")
def reset_event(event: int, stream: int) -> int:
    device, sid = _event_on_stream(event, stream, "aclrtResetEvent")
    device.reset_event(EventId(event), sid)
    return OK


@acl_api("aclrtStreamWaitEvent")
def stream_wait_event(stream: int, event: int) -> int:
    """A wait on an event of another device (a peer copy's hand-over) runs that device's recorded work now.

    Each device orders its own streams; across devices the recorded work is done before the wait is
    enqueued, so every later task of ``stream`` sees it, as the wait on a card guarantees.
    """
    if not event:
        raise AclNullPointer("aclrtStreamWaitEvent", "event")
    runtime = process.current().runtime
    event_device = runtime.event_device(event)
    device, sid = runtime.resolve_stream(stream, submit=True)
    if device is not event_device:
        if device.capture_info(sid)[0]:
            raise InvalidValue("aclrtStreamWaitEvent: a capturing stream cannot wait on another device's event")
        event_device.synchronize_event(EventId(event))
        return OK
    device.stream_wait_event(sid, EventId(event))
    return OK


@acl_api("aclrtQueryEvent")
def query_event(event: int) -> tuple[int, int]:
    """Deprecated; its status enum is inverted (COMPLETE 0) and Ex events are refused."""
    if not event:
        raise AclNullPointer("aclrtQueryEvent", "event")
    device = process.current().runtime.event_device(event)
    if device.event_is_ex(EventId(event)):
        raise FeatureNotSupported("aclrtQueryEvent does not support events created by aclrtCreateEventExWithFlag")
    _, done = device.event_state(EventId(event))
    return (ACL_EVENT_STATUS_COMPLETE if done else ACL_EVENT_STATUS_NOT_READY), OK


@acl_api("aclrtQueryEventStatus")
def query_event_status(event: int) -> tuple[int, int]:
    """Before any record an Ex event reads COMPLETE and any other event NOT_READY."""
    if not event:
        raise AclNullPointer("aclrtQueryEventStatus", "event")
    device = process.current().runtime.event_device(event)
    recorded, done = device.event_state(EventId(event))
    if not recorded:
        done = device.event_is_ex(EventId(event))
    return (ACL_EVENT_RECORDED_STATUS_COMPLETE if done else ACL_EVENT_RECORDED_STATUS_NOT_READY), OK


@acl_api("aclrtSynchronizeEvent")
def synchronize_event(event: int) -> int:
    if not event:
        raise AclNullPointer("aclrtSynchronizeEvent", "event")
    process.current().runtime.event_device(event).synchronize_event(EventId(event), -1)
    return OK


@acl_api("aclrtSynchronizeEventWithTimeout")
def synchronize_event_with_timeout(event: int, timeout: int) -> int:
    if not event:
        raise AclNullPointer("aclrtSynchronizeEventWithTimeout", "event")
    if timeout < -1:
        raise AclTimeoutInvalid("aclrtSynchronizeEventWithTimeout", timeout)
    if timeout == 0:
        raise InvalidValue(
            "aclrtSynchronizeEventWithTimeout failed because value 0 for parameter timeout is invalid. "
            "Expected value: -1 or greater than 0.",
            timeout=timeout,
        )
    process.current().runtime.event_device(event).synchronize_event(EventId(event), timeout)
    return OK


@acl_api("aclrtEventElapsedTime")
def event_elapsed_time(start: int, end: int) -> tuple[float, int]:
    """Milliseconds between two recorded, completed events, from the simulated device clock."""
    if not start:
        raise AclNullPointer("aclrtEventElapsedTime", "start")
    if not end:
        raise AclNullPointer("aclrtEventElapsedTime", "end")
    runtime = process.current().runtime
    device = runtime.event_device(start)
    runtime.event_device(end)
    return device.event_elapsed_ms(EventId(start), EventId(end)), OK
