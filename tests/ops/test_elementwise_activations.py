"""The ops-nn activations of issue 14 on the simulated A2 NPU: aclnnLeakyRelu, aclnnElu, aclnnHardswish,
aclnnHardsigmoid, aclnnSoftplus, aclnnGeluV2 (both approximate modes), aclnnThreshold and their in-place
variants.

Each op: the official example's values, every A2 dtype against a float64 golden with the precision
standard (bit-exact for integer outputs), a strided input and output view, an empty tensor, its
attributes (slopes, scales, thresholds), and every status its real L2 code checks, with the text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, np_dtype, random_values, run_op, scalar, status, to_device, wide

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

D = DataType
NULLPTR, INVALID, INNER = 161001, 161002, 561103
F32, F16, BF16, F64 = D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu_none(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def _elu(x: np.ndarray, alpha: float, scale: float, input_scale: float) -> np.ndarray:
    return scale * np.where(x > 0, x, alpha * np.expm1(input_scale * np.minimum(x, 0)))


def _softplus(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    return np.where(x * beta > threshold, x, np.logaddexp(0, x * beta) / beta)


# api -> (the scalar arguments between self and out, the golden of a float64 x)
Op = tuple[Callable[[], list[Any]], Callable[[np.ndarray], np.ndarray]]
OPS: dict[str, Op] = {
    "aclnnLeakyRelu": (lambda: [scalar(0.05, F32)], lambda x: np.where(x > 0, x, 0.05 * x)),
    "aclnnElu": (lambda: [scalar(0.7, F32), scalar(1.5, F32), scalar(2.0, F32)], lambda x: _elu(x, 0.7, 1.5, 2.0)),
    "aclnnHardswish": (lambda: [], lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "aclnnHardsigmoid": (lambda: [], lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    "aclnnSoftplus": (lambda: [scalar(2.0, F32), scalar(4.0, F32)], lambda x: _softplus(x, 2.0, 4.0)),
    "aclnnGeluV2-none": (lambda: [0], _gelu_none),
    "aclnnGeluV2-tanh": (lambda: [1], _gelu_tanh),
    "aclnnThreshold": (lambda: [scalar(0.5, F32), scalar(-2.0, F32)], lambda x: np.where(x > 0.5, x, -2.0)),
}
FLOATS = (F32, F16, BF16)
DTYPES = {
    "aclnnLeakyRelu": (*FLOATS, F64),
    "aclnnElu": (*FLOATS, F64),
    "aclnnHardswish": FLOATS,
    "aclnnHardsigmoid": (*FLOATS, D.DT_INT32),
    "aclnnSoftplus": FLOATS,
    "aclnnGeluV2-none": FLOATS,
    "aclnnGeluV2-tanh": FLOATS,
    "aclnnThreshold": (*FLOATS, D.DT_INT32, D.DT_INT8, D.DT_UINT8, D.DT_INT16, D.DT_INT64),
}
CASES = [(name, d) for name, dtypes in DTYPES.items() for d in dtypes]


def api_of(name: str) -> str:
    return name.split("-")[0]


def phase(api: str) -> tuple[Callable[..., Any], Callable[..., int]]:
    return getattr(aclnn, f"{api}GetWorkspaceSize"), getattr(aclnn, api)


def call_args(name: str, x: Any, out: Any) -> list[Any]:
    """The C argument order: GeluV2 takes (x, approximate, y), the others (self, scalars..., out)."""
    return [x, *OPS[name][0](), out]


def golden(name: str, x: np.ndarray, out_dtype: int) -> np.ndarray:
    target = np_dtype(out_dtype)
    with np.errstate(all="ignore"):
        result = np.asarray(OPS[name][1](wide(x).astype(np.float64)))
    if target.kind in "iu":
        return np.trunc(result).astype(target)
    return result


@pytest.mark.parametrize("layout", ["dense", "strided", "empty"])
@pytest.mark.parametrize(("name", "dtype"), CASES, ids=[f"{n[5:]}-{D(d).name}" for n, d in CASES])
def test_values(stream: int, name: str, dtype: int, layout: str) -> None:
    """Each supported A2 dtype meets the precision standard; a strided view in and out keeps the output's
    gaps; an empty tensor launches nothing."""
    shape = (0, 4) if layout == "empty" else (9, 29)
    strided = layout == "strided"
    x_host = random_values(dtype, shape, np.random.default_rng(1))
    x = to_device(x_host, dtype, strided=strided)
    out = empty_out(shape, dtype, strided=strided)
    ws = run_op(*phase(api_of(name)), stream, *call_args(name, x.handle, out.handle))
    if layout == "empty":
        assert ws == 0
    check(out, golden(name, x_host, dtype))


INPLACE = {
    "aclnnInplaceLeakyRelu": "aclnnLeakyRelu",
    "aclnnInplaceElu": "aclnnElu",
    "aclnnInplaceHardswish": "aclnnHardswish",
    "aclnnInplaceHardsigmoid": "aclnnHardsigmoid",
    "aclnnInplaceThreshold": "aclnnThreshold",
}


@pytest.mark.parametrize("api", sorted(INPLACE))
def test_inplace(stream: int, api: str) -> None:
    """The in-place variant writes its base op's result over selfRef (a strided view here)."""
    base = INPLACE[api]
    x_host = random_values(F32, (6, 11), np.random.default_rng(2))
    x = to_device(x_host, F32, strided=True, fill=5)
    run_op(*phase(api), stream, x.handle, *OPS[base][0]())
    check(x, golden(base, x_host, F32))


def test_to_wider_out(stream: int) -> None:
    """LeakyRelu / Elu / Hardswish / Softplus / Threshold cast their result to a castable out dtype."""
    x_host = random_values(F16, (4, 5), np.random.default_rng(3))
    for name in ("aclnnLeakyRelu", "aclnnElu", "aclnnHardswish", "aclnnSoftplus", "aclnnThreshold"):
        x = to_device(x_host, F16)
        out = empty_out((4, 5), F32)
        run_op(*phase(name), stream, *call_args(name, x.handle, out.handle))
        check(out, golden(name, x_host.astype(np.float32), F32))


EXAMPLES: list[tuple[str, list[float], Callable[[], list[Any]], list[float]]] = [
    ("aclnnLeakyRelu", [1, 2, 3, 4], lambda: [scalar(0.01, F32)], [1, 2, 3, 4]),
    ("aclnnElu", [-2, -1, 0, 1], lambda: [scalar(1.0, F32)] * 3, [math.expm1(-2), math.expm1(-1), 0, 1]),
    ("aclnnHardswish", [-4, -3, -2, 0, 1, 2, 4, 5], lambda: [], [0, 0, -1 / 3, 0, 2 / 3, 5 / 3, 4, 5]),
    ("aclnnHardsigmoid", [-4, -3, -2, 0, 1, 2, 4, 5], lambda: [], [0, 0, 1 / 6, 0.5, 2 / 3, 5 / 6, 1, 1]),
    ("aclnnSoftplus", [0, 1, 2, 3, 4, 5, 6, 7], lambda: [scalar(1.0, F32), scalar(5.0, F32)],
     [*np.log1p(np.exp(np.arange(6.0))), 6, 7]),
    ("aclnnGeluV2", [1.3, 2.5, 6.7, -4, -1.4, -1.6, -8, -16.9], lambda: [0],
     list(_gelu_none(np.array([1.3, 2.5, 6.7, -4, -1.4, -1.6, -8, -16.9], np.float32).astype(np.float64)))),
    ("aclnnThreshold", [0, 1, 2, 3, 4.1, 5, 6, 7], lambda: [scalar(4.1, F32), scalar(10.0, F32)],
     [10, 10, 10, 10, 10, 5, 6, 7]),
]  # fmt: skip


@pytest.mark.parametrize(("api", "inputs", "scalars", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_documented_example(
    stream: int, api: str, inputs: list[float], scalars: Callable[[], list[Any]], expected: list[float]
) -> None:
    """The official example's float32 input and attributes give the documented results (4.1 is not > 4.1)."""
    x = to_device(np.array(inputs, np.float32), F32)
    out = empty_out((len(inputs),), F32)
    run_op(*phase(api), stream, x.handle, *scalars(), out.handle)
    np.testing.assert_allclose(out.numpy(), np.array(expected), rtol=2e-6, atol=1e-6)


def test_gelu_v2_modes_differ_and_other_values_mean_none(stream: int) -> None:
    """approximate 1 is the tanh form; 0 and any other value (here 7) the erf form."""
    x_host = np.linspace(-3, 3, 64, dtype=np.float32)
    results = {}
    for mode in (0, 1, 7):
        x = to_device(x_host, F32)
        y = empty_out((64,), F32)
        run_op(*phase("aclnnGeluV2"), stream, x.handle, mode, y.handle)
        results[mode] = y.numpy()
    assert np.array_equal(results[0], results[7])
    assert not np.allclose(results[0], results[1], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(results[0], _gelu_none(x_host.astype(np.float64)), rtol=1e-5, atol=1e-6)


def test_elu_with_infinite_alpha_is_an_inner_error(stream: int) -> None:
    """An infinite alpha takes the real code's Threshold branch, whose result it drops: 561103."""
    x = to_device(np.ones((2, 2), np.float32), F32)
    out = empty_out((2, 2), F32)
    inf = scalar(np.inf, F32)
    one = scalar(1.0, F32)
    assert status(aclnn.aclnnEluGetWorkspaceSize, x.handle, inf, one, one, out.handle) == INNER


def test_threshold_int16_runs_as_int32(stream: int) -> None:
    """An int16 self is cast to int32 before ThresholdV2 (which has no int16 binary)."""
    x_host = np.arange(-5, 5, dtype=np.int16)
    x = to_device(x_host, D.DT_INT16)
    out = empty_out((10,), D.DT_INT16)
    args = (x.handle, scalar(1, D.DT_INT32), scalar(9, D.DT_INT32), out.handle)
    _, executor, ret = aclnn.aclnnThresholdGetWorkspaceSize(*args)
    assert ret == 0
    names = [launcher.name for launcher in executor.launchers]
    assert names.count("Cast") == 2 and "ThresholdV2" in names
    aclnn.aclDestroyAclOpExecutor(executor)
    run_op(*phase("aclnnThreshold"), stream, *args)
    assert np.array_equal(out.numpy(), np.where(x_host > 1, x_host, 9))


# -- statuses ------------------------------------------------------------------------------------------------
def _t(dtype: int, shape: tuple[int, ...] = (2, 3)) -> Callable[[], Any]:
    return lambda: empty_out(shape, dtype).handle


def _s(value: Any, dtype: int = F32) -> Callable[[], Any]:
    return lambda: scalar(value, dtype)


def _v(value: Any) -> Callable[[], Any]:
    return lambda: value


RANK9 = (1,) * 9
NULL_CASES: list[tuple[str, list[Callable[[], Any]]]] = [
    ("aclnnLeakyRelu", [_t(F32), _s(0.1), _t(F32)]),
    ("aclnnElu", [_t(F32), _s(1.0), _s(1.0), _s(1.0), _t(F32)]),
    ("aclnnHardswish", [_t(F32), _t(F32)]),
    ("aclnnHardsigmoid", [_t(F32), _t(F32)]),
    ("aclnnSoftplus", [_t(F32), _s(1.0), _s(20.0), _t(F32)]),
    ("aclnnThreshold", [_t(F32), _s(1.0), _s(0.0), _t(F32)]),
]
NULLS = [(api, i, makers) for api, makers in NULL_CASES for i in range(len(makers))]


@pytest.mark.parametrize(("api", "which", "makers"), NULLS, ids=[f"{a[5:]}-{i}" for a, i, _ in NULLS])
def test_null_argument(stream: int, api: str, which: int, makers: list[Callable[[], Any]]) -> None:
    """Any null pointer argument is 161001 with the real null-check text."""
    args = [make() for make in makers]
    args[which] = None
    assert status(phase(api)[0], *args) == NULLPTR
    assert "not to be a null pointer" in acl.get_recent_err_msg()


def test_null_order(stream: int) -> None:
    """Threshold checks self, out, threshold, value in that order: a null out is named before a null threshold."""
    assert status(aclnn.aclnnThresholdGetWorkspaceSize, _t(F32)(), None, _s(0.0)(), None) == NULLPTR
    assert "expected out not to be" in acl.get_recent_err_msg()
    assert status(aclnn.aclnnGeluV2GetWorkspaceSize, None, 0, _t(F32)()) == NULLPTR
    assert status(aclnn.aclnnGeluV2GetWorkspaceSize, _t(F32)(), 0, None) == NULLPTR


INVALID_CASES: list[tuple[str, str, list[Callable[[], Any]], str]] = [
    ("aclnnLeakyRelu", "self-int32", [_t(D.DT_INT32), _s(0.1), _t(D.DT_INT32)], "self dtype DT_INT32 should be in"),
    ("aclnnLeakyRelu", "out-not-castable", [_t(F32), _s(0.1), _t(D.DT_INT32)], "can't be cast to the desired"),
    ("aclnnLeakyRelu", "rank9", [_t(F32, RANK9), _s(0.1), _t(F32, RANK9)], "more than 8"),
    ("aclnnLeakyRelu", "shape", [_t(F32), _s(0.1), _t(F32, (3, 2))], "should be the same as self shape"),
    ("aclnnElu", "self-int8", [_t(D.DT_INT8), _s(1.0), _s(1.0), _s(1.0), _t(F32)], "self dtype DT_INT8 should be"),
    ("aclnnElu", "scale-complex", [_t(F32), _s(1.0), _s(1.0, D.DT_COMPLEX64), _s(1.0), _t(F32)],
     "scale dtype DT_COMPLEX64 can not cast to float32."),
    ("aclnnElu", "alpha-complex", [_t(F32), _s(1.0, D.DT_COMPLEX64), _s(1.0), _s(1.0), _t(F32)],
     "alpha dtype DT_COMPLEX64 can not cast to float32."),
    ("aclnnElu", "inputscale-complex", [_t(F32), _s(1.0), _s(1.0), _s(1.0, D.DT_COMPLEX128), _t(F32)],
     "inputScale dtype DT_COMPLEX128 can not cast to float32."),
    ("aclnnElu", "out-not-castable", [_t(F32), _s(1.0), _s(1.0), _s(1.0), _t(D.DT_INT64)], "can't be cast"),
    ("aclnnElu", "shape", [_t(F32), _s(1.0), _s(1.0), _s(1.0), _t(F32, (6,))], "should be the same as self shape"),
    ("aclnnElu", "rank9", [_t(F32, RANK9), _s(1.0), _s(1.0), _s(1.0), _t(F32, RANK9)], "more than 8"),
    ("aclnnHardswish", "self-double", [_t(F64), _t(F64)], "self dtype DT_DOUBLE should be in"),
    ("aclnnHardswish", "out-int32", [_t(F32), _t(D.DT_INT32)], "out dtype DT_INT32 should be in"),
    ("aclnnHardswish", "out-narrower-ok-but-shape", [_t(F32), _t(F16, (3, 2))], "should be the same as self shape"),
    ("aclnnHardsigmoid", "self-double", [_t(F64), _t(F64)], "self dtype DT_DOUBLE should be in"),
    ("aclnnHardsigmoid", "rank9", [_t(F32, RANK9), _t(F32, RANK9)], "more than 8"),
    ("aclnnHardsigmoid", "shape", [_t(F32), _t(F32, (3, 2))], "should be the same as self shape"),
    ("aclnnHardsigmoid", "dtype-differs", [_t(F32), _t(F16)], "the dtype of self and out must be the same"),
    ("aclnnSoftplus", "self-double", [_t(F64), _s(1.0), _s(20.0), _t(F64)], "self dtype DT_DOUBLE should be in"),
    ("aclnnSoftplus", "beta-complex", [_t(F32), _s(1.0, D.DT_COMPLEX64), _s(20.0), _t(F32)], "can't be cast"),
    ("aclnnSoftplus", "threshold-float-to-half-ok-out-int", [_t(F16), _s(1.0), _s(20.0), _t(D.DT_INT32)],
     "can't be cast"),
    ("aclnnSoftplus", "rank9", [_t(F32, RANK9), _s(1.0), _s(20.0), _t(F32, RANK9)], "more than 8"),
    ("aclnnSoftplus", "shape", [_t(F32), _s(1.0), _s(20.0), _t(F32, (3, 2))], "should be the same as self shape"),
    ("aclnnGeluV2", "y-dtype-differs", [_t(F32), _v(0), _t(F16)], "y dtype DT_FLOAT16 should be DT_FLOAT"),
    ("aclnnGeluV2", "x-double", [_t(F64), _v(0), _t(F64)], "x dtype DT_DOUBLE should be in"),
    ("aclnnGeluV2", "shape", [_t(F32), _v(1), _t(F32, (3, 2))], "should be the same as self shape"),
    ("aclnnThreshold", "self-double", [_t(F64), _s(1.0), _s(0.0), _t(F64)], "self dtype DT_DOUBLE should be in"),
    ("aclnnThreshold", "self-bool", [_t(D.DT_BOOL), _s(1.0), _s(0.0), _t(D.DT_BOOL)], "self dtype DT_BOOL should"),
    ("aclnnThreshold", "out-not-castable", [_t(F32), _s(1.0), _s(0.0), _t(D.DT_INT32)], "can't be cast"),
    ("aclnnThreshold", "rank9", [_t(F32, RANK9), _s(1.0), _s(0.0), _t(F32, RANK9)], "more than 8"),
    ("aclnnThreshold", "shape", [_t(F32), _s(1.0), _s(0.0), _t(F32, (3, 2))], "should be the same as self shape"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("api", "label", "makers", "text"), INVALID_CASES, ids=[f"{c[0][5:]}-{c[1]}" for c in INVALID_CASES]
)
def test_invalid_parameter(stream: int, api: str, label: str, makers: list[Callable[[], Any]], text: str) -> None:
    """Each check of the real L2 code gives 161002 and its text."""
    args = [make() for make in makers]
    assert status(phase(api)[0], *args) == INVALID
    assert text in acl.get_recent_err_msg()
