"""aclnnGeGlu / aclnnGeGluV3: out = A * gelu(B) (or gelu(A) * B with activateLeft), and gelu's part.

L2 as the real op is written (ops-nn activation/ge_glu_v2, aclnn_geglu): null self / out / outGelu
(161001); the three dtypes in float16 / float32 / bfloat16 (A2) and, for a non-empty self of rank
>= 1, out and outGelu of self's dtype; ranks <= 8; dim in [-r, r-1] (a 0-d self counts as rank 1);
self's size along dim even and out's and outGelu's equal to half of it; out and outGelu of self's
rank with the other dims equal; approximate 0 (erf) or 1 (tanh) (161002). An empty or 0-d self
launches nothing. Otherwise Contiguous, GeGluV2 (AI Core; attrs dim, approximate, activate_left;
outputs y and gelu) and ViewCopy of both. aclnnGeGlu is aclnnGeGluV3 with activateLeft false.

Numerics: float32, rounded once. The erf form uses a rational approximation of erf good to 1.5e-7
(the card's vector unit evaluates its own polynomial; both are well inside the precision standard).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.soc_lists import list_by_arch
from emulator.kernels.nn.glu_common import block_rows, glu_tiling, half_view, split_view
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l0_label,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
GEGLU_DTYPES = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)
F32 = np.dtype(np.float32)
# Abramowitz & Stegun 7.1.26
ERF_P = 0.3275911
ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: np.ndarray) -> np.ndarray:
    """erf to within 1.5e-7, computed in float64."""
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + ERF_P * z)
    poly = t * (ERF_A[0] + t * (ERF_A[1] + t * (ERF_A[2] + t * (ERF_A[3] + t * ERF_A[4]))))
    return np.sign(x) * (1.0 - poly * np.exp(-z * z))


def gelu(x: np.ndarray, approximate: int) -> np.ndarray:
    """gelu in float32: 0 the erf form, 1 the tanh form."""
    v = x.astype(F32)
    if approximate == 1:
        inner = F32.type(np.sqrt(2.0 / np.pi)) * (v + F32.type(0.044715) * v * v * v)
        return F32.type(0.5) * v * (F32.type(1) + np.tanh(inner))
    return (0.5 * v * (1.0 + erf(v / np.sqrt(2.0)))).astype(F32)


@dataclass(frozen=True, slots=True)
class GeGluAttrs(KernelAttrs):
    """What a GeGluV2 binary is given: the dtype, approximate and activate_left."""

    dtype: np.dtype
    approximate: int
    activate_left: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> GeGluAttrs:
        _dim, approximate, left = signature.attrs
        return cls(signature.dtypes[0], int(approximate), bool(left))


def geglu_kernel(ctx: BlockContext[GeGluAttrs], x: np.ndarray, y: np.ndarray, y_gelu: np.ndarray) -> None:
    lo, hi, cols = block_rows(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dtype = ctx.attrs.dtype
    xv = split_view(x, dtype, hi, cols)
    gate, other = (0, 1) if ctx.attrs.activate_left else (1, 0)
    activated = gelu(xv[lo:hi, gate], ctx.attrs.approximate)
    half_view(y_gelu, dtype, hi, cols)[lo:hi] = activated.astype(dtype)
    half_view(y, dtype, hi, cols)[lo:hi] = (activated * xv[lo:hi, other].astype(F32)).astype(dtype)


GEGLU_V2 = OpImpl(
    "GeGluV2", geglu_kernel, glu_tiling, attrs=(("dim", "int"), ("approximate", "int"), ("activate_left", "bool")),
    attr_names=("dim", "approximate", "activate_left"), output_names=("y", "gelu"), kernel_attrs=GeGluAttrs.of,
    bins=tuple(BinSpec((d,), (d, d)) for d in ("float16", "float", "bfloat16")),
)  # fmt: skip


def geglu_v2_l0(x: aclTensor, dim: int, approximate: int, left: bool, executor: aclOpExecutor,
                ) -> tuple[aclTensor, aclTensor]:  # fmt: skip
    """l0op::GeGluV2: both outputs of x's shape with dim halved, in x's dtype."""
    shape = list(x.view_shape)
    axis = dim % len(shape)
    shape[axis] //= 2
    out, out_gelu = executor.alloc_tensor(shape, x.dtype), executor.alloc_tensor(shape, x.dtype)
    attrs = OP_ATTR(Int64(dim), Int64(approximate), Bool(left))
    status = add_to_launcher_list_aicore(executor, GEGLU_V2, OP_INPUT(x), OP_OUTPUT(out, out_gelu), attrs)
    if status != 0:
        raise L0StepFailed("GeGluV2", f"status {status}")
    return out, out_gelu


def _dim_size(t: aclTensor, axis: int) -> int:
    """GetDim of a 0-d shape reads no dimension: taken as 0."""
    return t.view_shape[axis] if axis < len(t.view_shape) else 0


def _check(api: str, self: aclTensor, dim: int, approximate: int, out: aclTensor, out_gelu: aclTensor) -> None:
    for name, t in (("self", self), ("out", out), ("outGelu", out_gelu)):
        check_dtype(api, name, t, list_by_arch(GEGLU_DTYPES, (D.DT_FLOAT16, D.DT_FLOAT)))
    if not is_empty(self) and self.view_shape:
        check_dtype(api, "out", out, (self.dtype,))
        check_dtype(api, "outGelu", out_gelu, (self.dtype,))
    for name, t in (("self", self), ("out", out), ("outGelu", out_gelu)):
        check_rank(api, name, t)
    rank = max(len(self.view_shape), 1)
    message = f"Expected aclnnGeGlu dim value {dim} to be in range [{-rank}, {rank - 1}] but check failed."
    check_param(-rank <= dim <= rank - 1, api, message)
    axis = dim % rank
    size = _dim_size(self, axis)
    check_param(size % 2 == 0, api, f"selfSliceDimSize[{size}] must be even number.")
    for name, t in (("out", out), ("outGelu", out_gelu)):
        got = _dim_size(t, axis)
        message = f"Expected aclnnGeGlu {name} slice dim size {got} to be equal to {size // 2} but check failed."
        check_param(got == size // 2, api, message)
    check_param(len(out.view_shape) == len(out_gelu.view_shape) == rank, api,
                f"outDimNum[{len(out.view_shape)}] and outGeluDimNum[{len(out_gelu.view_shape)}] must be the same "
                f"with inputDimNum[{rank}].")  # fmt: skip
    for i in range(rank):
        if i != axis:
            same = self.view_shape[i] == out.view_shape[i] == out_gelu.view_shape[i]
            check_param(same, api, f"Except the slice dim[{dim}], all other shape dim must be the same.")
    check_param(approximate in (0, 1), api, f"Approximate should be 0 or 1, but current is {approximate}")


def _geglu(api: str, self: aclTensor | None, dim: int, approximate: int, left: bool, out: aclTensor | None,
           out_gelu: aclTensor | None) -> tuple[int, aclOpExecutor, int]:  # fmt: skip
    check_not_null(api, self=self, out=out, outGelu=out_gelu)
    assert self is not None and out is not None and out_gelu is not None
    _check(api, self, int(dim), int(approximate), out, out_gelu)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self) or not self.view_shape:
            return unique.release(0)
        x = contiguous(self, executor)
        y, y_gelu = geglu_v2_l0(x, int(dim), int(approximate), left, executor)
        view_copy(y, out, executor)
        with l0_label("ViewCopy of outGelu"):
            view_copy(y_gelu, out_gelu, executor)
        return unique.release(executor.get_workspace_size())


@l2_api
def aclnnGeGluGetWorkspaceSize(
    self: aclTensor | None, dim: int, approximate: int, out: aclTensor | None, outGelu: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
    aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _geglu("aclnnGeGlu", self, dim, approximate, False, out, outGelu)


@l2_api
def aclnnGeGluV3GetWorkspaceSize(
    self: aclTensor | None,
    dim: int,
    approximate: int,
    activateLeft: bool,
    out: aclTensor | None,
    outGelu: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
    bool activateLeft, aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    return _geglu("aclnnGeGluV3", self, dim, approximate, bool(activateLeft), out, outGelu)


OPS = (GEGLU_V2,)
