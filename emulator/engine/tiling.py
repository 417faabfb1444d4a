"""What an op brings to the engine (``OpImpl``) and what tiling sees and returns.

The real ops register tiling functions from shared libraries; here an op module builds one
``OpImpl`` (its name, its SPMD kernel, its TilingParse and Tiling functions, its shape
inference) and hands it to the L0 calls that launch it. Tiling is pure: it gets a
``TilingContext`` (tensor descriptions, attributes, compile info, platform numbers) and returns a
``TilingResult`` whose data is a ``ctypes.Structure`` — so the bytes a kernel block receives are
the C layout of the tiling-data struct, as on a card.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from emulator.device.interface import NO_ATTRS, Engine, KernelAttrs, KernelFunc
from emulator.device.soc import SocProfile


@dataclass(frozen=True, slots=True)
class TensorDesc:
    """What tiling and key generation may know about a tensor: never its data."""

    view_shape: tuple[int, ...]
    storage_shape: tuple[int, ...]
    dtype: int
    format: int

    @property
    def numel(self) -> int:
        n = 1
        for dim in self.view_shape:
            n *= dim
        return n


@dataclass(frozen=True, slots=True)
class PlatformInfo:
    """op::PlatformInfo as tiling sees it: the SoC profile with the thread's core numbers written in."""

    soc: SocProfile
    aic_num: int
    aiv_num: int
    core_num: int  # what SetCoreNum chose for the bin's coreType

    @property
    def ub_size(self) -> int:
        return self.soc.ub_size

    @property
    def block_size(self) -> int:
        return self.soc.ubblock_size


@dataclass(frozen=True, slots=True)
class TilingContext:
    op_type: str
    inputs: tuple[TensorDesc | None, ...]
    outputs: tuple[TensorDesc | None, ...]
    attrs: tuple[Any, ...]
    compile_info: Any
    platform: PlatformInfo
    deterministic: bool = False


@runtime_checkable
class UbPlan(Protocol):
    """A tiling-data struct that knows the unified buffer a kernel reading it allocates.

    On a card the UB a block uses is what the kernel's Init allocates from the tiling fields it
    reads (tile length x element size x buffer count); a struct with this method restates that,
    so a tiling that declares less than its own tile sizes imply cannot slip past the UB check.
    """

    def ub_bytes(self, itemsizes: Sequence[int]) -> int: ...


@dataclass(frozen=True, slots=True)
class TilingResult:
    """The outputs of a tiling function; ``ub_bytes_per_block`` is what each block will hold in UB."""

    tiling_key: int
    block_dim: int
    data: ctypes.Structure | None = None
    workspace_sizes: tuple[int, ...] = ()
    atomic_clean: bool = False
    schedule_mode: int = 0
    local_memory_size: int = 0
    ub_bytes_per_block: int = 0

    @property
    def tiling_bytes(self) -> bytes:
        return bytes(self.data) if self.data is not None else b""

    def ub_use(self, itemsizes: Sequence[int]) -> int:
        """UB per block as the device checks it: the declaration, or what the tile sizes imply when more."""
        plan = getattr(self.data, "ub_bytes", None)  # a UbPlan (getattr: isinstance on a Protocol is slow)
        implied = int(plan(itemsizes)) if plan is not None else 0
        return max(self.ub_bytes_per_block, implied)


@dataclass(frozen=True, slots=True)
class KernelSignature:
    """What the launch knows of the binary it runs, before the op gives it names and types.

    The non-null tensors (inputs, then outputs, tensor lists member by member) in launch order, as the
    numpy dtype and view shape of each, and the ``OP_ATTR`` values in call order. The op's
    ``kernel_attrs`` turns this into its own ``KernelAttrs`` dataclass: the one place where a
    position becomes a named, typed field, next to the ``attr_names`` it declares.
    """

    dtypes: tuple[np.dtype, ...]
    shapes: tuple[tuple[int, ...], ...]
    attrs: tuple[Any, ...]


def no_kernel_attrs(signature: KernelSignature) -> KernelAttrs:
    """The ``kernel_attrs`` of an op whose kernel reads nothing baked in."""
    return NO_ATTRS


TilingFunc = Callable[[TilingContext], TilingResult]
KernelAttrsFunc = Callable[[KernelSignature], KernelAttrs]
TilingParseFunc = Callable[[Any, PlatformInfo], Any]
InferShapeFunc = Callable[[Sequence[TensorDesc | None], Sequence[Any]], Sequence[tuple[int, ...]]]


@dataclass(frozen=True)
class BinSpec:
    """One pre-compiled binary of an op: the dtypes (and formats) it serves; becomes a binList entry."""

    inputs: tuple[str | None, ...]  # binary-config dtype strings ("float16", "float" …); None = absent
    outputs: tuple[str, ...]
    formats: str = "ND"
    impl_mode: str = "high_performance"


@dataclass(frozen=True)
class OpImpl:
    """One L0 op as the engine knows it (the Python stand-in for its tiling library and binary).

    ``bins``, ``attrs`` and ``kernel_json`` describe its binaries; ``kernels.build_opp`` writes them into
    the shipped op package in the real on-disk format, from which the engine reads them back.
    ``kernel_attrs`` builds what the binary has baked in (the op's ``KernelAttrs`` dataclass, declared
    next to ``kernel``) from the launch's ``KernelSignature``; every block of the launch receives it.
    ``moved_inputs`` / ``unread_inputs`` tell initcheck which inputs are data the kernel only moves
    and which it never reads; by default a kernel computes from all of them.
    """

    op_type: str
    kernel: KernelFunc
    tiling: TilingFunc | None = None
    tiling_parse: TilingParseFunc | None = None
    infer_shape: InferShapeFunc | None = None
    engine: Engine = Engine.AICORE
    attr_names: tuple[str, ...] = ()
    attrs: tuple[tuple[str, str], ...] = ()  # (name, binary-config dtype string) of each attribute
    bins: tuple[BinSpec, ...] = ()
    kernel_json: dict[str, Any] = field(default_factory=dict)
    input_names: tuple[str, ...] = ("x",)
    output_names: tuple[str, ...] = ("y",)
    kernel_attrs: KernelAttrsFunc = no_kernel_attrs
    # initcheck: inputs (by name) whose bytes the kernel copies to its outputs without computing
    # (a transpose, a concat, a gather) and inputs whose data it never reads (only their shape);
    # every other input is computed from, so reading never-written bytes of it is reported
    moved_inputs: tuple[str, ...] = ()
    unread_inputs: tuple[str, ...] = ()
    scatters: bool = False  # writes only part of its output buffers (a strided scatter into a storage)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def align_up(n: int, to: int) -> int:
    return ceil_div(n, to) * to
