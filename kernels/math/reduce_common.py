"""Shared pieces of the reduction family: the reduce tiling, the reduce kernels and their L0 wrappers.

The L0 reductions (ReduceSum, ReduceAny, ReduceMean, ReduceMax) follow the real wrappers: the axes
become a host int64 tensor input (``ConvertToTensor``), ``keep_dims`` is an attribute, the output
shape is inferred from the axes, and the dtype decides AI Core or AI CPU (the A2 dispatch table).

Tiling is a ``ReduceOpTilingData`` in the spirit of the atvoss reduce template: the
kept (A) elements are split across cores (``factorACntPerCore``), each core walks its A range in UB
tiles of ``ubFactorA`` elements and the reduced (R) elements in tiles of ``ubFactorR``; ``groupR``
is always 1 (no cross-core R split, so no second pass). The tiling sees only shapes, so it derives
A from the output and R from the input; the kernel reads the axes from its host input, merges
adjacent axes of the same kind and walks the (A..., R...) transposed view of the input piece by
piece (hyper-rectangles whose outputs are contiguous), accumulating in float32 for float16 /
bfloat16 and in the input dtype otherwise (an integer sum wraps as on the device; the integer mean
of the AI CPU kernel sums in 64 bits and divides truncating toward zero).

``fill_l0`` makes a constant tensor (the empty-input result of ReduceSum / Mean / LayerNorm, the
missing LayerNorm weight / bias, the K == 0 result of MatMul) with the data family's L0 Fill.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, ceil_div
from emulator.errors import L0StepFailed
from emulator.kernels.math import fill
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    DType,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    convert_to_tensor,
)
from emulator.opdev.checks import check_param

D = DataType
BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.dtype(np.float32)
MIN_BLOCK_BYTES = 16 * 1024  # a core gets at least this much input (as the elementwise template)
DOUBLE_BUFFER = 2
TILE_A_WHEN_R_SPLIT = 64  # A elements per UB tile when one R row does not fit the UB


# -- dims helpers ---------------------------------------------------------------------------------
def int_array_values(array: aclIntArray) -> list[int]:
    """An aclIntArray's values as Python ints."""
    values: list[int] = []
    for v in array.values:
        assert isinstance(v, int), "an aclIntArray holds ints (aclCreateIntArray and AllocIntArray make them)"
        values.append(int(v))
    return values


def check_dims(api: str, dims: Sequence[int], rank: int) -> list[int]:
    """Every dim in [-r, r-1] (r = max(rank, 1)), none repeated after wrapping; returns them wrapped."""
    r = max(rank, 1)
    wrapped = []
    for d in dims:
        check_param(-r <= d <= r - 1, api, f"dim {d} is out of range [{-r}, {r - 1}].")
        wrapped.append(d % r)
    check_param(len(set(wrapped)) == len(wrapped), api, f"dims {list(dims)} contain a repeated dim.")
    return wrapped


def reduced_shape(shape: Sequence[int], axes: Sequence[int], keep_dims: bool) -> tuple[int, ...]:
    """The output shape of a reduction over ``axes`` (wrapped, of a non-0-d shape)."""
    red = set(axes)
    if keep_dims:
        return tuple(1 if i in red else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in red)


def all_axes_if_empty(dims: Sequence[int], rank: int) -> list[int]:
    return list(dims) if dims else list(range(rank))


# -- walking an (A..., R...) view ----------------------------------------------------------------
def merge_axes(shape: Sequence[int], reduced: set[int]) -> tuple[list[int], list[bool]]:
    """Drop size-1 axes and merge runs of adjacent axes of the same kind (A or R)."""
    merged: list[int] = []
    kinds: list[bool] = []
    for i, d in enumerate(shape):
        if d == 1:
            continue
        kind = i in reduced
        if kinds and kinds[-1] == kind:
            merged[-1] *= d
        else:
            merged.append(d)
            kinds.append(kind)
    return merged, kinds


def ar_view(flat: np.ndarray, shape: Sequence[int], reduced: set[int]) -> tuple[np.ndarray, int]:
    """A view of ``flat`` (the dense tensor) with its kept axes first, reduced axes last; and the
    number of kept axes."""
    merged, kinds = merge_axes(shape, reduced)
    arr = flat.reshape(merged)
    order = [i for i, k in enumerate(kinds) if not k] + [i for i, k in enumerate(kinds) if k]
    return arr.transpose(order), sum(1 for k in kinds if not k)


def pieces(lo: int, hi: int, shape: Sequence[int]) -> Iterator[tuple[int | slice, ...]]:
    """Index tuples (ints, then one slice) of hyper-rectangles covering the C-order flat range
    [lo, hi) of ``shape`` in order; each selects a block whose flat positions are contiguous."""
    if lo >= hi:
        return
    if not shape:
        yield ()
        return
    inner = 1
    for d in shape[1:]:
        inner *= d
    first, last = lo // inner, (hi - 1) // inner
    start = first
    if lo % inner:
        for sub in pieces(lo % inner, min(hi - first * inner, inner), shape[1:]):
            yield (first, *sub)
        start = first + 1
    end = last if hi % inner else last + 1
    if start < end:
        yield (slice(start, end),)
    if hi % inner and last >= start:
        for sub in pieces(0, hi - last * inner, shape[1:]):
            yield (last, *sub)


def piece_size(index: tuple[int | slice, ...], shape: Sequence[int]) -> int:
    """Elements of ``shape`` an index tuple from ``pieces`` selects."""
    n = 1
    for d in shape[len(index) :]:
        n *= d
    last = index[-1] if index else None
    if isinstance(last, slice):
        n *= last.stop - last.start
    return n


# -- the reduce tiling -----------------------------------------------------------------------------
class ReduceOpTilingData(ctypes.Structure):
    _fields_ = [
        ("factorACntPerCore", ctypes.c_int64),  # kept elements per core
        ("factorATotalCnt", ctypes.c_int64),  # kept elements in all (= outSize)
        ("ubFactorA", ctypes.c_int64),  # kept elements per UB tile
        ("factorRCntPerCore", ctypes.c_int64),  # reduced elements per core (all of them: groupR == 1)
        ("factorRTotalCnt", ctypes.c_int64),  # reduced elements per kept element
        ("ubFactorR", ctypes.c_int64),  # reduced elements per UB tile
        ("groupR", ctypes.c_int64),
        ("outSize", ctypes.c_int64),
        ("basicBlock", ctypes.c_int64),  # UB bytes of one tile
        ("coreNum", ctypes.c_int64),
        ("realCoreNum", ctypes.c_int64),
        ("meanVar", ctypes.c_float),  # 1 / R for ReduceMean
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel walking these tiles allocates: one input tile of ubFactorA x ubFactorR
        elements (no more than a core holds) of the smallest element size it handles, double buffered."""
        kept = min(int(self.ubFactorA), int(self.factorACntPerCore))
        tile = kept * min(int(self.ubFactorR), int(self.factorRTotalCnt))
        return max(tile, 0) * min(itemsizes, default=1) * DOUBLE_BUFFER


def _needs_fp32(dtype: int) -> bool:
    return dtype in (D.DT_FLOAT16, D.DT_BF16)


def reduce_tiling(ctx: TilingContext) -> TilingResult:
    """Kept elements across the cores, UB tiles of ubFactorA x ubFactorR input elements."""
    x, out = ctx.inputs[0], ctx.outputs[0]
    assert x is not None and out is not None
    a_total = max(out.numel, 1)
    r_total = max(x.numel // a_total, 1)
    in_size = min(type_size(x.dtype), 16)
    acc_size = 4 if _needs_fp32(x.dtype) else in_size
    cores = max(ctx.platform.core_num, 1)
    min_a = ceil_div(MIN_BLOCK_BYTES, r_total * in_size)
    per_core = min(max(ceil_div(a_total, cores), min_a), a_total)
    block_num = ceil_div(a_total, per_core)
    in_bpe = in_size * DOUBLE_BUFFER + (4 if _needs_fp32(x.dtype) else 0)  # + the float32 copy
    out_bpe = acc_size * DOUBLE_BUFFER  # accumulator + output tile
    ub = ctx.platform.ub_size
    if r_total * in_bpe + out_bpe <= ub:
        ub_r = r_total
        ub_a = max(min(per_core, ub // (r_total * in_bpe + out_bpe)), 1)
    else:
        ub_a = min(per_core, TILE_A_WHEN_R_SPLIT)
        align = max(32 // in_size, 1)
        ub_r = max((ub - ub_a * out_bpe) // (ub_a * in_bpe) // align * align, 1)
    ub_bytes = ub_a * (ub_r * in_bpe + out_bpe)
    data = ReduceOpTilingData(
        factorACntPerCore=per_core,
        factorATotalCnt=a_total,
        ubFactorA=ub_a,
        factorRCntPerCore=r_total,
        factorRTotalCnt=r_total,
        ubFactorR=ub_r,
        groupR=1,
        outSize=a_total,
        basicBlock=ub_bytes,
        coreNum=cores,
        realCoreNum=block_num,
        meanVar=1.0 / r_total,
    )
    return TilingResult(tiling_key=0, block_dim=block_num, data=data, ub_bytes_per_block=ub_bytes)


# -- the reduce kernels ------------------------------------------------------------------------------
Partial = Callable[[np.ndarray, tuple[int, ...], np.dtype], np.ndarray]
Combine = Callable[[np.ndarray, np.ndarray], np.ndarray]
Finish = Callable[[np.ndarray, ReduceOpTilingData], np.ndarray]


def acc_dtype(dtype: np.dtype) -> np.dtype:
    return F32 if dtype in (np.dtype(np.float16), BF16) else dtype


def _sum(v: np.ndarray, axes: tuple[int, ...], acc: np.dtype) -> np.ndarray:
    return np.sum(v, axis=axes, dtype=acc)


def _max(v: np.ndarray, axes: tuple[int, ...], acc: np.dtype) -> np.ndarray:
    return np.max(v, axis=axes)  # exact in the input dtype; NaN propagates


def _any(v: np.ndarray, axes: tuple[int, ...], acc: np.dtype) -> np.ndarray:
    return np.any(v, axis=axes)


def _keep(acc: np.ndarray, data: ReduceOpTilingData) -> np.ndarray:
    return acc


def _mean(acc: np.ndarray, data: ReduceOpTilingData) -> np.ndarray:
    """AI Core (float32 accumulator): sum x float32(1/R); AI CPU: sum / R, integers summed in 64 bits and
    divided truncating toward zero."""
    count = data.factorRTotalCnt
    if acc.dtype.kind in "iu":
        return np.sign(acc) * (np.abs(acc) // count)
    if acc.dtype == F32:
        return acc * np.float32(data.meanVar)
    return acc / acc.dtype.type(count)


@dataclass(frozen=True, slots=True)
class ReduceAttrs(KernelAttrs):
    """What a reduction binary has baked in: the dtypes of x and y and the shape of x (the axes come as data)."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> ReduceAttrs:
        dx, _, dy = signature.dtypes
        return cls(dx, dy, signature.shapes[0])


class ReduceKernel:
    """The SPMD kernel of one reduction: the block's kept range, in UB tiles, R walked in tiles.
    ``wide_int``: integers accumulate in 64 bits (the mean), not in their own dtype (the sum, which wraps).

    ``run_blocks`` (see ``device.interface.block_runner``) runs consecutive blocks in one call: when all
    of R is one UB tile and R is the innermost dense run, their kept ranges join into one numpy
    reduction (each row is summed by the same contiguous loop, bit-identical); other layouts walk each
    block's tiles as the per-block kernel does, since numpy's loop order, hence rounding, follows the
    shape of the piece it is given."""

    __slots__ = ("combine", "finish", "partial", "wide_int")

    def __init__(self, partial: Partial, combine: Combine, finish: Finish = _keep, wide_int: bool = False) -> None:
        self.partial, self.combine, self.finish, self.wide_int = partial, combine, finish, wide_int

    def __call__(self, ctx: BlockContext[ReduceAttrs], x: np.ndarray, axes_buf: np.ndarray, y: np.ndarray) -> None:
        self.run_blocks(ctx, 1, x, axes_buf, y)

    def run_blocks(
        self, first: BlockContext[ReduceAttrs], count: int, x: np.ndarray, axes_buf: np.ndarray, y: np.ndarray
    ) -> None:
        attrs = first.attrs
        data, elements, merged, order, n_a = _layout(first.tiling, attrs.x_shape, axes_buf.tobytes())
        per_core, a_total = data.factorACntPerCore, data.factorATotalCnt
        a_lo = first.block_idx * per_core
        a_end = min((first.block_idx + count) * per_core, a_total)
        if a_lo >= a_end:
            return
        dx, dy = attrs.x_dtype, attrs.y_dtype
        view = x.view(dx)[:elements].reshape(merged).transpose(order)  # what ``ar_view`` gives
        r_shape = view.shape[n_a:]
        # with all of R in one UB tile and R the innermost dense run, the A tiles are independent
        # contiguous rows: one numpy reduction over the whole A range is bit-identical to walking it
        # tile by tile and block by block (for other layouts numpy's loop order would change)
        rows = data.ubFactorR >= data.factorRTotalCnt and len(r_shape) == 1 and view.strides[-1] == view.itemsize
        if rows:
            out = y.view(dy)
            if n_a == 1 and self.partial is _sum and self.finish is _keep and out.dtype == acc_dtype(dx):
                # the sum straight into the output: np.sum's own loop and dtype, without its
                # temporary, the copy and the walk's Python work (each run of the pool pays it)
                np.add.reduce(view[a_lo:a_end], axis=-1, dtype=out.dtype, out=out[a_lo:a_end])
                return
            self._walk(data, view, n_a, a_lo, a_end, a_end - a_lo, out, dx)
            return
        for b_lo in range(a_lo, a_end, per_core):
            self._walk(data, view, n_a, b_lo, min(b_lo + per_core, a_total), data.ubFactorA, y.view(dy), dx)

    def _walk(
        self,
        data: ReduceOpTilingData,
        view: np.ndarray,
        n_a: int,
        a_lo: int,
        a_hi: int,
        a_step: int,
        out: np.ndarray,
        dx: np.dtype,
    ) -> None:
        """Kept elements [a_lo, a_hi) in A tiles of ``a_step``, each one's R in tiles of ubFactorR."""
        a_shape, r_shape = view.shape[:n_a], view.shape[n_a:]
        r_total = data.factorRTotalCnt
        acc_t = acc_dtype(dx)
        if self.wide_int and acc_t.kind in "iu":
            acc_t = np.dtype(np.int64)
        partial, combine = self.partial, self.combine
        position = a_lo
        for t_lo in range(a_lo, a_hi, a_step):
            for a_index in pieces(t_lo, min(t_lo + a_step, a_hi), a_shape):
                sub = view[a_index]
                lead = sub.ndim - len(r_shape)
                red_axes = tuple(range(lead, sub.ndim))
                acc = None
                for r_lo in range(0, r_total, data.ubFactorR):
                    for r_index in pieces(r_lo, min(r_lo + data.ubFactorR, r_total), r_shape):
                        tile = sub[(slice(None),) * lead + r_index]
                        part = partial(tile, tuple(range(lead, tile.ndim)), acc_t) if red_axes else tile
                        acc = part if acc is None else combine(acc, part)
                assert acc is not None
                flat = np.asarray(self.finish(np.asarray(acc), data)).reshape(-1)
                out[position : position + flat.size] = flat.astype(out.dtype, copy=False)
                position += flat.size


Layout = tuple[ReduceOpTilingData, int, tuple[int, ...], tuple[int, ...], int]


@functools.lru_cache(maxsize=256)
def _layout(tiling: bytes, shape: tuple[int, ...], axes: bytes) -> Layout:
    """What a reduce kernel derives from its tiling, x's shape and the axes' bytes before touching data:
    the tiling struct, x's element count, the merged (A/R) shape and the order putting A first, and
    the number of A axes (as ``ar_view``). A launch replayed from its plan carries the same three each
    time, and every run of the pool's helpers asks again: worked out once per distinct triple.
    The struct is only read by the kernels."""
    data = ReduceOpTilingData.from_buffer_copy(tiling)
    rank = len(shape)
    reduced = {int(a) % max(rank, 1) for a in np.frombuffer(axes, np.int64)} if rank else set()
    elements = 1
    for d in shape:
        elements *= d
    merged, kinds = merge_axes(shape, reduced)
    order = [i for i, k in enumerate(kinds) if not k] + [i for i, k in enumerate(kinds) if k]
    return data, elements, tuple(merged), tuple(order), sum(1 for k in kinds if not k)


def reduce_kernel(partial: Partial, combine: Combine, finish: Finish = _keep, wide_int: bool = False) -> ReduceKernel:
    """The kernel of one reduction (see ``ReduceKernel``)."""
    return ReduceKernel(partial, combine, finish, wide_int)


def _reduce_op(
    op_type: str,
    kernel: ReduceKernel,
    aicore: Sequence[str],
    attrs: tuple[tuple[str, str], ...],
    aicpu_attr_names: tuple[str, ...],
) -> tuple[OpImpl, OpImpl]:
    bins = tuple(BinSpec((d, "int64"), (d,)) for d in aicore)
    names = tuple(n for n, _ in attrs)
    aic = OpImpl(op_type, kernel, reduce_tiling, bins=bins, attrs=attrs, attr_names=names, input_names=("x", "axes"),
                 kernel_json={"opParaSize": ctypes.sizeof(ReduceOpTilingData)},
                 kernel_attrs=ReduceAttrs.of)  # fmt: skip
    cpu = OpImpl(op_type, kernel, reduce_tiling, engine=Engine.AICPU, attr_names=aicpu_attr_names,
                 input_names=("x", "axes"), kernel_attrs=ReduceAttrs.of)  # fmt: skip
    return aic, cpu


KEEP = (("keep_dims", "bool"),)
REDUCE_SUM, REDUCE_SUM_AICPU = _reduce_op(
    "ReduceSum", reduce_kernel(_sum, np.add), ("float", "float16", "int32", "int64", "bfloat16"), KEEP, ("keep_dims",)
)
REDUCE_ANY, _ = _reduce_op("ReduceAny", reduce_kernel(_any, np.logical_or), ("bool",), KEEP, ("keep_dims",))
REDUCE_MEAN, REDUCE_MEAN_AICPU = _reduce_op(
    "ReduceMean", reduce_kernel(_sum, np.add, _mean, wide_int=True), ("float", "float16", "bfloat16"),
    (("keep_dims", "bool"), ("noop_with_empty_axes", "bool")), ("keep_dims", "noop_with_empty_axes", "Tidx"),
)  # fmt: skip
REDUCE_MAX, REDUCE_MAX_AICPU = _reduce_op(
    "ReduceMax", reduce_kernel(_max, np.maximum), ("float16", "float", "uint8", "int32", "int64", "bfloat16", "int8"),
    KEEP, ("keep_dims",),
)  # fmt: skip

SUM_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_INT32, D.DT_INT64, D.DT_BF16)
MEAN_AIC = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
MAX_AIC = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_UINT8, D.DT_INT32, D.DT_INT64, D.DT_BF16, D.DT_INT8)


def _launch_reduce(
    aic: OpImpl,
    cpu: OpImpl,
    aic_dtypes: Sequence[int],
    x: aclTensor,
    axes: Sequence[int],
    keep_dims: bool,
    executor: aclOpExecutor,
    extra_attrs: tuple[object, ...] = (),
    cpu_extra: tuple[object, ...] = (),
) -> aclTensor:
    out = executor.alloc_tensor(reduced_shape(x.view_shape, axes, keep_dims), x.dtype)
    axes_tensor = convert_to_tensor(list(axes), D.DT_INT64, executor)
    io = (OP_INPUT(x, axes_tensor), OP_OUTPUT(out))
    if x.dtype in aic_dtypes:
        status = add_to_launcher_list_aicore(executor, aic, *io, OP_ATTR(Bool(keep_dims), *extra_attrs))
    else:
        attrs = OP_ATTR(Bool(keep_dims), *extra_attrs, *cpu_extra)
        status = add_to_launcher_list_aicpu(executor, cpu, cpu.attr_names, *io, attrs)
    if status != 0:
        raise L0StepFailed(aic.op_type, f"status {status}")
    return out


def reduce_sum_l0(x: aclTensor, axes: Sequence[int], keep_dims: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::ReduceSumOp: AI Core for F32 F16 I32 I64 BF16, AI CPU for the rest."""
    return _launch_reduce(REDUCE_SUM, REDUCE_SUM_AICPU, SUM_AIC, x, axes, keep_dims, executor)


def reduce_any_l0(x: aclTensor, axes: Sequence[int], keep_dims: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::ReduceAny (bool, AI Core)."""
    return _launch_reduce(REDUCE_ANY, REDUCE_ANY, (D.DT_BOOL,), x, axes, keep_dims, executor)


def reduce_mean_l0(x: aclTensor, axes: Sequence[int], keep_dims: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::ReduceMean: AI Core for F32 F16 BF16; AI CPU (keep_dims, noop_with_empty_axes, Tidx) otherwise."""
    return _launch_reduce(
        REDUCE_MEAN, REDUCE_MEAN_AICPU, MEAN_AIC, x, axes, keep_dims, executor, (Bool(True),), (DType(D.DT_INT64),)
    )


def reduce_max_l0(x: aclTensor, axes: Sequence[int], keep_dims: bool, executor: aclOpExecutor) -> aclTensor:
    """l0op::ReduceMax: AI Core for F16 F32 U8 I32 I64 BF16 I8, AI CPU for F64 I16."""
    return _launch_reduce(REDUCE_MAX, REDUCE_MAX_AICPU, MAX_AIC, x, axes, keep_dims, executor)


# -- Fill (the data family's L0, kernels.math.fill) ---------------------------------------------------
def fill_l0(shape: Sequence[int], value: float, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """A new tensor of ``shape`` holding ``value`` (a C-style conversion to ``dtype``): l0op::Fill with the
    shape as an int64 host tensor and the value as a 0-d host tensor."""
    dims = convert_to_tensor(list(shape) or [1], D.DT_INT64, executor)
    with np.errstate(invalid="ignore"):
        scalar = executor.alloc_scalar(value, dtype)
    if scalar is None:
        raise L0StepFailed("AllocScalar", f"no host dtype for {dtype}")
    value_tensor = convert_to_tensor(scalar, dtype, executor)
    return fill.fill_l0(dims, value_tensor, tuple(shape), executor)


OPS = (REDUCE_SUM, REDUCE_ANY, REDUCE_MEAN, REDUCE_MAX)
