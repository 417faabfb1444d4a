"""The written-byte state initcheck reads: runs of written bytes, a byte mask for scattered ones.

Unit tests of ``WrittenBytes`` and of the simulated device's bookkeeping around it: malloc creates
no state, H2D copies and memsets mark bytes written, a D2D copy carries the source's state (so
never-written source bytes make the destination never-written again).
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import Direction, MemPolicy
from emulator.device.simulated.npu import SimulatedNpu
from emulator.device.simulated.written import MAX_RUNS, WrittenBytes


def test_runs_merge_and_count_what_is_missing() -> None:
    """Marked runs merge; unwritten() counts the gaps of a range and names the first one."""
    state = WrittenBytes(100)
    state.mark(10, 20)
    state.mark(30, 40)
    assert state.unwritten(10, 20) == (0, -1)
    assert state.unwritten(0, 50) == (30, 0)
    assert state.unwritten(15, 35) == (10, 20)
    state.mark(18, 32)  # bridges the two runs
    assert state.unwritten(10, 40) == (0, -1)
    assert state.unwritten(10, 41) == (1, 40)


def test_clear_cuts_a_run() -> None:
    """clear() makes the middle of a written run never-written again, keeping both ends."""
    state = WrittenBytes(64)
    state.mark(0, 64)
    state.clear(16, 32)
    assert state.unwritten(0, 64) == (16, 16)
    np.testing.assert_array_equal(state.written_mask(14, 18), [True, True, False, False])


def test_assign_sets_exactly_the_given_pattern() -> None:
    """assign() with a mixed mask gives a byte mask; all-True and all-False stay runs."""
    state = WrittenBytes(16)
    state.mark(0, 16)
    pattern = np.array([True, False] * 4)
    state.assign(4, pattern)
    np.testing.assert_array_equal(state.written_mask(4, 12), pattern)
    assert state.unwritten(0, 16) == (4, 5)
    state.assign(4, np.ones(8, dtype=bool))
    assert state.unwritten(0, 16) == (0, -1)


def test_many_runs_turn_into_a_mask_with_the_same_answers() -> None:
    """Past MAX_RUNS separate runs the state becomes a byte mask; counts stay exact."""
    state = WrittenBytes(4 * (MAX_RUNS + 8))
    for i in range(MAX_RUNS + 8):
        state.mark(4 * i, 4 * i + 2)
    assert state.unwritten(0, 8) == (4, 2)
    assert state.unwritten(0, state.size) == (2 * (MAX_RUNS + 8), 2)


def test_device_tracks_writes_without_costing_malloc() -> None:
    """A fresh allocation has no state; H2D marks written; D2D carries never-written bytes over written ones."""
    npu = SimulatedNpu()
    a = npu.malloc(64, MemPolicy.HUGE_FIRST)
    b = npu.malloc(64, MemPolicy.HUGE_FIRST)
    alloc = npu.heap.get(a)
    assert alloc is not None and alloc.written is None
    host = np.arange(16, dtype=np.float32)
    npu.copy(b, host.ctypes.data, 64, Direction.H2D, None)
    assert npu.heap.unwritten(b, 64) == (0, -1)
    npu.copy(b + 32, a, 16, Direction.D2D, None)
    assert npu.heap.unwritten(b, 64) == (16, b + 32)
    npu.memset(a, 0, 8, None)
    assert npu.heap.unwritten(a, 16) == (8, a + 8)
    npu.close()


def test_a_range_the_size_of_the_card_keeps_runs_instead_of_a_per_byte_mask() -> None:
    """A 1 TiB written state (a VMM pool's reservation) with hundreds of runs and a mixed assign never
    allocates a per-byte mask, and still answers exactly."""
    state = WrittenBytes(1 << 40)
    for i in range(200):
        state.mark(i * 10, i * 10 + 5)
    state.assign(3000, np.array([True, False, True, True, False]))
    assert state._mask is None
    assert state.unwritten(0, 20) == (10, 5)
    assert state.written_mask(3000, 3005).tolist() == [True, False, True, True, False]
