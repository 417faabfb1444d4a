"""initcheck for kernel launches: reads of never-written device bytes, as compute-sanitizer does it.

A kernel that computes from bytes no copy, memset or earlier kernel wrote reads garbage on a card
(aclrtMalloc does not clear). Per buffer argument the launch says what the kernel does with it
(``InitRole``):

- an input it computes from is checked over the bytes its view addresses, before the kernel runs;
- an input it only moves (a transpose, a concat, a strided gather or scatter) is not a read that
  matters yet: the kernel is run a second time over *shadow* buffers (one byte per byte, 1 where
  never written), so each never-written byte lands where the real run put its data, and the
  outputs' written state is taken from that — exact for any gather or scatter pattern. The second
  run happens only when a moved input holds never-written bytes, or when a kernel that writes
  only part of its output (a strided scatter) meets an output not yet wholly written; control
  inputs (a permutation, a shape) get their real bytes in it;
- outputs of a computing kernel, and scratch, count as written over their whole extent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import structlog

from ..interface import Access, InitRole, KernelLaunch, UninitRead
from .heap import Allocation, Heap

log = structlog.get_logger(logger_name="device.simulated")

UNWRITTEN = 1  # a shadow byte standing for a never-written byte (0: written)
OUTPUTS = (InitRole.WRITES, InitRole.SCATTERS)


def _unwritten(
    heap: Heap, allocs: tuple[Allocation, ...] | None, index: int, addr: int, nbytes: int
) -> tuple[int, int]:
    """``heap.unwritten`` of one argument; with its allocation already known (a launch plan's) without the look-up."""
    if allocs is None:
        return heap.unwritten(addr, nbytes)
    alloc = allocs[index]
    if nbytes <= 0:
        return 0, -1
    if alloc.written is None:
        return nbytes, addr
    start = addr - alloc.info.addr
    count, first = alloc.written.unwritten(start, start + nbytes)
    return count, alloc.info.addr + first if count else -1


def _mark(heap: Heap, allocs: tuple[Allocation, ...] | None, index: int, addr: int, nbytes: int) -> None:
    """``heap.mark_written`` of one argument, the same way."""
    if allocs is None:
        heap.mark_written(addr, nbytes)
    elif nbytes > 0:
        start = addr - allocs[index].info.addr
        allocs[index].written_state().mark(start, start + nbytes)


def check_reads(
    heap: Heap,
    kernel: KernelLaunch,
    allocs: tuple[Allocation, ...] | None = None,
    on_uninit: Callable[[UninitRead], None] | None = None,
) -> None:
    """Report every computing input that addresses never-written bytes.

    ``allocs``: the allocation of each argument when the caller has just proven them live (a
    launch plan's memo); otherwise each is looked up. ``on_uninit``: the launch's reporter when it
    is not the kernel's own (one ``KernelLaunch`` of a plan serves calls from different sites).
    """
    report = on_uninit if on_uninit is not None else kernel.on_uninit
    for index, (arg, role) in enumerate(zip(kernel.args, kernel.init_roles, strict=False)):
        if role is not InitRole.COMPUTES:
            continue
        count, first = _unwritten(heap, allocs, index, arg.addr, arg.nbytes)
        if not count:
            continue
        read = UninitRead(kernel.name, index, arg.addr, arg.nbytes, count, first, heap.allocation_start(arg.addr))
        if report is not None:
            report(read)
        else:
            log.warning("device.uninitialised_read", kernel=kernel.name, addr=hex(arg.addr), unwritten=count)


def record_writes(
    heap: Heap,
    kernel: KernelLaunch,
    run_shadow: Callable[[list[np.ndarray]], None],
    allocs: tuple[Allocation, ...] | None = None,
) -> None:
    """After the kernel ran: what its outputs (and scratch) now hold, written or not.

    ``allocs``: as for check_reads.
    """
    roles = kernel.init_roles
    if not roles:
        for index, arg in enumerate(kernel.args):
            if arg.access & Access.WRITE:
                _mark(heap, allocs, index, arg.addr, arg.nbytes)
        return
    if InitRole.MOVES not in roles:  # no moved input, so no shadow run: outputs and written scratch count
        for index, (arg, role) in enumerate(zip(kernel.args, roles, strict=False)):
            if role in OUTPUTS or (role is InitRole.UNREAD and arg.access & Access.WRITE):
                _mark(heap, allocs, index, arg.addr, arg.nbytes)
        return
    outputs = [i for i, role in enumerate(roles) if role in OUTPUTS]
    if _needs_shadow(heap, kernel):
        shadows = [_shadow(heap, kernel, i) for i in range(len(kernel.args))]
        run_shadow(shadows)
        for i in outputs:
            heap.assign_written(kernel.args[i].addr, shadows[i] == 0)
    else:
        for i in outputs:
            _mark(heap, allocs, i, kernel.args[i].addr, kernel.args[i].nbytes)
    for index, (arg, role) in enumerate(zip(kernel.args, roles, strict=False)):
        if role is InitRole.UNREAD and arg.access & Access.WRITE:  # scratch the kernel wrote for itself
            _mark(heap, allocs, index, arg.addr, arg.nbytes)


def _needs_shadow(heap: Heap, kernel: KernelLaunch) -> bool:
    """Only a moved input holding never-written bytes, or a part-written output that is not yet all
    written, makes the outcome depend on which bytes go where."""
    moved = [a for a, r in zip(kernel.args, kernel.init_roles, strict=False) if r is InitRole.MOVES]
    if not moved:
        return False
    scattered = [a for a, r in zip(kernel.args, kernel.init_roles, strict=False) if r is InitRole.SCATTERS]
    return any(heap.unwritten(a.addr, a.nbytes)[0] for a in (*moved, *scattered))


def _shadow(heap: Heap, kernel: KernelLaunch, index: int) -> np.ndarray:
    """The buffer the shadow run sees for one argument: written state for data, real bytes for control."""
    arg, role = kernel.args[index], kernel.init_roles[index]
    if role is InitRole.MOVES or role in OUTPUTS:
        return (~heap.written_mask(arg.addr, arg.nbytes)).astype(np.uint8) * UNWRITTEN
    return heap.view(arg.addr, arg.nbytes, f"kernel {kernel.name}").copy()  # control input or scratch


class BoundChecks:
    """check_reads and record_writes of one launch over allocations proven to hold its buffers,
    with what they look at worked out once: which buffers are computing inputs and which count as
    written afterwards, at which offsets of which allocation. The device keeps it beside a kernel
    body bound to the same views (the same launch, the same live allocations) and runs it in place
    of the two calls, with the same reports and the same written state. Not for a launch with a
    moved input (its outputs' state comes from a shadow run).
    """

    __slots__ = ("kernel", "marks", "reads")

    def __init__(self, kernel: KernelLaunch, allocs: tuple[Allocation, ...]) -> None:
        self.kernel = kernel
        roles = kernel.init_roles
        self.reads = tuple(
            (index, allocs[index], arg.addr - allocs[index].info.addr, arg.nbytes)
            for index, (arg, role) in enumerate(zip(kernel.args, roles, strict=False))
            if role is InitRole.COMPUTES and arg.nbytes > 0
        )
        marks = []
        for index, arg in enumerate(kernel.args):
            role = roles[index] if index < len(roles) else None
            if not roles:
                written = bool(arg.access & Access.WRITE)
            else:
                written = role in OUTPUTS or (role is InitRole.UNREAD and bool(arg.access & Access.WRITE))
            if written and arg.nbytes > 0:
                start = arg.addr - allocs[index].info.addr
                marks.append((allocs[index], start, start + arg.nbytes))
        self.marks = tuple(marks)

    @staticmethod
    def applies(kernel: KernelLaunch) -> bool:
        return InitRole.MOVES not in kernel.init_roles

    def check_reads(self, heap: Heap, on_uninit: Callable[[UninitRead], None] | None) -> None:
        """``check_reads`` of the launch (``on_uninit``: as there)."""
        kernel = self.kernel
        for index, alloc, start, nbytes in self.reads:
            written = alloc.written
            if written is None:
                count, first = nbytes, alloc.info.addr + start
            else:
                count, offset = written.unwritten(start, start + nbytes)
                if not count:
                    continue
                first = alloc.info.addr + offset
            arg = kernel.args[index]
            read = UninitRead(kernel.name, index, arg.addr, arg.nbytes, count, first, heap.allocation_start(arg.addr))
            report = on_uninit if on_uninit is not None else kernel.on_uninit
            if report is not None:
                report(read)
            else:
                log.warning("device.uninitialised_read", kernel=kernel.name, addr=hex(arg.addr), unwritten=count)

    def record_writes(self) -> None:
        """``record_writes`` of the launch."""
        for alloc, start, end in self.marks:
            alloc.written_state().mark(start, end)
