"""Which bytes of one allocation someone has written: the state initcheck reads.

aclrtMalloc does not clear, so a byte no copy, memset or kernel output has written holds
garbage on a card. An allocation gets a ``WrittenBytes`` only at its first write (malloc stays
as cheap as before), and it keeps the written ranges as a short sorted list of runs, because a
buffer is nearly always written whole or in a few pieces; a scattered pattern (a strided
ViewCopy into half-written memory) turns it into a per-byte mask of the allocation.
"""

from __future__ import annotations

import numpy as np

MAX_RUNS = 64  # beyond this many separate runs, a per-byte mask is cheaper to query
MASK_MAX = 256 * 1024 * 1024  # no per-byte mask beyond this: a reserved range the size of the card keeps runs


class WrittenBytes:
    """Written byte ranges of one allocation, offsets relative to its start."""

    __slots__ = ("_mask", "_runs", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._runs: list[tuple[int, int]] = []  # sorted, disjoint, non-adjacent [start, end)
        self._mask: np.ndarray | None = None  # bool per byte, once the runs got too many

    def mark(self, start: int, end: int) -> None:
        """[start, end) has been written."""
        if end <= start:
            return
        if self._mask is not None:
            self._mask[start:end] = True
            return
        for lo, hi in self._runs:
            if lo <= start and end <= hi:  # already written (a buffer written again, as each replay does)
                return
        kept: list[tuple[int, int]] = []
        for lo, hi in self._runs:
            if hi < start or lo > end:
                kept.append((lo, hi))
            else:
                start, end = min(start, lo), max(end, hi)
        kept.append((start, end))
        kept.sort()
        self._runs = kept
        self._spill()

    def clear(self, start: int, end: int) -> None:
        """[start, end) holds never-written bytes again (a copy of never-written bytes landed there)."""
        if end <= start:
            return
        if self._mask is not None:
            self._mask[start:end] = False
            return
        kept: list[tuple[int, int]] = []
        for lo, hi in self._runs:
            if hi <= start or lo >= end:
                kept.append((lo, hi))
                continue
            if lo < start:
                kept.append((lo, start))
            if hi > end:
                kept.append((end, hi))
        self._runs = kept
        self._spill()

    def assign(self, start: int, written: np.ndarray) -> None:
        """Set [start, start + len(written)) to exactly ``written`` (bool per byte)."""
        end = start + len(written)
        if written.all():
            self.mark(start, end)
        elif not written.any():
            self.clear(start, end)
        elif self._mask is None and self.size > MASK_MAX:  # too big for a mask: the runs of ``written``
            self.clear(start, end)
            edges = np.flatnonzero(np.diff(np.concatenate(([False], written, [False])).astype(np.int8)))
            for lo, hi in zip(edges[::2], edges[1::2], strict=True):
                self.mark(start + int(lo), start + int(hi))
        else:
            mask = self._as_mask()
            mask[start:end] = written

    def unwritten(self, start: int, end: int) -> tuple[int, int]:
        """(never-written bytes in [start, end), offset of the first one or -1)."""
        if self._mask is not None:
            missing = ~self._mask[start:end]
            count = int(np.count_nonzero(missing))
            return count, start + int(np.argmax(missing)) if count else -1
        covered, first, cursor = 0, -1, start
        for lo, hi in self._runs:
            if hi <= start:
                continue
            if lo >= end:
                break
            if first < 0 and lo > cursor:
                first = cursor
            covered += min(hi, end) - max(lo, start)
            cursor = max(cursor, hi)
        if first < 0 and cursor < end:
            first = cursor
        count = (end - start) - covered
        return count, first if count else -1

    def written_mask(self, start: int, end: int) -> np.ndarray:
        """Bool per byte of [start, end): True where written."""
        if self._mask is not None:
            return self._mask[start:end].copy()
        out = np.zeros(end - start, dtype=bool)
        for lo, hi in self._runs:
            if hi > start and lo < end:
                out[max(lo, start) - start : min(hi, end) - start] = True
        return out

    def _as_mask(self) -> np.ndarray:
        if self._mask is None:
            mask = np.zeros(self.size, dtype=bool)
            for lo, hi in self._runs:
                mask[lo:hi] = True
            self._mask, self._runs = mask, []
        return self._mask

    def _spill(self) -> None:
        if len(self._runs) > MAX_RUNS and self.size <= MASK_MAX:
            self._as_mask()
