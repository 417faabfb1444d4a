"""Tiling templates shared by the simple kernels (after the open atvoss headers).

``EleBaseTilingData`` is the elementwise template: ``dim0`` elements split into ``blockNum`` blocks of
``blockFormer`` elements (aligned to the 32-byte UB block), each block walking its range in UB tiles
of ``ubFormer`` elements. ``elementwise_tiling`` sizes the tiles so that every tensor's tile, double
buffered, fits the SoC's unified buffer, and declares that use so the device can check it; the
struct itself also states the least UB its tile sizes imply (``ub_bytes``), which the launch
checks too, so a hand-made tiling with a huge ``ubFormer`` fails however little it declares.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.tiling import TilingContext, TilingResult, align_up, ceil_div
from emulator.meta.dtypes import type_size

MIN_BLOCK_BYTES = 16 * 1024  # a block below this is not worth a core
DOUBLE_BUFFER = 2


class EleBaseTilingData(ctypes.Structure):
    _fields_ = [
        ("dim0", ctypes.c_int64),
        ("coreNum", ctypes.c_int64),
        ("ubFormer", ctypes.c_int64),
        ("blockFormer", ctypes.c_int64),
        ("blockNum", ctypes.c_int64),
        ("ubLoopOfFormerBlock", ctypes.c_int64),
        ("ubTailOfFormerBlock", ctypes.c_int64),
        ("scheMode", ctypes.c_int64),
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel on these fields allocates: one tile of ``ubFormer`` elements (no more
        than a block holds) of the smallest element size it handles, double buffered."""
        tile = min(int(self.ubFormer), int(self.blockFormer))
        return tile * min(itemsizes, default=1) * DOUBLE_BUFFER


def elementwise_tiling(ctx: TilingContext, total: int, tensors: int, itemsize: int | None = None) -> TilingResult:
    """Split ``total`` elements over the cores; ``tensors`` tiles (inputs + outputs) share the UB."""
    if itemsize is None:
        sizes = [type_size(t.dtype) for t in (*ctx.inputs, *ctx.outputs) if t is not None]
        itemsize = max([s for s in sizes if s <= 16] or [4])
    block_elems = 32 // min(itemsize, 32) or 1
    cores = max(ctx.platform.core_num, 1)
    min_elems = max(MIN_BLOCK_BYTES // itemsize, block_elems)
    block_former = align_up(max(ceil_div(max(total, 1), cores), min_elems), block_elems)
    block_num = max(ceil_div(total, block_former), 1)
    ub_elems = ctx.platform.ub_size // (tensors * DOUBLE_BUFFER * itemsize)
    ub_former = max(ub_elems // block_elems * block_elems, block_elems)
    data = EleBaseTilingData(
        dim0=total,
        coreNum=cores,
        ubFormer=ub_former,
        blockFormer=block_former,
        blockNum=block_num,
        ubLoopOfFormerBlock=ceil_div(block_former, ub_former),
        ubTailOfFormerBlock=block_former - (ceil_div(block_former, ub_former) - 1) * ub_former,
        scheMode=0,
    )
    ub_bytes = min(ub_former, block_former) * itemsize * tensors * DOUBLE_BUFFER
    return TilingResult(tiling_key=0, block_dim=block_num, data=data, ub_bytes_per_block=ub_bytes)


def block_tiles(tiling: bytes, block_idx: int) -> Iterator[tuple[int, int]]:
    """The [lo, hi) element ranges one block processes, tile by tile, from the tiling bytes."""
    data = EleBaseTilingData.from_buffer_copy(tiling)
    lo = block_idx * data.blockFormer
    hi = min(lo + data.blockFormer, data.dim0)
    while lo < hi:
        yield lo, min(lo + data.ubFormer, hi)
        lo += data.ubFormer


@functools.lru_cache(maxsize=1024)
def _former(tiling: bytes) -> tuple[int, int]:
    """(blockFormer, dim0) of an elementwise tiling; memoised because every block of every launch asks."""
    data = EleBaseTilingData.from_buffer_copy(tiling)
    return data.blockFormer, data.dim0


def block_range(tiling: bytes, block_idx: int) -> tuple[int, int]:
    """The [lo, hi) element range of one block. Elementwise kernels process it in one numpy call: their
    result does not depend on the UB tile boundaries, which only size the unified-buffer check."""
    former, total = _former(tiling)
    lo = block_idx * former
    return lo, min(lo + former, total)


RangeBody = Callable[..., None]  # (ctx, lo, hi, *views): the work of one flat element range [lo, hi)


class RangeKernel:
    """An elementwise SPMD kernel: block ``i`` processes ``block_range(tiling, i)``, and what an element
    gets does not depend on which block, or which numpy call, computes it.

    Called with one block's context it is the per-block kernel; ``run_blocks`` (see
    ``device.interface.block_runner``) runs a contiguous run of blocks as one range, so a worker of the
    block pool, or the whole serial launch, makes one numpy call over one contiguous span of each buffer.
    The body sees the run's first context; only its tiling and attributes may matter to it."""

    __slots__ = ("body",)

    def __init__(self, body: RangeBody) -> None:
        self.body = body

    def __call__(self, ctx: BlockContext[Any], *views: np.ndarray) -> None:
        lo, hi = block_range(ctx.tiling, ctx.block_idx)
        if lo < hi:
            self.body(ctx, lo, hi, *views)

    def run_blocks(self, first: BlockContext[Any], count: int, *views: np.ndarray) -> None:
        lo = block_range(first.tiling, first.block_idx)[0]
        hi = block_range(first.tiling, first.block_idx + count - 1)[1]
        if lo < hi:
            self.body(first, lo, hi, *views)
