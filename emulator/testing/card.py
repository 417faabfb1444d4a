"""A stand-in card for the ascend backend, on a machine without one.

The ascend backend drives a card through two things the toolkit ships: pyACL (``import acl``: the
Device seam, ``device/ascend.py``) and the op libraries libnnopbase / libopapi (the op-provider seam,
``emulator.provider``). Both act on one card. Here both are the emulator's own — its pyACL face,
and the SDK's libraries (``opbase-emu sdk``) loaded with ctypes — acting on an emulated process of
their own, beside the one under test: device pointers and streams the backend gets from "pyACL"
are valid in the "op libraries", as on a card, and the process under test never runs an op on its
own engine or calls back into itself.

    with stand_in_card() as card, process.fresh(card.backend_settings(sdk.lib64)):
        ...  # the program under test, unchanged: acl.* and aclnn.* as on a card
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from emulator import acl as pyacl_face
from emulator import plog, process
from emulator.config import Settings
from emulator.process import EmulatedProcess


class BoundModule:
    """A pyACL-shaped module whose every function acts on one emulated process (the card's)."""

    def __init__(self, module: ModuleType, card: EmulatedProcess) -> None:
        self._module = module
        self._card = card

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if isinstance(value, ModuleType):
            return BoundModule(value, self._card)
        if callable(value) and not isinstance(value, type):
            return _bound(value, self._card)
        return value


def _bound(fn: Callable[..., Any], card: EmulatedProcess) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        with process.acting_as(card):
            return fn(*args, **kwargs)

    call.__name__ = getattr(fn, "__name__", "call")
    return call


@dataclass(frozen=True)
class StandInCard:
    """The card's own emulated process and the pyACL module that drives it."""

    process: EmulatedProcess
    acl: BoundModule

    def backend_settings(self, lib64: Path, **overrides: Any) -> Settings:
        """Settings of a process under test on this card: the ascend backend, the SDK's op libraries."""
        base = Settings.from_env().model_dump()
        base.update(backend="ascend", opapi_libs=(lib64,), **overrides)
        return Settings(**base)


@contextmanager
def stand_in_card(settings: Settings | None = None) -> Iterator[StandInCard]:
    """For the block: ``import acl`` is the card's pyACL and the SDK's libraries act on the card."""
    card = EmulatedProcess(settings if settings is not None else Settings.from_env().model_copy(
        update={"backend": "simulated"}))  # fmt: skip
    plog.restore(card.replaced_logging)  # the card logs as the process under test does
    bound = BoundModule(pyacl_face, card)
    previous = sys.modules.get("acl")
    sys.modules["acl"] = bound  # type: ignore[assignment]  # what device/ascend.py imports
    try:
        with process.serving_c_layer(card):
            yield StandInCard(card, bound)
    finally:
        if previous is None:
            sys.modules.pop("acl", None)
        else:
            sys.modules["acl"] = previous
        with process.acting_as(card):
            card.close()
