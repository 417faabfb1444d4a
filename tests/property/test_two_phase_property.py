"""Property: random two-phase binary calls (Add, Sub, Mul, Div) never raise, fail only with the
statuses the real ops can return, compute the right values when they succeed, and leave nothing alive.

Each example is a fresh emulated process: random shapes (equal, broadcastable or not), dtypes
(supported and not), alpha dtypes, null arguments, a non-contiguous (transposed) self, an out whose
shape may be wrong. A success is checked against a float64 golden under the precision standard
when every dtype is float32, and bit-exactly for int32 with alpha 1. A failure must return a null
executor and leave an aclGetRecentErrMsg text. Afterwards no tensor, scalar, executor or device
allocation of the call is alive.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, process
from emulator.meta.dtypes import numpy_dtype
from emulator.testing.precision import assert_precision

H2D, D2H = 1, 2
A = aclnn
F32 = A.ACL_FLOAT
OPS = {
    "Add": (A.aclnnAddGetWorkspaceSize, A.aclnnAdd, True),
    "Sub": (A.aclnnSubGetWorkspaceSize, A.aclnnSub, True),
    "Mul": (A.aclnnMulGetWorkspaceSize, A.aclnnMul, False),
    "Div": (A.aclnnDivGetWorkspaceSize, A.aclnnDiv, False),
}
ALLOWED = {
    A.ACLNN_SUCCESS,
    A.ACLNN_ERR_PARAM_NULLPTR,  # 161001
    A.ACLNN_ERR_PARAM_INVALID,  # 161002
    A.ACLNN_ERR_INNER_NULLPTR,  # 561103: an L0 step without a kernel for the combination
}
TRACKED = ("tensor", "scalar", "executor", "device_memory")
DTYPES = [A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16, A.ACL_INT32, A.ACL_INT8, A.ACL_BOOL, A.ACL_DOUBLE,
          A.ACL_INT64, A.ACL_UINT64, A.ACL_COMPLEX64]  # fmt: skip

shapes = st.lists(st.integers(0, 4), max_size=3).map(tuple)


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    self_shape = draw(shapes)
    other_kind = draw(st.sampled_from(["same", "broadcast", "random"]))
    if other_kind == "same":
        other_shape = self_shape
    elif other_kind == "broadcast":
        tail = self_shape[draw(st.integers(0, len(self_shape))) :]
        other_shape = tuple(d if draw(st.booleans()) else 1 for d in tail)
    else:
        other_shape = draw(shapes)
    likely_float = st.one_of(st.just(F32), st.sampled_from(DTYPES))
    return {
        "op": draw(st.sampled_from(sorted(OPS))),
        "self_shape": self_shape,
        "other_shape": other_shape,
        "out_shape": draw(st.one_of(st.none(), shapes)),  # None: the broadcast shape
        "dtypes": (draw(likely_float), draw(likely_float), draw(likely_float)),
        "alpha": (draw(st.sampled_from([1.0, 2.0, -0.5, 3])), draw(st.sampled_from([F32, A.ACL_INT32, A.ACL_FLOAT16]))),
        "transposed_self": draw(st.booleans()),
        "null": draw(st.sampled_from([None, None, None, None, 0, 1, 2, 3])),
        "seed": draw(st.integers(0, 2**16)),
    }


class Books:
    """What one example created, so it can be destroyed and checked."""

    def __init__(self) -> None:
        self.tensors: list[object] = []
        self.ptrs: list[int] = []

    def tensor(self, values: np.ndarray, dtype: int, transposed: bool) -> object:
        """A device tensor of ``values``; ``transposed``: a (non-contiguous) transposed view of 2-D storage."""
        storage = values.T.copy() if transposed else values
        nbytes = max(storage.nbytes, 1)
        ptr, ret = acl.rt.malloc(nbytes, 0)
        assert ret == 0
        self.ptrs.append(ptr)
        if storage.nbytes:
            assert acl.rt.memcpy(ptr, nbytes, storage.ctypes.data, storage.nbytes, H2D) == 0
        shape = list(values.shape)
        if transposed:
            strides = [1, values.shape[0]]
            storage_shape = list(storage.shape)
        else:
            strides = [int(np.prod(shape[i + 1 :], dtype=np.int64)) for i in range(len(shape))]
            storage_shape = shape
        tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, strides, 0, 2, storage_shape, len(storage_shape), ptr)
        assert tensor is not None
        self.tensors.append(tensor)
        return tensor

    def read(self, tensor_index: int, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        if out.nbytes:
            assert acl.rt.memcpy(out.ctypes.data, out.nbytes, self.ptrs[tensor_index], out.nbytes, D2H) == 0
        return out

    def release(self) -> None:
        for tensor in self.tensors:
            assert aclnn.aclDestroyTensor(tensor) == 0
        for ptr in self.ptrs:
            assert acl.rt.free(ptr) == 0


def _values(shape: tuple[int, ...], dtype: int, rng: np.random.Generator) -> np.ndarray:
    np_type = numpy_dtype(dtype)
    assert np_type is not None
    if np_type.kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if np_type.kind in "iu":
        return np.asarray(rng.integers(1, 50, size=shape), dtype=np_type)
    return np.asarray(rng.random(shape) * 4 + 0.5, dtype=np_type)  # away from 0: Div stays finite


def _golden(op: str, a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    if op == "Add":
        return a + alpha * b
    if op == "Sub":
        return a - alpha * b
    if op == "Mul":
        return a * b
    return a / b


def _check_values(call: dict[str, Any], a: np.ndarray, b: np.ndarray, got: np.ndarray) -> None:
    op, (value, alpha_dtype) = call["op"], call["alpha"]
    alpha = float(np.asarray(value).astype(numpy_dtype(alpha_dtype)))  # the scalar holds its dtype's value
    if all(d == F32 for d in call["dtypes"]):
        assert_precision(got, _golden(op, a.astype(np.float64), b.astype(np.float64), float(alpha)))
    elif all(d == A.ACL_INT32 for d in call["dtypes"]) and alpha == 1 and op != "Div":
        expected = _golden(op, a, b, 1).astype(np.int32)
        assert np.array_equal(got, expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_random_two_phase_calls_are_safe_and_right(call: dict[str, Any]) -> None:
    with process.fresh() as proc:
        proc.strict = False
        assert acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        assert aclnn.aclnnInit(None) == 0
        phase1, phase2, has_alpha = OPS[call["op"]]
        rng = np.random.default_rng(call["seed"])
        d_self, d_other, d_out = call["dtypes"]
        a = _values(call["self_shape"], d_self, rng)
        b = _values(call["other_shape"], d_other, rng)
        try:
            broadcast = np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            broadcast = a.shape
        out_shape = call["out_shape"] if call["out_shape"] is not None else broadcast
        books = Books()
        transposed = call["transposed_self"] and a.ndim == 2
        args: list[Any] = [
            books.tensor(a, d_self, transposed),
            books.tensor(b, d_other, False),
            books.tensor(np.zeros(out_shape, numpy_dtype(d_out)), d_out, False),
        ]
        scalar = None
        if has_alpha:
            scalar = aclnn.aclCreateScalar(call["alpha"][0], call["alpha"][1])
            args.insert(2, scalar)
        if call["null"] is not None and call["null"] < len(args):
            args[call["null"]] = None

        ws, executor, status = phase1(*args)
        assert status in ALLOWED, (status, acl.get_recent_err_msg())
        event(f"phase 1 status {int(status)}")
        if status != 0:
            assert executor is None and ws == 0
            assert acl.get_recent_err_msg(), "a failed phase 1 leaves an error message"
            if call["null"] is not None and call["null"] < len(args):
                assert status == A.ACLNN_ERR_PARAM_NULLPTR
        else:
            workspace = 0
            if ws:
                workspace, ret = acl.rt.malloc(ws, 0)
                assert ret == 0
            assert phase2(workspace, ws, executor, stream) == 0
            assert acl.rt.synchronize_stream(stream) == 0
            if workspace:
                assert acl.rt.free(workspace) == 0
            out_np = numpy_dtype(d_out)
            assert out_np is not None
            _check_values(call, a, b, books.read(2, out_shape, out_np))

        books.release()
        if scalar is not None:
            assert aclnn.aclDestroyScalar(scalar) == 0
        for kind in TRACKED:
            assert proc.registry.count(kind) == 0, (kind, [str(r.site) for r in proc.registry.live() if r.kind == kind])
        assert aclnn.aclnnFinalize() == 0
