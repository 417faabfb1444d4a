"""The simulated HBM (device/simulated/heap.py) against aclrtMalloc's and aclrtFree's rules."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.device.errors import FeatureNotSupported, InvalidAddress, OutOfMemory
from emulator.device.interface import Direction, GiB, KiB, MemInfo, MemPolicy, MiB, PageKind
from emulator.device.simulated.heap import POISON, Heap
from emulator.device.simulated.npu import SimulatedNpu
from emulator.device.soc import load_soc

PAD32_SOC = "Ascend910B2"
PAD0_SOC = "Ascend950PR_9599"


def small_heap(capacity: int, *, padding: int = 32, huge1g: bool = False) -> Heap:
    return Heap(device_id=0, capacity=capacity, padding=padding, huge1g=huge1g)


@pytest.fixture(scope="module")
def soc_pad32():
    return load_soc(PAD32_SOC)


@pytest.fixture(scope="module")
def soc_pad0():
    return load_soc(PAD0_SOC)


# -- rounding -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [(1, 64), (32, 64), (33, 96), (100, 160), (1024, 1056), (1 * MiB, 1 * MiB + 32)],
)
def test_rounding_with_pad_32(soc_pad32, size: int, expected: int) -> None:
    """On a pad-32 SoC (910B2) aclrtMalloc asks the driver for ALIGN_UP(size, 32) + 32 bytes."""
    npu = SimulatedNpu(soc=soc_pad32)
    ptr = npu.malloc(size, MemPolicy.HUGE_FIRST)
    info = npu.allocation(ptr)
    assert info is not None
    assert info.size == size
    assert info.alloc_size == expected


@pytest.mark.parametrize(("size", "expected"), [(1, 32), (32, 32), (33, 64), (100, 128), (1 * MiB, 1 * MiB)])
def test_rounding_with_pad_0(soc_pad0, size: int, expected: int) -> None:
    """On a pad-0 SoC (Ascend950PR_9599) the rounded size is ALIGN_UP(size, 32) with no padding."""
    npu = SimulatedNpu(soc=soc_pad0)
    info = npu.allocation(npu.malloc(size, MemPolicy.HUGE_FIRST))
    assert info is not None
    assert info.alloc_size == expected


@pytest.mark.parametrize(("size", "expected"), [(1, 32), (32, 32), (33, 64), (100, 128), (1024, 1024)])
def test_unpadded_malloc_gets_no_pad(soc_pad32, size: int, expected: int) -> None:
    """padded=False (aclrtMallocAlign32) rounds to 32 bytes without the SoC padding."""
    npu = SimulatedNpu(soc=soc_pad32)
    info = npu.allocation(npu.malloc(size, MemPolicy.NORMAL_ONLY, padded=False))
    assert info is not None
    assert info.alloc_size == expected


def test_addresses_are_64_byte_aligned_and_distinct(soc_pad32) -> None:
    """Every address aclrtMalloc returns is 64-byte aligned and no two live allocations share one."""
    npu = SimulatedNpu(soc=soc_pad32)
    ptrs = [npu.malloc(size, MemPolicy.HUGE_FIRST) for size in (1, 33, 100, 4097, 2 * MiB)]
    assert all(p % 64 == 0 for p in ptrs)
    assert len(set(ptrs)) == len(ptrs)


def test_allocation_records_policy_and_tag(soc_pad32) -> None:
    """AllocationInfo keeps the caller's policy value and tag."""
    npu = SimulatedNpu(soc=soc_pad32)
    ptr = npu.malloc(10, 0x102, tag="workspace")
    info = npu.allocation(ptr)
    assert info is not None
    assert (info.addr, info.policy, info.tag) == (ptr, 0x102, "workspace")
    assert npu.allocation(ptr + 64) is None


# -- page policies --------------------------------------------------------------------------------


def test_normal_pages_charge_whole_4k_pages() -> None:
    """A small allocation is charged in whole 4 KiB pages of its rounded size."""
    heap = small_heap(64 * MiB)
    a = heap.allocate(1, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    assert (a.info.alloc_size, a.info.charged, a.info.page_kind) == (64, 4 * KiB, PageKind.NORMAL)
    b = heap.allocate(4096 - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert (b.info.alloc_size, b.info.charged) == (4096, 4096)
    c = heap.allocate(4096 - 31, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert (c.info.alloc_size, c.info.charged) == (4096 + 32, 8192)
    assert heap.used == 4096 + 4096 + 8192


def test_huge_first_uses_huge_pages_only_above_1_mib() -> None:
    """HUGE_FIRST takes 2 MiB pages only when the rounded size is over 1 MiB (the driver's rule)."""
    heap = small_heap(64 * MiB)
    at_limit = heap.allocate(1 * MiB - 32, MemPolicy.HUGE_FIRST, padded=True, tag="t")  # rounds to 1 MiB
    assert at_limit.info.alloc_size == 1 * MiB
    assert (at_limit.info.page_kind, at_limit.info.charged) == (PageKind.NORMAL, 1 * MiB)
    over = heap.allocate(1 * MiB, MemPolicy.HUGE_FIRST, padded=True, tag="t")  # rounds to 1 MiB + 32
    assert (over.info.page_kind, over.info.charged) == (PageKind.HUGE, 2 * MiB)
    p2p = heap.allocate(1 * MiB, MemPolicy.HUGE_FIRST_P2P, padded=True, tag="t")
    assert (p2p.info.page_kind, p2p.info.charged) == (PageKind.HUGE, 2 * MiB)


def test_one_mib_on_pad_0_soc_stays_on_normal_pages(soc_pad0) -> None:
    """Without padding, 1 MiB rounds to exactly 1 MiB, which is not over the threshold: normal pages."""
    npu = SimulatedNpu(soc=soc_pad0)
    info = npu.allocation(npu.malloc(1 * MiB, MemPolicy.HUGE_FIRST))
    assert info is not None
    assert (info.page_kind, info.charged) == (PageKind.NORMAL, 1 * MiB)


def test_huge_first_falls_back_to_normal_pages_when_huge_do_not_fit() -> None:
    """HUGE_FIRST over 1 MiB falls back to 4 KiB pages when a 2 MiB-page charge no longer fits."""
    heap = small_heap(3 * MiB + 512 * KiB)
    first = heap.allocate(1536 * KiB, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    assert (first.info.page_kind, first.info.charged) == (PageKind.HUGE, 2 * MiB)
    second = heap.allocate(1280 * KiB, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    assert second.info.page_kind is PageKind.NORMAL
    assert second.info.charged == 1280 * KiB + 4 * KiB
    assert heap.used == 2 * MiB + 1284 * KiB


def test_huge_only_never_falls_back() -> None:
    """HUGE_ONLY uses 2 MiB pages at any size and fails with 207001 instead of falling back."""
    heap = small_heap(3 * MiB + 512 * KiB)
    tiny = heap.allocate(1, MemPolicy.HUGE_ONLY, padded=True, tag="t")
    assert (tiny.info.page_kind, tiny.info.charged) == (PageKind.HUGE, 2 * MiB)
    with pytest.raises(OutOfMemory) as exc:
        heap.allocate(1280 * KiB, MemPolicy.HUGE_ONLY, padded=True, tag="t")
    assert exc.value.status == 207001
    assert heap.used == 2 * MiB
    assert heap.allocate(1280 * KiB, MemPolicy.HUGE_FIRST, padded=True, tag="t").info.page_kind is (PageKind.NORMAL)


@pytest.mark.parametrize("policy", [MemPolicy.NORMAL_ONLY, MemPolicy.NORMAL_ONLY_P2P])
def test_normal_only_never_uses_huge_pages(policy: int) -> None:
    """NORMAL_ONLY (and its P2P twin) charge 4 KiB pages even for multi-MiB sizes."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(3 * MiB, policy, padded=True, tag="t")
    assert (alloc.info.page_kind, alloc.info.charged) == (PageKind.NORMAL, 3 * MiB + 4 * KiB)


@pytest.mark.parametrize("policy", [99, 8, 0xFF])
def test_unknown_policy_behaves_as_huge_first(policy: int) -> None:
    """An unknown policy value is treated like HUGE_FIRST (driver default branch)."""
    heap = small_heap(64 * MiB)
    small = heap.allocate(100, policy, padded=True, tag="t")
    big = heap.allocate(1 * MiB, policy, padded=True, tag="t")
    assert (small.info.page_kind, small.info.charged) == (PageKind.NORMAL, 4 * KiB)
    assert (big.info.page_kind, big.info.charged) == (PageKind.HUGE, 2 * MiB)
    assert small.info.policy == policy


def test_policy_high_bits_are_hints() -> None:
    """Only the low byte selects the page policy; 0x100/0x1000 bandwidth hints are ignored."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(3 * MiB, 0x100 | MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert alloc.info.page_kind is PageKind.NORMAL
    huge = heap.allocate(1, 0x1000 | MemPolicy.HUGE_ONLY, padded=True, tag="t")
    assert huge.info.page_kind is PageKind.HUGE


@pytest.mark.parametrize("policy", [MemPolicy.HUGE1G_ONLY, MemPolicy.HUGE1G_ONLY_P2P])
def test_huge1g_charges_gigabyte_pages_without_pad(soc_pad32, policy: int) -> None:
    """HUGE1G_ONLY on a SoC with 1 GiB pages skips the pad and charges whole 1 GiB pages."""
    npu = SimulatedNpu(soc=soc_pad32)
    assert soc_pad32.huge1g_pages
    info = npu.allocation(npu.malloc(100, policy))
    assert info is not None
    assert (info.alloc_size, info.page_kind, info.charged) == (128, PageKind.GIANT, 1 * GiB)
    big = npu.allocation(npu.malloc(1 * GiB + 1, policy))
    assert big is not None
    assert big.charged == 2 * GiB
    assert npu.heap.used == 3 * GiB


@pytest.mark.parametrize("soc_name", ["Ascend310P3", "Ascend950PR_9599"])
@pytest.mark.parametrize("policy", [MemPolicy.HUGE1G_ONLY, MemPolicy.HUGE1G_ONLY_P2P])
def test_huge1g_on_soc_without_gigabyte_pages_is_unsupported(soc_name: str, policy: int) -> None:
    """A 1 GiB page policy on a part without 1 GiB pages fails with 207000 and charges nothing."""
    npu = SimulatedNpu(soc=load_soc(soc_name))
    with pytest.raises(FeatureNotSupported) as exc:
        npu.malloc(100, policy)
    assert exc.value.status == 207000
    assert npu.heap.used == 0
    assert npu.live_allocations() == []


# -- capacity ------------------------------------------------------------------------------------


def test_allocation_that_exactly_fills_capacity_succeeds() -> None:
    """A request whose page charge equals the free capacity to the byte is granted."""
    heap = small_heap(16 * KiB)
    alloc = heap.allocate(16 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert alloc.info.charged == 16 * KiB
    assert heap.used == heap.capacity == heap.peak
    assert heap.mem_info(None).free == 0


def test_one_byte_more_than_capacity_is_out_of_memory() -> None:
    """One byte past the capacity (one more page) fails with 207001 and changes no accounting."""
    heap = small_heap(16 * KiB)
    with pytest.raises(OutOfMemory) as exc:
        heap.allocate(16 * KiB - 31, MemPolicy.NORMAL_ONLY, padded=True, tag="t")  # 20 KiB charged
    assert exc.value.status == 207001
    assert (heap.used, heap.peak) == (0, 0)
    heap.allocate(16 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    with pytest.raises(OutOfMemory) as exc:
        heap.allocate(1, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert exc.value.status == 207001
    assert heap.used == 16 * KiB


def test_capacity_one_byte_short_of_a_page_refuses_it() -> None:
    """A capacity one byte short of a page's charge refuses that page."""
    heap = small_heap(16 * KiB - 1)
    with pytest.raises(OutOfMemory):
        heap.allocate(16 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    ok = heap.allocate(12 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert ok.info.charged == 12 * KiB


def test_freeing_returns_capacity_for_reuse() -> None:
    """Capacity charged by a freed allocation can be allocated again."""
    heap = small_heap(16 * KiB)
    a = heap.allocate(16 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    heap.release(a.addr)
    b = heap.allocate(16 * KiB - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert b.addr != a.addr
    assert heap.used == 16 * KiB


def test_soc_capacity_is_hbm_total(soc_pad32) -> None:
    """The device's capacity is the profile's memory_size less its reserve, reported by mem_info."""
    npu = SimulatedNpu(soc=soc_pad32)
    assert npu.heap.capacity == soc_pad32.memory_size - soc_pad32.memory_reserved
    info = npu.mem_info()
    assert (info.free, info.total) == (npu.heap.capacity, npu.heap.capacity)


def test_used_and_peak_are_exact() -> None:
    """used is the sum of live charges and peak the high-water mark, both to the byte."""
    heap = small_heap(64 * MiB)
    a = heap.allocate(100, MemPolicy.HUGE_FIRST, padded=True, tag="t")  # 4 KiB
    b = heap.allocate(1 * MiB, MemPolicy.HUGE_FIRST, padded=True, tag="t")  # 2 MiB
    c = heap.allocate(5000, MemPolicy.NORMAL_ONLY, padded=True, tag="t")  # 8 KiB
    assert heap.used == 4 * KiB + 2 * MiB + 8 * KiB
    assert heap.peak == heap.used
    info = heap.release(b.addr).info
    assert info.charged == 2 * MiB
    assert heap.used == 12 * KiB
    assert heap.peak == 4 * KiB + 2 * MiB + 8 * KiB
    heap.release(a.addr)
    heap.release(c.addr)
    assert heap.used == 0
    assert heap.peak == 4 * KiB + 2 * MiB + 8 * KiB
    assert heap.live() == []


# -- bad addresses -------------------------------------------------------------------------------


def test_release_of_unknown_address_is_invalid_address() -> None:
    """Freeing an address that was never allocated fails with 507899 and names the address."""
    heap = small_heap(64 * MiB)
    live = heap.allocate(100, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    stray = live.addr + 10 * MiB
    with pytest.raises(InvalidAddress) as exc:
        heap.release(stray)
    assert exc.value.status == 507899
    assert exc.value.context["addr"] == stray
    assert f"{stray:#x}" in exc.value.message
    assert f"{live.addr:#x}" in exc.value.message  # the nearest live allocation
    assert heap.used == 4 * KiB


def test_double_free_is_invalid_address_naming_the_freed_allocation() -> None:
    """A second free of one pointer fails with 507899 and the message names the freed allocation."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(100, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    heap.release(alloc.addr)
    with pytest.raises(InvalidAddress) as exc:
        heap.release(alloc.addr)
    assert exc.value.status == 507899
    assert f"{alloc.addr:#x}" in exc.value.message
    assert heap.used == 0


def test_interior_pointer_free_is_invalid_address_naming_the_allocation() -> None:
    """Freeing a pointer inside a live allocation fails, names both addresses and keeps the allocation."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(256, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    interior = alloc.addr + 64
    with pytest.raises(InvalidAddress) as exc:
        heap.release(interior)
    assert exc.value.status == 507899
    assert f"{interior:#x}" in exc.value.message
    assert f"{alloc.addr:#x}" in exc.value.message
    assert heap.get(alloc.addr) is alloc
    assert heap.used == 4 * KiB


def test_npu_free_of_host_pointer_is_invalid_address(soc_pad32) -> None:
    """SimulatedNpu.free of a host (numpy) address fails with 507899 naming that address."""
    npu = SimulatedNpu(soc=soc_pad32)
    host = np.zeros(64, dtype=np.uint8)
    with pytest.raises(InvalidAddress) as exc:
        npu.free(host.ctypes.data)
    assert exc.value.status == 507899
    assert f"{host.ctypes.data:#x}" in exc.value.message


def test_view_past_the_end_is_invalid_address() -> None:
    """A view that runs past the addressable bytes of an allocation is refused with 507899."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(100, MemPolicy.HUGE_FIRST, padded=True, tag="t")  # 160 addressable
    assert heap.view(alloc.addr, 160, "test").nbytes == 160
    with pytest.raises(InvalidAddress) as exc:
        heap.view(alloc.addr + 100, 61, "test")
    assert exc.value.status == 507899
    assert f"{alloc.addr + 100:#x}" in exc.value.message


# -- contents ------------------------------------------------------------------------------------


def test_new_memory_is_poisoned(soc_pad32) -> None:
    """Fresh device memory reads back as 0xFF in every addressable byte (aclrtMalloc does not clear)."""
    npu = SimulatedNpu(soc=soc_pad32)
    ptr = npu.malloc(100, MemPolicy.HUGE_FIRST)
    out = np.zeros(160, dtype=np.uint8)
    npu.copy(out.ctypes.data, ptr, 160, Direction.D2H, None)
    assert POISON == 0xFF
    assert np.all(out == 0xFF)


def test_view_for_overwrite_poisons_only_untouched_bytes() -> None:
    """A first overwrite poisons the bytes around the written range, and a later one keeps earlier data."""
    heap = small_heap(64 * MiB)
    # Over glibc's largest mmap threshold, so an unpoisoned byte would read 0 rather than stale 0xFF.
    size = 40 * MiB
    mid = 20 * MiB
    alloc = heap.allocate(size - 32, MemPolicy.NORMAL_ONLY, padded=True, tag="t")
    assert alloc.info.alloc_size == size
    target = heap.view_for_overwrite(alloc.addr + mid, 32, "test")
    target[:] = 0x11
    full = heap.view(alloc.addr, size, "test")
    assert np.all(full[:mid] == 0xFF)
    assert np.all(full[mid : mid + 32] == 0x11)
    assert np.all(full[mid + 32 :] == 0xFF)
    again = heap.view_for_overwrite(alloc.addr, 16, "test")
    again[:] = 0x22
    full = heap.view(alloc.addr, size, "test")
    assert np.all(full[:16] == 0x22)
    assert np.all(full[16:mid] == 0xFF)
    assert np.all(full[mid : mid + 32] == 0x11)
    assert np.all(full[mid + 32 :] == 0xFF)


def test_partial_h2d_copy_leaves_rest_poisoned(soc_pad32) -> None:
    """A synchronous H2D copy into the middle of fresh memory leaves the other bytes 0xFF."""
    npu = SimulatedNpu(soc=soc_pad32)
    ptr = npu.malloc(128, MemPolicy.HUGE_FIRST)  # 160 addressable
    src = np.arange(1, 33, dtype=np.uint8)
    npu.copy(ptr + 32, src.ctypes.data, 32, Direction.H2D, None)
    out = np.zeros(160, dtype=np.uint8)
    npu.copy(out.ctypes.data, ptr, 160, Direction.D2H, None)
    assert np.all(out[:32] == 0xFF)
    np.testing.assert_array_equal(out[32:64], src)
    assert np.all(out[64:] == 0xFF)


def test_freed_memory_forgets_its_bytes() -> None:
    """Releasing an allocation drops its buffer; a view of the freed range is refused."""
    heap = small_heap(64 * MiB)
    alloc = heap.allocate(64, MemPolicy.HUGE_FIRST, padded=True, tag="t")
    heap.view(alloc.addr, 64, "test")[:] = 1
    heap.release(alloc.addr)
    assert alloc.buffer is None
    with pytest.raises(InvalidAddress) as exc:
        heap.view(alloc.addr, 64, "test")
    assert f"{alloc.addr:#x}" in exc.value.message


# -- mem_info ------------------------------------------------------------------------------------


def test_mem_info_per_page_kind() -> None:
    """mem_info reports free/total of the shared HBM, floored to whole pages of the asked pool."""
    heap = small_heap(10 * MiB + 5 * KiB + 7, huge1g=False)
    heap.allocate(100, MemPolicy.NORMAL_ONLY, padded=True, tag="t")  # 4 KiB
    free = heap.capacity - 4 * KiB
    total = heap.capacity
    assert heap.mem_info(None) == MemInfo(free=free, total=total)
    normal = heap.mem_info(PageKind.NORMAL)
    assert (normal.free, normal.total) == (free // (4 * KiB) * 4 * KiB, total // (4 * KiB) * 4 * KiB)
    assert (normal.free, normal.total) == (10 * MiB, 10 * MiB + 4 * KiB)
    huge = heap.mem_info(PageKind.HUGE)
    assert (huge.free, huge.total) == (10 * MiB, 10 * MiB)
    with pytest.raises(FeatureNotSupported) as exc:
        heap.mem_info(PageKind.GIANT)
    assert exc.value.status == 207000


def test_mem_info_giant_pool_on_soc_with_gigabyte_pages(soc_pad32) -> None:
    """On a part with 1 GiB pages the giant pool is reported in whole GiB."""
    npu = SimulatedNpu(soc=soc_pad32)
    giant = npu.mem_info(PageKind.GIANT)
    cap = npu.heap.capacity
    assert (giant.free, giant.total) == (cap // GiB * GiB, cap // GiB * GiB)
    npu.malloc(1, MemPolicy.HUGE1G_ONLY)
    assert npu.mem_info(PageKind.GIANT).free == (cap - GiB) // GiB * GiB
