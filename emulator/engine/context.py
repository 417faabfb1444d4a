"""The collaborators an op needs, handed down from the face: no engine module asks for a process.

The real opbase reaches its KernelMgr, AI CPU task spaces and runtime through process globals;
here the face that receives the C call passes one ``OpContext`` down — to the L2 body (through
the phase-1 context, as CREATE_EXECUTOR reads the thread's L2 context), to every executor it
creates, and from the executor to the launchers in phase 2. Engine pieces can therefore be built
and tested with a context of their own, without an emulated process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from emulator.config import Settings
from emulator.device.interface import Device, StreamId
from emulator.device.soc import SocProfile
from emulator.diagnostics import Diagnostics
from emulator.tracking import Registry

if TYPE_CHECKING:
    from emulator.engine.system import AclnnState


class RuntimeView(Protocol):
    """What the op engine needs of the ACL runtime: the SoC, streams, and buffers of its own."""

    @property
    def soc(self) -> SocProfile: ...

    def resolve_stream(self, handle: int, *, submit: bool) -> tuple[Device, StreamId]: ...

    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> int: ...

    def current_device(self) -> Device: ...


@dataclass(frozen=True, slots=True)
class OpContext:
    """One emulated process's op-side collaborators."""

    settings: Settings
    registry: Registry
    diagnostics: Diagnostics
    aclnn: AclnnState
    runtime: RuntimeView

    @property
    def soc(self) -> SocProfile:
        return self.runtime.soc
