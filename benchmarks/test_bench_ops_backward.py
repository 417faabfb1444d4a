"""One benchmark per family of issue 15's backward share on 4M elements, each against numpy in the same run:
the elementwise backwards (SiluBackward), the row backwards (SoftmaxBackward over rows of 4096) and the
loss and dropout family (DropoutDoMask)."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, N, ctx  # noqa: F401  (ctx is the fixture)

from emulator import aclnn

F32, U8 = aclnn.ACL_FLOAT, aclnn.ACL_UINT8
rng = np.random.default_rng(1)
DY = rng.standard_normal(N, dtype=np.float32)
X = rng.standard_normal(N, dtype=np.float32)
ROWS = (N // 4096, 4096)
MASK = rng.integers(0, 256, N // 8, dtype=np.uint8)


@pytest.mark.benchmark(group="backward: SiluBackward 4M fp32")
def test_silu_backward(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    dy, x, out = ctx.tensor(DY, F32), ctx.tensor(X, F32), ctx.tensor(np.empty_like(X), F32)
    benchmark(ctx.run, aclnn.aclnnSiluBackwardGetWorkspaceSize, aclnn.aclnnSiluBackward, dy, x, out)


@pytest.mark.benchmark(group="backward: SiluBackward 4M fp32")
def test_silu_backward_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def silu_grad() -> np.ndarray:
        s = 1 / (1 + np.exp(-X))
        return DY * s * (1 + X * (1 - s))

    benchmark(silu_grad)


@pytest.mark.benchmark(group="backward: SoftmaxBackward 1024x4096 fp32")
def test_softmax_backward(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    dy, y = ctx.tensor(DY.reshape(ROWS), F32), ctx.tensor(np.abs(X).reshape(ROWS), F32)
    out = ctx.tensor(np.empty(ROWS, np.float32), F32)
    benchmark(ctx.run, aclnn.aclnnSoftmaxBackwardGetWorkspaceSize, aclnn.aclnnSoftmaxBackward, dy, y, -1, out)


@pytest.mark.benchmark(group="backward: SoftmaxBackward 1024x4096 fp32")
def test_softmax_backward_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    dy, y = DY.reshape(ROWS), np.abs(X).reshape(ROWS)
    benchmark(lambda: y * (dy - np.sum(dy * y, axis=-1, keepdims=True)))


@pytest.mark.benchmark(group="dropout: DropoutDoMask 4M fp32")
def test_dropout_do_mask(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, mask, out = ctx.tensor(X, F32), ctx.tensor(MASK, U8), ctx.tensor(np.empty_like(X), F32)
    benchmark(ctx.run, aclnn.aclnnDropoutDoMaskGetWorkspaceSize, aclnn.aclnnDropoutDoMask, x, mask, 0.1, out)


@pytest.mark.benchmark(group="dropout: DropoutDoMask 4M fp32")
def test_dropout_do_mask_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def do_mask() -> np.ndarray:
        bits = np.unpackbits(MASK, bitorder="little").astype(bool)
        return np.where(bits, X * np.float32(1 / 0.9), np.float32(0))

    benchmark(do_mask)
