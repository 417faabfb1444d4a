"""The DFX markers of L2_DFX_PHASE_1 / L2_DFX_PHASE_2: which API and phase the thread is in.

The real macros put the API name and phase into thread-local log info, so every log line below
them carries it. Here it is one context variable (cheap to set on every call, unlike binding
structlog's context) and a structlog processor that adds it to each event that is logged.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

_current: contextvars.ContextVar[tuple[str, int] | None] = contextvars.ContextVar("opbase_dfx", default=None)


@contextmanager
def phase(api: str, number: int) -> Iterator[None]:
    token = _current.set((api, number))
    try:
        yield
    finally:
        _current.reset(token)


def enter(api: str, number: int) -> contextvars.Token[tuple[str, int] | None]:
    """The cheap form of ``phase`` for the hot path: pair with ``leave``."""
    return _current.set((api, number))


def leave(token: contextvars.Token[tuple[str, int] | None]) -> None:
    _current.reset(token)


def current() -> tuple[str, int] | None:
    return _current.get()


def add_dfx(logger: Any, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: ``api`` and ``phase`` of the L2 call in progress, if any."""
    marker = _current.get()
    if marker is not None:
        event.setdefault("api", marker[0])
        event.setdefault("phase", marker[1])
    return event
