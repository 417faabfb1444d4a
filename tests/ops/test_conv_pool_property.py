"""Property: aclnnConvolution, aclnnMaxPool, aclnnAvgPool2d and aclnnIm2col over random shapes, dtypes and
window geometry never raise, fail only with the real statuses, and match the direct-loop golden when they
succeed (an out shape is drawn near the right one, so both outcomes occur)."""

from __future__ import annotations

import numpy as np
from binary_helpers import check, np_dtype
from conv_helpers import golden_avg_pool, golden_conv, golden_max_pool, int_array, nc_out, nc_tensor
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv_pool import golden_im2col, pool_size
from test_sort_scan_property import SETTINGS, run, session, values

from emulator import aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
DTYPES = st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32))
small = st.integers(0, 3)
dim, tap = st.integers(1, 7), st.integers(1, 3)
FEW = settings(SETTINGS, max_examples=8)


@FEW
@given(st.integers(1, 2), st.integers(1, 2), dim, dim, tap, tap, st.integers(1, 2), small, st.integers(1, 2),
       st.integers(-1, 1), DTYPES, st.booleans(), st.integers(0, 99))  # fmt: skip
def test_convolution_property(n: int, groups: int, h: int, w: int, kh: int, kw: int, stride: int, pad: int, dil: int,
                              off: int, dtype: int, with_bias: bool, seed: int) -> None:  # fmt: skip
    with session() as stream:
        cin, cout = 2 * groups, 2 * groups
        x, wt = values((n, cin, h, w), dtype, seed), values((cout, 2, kh, kw), dtype, seed + 1)
        oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
        ow = (w + 2 * pad - dil * (kw - 1) - 1) // stride + 1
        out = nc_out((n, cout, max(oh + off, 0), max(ow, 0)), dtype)
        bias = nc_tensor(np.ones(cout, np.float32), D.DT_FLOAT).handle if with_bias else None
        result = A.aclnnConvolutionGetWorkspaceSize(
            nc_tensor(x, dtype).handle, nc_tensor(wt, dtype).handle, bias, int_array([stride] * 2),
            int_array([pad] * 2), int_array([dil] * 2), False, int_array([0, 0]), groups, out.handle, 0,
        )  # fmt: skip
        status = run(stream, result, A.aclnnConvolution)
        assert status == 0 or dtype == D.DT_INT32 or off != 0 or oh < 1 or ow < 1
        if status == 0 and oh > 0 and ow > 0:
            b = np.ones(cout) if with_bias else None
            check(out, golden_conv(x, wt, b, [stride] * 2, [pad] * 2, [pad] * 2, [dil] * 2, groups))


@FEW
@given(st.integers(1, 2), dim, dim, tap, tap, tap, small, st.booleans(), st.booleans(), st.integers(0, 3), DTYPES,
       st.integers(0, 99))  # fmt: skip
def test_pool_property(n: int, h: int, w: int, kh: int, kw: int, stride: int, pad: int, ceil: bool, maximum: bool,
                       divisor: int, dtype: int, seed: int) -> None:  # fmt: skip
    with session() as stream:
        x = values((n, 2, h, w), dtype, seed)
        oh, ow = pool_size(h, kh, pad, pad, stride, int(ceil)), pool_size(w, kw, pad, pad, stride, int(ceil))
        out = nc_out((n, 2, max(oh, 0), max(ow, 0)), dtype, A.ACL_FORMAT_NCHW)
        k, s, p = int_array([kh, kw]), int_array([stride, stride]), int_array([pad])
        xt = nc_tensor(x, dtype, A.ACL_FORMAT_NCHW).handle
        if maximum:
            result = A.aclnnMaxPoolGetWorkspaceSize(xt, k, s, 0, p, int_array([1, 1]), int(ceil), out.handle)
            status = run(stream, result, A.aclnnMaxPool)
            if status == 0:
                golden = golden_max_pool(x, [kh, kw], [stride] * 2, [pad] * 4, (oh, ow))
                np.testing.assert_array_equal(out.numpy(), golden.astype(np_dtype(dtype)))
        else:
            result = A.aclnnAvgPool2dGetWorkspaceSize(xt, k, s, p, ceil, True, divisor, 0, out.handle)
            status = run(stream, result, A.aclnnAvgPool2d)
            if status == 0:
                check(out, golden_avg_pool(x, [kh, kw], [stride] * 2, [pad] * 2, (oh, ow), True, divisor))
        valid = dtype in (D.DT_FLOAT, D.DT_FLOAT16) and oh > 0 and ow > 0 and 2 * pad <= min(kh, kw)
        assert (status == 0) == valid or dtype == D.DT_BF16


@FEW
@given(st.integers(1, 2), st.integers(1, 6), st.integers(1, 6), st.integers(1, 3), st.integers(1, 3),
       st.integers(1, 2), small, st.integers(1, 2), DTYPES, st.integers(0, 99))  # fmt: skip
def test_im2col_property(n: int, h: int, w: int, kh: int, kw: int, dil: int, pad: int, stride: int, dtype: int,
                         seed: int) -> None:  # fmt: skip
    with session() as stream:
        x = values((n, 2, h, w), dtype, seed)
        oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
        ow = (w + 2 * pad - dil * (kw - 1) - 1) // stride + 1
        out = nc_out((n, 2 * kh * kw, max(oh, 0) * max(ow, 0)), dtype, A.ACL_FORMAT_ND)
        result = A.aclnnIm2colGetWorkspaceSize(
            nc_tensor(x, dtype).handle, int_array([kh, kw]), int_array([dil] * 2), int_array([pad] * 2),
            int_array([stride] * 2), out.handle,
        )  # fmt: skip
        status = run(stream, result, A.aclnnIm2col)
        assert (status == 0) == (dtype != D.DT_INT32 and oh >= 1 and ow >= 1)
        if status == 0:
            golden = golden_im2col(x, [kh, kw], [dil] * 2, [pad] * 2, [stride] * 2)
            np.testing.assert_array_equal(out.numpy(), golden)
