"""Eight compute threads and two churn threads on one emulated process: results, statuses, accounting.

Each compute thread owns a stream and runs two-phase aclnnAdd / aclnnMul / aclnnCast over its own
buffers, with a repeatable Add executor reused every round and every other round's phase 2 run on a
shared pool thread (not the thread that ran phase 1), which then also waits for the round's work
through an event the compute thread recorded. Every output is checked against numpy, every
status against 0, and each thread's own deliberate bad call against its own aclGetRecentErrMsg
text (a message must never leak to, or be lost by, another thread). Two churn threads meanwhile
allocate and free device and pinned memory, create and destroy streams and events, synchronise
the whole context, and open and reset devices 1..7. At the end every count (registry, HBM free,
pinned bytes, live allocations, races) is back to the baseline taken before the threads started.
"""

from __future__ import annotations

import ctypes
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.device.simulated.npu import SimulatedNpu
from emulator.tracking import ResourceKind

COMPUTE_THREADS = 8
CHURN_THREADS = 2
N = 256  # elements per tensor
NBYTES = N * 4
ACL_HBM_MEM = 1
H2D, D2H = 1, 2
SHORT_S = 2.0
LONG_S = 60.0


@dataclass
class Tally:
    """What the threads did and what went wrong, per thread name."""

    calls: int = 0
    rounds: int = 0
    wrong: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, calls: int, rounds: int = 0) -> None:
        with self.lock:
            self.calls += calls
            self.rounds += rounds

    def fail(self, text: str) -> None:
        with self.lock:
            self.wrong.append(f"{threading.current_thread().name}: {text}")


def ok(tally: Tally, what: str, ret: int) -> None:
    tally.add(1)
    if ret != 0:
        tally.fail(f"{what} returned {ret}: {acl.get_recent_err_msg()}")


def tensor(addr: int, dtype: int) -> aclnn.aclTensor:
    t = aclnn.aclCreateTensor([N], 1, dtype, None, 0, aclnn.ACL_FORMAT_ND, [N], 1, addr)
    assert t is not None
    return t


def compute(index: int, ctx: int, pool: ThreadPoolExecutor, deadline: float, tally: Tally) -> None:
    """One compute thread: its own stream and buffers, rounds until the deadline (at least two)."""
    ok(tally, "set_context", acl.rt.set_context(ctx))
    stream, ret = acl.rt.create_stream()
    ok(tally, "create_stream", ret)
    event, ret = acl.rt.create_event()
    ok(tally, "create_event", ret)
    devs = []
    for _ in range(5):  # x, y, add, mul, cast
        dev, ret = acl.rt.malloc(NBYTES, 0)
        ok(tally, "malloc", ret)
        devs.append(dev)
    pinned, ret = acl.rt.malloc_host(NBYTES)
    ok(tally, "malloc_host", ret)
    x_t, y_t, add_t, mul_t = (tensor(d, aclnn.ACL_FLOAT) for d in devs[:4])
    cast_t = tensor(devs[4], aclnn.ACL_FLOAT16)
    alpha_value = 0.5 + index
    alpha = aclnn.aclCreateScalar(alpha_value, aclnn.ACL_FLOAT)
    ws, add_exec, ret = aclnn.aclnnAddGetWorkspaceSize(x_t, y_t, alpha, add_t)
    ok(tally, "aclnnAddGetWorkspaceSize", ret)
    ok(tally, "aclSetAclOpExecutorRepeatable", aclnn.aclSetAclOpExecutorRepeatable(add_exec))
    rng = np.random.default_rng(index)

    def phase2(run: Callable[[], int]) -> int:
        """Phase 2 on a pool thread, bound to the same context (a thread has none of its own)."""

        def on_pool() -> int:
            ret = acl.rt.set_context(ctx)
            return ret if ret != 0 else run()

        return pool.submit(on_pool).result()

    rounds = 0
    while rounds < 2 or time.monotonic() < deadline:
        x = rng.uniform(-4, 4, N).astype(np.float32)
        y = rng.uniform(-4, 4, N).astype(np.float32)
        ctypes.memmove(pinned, y.ctypes.data, NBYTES)
        ok(tally, "memcpy x", acl.rt.memcpy(devs[0], NBYTES, x.ctypes.data, NBYTES, H2D))
        ok(tally, "memcpy_async y", acl.rt.memcpy_async(devs[1], NBYTES, pinned, NBYTES, H2D, stream))
        elsewhere = rounds % 2 == 1
        add_run = partial(aclnn.aclnnAdd, 0, ws, add_exec, stream)
        ok(tally, "aclnnAdd", phase2(add_run) if elsewhere else add_run())
        mws, mul_exec, ret = aclnn.aclnnMulGetWorkspaceSize(x_t, y_t, mul_t)
        ok(tally, "aclnnMulGetWorkspaceSize", ret)
        mul_run = partial(aclnn.aclnnMul, 0, mws, mul_exec, stream)
        ok(tally, "aclnnMul", mul_run() if elsewhere else phase2(mul_run))
        cws, cast_exec, ret = aclnn.aclnnCastGetWorkspaceSize(add_t, aclnn.ACL_FLOAT16, cast_t)
        ok(tally, "aclnnCastGetWorkspaceSize", ret)
        ok(tally, "aclnnCast", phase2(partial(aclnn.aclnnCast, 0, cws, cast_exec, stream)))
        if elsewhere:  # the pool thread waits for the round's work through an event recorded here
            ok(tally, "record_event", acl.rt.record_event(event, stream))
            ok(tally, "synchronize_event", phase2(partial(acl.rt.synchronize_event, event)))
        else:
            ok(tally, "synchronize_stream", acl.rt.synchronize_stream(stream))
        got = [np.empty(N, np.float32), np.empty(N, np.float32), np.empty(N, np.float16)]
        for out, dev in zip(got, devs[2:], strict=True):
            ok(tally, "memcpy D2H", acl.rt.memcpy(out.ctypes.data, out.nbytes, dev, out.nbytes, D2H))
        want_add = x + np.float32(alpha_value) * y
        for name, have, want in (
            ("add", got[0], want_add),
            ("mul", got[1], x * y),
            ("cast", got[2], want_add.astype(np.float16)),
        ):
            if not np.allclose(have.astype(np.float64), want.astype(np.float64), rtol=1e-3, atol=1e-3):
                tally.fail(f"round {rounds}: {name} is wrong")
        bad_count = NBYTES + 16 + index  # this thread's own bad value: its message must name it
        ret = acl.rt.memset(devs[0], NBYTES, 0, bad_count)
        message = acl.get_recent_err_msg()
        if ret != 107000 or message is None or f"value {bad_count} for parameter count" not in message:
            tally.fail(f"round {rounds}: bad memset gave {ret} / {message!r}")
        if acl.get_recent_err_msg() is not None:  # read once, then cleared
            tally.fail("the recent error message was not cleared by reading it")
        rounds += 1
        tally.add(3, 1)  # the bad memset and the two message reads; ok() counted the rest
    ok(tally, "aclDestroyAclOpExecutor", aclnn.aclDestroyAclOpExecutor(add_exec))
    for obj in (x_t, y_t, add_t, mul_t, cast_t):
        ok(tally, "aclDestroyTensor", aclnn.aclDestroyTensor(obj))
    ok(tally, "aclDestroyScalar", aclnn.aclDestroyScalar(alpha))
    for dev in devs:
        ok(tally, "free", acl.rt.free(dev))
    ok(tally, "free_host", acl.rt.free_host(pinned))
    ok(tally, "destroy_event", acl.rt.destroy_event(event))
    ok(tally, "destroy_stream", acl.rt.destroy_stream(stream))


def churn(index: int, ctx: int, done: threading.Event, tally: Tally) -> None:
    """Allocate, free, create and destroy while the compute threads run; open and reset other devices."""
    ok(tally, "set_context", acl.rt.set_context(ctx))
    rng = random.Random(index)
    while not done.is_set():
        dev, ret = acl.rt.malloc(rng.choice((32, 4096, 3 << 20)), rng.choice((0, 2)))
        ok(tally, "malloc", ret)
        host, ret = acl.rt.malloc_host(rng.choice((64, 8192)))
        ok(tally, "malloc_host", ret)
        stream, ret = acl.rt.create_stream()
        ok(tally, "create_stream", ret)
        event, ret = acl.rt.create_event()
        ok(tally, "create_event", ret)
        ok(tally, "memcpy_async", acl.rt.memcpy_async(dev, 32, host, 32, H2D, stream))
        ok(tally, "record_event", acl.rt.record_event(event, stream))
        ok(tally, "synchronize_device", acl.rt.synchronize_device())
        ok(tally, "destroy_event", acl.rt.destroy_event(event))
        ok(tally, "destroy_stream", acl.rt.destroy_stream(stream))
        ok(tally, "free_host", acl.rt.free_host(host))
        ok(tally, "free", acl.rt.free(dev))
        other = 1 + rng.randrange(7)
        ok(tally, "set_device", acl.rt.set_device(other))
        ok(tally, "reset_device", acl.rt.reset_device(other))
        ok(tally, "set_context", acl.rt.set_context(ctx))


def run_stress(seconds: float) -> Tally:
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    assert aclnn.aclnnInit(None) == 0
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    emu = process.current()
    device = emu.runtime.opened_devices()[0]
    free_before, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    assert ret == 0
    registry_before = emu.registry.live()
    tally = Tally()
    done = threading.Event()
    deadline = time.monotonic() + seconds
    with ThreadPoolExecutor(2, thread_name_prefix="phase2") as pool:
        workers = [
            threading.Thread(target=_guard(tally, compute, i, ctx, pool, deadline, tally), name=f"compute{i}")
            for i in range(COMPUTE_THREADS)
        ]
        churners = [
            threading.Thread(target=_guard(tally, churn, i, ctx, done, tally), name=f"churn{i}")
            for i in range(CHURN_THREADS)
        ]
        for thread in workers + churners:
            thread.start()
        for thread in workers:
            thread.join()
        done.set()
        for thread in churners:
            thread.join()
    assert tally.wrong == []
    assert acl.rt.synchronize_device() == 0
    free_after, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    assert ret == 0
    assert free_after == free_before
    # loaded kernel binaries (tiling parses) stay until aclnnFinalize; everything the threads made is gone
    assert [r for r in emu.registry.live() if r.kind is not ResourceKind.TILING_PARSE] == registry_before
    assert device.live_allocations() == []
    assert isinstance(device, SimulatedNpu) and device.host.live() == {}  # pinned bytes all returned
    assert device.races == []
    assert aclnn.aclnnFinalize() == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0
    assert emu.registry.count() == 0
    return tally


def _guard(tally: Tally, target: Callable[..., None], *args: object) -> Callable[[], None]:
    """A thread body that records an escaped exception as a wrong result instead of losing it."""

    def body() -> None:
        try:
            target(*args)
        except BaseException as exc:  # every escape is a failure to report
            tally.fail(f"{type(exc).__name__}: {exc}")

    return body


def test_stress_short() -> None:
    """A few seconds: every round's results right, every status 0, accounting back to baseline."""
    tally = run_stress(SHORT_S)
    assert tally.rounds >= COMPUTE_THREADS * 2
    print(f"stress: {COMPUTE_THREADS}+{CHURN_THREADS} threads, {tally.calls} calls, {tally.rounds} rounds, 0 wrong")


@pytest.mark.slow
def test_stress_long() -> None:
    tally = run_stress(LONG_S)
    assert tally.rounds >= COMPUTE_THREADS * 20
    print(f"stress: {COMPUTE_THREADS}+{CHURN_THREADS} threads, {tally.calls} calls, {tally.rounds} rounds, 0 wrong")
