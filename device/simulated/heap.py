"""The simulated HBM: a virtual device address space with exact capacity accounting.

Fidelity notes (the real aclrtMalloc's rules):
- Sizes, padding, page choice and page-granular charging are the real runtime's rules and live
  in ``device/memory_rules.py``, shared with the real-card backend; this module applies them
  to a finite capacity: the first page kind of the policy's preference that still fits is
  used (so HUGE_FIRST falls back to 4 KiB pages when 2 MiB pages do not fit), none is 207001.
- Bytes live in one lazily created ``Backing`` per allocation, never in an HBM-sized array, and
  cost host RAM only per touched 64 KiB chunk, charged first on the host budget: a 64 GiB part
  costs nothing until memory is touched, and touching one byte of it costs one chunk. New memory
  reads as poison (0xFF: NaN in every float type), because aclrtMalloc does not clear.
- The views handed to one operation (a kernel's arguments, a copy's two ends) are paid for
  together, before any is touched: an operation the host budget cannot back fails with 207001
  having touched nothing.
- Which bytes have been written is kept per allocation (``WrittenBytes``, made at the first
  write), for initcheck: a kernel that computes from never-written bytes is reported.
- Addresses only grow (a bump pointer, page-aligned), so a freed address is never handed out
  again and a stale pointer is always detected; the last freed allocations are remembered so
  that a use-after-free report can say what used to be there.

Thread safety: the tables (live allocations, their sorted starts, the freed ring, used / peak and
the bump pointer) have the heap's own leaf lock, because some callers read them without the
device lock (aclrtGetMemInfo, the leak report's live list, classify) while another thread
allocates. The bytes of an allocation are not under it: the device lock (SimulatedNpu.lock)
orders every task and synchronous copy that touches them.
"""

from __future__ import annotations

import bisect
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .. import memory_rules
from ..errors import FeatureNotSupported, HostBudgetExceeded, InvalidAddress, OutOfMemory
from ..host_budget import HostBudget, format_bytes
from ..interface import AllocationInfo, DevicePtr, MemInfo, PageKind
from ..memory_rules import HUGE_FIRST_THRESHOLD, SIZE_ALIGN
from .backing import POISON, Backing
from .written import WrittenBytes

__all__ = ["MAPPING_TAG", "POISON", "Allocation", "Heap"]
DEVICE_BASE = 0x12C0_0000_0000  # far from any real host mapping on x86-64 / aarch64 Linux
DEVICE_SPAN = 1 << 40  # each device gets its own terabyte of address space
FREED_REMEMBERED = 256
STALE_SLACK = 64  # stale starts kept before a compaction is considered (see Heap._forget_start)
MAPPING_TAG = "vmm range"  # an entry of the live table that is a reserved virtual range (not an aclrtMalloc)


@dataclass(slots=True)
class Allocation:
    info: AllocationInfo
    buffer: Backing | None = None  # created on first touch
    written: WrittenBytes | None = None  # created on first write: None is "no byte written yet"
    # a reserved virtual range: which (offset, nbytes) spans of it are mapped (only those resolve)
    mapped: Callable[[int, int], bool] | None = None

    def written_state(self) -> WrittenBytes:
        if self.written is None:
            self.written = WrittenBytes(self.info.alloc_size)
        return self.written

    @property
    def addr(self) -> DevicePtr:
        return self.info.addr

    @property
    def end(self) -> int:
        return self.info.addr + self.info.alloc_size


class Heap:
    """Hands out device addresses and keeps used / peak exact to the byte."""

    def __init__(
        self,
        *,
        device_id: int,
        capacity: int,
        padding: int,
        huge1g: bool,
        budget: HostBudget | None = None,
        limit: int | None = None,
    ) -> None:
        # OPBASE_EMU_HBM_LIMIT: a smaller card, so a test reaches 207001 without allocating the SoC's whole HBM
        self.limit = limit
        self.capacity = capacity if limit is None else min(capacity, limit)
        self.budget = budget if budget is not None else HostBudget()
        self.padding = padding
        self.huge1g = huge1g
        self.used = 0
        self.peak = 0
        self._next = DEVICE_BASE + device_id * DEVICE_SPAN
        self._limit = self._next + DEVICE_SPAN
        self._live: dict[int, Allocation] = {}
        # sorted start addresses, for interior lookups: every live one, and up to about as many
        # stale ones of freed allocations (see _forget_start)
        self._starts: list[int] = []
        self._stale = 0
        self._freed: deque[AllocationInfo] = deque(maxlen=FREED_REMEMBERED)
        self._lock = threading.RLock()  # leaf: guards the tables above and used / peak, never held across a call out

    # -- allocation -------------------------------------------------------------------------
    def allocate(self, size: int, policy: int, *, padded: bool, tag: str) -> Allocation:
        """memory_rules' sizing, page choice and charge, applied in one pass (this runs on every aclrtMalloc).

        The same steps as ``alloc_size`` → ``page_preference`` → ``charge`` (tests/unit/test_heap_model.py
        holds it to them), read from the policy's precomputed ``PolicyRule``.
        """
        rule = memory_rules.POLICY_RULES.get(policy & 0xFF, memory_rules.OTHER_POLICY_RULE)
        if rule.giant:
            if not self.huge1g:
                raise FeatureNotSupported(
                    "1 GiB pages are not supported on this SoC", policy=policy, feature="HUGE1G pages"
                )
            pad = 0
        else:
            pad = self.padding if padded else 0
        alloc_size = (size + SIZE_ALIGN - 1) // SIZE_ALIGN * SIZE_ALIGN + pad
        tries = rule.large if alloc_size > HUGE_FIRST_THRESHOLD else rule.small
        with self._lock:
            free = self.capacity - self.used
            # the first page kind of the policy's preference whose whole pages fit (kind and page outlive the loop)
            for kind, page in tries:  # noqa: B007
                charged = (alloc_size + page - 1) // page * page
                if charged <= free:
                    break
            else:
                raise OutOfMemory(
                    "Failed to allocate memory requested by APP module.",
                    requested=size,
                    alloc_size=alloc_size,
                    used=self.used,
                    capacity=self.capacity,
                    hbm_limit=self.limit,
                )
            addr = DevicePtr((self._next + page - 1) // page * page)
            self._next = addr + charged
            if self._next > self._limit:  # never in practice: a terabyte of address space per device
                raise OutOfMemory("device address space exhausted", charged=charged)
            alloc = Allocation(AllocationInfo(addr, size, alloc_size, charged, kind, policy, tag))
            self._live[addr] = alloc
            self._starts.append(addr)  # addresses only grow, so the list stays sorted
            used = self.used = self.used + charged
            if used > self.peak:
                self.peak = used
        return alloc

    def _take_address(self, charged: int, align: int) -> DevicePtr:
        addr = (self._next + align - 1) // align * align
        self._next = addr + charged
        if self._next > self._limit:  # never in practice: a terabyte of address space per device
            raise OutOfMemory("device address space exhausted", charged=charged)
        return DevicePtr(addr)

    def release(self, addr: int) -> Allocation:
        with self._lock:
            alloc = self._live.get(addr)
            if alloc is None:
                raise InvalidAddress(self.describe_bad_address(addr, 0, "free"), addr=addr)
            info = alloc.info
            if info.tag == MAPPING_TAG:
                raise InvalidAddress(
                    f"free at {addr:#x}: the address is a reserved virtual range (aclrtUnmapMem, "
                    "aclrtReleaseMemAddress), not an aclrtMalloc allocation",
                    addr=addr,
                )
            del self._live[addr]
            self._forget_start()
            self.used -= info.charged
            self._freed.append(info)
        if alloc.buffer is not None:
            self.budget.refund(alloc.buffer.charged)
            alloc.buffer = None  # the mapping goes with the last view of it
        return alloc

    def _forget_start(self) -> None:
        """A start left ``_live``: it stays in ``_starts`` until stale starts outnumber the live ones.

        Deleting from the middle of the sorted list moved every later start (O(live) per free);
        a stale start is harmless to the lookups, because no two ranges of the address space
        ever overlap: an address inside a live allocation finds that allocation's start, or a
        stale one inside it — which cannot exist. The compaction makes a free O(1) amortised.
        """
        self._stale += 1
        if self._stale > STALE_SLACK and self._stale > len(self._live):
            live = self._live
            self._starts = [start for start in self._starts if start in live]
            self._stale = 0

    # -- virtual memory (device/simulated/vmm.py keeps the rules) ------------------------------
    def reserve_addresses(self, size: int, align: int) -> DevicePtr:
        """A range of this device's address space that no allocation will ever take."""
        with self._lock:
            return self._take_address(size, align)

    def charge(self, size: int, what: str) -> None:
        """Physical memory counted in used / peak, as an aclrtMalloc of whole pages is."""
        with self._lock:
            if self.used + size > self.capacity:
                raise OutOfMemory(f"Failed to allocate {what}.", requested=size, used=self.used, capacity=self.capacity)
            self.used += size
            self.peak = max(self.peak, self.used)

    def refund(self, size: int) -> None:
        with self._lock:
            self.used -= size

    def insert_mapping(self, alloc: Allocation) -> None:
        """A reserved range: its mapped spans resolve like an allocation for copies and kernels."""
        with self._lock:
            self._live[alloc.addr] = alloc
            bisect.insort(self._starts, alloc.addr)

    def remove_mapping(self, addr: int) -> Allocation:
        with self._lock:
            alloc = self._live.pop(addr)
            self._forget_start()
        if alloc.buffer is not None:
            self.budget.refund(alloc.buffer.charged)
            alloc.buffer = None
        return alloc

    # -- lookups ----------------------------------------------------------------------------
    def get(self, addr: int) -> Allocation | None:
        return self._live.get(addr)

    def live(self) -> list[AllocationInfo]:
        """The live aclrtMalloc allocations (a virtual-memory mapping is not one: its physical memory is)."""
        with self._lock:
            return [a.info for a in self._live.values() if a.info.tag != MAPPING_TAG]

    def containing(self, addr: int, nbytes: int) -> Allocation | None:
        with self._lock:
            i = bisect.bisect_right(self._starts, addr) - 1
            if i < 0:
                return None
            alloc = self._live.get(self._starts[i])  # a stale start: addr is in no live allocation
        if alloc is None or addr + max(nbytes, 1) > alloc.end:
            return None
        if alloc.mapped is not None and not alloc.mapped(addr - alloc.addr, max(nbytes, 1)):
            return None  # inside a reserved range, but not (wholly) mapped
        return alloc

    def view(self, addr: int, nbytes: int, operation: str) -> np.ndarray:
        """A writable uint8 view of [addr, addr+nbytes); chunks touched for the first time get the poison."""
        return self.views([(addr, nbytes)], operation)[0]

    def views(self, spans: Sequence[tuple[int, int]], operation: str) -> list[np.ndarray]:
        """Views of every (addr, nbytes) span, all or nothing: the first touches are paid for together."""
        found = [(self._located(addr, nbytes, operation), addr, nbytes) for addr, nbytes in spans]
        need: dict[int, tuple[Backing, np.ndarray]] = {}
        for alloc, addr, nbytes in found:
            backing = self._backing(alloc, operation)
            start = addr - alloc.addr
            chunks = backing.missing(start, start + nbytes)
            if len(chunks):
                earlier = need.get(alloc.addr)
                need[alloc.addr] = (backing, chunks if earlier is None else np.union1d(earlier[1], chunks))
        if need:
            cost = sum(backing.cost(chunks) for backing, chunks in need.values())
            self.budget.charge(cost, f"{operation} (first touch of {format_bytes(cost)} of device memory)")
            for backing, chunks in need.values():
                backing.touch(chunks)
        return [self._slice(alloc, addr, nbytes) for alloc, addr, nbytes in found]

    def view_for_overwrite(self, addr: int, nbytes: int, operation: str) -> np.ndarray:
        """Like view(), but the bytes the caller is about to overwrite are not poisoned first."""
        alloc = self._located(addr, nbytes, operation)
        backing = self._backing(alloc, operation)
        start = addr - alloc.addr
        chunks = backing.missing(start, start + nbytes)
        if len(chunks):
            cost = backing.cost(chunks)
            self.budget.charge(cost, f"{operation} (first touch of {format_bytes(cost)} of device memory)")
            backing.touch(chunks, keep=(start, start + nbytes))
        return self._slice(alloc, addr, nbytes)

    def read_into(self, addr: int, out: np.ndarray, operation: str) -> None:
        """Copy [addr, addr+len(out)) into ``out``; never-touched chunks read as poison and stay untouched."""
        alloc = self._located(addr, len(out), operation)
        if alloc.buffer is None:
            out.fill(POISON)
            return
        alloc.buffer.read_into(addr - alloc.addr, out)

    def _located(self, addr: int, nbytes: int, operation: str) -> Allocation:
        alloc = self.containing(addr, nbytes)
        if alloc is None:
            raise InvalidAddress(self.describe_bad_address(addr, nbytes, operation), addr=addr, nbytes=nbytes)
        return alloc

    @staticmethod
    def _backing(alloc: Allocation, operation: str) -> Backing:
        if alloc.buffer is None:
            try:
                alloc.buffer = Backing(alloc.info.alloc_size)
            except (OSError, MemoryError) as exc:
                raise HostBudgetExceeded(
                    f"{operation}: the host refused to map {format_bytes(alloc.info.alloc_size)} "
                    f"to back the allocation at {alloc.addr:#x} ({exc})",
                    addr=alloc.addr,
                ) from None
        return alloc.buffer

    @staticmethod
    def _slice(alloc: Allocation, addr: int, nbytes: int) -> np.ndarray:
        assert alloc.buffer is not None  # every caller made the backing first
        start = addr - alloc.addr
        return alloc.buffer.array[start : start + nbytes]

    @property
    def host_bytes(self) -> int:
        """Host RAM the touched chunks of the live allocations cost."""
        with self._lock:  # an allocation on another thread changes the table (it takes only this lock)
            return sum(a.buffer.charged for a in self._live.values() if a.buffer is not None)

    # -- written state (initcheck) ----------------------------------------------------------
    def _span(self, addr: int, nbytes: int) -> tuple[Allocation, int] | None:
        alloc = self.containing(addr, nbytes)
        return (alloc, addr - alloc.addr) if alloc is not None else None

    def mark_written(self, addr: int, nbytes: int) -> None:
        found = self._span(addr, nbytes)
        if found is not None and nbytes > 0:
            alloc, start = found
            alloc.written_state().mark(start, start + nbytes)

    def unwritten(self, addr: int, nbytes: int) -> tuple[int, int]:
        """(never-written bytes in [addr, addr+nbytes), address of the first one or -1)."""
        found = self._span(addr, nbytes)
        if found is None or nbytes <= 0:
            return 0, -1
        alloc, start = found
        if alloc.written is None:
            return nbytes, addr
        count, first = alloc.written.unwritten(start, start + nbytes)
        return count, alloc.addr + first if count else -1

    def written_mask(self, addr: int, nbytes: int) -> np.ndarray:
        """Bool per byte of [addr, addr+nbytes): True where written."""
        found = self._span(addr, nbytes)
        if found is None:
            return np.ones(nbytes, dtype=bool)
        alloc, start = found
        if alloc.written is None:
            return np.zeros(nbytes, dtype=bool)
        return alloc.written.written_mask(start, start + nbytes)

    def assign_written(self, addr: int, written: np.ndarray) -> None:
        """The written state of [addr, addr+len(written)) becomes exactly ``written``."""
        found = self._span(addr, len(written))
        if found is not None and len(written):
            alloc, start = found
            alloc.written_state().assign(start, written)

    def copy_written(self, dst: int, src: int, nbytes: int) -> None:
        """A device-to-device copy moves the written state with the bytes (never-written stays so)."""
        if nbytes <= 0:
            return
        count, _ = self.unwritten(src, nbytes)
        if count == 0:
            self.mark_written(dst, nbytes)
        else:
            self.assign_written(dst, self.written_mask(src, nbytes))

    def allocation_start(self, addr: int) -> int:
        alloc = self.containing(addr, 0)
        return alloc.addr if alloc is not None else addr

    def describe_bad_address(self, addr: int, nbytes: int, operation: str) -> str:
        """A sanitizer-style sentence: what the address is not, and what is nearest to it."""
        with self._lock:
            return self._describe_bad_address(addr, nbytes, operation)

    def _describe_bad_address(self, addr: int, nbytes: int, operation: str) -> str:
        what = f"{operation} of {nbytes} bytes at {addr:#x}" if nbytes else f"{operation} at {addr:#x}"
        for info in reversed(self._freed):
            if info.addr <= addr < info.addr + info.alloc_size:
                return (
                    f"{what}: the address lies in an allocation that was already freed "
                    f"({info.addr:#x}, {info.size} bytes, tag {info.tag})"
                )
        reserved = self._reserved_range(addr)
        if reserved is not None:
            return (
                f"{what}: inside the virtual range reserved at {reserved.addr:#x} ({reserved.info.size} bytes), "
                "but not mapped over the whole span (aclrtMapMem)"
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

    def _reserved_range(self, addr: int) -> Allocation | None:
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0:
            return None
        alloc = self._live.get(self._starts[i])
        return alloc if alloc is not None and alloc.mapped is not None and addr < alloc.end else None

    def _nearest(self, addr: int) -> Allocation | None:
        """The live allocation (or mapping) closest to ``addr``: the one before it or the one after it."""
        starts, live = self._starts, self._live
        i = bisect.bisect_right(starts, addr)
        before = next((live[s] for s in reversed(starts[:i]) if s in live), None)  # stale starts are skipped
        after = next((live[s] for s in starts[i:] if s in live), None)
        candidates = [a for a in (before, after) if a is not None]
        if not candidates:
            return None
        return min(candidates, key=lambda a: min(abs(addr - a.addr), abs(addr - a.end)))

    # -- accounting -------------------------------------------------------------------------
    def mem_info(self, page_kind: PageKind | None) -> MemInfo:
        """Free / total of one page pool; all pools share the one physical HBM."""
        with self._lock:
            free = self.capacity - self.used
        if page_kind is None:
            return MemInfo(free=free, total=self.capacity)
        if page_kind is PageKind.GIANT and not self.huge1g:
            raise FeatureNotSupported("1 GiB pages are not supported on this SoC", feature="HUGE1G pages")
        page = page_kind.page_size
        return MemInfo(free=free // page * page, total=self.capacity // page * page)
