"""Aggregator of one op family: its modules' AI Core ops (OPS) and C-named entry points (L2_APIS)."""

from __future__ import annotations

from collections.abc import Callable

from emulator.engine.tiling import OpImpl

OPS: tuple[OpImpl, ...] = ()
L2_APIS: dict[str, Callable[..., object]] = {}
