"""Shared pieces of the gated linear units (SwiGlu, GeGluV2): the halves view and the row tiling.

A GLU splits x in two along ``dim``: seen as [rows, 2, cols] (rows = the elements before dim, cols
= half of dim times the elements after it), out[r, c] = act(x[r, 0, c]) * x[r, 1, c] (or the other
half activated). The tiling splits the rows across the vector cores, at least ``MIN_BLOCK_BYTES``
of input each; the dim is an attribute, so the tiling reads it from its attributes.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import numpy as np

from emulator.engine.tiling import ceil_div
from emulator.kernels.math.reduce_common import MIN_BLOCK_BYTES
from emulator.meta.dtypes import type_size
from emulator.opdev import TilingContext, TilingResult


class GluTilingData(ctypes.Structure):
    _fields_ = [
        ("rowNum", ctypes.c_int64),  # elements before the split dim
        ("colNum", ctypes.c_int64),  # elements of one half per row
        ("blockFormer", ctypes.c_int64),  # rows per core
        ("blockNum", ctypes.c_int64),
        ("coreNum", ctypes.c_int64),
    ]


def halves(shape: Sequence[int], dim: int) -> tuple[int, int]:
    """(rows, cols) of the [rows, 2, cols] view of a tensor of ``shape`` split along ``dim``."""
    dims = tuple(shape) or (1,)
    axis = dim % len(dims)
    rows = int(np.prod(dims[:axis], dtype=np.int64))
    cols = int(np.prod(dims[axis + 1 :], dtype=np.int64)) * (dims[axis] // 2)
    return rows, cols


def glu_tiling(ctx: TilingContext) -> TilingResult:
    """Rows across the cores; the split dim is the first attribute."""
    x = ctx.inputs[0]
    assert x is not None
    rows, cols = halves(x.view_shape, int(ctx.attrs[0]))
    cores = max(ctx.platform.core_num, 1)
    row_bytes = max(2 * cols * type_size(x.dtype), 1)
    per_core = min(max(ceil_div(rows, cores), ceil_div(MIN_BLOCK_BYTES, row_bytes)), max(rows, 1))
    block_num = max(ceil_div(rows, per_core), 1)
    data = GluTilingData(rowNum=rows, colNum=cols, blockFormer=per_core, blockNum=block_num, coreNum=cores)
    return TilingResult(tiling_key=0, block_dim=block_num, data=data)


def block_rows(tiling: bytes, block_idx: int) -> tuple[int, int, int]:
    """This block's [lo, hi) rows and the row length of one half."""
    data = GluTilingData.from_buffer_copy(tiling)
    lo = block_idx * data.blockFormer
    return lo, min(lo + data.blockFormer, data.rowNum), data.colNum


def split_view(buf: np.ndarray, dtype: np.dtype, rows: int, cols: int) -> np.ndarray:
    """The [rows, 2, cols] view of a GLU input buffer."""
    return buf.view(dtype)[: rows * 2 * cols].reshape(rows, 2, cols)


def half_view(buf: np.ndarray, dtype: np.dtype, rows: int, cols: int) -> np.ndarray:
    """The [rows, cols] view of a GLU output buffer."""
    return buf.view(dtype)[: rows * cols].reshape(rows, cols)
