"""opbase-emulator: CANN opbase (aclnn) and the ACL runtime, emulated on a simulated NPU.

The public faces: ``acl`` (pyACL-compatible runtime) and ``process`` (the emulated process,
with ``fresh()`` for tests), and ``npu`` (the Pythonic layer). See docs/architecture.md for the
layers. Each is imported on its first use (``from emulator import acl`` or ``emulator.acl``), so
a tool that only needs one part of the package (``opbase-emu --help``, the pytest plugin's
options) does not load the others (tests/unit/test_import_light.py keeps it so).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emulator import acl, npu, process

__all__ = ["acl", "npu", "process"]


def __getattr__(name: str) -> ModuleType:
    """``emulator.acl`` / ``npu`` / ``process`` on first read (PEP 562); kept as attributes then."""
    if name in __all__:
        return importlib.import_module(f"emulator.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
