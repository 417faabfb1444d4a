"""The attention family (issue 15): aclnnRotaryPositionEmbedding, aclnnFlashAttentionScore and
aclnnFusedInferAttentionScoreV2 end to end.

Per op: the official example's values, each kernel path (mode, layout, mask kind) on small shapes
against a float64 numpy golden under the precision standard, strided inputs, the empty case, and
every status the real code gives with its aclGetRecentErrMsg text. Attention is checked against a
plain softmax(Q·Kᵀ·scale + mask)·V reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, random_values, run_op, to_device
from device_helpers import SESSIONS

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
NULLPTR, INVALID, INFERSHAPE, TILING = 161001, 161002, 561001, 561002


def assert_rejected(result: tuple[Any, ...], code: int, text: str) -> None:
    """Phase 1 failed with ``code`` and left ``text`` in aclGetRecentErrMsg."""
    assert result[-1] == code, acl.get_recent_err_msg()
    assert text in acl.get_recent_err_msg()


# -- aclnnRotaryPositionEmbedding ----------------------------------------------------------------------
def rope64(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, mode: int) -> np.ndarray:
    """The documented formulas of the four modes, in float64."""
    x, cos, sin = (v.astype(np.float64) for v in (x, cos, sin))
    d = x.shape[-1]
    if mode == 0:
        x1, x2 = x[..., : d // 2], x[..., d // 2 :]
        return x * cos + np.concatenate((-x2, x1), -1) * sin
    if mode == 1:
        x1, x2 = x[..., ::2], x[..., 1::2]
        rotated = np.stack((-x2, x1), -1).reshape(x.shape)
        return x * cos + rotated * sin
    if mode == 2:
        q = d // 4
        parts = (-x[..., q : 2 * q], x[..., :q], -x[..., 3 * q :], x[..., 2 * q : 3 * q])
        return x * cos + np.concatenate(parts, -1) * sin
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.concatenate((x1, x2), -1) * cos + np.concatenate((-x2, x1), -1) * sin


def run_rope(stream: int, x: np.ndarray, cos: np.ndarray, sin: np.ndarray, mode: int, dtype: int,
             strided: bool = False) -> None:  # fmt: skip
    out = empty_out(x.shape, dtype, strided=strided)
    handles = [to_device(v, dtype, strided=strided).handle for v in (x, cos, sin)]
    run_op(A.aclnnRotaryPositionEmbeddingGetWorkspaceSize, A.aclnnRotaryPositionEmbedding, stream, *handles, mode,
           out.handle)  # fmt: skip
    check(out, rope64(x, cos, sin, mode))


def test_rope_documented_example(stream: int) -> None:
    """The official example: 1x1x1x128 float32, interleave mode, integer-valued inputs."""
    rng = np.random.default_rng(0)
    x, cos, sin = (rng.integers(1, 129, (1, 1, 1, 128)).astype(np.float32) for _ in range(3))
    run_rope(stream, x, cos, sin, 1, D.DT_FLOAT)


@pytest.mark.parametrize(
    ("dtype", "mode", "x_shape", "r_shape"),
    [
        (D.DT_FLOAT16, 0, (2, 3, 4, 64), (1, 3, 1, 64)),  # BSND with a 1S1D table
        (D.DT_BF16, 0, (2, 4, 5, 32), (2, 1, 5, 32)),  # BNSD with B1SD
        (D.DT_FLOAT, 0, (3, 2, 2, 16), (3, 2, 2, 16)),  # no broadcast
        (D.DT_FLOAT, 1, (2, 5, 3, 8), (1, 5, 1, 8)),  # interleave, BSND
        (D.DT_FLOAT16, 1, (4, 2, 3, 16), (4, 1, 1, 16)),  # interleave, SBND
    ],
    ids=ident,
)
def test_rope_modes_and_layouts(stream: int, dtype: int, mode: int, x_shape: tuple, r_shape: tuple) -> None:
    rng = np.random.default_rng(mode)
    x = random_values(dtype, x_shape, rng)
    angles = rng.uniform(-3, 3, r_shape)
    run_rope(stream, x, np.cos(angles), np.sin(angles), mode, dtype, strided=dtype == D.DT_FLOAT16)


def test_rope_regbase_modes() -> None:
    """Quarter and interleave-half exist on the Ascend 950 only."""
    with process.fresh(Settings(soc="Ascend950PR_9599")), npu.Session() as session:
        assert session.stream is not None
        SESSIONS.append(session)
        rng = np.random.default_rng(3)
        for mode in (2, 3):
            x, angles = rng.uniform(-2, 2, (1, 3, 2, 16)), rng.uniform(-3, 3, (1, 3, 1, 16))
            run_rope(int(session.stream), x, np.cos(angles), np.sin(angles), mode, D.DT_FLOAT)
        SESSIONS.remove(session)


def test_rope_empty_and_statuses(stream: int) -> None:
    """Empty x: nothing launched (not held to the shape rules). Null 161001, dtypes 161002, out's shape
    561001, every tiling refusal 561002."""
    f = D.DT_FLOAT
    api = A.aclnnRotaryPositionEmbeddingGetWorkspaceSize
    e = empty_out((0, 2, 2, 8), f).handle
    ws, executor, ret = api(e, empty_out((1, 1, 3), f).handle, empty_out((1, 1, 3), f).handle, 0, e)
    assert (ws, ret) == (0, 0) and executor.launchers == []

    def t(shape: tuple, dtype: int = f) -> Any:
        return empty_out(shape, dtype).handle

    x, r = t((1, 2, 2, 8)), t((1, 2, 1, 8))
    assert_rejected(api(None, r, r, 0, x), NULLPTR, "x")
    assert_rejected(api(x, r, None, 0, x), NULLPTR, "sin")
    assert_rejected(api(x, t((1, 2, 1, 8), D.DT_FLOAT16), r, 0, x), INVALID, "not a supported combination")
    assert_rejected(api(t((1, 2, 2, 8), D.DT_INT32), r, r, 0, t((1, 2, 2, 8), D.DT_INT32)), INVALID, "combination")
    assert_rejected(api(x, r, r, 0, t((1, 2, 2, 4))), INFERSHAPE, "out must be [1, 2, 2, 8]")
    cases = [
        (x, r, r, 2, x, "mode 2 is not supported"),
        (x, r, r, 7, x, "mode 7 is not supported"),
        (t((2, 2, 8)), t((2, 1, 8)), t((2, 1, 8)), 0, t((2, 2, 8)), "must be 4-dimensional"),
        (t((1, 1, 1, 898)), t((1, 1, 1, 898)), t((1, 1, 1, 898)), 0, t((1, 1, 1, 898)), "less than 896"),
        (t((1, 1, 1, 7)), t((1, 1, 1, 7)), t((1, 1, 1, 7)), 0, t((1, 1, 1, 7)), "even number"),
        (x, r, t((1, 1, 1, 8)), 0, x, "cos shape and sin shape should be equal"),
        (x, t((1, 2, 1, 4)), t((1, 2, 1, 4)), 0, x, "get x [8] and cos [4]"),
        (x, t((1, 3, 1, 8)), t((1, 3, 1, 8)), 0, x, "is not supported"),
        (t((2, 2, 2, 8)), t((1, 1, 1, 8)), t((1, 1, 1, 8)), 1, t((2, 2, 2, 8)), "is not supported"),  # interleave needs x's S axis
    ]
    for xi, ci, si, mode, oi, text in cases:
        assert_rejected(api(xi, ci, si, mode, oi), TILING, text)
