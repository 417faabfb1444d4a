"""Reading the C arrays the acl_meta.h functions are given: dims, strides, array values, list members.

The face's argument checks (emulator.capi.types) have already refused what C would not compile, so
every element here is an integer (or a handle, a float, a bool). What is left is what C leaves to
the callee: a count larger than the array (a read past its end: reported, and the call fails as
its real one does) and opbase's 25-dim small vector. ``plain_dims`` answers the common case —
a list or tuple of exactly ``count`` dims, at most 25 — in one step; anything else goes through
``dims`` / ``read``, which give the same tuple for that case (tests/unit/test_create_fast_path.py).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator.boundary import report_undefined
from emulator.cface import Dims
from emulator.diagnostics import ReportKind
from emulator.lazylog import lazy_logger

log = lazy_logger(__name__, logger_name="emulator.aclnn")

MAX_DIM_NUM = 25  # the inline capacity of opbase's shape small-vector
INT64_MIN = -(1 << 63)
_index = operator.index
_PLAIN = (list, tuple)


def plain_dims(values: object, count: int) -> tuple[int, ...] | None:
    """``values`` as dims when it is a list or tuple of exactly ``count`` (at most 25) of them, else None.

    None means "take the full path" (``dims``): a null pointer, a numpy array, a count that does not
    match the length, more than 25 dims. ``operator.index`` makes each accepted integer (an IntEnum
    member, a numpy integer) the plain int the full path stores.
    """
    if type(values) in _PLAIN and len(values) == count <= MAX_DIM_NUM:  # type: ignore[arg-type]
        return tuple(map(_index, values))  # type: ignore[call-overload]
    return None


def plain_ints(values: object, size: int) -> tuple[int, ...] | None:
    """An int array's values when it is a list or tuple of exactly ``size``, else None (``array_values`` then)."""
    if type(values) in _PLAIN and len(values) == size:  # type: ignore[arg-type]
        return tuple(map(_index, values))  # type: ignore[call-overload]
    return None


def read(values: object, count: int, api: str, what: str) -> tuple[int, ...] | None:
    """``count`` int64s from a C array; None (and a report) when the array is shorter than count."""
    seq = list(values) if isinstance(values, np.ndarray) else values
    assert isinstance(seq, list | tuple)
    if count < 0 or len(seq) < count:
        report_undefined(
            api,
            f"{what} has {len(seq)} elements but the count says {count}: a read past its end",
            kind=ReportKind.BAD_ARGUMENT,
        )
        return None
    return tuple(map(_index, seq[:count]))


def small_vector(dims: tuple[int, ...], api: str, what: str) -> tuple[int, ...]:
    """Past 25 dims the real shape keeps the count but reads INT64_MIN beyond index 24 (a quirk kept as is)."""
    if len(dims) <= MAX_DIM_NUM:
        return dims
    log.warning("aclnn.too_many_dims", api=api, what=what, dims=len(dims), limit=MAX_DIM_NUM)
    return dims[:MAX_DIM_NUM] + (INT64_MIN,) * (len(dims) - MAX_DIM_NUM)


def dims(values: Dims, count: int, api: str, what: str) -> tuple[int, ...] | None:
    """A dims argument: () for a null pointer with a zero count, None for a null one with a count."""
    if values is None:
        return () if count == 0 else None
    read_dims = read(values, count, api, what)
    return None if read_dims is None else small_vector(read_dims, api, what)


def array_values(value: object, size: int, api: str, convert: Callable[[Any], object]) -> tuple[object, ...] | None:
    """The first ``size`` elements, each converted; () for a null value or a zero size (an empty array)."""
    if value is None or size == 0:
        return ()
    seq = list(value) if isinstance(value, np.ndarray) else value
    assert isinstance(seq, list | tuple)
    if size < 0 or len(seq) < size:
        report_undefined(
            api, f"value has {len(seq)} elements but size is {size}: a read past its end", kind=ReportKind.BAD_ARGUMENT
        )
        return None
    return tuple(convert(v) for v in seq[:size])


def plain_members(values: object, size: int) -> tuple[object, ...] | None:
    """A list's members as given when it is a list or tuple of exactly ``size``, else None (``array_values``)."""
    if type(values) in _PLAIN and len(values) == size:  # type: ignore[arg-type]
        return tuple(values)  # type: ignore[arg-type]
    return None


def same(member: object) -> object:
    """A list member as it is: the list holds the caller's objects, not copies."""
    return member
