"""aclnnPowTensorScalar / aclnnInplacePowTensorScalar, aclnnPowScalarTensor, aclnnPowTensorTensor /
aclnnInplacePowTensorTensor on the simulated A2 NPU.

The official examples' values; the A2 tensor-scalar dtype inference and the kernel each exponent
takes (Pows for 0.5 / 2 / 3 / -0.5 / -1 / -2 on half and float32, Square for 2, nothing for 1, Pow
otherwise); broadcasting, strided views, empty tensors and each dtype against a float64 golden (integer
results bit-exact); every status the real L2 code checks, with its text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, np_dtype, random_values, run_op, scalar, status, to_device, wide

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID = 161001, 161002
F32, F16, BF16, F64 = D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE
I8, I16, I32, I64, U8, BOOL = D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_BOOL
C64, C128 = D.DT_COMPLEX64, D.DT_COMPLEX128


def launches(api: str, *args: Any) -> list[str]:
    _, executor, ret = getattr(aclnn, f"{api}GetWorkspaceSize")(*args)
    assert ret == 0, acl.get_recent_err_msg()
    names = [launcher.name.split("(")[0] for launcher in executor.launchers]  # "Pow(AI CPU)" -> "Pow"
    aclnn.aclDestroyAclOpExecutor(executor)
    return names


def phase(api: str) -> tuple[Callable[..., Any], Callable[..., int]]:
    return getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api)


def int_power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """Exact integer powers (wrapping in int64, as the kernels' own dtype would wrap below it)."""
    with np.errstate(over="ignore"):
        return np.power(base.astype(np.int64), exponent.astype(np.int64))


def golden(base: np.ndarray, exponent: np.ndarray, out_dtype: int) -> np.ndarray:
    target = np_dtype(out_dtype)
    if target.kind in "iub":
        return int_power(base, exponent).astype(target)
    kind = np.complex128 if target.kind == "c" else np.float64
    with np.errstate(all="ignore"):
        return np.power(wide(base).astype(kind), wide(exponent).astype(kind))


def positive(dtype: int, shape: tuple[int, ...], seed: int) -> np.ndarray:
    values = random_values(dtype, shape, np.random.default_rng(seed))
    if np_dtype(dtype).kind in "f" or dtype == BF16:
        return np.abs(values) + np_dtype(dtype).type(0.25)
    return values


# -- PowTensorScalar ----------------------------------------------------------------------------------------
TS_CASES = [
    (F32, 4.1, F32, F32, "Pow"), (F32, 2.0, F32, F32, "Pows"), (F16, 0.5, F32, F16, "Pows"),
    (BF16, -1.0, F32, BF16, "Pows"), (F32, 3.0, F32, F32, "Pows"), (F32, -2.0, F32, F32, "Pows"),
    (F32, 1.0, F32, F32, None), (I32, 2, I32, I32, "Square"), (I8, 2, I32, I8, "Square"),
    (I32, 3, I64, I32, "Pow"), (I64, 3, I64, I64, "Pow"), (U8, 2, I64, U8, "Square"),
    (F64, 1.5, F64, F64, "Pow"), (I32, 1.5, F32, F32, "Pow"), (C64, 2.0, F32, C64, "Square"),
    (F64, 2.0, F32, F64, "Square"), (I16, 3, I32, I16, "Pow"),
]  # fmt: skip


@pytest.mark.parametrize(("dtype", "exp", "exp_dtype", "out_dtype", "kernel"), TS_CASES, ids=ident)
def test_tensor_scalar(stream: int, dtype: int, exp: float, exp_dtype: int, out_dtype: int, kernel: str | None) -> None:
    """Each dtype / exponent pair takes the real kernel and meets the precision standard."""
    x_host = (
        positive(dtype, (6, 21), seed=1)
        if exp < 0 or exp % 1
        else random_values(dtype, (6, 21), np.random.default_rng(1))
    )
    x = to_device(x_host, dtype, strided=True)
    out = empty_out((6, 21), out_dtype, strided=True)
    names = launches("aclnnPowTensorScalar", x.handle, scalar(exp, exp_dtype), out.handle)
    if kernel is not None:
        assert kernel in names
    else:
        assert not {"Pow", "Pows", "Square"} & set(names)
    run_op(*phase("aclnnPowTensorScalar"), stream, x.handle, scalar(exp, exp_dtype), out.handle)
    check(out, golden(x_host, np.array(exp), out_dtype))


def test_tensor_scalar_example(stream: int) -> None:
    """The official example: [0, 1, 2, 3] ** 4.1, then the in-place call on the same tensor."""
    x_host = np.array([[0, 1], [2, 3]], np.float32)
    x = to_device(x_host, F32)
    out = empty_out((2, 2), F32)
    run_op(*phase("aclnnPowTensorScalar"), stream, x.handle, scalar(4.1, F32), out.handle)
    np.testing.assert_allclose(out.numpy(), x_host.astype(np.float64) ** np.float64(np.float32(4.1)), rtol=1e-6)
    run_op(*phase("aclnnInplacePowTensorScalar"), stream, x.handle, scalar(4.1, F32))
    np.testing.assert_allclose(x.numpy(), out.numpy(), rtol=0)


def test_tensor_scalar_dtype_inference(stream: int) -> None:
    """A float64 exponent against a float32 out computes in float32; an int tensor with a float exponent
    promotes to float32; a float16 tensor keeps float16 with a float64 exponent and a float16 out."""
    x = to_device(np.array([1, 2, 3], np.int32), I32)
    out = empty_out((3,), F32)
    run_op(*phase("aclnnPowTensorScalar"), stream, x.handle, scalar(0.5, F64), out.handle)
    np.testing.assert_allclose(out.numpy(), np.sqrt([1.0, 2.0, 3.0]), rtol=1e-6)
    h = to_device(np.array([4, 9], np.float16), F16)
    h_out = empty_out((2,), F16)
    run_op(*phase("aclnnPowTensorScalar"), stream, h.handle, scalar(0.5, F64), h_out.handle)
    assert np.array_equal(h_out.numpy(), np.array([2, 3], np.float16))


def test_integer_negative_exponent(stream: int) -> None:
    """An integer base to a negative power: 1 for 1, ±1 for -1, 0 otherwise (truncation toward zero)."""
    x_host = np.array([-2, -1, 0, 1, 2, 3], np.int32)
    x = to_device(x_host, I32)
    out = empty_out((6,), I32)
    for exp, expected in ((-1, [0, -1, 0, 1, 0, 0]), (-2, [0, 1, 0, 1, 0, 0])):
        run_op(*phase("aclnnPowTensorScalar"), stream, x.handle, scalar(exp, I64), out.handle)
        assert out.numpy().tolist() == expected


def test_empty(stream: int) -> None:
    """Empty tensors return at once with a zero workspace, for all three forms."""
    e = to_device(np.zeros((0, 3), np.float32), F32)
    out = empty_out((0, 3), F32)
    assert run_op(*phase("aclnnPowTensorScalar"), stream, e.handle, scalar(3.0, F32), out.handle) == 0
    assert run_op(*phase("aclnnPowScalarTensor"), stream, scalar(3.0, F32), e.handle, out.handle) == 0
    assert run_op(*phase("aclnnPowTensorTensor"), stream, e.handle, e.handle, out.handle) == 0


# -- PowScalarTensor ----------------------------------------------------------------------------------------
ST_CASES = [(2.0, F32, F32, F32), (3, I32, I32, I32), (0.5, F32, F16, F16), (2.5, F32, BF16, BF16),
            (2, I64, I64, I64), (1.5, F64, F64, F64), (2.0, F32, I32, F32), (2, I32, F32, F32)]  # fmt: skip


@pytest.mark.parametrize(("base", "base_dtype", "dtype", "out_dtype"), ST_CASES, ids=ident)
def test_scalar_tensor(stream: int, base: float, base_dtype: int, dtype: int, out_dtype: int) -> None:
    """base ** exponent tensor (a strided view) in the inferred dtype."""
    rng = np.random.default_rng(2)
    e_host = (
        rng.integers(0, 6, (5, 13)).astype(np_dtype(dtype))
        if np_dtype(dtype).kind in "iu"
        else (random_values(dtype, (5, 13), rng) / np_dtype(dtype).type(2))
    )
    e = to_device(e_host, dtype, strided=True)
    out = empty_out((5, 13), out_dtype, strided=True)
    run_op(*phase("aclnnPowScalarTensor"), stream, scalar(base, base_dtype), e.handle, out.handle)
    check(out, golden(np.array(base, np_dtype(base_dtype)), e_host, out_dtype))


# -- PowTensorTensor ----------------------------------------------------------------------------------------
TT_CASES = [(F32, F32, F32), (F16, F16, F16), (BF16, BF16, BF16), (F64, F64, F64), (I32, I32, I32),
            (I8, I8, I8), (U8, U8, U8), (I16, I16, I16), (I64, I64, I64), (F16, F32, F32), (I32, F32, F32),
            (BOOL, I32, I32), (C64, C64, C64)]  # fmt: skip


@pytest.mark.parametrize(("self_dtype", "exp_dtype", "out_dtype"), TT_CASES, ids=ident)
def test_tensor_tensor_broadcast(stream: int, self_dtype: int, exp_dtype: int, out_dtype: int) -> None:
    """(5, 1, 7) ** (3, 1) broadcasts to (5, 3, 7) in the promoted dtype."""
    rng = np.random.default_rng(3)
    base = (
        positive(self_dtype, (5, 1, 7), 3)
        if np_dtype(self_dtype).kind != "c"
        else random_values(self_dtype, (5, 1, 7), rng)
    )
    if np_dtype(exp_dtype).kind in "iu":
        power = rng.integers(0, 4, (3, 1)).astype(np_dtype(exp_dtype))
    else:
        power = (random_values(exp_dtype, (3, 1), rng) / np_dtype(exp_dtype).type(2)).astype(np_dtype(exp_dtype))
    x, e = to_device(base, self_dtype), to_device(power, exp_dtype)
    out = empty_out((5, 3, 7), out_dtype)
    run_op(*phase("aclnnPowTensorTensor"), stream, x.handle, e.handle, out.handle)
    check(out, golden(base, power, out_dtype))


def test_tensor_tensor_example_and_inplace(stream: int) -> None:
    """The official example: [0..7] ** [1, 1, 1, 2, 2, 2, 3, 3]; the in-place form writes over self."""
    base = np.arange(8, dtype=np.float32).reshape(4, 2)
    power = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    x, e = to_device(base, F32), to_device(power, F32)
    out = empty_out((4, 2), F32)
    run_op(*phase("aclnnPowTensorTensor"), stream, x.handle, e.handle, out.handle)
    assert out.numpy().tolist() == [[0, 1], [2, 9], [16, 25], [216, 343]]
    run_op(*phase("aclnnInplacePowTensorTensor"), stream, x.handle, e.handle)
    assert x.numpy().tolist() == [[0, 1], [2, 9], [16, 25], [216, 343]]


# -- statuses ------------------------------------------------------------------------------------------------
def _t(dtype: int, shape: tuple[int, ...] = (2, 3)) -> Callable[[], Any]:
    return lambda: empty_out(shape, dtype).handle


def _s(value: Any, dtype: int = F32) -> Callable[[], Any]:
    return lambda: scalar(value, dtype)


NULL_CASES = [
    ("aclnnPowTensorScalar", [_t(F32), _s(2.0), _t(F32)]),
    ("aclnnPowScalarTensor", [_s(2.0), _t(F32), _t(F32)]),
    ("aclnnPowTensorTensor", [_t(F32), _t(F32), _t(F32)]),
    ("aclnnInplacePowTensorScalar", [_t(F32), _s(2.0)]),
    ("aclnnInplacePowTensorTensor", [_t(F32), _t(F32)]),
]
NULLS = [(api, i, makers) for api, makers in NULL_CASES for i in range(len(makers))]


@pytest.mark.parametrize(("api", "which", "makers"), NULLS, ids=[f"{a[5:]}-{i}" for a, i, _ in NULLS])
def test_null_argument(stream: int, api: str, which: int, makers: list[Callable[[], Any]]) -> None:
    args = [make() for make in makers]
    args[which] = None
    assert status(phase(api)[0], *args) == NULLPTR
    assert "not to be a null pointer" in acl.get_recent_err_msg()


RANK9 = (1,) * 9
INVALID_CASES: list[tuple[str, str, list[Callable[[], Any]], str]] = [
    ("aclnnPowTensorScalar", "self-uint16", [_t(D.DT_UINT16), _s(2.0), _t(F32)], "Self dtype DT_UINT16 should be in"),
    ("aclnnPowTensorScalar", "exp-uint32", [_t(F32), _s(2, D.DT_UINT32), _t(F32)], "exp dtype DT_UINT32 should be in"),
    ("aclnnPowTensorScalar", "bool-bool", [_t(BOOL), _s(True, BOOL), _t(BOOL)],
     "Self and exponent dtype are bool is not supported."),
    ("aclnnPowTensorScalar", "out-not-castable", [_t(F32), _s(2.0), _t(I32)], "can't be cast to the desired"),
    ("aclnnPowTensorScalar", "complex-exp-to-float", [_t(F32), _s(2.0, C64), _t(F32)], "can't be cast"),
    ("aclnnPowTensorScalar", "rank9", [_t(F32, RANK9), _s(2.0), _t(F32, RANK9)], "more than 8"),
    ("aclnnPowTensorScalar", "shape", [_t(F32), _s(2.0), _t(F32, (3, 2))], "should be the same as self shape"),
    ("aclnnInplacePowTensorScalar", "int-with-float-exp", [_t(I32), _s(0.5)], "can't be cast"),
    ("aclnnPowScalarTensor", "exp-uint16", [_s(2.0), _t(D.DT_UINT16), _t(F32)], "exp dtype DT_UINT16 should be in"),
    ("aclnnPowScalarTensor", "bool-bool", [_s(True, BOOL), _t(BOOL), _t(BOOL)], "are bool is not supported"),
    ("aclnnPowScalarTensor", "out-not-castable", [_s(2.5), _t(I32), _t(I32)], "can't be cast"),
    ("aclnnPowScalarTensor", "shape", [_s(2.0), _t(F32), _t(F32, (6,))], "should be the same as self shape"),
    ("aclnnPowTensorTensor", "bool-bool", [_t(BOOL), _t(BOOL), _t(BOOL)], "are bool is not supported"),
    ("aclnnPowTensorTensor", "self-uint32", [_t(D.DT_UINT32), _t(F32), _t(F32)], "self dtype DT_UINT32 should be in"),
    ("aclnnPowTensorTensor", "exp-uint64", [_t(F32), _t(D.DT_UINT64), _t(F32)], "exponent dtype DT_UINT64 should"),
    ("aclnnPowTensorTensor", "out-not-castable", [_t(F32), _t(I32), _t(I32)], "can't be cast"),
    ("aclnnPowTensorTensor", "rank9", [_t(F32, RANK9), _t(F32), _t(F32, RANK9)], "more than 8"),
    ("aclnnPowTensorTensor", "no-broadcast", [_t(F32, (2, 3)), _t(F32, (4,)), _t(F32)], "Broadcast [2, 3] and [4]"),
    ("aclnnPowTensorTensor", "out-shape", [_t(F32, (2, 1)), _t(F32, (1, 3)), _t(F32, (2, 1))],
     "Shape of out should be [2, 3], but current is [2, 1]."),
    ("aclnnInplacePowTensorTensor", "broadcast-beyond-self", [_t(F32, (2, 1)), _t(F32, (1, 3))],
     "Shape of out should be [2, 3]"),
]  # fmt: skip


@pytest.mark.parametrize(("api", "label", "makers", "text"), INVALID_CASES,
                         ids=[f"{c[0][5:]}-{c[1]}" for c in INVALID_CASES])  # fmt: skip
def test_invalid_parameter(stream: int, api: str, label: str, makers: list[Callable[[], Any]], text: str) -> None:
    """Each check of the real L2 code gives 161002 and its text."""
    args = [make() for make in makers]
    assert status(phase(api)[0], *args) == INVALID
    assert text in acl.get_recent_err_msg()
