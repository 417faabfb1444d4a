"""Property: random aclnnArange / Linspace / InplaceOne / SearchSorteds calls never raise, fail only with the
real statuses (Linspace's null is 561103, as in the real op), leave nothing alive, and match numpy when
they succeed: Arange and Linspace with integer bounds under the precision standard (bit-exactly for
integer outs), InplaceOne and SearchSorteds bit-exactly.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from part2_property_helpers import DTYPES, aclnn, call, example, np_type, scalar, shapes, small_values

from emulator.meta.dtypes import DataType
from emulator.testing.precision import assert_precision

D = DataType
ints = st.integers(-20, 20)


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    likely = st.one_of(st.sampled_from([D.DT_FLOAT, D.DT_INT32, D.DT_INT64]), st.sampled_from(DTYPES))
    return {
        "op": draw(st.sampled_from(["Arange", "Linspace", "InplaceOne", "SearchSorteds"])),
        "values": (draw(ints), draw(ints), draw(st.sampled_from([1, 2, 3, -1, -4, 0]))),
        "scalar_dtype": draw(st.sampled_from([D.DT_INT64, D.DT_FLOAT, D.DT_DOUBLE, D.DT_BOOL, D.DT_COMPLEX64])),
        "dtype": draw(likely),
        "size": draw(st.one_of(st.none(), st.integers(0, 6))),  # None: the size the values ask for
        "shape": draw(shapes),
        "flags": (draw(st.booleans()), draw(st.booleans())),
        "null": draw(st.sampled_from([None] * 6 + [0, 1, 2, 3])),  # which argument is null, if any
        "empty_out": draw(st.integers(0, 7)) == 0,
        "seed": draw(st.integers(0, 2**16)),
    }


def _arange(session: Any, case: dict[str, Any]) -> None:
    start, end, step = case["values"]
    if case["flags"][0] and step:  # bounds that agree with the step's sign, most of the time
        end = start + step * (abs(end) % 6)
    size = case["size"] if case["size"] is not None else max(math.ceil((end - start) / step), 0) if step else 0
    dtype = case["dtype"]
    out = session.tensor(np.zeros(size, np_type(dtype)), dtype)
    s = [scalar(session, v, D.DT_INT64) for v in (start, end, step)]
    args = [*s, out.handle]
    nulled = case["null"] in (0, 2, 3)  # start, step, out
    if nulled:
        args[case["null"]] = None
    if call(session, aclnn.aclnnArangeGetWorkspaceSize, aclnn.aclnnArange, *args, nulled=nulled) == 0 and size:
        golden = (start + np.arange(size, dtype=np.float64) * step).astype(np_type(dtype))
        assert_precision(out.numpy(), golden)


def _linspace(session: Any, case: dict[str, Any]) -> None:
    start, end, steps = case["values"][0], case["values"][1], abs(case["values"][2]) + 1
    steps = case["size"] if case["size"] is not None else steps
    dtype, s_dtype = case["dtype"], case["scalar_dtype"]
    out = session.tensor(np.zeros(steps, np_type(dtype)), dtype)
    args: list[Any] = [scalar(session, start, s_dtype), scalar(session, end, s_dtype), steps, out.handle]
    nulled = case["null"] in (0, 1, 3)  # start, end, out
    if nulled:
        args[case["null"]] = None
    if call(session, aclnn.aclnnLinspaceGetWorkspaceSize, aclnn.aclnnLinspace, *args, nulled=nulled) == 0 and steps:
        read = np_type(s_dtype)
        lo, hi = (float(np.asarray(v).astype(read)) for v in (start, end))
        if np_type(dtype).kind in "iu":  # the bounds land in out's dtype first
            lo, hi = (float(np.asarray(v).astype(np_type(dtype))) for v in (lo, hi))
        golden = np.linspace(lo, hi, steps)
        kind = np_type(dtype).kind
        assert_precision(out.numpy(), golden.astype(np_type(dtype)) if kind in "iu" else golden)


def _inplace_one(session: Any, case: dict[str, Any]) -> None:
    dtype = case["dtype"]
    x = session.tensor(small_values(dtype, case["shape"], case["seed"]), dtype)
    nulled = case["null"] == 0
    args = [None if nulled else x.handle]
    if call(session, aclnn.aclnnInplaceOneGetWorkspaceSize, aclnn.aclnnInplaceOne, *args, nulled=nulled) == 0:
        assert np.array_equal(x.numpy(), np.ones(case["shape"], np_type(dtype)))


def _search_sorteds(session: Any, case: dict[str, Any]) -> None:
    dtype = case["dtype"]
    out_int32, right = case["flags"]
    seq_values = np.sort(small_values(dtype, (case["size"] or 1,), case["seed"]))
    seq = session.tensor(seq_values, dtype)
    matching = out_int32 != (case["seed"] % 5 == 0)  # now and then the out dtype outInt32 does not ask for
    out_dtype = D.DT_INT32 if matching else D.DT_INT64
    out = session.tensor(np.zeros(0 if case["empty_out"] else 1, np_type(out_dtype)), out_dtype)
    value = case["values"][0] / 4
    args: list[Any] = [seq.handle, scalar(session, value, D.DT_FLOAT), out_int32, right, None, out.handle]
    nulled = case["null"] in (0, 1)  # sortedSequence, self
    if nulled:
        args[case["null"]] = None
    phase1, phase2 = aclnn.aclnnSearchSortedsGetWorkspaceSize, aclnn.aclnnSearchSorteds
    if call(session, phase1, phase2, *args, nulled=nulled) == 0:
        converted = np.array([np.float32(value)]).astype(np_type(dtype))
        side = "right" if right else "left"
        assert out.numpy().tolist() == np.searchsorted(seq_values, converted, side=side).tolist()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_creation_calls(case: dict[str, Any]) -> None:
    run = {"Arange": _arange, "Linspace": _linspace, "InplaceOne": _inplace_one, "SearchSorteds": _search_sorteds}
    with example() as session:
        run[case["op"]](session, case)
