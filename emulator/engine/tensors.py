"""Tensors an executor owns: workspace-backed intermediates, host tensors and views.

A real opbase tensor points at a shared *storage*; views share it, and the workspace planner and
phase 2 work on storages. ``ExecTensor`` adds that storage to ``aclTensor``: its raw address is
the storage's, which is either assigned in phase 2 (workspace + planned offset), host memory, or
— for a view of a caller's tensor — the caller's tensor's current address (so address setters on
the caller's tensor are seen by the executor).
"""

from __future__ import annotations

import numpy as np

from emulator.meta.dtypes import calc_shape_bytes, numpy_dtype
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclTensor, contiguous_strides, numel
from emulator.tracking import ResourceKind


class Storage:
    __slots__ = ("addr", "base", "from_workspace", "host", "offset")

    def __init__(
        self,
        *,
        from_workspace: bool = False,
        host: np.ndarray | None = None,
        base: aclTensor | None = None,
    ) -> None:
        self.addr = 0
        self.from_workspace = from_workspace
        self.host = host
        self.base = base  # a caller's tensor whose address this storage follows
        self.offset = 0  # planned workspace offset

    @property
    def address(self) -> int:
        return self.base.raw_addr if self.base is not None else self.addr


class ExecTensor(aclTensor):
    """An executor-owned tensor (AllocTensor, AllocHostTensor, CreateView …)."""

    kind = ResourceKind.EXEC_TENSOR
    __slots__ = ("storage",)

    def __init__(
        self,
        view_shape: tuple[int, ...],
        dtype: int,
        storage: Storage,
        *,
        fmt: int = 2,
        storage_shape: tuple[int, ...] | None = None,
        strides: tuple[int, ...] | None = None,
        offset: int = 0,
    ) -> None:
        self.storage = storage
        super().__init__(
            view_shape,
            strides if strides is not None else contiguous_strides(view_shape),
            offset,
            fmt,
            storage_shape if storage_shape is not None else view_shape,
            fmt,
            dtype,
            0,
        )

    @property
    def raw_addr(self) -> int:
        return self.storage.address

    @raw_addr.setter
    def raw_addr(self, value: int) -> None:
        if value:
            self.storage.addr = value

    @property
    def from_workspace(self) -> bool:
        return self.storage.from_workspace

    @property
    def on_host(self) -> bool:
        return self.storage.host is not None


def storage_key(tensor: aclTensor) -> object:
    """The identity the kernel graph and the planner use: the storage, or the caller's tensor."""
    if isinstance(tensor, ExecTensor):
        return tensor.storage.base if tensor.storage.base is not None else tensor.storage
    return tensor


def nbytes(tensor: aclTensor) -> int:
    """product(storage shape) x TypeSize (sub-byte types rounded up)."""
    return calc_shape_bytes(numel(tensor.storage_shape), tensor.dtype)


def is_contiguous(tensor: aclTensor) -> bool:
    """Strides are the contiguous ones of the view shape (dims of size 1 do not matter)."""
    expected = contiguous_strides(tensor.view_shape)
    return all(d == 1 or s == e for d, s, e in zip(tensor.view_shape, tensor.strides, expected, strict=False))


def host_array(tensor: ExecTensor) -> np.ndarray:
    assert tensor.storage.host is not None
    np_dtype = numpy_dtype(tensor.dtype)
    return tensor.storage.host.view(np_dtype) if np_dtype is not None else tensor.storage.host


def span_bytes(tensor: aclTensor) -> int:
    """Bytes a kernel touches from the tensor's data address: the extent of its view (for a private storage
    format such as FRACTAL_NZ, whose view is the logical shape, the whole padded storage)."""
    shape, strides = tensor.view_shape, tensor.strides
    if any(d == 0 for d in shape):
        return 0
    last = sum((d - 1) * s for d, s in zip(shape, strides, strict=False))
    span = calc_shape_bytes(last + 1, tensor.dtype)
    return max(span, nbytes(tensor)) if is_private_format(tensor.storage_format) else span
