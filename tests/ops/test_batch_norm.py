"""aclnnBatchNorm against a float64 numpy golden: the documented example, training (running statistics
updated with momentum and the unbiased variance; saveMean and saveInvstd as each chain defines them)
and inference, the A2 chains (BNTrainingReduce / Update, BN3D for 5-D, BatchNormV3 for NCHW with
C >= 64, BNInfer), the 950 branch (BatchNormV3 in both modes, channel-last NHWC, rstd saved), the
310P list, missing optional vectors, an empty input, and each status case in the real order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, run_op, status, to_device
from device_helpers import SESSIONS, device_tensor

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType
from emulator.meta.formats import aclFormat
from emulator.testing.precision import assert_precision

D = DataType
F32 = D.DT_FLOAT
NULLPTR, INVALID = 161001, 161002
EPS, MOMENTUM = 1e-5, 0.1


def golden(x: np.ndarray, w: np.ndarray, b: np.ndarray, rm: np.ndarray, rv: np.ndarray, training: bool,
           axis: int = 1) -> dict[str, np.ndarray]:  # fmt: skip
    """float64 batch norm over every axis but ``axis``: y, the new running stats, mean, var and rstd."""
    x64 = np.moveaxis(x.astype(np.float64), axis, 1)
    axes = (0, *range(2, x64.ndim))
    n = x64.size // x64.shape[1]
    shape = (1, -1) + (1,) * (x64.ndim - 2)
    mean, var = x64.mean(axis=axes), x64.var(axis=axes)
    use_mean, use_var = (mean, var) if training else (rm.astype(np.float64), rv.astype(np.float64))
    y = (x64 - use_mean.reshape(shape)) / np.sqrt(use_var.reshape(shape) + EPS) * w.reshape(shape) + b.reshape(shape)
    return {
        "y": np.moveaxis(y, 1, axis),
        "rm": (1 - MOMENTUM) * rm + MOMENTUM * mean,
        "rv": (1 - MOMENTUM) * rv + MOMENTUM * var * n / (n - 1),
        "mean": mean,
        "var": var,
        "rstd": 1 / np.sqrt(var + EPS),
    }


def _tensor(values: np.ndarray, dtype: int = F32, fmt: int = aclFormat.ACL_FORMAT_ND) -> npu.Tensor:
    """A dense device tensor of ``values`` in ``dtype`` and storage format ``fmt``."""
    values = np.asarray(values).astype(npu.host_dtype(dtype))
    return device_tensor(values.reshape(-1), dtype, values.shape, fmt=fmt)


def _bn(stream: int, x: npu.Tensor, vecs: list[npu.Tensor | None], training: bool, out: npu.Tensor,
        saved: tuple[npu.Tensor | None, npu.Tensor | None]) -> None:  # fmt: skip
    handles = [None if v is None else v.handle for v in vecs]
    save = [None if s is None else s.handle for s in saved]
    run_op(aclnn.aclnnBatchNormGetWorkspaceSize, aclnn.aclnnBatchNorm, stream, x.handle, *handles, training,
           MOMENTUM, EPS, out.handle, *save)  # fmt: skip


def _params(c: int, rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.uniform(0.5, 2, c), rng.uniform(-1, 1, c), rng.uniform(-1, 1, c), rng.uniform(0.5, 2, c)]


def test_documented_example(stream: int) -> None:
    """[1, 2, 4] float32 0..7, weight 1, bias 0, running 0 / 1, training, momentum 0.1, eps 1e-5."""
    a = np.arange(8, dtype=np.float32).reshape(1, 2, 4)
    ones, zeros = np.ones(2, np.float32), np.zeros(2, np.float32)
    x, out, mean, var = _tensor(a), empty_out((1, 2, 4), F32), empty_out((2,), F32), empty_out((2,), F32)
    rm, rv = _tensor(zeros), _tensor(ones)
    _bn(stream, x, [_tensor(ones), _tensor(zeros), rm, rv], True, out, (mean, var))
    g = golden(a, ones, zeros, zeros, ones, True)
    check(out, g["y"])  # [-1.342, -0.447, 0.447, 1.342] per channel
    check(mean, g["mean"])  # [1.5, 5.5]
    check(var, g["var"])  # A2: saveInvstd holds the batch variance, 1.25
    check(rm, g["rm"])
    check(rv, g["rv"])  # 0.9 + 0.1 * 1.25 * 4 / 3


@pytest.mark.parametrize(
    ("shape", "dtype", "fmt"),
    [((4, 3), D.DT_FLOAT16, aclFormat.ACL_FORMAT_ND), ((2, 3, 2, 5), F32, aclFormat.ACL_FORMAT_NCHW),
     ((2, 3, 2, 2, 3), D.DT_BF16, aclFormat.ACL_FORMAT_NCDHW), ((2, 3, 2, 2, 1, 2), F32, aclFormat.ACL_FORMAT_ND),
     ((2, 64, 3, 2), F32, aclFormat.ACL_FORMAT_NCHW)],
    ids=["2d-fp16", "nchw", "ncdhw-bf16", "6d", "v3-c64"],
)  # fmt: skip
def test_training_chains(stream: int, shape: tuple[int, ...], dtype: int, fmt: int) -> None:
    """Each A2 training chain; C = 64 NCHW takes BatchNormV3 and saves rstd instead of the variance."""
    rng = np.random.default_rng(5)
    c = shape[1]
    a = rng.normal(1, 2, shape).astype(np.float32)
    w, b, rm0, rv0 = _params(c, rng)
    x, out = _tensor(a, dtype, fmt), _tensor(np.zeros(shape), dtype, fmt)
    rm, rv = _tensor(rm0.astype(np.float32)), _tensor(rv0.astype(np.float32))
    mean, stat = empty_out((c,), F32), empty_out((c,), F32)
    _bn(stream, x, [_tensor(w.astype(np.float32)), _tensor(b.astype(np.float32)), rm, rv], True, out, (mean, stat))
    g = golden(x.numpy(), w.astype(np.float32), b.astype(np.float32), rm0.astype(np.float32),
               rv0.astype(np.float32), True)  # fmt: skip
    check(out, g["y"])
    check(mean, g["mean"])
    check(stat, g["rstd"] if c >= 64 else g["var"])
    check(rm, g["rm"])
    check(rv, g["rv"])


def test_inference_leaves_running_stats_and_defaults(stream: int) -> None:
    """Inference normalises by the running statistics (a strided input view), writes neither them nor the
    saved pair; without any vector the defaults are weight 1, bias 0, mean 0, var 1."""
    rng = np.random.default_rng(6)
    a = rng.normal(0, 3, (3, 4, 5)).astype(np.float32)
    w, b, rm0, rv0 = (v.astype(np.float32) for v in _params(4, rng))
    x, out = to_device(a, F32, strided=True), empty_out(a.shape, F32)
    rm, rv = _tensor(rm0), _tensor(rv0)
    _bn(stream, x, [_tensor(w), _tensor(b), rm, rv], False, out, (None, None))
    check(out, golden(a, w, b, rm0, rv0, False)["y"])
    check(rm, rm0)
    check(rv, rv0)
    out = empty_out(a.shape, F32)
    _bn(stream, x, [None, None, None, None], False, out, (None, None))
    check(out, a / np.sqrt(1 + EPS))


def test_empty_input_fills_saved(stream: int) -> None:
    """An empty input fills saveMean with 0 and saveInvstd with NaN, before any other check."""
    x, out = _tensor(np.zeros((0, 3), np.float32)), _tensor(np.zeros((0, 3), np.float32))
    mean, var = empty_out((3,), F32), empty_out((3,), F32)
    _bn(stream, x, [None, None, None, None], True, out, (mean, var))
    check(mean, np.zeros(3))
    check(var, np.full(3, np.nan))


def _f(shape: tuple[int, ...], dtype: int = F32, fmt: int = aclFormat.ACL_FORMAT_ND) -> Any:
    return _tensor(np.zeros(shape), dtype, fmt).handle


def _status_cases() -> list[tuple[str, list[Any], int, str]]:
    """(name, the 11 arguments, status, message fragment) in the order the real L2 checks them."""
    x, o, v = (lambda: _f((2, 3, 4))), (lambda: _f((2, 3, 4))), (lambda: _f((3,)))
    base = lambda **kw: [kw.get("x", x()), kw.get("w", v()), None, None, kw.get("rv", None), kw.get("t", True),  # noqa: E731
                         MOMENTUM, EPS, kw.get("o", o()), kw.get("m", v()), kw.get("s", v())]  # fmt: skip
    ncdhw = aclFormat.ACL_FORMAT_NCDHW
    return [
        ("null input", base(x=None), NULLPTR, "expected input not to be a null pointer"),
        ("null out", base(o=None), NULLPTR, "expected out not to be a null pointer"),
        ("null saveMean in training", base(m=None), NULLPTR, "expected saveMean not to be a null"),
        ("int32 input", base(x=_f((2, 3, 4), D.DT_INT32)), INVALID, "input dtype DT_INT32"),
        ("int32 saveInvstd", base(s=_f((3,), D.DT_INT32)), INVALID, "saveInvstd dtype DT_INT32"),
        ("int32 runningVar", base(rv=_f((3,), D.DT_INT32)), INVALID, "runningVar dtype DT_INT32"),
        ("formats differ", base(o=_f((2, 3, 4), fmt=aclFormat.ACL_FORMAT_NCL)), INVALID, "input [ND], output [NCL]"),
        ("5-D ND", base(x=_f((1, 3, 1, 1, 2)), o=_f((1, 3, 1, 1, 2))), INVALID, "Format of input should be NCDHW"),
        ("private", base(x=_f((2, 3, 4), fmt=3), o=_f((2, 3, 4), fmt=3)), INVALID, "Format only support"),
        ("rank 1", base(x=_f((3,)), o=_f((3,))), INVALID, "input has 1 dims, fewer than 2"),
        ("out shape", base(o=_f((2, 3, 5))), INVALID, "out shape [2, 3, 5] should be the same as input"),
        ("weight shape", base(w=_f((4,))), INVALID, "Dim of weight should be one"),
        ("saveMean shape", base(m=_f((2,))), INVALID, "Expected tensor for saveMean to have same size as [3]"),
        ("eval skips saved", base(t=False, m=None, s=_f((1,), D.DT_INT32)), 0, ""),
        ("5-D NCDHW", base(x=_f((1, 3, 1, 1, 2), fmt=ncdhw), o=_f((1, 3, 1, 1, 2), fmt=ncdhw)), 0, ""),
    ]


def test_status_cases_in_order(session: npu.Session) -> None:
    for name, args, expected, fragment in _status_cases():
        assert status(aclnn.aclnnBatchNormGetWorkspaceSize, *args) == expected, (name, acl.get_recent_err_msg())
        if expected:
            assert fragment in acl.get_recent_err_msg(), (name, acl.get_recent_err_msg())


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend950PR_9599"])
def test_other_socs(soc: str) -> None:
    """310P refuses bfloat16 (A2 accepts it); the 950 runs BatchNormV3, saves rstd, takes NHWC channel-last
    (C the last dim) and a 5-D NDHWC."""
    with process.fresh(Settings(soc=soc)), npu.Session() as session:
        SESSIONS.append(session)
        try:
            _other_soc(soc, session)
        finally:
            SESSIONS.remove(session)


def _other_soc(soc: str, session: npu.Session) -> None:
    stream = int(session.stream or 0)
    bf = session.tensor(np.zeros((2, 3), np.float32), D.DT_BF16).handle
    call = (bf, None, None, None, None, False, MOMENTUM, EPS, bf, None, None)
    expected = INVALID if soc == "Ascend310P3" else 0
    assert status(aclnn.aclnnBatchNormGetWorkspaceSize, *call) == expected
    if soc == "Ascend310P3":
        assert "input dtype DT_BF16 should be in dtype support list" in acl.get_recent_err_msg()
        return
    rng = np.random.default_rng(8)
    a = rng.normal(0, 1, (2, 2, 3, 4)).astype(np.float32)  # NHWC: C = 4
    w, b, rm0, rv0 = (v.astype(np.float32) for v in _params(4, rng))
    nhwc = aclFormat.ACL_FORMAT_NHWC
    x, out = _tensor(a, F32, nhwc), _tensor(np.zeros_like(a), F32, nhwc)
    rm, rv, mean, rstd = _tensor(rm0), _tensor(rv0), empty_out((4,), F32), empty_out((4,), F32)
    _bn(stream, x, [_tensor(w), _tensor(b), rm, rv], True, out, (mean, rstd))
    g = golden(a, w, b, rm0, rv0, True, axis=3)
    assert_precision(out.numpy(), g["y"].astype(np.float32))
    for t, key in ((mean, "mean"), (rstd, "rstd"), (rm, "rm"), (rv, "rv")):
        check(t, g[key])
    ndhwc = aclFormat.ACL_FORMAT_NDHWC
    five = (_f((1, 1, 1, 2, 3), fmt=ndhwc), None, None, None, None, False, MOMENTUM, EPS,
            _f((1, 1, 1, 2, 3), fmt=ndhwc), None, None)  # fmt: skip
    assert status(aclnn.aclnnBatchNormGetWorkspaceSize, *five) == 0


@pytest.mark.parametrize("dtype", [D.DT_FLOAT16], ids=ident)
def test_half_running_stats_are_cast_back(stream: int, dtype: int) -> None:
    """float16 running statistics go through float32 and come back rounded to float16."""
    rng = np.random.default_rng(9)
    a = rng.normal(0, 1, (4, 3, 5)).astype(np.float16)
    w, b, rm0, rv0 = (v.astype(np.float16) for v in _params(3, rng))
    x, out = _tensor(a, dtype), empty_out(a.shape, dtype)
    rm, rv, mean, var = _tensor(rm0, dtype), _tensor(rv0, dtype), empty_out((3,), dtype), empty_out((3,), dtype)
    _bn(stream, x, [_tensor(w, dtype), _tensor(b, dtype), rm, rv], True, out, (mean, var))
    g = golden(a, w, b, rm0, rv0, True)
    for t, key in ((out, "y"), (mean, "mean"), (var, "var"), (rm, "rm"), (rv, "rv")):
        check(t, g[key])
