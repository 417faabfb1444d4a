"""aclnnFlashAttentionScore: attention_out = Dropout(Softmax(Mask(scale * (pse + Q·Kᵀ))), keepProb) · V.

L2 as the real op is written (ops-transformer attention/flash_attention_score): a null query, key,
value, inputLayout, softmaxMaxOut, softmaxSumOut or attentionOutOut is 161001, before anything else.
Three empty outputs end the call (no kernel). Then, all 161002: query, key and value of one dtype,
realShift of it too; headNum > 0; the layout one of BSH / SBH (3-D) and BSND / BNSD (4-D) and
matching query's rank; query's head dim equal to key's and at least value's; at most 768. The
L0 chain is Contiguous of every tensor, the FlashAttentionScore kernel, and ViewCopy of
softmaxMax, softmaxSum and attentionOut; the real L2 tests each of those L0 results for null and
returns ACLNN_ERR_PARAM_NULLPTR (161001), so an out of the wrong shape or dtype is 161001 here too.
softmaxOutOut is never written (the real L2 leaves it: "not used now").

The L0 kernel ignores its launch status (as the real L0 does): what the FlashAttentionScore tiling
refuses — keepProb outside (0, 1], a sparse mode outside 0..6, N1 not a multiple of N2, a mask
neither 2-D nor 4-D or of the wrong size for its sparse mode, a pse of an unsupported shape, a
drop mask too short, no prefix for sparse mode 5 / 6 — fails the launch at phase 2.

aclnnFlashAttentionScoreV2 is the same body with pseType (0: the pse added after the scale; 1: before
it, as V1; 2 / 3, the inner ALiBi pse, are checked by the L2 and refused at the launch as not emulated).

Kernel: (batch, head, row chunk) units — a whole head when its scores fit ``SCORES_PER_UNIT`` — are
split across the cores; each unit is one vectorised ``attend`` of its query rows against the head's
(the GQA group's) keys and values. The
statistics are written as the real kernel lays them out: [B, N1, S1, 8] float32, the row's value
repeated in the 8 lanes.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.errors import AclnnError
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.sort import l0_failure_is_nullptr
from emulator.kernels.nn.attention_common import (
    LAYOUT_CODES,
    S1_TILE,
    as_bnsd,
    attend,
    layout_shape,
    rows_per_unit,
    sparse_mask,
    unpack_bits,
)
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Float32,
    Int64,
    OpImpl,
    Str,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    convert_to_tensor,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param

D = DataType
FA_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_FLOAT)
MASK_DTYPES = (D.DT_BOOL, D.DT_UINT8)
HEAD_DIM_MAX = 768
STAT_LANES = 8
COMPRESSED = (2, 3, 4)  # sparse modes whose mask is the optimised 2048 x 2048 lower triangle
PREFIX_MODES = (5, 6)
SYSTEM_WORKSPACE = 16 * 1024 * 1024
PSE_MUL_ADD, PSE_ADD_MUL = 0, 1
S2_TILE = 128


class FlashAttentionScoreTilingData(ctypes.Structure):
    _fields_ = [
        ("b", ctypes.c_int64),
        ("n1", ctypes.c_int64),
        ("n2", ctypes.c_int64),
        ("s1", ctypes.c_int64),
        ("s2", ctypes.c_int64),
        ("d", ctypes.c_int64),
        ("dv", ctypes.c_int64),
        ("layout", ctypes.c_int64),
        ("sparseMode", ctypes.c_int64),
        ("preTokens", ctypes.c_int64),
        ("nextTokens", ctypes.c_int64),
        ("scaleValue", ctypes.c_float),
        ("keepProb", ctypes.c_float),
        ("hasPse", ctypes.c_int64),
        ("pseType", ctypes.c_int64),  # 1: scale * (q·kᵀ + pse); 0: scale * q·kᵀ + pse
        ("hasMask", ctypes.c_int64),
        ("hasDrop", ctypes.c_int64),
        ("pseDims", ctypes.c_int64 * 4),
        ("maskDims", ctypes.c_int64 * 4),
        ("s1Tile", ctypes.c_int64),
        ("totalUnits", ctypes.c_int64),
        ("unitsPerBlock", ctypes.c_int64),
    ]


def _refuse(ok: bool, message: str) -> None:
    if not ok:
        raise AclnnError(f"FlashAttentionScore tiling: {message}", msg_id="EZ9999")


def _axes(layout: str, q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...], n1: int) -> tuple[int, ...]:
    """(b, n2, s1, s2, d, dv) of a layout (the L2's AnalysisAxis); 0s where the head dim is 0."""
    if layout in ("BSH", "SBH"):
        d = q[2] // n1
        if d == 0:
            return (0, 0, 0, 0, 0, 0)
        n2 = k[2] // d
        b, s1, s2 = (q[0], q[1], k[1]) if layout == "BSH" else (q[1], q[0], k[0])
        return (b, n2, s1, s2, d, v[2] // max(n2, 1))
    if layout == "BSND":
        return (q[0], k[2], q[1], k[1], q[3], v[3])
    return (q[0], k[1], q[2], k[2], q[3], v[3])  # BNSD


def _dims4(shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A 2-D [S1, S2] mask or pse seen as [1, 1, S1, S2]."""
    full = (1,) * (4 - len(shape)) + tuple(shape)
    return (full[0], full[1], full[2], full[3])


def fa_tiling(ctx: TilingContext) -> TilingResult:
    """The checks of the real tiling that change what is computed, and the units per core."""
    q, k, v, pse, drop, _pad, mask, prefix = ctx.inputs
    assert q is not None and k is not None and v is not None and pse is not None and drop is not None
    assert mask is not None and prefix is not None
    scale, keep_prob, pre, nxt, n1, layout, _precise, sparse, pse_type = ctx.attrs[:9]
    name = str(layout)
    b, n2, s1, s2, d, dv = _axes(name, q.view_shape, k.view_shape, v.view_shape, int(n1))
    has_pse, has_mask, has_drop = pse.numel > 0, mask.numel > 0, drop.numel > 0
    _refuse(0 < float(keep_prob) <= 1, "keepProb value must be in range of (0, 1].")
    _refuse(0 <= int(sparse) <= 6, f"Not support sparse mode of {int(sparse)}.")
    _refuse(0 <= int(pse_type) <= 3, "pseType value is out of range")
    _refuse(
        int(pse_type) in (PSE_MUL_ADD, PSE_ADD_MUL), f"pseType {int(pse_type)} (the inner ALiBi pse) is not emulated."
    )
    _refuse(n2 > 0 and int(n1) % n2 == 0, f"n1Size [{int(n1)}] should be a multiple of n2Size [{n2}].")
    pse_dims = _dims4(pse.view_shape) if has_pse else (0, 0, 0, 0)
    if has_pse:
        pb, pn, ps1, ps2 = pse_dims
        _refuse(len(pse.view_shape) == 4, f"pse dim should be 4, but got {len(pse.view_shape)}")
        _refuse(pb in (1, b), f"pse batchsize should be 1 or {b}, but got {pb}")
        _refuse(pn == n1 and ps1 in (1, s1) and ps2 == s2 and (ps1 == s1 or pb == b),
                f"get unsupported pse shape, the shape is [{pb}, {pn}, {ps1}, {ps2}]")  # fmt: skip
    mask_dims = _dims4(mask.view_shape) if has_mask else (0, 0, 0, 0)
    if has_mask:
        rank = len(mask.view_shape)
        _refuse(rank in (2, 4), f"atten mask dim should be 2 or 4, but got {rank}")
        mb, mn, ms1, ms2 = mask_dims
        if int(sparse) in COMPRESSED:
            _refuse((ms1, ms2) == (2048, 2048), "In the attenmask compression, please set the atten_mask_shape to "
                    "[2048,2048].")  # fmt: skip
        elif int(sparse) == 6:
            _refuse((ms1, ms2) == (3072, 2048), "In the prefix attenmask compression, please set the "
                    "atten_mask_shape to [3072,2048].")  # fmt: skip
        else:
            _refuse(
                rank == 4 or int(sparse) != 5, "Prefix mode get invalid atten_mask shape, should be [BNSS] or [B1SS]."
            )
            _refuse(mb in (1, b) and mn in (1, n1) and ms1 >= s1 and ms2 >= s2,
                    f"get unsupported atten_mask shape {list(mask.view_shape)}.")  # fmt: skip
        if int(sparse) in PREFIX_MODES:
            _refuse(prefix.numel == b, f"prefixN shape is invalid, it should have {b} values.")
    if has_drop and float(keep_prob) < 1:
        need = ceil_div(b * int(n1) * s1 * s2, 8)
        _refuse(drop.numel >= need, f"Input dropMask shapeSize is invalid, it should not be less than {need}, "
                f"but got {drop.numel}")  # fmt: skip
    if has_mask and int(sparse) in (0, 4):
        _refuse(
            int(pre) + int(nxt) >= 0,
            f"PreTokens[{int(pre)}] and nextTokens[{int(nxt)}] config error, there is no valid data block.",
        )
    tile = rows_per_unit(s1, s2)
    units = b * int(n1) * ceil_div(s1, tile)
    cores = max(ctx.platform.core_num, 1)
    per_block = max(ceil_div(units, cores), 1)
    data = FlashAttentionScoreTilingData(
        b=b, n1=int(n1), n2=n2, s1=s1, s2=s2, d=d, dv=dv, layout=LAYOUT_CODES[name], sparseMode=int(sparse),
        preTokens=int(pre), nextTokens=int(nxt), scaleValue=float(scale), keepProb=float(keep_prob),
        hasPse=int(has_pse), pseType=int(pse_type), hasMask=int(has_mask), hasDrop=int(has_drop),
        s1Tile=tile, totalUnits=units, unitsPerBlock=per_block,
    )  # fmt: skip
    data.pseDims[:] = pse_dims
    data.maskDims[:] = mask_dims
    ub = S1_TILE * min(max(s2, 1), S2_TILE) * 4 * 2  # one score tile and its probabilities (S2 walked in tiles)
    workspace = SYSTEM_WORKSPACE + b * int(n1) * align_up(s1, S1_TILE) * max(dv, 1) * 4  # partial results
    return TilingResult(tiling_key=int(sparse), block_dim=max(ceil_div(units, per_block), 1), data=data,
                        workspace_sizes=(workspace,), ub_bytes_per_block=ub)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FlashAttentionAttrs(KernelAttrs):
    """What a FlashAttentionScore binary has baked in: the dtypes of query and of the atten mask."""

    dtype: np.dtype
    mask_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> FlashAttentionAttrs:
        return cls(signature.dtypes[0], signature.dtypes[6])


def visible_mask(data: FlashAttentionScoreTilingData, mask: np.ndarray, prefix: np.ndarray, b: int, n: int,
                 rows: np.ndarray) -> np.ndarray | None:  # fmt: skip
    """The masked scores of query rows ``rows`` of head n of batch b; no mask: every sparse mode computes in full."""
    if not data.hasMask:
        return None
    mode = int(data.sparseMode)
    given = None
    if mode in (0, 1, 5):
        mb, mn = int(data.maskDims[0]), int(data.maskDims[1])
        given = mask[b if mb > 1 else 0, n if mn > 1 else 0][rows]
    prefix_n = int(prefix[b]) if mode == 6 else 0
    return sparse_mask(mode, given, rows, int(data.s1), int(data.s2), int(data.preTokens), int(data.nextTokens),
                       prefix_n)  # fmt: skip


def fa_kernel(ctx: BlockContext[FlashAttentionAttrs], query: np.ndarray, key: np.ndarray, value: np.ndarray,
              pse: np.ndarray, drop: np.ndarray, padding: np.ndarray, mask: np.ndarray, prefix: np.ndarray,
              softmax_max: np.ndarray, softmax_sum: np.ndarray, softmax_out: np.ndarray,
              attention_out: np.ndarray, workspace: np.ndarray) -> None:  # fmt: skip
    data = FlashAttentionScoreTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.unitsPerBlock
    hi = min(lo + data.unitsPerBlock, data.totalUnits)
    dt = ctx.attrs.dtype
    b, n1, n2, s1, s2 = int(data.b), int(data.n1), int(data.n2), int(data.s1), int(data.s2)
    d, dv, layout, tile = int(data.d), int(data.dv), int(data.layout), int(data.s1Tile)
    q4 = as_bnsd(query, dt, layout, b, n1, s1, d)
    k4 = as_bnsd(key, dt, layout, b, n2, s2, d)
    v4 = as_bnsd(value, dt, layout, b, n2, s2, dv)
    o4 = as_bnsd(attention_out, dt, layout, b, n1, s1, dv)
    mx = softmax_max.view(np.float32)[: b * n1 * s1 * STAT_LANES].reshape(b, n1, s1, STAT_LANES)
    sm = softmax_sum.view(np.float32)[: b * n1 * s1 * STAT_LANES].reshape(b, n1, s1, STAT_LANES)
    m4 = mask.view(ctx.attrs.mask_dtype)[: int(np.prod(data.maskDims))].reshape(tuple(data.maskDims))
    p4 = pse.view(dt)[: int(np.prod(data.pseDims))].reshape(tuple(data.pseDims)) if data.hasPse else None
    prefix_values = prefix.view(np.int64)
    group, tiles = n1 // n2, ceil_div(s1, tile)
    drop_on = bool(data.hasDrop) and data.keepProb < 1
    for unit in range(lo, hi):
        bn, t = divmod(unit, tiles)
        bi, ni = divmod(bn, n1)
        r_lo, r_hi = t * tile, min(t * tile + tile, s1)
        rows = np.arange(r_lo, r_hi)
        bias = None
        if p4 is not None:
            pb, _, ps1, _ = (int(x) for x in data.pseDims)
            bias = p4[bi if pb > 1 else 0, ni, rows if ps1 > 1 else slice(0, 1)].astype(np.float32)
        keep = None
        if drop_on:
            start = ((bi * n1 + ni) * s1 + r_lo) * s2
            keep = unpack_bits(drop.view(np.uint8), start, r_hi - r_lo, s2)
        masked = visible_mask(data, m4, prefix_values, bi, ni, rows)
        result = attend(q4[bi, ni, r_lo:r_hi], k4[bi, ni // group], v4[bi, ni // group], float(data.scaleValue),
                        bias=bias, bias_before_scale=data.pseType == PSE_ADD_MUL, masked=masked, keep=keep,
                        keep_prob=float(data.keepProb))  # fmt: skip
        o4[bi, ni, r_lo:r_hi] = result.out.astype(dt)
        mx[bi, ni, r_lo:r_hi] = result.row_max[:, None]
        sm[bi, ni, r_lo:r_hi] = result.row_sum[:, None]


FA_ATTRS = (("scale_value", "float"), ("keep_prob", "float"), ("pre_tockens", "int"), ("next_tockens", "int"),
            ("head_num", "int"), ("input_layout", "str"), ("inner_precise", "int"), ("sparse_mode", "int"),
            ("pse_type", "int"))  # fmt: skip
FLASH_ATTENTION_SCORE = OpImpl(
    "FlashAttentionScore", fa_kernel, fa_tiling, attrs=FA_ATTRS, attr_names=tuple(name for name, _ in FA_ATTRS),
    bins=tuple(BinSpec((NAMES[q],) * 4 + ("uint8", NAMES[q], NAMES[m], "int64"), ("float", "float", NAMES[q], NAMES[q]))
               for q in FA_DTYPES for m in MASK_DTYPES),
    input_names=("query", "key", "value", "real_shift", "drop_mask", "padding_mask", "atten_mask", "prefix"),
    output_names=("softmax_max", "softmax_sum", "softmax_out", "attention_out"),
    kernel_json={"workspace": {"num": 1, "size": [-1], "type": [0]}}, kernel_attrs=FlashAttentionAttrs.of,
    unread_inputs=("padding_mask",),
)  # fmt: skip


def _check_dtypes(api: str, query: aclTensor, key: aclTensor, value: aclTensor, pse: aclTensor | None,
                  pse_type: int) -> None:  # fmt: skip
    q, k, v = query.dtype, key.dtype, value.dtype
    check_param(q == k == v, api, f"The data type of query[{dtype_name(q)}], key[{dtype_name(k)}], "
                f"value[{dtype_name(v)}] are not equal.")  # fmt: skip
    if pse_type in (2, 3):  # the inner ALiBi pse: realShift holds its float32 slopes
        check_param(pse is not None, api, "When pseType is 2 or 3, pseShape cannot be null.")
        assert pse is not None
        check_param(pse.dtype == D.DT_FLOAT, api, f"The data type {dtype_name(pse.dtype)} of pse is not invalid in "
                    "pse type 2 or 3 mode, It must be float32")  # fmt: skip
        return
    if pse is not None:
        check_param(pse.dtype == q, api, f"The data type {dtype_name(pse.dtype)} of pse is not equal to the data type "
                    f"{dtype_name(q)} of query, key and value.")  # fmt: skip


def analysis_axes(api: str, query: aclTensor, key: aclTensor, value: aclTensor, layout: str,
                  head_num: int) -> tuple[int, ...]:  # fmt: skip
    """AnalysisInput: (b, n2, s1, s2, d, dv) or 161002 with the real text."""
    check_param(head_num > 0, api, f"head_num must > 0, but got {head_num}")
    q, k, v = (tuple(int(x) for x in t.view_shape) for t in (query, key, value))
    rank = len(q)
    known = (rank == 3 and layout in ("BSH", "SBH")) or (rank == 4 and layout in ("BSND", "BNSD"))
    check_param(known and len(k) == len(v) == rank, api, f"not support input_layout {layout} with dim_num {rank}")
    axes = _axes(layout, q, k, v, head_num)
    d = axes[4]
    dk = d if layout in ("BSH", "SBH") else k[-1]
    check_param(d == dk, api, f"qD and kD should be same, but got qD={d} kD={dk}")
    check_param(d >= axes[5], api, f"only support kD >= vD, but got kD={d} vD={axes[5]}")
    check_param(d <= HEAD_DIM_MAX, api, f"Head dim must <= {HEAD_DIM_MAX}, but got {d}")
    return axes


def placeholder(tensor: aclTensor | None, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """An absent optional input as the L0 passes it: Contiguous of the tensor, or an empty tensor of ``dtype``."""
    return contiguous(tensor, executor) if tensor is not None else executor.alloc_tensor((0,), dtype)


@l2_api
def aclnnFlashAttentionScoreGetWorkspaceSize(
    query: aclTensor | None,
    key: aclTensor | None,
    value: aclTensor | None,
    realShiftOptional: aclTensor | None,
    dropMaskOptional: aclTensor | None,
    paddingMaskOptional: aclTensor | None,
    attenMaskOptional: aclTensor | None,
    prefixOptional: aclIntArray | None,
    scaleValue: float,
    keepProb: float,
    preTokens: int,
    nextTokens: int,
    headNum: int,
    inputLayout: str | None,
    innerPrecise: int,
    sparseMode: int,
    softmaxMaxOut: aclTensor | None,
    softmaxSumOut: aclTensor | None,
    softmaxOutOut: aclTensor | None,
    attentionOutOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(const aclTensor *query, const aclTensor *key,
    const aclTensor *value, const aclTensor *realShiftOptional, const aclTensor *dropMaskOptional,
    const aclTensor *paddingMaskOptional, const aclTensor *attenMaskOptional, const aclIntArray *prefixOptional,
    double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char *inputLayout,
    int64_t innerPrecise, int64_t sparseMode, const aclTensor *softmaxMaxOut, const aclTensor *softmaxSumOut,
    const aclTensor *softmaxOutOut, const aclTensor *attentionOutOut, uint64_t *workspaceSize,
    aclOpExecutor **executor)"""
    return flash_attention("aclnnFlashAttentionScore", query, key, value, realShiftOptional, dropMaskOptional,
                           paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens,
                           nextTokens, headNum, inputLayout, innerPrecise, sparseMode, PSE_ADD_MUL, softmaxMaxOut,
                           softmaxSumOut, attentionOutOut)  # fmt: skip


@l2_api
def aclnnFlashAttentionScoreV2GetWorkspaceSize(
    query: aclTensor | None,
    key: aclTensor | None,
    value: aclTensor | None,
    realShiftOptional: aclTensor | None,
    dropMaskOptional: aclTensor | None,
    paddingMaskOptional: aclTensor | None,
    attenMaskOptional: aclTensor | None,
    prefixOptional: aclIntArray | None,
    qStartIdxOptional: aclIntArray | None,
    kvStartIdxOptional: aclIntArray | None,
    scaleValue: float,
    keepProb: float,
    preTokens: int,
    nextTokens: int,
    headNum: int,
    inputLayout: str | None,
    innerPrecise: int,
    sparseMode: int,
    pseType: int,
    softmaxMaxOut: aclTensor | None,
    softmaxSumOut: aclTensor | None,
    softmaxOutOut: aclTensor | None,
    attentionOutOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnFlashAttentionScoreV2GetWorkspaceSize(const aclTensor *query, const aclTensor *key,
    const aclTensor *value, const aclTensor *realShiftOptional, const aclTensor *dropMaskOptional,
    const aclTensor *paddingMaskOptional, const aclTensor *attenMaskOptional, const aclIntArray *prefixOptional,
    const aclIntArray *qStartIdxOptional, const aclIntArray *kvStartIdxOptional, double scaleValue,
    double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char *inputLayout,
    int64_t innerPrecise, int64_t sparseMode, int64_t pseType, const aclTensor *softmaxMaxOut,
    const aclTensor *softmaxSumOut, const aclTensor *softmaxOutOut, const aclTensor *attentionOutOut,
    uint64_t *workspaceSize, aclOpExecutor **executor)

    FlashAttentionScore with the pse order chosen by pseType: 1 as V1 (add, then scale), 0 scale then
    add; 2 and 3 (an ALiBi pse the kernel generates, positioned by qStartIdx / kvStartIdx) are not
    emulated and fail the launch. A pseType 2 / 3 without a float32 realShift is 161002, as the L2 checks.
    """
    return flash_attention("aclnnFlashAttentionScoreV2", query, key, value, realShiftOptional, dropMaskOptional,
                           paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens,
                           nextTokens, headNum, inputLayout, innerPrecise, sparseMode, pseType, softmaxMaxOut,
                           softmaxSumOut, attentionOutOut)  # fmt: skip


def flash_attention(api: str, query: aclTensor | None, key: aclTensor | None, value: aclTensor | None,
                    pse_in: aclTensor | None, drop_in: aclTensor | None, padding_in: aclTensor | None,
                    mask_in: aclTensor | None, prefix_in: aclIntArray | None, scale: float, keep_prob: float, pre: int,
                    nxt: int, heads: int, layout: str | None, precise: int, sparse: int, pse_type: int,
                    max_out: aclTensor | None, sum_out: aclTensor | None,
                    out_tensor: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:  # fmt: skip
    """The body both versions share (the real V1 and V2 are the same code but for pseType)."""
    check_not_null(api, query=query, key=key, value=value, inputLayout=layout, softmaxMaxOut=max_out,
                   softmaxSumOut=sum_out, attentionOutOut=out_tensor)  # fmt: skip
    assert query is not None and key is not None and value is not None and layout is not None
    assert max_out is not None and sum_out is not None and out_tensor is not None
    with create_executor() as unique:
        executor = unique.get()
        if max_out.numel == 0 and sum_out.numel == 0 and out_tensor.numel == 0:
            return unique.release(0)
        _check_dtypes(api, query, key, value, pse_in, int(pse_type))
        b, _n2, s1, _s2, _d, dv = analysis_axes(api, query, key, value, layout, int(heads))
        with l0_failure_is_nullptr(api):
            q, k, v = contiguous(query, executor), contiguous(key, executor), contiguous(value, executor)
            pse = placeholder(pse_in, query.dtype, executor)
            drop = placeholder(drop_in, D.DT_UINT8, executor)
            pad = placeholder(padding_in, query.dtype, executor)
            mask = placeholder(mask_in, D.DT_BOOL, executor)
            prefix = (convert_to_tensor(int_array_values(prefix_in), D.DT_INT64, executor)
                      if prefix_in is not None else executor.alloc_tensor((0,), D.DT_INT64))  # fmt: skip
            stats = (b, int(heads), s1, STAT_LANES)
            softmax_max = executor.alloc_tensor(stats, D.DT_FLOAT)
            softmax_sum = executor.alloc_tensor(stats, D.DT_FLOAT)
            softmax_out = executor.alloc_tensor((0,), query.dtype)
            out = executor.alloc_tensor(layout_shape(layout, b, int(heads), s1, dv), query.dtype)
            add_to_launcher_list_aicore(  # the real L0 does not look at the launch status
                executor, FLASH_ATTENTION_SCORE, OP_INPUT(q, k, v, pse, drop, pad, mask, prefix),
                OP_OUTPUT(softmax_max, softmax_sum, softmax_out, out),
                OP_ATTR(Float32(float(scale)), Float32(float(keep_prob)), Int64(pre), Int64(nxt), Int64(heads),
                        Str(layout), Int64(precise), Int64(sparse), Int64(pse_type)),
            )  # fmt: skip
            view_copy(softmax_max, max_out, executor)
            view_copy(softmax_sum, sum_out, executor)
            view_copy(out, out_tensor, executor)
        return unique.release(executor.get_workspace_size())


OPS = (FLASH_ATTENTION_SCORE,)
