"""aclnnSwiGlu, aclnnGeGlu / aclnnGeGluV3 (the gated units), aclnnLogSoftmax and aclnnAddRmsNorm end to end.

Per op: the official example's values, every A2 dtype against a float64 numpy golden under the
precision standard, a middle and a negative dim, strided inputs and outputs, the empty case, and
every status the real code returns with its aclGetRecentErrMsg text (SwiGlu's generated API: 161001
/ 161002 / 561001).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, random_values, run_op, to_device

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
NULLPTR, INVALID, INFERSHAPE = 161001, 161002, 561001
FLOATS = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)


def assert_rejected(result: tuple[Any, ...], code: int, text: str) -> None:
    """Phase 1 failed with ``code`` and left ``text`` in aclGetRecentErrMsg."""
    assert result[-1] == code, acl.get_recent_err_msg()
    assert text in acl.get_recent_err_msg()


def kernels(executor: Any) -> list[str]:
    return [launcher.name for launcher in executor.launchers]


def halves(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    return a, b


def gelu64(v: np.ndarray, approximate: int) -> np.ndarray:
    if approximate:
        return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3)))
    return 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))


# -- aclnnSwiGlu -------------------------------------------------------------------------------------
def test_swi_glu_documented_example(stream: int) -> None:
    """The official example: a 2x32 float tensor 0..63 split on the last axis."""
    host = np.arange(64, dtype=np.float32).reshape(2, 32)
    out = empty_out((2, 16), D.DT_FLOAT)
    run_op(A.aclnnSwiGluGetWorkspaceSize, A.aclnnSwiGlu, stream, to_device(host, D.DT_FLOAT).handle, -1, out.handle)
    a, b = halves(host, -1)
    check(out, a / (1 + np.exp(-a)) * b)


@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
@pytest.mark.parametrize(("shape", "dim"), [((4, 64), -1), ((3, 8, 5), 1), ((6, 7), 0), ((2000, 40), 1)], ids=str)
def test_swi_glu_dtypes_and_dims(stream: int, dtype: int, shape: tuple, dim: int) -> None:
    """Each dtype along the last, a middle and the first axis, and 2000 rows (several cores); strided in and out."""
    host = random_values(dtype, shape, np.random.default_rng(dtype))
    out_shape = list(shape)
    out_shape[dim] //= 2
    out = empty_out(out_shape, dtype, strided=True)
    run_op(A.aclnnSwiGluGetWorkspaceSize, A.aclnnSwiGlu, stream, to_device(host, dtype, strided=True).handle, dim,
           out.handle)  # fmt: skip
    a, b = halves(host, dim)
    check(out, a / (1 + np.exp(-a)) * b)


def test_swi_glu_empty_and_statuses(stream: int) -> None:
    """Empty: nothing launched. Null (161001); dtypes (161002); dim, odd size and out shape (561001)."""
    e = empty_out((0, 4), D.DT_FLOAT)
    ws, executor, ret = A.aclnnSwiGluGetWorkspaceSize(e.handle, -1, empty_out((0, 2), D.DT_FLOAT).handle)
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x, out = empty_out((2, 4), D.DT_FLOAT), empty_out((2, 2), D.DT_FLOAT)
    api = A.aclnnSwiGluGetWorkspaceSize
    assert_rejected(api(None, -1, out.handle), NULLPTR, "x")
    assert_rejected(api(x.handle, -1, None), NULLPTR, "out")
    assert_rejected(api(x.handle, -1, empty_out((2, 2), D.DT_FLOAT16).handle), INVALID, "combination")
    assert_rejected(api(empty_out((2, 4), D.DT_DOUBLE).handle, -1, out.handle), INVALID, "combination")
    assert_rejected(api(x.handle, 2, out.handle), INFERSHAPE, "[-2, 1], but got [2]")
    assert_rejected(api(empty_out((2, 5), D.DT_FLOAT).handle, 1, out.handle), INFERSHAPE, "not divisible by 2")
    assert_rejected(api(x.handle, 0, out.handle), INFERSHAPE, "out must be [1, 4]")


# -- aclnnGeGlu / aclnnGeGluV3 -------------------------------------------------------------------------
def geglu(stream: int, x: Any, dim: int, approximate: int, left: bool | None, out: Any, out_gelu: Any) -> None:
    if left is None:
        run_op(A.aclnnGeGluGetWorkspaceSize, A.aclnnGeGlu, stream, x.handle, dim, approximate, out.handle,
               out_gelu.handle)  # fmt: skip
    else:
        run_op(A.aclnnGeGluV3GetWorkspaceSize, A.aclnnGeGluV3, stream, x.handle, dim, approximate, left, out.handle,
               out_gelu.handle)  # fmt: skip


def test_geglu_v3_documented_example(stream: int) -> None:
    """The official example: [[0, 1], [2, 3]], dim -1, tanh: out = A * gelu(B)."""
    host = np.array([[0, 1], [2, 3]], np.float32)
    out, out_gelu = empty_out((2, 1), D.DT_FLOAT), empty_out((2, 1), D.DT_FLOAT)
    geglu(stream, to_device(host, D.DT_FLOAT), -1, 1, False, out, out_gelu)
    a, b = halves(host, -1)
    check(out_gelu, gelu64(b, 1))
    check(out, a * gelu64(b, 1))


@pytest.mark.parametrize("left", [None, False, True], ids=["GeGlu", "V3-right", "V3-left"])
@pytest.mark.parametrize("approximate", [0, 1], ids=["erf", "tanh"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
def test_geglu_modes_and_dtypes(stream: int, dtype: int, approximate: int, left: bool | None) -> None:
    """Each dtype, both gelu forms, either half activated, along a middle axis; strided in and out."""
    host = random_values(dtype, (3, 10, 7), np.random.default_rng(dtype + approximate))
    out = empty_out((3, 5, 7), dtype, strided=True)
    out_gelu = empty_out((3, 5, 7), dtype, strided=True)
    geglu(stream, to_device(host, dtype, strided=True), 1, approximate, left, out, out_gelu)
    a, b = halves(host, 1)
    gate, other = (a, b) if left else (b, a)
    check(out_gelu, gelu64(gate, approximate))
    check(out, other * gelu64(gate, approximate))


def test_geglu_empty_scalar_and_statuses(stream: int) -> None:
    """Empty or 0-d self: nothing launched. Null (161001); dtypes, dim, slice sizes, ranks, other dims and
    approximate (161002)."""
    e, eo = empty_out((0, 4), D.DT_FLOAT), empty_out((0, 2), D.DT_FLOAT)
    ws, executor, ret = A.aclnnGeGluV3GetWorkspaceSize(e.handle, -1, 0, False, eo.handle, eo.handle)
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x, o = empty_out((2, 4), D.DT_FLOAT), empty_out((2, 2), D.DT_FLOAT)
    api = A.aclnnGeGluV3GetWorkspaceSize
    assert_rejected(api(None, -1, 0, False, o.handle, o.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, -1, 0, False, None, o.handle), NULLPTR, "out")
    assert_rejected(api(x.handle, -1, 0, False, o.handle, None), NULLPTR, "outGelu")
    assert_rejected(api(empty_out((2, 4), D.DT_DOUBLE).handle, -1, 0, False, o.handle, o.handle), INVALID, "self dtype")
    f16 = empty_out((2, 2), D.DT_FLOAT16)
    assert_rejected(api(x.handle, -1, 0, False, f16.handle, o.handle), INVALID, "out dtype")
    assert_rejected(api(x.handle, 2, 0, False, o.handle, o.handle), INVALID, "to be in range [-2, 1]")
    assert_rejected(api(empty_out((2, 5), D.DT_FLOAT).handle, 1, 0, False, o.handle, o.handle), INVALID, "even")
    assert_rejected(api(x.handle, 1, 0, False, empty_out((2, 4), D.DT_FLOAT).handle, o.handle), INVALID,
                    "out slice dim size 4")  # fmt: skip
    assert_rejected(api(x.handle, 1, 0, False, o.handle, empty_out((2, 2, 1), D.DT_FLOAT).handle), INVALID,
                    "must be the same")  # fmt: skip
    assert_rejected(api(x.handle, 1, 0, False, empty_out((3, 2), D.DT_FLOAT).handle, o.handle), INVALID,
                    "all other shape dim")  # fmt: skip
    assert_rejected(api(x.handle, 1, 2, False, o.handle, o.handle), INVALID, "Approximate should be 0 or 1")


# -- aclnnLogSoftmax -------------------------------------------------------------------------------------
def golden_log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    v = x.astype(np.float64)
    shifted = v - np.max(v, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def test_log_softmax_documented_example(stream: int) -> None:
    """The official example: a 3x3 float tensor 1..9 along dim 1."""
    host = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    out = empty_out((3, 3), D.DT_FLOAT)
    run_op(A.aclnnLogSoftmaxGetWorkspaceSize, A.aclnnLogSoftmax, stream, to_device(host, D.DT_FLOAT).handle, 1,
           out.handle)  # fmt: skip
    check(out, golden_log_softmax(host, 1))


@pytest.mark.parametrize(("dtype", "out_dtype"), [(D.DT_FLOAT, D.DT_FLOAT), (D.DT_FLOAT16, D.DT_FLOAT16),
                         (D.DT_BF16, D.DT_BF16), (D.DT_DOUBLE, D.DT_DOUBLE), (D.DT_FLOAT16, D.DT_FLOAT),
                         (D.DT_FLOAT, D.DT_BF16)], ids=ident)  # fmt: skip
@pytest.mark.parametrize(("shape", "dim"), [((5, 37), -1), ((3, 20, 4), 1), ((), 0), ((2, 70_000), 1)], ids=str)
def test_log_softmax_dtypes_and_axes(stream: int, dtype: int, out_dtype: int, shape: tuple, dim: int) -> None:
    """Each dtype pair (self Cast to out's first), a middle axis, a 0-d self, a row longer than the UB."""
    host = random_values(dtype, shape, np.random.default_rng(3))
    out = empty_out(shape, out_dtype, strided=bool(shape))
    ws, executor, ret = A.aclnnLogSoftmaxGetWorkspaceSize(to_device(host, dtype, strided=bool(shape)).handle, dim,
                                                          out.handle)  # fmt: skip
    assert ret == 0
    assert ("LogSoftmaxV2(AI CPU)" if out_dtype == D.DT_DOUBLE else "LogSoftmaxV2") in kernels(executor)
    run_op(lambda *a: (ws, executor, 0), A.aclnnLogSoftmax, stream)
    check(out, golden_log_softmax(host, dim) if shape else np.zeros(()))


def test_log_softmax_empty_and_statuses(stream: int) -> None:
    """Empty: nothing launched. Null (161001); dim, dtypes, rank and shape (161002)."""
    e = empty_out((0, 3), D.DT_FLOAT)
    ws, executor, ret = A.aclnnLogSoftmaxGetWorkspaceSize(e.handle, 1, e.handle)
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x = empty_out((2, 3), D.DT_FLOAT)
    api = A.aclnnLogSoftmaxGetWorkspaceSize
    assert_rejected(api(None, 1, x.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, 1, None), NULLPTR, "out")
    assert_rejected(api(x.handle, 2, x.handle), INVALID, "provided dim 2 not in the range of input size 2")
    assert_rejected(api(empty_out((2, 3), D.DT_INT32).handle, 1, x.handle), INVALID, "self dtype")
    assert_rejected(api(x.handle, 1, empty_out((2, 3), D.DT_INT32).handle), INVALID, "out dtype")
    nine = empty_out((1,) * 9, D.DT_FLOAT)
    assert_rejected(api(nine.handle, 0, nine.handle), INVALID, "more than 8")
    assert_rejected(api(x.handle, 1, empty_out((3, 2), D.DT_FLOAT).handle), INVALID, "out shape [3, 2]")


# -- aclnnAddRmsNorm -------------------------------------------------------------------------------------
def golden_add_rms_norm(x1: np.ndarray, x2: np.ndarray, gamma: np.ndarray, eps: float) -> tuple[np.ndarray, ...]:
    """float64 reference; the sum rounded to the input dtype first, as the kernel keeps x in it."""
    x = (x1.astype(np.float32) + x2.astype(np.float32)).astype(x1.dtype).astype(np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1 / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + eps)
    return x * rstd * gamma.astype(np.float64), rstd, x


def add_rms_norm(stream: int, x1: np.ndarray, x2: np.ndarray, gamma: np.ndarray, dtype: int, mode: str,
                 strided: bool = False) -> tuple[Any, Any, Any]:  # fmt: skip
    shape = x1.shape
    rstd_shape = shape[: len(shape) - gamma.ndim] + (1,) * gamma.ndim
    y = empty_out(shape, dtype, strided=strided)
    rstd = empty_out(rstd_shape, D.DT_FLOAT) if mode == "add" else None
    x = empty_out(shape, dtype, strided=strided) if mode != "post" else None
    run_op(A.aclnnAddRmsNormGetWorkspaceSize, A.aclnnAddRmsNorm, stream, to_device(x1, dtype, strided=strided).handle,
           to_device(x2, dtype).handle, to_device(gamma, dtype).handle, 1e-6, y.handle,
           None if rstd is None else rstd.handle, None if x is None else x.handle)  # fmt: skip
    return y, rstd, x


def test_add_rms_norm_documented_example(stream: int) -> None:
    """The official example: x1 = x2 = two rows of 0..7 twice, gamma the same 16 values, epsilon 1e-6."""
    row = np.tile(np.arange(8, dtype=np.float32), 2)
    x1 = np.stack([row, row])
    y, rstd, x = add_rms_norm(stream, x1, x1.copy(), row.copy(), D.DT_FLOAT, "add")
    gy, gr, gx = golden_add_rms_norm(x1, x1, row, 1e-6)
    check(y, gy)
    check(rstd, gr)
    check(x, gx)


@pytest.mark.parametrize("mode", ["add", "pre", "post"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
def test_add_rms_norm_modes_and_dtypes(stream: int, dtype: int, mode: str) -> None:
    """The three modes the outputs select (float32 only in the full one), a 2-D gamma, strided x1 and outputs."""
    if mode != "add" and dtype == D.DT_FLOAT:
        pytest.skip("the pre / post modes take float16 / bfloat16 only")
    rng = np.random.default_rng(dtype)
    x1, x2 = random_values(dtype, (3, 4, 24), rng), random_values(dtype, (3, 4, 24), rng)
    gamma = random_values(dtype, (4, 24), rng)
    y, rstd, x = add_rms_norm(stream, x1, x2, gamma, dtype, mode, strided=True)
    gy, gr, gx = golden_add_rms_norm(x1, x2, gamma, 1e-6)
    check(y, gy)
    if rstd is not None:
        check(rstd, gr)
    if x is not None:
        check(x, gx)


def test_add_rms_norm_empty_and_statuses(stream: int) -> None:
    """Empty x1: nothing launched. Null per mode (161001); dtypes, ranks and shapes (161002); a gamma that
    is not x1's trailing dims and a wrong rstdOut shape fail in the graph (561103)."""
    e = empty_out((0, 4), D.DT_FLOAT)
    g = empty_out((4,), D.DT_FLOAT)
    ws, executor, ret = A.aclnnAddRmsNormGetWorkspaceSize(e.handle, e.handle, g.handle, 1e-6, e.handle,
                                                          empty_out((0, 1), D.DT_FLOAT).handle, e.handle)  # fmt: skip
    assert (ws, ret) == (0, 0) and executor.launchers == []
    x, r = empty_out((2, 4), D.DT_FLOAT), empty_out((2, 1), D.DT_FLOAT)
    api = A.aclnnAddRmsNormGetWorkspaceSize
    assert_rejected(api(None, x.handle, g.handle, 1e-6, x.handle, r.handle, x.handle), NULLPTR, "x1")
    assert_rejected(api(x.handle, x.handle, None, 1e-6, x.handle, r.handle, x.handle), NULLPTR, "gamma")
    assert_rejected(api(x.handle, x.handle, g.handle, 1e-6, None, r.handle, x.handle), NULLPTR, "yOut")
    assert_rejected(api(x.handle, x.handle, g.handle, 1e-6, x.handle, r.handle, None), NULLPTR, "xOut")
    i32 = empty_out((2, 4), D.DT_INT32)
    assert_rejected(api(i32.handle, i32.handle, g.handle, 1e-6, x.handle, r.handle, x.handle), INVALID, "x1 dtype")
    f16 = empty_out((2, 4), D.DT_FLOAT16)
    assert_rejected(api(x.handle, f16.handle, g.handle, 1e-6, x.handle, r.handle, x.handle), INVALID, "same dtype")
    assert_rejected(
        api(x.handle, x.handle, g.handle, 1e-6, x.handle, None, None), INVALID, "x1 dtype"
    )  # post: f16/bf16
    r16 = empty_out((2, 1), D.DT_FLOAT16)
    assert_rejected(api(x.handle, x.handle, g.handle, 1e-6, x.handle, r16.handle, x.handle), INVALID, "rstdOut dtype")
    other = empty_out((4, 2), D.DT_FLOAT)
    assert_rejected(api(x.handle, other.handle, g.handle, 1e-6, x.handle, r.handle, x.handle), INVALID, "x2 must")
    assert_rejected(api(x.handle, x.handle, g.handle, 1e-6, other.handle, r.handle, x.handle), INVALID, "yOut must")
    scalar = empty_out((), D.DT_FLOAT)
    assert_rejected(api(scalar.handle, scalar.handle, g.handle, 1e-6, scalar.handle, r.handle, scalar.handle), INVALID,
                    "at least 1 dim")  # fmt: skip
    h = empty_out((2, 2, 2), D.DT_FLOAT16)
    assert_rejected(api(h.handle, h.handle, h.handle, 1e-6, h.handle, None, h.handle), INVALID, "more than 2")
    bad_gamma = empty_out((3,), D.DT_FLOAT)
    assert_rejected(api(x.handle, x.handle, bad_gamma.handle, 1e-6, x.handle, r.handle, x.handle), 561103, "L0")
    assert_rejected(api(x.handle, x.handle, g.handle, 1e-6, x.handle, empty_out((2,), D.DT_FLOAT).handle, x.handle),
                    561103, "ViewCopy of rstd returned null")  # fmt: skip


# -- aclnnGroupNorm ---------------------------------------------------------------------------------------
def golden_group_norm(x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None, group: int,
                      eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    n, c = x.shape[:2]
    v = x.astype(np.float64).reshape(n, group, -1)
    mean = v.mean(axis=2)
    rstd = 1 / np.sqrt(v.var(axis=2) + eps)
    y = ((v - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    g = np.ones(c) if gamma is None else gamma.astype(np.float64)
    b = np.zeros(c) if beta is None else beta.astype(np.float64)
    return y * g.reshape(shape) + b.reshape(shape), mean, rstd


def group_norm(stream: int, x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None, group: int,
               dtype: int, strided: bool = False) -> tuple[Any, Any, Any]:  # fmt: skip
    n, c = x.shape[:2]
    hw = int(np.prod(x.shape[2:]))
    out = empty_out(x.shape, dtype, strided=strided)
    mean, rstd = empty_out((n, group), dtype), empty_out((n, group), dtype)
    run_op(A.aclnnGroupNormGetWorkspaceSize, A.aclnnGroupNorm, stream, to_device(x, dtype, strided=strided).handle,
           None if gamma is None else to_device(gamma, dtype).handle,
           None if beta is None else to_device(beta, dtype).handle, n, c, hw, group, 1e-5, out.handle, mean.handle,
           rstd.handle)  # fmt: skip
    return out, mean, rstd


def test_group_norm_documented_example(stream: int) -> None:
    """The official example: a 2x3x4 tensor 1..24, gamma = beta = 2, one group."""
    x = np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4)
    gamma = np.full(3, 2.0, np.float32)
    out, mean, rstd = group_norm(stream, x, gamma, gamma.copy(), 1, D.DT_FLOAT)
    gy, gm, gr = golden_group_norm(x, gamma, gamma, 1, 1e-5)
    check(out, gy)
    check(mean, gm)
    check(rstd, gr)


@pytest.mark.parametrize("affine", [True, False], ids=["gamma-beta", "none"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
def test_group_norm_dtypes_groups_and_optional_affine(stream: int, dtype: int, affine: bool) -> None:
    """Each dtype, 4 groups of 2 channels over a 4-D self (strided), with and without gamma / beta."""
    rng = np.random.default_rng(dtype)
    x = random_values(dtype, (3, 8, 5, 6), rng)
    gamma = random_values(dtype, (8,), rng) if affine else None
    beta = random_values(dtype, (8,), rng) if affine else None
    out, mean, rstd = group_norm(stream, x, gamma, beta, 4, dtype, strided=True)
    gy, gm, gr = golden_group_norm(x, gamma, beta, 4, 1e-5)
    check(out, gy)
    check(mean, gm)
    check(rstd, gr)


def test_group_norm_empty_and_statuses(stream: int) -> None:
    """Empty self: meanOut 0, rstdOut NaN. Null (161001); dtypes, attrs, shapes and formats (161002)."""
    e = empty_out((2, 4, 0), D.DT_FLOAT)
    mean, rstd = empty_out((2, 2), D.DT_FLOAT), empty_out((2, 2), D.DT_FLOAT)
    run_op(A.aclnnGroupNormGetWorkspaceSize, A.aclnnGroupNorm, stream, e.handle, None, None, 2, 4, 0, 2, 1e-5,
           e.handle, mean.handle, rstd.handle)  # fmt: skip
    check(mean, np.zeros((2, 2)))
    check(rstd, np.full((2, 2), np.nan))
    x, m = empty_out((2, 4, 3), D.DT_FLOAT), empty_out((2, 2), D.DT_FLOAT)
    api = A.aclnnGroupNormGetWorkspaceSize
    assert_rejected(api(None, None, None, 2, 4, 3, 2, 1e-5, x.handle, m.handle, m.handle), NULLPTR, "self")
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 2, 1e-5, x.handle, None, m.handle), NULLPTR, "meanOut")
    i32 = empty_out((2, 4, 3), D.DT_INT32)
    assert_rejected(
        api(i32.handle, None, None, 2, 4, 3, 2, 1e-5, i32.handle, m.handle, m.handle), INVALID, "self dtype"
    )
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 2, 1e-5, x.handle, empty_out((2, 2), D.DT_FLOAT16).handle,
                        m.handle), INVALID, "meanOut dtype")  # fmt: skip
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 0, 1e-5, x.handle, m.handle, m.handle), INVALID, "group")
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 3, 1e-5, x.handle, m.handle, m.handle), INVALID, "divisible")
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 2, 0.0, x.handle, m.handle, m.handle), INVALID, "eps")
    assert_rejected(api(x.handle, None, None, 2, 4, 3, 2, 1e-5, x.handle, empty_out((2, 4), D.DT_FLOAT).handle,
                        m.handle), INVALID, "meanOut shape")  # fmt: skip
    assert_rejected(api(x.handle, None, None, 3, 4, 3, 2, 1e-5, x.handle, empty_out((3, 2), D.DT_FLOAT).handle,
                        empty_out((3, 2), D.DT_FLOAT).handle), INVALID, "shape[0] == N")  # fmt: skip
    assert_rejected(api(x.handle, None, None, 2, 4, 5, 2, 1e-5, x.handle, m.handle, m.handle), INVALID, "HxW")
    g3 = empty_out((3,), D.DT_FLOAT)
    assert_rejected(api(x.handle, g3.handle, None, 2, 4, 3, 2, 1e-5, x.handle, m.handle, m.handle), INVALID,
                    "gamma to be a vector")  # fmt: skip
    one = empty_out((4,), D.DT_FLOAT)
    assert_rejected(api(one.handle, None, None, 4, 1, 1, 1, 1e-5, one.handle, empty_out((4, 1), D.DT_FLOAT).handle,
                        empty_out((4, 1), D.DT_FLOAT).handle), INVALID, "fewer than 2")  # fmt: skip
