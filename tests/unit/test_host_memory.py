"""Device memory costs host RAM only where touched, within an explicit host-RAM budget.

The budget (OPBASE_EMU_HOST_BUDGET) covers the chunks of device memory the emulator has backed
and the pinned host buffers; passing it is the runtime's out-of-memory status, 207001, with a
message naming the budget, never a MemoryError and never a half-done operation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.config import Settings, SettingsError
from emulator.device.errors import HostBudgetExceeded, OutOfMemory, TaskFailed
from emulator.device.host_budget import DEFAULT_FLOOR, HostBudget, available_host_memory, default_limit
from emulator.device.interface import GiB, KiB, MemPolicy, MiB
from emulator.device.simulated.backing import CHUNK, MAPPED_MIN, POISON
from emulator.device.simulated.npu import SimulatedNpu
from emulator.process import EmulatedProcess
from emulator.status import AclError

MEM_ERR = AclError.ACL_ERROR_RT_MEMORY_ALLOCATION
H2D, D2H = c.ACL_MEMCPY_HOST_TO_DEVICE, c.ACL_MEMCPY_DEVICE_TO_HOST
HUGE_FIRST = c.ACL_MEM_MALLOC_HUGE_FIRST


def vm_rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.fixture
def budgeted() -> Iterator[EmulatedProcess]:
    """An emulated process with a 64 MiB host budget and device 0 set."""
    with process.fresh(Settings.from_env({"OPBASE_EMU_HOST_BUDGET": str(64 * MiB)})) as proc:
        assert acl.rt.set_device(0) == 0
        yield proc
        acl.rt.reset_device(0)


def budget_of(proc: EmulatedProcess) -> HostBudget:
    return proc.runtime.host_budget


# -- the setting ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [("67108864", 64 * MiB), ("64M", 64 * MiB), ("64MiB", 64 * MiB), ("2g", 2 * GiB), ("512K", 512 * KiB)],
)
def test_budget_setting_reads_bytes(value: str, expected: int) -> None:
    assert Settings.from_env({"OPBASE_EMU_HOST_BUDGET": value}).host_budget == expected


def test_an_empty_budget_setting_leaves_the_default() -> None:
    """Unset or empty: the default, a fraction of the memory available at start."""
    assert Settings.from_env({"OPBASE_EMU_HOST_BUDGET": ""}).host_budget is None
    assert Settings.from_env({}).host_budget is None


@pytest.mark.parametrize("value", ["lots", "-5", "0", "1.5G", "G"])
def test_a_budget_setting_that_is_no_byte_count_is_refused(value: str) -> None:
    """A misspelt budget is an error at process start, not a silent fall-back to the default."""
    with pytest.raises(SettingsError, match="OPBASE_EMU_HOST_BUDGET"):
        Settings.from_env({"OPBASE_EMU_HOST_BUDGET": value})


def test_default_budget_is_half_of_available_memory(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       2000 kB\nMemFree:         100 kB\nMemAvailable:    1000 kB\n")
    assert available_host_memory(meminfo) == 1000 * 1024
    assert 0 < default_limit() <= available_host_memory()
    with process.fresh(Settings.from_env({})) as proc:
        expected = max(available_host_memory() // 2, DEFAULT_FLOOR)
        assert budget_of(proc).limit == pytest.approx(expected, rel=0.05)


def test_a_moment_of_memory_pressure_does_not_leave_a_tiny_budget(tmp_path: Path) -> None:
    """MemAvailable read while another job held the host's memory: the budget is the floor, not 0.

    A CI run once started its op tests in such a moment and every copy of the session failed
    with 207001 against "a budget of 0 bytes".
    """
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:    25000000 kB\nMemAvailable:       1 kB\n")
    assert default_limit(meminfo) == DEFAULT_FLOOR


def test_budget_charge_past_limit_takes_nothing() -> None:
    budget = HostBudget(1000)
    budget.charge(600, "first")
    with pytest.raises(HostBudgetExceeded) as err:
        budget.charge(401, "the second thing")
    assert budget.used == 600
    assert err.value.status == MEM_ERR
    assert "the second thing" in err.value.message and "OPBASE_EMU_HOST_BUDGET" in err.value.message
    # synchronous calls see an out-of-memory; a task on a stream fails and its sync reports it
    assert isinstance(err.value, OutOfMemory) and isinstance(err.value, TaskFailed)
    budget.refund(600)
    assert budget.used == 0


# -- touched memory only --------------------------------------------------------------------------


def test_whole_hbm_touched_at_one_byte_costs_one_chunk() -> None:
    """malloc the SoC's whole HBM, write one byte: host RAM grows by one chunk, not by 61 GiB."""
    assert acl.rt.set_device(0) == 0
    free, total, ret = acl.rt.get_mem_info(c.ACL_HBM_MEM)
    assert ret == 0 and total > 32 * GiB
    before = vm_rss()
    ptr, ret = acl.rt.malloc(free - 2 * MiB, HUGE_FIRST)  # all of it but the pad the rounding adds
    assert ret == 0
    one = np.array([7], dtype=np.uint8)
    assert acl.rt.memcpy(ptr + 40 * GiB, 1, one.ctypes.data, 1, H2D) == 0
    back = np.zeros(8, dtype=np.uint8)
    assert acl.rt.memcpy(back.ctypes.data, 8, ptr + 40 * GiB, 8, D2H) == 0
    grown = vm_rss() - before
    assert back.tolist() == [7] + [POISON] * 7
    assert budget_of(process.current()).used == CHUNK
    assert grown < 4 * MiB, f"host RSS grew by {grown / MiB:.1f} MiB"
    assert acl.rt.free(ptr) == 0
    assert budget_of(process.current()).used == 0
    acl.rt.reset_device(0)


def test_malloc_16gib_and_a_4_byte_copy_works() -> None:
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(16 * GiB, HUGE_FIRST)
    assert ret == 0
    data = np.array([1.5], dtype=np.float32)
    assert acl.rt.memcpy(ptr + 16 * GiB - 4, 4, data.ctypes.data, 4, H2D) == 0
    out = np.zeros(1, dtype=np.float32)
    assert acl.rt.memcpy(out.ctypes.data, 4, ptr + 16 * GiB - 4, 4, D2H) == 0
    assert out[0] == 1.5
    assert acl.rt.free(ptr) == 0
    acl.rt.reset_device(0)


def test_reading_never_touched_memory_sees_poison_without_backing_it(budgeted: EmulatedProcess) -> None:
    """A copy out of untouched chunks writes the poison into the destination and touches nothing."""
    ptr, ret = acl.rt.malloc(1 * GiB, HUGE_FIRST)
    assert ret == 0
    out = np.zeros(8 * MiB, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr + 100 * MiB, out.nbytes, D2H) == 0
    assert (out == POISON).all()
    assert budget_of(budgeted).used == 0
    assert acl.rt.free(ptr) == 0


def test_copy_from_partly_touched_memory_mixes_data_and_poison(budgeted: EmulatedProcess) -> None:
    """Touched chunks give their bytes, untouched ones the poison; the bytes around a write are poison."""
    ptr, ret = acl.rt.malloc(4 * MiB, HUGE_FIRST)
    assert ret == 0
    data = np.arange(16, dtype=np.uint8)
    at = 3 * CHUNK - 8  # a write across a chunk boundary touches exactly those two chunks
    assert acl.rt.memcpy(ptr + at, 16, data.ctypes.data, 16, H2D) == 0
    assert budget_of(budgeted).used == 2 * CHUNK
    out = np.zeros(6 * CHUNK, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H) == 0
    expected = np.full(6 * CHUNK, POISON, dtype=np.uint8)
    expected[at : at + 16] = data
    np.testing.assert_array_equal(out, expected)
    assert budget_of(budgeted).used == 2 * CHUNK  # reading did not back anything more
    assert acl.rt.free(ptr) == 0
    assert budget_of(budgeted).used == 0


def test_device_to_device_copy_of_untouched_memory_is_poison(budgeted: EmulatedProcess) -> None:
    src, _ = acl.rt.malloc(2 * MiB, HUGE_FIRST)
    dst, _ = acl.rt.malloc(2 * MiB, HUGE_FIRST)
    assert acl.rt.memset(dst, 2 * MiB, 0, 2 * MiB) == 0
    assert acl.rt.memcpy(dst, 2 * MiB, src, 2 * MiB, c.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    out = np.zeros(2 * MiB, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dst, out.nbytes, D2H) == 0
    assert (out == POISON).all()
    assert budget_of(budgeted).used == 2 * MiB  # the destination only
    for ptr in (src, dst):
        assert acl.rt.free(ptr) == 0


def test_small_allocations_are_charged_by_the_page() -> None:
    """A buffer below a chunk costs its pages, so many small tensors do not exhaust the budget."""
    npu = SimulatedNpu(0, host_budget=HostBudget(1 * MiB))
    ptrs = [npu.malloc(1000, MemPolicy.HUGE_FIRST) for _ in range(200)]
    for ptr in ptrs:
        npu.memset(ptr, 1, 1000, None)
    assert npu.heap.budget.used == 200 * 4 * KiB
    assert npu.heap.host_bytes == npu.heap.budget.used
    for ptr in ptrs:
        npu.free(ptr)
    assert npu.heap.budget.used == 0


def test_large_allocation_is_a_lazy_mapping() -> None:
    npu = SimulatedNpu(0, host_budget=HostBudget(64 * MiB))
    ptr = npu.malloc(MAPPED_MIN, MemPolicy.HUGE_FIRST)
    view = npu.heap.view(ptr, 16, "test")
    alloc = npu.heap.get(ptr)
    assert alloc is not None and alloc.buffer is not None and alloc.buffer.mapped
    assert (view == POISON).all()
    assert npu.heap.budget.used == CHUNK


# -- past the budget ------------------------------------------------------------------------------


def test_malloc_host_past_the_budget_is_207001(budgeted: EmulatedProcess) -> None:
    ptr, ret = acl.rt.malloc_host(8 * GiB)
    assert ret == MEM_ERR
    assert not ptr
    message = acl.get_recent_err_msg() or ""
    assert "aclrtMallocHost" in message and "64.0 MiB" in message and "OPBASE_EMU_HOST_BUDGET" in message
    assert budget_of(budgeted).used == 0
    small, ret = acl.rt.malloc_host(1 * MiB)  # within the budget it still works, and is charged
    assert ret == 0
    assert budget_of(budgeted).used >= 1 * MiB
    assert acl.rt.free_host(small) == 0
    assert budget_of(budgeted).used == 0


def test_pinned_and_device_memory_share_the_budget(budgeted: EmulatedProcess) -> None:
    pinned, ret = acl.rt.malloc_host(40 * MiB)
    assert ret == 0
    dev, _ = acl.rt.malloc(32 * MiB, HUGE_FIRST)
    assert acl.rt.memset(dev, 32 * MiB, 1, 32 * MiB) == MEM_ERR
    assert "64.0 MiB" in (acl.get_recent_err_msg() or "")
    assert acl.rt.free_host(pinned) == 0
    assert acl.rt.memset(dev, 32 * MiB, 1, 32 * MiB) == 0
    assert acl.rt.free(dev) == 0


def test_copy_past_the_budget_fails_having_written_nothing(budgeted: EmulatedProcess) -> None:
    ptr, ret = acl.rt.malloc(128 * MiB, HUGE_FIRST)
    assert ret == 0
    host = np.ones(96 * MiB, dtype=np.uint8)
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, H2D) == MEM_ERR
    message = acl.get_recent_err_msg() or ""
    assert "host memory budget of 64.0 MiB" in message and "96.0 MiB" in message
    assert budget_of(budgeted).used == 0
    out = np.zeros(CHUNK, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H) == 0
    assert (out == POISON).all()  # nothing was written
    assert acl.rt.free(ptr) == 0


def _tensor(shape: list[int], addr: int) -> object:
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    return aclnn.aclCreateTensor(shape, len(shape), aclnn.ACL_FLOAT, strides, 0, aclnn.ACL_FORMAT_ND, shape, 1, addr)


def _add_over(base: int, nbytes: int, stream: int) -> tuple[int, list[object]]:
    """aclnnAdd of x = [base, +n) and y = [base+n, +n) into out = [base+2n, +n); the status of phase 2."""
    shape = [nbytes // 4]
    x, y, out = (_tensor(shape, base + k * nbytes) for k in range(3))
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    assert ret == 0 and ws == 0
    return aclnn.aclnnAdd(0, 0, executor, stream), [x, y, out, alpha]


def test_kernel_past_the_budget_fails_its_sync_and_touches_nothing(budgeted: EmulatedProcess) -> None:
    """Inputs fit, the output does not: the stream's sync is 207001 and the output stays untouched."""
    n = 24 * MiB
    base, ret = acl.rt.malloc(3 * n, HUGE_FIRST)
    assert ret == 0
    assert acl.rt.memset(base, 2 * n, 0, 2 * n) == 0  # x and y: 48 of the 64 MiB
    stream, _ = acl.rt.create_stream()
    ret, handles = _add_over(base, n, stream)
    assert ret == 0  # phase 2 only queues the kernel
    assert acl.rt.synchronize_stream(stream) == MEM_ERR
    message = acl.get_recent_err_msg() or ""
    assert "kernel" in message and "64.0 MiB" in message and "OPBASE_EMU_HOST_BUDGET" in message
    assert budget_of(budgeted).used == 2 * n
    assert acl.rt.synchronize_stream(stream) == 0  # reported once, as a failed task is
    out = np.zeros(CHUNK, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, base + 2 * n, out.nbytes, D2H) == 0
    assert (out == POISON).all()
    for handle in handles[:3]:
        assert aclnn.aclDestroyTensor(handle) == 0
    assert aclnn.aclDestroyScalar(handles[3]) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.free(base) == 0
    assert budget_of(budgeted).used == 0


def test_add_over_4gib_of_a_6gib_allocation_fails_cleanly() -> None:
    """The issue's reproduction with a 64 MiB budget: a clean 207001, no MemoryError, RAM untouched."""
    env = {"OPBASE_EMU_HOST_BUDGET": str(64 * MiB), "OPBASE_EMU_INITCHECK": "0"}
    with process.fresh(Settings.from_env(env)) as proc:
        assert acl.rt.set_device(0) == 0
        base, ret = acl.rt.malloc(6 * GiB, HUGE_FIRST)
        assert ret == 0
        stream, _ = acl.rt.create_stream()
        before = vm_rss()
        ret, handles = _add_over(base, 2 * GiB, stream)  # x, y, out: 2 GiB each, 4 GiB of inputs
        assert ret == 0
        assert acl.rt.synchronize_stream(stream) == MEM_ERR
        assert "budget" in (acl.get_recent_err_msg() or "")
        assert vm_rss() - before < 16 * MiB
        assert budget_of(proc).used == 0
        for handle in handles[:3]:
            aclnn.aclDestroyTensor(handle)
        aclnn.aclDestroyScalar(handles[3])
        assert acl.rt.destroy_stream(stream) == 0
        assert acl.rt.free(base) == 0
        acl.rt.reset_device(0)


def test_kernel_views_are_paid_for_together() -> None:
    """When the budget backs some arguments but not all, none of them is touched."""
    npu = SimulatedNpu(0, host_budget=HostBudget(3 * MiB))
    a = npu.malloc(2 * MiB, MemPolicy.HUGE_FIRST)
    b = npu.malloc(2 * MiB, MemPolicy.HUGE_FIRST)
    with pytest.raises(HostBudgetExceeded):
        npu.heap.views([(a, 2 * MiB), (b, 2 * MiB)], "kernel Two")
    assert npu.heap.budget.used == 0 and npu.heap.host_bytes == 0
    views = npu.heap.views([(a, 1 * MiB), (a + MiB // 2, 1 * MiB)], "kernel Aliased")  # overlap paid once
    assert npu.heap.budget.used == 3 * MiB // 2
    assert all((v == POISON).all() for v in views)


# -- multi-GiB reproductions ----------------------------------------------------------------------


@pytest.mark.slow
def test_touching_a_gib_stays_within_the_budget_and_rss() -> None:
    """With a 1 GiB budget, 768 MiB of a 6 GiB allocation can be written and read; 512 MiB more cannot."""
    with process.fresh(Settings.from_env({"OPBASE_EMU_HOST_BUDGET": str(1 * GiB)})) as proc:
        assert acl.rt.set_device(0) == 0
        base, ret = acl.rt.malloc(6 * GiB, HUGE_FIRST)
        assert ret == 0
        before = vm_rss()
        assert acl.rt.memset(base + 1 * GiB, 768 * MiB, 3, 768 * MiB) == 0
        assert acl.rt.memset(base + 4 * GiB, 512 * MiB, 3, 512 * MiB) == MEM_ERR
        grown = vm_rss() - before
        assert 700 * MiB < grown < 800 * MiB
        assert budget_of(proc).used == 768 * MiB
        tail = np.zeros(16, dtype=np.uint8)
        assert acl.rt.memcpy(tail.ctypes.data, 16, base + 1 * GiB + 768 * MiB - 8, 16, D2H) == 0
        assert tail.tolist() == [3] * 8 + [POISON] * 8
        assert acl.rt.free(base) == 0
        assert budget_of(proc).used == 0
        acl.rt.reset_device(0)
