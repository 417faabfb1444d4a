"""aclnnReflectionPad1d: pad the last axis of a 2-D or 3-D tensor with its reflection (no edge repeat).

L2 as the real op is written (ops-math conversion/mirror_pad): null checks of self, padding, out
(161001); self's and out's dtypes in the SoC's list (A2 / A3 add bfloat16 and the complex types) and
equal; equal view formats; self with fewer than 2 or more than 3 dims, out's rank not self's, a
padding list not of 2, a pad not below the last axis' size, out's last axis not size + both pads
(161002, in that order). An empty self or out is accepted only as a 3-D tensor whose batch axis
alone is empty (nothing is launched); any other empty case is 161002. Otherwise Contiguous, then
MirrorPad ("REFLECT", the pads as a [rank, 2] int64 tensor) — or, for complex dtypes, PadV3 in
reflect mode on a 3-D view (a 2-D self gains a leading axis and loses it after) — the result's
shape checked against out's (161002) and ViewCopy. Bit-exact.
"""

from __future__ import annotations

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.data_movement import same_shape
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS
from emulator.kernels.math.pad_common import REFLECT, mirror_pad_l0, pad_v3_l0
from emulator.kernels.math.reduce_common import int_array_values
from emulator.kernels.math.unary import check_dtype_match
from emulator.meta.describe import format_label
from emulator.meta.dtypes import COMPLEX_TYPES, DataType
from emulator.meta.objects import aclIntArray, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, reshape_view, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
REFLECT_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_INT64, D.DT_FLOAT16, D.DT_INT16, D.DT_DOUBLE, D.DT_INT8, D.DT_UINT8,
                  D.DT_BOOL)  # fmt: skip
REFLECT_DTYPES_A2 = (*REFLECT_DTYPES, D.DT_BF16, D.DT_COMPLEX64, D.DT_COMPLEX128)
REFLECT_DTYPES_REGBASE = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_DOUBLE, D.DT_INT16, D.DT_INT64,
                          D.DT_UINT64, D.DT_UINT32, D.DT_UINT16, D.DT_UINT8, D.DT_BOOL, D.DT_COMPLEX64,
                          D.DT_COMPLEX128, D.DT_BF16, D.DT_HIFLOAT8, D.DT_FLOAT8_E5M2, D.DT_FLOAT8_E4M3FN,
                          D.DT_FLOAT8_E8M0)  # fmt: skip
EMPTY_MESSAGE = "Expected 2D or 3D tensor with possibly 0 batch size and other non-zero dimentions for input."


def _supported() -> tuple[int, ...]:
    soc = current_l2().op.soc.short_soc_version
    return REFLECT_DTYPES_A2 if soc in A2_SOCS else REFLECT_DTYPES_REGBASE if soc in REGBASE_SOCS else REFLECT_DTYPES


def _check(api: str, self: aclTensor, padding: list[int], out: aclTensor) -> None:
    supported = _supported()
    check_dtype(api, "self", self, supported)
    check_dtype(api, "out", out, supported)
    check_dtype_match(api, "out", out, self.dtype)
    check_param(self.view_format == out.view_format, api, "Format of input and output should be equal, self "
                f"[{format_label(self.view_format)}], gradInoutput [{format_label(out.view_format)}].")  # fmt: skip
    rank = len(self.view_shape)
    check_param(rank >= 2, api, f"self has {rank} dims, fewer than 2.")
    check_rank(api, "self", self, 3)
    check_param(rank == len(out.view_shape), api, "self, out dim should be same.")
    check_param(len(padding) == 2, api, f"padding length should be 2, but got {len(padding)}.")
    last = int(self.view_shape[-1])
    check_param(padding[0] < last and padding[1] < last, api,
                "padding size should be less than the corresponding self dimention.")  # fmt: skip
    check_param(int(out.view_shape[-1]) == last + padding[0] + padding[1], api, "wrong out shape.")


def _axis_pairs(rank: int, padding: list[int]) -> list[int]:
    """GetPaddingTensor's values: a zero pair per leading axis, the padding on the last."""
    return [0, 0] * (rank - 1) + padding


def _reflect(x: aclTensor, padding: list[int], executor: aclOpExecutor) -> aclTensor:
    rank = len(x.view_shape)
    if x.dtype in COMPLEX_TYPES:
        # ProcessPadV3: the AI CPU PadV3 pads a 3-D view in reflect mode
        view = reshape_view(executor, x, (1, *x.view_shape)) if rank == 2 else x
        zero = convert_to_tensor(executor.alloc_scalar(0, D.DT_INT64), x.dtype, executor)
        pairs = _axis_pairs(len(view.view_shape), padding)
        result = pad_v3_l0(view, pairs, D.DT_INT64, zero, REFLECT, executor)
        return reshape_view(executor, result, tuple(result.view_shape[1:])) if rank == 2 else result
    pairs = _axis_pairs(rank, padding)
    paddings = reshape_view(executor, convert_to_tensor(pairs, D.DT_INT64, executor), (rank, 2))
    return mirror_pad_l0(x, paddings, pairs, executor)


@l2_api
def aclnnReflectionPad1dGetWorkspaceSize(
    self: aclTensor | None, padding: aclIntArray | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnReflectionPad1d"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, padding=padding, out=out)
        assert self is not None and padding is not None and out is not None
        pads = int_array_values(padding)
        _check(api, self, pads, out)
        if is_empty(self, out):
            check_param(len(self.view_shape) == 3 and 0 not in self.view_shape[1:], api, EMPTY_MESSAGE)
            return unique.release(0)
        result = _reflect(contiguous(self, executor), pads, executor)
        check_param(same_shape(result.view_shape, out.view_shape), api, f"the result shape "
                    f"{list(result.view_shape)} should be out's shape {list(out.view_shape)}.")  # fmt: skip
        view_copy(result, out, executor)
        return unique.release(executor.get_workspace_size())
