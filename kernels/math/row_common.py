"""Shared pieces of the ops that work along one axis, line by line: ArgMax, Cumsum, Sort, TopK.

Such a kernel sees its tensor as [outer, R, inner] (R the axis it works along); a *line* is the R
elements of one (outer, inner) position. The tiling splits the lines across the vector cores, at
least ``MIN_BLOCK_BYTES`` of input per core, and writes only element and block counts: the axis
reaches the kernel either as an attribute or, as in the real Cumsum and ArgMaxV2, as a host tensor
input the tiling never reads; so each block derives its own line range from ``blockNum`` and the
line count. A line is never split across blocks (a scan or a sort needs the whole line).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator, Sequence

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.tiling import ceil_div
from emulator.kernels.math.reduce_common import MIN_BLOCK_BYTES, pieces
from emulator.meta.dtypes import type_size
from emulator.opdev import TilingContext, TilingResult


class RowTilingData(ctypes.Structure):
    _fields_ = [
        ("totalNum", ctypes.c_int64),  # elements of the input
        ("blockNum", ctypes.c_int64),  # cores used; each takes ceil(lines / blockNum) whole lines
        ("coreNum", ctypes.c_int64),
    ]


def row_tiling(ctx: TilingContext) -> TilingResult:
    """Blocks by input bytes (whole lines each; the kernel finds its lines)."""
    x = ctx.inputs[0]
    assert x is not None
    total = x.numel
    cores = max(ctx.platform.core_num, 1)
    block_num = max(1, min(cores, ceil_div(total * min(type_size(x.dtype), 16), MIN_BLOCK_BYTES)))
    data = RowTilingData(totalNum=total, blockNum=block_num, coreNum=cores)
    return TilingResult(tiling_key=0, block_dim=block_num, data=data)


def lines_view(flat: np.ndarray, shape: Sequence[int], axis: int) -> np.ndarray:
    """The dense tensor ``flat`` of ``shape`` as an (outer, inner, R) view: the last axis is the line."""
    dims = tuple(shape) or (1,)
    outer = int(np.prod(dims[:axis], dtype=np.int64))
    inner = int(np.prod(dims[axis + 1 :], dtype=np.int64))
    count = outer * dims[axis] * inner
    return flat[:count].reshape(outer, dims[axis], inner).transpose(0, 2, 1)


def block_lines(ctx: BlockContext[KernelAttrs], view: np.ndarray) -> Iterator[tuple[int | slice, ...]]:
    """Index tuples into ``view``'s (outer, inner) positions covering this block's lines."""
    data = RowTilingData.from_buffer_copy(ctx.tiling)
    lines = view.shape[0] * view.shape[1]
    per_block = ceil_div(lines, max(data.blockNum, 1))
    lo = ctx.block_idx * per_block
    yield from pieces(lo, min(lo + per_block, lines), view.shape[:2])
