"""acl.rt memory calls: malloc / free / memcpy / memset / get_mem_info.

The ACL layer's checks happen here, in the real order (zero counts succeed before pointer
checks, null pointers before enum checks, enum checks before context checks); the direction of
a copy comes from where the two addresses really are, as the driver decides it.
"""

from __future__ import annotations

from emulator import process
from emulator.boundary import acl_api
from emulator.device.errors import FeatureNotSupported, InvalidMemoryType, InvalidValue
from emulator.device.interface import AddressKind, Device, Direction, PageKind, StreamId
from emulator.errors import AclInvalidValue, AclNullPointer
from emulator.status import AclError

OK = AclError.ACL_SUCCESS
SIZE_MAX = (1 << 64) - 1
MEMCPY_KINDS = {
    0: "MEMCPY_HOST_TO_HOST",
    1: "MEMCPY_HOST_TO_DEVICE",
    2: "MEMCPY_DEVICE_TO_HOST",
    3: "MEMCPY_DEVICE_TO_DEVICE",
    4: "MEMCPY_DEFAULT",
    5: "MEMCPY_HOST_TO_BUF_TO_DEVICE",
    6: "MEMCPY_INNER_DEVICE_TO_DEVICE",
    7: "MEMCPY_INTER_DEVICE_TO_DEVICE",
}
ACCEPTED_KINDS = (1, 3, 2, 0, 4, 5)  # the order of the real "Expected value" list
KIND_DIRECTION = {0: Direction.H2H, 1: Direction.H2D, 2: Direction.D2H, 3: Direction.D2D, 5: Direction.H2D}


# -- allocation ---------------------------------------------------------------------------------
def allocate(size: int, policy: int, *, padded: bool, tag: str = "user") -> tuple[int, int]:
    """The aclrtMalloc family's size checks and allocation; acldvppMalloc shares them with its own tag."""
    if size == 0:
        raise AclInvalidValue("aclMallocMemInner", 0, "size", "must be greater than 0")
    runtime = process.current().runtime
    if size + 32 + runtime.soc.padding_size > SIZE_MAX or size < 0:
        raise AclInvalidValue("aclMallocMemInner", size, "size", "the padded size must not overflow size_t")
    return runtime.malloc(size, policy, padded=padded, tag=tag), OK


@acl_api("aclrtMalloc")
def malloc(size: int, policy: int) -> tuple[int, int]:
    runtime = process.current().runtime
    if 0 < size <= SIZE_MAX - 32 - runtime.soc.padding_size:  # allocate's size checks, passed
        return runtime.malloc(size, policy), OK
    return allocate(size, policy, padded=True)  # it raises the failing check's error


@acl_api("aclrtMallocCached")
def malloc_cached(size: int, policy: int) -> tuple[int, int]:
    return allocate(size, policy, padded=True)


@acl_api("aclrtMallocAlign32")
def malloc_align32(size: int, policy: int) -> tuple[int, int]:
    """Rounded to 32 bytes without the SoC's padding."""
    return allocate(size, policy, padded=False)


@acl_api("aclrtFree")
def free(dev_ptr: int) -> int:
    if not dev_ptr:
        raise AclNullPointer("aclrtFree", "devPtr")
    process.current().runtime.free(dev_ptr)
    return OK


@acl_api("aclrtMallocHost")
def malloc_host(size: int) -> tuple[int, int]:
    if size <= 0:
        raise AclInvalidValue("aclrtMallocHost", size, "size", "must be greater than 0")
    return process.current().runtime.malloc_host(size), OK


@acl_api("aclrtFreeHost")
def free_host(host_ptr: int) -> int:
    if not host_ptr:
        raise AclNullPointer("aclrtFreeHost", "hostPtr")
    process.current().runtime.free_host(host_ptr)
    return OK


# -- memory info --------------------------------------------------------------------------------
HBM_ATTRS: dict[int, PageKind | None] = {1: None, 4: PageKind.HUGE, 5: PageKind.NORMAL, 8: PageKind.HUGE}
HBM_ATTRS |= {9: PageKind.NORMAL, 10: PageKind.GIANT, 11: PageKind.GIANT, 12: PageKind.NORMAL}
HBM_ATTRS |= {13: PageKind.HUGE, 14: PageKind.GIANT, 15: PageKind.NORMAL, 16: PageKind.HUGE, 17: PageKind.GIANT}
DDR_ATTRS: dict[int, PageKind | None] = {0: None, 2: PageKind.HUGE, 3: PageKind.NORMAL, 6: PageKind.HUGE}
DDR_ATTRS |= {7: PageKind.NORMAL}


@acl_api("aclrtGetMemInfo")
def get_mem_info(attr: int) -> tuple[int, int, int]:
    """Free / total of the current device; HBM parts answer DDR queries with 0 / 0."""
    if not 0 <= attr <= 17:
        raise InvalidMemoryType(
            f"{{api}} failed because value {attr} for parameter attr is invalid. Expected value: [0, 17].", attr=attr
        )
    device = process.current().runtime.current_device()
    if device.soc.memory_kind == "HBM":
        if attr in DDR_ATTRS:
            return 0, 0, OK
        info = device.mem_info(HBM_ATTRS[attr])
    else:  # a part without HBM answers HBM queries with its DDR numbers
        info = device.mem_info(DDR_ATTRS.get(attr, HBM_ATTRS.get(attr)))
    return info.free, info.total, OK


# -- copies -------------------------------------------------------------------------------------
def _kind_name(kind: int) -> str:
    return f"{MEMCPY_KINDS[kind]}({kind})" if kind in MEMCPY_KINDS else f"UNKNOWN({kind})"


def _check_copy(func: str, dst: int, dest_max: int, src: int, count: int, kind: int, *, sync: bool) -> bool:
    """The ACL and runtime checks shared by both copy calls; False means 'nothing to do'."""
    if count == 0:
        return False
    if count < 0:  # a size_t: no C caller can pass one, so it is a value out of range, never a crash
        raise InvalidValue(
            f"{func} failed because value {count} for parameter count is invalid. Expected value: (0, {dest_max}].",
            count=count,
            dest_max=dest_max,
        )
    if not dst:
        raise AclNullPointer(func, "dst")
    if not src:
        raise AclNullPointer(func, "src")
    if kind not in ACCEPTED_KINDS:
        expected = " or ".join(_kind_name(k) for k in ACCEPTED_KINDS)
        raise AclInvalidValue("Memory copy type conversion", _kind_name(kind), "kind", expected)
    if (sync and dest_max == 0) or dest_max < 0:
        raise InvalidValue(
            f"{func} failed because value {dest_max} for parameter destMax is invalid. Expected value: greater than 0.",
            dest_max=dest_max,
        )
    if count > dest_max:
        raise InvalidValue(
            f"{func} failed because value {count} for parameter count is invalid. Expected value: (0, {dest_max}].",
            count=count,
            dest_max=dest_max,
        )
    return True


def _route(dst: int, src: int) -> tuple[Direction, Device | None, AddressKind, AddressKind]:
    """The true direction of a copy from the location of its two ends, and the device that does it."""
    runtime = process.current().runtime
    dst_kind, dst_dev = runtime.classify(dst)
    src_kind, src_dev = runtime.classify(src)
    if dst_kind is AddressKind.DEVICE and src_kind is AddressKind.DEVICE:
        return Direction.D2D, dst_dev, dst_kind, src_kind
    if dst_kind is AddressKind.DEVICE:
        return Direction.H2D, dst_dev, dst_kind, src_kind
    if src_kind is AddressKind.DEVICE:
        return Direction.D2H, src_dev, dst_kind, src_kind
    return Direction.H2H, dst_dev or src_dev, dst_kind, src_kind


def _peer(dst: int, src: int, runner: Device) -> Device | None:
    """The other device of a copy between two devices (``runner`` does it), refused without peer access."""
    runtime = process.current().runtime
    ends = [runtime.classify(addr)[1] for addr in (dst, src)]
    if ends[0] is ends[1] or None in ends:
        return None
    if runner not in ends:
        raise InvalidValue("{api}: neither end of the copy is on the device of the stream", dst=dst, src=src)
    peer = ends[1] if ends[0] is runner else ends[0]
    assert peer is not None
    if not runtime.vmm.peer_enabled(runner.device_id, peer.device_id):
        raise InvalidValue(
            f"{{api}}: a copy between device {runner.device_id} and device {peer.device_id} needs peer access; "
            f"call aclrtDeviceEnablePeerAccess({peer.device_id}, 0) on device {runner.device_id} first",
            dst=dst,
            src=src,
        )
    return peer


@acl_api("aclrtMemcpy")
def memcpy(dst: int, dest_max: int, src: int, count: int, kind: int) -> int:
    """Synchronous; ``kind`` is advisory, the driver routes by where the addresses are."""
    if not _check_copy("aclrtMemcpy", dst, dest_max, src, count, kind, sync=True):
        return OK
    if dst == src:
        return OK
    runtime = process.current().runtime
    runtime.current_context()
    direction, device, _, _ = _route(dst, src)
    runner = device or runtime.current_device()
    peer = _peer(dst, src, runner) if direction is Direction.D2D else None
    if peer is not None:
        runner.peer_copy(dst, src, count, peer, None)
    else:
        runner.copy(dst, src, count, direction, None)
    return OK


# Which kinds an async copy accepts for each (dst, src) pointer class that involves pageable memory.
PAGEABLE_KINDS: dict[tuple[AddressKind, AddressKind], set[Direction]] = {
    (AddressKind.DEVICE, AddressKind.UNREGISTERED): {Direction.H2D, Direction.D2D},
    (AddressKind.UNREGISTERED, AddressKind.DEVICE): {Direction.D2H, Direction.D2D},
    (AddressKind.UNREGISTERED, AddressKind.PINNED_HOST): {Direction.H2H, Direction.H2D},
    (AddressKind.PINNED_HOST, AddressKind.UNREGISTERED): {Direction.H2H, Direction.D2H},
    (AddressKind.UNREGISTERED, AddressKind.UNREGISTERED): set(Direction),
}


@acl_api("aclrtMemcpyAsync")
def memcpy_async(dst: int, dest_max: int, src: int, count: int, kind: int, stream: int) -> int:
    """Queued on ``stream``; with pageable host memory the stream is synchronised and the copy done at once."""
    if not _check_copy("aclrtMemcpyAsync", dst, dest_max, src, count, kind, sync=False):
        return OK
    runtime = process.current().runtime
    device, sid = runtime.resolve_stream(stream, submit=True)
    direction, owner, dst_kind, src_kind = _route(dst, src)
    allowed = PAGEABLE_KINDS.get((dst_kind, src_kind))
    if allowed is not None and kind != 4 and KIND_DIRECTION[kind] not in allowed:
        raise InvalidValue(
            f"aclrtMemcpyAsync: kind {_kind_name(kind)} is not valid from {src_kind.name} to {dst_kind.name} memory",
            kind=kind,
        )
    if direction is Direction.H2H:
        raise FeatureNotSupported("The current system or device does not support async host-to-host copies.")
    peer = _peer(dst, src, device) if direction is Direction.D2D else None
    if peer is not None:
        device.peer_copy(dst, src, count, peer, StreamId(sid))
        return OK
    if owner is not None and owner is not device:
        raise InvalidValue("aclrtMemcpyAsync: the memory and the stream are on different devices")
    if dst == src:
        return OK
    if AddressKind.UNREGISTERED in (dst_kind, src_kind):
        runtime.synchronize_stream(device, sid)  # after the stream's blocking callbacks, as on a card
        device.copy(dst, src, count, direction, None)
    else:
        device.copy(dst, src, count, direction, StreamId(sid))
    return OK


# -- sets ---------------------------------------------------------------------------------------
def _set_target(func: str, dev_ptr: int, max_count: int, count: int) -> Device | None:
    if count == 0:
        return None
    if not dev_ptr:
        raise AclNullPointer(func, "devPtr")
    if count > max_count:
        raise InvalidValue(
            f"{func} failed because value {count} for parameter count is invalid. Expected value: (0, {max_count}].",
            count=count,
            max_count=max_count,
        )
    kind, device = process.current().runtime.classify(dev_ptr)
    if kind is AddressKind.UNREGISTERED or device is None:
        raise InvalidValue(
            f"{func}: {dev_ptr:#x} is neither device memory nor host memory from aclrtMallocHost", addr=dev_ptr
        )
    return device


@acl_api("aclrtMemset")
def memset(dev_ptr: int, max_count: int, value: int, count: int) -> int:
    """Fills ``count`` bytes with the low byte of ``value``; host or device memory, by address."""
    device = _set_target("aclrtMemset", dev_ptr, max_count, count)
    if device is not None:
        device.memset(dev_ptr, value, count, None)
    return OK


@acl_api("aclrtMemsetAsync")
def memset_async(dev_ptr: int, max_count: int, value: int, count: int, stream: int) -> int:
    target = _set_target("aclrtMemsetAsync", dev_ptr, max_count, count)
    if target is None:
        return OK
    device, sid = process.current().runtime.resolve_stream(stream, submit=True)
    if target is not device:
        raise InvalidValue("aclrtMemsetAsync: the memory and the stream are on different devices")
    device.memset(dev_ptr, value, count, sid)
    return OK
