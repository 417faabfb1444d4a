"""The op library: one module per op (L2 API, tiling, tiling-data struct, SPMD kernel).

Ops are imported here by name, so this file is the list of ops that exist. ``OPS`` are the AI Core
ops whose binaries the shipped package describes (``python -m emulator.kernels.build_opp`` writes them);
``L2_APIS`` are the C-named entry points the aclnn face exports.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import add, binary_ops, cast, data_ops, reduce_ops, search_sorted, unary_ops
from emulator.opdev import FRAMEWORK_OPS

FAMILIES = (add, search_sorted, binary_ops, unary_ops, reduce_ops, data_ops)
OPS: tuple[OpImpl, ...] = (*FRAMEWORK_OPS, cast.CAST, *(op for family in FAMILIES for op in family.OPS))
L2_APIS: dict[str, Callable[..., object]] = {name: fn for family in FAMILIES for name, fn in family.L2_APIS.items()}
