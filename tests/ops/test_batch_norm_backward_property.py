"""Property: aclnnBatchNormBackward over random shapes, dtypes, masks and modes never raises, fails only with
the real statuses, and on success writes exactly the masked outputs, each the float64 adjoint."""

from __future__ import annotations

import numpy as np
from binary_helpers import check, empty_out, random_values, to_device
from hypothesis import given, settings
from hypothesis import strategies as st
from test_batch_norm_backward import EPS, adjoint
from test_sort_scan_property import run, session

from emulator import aclnn
from emulator.meta.dtypes import DataType
from emulator.testing.precision import assert_precision

D = DataType
SENTINEL = 7.0
shapes = st.lists(st.sampled_from((0, 1, 2, 3, 4, 2, 3, 4)), min_size=1, max_size=6).map(tuple)  # few empty
dtypes = st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32))
masks = st.lists(st.booleans(), min_size=1, max_size=3).map(tuple)


@settings(max_examples=20, deadline=None)
@given(shapes, dtypes, masks, st.booleans(), st.integers(0, 99))
def test_batch_norm_backward_property(shape: tuple, dtype: int, mask: tuple, training: bool, seed: int) -> None:
    with session() as stream:
        rng = np.random.default_rng(seed)
        dy, x = random_values(dtype, shape, rng), random_values(dtype, shape, rng)
        c = shape[1] if len(shape) > 1 else 1
        w, mean = rng.uniform(0.5, 2, c).astype(np.float32), rng.normal(0, 1, c).astype(np.float32)
        var = rng.uniform(0.5, 2, c).astype(np.float32)
        vec = [to_device(v, D.DT_FLOAT).handle for v in (w, mean, var, mean, var)]
        grads = [empty_out(shape, dtype), empty_out((c,), D.DT_FLOAT), empty_out((c,), D.DT_FLOAT)]
        array = aclnn.aclCreateBoolArray(list(mask), len(mask))
        result = aclnn.aclnnBatchNormBackwardGetWorkspaceSize(
            to_device(dy, dtype).handle, to_device(x, dtype).handle, *vec, training, EPS, array,
            *(g.handle for g in grads),
        )  # fmt: skip
        if run(stream, result, aclnn.aclnnBatchNormBackward) != 0 or 0 in shape:
            return
        x64 = x.astype(np.float64)
        golden = adjoint(dy.astype(np.float64), x64, w, mean, 1 / np.sqrt(var.astype(np.float64) + EPS), training)
        on = (*mask, False, False)[:3]
        for written, out, want in zip(on, grads, golden, strict=True):
            if written:
                check(out, want)
            else:
                assert_precision(out.numpy().astype(np.float32), np.full(out.shape, SENTINEL, np.float32))
