"""opbase-emulator: CANN opbase (aclnn) and the ACL runtime, emulated on a simulated NPU.

The public faces: ``acl`` (pyACL-compatible runtime) and ``process`` (the emulated process,
with ``fresh()`` for tests). See docs/architecture.md for the layers. ``npu`` (the Pythonic
layer) is imported on its first use: a program written against the C-named faces does not pay
for it (tests/unit/test_import_light.py keeps ``import emulator`` light).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from emulator import acl, process

if TYPE_CHECKING:
    from emulator import npu

__all__ = ["acl", "npu", "process"]


def __getattr__(name: str) -> ModuleType:
    """``emulator.npu`` on its first read (PEP 562); the import system keeps it as an attribute then."""
    if name == "npu":
        return importlib.import_module("emulator.npu")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
