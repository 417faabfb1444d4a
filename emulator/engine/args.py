"""Argument packers: OP_INPUT, OP_OUTPUT, OP_ATTR, OP_WORKSPACE, OP_OUTSHAPE, OP_OPTION, OP_MODE.

C++ picks an argument's ``OpArgType`` from its static type; Python has none, so attributes whose
type matters for keys and tiling are wrapped (``Float32(x)``, ``Int64(x)``, ``DType(x)`` …), and a
bare Python value is read as C++ would read the natural type (int -> int64, float -> float32,
bool -> bool, str -> string), like opbase's argument packers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from emulator.meta.objects import aclTensor, aclTensorList


class OpArgType(IntEnum):
    OPARG_ACLTENSOR = 0
    OPARG_ACLTENSOR_LIST = 1
    OPARG_ACLSCALAR = 2
    OPARG_STRING = 3
    OPARG_BOOL = 4
    OPARG_INT = 5
    OPARG_UINT = 6
    OPARG_FLOAT = 7
    OPARG_DOUBLE = 8
    OPARG_DATATYPE = 9
    OPARG_INT_LIST = 10
    OPARG_UINT_LIST = 11
    OPARG_FLOAT_LIST = 12
    OPARG_BOOL_LIST = 13
    OPARG_IMPLMODE = 14


@dataclass(frozen=True, slots=True)
class Attr:
    """A typed attribute value."""

    value: Any
    type: OpArgType


def Int64(value: int) -> Attr:  # noqa: N802 - mirrors the C++ types
    return Attr(int(value), OpArgType.OPARG_INT)


def UInt32(value: int) -> Attr:  # noqa: N802
    return Attr(int(value), OpArgType.OPARG_UINT)


def Float32(value: float) -> Attr:  # noqa: N802
    return Attr(float(value), OpArgType.OPARG_FLOAT)


def Float64(value: float) -> Attr:  # noqa: N802
    return Attr(float(value), OpArgType.OPARG_DOUBLE)


def DType(value: int) -> Attr:  # noqa: N802
    return Attr(int(value), OpArgType.OPARG_DATATYPE)


def Bool(value: bool) -> Attr:  # noqa: N802
    return Attr(bool(value), OpArgType.OPARG_BOOL)


def Str(value: str) -> Attr:  # noqa: N802
    return Attr(str(value), OpArgType.OPARG_STRING)


def as_attr(value: Any) -> Attr:
    if isinstance(value, Attr):
        return value
    if isinstance(value, bool):
        return Bool(value)
    if isinstance(value, int):
        return Int64(value)
    if isinstance(value, float):
        return Float32(value)
    if isinstance(value, str):
        return Str(value)
    return Attr(value, OpArgType.OPARG_INT_LIST if isinstance(value, list | tuple) else OpArgType.OPARG_ACLSCALAR)


@dataclass(frozen=True, slots=True)
class Group:
    kind: str
    values: tuple[Any, ...]


def OP_INPUT(*tensors: aclTensor | aclTensorList | None) -> Group:  # noqa: N802 - the C macro names
    return Group("input", tensors)


def OP_OUTPUT(*tensors: aclTensor | aclTensorList | None) -> Group:  # noqa: N802
    return Group("output", tensors)


def OP_ATTR(*values: Any) -> Group:  # noqa: N802
    return Group("attr", tuple(as_attr(v) for v in values))


def OP_WORKSPACE(*tensors: aclTensor | aclTensorList) -> Group:  # noqa: N802
    return Group("workspace", tensors)


def OP_OUTSHAPE(tensor: aclTensor, index: int) -> Group:  # noqa: N802
    return Group("outshape", (tensor, index))


def OP_OPTION(mode: int) -> Group:  # noqa: N802
    return Group("option", (mode,))


def OP_MODE(mode: int) -> Group:  # noqa: N802
    return Group("mode", (mode,))


OP_EMPTY_ARG = Group("empty", ())


@dataclass
class ArgPack:
    """The packed groups; same-kind groups are concatenated in call order."""

    inputs: list[Any] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    attrs: list[Attr] = field(default_factory=list)
    workspace: list[Any] = field(default_factory=list)
    outshape: list[tuple[aclTensor, int]] = field(default_factory=list)
    impl_mode: int = 0x1  # IMPL_MODE_DEFAULT
    exec_mode: int = 0

    @classmethod
    def of(cls, groups: tuple[Group, ...]) -> ArgPack:
        pack = cls()
        for group in groups:
            if group.kind == "input":
                pack.inputs.extend(group.values)
            elif group.kind == "output":
                pack.outputs.extend(group.values)
            elif group.kind == "attr":
                pack.attrs.extend(group.values)
            elif group.kind == "workspace":
                pack.workspace.extend(group.values)
            elif group.kind == "outshape":
                pack.outshape.append((group.values[0], int(group.values[1])))
            elif group.kind == "option":
                pack.impl_mode = int(group.values[0])  # the last OP_OPTION wins
            elif group.kind == "mode":
                pack.exec_mode = int(group.values[0])
        return pack

    @property
    def attr_values(self) -> list[Any]:
        return [a.value for a in self.attrs]


def flatten(args: list[Any]) -> list[aclTensor | None]:
    """Tensor lists contribute each member, in order."""
    flat: list[aclTensor | None] = []
    for arg in args:
        if isinstance(arg, aclTensorList):
            for member in arg.values:
                assert member is None or isinstance(member, aclTensor), "a tensor list holds tensors and nulls"
                flat.append(member)
        else:
            flat.append(arg)
    return flat
