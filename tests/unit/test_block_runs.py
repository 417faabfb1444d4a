"""Merged block runs (``run_blocks``) give the bytes the per-block kernels and the UB tile walk give.

A worker of the block pool, or a serial launch, hands a contiguous run of blocks to a kernel that can
merge them in one call. These tests pin that the merge changes no value: elementwise kernels (Sub with
and without broadcast, Exp with default and non-default attributes) against one call per block;
ReduceSum, SoftmaxV2 and LogSoftmaxV2 against an independent walk of the UB tiles the tiling describes (odd shapes,
tails, a strided reduced axis, float16 / bfloat16); Transpose against numpy's transposed copy. The
last test runs a large Sub through the device with the block pool on and off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from emulator.device.interface import Access, BlockContext, BufferArg, KernelLaunch, MemPolicy, block_runner
from emulator.device.simulated.npu import SimulatedNpu
from emulator.kernels.math.elementwise import BinaryAttrs, _read
from emulator.kernels.math.exp_log import EXP, LogAttrs
from emulator.kernels.math.pad_common import PAD_V3, PadAttrs
from emulator.kernels.math.permute import TRANSPOSE, TransposeAttrs
from emulator.kernels.math.reduce_common import REDUCE_SUM, ReduceAttrs, ReduceOpTilingData, acc_dtype, ar_view
from emulator.kernels.math.softmax import SOFTMAX_V2, SoftmaxAttrs, SoftmaxV2TilingData, _softmax_rows
from emulator.kernels.math.sub import SUB
from emulator.kernels.nn.log_softmax import LOG_SOFTMAX_V2, _log_softmax_rows
from emulator.opdev.templates import EleBaseTilingData

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
UB = 192 * 1024
rng = np.random.default_rng(16)


def _contexts(tiling: bytes, block_dim: int, attrs: Any) -> list[BlockContext[Any]]:
    return [BlockContext(b, block_dim, tiling, UB, attrs) for b in range(block_dim)]


def _runs(block_dim: int) -> list[list[int]]:
    """Ways to cut the blocks into runs: one per block, all in one, and an uneven split."""
    cut = max(block_dim // 3, 1)
    return [[1] * block_dim, [block_dim], [cut, block_dim - cut] if block_dim > cut else [block_dim]]


def _run(func: Callable[..., None], contexts: list[BlockContext[Any]], lengths: list[int], *views: np.ndarray) -> None:
    runner = block_runner(func)
    assert runner is not None
    start = 0
    for length in lengths:
        runner(contexts[start], length, *views)
        start += length


def _bytes(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint8).reshape(-1)


def _values(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return rng.normal(0.0, 3.0, shape).astype(dtype)


def _ele_tiling(total: int, former: int) -> tuple[bytes, int]:
    blocks = -(-total // former)
    data = EleBaseTilingData(dim0=total, coreNum=blocks, ubFormer=former, blockFormer=former, blockNum=blocks)
    return bytes(data), blocks


# -- elementwise ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [F32, F16, BF16])
@pytest.mark.parametrize(("shape", "other"), [((1001,), (1001,)), ((37, 29), (29,)), ((5, 1, 33), (1,))])
def test_binary_run_equals_one_call_per_block(dtype: np.dtype, shape: tuple[int, ...], other: tuple[int, ...]) -> None:
    a, b = _values(shape, dtype), _values(other, dtype)
    total = a.size
    tiling, blocks = _ele_tiling(total, 96)
    attrs = BinaryAttrs(dtype, dtype, dtype, shape, other, shape)
    contexts = _contexts(tiling, blocks, attrs)
    x1, x2 = _bytes(a), _bytes(b)
    expected = np.zeros(total * dtype.itemsize, np.uint8)
    for ctx in contexts:
        SUB.kernel(ctx, x1, x2, expected)
    np.testing.assert_array_equal(expected.view(dtype).reshape(shape), (a.astype(F32) - b.astype(F32)).astype(dtype)
                                  if dtype != F16 else a - b)  # fmt: skip
    for lengths in _runs(blocks):
        y = np.zeros_like(expected)
        _run(SUB.kernel, contexts, lengths, x1, x2, y)
        np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("dtype", [F32, F16, BF16, np.dtype(np.float64)])
@pytest.mark.parametrize("attrs", [(-1.0, 1.0, 0.0), (2.0, 0.5, 0.25)])
def test_exp_run_equals_one_call_per_block(dtype: np.dtype, attrs: tuple[float, float, float]) -> None:
    """Default Exp writes np.exp in place; other attributes and half inputs keep the computed path."""
    x = rng.uniform(-5.0, 5.0, 70001).astype(dtype)
    tiling, blocks = _ele_tiling(x.size, 4096)
    contexts = _contexts(tiling, blocks, LogAttrs(dtype, dtype, *attrs))
    kernel = EXP.aicore.kernel
    expected = np.zeros(x.nbytes, np.uint8)
    for ctx in contexts:
        kernel(ctx, _bytes(x), expected)
    if attrs == (-1.0, 1.0, 0.0):
        np.testing.assert_array_equal(expected.view(dtype), np.exp(x.astype(F32)).astype(dtype)
                                      if dtype in (F16, BF16) else np.exp(x))  # fmt: skip
    for lengths in _runs(blocks):
        y = np.zeros_like(expected)
        _run(kernel, contexts, lengths, _bytes(x), y)
        np.testing.assert_array_equal(y, expected)


# -- ReduceSum against the UB tile walk ------------------------------------------------------------------
def _reduce_walk(x: np.ndarray, axes: set[int], data: ReduceOpTilingData, dy: np.dtype) -> np.ndarray:
    """Block by block, A tile by A tile, each row's R in ubFactorR tiles summed and added in order."""
    view, n_a = ar_view(x.reshape(-1), x.shape, axes)
    rows = view.reshape(int(np.prod(view.shape[:n_a], dtype=np.int64)), -1)
    acc_t = acc_dtype(x.dtype)
    out = np.empty(rows.shape[0], dy)
    for b_lo in range(0, data.factorATotalCnt, data.factorACntPerCore):
        b_hi = min(b_lo + data.factorACntPerCore, data.factorATotalCnt)
        for t_lo in range(b_lo, b_hi, data.ubFactorA):
            tile = rows[t_lo : min(t_lo + data.ubFactorA, b_hi)]
            acc = None
            for r_lo in range(0, data.factorRTotalCnt, data.ubFactorR):
                part = np.sum(tile[:, r_lo : r_lo + data.ubFactorR], axis=-1, dtype=acc_t)
                acc = part if acc is None else np.add(acc, part)
            assert acc is not None
            out[t_lo : t_lo + len(tile)] = acc.astype(dy)
    return out


@pytest.mark.parametrize("dtype", [F32, F16, BF16, np.dtype(np.int32)])
@pytest.mark.parametrize(
    ("shape", "axes", "per_core", "ub_a", "ub_r"),
    [
        ((1024, 4096), {1}, 22, 5, 4096),  # the benchmark's rows case
        ((67, 1001), {1}, 9, 2, 1001),  # odd rows, tails in both
        ((3, 40, 257), {2}, 7, 3, 257),  # kept axes merge into one
        ((33, 50), {1}, 4, 4, 16),  # R split into tiles: the walk stays
        ((50, 33), {0}, 8, 8, 50),  # R strided (not innermost): the walk stays
    ],
)
def test_reduce_sum_run_equals_the_tile_walk(
    dtype: np.dtype, shape: tuple[int, ...], axes: set[int], per_core: int, ub_a: int, ub_r: int
) -> None:
    x = _values(shape, dtype)
    if dtype == F32:  # a NaN, infinities and signed zeros in a few places: the summed bytes still agree
        flat = x.reshape(-1)
        flat[3], flat[flat.size // 2], flat[flat.size // 2 + 1], flat[-2] = np.nan, np.inf, -np.inf, np.inf
        flat[-shape[-1] :] = -0.0
    a_total = int(np.prod([d for i, d in enumerate(shape) if i not in axes]))
    r_total = x.size // a_total
    blocks = -(-a_total // per_core)
    data = ReduceOpTilingData(factorACntPerCore=per_core, factorATotalCnt=a_total, ubFactorA=ub_a,
                              factorRCntPerCore=r_total, factorRTotalCnt=r_total, ubFactorR=ub_r, groupR=1,
                              outSize=a_total, coreNum=blocks, realCoreNum=blocks)  # fmt: skip
    dy = dtype
    contexts = _contexts(bytes(data), blocks, ReduceAttrs(dtype, dy, shape))
    axes_buf = np.array(sorted(axes), np.int64).view(np.uint8)
    with np.errstate(invalid="ignore"):  # inf + -inf: NaN, which numpy warns of
        expected = _reduce_walk(x, axes, data, dy)
        for lengths in _runs(blocks):
            y = np.zeros(a_total * dy.itemsize, np.uint8)
            _run(REDUCE_SUM.kernel, contexts, lengths, _bytes(x), axes_buf, y)
            np.testing.assert_array_equal(y, expected.view(np.uint8))  # bytes: a -0.0 is not a 0.0


# -- SoftmaxV2 against the UB tile walk ------------------------------------------------------------------
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [F32, F16, BF16])
@pytest.mark.parametrize(
    ("shape", "axis", "per_core", "ub_rows"),
    [
        ((1024, 512), 1, 22, 2),  # dense rows: chunked, float32 in place
        ((61, 1003), 1, 7, 3),  # odd rows, tails
        ((4, 9, 130), 2, 5, 2),  # kept axes merge into one
        ((40, 17), 0, 3, 2),  # softmax axis strided: the tile walk stays
    ],
)
def test_softmax_run_equals_the_tile_walk(
    op: str, dtype: np.dtype, shape: tuple[int, ...], axis: int, per_core: int, ub_rows: int
) -> None:
    kernel, rows_fn = (
        (SOFTMAX_V2.kernel, _softmax_rows) if op == "softmax" else (LOG_SOFTMAX_V2.kernel, _log_softmax_rows)
    )
    x = _values(shape, dtype)
    col = shape[axis]
    rows = x.size // col
    blocks = -(-rows // per_core)
    data = SoftmaxV2TilingData(rowNum=rows, colNum=col, blockFormer=per_core, blockNum=blocks, ubFormer=ub_rows,
                               ubFactorR=col, coreNum=blocks)  # fmt: skip
    contexts = _contexts(bytes(data), blocks, SoftmaxAttrs(dtype, dtype, shape, (axis,)))
    moved = np.moveaxis(x, axis, -1).reshape(rows, col)
    expected = np.empty((rows, col), dtype)
    for b_lo in range(0, rows, per_core):
        b_hi = min(b_lo + per_core, rows)
        for t_lo in range(b_lo, b_hi, ub_rows):
            tile = slice(t_lo, min(t_lo + ub_rows, b_hi))
            expected[tile] = rows_fn(moved[tile], acc_dtype(dtype)).astype(dtype)
    for lengths in _runs(blocks):
        y = np.zeros(x.nbytes, np.uint8)
        _run(kernel, contexts, lengths, _bytes(x), y)
        got = np.moveaxis(y.view(dtype).reshape(shape), axis, -1).reshape(rows, col)
        np.testing.assert_array_equal(_bytes(got), _bytes(expected))


# -- Transpose -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [F32, F16, np.dtype(np.int8), np.dtype(np.complex64)])
@pytest.mark.parametrize(
    ("shape", "perm"), [((300, 517), (1, 0)), ((3, 70, 9), (2, 0, 1)), ((2, 3, 4, 5), (3, 1, 0, 2))]
)
def test_transpose_run_is_the_transposed_copy(dtype: np.dtype, shape: tuple[int, ...], perm: tuple[int, ...]) -> None:
    x = _values(shape, dtype)
    expected = np.ascontiguousarray(np.transpose(x, perm))
    tiling, blocks = _ele_tiling(x.size, 1000)
    attrs = TransposeAttrs(dtype, np.dtype(np.int64), dtype, shape, expected.shape)
    contexts = _contexts(tiling, blocks, attrs)
    perm_buf = np.array(perm, np.int64).view(np.uint8)
    for lengths in _runs(blocks):
        y = np.zeros(x.nbytes, np.uint8)
        _run(TRANSPOSE.kernel, contexts, lengths, _bytes(x), perm_buf, y)
        np.testing.assert_array_equal(y, _bytes(expected))


# -- through the device: the block pool on and off -----------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_large_sub_through_the_device_is_exact(workers: int) -> None:
    """4 MiB and up goes to the pool with two workers (one merged run each); one worker runs all blocks at once."""
    n = 1 << 20
    a, b = _values((n,), F32), _values((n,), F32)
    npu = SimulatedNpu(0, block_workers=workers)
    npu.spare_cores = lambda: 1  # the pool is used whatever else the host runs
    stream = npu.create_stream()
    ptrs = [npu.malloc(n * 4, MemPolicy.HUGE_FIRST) for _ in range(3)]
    for ptr, arr in zip(ptrs, (a, b), strict=False):
        npu.heap.view(ptr, n * 4, "upload")[:] = arr.view(np.uint8)
        npu.heap.mark_written(ptr, n * 4)
    tiling, blocks = _ele_tiling(n, 40000)
    launch = KernelLaunch(
        "Sub", SUB.kernel, blocks,
        (BufferArg(ptrs[0], n * 4, Access.READ), BufferArg(ptrs[1], n * 4, Access.READ),
         BufferArg(ptrs[2], n * 4, Access.WRITE)),
        tiling, attrs=BinaryAttrs(F32, F32, F32, (n,), (n,), (n,)),
    )  # fmt: skip
    npu.launch(launch, stream)
    npu.synchronize_stream(stream)
    np.testing.assert_array_equal(npu.heap.view(ptrs[2], n * 4, "read").view(np.float32), a - b)
    npu.close()


# -- PadV3 constant mode -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [F32, F16, BF16, np.dtype(np.int8)])
@pytest.mark.parametrize(("shape", "pads"), [((40, 33), (1, 2, 0, 3)), ((3, 5, 7), (2, 0, 1, 1, 0, 4)), ((9,), (5, 6))])
def test_constant_pad_run_is_fill_and_copy(dtype: np.dtype, shape: tuple[int, ...], pads: tuple[int, ...]) -> None:
    """Fill-and-copy pieces give np.pad's bytes, NaN payloads of x included, over any cut into runs."""
    x = _values(shape, dtype)
    if dtype.kind == "f" or dtype == BF16:
        x.reshape(-1)[::7] = np.nan
    pairs = [(pads[2 * i], pads[2 * i + 1]) for i in range(len(shape))]
    value = np.array([3], dtype)
    expected = np.pad(x, pairs, constant_values=value[0])
    tiling, blocks = _ele_tiling(expected.size, 50)
    attrs = PadAttrs(dtype, shape, expected.shape, np.dtype(np.int64), "constant")
    contexts = _contexts(tiling, blocks, attrs)
    pad_buf = np.array(pads, np.int64).view(np.uint8)
    for lengths in _runs(blocks):
        y = np.zeros(expected.nbytes, np.uint8)
        _run(PAD_V3.kernel, contexts, lengths, _bytes(x), pad_buf, _bytes(value), y)
        np.testing.assert_array_equal(y, _bytes(expected))


@pytest.mark.parametrize(
    ("shape", "out_shape"), [((29,), (37, 29)), ((37, 1), (37, 29)), ((1, 5, 1), (4, 5, 6)), ((6,), (2, 3, 6))]
)
@pytest.mark.parametrize(("lo", "hi"), [(0, None), (7, 100), (31, 32)])
def test_broadcast_read_picks_the_gathered_elements(
    shape: tuple[int, ...], out_shape: tuple[int, ...], lo: int, hi: int | None
) -> None:
    """An input read through broadcasting gives, for any flat range, the elements numpy's broadcast puts there."""
    data = _values(shape, F32)
    total = int(np.prod(out_shape))
    end = min(total, hi if hi is not None else total)
    got = _read(_bytes(data), F32, shape, out_shape, lo, end)
    np.testing.assert_array_equal(got, np.broadcast_to(data, out_shape).reshape(-1)[lo:end])
