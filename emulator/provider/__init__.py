"""The op provider seam: who runs ``aclnn*`` and acl_meta calls when the emulated engine does not.

With the simulated backend the aclnn face runs ops on the emulated engine and this package is not
used. With the ascend backend (``OPBASE_EMU_BACKEND=ascend``) the same face calls a real
libnnopbase / libopapi through ctypes (``NativeOps``), and the emulator keeps doing what it does
around the call: argument checks, the live-resource registry with creation sites, use-after-destroy
reports, the lifecycle trace.
"""

from __future__ import annotations

from emulator.provider.native import NativeHandle, NativeOps

__all__ = ["NativeHandle", "NativeOps"]
