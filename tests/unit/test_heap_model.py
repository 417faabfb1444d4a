"""The heap's one-pass allocator and O(1) release against the path they replaced (heap_reference.py).

Random sequences of mallocs (every policy, hint bits, sizes around the 32-byte
grain and the 1 MiB threshold, OOM), frees, double and interior frees and address probes must give
the same addresses, allocation records, used / peak, live list, lookups and error messages.
"""

from __future__ import annotations

import random

import pytest
from heap_reference import ReferenceHeap, outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from emulator.device import memory_rules
from emulator.device.interface import AllocationInfo, MemInfo, MemPolicy, MiB, PageKind
from emulator.device.simulated.heap import DEVICE_BASE, STALE_SLACK, Heap

POLICIES = st.one_of(st.integers(0, 7), st.sampled_from([0x42, 0xFF, 0x100, 0x102, 0x106, 0x10003]))
SIZES = st.one_of(
    st.integers(1, 3 * MiB),
    st.integers(1, 300),
    st.integers(MiB - 96, MiB + 96),
    st.integers(2 * MiB - 64, 2 * MiB + 64),
)


class HeapAgainstReference(RuleBasedStateMachine):
    """Every call answers as the reference does, and the books agree after each step."""

    def __init__(self) -> None:
        super().__init__()
        self.heap = Heap(device_id=0, capacity=1, padding=0, huge1g=False)
        self.ref = ReferenceHeap(capacity=1, padding=0, huge1g=False)
        self.ever: list[int] = []  # every address handed out (live or freed)

    @initialize(
        capacity=st.sampled_from([8 * MiB, 40 * MiB, 3 * 1024 * MiB]),
        padding=st.sampled_from([0, 16, 32]),
        huge1g=st.booleans(),
    )
    def open(self, capacity: int, padding: int, huge1g: bool) -> None:
        self.heap = Heap(device_id=0, capacity=capacity, padding=padding, huge1g=huge1g)
        self.ref = ReferenceHeap(capacity=capacity, padding=padding, huge1g=huge1g)

    @rule(size=SIZES, policy=POLICIES, padded=st.booleans(), tag=st.sampled_from(["user", "CopyToNpuSync"]))
    def malloc(self, size: int, policy: int, padded: bool, tag: str) -> None:
        got = outcome(lambda: self.heap.allocate(size, policy, padded=padded, tag=tag).info)
        want = outcome(lambda: self.ref.allocate(size, policy, padded=padded, tag=tag))
        assert got == want
        if isinstance(got.value, AllocationInfo):
            self.ever.append(got.value.addr)

    @precondition(lambda self: self.ref.live)
    @rule(data=st.data())
    def free_live(self, data: st.DataObject) -> None:
        addr = data.draw(st.sampled_from(sorted(self.ref.live)))
        assert self.heap.release(addr).info == self.ref.release(addr)

    @precondition(lambda self: self.ever)
    @rule(data=st.data(), offset=st.sampled_from([0, 0, 1, 32, 4095, 4096, -1, -64]))
    def free_any(self, data: st.DataObject, offset: int) -> None:
        """A double free, an interior pointer, one before or past an allocation: the same answer."""
        addr = data.draw(st.sampled_from(self.ever)) + offset
        got = outcome(lambda: self.heap.release(addr).info)
        assert got == outcome(lambda: self.ref.release(addr))

    @precondition(lambda self: self.ever)
    @rule(data=st.data(), offset=st.integers(-5000, 3 * MiB), nbytes=st.sampled_from([0, 1, 64, 4096, MiB]))
    def probe(self, data: st.DataObject, offset: int, nbytes: int) -> None:
        """Interior lookups and the bad-address sentence see through stale starts."""
        addr = data.draw(st.sampled_from(self.ever)) + offset
        found = self.heap.containing(addr, nbytes)
        assert (found.info if found is not None else None) == self.ref.containing(addr, nbytes)
        assert self.heap.describe_bad_address(addr, nbytes, "probe") == self.ref.describe(addr, nbytes, "probe")

    @invariant()
    def books_agree(self) -> None:
        heap, ref = self.heap, self.ref
        assert (heap.used, heap.peak) == (ref.used, ref.peak)
        assert heap.live() == list(ref.live.values())  # the same allocations, in allocation order
        assert heap.mem_info(None) == MemInfo(free=ref.capacity - ref.used, total=ref.capacity)
        assert heap._stale <= max(STALE_SLACK, len(heap._live))  # stale starts never outnumber the live ones
        assert [s for s in heap._starts if s in heap._live] == ref.starts


HeapAgainstReference.TestCase.settings = settings(
    max_examples=60, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestHeapAgainstReference = HeapAgainstReference.TestCase


@given(
    policy=st.integers(0, 2**32 - 1),
    size=st.one_of(st.integers(1, 4 * MiB), st.integers(MiB - 64, MiB + 64)),
    padded=st.booleans(),
    padding=st.sampled_from([0, 16, 32]),
)
def test_policy_rule_is_the_rules_composed(policy: int, size: int, padded: bool, padding: int) -> None:
    """A policy's precomputed rule gives exactly what is_giant / alloc_size / page_preference / charge give."""
    rule = memory_rules.policy_rule(policy)
    assert rule.giant == memory_rules.is_giant(policy)
    alloc_size = memory_rules.alloc_size(size, policy, padded=padded, soc_padding=padding)
    tries = rule.large if alloc_size > memory_rules.HUGE_FIRST_THRESHOLD else rule.small
    assert tries == tuple((k, k.page_size) for k in memory_rules.page_preference(alloc_size, policy))


def test_policy_rules_cover_every_policy_value() -> None:
    """Each aclrtMemMallocPolicy value has its own rule; any other low byte takes the driver's default branch."""
    assert set(memory_rules.POLICY_RULES) == {int(p) for p in MemPolicy}
    for low in range(8, 256):
        assert memory_rules.policy_rule(low) is memory_rules.OTHER_POLICY_RULE
    default = memory_rules.policy_rule(MemPolicy.HUGE_FIRST)
    assert default == memory_rules.OTHER_POLICY_RULE
    assert default.large == ((PageKind.HUGE, PageKind.HUGE.page_size), (PageKind.NORMAL, PageKind.NORMAL.page_size))


def test_freeing_in_any_order_keeps_the_starts_list_bounded_and_exact() -> None:
    """Thousands of frees in random order: stale starts are compacted away and every lookup stays exact."""
    rng = random.Random(16)
    heap = Heap(device_id=0, capacity=1 << 40, padding=32, huge1g=False)
    ref = ReferenceHeap(capacity=1 << 40, padding=32, huge1g=False)
    for _ in range(40):
        for _ in range(rng.randrange(1, 200)):
            size = rng.choice([1, 100, 4096, 70000, MiB + 1])
            assert heap.allocate(size, 0, padded=True, tag="user").info == ref.allocate(
                size, 0, padded=True, tag="user"
            )
        for addr in rng.sample(sorted(ref.live), rng.randrange(len(ref.live) + 1)):
            assert heap.release(addr).info == ref.release(addr)
        assert len(heap._starts) <= 2 * len(heap._live) + STALE_SLACK + 1
        for addr in rng.sample(sorted(ref.live) or [DEVICE_BASE], 1):
            for probe in (addr - 1, addr, addr + 63, addr + 4096, addr + 2 * MiB):
                found = heap.containing(probe, 1)
                assert (found.info if found is not None else None) == ref.containing(probe, 1)
                assert heap.describe_bad_address(probe, 8, "read") == ref.describe(probe, 8, "read")
    assert heap.used == ref.used and heap.live() == list(ref.live.values())


def test_nearest_skips_stale_starts_on_both_sides() -> None:
    """With freed allocations between an address and its live neighbours, the sentence names the live one."""
    heap = Heap(device_id=0, capacity=1 << 30, padding=32, huge1g=False)
    addrs = [heap.allocate(4096, 2, padded=True, tag="user").addr for _ in range(8)]
    for addr in (*addrs[:2], *addrs[5:]):
        heap.release(addr)
    below, beyond = addrs[0] - 10 * MiB, addrs[-1] + 10 * MiB  # in no allocation, live or freed
    assert heap.describe_bad_address(below, 0, "read").endswith(f"nearest is {addrs[2]:#x} (4096 bytes, tag user)")
    assert heap.describe_bad_address(beyond, 0, "read").endswith(f"nearest is {addrs[4]:#x} (4096 bytes, tag user)")
    for addr in addrs[2:5]:
        heap.release(addr)
    assert heap._starts  # every start is stale now, and not one is compacted yet
    assert heap.describe_bad_address(beyond, 0, "read").endswith("not inside any live device allocation (none is live)")
    assert heap.containing(addrs[3], 1) is None


@pytest.mark.slow
def test_stress_many_live_allocations_against_the_reference() -> None:
    """200,000 random operations with up to ~20,000 live allocations: identical answers throughout."""
    rng = random.Random(1616)
    heap = Heap(device_id=0, capacity=1 << 36, padding=32, huge1g=True)
    ref = ReferenceHeap(capacity=1 << 36, padding=32, huge1g=True)
    live: list[int] = []
    for step in range(200_000):
        if rng.random() < 0.55 or not live:
            size = rng.choice([1, 33, 4096, rng.randrange(1, 3 * MiB)])
            policy = rng.choice([0, 1, 2, 3, 99, 0x102])
            got = outcome(lambda: heap.allocate(size, policy, padded=True, tag="user").info)  # noqa: B023
            assert got == outcome(lambda: ref.allocate(size, policy, padded=True, tag="user"))  # noqa: B023
            if isinstance(got.value, AllocationInfo):
                live.append(got.value.addr)
        else:
            addr = live.pop(rng.randrange(len(live)))
            assert heap.release(addr).info == ref.release(addr)
        if step % 5000 == 0:
            assert heap.live() == list(ref.live.values())
            assert (heap.used, heap.peak) == (ref.used, ref.peak)
