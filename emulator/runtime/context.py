"""Contexts: the primary (default) context of a device and explicit ones from aclrtCreateContext.

A primary context is retained by aclrtSetDevice and torn down when its reference count drops
to 0; the object is kept and revived by the next aclrtSetDevice, so a thread still bound to it
works again afterwards, as on the real runtime.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from emulator.device.interface import Device, StreamId


@dataclass(eq=False, slots=True)
class Context:
    handle: int
    device_id: int
    primary: bool
    default_stream: StreamId | None = None
    streams: set[StreamId] = field(default_factory=set)
    alive: bool = False


@dataclass(eq=False, slots=True)
class DeviceSlot:
    """One opened device, its primary context and how many aclrtSetDevice calls hold it."""

    device: Device
    primary: Context
    refs: int = 0
    explicit: int = 0
