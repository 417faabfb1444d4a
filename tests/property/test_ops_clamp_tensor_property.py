"""Property: random tensor-bound clamps (ClampTensor, ClampMinTensor, ClampMaxTensor and the in-place forms)
never raise, fail only with the real statuses, leave nothing alive, and when they succeed match
min(max(x, lo), hi) computed by numpy in the promoted dtype, then cast to out's, bit-exactly (small
integers in every dtype; shapes that may or may not broadcast).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import DTYPES, aclnn, call, example, np_type, shapes, small_values

from emulator.meta.dtypes import DataType, promote_type

D = DataType
OPS = ("ClampTensor", "ClampMinTensor", "ClampMaxTensor", "InplaceClampMinTensor", "InplaceClampMaxTensor")


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(shapes)
    likely = st.one_of(st.just(D.DT_FLOAT), st.sampled_from(DTYPES))
    near = st.one_of(st.just(shape), shapes, st.just(shape[-1:]))
    return {
        "op": draw(st.sampled_from(OPS)),
        "shapes": (shape, draw(near), draw(near), draw(st.one_of(st.just(shape), shapes))),
        "dtypes": (draw(likely), draw(likely), draw(likely), draw(likely)),
        "missing": draw(st.sampled_from([None, None, 0, 1])),  # ClampTensor: drop min or max
        "seed": draw(st.integers(0, 2**16)),
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_clamp_tensor_calls(case: dict[str, Any]) -> None:
    op = case["op"]
    s_self, s_lo, s_hi, s_out = case["shapes"]
    d_self, d_lo, d_hi, d_out = case["dtypes"]
    inplace = op.startswith("Inplace")
    a = small_values(d_self, s_self, case["seed"])
    lo_v, hi_v = small_values(d_lo, s_lo, case["seed"] + 1), small_values(d_hi, s_hi, case["seed"] + 2)
    with example() as session:
        x = session.tensor(a, d_self)
        lo, hi = session.tensor(lo_v, d_lo), session.tensor(hi_v, d_hi)
        out = x if inplace else session.tensor(np.zeros(s_out, np_type(d_out)), d_out)
        use_lo = "Min" in op or (op == "ClampTensor" and case["missing"] != 0)
        use_hi = "Max" in op or (op == "ClampTensor" and case["missing"] != 1)
        bounds = [b.handle for b, used in ((lo, use_lo), (hi, use_hi)) if used]
        args = [x.handle, *bounds] if inplace else [x.handle, *bounds, out.handle]
        if op == "ClampTensor":
            args = [x.handle, lo.handle if use_lo else None, hi.handle if use_hi else None, out.handle]
        status = call(session, getattr(aclnn, f"aclnn{op}GetWorkspaceSize"), getattr(aclnn, f"aclnn{op}"), *args)
        if status != 0 or 0 in s_self or (use_lo and 0 in s_lo) or (use_hi and 0 in s_hi):
            return
        dtype = d_self
        for value, used in ((d_lo, use_lo), (d_hi, use_hi)):
            dtype = promote_type(dtype, value) if used else dtype
        work = np_type(dtype)
        result = a.astype(work)
        if use_lo:
            result = np.maximum(result, lo_v.astype(work))
        if use_hi:
            result = np.minimum(result, hi_v.astype(work))
        golden = result.astype(out.dtype)
        assert np.array_equal(out.numpy(), golden.reshape(out.numpy().shape)), (case, out.numpy(), golden)
