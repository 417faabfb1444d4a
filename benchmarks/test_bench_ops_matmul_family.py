"""Matmul family: aclnnWeightQuantBatchMatmulV2 with a 2048x2048 int8 weight (4M elements), per-group (32)
float16 scales, x of 16 rows, against numpy (dequantise in float32, one matmul)."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F16, I8 = aclnn.ACL_FLOAT16, aclnn.ACL_INT8
RNG = np.random.default_rng(0)
K = N = 2048
X = RNG.uniform(-1, 1, (16, K)).astype(np.float16)
W = RNG.integers(-128, 128, (K, N)).astype(np.int8)
S = RNG.uniform(0.01, 0.1, (K // 32, N)).astype(np.float16)


@pytest.mark.benchmark(group="matmul: WeightQuantBatchMatmulV2 16x2048 @ int8 2048x2048, group 32")
def test_weight_quant_batch_matmul(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, w, s = ctx.tensor(X, F16), ctx.tensor(W, I8), ctx.tensor(S, F16)
    y = ctx.tensor(np.empty((16, N), np.float16), F16)
    benchmark(ctx.run, aclnn.aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnn.aclnnWeightQuantBatchMatmulV2, x, w,
              s, None, None, None, None, 32, y)  # fmt: skip


@pytest.mark.benchmark(group="matmul: WeightQuantBatchMatmulV2 16x2048 @ int8 2048x2048, group 32")
def test_weight_quant_batch_matmul_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def reference() -> np.ndarray:
        deq = W.astype(np.float32) * np.repeat(S.astype(np.float32), 32, axis=0)
        return (X.astype(np.float32) @ deq).astype(np.float16)

    benchmark(reference)
