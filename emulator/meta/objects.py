"""The aclnn parameter objects: aclTensor, aclScalar, the arrays and the lists.

They hold exactly what the real objects hold: raw integers for
dtype and format (so invalid values round-trip), view and storage shapes, strides, offset and
the raw device address. A destroyed object keeps its fields but is marked dead; the C-named
face refuses to treat a dead object as live and reports the use instead.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from emulator.meta.dtypes import SUB_BYTE_OFFSET, dtype_name, numpy_dtype, type_size
from emulator.tracking import ResourceKind


class Handle:
    """What every C handle has: a kind for reports, a live flag, and the list that owns it (if any)."""

    __slots__ = ("alive", "owner")
    kind: ClassVar[ResourceKind]  # each handle class names its own

    def __init__(self) -> None:
        self.alive = True
        self.owner: Handle | None = None

    @property
    def key(self) -> int:
        """The handle's identity in the registry: the object's address, like the C pointer."""
        return id(self)


def _int64(value: int) -> int:
    """Wrap like C int64 arithmetic does."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Last stride 1, s[i] = dim[i+1] * s[i+1] in int64 arithmetic; a 0-d shape has no strides."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = _int64(shape[i + 1] * strides[i + 1])
    return tuple(strides)


def numel(shape: tuple[int, ...]) -> int:
    """GetShapeSize(): a 0-d shape has one element."""
    n = 1
    for dim in shape:
        n *= dim
    return n


class aclTensor(Handle):  # noqa: N801 - the C type's name
    kind = ResourceKind.TENSOR
    __slots__ = (
        "dtype",
        "offset",
        "origin_format",
        "origin_shape",
        "raw_addr",
        "storage_format",
        "storage_offset",
        "storage_shape",
        "strides",
        "view_format",
        "view_shape",
    )

    def __init__(
        self,
        view_shape: tuple[int, ...],
        strides: tuple[int, ...],
        offset: int,
        view_format: int,
        storage_shape: tuple[int, ...],
        storage_format: int,
        dtype: int,
        raw_addr: int,
    ) -> None:
        # Handle's two fields set here rather than through super().__init__(): one call fewer per
        # aclCreateTensor, the commonest create of all (docs/performance.md).
        self.alive = True
        self.owner: Handle | None = None
        self.view_shape = view_shape
        self.strides = strides
        self.offset = offset
        self.view_format = view_format
        self.storage_shape = storage_shape
        self.origin_shape = storage_shape
        self.storage_format = storage_format
        self.origin_format = storage_format
        self.dtype = dtype
        self.raw_addr = raw_addr
        self.storage_offset = 0

    @property
    def element_size(self) -> int:
        return type_size(self.dtype)

    @property
    def data_addr(self) -> int:
        """Raw address + (view offset + storage offset) elements; floor for sub-byte types."""
        size = type_size(self.dtype)
        elements = self.offset + self.storage_offset
        if size > SUB_BYTE_OFFSET:
            return self.raw_addr + ((elements * (size - SUB_BYTE_OFFSET)) >> 3)
        return self.raw_addr + elements * size

    @property
    def numel(self) -> int:
        return numel(self.view_shape)

    @property
    def numpy_dtype(self) -> np.dtype | None:
        return numpy_dtype(self.dtype)

    def __repr__(self) -> str:
        state = "" if self.alive else " DESTROYED"
        return (
            f"<aclTensor{state} {dtype_name(self.dtype)} view={list(self.view_shape)} strides={list(self.strides)} "
            f"offset={self.offset} storage={list(self.storage_shape)} addr={self.raw_addr:#x}>"
        )


class aclScalar(Handle):  # noqa: N801
    """A dtype plus the value's bytes, copied at creation."""

    kind = ResourceKind.SCALAR
    __slots__ = ("data", "dtype")

    def __init__(self, dtype: int, data: bytes) -> None:
        self.alive = True  # Handle's fields, without the call (as aclTensor)
        self.owner: Handle | None = None
        self.dtype = dtype
        self.data = data

    def value(self) -> np.generic | None:
        """The value as a numpy scalar of its dtype (None for dtypes numpy cannot hold)."""
        np_dtype = numpy_dtype(self.dtype)
        if np_dtype is None:
            return None
        return np.frombuffer(self.data[: np_dtype.itemsize], dtype=np_dtype)[0]

    def __repr__(self) -> str:
        return f"<aclScalar {dtype_name(self.dtype)} {self.value()!r}>"


class _Array(Handle):
    __slots__ = ("values",)

    def __init__(self, values: tuple[object, ...]) -> None:
        self.alive = True  # Handle's fields, without the call (as aclTensor)
        self.owner: Handle | None = None
        self.values = values

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {list(self.values)}>"


class aclIntArray(_Array):  # noqa: N801
    kind = ResourceKind.INT_ARRAY


class aclFloatArray(_Array):  # noqa: N801
    kind = ResourceKind.FLOAT_ARRAY


class aclBoolArray(_Array):  # noqa: N801
    kind = ResourceKind.BOOL_ARRAY


class aclTensorList(_Array):  # noqa: N801
    """Holds the caller's own tensor objects (no copies) and owns them."""

    kind = ResourceKind.TENSOR_LIST


class aclScalarList(_Array):  # noqa: N801
    kind = ResourceKind.SCALAR_LIST
