"""Upsampling (issue 15): UpsampleNearest2d, UpsampleBilinear2d and their backward ops.

Forward results against a float64 loop golden of torch's definitions; backward results against the
loop golden and as the exact adjoint of the emulated forward (<up(x), g> == <x, up_backward(g)>);
the documented examples; the A2 kernel paths; NHWC, strided and empty tensors; every status the
real L2 code checks, with its aclGetRecentErrMsg text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from reduce_helpers import INVALID, NULLPTR, check

from emulator import acl, aclnn, npu

A = aclnn
F32, F16, B16, F64, U8 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16, A.ACL_DOUBLE, A.ACL_UINT8
NCHW, NHWC, ND = A.ACL_FORMAT_NCHW, A.ACL_FORMAT_NHWC, A.ACL_FORMAT_ND
HOST = {F32: np.float32, F16: np.float16, B16: ml_dtypes.bfloat16, F64: np.float64, U8: np.uint8,
        A.ACL_INT32: np.int32}  # fmt: skip
INNER_NULLPTR = 561103


# -- goldens (float64 loops over torch's source-index rules) -----------------------------------------------
def _step(n_in: int, n_out: int, align: bool, scale: float) -> float:
    if align:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    return 1.0 / scale if scale > 0 else n_in / n_out


def _taps(n_in: int, n_out: int, linear: bool, align: bool, scale: float) -> list[tuple[int, int, float]]:
    step = np.float32(_step(n_in, n_out, align, scale))
    taps = []
    for d in range(n_out):
        if not linear:
            i = min(math.floor(float(np.float32(d) * step)), n_in - 1)
            taps.append((i, i, 0.0))
            continue
        pos = float(np.float32(d) * step) if align else max(float((np.float32(d) + 0.5) * step - 0.5), 0.0)
        i0 = min(int(pos), n_in - 1)
        taps.append((i0, min(i0 + 1, n_in - 1), pos - i0))
    return taps


def golden(x: np.ndarray, out_hw: tuple[int, int], linear: bool, align: bool = False,
           scales: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:  # fmt: skip
    """NCHW forward golden in float64."""
    n, c, h, w = x.shape
    th, tw = _taps(h, out_hw[0], linear, align, scales[0]), _taps(w, out_hw[1], linear, align, scales[1])
    x64 = x.astype(np.float64)
    out = np.zeros((n, c, *out_hw))
    for i, (h0, h1, lh) in enumerate(th):
        for j, (w0, w1, lw) in enumerate(tw):
            out[:, :, i, j] = ((1 - lh) * ((1 - lw) * x64[:, :, h0, w0] + lw * x64[:, :, h0, w1])
                               + lh * ((1 - lw) * x64[:, :, h1, w0] + lw * x64[:, :, h1, w1]))  # fmt: skip
    return out


def golden_grad(g: np.ndarray, in_hw: tuple[int, int], linear: bool, align: bool = False,
                scales: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:  # fmt: skip
    """NCHW backward golden in float64: each gradOut element spread back over its taps."""
    n, c, oh, ow = g.shape
    th, tw = _taps(in_hw[0], oh, linear, align, scales[0]), _taps(in_hw[1], ow, linear, align, scales[1])
    g64 = g.astype(np.float64)
    out = np.zeros((n, c, *in_hw))
    for i, (h0, h1, lh) in enumerate(th):
        for j, (w0, w1, lw) in enumerate(tw):
            for hh, wh in ((h0, 1 - lh), (h1, lh)):
                for ww, wv in ((w0, 1 - lw), (w1, lw)):
                    out[:, :, hh, ww] += wh * wv * g64[:, :, i, j]
    return out


# -- device flow -----------------------------------------------------------------------------------------------
def _tensor(session: npu.Session, host: np.ndarray, dtype: int, fmt: int, strided: bool = False) -> npu.Tensor:
    host = np.asarray(host).astype(HOST[dtype])
    if not strided:
        return session.tensor(host, dtype, format=fmt)
    storage = np.zeros((*host.shape[:-1], 2 * host.shape[-1]), host.dtype)
    storage[..., ::2] = host
    strides = [s // host.itemsize for s in storage.strides[:-1]] + [2]
    return session.tensor(storage, dtype, shape=host.shape, strides=strides, format=fmt)


def _run(session: npu.Session, api: str, *args: Any) -> list[str]:
    ws, executor, ret = getattr(A, f"{api}GetWorkspaceSize")(*args)
    assert ret == 0, acl.get_recent_err_msg()
    names = [launcher.name for launcher in executor.launchers]
    workspace = session.malloc(ws).addr if ws else 0
    assert getattr(A, api)(workspace, ws, executor, session.stream) == 0
    assert acl.rt.synchronize_stream(session.stream) == 0
    return names


def _ints(values: list[int]) -> Any:
    return A.aclCreateIntArray(values, len(values))


def _nhwc(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1))


def forward(session: npu.Session, api: str, x: np.ndarray, out_hw: tuple[int, int], dtype: int, fmt: int = NCHW,
            extra: tuple[Any, ...] = (), strided: bool = False) -> tuple[np.ndarray, list[str]]:  # fmt: skip
    """Run a forward upsample on the NCHW ``x`` (stored NHWC when ``fmt`` says so); returns NCHW."""
    n, c = x.shape[:2]
    host, out_shape = (x, (n, c, *out_hw)) if fmt == NCHW else (_nhwc(x), (n, *out_hw, c))
    self_t = _tensor(session, host, dtype, fmt, strided)
    out = _tensor(session, np.zeros(out_shape), dtype, fmt, strided)
    names = _run(session, api, self_t.handle, _ints(list(out_hw)), *extra, out.handle)
    result = out.numpy()
    return (result if fmt == NCHW else result.transpose(0, 3, 1, 2)), names


def backward(session: npu.Session, api: str, g: np.ndarray, in_shape: tuple[int, ...], dtype: int, fmt: int = NCHW,
             extra: tuple[Any, ...] = ()) -> tuple[np.ndarray, list[str]]:  # fmt: skip
    """Run a backward op on the NCHW ``g``; ``extra`` goes between inputSize and the output; returns NCHW."""
    n, c, h, w = in_shape
    oh, ow = g.shape[2:]
    host, in_sizes = (g, [n, c, h, w]) if fmt == NCHW else (_nhwc(g), [n, h, w, c])
    grad_t = _tensor(session, host, dtype, fmt)
    out = _tensor(session, np.zeros(in_sizes), dtype, fmt)
    names = _run(session, api, grad_t.handle, _ints([oh, ow]), _ints(in_sizes), *extra, out.handle)
    result = out.numpy()
    return (result if fmt == NCHW else result.transpose(0, 3, 1, 2)), names


def _values(shape: tuple[int, ...], dtype: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == U8:
        return rng.integers(0, 255, shape).astype(np.uint8)
    return rng.uniform(-4, 4, shape).astype(HOST[dtype])


# -- UpsampleNearest2d ------------------------------------------------------------------------------------------
def test_nearest_documented_example(session: npu.Session) -> None:
    """The official example: a 4 x 2 image of 0..7 doubled to 8 x 4 repeats each pixel 2 x 2."""
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 4, 2)
    actual, names = forward(session, "aclnnUpsampleNearest2d", x, (8, 4), F32)
    np.testing.assert_array_equal(actual[0, 0], np.repeat(np.repeat(x[0, 0], 2, 0), 2, 1))
    assert names == ["ResizeNearestNeighborV2"]


@pytest.mark.parametrize(
    ("dtype", "fmt", "strided", "kernels"),
    [(F16, NCHW, True, ["AsStrided", "ResizeNearestNeighborV2"]),
     (B16, NHWC, False, ["Transpose", "ResizeNearestNeighborV2", "Transpose"]),
     (U8, NCHW, False, ["Transpose", "ResizeNearestNeighborV2(AI CPU)", "Transpose"]),
     (F64, NHWC, False, ["ResizeNearestNeighborV2(AI CPU)"])],
    ids=["f16-strided", "bf16-nhwc", "u8-aicpu", "f64-nhwc-aicpu"],
)  # fmt: skip
def test_nearest_paths(session: npu.Session, dtype: int, fmt: int, strided: bool, kernels: list[str]) -> None:
    """Down- and up-sampling by non-integer factors; AI Core for F16 / BF16, AI CPU (NHWC) for U8 / F64."""
    x = _values((2, 3, 5, 7), dtype, 1)
    actual, names = forward(session, "aclnnUpsampleNearest2d", x, (9, 3), dtype, fmt, strided=strided)
    np.testing.assert_array_equal(actual, golden(x, (9, 3), linear=False).astype(actual.dtype))
    assert [n for n in names if n != "ViewCopy"] == kernels or names[: len(kernels)] == kernels


def test_nearest_empty(session: npu.Session) -> None:
    """An empty batch launches nothing."""
    _, names = forward(session, "aclnnUpsampleNearest2d", np.zeros((0, 2, 3, 3), np.float32), (6, 6), F32)
    assert names == []


def _nearest_statuses() -> list[tuple[str, Callable[..., tuple], int, str]]:
    def t(s: npu.Session, shape: tuple[int, ...], dtype: int = F32, fmt: int = NCHW) -> Any:
        return _tensor(s, np.zeros(shape), dtype, fmt).handle

    x, o = (1, 2, 3, 4), (1, 2, 6, 8)
    return [
        ("null self", lambda s: (None, _ints([6, 8]), t(s, o)), NULLPTR, "expected self not to be a null pointer"),
        ("null size", lambda s: (t(s, x), None, t(s, o)), NULLPTR, "expected outputSize not to be a null pointer"),
        ("int32", lambda s: (t(s, x, A.ACL_INT32), _ints([6, 8]), t(s, o, A.ACL_INT32)), INVALID,
         "self dtype DT_INT32 should be in dtype support list"),
        ("out dtype", lambda s: (t(s, x), _ints([6, 8]), t(s, o, F16)), INVALID, "should be DT_FLOAT16"),
        ("size count", lambda s: (t(s, x), _ints([6]), t(s, o)), INVALID,
         "expected output size equals to 2, but got size 1"),
        ("rank", lambda s: (t(s, (2, 3, 4)), _ints([6, 8]), t(s, o)), INVALID, "expected input size equals to 4"),
        ("zero H", lambda s: (t(s, (1, 2, 0, 4)), _ints([6, 8]), t(s, o)), INVALID, "should be greater than 0"),
        ("zero C", lambda s: (t(s, (1, 0, 3, 4)), _ints([6, 8]), t(s, (1, 0, 6, 8))), INVALID,
         "Non-empty 4D data tensor expected"),
        ("ND format", lambda s: (t(s, x, fmt=ND), _ints([6, 8]), t(s, o, fmt=ND)), INVALID,
         "Do not support this format"),
        ("formats differ", lambda s: (t(s, x), _ints([6, 8]), t(s, (1, 6, 8, 2), fmt=NHWC)), INVALID,
         "Format of input and output should be equal"),
        ("N differs", lambda s: (t(s, x), _ints([6, 8]), t(s, (2, 2, 6, 8))), INVALID, "selfDimN[1]/outDimN[2]"),
        ("size vs out", lambda s: (t(s, x), _ints([6, 9]), t(s, o)), INVALID,
         "Expected output size (H: 6, W: 9), but got output tensor size (H: 6, W: 8)."),
    ]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in _nearest_statuses()],
                         ids=[c[0] for c in _nearest_statuses()])  # fmt: skip
def test_nearest_statuses(session: npu.Session, args: Callable[..., tuple], status: int, text: str) -> None:
    """Each check of the real L2, in its order, with its status and text."""
    _, executor, ret = A.aclnnUpsampleNearest2dGetWorkspaceSize(*args(session))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


# -- UpsampleNearest2dBackward -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dtype", "fmt", "in_shape", "out_hw", "scales", "kernels"),
    [(F32, NCHW, (1, 2, 3, 5), (7, 11), (0.0, 0.0), ["ResizeNearestNeighborV2Grad"]),
     (B16, NCHW, (2, 3, 8, 16), (16, 32), (2.0, 2.0), ["Cast", "UpsampleNearestExact2dGrad", "Cast"]),
     (F16, NHWC, (1, 2, 3, 5), (6, 10), (2.0, 0.0), ["Transpose", "UpsampleNearestExact2dGrad", "Transpose"]),
     (F16, NCHW, (1, 2, 5, 4), (3, 9), (0.0, 0.0), ["Cast", "ResizeNearestNeighborV2Grad", "Cast"])],
    ids=["f32-sizes", "bf16-aicore", "f16-nhwc-scales", "f16-down"],
)  # fmt: skip
def test_nearest_backward(session: npu.Session, dtype: int, fmt: int, in_shape: tuple[int, ...],
                          out_hw: tuple[int, int], scales: tuple[float, float],
                          kernels: list[str]) -> None:  # fmt: skip
    """Each A2 path: the loop golden (a positive scale sets the step to 1 / scale)."""
    g = _values((*in_shape[:2], *out_hw), dtype, 2)
    actual, names = backward(session, "aclnnUpsampleNearest2dBackward", g, in_shape, dtype, fmt, scales)
    check(actual, golden_grad(g, in_shape[2:], linear=False, scales=scales))
    assert names[: len(kernels)] == kernels


def test_nearest_backward_is_the_adjoint(session: npu.Session) -> None:
    """<up(x), g> == <x, up_backward(g)> with the emulated forward and backward (no scales)."""
    x, g = _values((1, 2, 4, 6), F32, 3), _values((1, 2, 7, 9), F32, 4)
    up, _ = forward(session, "aclnnUpsampleNearest2d", x, (7, 9), F32)
    grad, _ = backward(session, "aclnnUpsampleNearest2dBackward", g, (1, 2, 4, 6), F32, NCHW, (0.0, 0.0))
    lhs, rhs = np.vdot(up.astype(np.float64), g), np.vdot(x.astype(np.float64), grad)
    assert abs(lhs - rhs) <= 1e-5 * max(abs(lhs), 1.0)


def _nearest_grad_statuses() -> list[tuple[str, Callable[..., tuple], int, str]]:
    def t(s: npu.Session, shape: tuple[int, ...], dtype: int = F32, fmt: int = NCHW) -> Any:
        return _tensor(s, np.zeros(shape), dtype, fmt).handle

    go, gi = (1, 2, 6, 8), (1, 2, 3, 4)

    def args(g: Any, out: Any, osz: list[int] | None = None, isz: list[int] | None = None) -> tuple:
        return (g, _ints(osz or [6, 8]), _ints(isz or [1, 2, 3, 4]), 0.0, 0.0, out)

    return [
        ("null gradOut", lambda s: args(None, t(s, gi)), NULLPTR, "expected gradOut not to be a null pointer"),
        ("null gradInput", lambda s: args(t(s, go), None), NULLPTR, "expected gradInput not to be a null pointer"),
        ("double", lambda s: args(t(s, go, F64), t(s, gi, F64)), INVALID, "gradOut dtype DT_DOUBLE should be in"),
        ("dtype", lambda s: args(t(s, go), t(s, gi, F16)), INVALID, "should be DT_FLOAT"),
        ("rank", lambda s: args(t(s, (2, 6, 8)), t(s, gi)), INVALID, "gradOut dim 3 should be 4"),
        ("output_size", lambda s: args(t(s, go), t(s, gi), osz=[6]), INVALID, "expected output_size equals to 2"),
        ("input_size", lambda s: args(t(s, go), t(s, gi), isz=[1, 2, 3]), INVALID, "expected input_size equals to 4"),
        ("ND", lambda s: args(t(s, go), t(s, gi, fmt=ND)), INVALID, "only support [NCHW, NHWC]"),
        ("C differs", lambda s: args(t(s, (1, 3, 6, 8)), t(s, gi)), INVALID, "selfDimC[2]/outDimC[3]"),
        ("zero size", lambda s: args(t(s, go), t(s, gi), isz=[1, 2, 0, 4]), INVALID, "should greater than 0"),
        ("gradOut shape", lambda s: args(t(s, (1, 2, 6, 9)), t(s, gi)), INVALID,
         "output.size(3) = 8 but got grad_output.size(3) = 9"),
        ("gradInput shape", lambda s: args(t(s, go), t(s, (1, 2, 3, 5))), INVALID,
         "is not equal with inferOut shape"),
    ]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in _nearest_grad_statuses()],
                         ids=[c[0] for c in _nearest_grad_statuses()])  # fmt: skip
def test_nearest_backward_statuses(session: npu.Session, args: Callable[..., tuple], status: int, text: str) -> None:
    """Each check of the real L2 (CheckReduceOutShape last), with its status and text."""
    _, executor, ret = A.aclnnUpsampleNearest2dBackwardGetWorkspaceSize(*args(session))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


# -- UpsampleBilinear2d ----------------------------------------------------------------------------------------------
def test_bilinear_documented_example(session: npu.Session) -> None:
    """The official example's call: a 2 x 2 image to 4 x 4 without aligned corners (half-pixel centres)."""
    x = np.array([[[[1, 2], [3, 4]]]], np.float32)
    actual, names = forward(session, "aclnnUpsampleBilinear2d", x, (4, 4), F32, extra=(False, 0.0, 0.0))
    np.testing.assert_allclose(actual[0, 0, 0], [1.0, 1.25, 1.75, 2.0])
    check(actual, golden(x, (4, 4), linear=True))
    assert names == ["ResizeBilinearV2"]


@pytest.mark.parametrize(
    ("dtype", "fmt", "align", "scales", "out_hw", "kernels"),
    [(F32, NCHW, True, (0.0, 0.0), (7, 5), ["ResizeBilinearV2"]),
     (F16, NHWC, False, (2.5, 1.5), (10, 7), ["Transpose", "Cast", "UpsampleBilinear2d", "Cast", "Transpose"]),
     (B16, NCHW, False, (0.0, 0.0), (3, 11), ["Cast", "ResizeBilinearV2", "Cast"]),
     (F64, NHWC, False, (0.0, 0.0), (9, 2), ["ResizeBilinearV2(AI CPU)"])],
    ids=["f32-align", "f16-nhwc-scales", "bf16-down", "f64-aicpu"],
)  # fmt: skip
def test_bilinear_paths(session: npu.Session, dtype: int, fmt: int, align: bool, scales: tuple[float, float],
                        out_hw: tuple[int, int], kernels: list[str]) -> None:  # fmt: skip
    """Each A2 path: scales honoured only on the UpsampleBilinear2d path (int(in * scale) == out)."""
    x = _values((2, 3, 4, 5), dtype, 5)
    actual, names = forward(session, "aclnnUpsampleBilinear2d", x, out_hw, dtype, fmt, (align, *scales))
    used = scales if "UpsampleBilinear2d" in names else (0.0, 0.0)
    check(actual, golden(x, out_hw, linear=True, align=align, scales=used))
    assert names[: len(kernels)] == kernels


def test_bilinear_same_size_copies(session: npu.Session) -> None:
    """Scales of 1 with equal sizes on the UpsampleBilinear2d path: self is copied (bf16)."""
    x = _values((1, 2, 3, 4), B16, 6)
    actual, names = forward(session, "aclnnUpsampleBilinear2d", x, (3, 4), B16, extra=(False, 1.0, 1.0),
                            strided=True)  # fmt: skip
    np.testing.assert_array_equal(actual, x)
    assert "UpsampleBilinear2d" not in names and "ResizeBilinearV2" not in names


def _bilinear_statuses() -> list[tuple[str, Callable[..., tuple], int, str]]:
    def t(s: npu.Session, shape: tuple[int, ...], dtype: int = F32, fmt: int = NCHW) -> Any:
        return _tensor(s, np.zeros(shape), dtype, fmt).handle

    x, o = (1, 2, 3, 4), (1, 2, 6, 8)

    def args(self_: Any, out: Any, size: list[int] | None = None, sh: float = 0.0, sw: float = 0.0) -> tuple:
        return (self_, None if size == [] else _ints(size or [6, 8]), False, sh, sw, out)

    return [
        ("null self", lambda s: args(None, t(s, o)), INNER_NULLPTR, "expected self not to be a null pointer"),
        ("null out", lambda s: args(t(s, x), None), INNER_NULLPTR, "expected out not to be a null pointer"),
        ("uint8", lambda s: args(t(s, x, U8), t(s, o, U8)), INVALID, "self dtype DT_UINT8 should be in"),
        ("out dtype", lambda s: args(t(s, x), t(s, o, F16)), INVALID, "should be DT_FLOAT16"),
        ("formats differ", lambda s: args(t(s, x), t(s, (1, 6, 8, 2), fmt=NHWC)), INVALID,
         "Format of input and output should be equal"),
        ("ND", lambda s: args(t(s, x, fmt=ND), t(s, o, fmt=ND)), INVALID, "Do not support this format"),
        ("rank", lambda s: args(t(s, (2, 3, 4)), t(s, o)), INVALID, "self dim 3 should be 4"),
        ("double NCHW", lambda s: args(t(s, x, F64), t(s, o, F64)), INVALID, "only support NHWC format"),
        ("N differs", lambda s: args(t(s, x), t(s, (3, 2, 6, 8))), INVALID, "selfDimN[1]/outDimN[3]"),
        ("negative scale", lambda s: args(t(s, x), t(s, o), sh=-1.0), INVALID, "cannot be negative"),
        ("null size", lambda s: args(t(s, x), t(s, o), size=[]), INVALID, "outputSize must not be null."),
        ("size count", lambda s: args(t(s, x), t(s, o), size=[6, 8, 1]), INVALID, "outputSize size must be 2"),
        ("size vs out", lambda s: args(t(s, x), t(s, o), size=[5, 8]), INVALID, "Expected output size (H: 5, W: 8)"),
    ]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in _bilinear_statuses()],
                         ids=[c[0] for c in _bilinear_statuses()])  # fmt: skip
def test_bilinear_statuses(session: npu.Session, args: Callable[..., tuple], status: int, text: str) -> None:
    """Each check of the real L2 (its null check returns 561103), with its status and text."""
    _, executor, ret = A.aclnnUpsampleBilinear2dGetWorkspaceSize(*args(session))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()


# -- UpsampleBilinear2dBackward --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dtype", "fmt", "align", "in_shape", "out_hw"),
    [(F32, NCHW, False, (1, 2, 3, 5), (7, 11)), (F16, NHWC, True, (2, 1, 6, 4), (3, 9))],
    ids=["f32-up", "f16-nhwc-align-down"],
)  # fmt: skip
def test_bilinear_backward(session: npu.Session, dtype: int, fmt: int, align: bool, in_shape: tuple[int, ...],
                           out_hw: tuple[int, int]) -> None:  # fmt: skip
    """The loop golden, float32 ResizeBilinearV2Grad (scales ignored, as on A2)."""
    g = _values((*in_shape[:2], *out_hw), dtype, 7)
    actual, names = backward(session, "aclnnUpsampleBilinear2dBackward", g, in_shape, dtype, fmt, (align, 3.0, 3.0))
    check(actual, golden_grad(g, in_shape[2:], linear=True, align=align))
    assert "ResizeBilinearV2Grad" in names


def test_bilinear_backward_adjoint_and_copy(session: npu.Session) -> None:
    """<up(x), g> == <x, up_backward(g)> for the emulated pair; equal sizes copy gradOut."""
    x, g = _values((1, 3, 5, 4), F32, 8), _values((1, 3, 8, 9), F32, 9)
    up, _ = forward(session, "aclnnUpsampleBilinear2d", x, (8, 9), F32, extra=(False, 0.0, 0.0))
    grad, _ = backward(session, "aclnnUpsampleBilinear2dBackward", g, (1, 3, 5, 4), F32, NCHW, (False, 0.0, 0.0))
    lhs, rhs = np.vdot(up.astype(np.float64), g), np.vdot(x.astype(np.float64), grad)
    assert abs(lhs - rhs) <= 1e-5 * max(abs(lhs), 1.0)
    same, names = backward(session, "aclnnUpsampleBilinear2dBackward", x, (1, 3, 5, 4), F32, NCHW, (True, 0.0, 0.0))
    np.testing.assert_array_equal(same, x)
    assert "ResizeBilinearV2Grad" not in names


def _bilinear_grad_statuses() -> list[tuple[str, Callable[..., tuple], int, str]]:
    def t(s: npu.Session, shape: tuple[int, ...], dtype: int = F32, fmt: int = NCHW) -> Any:
        return _tensor(s, np.zeros(shape), dtype, fmt).handle

    go, gi = (1, 2, 6, 8), (1, 2, 3, 4)

    def args(g: Any, out: Any, osz: list[int] | None = None, isz: list[int] | None = None) -> tuple:
        return (g, _ints(osz or [6, 8]), _ints(isz or [1, 2, 3, 4]), False, 0.0, 0.0, out)

    return [
        ("null gradOut", lambda s: args(None, t(s, gi)), NULLPTR, "expected gradOut not to be a null pointer"),
        ("null out", lambda s: args(t(s, go), None), NULLPTR, "expected out not to be a null pointer"),
        ("rank", lambda s: args(t(s, (2, 6, 8)), t(s, gi)), INVALID, "gradOut dim 3 should be 4"),
        ("output_size", lambda s: args(t(s, go), t(s, gi), osz=[6]), INVALID, "expected output_size equals to 2"),
        ("zero size", lambda s: args(t(s, go), t(s, gi), isz=[1, 2, 0, 4]), INVALID, "must be greater than 0"),
        ("gradOut shape", lambda s: args(t(s, (1, 2, 6, 9)), t(s, gi)), INVALID,
         "The dim 3 of gradOut should be 8, but got 9"),
        ("out shape", lambda s: args(t(s, go), t(s, (1, 2, 3, 5))), INVALID, "The dim 3 of out should be 4, but got 5"),
        ("bf16", lambda s: args(t(s, go, B16), t(s, gi, B16)), INVALID, "gradOut dtype DT_BF16 should be in"),
        ("out dtype", lambda s: args(t(s, go), t(s, gi, F16)), INVALID, "out dtype DT_FLOAT16 should be DT_FLOAT"),
        ("ND", lambda s: args(t(s, (1, 2, 2, 2), fmt=ND), t(s, (1, 2, 3, 2), fmt=ND), osz=[2, 2], isz=[1, 2, 3, 2]),
         INVALID, "only support [NCHW, NHWC]"),  # ND reads as NHWC in CheckShape, as NCHW in the element check
    ]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in _bilinear_grad_statuses()],
                         ids=[c[0] for c in _bilinear_grad_statuses()])  # fmt: skip
def test_bilinear_backward_statuses(session: npu.Session, args: Callable[..., tuple], status: int, text: str) -> None:
    """Each check of the real L2 (shapes before dtypes, as its CheckParams orders them)."""
    _, executor, ret = A.aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(*args(session))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()
