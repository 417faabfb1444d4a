"""The binary elementwise kernel family (Add, Mul, Axpy …): one tiling, one SPMD kernel shape.

Tiling is the elementwise template over the output's elements (three tensors share the UB). Each
block computes its [lo, hi) range of the flattened output; an input with the output's shape is read
with the same range, a broadcast input through the broadcast index map, a 1-element input as a
scalar. Numerics follow the A2 kernels: float16 computes in float16, bfloat16 and the mixed
float16/bfloat16 + float32 pairs compute in float32 and round the result to the output dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import ml_dtypes
import numpy as np

from emulator.device.interface import BlockContext, Engine, KernelAttrs
from emulator.engine.tiling import KernelAttrsFunc, KernelSignature, TensorDesc
from emulator.kernels.math.reduce_common import pieces
from emulator.opdev import (
    BinSpec,
    OpImpl,
    RangeKernel,
    TilingContext,
    TilingResult,
    block_range,
    elementwise_tiling,
)

Shape = tuple[int, ...]
BF16 = np.dtype(ml_dtypes.bfloat16)


@dataclass(frozen=True, slots=True)
class BinaryAttrs(KernelAttrs):
    """What a binary elementwise (or comparison) binary has baked in: dtypes and shapes of x1, x2, y."""

    x1_dtype: np.dtype
    x2_dtype: np.dtype
    y_dtype: np.dtype
    x1_shape: Shape
    x2_shape: Shape
    y_shape: Shape

    @classmethod
    def of(cls, signature: KernelSignature) -> BinaryAttrs:
        d1, d2, dy = signature.dtypes
        s1, s2, sy = signature.shapes
        return cls(d1, d2, dy, s1, s2, sy)


A = TypeVar("A", bound=BinaryAttrs)
# compute(a, b, ctx, out): ``out`` is the block's slice of the output when it already has the
# compute dtype, so the result lands in place (one pass over memory, as numpy's own out=), else None
Compute = Callable[[np.ndarray, np.ndarray, BlockContext[A], np.ndarray | None], np.ndarray]


def broadcast_shape(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """NumPy broadcasting; None when the shapes do not broadcast."""
    out = []
    for x, y in zip(
        reversed((1,) * (len(b) - len(a)) + tuple(a)), reversed((1,) * (len(a) - len(b)) + tuple(b)), strict=True
    ):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(reversed(out))


def _read(
    view: np.ndarray, dtype: np.dtype, shape: tuple[int, ...], out_shape: tuple[int, ...], lo: int, hi: int
) -> np.ndarray:
    data = view.view(dtype)
    if shape == out_shape:
        return data[lo:hi]
    count = 1
    for d in shape:
        count *= d
    if count == 1:
        return data[:1]
    # a broadcast view of the input in the output's shape, copied piece by piece (hyper-rectangles
    # contiguous in the output's flat order): the same elements an index gather would pick, without
    # building an int64 index of the range
    padded = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    full = np.broadcast_to(data[:count].reshape(padded), out_shape)
    result = np.empty(hi - lo, dtype)
    position = 0
    for index in pieces(lo, hi, out_shape):
        part = full[index]
        np.copyto(result[position : position + part.size].reshape(part.shape), part)
        position += part.size
    return result


def compute_dtype(a: np.dtype, b: np.dtype, out: np.dtype) -> np.dtype:
    """float32 for bfloat16 and mixed pairs, else the (common) input dtype."""
    if BF16 in (a, b, out) or a != b:
        return np.dtype(np.float32) if out.kind in "fV" or out == BF16 else out
    return a


def binary_kernel(compute: Compute[A]) -> RangeKernel:
    """A range kernel (contiguous blocks run as one range, see ``RangeKernel``): each element's result
    is the same whatever range computes it, so merging blocks is bit-identical."""

    def body(ctx: BlockContext[A], lo: int, hi: int, x1: np.ndarray, x2: np.ndarray, y: np.ndarray) -> None:
        attrs = ctx.attrs
        d1, d2, dy = attrs.x1_dtype, attrs.x2_dtype, attrs.y_dtype
        a = _read(x1, d1, attrs.x1_shape, attrs.y_shape, lo, hi)
        b = _read(x2, d2, attrs.x2_shape, attrs.y_shape, lo, hi)
        work = compute_dtype(d1, d2, dy)
        dest = y.view(dy)[lo:hi]
        # overflow to an infinity (and inf - inf to NaN) is the IEEE result the card's vector unit
        # gives too: numpy's warning about it must not escape as an error from a user's test run
        with np.errstate(over="ignore", invalid="ignore"):
            if work == dy:
                compute(a.astype(work, copy=False), b.astype(work, copy=False), ctx, dest)
                return
            result = compute(a.astype(work, copy=False), b.astype(work, copy=False), ctx, None)
            dest[...] = result.astype(dy, copy=False)

    return BinaryKernel(body, compute)


class BinaryKernel(RangeKernel):
    """A binary range kernel that can also bind a run of blocks to its views (``bind_blocks``).

    A launch plan runs the same launch over the same views again and again; when both inputs are
    read as they are (no broadcast gather, no cast: each is a slice of its view) and the result
    lands in the output in place, everything but the numbers is the same each run, so the slices
    are cut once and each run is the one ``compute`` call into the output's slice.
    """

    __slots__ = ("compute",)

    def __init__(self, body: Callable[..., None], compute: Compute[Any]) -> None:
        super().__init__(body)
        self.compute = compute

    def bind_blocks(
        self, first: BlockContext[Any], count: int, x1: np.ndarray, x2: np.ndarray, y: np.ndarray
    ) -> Callable[[], None] | None:
        """``run_blocks(first, count, x1, x2, y)`` bound to these views, or None where it would gather or cast."""
        attrs = first.attrs
        d1, d2, dy = attrs.x1_dtype, attrs.x2_dtype, attrs.y_dtype
        if not d1 == d2 == dy == compute_dtype(d1, d2, dy):
            return None
        out_shape = attrs.y_shape
        if any(shape != out_shape and _count(shape) != 1 for shape in (attrs.x1_shape, attrs.x2_shape)):
            return None
        lo = block_range(first.tiling, first.block_idx)[0]
        hi = block_range(first.tiling, first.block_idx + count - 1)[1]
        if lo >= hi:
            return _nothing
        a = _read(x1, d1, attrs.x1_shape, out_shape, lo, hi)  # views: each run reads the bytes they show then
        b = _read(x2, d2, attrs.x2_shape, out_shape, lo, hi)
        dest = y.view(dy)[lo:hi]
        compute = self.compute

        def run() -> None:
            with np.errstate(over="ignore", invalid="ignore"):  # as the body: IEEE results, no warnings
                compute(a, b, first, dest)

        return run


def _count(shape: tuple[int, ...]) -> int:
    count = 1
    for d in shape:
        count *= d
    return count


def _nothing() -> None:
    """An empty range: nothing to compute."""


def binary_tiling(ctx: TilingContext) -> TilingResult:
    out = ctx.outputs[0]
    assert out is not None
    return elementwise_tiling(ctx, out.numel, 3)


def infer_broadcast(inputs: Sequence[TensorDesc | None], attrs: Sequence[object]) -> list[tuple[int, ...]]:
    """InferShape of a broadcasting binary op: the broadcast of the two input shapes."""
    x1, x2 = inputs[0], inputs[1]
    assert x1 is not None and x2 is not None, "both inputs of a binary op are required"
    shape = broadcast_shape(x1.view_shape, x2.view_shape)
    if shape is None:
        raise ValueError("shapes do not broadcast")
    return [shape]


def binary_op(
    op_type: str,
    compute: Compute[A],
    aicore: Sequence[str],
    mixed: Sequence[tuple[str, str, str]] = (),
    attrs: tuple[tuple[str, str], ...] = (),
    kernel_attrs: Callable[[KernelSignature], A] | None = None,
) -> tuple[OpImpl, OpImpl]:
    """The AI Core op (with its binaries) and the AI CPU op of one binary elementwise kernel.

    ``kernel_attrs`` builds the ``BinaryAttrs`` (sub)class ``compute`` reads: an op with attributes
    (Axpy's alpha) passes the factory of its subclass (the type checker then holds the two to the same
    class), the others get ``BinaryAttrs.of``."""
    factory: KernelAttrsFunc = kernel_attrs or BinaryAttrs.of
    bins = tuple(BinSpec((d, d), (d,)) for d in aicore) + tuple(BinSpec((a, b), (o,)) for a, b, o in mixed)
    kernel = binary_kernel(compute)
    names = tuple(name for name, _ in attrs)
    aicore_impl = OpImpl(
        op_type, kernel, binary_tiling, infer_shape=infer_broadcast, attr_names=names, attrs=attrs, bins=bins,
        input_names=("x1", "x2"), kernel_attrs=factory,
    )  # fmt: skip
    aicpu_impl = OpImpl(
        op_type, kernel, binary_tiling, infer_shape=infer_broadcast, engine=Engine.AICPU, attr_names=names,
        attrs=attrs, input_names=("x1", "x2"), kernel_attrs=factory,
    )  # fmt: skip
    return aicore_impl, aicpu_impl
