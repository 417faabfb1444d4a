"""The matmul family of issue 15 (aclnnMv, ...) end to end against float64 numpy goldens.

Each op: the documented example's values, a non-trivial case (strided views, every dtype path, the
empty shortcuts) and the statuses its real L2 checks, with the aclGetRecentErrMsg text.
"""

from __future__ import annotations

import numpy as np
import pytest
from reduce_helpers import INVALID, NP, NULLPTR, Npu, check, values

from emulator import acl, aclnn

A = aclnn
F32, F16, B16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16


def _mv(npu: Npu, a: np.ndarray, v: np.ndarray, dtype: int, mode: int = 0, strided: bool = False) -> tuple:
    self_t, vec_t = npu.tensor(a, dtype, strided=strided), npu.tensor(v, dtype, strided=strided)
    out = npu.output((a.shape[0],), dtype, strided=strided)
    status, names = npu.run(A.aclnnMvGetWorkspaceSize, A.aclnnMv, self_t.handle, vec_t.handle, out.handle, mode)
    assert status == 0, acl.get_recent_err_msg()
    return out.numpy(), names


def test_mv_documented_example() -> None:
    """The official example: [[1, 2, 3], [4, 5, 6]] x [7, 8, 9] = [50, 122] (cubeMathType 1)."""
    npu = Npu()
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    actual, names = _mv(npu, a, np.array([7, 8, 9], np.float32), F32, mode=1)
    np.testing.assert_array_equal(actual, [50, 122])
    assert names == ["MatMulV3"]


@pytest.mark.parametrize(
    ("dtype", "strided"), [(F32, False), (F16, True), (B16, False)], ids=["f32", "f16-strided", "bf16"]
)
def test_mv_dtypes_and_views(dtype: int, strided: bool) -> None:
    """Each dtype: a float32-accumulated product rounded once; strided views are copied, gaps kept."""
    npu = Npu()
    rng = np.random.default_rng(150)
    a, v = values((37, 300), NP[dtype], rng), values((300,), NP[dtype], rng)
    actual, names = _mv(npu, a, v, dtype, strided=strided)
    check(actual, a.astype(np.float64) @ v.astype(np.float64))
    assert names.count("MatMulV3") == 1 and names.count("AsStrided") == (2 if strided else 0)


def test_mv_empty() -> None:
    """An empty out launches nothing; m == 0 gives zeros through ZerosLike."""
    npu = Npu()
    _, names = _mv(npu, np.zeros((0, 4), np.float32), np.ones(4, np.float32), F32)
    assert names == []
    actual, names = _mv(npu, np.zeros((3, 0), np.float16), np.zeros(0, np.float16), F16)
    np.testing.assert_array_equal(actual, np.zeros(3, np.float16))
    assert names == ["ZerosLike"]


MV_STATUSES = [
    ("null self", lambda t: (None, t((3,)), t((2,)), 0), NULLPTR, "expected self not to be a null pointer"),
    ("null vec", lambda t: (t((2, 3)), None, t((2,)), 0), NULLPTR, "expected vec not to be a null pointer"),
    ("null out", lambda t: (t((2, 3)), t((3,)), None, 0), NULLPTR, "expected out not to be a null pointer"),
    ("out dtype", lambda t: (t((2, 3)), t((3,)), t((2,), F16), 0), INVALID, "out dtype DT_FLOAT16 should be DT_FLOAT"),
    ("self dtype", lambda t: (t((2, 3), F16), t((3,)), t((2,)), 0), INVALID, "self dtype DT_FLOAT16 should be"),
    ("int32", lambda t: (t((2, 3), A.ACL_INT32), t((3,), A.ACL_INT32), t((2,), A.ACL_INT32), 0), INVALID,
     "should be in dtype support list"),
    ("self rank", lambda t: (t((2, 3, 1)), t((3,)), t((2,)), 0), INVALID, "self dim 3 should be 2"),
    ("vec rank", lambda t: (t((2, 3)), t((3, 1)), t((2,)), 0), INVALID, "vec dim 2 should be 1"),
    ("vec size", lambda t: (t((2, 3)), t((4,)), t((2,)), 0), INVALID, "vec shape [4] should be [3]"),
    ("out size", lambda t: (t((2, 3)), t((3,)), t((3,)), 0), INVALID, "out shape [3] should be [2]"),
    ("cubeMathType", lambda t: (t((2, 3)), t((3,)), t((2,)), 5), INVALID, "cubeMathType 5 is not supported"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "status", "text"), [c[1:] for c in MV_STATUSES], ids=[c[0] for c in MV_STATUSES])
def test_mv_statuses(args, status: int, text: str) -> None:  # type: ignore[no-untyped-def]
    """Nulls 161001; dtype, rank, size and cubeMathType 161002, with the real check's text."""
    npu = Npu()

    def t(shape: tuple[int, ...], dtype: int = F32) -> object:
        return npu.output(shape, dtype).handle

    _, executor, ret = A.aclnnMvGetWorkspaceSize(*args(t))
    assert (ret, executor) == (status, None)
    assert text in acl.get_recent_err_msg()
    _, executor, ret = A.aclnnMvGetWorkspaceSize(t((2, 3)), t((3,)), t((2,)), 4)  # 4 is routed to KEEP_DTYPE
    assert ret == 0 and executor is not None
    assert A.aclDestroyAclOpExecutor(executor) == 0
