"""Aggregator of one op family: its modules' AI Core ops (OPS) and C-named entry points (L2_APIS).

The data-movement family: aclnnPermute (L0 Transpose / TransposeV2), aclnnInplaceCopy (L0 BroadcastTo
with the shared Cast), aclnnInplaceFillScalar (L0 Fill), aclnnInplaceZero (L0 ZerosLike), aclnnCat
(L0 ConcatD / ConcatDV2) and the AI CPU-only aclnnCummax.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import broadcast_to, cat, cummax, fill, inplace_copy, permute, zero

OPS: tuple[OpImpl, ...] = (*permute.OPS, *broadcast_to.OPS, *fill.OPS, *zero.OPS, *cat.OPS, *cummax.OPS)
L2_APIS: dict[str, Callable[..., object]] = {
    **permute.L2_APIS,
    **inplace_copy.L2_APIS,
    **fill.L2_APIS,
    **zero.L2_APIS,
    **cat.L2_APIS,
    **cummax.L2_APIS,
}
