"""Aggregator of one op family: its modules' AI Core ops (OPS) and C-named entry points (L2_APIS).

The unary elementwise family: aclnnAbs, aclnnNeg, aclnnExp, aclnnLog, aclnnSqrt, aclnnRsqrt (ops-math),
aclnnRelu, aclnnSigmoid, aclnnGelu, aclnnSilu (ops-nn activations) and aclnnTanh, with their in-place
variants; the shared kernel factory is ``kernels.math.unary``.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import abs_neg, activations, exp_log, sqrt_rsqrt, tanh

MODULES = (abs_neg, exp_log, sqrt_rsqrt, activations, tanh)
OPS: tuple[OpImpl, ...] = tuple(op for module in MODULES for op in module.OPS)
L2_APIS: dict[str, Callable[..., object]] = {name: fn for module in MODULES for name, fn in module.L2_APIS.items()}
