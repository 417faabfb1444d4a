"""Property: random aclnnBatchNorm calls (shapes of rank 2..4, float and non-float dtypes, training or not,
optional vectors present or not, a null now and then) never raise, fail only with the real statuses,
leave nothing alive, and when they succeed match the float64 golden within the precision standard.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import aclnn, call, example, np_type

from emulator.meta.dtypes import DataType
from emulator.testing.precision import assert_precision

D = DataType
EPS, MOMENTUM = 1e-5, 0.1


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=2, max_size=4)))
    return {
        "shape": shape,
        "dtype": draw(st.sampled_from([D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32])),
        "training": draw(st.booleans()),
        "given": draw(st.lists(st.booleans(), min_size=4, max_size=4)),
        "null": draw(st.sampled_from([None] * 8 + ["input", "saveMean"])),
        "seed": draw(st.integers(0, 2**16)),
    }


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_batch_norm_calls(case: dict[str, Any]) -> None:
    shape, dtype, training = case["shape"], case["dtype"], case["training"]
    c = shape[1]
    rng = np.random.default_rng(case["seed"])
    a = rng.normal(0, 2, shape).astype(np.float32)
    vectors = [rng.uniform(0.5, 2, c).astype(np.float32) for _ in range(4)]
    with example() as session:
        x = session.tensor(a, dtype)
        out = session.tensor(np.zeros(shape, np.float32), dtype)
        vec = [session.tensor(v, D.DT_FLOAT) if g else None for v, g in zip(vectors, case["given"], strict=True)]
        mean, stat = (session.tensor(np.zeros(c, np.float32), D.DT_FLOAT) for _ in range(2))
        args: dict[str, Any] = {"input": x.handle, "saveMean": mean.handle}
        if case["null"]:
            args[case["null"]] = None
        nulled = args["input"] is None or (training and args["saveMean"] is None)
        status = call(session, aclnn.aclnnBatchNormGetWorkspaceSize, aclnn.aclnnBatchNorm, args["input"],
                      *(v.handle if v is not None else None for v in vec), training, MOMENTUM, EPS, out.handle,
                      args["saveMean"], stat.handle, nulled=nulled)  # fmt: skip
        if status != 0:
            return
        assert dtype != D.DT_INT32
        w, b, rm, rv = (v if g else d for v, g, d in zip(vectors, case["given"], (1.0, 0.0, 0.0, 1.0), strict=True))
        x64 = x.numpy().astype(np.float64)
        axes = (0, *range(2, len(shape)))
        bshape = (1, c) + (1,) * (len(shape) - 2)
        mu, var = (x64.mean(axis=axes), x64.var(axis=axes)) if training else (rm, rv)
        mu, var = np.broadcast_to(mu, (c,)), np.broadcast_to(var, (c,))
        scale, shift = np.broadcast_to(w, (c,)), np.broadcast_to(b, (c,))
        y = (x64 - np.reshape(mu, bshape)) / np.sqrt(np.reshape(var, bshape) + EPS) * scale.reshape(bshape)
        golden = (y + shift.reshape(bshape)).astype(np_type(dtype))
        assert_precision(out.numpy(), golden)
