"""Property: random aclnnGeTensor / LtTensor / LeTensor / NeTensor / Maximum / Minimum calls never raise, fail
only with the real statuses, leave nothing alive, and match numpy when they succeed.

Shapes are random (equal, broadcastable or not, empty), dtypes supported or not, one argument may be
null, self may be a strided view. A success is checked bit-exactly: a comparison against numpy's in
float64 (the small integer values are exact in every dtype), Maximum / Minimum of same-dtype inputs
against numpy's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import DTYPES, aclnn, call, example, maybe_null, np_type, shapes, small_values

from emulator.meta.dtypes import DataType

D = DataType
COMPARES = {"GeTensor": np.greater_equal, "LtTensor": np.less, "LeTensor": np.less_equal, "NeTensor": np.not_equal}
MAX_MIN = {"Maximum": np.maximum, "Minimum": np.minimum}


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    self_shape = draw(shapes)
    if draw(st.booleans()):
        tail = self_shape[draw(st.integers(0, len(self_shape))) :]
        other_shape = tuple(d if draw(st.booleans()) else 1 for d in tail)
    else:
        other_shape = draw(shapes)
    likely = st.one_of(st.just(D.DT_FLOAT), st.sampled_from(DTYPES))
    return {
        "op": draw(st.sampled_from(sorted({**COMPARES, **MAX_MIN}))),
        "shapes": (self_shape, other_shape, draw(st.one_of(st.none(), shapes))),
        "dtypes": (draw(likely), draw(likely), draw(st.one_of(st.just(D.DT_BOOL), likely))),
        "strided": draw(st.booleans()),
        "null": draw(st.sampled_from([None, None, None, 0, 1, 2])),
        "seed": draw(st.integers(0, 2**16)),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_compare_calls(case: dict[str, Any]) -> None:
    op = case["op"]
    self_shape, other_shape, out_shape = case["shapes"]
    d_self, d_other, d_out = case["dtypes"]
    a, b = small_values(d_self, self_shape, case["seed"]), small_values(d_other, other_shape, case["seed"] + 1)
    try:
        broadcast: tuple[int, ...] | None = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        broadcast = None  # Le / Ne accept an empty pair that does not broadcast (their empty check comes first)
    out_shape = (broadcast or a.shape) if out_shape is None else out_shape
    with example() as session:
        if case["strided"] and a.ndim:
            wide = np.repeat(a, 2, axis=-1)  # every other element of the last axis is the view
            strides = [int(np.prod(wide.shape[i + 1 :])) for i in range(a.ndim)]
            strides[-1] = 2
            x = session.tensor(wide, d_self, shape=a.shape, strides=strides)
        else:
            x = session.tensor(a, d_self)
        y = session.tensor(b, d_other)
        out = session.tensor(np.zeros(out_shape, np_type(d_out)), d_out)
        args, nulled = maybe_null([x.handle, y.handle, out.handle], case["null"])
        phase1, phase2 = getattr(aclnn, f"aclnn{op}GetWorkspaceSize"), getattr(aclnn, f"aclnn{op}")
        status = call(session, phase1, phase2, *args, nulled=nulled)
        if status != 0 or broadcast is None or 0 in broadcast:
            return
        got = out.numpy()
        if op in COMPARES and D.DT_COMPLEX64 not in (d_self, d_other) and d_out == D.DT_BOOL:
            assert np.array_equal(got, COMPARES[op](a.astype(np.float64), b.astype(np.float64)))
        elif op in MAX_MIN and d_self == d_other == d_out:
            assert np.array_equal(got.astype(np.float64), MAX_MIN[op](a, b).astype(np.float64))
