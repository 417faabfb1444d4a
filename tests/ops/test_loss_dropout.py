"""aclnnSoftmaxCrossEntropyWithLogits and aclnnDropoutDoMask end to end.

SoftmaxCrossEntropyWithLogits: the official example, each dtype against a float64 numpy golden, the
backprop output against a finite difference of the float64 loss, a broadcast labels row, strided
inputs, and every status. DropoutDoMask: the mask's bit layout (LSB first, one bit per element),
keepProb scaling, prob 0 and 1, and every status.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, np_dtype, random_values, run_op, to_device
from test_backward import INVALID, NULLPTR, STEP, assert_rejected, kernels

from emulator import aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
FLOATS = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)


def sce64(x: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """loss [N] and backprop [N, C] in float64."""
    x = x.astype(np.float64)
    lab = np.broadcast_to(labels.astype(np.float64), x.shape)
    shifted = x - x.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -(lab * log_softmax).sum(axis=1), np.exp(log_softmax) - lab


def run_sce(stream: int, x: np.ndarray, labels: np.ndarray, dtype: int, strided: bool = False) -> tuple[Any, Any]:
    loss, backprop = empty_out((x.shape[0],), dtype), empty_out(x.shape, dtype, strided=strided)
    run_op(A.aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize, A.aclnnSoftmaxCrossEntropyWithLogits, stream,
           to_device(x, dtype, strided=strided).handle, to_device(labels, dtype, strided=strided).handle,
           loss.handle, backprop.handle)  # fmt: skip
    return loss, backprop


def test_sce_documented_example(stream: int) -> None:
    """The official example: features all 1, labels all 2 over [16, 4]: loss 8·ln 4, backprop -1.75."""
    loss, backprop = run_sce(stream, np.ones((16, 4), np.float32), np.full((16, 4), 2, np.float32), D.DT_FLOAT)
    check(loss, np.full(16, 8 * np.log(4)))
    check(backprop, np.full((16, 4), -1.75))


@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
def test_sce_dtypes_against_golden(stream: int, dtype: int) -> None:
    """Each dtype on 300 rows (several cores); labels are probability rows."""
    rng = np.random.default_rng(dtype)
    x = random_values(dtype, (300, 10), rng)
    labels = rng.dirichlet(np.ones(10), 300).astype(np_dtype(dtype))
    loss, backprop = run_sce(stream, x, labels, dtype)
    golden_loss, golden_backprop = sce64(x, labels)
    check(loss, golden_loss)
    check(backprop, golden_backprop)


def test_sce_backprop_is_the_loss_gradient(stream: int) -> None:
    """backprop = d(Σ loss)/d features: a central difference of the float64 loss; strided inputs."""
    rng = np.random.default_rng(3)
    x, labels = rng.normal(size=(3, 5)), rng.dirichlet(np.ones(5), 3)
    _, backprop = run_sce(stream, x.astype(np.float32), labels.astype(np.float32), D.DT_FLOAT, strided=True)
    x32, lab32 = x.astype(np.float32).astype(np.float64), labels.astype(np.float32).astype(np.float64)
    grad = np.zeros_like(x32)
    for index in np.ndindex(x32.shape):
        step = np.zeros_like(x32)
        step[index] = STEP
        grad[index] = (sce64(x32 + step, lab32)[0].sum() - sce64(x32 - step, lab32)[0].sum()) / (2 * STEP)
    check(backprop, grad)


def test_sce_broadcast_labels_row(stream: int) -> None:
    """A [1, C] labels row serves every sample; labels that do not broadcast fail the L0 step (561103)."""
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    labels = np.array([[0.2, 0.3, 0.5]], np.float32)
    loss, backprop = run_sce(stream, x, labels, D.DT_FLOAT)
    golden_loss, golden_backprop = sce64(x, labels)
    check(loss, golden_loss)
    check(backprop, golden_backprop)
    args = (empty_out((4, 3), D.DT_FLOAT).handle, empty_out((2, 3), D.DT_FLOAT).handle,
            empty_out((4,), D.DT_FLOAT).handle, empty_out((4, 3), D.DT_FLOAT).handle)  # fmt: skip
    assert A.aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(*args)[-1] == 561103


# -- aclnnDropoutDoMask -------------------------------------------------------------------------------------
def run_dropout(stream: int, x: np.ndarray, mask: np.ndarray, prob: float, dtype: int, strided: bool = False) -> Any:
    out = empty_out(x.shape, dtype, strided=strided)
    args = (to_device(x, dtype, strided=strided).handle, to_device(mask, D.DT_UINT8).handle, prob, out.handle)
    run_op(A.aclnnDropoutDoMaskGetWorkspaceSize, A.aclnnDropoutDoMask, stream, *args)
    return out


def test_dropout_documented_example(stream: int) -> None:
    """The official example: an all-zero 16-byte mask with prob 0.5 drops every element."""
    out = run_dropout(stream, np.arange(8, dtype=np.float32).reshape(4, 2), np.zeros(16, np.uint8), 0.5, D.DT_FLOAT)
    check(out, np.zeros((4, 2)))


def test_dropout_mask_bit_layout(stream: int) -> None:
    """Element i keeps bit i % 8 of byte i // 8 (least significant bit first)."""
    x = np.arange(1, 17, dtype=np.float32)
    mask = np.zeros(16, np.uint8)
    mask[0], mask[1] = 0b0000_0101, 0b1000_0000  # elements 0, 2 and 15 kept
    out = run_dropout(stream, x, mask, 0.75, D.DT_FLOAT)
    golden = np.zeros(16)
    golden[[0, 2, 15]] = x[[0, 2, 15]] / 0.25
    check(out, golden)


@pytest.mark.parametrize("dtype", FLOATS, ids=ident)
def test_dropout_random_masks(stream: int, dtype: int) -> None:
    """A random mask over 5000 elements (several cores, a strided self and out); keep_prob is rounded to
    self's dtype before the kernel takes its reciprocal in float32."""
    rng = np.random.default_rng(dtype)
    x = random_values(dtype, (50, 100), rng)
    mask = rng.integers(0, 256, 5120 // 8, dtype=np.uint8)
    out = run_dropout(stream, x, mask, 0.3, dtype, strided=True)
    bits = np.unpackbits(mask, bitorder="little")[:5000].reshape(50, 100).astype(bool)
    keep = float(np.float32(0.7).astype(np_dtype(dtype)).astype(np.float64))
    check(out, np.where(bits, x.astype(np.float64) / keep, 0.0))


@pytest.mark.parametrize(("prob", "launched"), [(0.0, ["TensorMove"]), (1.0, ["ZerosLike"])], ids=["prob0", "prob1"])
def test_dropout_prob_edges(stream: int, prob: float, launched: list[str]) -> None:
    """prob 0 copies self into out (ViewCopy's TensorMove, no DropOutDoMask), prob 1 is ZerosLike."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = empty_out((2, 3), D.DT_FLOAT)
    args = (to_device(x, D.DT_FLOAT).handle, to_device(np.full(16, 255, np.uint8), D.DT_UINT8).handle, prob, out.handle)
    ws, executor, ret = A.aclnnDropoutDoMaskGetWorkspaceSize(*args)
    assert ret == 0 and [k for k in kernels(executor) if k != "ViewCopy"] == launched
    assert A.aclnnDropoutDoMask(0, ws, executor, stream) == 0
    check(out, x * (1 - prob))


# -- empty tensors and statuses -----------------------------------------------------------------------------
def _t(shape: tuple, dtype: int = D.DT_FLOAT) -> Any:
    return empty_out(shape, dtype).handle


U8 = D.DT_UINT8
SCE = "SoftmaxCrossEntropyWithLogits"
STATUS_CASES = [
    (SCE, lambda: (None, _t((2, 3)), _t((2,)), _t((2, 3))), NULLPTR, "features"),
    (SCE, lambda: (_t((2, 3)), _t((2, 3)), _t((2,)), None), NULLPTR, "backprop"),
    (SCE, lambda: (_t((2, 3), D.DT_DOUBLE), _t((2, 3)), _t((2,)), _t((2, 3))), INVALID, "features dtype DT_DOUBLE"),
    (SCE, lambda: (_t((2, 3)), _t((2, 3)), _t((2,), D.DT_FLOAT16), _t((2, 3))), INVALID, "loss dtype DT_FLOAT16"),
    (SCE, lambda: (_t((6,)), _t((6,)), _t((1,)), _t((6,))), INVALID, "dimNum is 1, must be 2"),
    (SCE, lambda: (_t((1,) * 9), _t((2, 3)), _t((2,)), _t((2, 3))), INVALID, "more than 8"),
    ("DropoutDoMask", lambda: (_t((4,)), None, 0.5, _t((4,))), NULLPTR, "mask"),
    ("DropoutDoMask", lambda: (_t((4,)), _t((16,), U8), 0.5, _t((4,), D.DT_INT32)), INVALID, "can't be cast"),
    ("DropoutDoMask", lambda: (_t((4,), D.DT_INT32), _t((16,), U8), 0.5, _t((4,))), INVALID, "self dtype DT_INT32"),
    ("DropoutDoMask", lambda: (_t((4,)), _t((16,), D.DT_INT8), 0.5, _t((4,))), INVALID, "mask dtype DT_INT8"),
    ("DropoutDoMask", lambda: (_t((4,)), _t((16,), U8), 1.5, _t((4,))), INVALID, "but current is 1.500000."),
    ("DropoutDoMask", lambda: (_t((4,)), _t((16,), U8), 0.5, _t((2, 2))), INVALID, "self shape [4] and out shape"),
    ("DropoutDoMask", lambda: (_t((129,)), _t((16,), U8), 0.5, _t((129,))), INVALID, "mask has to be 32, but"),
]


def test_statuses(session: Any) -> None:
    """Every check of the real L2 code, in one process: the status and the aclGetRecentErrMsg text."""
    for name, args, code, text in STATUS_CASES:
        assert_rejected(getattr(A, f"aclnn{name}GetWorkspaceSize")(*args()), code, text)


def test_empty_launches_nothing(stream: int) -> None:
    """An empty input: SUCCESS, workspace 0, nothing launched (DropoutDoMask checks nothing after it)."""
    calls = [(SCE, (_t((0, 3)), _t((0, 3)), _t((0,)), _t((0, 3)))),
             ("DropoutDoMask", (_t((0, 3)), _t((0,), D.DT_INT8), 7.0, _t((5,), D.DT_INT32)))]  # fmt: skip
    for name, args in calls:
        ws, executor, ret = getattr(A, f"aclnn{name}GetWorkspaceSize")(*args)
        assert (ws, ret) == (0, 0) and executor.launchers == [], name
        assert getattr(A, f"aclnn{name}")(0, 0, executor, stream) == 0
