"""Hostile host pointers and counts to aclrtMemcpy / aclrtMemcpyAsync: a status and a message, never a crash.

Before the host ends were checked against the process's memory map, each garbage pointer below
killed the interpreter with SIGSEGV, and a count of -1 raised ValueError from ctypes.
"""

from __future__ import annotations

import ctypes
import mmap
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from emulator import acl, process
from emulator.device.simulated.host_maps import HostMaps, parse_maps

H2H, H2D, D2H = 0, 1, 2
PARAM_INVALID = 107000
GARBAGE = (0xDEADBEEF000, 0x10000, 2**47 - 4096)


@pytest.fixture
def dev(emu: process.EmulatedProcess) -> Iterator[int]:
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    yield ptr
    assert acl.rt.free(ptr) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


def _fails(ret: int, *words: str) -> None:
    assert ret == PARAM_INVALID
    msg = acl.get_recent_err_msg()
    assert msg is not None
    for word in words:
        assert word in msg, msg


@pytest.mark.parametrize("bad", GARBAGE, ids=hex)
def test_garbage_source_of_h2d_is_refused(dev: int, bad: int) -> None:
    """The message names the pointer and says it is not mapped."""
    _fails(acl.rt.memcpy(dev, 64, bad, 4, H2D), f"copy source {bad:#x}", "not mapped")


@pytest.mark.parametrize("bad", GARBAGE, ids=hex)
def test_garbage_destination_of_d2h_is_refused(dev: int, bad: int) -> None:
    _fails(acl.rt.memcpy(bad, 64, dev, 4, D2H), f"copy destination {bad:#x}", "not mapped")


@pytest.mark.parametrize("bad", GARBAGE, ids=hex)
def test_garbage_ends_of_h2h_are_refused(dev: int, bad: int) -> None:
    good = np.arange(8, dtype=np.uint8)
    _fails(acl.rt.memcpy(bad, 8, good.ctypes.data, 4, H2H), f"copy destination {bad:#x}")
    _fails(acl.rt.memcpy(good.ctypes.data, 8, bad, 4, H2H), f"copy source {bad:#x}")
    assert good.tolist() == list(range(8))


@pytest.mark.parametrize("bad", GARBAGE, ids=hex)
def test_garbage_host_end_of_an_async_copy_is_refused(dev: int, bad: int) -> None:
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    _fails(acl.rt.memcpy_async(dev, 64, bad, 4, H2D, stream), f"copy source {bad:#x}")
    _fails(acl.rt.memcpy_async(bad, 64, dev, 4, D2H, stream), f"copy destination {bad:#x}")
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_d2h_into_read_only_memory_is_refused(dev: int) -> None:
    """Write permission matters: the code of libc is mapped, readable, and not writable."""
    code = ctypes.cast(ctypes.CDLL(None).getpid, ctypes.c_void_p).value
    assert code is not None
    before = ctypes.string_at(code, 4)
    _fails(acl.rt.memcpy(code, 4, dev, 4, D2H), f"copy destination {code:#x}", "read-only")
    assert ctypes.string_at(code, 4) == before
    # reading the same bytes is allowed: they land on the device and come back unchanged
    assert acl.rt.memcpy(dev, 64, code, 4, H2D) == 0
    back = np.zeros(4, dtype=np.uint8)
    assert acl.rt.memcpy(back.ctypes.data, 4, dev, 4, D2H) == 0
    assert back.tobytes() == before


def test_a_range_running_off_its_mapping_is_refused(dev: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
    libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
    page = mmap.PAGESIZE
    base = libc.mmap(None, 2 * page, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    assert base not in (None, ctypes.c_void_p(-1).value)
    assert libc.munmap(base + page, page) == 0  # the second page is gone
    try:
        assert acl.rt.memcpy(dev, 64, base + page - 4, 4, H2D) == 0
        _fails(acl.rt.memcpy(dev, 64, base + page - 4, 8, H2D), "runs past the end")
    finally:
        libc.munmap(base, page)


def test_a_dangling_pointer_to_unmapped_memory_is_refused(dev: int) -> None:
    """A range cached as mapped, then unmapped: mincore catches what the stale map would let through."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
    libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
    size = 4 * mmap.PAGESIZE
    base = libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    assert acl.rt.memcpy(base, size, dev, 8, D2H) == 0  # mapped: the copy works and the map is cached
    assert libc.munmap(base, size) == 0
    _fails(acl.rt.memcpy(base, size, dev, 8, D2H), f"copy destination {base:#x}", "not mapped")
    _fails(acl.rt.memcpy(dev, 64, base, 8, H2D), f"copy source {base:#x}", "not mapped")


@pytest.mark.parametrize("count", [-1, -(2**63)])
def test_negative_count_is_param_invalid(dev: int, count: int) -> None:
    host = np.zeros(16, dtype=np.uint8)
    _fails(acl.rt.memcpy(dev, 64, host.ctypes.data, count, H2D), f"value {count} for parameter count")
    _fails(acl.rt.memcpy(host.ctypes.data, 16, dev, count, D2H), f"value {count} for parameter count")
    _fails(acl.rt.memcpy(host.ctypes.data, 16, host.ctypes.data + 1, count, H2H), "parameter count")
    stream, _ = acl.rt.create_stream()
    _fails(acl.rt.memcpy_async(dev, 64, host.ctypes.data, count, H2D, stream), "parameter count")
    assert acl.rt.destroy_stream(stream) == 0


def test_negative_dest_max_is_param_invalid(dev: int) -> None:
    host = np.zeros(16, dtype=np.uint8)
    _fails(acl.rt.memcpy(dev, -1, host.ctypes.data, 4, H2D), "value -1 for parameter destMax")


def test_good_host_memory_still_copies(dev: int) -> None:
    """Numpy arrays, a fresh large array (a new mapping) and pinned memory all pass the check."""
    src = np.arange(64, dtype=np.uint8)
    assert acl.rt.memcpy(dev, 64, src.ctypes.data, 64, H2D) == 0
    big = np.zeros(64 << 20, dtype=np.uint8)  # above glibc's mmap threshold: a mapping made after the cache
    assert acl.rt.memcpy(big.ctypes.data + (63 << 20), 64, dev, 64, D2H) == 0
    assert big[63 << 20 :][:64].tolist() == list(range(64))
    pinned, ret = acl.rt.malloc_host(64)
    assert ret == 0
    assert acl.rt.memcpy(pinned, 64, dev, 64, D2H) == 0
    assert ctypes.string_at(pinned, 64) == bytes(range(64))
    assert acl.rt.free_host(pinned) == 0


# -- the map itself -------------------------------------------------------------------------------
MAPS_TEXT = """\
00400000-00401000 r-xp 00000000 08:01 1 /bin/prog
00401000-00402000 rw-p 00001000 08:01 1 /bin/prog
00402000-00403000 rw-p 00000000 00:00 0 [heap]
7f0000000000-7f0000001000 ---p 00000000 00:00 0
7f0000001000-7f0000002000 r--p 00000000 00:00 0
7f0000004000-7f0000008000 r--p 00000000 00:00 0                          [vvar]
7f0000008000-7f000000a000 r--p 00000000 00:00 0                          [vvar_vclock]
7f000000a000-7f000000c000 r-xp 00000000 00:00 0                          [vdso]
ffffffffff600000-ffffffffff601000 r-xp 00000000 00:00 0                  [vsyscall]
"""


def test_parse_merges_adjacent_mappings_per_permission() -> None:
    snap = parse_maps(MAPS_TEXT)
    assert list(zip(snap.readable.starts, snap.readable.ends, strict=True)) == [
        (0x400000, 0x403000),
        (0x7F0000001000, 0x7F0000002000),
        (0x7F000000A000, 0x7F000000C000),  # [vdso] only: the kernel's [vvar] and [vsyscall] pages are left out
    ]
    assert list(zip(snap.writable.starts, snap.writable.ends, strict=True)) == [(0x401000, 0x403000)]
    assert snap.writable.covers(0x401FF0, 0x20)  # across two writable mappings
    assert not snap.writable.covers(0x400FF0, 0x20)  # starts in code
    assert not snap.readable.covers(0x7F0000000000, 1)  # a guard page


def test_a_hit_reads_the_map_once_and_a_miss_reads_it_again(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.write_text(MAPS_TEXT)
    table = HostMaps(maps)
    assert table.refusal(0x402000, 16, write=True) is None
    assert table.refusal(0x401000, 16, write=False) is None
    assert table.refreshes == 1
    assert table.refusal(0x400000, 4, write=True) == "is mapped read-only in this process"
    assert table.refusal(0x7F0000000000, 4, write=False) is not None
    assert table.refreshes == 3
    maps.write_text(MAPS_TEXT + "7f0000002000-7f0000003000 rw-p 00000000 00:00 0\n")
    assert table.refusal(0x7F0000002000, 16, write=True) is None  # mapped since: found on the miss


def test_without_a_map_every_range_passes(tmp_path: Path) -> None:
    table = HostMaps(tmp_path / "absent")
    assert table.refusal(0xDEADBEEF000, 4, write=True) is None
    assert not table.available


def test_hits_on_the_live_map_do_not_read_it_again() -> None:
    """The hot path: a buffer already in the cached map costs a bisect and a mincore, not a re-read."""
    table = HostMaps()
    buffer = np.zeros(4096, dtype=np.uint8)
    assert table.refusal(buffer.ctypes.data, 4096, write=True) is None
    first = table.refreshes
    for offset in range(0, 4096, 64):
        assert table.refusal(buffer.ctypes.data + offset, 64, write=True) is None
    assert table.refreshes == first


def test_threads_share_one_map_while_new_memory_is_mapped() -> None:
    """Readers take no lock; mappings made on other threads meanwhile are still found on a miss."""
    table = HostMaps()
    failures: list[str] = []

    def worker() -> None:
        for _ in range(50):
            fresh = np.zeros(1 << 20, dtype=np.uint8)  # a new mapping each time (above the mmap threshold)
            why = table.refusal(fresh.ctypes.data, fresh.nbytes, write=True)
            if why is not None:
                failures.append(why)
            if table.refusal(0xDEADBEEF000, 4, write=False) is None:
                failures.append("garbage passed")

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
