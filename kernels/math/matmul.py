"""aclnnMm / aclnnMatmul / aclnnBatchMatMul over MatMulV3 / BatchMatMulV3.

Checks: null self / mat2 / out (161001); dtypes BF16 F16 F32; ranks (Mm exactly 2-D, BatchMatMul
exactly 3-D with a batch of 1 broadcasting, Matmul 1..6-D with batch broadcasting, a 1-D self acting
as (1, K) and a 1-D mat2 as (K, 1), their dim removed from out); K equal; out of the exact result
shape; cubeMathType in {-1, 0, 1, 2, 3, 4} (all 161002). An empty out with an empty input launches
nothing; K == 0 with a non-empty out fills out with zeros.

The compute dtype follows the A2 table by cubeMathType: F16+F16 -> F16, BF16+BF16 -> BF16,
F16+BF16 -> F32, pairs with F32 -> F32, or F16 with USE_FP16 (2); F32 with
ALLOW_FP32_DOWN_PRECISION (1) or USE_HF32 (3) runs as HF32 (inputs rounded to 11 mantissa bits,
``enable_hf32``). The kernel writes F32 directly when out is F32 and the mode is not USE_FP16,
else the compute dtype, then Cast to out. L0 chain: Contiguous (a view that is the transpose of a
dense tensor in its last two dims is not copied: the dense tensor goes in with the transpose
flag) -> Cast(compute) -> MatMulV3 (2-D; also a >= 3-D self against a 2-D mat2, folded into rows)
or BatchMatMulV3 -> Cast(out) -> ViewCopy.

Tiling (MatMulV3 basic block): baseM 128 (256 with a 256 KiB L0C) x baseN 256 x baseK 128 bytes,
clamped to M / N / K; the output (and batch) is cut into per-core regions of whole base blocks
(singleCoreM x singleCoreN, singleCoreBatch), at most one region per cube core; each block
computes its region with one numpy matmul accumulating in float32 (float16 / bfloat16 inputs
widened first) and rounds once to the output dtype.

A 2-D FRACTAL_NZ mat2 (aclnnTransMatmulWeight's in-place layout) goes to MatMulV3 unchanged, flagged
by the tiling's ``isNzB``; the kernel reads it back from its fractals. aclnnMatmul refuses an NZ self
or out and a float16 / bfloat16 mix with an NZ mat2 (161002, its real checks); an NZ mat2 that is not
2-D or not already in the compute dtype is refused (161002) because that path is not emulated.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tensors import is_contiguous
from emulator.engine.tiling import KernelSignature, align_up, ceil_div
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.kernels.math.reduce_common import fill_l0
from emulator.kernels.math.trans_matmul_weight import nd_from_nz
from emulator.meta.dtypes import DataType, dtype_name, type_size
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
    l0_label,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param

D = DataType
MM_DTYPES = (D.DT_BF16, D.DT_FLOAT16, D.DT_FLOAT)
NZ = int(aclFormat.ACL_FORMAT_FRACTAL_NZ)
NZ_C0_BYTES = 32  # a FRACTAL_NZ fractal row: 16 float16 / bfloat16 or 8 float32 elements
KEEP_DTYPE, ALLOW_FP32_DOWN_PRECISION, USE_FP16, USE_HF32, USE_FP32_ADD = 0, 1, 2, 3, 4
CUBE_MATH_TYPES = (-1, KEEP_DTYPE, ALLOW_FP32_DOWN_PRECISION, USE_FP16, USE_HF32, USE_FP32_ADD)
F32 = np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
BASE_N = 256
BASE_K_BYTES = 128
HF32_DROP_BITS = 12  # float32 keeps 23 mantissa bits, HF32 11
MIN_CORE_MACS = 1 << 30  # a block is one host BLAS call: smaller ones cost more than the split saves
BLAS_LOCK = threading.Lock()  # numpy's BLAS already runs on every host core: blocks take turns


class MatmulTilingData(ctypes.Structure):
    _fields_ = [
        ("batch", ctypes.c_int64),  # output batch count (1 for MatMulV3)
        ("M", ctypes.c_int64),
        ("N", ctypes.c_int64),
        ("Ka", ctypes.c_int64),
        ("Kb", ctypes.c_int64),
        ("baseM", ctypes.c_int64),
        ("baseN", ctypes.c_int64),
        ("baseK", ctypes.c_int64),
        ("singleCoreBatch", ctypes.c_int64),
        ("singleCoreM", ctypes.c_int64),
        ("singleCoreN", ctypes.c_int64),
        ("singleCoreK", ctypes.c_int64),
        ("batchRegions", ctypes.c_int64),
        ("mRegions", ctypes.c_int64),
        ("nRegions", ctypes.c_int64),
        ("usedCoreNum", ctypes.c_int64),
        ("stepKa", ctypes.c_int64),
        ("stepKb", ctypes.c_int64),
        ("dbL0C", ctypes.c_int64),
        ("isTransA", ctypes.c_int64),
        ("isTransB", ctypes.c_int64),
        ("hf32Flag", ctypes.c_int64),
        ("isNzB", ctypes.c_int64),  # x2 is stored FRACTAL_NZ (aclnnTransMatmulWeight's layout)
    ]


def _dims(shape: Sequence[int], trans: bool) -> tuple[int, int]:
    return (shape[-1], shape[-2]) if trans else (shape[-2], shape[-1])


def _wanted(cores: int, macs: int) -> int:
    """Cores worth using: each gets at least MIN_CORE_MACS multiply-adds (the elementwise template's
    "a block below this is not worth a core")."""
    return max(min(cores, macs // MIN_CORE_MACS), 1)


def _regions(batch: int, m_tiles: int, n_tiles: int, want: int) -> tuple[int, int, int]:
    """(singleCoreBatch, singleCoreM, singleCoreN) in batches and base blocks, for at most ``want`` regions.

    Batches first, then bands of whole baseM rows (contiguous in memory); N is cut as well only when the
    bands would leave more than half of the wanted cores idle."""
    if batch >= want:
        return ceil_div(batch, want), m_tiles, n_tiles
    sm = ceil_div(m_tiles, min(m_tiles, want // batch))
    bands = batch * ceil_div(m_tiles, sm)
    if 2 * bands >= want:
        return 1, sm, n_tiles
    return 1, sm, ceil_div(n_tiles, min(n_tiles, want // bands))


def matmul_tiling(ctx: TilingContext) -> TilingResult:
    x1, x2, y = ctx.inputs[0], ctx.inputs[1], ctx.outputs[0]
    assert x1 is not None and x2 is not None and y is not None
    trans_a, trans_b, _, hf32 = ctx.attrs
    m, ka = _dims(x1.view_shape, bool(trans_a))
    kb, n = _dims(x2.view_shape, bool(trans_b))
    batch = 1
    for d in y.view_shape[:-2]:
        batch *= d
    base_m = 256 if ctx.platform.soc.l0c_size >= 256 * 1024 else 128
    base_m = min(base_m, align_up(max(m, 1), 16))
    base_n = min(BASE_N, align_up(max(n, 1), 16))
    base_k = min(BASE_K_BYTES // type_size(x1.dtype), align_up(max(ka, 1), 16))
    cores = max(ctx.platform.core_num, 1)
    m_tiles, n_tiles = ceil_div(max(m, 1), base_m), ceil_div(max(n, 1), base_n)
    sb, sm, sn = _regions(batch, m_tiles, n_tiles, _wanted(cores, batch * m * n * ka))
    b_regions, m_regions, n_regions = ceil_div(batch, sb), ceil_div(m_tiles, sm), ceil_div(n_tiles, sn)
    used = b_regions * m_regions * n_regions
    data = MatmulTilingData(
        batch=batch, M=m, N=n, Ka=ka, Kb=kb, baseM=base_m, baseN=base_n, baseK=base_k, singleCoreBatch=sb,
        singleCoreM=sm * base_m, singleCoreN=sn * base_n, singleCoreK=ka, batchRegions=b_regions,
        mRegions=m_regions, nRegions=n_regions, usedCoreNum=used, stepKa=max(ceil_div(ka, base_k), 1),
        stepKb=max(ceil_div(kb, base_k), 1), dbL0C=1, isTransA=int(bool(trans_a)), isTransB=int(bool(trans_b)),
        hf32Flag=int(bool(hf32)), isNzB=int(x2.format == NZ),
    )  # fmt: skip
    return TilingResult(tiling_key=0, block_dim=used, data=data)  # cube core: L1 / L0, no unified buffer


def to_hf32(x: np.ndarray) -> np.ndarray:
    """Round float32 values to HF32 (11 mantissa bits), nearest-even."""
    bits = np.ascontiguousarray(x, dtype=F32).view(np.uint32)
    half = np.uint32(1 << (HF32_DROP_BITS - 1))
    odd = (bits >> np.uint32(HF32_DROP_BITS)) & np.uint32(1)
    rounded = (bits + half - np.uint32(1) + odd) & np.uint32(~((1 << HF32_DROP_BITS) - 1) & 0xFFFFFFFF)
    finite = np.isfinite(x)
    return np.where(finite, rounded.view(F32), x)


def _batch_index(batch_shape: tuple[int, ...], out_batch: tuple[int, ...], lo: int, hi: int) -> np.ndarray | slice:
    """Which input matrices the output batches [lo, hi) read: a slice (one matrix broadcasts as [0:1]),
    or indices when the batch dims broadcast partially."""
    count = _prod(batch_shape)
    if batch_shape == out_batch:
        return slice(lo, hi)
    if count == 1:
        return slice(0, 1)
    padded = (1,) * (len(out_batch) - len(batch_shape)) + batch_shape
    ids = np.broadcast_to(np.arange(count).reshape(padded), out_batch).reshape(-1)
    return ids[lo:hi]


def _operand(
    view: np.ndarray, dtype: np.dtype, shape: tuple[int, ...], batch: np.ndarray | slice, rows: slice, cols: slice,
    nz: bool = False,
) -> np.ndarray:  # fmt: skip
    """Batches ``batch``, then rows and columns of the stored (batch, r, c) matrices of one input (read
    back from their fractals when ``nz``: C0 is 32 bytes of elements)."""
    r, c = shape[-2], shape[-1]
    count = _prod(shape[:-2])
    if nz:
        mat = nd_from_nz(view.view(dtype), r, c, NZ_C0_BYTES // dtype.itemsize)
    else:
        mat = view.view(dtype)[: count * r * c].reshape(count, r, c)
    return mat[batch, rows, cols] if isinstance(batch, slice) else mat[batch][:, rows, cols]


@dataclass(frozen=True, slots=True)
class MatmulAttrs(KernelAttrs):
    """What a MatMulV3 / BatchMatMulV3 binary has baked in: dtypes and shapes of x1, x2 and y.

    The transpose and hf32 attributes reach the kernel through the tiling data, as on the card."""

    x1_dtype: np.dtype
    x2_dtype: np.dtype
    y_dtype: np.dtype
    x1_shape: tuple[int, ...]
    x2_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> MatmulAttrs:
        d1, d2, dy = signature.dtypes
        s1, s2, sy = signature.shapes
        return cls(d1, d2, dy, s1, s2, sy)


def matmul_kernel(ctx: BlockContext[MatmulAttrs], x1: np.ndarray, x2: np.ndarray, y: np.ndarray) -> None:
    """One block: its (batch, M, N) region, one float32-accumulating numpy matmul over the whole K."""
    data = MatmulTilingData.from_buffer_copy(ctx.tiling)
    bi, rest = divmod(ctx.block_idx, data.mRegions * data.nRegions)
    mi, ni = divmod(rest, data.nRegions)
    b_lo, m_lo, n_lo = bi * data.singleCoreBatch, mi * data.singleCoreM, ni * data.singleCoreN
    b_hi = min(b_lo + data.singleCoreBatch, data.batch)
    m_hi, n_hi = min(m_lo + data.singleCoreM, data.M), min(n_lo + data.singleCoreN, data.N)
    if b_lo >= b_hi or m_lo >= m_hi or n_lo >= n_hi:
        return
    attrs = ctx.attrs
    d1, d2, dy = attrs.x1_dtype, attrs.x2_dtype, attrs.y_dtype
    s1, s2, sy = attrs.x1_shape, attrs.x2_shape, attrs.y_shape
    out_batch, m_rng, n_rng, every = sy[:-2], slice(m_lo, m_hi), slice(n_lo, n_hi), slice(None)
    batch_a = _batch_index(s1[:-2], out_batch, b_lo, b_hi)
    batch_b = _batch_index(s2[:-2], out_batch, b_lo, b_hi)
    if data.isTransA:  # stored (K, M)
        a = _operand(x1, d1, s1, batch_a, every, m_rng).swapaxes(-1, -2)
    else:
        a = _operand(x1, d1, s1, batch_a, m_rng, every)
    if data.isTransB:  # stored (N, K)
        b = _operand(x2, d2, s2, batch_b, n_rng, every).swapaxes(-1, -2)
    else:
        b = _operand(x2, d2, s2, batch_b, every, n_rng, nz=bool(data.isNzB))
    if d1 != F32 or d2 != F32:
        a, b = a.astype(F32), b.astype(F32)
    elif data.hf32Flag:
        a, b = to_hf32(a), to_hf32(b)
    y3 = y.view(dy)[: data.batch * data.M * data.N].reshape(data.batch, data.M, data.N)
    out = y3[b_lo:b_hi, m_rng, n_rng]
    if dy == F32:
        with BLAS_LOCK:
            np.matmul(a, b, out=out)
    else:
        with BLAS_LOCK:
            result = np.matmul(a, b)
        out[...] = result.astype(dy)


def _bins() -> tuple[BinSpec, ...]:
    pairs = (("float", "float"), ("float16", "float16"), ("float16", "float"), ("bfloat16", "bfloat16"),
             ("bfloat16", "float"))  # fmt: skip
    return tuple(BinSpec((c, c, None), (o,)) for c, o in pairs)


def _matmul_op(op_type: str, trans_names: tuple[str, str]) -> OpImpl:
    attrs = ((trans_names[0], "bool"), (trans_names[1], "bool"), ("offset_x", "int"), ("enable_hf32", "bool"))
    return OpImpl(
        op_type, matmul_kernel, matmul_tiling, attrs=attrs, attr_names=tuple(n for n, _ in attrs), bins=_bins(),
        input_names=("x1", "x2", "bias"), kernel_json={"coreType": "AiCore",
                                                       "opParaSize": ctypes.sizeof(MatmulTilingData)},
        kernel_attrs=MatmulAttrs.of,
    )  # fmt: skip


MATMUL_V3 = _matmul_op("MatMulV3", ("transpose_x1", "transpose_x2"))
BATCH_MATMUL_V3 = _matmul_op("BatchMatMulV3", ("adj_x1", "adj_x2"))


# -- L0 ----------------------------------------------------------------------------------------------
def contiguous_or_transposed(x: aclTensor, executor: aclOpExecutor) -> tuple[aclTensor, bool]:
    """Contiguous, except that the transpose (last two dims) of a dense tensor is passed as that dense
    tensor with the transpose flag set."""
    shape, strides = tuple(x.view_shape), tuple(x.strides)
    if len(shape) >= 2 and not is_contiguous(x):
        swapped = (*shape[:-2], shape[-1], shape[-2])
        dense = contiguous_strides(swapped)
        if strides == (*dense[:-2], dense[-1], dense[-2]):
            return executor.create_view(x, swapped, x.offset), True
    return contiguous(x, executor), False


def matmul_l0(
    impl: OpImpl, a: aclTensor, b: aclTensor, trans_a: bool, trans_b: bool, out_shape: tuple[int, ...],
    out_dtype: int, hf32: bool, executor: aclOpExecutor,
) -> aclTensor:  # fmt: skip
    """l0op::MatMulV3Nd / BatchMatMulV3 with the transpose flags and the HF32 switch."""
    out = executor.alloc_tensor(out_shape, out_dtype)
    attrs = OP_ATTR(Bool(trans_a), Bool(trans_b), Int64(0), Bool(hf32))
    status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(a, b, None), OP_OUTPUT(out), attrs)
    if status != 0:
        raise L0StepFailed(impl.op_type, f"status {status}")
    return out


# -- L2 ----------------------------------------------------------------------------------------------
def compute_dtype(a: int, b: int, mode: int) -> int:
    """The A2 compute-dtype table of aclnnMm / aclnnMatmul / aclnnBatchMatMul."""
    if a == b and a in (D.DT_FLOAT16, D.DT_BF16):
        return a
    if {a, b} == {D.DT_FLOAT16, D.DT_BF16}:
        return D.DT_FLOAT
    return D.DT_FLOAT16 if mode == USE_FP16 else D.DT_FLOAT


def _check_common(api: str, self: aclTensor, mat2: aclTensor, out: aclTensor, mode: int) -> None:
    for name, t in (("self", self), ("mat2", mat2), ("out", out)):
        check_dtype(api, name, t, MM_DTYPES)
    check_param(mode in CUBE_MATH_TYPES, api, f"cubeMathType {mode} is not supported.")
    if mat2.storage_format == NZ:  # CheckWeightNzDtype: no float16 / bfloat16 mix with an NZ weight
        pair = {self.dtype, mat2.dtype}
        check_param(pair != {D.DT_FLOAT16, D.DT_BF16}, api, "The dtypes of self and mat2 must be both DT_BF16 or "
                    f"both DT_FLOAT16, now self's dtype is [{dtype_name(self.dtype)}], mat2's dtype is "
                    f"[{dtype_name(mat2.dtype)}]")  # fmt: skip


def _check_nz(api: str, self: aclTensor, mat2: aclTensor, out: aclTensor, mode: int, kind: str) -> None:
    """After the shape checks: aclnnMatmul's CheckFormat (self and out never NZ), then what the NZ
    weight path here emulates — a 2-D weight already in the compute dtype (no Cast of fractals)."""
    if kind == "matmul":
        check_param(NZ not in (self.storage_format, out.storage_format), api,
                    "The 'self' or 'out' tensor currently does not support NZ format")  # fmt: skip
    if mat2.storage_format != NZ:
        return
    rank = len(mat2.view_shape)
    check_param(rank == 2, api, f"a FRACTAL_NZ mat2 must be 2-D here (the batched NZ weight is not emulated), not "
                f"{rank}-D.")  # fmt: skip
    compute = compute_dtype(self.dtype, mat2.dtype, mode)
    check_param(mat2.dtype == compute, api, f"a FRACTAL_NZ mat2 of {dtype_name(mat2.dtype)} must already have the "
                f"compute dtype {dtype_name(compute)} (casting a weight's fractals is not emulated).")  # fmt: skip


Plan = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _plan(api: str, self: aclTensor, mat2: aclTensor, out: aclTensor, kind: str) -> Plan:
    """Checks shapes; returns (self as >= 2-D, mat2 as >= 2-D, the kernel's output shape, out's shape)."""
    s, m2 = tuple(self.view_shape), tuple(mat2.view_shape)
    if kind == "mm":
        for name, t in (("self", s), ("mat2", m2), ("out", tuple(out.view_shape))):
            check_param(len(t) == 2, api, f"{name} must be 2-D, not {len(t)}-D.")
    elif kind == "bmm":
        for name, t in (("self", s), ("mat2", m2), ("out", tuple(out.view_shape))):
            check_param(len(t) == 3, api, f"{name} must be 3-D, not {len(t)}-D.")
    else:
        for name, t in (("self", s), ("mat2", m2)):
            check_param(1 <= len(t) <= 6, api, f"{name} must be 1-D to 6-D, not {len(t)}-D.")
    a2 = (1, *s) if len(s) == 1 else s
    b2 = (*m2, 1) if len(m2) == 1 else m2
    check_param(a2[-1] == b2[-2], api, f"self's K {a2[-1]} must equal mat2's K {b2[-2]}.")
    if kind == "bmm":
        check_param(a2[0] == b2[0] or 1 in (a2[0], b2[0]), api, f"batch {a2[0]} and {b2[0]} do not broadcast.")
    batch = broadcast_shape(a2[:-2], b2[:-2])
    check_param(batch is not None, api, f"batch dims {list(a2[:-2])} and {list(b2[:-2])} do not broadcast.")
    assert batch is not None
    kernel_shape = (*batch, a2[-2], b2[-1])
    expected = (*batch, *((a2[-2],) if len(s) > 1 else ()), *((b2[-1],) if len(m2) > 1 else ()))
    check_param(tuple(out.view_shape) == expected, api, f"out shape {list(out.view_shape)} must be {list(expected)}.")
    return a2, b2, kernel_shape, expected


def _matmul(api: str, self: aclTensor | None, mat2: aclTensor | None, out: aclTensor | None, mode: int,
            kind: str) -> tuple[int, aclOpExecutor | None, int]:  # fmt: skip
    check_not_null(api, self=self, mat2=mat2, out=out)
    assert self is not None and mat2 is not None and out is not None
    mode = int(mode)
    _check_common(api, self, mat2, out, mode)
    a2, b2, kernel_shape, _ = _plan(api, self, mat2, out, kind)
    _check_nz(api, self, mat2, out, mode, kind)
    with create_executor() as unique:
        executor = unique.get()
        if out.numel == 0:
            return unique.release(0)
        if a2[-1] == 0:  # K == 0: zeros
            with l0_label("Fill"):
                view_copy(fill_l0(tuple(out.view_shape), 0.0, out.dtype, executor), out, executor)
            return unique.release(executor.get_workspace_size())
        result = matmul_chain(self, mat2, out, mode, a2, b2, kernel_shape, executor)
        if result.view_shape != out.view_shape:
            result = reshape_view(executor, result, tuple(out.view_shape))
        with l0_label("ViewCopy"):
            view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


def matmul_chain(
    self: aclTensor, mat2: aclTensor, out: aclTensor, mode: int, a2: tuple[int, ...], b2: tuple[int, ...],
    kernel_shape: tuple[int, ...], executor: aclOpExecutor,
) -> aclTensor:  # fmt: skip
    compute = compute_dtype(self.dtype, mat2.dtype, mode)
    hf32 = compute == D.DT_FLOAT and mode in (ALLOW_FP32_DOWN_PRECISION, USE_HF32)
    kernel_out = D.DT_FLOAT if out.dtype == D.DT_FLOAT and mode != USE_FP16 else compute
    fold = len(a2) >= 3 and len(b2) == 2  # (B..., M, K) @ (K, N): one MatMulV3 over B*M rows
    if len(a2) != len(self.view_shape) or fold:
        a = contiguous(self, executor)
        a = reshape_view(executor, a, (a2[-2] * _prod(a2[:-2]), a2[-1]) if fold else a2)
        trans_a = False
    else:
        a, trans_a = contiguous_or_transposed(self, executor)
    if mat2.storage_format == NZ:  # its fractals go to MatMulV3 as they are (isNzB in the tiling)
        b, trans_b = mat2, False
    elif len(b2) != len(mat2.view_shape):
        b = contiguous(mat2, executor)
        b = reshape_view(executor, b, b2)
        trans_b = False
    else:
        b, trans_b = contiguous_or_transposed(mat2, executor)
    a, b = cast(a, compute, executor), cast(b, compute, executor)
    two_d = len(a.view_shape) == 2 and len(b.view_shape) == 2
    shape = (a.view_shape[-1] if trans_a else a.view_shape[-2], kernel_shape[-1]) if two_d else kernel_shape
    impl = MATMUL_V3 if two_d else BATCH_MATMUL_V3
    result = matmul_l0(impl, a, b, trans_a, trans_b, shape, kernel_out, hf32, executor)
    if fold:
        result = reshape_view(executor, result, kernel_shape)
    return cast(result, out.dtype, executor)


def _prod(dims: Sequence[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


@l2_api
def aclnnMmGetWorkspaceSize(
    self: aclTensor | None, mat2: aclTensor | None, out: aclTensor | None, cubeMathType: int
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _matmul("aclnnMm", self, mat2, out, cubeMathType, "mm")


@l2_api
def aclnnMatmulGetWorkspaceSize(
    self: aclTensor | None, mat2: aclTensor | None, out: aclTensor | None, cubeMathType: int
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _matmul("aclnnMatmul", self, mat2, out, cubeMathType, "matmul")


@l2_api
def aclnnBatchMatMulGetWorkspaceSize(
    self: aclTensor | None, mat2: aclTensor | None, out: aclTensor | None, cubeMathType: int
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _matmul("aclnnBatchMatMul", self, mat2, out, cubeMathType, "bmm")


OPS = (MATMUL_V3, BATCH_MATMUL_V3)
