"""Property: random aclnnClamp / ClampMin / ClampMax / InplaceClampMax calls never raise, fail only with the
real statuses, leave nothing alive, and match numpy when they succeed: min(max(x, lo), hi) of the
bounds converted to out's dtype, bit-exactly (the inputs are small integers in every dtype).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import DTYPES, aclnn, call, example, np_type, scalar, shapes, small_values

from emulator.meta.dtypes import DataType

D = DataType
bounds = st.one_of(st.none(), st.integers(-3, 3), st.floats(-3.5, 3.5, allow_nan=False))


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(shapes)
    likely = st.one_of(st.just(D.DT_FLOAT), st.sampled_from(DTYPES))
    return {
        "op": draw(st.sampled_from(["Clamp", "ClampMin", "ClampMax", "InplaceClampMax"])),
        "shapes": (shape, draw(st.one_of(st.just(shape), shapes))),
        "dtypes": (draw(likely), draw(likely)),
        "bounds": (draw(bounds), draw(bounds)),
        "bound_dtype": draw(st.sampled_from([D.DT_FLOAT, D.DT_INT32, D.DT_DOUBLE])),
        "null_self": draw(st.sampled_from([False] * 9 + [True])),
        "seed": draw(st.integers(0, 2**16)),
    }


def _golden(x: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None) -> np.ndarray:
    """min(max(x, lo), hi) with the bounds already in x's dtype; a missing bound leaves that side alone."""
    result = x if lo is None else np.maximum(x, lo)
    return result if hi is None else np.minimum(result, hi)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_clamp_calls(case: dict[str, Any]) -> None:
    op = case["op"]
    shape, out_shape = case["shapes"]
    d_self, d_out = case["dtypes"]
    lo, hi = case["bounds"]
    if op in ("ClampMax", "InplaceClampMax"):
        lo = None
    elif op == "ClampMin":
        hi = None
    a = small_values(d_self, shape, case["seed"])
    with example() as session:
        x = session.tensor(a, d_self)
        out = session.tensor(np.zeros(out_shape, np_type(d_out)), d_out)
        lo_s = None if lo is None else scalar(session, lo, case["bound_dtype"])
        hi_s = None if hi is None else scalar(session, hi, case["bound_dtype"])
        self_arg = None if case["null_self"] else x.handle
        args = {"Clamp": (self_arg, lo_s, hi_s, out.handle), "ClampMin": (self_arg, lo_s, out.handle),
                "ClampMax": (self_arg, hi_s, out.handle), "InplaceClampMax": (self_arg, hi_s)}[op]  # fmt: skip
        one_bound = hi_s if op in ("ClampMax", "InplaceClampMax") else lo_s
        nulled = self_arg is None or (lo_s is None and hi_s is None) or (op != "Clamp" and one_bound is None)
        phase1, phase2 = getattr(aclnn, f"aclnn{op}GetWorkspaceSize"), getattr(aclnn, f"aclnn{op}")
        status = call(session, phase1, phase2, *args, nulled=nulled)
        if status != 0 or 0 in shape:
            return
        target = out if op != "InplaceClampMax" else x
        stored = np_type(case["bound_dtype"])  # the scalar holds its dtype's value, converted to out's dtype

        def in_out(bound: float | None) -> np.ndarray | None:
            return None if bound is None else np.asarray(bound).astype(stored).astype(target.dtype)

        golden = _golden(a.astype(target.dtype), in_out(lo), in_out(hi))
        assert np.array_equal(target.numpy(), golden, equal_nan=True)
