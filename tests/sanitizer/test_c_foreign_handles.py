"""From C any pointer can be passed: an address never handed out, or a handle of another kind.

Both are FOREIGN_HANDLE reports (on the bridge's failure path, so a correct call costs nothing
more); the call fails as it did before, with its failure status and an EZ9999 text.
"""

from __future__ import annotations

import ctypes

from emulator import process
from emulator.diagnostics import ReportKind
from emulator.sdk import bridge


def test_a_wild_handle_address_is_a_foreign_handle(emu: process.EmulatedProcess) -> None:
    forward = bridge.forwards()["aclDestroyTensor"]
    status = bridge.entry("aclDestroyTensor")(0xDEAD0)
    assert status == forward.failure
    [report] = emu.diagnostics
    assert report.kind is ReportKind.FOREIGN_HANDLE
    assert report.message.startswith("0xdead0 is not a handle this process handed out")
    assert report.site.top is not None and report.site.top.file == __file__


def test_a_scalar_passed_as_a_tensor_is_a_foreign_handle(emu: process.EmulatedProcess) -> None:
    forwards = bridge.forwards()
    value = ctypes.c_float(1.0)
    scalar = bridge.entry("aclCreateScalar")(ctypes.addressof(value), 0)
    assert scalar != 0 and emu.diagnostics == []
    status = bridge.entry("aclDestroyTensor")(scalar)
    assert status == forwards["aclDestroyTensor"].failure
    [report] = emu.diagnostics
    assert report.kind is ReportKind.FOREIGN_HANDLE
    assert report.message == f"tensor (const aclTensor *) is aclScalar {scalar:#x}, a handle of another kind"
    assert bridge.entry("aclDestroyScalar")(scalar) == 0
