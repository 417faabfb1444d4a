"""The padding / repeat-interleave / index copy-put family's benchmark: aclnnConstantPadNd padding a
[2048, 2048] float32 tensor by one on every side (4M elements out, the AI Core PadV3 path) against
numpy's ``pad`` in the same run. The emulated case is the whole two-phase call plus the stream
synchronisation.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import Ctx

from emulator import aclnn, process

F32 = aclnn.ACL_FLOAT
SIDE = 2048
rng = np.random.default_rng(0)
X = rng.random((SIDE, SIDE), dtype=np.float32)


@pytest.fixture
def padding_ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="padding: ConstantPadNd 4M fp32")
def test_constant_pad_nd(benchmark, padding_ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    ctx = padding_ctx
    x, out = ctx.tensor(X, F32), ctx.tensor(np.empty((SIDE + 2, SIDE + 2), np.float32), F32)
    pad, value = aclnn.aclCreateIntArray([1, 1, 1, 1], 4), aclnn.aclCreateScalar(0.0, F32)
    benchmark(ctx.run, aclnn.aclnnConstantPadNdGetWorkspaceSize, aclnn.aclnnConstantPadNd, x, pad, value, out)


@pytest.mark.benchmark(group="padding: ConstantPadNd 4M fp32")
def test_constant_pad_nd_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark(np.pad, X, 1)
