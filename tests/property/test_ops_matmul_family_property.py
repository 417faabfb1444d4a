"""Property: the matmul family on random sizes and parameters never raises, fails only with the
statuses its real L2 code returns, and matches the float64 golden when it succeeds: Mv (any dtype of
the Cube list, mismatched vec sizes refused), TriangularSolve (random triangular systems, upper or
lower, transposed or not), WeightQuantBatchMatmulV2 (int8 / int4, per-channel or per-group scales,
group sizes that are or are not valid) and the weight-size rule of aclnnCalculateMatmulWeightSizeV2.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, npu, process
from emulator.testing.precision import assert_precision

A = aclnn
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _run(s: npu.Session, name: str, *args: object) -> int:
    ws, executor, ret = getattr(A, f"{name}GetWorkspaceSize")(*args)
    assert ret in (0, 161002), (name, ret, acl.get_recent_err_msg())
    if ret != 0:
        assert acl.get_recent_err_msg(), "a refusal leaves an error message"
        return int(ret)
    workspace = s.malloc(ws).addr if ws else 0
    assert getattr(A, name)(workspace, ws, executor, s.stream) == 0
    s.synchronize()
    return 0


@FAST
@given(n=st.integers(0, 40), m=st.integers(0, 40), extra=st.integers(0, 1), seed=st.integers(0, 2**16))
def test_mv(n: int, m: int, extra: int, seed: int) -> None:
    """self (n, m) x vec (m + extra): the product, zeros for m == 0, or 161002 for a wrong vec size."""
    rng = np.random.default_rng(seed)
    a, v = rng.uniform(-2, 2, (n, m)).astype(np.float32), rng.uniform(-2, 2, m + extra).astype(np.float32)
    with process.fresh(), npu.Session() as s:
        out = s.tensor(np.full(n, 7, np.float32), A.ACL_FLOAT)
        status = _run(s, "aclnnMv", s.tensor(a, A.ACL_FLOAT).handle, s.tensor(v, A.ACL_FLOAT).handle, out.handle, 0)
        assert status == (161002 if extra else 0)
        if status == 0 and n:
            assert_precision(out.numpy(), a.astype(np.float64) @ v.astype(np.float64))


@FAST
@given(m=st.integers(1, 8), cols=st.integers(1, 3), upper=st.booleans(), transpose=st.booleans(),
       seed=st.integers(0, 2**16))  # fmt: skip
def test_triangular_solve(m: int, cols: int, upper: bool, transpose: bool, seed: int) -> None:
    """A well-conditioned triangle: x solves tri(A) x = b (or its transpose) to the precision standard."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, m)) + 3 * np.eye(m)
    b = rng.uniform(-2, 2, (m, cols))
    tri = np.triu(a) if upper else np.tril(a)
    gold = np.linalg.solve(tri.T if transpose else tri, b)
    with process.fresh(), npu.Session() as s:
        x = s.tensor(np.zeros((m, cols)), A.ACL_DOUBLE)
        args = (s.tensor(b, A.ACL_DOUBLE).handle, s.tensor(a, A.ACL_DOUBLE).handle, upper, transpose, False)
        assert _run(s, "aclnnTriangularSolve", *args, x.handle, None) == 0
        assert_precision(x.numpy(), gold)


@FAST
@given(m=st.integers(1, 4), k=st.sampled_from([32, 64, 96, 128]), n=st.sampled_from([2, 16, 30]),
       int4=st.booleans(), group=st.sampled_from([0, 32, 48, 64, 128]), seed=st.integers(0, 2**16))  # fmt: skip
def test_weight_quant_batch_matmul(m: int, k: int, n: int, int4: bool, group: int, seed: int) -> None:
    """Per-channel (group 0) or per-group scales: x @ (w * scale) in float64, or 161002 for a bad group size."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    w = rng.integers(-8, 8, (k, n)).astype(np.int8)
    groups = -(-k // group) if group else 1
    scale = rng.uniform(0.01, 0.1, (groups, n)).astype(np.float16)
    valid = group == 0 or (group % 32 == 0 and group < k)
    with process.fresh(), npu.Session() as s:
        if int4:
            flat = (w.reshape(-1).astype(np.int16) & 0xF).astype(np.uint8)
            data = s.tensor(flat[0::2] | (flat[1::2] << 4), A.ACL_UINT8)
        else:
            data = s.tensor(w, A.ACL_INT8)
        dtype = A.ACL_INT4 if int4 else A.ACL_INT8
        weight = A.aclCreateTensor([k, n], 2, dtype, [n, 1], 0, A.ACL_FORMAT_ND, [k, n], 2, data.addr)
        y = s.tensor(np.zeros((m, n), np.float16), A.ACL_FLOAT16)
        args = (s.tensor(x, A.ACL_FLOAT16).handle, weight, s.tensor(scale, A.ACL_FLOAT16).handle, None, None, None,
                None, group, y.handle)  # fmt: skip
        status = _run(s, "aclnnWeightQuantBatchMatmulV2", *args)
        assert status == (0 if valid else 161002)
        if status == 0:
            rows = np.arange(k) // group if group else np.zeros(k, int)
            deq = (w * scale[rows].astype(np.float64)).astype(np.float16).astype(np.float64)
            assert_precision(y.numpy(), x.astype(np.float64) @ deq)


@settings(max_examples=15, deadline=None)
@given(shape=st.lists(st.integers(0, 70), min_size=1, max_size=7), dtype=st.sampled_from([A.ACL_FLOAT16, A.ACL_INT8]))
def test_weight_size(shape: list[int], dtype: int) -> None:
    """2-6 non-zero dims: batch x align(K, 16) x align(N, C0); anything else 161002 with size 0."""
    with process.fresh(), npu.Session():
        size, ret = A.aclnnCalculateMatmulWeightSizeV2(A.aclCreateIntArray(shape, len(shape)), dtype)
    if not 2 <= len(shape) <= 6 or 0 in shape:
        assert (size, ret) == (0, 161002)
        return
    c0 = 16 if dtype == A.ACL_FLOAT16 else 32
    expected = int(np.prod(shape[:-2])) * (-(-shape[-2] // 16) * 16) * (-(-shape[-1] // c0) * c0)
    assert (size, ret) == (expected, 0)


@settings(max_examples=15, deadline=None)
@given(shape=st.lists(st.integers(0, 70), min_size=1, max_size=7))
def test_weight_size_v1(shape: list[int]) -> None:
    """The v1 size (A2): 2-6 dims, zeros allowed, always the float16 rule; anything else 161002 with size 0."""
    with process.fresh(), npu.Session():
        size, ret = A.aclnnCalculateMatmulWeightSize(A.aclCreateIntArray(shape, len(shape)))
    if not 2 <= len(shape) <= 6:
        assert (size, ret) == (0, 161002)
        return
    expected = int(np.prod(shape[:-2])) * (-(-shape[-2] // 16) * 16) * (-(-shape[-1] // 16) * 16)
    assert (size, ret) == (expected, 0)
