"""Return-code tables: emulator/status.py, configs/return_codes.json and, when the
steering checkout is beside this one, the pyACL return-code tables it holds.

The enums are transcribed from the C headers, the JSON holds the same tables as data, and the
device layer's exceptions carry runtime codes as plain ints; all of them must agree.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from emulator.device import errors as device_errors
from emulator.device.errors import DeviceError
from emulator.status import AclError, AclnnStatus

REPO_ROOT = Path(__file__).resolve().parents[2]
RETURN_CODES = REPO_ROOT / "configs" / "return_codes.json"
PYACL_SPEC = REPO_ROOT.parent / "shared" / "spec" / "pyacl-runtime.md"

# Not in op_errno.h (kernel_utils.h's stale-handle code), so neither the JSON nor the steering checkout's table has it.
EXTRA_MEMBERS = {"ACLNN_ERR_INNER_RUNTIME_INVALID_HANDLE"}

ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*([A-Z][A-Z0-9_]*)\s*\|", re.MULTILINE)


def _json_rows(table: str) -> list[tuple[str, int]]:
    data = json.loads(RETURN_CODES.read_text())
    return [(row["name"], row["value"]) for row in data[table]]


TABLES = [("acl_error", AclError), ("aclnn_status", AclnnStatus)]


@pytest.mark.parametrize(("table", "enum"), TABLES)
def test_every_json_row_is_an_enum_member(table: str, enum: type) -> None:
    """Each row of configs/return_codes.json names a member of the enum with the same value."""
    rows = _json_rows(table)
    assert rows
    for name, value in rows:
        assert name in enum.__members__, f"{name} missing from {enum.__name__}"
        assert int(enum.__members__[name]) == value, name


@pytest.mark.parametrize(("table", "enum"), TABLES)
def test_every_enum_member_is_a_json_row(table: str, enum: type) -> None:
    """Each enum member (aliases included) appears in the JSON with its value, bar the documented extra."""
    rows = set(_json_rows(table))
    for name, member in enum.__members__.items():
        if name in EXTRA_MEMBERS:
            continue
        assert (name, int(member)) in rows, name


def test_json_rows_are_unique() -> None:
    """No name appears twice in a JSON table."""
    for table, _ in TABLES:
        names = [name for name, _ in _json_rows(table)]
        assert len(names) == len(set(names)), table


def test_documented_extra_member() -> None:
    """The one member outside op_errno.h is 561201 and is absent from the JSON."""
    assert AclnnStatus.ACLNN_ERR_INNER_RUNTIME_INVALID_HANDLE == 561201
    names = {name for name, _ in _json_rows("aclnn_status")}
    assert not EXTRA_MEMBERS & names


def test_success_aliases() -> None:
    """ACL_SUCCESS, ACL_ERROR_NONE and ACL_RT_SUCCESS are one value, 0; so is ACLNN_SUCCESS."""
    assert AclError.ACL_SUCCESS == 0
    assert AclError.ACL_ERROR_NONE is AclError.ACL_SUCCESS
    assert AclError.ACL_RT_SUCCESS is AclError.ACL_SUCCESS
    assert AclnnStatus.ACLNN_SUCCESS == 0


def test_key_conflict_alias() -> None:
    """The misspelt ACLNN_ERR_INNER_KEY_CONFILICT and the correct spelling are both 561105."""
    assert AclnnStatus.ACLNN_ERR_INNER_KEY_CONFILICT == 561105
    assert AclnnStatus.ACLNN_ERR_INNER_KEY_CONFLICT is AclnnStatus.ACLNN_ERR_INNER_KEY_CONFILICT


def _spec_section_5() -> dict[str, list[tuple[str, int]]]:
    """The steering checkout's pyACL return-code tables, keyed by subsection heading (else skip)."""
    if not PYACL_SPEC.is_file():
        pytest.skip(f"{PYACL_SPEC} is not present")
    text = PYACL_SPEC.read_text()
    start = text.index("\n## 5.")
    end = text.index("\n## ", start + 1)
    tables: dict[str, list[tuple[str, int]]] = {}
    for chunk in text[start:end].split("\n### ")[1:]:
        heading = chunk.splitlines()[0]
        tables[heading] = [(name, int(value)) for value, name in ROW.findall(chunk)]
    return tables


def test_spec_section_5_matches_json() -> None:
    """The steering checkout's return-code rows equal the JSON: the op_errno.h table is aclnn, the rest aclError."""
    tables = _spec_section_5()
    aclnn = [rows for heading, rows in tables.items() if heading.startswith("5.4")]
    assert len(aclnn) == 1
    acl = [row for heading, rows in tables.items() if not heading.startswith("5.4") for row in rows]
    assert len(acl) == len(set(acl))
    assert set(acl) == set(_json_rows("acl_error"))
    assert set(aclnn[0]) == set(_json_rows("aclnn_status"))


def test_spec_runtime_codes_of_device_errors() -> None:
    """The runtime codes the device layer uses are in the steering checkout's rt_error_codes.h table."""
    tables = _spec_section_5()
    runtime = [rows for heading, rows in tables.items() if heading.startswith("5.2")]
    assert len(runtime) == 1
    values = {value for _, value in runtime[0]}
    for cls in _device_error_classes():
        assert cls.status in values, cls.__name__


def _device_error_classes() -> list[type[DeviceError]]:
    return [
        cls
        for _, cls in inspect.getmembers(device_errors, inspect.isclass)
        if issubclass(cls, DeviceError) and cls.__module__ == device_errors.__name__
    ]


def test_every_device_error_status_is_an_acl_error() -> None:
    """Each DeviceError subclass's status is a value of AclError, and its class attribute is an int."""
    classes = _device_error_classes()
    assert DeviceError in classes
    assert len(classes) > 10
    for cls in classes:
        assert type(cls.status) is int, cls.__name__
        assert cls.status in AclError._value2member_map_, f"{cls.__name__}: {cls.status}"


@pytest.mark.parametrize(
    ("cls_name", "member"),
    [
        ("InvalidValue", AclError.ACL_ERROR_RT_PARAM_INVALID),
        ("InvalidHandle", AclError.ACL_ERROR_RT_INVALID_HANDLE),
        ("FeatureNotSupported", AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
        ("OutOfMemory", AclError.ACL_ERROR_RT_MEMORY_ALLOCATION),
        ("NoStreamResource", AclError.ACL_ERROR_RT_NO_STREAM_RESOURCE),
        ("NoEventResource", AclError.ACL_ERROR_RT_NO_EVENT_RESOURCE),
        ("StreamSyncTimeout", AclError.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT),
        ("EventSyncTimeout", AclError.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT),
        ("EventTimestampInvalid", AclError.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID),
        ("EventNotRecorded", AclError.ACL_ERROR_RT_INTERNAL_ERROR),
        ("InvalidAddress", AclError.ACL_ERROR_RT_DRV_INTERNAL_ERROR),
        ("TaskFailed", AclError.ACL_ERROR_RT_AICORE_EXCEPTION),
        ("UnifiedBufferOverflow", AclError.ACL_ERROR_RT_AICORE_EXCEPTION),
        ("AicpuException", AclError.ACL_ERROR_RT_AICPU_EXCEPTION),
        ("ContextNull", AclError.ACL_ERROR_RT_CONTEXT_NULL),
    ],
)
def test_device_error_maps_to_the_spec_code(cls_name: str, member: AclError) -> None:
    """Each device exception carries the runtime code the real runtime gives its failure."""
    cls = getattr(device_errors, cls_name)
    assert cls.status == member
    assert cls("x").status == member
