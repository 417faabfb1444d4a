"""Stream capture: the tasks a capturing stream is given are recorded for a model, not run.

Between aclmdlRICaptureBegin and aclmdlRICaptureEnd every task enqueued on the stream (kernels,
async copies and sets, event records and waits) becomes one entry of the capture: a replay that
re-enqueues the same work on whatever stream executes the model. A replay re-reads its memory
when it runs (host pinned buffers included), so each execution of the model sees the data of its
time, as on a card. The rules of the capture (docs/runtime.md, "Stream capture"):
- a capturing stream cannot be synchronised, queried or destroyed, nor begin a second capture
  (107027); ending a capture that is not active is 107029, ending it from another thread than
  the one that began it is 107038;
- a synchronous copy or set while a stream captures is refused (107030), and it invalidates the
  capture (ending it then gives no model, 507903), by the calling thread's own capture mode
  (aclmdlRICaptureThreadExchangeMode; GLOBAL until changed): a RELAXED thread is refused nothing;
  a THREAD_LOCAL one only while a capture it began (not in RELAXED mode) runs; a GLOBAL one also
  while another thread's GLOBAL capture runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from ..errors import CaptureInvalidated, CaptureModeNotSupported, CaptureWrongThread, StreamNotCaptured
from ..interface import StreamId

Replay = Callable[[StreamId], None]
"""One captured task: enqueues its work again on the stream it is given."""


class CaptureMode(IntEnum):
    GLOBAL = 0
    THREAD_LOCAL = 1
    RELAXED = 2


class CaptureStatus(IntEnum):
    NONE = 0
    ACTIVE = 1
    INVALIDATED = 2


@dataclass(slots=True)
class Capture:
    """The state of one stream's capture."""

    mode: CaptureMode
    thread: int  # the thread that began it
    model: int  # the model runtime instance the capture fills (aclmdlRICaptureGetInfo names it)
    entries: list[Replay] = field(default_factory=list)
    invalidated_by: str | None = None

    @property
    def status(self) -> CaptureStatus:
        return CaptureStatus.INVALIDATED if self.invalidated_by is not None else CaptureStatus.ACTIVE

    def forbids_sync(self, thread: int, thread_mode: CaptureMode) -> bool:
        """Whether this capture forbids a synchronous call from ``thread``, whose own mode is ``thread_mode``."""
        if thread_mode is CaptureMode.RELAXED:
            return False
        own = thread == self.thread and self.mode is not CaptureMode.RELAXED
        if thread_mode is CaptureMode.THREAD_LOCAL:
            return own
        return own or (thread != self.thread and self.mode is CaptureMode.GLOBAL)


def check_sync_call(
    captures: list[tuple[StreamId, Capture]], operation: str, thread: int, thread_mode: CaptureMode
) -> None:
    """Refuse a synchronous memory operation that a running capture forbids, invalidating that capture."""
    for sid, capture in captures:
        if capture.forbids_sync(thread, thread_mode):
            capture.invalidated_by = operation
            raise CaptureModeNotSupported(
                f"{operation} is not supported while stream {sid:#x} is capturing in "
                f"{capture.mode.name} mode; the capture is invalidated",
                stream=sid,
            )


def finish(sid: StreamId, capture: Capture | None, thread: int) -> list[Replay]:
    """The entries of a capture that ends now, or the reason it cannot end."""
    if capture is None:
        raise StreamNotCaptured(
            f"The stream (stream {sid:#x}) is not in capture status; begin a capture with aclmdlRICaptureBegin first",
            stream=sid,
        )
    if capture.thread != thread:
        raise CaptureWrongThread(
            f"the capture of stream {sid:#x} was begun by another thread; end it on that thread", stream=sid
        )
    if capture.invalidated_by is not None:
        raise CaptureInvalidated(
            f"the capture of stream {sid:#x} was invalidated by {capture.invalidated_by}", stream=sid
        )
    return capture.entries
