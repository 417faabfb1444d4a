"""The backward ops end to end: aclnnSigmoidBackward, aclnnSiluBackward, aclnnGeluBackward,
aclnnHardswishBackward, aclnnThresholdBackward, aclnnSoftmaxBackward and aclnnLogSoftmaxBackward.

Every gradient is checked against a central finite difference of its forward computed in float64
numpy (the forward's Jacobian-vector product for the softmax rows), under the precision standard;
plus the official examples' values, broadcasting, strided views, the empty case and every status the
real L2 code returns, with its aclGetRecentErrMsg text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, np_dtype, random_values, run_op, scalar, to_device

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
NULLPTR, INVALID = 161001, 161002
STEP = 1e-6
SQRT_2_OVER_PI = np.sqrt(2 / np.pi)
Forward = Callable[[np.ndarray], np.ndarray]


def sigmoid64(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def gelu_tanh64(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x**3)))


def hardswish64(x: np.ndarray) -> np.ndarray:
    return x * np.clip(x + 3, 0, 6) / 6


def threshold64(t: float) -> Forward:
    return lambda x: np.where(x > t, x, 0.0)


FORWARDS: dict[str, Forward] = {
    "sigmoid": sigmoid64,
    "silu": lambda x: x * sigmoid64(x),
    "gelu": gelu_tanh64,
    "hardswish": hardswish64,
}


def finite_difference(forward: Forward, x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """dy · f'(x) by a central difference of the float64 forward."""
    x64 = x.astype(np.float64)
    return dy.astype(np.float64) * (forward(x64 + STEP) - forward(x64 - STEP)) / (2 * STEP)


def away_from(values: np.ndarray, kinks: tuple[float, ...], dtype: int) -> np.ndarray:
    """The values moved off the forward's kinks (where no derivative exists), in ``dtype``."""
    v = values.astype(np.float64)
    for k in kinks:
        v = np.where(np.abs(v - k) < 0.05, k + 0.25, v)
    return v.astype(np_dtype(dtype))


def assert_rejected(result: tuple[Any, ...], code: int, text: str) -> None:
    assert result[-1] == code, acl.get_recent_err_msg()
    assert text in acl.get_recent_err_msg()


def kernels(executor: Any) -> list[str]:
    return [launcher.name for launcher in executor.launchers]


# -- the elementwise backwards ------------------------------------------------------------------------------
def _run_elementwise(stream: int, op: str, dtype: int, dy_shape: tuple, x_shape: tuple, strided: bool) -> None:
    rng = np.random.default_rng(dtype)
    x = away_from(random_values(dtype, x_shape, rng), (-3.0, 0.0, 3.0), dtype)
    dy = random_values(dtype, dy_shape, rng)
    out_shape = np.broadcast_shapes(dy_shape, x_shape)
    out = empty_out(out_shape, dtype, strided=strided)
    dy_t, x_t = to_device(dy, dtype, strided=strided), to_device(x, dtype, strided=strided)
    if op == "sigmoid":  # the backward takes the forward's output
        y = sigmoid64(x.astype(np.float64)).astype(np_dtype(dtype))
        phase = (A.aclnnSigmoidBackwardGetWorkspaceSize, A.aclnnSigmoidBackward)
        run_op(*phase, stream, dy_t.handle, to_device(y, dtype, strided=strided).handle, out.handle)
        y64 = y.astype(np.float64)
        check(out, dy.astype(np.float64) * y64 * (1 - y64))
        x = np.log(y64 / (1 - y64))  # the x that y came from: the finite difference is taken there
        check(out, finite_difference(sigmoid64, x, np.broadcast_to(dy, out_shape)))
        return
    api = {"silu": "SiluBackward", "gelu": "GeluBackward", "hardswish": "HardswishBackward"}[op]
    run_op(getattr(A, f"aclnn{api}GetWorkspaceSize"), getattr(A, f"aclnn{api}"), stream, dy_t.handle, x_t.handle,
           out.handle)  # fmt: skip
    check(out, finite_difference(FORWARDS[op], np.broadcast_to(x, out_shape), np.broadcast_to(dy, out_shape)))


WIDENED = {"sigmoid": D.DT_FLOAT16, "silu": D.DT_BF16, "gelu": D.DT_FLOAT16, "hardswish": D.DT_BF16}
ACTIVATION_CASES = [(op, D.DT_FLOAT) for op in WIDENED] + list(WIDENED.items())


@pytest.mark.parametrize(("op", "dtype"), ACTIVATION_CASES, ids=str)
def test_activation_backward_matches_finite_differences(stream: int, op: str, dtype: int) -> None:
    """float32 and a widened half dtype (float16 / bfloat16 compute in float32) per op, over several cores."""
    _run_elementwise(stream, op, dtype, (40, 301), (40, 301), strided=False)


@pytest.mark.parametrize("op", ["sigmoid", "gelu"])
def test_broadcasting_backward(stream: int, op: str) -> None:
    """Sigmoid and Gelu broadcast gradOutput against their second input (BroadcastTo both first)."""
    _run_elementwise(stream, op, D.DT_FLOAT, (3, 1, 5), (4, 1), strided=False)


@pytest.mark.parametrize("op", ["silu", "hardswish", "gelu"])
def test_strided_views(stream: int, op: str) -> None:
    """Non-contiguous inputs and output: the gaps of the output view keep their contents."""
    _run_elementwise(stream, op, D.DT_FLOAT, (6, 9), (6, 9), strided=True)


def test_sigmoid_backward_float64_runs_on_aicpu(stream: int) -> None:
    """float64 (and complex) SigmoidGrad is the AI CPU kernel; complex takes the conjugate derivative."""
    y = np.array([0.1, 0.5, 0.9], np.float64)
    dy = np.array([1.0, -2.0, 3.0])
    out = empty_out((3,), D.DT_DOUBLE)
    args = (to_device(dy, D.DT_DOUBLE).handle, to_device(y, D.DT_DOUBLE).handle, out.handle)
    ws, executor, ret = A.aclnnSigmoidBackwardGetWorkspaceSize(*args)
    assert ret == 0 and kernels(executor) == ["SigmoidGrad(AI CPU)"]
    assert A.aclnnSigmoidBackward(0, ws, executor, stream) == 0 and acl.rt.synchronize_stream(stream) == 0
    check(out, dy * y * (1 - y))
    yc = np.array([0.5 + 0.5j], np.complex64)
    outc = empty_out((1,), D.DT_COMPLEX64)
    run_op(A.aclnnSigmoidBackwardGetWorkspaceSize, A.aclnnSigmoidBackward, stream,
           to_device(np.ones(1, np.complex64), D.DT_COMPLEX64).handle, to_device(yc, D.DT_COMPLEX64).handle,
           outc.handle)  # fmt: skip
    check(outc, np.conj(yc.astype(np.complex128) * (1 - yc)))


def test_gelu_backward_documented_example(stream: int) -> None:
    """The official example: an int32 gradOutput of ones promoted against a float self 0..7."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = empty_out((4, 2), D.DT_FLOAT)
    ones, self = to_device(np.ones((4, 2), np.int32), D.DT_INT32), to_device(x, D.DT_FLOAT)
    run_op(A.aclnnGeluBackwardGetWorkspaceSize, A.aclnnGeluBackward, stream, ones.handle, self.handle, out.handle)
    check(out, finite_difference(gelu_tanh64, x, np.ones((4, 2))))


# -- aclnnThresholdBackward ---------------------------------------------------------------------------------
def test_threshold_backward_documented_example(stream: int) -> None:
    """The official example: threshold 1 passes the gradient where self > 1 (ThresholdGradV2D)."""
    x = np.array([[0.2, 1.2], [2.2, 3.2]], np.float32)
    dy = np.array([[4.5, 4.4], [4.3, 4.2]], np.float32)
    out = empty_out((2, 2), D.DT_FLOAT)
    args = (to_device(dy, D.DT_FLOAT).handle, to_device(x, D.DT_FLOAT).handle, scalar(1.0, D.DT_FLOAT), out.handle)
    ws, executor, ret = A.aclnnThresholdBackwardGetWorkspaceSize(*args)
    assert ret == 0 and "ThresholdGradV2D" in kernels(executor)
    assert A.aclnnThresholdBackward(0, ws, executor, stream) == 0 and acl.rt.synchronize_stream(stream) == 0
    check(out, [[0.0, 4.4], [4.3, 4.2]])


@pytest.mark.parametrize(("dtype", "threshold"), [(D.DT_FLOAT16, 0.0), (D.DT_INT32, 2), (D.DT_BF16, -1.5)], ids=str)
def test_threshold_backward_dtypes(stream: int, dtype: int, threshold: float) -> None:
    """A zero threshold is ReluGrad; integers exact; a broadcast self; against the forward's difference."""
    rng = np.random.default_rng(5)
    x = away_from(random_values(dtype, (7, 1), rng), (threshold,), dtype) if dtype != D.DT_INT32 else \
        random_values(dtype, (7, 1), rng)  # fmt: skip
    dy = random_values(dtype, (7, 33), rng)
    out = empty_out((7, 33), dtype)
    s = scalar(threshold, D.DT_FLOAT)
    args = (to_device(dy, dtype).handle, to_device(x, dtype).handle, s, out.handle)
    ws, executor, ret = A.aclnnThresholdBackwardGetWorkspaceSize(*args)
    assert ret == 0 and ("ReluGrad" if threshold == 0 else "ThresholdGradV2D") in kernels(executor)
    assert A.aclnnThresholdBackward(0, ws, executor, stream) == 0 and acl.rt.synchronize_stream(stream) == 0
    xb = np.broadcast_to(x, (7, 33)).astype(np.float64)
    if dtype == D.DT_INT32:
        check(out, np.where(xb > threshold, dy, 0).astype(np.int32))
    else:
        check(out, finite_difference(threshold64(threshold), xb, dy))


# -- the softmax backwards ----------------------------------------------------------------------------------
def softmax64(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def row_vjp(forward: Callable[[np.ndarray], np.ndarray], x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """dyᵀ·J by central differences of the forward, one input element at a time (small shapes only)."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = STEP
        grad[index] = np.sum(dy * (forward(x + step) - forward(x - step))) / (2 * STEP)
    return grad


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_softmax_backward_documented_example(stream: int, log: bool) -> None:
    """The official examples' values (an output that is no softmax: the formula is applied as is), dim 0."""
    dy = np.arange(8, dtype=np.float32).reshape(4, 2)
    y = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    out = empty_out((4, 2), D.DT_FLOAT)
    name = "LogSoftmaxBackward" if log else "SoftmaxBackward"
    run_op(getattr(A, f"aclnn{name}GetWorkspaceSize"), getattr(A, f"aclnn{name}"), stream,
           to_device(dy, D.DT_FLOAT).handle, to_device(y, D.DT_FLOAT).handle, 0, out.handle)  # fmt: skip
    d, o = dy.astype(np.float64), y.astype(np.float64)
    golden = d - np.exp(o) * d.sum(0) if log else o * (d - (d * o).sum(0))
    check(out, golden)


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize(("dtype", "shape", "dim"), [(D.DT_FLOAT, (3, 5, 4), 1), (D.DT_FLOAT16, (2, 7), -1),
                                                     (D.DT_BF16, (4, 3), 0)], ids=str)  # fmt: skip
def test_softmax_backward_matches_finite_differences(stream: int, log: bool, dtype: int, shape: tuple,
                                                     dim: int) -> None:  # fmt: skip
    """The gradient of the float64 forward at x, given the forward's output (strided in and out)."""
    rng = np.random.default_rng(len(shape))
    x = rng.uniform(-2, 2, shape)
    dy = random_values(dtype, shape, rng).astype(np.float64)

    def forward(v: np.ndarray) -> np.ndarray:
        s = softmax64(v, dim)
        return np.log(s) if log else s

    y = forward(x).astype(np_dtype(dtype))
    dy_d = dy.astype(np_dtype(dtype))
    out = empty_out(shape, dtype, strided=True)
    name = "LogSoftmaxBackward" if log else "SoftmaxBackward"
    run_op(getattr(A, f"aclnn{name}GetWorkspaceSize"), getattr(A, f"aclnn{name}"), stream,
           to_device(dy_d, dtype, strided=True).handle, to_device(y, dtype, strided=True).handle, dim,
           out.handle)  # fmt: skip
    # the golden is the exact gradient at the x whose forward the stored output rounds
    x_of_y = np.log(y.astype(np.float64)) if not log else y.astype(np.float64)
    check(out, row_vjp(forward, x_of_y, dy_d.astype(np.float64)))


def test_many_rows_span_cores(stream: int) -> None:
    """3000 rows of 16: SoftmaxV2's tiling spreads them over several blocks; every row is written."""
    rng = np.random.default_rng(1)
    y = softmax64(rng.normal(size=(3000, 16)), 1).astype(np.float32)
    dy = rng.normal(size=(3000, 16)).astype(np.float32)
    out = empty_out((3000, 16), D.DT_FLOAT)
    run_op(A.aclnnSoftmaxBackwardGetWorkspaceSize, A.aclnnSoftmaxBackward, stream, to_device(dy, D.DT_FLOAT).handle,
           to_device(y, D.DT_FLOAT).handle, -1, out.handle)  # fmt: skip
    d, o = dy.astype(np.float64), y.astype(np.float64)
    check(out, o * (d - (d * o).sum(1, keepdims=True)))


# -- empty tensors and statuses -----------------------------------------------------------------------------
def _t(shape: tuple, dtype: int = D.DT_FLOAT) -> Any:
    return empty_out(shape, dtype).handle


EMPTY_CALLS = [
    ("SigmoidBackward", lambda: (_t((0, 3)), _t((0, 3)), _t((0, 3)))),
    ("SiluBackward", lambda: (_t((0, 3)), _t((0, 3)), _t((0, 3)))),
    ("GeluBackward", lambda: (_t((0, 3)), _t((0, 3)), _t((0, 3)))),
    ("HardswishBackward", lambda: (_t((0, 3)), _t((0, 3)), _t((0, 3)))),
    ("ThresholdBackward", lambda: (_t((0, 3)), _t((0, 3)), scalar(1.0, D.DT_FLOAT), _t((0, 3)))),
    ("SoftmaxBackward", lambda: (_t((0, 3)), _t((0, 3)), 7, _t((5,), D.DT_INT32))),  # no check after empty
    ("LogSoftmaxBackward", lambda: (_t((0, 3)), _t((0, 3)), 0, _t((0, 3)))),
]


def test_empty_launches_nothing(stream: int) -> None:
    """An empty input: SUCCESS, workspace 0, nothing launched (SoftmaxBackward checks nothing after it)."""
    for name, args in EMPTY_CALLS:
        ws, executor, ret = getattr(A, f"aclnn{name}GetWorkspaceSize")(*args())
        assert (ws, ret) == (0, 0) and executor.launchers == [], name
        assert getattr(A, f"aclnn{name}")(0, 0, executor, stream) == 0


F, H, I32, I64 = D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64
STATUS_CASES = [
    # (api, args, status, text)
    ("SigmoidBackward", lambda: (None, _t((2,)), _t((2,))), NULLPTR, "gradOutput"),
    ("SigmoidBackward", lambda: (_t((2,), I32), _t((2,)), _t((2,))), INVALID, "gradOutput dtype DT_INT32 should be in"),
    ("SigmoidBackward", lambda: (_t((2,), D.DT_COMPLEX64), _t((2,)), _t((2,))), INVALID, "can't be cast to the"),
    ("SigmoidBackward", lambda: (_t((2,)), _t((3,)), _t((2,))), INVALID, "must match the size of tensor other"),
    ("SigmoidBackward", lambda: (_t((2, 1)), _t((3,)), _t((2,))), INVALID, "Exepected tensor for result"),
    ("SigmoidBackward", lambda: (_t((1,) * 9), _t((1,)), _t((1,) * 9)), INVALID, "more than 8"),
    ("SiluBackward", lambda: (_t((2,)), None, _t((2,))), NULLPTR, "self"),
    ("SiluBackward", lambda: (_t((2,)), _t((2,), H), _t((2,))), INVALID, "self dtype DT_FLOAT16 and gradInput dtype"),
    ("SiluBackward", lambda: (_t((2,)), _t((2,)), _t((3,))), INVALID, "gradOutput shape [2] and gradInput shape [3]"),
    ("SiluBackward", lambda: (_t((2,), D.DT_DOUBLE), _t((2,)), _t((2,))), INVALID, "gradOutput dtype DT_DOUBLE"),
    ("GeluBackward", lambda: (_t((2,)), _t((2,)), None), NULLPTR, "gradInput"),
    ("GeluBackward", lambda: (_t((2,), I32), _t((2,), I32), _t((2,))), INVALID, "promoteType dtype DT_INT32"),
    ("GeluBackward", lambda: (_t((2,)), _t((2,)), _t((2, 2))), INVALID, "Shape of out should be [2]"),
    ("HardswishBackward", lambda: (_t((2,)), _t((2,)), None), NULLPTR, "out"),
    ("HardswishBackward", lambda: (_t((2,), H), _t((2,)), _t((2,))), INVALID, "gradOutput dtype DT_FLOAT16 should be"),
    ("HardswishBackward", lambda: (_t((2,)), _t((2,)), _t((2,), H)), INVALID, "out dtype DT_FLOAT16 should be"),
    ("HardswishBackward", lambda: (_t((1, 2)), _t((2,)), _t((2,))), INVALID, "gradOutput shape [1, 2] and self"),
    ("ThresholdBackward", lambda: (_t((2,)), _t((2,)), None, _t((2,))), NULLPTR, "threshold"),
    ("ThresholdBackward", lambda: (None, _t((2,)), scalar(1.0, F), _t((2,))), NULLPTR, "gradOutput"),
    ("ThresholdBackward", lambda: (_t((2,), I64), _t((2,), I64), scalar(0.0, F), _t((2,))), INVALID, "DT_INT64 should"),
    ("ThresholdBackward", lambda: (_t((2,)), _t((2,)), scalar(1.0, F), _t((2,), H)), INVALID, "out dtype DT_FLOAT16"),
    ("ThresholdBackward", lambda: (_t((2,)), _t((3, 2)), scalar(1.0, F), _t((2,))), INVALID, "Shape of out should"),
    ("SoftmaxBackward", lambda: (_t((2,)), _t((2,)), 0, None), NULLPTR, "out"),
    ("SoftmaxBackward", lambda: (_t((2,)), _t((2,), H), 0, _t((2,))), INVALID, "output dtype DT_FLOAT16 should"),
    ("SoftmaxBackward", lambda: (_t((2,)), _t((2,)), 1, _t((2,))), INVALID, "provided dim 1 not in the range of input"),
    ("SoftmaxBackward", lambda: (_t((2,)), _t((3,)), 0, _t((2,))), INVALID, "gradOutput shape [2] and output shape"),
    ("LogSoftmaxBackward", lambda: (_t((2,)), None, 0, _t((2,))), NULLPTR, "output"),
    ("LogSoftmaxBackward", lambda: (_t((2,), H), _t((2,)), 0, _t((2,))), INVALID, "gradOutput dtype DT_FLOAT16 and"),
    ("LogSoftmaxBackward", lambda: (_t((1,) * 9), _t((1,) * 9), 0, _t((1,) * 9)), INVALID, "can't be greater than 8"),
    ("LogSoftmaxBackward", lambda: (_t((2, 3)), _t((2, 3)), -3, _t((2, 3))), INVALID, "provided dim -3 not in"),
]


def test_statuses(session: Any) -> None:
    """Every check of the real L2 code, in one process: the status and the aclGetRecentErrMsg text."""
    for name, args, code, text in STATUS_CASES:
        assert_rejected(getattr(A, f"aclnn{name}GetWorkspaceSize")(*args()), code, text)


def test_bfloat16_refused_on_310p() -> None:
    """The SoC-dependent bfloat16 checks: Atlas inference (310P) refuses bfloat16 gradients; float32 still runs."""
    settings = Settings.from_env().model_copy(update={"soc": "Ascend310P3"})
    with process.fresh(settings), npu.Session() as session:

        def t(dtype: int) -> Any:
            return session.tensor(np.zeros(3, np.float32), dtype).handle

        bf, f32 = D.DT_BF16, D.DT_FLOAT
        cases = [
            (A.aclnnSigmoidBackwardGetWorkspaceSize, (t(bf), t(f32), t(f32)), "is unsupported by the current SOC"),
            (A.aclnnSiluBackwardGetWorkspaceSize, (t(bf), t(bf), t(bf)), "unsupported by the current npuArch"),
            (A.aclnnGeluBackwardGetWorkspaceSize, (t(bf), t(bf), t(bf)), "gelu is not support bfloat16"),
            (A.aclnnHardswishBackwardGetWorkspaceSize, (t(bf), t(bf), t(bf)), "self dtype DT_BF16 should be in"),
            (A.aclnnSoftmaxBackwardGetWorkspaceSize, (t(bf), t(bf), 0, t(bf)), "aclnnSoftmaxBackward is not support"),
            (A.aclnnLogSoftmaxBackwardGetWorkspaceSize, (t(f32), t(bf), 0, t(f32)), "not support bfloat16"),
        ]
        for phase1, args, text in cases:
            assert_rejected(phase1(*args), INVALID, text)
        assert A.aclnnHardswishBackwardGetWorkspaceSize(t(f32), t(f32), t(f32))[-1] == 0


# -- aclnnRmsNormGrad ---------------------------------------------------------------------------------------
EPS = 1e-6


def rms_norm64(x: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    rows = x.reshape(-1, gamma.size)
    rstd = 1 / np.sqrt(np.mean(rows * rows, axis=1, keepdims=True) + EPS)
    return (rows * rstd * gamma.reshape(-1)).reshape(x.shape)


def run_rms_norm_grad(stream: int, dy: np.ndarray, x: np.ndarray, rstd: np.ndarray, gamma: np.ndarray, dtype: int,
                      gamma_dtype: int, strided: bool = False) -> tuple[Any, Any]:  # fmt: skip
    dx, dgamma = empty_out(x.shape, dtype, strided=strided), empty_out(gamma.shape, D.DT_FLOAT)
    inputs = (to_device(dy, dtype, strided=strided), to_device(x, dtype, strided=strided),
              to_device(rstd, D.DT_FLOAT), to_device(gamma, gamma_dtype))  # fmt: skip
    args = (*(t.handle for t in inputs), dx.handle, dgamma.handle)
    run_op(A.aclnnRmsNormGradGetWorkspaceSize, A.aclnnRmsNormGrad, stream, *args)
    return dx, dgamma


def test_rms_norm_grad_documented_example(stream: int) -> None:
    """The official example's shapes: x [2, 1, 16] with rstd [2] (one per row) and gamma [16]."""
    dy = np.arange(1, 33, dtype=np.float32).reshape(2, 1, 16)
    x = dy.copy()
    rstd, gamma = np.array([1, 2], np.float32), np.arange(1, 17, dtype=np.float32)
    dx, dgamma = run_rms_norm_grad(stream, dy, x, rstd, gamma, D.DT_FLOAT, D.DT_FLOAT)
    rows, xr, r = dy.reshape(2, 16).astype(np.float64), x.reshape(2, 16).astype(np.float64), rstd[:, None]
    gy = rows * gamma
    check(dx, (r * gy - xr * r**3 * np.mean(gy * xr, axis=1, keepdims=True)).reshape(2, 1, 16))
    check(dgamma, np.sum(rows * xr * r, axis=0))


@pytest.mark.parametrize(("dtype", "gamma_dtype"), [(D.DT_FLOAT, D.DT_FLOAT), (D.DT_BF16, D.DT_BF16),
                                                    (D.DT_FLOAT16, D.DT_FLOAT)], ids=str)  # fmt: skip
def test_rms_norm_grad_matches_finite_differences(stream: int, dtype: int, gamma_dtype: int) -> None:
    """dx and dgamma against central differences of the float64 RmsNorm forward (rstd from the forward)."""
    rng = np.random.default_rng(dtype)
    x = rng.normal(size=(3, 2, 8)).astype(np_dtype(dtype))
    gamma = rng.uniform(0.5, 1.5, 8).astype(np_dtype(gamma_dtype))
    dy = rng.normal(size=(3, 2, 8)).astype(np_dtype(dtype))
    x64, g64, dy64 = x.astype(np.float64), gamma.astype(np.float64), dy.astype(np.float64)
    rstd = (1 / np.sqrt(np.mean(x64.reshape(6, 8) ** 2, axis=1) + EPS)).astype(np.float32)
    dx, dgamma = run_rms_norm_grad(stream, dy, x, rstd.reshape(3, 2), gamma, dtype, gamma_dtype, strided=True)
    check(dx, row_vjp(lambda v: rms_norm64(v, g64), x64, dy64))
    check(dgamma, row_vjp(lambda g: rms_norm64(x64, g), g64, dy64))


def test_rms_norm_grad_many_rows(stream: int) -> None:
    """4000 rows: dx rows spread over the cores, dgamma summed over all of them."""
    rng = np.random.default_rng(2)
    x, dy = rng.normal(size=(4000, 16)).astype(np.float32), rng.normal(size=(4000, 16)).astype(np.float32)
    gamma = rng.normal(size=16).astype(np.float32)
    rstd = (1 / np.sqrt(np.mean(x.astype(np.float64) ** 2, axis=1) + EPS)).astype(np.float32)
    dx, dgamma = run_rms_norm_grad(stream, dy, x, rstd, gamma, D.DT_FLOAT, D.DT_FLOAT)
    r, xs, gy = rstd[:, None].astype(np.float64), x.astype(np.float64), dy.astype(np.float64) * gamma
    check(dx, r * gy - xs * r**3 * np.mean(gy * xs, axis=1, keepdims=True))
    check(dgamma, np.sum(dy.astype(np.float64) * xs * r, axis=0))


def test_rms_norm_grad_statuses(session: Any) -> None:
    """The generated API's statuses: 161001, 161002 (dtype table), 561001 (outputs), 561002 (tiling)."""
    f, h = D.DT_FLOAT, D.DT_FLOAT16

    def call(x: tuple = (2, 4), dy: tuple = (2, 4), rstd: tuple = (2,), gamma: tuple = (4,), dt: int = f,
             gdt: int = f, dx: tuple | None = None, dg: tuple | None = None, null: str = "") -> tuple:  # fmt: skip
        tensors = {"dy": _t(dy, dt), "x": _t(x, dt), "rstd": _t(rstd), "gamma": _t(gamma, gdt),
                   "dxOut": _t(dx or x, dt), "dgammaOut": _t(dg or gamma)}  # fmt: skip
        if null:
            tensors[null] = None
        return A.aclnnRmsNormGradGetWorkspaceSize(*tensors.values())

    assert_rejected(call(null="rstd"), NULLPTR, "rstd")
    assert_rejected(call(null="dgammaOut"), NULLPTR, "dgammaOut")
    assert_rejected(call(dt=h, gdt=D.DT_BF16), INVALID, "not a supported combination")
    assert_rejected(call(dt=D.DT_DOUBLE), INVALID, "not a supported combination")
    assert_rejected(call(dx=(4, 2)), 561001, "dxOut must be [2, 4]")
    assert_rejected(call(dg=(2, 2)), 561001, "dgammaOut [4]")
    assert_rejected(call(x=(8,), dy=(8,), rstd=(2,)), 561002, "x has 1 dims")
    assert_rejected(call(dy=(4, 2)), 561002, "dy shape [4, 2] and x shape [2, 4]")
    assert_rejected(call(rstd=(3,)), 561002, "rstd shape [3]")
    ws, executor, ret = call(x=(0, 4), dy=(0, 4), rstd=(0,))
    assert (ws, ret) == (0, 0) and executor.launchers == []
