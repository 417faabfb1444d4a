"""AscendNpu: the Device protocol over a real Ascend card, through pyACL.

The emulator's runtime layer talks to this class exactly as it talks to SimulatedNpu, so a
script or leak test written against the emulator runs unchanged on a card. pyACL is imported
only when the backend is opened (``OPBASE_EMU_BACKEND=ascend``); a machine without it gets a
clear error instead of an import failure at start-up. Any module with pyACL's layout can be
passed as ``acl_module`` — the project's tests pass the emulator's own pyACL face, which is how
this file is exercised on machines without a card.

Fidelity notes:
- Python kernels cannot run on a card: ``launch`` raises FeatureNotSupported. On hardware the
  op provider is the real libopapi (``emulator.provider``: the op-provider seam, beside this Device
  one, chosen by the same backend setting; docs/on_a_card.md), not this class.
- Race reports, task listeners and eager mode do not exist here: a card runs tasks when it runs
  them and pyACL reports neither their names nor their times. Each raises FeatureNotSupported
  (and ``caps`` says so) rather than pretending, so a trace or a race check knows it sees nothing.
- pyACL returns only a pointer, so what an allocation occupies is computed by the runtime's own
  rules (``memory_rules``), as the simulator computes it; the page kind is the policy's first
  choice (a HUGE_FIRST fallback to 4 KiB pages under memory pressure is invisible from here).
- ``block_workers`` tunes how the simulator spreads a Python kernel's blocks over host threads;
  a card runs no Python kernels, so the setting has nothing to act on and is accepted as is.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import errors, memory_rules
from .interface import (
    AddressKind,
    AllocationInfo,
    Device,
    DeviceCaps,
    DevicePtr,
    Direction,
    EventId,
    FaultListener,
    KernelLaunch,
    MemInfo,
    PageKind,
    RaceListener,
    RaceReport,
    SiteSource,
    StreamId,
    TaskListener,
    UninitRead,
)
from .soc import DEFAULT_SOC, SocProfile, available_socs, load_soc

DIRECTION_KIND = {Direction.H2H: 0, Direction.H2D: 1, Direction.D2H: 2, Direction.D2D: 3}
MEM_ATTR = {None: 1, PageKind.HUGE: 4, PageKind.NORMAL: 5, PageKind.GIANT: 10}  # ACL_HBM_MEM*


def _error_classes() -> dict[int, type[errors.DeviceError]]:
    table: dict[int, type[errors.DeviceError]] = {}
    for cls in vars(errors).values():
        if isinstance(cls, type) and issubclass(cls, errors.DeviceError):
            table.setdefault(cls.status, cls)
    return table


class AscendNpu:
    """One real device, driven through pyACL."""

    device_id: int
    soc: SocProfile
    caps: DeviceCaps = DeviceCaps(runs_python_kernels=False, supports_task_listeners=False, detects_races=False)

    def __init__(
        self,
        device_id: int = 0,
        soc: SocProfile | None = None,
        *,
        eager: bool = False,
        block_workers: int = 1,
        acl_module: ModuleType | None = None,
        host_budget: object = None,  # the simulator's host-RAM budget: a card's memory is its own
    ) -> None:
        if eager:
            raise errors.FeatureNotSupported(
                "eager mode (tasks run at enqueue) is a simulator debugging switch; a card schedules tasks itself",
                feature="eager",
            )
        try:
            self._acl: Any = acl_module or importlib.import_module("acl")
        except ImportError as exc:
            raise errors.FeatureNotSupported(
                "the 'ascend' backend needs pyACL (the CANN toolkit's python package 'acl')"
            ) from exc
        self._errors = _error_classes()
        self.device_id = device_id
        self._check(self._acl.rt.set_device(device_id))
        name = self._acl.get_soc_name()
        self.soc = soc or load_soc(name if name in available_socs() else DEFAULT_SOC)
        self._allocations: dict[DevicePtr, AllocationInfo] = {}
        self._pinned: dict[int, int] = {}  # host address -> reserved (rounded) size
        self._recorded: set[EventId] = set()
        self._ex_events: set[EventId] = set()

    def _check(self, ret: int) -> None:
        if ret != 0:
            cls = self._errors.get(int(ret), errors.DeviceError)
            message = self._acl.get_recent_err_msg() or f"pyACL returned {ret}"
            exc = cls(message, code=int(ret))
            if cls is errors.DeviceError:
                exc.status = int(ret)  # keep the card's own code
            raise exc

    # -- memory -----------------------------------------------------------------------------
    def allocate(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> AllocationInfo:
        alloc = self._acl.rt.malloc if padded else self._acl.rt.malloc_align32
        raw, ret = alloc(size, policy)
        self._check(ret)
        ptr = DevicePtr(raw)
        alloc_size = memory_rules.alloc_size(size, policy, padded=padded, soc_padding=self.soc.padding_size)
        kind = memory_rules.page_preference(alloc_size, policy)[0]
        charged = memory_rules.charge(alloc_size, kind)
        info = self._allocations[ptr] = AllocationInfo(ptr, size, alloc_size, charged, kind, policy, tag)
        return info

    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> DevicePtr:
        return self.allocate(size, policy, padded=padded, tag=tag).addr

    def free(self, ptr: DevicePtr) -> AllocationInfo:
        self._check(self._acl.rt.free(ptr))
        return self._allocations.pop(ptr)

    def allocation(self, ptr: DevicePtr) -> AllocationInfo | None:
        return self._allocations.get(ptr)

    def live_allocations(self) -> list[AllocationInfo]:
        return list(self._allocations.values())

    def mem_info(self, page_kind: PageKind | None = None) -> MemInfo:
        free, total, ret = self._acl.rt.get_mem_info(MEM_ATTR[page_kind])
        self._check(ret)
        return MemInfo(free=free, total=total)

    def malloc_host(self, size: int) -> int:
        ptr, ret = self._acl.rt.malloc_host(size)
        self._check(ret)
        self._pinned[int(ptr)] = memory_rules.pinned_size(size)
        return int(ptr)

    def free_host(self, ptr: int) -> int:
        self._check(self._acl.rt.free_host(ptr))
        return self._pinned.pop(ptr)

    def classify(self, ptr: int) -> AddressKind:
        for info in self._allocations.values():
            if info.addr <= ptr < info.addr + info.alloc_size:
                return AddressKind.DEVICE
        for host, size in self._pinned.items():
            if host <= ptr < host + size:
                return AddressKind.PINNED_HOST
        return AddressKind.UNREGISTERED

    # -- copies and sets --------------------------------------------------------------------
    def copy(self, dst: int, src: int, count: int, direction: Direction, stream: StreamId | None) -> None:
        kind = DIRECTION_KIND[direction]
        if stream is None:
            self._check(self._acl.rt.memcpy(dst, count, src, count, kind))
        else:
            self._check(self._acl.rt.memcpy_async(dst, count, src, count, kind, stream))

    def memset(self, ptr: int, value: int, count: int, stream: StreamId | None) -> None:
        if stream is None:
            self._check(self._acl.rt.memset(ptr, count, value, count))
        else:
            self._check(self._acl.rt.memset_async(ptr, count, value, count, stream))

    # -- streams and events -----------------------------------------------------------------
    def create_stream(self, priority: int = 0, flags: int = 0) -> StreamId:
        stream, ret = self._acl.rt.create_stream_with_config(priority, flags)
        self._check(ret)
        return StreamId(stream)

    def destroy_stream(self, stream: StreamId, *, force: bool = False) -> None:
        destroy = self._acl.rt.destroy_stream_force if force else self._acl.rt.destroy_stream
        self._check(destroy(stream))

    def synchronize_stream(self, stream: StreamId, timeout_ms: int = -1) -> None:
        self._check(self._acl.rt.synchronize_stream_with_timeout(stream, timeout_ms))

    def stream_done(self, stream: StreamId) -> bool:
        status, ret = self._acl.rt.stream_query(stream)
        self._check(ret)
        return bool(status == 0)

    def create_event(self, flags: int | None, *, ex: bool = False) -> EventId:
        if flags is None:
            raw, ret = self._acl.rt.create_event()
        elif ex:
            raw, ret = self._acl.rt.create_event_ex_with_flag(flags)
        else:
            raw, ret = self._acl.rt.create_event_with_flag(flags)
        self._check(ret)
        event = EventId(raw)
        if ex:
            self._ex_events.add(event)
        return event

    def destroy_event(self, event: EventId) -> None:
        self._check(self._acl.rt.destroy_event(event))
        self._recorded.discard(event)
        self._ex_events.discard(event)

    def record_event(self, event: EventId, stream: StreamId) -> None:
        self._check(self._acl.rt.record_event(event, stream))
        self._recorded.add(event)

    def reset_event(self, event: EventId, stream: StreamId) -> None:
        self._check(self._acl.rt.reset_event(event, stream))
        self._recorded.discard(event)

    def stream_wait_event(self, stream: StreamId, event: EventId) -> None:
        self._check(self._acl.rt.stream_wait_event(stream, event))

    def synchronize_event(self, event: EventId, timeout_ms: int = -1) -> None:
        self._check(self._acl.rt.synchronize_event_with_timeout(event, timeout_ms))

    def event_state(self, event: EventId) -> tuple[bool, bool]:
        status, ret = self._acl.rt.query_event_status(event)
        self._check(ret)
        return event in self._recorded, bool(status == 1)

    def event_is_ex(self, event: EventId) -> bool:
        return event in self._ex_events

    def event_elapsed_ms(self, start: EventId, end: EventId) -> float:
        ms, ret = self._acl.rt.event_elapsed_time(start, end)
        self._check(ret)
        return float(ms)

    def synchronize(self) -> None:
        self._check(self._acl.rt.synchronize_device())

    # -- kernels ----------------------------------------------------------------------------
    def launch(
        self,
        kernel: KernelLaunch,
        stream: StreamId,
        site: object = None,
        on_uninit: Callable[[UninitRead], None] | None = None,
    ) -> None:
        raise errors.FeatureNotSupported(
            f"kernel {kernel.name}: Python kernels run only on the simulated NPU; on a card use the real op provider",
            feature="python kernels",
        )

    # -- observation ------------------------------------------------------------------------
    def hold_stream(self, stream: StreamId) -> int:
        raise errors.FeatureNotSupported(
            "a card's streams run on the card: a blocking callback holds them there, not in the emulator",
            feature="stream holds",
        )

    def release_stream(self, stream: StreamId, hold: int) -> None:
        raise errors.FeatureNotSupported("a card's streams are not held by the emulator", feature="stream holds")

    def add_task_listener(self, listener: TaskListener) -> None:
        raise errors.FeatureNotSupported(
            "a card does not report the tasks it ran through pyACL; use msprof for device timelines",
            feature="task listeners",
        )

    def set_site_source(self, source: SiteSource | None) -> None:
        raise errors.FeatureNotSupported(
            "a card's tasks are not tracked one by one through pyACL; the simulator names their host calls",
            feature="race detection",
        )

    def add_race_listener(self, listener: RaceListener) -> None:
        raise errors.FeatureNotSupported(
            "a card does not detect races between the host and queued tasks or between streams; the simulator does",
            feature="race detection",
        )

    def add_fault_listener(self, listener: FaultListener) -> None:
        raise errors.FeatureNotSupported(
            "a card reports a bad access as an AI Core exception, not as a sanitizer report; the simulator does",
            feature="race detection",
        )

    @property
    def races(self) -> list[RaceReport]:
        raise errors.FeatureNotSupported(
            "a card does not detect host operations that race queued tasks; the simulator does",
            feature="race detection",
        )

    # virtual memory, peer copies and stream capture: not forwarded to a card yet
    def _not_forwarded(self, what: str) -> errors.FeatureNotSupported:
        return errors.FeatureNotSupported(f"{what} is not forwarded to a card by this backend yet", feature=what)

    def reserve_mem(self, size: int) -> DevicePtr:
        raise self._not_forwarded("virtual memory")

    def release_mem(self, addr: int) -> int:
        raise self._not_forwarded("virtual memory")

    def malloc_physical(self, size: int) -> int:
        raise self._not_forwarded("virtual memory")

    def free_physical(self, handle: int) -> int:
        raise self._not_forwarded("virtual memory")

    def map_mem(self, va: int, size: int, offset: int, handle: int) -> None:
        raise self._not_forwarded("virtual memory")

    def unmap_mem(self, va: int) -> None:
        raise self._not_forwarded("virtual memory")

    def peer_copy(self, dst: int, src: int, count: int, peer: Device, stream: StreamId | None) -> None:
        raise self._not_forwarded("peer copies")

    def set_capture_mode_source(self, source: Callable[[], int] | None) -> None:
        return None  # a card keeps the thread's capture mode itself

    def begin_capture(self, stream: StreamId, mode: int, model: int) -> None:
        raise self._not_forwarded("stream capture")

    def end_capture(self, stream: StreamId) -> list[Callable[[StreamId], None]]:
        raise self._not_forwarded("stream capture")

    def capture_info(self, stream: StreamId) -> tuple[int, int]:
        return 0, 0

    def replay(self, entries: list[Callable[[StreamId], None]], stream: StreamId) -> None:
        raise self._not_forwarded("stream capture")

    def close(self) -> None:
        self._acl.rt.reset_device(self.device_id)
