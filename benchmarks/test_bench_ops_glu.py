"""Gated units: aclnnSwiGlu on a 1024x8192 float32 input (4M outputs) against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F32 = aclnn.ACL_FLOAT
X = np.random.default_rng(1).standard_normal((1024, 8192), dtype=np.float32)


@pytest.mark.benchmark(group="glu: SwiGlu 1024x8192 dim -1")
def test_swi_glu(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, out = ctx.tensor(X, F32), ctx.tensor(np.empty((1024, 4096), np.float32), F32)
    benchmark(ctx.run, aclnn.aclnnSwiGluGetWorkspaceSize, aclnn.aclnnSwiGlu, x, -1, out)


@pytest.mark.benchmark(group="glu: SwiGlu 1024x8192 dim -1")
def test_swi_glu_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def swi_glu() -> np.ndarray:
        a, b = X[:, :4096], X[:, 4096:]
        return a / (1 + np.exp(-a)) * b

    benchmark(swi_glu)
