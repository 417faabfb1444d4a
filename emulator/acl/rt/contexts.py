"""acl.rt context calls."""

from __future__ import annotations

from emulator import process
from emulator.boundary import acl_api
from emulator.errors import AclNullPointer
from emulator.status import AclError

OK = AclError.ACL_SUCCESS


@acl_api("aclrtCreateContext")
def create_context(device_id: int) -> tuple[int, int]:
    return process.current().runtime.create_context(device_id).handle, OK


@acl_api("aclrtDestroyContext")
def destroy_context(context: int) -> int:
    if not context:
        raise AclNullPointer("aclrtDestroyContext", "context")
    process.current().runtime.destroy_context(context)
    return OK


@acl_api("aclrtSetCurrentContext")
def set_context(context: int) -> int:
    if not context:
        raise AclNullPointer("aclrtSetCurrentContext", "context")
    process.current().runtime.set_context(context)
    return OK


@acl_api("aclrtGetCurrentContext")
def get_context() -> tuple[int, int]:
    return process.current().runtime.current_context_handle(), OK


@acl_api("aclrtCtxGetCurrentDefaultStream")
def ctx_get_current_default_stream() -> tuple[int, int]:
    ctx = process.current().runtime.current_context()
    return int(ctx.default_stream or 0), OK
