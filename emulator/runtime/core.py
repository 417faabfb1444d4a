"""The emulated ACL runtime: device reference counts, contexts, stream / event ownership, memory.

It sits between the pyACL face (which does the ACL layer's argument checks) and a Device
backend (which moves bytes and runs tasks). It answers the questions the real runtime answers
from its statics: which context is current on this thread, which context a stream belongs to,
which device an address lives on. Rules follow the real runtime's:
- aclrtSetDevice retains the device's primary context (process-wide count, any thread) and
  makes it current; the last reset tears down its default stream and every stream created
  under it; reset of an unset device is 507007.
- Streams belong to the context current at creation: submitting to or destroying one from
  another context is 107003; synchronising one is allowed from anywhere.
- No aclInit gate: these calls work without aclInit, as in the real code base.

Thread safety (the locking scheme of docs/reliability.md): ``Runtime.lock`` guards every table
here and is the outermost lock; it is held while a call goes down into a device (a reset drains
the context's streams), never the other way round. The open-device table is copy-on-write: a new
device replaces the whole dict, so the hot readers (``classify`` on every copy, ``device_of``)
read one consistent table without the lock and never wait for another thread's long teardown.
Other single-key reads are one dict operation; anything that iterates a table holds the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NoReturn

from emulator.config import Settings
from emulator.device import Device, open_device
from emulator.device.errors import (
    ContextNotDestroyable,
    ContextNull,
    ContextReleaseError,
    FeatureNotSupported,
    InvalidAddress,
    InvalidDeviceId,
    InvalidHandle,
    InvalidValue,
    StreamCaptured,
    StreamNoCallback,
    WrongContext,
)
from emulator.device.host_budget import HostBudget
from emulator.device.interface import AddressKind, AllocationInfo, DevicePtr, EventId, StreamId
from emulator.device.soc import SocProfile, load_soc
from emulator.diagnostics import Diagnostics
from emulator.lazylog import lazy_logger
from emulator.runtime.context import Context, DeviceSlot
from emulator.runtime.device_reports import fault_reporter, race_reporter
from emulator.runtime.model_ri import ModelTable
from emulator.runtime.reports import Report, Reports, StreamKey
from emulator.runtime.vmm import VirtualMemoryTable
from emulator.tracking import Registry, ResourceKind, capture_site

log = lazy_logger(__name__, logger_name="emulator.runtime")

STREAM_HUGE = 0x8
CONTEXT_HANDLE_BASE = 0x7C00_0000


class ThreadState(threading.local):
    """What the runtime keeps per thread: the current context and the 'last error' slot."""

    context: Context | None = None
    last_error: int = 0
    capture_mode: int = 0  # aclmdlRICaptureThreadExchangeMode: ACL_MODEL_RI_CAPTURE_MODE_GLOBAL until changed


class Runtime:
    def __init__(self, settings: Settings, registry: Registry, diagnostics: Diagnostics | None = None) -> None:
        self.settings = settings
        self.registry = registry
        self.diagnostics = diagnostics if diagnostics is not None else Diagnostics()
        self.soc: SocProfile = load_soc(settings.soc)
        self.thread = ThreadState()
        self.default_device: int | None = None  # from aclInit's defaultDevice.default_device
        self.lock = threading.RLock()
        self._slots: dict[int, DeviceSlot] = {}
        self._contexts: dict[int, Context] = {}
        self._stream_owner: dict[int, Context] = {}
        self._stream_flags: dict[int, int] = {}
        self._event_device: dict[int, int] = {}
        self._device_memory: dict[int, int] = {}
        self._host_memory: dict[int, int] = {}
        self._next_handle = CONTEXT_HANDLE_BASE
        self.host_budget = HostBudget(settings.host_budget)  # shared by every device of the process
        self.reports = Reports()  # host callbacks: stream subscriptions and each thread's reports
        self.vmm = VirtualMemoryTable(self)  # reserved ranges, physical handles, peer pairs
        self.models = ModelTable(self)  # model runtime instances from stream capture

    # -- devices ----------------------------------------------------------------------------
    @property
    def device_count(self) -> int:
        visible = self.settings.visible_devices
        return len(visible) if visible is not None else self.settings.device_count

    def check_device_id(self, device_id: int) -> None:
        count = self.device_count
        if not 0 <= device_id < count:
            raise InvalidDeviceId(
                "Specifying the device used for computation by the current thread failed because value "
                f"{device_id} for parameter drv devId is invalid. Expected value: [0, {count}).",
                device_id=device_id,
            )

    def slot(self, device_id: int) -> DeviceSlot:
        self.check_device_id(device_id)
        slot = self._slots.get(device_id)
        if slot is not None:
            return slot
        with self.lock:
            return self._open_slot(device_id)

    def _open_slot(self, device_id: int) -> DeviceSlot:
        slot = self._slots.get(device_id)  # again: another thread may have opened it meanwhile
        if slot is None:
            visible = self.settings.visible_devices
            physical = visible[device_id] if visible is not None else device_id
            # OPBASE_EMU_HBM_LIMIT caps the simulated devices only: a real card has the memory it has
            limit = self.settings.hbm_limit
            capped = {"hbm_limit": limit} if limit is not None and self.settings.backend == "simulated" else {}
            device = open_device(
                self.settings.backend,
                physical,
                self.soc,
                eager=self.settings.eager,
                block_workers=self.settings.block_workers,
                host_budget=self.host_budget,
                **capped,
            )
            if device.caps.detects_races:  # races and faults reach the sanitizer's reports with host call sites
                device.set_site_source(capture_site if self.settings.tracking else None)
                device.add_race_listener(race_reporter(self.diagnostics))
                device.add_fault_listener(fault_reporter(self.diagnostics))
            device.set_capture_mode_source(lambda: self.thread.capture_mode)
            primary = Context(self._new_handle(), device_id, primary=True)
            self._contexts[primary.handle] = primary
            slot = DeviceSlot(device, primary)
            self._slots = {**self._slots, device_id: slot}  # copy-on-write: readers hold the old table
        return slot

    def opened_devices(self) -> list[Device]:
        return [slot.device for slot in self._slots.values()]

    def _new_handle(self) -> int:
        self._next_handle += 0x100
        return self._next_handle

    def set_device(self, device_id: int) -> None:
        with self.lock:
            slot = self.slot(device_id)
            if slot.refs == 0:
                self._bring_up(slot.device, slot.primary)
                self.registry.add(
                    ResourceKind.DEVICE, device_id, device=device_id, tag="primary context + default stream"
                )
            slot.refs += 1
            self.thread.context = slot.primary

    def reset_device(self, device_id: int, *, force: bool) -> None:
        with self.lock:
            self.check_device_id(device_id)
            slot = self._slots.get(device_id)
            if slot is None or slot.refs == 0:
                raise ContextReleaseError(
                    "Resetting the device failed. Reason: The device has not been set or has already been reset.",
                    device_id=device_id,
                )
            refs = 0 if force else slot.refs - 1
            if refs == 0:  # the count drops only once teardown is done: an interrupted one can be redone
                self._tear_down(slot.device, slot.primary)
                self.registry.remove(ResourceKind.DEVICE, device_id)
                if self.thread.context is slot.primary:
                    self.thread.context = None
            slot.refs = refs

    def _bring_up(self, device: Device, ctx: Context) -> None:
        if ctx.default_stream is None:
            ctx.default_stream = device.create_stream(0, 0)
        ctx.alive = True

    def _tear_down(self, device: Device, ctx: Context) -> None:
        """Wait for the context's streams, destroy them and its default stream."""
        for sid in sorted(ctx.streams):  # each table entry goes with its stream, so an interrupt leaves no stale one
            self.reports.forget_stream((device.device_id, int(sid)))
            device.destroy_stream(sid)
            ctx.streams.discard(sid)
            self._stream_owner.pop(sid, None)
            self._stream_flags.pop(sid, None)
            self.registry.remove(ResourceKind.STREAM, sid)
            log.info("rt.stream_destroyed_with_context", stream=hex(sid), context=hex(ctx.handle))
        ctx.streams.clear()
        if ctx.default_stream is not None:
            self.reports.forget_stream((device.device_id, int(ctx.default_stream)))
            device.destroy_stream(ctx.default_stream)
            ctx.default_stream = None
        ctx.alive = False

    # -- contexts ---------------------------------------------------------------------------
    def current_context(self) -> Context:
        ctx = self.thread.context
        if ctx is not None and ctx.alive:
            return ctx
        if self.default_device is not None:
            self.set_device(self.default_device)
            assert self.thread.context is not None
            return self.thread.context
        raise ContextNull("No valid context is bound to the current thread.")

    def current_device(self) -> Device:
        return self._slots[self.current_context().device_id].device

    def device_of(self, ctx: Context) -> Device:
        return self._slots[ctx.device_id].device

    def create_context(self, device_id: int) -> Context:
        with self.lock:
            slot = self.slot(device_id)
            if slot.primary.default_stream is None:  # the first create also brings up the device's primary stream
                slot.primary.default_stream = slot.device.create_stream(0, 0)
            ctx = Context(self._new_handle(), device_id, primary=False)
            self._bring_up(slot.device, ctx)
            slot.explicit += 1
            self._contexts[ctx.handle] = ctx
            self.registry.add(ResourceKind.CONTEXT, ctx.handle, device=device_id)
            self.thread.context = ctx
            return ctx

    def destroy_context(self, handle: int) -> None:
        with self.lock:
            ctx = self._contexts.get(handle)
            if ctx is None or ctx.primary:
                reason = "Primary context cannot be destroyed explicitly" if ctx else "context is invalid"
                raise ContextNotDestroyable(
                    f"{{api}} failed. Parameter context is invalid. Reason: {reason}.", context=handle
                )
            slot = self._slots[ctx.device_id]
            self._tear_down(slot.device, ctx)
            slot.explicit -= 1
            del self._contexts[handle]
            self.registry.remove(ResourceKind.CONTEXT, handle)

    def set_context(self, handle: int) -> None:
        ctx = self._contexts.get(handle)
        if ctx is None or not ctx.alive:
            raise InvalidValue(f"context {handle:#x} is invalid or destroyed", context=handle)
        self.thread.context = ctx

    def current_context_handle(self) -> int:
        ctx = self.thread.context
        if ctx is None or not ctx.alive:
            raise ContextNull("no current context")
        return ctx.handle

    # -- streams ----------------------------------------------------------------------------
    def create_stream(self, priority: int, flags: int) -> StreamId:
        with self.lock:
            ctx = self.current_context()
            device = self.device_of(ctx)
            if flags & STREAM_HUGE and not device.soc.huge_streams:
                raise FeatureNotSupported(
                    f"The current system or device does not support huge streams on {device.soc.soc_version}."
                )
            sid = device.create_stream(priority, flags)
            ctx.streams.add(sid)
            self._stream_owner[sid] = ctx
            self._stream_flags[sid] = flags
            self.registry.add(ResourceKind.STREAM, sid, device=ctx.device_id)
            return sid

    def stream_owner(self, handle: int) -> Context:
        ctx = self._stream_owner.get(handle)
        if ctx is None:
            raise InvalidHandle(
                "{api} failed. Parameter stream is invalid. Reason: 1. The stream handle has been destroyed. "
                "2. The handle type must be stream.",
                stream=handle,
            )
        return ctx

    def resolve_stream(self, handle: int, *, submit: bool) -> tuple[Device, StreamId]:
        """The device and stream a call acts on; 0 is the current context's default stream.

        ``submit`` applies the rule that work goes only to streams of the current context.
        """
        if handle == 0:
            ctx = self.current_context()
            assert ctx.default_stream is not None
            return self.device_of(ctx), ctx.default_stream
        owner = self.stream_owner(handle)
        if submit:
            ctx = self.current_context()
            if owner is not ctx:
                raise WrongContext(
                    f"{{api}} execution failed because stream {handle:#x} does not belong to the current context. "
                    f"Extended information: stream context {owner.handle:#x}, current context {ctx.handle:#x}.",
                    stream=handle,
                )
        return self.device_of(owner), StreamId(handle)

    def stream_flags(self, handle: int) -> int:
        return self._stream_flags.get(handle, 0)

    def stream_key(self, handle: int, *, submit: bool) -> tuple[Device, StreamKey]:
        """The device and the (device id, stream id) key of a stream handle (0: the default stream)."""
        device, sid = self.resolve_stream(handle, submit=submit)
        return device, (device.device_id, int(sid))

    def synchronize_stream(self, device: Device, sid: StreamId, timeout_ms: int = -1) -> None:
        """Wait for the stream's blocking callbacks (they hold it), then for its tasks."""
        self.reports.wait_blocking((device.device_id, int(sid)), timeout_ms)
        device.synchronize_stream(sid, timeout_ms)

    def launch_callback(self, fn: Callable[[Any], object], user_data: object, block: bool, handle: int) -> None:
        """Queue a callback after the stream's earlier tasks (emulator.runtime.reports has the rules)."""
        device, key = self.stream_key(handle, submit=True)
        if not self.reports.subscribed(key):
            raise StreamNoCallback(
                f"Delivering an on-host callback function task in a stream failed. Stream (stream_id={key[1]}) "
                "is not bound to any thread. Call the aclrtSubscribeReport API to bind a thread to the stream.",
                stream=handle,
            )
        sid = StreamId(key[1])
        reached = device.create_event(None)
        device.record_event(reached, sid)
        hold = device.hold_stream(sid) if block and device.caps.holds_streams else None
        self.reports.launch(Report(fn, user_data, block, device, key, reached, hold))

    def destroy_stream(self, handle: int, *, force: bool) -> None:
        if not force:
            self.reports.wait_blocking(self.stream_key(handle, submit=False)[1])
        with self.lock:
            owner = self.stream_owner(handle)
            device, sid = self.resolve_stream(handle, submit=True)
            if device.capture_info(sid)[0]:
                raise StreamCaptured(
                    f"Stream destruction: stream {handle:#x} during the capture stage is not supported"
                )
            self.reports.forget_stream((device.device_id, int(sid)))
            device.destroy_stream(sid, force=force)
            owner.streams.discard(sid)
            del self._stream_owner[handle]
            self._stream_flags.pop(handle, None)
            self.registry.remove(ResourceKind.STREAM, handle)

    def context_streams(self) -> tuple[Device, list[StreamId]]:
        with self.lock:
            ctx = self.current_context()
            streams = [ctx.default_stream] if ctx.default_stream is not None else []
            return self.device_of(ctx), streams + sorted(ctx.streams)

    def synchronize_context(self, timeout_ms: int) -> None:
        """Wait for every stream of the current context (aclrtSynchronizeDevice).

        The streams are listed under the lock but waited for without it (a wait runs kernels, and
        holding the outermost lock through them would stop every other thread's calls). A stream
        another thread destroys in between has finished its work (a destroy drains it first), so
        it is skipped, not reported: it is no longer part of the context being synchronised.
        """
        ctx = self.current_context()
        device, streams = self.context_streams()
        for sid in streams:
            self.reports.wait_blocking((device.device_id, int(sid)), timeout_ms)
            try:
                device.synchronize_stream(sid, timeout_ms)
            except InvalidHandle:
                with self.lock:  # a destroy holds the lock until its tables are updated
                    if sid == ctx.default_stream or sid in ctx.streams:
                        raise

    # -- events -----------------------------------------------------------------------------
    def create_event(self, flags: int | None, *, ex: bool) -> EventId:
        with self.lock:
            ctx = self.current_context()
            eid = self.device_of(ctx).create_event(flags, ex=ex)
            self._event_device[eid] = ctx.device_id
            self.registry.add(ResourceKind.EVENT, eid, device=ctx.device_id)
            return eid

    def event_device(self, handle: int) -> Device:
        device_id = self._event_device.get(handle)
        if device_id is None:
            raise InvalidHandle(
                "{api} failed. Parameter event is invalid. Reason: 1. The event handle has been destroyed. "
                "2. The handle type must be event.",
                event=handle,
            )
        return self._slots[device_id].device

    def destroy_event(self, handle: int) -> None:
        with self.lock:
            self.event_device(handle).destroy_event(EventId(handle))
            del self._event_device[handle]
            self.registry.remove(ResourceKind.EVENT, handle)

    # -- memory -----------------------------------------------------------------------------
    def malloc(self, size: int, policy: int, *, padded: bool = True, tag: str = "user") -> int:
        """The device's allocation, in the tables and (with tracking) the registry with its site.

        On every aclrtMalloc, so written out: the current context read as ``current_context``
        reads it (that call only when there is none yet or it died), one call into the device.
        """
        with self.lock:
            ctx = self.thread.context
            if ctx is None or not ctx.alive:
                ctx = self.current_context()
            device_id = ctx.device_id
            info = self._slots[device_id].device.allocate(size, policy, padded=padded, tag=tag)
            ptr = info.addr
            self._device_memory[ptr] = device_id
            registry = self.registry
            if registry.enabled:
                registry.add_fast(
                    ResourceKind.DEVICE_MEMORY, ptr, None, size, device_id, tag, {"charged": info.charged}
                )
            return ptr

    def free(self, ptr: int) -> AllocationInfo:
        with self.lock:
            device_id = self._device_memory.get(ptr)
            if device_id is None:
                self._raise_bad_free(ptr)
            info = self._slots[device_id].device.free(DevicePtr(ptr))
            del self._device_memory[ptr]
            registry = self.registry
            if registry.enabled:
                registry.remove(ResourceKind.DEVICE_MEMORY, ptr)
            return info

    def _raise_bad_free(self, ptr: int) -> NoReturn:
        """Let the device that owns the address window describe what is wrong with it."""
        for slot in self._slots.values():
            if slot.device.classify(ptr) is AddressKind.DEVICE:
                slot.device.free(DevicePtr(ptr))  # raises InvalidAddress with the heap's description
        raise InvalidAddress(f"free of {ptr:#x}: not an address returned by aclrtMalloc", addr=ptr)

    def device_memory(self, ptr: int) -> tuple[Device, AllocationInfo] | None:
        device_id = self._device_memory.get(ptr)
        if device_id is None:
            return None
        device = self._slots[device_id].device
        info = device.allocation(DevicePtr(ptr))
        return (device, info) if info is not None else None

    def malloc_host(self, size: int) -> int:
        with self.lock:
            ctx = self.current_context()
            ptr = self.device_of(ctx).malloc_host(size)
            self._host_memory[ptr] = ctx.device_id
            self.registry.add(ResourceKind.HOST_MEMORY, ptr, size=size, device=ctx.device_id)
            return ptr

    def free_host(self, ptr: int) -> None:
        with self.lock:
            device_id = self._host_memory.pop(ptr, None)
            if device_id is None:
                raise InvalidAddress(f"aclrtFreeHost of {ptr:#x}: not an address returned by aclrtMallocHost", addr=ptr)
            self._slots[device_id].device.free_host(ptr)
            self.registry.remove(ResourceKind.HOST_MEMORY, ptr)

    def classify(self, ptr: int) -> tuple[AddressKind, Device | None]:
        for slot in self._slots.values():
            kind = slot.device.classify(ptr)
            if kind is not AddressKind.UNREGISTERED:
                return kind, slot.device
        return AddressKind.UNREGISTERED, None

    def close(self) -> None:
        for slot in self._slots.values():
            slot.device.close()
