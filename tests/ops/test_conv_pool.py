"""The convolution and pooling family end to end: aclnnConvolution (1-d / 2-d / 3-d, stride, padding,
dilation, groups, bias, transposed, cubeMathType).

Results against direct-loop float64 goldens (conv_helpers) under the precision standard; the
documented example's values; strided input views; empty tensors; a shape split over several SPMD
blocks; and every status the real checker list gives, with its aclGetRecentErrMsg text.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from binary_helpers import check, np_dtype, random_values, run_op
from conv_helpers import (
    golden_avg_pool,
    golden_conv,
    golden_conv_grads,
    golden_conv_transposed,
    golden_max_pool,
    int_array,
    nc_out,
    nc_tensor,
)

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.kernels.nn.conv_common import band_tiling_for
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
F32, F16, B16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16


def conv_args(x: Any, w: Any, b: Any, stride: list[int], pad: list[int], dil: list[int], transposed: bool,
              out_pad: list[int], groups: int, out: Any, mode: int = 0) -> tuple[Any, ...]:  # fmt: skip
    return (x, w, b, int_array(stride), int_array(pad), int_array(dil), transposed, int_array(out_pad), groups, out,
            mode)  # fmt: skip


def sides(pad: list[int], spatial: int) -> tuple[list[int], list[int]]:
    if len(pad) == 2 * spatial and spatial in (1, 2):
        return pad[0::2], pad[1::2]
    return pad, pad


# name -> (x shape, w shape, stride, pad, dilation, groups, transposed, output padding, dtype, bias, strided)
CONV_CASES: dict[str, tuple[Any, ...]] = {
    "2d-groups-stride-bias": ((2, 4, 7, 6), (6, 2, 3, 3), [2, 1], [1, 1], [1, 1], 2, False, [0, 0], F32, True, False),
    "2d-asymmetric-pad-f16": ((1, 3, 5, 5), (4, 3, 2, 3), [1, 2], [0, 1, 2, 0], [1, 1], 1, False, [0, 0], F16, False,
                              False),
    "1d-dilation-bf16": ((2, 3, 9), (5, 3, 3), [1], [2], [2], 1, False, [0], B16, True, False),
    "3d-strided-view": ((1, 2, 4, 5, 5), (3, 2, 2, 3, 2), [1, 2, 1], [1, 0, 1], [1, 1, 2], 1, False, [0, 0, 0], F32,
                        True, True),
    "2d-transposed": ((1, 4, 3, 4), (4, 3, 3, 2), [2, 2], [1, 0], [1, 1], 2, True, [1, 1], F32, True, False),
    "1d-transposed-f16": ((2, 2, 5), (2, 3, 3), [2], [1], [1], 1, True, [0], F16, False, False),
    "3d-transposed": ((1, 2, 2, 3, 2), (2, 2, 2, 2, 2), [1, 2, 1], [0, 1, 0], [1, 1, 1], 1, True, [0, 1, 0], F32,
                      False, False),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CONV_CASES))
def test_convolution(stream: int, case: str) -> None:
    """Each case against its direct-loop golden (cross-correlation, or the scatter of a transposed one)."""
    xs, ws, stride, pad, dil, groups, transposed, out_pad, dtype, with_bias, strided = CONV_CASES[case]
    rng = np.random.default_rng(7)
    x, w = random_values(dtype, xs, rng), random_values(dtype, ws, rng)
    b = random_values(F32, (ws[1] * groups if transposed else ws[0],), rng) if with_bias else None
    lo, hi = sides(pad, len(xs) - 2)
    if transposed:
        golden = golden_conv_transposed(x, w, b, stride, lo, hi, dil, out_pad, groups)
    else:
        golden = golden_conv(x, w, b, stride, lo, hi, dil, groups)
    out = nc_out(golden.shape, dtype)
    bias = nc_tensor(b, F32).handle if b is not None else None
    args = conv_args(nc_tensor(x, dtype, strided=strided).handle, nc_tensor(w, dtype).handle, bias, stride, pad,
                     dil, transposed, out_pad, groups, out.handle)  # fmt: skip
    run_op(A.aclnnConvolutionGetWorkspaceSize, A.aclnnConvolution, stream, *args)
    check(out, golden)


def test_convolution_documented_example(stream: int) -> None:
    """The 2-d transposed example: ones [1, 16, 2, 2] through ones [16, 16, 2, 2] give 16 / 32 / 64."""
    x, w = nc_tensor(np.ones((1, 16, 2, 2), np.float32), F32), nc_tensor(np.ones((16, 16, 2, 2), np.float32), F32)
    out = nc_out((1, 16, 3, 3), F32)
    run_op(A.aclnnConvolutionGetWorkspaceSize, A.aclnnConvolution, stream,
           *conv_args(x.handle, w.handle, None, [1, 1], [0, 0], [1, 1], True, [0, 0], 1, out.handle))  # fmt: skip
    plane = np.array([[16, 32, 16], [32, 64, 32], [16, 32, 16]], np.float32)
    np.testing.assert_array_equal(out.numpy(), np.broadcast_to(plane, (1, 16, 3, 3)))


def test_convolution_blocks_and_hf32(stream: int) -> None:
    """A shape worth several cube cores is cut into bands of output rows; USE_HF32 rounds fp32 inputs."""
    rng = np.random.default_rng(3)
    x, w = random_values(F32, (1, 32, 64, 64), rng), random_values(F32, (128, 32, 3, 3), rng)
    out = nc_out((1, 128, 62, 62), F32)
    args = conv_args(nc_tensor(x, F32).handle, nc_tensor(w, F32).handle, None, [1, 1], [0, 0], [1, 1], False,
                     [0, 0], 1, out.handle, 3)  # fmt: skip
    ws, executor, ret = A.aclnnConvolutionGetWorkspaceSize(*args)
    assert ret == 0
    assert [launcher.name for launcher in executor.launchers] == ["Conv2D"]
    assert band_tiling_for(62, 128 * 62 * 62 * 288, 20).block_dim == 2  # 141M multiply-adds: two bands
    assert A.aclnnConvolution(0, ws, executor, stream) == 0 and acl.rt.synchronize_stream(stream) == 0
    cols = np.lib.stride_tricks.sliding_window_view(x.astype(np.float64), (3, 3), axis=(2, 3))  # 1,32,62,62,3,3
    golden = np.tensordot(cols, w.astype(np.float64), axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)
    assert np.max(np.abs(out.numpy() - golden)) / np.max(np.abs(golden)) < 2e-3  # HF32: 11 mantissa bits
    assert np.max(np.abs(out.numpy() - golden)) > 0  # and it did round


def test_convolution_empty(stream: int) -> None:
    """An empty batch launches nothing and leaves the (empty) output alone."""
    x, w = nc_tensor(np.zeros((0, 2, 4, 4), np.float32), F32), nc_tensor(np.ones((3, 2, 3, 3), np.float32), F32)
    out = nc_out((0, 3, 2, 2), F32)
    args = conv_args(x.handle, w.handle, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, out.handle)
    ws, executor, ret = A.aclnnConvolutionGetWorkspaceSize(*args)
    assert (ret, ws, executor.launchers) == (0, 0, [])
    assert A.aclnnConvolution(0, 0, executor, stream) == 0


X4, W4 = (1, 4, 5, 5), (2, 4, 3, 3)
# name -> (overrides, status, text); defaults: x X4 f32 NCHW, w W4, no bias, stride/pad/dil [1,1]/[0,0]/[1,1]
CONV_STATUS: dict[str, tuple[dict[str, Any], int, str]] = {
    "null input": ({"x": None}, 161001, "expected input not to be a null pointer"),
    "null stride": ({"stride": None}, 161001, "expected stride not to be a null pointer"),
    "null outputPadding": ({"transposed": True, "out_pad": None, "w": (4, 2, 3, 3), "y": (1, 2, 7, 7)}, 161001,
                           "expected outputPadding not to be a null pointer"),
    "int32 input": ({"dtype": A.ACL_INT32}, 161002, "input dtype DT_INT32 should be one of [DT_FLOAT, DT_FLOAT16,"),
    "double bias": ({"bias": A.ACL_DOUBLE}, 161002, "bias dtype DT_DOUBLE should be one of"),
    "2-d input": ({"x": (4, 5), "w": (2, 4), "y": (2, 3)}, 161002, "input has 2 dims, expected one of {3, 4, 5}"),
    "weight rank": ({"w": (2, 4, 3)}, 161002, "input and weight must have the same number of dims"),
    "bias size": ({"bias": F32, "bias_shape": (3,)}, 161002, "bias shape [3] must be [2]"),
    "stride size": ({"stride": [1]}, 161002, "stride has 1 elements, expected 2"),
    "padding size": ({"pad": [0, 0, 0]}, 161002, "padding has 3 elements, expected 2 or 4"),
    "ND input": ({"fmt": A.ACL_FORMAT_ND}, 161002, "input format must be NCHW"),
    "zero stride": ({"stride": [1, 0]}, 161002, "stride [1, 0]: element 1 must be greater than 0"),
    "window too big": ({"x": (1, 4, 2, 2)}, 161002, "must hold one dilated kernel window"),
    "groups 0": ({"groups": 0}, 161002, "groups 0 must be greater than 0"),
    "channels": ({"w": (2, 3, 3, 3)}, 161002, "input's channels 4 must equal weight's shape[1] 3 times groups 1"),
    "cout groups": ({"groups": 4, "w": (6, 1, 3, 3), "y": (1, 6, 3, 3)}, 161002,
                    "weight's shape[0] 6 must be divisible by groups 4"),
    "output shape": ({"y": (1, 2, 4, 3)}, 161002, "shape[2] must be its inferred value 3"),
    "cubeMathType": ({"mode": 7}, 161002, "cubeMathType only support"),
    "outputPadding": ({"transposed": True, "out_pad": [1, 0], "w": (4, 2, 3, 3), "y": (1, 2, 8, 7)}, 161002,
                      "outputPadding[0] 1 must be less than stride[0] or dilation[0]"),
}  # fmt: skip


def test_convolution_status(session: Any) -> None:
    """Every row of the table in one session: the status, no executor, and the recent error text."""
    for case, (over, want, text) in CONV_STATUS.items():
        cfg: dict[str, Any] = {"x": X4, "w": W4, "y": (1, 2, 3, 3), "dtype": F32, "bias": None, "bias_shape": (2,),
                               "stride": [1, 1], "pad": [0, 0], "dil": [1, 1], "transposed": False, "out_pad": [0, 0],
                               "groups": 1, "fmt": None, "mode": 0, **over}  # fmt: skip

        def tensor(shape: Any, dtype: int, fmt: int | None = cfg["fmt"]) -> Any:
            return None if shape is None else nc_tensor(np.ones(shape, np_dtype(dtype)), dtype, fmt).handle

        bias = tensor(cfg["bias_shape"], cfg["bias"]) if cfg["bias"] is not None else None
        arrays = [None if cfg[k] is None else int_array(cfg[k]) for k in ("stride", "pad", "dil", "out_pad")]
        args = (tensor(cfg["x"], cfg["dtype"]), tensor(cfg["w"], cfg["dtype"]), bias, arrays[0], arrays[1], arrays[2],
                cfg["transposed"], arrays[3], cfg["groups"], tensor(cfg["y"], cfg["dtype"]), cfg["mode"])  # fmt: skip
        _, executor, ret = A.aclnnConvolutionGetWorkspaceSize(*args)
        assert (ret, executor) == (want, None), case
        assert text in (acl.get_recent_err_msg() or ""), case


def test_convolution_310p_fp32() -> None:
    """Ascend310P has no fp32 cube: KEEP_DTYPE on float32 is refused, ALLOW_FP32_DOWN_PRECISION runs fp16."""
    with process.fresh(Settings(soc="Ascend310P3")):
        s = npu.Session().open()
        x = s.tensor(np.ones(X4, np.float32), F32, format=A.ACL_FORMAT_NCHW)
        w = s.tensor(np.ones(W4, np.float32), F32, format=A.ACL_FORMAT_NCHW)
        y = s.tensor(np.zeros((1, 2, 3, 3), np.float32), F32, format=A.ACL_FORMAT_NCHW)
        args = conv_args(x.handle, w.handle, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, y.handle, 0)
        assert A.aclnnConvolutionGetWorkspaceSize(*args)[2] == 161002
        assert "does not support bf16 / fp32" in (acl.get_recent_err_msg() or "")
        ws, executor, ret = A.aclnnConvolutionGetWorkspaceSize(*args[:-1], 1)
        assert ret == 0
        assert A.aclnnConvolution(s.malloc(ws).addr, ws, executor, s.stream) == 0
        assert acl.rt.synchronize_stream(s.stream) == 0
        np.testing.assert_array_equal(y.numpy(), np.full((1, 2, 3, 3), 36.0, np.float32))


# -- aclnnMaxPool ------------------------------------------------------------------------------------
def max_pool(stream: int, x: np.ndarray, dtype: int, k: list[int], s: list[int], pads: list[int], ceil: int,
             out_shape: tuple[int, ...], strided: bool = False) -> np.ndarray:  # fmt: skip
    fmt = A.ACL_FORMAT_NCHW
    out = nc_out(out_shape, dtype, fmt)
    run_op(A.aclnnMaxPoolGetWorkspaceSize, A.aclnnMaxPool, stream, nc_tensor(x, dtype, fmt, strided=strided).handle,
           int_array(k), int_array(s), 0, int_array(pads), int_array([1, 1]), ceil, out.handle)  # fmt: skip
    return out.numpy()


def test_max_pool_documented_example(stream: int) -> None:
    """[2, 2, 3, 3] of 1..36, 2x2 windows, stride 2, ceil mode: each plane's 5, 6, 8, 9 (plus 9 per plane)."""
    x = np.arange(1, 37, dtype=np.float32).reshape(2, 2, 3, 3)
    got = max_pool(stream, x, F32, [2, 2], [2, 2], [0, 0, 0, 0], 1, (2, 2, 2, 2))
    want = np.array([5, 6, 8, 9], np.float32) + 9 * np.arange(4, dtype=np.float32)[:, None]
    np.testing.assert_array_equal(got.reshape(4, 4), want)


# name -> (x shape, kernel, strides, pads as passed, pads (t, b, l, r), ceil, dtype, strided)
MAX_POOL_CASES: dict[str, tuple[Any, ...]] = {
    "f32-pads4-ceil": ((2, 3, 7, 8), [3, 2], [2, 3], [1, 0, 1, 1], (1, 1, 0, 1), 1, F32, False),
    "f16-default-stride": ((1, 2, 5, 5), [2], [], [1], (1, 1, 1, 1), 0, F16, True),
    "3d-self": ((3, 6, 4), [3, 2], [1], [], (0, 0, 0, 0), 0, F32, False),
    "several-blocks": ((2, 16, 40, 40), [3, 3], [1, 1], [1], (1, 1, 1, 1), 0, F32, False),
}


@pytest.mark.parametrize("case", list(MAX_POOL_CASES))
def test_max_pool(stream: int, case: str) -> None:
    shape, k, s, pads, four, ceil, dtype, strided = MAX_POOL_CASES[case]
    x = random_values(dtype, shape, np.random.default_rng(11))
    x4 = x.reshape((1, *shape)) if len(shape) == 3 else x
    kk = k * 2 if len(k) == 1 else k
    ss = (s * 2 if len(s) == 1 else s) or [1, 1]
    oh = pool_size(x4.shape[2], kk[0], four[0], four[1], ss[0], ceil)
    ow = pool_size(x4.shape[3], kk[1], four[2], four[3], ss[1], ceil)
    golden = golden_max_pool(x4, kk, ss, four, (oh, ow)).reshape((*shape[:-2], oh, ow))
    fmt = A.ACL_FORMAT_NCHW
    out = nc_out(golden.shape, dtype, fmt)
    run_op(A.aclnnMaxPoolGetWorkspaceSize, A.aclnnMaxPool, stream, nc_tensor(x, dtype, fmt, strided=strided).handle,
           int_array(k), int_array(s), 0, int_array(pads), int_array([]), ceil, out.handle)  # fmt: skip
    np.testing.assert_array_equal(out.numpy(), golden.astype(np_dtype(dtype)))  # a max is exact


def pool_size(size: int, k: int, lo: int, hi: int, s: int, ceil: int) -> int:
    """PyTorch's pooling output size (the last ceil window must start inside input + left padding)."""
    room = size + lo + hi - k
    out = (-(-room // s) if ceil else room // s) + 1
    return out - 1 if ceil and (out - 1) * s >= size + lo else out


# name -> (overrides, status, text); defaults: x (1, 2, 4, 4) f32 NCHW, kernel [2, 2], strides [2, 2], pads [0]
MAX_POOL_STATUS: dict[str, tuple[dict[str, Any], int, str]] = {
    "null kernel": ({"k": None}, 161001, "expected kernelShape not to be a null pointer"),
    "int32 self": ({"dtype": A.ACL_INT32}, 161002, "self dtype DT_INT32 should be in dtype support list"),
    "out dtype": ({"out_dtype": F16}, 161002, "out dtype DT_FLOAT16 should be DT_FLOAT"),
    "2-d self": ({"x": (4, 4), "y": (2, 2)}, 161002, "3D or 4D tensor expected for inputs"),
    "kernel size": ({"k": [2, 2, 2]}, 161002, "The size of kernelShape must be one or two, but got 3."),
    "pads size": ({"pads": [0, 0, 0]}, 161002, "The size of pads must be zero, one, two or four, but got 3."),
    "autoPad": ({"auto": 1}, 161002, "value of autoPad must be zero representing NOTSET, but got autoPad:1"),
    "dilation": ({"dil": [2, 1]}, 161002, "dilation value along each spatial axis only support 1, but got 2, 1"),
    "zero kernel": ({"k": [0, 2]}, 161002, "The size of kernel should be greater than 0, but got kh:0, kw:2"),
    "pads > kernel": ({"pads": [2, 1]}, 161002, "should be smaller than, or equal to value of kernel size"),
    "out shape": ({"y": (1, 2, 3, 2)}, 161002, "out shape [1, 2, 3, 2] should be [1, 2, 2, 2]."),
}


def test_max_pool_status(session: Any) -> None:
    """Every row of the table in one session: the status, no executor, and the recent error text."""
    for case, (over, want, text) in MAX_POOL_STATUS.items():
        cfg: dict[str, Any] = {"x": (1, 2, 4, 4), "y": (1, 2, 2, 2), "dtype": F32, "out_dtype": None, "k": [2, 2],
                               "s": [2, 2], "pads": [0], "dil": [1, 1], "auto": 0, **over}  # fmt: skip
        fmt = A.ACL_FORMAT_NCHW
        x = nc_tensor(np.ones(cfg["x"], np_dtype(cfg["dtype"])), cfg["dtype"], fmt).handle
        out = nc_out(cfg["y"], cfg["out_dtype"] or cfg["dtype"], fmt).handle
        arrays = [None if cfg[key] is None else int_array(cfg[key]) for key in ("k", "s", "pads", "dil")]
        _, executor, ret = A.aclnnMaxPoolGetWorkspaceSize(x, arrays[0], arrays[1], cfg["auto"], arrays[2], arrays[3], 0,
                                                          out)  # fmt: skip
        assert (ret, executor) == (want, None), case
        assert text in (acl.get_recent_err_msg() or ""), case


# -- aclnnAvgPool2d ----------------------------------------------------------------------------------
def test_avg_pool2d_documented_example(stream: int) -> None:
    """Twos [1, 16, 4, 4] under one 4x4 window (cubeMathType USE_FP16) average to 2."""
    x = nc_tensor(np.full((1, 16, 4, 4), 2, np.float32), F32)
    out = nc_out((1, 16, 1, 1), F32)
    run_op(A.aclnnAvgPool2dGetWorkspaceSize, A.aclnnAvgPool2d, stream, x.handle, int_array([4, 4]),
           int_array([1, 1]), int_array([0, 0]), False, True, 0, 2, out.handle)  # fmt: skip
    np.testing.assert_array_equal(out.numpy(), np.full((1, 16, 1, 1), 2, np.float32))


# name -> (x shape, kernel, strides, paddings, ceil, countIncludePad, divisor, dtype, strided)
AVG_POOL_CASES: dict[str, tuple[Any, ...]] = {
    "include-pad-ceil": ((2, 3, 7, 6), [3, 2], [2, 2], [1, 1], True, True, 0, F32, False),
    "exclude-pad-ceil-f16": ((1, 2, 6, 7), [3], [2], [1], True, False, 0, F16, True),
    "divisor-bf16": ((1, 2, 5, 5), [2, 3], [], [1, 1], False, True, 5, B16, False),
    "3d-self": ((4, 5, 6), [2, 2], [1, 2], [0], False, False, 0, F32, False),
}


@pytest.mark.parametrize("case", list(AVG_POOL_CASES))
def test_avg_pool2d(stream: int, case: str) -> None:
    shape, k, s, p, ceil, include, divisor, dtype, strided = AVG_POOL_CASES[case]
    x = random_values(dtype, shape, np.random.default_rng(12))
    x4 = x.reshape((1, *shape)) if len(shape) == 3 else x
    kk = k * 2 if len(k) == 1 else k
    ss = (s * 2 if len(s) == 1 else s) or kk
    pp = p * 2 if len(p) == 1 else p
    oh = pool_size(x4.shape[2], kk[0], pp[0], pp[0], ss[0], ceil)
    ow = pool_size(x4.shape[3], kk[1], pp[1], pp[1], ss[1], ceil)
    golden = golden_avg_pool(x4, kk, ss, pp, (oh, ow), include, divisor).reshape((*shape[:-2], oh, ow))
    out = nc_out(golden.shape, dtype)
    run_op(A.aclnnAvgPool2dGetWorkspaceSize, A.aclnnAvgPool2d, stream, nc_tensor(x, dtype, strided=strided).handle,
           int_array(k), int_array(s), int_array(p), ceil, include, divisor, 0, out.handle)  # fmt: skip
    check(out, golden)


# name -> (overrides, status, text); defaults: x (1, 2, 4, 4) f32 NCHW, kernel [2, 2], strides [2, 2], pads [0]
AVG_POOL_STATUS: dict[str, tuple[dict[str, Any], int, str]] = {
    "null paddings": ({"p": None}, 161001, "expected paddings not to be a null pointer"),
    "int32 self": ({"dtype": A.ACL_INT32}, 161002, "self dtype DT_INT32 should be in dtype support list"),
    "ND format": ({"fmt": A.ACL_FORMAT_ND}, 161002, "self format should be NCHW or NCL."),
    "negative pad": ({"p": [-1]}, 161002, "Dim value of padding is negtive."),
    "zero stride": ({"s": [0, 1]}, 161002, "Dim value of stride is less than or equal to 0."),
    "paddings size": ({"p": [0, 0, 0]}, 161002, "Expected length of padding is 1 or 2, but got 3."),
    "half kernel": ({"p": [2, 0]}, 161002, "value of paddingH should be at most half of kernelH"),
    "out shape": ({"y": (1, 2, 2, 3)}, 161002, "out shape [1, 2, 2, 3] should be [1, 2, 2, 2]."),
    "cubeMathType": ({"mode": 9}, 161002, "cubeMathType only support"),
}


def test_avg_pool2d_status(session: Any) -> None:
    """Every row of the table in one session: the status, no executor, and the recent error text."""
    for case, (over, want, text) in AVG_POOL_STATUS.items():
        cfg: dict[str, Any] = {"x": (1, 2, 4, 4), "y": (1, 2, 2, 2), "dtype": F32, "k": [2, 2], "s": [2, 2], "p": [0],
                               "fmt": None, "mode": 0, **over}  # fmt: skip
        x = nc_tensor(np.ones(cfg["x"], np_dtype(cfg["dtype"])), cfg["dtype"], cfg["fmt"]).handle
        out = nc_out(cfg["y"], cfg["dtype"], cfg["fmt"]).handle
        arrays = [None if cfg[key] is None else int_array(cfg[key]) for key in ("k", "s", "p")]
        _, executor, ret = A.aclnnAvgPool2dGetWorkspaceSize(x, *arrays, False, True, 0, cfg["mode"], out)
        assert (ret, executor) == (want, None), case
        assert text in (acl.get_recent_err_msg() or ""), case


# -- aclnnConvolutionBackward ------------------------------------------------------------------------
def bool_array(values: list[bool]) -> Any:
    array = A.aclCreateBoolArray(values, len(values))
    assert array is not None
    return array


def conv_backward(stream: int, dy: np.ndarray, x: np.ndarray, w: np.ndarray, dtype: int, stride: list[int],
                  pad: list[int], dil: list[int], transposed: bool, out_pad: list[int], groups: int,
                  mask: list[bool]) -> tuple[Any, Any, Any]:  # fmt: skip
    """Phase 1 and 2 with fresh gradient outputs; returns the (gradInput, gradWeight, gradBias) tensors."""
    gi, gw = nc_out(x.shape, dtype), nc_out(w.shape, dtype)
    gb = nc_tensor(np.full((dy.shape[1],), 7, np_dtype(dtype)), dtype, A.ACL_FORMAT_ND)
    tensors = (nc_tensor(dy, dtype).handle, nc_tensor(x, dtype).handle, nc_tensor(w, dtype).handle)
    run_op(A.aclnnConvolutionBackwardGetWorkspaceSize, A.aclnnConvolutionBackward, stream, *tensors,
           int_array([dy.shape[1]]), int_array(stride), int_array(pad), int_array(dil), transposed, int_array(out_pad),
           groups, bool_array(mask), 0, gi.handle, gw.handle, gb.handle)  # fmt: skip
    return gi, gw, gb


# name -> (x shape, w shape, stride, pad, dilation, groups, transposed, output padding, dtype, mask)
BACKWARD_CASES: dict[str, tuple[Any, ...]] = {
    "2d-groups-stride": ((2, 4, 7, 6), (6, 2, 3, 3), [2, 1], [1, 1], [1, 1], 2, False, [0, 0], F32,
                         [True, True, True]),
    "1d-dilation-f16": ((2, 3, 9), (4, 3, 3), [1], [2], [2], 1, False, [0], F16, [True, True, True]),
    "3d-weight-only": ((1, 2, 4, 5, 4), (3, 2, 2, 3, 2), [1, 2, 1], [1, 0, 1], [1, 1, 1], 1, False, [0, 0, 0], F32,
                       [False, True, False]),
    "2d-transposed": ((1, 4, 3, 4), (4, 3, 3, 2), [2, 2], [1, 0], [1, 1], 2, True, [1, 1], F32, [True, True, True]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BACKWARD_CASES))
def test_convolution_backward(stream: int, case: str) -> None:
    """Each masked-in gradient against the exact adjoint of the direct-loop forward (the roles of input
    and gradOutput swap for a transposed forward); masked-out gradients are left untouched."""
    xs, ws, stride, pad, dil, groups, transposed, out_pad, dtype, mask = BACKWARD_CASES[case]
    rng = np.random.default_rng(21)
    x, w = random_values(dtype, xs, rng), random_values(dtype, ws, rng)
    lo, hi = sides(pad, len(xs) - 2)
    if transposed:
        y_shape = golden_conv_transposed(x, w, None, stride, lo, hi, dil, out_pad, groups).shape
        dy = random_values(dtype, y_shape, rng)
        want_gi = golden_conv(dy, w, None, stride, lo, hi, dil, groups)
        _, want_gw = golden_conv_grads(dy, w, x, stride, lo, hi, dil, groups)
    else:
        dy = random_values(dtype, golden_conv(x, w, None, stride, lo, hi, dil, groups).shape, rng)
        want_gi, want_gw = golden_conv_grads(x, w, dy, stride, lo, hi, dil, groups)
    gi, gw, gb = conv_backward(stream, dy, x, w, dtype, stride, pad, dil, transposed, out_pad, groups, mask)
    wants = (want_gi, want_gw, dy.astype(np.float64).sum(axis=(0, *range(2, dy.ndim))))
    for on, got, want in zip(mask, (gi, gw, gb), wants, strict=True):
        if on:
            check(got, want)
        else:
            assert np.all(got.numpy() == 7)


def test_convolution_backward_finite_differences(stream: int) -> None:
    """gradWeight and gradInput of sum(conv(x, w) * dy) match central differences of the forward op."""
    rng = np.random.default_rng(5)
    x, w = rng.uniform(-1, 1, (1, 2, 5, 4)), rng.uniform(-1, 1, (3, 2, 2, 3))
    args = ([2, 1], [1, 1], [1, 1], [1, 1], 1)
    dy = rng.uniform(-1, 1, golden_conv(x, w, None, *args).shape)
    gi, gw, _ = conv_backward(stream, dy.astype(np.float32), x.astype(np.float32), w.astype(np.float32), F32,
                              [2, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, False])  # fmt: skip
    eps = 1e-3
    for grad, base, index in ((gw.numpy(), w, (1, 0, 1, 2)), (gi.numpy(), x, (0, 1, 3, 2))):
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        pair = (x, plus) if base is w else (plus, w)
        pair_m = (x, minus) if base is w else (minus, w)
        numeric = (np.sum(golden_conv(*pair, None, *args) * dy) - np.sum(golden_conv(*pair_m, None, *args) * dy)) / (
            2 * eps
        )
        assert abs(float(grad[index]) - numeric) < 1e-4


def test_convolution_backward_empty_batch(stream: int) -> None:
    """An empty input leaves gradInput empty, gradWeight and gradBias zero."""
    x, w, dy = np.zeros((0, 2, 4, 4), np.float32), np.ones((3, 2, 3, 3), np.float32), np.zeros((0, 3, 2, 2), np.float32)
    gi, gw, gb = conv_backward(stream, dy, x, w, F32, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True])
    assert gi.numpy().shape == (0, 2, 4, 4)
    np.testing.assert_array_equal(gw.numpy(), np.zeros((3, 2, 3, 3), np.float32))
    np.testing.assert_array_equal(gb.numpy(), np.zeros(3, np.float32))


# name -> (overrides, status, text); defaults: dy (1, 2, 3, 3), x (1, 4, 5, 5), w (2, 4, 3, 3) f32, mask all
BACKWARD_STATUS: dict[str, tuple[dict[str, Any], int, str]] = {
    "null weight": ({"w": None}, 161001, "expected weight not to be a null pointer"),
    "null outputMask": ({"mask": None}, 161001, "expected outputMask not to be a null pointer"),
    "mask size": ({"mask": [True, True]}, 161002, "outputMask has 2 elements, expected 3."),
    "null gradWeight": ({"gw": None}, 161001, "expected gradWeight not to be a null pointer"),
    "int32": ({"dtype": A.ACL_INT32}, 161002, "gradOutput dtype DT_INT32 should be in dtype support list"),
    "ND 4-d": ({"fmt": A.ACL_FORMAT_ND}, 161002, "gradOutput format must be NCHW."),
    "stride 0": ({"stride": [0, 1]}, 161002, "the value of stride must be greater than or equal to 1."),
    "outputPadding": ({"out_pad": [1, 0]}, 161002, "when transposed=false, the value of outputPadding must be 0."),
    "groups 0": ({"groups": 0}, 161002, "the value of groups must be greater than or equal to 1."),
    "cubeMathType 4": ({"mode": 4}, 161002, "cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, "
                       "2: USE_FP16, 3: USE_HF32}, but got 4"),
    "gradInput shape": ({"gi": (1, 4, 5, 4)}, 161002, "gradInput shape [1, 4, 5, 4] should be [1, 4, 5, 5]."),
    "gradBias shape": ({"gb": (3,)}, 161002, "gradBias shape should be [2]."),
    "groups": ({"groups": 2}, 161002, "the channels 4 must equal weight's shape[1] 4 times groups 2."),
    "dy spatial": ({"dy": (1, 2, 3, 2)}, 161002, "the spatial dims of gradOutput [3, 2] should be [3, 3]."),
}  # fmt: skip


def test_convolution_backward_status(session: Any) -> None:
    """Every row of the table in one session: the status, no executor, and the recent error text."""
    for case, (over, want, text) in BACKWARD_STATUS.items():
        cfg: dict[str, Any] = {"dy": (1, 2, 3, 3), "x": (1, 4, 5, 5), "w": (2, 4, 3, 3), "dtype": F32, "fmt": None,
                               "stride": [1, 1], "pad": [0, 0], "dil": [1, 1], "out_pad": [0, 0], "groups": 1,
                               "mask": [True, True, True], "mode": 0, "gi": (1, 4, 5, 5), "gw": (2, 4, 3, 3),
                               "gb": (2,), **over}  # fmt: skip

        def tensor(key: str, fmt: int | None = None, cfg: dict[str, Any] = cfg) -> Any:
            shape, dtype = cfg[key], cfg["dtype"]
            host = None if shape is None else np.ones(shape, np_dtype(dtype))
            return None if host is None else nc_tensor(host, dtype, fmt or cfg["fmt"]).handle

        mask = None if cfg["mask"] is None else bool_array(cfg["mask"])
        args = (tensor("dy"), tensor("x"), tensor("w"), None, int_array(cfg["stride"]), int_array(cfg["pad"]),
                int_array(cfg["dil"]), False, int_array(cfg["out_pad"]), cfg["groups"], mask, cfg["mode"], tensor("gi"),
                tensor("gw"), tensor("gb", A.ACL_FORMAT_ND))  # fmt: skip
        _, executor, ret = A.aclnnConvolutionBackwardGetWorkspaceSize(*args)
        assert (ret, executor) == (want, None), case
        assert text in (acl.get_recent_err_msg() or ""), case


# -- aclnnIm2col -------------------------------------------------------------------------------------
def golden_im2col(x: np.ndarray, k: list[int], d: list[int], p: list[int], s: list[int]) -> np.ndarray:
    """Direct loop over the kernel taps (i, j): each tap's strided slice of the padded input is one row per
    channel of torch's unfold layout (row c * kH * kW + i * kW + j)."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, k[0], k[1], oh * ow), x.dtype)
    for i, j in itertools.product(range(k[0]), range(k[1])):
        tap = xp[
            :, :, i * d[0] : i * d[0] + s[0] * (oh - 1) + 1 : s[0], j * d[1] : j * d[1] + s[1] * (ow - 1) + 1 : s[1]
        ]
        out[:, :, i, j] = tap.reshape(n, c, oh * ow)
    return out.reshape(n, c * k[0] * k[1], oh * ow)


def test_im2col_documented_example(stream: int) -> None:
    """[2, 2, 3] of 0..11, 2x2 windows, padding 1, stride 2: the documented [8, 4] columns."""
    x = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    out = nc_out((8, 4), F32, A.ACL_FORMAT_ND)
    run_op(A.aclnnIm2colGetWorkspaceSize, A.aclnnIm2col, stream, nc_tensor(x, F32, A.ACL_FORMAT_ND).handle,
           int_array([2, 2]), int_array([1, 1]), int_array([1, 1]), int_array([2, 2]), out.handle)  # fmt: skip
    np.testing.assert_array_equal(out.numpy(), golden_im2col(x[None], [2, 2], [1, 1], [1, 1], [2, 2])[0])
    assert out.numpy()[3].tolist() == [0.0, 2.0, 0.0, 0.0]  # channel 0's bottom-right taps: x[0, 0], x[0, 2], padding


# name -> (x shape, kernel, dilation, padding, stride, dtype, out dtype, strided)
IM2COL_CASES: dict[str, tuple[Any, ...]] = {
    "f16-dilated-strided": ((2, 3, 7, 6), [3, 2], [2, 1], [1, 0], [1, 2], F16, F16, True),
    "bf16-to-f32": ((1, 2, 5, 5), [2, 2], [1, 1], [0, 1], [2, 1], B16, F32, False),
    "several-blocks": ((2, 8, 60, 40), [3, 3], [1, 1], [1, 1], [1, 1], F32, F32, False),
}


@pytest.mark.parametrize("case", list(IM2COL_CASES))
def test_im2col(stream: int, case: str) -> None:
    shape, k, d, p, s, dtype, out_dtype, strided = IM2COL_CASES[case]
    x = random_values(dtype, shape, np.random.default_rng(31))
    golden = golden_im2col(x.astype(np.float64), k, d, p, s)
    out = nc_out(golden.shape, out_dtype, A.ACL_FORMAT_ND)
    run_op(A.aclnnIm2colGetWorkspaceSize, A.aclnnIm2col, stream, nc_tensor(x, dtype, strided=strided).handle,
           int_array(k), int_array(d), int_array(p), int_array(s), out.handle)  # fmt: skip
    np.testing.assert_array_equal(out.numpy(), golden.astype(np_dtype(out_dtype)))  # data movement: exact


# name -> (overrides, status, text); defaults: x (1, 2, 4, 4) f32, kernel / dilation / padding / stride 2, 1, 0, 1
IM2COL_STATUS: dict[str, tuple[dict[str, Any], int, str]] = {
    "null stride": ({"s": None}, 161001, "expected stride not to be a null pointer"),
    "int32 self": ({"dtype": A.ACL_INT32}, 161002, "self dtype DT_INT32 should be in dtype support list"),
    "2-d self": ({"x": (4, 4)}, 161002, "Expected self dim [2] to be 3 or 4 but check failed."),
    "zero C": ({"x": (1, 0, 4, 4)}, 161002, "self'dims is invalid, self No.[2] dim is [0]."),
    "kernel size": ({"k": [2]}, 161002, "It is expected kernelSize equals to 2, but got size 1."),
    "zero stride": ({"s": [1, 0]}, 161002, "but stride No.[2] dim is [0]."),
    "negative padding": ({"p": [-1, 0]}, 161002, "but padding No.[1] dim is [-1]."),
    "no window": ({"k": [6, 2]}, 161002, "The shape (-1, 3) of the array calculated by other parameters must be"),
    "out shape": ({"y": (1, 8, 8)}, 161002, "Expect out shape [1, 8, 9], but got: [1, 8, 8]."),
}


def test_im2col_status(session: Any) -> None:
    """Every row of the table in one session: the status, no executor, and the recent error text."""
    for case, (over, want, text) in IM2COL_STATUS.items():
        cfg: dict[str, Any] = {"x": (1, 2, 4, 4), "y": (1, 8, 9), "dtype": F32, "k": [2, 2], "d": [1, 1], "p": [0, 0],
                               "s": [1, 1], **over}  # fmt: skip
        x = nc_tensor(np.ones(cfg["x"], np_dtype(cfg["dtype"])), cfg["dtype"], A.ACL_FORMAT_ND).handle
        out = nc_out(cfg["y"], F32, A.ACL_FORMAT_ND).handle
        arrays = [None if cfg[key] is None else int_array(cfg[key]) for key in ("k", "d", "p", "s")]
        _, executor, ret = A.aclnnIm2colGetWorkspaceSize(x, *arrays, out)
        assert (ret, executor) == (want, None), case
        assert text in (acl.get_recent_err_msg() or ""), case
