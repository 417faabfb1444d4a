"""Stateful property test of the simulated HBM through SimulatedNpu.

Random interleavings of malloc (any policy, 1 B .. 3 MiB), free, double free, interior free and
synchronous H2D / D2H copies of random sub-ranges are checked against an independent model:
rounding, page kind and charge of each allocation, exact used / peak, OOM exactly when no
allowed page kind fits, 507899 for every bad free, and byte-exact contents (fresh memory 0xFF).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from emulator.device.errors import InvalidAddress, OutOfMemory
from emulator.device.interface import Direction, GiB, MiB, PageKind
from emulator.device.simulated.npu import SimulatedNpu
from emulator.device.soc import load_soc

POLICIES = st.one_of(st.integers(0, 7), st.just(99))
# Uniform sizes, plus ones around the 32-byte grain and the 1 MiB huge-page threshold.
SIZES = st.one_of(
    st.integers(1, 3 * MiB),
    st.integers(1, 256),
    st.integers(1 * MiB - 4096 - 64, 1 * MiB + 64),
    st.integers(2 * MiB - 64, 2 * MiB + 64),
)


def expected_allocation(size: int, policy: int, free: int, pad: int) -> tuple[int, PageKind | None, int]:
    """The model: (alloc_size, page kind, charge) per aclrtMalloc's sizing rules; kind None means out of memory."""
    base = policy & 0xFF
    giant = base in (6, 7)
    alloc_size = (size + 31) // 32 * 32 + (0 if giant else pad)
    if giant:
        order = [PageKind.GIANT]
    elif base in (1, 4):
        order = [PageKind.HUGE]
    elif base in (2, 5):
        order = [PageKind.NORMAL]
    elif alloc_size > 1 * MiB:
        order = [PageKind.HUGE, PageKind.NORMAL]
    else:
        order = [PageKind.NORMAL]
    for kind in order:
        charged = -(-alloc_size // kind.page_size) * kind.page_size
        if charged <= free:
            return alloc_size, kind, charged
    return alloc_size, None, 0


class HeapMachine(RuleBasedStateMachine):
    """Device memory stays consistent with the model under any sequence of mallocs, frees and copies."""

    def __init__(self) -> None:
        super().__init__()
        self.npu: SimulatedNpu | None = None
        self.contents: dict[int, np.ndarray] = {}  # live pointer -> expected addressable bytes
        self.charged: dict[int, int] = {}
        self.freed: list[int] = []
        self.max_used = 0

    @initialize(
        capacity=st.sampled_from([24 * MiB, 2 * GiB + 16 * MiB]),
        size=SIZES,
        policy=st.one_of(st.integers(0, 5), st.just(99)),
    )
    def open_device(self, capacity: int, size: int, policy: int) -> None:
        """Start from a device of the given capacity (1 GiB pages available) holding one allocation."""
        soc = load_soc("Ascend910B2").model_copy(update={"memory_size": capacity, "memory_reserved": 0})
        self.npu = SimulatedNpu(0, soc)
        self.malloc(size, policy)

    @property
    def dev(self) -> SimulatedNpu:
        assert self.npu is not None
        return self.npu

    @rule(size=SIZES, policy=POLICIES)
    def malloc(self, size: int, policy: int) -> None:
        """Allocate; the rounding, page kind and charge follow the model, or OOM when nothing fits."""
        heap = self.dev.heap
        free = heap.capacity - heap.used
        alloc_size, kind, charged = expected_allocation(size, policy, free, self.dev.soc.padding_size)
        if kind is None:
            used = heap.used
            try:
                self.dev.malloc(size, policy)
            except OutOfMemory as exc:
                assert exc.status == 207001
                event("out of memory")
            else:
                raise AssertionError(f"malloc({size}, {policy}) with {free} bytes free should be OOM")
            assert heap.used == used
            return
        ptr = self.dev.malloc(size, policy)
        info = self.dev.allocation(ptr)
        assert info is not None
        assert ptr % 64 == 0
        assert (info.size, info.alloc_size, info.page_kind, info.charged) == (size, alloc_size, kind, charged)
        assert ptr not in self.contents and ptr not in self.freed
        self.contents[ptr] = np.full(alloc_size, 0xFF, dtype=np.uint8)
        self.charged[ptr] = charged
        self.max_used = max(self.max_used, heap.used)
        event(f"{kind.name} pages")

    @precondition(lambda self: self.contents)
    @rule(data=st.data())
    def free_live(self, data: st.DataObject) -> None:
        """Freeing a live pointer returns its charge."""
        ptr = data.draw(st.sampled_from(sorted(self.contents)))
        info = self.dev.free(ptr)
        assert info.addr == ptr
        assert info.charged == self.charged.pop(ptr)
        del self.contents[ptr]
        self.freed.append(ptr)
        assert self.dev.allocation(ptr) is None

    @precondition(lambda self: self.freed)
    @rule(data=st.data())
    def free_again(self, data: st.DataObject) -> None:
        """Freeing an already-freed pointer fails with 507899 every time and changes nothing."""
        ptr = data.draw(st.sampled_from(self.freed))
        used = self.dev.heap.used
        try:
            self.dev.free(ptr)
        except InvalidAddress as exc:
            assert exc.status == 507899
            assert f"{ptr:#x}" in exc.message
        else:
            raise AssertionError(f"double free of {ptr:#x} was accepted")
        assert self.dev.heap.used == used

    @precondition(lambda self: self.contents)
    @rule(data=st.data())
    def free_interior(self, data: st.DataObject) -> None:
        """Freeing a pointer inside a live allocation fails with 507899 and keeps the allocation."""
        ptr = data.draw(st.sampled_from(sorted(self.contents)))
        offset = data.draw(st.integers(1, len(self.contents[ptr]) - 1))
        try:
            self.dev.free(ptr + offset)
        except InvalidAddress as exc:
            assert exc.status == 507899
        else:
            raise AssertionError(f"interior free of {ptr + offset:#x} was accepted")
        assert self.dev.allocation(ptr) is not None

    @precondition(lambda self: self.contents)
    @rule(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def write(self, data: st.DataObject, seed: int) -> None:
        """A synchronous H2D copy of random bytes into a random sub-range."""
        ptr = data.draw(st.sampled_from(sorted(self.contents)))
        model = self.contents[ptr]
        offset = data.draw(st.integers(0, len(model) - 1))
        length = data.draw(st.integers(1, len(model) - offset))
        host = np.random.default_rng(seed).integers(0, 256, length, dtype=np.uint8)
        self.dev.copy(ptr + offset, host.ctypes.data, length, Direction.H2D, None)
        model[offset : offset + length] = host

    @precondition(lambda self: self.contents)
    @rule(data=st.data())
    def read(self, data: st.DataObject) -> None:
        """A synchronous D2H copy of a random sub-range returns exactly what the model holds."""
        ptr = data.draw(st.sampled_from(sorted(self.contents)))
        model = self.contents[ptr]
        offset = data.draw(st.integers(0, len(model) - 1))
        length = data.draw(st.integers(1, len(model) - offset))
        out = np.zeros(length, dtype=np.uint8)
        self.dev.copy(out.ctypes.data, ptr + offset, length, Direction.D2H, None)
        np.testing.assert_array_equal(out, model[offset : offset + length])

    @invariant()
    def accounting_is_exact(self) -> None:
        """used is the sum of live charges, peak the high-water mark, and free the rest of capacity."""
        if self.npu is None:
            return
        heap = self.npu.heap
        live = self.npu.live_allocations()
        assert heap.used == sum(info.charged for info in live)
        assert heap.used == sum(self.charged.values())
        assert {info.addr for info in live} == set(self.contents)
        assert heap.peak >= heap.used
        assert heap.peak == self.max_used
        assert self.npu.mem_info().free == heap.capacity - heap.used
        assert self.npu.races == []


HeapMachine.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestHeapMachine = HeapMachine.TestCase
