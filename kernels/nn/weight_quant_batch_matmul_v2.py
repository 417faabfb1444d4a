"""aclnnWeightQuantBatchMatmulV2: x @ antiquant(weight) (+ bias), weights int8 or int4, optionally
requantised to int8.

``antiquant(w)[k, n] = (w[k, n] + offset[g, n]) * scale[g, n]`` with ``g = k // antiquantGroupSize``
per group, one (scale, offset) per column per channel (shape [n] / [1, n]), one pair for the whole
weight per tensor ([1] / [1, 1]); the offset is optional. The dequantised weight is rounded to x's
dtype, the product accumulates in float32, bias (F16 for an F16 x, F32 for BF16) is added and the
result rounded to y's dtype. With quantScaleOptional (UINT64: a float32 in the low 32 bits, as
aclnnTransQuantParam packs it; [1] or [n]) y is int8: ``round(r * quantScale + quantOffset)``
saturated. A UINT64 / INT64 antiquantScale (the fixpipe form: F16 x, int8 weight, optional INT32
offset, F16 y) holds float32 values the same way.

Checks in the real order (A2 / A3): null x / weight / antiquantScale / y (161001); x and weight
contiguous or the transpose of a contiguous tensor in the last two dims, antiquantScale /
antiquantOffsetOptional contiguous unless weight is transposed, y contiguous; then dtypes (x F16
BF16; weight INT8 INT4; antiquantScale F16 BF16 UINT64 INT64; y F16 BF16 INT8; y INT8 exactly when
quantScaleOptional is given, else y of x's dtype); x, weight, y 2-D; the scale and offset dtypes;
bias dtype; formats (ND; weight ND or FRACTAL_NZ); ranks of the optional inputs; quantScale UINT64 and
no quantOffset without quantScale; x's k equal to weight's, m, k, n >= 1 and k, n (and a transposed
x's m) <= 65535; int4 with an even inner dim; y's (m, n); antiquantGroupSize 0 or a multiple of 32,
at least 32, below k; the scale / offset shapes; quantScale / bias shapes (all 161002). 310P parts
and the Ascend 950 refuse quantScaleOptional / quantOffsetOptional with 161001. An INT32 weight
(eight int4 per element) is read as int4 with n x 8 columns.

A FRACTAL_NZ weight (what aclnnTransMatmulWeight makes: (n / C0, k / 16, 16, C0), C0 32 bytes) is read
from its fractals (not transposed). Not emulated: the Ascend 950 float8 / float4 weights, the 310P
batch dims and its (n, k) NZ weights. The kernel: one AI Core launch, its blocks splitting n in slices of 64 columns.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tensors import is_contiguous
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.errors import AclnnParamNullptr, L0StepFailed
from emulator.kernels.math.matmul import BLAS_LOCK, MIN_CORE_MACS, contiguous_or_transposed
from emulator.kernels.math.soc_lists import DAV_2201
from emulator.kernels.math.trans_matmul_weight import nd_from_nz
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.formats import aclFormat
from emulator.meta.objects import aclTensor, contiguous_strides
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Int64,
    OpImpl,
    TilingContext,
    TilingResult,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
ND, NZ = int(aclFormat.ACL_FORMAT_ND), int(aclFormat.ACL_FORMAT_FRACTAL_NZ)
X_DTYPES = (D.DT_FLOAT16, D.DT_BF16)
WEIGHT_DTYPES = (D.DT_INT8, D.DT_INT4)
SCALE_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_UINT64, D.DT_INT64)
Y_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_INT8)
MKN_MAX = 65535
GROUP_MIN = 32
N_PER_BLOCK = 64
F32 = np.dtype(np.float32)


class WqbmmTilingData(ctypes.Structure):
    _fields_ = [
        ("m", ctypes.c_int64),
        ("k", ctypes.c_int64),
        ("n", ctypes.c_int64),
        ("groupSize", ctypes.c_int64),
        ("transX", ctypes.c_int64),
        ("transWeight", ctypes.c_int64),
        ("scaleGroups", ctypes.c_int64),  # rows of the scale: 1 per tensor / channel, ceil(k / group) per group
        ("scaleCols", ctypes.c_int64),  # 1 per tensor, n otherwise
        ("hasOffset", ctypes.c_int64),
        ("hasQuantScale", ctypes.c_int64),
        ("hasQuantOffset", ctypes.c_int64),
        ("hasBias", ctypes.c_int64),
        ("weightInt4", ctypes.c_int64),  # the weight arrives as packed bytes, two int4 each
        ("weightNz", ctypes.c_int64),  # the weight is stored FRACTAL_NZ (aclnnTransMatmulWeight's layout)
        ("nPerBlock", ctypes.c_int64),
        ("blockNum", ctypes.c_int64),
    ]


def _numel(shape: tuple[int, ...]) -> int:
    count = 1
    for d in shape:
        count *= d
    return count


def wqbmm_tiling(ctx: TilingContext) -> TilingResult:
    x, weight, scale, offset, quant_scale, quant_offset, bias = ctx.inputs
    assert x is not None and weight is not None and scale is not None
    trans_x, trans_w, group, _, _ = ctx.attrs
    m, k = (x.view_shape[1], x.view_shape[0]) if trans_x else x.view_shape
    n = weight.view_shape[0] if trans_w else weight.view_shape[1]
    one_per_tensor = _numel(scale.view_shape) == 1
    groups = ceil_div(k, int(group)) if int(group) > 0 else 1
    # like MatMulV3's: a block is one host BLAS call, worth a core only from MIN_CORE_MACS multiply-adds on
    wanted = max(1, m * k * n // MIN_CORE_MACS)
    blocks = max(1, min(max(ctx.platform.core_num, 1), ceil_div(n, N_PER_BLOCK), wanted))
    data = WqbmmTilingData(
        m=m, k=k, n=n, groupSize=int(group), transX=int(bool(trans_x)), transWeight=int(bool(trans_w)),
        scaleGroups=groups, scaleCols=1 if one_per_tensor else n, hasOffset=int(offset is not None),
        hasQuantScale=int(quant_scale is not None), hasQuantOffset=int(quant_offset is not None),
        hasBias=int(bias is not None), weightInt4=int(weight.dtype == D.DT_INT4),
        weightNz=int(weight.format == NZ),
        nPerBlock=ceil_div(ceil_div(n, blocks), N_PER_BLOCK) * N_PER_BLOCK,
        blockNum=blocks,
    )  # fmt: skip
    return TilingResult(tiling_key=0, block_dim=blocks, data=data)


@dataclass(frozen=True, slots=True)
class WqbmmAttrs(KernelAttrs):
    """What a WeightQuantBatchMatmulV2 binary has baked in: the dtype of each non-null tensor, in order."""

    dtypes: tuple[np.dtype, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> WqbmmAttrs:
        return cls(signature.dtypes)


def unpack_int4(raw: np.ndarray, count: int) -> np.ndarray:
    """Two's-complement int4 pairs, the element of the lower index in the low nibble."""
    data = raw.view(np.uint8)[: ceil_div(count, 2)]
    low = (data & 0x0F).astype(np.int8)
    high = (data >> 4).astype(np.int8)
    both = np.stack([low, high], axis=-1).reshape(-1)[:count]
    return np.where(both > 7, both - 16, both).astype(np.int8)


def _from_nz(raw: np.ndarray, k: int, n: int, int4: bool) -> np.ndarray:
    """The (k, n) weight from its FRACTAL_NZ storage (n / C0, k / 16, 16, C0), C0 = 32 bytes of elements."""
    c0 = 64 if int4 else 32
    count = align_up(k, 16) * align_up(n, c0)
    flat = unpack_int4(raw, count) if int4 else raw.view(np.int8)[:count]
    return nd_from_nz(flat, k, n, c0)[0]


def _float_bits(raw: np.ndarray, count: int) -> np.ndarray:
    """UINT64 / INT64 scale words: the float32 in the low 32 bits."""
    return raw.view(np.uint64)[:count].astype(np.uint32).view(F32)


def _values(raw: np.ndarray, dtype: np.dtype, count: int) -> np.ndarray:
    if dtype.itemsize == 8 and dtype.kind in "iu":
        return _float_bits(raw, count)
    return raw.view(dtype)[:count].astype(F32)


def wqbmm_kernel(ctx: BlockContext[WqbmmAttrs], *views: np.ndarray) -> None:
    """This block's slice of n columns: dequantise the weight slice, one float32 matmul, requantise."""
    data = WqbmmTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.nPerBlock
    hi = min(lo + data.nPerBlock, data.n)
    if lo >= hi:
        return
    m, k, n = data.m, data.k, data.n
    dtypes = list(ctx.attrs.dtypes)
    x_raw, w_raw, s_raw, *rest = views
    dx, ds = dtypes[0], dtypes[2]
    optional = iter(zip(rest, dtypes[3:], strict=True))
    x = x_raw.view(dx)[: m * k].reshape((k, m) if data.transX else (m, k)).astype(F32)
    x = x.T if data.transX else x
    if data.weightNz:
        w = _from_nz(w_raw, k, n, bool(data.weightInt4))
    else:
        w = unpack_int4(w_raw, k * n) if data.weightInt4 else w_raw.view(np.int8)[: k * n]
        w = w.reshape((n, k)).T if data.transWeight else w.reshape((k, n))
    g, cols = data.scaleGroups, data.scaleCols
    scale = _values(s_raw, ds, g * cols).reshape((cols, g) if data.transWeight and g > 1 else (g, cols))
    scale = scale.T if data.transWeight and g > 1 else scale
    offset = None
    if data.hasOffset:
        raw, do = next(optional)
        offset = raw.view(do)[: g * cols].astype(F32).reshape(scale.shape[::-1] if data.transWeight and g > 1
                                                              else scale.shape)  # fmt: skip
        offset = offset.T if data.transWeight and g > 1 else offset
    rows = np.arange(k) // data.groupSize if data.groupSize > 0 else np.zeros(k, np.int64)
    col_ids = np.arange(lo, hi) if cols > 1 else np.zeros(hi - lo, np.int64)
    sel = np.ix_(rows, col_ids)
    deq = w[:, lo:hi].astype(F32)
    if offset is not None:
        deq = deq + offset[sel]
    deq = deq * scale[sel]
    deq = deq.astype(dx).astype(F32)  # the cube takes the weight in x's dtype
    with BLAS_LOCK:
        result = x @ deq
    quant = next(optional) if data.hasQuantScale else None
    quant_off = next(optional) if data.hasQuantOffset else None
    if data.hasBias:
        raw, db = next(optional)
        bias = raw.view(db)[:n].astype(F32)
        result = result + bias[lo:hi]
    y = views[-1]
    dy = dtypes[-1]
    out = y.view(dy)[: m * n].reshape(m, n)
    if quant is None:
        out[:, lo:hi] = result.astype(dy)
        return
    q_count = 1 if quant[0].view(np.uint64).size == 1 else n
    q_scale = _float_bits(quant[0], q_count)
    q = result * (q_scale if q_count == 1 else q_scale[lo:hi])
    if quant_off is not None:
        q_off = quant_off[0].view(F32)[:q_count]
        q = q + (q_off if q_count == 1 else q_off[lo:hi])
    out[:, lo:hi] = np.clip(np.rint(q), -128, 127).astype(np.int8)


def _bins() -> tuple[BinSpec, ...]:
    """Every present / absent combination of the optional inputs the A2 binaries take."""
    rows = []
    quant_forms: tuple[tuple[str | None, str | None], ...] = ((None, None), ("uint64", None), ("uint64", "float"))
    for x, bias in (("float16", "float16"), ("bfloat16", "float")):
        for w in ("int8", "int4"):
            for offset in (None, x):
                for qs, qo in quant_forms:
                    for b in (None, bias):
                        rows.append(BinSpec((x, w, x, offset, qs, qo, b), ("int8" if qs else x,)))
    for scale in ("uint64", "int64"):
        for offset in (None, "int32"):
            for b in (None, "float16"):
                rows.append(BinSpec(("float16", "int8", scale, offset, None, None, b), ("float16",)))
    return tuple(rows)


WQBMM_ATTRS = (("transpose_x", "bool"), ("transpose_weight", "bool"), ("antiquant_group_size", "int"),
               ("dtype", "int"), ("inner_precise", "int"))  # fmt: skip
WEIGHT_QUANT_BATCH_MATMUL_V2 = OpImpl(
    "WeightQuantBatchMatmulV2", wqbmm_kernel, wqbmm_tiling, attrs=WQBMM_ATTRS,
    attr_names=tuple(n for n, _ in WQBMM_ATTRS), bins=_bins(),
    input_names=("x", "weight", "antiquant_scale", "antiquant_offset", "quant_scale", "quant_offset", "bias"),
    kernel_attrs=WqbmmAttrs.of,
)  # fmt: skip


# -- L0 / L2 --------------------------------------------------------------------------------------------------
def _transposed(t: aclTensor) -> bool:
    """IsTransposeLastTwoDims: a 2-D view whose strides are the swapped dense ones."""
    shape = tuple(t.view_shape)
    if len(shape) < 2:
        return False
    swapped = (*shape[:-2], shape[-1], shape[-2])
    dense = contiguous_strides(swapped)
    return tuple(t.strides) == (*dense[:-2], dense[-1], dense[-2])


def _check_layout(api: str, x: aclTensor, weight: aclTensor, scale: aclTensor, offset: aclTensor | None,
                  y: aclTensor, others: dict[str, aclTensor | None]) -> bool:  # fmt: skip
    """ContiguousCheck / OptionalContiguousCheck; returns whether weight is transposed."""
    message = "only support x tensor is contiguous or transpose last two dims."
    check_param(_transposed(x) or is_contiguous(x), api, message)
    trans_w = _transposed(weight)
    check_param(trans_w or is_contiguous(weight), api, "only support weight tensor is contiguous or transpose last two "
                "dims.")  # fmt: skip
    check_param(trans_w or is_contiguous(scale), api, "only support antiquantScale tensor is contiguous or transpose "
                "last two dims.")  # fmt: skip
    check_param(offset is None or trans_w or is_contiguous(offset), api, "only support antiquantOffsetOptional tensor "
                "is contiguous or transpose last two dims.")  # fmt: skip
    check_param(is_contiguous(y), api, "y: the value of y must be contiguous.")
    for name, tensor in others.items():
        check_param(tensor is None or is_contiguous(tensor), api, f"only support {name} tensor is contiguous.")
    return trans_w


def _check_dtypes(api: str, x: aclTensor, weight: aclTensor, scale: aclTensor, offset: aclTensor | None,
                  quant_scale: aclTensor | None, bias: aclTensor | None, y: aclTensor) -> None:  # fmt: skip
    """CheckDtypeValid, the scale / offset dtype rules and the bias dtype rule (A2)."""
    check_dtype(api, "x", x, X_DTYPES)
    check_dtype(api, "weight", weight, WEIGHT_DTYPES)
    check_dtype(api, "antiquantScale", scale, SCALE_DTYPES)
    check_dtype(api, "y", y, Y_DTYPES)
    if quant_scale is not None:
        check_param(y.dtype == D.DT_INT8, api, f"when quantScaleOptional is not null, y's dtype should be [DT_INT8], "
                    f"actual is [{dtype_name(y.dtype)}].")  # fmt: skip
    else:
        check_param(y.dtype == x.dtype, api, f"when quantScaleOptional is null, y's dtype should be same as x "
                    f"[{dtype_name(x.dtype)}], actual is [{dtype_name(y.dtype)}].")  # fmt: skip
    check_param(len(x.view_shape) == 2 and len(weight.view_shape) == 2 and len(y.view_shape) == 2, api,
                f"x's, weight's and y's dim should be in range [2, 2]. actual are [{len(x.view_shape)}, "
                f"{len(weight.view_shape)}, {len(y.view_shape)}].")  # fmt: skip
    fixpipe = scale.dtype in (D.DT_UINT64, D.DT_INT64)
    if offset is not None and offset.dtype == D.DT_INT32:
        check_param(fixpipe, api, "antiquantScale's dtype must be DT_UINT64 or DT_INT64 when antiquantOffset's dtype "
                    f"is DT_INT32, actual antiquantScale's dtype is [{dtype_name(scale.dtype)}].")  # fmt: skip
    if fixpipe:
        check_param(x.dtype == D.DT_FLOAT16, api, "x's dtype must be DT_FLOAT16 when antiquantScale's dtype is "
                    f"DT_UINT64/DT_INT64, actual x's dtype is [{dtype_name(x.dtype)}].")  # fmt: skip
        check_param(weight.dtype == D.DT_INT8, api, "weight's dtype must be DT_INT8 when antiquantScale's dtype is "
                    f"DT_UINT64/DT_INT64,actual weight's dtype is [{dtype_name(weight.dtype)}].")  # fmt: skip
        check_param(offset is None or offset.dtype == D.DT_INT32, api, "antiquantOffset's dtype must be DT_INT32 when "
                    "antiquantScale's dtype is DT_UINT64/DT_INT64.")  # fmt: skip
        check_param(y.dtype == D.DT_FLOAT16, api, "y's dtype should be [DT_FLOAT16] when antiquantScale's dtype is "
                    f"[DT_UINT64/DT_INT64], actual y's dtype is [{dtype_name(y.dtype)}].")  # fmt: skip
    else:
        check_param(x.dtype == scale.dtype, api, f"x's dtype must be same as antiquantScale's dtype, actual x's dtype "
                    f"is [{dtype_name(x.dtype)}], antiquantScale's dtype is [{dtype_name(scale.dtype)}].")  # fmt: skip
        check_param(offset is None or offset.dtype == scale.dtype, api, "antiquantOffsetOptional's dtype must be same "
                    "as antiquantScale's dtype.")  # fmt: skip
    if bias is not None:
        want = D.DT_FLOAT16 if x.dtype == D.DT_FLOAT16 else D.DT_FLOAT
        check_param(bias.dtype == want, api, f"biasOptional's dtype should be [{dtype_name(want)}], actual is "
                    f"[{dtype_name(bias.dtype)}].")  # fmt: skip


def _check_formats_and_ranks(api: str, tensors: dict[str, aclTensor | None], weight: aclTensor) -> None:
    for name, tensor in tensors.items():
        if tensor is not None:
            check_param(tensor.storage_format == ND or len(tensor.view_shape) != 2 or tensor.storage_format in (0, 1),
                        api, f"{name}'s format should be ND. actual is [{tensor.storage_format}].")  # fmt: skip
    check_param(weight.storage_format in (ND, NZ, 0, 1), api, f"weight's format should be ND or FRACTAL_NZ. actual is "
                f"[{weight.storage_format}].")  # fmt: skip
    for name in ("biasOptional", "antiquantScale", "antiquantOffsetOptional", "quantScaleOptional",
                 "quantOffsetOptional"):  # fmt: skip
        tensor = tensors.get(name)
        if tensor is not None:
            dims = len(tensor.view_shape)
            check_param(1 <= dims <= 2, api, f"{name}'s dim should be in range [1, 2]. actual is [{dims}].")


def _check_shapes(api: str, x: aclTensor, weight: aclTensor, scale: aclTensor, offset: aclTensor | None,
                  quant_scale: aclTensor | None, bias: aclTensor | None, y: aclTensor, group: int,
                  trans_w: bool) -> None:  # fmt: skip
    """AdvancedWeightParamsCheck, AdvancedAntiquantParamsCheck, AdvancedShapeParamsCheck (A2, ND weight)."""
    m, k = x.view_shape[-2:]
    kw, n = weight.view_shape[-2:]
    check_param(k == kw, api, f"x's k and weight's k should be equal, actual x'k is {k}, weight's k is {kw}.")
    check_param(min(m, k, n) >= 1, api, f"m,k,n shouldn't be smaller than 1, actual m is {m}, k is {k}, n is {n}.")
    too_big = k > MKN_MAX or n > MKN_MAX or (_transposed(x) and m > MKN_MAX)
    check_param(not too_big, api, f"k,n shouldn't be larger than {MKN_MAX}, actual k is {k}, n is {n}. When x is "
                f"transposed, m shouldn't be larger than {MKN_MAX}, actual m is {m}.")  # fmt: skip
    if weight.dtype == D.DT_INT4:
        inner, name = (k, "k") if trans_w else (n, "n")
        state = "transposed" if trans_w else "not transposed"
        check_param(inner % 2 == 0, api, f"In the int4 scenario, if weight is {state}, {name}[{inner}] should be an "
                    "even number.")  # fmt: skip
    ym, yn = y.view_shape[-2:]
    check_param(ym == m, api, f"y's m and x's m should be equal, actual y's m is {ym}, x's m is {m}.")
    check_param(yn == n, api, f"y's n and weight's n should be equal, actual y's n is {yn}, weight's n is {n}.")
    if group != 0:
        check_param(group >= 0, api, f"cannot support group_size[{group}] less than 0.")
        check_param(group % GROUP_MIN == 0, api, f"antiquantGroupSize should be an integer multiple of 32, actual is "
                    f"{group}.")  # fmt: skip
        check_param(group >= GROUP_MIN, api, f"antiquantGroupSize should not be smaller than 32, actual is {group}.")
        check_param(group + 1 <= k, api, f"antiquantGroupSize should not be greater than k-1, which is {k - 1}."
                    f"actual antiquantGroupSize is {group}.")  # fmt: skip
    shape = tuple(scale.view_shape)
    if len(shape) == 1:
        check_param(group <= 0 and shape[0] in (1, n), api, f"antiquantScale shape must be [1] or [{n}] and group "
                    f"size is 0 when the size is 1, but it is {list(shape)} and group size is [{group}]")  # fmt: skip
    else:
        if group == 0:
            check_param(shape[0] == 1 and shape[1] in (1, n), api, f"antiquantScale shape must be [1, {n}] or [1, 1]"
                        f"when the size is 2 and without group size, but it is {list(shape)}")  # fmt: skip
        else:
            groups = ceil_div(k, group)
            check_param(shape == (groups, n), api, f"antiquantScale shape must be [{groups}, {n}] when the size is 2 "
                        f"and with group size, but it is {list(shape)}")  # fmt: skip
    if offset is not None:
        check_param(tuple(offset.view_shape) == shape, api, "The ViewShape of antiquant offset must same with scale "
                    f"when it is not null, but they are {list(offset.view_shape)} and {list(shape)}")  # fmt: skip
    for name, tensor, allowed in (("quantScaleOptional", quant_scale, ((0,), (1,), (n,), (1, n))),
                                  ("biasOptional", bias, ((0,), (n,), (1, n)))):  # fmt: skip
        if tensor is not None:
            got = tuple(tensor.view_shape)
            check_param(got in allowed, api, f"{name}'s shape should be one of {[list(a) for a in allowed]}, actual "
                        f"is {list(got)}.")  # fmt: skip


@l2_api
def aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    x: aclTensor | None,
    weight: aclTensor | None,
    antiquantScale: aclTensor | None,
    antiquantOffsetOptional: aclTensor | None,
    quantScaleOptional: aclTensor | None,
    quantOffsetOptional: aclTensor | None,
    biasOptional: aclTensor | None,
    antiquantGroupSize: int,
    y: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
    const aclTensor* antiquantScale, const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize, const aclTensor* y,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnWeightQuantBatchMatmulV2"
    soc = current_l2().op.soc
    check_not_null(api, x=x, weight=weight, antiquantScale=antiquantScale, y=y)
    assert x is not None and weight is not None and antiquantScale is not None and y is not None
    if soc.npu_arch != DAV_2201 and (quantScaleOptional is not None or quantOffsetOptional is not None):
        raise AclnnParamNullptr(f"{api}: Current Soc do not support quantScaleOptional or quantOffsetOptional")
    group = int(antiquantGroupSize)
    others = {"quantScaleOptional": quantScaleOptional, "quantOffsetOptional": quantOffsetOptional,
              "biasOptional": biasOptional}  # fmt: skip
    trans_w = _check_layout(api, x, weight, antiquantScale, antiquantOffsetOptional, y, others)
    _check_dtypes(api, x, weight, antiquantScale, antiquantOffsetOptional, quantScaleOptional, biasOptional, y)
    tensors = {"x": x, "antiquantScale": antiquantScale, "biasOptional": biasOptional,
               "antiquantOffsetOptional": antiquantOffsetOptional, **others}  # fmt: skip
    _check_formats_and_ranks(api, tensors, weight)
    if quantScaleOptional is None:
        check_param(quantOffsetOptional is None, api, "The sence quantScaleOptional is null and quantOffsetOptional "
                    "is't null can't support.")  # fmt: skip
    else:
        check_param(quantScaleOptional.dtype == D.DT_UINT64, api, "The type of quantScaleOptional only supports "
                    f"[UINT64], actual is [{dtype_name(quantScaleOptional.dtype)}]. You should call the "
                    "aclnnTransQuantParam() interface.")  # fmt: skip
    _check_shapes(api, x, weight, antiquantScale, antiquantOffsetOptional, quantScaleOptional, biasOptional, y, group,
                  trans_w)  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(x, weight, y):
            return unique.release(0)
        a, trans_x = contiguous_or_transposed(x, executor)
        w = executor.create_view(weight, tuple(reversed(weight.view_shape)), weight.offset) if trans_w else weight
        scale, offset = antiquantScale, antiquantOffsetOptional
        if trans_w:
            scale = executor.create_view(scale, tuple(reversed(scale.view_shape)), scale.offset)
            if offset is not None:
                offset = executor.create_view(offset, tuple(reversed(offset.view_shape)), offset.offset)
        else:
            scale = contiguous(scale, executor)
            offset = contiguous(offset, executor) if offset is not None else None
        opt = [contiguous(t, executor) if t is not None else None
               for t in (quantScaleOptional, quantOffsetOptional, biasOptional)]  # fmt: skip
        out = executor.alloc_tensor(tuple(y.view_shape), y.dtype)
        dtype_attr = int(y.dtype) if quantScaleOptional is not None else -1
        attrs = OP_ATTR(Bool(trans_x), Bool(trans_w), Int64(group), Int64(dtype_attr), Int64(0))
        inputs = OP_INPUT(a, w, scale, offset, *opt)
        status = add_to_launcher_list_aicore(executor, WEIGHT_QUANT_BATCH_MATMUL_V2, inputs, OP_OUTPUT(out), attrs)
        if status != 0:
            raise L0StepFailed("WeightQuantBatchMatmulV2", f"status {status}")
        view_copy(out, y, executor)
        return unique.release(executor.get_workspace_size())


OPS = (WEIGHT_QUANT_BATCH_MATMUL_V2,)
