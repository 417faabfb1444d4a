"""aclnnConstantPadNd: pad (or, with negative pads, crop) the trailing axes with a constant value.

L2 as the real op is written (ops-math conversion/pad_v3): null checks of self, pad, value, out
(161001); out's dtype self's, then self's dtype in the SoC's list (bfloat16 on A2 / A3; the 8-bit and
4-bit floats only on RegBase); a non-ND self whose storage format differs from out's; then the
shape checks, in order: self or out with more than 8 dims, different ranks, an odd pad count, more
pairs than self has dims, a pair making an axis negative, out's size on an axis other than
size + before + after, and a positive pad with a zero-size padded axis; an fp8 / fp4 self with a
negative pad (all 161002). The pairs count from the last axis (pad[0], pad[1] pad the last one).

The chain: an empty out launches nothing; all-zero pads copy self into out; an empty self with
positive pads is a Fill of out's shape with the value. Otherwise the non-negative part of the pads
goes to PadV3 (constant mode; bool runs as int8 with a Cast either side) and each axis with a
non-zero pad then goes through one StridedSlice that drops the negative part, before ViewCopy. The
value is converted to self's dtype as the card's ConvertToTensor does (a complex value into a real
dtype keeps its real part). Bit-exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.cast import cast
from emulator.kernels.math.fill import fill_l0, scalar_to_tensor
from emulator.kernels.math.index_common import soc_dtypes
from emulator.kernels.math.pad_common import CONSTANT, pad_v3_l0, strided_slice_l0
from emulator.kernels.math.reduce_common import int_array_values
from emulator.meta.describe import format_label
from emulator.meta.dtypes import DataType, dtype_name
from emulator.meta.objects import aclIntArray, aclScalar, aclTensor
from emulator.opdev import contiguous, convert_to_tensor, create_executor, l2_api, view_copy
from emulator.opdev.checks import check_dtype, check_not_null, check_param, check_rank, is_empty

D = DataType
PAD_DTYPES = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_DOUBLE, D.DT_INT16, D.DT_INT64, D.DT_UINT64,
              D.DT_UINT32, D.DT_UINT16, D.DT_UINT8, D.DT_BOOL, D.DT_COMPLEX64, D.DT_COMPLEX128)  # fmt: skip
PAD_DTYPES_A2 = (*PAD_DTYPES, D.DT_BF16)
FP8_FP4 = (D.DT_HIFLOAT8, D.DT_FLOAT8_E5M2, D.DT_FLOAT8_E4M3FN, D.DT_FLOAT8_E8M0, D.DT_FLOAT4_E2M1, D.DT_FLOAT4_E1M2)
PAD_DTYPES_REGBASE = (*PAD_DTYPES_A2, *FP8_FP4)
POSITIVE, NEGATIVE = 1, 2


def _check_dtypes(api: str, self: aclTensor, out: aclTensor) -> None:
    message = f"self dtype {dtype_name(self.dtype)} and out dtype {dtype_name(out.dtype)} should be the same."
    check_param(self.dtype == out.dtype, api, message)
    check_dtype(api, "self", self, soc_dtypes(PAD_DTYPES_A2, PAD_DTYPES, PAD_DTYPES_REGBASE))


def _check_format(api: str, self: aclTensor, out: aclTensor) -> None:
    fmt, out_fmt = self.storage_format, out.storage_format
    check_param(fmt == out_fmt or fmt == 2, api, f"If Input tensor's format not ND, Input tensor's format"
                f"[{format_label(fmt)}] should be same with output's format[{format_label(out_fmt)}].")  # fmt: skip
    # a private format only warns on the card (precision may suffer); it is not rejected


def _pair(pad: Sequence[int], i: int) -> tuple[int, int]:
    """The (before, after) pads of the i-th axis counted from the last (zero past the pad list's end)."""
    return (pad[2 * i] if 2 * i < len(pad) else 0), (pad[2 * i + 1] if 2 * i + 1 < len(pad) else 0)


def _check_shape(api: str, self: aclTensor, pad: list[int], out: aclTensor) -> int:
    """CheckShape; the sign set of the pads (POSITIVE | NEGATIVE)."""
    check_rank(api, "self", self)
    check_rank(api, "out", out)
    rank, out_rank = len(self.view_shape), len(out.view_shape)
    check_param(rank == out_rank, api, f"Dim of self[{rank}] and out[{out_rank}] can't be different.")
    check_param(len(pad) % 2 == 0, api, "Pad len must be divisible by 2")
    check_param(len(pad) // 2 <= rank, api, f"Expected aclnnConstantPadNd pad len [{len(pad)}] to not be greater "
                f"than twice of [{rank}] but check failed.")  # fmt: skip
    sign, has_zero = 0, False
    for i in range(rank):
        axis = rank - i - 1
        size = int(self.view_shape[axis])
        before, after = _pair(pad, i)
        check_param(size + min(before, after, before + after) >= 0, api, f"The input size {size} plus padding "
                    f"{before} and {after} resulted in a negative output size, which is invalid. Check dimension "
                    f"{axis} of your input.")  # fmt: skip
        sign |= POSITIVE if before > 0 or after > 0 else 0
        sign |= NEGATIVE if before < 0 or after < 0 else 0
        wanted, given = size + before + after, int(out.view_shape[axis])
        check_param(wanted == given, api, f"output shape at dim {axis} check failed,The output shape you provided "
                    f"is {given} at dim {axis}, and the expected one is {wanted} at dim {axis} based on the "
                    "infershape.")  # fmt: skip
        has_zero |= i < len(pad) // 2 and wanted == 0
    check_param(not (has_zero and sign & POSITIVE), api, f"The output size {list(out.view_shape)} with zero element "
                "is invalid, please check your input.")  # fmt: skip
    return sign


def _fill_out(value: aclScalar, out: aclTensor, executor: aclOpExecutor) -> None:
    """HandleSelfEmpty: out is the value everywhere (a bool value is filled as int8)."""
    shape = tuple(int(d) for d in out.view_shape)
    dims = convert_to_tensor(list(shape), D.DT_INT64, executor)
    if out.dtype == D.DT_BOOL:
        filled = cast(fill_l0(dims, cast(scalar_to_tensor(value, D.DT_BOOL, executor), D.DT_INT8, executor), shape,
                              executor), D.DT_BOOL, executor)  # fmt: skip
    else:
        filled = fill_l0(dims, scalar_to_tensor(value, out.dtype, executor), shape, executor)
    view_copy(filled, out, executor)


def _real_pad(rank: int, pad: list[int]) -> list[int]:
    """GetRealPad: the pairs in axis order, zero pairs for the axes the pad list does not reach."""
    pairs = [0, 0] * (rank - len(pad) // 2)
    for i in range(len(pad) // 2, 0, -1):
        pairs += [pad[2 * i - 2], pad[2 * i - 1]]
    return pairs


def _crop(x: aclTensor, pairs: list[int], executor: aclOpExecutor) -> aclTensor:
    """DoStridedSlice: one StridedSlice per axis with a non-zero pair, dropping its negative pads."""
    shape = [int(d) for d in x.view_shape]
    for axis in range(len(shape)):
        before, after = pairs[2 * axis], pairs[2 * axis + 1]
        if before == 0 and after == 0:
            continue
        begin, end = [0] * len(shape), list(shape)
        begin[axis] = -before if before < 0 else 0
        end[axis] += after if after < 0 else 0
        x = strided_slice_l0(x, begin, end, executor)
        shape = [int(d) for d in x.view_shape]
    return x


def _pad(self: aclTensor, pairs: list[int], sign: int, value: aclScalar, executor: aclOpExecutor) -> aclTensor:
    """PadV3 with the non-negative pads (bool as int8), or only the input when every pad is negative."""
    x = contiguous(self, executor)
    if self.dtype == D.DT_BOOL:
        x = cast(x, D.DT_INT8, executor)
    if sign == NEGATIVE:
        return x
    value_tensor = scalar_to_tensor(value, self.dtype, executor)
    if self.dtype == D.DT_BOOL:
        value_tensor = cast(value_tensor, D.DT_INT8, executor)
    return pad_v3_l0(x, [max(p, 0) for p in pairs], D.DT_INT32, value_tensor, CONSTANT, executor)


@l2_api
def aclnnConstantPadNdGetWorkspaceSize(
    self: aclTensor | None, pad: aclIntArray | None, value: aclScalar | None, out: aclTensor | None
) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
    const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"""
    api = "aclnnConstantPadNd"
    with create_executor() as unique:
        executor = unique.get()
        check_not_null(api, self=self, pad=pad, value=value, out=out)
        assert self is not None and pad is not None and value is not None and out is not None
        _check_dtypes(api, self, out)
        _check_format(api, self, out)
        pads = int_array_values(pad)
        sign = _check_shape(api, self, pads, out)
        check_param(not (self.dtype in FP8_FP4 and sign & NEGATIVE), api,
                    "For fp8 data type, pad array cannot contain negative values.")  # fmt: skip
        if is_empty(out):
            return unique.release(0)
        if sign == 0:
            view_copy(contiguous(self, executor), out, executor)
        elif is_empty(self) and self.dtype not in FP8_FP4:
            _fill_out(value, out, executor)
        else:
            pairs = _real_pad(len(self.view_shape), pads)
            result = _pad(self, pairs, sign, value, executor)
            if sign & NEGATIVE:
                result = _crop(result, pairs, executor)
            view_copy(cast(result, D.DT_BOOL, executor) if out.dtype == D.DT_BOOL else result, out, executor)
        return unique.release(executor.get_workspace_size())
