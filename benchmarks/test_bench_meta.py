"""aclnn meta benchmarks: aclCreateTensor + aclDestroyTensor, and aclnnInit on the shipped op package."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import aclnn, process


@pytest.mark.benchmark(group="create+destroy tensor")
def test_create_destroy_tensor(benchmark, emu) -> None:  # type: ignore[no-untyped-def]
    """One aclCreateTensor (2-D, explicit strides) + aclDestroyTensor."""

    def pair() -> None:
        t = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, 0x1000)
        aclnn.aclDestroyTensor(t)

    benchmark(pair)
    assert emu.registry.count("tensor") == 0


@pytest.mark.benchmark(group="create+destroy tensor")
def test_create_destroy_numpy_view(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: making a strided numpy view of an existing buffer (what a tensor descriptor is)."""
    base = np.empty(8, dtype=np.float32)
    benchmark(np.lib.stride_tricks.as_strided, base, (2, 4), (16, 4))


@pytest.mark.benchmark(group="aclnnInit")
def test_aclnn_init_shipped_package(benchmark) -> None:  # type: ignore[no-untyped-def]
    """aclnnInit in a fresh process: loads the shipped op package and evaluates the system config."""

    def init_once() -> None:
        with process.fresh():
            assert aclnn.aclnnInit(None) == 0

    benchmark(init_once)
