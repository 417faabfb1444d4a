"""The host-RAM budget: how much real memory the simulated devices and pinned host buffers may use.

Device memory is backed by host RAM only where it is touched, and Linux overcommits, so waiting
for MemoryError (or the OOM killer) is no limit at all: a program that touches more simulated HBM
than the host has would take the machine down. Instead every byte of host RAM the emulator puts
behind a device chunk or an aclrtMallocHost buffer is charged here first, and a charge that would
pass the limit fails with the runtime's out-of-memory status (207001) and a message that names the
budget. One budget is shared by every device of an emulated process.

The limit is ``OPBASE_EMU_HOST_BUDGET`` bytes when set, else ``DEFAULT_FRACTION`` of the memory the
host had available (``MemAvailable`` in /proc/meminfo) when the budget was made, and never less
than ``DEFAULT_FLOOR``.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .errors import HostBudgetExceeded

DEFAULT_FRACTION = 0.5  # of MemAvailable at start: leaves the rest to the program, its numpy data, the OS
# Never less than this: MemAvailable is read once, at one instant, and a moment of memory pressure
# elsewhere on the host (a build, another test run) must not leave a process a budget of a few
# bytes that fails every copy for the rest of its life.
DEFAULT_FLOOR = 256 << 20
FALLBACK_AVAILABLE = 8 << 30  # when /proc/meminfo cannot be read (not Linux)
MEMINFO = Path("/proc/meminfo")
BUDGET_VARIABLE = "OPBASE_EMU_HOST_BUDGET"


def available_host_memory(meminfo: Path = MEMINFO) -> int:
    """MemAvailable in bytes: what the kernel says can be allocated without swapping."""
    try:
        for line in meminfo.read_text(encoding="ascii", errors="replace").splitlines():
            name, _, rest = line.partition(":")
            if name == "MemAvailable":
                return int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return FALLBACK_AVAILABLE


def default_limit(meminfo: Path = MEMINFO) -> int:
    return max(int(available_host_memory(meminfo) * DEFAULT_FRACTION), DEFAULT_FLOOR)


def format_bytes(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}"
    return f"{n} bytes"


class HostBudget:
    """A thread-safe byte counter with a hard limit.

    Its lock is a leaf: nothing else is locked while it is held, so any caller holding a
    device's lock may charge or refund.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = default_limit() if limit is None else limit
        self._used = 0
        self._peak = 0
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        return self._used

    @property
    def peak(self) -> int:
        return self._peak

    def charge(self, nbytes: int, what: str) -> None:
        """Take ``nbytes`` of host RAM for ``what``, or raise HostBudgetExceeded taking nothing."""
        if nbytes <= 0:
            return
        with self._lock:
            if self._used + nbytes > self.limit:
                raise HostBudgetExceeded(
                    f"{what} needs {format_bytes(nbytes)} more host RAM to back it, but "
                    f"{format_bytes(self._used)} of the emulator's host memory budget of "
                    f"{format_bytes(self.limit)} is in use (set {BUDGET_VARIABLE}=BYTES to change the budget)",
                    needed=nbytes,
                    used=self._used,
                    budget=self.limit,
                )
            self._used += nbytes
            self._peak = max(self._peak, self._used)

    def refund(self, nbytes: int) -> None:
        with self._lock:
            self._used -= nbytes
