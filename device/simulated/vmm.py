"""Virtual memory of the simulated NPU: reserved address ranges, physical handles, maps between them.

This is the driver side of aclrtReserveMemAddress / aclrtMallocPhysical / aclrtMapMem (the calls
llama.cpp's CANN backend builds its growing pool on). Fidelity notes:
- A reservation takes a range of the device's address space and costs no capacity; physical
  memory is charged in whole granules on the device's used / peak (aclrtGetMemInfo sees it, and
  OOM is 207001 where aclrtMalloc would fail), whether or not it is mapped.
- The bytes live with the reserved range (one lazily touched backing, like an allocation's), and
  the spans covered by maps resolve like an allocation: copies, sets and kernels take device
  pointers inside them, also across the boundary of two adjacent maps (a pool's buffer that
  straddles two physical chunks). A pointer into an unmapped part is refused like a wild one.
- A handle is mapped at one place at a time, and its bytes are those of the range it is mapped
  into: a newly mapped span starts as never-written memory (initcheck), and a handle mapped again
  after an unmap does not bring its old bytes with it (a gap, docs/runtime.md).
- The rules (docs/runtime.md, "Virtual memory"): the map starts on a granule of its reservation
  and covers whole granules inside it, never overlapping another map; the offset into the handle
  is 0 (the only value the runtime takes); a reservation is released only once every map in it is
  unmapped, and a physical handle is freed only once it is mapped nowhere. Each break of a rule
  is 107000 with the reason.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..errors import InvalidValue
from ..interface import AllocationInfo, DevicePtr, PageKind
from .heap import MAPPING_TAG, Allocation, Heap


@dataclass(slots=True)
class Physical:
    """One aclrtMallocPhysical handle: its charged size and where it is mapped (0: nowhere)."""

    handle: int
    size: int  # rounded up to the granule: what is charged and mappable
    mapped_at: int = 0


@dataclass(slots=True)
class Reservation:
    addr: int
    size: int
    maps: dict[int, tuple[int, int]] = field(default_factory=dict)  # va -> (size, handle)
    starts: list[int] = field(default_factory=list)  # sorted map starts

    def holds(self, va: int, size: int) -> bool:
        return self.addr <= va and va + size <= self.addr + self.size

    def covers(self, offset: int, nbytes: int) -> bool:
        """Whether [addr + offset, + nbytes) is wholly mapped (adjacent maps join up)."""
        va, end = self.addr + offset, self.addr + offset + nbytes
        i = bisect.bisect_right(self.starts, va) - 1
        while va < end:
            if i < 0 or i >= len(self.starts):
                return False
            start = self.starts[i]
            stop = start + self.maps[start][0]
            if not start <= va < stop:
                return False
            va = stop
            i += 1
        return True


def round_up(size: int, granule: int) -> int:
    return (size + granule - 1) // granule * granule


class VirtualMemory:
    """The reservations and physical handles of one device, and the map / unmap rules between them."""

    def __init__(self, heap: Heap, *, device_id: int, granularity: int) -> None:
        self.heap = heap
        self.granularity = granularity
        self.reservations: dict[int, Reservation] = {}
        self.physical: dict[int, Physical] = {}
        self._next_handle = ((device_id + 1) << 32) | 0x7000_0000

    # -- reservations -----------------------------------------------------------------------
    def reserve(self, size: int) -> DevicePtr:
        size = round_up(size, self.granularity)
        addr = self.heap.reserve_addresses(size, self.granularity)
        res = Reservation(addr, size)
        info = AllocationInfo(addr, size, size, 0, PageKind.HUGE, 0, MAPPING_TAG)
        self.heap.insert_mapping(Allocation(info, mapped=res.covers))
        self.reservations[addr] = res
        return addr

    def release(self, addr: int) -> int:
        res = self.reservations.get(addr)
        if res is None:
            raise InvalidValue(f"{{api}}: {addr:#x} is not the start of a reserved virtual range", addr=addr)
        if res.maps:
            raise InvalidValue(
                f"{{api}}: the range {addr:#x} still has {len(res.maps)} mapping(s) (first at {res.starts[0]:#x}); "
                "unmap them with aclrtUnmapMem before releasing it",
                addr=addr,
            )
        self.heap.remove_mapping(addr)
        del self.reservations[addr]
        return res.size

    def reservation_of(self, va: int, size: int = 1) -> Reservation | None:
        for res in self.reservations.values():
            if res.holds(va, size):
                return res
        return None

    # -- physical memory --------------------------------------------------------------------
    def malloc_physical(self, size: int) -> int:
        rounded = round_up(size, self.granularity)
        self.heap.charge(rounded, f"{rounded} bytes of physical memory")
        self._next_handle += 1
        handle = self._next_handle
        self.physical[handle] = Physical(handle, rounded)
        return handle

    def _physical(self, handle: int) -> Physical:
        phys = self.physical.get(handle)
        if phys is None:
            raise InvalidValue(f"{{api}}: {handle:#x} is not a physical memory handle of this device", handle=handle)
        return phys

    def free_physical(self, handle: int) -> int:
        phys = self._physical(handle)
        if phys.mapped_at:
            raise InvalidValue(
                f"{{api}}: handle {handle:#x} is still mapped at {phys.mapped_at:#x}; unmap it first", handle=handle
            )
        del self.physical[handle]
        self.heap.refund(phys.size)
        return phys.size

    # -- maps -------------------------------------------------------------------------------
    def map(self, va: int, size: int, offset: int, handle: int) -> None:
        phys = self._physical(handle)
        res = self.reservation_of(va, size)
        if res is None:
            raise InvalidValue(
                f"{{api}}: [{va:#x}, +{size}) is not inside one range reserved with aclrtReserveMemAddress", addr=va
            )
        granule = self.granularity
        if (va - res.addr) % granule or size % granule:
            raise InvalidValue(
                f"{{api}}: address {va:#x} and size {size} must be multiples of the granularity {granule}",
                addr=va,
                size=size,
            )
        if offset != 0:
            raise InvalidValue(f"{{api}}: offset {offset} is invalid; the only value taken is 0", offset=offset)
        if size > phys.size:
            raise InvalidValue(f"{{api}}: size {size} exceeds the {phys.size} bytes of handle {handle:#x}", size=size)
        if phys.mapped_at:
            raise InvalidValue(f"{{api}}: handle {handle:#x} is already mapped at {phys.mapped_at:#x}", handle=handle)
        for start, (length, _) in res.maps.items():
            if start < va + size and va < start + length:
                raise InvalidValue(f"{{api}}: [{va:#x}, +{size}) overlaps the mapping at {start:#x}", addr=va)
        alloc = self.heap.get(res.addr)
        assert alloc is not None
        if alloc.written is not None:  # new physical memory: nothing in it was written
            alloc.written.clear(va - res.addr, va - res.addr + size)
        res.maps[va] = (size, handle)
        bisect.insort(res.starts, va)
        phys.mapped_at = va

    def mapping_at(self, va: int) -> tuple[Reservation, int, int] | None:
        """(reservation, size, handle) of the mapping that starts at ``va``."""
        res = self.reservation_of(va)
        if res is None or va not in res.maps:
            return None
        size, handle = res.maps[va]
        return res, size, handle

    def unmap(self, va: int) -> None:
        found = self.mapping_at(va)
        if found is None:
            raise InvalidValue(f"{{api}}: {va:#x} is not the start of a mapping made with aclrtMapMem", addr=va)
        res, _, handle = found
        del res.maps[va]
        res.starts.remove(va)
        self.physical[handle].mapped_at = 0
