"""aclnnRmsNorm: y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon).

The real API is generated (the nnopbase path) over the single RmsNorm kernel, so its statuses are
the generated ones: 161001 for a null required pointer, 161002 for a (x, gamma, y, rstd) dtype
combination outside the A2 table, and shape problems only surface from shape inference (561001:
x rank outside 1..8, gamma not x's trailing dims, y / rstd not of the inferred shapes) or tiling
(561002: an empty gamma). The inputs are made contiguous automatically; the kernel writes y (x's
dtype) and rstd (float32, x's shape with the gamma dims set to 1). An empty x launches nothing.

Tiling (A2 ``RMSNormTilingData``): num_row rows (the non-gamma elements) split in blocks of
block_factor = ceil(num_row / coreNum); mode MERGE_N (2) when the aligned row fits 2000 elements,
SPLIT_D (1) when it exceeds ub_factor (the row is walked in ub_factor tiles: sum of squares, then
write), NORMAL (0) otherwise; tilingKey = mode. Math in float32, rounded once; an infinite x
gives an infinite y (A2), NaN stays NaN.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.errors import AclnnError
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Float32,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param
from emulator.status import AclnnStatus

D = DataType
F32 = np.dtype(np.float32)
# (x, gamma) -> (y, rstd) on A2
COMBOS = {
    (D.DT_FLOAT16, D.DT_FLOAT, D.DT_FLOAT16, D.DT_FLOAT),
    (D.DT_BF16, D.DT_FLOAT, D.DT_BF16, D.DT_FLOAT),
    (D.DT_FLOAT16, D.DT_FLOAT16, D.DT_FLOAT16, D.DT_FLOAT),
    (D.DT_BF16, D.DT_BF16, D.DT_BF16, D.DT_FLOAT),
    (D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT),
}
NAMES = {D.DT_FLOAT: "float", D.DT_FLOAT16: "float16", D.DT_BF16: "bfloat16"}
ROW_FACTOR = 64
MERGE_N_MAX = 2000
MODE_NORMAL, MODE_SPLIT_D, MODE_MERGE_N = 0, 1, 2


class AclnnInferShapeError(AclnnError):
    """561001: the generated API's shape inference failed."""

    status = AclnnStatus.ACLNN_ERR_INNER_INFERSHAPE_ERROR


class AclnnTilingError(AclnnError):
    """561002: the generated API's tiling failed."""

    status = AclnnStatus.ACLNN_ERR_INNER_TILING_ERROR


class RMSNormTilingData(ctypes.Structure):
    _fields_ = [
        ("num_row", ctypes.c_uint64),
        ("num_col", ctypes.c_uint64),
        ("num_col_align", ctypes.c_uint64),
        ("block_factor", ctypes.c_uint64),
        ("row_factor", ctypes.c_uint32),
        ("ub_factor", ctypes.c_uint32),
        ("epsilon", ctypes.c_float),
        ("avg_factor", ctypes.c_float),
        ("last_block_factor", ctypes.c_uint64),
        ("row_loop", ctypes.c_uint64),
        ("last_block_row_loop", ctypes.c_uint64),
        ("mode", ctypes.c_uint32),
        ("is_gemma", ctypes.c_uint32),
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel walking these tiles allocates: an x tile and a y tile of ``row_factor``
        rows (no more than a core holds) by the columns one step loads (``ub_factor`` in the split-D
        mode, the whole ``num_col`` row otherwise), of the smallest element size it handles."""
        rows = min(int(self.row_factor), int(self.block_factor))
        cols = min(int(self.ub_factor), int(self.num_col)) if self.mode == MODE_SPLIT_D else int(self.num_col)
        return rows * cols * min(itemsizes, default=1) * 2


def rms_norm_tiling(ctx: TilingContext) -> TilingResult:
    x, gamma = ctx.inputs[0], ctx.inputs[1]
    assert x is not None and gamma is not None
    num_col = gamma.numel
    if num_col == 0:
        raise AclnnTilingError("RmsNorm tiling: gamma has no element.", msg_id="EZ9999")
    num_row = x.numel // num_col
    size = type_size(x.dtype)
    ub_factor = 10240 if x.dtype == D.DT_FLOAT else 12288
    align = align_up(num_col, 32 // size)
    cores = max(ctx.platform.core_num, 1)
    block_factor = ceil_div(num_row, cores)
    blocks = ceil_div(num_row, block_factor)
    last = num_row - (blocks - 1) * block_factor
    bpe = size * 2 + 4  # x and y tiles, one float32 working copy
    cols_in_ub = min(align, ub_factor)
    budget = ctx.platform.ub_size - cols_in_ub * 4  # gamma resident as float32
    if align <= MERGE_N_MAX:
        mode, row_factor = MODE_MERGE_N, max(min(ROW_FACTOR, budget // (align * bpe)), 1)
    elif align > ub_factor:
        mode, row_factor = MODE_SPLIT_D, 1
    else:
        mode, row_factor = MODE_NORMAL, 1
    ub_bytes = row_factor * cols_in_ub * bpe + cols_in_ub * 4
    data = RMSNormTilingData(
        num_row=num_row, num_col=num_col, num_col_align=align, block_factor=block_factor, row_factor=row_factor,
        ub_factor=ub_factor, epsilon=float(ctx.attrs[0]), avg_factor=1.0 / num_col, last_block_factor=last,
        row_loop=ceil_div(block_factor, row_factor), last_block_row_loop=ceil_div(last, row_factor), mode=mode,
        is_gemma=0,
    )  # fmt: skip
    return TilingResult(tiling_key=mode, block_dim=blocks, data=data, ub_bytes_per_block=ub_bytes)


def _apply(x: np.ndarray, rstd: np.ndarray, g: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # inf x 0 in a row holding an infinity
        y = x * rstd[:, None] * g
        inf = np.isinf(x)
        if inf.any():  # A2: an infinite input stays infinite (its row's rstd is 0)
            y = np.where(inf, x * g, y)
    return y


@dataclass(frozen=True, slots=True)
class RmsNormAttrs(KernelAttrs):
    """What an RmsNorm binary has baked in: the dtypes of x, gamma, y and rstd (epsilon travels in the tiling)."""

    x_dtype: np.dtype
    gamma_dtype: np.dtype
    y_dtype: np.dtype
    rstd_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> RmsNormAttrs:
        dx, dg, dy, dr = signature.dtypes
        return cls(dx, dg, dy, dr)


def rms_norm_kernel(
    ctx: BlockContext[RmsNormAttrs], x: np.ndarray, gamma: np.ndarray, y: np.ndarray, rstd: np.ndarray
) -> None:
    data = RMSNormTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.block_factor
    hi = min(lo + data.block_factor, data.num_row)
    if lo >= hi:
        return
    attrs = ctx.attrs
    dx, dg, dy, dr = attrs.x_dtype, attrs.gamma_dtype, attrs.y_dtype, attrs.rstd_dtype
    rows, cols = int(data.num_row), int(data.num_col)
    x2 = x.view(dx)[: rows * cols].reshape(rows, cols)
    y2 = y.view(dy)[: rows * cols].reshape(rows, cols)
    g = gamma.view(dg)[:cols].astype(F32)
    r_out = rstd.view(dr)
    eps, avg = np.float32(data.epsilon), np.float32(data.avg_factor)
    step = int(data.ub_factor) if data.mode == MODE_SPLIT_D else cols
    tiles = [(c, min(c + step, cols)) for c in range(0, cols, step)]
    for t_lo in range(lo, hi, data.row_factor):
        t_hi = min(t_lo + data.row_factor, hi)
        squares = np.zeros(t_hi - t_lo, F32)
        for c_lo, c_hi in tiles:
            xs = x2[t_lo:t_hi, c_lo:c_hi].astype(F32)
            squares += np.sum(xs * xs, axis=1, dtype=F32)
        r = np.float32(1) / np.sqrt(squares * avg + eps)
        for c_lo, c_hi in tiles:
            xs = x2[t_lo:t_hi, c_lo:c_hi].astype(F32)
            y2[t_lo:t_hi, c_lo:c_hi] = _apply(xs, r, g[c_lo:c_hi]).astype(dy)
        r_out[t_lo:t_hi] = r.astype(dr)


RMS_NORM = OpImpl(
    "RmsNorm", rms_norm_kernel, rms_norm_tiling, attrs=(("epsilon", "float"),), attr_names=("epsilon",),
    bins=tuple(BinSpec((NAMES[x], NAMES[g]), (NAMES[y], NAMES[r])) for x, g, y, r in sorted(COMBOS)),
    input_names=("x", "gamma"), output_names=("y", "rstd"),
    kernel_json={"opParaSize": ctypes.sizeof(RMSNormTilingData)}, kernel_attrs=RmsNormAttrs.of,
)  # fmt: skip


def _infer(x: aclTensor, gamma: aclTensor) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """InferShape: y of x's shape; rstd of x's shape with gamma's (trailing) dims set to 1."""
    xs, gs = tuple(x.view_shape), tuple(gamma.view_shape)
    if not 1 <= len(xs) <= 8:
        raise AclnnInferShapeError(f"RmsNorm infershape: x rank {len(xs)} must be in [1, 8].", msg_id="EZ9999")
    if len(gs) > len(xs) or (gs and xs[len(xs) - len(gs) :] != gs):
        raise AclnnInferShapeError(f"RmsNorm infershape: gamma {list(gs)} must be the trailing dims of x {list(xs)}.",
                                   msg_id="EZ9999")  # fmt: skip
    return xs, xs[: len(xs) - len(gs)] + (1,) * len(gs)


@l2_api
def aclnnRmsNormGetWorkspaceSize(
    x: aclTensor | None, gamma: aclTensor | None, epsilon: float, yOut: aclTensor | None, rstdOut: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
    const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRmsNorm"
    check_not_null(api, x=x, gamma=gamma, yOut=yOut, rstdOut=rstdOut)
    assert x is not None and gamma is not None and yOut is not None and rstdOut is not None
    combo = (x.dtype, gamma.dtype, yOut.dtype, rstdOut.dtype)
    check_param(combo in COMBOS, api, "the dtypes of x, gamma, yOut and rstdOut are not a supported combination.")
    y_shape, rstd_shape = _infer(x, gamma)
    if yOut.view_shape != y_shape or rstdOut.view_shape != rstd_shape:
        raise AclnnInferShapeError(f"RmsNorm infershape: yOut must be {list(y_shape)} and rstdOut {list(rstd_shape)}.",
                                   msg_id="EZ9999")  # fmt: skip
    if gamma.numel == 0:
        raise AclnnTilingError("RmsNorm tiling: gamma has no element.", msg_id="EZ9999")
    with create_executor() as unique:
        executor = unique.get()
        if x.numel == 0:
            return unique.release(0)
        with l0_label("Contiguous"):
            xc, gc = contiguous(x, executor), contiguous(gamma, executor)
        y = executor.alloc_tensor(y_shape, yOut.dtype)
        rstd = executor.alloc_tensor(rstd_shape, rstdOut.dtype)
        status = add_to_launcher_list_aicore(
            executor, RMS_NORM, OP_INPUT(xc, gc), OP_OUTPUT(y, rstd), OP_ATTR(Float32(float(epsilon)))
        )
        if status != 0:
            raise AclnnTilingError(f"{api}: the RmsNorm kernel could not be prepared.", msg_id="EZ9999")
        with l0_label("ViewCopy"):
            view_copy(y, yOut, executor)
            view_copy(rstd, rstdOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (RMS_NORM,)
