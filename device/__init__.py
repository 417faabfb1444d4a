"""Device backends behind one protocol, picked from an explicit table.

Nothing is imported eagerly: the real-hardware backend needs pyACL, which a machine without a
card does not have, so each backend module is imported only when it is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .interface import Device, DeviceCaps
from .soc import SocProfile, load_soc

if TYPE_CHECKING:  # mypy proves each backend is a Device; at run time nothing is imported
    from .ascend import AscendNpu
    from .simulated.npu import SimulatedNpu

    def _backends_are_devices(simulated: SimulatedNpu, ascend: AscendNpu) -> tuple[Device, Device]:
        return simulated, ascend


BACKENDS: dict[str, str] = {
    "simulated": "emulator.device.simulated.npu:SimulatedNpu",
    "ascend": "emulator.device.ascend:AscendNpu",
}


def open_device(backend: str, device_id: int, soc: SocProfile | str | None = None, **options: object) -> Device:
    """Construct one device of ``backend``; unknown names raise KeyError listing the table."""
    if backend not in BACKENDS:
        raise KeyError(f"unknown device backend {backend!r}; known: {', '.join(BACKENDS)}")
    module_name, class_name = BACKENDS[backend].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    profile = load_soc(soc) if isinstance(soc, str) else soc
    device: Device = cls(device_id, profile, **options)
    return device


__all__ = ["BACKENDS", "Device", "DeviceCaps", "open_device"]
