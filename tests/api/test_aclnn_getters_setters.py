"""aclnn getters, aclInitTensor, raw addresses, executor functions, address setters and aclDumpOpTensors.

Getters give 161001 for null; aclInitTensor replaces shapes only when given with a non-zero count
and keeps the old address for null; the executor functions give 561103 for null and 561000 for
anything that is not an executor; the tensor-address setters update the tensor before they look at
the executor and ignore the index on every executor that is not a Nnopbase one; aclDumpOpTensors
checks its pointers in order and writes the tensors' data when aclInit's config enables dump. A
destroyed handle still works but the use is reported.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import structlog
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.diagnostics import UndefinedBehaviour

ADDR = 0x12_3400_0000
NEW_ADDR = 0x12_3400_8000
DT_UNDEFINED = 28
FORMAT_MAX = 0xFF
ACL_MEMCPY_HOST_TO_DEVICE = 1

NULLPTR = aclnn.ACLNN_ERR_PARAM_NULLPTR
PARAM_INVALID = aclnn.ACLNN_ERR_PARAM_INVALID
INNER = aclnn.ACLNN_ERR_INNER
INNER_NULLPTR = aclnn.ACLNN_ERR_INNER_NULLPTR


def here() -> str:
    """The caller's current line as a Site prints it: "file:line"."""
    frame = sys._getframe(1)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def make_tensor(
    view: list[int] | None = None,
    dtype: int = aclnn.ACL_FLOAT,
    strides: list[int] | None = None,
    offset: int = 0,
    fmt: int = aclnn.ACL_FORMAT_ND,
    storage: list[int] | None = None,
    addr: int | None = ADDR,
) -> aclnn.aclTensor:
    """A tensor; storage defaults to the view shape."""
    view = [2, 3] if view is None else view
    storage = view if storage is None else storage
    t = aclnn.aclCreateTensor(view, len(view), dtype, strides, offset, fmt, storage, len(storage), addr)
    assert t is not None
    return t


@pytest.fixture
def logs() -> Iterator[list[dict[str, Any]]]:
    """Every structlog event of the test, whatever the configured level."""
    old = structlog.get_config()["wrapper_class"]
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG))
    try:
        with capture_logs() as entries:
            yield entries
    finally:
        structlog.configure(wrapper_class=old)


# -- getters -----------------------------------------------------------------------------------
def test_tensor_getters_read_every_field() -> None:
    """Each tensor getter returns its field and 0."""
    t = make_tensor([3, 4], aclnn.ACL_INT16, [1, 3], 5, aclnn.ACL_FORMAT_NCHW, [20], ADDR)
    assert aclnn.aclGetViewShape(t) == ([3, 4], 0)
    assert aclnn.aclGetStorageShape(t) == ([20], 0)
    assert aclnn.aclGetViewStrides(t) == ([1, 3], 0)
    assert aclnn.aclGetViewOffset(t) == (5, 0)
    assert aclnn.aclGetFormat(t) == (aclnn.ACL_FORMAT_NCHW, 0)
    assert aclnn.aclGetDataType(t) == (aclnn.ACL_INT16, 0)
    assert aclnn.aclGetRawTensorAddr(t) == (ADDR, 0)


def test_getter_statuses_are_aclnn_statuses() -> None:
    """The status is the int-compatible AclnnStatus enum."""
    dims, ret = aclnn.aclGetViewShape(make_tensor())
    assert isinstance(ret, aclnn.AclnnStatus)
    assert ret is aclnn.ACLNN_SUCCESS
    assert isinstance(dims, list)


def test_zero_dim_getters_give_empty_lists() -> None:
    """For a 0-dim tensor the shape and stride getters return 0 with empty lists."""
    t = make_tensor([], storage=[])
    assert aclnn.aclGetViewShape(t) == ([], 0)
    assert aclnn.aclGetStorageShape(t) == ([], 0)
    assert aclnn.aclGetViewStrides(t) == ([], 0)


def test_shape_getters_return_a_new_list_each_time() -> None:
    """The returned list is the caller's (like the new[] array): changing it does not change the tensor."""
    t = make_tensor([2, 5])
    dims, _ = aclnn.aclGetViewShape(t)
    dims[0] = 77
    strides, _ = aclnn.aclGetViewStrides(t)
    strides.clear()
    assert aclnn.aclGetViewShape(t) == ([2, 5], 0)
    assert aclnn.aclGetViewStrides(t) == ([5, 1], 0)


def test_array_and_list_size_getters() -> None:
    """The size getters count elements; list sizes count null entries."""
    t = make_tensor()
    s = aclnn.aclCreateScalar(1, aclnn.ACL_INT32)
    assert aclnn.aclGetIntArraySize(aclnn.aclCreateIntArray([1, 2, 3, 4], 4)) == (4, 0)
    assert aclnn.aclGetFloatArraySize(aclnn.aclCreateFloatArray([0.5], 1)) == (1, 0)
    assert aclnn.aclGetBoolArraySize(aclnn.aclCreateBoolArray([True, False, True], 3)) == (3, 0)
    assert aclnn.aclGetTensorListSize(aclnn.aclCreateTensorList([t, None], 2)) == (2, 0)
    assert aclnn.aclGetScalarListSize(aclnn.aclCreateScalarList([None, s, None], 3)) == (3, 0)


GETTERS_OF_LISTS = [aclnn.aclGetViewShape, aclnn.aclGetStorageShape, aclnn.aclGetViewStrides]
GETTERS_OF_NUMBERS = [  # the first three take a tensor
    aclnn.aclGetViewOffset,
    aclnn.aclGetFormat,
    aclnn.aclGetDataType,
    aclnn.aclGetIntArraySize,
    aclnn.aclGetFloatArraySize,
    aclnn.aclGetBoolArraySize,
    aclnn.aclGetTensorListSize,
    aclnn.aclGetScalarListSize,
]


@pytest.mark.parametrize("getter", GETTERS_OF_LISTS, ids=lambda f: f.c_name)
def test_shape_getters_on_null_give_161001(getter: Callable[..., Any]) -> None:
    """A null handle gives ACLNN_ERR_PARAM_NULLPTR and no list."""
    assert getter(None) == (None, NULLPTR)


@pytest.mark.parametrize("getter", GETTERS_OF_NUMBERS, ids=lambda f: f.c_name)
def test_value_getters_on_null_give_161001(getter: Callable[..., Any]) -> None:
    """A null handle gives ACLNN_ERR_PARAM_NULLPTR and a 0 value."""
    assert getter(None) == (0, NULLPTR)
    assert NULLPTR == 161001


@pytest.mark.parametrize("getter", [*GETTERS_OF_LISTS, *GETTERS_OF_NUMBERS], ids=lambda f: f.c_name)
def test_getter_on_the_wrong_handle_type_is_a_type_error(getter: Callable[..., Any]) -> None:
    """A handle of the wrong C type is what the compiler would refuse: TypeError."""
    takes_a_tensor = getter in GETTERS_OF_LISTS or getter in GETTERS_OF_NUMBERS[:3]
    wrong = aclnn.aclCreateBoolArray(None, 0) if takes_a_tensor else make_tensor()
    with pytest.raises(TypeError):
        getter(wrong)


# -- use after destroy --------------------------------------------------------------------------
def test_getter_after_destroy_returns_the_real_result_and_reports_both_sites(emu: process.EmulatedProcess) -> None:
    """A getter on a destroyed tensor returns the stale fields with 0 and records a Diagnostic naming both sites."""
    t, created = aclnn.aclCreateTensor([4, 2], 2, aclnn.ACL_FLOAT, None, 3, aclnn.ACL_FORMAT_ND, [8], 1, ADDR), here()
    ret, destroyed = aclnn.aclDestroyTensor(t), here()
    assert ret == 0
    (dims, ret), used = aclnn.aclGetViewShape(t), here()
    assert (dims, ret) == ([4, 2], 0)
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclGetViewShape"
    assert str(diagnostic.created) == created
    assert str(diagnostic.destroyed) == destroyed
    assert str(diagnostic.site) == used
    assert created in str(diagnostic) and destroyed in str(diagnostic)


@pytest.mark.parametrize(
    ("make", "destroy", "use", "expected"),
    [
        (lambda: make_tensor([7]), aclnn.aclDestroyTensor, aclnn.aclGetViewOffset, (0, 0)),
        (lambda: make_tensor([7]), aclnn.aclDestroyTensor, aclnn.aclGetDataType, (aclnn.ACL_FLOAT, 0)),
        (lambda: make_tensor([7]), aclnn.aclDestroyTensor, aclnn.aclGetRawTensorAddr, (ADDR, 0)),
        (lambda: aclnn.aclCreateIntArray([1, 2], 2), aclnn.aclDestroyIntArray, aclnn.aclGetIntArraySize, (2, 0)),
        (lambda: aclnn.aclCreateFloatArray([1.0], 1), aclnn.aclDestroyFloatArray, aclnn.aclGetFloatArraySize, (1, 0)),
        (lambda: aclnn.aclCreateBoolArray([True], 1), aclnn.aclDestroyBoolArray, aclnn.aclGetBoolArraySize, (1, 0)),
        (lambda: aclnn.aclCreateTensorList(None, 0), aclnn.aclDestroyTensorList, aclnn.aclGetTensorListSize, (0, 0)),
        (lambda: aclnn.aclCreateScalarList(None, 0), aclnn.aclDestroyScalarList, aclnn.aclGetScalarListSize, (0, 0)),
    ],
    ids=lambda v: getattr(v, "c_name", None),
)
def test_every_getter_reports_a_use_after_destroy(
    emu: process.EmulatedProcess,
    make: Callable[[], Any],
    destroy: Callable[..., Any],
    use: Callable[..., Any],
    expected: tuple[int, int],
) -> None:
    """Each getter on a destroyed handle still answers as the real call would, and records one Diagnostic."""
    handle = make()
    destroy(handle)
    assert use(handle) == expected
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == use.c_name  # type: ignore[attr-defined]
    assert diagnostic.created is not None and diagnostic.destroyed is not None


def test_setter_after_destroy_still_sets_and_reports(emu: process.EmulatedProcess) -> None:
    """aclSetRawTensorAddr and aclInitTensor on a destroyed tensor act on the stale object and report the use."""
    t = make_tensor()
    aclnn.aclDestroyTensor(t)
    assert aclnn.aclSetRawTensorAddr(t, NEW_ADDR) == 0
    assert aclnn.aclInitTensor(t, [5], 1, aclnn.ACL_INT8, None, 0, aclnn.ACL_FORMAT_ND, [5], 1, None) == 0
    assert t.raw_addr == NEW_ADDR
    assert t.view_shape == (5,)
    assert [d.api for d in emu.diagnostics] == ["aclSetRawTensorAddr", "aclInitTensor"]


def test_use_after_destroy_raises_in_strict_mode(emu: process.EmulatedProcess) -> None:
    """In strict mode a getter on a destroyed tensor raises UndefinedBehaviour with both sites."""
    t = make_tensor()
    aclnn.aclDestroyTensor(t)
    emu.strict = True
    with pytest.raises(UndefinedBehaviour) as info:
        aclnn.aclGetDataType(t)
    assert info.value.diagnostic.api == "aclGetDataType"
    assert info.value.diagnostic.created is not None
    assert info.value.diagnostic.destroyed is not None


# -- aclInitTensor ------------------------------------------------------------------------------
def test_init_tensor_null_tensor_gives_161001() -> None:
    """A null tensor gives ACLNN_ERR_PARAM_NULLPTR."""
    assert aclnn.aclInitTensor(None, [2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, ADDR) == NULLPTR


def test_init_tensor_replaces_everything_given() -> None:
    """With every argument given, every field is replaced."""
    t = make_tensor([2, 3], aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [6], ADDR)
    ret = aclnn.aclInitTensor(t, [4, 5, 6], 3, aclnn.ACL_INT64, [1, 4, 20], 9, aclnn.ACL_FORMAT_NCL, [200], 1, NEW_ADDR)
    assert ret == 0
    assert aclnn.aclGetViewShape(t) == ([4, 5, 6], 0)
    assert aclnn.aclGetViewStrides(t) == ([1, 4, 20], 0)
    assert aclnn.aclGetViewOffset(t) == (9, 0)
    assert aclnn.aclGetFormat(t) == (aclnn.ACL_FORMAT_NCL, 0)
    assert aclnn.aclGetDataType(t) == (aclnn.ACL_INT64, 0)
    assert aclnn.aclGetStorageShape(t) == ([200], 0)
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)
    assert t.origin_shape == (200,)
    assert t.storage_format == t.origin_format == aclnn.ACL_FORMAT_NCL


@pytest.mark.parametrize(("dims", "count"), [(None, 0), (None, 3), ([7, 8], 0)], ids=["null-0", "null-3", "count-0"])
def test_init_tensor_keeps_the_view_shape_without_dims_or_count(dims: list[int] | None, count: int) -> None:
    """The view shape is replaced only if viewDims is non-null and viewDimsNum > 0; otherwise kept, status 0."""
    t = make_tensor([2, 3], storage=[6])
    assert aclnn.aclInitTensor(t, dims, count, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [6], 1, None) == 0
    assert aclnn.aclGetViewShape(t) == ([2, 3], 0)
    assert aclnn.aclGetViewStrides(t) == ([3, 1], 0)


@pytest.mark.parametrize(("dims", "count"), [(None, 0), (None, 2), ([9], 0)], ids=["null-0", "null-2", "count-0"])
def test_init_tensor_keeps_the_storage_shape_without_dims_or_count(dims: list[int] | None, count: int) -> None:
    """Storage and origin shape are replaced only if storageDims is non-null and storageDimsNum > 0."""
    t = make_tensor([2, 3], storage=[6])
    assert aclnn.aclInitTensor(t, [3, 2], 2, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, dims, count, None) == 0
    assert aclnn.aclGetStorageShape(t) == ([6], 0)
    assert t.origin_shape == (6,)
    assert aclnn.aclGetViewShape(t) == ([3, 2], 0)


def test_init_tensor_null_stride_gives_contiguous_strides_of_the_new_view() -> None:
    """A null stride gives the contiguous strides of the new view shape."""
    t = make_tensor([4, 4], strides=[1, 4])
    assert aclnn.aclInitTensor(t, [2, 3, 4], 3, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert aclnn.aclGetViewStrides(t) == ([12, 4, 1], 0)


def test_init_tensor_null_stride_gives_contiguous_strides_of_the_kept_view() -> None:
    """A null stride with no new view recomputes contiguous strides from the unchanged view shape."""
    t = make_tensor([4, 4], strides=[1, 4])
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert aclnn.aclGetViewShape(t) == ([4, 4], 0)
    assert aclnn.aclGetViewStrides(t) == ([4, 1], 0)


def test_init_tensor_stride_with_count_zero_gives_an_empty_stride_list() -> None:
    """A non-null stride with viewDimsNum 0 copies 0 strides: the stride list becomes empty, the view stays."""
    t = make_tensor([2, 3])
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, [5, 5], 0, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert aclnn.aclGetViewStrides(t) == ([], 0)
    assert aclnn.aclGetViewShape(t) == ([2, 3], 0)


def test_init_tensor_stride_with_null_view_and_a_count_copies_count_strides() -> None:
    """viewDims null with a count keeps the view but still copies viewDimsNum strides."""
    t = make_tensor([2, 3])
    assert aclnn.aclInitTensor(t, None, 2, aclnn.ACL_FLOAT, [1, 2, 99], 0, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert aclnn.aclGetViewShape(t) == ([2, 3], 0)
    assert aclnn.aclGetViewStrides(t) == ([1, 2], 0)


@pytest.mark.parametrize("addr", [None, 0], ids=["None", "0"])
def test_init_tensor_null_address_keeps_the_old_address(addr: int | None) -> None:
    """A null tensorDataAddr does not clear the old raw address."""
    t = make_tensor(addr=ADDR)
    assert aclnn.aclInitTensor(t, [2], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2], 1, addr) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (ADDR, 0)


def test_init_tensor_sets_an_address_on_a_tensor_created_without_one() -> None:
    """A non-null address replaces a null raw address."""
    t = make_tensor(addr=None)
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, None, 0, NEW_ADDR) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)


@pytest.mark.parametrize("offset", [0, 4, -3])
def test_init_tensor_always_replaces_the_offset(offset: int) -> None:
    """The view offset is always set, including back to 0 and to a negative value."""
    t = make_tensor(offset=11)
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, None, offset, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert aclnn.aclGetViewOffset(t) == (offset, 0)


@pytest.mark.parametrize(
    ("fmt", "view", "storage", "read"),
    [
        (aclnn.ACL_FORMAT_NHWC, 1, 1, aclnn.ACL_FORMAT_NHWC),
        (aclnn.ACL_FORMAT_UNDEFINED, -1, FORMAT_MAX, aclnn.ACL_FORMAT_UNDEFINED),
        (aclnn.ACL_FORMAT_FRACTAL_NZ, 29, 29, aclnn.ACL_FORMAT_FRACTAL_NZ),
        (77, 77, 77, aclnn.ACL_FORMAT_UNDEFINED),
    ],
)
def test_init_tensor_always_replaces_the_format(fmt: int, view: int, storage: int, read: int) -> None:
    """The view format is set raw, storage/origin formats through ToOpFormat; the getter maps through ToAclFormat."""
    t = make_tensor(fmt=aclnn.ACL_FORMAT_NCHW)
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, None, 0, fmt, None, 0, None) == 0
    assert t.view_format == view
    assert t.storage_format == t.origin_format == storage
    assert aclnn.aclGetFormat(t) == (read, 0)


@pytest.mark.parametrize(
    ("dtype", "stored", "read"),
    [
        (aclnn.ACL_BF16, 27, aclnn.ACL_BF16),
        (aclnn.ACL_DT_UNDEFINED, DT_UNDEFINED, aclnn.ACL_DT_UNDEFINED),
        (31, 31, aclnn.ACL_DT_UNDEFINED),
        (1234, 1234, aclnn.ACL_DT_UNDEFINED),
    ],
)
def test_init_tensor_always_replaces_the_dtype(dtype: int, stored: int, read: int) -> None:
    """The dtype is always set through ToOpDataType, invalid values included."""
    t = make_tensor(dtype=aclnn.ACL_FLOAT)
    assert aclnn.aclInitTensor(t, None, 0, dtype, None, 0, aclnn.ACL_FORMAT_ND, None, 0, None) == 0
    assert t.dtype == stored
    assert aclnn.aclGetDataType(t) == (read, 0)


def test_init_tensor_with_a_private_format_only_warns(logs: list[dict[str, Any]]) -> None:
    """A private format is accepted by aclInitTensor; a warning is logged."""
    t = make_tensor()
    assert aclnn.aclInitTensor(t, None, 0, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_NC1HWC0, None, 0, None) == 0
    assert aclnn.aclGetFormat(t) == (aclnn.ACL_FORMAT_NC1HWC0, 0)
    warnings = [e for e in logs if e["log_level"] == "warning" and e.get("api") == "aclInitTensor"]
    assert len(warnings) == 1


def test_create_tensor_with_a_private_format_only_warns(logs: list[dict[str, Any]]) -> None:
    """aclCreateTensor warns for a private format and not for a public one."""
    make_tensor(fmt=aclnn.ACL_FORMAT_ND)
    assert [e for e in logs if e["log_level"] == "warning"] == []
    make_tensor(fmt=aclnn.ACL_FORMAT_FRACTAL_Z)
    warnings = [e for e in logs if e["log_level"] == "warning"]
    assert len(warnings) == 1
    assert warnings[0]["api"] == "aclCreateTensor"


def test_init_tensor_more_than_25_dims_reads_int64_min_past_index_24() -> None:
    """aclInitTensor stores shapes like aclCreateTensor: past 25 dims the count is kept, the rest read INT64_MIN."""
    t = make_tensor()
    dims = list(range(1, 28))
    assert aclnn.aclInitTensor(t, dims, 27, aclnn.ACL_INT8, None, 0, aclnn.ACL_FORMAT_ND, dims, 27, None) == 0
    expected = dims[:25] + [-(2**63)] * 2
    assert aclnn.aclGetViewShape(t) == (expected, 0)
    assert aclnn.aclGetStorageShape(t) == (expected, 0)


# -- raw address --------------------------------------------------------------------------------
def test_raw_address_null_tensor_gives_161001() -> None:
    """Both raw-address functions give ACLNN_ERR_PARAM_NULLPTR for a null tensor."""
    assert aclnn.aclSetRawTensorAddr(None, ADDR) == NULLPTR
    _, ret = aclnn.aclGetRawTensorAddr(None)
    assert ret == NULLPTR


def test_set_raw_address_then_get_it() -> None:
    """aclSetRawTensorAddr replaces the raw address; aclGetRawTensorAddr reads it back."""
    t = make_tensor(addr=None)
    assert aclnn.aclGetRawTensorAddr(t) == (0, 0)
    assert aclnn.aclSetRawTensorAddr(t, NEW_ADDR) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)


@pytest.mark.parametrize("addr", [None, 0], ids=["None", "0"])
def test_set_raw_address_to_null_is_allowed(addr: int | None) -> None:
    """A null address is allowed and clears the raw address."""
    t = make_tensor(addr=ADDR)
    assert aclnn.aclSetRawTensorAddr(t, addr) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (0, 0)


@pytest.mark.parametrize(
    ("dtype", "offset", "delta"),
    [
        (aclnn.ACL_FLOAT, 3, 12),
        (aclnn.ACL_FLOAT16, 5, 10),
        (aclnn.ACL_INT8, 7, 7),
        (aclnn.ACL_DOUBLE, 2, 16),
        (aclnn.ACL_COMPLEX128, 1, 16),
        (aclnn.ACL_INT4, 3, 1),  # 12 bits, floor to 1 byte
        (aclnn.ACL_INT4, 4, 2),
        (aclnn.ACL_UINT1, 15, 1),  # 15 bits, floor to 1 byte
        (aclnn.ACL_FLOAT6_E3M2, 4, 3),  # 24 bits
        (aclnn.ACL_STRING, 2, 32),  # TypeSize falls back to 16
        (999, 1, 16),
        (aclnn.ACL_FLOAT, -2, -8),
        (aclnn.ACL_FLOAT, 0, 0),
    ],
)
def test_raw_address_is_not_offset_adjusted_but_the_data_address_is(dtype: int, offset: int, delta: int) -> None:
    """aclGetRawTensorAddr gives the raw address; data_addr = raw + offset × element size (floor for sub-byte)."""
    t = make_tensor([4], dtype=dtype, offset=offset, storage=[64])
    assert aclnn.aclGetRawTensorAddr(t) == (ADDR, 0)
    assert t.data_addr == ADDR + delta
    assert aclnn.aclSetRawTensorAddr(t, NEW_ADDR) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)
    assert t.data_addr == NEW_ADDR + delta


# -- executor functions -------------------------------------------------------------------------
EXECUTOR_FUNCTIONS = [aclnn.aclSetAclOpExecutorRepeatable, aclnn.aclDestroyAclOpExecutor]


@pytest.mark.parametrize("function", EXECUTOR_FUNCTIONS, ids=lambda f: f.c_name)
def test_executor_function_on_null_gives_561103(function: Callable[..., Any]) -> None:
    """A null executor gives ACLNN_ERR_INNER_NULLPTR."""
    assert function(None) == INNER_NULLPTR
    assert INNER_NULLPTR == 561103


@pytest.mark.parametrize("function", EXECUTOR_FUNCTIONS, ids=lambda f: f.c_name)
@pytest.mark.parametrize(
    "thing",
    [lambda: object(), lambda: make_tensor(), lambda: aclnn.aclCreateIntArray([1], 1), lambda: 0x1234],
    ids=["object", "tensor", "int_array", "int"],
)
def test_executor_function_on_a_non_executor_gives_561000(
    emu: process.EmulatedProcess, function: Callable[..., Any], thing: Callable[[], object]
) -> None:
    """An object that is not an executor (no known magic number) gives ACLNN_ERR_INNER."""
    value = thing()
    assert function(value) == INNER
    assert INNER == 561000
    if isinstance(value, aclnn.aclTensor):
        assert value.alive
        assert emu.registry.count("tensor") == 1


# -- tensor-address setters ---------------------------------------------------------------------
SETTERS = [
    aclnn.aclSetInputTensorAddr,
    aclnn.aclSetOutputTensorAddr,
    aclnn.aclSetTensorAddr,
    aclnn.AclSetInputTensorAddr,
    aclnn.AclSetOutputTensorAddr,
    aclnn.AclSetTensorAddr,
]
DYNAMIC_CHECKED = [
    aclnn.aclSetDynamicInputTensorAddr,
    aclnn.aclSetDynamicOutputTensorAddr,
    aclnn.AclSetDynamicInputTensorAddr,
    aclnn.AclSetDynamicOutputTensorAddr,
]
DYNAMIC_UNCHECKED = [aclnn.aclSetDynamicTensorAddr, aclnn.AclSetDynamicTensorAddr]
DYNAMIC = DYNAMIC_CHECKED + DYNAMIC_UNCHECKED


def test_the_twelve_setters_and_their_aliases_exist() -> None:
    """All 12 address setters are exported under their C names, the Acl… aliases as functions of their own."""
    names = [f.c_name for f in SETTERS + DYNAMIC]  # type: ignore[attr-defined]
    assert len(set(names)) == 12
    assert all(name in aclnn.FUNCTIONS for name in names)
    assert aclnn.AclSetTensorAddr is not aclnn.aclSetTensorAddr


@pytest.mark.parametrize("setter", SETTERS, ids=lambda f: f.c_name)
@pytest.mark.parametrize("executor", [None, object()], ids=["null-executor", "executor"])
def test_setter_null_tensor_gives_561103_first(setter: Callable[..., Any], executor: object) -> None:
    """A null tensor gives ACLNN_ERR_INNER_NULLPTR before the executor is looked at."""
    assert setter(executor, 0, None, NEW_ADDR) == INNER_NULLPTR


@pytest.mark.parametrize("setter", SETTERS, ids=lambda f: f.c_name)
def test_setter_updates_the_tensor_even_when_the_executor_is_null(setter: Callable[..., Any]) -> None:
    """With a null executor the status is 561103, but the tensor's raw address was already changed."""
    t = make_tensor(addr=ADDR)
    assert setter(None, 0, t, NEW_ADDR) == INNER_NULLPTR
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)


@pytest.mark.parametrize("setter", SETTERS, ids=lambda f: f.c_name)
@pytest.mark.parametrize("index", [0, 3, 10**9, 2**64 - 1])
@pytest.mark.parametrize("executor", [object(), "tensor"], ids=["object", "a-tensor"])
def test_setter_with_any_non_null_executor_is_ok_and_ignores_the_index(
    setter: Callable[..., Any], index: int, executor: object
) -> None:
    """Any non-null executor that is not a Nnopbase one gives 0 with the index ignored; the address is set."""
    t = make_tensor(addr=ADDR)
    if executor == "tensor":
        executor = make_tensor()
    assert setter(executor, index, t, NEW_ADDR) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)


@pytest.mark.parametrize("setter", SETTERS, ids=lambda f: f.c_name)
def test_setter_sets_the_raw_address_not_the_data_address(setter: Callable[..., Any]) -> None:
    """The setter writes the raw address; the view offset still applies on top of it."""
    t = make_tensor([4], dtype=aclnn.ACL_FLOAT, offset=2, storage=[8])
    assert setter(object(), 0, t, NEW_ADDR) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (NEW_ADDR, 0)
    assert t.data_addr == NEW_ADDR + 8


@pytest.mark.parametrize("setter", SETTERS, ids=lambda f: f.c_name)
def test_setter_with_a_null_address_clears_it(setter: Callable[..., Any]) -> None:
    """A null address is written as given."""
    t = make_tensor(addr=ADDR)
    assert setter(object(), 0, t, None) == 0
    assert aclnn.aclGetRawTensorAddr(t) == (0, 0)


@pytest.mark.parametrize("setter", DYNAMIC, ids=lambda f: f.c_name)
@pytest.mark.parametrize("executor", [None, object()], ids=["null-executor", "executor"])
def test_dynamic_setter_null_list_gives_561103(setter: Callable[..., Any], executor: object) -> None:
    """A null tensor list gives ACLNN_ERR_INNER_NULLPTR first."""
    assert setter(executor, 0, 0, None, NEW_ADDR) == INNER_NULLPTR


@pytest.mark.parametrize("setter", DYNAMIC, ids=lambda f: f.c_name)
@pytest.mark.parametrize(("size", "relative"), [(2, 2), (2, 5), (0, 0), (1, 2**64 - 1)])
@pytest.mark.parametrize("executor", [None, object()], ids=["null-executor", "executor"])
def test_dynamic_setter_relative_index_past_the_list_gives_161002(
    setter: Callable[..., Any], size: int, relative: int, executor: object
) -> None:
    """relativeIndex >= list size gives ACLNN_ERR_PARAM_INVALID before the executor is checked; nothing changes."""
    members = [make_tensor(addr=ADDR) for _ in range(size)]
    lst = aclnn.aclCreateTensorList(members, size)
    assert setter(executor, 0, relative, lst, NEW_ADDR) == PARAM_INVALID
    assert PARAM_INVALID == 161002
    assert all(m.raw_addr == ADDR for m in members)


@pytest.mark.parametrize("setter", DYNAMIC_CHECKED, ids=lambda f: f.c_name)
@pytest.mark.parametrize("executor", [None, object()], ids=["null-executor", "executor"])
def test_dynamic_input_output_setter_null_element_gives_561103(
    emu: process.EmulatedProcess, setter: Callable[..., Any], executor: object
) -> None:
    """A null element gives ACLNN_ERR_INNER_NULLPTR for the Input/Output variants; nothing is reported."""
    t = make_tensor(addr=ADDR)
    lst = aclnn.aclCreateTensorList([t, None], 2)
    assert setter(executor, 0, 1, lst, NEW_ADDR) == INNER_NULLPTR
    assert t.raw_addr == ADDR
    assert emu.diagnostics == []


@pytest.mark.parametrize("setter", DYNAMIC_UNCHECKED, ids=lambda f: f.c_name)
def test_dynamic_tensor_setter_null_element_is_reported(
    emu: process.EmulatedProcess, setter: Callable[..., Any]
) -> None:
    """aclSetDynamicTensorAddr does not check a null element (a crash in C): the emulator reports an undefined use."""
    lst = aclnn.aclCreateTensorList([None], 1)
    setter(object(), 0, 0, lst, NEW_ADDR)
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api.lower() == "aclsetdynamictensoraddr"  # the alias forwards to aclSetDynamicTensorAddr
    assert diagnostic.site.top is not None and diagnostic.site.top.file == __file__


@pytest.mark.parametrize("setter", DYNAMIC_UNCHECKED, ids=lambda f: f.c_name)
def test_dynamic_tensor_setter_null_element_raises_in_strict_mode(
    emu: process.EmulatedProcess, setter: Callable[..., Any]
) -> None:
    """In strict mode the unchecked null element raises UndefinedBehaviour."""
    lst = aclnn.aclCreateTensorList([None], 1)
    emu.strict = True
    with pytest.raises(UndefinedBehaviour):
        setter(object(), 0, 0, lst, NEW_ADDR)


@pytest.mark.parametrize("setter", DYNAMIC, ids=lambda f: f.c_name)
def test_dynamic_setter_updates_the_element_even_when_the_executor_is_null(setter: Callable[..., Any]) -> None:
    """With a null executor: 561103, but the element — the caller's own tensor — was already updated."""
    t0, t1 = make_tensor(addr=ADDR), make_tensor(addr=ADDR)
    lst = aclnn.aclCreateTensorList([t0, t1], 2)
    assert setter(None, 0, 1, lst, NEW_ADDR) == INNER_NULLPTR
    assert aclnn.aclGetRawTensorAddr(t1) == (NEW_ADDR, 0)
    assert aclnn.aclGetRawTensorAddr(t0) == (ADDR, 0)


@pytest.mark.parametrize("setter", DYNAMIC, ids=lambda f: f.c_name)
@pytest.mark.parametrize("ir_index", [0, 7, 2**64 - 1])
def test_dynamic_setter_with_any_non_null_executor_is_ok_and_ignores_ir_index(
    setter: Callable[..., Any], ir_index: int
) -> None:
    """Any non-null, non-Nnopbase executor gives 0 with irIndex ignored; the element is updated."""
    t0, t1 = make_tensor(addr=ADDR), make_tensor(addr=ADDR)
    lst = aclnn.aclCreateTensorList([t0, t1], 2)
    assert setter(object(), ir_index, 0, lst, NEW_ADDR) == 0
    assert (t0.raw_addr, t1.raw_addr) == (NEW_ADDR, ADDR)


@pytest.mark.parametrize(
    ("lower", "upper"),
    [
        (aclnn.aclSetInputTensorAddr, aclnn.AclSetInputTensorAddr),
        (aclnn.aclSetOutputTensorAddr, aclnn.AclSetOutputTensorAddr),
        (aclnn.aclSetTensorAddr, aclnn.AclSetTensorAddr),
    ],
    ids=lambda f: f.c_name,
)
def test_capitalised_aliases_behave_the_same(lower: Callable[..., Any], upper: Callable[..., Any]) -> None:
    """Each Acl… alias gives the same statuses and effects as its acl… function."""
    cases: list[tuple[object, bool]] = [(None, True), (None, False), (object(), True), (object(), False)]
    for executor, with_tensor in cases:
        a, b = make_tensor(addr=ADDR), make_tensor(addr=ADDR)
        got_lower = lower(executor, 5, a if with_tensor else None, NEW_ADDR)
        got_upper = upper(executor, 5, b if with_tensor else None, NEW_ADDR)
        assert got_lower == got_upper
        assert a.raw_addr == b.raw_addr


@pytest.mark.parametrize(
    ("lower", "upper"),
    [
        (aclnn.aclSetDynamicInputTensorAddr, aclnn.AclSetDynamicInputTensorAddr),
        (aclnn.aclSetDynamicOutputTensorAddr, aclnn.AclSetDynamicOutputTensorAddr),
        (aclnn.aclSetDynamicTensorAddr, aclnn.AclSetDynamicTensorAddr),
    ],
    ids=lambda f: f.c_name,
)
def test_capitalised_dynamic_aliases_behave_the_same(lower: Callable[..., Any], upper: Callable[..., Any]) -> None:
    """Each dynamic Acl… alias gives the same statuses and effects as its acl… function."""
    for executor in (None, object()):
        for relative in (0, 1, 2):
            a, b = make_tensor(addr=ADDR), make_tensor(addr=ADDR)
            la = aclnn.aclCreateTensorList([make_tensor(), a], 2)
            lb = aclnn.aclCreateTensorList([make_tensor(), b], 2)
            assert lower(executor, 0, relative, la, NEW_ADDR) == upper(executor, 0, relative, lb, NEW_ADDR)
            assert a.raw_addr == b.raw_addr
        assert lower(executor, 0, 0, None, NEW_ADDR) == upper(executor, 0, 0, None, NEW_ADDR)


# -- aclDumpOpTensors ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("op_type", "op_name", "with_tensors", "stream", "first_null"),
    [
        (None, None, False, None, "opType"),
        (None, "name", True, 0x1234, "opType"),
        ("Add", None, False, None, "opName"),
        ("Add", None, True, 0x1234, "opName"),
        ("Add", "add0", False, None, "tensors"),
        ("Add", "add0", False, 0x1234, "tensors"),
        ("Add", "add0", True, None, "stream"),
        ("Add", "add0", True, 0, "stream"),
    ],
)
def test_dump_null_checks_in_order(
    logs: list[dict[str, Any]],
    op_type: str | None,
    op_name: str | None,
    with_tensors: bool,
    stream: int | None,
    first_null: str,
) -> None:
    """opType, opName, tensors, stream are checked for null in that order; each gives 161001."""
    tensors = [make_tensor()] if with_tensors else None
    assert aclnn.aclDumpOpTensors(op_type, op_name, tensors, 1, 0, stream) == NULLPTR
    (failure,) = [e for e in logs if e["event"] == "api.failed"]
    assert failure["api"] == "aclDumpOpTensors"
    assert f"{first_null} cannot be a NULL pointer" in failure["reason"]


def test_dump_without_dump_config_is_ok() -> None:
    """With no dump enabled the call returns 0 (the real unit test's case: 3 tensors, 2 in, 1 out, stream 0x1234)."""
    tensors = [make_tensor(), make_tensor(), make_tensor()]
    assert aclnn.aclDumpOpTensors("opType", "opName", tensors, 2, 1, 0x1234) == 0


def test_dump_with_an_empty_tensor_list_is_ok() -> None:
    """An empty (non-null) tensor array with zero counts is fine."""
    assert aclnn.aclDumpOpTensors("opType", "opName", [], 0, 0, 0x1234) == 0


def test_dump_writes_the_tensor_data(tmp_path: Path) -> None:
    """With aclInit's dump section, each input/output tensor's data (from raw + view offset) lands in a .npy file."""
    dump_dir = tmp_path / "dump"
    config = tmp_path / "acl.json"
    config.write_text(json.dumps({"dump": {"dump_path": str(dump_dir)}}), encoding="utf-8")
    assert acl.init(str(config)) == 0
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0

    x = np.arange(12, dtype=np.float32) * 1.5
    y = (np.arange(6, dtype=np.float16) - 3).reshape(2, 3)
    x_dev, ret = acl.rt.malloc(x.nbytes, 0)
    assert ret == 0
    y_dev, ret = acl.rt.malloc(y.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy(x_dev, x.nbytes, x.ctypes.data, x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert acl.rt.memcpy(y_dev, y.nbytes, y.ctypes.data, y.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0

    whole = make_tensor([12], aclnn.ACL_FLOAT, storage=[12], addr=x_dev)
    window = make_tensor([2, 2], aclnn.ACL_FLOAT, offset=4, storage=[4], addr=x_dev)  # data at raw + 16 bytes
    out = make_tensor([2, 3], aclnn.ACL_FLOAT16, storage=[2, 3], addr=y_dev)
    assert aclnn.aclDumpOpTensors("Add", "add_0", [whole, window, out], 2, 1, stream) == 0

    files = sorted(p.name for p in dump_dir.iterdir())
    assert files == ["Add.add_0.input.0.npy", "Add.add_0.input.1.npy", "Add.add_0.output.0.npy"]
    np.testing.assert_array_equal(np.load(dump_dir / "Add.add_0.input.0.npy"), x)
    np.testing.assert_array_equal(np.load(dump_dir / "Add.add_0.input.1.npy"), x[4:8])
    dumped_out = np.load(dump_dir / "Add.add_0.output.0.npy")
    assert dumped_out.dtype == np.float16
    np.testing.assert_array_equal(dumped_out, y)

    assert acl.rt.free(x_dev) == 0
    assert acl.rt.free(y_dev) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


def test_dump_with_dump_config_still_checks_nulls_first(tmp_path: Path) -> None:
    """Enabled dump does not change the null checks: a null opType is still 161001 and nothing is written."""
    dump_dir = tmp_path / "dump"
    config = tmp_path / "acl.json"
    config.write_text(json.dumps({"dump": {"dump_path": str(dump_dir)}}), encoding="utf-8")
    assert acl.init(str(config)) == 0
    assert aclnn.aclDumpOpTensors(None, "n", [make_tensor()], 1, 0, 0x1234) == NULLPTR
    assert not dump_dir.exists()
    assert acl.finalize() == 0


def test_dump_of_a_destroyed_tensor_is_reported(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """With dump enabled, dumping a destroyed tensor still writes its data and records a use after destroy."""
    config = tmp_path / "acl.json"
    config.write_text(json.dumps({"dump": {"dump_path": str(tmp_path / "dump")}}), encoding="utf-8")
    assert acl.init(str(config)) == 0
    assert acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    x = np.arange(4, dtype=np.int32)
    x_dev, _ = acl.rt.malloc(x.nbytes, 0)
    assert acl.rt.memcpy(x_dev, x.nbytes, x.ctypes.data, x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    t = make_tensor([4], aclnn.ACL_INT32, addr=x_dev)
    aclnn.aclDestroyTensor(t)
    assert aclnn.aclDumpOpTensors("Abs", "abs", [t], 1, 0, stream) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "dump" / "Abs.abs.input.0.npy"), x)
    (diagnostic,) = emu.diagnostics
    assert diagnostic.api == "aclDumpOpTensors"
    assert diagnostic.created is not None and diagnostic.destroyed is not None


def _enable_dump(tmp_path: Path) -> int:
    """aclInit with a dump section, device 0 set; returns a stream."""
    config = tmp_path / "acl.json"
    config.write_text(json.dumps({"dump": {"dump_path": str(tmp_path / "dump")}}), encoding="utf-8")
    assert acl.init(str(config)) == 0
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    return stream


def test_dump_null_element_is_reported_not_raised(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """A null element in tensors (UB: the record builder dereferences it) is reported, not raised, with dump on."""
    stream = _enable_dump(tmp_path)
    aclnn.aclDumpOpTensors("Add", "add", [None], 1, 0, stream)
    assert [d.api for d in emu.diagnostics] == ["aclDumpOpTensors"]


@pytest.mark.parametrize("dump_on", [True, False], ids=["dump-on", "dump-off"])
def test_dump_tensor_array_shorter_than_the_counts_is_reported(
    emu: process.EmulatedProcess, tmp_path: Path, dump_on: bool
) -> None:
    """Counts larger than the tensors array make the record builder read past its end: an undefined use."""
    stream = _enable_dump(tmp_path) if dump_on else 0x1234
    aclnn.aclDumpOpTensors("Add", "add", [make_tensor(addr=None)], 1, 1, stream)
    assert [d.api for d in emu.diagnostics] == ["aclDumpOpTensors"]
