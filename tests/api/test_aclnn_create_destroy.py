"""aclnn create / destroy functions and the registry they feed.

Creation validates nothing the real library does not validate: a null dims pointer with a
non-zero count is the only way to get nullptr from aclCreateTensor, arrays and lists come back
empty (not null) from a null value or a zero size, lists hold the caller's own objects and own
them, and every destroy returns 0 — a second destroy is reported with both sites instead.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.diagnostics import UndefinedBehaviour

ADDR = 0x12_3400_0000  # a device address; creation never dereferences it
INT64_MIN = -(2**63)
DT_UNDEFINED = 28  # ge::DT_UNDEFINED, what ACL_DT_UNDEFINED is stored as
FORMAT_MAX = 0xFF  # ge::FORMAT_MAX, what ACL_FORMAT_UNDEFINED is stored as in storage

PRIVATE_FORMATS = [3, 4, 12, 29, 32, 33, 50, 51, 52, 53, 54]
VALID_DTYPES = [d for d in aclnn.aclDataType if d != aclnn.ACL_DT_UNDEFINED]
VALID_FORMATS = [f for f in aclnn.aclFormat if f != aclnn.ACL_FORMAT_UNDEFINED]

# aclCreateScalar: (dtype, bytes read from the value) for every accepted dtype.
SCALAR_SIZES = [
    (aclnn.ACL_FLOAT, 4),
    (aclnn.ACL_FLOAT16, 2),
    (aclnn.ACL_INT8, 1),
    (aclnn.ACL_INT32, 4),
    (aclnn.ACL_UINT8, 1),
    (aclnn.ACL_INT16, 2),
    (aclnn.ACL_UINT16, 2),
    (aclnn.ACL_UINT32, 4),
    (aclnn.ACL_INT64, 8),
    (aclnn.ACL_UINT64, 8),
    (aclnn.ACL_DOUBLE, 8),
    (aclnn.ACL_BOOL, 1),
    (aclnn.ACL_COMPLEX64, 8),
    (aclnn.ACL_COMPLEX128, 16),
    (aclnn.ACL_BF16, 2),
    (aclnn.ACL_HIFLOAT8, 1),
    (aclnn.ACL_FLOAT8_E5M2, 1),
    (aclnn.ACL_FLOAT8_E4M3FN, 1),
    (aclnn.ACL_FLOAT8_E8M0, 1),
    (aclnn.ACL_FLOAT6_E3M2, 1),
    (aclnn.ACL_FLOAT6_E2M3, 1),
    (aclnn.ACL_FLOAT4_E2M1, 1),
    (aclnn.ACL_FLOAT4_E1M2, 1),
]

# The dtypes a numpy (or ml_dtypes) scalar exists for, with a value exactly representable in each.
NUMPY_SCALARS = [
    (aclnn.ACL_FLOAT, np.float32(1.5)),
    (aclnn.ACL_FLOAT16, np.float16(-2.5)),
    (aclnn.ACL_INT8, np.int8(-7)),
    (aclnn.ACL_INT32, np.int32(-123456)),
    (aclnn.ACL_UINT8, np.uint8(200)),
    (aclnn.ACL_INT16, np.int16(-300)),
    (aclnn.ACL_UINT16, np.uint16(60000)),
    (aclnn.ACL_UINT32, np.uint32(4000000000)),
    (aclnn.ACL_INT64, np.int64(-(2**40))),
    (aclnn.ACL_UINT64, np.uint64(2**63 + 5)),
    (aclnn.ACL_DOUBLE, np.float64(0.1)),
    (aclnn.ACL_BOOL, np.bool_(True)),
    (aclnn.ACL_COMPLEX64, np.complex64(1 - 2j)),
    (aclnn.ACL_COMPLEX128, np.complex128(0.25 + 3j)),
    (aclnn.ACL_BF16, ml_dtypes.bfloat16(3.0)),
    (aclnn.ACL_FLOAT8_E5M2, ml_dtypes.float8_e5m2(-4.0)),
    (aclnn.ACL_FLOAT8_E4M3FN, ml_dtypes.float8_e4m3fn(0.5)),
    (aclnn.ACL_FLOAT8_E8M0, ml_dtypes.float8_e8m0fnu(8.0)),
    (aclnn.ACL_FLOAT6_E3M2, ml_dtypes.float6_e3m2fn(1.5)),
    (aclnn.ACL_FLOAT6_E2M3, ml_dtypes.float6_e2m3fn(-1.0)),
    (aclnn.ACL_FLOAT4_E2M1, ml_dtypes.float4_e2m1fn(2.0)),
]

UNSUPPORTED_SCALAR_DTYPES = [
    aclnn.ACL_STRING,
    aclnn.ACL_INT4,
    aclnn.ACL_UINT1,
    aclnn.ACL_COMPLEX32,
    aclnn.ACL_DT_UNDEFINED,
    999,
]

CREATE_TENSOR_ARGS = ([2, 4], 2, aclnn.ACL_FLOAT16, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, ADDR)


def here() -> str:
    """The caller's current line as a Site prints it: "file:line"."""
    frame = sys._getframe(1)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def make_tensor(
    view: list[int] | None = None,
    dtype: int = aclnn.ACL_FLOAT,
    fmt: int = aclnn.ACL_FORMAT_ND,
    addr: int | None = ADDR,
) -> aclnn.aclTensor:
    """A contiguous tensor whose storage shape is its view shape."""
    view = [2, 3] if view is None else view
    t = aclnn.aclCreateTensor(view, len(view), dtype, None, 0, fmt, view, len(view), addr)
    assert t is not None
    return t


def make_scalar(value: float = 1.0) -> aclnn.aclScalar:
    """A float32 scalar."""
    s = aclnn.aclCreateScalar(value, aclnn.ACL_FLOAT)
    assert s is not None
    return s


def describe(t: aclnn.aclTensor) -> tuple[object, ...]:
    """Everything the getters say about a tensor, asserting each getter succeeded."""
    results = (
        aclnn.aclGetViewShape(t),
        aclnn.aclGetViewStrides(t),
        aclnn.aclGetViewOffset(t),
        aclnn.aclGetFormat(t),
        aclnn.aclGetDataType(t),
        aclnn.aclGetStorageShape(t),
        aclnn.aclGetRawTensorAddr(t),
    )
    assert all(ret == aclnn.ACLNN_SUCCESS for _, ret in results)
    return tuple(value for value, _ in results)


# -- aclCreateTensor ----------------------------------------------------------------------------
def test_create_tensor_keeps_every_field() -> None:
    """A tensor created from the canonical arguments reads back exactly those arguments."""
    t = aclnn.aclCreateTensor(*CREATE_TENSOR_ARGS)
    assert isinstance(t, aclnn.aclTensor)
    assert describe(t) == ([2, 4], [4, 1], 0, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT16, [2, 4], ADDR)
    assert t.origin_shape == (2, 4)
    assert t.storage_format == t.origin_format == aclnn.ACL_FORMAT_ND
    assert t.storage_offset == 0


@pytest.mark.parametrize(
    ("view", "strides"),
    [([2, 3, 4], [12, 4, 1]), ([5], [1]), ([7, 1], [1, 1]), ([2, 0, 3], [0, 3, 1]), ([], [])],
)
def test_null_stride_gives_contiguous_strides(view: list[int], strides: list[int]) -> None:
    """A null stride pointer gives the contiguous strides of the view shape (last 1, s[i] = dim[i+1]·s[i+1])."""
    t = aclnn.aclCreateTensor(view, len(view), aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, view, len(view), ADDR)
    assert t is not None
    assert aclnn.aclGetViewStrides(t) == (strides, 0)


@pytest.mark.parametrize("count", [1, 2, 7])
def test_null_view_dims_with_a_count_is_nullptr(emu: process.EmulatedProcess, count: int) -> None:
    """viewDims null with viewDimsNum > 0 gives nullptr and registers nothing."""
    t = aclnn.aclCreateTensor(None, count, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, ADDR)
    assert t is None
    assert emu.registry.count("tensor") == 0


@pytest.mark.parametrize("count", [1, 3])
def test_null_storage_dims_with_a_count_is_nullptr(emu: process.EmulatedProcess, count: int) -> None:
    """storageDims null with storageDimsNum > 0 gives nullptr and registers nothing."""
    t = aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, None, count, ADDR)
    assert t is None
    assert emu.registry.count("tensor") == 0


def test_null_dims_with_count_zero_is_a_zero_dim_tensor() -> None:
    """Null view and storage dims with count 0 give a valid tensor with 0-dim shapes and no strides."""
    t = aclnn.aclCreateTensor(None, 0, aclnn.ACL_INT32, None, 0, aclnn.ACL_FORMAT_ND, None, 0, ADDR)
    assert t is not None
    assert describe(t) == ([], [], 0, aclnn.ACL_FORMAT_ND, aclnn.ACL_INT32, [], ADDR)


def test_empty_dims_lists_are_a_zero_dim_tensor() -> None:
    """Empty dims lists with count 0 give a 0-dim (scalar) tensor; its element count is 1."""
    t = aclnn.aclCreateTensor([], 0, aclnn.ACL_FLOAT, [], 0, aclnn.ACL_FORMAT_ND, [], 0, ADDR)
    assert t is not None
    assert describe(t) == ([], [], 0, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT, [], ADDR)
    assert t.numel == 1


def test_null_view_only_keeps_the_storage_shape() -> None:
    """A null view with count 0 and a real storage shape: 0-dim view, storage kept."""
    t = aclnn.aclCreateTensor(None, 0, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [8], 1, ADDR)
    assert t is not None
    assert aclnn.aclGetViewShape(t) == ([], 0)
    assert aclnn.aclGetStorageShape(t) == ([8], 0)


@pytest.mark.parametrize(
    ("view", "storage", "strides"),
    [([0], [1], [1]), ([0], [0], [1]), ([3, 0], [0], [0, 1]), ([0, 4], [0, 4], [4, 1])],
)
def test_empty_shapes_are_valid(view: list[int], storage: list[int], strides: list[int]) -> None:
    """A view with a 0 dim is a valid empty tensor with contiguous strides."""
    t = aclnn.aclCreateTensor(
        view, len(view), aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, storage, len(storage), None
    )
    assert t is not None
    assert describe(t) == (view, strides, 0, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT, storage, 0)
    assert t.numel == 0


@pytest.mark.parametrize(
    ("view", "strides", "offset", "storage"),
    [
        ([4, 2], [8, 1], 0, [32]),  # a strided view, inconsistent with nothing checked
        ([4, 4], [1, 4], 0, [16]),  # a transposed view
        ([3], [2], 5, [16]),  # every other element from offset 5
        ([2, 2], [0, 1], 0, [2]),  # a broadcast (zero-stride) view
    ],
)
def test_non_contiguous_views_are_accepted(
    view: list[int], strides: list[int], offset: int, storage: list[int]
) -> None:
    """Strides, offset and storage shape are stored as given, with no consistency check."""
    t = aclnn.aclCreateTensor(
        view, len(view), aclnn.ACL_FLOAT, strides, offset, aclnn.ACL_FORMAT_ND, storage, len(storage), ADDR
    )
    assert t is not None
    assert describe(t) == (view, strides, offset, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT, storage, ADDR)


def test_negative_dims_strides_and_offset_are_stored_verbatim() -> None:
    """Negative dims, strides and offset are not validated (DOC asks for >= 0, IMPL accepts them)."""
    t = aclnn.aclCreateTensor([-2, 3], 2, aclnn.ACL_FLOAT, [-3, -1], -7, aclnn.ACL_FORMAT_ND, [-5], 1, ADDR)
    assert t is not None
    assert describe(t) == ([-2, 3], [-3, -1], -7, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT, [-5], ADDR)


def test_negative_dims_give_contiguous_strides_from_them() -> None:
    """With a null stride the contiguous strides are computed from the negative dims as they are."""
    t = aclnn.aclCreateTensor([2, -3, 4], 3, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [1], 1, ADDR)
    assert t is not None
    assert aclnn.aclGetViewStrides(t) == ([-12, 4, 1], 0)


def test_counts_shorter_than_the_arrays_copy_only_count_values() -> None:
    """Exactly viewDimsNum dims and strides and storageDimsNum storage dims are copied."""
    t = aclnn.aclCreateTensor([2, 3, 4], 2, aclnn.ACL_FLOAT, [3, 1, 99], 0, aclnn.ACL_FORMAT_ND, [6, 7], 1, ADDR)
    assert t is not None
    assert aclnn.aclGetViewShape(t) == ([2, 3], 0)
    assert aclnn.aclGetViewStrides(t) == ([3, 1], 0)
    assert aclnn.aclGetStorageShape(t) == ([6], 0)


def test_numpy_and_tuple_dims_are_accepted() -> None:
    """Dims may be any int sequence: a tuple or a 1-d int64 numpy array."""
    view = np.array([3, 5], dtype=np.int64)
    t = aclnn.aclCreateTensor(view, 2, aclnn.ACL_FLOAT, (5, 1), np.int64(2), aclnn.ACL_FORMAT_ND, (15,), 1, ADDR)
    assert t is not None
    assert describe(t) == ([3, 5], [5, 1], 2, aclnn.ACL_FORMAT_ND, aclnn.ACL_FLOAT, [15], ADDR)


def test_a_caller_array_changed_later_does_not_change_the_tensor() -> None:
    """Dims and strides are copied at creation."""
    view, strides, storage = [2, 4], [4, 1], [8]
    t = aclnn.aclCreateTensor(view, 2, aclnn.ACL_FLOAT, strides, 0, aclnn.ACL_FORMAT_ND, storage, 1, ADDR)
    view[0], strides[0], storage[0] = 99, 99, 99
    assert describe(t)[:2] == ([2, 4], [4, 1])
    assert aclnn.aclGetStorageShape(t) == ([8], 0)


def test_too_short_dims_array_is_reported(emu: process.EmulatedProcess) -> None:
    """A count larger than the dims list is a read past its end: an undefined use is recorded."""
    aclnn.aclCreateTensor([2, 3], 3, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [6], 1, ADDR)
    assert len(emu.diagnostics) == 1
    assert emu.diagnostics[0].api == "aclCreateTensor"
    assert emu.diagnostics[0].site.top is not None
    assert emu.diagnostics[0].site.top.file == __file__


def test_too_short_stride_array_raises_in_strict_mode(emu: process.EmulatedProcess) -> None:
    """In strict mode reading past a too-short stride array raises UndefinedBehaviour."""
    emu.strict = True
    with pytest.raises(UndefinedBehaviour):
        aclnn.aclCreateTensor([2, 3], 2, aclnn.ACL_FLOAT, [3], 0, aclnn.ACL_FORMAT_ND, [6], 1, ADDR)


@pytest.mark.parametrize("dtype", VALID_DTYPES, ids=lambda d: d.name)
def test_every_acl_dtype_round_trips(dtype: aclnn.aclDataType) -> None:
    """Every named aclDataType is stored as the same integer and read back unchanged."""
    t = make_tensor(dtype=dtype)
    assert aclnn.aclGetDataType(t) == (dtype, 0)
    assert t.dtype == int(dtype)


def test_undefined_dtype_is_stored_as_dt_undefined() -> None:
    """ACL_DT_UNDEFINED becomes ge DT_UNDEFINED (28) and reads back as ACL_DT_UNDEFINED (-1)."""
    t = make_tensor(dtype=aclnn.ACL_DT_UNDEFINED)
    assert t.dtype == DT_UNDEFINED
    assert aclnn.aclGetDataType(t) == (-1, 0)


@pytest.mark.parametrize("dtype", [5, 14, 15, 18, 23, 26, 28, 31, 32, 42, 43, 999, -2, 2**31 - 1])
def test_invalid_dtype_integers_are_accepted_and_read_back_undefined(dtype: int) -> None:
    """A dtype integer with no aclDataType is accepted verbatim; aclGetDataType maps it to -1."""
    t = make_tensor(dtype=dtype)
    assert t.dtype == dtype
    assert aclnn.aclGetDataType(t) == (aclnn.ACL_DT_UNDEFINED, 0)


@pytest.mark.parametrize("fmt", VALID_FORMATS, ids=lambda f: f.name)
def test_every_acl_format_round_trips(fmt: aclnn.aclFormat) -> None:
    """Every named aclFormat is stored as the same integer (view and storage) and read back."""
    t = make_tensor(fmt=fmt)
    assert aclnn.aclGetFormat(t) == (fmt, 0)
    assert t.view_format == t.storage_format == t.origin_format == int(fmt)


def test_undefined_format_view_stays_minus_one_storage_becomes_format_max() -> None:
    """ACL_FORMAT_UNDEFINED: the view format keeps -1, the storage/origin formats become FORMAT_MAX."""
    t = make_tensor(fmt=aclnn.ACL_FORMAT_UNDEFINED)
    assert t.view_format == -1
    assert t.storage_format == t.origin_format == FORMAT_MAX
    assert aclnn.aclGetFormat(t) == (aclnn.ACL_FORMAT_UNDEFINED, 0)


@pytest.mark.parametrize("fmt", [5, 6, 13, 100, FORMAT_MAX, 0x1003, 0x10004, -2, 2**31 - 1])
def test_invalid_format_integers_are_accepted_and_read_back_undefined(fmt: int) -> None:
    """A format integer outside the 19 aclFormats (sub-format bits included) is kept and reads back -1."""
    t = make_tensor(fmt=fmt)
    assert t.view_format == fmt
    assert aclnn.aclGetFormat(t) == (aclnn.ACL_FORMAT_UNDEFINED, 0)


@pytest.mark.parametrize("fmt", PRIVATE_FORMATS)
def test_private_formats_are_accepted(fmt: int) -> None:
    """A private format (NC1HWC0, FRACTAL_Z, FRACTAL_NZ …) only warns; the tensor is created."""
    t = make_tensor(fmt=fmt)
    assert aclnn.aclGetFormat(t) == (fmt, 0)


def test_null_data_and_unaligned_data_are_accepted() -> None:
    """tensorData may be null (raw address 0) or not 32-byte aligned."""
    null = make_tensor(addr=None)
    zero = make_tensor(addr=0)
    odd = make_tensor(addr=ADDR + 3)
    assert aclnn.aclGetRawTensorAddr(null) == (0, 0)
    assert aclnn.aclGetRawTensorAddr(zero) == (0, 0)
    assert aclnn.aclGetRawTensorAddr(odd) == (ADDR + 3, 0)


@pytest.mark.parametrize("ndim", [26, 27, 32])
def test_more_than_25_dims_keep_the_count_and_read_int64_min_past_index_24(ndim: int) -> None:
    """Past 25 dims the count is kept but dims at index >= 25 read back as INT64_MIN (view and storage)."""
    dims = list(range(1, ndim + 1))
    t = aclnn.aclCreateTensor(dims, ndim, aclnn.ACL_INT8, None, 0, aclnn.ACL_FORMAT_ND, dims, ndim, ADDR)
    assert t is not None
    expected = dims[:25] + [INT64_MIN] * (ndim - 25)
    assert aclnn.aclGetViewShape(t) == (expected, 0)
    assert aclnn.aclGetStorageShape(t) == (expected, 0)
    strides, ret = aclnn.aclGetViewStrides(t)
    assert ret == 0
    assert len(strides) == ndim


def test_more_than_25_explicit_strides_keep_the_count() -> None:
    """Explicit strides past 25 keep their count; the first 25 are kept as given."""
    dims = [1] * 27
    strides = list(range(100, 127))
    t = aclnn.aclCreateTensor(dims, 27, aclnn.ACL_FLOAT, strides, 0, aclnn.ACL_FORMAT_ND, [1], 1, ADDR)
    assert t is not None
    got, ret = aclnn.aclGetViewStrides(t)
    assert ret == 0
    assert len(got) == 27
    assert got[:25] == strides[:25]


def test_exactly_25_dims_are_kept_intact() -> None:
    """25 dims is the inline capacity: every dim reads back as given."""
    dims = list(range(2, 27))
    t = aclnn.aclCreateTensor(dims, 25, aclnn.ACL_INT8, None, 0, aclnn.ACL_FORMAT_ND, dims, 25, ADDR)
    assert t is not None
    assert aclnn.aclGetViewShape(t) == (dims, 0)
    assert aclnn.aclGetStorageShape(t) == (dims, 0)


def test_a_str_where_dims_go_is_a_type_error() -> None:
    """A mistake the C compiler would catch (a str for a dims array) raises TypeError."""
    with pytest.raises(TypeError):
        aclnn.aclCreateTensor("2,4", 2, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [8], 1, ADDR)


# -- aclCreateScalar ----------------------------------------------------------------------------
@pytest.mark.parametrize(("dtype", "size"), SCALAR_SIZES, ids=[d.name for d, _ in SCALAR_SIZES])
def test_scalar_copies_exactly_its_dtype_bytes(dtype: aclnn.aclDataType, size: int) -> None:
    """For every supported dtype the scalar holds exactly the dtype's bytes of the value."""
    raw = bytes(range(0x41, 0x41 + size))
    s = aclnn.aclCreateScalar(raw, dtype)
    assert isinstance(s, aclnn.aclScalar)
    assert s.data == raw
    assert s.dtype == int(dtype)


@pytest.mark.parametrize(("dtype", "size"), SCALAR_SIZES, ids=[d.name for d, _ in SCALAR_SIZES])
def test_scalar_reads_only_its_dtype_bytes_from_a_longer_value(dtype: aclnn.aclDataType, size: int) -> None:
    """A value longer than the dtype contributes only its first TypeSize bytes."""
    raw = bytes(range(1, 33))
    s = aclnn.aclCreateScalar(raw, dtype)
    assert s is not None
    assert s.data == raw[:size]


@pytest.mark.parametrize(("dtype", "value"), NUMPY_SCALARS, ids=[d.name for d, _ in NUMPY_SCALARS])
def test_scalar_from_a_numpy_value(dtype: aclnn.aclDataType, value: np.generic) -> None:
    """A numpy scalar of the dtype is copied bit for bit and reads back equal."""
    s = aclnn.aclCreateScalar(value, dtype)
    assert s is not None
    assert s.data == value.tobytes()
    assert s.value() == value
    assert s.value().dtype == value.dtype


@pytest.mark.parametrize(
    ("dtype", "value", "expected"),
    [
        (aclnn.ACL_FLOAT, 1.5, np.float32(1.5)),
        (aclnn.ACL_FLOAT16, 0.25, np.float16(0.25)),
        (aclnn.ACL_DOUBLE, 0.1, np.float64(0.1)),
        (aclnn.ACL_INT8, -3, np.int8(-3)),
        (aclnn.ACL_INT64, 2**40, np.int64(2**40)),
        (aclnn.ACL_UINT16, 65535, np.uint16(65535)),
        (aclnn.ACL_BOOL, True, np.bool_(True)),
        (aclnn.ACL_BOOL, False, np.bool_(False)),
        (aclnn.ACL_COMPLEX64, 1 + 2j, np.complex64(1 + 2j)),
        (aclnn.ACL_BF16, 2.0, ml_dtypes.bfloat16(2.0)),
    ],
)
def test_scalar_from_a_python_number(dtype: aclnn.aclDataType, value: object, expected: np.generic) -> None:
    """A Python number is converted to the dtype and stored as that dtype's bytes."""
    s = aclnn.aclCreateScalar(value, dtype)
    assert s is not None
    assert s.data == expected.tobytes()
    assert s.value() == expected


def test_scalar_does_not_follow_later_changes_to_a_numpy_buffer() -> None:
    """The value is copied: writing the caller's numpy buffer afterwards leaves the scalar unchanged."""
    buffer = np.array([2.5], dtype=np.float32)
    from_view = aclnn.aclCreateScalar(memoryview(buffer), aclnn.ACL_FLOAT)
    from_element = aclnn.aclCreateScalar(buffer[0], aclnn.ACL_FLOAT)
    buffer[0] = -9.0
    assert from_view is not None and from_element is not None
    assert from_view.value() == np.float32(2.5)
    assert from_element.value() == np.float32(2.5)
    assert from_view.data == np.float32(2.5).tobytes()


def test_scalar_does_not_follow_later_changes_to_a_bytearray() -> None:
    """The value is copied: mutating the caller's bytearray afterwards leaves the scalar unchanged."""
    raw = bytearray(np.int32(7).tobytes())
    s = aclnn.aclCreateScalar(raw, aclnn.ACL_INT32)
    raw[0] = 0xFF
    assert s is not None
    assert s.value() == np.int32(7)
    assert s.data == b"\x07\x00\x00\x00"


@pytest.mark.parametrize("dtype", UNSUPPORTED_SCALAR_DTYPES, ids=str)
def test_unsupported_scalar_dtype_is_nullptr(emu: process.EmulatedProcess, dtype: int) -> None:
    """ACL_STRING, ACL_INT4, ACL_UINT1, ACL_COMPLEX32, ACL_DT_UNDEFINED and unknown dtypes give nullptr."""
    assert aclnn.aclCreateScalar(bytes(16), dtype) is None
    assert aclnn.aclCreateScalar(1, dtype) is None
    assert emu.registry.count("scalar") == 0


@pytest.mark.parametrize("dtype", [aclnn.ACL_FLOAT, aclnn.ACL_INT64, aclnn.ACL_BOOL, aclnn.ACL_STRING])
def test_null_scalar_value_is_nullptr(emu: process.EmulatedProcess, dtype: int) -> None:
    """A null value gives nullptr whatever the dtype."""
    assert aclnn.aclCreateScalar(None, dtype) is None
    assert emu.registry.count("scalar") == 0


# -- arrays -------------------------------------------------------------------------------------
def test_int_array_copies_size_values() -> None:
    """aclCreateIntArray copies exactly `size` int64s, and later changes to the source do not show."""
    source = [3, -1, 2**62, 7]
    a = aclnn.aclCreateIntArray(source, 3)
    source[0] = 100
    assert isinstance(a, aclnn.aclIntArray)
    assert a.values == (3, -1, 2**62)
    assert aclnn.aclGetIntArraySize(a) == (3, 0)


def test_float_array_rounds_to_float32() -> None:
    """aclCreateFloatArray stores float32 values: 0.1 reads back as float32(0.1)."""
    source = [0.1, 1e-50, 3.0, 3.4028235e38, np.float64(2.2)]
    a = aclnn.aclCreateFloatArray(source, len(source))
    assert isinstance(a, aclnn.aclFloatArray)
    assert a.values == tuple(float(np.float32(v)) for v in source)
    assert a.values[0] != 0.1
    assert a.values[1] == 0.0
    assert a.values[3] == float(np.finfo(np.float32).max)
    assert aclnn.aclGetFloatArraySize(a) == (5, 0)


def test_bool_array_copies_size_values() -> None:
    """aclCreateBoolArray copies exactly `size` bools."""
    a = aclnn.aclCreateBoolArray([True, False, True], 2)
    assert isinstance(a, aclnn.aclBoolArray)
    assert a.values == (True, False)
    assert aclnn.aclGetBoolArraySize(a) == (2, 0)


@pytest.mark.parametrize(
    ("create", "size_of", "values"),
    [
        (aclnn.aclCreateIntArray, aclnn.aclGetIntArraySize, [1, 2]),
        (aclnn.aclCreateFloatArray, aclnn.aclGetFloatArraySize, [1.0, 2.0]),
        (aclnn.aclCreateBoolArray, aclnn.aclGetBoolArraySize, [True, False]),
    ],
    ids=["int", "float", "bool"],
)
@pytest.mark.parametrize(("use_values", "size"), [(False, 0), (False, 5), (True, 0)], ids=["null-0", "null-5", "0"])
def test_null_value_or_zero_size_is_a_valid_empty_array(
    emu: process.EmulatedProcess,
    create: Callable[..., Any],
    size_of: Callable[..., Any],
    values: list[object],
    use_values: bool,
    size: int,
) -> None:
    """A null value (any size) or size 0 gives a non-null, registered, empty array."""
    a = create(values if use_values else None, size)
    assert a is not None
    assert a.values == ()
    assert size_of(a) == (0, 0)
    assert emu.registry.get(a.kind, id(a)) is not None


# -- lists --------------------------------------------------------------------------------------
def test_tensor_list_holds_the_callers_tensors() -> None:
    """The list holds the caller's own tensor objects, not copies; a change through one shows through the other."""
    t1, t2 = make_tensor(), make_tensor([4])
    lst = aclnn.aclCreateTensorList([t1, t2], 2)
    assert isinstance(lst, aclnn.aclTensorList)
    assert lst.values[0] is t1
    assert lst.values[1] is t2
    assert aclnn.aclSetRawTensorAddr(t1, 0x5000) == 0
    assert aclnn.aclGetRawTensorAddr(lst.values[0]) == (0x5000, 0)
    assert aclnn.aclGetTensorListSize(lst) == (2, 0)


def test_scalar_list_holds_the_callers_scalars() -> None:
    """The scalar list holds the caller's own scalar objects."""
    s1, s2 = make_scalar(1.0), make_scalar(2.0)
    lst = aclnn.aclCreateScalarList((s1, s2), 2)
    assert isinstance(lst, aclnn.aclScalarList)
    assert lst.values[0] is s1
    assert lst.values[1] is s2
    assert aclnn.aclGetScalarListSize(lst) == (2, 0)


def test_list_entries_may_be_null_and_are_counted() -> None:
    """Null entries are accepted and counted in the size."""
    t = make_tensor()
    s = make_scalar()
    tensors = aclnn.aclCreateTensorList([None, t, None], 3)
    scalars = aclnn.aclCreateScalarList([s, None], 2)
    assert tensors is not None and scalars is not None
    assert tensors.values == (None, t, None)
    assert scalars.values == (s, None)
    assert aclnn.aclGetTensorListSize(tensors) == (3, 0)
    assert aclnn.aclGetScalarListSize(scalars) == (2, 0)


def test_list_copies_only_size_pointers() -> None:
    """A size smaller than the sequence copies only the first `size` pointers."""
    t1, t2 = make_tensor(), make_tensor()
    lst = aclnn.aclCreateTensorList([t1, t2], 1)
    assert lst is not None
    assert lst.values == (t1,)
    assert aclnn.aclGetTensorListSize(lst) == (1, 0)


@pytest.mark.parametrize(
    ("create", "size_of"),
    [
        (aclnn.aclCreateTensorList, aclnn.aclGetTensorListSize),
        (aclnn.aclCreateScalarList, aclnn.aclGetScalarListSize),
    ],
    ids=["tensor", "scalar"],
)
@pytest.mark.parametrize(("use_values", "size"), [(False, 0), (False, 4), (True, 0)], ids=["null-0", "null-4", "0"])
def test_null_value_or_zero_size_is_a_valid_empty_list(
    create: Callable[..., Any], size_of: Callable[..., Any], use_values: bool, size: int
) -> None:
    """A null value (any size) or size 0 gives a non-null empty list."""
    members = [make_tensor()] if create is aclnn.aclCreateTensorList else [make_scalar()]
    lst = create(members if use_values else None, size)
    assert lst is not None
    assert lst.values == ()
    assert size_of(lst) == (0, 0)


# -- destruction --------------------------------------------------------------------------------
DESTROYS = [
    aclnn.aclDestroyTensor,
    aclnn.aclDestroyScalar,
    aclnn.aclDestroyIntArray,
    aclnn.aclDestroyFloatArray,
    aclnn.aclDestroyBoolArray,
    aclnn.aclDestroyTensorList,
    aclnn.aclDestroyScalarList,
]


@pytest.mark.parametrize("destroy", DESTROYS, ids=lambda f: f.c_name)
def test_destroying_null_is_ok(emu: process.EmulatedProcess, destroy: Callable[..., Any]) -> None:
    """Every destroy function accepts null: 0, nothing happens, nothing is reported."""
    assert destroy(None) == aclnn.ACLNN_SUCCESS
    assert emu.diagnostics == []


def _one_of_each() -> list[tuple[Any, Callable[..., Any]]]:
    """(handle, its destroy function) for one object of every kind."""
    return [
        (make_tensor(), aclnn.aclDestroyTensor),
        (make_scalar(), aclnn.aclDestroyScalar),
        (aclnn.aclCreateIntArray([1, 2], 2), aclnn.aclDestroyIntArray),
        (aclnn.aclCreateFloatArray([1.0], 1), aclnn.aclDestroyFloatArray),
        (aclnn.aclCreateBoolArray([True], 1), aclnn.aclDestroyBoolArray),
        (aclnn.aclCreateTensorList(None, 0), aclnn.aclDestroyTensorList),
        (aclnn.aclCreateScalarList(None, 0), aclnn.aclDestroyScalarList),
    ]


def test_destroying_each_kind_frees_it(emu: process.EmulatedProcess) -> None:
    """Destroying a live object returns 0, marks it dead and removes it from the registry."""
    pairs = _one_of_each()
    assert emu.registry.count() == len(pairs)
    for handle, destroy in pairs:
        assert destroy(handle) == aclnn.ACLNN_SUCCESS
        assert handle.alive is False
        assert emu.registry.get(handle.kind, id(handle)) is None
    assert emu.registry.count() == 0
    assert emu.diagnostics == []


def test_double_destroy_of_each_kind_is_ok_and_reported(emu: process.EmulatedProcess) -> None:
    """A second destroy returns 0 and records one Diagnostic per object naming both sites."""
    pairs = _one_of_each()
    destroyed_at = []
    for handle, destroy in pairs:
        ret, where = destroy(handle), here()
        assert ret == 0
        destroyed_at.append(where)
    for handle, destroy in pairs:
        assert destroy(handle) == aclnn.ACLNN_SUCCESS
    assert len(emu.diagnostics) == len(pairs)
    for diagnostic, (_, destroy), where in zip(emu.diagnostics, pairs, destroyed_at, strict=True):
        assert diagnostic.api == destroy.c_name
        assert "double destroy" in diagnostic.message
        assert diagnostic.created is not None
        assert str(diagnostic.destroyed) == where


def test_double_destroy_names_the_creation_and_destruction_lines(emu: process.EmulatedProcess) -> None:
    """The double-destroy report gives this file's line of the create and of the first destroy."""
    t, created = aclnn.aclCreateTensor(*CREATE_TENSOR_ARGS), here()
    ret, destroyed = aclnn.aclDestroyTensor(t), here()
    assert ret == 0
    ret, again = aclnn.aclDestroyTensor(t), here()
    assert ret == 0
    (diagnostic,) = emu.diagnostics
    assert str(diagnostic.created) == created
    assert str(diagnostic.destroyed) == destroyed
    assert str(diagnostic.site) == again


def test_double_destroy_raises_in_strict_mode(emu: process.EmulatedProcess) -> None:
    """In strict mode a double destroy raises UndefinedBehaviour carrying both sites."""
    s = make_scalar()
    aclnn.aclDestroyScalar(s)
    emu.strict = True
    with pytest.raises(UndefinedBehaviour) as info:
        aclnn.aclDestroyScalar(s)
    assert info.value.diagnostic.created is not None
    assert info.value.diagnostic.destroyed is not None


def test_destroying_a_tensor_does_not_free_its_device_memory(emu: process.EmulatedProcess) -> None:
    """aclDestroyTensor frees the descriptor only: the device buffer stays allocated and freeable."""
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    t = aclnn.aclCreateTensor([16], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [16], 1, ptr)
    assert aclnn.aclDestroyTensor(t) == 0
    assert acl.rt.free(ptr) == 0
    assert acl.rt.reset_device(0) == 0
    assert emu.diagnostics == []


def test_destroying_a_tensor_list_destroys_its_members(emu: process.EmulatedProcess) -> None:
    """aclDestroyTensorList destroys every non-null member (the list owns them)."""
    t1, t2 = make_tensor(), make_tensor()
    lst = aclnn.aclCreateTensorList([t1, None, t2], 3)
    assert emu.registry.count("tensor") == 2
    assert aclnn.aclDestroyTensorList(lst) == 0
    assert (t1.alive, t2.alive, lst.alive) == (False, False, False)  # type: ignore[union-attr]
    assert emu.registry.count() == 0
    assert emu.diagnostics == []


def test_destroying_a_scalar_list_destroys_its_members(emu: process.EmulatedProcess) -> None:
    """aclDestroyScalarList destroys every non-null member (the list owns them)."""
    s1, s2 = make_scalar(), make_scalar()
    lst = aclnn.aclCreateScalarList([s1, s2, None], 3)
    assert aclnn.aclDestroyScalarList(lst) == 0
    assert (s1.alive, s2.alive) == (False, False)
    assert emu.registry.count() == 0
    assert emu.diagnostics == []


def test_destroying_a_member_then_the_list_is_a_double_destroy(emu: process.EmulatedProcess) -> None:
    """Destroying a member yourself and then its list returns 0 and reports the member's double destroy."""
    t, created = aclnn.aclCreateTensor(*CREATE_TENSOR_ARGS), here()
    other = make_tensor()
    lst = aclnn.aclCreateTensorList([t, other], 2)
    ret, destroyed = aclnn.aclDestroyTensor(t), here()
    assert ret == 0
    assert aclnn.aclDestroyTensorList(lst) == 0
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclDestroyTensor"
    assert str(diagnostic.created) == created
    assert str(diagnostic.destroyed) == destroyed
    assert not other.alive
    assert emu.registry.count() == 0


def test_destroying_a_scalar_member_then_the_list_is_a_double_destroy(emu: process.EmulatedProcess) -> None:
    """The same rule holds for scalar lists: both sites of the member are reported."""
    s, created = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT), here()
    lst = aclnn.aclCreateScalarList([s], 1)
    ret, destroyed = aclnn.aclDestroyScalar(s), here()
    assert ret == 0
    assert aclnn.aclDestroyScalarList(lst) == 0
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclDestroyScalar"
    assert (str(diagnostic.created), str(diagnostic.destroyed)) == (created, destroyed)


def test_the_same_tensor_twice_in_one_list_is_destroyed_twice(emu: process.EmulatedProcess) -> None:
    """A tensor placed twice in one list is accepted; destroying the list double-destroys it (reported)."""
    t, created = aclnn.aclCreateTensor(*CREATE_TENSOR_ARGS), here()
    lst = aclnn.aclCreateTensorList([t, t], 2)
    assert lst is not None
    assert aclnn.aclGetTensorListSize(lst) == (2, 0)
    ret, destroyed = aclnn.aclDestroyTensorList(lst), here()
    assert ret == 0
    (diagnostic,) = emu.diagnostics
    assert "double destroy" in diagnostic.message
    assert str(diagnostic.created) == created
    assert str(diagnostic.destroyed) == destroyed
    assert emu.registry.count() == 0


def test_a_tensor_in_two_lists_is_destroyed_twice(emu: process.EmulatedProcess) -> None:
    """A tensor shared by two lists is double-destroyed when both lists are destroyed."""
    t = make_tensor()
    first = aclnn.aclCreateTensorList([t], 1)
    second = aclnn.aclCreateTensorList([t], 1)
    assert aclnn.aclDestroyTensorList(first) == 0
    assert emu.diagnostics == []
    assert aclnn.aclDestroyTensorList(second) == 0
    assert len(emu.diagnostics) == 1
    assert emu.registry.count() == 0


def test_handles_from_a_destroyed_list_are_dead(emu: process.EmulatedProcess) -> None:
    """After the list is destroyed its members are dead: a getter on one reports a use after destroy."""
    t = make_tensor([5])
    lst = aclnn.aclCreateTensorList([t], 1)
    aclnn.aclDestroyTensorList(lst)
    assert aclnn.aclGetViewShape(t) == ([5], 0)
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclGetViewShape"
    assert diagnostic.created is not None and diagnostic.destroyed is not None


def test_destroying_a_list_twice_does_not_touch_the_members_again(emu: process.EmulatedProcess) -> None:
    """A second destroy of a list reports the list only, not its members once more."""
    lst = aclnn.aclCreateTensorList([make_tensor(), make_tensor()], 2)
    aclnn.aclDestroyTensorList(lst)
    assert aclnn.aclDestroyTensorList(lst) == 0
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclDestroyTensorList"


# -- the registry -------------------------------------------------------------------------------
def test_live_count_is_created_minus_destroyed(emu: process.EmulatedProcess) -> None:
    """Per kind, the registry's live count is the number created minus the number destroyed."""
    tensors = [make_tensor() for _ in range(5)]
    scalars = [make_scalar(float(i)) for i in range(4)]
    ints = [aclnn.aclCreateIntArray([i], 1) for i in range(3)]
    floats = [aclnn.aclCreateFloatArray(None, 0) for _ in range(2)]
    bools = [aclnn.aclCreateBoolArray([True], 1) for _ in range(2)]
    tensor_list = aclnn.aclCreateTensorList(tensors[3:], 2)
    scalar_list = aclnn.aclCreateScalarList(scalars[2:], 2)
    expected = {"tensor": 5, "scalar": 4, "int_array": 3, "float_array": 2, "bool_array": 2}
    expected |= {"tensor_list": 1, "scalar_list": 1}
    assert {kind: emu.registry.count(kind) for kind in expected} == expected

    aclnn.aclDestroyTensor(tensors[0])
    aclnn.aclDestroyScalar(scalars[0])
    aclnn.aclDestroyIntArray(ints[0])
    aclnn.aclDestroyFloatArray(floats[0])
    aclnn.aclDestroyBoolArray(bools[0])
    aclnn.aclDestroyTensorList(tensor_list)  # takes tensors[3:] with it
    aclnn.aclDestroyScalarList(scalar_list)  # takes scalars[2:] with it
    expected = {"tensor": 2, "scalar": 1, "int_array": 2, "float_array": 1, "bool_array": 1}
    expected |= {"tensor_list": 0, "scalar_list": 0}
    assert {kind: emu.registry.count(kind) for kind in expected} == expected
    assert emu.registry.count() == sum(expected.values())
    assert emu.registry.created["tensor"] - emu.registry.released["tensor"] == 2


def test_failed_creations_register_nothing(emu: process.EmulatedProcess) -> None:
    """A creator that returns nullptr leaves nothing in the registry."""
    assert aclnn.aclCreateTensor(None, 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, None, 0, ADDR) is None
    assert aclnn.aclCreateScalar(None, aclnn.ACL_FLOAT) is None
    assert aclnn.aclCreateScalar(1, aclnn.ACL_STRING) is None
    assert emu.registry.count() == 0


def test_each_handle_records_this_files_creation_line(emu: process.EmulatedProcess) -> None:
    """Every creator registers its handle with the caller's file:line as the creation site."""
    t, t_at = aclnn.aclCreateTensor(*CREATE_TENSOR_ARGS), here()
    s, s_at = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT), here()
    i, i_at = aclnn.aclCreateIntArray([1, 2], 2), here()
    f, f_at = aclnn.aclCreateFloatArray([1.0], 1), here()
    b, b_at = aclnn.aclCreateBoolArray(None, 0), here()
    tl, tl_at = aclnn.aclCreateTensorList([t], 1), here()
    sl, sl_at = aclnn.aclCreateScalarList([s], 1), here()
    for handle, where in [(t, t_at), (s, s_at), (i, i_at), (f, f_at), (b, b_at), (tl, tl_at), (sl, sl_at)]:
        resource = emu.registry.get(handle.kind, id(handle))  # type: ignore[union-attr]
        assert resource is not None
        assert str(resource.site) == where
        assert resource.site.top is not None and resource.site.top.file == __file__


def test_destroy_records_this_files_line(emu: process.EmulatedProcess) -> None:
    """A destroyed handle is remembered with the caller's file:line as its destruction site."""
    i = aclnn.aclCreateIntArray([1], 1)
    ret, where = aclnn.aclDestroyIntArray(i), here()
    assert ret == 0
    gone = emu.registry.released_resource("int_array", id(i))
    assert gone is not None
    assert str(gone.released_at) == where


@pytest.mark.parametrize(
    "dims",
    [list(range(1, 28)), [2**40, 2**40, 2**40]],
    ids=["27-dims", "huge-dims"],
)
def test_contiguous_strides_are_int64(dims: list[int]) -> None:
    """Contiguous strides computed at creation are int64 values, whatever the dims."""
    t = aclnn.aclCreateTensor(dims, len(dims), aclnn.ACL_INT8, None, 0, aclnn.ACL_FORMAT_ND, [1], 1, ADDR)
    assert t is not None
    strides, ret = aclnn.aclGetViewStrides(t)
    assert ret == 0
    assert len(strides) == len(dims)
    assert all(-(2**63) <= s < 2**63 for s in strides)
