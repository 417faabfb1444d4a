"""Property: aclnnArgMax, aclnnCumsumV2, aclnnSort, aclnnArgsort, aclnnTopk and aclnnNorm over random
shapes, dtypes and attributes never raise, fail only with the real statuses, and match the numpy golden
when they succeed.

Each example runs in its own emulated process with an open npu session; dtypes are drawn from the
op's list and from outside it, dims and k from inside and outside their ranges, so both the success
path and every check are exercised.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from binary_helpers import check, empty_out, random_values, to_device
from device_helpers import SESSIONS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_sort_scan import golden_cumsum, golden_norm, golden_sort, golden_topk, p_scalar

from emulator import acl, aclnn, npu, process
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
STATUSES = {0, 161001, 161002}
DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
          D.DT_BOOL, D.DT_UINT16)  # fmt: skip
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

shapes = st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple)
dtypes = st.sampled_from(DTYPES)


@contextmanager
def session() -> Iterator[int]:
    """A fresh process with an open session (what the op tests' fixture gives); yields its stream."""
    with process.fresh():
        opened = npu.Session().open()
        SESSIONS.append(opened)
        try:
            assert opened.stream is not None
            yield int(opened.stream)
        finally:
            SESSIONS.remove(opened)


def run(stream: int, result: tuple[Any, ...], phase2: Any) -> int:
    """Phase 2 of a successful phase 1; the phase-1 status."""
    ws, executor, status = result
    assert status in STATUSES, (status, acl.get_recent_err_msg())
    if status == 0:
        workspace = 0
        if ws:
            workspace, ret = acl.rt.malloc(ws, 0)
            assert ret == 0
        assert phase2(workspace, ws, executor, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
    return int(status)


def values(shape: tuple[int, ...], dtype: int, seed: int) -> np.ndarray:
    return random_values(dtype, shape, np.random.default_rng(seed))


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.booleans(), st.integers(0, 99))
def test_argmax_property(shape: tuple[int, ...], dtype: int, dim: int, keepdim: bool, seed: int) -> None:
    with session() as stream:
        host = values(shape, dtype, seed)
        rank = len(shape)
        ok_dim = (-rank <= dim < rank) if rank else dim in (-1, 0)
        out_shape: tuple[int, ...] = ()
        if ok_dim and rank:
            axis = dim % rank
            out_shape = tuple(1 if i == axis else n for i, n in enumerate(shape) if keepdim or i != axis)
        out = empty_out(out_shape, D.DT_INT64)
        status = run(stream, A.aclnnArgMaxGetWorkspaceSize(to_device(host, dtype).handle, dim, keepdim, out.handle),
                     A.aclnnArgMax)  # fmt: skip
        if status == 0 and host.size:
            golden = np.argmax(host.astype(np.float64).reshape(shape or (1,)), axis=dim % max(rank, 1))
            check(out, golden.reshape(out_shape))


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.booleans(), st.booleans(), st.integers(0, 99))
def test_cumsum_property(shape: tuple[int, ...], dtype: int, dim: int, exclusive: bool, reverse: bool,
                         seed: int) -> None:  # fmt: skip
    with session() as stream:
        host = values(shape, dtype, seed)
        out = empty_out(shape, dtype)
        result = A.aclnnCumsumV2GetWorkspaceSize(to_device(host, dtype).handle, dim, exclusive, reverse, out.handle)
        if run(stream, result, A.aclnnCumsumV2) == 0 and host.size:
            axis = dim % max(len(shape), 1)
            check(out, golden_cumsum(host.reshape(shape or (1,)), axis, exclusive, reverse).reshape(shape))


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.booleans(), st.booleans(), st.integers(0, 99))
def test_sort_property(shape: tuple[int, ...], dtype: int, dim: int, stable: bool, descending: bool,
                       seed: int) -> None:  # fmt: skip
    with session() as stream:
        host = values(shape, dtype, seed)
        v, i = empty_out(shape, dtype), empty_out(shape, D.DT_INT64)
        result = A.aclnnSortGetWorkspaceSize(to_device(host, dtype).handle, stable, dim, descending, v.handle, i.handle)
        if run(stream, result, A.aclnnSort) == 0 and host.size:
            axis = dim % max(len(shape), 1)
            golden_values, golden_indices = golden_sort(host.reshape(shape or (1,)), axis, descending)
            check(v, golden_values.reshape(shape))
            check(i, golden_indices.reshape(shape))


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.booleans(), st.integers(0, 99))
def test_argsort_property(shape: tuple[int, ...], dtype: int, dim: int, descending: bool, seed: int) -> None:
    with session() as stream:
        host = values(shape, dtype, seed)
        out = empty_out(shape, D.DT_INT64)
        result = A.aclnnArgsortGetWorkspaceSize(to_device(host, dtype).handle, dim, descending, out.handle)
        if run(stream, result, A.aclnnArgsort) == 0 and host.size:
            axis = dim % max(len(shape), 1)
            check(out, golden_sort(host.reshape(shape or (1,)), axis, descending)[1].reshape(shape))


@SETTINGS
@given(shapes, dtypes, st.integers(-1, 7), st.integers(-5, 5), st.booleans(), st.integers(0, 99))
def test_topk_property(shape: tuple[int, ...], dtype: int, k: int, dim: int, largest: bool, seed: int) -> None:
    with session() as stream:
        host = values(shape, dtype, seed)
        rank = len(shape)
        out_shape = list(shape)
        if rank and -rank <= dim < rank and k >= 0:
            out_shape[dim] = k
        v, i = empty_out(out_shape, dtype), empty_out(out_shape, D.DT_INT64)
        result = A.aclnnTopkGetWorkspaceSize(to_device(host, dtype).handle, k, dim, largest, True, v.handle, i.handle)
        if run(stream, result, A.aclnnTopk) == 0 and host.size and k:
            axis = dim % max(rank, 1)
            golden_values, golden_indices = golden_topk(host.reshape(shape or (1,)), k, axis, largest)
            check(v, golden_values.reshape(out_shape))
            check(i, golden_indices.reshape(out_shape))


@SETTINGS
@given(shapes, st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32, D.DT_UINT16)),
       st.sampled_from([0.0, 1.0, 2.0, 3.0, np.inf, -np.inf, 0.5]), st.lists(st.integers(-5, 5), max_size=2),
       st.booleans(), st.integers(0, 99))  # fmt: skip
def test_norm_property(shape: tuple[int, ...], dtype: int, p: float, dims: list[int], keepdim: bool,
                       seed: int) -> None:  # fmt: skip
    with session() as stream:
        host = values(shape, dtype, seed)
        rank = len(shape)
        r = max(rank, 1)
        valid = all(-r <= d < r for d in dims) and len({d % r for d in dims}) == len(dims)
        axes = tuple(sorted({d % r for d in dims})) if valid and dims and rank else tuple(range(rank))
        reduced = set(axes)
        out_shape = tuple(1 if i in reduced else n for i, n in enumerate(shape) if keepdim or i not in reduced)
        out_dtype = D.DT_FLOAT if dtype in (D.DT_INT32, D.DT_UINT16) else dtype
        out = empty_out(out_shape, out_dtype)
        dim = A.aclCreateIntArray(dims, len(dims))
        result = A.aclnnNormGetWorkspaceSize(to_device(host, dtype).handle, p_scalar(p), dim, keepdim, out.handle)
        if run(stream, result, A.aclnnNorm) == 0:
            check(out, golden_norm(host, p, axes, keepdim) if host.size else np.zeros(out_shape))
