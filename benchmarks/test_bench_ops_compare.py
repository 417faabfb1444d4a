"""Part 2, comparisons: aclnnGeTensor on 4M float32 elements (bool out) against numpy's greater_equal."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx, N

from emulator import aclnn, process

rng = np.random.default_rng(1)
A = rng.random(N, dtype=np.float32)
B = rng.random(N, dtype=np.float32)


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="compare: GeTensor 4M fp32")
def test_ge_tensor(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, y = ctx.tensor(A, aclnn.ACL_FLOAT), ctx.tensor(B, aclnn.ACL_FLOAT)
    out = ctx.tensor(np.empty(N, bool), aclnn.ACL_BOOL)
    benchmark(ctx.run, aclnn.aclnnGeTensorGetWorkspaceSize, aclnn.aclnnGeTensor, x, y, out)


@pytest.mark.benchmark(group="compare: GeTensor 4M fp32")
def test_ge_tensor_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty(N, bool)
    benchmark(np.greater_equal, A, B, out=out)
