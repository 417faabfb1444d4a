"""aclnnBatchNormBackward against a float64 numpy batch norm: the exact adjoint, itself checked against central
finite differences of the forward; the documented example; the A2 chains (BNTrainingUpdateGrad +
BNTrainingReduceGrad, BN3D for 5-D, more than 5 dims, BNInferGrad in inference), the saved pair as
aclnnBatchNorm leaves it, the output mask, empty inputs, the 950's BatchNormGradV3 (rstd saved, NHWC
channel last, a three-entry mask) and 310P's list, and each status in the real order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, run_op, status, to_device
from device_helpers import SESSIONS, device_tensor

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType
from emulator.meta.formats import aclFormat

D = DataType
F32 = D.DT_FLOAT
Fm = aclFormat
NULLPTR, INVALID = 161001, 161002
EPS, STEP = 1e-5, 1e-6


def forward64(x: np.ndarray, w: np.ndarray, b: np.ndarray, stats: tuple[np.ndarray, np.ndarray] | None,
              axis: int = 1) -> np.ndarray:  # fmt: skip
    """float64 batch norm over every axis but ``axis``: the batch statistics, or ``stats`` (mean, var) fixed."""
    xs = np.moveaxis(x, axis, 1)
    axes, shape = (0, *range(2, xs.ndim)), (1, -1) + (1,) * (xs.ndim - 2)
    mean, var = (xs.mean(axis=axes), xs.var(axis=axes)) if stats is None else stats
    y = (xs - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + EPS) * w.reshape(shape) + b.reshape(shape)
    return np.moveaxis(y, 1, axis)


def adjoint(dy: np.ndarray, x: np.ndarray, w: np.ndarray, mean: np.ndarray, invstd: np.ndarray, training: bool,
            axis: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """(dx, dw, db) of L = Σ dy · y, x normalised by (mean, invstd): the batch's in training, fixed otherwise."""
    d, xs = np.moveaxis(dy, axis, 1), np.moveaxis(x, axis, 1)
    axes, shape = (0, *range(2, xs.ndim)), (1, -1) + (1,) * (xs.ndim - 2)
    n = xs.size // xs.shape[1]
    xhat = (xs - mean.reshape(shape)) * invstd.reshape(shape)
    dw, db = (d * xhat).sum(axis=axes), d.sum(axis=axes)
    scale = (w * invstd).reshape(shape)
    dx = scale * (d - db.reshape(shape) / n - xhat * dw.reshape(shape) / n) if training else d * scale
    return np.moveaxis(dx, 1, axis), dw, db


def finite_diff(f: Any, a: np.ndarray) -> np.ndarray:
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[i] += STEP
        lo[i] -= STEP
        grad[i] = (f(hi) - f(lo)) / (2 * STEP)
    return grad


def test_adjoint_is_the_forward_gradient() -> None:
    """The golden itself: the adjoint matches central differences of the forward, training and inference."""
    rng = np.random.default_rng(1)
    x, dy = rng.normal(0, 2, (3, 2, 4)), rng.normal(0, 1, (3, 2, 4))
    w, b = rng.uniform(0.5, 2, 2), rng.uniform(-1, 1, 2)
    mean, var = x.mean(axis=(0, 2)), x.var(axis=(0, 2))
    for training, stats in ((True, None), (False, (rng.normal(0, 1, 2), rng.uniform(0.5, 2, 2)))):
        m, v = (mean, var) if stats is None else stats
        dx, dw, db = adjoint(dy, x, w, m, 1 / np.sqrt(v + EPS), training)
        loss = [lambda a, s=stats: np.sum(dy * forward64(a, w, b, s)),
                lambda a, s=stats: np.sum(dy * forward64(x, a, b, s)),
                lambda a, s=stats: np.sum(dy * forward64(x, w, a, s))]  # fmt: skip
        for got, f, at in zip((dx, dw, db), loss, (x, w, b), strict=True):
            np.testing.assert_allclose(got, finite_diff(f, at), atol=1e-6)


def _t(values: np.ndarray, dtype: int = F32, fmt: int = Fm.ACL_FORMAT_ND) -> npu.Tensor:
    values = np.asarray(values).astype(npu.host_dtype(dtype))
    return device_tensor(values.reshape(-1), dtype, values.shape, fmt=fmt)


def _h(t: npu.Tensor | None) -> Any:
    return None if t is None else t.handle


def _mask(*values: bool) -> Any:
    mask = aclnn.aclCreateBoolArray(list(values), len(values))
    assert mask is not None
    return mask


def _bwd(stream: int, dy: npu.Tensor, x: npu.Tensor, vecs: list[npu.Tensor | None], training: bool,
         outs: list[npu.Tensor | None], mask: tuple[bool, ...] = (True, True, True)) -> int:  # fmt: skip
    return run_op(aclnn.aclnnBatchNormBackwardGetWorkspaceSize, aclnn.aclnnBatchNormBackward, stream, dy.handle,
                  x.handle, *map(_h, vecs), training, EPS, _mask(*mask), *map(_h, outs))  # fmt: skip


def test_documented_example(stream: int) -> None:
    """[1, 2, 4] float32 0..7 for both gradOut and input, weight 1, saveMean 0, saveInvstd 1, training."""
    a = np.arange(8, dtype=np.float32).reshape(1, 2, 4)
    ones, zeros = np.ones(2, np.float32), np.zeros(2, np.float32)
    outs = [empty_out((1, 2, 4), F32), empty_out((2,), F32), empty_out((2,), F32)]
    vecs = [_t(ones), _t(zeros), _t(ones), _t(zeros), _t(ones)]
    _bwd(stream, _t(a), _t(a), vecs, True, list(outs))
    dx, dw, db = adjoint(a.astype(np.float64), a.astype(np.float64), ones, zeros, 1 / np.sqrt(ones + EPS), True)
    for out, want in zip(outs, (dx, dw, db), strict=True):
        check(out, want)
    check(outs[2], [6.0, 22.0])  # Σ gradOut per channel


@pytest.mark.parametrize(
    ("shape", "dtype", "fmt"),
    [((5, 3), F32, Fm.ACL_FORMAT_ND), ((2, 3, 2, 5), D.DT_FLOAT16, Fm.ACL_FORMAT_NCHW),
     ((2, 3, 2, 1, 3), D.DT_BF16, Fm.ACL_FORMAT_NCDHW), ((2, 3, 1, 2, 2, 2), F32, Fm.ACL_FORMAT_ND)],
    ids=["2d", "nchw-fp16", "ncdhw-bf16", "6d"],
)  # fmt: skip
def test_training_after_forward(stream: int, shape: tuple[int, ...], dtype: int, fmt: int) -> None:
    """aclnnBatchNorm in training, then its backward on the saved pair it left (mean, biased variance on A2):
    the gradient of the forward at that point; strided gradOut, half gradWeight / gradBias."""
    rng = np.random.default_rng(2)
    c = shape[1]
    x = _t(rng.normal(1, 2, shape), dtype, fmt)
    w, b = rng.uniform(0.5, 2, c).astype(np.float32), rng.uniform(-1, 1, c).astype(np.float32)
    y, mean, var = _t(np.zeros(shape), dtype, fmt), empty_out((c,), F32), empty_out((c,), F32)
    run_op(aclnn.aclnnBatchNormGetWorkspaceSize, aclnn.aclnnBatchNorm, stream, x.handle, _t(w).handle,
           _t(b).handle, None, None, True, 0.1, EPS, y.handle, mean.handle, var.handle)  # fmt: skip
    dy_host = rng.normal(0, 1, shape).astype(npu.host_dtype(dtype))
    dy = to_device(dy_host, dtype, strided=True) if fmt == Fm.ACL_FORMAT_ND else _t(dy_host, dtype, fmt)
    outs = [_t(np.zeros(shape), dtype, fmt), empty_out((c,), D.DT_FLOAT16), empty_out((c,), D.DT_FLOAT16)]
    _bwd(stream, dy, x, [_t(w), None, None, mean, var], True, list(outs))
    x64, dy64 = x.numpy().astype(np.float64), dy_host.astype(np.float64)
    golden = adjoint(dy64, x64, w, x64.mean(axis=(0, *range(2, len(shape)))),
                     1 / np.sqrt(x64.var(axis=(0, *range(2, len(shape)))) + EPS), True)  # fmt: skip
    for out, want in zip(outs, golden, strict=True):
        check(out, want)


def test_inference_mask_and_defaults(stream: int) -> None:
    """Inference normalises by the running statistics (saveMean / saveInvstd of length 0 are fine); a false
    entry leaves its output untouched (null allowed); with no vectors weight 1, mean 0, var 1."""
    rng = np.random.default_rng(3)
    a, dy = rng.normal(0, 3, (3, 4, 5)), rng.normal(0, 1, (3, 4, 5))
    w, rm, rv = rng.uniform(0.5, 2, 4), rng.normal(0, 1, 4), rng.uniform(0.5, 2, 4)
    vecs = [_t(w), _t(rm), _t(rv), _t(np.zeros(0)), _t(np.zeros(0))]
    outs = [empty_out(a.shape, F32), empty_out((4,), F32), empty_out((4,), F32)]
    _bwd(stream, _t(dy), _t(a), vecs, False, list(outs))
    golden = adjoint(dy, a.astype(np.float32), w.astype(np.float32), rm.astype(np.float32),
                     1 / np.sqrt(rv.astype(np.float32) + EPS), False)  # fmt: skip
    for out, want in zip(outs, golden, strict=True):
        check(out, want)
    grad_in, grad_w = empty_out(a.shape, F32), empty_out((4,), F32)
    _bwd(stream, _t(dy), _t(a), [None] * 5, False, [grad_in, grad_w, None], (True, True, False))
    check(grad_in, dy / np.sqrt(1 + EPS))
    check(grad_w, (dy * a.astype(np.float32) / np.sqrt(1 + EPS)).sum(axis=(0, 2)))
    only_bias = empty_out((4,), F32)
    _bwd(stream, _t(dy), _t(a), [None] * 5, True, [None, None, only_bias], (False, False, True))
    check(only_bias, dy.sum(axis=(0, 2)))


def test_empty_input_writes_nothing(session: npu.Session) -> None:
    """An empty input returns before the mask and dtype checks; phase 1 records nothing."""
    x = _t(np.zeros((0, 3)), D.DT_INT32).handle
    ws, executor, ret = aclnn.aclnnBatchNormBackwardGetWorkspaceSize(x, x, None, None, None, None, None, True, EPS,
                                                                     None, None, None, None)  # fmt: skip
    assert (ws, ret) == (0, 0) and executor is not None


def _f(shape: tuple[int, ...], dtype: int = F32, fmt: int = Fm.ACL_FORMAT_ND) -> Any:
    return _t(np.zeros(shape), dtype, fmt).handle


def _status_cases() -> list[tuple[str, list[Any], int, str]]:
    """(name, the 13 arguments, status, message fragment) in the order the real L2 checks them."""
    x, v = (lambda: _f((2, 3, 4))), (lambda: _f((3,)))

    def base(**kw: Any) -> list[Any]:
        return [kw.get("dy", x()), kw.get("x", x()), kw.get("w", v()), kw.get("rm"), None, None, None,
                kw.get("t", True), EPS, kw.get("mask", _mask(True, True, True)), kw.get("gi", x()),
                kw.get("gw", v()), kw.get("gb", v())]  # fmt: skip

    ncl, ncdhw = Fm.ACL_FORMAT_NCL, Fm.ACL_FORMAT_NCDHW
    return [
        ("null gradOut", base(dy=None), NULLPTR, "expected gradOut not to be a null pointer"),
        ("null input", base(x=None), NULLPTR, "expected input not to be a null pointer"),
        ("null mask", base(mask=None), NULLPTR, "expected outputMask not to be a null pointer"),
        ("empty mask", base(mask=_mask()), NULLPTR, "outputMask size should not less than 1"),
        ("null gradBias", base(gb=None), NULLPTR, "expected gradBias not to be a null pointer"),
        ("int32 gradOut", base(dy=_f((2, 3, 4), D.DT_INT32)), INVALID, "gradOut dtype DT_INT32"),
        ("dtypes differ", base(x=_f((2, 3, 4), D.DT_FLOAT16)), INVALID, "input dtype DT_FLOAT16 and gradOut"),
        ("int32 gradWeight", base(gw=_f((3,), D.DT_INT32)), INVALID, "gradWeight dtype DT_INT32"),
        ("int32 runningMean", base(rm=_f((3,), D.DT_INT32)), INVALID, "runningMean dtype DT_INT32"),
        ("formats differ", base(x=_f((2, 3, 4), fmt=ncl)), INVALID, "gradOut [ND], input [NCL]"),
        ("gradInput format", base(gi=_f((2, 3, 4), fmt=ncl)), INVALID, "gradOut [ND], gradInput [NCL]"),
        ("private", base(dy=_f((2, 3, 4), fmt=3), x=_f((2, 3, 4), fmt=3), gi=_f((2, 3, 4), fmt=3)), INVALID,
         "Format only support NC, NCL, NCHW, NCDHW."),
        ("rank 1", base(dy=_f((3,)), x=_f((3,)), gi=_f((3,))), INVALID, "input has 1 dims, fewer than 2"),
        ("rank 9", base(dy=_f((1,) * 9), x=_f((1,) * 9)), INVALID, "input has 9 dims, more than 8"),
        ("shapes differ", base(x=_f((2, 3, 5))), INVALID, "gradOut shape [2, 3, 4] and input shape [2, 3, 5]"),
        ("gradInput shape", base(gi=_f((2, 3, 5))), INVALID, "gradInput shape [2, 3, 5] and gradOut shape"),
        ("weight shape", base(w=_f((4,))), INVALID, "Dim of weight should be one and shape is channel num of "
         "input[3], but got [4]."),
        ("short saved pair", base(w=None), 0, ""),
        ("false entries skip", base(mask=_mask(True, False, False), gw=None, gb=None), 0, ""),
        ("5-D NCDHW", base(dy=_f((1, 3, 1, 1, 2), fmt=ncdhw), x=_f((1, 3, 1, 1, 2), fmt=ncdhw),
                           gi=_f((1, 3, 1, 1, 2), fmt=ncdhw)), 0, ""),
    ]  # fmt: skip


def test_status_cases_in_order(session: npu.Session) -> None:
    for name, args, expected, fragment in _status_cases():
        assert status(aclnn.aclnnBatchNormBackwardGetWorkspaceSize, *args) == expected, (name, acl.get_recent_err_msg())
        if expected:
            assert fragment in acl.get_recent_err_msg(), (name, acl.get_recent_err_msg())


def test_short_vector_fails_the_l0(session: npu.Session) -> None:
    """Off the 950 the saved pair's shape is not checked; one of the wrong length fails BNTrainingUpdateGrad."""
    x = _f((2, 3, 4))
    args = (x, x, None, None, None, _f((2,)), _f((2,)), True, EPS, _mask(True, True, True), x, _f((3,)), _f((3,)))
    assert status(aclnn.aclnnBatchNormBackwardGetWorkspaceSize, *args) == 561103


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend950PR_9599"])
def test_other_socs(soc: str) -> None:
    """310P refuses bfloat16; the 950 wants a three-entry mask, runs BatchNormGradV3 on the saved rstd (as its
    aclnnBatchNorm saves it), takes NHWC channel last, checks the saved pair and the vectors' dtypes, and
    returns at once for an all-false mask."""
    with process.fresh(Settings(soc=soc)), npu.Session() as session:
        SESSIONS.append(session)
        try:
            _other_soc(soc, int(session.stream or 0))
        finally:
            SESSIONS.remove(session)


def _other_soc(soc: str, stream: int) -> None:
    bf = _f((2, 3), D.DT_BF16)
    call = [bf, bf, None, None, None, None, None, False, EPS, _mask(True, False, False), bf, None, None]
    expected = INVALID if soc == "Ascend310P3" else 0
    assert status(aclnn.aclnnBatchNormBackwardGetWorkspaceSize, *call) == expected
    if soc == "Ascend310P3":
        assert "gradOut dtype DT_BF16 should be in dtype support list" in acl.get_recent_err_msg()
        return
    f, h = _f((2, 3)), _f((2, 3), D.DT_FLOAT16)
    cases = [
        ([f, f, None, None, None, None, None, True, EPS, _mask(True, False), f, None, None], NULLPTR,
         "outputMask size should be 3, but got 2."),
        ([h, h, _f((3,)), None, None, None, None, True, EPS, _mask(True, True, True), h, _f((3,)), _f((3,))], 0, ""),
        ([bf, bf, _f((3,), D.DT_FLOAT16), None, None, None, None, True, EPS, _mask(False, False, False), None, None,
          None], INVALID, "Dtype of weight:[DT_FLOAT16] should be float or same as gradOut"),
        ([f, f, None, None, None, _f((2,)), None, True, EPS, _mask(False, False, False), None, None, None], INVALID,
         "Dim of saveMean should be one"),
        ([f, f, None, None, None, _f((0,)), _f((0,)), False, EPS, _mask(False, False, False), None, None, None], 0, ""),
        ([f, f, None, None, None, None, None, True, EPS, _mask(False, True, False), None, _f((2,)), None], INVALID,
         "Dim of gradWeight should be one"),
    ]  # fmt: skip
    for args, want, fragment in cases:
        assert status(aclnn.aclnnBatchNormBackwardGetWorkspaceSize, *args) == want, acl.get_recent_err_msg()
        assert not want or fragment in acl.get_recent_err_msg()
    rng = np.random.default_rng(4)
    a, dy = rng.normal(0, 1, (2, 2, 3, 4)), rng.normal(0, 1, (2, 2, 3, 4))  # NHWC: C = 4
    w = rng.uniform(0.5, 2, 4).astype(np.float32)
    nhwc = Fm.ACL_FORMAT_NHWC
    x = _t(a, F32, nhwc)
    mean, rstd = a.mean(axis=(0, 1, 2)), 1 / np.sqrt(a.var(axis=(0, 1, 2)) + EPS)
    outs = [_t(np.zeros(a.shape), F32, nhwc), empty_out((4,), F32), empty_out((4,), F32)]
    _bwd(stream, _t(dy, F32, nhwc), x, [_t(w), None, None, _t(mean), _t(rstd)], True, list(outs))
    golden = adjoint(dy.astype(np.float32), a.astype(np.float32), w, mean, rstd, True, axis=3)
    for out, want in zip(outs, golden, strict=True):
        check(out, want)
