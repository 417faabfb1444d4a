"""acl.rt memory: malloc / free / malloc_host / get_mem_info / memcpy / memset, and acl.util pointers.

Checked against the real runtime's rules for these calls (check order, size rounding and page
charges, the advisory copy kind, pinned vs pageable async copies).
"""

from __future__ import annotations

import ctypes
import re

import numpy as np
import pytest

from emulator import acl, process
from emulator.status import AclError

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB
PAGE = 4 * KiB
HUGE = 2 * MiB

H2H, H2D, D2H, D2D, DEFAULT, H2B2D = 0, 1, 2, 3, 4, 5
HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY, HUGE1G_ONLY = 0, 1, 2, 6
DDR_MEM, HBM_MEM = 0, 1
NPY_UINT8, NPY_FLOAT32 = 2, 11


def _device() -> None:
    assert acl.rt.set_device(0) == 0


def _malloc(size: int, policy: int = HUGE_FIRST) -> int:
    ptr, ret = acl.rt.malloc(size, policy)
    assert ret == 0
    return ptr


def _malloc_host(size: int) -> int:
    ptr, ret = acl.rt.malloc_host(size)
    assert ret == 0
    return ptr


def _free_hbm() -> int:
    free, _, ret = acl.rt.get_mem_info(HBM_MEM)
    assert ret == 0
    return free


def _to_device(data: np.ndarray) -> int:
    ptr = _malloc(data.nbytes)
    assert acl.rt.memcpy(ptr, data.nbytes, data.ctypes.data, data.nbytes, H2D) == 0
    return ptr


def _read_device(ptr: int, nbytes: int) -> np.ndarray:
    out = np.zeros(nbytes, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, nbytes, ptr, nbytes, D2H) == 0
    return out


def _host_bytes(ptr: int, nbytes: int) -> np.ndarray:
    return np.frombuffer(ctypes.string_at(ptr, nbytes), dtype=np.uint8)


# -- malloc -----------------------------------------------------------------------------------
def test_malloc_zero_size() -> None:
    """aclrtMalloc(&p, 0, 0) gives 100000 with the aclMallocMemInner size message."""
    _device()
    assert acl.rt.malloc(0, 0) == (0, 100000)
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert (
        "aclMallocMemInner failed because value 0 for parameter size is invalid. "
        "Expected value: must be greater than 0." in msg
    )


def test_malloc_zero_size_checked_before_context() -> None:
    """Argument checks come before state checks: size 0 without a device is 100000, not 107002."""
    assert acl.rt.malloc(0, 0) == (0, 100000)


def test_malloc_before_set_device() -> None:
    """aclrtMalloc with no current context gives 107002."""
    assert acl.rt.malloc(16, 0) == (0, 107002)


def test_malloc_capacity_plus_one(emu: process.EmulatedProcess) -> None:
    """Asking for more than the device holds gives 207001 and an EL0004 message."""
    _device()
    _, total, _ = acl.rt.get_mem_info(HBM_MEM)
    assert acl.rt.malloc(total + 1, 0) == (0, AclError.ACL_ERROR_RT_MEMORY_ALLOCATION)
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "EL0004" in msg
    assert "Failed to allocate memory requested by APP module." in msg
    assert emu.runtime.current_device().heap.used == 0


def test_malloc_addresses_are_64_byte_aligned() -> None:
    """aclrtMalloc and aclrtMallocHost return 64-byte aligned addresses."""
    _device()
    for size in (1, 33, 100, 4097):
        assert _malloc(size) % 64 == 0
        assert _malloc_host(size) % 64 == 0


@pytest.mark.parametrize(
    ("size", "policy", "charged"),
    [
        (1, HUGE_FIRST, PAGE),  # 1 -> 64 bytes, normal pages
        (100, NORMAL_ONLY, PAGE),  # 100 -> 160
        (4096, HUGE_FIRST, 2 * PAGE),  # 4096 -> 4128: the pad spills into a second page
        (4064, HUGE_FIRST, PAGE),  # 4064 -> 4096 exactly
        (MiB - 64, HUGE_FIRST, MiB),  # rounded 1 MiB - 32 <= 1 MiB: normal pages
        (MiB, HUGE_FIRST, HUGE),  # rounded 1 MiB + 32 > 1 MiB: a 2 MiB huge page
        (2 * MiB, HUGE_FIRST, 2 * HUGE),  # 2 MiB + 32 needs two huge pages
        (1, HUGE_ONLY, HUGE),  # huge pages at any size
        (MiB, NORMAL_ONLY, MiB + PAGE),  # never huge pages
        (2 * MiB, 0x99, 2 * HUGE),  # unknown policy: treated like HUGE_FIRST
        (1, HUGE1G_ONLY, GiB),  # 1 GiB pages (A2), no pad
    ],
)
def test_malloc_charges_whole_pages(emu: process.EmulatedProcess, size: int, policy: int, charged: int) -> None:
    """get_mem_info's free drops by ALIGN_UP(size, 32) + pad rounded up to whole pages, and comes back on free."""
    _device()
    before = _free_hbm()
    ptr = _malloc(size, policy)
    assert before - _free_hbm() == charged
    assert emu.runtime.current_device().heap.used == charged
    assert acl.rt.free(ptr) == 0
    assert _free_hbm() == before


def test_malloc_align32_has_no_pad(emu: process.EmulatedProcess) -> None:
    """aclrtMallocAlign32 rounds to 32 without the SoC padding that aclrtMalloc adds."""
    _device()
    before = _free_hbm()
    aligned, ret = acl.rt.malloc_align32(4096, 0)
    assert ret == 0
    assert before - _free_hbm() == PAGE
    padded = _malloc(4096)
    assert before - _free_hbm() == PAGE + 2 * PAGE
    device = emu.runtime.current_device()
    sizes = {info.addr: info.alloc_size for info in device.live_allocations()}
    assert sizes == {aligned: 4096, padded: 4096 + 32}
    assert acl.rt.free(aligned) == 0
    assert acl.rt.free(padded) == 0


def test_malloc_pad_bytes_are_addressable() -> None:
    """The padded size is addressable: a copy of size + 32 bytes into a malloc(size) buffer works."""
    _device()
    ptr = _malloc(100)
    data = np.arange(160, dtype=np.uint8)
    assert acl.rt.memcpy(ptr, 160, data.ctypes.data, 160, H2D) == 0
    np.testing.assert_array_equal(_read_device(ptr, 160), data)


# -- get_mem_info -----------------------------------------------------------------------------
def test_get_mem_info_hbm_vs_ddr() -> None:
    """A 910B is an HBM part: HBM_MEM reports free/total, DDR_MEM reports 0/0."""
    _device()
    free, total, ret = acl.rt.get_mem_info(HBM_MEM)
    assert ret == 0
    assert 0 < free <= total
    assert acl.rt.get_mem_info(DDR_MEM) == (0, 0, 0)
    for ddr_attr in (2, 3, 6, 7):
        assert acl.rt.get_mem_info(ddr_attr) == (0, 0, 0)


def test_get_mem_info_bad_attr() -> None:
    """An attr outside 0…17 gives 107016."""
    _device()
    assert acl.rt.get_mem_info(18)[2] == 107016
    assert acl.rt.get_mem_info(-1)[2] == AclError.ACL_ERROR_RT_INVALID_MEMORY_TYPE


def test_get_mem_info_needs_context() -> None:
    """aclrtGetMemInfo reports the current device, so without one it gives 107002."""
    assert acl.rt.get_mem_info(HBM_MEM)[2] == 107002


# -- free -------------------------------------------------------------------------------------
def test_free_null() -> None:
    """aclrtFree(NULL) gives 100000 with the EH0008 message naming aclrtFree."""
    assert acl.rt.free(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "aclrtFree failed because devPtr cannot be a NULL pointer." in msg.splitlines()[0]


def test_double_free() -> None:
    """aclrtFree of the same pointer twice gives 0 then 507899."""
    _device()
    ptr = _malloc(64)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) == AclError.ACL_ERROR_RT_DRV_INTERNAL_ERROR


def test_free_bad_pointers() -> None:
    """An interior pointer, a host pointer or a made-up address is rejected with 507899."""
    _device()
    ptr = _malloc(256)
    host = np.zeros(16, dtype=np.uint8)
    assert acl.rt.free(ptr + 64) == 507899
    assert acl.rt.free(host.ctypes.data) == 507899
    assert acl.rt.free(0x1234) == 507899
    assert acl.rt.free(ptr) == 0


def test_free_needs_no_context() -> None:
    """aclrtFree works after the thread's device was reset (it needs no current context)."""
    _device()
    ptr = _malloc(64)
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_device()[1] == 107002
    assert acl.rt.free(ptr) == 0


# -- malloc_host / free_host ------------------------------------------------------------------
def test_malloc_host_before_set_device() -> None:
    """aclrtMallocHost needs a device set: 107002 without one."""
    assert acl.rt.malloc_host(64) == (0, 107002)


def test_malloc_host_zero_size() -> None:
    """aclrtMallocHost with size 0 gives 100000."""
    assert acl.rt.malloc_host(0)[1] == 100000


def test_free_host_rules() -> None:
    """aclrtFreeHost: NULL is 100000; a second free and a pageable pointer are rejected (507899)."""
    _device()
    ptr = _malloc_host(64)
    host = np.zeros(64, dtype=np.uint8)
    assert acl.rt.free_host(0) == 100000
    assert acl.rt.free_host(host.ctypes.data) == 507899
    assert acl.rt.free_host(ptr) == 0
    assert acl.rt.free_host(ptr) == 507899


def test_malloc_host_memory_is_writable_process_memory() -> None:
    """Clients ctypes.memmove into pinned memory and read it back."""
    _device()
    ptr = _malloc_host(16)
    ctypes.memmove(ptr, b"0123456789abcdef", 16)
    assert ctypes.string_at(ptr, 16) == b"0123456789abcdef"


# -- memcpy: check order ----------------------------------------------------------------------
def test_memcpy_zero_count_with_null_pointers() -> None:
    """aclrtMemcpy(NULL, 0, NULL, 0, kind) gives 0 even without a device."""
    assert acl.rt.memcpy(0, 0, 0, 0, H2D) == 0
    assert acl.rt.memcpy(0, 0, 0, 0, 99) == 0


def test_memcpy_null_pointers() -> None:
    """A null dst or src with a nonzero count gives 100000, before the kind check."""
    host = np.zeros(8, dtype=np.uint8)
    assert acl.rt.memcpy(0, 8, host.ctypes.data, 8, H2D) == 100000
    assert acl.rt.memcpy(host.ctypes.data, 8, 0, 8, 99) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "aclrtMemcpy failed because dst cannot be a NULL pointer." in msg


@pytest.mark.parametrize("kind", [6, 7, 8, -1])
def test_memcpy_bad_kind(kind: int) -> None:
    """Kinds outside 0-5 (6 and 7 included) give 100000 and the message lists the six accepted kinds (row 18)."""
    _device()
    dst, src = _malloc(64), _malloc(64)
    assert acl.rt.memcpy(dst, 64, src, 64, kind) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    first = msg.splitlines()[0]
    assert "Memory copy type conversion failed because value " in first
    name = "MEMCPY_INNER_DEVICE_TO_DEVICE(6)" if kind == 6 else "MEMCPY_INTER_DEVICE_TO_DEVICE(7)"
    expected_value = name if kind in (6, 7) else f"UNKNOWN({kind})"
    assert f"value {expected_value} for parameter kind is invalid." in first
    accepted = first.split("Expected value: ", 1)[1]
    assert accepted.endswith(".")
    names = [re.sub(r"^ACL_|\(\d+\)$", "", item) for item in accepted[:-1].split(" or ")]
    assert names == [
        "MEMCPY_HOST_TO_DEVICE",
        "MEMCPY_DEVICE_TO_DEVICE",
        "MEMCPY_DEVICE_TO_HOST",
        "MEMCPY_HOST_TO_HOST",
        "MEMCPY_DEFAULT",
        "MEMCPY_HOST_TO_BUF_TO_DEVICE",
    ]


def test_memcpy_kind_checked_before_dest_max() -> None:
    """A bad kind with destMax 0 gives the kind's 100000, not 107000."""
    _device()
    dst, src = _malloc(64), _malloc(64)
    assert acl.rt.memcpy(dst, 0, src, 8, 9) == 100000


def test_memcpy_dest_max_zero() -> None:
    """destMax 0 with a nonzero count gives 107000."""
    _device()
    dst, src = _malloc(64), _malloc(64)
    assert acl.rt.memcpy(dst, 0, src, 8, D2D) == 107000


def test_memcpy_count_above_dest_max() -> None:
    """aclrtMemcpy(d, 8, s, 16, H2D) gives 107000."""
    _device()
    dst = _malloc(64)
    src = np.zeros(16, dtype=np.uint8)
    assert acl.rt.memcpy(dst, 8, src.ctypes.data, 16, H2D) == AclError.ACL_ERROR_RT_PARAM_INVALID


def test_memcpy_count_above_dest_max_before_context() -> None:
    """count > destMax is checked before the context: 107000 even without a device."""
    a, b = np.zeros(16, dtype=np.uint8), np.zeros(16, dtype=np.uint8)
    assert acl.rt.memcpy(a.ctypes.data, 8, b.ctypes.data, 16, H2H) == 107000


def test_memcpy_same_pointer() -> None:
    """dst == src returns 0 and copies nothing, before the context check."""
    host = np.arange(16, dtype=np.uint8)
    assert acl.rt.memcpy(host.ctypes.data, 16, host.ctypes.data, 16, H2H) == 0
    _device()
    ptr = _malloc(16)
    assert acl.rt.memcpy(ptr, 16, ptr, 16, D2D) == 0


def test_memcpy_needs_context_last() -> None:
    """A valid host-to-host copy without a current context gives 107002."""
    a, b = np.zeros(16, dtype=np.uint8), np.ones(16, dtype=np.uint8)
    assert acl.rt.memcpy(a.ctypes.data, 16, b.ctypes.data, 16, H2H) == 107002


# -- memcpy: data -----------------------------------------------------------------------------
def test_memcpy_round_trip() -> None:
    """H2D, D2D and D2H copies move the bytes exactly."""
    _device()
    data = np.arange(256, dtype=np.float32)
    dev = _to_device(data)
    dev2 = _malloc(data.nbytes)
    assert acl.rt.memcpy(dev2, data.nbytes, dev, data.nbytes, D2D) == 0
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dev2, data.nbytes, D2H) == 0
    np.testing.assert_array_equal(out, data)


def test_memcpy_host_to_host() -> None:
    """A synchronous H2H copy between ordinary host buffers works."""
    _device()
    src = np.arange(32, dtype=np.uint8)
    dst = np.zeros(32, dtype=np.uint8)
    assert acl.rt.memcpy(dst.ctypes.data, 32, src.ctypes.data, 32, H2H) == 0
    np.testing.assert_array_equal(dst, src)


@pytest.mark.parametrize("wrong_kind", [H2H, D2H, D2D, DEFAULT])
def test_memcpy_direction_follows_addresses(wrong_kind: int) -> None:
    """The kind is advisory: an in-range but wrong kind still copies in the true direction."""
    _device()
    data = np.arange(64, dtype=np.uint8)
    dev = _malloc(64)
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, wrong_kind) == 0
    out = np.zeros(64, dtype=np.uint8)
    back_kind = H2D if wrong_kind != H2D else H2H
    assert acl.rt.memcpy(out.ctypes.data, 64, dev, 64, back_kind) == 0
    np.testing.assert_array_equal(out, data)


def test_memcpy_freed_device_pointer() -> None:
    """A copy into freed device memory is rejected with 107000."""
    _device()
    dev = _malloc(64)
    assert acl.rt.free(dev) == 0
    data = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy(dev, 64, data.ctypes.data, 64, H2D) == 107000


# -- memcpy_async -----------------------------------------------------------------------------
def test_memcpy_async_pinned_is_deferred_until_sync() -> None:
    """With pinned memory the copy is asynchronous: the host sees the data only after synchronize_stream."""
    _device()
    stream, _ = acl.rt.create_stream()
    data = np.arange(64, dtype=np.uint8) + 1
    src, dst = _malloc_host(64), _malloc_host(64)
    ctypes.memmove(src, data.ctypes.data, 64)
    ctypes.memset(dst, 0, 64)
    dev = _malloc(64)
    assert acl.rt.memcpy_async(dev, 64, src, 64, H2D, stream) == 0
    assert acl.rt.memcpy_async(dst, 64, dev, 64, D2H, stream) == 0
    assert not _host_bytes(dst, 64).any()
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(_host_bytes(dst, 64), data)
    assert acl.rt.destroy_stream(stream) == 0


def test_memcpy_async_pinned_kind_is_corrected() -> None:
    """For a device/pinned pair the runtime replaces a wrong kind with the true direction."""
    _device()
    stream, _ = acl.rt.create_stream()
    data = np.arange(32, dtype=np.uint8)
    src = _malloc_host(32)
    ctypes.memmove(src, data.ctypes.data, 32)
    dev = _malloc(32)
    assert acl.rt.memcpy_async(dev, 32, src, 32, D2H, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(_read_device(dev, 32), data)


def test_memcpy_async_pageable_destination_is_filled_before_return() -> None:
    """With pageable (numpy) memory the stream is synchronised and the copy done before the call returns."""
    _device()
    stream, _ = acl.rt.create_stream()
    data = np.arange(64, dtype=np.uint8)
    src = _malloc_host(64)
    ctypes.memmove(src, data.ctypes.data, 64)
    dev = _malloc(64)
    assert acl.rt.memcpy_async(dev, 64, src, 64, H2D, stream) == 0  # pinned: queued
    out = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy_async(out.ctypes.data, 64, dev, 64, D2H, stream) == 0
    np.testing.assert_array_equal(out, data)
    assert acl.rt.stream_query(stream) == (0, 0)


def test_memcpy_async_pageable_source_is_read_at_call() -> None:
    """A pageable source is read during the call: changing it afterwards does not change the copy."""
    _device()
    stream, _ = acl.rt.create_stream()
    data = np.arange(64, dtype=np.uint8)
    dev = _malloc(64)
    assert acl.rt.memcpy_async(dev, 64, data.ctypes.data, 64, H2D, stream) == 0
    expected = data.copy()
    data[:] = 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(_read_device(dev, 64), expected)


def test_memcpy_async_host_to_host_unsupported() -> None:
    """Async H2H in EP mode gives 207000 for pinned and for pageable host memory."""
    _device()
    a, b = _malloc_host(32), _malloc_host(32)
    x, y = np.zeros(32, dtype=np.uint8), np.zeros(32, dtype=np.uint8)
    assert acl.rt.memcpy_async(a, 32, b, 32, H2H, 0) == 207000
    assert acl.rt.memcpy_async(x.ctypes.data, 32, y.ctypes.data, 32, H2H, 0) == 207000
    assert acl.rt.memcpy_async(a, 32, x.ctypes.data, 32, H2H, 0) == AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


@pytest.mark.parametrize(
    ("dst_kind", "src_kind", "kind"),
    [
        ("device", "pageable", D2H),  # UNREGISTERED -> DEVICE allows H2D / D2D
        ("device", "pageable", H2H),
        ("pageable", "device", H2D),  # DEVICE -> UNREGISTERED allows D2H / D2D
        ("pageable", "pinned", D2H),  # HOST -> UNREGISTERED allows H2H / H2D
        ("pinned", "pageable", H2D),  # UNREGISTERED -> HOST allows H2H / D2H
    ],
)
def test_memcpy_async_disallowed_kind_for_pageable_end(dst_kind: str, src_kind: str, kind: int) -> None:
    """A kind the runtime does not allow for a pageable end gives 107000."""
    _device()
    keep = np.zeros(64, dtype=np.uint8)
    ends = {"device": _malloc(64), "pinned": _malloc_host(64), "pageable": keep.ctypes.data}
    assert acl.rt.memcpy_async(ends[dst_kind], 64, ends[src_kind], 64, kind, 0) == 107000


def test_memcpy_async_default_kind_picks_direction() -> None:
    """ACL_MEMCPY_DEFAULT (4) with a pageable end picks the natural direction."""
    _device()
    data = np.arange(48, dtype=np.uint8)
    dev = _malloc(48)
    assert acl.rt.memcpy_async(dev, 48, data.ctypes.data, 48, DEFAULT, 0) == 0
    out = np.zeros(48, dtype=np.uint8)
    assert acl.rt.memcpy_async(out.ctypes.data, 48, dev, 48, DEFAULT, 0) == 0
    np.testing.assert_array_equal(out, data)


def test_memcpy_async_check_order() -> None:
    """Async copies share the check order: count 0 first, then null, kind, count > destMax."""
    _device()
    dev = _malloc(64)
    host = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy_async(0, 0, 0, 0, 9, 0) == 0
    assert acl.rt.memcpy_async(0, 64, host.ctypes.data, 64, 9, 0) == 100000
    assert acl.rt.memcpy_async(dev, 64, host.ctypes.data, 64, 6, 0) == 100000
    assert acl.rt.memcpy_async(dev, 32, host.ctypes.data, 64, H2D, 0) == 107000


def test_memcpy_async_stream_rules() -> None:
    """An async copy on a stale stream gives 107017, on another context's stream 107003."""
    _device()
    dev = _malloc(64)
    host = np.zeros(64, dtype=np.uint8)
    stream, _ = acl.rt.create_stream()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.memcpy_async(dev, 64, host.ctypes.data, 64, H2D, stream) == 107017
    other, _ = acl.rt.create_stream()
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.memcpy_async(dev, 64, host.ctypes.data, 64, H2D, other) == 107003
    assert acl.rt.destroy_context(ctx) == 0


# -- memset -----------------------------------------------------------------------------------
def test_memset_fills_low_byte() -> None:
    """aclrtMemset fills count bytes with the low byte of value, and leaves the rest alone."""
    _device()
    dev = _to_device(np.zeros(64, dtype=np.uint8))
    assert acl.rt.memset(dev, 64, 0x1AB, 48) == 0
    out = _read_device(dev, 64)
    assert (out[:48] == 0xAB).all()
    assert not out[48:].any()


def test_memset_pinned_host_memory() -> None:
    """aclrtMemset also works on pinned host memory, decided by the address."""
    _device()
    host = _malloc_host(32)
    assert acl.rt.memset(host, 32, -1, 32) == 0
    assert (_host_bytes(host, 32) == 0xFF).all()


def test_memset_async_fills_after_sync() -> None:
    """aclrtMemsetAsync is queued on the stream and filled in by its synchronisation."""
    _device()
    stream, _ = acl.rt.create_stream()
    host = _malloc_host(32)
    ctypes.memset(host, 0, 32)
    dev = _malloc(32)
    assert acl.rt.memset_async(dev, 32, 0x205, 32, stream) == 0
    assert acl.rt.memcpy_async(host, 32, dev, 32, D2H, stream) == 0
    assert acl.rt.stream_query(stream) == (1, 0)
    assert acl.rt.synchronize_stream(stream) == 0
    assert (_host_bytes(host, 32) == 0x05).all()


def test_memset_checks() -> None:
    """count 0 is 0 even with NULL; NULL is 100000; count > maxCount is 107000."""
    _device()
    dev = _malloc(64)
    assert acl.rt.memset(0, 0, 1, 0) == 0
    assert acl.rt.memset(0, 8, 1, 8) == 100000
    assert acl.rt.memset(dev, 8, 1, 16) == 107000
    assert acl.rt.memset_async(dev, 8, 1, 16, 0) == 107000
    assert acl.rt.memset_async(0, 8, 1, 8, 0) == 100000


def test_memset_unregistered_host_memory() -> None:
    """aclrtMemset on host memory that does not come from aclrtMallocHost gives 107000."""
    _device()
    host = np.ones(32, dtype=np.uint8)
    assert acl.rt.memset(host.ctypes.data, 32, 0, 32) == 107000
    assert (host == 1).all()


# -- acl.util ---------------------------------------------------------------------------------
def test_ptr_to_numpy_on_pinned_memory_is_shared_and_writable() -> None:
    """ptr_to_numpy views malloc_host memory without a copy: writes through it are seen elsewhere."""
    _device()
    ptr = _malloc_host(16)
    view = acl.util.ptr_to_numpy(ptr, (4,), NPY_FLOAT32)
    assert view.flags.writeable
    assert view.dtype == np.float32
    view[:] = [1.5, 2.5, 3.5, 4.5]
    assert ctypes.string_at(ptr, 16) == np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float32).tobytes()
    other = acl.util.ptr_to_numpy(ptr, (2, 2), NPY_FLOAT32)
    other[1, 1] = 9.0
    assert view[3] == 9.0


def test_ptr_to_numpy_of_device_address_raises() -> None:
    """ptr_to_numpy of a device address raises ValueError: device memory is not host-readable."""
    _device()
    dev = _malloc(64)
    with pytest.raises(ValueError, match="device address"):
        acl.util.ptr_to_numpy(dev, (16,), NPY_FLOAT32)


def test_bytes_to_ptr_and_ptr_to_bytes_round_trip() -> None:
    """bytes_to_ptr gives the buffer's address (no copy), ptr_to_bytes copies it back; it also feeds memcpy."""
    _device()
    payload = bytes(range(48))
    ptr = acl.util.bytes_to_ptr(payload)
    assert ptr != 0
    assert acl.util.ptr_to_bytes(ptr, len(payload)) == payload
    dev = _malloc(48)
    assert acl.rt.memcpy(dev, 48, ptr, 48, H2D) == 0
    assert _read_device(dev, 48).tobytes() == payload


def test_numpy_to_ptr_is_deprecated() -> None:
    """numpy_to_ptr warns DeprecationWarning and returns the array's data address."""
    arr = np.arange(8, dtype=np.int32)
    with pytest.warns(DeprecationWarning):
        ptr = acl.util.numpy_to_ptr(arr)
    assert ptr == arr.ctypes.data
