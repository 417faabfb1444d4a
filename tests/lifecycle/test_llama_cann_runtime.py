"""End-to-end programs in the style of llama.cpp's CANN backend (ggml-cann), through the pyACL face.

What the backend needs from the runtime, used the way it uses it: a VMM pool that reserves one big
virtual range and maps physical chunks as it grows; two devices with peer access, a device-to-device
copy handed over with an event; up to 8 streams per device, pinned host memory; and, with graph
support, one decode step captured into a model runtime instance and replayed.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from emulator import acl, aclnn
from emulator.acl import constants as c
from emulator.acl.model_ri import aclmdlRICaptureBegin, aclmdlRICaptureEnd, aclmdlRIDestroy, aclmdlRIExecuteAsync
from emulator.leaks import leak_report

MAX_STREAMS = 8  # GGML_CANN_MAX_STREAMS
H2D, D2H, D2D = c.ACL_MEMCPY_HOST_TO_DEVICE, c.ACL_MEMCPY_DEVICE_TO_HOST, c.ACL_MEMCPY_DEVICE_TO_DEVICE


def check(ret: int, what: str) -> None:
    assert ret == 0, f"{what} failed: {ret}\n{acl.get_recent_err_msg()}"


def value(result: Any, what: str) -> Any:
    *values, ret = result
    check(ret, what)
    return values[0] if len(values) == 1 else values


class VmmPool:
    """ggml_cann_pool_vmm: one reserved range the size of the card, physical chunks mapped on demand, LIFO frees."""

    ALIGNMENT = 128

    def __init__(self, device: int) -> None:
        self.device = device
        self.prop = {
            "handleType": c.ACL_MEM_HANDLE_TYPE_NONE,
            "allocationType": c.ACL_MEM_ALLOCATION_TYPE_PINNED,
            "memAttr": c.ACL_HBM_MEM_HUGE,
            "location": {"id": device, "type": c.ACL_MEM_LOCATION_TYPE_DEVICE},
            "reserve": 0,
        }
        self.granularity = value(acl.rt.mem_get_allocation_granularity(self.prop, 1), "granularity")
        _free, self.max_size = value(acl.rt.get_mem_info(c.ACL_HBM_MEM), "get_mem_info")
        self.pool_addr = 0
        self.pool_size = 0
        self.pool_used = 0
        self.handles: list[int] = []
        self.map_offsets: list[int] = []

    def alloc(self, size: int) -> int:
        size = -(-size // self.ALIGNMENT) * self.ALIGNMENT
        avail = self.pool_size - self.pool_used
        if size > avail:
            reserve_size = -(-(size - avail) // self.granularity) * self.granularity
            handle = value(acl.rt.malloc_physical(reserve_size, self.prop, 0), "malloc_physical")
            if self.pool_addr == 0:
                self.pool_addr = value(acl.rt.reserve_mem_address(self.max_size, 0, 0, 1), "reserve_mem_address")
            check(acl.rt.map_mem(self.pool_addr + self.pool_size, reserve_size, 0, handle, 0), "map_mem")
            self.handles.append(handle)
            self.map_offsets.append(self.pool_size)
            self.pool_size += reserve_size
        ptr = self.pool_addr + self.pool_used
        self.pool_used += size
        return ptr

    def free(self, ptr: int, size: int) -> None:
        size = -(-size // self.ALIGNMENT) * self.ALIGNMENT
        self.pool_used -= size
        assert ptr == self.pool_addr + self.pool_used, "the VMM pool frees in reverse order"

    def close(self) -> None:
        for offset in self.map_offsets:
            check(acl.rt.unmap_mem(self.pool_addr + offset), "unmap_mem")
        for handle in self.handles:
            check(acl.rt.free_physical(handle), "free_physical")
        if self.pool_addr:
            check(acl.rt.release_mem_address(self.pool_addr), "release_mem_address")


def tensor(ptr: int, n: int) -> Any:
    return aclnn.aclCreateTensor([n], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [n], 1, ptr)


def add(x: int, y: int, out: int, n: int, alpha: float, stream: int) -> None:
    """out = x + alpha * y with aclnnAdd, as ggml_cann_add does (no workspace for a same-shape Add)."""
    tx, ty, tout = tensor(x, n), tensor(y, n), tensor(out, n)
    scalar = aclnn.aclCreateScalar(alpha, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tx, ty, scalar, tout)
    check(ret, "aclnnAddGetWorkspaceSize")
    assert ws == 0
    check(aclnn.aclnnAdd(0, 0, executor, stream), "aclnnAdd")
    for t in (tx, ty, tout):
        check(aclnn.aclDestroyTensor(t), "aclDestroyTensor")
    check(aclnn.aclDestroyScalar(scalar), "aclDestroyScalar")


def pinned(n: int) -> tuple[int, np.ndarray]:
    ptr = value(acl.rt.malloc_host(n * 4), "malloc_host")
    return ptr, np.ctypeslib.as_array((ctypes.c_float * n).from_address(ptr))


def test_a_vmm_pool_grows_chunk_by_chunk_and_kernels_run_on_buffers_across_chunks() -> None:
    """Three tensors of 3 MiB each: the pool maps granules as it grows (free memory drops by what is mapped);
    Add over buffers that straddle chunk boundaries is right; the pool's teardown leaves nothing behind."""
    check(acl.init(), "init")
    check(acl.rt.set_device(0), "set_device")
    stream = value(acl.rt.create_stream(), "create_stream")
    free_before, _ = value(acl.rt.get_mem_info(c.ACL_HBM_MEM), "get_mem_info")
    pool = VmmPool(0)
    n = 3 * 1024 * 1024 // 4
    x, y, out = pool.alloc(n * 4), pool.alloc(n * 4), pool.alloc(n * 4)
    assert len(pool.handles) == 3 and pool.pool_size == 10 * pool.granularity // 2  # 2 + 2 + 1 granules
    free_now, _ = value(acl.rt.get_mem_info(c.ACL_HBM_MEM), "get_mem_info")
    assert free_before - free_now == pool.pool_size
    hx = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    hy = np.linspace(-1, 1, n, dtype=np.float32)
    check(acl.rt.memcpy_async(x, n * 4, hx.ctypes.data, n * 4, H2D, stream), "memcpy_async x")
    check(acl.rt.memcpy_async(y, n * 4, hy.ctypes.data, n * 4, H2D, stream), "memcpy_async y")
    add(x, y, out, n, 0.5, stream)
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    result = np.empty(n, dtype=np.float32)
    check(acl.rt.memcpy(result.ctypes.data, n * 4, out, n * 4, D2H), "memcpy back")
    np.testing.assert_allclose(result, hx + 0.5 * hy, rtol=1e-6)
    for ptr in (out, y, x):
        pool.free(ptr, n * 4)
    pool.close()
    assert value(acl.rt.get_mem_info(c.ACL_HBM_MEM), "get_mem_info")[0] == free_before
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(acl.finalize(), "finalize")
    assert leak_report().direct == []


def test_two_devices_with_peer_access_hand_a_tensor_over_with_an_event() -> None:
    """Device 0 computes into its buffer on one of its 8 streams, copies it to device 1 on that stream,
    records an event that device 1's stream waits on, and device 1 computes from the copy into pinned memory."""
    check(acl.init(), "init")
    assert acl.get_soc_name() == "Ascend910B2"
    n = 4096
    streams: dict[int, list[int]] = {}
    for dev in (0, 1):
        check(acl.rt.set_device(dev), "set_device")
        streams[dev] = [value(acl.rt.create_stream(), "create_stream") for _ in range(MAX_STREAMS)]
    for dev, peer in ((0, 1), (1, 0)):
        assert value(acl.rt.device_can_access_peer(dev, peer), "can_access_peer") == 1
        check(acl.rt.set_device(dev), "set_device")
        check(acl.rt.device_enable_peer_access(peer, 0), "enable_peer_access")

    host_in, view_in = pinned(n)
    view_in[:] = np.arange(n, dtype=np.float32)
    check(acl.rt.set_device(0), "set_device")
    s0 = streams[0][3]
    a0 = value(acl.rt.malloc(n * 4, c.ACL_MEM_MALLOC_HUGE_FIRST), "malloc")
    b0 = value(acl.rt.malloc(n * 4, c.ACL_MEM_MALLOC_HUGE_FIRST), "malloc")
    check(acl.rt.memcpy_async(a0, n * 4, host_in, n * 4, H2D, s0), "upload")
    add(a0, a0, b0, n, 1.0, s0)  # b0 = 2 * in
    check(acl.rt.set_device(1), "set_device")
    a1 = value(acl.rt.malloc(n * 4, c.ACL_MEM_MALLOC_HUGE_FIRST), "malloc")
    b1 = value(acl.rt.malloc(n * 4, c.ACL_MEM_MALLOC_HUGE_FIRST), "malloc")
    check(acl.rt.set_device(0), "set_device")
    check(acl.rt.memcpy_async(a1, n * 4, b0, n * 4, D2D, s0), "peer copy")  # on the source's stream
    event = value(acl.rt.create_event(), "create_event")
    check(acl.rt.record_event(event, s0), "record_event")
    check(acl.rt.set_device(1), "set_device")
    s1 = streams[1][5]
    check(acl.rt.stream_wait_event(s1, event), "stream_wait_event")
    add(a1, a1, b1, n, 0.25, s1)  # b1 = 1.25 * a1
    host_out, view_out = pinned(n)
    check(acl.rt.memcpy_async(host_out, n * 4, b1, n * 4, D2H, s1), "download")
    check(acl.rt.synchronize_stream(s1), "synchronize_stream")
    np.testing.assert_allclose(view_out, 2.5 * np.arange(n, dtype=np.float32))

    for ptr in (a1, b1):
        check(acl.rt.free(ptr), "free")
    for dev in (1, 0):
        check(acl.rt.set_device(dev), "set_device")
        for stream in streams[dev]:
            check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.destroy_event(event), "destroy_event")
    for ptr in (a0, b0):
        check(acl.rt.free(ptr), "free")
    for ptr in (host_in, host_out):
        check(acl.rt.free_host(ptr), "free_host")
    for dev in (0, 1):  # set many times above; the backend's teardown resets each device once, by force
        check(acl.rt.reset_device_force(dev), "reset_device_force")
    check(acl.finalize(), "finalize")
    assert leak_report().direct == []


def test_a_decode_step_captured_once_and_replayed_accumulates_like_the_runtime_sample() -> None:
    """Capture [upload from pinned memory, Add, download to pinned memory] once, replay it 8 times: each
    replay reads the pinned input of its time, so feeding the output back accumulates (self += 1.1 * other)."""
    check(acl.init(), "init")
    check(acl.rt.set_device(0), "set_device")
    stream = value(acl.rt.create_stream(), "create_stream")
    n = 8
    x, y, out = (value(acl.rt.malloc(n * 4, c.ACL_MEM_MALLOC_HUGE_FIRST), "malloc") for _ in range(3))
    host_self, view_self = pinned(n)
    host_other, view_other = pinned(n)
    view_self[:] = 0
    view_other[:] = 1
    check(acl.rt.memcpy(y, n * 4, host_other, n * 4, H2D), "other once")

    check(aclmdlRICaptureBegin(stream, c.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "capture begin")
    check(acl.rt.memcpy_async(x, n * 4, host_self, n * 4, H2D, stream), "captured upload")
    add(x, y, out, n, 1.1, stream)
    check(acl.rt.memcpy_async(host_self, n * 4, out, n * 4, D2H, stream), "captured download")
    model = value(aclmdlRICaptureEnd(stream), "capture end")
    assert (view_self == 0).all()

    seen = []
    for _ in range(8):
        check(aclmdlRIExecuteAsync(model, stream), "execute")
        check(acl.rt.synchronize_stream(stream), "synchronize")
        seen.append(float(view_self[0]))
    np.testing.assert_allclose(seen, [1.1 * (i + 1) for i in range(8)], rtol=1e-5)
    check(aclmdlRIDestroy(model), "destroy model")
    for ptr in (x, y, out):
        check(acl.rt.free(ptr), "free")
    for ptr in (host_self, host_other):
        check(acl.rt.free_host(ptr), "free_host")
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(acl.finalize(), "finalize")
    assert leak_report().direct == []
