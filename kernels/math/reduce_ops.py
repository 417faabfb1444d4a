"""Aggregator of one op family: its modules' AI Core ops (OPS) and C-named entry points (L2_APIS).

The reduction / normalisation / matmul family: aclnnReduceSum, aclnnMean, aclnnAmax (the shared
reduce tiling and L0 reductions in ``reduce_common``), aclnnSoftmax, aclnnLayerNorm (+WithImplMode),
aclnnRmsNorm, aclnnMm / aclnnMatmul / aclnnBatchMatMul.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import amax, layer_norm, matmul, reduce_common, reduce_mean, reduce_sum, rms_norm, softmax

MODULES = (reduce_sum, reduce_mean, amax, softmax, layer_norm, rms_norm, matmul)
OPS: tuple[OpImpl, ...] = (*reduce_common.OPS, *softmax.OPS, *layer_norm.OPS, *rms_norm.OPS, *matmul.OPS)
L2_APIS: dict[str, Callable[..., object]] = {name: fn for module in MODULES for name, fn in module.L2_APIS.items()}
