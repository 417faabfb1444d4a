"""Part 2, clamps: aclnnClamp on 4M float32 elements against numpy's clip."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx, N

from emulator import aclnn, process

A = np.random.default_rng(3).random(N, dtype=np.float32)


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="clamp: Clamp 4M fp32")
def test_clamp(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(A, aclnn.ACL_FLOAT), ctx.tensor(np.empty_like(A), aclnn.ACL_FLOAT)
    lo, hi = aclnn.aclCreateScalar(0.25, aclnn.ACL_FLOAT), aclnn.aclCreateScalar(0.75, aclnn.ACL_FLOAT)
    benchmark(ctx.run, aclnn.aclnnClampGetWorkspaceSize, aclnn.aclnnClamp, x, lo, hi, out)


@pytest.mark.benchmark(group="clamp: Clamp 4M fp32")
def test_clamp_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.clip, A, np.float32(0.25), np.float32(0.75), out=out)
