"""ClipByValueV2's range kernel: pieces of y computed from broadcast views give the bytes of one
whole-array min(max(x, lo), hi), over any cut of the blocks into runs.

The kernel no longer copies broadcast bounds out to the range's length; these tests pin that reading
them in place changes no value: bounds broadcast along leading, middle and trailing axes, a broadcast x,
0-d bounds (the scalar clamps) and a 0-d x, ranges that start and stop inside rows, NaN in x, and the
dtypes the AI Core binary has.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from emulator.device.interface import BlockContext, block_runner
from emulator.kernels.math.clamp import CLIP_BY_VALUE, ClipAttrs
from emulator.opdev.templates import EleBaseTilingData

BF16 = np.dtype(ml_dtypes.bfloat16)
UB = 192 * 1024
rng = np.random.default_rng(14)


def _tiling(total: int, former: int) -> tuple[bytes, int]:
    blocks = -(-total // former)
    data = EleBaseTilingData(dim0=total, coreNum=blocks, ubFormer=former, blockFormer=former, blockNum=blocks)
    return bytes(data), blocks


def _cuts(blocks: int) -> list[list[int]]:
    """One block per run, all blocks in one run, and an uneven split."""
    cut = max(blocks // 3, 1)
    return [[1] * blocks, [blocks], [cut, blocks - cut] if blocks > cut else [blocks]]


def _values(shape: tuple[int, ...], dtype: np.dtype, scale: float) -> np.ndarray:
    return rng.normal(0.0, scale, shape).astype(dtype)


def _bytes(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint8).reshape(-1)


CASES = [
    ((37, 29), (37, 29), (29,), (29,)),  # row-broadcast bounds (aclnnClampTensor's common case)
    ((6, 5, 7), (6, 5, 7), (6, 1, 7), (1, 5, 1)),  # bounds broadcast along different axes
    ((4, 33), (33,), (4, 1), (4, 33)),  # x broadcast up to the bounds' shape
    ((1001,), (1001,), (), ()),  # 0-d bounds: the scalar clamps
    ((), (), (), ()),  # a 0-d x
]


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float16), BF16, np.dtype(np.int32)])
@pytest.mark.parametrize(("y_shape", "x_shape", "lo_shape", "hi_shape"), CASES)
@pytest.mark.parametrize("former", [1, 10, 64])
def test_clip_run_is_the_whole_array_clip(
    dtype: np.dtype,
    y_shape: tuple[int, ...],
    x_shape: tuple[int, ...],
    lo_shape: tuple[int, ...],
    hi_shape: tuple[int, ...],
    former: int,
) -> None:
    x = _values(x_shape, dtype, 3.0)
    if dtype.kind == "f" or dtype == BF16:
        x.reshape(-1)[::5] = np.nan
    lo, hi = _values(lo_shape, dtype, 1.0), _values(hi_shape, dtype, 1.0)
    hi = np.maximum(lo, hi) if lo_shape == hi_shape else hi  # some elements with lo > hi: hi wins, as min(max())
    wide = np.float32 if dtype == BF16 else dtype
    expected = np.minimum(np.maximum(x.astype(wide), lo.astype(wide)), hi.astype(wide)).astype(dtype)
    expected = np.broadcast_to(expected, y_shape)
    total = max(expected.size, 1)
    tiling, blocks = _tiling(total, former)
    attrs = ClipAttrs(dtype, (x_shape, lo_shape, hi_shape, y_shape))
    contexts: list[BlockContext[Any]] = [BlockContext(b, blocks, tiling, UB, attrs) for b in range(blocks)]
    runner = block_runner(CLIP_BY_VALUE.kernel)
    assert runner is not None, "ClipByValueV2 merges a run of blocks into one range"
    for lengths in _cuts(blocks):
        y = np.zeros(total * dtype.itemsize, np.uint8)
        start = 0
        for length in lengths:
            runner(contexts[start], length, _bytes(x), _bytes(lo), _bytes(hi), y)
            start += length
        np.testing.assert_array_equal(y, _bytes(expected))


def test_per_block_call_is_the_same_range() -> None:
    """Called with one block's context (the shadow run of initcheck does this) it writes that block only."""
    dtype = np.dtype(np.float32)
    x, lo, hi = _values((8, 16), dtype, 3.0), _values((16,), dtype, 1.0), _values((16,), dtype, 1.0) + 2
    tiling, blocks = _tiling(x.size, 24)
    attrs = ClipAttrs(dtype, ((8, 16), (16,), (16,), (8, 16)))
    y = np.zeros(x.nbytes, np.uint8)
    CLIP_BY_VALUE.kernel(BlockContext(1, blocks, tiling, UB, attrs), _bytes(x), _bytes(lo), _bytes(hi), y)
    got = y.view(dtype)
    np.testing.assert_array_equal(got[24:48], np.minimum(np.maximum(x, lo), hi).reshape(-1)[24:48])
    assert not got[:24].any() and not got[48:].any()
