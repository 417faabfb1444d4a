"""acl.rt virtual memory and peer access: reserve / map / unmap, physical handles, peer pairs.

The ACL layer's checks happen here in the real order (null pointers, then zero sizes, then the
reserved arguments, then the properties); the rules of a map are the device's
(device/simulated/vmm.py) and the ownership tables the runtime's (emulator/runtime/vmm.py).
pyACL passes an ``aclrtPhysicalMemProp`` as a dict keyed by the C field names, its ``location`` a
dict of ``id`` and ``type``; a missing key is refused as pyACL's parser refuses it (TypeError).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from emulator import process
from emulator.boundary import acl_api
from emulator.device.errors import FeatureNotSupported
from emulator.device.interface import GiB
from emulator.errors import AclInvalidValue, AclNullPointer, AclReservedNotZero
from emulator.status import AclError

OK = AclError.ACL_SUCCESS
LOCATION_HOST, LOCATION_DEVICE, LOCATION_UNREGISTERED, LOCATION_MANAGED, LOCATION_HOST_NUMA = 0, 1, 2, 3, 4
DDR_ATTRS = (2, 3, 6, 7)  # ACL_DDR_MEM_HUGE, _NORMAL, _P2P_HUGE, _P2P_NORMAL: host memory only
GIANT_ATTRS = (10, 11, 14, 17)  # the 1 GiB page attributes
PHYSICAL_ATTRS = range(2, 18)  # the page-kind attributes; 0 / 1 (ACL_DDR_MEM / ACL_HBM_MEM) name no page kind
GRANULARITY_OPTIONS = {0: "ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM", 1: "ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED"}


@dataclass(frozen=True, slots=True)
class PhysicalMemProp:
    handle_type: int
    allocation_type: int
    mem_attr: int
    location_id: int
    location_type: int
    reserve: int


def read_prop(py_name: str, prop: dict[str, Any]) -> PhysicalMemProp:
    """The struct from pyACL's dict; a missing or non-integer field fails as pyACL's parser does."""
    try:
        location = prop["location"]
        fields = (prop["handleType"], prop["allocationType"], prop["memAttr"], location["id"], location["type"])
        reserve = prop.get("reserve", 0)
    except (KeyError, TypeError) as exc:
        raise TypeError(f"{py_name} args parse failed: prop has no field {exc}") from None
    values = (*fields, reserve)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{py_name} args parse failed: the fields of prop are integers")
    return PhysicalMemProp(*values)


def _check_attr(func: str, prop: PhysicalMemProp) -> None:
    if prop.location_type == LOCATION_DEVICE and prop.mem_attr in DDR_ATTRS:
        raise AclInvalidValue(
            func, prop.mem_attr, "memAttr", "MEM_LOCATION_TYPE_HOST(0) or MEM_LOCATION_TYPE_HOST_NUMA(4)"
        )
    if prop.mem_attr not in PHYSICAL_ATTRS:
        raise AclInvalidValue(
            func, prop.mem_attr, "memAttr", "a physical memory attribute that names a page kind ([2, 17])"
        )


def _device_location(func: str, prop: PhysicalMemProp) -> int:
    """The device the memory is on; host physical memory is not modelled (207000)."""
    if prop.location_type in (LOCATION_UNREGISTERED, LOCATION_MANAGED):
        raise AclInvalidValue(func, prop.location_type, "prop->location.type", "HOST(0), DEVICE(1) or HOST_NUMA(4)")
    _check_attr(func, prop)
    if prop.location_type != LOCATION_DEVICE:
        raise FeatureNotSupported(f"{func}: host physical memory (location type {prop.location_type}) is not supported")
    runtime = process.current().runtime
    runtime.check_device_id(prop.location_id)
    if prop.mem_attr in GIANT_ATTRS and not runtime.soc.huge1g_pages:
        raise FeatureNotSupported(f"{func}: 1 GiB pages are not supported on {runtime.soc.soc_version}")
    return prop.location_id


@acl_api("aclrtMemGetAllocationGranularity")
def mem_get_allocation_granularity(prop: dict[str, Any] | None, option: int) -> tuple[int, int]:
    """The granule of maps and physical sizes: the SoC's (2 MiB pages), 1 GiB for the 1 GiB page attributes."""
    func = "aclrtMemGetAllocationGranularity"
    if prop is None:
        raise AclNullPointer(func, "prop")
    memprop = read_prop("acl.rt.mem_get_allocation_granularity", prop)
    if option not in GRANULARITY_OPTIONS:
        raise AclInvalidValue(func, option, "option", " or ".join(f"{n}({v})" for v, n in GRANULARITY_OPTIONS.items()))
    _device_location(func, memprop)
    if memprop.mem_attr in GIANT_ATTRS:
        return 1 * GiB, OK
    return process.current().runtime.soc.vmm_granularity, OK


@acl_api("aclrtReserveMemAddress")
def reserve_mem_address(size: int, alignment: int, expect_ptr: int, flags: int) -> tuple[int, int]:
    """A virtual range of ``size`` bytes (rounded up to the granule) on the current device."""
    func = "aclrtReserveMemAddress"
    if size <= 0:
        raise AclInvalidValue(func, size, "size", "greater than 0")
    if flags not in (0, 1):  # 1 is kept for early callers (llama.cpp passes it)
        raise AclInvalidValue(func, flags, "flags", "0")
    if alignment != 0:
        raise AclInvalidValue(func, alignment, "alignment", "0 (reserved)")
    if expect_ptr:
        raise AclInvalidValue(func, f"{expect_ptr:#x}", "expectPtr", "nullptr (reserved)")
    return process.current().runtime.vmm.reserve(size), OK


@acl_api("aclrtReleaseMemAddress")
def release_mem_address(vir_ptr: int) -> int:
    if not vir_ptr:
        raise AclNullPointer("aclrtReleaseMemAddress", "virPtr")
    process.current().runtime.vmm.release(vir_ptr)
    return OK


@acl_api("aclrtMallocPhysical")
def malloc_physical(size: int, prop: dict[str, Any] | None, flags: int) -> tuple[int, int]:
    """A handle to ``size`` bytes (rounded up to the granule) charged on the device the properties name."""
    func = "aclrtMallocPhysical"
    if prop is None:
        raise AclNullPointer(func, "prop")
    memprop = read_prop("acl.rt.malloc_physical", prop)
    if size <= 0:
        raise AclInvalidValue(func, size, "size", "greater than 0")
    if flags != 0:
        raise AclInvalidValue(func, flags, "flags", "0 (reserved)")
    if memprop.handle_type != 0:
        raise AclInvalidValue(func, memprop.handle_type, "prop->handleType", "ACL_MEM_HANDLE_TYPE_NONE(0)")
    if memprop.allocation_type != 0:
        raise AclInvalidValue(
            func, memprop.allocation_type, "prop->allocationType", "ACL_MEM_ALLOCATION_TYPE_PINNED(0)"
        )
    device_id = _device_location(func, memprop)
    return process.current().runtime.vmm.malloc_physical(size, device_id), OK


@acl_api("aclrtFreePhysical")
def free_physical(handle: int) -> int:
    if not handle:
        raise AclNullPointer("aclrtFreePhysical", "handle")
    process.current().runtime.vmm.free_physical(handle)
    return OK


@acl_api("aclrtMapMem")
def map_mem(vir_ptr: int, size: int, offset: int, handle: int, flags: int) -> int:
    func = "aclrtMapMem"
    if not vir_ptr:
        raise AclNullPointer(func, "virPtr")
    if not handle:
        raise AclNullPointer(func, "handle")
    if size <= 0:
        raise AclInvalidValue(func, size, "size", "greater than 0")
    if flags != 0:
        raise AclInvalidValue(func, flags, "flags", "0")
    process.current().runtime.vmm.map(vir_ptr, size, offset, handle)
    return OK


@acl_api("aclrtUnmapMem")
def unmap_mem(vir_ptr: int) -> int:
    if not vir_ptr:
        raise AclNullPointer("aclrtUnmapMem", "virPtr")
    process.current().runtime.vmm.unmap(vir_ptr)
    return OK


# -- peer access --------------------------------------------------------------------------------
def _not_self(func: str, device_id: int, peer_id: int) -> None:
    if device_id == peer_id:
        raise AclInvalidValue(
            func, device_id, "deviceId", f"deviceId {device_id} cannot be equal to peerDeviceId {peer_id}"
        )


@acl_api("aclrtDeviceCanAccessPeer")
def device_can_access_peer(device_id: int, peer_device_id: int) -> tuple[int, int]:
    """1 when the SoC links its devices for peer access (the profile's ``peer_access``), else 0."""
    _not_self("aclrtDeviceCanAccessPeer", device_id, peer_device_id)
    runtime = process.current().runtime
    runtime.check_device_id(peer_device_id)
    runtime.check_device_id(device_id)
    return int(runtime.soc.peer_access), OK


@acl_api("aclrtDeviceEnablePeerAccess")
def device_enable_peer_access(peer_device_id: int, flags: int) -> int:
    """The current device may copy to and from ``peer_device_id`` from now on."""
    func = "aclrtDeviceEnablePeerAccess"
    if flags != 0:
        raise AclReservedNotZero(func, flags, "flags")
    runtime = process.current().runtime
    _not_self(func, runtime.current_context().device_id, peer_device_id)
    runtime.vmm.enable_peer(peer_device_id)
    return OK


@acl_api("aclrtDeviceDisablePeerAccess")
def device_disable_peer_access(peer_device_id: int) -> int:
    runtime = process.current().runtime
    _not_self("aclrtDeviceDisablePeerAccess", runtime.current_context().device_id, peer_device_id)
    runtime.vmm.disable_peer(peer_device_id)
    return OK
