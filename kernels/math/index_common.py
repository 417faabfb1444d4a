"""Pieces the indexing and shape ops share (Tril / Triu, Roll, Tile, GatherV2, SelectV2 ...).

Each of these kernels fills its block's ``[lo, hi)`` range of the flattened output by working out,
per output position, where its element comes from: the output coordinates of the range are
unravelled once (``block_coords``), the op maps them to source coordinates, and ``flat_offset``
turns those into element offsets of the dense source. No kernel builds the whole result and slices
it, so a block costs what its range costs. The dtype support list of such an op depends on the SoC
the process runs on (``soc_dtypes``): the real L2 code picks its list from the platform the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emulator.kernels.math.data_movement import dense_strides
from emulator.opdev.l2 import current_l2

A2_SOCS = ("Ascend910B", "Ascend910_93")
REGBASE_SOCS = ("Ascend950",)


def soc_dtypes(
    a2: Sequence[int], other: Sequence[int], regbase: Sequence[int] | None = None, a2_socs: Sequence[str] = A2_SOCS
) -> tuple[int, ...]:
    """The support list of the running SoC: A2 / A3 (or the ``a2_socs`` an op groups with them), the
    RegBase (Ascend 950) one, or the older parts'."""
    soc = current_l2().op.soc.short_soc_version
    if soc in a2_socs:
        return tuple(a2)
    if soc in REGBASE_SOCS and regbase is not None:
        return tuple(regbase)
    return tuple(other)


def block_coords(shape: Sequence[int], lo: int, hi: int) -> tuple[np.ndarray, ...]:
    """Per axis of ``shape``, the coordinates of the flat positions [lo, hi) (int64)."""
    flat = np.arange(lo, hi, dtype=np.int64)
    if not shape:
        return ()
    return tuple(c.astype(np.int64) for c in np.unravel_index(flat, tuple(int(d) for d in shape)))


def flat_offset(coords: Sequence[np.ndarray], shape: Sequence[int], count: int) -> np.ndarray:
    """Element offsets in a dense tensor of ``shape`` of the coordinates ``coords`` (``count`` positions)."""
    index = np.zeros(count, dtype=np.int64)
    for coord, stride in zip(coords, dense_strides(shape), strict=True):
        index += coord * int(stride)
    return index
