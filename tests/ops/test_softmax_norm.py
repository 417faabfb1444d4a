"""aclnnSoftmax, aclnnLayerNorm (+WithImplMode) and aclnnRmsNorm end to end.

Every A2 dtype (combination) against a float64 numpy golden under the precision standard: Softmax
over the last, a middle and the only axis, a strided input, 100 000 rows (every vector core) and a
row longer than the UB (the three-pass R-split template), F64 on AI CPU; LayerNorm with either
kernel (LayerNormV4 for short unaligned rows and BF16 N = 1024, LayerNormV3 otherwise), missing
weight / bias (Fill), optional mean / rstd, every implMode and the empty cases (M = 0: nothing;
N = 0: mean 0, rstd NaN); RmsNorm in its three tiling modes, with an infinite input staying
infinite. Then the statuses: 161001 / 161002 of the hand-written APIs and, for the generated
aclnnRmsNorm, 561001 (shape inference) and 561002 (tiling).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from reduce_helpers import BF16, INVALID, NAME, NP, NULLPTR, Npu, check, int_array, values

from emulator import aclnn

A = aclnn
INFERSHAPE, TILING = 561001, 561002
SOFTMAX_DTYPES = (A.ACL_FLOAT16, A.ACL_FLOAT, A.ACL_DOUBLE, A.ACL_BF16)
# name -> (shape, dim, strided)
SOFTMAX_CASES = {
    "one": ((1,), 0, False),
    "odd_last": ((7, 131), -1, False),
    "middle": ((3, 50, 7), 1, False),
    "first": ((9, 5), 0, False),
    "strided": ((6, 50), 1, True),
    "large": ((100_000, 4), 1, False),
}


def _softmax_golden(x: np.ndarray, dim: int) -> np.ndarray:
    x64 = x.astype(np.float64)
    e = np.exp(x64 - np.max(x64, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _softmax(npu: Npu, x: np.ndarray, dtype: int, dim: int, out_dtype: int, strided: bool = False) -> list[str]:
    self_t, out = npu.tensor(x, dtype, strided=strided), npu.output(x.shape, out_dtype)
    status, names = npu.run(A.aclnnSoftmaxGetWorkspaceSize, A.aclnnSoftmax, self_t.handle, dim, out.handle)
    assert status == 0
    check(out.numpy(), _softmax_golden(x, dim))
    return names


@pytest.mark.parametrize("case", list(SOFTMAX_CASES))
@pytest.mark.parametrize("dtype", SOFTMAX_DTYPES, ids=[NAME[d] for d in SOFTMAX_DTYPES])
def test_softmax(dtype: int, case: str) -> None:
    """Softmax of every A2 dtype over the shape cases; F64 runs SoftmaxV2 on AI CPU."""
    npu = Npu()
    shape, dim, strided = SOFTMAX_CASES[case]
    x = values(shape, NP[dtype], np.random.default_rng(10))
    names = _softmax(npu, x, dtype, dim, dtype, strided)
    assert ("SoftmaxV2(AI CPU)" if dtype == A.ACL_DOUBLE else "SoftmaxV2") in names


def test_softmax_mixed_split_and_scalar() -> None:
    """F16 in / F32 out (Cast after the kernel), a 70 000-long row (R-split template), and a 0-d self."""
    npu = Npu()
    rng = np.random.default_rng(11)
    names = _softmax(npu, values((5, 33), NP[A.ACL_FLOAT16], rng), A.ACL_FLOAT16, 1, A.ACL_FLOAT)
    assert names == ["SoftmaxV2", "Cast"]
    _softmax(npu, values((2, 70_000), NP[A.ACL_FLOAT], rng), A.ACL_FLOAT, -1, A.ACL_FLOAT)
    _softmax(npu, values((2, 70_000), BF16, rng), A.ACL_BF16, -1, A.ACL_BF16)
    self_t, out = npu.tensor(np.array(3.0, np.float32), A.ACL_FLOAT), npu.output((), A.ACL_FLOAT)
    assert npu.run(A.aclnnSoftmaxGetWorkspaceSize, A.aclnnSoftmax, self_t.handle, -1, out.handle)[0] == 0
    assert out.numpy() == np.float32(1.0)


def test_softmax_statuses() -> None:
    """161001 for null self / out; an empty self succeeds before the dtype check; 161002 otherwise."""
    npu = Npu()
    x = npu.tensor(np.ones((2, 3), np.float32), A.ACL_FLOAT).handle
    out = npu.output((2, 3), A.ACL_FLOAT).handle
    call = A.aclnnSoftmaxGetWorkspaceSize
    assert call(None, 0, out)[2] == NULLPTR
    assert call(x, 0, None)[2] == NULLPTR
    empty_int = npu.tensor(np.ones((0, 3), np.int32), A.ACL_INT32).handle
    assert npu.run(call, A.aclnnSoftmax, empty_int, 0, npu.output((0, 3), A.ACL_INT32).handle) == (0, [])
    ints = npu.tensor(np.ones((2, 3), np.int32), A.ACL_INT32).handle
    assert call(ints, 0, out)[2] == INVALID
    assert call(x, 0, npu.output((2, 3), A.ACL_INT32).handle)[2] == INVALID
    assert call(x, 2, out)[2] == INVALID
    assert call(x, -3, out)[2] == INVALID
    assert call(x, 0, npu.output((3, 2), A.ACL_FLOAT).handle)[2] == INVALID
    nine = npu.tensor(np.ones((1,) * 9, np.float32), A.ACL_FLOAT)
    assert call(nine.handle, 0, npu.output((1,) * 9, A.ACL_FLOAT).handle)[2] == INVALID


# -- LayerNorm ----------------------------------------------------------------------------------------------
def _ln_golden(x: np.ndarray, n_norm: int, w: np.ndarray | None, b: np.ndarray | None, eps: float) -> tuple:
    axes = tuple(range(x.ndim - n_norm, x.ndim))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(x64.var(axis=axes, keepdims=True) + eps)
    y = (x64 - mean) * rstd
    if w is not None:
        y = y * w.astype(np.float64)
    if b is not None:
        y = y + b.astype(np.float64)
    return y, mean, rstd


def _layer_norm(
    npu: Npu, shape: tuple[int, ...], n_norm: int, dtype: int, w_dtype: int | None, *, bias: bool = True,
    stats: int | None = A.ACL_FLOAT, impl_mode: int | None = None, strided: bool = False, eps: float = 1e-5,
) -> list[str]:  # fmt: skip
    rng = np.random.default_rng(20)
    norm = shape[len(shape) - n_norm :]
    x = values(shape, NP[dtype], rng)
    w = values(norm, NP[w_dtype], rng) if w_dtype is not None else None
    b = values(norm, NP[w_dtype if w_dtype is not None else dtype], rng) if bias else None
    y, mean, rstd = _ln_golden(x, n_norm, w, b, eps)
    x_t = npu.tensor(x, dtype, strided=strided)
    w_t = npu.tensor(w, w_dtype).handle if w is not None else None
    b_t = npu.tensor(b, w_dtype if w_dtype is not None else dtype).handle if b is not None else None
    out = npu.output(shape, dtype)
    m_t = npu.output(mean.shape, stats) if stats is not None else None
    r_t = npu.output(mean.shape, stats) if stats is not None else None
    args = (x_t.handle, int_array(norm), w_t, b_t, eps, out.handle, m_t and m_t.handle, r_t and r_t.handle)
    if impl_mode is None:
        status, names = npu.run(A.aclnnLayerNormGetWorkspaceSize, A.aclnnLayerNorm, *args)
    else:
        status, names = npu.run(A.aclnnLayerNormWithImplModeGetWorkspaceSize, A.aclnnLayerNormWithImplMode, *args,
                                impl_mode)  # fmt: skip
    assert status == 0
    check(out.numpy(), y)
    if m_t is not None and r_t is not None:
        check(m_t.numpy(), mean)
        check(r_t.numpy(), rstd)
    return names


LN_COMBOS = [(A.ACL_FLOAT, A.ACL_FLOAT), (A.ACL_FLOAT16, A.ACL_FLOAT16), (A.ACL_FLOAT16, A.ACL_FLOAT),
             (A.ACL_BF16, A.ACL_BF16), (A.ACL_BF16, A.ACL_FLOAT)]  # fmt: skip
# name -> (shape, normalised dims, strided input)
LN_CASES = {
    "one": ((1, 1), 1, False),
    "odd": ((7, 131), 1, False),
    "two_dims": ((4, 6, 24), 2, False),
    "short_unaligned": ((5, 3, 20), 1, False),
    "strided": ((6, 50), 1, True),
    "large": ((25_000, 4), 1, False),
}


@pytest.mark.parametrize("case", list(LN_CASES))
@pytest.mark.parametrize("combo", LN_COMBOS, ids=[f"{NAME[x]}-{NAME[w]}" for x, w in LN_COMBOS])
def test_layer_norm(combo: tuple[int, int], case: str) -> None:
    """LayerNorm of every (input, weight) dtype pair; the kernel is V4 for short unaligned rows, else V3."""
    npu = Npu()
    shape, n_norm, strided = LN_CASES[case]
    names = _layer_norm(npu, shape, n_norm, combo[0], combo[1], strided=strided)
    n = int(np.prod(shape[len(shape) - n_norm :]))
    align = 8 if combo[0] == A.ACL_FLOAT else 16
    assert ("LayerNormV4" if n % align and n < 64 else "LayerNormV3") in names


def test_layer_norm_variants() -> None:
    """BF16 N = 1024 picks V4; weight / bias may be missing (Fill); mean / rstd optional and castable."""
    npu = Npu()
    assert "LayerNormV4" in _layer_norm(npu, (3, 1024), 1, A.ACL_BF16, A.ACL_BF16)
    names = _layer_norm(npu, (4, 40), 1, A.ACL_FLOAT, None, bias=False)
    assert names.count("Fill") == 2
    _layer_norm(npu, (4, 40), 1, A.ACL_FLOAT16, A.ACL_FLOAT, bias=False, stats=None)
    _layer_norm(npu, (4, 40), 1, A.ACL_FLOAT16, None, stats=A.ACL_FLOAT16)
    _layer_norm(npu, (2, 30_000), 1, A.ACL_FLOAT, A.ACL_FLOAT)  # rows longer than the UB: split-N template


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_layer_norm_impl_modes(mode: int) -> None:
    """aclnnLayerNormWithImplMode: high precision, high performance and keep-FP16 (all-F16 inputs)."""
    npu = Npu()
    _layer_norm(npu, (8, 96), 1, A.ACL_FLOAT16, A.ACL_FLOAT16, impl_mode=mode)


def test_layer_norm_empty() -> None:
    """M == 0 launches nothing; N == 0 fills mean with 0 and rstd with NaN."""
    npu = Npu()
    x = npu.tensor(np.ones((0, 8), np.float32), A.ACL_FLOAT)
    out, m_t, r_t = npu.output((0, 8), A.ACL_FLOAT), npu.output((0, 1), A.ACL_FLOAT), npu.output((0, 1), A.ACL_FLOAT)
    status, names = npu.run(A.aclnnLayerNormGetWorkspaceSize, A.aclnnLayerNorm, x.handle, int_array([8]), None, None,
                            1e-5, out.handle, m_t.handle, r_t.handle)  # fmt: skip
    assert status == 0 and names == []
    x = npu.tensor(np.ones((3, 0), np.float32), A.ACL_FLOAT)
    out, m_t, r_t = npu.output((3, 0), A.ACL_FLOAT), npu.output((3, 1), A.ACL_FLOAT), npu.output((3, 1), A.ACL_FLOAT)
    status, names = npu.run(A.aclnnLayerNormGetWorkspaceSize, A.aclnnLayerNorm, x.handle, int_array([0]), None, None,
                            1e-5, out.handle, m_t.handle, r_t.handle)  # fmt: skip
    assert status == 0 and names == ["Fill", "Fill"]
    np.testing.assert_array_equal(m_t.numpy(), np.zeros((3, 1), np.float32))
    assert np.isnan(r_t.numpy()).all()


def test_layer_norm_statuses() -> None:
    """161001 for null input / normalizedShape / out; 161002 for dtypes, shapes and implMode."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int = A.ACL_FLOAT) -> object:
        return npu.output(shape, dtype).handle

    x, out, m, r = t((4, 8)), t((4, 8)), t((4, 1)), t((4, 1))
    ns = int_array([8])
    call = A.aclnnLayerNormGetWorkspaceSize
    assert call(None, ns, None, None, 1e-5, out, m, r)[2] == NULLPTR
    assert call(x, None, None, None, 1e-5, out, m, r)[2] == NULLPTR
    assert call(x, ns, None, None, 1e-5, None, m, r)[2] == NULLPTR
    assert call(x, ns, None, None, 1e-5, out, None, None)[2] == 0  # mean / rstd are optional
    assert call(t((4, 8), A.ACL_DOUBLE), ns, None, None, 1e-5, t((4, 8), A.ACL_DOUBLE), m, r)[2] == INVALID
    assert call(x, ns, t((8,), A.ACL_FLOAT16), None, 1e-5, out, m, r)[2] == INVALID  # F16 weight, F32 input
    x16, out16 = t((4, 8), A.ACL_FLOAT16), t((4, 8), A.ACL_FLOAT16)
    assert call(x16, ns, t((8,), A.ACL_FLOAT16), t((8,)), 1e-5, out16, m, r)[2] == INVALID  # weight != bias
    assert call(x, ns, None, None, 1e-5, out, t((4, 1), A.ACL_INT32), r)[2] == INVALID  # mean dtype
    assert call(x, int_array([4]), None, None, 1e-5, out, m, r)[2] == INVALID  # not the trailing dims
    assert call(x, int_array([2, 4, 8]), None, None, 1e-5, out, m, r)[2] == INVALID  # longer than the rank
    assert call(x, int_array([]), None, None, 1e-5, out, m, r)[2] == INVALID  # empty
    assert call(x, ns, t((4,)), None, 1e-5, out, m, r)[2] == INVALID  # weight shape
    assert call(x, ns, None, None, 1e-5, t((8, 4)), m, r)[2] == INVALID  # out shape
    assert call(x, ns, None, None, 1e-5, out, t((4,)), r)[2] == INVALID  # mean shape
    nine = t((1,) * 9)
    assert call(nine, int_array([1]), None, None, 1e-5, t((1,) * 9), None, None)[2] == INVALID
    with_mode = A.aclnnLayerNormWithImplModeGetWorkspaceSize
    assert with_mode(x, ns, None, None, 1e-5, out, m, r, 3)[2] == INVALID
    assert with_mode(x, ns, None, None, 1e-5, out, m, r, 2)[2] == INVALID  # keep FP16 with an F32 input
    assert with_mode(None, ns, None, None, 1e-5, out, m, r, 0)[2] == NULLPTR


# -- RmsNorm --------------------------------------------------------------------------------------------------
RMS_COMBOS = [(A.ACL_FLOAT16, A.ACL_FLOAT), (A.ACL_BF16, A.ACL_FLOAT), (A.ACL_FLOAT16, A.ACL_FLOAT16),
              (A.ACL_BF16, A.ACL_BF16), (A.ACL_FLOAT, A.ACL_FLOAT)]  # fmt: skip
# name -> (x shape, gamma dims, strided x)
RMS_CASES = {
    "one": ((1,), 1, False),
    "odd": ((7, 131), 1, False),
    "two_dims": ((2, 3, 64), 2, False),
    "normal_mode": ((3, 4000), 1, False),
    "split_d": ((2, 16_000), 1, False),
    "strided": ((6, 50), 1, True),
    "large": ((25_000, 4), 1, False),
}


def _rms(npu: Npu, x: np.ndarray, gamma: np.ndarray, dtype: int, g_dtype: int, eps: float = 1e-6,
         strided: bool = False) -> list[str]:  # fmt: skip
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    x64 = x.astype(np.float64)
    rstd = 1.0 / np.sqrt(np.mean(x64 * x64, axis=axes, keepdims=True) + eps)
    y = x64 * rstd * gamma.astype(np.float64)
    x_t, g_t = npu.tensor(x, dtype, strided=strided), npu.tensor(gamma, g_dtype)
    y_t, r_t = npu.output(x.shape, dtype), npu.output(rstd.shape, A.ACL_FLOAT)
    status, names = npu.run(A.aclnnRmsNormGetWorkspaceSize, A.aclnnRmsNorm, x_t.handle, g_t.handle, eps, y_t.handle,
                            r_t.handle)  # fmt: skip
    assert status == 0
    check(y_t.numpy(), y)
    check(r_t.numpy(), rstd)
    return names


@pytest.mark.parametrize("case", list(RMS_CASES))
@pytest.mark.parametrize("combo", RMS_COMBOS, ids=[f"{NAME[x]}-{NAME[g]}" for x, g in RMS_COMBOS])
def test_rms_norm(combo: tuple[int, int], case: str) -> None:
    """RmsNorm of every A2 (x, gamma) dtype pair in MERGE_N, NORMAL and SPLIT_D modes: one RmsNorm kernel."""
    npu = Npu()
    shape, n_gamma, strided = RMS_CASES[case]
    rng = np.random.default_rng(30)
    x = values(shape, NP[combo[0]], rng)
    gamma = values(shape[len(shape) - n_gamma :], NP[combo[1]], rng)
    names = _rms(npu, x, gamma, combo[0], combo[1], strided=strided)
    assert names.count("RmsNorm") == 1


def test_rms_norm_special_values() -> None:
    """An infinite x stays infinite (A2), NaN stays NaN; an empty x launches nothing."""
    npu = Npu()
    x = np.array([[1.0, np.inf, 2.0, 3.0], [1.0, 2.0, np.nan, 4.0], [1.0, 2.0, 3.0, 4.0]], np.float32)
    gamma = np.array([1.0, 2.0, -1.0, 0.5], np.float32)
    x_t, g_t = npu.tensor(x, A.ACL_FLOAT), npu.tensor(gamma, A.ACL_FLOAT)
    y_t, r_t = npu.output((3, 4), A.ACL_FLOAT), npu.output((3, 1), A.ACL_FLOAT)
    npu.run(A.aclnnRmsNormGetWorkspaceSize, A.aclnnRmsNorm, x_t.handle, g_t.handle, 1e-6, y_t.handle, r_t.handle)
    y = y_t.numpy()
    assert y[0, 1] == np.inf and np.isnan(y[1]).all() and np.isfinite(y[2]).all()
    empty, y0, r0 = npu.output((0, 4), A.ACL_FLOAT), npu.output((0, 4), A.ACL_FLOAT), npu.output((0, 1), A.ACL_FLOAT)
    assert npu.run(A.aclnnRmsNormGetWorkspaceSize, A.aclnnRmsNorm, empty.handle, g_t.handle, 1e-6, y0.handle,
                   r0.handle) == (0, [])  # fmt: skip


def test_rms_norm_statuses() -> None:
    """Generated API: 161001 null, 161002 dtype combination, 561001 shape inference, 561002 tiling."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int = A.ACL_FLOAT) -> object:
        return npu.output(shape, dtype).handle

    x, g, y, r = t((4, 8)), t((8,)), t((4, 8)), t((4, 1))
    call = A.aclnnRmsNormGetWorkspaceSize
    for i in range(5):
        if i == 2:
            continue
        args: list[object] = [x, g, 1e-6, y, r]
        args[i] = None
        assert call(*args)[2] == NULLPTR
    assert call(x, t((8,), A.ACL_FLOAT16), 1e-6, y, r)[2] == INVALID  # (F32, F16) is no A2 combination
    assert call(x, g, 1e-6, y, t((4, 1), A.ACL_FLOAT16))[2] == INVALID  # rstd must be F32
    assert call(t((4, 8), A.ACL_DOUBLE), t((8,), A.ACL_DOUBLE), 1e-6, t((4, 8), A.ACL_DOUBLE), r)[2] == INVALID
    assert call(x, t((4,)), 1e-6, y, r)[2] == INFERSHAPE  # gamma is not x's trailing dims
    assert call(x, t((2, 4, 8)), 1e-6, y, r)[2] == INFERSHAPE
    assert call(x, g, 1e-6, t((8, 4)), r)[2] == INFERSHAPE  # y shape
    assert call(x, g, 1e-6, y, t((4,)))[2] == INFERSHAPE  # rstd shape
    assert call(t((1,) * 9), t((1,)), 1e-6, t((1,) * 9), t((1,) * 9))[2] == INFERSHAPE  # rank 9
    assert call(t((4, 0)), t((0,)), 1e-6, t((4, 0)), r)[2] == TILING  # empty gamma


def test_split_templates_in_debug_kernel_mode(tmp_path: Path) -> None:
    """With bounds-checked buffers (debug-kernel mode) the R / N / D split templates stay inside their buffers."""
    config = tmp_path / "aclnn.json"
    config.write_text(json.dumps({"op_debug_config": {"enable_debug_kernel": "on"}}))
    npu = Npu(str(config))
    rng = np.random.default_rng(31)
    _softmax(npu, values((2, 70_001), NP[A.ACL_FLOAT], rng), A.ACL_FLOAT, -1, A.ACL_FLOAT)
    _layer_norm(npu, (2, 30_001), 1, A.ACL_FLOAT, A.ACL_FLOAT)
    x, gamma = values((2, 16_001), NP[A.ACL_FLOAT], rng), values((16_001,), NP[A.ACL_FLOAT], rng)
    _rms(npu, x, gamma, A.ACL_FLOAT, A.ACL_FLOAT)
