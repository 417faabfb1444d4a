"""A kernel JSON of the wrong shape is refused where it is read, not met as a TypeError in phase 1 or 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_kernel_mgr import Recorder, call, recorded_op

from emulator import process
from emulator.engine.opp.kernel_schema import kernel_json_problem


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"kernelList": 5}, '"kernelList" is a number, not an array'),
        ({"parameters": 5}, '"parameters" is a number, not an array'),
        ({"coreType": ["MIX"]}, '"coreType" is an array, not a string'),
        ({"workspace": "big"}, '"workspace" is a string, not an object'),
        ({"kernelList": [{"kernelName": "k"}, 3]}, '"kernelList"[1] is a number, not an object'),
        ({"parameters": [None, "x"]}, '"parameters"[1] is a string, not an object or null'),
        ({"parameters": [{"dtype": "bogus"}]}, "\"parameters\"[0].dtype 'bogus' is not a data type"),
        (
            {"parameters": [{"dtype": "float32", "init_value": "0"}]},
            '"parameters"[0].init_value is a string, not a number',
        ),
    ],
)
def test_the_wrong_shape_is_named(data: dict[str, Any], problem: str) -> None:
    assert kernel_json_problem(data) == problem


def test_the_shapes_the_package_uses_pass() -> None:
    assert kernel_json_problem({}) is None
    assert kernel_json_problem({"kernelList": [{"kernelName": "a"}], "coreType": "MIX", "taskRation": "1:2"}) is None
    assert kernel_json_problem({"parameters": [None, {"dtype": "float", "init_value": 0}]}) is None


@pytest.mark.parametrize("broken", [{"kernelList": 5}, {"parameters": 5}, {"parameters": [{"dtype": "x"}]}])
def test_an_op_whose_kernel_json_has_the_wrong_shape_fails_with_a_status(
    npu_with: Any, tmp_path: Path, broken: dict[str, Any]
) -> None:
    """Phase 1 answers with a status and the file is on the refusal list; nothing raises, nothing leaks."""
    impl = recorded_op(Recorder())
    npu = npu_with(impl)
    kernel_jsons = [p for p in (tmp_path / "custom_opp").rglob("*.json") if "/kernel/" in p.as_posix()]
    kernel_jsons = [p for p in kernel_jsons if "config" not in p.relative_to(tmp_path).parts]
    assert kernel_jsons
    for path in kernel_jsons:  # read lazily, at the first phase 1: corrupting the files now is in time
        path.write_text(json.dumps({**json.loads(path.read_text()), **broken}))
    statuses: list[int] = []
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl, statuses)
    ret, _, _ = call(npu, phase1, phase2, 8, np_dtype=np.float32)
    assert ret != 0
    packages = process.current().aclnn.packages
    assert packages is not None
    assert any(r.path in kernel_jsons and r.reason == kernel_json_problem(broken) for r in packages.refused)
    assert process.current().registry.count("executor") == 0
