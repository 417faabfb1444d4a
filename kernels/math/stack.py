"""aclnnStack and the L0 Pack it runs on (ops-math conversion/pack).

L2 as the real op is written: a null tensor list — or a null out — is ACLNN_ERR_INNER_NULLPTR
(561103: the real CheckParams returns that status for its null check, not 161001). Then every
tensor's dtype and out's in the SoC's list (bfloat16 on A2 / A3 / RegBase), the promoted dtype
defined and castable to out, the first tensor at most 8-D, dim in [-(r+1), r], every tensor's shape
the first's (all 161002). One tensor: empty launches nothing, else Contiguous → Pack. More: the
non-empty tensors are made Contiguous and Cast to the promoted dtype and packed in groups of 32,
the groups then joined by ConcatD along dim (groups of 32 again) until one tensor is left; all
empty launches nothing. The result's shape must be out's (161002), then Cast(out) → ViewCopy.
Pack is AI Core except for complex128 (AI CPU, attrs ``N``, ``axis``); bit-exact.

Not in the real code (it dereferences the list's first member unchecked): an empty list is 161002
and a null member 161001, as for aclnnCat.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.device.interface import Engine
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import AclnnInnerNullptr, L0StepFailed
from emulator.kernels.math.cast import cast
from emulator.kernels.math.cat import ConcatAttrs, concat_d_l0, concat_kernel
from emulator.kernels.math.data_movement import movement_tiling, same_dtype_bins, same_shape
from emulator.kernels.math.index_common import soc_dtypes
from emulator.kernels.math.unary import check_cast
from emulator.meta.dtypes import DataType, dtype_name, promote_type
from emulator.meta.objects import aclTensor, aclTensorList
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    Int64,
    OpImpl,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import MAX_DIM, check_dtype, check_not_null, check_param, is_empty

D = DataType
STACK_DTYPES = (D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8, D.DT_UINT16, D.DT_UINT32, D.DT_UINT64,
                D.DT_FLOAT16, D.DT_FLOAT, D.DT_BOOL, D.DT_DOUBLE, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
STACK_DTYPES_A2 = (*STACK_DTYPES, D.DT_BF16)
PACK_AICORE = tuple(d for d in STACK_DTYPES_A2 if d != D.DT_COMPLEX128)
MAX_INPUTS = 32
PARAM_ERROR = "EZ1001"  # a parameter check's text, reported with the 561103 the real check returns


def pack_attrs(signature: KernelSignature) -> ConcatAttrs:
    """Pack is a concat of the inputs each given a size-1 axis at ``axis``: the ConcatD kernel's attrs."""
    *x_dtypes, y_dtype = signature.dtypes
    *x_shapes, y_shape = signature.shapes
    dim = int(signature.attrs[-1])
    shapes = tuple((*s[:dim], 1, *s[dim:]) for s in x_shapes)
    return ConcatAttrs(tuple(x_dtypes), shapes, y_dtype, y_shape, dim)


PACK = OpImpl(
    "Pack", concat_kernel, movement_tiling, bins=same_dtype_bins(PACK_AICORE), attr_names=("axis",),
    attrs=(("axis", "int"),), kernel_attrs=pack_attrs, moved_inputs=("x",),
)  # fmt: skip
PACK_AICPU = OpImpl(
    "Pack", concat_kernel, movement_tiling, engine=Engine.AICPU, attr_names=("N", "axis"),
    kernel_attrs=pack_attrs, moved_inputs=("x",),
)  # fmt: skip


def pack_l0(inputs: Sequence[aclTensor], dim: int, dtype: int, executor: aclOpExecutor) -> aclTensor:
    """l0op::Pack(inputs, dim, dtype): the inputs stacked on a new axis ``dim`` (non-negative)."""
    shape = list(inputs[0].view_shape)
    shape.insert(dim, len(inputs))
    out = executor.alloc_tensor(shape, dtype)
    tensors = executor.alloc_tensor_list(list(inputs))
    if all(t.dtype in PACK_AICORE for t in inputs):
        status = add_to_launcher_list_aicore(executor, PACK, OP_INPUT(tensors), OP_OUTPUT(out), OP_ATTR(Int64(dim)))
    else:
        attrs = OP_ATTR(Int64(len(inputs)), Int64(dim))
        status = add_to_launcher_list_aicpu(executor, PACK_AICPU, ("N", "axis"), OP_INPUT(tensors), OP_OUTPUT(out),
                                            attrs)  # fmt: skip
    if status != 0:
        raise L0StepFailed("Pack", f"status {status}")
    return out


def _check(api: str, tensors: Sequence[aclTensor], dim: int, out: aclTensor) -> tuple[int, int]:
    """CheckParams after the null checks: (promoted dtype, non-negative dim)."""
    supported = soc_dtypes(STACK_DTYPES_A2, STACK_DTYPES, STACK_DTYPES_A2)
    for i, tensor in enumerate(tensors):
        listed = ", ".join(dtype_name(d) for d in supported)
        message = (
            f"tensor {i} not implemented for {dtype_name(tensor.dtype)}, should be in dtype support list [{listed}]."
        )
        check_param(tensor.dtype in supported, api, message)
    check_dtype(api, "out", out, supported)
    promote = tensors[0].dtype
    for i, tensor in enumerate(tensors[1:], start=1):
        before, promote = promote, promote_type(tensor.dtype, promote)
        message = f"tensor {i} dtype {dtype_name(tensor.dtype)} and dtype {dtype_name(before)} can not promote dtype."
        check_param(promote != D.DT_UNDEFINED, api, message)
    check_cast(api, promote, out.dtype)
    first = tuple(tensors[0].view_shape)
    rank = len(first)
    check_param(rank <= MAX_DIM, api, f"Dim of self is {rank}, can't be greater than {MAX_DIM}.")
    real = dim + rank + 1 if dim < 0 else dim
    check_param(0 <= real <= rank, api, f"dimnum {dim} exceed the dim range of the [{-(rank + 1)}, {rank}].")
    for i, tensor in enumerate(tensors[1:], start=1):
        shape = tuple(tensor.view_shape)
        check_param(len(shape) == rank, api, f"dimnum of tensor {i} is [{len(shape)}], should be equal to tensor 0 "
                    f"[{rank}].")  # fmt: skip
        for j, (a, b) in enumerate(zip(first, shape, strict=True)):
            check_param(a == b, api, f"dim {j} of tensor {i} is [{b}], should be equal to tensor 0 [{a}].")
    return promote, real


def _split_to_stack(tensors: Sequence[aclTensor], dim: int, promote: int, executor: aclOpExecutor) -> aclTensor | None:
    """SplitToStack: Pack groups of 32 of the cast inputs, then ConcatD the packs in groups of 32."""
    pending = [cast(contiguous(t, executor), promote, executor) for t in tensors if not is_empty(t)]
    if not pending:
        return None
    packed = [pack_l0(pending[i : i + MAX_INPUTS], dim, promote, executor) for i in range(0, len(pending), MAX_INPUTS)]
    while len(packed) > 1:
        packed = [concat_d_l0(packed[i : i + MAX_INPUTS], dim, executor) for i in range(0, len(packed), MAX_INPUTS)]
    return packed[0]


@l2_api
def aclnnStackGetWorkspaceSize(
    tensors: aclTensorList | None, dim: int, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnStack"
    with create_executor() as unique:
        executor = unique.get()
        if tensors is None:
            raise AclnnInnerNullptr(f"{api}: Input of aclnnStack should not be null.", msg_id=PARAM_ERROR)
        if out is None:
            raise AclnnInnerNullptr(f"{api}: expected out not to be a null pointer.", msg_id=PARAM_ERROR)
        members: list[aclTensor] = []
        for i, tensor in enumerate(tensors.values):
            check_not_null(api, **{f"tensors[{i}]": tensor})
            assert isinstance(tensor, aclTensor), "a tensor list holds tensors and nulls"
            members.append(tensor)
        check_param(bool(members), api, "tensors should not be an empty list.")
        promote, real = _check(api, members, int(dim), out)
        if len(members) == 1:
            if is_empty(members[0]):
                return unique.release(0)
            result: aclTensor | None = pack_l0([contiguous(members[0], executor)], real, members[0].dtype, executor)
        else:
            result = _split_to_stack(members, real, promote, executor)
        if result is None:
            return unique.release(0)
        wanted = list(result.view_shape)
        check_param(same_shape(wanted, out.view_shape), api, f"out shape {list(out.view_shape)} should be {wanted}.")
        view_copy(cast(result, out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (PACK,)
