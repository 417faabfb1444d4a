"""aclnnTransMatmulWeight and the weight-size rule of aclnnCalculateMatmulWeightSizeV2.

aclnnTransMatmulWeight converts a matmul weight in place to the private FRACTAL_NZ layout the cube
units read: a (..., K, N) weight becomes storage (..., ceil(N / C0), ceil(K / 16), 16, C0) — C0 16
for F16 / BF16, 32 for one-byte dtypes — element (k, n) at [n // C0, k // 16, k % 16, n % C0], the
padding zero. Its view shape stays (..., K, N) (the origin shape); its storage shape and format
become the NZ ones. The caller's buffer must hold the aligned size, which
aclnnCalculateMatmulWeightSizeV2 gives in elements: the batch dims times K aligned to 16 times N
aligned to 16 (F16 / BF16) or 32 (other dtypes).

Checks in the real order: null mmWeightRef (161001); its dtype (A2 / A3 and Ascend 950: F16 BF16
INT8 FLOAT8_E4M3FN HIFLOAT8 UINT8; 310P: F16 INT8; others F16); storage format ND; at most 8 dims
(161002). An empty weight is left alone. Then the rank rule (2 to 6 dims on A2 / A3 and for INT8,
exactly 2 otherwise; 161002). The real chain is Contiguous (or a view of the weight itself),
TransData to FRACTAL_NZ and a TensorMove back into the weight; here one TransData kernel reads the
weight and writes its NZ form in place (a single block, so no block reads what another wrote).
Emulated consumers, which read the layout back with ``nd_from_nz``: aclnnMm / aclnnMatmul (a 2-D
float weight) and aclnnWeightQuantBatchMatmulV2 (int8 / int4 weights).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.errors import L0StepFailed
from emulator.meta.dtypes import DataType
from emulator.meta.formats import aclFormat
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    Str,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
ND, NZ = int(aclFormat.ACL_FORMAT_ND), int(aclFormat.ACL_FORMAT_FRACTAL_NZ)
A2_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_INT8, D.DT_FLOAT8_E4M3FN, D.DT_HIFLOAT8, D.DT_UINT8)
P310_DTYPES = (D.DT_FLOAT16, D.DT_INT8)
HALF_BLOCK, BYTE_BLOCK = 16, 32
A2_SOCS = ("Ascend910B", "Ascend910_93")
DAV_3510 = 3510


def nz_block(dtype: int) -> int:
    """C0: the NZ fractal's inner size (16 for 2-byte dtypes, 32 otherwise)."""
    return HALF_BLOCK if dtype in (D.DT_FLOAT16, D.DT_BF16) else BYTE_BLOCK


def weight_size(shape: Sequence[int], dtype: int) -> int:
    """CalculateMatmulWeightSize: batch x align(K, 16) x align(N, C0) elements."""
    size = 1
    for i, dim in enumerate(shape):
        if i < len(shape) - 2:
            size *= dim
        elif i == len(shape) - 2:
            size *= align_up(dim, HALF_BLOCK)
        else:
            size *= align_up(dim, nz_block(dtype))
    return size


def nz_shape(shape: Sequence[int], dtype: int) -> tuple[int, ...]:
    """The FRACTAL_NZ storage shape of a (..., K, N) tensor."""
    *batch, k, n = shape
    c0 = nz_block(dtype)
    return (*batch, ceil_div(n, c0), ceil_div(k, HALF_BLOCK), HALF_BLOCK, c0)


def nd_from_nz(flat: np.ndarray, k: int, n: int, c0: int) -> np.ndarray:
    """The (batch, k, n) matrices held in FRACTAL_NZ storage (batch, ceil(n / c0), ceil(k / 16), 16, c0).

    ``flat`` holds the storage's elements (int4 already unpacked); ``c0`` is 32 bytes of them. The
    result is a view when it can be one: callers slice it, and the kernels that own it copy.
    """
    kp, np_ = align_up(k, HALF_BLOCK), align_up(n, c0)
    count = flat.size // (kp * np_)
    fractal = flat[: count * kp * np_].reshape(count, np_ // c0, kp // HALF_BLOCK, HALF_BLOCK, c0)
    return fractal.transpose(0, 2, 3, 1, 4).reshape(count, kp, np_)[:, :k, :n]


def rank_error(rank: int, dtype: int, soc: str, v2: bool) -> str | None:
    """CheckShapeDim (A2 / A3: 2 to 6 dims; else exactly 2) and CheckShapeDimV2 (2 to 6 dims, used for INT8)."""
    if v2 or soc in A2_SOCS:
        if not 2 <= rank <= 6:
            return f"It is expected that tensorShape has 2-6 dimensions, but got dimensions {rank}."
    elif rank != 2:
        return f"It is expected that tensorShape has 2 dimensions, but got dimensions {rank}."
    return None


@dataclass(frozen=True, slots=True)
class TransDataAttrs(KernelAttrs):
    """What a TransData (ND -> FRACTAL_NZ) binary has baked in: the element dtype, the ND shape, C0."""

    dtype: np.dtype
    shape: tuple[int, ...]
    c0: int

    @classmethod
    def of(cls, signature: KernelSignature) -> TransDataAttrs:
        dtype = signature.dtypes[0]
        c0 = HALF_BLOCK if dtype.itemsize == 2 else BYTE_BLOCK
        return cls(dtype, signature.shapes[0], c0)


def trans_data_tiling(ctx: TilingContext) -> TilingResult:
    """One block: the conversion runs in place on the same buffer."""
    return TilingResult(tiling_key=0, block_dim=1, data=None)


def trans_data_kernel(ctx: BlockContext[TransDataAttrs], src: np.ndarray, dst: np.ndarray) -> None:
    """Read the whole ND weight first (it may be the same memory), then write its NZ fractals, zero-padded."""
    attrs = ctx.attrs
    k, n = attrs.shape[-2:]
    count = int(np.prod(attrs.shape))
    dense = src.view(attrs.dtype)[:count].reshape(-1, k, n).copy()
    c0 = attrs.c0
    kp, np_ = align_up(k, HALF_BLOCK), align_up(n, c0)
    padded = np.zeros((dense.shape[0], kp, np_), attrs.dtype)
    padded[:, :k, :n] = dense
    fractal = padded.reshape(-1, kp // HALF_BLOCK, HALF_BLOCK, np_ // c0, c0).transpose(0, 3, 1, 2, 4)
    out = dst.view(attrs.dtype)[: fractal.size]
    out[...] = fractal.reshape(-1)


TRANS_DATA_NZ = OpImpl(
    "TransData", trans_data_kernel, trans_data_tiling, attrs=(("src_format", "str"), ("dst_format", "str")),
    attr_names=("src_format", "dst_format"),
    bins=tuple(BinSpec((d,), (d,)) for d in ("float16", "bfloat16", "int8", "uint8")),
    input_names=("src",), output_names=("dst",), kernel_attrs=TransDataAttrs.of, moved_inputs=("src",),
)  # fmt: skip


def _dtypes() -> tuple[int, ...]:
    soc = current_l2().op.soc
    if soc.short_soc_version in A2_SOCS or soc.npu_arch == DAV_3510:
        return A2_DTYPES
    return P310_DTYPES if soc.short_soc_version == "Ascend310P" else (D.DT_FLOAT16,)


def _trans_data_nz(src: aclTensor, dst: aclTensor, executor: aclOpExecutor) -> None:
    """l0op::TransData(src, FRACTAL_NZ) written straight into ``dst`` (the weight itself)."""
    groups = (OP_INPUT(src), OP_OUTPUT(dst), OP_ATTR(Str("ND"), Str("FRACTAL_NZ")))
    if add_to_launcher_list_aicore(executor, TRANS_DATA_NZ, *groups) != 0:
        raise L0StepFailed("TransData", "no binary")


@l2_api
def aclnnTransMatmulWeightGetWorkspaceSize(mmWeightRef: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnTransMatmulWeight"
    check_not_null(api, mmWeightRef=mmWeightRef)
    assert mmWeightRef is not None
    with create_executor() as unique:
        executor = unique.get()
        executor.abandon_cache(disable_repeat=True)
        check_dtype(api, "mmWeightRef", mmWeightRef, _dtypes())
        fmt = mmWeightRef.storage_format
        check_param(fmt == ND, api, f"the format of input should be ND. Actual is [{fmt}].")
        check_rank(api, "mmWeightRef", mmWeightRef)
        if is_empty(mmWeightRef):
            return unique.release(0)
        shape = tuple(mmWeightRef.view_shape)
        soc = current_l2().op.soc.short_soc_version
        error = rank_error(len(shape), mmWeightRef.dtype, soc, v2=mmWeightRef.dtype == D.DT_INT8)
        check_param(error is None, api, error or "")
        weight = contiguous(mmWeightRef, executor)
        if weight is mmWeightRef:
            weight = executor.create_view(mmWeightRef, shape, mmWeightRef.offset)
        mmWeightRef.origin_shape = shape
        mmWeightRef.storage_shape = nz_shape(shape, mmWeightRef.dtype)
        mmWeightRef.storage_format = NZ
        _trans_data_nz(weight, mmWeightRef, executor)
        return unique.release(executor.get_workspace_size())


OPS = (TRANS_DATA_NZ,)
