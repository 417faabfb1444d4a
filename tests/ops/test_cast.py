"""aclnnCast on the emulated Ascend910B (ops-math math/cast).

The L2 is Contiguous -> L0 Cast -> ViewCopy: the A2 AI Core pair table serves most pairs, the
other listed pairs (anything to / from double, complex, uint64 …) run on AI CPU, and the same dtype
launches no Cast at all. Conversions are C casts: float to integer truncates toward zero, anything
to bool is "non-zero", complex to real keeps the real part. Integer outputs are bit-exact.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from binary_helpers import (
    UNARY_SHAPES,
    check,
    empty_out,
    ident,
    np_dtype,
    random_values,
    run_op,
    status,
    to_device,
    wide,
)

from emulator import aclnn
from emulator.kernels.math.aclnn_cast import CAST_DTYPES
from emulator.kernels.math.cast import AICORE_PAIRS
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID, INNER_NULLPTR = 161001, 161002, 561103


def _source(src: int, dst: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Source values that every listed destination holds exactly (non-negative for unsigned ones)."""
    values = random_values(src, shape, rng)
    if np_dtype(dst).kind == "u" and values.dtype.kind != "b":
        values = np.abs(values.astype(np.complex128 if values.dtype.kind == "c" else np.float64)).astype(values.dtype)
    return values


def cast_golden(a: np.ndarray, dst: np.dtype) -> np.ndarray:
    """C-cast semantics in float64 / int64: truncation toward zero, non-zero is true, real part of complex."""
    if dst == np.bool_:
        return a != 0
    if a.dtype.kind == "c" and dst.kind != "c":
        a = a.real
    if a.dtype.kind not in "iub" and dst.kind in "iu":
        return np.trunc(a.astype(np.float64)).astype(np.int64)
    return wide(a)


def _cast(stream: int, a: np.ndarray, src: int, dst: int, *, strided: bool = False) -> None:
    x, out = to_device(a, src, strided=strided), empty_out(a.shape, dst, strided=strided)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # complex -> real keeps the real part
        run_op(aclnn.aclnnCastGetWorkspaceSize, aclnn.aclnnCast, stream, x.handle, dst, out.handle)
    check(out, cast_golden(a, np_dtype(dst)))


@pytest.mark.parametrize("src", CAST_DTYPES, ids=ident)
def test_cast_every_pair(stream: int, src: int) -> None:
    """Every listed (src, dst) pair converts correctly, on AI Core or AI CPU as the pair table says."""
    rng = np.random.default_rng(51)
    for dst in CAST_DTYPES:
        _cast(stream, _source(src, dst, (3, 37), rng), src, dst)


@pytest.mark.parametrize("case", UNARY_SHAPES)
@pytest.mark.parametrize(
    ("src", "dst"),
    [(D.DT_FLOAT, D.DT_FLOAT16), (D.DT_FLOAT16, D.DT_INT32), (D.DT_BF16, D.DT_FLOAT), (D.DT_DOUBLE, D.DT_FLOAT),
     (D.DT_INT64, D.DT_BOOL), (D.DT_FLOAT, D.DT_FLOAT)],
    ids=ident,
)  # fmt: skip
def test_cast_shapes(stream: int, src: int, dst: int, case: str) -> None:
    """AI Core, AI CPU and same-dtype casts handle every shape class (strided self through Contiguous)."""
    rng = np.random.default_rng(52)
    shape = UNARY_SHAPES[case]
    _cast(stream, _source(src, dst, shape, rng), src, dst, strided=case == "strided")


def test_cast_dispatch(stream: int) -> None:
    """A pair in the A2 table runs the AI Core Cast, another listed pair the AI CPU one, equal dtypes none."""
    x = to_device(np.arange(6, dtype=np.float32), D.DT_FLOAT)
    for dst, engine in ((D.DT_FLOAT16, "Cast"), (D.DT_DOUBLE, "Cast(AI CPU)"), (D.DT_FLOAT, "TensorMove")):
        assert (dst in AICORE_PAIRS[D.DT_FLOAT]) == (engine == "Cast")
        out = empty_out((6,), dst)
        _, executor, ret = aclnn.aclnnCastGetWorkspaceSize(x.handle, dst, out.handle)
        assert ret == 0
        assert [launcher.name for launcher in executor.launchers] == [engine]
        assert aclnn.aclDestroyAclOpExecutor(executor) == 0


def test_cast_special_values(stream: int) -> None:
    """float -> int truncates toward zero; inf and nan survive float narrowing; -0.0 -> bool is false."""
    a = np.array([-2.7, -0.5, 0.5, 2.7, 100.9], np.float32)
    _cast(stream, a, D.DT_FLOAT, D.DT_INT32)
    b = np.array([np.inf, -np.inf, np.nan, -0.0, 65504.0, 1e-8], np.float32)
    _cast(stream, b, D.DT_FLOAT, D.DT_FLOAT16)
    _cast(stream, np.array([-0.0, 0.0, np.nan, 1e-30], np.float32), D.DT_FLOAT, D.DT_BOOL)


def test_cast_empty(stream: int) -> None:
    """An empty self returns workspace 0 and launches nothing."""
    x, out = to_device(np.zeros((2, 0), np.float32), D.DT_FLOAT), empty_out((2, 0), D.DT_INT8)
    ws, executor, ret = aclnn.aclnnCastGetWorkspaceSize(x.handle, D.DT_INT8, out.handle)
    assert (ws, ret) == (0, 0) and not executor.launchers


def test_cast_errors(stream: int) -> None:
    """Nulls are 161001; unsupported dtypes, rank and shape are 161002; an out of another dtype is 561103."""
    x, out = to_device(np.zeros((2, 3), np.float32), D.DT_FLOAT).handle, empty_out((2, 3), D.DT_FLOAT16).handle
    phase1 = aclnn.aclnnCastGetWorkspaceSize
    assert status(phase1, None, D.DT_FLOAT16, out) == NULLPTR
    assert status(phase1, x, D.DT_FLOAT16, None) == NULLPTR
    fp8 = to_device(np.zeros((2, 3), np_dtype(D.DT_FLOAT8_E4M3FN)), D.DT_FLOAT8_E4M3FN).handle
    assert status(phase1, fp8, D.DT_FLOAT16, out) == INVALID  # self dtype (no FP8 on A2)
    assert status(phase1, x, aclnn.ACL_FLOAT8_E5M2, out) == INVALID  # target dtype
    assert status(phase1, x, aclnn.ACL_DT_UNDEFINED, out) == INVALID
    nine = to_device(np.zeros((1,) * 9, np.float32), D.DT_FLOAT).handle
    assert status(phase1, nine, D.DT_FLOAT16, nine) == INVALID
    assert status(phase1, x, D.DT_FLOAT16, empty_out((3, 2), D.DT_FLOAT16).handle) == INVALID
    assert status(phase1, x, D.DT_INT32, out) == INNER_NULLPTR  # ViewCopy of int32 into a float16 out
