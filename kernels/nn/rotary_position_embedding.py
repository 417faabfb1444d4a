"""aclnnRotaryPositionEmbedding: y = x * cos + rotate(x) * sin over the last axis (ops-transformer posembedding).

The real API is generated (the nnopbase path) over the single RotaryPositionEmbedding kernel, so its
statuses are the generated ones: 161001 for a null x, cos, sin or out; 161002 for an (x, cos, sin,
out) dtype set outside the kernel's table (all four float16, float32 or bfloat16; the kernel ships
for A2 / A3 and the Ascend 950 only); out not of x's shape is the shape inference's 561001; the rest
is the tiling's 561002 — a rank other than 4, a mode the SoC has no template for (A2 / A3: 0 half
and 1 interleave; the 950 adds 2 quarter and 3 interleave-half), cos and sin of different shapes, a
head dim D different from x's, odd, or above 896, cos / sin dims that are neither 1 nor x's, and in
interleave mode a cos that is not (S,1,1,D), (1,S,1,D) or (1,1,S,D) against x's matching axis. An
empty x launches nothing and is not held to those rules.

Kernel: x seen as [rows, D]; the rows are split across the vector cores. Each row reads its cos /
sin row through the broadcast (an axis of size 1 repeats), rotates in float32 and rounds once.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature, ceil_div
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS
from emulator.kernels.math.reduce_common import MIN_BLOCK_BYTES
from emulator.kernels.math.rms_norm import AclnnInferShapeError, AclnnTilingError
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Int64,
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
from emulator.opdev.l2 import current_l2

D = DataType
ROPE_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
F32 = np.dtype(np.float32)
HALF, INTERLEAVE, QUARTER, INTERLEAVE_HALF = 0, 1, 2, 3
MODES_A2 = (HALF, INTERLEAVE)
MODES_REGBASE = (HALF, INTERLEAVE, QUARTER, INTERLEAVE_HALF)
D_LIMIT = 896
UB_ROWS = 64  # rows of x one UB tile holds


class RopeTilingData(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.c_int64),  # B * S * N (x's first three dims)
        ("dLength", ctypes.c_int64),
        ("blockFormer", ctypes.c_int64),  # rows per core
        ("mode", ctypes.c_int64),
        ("xDims", ctypes.c_int64 * 3),
        ("rDims", ctypes.c_int64 * 3),  # cos / sin first three dims (1 = broadcast)
    ]

    def ub_bytes(self, itemsizes: Sequence[int]) -> int:
        """The least UB a kernel walking these tiles allocates: x, cos and sin tiles of ``UB_ROWS`` rows
        (no more than a core holds) of ``dLength`` elements, of the smallest element size it handles."""
        rows = min(UB_ROWS, int(self.blockFormer))
        return max(rows * int(self.dLength), 0) * min(itemsizes, default=1) * 3


def rope_tiling(ctx: TilingContext) -> TilingResult:
    """Rows across the vector cores, at least MIN_BLOCK_BYTES of x each."""
    x, cos = ctx.inputs[0], ctx.inputs[1]
    assert x is not None and cos is not None
    xs, rs = tuple(x.view_shape), tuple(cos.view_shape)
    rows, d = xs[0] * xs[1] * xs[2], xs[3]
    cores = max(ctx.platform.core_num, 1)
    row_bytes = max(d * type_size(x.dtype), 1)
    former = min(max(ceil_div(rows, cores), ceil_div(MIN_BLOCK_BYTES, row_bytes)), max(rows, 1))
    blocks = max(ceil_div(rows, former), 1)
    data = RopeTilingData(rows=rows, dLength=d, blockFormer=former, mode=int(ctx.attrs[0]))
    data.xDims[:] = xs[:3]
    data.rDims[:] = rs[:3]
    ub = min(former, UB_ROWS) * d * (3 * type_size(x.dtype) + 3 * 4)  # x, cos, sin tiles and their float32 copies
    return TilingResult(tiling_key=1000 + 10 * int(ctx.attrs[0]), block_dim=blocks, data=data, ub_bytes_per_block=ub)


def rotate(x: np.ndarray, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """(the x multiplied by cos, the rotated x multiplied by sin) of the mode, rows on the last axis."""
    d = x.shape[-1]
    if mode == HALF:
        h = d // 2
        return x, np.concatenate((-x[:, h:], x[:, :h]), axis=1)
    if mode == INTERLEAVE:
        out = np.empty_like(x)
        out[:, 0::2], out[:, 1::2] = -x[:, 1::2], x[:, 0::2]
        return x, out
    if mode == QUARTER:
        q = d // 4
        parts = (-x[:, q : 2 * q], x[:, :q], -x[:, 3 * q :], x[:, 2 * q : 3 * q])
        return x, np.concatenate(parts, axis=1)
    even, odd = x[:, 0::2], x[:, 1::2]  # interleave-half: deinterleave, then rotate by halves
    return np.concatenate((even, odd), axis=1), np.concatenate((-odd, even), axis=1)


@dataclass(frozen=True, slots=True)
class RopeAttrs(KernelAttrs):
    """What a RotaryPositionEmbedding binary has baked in: the dtype of x, cos, sin and y."""

    dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> RopeAttrs:
        return cls(signature.dtypes[0])


def rope_kernel(ctx: BlockContext[RopeAttrs], x: np.ndarray, cos: np.ndarray, sin: np.ndarray, y: np.ndarray) -> None:
    data = RopeTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.blockFormer
    hi = min(lo + data.blockFormer, data.rows)
    if lo >= hi:
        return
    dt, d = ctx.attrs.dtype, int(data.dLength)
    xd, rd = tuple(data.xDims), tuple(data.rDims)
    coords = np.unravel_index(np.arange(lo, hi, dtype=np.int64), xd)
    r_rows = np.ravel_multi_index(tuple(c if n > 1 else np.zeros_like(c) for c, n in zip(coords, rd, strict=True)), rd)
    xs = x.view(dt)[lo * d : hi * d].reshape(-1, d).astype(F32)
    c = cos.view(dt)[: int(np.prod(rd)) * d].reshape(-1, d)[r_rows].astype(F32)
    s = sin.view(dt)[: int(np.prod(rd)) * d].reshape(-1, d)[r_rows].astype(F32)
    straight, rotated = rotate(xs, int(data.mode))
    y.view(dt)[lo * d : hi * d] = (straight * c + rotated * s).astype(dt).reshape(-1)


ROPE = OpImpl(
    "RotaryPositionEmbedding", rope_kernel, rope_tiling, attrs=(("mode", "int"),), attr_names=("mode",),
    bins=tuple(BinSpec((NAMES[d],) * 3, (NAMES[d],)) for d in ROPE_DTYPES), input_names=("x", "cos", "sin"),
    output_names=("y",), kernel_attrs=RopeAttrs.of,
)  # fmt: skip


def _tiling_checks(x: aclTensor, cos: aclTensor, sin: aclTensor, mode: int) -> None:
    """What the tiling templates refuse (561002), in their order."""
    soc = current_l2().op.soc.short_soc_version
    modes = MODES_REGBASE if soc in REGBASE_SOCS else MODES_A2
    xs, cs, ss = tuple(x.view_shape), tuple(cos.view_shape), tuple(sin.view_shape)

    def refuse(ok: bool, message: str) -> None:
        if not ok:
            raise AclnnTilingError(f"RotaryPositionEmbedding tiling: {message}", msg_id="EZ9999")

    refuse(mode in modes, f"mode {mode} is not supported on {soc}, it should be in {list(modes)}.")
    refuse(len(xs) == len(cs) == len(ss) == 4, "the input shape must be 4-dimensional.")
    d = xs[3]
    refuse(d <= D_LIMIT, f"input last dim (head_dim) should be less than {D_LIMIT}.")
    refuse(d % (4 if mode == QUARTER else 2) == 0, "input last dim (head_dim) must be an even number.")
    refuse(cs == ss, "cos shape and sin shape should be equal.")
    refuse(cs[3] == d, f"input last dim (head_dim) should be equal, but get x [{d}] and cos [{cs[3]}].")
    supported = all(r in (1, n) for r, n in zip(cs[:3], xs[:3], strict=True))
    if mode == INTERLEAVE:  # one sequence axis of x's, the other two 1
        supported = supported and any(cs[i] == xs[i] and all(cs[j] == 1 for j in range(3) if j != i) for i in range(3))
    refuse(supported, "The shape of the input x, cos and sin is not supported.")


@l2_api
def aclnnRotaryPositionEmbeddingGetWorkspaceSize(
    x: aclTensor | None, cos: aclTensor | None, sin: aclTensor | None, mode: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
    const aclTensor* sin, int64_t mode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnRotaryPositionEmbedding"
    check_not_null(api, x=x, cos=cos, sin=sin, out=out)
    assert x is not None and cos is not None and sin is not None and out is not None
    soc = current_l2().op.soc.short_soc_version
    supported = ROPE_DTYPES if soc in (*A2_SOCS, *REGBASE_SOCS) else ()
    combo = (x.dtype, cos.dtype, sin.dtype, out.dtype)
    check_param(x.dtype in supported and len(set(combo)) == 1, api,
                "the dtypes of x, cos, sin and out are not a supported combination.")  # fmt: skip
    if tuple(out.view_shape) != tuple(x.view_shape):
        raise AclnnInferShapeError(f"RotaryPositionEmbedding infershape: out must be {list(x.view_shape)}, x's shape.",
                                   msg_id="EZ9999")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if x.numel == 0:
            return unique.release(0)
        _tiling_checks(x, cos, sin, int(mode))
        with l0_label("Contiguous"):
            xc, cc, sc = contiguous(x, executor), contiguous(cos, executor), contiguous(sin, executor)
        y = executor.alloc_tensor(x.view_shape, x.dtype)
        status = add_to_launcher_list_aicore(executor, ROPE, OP_INPUT(xc, cc, sc), OP_OUTPUT(y), OP_ATTR(Int64(mode)))
        if status != 0:
            raise AclnnTilingError(f"{api}: the RotaryPositionEmbedding kernel could not be prepared.", msg_id="EZ9999")
        with l0_label("ViewCopy"):
            view_copy(y, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (ROPE,)
