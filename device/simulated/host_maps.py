"""Which host addresses this process may read or write, decided without touching them.

A copy to or from a host pointer dereferences it with ctypes; a garbage pointer (0xdeadbeef000,
a freed buffer, the top page of user space) would kill the interpreter with SIGSEGV, where the
card's runtime returns an error. So every host end of a copy is checked first against the
process's own memory map, ``/proc/self/maps``.

Why the map and not a probe: ``process_vm_readv`` on ourselves is refused by some seccomp
profiles (containers), a pipe-write probe reads every byte (twice the cost of the copy) and
cannot tell whether memory is writable; the map answers both questions, for any size, with one
bisect. The map is parsed once and cached; a range it does not cover triggers one fresh read
before the range is refused, so memory mapped after the last read (a new numpy array) is found.
A cached map can be stale the other way too (a large numpy array freed since is unmapped, and a
dangling pointer to it would still pass), so a hit is confirmed by ``mincore(2)``, one system
call that fails with ENOMEM for a range holding an unmapped page and never touches the memory;
a failure there refreshes the map. What stays out of reach: a pointer into a buffer freed back
to the allocator's heap (still mapped, so it passes, as it does on the card), a permission
changed by ``mprotect`` since the last read, and another thread unmapping the range between the
check and the copy.

Where there is no ``/proc`` (not Linux) the check cannot be made and every range passes.
"""

from __future__ import annotations

import bisect
import ctypes
import mmap
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MAPS = Path("/proc/self/maps")
USER_SPACE_END = 1 << 64  # a range that wraps past this is never valid
PAGE = mmap.PAGESIZE
Mincore = Callable[[int, int, "ctypes.Array[ctypes.c_char]"], int]


def _libc_mincore() -> Mincore | None:
    try:
        func = ctypes.CDLL(None, use_errno=True).mincore
    except (OSError, AttributeError):
        return None
    func.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
    func.restype = ctypes.c_int
    mincore: Mincore = func
    return mincore


def still_mapped(mincore: Mincore | None, addr: int, nbytes: int) -> bool:
    """Whether every page of the range is mapped now (True when mincore is not there to ask)."""
    if mincore is None or nbytes == 0:
        return True
    start = addr - addr % PAGE
    length = addr + nbytes - start
    vec = ctypes.create_string_buffer((length + PAGE - 1) // PAGE)
    return bool(mincore(start, length, vec) == 0)


@dataclass(frozen=True, slots=True)
class Intervals:
    """Sorted, merged [start, end) ranges that share one permission."""

    starts: list[int]
    ends: list[int]

    def covers(self, addr: int, nbytes: int) -> bool:
        i = bisect.bisect_right(self.starts, addr) - 1
        return i >= 0 and addr + nbytes <= self.ends[i]

    @classmethod
    def merged(cls, ranges: list[tuple[int, int]]) -> Intervals:
        starts: list[int] = []
        ends: list[int] = []
        for start, end in sorted(ranges):
            if ends and start <= ends[-1]:
                ends[-1] = max(ends[-1], end)
            else:
                starts.append(start)
                ends.append(end)
        return cls(starts, ends)


@dataclass(frozen=True, slots=True)
class Snapshot:
    readable: Intervals
    writable: Intervals


# the kernel's special mappings: pages of [vvar] may not be backed (a read can raise SIGBUS) and
# [vsyscall] is execute-only on current kernels, so no copy may use them whatever their flags say
KERNEL_MAPPINGS = ("[vvar", "[vsyscall]")


def parse_maps(text: str) -> Snapshot:
    """The readable and the writable ranges of a ``/proc/<pid>/maps`` text."""
    readable: list[tuple[int, int]] = []
    writable: list[tuple[int, int]] = []
    for line in text.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) < 2 or "-" not in fields[0]:
            continue
        if len(fields) == 6 and fields[5].startswith(KERNEL_MAPPINGS):
            continue
        lo, _, hi = fields[0].partition("-")
        span = (int(lo, 16), int(hi, 16))
        if fields[1][:1] == "r":
            readable.append(span)
        if fields[1][1:2] == "w":
            writable.append(span)
    return Snapshot(Intervals.merged(readable), Intervals.merged(writable))


class HostMaps:
    """The cached memory map of this process; safe to share between threads.

    Readers use whichever snapshot is current (a snapshot is immutable and replaced whole), so
    the hot path takes no lock; a refresh is serialised so that a burst of misses reads the file
    once per miss, not once per thread.
    """

    def __init__(self, source: Path = MAPS) -> None:
        self._source = source
        self._refresh_lock = threading.Lock()
        self._snapshot: Snapshot | None = None
        self.available = True
        self.refreshes = 0
        # mincore answers for this process only: a map read from elsewhere (a test's file) is not confirmed
        self._mincore = _libc_mincore() if source == MAPS and os.name == "posix" else None

    def refusal(self, addr: int, nbytes: int, *, write: bool) -> str | None:
        """Why [addr, addr + nbytes) may not be accessed (read, or written with ``write``); None if it may."""
        if addr < 0 or nbytes < 0 or addr + nbytes > USER_SPACE_END:
            return "is outside the process's address space"
        snapshot = self._snapshot
        if (
            snapshot is not None
            and self._allows(snapshot, addr, nbytes, write)
            and still_mapped(self._mincore, addr, nbytes)
        ):
            return None
        snapshot = self._refresh()
        if snapshot is None or self._allows(snapshot, addr, nbytes, write):
            return None
        if write and snapshot.readable.covers(addr, nbytes):
            return "is mapped read-only in this process"
        if snapshot.readable.covers(addr, 1):
            return "runs past the end of the memory mapped in this process"
        return "is not mapped in this process (a garbage or freed host pointer)"

    @staticmethod
    def _allows(snapshot: Snapshot, addr: int, nbytes: int, write: bool) -> bool:
        if nbytes == 0:
            return True
        return (snapshot.writable if write else snapshot.readable).covers(addr, nbytes)

    def _refresh(self) -> Snapshot | None:
        if not self.available:
            return None
        with self._refresh_lock:
            try:
                text = self._source.read_text(encoding="ascii", errors="replace")
            except OSError:
                self.available = False
                return None
            self._snapshot = parse_maps(text)
            self.refreshes += 1
            return self._snapshot


_this_process: HostMaps | None = None
_this_process_lock = threading.Lock()


def this_process() -> HostMaps:
    """The memory map of this OS process, shared by every simulated device in it.

    The map belongs to the OS process, not to an emulated one: a fresh emulated process (a test
    run makes thousands) sees the same mappings, so it starts from the last snapshot instead of
    reading and parsing ``/proc/self/maps`` again. A stale snapshot is harmless for the reasons
    the module docstring gives (a miss refreshes it, a hit is confirmed by ``mincore``).
    """
    global _this_process
    with _this_process_lock:
        if _this_process is None:
            _this_process = HostMaps()
        return _this_process
