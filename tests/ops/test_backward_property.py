"""Property: the backward, loss and dropout ops over random shapes, dtypes and attributes never raise,
fail only with the real statuses, and match the float64 golden when they succeed."""

from __future__ import annotations

import numpy as np
from binary_helpers import check, empty_out, random_values, to_device
from hypothesis import given, settings
from hypothesis import strategies as st
from test_backward import FORWARDS, finite_difference
from test_loss_dropout import sce64
from test_sort_scan_property import run, session

from emulator import aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
SETTINGS = settings(max_examples=8, deadline=None)
DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT32)
shapes = st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple)
dtypes = st.sampled_from(DTYPES)
ACTIVATIONS = {"silu": "SiluBackward", "gelu": "GeluBackward", "hardswish": "HardswishBackward"}


@SETTINGS
@given(st.sampled_from(sorted(ACTIVATIONS)), shapes, shapes, dtypes, dtypes, st.integers(0, 99))
def test_activation_backward_property(op: str, dy_shape: tuple, x_shape: tuple, dt: int, xt: int, seed: int) -> None:
    """Any shapes and dtypes: a real status; on success dy · f'(x) by central differences."""
    with session() as stream:
        rng = np.random.default_rng(seed)
        dy, x = random_values(dt, dy_shape, rng), random_values(xt, x_shape, rng)
        x = np.where(np.abs(np.abs(x.astype(np.float64)) - 3) < 0.05, 1.0, x).astype(x.dtype)  # off the kinks
        out_shape = dy_shape if len(dy_shape) >= len(x_shape) else x_shape
        out = empty_out(out_shape, dt)
        name = ACTIVATIONS[op]
        phase1 = getattr(A, f"aclnn{name}GetWorkspaceSize")
        status = run(stream, phase1(to_device(dy, dt).handle, to_device(x, xt).handle, out.handle),
                     getattr(A, f"aclnn{name}"))  # fmt: skip
        if status == 0 and out.shape and 0 not in out.shape:
            full = np.broadcast_shapes(dy_shape, x_shape)
            golden = finite_difference(FORWARDS[op], np.broadcast_to(x, full), np.broadcast_to(dy, full))
            check(out, golden)


@SETTINGS
@given(shapes, st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32)), st.integers(-4, 4),
       st.booleans(), st.integers(0, 99))  # fmt: skip
def test_softmax_backward_property(shape: tuple, dtype: int, dim: int, log: bool, seed: int) -> None:
    """Any dim and shape: a real status; on success the closed-form gradient of the float64 forward."""
    with session() as stream:
        rng = np.random.default_rng(seed)
        dy = random_values(dtype, shape, rng)
        y = random_values(dtype, shape, rng)
        out = empty_out(shape, dtype)
        name = "LogSoftmaxBackward" if log else "SoftmaxBackward"
        result = getattr(A, f"aclnn{name}GetWorkspaceSize")(to_device(dy, dtype).handle, to_device(y, dtype).handle,
                                                              dim, out.handle)  # fmt: skip
        if run(stream, result, getattr(A, f"aclnn{name}")) == 0 and dy.size:
            axis = dim % max(len(shape), 1)
            d, o = dy.astype(np.float64).reshape(shape or (1,)), y.astype(np.float64).reshape(shape or (1,))
            softmax_golden = o * (d - (d * o).sum(axis, keepdims=True))
            check(out, (d - np.exp(o) * d.sum(axis, keepdims=True) if log else softmax_golden).reshape(shape))


@SETTINGS
@given(st.integers(0, 40), st.integers(0, 300), st.floats(-0.5, 1.5), st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16)),
       st.integers(0, 99))  # fmt: skip
def test_dropout_do_mask_property(n: int, mask_bytes: int, prob: float, dtype: int, seed: int) -> None:
    """Any size, mask length and prob: a real status; on success the kept elements scaled by 1 / keep_prob."""
    with session() as stream:
        rng = np.random.default_rng(seed)
        x = random_values(dtype, (n,), rng)
        mask = rng.integers(0, 256, mask_bytes, dtype=np.uint8)
        out = empty_out((n,), dtype)
        result = A.aclnnDropoutDoMaskGetWorkspaceSize(to_device(x, dtype).handle, to_device(mask, D.DT_UINT8).handle,
                                                      prob, out.handle)  # fmt: skip
        if run(stream, result, A.aclnnDropoutDoMask) == 0 and n and mask_bytes:
            bits = np.unpackbits(mask, bitorder="little")[:n].astype(bool)
            eps = float(np.finfo(np.float64).eps)
            keep = np.float32(1 - prob).astype(x.dtype).astype(np.float64)
            golden = np.where(bits, x.astype(np.float64) / keep, 0.0)
            if abs(prob) <= eps or abs(prob - 1) <= eps:  # the shortcuts: self as is, or zeros
                golden = x.astype(np.float64) * round(1 - prob)
            check(out, golden)


@SETTINGS
@given(st.integers(1, 6), st.integers(1, 7), st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)),
       st.integers(0, 99))  # fmt: skip
def test_sce_property(n: int, c: int, dtype: int, seed: int) -> None:
    """Any [N, C]: loss and backprop match the float64 golden."""
    with session() as stream:
        rng = np.random.default_rng(seed)
        x = random_values(dtype, (n, c), rng)
        labels = rng.dirichlet(np.ones(c), n).astype(x.dtype)
        loss, backprop = empty_out((n,), dtype), empty_out((n, c), dtype)
        result = A.aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
            to_device(x, dtype).handle, to_device(labels, dtype).handle, loss.handle, backprop.handle
        )
        assert run(stream, result, A.aclnnSoftmaxCrossEntropyWithLogits) == 0
        golden_loss, golden_backprop = sce64(x, labels)
        check(loss, golden_loss)
        check(backprop, golden_backprop)
