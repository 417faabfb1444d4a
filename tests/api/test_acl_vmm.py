"""acl.rt virtual memory: granularity, reserved ranges, physical handles and the map / unmap rules.

The calls llama.cpp's CANN backend grows its pool with; checked against the real ACL layer's
argument checks and the driver's map rules (docs/runtime.md, "Virtual memory").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.config import Settings
from emulator.leaks import leak_report
from emulator.status import AclError

MiB = 1024 * 1024
GRANULE = 2 * MiB
INVALID_PARAM = AclError.ACL_ERROR_INVALID_PARAM
RT_PARAM_INVALID = AclError.ACL_ERROR_RT_PARAM_INVALID


def prop(device: int = 0, mem_attr: int = c.ACL_HBM_MEM_HUGE, **changes: Any) -> dict[str, Any]:
    """An aclrtPhysicalMemProp as pyACL takes it (llama.cpp's choice of fields)."""
    base: dict[str, Any] = {
        "handleType": c.ACL_MEM_HANDLE_TYPE_NONE,
        "allocationType": c.ACL_MEM_ALLOCATION_TYPE_PINNED,
        "memAttr": mem_attr,
        "location": {"id": device, "type": c.ACL_MEM_LOCATION_TYPE_DEVICE},
        "reserve": 0,
    }
    return base | changes


def ok(value: Any) -> Any:
    *values, ret = value
    assert ret == 0, acl.get_recent_err_msg()
    return values[0] if len(values) == 1 else values


@pytest.fixture
def device() -> None:
    assert acl.rt.set_device(0) == 0


def hbm_free() -> int:
    free, _total = ok(acl.rt.get_mem_info(c.ACL_HBM_MEM))
    return int(free)


# -- granularity ----------------------------------------------------------------------------------
@pytest.mark.usefixtures("device")
def test_granularity_is_the_soc_profiles_for_both_options() -> None:
    """MINIMUM and RECOMMENDED are the SoC's 2 MiB granule; the 1 GiB page attributes give 1 GiB on parts with them."""
    for option in (c.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, c.ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED):
        assert acl.rt.mem_get_allocation_granularity(prop(), option) == (GRANULE, 0)
    assert process.current().runtime.soc.vmm_granularity == GRANULE
    assert acl.rt.mem_get_allocation_granularity(prop(mem_attr=c.ACL_HBM_MEM_HUGE1G), 0) == (1 << 30, 0)


@pytest.mark.usefixtures("device")
@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"memAttr": c.ACL_DDR_MEM_HUGE}, "parameter memAttr"),
        ({"memAttr": c.ACL_HBM_MEM}, "parameter memAttr"),
        ({"location": {"id": 0, "type": c.ACL_MEM_LOCATION_TYPE_MANAGED}}, "prop->location.type"),
    ],
)
def test_granularity_refuses_properties_the_acl_layer_refuses(changes: dict[str, Any], needle: str) -> None:
    """A DDR attribute for device memory, a non-page attribute or a managed location: 100000 with the field."""
    assert acl.rt.mem_get_allocation_granularity(prop(**changes), 1) == (0, INVALID_PARAM)
    assert needle in (acl.get_recent_err_msg() or "")


@pytest.mark.usefixtures("device")
def test_granularity_checks_option_null_prop_and_missing_fields() -> None:
    """An unknown option and a null prop are 100000; a dict without a field is pyACL's parse error."""
    assert acl.rt.mem_get_allocation_granularity(prop(), c.ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF) == (0, INVALID_PARAM)
    assert "parameter option" in (acl.get_recent_err_msg() or "")
    assert acl.rt.mem_get_allocation_granularity(None, 1) == (0, INVALID_PARAM)
    with pytest.raises(TypeError, match=r"acl\.rt\.mem_get_allocation_granularity args parse failed"):
        acl.rt.mem_get_allocation_granularity({"memAttr": 4}, 1)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.mem_get_allocation_granularity([1, 2], 1)


def test_a_310p_has_no_1g_pages_for_physical_memory() -> None:
    """HUGE1G attributes on a part without 1 GiB pages: 207000."""
    with process.fresh(Settings(soc="Ascend310P3")):
        assert acl.rt.set_device(0) == 0
        got = acl.rt.mem_get_allocation_granularity(prop(mem_attr=c.ACL_HBM_MEM_HUGE1G), 1)
        assert got == (0, AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


# -- reservations and physical memory --------------------------------------------------------------
@pytest.mark.usefixtures("device")
def test_reserve_checks_size_flags_alignment_and_expect_ptr() -> None:
    """Size 0, flags other than 0/1, a non-zero alignment or an expected address are refused (100000)."""
    assert acl.rt.reserve_mem_address(0, 0, 0, 0) == (0, INVALID_PARAM)
    assert acl.rt.reserve_mem_address(GRANULE, 0, 0, 2) == (0, INVALID_PARAM)
    assert acl.rt.reserve_mem_address(GRANULE, 4096, 0, 0) == (0, INVALID_PARAM)
    assert acl.rt.reserve_mem_address(GRANULE, 0, 0x1000, 0) == (0, INVALID_PARAM)
    va = ok(acl.rt.reserve_mem_address(GRANULE + 1, 0, 0, 1))  # flags 1: llama.cpp's value
    assert va % GRANULE == 0
    assert acl.rt.release_mem_address(va) == 0
    assert acl.rt.release_mem_address(va) == RT_PARAM_INVALID
    assert acl.rt.release_mem_address(0) == INVALID_PARAM


def test_reserve_needs_a_current_context() -> None:
    """No device set: 107002, as every call that acts on the current context."""
    assert acl.rt.reserve_mem_address(GRANULE, 0, 0, 0) == (0, AclError.ACL_ERROR_RT_CONTEXT_NULL)


@pytest.mark.usefixtures("device")
def test_reserving_costs_no_memory_physical_memory_is_charged_in_granules() -> None:
    """A 1 GiB reservation leaves free memory as it was; a 3 MiB physical handle costs two granules until freed."""
    before = hbm_free()
    va = ok(acl.rt.reserve_mem_address(1 << 30, 0, 0, 0))
    assert hbm_free() == before
    handle = ok(acl.rt.malloc_physical(3 * MiB, prop(), 0))
    assert before - hbm_free() == 2 * GRANULE
    assert acl.rt.free_physical(handle) == 0
    assert hbm_free() == before
    assert acl.rt.free_physical(handle) == RT_PARAM_INVALID
    assert acl.rt.release_mem_address(va) == 0


@pytest.mark.usefixtures("device")
def test_malloc_physical_checks_in_the_acl_layers_order() -> None:
    """Null prop, size 0, flags, handle type, allocation type: 100000; a host location 207000; a bad device 107001."""
    assert acl.rt.malloc_physical(GRANULE, None, 0) == (0, INVALID_PARAM)
    assert acl.rt.malloc_physical(0, prop(), 0) == (0, INVALID_PARAM)
    assert acl.rt.malloc_physical(GRANULE, prop(), 1) == (0, INVALID_PARAM)
    assert acl.rt.malloc_physical(GRANULE, prop(handleType=2), 0) == (0, INVALID_PARAM)
    assert "prop->handleType" in (acl.get_recent_err_msg() or "")
    assert acl.rt.malloc_physical(GRANULE, prop(allocationType=1), 0) == (0, INVALID_PARAM)
    host = prop(mem_attr=c.ACL_DDR_MEM_HUGE, location={"id": 0, "type": c.ACL_MEM_LOCATION_TYPE_HOST})
    assert acl.rt.malloc_physical(GRANULE, host, 0) == (0, AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.malloc_physical(GRANULE, prop(device=99), 0) == (0, AclError.ACL_ERROR_RT_INVALID_DEVICEID)


def test_physical_memory_runs_out_where_the_device_does() -> None:
    """With a 64 MiB card, 32 granules fit and the 33rd is 207001, as an aclrtMalloc would be."""
    with process.fresh(Settings(hbm_limit=64 * MiB)):
        assert acl.rt.set_device(0) == 0
        handles = [ok(acl.rt.malloc_physical(GRANULE, prop(), 0)) for _ in range(32)]
        assert acl.rt.malloc_physical(GRANULE, prop(), 0) == (0, AclError.ACL_ERROR_RT_MEMORY_ALLOCATION)
        assert acl.rt.malloc(1, c.ACL_MEM_MALLOC_HUGE_FIRST)[1] == AclError.ACL_ERROR_RT_MEMORY_ALLOCATION
        for handle in handles:
            assert acl.rt.free_physical(handle) == 0


# -- map / unmap ----------------------------------------------------------------------------------
@pytest.fixture
def pool(device: None) -> tuple[int, list[int]]:
    """A 16-granule reservation and four one-granule handles, nothing mapped."""
    va = ok(acl.rt.reserve_mem_address(16 * GRANULE, 0, 0, 1))
    return va, [ok(acl.rt.malloc_physical(GRANULE, prop(), 0)) for _ in range(4)]


def test_map_rules_alignment_bounds_overlap_offset_and_size(pool: tuple[int, list[int]]) -> None:
    """Each broken map rule is 107000 with its reason, and leaves nothing mapped."""
    va, (h0, h1, _, _) = pool
    cases = [
        ((va + 4096, GRANULE, 0, h0, 0), "multiples of the granularity"),
        ((va, GRANULE + 4096, 0, h0, 0), "multiples of the granularity"),
        ((va, 2 * GRANULE, 0, h0, 0), "exceeds"),
        ((va, GRANULE, GRANULE, h0, 0), "offset"),
        ((va + 16 * GRANULE, GRANULE, 0, h0, 0), "is not inside"),
        ((va, GRANULE, 0, 0x1234, 0), "not a handle"),
    ]
    for args, reason in cases:
        assert acl.rt.map_mem(*args) == RT_PARAM_INVALID, args
        assert reason in (acl.get_recent_err_msg() or ""), args
    assert acl.rt.map_mem(va, GRANULE, 0, h0, 1) == INVALID_PARAM  # flags must be 0
    assert acl.rt.map_mem(va, 0, 0, h0, 0) == INVALID_PARAM
    assert acl.rt.map_mem(0, GRANULE, 0, h0, 0) == INVALID_PARAM
    assert acl.rt.map_mem(va, GRANULE, 0, h0, 0) == 0
    assert acl.rt.map_mem(va, GRANULE, 0, h1, 0) == RT_PARAM_INVALID
    assert "overlaps the mapping" in (acl.get_recent_err_msg() or "")
    assert acl.rt.map_mem(va + GRANULE, GRANULE, 0, h0, 0) == RT_PARAM_INVALID
    assert "already mapped" in (acl.get_recent_err_msg() or "")


def test_unmap_before_release_and_before_free(pool: tuple[int, list[int]]) -> None:
    """A mapped handle cannot be freed, a range with maps cannot be released; unmap of a non-start is 107000."""
    va, (h0, *_) = pool
    assert acl.rt.map_mem(va, GRANULE, 0, h0, 0) == 0
    assert acl.rt.free_physical(h0) == RT_PARAM_INVALID
    assert "still mapped" in (acl.get_recent_err_msg() or "")
    assert acl.rt.release_mem_address(va) == RT_PARAM_INVALID
    assert "unmap them" in (acl.get_recent_err_msg() or "")
    assert acl.rt.unmap_mem(va + 4096) == RT_PARAM_INVALID
    assert acl.rt.free(va) != 0  # a reserved range is no aclrtMalloc allocation
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.unmap_mem(va) == RT_PARAM_INVALID
    assert acl.rt.free_physical(h0) == 0


def test_copies_resolve_inside_maps_across_adjacent_chunks_and_nowhere_else(pool: tuple[int, list[int]]) -> None:
    """A buffer straddling two adjacent maps reads back what was written; a span reaching past the maps is refused."""
    va, (h0, h1, _, _) = pool
    assert acl.rt.map_mem(va, GRANULE, 0, h0, 0) == 0
    assert acl.rt.map_mem(va + GRANULE, GRANULE, 0, h1, 0) == 0
    data = np.arange(4096, dtype=np.float32)
    at = va + GRANULE - 8192  # half in each chunk
    assert acl.rt.memcpy(at, data.nbytes, data.ctypes.data, data.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = np.zeros_like(data)
    assert acl.rt.memcpy(back.ctypes.data, back.nbytes, at, back.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    np.testing.assert_array_equal(back, data)
    beyond = va + 2 * GRANULE - 64
    assert acl.rt.memcpy(back.ctypes.data, back.nbytes, beyond, back.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST) != 0
    assert "not mapped over the whole span" in (acl.get_recent_err_msg() or "")
    assert acl.rt.memset(va, 64, 7, 64) == 0
    assert acl.rt.unmap_mem(va + GRANULE) == 0
    assert acl.rt.memcpy(back.ctypes.data, back.nbytes, at, back.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST) != 0


def test_a_kernel_reads_and_writes_through_a_mapped_range(pool: tuple[int, list[int]]) -> None:
    """aclnnAdd on tensors whose device pointers lie in a mapped range: the result is numpy's."""
    va, (h0, *_) = pool
    assert acl.rt.map_mem(va, GRANULE, 0, h0, 0) == 0
    stream = ok(acl.rt.create_stream())
    x = np.linspace(-2, 2, 256, dtype=np.float32)
    y = np.full(256, 0.5, dtype=np.float32)
    ptrs = [va, va + 4096, va + 8192]
    for ptr, host in zip(ptrs[:2], (x, y), strict=True):
        assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    tensors = [aclnn.aclCreateTensor([256], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [256], 1, p) for p in ptrs]
    alpha = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2])
    assert ret == 0 and ws == 0
    assert aclnn.aclnnAdd(0, 0, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    out = np.empty(256, dtype=np.float32)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptrs[2], out.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    np.testing.assert_allclose(out, x + 2.0 * y)
    for tensor in tensors:
        assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_unreleased_ranges_and_handles_are_leaks_with_their_sites(pool: tuple[int, list[int]]) -> None:
    """The leak report names each reserved range and physical handle still alive, with the line that made it."""
    va, handles = pool
    report = leak_report()
    kinds = {(r.kind, r.key) for r in report.direct}
    assert ("virtual_range", va) in kinds
    assert {("physical_memory", h) for h in handles} <= kinds
    res = next(r for r in report.direct if r.key == va)
    assert res.site.top is not None and res.site.top.func == "pool"
    for handle in handles:
        assert acl.rt.free_physical(handle) == 0
    assert acl.rt.release_mem_address(va) == 0
    left = {r.kind for r in leak_report().direct}
    assert not left & {"virtual_range", "physical_memory"}


def test_injected_faults_reach_the_new_calls_and_leave_nothing_half_done() -> None:
    """OPBASE_EMU_FAULTS fails the 2nd aclrtMapMem with 207001 (nothing mapped: a copy there is refused)
    and the 1st aclmdlRICaptureEnd with its natural 100000 (the stream still captures: a second end works)."""
    from emulator.acl.model_ri import aclmdlRICaptureBegin, aclmdlRICaptureEnd, aclmdlRIDestroy

    env = {"OPBASE_EMU_FAULTS": "aclrtMapMem@2=207001,aclmdlRICaptureEnd"}
    with process.fresh(Settings.from_env(env)):
        assert acl.rt.set_device(0) == 0
        va = ok(acl.rt.reserve_mem_address(4 * GRANULE, 0, 0, 0))
        h0, h1 = (ok(acl.rt.malloc_physical(GRANULE, prop(), 0)) for _ in range(2))
        assert acl.rt.map_mem(va, GRANULE, 0, h0, 0) == 0
        assert acl.rt.map_mem(va + GRANULE, GRANULE, 0, h1, 0) == AclError.ACL_ERROR_RT_MEMORY_ALLOCATION
        assert "aclrtMapMem failed with ACL_ERROR_RT_MEMORY_ALLOCATION" in (acl.get_recent_err_msg() or "")
        assert acl.rt.memset(va + GRANULE, 16, 0, 16) == RT_PARAM_INVALID
        stream = ok(acl.rt.create_stream())
        assert aclmdlRICaptureBegin(stream, 0) == 0
        assert aclmdlRICaptureEnd(stream) == (0, INVALID_PARAM)
        model = ok(aclmdlRICaptureEnd(stream))
        assert aclmdlRIDestroy(model) == 0


@pytest.mark.usefixtures("device")
def test_a_leaked_physical_handle_counts_its_charged_bytes_as_leaked_device_memory() -> None:
    """A 1-byte handle is charged a whole granule: the report says so and its total counts it."""
    handle = ok(acl.rt.malloc_physical(1, prop(), 0))
    report = leak_report()
    assert report.device_bytes == GRANULE
    assert f"Direct leak of physical memory {GRANULE} byte(s) at {handle:#x}" in report.render()
