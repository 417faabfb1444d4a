"""The compiled launch plan of an AI Core launcher: what a cache replay launches without rebuilding it.

The first launch of a launcher does the full work (binary, tiling, the buffer list with each
buffer's span and report name, the UB use, the baked-in attributes). An op-cache replay runs the
same launcher for a call whose key is equal — same shapes, strides, offsets, dtypes, formats,
attributes — so everything but the addresses is the same as at the first launch: the plan keeps it,
and a replay only reads the new call's addresses (``RunContext.address_of``) and launches. The
device checks what may have changed since (the allocations behind those addresses, still live and
still where they were: ``SpanMemo``), so a freed, moved or re-allocated buffer fails exactly as it
does without a plan.

Host data in the argument block (ReduceSum's axes, a pad's paddings, an Adds' scalar made a 0-d
host tensor) is part of the plan too: each host input is the executor's own tensor, written only in
phase 1 from values the key holds, so the bytes of the first launch are the bytes of every replay
of the entry; the plan keeps them (and makes the host arrays read-only, so a later write fails
rather than leaving the recorded copy stale). A plan is not made for a debug binary, atomic-clean
parameters or a data-dependent output shape: those take the full launch each time, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from emulator.device.interface import Access, BufferArg, InitRole, KernelAttrs, SpanMemo
from emulator.engine.initcheck import ArgInfo
from emulator.engine.tiling import TilingResult
from emulator.meta.objects import aclTensor


@dataclass(frozen=True, slots=True)
class LaunchPlan:
    """One recorded launch: the buffers' tensors (of the recorded call), spans and access, in launch order."""

    tiling: TilingResult
    ub_use: int
    attrs: KernelAttrs
    tensors: tuple[aclTensor, ...]
    spans: tuple[int, ...]
    access: tuple[Access, ...]
    infos: list[ArgInfo]
    roles: tuple[InitRole, ...]
    inline: tuple[tuple[int, bytes], ...] = ()  # the host inputs' bytes in the argument block: (position, bytes)
    memo: SpanMemo = field(default_factory=SpanMemo)  # the device's proof that the last addresses were in bounds

    def buffers(self, address_of: Callable[[aclTensor], int]) -> tuple[BufferArg, ...]:
        """The launch's buffers at this run's addresses (``address_of``: the run's ``RunContext.address_of``)."""
        return tuple(
            BufferArg(address_of(tensor), span, access)
            for tensor, span, access in zip(self.tensors, self.spans, self.access, strict=True)
        )
