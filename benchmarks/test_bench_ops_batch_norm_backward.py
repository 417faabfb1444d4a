"""Issue 15, BatchNormBackward: aclnnBatchNormBackward training on a 4M-element float32 NCHW batch of 32
channels (the A2 BNTrainingUpdateGrad + BNTrainingReduceGrad chain, all three outputs) against numpy's
per-channel sums and gradInput in float32."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx

from emulator import aclnn, process

SHAPE = (16, 32, 64, 128)  # 4M elements
RNG = np.random.default_rng(6)
X, DY = RNG.normal(0, 1, SHAPE).astype(np.float32), RNG.normal(0, 1, SHAPE).astype(np.float32)
C, EPS = SHAPE[1], 1e-5
MEAN, VAR = X.mean(axis=(0, 2, 3)), X.var(axis=(0, 2, 3))
GROUP = "batch norm backward: BatchNormBackward training 4M fp32, C 32"


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group=GROUP)
def test_batch_norm_backward(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    f32 = aclnn.ACL_FLOAT
    dy, x, grad_in = ctx.tensor(DY, f32), ctx.tensor(X, f32), ctx.tensor(np.empty_like(X), f32)
    w, mean, var = (ctx.tensor(v, f32) for v in (np.ones(C, np.float32), MEAN, VAR))
    grad_w, grad_b = ctx.tensor(np.empty(C, np.float32), f32), ctx.tensor(np.empty(C, np.float32), f32)
    mask = aclnn.aclCreateBoolArray([True, True, True], 3)
    benchmark(ctx.run, aclnn.aclnnBatchNormBackwardGetWorkspaceSize, aclnn.aclnnBatchNormBackward, dy, x, w, None,
              None, mean, var, True, EPS, mask, grad_in, grad_w, grad_b)  # fmt: skip


@pytest.mark.benchmark(group=GROUP)
def test_batch_norm_backward_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(X)
    n = X.size // C
    shape = (1, C, 1, 1)

    def batch_norm_backward() -> None:
        invstd = (1 / np.sqrt(VAR + EPS)).reshape(shape)
        xhat = (X - MEAN.reshape(shape)) * invstd
        dw, db = (DY * xhat).sum(axis=(0, 2, 3)), DY.sum(axis=(0, 2, 3))
        np.multiply(invstd, DY - db.reshape(shape) / n - xhat * dw.reshape(shape) / n, out=out)

    benchmark(batch_norm_backward)
