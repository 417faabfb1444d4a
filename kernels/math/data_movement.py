"""Shared pieces of the data-movement kernels (Transpose, BroadcastTo, Fill, ZerosLike, ConcatD).

These kernels move or produce elements without arithmetic, so one tiling serves them all: the
elementwise tiling template over the output's elements, each block writing its
``[lo, hi)`` range of the flattened output. A gathering kernel (Transpose, BroadcastTo) reads each
output position through an index map built from per-output-axis source strides (a stride of 0
repeats a broadcast axis); the UB holds one source and one destination tile, double buffered.
Results are bit-exact copies of the source elements.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emulator.kernels.math.cast import NAMES
from emulator.meta.dtypes import DataType, type_size
from emulator.opdev import BinSpec, TilingContext, TilingResult, elementwise_tiling

D = DataType


def dense_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Element strides of a dense row-major tensor of ``shape``."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(int(shape[i + 1]), 1)
    return tuple(strides)


def gather_index(out_shape: Sequence[int], src_strides: Sequence[int], lo: int, hi: int) -> np.ndarray:
    """Source element offsets of the flat output positions [lo, hi): sum of coordinate x stride per axis."""
    flat = np.arange(lo, hi, dtype=np.int64)
    if not out_shape:
        return flat
    coords = np.unravel_index(flat, tuple(out_shape))
    index = np.zeros(hi - lo, dtype=np.int64)
    for coord, stride in zip(coords, src_strides, strict=True):
        if stride:
            index += coord.astype(np.int64) * int(stride)
    return index


def movement_tiling(ctx: TilingContext) -> TilingResult:
    """Elementwise template over the output; UB tiles of the output dtype for one source and one destination."""
    out = ctx.outputs[-1]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 2, type_size(out.dtype))


def fill_tiling(ctx: TilingContext) -> TilingResult:
    """Elementwise template over the output of a generator kernel (Fill, ZerosLike): one UB tile, the output's."""
    out = ctx.outputs[-1]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 1, type_size(out.dtype))


def same_dtype_bins(
    dtypes: Sequence[int], extra_inputs: Sequence[str] = (), lead: Sequence[str] = ()
) -> tuple[BinSpec, ...]:
    """One binary per dtype: inputs ``lead + (dtype,) + extra_inputs``, output ``(dtype,)``."""
    return tuple(BinSpec((*lead, NAMES[d], *extra_inputs), (NAMES[d],)) for d in dtypes)


def same_shape(a: Sequence[int], b: Sequence[int]) -> bool:
    """CheckShapeAndScalarSame: equal shapes, or both hold exactly one element."""
    return tuple(a) == tuple(b) or (int(np.prod(a)) == 1 and int(np.prod(b)) == 1)
