"""Property: aclnnLogSoftmax, aclnnSwiGlu, aclnnGeGluV3 and aclnnAddRmsNorm over random shapes, dtypes and
attributes never raise, fail only with the real statuses, and match the numpy golden when they succeed."""

from __future__ import annotations

import numpy as np
from binary_helpers import check, empty_out, random_values, to_device
from hypothesis import given
from hypothesis import strategies as st
from test_norms_glu import gelu64, golden_add_rms_norm, golden_group_norm, golden_log_softmax, halves
from test_sort_scan_property import SETTINGS, run, session

from emulator import aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT32, D.DT_BOOL)
shapes = st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple)
dtypes = st.sampled_from(DTYPES)


def halved(shape: tuple[int, ...], dim: int) -> tuple[int, ...]:
    """The GLU output shape when the dim is valid (the input shape otherwise, to be rejected)."""
    rank = len(shape)
    if not rank or not -rank <= dim < rank:
        return shape
    out = list(shape)
    out[dim] //= 2
    return tuple(out)


@SETTINGS
@given(shapes, dtypes, dtypes, st.integers(-5, 5), st.integers(0, 99))
def test_log_softmax_property(shape: tuple[int, ...], dtype: int, out_dtype: int, dim: int, seed: int) -> None:
    with session() as stream:
        host = random_values(dtype, shape, np.random.default_rng(seed))
        out = empty_out(shape, out_dtype)
        result = A.aclnnLogSoftmaxGetWorkspaceSize(to_device(host, dtype).handle, dim, out.handle)
        if run(stream, result, A.aclnnLogSoftmax) == 0 and host.size:
            golden = golden_log_softmax(host.reshape(shape or (1,)), dim % max(len(shape), 1)).reshape(shape)
            check(out, golden)


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.integers(0, 99))
def test_swi_glu_property(shape: tuple[int, ...], dtype: int, dim: int, seed: int) -> None:
    with session() as stream:
        host = random_values(dtype, shape, np.random.default_rng(seed))
        out = empty_out(halved(shape, dim), dtype)
        ws, executor, status = A.aclnnSwiGluGetWorkspaceSize(to_device(host, dtype).handle, dim, out.handle)
        assert status in (0, 161001, 161002, 561001)
        if status == 0:
            run(stream, (ws, executor, 0), A.aclnnSwiGlu)
            if host.size:
                a, b = halves(host, dim)
                check(out, a / (1 + np.exp(-a)) * b)


@SETTINGS
@given(shapes, dtypes, st.integers(-5, 5), st.integers(-1, 2), st.booleans(), st.integers(0, 99))
def test_geglu_v3_property(shape: tuple[int, ...], dtype: int, dim: int, approximate: int, left: bool,
                           seed: int) -> None:  # fmt: skip
    with session() as stream:
        host = random_values(dtype, shape, np.random.default_rng(seed))
        out_shape = halved(shape, dim)
        out, out_gelu = empty_out(out_shape, dtype), empty_out(out_shape, dtype)
        result = A.aclnnGeGluV3GetWorkspaceSize(to_device(host, dtype).handle, dim, approximate, left, out.handle,
                                                out_gelu.handle)  # fmt: skip
        if run(stream, result, A.aclnnGeGluV3) == 0 and host.size and shape:
            a, b = halves(host, dim)
            gate, other = (a, b) if left else (b, a)
            check(out_gelu, gelu64(gate, approximate))
            check(out, other * gelu64(gate, approximate))


@SETTINGS
@given(shapes, st.integers(0, 2), dtypes, st.sampled_from(["add", "pre", "post"]), st.integers(0, 99))
def test_add_rms_norm_property(shape: tuple[int, ...], gamma_rank: int, dtype: int, mode: str, seed: int) -> None:
    with session() as stream:
        rng = np.random.default_rng(seed)
        gamma_shape = shape[len(shape) - min(gamma_rank, len(shape)) :]
        x1, x2 = random_values(dtype, shape, rng), random_values(dtype, shape, rng)
        gamma = random_values(dtype, gamma_shape, rng)
        rstd_shape = shape[: len(shape) - len(gamma_shape)] + (1,) * len(gamma_shape)
        y = empty_out(shape, dtype)
        rstd = empty_out(rstd_shape, D.DT_FLOAT) if mode == "add" else None
        x = empty_out(shape, dtype) if mode != "post" else None
        ws, executor, status = A.aclnnAddRmsNormGetWorkspaceSize(
            to_device(x1, dtype).handle, to_device(x2, dtype).handle, to_device(gamma, dtype).handle, 1e-6, y.handle,
            None if rstd is None else rstd.handle, None if x is None else x.handle,
        )  # fmt: skip
        assert status in (0, 161001, 161002, 561103)
        if status == 0:
            run(stream, (ws, executor, 0), A.aclnnAddRmsNorm)
            if x1.size and gamma.size:
                gy, gr, gx = golden_add_rms_norm(x1, x2, gamma, 1e-6)
                check(y, gy)
                if rstd is not None:
                    check(rstd, gr)
                if x is not None:
                    check(x, gx)


@SETTINGS
@given(st.integers(0, 3), st.sampled_from([1, 2, 4, 6]), st.lists(st.integers(0, 4), max_size=2).map(tuple),
       st.sampled_from([1, 2, 3, 0]), dtypes, st.booleans(), st.integers(0, 99))  # fmt: skip
def test_group_norm_property(n: int, c: int, spatial: tuple[int, ...], group: int, dtype: int, affine: bool,
                             seed: int) -> None:  # fmt: skip
    with session() as stream:
        rng = np.random.default_rng(seed)
        shape = (n, c, *spatial)
        hw = int(np.prod(spatial, dtype=np.int64))
        x = random_values(dtype, shape, rng)
        gamma = random_values(dtype, (c,), rng) if affine else None
        beta = random_values(dtype, (c,), rng) if affine else None
        out = empty_out(shape, dtype)
        mean, rstd = empty_out((n, group), dtype), empty_out((n, group), dtype)
        result = A.aclnnGroupNormGetWorkspaceSize(
            to_device(x, dtype).handle, None if gamma is None else to_device(gamma, dtype).handle,
            None if beta is None else to_device(beta, dtype).handle, n, c, hw, group, 1e-5, out.handle, mean.handle,
            rstd.handle,
        )  # fmt: skip
        if run(stream, result, A.aclnnGroupNorm) == 0 and x.size:
            gy, gm, gr = golden_group_norm(x, gamma, beta, group, 1e-5)
            check(out, gy)
            check(mean, gm)
            check(rstd, gr)
