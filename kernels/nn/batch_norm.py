"""aclnnBatchNorm: y = (x - mean) / sqrt(var + eps) * weight + bias per channel, training or inference.

L2 as the real op (ops-nn norm/batch_norm_v3) checks, in its order: input and output non-null, and in
training saveMean and saveInvstd too (161001). An empty input fills a non-empty saveMean with 0 and
saveInvstd with NaN and returns. Then (161002): the SoC's dtype list (float32 / float16 on 310P and
Ascend910, bfloat16 too on A2 / A3 and the 950, any other arch "not implemented") for input, out, in
training saveMean / saveInvstd, then each given weight / bias / runningMean / runningVar; input and
out of one storage format, a 5-D input or out NCDHW (the 950 also takes NDHWC), not private; ranks
2..8 and out shaped like input; the given vectors 1-D of C elements; in training saveMean /
saveInvstd of [C]. C is dim 1, or the last dim of an NHWC / NDHWC tensor on the 950.

The chain (an input of more than 5 dims is reshaped to 5; a missing runningMean / bias becomes
zeros, a missing runningVar / weight ones, all C long):
- A2 / A3 training with an NCHW / NCDHW input of C >= 64: BatchNormV3 (weight and bias in input's
  dtype when their promotion is it, else float32; running stats float32); saveInvstd gets rstd.
- otherwise on A2 / A3 / 310P: the vectors cast to float32; inference BNInfer; training
  BNTrainingReduce + BNTrainingUpdate (BN3D... for 5-D), saveMean the batch mean and saveInvstd the
  batch's biased variance (what these parts document).
- the 950 (RegBase): BatchNormV3 in both modes (weight / bias as above, running stats in input's
  dtype when they, weight / bias and input agree, else float32); in training saveMean and rstd.
A given runningMean / runningVar is updated in training (momentum, the unbiased batch variance) and
left alone in inference; results are cast to each output's dtype and view-copied.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.reduce_common import fill_l0
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510
from emulator.kernels.nn.batch_norm_kernels import (
    BATCH_NORM_V3,
    BN3D_TRAINING_REDUCE,
    BN3D_TRAINING_UPDATE,
    BN_INFER,
    BN_TRAINING_REDUCE,
    BN_TRAINING_UPDATE,
)
from emulator.meta.dtypes import DataType, promote_type
from emulator.meta.formats import aclFormat, is_private_format
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Bool,
    Float32,
    OpImpl,
    add_to_launcher_list_aicore,
    contiguous,
    create_executor,
    l2_api,
    reshape_view,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
F = aclFormat
Phase1 = tuple[int, aclOpExecutor | None, int]
API = "aclnnBatchNorm"
DAV_2002, DAV_1001 = 2002, 1001
V3_MIN_CHANNELS = 64


def _arch() -> int:
    return current_l2().op.soc.npu_arch


def bn_dtypes(arch: int) -> tuple[int, ...]:
    """GetSupportDtypeList: by NpuArch; empty for an arch the op does not know."""
    if arch in (DAV_2201, DAV_3510):
        return (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16)
    if arch in (DAV_2002, DAV_1001):
        return (D.DT_FLOAT, D.DT_FLOAT16)
    return ()


def format_name(fmt: int) -> str:
    try:
        return F(fmt).name.removeprefix("ACL_FORMAT_")
    except ValueError:
        return str(fmt)


def channel_dim(x: aclTensor) -> int:
    """GetBatchNormDimC: dim 1, or the last dim of a channel-last tensor on the 950."""
    shape = x.view_shape
    if _arch() == DAV_3510 and x.storage_format in (F.ACL_FORMAT_NDHWC, F.ACL_FORMAT_NHWC):
        return int(shape[-1])
    return int(shape[1])


def _check_dtypes(tensors: dict[str, aclTensor | None], required: tuple[str, ...]) -> None:
    arch = _arch()
    supported = bn_dtypes(arch)
    check_param(bool(supported), API, f"support for npuArch {arch} is not implemented")
    for name, t in tensors.items():
        if t is not None or name in required:
            assert t is not None
            check_dtype(API, name, t, supported)


def _check_format(x: aclTensor, out: aclTensor) -> None:
    fx, fo = x.storage_format, out.storage_format
    message = f"Format of input and output should be equal, input [{format_name(fx)}], output [{format_name(fo)}]."
    check_param(fx == fo, API, message)
    allowed = (F.ACL_FORMAT_NCDHW, F.ACL_FORMAT_NDHWC) if _arch() == DAV_3510 else (F.ACL_FORMAT_NCDHW,)
    names = " or ".join(format_name(f) for f in allowed)
    for label, t in (("input", x), ("output", out)):
        ok = len(t.view_shape) != 5 or t.storage_format in allowed
        check_param(ok, API, f"Format of {label} should be {names}, when input dim is 5.")
    check_param(not is_private_format(fx), API, "Format only support ND、NCL、NCHW、NCDHW.")


def _check_shapes(x: aclTensor, out: aclTensor, vectors: dict[str, aclTensor | None]) -> int:
    for name, t in (("input", x), ("out", out)):
        check_rank(API, name, t)
        check_param(len(t.view_shape) >= 2, API, f"{name} has {len(t.view_shape)} dims, fewer than 2.")
    message = f"out shape {list(out.view_shape)} should be the same as input shape {list(x.view_shape)}."
    check_param(out.view_shape == x.view_shape, API, message)
    c = channel_dim(x)
    for name, vector in vectors.items():
        if vector is not None:
            ok = tuple(vector.view_shape) == (c,)
            check_param(ok, API, f"Dim of {name} should be one and shape is channel num of input.")
    return c


def _check_saved(c: int, saved: dict[str, aclTensor | None]) -> None:
    for name, t in saved.items():
        assert t is not None
        message = f"Expected tensor for {name} to have same size as [{c}], but got {list(t.view_shape)}."
        check_param(tuple(t.view_shape) == (c,), API, message)


def launch(impl: OpImpl, inputs: tuple[aclTensor, ...], outputs: tuple[aclTensor, ...], attrs: tuple[object, ...],
            executor: aclOpExecutor) -> None:  # fmt: skip
    if add_to_launcher_list_aicore(executor, impl, OP_INPUT(*inputs), OP_OUTPUT(*outputs), OP_ATTR(*attrs)) != 0:
        raise L0StepFailed(impl.op_type, "ADD_TO_LAUNCHER_LIST_AICORE failed.")


def vector_or_fill(t: aclTensor | None, c: int, value: float, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """The given vector, or FillScalar(C, value) in ``dtype``."""
    return t if t is not None else fill_l0((c,), value, dtype, executor)


def resize_from_1d(t: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """ResizeFrom1D: Contiguous, then Cast to float32 (the unsqueeze to [1, C, 1, 1] is layout only here)."""
    return cast(contiguous(t, executor), D.DT_FLOAT, executor)


def _write_back(result: aclTensor, target: aclTensor | None, executor: aclOpExecutor) -> None:
    """Cast to the caller's tensor's dtype and ViewCopy into it (nothing for a filled-in vector)."""
    if target is not None and not is_empty(target):
        view_copy(cast(result, target.dtype, executor), target, executor)


def _stats_pair(c: int, executor: aclOpExecutor) -> tuple[aclTensor, aclTensor]:
    return executor.alloc_tensor((c,), D.DT_FLOAT), executor.alloc_tensor((c,), D.DT_FLOAT)


def _v3(x: aclTensor, w: aclTensor, b: aclTensor, rm: aclTensor, rv: aclTensor, attrs: tuple[object, ...],
        executor: aclOpExecutor) -> tuple[aclTensor, aclTensor, aclTensor]:  # fmt: skip
    """l0op::BatchNormV3: y (x's dtype), running mean / var written in place, batch mean and rstd (float32)."""
    y = executor.alloc_tensor(x.view_shape, x.dtype)
    save_mean, save_rstd = _stats_pair(rm.view_shape[0], executor)
    launch(BATCH_NORM_V3, (x, w, b, rm, rv), (y, rm, rv, save_mean, save_rstd), attrs, executor)
    return y, save_mean, save_rstd


def _weights_dtype(w: aclTensor, b: aclTensor, x: aclTensor) -> int:
    return x.dtype if promote_type(w.dtype, b.dtype) == x.dtype else int(D.DT_FLOAT)


@dataclass(frozen=True)
class BnCall:
    """One call's inputs after the checks: x contiguous (5-D at most), the caller's format, vectors and outputs."""

    x: aclTensor
    fmt: int
    vec: dict[str, aclTensor | None]  # weight, bias, runningMean, runningVar (None where not given)
    c: int
    training: bool
    momentum: float
    eps: float
    saved: tuple[aclTensor | None, aclTensor | None]

    def filled(self, dtype: int, executor: aclOpExecutor) -> dict[str, aclTensor]:
        """The vectors, a missing one as FillScalar(C, 1) for weight / runningVar, (C, 0) for bias / runningMean."""
        values = {"weight": 1.0, "bias": 0.0, "runningMean": 0.0, "runningVar": 1.0}
        return {n: vector_or_fill(t, self.c, values[n], dtype, executor) for n, t in self.vec.items()}

    def write_back(
        self, rm: aclTensor, rv: aclTensor, mean: aclTensor, stat: aclTensor, executor: aclOpExecutor
    ) -> None:
        """The updated running statistics into the caller's (when given), the saved pair into saveMean / saveInvstd."""
        _write_back(rm, self.vec["runningMean"], executor)
        _write_back(rv, self.vec["runningVar"], executor)
        _write_back(mean, self.saved[0], executor)
        _write_back(stat, self.saved[1], executor)


def _regbase(call: BnCall, executor: aclOpExecutor) -> aclTensor:
    """BatchNormProcRegbase (the 950): BatchNormV3 in both modes."""
    x = call.x
    filled = call.filled(x.dtype, executor)
    wb = _weights_dtype(filled["weight"], filled["bias"], x)
    w, b = (cast(contiguous(filled[n], executor), wb, executor) for n in ("weight", "bias"))
    running = promote_type(filled["runningMean"].dtype, filled["runningVar"].dtype)
    running = running if running == wb == x.dtype else int(D.DT_FLOAT)
    rm, rv = (cast(contiguous(filled[n], executor), running, executor) for n in ("runningMean", "runningVar"))
    shape = tuple(x.view_shape)
    if call.fmt in (F.ACL_FORMAT_NHWC, F.ACL_FORMAT_NDHWC):  # channel last: the kernel sees [outer, C]
        x = reshape_view(executor, x, (int(np.prod(shape[:-1], dtype=np.int64)), call.c))
    attrs = (Float32(call.eps), Float32(call.momentum), Bool(call.training))
    y, save_mean, save_rstd = _v3(x, w, b, rm, rv, attrs, executor)
    if call.training:
        call.write_back(rm, rv, save_mean, save_rstd, executor)
    return reshape_view(executor, y, shape)


def _classic(call: BnCall, executor: aclOpExecutor) -> aclTensor:
    """The A2 / A3 / 310P chains: BatchNormV3Proc (A2 training, NCHW / NCDHW, C >= 64) or BatchNormProc."""
    x, c = call.x, call.c
    filled = call.filled(D.DT_FLOAT, executor)
    v3 = _arch() == DAV_2201 and call.fmt in (F.ACL_FORMAT_NCHW, F.ACL_FORMAT_NCDHW) and c >= V3_MIN_CHANNELS
    if call.training and v3:
        wb = _weights_dtype(filled["weight"], filled["bias"], x)
        w, b = (cast(contiguous(filled[n], executor), wb, executor) for n in ("weight", "bias"))
        rm, rv = (resize_from_1d(filled[n], executor) for n in ("runningMean", "runningVar"))
        attrs = (Float32(call.eps), Float32(call.momentum), Bool(True))
        y, batch_mean, batch_stat = _v3(x, w, b, rm, rv, attrs, executor)
        call.write_back(rm, rv, batch_mean, batch_stat, executor)
        return y
    w, b, rm, rv = (resize_from_1d(filled[n], executor) for n in ("weight", "bias", "runningMean", "runningVar"))
    y = executor.alloc_tensor(x.view_shape, x.dtype)
    if not call.training:
        launch(BN_INFER, (x, w, b, rm, rv), (y,), (Float32(call.eps),), executor)
        return y
    three_d = len(x.view_shape) == 5
    total, square = _stats_pair(c, executor)
    launch(BN3D_TRAINING_REDUCE if three_d else BN_TRAINING_REDUCE, (x,), (total, square), (), executor)
    batch_mean, batch_var = _stats_pair(c, executor)
    update = BN3D_TRAINING_UPDATE if three_d else BN_TRAINING_UPDATE
    outputs = (y, rm, rv, batch_mean, batch_var)
    launch(update, (x, total, square, w, b, rm, rv), outputs, (Float32(call.momentum), Float32(call.eps)), executor)
    call.write_back(rm, rv, batch_mean, batch_var, executor)
    return y


@l2_api
def aclnnBatchNormGetWorkspaceSize(
    input: aclTensor | None,
    weight: aclTensor | None,
    bias: aclTensor | None,
    runningMean: aclTensor | None,
    runningVar: aclTensor | None,
    training: bool,
    momentum: float,
    eps: float,
    output: aclTensor | None,
    saveMean: aclTensor | None,
    saveInvstd: aclTensor | None,
) -> Phase1:
    """aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
    const aclTensor* bias, aclTensor* runningMean, aclTensor* runningVar, bool training, double momentum,
    double eps, aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize,
    aclOpExecutor** executor)"""
    check_not_null(API, input=input, out=output)
    if training:
        check_not_null(API, saveMean=saveMean, saveInvstd=saveInvstd)
    assert input is not None and output is not None
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(input):
            for target, value in ((saveMean, 0.0), (saveInvstd, float("nan"))):
                if target is not None and not is_empty(target):
                    view_copy(fill_l0(target.view_shape, value, target.dtype, executor), target, executor)
            return unique.release(executor.get_workspace_size())
        vec = {"weight": weight, "bias": bias, "runningMean": runningMean, "runningVar": runningVar}
        saved = {"saveMean": saveMean, "saveInvstd": saveInvstd} if training else {}
        _check_dtypes({"input": input, "out": output, **saved}, ("input", "out", *saved))
        _check_dtypes(vec, ())
        _check_format(input, output)
        c = _check_shapes(input, output, vec)
        _check_saved(c, saved)
        x = contiguous(input, executor)
        shape = tuple(input.view_shape)
        if len(shape) > 5:
            x = reshape_view(executor, x, (*shape[:4], int(np.prod(shape[4:], dtype=np.int64))))
        call = BnCall(x, input.storage_format, vec, c, bool(training), float(momentum), float(eps),
                      (saveMean, saveInvstd))  # fmt: skip
        y = (_regbase if _arch() == DAV_3510 else _classic)(call, executor)
        view_copy(reshape_view(executor, y, shape) if len(shape) > 5 else y, output, executor)
        return unique.release(executor.get_workspace_size())


OPS = ()
