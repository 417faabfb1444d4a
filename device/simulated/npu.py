"""SimulatedNpu: one emulated Ascend device, in process.

It is the runtime and driver underneath aclrt*: it owns the device address space (``Heap``),
pinned host memory, streams and events (``Scheduler``) and runs kernels block by block.
Fidelity notes:
- Synchronous copies, sets and frees do not wait for queued work on a card; here such a call
  that touches memory a queued task still uses is reported as a race (a ``RaceReport`` in
  ``races``, a ``device.race`` log line, each race listener told) and the queued work it
  depends on runs first, so the result is deterministic.
- A task enqueued on one stream that touches memory a task queued on another stream uses (one
  of them writing), with neither stream order nor an event between them, is a race on a card
  too: it is reported the same way when it is enqueued. Eager mode runs every task at once, so
  nothing stays queued and no race can be seen there.
- Host addresses are real. An address inside any device's window, or in the null page, is
  refused instead of dereferenced, so a swapped host/device pointer is an error, not a crash.
- Kernels are SPMD: ``func`` runs once per block with its block index and the tiling bytes;
  a block that uses more unified buffer than the SoC has fails like an AI Core exception, and a
  block dim of 0 or above 65535 is refused at launch (107000), as the runtime's KernelLaunch does.
- initcheck: which bytes were ever written is tracked per allocation (copies, memsets, kernel
  outputs); a kernel computing from never-written bytes is reported through the launch's
  ``on_uninit`` and a data-moving kernel carries the never-written state to its outputs.
- Every capability flag is on: Python kernels run, every task is reported to task listeners
  with its simulated start and duration, and races are detected.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import structlog

from ..errors import InvalidValue, KernelOutOfBounds, UnifiedBufferOverflow
from ..host_budget import HostBudget
from ..interface import (
    Access,
    AddressKind,
    AllocationInfo,
    BlockContext,
    BufferArg,
    Device,
    DeviceCaps,
    DeviceFault,
    DevicePtr,
    Direction,
    EventId,
    FaultListener,
    KernelFunc,
    KernelLaunch,
    MemInfo,
    PageKind,
    RaceListener,
    RaceReport,
    SiteSource,
    SpanMemo,
    StreamId,
    TaskListener,
    UninitRead,
)
from ..soc import SocProfile, load_soc
from . import cost, initcheck
from .blocks import HOST_CORES, run_all
from .bounds import checked
from .capture import CaptureMode, CaptureStatus, Replay
from .heap import DEVICE_BASE, DEVICE_SPAN, Allocation, Heap
from .host import PinnedHost, host_view
from .host_maps import this_process as this_process_maps
from .streams import Scheduler
from .vmm import VirtualMemory

log = structlog.get_logger(logger_name="device.simulated")

MAX_DEVICES = 64
PARALLEL_MIN_BYTES = 4 * 1024 * 1024  # below this, handing blocks to threads costs more than it saves
NULL_PAGE = 0x10000
MAX_BLOCK_DIM = 0xFFFF  # the runtime's KernelLaunch refuses a coreDim above UINT16_MAX


class SimulatedNpu:
    """The in-process device model behind the Device protocol."""

    device_id: int
    soc: SocProfile
    caps: DeviceCaps = DeviceCaps(
        runs_python_kernels=True, supports_task_listeners=True, detects_races=True, holds_streams=True
    )

    def __init__(
        self,
        device_id: int = 0,
        soc: SocProfile | None = None,
        *,
        eager: bool = False,
        block_workers: int = 1,
        host_budget: HostBudget | None = None,
        hbm_limit: int | None = None,
    ) -> None:
        self.device_id = device_id
        self.soc = soc if soc is not None else load_soc()
        self.heap = Heap(
            device_id=device_id,
            capacity=self.soc.hbm_total,
            padding=self.soc.padding_size,
            huge1g=self.soc.huge1g_pages,
            budget=host_budget,
            limit=hbm_limit,
        )
        self.host = PinnedHost(self.heap.budget)  # one budget: device backing and pinned memory share the host
        self.host_maps = this_process_maps()
        self.vmm = VirtualMemory(self.heap, device_id=device_id, granularity=self.soc.vmm_granularity)
        self.scheduler = Scheduler(
            device_id=device_id, max_streams=self.soc.max_streams, max_events=self.soc.max_events, eager=eager
        )
        self._races: list[RaceReport] = []
        self.race_listeners: list[RaceListener] = []
        self.fault_listeners: list[FaultListener] = []
        self._site_source: SiteSource | None = None
        self._capture_mode_source: Callable[[], int] | None = None
        self.lock = threading.RLock()
        self.block_workers = block_workers
        self._pool: ThreadPoolExecutor | None = None
        self.spare_cores: Callable[[], int] = HOST_CORES.spare  # cores free for block helpers now
        self._log = log.bind(device=device_id)

    def add_task_listener(self, listener: TaskListener) -> None:
        """Observe every finished task (the lifecycle trace's device lanes), on the simulated clock."""
        self.scheduler.task_listeners.append(listener)

    def set_site_source(self, source: SiteSource | None) -> None:
        """What names the host call of each task enqueued from now on (in race and fault reports)."""
        self._site_source = source

    def add_race_listener(self, listener: RaceListener) -> None:
        """Observe every race as it is found."""
        self.race_listeners.append(listener)

    def add_fault_listener(self, listener: FaultListener) -> None:
        """Observe every fault (an out-of-bounds access …) as it is found."""
        self.fault_listeners.append(listener)

    def fault(self, fault: DeviceFault) -> None:
        """Tell the fault listeners (also for device parts beside this class, such as the heap's checks)."""
        self._log.error("device.fault", kind=fault.kind, task=fault.task, reason=fault.message)
        for listener in self.fault_listeners:
            listener(fault)

    @property
    def races(self) -> list[RaceReport]:
        """Every race so far: host operations and tasks that touched memory a queued task still used."""
        return self._races

    @property
    def eager(self) -> bool:
        return self.scheduler.eager

    @eager.setter
    def eager(self, value: bool) -> None:
        self.scheduler.eager = value

    # -- memory -----------------------------------------------------------------------------
    def allocate(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> AllocationInfo:
        # only the heap's tables change (under its leaf lock): no byte and no queued task is touched,
        # so an allocation does not wait for another thread's kernels (docs/reliability.md's scheme)
        info = self.heap.allocate(size, policy, padded=padded, tag=tag).info
        self._log.debug("device.malloc", addr=info.addr, size=size, charged=info.charged, tag=tag)
        return info

    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> DevicePtr:
        return self.allocate(size, policy, padded=padded, tag=tag).addr

    def free(self, ptr: DevicePtr) -> AllocationInfo:
        with self.lock:
            scheduler = self.scheduler
            if scheduler.busy:  # queued work may still use the memory: it runs first, and a race is reported
                alloc = self.heap.get(ptr)
                if alloc is not None and scheduler.conflicts(ptr, alloc.info.alloc_size, Access.WRITE):
                    self._settle(f"aclrtFree({ptr:#x})", ptr, alloc.info.alloc_size, Access.WRITE)
            info = self.heap.release(ptr).info
        self._log.debug("device.free", addr=ptr, charged=info.charged)
        return info

    def allocation(self, ptr: DevicePtr) -> AllocationInfo | None:
        alloc = self.heap.get(ptr)
        return alloc.info if alloc is not None else None

    def live_allocations(self) -> list[AllocationInfo]:
        return self.heap.live()

    def mem_info(self, page_kind: PageKind | None = None) -> MemInfo:
        return self.heap.mem_info(page_kind)

    def malloc_host(self, size: int) -> int:
        with self.lock:
            return self.host.allocate(size)

    def free_host(self, ptr: int) -> int:
        with self.lock:
            self._settle(f"aclrtFreeHost({ptr:#x})", ptr, self.host.size_of(ptr), Access.WRITE)
            return self.host.release(ptr)

    def classify(self, ptr: int) -> AddressKind:
        if self._in_own_window(ptr):
            return AddressKind.DEVICE
        if self.host.contains(ptr):
            return AddressKind.PINNED_HOST
        return AddressKind.UNREGISTERED

    def _in_own_window(self, ptr: int) -> bool:
        base = DEVICE_BASE + self.device_id * DEVICE_SPAN
        return base <= ptr < base + DEVICE_SPAN

    # -- virtual memory (device/simulated/vmm.py) --------------------------------------------
    def reserve_mem(self, size: int) -> DevicePtr:
        with self.lock:
            return self.vmm.reserve(size)

    def release_mem(self, addr: int) -> int:
        with self.lock:
            return self.vmm.release(addr)

    def malloc_physical(self, size: int) -> int:
        with self.lock:
            return self.vmm.malloc_physical(size)

    def free_physical(self, handle: int) -> int:
        with self.lock:
            return self.vmm.free_physical(handle)

    def map_mem(self, va: int, size: int, offset: int, handle: int) -> None:
        with self.lock:
            self.vmm.map(va, size, offset, handle)

    def unmap_mem(self, va: int) -> None:
        """Queued work on the range runs first: after the unmap its addresses resolve to nothing."""
        with self.lock:
            found = self.vmm.mapping_at(va)
            if found is not None:
                self._settle(f"aclrtUnmapMem({va:#x})", va, found[1], Access.WRITE)
            self.vmm.unmap(va)

    # -- copies between devices (peer access) -------------------------------------------------
    def peer_copy(self, dst: int, src: int, count: int, peer: Device, stream: StreamId | None) -> None:
        """A device-to-device copy with one end on ``peer``; ``stream`` (of this device) or synchronous.

        The peer's queued work on its end runs first (the peer has no part in this stream's order);
        the copy itself is a task of this device's stream, so it is ordered with that stream's work.
        """
        if not isinstance(peer, SimulatedNpu):
            raise InvalidValue("a peer copy between a simulated device and another backend's", peer=peer.device_id)
        first, second = sorted((self, peer), key=lambda d: d.device_id)  # one lock order across devices
        with first.lock, second.lock:
            dst_dev = self if self._in_own_window(dst) else peer
            src_dev = self if self._in_own_window(src) else peer
            for dev, addr, what in ((dst_dev, dst, "copy destination"), (src_dev, src, "copy source")):
                if dev.heap.containing(addr, count) is None:
                    raise InvalidValue(dev.heap.describe_bad_address(addr, count, what), addr=addr, count=count)
            peer_end = (dst, Access.WRITE) if dst_dev is peer else (src, Access.READ)
            peer._settle("peer copy", peer_end[0], count, peer_end[1])

            def run() -> None:
                target = dst_dev.heap.view_for_overwrite(dst, count, "copy destination")
                src_dev.heap.read_into(src, target, "copy source")
                dst_dev.heap.assign_written(dst, src_dev.heap.written_mask(src, count))

            own = BufferArg(src, count, Access.READ) if src_dev is self else BufferArg(dst, count, Access.WRITE)
            if stream is None:
                self._check_sync_call("aclrtMemcpy")
                self._settle("aclrtMemcpy D2D (peer)", own.addr, count, own.access)
                run()
            else:
                duration = cost.copy_us(self.soc, count, Direction.D2D)
                self._submit(stream, "memcpy_async D2D (peer)", run, (own,), duration)

    # -- stream capture (device/simulated/capture.py) -----------------------------------------
    def set_capture_mode_source(self, source: Callable[[], int] | None) -> None:
        """What gives the calling thread's capture mode (aclmdlRICaptureThreadExchangeMode); None: GLOBAL."""
        self._capture_mode_source = source

    def _check_sync_call(self, operation: str) -> None:
        mode = self._capture_mode_source() if self._capture_mode_source is not None else int(CaptureMode.GLOBAL)
        self.scheduler.check_sync_call(operation, threading.get_ident(), mode)

    def begin_capture(self, stream: StreamId, mode: int, model: int) -> None:
        with self.lock:
            self.scheduler.begin_capture(stream, CaptureMode(mode), threading.get_ident(), model)

    def end_capture(self, stream: StreamId) -> list[Replay]:
        with self.lock:
            return self.scheduler.end_capture(stream, threading.get_ident())

    def capture_info(self, stream: StreamId) -> tuple[int, int]:
        """(aclmdlRICaptureStatus, the model being captured or 0)."""
        capture = self.scheduler.capture_of(stream)
        if capture is None:
            return int(CaptureStatus.NONE), 0
        return int(capture.status), capture.model

    def replay(self, entries: list[Replay], stream: StreamId) -> None:
        with self.lock:
            for entry in entries:
                entry(stream)

    # -- copies and sets --------------------------------------------------------------------
    def copy(self, dst: int, src: int, count: int, direction: Direction, stream: StreamId | None) -> None:
        with self.lock:
            self._check_end(dst, count, direction in (Direction.H2D, Direction.D2D), "copy destination", write=True)
            self._check_end(src, count, direction in (Direction.D2H, Direction.D2D), "copy source", write=False)
            if dst == src:
                return

            def run() -> None:
                target = self._write_view(dst, count, direction)
                if direction in (Direction.D2H, Direction.D2D):  # untouched source chunks read as poison
                    self.heap.read_into(src, target, "copy source")
                else:
                    np.copyto(target, host_view(src, count))
                if direction is Direction.D2D:
                    self.heap.copy_written(dst, src, count)  # never-written source bytes stay never-written
                elif direction is Direction.H2D:
                    self.heap.mark_written(dst, count)

            buffers = (BufferArg(src, count, Access.READ), BufferArg(dst, count, Access.WRITE))
            if stream is None:
                self._check_sync_call("aclrtMemcpy")
                for buf in buffers:
                    self._settle(f"aclrtMemcpy {direction.name}", buf.addr, buf.nbytes, buf.access)
                run()
            else:
                duration = cost.copy_us(self.soc, count, direction)
                self._submit(stream, f"memcpy_async {direction.name}", run, buffers, duration)

    def memset(self, ptr: int, value: int, count: int, stream: StreamId | None) -> None:
        with self.lock:
            on_device = self._in_own_window(ptr)
            self._check_end(ptr, count, on_device, "memset destination", write=True)
            byte = value & 0xFF

            def run() -> None:
                view = self.heap.view_for_overwrite(ptr, count, "memset") if on_device else host_view(ptr, count)
                view.fill(byte)
                if on_device:
                    self.heap.mark_written(ptr, count)

            buffers = (BufferArg(ptr, count, Access.WRITE),)
            if stream is None:
                self._check_sync_call("aclrtMemset")
                self._settle("aclrtMemset", ptr, count, Access.WRITE)
                run()
            else:
                self._submit(stream, "memset_async", run, buffers, cost.memset_us(self.soc, count))

    def _check_end(self, addr: int, count: int, on_device: bool, what: str, *, write: bool) -> None:
        if on_device:
            if self.heap.containing(addr, count) is None:
                raise InvalidValue(self.heap.describe_bad_address(addr, count, what), addr=addr, count=count)
        elif addr < NULL_PAGE or DEVICE_BASE <= addr < DEVICE_BASE + MAX_DEVICES * DEVICE_SPAN:
            raise InvalidValue(f"{what} {addr:#x} is not host memory (a device address, or the null page)", addr=addr)
        elif (why := self.host_maps.refusal(addr, count, write=write)) is not None:
            # checked before the copy touches it: a bad host pointer is an error status, never a SIGSEGV
            raise InvalidValue(f"{what} {addr:#x} ({count} bytes) {why}", addr=addr, count=count)

    def _write_view(self, addr: int, count: int, direction: Direction) -> np.ndarray:
        if direction in (Direction.H2D, Direction.D2D):
            return self.heap.view_for_overwrite(addr, count, "copy destination")
        return host_view(addr, count)

    def _settle(self, operation: str, addr: int, nbytes: int, access: Access) -> None:
        """Report queued tasks that race a synchronous host operation, then run them first."""
        conflicts = self.scheduler.conflicts(addr, nbytes, access)
        if not conflicts:
            return
        end = addr + nbytes
        for task in conflicts:
            overlap = [b for b in task.buffers if b.addr < end and addr < b.addr + b.nbytes]
            lo = max(addr, min(b.addr for b in overlap))
            hi = min(end, max(b.addr + b.nbytes for b in overlap))
            writes = any(Access.WRITE in b.access for b in overlap)
            self._race(RaceReport(operation, lo, hi - lo, task.name, task.stream, None, writes, task.site))
        self.scheduler.run_through(conflicts)

    def _submit(
        self,
        stream: StreamId,
        name: str,
        run: Callable[[], None],
        buffers: tuple[BufferArg, ...],
        duration: float,
        site: object = None,
    ) -> None:
        """Enqueue a task that touches device memory, reporting the queued tasks of other streams it races."""
        if site is None:
            site = self._site()
        captured = self.scheduler.capture_of(stream) is not None  # nothing runs now: no race to see yet
        for task, theirs, mine in () if captured else self.scheduler.cross_stream_conflicts(stream, buffers):
            lo, hi = max(theirs.addr, mine.addr), min(theirs.addr + theirs.nbytes, mine.addr + mine.nbytes)
            writes = Access.WRITE in theirs.access
            self._race(RaceReport(name, lo, hi - lo, task.name, task.stream, stream, writes, task.site))
        self.scheduler.submit(stream, name, run, buffers=buffers, duration_us=duration, site=site)

    def _race(self, report: RaceReport) -> None:
        self._races.append(report)
        self._log.warning(
            "device.race",
            operation=report.operation,
            addr=hex(report.addr),
            nbytes=report.nbytes,
            task=report.task,
            stream=hex(report.stream),
            operation_stream=hex(report.operation_stream) if report.operation_stream is not None else None,
            hint="synchronize the stream before touching this memory from the host"
            if report.operation_stream is None
            else "order the streams with an event (record on one, wait on the other)",
        )
        for listener in self.race_listeners:
            listener(report)

    # -- streams and events -----------------------------------------------------------------
    def create_stream(self, priority: int = 0, flags: int = 0) -> StreamId:
        with self.lock:
            return self.scheduler.create_stream(priority, flags)

    def destroy_stream(self, stream: StreamId, *, force: bool = False) -> None:
        with self.lock:
            self.scheduler.destroy_stream(stream, force=force)

    def synchronize_stream(self, stream: StreamId, timeout_ms: int = -1) -> None:
        with self.lock:
            self.scheduler.synchronize(stream, timeout_ms)

    def stream_done(self, stream: StreamId) -> bool:
        return self.scheduler.pending_tasks(stream) == 0

    def create_event(self, flags: int | None, *, ex: bool = False) -> EventId:
        with self.lock:
            return self.scheduler.create_event(flags, ex=ex)

    def destroy_event(self, event: EventId) -> None:
        with self.lock:
            self.scheduler.destroy_event(event)

    def record_event(self, event: EventId, stream: StreamId) -> None:
        with self.lock:
            self.scheduler.record(event, stream)

    def reset_event(self, event: EventId, stream: StreamId) -> None:
        with self.lock:
            self.scheduler.reset(event, stream)

    def stream_wait_event(self, stream: StreamId, event: EventId) -> None:
        with self.lock:
            self.scheduler.wait(stream, event)

    def synchronize_event(self, event: EventId, timeout_ms: int = -1) -> None:
        with self.lock:
            self.scheduler.synchronize_event(event, timeout_ms)

    def hold_stream(self, stream: StreamId) -> int:
        with self.lock:
            return self.scheduler.hold(stream)

    def release_stream(self, stream: StreamId, hold: int) -> None:
        with self.lock:
            self.scheduler.release(stream, hold)

    def event_state(self, event: EventId) -> tuple[bool, bool]:
        ev = self.scheduler.event(event)
        return ev.recorded is not None, self.scheduler.event_done(ev)

    def event_is_ex(self, event: EventId) -> bool:
        return self.scheduler.event(event).ex

    def event_elapsed_ms(self, start: EventId, end: EventId) -> float:
        return self.scheduler.elapsed_ms(start, end)

    def synchronize(self) -> None:
        with self.lock:
            self.scheduler.synchronize_all()

    # -- kernels ----------------------------------------------------------------------------
    def launch(
        self,
        kernel: KernelLaunch,
        stream: StreamId,
        site: object = None,
        on_uninit: Callable[[UninitRead], None] | None = None,
    ) -> None:
        """Enqueue ``kernel``; ``site``: the host call's site when the caller has it already (else the source's);
        ``on_uninit``: this launch's initcheck reporter, in place of ``kernel.on_uninit``."""
        with self.lock:
            if not 1 <= kernel.block_dim <= MAX_BLOCK_DIM:  # the task descriptor holds the block dim in 16 bits
                raise InvalidValue(
                    f"kernel {kernel.name}: block dim {kernel.block_dim} is invalid; it must be greater than 0 "
                    f"and less than or equal to {MAX_BLOCK_DIM}",
                    block_dim=kernel.block_dim,
                )
            name = f"kernel {kernel.name}"
            if self._site_source is None:
                site = None  # no site source: tasks carry none, whatever the caller has
            elif site is None:
                site = self._site_source()
            memo = kernel.memo
            proof = memo.bounds if memo is not None else None
            if proof is None or self._proven(proof, kernel.args) is None:
                found = []
                for arg in kernel.args:
                    alloc = self.heap.containing(arg.addr, arg.nbytes)
                    if alloc is None:
                        what = self.heap.describe_bad_address(arg.addr, arg.nbytes, f"{name} argument")
                        self.fault(DeviceFault("out of bounds", name, stream, what.removeprefix(f"{name} "), site))
                        raise InvalidValue(what, addr=arg.addr, count=arg.nbytes)
                    found.append(alloc)
                duration = cost.kernel_us(self.soc, kernel)
                if memo is not None:  # the duration, too, depends only on what the proof compares
                    memo.bounds = (self.heap, kernel.args, tuple(found), duration)
            else:
                duration = proof[3]  # type: ignore[assignment]
                if proof[1] is not kernel.args:  # equal buffers: the next launch of this one compares by identity
                    memo.bounds = (proof[0], kernel.args, proof[2], duration)  # type: ignore[union-attr]
            run = self._kernel_task(kernel, name, stream, site, on_uninit)
            self._submit(stream, name, run, kernel.args, duration, site)

    def _proven(self, proof: tuple[object, ...] | None, args: tuple[BufferArg, ...]) -> tuple[Allocation, ...] | None:
        """The allocations a memo proved hold ``args``, if that proof still holds, else None.

        It holds when it was made on this device for the same buffers and every allocation is still
        the live one at its address: an allocation's size never changes, so its bounds do not either.
        A freed buffer, or one re-allocated (a new allocation object), fails it; so does a reserved
        range, whose mapping may change under the same allocation.
        """
        if proof is None or proof[0] is not self.heap or (proof[1] is not args and proof[1] != args):
            return None
        allocs: tuple[Allocation, ...] = proof[2]  # type: ignore[assignment]
        get = self.heap.get
        for alloc in allocs:
            if get(alloc.info.addr) is not alloc or alloc.mapped is not None:
                return None
        return allocs

    def _site(self) -> object:
        return self._site_source() if self._site_source is not None else None

    def _kernel_task(
        self,
        kernel: KernelLaunch,
        name: str,
        stream: StreamId,
        site: object,
        on_uninit: Callable[[UninitRead], None] | None = None,
    ) -> Callable[[], None]:
        """The task that runs ``kernel``; an out-of-bounds access is told to the fault listeners as it fails."""

        def run() -> None:
            try:
                self._run_kernel(kernel, on_uninit)
            except KernelOutOfBounds as exc:
                self.fault(DeviceFault("out of bounds", name, stream, exc.message.removeprefix(f"{name}: "), site))
                raise

        return run

    def _run_kernel(self, kernel: KernelLaunch, on_uninit: Callable[[UninitRead], None] | None = None) -> None:
        if kernel.ub_bytes_per_block > self.soc.ub_size:
            raise UnifiedBufferOverflow(
                f"kernel {kernel.name}: a block uses {kernel.ub_bytes_per_block} bytes of unified buffer, "
                f"the SoC has {self.soc.ub_size}",
                kernel=kernel.name,
                ub_bytes=kernel.ub_bytes_per_block,
                ub_size=self.soc.ub_size,
            )
        memo = kernel.memo
        allocs = self._proven(memo.bounds, kernel.args) if memo is not None else None  # checked again: freed since?
        kept = self._kept_views(kernel, allocs)
        if kept is not None and kept[1] is not None:  # the same launch over the same live views
            body, checks = kept[1]
            if kernel.init_roles:
                checks.check_reads(self.heap, on_uninit)
            body()
            checks.record_writes()
            return
        if kernel.init_roles:
            initcheck.check_reads(self.heap, kernel, allocs, on_uninit)
        views = kept[0] if kept is not None else self._fresh_views(kernel, allocs)
        self._run_views(kernel, views, memo if allocs is not None else None, allocs)
        initcheck.record_writes(self.heap, kernel, lambda shadows: self._run_shadow(kernel, shadows), allocs)

    def _run_views(
        self,
        kernel: KernelLaunch,
        views: list[np.ndarray],
        memo: SpanMemo | None,
        allocs: tuple[Allocation, ...] | None = None,
    ) -> None:
        """Run the blocks over ``views``; ``memo``: a proven memo whose views these are, ``allocs`` its
        allocations (a serial run of a kernel that can bind its blocks then keeps the bound body, and
        initcheck's bound checks, for the next run)."""
        views = self._with_inline(kernel, views)
        if kernel.bounds_checked:
            views = [checked(view, kernel.name) for view in views]
        pool, helpers = self._block_pool(kernel)
        if pool is None:
            keep = memo is not None and memo.views is not None and allocs is not None
            binder = block_binder(kernel.func) if keep and initcheck.BoundChecks.applies(kernel) else None
            plain = not (kernel.inline_args or kernel.bounds_checked or kernel.check is not None)
            bound = None
            if binder is not None and plain and kernel.block_dim > 0:
                first = BlockContext(0, kernel.block_dim, kernel.tiling, self.soc.ub_size, kernel.attrs, kernel.printf)
                bound = binder(first, kernel.block_dim, *views)
            if bound is not None:
                assert memo is not None and memo.views is not None and allocs is not None
                memo.views = (*memo.views[:4], (kernel, (bound, initcheck.BoundChecks(kernel, allocs))))
                bound()
            else:
                run_all(kernel, self.soc.ub_size, views)
        else:  # numpy releases the GIL, so runs of blocks of a large kernel overlap on the host's cores
            run_all(kernel, self.soc.ub_size, views, pool, helpers)
        if kernel.check is not None:
            kernel.check(views)

    def _kept_views(
        self, kernel: KernelLaunch, allocs: tuple[Allocation, ...] | None
    ) -> tuple[list[np.ndarray], tuple[Callable[[], None], initcheck.BoundChecks] | None] | None:
        """The views a plan's memo keeps for these buffers, if they still serve, with the body (and
        initcheck's checks) bound to them at the last run of this very launch (None: none yet).

        ``allocs``: the memo's allocations of the buffers, proven live where they were just now
        (None: no such proof). A view is a slice of its allocation's backing; once made, every
        chunk under it has been touched (and paid for), and touched chunks stay so while the
        allocation lives, so the same views serve again over the same backings — and so does a
        body bound to them (``block_binder``), which holds nothing else that a launch of the same
        ``KernelLaunch`` could change.
        """
        memo = kernel.memo
        if allocs is None or memo is None or memo.views is None:
            return None
        kept = memo.views
        args, proven, backings, views = kept[:4]
        if not (
            (args is kernel.args or args == kernel.args)
            and proven == allocs
            and all(
                alloc.buffer is backing
                for alloc, backing in zip(allocs, backings, strict=True)  # type: ignore[call-overload]
            )
        ):
            return None
        bound = kept[4] if len(kept) > 4 else None
        if bound is not None and bound[0] is kernel:  # type: ignore[index]
            return list(views), bound[1]  # type: ignore[call-overload, index]
        memo.views = (kernel.args, *kept[1:4])  # equal buffers: compared by identity from now on
        return list(views), None  # type: ignore[call-overload]

    def _fresh_views(self, kernel: KernelLaunch, allocs: tuple[Allocation, ...] | None) -> list[np.ndarray]:
        """New views of the kernel's buffers, kept in a plan's memo when ``allocs`` proves them."""
        fresh = self.heap.views([(arg.addr, arg.nbytes) for arg in kernel.args], f"kernel {kernel.name}")
        memo = kernel.memo
        if allocs is not None and memo is not None:
            memo.views = (kernel.args, allocs, tuple(a.buffer for a in allocs), tuple(fresh))
        return fresh

    @staticmethod
    def _with_inline(kernel: KernelLaunch, buffers: list[np.ndarray]) -> list[np.ndarray]:
        views = list(buffers)  # a new list: the caller's stays one entry per args entry
        for position, data in kernel.inline_args:  # host data the launch carried in its argument block
            views.insert(position, np.frombuffer(data, dtype=np.uint8))
        return views

    def _run_shadow(self, kernel: KernelLaunch, shadows: list[np.ndarray]) -> None:
        """initcheck's second run of a data-moving kernel over shadow buffers (no prints, no checks)."""
        views = self._with_inline(kernel, shadows)
        for block in range(kernel.block_dim):
            kernel.func(BlockContext(block, kernel.block_dim, kernel.tiling, self.soc.ub_size, kernel.attrs), *views)

    def _block_pool(self, kernel: KernelLaunch) -> tuple[ThreadPoolExecutor | None, int]:
        """The pool and how many of its threads help the caller with ``kernel``: none for a small
        kernel, or while the host has no core to spare (``blocks.HostCores``)."""
        if self.block_workers < 2 or kernel.block_dim < 2:
            return None, 0
        if sum(arg.nbytes for arg in kernel.args) < PARALLEL_MIN_BYTES:
            return None, 0
        helpers = min(self.block_workers - 1, self.spare_cores())
        if helpers < 1:
            return None, 0
        if self._pool is None:
            # the calling thread takes runs of blocks too (``blocks.run_all``)
            self._pool = ThreadPoolExecutor(self.block_workers - 1, thread_name_prefix=f"npu{self.device_id}-block")
        return self._pool, helpers

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        with self.lock:
            for sid in self.scheduler.streams():
                self.scheduler.destroy_stream(sid, force=True)


def block_binder(func: KernelFunc) -> Callable[..., Callable[[], None] | None] | None:
    """A kernel's ``bind_blocks(first, count, *views)``, if it has one: the run of ``count`` blocks
    (as ``run_blocks`` would do it) bound to those views, for a launch that runs again over the same
    views; it may decline (None) for what it cannot bind (a broadcast read, a cast)."""
    binder = getattr(func, "bind_blocks", None)
    return binder if callable(binder) else None
