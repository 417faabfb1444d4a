"""Property: random aclnnLogicalAnd / Or / Not and aclnnBitwiseAndTensor / OrTensor / Not calls never raise,
fail only with the real statuses (BitwiseNot's null is 561103, as in the real op), leave nothing alive,
and match numpy when they succeed (bit-exactly: logical ops into a bool out, bitwise ops of one
integer dtype into the same dtype).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import DTYPES, aclnn, call, example, maybe_null, np_type, shapes, small_values

from emulator.meta.dtypes import DataType

D = DataType
BINARY = {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or, "BitwiseAndTensor": np.bitwise_and,
          "BitwiseOrTensor": np.bitwise_or}  # fmt: skip
UNARY = {"LogicalNot": np.logical_not, "BitwiseNot": np.invert}


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    self_shape = draw(shapes)
    other_shape = self_shape[draw(st.integers(0, len(self_shape))) :] if draw(st.booleans()) else draw(shapes)
    likely = st.one_of(st.sampled_from([D.DT_INT32, D.DT_BOOL]), st.sampled_from(DTYPES))
    return {
        "op": draw(st.sampled_from(sorted({**BINARY, **UNARY}))),
        "shapes": (self_shape, other_shape, draw(st.one_of(st.none(), shapes))),
        "dtypes": (draw(likely), draw(likely), draw(likely)),
        "null": draw(st.sampled_from([None, None, None, 0, 1, 2])),
        "seed": draw(st.integers(0, 2**16)),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_logical_and_bitwise_calls(case: dict[str, Any]) -> None:
    op = case["op"]
    self_shape, other_shape, out_shape = case["shapes"]
    d_self, d_other, d_out = case["dtypes"]
    a, b = small_values(d_self, self_shape, case["seed"]), small_values(d_other, other_shape, case["seed"] + 1)
    try:
        broadcast: tuple[int, ...] | None = np.broadcast_shapes(a.shape, b.shape) if op in BINARY else a.shape
    except ValueError:
        broadcast = None
    out_shape = (broadcast or a.shape) if out_shape is None else out_shape
    with example() as session:
        x, y = session.tensor(a, d_self), session.tensor(b, d_other)
        out = session.tensor(np.zeros(out_shape, np_type(d_out)), d_out)
        handles = [x.handle, y.handle, out.handle] if op in BINARY else [x.handle, out.handle]
        args, nulled = maybe_null(handles, case["null"])
        phase1, phase2 = getattr(aclnn, f"aclnn{op}GetWorkspaceSize"), getattr(aclnn, f"aclnn{op}")
        status = call(session, phase1, phase2, *args, nulled=nulled)
        if status != 0 or broadcast is None or 0 in broadcast:
            return
        got = out.numpy()
        logical = op.startswith("Logical") and d_out == D.DT_BOOL and D.DT_COMPLEX64 not in (d_self, d_other)
        if logical or (op.startswith("Bitwise") and d_self == d_other == d_out):
            golden = BINARY[op](a, b) if op in BINARY else UNARY[op](a)
            assert np.array_equal(got, golden)
