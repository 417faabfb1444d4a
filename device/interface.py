"""The Device protocol: what the emulator needs from an NPU, and the value types it speaks.

Two backends provide it: ``device.simulated.SimulatedNpu`` (in-process model) and
``device.ascend.AscendNpu`` (a real card through pyACL). Everything above this line —
contexts, the per-thread current device, argument checks of the ACL layer, the choice of a
copy direction from ``aclrtMemcpyKind`` — lives in ``emulator``; a backend only does what the
runtime and the driver do: hand out memory, move bytes, queue and run tasks, keep time.
Addresses are plain ints: device addresses are never host-dereferenceable, host addresses are
real process addresses (pinned memory from ``malloc_host`` or any numpy buffer).

The protocol is exactly what both backends implement and what the layers above use; a member
one backend cannot honour is still implemented there and raises ``FeatureNotSupported``, and its
``DeviceCaps`` flag says so in advance, so a caller checks ``device.caps``, never ``hasattr``.
tests/backend/test_protocol_conformance.py fails when a backend's signature drifts from this one.
Sizing rules every backend shares (aclrtMalloc rounding, pages, charging) are in ``memory_rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, Flag, IntEnum, auto
from typing import Generic, NamedTuple, NewType, Protocol, TypeVar

import numpy as np

from .soc import SocProfile

DevicePtr = NewType("DevicePtr", int)
StreamId = NewType("StreamId", int)
EventId = NewType("EventId", int)

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB


class MemPolicy(IntEnum):
    """aclrtMemMallocPolicy base values; the low byte of a policy argument."""

    HUGE_FIRST = 0
    HUGE_ONLY = 1
    NORMAL_ONLY = 2
    HUGE_FIRST_P2P = 3
    HUGE_ONLY_P2P = 4
    NORMAL_ONLY_P2P = 5
    HUGE1G_ONLY = 6
    HUGE1G_ONLY_P2P = 7


class PageKind(Enum):
    """Driver page sizes: capacity is charged in whole pages of the rounded size."""

    NORMAL = 4 * KiB
    HUGE = 2 * MiB
    GIANT = 1 * GiB

    @property
    def page_size(self) -> int:
        return int(self._value_)  # not ``.value``: that is a descriptor lookup, and every malloc asks twice


class AddressKind(Enum):
    """How the runtime classifies a pointer for async copies."""

    DEVICE = auto()
    PINNED_HOST = auto()
    UNREGISTERED = auto()


class Direction(Enum):
    H2H = auto()
    H2D = auto()
    D2H = auto()
    D2D = auto()


class Access(Flag):
    READ = auto()
    WRITE = auto()
    READ_WRITE = READ | WRITE


class Engine(Enum):
    AICORE = auto()
    AICPU = auto()


@dataclass(frozen=True, slots=True)
class DeviceCaps:
    """What a backend can do beyond the floor every backend shares (tinygrad-style capability flags).

    A False flag means the matching protocol member raises ``FeatureNotSupported`` (207000), so a
    caller that wants to degrade gracefully checks the flag first instead of probing attributes.
    """

    runs_python_kernels: bool  # launch() runs KernelLaunch.func block by block
    supports_task_listeners: bool  # add_task_listener() sees every task the device ran
    detects_races: bool  # races lists host operations that touched memory a queued task used
    holds_streams: bool = False  # hold_stream() keeps a stream's later tasks queued (a blocking host callback)


@dataclass(frozen=True, slots=True)
class MemInfo:
    free: int
    total: int


class AllocationInfo(NamedTuple):
    """One live device allocation as the driver sees it (a NamedTuple: made on every malloc, so cheap)."""

    addr: DevicePtr
    size: int  # what the caller asked for
    alloc_size: int  # ALIGN_UP(size, 32) + pad: the bytes that are addressable
    charged: int  # whole pages of alloc_size: what capacity accounting counts
    page_kind: PageKind
    policy: int
    tag: str


@dataclass(frozen=True, slots=True)
class BufferArg:
    """A device range a task reads or writes; race detection and kernel views are built from these."""

    addr: int
    nbytes: int
    access: Access


@dataclass(frozen=True, slots=True)
class KernelAttrs:
    """What a compiled kernel binary has baked in: the base of one frozen dataclass per op.

    Each op declares its own subclass next to its kernel (the dtypes and shapes its binary serves, its
    attribute values, each a typed field), so a kernel reads ``ctx.attrs.alpha`` instead of unpacking a
    string-keyed bag. The device only carries the object from the launch to every block, which is why
    this base has no fields and ``device`` needs nothing from the op library to name it.
    """


NO_ATTRS = KernelAttrs()  # a launch whose function reads nothing baked in (MemSet, an upload)
AttrsT = TypeVar("AttrsT", bound=KernelAttrs, covariant=True)


@dataclass(frozen=True, slots=True)
class BlockContext(Generic[AttrsT]):
    """What one SPMD block of a kernel receives besides its buffers: its index and the tiling bytes.

    ``attrs`` carries what a compiled binary has baked in, as the op's own ``KernelAttrs`` dataclass
    (a kernel annotates ``ctx: BlockContext[AddAttrs]`` and gets its fields typed);
    ``printf`` is the kernel's debug print, which reaches the log only in debug-kernel mode.
    """

    block_idx: int
    block_dim: int
    tiling: bytes
    ub_size: int
    attrs: AttrsT
    sink: Callable[[str], None] | None = None

    def printf(self, text: str) -> None:
        if self.sink is not None:
            self.sink(f"[block {self.block_idx}/{self.block_dim}] {text}")


KernelFunc = Callable[..., None]  # (BlockContext, *np.ndarray views) -> None


def block_runner(func: KernelFunc) -> Callable[..., None] | None:
    """A kernel's ``run_blocks(first, count, *views)``, if it has one: the same work as calling it once
    per block for ``count`` consecutive blocks from ``first.block_idx``, done in one call.

    A kernel whose blocks each cover one slice of a flat range, and whose per-element result does not
    depend on where a block boundary falls, offers it, so a contiguous run of blocks becomes one numpy
    call (one pass over memory instead of one short pass per block, and no Python work per block)."""
    runner = getattr(func, "run_blocks", None)
    return runner if callable(runner) else None


class InitRole(Enum):
    """What a kernel does with the bytes of one buffer argument, for initcheck.

    A launch without roles (a MemSet, an upload) only writes: its write arguments count as written.
    """

    COMPUTES = auto()  # an input the kernel computes from: reading never-written bytes is reported
    MOVES = auto()  # an input whose bytes the kernel copies as they are: never-written bytes stay so
    UNREAD = auto()  # an input whose data the kernel never reads (only its shape), or scratch
    WRITES = auto()  # an output the kernel writes whole
    SCATTERS = auto()  # an output the kernel writes only in part (a strided scatter into a storage)


@dataclass(frozen=True, slots=True)
class UninitRead:
    """A kernel read device bytes that nothing had written since they were allocated."""

    kernel: str
    arg: int  # index into KernelLaunch.args
    addr: int
    nbytes: int
    unwritten: int
    first: int  # address of the first never-written byte
    allocation: int  # start address of the allocation


class SpanMemo:
    """A launch plan's memo, kept for the device across launches of the same plan.

    The device writes in it what it proved at the last launch (which allocation holds each
    buffer, and the views it made of them); a later launch with the same buffers reuses that proof
    only after checking that each allocation is still live at the same address on the same device
    (a freed, moved or re-allocated buffer fails the check and takes the full path, with its
    reports). Opaque to everyone else.
    """

    __slots__ = ("bounds", "views")

    def __init__(self) -> None:
        self.bounds: tuple[object, ...] | None = None
        self.views: tuple[object, ...] | None = None


@dataclass(frozen=True, slots=True)
class KernelLaunch:
    """One kernel launch: run ``func`` once per block over uint8 views of ``args``."""

    name: str
    func: KernelFunc
    block_dim: int
    args: tuple[BufferArg, ...]
    tiling: bytes = b""
    ub_bytes_per_block: int = 0
    engine: Engine = Engine.AICORE
    duration_us: float | None = None  # cost-model override; None derives it from the bytes touched
    attrs: KernelAttrs = NO_ATTRS  # the op's baked-in dtypes, shapes and attributes (see KernelAttrs)
    printf: Callable[[str], None] | None = None  # where kernel prints go (None: dropped, as without debug)
    check: Callable[[list[np.ndarray]], None] | None = None  # run after the blocks (debug-kernel output checks)
    bounds_checked: bool = False  # debug kernels: a slice past the end of a buffer is an exception
    inline_args: tuple[tuple[int, bytes], ...] = ()  # (position, bytes): host data carried in the argument block
    init_roles: tuple[InitRole, ...] = ()  # one per args entry (initcheck); empty: the launch only writes
    on_uninit: Callable[[UninitRead], None] | None = None  # told of each uninitialised read (initcheck)
    memo: SpanMemo | None = field(default=None, compare=False)  # a launch plan's (see SpanMemo)


@dataclass(frozen=True, slots=True)
class RaceReport:
    """Two accesses to the same device bytes, at least one a write, that nothing orders.

    Either a synchronous host operation (``operation_stream`` None) touched memory that a queued
    task still uses, or a task enqueued on ``operation_stream`` touches memory that a task still
    queued on another stream uses, with no stream order or event between them. ``addr`` and
    ``nbytes`` are the overlap. The sites are whatever the device's site source returned when each
    task was enqueued (the host call site; None without a source); they do not take part in equality.
    """

    operation: str
    addr: int
    nbytes: int
    task: str
    stream: StreamId
    operation_stream: StreamId | None = None
    task_writes: bool = True  # whether the queued task writes the bytes (else it reads them)
    task_site: object = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A misuse the device found in a task's memory accesses, told to fault listeners as it happens.

    ``kind`` is the sanitizer's name for it ("out of bounds", "uninitialised read" …; the device
    knows no report types above it); ``message`` says what went wrong without naming the task
    again (reports put ``task`` beside it); ``task_site`` is what the site source said when the task was
    enqueued (the host call). The device's own behaviour (a status, a failed stream) is unchanged.
    """

    kind: str
    task: str
    stream: StreamId | None
    message: str
    task_site: object = field(default=None, compare=False)


RaceListener = Callable[[RaceReport], None]
"""Told of each race as it is found, before the device carries on (it may raise to refuse the operation)."""
FaultListener = Callable[[DeviceFault], None]
"""Told of each fault as it is found (it may raise, as strict mode does)."""
SiteSource = Callable[[], object]
"""Called when a task is enqueued; what it returns names the host call in race and fault reports."""


TaskListener = Callable[[StreamId, str, float, float], None]
"""Told after each task ran: (stream, task name, start and duration in microseconds of device time)."""


class Device(Protocol):
    """The seam between the emulated runtime and a backend (simulated or real).

    Constructors take ``(device_id, soc, *, eager, block_workers)``, which is what
    ``open_device`` passes on from the settings; a backend may add keyword options of its own.
    """

    device_id: int
    soc: SocProfile
    caps: DeviceCaps

    # memory
    # allocate is malloc answering with the whole AllocationInfo (the runtime registers its charge)
    def allocate(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> AllocationInfo: ...
    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> DevicePtr: ...
    def free(self, ptr: DevicePtr) -> AllocationInfo: ...
    def allocation(self, ptr: DevicePtr) -> AllocationInfo | None: ...
    def live_allocations(self) -> list[AllocationInfo]: ...
    def mem_info(self, page_kind: PageKind | None = None) -> MemInfo: ...
    def malloc_host(self, size: int) -> int: ...
    def free_host(self, ptr: int) -> int: ...  # the rounded size that was reserved
    def classify(self, ptr: int) -> AddressKind: ...

    # copies and sets (host or device addresses); stream None = synchronous
    def copy(self, dst: int, src: int, count: int, direction: Direction, stream: StreamId | None) -> None: ...
    def memset(self, ptr: int, value: int, count: int, stream: StreamId | None) -> None: ...

    # streams and events
    def create_stream(self, priority: int = 0, flags: int = 0) -> StreamId: ...
    def destroy_stream(self, stream: StreamId, *, force: bool = False) -> None: ...
    def synchronize_stream(self, stream: StreamId, timeout_ms: int = -1) -> None: ...
    def stream_done(self, stream: StreamId) -> bool: ...
    def synchronize(self) -> None: ...  # every stream of the device
    # flags None is aclrtCreateEvent (no flags argument); ex marks aclrtCreateEventExWithFlag
    def create_event(self, flags: int | None, *, ex: bool = False) -> EventId: ...
    def destroy_event(self, event: EventId) -> None: ...
    def record_event(self, event: EventId, stream: StreamId) -> None: ...
    def reset_event(self, event: EventId, stream: StreamId) -> None: ...
    def stream_wait_event(self, stream: StreamId, event: EventId) -> None: ...
    def synchronize_event(self, event: EventId, timeout_ms: int = -1) -> None: ...
    def event_state(self, event: EventId) -> tuple[bool, bool]: ...  # (recorded, complete)
    def event_is_ex(self, event: EventId) -> bool: ...
    def event_elapsed_ms(self, start: EventId, end: EventId) -> float: ...

    # virtual memory: reserved ranges, physical handles (charged on the device), maps between them
    def reserve_mem(self, size: int) -> DevicePtr: ...
    def release_mem(self, addr: int) -> int: ...
    def malloc_physical(self, size: int) -> int: ...
    def free_physical(self, handle: int) -> int: ...
    def map_mem(self, va: int, size: int, offset: int, handle: int) -> None: ...
    def unmap_mem(self, va: int) -> None: ...
    # a device-to-device copy with one end on ``peer`` (peer access); stream None = synchronous
    def peer_copy(self, dst: int, src: int, count: int, peer: Device, stream: StreamId | None) -> None: ...

    # stream capture: tasks given to a capturing stream are recorded as replays, not run
    def set_capture_mode_source(self, source: Callable[[], int] | None) -> None: ...  # the thread's mode
    def begin_capture(self, stream: StreamId, mode: int, model: int) -> None: ...
    def end_capture(self, stream: StreamId) -> list[Callable[[StreamId], None]]: ...
    def capture_info(self, stream: StreamId) -> tuple[int, int]: ...  # (aclmdlRICaptureStatus, model or 0)
    def replay(self, entries: list[Callable[[StreamId], None]], stream: StreamId) -> None: ...

    # kernels (caps.runs_python_kernels); ``on_uninit``: this launch's initcheck reporter, in place of
    # the kernel's own (a launch plan reuses one KernelLaunch while each call reports at its own site)
    def launch(
        self,
        kernel: KernelLaunch,
        stream: StreamId,
        site: object = None,
        on_uninit: Callable[[UninitRead], None] | None = None,
    ) -> None: ...
    # a blocking host callback: tasks queued after this point wait until the hold is released
    def hold_stream(self, stream: StreamId) -> int: ...
    def release_stream(self, stream: StreamId, hold: int) -> None: ...

    # observation (caps.supports_task_listeners, caps.detects_races)
    def add_task_listener(self, listener: TaskListener) -> None: ...
    # the sanitizer's hooks (caps.detects_races): the host call of each task, races, faults
    def set_site_source(self, source: SiteSource | None) -> None: ...
    def add_race_listener(self, listener: RaceListener) -> None: ...
    def add_fault_listener(self, listener: FaultListener) -> None: ...
    @property
    def races(self) -> list[RaceReport]: ...

    def close(self) -> None: ...
