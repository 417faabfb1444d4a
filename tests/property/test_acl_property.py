"""Property: random malloc / free / memcpy sequences through the pyACL face never raise and keep exact books.

Each example runs in its own emulated process. Sizes, policies, kinds and pointers are drawn
from valid and invalid ranges; every call must return a status (pyACL raises no exception for a
runtime failure), a double free is always 507899, the statuses of memcpy follow the runtime's
check order for copies, copied bytes match a shadow model, and after every step the heap's
``used`` equals the sum of the live allocations' page charges.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, process
from emulator.device.simulated.npu import SimulatedNpu

KiB = 1024
MiB = 1024 * KiB
HOST_BYTES = 4096
MAX_OFFSET = 64
SIZE_MAX = (1 << 64) - 1
PAD = 32  # padding_size of the default Ascend910B2
HUGE1G_POLICIES = (6, 7)

sizes = st.one_of(
    st.integers(1, 8 * KiB),
    st.integers(1, 3 * MiB),
    st.sampled_from([0, -1, -(2**40), 2**62, 2**64, 2**70]),
)
policies = st.one_of(st.integers(0, 7), st.sampled_from([0x100, 0x1000, 0x100000, 0x99, -1, 2**32]))
ends = st.tuples(
    st.sampled_from(["dev", "dev", "dev", "host", "host", "freed", "null"]), st.integers(0, 1000), st.integers(0, 64)
)

malloc_op = st.tuples(st.just("malloc"), sizes, policies, st.booleans())
free_op = st.tuples(
    st.just("free"),
    st.sampled_from(["live", "live", "freed", "null", "random"]),
    st.integers(0, 1000),
    st.integers(-(2**63), 2**64 - 1),
)
memcpy_op = st.tuples(
    st.just("memcpy"),
    ends,
    ends,
    st.one_of(st.integers(0, HOST_BYTES - MAX_OFFSET), st.integers(0, 128)),
    st.one_of(st.integers(0, 16), st.integers(-16, 16), st.just(None)),
    st.one_of(st.integers(0, 5), st.integers(0, 5), st.integers(-2, 9)),
)
operations = st.lists(st.one_of(malloc_op, free_op, memcpy_op), min_size=1, max_size=30)


@dataclass
class Buffer:
    """What the test knows about some bytes: their address, size, and a shadow with a known-mask."""

    addr: int
    size: int
    data: np.ndarray
    known: np.ndarray


@dataclass
class Model:
    live: dict[int, Buffer] = field(default_factory=dict)  # device address -> shadow
    freed: list[int] = field(default_factory=list)
    hosts: list[tuple[np.ndarray, Buffer]] = field(default_factory=list)

    def pick(self, end: tuple[str, int, int]) -> tuple[int, Buffer | None, bool]:
        """(address, shadow or None, is-device) for a drawn copy end."""
        kind, index, offset = end
        if kind == "dev" and self.live:
            buf = list(self.live.values())[index % len(self.live)]
            return buf.addr + offset, buf, True
        if kind == "freed" and self.freed:
            return self.freed[index % len(self.freed)] + offset, None, True
        if kind == "null":
            return 0, None, False
        _, buf = self.hosts[index % len(self.hosts)]
        return buf.addr + offset, buf, False


def _status(result: object) -> int:
    ret = result[-1] if isinstance(result, tuple) else result
    assert isinstance(ret, int)
    return ret


def _run_malloc(model: Model, device: SimulatedNpu, size: int, policy: int, align32: bool) -> None:
    result = (acl.rt.malloc_align32 if align32 else acl.rt.malloc)(size, policy)
    ptr, ret = result
    if size <= 0 or size + 64 > SIZE_MAX:
        assert ret == 100000
    assert ret in (0, 100000, 207000, 207001)
    if ret != 0:
        assert ptr == 0
        return
    assert ptr != 0
    assert ptr % 64 == 0
    assert ptr not in model.live
    padded = not align32 and policy & 0xFF not in HUGE1G_POLICIES  # no pad for these
    alloc_size = (size + 31) // 32 * 32 + (PAD if padded else 0)
    info = device.allocation(ptr)
    assert info is not None
    assert info.alloc_size == alloc_size
    model.live[ptr] = Buffer(ptr, alloc_size, np.zeros(alloc_size, np.uint8), np.zeros(alloc_size, bool))


def _run_free(model: Model, which: str, index: int, random_ptr: int) -> None:
    if which == "live" and model.live:
        ptr = list(model.live)[index % len(model.live)]
    elif which == "freed" and model.freed:
        ptr = model.freed[index % len(model.freed)]
    elif which == "null":
        ptr = 0
    else:
        ptr = random_ptr
    ret = _status(acl.rt.free(ptr))
    if ptr == 0:
        assert ret == 100000
    elif ptr in model.live:
        assert ret == 0
        del model.live[ptr]
        model.freed.append(ptr)
    else:
        assert ret == 507899, f"free({ptr:#x}) of a pointer that is not live returned {ret}"


def _run_memcpy(
    model: Model,
    dst_end: tuple[str, int, int],
    src_end: tuple[str, int, int],
    count: int,
    delta: int | None,
    kind: int,
) -> None:
    dst, dst_buf, dst_dev = model.pick(dst_end)
    src, src_buf, src_dev = model.pick(src_end)
    if not dst_dev and dst_buf is not None:  # never let a host copy run past the numpy array
        count = min(count, dst_buf.addr + dst_buf.size - dst)
    if not src_dev and src_buf is not None:
        count = min(count, src_buf.addr + src_buf.size - src)
    dest_max = 0 if delta is None else max(count + delta, 0)
    ret = _status(acl.rt.memcpy(dst, dest_max, src, count, kind))

    def fits(addr: int, buf: Buffer | None, on_device: bool) -> bool:
        if not on_device:
            return True
        return buf is not None and addr + count <= buf.addr + buf.size

    if count == 0:
        expected = 0
    elif dst == 0 or src == 0 or not 0 <= kind <= 5:
        expected = 100000
    elif dest_max == 0 or count > dest_max:
        expected = 107000
    elif dst == src:
        expected = 0
    elif not (fits(dst, dst_buf, dst_dev) and fits(src, src_buf, src_dev)):
        expected = 107000
    else:
        expected = 0
        assert dst_buf is not None and src_buf is not None
        d0, s0 = dst - dst_buf.addr, src - src_buf.addr
        dst_buf.data[d0 : d0 + count] = src_buf.data[s0 : s0 + count].copy()
        dst_buf.known[d0 : d0 + count] = src_buf.known[s0 : s0 + count].copy()
    assert ret == expected, f"memcpy({dst:#x}, {dest_max}, {src:#x}, {count}, {kind}) returned {ret}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations, seed=st.integers(0, 2**32 - 1))
def test_random_memory_sequences_keep_exact_books(ops: list[tuple], seed: int) -> None:
    """Random malloc/free/memcpy sequences never raise, never accept a double free, and keep used == sum(charged)."""
    rng = np.random.default_rng(seed)
    with process.fresh() as proc:
        assert acl.rt.set_device(0) == 0
        device = proc.runtime.current_device()
        assert isinstance(device, SimulatedNpu)
        model = Model()
        for _ in range(2):
            arr = rng.integers(0, 256, HOST_BYTES, dtype=np.uint8)
            model.hosts.append((arr, Buffer(arr.ctypes.data, HOST_BYTES, arr.copy(), np.ones(HOST_BYTES, bool))))
        for op in ops:
            if op[0] == "malloc":
                _run_malloc(model, device, *op[1:])
            elif op[0] == "free":
                _run_free(model, *op[1:])
            else:
                _run_memcpy(model, *op[1:])
            live = device.live_allocations()
            assert device.heap.used == sum(info.charged for info in live)
            assert {info.addr for info in live} == set(model.live)
            for arr, shadow in model.hosts:
                np.testing.assert_array_equal(arr[shadow.known], shadow.data[shadow.known])
        for ptr in list(model.live):
            assert acl.rt.free(ptr) == 0
        assert device.heap.used == 0
        assert proc.registry.count("device_memory") == 0
