"""Two pyACL client flows end to end, written the way the real pyACL samples are.

init → set_device → context / stream → malloc + malloc_host → ctypes.memmove into pinned memory
→ H2D → D2H → compare with numpy → free everything → reset_device → finalize. Every ret must be
0, the data must round-trip exactly, and nothing may be left alive afterwards.
"""

from __future__ import annotations

import ctypes

import numpy as np

from emulator import acl, process

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_HBM_MEM = 1
ACL_HOST = 1
NPY_FLOAT32 = 11
DEVICE_ID = 0


def check_ret(message: str, ret: int) -> None:
    """The samples' helper: every ACL call must succeed."""
    assert ret == ACL_SUCCESS, f"{message} failed, ret={ret}"


def test_synchronous_flow() -> None:
    """A sample-style synchronous flow (create_context, memcpy) round-trips the data and leaks nothing."""
    ret = acl.init()
    check_ret("acl.init", ret)
    ret = acl.rt.set_device(DEVICE_ID)
    check_ret("acl.rt.set_device", ret)
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    run_mode, ret = acl.rt.get_run_mode()
    check_ret("acl.rt.get_run_mode", ret)
    assert run_mode == ACL_HOST
    free_before, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)

    data = np.random.default_rng(0).standard_normal((32, 48)).astype(np.float32)
    size = data.nbytes
    dev_ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    host_in, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    host_out, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)

    ctypes.memmove(host_in, data.ctypes.data, size)
    ret = acl.rt.memcpy(dev_ptr, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("acl.rt.memcpy H2D", ret)
    ret = acl.rt.memcpy(host_out, size, dev_ptr, size, ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy D2H", ret)
    result = acl.util.ptr_to_numpy(host_out, data.shape, NPY_FLOAT32).copy()
    np.testing.assert_array_equal(result, data)

    check_ret("acl.rt.free", acl.rt.free(dev_ptr))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_in))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_out))
    free_after, total_after, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    assert (free_after, total_after) == (free_before, total)
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())

    assert process.current().registry.count() == 0
    assert acl.get_recent_err_msg() is None


def test_asynchronous_flow() -> None:
    """A sample-style asynchronous flow (stream, memcpy_async, synchronize_stream) round-trips and leaks nothing."""
    ret = acl.init()
    check_ret("acl.init", ret)
    ret = acl.rt.set_device(DEVICE_ID)
    check_ret("acl.rt.set_device", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    free_before, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)

    data = np.arange(3 * 1024 * 1024 // 4, dtype=np.float32) * 0.5  # 3 MiB: takes huge pages
    size = data.nbytes
    dev_in, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    dev_out, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
    check_ret("acl.rt.malloc", ret)
    host_in, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    host_out, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)

    ctypes.memmove(host_in, data.ctypes.data, size)
    ret = acl.rt.memcpy_async(dev_in, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE, stream)
    check_ret("acl.rt.memcpy_async H2D", ret)
    ret = acl.rt.memcpy_async(dev_out, size, dev_in, size, 3, stream)
    check_ret("acl.rt.memcpy_async D2D", ret)
    ret = acl.rt.memcpy_async(host_out, size, dev_out, size, ACL_MEMCPY_DEVICE_TO_HOST, stream)
    check_ret("acl.rt.memcpy_async D2H", ret)
    ret = acl.rt.synchronize_stream(stream)
    check_ret("acl.rt.synchronize_stream", ret)
    result = np.frombuffer(ctypes.string_at(host_out, size), dtype=np.float32)
    np.testing.assert_array_equal(result, data)

    check_ret("acl.rt.free", acl.rt.free(dev_in))
    check_ret("acl.rt.free", acl.rt.free(dev_out))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_in))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_out))
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    free_after, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    assert free_after == free_before
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())

    assert process.current().registry.count() == 0
    assert process.current().runtime.opened_devices()[0].races == []
    assert acl.get_recent_err_msg() is None
