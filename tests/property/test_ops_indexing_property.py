"""Property: the indexing and shape ops on random shapes, dtypes and parameters never raise, fail only
with the statuses their real L2 code returns, and match the numpy golden bit for bit when they succeed.

Each example runs in its own emulated process with an open session. Shapes have up to three axes of
0-4 elements; dtypes come from a pool wider than each op's list; dims, shifts, diagonals, slice
bounds and indices are drawn from ranges that run past the valid ones, so every example either
computes or is refused with 161002 (or 561103 for a kernel the SoC lacks). The out tensor is sized
from the golden when there is one, so a wrong-shape out is refused as it must be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, npu, process
from emulator.meta.dtypes import numpy_dtype

A = aclnn
ALLOWED = {0, 161002, 561103}
DTYPES = (A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_INT32, A.ACL_INT64, A.ACL_INT8, A.ACL_UINT8, A.ACL_BOOL, A.ACL_DOUBLE,
          A.ACL_INT16, A.ACL_COMPLEX64)  # fmt: skip
shapes = st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple)


def host_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: int) -> np.ndarray:
    np_type = numpy_dtype(dtype)
    assert np_type is not None
    if np_type == np.bool_:
        return rng.random(shape) > 0.5
    return rng.integers(-3, 4, shape).astype(np_type)


def run_two_phase(s: npu.Session, name: str, *args: Any) -> int:
    ws, executor, ret = getattr(A, f"{name}GetWorkspaceSize")(*args)
    assert ret in ALLOWED, (name, ret, acl.get_recent_err_msg())
    if ret != 0:
        assert acl.get_recent_err_msg(), "a refusal leaves an error message"
        return int(ret)
    workspace = s.malloc(ws).addr if ws else 0
    assert getattr(A, name)(workspace, ws, executor, s.stream) == 0
    s.synchronize()
    return 0


def golden_or_none(compute: Callable[[], np.ndarray]) -> np.ndarray | None:
    try:
        return np.asarray(compute())
    except (ValueError, IndexError, np.exceptions.AxisError):
        return None


def check(s: npu.Session, name: str, golden: np.ndarray | None, dtype: int, build: Callable[[Any], tuple]) -> None:
    """Run ``name`` with an out shaped like the golden (or [1] when numpy refuses too) and compare."""
    out_shape = golden.shape if golden is not None else (1,)
    np_type = numpy_dtype(dtype)
    assert np_type is not None
    out = s.tensor(np.zeros(out_shape, np_type), dtype)
    status = run_two_phase(s, name, *build(out.handle))
    if status == 0 and golden is not None:
        actual = out.storage()
        assert actual.tobytes() == np.ascontiguousarray(golden.astype(np_type)).tobytes(), (name, actual, golden)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    op=st.sampled_from(["triu", "tril", "roll", "repeat", "index_select", "gather_v2", "s_where", "slice", "stack"]),
    shape=shapes,
    dtype=st.sampled_from(DTYPES),
    a=st.integers(-4, 4),
    b=st.integers(-4, 4),
    seed=st.integers(0, 2**16),
)
def test_indexing_ops_never_raise_and_match_numpy(op: str, shape: tuple[int, ...], dtype: int, a: int, b: int,
                                                  seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    host = host_values(rng, shape, dtype)
    with process.fresh(), npu.Session() as s:
        x = s.tensor(host, dtype)
        if op in ("triu", "tril"):
            fn = np.triu if op == "triu" else np.tril
            golden = golden_or_none(lambda: fn(host, a)) if host.ndim >= 2 else None
            check(s, f"aclnn{op.title()}", golden, dtype, lambda out: (x.handle, a, out))
        elif op == "roll":
            dims = [a % max(host.ndim, 1)] if host.ndim else []
            golden = golden_or_none(lambda: np.roll(host, b, dims[0]) if dims else host)
            arrays = (A.aclCreateIntArray([b], 1), A.aclCreateIntArray(dims, len(dims)))
            check(s, "aclnnRoll", golden, dtype, lambda out: (x.handle, *arrays, out))
        elif op == "repeat":
            reps = [abs(a) % 3 + 1] * max(host.ndim, 1) + ([abs(b) % 2 + 1] if b > 0 else [])
            golden = golden_or_none(lambda: np.tile(host, reps))
            array = A.aclCreateIntArray(reps, len(reps))
            check(s, "aclnnRepeat", golden, dtype, lambda out: (x.handle, array, out))
        elif op in ("index_select", "gather_v2"):
            size = host.shape[a % host.ndim] if host.ndim else 1
            picks = rng.integers(0, max(size, 1), abs(b) + 1).astype(np.int64)
            index = s.tensor(picks, A.ACL_INT64)
            dim = a % host.ndim if host.ndim else 0
            valid = host.ndim > 0 and size > 0
            golden = golden_or_none(lambda: np.take(host, picks, axis=dim)) if valid else None
            name = "aclnnIndexSelect" if op == "index_select" else "aclnnGatherV2"
            check(s, name, golden, dtype, lambda out: (x.handle, dim, index.handle, out))
        elif op == "s_where":
            cond = rng.random(shape[-1:] if shape else ()) > 0.5
            other = host_values(rng, shape, dtype)
            golden = golden_or_none(lambda: np.where(cond, host, other))
            c, y = s.tensor(cond, A.ACL_BOOL), s.tensor(other, dtype)
            check(s, "aclnnSWhere", golden, dtype, lambda out: (c.handle, x.handle, y.handle, out))
        elif op == "slice":
            dim = a % host.ndim if host.ndim else 0
            step = abs(b) % 3 + 1
            index: list[Any] = [slice(None)] * host.ndim
            if host.ndim:
                index[dim] = slice(b, a + 3, step)
            golden = golden_or_none(lambda: host[tuple(index)]) if host.ndim else None
            check(s, "aclnnSlice", golden, dtype, lambda out: (x.handle, dim, b, a + 3, step, out))
        else:
            parts = [host, host_values(rng, shape, dtype)]
            axis = a % (host.ndim + 1)
            golden = golden_or_none(lambda: np.stack(parts, axis=axis))
            tensors = A.aclCreateTensorList([s.tensor(p, dtype).handle for p in parts], 2)
            check(s, "aclnnStack", golden, dtype, lambda out: (tensors, axis, out))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=shapes.filter(lambda sh: len(sh) > 0), dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**16))
def test_data_dependent_ops_report_the_count(shape: tuple[int, ...], dtype: int, seed: int) -> None:
    """Nonzero and MaskedSelect: the worst-case out, then its view shape is the count and the rows match."""
    rng = np.random.default_rng(seed)
    host = host_values(rng, shape, dtype)
    mask = rng.random(shape) > 0.5
    with process.fresh(), npu.Session() as s:
        x = s.tensor(host, dtype)
        out = s.tensor(np.zeros((host.size, host.ndim), np.int64), A.ACL_INT64)
        if run_two_phase(s, "aclnnNonzero", x.handle, out.handle) == 0 and host.size:
            rows = np.argwhere(host != 0)
            assert A.aclGetViewShape(out.handle)[0] == list(rows.shape)
            assert np.array_equal(out.storage().reshape(-1)[: rows.size].reshape(rows.shape), rows)
        np_type = numpy_dtype(dtype)
        assert np_type is not None
        picked = s.tensor(np.zeros((host.size,), np_type), dtype)
        status = run_two_phase(s, "aclnnMaskedSelect", x.handle, s.tensor(mask, A.ACL_BOOL).handle, picked.handle)
        if status == 0 and host.size:
            golden = host[mask]
            assert A.aclGetViewShape(picked.handle)[0] == [golden.size]
            assert picked.storage()[: golden.size].tobytes() == golden.tobytes()
