"""Test helpers of the convolution and pooling family: device tensors in the NCL / NCHW / NCDHW format
of their rank, and the direct-loop float64 goldens (one output element at a time, no im2col) the
kernels are checked against."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from binary_helpers import np_dtype
from device_helpers import device_tensor

from emulator import aclnn, npu

A = aclnn
RANK_FORMAT = {3: A.ACL_FORMAT_NCL, 4: A.ACL_FORMAT_NCHW, 5: A.ACL_FORMAT_NCDHW}


def nc_tensor(values: np.ndarray, dtype: int, fmt: int | None = None, *, strided: bool = False) -> npu.Tensor:
    """A device tensor of ``values`` in its rank's NC... format (ND for 1-d); ``strided``: a view of every
    other element of the last axis of a storage twice as long (offset 1)."""
    host = np.asarray(values, dtype=np_dtype(dtype))
    shape = tuple(host.shape)
    fmt = RANK_FORMAT.get(len(shape), A.ACL_FORMAT_ND) if fmt is None else fmt
    if not strided:
        return device_tensor(host.reshape(-1).copy(), dtype, shape, None, 0, fmt)
    storage = np.full((*shape[:-1], 2 * shape[-1] + 1), 7, dtype=host.dtype)
    storage[..., 1 : 2 * shape[-1] : 2] = host
    strides = (*(s // host.itemsize for s in storage.strides[:-1]), 2)
    return device_tensor(storage, dtype, shape, strides, 1, fmt)


def nc_out(shape: Sequence[int], dtype: int, fmt: int | None = None) -> npu.Tensor:
    return nc_tensor(np.full(tuple(shape), 7, dtype=np_dtype(dtype)), dtype, fmt)


def int_array(values: Sequence[int]) -> Any:
    array = A.aclCreateIntArray(list(values), len(values))
    assert array is not None
    return array


def golden_conv(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, stride: Sequence[int], lo: Sequence[int],
                hi: Sequence[int], dilation: Sequence[int], groups: int) -> np.ndarray:  # fmt: skip
    """Direct-loop cross-correlation in float64: every output element as the sum of its window."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    rank = x.ndim - 2
    xp = np.pad(x, ((0, 0), (0, 0), *zip(lo, hi, strict=True)))
    k = w.shape[2:]
    out = [(xp.shape[2 + i] - dilation[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(rank)]
    n, cout = x.shape[0], w.shape[0]
    cg, og = x.shape[1] // groups, cout // groups
    y = np.zeros((n, cout, *out))
    for b, co, *pos in itertools.product(range(n), range(cout), *(range(o) for o in out)):
        g = co // og
        window = tuple(slice(p * s, p * s + d * (kk - 1) + 1, d) for p, s, d, kk in zip(pos, stride, dilation, k,
                                                                                      strict=True))  # fmt: skip
        y[(b, co, *pos)] = np.sum(xp[(b, slice(g * cg, (g + 1) * cg), *window)] * w[co])
    if bias is not None:
        y += bias.astype(np.float64).reshape((1, -1) + (1,) * rank)
    return y


def golden_conv_transposed(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, stride: Sequence[int],
                           lo: Sequence[int], hi: Sequence[int], dilation: Sequence[int],
                           output_padding: Sequence[int], groups: int) -> np.ndarray:  # fmt: skip
    """Direct-loop transposed convolution in float64: every input element scattered through the kernel."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    rank = x.ndim - 2
    k = w.shape[2:]
    full = [(x.shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 + output_padding[i] for i in range(rank)]
    n, cin, og = x.shape[0], x.shape[1], w.shape[1]
    cg = cin // groups
    y = np.zeros((n, og * groups, *full))
    for b, ci, *pos in itertools.product(range(n), range(cin), *(range(s) for s in x.shape[2:])):
        g = ci // cg
        window = tuple(slice(p * s, p * s + d * (kk - 1) + 1, d) for p, s, d, kk in zip(pos, stride, dilation, k,
                                                                                      strict=True))  # fmt: skip
        y[(b, slice(g * og, (g + 1) * og), *window)] += x[(b, ci, *pos)] * w[ci]
    crop = tuple(slice(lo[i], full[i] - hi[i]) for i in range(rank))
    y = y[(slice(None), slice(None), *crop)]
    if bias is not None:
        y = y + bias.astype(np.float64).reshape((1, -1) + (1,) * rank)
    return y


def golden_max_pool(x: np.ndarray, k: Sequence[int], s: Sequence[int], pads: Sequence[int],
                    out: Sequence[int]) -> np.ndarray:  # fmt: skip
    """Direct loop: the max over each window's elements inside the input (pads: top, bottom, left, right)."""
    n, c, h, w = x.shape
    y = np.full((n, c, *out), -np.inf)
    for i, j in itertools.product(range(out[0]), range(out[1])):
        hs, ws = i * s[0] - pads[0], j * s[1] - pads[2]
        rows, cols = slice(max(hs, 0), min(hs + k[0], h)), slice(max(ws, 0), min(ws + k[1], w))
        if rows.stop > rows.start and cols.stop > cols.start:
            y[:, :, i, j] = x[:, :, rows, cols].astype(np.float64).max(axis=(2, 3))
    return y


def golden_avg_pool(x: np.ndarray, k: Sequence[int], s: Sequence[int], p: Sequence[int], out: Sequence[int],
                    include_pad: bool, divisor: int) -> np.ndarray:  # fmt: skip
    """Direct loop, PyTorch's rule: the window clipped to input + padding is the counted size with
    countIncludePad, the window clipped to the input otherwise; a non-zero divisor overrides both."""
    n, c, h, w = x.shape
    y = np.zeros((n, c, *out))
    for i, j in itertools.product(range(out[0]), range(out[1])):
        hs, ws = i * s[0] - p[0], j * s[1] - p[1]
        he, we = min(hs + k[0], h + p[0]), min(ws + k[1], w + p[1])
        size = (he - hs) * (we - ws)
        hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
        total = x[:, :, hs:he, ws:we].astype(np.float64).sum(axis=(2, 3))
        y[:, :, i, j] = total / (divisor or (size if include_pad else (he - hs) * (we - ws)))
    return y


def golden_conv_grads(x: np.ndarray, w: np.ndarray, dy: np.ndarray, stride: Sequence[int], lo: Sequence[int],
                      hi: Sequence[int], dilation: Sequence[int],
                      groups: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The exact adjoint of ``golden_conv`` in float64, by the same direct loop over output positions:
    each window's input elements receive dy times the weights, each weight dy times the window."""
    x, w, dy = x.astype(np.float64), w.astype(np.float64), dy.astype(np.float64)
    xp = np.pad(x, ((0, 0), (0, 0), *zip(lo, hi, strict=True)))
    gxp, gw = np.zeros_like(xp), np.zeros_like(w)
    k = w.shape[2:]
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    for pos in itertools.product(*(range(o) for o in dy.shape[2:])):
        window = tuple(slice(p * s, p * s + d * (kk - 1) + 1, d) for p, s, d, kk in zip(pos, stride, dilation, k,
                                                                                      strict=True))  # fmt: skip
        for g in range(groups):
            cin, cout = slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)
            d = dy[(slice(None), cout, *pos)]  # n, og
            gw[cout] += np.einsum("no,n...->o...", d, xp[(slice(None), cin, *window)])
            gxp[(slice(None), cin, *window)] += np.einsum("no,o...->n...", d, w[cout])
    crop = tuple(slice(a, a + s) for a, s in zip(lo, x.shape[2:], strict=True))
    return gxp[(slice(None), slice(None), *crop)], gw
