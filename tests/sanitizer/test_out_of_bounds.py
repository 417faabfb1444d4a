"""Out-of-bounds accesses are sanitizer reports at the host call that enqueued the kernel.

A bounds-checked kernel (debug-kernel mode) that slices past a buffer's end fails its stream with
507015 at the next synchronisation, as an AI Core exception does on a card; the report names the
line that launched it and the line whose synchronisation ran it. A kernel argument outside every
live allocation is refused at launch (107000) and reported the same way. Strict mode raises.
"""

from __future__ import annotations

import numpy as np
import pytest

from emulator import acl, process
from emulator.acl import constants as c
from emulator.device.errors import InvalidValue
from emulator.device.interface import Access, BlockContext, BufferArg, KernelLaunch, StreamId
from emulator.diagnostics import ReportKind, UndefinedBehaviour

N = 64


def _line_of(marker: str) -> int:
    with open(__file__, encoding="utf-8") as source:
        return next(i for i, text in enumerate(source, 1) if text.rstrip().endswith(f"# {marker}"))


def overrun(ctx: BlockContext, view: np.ndarray) -> None:
    view[N - 8 : N + 8] = 0  # past the end of the buffer


def _kernel(ptr: int, nbytes: int = N) -> KernelLaunch:
    return KernelLaunch("Overrun", overrun, 1, (BufferArg(ptr, nbytes, Access.WRITE),), bounds_checked=True)


@pytest.fixture
def stream() -> int:
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    return int(stream)


def test_a_kernel_overrun_is_reported_at_its_launch_line(emu: process.EmulatedProcess, stream: int) -> None:
    ptr, ret = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    device = emu.runtime.current_device()
    device.launch(_kernel(ptr), StreamId(stream))  # launched-here
    assert emu.diagnostics == []  # nothing ran yet
    assert acl.rt.synchronize_stream(stream) == 507015  # ran-here
    [report] = emu.diagnostics
    assert report.kind is ReportKind.OUT_OF_BOUNDS
    assert report.api == "kernel Overrun"
    assert "goes past its" in report.message and f"on stream {stream:#x}" in report.message
    assert report.line().count("kernel Overrun") == 1, report.line()  # named once, as the report's api
    assert str(report.site) == f"{__file__}:{_line_of('launched-here')}"
    assert [(label, str(site)) for label, site in report.related] == [
        ("the task ran at", f"{__file__}:{_line_of('ran-here')}")
    ]


def test_a_kernel_argument_outside_any_allocation_is_reported(emu: process.EmulatedProcess, stream: int) -> None:
    ptr, ret = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    device = emu.runtime.current_device()
    with pytest.raises(InvalidValue):
        device.launch(_kernel(ptr, 1 << 20), StreamId(stream))  # launched-here-too
    [report] = emu.diagnostics
    assert report.kind is ReportKind.OUT_OF_BOUNDS
    assert str(report.site) == f"{__file__}:{_line_of('launched-here-too')}"
    assert report.line().count("kernel Overrun") == 1, report.line()


def test_strict_mode_raises_at_the_synchronisation(emu: process.EmulatedProcess, stream: int) -> None:
    ptr, _ = acl.rt.malloc(N, c.ACL_MEM_MALLOC_HUGE_FIRST)
    emu.runtime.current_device().launch(_kernel(ptr), StreamId(stream))
    emu.strict = True
    with pytest.raises(UndefinedBehaviour) as caught:
        acl.rt.synchronize_stream(stream)
    assert caught.value.kind is ReportKind.OUT_OF_BOUNDS
