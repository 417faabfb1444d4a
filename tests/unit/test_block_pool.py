"""The block pool (device/simulated/blocks.py): every block once, the same failure whoever ran it,
no block still running when the launch returns, and the pool left alone while the host is busy."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from emulator.device.interface import Access, BlockContext, BufferArg, KernelLaunch, MemPolicy
from emulator.device.simulated import blocks
from emulator.device.simulated.blocks import HostCores, run_all
from emulator.device.simulated.npu import SimulatedNpu


class Recorder:
    """A per-block kernel noting which thread ran which block; ``fail`` blocks raise."""

    def __init__(self, fail: tuple[int, ...] = ()) -> None:
        self.fail = fail
        self.ran: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def __call__(self, ctx: BlockContext[Any], out: np.ndarray) -> None:
        with self.lock:
            self.ran.append((ctx.block_idx, threading.get_ident()))
        if ctx.block_idx in self.fail:
            raise ValueError(f"block {ctx.block_idx}")
        out[ctx.block_idx] = ctx.block_idx


class MergingRecorder(Recorder):
    """The same with ``run_blocks``: notes each (first block, count) it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[int, int]] = []

    def run_blocks(self, first: BlockContext[Any], count: int, out: np.ndarray) -> None:
        with self.lock:
            self.calls.append((first.block_idx, count))
        out[first.block_idx : first.block_idx + count] = np.arange(first.block_idx, first.block_idx + count)


def _launch(func: Any, dim: int) -> KernelLaunch:
    return KernelLaunch("recorder", func, dim, (BufferArg(0x1000, dim, Access.WRITE),))


@pytest.mark.parametrize("helpers", [0, 1, 3])
@pytest.mark.parametrize("dim", [1, 2, 7, 48])
def test_every_block_runs_once(helpers: int, dim: int) -> None:
    kernel = Recorder()
    out = np.full(dim, -1, np.int64)
    with ThreadPoolExecutor(max(helpers, 1)) as pool:
        run_all(_launch(kernel, dim), 1024, [out], pool, helpers)
    assert sorted(block for block, _ in kernel.ran) == list(range(dim))
    np.testing.assert_array_equal(out, np.arange(dim))


@pytest.mark.parametrize("helpers", [0, 1, 3])
def test_merged_runs_cover_the_blocks_without_overlap(helpers: int) -> None:
    kernel = MergingRecorder()
    out = np.full(48, -1, np.int64)
    with ThreadPoolExecutor(max(helpers, 1)) as pool:
        run_all(_launch(kernel, 48), 1024, [out], pool, helpers)
    covered = sorted(kernel.calls)
    assert covered[0][0] == 0 and sum(count for _, count in covered) == 48
    assert all(a + n == b for (a, n), (b, _) in pairwise(covered))
    assert len(covered) == (1 if helpers == 0 else min(48, (helpers + 1) * blocks.RUNS_PER_WORKER))
    np.testing.assert_array_equal(out, np.arange(48))


class LateFailure(Recorder):
    """Block 5 fails only after block 40 has failed on another thread."""

    def __init__(self) -> None:
        super().__init__(fail=(5, 40))
        self.failed_40 = threading.Event()

    def __call__(self, ctx: BlockContext[Any], out: np.ndarray) -> None:
        if ctx.block_idx == 5:
            self.failed_40.wait(5)
        try:
            super().__call__(ctx, out)
        finally:
            if ctx.block_idx == 40:
                self.failed_40.set()


def test_the_failure_raised_is_the_lowest_failing_block_whoever_ran_it() -> None:
    with ThreadPoolExecutor(2) as pool:
        for _ in range(10):
            kernel = LateFailure()
            with pytest.raises(ValueError, match="block 5"):
                run_all(_launch(kernel, 48), 1024, [np.zeros(48, np.int64)], pool, 2)
            assert kernel.failed_40.is_set()  # both failed; the later run's failure came first


def test_a_helper_that_never_starts_is_not_waited_for() -> None:
    """Its pool thread busy elsewhere, the caller runs every block and returns."""
    release = threading.Event()
    kernel = Recorder()
    with ThreadPoolExecutor(1) as pool:
        pool.submit(release.wait, 10)
        run_all(_launch(kernel, 8), 1024, [np.zeros(8, np.int64)], pool, 1)
        assert {thread for _, thread in kernel.ran} == {threading.get_ident()}
        release.set()
    assert len(kernel.ran) == 8  # the late helper ran nothing of a launch that had ended


def _load_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "loadavg"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(("running", "spare"), [(1, 1), (2, 0), (9, 0)])
def test_spare_cores_follow_the_runnable_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, running: int, spare: int
) -> None:
    monkeypatch.setattr(blocks, "LOAD_FILE", _load_file(tmp_path, f"0.50 0.40 0.30 {running}/120 4242\n"))
    cores = HostCores()
    cores.cores = 2
    assert cores.spare() == spare


def test_without_the_figure_the_host_counts_as_idle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blocks, "LOAD_FILE", str(tmp_path / "missing"))
    cores = HostCores()
    cores.cores = 4
    assert cores.spare() == 3
    monkeypatch.setattr(blocks, "LOAD_FILE", _load_file(tmp_path, "garbage\n"))
    cores = HostCores()
    cores.cores = 4
    assert cores.spare() == 3


@pytest.mark.parametrize("spare", [0, 1])
def test_a_busy_host_runs_a_large_kernel_on_the_calling_thread(spare: int) -> None:
    npu = SimulatedNpu(0, block_workers=2)
    npu.spare_cores = lambda: spare
    stream = npu.create_stream()
    size = 4 * 1024 * 1024
    dev = npu.malloc(size, MemPolicy.HUGE_FIRST)
    kernel = Recorder()
    npu.launch(KernelLaunch("recorder", kernel, 16, (BufferArg(dev, size, Access.WRITE),)), stream)
    npu.synchronize_stream(stream)
    assert sorted(block for block, _ in kernel.ran) == list(range(16))
    assert (npu._pool is not None) == bool(spare)
    npu.close()
