"""The attribute carrier of the ops-nn unary activations (LeakyRelu, Elu, SoftplusV2, GeluV2, HardSigmoid).

Each of their kernels is a unary elementwise kernel (``unary_op``) that reads a few attributes baked
into its binary's signature; one ``KernelAttrs`` class holds them, in the order the op declares them,
so each op module only names its attributes and writes its compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.unary import UnaryAttrs


@dataclass(frozen=True, slots=True)
class AttrValues(UnaryAttrs):
    """A unary binary's dtypes and its attribute values (``defaults`` where the launch passed none)."""

    values: tuple[Any, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> AttrValues:
        dx, dy = signature.dtypes
        return cls(dx, dy, tuple(signature.attrs))
