"""Attention: aclnnFlashAttentionScore, B=1 N=8 S=512 D=64 float16 (BNSD, no mask), against a numpy
softmax(Q·Kᵀ·scale)·V computed in float32 from the same float16 inputs, in the same run."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F16, F32 = aclnn.ACL_FLOAT16, aclnn.ACL_FLOAT
B, N, S, D = 1, 8, 512, 64
SCALE = 1 / np.sqrt(D)
rng = np.random.default_rng(2)
Q, K, V = (rng.uniform(-1, 1, (B, N, S, D)).astype(np.float16) for _ in range(3))


@pytest.mark.benchmark(group="attention: FlashAttentionScore 1x8x512x64 fp16")
def test_flash_attention_score(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    q, k, v = ctx.tensor(Q, F16), ctx.tensor(K, F16), ctx.tensor(V, F16)
    smax = ctx.tensor(np.empty((B, N, S, 8), np.float32), F32)
    ssum = ctx.tensor(np.empty((B, N, S, 8), np.float32), F32)
    out = ctx.tensor(np.empty((B, N, S, D), np.float16), F16)
    benchmark(ctx.run, aclnn.aclnnFlashAttentionScoreGetWorkspaceSize, aclnn.aclnnFlashAttentionScore, q, k, v, None,
              None, None, None, None, SCALE, 1.0, 65536, 65536, N, "BNSD", 0, 0, smax, ssum, None, out)  # fmt: skip


@pytest.mark.benchmark(group="attention: FlashAttentionScore 1x8x512x64 fp16")
def test_flash_attention_score_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def attention() -> np.ndarray:
        q, k, v = Q.astype(np.float32), K.astype(np.float32), V.astype(np.float32)
        scores = q @ k.transpose(0, 1, 3, 2) * np.float32(SCALE)
        p = np.exp(scores - scores.max(-1, keepdims=True))
        return ((p / p.sum(-1, keepdims=True)) @ v).astype(np.float16)

    benchmark(attention)
