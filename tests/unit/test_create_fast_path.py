"""The create functions' common-case path gives exactly what the general path gives.

aclCreateTensor, aclCreateScalar, aclCreateIntArray and the lists answer their common case in one
step (emulator/aclnn/acl_create.py); the general path behind it is the code that answered every
call before. Each test runs the same call twice in fresh processes — as it is, and with the
common-case helper switched off so that every call takes the general path — and requires the same
object (every field, and plain ints in it), the same registry entries, sanitizer reports, log
events and recent error message. The argument checks' shortcuts (emulator/capi/types.py) are held
to the per-item answer the same way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.aclnn import acl_create
from emulator.capi.ctypes_types import array_count, array_count_in
from emulator.capi.types import array_type, is_integer, scalar_type
from emulator.diagnostics import ReportKind
from emulator.meta.dtypes import SCALAR_BYTES, aclDataType
from emulator.meta.formats import PRIVATE_FORMATS, aclFormat
from emulator.meta.objects import Handle, aclScalarList, aclTensor, aclTensorList
from emulator.tracking import Site

INT64 = (-(1 << 63), (1 << 63) - 1)
_ADDRESS = re.compile(r"0x[0-9a-f]{8,}")  # an object's id: another object in the other run
_STAMP = re.compile(r"\d{4}-\d\d-\d\d-[\d:.]+")  # the recent message's time of day differs between two runs
TENSOR_FIELDS = ("view_shape", "strides", "offset", "view_format", "storage_shape", "origin_shape",
                 "storage_format", "origin_format", "dtype", "raw_addr", "storage_offset", "alive")  # fmt: skip


def _never(*args: object) -> None:
    """A common-case helper that never answers: every call takes the general path."""
    return None


@contextmanager
def _general_path(*helpers: str) -> Iterator[None]:
    with mock.patch.multiple(acl_create, **dict.fromkeys(helpers, _never)):
        yield


def _fields(obj: object) -> object:
    """Everything a handle holds, with the type of each number (the general path stores plain ints)."""
    if not isinstance(obj, Handle):
        return obj
    names = TENSOR_FIELDS if isinstance(obj, aclTensor) else ("dtype", "data", "values", "alive")
    values = [getattr(obj, name) for name in names if hasattr(obj, name)]
    if isinstance(obj, aclTensorList | aclScalarList):  # its members: by what they hold, not who they are
        values = [tuple(_fields(member) for member in obj.values), obj.alive]
    kinds = [tuple(map(type, v)) if isinstance(v, tuple) else type(v) for v in values]
    return type(obj), values, kinds, obj.owner is None


def _run(call: Callable[[], object]) -> tuple[object, ...]:
    """One call in a fresh process: what it returned and everything it left behind."""
    with process.fresh() as proc, capture_logs() as logs:
        result = call()
        live = [(r.kind, r.site.top.func if r.site.top else None, r.owner is not None) for r in proc.registry.live()]
        reports = [(d.kind, d.api, _ADDRESS.sub("<id>", d.message), _top(d.created), _top(d.destroyed))
                   for d in proc.diagnostics]  # fmt: skip
        events = [_ADDRESS.sub("<id>", repr(sorted(event.items()))) for event in logs]
        recent = _STAMP.sub("<when>", acl.get_recent_err_msg() or "")
        return _fields(result), live, reports, events, recent


def _top(site: Site | None) -> object:
    """A site by its user frame (both runs call from the same lines of this file)."""
    return None if site is None or site.top is None else (site.top.func, site.top.line)


def _same_both_ways(call: Callable[[], object], *helpers: str) -> None:
    fast = _run(call)
    with _general_path(*helpers):
        general = _run(call)
    assert fast == general


# -- aclCreateTensor ----------------------------------------------------------------------------
def _int(draw: st.DrawFn) -> int:
    return draw(st.one_of(st.integers(-3, 64), st.integers(*INT64)))


@st.composite
def _int_like(draw: st.DrawFn) -> object:
    """An integer the face accepts: mostly plain, sometimes a numpy integer or an IntEnum member."""
    value = _int(draw)
    return draw(st.sampled_from([value, value, value, np.int64(value), aclDataType.ACL_FLOAT16]))


@st.composite
def _dims(draw: st.DrawFn) -> tuple[object, int]:
    """A dims argument and its count: lists and tuples, numpy arrays, None; counts that match or not."""
    items = draw(st.lists(_int_like(), max_size=28))
    container = draw(st.sampled_from(["list", "list", "tuple", "ndarray", "none"]))
    value: object = {"list": items, "tuple": tuple(items), "none": None}.get(container)
    if container == "ndarray":
        value = np.array([int(v) for v in items], dtype=np.int64)  # type: ignore[call-overload]
    count = draw(st.one_of(st.just(len(items)), st.integers(-1, 30)))
    return value, count


@given(
    view=_dims(),
    storage=_dims(),
    stride=st.one_of(st.none(), _dims()),
    offset=st.integers(*INT64),
    dtype=st.one_of(st.sampled_from(list(aclDataType)), st.integers(-(1 << 31), (1 << 31) - 1)),
    fmt=st.one_of(st.sampled_from([*aclFormat, *PRIVATE_FORMATS]), st.integers(-(1 << 31), (1 << 31) - 1)),
    data=st.one_of(st.none(), st.just(0), st.integers(0, (1 << 64) - 1)),
    same_list=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_create_tensor_common_case_is_the_general_path(
    view: tuple[object, int], storage: tuple[object, int], stride: tuple[object, int] | None,
    offset: int, dtype: int, fmt: int, data: int | None, same_list: bool,
) -> None:  # fmt: skip
    """Same tensor fields, registry entry, reports and log lines for any shapes, strides, offsets, dtypes, formats."""
    stride_value = None if stride is None else stride[0]
    if same_list:  # the caller's one shape list for view and storage, as contiguous tensors are made
        storage = view
    args = (view[0], view[1], dtype, stride_value, offset, fmt, storage[0], storage[1], data)
    _same_both_ways(lambda: aclnn.aclCreateTensor(*args), "plain_dims")


def test_the_common_case_is_taken_for_plain_dims() -> None:
    """The test above compares two different paths: the common case really is answered in one step."""
    with process.fresh(), mock.patch.object(acl_create, "_create_tensor") as general:
        tensor = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, 0x100)
        assert isinstance(tensor, aclTensor) and not general.called
        aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FRACTAL_Z_3D, [2, 4], 2, 0x100)
        assert general.called  # a private format is logged by the general path


# -- aclCreateScalar ----------------------------------------------------------------------------
_values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-70000.0, 70000.0),
    st.integers(-(1 << 70), 1 << 70),
    st.integers(-300, 300),
    st.booleans(),
    st.binary(max_size=20),
    st.complex_numbers(max_magnitude=10.0),
    st.builds(np.float32, st.floats(width=32)),
)


@given(value=_values, dtype=st.sampled_from([*SCALAR_BYTES, 999]))
@settings(max_examples=400, deadline=None)
def test_create_scalar_common_case_is_the_general_path(value: object, dtype: int) -> None:
    """Same bytes, dtype, reports, status and message for floats, ints, bools, bytes into every dtype."""
    _same_both_ways(lambda: aclnn.aclCreateScalar(value, dtype), "plain_bytes")


@pytest.mark.parametrize(
    ("value", "dtype"),
    [(1.0, 0), (-2.5, 11), (0.1, 1), (7, 3), (-1, 9), (255, 4), (3, 0), (1 << 24, 0)],
)
def test_the_common_scalars_skip_numpy(value: object, dtype: int) -> None:
    """Floats and ints into the usual dtypes are converted without the general path."""
    with process.fresh(), mock.patch.object(acl_create, "scalar_bytes") as general:
        assert aclnn.aclCreateScalar(value, dtype) is not None
        assert not general.called


@pytest.mark.parametrize(
    ("value", "dtype"),
    [(float("nan"), 0), (1e300, 0), (1e6, 1), (1 << 64, 9), (1000, 2), ((1 << 24) + 1, 0), (True, 12), (b"\1", 0)],
)
def test_the_unusual_scalars_take_the_general_path(value: object, dtype: int) -> None:
    """NaN, overflow, out-of-range or inexact ints, bools and short bytes are the general path's to decide."""
    with process.fresh(), mock.patch.object(acl_create, "scalar_bytes", return_value=None) as general:
        aclnn.aclCreateScalar(value, dtype)
        assert general.called


# -- arrays and lists ---------------------------------------------------------------------------
@given(value=_dims())
@settings(max_examples=200, deadline=None)
def test_create_int_array_common_case_is_the_general_path(value: tuple[object, int]) -> None:
    _same_both_ways(lambda: aclnn.aclCreateIntArray(*value), "plain_ints")


@given(
    members=st.lists(st.sampled_from(["tensor", "none", "dead"]), max_size=5),
    count=st.one_of(st.none(), st.integers(-1, 7)),
    as_tuple=st.booleans(),
)
@settings(max_examples=150, deadline=None)
def test_create_and_destroy_tensor_list_is_the_general_path(
    members: list[str], count: int | None, as_tuple: bool
) -> None:
    """Lists of live, null and destroyed tensors, any size: same list, owners, reports on create and destroy."""

    def call() -> object:
        made = []
        for kind in members:
            tensor = None
            if kind != "none":
                tensor = aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, [1], 0, 2, [2], 1, 0)
            if kind == "dead":
                aclnn.aclDestroyTensor(tensor)
            made.append(tensor)
        value = tuple(made) if as_tuple else made
        tensors = aclnn.aclCreateTensorList(value, len(made) if count is None else count)
        snapshot = _fields(tensors)
        aclnn.aclDestroyTensorList(tensors)
        return snapshot

    _same_both_ways(call, "plain_members")


def test_a_list_and_its_members_share_the_release_site() -> None:
    """Destroying a list releases each member at the list's destroy line: a later use names that line."""
    with process.fresh() as proc:
        tensor = aclnn.aclCreateTensor([2], 1, aclnn.ACL_FLOAT, [1], 0, 2, [2], 1, 0)
        tensors = aclnn.aclCreateTensorList([tensor], 1)
        line = sys._getframe().f_lineno + 1
        aclnn.aclDestroyTensorList(tensors)
        aclnn.aclGetViewShape(tensor)  # a use after destroy
        aclnn.aclDestroyTensorList(tensors)  # a double destroy
        use, double = proc.diagnostics
        for report in (use, double):
            assert report.destroyed is not None and report.destroyed.top is not None
            assert report.destroyed.top.line == line
        assert (use.kind, double.kind) == (ReportKind.USE_AFTER_DESTROY, ReportKind.DOUBLE_DESTROY)


# -- the argument checks ------------------------------------------------------------------------
_items = st.one_of(
    st.integers(-3, 9),
    st.integers(-(1 << 65), 1 << 65),
    st.booleans(),
    st.floats(-3, 3),
    st.builds(np.int64, st.integers(*INT64)),
    st.builds(np.uint8, st.integers(0, 255)),
    st.just(aclDataType.ACL_INT8),
    st.none(),
    st.text(max_size=1),
)


@given(items=st.lists(_items, max_size=12), as_tuple=st.booleans(), element=st.sampled_from(["int64_t", "uint8_t"]))
@settings(max_examples=500, deadline=None)
def test_int_array_check_is_the_per_item_answer(items: list[object], as_tuple: bool, element: str) -> None:
    """A short or long list of ints, bools, floats, numpy ints, enums, None, str: the same answer as item by item."""
    accepts = array_type(element, True).accepts
    one = scalar_type(element).accepts
    value = tuple(items) if as_tuple else items
    assert accepts(value) is all(one(item) for item in items)


@given(items=st.lists(st.sampled_from(["tensor", "scalar", "none", "int"]), max_size=6))
def test_handle_array_check_is_the_per_item_answer(items: list[str]) -> None:
    with process.fresh():
        made = {
            "tensor": aclnn.aclCreateTensor([1], 1, 0, None, 0, 2, [1], 1, 0),
            "scalar": aclnn.aclCreateScalar(1.0, 0),
            "none": None,
            "int": 5,
        }
        value = [made[name] for name in items]
        expected = all(v is None or isinstance(v, aclTensor) for v in value)
        assert array_type("aclTensor", True).accepts(value) is expected


@given(value=st.one_of(st.integers(-(1 << 65), 1 << 65), st.booleans(), st.sampled_from(list(aclDataType))))
def test_integer_check_takes_enum_members_and_refuses_bools(value: int) -> None:
    accepts = scalar_type("int32_t").accepts
    expected = is_integer(value) and -(1 << 31) <= int(value) <= (1 << 32) - 1
    assert accepts(value) is expected


def test_array_count_in_reads_the_named_arguments() -> None:
    names = ("tensors", "inputCount", "outputCount", "workspace")
    args: tuple[Any, ...] = (0x10, 3, 2, 0)
    for expression in ("inputCount", "inputCount + outputCount"):
        assert array_count_in(expression, names, args) == array_count(expression, dict(zip(names, args, strict=True)))


def test_an_enum_with_a_member_out_of_range_is_checked_member_by_member() -> None:
    """The per-enum shortcut holds only for enums whose every member fits the C type."""

    class Wide(IntEnum):
        SMALL = 1
        HUGE = 1 << 40

    accepts = scalar_type("int32_t").accepts
    assert accepts(Wide.SMALL) and not accepts(Wide.HUGE) and accepts(Wide.SMALL)
    assert accepts(aclDataType.ACL_FLOAT) and accepts(aclDataType.ACL_FLOAT)
    assert not accepts(True)
