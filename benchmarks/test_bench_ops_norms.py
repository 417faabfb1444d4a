"""Softmax and norms: aclnnLogSoftmax on 4M float32 elements against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, M, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F32 = aclnn.ACL_FLOAT


@pytest.mark.benchmark(group="softmax: LogSoftmax 1024x4096 dim -1")
def test_log_softmax(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, out = ctx.tensor(M, F32), ctx.tensor(np.empty_like(M), F32)
    benchmark(ctx.run, aclnn.aclnnLogSoftmaxGetWorkspaceSize, aclnn.aclnnLogSoftmax, x, -1, out)


@pytest.mark.benchmark(group="softmax: LogSoftmax 1024x4096 dim -1")
def test_log_softmax_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def log_softmax() -> np.ndarray:
        shifted = M - M.max(axis=-1, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))

    benchmark(log_softmax)
