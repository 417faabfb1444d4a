"""Runtime benchmarks: malloc+free, and 64 MiB copies against numpy's copyto of the same bytes."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import acl
from emulator.acl import constants as c

MIB64 = 64 * 1024 * 1024


@pytest.fixture
def device(emu):  # type: ignore[no-untyped-def]
    assert acl.rt.set_device(0) == 0
    yield
    acl.rt.reset_device(0)


@pytest.mark.benchmark(group="malloc+free")
def test_malloc_free_pair(benchmark, device) -> None:  # type: ignore[no-untyped-def]
    """One aclrtMalloc + aclrtFree of 4 KiB."""

    def pair() -> None:
        ptr, _ = acl.rt.malloc(4096, 0)
        acl.rt.free(ptr)

    benchmark(pair)


@pytest.mark.benchmark(group="malloc+free")
def test_malloc_free_numpy_empty(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: allocating and dropping a 4 KiB numpy buffer."""
    benchmark(lambda: np.empty(4096, dtype=np.uint8))


@pytest.fixture
def buffers(device):  # type: ignore[no-untyped-def]
    host = np.ones(MIB64, dtype=np.uint8)
    out = np.empty_like(host)
    ptr, ret = acl.rt.malloc(MIB64, 0)
    assert ret == 0
    acl.rt.memcpy(ptr, MIB64, host.ctypes.data, MIB64, c.ACL_MEMCPY_HOST_TO_DEVICE)
    yield host, out, ptr
    acl.rt.free(ptr)


@pytest.mark.benchmark(group="memcpy 64MiB H2D")
def test_memcpy_h2d_64mib(benchmark, buffers) -> None:  # type: ignore[no-untyped-def]
    host, _, ptr = buffers
    benchmark(acl.rt.memcpy, ptr, MIB64, host.ctypes.data, MIB64, c.ACL_MEMCPY_HOST_TO_DEVICE)


@pytest.mark.benchmark(group="memcpy 64MiB H2D")
def test_memcpy_h2d_numpy_copyto(benchmark, buffers) -> None:  # type: ignore[no-untyped-def]
    host, out, _ = buffers
    benchmark(np.copyto, out, host)


@pytest.mark.benchmark(group="memcpy 64MiB D2H")
def test_memcpy_d2h_64mib(benchmark, buffers) -> None:  # type: ignore[no-untyped-def]
    _, out, ptr = buffers
    benchmark(acl.rt.memcpy, out.ctypes.data, MIB64, ptr, MIB64, c.ACL_MEMCPY_DEVICE_TO_HOST)
    assert out[0] == 1 and out[-1] == 1


@pytest.mark.benchmark(group="memcpy 64MiB D2H")
def test_memcpy_d2h_numpy_copyto(benchmark, buffers) -> None:  # type: ignore[no-untyped-def]
    """Baseline: the same 64 MiB into ``out`` from a written buffer. (Copying *from* the untouched
    ``out`` would read the kernel's shared zero page, which no real copy does.)"""
    host, out, _ = buffers
    benchmark(np.copyto, out, host)
