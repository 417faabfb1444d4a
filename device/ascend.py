"""AscendNpu: the Device protocol over a real Ascend card, through pyACL.

The emulator's runtime layer talks to this class exactly as it talks to SimulatedNpu, so a
script or leak test written against the emulator runs unchanged on a card. pyACL is imported
only when the backend is opened (``OPBASE_EMU_BACKEND=ascend``); a machine without it gets a
clear error instead of an import failure at start-up. Any module with pyACL's layout can be
passed as ``acl_module`` — the project's tests pass the emulator's own pyACL face, which is how
this file is exercised on machines without a card.

Fidelity notes:
- Python kernels cannot run on a card: ``launch`` raises FeatureNotSupported. On hardware the
  op provider is the real libopapi (DESIGN.md's second seam), not this class.
- Race reports and simulated time do not exist here: a card runs tasks when it runs them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from emulator.device import errors
from emulator.device.interface import (
    AddressKind,
    AllocationInfo,
    DevicePtr,
    Direction,
    EventId,
    KernelLaunch,
    MemInfo,
    PageKind,
    StreamId,
)
from emulator.device.simulated.heap import charge, rounded_size
from emulator.device.soc import DEFAULT_SOC, SocProfile, available_socs, load_soc

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

    def __init__(
        self, device_id: int = 0, soc: SocProfile | None = None, *, acl_module: ModuleType | None = None, **_: Any
    ) -> None:
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
        self._allocations: dict[int, AllocationInfo] = {}
        self._pinned: dict[int, int] = {}
        self._recorded: set[int] = set()
        self._ex_events: set[int] = set()

    def _check(self, ret: int) -> None:
        if ret != 0:
            cls = self._errors.get(int(ret), errors.DeviceError)
            message = self._acl.get_recent_err_msg() or f"pyACL returned {ret}"
            exc = cls(message, code=int(ret))
            if cls is errors.DeviceError:
                exc.status = int(ret)  # type: ignore[misc]  # keep the card's own code
            raise exc

    # -- memory -----------------------------------------------------------------------------
    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> DevicePtr:
        alloc = self._acl.rt.malloc if padded else self._acl.rt.malloc_align32
        ptr, ret = alloc(size, policy)
        self._check(ret)
        alloc_size = rounded_size(size, self.soc.padding_size if padded else 0)
        kind = PageKind.HUGE if alloc_size > 1 << 20 and policy & 0xFF in (0, 1, 3, 4) else PageKind.NORMAL
        self._allocations[ptr] = AllocationInfo(ptr, size, alloc_size, charge(alloc_size, kind), kind, policy, tag)
        return DevicePtr(ptr)

    def free(self, ptr: int) -> AllocationInfo:
        self._check(self._acl.rt.free(ptr))
        return self._allocations.pop(ptr)

    def allocation(self, ptr: int) -> AllocationInfo | None:
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
        self._pinned[ptr] = size
        return int(ptr)

    def free_host(self, ptr: int) -> int:
        self._check(self._acl.rt.free_host(ptr))
        return self._pinned.pop(ptr)

    def classify(self, ptr: int) -> AddressKind:
        for start, info in self._allocations.items():
            if start <= ptr < start + info.alloc_size:
                return AddressKind.DEVICE
        for start, size in self._pinned.items():
            if start <= ptr < start + size:
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
            event, ret = self._acl.rt.create_event()
        elif ex:
            event, ret = self._acl.rt.create_event_ex_with_flag(flags)
        else:
            event, ret = self._acl.rt.create_event_with_flag(flags)
        self._check(ret)
        if ex:
            self._ex_events.add(event)
        return EventId(event)

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
    def launch(self, kernel: KernelLaunch, stream: StreamId) -> None:
        raise errors.FeatureNotSupported(
            f"kernel {kernel.name}: Python kernels run only on the simulated NPU; on a card use the real op provider"
        )

    def close(self) -> None:
        self._acl.rt.reset_device(self.device_id)
