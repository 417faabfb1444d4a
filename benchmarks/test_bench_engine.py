"""Op-engine benchmarks: the cached two-phase Add on 16 elements, Add on 16M elements, a first (uncached) call."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.engine.opp import shipped


@dataclass
class AddCase:
    stream: int
    x: object
    y: object
    out: object
    alpha: object
    host: tuple[np.ndarray, np.ndarray, np.ndarray]
    out_ptr: int


def _tensor(arr: np.ndarray) -> tuple[object, int]:
    ptr, ret = acl.rt.malloc(arr.nbytes, 0)
    assert ret == 0
    acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    shape = list(arr.shape)
    return aclnn.aclCreateTensor(shape, len(shape), aclnn.ACL_FLOAT, None, 0, 2, shape, len(shape), ptr), ptr


def _case(n: int) -> Iterator[AddCase]:
    with process.fresh():
        acl.rt.set_device(0)
        stream, _ = acl.rt.create_stream()
        aclnn.aclnnInit(None)
        a, b = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
        o = np.empty_like(a)
        (x, _), (y, _), (out, out_ptr) = _tensor(a), _tensor(b), _tensor(o)
        alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
        yield AddCase(stream, x, y, out, alpha, (a, b, o), out_ptr)


def _two_phase(case: AddCase) -> None:
    ws, executor, _ = aclnn.aclnnAddGetWorkspaceSize(case.x, case.y, case.alpha, case.out)
    aclnn.aclnnAdd(0, ws, executor, case.stream)
    acl.rt.synchronize_stream(case.stream)


@pytest.fixture
def small() -> Iterator[AddCase]:
    yield from _case(16)


@pytest.fixture
def large() -> Iterator[AddCase]:
    yield from _case(16 * 1024 * 1024)


@pytest.mark.benchmark(group="Add 16 fp32 (cached two-phase)")
def test_add_small_cached(benchmark, small: AddCase) -> None:  # type: ignore[no-untyped-def]
    """GetWorkspaceSize (an op-cache hit after the first round) + aclnnAdd + synchronize."""
    _two_phase(small)
    benchmark(_two_phase, small)
    assert process.current().aclnn.op_cache.thread().hits > 0


@pytest.mark.benchmark(group="Add 16 fp32 (cached two-phase)")
def test_add_small_numpy(benchmark, small: AddCase) -> None:  # type: ignore[no-untyped-def]
    a, b, o = small.host
    benchmark(np.add, a, b, out=o)


def _first_calls(benchmark, *, package_kept: bool) -> None:  # type: ignore[no-untyped-def]
    """Each round: a fresh, set-up process (aclnnInit, tensors; untimed), then its first two-phase Add.

    Unless ``package_kept``, the round also starts as a new OS process would: what ``shipped`` keeps
    of the op package for the OS process is dropped first, so the timed call reads and checks Add's
    binary config and kernel JSON and builds its selection keys. Python's module imports (the op
    module included) are not undone: that is the import row's cost.
    """
    cases: list[Iterator[AddCase]] = []

    def setup() -> tuple[tuple[AddCase], dict[str, object]]:
        if not package_kept:
            shipped.forget()
        cases.append(_case(16))
        return (next(cases[-1]),), {}

    def teardown(case: AddCase) -> None:
        assert process.current().aclnn.op_cache.thread().hits == 0  # it was a first call: nothing cached
        for _ in cases.pop():  # leaves the fresh process
            pass

    benchmark.pedantic(_two_phase, setup=setup, teardown=teardown, rounds=20, iterations=1)


@pytest.mark.benchmark(group="Add 16 fp32 (first, uncached)")
def test_add_small_first_call(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The first two-phase call in a fresh, set-up process of a new OS process: binary-config and
    kernel-JSON read, selection keys, TilingParse, tiling, the op cache's first insert."""
    _first_calls(benchmark, package_kept=False)


@pytest.mark.benchmark(group="Add 16 fp32 (first, uncached)")
def test_add_small_first_call_package_kept(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The same, in an OS process that has already read the package (a test suite's later processes)."""
    _first_calls(benchmark, package_kept=True)


@pytest.mark.benchmark(group="Add 16 fp32 (first, uncached)")
def test_add_small_first_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    a, b = np.random.rand(16).astype(np.float32), np.random.rand(16).astype(np.float32)
    o = np.empty_like(a)
    benchmark(np.add, a, b, out=o)


@pytest.mark.benchmark(group="Add 16M fp32")
def test_add_large(benchmark, large: AddCase) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(_two_phase, args=(large,), rounds=5, iterations=1, warmup_rounds=1)
    a, b, o = large.host
    result = np.empty_like(o)
    acl.rt.memcpy(result.ctypes.data, result.nbytes, large.out_ptr, result.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
    assert np.array_equal(result, a + b)


@pytest.mark.benchmark(group="Add 16M fp32")
def test_add_large_numpy(benchmark, large: AddCase) -> None:  # type: ignore[no-untyped-def]
    a, b, o = large.host
    benchmark.pedantic(np.add, args=(a, b), kwargs={"out": o}, rounds=5, iterations=1, warmup_rounds=1)


def _case_with(n: int, **settings: object) -> Iterator[AddCase]:
    from emulator.config import Settings

    with process.fresh(Settings.from_env().model_copy(update=settings)):  # the env's plog path, these overrides
        acl.rt.set_device(0)
        stream, _ = acl.rt.create_stream()
        aclnn.aclnnInit(None)
        a, b = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
        o = np.empty_like(a)
        (x, _), (y, _), (out, out_ptr) = _tensor(a), _tensor(b), _tensor(o)
        alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
        yield AddCase(stream, x, y, out, alpha, (a, b, o), out_ptr)


@pytest.fixture
def untracked() -> Iterator[AddCase]:
    yield from _case_with(16, tracking=False)


@pytest.mark.benchmark(group="dispatch loop: tracking on vs off")
def test_dispatch_tracking_on(benchmark, small: AddCase) -> None:  # type: ignore[no-untyped-def]
    """The cached two-phase loop with the live-resource registry on (the default)."""
    _two_phase(small)
    benchmark(_two_phase, small)


@pytest.mark.benchmark(group="dispatch loop: tracking on vs off")
def test_dispatch_tracking_off_baseline(benchmark, untracked: AddCase) -> None:  # type: ignore[no-untyped-def]
    """Baseline of this group: the same loop with tracking off (OPBASE_EMU_TRACKING=0)."""
    _two_phase(untracked)
    benchmark(_two_phase, untracked)
