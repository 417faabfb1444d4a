"""aclnnFusedInferAttentionScoreV2: inference attention, full (query S > 1) and incremental (query S = 1).

attentionOut = softmax(scale * Q·Kᵀ + pseShift, masked) · V per head, the key / value heads shared
by numHeads / numKeyValueHeads query heads (GQA). The real API is generated (the nnopbase path) over
one FusedInferAttentionScore kernel, so its statuses are the generated ones:

- 161001: a null query, key, value or attentionOut (or a null member of the key / value lists);
- 161002: a dtype outside the kernel's table (query float16 / bfloat16 / int8; key and value
  float16 / bfloat16 / int8 / int4; pseShift float16 / bfloat16; attenMask bool / int8 / uint8;
  attentionOut float16 / bfloat16 / int8; softmaxLse float32);
- 561001: the shape inference — numHeads 0, a query (value) rank the layout does not have, an
  attentionOut not of the inferred shape (query's, value's head dim; BNSD_BSND gives BSND);
- 561002: the tiling — numHeads not a multiple of numKeyValueHeads or more than 64 times it, a
  key / value head count not numKeyValueHeads, key and value of different shapes, a batch other
  than query's, a head dim above 512, a pseShift / attenMask / softmaxLse / actual-length array of
  the wrong shape, length or value, sparse mode 5-8 (documented as not supported) or outside 0..8.

What the emulator does not compute yet is refused at the tiling too (561002, "... is not emulated"):
the int8 / int4 paths with their (de)quantisation and antiquant parameters, page attention
(blockTable), the padding sizes, the shared prefix, key / value lists of more than one tensor.
An empty query launches nothing; an empty key / value (S2 = 0) gives zeros.

Kernel: as FlashAttentionScore's, (batch, head, 128-row tile) units over the cores, one vectorised
``attend`` each, the scale applied before pseShift is added. A query row past actualSeqLengths is
written as zeros; keys past actualSeqLengthsKv are masked; softmaxLse is max + log(sum) per row
(-inf for a row with no visible key), written only when softmaxLseFlag is true.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.rms_norm import AclnnInferShapeError, AclnnTilingError
from emulator.kernels.nn.attention_common import LAYOUT_CODES, S1_TILE, as_bnsd, attend, rows_per_unit, sparse_mask
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclIntArray, aclTensor, aclTensorList
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
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
Q_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_INT8)
KV_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_INT8, D.DT_INT4)
PSE_DTYPES = (D.DT_FLOAT16, D.DT_BF16)
MASK_DTYPES = (D.DT_BOOL, D.DT_INT8, D.DT_UINT8)
OUT_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_INT8)
EMULATED = (D.DT_FLOAT16, D.DT_BF16)
LAYOUT_RANKS = {"BSH": 3, "BSND": 4, "BNSD": 4, "BNSD_BSND": 4}
HEAD_DIM_MAX = 512
GROUP_MAX = 64
SPARSE_NOT_SUPPORTED = (5, 6, 7, 8)
COMPRESSED = (2, 3, 4)
SYSTEM_WORKSPACE = 16 * 1024 * 1024
S2_TILE = 128


class FiaTilingData(ctypes.Structure):
    _fields_ = [
        ("b", ctypes.c_int64),
        ("n1", ctypes.c_int64),
        ("n2", ctypes.c_int64),
        ("s1", ctypes.c_int64),
        ("s2", ctypes.c_int64),
        ("d", ctypes.c_int64),
        ("dv", ctypes.c_int64),
        ("layout", ctypes.c_int64),  # of the inputs (BNSD for BNSD_BSND)
        ("outLayout", ctypes.c_int64),
        ("sparseMode", ctypes.c_int64),
        ("preTokens", ctypes.c_int64),
        ("nextTokens", ctypes.c_int64),
        ("scaleValue", ctypes.c_float),
        ("hasPse", ctypes.c_int64),
        ("hasMask", ctypes.c_int64),
        ("pseDims", ctypes.c_int64 * 4),
        ("maskDims", ctypes.c_int64 * 4),
        ("seqLens", ctypes.c_int64),  # how many actualSeqLengths values (0: none)
        ("seqLensKv", ctypes.c_int64),
        ("lseFlag", ctypes.c_int64),
        ("s1Tile", ctypes.c_int64),
        ("totalUnits", ctypes.c_int64),
        ("unitsPerBlock", ctypes.c_int64),
    ]


@dataclass(frozen=True, slots=True)
class Layout:
    """What the layout string says: the inputs' layout, the output's, and the [B, N, S, D] axes."""

    name: str
    out: str
    b: int
    n1: int
    n2: int
    s1: int
    s2: int
    d: int
    dv: int


def read_layout(layout: str, q: tuple[int, ...], kv: tuple[int, ...], v: tuple[int, ...], n1: int, n2: int) -> Layout:
    """The axes of query and key / value in ``layout`` (H = N * D for BSH)."""
    name = "BNSD" if layout == "BNSD_BSND" else layout
    out = "BSND" if layout == "BNSD_BSND" else layout
    if name == "BSH":
        d = q[2] // n1
        return Layout(name, out, q[0], n1, n2, q[1], kv[1], d, v[2] // n2 if n2 else 0)
    if name == "BSND":
        return Layout(name, out, q[0], n1, kv[2], q[1], kv[1], q[3], v[3])
    return Layout(name, out, q[0], n1, kv[1], q[2], kv[2], q[3], v[3])


def mask_dims(shape: tuple[int, ...], s1: int) -> tuple[int, int, int, int]:
    """The documented mask shapes as [B, 1, S1, S2]: (S1,S2) / (B,S2) for S1 = 1, (B,S1,S2), (B,1,S1,S2)."""
    if len(shape) == 2:
        return (shape[0], 1, 1, shape[1]) if s1 == 1 else (1, 1, shape[0], shape[1])
    if len(shape) == 3:
        return (shape[0], 1, shape[1], shape[2])
    return (shape[0], shape[1], shape[2], shape[3])


def _refuse(ok: bool, message: str) -> None:
    if not ok:
        raise AclnnTilingError(f"FusedInferAttentionScore tiling: {message}", msg_id="EZ9999")


def fia_tiling(ctx: TilingContext) -> TilingResult:
    """The units per core (the checks ran in the L2's tiling step, which sees the host arrays)."""
    q, k, v, pse, mask, seq, seq_kv = ctx.inputs
    assert q is not None and k is not None and v is not None and pse is not None and mask is not None
    assert seq is not None and seq_kv is not None
    n1, scale, pre, nxt, layout, n2, sparse = ctx.attrs[:7]
    lay = read_layout(str(layout), q.view_shape, k.view_shape, v.view_shape, int(n1), int(n2) or int(n1))
    tile = rows_per_unit(lay.s1, lay.s2)
    units = lay.b * lay.n1 * ceil_div(lay.s1, tile)
    per_block = max(ceil_div(units, max(ctx.platform.core_num, 1)), 1)
    data = FiaTilingData(
        b=lay.b, n1=lay.n1, n2=lay.n2, s1=lay.s1, s2=lay.s2, d=lay.d, dv=lay.dv, layout=LAYOUT_CODES[lay.name],
        outLayout=LAYOUT_CODES[lay.out], sparseMode=int(sparse), preTokens=int(pre), nextTokens=int(nxt),
        scaleValue=float(scale), hasPse=int(pse.numel > 0), hasMask=int(mask.numel > 0), seqLens=seq.numel,
        seqLensKv=seq_kv.numel, lseFlag=int(bool(ctx.attrs[-1])), s1Tile=tile, totalUnits=units,
        unitsPerBlock=per_block,
    )  # fmt: skip
    data.pseDims[:] = tuple(pse.view_shape) if pse.numel else (0, 0, 0, 0)
    data.maskDims[:] = mask_dims(tuple(mask.view_shape), lay.s1) if mask.numel else (0, 0, 0, 0)
    ub = S1_TILE * min(max(lay.s2, 1), S2_TILE) * 4 * 2
    workspace = SYSTEM_WORKSPACE + lay.b * lay.n1 * align_up(lay.s1, S1_TILE) * max(lay.dv, 1) * 4
    return TilingResult(tiling_key=int(sparse), block_dim=max(ceil_div(units, per_block), 1), data=data,
                        workspace_sizes=(workspace,), ub_bytes_per_block=ub)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FiaAttrs(KernelAttrs):
    """What a FusedInferAttentionScore binary has baked in: the query, pse, mask and output dtypes."""

    dtype: np.dtype
    pse_dtype: np.dtype
    mask_dtype: np.dtype
    out_dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> FiaAttrs:
        dt = signature.dtypes
        return cls(dt[0], dt[3], dt[4], dt[7])


def _per_batch(values: np.ndarray, count: int, b: int, default: int) -> int:
    """An actual length for batch b: one value for all, the b-th of B or more, or the shape's."""
    if count == 0:
        return default
    return int(values[0] if count == 1 else values[b])


def fia_kernel(ctx: BlockContext[FiaAttrs], query: np.ndarray, key: np.ndarray, value: np.ndarray, pse: np.ndarray,
               mask: np.ndarray, seq: np.ndarray, seq_kv: np.ndarray, attention_out: np.ndarray, lse: np.ndarray,
               workspace: np.ndarray) -> None:  # fmt: skip
    data = FiaTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.unitsPerBlock
    hi = min(lo + data.unitsPerBlock, data.totalUnits)
    attrs = ctx.attrs
    b, n1, n2, s1, s2 = int(data.b), int(data.n1), int(data.n2), int(data.s1), int(data.s2)
    d, dv = int(data.d), int(data.dv)
    q4 = as_bnsd(query, attrs.dtype, int(data.layout), b, n1, s1, d)
    k4 = as_bnsd(key, attrs.dtype, int(data.layout), b, n2, s2, d)
    v4 = as_bnsd(value, attrs.dtype, int(data.layout), b, n2, s2, dv)
    o4 = as_bnsd(attention_out, attrs.out_dtype, int(data.outLayout), b, n1, s1, dv)
    lse4 = lse.view(np.float32)[: b * n1 * s1].reshape(b, n1, s1) if data.lseFlag else None
    p4 = pse.view(attrs.pse_dtype)[: int(np.prod(data.pseDims))].reshape(tuple(data.pseDims)) if data.hasPse else None
    m4 = mask.view(attrs.mask_dtype)[: int(np.prod(data.maskDims))].reshape(tuple(data.maskDims))
    seq_values, kv_values = seq.view(np.int64), seq_kv.view(np.int64)
    incremental = s1 == 1
    tile = int(data.s1Tile)
    group, tiles = n1 // n2, ceil_div(s1, tile)
    for unit in range(lo, hi):
        bn, t = divmod(unit, tiles)
        bi, ni = divmod(bn, n1)
        r_lo, r_hi = t * tile, min(t * tile + tile, s1)
        rows = np.arange(r_lo, r_hi)
        q_len = s1 if incremental else min(_per_batch(seq_values, int(data.seqLens), bi, s1), s1)
        kv_len = min(_per_batch(kv_values, int(data.seqLensKv), bi, s2), s2)
        masked: np.ndarray | None = np.arange(s2)[None, :] >= kv_len if kv_len < s2 else None
        if data.hasMask:
            mb, mn, ms1 = (int(x) for x in data.maskDims[:3])
            given = m4[bi if mb > 1 else 0, ni if mn > 1 else 0][rows if ms1 > 1 else np.zeros_like(rows)]
            mode = 1 if incremental else int(data.sparseMode)  # S1 = 1: the mask as given, no band
            extra = sparse_mask(mode, given, rows, q_len, kv_len, int(data.preTokens), int(data.nextTokens))
            if extra is not None:
                extra = np.pad(extra, ((0, 0), (0, s2 - extra.shape[1])), constant_values=True)
                masked = extra if masked is None else masked | extra
        bias = None
        if p4 is not None:
            pb, _, ps1, _ = (int(x) for x in data.pseDims)
            bias = p4[bi if pb > 1 else 0, ni, rows if ps1 > 1 else slice(0, 1), :s2].astype(np.float32)
        result = attend(q4[bi, ni, r_lo:r_hi], k4[bi, ni // group], v4[bi, ni // group], float(data.scaleValue),
                        bias=bias, bias_before_scale=False, masked=masked)  # fmt: skip
        out = result.out
        out[rows >= q_len] = 0
        o4[bi, ni, r_lo:r_hi] = out.astype(attrs.out_dtype)
        if lse4 is not None:
            with np.errstate(divide="ignore"):
                lse4[bi, ni, r_lo:r_hi] = result.row_max + np.log(result.row_sum)


FIA_ATTRS = (("num_heads", "int"), ("scale", "float"), ("pre_tokens", "int"), ("next_tokens", "int"),
             ("input_layout", "str"), ("num_key_value_heads", "int"), ("sparse_mode", "int"), ("inner_precise", "int"),
             ("softmax_lse_flag", "bool"))  # fmt: skip
FUSED_INFER_ATTENTION_SCORE = OpImpl(
    "FusedInferAttentionScore", fia_kernel, fia_tiling, attrs=FIA_ATTRS,
    attr_names=tuple(name for name, _ in FIA_ATTRS),
    bins=tuple(BinSpec((NAMES[q],) * 3 + (NAMES[q], NAMES[m], "int64", "int64"), (NAMES[q], "float"))
               for q in EMULATED for m in MASK_DTYPES),
    input_names=("query", "key", "value", "pse_shift", "atten_mask", "actual_seq_lengths", "actual_seq_lengths_kv"),
    output_names=("attention_out", "softmax_lse"), kernel_json={"workspace": {"num": 1, "size": [-1], "type": [0]}},
    kernel_attrs=FiaAttrs.of,
)  # fmt: skip


def _single(tensors: aclTensorList | None, api: str, name: str) -> aclTensor:
    """The one tensor of a key / value list (161001 for a null list or member)."""
    check_not_null(api, **{name: tensors})
    assert tensors is not None
    members = tuple(tensors.values)
    check_not_null(api, **{f"{name}[{i}]": m for i, m in enumerate(members)} or {name: None})
    return members[0]  # type: ignore[return-value]


def _check_dtypes(api: str, q: aclTensor, k: aclTensor, v: aclTensor, pse: aclTensor | None, mask: aclTensor | None,
                  out: aclTensor, lse: aclTensor | None) -> None:  # fmt: skip
    ok = q.dtype in Q_DTYPES and k.dtype in KV_DTYPES and v.dtype == k.dtype and out.dtype in OUT_DTYPES
    ok = ok and (pse is None or pse.dtype in PSE_DTYPES) and (mask is None or mask.dtype in MASK_DTYPES)
    ok = ok and (lse is None or lse.dtype == D.DT_FLOAT)
    check_param(ok, api, "the dtypes of query, key, value, pseShift, attenMask, attentionOut and softmaxLse are not "
                "a supported combination.")  # fmt: skip


def _infer(q: aclTensor, v: aclTensor, layout: str, num_heads: int, num_kv: int) -> tuple[int, ...]:
    """InferShape: attentionOut's shape (query's with value's head dim; BNSD_BSND's output is BSND)."""

    def refuse(ok: bool, message: str) -> None:
        if not ok:
            raise AclnnInferShapeError(f"FusedInferAttentionScore infershape: {message}", msg_id="EZ9999")

    refuse(num_heads != 0, "numHeads can not be 0!")
    rank = LAYOUT_RANKS.get(layout)
    refuse(rank is not None, f"input layout only supports BSH, BSND, BNSD, BNSD_BSND, but got {layout}")
    assert rank is not None
    qs, vs = tuple(int(x) for x in q.view_shape), tuple(int(x) for x in v.view_shape)
    refuse(len(qs) == rank, f"Layout {layout}, queryDims({len(qs)}) must be {rank}!")
    refuse(len(vs) == rank, f"Layout {layout}, valueDims({len(vs)}) must be {rank}!")
    kv_heads = num_kv or num_heads
    if layout == "BSH":
        return (qs[0], qs[1], vs[2] // kv_heads * num_heads)
    dv = vs[3] if vs[3] and qs[3] else qs[3]
    if layout == "BNSD_BSND":
        return (qs[0], qs[2], qs[1], dv)
    return (*qs[:3], dv)


def _check_tiling(q: aclTensor, k: aclTensor, v: aclTensor, pse: aclTensor | None, mask: aclTensor | None,
                  seq: aclIntArray | None, seq_kv: aclIntArray | None, lay: Layout, num_kv: int, sparse: int,
                  lse_flag: bool, lse: aclTensor | None) -> None:  # fmt: skip
    """What the tiling refuses (561002), for the float16 / bfloat16 path the emulator computes."""
    _refuse(q.dtype in EMULATED and k.dtype == q.dtype, f"query {dtype_name(q.dtype)} with key "
            f"{dtype_name(k.dtype)} (the int8 / int4 quantised paths) is not emulated.")  # fmt: skip
    _refuse(tuple(k.view_shape) == tuple(v.view_shape) or (lay.dv != lay.d and tuple(k.view_shape)[:-1] ==
            tuple(v.view_shape)[:-1]), "the shapes of key and value should be the same.")  # fmt: skip
    kv_heads = num_kv or lay.n1
    _refuse(lay.n1 % kv_heads == 0, f"numHeads({lay.n1}) should be a multiple of numKeyValueHeads({kv_heads}).")
    _refuse(lay.n1 // kv_heads <= GROUP_MAX, f"numHeads / numKeyValueHeads = {lay.n1 // kv_heads} should not be more "
            f"than {GROUP_MAX}.")  # fmt: skip
    _refuse(lay.n2 == kv_heads, f"the head number of key / value ({lay.n2}) should be numKeyValueHeads({kv_heads}).")
    _refuse(int(k.view_shape[0]) == lay.b, f"the batch of key ({int(k.view_shape[0])}) should be query's ({lay.b}).")
    _refuse(0 < lay.d <= HEAD_DIM_MAX, f"the head dim D ({lay.d}) should be in (0, {HEAD_DIM_MAX}].")
    _refuse(0 <= sparse <= 8, f"sparse_mode {sparse} is out of range [0, 8].")
    _refuse(sparse not in SPARSE_NOT_SUPPORTED or lay.s1 == 1, f"sparse_mode {sparse} is not supported yet.")
    if pse is not None:
        ps = tuple(pse.view_shape)
        _refuse(pse.dtype == q.dtype, "pseShift's dtype should be query's.")
        _refuse(len(ps) == 4 and ps[0] in (1, lay.b) and ps[1] == lay.n1 and ps[2] >= lay.s1 and ps[3] >= lay.s2,
                f"pseShift shape {list(ps)} should be (B,N,Q_S,KV_S) or (1,N,Q_S,KV_S).")  # fmt: skip
    if mask is not None:
        ms = tuple(mask.view_shape)
        dims = mask_dims(ms, lay.s1) if 2 <= len(ms) <= 4 else (0, 0, 0, 0)
        ok = 2 <= len(ms) <= 4 and dims[0] in (1, lay.b) and dims[1] in (1, lay.n1)
        if lay.s1 > 1 and sparse in COMPRESSED:
            ok = ok and dims[2:] == (2048, 2048)
        else:
            ok = ok and dims[2] >= lay.s1 and dims[3] >= lay.s2
        _refuse(
            ok, f"attenMask shape {list(ms)} is not supported for Q_S {lay.s1}, KV_S {lay.s2}, sparse_mode {sparse}."
        )
    for name, array, limit in (("actualSeqLengths", seq, lay.s1), ("actualSeqLengthsKv", seq_kv, lay.s2)):
        if array is None or (name == "actualSeqLengths" and lay.s1 == 1):
            continue
        values = int_array_values(array)
        _refuse(len(values) == 1 or len(values) >= lay.b, f"{name} should hold 1 or at least B ({lay.b}) values, "
                f"but holds {len(values)}.")  # fmt: skip
        _refuse(all(0 <= x <= limit for x in values[: lay.b]), f"{name} {values} should be in [0, {limit}].")
    if lse_flag:
        assert lse is not None
        want = (lay.b, lay.n1, lay.s1, 1)
        _refuse(tuple(lse.view_shape) == want, f"softmaxLse shape {list(lse.view_shape)} should be {list(want)}.")


NOT_EMULATED = ("deqScale1Optional", "quantScale1Optional", "deqScale2Optional", "quantScale2Optional",
                "quantOffset2Optional", "antiquantScaleOptional", "antiquantOffsetOptional", "blockTableOptional",
                "queryPaddingSizeOptional", "kvPaddingSizeOptional", "keyAntiquantScaleOptional",
                "keyAntiquantOffsetOptional", "valueAntiquantScaleOptional", "valueAntiquantOffsetOptional",
                "keySharedPrefixOptional", "valueSharedPrefixOptional", "actualSharedPrefixLenOptional")  # fmt: skip


@l2_api
def aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    query: aclTensor | None,
    key: aclTensorList | None,
    value: aclTensorList | None,
    pseShiftOptional: aclTensor | None,
    attenMaskOptional: aclTensor | None,
    actualSeqLengthsOptional: aclIntArray | None,
    actualSeqLengthsKvOptional: aclIntArray | None,
    deqScale1Optional: aclTensor | None,
    quantScale1Optional: aclTensor | None,
    deqScale2Optional: aclTensor | None,
    quantScale2Optional: aclTensor | None,
    quantOffset2Optional: aclTensor | None,
    antiquantScaleOptional: aclTensor | None,
    antiquantOffsetOptional: aclTensor | None,
    blockTableOptional: aclTensor | None,
    queryPaddingSizeOptional: aclTensor | None,
    kvPaddingSizeOptional: aclTensor | None,
    keyAntiquantScaleOptional: aclTensor | None,
    keyAntiquantOffsetOptional: aclTensor | None,
    valueAntiquantScaleOptional: aclTensor | None,
    valueAntiquantOffsetOptional: aclTensor | None,
    keySharedPrefixOptional: aclTensor | None,
    valueSharedPrefixOptional: aclTensor | None,
    actualSharedPrefixLenOptional: aclIntArray | None,
    numHeads: int,
    scaleValue: float,
    preTokens: int,
    nextTokens: int,
    inputLayout: str | None,
    numKeyValueHeads: int,
    sparseMode: int,
    innerPrecise: int,
    blockSize: int,
    antiquantMode: int,
    softmaxLseFlag: bool,
    keyAntiquantMode: int,
    valueAntiquantMode: int,
    attentionOut: aclTensor | None,
    softmaxLse: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(const aclTensor *query, const aclTensorList *key,
    const aclTensorList *value, const aclTensor *pseShiftOptional, const aclTensor *attenMaskOptional,
    const aclIntArray *actualSeqLengthsOptional, const aclIntArray *actualSeqLengthsKvOptional,
    const aclTensor *deqScale1Optional, const aclTensor *quantScale1Optional, const aclTensor *deqScale2Optional,
    const aclTensor *quantScale2Optional, const aclTensor *quantOffset2Optional,
    const aclTensor *antiquantScaleOptional, const aclTensor *antiquantOffsetOptional,
    const aclTensor *blockTableOptional, const aclTensor *queryPaddingSizeOptional,
    const aclTensor *kvPaddingSizeOptional, const aclTensor *keyAntiquantScaleOptional,
    const aclTensor *keyAntiquantOffsetOptional, const aclTensor *valueAntiquantScaleOptional,
    const aclTensor *valueAntiquantOffsetOptional, const aclTensor *keySharedPrefixOptional,
    const aclTensor *valueSharedPrefixOptional, const aclIntArray *actualSharedPrefixLenOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char *inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, const aclTensor *attentionOut, const aclTensor *softmaxLse,
    uint64_t *workspaceSize, aclOpExecutor **executor)"""
    api = "aclnnFusedInferAttentionScoreV2"
    check_not_null(api, query=query, key=key, value=value, attentionOut=attentionOut)
    assert query is not None and attentionOut is not None
    k, v = _single(key, api, "key"), _single(value, api, "value")
    lse = softmaxLse if softmaxLseFlag else None
    check_not_null(api, inputLayout=inputLayout, **({"softmaxLse": softmaxLse} if softmaxLseFlag else {}))
    assert inputLayout is not None
    _check_dtypes(api, query, k, v, pseShiftOptional, attenMaskOptional, attentionOut, lse)
    wanted = _infer(query, v, inputLayout, int(numHeads), int(numKeyValueHeads))
    if tuple(attentionOut.view_shape) != wanted:
        raise AclnnInferShapeError(f"FusedInferAttentionScore infershape: attentionOut must be {list(wanted)}.",
                                   msg_id="EZ9999")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if query.numel == 0:
            return unique.release(0)
        optional = (deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional,
                    quantOffset2Optional, antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional,
                    queryPaddingSizeOptional, kvPaddingSizeOptional, keyAntiquantScaleOptional,
                    keyAntiquantOffsetOptional, valueAntiquantScaleOptional, valueAntiquantOffsetOptional,
                    keySharedPrefixOptional, valueSharedPrefixOptional, actualSharedPrefixLenOptional)  # fmt: skip
        given = [name for name, arg in zip(NOT_EMULATED, optional, strict=True) if arg is not None]
        _refuse(
            not given, f"{', '.join(given)} (quantisation, page attention, padding, shared prefix) is not emulated."
        )
        _refuse(len(tuple(key.values)) == 1 and len(tuple(value.values)) == 1,  # type: ignore[union-attr]
                "key / value lists of more than one tensor (one per batch) are not emulated.")  # fmt: skip
        n2 = int(numKeyValueHeads) or int(numHeads)
        lay = read_layout(inputLayout, tuple(query.view_shape), tuple(k.view_shape), tuple(v.view_shape),
                          int(numHeads), n2)  # fmt: skip
        _check_tiling(query, k, v, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional,
                      actualSeqLengthsKvOptional, lay, int(numKeyValueHeads), int(sparseMode), bool(softmaxLseFlag),
                      softmaxLse)  # fmt: skip
        qc = contiguous(query, executor)
        kc, vc = (contiguous(t, executor) if t.numel else executor.alloc_tensor(t.view_shape, t.dtype) for t in (k, v))
        pse = contiguous(pseShiftOptional, executor) if pseShiftOptional is not None else None
        mask = contiguous(attenMaskOptional, executor) if attenMaskOptional is not None else None
        arrays = []
        for array in (actualSeqLengthsOptional, actualSeqLengthsKvOptional):
            values = int_array_values(array) if array is not None else []
            arrays.append(convert_to_tensor(values, D.DT_INT64, executor) if values else
                          executor.alloc_tensor((0,), D.DT_INT64))  # fmt: skip
        out = executor.alloc_tensor(wanted, attentionOut.dtype)
        lse_shape = (lay.b, lay.n1, lay.s1, 1) if softmaxLseFlag else (1,)
        lse_out = executor.alloc_tensor(lse_shape, D.DT_FLOAT)
        status = add_to_launcher_list_aicore(
            executor, FUSED_INFER_ATTENTION_SCORE,
            OP_INPUT(qc, kc, vc, pse if pse is not None else executor.alloc_tensor((0,), query.dtype),
                     mask if mask is not None else executor.alloc_tensor((0,), D.DT_BOOL), *arrays),
            OP_OUTPUT(out, lse_out),
            OP_ATTR(Int64(numHeads), Float32(float(scaleValue)), Int64(preTokens), Int64(nextTokens), Str(inputLayout),
                    Int64(numKeyValueHeads), Int64(sparseMode), Int64(innerPrecise), Bool(bool(softmaxLseFlag))),
        )  # fmt: skip
        _refuse(status == 0, "the FusedInferAttentionScore kernel could not be prepared.")
        view_copy(out, attentionOut, executor)
        if softmaxLseFlag:
            assert softmaxLse is not None
            view_copy(lse_out, softmaxLse, executor)
        return unique.release(executor.get_workspace_size())


OPS = (FUSED_INFER_ATTENTION_SCORE,)
