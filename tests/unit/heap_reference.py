"""The allocator as it was before issue 16, as a reference model for the one-pass heap and the malloc path.

``ReferenceHeap`` restates it plainly: ``memory_rules.alloc_size``, then ``page_preference`` tried
in order with ``charge`` against the free capacity, a bump pointer aligned to the chosen page, a
sorted list of live starts that a free deletes from, and the same sentences for a bad address
(freed ring first, then the allocation it is inside, then the nearest one).
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass

from emulator.device import memory_rules
from emulator.device.errors import DeviceError, FeatureNotSupported, InvalidAddress, OutOfMemory
from emulator.device.interface import AllocationInfo, DevicePtr
from emulator.device.simulated.heap import DEVICE_BASE, FREED_REMEMBERED


@dataclass
class Outcome:
    """What one call gave: a value, or the error's type, status, message and context."""

    value: object = None
    error: tuple[type, int, str, dict[str, object]] | None = None


def outcome(call: object) -> Outcome:
    assert callable(call)
    try:
        return Outcome(value=call())
    except DeviceError as exc:
        return Outcome(error=(type(exc), exc.status, exc.message, dict(exc.context)))


class ReferenceHeap:
    """The allocator before issue 16, written plainly (the rules by name, a real delete on free)."""

    def __init__(self, *, capacity: int, padding: int, huge1g: bool) -> None:
        self.capacity, self.padding, self.huge1g = capacity, padding, huge1g
        self.used = self.peak = 0
        self.next = DEVICE_BASE
        self.live: dict[int, AllocationInfo] = {}
        self.starts: list[int] = []
        self.freed: deque[AllocationInfo] = deque(maxlen=FREED_REMEMBERED)

    def allocate(self, size: int, policy: int, *, padded: bool, tag: str) -> AllocationInfo:
        if memory_rules.is_giant(policy) and not self.huge1g:
            raise FeatureNotSupported(
                "1 GiB pages are not supported on this SoC", policy=policy, feature="HUGE1G pages"
            )
        alloc_size = memory_rules.alloc_size(size, policy, padded=padded, soc_padding=self.padding)
        free = self.capacity - self.used
        kind = next(
            (k for k in memory_rules.page_preference(alloc_size, policy) if memory_rules.charge(alloc_size, k) <= free),
            None,
        )
        if kind is None:
            raise OutOfMemory(
                "Failed to allocate memory requested by APP module.",
                requested=size,
                alloc_size=alloc_size,
                used=self.used,
                capacity=self.capacity,
                hbm_limit=None,
            )
        charged = memory_rules.charge(alloc_size, kind)
        page = kind.page_size
        addr = (self.next + page - 1) // page * page
        self.next = addr + charged
        info = AllocationInfo(DevicePtr(addr), size, alloc_size, charged, kind, policy, tag)
        self.live[addr] = info
        self.starts.append(addr)
        self.used += charged
        self.peak = max(self.peak, self.used)
        return info

    def release(self, addr: int) -> AllocationInfo:
        info = self.live.pop(addr, None)
        if info is None:
            raise InvalidAddress(self.describe(addr, 0, "free"), addr=addr)
        del self.starts[bisect.bisect_left(self.starts, addr)]
        self.used -= info.charged
        self.freed.append(info)
        return info

    def containing(self, addr: int, nbytes: int) -> AllocationInfo | None:
        i = bisect.bisect_right(self.starts, addr) - 1
        if i < 0:
            return None
        info = self.live[self.starts[i]]
        return info if addr + max(nbytes, 1) <= info.addr + info.alloc_size else None

    def describe(self, addr: int, nbytes: int, operation: str) -> str:
        what = f"{operation} of {nbytes} bytes at {addr:#x}" if nbytes else f"{operation} at {addr:#x}"
        for info in reversed(self.freed):
            if info.addr <= addr < info.addr + info.alloc_size:
                return (
                    f"{what}: the address lies in an allocation that was already freed "
                    f"({info.addr:#x}, {info.size} bytes, tag {info.tag})"
                )
        inside = self.containing(addr, 0)
        if inside is not None:
            if addr != inside.addr and nbytes == 0:
                return (
                    f"{what}: not the start of an allocation (it is {addr - inside.addr} bytes "
                    f"into {inside.addr:#x}, {inside.size} bytes, tag {inside.tag})"
                )
            return (
                f"{what}: runs {addr + nbytes - inside.addr - inside.alloc_size} bytes past the end of the "
                f"allocation {inside.addr:#x} ({inside.alloc_size} addressable bytes, tag {inside.tag})"
            )
        if not self.starts:
            return f"{what}: not inside any live device allocation (none is live)"
        i = bisect.bisect_right(self.starts, addr)
        near = [self.live[self.starts[j]] for j in (i - 1, i) if 0 <= j < len(self.starts)]
        best = min(near, key=lambda a: min(abs(addr - a.addr), abs(addr - a.addr - a.alloc_size)))
        return (
            f"{what}: not inside any live device allocation; nearest is {best.addr:#x} "
            f"({best.size} bytes, tag {best.tag})"
        )
