"""The unary elementwise family on the simulated A2 NPU.

Emulated CANN ops: aclnnAbs, aclnnNeg, aclnnExp, aclnnLog, aclnnSqrt, aclnnRsqrt (ops-math), aclnnRelu,
aclnnSigmoid, aclnnGelu, aclnnSilu (ops-nn) and aclnnTanh, with their in-place variants. Every case runs
the canonical device flow (set_device, stream, aclnnInit, malloc + memcpy + aclCreateTensor with explicit
strides, phase 1, workspace, phase 2, synchronize, memcpy back) and judges float outputs against a
float64 numpy golden with the precision standard (emulator.testing.precision); integer and pass-through
outputs must be bit-exact. Fidelity notes: Gelu is the A2 tanh approximation (a test shows it is not the
erf form); Sqrt of int64 goes through float64 and Sigmoid accepts the code's wider dtype list, as the
real ops do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from device_helpers import device_tensor, initial, view_of

from emulator import acl, aclnn
from emulator import npu as npu_layer
from emulator.meta.dtypes import numpy_dtype
from emulator.testing.precision import assert_precision, check_precision

F32, F16, BF16, F64 = aclnn.ACL_FLOAT, aclnn.ACL_FLOAT16, aclnn.ACL_BF16, aclnn.ACL_DOUBLE
C64, C128 = aclnn.ACL_COMPLEX64, aclnn.ACL_COMPLEX128
I8, I16, I32, I64, U8 = aclnn.ACL_INT8, aclnn.ACL_INT16, aclnn.ACL_INT32, aclnn.ACL_INT64, aclnn.ACL_UINT8
U16, U64, BOOL = aclnn.ACL_UINT16, aclnn.ACL_UINT64, aclnn.ACL_BOOL
ND, NCHW, NC1HWC0 = aclnn.ACL_FORMAT_ND, aclnn.ACL_FORMAT_NCHW, aclnn.ACL_FORMAT_NC1HWC0
NULLPTR, INVALID = 161001, 161002
LARGE = (400, 1000)  # 400 000 elements: every one of the 48 vector cores gets a block, even for 2-byte dtypes
NAMES = {F32: "f32", F16: "f16", BF16: "bf16", F64: "f64", C64: "c64", C128: "c128", I8: "i8", I16: "i16",
         I32: "i32", I64: "i64", U8: "u8", BOOL: "bool"}  # fmt: skip


# -- device helpers ------------------------------------------------------------------------------------------
@pytest.fixture
def npu(stream: int) -> int:
    """The ops session's stream (tests/ops/conftest.py: acl.init, set_device(0), a stream, aclnnInit)."""
    return stream


dev = device_tensor  # malloc + copy in + aclCreateTensor with explicit strides, through emulator.npu


def zeros(dtype: int, shape: tuple[int, ...], fmt: int = ND) -> npu_layer.Tensor:
    return dev(np.zeros(shape, numpy_dtype(dtype)), dtype, fmt=fmt)


def run(stream: int, api: str, *args: Any) -> tuple[int, list[str]]:
    """Phase 1 (must succeed), a workspace of the asked size, phase 2, synchronize: (workspace, launches)."""
    ws, executor, ret = getattr(aclnn, f"{api}GetWorkspaceSize")(*args)
    assert ret == 0, f"{api} phase 1 returned {ret}: {acl.get_recent_err_msg()}"
    launches = [launcher.name for launcher in executor.launchers]
    workspace = 0
    if ws:
        workspace, ret = acl.rt.malloc(ws, 0)
        assert ret == 0
    assert getattr(aclnn, api)(workspace, ws, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    return ws, launches


def phase1_status(api: str, *args: Any) -> int:
    _, _, ret = getattr(aclnn, f"{api}GetWorkspaceSize")(*args)
    return int(ret)


# -- inputs and goldens --------------------------------------------------------------------------------------
def values(dtype: int, shape: tuple[int, ...], domain: str, seed: int = 0) -> np.ndarray:
    """Random inputs of ``dtype``: "real" in [-5, 5], "pos" in [0.05, 10] (integers: small ranges)."""
    rng = np.random.default_rng(seed)
    np_dtype = numpy_dtype(dtype)
    if dtype == BOOL:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np_dtype.kind in "iu":
        lo, hi = (1, 100) if domain == "pos" else ((0, 200) if np_dtype.kind == "u" else (-100, 100))
        if domain == "small":
            lo, hi = (0, 6) if np_dtype.kind == "u" else (-5, 6)
        return rng.integers(lo, hi, shape).astype(np_dtype)
    if np_dtype.kind == "c":
        parts = rng.uniform(-1.0, 1.0, (2, *shape))
        return (parts[0] + 1j * parts[1]).astype(np_dtype)
    lo, hi = (0.05, 10.0) if domain == "pos" else (-5.0, 5.0)
    return rng.uniform(lo, hi, shape).astype(np_dtype)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


GOLDENS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "aclnnAbs": np.abs,
    "aclnnNeg": np.negative,
    "aclnnExp": np.exp,
    "aclnnLog": np.log,
    "aclnnSqrt": np.sqrt,
    "aclnnRsqrt": lambda x: 1.0 / np.sqrt(x),
    "aclnnRelu": lambda x: np.maximum(x, 0),
    "aclnnSigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "aclnnGelu": _gelu_tanh,
    "aclnnSilu": lambda x: x / (1.0 + np.exp(-x)),
    "aclnnTanh": np.tanh,
}
DOMAINS = {"aclnnLog": "pos", "aclnnSqrt": "pos", "aclnnRsqrt": "pos", "aclnnExp": "small", "aclnnTanh": "small",
           "aclnnSigmoid": "small"}  # fmt: skip


def golden(api: str, x: np.ndarray, out_dtype: int) -> np.ndarray:
    """Exact integer math for integer outputs, else float64 / complex128 math."""
    out_np = numpy_dtype(out_dtype)
    if out_np.kind in "iub":
        with np.errstate(over="ignore"):
            return np.asarray(GOLDENS[api](x)).astype(out_np)
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    with np.errstate(all="ignore"):
        return np.asarray(GOLDENS[api](wide))


# -- the value cases: (api, self dtype, out dtype) per supported A2 dtype ------------------------------------
def _same(api: str, dtypes: tuple[int, ...]) -> list[tuple[str, int, int]]:
    return [(api, d, d) for d in dtypes]


def _to(api: str, dtypes: tuple[int, ...], out: int) -> list[tuple[str, int, int]]:
    return [(api, d, out) for d in dtypes]


FLOATS = (F32, F16, BF16)
FLOATS_CPLX = (F32, F16, BF16, F64, C64, C128)
INTS_BOOL = (BOOL, I64, I32, I16, I8, U8)
CASES = [
    *_same("aclnnAbs", (F64, F32, F16, I64, I32, I16, I8, U8, BOOL, BF16)), ("aclnnAbs", C64, F32),
    *_same("aclnnNeg", (I8, I32, I64, F16, F32, F64, C64, C128, BF16)),
    *_same("aclnnExp", FLOATS_CPLX), *_to("aclnnExp", (BOOL, I64), F32),
    *_same("aclnnLog", FLOATS_CPLX), *_to("aclnnLog", INTS_BOOL, F32),
    *_same("aclnnSqrt", FLOATS_CPLX), *_to("aclnnSqrt", INTS_BOOL, F32),
    *_same("aclnnRsqrt", FLOATS_CPLX), *_to("aclnnRsqrt", INTS_BOOL, F32),
    *_same("aclnnRelu", (F32, F16, I8, U8, I32, I64, BF16)),
    *_same("aclnnSigmoid", FLOATS_CPLX), *_to("aclnnSigmoid", INTS_BOOL, F32),
    *_same("aclnnGelu", FLOATS),
    *_same("aclnnSilu", FLOATS),
    *_same("aclnnTanh", FLOATS), *_to("aclnnTanh", INTS_BOOL, F32),
]  # fmt: skip
SHAPES = {"empty": (0,), "one": (1,), "odd": (3, 37), "strided": (3, 37), "large": LARGE}


def _case_id(case: tuple[str, int, int]) -> str:
    api, s, o = case
    return f"{api[5:]}-{NAMES[s]}" + (f"-to-{NAMES[o]}" if o != s else "")


def make_input(api: str, dtype: int, layout: str, seed: int = 0) -> npu_layer.Tensor:
    """The input tensor for a layout: dense, or (``strided``) a transposed view of a (37, 3) storage."""
    domain = DOMAINS.get(api, "real")
    if layout == "strided":
        return dev(values(dtype, (37, 3), domain, seed), dtype, (3, 37), (1, 3))
    return dev(values(dtype, SHAPES[layout], domain, seed), dtype)


@pytest.mark.parametrize("layout", list(SHAPES))
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_values(npu: int, case: tuple[str, int, int], layout: str) -> None:
    """Each supported dtype and layout meets the precision standard (bit-exact for integer outputs)."""
    api, self_dtype, out_dtype = case
    x = make_input(api, self_dtype, layout)
    out = dev(np.full(x.shape, 7, numpy_dtype(out_dtype)), out_dtype)
    ws, launches = run(npu, api, x.handle, out.handle)
    result = out.storage()
    if layout == "empty":
        assert ws == 0 and launches == []
        return
    assert_precision(result, golden(api, view_of(x), out_dtype))


UNARY_APIS = sorted(GOLDENS)


@pytest.mark.parametrize("api", UNARY_APIS)
def test_zero_dim_tensor(npu: int, api: str) -> None:
    """A 0-d float32 tensor (a scalar) is an ordinary one-element input."""
    x = dev(np.array(0.75, np.float32), F32)
    out = zeros(F32, ())
    run(npu, api, x.handle, out.handle)
    assert_precision(out.storage(), golden(api, np.array(0.75, np.float32), F32))


@pytest.mark.parametrize("api", UNARY_APIS)
def test_transposed_output(npu: int, api: str) -> None:
    """A non-contiguous out (a transposed view of its storage) gets the result through the ViewCopy kernel."""
    x = make_input(api, F32, "odd", seed=3)
    out = dev(np.zeros((37, 3), np.float32), F32, (3, 37), (1, 3))
    _, launches = run(npu, api, x.handle, out.handle)
    assert launches[-1] == "ViewCopy"
    assert_precision(out.numpy(), golden(api, view_of(x), F32))


# emulator/opdev/framework.py sizes the ViewCopy kernel by its output (the whole destination storage, here
# 240 elements) instead of the 111-element view, so the kernel indexes past the view and the launch fails.
@pytest.mark.parametrize("api", ["aclnnExp", "aclnnAbs"])
def test_strided_output_in_larger_storage(npu: int, api: str) -> None:
    """An out that is every other column of a larger storage, at view offset 1: other elements stay."""
    x = make_input(api, F32, "odd", seed=3)
    storage = np.full((3, 80), -9.0, np.float32)
    out = dev(storage, F32, (3, 37), (80, 2), 1)
    run(npu, api, x.handle, out.handle)
    after = out.storage()
    assert_precision(view_of(out, after), golden(api, view_of(x), F32))
    mask = np.ones(storage.size, bool)
    mask[1 + np.add.outer(np.arange(3) * 80, np.arange(37) * 2).ravel()] = False
    assert np.array_equal(after.reshape(-1)[mask], storage.reshape(-1)[mask])


INPLACE = {
    "aclnnInplaceNeg": ("aclnnNeg", (I8, I32, I64, F16, F32, F64, C64, C128, BF16)),
    "aclnnInplaceExp": ("aclnnExp", FLOATS_CPLX),
    "aclnnInplaceLog": ("aclnnLog", FLOATS_CPLX),
    "aclnnInplaceSqrt": ("aclnnSqrt", FLOATS_CPLX),
    "aclnnInplaceRsqrt": ("aclnnRsqrt", FLOATS_CPLX),
    "aclnnInplaceRelu": ("aclnnRelu", (F32, F16, I8, I32, I64, BF16)),
    "aclnnInplaceSigmoid": ("aclnnSigmoid", FLOATS_CPLX),
    "aclnnInplaceTanh": ("aclnnTanh", FLOATS),
}
INPLACE_CASES = [(api, d) for api, (_, dtypes) in INPLACE.items() for d in dtypes]


@pytest.mark.parametrize("layout", ["odd", "strided"])
@pytest.mark.parametrize(("api", "dtype"), INPLACE_CASES, ids=[f"{a[12:]}-{NAMES[d]}" for a, d in INPLACE_CASES])
def test_inplace(npu: int, api: str, dtype: int, layout: str) -> None:
    """The in-place variant writes f(selfRef) back into selfRef, also through a strided view."""
    base = INPLACE[api][0]
    x = make_input(base, dtype, layout, seed=5)
    expected = golden(base, view_of(x), dtype)
    run(npu, api, x.handle)
    assert_precision(x.numpy(), expected)


def test_inplace_relu_uint8_is_a_no_op(npu: int) -> None:
    """aclnnInplaceRelu on uint8 launches nothing and needs no workspace (relu is the identity there)."""
    x = make_input("aclnnRelu", U8, "odd")
    ws, launches = run(npu, "aclnnInplaceRelu", x.handle)
    assert (ws, launches) == (0, [])
    assert np.array_equal(x.storage(), initial(x))


@pytest.mark.parametrize("api", ["aclnnInplaceExp", "aclnnInplaceSigmoid", "aclnnInplaceLog"])
def test_inplace_empty(npu: int, api: str) -> None:
    """An empty selfRef: success, no workspace, no launches."""
    x = zeros(F32, (2, 0))
    assert run(npu, api, x.handle) == (0, [])


# -- the L0 composition and AI Core / AI CPU dispatch ---------------------------------------------------------
COMPOSITION = [
    ("aclnnAbs", F32, F32, ["Abs"]),
    ("aclnnAbs", I8, I8, ["Abs(AI CPU)"]),
    ("aclnnAbs", F64, F64, ["Abs(AI CPU)"]),
    ("aclnnAbs", C64, F32, ["ComplexAbs"]),
    ("aclnnAbs", U8, U8, ["TensorMove"]),
    ("aclnnAbs", BOOL, BOOL, ["TensorMove"]),
    ("aclnnNeg", F32, F64, ["Neg", "Cast(AI CPU)"]),
    ("aclnnNeg", C128, C128, ["Neg(AI CPU)"]),
    ("aclnnExp", BOOL, F16, ["Cast", "Exp", "Cast"]),
    ("aclnnExp", C64, C64, ["Exp(AI CPU)"]),
    ("aclnnLog", I32, F32, ["Log(AI CPU)"]),
    ("aclnnLog", BF16, BF16, ["Log"]),
    ("aclnnSqrt", I64, F32, ["Cast(AI CPU)", "Sqrt(AI CPU)", "Cast(AI CPU)"]),
    ("aclnnSqrt", U8, F16, ["Cast", "Sqrt", "Cast"]),
    ("aclnnRsqrt", I32, F16, ["Cast", "Rsqrt"]),
    ("aclnnRsqrt", F64, F32, ["Rsqrt(AI CPU)", "Cast(AI CPU)"]),
    ("aclnnRelu", U8, U8, ["TensorMove"]),
    ("aclnnRelu", I64, I64, ["Relu"]),
    ("aclnnSigmoid", I8, BF16, ["Cast", "Sigmoid"]),
    ("aclnnSigmoid", F64, F64, ["Sigmoid(AI CPU)"]),
    ("aclnnGelu", F16, F16, ["Gelu"]),
    ("aclnnSilu", BF16, BF16, ["Swish"]),
    ("aclnnTanh", I16, F32, ["Cast", "Tanh"]),
    ("aclnnTanh", F16, BF16, ["Tanh", "Cast"]),
]


@pytest.mark.parametrize(("api", "self_dtype", "out_dtype", "expected"), COMPOSITION,
                         ids=[f"{c[0][5:]}-{NAMES[c[1]]}-{NAMES[c[2]]}" for c in COMPOSITION])  # fmt: skip
def test_l0_composition(npu: int, api: str, self_dtype: int, out_dtype: int, expected: list[str]) -> None:
    """The kernels phase 1 records, AI Core or AI CPU by dtype, and the result is right."""
    x = make_input(api, self_dtype, "odd", seed=7)
    out = zeros(out_dtype, x.shape)
    _, launches = run(npu, api, x.handle, out.handle)
    assert launches == expected
    assert_precision(out.storage(), golden(api, view_of(x), out_dtype))


def test_large_input_uses_every_core(npu: int) -> None:
    """400 000 float16 elements: the Exp kernel's tiling gives a block to each of the 48 vector cores."""
    x = make_input("aclnnExp", F16, "large")
    out = zeros(F16, LARGE)
    ws, executor, ret = aclnn.aclnnExpGetWorkspaceSize(x.handle, out.handle)
    assert ret == 0 and ws == 0
    (launcher,) = executor.launchers
    assert aclnn.aclnnExp(0, 0, executor, npu) == 0
    assert acl.rt.synchronize_stream(npu) == 0
    assert launcher.recorded is not None and launcher.recorded.block_dim == 48
    assert_precision(out.storage(), golden("aclnnExp", view_of(x), F16))


def test_noncontiguous_input_needs_workspace(npu: int) -> None:
    """A strided self is gathered (AsStrided) into a workspace intermediate before the kernel."""
    x = make_input("aclnnSigmoid", F32, "strided")
    out = zeros(F32, x.shape)
    ws, launches = run(npu, "aclnnSigmoid", x.handle, out.handle)
    assert launches == ["AsStrided", "Sigmoid"] and ws >= 512
    assert_precision(out.storage(), golden("aclnnSigmoid", view_of(x), F32))


# -- special values and op-specific behaviour ----------------------------------------------------------------
SPECIAL = [
    ("aclnnLog", [0.0, -1.0, 1.0, np.inf], [-np.inf, np.nan, 0.0, np.inf]),
    ("aclnnSqrt", [-1.0, 0.0, 4.0, np.inf], [np.nan, 0.0, 2.0, np.inf]),
    ("aclnnRsqrt", [0.0, -4.0, 4.0, np.inf], [np.inf, np.nan, 0.5, 0.0]),
    ("aclnnExp", [100.0, -200.0, 0.0, -np.inf], [np.inf, 0.0, 1.0, 0.0]),
    ("aclnnSigmoid", [-200.0, 200.0, 0.0, np.nan], [0.0, 1.0, 0.5, np.nan]),
    ("aclnnTanh", [-50.0, 50.0, 0.0, np.nan], [-1.0, 1.0, 0.0, np.nan]),
    ("aclnnSilu", [-200.0, 200.0, 0.0, np.inf], [-0.0, 200.0, 0.0, np.inf]),
    ("aclnnRelu", [-np.inf, np.inf, -0.5, 3.0], [0.0, np.inf, 0.0, 3.0]),
]


@pytest.mark.parametrize(("api", "inputs", "expected"), SPECIAL, ids=[s[0][5:] for s in SPECIAL])
def test_special_values(npu: int, api: str, inputs: list[float], expected: list[float]) -> None:
    """log(0) = -inf, log(x<0) = NaN, rsqrt(0) = +inf, overflow to inf and saturation, float32."""
    x = dev(np.array(inputs, np.float32), F32)
    out = zeros(F32, (len(inputs),))
    run(npu, api, x.handle, out.handle)
    assert_precision(out.storage(), np.array(expected))


def test_integer_negation_and_abs_wrap(npu: int) -> None:
    """-INT_MIN and |INT_MIN| wrap to INT_MIN in int32, as the integer kernels compute."""
    for api in ("aclnnNeg", "aclnnAbs"):
        x = dev(np.array([-(2**31), 5, -7], np.int32), I32)
        out = zeros(I32, (3,))
        run(npu, api, x.handle, out.handle)
        assert out.storage().tolist() == [-(2**31), -5 if api == "aclnnNeg" else 5, 7]


def test_gelu_is_the_tanh_approximation(npu: int) -> None:
    """The A2 Gelu matches 0.5x(1+tanh(√(2/π)(x+0.044715x³))), not the exact erf form."""
    from math import erf

    xs = np.linspace(-4.0, -2.5, 64).astype(np.float32)
    x = dev(xs, F32)
    out = zeros(F32, xs.shape)
    run(npu, "aclnnGelu", x.handle, out.handle)
    result = out.storage()
    assert_precision(result, _gelu_tanh(xs.astype(np.float64)))
    exact = np.array([0.5 * v * (1.0 + erf(v / np.sqrt(2.0))) for v in xs.astype(np.float64)])
    assert not check_precision(result, exact)


def test_silu_accepts_more_than_eight_dims(npu: int) -> None:
    """Silu has no rank limit: a 9-D self is reshaped to 1-D around the Swish kernel."""
    shape = (2, 1, 2, 1, 2, 1, 2, 1, 3)
    x = dev(values(F32, shape, "real"), F32)
    out = zeros(F32, shape)
    _, launches = run(npu, "aclnnSilu", x.handle, out.handle)
    assert launches == ["Swish"]
    assert_precision(out.storage(), golden("aclnnSilu", initial(x), F32))


def test_relu_uint8_out_of_place_is_a_copy(npu: int) -> None:
    """The code accepts uint8 out-of-place, which the documentation does not list: out is a bit-exact
    copy of self."""
    x = make_input("aclnnRelu", U8, "strided")
    out = zeros(U8, x.shape)
    run(npu, "aclnnRelu", x.handle, out.handle)
    assert np.array_equal(out.storage(), view_of(x))


# -- error statuses ------------------------------------------------------------------------------------------
OUT_OF_PLACE = [api for api in UNARY_APIS]


@pytest.mark.parametrize("which", ["self", "out"])
@pytest.mark.parametrize("api", OUT_OF_PLACE)
def test_null_argument(npu: int, api: str, which: str) -> None:
    """A null self or out is ACLNN_ERR_PARAM_NULLPTR."""
    t = zeros(F32, (2, 3)).handle
    args = (None, t) if which == "self" else (t, None)
    assert phase1_status(api, *args) == NULLPTR


@pytest.mark.parametrize("api", sorted(INPLACE))
def test_null_selfref(npu: int, api: str) -> None:
    """A null selfRef is ACLNN_ERR_PARAM_NULLPTR."""
    assert phase1_status(api, None) == NULLPTR


def _t(dtype: int, shape: tuple[int, ...] = (2, 3), fmt: int = ND) -> Callable[[], Any]:
    return lambda: zeros(dtype, shape, fmt).handle


RANK9 = (1,) * 9
INVALID_CASES: list[tuple[str, str, list[Callable[[], Any]]]] = [
    ("aclnnAbs", "self-complex128", [_t(C128), _t(C128)]),
    ("aclnnAbs", "self-uint16", [_t(U16), _t(U16)]),
    ("aclnnAbs", "out-dtype-differs", [_t(F32), _t(F16)]),
    ("aclnnAbs", "complex64-out-not-float", [_t(C64), _t(C64)]),
    ("aclnnAbs", "format-mismatch", [_t(F32, fmt=NCHW), _t(F32)]),
    ("aclnnAbs", "private-format", [_t(F32, fmt=NC1HWC0), _t(F32, fmt=NC1HWC0)]),
    ("aclnnAbs", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnAbs", "shape-differs", [_t(F32), _t(F32, (3, 2))]),
    ("aclnnNeg", "self-int16", [_t(I16), _t(I16)]),
    ("aclnnNeg", "self-bool", [_t(BOOL), _t(BOOL)]),
    ("aclnnNeg", "float-to-int-out", [_t(F32), _t(I32)]),
    ("aclnnNeg", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnNeg", "shape-differs", [_t(F32), _t(F32, (6,))]),
    ("aclnnExp", "self-int32", [_t(I32), _t(F32)]),
    ("aclnnExp", "float-to-int-out", [_t(F32), _t(I32)]),
    ("aclnnExp", "bool-to-bool-out", [_t(BOOL), _t(BOOL)]),
    ("aclnnExp", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnExp", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnLog", "self-uint16", [_t(U16), _t(F32)]),
    ("aclnnLog", "out-int32", [_t(I32), _t(I32)]),
    ("aclnnLog", "complex-to-real-out", [_t(C64), _t(F32)]),
    ("aclnnLog", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnLog", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnSqrt", "self-uint64", [_t(U64), _t(F32)]),
    ("aclnnSqrt", "float-to-int-out", [_t(F32), _t(I32)]),
    ("aclnnSqrt", "int-to-bool-out", [_t(I32), _t(BOOL)]),
    ("aclnnSqrt", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnSqrt", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnRsqrt", "self-uint16", [_t(U16), _t(F32)]),
    ("aclnnRsqrt", "out-int32", [_t(I32), _t(I32)]),
    ("aclnnRsqrt", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnRsqrt", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnRelu", "self-bool", [_t(BOOL), _t(BOOL)]),
    ("aclnnRelu", "self-float64", [_t(F64), _t(F64)]),
    ("aclnnRelu", "out-dtype-differs", [_t(F32), _t(F16)]),
    ("aclnnRelu", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnRelu", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnSigmoid", "self-uint16", [_t(U16), _t(F32)]),
    ("aclnnSigmoid", "out-int32", [_t(F32), _t(I32)]),
    ("aclnnSigmoid", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnSigmoid", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnGelu", "self-float64", [_t(F64), _t(F64)]),
    ("aclnnGelu", "out-dtype-differs", [_t(F16), _t(F32)]),
    ("aclnnGelu", "private-out-format", [_t(F32), _t(F32, fmt=NC1HWC0)]),
    ("aclnnGelu", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnGelu", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnSilu", "self-float64", [_t(F64), _t(F64)]),
    ("aclnnSilu", "out-dtype-differs", [_t(F32), _t(BF16)]),
    ("aclnnSilu", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnTanh", "self-float64", [_t(F64), _t(F32)]),
    ("aclnnTanh", "out-float64", [_t(F32), _t(F64)]),
    ("aclnnTanh", "float-to-int16-out", [_t(I16), _t(I16)]),
    ("aclnnTanh", "format-mismatch", [_t(F32, fmt=NCHW), _t(F32)]),
    ("aclnnTanh", "private-format", [_t(F32, fmt=NC1HWC0), _t(F32, fmt=NC1HWC0)]),
    ("aclnnTanh", "rank-9", [_t(F32, RANK9), _t(F32, RANK9)]),
    ("aclnnTanh", "shape-differs", [_t(F32), _t(F32, (2, 4))]),
    ("aclnnInplaceNeg", "selfref-bool", [_t(BOOL)]),
    ("aclnnInplaceNeg", "rank-9", [_t(F32, RANK9)]),
    ("aclnnInplaceExp", "selfref-bool", [_t(BOOL)]),
    ("aclnnInplaceExp", "selfref-int64", [_t(I64)]),
    ("aclnnInplaceLog", "selfref-int32", [_t(I32)]),
    ("aclnnInplaceLog", "rank-9", [_t(F32, RANK9)]),
    ("aclnnInplaceSqrt", "selfref-int32", [_t(I32)]),
    ("aclnnInplaceRsqrt", "selfref-int8", [_t(I8)]),
    ("aclnnInplaceRelu", "selfref-bool", [_t(BOOL)]),
    ("aclnnInplaceSigmoid", "selfref-int32", [_t(I32)]),
    ("aclnnInplaceTanh", "selfref-int32", [_t(I32)]),
    ("aclnnInplaceTanh", "selfref-int16", [_t(I16)]),
    ("aclnnInplaceTanh", "rank-9", [_t(F32, RANK9)]),
]


@pytest.mark.parametrize(("api", "what", "makers"), INVALID_CASES, ids=[f"{c[0][5:]}-{c[1]}" for c in INVALID_CASES])
def test_invalid_parameter(npu: int, api: str, what: str, makers: list[Callable[[], Any]]) -> None:
    """Each documented 161002 condition (dtype, out dtype / castability, format, rank, shape) is rejected."""
    assert phase1_status(api, *(make() for make in makers)) == INVALID
