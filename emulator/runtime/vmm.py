"""The runtime's side of virtual memory and peer access: which device owns a range or a handle.

The rules of a map live with the device (device/simulated/vmm.py); here are the process-wide
answers the ACL layer needs: the device of a reserved range (the current context's at reserve
time) and of a physical handle (the device its properties name), so that a map of a handle into
a range of another device is refused, and the peer pairs aclrtDeviceEnablePeerAccess opened,
which a device-to-device copy across devices needs. Reserved ranges and physical handles are
registered for the leak report with their creation sites.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.device.errors import FeatureNotSupported, InvalidValue
from emulator.device.interface import Device
from emulator.tracking import ResourceKind

if TYPE_CHECKING:
    from emulator.runtime.core import Runtime


class VirtualMemoryTable:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._ranges: dict[int, tuple[int, int]] = {}  # reserved range start -> (device id, rounded size)
        self._handles: dict[int, int] = {}  # physical handle -> device id
        self._peers: set[tuple[int, int]] = set()  # (device, peer) opened by the device's context

    # -- ranges and handles -----------------------------------------------------------------
    def reserve(self, size: int) -> int:
        rt = self.runtime
        with rt.lock:
            ctx = rt.current_context()
            addr = rt.device_of(ctx).reserve_mem(size)
            granule = rt.soc.vmm_granularity
            self._ranges[addr] = (ctx.device_id, (size + granule - 1) // granule * granule)
            rt.registry.add(ResourceKind.VIRTUAL_RANGE, addr, size=size, device=ctx.device_id)
            return addr

    def release(self, addr: int) -> None:
        rt = self.runtime
        with rt.lock:
            found = self._ranges.get(addr)
            if found is None:
                raise InvalidValue(f"{{api}}: {addr:#x} is not the start of a reserved virtual range", addr=addr)
            rt.slot(found[0]).device.release_mem(addr)
            del self._ranges[addr]
            rt.registry.remove(ResourceKind.VIRTUAL_RANGE, addr)

    def malloc_physical(self, size: int, device_id: int) -> int:
        rt = self.runtime
        with rt.lock:
            rt.current_context()
            handle = rt.slot(device_id).device.malloc_physical(size)
            self._handles[handle] = device_id
            granule = rt.soc.vmm_granularity
            charged = (size + granule - 1) // granule * granule  # what the device counts as used
            rt.registry.add(ResourceKind.PHYSICAL_MEMORY, handle, size=charged, device=device_id, requested=size)
            return handle

    def free_physical(self, handle: int) -> None:
        rt = self.runtime
        with rt.lock:
            rt.slot(self._handle_device(handle)).device.free_physical(handle)
            del self._handles[handle]
            rt.registry.remove(ResourceKind.PHYSICAL_MEMORY, handle)

    def _handle_device(self, handle: int) -> int:
        device_id = self._handles.get(handle)
        if device_id is None:
            raise InvalidValue(f"{{api}}: {handle:#x} is not a handle returned by aclrtMallocPhysical", handle=handle)
        return device_id

    def range_device(self, va: int) -> Device:
        """The device whose reserved range holds ``va``."""
        for start, (device_id, size) in self._ranges.items():
            if start <= va < start + size:
                return self.runtime.slot(device_id).device
        raise InvalidValue(f"{{api}}: {va:#x} is not inside a range reserved with aclrtReserveMemAddress", addr=va)

    def map(self, va: int, size: int, offset: int, handle: int) -> None:
        rt = self.runtime
        with rt.lock:
            device_id = self._handle_device(handle)
            device = self.range_device(va)
            if device.device_id != device_id:
                raise InvalidValue(
                    f"{{api}}: handle {handle:#x} is memory of device {device_id}; the range {va:#x} is on device "
                    f"{device.device_id}",
                    handle=handle,
                )
            device.map_mem(va, size, offset, handle)

    def unmap(self, va: int) -> None:
        with self.runtime.lock:
            self.range_device(va).unmap_mem(va)

    # -- peer access ------------------------------------------------------------------------
    def enable_peer(self, peer_id: int) -> None:
        rt = self.runtime
        with rt.lock:
            ctx = rt.current_context()
            self._check_pair(ctx.device_id, peer_id)
            self._peers.add((ctx.device_id, peer_id))

    def disable_peer(self, peer_id: int) -> None:
        rt = self.runtime
        with rt.lock:
            ctx = rt.current_context()
            self._check_pair(ctx.device_id, peer_id)
            self._peers.discard((ctx.device_id, peer_id))

    def _check_pair(self, device_id: int, peer_id: int) -> None:
        rt = self.runtime
        rt.check_device_id(peer_id)
        if not rt.soc.peer_access:
            raise FeatureNotSupported(
                f"{{api}}: {rt.soc.soc_version} has no peer access between devices {device_id} and {peer_id}"
            )

    def peer_enabled(self, a: int, b: int) -> bool:
        """Whether a copy between devices a and b may run: either side opened access to the other."""
        return (a, b) in self._peers or (b, a) in self._peers
