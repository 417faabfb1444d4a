"""aclnnBatchNormBackward: gradInput, gradWeight and gradBias of aclnnBatchNorm, each only when outputMask asks.

L2 as the real op (ops-nn norm/batch_norm_grad_v3) checks, in its order: gradOut and input non-null
(161001); an empty gradOut or input returns at once with nothing written; outputMask non-null with at
least one entry (exactly three on the 950), and the tensor of each true entry non-null (all 161001).
Then (161002): gradOut, input, the masked outputs and every given vector in the SoC's dtype list
(float32 / float16, bfloat16 too on A2 / A3 and the 950), input of gradOut's dtype; on the 950 the
vectors of gradOut's dtype or float32, runningMean / runningVar and saveMean / saveInvstd pairwise
alike, gradInput of gradOut's dtype, gradWeight / gradBias of weight's dtype or float32 and alike;
gradOut, input and gradInput of one storage format (5-D NCDHW / NDHWC on the 950), not private; ranks
2..8, one shape for all three; the given weight / running vectors 1-D of C; on the 950 also the saved
pair (C, or 0 in inference) and gradWeight / gradBias (C). C is dim 1, or the last dim of an NHWC /
NDHWC tensor on the 950.

The chain (more than 5 dims reshaped to 5; a missing runningMean / saveMean becomes zeros, a missing
runningVar / saveInvstd / weight ones):
- A2 / A3 / 310P / Ascend910: the vectors cast to float32; training BNTrainingUpdateGrad +
  BNTrainingReduceGrad (BN3D... for 5-D) on saveMean and saveInvstd read as the batch variance (what
  the classic aclnnBatchNorm chain saves), inference BNTrainingUpdateGrad + BNInferGrad on the running
  statistics.
- the 950 (RegBase): BatchNormGradV3 in both modes, saveInvstd read as rstd (what BatchNormV3 saves);
  weight float32 for float32 gradOut, the running pair float32 when gradOut or weight is; an all-false
  mask returns after the checks.
Each result is cast to its output's dtype and view-copied, for the true mask entries only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.engine.executor import aclOpExecutor
from emulator.errors import AclnnParamNullptr, L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.soc_lists import DAV_2201, DAV_3510
from emulator.kernels.nn.backward_common import check_same_dtype, check_shape_equal
from emulator.kernels.nn.batch_norm import channel_dim, format_name, launch, resize_from_1d, vector_or_fill
from emulator.kernels.nn.batch_norm_grad_kernels import (
    BATCH_NORM_GRAD_V3,
    BN3D_TRAINING_REDUCE_GRAD,
    BN3D_TRAINING_UPDATE_GRAD,
    BN_INFER_GRAD,
    BN_TRAINING_REDUCE_GRAD,
    BN_TRAINING_UPDATE_GRAD,
)
from emulator.meta.dtypes import DataType
from emulator.meta.formats import aclFormat, is_private_format
from emulator.meta.objects import aclBoolArray, aclTensor
from emulator.opdev import Bool, Float32, contiguous, create_executor, l2_api, reshape_view, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
F = aclFormat
API = "aclnnBatchNormBackward"
Mask = tuple[bool, bool, bool]
GRADS = ("gradInput", "gradWeight", "gradBias")
DEFAULTS = {"weight": 1.0, "runningMean": 0.0, "runningVar": 1.0, "saveMean": 0.0, "saveInvstd": 1.0}


def _regbase() -> bool:
    return current_l2().op.soc.npu_arch == DAV_3510


def _dtypes() -> tuple[int, ...]:
    """GetDtypeSupportList: bfloat16 on DAV_2201 and the RegBase parts, float32 / float16 elsewhere."""
    with_bf16 = current_l2().op.soc.npu_arch in (DAV_2201, DAV_3510)
    return (D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16) if with_bf16 else (D.DT_FLOAT, D.DT_FLOAT16)


def _check_mask(mask_array: aclBoolArray | None, grads: tuple[aclTensor | None, ...]) -> Mask:
    """CheckMaskNotNull (every failure 161001). The real code indexes entries 1 and 2 whatever the size
    off the 950; a shorter mask reads as false there (docs/ops_notes.md)."""
    check_not_null(API, outputMask=mask_array)
    assert mask_array is not None
    values = tuple(bool(v) for v in mask_array.values)
    if not values:
        raise AclnnParamNullptr(f"{API}: outputMask size should not less than 1.", param="outputMask")
    if _regbase() and len(values) != 3:
        raise AclnnParamNullptr(f"{API}: outputMask size should be 3, but got {len(values)}.", param="outputMask")
    mask = (*values, False, False)[:3]
    for on, name, grad in zip(mask, GRADS, grads, strict=True):
        if on:
            check_not_null(API, **{name: grad})
    return mask[0], mask[1], mask[2]


def _float_or(api_name: str, t: aclTensor | None, ref: aclTensor | None, ref_name: str) -> None:
    """CheckDtypeMatchReferenceOrFloat."""
    if t is None or ref is None:
        return
    ok = t.dtype in (ref.dtype, D.DT_FLOAT)
    check_param(ok, API, f"Dtype of {api_name}:[{D(t.dtype).name}] should be float or same as {ref_name}, "
                f"{ref_name} dtype: [{D(ref.dtype).name}].")  # fmt: skip


def _check_regbase_dtypes(grad_out: aclTensor, grads: dict[str, aclTensor | None], mask: Mask,
                          vec: dict[str, aclTensor | None]) -> None:  # fmt: skip
    """RegbaseCheckDtypeSame."""
    for name in ("weight", "runningMean", "runningVar"):
        _float_or(name, vec[name], grad_out, "gradOut")
    for a, b in (("runningMean", "runningVar"),):
        ta, tb = vec[a], vec[b]
        if ta is not None and tb is not None:
            check_same_dtype(API, (a, ta), (b, tb))
    for name in ("saveMean", "saveInvstd"):
        _float_or(name, vec[name], grad_out, "gradOut")
    sm, si = vec["saveMean"], vec["saveInvstd"]
    if sm is not None and si is not None:
        check_same_dtype(API, ("saveInvstd", si), ("saveMean", sm))
    gi, gw, gb = (grads[n] for n in GRADS)
    if mask[0]:
        assert gi is not None
        check_same_dtype(API, ("gradInput", gi), ("gradOut", grad_out))
    if mask[1]:
        _float_or("gradWeight", gw, vec["weight"], "weight")
    if mask[2]:
        _float_or("gradBias", gb, vec["weight"], "weight")
    if gw is not None and gb is not None:
        check_same_dtype(API, ("gradWeight", gw), ("gradBias", gb))


def _check_dtypes(grad_out: aclTensor, x: aclTensor, grads: dict[str, aclTensor | None], mask: Mask,
                  vec: dict[str, aclTensor | None]) -> None:  # fmt: skip
    supported = _dtypes()
    check_dtype(API, "gradOut", grad_out, supported)
    check_dtype(API, "input", x, supported)
    check_same_dtype(API, ("input", x), ("gradOut", grad_out))
    for on, name in zip(mask, GRADS, strict=True):
        t = grads[name]
        if on and t is not None:
            check_dtype(API, name, t, supported)
    for name, t in vec.items():
        if t is not None:
            check_dtype(API, name, t, supported)
    if _regbase():
        _check_regbase_dtypes(grad_out, grads, mask, vec)


def _check_format(grad_out: aclTensor, x: aclTensor, grad_in: aclTensor | None, mask: Mask) -> None:
    fo, fx = grad_out.storage_format, x.storage_format
    check_param(fo == fx, API, f"Format of gradOut and input should be equal, gradOut [{format_name(fo)}], "
                f"input [{format_name(fx)}].")  # fmt: skip
    if mask[0]:
        assert grad_in is not None
        fi = grad_in.storage_format
        check_param(fo == fi, API, f"Format of gradOut and gradInput should be equal, gradOut [{format_name(fo)}], "
                    f"gradInput [{format_name(fi)}].")  # fmt: skip
    if _regbase():
        five = (F.ACL_FORMAT_NCDHW, F.ACL_FORMAT_NDHWC)
        for label, t in (("input", x), ("output", grad_in if mask[0] else None)):
            ok = t is None or len(t.view_shape) != 5 or t.storage_format in five
            check_param(ok, API, f"Format of {label} should be NCDHW or NDHWC, when input dim is 5.")
    check_param(not (is_private_format(fo) or is_private_format(fx)), API, "Format only support NC, NCL, NCHW, NCDHW.")


def _check_rank(name: str, t: aclTensor) -> None:
    check_rank(API, name, t)
    check_param(len(t.view_shape) >= 2, API, f"{name} has {len(t.view_shape)} dims, fewer than 2.")


def _check_vector(name: str, t: aclTensor | None, c: int, allow_empty: bool = False) -> None:
    shape = tuple(t.view_shape) if t is not None else (c,)
    ok = len(shape) == 1 and (shape[0] == c or (allow_empty and shape[0] == 0))
    check_param(ok, API, f"Dim of {name} should be one and shape is channel num of input[{c}], but got {list(shape)}.")


def _check_shapes(grad_out: aclTensor, x: aclTensor, grads: dict[str, aclTensor | None], mask: Mask,
                  vec: dict[str, aclTensor | None], training: bool) -> int:  # fmt: skip
    _check_rank("input", x)
    _check_rank("gradOut", grad_out)
    check_shape_equal(API, ("gradOut", grad_out), ("input", x))
    grad_in = grads["gradInput"]
    if mask[0]:
        assert grad_in is not None
        _check_rank("gradInput", grad_in)
        check_shape_equal(API, ("gradInput", grad_in), ("gradOut", grad_out))
    c = channel_dim(x)
    for name in ("weight", "runningMean", "runningVar"):
        _check_vector(name, vec[name], c)
    if _regbase():
        for name in ("saveMean", "saveInvstd"):
            _check_vector(name, vec[name], c, allow_empty=not training)
        for on, name in zip(mask[1:], GRADS[1:], strict=True):
            if on:
                _check_vector(name, grads[name], c)
    return c


@dataclass(frozen=True)
class Grads:
    """What the chain produced: dx (input's working layout), and the per-channel dweight / dbias."""

    dx: aclTensor
    dweight: aclTensor
    dbias: aclTensor


def _per_channel(c: int, *tensors: aclTensor) -> None:
    """The classic kernels read C values of each vector: a shorter one fails the L0 (561103)."""
    for t in tensors:
        if t.numel != c:
            raise L0StepFailed("BNTrainingUpdateGrad", f"a per-channel input holds {t.numel} values, not {c}.")


def _classic(dy: aclTensor, x: aclTensor, vec: dict[str, aclTensor], training: bool, eps: float,
             executor: aclOpExecutor) -> Grads:  # fmt: skip
    """BatchNormBackward (A2 / A3 / 310P / Ascend910): the vectors as float32 [C]; the kernels take the
    [N, C, ...] tensors as they are (ResizeFromND / ResizeFrom5D / TransData are layout only here)."""
    c = int(x.view_shape[1])
    w = resize_from_1d(vec["weight"], executor)
    mean, var = (resize_from_1d(vec[n], executor) for n in (("saveMean", "saveInvstd") if training else
                                                            ("runningMean", "runningVar")))  # fmt: skip
    _per_channel(c, w, mean, var)
    three_d = training and len(x.view_shape) == 5
    ds, do = executor.alloc_tensor((c,), D.DT_FLOAT), executor.alloc_tensor((c,), D.DT_FLOAT)
    attrs = (Float32(eps),)
    launch(BN3D_TRAINING_UPDATE_GRAD if three_d else BN_TRAINING_UPDATE_GRAD, (dy, x, mean, var), (ds, do), attrs,
           executor)  # fmt: skip
    dx = executor.alloc_tensor(x.view_shape, x.dtype)
    if training:
        reduce = BN3D_TRAINING_REDUCE_GRAD if three_d else BN_TRAINING_REDUCE_GRAD
        launch(reduce, (dy, x, ds, do, w, mean, var), (dx,), attrs, executor)
    else:
        launch(BN_INFER_GRAD, (dy, w, var), (dx,), attrs, executor)
    return Grads(dx, ds, do)


def _v3(dy: aclTensor, x: aclTensor, vec: dict[str, aclTensor], training: bool, eps: float, c: int,
        executor: aclOpExecutor) -> Grads:  # fmt: skip
    """BatchNormBackwardRegbase (the 950): BatchNormGradV3; a channel-last tensor is seen as [outer, C]."""
    w = contiguous(vec["weight"], executor)
    if dy.dtype == D.DT_FLOAT:
        w = cast(w, D.DT_FLOAT, executor)
    rm, rv = (contiguous(vec[n], executor) for n in ("runningMean", "runningVar"))
    if D.DT_FLOAT in (dy.dtype, w.dtype):
        rm, rv = cast(rm, D.DT_FLOAT, executor), cast(rv, D.DT_FLOAT, executor)
    sm, si = (resize_from_1d(vec[n], executor) for n in ("saveMean", "saveInvstd"))
    if training:
        _per_channel(c, sm, si)
    shape = tuple(x.view_shape)
    if x.storage_format in (F.ACL_FORMAT_NHWC, F.ACL_FORMAT_NDHWC):
        flat = (int(np.prod(shape[:-1], dtype=np.int64)), c)
        dy, x = reshape_view(executor, dy, flat), reshape_view(executor, x, flat)
    dx = executor.alloc_tensor(x.view_shape, x.dtype)
    dw, db = executor.alloc_tensor((c,), w.dtype), executor.alloc_tensor((c,), w.dtype)
    launch(BATCH_NORM_GRAD_V3, (dy, x, w, rm, rv, sm, si), (dx, dw, db), (Bool(training), Float32(eps)), executor)
    return Grads(reshape_view(executor, dx, shape), dw, db)


def _write(result: aclTensor, target: aclTensor | None, executor: aclOpExecutor) -> None:
    """Cast to the caller's dtype and ViewCopy (ResizeTo1D / BatchNormPost)."""
    assert target is not None
    view_copy(cast(result, target.dtype, executor), target, executor)


@l2_api
def aclnnBatchNormBackwardGetWorkspaceSize(
    gradOut: aclTensor | None,
    input: aclTensor | None,
    weight: aclTensor | None,
    runningMean: aclTensor | None,
    runningVar: aclTensor | None,
    saveMean: aclTensor | None,
    saveInvstd: aclTensor | None,
    training: bool,
    eps: float,
    outputMask: aclBoolArray | None,
    gradInput: aclTensor | None,
    gradWeight: aclTensor | None,
    gradBias: aclTensor | None,
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
    const aclTensor* weight, const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean,
    const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask, aclTensor* gradInput,
    aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    check_not_null(API, gradOut=gradOut, input=input)
    assert gradOut is not None and input is not None
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(input) or is_empty(gradOut):
            return unique.release(0)
        grads = {"gradInput": gradInput, "gradWeight": gradWeight, "gradBias": gradBias}
        vec = {"weight": weight, "runningMean": runningMean, "runningVar": runningVar, "saveMean": saveMean,
               "saveInvstd": saveInvstd}  # fmt: skip
        mask = _check_mask(outputMask, (gradInput, gradWeight, gradBias))
        _check_dtypes(gradOut, input, grads, mask, vec)
        _check_format(gradOut, input, gradInput, mask)
        c = _check_shapes(gradOut, input, grads, mask, vec, bool(training))
        if _regbase() and not any(mask):
            return unique.release(0)
        x, dy = contiguous(input, executor), contiguous(gradOut, executor)
        shape = tuple(input.view_shape)
        if len(shape) > 5:
            five = (*shape[:4], int(np.prod(shape[4:], dtype=np.int64)))
            x, dy = reshape_view(executor, x, five), reshape_view(executor, dy, five)
        filled = {n: vector_or_fill(t, c, DEFAULTS[n], D.DT_FLOAT, executor) for n, t in vec.items()}
        if _regbase():
            result = _v3(dy, x, filled, bool(training), float(eps), c, executor)
        else:
            result = _classic(dy, x, filled, bool(training), float(eps), executor)
        if mask[1]:
            _write(result.dweight, gradWeight, executor)
        if mask[2]:
            _write(result.dbias, gradBias, executor)
        if mask[0]:
            dx = reshape_view(executor, result.dx, shape) if len(shape) > 5 else result.dx
            _write(dx, gradInput, executor)
        return unique.release(executor.get_workspace_size())


OPS = ()
