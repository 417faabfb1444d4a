"""initcheck on the engine's side: the role of each kernel argument, and the report of a bad read.

The device tracks which bytes were ever written and runs the check; the engine knows what the
bytes are — which input of which op, the tensor's shape, dtype and format, the call that launched
the kernel and the aclrtMalloc that made the memory — so it builds the ``InitRole`` of every
buffer from the op's declaration (``OpImpl.moved_inputs`` / ``unread_inputs``) and turns the
device's ``UninitRead`` into one diagnostic of the process. On a card such a read is silent: the
kernel computes from whatever the memory held, so the status is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from emulator.device.interface import InitRole, UninitRead
from emulator.diagnostics import Diagnostics, ReportKind
from emulator.engine.tiling import OpImpl
from emulator.meta.describe import contents
from emulator.meta.objects import aclTensor
from emulator.tracking import Registry, ResourceKind, Site


@dataclass(frozen=True, slots=True)
class ArgInfo:
    """One device buffer of a launch as a report names it."""

    tensor: aclTensor
    label: str  # "input 0 (self)", "output 0 (y)", "workspace 1"
    role: InitRole


def input_role(impl: OpImpl, name: str) -> InitRole:
    if name in impl.moved_inputs:
        return InitRole.MOVES
    if name in impl.unread_inputs:
        return InitRole.UNREAD
    return InitRole.COMPUTES


def input_name(impl: OpImpl, index: int) -> str:
    return impl.input_names[index] if index < len(impl.input_names) else f"x{index}"


def reporter(
    api: str, infos: list[ArgInfo], site: Site | None, diagnostics: Diagnostics, registry: Registry
) -> Callable[[UninitRead], None]:
    """What the device calls for each uninitialised read of one launch."""

    def report(read: UninitRead) -> None:
        info = infos[read.arg]

        memory = registry.get(ResourceKind.DEVICE_MEMORY, read.allocation)
        launched = f"; launched by {api}"  # the report's site is that call's line
        diagnostics.report(
            f"kernel {read.kernel}",
            f"uninitialised read: {read.unwritten} of the {read.nbytes} bytes that {info.label} "
            f"({contents(info.tensor)} at {read.addr:#x}) addresses were never written "
            f"(the first at +{read.first - read.addr}, in the allocation at {read.allocation:#x}){launched}",
            created=memory.site if memory is not None else None,
            kind=ReportKind.UNINITIALISED,  # its card text: the kernel computes on whatever the memory held
            site=site,  # the host call that launched the kernel, not the synchronize that ran it
        )

    return report
