"""Property: data buffers, tensor descriptors and callback order through the pyACL face.

Random create / update / get / destroy sequences (on live, destroyed and null handles) never
raise, answer as a shadow model says, and keep the registry's count equal to the live objects;
random shapes give a descriptor whose getters read them back, or nullptr for what the library
refuses; callbacks launched between random copies run in launch order, each after its copy.
"""

from __future__ import annotations

import threading

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, process
from emulator.tracking import ResourceKind

sizes = st.integers(0, (1 << 64) - 1)
addresses = st.integers(0, (1 << 48) - 1)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("create"), addresses, sizes),
        st.tuples(st.just("update"), st.integers(0, 7), addresses, sizes),
        st.tuples(st.just("get"), st.integers(0, 7)),
        st.tuples(st.just("destroy"), st.integers(0, 7)),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_data_buffers_follow_a_shadow_model(steps: list[tuple[object, ...]]) -> None:
    """Each step's answer is the model's; destroyed handles read as null; the registry counts the live ones."""
    with process.fresh() as emu:
        handles: list[int] = []
        live: dict[int, tuple[int, int]] = {}
        for step in steps:
            if step[0] == "create":
                _, data, size = step
                assert isinstance(data, int) and isinstance(size, int)
                handle = acl.create_data_buffer(data, size)
                assert handle and handle not in handles
                handles.append(handle)
                live[handle] = (data, size)
                continue
            index = step[1]
            assert isinstance(index, int)
            handle = handles[index] if index < len(handles) else 0
            if step[0] == "update":
                data, size = step[2], step[3]
                assert isinstance(data, int) and isinstance(size, int)
                assert acl.update_data_buffer(handle, data, size) == (0 if handle else 100000)
                if handle in live:
                    live[handle] = (data, size)
            elif step[0] == "get":
                data, size = live.get(handle, (0, 0))
                assert acl.get_data_buffer_addr(handle) == data
                assert acl.get_data_buffer_size_v2(handle) == size
                assert acl.get_data_buffer_size(handle) == size & 0xFFFF_FFFF
            else:
                assert acl.destroy_data_buffer(handle) == (0 if handle else 100000)
                live.pop(handle, None)
            assert emu.registry.count(ResourceKind.DATA_BUFFER) == len(live)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 40), st.lists(st.integers(-3, 6), max_size=140))
def test_tensor_descs_read_back_their_shape(dtype: int, dims: list[int]) -> None:
    """A valid shape reads back dim by dim with the size the type gives; an invalid one is nullptr."""
    with process.fresh() as emu:
        desc = acl.create_tensor_desc(dtype, dims, 2)
        if len(dims) > 128 or any(d < -2 for d in dims):
            assert desc == 0 and emu.registry.count(ResourceKind.TENSOR_DESC) == 0
            assert acl.get_recent_err_msg() is not None
            return
        assert desc != 0
        if dims != [-2]:
            assert acl.get_tensor_desc_num_dims(desc) == len(dims)
            assert [acl.get_tensor_desc_dim_v2(desc, i) for i in range(len(dims))] == [(d, 0) for d in dims]
        assert acl.get_tensor_desc_dim_v2(desc, len(dims))[1] == 100000
        known = all(d >= 0 for d in dims)
        count = int(np.prod(dims, dtype=np.int64)) if known else 0
        assert acl.get_tensor_desc_element_count(desc) == count
        assert acl.get_tensor_desc_size(desc) == count * acl.data_type_size(dtype)
        acl.destroy_tensor_desc(desc)
        assert emu.registry.count(ResourceKind.TENSOR_DESC) == 0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 255)), min_size=1, max_size=8))
def test_callbacks_run_in_order_after_their_copies(plan: list[tuple[bool, int]]) -> None:
    """Callbacks run in launch order; a blocking one sees its own copy (it holds the later copies back).

    A non-blocking callback that reads memory a later task writes races it (as on a card), so only
    the blocking ones' values are fixed.
    """
    with process.fresh():
        assert acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        me = threading.get_ident()
        assert acl.rt.subscribe_report(me, stream) == 0
        ptr, _ = acl.rt.malloc(4, 0)
        pinned, _ = acl.rt.malloc_host(4 * len(plan))  # pinned: the copies are queued, not done at once
        hosts = []
        for i, (_, value) in enumerate(plan):
            view = acl.util.ptr_to_numpy(pinned + 4 * i, (1,), 5)
            view[0] = value
            hosts.append(pinned + 4 * i)
        seen: list[int] = []

        def read(_: object) -> None:
            out = np.zeros(1, dtype=np.int32)
            acl.rt.memcpy(out.ctypes.data, 4, ptr, 4, 2)
            seen.append(int(out[0]))

        for (block, _), host in zip(plan, hosts, strict=True):
            assert acl.rt.memcpy_async(ptr, 4, host, 4, 1, stream) == 0
            assert acl.rt.launch_callback(read, None, int(block), stream) == 0
        assert acl.rt.process_report(1000) == 0
        assert len(seen) == len(plan)
        assert [v for v, (block, _) in zip(seen, plan, strict=True) if block] == [v for b, v in plan if b]
        assert acl.rt.unsubscribe_report(me, stream) == 0
        acl.rt.free(ptr)
        acl.rt.free_host(pinned)
