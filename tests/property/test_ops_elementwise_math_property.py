"""Property: random calls of the elementwise math family (issue 14: Atan, Cos, Sin, Floor, Reciprocal,
Sign, the three Pow forms, LeakyRelu, Elu, Hardswish, Hardsigmoid, Softplus, GeluV2, Threshold) never
raise, fail only with the statuses the real ops return, match the float64 golden when they succeed
on float32, and leave nothing alive.

Each example is a fresh emulated process: a random op, self and out dtypes (supported and not),
shapes (equal, different, empty, 9-d), a transposed self, scalar attributes of random dtypes, and
sometimes a null argument. A failure must return a null executor, leave an aclGetRecentErrMsg text,
and be 161001 exactly when an argument was null.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, npu, process
from emulator.meta.dtypes import numpy_dtype
from emulator.testing.precision import assert_precision

A = aclnn
F32 = A.ACL_FLOAT
ALLOWED = {A.ACLNN_SUCCESS, A.ACLNN_ERR_PARAM_NULLPTR, A.ACLNN_ERR_PARAM_INVALID, A.ACLNN_ERR_INNER_NULLPTR}
TRACKED = ("tensor", "scalar", "executor", "device_memory")
DTYPES = [A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16, A.ACL_INT32, A.ACL_INT8, A.ACL_BOOL, A.ACL_DOUBLE, A.ACL_INT64,
          A.ACL_UINT16, A.ACL_COMPLEX64]  # fmt: skip
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _elu(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, np.expm1(x))


# name -> (argument layout, float64 golden for float32 in / out with the scalars the layout gives)
# layout: "T" a tensor (self), "S" a scalar 2.0-ish attribute, "O" the out tensor, "I" an int attribute
OPS: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    "Atan": ("TO", np.arctan),
    "Cos": ("TO", np.cos),
    "Sin": ("TO", np.sin),
    "Floor": ("TO", np.floor),
    "Reciprocal": ("TO", np.reciprocal),
    "Sign": ("TO", np.sign),
    "PowTensorScalar": ("TSO", lambda x: np.power(x, 2.0)),
    "PowTensorTensor": ("TTO", lambda x: np.power(x, x)),
    "LeakyRelu": ("TSO", lambda x: np.where(x > 0, x, 2.0 * x)),
    "Elu": ("TSSSO", lambda x: 2.0 * np.where(x > 0, x, 2.0 * np.expm1(2.0 * np.minimum(x, 0)))),
    "Hardswish": ("TO", lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "Hardsigmoid": ("TO", lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    "Softplus": ("TSSO", lambda x: np.where(2 * x > 2, x, np.logaddexp(0, 2 * x) / 2)),
    "GeluV2": ("TIO", lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    "Threshold": ("TSSO", lambda x: np.where(x > 2.0, x, 2.0)),
}
shapes = st.one_of(st.lists(st.integers(0, 4), max_size=3).map(tuple), st.just((1,) * 9))


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    op = draw(st.sampled_from(sorted(OPS)))
    shape = draw(shapes)
    likely_f32 = st.one_of(st.just(F32), st.sampled_from(DTYPES))
    return {
        "op": op,
        "shape": shape,
        "out_shape": draw(st.one_of(st.just(shape), st.just(shape), shapes)),
        "self_dtype": draw(likely_f32),
        "out_dtype": draw(likely_f32),
        "scalar_dtype": draw(st.sampled_from([F32, F32, A.ACL_DOUBLE, A.ACL_INT32, A.ACL_COMPLEX64, A.ACL_BOOL])),
        "transposed": draw(st.booleans()),
        "null": draw(st.sampled_from([None, None, None, None, 0, 1, 2, 3, 4])),
        "seed": draw(st.integers(0, 2**16)),
    }


def _values(shape: tuple[int, ...], dtype: int, rng: np.random.Generator) -> np.ndarray:
    np_type = numpy_dtype(dtype)
    assert np_type is not None
    if np_type.kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if np_type.kind in "iu":
        return np.asarray(rng.integers(1, 5, size=shape), dtype=np_type)
    return np.asarray(rng.random(shape) * 4 + 0.25, dtype=np_type)


def _tensor(session: npu.Session, values: np.ndarray, dtype: int, transposed: bool) -> Any:
    if transposed and values.ndim == 2:
        storage = values.T.copy()
        return session.tensor(storage, dtype, shape=values.shape, strides=(1, values.shape[0])).handle
    return session.tensor(values, dtype).handle


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_elementwise_math_calls_are_safe_and_right(call: dict[str, Any]) -> None:
    with process.fresh() as proc:
        proc.strict = False
        with npu.Session() as session:
            assert session.stream is not None
            rng = np.random.default_rng(call["seed"])
            layout, golden = OPS[call["op"]]
            x = _values(call["shape"], call["self_dtype"], rng)
            out_np = numpy_dtype(call["out_dtype"])
            assert out_np is not None
            out = session.tensor(np.zeros(call["out_shape"], out_np), call["out_dtype"])
            args: list[Any] = []
            for kind in layout:
                if kind == "T":
                    args.append(_tensor(session, x, call["self_dtype"], call["transposed"]))
                elif kind == "S":
                    value = np.asarray(2.0).astype(numpy_dtype(call["scalar_dtype"]))
                    args.append(session.scalar(value, call["scalar_dtype"]).handle)
                elif kind == "I":
                    args.append(0)
                else:
                    args.append(out.handle)
            null = call["null"]
            nulled = null is not None and null < len(args) and layout[null] != "I"
            if nulled:
                args[null] = None
            phase1 = getattr(aclnn, f"aclnn{call['op']}GetWorkspaceSize")
            ws, executor, status = phase1(*args)
            assert status in ALLOWED, (status, acl.get_recent_err_msg())
            event(f"{call['op']} status {int(status)}")
            if status != 0:
                assert executor is None and ws == 0
                assert acl.get_recent_err_msg(), "a failed phase 1 leaves an error message"
                assert (status == A.ACLNN_ERR_PARAM_NULLPTR) == nulled
            else:
                assert not nulled
                workspace = session.malloc(ws).addr if ws else 0
                assert getattr(aclnn, f"aclnn{call['op']}")(workspace, ws, executor, session.stream) == 0
                session.synchronize()
                if call["self_dtype"] == F32 and call["out_dtype"] == F32 and call["scalar_dtype"] == F32:
                    assert_precision(out.numpy(), golden(x.astype(np.float64)))
        for kind in TRACKED:
            assert proc.registry.count(kind) == 0, (kind, [str(r.site) for r in proc.registry.live() if r.kind == kind])
