"""The indexing and shape family's benchmark: aclnnIndexSelect gathering 4M float32 elements (4096
random rows of 1024 out of a [4096, 1024] table, the GatherV3 path) against numpy's ``take`` into a
preallocated array, in the same run. The emulated case is the whole two-phase call plus the stream
synchronisation.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx

from emulator import aclnn, process

F32, I64 = aclnn.ACL_FLOAT, aclnn.ACL_INT64
ROWS, COLS = 4096, 1024
rng = np.random.default_rng(0)
TABLE = rng.random((ROWS, COLS), dtype=np.float32)
PICKS = rng.integers(0, ROWS, ROWS).astype(np.int64)


@pytest.fixture
def indexing_ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="indexing: IndexSelect 4M fp32")
def test_index_select(benchmark, indexing_ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    ctx = indexing_ctx
    x, index, out = ctx.tensor(TABLE, F32), ctx.tensor(PICKS, I64), ctx.tensor(np.empty_like(TABLE), F32)
    benchmark(ctx.run, aclnn.aclnnIndexSelectGetWorkspaceSize, aclnn.aclnnIndexSelect, x, 0, index, out)


@pytest.mark.benchmark(group="indexing: IndexSelect 4M fp32")
def test_index_select_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(TABLE)
    benchmark(np.take, TABLE, PICKS, 0, out)
