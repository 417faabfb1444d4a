"""aclnnLayerNorm / aclnnLayerNormWithImplMode.

out = (x - mean) * rstd * weight + bias over the trailing ``normalizedShape`` dims, with
mean = E[x] and rstd = 1 / sqrt(Var[x] + eps) (biased variance); meanOut / rstdOut (optional) have
the input's shape with the normalised dims set to 1.

Checks: null input / normalizedShape / out (161001); input and out F32 F16 BF16, weight and bias of
input's dtype or F32 and equal to each other, mean / rstd F32 F16 BF16; normalizedShape of length
1..rank matching input's trailing dims, weight / bias of that shape, out of input's shape, mean /
rstd of the reduced shape, ranks <= 8; implMode 0 (high precision), 1 (high performance) or
2 (keep FP16: every input F16) (all 161002). M (the leading elements) == 0 launches nothing;
N (the normalised elements) == 0 fills mean with 0 and rstd with NaN.

L0 (A2): Contiguous input / weight / bias, a missing weight is Fill(1) and a missing bias Fill(0);
the kernel is LayerNormV4 for a BF16 input and weight with N in {1024, 4096} or for an N < 64 that
is not a multiple of 16 (8 for F32), else LayerNormV3 (WithImplMode: the mode goes in OP_OPTION);
then each output is Cast and ViewCopy'd. Both kernels compute in float32 (mean, then the centred
variance) and write y in the input's dtype and mean / rstd in float32; the keep-FP16 binary
computes as the others (fidelity note: the device keeps float16 intermediates there).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, ceil_div
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import DOUBLE_BUFFER, MIN_BLOCK_BYTES, fill_l0, int_array_values
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OPTION,
    OP_OUTPUT,
    BinSpec,
    Float32,
    Int64,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    convert_to_tensor,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank

D = DataType
LN_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
IMPL_MODES = {0: 0x4, 1: 0x2, 2: 0x80}  # implMode -> OpImplMode: high precision, high performance, keep FP16
F32 = np.dtype(np.float32)


class LayerNormTilingData(ctypes.Structure):
    _fields_ = [
        ("rowNum", ctypes.c_int64),  # M: rows to normalise
        ("colNum", ctypes.c_int64),  # N: elements per row
        ("numBlocks", ctypes.c_int64),
        ("blockFormer", ctypes.c_int64),  # rows per core
        ("blockTail", ctypes.c_int64),  # rows of the last core
        ("ubFormer", ctypes.c_int64),  # rows per UB tile
        ("ubFactorN", ctypes.c_int64),  # columns per UB tile (< colNum: the split-N template)
        ("ubLoopOfFormerBlock", ctypes.c_int64),
        ("ubLoopOfTailBlock", ctypes.c_int64),
        ("eps", ctypes.c_float),
        ("coefficient", ctypes.c_float),  # 1 / N
        ("nullptrGamma", ctypes.c_int64),
        ("nullptrBeta", ctypes.c_int64),
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel walking these tiles allocates: an x tile and a y tile of ``ubFormer`` rows
        (no more than a core holds) by ``ubFactorN`` columns (no more than a row holds), of the smallest
        element size it handles, double buffered."""
        tile = min(int(self.ubFormer), int(self.blockFormer)) * min(int(self.ubFactorN), int(self.colNum))
        return max(tile, 0) * min(itemsizes, default=1) * 2 * DOUBLE_BUFFER


def layer_norm_tiling(ctx: TilingContext) -> TilingResult:
    x, mean = ctx.inputs[0], ctx.outputs[1]
    assert x is not None and mean is not None
    rows = max(mean.numel, 1)
    cols = max(x.numel // rows, 1)
    size = type_size(x.dtype)
    bpe = size * 2 * DOUBLE_BUFFER + 4 * 2  # x and y double-buffered, float32 working copies
    cores = max(ctx.platform.core_num, 1)
    per_core = min(max(ceil_div(rows, cores), ceil_div(MIN_BLOCK_BYTES, cols * size)), rows)
    blocks = ceil_div(rows, per_core)
    tail = rows - (blocks - 1) * per_core
    gamma_bytes = 2 * 4 * cols  # gamma and beta as float32, resident
    ub = ctx.platform.ub_size
    if cols * bpe + gamma_bytes <= ub:
        ub_rows, ub_n = max(min(per_core, (ub - gamma_bytes) // (cols * bpe)), 1), cols
        used = ub_rows * cols * bpe + gamma_bytes
    else:
        ub_rows, ub_n = 1, (ub // (bpe + 8)) // 8 * 8
        used = ub_n * (bpe + 8)
    eps = float(ctx.attrs[-1])
    data = LayerNormTilingData(
        rowNum=rows, colNum=cols, numBlocks=blocks, blockFormer=per_core, blockTail=tail, ubFormer=ub_rows,
        ubFactorN=ub_n, ubLoopOfFormerBlock=ceil_div(per_core, ub_rows), ubLoopOfTailBlock=ceil_div(tail, ub_rows),
        eps=eps, coefficient=1.0 / cols, nullptrGamma=0, nullptrBeta=0,
    )  # fmt: skip
    return TilingResult(tiling_key=0 if ub_n == cols else 1, block_dim=blocks, data=data, ub_bytes_per_block=used)


def _normalise(x: np.ndarray, g: np.ndarray, b: np.ndarray, data: LayerNormTilingData) -> tuple[np.ndarray, ...]:
    """One UB tile of rows, all columns: float32 mean, centred variance, rstd, y."""
    xs = x.astype(F32)
    coef = np.float32(data.coefficient)
    mean = np.sum(xs, axis=1, dtype=F32) * coef
    assert isinstance(mean, np.ndarray), "row sums of a 2-D tile are an array"
    centred = xs - mean[:, None]
    var = np.sum(centred * centred, axis=1, dtype=F32) * coef
    rstd = np.float32(1) / np.sqrt(var + np.float32(data.eps))
    return centred * rstd[:, None] * g + b, mean, rstd


def _normalise_split(
    x: np.ndarray, g: np.ndarray, b: np.ndarray, y: np.ndarray, data: LayerNormTilingData
) -> tuple[np.ndarray, np.ndarray]:
    """The split-N template for rows longer than the UB: sum, centred sum of squares, write — N in tiles."""
    step, cols = data.ubFactorN, data.colNum
    coef = np.float32(data.coefficient)
    tiles = [(lo, min(lo + step, cols)) for lo in range(0, cols, step)]
    total = np.zeros(x.shape[0], F32)
    for lo, hi in tiles:
        total += np.sum(x[:, lo:hi].astype(F32), axis=1, dtype=F32)
    mean = total * coef
    squares = np.zeros(x.shape[0], F32)
    for lo, hi in tiles:
        centred = x[:, lo:hi].astype(F32) - mean[:, None]
        squares += np.sum(centred * centred, axis=1, dtype=F32)
    rstd = np.float32(1) / np.sqrt(squares * coef + np.float32(data.eps))
    for lo, hi in tiles:
        centred = x[:, lo:hi].astype(F32) - mean[:, None]
        y[:, lo:hi] = centred * rstd[:, None] * g[lo:hi] + b[lo:hi]
    return mean, rstd


@dataclass(frozen=True, slots=True)
class LayerNormAttrs(KernelAttrs):
    """What a LayerNormV3 / V4 binary has baked in: the dtypes of x, gamma, beta, y, mean and rstd.

    (V4's normalized_shape input is not read by the kernel; epsilon travels in the tiling data.)"""

    x_dtype: np.dtype
    gamma_dtype: np.dtype
    beta_dtype: np.dtype
    y_dtype: np.dtype
    mean_dtype: np.dtype
    rstd_dtype: np.dtype

    @classmethod
    def v4(cls, signature: KernelSignature) -> LayerNormAttrs:
        """LayerNormV4: x, normalized_shape, gamma, beta -> y, mean, rstd."""
        dx, _, dg, db, dy, dm, dr = signature.dtypes
        return cls(dx, dg, db, dy, dm, dr)

    @classmethod
    def v3(cls, signature: KernelSignature) -> LayerNormAttrs:
        """LayerNormV3: x, gamma, beta -> y, mean, rstd."""
        dx, dg, db, dy, dm, dr = signature.dtypes
        return cls(dx, dg, db, dy, dm, dr)


def layer_norm_kernel(with_shape_input: bool) -> Callable[..., None]:
    def kernel(ctx: BlockContext[LayerNormAttrs], *views: np.ndarray) -> None:
        data = LayerNormTilingData.from_buffer_copy(ctx.tiling)
        lo = ctx.block_idx * data.blockFormer
        hi = min(lo + data.blockFormer, data.rowNum)
        if lo >= hi:
            return
        if with_shape_input:  # LayerNormV4: x, normalized_shape, gamma, beta
            x, _, gamma, beta, y, mean, rstd = views
        else:  # LayerNormV3: x, gamma, beta
            x, gamma, beta, y, mean, rstd = views
        attrs = ctx.attrs
        dx, dg, db = attrs.x_dtype, attrs.gamma_dtype, attrs.beta_dtype
        dy, dm, dr = attrs.y_dtype, attrs.mean_dtype, attrs.rstd_dtype
        rows, cols = data.rowNum, data.colNum
        x2 = x.view(dx)[: rows * cols].reshape(rows, cols)
        y2 = y.view(dy)[: rows * cols].reshape(rows, cols)
        g = gamma.view(dg)[:cols].astype(F32)
        b = beta.view(db)[:cols].astype(F32)
        m_out, r_out = mean.view(dm), rstd.view(dr)
        for t_lo in range(lo, hi, data.ubFormer):
            t_hi = min(t_lo + data.ubFormer, hi)
            if data.ubFactorN >= cols:
                out, m, r = _normalise(x2[t_lo:t_hi], g, b, data)
                y2[t_lo:t_hi] = out.astype(dy)
            else:
                m, r = _normalise_split(x2[t_lo:t_hi], g, b, y2[t_lo:t_hi], data)
            m_out[t_lo:t_hi] = m.astype(dm)
            r_out[t_lo:t_hi] = r.astype(dr)

    return kernel


def _bins(with_shape_input: bool, impl_modes: tuple[str, ...]) -> tuple[BinSpec, ...]:
    bins = []
    for mode in impl_modes:
        for x in ("float", "float16", "bfloat16"):
            if mode == "keep_fp16" and x != "float16":
                continue
            for g in dict.fromkeys((x, "float")):
                if mode == "keep_fp16" and g != "float16":
                    continue
                inputs = (x, "int64", g, g) if with_shape_input else (x, g, g)
                bins.append(BinSpec(inputs, (x, "float", "float"), impl_mode=mode))
    return tuple(bins)


LAYER_NORM_V4 = OpImpl(
    "LayerNormV4", layer_norm_kernel(True), layer_norm_tiling, attrs=(("epsilon", "float"),), attr_names=("epsilon",),
    bins=_bins(True, ("high_performance",)), input_names=("x", "normalized_shape", "gamma", "beta"),
    output_names=("y", "mean", "rstd"), kernel_json={"opParaSize": ctypes.sizeof(LayerNormTilingData)},
    kernel_attrs=LayerNormAttrs.v4,
)  # fmt: skip
LAYER_NORM_V3 = OpImpl(
    "LayerNormV3", layer_norm_kernel(False), layer_norm_tiling,
    attrs=(("begin_norm_axis", "int"), ("begin_params_axis", "int"), ("epsilon", "float")),
    attr_names=("begin_norm_axis", "begin_params_axis", "epsilon"),
    bins=_bins(False, ("high_precision", "high_performance", "keep_fp16")), input_names=("x", "gamma", "beta"),
    output_names=("y", "mean", "rstd"), kernel_json={"opParaSize": ctypes.sizeof(LayerNormTilingData)},
    kernel_attrs=LayerNormAttrs.v3,
)  # fmt: skip


def _use_v4(x: aclTensor, weight: aclTensor, n: int) -> bool:
    bf16 = x.dtype == D.DT_BF16 and weight.dtype == D.DT_BF16
    align = 8 if x.dtype == D.DT_FLOAT else 16
    return (bf16 and n in (1024, 4096)) or (n % align != 0 and n < 64)


def layer_norm_l0(
    x: aclTensor, norm_shape: list[int], weight: aclTensor, bias: aclTensor, eps: float, impl_mode: int,
    executor: aclOpExecutor,
) -> tuple[aclTensor, aclTensor, aclTensor]:  # fmt: skip
    """l0op::LayerNormV4 or LayerNormV3WithImplMode: (y in x's dtype, mean and rstd in float32)."""
    n_norm = len(norm_shape)
    stat_shape = tuple(x.view_shape[: len(x.view_shape) - n_norm]) + (1,) * n_norm
    y = executor.alloc_tensor(x.view_shape, x.dtype)
    mean = executor.alloc_tensor(stat_shape, D.DT_FLOAT)
    rstd = executor.alloc_tensor(stat_shape, D.DT_FLOAT)
    n = 1
    for d in norm_shape:
        n *= d
    outs = OP_OUTPUT(y, mean, rstd)
    if _use_v4(x, weight, n):
        shape_tensor = convert_to_tensor(norm_shape, D.DT_INT64, executor)
        ins = OP_INPUT(x, shape_tensor, weight, bias)
        status = add_to_launcher_list_aicore(executor, LAYER_NORM_V4, ins, outs, OP_ATTR(Float32(eps)))
    else:
        begin = len(x.view_shape) - n_norm
        attrs = OP_ATTR(Int64(begin), Int64(begin), Float32(eps))
        status = add_to_launcher_list_aicore(
            executor, LAYER_NORM_V3, OP_INPUT(x, weight, bias), outs, attrs, OP_OPTION(IMPL_MODES[impl_mode])
        )
    if status != 0:
        raise L0StepFailed("LayerNorm", f"status {status}")
    return y, mean, rstd


def _check(
    api: str, x: aclTensor, norm_shape: list[int], weight: aclTensor | None, bias: aclTensor | None, out: aclTensor,
    mean: aclTensor | None, rstd: aclTensor | None, impl_mode: int,
) -> tuple[int, ...]:  # fmt: skip
    check_dtype(api, "input", x, LN_DTYPES)
    check_dtype(api, "out", out, LN_DTYPES)
    for name, t in (("weightOptional", weight), ("biasOptional", bias)):
        if t is not None:
            check_dtype(api, name, t, (x.dtype, D.DT_FLOAT))
    if weight is not None and bias is not None:
        check_param(weight.dtype == bias.dtype, api, "weightOptional and biasOptional must have the same dtype.")
    for name, t in (("meanOutOptional", mean), ("rstdOutOptional", rstd)):
        if t is not None:
            check_dtype(api, name, t, LN_DTYPES)
    rank = len(x.view_shape)
    for name, t in (("input", x), ("out", out), ("weightOptional", weight), ("biasOptional", bias),
                    ("meanOutOptional", mean), ("rstdOutOptional", rstd)):  # fmt: skip
        if t is not None:
            check_rank(api, name, t)
    n_norm = len(norm_shape)
    check_param(1 <= n_norm <= rank, api, f"normalizedShape length {n_norm} must be in [1, {rank}].")
    trailing = tuple(x.view_shape[rank - n_norm :])
    check_param(trailing == tuple(norm_shape), api, f"normalizedShape {norm_shape} must match input's trailing dims.")
    for name, t in (("weightOptional", weight), ("biasOptional", bias)):
        if t is not None:
            check_param(tuple(t.view_shape) == tuple(norm_shape), api, f"{name} shape must be {norm_shape}.")
    check_param(out.view_shape == x.view_shape, api, "out shape must equal input's.")
    stat_shape = tuple(x.view_shape[: rank - n_norm]) + (1,) * n_norm
    for name, t in (("meanOutOptional", mean), ("rstdOutOptional", rstd)):
        if t is not None:
            check_param(t.view_shape == stat_shape, api, f"{name} shape must be {list(stat_shape)}.")
    check_param(impl_mode in IMPL_MODES, api, f"implMode {impl_mode} must be 0, 1 or 2.")
    if impl_mode == 2:
        fp16 = all(t is None or t.dtype == D.DT_FLOAT16 for t in (x, weight, bias))
        check_param(fp16, api, "implMode 2 (keep FP16) needs every input in float16.")
    return stat_shape


def _layer_norm(
    api: str, x: aclTensor | None, normalizedShape: aclIntArray | None, weight: aclTensor | None,
    bias: aclTensor | None, eps: float, out: aclTensor | None, mean: aclTensor | None, rstd: aclTensor | None,
    impl_mode: int,
) -> tuple[int, aclOpExecutor | None, int]:  # fmt: skip
    check_not_null(api, input=x, normalizedShape=normalizedShape, out=out)
    assert x is not None and normalizedShape is not None and out is not None
    norm_shape = int_array_values(normalizedShape)
    stat_shape = _check(api, x, norm_shape, weight, bias, out, mean, rstd, int(impl_mode))
    m_rows = 1
    for d in stat_shape:
        m_rows *= d
    n_cols = 1
    for d in norm_shape:
        n_cols *= d
    with create_executor() as unique:
        executor = unique.get()
        if m_rows == 0:
            return unique.release(0)
        if n_cols == 0:
            for target, value in ((mean, 0.0), (rstd, np.nan)):
                if target is not None:
                    with l0_label("Fill"):
                        view_copy(fill_l0(target.view_shape, value, target.dtype, executor), target, executor)
            return unique.release(executor.get_workspace_size())
        xc = contiguous(x, executor)
        w_dtype = weight.dtype if weight is not None else (bias.dtype if bias is not None else x.dtype)
        wc = contiguous(weight, executor) if weight is not None else fill_l0(norm_shape, 1.0, w_dtype, executor)
        bc = contiguous(bias, executor) if bias is not None else fill_l0(norm_shape, 0.0, w_dtype, executor)
        with l0_label("LayerNorm"):
            results = layer_norm_l0(xc, norm_shape, wc, bc, float(eps), int(impl_mode), executor)
        for result, target in zip(results, (out, mean, rstd), strict=True):
            if target is not None:
                view_copy(cast(result, target.dtype, executor), target, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnLayerNormGetWorkspaceSize(
    input: aclTensor | None,
    normalizedShape: aclIntArray | None,
    weightOptional: aclTensor | None,
    biasOptional: aclTensor | None,
    eps: float,
    out: aclTensor | None,
    meanOutOptional: aclTensor | None,
    rstdOutOptional: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* weightOptional, const aclTensor* biasOptional, double eps, aclTensor* out,
    aclTensor* meanOutOptional, aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _layer_norm("aclnnLayerNorm", input, normalizedShape, weightOptional, biasOptional, eps, out,
                       meanOutOptional, rstdOutOptional, 0)  # fmt: skip


@l2_api
def aclnnLayerNormWithImplModeGetWorkspaceSize(
    input: aclTensor | None,
    normalizedShape: aclIntArray | None,
    weightOptional: aclTensor | None,
    biasOptional: aclTensor | None,
    eps: float,
    out: aclTensor | None,
    meanOutOptional: aclTensor | None,
    rstdOutOptional: aclTensor | None,
    implMode: int,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(const aclTensor* input,
    const aclIntArray* normalizedShape, const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
    aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional, int32_t implMode,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _layer_norm("aclnnLayerNormWithImplMode", input, normalizedShape, weightOptional, biasOptional, eps, out,
                       meanOutOptional, rstdOutOptional, implMode)  # fmt: skip


OPS = (LAYER_NORM_V4, LAYER_NORM_V3)
