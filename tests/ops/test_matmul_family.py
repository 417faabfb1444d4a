"""The matmul family of issue 15 (aclnnMv, ...) end to end against float64 numpy goldens.

Each op: the documented example's values, a non-trivial case (strided views, every dtype path, the
empty shortcuts) and the statuses its real L2 checks, with the aclGetRecentErrMsg text.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from reduce_helpers import INVALID, NP, NULLPTR, Npu, check, values

from emulator import acl, aclnn, npu, process
from emulator.config import Settings

A = aclnn
F32, F16, B16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16


def _mv(npu: Npu, a: np.ndarray, v: np.ndarray, dtype: int, mode: int = 0, strided: bool = False) -> tuple:
    self_t, vec_t = npu.tensor(a, dtype, strided=strided), npu.tensor(v, dtype, strided=strided)
    out = npu.output((a.shape[0],), dtype, strided=strided)
    status, names = npu.run(A.aclnnMvGetWorkspaceSize, A.aclnnMv, self_t.handle, vec_t.handle, out.handle, mode)
    assert status == 0, acl.get_recent_err_msg()
    return out.numpy(), names


def test_mv_documented_example() -> None:
    """The official example: [[1, 2, 3], [4, 5, 6]] x [7, 8, 9] = [50, 122] (cubeMathType 1)."""
    npu = Npu()
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    actual, names = _mv(npu, a, np.array([7, 8, 9], np.float32), F32, mode=1)
    np.testing.assert_array_equal(actual, [50, 122])
    assert names == ["MatMulV3"]


@pytest.mark.parametrize(
    ("dtype", "strided"), [(F32, False), (F16, True), (B16, False)], ids=["f32", "f16-strided", "bf16"]
)
def test_mv_dtypes_and_views(dtype: int, strided: bool) -> None:
    """Each dtype: a float32-accumulated product rounded once; strided views are copied, gaps kept."""
    npu = Npu()
    rng = np.random.default_rng(150)
    a, v = values((37, 300), NP[dtype], rng), values((300,), NP[dtype], rng)
    actual, names = _mv(npu, a, v, dtype, strided=strided)
    check(actual, a.astype(np.float64) @ v.astype(np.float64))
    assert names.count("MatMulV3") == 1 and names.count("AsStrided") == (2 if strided else 0)


def test_mv_empty() -> None:
    """An empty out launches nothing; m == 0 gives zeros through ZerosLike."""
    npu = Npu()
    _, names = _mv(npu, np.zeros((0, 4), np.float32), np.ones(4, np.float32), F32)
    assert names == []
    actual, names = _mv(npu, np.zeros((3, 0), np.float16), np.zeros(0, np.float16), F16)
    np.testing.assert_array_equal(actual, np.zeros(3, np.float16))
    assert names == ["ZerosLike"]


MV_STATUSES = [
    ("null self", lambda t: (None, t((3,)), t((2,)), 0), NULLPTR, "expected self not to be a null pointer"),
    ("null vec", lambda t: (t((2, 3)), None, t((2,)), 0), NULLPTR, "expected vec not to be a null pointer"),
    ("null out", lambda t: (t((2, 3)), t((3,)), None, 0), NULLPTR, "expected out not to be a null pointer"),
    ("out dtype", lambda t: (t((2, 3)), t((3,)), t((2,), F16), 0), INVALID, "out dtype DT_FLOAT16 should be DT_FLOAT"),
    ("self dtype", lambda t: (t((2, 3), F16), t((3,)), t((2,)), 0), INVALID, "self dtype DT_FLOAT16 should be"),
    ("int32", lambda t: (t((2, 3), A.ACL_INT32), t((3,), A.ACL_INT32), t((2,), A.ACL_INT32), 0), INVALID,
     "should be in dtype support list"),
    ("self rank", lambda t: (t((2, 3, 1)), t((3,)), t((2,)), 0), INVALID, "self dim 3 should be 2"),
    ("vec rank", lambda t: (t((2, 3)), t((3, 1)), t((2,)), 0), INVALID, "vec dim 2 should be 1"),
    ("vec size", lambda t: (t((2, 3)), t((4,)), t((2,)), 0), INVALID, "vec shape [4] should be [3]"),
    ("out size", lambda t: (t((2, 3)), t((3,)), t((3,)), 0), INVALID, "out shape [3] should be [2]"),
    ("cubeMathType", lambda t: (t((2, 3)), t((3,)), t((2,)), 5), INVALID, "cubeMathType 5 is not supported"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in MV_STATUSES], ids=[c[0] for c in MV_STATUSES])
def test_mv_statuses(args, status: int, text: str) -> None:  # type: ignore[no-untyped-def]
    """Nulls 161001; dtype, rank, size and cubeMathType 161002, with the real check's text."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int = F32) -> object:
        return npu.output(shape, dtype).handle

    _, executor, ret = A.aclnnMvGetWorkspaceSize(*args(t))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()
    _, executor, ret = A.aclnnMvGetWorkspaceSize(t((2, 3)), t((3,)), t((2,)), 4)  # 4 is routed to KEEP_DTYPE
    assert ret == 0 and executor is not None
    assert A.aclDestroyAclOpExecutor(executor) == 0


# -- TriangularSolve ------------------------------------------------------------------------------------------
def _solve(npu: Npu, b: np.ndarray, a: np.ndarray, dtype: int, upper: bool, transpose: bool, unit: bool,
           with_m: bool = True) -> tuple[np.ndarray, np.ndarray | None, list[str]]:  # fmt: skip
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    self_t, a_t = npu.tensor(b, dtype), npu.tensor(a, dtype, strided=True)
    x_out = npu.output((*batch, *b.shape[-2:]), dtype)
    m_out = npu.output((*batch, *a.shape[-2:]), dtype) if with_m else None
    status, names = npu.run(A.aclnnTriangularSolveGetWorkspaceSize, A.aclnnTriangularSolve, self_t.handle, a_t.handle,
                            upper, transpose, unit, x_out.handle, m_out.handle if m_out else None)  # fmt: skip
    assert status == 0, acl.get_recent_err_msg()
    return x_out.numpy(), (m_out.numpy() if m_out else None), names


def test_triangular_solve_documented_example() -> None:
    """The official example: upper A [[1, 2, 3], [0, 4, 5], [0, 0, 6]], b [1, 2, 3] -> [-0.25, -0.125, 0.5]."""
    a = np.array([[1, 2, 3], [0, 4, 5], [0, 0, 6]], np.float32)
    x, m, names = _solve(Npu(), np.array([[1], [2], [3]], np.float32), a, F32, True, False, False)
    np.testing.assert_allclose(x.ravel(), [-0.25, -0.125, 0.5], rtol=1e-6)
    np.testing.assert_array_equal(m, a)
    assert "MatrixTriangularSolve(AI CPU)" in names


@pytest.mark.parametrize(
    ("dtype", "upper", "transpose", "unit", "with_m"),
    [(A.ACL_DOUBLE, False, False, False, True), (F32, True, True, True, False), (A.ACL_COMPLEX64, False, True, False,
                                                                                   True)],
    ids=["f64-lower-broadcast", "f32-upper-transpose-unit", "c64-adjoint"],
)  # fmt: skip
def test_triangular_solve_cases(dtype: int, upper: bool, transpose: bool, unit: bool, with_m: bool) -> None:
    """Batched and broadcast systems against numpy.linalg.solve of the triangle (float64 / complex128)."""
    rng = np.random.default_rng(151)
    a = rng.standard_normal((2, 1, 5, 5)) + 4 * np.eye(5)
    b = rng.standard_normal((3, 5, 2))
    if dtype == A.ACL_COMPLEX64:
        a, b = a + 1j * rng.standard_normal(a.shape), b + 1j * rng.standard_normal(b.shape)
    host = NP[dtype]
    a, b = a.astype(host), b.astype(host)
    x, m, _ = _solve(Npu(), b, a, dtype, upper, transpose, unit, with_m)
    tri = np.triu(a) if upper else np.tril(a)
    if unit:
        tri = tri * (1 - np.eye(5)) + np.eye(5)
    lhs = np.conj(np.swapaxes(tri, -1, -2)) if transpose else tri
    gold = np.linalg.solve(lhs.astype(np.complex128 if dtype == A.ACL_COMPLEX64 else np.float64), np.broadcast_to(
        b, (2, 3, 5, 2)))  # fmt: skip
    check(x, gold)
    if with_m:
        np.testing.assert_array_equal(m, np.broadcast_to(a, (2, 3, 5, 5)))


def test_triangular_solve_empty() -> None:
    """An empty self launches nothing."""
    _, _, names = _solve(Npu(), np.zeros((3, 0), np.float32), np.eye(3, dtype=np.float32), F32, True, False, False)
    assert names == []


TS_STATUSES = [
    ("null self", lambda t: (None, t((3, 3)), True, False, False, t((3, 1)), None), 561103,
     "expected self not to be a null pointer"),
    ("null xOut", lambda t: (t((3, 1)), t((3, 3)), True, False, False, None, None), 561103,
     "expected xOut not to be a null pointer"),
    ("f16", lambda t: (t((3, 1), F16), t((3, 3), F16), True, False, False, t((3, 1), F16), None), INVALID,
     "self dtype DT_FLOAT16 should be in dtype support list"),
    ("A dtype", lambda t: (t((3, 1)), t((3, 3), A.ACL_DOUBLE), True, False, False, t((3, 1)), None), INVALID,
     "A dtype DT_DOUBLE should be DT_FLOAT"),
    ("mOut dtype", lambda t: (t((3, 1)), t((3, 3)), True, False, False, t((3, 1)), t((3, 3), A.ACL_DOUBLE)), INVALID,
     "mOut dtype DT_DOUBLE should be DT_FLOAT"),
    ("1-D", lambda t: (t((3,)), t((3, 3)), True, False, False, t((3, 1)), None), INVALID, "self dim 1 should be at "
     "least 2"),
    ("9-D", lambda t: (t((1,) * 7 + (3, 1)), t((3, 3)), True, False, False, t((1,) * 7 + (3, 1)), None), INVALID,
     "self dim 9 should be at most 8"),
    ("not square", lambda t: (t((3, 1)), t((3, 2)), True, False, False, t((3, 1)), None), INVALID,
     "A must be batchs of square matrices, but they are 3 by 2 matrices."),
    ("rows", lambda t: (t((2, 1)), t((3, 3)), True, False, False, t((2, 1)), None), INVALID,
     "Incompatible matrix sizes for triangular_solve"),
    ("batch", lambda t: (t((2, 3, 1)), t((3, 3, 3)), True, False, False, t((3, 3, 1)), None), INVALID,
     "Broadcast fail"),
    ("xOut shape", lambda t: (t((3, 1)), t((3, 3)), True, False, False, t((3, 2)), None), INVALID,
     "xOut shape [3, 2] should be [3, 1]"),
    ("mOut shape", lambda t: (t((2, 3, 1)), t((3, 3)), True, False, False, t((2, 3, 1)), t((3, 3))), INVALID,
     "mOut shape [3, 3] should be [2, 3, 3]"),
    ("unit f64", lambda t: (t((3, 1), A.ACL_DOUBLE), t((3, 3), A.ACL_DOUBLE), True, False, True,
                            t((3, 1), A.ACL_DOUBLE), None), INVALID, "unitriangular mode only support float."),
]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in TS_STATUSES], ids=[c[0] for c in TS_STATUSES])
def test_triangular_solve_statuses(args, status: int, text: str) -> None:  # type: ignore[no-untyped-def]
    """Nulls 561103 (the real check's status); dtype, rank, shape and unitriangular 161002, with the texts."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int = F32) -> object:
        return npu.output(shape, dtype).handle

    _, executor, ret = A.aclnnTriangularSolveGetWorkspaceSize(*args(t))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


# -- WeightQuantBatchMatmulV2 ----------------------------------------------------------------------------------
I8, I4 = A.ACL_INT8, A.ACL_INT4


def _pack_int4(w: np.ndarray) -> np.ndarray:
    """Two int4 per byte, the lower index in the low nibble."""
    flat = (w.reshape(-1).astype(np.int16) & 0xF).astype(np.uint8)
    return flat[0::2] | (flat[1::2] << 4)


def _weight(npu: Npu, w: np.ndarray, dtype: int, transposed: bool) -> object:
    """The (k, n) weight on the device: dense, or (llama.cpp's layout) the transposed view of a dense (n, k)."""
    k, n = w.shape
    stored = np.ascontiguousarray(w.T) if transposed else w
    data = npu.tensor(_pack_int4(stored), A.ACL_UINT8) if dtype == I4 else npu.tensor(stored, I8)
    strides = [1, k] if transposed else [n, 1]
    storage = [n, k] if transposed else [k, n]
    return A.aclCreateTensor([k, n], 2, dtype, strides, 0, A.ACL_FORMAT_ND, storage, 2, data.addr)


def _scale_view(npu: Npu, s: np.ndarray, dtype: int, transposed: bool) -> object:
    """A 2-D scale / offset, as the transposed view of its dense transpose when the weight is transposed."""
    if not transposed or s.ndim == 1:
        return npu.tensor(s, dtype).handle
    r, c = s.shape
    data = npu.tensor(np.ascontiguousarray(s.T), dtype)
    return A.aclCreateTensor([r, c], 2, dtype, [1, r], 0, A.ACL_FORMAT_ND, [c, r], 2, data.addr)


def _wqbmm_golden(x: np.ndarray, w: np.ndarray, scale: np.ndarray, offset: np.ndarray | None, group: int,
                  bias: np.ndarray | None) -> np.ndarray:  # fmt: skip
    """float64: x @ ((w + offset) * scale) + bias with the scale row of each k by the group rule."""
    k, n = w.shape
    s2 = scale.reshape(-1, scale.shape[-1]) if scale.ndim == 2 else scale.reshape(1, -1)
    rows = np.arange(k) // group if group else np.zeros(k, int)
    s_full = np.broadcast_to(s2[rows], (k, n)).astype(np.float64)
    o_full = 0.0 if offset is None else np.broadcast_to(offset.reshape(s2.shape)[rows], (k, n)).astype(np.float64)
    deq = ((w.astype(np.float64) + o_full) * s_full).astype(x.dtype).astype(np.float64)
    out = x.astype(np.float64) @ deq
    return out if bias is None else out + bias.astype(np.float64).reshape(-1)


def test_wqbmm_documented_example() -> None:
    """The official example: x of ones (16 x 32), an int8 weight of ones, per-channel scale 1: every y is 32."""
    npu = Npu()
    m, k, n = 16, 32, 16
    x = npu.tensor(np.ones((m, k), np.float16), F16)
    scale = npu.tensor(np.ones(n, np.float16), F16)
    y = npu.output((m, n), F16)
    status, names = npu.run(A.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, A.aclnnWeightQuantBatchMatmulV2,
                            x.handle, _weight(npu, np.ones((k, n), np.int8), I8, False), scale.handle, None, None, None,
                            None, 0, y.handle)  # fmt: skip
    assert status == 0
    np.testing.assert_array_equal(y.numpy(), np.full((m, n), 32, np.float16))
    assert names == ["WeightQuantBatchMatmulV2"]


WQ_CASES = {
    # name: (x dtype, weight dtype, transposed, scale shape kind, offset, bias, group)
    "llama-int4-group": (F16, I4, True, "group", False, False, 32),
    "llama-int8-group": (F16, I8, True, "group", False, False, 32),
    "int8-channel-offset-bias": (F16, I8, False, "channel", True, True, 0),
    "bf16-int4-tensor-bias": (B16, I4, False, "tensor", True, True, 0),
    "bf16-int8-group64-offset": (B16, I8, False, "group", True, False, 64),
}


@pytest.mark.parametrize("case", list(WQ_CASES))
def test_wqbmm_cases(case: str) -> None:
    """Per-tensor, per-channel and per-group antiquant with offsets, bias, int4 and transposed weights."""
    x_dtype, w_dtype, transposed, kind, with_offset, with_bias, group = WQ_CASES[case]
    npu = Npu()
    rng = np.random.default_rng(152)
    m, k, n = 5, 192, 130
    x = rng.uniform(-1, 1, (m, k)).astype(NP[x_dtype])
    w = rng.integers(-8, 8, (k, n)).astype(np.int8)
    shape = {"tensor": (1,), "channel": (1, n), "group": (-(-k // max(group, 1)), n)}[kind]
    scale = rng.uniform(0.01, 0.1, shape).astype(NP[x_dtype])
    offset = rng.uniform(-2, 2, shape).astype(NP[x_dtype]) if with_offset else None
    bias_dtype = F16 if x_dtype == F16 else F32
    bias = rng.uniform(-1, 1, (n,)).astype(NP[bias_dtype]) if with_bias else None
    y = npu.output((m, n), x_dtype)
    args = (npu.tensor(x, x_dtype).handle, _weight(npu, w, w_dtype, transposed),
            _scale_view(npu, scale, x_dtype, transposed),
            _scale_view(npu, offset, x_dtype, transposed) if offset is not None else None, None, None,
            npu.tensor(bias, bias_dtype).handle if bias is not None else None, group, y.handle)  # fmt: skip
    status, _ = npu.run(A.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, A.aclnnWeightQuantBatchMatmulV2, *args)
    assert status == 0, acl.get_recent_err_msg()
    check(y.numpy(), _wqbmm_golden(x, w, scale, offset, group, bias))


def test_wqbmm_int8_output() -> None:
    """quantScaleOptional (float32 bits in UINT64) and quantOffsetOptional requantise y to saturated int8."""
    npu = Npu()
    rng = np.random.default_rng(153)
    m, k, n = 4, 64, 32
    x = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    w = rng.integers(-127, 128, (k, n)).astype(np.int8)
    scale = rng.uniform(0.01, 0.05, (n,)).astype(np.float16)
    q_scale = rng.uniform(1, 4, n).astype(np.float32)
    q_offset = rng.uniform(-3, 3, n).astype(np.float32)
    words = q_scale.view(np.uint32).astype(np.uint64)
    y = npu.output((m, n), I8)
    status, _ = npu.run(A.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, A.aclnnWeightQuantBatchMatmulV2,
                        npu.tensor(x, F16).handle, _weight(npu, w, I8, False), npu.tensor(scale, F16).handle, None,
                        npu.session.tensor(words, A.ACL_UINT64).handle, npu.tensor(q_offset, F32).handle, None, 0,
                        y.handle)  # fmt: skip
    assert status == 0, acl.get_recent_err_msg()
    golden = np.clip(np.rint(_wqbmm_golden(x, w, scale, None, 0, None) * q_scale + q_offset), -128, 127)
    assert np.abs(y.numpy().astype(np.int64) - golden).max() <= 1  # float32 vs float64 rounding at .5 boundaries


def _wq_statuses() -> list[tuple[str, Callable[..., tuple], int, str]]:
    m, k, n = 2, 64, 32

    def base(t: Callable[..., object], **over: object) -> tuple:
        args: dict[str, object] = {"x": t((m, k), F16), "weight": t((k, n), I8), "scale": t((n,), F16), "offset": None,
                                   "qs": None, "qo": None, "bias": None, "group": 0, "y": t((m, n), F16)}  # fmt: skip
        args.update(over)
        return tuple(args.values())

    return [
        ("null x", lambda t: base(t, x=None), NULLPTR, "expected x not to be a null pointer"),
        ("null scale", lambda t: base(t, scale=None), NULLPTR, "expected antiquantScale not to be a null pointer"),
        ("x strided", lambda t: base(t, x=t((m, k), F16, True)), INVALID, "only support x tensor is contiguous"),
        ("x f32", lambda t: base(t, x=t((m, k), F32)), INVALID, "x dtype DT_FLOAT should be in dtype support list"),
        ("weight int32", lambda t: base(t, weight=t((k, n), A.ACL_INT32)), INVALID, "weight dtype DT_INT32 should be"),
        ("y dtype", lambda t: base(t, y=t((m, n), B16)), INVALID, "y's dtype should be same as x"),
        ("3-D x", lambda t: base(t, x=t((1, m, k), F16), y=t((1, m, n), F16)), INVALID,
         "dim should be in range [2, 2]"),
        ("scale dtype", lambda t: base(t, scale=t((n,), B16)), INVALID, "x's dtype must be same as antiquantScale's"),
        ("bias dtype", lambda t: base(t, bias=t((n,), F32)), INVALID, "biasOptional's dtype should be [DT_FLOAT16]"),
        ("quantOffset alone", lambda t: base(t, qo=t((n,), F32)), INVALID, "quantScaleOptional is null and "
         "quantOffsetOptional"),
        ("k differs", lambda t: base(t, weight=t((k + 32, n), I8)), INVALID, "x's k and weight's k should be equal"),
        ("k too big", lambda t: base(t, x=t((m, 65536), F16), weight=t((65536, n), I8)), INVALID,
         "k,n shouldn't be larger than 65535"),
        ("int4 odd n", lambda t: base(t, weight=t((k, 31), I4), scale=t((31,), F16), y=t((m, 31), F16)), INVALID,
         "n[31] should be an even number"),
        ("y shape", lambda t: base(t, y=t((m, n + 1), F16)), INVALID, "y's n and weight's n should be equal"),
        ("group 48", lambda t: base(t, group=48, scale=t((2, n), F16)), INVALID, "integer multiple of 32"),
        ("group k", lambda t: base(t, group=64, scale=t((1, n), F16)), INVALID, "should not be greater than k-1"),
        ("group shape", lambda t: base(t, group=32, scale=t((3, n), F16)), INVALID,
         "antiquantScale shape must be [2, 32] when the size is 2 and with group size"),
        ("channel shape", lambda t: base(t, scale=t((n - 1,), F16)), INVALID, "antiquantScale shape must be [1] or"),
        ("offset shape", lambda t: base(t, offset=t((1,), F16)), INVALID, "The ViewShape of antiquant offset"),
        ("bias shape", lambda t: base(t, bias=t((2, n), F16)), INVALID, "biasOptional's shape should be one of"),
    ]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in _wq_statuses()],
                         ids=[c[0] for c in _wq_statuses()])  # fmt: skip
def test_wqbmm_statuses(args: Callable[..., tuple], status: int, text: str) -> None:
    """Each check of the real A2 L2 in its order, with its status and text."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int, strided: bool = False) -> object:
        if dtype == I4:
            return A.aclCreateTensor(list(shape), 2, I4, [shape[1], 1], 0, A.ACL_FORMAT_ND, list(shape), 2,
                                     npu.output((shape[0] * shape[1] // 2 + 1,), A.ACL_UINT8).addr)  # fmt: skip
        if dtype == I8 or dtype == A.ACL_INT32:
            return npu.output(shape, dtype).handle
        return npu.output(shape, dtype, strided=strided).handle

    _, executor, ret = A.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(*args(t))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


# -- TransMatmulWeight and aclnnCalculateMatmulWeightSizeV2 ------------------------------------------------
@pytest.mark.parametrize(
    ("shape", "dtype", "size"),
    [((33, 20), I8, 48 * 32), ((33, 20), F16, 48 * 32), ((2, 16, 64), B16, 2 * 16 * 64), ((1, 1), F32, 16 * 32)],
    ids=["int8", "f16", "bf16-batch", "f32"],
)  # fmt: skip
def test_calculate_weight_size(shape: tuple[int, ...], dtype: int, size: int) -> None:
    """Batch x align(K, 16) x align(N, 16 for F16 / BF16, else 32) elements."""
    Npu()
    got, ret = A.aclnnCalculateMatmulWeightSizeV2(A.aclCreateIntArray(list(shape), len(shape)), dtype)
    assert (got, ret) == (size, 0)


@pytest.mark.parametrize(
    ("shape", "status", "text"),
    [(None, NULLPTR, "expected tensorShape not to be a null pointer"),
     ([3], INVALID, "tensorShape has 2-6 dimensions, but got dimensions 1"),
     ([1] * 7, INVALID, "but got dimensions 7"), ([4, 0], INVALID, "No zeros are allow in shape")],
    ids=["null", "1-D", "7-D", "zero"],
)  # fmt: skip
def test_calculate_weight_size_statuses(shape: list[int] | None, status: int, text: str) -> None:
    """Null 161001; rank and zero dims 161002; the size out-value is 0 on failure."""
    Npu()
    array = A.aclCreateIntArray(shape, len(shape)) if shape is not None else None
    assert A.aclnnCalculateMatmulWeightSizeV2(array, F16) == (0, status)
    assert text in acl.get_recent_err_msg()


@pytest.mark.parametrize(("dtype", "shape"), [(F16, (33, 20)), (I8, (2, 40, 70))], ids=["f16", "int8-batch"])
def test_trans_matmul_weight(dtype: int, shape: tuple[int, ...]) -> None:
    """In place to FRACTAL_NZ: storage (..., N/C0, K/16, 16, C0), element (k, n) at [n//C0, k//16, k%16, n%C0]."""
    npu = Npu()
    host = NP[dtype]
    w = (np.arange(int(np.prod(shape))) % 97 + 1).astype(host).reshape(shape)
    size, _ = A.aclnnCalculateMatmulWeightSizeV2(A.aclCreateIntArray(list(shape), len(shape)), dtype)
    storage = np.zeros(size, host)
    storage[: w.size] = w.reshape(-1)
    dev = npu.tensor(storage, dtype)
    weight = A.aclCreateTensor(list(shape), len(shape), dtype, list(np.array(w.strides) // w.itemsize), 0,
                               A.ACL_FORMAT_ND, list(shape), len(shape), dev.addr)  # fmt: skip
    status, names = npu.run(A.aclnnTransMatmulWeightGetWorkspaceSize, A.aclnnTransMatmulWeight, weight)
    assert status == 0 and names == ["TransData"]
    c0 = 16 if dtype == F16 else 32
    *batch, k, n = shape
    nz_shape = [*batch, -(-n // c0), -(-k // 16), 16, c0]
    assert A.aclGetStorageShape(weight) == (nz_shape, 0)
    assert A.aclGetViewShape(weight) == (list(shape), 0)
    nz = dev.storage().reshape(nz_shape)
    for index in [(0,) * len(shape), tuple(d - 1 for d in shape), (*([0] * len(batch)), k // 2, n // 3)]:
        *b, kk, nn = index
        assert nz[(*b, nn // c0, kk // 16, kk % 16, nn % c0)] == w[index]
    assert int(np.count_nonzero(nz)) == w.size  # the padding is zero


@pytest.mark.parametrize(
    ("dtype", "shape", "fmt", "status", "text"),
    [(F32, (4, 4), A.ACL_FORMAT_ND, INVALID, "mmWeightRef dtype DT_FLOAT should be in dtype support list"),
     (F16, (4, 4), A.ACL_FORMAT_NCHW, INVALID, "the format of input should be ND"),
     (F16, (4,), A.ACL_FORMAT_ND, INVALID, "tensorShape has 2-6 dimensions, but got dimensions 1")],
    ids=["f32", "nchw", "1-D"],
)  # fmt: skip
def test_trans_matmul_weight_statuses(dtype: int, shape: tuple[int, ...], fmt: int, status: int, text: str) -> None:
    """Null 161001; dtype, format and rank 161002 with the real texts."""
    npu = Npu()
    assert A.aclnnTransMatmulWeightGetWorkspaceSize(None)[2] == NULLPTR
    data = npu.output(shape, dtype)
    strides = [1] if len(shape) == 1 else [shape[1], 1]
    weight = A.aclCreateTensor(list(shape), len(shape), dtype, strides, 0, fmt, list(shape), len(shape), data.addr)
    _, executor, ret = A.aclnnTransMatmulWeightGetWorkspaceSize(weight)
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


def _nz_weight(npu: Npu, w: np.ndarray, dtype: int) -> object:
    """The official flow: a buffer of CalculateMatmulWeightSize(V2) elements holding the (k, n) weight,
    an ND tensor over it, made FRACTAL_NZ in place by aclnnTransMatmulWeight."""
    k, n = w.shape
    if dtype == F16:
        size, _ = A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray([k, n], 2))
    else:
        size, _ = A.aclnnCalculateMatmulWeightSizeV2(A.aclCreateIntArray([k, n], 2), dtype)
    storage = np.zeros(size, w.dtype)
    storage[: w.size] = w.reshape(-1)
    dev = npu.tensor(storage, dtype)
    weight = A.aclCreateTensor([k, n], 2, dtype, [n, 1], 0, A.ACL_FORMAT_ND, [size], 1, dev.addr)
    assert npu.run(A.aclnnTransMatmulWeightGetWorkspaceSize, A.aclnnTransMatmulWeight, weight)[0] == 0
    assert weight.storage_format == A.ACL_FORMAT_FRACTAL_NZ
    return weight


@pytest.mark.parametrize(
    ("shape", "size"), [((33, 20), 48 * 32), ((2, 16, 64), 2 * 16 * 64), ((4, 0), 0)], ids=["2-D", "3-D", "zero"]
)  # fmt: skip
def test_calculate_weight_size_v1(shape: tuple[int, ...], size: int) -> None:
    """The v1 function sizes a float16 weight (N aligned to 16) and, unlike V2, lets a zero dim through."""
    Npu()
    assert A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray(list(shape), len(shape))) == (size, 0)


def test_calculate_weight_size_v1_statuses() -> None:
    """Null 161001; on A2 fewer than 2 or more than 6 dims 161002; on 310P anything but 2 dims 161002."""
    Npu()
    assert A.aclnnCalculateMatmulWeightSize(None) == (0, NULLPTR)
    assert "expected tensorShape not to be a null pointer" in acl.get_recent_err_msg()
    assert A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray([1] * 7, 7)) == (0, INVALID)
    assert "tensorShape has 2-6 dimensions, but got dimensions 7" in acl.get_recent_err_msg()
    settings = Settings.from_env().model_copy(update={"soc": "Ascend310P3"})
    with process.fresh(settings), npu.Session():
        assert A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray([2, 16, 16], 3)) == (0, INVALID)
        assert "tensorShape has 2 dimensions, but got dimensions 3" in acl.get_recent_err_msg()
        assert A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray([20, 17], 2)) == (32 * 32, 0)


@pytest.mark.parametrize(
    ("api", "dtype", "self_shape"),
    [("Mm", F16, (5, 40)), ("Mm", B16, (5, 40)), ("Matmul", F16, (2, 3, 40))], ids=["mm-f16", "mm-bf16", "matmul-3d"]
)  # fmt: skip
def test_mm_reads_trans_matmul_weight_nz(api: str, dtype: int, self_shape: tuple[int, ...]) -> None:
    """aclnnMm / aclnnMatmul read a weight aclnnTransMatmulWeight made FRACTAL_NZ: the float64 golden of
    the weight as it was before the conversion, K and N not multiples of 16."""
    npu = Npu()
    rng = np.random.default_rng(155)
    k, n = 40, 70
    w = values((k, n), NP[dtype], rng)
    weight = _nz_weight(npu, w, dtype)
    x = values(self_shape, NP[dtype], rng)
    out = npu.output((*self_shape[:-1], n), dtype)
    phases = getattr(A, f"aclnn{api}GetWorkspaceSize"), getattr(A, f"aclnn{api}")
    status, names = npu.run(*phases, npu.tensor(x, dtype).handle, weight, out.handle, 1)
    assert status == 0, acl.get_recent_err_msg()
    assert "TransData" not in names and "Contiguous" not in names
    check(out.numpy(), np.matmul(x.astype(np.float64), w.astype(np.float64)))


def test_mm_nz_weight_statuses() -> None:
    """161002: aclnnMatmul's NZ self / out and float16-bfloat16 mixes with an NZ weight (real texts); an NZ
    weight that would need a Cast of its fractals (not emulated)."""
    npu = Npu()
    rng = np.random.default_rng(156)
    weight = _nz_weight(npu, values((32, 16), np.dtype(np.float16), rng), F16)
    xbf, x32 = (npu.tensor(np.ones((4, 32)), d).handle for d in (B16, F32))
    nz_self = _nz_weight(npu, values((4, 32), np.dtype(np.float16), rng), F16)
    out16, out32 = npu.output((4, 16), F16).handle, npu.output((4, 16), F32).handle
    cases = [
        (A.aclnnMatmulGetWorkspaceSize, (nz_self, weight, out16), "'self' or 'out' tensor currently does not support"),
        (A.aclnnMatmulGetWorkspaceSize, (xbf, weight, out16), "must be both DT_BF16 or both DT_FLOAT16"),
        (A.aclnnMmGetWorkspaceSize, (x32, weight, out32), "must already have the compute dtype DT_FLOAT"),
    ]
    for phase1, args, text in cases:
        _, executor, ret = phase1(*args, 1)
        assert (ret, executor) == (INVALID, None), text
        assert text in acl.get_recent_err_msg()


def test_wqbmm_reads_trans_matmul_weight_nz() -> None:
    """The official CalculateMatmulWeightSizeV2 flow: an int8 weight made FRACTAL_NZ in place, then WQBMM."""
    npu = Npu()
    rng = np.random.default_rng(154)
    m, k, n = 3, 40, 70
    w = rng.integers(-8, 8, (k, n)).astype(np.int8)
    weight = _nz_weight(npu, w, I8)
    x = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    scale = rng.uniform(0.01, 0.1, (n,)).astype(np.float16)
    y = npu.output((m, n), F16)
    status, _ = npu.run(A.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, A.aclnnWeightQuantBatchMatmulV2,
                        npu.tensor(x, F16).handle, weight, npu.tensor(scale, F16).handle, None, None, None, None, 0,
                        y.handle)  # fmt: skip
    assert status == 0, acl.get_recent_err_msg()
    check(y.numpy(), _wqbmm_golden(x, w, scale, None, 0, None))
