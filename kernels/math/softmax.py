"""aclnnSoftmax: out = exp(x - max) / sum(exp(x - max)) along dim.

Checks: null self / out (161001); an empty self returns SUCCESS before anything else is looked at;
then self and out dtypes (F16 F32 F64 BF16, may differ), dim in [-r, r-1] (a 0-d self counts as
rank 1), rank <= 8, out's shape equal to self's (161002). L0: Contiguous -> SoftmaxV2(axes=[dim])
(AI Core for F32 / F16 / BF16, AI CPU for F64) -> Cast(out) -> ViewCopy.

The SoftmaxV2 tiling splits the rows (every element of the other axes; the tensor is seen as
[outer, R, inner]) across the vector cores and walks each core's rows in UB tiles; when one row
does not fit the UB the R axis is walked in tiles in three passes (max, sum of exp, normalise).
float16 / bfloat16 compute in float32 and round once.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, ceil_div
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import DOUBLE_BUFFER, MIN_BLOCK_BYTES, acc_dtype, ar_view, pieces
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    l0_label,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
SOFTMAX_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_DOUBLE, D.DT_BF16)
SOFTMAX_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)


class SoftmaxV2TilingData(ctypes.Structure):
    _fields_ = [
        ("rowNum", ctypes.c_int64),  # elements of the non-softmax axes (outer x inner)
        ("colNum", ctypes.c_int64),  # length of the softmax axis
        ("blockFormer", ctypes.c_int64),  # rows per core
        ("blockNum", ctypes.c_int64),
        ("ubFormer", ctypes.c_int64),  # rows per UB tile
        ("ubFactorR", ctypes.c_int64),  # softmax-axis elements per UB tile (< colNum: the three-pass template)
        ("coreNum", ctypes.c_int64),
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel walking these tiles allocates: ubFormer rows (no more than a core holds)
        of ubFactorR softmax-axis elements of the smallest element size it handles, double buffered."""
        tile = min(int(self.ubFormer), int(self.blockFormer)) * min(int(self.ubFactorR), int(self.colNum))
        return max(tile, 0) * min(itemsizes, default=1) * DOUBLE_BUFFER


def softmax_tiling(ctx: TilingContext) -> TilingResult:
    x = ctx.inputs[0]
    assert x is not None
    (axes,) = ctx.attrs
    shape = x.view_shape or (1,)
    col = shape[axes[0] % len(shape)]
    rows = max(x.numel // max(col, 1), 1)
    size = type_size(x.dtype)
    bpe = size * 2 * DOUBLE_BUFFER + 4 * 2  # x and y tiles double-buffered, two float32 work buffers
    cores = max(ctx.platform.core_num, 1)
    per_core = min(max(ceil_div(rows, cores), ceil_div(MIN_BLOCK_BYTES, col * size)), rows)
    block_num = ceil_div(rows, per_core)
    ub = ctx.platform.ub_size
    if col * bpe <= ub:
        ub_rows, ub_r = max(min(per_core, ub // (col * bpe)), 1), col
    else:
        ub_rows, ub_r = 1, ub // bpe // 8 * 8
    data = SoftmaxV2TilingData(rowNum=rows, colNum=col, blockFormer=per_core, blockNum=block_num, ubFormer=ub_rows,
                               ubFactorR=ub_r, coreNum=cores)  # fmt: skip
    key = 0 if ub_r == col else 1
    return TilingResult(tiling_key=key, block_dim=block_num, data=data, ub_bytes_per_block=ub_rows * ub_r * bpe)


def _softmax_rows(v: np.ndarray, work: np.dtype) -> np.ndarray:
    x = v.astype(work, copy=False)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


Tiles = list[tuple[int, int]]


def split_stats(x: np.ndarray, work: np.dtype, step: int) -> tuple[Tiles, np.ndarray, np.ndarray] | None:
    """The R-split template's first two passes over rows x[..., R] in tiles of ``step``: the tiles, the
    row maximum and the sum of exp(x - max); None for an empty row."""
    col = x.shape[-1]
    tiles = [(lo, min(lo + step, col)) for lo in range(0, col, step)]
    if not tiles:  # an empty row: nothing to write
        return None
    first_lo, first_hi = tiles[0]
    peak = np.max(x[..., first_lo:first_hi].astype(work), axis=-1)
    for lo, hi in tiles[1:]:
        peak = np.maximum(peak, np.max(x[..., lo:hi].astype(work), axis=-1))
    total = np.zeros_like(peak)
    for lo, hi in tiles:
        total = total + np.sum(np.exp(x[..., lo:hi].astype(work) - peak[..., None]), axis=-1)
    return tiles, peak, total


def _softmax_split(x: np.ndarray, y: np.ndarray, work: np.dtype, step: int) -> None:
    """The R-split template: one row (x[..., R]) walked in tiles of ``step``: max, sum of exp, write."""
    stats = split_stats(x, work, step)
    if stats is None:
        return
    tiles, peak, total = stats
    for lo, hi in tiles:
        y[..., lo:hi] = np.exp(x[..., lo:hi].astype(work) - peak[..., None]) / total[..., None]


@dataclass(frozen=True, slots=True)
class SoftmaxAttrs(KernelAttrs):
    """What a SoftmaxV2 binary has baked in: the dtypes of x and y, the shape of x and the axes attribute."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    axes: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> SoftmaxAttrs:
        dx, dy = signature.dtypes
        (axes,) = signature.attrs
        return cls(dx, dy, signature.shapes[0], tuple(axes))


RowsFn = Callable[[np.ndarray, np.dtype], np.ndarray]
SplitFn = Callable[[np.ndarray, np.ndarray, np.dtype, int], None]
# into(x, y): ``rows_fn`` on rows x (the work dtype) written straight into y (the same dtype), bit-identical
IntoFn = Callable[[np.ndarray, np.ndarray], None]
CHUNK_ELEMENTS = 1 << 16  # rows a merged run computes at once: about 256 KiB of float32, so the work stays in cache


class RowSoftmaxKernel:
    """The SPMD kernel of a softmax-like op (SoftmaxV2, LogSoftmaxV2): this block's rows in UB tiles,
    ``rows_fn`` on whole rows, ``split_fn`` when one row does not fit the UB (the R-split template).

    ``run_blocks`` (see ``device.interface.block_runner``) runs consecutive blocks in one call. When whole
    rows fit the UB and the softmax axis is the innermost dense run, every row is computed on its own
    (its max, its contiguous sum, elementwise exp and divide): the rows of the run are then computed in
    cache-sized chunks whatever the UB tiles were, bit-identical, and ``into`` writes float32 results
    in place (no temporaries). Other layouts walk each block's tiles as the per-block kernel does:
    numpy's summation order over a strided axis follows the shape of the piece it is given."""

    __slots__ = ("into", "rows_fn", "split_fn")

    def __init__(self, rows_fn: RowsFn, split_fn: SplitFn, into: IntoFn | None = None) -> None:
        self.rows_fn, self.split_fn, self.into = rows_fn, split_fn, into

    def __call__(self, ctx: BlockContext[SoftmaxAttrs], x: np.ndarray, y: np.ndarray) -> None:
        self.run_blocks(ctx, 1, x, y)

    def run_blocks(self, first: BlockContext[SoftmaxAttrs], count: int, x: np.ndarray, y: np.ndarray) -> None:
        data = SoftmaxV2TilingData.from_buffer_copy(first.tiling)
        lo = first.block_idx * data.blockFormer
        end = min((first.block_idx + count) * data.blockFormer, data.rowNum)
        if lo >= end:
            return
        dx, dy = first.attrs.x_dtype, first.attrs.y_dtype
        shape = first.attrs.x_shape or (1,)
        axis = first.attrs.axes[0] % len(shape)
        elements = data.rowNum * data.colNum
        xv, n_a = ar_view(x.view(dx)[:elements], shape, {axis})
        yv, _ = ar_view(y.view(dy)[:elements], shape, {axis})
        if xv.ndim == n_a:  # the softmax axis has length 1
            xv, yv = xv[..., None], yv[..., None]
        work = acc_dtype(dx)
        whole_rows = data.ubFactorR >= data.colNum
        dense = n_a == 1 and xv.strides[-1] == xv.itemsize and yv.strides[-1] == yv.itemsize
        if whole_rows and dense:
            self._rows(xv, yv, lo, end, work)
            return
        for b_lo in range(lo, end, data.blockFormer):
            self._tiles(data, xv, yv, n_a, b_lo, min(b_lo + data.blockFormer, data.rowNum), work)

    def _rows(self, xv: np.ndarray, yv: np.ndarray, lo: int, end: int, work: np.dtype) -> None:
        """Rows [lo, end) of 2-D views whose rows are dense, in cache-sized chunks."""
        step = max(CHUNK_ELEMENTS // max(xv.shape[-1], 1), 1)
        into = self.into if xv.dtype == yv.dtype == work else None
        for c_lo in range(lo, end, step):
            rows = slice(c_lo, min(c_lo + step, end))
            if into is not None:
                into(xv[rows], yv[rows])
            else:
                yv[rows] = self.rows_fn(xv[rows], work).astype(yv.dtype, copy=False)

    def _tiles(
        self, data: SoftmaxV2TilingData, xv: np.ndarray, yv: np.ndarray, n_a: int, lo: int, hi: int, work: np.dtype
    ) -> None:
        """One block's rows [lo, hi) in UB tiles of ubFormer rows, the R-split template when a row does not fit."""
        for t_lo in range(lo, hi, data.ubFormer):
            for index in pieces(t_lo, min(t_lo + data.ubFormer, hi), xv.shape[:n_a]):
                if data.ubFactorR >= data.colNum:
                    yv[index] = self.rows_fn(xv[index], work).astype(yv.dtype, copy=False)
                else:
                    self.split_fn(xv[index], yv[index], work, data.ubFactorR)


def row_softmax_kernel(rows_fn: RowsFn, split_fn: SplitFn, into: IntoFn | None = None) -> RowSoftmaxKernel:
    """The kernel of a softmax-like op (see ``RowSoftmaxKernel``)."""
    return RowSoftmaxKernel(rows_fn, split_fn, into)


def _softmax_into(x: np.ndarray, y: np.ndarray) -> None:
    """``_softmax_rows`` for float32 rows, in place in y: the same ufuncs on the same values."""
    np.subtract(x, np.max(x, axis=-1, keepdims=True), out=y)
    np.exp(y, out=y)
    np.divide(y, np.sum(y, axis=-1, keepdims=True), out=y)


softmax_kernel = row_softmax_kernel(_softmax_rows, _softmax_split, _softmax_into)


SOFTMAX_V2 = OpImpl(
    "SoftmaxV2", softmax_kernel, softmax_tiling, attrs=(("axes", "list_int"),), attr_names=("axes",),
    bins=tuple(BinSpec((d,), (d,)) for d in ("float", "float16", "bfloat16")),
    kernel_json={"opParaSize": ctypes.sizeof(SoftmaxV2TilingData)}, kernel_attrs=SoftmaxAttrs.of,
)  # fmt: skip
SOFTMAX_V2_AICPU = OpImpl(
    "SoftmaxV2", softmax_kernel, softmax_tiling, engine=Engine.AICPU, attr_names=("axes",),
    kernel_attrs=SoftmaxAttrs.of,
)  # fmt: skip


def softmax_v2_l0(x: aclTensor, dim: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::SoftmaxV2(x, axes=[dim]): AI Core for F32 F16 BF16, AI CPU for F64."""
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    io = (OP_INPUT(x), OP_OUTPUT(out), OP_ATTR([dim]))
    if x.dtype in SOFTMAX_AIC:
        status = add_to_launcher_list_aicore(executor, SOFTMAX_V2, *io)
    else:
        status = add_to_launcher_list_aicpu(executor, SOFTMAX_V2_AICPU, ("axes",), *io)
    if status != 0:
        raise L0StepFailed("SoftmaxV2", f"status {status}")
    return out


@l2_api
def aclnnSoftmaxGetWorkspaceSize(
    self: aclTensor | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnSoftmax"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    if is_empty(self):
        with create_executor() as unique:
            return unique.release(0)
    check_dtype(api, "self", self, SOFTMAX_DTYPES)
    check_dtype(api, "out", out, SOFTMAX_DTYPES)
    r = max(len(self.view_shape), 1)
    check_param(-r <= dim <= r - 1, api, f"dim {dim} is out of range [{-r}, {r - 1}].")
    check_rank(api, "self", self)
    check_param(out.view_shape == self.view_shape, api, f"out shape {list(out.view_shape)} must equal self's.")
    with create_executor() as unique:
        executor = unique.get()
        with l0_label("Contiguous"):
            x = contiguous(self, executor)
        scalar = not self.view_shape
        if scalar:
            x = reshape_view(executor, x, (1,))
        result = softmax_v2_l0(x, int(dim) % r, executor)
        if scalar:
            result = reshape_view(executor, result, ())
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SOFTMAX_V2,)
