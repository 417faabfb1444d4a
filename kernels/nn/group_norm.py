"""aclnnGroupNorm: y = (x - mean) * rstd * gamma + beta over groups of channels, with mean and rstd out.

L2 as the real op is written for A2 (ops-nn norm/group_norm): null self / out / meanOut / rstdOut
(161001; gamma and beta are optional); self float16 / float32 / bfloat16 and gamma, beta, out,
meanOut, rstdOut of its dtype; group > 0, C divisible by group, eps > 0; self of rank 2..8, out
shaped like self, meanOut and rstdOut [N, group], self.shape[0] == N, self.shape[1] == C, the rest
HxW elements, gamma / beta vectors of C; self and out of one storage format, not private nor
NHWC / HWCN / NDHWC (161002). An empty self fills meanOut with 0 and rstdOut with NaN. Otherwise
Contiguous; a missing gamma / beta becomes ones / zeros of C elements; on A2 one GroupNormSilu
kernel (AI Core; attrs num_groups, eps, activate_silu false; outputs y, mean, rstd of [N, group] in
self's dtype) and ViewCopy of the three.

Numerics: mean and the biased variance of each (n, group) in float32, rstd = 1 / sqrt(var + eps),
rounded once to the output dtype. A missing gamma is made with Fill(1) (the real code's OnesLike
gives the same tensor).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.reduce_common import fill_l0
from emulator.kernels.math.row_common import block_lines, lines_view, row_tiling
from emulator.kernels.math.soc_lists import list_by_arch
from emulator.kernels.math.zero import zeros_like_l0
from emulator.meta.dtypes import DataType
from emulator.meta.formats import is_private_format
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    Float32,
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
F32 = np.dtype(np.float32)
GROUP_NORM_DTYPES = (D.DT_FLOAT16, D.DT_BF16, D.DT_FLOAT)
FORMAT_NHWC, FORMAT_HWCN, FORMAT_NDHWC = 1, 16, 27


@dataclass(frozen=True, slots=True)
class GroupNormAttrs(KernelAttrs):
    """What a GroupNormSilu binary is given: the dtype, x's shape, the group count, eps and the silu switch."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    groups: int
    eps: float
    silu: bool

    @classmethod
    def of(cls, signature: KernelSignature) -> GroupNormAttrs:
        groups, eps, silu = signature.attrs
        return cls(signature.dtypes[0], signature.shapes[0], int(groups), float(eps), bool(silu))


def group_norm_kernel(ctx: BlockContext[GroupNormAttrs], x: np.ndarray, gamma: np.ndarray, beta: np.ndarray,
                      y: np.ndarray, mean: np.ndarray, rstd: np.ndarray) -> None:  # fmt: skip
    """This block's (n, group) lines: their mean and rstd, then the normalised, scaled elements."""
    attrs = ctx.attrs
    n, c = attrs.x_shape[0], attrs.x_shape[1]
    hw = int(np.prod(attrs.x_shape[2:], dtype=np.int64))
    g = attrs.groups
    line = (c // g) * hw
    dt = attrs.dtype
    xv = lines_view(x.view(dt), (n * g, line), 1)
    yv = lines_view(y.view(dt), (n * g, line), 1)
    mv = mean.view(dt)[: n * g]
    rv = rstd.view(dt)[: n * g]
    scale = np.repeat(gamma.view(dt)[:c].astype(F32).reshape(g, c // g), hw, axis=1)  # [group, line]
    shift = np.repeat(beta.view(dt)[:c].astype(F32).reshape(g, c // g), hw, axis=1)
    for index in block_lines(ctx, xv):
        rows = np.arange(n * g)[index[0]] if len(index) == 1 else np.array([index[0]])
        v = xv[index].astype(F32).reshape(rows.size, line)
        mu = np.asarray(np.mean(v, axis=1, dtype=F32))
        var = np.asarray(np.mean(np.square(v - mu[:, None]), axis=1, dtype=F32))
        r = F32.type(1) / np.sqrt(var + F32.type(attrs.eps))
        out = (v - mu[:, None]) * r[:, None] * scale[rows % g] + shift[rows % g]
        if attrs.silu:
            out = out / (F32.type(1) + np.exp(-out))
        yv[index] = out.astype(dt).reshape(yv[index].shape)
        mv[rows], rv[rows] = mu.astype(dt), r.astype(dt)


GROUP_NORM_SILU = OpImpl(
    "GroupNormSilu", group_norm_kernel, row_tiling, input_names=("x", "gamma", "beta"),
    output_names=("y", "mean", "rstd"), attrs=(("num_groups", "int"), ("eps", "float"), ("activate_silu", "bool")),
    attr_names=("num_groups", "eps", "activate_silu"), kernel_attrs=GroupNormAttrs.of,
    bins=tuple(BinSpec((d, d, d), (d, d, d)) for d in ("float16", "float", "bfloat16")),
)  # fmt: skip


def group_norm_silu_l0(x: aclTensor, gamma: aclTensor, beta: aclTensor, groups: int, eps: float, silu: bool,
                       executor: aclOpExecutor) -> tuple[aclTensor, aclTensor, aclTensor]:  # fmt: skip
    """l0op::GroupNormSilu: y of x's shape, mean and rstd [N, group], all in x's dtype (A2)."""
    y = executor.alloc_tensor(x.view_shape, x.dtype)
    mean = executor.alloc_tensor((x.view_shape[0], groups), x.dtype)
    rstd = executor.alloc_tensor((x.view_shape[0], groups), x.dtype)
    status = add_to_launcher_list_aicore(executor, GROUP_NORM_SILU, OP_INPUT(x, gamma, beta), OP_OUTPUT(y, mean, rstd),
                                         OP_ATTR(Int64(groups), Float32(eps), Bool(silu)))  # fmt: skip
    if status != 0:
        raise L0StepFailed("GroupNormSilu", f"status {status}")
    return y, mean, rstd


def _check(api: str, self: aclTensor, gamma: aclTensor | None, beta: aclTensor | None, n: int, c: int, hw: int,
           group: int, eps: float, out: aclTensor, mean: aclTensor, rstd: aclTensor) -> None:  # fmt: skip
    check_dtype(api, "self", self, list_by_arch(GROUP_NORM_DTYPES, (D.DT_FLOAT16, D.DT_FLOAT)))
    for name, t in (("gamma", gamma), ("beta", beta), ("out", out), ("meanOut", mean), ("rstdOut", rstd)):
        if t is not None:
            check_dtype(api, name, t, (self.dtype,))
    check_param(group > 0, api, f"Expected group to be greater than 0, got {group}.")
    check_param(c % group == 0, api, "Expected number of channels in input to be divisible by group, but got input "
                f"of shape {list(self.view_shape)} and group={group}.")  # fmt: skip
    check_param(eps > 0.0, api, f"Expected eps to be greater than 0, got {eps:f}.")
    shape = tuple(self.view_shape)
    check_param(len(shape) >= 2, api, f"self has {len(shape)} dims, fewer than 2.")
    check_rank(api, "self", self)
    check_param(out.view_shape == self.view_shape, api, "out must have the shape of self.")
    for name, t in (("meanOut", mean), ("rstdOut", rstd)):
        check_param(tuple(t.view_shape) == (n, group), api, f"{name} shape {list(t.view_shape)} must be {[n, group]}.")
    check_param(shape[0] == n, api, "Expected self.shape[0] == N to be true, but got false.")
    check_param(shape[1] == c, api, "Expected self.shape[1] == C to be true, but got false.")
    rest = int(np.prod(shape[2:], dtype=np.int64))
    check_param(rest == hw, api, "Expected the size of self outside the N and C dimensions == HxW to be true, but "
                "got false.")  # fmt: skip
    check_param(self.numel == n * c * hw, api, "Expected self.numel() == N * C * HxW to be true, but got false.")
    for name, t in (("gamma", gamma), ("beta", beta)):
        if t is not None:
            check_param(tuple(t.view_shape) == (c,), api, f"Expected {name} to be a vector of size equal to the "
                        f"number of channels in input, but got {name} of shape {list(t.view_shape)}.")  # fmt: skip
    check_param(self.storage_format == out.storage_format, api, "Format of self and out should be equal.")
    bad = is_private_format(self.storage_format) or self.storage_format in (FORMAT_NHWC, FORMAT_HWCN, FORMAT_NDHWC)
    check_param(not bad, api, "Format only support ND, NCL, NCHW, NCDHW.")


@l2_api
def aclnnGroupNormGetWorkspaceSize(
    self: aclTensor | None,
    gamma: aclTensor | None,
    beta: aclTensor | None,
    N: int,
    C: int,
    HxW: int,
    group: int,
    eps: float,
    out: aclTensor | None,
    meanOut: aclTensor | None,
    rstdOut: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
    int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor* out, aclTensor* meanOut,
    aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnGroupNorm"
    check_not_null(api, self=self, out=out, meanOut=meanOut, rstdOut=rstdOut)
    assert self is not None and out is not None and meanOut is not None and rstdOut is not None
    n, c, hw, g = int(N), int(C), int(HxW), int(group)
    _check(api, self, gamma, beta, n, c, hw, g, float(eps), out, meanOut, rstdOut)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            if not is_empty(meanOut):  # N == 0 leaves nothing to fill
                view_copy(fill_l0(meanOut.view_shape, 0.0, meanOut.dtype, executor), meanOut, executor)
                view_copy(fill_l0(rstdOut.view_shape, float("nan"), rstdOut.dtype, executor), rstdOut, executor)
            return unique.release(0)
        x = contiguous(self, executor)
        with l0_label("gamma"):
            gm = contiguous(gamma, executor) if gamma is not None else fill_l0((c,), 1.0, self.dtype, executor)
        with l0_label("beta"):
            bt = contiguous(beta, executor) if beta is not None else zeros_like_l0(
                executor.alloc_tensor((c,), self.dtype), executor)  # fmt: skip
        y, mean, rstd = group_norm_silu_l0(x, gm, bt, g, float(eps), False, executor)
        view_copy(y, out, executor)
        with l0_label("ViewCopy of mean / rstd"):
            view_copy(mean, meanOut, executor)
            view_copy(rstd, rstdOut, executor)
        return unique.release(executor.get_workspace_size())


OPS = (GROUP_NORM_SILU,)
