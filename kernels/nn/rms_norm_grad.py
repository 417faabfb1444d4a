"""aclnnRmsNormGrad: the gradients of y = x · rstd · gamma given dy and the forward's rstd.

With D the elements of gamma and each row of x its D trailing elements:
dx = rstd · gamma · dy - x · rstd³ · mean(dy · gamma · x) per row, dgamma = Σ_rows dy · x · rstd.

The real API is generated (the nnopbase path) over the RmsNormGrad kernel, so its statuses are the
generated ones: 161001 for a null pointer; 161002 for a (dy, x, rstd, gamma, dx, dgamma) dtype
combination outside the kernel's table (float16 / bfloat16 / float32 dy and x, float32 rstd, gamma
float32 or of x's dtype, dx of dy's, dgamma float32; no bfloat16 off A2 / A3); 561001 when dx is not
x's shape or dgamma not gamma's (shape inference); 561002 from the tiling: x's rank outside 2..8,
gamma's outside 1..7, dy not x's shape, an empty last axis, rstd not holding one value per row.
Inputs are made contiguous; empty x launches nothing. Rows are split across the cores for dx;
dgamma is reduced over all rows by block 0 (see docs/ops_notes.md). Math in float32.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import ceil_div
from emulator.kernels.math.rms_norm import AclnnInferShapeError, AclnnTilingError
from emulator.kernels.math.row_common import RowTilingData, row_tiling
from emulator.kernels.math.soc_lists import is_a2_or_regbase
from emulator.kernels.nn.backward_common import GradAttrs
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_not_null, check_param

D = DataType
F32 = np.dtype(np.float32)
# (dy, x, rstd, gamma) -> (dx, dgamma), the A2 table; the older parts drop the bfloat16 rows
COMBOS = (
    (D.DT_FLOAT16, D.DT_FLOAT16, D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT16, D.DT_FLOAT),
    (D.DT_BF16, D.DT_BF16, D.DT_FLOAT, D.DT_FLOAT, D.DT_BF16, D.DT_FLOAT),
    (D.DT_FLOAT16, D.DT_FLOAT16, D.DT_FLOAT, D.DT_FLOAT16, D.DT_FLOAT16, D.DT_FLOAT),
    (D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT, D.DT_FLOAT),
    (D.DT_BF16, D.DT_BF16, D.DT_FLOAT, D.DT_BF16, D.DT_BF16, D.DT_FLOAT),
)
NAMES = {D.DT_FLOAT: "float", D.DT_FLOAT16: "float16", D.DT_BF16: "bfloat16"}


def rms_norm_grad_kernel(
    ctx: BlockContext[GradAttrs],
    dy: np.ndarray,
    x: np.ndarray,
    rstd: np.ndarray,
    gamma: np.ndarray,
    dx: np.ndarray,
    dgamma: np.ndarray,
) -> None:
    data = RowTilingData.from_buffer_copy(ctx.tiling)
    d_dy, d_x, _, d_g, d_dx, _ = ctx.attrs.dtypes
    cols = int(np.prod(ctx.attrs.shapes[3]))
    rows = data.totalNum // cols
    per_block = ceil_div(rows, max(data.blockNum, 1))
    lo, hi = ctx.block_idx * per_block, min((ctx.block_idx + 1) * per_block, rows)

    def rows_of(buf: np.ndarray, dtype: np.dtype, a: int, b: int) -> np.ndarray:
        return buf.view(dtype)[: rows * cols].reshape(rows, cols)[a:b].astype(F32)

    g = gamma.view(d_g)[:cols].astype(F32)
    r_all = rstd.view(F32)[:rows]
    if lo < hi:
        gy, xs, r = rows_of(dy, d_dy, lo, hi) * g, rows_of(x, d_x, lo, hi), r_all[lo:hi, None]
        mean = np.mean(gy * xs, axis=1, keepdims=True, dtype=F32)
        result = r * gy - xs * (r * r * r) * mean
        dx.view(d_dx)[: rows * cols].reshape(rows, cols)[lo:hi] = result.astype(d_dx)
    if ctx.block_idx == 0:
        total = np.sum(rows_of(dy, d_dy, 0, rows) * rows_of(x, d_x, 0, rows) * r_all[:, None], axis=0, dtype=F32)
        dgamma.view(F32)[:cols] = total


RMS_NORM_GRAD = OpImpl(
    "RmsNormGrad", rms_norm_grad_kernel, row_tiling, input_names=("dy", "x", "rstd", "gamma"),
    output_names=("dx", "dgamma"), kernel_attrs=GradAttrs.of,
    bins=tuple(BinSpec(tuple(NAMES[d] for d in c[:4]), tuple(NAMES[d] for d in c[4:])) for c in COMBOS),
)  # fmt: skip


def _tiling_checks(api: str, dy: aclTensor, x: aclTensor, rstd: aclTensor, gamma: aclTensor) -> None:
    """The shape checks the real RmsNormGrad tiling makes (561002)."""

    def fail(message: str) -> AclnnTilingError:
        return AclnnTilingError(f"{api}: RmsNormGrad tiling: {message}", msg_id="EZ9999")

    xs, gs = tuple(x.view_shape), tuple(gamma.view_shape)
    if not 2 <= len(xs) <= 8:
        raise fail(f"x has {len(xs)} dims, it must have 2 to 8.")
    if not 1 <= len(gs) <= 7:
        raise fail(f"gamma has {len(gs)} dims, it must have 1 to 7.")
    if tuple(dy.view_shape) != xs:
        raise fail(f"dy shape {list(dy.view_shape)} and x shape {list(xs)} must be the same.")
    if xs[-1] == 0:
        raise fail("the last dim of dy must not be 0.")
    cols = int(np.prod(gs))
    rows = x.numel // cols if cols else 0
    if cols == 0 or rows * cols != x.numel or rstd.numel != rows:
        raise fail(f"rstd shape {list(rstd.view_shape)} and x shape {list(xs)} do not match gamma {list(gs)}.")


@l2_api
def aclnnRmsNormGradGetWorkspaceSize(
    dy: aclTensor | None,
    x: aclTensor | None,
    rstd: aclTensor | None,
    gamma: aclTensor | None,
    dxOut: aclTensor | None,
    dgammaOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnRmsNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
    const aclTensor* gamma, const aclTensor* dxOut, const aclTensor* dgammaOut, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    api = "aclnnRmsNormGrad"
    check_not_null(api, dy=dy, x=x, rstd=rstd, gamma=gamma, dxOut=dxOut, dgammaOut=dgammaOut)
    assert dy is not None and x is not None and rstd is not None and gamma is not None
    assert dxOut is not None and dgammaOut is not None
    combo = (dy.dtype, x.dtype, rstd.dtype, gamma.dtype, dxOut.dtype, dgammaOut.dtype)
    supported = [c for c in COMBOS if is_a2_or_regbase() or D.DT_BF16 not in c]
    check_param(combo in supported, api, "the dtypes of dy, x, rstd, gamma, dxOut and dgammaOut are not a supported "
                "combination.")  # fmt: skip
    if tuple(dxOut.view_shape) != tuple(x.view_shape) or tuple(dgammaOut.view_shape) != tuple(gamma.view_shape):
        raise AclnnInferShapeError(f"{api}: dxOut must be {list(x.view_shape)} and dgammaOut "
                                   f"{list(gamma.view_shape)}.", msg_id="EZ9999")  # fmt: skip
    with create_executor() as unique:
        executor = unique.get()
        if x.numel == 0:
            return unique.release(0)
        _tiling_checks(api, dy, x, rstd, gamma)
        inputs = [contiguous(t, executor) for t in (dy, x, rstd, gamma)]
        dx = executor.alloc_tensor(x.view_shape, dxOut.dtype)
        dgamma = executor.alloc_tensor(gamma.view_shape, D.DT_FLOAT)
        status = add_to_launcher_list_aicore(executor, RMS_NORM_GRAD, OP_INPUT(*inputs), OP_OUTPUT(dx, dgamma))
        if status != 0:
            raise AclnnTilingError(f"{api}: the RmsNormGrad kernel could not be prepared.", msg_id="EZ9999")
        view_copy(dx, dxOut, executor)
        view_copy(dgamma, dgammaOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (RMS_NORM_GRAD,)
