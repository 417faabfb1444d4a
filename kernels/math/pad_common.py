"""The padding L0 ops the pad family shares: PadV3, MirrorPad and the StridedSlice that crops.

ConstantPadNd (constant mode, plus a StridedSlice per axis for negative pads) and ReflectionPad1d
(MirrorPad, or PadV3 in reflect mode for complex dtypes) are built from these. All three kernels are
one gather: each block fills its ``[lo, hi)`` range of the flattened output by mapping the output
coordinates back to the input — shifted by the leading pad of each axis, reflected at the borders in
reflect mode, and replaced by the constant value where the position lies outside the input in
constant mode. The pads arrive as a device tensor (pairs per axis, in axis order), as on the card.
Bit-exact copies of the input elements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.executor import aclOpExecutor
from emulator.engine.tiling import KernelSignature
from emulator.errors import L0StepFailed
from emulator.kernels.math.cast import NAMES
from emulator.kernels.math.data_movement import movement_tiling
from emulator.kernels.math.index_common import A2_SOCS, REGBASE_SOCS, block_coords, flat_offset
from emulator.kernels.math.reduce_common import pieces
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_ATTR,
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    Bool,
    DType,
    Int64,
    OpImpl,
    RangeKernel,
    Str,
    add_to_launcher_list_aicore,
    add_to_launcher_list_aicpu,
    block_range,
    convert_to_tensor,
)

D = DataType
CONSTANT, REFLECT = "constant", "reflect"
# PadV3's AI Core lists per mode (constant / reflect); every other dtype runs on AI CPU
PAD_AICORE_A2 = {CONSTANT: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16, D.DT_INT8, D.DT_INT32),
                 REFLECT: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_BF16)}  # fmt: skip
PAD_AICORE_OTHER = {CONSTANT: (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32), REFLECT: (D.DT_FLOAT16, D.DT_FLOAT)}
PAD_AICORE_REGBASE = (D.DT_INT64, D.DT_UINT64, D.DT_DOUBLE, D.DT_INT32, D.DT_UINT32, D.DT_FLOAT, D.DT_INT16,
                      D.DT_UINT16, D.DT_FLOAT16, D.DT_BF16, D.DT_INT8, D.DT_UINT8, D.DT_BOOL)  # fmt: skip
PAD_AICORE_RANK = {CONSTANT: 8, REFLECT: 5}
MIRROR_AICORE_OTHER = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_INT16, D.DT_INT64)
MIRROR_AICORE_A2 = (*MIRROR_AICORE_OTHER, D.DT_BF16)
MIRROR_AICORE_REGBASE = (D.DT_FLOAT, D.DT_INT32, D.DT_FLOAT16, D.DT_INT8, D.DT_DOUBLE, D.DT_INT16, D.DT_INT64,
                         D.DT_UINT64, D.DT_UINT32, D.DT_UINT16, D.DT_UINT8, D.DT_BOOL, D.DT_BF16)  # fmt: skip
SLICE_AICORE_OTHER = (D.DT_FLOAT16, D.DT_FLOAT, D.DT_INT32, D.DT_UINT8, D.DT_BOOL, D.DT_INT8, D.DT_INT16, D.DT_INT64,
                      D.DT_UINT16, D.DT_UINT32, D.DT_UINT64, D.DT_COMPLEX64)  # fmt: skip
SLICE_AICORE_A2 = (*SLICE_AICORE_OTHER, D.DT_BF16)
PAD_V3_AICPU_ATTRS = ("mode", "paddingsContiguous")
MIRROR_AICPU_ATTRS = ("Tpaddings", "mode")
SLICE_AICPU_ATTRS = ("T", "Index", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@dataclass(frozen=True, slots=True)
class PadAttrs(KernelAttrs):
    """What a pad binary has baked in: the dtype, the shapes of x and y, the pads' dtype and the mode."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]
    pad_dtype: np.dtype
    mode: str

    @classmethod
    def pad_v3(cls, signature: KernelSignature) -> PadAttrs:
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1], signature.dtypes[1],
                   str(signature.attrs[0]))  # fmt: skip

    @classmethod
    def mirror(cls, signature: KernelSignature) -> PadAttrs:
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1], signature.dtypes[1], REFLECT)


def source_offsets(
    attrs: PadAttrs, befores: Sequence[int] | np.ndarray, lo: int, hi: int
) -> tuple[np.ndarray, np.ndarray | None]:
    """Offsets into x of the output positions [lo, hi), and (constant mode) which of them lie inside x."""
    inside: np.ndarray | None = None
    coords = []
    for coord, before, size in zip(block_coords(attrs.y_shape, lo, hi), befores, attrs.x_shape, strict=True):
        src = coord - int(before)
        if attrs.mode == REFLECT:
            src = np.abs(src)
            src = np.where(src >= size, 2 * (size - 1) - src, src)
        else:
            ok = (src >= 0) & (src < size)
            inside = ok if inside is None else inside & ok
            src = np.clip(src, 0, max(size - 1, 0))
        coords.append(src)
    return flat_offset(coords, attrs.x_shape, hi - lo), inside


def _pad_range(ctx: BlockContext[PadAttrs], lo: int, hi: int, x: np.ndarray, paddings: np.ndarray,
               *rest: np.ndarray) -> None:  # fmt: skip
    """PadV3 (x, paddings, constant_values -> y) and MirrorPad (x, paddings -> y) over y's range [lo, hi)."""
    attrs, y = ctx.attrs, rest[-1]
    rank = len(attrs.x_shape)
    befores = [int(b) for b in paddings.view(attrs.pad_dtype)[0 : 2 * rank : 2]]
    if attrs.mode != REFLECT and _fits(attrs, befores):
        _constant_pad(attrs, befores, lo, hi, x, rest[0], y)
        return
    offsets, inside = source_offsets(attrs, befores, lo, hi)
    values = x.view(attrs.dtype)[offsets] if x.size else np.zeros(hi - lo, attrs.dtype)
    if inside is not None:
        values = np.where(inside, values, rest[0].view(attrs.dtype)[0])
    y.view(attrs.dtype)[lo:hi] = values


def _fits(attrs: PadAttrs, befores: Sequence[int]) -> bool:
    """Whether x sits inside y at the leading pads (no pad negative), so constant mode is fill-and-copy."""
    return bool(attrs.y_shape) and all(
        b >= 0 and b + xd <= yd for b, xd, yd in zip(befores, attrs.x_shape, attrs.y_shape, strict=True)
    )


def _constant_pad(
    attrs: PadAttrs, befores: Sequence[int], lo: int, hi: int, x: np.ndarray, value: np.ndarray, y: np.ndarray
) -> None:
    """Constant mode as data movement: each hyper-rectangle of y's range that is contiguous in y
    (``pieces``) takes the constant, then its overlap with x's place in y takes x's elements. Every
    output element gets the same bytes as the per-element gather (x's element or the constant)."""
    dtype, sx, sy = attrs.dtype, attrs.x_shape, attrs.y_shape
    dest = y.view(dtype)[: int(np.prod(sy, dtype=np.int64))].reshape(sy)
    src = x.view(dtype)[: int(np.prod(sx, dtype=np.int64))].reshape(sx)
    fill = value.view(dtype)[0]
    for index in pieces(lo, hi, sy):
        dest[index] = fill
        box_y: list[slice] = []
        for axis, size in enumerate(sy):
            part = index[axis] if axis < len(index) else slice(0, size)
            start, stop = (part.start, part.stop) if isinstance(part, slice) else (part, part + 1)
            start, stop = max(start, befores[axis]), min(stop, befores[axis] + sx[axis])
            if start >= stop:
                break
            box_y.append(slice(start, stop))
        else:
            box_x = tuple(slice(b.start - before, b.stop - before) for b, before in zip(box_y, befores, strict=True))
            dest[tuple(box_y)] = src[box_x]


pad_kernel = RangeKernel(_pad_range)


def _pad_v3_bins(dtypes: Sequence[int]) -> tuple[BinSpec, ...]:
    return tuple(BinSpec((NAMES[d], "int32", NAMES[d]), (NAMES[d],)) for d in dtypes)


PAD_V3 = OpImpl(
    "PadV3", pad_kernel, movement_tiling, bins=_pad_v3_bins(PAD_AICORE_A2[CONSTANT]),
    attrs=(("mode", "str"), ("paddings_contiguous", "bool")), input_names=("x", "paddings", "constant_values"),
    kernel_attrs=PadAttrs.pad_v3, moved_inputs=("x", "constant_values"),
)  # fmt: skip
PAD_V3_AICPU = OpImpl(
    "PadV3", pad_kernel, movement_tiling, engine=Engine.AICPU, attr_names=PAD_V3_AICPU_ATTRS,
    input_names=("x", "paddings", "constant_values"), kernel_attrs=PadAttrs.pad_v3,
    moved_inputs=("x", "constant_values"),
)  # fmt: skip
MIRROR_PAD = OpImpl(
    "MirrorPad", pad_kernel, movement_tiling, attrs=(("mode", "str"),), input_names=("x", "paddings"),
    bins=tuple(BinSpec((NAMES[d], "int64"), (NAMES[d],)) for d in MIRROR_AICORE_A2), kernel_attrs=PadAttrs.mirror,
    moved_inputs=("x",),
)  # fmt: skip
MIRROR_PAD_AICPU = OpImpl(
    "MirrorPad", pad_kernel, movement_tiling, engine=Engine.AICPU, attr_names=MIRROR_AICPU_ATTRS,
    input_names=("x", "paddings"), kernel_attrs=PadAttrs.mirror, moved_inputs=("x",),
)  # fmt: skip


def _soc(executor: aclOpExecutor) -> str:
    return executor.ctx.soc.short_soc_version


def pad_v3_l0(x: aclTensor, paddings: Sequence[int], pad_dtype: int, value: aclTensor, mode: str,
              executor: aclOpExecutor) -> aclTensor:  # fmt: skip
    """l0op::PadV3(x, paddings, constant_values, mode, paddingsContiguous=true): the pads (axis-order pairs,
    non-negative) as a ``pad_dtype`` host tensor; AI Core for the SoC's list of the mode, AI CPU otherwise."""
    shape = [int(d) + paddings[2 * i] + paddings[2 * i + 1] for i, d in enumerate(x.view_shape)]
    if min(shape, default=0) < 0:
        raise L0StepFailed("PadV3", "InferShape failed: negative output size")
    out = executor.alloc_tensor(shape, x.dtype)
    pads = convert_to_tensor(list(paddings), pad_dtype, executor)
    groups = (OP_INPUT(x, pads, value), OP_OUTPUT(out), OP_ATTR(Str(mode), Bool(True)))
    soc = _soc(executor)
    by_mode = PAD_AICORE_A2 if soc in A2_SOCS else PAD_AICORE_OTHER
    aicore = PAD_AICORE_REGBASE if soc in REGBASE_SOCS else by_mode[mode]
    if len(x.view_shape) <= PAD_AICORE_RANK[mode] and x.dtype in aicore:
        status = add_to_launcher_list_aicore(executor, PAD_V3, *groups)
    else:
        status = add_to_launcher_list_aicpu(executor, PAD_V3_AICPU, PAD_V3_AICPU_ATTRS, *groups)
    if status != 0:
        raise L0StepFailed("PadV3", f"status {status}")
    return out


def mirror_pad_l0(x: aclTensor, paddings: aclTensor, pairs: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::MirrorPad(x, paddings [rank, 2] int64, "REFLECT"); ``pairs`` are the pads' values (for the shape)."""
    shape = [int(d) + pairs[2 * i] + pairs[2 * i + 1] for i, d in enumerate(x.view_shape)]
    if any(p < 0 for p in pairs):
        raise L0StepFailed("MirrorPad", "InferShape failed: negative padding")
    out = executor.alloc_tensor(shape, x.dtype)
    soc = _soc(executor)
    aicore: tuple[int, ...] = MIRROR_AICORE_A2 if soc in A2_SOCS else MIRROR_AICORE_OTHER
    aicore = MIRROR_AICORE_REGBASE if soc in REGBASE_SOCS else aicore
    if x.dtype in aicore:
        status = add_to_launcher_list_aicore(executor, MIRROR_PAD, OP_INPUT(x, paddings), OP_OUTPUT(out),
                                             OP_ATTR(Str("REFLECT")))  # fmt: skip
    else:
        status = add_to_launcher_list_aicpu(executor, MIRROR_PAD_AICPU, MIRROR_AICPU_ATTRS, OP_INPUT(x, paddings),
                                            OP_OUTPUT(out), OP_ATTR(DType(paddings.dtype), Str("REFLECT")))  # fmt: skip
    if status != 0:
        raise L0StepFailed("MirrorPad", f"status {status}")
    return out


@dataclass(frozen=True, slots=True)
class SliceAttrs(KernelAttrs):
    """What a StridedSlice binary has baked in: the dtype and the shapes of x and y."""

    dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> SliceAttrs:
        return cls(signature.dtypes[0], signature.shapes[0], signature.shapes[-1])


def strided_slice_kernel(ctx: BlockContext[SliceAttrs], x: np.ndarray, begin: np.ndarray, end: np.ndarray,
                         strides: np.ndarray, y: np.ndarray) -> None:  # fmt: skip
    """y at a position is x at begin + position * stride, axis by axis (begin and strides as int64 tensors)."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    attrs = ctx.attrs
    starts, steps = begin.view(np.int64), strides.view(np.int64)
    coords = [int(starts[i]) + c * int(steps[i]) for i, c in enumerate(block_coords(attrs.y_shape, lo, hi))]
    y.view(attrs.dtype)[lo:hi] = x.view(attrs.dtype)[flat_offset(coords, attrs.x_shape, hi - lo)]


STRIDED_SLICE = OpImpl(
    "StridedSlice", strided_slice_kernel, movement_tiling, input_names=("x", "begin", "end", "strides"),
    bins=tuple(BinSpec((NAMES[d], "int64", "int64", "int64"), (NAMES[d],)) for d in SLICE_AICORE_A2),
    attrs=tuple((name, "int") for name in SLICE_AICPU_ATTRS[2:]), kernel_attrs=SliceAttrs.of, moved_inputs=("x",),
)  # fmt: skip
STRIDED_SLICE_AICPU = OpImpl(
    "StridedSlice", strided_slice_kernel, movement_tiling, engine=Engine.AICPU, attr_names=SLICE_AICPU_ATTRS,
    input_names=("x", "begin", "end", "strides"), kernel_attrs=SliceAttrs.of, moved_inputs=("x",),
)  # fmt: skip


def strided_slice_l0(x: aclTensor, begin: Sequence[int], end: Sequence[int], executor: aclOpExecutor) -> aclTensor:
    """l0op::StridedSlice with unit strides and zero masks: x[begin:end] on every axis."""
    out = executor.alloc_tensor([e - b for b, e in zip(begin, end, strict=True)], x.dtype)
    tensors = [convert_to_tensor(list(v), D.DT_INT64, executor) for v in (begin, end, [1] * len(begin))]
    groups = (OP_INPUT(x, *tensors), OP_OUTPUT(out))
    soc = _soc(executor)
    if x.dtype in (SLICE_AICORE_A2 if soc in (*A2_SOCS, *REGBASE_SOCS) else SLICE_AICORE_OTHER):
        status = add_to_launcher_list_aicore(executor, STRIDED_SLICE, *groups, OP_ATTR(*(Int64(0),) * 5))
    else:
        attrs = OP_ATTR(DType(x.dtype), DType(D.DT_INT64), *(Int64(0),) * 5)
        status = add_to_launcher_list_aicpu(executor, STRIDED_SLICE_AICPU, SLICE_AICPU_ATTRS, *groups, attrs)
    if status != 0:
        raise L0StepFailed("StridedSlice", f"status {status}")
    return out


OPS = (PAD_V3, MIRROR_PAD, STRIDED_SLICE)
