"""acl.rt stream calls. Stream 0 is the current context's default stream."""

from __future__ import annotations

from emulator import process
from emulator.acl.constants import ACL_STREAM_STATUS_COMPLETE, ACL_STREAM_STATUS_NOT_READY
from emulator.boundary import acl_api
from emulator.device.errors import InvalidValue, StreamCaptured
from emulator.device.interface import StreamId
from emulator.errors import AclNullPointer, AclTimeoutInvalid
from emulator.status import AclError

OK = AclError.ACL_SUCCESS
KNOWN_STREAM_FLAGS = 0x3F  # FAST_LAUNCH … DEVICE_USE_ONLY; the ACL layer drops any other bit
NO_WAIT_FLAGS = 0x4 | 0x10 | 0x20  # PERSISTENT, CPU_SCHEDULE, DEVICE_USE_ONLY: synchronize returns at once


@acl_api("aclrtCreateStream")
def create_stream() -> tuple[int, int]:
    return int(process.current().runtime.create_stream(0, 0)), OK


@acl_api("aclrtCreateStreamWithConfig")
def create_stream_with_config(priority: int, flag: int) -> tuple[int, int]:
    """Priority is clamped to 0..7, unknown flag bits are dropped (both as the real ACL layer does)."""
    return int(process.current().runtime.create_stream(priority, flag & KNOWN_STREAM_FLAGS)), OK


@acl_api("aclrtDestroyStream")
def destroy_stream(stream: int) -> int:
    """Waits for the stream's pending tasks, then destroys it."""
    if not stream:
        raise AclNullPointer("aclrtDestroyStream", "stream")
    process.current().runtime.destroy_stream(stream, force=False)
    return OK


@acl_api("aclrtDestroyStreamForce")
def destroy_stream_force(stream: int) -> int:
    """Drops the stream's pending tasks, then destroys it."""
    if not stream:
        raise AclNullPointer("aclrtDestroyStreamForce", "stream")
    process.current().runtime.destroy_stream(stream, force=True)
    return OK


@acl_api("aclrtSynchronizeStream")
def synchronize_stream(stream: int) -> int:
    _synchronize(stream, -1)
    return OK


@acl_api("aclrtSynchronizeStreamWithTimeout")
def synchronize_stream_with_timeout(stream: int, timeout: int) -> int:
    if timeout < -1:
        raise AclTimeoutInvalid("aclrtSynchronizeStreamWithTimeout", timeout)
    if timeout == 0:
        raise InvalidValue(
            "aclrtSynchronizeStreamWithTimeout failed because value 0 for parameter timeout is invalid. "
            "Expected value: -1 or greater than 0.",
            timeout=timeout,
        )
    _synchronize(stream, timeout)
    return OK


def _synchronize(stream: int, timeout: int) -> None:
    runtime = process.current().runtime
    device, key = runtime.stream_key(stream, submit=False)
    if stream and runtime.stream_flags(stream) & NO_WAIT_FLAGS:
        return
    runtime.synchronize_stream(device, StreamId(key[1]), timeout)  # blocking callbacks first: they hold it


@acl_api("aclrtStreamQuery")
def stream_query(stream: int) -> tuple[int, int]:
    device, sid = process.current().runtime.resolve_stream(stream, submit=False)
    if device.capture_info(sid)[0]:
        raise StreamCaptured(f"Querying a stream: stream {sid:#x} during the capture stage is not supported")
    return (ACL_STREAM_STATUS_COMPLETE if device.stream_done(sid) else ACL_STREAM_STATUS_NOT_READY), OK
