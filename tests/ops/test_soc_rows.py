"""The per-SoC dtype rows of the reduction / scan / sort / norm / gated ops: each op's check on Ascend310P
(no bfloat16), on A2 (bfloat16) and, where the real L2 takes a RegBase branch, on the Ascend 950
(its own lists: uint16 for ArgMax, the unsigned types for Topk / Sort / Argsort; Norm's dtype and cast
checks; Argsort's bfloat16 axis of length 1 allowed). Each case is one phase 1, so the table is cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType, numpy_dtype

D = DataType
A2, P310, A950 = "Ascend910B2", "Ascend310P3", "Ascend950PR_9599"
INVALID = 161002
Make = Callable[[int, tuple[int, ...]], Any]


def _calls(t: Make, dtype: int) -> dict[str, tuple[Any, ...]]:
    """Each op's phase-1 arguments with ``dtype`` for its data tensors (self and same-dtype outputs)."""
    i64, f32 = D.DT_INT64, D.DT_FLOAT
    p = aclnn.aclCreateScalar(np.float32(2).tobytes(), f32)
    return {
        "aclnnArgMax": (t(dtype, (2, 3)), 0, False, t(i64, (3,))),
        "aclnnArgsort": (t(dtype, (2, 3)), 0, False, t(i64, (2, 3))),
        "aclnnSort": (t(dtype, (2, 3)), False, 0, False, t(dtype, (2, 3)), t(i64, (2, 3))),
        "aclnnTopk": (t(dtype, (2, 3)), 1, 0, True, True, t(dtype, (1, 3)), t(i64, (1, 3))),
        "aclnnCumsumV2": (t(dtype, (2, 3)), 0, False, False, t(dtype, (2, 3))),
        "aclnnGroupNorm": (
            t(dtype, (2, 4, 3)),
            None,
            None,
            2,
            4,
            3,
            2,
            1e-5,
            t(dtype, (2, 4, 3)),
            t(dtype, (2, 2)),
            t(dtype, (2, 2)),
        ),
        "aclnnAddRmsNorm": (
            t(dtype, (2, 4)),
            t(dtype, (2, 4)),
            t(dtype, (4,)),
            1e-6,
            t(dtype, (2, 4)),
            t(f32, (2, 1)),
            t(dtype, (2, 4)),
        ),
        "aclnnGeGluV3": (t(dtype, (2, 4)), -1, 1, False, t(dtype, (2, 2)), t(dtype, (2, 2))),
        "aclnnNorm": (t(dtype, (2, 3)), p, aclnn.aclCreateIntArray([1], 1), False, t(dtype, (2,))),
    }


def _statuses(soc: str, dtype: int, ops: tuple[str, ...]) -> dict[str, tuple[int, str]]:
    """Phase 1 of each op on ``soc``: its status and recent error message."""
    found: dict[str, tuple[int, str]] = {}
    with process.fresh(Settings(soc=soc)), npu.Session() as session:

        def make(dt: int, shape: tuple[int, ...]) -> Any:
            host = numpy_dtype(dt) or np.dtype(np.float32)
            return session.tensor(np.ones(shape, host), dt).handle

        calls = _calls(make, dtype)
        for api in ops:
            ret = int(getattr(aclnn, f"{api}GetWorkspaceSize")(*calls[api])[2])
            found[api] = (ret, acl.get_recent_err_msg() if ret else "")
    return found


BF16_OPS = ("aclnnArgMax", "aclnnArgsort", "aclnnTopk", "aclnnCumsumV2", "aclnnGroupNorm", "aclnnAddRmsNorm",
            "aclnnGeGluV3", "aclnnSort")  # fmt: skip


@pytest.mark.parametrize("soc", [A2, P310])
def test_bfloat16_row_per_soc(soc: str) -> None:
    """bfloat16 passes every op's check on A2 and fails it on 310P, with the op's dtype text (Sort keeps one
    list off the RegBase parts, so there the graph step fails instead)."""
    for api, (ret, message) in _statuses(soc, D.DT_BF16, BF16_OPS).items():
        if soc == A2:
            assert ret == 0, (api, message)
        elif api == "aclnnSort":  # one list on every non-RegBase part: the check passes, 310P's Cast step fails
            assert ret == 161001, (api, message)
        else:
            assert ret == INVALID, api
            assert "DT_BF16 should be in dtype support list" in message, (api, message)


def test_regbase_rows() -> None:
    """The 950's own lists: uint16 for ArgMax / Argsort / Sort / Topk (refused on A2); Norm refuses int32
    there (A2 computes it through Cast); a bfloat16 Argsort of a length-1 axis passes only there."""
    ops = ("aclnnArgMax", "aclnnArgsort", "aclnnSort", "aclnnTopk")
    on_a2, on_950 = _statuses(A2, D.DT_UINT16, ops), _statuses(A950, D.DT_UINT16, ops)
    for api in ops:
        assert on_a2[api][0] == INVALID and "DT_UINT16" in on_a2[api][1], api
        assert on_950[api][0] != INVALID, (api, on_950[api])
    assert _statuses(A2, D.DT_INT32, ("aclnnNorm",))["aclnnNorm"][0] == 0
    ret, message = _statuses(A950, D.DT_INT32, ("aclnnNorm",))["aclnnNorm"]
    assert ret == INVALID and "self dtype DT_INT32" in message
    for soc, expected in ((A2, INVALID), (A950, 0)):
        with process.fresh(Settings(soc=soc)), npu.Session() as session:
            x = session.tensor(np.ones((3, 1), np.float32), D.DT_BF16).handle
            out = session.tensor(np.zeros((3, 1), np.int64), D.DT_INT64).handle
            assert int(aclnn.aclnnArgsortGetWorkspaceSize(x, 1, False, out)[2]) == expected, soc
