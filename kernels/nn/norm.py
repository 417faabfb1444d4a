"""aclnnNorm: the p-norm of self over ``dim`` (every axis when ``dim`` is empty).

L2 as the real op is written for A2 (ops-nn norm/lp_norm_v2, aclnn_norm): null self / pScalar / dim
/ out (161001); self and out must promote (161002; on the Ascend 950 self and out must also be float32 /
float16 / bfloat16 and the promoted dtype castable to out, checked first and last);
every dim in [-r, r-1] and none repeated; ranks <= 8; out of the reduced shape (161002). An empty
self fills out with 0. Otherwise p is read as a float with +-inf (or a value within 1e-6 of
INT_MAX / INT_MIN) becoming INT_MAX / INT_MIN, then Contiguous and one LpNormV2 (AI Core; attrs
p, axes, keepdim, epsilon 0). LpNormV2 takes self as it is when (self, out) is float32 -> float32,
float16 -> float16 / float32 or bfloat16 -> bfloat16 / float32 and writes out's dtype; any other
pair Casts self to float32 first and the result to out's dtype after.

p selects the norm: 0 counts the non-zero elements, 1 sums |x|, 2 is sqrt(sum x^2), INT_MAX is
max |x| and INT_MIN min |x|, any other p (sum |x|^p)^(1/p). The kernel computes in float32
(float64 stays float64) and rounds once to out's dtype.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.binary_common import to_float
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import (
    ReduceOpTilingData,
    all_axes_if_empty,
    ar_view,
    fill_l0,
    int_array_values,
    pieces,
    reduce_tiling,
    reduced_shape,
)
from emulator.kernels.math.soc_lists import is_regbase
from emulator.kernels.math.unary import check_cast
from emulator.meta.dtypes import DataType, promote_type
from emulator.meta.objects import aclIntArray, aclScalar, aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Float32,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
REGBASE_DTYPES = (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
INT_MAX_F = float(np.float32(2**31 - 1))
INT_MIN_F = float(np.float32(-(2**31)))
DIRECT: dict[int, tuple[int, ...]] = {
    D.DT_FLOAT: (D.DT_FLOAT,),
    D.DT_FLOAT16: (D.DT_FLOAT, D.DT_FLOAT16),
    D.DT_BF16: (D.DT_FLOAT, D.DT_BF16),
}


def p_value(p: aclScalar) -> float:
    """CalculateValP: the scalar as a float, +-inf and values near INT_MAX / INT_MIN pinned to them."""
    value = p.value()
    pv = float(np.float32(value.real if np.iscomplexobj(value) else value)) if value is not None else 0.0
    if (np.isinf(pv) and pv > 0) or abs(pv - INT_MAX_F) < 1e-6:
        return INT_MAX_F
    if (np.isinf(pv) and pv < 0) or abs(pv - INT_MIN_F) < 1e-6:
        return INT_MIN_F
    return pv


def lp_norm(x: np.ndarray, axes: tuple[int, ...], p: float) -> np.ndarray:
    """The p-norm over ``axes`` in the kernel's working precision."""
    work = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    a = np.abs(work)
    if p == 0:
        return np.sum(work != 0, axis=axes).astype(work.dtype)
    if p == INT_MAX_F:
        return np.max(a, axis=axes)
    if p == INT_MIN_F:
        return np.min(a, axis=axes)
    if p == 1:
        return np.sum(a, axis=axes)
    if p == 2:
        return np.sqrt(np.sum(a * a, axis=axes))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.power(np.sum(np.power(a, work.dtype.type(p)), axis=axes), work.dtype.type(1 / p))


@dataclass(frozen=True, slots=True)
class LpNormAttrs(KernelAttrs):
    """What an LpNormV2 binary has baked in: the dtypes of x and y, x's shape and the attributes."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    p: float
    axes: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> LpNormAttrs:
        dx, dy = signature.dtypes
        p, axes, _keepdim, _epsilon = signature.attrs
        return cls(dx, dy, signature.shapes[0], float(p), tuple(int(a) for a in axes))


def lp_norm_kernel(ctx: BlockContext[LpNormAttrs], x: np.ndarray, y: np.ndarray) -> None:
    """This block's kept elements (the reduce tiling's A split), each the norm of its reduced elements."""
    data = ReduceOpTilingData.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.factorACntPerCore
    hi = min(lo + data.factorACntPerCore, data.factorATotalCnt)
    attrs = ctx.attrs
    shape = attrs.x_shape or (1,)
    rank = len(attrs.x_shape)
    axes = {a % max(rank, 1) for a in attrs.axes} or set(range(rank))  # no axes: every axis
    count = int(np.prod(shape, dtype=np.int64))
    view, n_a = ar_view(x.view(attrs.x_dtype)[:count], shape, axes)
    out = y.view(attrs.y_dtype)
    position = lo
    for index in pieces(lo, hi, view.shape[:n_a]):
        sub = view[index]
        lead = sub.ndim - (view.ndim - n_a)
        flat = lp_norm(sub, tuple(range(lead, sub.ndim)), attrs.p).reshape(-1)
        out[position : position + flat.size] = flat.astype(attrs.y_dtype)
        position += flat.size


LP_NORM_V2 = OpImpl(
    "LpNormV2", lp_norm_kernel, reduce_tiling, kernel_attrs=LpNormAttrs.of,
    attrs=(("p", "float"), ("axes", "list_int"), ("keepdim", "bool"), ("epsilon", "float")),
    attr_names=("p", "axes", "keepdim", "epsilon"), kernel_json={"opParaSize": ctypes.sizeof(ReduceOpTilingData)},
    bins=(BinSpec(("float",), ("float",)), BinSpec(("float16",), ("float16",)), BinSpec(("float16",), ("float",)),
          BinSpec(("bfloat16",), ("bfloat16",)), BinSpec(("bfloat16",), ("float",))),
)  # fmt: skip


def lp_norm_v2_l0(x: aclTensor, out_dtype: int, p: float, axes: list[int], keepdim: bool,
                  executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::LpNormV2 (AI Core only): the result in ``out_dtype``, shape inferred from the axes."""
    rank = len(x.view_shape)
    reduced = all_axes_if_empty(axes, rank)
    out = executor.alloc_tensor(reduced_shape(x.view_shape, reduced, keepdim) if rank else (), out_dtype)
    attrs = OP_ATTR(Float32(p), list(axes), Bool(keepdim), Float32(0.0))
    status = add_to_launcher_list_aicore(executor, LP_NORM_V2, OP_INPUT(x), OP_OUTPUT(out), attrs)
    if status != 0:
        raise L0StepFailed("LpNormV2", f"status {status}")
    return out


def _check(api: str, self: aclTensor, dims: list[int], keepdim: bool, out: aclTensor) -> list[int]:
    regbase = is_regbase()
    if regbase:  # CheckDtypeValid runs on the RegBase parts only
        check_dtype(api, "self", self, REGBASE_DTYPES)
        check_dtype(api, "out", out, REGBASE_DTYPES)
    promoted = promote_type(self.dtype, out.dtype)
    check_param(promoted != D.DT_UNDEFINED, api,
                f"Input dtype {self.dtype} and output dtype {out.dtype} can not promote dtype.")  # fmt: skip
    if regbase:
        check_cast(api, promoted, out.dtype)
    r = max(len(self.view_shape), 1)
    wrapped = []
    for d in dims:
        check_param(-r <= d < r, api, f"provided dim {d} not in the range of input tensor size {r}.")
        check_param(d % r not in wrapped, api, f"Dim {d} appears multiple times in the list of dims")
        wrapped.append(d % r)
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    rank = len(self.view_shape)
    expected = reduced_shape(self.view_shape, all_axes_if_empty(wrapped, rank), keepdim)
    check_param(tuple(out.view_shape) == expected, api,
                f"out shape {list(out.view_shape)} must be {list(expected)}.")  # fmt: skip
    return wrapped


@l2_api
def aclnnNormGetWorkspaceSize(
    self: aclTensor | None, pScalar: aclScalar | None, dim: aclIntArray | None, keepdim: bool, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar, const aclIntArray* dim,
    bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnNorm"
    check_not_null(api, self=self, pScalar=pScalar, dim=dim, out=out)
    assert self is not None and pScalar is not None and dim is not None and out is not None
    dims = _check(api, self, int_array_values(dim), bool(keepdim), out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            if not is_empty(out):  # an empty out has nothing to fill
                view_copy(fill_l0(out.view_shape, 0, out.dtype, executor), out, executor)
            return unique.release(executor.get_workspace_size())
        x = contiguous(self, executor)
        p = to_float(pScalar) if is_regbase() else p_value(pScalar)  # the 950 reads p as it is
        if out.dtype in DIRECT.get(self.dtype, ()):
            result = lp_norm_v2_l0(x, out.dtype, p, dims, bool(keepdim), executor)
        else:
            x = cast(x, D.DT_FLOAT, executor)
            result = cast(lp_norm_v2_l0(x, D.DT_FLOAT, p, dims, bool(keepdim), executor), out.dtype, executor)
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (LP_NORM_V2,)
