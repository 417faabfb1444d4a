"""Running the SPMD blocks of one kernel launch on the host: serially, or shared out over threads.

A block's ``BlockContext`` is made only when that block is run by itself; a kernel that merges
blocks (``block_runner``) gets the first context of a run and nothing more, so a launch of 48
blocks does not build 48 contexts it never hands out.

With a pool, the blocks are cut into a few contiguous runs that the calling thread and the pool's
workers take in order, whoever asks first. numpy releases the GIL in its loops, so runs overlap on
the host's cores; and because nobody waits for a run no one has started, a helper that has not
started yet costs the launch nothing: the caller takes its runs. Helpers join only while the host
has a core to spare (``HostCores``): one that is preempted in the middle of its run makes the
caller wait a scheduler time slice. Which thread
computes which run cannot change a value, since a kernel's ``run_blocks`` gives the same bytes
however its blocks are cut (tests/unit/test_block_runs.py).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..interface import BlockContext, KernelAttrs, KernelLaunch, block_runner

RUNS_PER_WORKER = 2  # runs per thread: enough for the caller to take a late worker's share, few Python calls
LOAD_FILE = "/proc/loadavg"  # its fourth field: threads runnable now / threads in all
LOAD_MAX_AGE_S = 0.02  # a reading serves the launches of the next 20 ms (one costs ~10 us)


class HostCores:
    """How many threads besides the caller's the host's cores have room for right now.

    A helper thread that finds no free core does not merely fail to help: when the caller needs a run
    the helper holds (or the GIL it holds) while the scheduler gives the core to another process, the
    launch waits a whole time slice. On the 2-core development machine with other jobs running, two
    threads made a 2 ms Sub take 6 ms, where on an idle host they make Exp 1.4x faster. So the pool
    is used only while the count of runnable threads on the host leaves a core free. That count is
    read from the kernel's instantaneous figure, not the load average: the average would count this
    process's own helpers and switch them off again."""

    __slots__ = ("_at", "_spare", "cores")

    def __init__(self) -> None:
        getaffinity = getattr(os, "sched_getaffinity", None)
        self.cores = len(getaffinity(0)) if getaffinity is not None else (os.cpu_count() or 1)
        self._at = -1.0
        self._spare = 0

    def spare(self) -> int:
        now = time.monotonic()
        if now - self._at >= LOAD_MAX_AGE_S:
            self._at = now
            self._spare = max(self.cores - _runnable(), 0)
        return self._spare


def _runnable() -> int:
    """Threads runnable on the host now, the caller's included (just it, where the kernel does not say)."""
    try:
        fd = os.open(LOAD_FILE, os.O_RDONLY)
        try:
            fields = os.read(fd, 256).split()
        finally:
            os.close(fd)
        return int(fields[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        return 1


HOST_CORES = HostCores()


class Blocks:
    """The blocks of one launch."""

    __slots__ = ("kernel", "runner", "ub_size")

    def __init__(self, kernel: KernelLaunch, ub_size: int) -> None:
        self.kernel = kernel
        self.ub_size = ub_size
        self.runner = block_runner(kernel.func)

    def context(self, block: int) -> BlockContext[KernelAttrs]:
        k = self.kernel
        return BlockContext(block, k.block_dim, k.tiling, self.ub_size, k.attrs, k.printf)

    def run(self, lo: int, hi: int, views: list[np.ndarray]) -> None:
        """Blocks [lo, hi): in one call when the kernel can merge them, else one by one."""
        if hi <= lo:
            return
        if self.runner is not None:
            self.runner(self.context(lo), hi - lo, *views)
            return
        func = self.kernel.func
        for block in range(lo, hi):
            func(self.context(block), *views)


class _Runs:
    """Contiguous runs of blocks handed out in order; the first failure stops the handing out.

    The caller waits for the runs that were taken, not for the helper threads: a helper that gets a
    core only after every run was handed out finds nothing to do and is not waited for (on a busy
    host that wait was a scheduler time slice, several milliseconds)."""

    __slots__ = ("blocks", "done", "edges", "failures", "finished", "next", "stopped", "views")

    def __init__(self, blocks: Blocks, count: int, views: list[np.ndarray]) -> None:
        dim = blocks.kernel.block_dim
        self.blocks, self.views = blocks, views
        self.edges = [r * dim // count for r in range(count + 1)]
        self.next = 0  # runs handed out
        self.finished = 0  # runs ended, well or not
        self.stopped = False
        self.failures: dict[int, BaseException] = {}
        self.done = threading.Condition(threading.Lock())

    def _take(self) -> int | None:
        with self.done:
            if self.stopped or self.next >= len(self.edges) - 1:
                return None
            self.next += 1
            return self.next - 1

    def work(self) -> None:
        """Run runs until none is left (or one failed anywhere)."""
        while (index := self._take()) is not None:
            failure: BaseException | None = None
            try:
                self.blocks.run(self.edges[index], self.edges[index + 1], self.views)
            except BaseException as exc:  # an interrupt too: kept for the caller, which raises it
                failure = exc
            with self.done:
                if failure is not None:
                    self.failures[index] = failure
                    self.stopped = True
                self.finished += 1
                self.done.notify_all()
            if failure is not None:
                return

    def stop_and_wait(self) -> None:
        """Hand out nothing more; return when every run handed out has ended."""
        with self.done:
            self.stopped = True
            while self.finished < self.next:
                self.done.wait()

    def first_failure(self) -> BaseException | None:
        """The failure of the lowest-numbered run that failed: every lower run had been taken before
        it and ran to its end, so this is the same failure whichever thread got there first."""
        return self.failures[min(self.failures)] if self.failures else None


def run_all(
    kernel: KernelLaunch,
    ub_size: int,
    views: list[np.ndarray],
    pool: ThreadPoolExecutor | None = None,
    helpers: int = 0,
) -> None:
    """Every block of ``kernel``: on the calling thread alone, or with ``helpers`` threads of ``pool``.

    Whatever fails or interrupts, no block is still running when this returns or raises."""
    blocks = Blocks(kernel, ub_size)
    if pool is None or helpers < 1:
        blocks.run(0, kernel.block_dim, views)
        return
    runs = _Runs(blocks, min(kernel.block_dim, (helpers + 1) * RUNS_PER_WORKER), views)
    for _ in range(helpers):
        pool.submit(runs.work)
    try:
        runs.work()
    finally:  # an interrupt while waiting too: the runs already handed out end first
        runs.stop_and_wait()
    failure = runs.first_failure()
    if failure is not None:
        raise failure
