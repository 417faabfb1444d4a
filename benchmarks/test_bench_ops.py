"""One benchmark per op family on a large tensor, each against the numpy equivalent in the same run.

Each emulated case is the whole two-phase call plus the stream synchronisation (the kernels run
there); the numpy baseline computes the same result single-threaded into a preallocated array.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c

N = 4 * 1024 * 1024
ROWS, COLS = 1024, 4096


class Ctx:
    def __init__(self) -> None:
        acl.rt.set_device(0)
        self.stream, _ = acl.rt.create_stream()
        aclnn.aclnnInit(None)

    def tensor(self, arr: np.ndarray, dtype: int) -> object:
        ptr, ret = acl.rt.malloc(max(arr.nbytes, 1), 0)
        assert ret == 0
        acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
        shape = list(arr.shape)
        strides = [s // arr.itemsize for s in arr.strides]
        return aclnn.aclCreateTensor(shape, len(shape), dtype, strides, 0, 2, shape, len(shape), ptr)

    def run(self, phase1: Callable[..., tuple[int, object, int]], phase2: Callable[..., int], *args: object) -> None:
        ws, executor, ret = phase1(*args)
        assert ret == 0
        workspace = acl.rt.malloc(ws, 0)[0] if ws else 0
        assert phase2(workspace, ws, executor, self.stream) == 0
        assert acl.rt.synchronize_stream(self.stream) == 0
        if workspace:
            acl.rt.free(workspace)


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


F32 = aclnn.ACL_FLOAT
rng = np.random.default_rng(0)
A = rng.random(N, dtype=np.float32)
B = rng.random(N, dtype=np.float32)
M = rng.random((ROWS, COLS), dtype=np.float32)
K1 = rng.random((1024, 1024), dtype=np.float32)
K2 = rng.random((1024, 1024), dtype=np.float32)


@pytest.mark.benchmark(group="binary: Sub 4M fp32")
def test_sub(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, y, out = ctx.tensor(A, F32), ctx.tensor(B, F32), ctx.tensor(np.empty_like(A), F32)
    alpha = aclnn.aclCreateScalar(1.0, F32)
    benchmark(ctx.run, aclnn.aclnnSubGetWorkspaceSize, aclnn.aclnnSub, x, y, alpha, out)


@pytest.mark.benchmark(group="binary: Sub 4M fp32")
def test_sub_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.subtract, A, B, out=out)


@pytest.mark.benchmark(group="unary: Exp 4M fp32")
def test_exp(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(A, F32), ctx.tensor(np.empty_like(A), F32)
    benchmark(ctx.run, aclnn.aclnnExpGetWorkspaceSize, aclnn.aclnnExp, x, out)


@pytest.mark.benchmark(group="unary: Exp 4M fp32")
def test_exp_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.exp, A, out=out)


@pytest.mark.benchmark(group="reduce: ReduceSum 1024x4096 dim 1")
def test_reduce_sum(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(M, F32), ctx.tensor(np.empty(ROWS, np.float32), F32)
    dims = aclnn.aclCreateIntArray([1], 1)
    benchmark(ctx.run, aclnn.aclnnReduceSumGetWorkspaceSize, aclnn.aclnnReduceSum, x, dims, False, F32, out)


@pytest.mark.benchmark(group="reduce: ReduceSum 1024x4096 dim 1")
def test_reduce_sum_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty(ROWS, np.float32)
    benchmark(np.sum, M, axis=1, out=out)


@pytest.mark.benchmark(group="softmax: 1024x4096 dim -1")
def test_softmax(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(M, F32), ctx.tensor(np.empty_like(M), F32)
    benchmark(ctx.run, aclnn.aclnnSoftmaxGetWorkspaceSize, aclnn.aclnnSoftmax, x, -1, out)


@pytest.mark.benchmark(group="softmax: 1024x4096 dim -1")
def test_softmax_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def softmax() -> np.ndarray:
        e = np.exp(M - M.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    benchmark(softmax)


@pytest.mark.benchmark(group="data: Permute 1024x4096 -> 4096x1024")
def test_permute(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(M, F32), ctx.tensor(np.empty((COLS, ROWS), np.float32), F32)
    dims = aclnn.aclCreateIntArray([1, 0], 2)
    benchmark(ctx.run, aclnn.aclnnPermuteGetWorkspaceSize, aclnn.aclnnPermute, x, dims, out)


@pytest.mark.benchmark(group="data: Permute 1024x4096 -> 4096x1024")
def test_permute_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty((COLS, ROWS), np.float32)
    benchmark(np.copyto, out, M.T)


@pytest.mark.benchmark(group="matmul: Mm 1024x1024 fp32")
def test_mm(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    """cubeMathType 0 (KEEP_DTYPE): float32 in, float32 compute — the like-for-like case."""
    a, b, out = ctx.tensor(K1, F32), ctx.tensor(K2, F32), ctx.tensor(np.empty_like(K1), F32)
    benchmark(ctx.run, aclnn.aclnnMmGetWorkspaceSize, aclnn.aclnnMm, a, b, out, 0)


@pytest.mark.benchmark(group="matmul: Mm 1024x1024 fp32")
def test_mm_hf32(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    """cubeMathType 1 (ALLOW_FP32_DOWN_PRECISION): A2 rounds both inputs to HF32 first."""
    a, b, out = ctx.tensor(K1, F32), ctx.tensor(K2, F32), ctx.tensor(np.empty_like(K1), F32)
    benchmark(ctx.run, aclnn.aclnnMmGetWorkspaceSize, aclnn.aclnnMm, a, b, out, 1)


@pytest.mark.benchmark(group="matmul: Mm 1024x1024 fp32")
def test_mm_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(K1)
    benchmark(np.matmul, K1, K2, out=out)
