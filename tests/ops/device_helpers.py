"""The device flow the op tests share, on ``emulator.npu``: the running test's ``npu.Session``
(opened by the ``session`` fixture of tests/ops/conftest.py) and ``device_tensor``, a host array's
bytes in device memory with an aclTensor over them with explicit strides. The tensors are
``npu.Tensor``: ``.handle`` is the aclTensor, ``.addr`` the device address, ``.storage()`` the whole
storage read back (gaps of a strided view included, so a test sees whether the op wrote where it
must not)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emulator import aclnn, npu

SESSIONS: list[npu.Session] = []  # the open session of the running test (pushed by the fixture)


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
    return session().tensor(storage, acl_dtype, shape=shape, strides=strides, offset=offset, format=fmt)
