"""Convolution and pooling: aclnnConvolution on 1x64x56x56 with a 3x3 kernel and 64 output channels
(padding 1, float32) and aclnnMaxPool 3x3 / stride 2 on a 4M-element 1x64x256x256 input, each against
a numpy float32 reference (im2col by sliding windows + one matmul; a max over the windows)."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, ctx  # noqa: F401  (ctx is the fixture)

from emulator import acl, aclnn
from emulator.acl import constants as c

F32, NCHW = aclnn.ACL_FLOAT, aclnn.ACL_FORMAT_NCHW
rng = np.random.default_rng(2)
X = rng.standard_normal((1, 64, 56, 56), dtype=np.float32)
W = rng.standard_normal((64, 64, 3, 3), dtype=np.float32)
P = rng.standard_normal((1, 64, 256, 256), dtype=np.float32)


def nchw(arr: np.ndarray) -> object:
    """A device copy of ``arr`` as an NCHW aclTensor (the benchmark Ctx makes ND ones)."""
    ptr, ret = acl.rt.malloc(arr.nbytes, 0)
    assert ret == 0
    acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    shape, strides = list(arr.shape), [s // arr.itemsize for s in arr.strides]
    return aclnn.aclCreateTensor(shape, len(shape), F32, strides, 0, NCHW, shape, len(shape), ptr)


def ints(values: list[int]) -> object:
    return aclnn.aclCreateIntArray(values, len(values))


@pytest.mark.benchmark(group="conv: Convolution 1x64x56x56 3x3 64 out")
def test_convolution(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, w, out = nchw(X), nchw(W), nchw(np.empty((1, 64, 56, 56), np.float32))
    args = (x, w, None, ints([1, 1]), ints([1, 1]), ints([1, 1]), False, ints([0, 0]), 1, out, 0)
    benchmark(ctx.run, aclnn.aclnnConvolutionGetWorkspaceSize, aclnn.aclnnConvolution, *args)


@pytest.mark.benchmark(group="conv: Convolution 1x64x56x56 3x3 64 out")
def test_convolution_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def conv() -> np.ndarray:
        xp = np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1)))
        cols = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))  # 1, 64, 56, 56, 3, 3
        cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(56 * 56, 64 * 9)
        return (cols @ W.reshape(64, -1).T).T.reshape(1, 64, 56, 56)

    benchmark(conv)


@pytest.mark.benchmark(group="pool: MaxPool 3x3 s2 1x64x256x256")
def test_max_pool(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, out = nchw(P), nchw(np.empty((1, 64, 127, 127), np.float32))
    args = (x, ints([3, 3]), ints([2, 2]), 0, ints([0]), ints([1, 1]), 0, out)
    benchmark(ctx.run, aclnn.aclnnMaxPoolGetWorkspaceSize, aclnn.aclnnMaxPool, *args)


@pytest.mark.benchmark(group="pool: MaxPool 3x3 s2 1x64x256x256")
def test_max_pool_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def pool() -> np.ndarray:
        windows = np.lib.stride_tricks.sliding_window_view(P, (3, 3), axis=(2, 3))[:, :, ::2, ::2]
        return windows.max(axis=(-2, -1))

    benchmark(pool)
