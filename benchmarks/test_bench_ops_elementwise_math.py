"""The elementwise math family of issue 14 on a 4M-element float32 tensor, each against numpy in the same run.

Sin stands for the transcendental unary kernels (Atan, Cos, Sin: AI Core, computed in float32), LeakyRelu
for the activations with a scalar attribute, PowTensorScalar (exponent 2.5: the general Pow kernel with
a one-element exponent tensor) for the Pow forms.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_bench_ops import A, Ctx

from emulator import aclnn, process

F32 = aclnn.ACL_FLOAT


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    with process.fresh():
        yield Ctx()


@pytest.mark.benchmark(group="elementwise math: Sin 4M fp32")
def test_sin(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(A, F32), ctx.tensor(np.empty_like(A), F32)
    benchmark(ctx.run, aclnn.aclnnSinGetWorkspaceSize, aclnn.aclnnSin, x, out)


@pytest.mark.benchmark(group="elementwise math: Sin 4M fp32")
def test_sin_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.sin, A, out=out)


@pytest.mark.benchmark(group="elementwise math: LeakyRelu 4M fp32")
def test_leaky_relu(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(A - np.float32(0.5), F32), ctx.tensor(np.empty_like(A), F32)
    slope = aclnn.aclCreateScalar(0.01, F32)
    benchmark(ctx.run, aclnn.aclnnLeakyReluGetWorkspaceSize, aclnn.aclnnLeakyRelu, x, slope, out)


@pytest.mark.benchmark(group="elementwise math: LeakyRelu 4M fp32")
def test_leaky_relu_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    x = A - np.float32(0.5)
    out = np.empty_like(A)

    def leaky_relu() -> None:
        np.copyto(out, np.where(x > 0, x, x * np.float32(0.01)))

    benchmark(leaky_relu)


@pytest.mark.benchmark(group="elementwise math: PowTensorScalar 4M fp32")
def test_pow_tensor_scalar(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]
    x, out = ctx.tensor(A, F32), ctx.tensor(np.empty_like(A), F32)
    exponent = aclnn.aclCreateScalar(2.5, F32)
    benchmark(ctx.run, aclnn.aclnnPowTensorScalarGetWorkspaceSize, aclnn.aclnnPowTensorScalar, x, exponent, out)


@pytest.mark.benchmark(group="elementwise math: PowTensorScalar 4M fp32")
def test_pow_tensor_scalar_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    out = np.empty_like(A)
    benchmark(np.power, A, np.float32(2.5), out=out)
