"""Model runtime instances (aclmdlRI) made by stream capture, and their replay.

A capture belongs to its stream on the device (device/simulated/capture.py records the tasks);
this table hands out the model handle when the capture begins (aclmdlRICaptureGetInfo names it
while the capture runs), keeps the captured entries once it ends, and replays them on the stream
each aclmdlRIExecuteAsync names. A model stays valid, and is reported as a leak, until
aclmdlRIDestroy; the memory its tasks use must stay valid as long (the caller's duty, as on a card).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emulator.device.errors import InvalidValue
from emulator.device.interface import StreamId
from emulator.tracking import ResourceKind

if TYPE_CHECKING:
    from emulator.runtime.core import Runtime

MODEL_HANDLE_BASE = 0x7D00_0000


@dataclass(frozen=True, slots=True)
class ModelRI:
    handle: int
    device_id: int
    entries: tuple[Callable[[StreamId], None], ...]


class ModelTable:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._models: dict[int, ModelRI] = {}
        self._next = MODEL_HANDLE_BASE

    def begin(self, stream: int, mode: int) -> None:
        rt = self.runtime
        with rt.lock:
            device, sid = rt.resolve_stream(stream, submit=True)
            self._next += 0x100
            device.begin_capture(sid, mode, self._next)

    def info(self, stream: int) -> tuple[int, int]:
        device, sid = self.runtime.resolve_stream(stream, submit=False)
        return device.capture_info(sid)

    def end(self, stream: int) -> int:
        rt = self.runtime
        with rt.lock:
            device, sid = rt.resolve_stream(stream, submit=True)
            _, handle = device.capture_info(sid)
            entries = device.end_capture(sid)
            self._models[handle] = ModelRI(handle, device.device_id, tuple(entries))
            rt.registry.add(ResourceKind.MODEL_RI, handle, device=device.device_id, tasks=len(entries))
            return handle

    def model(self, handle: int) -> ModelRI:
        found = self._models.get(handle)
        if found is None:
            raise InvalidValue(
                f"{{api}}: {handle:#x} is not a model runtime instance "
                "(never made by aclmdlRICaptureEnd, or destroyed)",
                model=handle,
            )
        return found

    def execute(self, handle: int, stream: int) -> None:
        rt = self.runtime
        with rt.lock:
            model = self.model(handle)
            device, sid = rt.resolve_stream(stream, submit=True)
            if device.device_id != model.device_id:
                raise InvalidValue(
                    f"{{api}}: model {handle:#x} was captured on device {model.device_id}, the stream is on device "
                    f"{device.device_id}",
                    model=handle,
                )
            device.replay(list(model.entries), sid)

    def destroy(self, handle: int) -> None:
        rt = self.runtime
        with rt.lock:
            self.model(handle)
            del self._models[handle]
            rt.registry.remove(ResourceKind.MODEL_RI, handle)
