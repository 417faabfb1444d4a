"""Part 2, logical and bitwise: aclnnBitwiseAndTensor on 4M int32 elements against numpy's bitwise_and."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx, N

from emulator import aclnn, process

rng = np.random.default_rng(2)
A = rng.integers(-(2**31), 2**31 - 1, N, dtype=np.int32)
B = rng.integers(-(2**31), 2**31 - 1, N, dtype=np.int32)


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="logical: BitwiseAndTensor 4M int32")
def test_bitwise_and(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, y, out = (
        ctx.tensor(A, aclnn.ACL_INT32),
        ctx.tensor(B, aclnn.ACL_INT32),
        ctx.tensor(np.empty_like(A), aclnn.ACL_INT32),
    )
    benchmark(ctx.run, aclnn.aclnnBitwiseAndTensorGetWorkspaceSize, aclnn.aclnnBitwiseAndTensor, x, y, out)


@pytest.mark.benchmark(group="logical: BitwiseAndTensor 4M int32")
def test_bitwise_and_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.bitwise_and, A, B, out=out)
