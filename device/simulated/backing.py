"""The host bytes behind one device allocation, paid for chunk by chunk as they are touched.

aclrtMalloc does not clear memory, so every byte a program reads before writing must look like
garbage (the poison, 0xFF: NaN in every float type). Filling a whole allocation with it at the
first touch would cost host RAM for all of it: a 16 GiB malloc followed by a 4-byte copy would
need 16 GiB. So:

- A large allocation is an anonymous private mapping made without a swap reservation: the
  kernel gives its pages on first write, so untouched memory costs nothing and a contiguous
  view of any range is a plain numpy slice (kernels see ordinary arrays, no copies).
- The poison is virtual: a bitmap says which ``CHUNK``-sized pieces have been touched. A chunk
  gets its poison (and its charge on the host budget) when first handed out for reading or
  writing, except the bytes the caller is about to overwrite, which are never poisoned at all.
  A copy *out of* an untouched chunk writes the poison into the destination without touching
  the source.
- A small allocation uses an ordinary numpy buffer (the same chunk rules apply): one mapping
  per buffer would spend the process's limited number of mappings on buffers worth a few KiB.
"""

from __future__ import annotations

import contextlib
import mmap

import numpy as np

CHUNK = 64 * 1024  # the granularity of touching: small enough that a touched byte costs little
PAGE = 4096  # what the host actually spends on a partly used chunk at the end of a buffer
MAPPED_MIN = 4 * CHUNK  # from this size on, an allocation is backed by its own mapping
POISON = 0xFF
# MAP_NORESERVE: the mapping is not counted against the overcommit limit (a 64 GiB mapping on a
# smaller host is refused without it). Python's mmap module does not export it; 0x4000 is its
# value on Linux x86-64 and aarch64.
MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)
HUGE_PAGE = 2 * 1024 * 1024  # a transparent huge page on x86-64 and aarch64 (4 KiB base pages)


class Backing:
    """The bytes of one allocation of ``size`` bytes and which of its chunks have been touched."""

    __slots__ = ("_map", "_touched", "array", "charged", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._map: mmap.mmap | None = None
        if size >= MAPPED_MIN:
            self._map = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_NORESERVE)
            if hasattr(mmap, "MADV_NOHUGEPAGE"):  # a huge page would spend 2 MiB on one touched byte
                with contextlib.suppress(OSError):  # an old kernel without THP: nothing to turn off
                    self._map.madvise(mmap.MADV_NOHUGEPAGE)
            self.array = np.frombuffer(self._map, dtype=np.uint8)
        else:
            self.array = np.empty(max(size, 1), dtype=np.uint8)[:size]
        self._touched = np.zeros((size + CHUNK - 1) // CHUNK, dtype=bool)  # calloc'd: lazy as well
        self.charged = 0  # host bytes the touched chunks cost

    # -- what touching a range would cost --------------------------------------------------------
    def missing(self, start: int, end: int) -> np.ndarray:
        """Indices of the untouched chunks overlapping [start, end)."""
        if end <= start:
            return np.empty(0, dtype=np.intp)
        lo, hi = start // CHUNK, (end - 1) // CHUNK + 1
        window = self._touched[lo:hi]
        if window.all():
            return np.empty(0, dtype=np.intp)
        return np.flatnonzero(~window) + lo

    def cost(self, chunks: np.ndarray) -> int:
        """Host bytes that touching ``chunks`` (untouched, distinct) would spend."""
        if not len(chunks):
            return 0
        total = len(chunks) * CHUNK
        last = len(self._touched) - 1
        if chunks[-1] == last:
            tail = self.size - last * CHUNK
            total -= CHUNK - min(CHUNK, (tail + PAGE - 1) // PAGE * PAGE)
        return total

    # -- touching ------------------------------------------------------------------------------
    def touch(self, chunks: np.ndarray, keep: tuple[int, int] | None = None) -> None:
        """Poison ``chunks`` (already paid for) except the bytes of ``keep``, which the caller overwrites."""
        if not len(chunks):
            return
        keep_lo, keep_hi = keep if keep is not None else (0, 0)
        for lo, hi in _runs(chunks):
            start, end = lo * CHUNK, min(hi * CHUNK, self.size)
            self._huge_pages(start, end)
            if keep_lo < end and start < keep_hi:  # only the parts outside the overwritten bytes
                if start < keep_lo:
                    self.array[start:keep_lo] = POISON
                if keep_hi < end:
                    self.array[keep_hi:end] = POISON
            else:
                self.array[start:end] = POISON
        self._touched[chunks] = True
        self.charged += self.cost(chunks)

    def _huge_pages(self, start: int, end: int) -> None:
        """Let the whole huge pages inside [start, end), about to be touched all at once, be huge pages.

        The mapping is made with huge pages off so that a touched byte costs 4 KiB, not 2 MiB; but a
        kernel streaming over 4 KiB pages runs up to 1.6x slower than over huge pages (TLB misses),
        which is what numpy's own large arrays get. A huge page wholly inside a range touched in one go
        costs nothing extra, so it is turned back on for exactly those (before the first write faults
        them in); the charge on the host budget stays chunk by chunk as before."""
        if self._map is None:
            return
        base = self.array.ctypes.data
        lo = start + (-(base + start)) % HUGE_PAGE
        hi = end - (base + end) % HUGE_PAGE
        if hi > lo and hasattr(mmap, "MADV_HUGEPAGE"):
            with contextlib.suppress(OSError):  # no THP on this kernel: 4 KiB pages, as before
                self._map.madvise(mmap.MADV_HUGEPAGE, lo, hi - lo)

    def read_into(self, start: int, out: np.ndarray) -> None:
        """Copy [start, start + len(out)) into ``out``; untouched chunks read as poison and stay untouched."""
        end = start + len(out)
        chunks = self.missing(start, end)
        if not len(chunks):
            np.copyto(out, self.array[start:end])
            return
        cursor = start
        for lo, hi in _runs(chunks):
            gap_lo, gap_hi = max(lo * CHUNK, start), min(hi * CHUNK, end)
            if cursor < gap_lo:
                np.copyto(out[cursor - start : gap_lo - start], self.array[cursor:gap_lo])
            out[gap_lo - start : gap_hi - start] = POISON
            cursor = gap_hi
        if cursor < end:
            np.copyto(out[cursor - start :], self.array[cursor:end])

    @property
    def mapped(self) -> bool:
        return self._map is not None


def _runs(chunks: np.ndarray) -> list[tuple[int, int]]:
    """Sorted distinct chunk indices as [lo, hi) runs of consecutive indices."""
    breaks = np.flatnonzero(np.diff(chunks) != 1) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [len(chunks)]))
    return [(int(chunks[s]), int(chunks[e - 1]) + 1) for s, e in zip(starts, ends, strict=True)]
