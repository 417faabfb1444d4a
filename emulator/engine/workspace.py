"""Workspace planning: where each intermediate lives in the one workspace buffer of a call.

``MaxAllocator`` of opbase (lifetime-based bucket reuse): every buffer is
aligned as ``(n + 32 + 511) & ~511`` (so even 0 bytes take 512), buffers whose lifetimes do not
overlap share a bucket (the LAST reusable bucket wins; two buffers born in the same node never
share; a buffer is not put over an input of its own producer), each bucket is as large as its
largest buffer, and offsets are assigned bucket by bucket in creation order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

EXTRA_BYTES = 32
ALIGN_BYTES = 512


def align(nbytes: int) -> int:
    return (nbytes + EXTRA_BYTES + ALIGN_BYTES - 1) & ~(ALIGN_BYTES - 1)


@dataclass
class PlannedBuffer:
    """One buffer to place: its storage identity, size, lifetime [start, end] and its producer's inputs."""

    storage: object
    nbytes: int
    start: int
    end: int
    producer_inputs: frozenset[int] = frozenset()  # ids of the storages the producing node reads


def _free_of(last: PlannedBuffer, cand: PlannedBuffer) -> bool:
    if last.start == cand.start:
        return False
    if cand.start > last.start:
        return last.end < cand.start
    return cand.end < last.start


def max_allocate(buffers: Sequence[PlannedBuffer]) -> tuple[int, dict[int, int]]:
    """(total size, offset by storage id); a storage seen twice is placed once."""
    buckets: list[tuple[list[PlannedBuffer], list[int]]] = []  # (refs, [size])
    placed: set[int] = set()
    for buf in buffers:
        key = id(buf.storage)
        if key in placed:
            continue
        chosen = None
        for refs, size in buckets:
            last = refs[-1]
            if _free_of(last, buf) and id(last.storage) not in buf.producer_inputs:
                chosen = (refs, size)
        if chosen is None:
            chosen = ([], [0])
            buckets.append(chosen)
        chosen[0].append(buf)
        chosen[1][0] = max(chosen[1][0], align(buf.nbytes))
        placed.add(key)
    offsets: dict[int, int] = {}
    offset = 0
    for refs, size in buckets:
        for buf in refs:
            offsets[id(buf.storage)] = offset
        offset += size[0]
    return offset, offsets
