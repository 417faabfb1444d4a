"""Pinned host memory (aclrtMallocHost): real, writable process memory the device knows about.

Clients write into it with ctypes and read it back with numpy, so the address handed out is a
real one: the start of a numpy buffer this table keeps alive until ``free_host``. Sizes are
rounded and starts aligned by the runtime's rules (``device/memory_rules.py``: 32 and 64 bytes).
Pinned memory is host RAM the program will use whole, so all of it is charged on the host budget
at allocation: a buffer the budget cannot hold is refused with 207001 before any RAM is taken.

Thread safety: the table has its own leaf lock. ``classify`` asks it about every copy's two ends
without the device lock (which a long kernel on another stream may hold), while other threads
allocate and free; the lock keeps the sorted starts and the buffers in step for those readers.
Nothing is called while it is held.
"""

from __future__ import annotations

import bisect
import ctypes
import threading

import numpy as np

from ..errors import HostBudgetExceeded, InvalidAddress
from ..host_budget import HostBudget, format_bytes
from ..memory_rules import PINNED_ALIGN, pinned_size


class PinnedHost:
    def __init__(self, budget: HostBudget | None = None) -> None:
        self.budget = budget if budget is not None else HostBudget()
        self._buffers: dict[int, tuple[np.ndarray, int]] = {}  # address -> (owning buffer, size)
        self._starts: list[int] = []
        self.used = 0
        self._lock = threading.Lock()  # guards _buffers, _starts and used together

    def allocate(self, size: int) -> int:
        rounded = pinned_size(size)
        what = f"aclrtMallocHost of {format_bytes(rounded)}"
        self.budget.charge(rounded, what)
        try:
            raw = np.empty(rounded + PINNED_ALIGN, dtype=np.uint8)
        except MemoryError:
            self.budget.refund(rounded)
            raise HostBudgetExceeded(f"{what}: the host has no memory left for it", size=rounded) from None
        offset = (-raw.ctypes.data) % PINNED_ALIGN
        addr = raw.ctypes.data + offset
        with self._lock:
            self._buffers[addr] = (raw, rounded)
            bisect.insort(self._starts, addr)
            self.used += rounded
        return addr

    def release(self, addr: int) -> int:
        with self._lock:
            entry = self._buffers.pop(addr, None)
            if entry is not None:
                del self._starts[bisect.bisect_left(self._starts, addr)]
                self.used -= entry[1]
        if entry is None:
            raise InvalidAddress(f"free_host of {addr:#x}: not an address returned by aclrtMallocHost", addr=addr)
        self.budget.refund(entry[1])
        return entry[1]

    def size_of(self, addr: int) -> int:
        """Rounded size of the pinned buffer starting at ``addr`` (1 for an unknown address)."""
        with self._lock:
            entry = self._buffers.get(addr)
        return entry[1] if entry is not None else 1

    def contains(self, addr: int) -> bool:
        with self._lock:
            i = bisect.bisect_right(self._starts, addr) - 1
            if i < 0:
                return False
            start = self._starts[i]
            return addr < start + self._buffers[start][1]

    def live(self) -> dict[int, int]:
        with self._lock:
            return {addr: size for addr, (_, size) in self._buffers.items()}


def host_view(addr: int, nbytes: int) -> np.ndarray:
    """A uint8 view of real process memory at ``addr`` (numpy data, bytes buffers, pinned memory)."""
    # memoryview: numpy's stubs do not list ctypes arrays as buffers, though they are
    return np.frombuffer(memoryview((ctypes.c_uint8 * nbytes).from_address(addr)), dtype=np.uint8)
