"""Issue 14, BatchNorm: aclnnBatchNorm training on a 4M-element float32 NCHW batch of 64 channels (the
BatchNormV3 chain) against numpy's per-channel mean / var, normalisation and running-stat update."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx

from emulator import aclnn, process

SHAPE = (16, 64, 64, 64)  # 4M elements
X = np.random.default_rng(5).normal(0, 1, SHAPE).astype(np.float32)
C = SHAPE[1]


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="batch norm: BatchNorm training 4M fp32, C 64")
def test_batch_norm(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    f32 = aclnn.ACL_FLOAT
    x, out = ctx.tensor(X, f32), ctx.tensor(np.empty_like(X), f32)
    w, b = ctx.tensor(np.ones(C, np.float32), f32), ctx.tensor(np.zeros(C, np.float32), f32)
    rm, rv = ctx.tensor(np.zeros(C, np.float32), f32), ctx.tensor(np.ones(C, np.float32), f32)
    mean, rstd = ctx.tensor(np.empty(C, np.float32), f32), ctx.tensor(np.empty(C, np.float32), f32)
    benchmark(ctx.run, aclnn.aclnnBatchNormGetWorkspaceSize, aclnn.aclnnBatchNorm, x, w, b, rm, rv, True, 0.1,
              1e-5, out, mean, rstd)  # fmt: skip


@pytest.mark.benchmark(group="batch norm: BatchNorm training 4M fp32, C 64")
def test_batch_norm_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(X)
    running_mean, running_var = np.zeros(C, np.float32), np.ones(C, np.float32)
    n = X.size // C

    def batch_norm() -> None:
        mean = X.mean(axis=(0, 2, 3))
        var = X.var(axis=(0, 2, 3))
        np.multiply(X - mean[None, :, None, None], (1 / np.sqrt(var + 1e-5))[None, :, None, None], out=out)
        running_mean[...] = 0.9 * running_mean + 0.1 * mean
        running_var[...] = 0.9 * running_var + 0.1 * var * n / (n - 1)

    benchmark(batch_norm)
