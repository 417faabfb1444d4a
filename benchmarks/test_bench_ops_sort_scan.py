"""Reductions, scans and sorting: aclnnSort and aclnnCumsumV2 on 4M float32 elements against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import COLS, ROWS, Ctx, M, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F32, I64 = aclnn.ACL_FLOAT, aclnn.ACL_INT64


@pytest.mark.benchmark(group="sort: Sort 1024x4096 dim -1")
def test_sort(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, values = ctx.tensor(M, F32), ctx.tensor(np.empty_like(M), F32)
    indices = ctx.tensor(np.empty((ROWS, COLS), np.int64), I64)
    benchmark(ctx.run, aclnn.aclnnSortGetWorkspaceSize, aclnn.aclnnSort, x, True, -1, False, values, indices)


@pytest.mark.benchmark(group="sort: Sort 1024x4096 dim -1")
def test_sort_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def sort() -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(M, axis=-1, kind="stable")
        return np.take_along_axis(M, order, axis=-1), order

    benchmark(sort)


@pytest.mark.benchmark(group="scan: Cumsum 1024x4096 dim -1")
def test_cumsum(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, out = ctx.tensor(M, F32), ctx.tensor(np.empty_like(M), F32)
    benchmark(ctx.run, aclnn.aclnnCumsumV2GetWorkspaceSize, aclnn.aclnnCumsumV2, x, -1, False, False, out)


@pytest.mark.benchmark(group="scan: Cumsum 1024x4096 dim -1")
def test_cumsum_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(M)
    benchmark(np.cumsum, M, axis=-1, out=out)
