"""Framework ops: Contiguous, ViewCopy, CopyToNpu, CopyToNpuSync, CopyNpuToNpu.

They are what every L2 op composes around its kernel: ``contiguous`` turns a strided view into a
dense tensor (a view when it already is one, else an AsStrided gather kernel), ``view_copy`` writes
a dense result into the caller's output (re-pointing a workspace intermediate at the output when
the layout allows, which removes it from the workspace; else TensorMove or a strided ViewCopy
kernel). Their kernels are engine-provided ops with binaries in the shipped package. Where the C
helpers return nullptr they raise ``L0StepFailed`` (the phase-1 frame makes it the L2's 561103).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emulator.device.errors import KernelOutOfBounds
from emulator.device.interface import BlockContext, Direction, KernelAttrs
from emulator.engine.args import OP_ATTR, OP_INPUT, OP_OUTPUT, Int64
from emulator.engine.executor import aclOpExecutor
from emulator.engine.launchers import CopyLauncher
from emulator.engine.tensors import ExecTensor, Storage, is_contiguous, nbytes
from emulator.engine.tiling import BinSpec, KernelSignature, OpImpl, TilingContext, TilingResult
from emulator.errors import AclnnError, L0StepFailed
from emulator.meta.objects import aclTensor, contiguous_strides, numel
from emulator.opdev.launch import add_to_launcher_list_aicore
from emulator.opdev.templates import block_range, elementwise_tiling

ALL_DTYPES = ("float16", "float", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "bool", "double", "complex64", "complex128")  # fmt: skip
OLD_LAYOUT_SOCS = ("Ascend910", "Ascend310", "Ascend310P")


@dataclass(frozen=True, slots=True)
class StridedAttrs(KernelAttrs):
    """What an AsStrided / ViewCopy binary has baked in: the element dtype and the strided view."""

    dtype: np.dtype
    size: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int


def _as_strided_attrs(signature: KernelSignature) -> StridedAttrs:
    """AsStrided(storage) -> out: the dtype is the dense output's; attributes size, stride, storage_offset."""
    size, stride, offset = signature.attrs
    return StridedAttrs(signature.dtypes[1], tuple(size), tuple(stride), offset)


def _view_copy_attrs(signature: KernelSignature) -> StridedAttrs:
    """ViewCopy(src) -> storage: the dtype is the dense source's; attributes dst_size, dst_stride, offset."""
    size, stride, offset = signature.attrs
    return StridedAttrs(signature.dtypes[0], tuple(size), tuple(stride), offset)


@dataclass(frozen=True, slots=True)
class MoveAttrs(KernelAttrs):
    """What a TensorMove binary has baked in: the element dtype."""

    dtype: np.dtype


def _move_attrs(signature: KernelSignature) -> MoveAttrs:
    return MoveAttrs(signature.dtypes[0])


def _strided_offsets(shape: tuple[int, ...], strides: tuple[int, ...], offset: int, lo: int, hi: int) -> np.ndarray:
    """Element offsets (into the storage) of the flat view positions [lo, hi)."""
    flat = np.arange(lo, hi, dtype=np.int64)
    if not shape:
        return flat + offset
    coords = np.unravel_index(flat, shape)
    offsets = np.full(flat.shape, offset, dtype=np.int64)
    for coord, stride in zip(coords, strides, strict=False):
        offsets += coord.astype(np.int64) * stride
    return offsets


def view_outside_storage(x: aclTensor) -> str | None:
    """op::Validate: why the elements a strided view reaches fall outside its storage, or None.

    A negative stride is legal as long as the view stays inside: the lowest element reached is
    the offset plus every negative stride times its dim minus one, the highest likewise.
    """
    if len(x.view_shape) != len(x.strides):
        return f"the view has {len(x.view_shape)} dims but {len(x.strides)} strides"
    if any(d < 0 for d in x.view_shape):
        return f"the view shape {list(x.view_shape)} has a negative dim"
    low = high = x.offset
    for dim, stride in zip(x.view_shape, x.strides, strict=True):
        low += min(0, stride * (dim - 1))
        high += max(0, stride * (dim - 1))
    size = numel(x.storage_shape)
    if low < 0 or high + 1 > size:
        return (
            f"The view {list(x.view_shape)} with strides {list(x.strides)} and offset {x.offset} reaches "
            f"elements [{low}, {high}] of a storage of {size}"
        )
    return None


def _checked_offsets(kernel: str, offsets: np.ndarray, size: int) -> np.ndarray:
    """Strided element offsets that stay inside the storage; numpy would wrap a negative one (x[-1] is x[3]).

    On the card such an offset is a global-memory access outside the tensor: an AI Core exception
    the next synchronize reports, so the kernel fails the same way here instead of reading a
    wrapped element or writing over the wrong one.
    """
    if offsets.size and (int(offsets.min()) < 0 or int(offsets.max()) >= size):
        raise KernelOutOfBounds(
            f"kernel {kernel}: the strided view reaches elements [{int(offsets.min())}, {int(offsets.max())}] "
            f"of a storage of {size} (out-of-bounds global-memory access)",
            kernel=kernel,
        )
    return offsets


def _view_tiling(ctx: TilingContext) -> TilingResult:
    """Split the dense side's elements: AsStrided's output, ViewCopy's and TensorMove's input."""
    dense = ctx.outputs[0] if ctx.op_type == "AsStrided" else ctx.inputs[0]
    assert dense is not None
    return elementwise_tiling(ctx, dense.numel, 2)


def as_strided_kernel(ctx: BlockContext[StridedAttrs], storage: np.ndarray, out: np.ndarray) -> None:
    """Gather a strided view (size, stride, storage offset) into a dense output, one block's range."""
    attrs = ctx.attrs
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    src = storage.view(attrs.dtype)
    offsets = _checked_offsets("AsStrided", _strided_offsets(attrs.size, attrs.stride, attrs.offset, lo, hi), len(src))
    out.view(attrs.dtype)[lo:hi] = src[offsets]


def view_copy_kernel(ctx: BlockContext[StridedAttrs], src: np.ndarray, storage: np.ndarray) -> None:
    """Scatter a dense tensor into a strided destination view (size, stride, offset)."""
    attrs = ctx.attrs
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    if lo >= hi:
        return
    dst = storage.view(attrs.dtype)
    offsets = _checked_offsets("ViewCopy", _strided_offsets(attrs.size, attrs.stride, attrs.offset, lo, hi), len(dst))
    dst[offsets] = src.view(attrs.dtype)[lo:hi]


def tensor_move_kernel(ctx: BlockContext[MoveAttrs], src: np.ndarray, dst: np.ndarray) -> None:
    dtype = ctx.attrs.dtype
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    dst.view(dtype)[lo:hi] = src.view(dtype)[lo:hi]


_same = tuple(BinSpec((d,), (d,)) for d in ALL_DTYPES)
AS_STRIDED = OpImpl(
    "AsStrided", as_strided_kernel, _view_tiling, attr_names=("size", "stride", "storage_offset"),
    attrs=(("size", "list_int"), ("stride", "list_int"), ("storage_offset", "int")), bins=_same,
    kernel_attrs=_as_strided_attrs, moved_inputs=("x",),
)  # fmt: skip
VIEW_COPY = OpImpl(
    "ViewCopy", view_copy_kernel, _view_tiling, attr_names=("dst_size", "dst_stride", "dst_storage_offset"),
    attrs=(("dst_size", "list_int"), ("dst_stride", "list_int"), ("dst_storage_offset", "int")), bins=_same,
    kernel_attrs=_view_copy_attrs, moved_inputs=("x",), scatters=True,
)  # fmt: skip
TENSOR_MOVE = OpImpl(
    "TensorMove", tensor_move_kernel, _view_tiling, bins=_same, kernel_attrs=_move_attrs, moved_inputs=("x",)
)
FRAMEWORK_OPS = (AS_STRIDED, VIEW_COPY, TENSOR_MOVE)


def _storage_tensor(executor: aclOpExecutor, x: aclTensor) -> ExecTensor:
    """The whole storage of ``x`` as a flat tensor from its raw address (what AsStrided reads)."""
    storage = x.storage if isinstance(x, ExecTensor) else Storage(base=x)
    flat = ExecTensor((numel(x.storage_shape),), x.dtype, storage)
    flat.storage_offset = x.storage_offset
    return executor._own(flat)


def contiguous(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Contiguous: a dense version of ``x`` (the tensor itself, a view, or a gathered copy)."""
    if is_contiguous(x):
        if x.view_shape == x.storage_shape == x.origin_shape and x.offset == 0:
            return x
        return executor.create_view(x, x.view_shape, x.offset)
    if (why := view_outside_storage(x)) is not None:
        raise L0StepFailed("Contiguous", f"ViewShape overlap. {why}")  # op::Validate, as l0op::Contiguous calls it
    out = executor.alloc_tensor(x.view_shape, x.dtype)
    base = _storage_tensor(executor, x)
    attrs = OP_ATTR(list(x.view_shape), list(x.strides), Int64(x.offset))
    if add_to_launcher_list_aicore(executor, AS_STRIDED, OP_INPUT(base), OP_OUTPUT(out), attrs) != 0:
        raise L0StepFailed("Contiguous", "AsStrided was not recorded")
    return out


def view_copy(x: aclTensor, y: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::ViewCopy: write the dense result ``x`` into the caller's (maybe strided) output ``y``."""
    if isinstance(y, ExecTensor) and y.from_workspace:
        raise L0StepFailed("ViewCopy", "the destination is a workspace tensor")
    if x.dtype != y.dtype or (x.view_shape != y.view_shape and not (x.numel == y.numel == 1)):
        raise L0StepFailed("ViewCopy", "source and destination differ in dtype or shape")
    if is_contiguous(y):
        if not (isinstance(x, ExecTensor) and x.from_workspace):
            if x.data_addr == y.data_addr:
                executor.abandon_cache(disable_repeat=True)
                return y
            if add_to_launcher_list_aicore(executor, TENSOR_MOVE, OP_INPUT(x), OP_OUTPUT(y)) != 0:
                raise L0StepFailed("ViewCopy", "TensorMove was not recorded")
            return y
        soc = executor.ctx.soc.short_soc_version
        if soc not in OLD_LAYOUT_SOCS or numel(y.storage_shape) == y.numel + y.offset:
            x.storage.from_workspace = False  # re-pointed at y: no kernel, no workspace
            x.storage.base = y
            x.storage_offset = y.offset + y.storage_offset
            executor.add_tensor_relation(y, x)
            return y
        copy_npu_to_npu(x, y, executor)  # returns 0 or raises
        return y
    attrs = OP_ATTR(list(y.view_shape), list(y.strides), Int64(y.offset))
    base = _storage_tensor(executor, y)
    if add_to_launcher_list_aicore(executor, VIEW_COPY, OP_INPUT(x), OP_OUTPUT(base), attrs) != 0:
        raise L0StepFailed("ViewCopy", "the ViewCopy kernel was not recorded")
    return y


def convert_to_tensor(values: object, dtype: int, executor: aclOpExecutor) -> ExecTensor:
    """executor->ConvertToTensor, checked as every L2 checks it: a dtype numpy cannot hold is a failed step."""
    tensor = executor.convert_to_tensor(values, dtype)
    if tensor is None:
        raise L0StepFailed("ConvertToTensor", f"no host dtype for {dtype}")
    return tensor


def copy_to_npu(src: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """CopyToNpu: a host tensor's bytes to a new workspace tensor, queued on the stream in phase 2."""
    if not (isinstance(src, ExecTensor) and src.on_host):
        raise L0StepFailed("CopyToNpu", "the source is not a host tensor")
    dst = executor.alloc_tensor_ex(
        src.storage_shape, src.origin_shape, src.dtype, src.storage_format, src.origin_format
    )
    executor.add_launcher(CopyLauncher(src, dst, "CopyToNpu"))
    executor.add_node("CopyToNpu", [src], [dst], [])
    executor.abandon_cache()
    return dst


def copy_to_npu_sync(src: aclTensor, executor: aclOpExecutor) -> tuple[aclTensor, int]:
    """CopyToNpuSync: copies now into a dedicated device buffer the caller must free (returned with it)."""
    executor.abandon_cache(disable_repeat=True)
    if not (isinstance(src, ExecTensor) and src.on_host and src.storage.host is not None):
        raise L0StepFailed("CopyToNpuSync", "the source is not a host tensor with data")
    runtime = executor.ctx.runtime
    size = nbytes(src)
    addr = runtime.malloc(max(size, 1), 0, tag="CopyToNpuSync")
    device = runtime.current_device()
    device.copy(addr, int(src.storage.host.ctypes.data), size, Direction.H2D, None)
    dst = ExecTensor(src.view_shape, src.dtype, Storage())
    dst.storage.addr = addr
    executor._own(dst)
    return dst, addr


def copy_npu_to_npu(src: aclTensor, dst: aclTensor, executor: aclOpExecutor) -> int:
    """CopyNpuToNpu: device to device on the stream in phase 2; both must be device tensors."""
    for t in (src, dst):
        if isinstance(t, ExecTensor) and t.on_host:
            raise AclnnError("CopyNpuToNpu needs device tensors", msg_id="EZ9999")
    executor.add_launcher(CopyLauncher(src, dst, "CopyNpuToNpu"))
    executor.add_node("CopyToNpu", [src], [dst], [])
    executor.abandon_cache()
    return 0


def reshape_view(executor: aclOpExecutor, x: aclTensor, shape: tuple[int, ...]) -> aclTensor:
    """A contiguous view of a dense tensor with another shape (the real ops' Reshape of a contiguous input)."""
    view = executor.create_view(x, shape, x.offset)
    view.strides = contiguous_strides(shape)
    return view
