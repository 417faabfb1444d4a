"""aclrtMalloc / aclrtFree through the pyACL face, against the reference allocator (heap_reference.py).

The face, runtime, device and heap of the allocator path were flattened in issue 16. Random
sequences of mallocs (valid, zero, negative and overflowing sizes; every policy, hint bits, 1 GiB
pages on a SoC without them; out of memory) and frees (live, double, interior, null, never
allocated) must give, with tracking on and off: the statuses and pointers the reference predicts,
the heap's sentence in aclGetRecentErrMsg for every bad free, aclrtGetMemInfo's free bytes, and —
with tracking on — one registry entry per live allocation with its size, charge, tag and the
line that allocated it, which is where the leak report says it was created.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from heap_reference import ReferenceHeap
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, process
from emulator.config import Settings
from emulator.device.errors import DeviceError
from emulator.device.interface import MiB
from emulator.device.simulated.heap import DEVICE_BASE
from emulator.leaks import leak_report
from emulator.status import AclError
from emulator.tracking import ResourceKind

SIZE_MAX = (1 << 64) - 1
LIMIT = 48 * MiB  # OPBASE_EMU_HBM_LIMIT: out of memory within a few steps
SIZES = st.one_of(
    st.integers(1, 3 * MiB),
    st.integers(1, 300),
    st.integers(MiB - 64, MiB + 64),
    st.sampled_from([0, -1, SIZE_MAX - 64, SIZE_MAX - 32, SIZE_MAX - 31, SIZE_MAX, 40 * MiB]),
)
POLICIES = st.one_of(st.integers(0, 7), st.sampled_from([0x42, 0x100, 0x102, 0x106]))
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("malloc"), SIZES, POLICIES),
        st.tuples(st.just("free"), st.sampled_from(["live", "freed", "interior", "null", "never"]), st.integers(0, 99)),
    ),
    min_size=1,
    max_size=40,
)
MALLOC_LINE = 0  # set below: the line of the acl.rt.malloc call in run()
HERE = str(Path(__file__).resolve())
NEVER = DEVICE_BASE + (1 << 39)  # device 0's window, far past anything a sequence allocates


def message_text() -> str:
    """The recent error message without its [PID] / timestamp stamps (which differ run to run)."""
    return re.sub(r"\[PID: \d+\] \S+ ", "", acl.get_recent_err_msg() or "")


def run(ops: list[tuple[str, int, int]], tracking: bool) -> list[tuple[object, ...]]:
    """The sequence in a fresh process; each step's observable answer, checked against the reference."""
    answers: list[tuple[object, ...]] = []
    with process.fresh(Settings(tracking=tracking, hbm_limit=LIMIT)) as proc:
        assert acl.rt.set_device(0) == 0
        device = proc.runtime.current_device()
        soc = device.soc
        ref = ReferenceHeap(capacity=min(soc.hbm_total, LIMIT), padding=soc.padding_size, huge1g=soc.huge1g_pages)
        live: list[int] = []
        freed: list[int] = []
        for op, a, b in ops:
            if op == "malloc":
                ptr, ret = acl.rt.malloc(a, b)
                if ret == AclError.ACL_SUCCESS:
                    info = ref.allocate(a, b, padded=True, tag="user")
                    assert ptr == info.addr
                    live.append(ptr)
                else:
                    assert ptr == 0
                    valid = 0 < a <= SIZE_MAX - 32 - soc.padding_size
                    if valid:  # the reference fails the same way (1 GiB pages, out of memory)
                        try:
                            ref.allocate(a, b, padded=True, tag="user")
                        except DeviceError as exc:  # the device's error: its status is the face's
                            assert ret == exc.status
                        else:
                            raise AssertionError(f"malloc({a}, {b}) failed with {ret}, the reference allocated")
                answers.append(("malloc", ptr, int(ret), message_text() if ret else None))
                continue
            if a == "live" and live:
                ptr = live.pop(b % len(live))
                assert acl.rt.free(ptr) == 0
                ref.release(ptr)
                freed.append(ptr)
                answers.append(("free", ptr, 0))
                continue
            ptr = {
                "freed": freed[b % len(freed)] if freed else NEVER + 64 * b,
                "interior": live[b % len(live)] + 8 * (b + 1) if live else 0x1234_5000,  # inside its first page
                "null": 0,
            }.get(a, NEVER + 3 * MiB * b)
            ret = acl.rt.free(ptr)
            if ptr == 0:
                assert ret == AclError.ACL_ERROR_INVALID_PARAM
            elif device.classify(ptr).name == "DEVICE":
                assert ret == 507899
                assert message_text().endswith(ref.describe(ptr, 0, "free"))
            answers.append(("free", ptr, int(ret), message_text()))
        free, total, ret = acl.rt.get_mem_info(1)
        assert ret == 0 and (free, total) == (ref.capacity - ref.used, ref.capacity)
        assert [i.addr for i in device.live_allocations()] == list(ref.live)
        if tracking:
            memory = proc.registry.live(ResourceKind.DEVICE_MEMORY)
            assert [(r.key, r.size, r.device, r.tag, r.detail) for r in memory] == [
                (i.addr, i.size, 0, "user", {"charged": i.charged}) for i in ref.live.values()
            ]
            for res in memory:
                top = res.site.top
                assert top is not None and (top.file, top.line) == (HERE, MALLOC_LINE)
            report = leak_report(proc).render()
            for addr in ref.live:
                assert f"at {addr:#x} [user], created at:\n    #0 {HERE}:{MALLOC_LINE} in run" in report
        else:
            assert proc.registry.live() == []
        answers.append(("mem_info", free, total))
    return answers


MALLOC_LINE = next(
    i for i, line in enumerate(inspect.getsource(run).splitlines(), inspect.getsourcelines(run)[1])
    if "acl.rt.malloc(a, b)" in line
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_random_malloc_free_sequences_match_the_reference_with_tracking_on_and_off(
    ops: list[tuple[str, int, int]],
) -> None:
    """Same pointers, statuses, messages and memory info as the reference, and the same with tracking off."""
    assert run(ops, tracking=True) == run(ops, tracking=False)


def test_malloc_of_every_size_check_fails_as_before() -> None:
    """The inline size check of aclrtMalloc passes exactly what allocate() passes; the rest get its errors."""
    with process.fresh():
        assert acl.rt.set_device(0) == 0
        pad = process.current().runtime.soc.padding_size
        for size in (0, -1, -(2**40), SIZE_MAX - 32 - pad + 1, SIZE_MAX, 2**70):
            assert acl.rt.malloc(size, 0) == (0, AclError.ACL_ERROR_INVALID_PARAM)
            assert "aclMallocMemInner failed because value" in message_text()
        assert acl.rt.malloc_cached(0, 0) == (0, AclError.ACL_ERROR_INVALID_PARAM)
        ptr, ret = acl.rt.malloc(SIZE_MAX - 32 - pad, 0)  # passes the size check, then out of memory
        assert (ptr, ret) == (0, 207001)
