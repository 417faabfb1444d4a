"""Issue 14, clamps with tensor bounds: aclnnClampTensor on 4M float32 elements with row-broadcast bounds
against numpy's minimum(maximum(x, lo), hi) into a preallocated array."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import COLS, ROWS, Ctx

from emulator import aclnn, process

rng = np.random.default_rng(4)
X = rng.random((ROWS, COLS), dtype=np.float32)
LO = (rng.random(COLS, dtype=np.float32) * 0.5).astype(np.float32)
HI = (LO + 0.5).astype(np.float32)


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="clamp tensor: ClampTensor 4M fp32, [4096] bounds")
def test_clamp_tensor(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    f32 = aclnn.ACL_FLOAT
    x, lo, hi, out = ctx.tensor(X, f32), ctx.tensor(LO, f32), ctx.tensor(HI, f32), ctx.tensor(np.empty_like(X), f32)
    benchmark(ctx.run, aclnn.aclnnClampTensorGetWorkspaceSize, aclnn.aclnnClampTensor, x, lo, hi, out)


@pytest.mark.benchmark(group="clamp tensor: ClampTensor 4M fp32, [4096] bounds")
def test_clamp_tensor_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(X)

    def clip() -> None:
        np.maximum(X, LO, out=out)
        np.minimum(out, HI, out=out)

    benchmark(clip)
