"""acl.create_data_buffer … and acl.create_tensor_desc …: handles, getters, statuses, leak reports."""

from __future__ import annotations

import pytest

from emulator import acl, leaks, process
from emulator.diagnostics import ReportKind
from emulator.tracking import ResourceKind

ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_STRING, ACL_COMPLEX128 = 1, 0, 9, 13, 17
ACL_FORMAT_ND, ACL_FORMAT_NCHW = 2, 0


def test_data_buffer_round_trip(emu: process.EmulatedProcess) -> None:
    """A buffer gives back its address and size, and its destroy releases the registry entry."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(4096, 0)
    buffer = acl.create_data_buffer(ptr, 4096)
    assert isinstance(buffer, int) and buffer != 0
    assert acl.get_data_buffer_addr(buffer) == ptr
    assert acl.get_data_buffer_size(buffer) == 4096 == acl.get_data_buffer_size_v2(buffer)
    assert emu.registry.count(ResourceKind.DATA_BUFFER) == 1
    assert acl.destroy_data_buffer(buffer) == 0
    assert emu.registry.count(ResourceKind.DATA_BUFFER) == 0
    assert acl.rt.free(ptr) == 0  # the buffer never owned the memory
    assert acl.get_recent_err_msg() is None


def test_data_buffer_of_nothing_and_sizes_past_32_bits() -> None:
    """(0, 0) is a valid buffer; the deprecated getter cuts a size to 32 bits, the v2 one does not."""
    empty = acl.create_data_buffer(0, 0)
    assert empty and acl.get_data_buffer_addr(empty) == 0 and acl.get_data_buffer_size_v2(empty) == 0
    big = acl.create_data_buffer(0x1000, (1 << 32) + 5)
    assert acl.get_data_buffer_size(big) == 5 and acl.get_data_buffer_size_v2(big) == (1 << 32) + 5
    assert acl.update_data_buffer(big, 0x2000, 8) == 0
    assert acl.get_data_buffer_addr(big) == 0x2000 and acl.get_data_buffer_size(big) == 8
    assert acl.destroy_data_buffer(empty) == 0 and acl.destroy_data_buffer(big) == 0


def test_null_data_buffer() -> None:
    """Getters of a null handle return 0 silently; destroy and update of one are 100000 with EH0008."""
    assert acl.get_data_buffer_addr(0) == 0 and acl.get_data_buffer_size(0) == 0
    assert acl.get_data_buffer_size_v2(0) == 0
    assert acl.get_recent_err_msg() is None
    assert acl.destroy_data_buffer(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None and "EH0008" in msg and "aclDestroyDataBuffer failed because dataBuffer cannot" in msg
    assert acl.update_data_buffer(0, 0, 0) == 100000


def test_double_destroy_is_reported_with_both_sites(emu: process.EmulatedProcess) -> None:
    """A second destroy (undefined in C) is a report naming where it was created and destroyed."""
    buffer = acl.create_data_buffer(0, 16)
    assert acl.destroy_data_buffer(buffer) == 0
    assert acl.destroy_data_buffer(buffer) == 0
    assert acl.get_data_buffer_addr(buffer) == 0
    reports = [d for d in emu.diagnostics if d.api == "aclDestroyDataBuffer"]
    assert reports and reports[0].created is not None and reports[0].destroyed is not None
    assert "used after it was destroyed" in reports[0].message


def test_a_foreign_handle_is_reported() -> None:
    """A handle this process never gave out is a FOREIGN_HANDLE report, and reads as null."""
    with process.fresh() as emu:
        assert acl.get_data_buffer_size_v2(0x1234) == 0
        assert [d.kind for d in emu.diagnostics] == [ReportKind.FOREIGN_HANDLE]


def test_leaked_objects_are_in_the_leak_report(emu: process.EmulatedProcess) -> None:
    """An undestroyed buffer and descriptor appear under 'acl objects' with their contents."""
    acl.create_data_buffer(0x40, 64)
    acl.create_tensor_desc(ACL_FLOAT, [2, 3], ACL_FORMAT_ND)
    text = leaks.leak_report(emu).render()
    assert "-- acl objects (acl): 2" in text
    assert "data 0x40, 64 byte(s)" in text and "dims [2, 3]" in text
    assert "test_acl_buffers.py" in text  # the creation site


def test_tensor_desc_getters() -> None:
    """Rank, dims, type, format, element count and size of a described tensor."""
    desc = acl.create_tensor_desc(ACL_FLOAT16, [2, 3, 4], ACL_FORMAT_NCHW)
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert [acl.get_tensor_desc_dim_v2(desc, i) for i in range(3)] == [(2, 0), (3, 0), (4, 0)]
    assert acl.get_tensor_desc_type(desc) == ACL_FLOAT16 and acl.get_tensor_desc_format(desc) == ACL_FORMAT_NCHW
    assert acl.get_tensor_desc_element_count(desc) == 24 and acl.get_tensor_desc_size(desc) == 48
    assert acl.destroy_tensor_desc(desc) is None


def test_tensor_desc_dim_out_of_range() -> None:
    """An index past the rank is 100000 with an EH0007 text; a null desc is 100000 with EH0008."""
    desc = acl.create_tensor_desc(ACL_FLOAT, [5], ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim_v2(desc, 1) == (0, 100000)
    msg = acl.get_recent_err_msg()
    assert msg is not None and "EH0007" in msg and "parameter index" in msg
    assert acl.get_tensor_desc_dim_v2(0, 0) == (0, 100000)
    assert acl.get_tensor_desc_num_dims(0) == 0 and acl.get_tensor_desc_size(0) == 0
    acl.destroy_tensor_desc(desc)
    acl.destroy_tensor_desc(0)  # delete nullptr: nothing happens


def test_scalar_and_dynamic_descs() -> None:
    """[] is a scalar of one element; -1 is unknown (size 0); [-2] is an unknown rank."""
    scalar = acl.create_tensor_desc(ACL_INT64, [], ACL_FORMAT_ND)
    assert acl.get_tensor_desc_num_dims(scalar) == 0 and acl.get_tensor_desc_size(scalar) == 8
    dynamic = acl.create_tensor_desc(ACL_FLOAT, [-1, 4], ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim_v2(dynamic, 0) == (-1, 0) and acl.get_tensor_desc_size(dynamic) == 0
    rank = acl.create_tensor_desc(ACL_FLOAT, [-2], ACL_FORMAT_ND)
    assert acl.get_tensor_desc_num_dims(rank) == 0xFFFF_FFFF_FFFF_FFFE
    for desc in (scalar, dynamic, rank):
        acl.destroy_tensor_desc(desc)


def test_bad_descs_are_nullptr() -> None:
    """More than 128 dims or a dim below -2 gives 0 (nullptr) with an EH0007 text, and nothing registered."""
    with process.fresh() as emu:
        assert acl.create_tensor_desc(ACL_FLOAT, [1] * 129, ACL_FORMAT_ND) == 0
        assert acl.create_tensor_desc(ACL_FLOAT, [2, -3], ACL_FORMAT_ND) == 0
        msg = acl.get_recent_err_msg()
        assert msg is not None and "EH0007" in msg
        assert emu.registry.count(ResourceKind.TENSOR_DESC) == 0


@pytest.mark.parametrize(
    ("dtype", "size"), [(ACL_FLOAT, 4), (ACL_FLOAT16, 2), (ACL_INT64, 8), (ACL_STRING, 0), (ACL_COMPLEX128, 16)]
)
def test_data_type_size(dtype: int, size: int) -> None:
    """aclDataTypeSize: bytes per element, 0 for ACL_STRING."""
    assert acl.data_type_size(dtype) == size


def test_type_mistakes_raise() -> None:
    """A str for a pointer or a tuple for the dims raise TypeError, as pyACL's parser does."""
    with pytest.raises(TypeError, match="args parse failed"):
        acl.create_data_buffer("0", 4)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="args parse failed"):
        acl.create_tensor_desc(ACL_FLOAT, "23", ACL_FORMAT_ND)  # type: ignore[arg-type]
