"""The device flow the data-movement and AI CPU op tests share: a host array's bytes in device
memory, an aclTensor over them with explicit strides, and the whole storage read back (gaps of a
strided view included, so a test sees whether the op wrote where it must not)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from emulator import acl, aclnn

H2D, D2H = 1, 2


@dataclass
class DeviceTensor:
    """An aclTensor over device memory that holds ``storage`` (the whole storage, as a host array)."""

    tensor: Any
    ptr: int
    storage: np.ndarray

    def read(self) -> np.ndarray:
        out = np.empty(self.storage.shape, self.storage.dtype)
        if out.nbytes:
            assert acl.rt.memcpy(out.ctypes.data, out.nbytes, self.ptr, out.nbytes, D2H) == 0
        return out


def device_tensor(
    storage: np.ndarray,
    acl_dtype: int,
    shape: Sequence[int] | None = None,
    strides: Sequence[int] | None = None,
    offset: int = 0,
    fmt: int = aclnn.ACL_FORMAT_ND,
) -> DeviceTensor:
    """acl.rt.malloc + memcpy + aclCreateTensor with explicit strides (default: the dense view of the storage)."""
    storage = np.require(np.asarray(storage), requirements="C")
    ptr, ret = acl.rt.malloc(max(storage.nbytes, 1), 0)
    assert ret == 0
    if storage.nbytes:
        assert acl.rt.memcpy(ptr, storage.nbytes, storage.ctypes.data, storage.nbytes, H2D) == 0
    view = list(storage.shape) if shape is None else list(shape)
    if strides is None:
        strides = [s // storage.itemsize for s in np.empty(view, storage.dtype).strides] if view else []
    dims = list(storage.shape)
    tensor = aclnn.aclCreateTensor(view, len(view), acl_dtype, list(strides), offset, fmt, dims, len(dims), ptr)
    assert tensor is not None
    return DeviceTensor(tensor, ptr, storage)
