"""The simulated HBM: a virtual device address space with exact capacity accounting.

Fidelity notes (spec/runtime.md section 6.1):
- The size asked of the driver is ``ALIGN_UP(size, 32) + pad``; ``pad`` is the SoC's
  ``padding_size`` unless the caller says the padding does not apply (aclrtMallocAlign32,
  the 1 GiB policies). Capacity is charged in whole pages of that size.
- Page policies follow the driver code, not the docs: HUGE_FIRST (and any unknown policy)
  uses 2 MiB pages when the rounded size is over 1 MiB and falls back to 4 KiB pages when
  they do not fit; HUGE_ONLY / NORMAL_ONLY never fall back.
- Bytes live in one lazily created numpy buffer per allocation, never in an HBM-sized array,
  so a 64 GiB part costs nothing until memory is touched. New memory is poisoned (0xFF: NaN in
  every float type), because aclrtMalloc does not clear.
- Addresses only grow (a bump pointer, page-aligned), so a freed address is never handed out
  again and a stale pointer is always detected; the last freed allocations are remembered so
  that a use-after-free report can say what used to be there.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass

import numpy as np

from emulator.device.errors import FeatureNotSupported, InvalidAddress, OutOfMemory
from emulator.device.interface import AllocationInfo, MemInfo, MemPolicy, PageKind

POISON = 0xFF
HUGE_FIRST_THRESHOLD = 1 * 1024 * 1024  # rounded sizes above this try 2 MiB pages first
DEVICE_BASE = 0x12C0_0000_0000  # far from any real host mapping on x86-64 / aarch64 Linux
DEVICE_SPAN = 1 << 40  # each device gets its own terabyte of address space
FREED_REMEMBERED = 256

GIANT_POLICIES = frozenset({MemPolicy.HUGE1G_ONLY, MemPolicy.HUGE1G_ONLY_P2P})
HUGE_POLICIES = frozenset({MemPolicy.HUGE_ONLY, MemPolicy.HUGE_ONLY_P2P})
NORMAL_POLICIES = frozenset({MemPolicy.NORMAL_ONLY, MemPolicy.NORMAL_ONLY_P2P})
GIANT_ONLY = (PageKind.GIANT,)
HUGE_ONLY = (PageKind.HUGE,)
NORMAL_ONLY = (PageKind.NORMAL,)
HUGE_FIRST = (PageKind.HUGE, PageKind.NORMAL)
PAGE_SIZES = {kind: kind.page_size for kind in PageKind}


def rounded_size(size: int, padding: int) -> int:
    """ALIGN_UP(size, 32) + padding: what aclrtMalloc asks of the driver."""
    return (size + 31) // 32 * 32 + padding


def charge(alloc_size: int, kind: PageKind) -> int:
    page = PAGE_SIZES[kind]
    return (alloc_size + page - 1) // page * page


@dataclass(slots=True)
class Allocation:
    info: AllocationInfo
    buffer: np.ndarray | None = None  # created on first touch

    @property
    def addr(self) -> int:
        return self.info.addr

    @property
    def end(self) -> int:
        return self.info.addr + self.info.alloc_size


class Heap:
    """Hands out device addresses and keeps used / peak exact to the byte."""

    def __init__(self, *, device_id: int, capacity: int, padding: int, huge1g: bool) -> None:
        self.capacity = capacity
        self.padding = padding
        self.huge1g = huge1g
        self.used = 0
        self.peak = 0
        self._next = DEVICE_BASE + device_id * DEVICE_SPAN
        self._limit = self._next + DEVICE_SPAN
        self._live: dict[int, Allocation] = {}
        self._starts: list[int] = []  # sorted live start addresses, for interior lookups
        self._freed: deque[AllocationInfo] = deque(maxlen=FREED_REMEMBERED)

    # -- allocation -------------------------------------------------------------------------
    def allocate(self, size: int, policy: int, *, padded: bool, tag: str) -> Allocation:
        base = policy & 0xFF
        giant = base in GIANT_POLICIES
        if giant and not self.huge1g:
            raise FeatureNotSupported(
                "1 GiB pages are not supported on this SoC", policy=policy, feature="HUGE1G pages"
            )
        alloc_size = rounded_size(size, self.padding if padded and not giant else 0)
        kind = self._choose_pages(alloc_size, base)
        if kind is None:
            raise OutOfMemory(
                "Failed to allocate memory requested by APP module.",
                requested=size,
                alloc_size=alloc_size,
                used=self.used,
                capacity=self.capacity,
            )
        charged = charge(alloc_size, kind)
        addr = self._take_address(charged, PAGE_SIZES[kind])
        alloc = Allocation(AllocationInfo(addr, size, alloc_size, charged, kind, policy, tag))
        self._live[addr] = alloc
        self._starts.append(addr)  # addresses only grow, so the list stays sorted
        self.used += charged
        self.peak = max(self.peak, self.used)
        return alloc

    def _choose_pages(self, alloc_size: int, base: int) -> PageKind | None:
        free = self.capacity - self.used
        if base in GIANT_POLICIES:
            order = GIANT_ONLY
        elif base in HUGE_POLICIES:
            order = HUGE_ONLY
        elif base in NORMAL_POLICIES:
            order = NORMAL_ONLY
        elif alloc_size > HUGE_FIRST_THRESHOLD:  # HUGE_FIRST, its P2P twin, and unknown policies
            order = HUGE_FIRST
        else:
            order = NORMAL_ONLY
        for kind in order:
            if charge(alloc_size, kind) <= free:
                return kind
        return None

    def _take_address(self, charged: int, align: int) -> int:
        addr = (self._next + align - 1) // align * align
        self._next = addr + charged
        if self._next > self._limit:  # never in practice: a terabyte of address space per device
            raise OutOfMemory("device address space exhausted", charged=charged)
        return addr

    def release(self, addr: int) -> Allocation:
        alloc = self._live.pop(addr, None)
        if alloc is None:
            raise InvalidAddress(self.describe_bad_address(addr, 0, "free"), addr=addr)
        del self._starts[bisect.bisect_left(self._starts, addr)]
        self.used -= alloc.info.charged
        self._freed.append(alloc.info)
        alloc.buffer = None
        return alloc

    # -- lookups ----------------------------------------------------------------------------
    def get(self, addr: int) -> Allocation | None:
        return self._live.get(addr)

    def live(self) -> list[AllocationInfo]:
        return [a.info for a in self._live.values()]

    def containing(self, addr: int, nbytes: int) -> Allocation | None:
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0:
            return None
        alloc = self._live[self._starts[i]]
        return alloc if addr + max(nbytes, 1) <= alloc.end else None

    def view(self, addr: int, nbytes: int, operation: str) -> np.ndarray:
        """A writable uint8 view of [addr, addr+nbytes); the allocation's buffer is made on first touch."""
        alloc = self.containing(addr, nbytes)
        if alloc is None:
            raise InvalidAddress(self.describe_bad_address(addr, nbytes, operation), addr=addr, nbytes=nbytes)
        if alloc.buffer is None:
            alloc.buffer = np.full(alloc.info.alloc_size, POISON, dtype=np.uint8)
        start = addr - alloc.addr
        return alloc.buffer[start : start + nbytes]

    def view_for_overwrite(self, addr: int, nbytes: int, operation: str) -> np.ndarray:
        """Like view(), but a first touch only poisons the bytes the caller is not about to overwrite."""
        alloc = self.containing(addr, nbytes)
        if alloc is not None and alloc.buffer is None:
            buf = np.empty(alloc.info.alloc_size, dtype=np.uint8)
            start = addr - alloc.addr
            buf[:start] = POISON
            buf[start + nbytes :] = POISON
            alloc.buffer = buf
        return self.view(addr, nbytes, operation)

    def describe_bad_address(self, addr: int, nbytes: int, operation: str) -> str:
        """A sanitizer-style sentence: what the address is not, and what is nearest to it."""
        what = f"{operation} of {nbytes} bytes at {addr:#x}" if nbytes else f"{operation} at {addr:#x}"
        for info in reversed(self._freed):
            if info.addr <= addr < info.addr + info.alloc_size:
                return (
                    f"{what}: the address lies in an allocation that was already freed "
                    f"({info.addr:#x}, {info.size} bytes, tag {info.tag})"
                )
        inside = self.containing(addr, 0)
        if inside is not None:
            info = inside.info
            if addr != info.addr and nbytes == 0:
                return (
                    f"{what}: not the start of an allocation (it is {addr - info.addr} bytes "
                    f"into {info.addr:#x}, {info.size} bytes, tag {info.tag})"
                )
            return (
                f"{what}: runs {addr + nbytes - inside.end} bytes past the end of the allocation "
                f"{info.addr:#x} ({info.alloc_size} addressable bytes, tag {info.tag})"
            )
        nearest = self._nearest(addr)
        if nearest is None:
            return f"{what}: not inside any live device allocation (none is live)"
        info = nearest.info
        return (
            f"{what}: not inside any live device allocation; nearest is {info.addr:#x} "
            f"({info.size} bytes, tag {info.tag})"
        )

    def _nearest(self, addr: int) -> Allocation | None:
        if not self._starts:
            return None
        i = bisect.bisect_right(self._starts, addr)
        candidates = [self._live[self._starts[j]] for j in (i - 1, i) if 0 <= j < len(self._starts)]
        return min(candidates, key=lambda a: min(abs(addr - a.addr), abs(addr - a.end)))

    # -- accounting -------------------------------------------------------------------------
    def mem_info(self, page_kind: PageKind | None) -> MemInfo:
        """Free / total of one page pool; all pools share the one physical HBM."""
        free = self.capacity - self.used
        if page_kind is None:
            return MemInfo(free=free, total=self.capacity)
        if page_kind is PageKind.GIANT and not self.huge1g:
            raise FeatureNotSupported("1 GiB pages are not supported on this SoC", feature="HUGE1G pages")
        page = page_kind.page_size
        return MemInfo(free=free // page * page, total=self.capacity // page * page)
