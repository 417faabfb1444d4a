"""One suite, every backend: the Device protocol behaves the same on SimulatedNpu and AscendNpu.

AscendNpu is driven here through the emulator's own pyACL face (it takes any module with
pyACL's layout), which exercises the real-hardware backend's code on a machine without a card.
On a card, set OPBASE_EMU_BACKEND=ascend and the same behaviours hold against real pyACL.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from emulator import acl, process
from emulator.device import errors
from emulator.device.ascend import AscendNpu
from emulator.device.interface import Access, BufferArg, Device, Direction, KernelLaunch
from emulator.device.simulated import SimulatedNpu


@pytest.fixture(params=["simulated", "ascend"])
def device(request: pytest.FixtureRequest, emu: process.EmulatedProcess) -> Iterator[Device]:
    if request.param == "simulated":
        yield SimulatedNpu(0)
    else:
        dev = AscendNpu(0, acl_module=acl)
        yield dev
        dev.close()


def test_sync_round_trip(device: Device) -> None:
    """Bytes copied host -> device -> host come back unchanged."""
    data = np.arange(1000, dtype=np.int32)
    out = np.zeros_like(data)
    ptr = device.malloc(data.nbytes, 0)
    device.copy(ptr, data.ctypes.data, data.nbytes, Direction.H2D, None)
    device.copy(out.ctypes.data, ptr, data.nbytes, Direction.D2H, None)
    assert np.array_equal(out, data)
    device.free(ptr)


def test_async_copy_lands_after_stream_sync(device: Device) -> None:
    """An async copy from pinned memory on a stream is complete after synchronising that stream."""
    stream = device.create_stream()
    pinned = device.malloc_host(64)
    np.ctypeslib.as_array((np.ctypeslib.ctypes.c_uint8 * 64).from_address(pinned))[:] = 7
    ptr = device.malloc(64, 0)
    device.copy(ptr, pinned, 64, Direction.H2D, stream)
    device.synchronize_stream(stream)
    out = np.zeros(64, dtype=np.uint8)
    device.copy(out.ctypes.data, ptr, 64, Direction.D2H, None)
    assert (out == 7).all()
    device.free(ptr)
    device.free_host(pinned)
    device.destroy_stream(stream)


def test_memset_fills_low_byte(device: Device) -> None:
    """memset writes the low byte of the value into every byte."""
    ptr = device.malloc(32, 0)
    device.memset(ptr, 0x1AB, 32, None)
    out = np.zeros(32, dtype=np.uint8)
    device.copy(out.ctypes.data, ptr, 32, Direction.D2H, None)
    assert (out == 0xAB).all()
    device.free(ptr)


def test_allocation_accounting(device: Device) -> None:
    """mem_info's free drops by the page-rounded charge of an allocation and comes back on free."""
    before = device.mem_info().free
    ptr = device.malloc(100, 0)
    info = device.allocation(ptr)
    assert info is not None and info.alloc_size == 160 and info.charged == 4096
    assert before - device.mem_info().free == 4096
    device.free(ptr)
    assert device.mem_info().free == before


def test_double_free_is_a_driver_error(device: Device) -> None:
    """Freeing twice fails with the driver's 507899 the second time."""
    ptr = device.malloc(16, 0)
    device.free(ptr)
    with pytest.raises(errors.DeviceError) as caught:
        device.free(ptr)
    assert caught.value.status == 507899


def test_out_of_memory_status(device: Device) -> None:
    """Asking for more than the device holds fails with 207001."""
    with pytest.raises(errors.DeviceError) as caught:
        device.malloc(device.soc.memory_size, 0)
    assert caught.value.status == 207001


def test_event_timing(device: Device) -> None:
    """Two events around a copy give a non-negative elapsed time once synchronised."""
    stream = device.create_stream()
    start, end = device.create_event(None), device.create_event(None)
    ptr = device.malloc(4096, 0)
    device.record_event(start, stream)
    device.memset(ptr, 0, 4096, stream)
    device.record_event(end, stream)
    device.synchronize_stream(stream)
    assert device.event_state(end) == (True, True)
    assert device.event_elapsed_ms(start, end) >= 0.0
    for event in (start, end):
        device.destroy_event(event)
    device.free(ptr)
    device.destroy_stream(stream)


def test_python_kernels_run_only_on_the_simulator(device: Device) -> None:
    """A Python SPMD kernel runs per block on the simulator; a card refuses it with 207000."""
    stream = device.create_stream()
    ptr = device.malloc(16, 0)
    seen: list[int] = []
    arg = BufferArg(ptr, 16, Access.WRITE)
    launch = KernelLaunch("probe", lambda ctx, view: seen.append(ctx.block_idx), 4, (arg,))
    if isinstance(device, SimulatedNpu):
        device.launch(launch, stream)
        device.synchronize_stream(stream)
        assert seen == [0, 1, 2, 3]
    else:
        with pytest.raises(errors.FeatureNotSupported):
            device.launch(launch, stream)
    device.free(ptr)
    device.destroy_stream(stream)
