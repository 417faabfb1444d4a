"""acl.rt peer access: CanAccessPeer from the SoC profile, Enable / Disable, and copies between devices."""

from __future__ import annotations

import numpy as np

from emulator import acl, process
from emulator.acl import constants as c
from emulator.config import Settings
from emulator.status import AclError

INVALID_PARAM = AclError.ACL_ERROR_INVALID_PARAM
RT_PARAM_INVALID = AclError.ACL_ERROR_RT_PARAM_INVALID
D2D = c.ACL_MEMCPY_DEVICE_TO_DEVICE


def _buffer(device: int, host: np.ndarray) -> int:
    assert acl.rt.set_device(device) == 0
    ptr, ret = acl.rt.malloc(host.nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return ptr


def _read(ptr: int, like: np.ndarray) -> np.ndarray:
    out = np.zeros_like(like)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out


def test_can_access_peer_comes_from_the_soc_profile() -> None:
    """910B parts link their devices (1); a 310P does not (0); the same id twice is 100000, a bad id 107001."""
    assert acl.rt.device_can_access_peer(0, 1) == (1, 0)
    assert acl.rt.device_can_access_peer(1, 1) == (0, INVALID_PARAM)
    assert "cannot be equal to peerDeviceId" in (acl.get_recent_err_msg() or "")
    assert acl.rt.device_can_access_peer(0, 64) == (0, AclError.ACL_ERROR_RT_INVALID_DEVICEID)
    with process.fresh(Settings(soc="Ascend310P3")):
        assert acl.rt.device_can_access_peer(0, 1) == (0, 0)


def test_enable_checks_flags_self_and_the_part() -> None:
    """Flags are reserved (200006), the current device itself is 100000; a 310P refuses with 207000."""
    assert acl.rt.device_enable_peer_access(1, 0) == AclError.ACL_ERROR_RT_CONTEXT_NULL
    assert acl.rt.set_device(0) == 0
    assert acl.rt.device_enable_peer_access(1, 1) == AclError.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.rt.device_enable_peer_access(0, 0) == INVALID_PARAM
    assert acl.rt.device_enable_peer_access(99, 0) == AclError.ACL_ERROR_RT_INVALID_DEVICEID
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    assert acl.rt.device_disable_peer_access(1) == 0
    assert acl.rt.device_disable_peer_access(0) == INVALID_PARAM
    with process.fresh(Settings(soc="Ascend310P3")):
        assert acl.rt.set_device(0) == 0
        assert acl.rt.device_enable_peer_access(1, 0) == AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


def test_copies_between_devices_need_peer_access_then_work_sync_and_async() -> None:
    """107000 before EnablePeerAccess; after it a sync copy and an async one on either device's stream
    move the bytes; after DisablePeerAccess the copy is refused again."""
    data = np.arange(1024, dtype=np.float32)
    src = _buffer(0, data)
    dst = _buffer(1, np.zeros_like(data))
    assert acl.rt.set_device(0) == 0
    assert acl.rt.memcpy(dst, data.nbytes, src, data.nbytes, D2D) == RT_PARAM_INVALID
    assert "needs peer access" in (acl.get_recent_err_msg() or "")
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    assert acl.rt.memcpy(dst, data.nbytes, src, data.nbytes, D2D) == 0
    np.testing.assert_array_equal(_read(dst, data), data)

    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    doubled = data * 2
    staging = _buffer(0, doubled)
    assert acl.rt.set_device(0) == 0
    assert acl.rt.memcpy_async(dst, data.nbytes, staging, data.nbytes, D2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(_read(dst, data), doubled)

    assert acl.rt.device_disable_peer_access(1) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.memcpy_async(dst, data.nbytes, src, data.nbytes, D2D, stream) == RT_PARAM_INVALID
    assert acl.rt.destroy_stream(stream) == 0


def test_an_async_peer_copy_runs_in_its_streams_order() -> None:
    """The copy is a task of the stream: a memset queued before it on device 0 is in the copied bytes."""
    data = np.ones(256, dtype=np.uint8)
    src = _buffer(0, data)
    dst = _buffer(1, np.zeros_like(data))
    assert acl.rt.set_device(0) == 0
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    stream, _ = acl.rt.create_stream()
    assert acl.rt.memset_async(src, 256, 9, 256, stream) == 0
    assert acl.rt.memcpy_async(dst, 256, src, 256, D2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert (_read(dst, data) == 9).all()
    assert acl.rt.set_device(0) == 0
    assert acl.rt.destroy_stream(stream) == 0
