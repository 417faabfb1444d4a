"""Test helpers of the binary-op family (Adds, Sub, Mul, Div, EqTensor, GtTensor / GtScalar, Cast).

The device flow is emulator.npu's (the ``session`` fixture of conftest.py); ``to_device`` lays a
host array out as a flat storage and makes an ``npu.Tensor`` over it — contiguous, or a non-contiguous
view (every other element of a storage twice as long on the last axis, view offset 1) whose gaps
must survive the op untouched; ``run_op`` is phase 1, a workspace malloc when asked, phase 2,
synchronize. ``random_values`` draws the precision standard's value mix for one dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from device_helpers import device_tensor, initial

from emulator import acl, aclnn, npu
from emulator.meta.dtypes import DataType, numpy_dtype
from emulator.meta.objects import aclScalar
from emulator.testing.precision import assert_precision

D = DataType
H2D, D2H = 1, 2
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE)
COMPLEX = (D.DT_COMPLEX64, D.DT_COMPLEX128)
# name -> (self shape, other shape); "strided" inputs are non-contiguous views.
BINARY_SHAPES = {
    "empty": ((0, 3), (0, 3)),
    "one": ((1,), (1,)),
    "odd": ((7, 131), (7, 131)),
    "broadcast": ((5, 1, 33), (4, 1)),
    "strided": ((6, 50), (6, 50)),
    "large": ((100_000,), (100_000,)),
}
UNARY_SHAPES = {name: shapes[0] for name, shapes in BINARY_SHAPES.items() if name != "broadcast"}


def np_dtype(dtype: int) -> np.dtype:
    result = numpy_dtype(dtype)
    assert result is not None
    return result


def _view(storage: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> np.ndarray:
    item = storage.itemsize
    return np.lib.stride_tricks.as_strided(
        storage[offset:], shape=shape, strides=tuple(s * item for s in strides), writeable=False
    ).copy()


def _contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, acc = [], 1
    for dim in reversed(shape):
        strides.append(acc)
        acc *= max(dim, 1)
    return tuple(reversed(strides))


def to_device(values: np.ndarray, dtype: int, *, strided: bool = False, fill: Any = 0) -> npu.Tensor:
    """An npu.Tensor over a flat storage holding ``values``; ``strided``: a view of every other
    element (offset 1) of a larger storage whose other elements hold ``fill``."""
    values = np.asarray(values, dtype=np_dtype(dtype))
    shape = tuple(values.shape)
    if strided and shape:
        wide = (*shape[:-1], 2 * shape[-1])
        storage = np.full(int(np.prod(wide)) + 1, fill, dtype=values.dtype)
        strides = (*_contiguous_strides(wide)[:-1], 2)
        offset = 1
        np.lib.stride_tricks.as_strided(
            storage[offset:], shape=shape, strides=tuple(s * storage.itemsize for s in strides)
        )[...] = values
    else:
        storage = values.reshape(-1).copy()
        strides, offset = _contiguous_strides(shape), 0
    return device_tensor(storage, dtype, shape, strides, offset)


def empty_out(shape: Sequence[int], dtype: int, *, strided: bool = False) -> npu.Tensor:
    """An output tensor pre-filled with a sentinel (gaps of a strided output must keep it)."""
    sentinel = True if dtype == D.DT_BOOL else 7
    return to_device(np.full(tuple(shape), sentinel, dtype=np_dtype(dtype)), dtype, strided=strided, fill=sentinel)


def scalar(value: Any, dtype: int) -> aclScalar:
    """aclCreateScalar from the value's bytes in ``dtype``."""
    result = aclnn.aclCreateScalar(np.asarray(value).astype(np_dtype(dtype)).tobytes(), dtype)
    assert result is not None
    return result


def run_op(phase1: Callable[..., Any], phase2: Callable[..., int], stream: int, *args: Any) -> int:
    """Phase 1, a workspace if asked, phase 2, synchronize; asserts success; the workspace size."""
    workspace_size, executor, ret = phase1(*args)
    assert ret == 0, f"phase 1 returned {ret}: {acl.get_recent_err_msg()}"
    workspace = 0
    if workspace_size:
        workspace, ret = acl.rt.malloc(workspace_size, 0)
        assert ret == 0
    assert phase2(workspace, workspace_size, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    return int(workspace_size)


def status(phase1: Callable[..., Any], *args: Any) -> int:
    """Phase 1's status (the executor, if any, is dropped)."""
    return int(phase1(*args)[2])


def random_values(dtype: int, shape: Sequence[int], rng: np.random.Generator, *, nonzero: bool = False) -> np.ndarray:
    """Values of ``dtype``: floats half uniform in [-5, 5] and half normal; small integers; random bools."""
    shape = tuple(shape)
    target = np_dtype(dtype)
    if dtype == D.DT_BOOL:
        return rng.integers(0, 2, shape).astype(bool)
    if target.kind in "iu":
        low = 0 if target.kind == "u" else -5
        values = rng.integers(low, 6, shape)
        if nonzero:
            values[values == 0] = 3
        return values.astype(target)
    n = int(np.prod(shape))
    mixed = np.concatenate([rng.uniform(-5, 5, n // 2), rng.normal(rng.uniform(-5, 5), 1.0, n - n // 2)])
    rng.shuffle(mixed)
    values = mixed.reshape(shape)
    if nonzero:
        values[np.abs(values) < 0.25] = 0.5
    if dtype in COMPLEX:
        values = values + 1j * rng.uniform(-5, 5, shape)
    return values.astype(target)


def wide(values: np.ndarray) -> np.ndarray:
    """The golden's working precision: float64 / complex128 for floats, int64 for integers."""
    if values.dtype.kind == "c":
        return values.astype(np.complex128)
    if values.dtype.kind in "iub":
        return values.astype(np.int64) if values.dtype.kind != "b" else values
    return values.astype(np.float64)


def check(out: npu.Tensor, golden: np.ndarray) -> None:
    """The precision standard on the view, and untouched gaps of a strided output."""
    storage = out.storage()
    actual = _view(storage, out.shape, out.strides, out.offset)
    assert_precision(actual, np.asarray(golden).reshape(actual.shape))
    if out.offset:  # the gaps between the view's elements keep their sentinel
        touched = np.zeros(storage.size, dtype=bool)
        np.lib.stride_tricks.as_strided(
            touched[out.offset :], shape=out.shape, strides=tuple(s * touched.itemsize for s in out.strides)
        )[...] = True
        assert np.array_equal(storage[~touched], initial(out)[~touched]), "the op wrote outside the output view"


def ident(value: object) -> str:
    """pytest ids: dtype names for DataType members, str() for the rest."""
    return value.name if isinstance(value, DataType) else str(value)
