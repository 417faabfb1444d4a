"""Aggregator of the binary-op family: Adds, Sub / Subs, Mul / Muls, Div / Divs, EqTensor,
GtTensor / GtScalar (each with its Inplace variants) and the L2 Cast (spec/ops.md 2.2-2.8, 2.20-2.22).

``OPS`` are the family's new AI Core ops with binaries (Sub, Muls, RealDiv, Equal, Greater; Add, Mul,
Axpy and Cast belong to their own modules); ``L2_APIS`` are the C-named entry points.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import aclnn_cast, adds, div, equal, greater, mul, sub

_MODULES = (adds, sub, mul, div, equal, greater, aclnn_cast)
OPS: tuple[OpImpl, ...] = (*sub.OPS, *mul.OPS, *div.OPS, *equal.OPS, *greater.OPS)
L2_APIS: dict[str, Callable[..., object]] = {name: fn for module in _MODULES for name, fn in module.L2_APIS.items()}
