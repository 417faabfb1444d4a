"""acl.rt host callbacks: subscribe_report, unsubscribe_report, launch_callback, process_report.

The ACL layer's own checks are here (block type, timeout); the rules of delivery — after the
stream's earlier tasks, on the subscribed thread, blocking or not — are the runtime's
(``emulator.runtime.reports``, summed up in docs/runtime.md). pyACL passes ``user_data`` (a list
in its docs) to the callback as it is; from C the callback is the C function and gets the pointer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from emulator import process
from emulator.acl.constants import ACL_CALLBACK_BLOCK, ACL_CALLBACK_NO_BLOCK
from emulator.boundary import acl_api
from emulator.device.errors import InvalidValue
from emulator.errors import AclInvalidReason, AclInvalidValue
from emulator.status import AclError

OK = AclError.ACL_SUCCESS


@acl_api("aclrtSubscribeReport")
def subscribe_report(thread_id: int, stream: int) -> int:
    """Bind ``stream`` (0: the default stream) to the thread whose id is ``thread_id``."""
    runtime = process.current().runtime
    _, key = runtime.stream_key(stream, submit=False)
    runtime.reports.subscribe(int(thread_id) & 0xFFFF_FFFF_FFFF_FFFF, key)
    return OK


@acl_api("aclrtUnSubscribeReport")
def unsubscribe_report(thread_id: int, stream: int) -> int:
    runtime = process.current().runtime
    _, key = runtime.stream_key(stream, submit=False)
    runtime.reports.unsubscribe(int(thread_id) & 0xFFFF_FFFF_FFFF_FFFF, key)
    return OK


@acl_api("aclrtLaunchCallback")
def launch_callback(fn: Callable[[Any], object] | None, user_data: object, block_type: int, stream: int) -> int:
    """Queue ``fn(user_data)`` on the stream, to run on its subscribed thread after the earlier tasks."""
    if block_type not in (ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK):
        raise AclInvalidValue(
            "aclrtLaunchCallback", block_type, "blockType", "ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK"
        )
    if fn is None:
        raise InvalidValue(
            "Delivering an on-host callback function task in a stream failed because parameter callBackFunc "
            "cannot be a NULL pointer.",
            param="fn",
        )
    process.current().runtime.launch_callback(fn, user_data, block_type == ACL_CALLBACK_BLOCK, stream)
    return OK


@acl_api("aclrtProcessReport")
def process_report(timeout: int) -> int:
    """Run this thread's callbacks, waiting up to ``timeout`` ms (-1: forever) for one to arrive.

    107012 when the thread has no subscription and 507012 when the wait ends empty; both record
    no aclGetRecentErrMsg text (the real call only logs them), so a polling loop stays quiet.
    """
    if timeout < -1 or timeout == 0:
        raise AclInvalidReason(
            "aclrtProcessReport",
            timeout,
            "timeout",
            "-1 represents infinite wait, timeout value greater than 0 represents waiting for a fixed time",
        )
    process.current().runtime.reports.process(timeout)
    return OK
