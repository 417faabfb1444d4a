"""Shared set-up for the common-mistake examples: a device, a stream, aclnn, and tensors on the device."""

from __future__ import annotations

import numpy as np

from emulator import acl, aclnn
from emulator.acl import constants as c


def start(*, init_acl: bool = True) -> int:
    """acl.init (unless told not to), set_device(0), a stream, aclnnInit; returns the stream."""
    assert not init_acl or acl.init() == 0
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and aclnn.aclnnInit(None) == 0
    return stream


def device_tensor(host: np.ndarray, dtype: int) -> tuple[object, int]:
    ptr, ret = acl.rt.malloc(host.nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    shape = list(host.shape)
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    return tensor, ptr


def finish(stream: int, tensors: list[object], pointers: list[int]) -> None:
    for tensor in tensors:
        aclnn.aclDestroyTensor(tensor)
    for ptr in pointers:
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
