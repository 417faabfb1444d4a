"""Part 2, creation: aclnnArange of 4M float32 elements against numpy's arange into a preallocated array."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx, N

from emulator import aclnn, process


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="creation: Arange 4M fp32")
def test_arange(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    out = ctx.tensor(np.empty(N, np.float32), aclnn.ACL_FLOAT)
    start, end = aclnn.aclCreateScalar(0.0, aclnn.ACL_FLOAT), aclnn.aclCreateScalar(float(N), aclnn.ACL_FLOAT)
    step = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    benchmark(ctx.run, aclnn.aclnnArangeGetWorkspaceSize, aclnn.aclnnArange, start, end, step, out)


@pytest.mark.benchmark(group="creation: Arange 4M fp32")
def test_arange_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty(N, np.float32)

    def arange_into() -> None:
        out[...] = np.arange(N, dtype=np.float32)

    benchmark(arange_into)
