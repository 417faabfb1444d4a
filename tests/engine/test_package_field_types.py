"""A package JSON field of the wrong JSON type refuses its file, names the field, and phase 1 fails with a status.

Every field the loaders read from an ops-info or binary-config file is given a wrong type in turn.
The reason on the refusal record names the file and the field; the op whose description or
binaries the file held then fails phase 1 as it does when that file is missing (561103 from the
L2, its L0 step having failed with 561000 "does not have any binary"), never with a TypeError,
KeyError or AttributeError from the loader or the key builder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_kernel_mgr import Recorder, call, recorded_op

from emulator import process
from emulator.engine.opp import JsonRefused, read_binary_config
from emulator.engine.opp.ops_info_schema import ops_info_problem
from emulator.kernels.build_opp import write_custom_package

SOCDIR = "ascend910b"
CONFIG = "emu_test_parse.json"
NO_BINARY = 561000  # the L0 step's status: the op has no binary
L0_FAILED = 561103  # the L2's status when its L0 step returned null


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


# (where in binList[0], wrong value, the reason's field and what it should have been)
BIN_FIELDS: list[tuple[tuple[Any, ...], Any, str]] = [
    ((), "x", "binList[0] is a string, not an object"),
    (("binInfo",), 5, "binList[0].binInfo is a number, not an object"),
    (("binInfo", "jsonFilePath"), ["a.json"], "binList[0].binInfo.jsonFilePath is an array, not a string"),
    (("inputs",), 5, "binList[0].inputs is a number, not an array"),
    (("inputs", 0), "x", "binList[0].inputs[0] is a string, not an object, an array or null"),
    (("outputs",), {"y": 1}, "binList[0].outputs is an object, not an array"),
    (("outputs", 0), True, "binList[0].outputs[0] is a boolean, not an object, an array or null"),
    (("attrs",), "none", "binList[0].attrs is a string, not an array"),
    (("implMode",), 1, "binList[0].implMode is a number, not a string"),
    (("staticKey",), [], "binList[0].staticKey is an array, not a string"),
    (("simplifiedKeyMode",), "0", "binList[0].simplifiedKeyMode is a string, not an integer"),
    (("simplifiedKeyMode",), False, "binList[0].simplifiedKeyMode is a boolean, not an integer"),
    (("simplifiedKey",), "k", "binList[0].simplifiedKey is a string, not an array"),
    (("optionalInputMode",), 1, "binList[0].optionalInputMode is a number, not a string"),
    (("dynamicParamMode",), {}, "binList[0].dynamicParamMode is an object, not a string"),
    (("opMode",), 1.5, "binList[0].opMode is a number, not a string"),
    (("inputs", 0, "name"), 1, "binList[0].inputs[0].name is a number, not a string"),
    (("inputs", 0, "index"), "0", "binList[0].inputs[0].index is a string, not an integer"),
    (("inputs", 0, "index"), True, "binList[0].inputs[0].index is a boolean, not an integer"),
    (("inputs", 0, "dtype"), 0, "binList[0].inputs[0].dtype is a number, not a string"),
    (("inputs", 0, "format"), ["ND"], "binList[0].inputs[0].format is an array, not a string"),
    (("inputs", 0, "paramType"), {}, "binList[0].inputs[0].paramType is an object, not a string"),
    (("inputs", 0, "shape"), "[-2]", "binList[0].inputs[0].shape is a string, not an array"),
    (("inputs", 0, "shape", 0), 1.5, "binList[0].inputs[0].shape[0] is a number, not an integer"),
    (("inputs", 0, "shape", 0), True, "binList[0].inputs[0].shape[0] is a boolean, not an integer"),
    (("inputs", 0, "format_match_mode"), 1, "binList[0].inputs[0].format_match_mode is a number, not a string"),
    (("outputs", 0, "dtype_match_mode"), 1, "binList[0].outputs[0].dtype_match_mode is a number, not a string"),
]
# fields inside values the shipped entry does not have: (field, whole value, reason)
BIN_EXTRA: list[tuple[str, Any, str]] = [
    ("attrs", [5], "binList[0].attrs[0] is a number, not an object"),
    ("attrs", [{"name": 1}], "binList[0].attrs[0].name is a number, not a string"),
    ("attrs", [{"name": "a", "dtype": []}], "binList[0].attrs[0].dtype is an array, not a string"),
    ("simplifiedKey", ["a", 1], "binList[0].simplifiedKey[1] is a number, not a string"),
    ("inputs", [[{"dtype": "float"}, 7]], "binList[0].inputs[0][1] is a number, not an object"),
    ("inputs", [[]], "binList[0].inputs[0] is an empty array; a dynamic position lists at least one tensor"),
    ("outputs", [None, []], "binList[0].outputs[1] is an empty array; a dynamic position lists at least one tensor"),
]


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A custom package of the recorded op, written before the process starts (ops-info is read then)."""
    return write_custom_package(tmp_path / "pkg", [recorded_op(Recorder())], (SOCDIR,))


def _config_file(package: Path) -> Path:
    return package / "op_impl" / "ai_core" / "tbe" / "kernel" / "config" / SOCDIR / CONFIG


def _ops_info_file(package: Path) -> Path:
    return package / "op_impl" / "ai_core" / "tbe" / "config" / SOCDIR / f"aic-{SOCDIR}-ops-info.json"


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _phase1(npu_with: Any, package: Path) -> tuple[int, list[int]]:
    """The recorded op's phase-1 status in a process loading ``package``, and its L0 step's statuses."""
    npu = npu_with(custom_opp_paths=(str(package),))
    statuses: list[int] = []
    impl = recorded_op(Recorder())
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl, statuses)
    ret, _, _ = call(npu, phase1, phase2, 8, np_dtype=np.float32)
    assert process.current().registry.count("executor") == 0  # a failed phase 1 leaves no executor
    return ret, statuses


def _refusals(path: Path) -> list[str]:
    packages = process.current().aclnn.packages
    assert packages is not None
    return [r.reason for r in packages.refused if r.path == path]


def test_the_package_as_written_works(npu_with: Any, package: Path) -> None:
    """The control: the unedited package runs phase 1."""
    assert _phase1(npu_with, package) == (0, [0])


@pytest.mark.parametrize(("where", "value", "reason"), BIN_FIELDS, ids=[r for _, _, r in BIN_FIELDS])
def test_a_binary_config_field_of_the_wrong_type(
    npu_with: Any, package: Path, where: tuple[Any, ...], value: Any, reason: str
) -> None:
    path = _config_file(package)
    _edit(path, lambda data: _set(data, ("binList", 0, *where), value))
    with pytest.raises(JsonRefused) as refused:
        read_binary_config(path)
    assert refused.value.reason == f"invalid binary config: {reason}"
    assert _phase1(npu_with, package) == (L0_FAILED, [NO_BINARY])
    assert _refusals(path) == [f"invalid binary config: {reason}"]


@pytest.mark.parametrize(("field", "value", "reason"), BIN_EXTRA, ids=[r for _, _, r in BIN_EXTRA])
def test_a_nested_binary_config_field_of_the_wrong_type(package: Path, field: str, value: Any, reason: str) -> None:
    path = _config_file(package)
    _edit(path, lambda data: _set(data, ("binList", 0, field), value))
    with pytest.raises(JsonRefused) as refused:
        read_binary_config(path)
    assert refused.value.reason == f"invalid binary config: {reason}"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (5, "binList is a number, not an array"),
        ({"0": {}}, "binList is an object, not an array"),
        (None, "binList is missing"),
    ],
)
def test_bin_list_itself_of_the_wrong_type(npu_with: Any, package: Path, value: Any, reason: str) -> None:
    path = _config_file(package)
    _edit(path, lambda data: data.update(binList=value))
    assert _phase1(npu_with, package) == (L0_FAILED, [NO_BINARY])
    assert _refusals(path) == [f"invalid binary config: {reason}"]


def _only_by_op_file(package: Path) -> None:
    """Name the op's binary config so that only ``opFile.value`` in its ops-info leads to it."""
    _config_file(package).rename(_config_file(package).with_name("emu_only_by_op_file.json"))
    _edit(_ops_info_file(package), lambda data: _set(data, ("EmuTestParse", "opFile", "value"), "emu_only_by_op_file"))


def test_op_file_leads_to_the_binary_config(npu_with: Any, package: Path) -> None:
    """The control for the ops-info cases: a good opFile finds the renamed file."""
    _only_by_op_file(package)
    assert _phase1(npu_with, package) == (0, [0])


OPS_INFO_FIELDS: list[tuple[tuple[str, ...], Any, str]] = [
    (("EmuTestParse",), 5, "ops-info EmuTestParse is a number, not an object"),
    (("EmuTestParse", "opFile"), "emu_only_by_op_file", "ops-info EmuTestParse.opFile is a string, not an object"),
    (("EmuTestParse", "opFile", "value"), ["x"], "ops-info EmuTestParse.opFile.value is an array, not a string"),
    (("EmuTestParse", "opFile", "value"), 7, "ops-info EmuTestParse.opFile.value is a number, not a string"),
]


@pytest.mark.parametrize(("where", "value", "reason"), OPS_INFO_FIELDS, ids=[r for _, _, r in OPS_INFO_FIELDS])
def test_an_ops_info_field_of_the_wrong_type(
    npu_with: Any, package: Path, where: tuple[str, ...], value: Any, reason: str
) -> None:
    _only_by_op_file(package)
    path = _ops_info_file(package)
    _edit(path, lambda data: _set(data, where, value))
    assert ops_info_problem(json.loads(path.read_text())) == reason
    assert _phase1(npu_with, package) == (L0_FAILED, [NO_BINARY])
    assert _refusals(path) == [reason]


def test_fields_nothing_reads_may_hold_anything() -> None:
    """Only opFile.value is read; dtype lists, a deleted op (null) and unknown keys are not checked."""
    assert ops_info_problem({"Op": {"input0": 5, "dynamicShapeSupport": [1]}, "Gone": None}) is None
    assert ops_info_problem({"Op": {"opFile": {"value": "op", "extra": 1}}}) is None
