"""The device flow the op tests share, on ``emulator.npu``: the running test's ``npu.Session``
(opened by the ``session`` fixture of tests/ops/conftest.py) and ``device_tensor``, a host array's
bytes in device memory with an aclTensor over them with explicit strides. The tensors are
``npu.Tensor``: ``.handle`` is the aclTensor, ``.addr`` the device address, ``.storage()`` the whole
storage read back (gaps of a strided view included, so a test sees whether the op wrote where it
must not)."""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from emulator import aclnn, npu

SESSIONS: list[npu.Session] = []  # the open session of the running test (pushed by the fixture)
# The host picture of each tensor's whole storage when it was made: the inputs a golden is computed
# from, and what a view's gaps must still hold after the op.
_INITIAL: weakref.WeakKeyDictionary[npu.Tensor, np.ndarray] = weakref.WeakKeyDictionary()


def session() -> npu.Session:
    """The running test's session (tests/ops/conftest.py's ``session`` fixture opened it)."""
    assert SESSIONS, "use the `session` (or `stream`) fixture"
    return SESSIONS[-1]


def device_tensor(
    storage: np.ndarray,
    acl_dtype: int,
    shape: Sequence[int] | None = None,
    strides: Sequence[int] | None = None,
    offset: int = 0,
    fmt: int = aclnn.ACL_FORMAT_ND,
) -> npu.Tensor:
    """A device copy of ``storage`` and an aclTensor over it (default: the dense view of the storage)."""
    tensor = session().tensor(storage, acl_dtype, shape=shape, strides=strides, offset=offset, format=fmt)
    host = np.array(storage, order="C")  # a copy that keeps a 0-d array 0-d
    np_dtype = npu.host_dtype(acl_dtype)
    _INITIAL[tensor] = host.astype(np_dtype) if np_dtype is not None else host
    return tensor


def initial(tensor: npu.Tensor) -> np.ndarray:
    """The whole storage ``tensor`` was made from (host side, in its dtype)."""
    return _INITIAL[tensor]


def view_of(tensor: npu.Tensor, storage: np.ndarray | None = None) -> np.ndarray:
    """The tensor's view (shape, strides, offset) of ``storage`` (default: the storage it was made from)."""
    flat = (initial(tensor) if storage is None else storage).reshape(-1)
    if 0 in tensor.shape:
        return np.empty(tensor.shape, flat.dtype)
    strides = tuple(s * flat.itemsize for s in tensor.strides)
    return np.lib.stride_tricks.as_strided(flat[tensor.offset :], tensor.shape, strides).copy()
