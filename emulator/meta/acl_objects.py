"""The acl_base.h objects pyACL hands out as integer addresses: aclDataBuffer and aclTensorDesc.

A data buffer is an (address, size) pair that wraps memory the caller owns; a tensor descriptor is
a data type, a shape and a format. Both are plain host objects in the real library (``new`` and
``delete``, no device work). Here each has a handle from a counter that is never reused, so a
handle used after its destroy is told apart from a wild one, and every live object is in the
process registry (created where, never destroyed: a leak report at aclFinalize and at exit).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

HANDLE_BASE = 0x5A00_0000_0000  # far from device windows, host heaps and the runtime's handles
HANDLE_STEP = 0x40
UNKNOWN_DIM = -1  # a dimension of unknown size (dynamic shapes)
UNKNOWN_RANK = -2  # dims [-2]: the rank itself is unknown
UNKNOWN_RANK_NUM_DIMS = 0xFFFF_FFFF_FFFF_FFFE  # ACL_UNKNOWN_RANK, what aclGetTensorDescNumDims returns for it


@dataclass(slots=True)
class AclDataBuffer:
    key: int
    data: int
    size: int


@dataclass(frozen=True, slots=True)
class AclTensorDesc:
    key: int
    dtype: int
    dims: tuple[int, ...]
    format: int

    @property
    def unknown_rank(self) -> bool:
        return self.dims == (UNKNOWN_RANK,)

    def element_count(self) -> int:
        """Elements of the shape; 0 when any dimension is unknown (nothing to size yet)."""
        count = 1
        for dim in self.dims:
            if dim < 0:
                return 0
            count *= dim
        return count


class AclObjectTable:
    """Live acl objects by handle. Thread-safe: pyACL programs create buffers on many threads."""

    def __init__(self) -> None:
        self._objects: dict[int, AclDataBuffer | AclTensorDesc] = {}
        self._next = HANDLE_BASE
        self._lock = threading.Lock()

    def new_handle(self) -> int:
        with self._lock:
            self._next += HANDLE_STEP
            return self._next

    def add(self, obj: AclDataBuffer | AclTensorDesc) -> None:
        with self._lock:
            self._objects[obj.key] = obj

    def get(self, handle: int) -> AclDataBuffer | AclTensorDesc | None:
        return self._objects.get(handle)

    def pop(self, handle: int) -> AclDataBuffer | AclTensorDesc | None:
        with self._lock:
            return self._objects.pop(handle, None)


def contents(obj: object) -> str:
    """What a leak report says the object holds ("" for anything else)."""
    if isinstance(obj, AclDataBuffer):
        return f"data {obj.data:#x}, {obj.size} byte(s)"
    if isinstance(obj, AclTensorDesc):
        return f"dtype {obj.dtype}, dims {list(obj.dims)}, format {obj.format}"
    return ""
