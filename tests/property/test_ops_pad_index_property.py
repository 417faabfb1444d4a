"""Property: the padding, repeat-interleave and index copy / put ops on random shapes, dtypes and
parameters never raise, fail only with the statuses their real L2 code returns, and match the numpy
golden bit for bit when they succeed.

Shapes have up to three axes of 0-4 elements; dtypes come from a pool wider than each op's list;
pads, dims, repeats and indices are drawn from ranges that run past the valid ones. The out tensor
is sized from the golden when there is one, so a wrong-shape out is refused as it must be.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ops_indexing_property import DTYPES, check, golden_or_none, host_values, run_two_phase, shapes

from emulator import aclnn, npu, process
from emulator.meta.dtypes import numpy_dtype

A = aclnn


def np_constant_pad(host: np.ndarray, pad: list[int], value: int) -> np.ndarray:
    widths = [(0, 0)] * host.ndim
    for i in range(len(pad) // 2):
        widths[host.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if len(pad) % 2 or len(pad) // 2 > host.ndim or any(host.shape[i] + min(b, a, b + a) < 0
                                                        for i, (b, a) in enumerate(widths)):  # fmt: skip
        raise ValueError("refused")
    if host.ndim == 0:
        return host
    grown = np.pad(host, [(max(b, 0), max(a, 0)) for b, a in widths], constant_values=value)
    return grown[tuple(slice(-min(b, 0), grown.shape[i] + min(a, 0)) for i, (b, a) in enumerate(widths))]


def np_index_copy(host: np.ndarray, dim: int, index: np.ndarray, source: np.ndarray) -> np.ndarray:
    result = np.moveaxis(host.copy(), dim, 0)
    for j, i in enumerate(index):
        result[i] = np.moveaxis(source, dim, 0)[j]
    return np.moveaxis(result, 0, dim)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    op=st.sampled_from(["constant_pad", "reflection_pad", "interleave", "interleave_dim", "index_copy", "index_put"]),
    shape=shapes,
    dtype=st.sampled_from(DTYPES),
    a=st.integers(-3, 3),
    b=st.integers(-3, 3),
    seed=st.integers(0, 2**16),
)
def test_ops_never_raise_and_match_numpy(op: str, shape: tuple[int, ...], dtype: int, a: int, b: int,
                                         seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    host = host_values(rng, shape, dtype)
    np_type = numpy_dtype(dtype)
    assert np_type is not None
    with process.fresh(), npu.Session() as s:
        x = s.tensor(host, dtype)
        if op == "constant_pad":
            pad = [a, b][: abs(a) % 3]
            golden = golden_or_none(lambda: np_constant_pad(host, pad, 1))
            if golden is not None and golden.size and 0 in host.shape and any(p > 0 for p in pad):
                golden = None  # a zero-size padded axis with a positive pad is refused
            args = (A.aclCreateIntArray(pad, len(pad)), A.aclCreateScalar(1, A.ACL_INT64))
            check(s, "aclnnConstantPadNd", golden, dtype, lambda out: (x.handle, *args, out))
        elif op == "reflection_pad":
            pads = [abs(a), abs(b)]
            valid = host.ndim in (2, 3) and 0 not in host.shape and max(pads) < host.shape[-1]
            widths = [(0, 0)] * (host.ndim - 1) + [tuple(pads)]
            golden = golden_or_none(lambda: np.pad(host, widths, mode="reflect")) if valid else None
            array = A.aclCreateIntArray(pads, 2)
            check(s, "aclnnReflectionPad1d", golden, dtype, lambda out: (x.handle, array, out))
        elif op in ("interleave", "interleave_dim"):
            repeats = abs(a)
            dim = b % host.ndim if host.ndim and op == "interleave_dim" else None
            valid = host.size > 0 and repeats > 0 and (dim is not None or op == "interleave")
            golden = golden_or_none(lambda: np.repeat(host, repeats, axis=dim)) if valid else None
            size = (golden.shape[dim] if dim is not None else golden.size) if golden is not None else 1
            if op == "interleave":
                check(s, "aclnnRepeatInterleaveInt", golden, dtype, lambda out: (x.handle, repeats, size, out))
            else:
                check(s, "aclnnRepeatInterleaveIntWithDim", golden, dtype,
                      lambda out: (x.handle, repeats, b, size, out))  # fmt: skip
        elif op == "index_copy":
            dim = a % host.ndim if host.ndim else 0
            size = host.shape[dim] if host.ndim else 1
            picks = rng.permutation(max(size, 1))[: abs(b) + 1].astype(np.int64) % max(size, 1)
            src_shape = list(host.shape)
            if src_shape:
                src_shape[dim] = picks.size
            source = host_values(rng, tuple(src_shape), dtype)
            index, src = s.tensor(picks, A.ACL_INT64), s.tensor(source, dtype)
            valid = host.ndim > 0 and size > 0
            golden = golden_or_none(lambda: np_index_copy(host, dim, picks, source)) if valid else None
            out = s.tensor(np.zeros(host.shape, np_type), dtype)
            status = run_two_phase(s, "aclnnIndexCopy", x.handle, dim, index.handle, src.handle, out.handle)
            if status == 0 and golden is not None:
                assert out.storage().tobytes() == np.ascontiguousarray(golden.astype(np_type)).tobytes()
        else:
            size = host.shape[0] if host.ndim else 0
            picks = rng.integers(0, max(size, 1), abs(b) + 1).astype(np.int64)
            values = host_values(rng, (picks.size, *host.shape[1:]), dtype)
            accumulate = a > 0
            members = A.aclCreateTensorList([s.tensor(picks, A.ACL_INT64).handle], 1)
            status = run_two_phase(s, "aclnnIndexPutImpl", x.handle, members, s.tensor(values, dtype).handle,
                                   accumulate, False)  # fmt: skip
            if status == 0 and host.size and np_type.kind in "iub" and dtype != A.ACL_BOOL:
                golden: Any = host.copy()
                if accumulate:
                    np.add.at(golden, picks, values)
                else:
                    golden[picks] = values
                assert x.storage().tobytes() == golden.tobytes()
