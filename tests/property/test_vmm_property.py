"""Property: random map / unmap / copy sequences on a reserved range follow a shadow model of its maps.

Each example runs in its own emulated process with an 8-granule reservation and 4 one-granule
physical handles. A map succeeds exactly when the model says it may (inside, not overlapping, the
handle mapped nowhere), an unmap exactly at a map's start; a copy into the range succeeds exactly
when every byte of it is mapped (maps that touch join up), and what it wrote reads back; the
device's free memory is always the capacity less the physical handles, however they are mapped.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, process
from emulator.acl import constants as c

GRANULE = 2 * 1024 * 1024
SLOTS = 8
HANDLES = 4
PROP = {
    "handleType": 0,
    "allocationType": 0,
    "memAttr": c.ACL_HBM_MEM_HUGE,
    "location": {"id": 0, "type": c.ACL_MEM_LOCATION_TYPE_DEVICE},
    "reserve": 0,
}

map_op = st.tuples(st.just("map"), st.integers(0, SLOTS), st.integers(0, HANDLES - 1))
unmap_op = st.tuples(st.just("unmap"), st.integers(0, SLOTS - 1), st.just(0))
copy_op = st.tuples(st.just("copy"), st.integers(0, SLOTS * GRANULE - 1), st.integers(1, GRANULE + 8192))
ops = st.lists(st.one_of(map_op, unmap_op, copy_op), max_size=25)


def _covered(maps: dict[int, int], start: int, nbytes: int) -> bool:
    return all((byte // GRANULE) in maps for byte in range(start // GRANULE * GRANULE, start + nbytes, GRANULE))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_maps_unmaps_and_copies_follow_the_model(sequence: list[tuple[str, int, int]]) -> None:
    with process.fresh():
        assert acl.rt.set_device(0) == 0
        free0, _, _ = acl.rt.get_mem_info(c.ACL_HBM_MEM)
        va, ret = acl.rt.reserve_mem_address(SLOTS * GRANULE, 0, 0, 1)
        assert ret == 0
        handles = [acl.rt.malloc_physical(GRANULE, PROP, 0)[0] for _ in range(HANDLES)]
        maps: dict[int, int] = {}  # slot -> handle index
        for op, a, b in sequence:
            if op == "map":
                allowed = a < SLOTS and a not in maps and b not in maps.values()
                assert (acl.rt.map_mem(va + a * GRANULE, GRANULE, 0, handles[b], 0) == 0) == allowed, (op, a, b)
                if allowed:
                    maps[a] = b
            elif op == "unmap":
                assert (acl.rt.unmap_mem(va + a * GRANULE) == 0) == (a in maps)
                maps.pop(a, None)
            else:
                nbytes = min(b, SLOTS * GRANULE - a)
                data = np.full(nbytes, a % 251, dtype=np.uint8)
                ok = _covered(maps, a, nbytes)
                assert (acl.rt.memcpy(va + a, nbytes, data.ctypes.data, nbytes, 1) == 0) == ok, (a, nbytes, maps)
                if ok:
                    back = np.zeros_like(data)
                    assert acl.rt.memcpy(back.ctypes.data, nbytes, va + a, nbytes, 2) == 0
                    assert (back == data).all()
            free, _, _ = acl.rt.get_mem_info(c.ACL_HBM_MEM)
            assert free0 - free == HANDLES * GRANULE
        assert (acl.rt.release_mem_address(va) == 0) == (not maps)
        for slot in list(maps):
            assert acl.rt.unmap_mem(va + slot * GRANULE) == 0
        for handle in handles:
            assert acl.rt.free_physical(handle) == 0
        if maps:
            assert acl.rt.release_mem_address(va) == 0
        assert acl.rt.get_mem_info(c.ACL_HBM_MEM)[0] == free0
