"""Test helpers of the reduction / normalisation / matmul family (ReduceSum, Mean, Amax, Softmax,
LayerNorm, RmsNorm, Mm / Matmul / BatchMatMul).

The device flow is emulator.npu's: ``Npu()`` opens an ``npu.Session`` (acl.init, set_device(0), a
stream, aclnnInit); ``Npu.tensor`` is an ``npu.Tensor`` — contiguous, or a non-contiguous view
(every other element of a storage twice as long on the last axis, view offset 1, so the gaps must
survive the op untouched; ``gaps`` reads them back); ``Npu.run`` is phase 1, a workspace malloc when
asked, phase 2 and synchronize. ``values`` draws the precision standard's value mix for a dtype;
``check`` is the precision standard (bit-exact for integer and bool outputs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from emulator import acl, aclnn, npu
from emulator.testing.precision import assert_precision

NULLPTR = 161001
INVALID = 161002
A = aclnn
BF16 = np.dtype(ml_dtypes.bfloat16)
NP: dict[int, np.dtype] = {
    A.ACL_FLOAT: np.dtype(np.float32), A.ACL_FLOAT16: np.dtype(np.float16), A.ACL_BF16: BF16,
    A.ACL_DOUBLE: np.dtype(np.float64), A.ACL_INT8: np.dtype(np.int8), A.ACL_INT16: np.dtype(np.int16),
    A.ACL_INT32: np.dtype(np.int32), A.ACL_INT64: np.dtype(np.int64), A.ACL_UINT8: np.dtype(np.uint8),
    A.ACL_UINT16: np.dtype(np.uint16), A.ACL_BOOL: np.dtype(np.bool_), A.ACL_COMPLEX64: np.dtype(np.complex64),
    A.ACL_COMPLEX128: np.dtype(np.complex128),
}  # fmt: skip
NAME = {A.ACL_FLOAT: "f32", A.ACL_FLOAT16: "f16", A.ACL_BF16: "bf16", A.ACL_DOUBLE: "f64", A.ACL_INT8: "i8",
        A.ACL_INT16: "i16", A.ACL_INT32: "i32", A.ACL_INT64: "i64", A.ACL_UINT8: "u8", A.ACL_UINT16: "u16",
        A.ACL_BOOL: "bool", A.ACL_COMPLEX64: "c64", A.ACL_COMPLEX128: "c128"}  # fmt: skip
SENTINEL = 7


def values(shape: Sequence[int], dtype: np.dtype, rng: np.random.Generator, low: float = -5.0) -> np.ndarray:
    """Half uniform in [low, 5], half normal around a value in [-5, 5]; ints in a small range; random bools."""
    shape = tuple(shape)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -20
        return rng.integers(lo, 20, size=shape).astype(dtype)
    n = int(np.prod(shape))
    uniform = rng.uniform(low, 5.0, n)
    normal = rng.normal(rng.uniform(max(low, -5.0), 5.0), rng.uniform(0.1, 2.0), n)
    flat = np.where(rng.random(n) < 0.5, uniform, normal)
    if dtype.kind == "c":
        flat = flat + 1j * rng.uniform(-5.0, 5.0, n)
    return flat.reshape(shape).astype(dtype)


def check(actual: np.ndarray, golden: np.ndarray) -> None:
    """The precision standard: mixed tolerance for floats, bit-exact for integers and bool."""
    assert actual.shape == golden.shape, f"shape {actual.shape} != golden {golden.shape}"
    if actual.dtype.kind in "biu":
        np.testing.assert_array_equal(actual, golden.astype(actual.dtype))
    else:
        assert_precision(actual, golden)


def as64(x: np.ndarray) -> np.ndarray:
    """The float64 (complex128) copy of the input values a golden is computed from."""
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def gaps(t: npu.Tensor) -> np.ndarray:
    """The storage elements outside the view (a strided view must leave them alone)."""
    mask = np.ones(int(np.prod(t.storage_shape)), dtype=bool)
    if t.shape and int(np.prod(t.shape)):
        index = t.offset + sum(
            np.arange(d).reshape((-1,) + (1,) * (len(t.shape) - i - 1)) * s
            for i, (d, s) in enumerate(zip(t.shape, t.strides, strict=True))
        )
        mask[np.asarray(index).reshape(-1)] = False
    return t.storage().reshape(-1)[mask]


class Npu:
    """An open ``emulator.npu`` session (aclnnInit's config file optional) and this family's layouts.

    The session is not closed: the test's process is discarded with it.
    """

    def __init__(self, config: str | None = None) -> None:
        self.session = npu.Session(config=config).open()
        assert self.session.stream is not None
        self.stream: int = self.session.stream

    def tensor(self, host: np.ndarray, acl_dtype: int, *, strided: bool = False) -> npu.Tensor:
        """A device tensor of ``host``'s values; ``strided``: every other element of a storage twice as
        long on the last axis (plus one), view offset 1, the gaps holding the sentinel."""
        host = np.asarray(host, dtype=NP[acl_dtype])
        shape = tuple(host.shape)
        if not (strided and shape):
            return self.session.tensor(host, acl_dtype)
        storage = np.full((*shape[:-1], 2 * shape[-1] + 1), SENTINEL, dtype=host.dtype)
        storage[..., 1 : 2 * shape[-1] : 2] = host
        strides = (*(s // host.itemsize for s in storage.strides[:-1]), 2)
        return self.session.tensor(storage, acl_dtype, shape=shape, strides=strides, offset=1)

    def output(self, shape: Sequence[int], acl_dtype: int, *, strided: bool = False) -> npu.Tensor:
        """An output tensor pre-filled with the sentinel value."""
        return self.tensor(np.full(tuple(shape), SENTINEL, dtype=NP[acl_dtype]), acl_dtype, strided=strided)

    def run(self, phase1: Callable[..., Any], phase2: Callable[..., int], *args: Any) -> tuple[int, Any]:
        """Phase 1; when it succeeds a workspace of the asked size, phase 2 and synchronize.
        Returns (phase-1 status, the executor's launcher names before the run)."""
        ws, executor, ret = phase1(*args)
        if ret != 0:
            assert executor is None
            return ret, None
        names = [launcher.name for launcher in getattr(executor, "launchers", ())]  # none on an op-cache hit
        workspace = self.session.malloc(ws).addr if ws else 0
        assert phase2(workspace, ws, executor, self.stream) == 0
        assert acl.rt.synchronize_stream(self.stream) == 0
        return ret, names


def int_array(values_: Sequence[int]) -> Any:
    array = aclnn.aclCreateIntArray(list(values_), len(values_))
    assert array is not None
    return array
