"""acl.rt device calls: aclrtSetDevice / ResetDevice / GetDevice and the rest."""

from __future__ import annotations

from emulator import process
from emulator.acl.constants import ACL_HOST
from emulator.boundary import acl_api
from emulator.errors import AclInvalidValue, AclTimeoutInvalid
from emulator.runtime.core import ThreadState
from emulator.status import AclError

OK = AclError.ACL_SUCCESS

# aclrtDevAttr values the emulator answers, and where each comes from in the SoC profile.
DEVICE_INFO = {
    1: "ai_cpu_cnt",  # ACL_DEV_ATTR_AICPU_CORE_NUM
    101: "ai_core_cnt",  # ACL_DEV_ATTR_AICORE_CORE_NUM
    102: "cube_core_cnt",  # ACL_DEV_ATTR_CUBE_CORE_NUM
    201: "vector_core_cnt",  # ACL_DEV_ATTR_VECTOR_CORE_NUM
    204: "ub_size",  # ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE
    301: "memory_size",  # ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE
    302: "l2_size",  # ACL_DEV_ATTR_L2_CACHE_SIZE
    601: "npu_arch",  # ACL_DEV_ATTR_NPU_ARCH
}


@acl_api("aclrtSetDevice")
def set_device(device_id: int) -> int:
    process.current().runtime.set_device(device_id)
    return OK


@acl_api("aclrtResetDevice")
def reset_device(device_id: int) -> int:
    process.current().runtime.reset_device(device_id, force=False)
    return OK


@acl_api("aclrtResetDeviceForce")
def reset_device_force(device_id: int) -> int:
    process.current().runtime.reset_device(device_id, force=True)
    return OK


@acl_api("aclrtGetDevice")
def get_device() -> tuple[int, int]:
    return process.current().runtime.current_context().device_id, OK


@acl_api("aclrtGetDeviceCount")
def get_device_count() -> tuple[int, int]:
    return process.current().runtime.device_count, OK


@acl_api("aclrtGetRunMode")
def get_run_mode() -> tuple[int, int]:
    """An emulated card is a PCIe card driven from the host (EP mode): ACL_HOST."""
    return ACL_HOST, OK


@acl_api("aclrtSynchronizeDevice")
def synchronize_device() -> int:
    _synchronize_context(-1)
    return OK


@acl_api("aclrtSynchronizeDeviceWithTimeout")
def synchronize_device_with_timeout(timeout: int) -> int:
    """Waits for every stream of the current context, not of the whole device."""
    if timeout < -1:
        raise AclTimeoutInvalid("aclrtSynchronizeDeviceWithTimeout", timeout)
    _synchronize_context(timeout)
    return OK


def _synchronize_context(timeout: int) -> None:
    process.current().runtime.synchronize_context(timeout)


@acl_api("aclrtGetDeviceInfo")
def get_device_info(device_id: int, attr: int) -> tuple[int, int]:
    runtime = process.current().runtime
    runtime.check_device_id(device_id)
    field = DEVICE_INFO.get(attr)
    if field is None:
        raise AclInvalidValue("aclrtGetDeviceInfo", attr, "attr", "a supported aclrtDevAttr")
    return int(getattr(runtime.soc, field)), OK


@acl_api("aclrtGetLastError")
def get_last_error(level: int) -> int:
    thread = _last_error_thread(level, "aclrtGetLastError")
    code, thread.last_error = thread.last_error, 0
    return code


@acl_api("aclrtPeekAtLastError")
def peek_at_last_error(level: int) -> int:
    return _last_error_thread(level, "aclrtPeekAtLastError").last_error


def _last_error_thread(level: int, func: str) -> ThreadState:
    if level != 0:
        raise AclInvalidValue(func, level, "level", "ACL_RT_THREAD_LEVEL(0)")
    return process.current().runtime.thread


@acl_api("aclrtGetDeviceUtilizationRate")
def get_device_utilization_rate(device_id: int) -> tuple[dict[str, int], int]:
    """``utilization_info, ret``: a dict of the aclrtUtilizationInfo fields, in percent.

    The simulated device works only while a host call drives it (a synchronisation runs the
    queued tasks to completion before it returns), so at any moment a host thread can ask, its
    Cube, Vector and AI CPU are idle: 0. Memory utilisation is reserved in the real API and
    reads -1.
    """
    process.current().runtime.check_device_id(device_id)
    info = {"cube_utilization": 0, "vector_utilization": 0, "aicpu_utilization": 0, "memory_utilization": -1}
    return info, OK
